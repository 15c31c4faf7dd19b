/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * qaic-fuzz: the workers. The table of operations (weights, locking,
 * where they may run), choosing and running one, a worker's loop, bursts
 * of operations in two threads, forked children and early exits.
 *
 * Copyright (c) 2026 The qaic authors.
 */
#ifndef QAIC_FUZZ_WORKER_H
#define QAIC_FUZZ_WORKER_H

#include <stdint.h>

#include "fuzz.h"

/* Exit status of a worker that stopped early, to be started again. */
#define EXIT_RESTART	42

void ops_init(void);
const char *op_name(int op);
void become(struct tctx *t, int op);
void worker_main(int idx, uint64_t rng, int procs);

#endif /* QAIC_FUZZ_WORKER_H */
