/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * qaic-fuzz: the files of the device. Opening (also with odd flags),
 * dup(), closing a descriptor with work in flight, and ioctl numbers that
 * are not qaic's or DRM's.
 *
 * Copyright (c) 2026 The qaic authors.
 */
#ifndef QAIC_FUZZ_FILES_H
#define QAIC_FUZZ_FILES_H

#include "fuzz.h"

void op_open(struct tctx *t);
void op_dup(struct tctx *t);
void op_close(struct tctx *t);
void op_bad_ioctl(struct tctx *t);

#endif /* QAIC_FUZZ_FILES_H */
