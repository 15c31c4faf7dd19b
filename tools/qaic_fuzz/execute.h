/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * qaic-fuzz: running work on a DBC. EXECUTE_BO and PARTIAL_EXECUTE_BO of
 * objects sliced for it, WAIT_BO, PERF_STATS_BO, and SUBMIT, an execute
 * that waits for syncobjs and signals one.
 *
 * Copyright (c) 2026 The qaic authors.
 */
#ifndef QAIC_FUZZ_EXECUTE_H
#define QAIC_FUZZ_EXECUTE_H

#include "fuzz.h"

void op_execute(struct tctx *t);
void op_partial(struct tctx *t);
void op_wait(struct tctx *t);
void op_perf(struct tctx *t);
void op_submit(struct tctx *t);

#endif /* QAIC_FUZZ_EXECUTE_H */
