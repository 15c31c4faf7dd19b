/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * qaic-fuzz: slicing. ATTACH_SLICE_BO with slices the driver accepts
 * (semaphores, doorbells) or with one field broken, and
 * DETACH_SLICE_BO.
 *
 * Copyright (c) 2026 The qaic authors.
 */
#ifndef QAIC_FUZZ_SLICING_H
#define QAIC_FUZZ_SLICING_H

#include "fuzz.h"

void op_attach(struct tctx *t);
void op_detach(struct tctx *t);

#endif /* QAIC_FUZZ_SLICING_H */
