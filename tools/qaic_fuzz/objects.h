/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * qaic-fuzz: buffer objects and their mappings. CREATE_BO, GEM_CLOSE and
 * MMAP_BO; mmap() of objects (whole, a part, past the end, private,
 * executable), touching the mapped bytes, munmap() of all or a tail.
 *
 * Copyright (c) 2026 The qaic authors.
 */
#ifndef QAIC_FUZZ_OBJECTS_H
#define QAIC_FUZZ_OBJECTS_H

#include <signal.h>

#include "fuzz.h"

void op_create(struct tctx *t);
void op_gem_close(struct tctx *t);
void op_mmap_bo(struct tctx *t);
void on_fault(int sig, siginfo_t *si, void *uc);
void touch_map(struct tctx *t, struct map *m);
void op_touch(struct tctx *t);
void op_mmap(struct tctx *t);
void op_munmap(struct tctx *t);

#endif /* QAIC_FUZZ_OBJECTS_H */
