/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * qaic-fuzz: the DRM core's syncobjs (binary and timeline): create,
 * destroy, wait, signal, reset, query, transfer, eventfd, export to and
 * import from a file or a sync_file; and the sync_files themselves.
 *
 * Copyright (c) 2026 The qaic authors.
 */
#ifndef QAIC_FUZZ_SYNCOBJ_H
#define QAIC_FUZZ_SYNCOBJ_H

#include "fuzz.h"

void op_so_create(struct tctx *t);
void op_so_destroy(struct tctx *t);
void op_so_wait(struct tctx *t);
void op_so_signal(struct tctx *t);
void op_so_reset(struct tctx *t);
void op_so_misc(struct tctx *t);
void op_so_export(struct tctx *t);
void op_so_import(struct tctx *t);
void op_sync_file(struct tctx *t);

#endif /* QAIC_FUZZ_SYNCOBJ_H */
