/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * qaic-fuzz: PRIME. Objects exported as dma-bufs and imported into the
 * same file or another, the dma-buf's own ioctls and mmap(), and closing
 * the dma-bufs, sync_files and syncobj files a worker holds.
 *
 * Copyright (c) 2026 The qaic authors.
 */
#ifndef QAIC_FUZZ_PRIME_H
#define QAIC_FUZZ_PRIME_H

#include "fuzz.h"

void op_prime_export(struct tctx *t);
void op_prime_import(struct tctx *t);
void op_dmabuf(struct tctx *t);
void op_xfd_close(struct tctx *t);

#endif /* QAIC_FUZZ_PRIME_H */
