// SPDX-License-Identifier: GPL-2.0-only
/*
 * qaic-fuzz: the PRNG (xorshift64*, seeded with splitmix64) and the
 * mutators of values (boundary values, flipped bits) and of user pointers
 * (NULL, unmapped, read-only, straddling into an unmapped page).
 *
 * Copyright (c) 2026 The qaic authors.
 */

#include <string.h>
#include <sys/mman.h>

#include "fuzz.h"
#include "rng.h"

uint64_t splitmix64(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

uint64_t rng_init(uint64_t s, uint64_t idx)
{
	uint64_t st = s ^ (idx * 0xd1b54a32d192ed03ull), x;

	x = splitmix64(&st);
	return x ? x : 1;
}

/* xorshift64* */
uint64_t rnd64(struct tctx *t)
{
	uint64_t x = t->rng;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	t->rng = x;
	return x * 0x2545f4914f6cdd1dull;
}

/* 0 .. n - 1 */
uint32_t rnd(struct tctx *t, uint32_t n)
{
	return n ? (uint32_t)((rnd64(t) >> 32) % n) : 0;
}

uint64_t rnd_upto(struct tctx *t, uint64_t max)
{
	return max == UINT64_MAX ? rnd64(t) : rnd64(t) % (max + 1);
}

/* True once in @n. */
bool one_in(struct tctx *t, uint32_t n)
{
	return rnd(t, n) == 0;
}

uint64_t boundary64(struct tctx *t)
{
	static const uint64_t v[] = {
		0, 1, 4095, 4096, 4097, 1ull << 31, 1ull << 32, UINT32_MAX,
		UINT64_MAX, INT64_MAX, 1ull << 63, UINT64_MAX - 4095, 0x7fffffff,
	};

	return v[rnd(t, ARRAY_SIZE(v))];
}

uint32_t boundary32(struct tctx *t)
{
	static const uint32_t v[] = {
		0, 1, 15, 16, 17, 4095, 4096, 65535, 65536, 1u << 31, UINT32_MAX,
		0x7fffffff,
	};

	return v[rnd(t, ARRAY_SIZE(v))];
}

/* A boundary value, a bit of @v flipped, or a random value. */
uint64_t mutate64(struct tctx *t, uint64_t v)
{
	switch (rnd(t, 3)) {
	case 0:
		return boundary64(t);
	case 1:
		return v ^ (1ull << rnd(t, 64));
	default:
		return rnd64(t);
	}
}

uint32_t mutate32(struct tctx *t, uint32_t v)
{
	switch (rnd(t, 3)) {
	case 0:
		return boundary32(t);
	case 1:
		return v ^ (1u << rnd(t, 32));
	default:
		return (uint32_t)rnd64(t);
	}
}

/* ------------------------------------------------------ user pointers */

void unarm(struct tctx *t)
{
	if (t->ro_armed) {
		mprotect(t->ro, PAGE, PROT_READ | PROT_WRITE);
		t->ro_armed = false;
	}
}

/*
 * A bad user pointer for @len bytes of @src: NULL, unmapped, read-only
 * (with a copy of @src), straddling into an unmapped page (with the part
 * of @src that fits), a kernel address, or a misaligned copy (which is
 * fine). *@copyback, if not NULL, is set when the pointer holds a
 * writable copy the kernel's answer must be copied back from.
 */
uint64_t bad_ptr(struct tctx *t, const void *src, size_t len, bool *copyback)
{
	uint8_t *p;
	size_t n;

	if (copyback)
		*copyback = false;
	switch (rnd(t, 7)) {
	case 0:
		return 0;
	case 1:
		return (uintptr_t)t->scratch + 2 * PAGE + rnd(t, PAGE);
	case 2:
		/* Half of it (at least a byte) lies in the unmapped page. */
		n = len ? (len + 1) / 2 : 0;
		if (n > PAGE)
			n = PAGE;
		p = t->scratch + 2 * PAGE - n;
		if (src)
			memcpy(p, src, n);
		return (uintptr_t)p;
	case 3:
		if (t->ro_armed)
			return 0;	/* the read-only page holds something already */
		n = len < PAGE ? len : PAGE;
		if (src)
			memcpy(t->ro, src, n);
		mprotect(t->ro, PAGE, PROT_READ);
		t->ro_armed = true;
		return (uintptr_t)t->ro;
	case 4:
		return one_in(t, 2) ? 0xffff888000000000ull : -(uint64_t)PAGE;
	case 5:
		return (uintptr_t)t->scratch + 2 * PAGE - 1;
	default:
		n = len < 2 * PAGE - 1 ? len : 2 * PAGE - 1;
		p = t->scratch + 1;
		if (src)
			memcpy(p, src, n);
		if (copyback)
			*copyback = true;
		return (uintptr_t)p;
	}
}
