/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * qaic-fuzz: the PRNG (xorshift64*, seeded with splitmix64) and the
 * mutators of values (boundary values, flipped bits) and of user pointers
 * (NULL, unmapped, read-only, straddling into an unmapped page).
 *
 * Copyright (c) 2026 The qaic authors.
 */
#ifndef QAIC_FUZZ_RNG_H
#define QAIC_FUZZ_RNG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fuzz.h"

uint64_t splitmix64(uint64_t *s);
uint64_t rng_init(uint64_t s, uint64_t idx);
uint64_t rnd64(struct tctx *t);
uint32_t rnd(struct tctx *t, uint32_t n);
uint64_t rnd_upto(struct tctx *t, uint64_t max);
bool one_in(struct tctx *t, uint32_t n);
uint64_t boundary64(struct tctx *t);
uint32_t boundary32(struct tctx *t);
uint64_t mutate64(struct tctx *t, uint64_t v);
uint32_t mutate32(struct tctx *t, uint32_t v);
void unarm(struct tctx *t);
uint64_t bad_ptr(struct tctx *t, const void *src, size_t len, bool *copyback);

#endif /* QAIC_FUZZ_RNG_H */
