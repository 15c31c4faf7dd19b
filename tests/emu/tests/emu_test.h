/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A tiny check harness for the emulator's host tests: each test program
 * runs its cases, prints every failed check and exits 0 or 1.
 */
#ifndef QAIC_EMU_TEST_H
#define QAIC_EMU_TEST_H

#include <stdint.h>
#include <stdio.h>

static int emu_test_failures;

#define CHECK(cond)							\
	do {								\
		if (!(cond)) {						\
			fprintf(stderr, "%s:%d: %s: CHECK(%s) failed\n", \
				__FILE__, __LINE__, __func__, #cond);	\
			emu_test_failures++;				\
		}							\
	} while (0)

#define CHECK_EQ(a, b)							\
	do {								\
		unsigned long long _a = (unsigned long long)(a);	\
		unsigned long long _b = (unsigned long long)(b);	\
		if (_a != _b) {						\
			fprintf(stderr, "%s:%d: %s: %s == %#llx, expected %s == %#llx\n", \
				__FILE__, __LINE__, __func__, #a, _a, #b, _b); \
			emu_test_failures++;				\
		}							\
	} while (0)

#define RUN(test)							\
	do {								\
		int _before = emu_test_failures;			\
		test();							\
		printf("%s %s\n", emu_test_failures == _before ? "ok  " : "FAIL", #test); \
	} while (0)

/* xorshift64 with a fixed seed: fuzz inputs that reproduce run to run. */
static uint64_t emu_test_rnd_state = 0x9e3779b97f4a7c15ull;

static inline uint64_t emu_test_rnd(void)
{
	emu_test_rnd_state ^= emu_test_rnd_state << 13;
	emu_test_rnd_state ^= emu_test_rnd_state >> 7;
	emu_test_rnd_state ^= emu_test_rnd_state << 17;
	return emu_test_rnd_state;
}

static inline int emu_test_exit(void)
{
	if (emu_test_failures)
		fprintf(stderr, "%d check(s) failed\n", emu_test_failures);
	return emu_test_failures ? 1 : 0;
}

#endif /* QAIC_EMU_TEST_H */
