// SPDX-License-Identifier: GPL-2.0-only
/*
 * The malicious-card mode's mutator (malice.c): options, determinism from
 * the seed, rates, "off means never", and that every mutation stays
 * inside the buffers it is given and does mutate.
 *
 * Copyright (c) 2026 The qaic authors.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "crc32.h"
#include "emu_test.h"
#include "le_bytes.h"
#include "malice.h"

static struct malice *make(uint64_t seed, unsigned int permille, uint32_t kinds)
{
	struct malice_cfg cfg = { .seed = seed, .permille = permille, .kinds = kinds,
				  .boot = true };
	struct malice *m = malice_create(&cfg);

	if (!m)
		abort();
	return m;
}

#define ALL_KINDS	((1u << MALICE_NUM_KINDS) - 1)
#define K(k)		(1u << (k))

static void test_parse(void)
{
	static const char *const bad[] = {
		"", ":", "x", "1:", "1:x", "1:1001", "1:20:", "1:20:bogus",
		"1:20:mhi,", "1:20:-none", "-1", "1:-5", "1 ", "1:20:mhi:3",
		"99999999999999999999",
	};
	struct malice_cfg c;
	uint32_t def = malice_default_kinds();

	CHECK_EQ(malice_parse("7", &c), 0);
	CHECK_EQ(c.seed, 7);
	CHECK_EQ(c.permille, MALICE_DEFAULT_PERMILLE);
	CHECK_EQ(c.kinds, def);
	/* The MHI state kinds are off by default, everything else on. */
	CHECK(!(def & K(MALICE_MHI_STATE)) && !(def & K(MALICE_MHI_EE)) &&
	      !(def & K(MALICE_MHI_SYSERR)));
	CHECK(!(def & K(MALICE_PROTO_FIELD)) && !(def & K(MALICE_PROTO_LEN)));
	CHECK(def & K(MALICE_RSP_REQID) && def & K(MALICE_MSI_STORM) &&
	      def & K(MALICE_EV_RP) && def & K(MALICE_NNC_CRC));

	CHECK_EQ(malice_parse("0x10:5", &c), 0);
	CHECK_EQ(c.seed, 16);
	CHECK_EQ(c.permille, 5);
	CHECK_EQ(malice_parse("18446744073709551615:1000:mhi", &c), 0);
	CHECK_EQ(c.seed, UINT64_MAX);
	CHECK_EQ(c.permille, 1000);
	CHECK_EQ(c.kinds, def | K(MALICE_MHI_STATE) | K(MALICE_MHI_EE) |
		 K(MALICE_MHI_SYSERR));
	CHECK_EQ(malice_parse("1:0", &c), 0);
	CHECK_EQ(c.permille, 0);
	CHECK_EQ(malice_parse("1:20:none,nnc", &c), 0);
	CHECK_EQ(c.kinds, 0xffu << MALICE_NNC_LEN);
	CHECK_EQ(malice_parse("1:20:-msi,+rsptp", &c), 0);
	CHECK_EQ(c.kinds, def & ~(K(MALICE_MSI_SPURIOUS) | K(MALICE_MSI_DROP) |
				  K(MALICE_MSI_STORM)));
	CHECK_EQ(malice_parse("1:20:none,msi_drop,mhi_syserr", &c), 0);
	CHECK_EQ(c.kinds, K(MALICE_MSI_DROP) | K(MALICE_MHI_SYSERR));
	CHECK_EQ(malice_parse("1:20:all", &c), 0);
	CHECK_EQ(c.kinds, ALL_KINDS);
	for (unsigned int i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		c.seed = 12345;
		if (malice_parse(bad[i], &c) != -EINVAL) {
			fprintf(stderr, "accepted \"%s\"\n", bad[i]);
			CHECK(0);
		}
		CHECK_EQ(c.seed, 12345);	/* untouched on error */
	}
	CHECK_EQ(malice_parse(NULL, &c), -EINVAL);
	/* "boot": armed from power-on; not by default. */
	CHECK_EQ(malice_parse("3", &c), 0);
	CHECK(!c.boot);
	CHECK_EQ(malice_parse("3:20:boot", &c), 0);
	CHECK(c.boot);
	CHECK_EQ(c.kinds, def);
	CHECK_EQ(malice_parse("3:20:mhi,boot,-boot", &c), 0);
	CHECK(!c.boot);
	CHECK_EQ(malice_parse("3:20:-boot,none,rsptp,boot", &c), 0);
	CHECK(c.boot);
	CHECK_EQ(c.kinds, K(MALICE_RSPTP));
	for (unsigned int k = 0; k < MALICE_NUM_KINDS; k++)
		CHECK(strcmp(malice_kind_name(k), "?"));
}

/* A mixed sequence of calls, folded into one number. */
static uint64_t run_sequence(struct malice *m, unsigned int n)
{
	uint64_t h = 0xcbf29ce484222325ull;
	uint16_t older[3] = { 1, 2, 3 };
	uint8_t msg[256];

	for (unsigned int i = 0; i < n; i++) {
		uint64_t ptr = 0x1000 + 16 * (i % 64);
		uint32_t dw0 = 0x02000040, dw1 = 0x0a220000;
		size_t len;

		h = (h ^ malice_hit(m, (enum malice_kind)(i % MALICE_NUM_KINDS))) * 0x100000001b3ull;
		h = (h ^ malice_u32(m, MALICE_RSP_STATUS, 0)) * 0x100000001b3ull;
		h = (h ^ malice_reqid(m, (uint16_t)i, older, 3)) * 0x100000001b3ull;
		h = (h ^ malice_index(m, MALICE_RSPTP, i % 100, 100)) * 0x100000001b3ull;
		h = (h ^ malice_index(m, MALICE_REQHP, i % 100, 100)) * 0x100000001b3ull;
		malice_mhi_event(m, &ptr, &dw0, &dw1);
		h = (h ^ ptr ^ dw0 ^ (uint64_t)dw1 << 32) * 0x100000001b3ull;
		h = (h ^ malice_ring_ptr(m, ptr, 0x1000, 1024)) * 0x100000001b3ull;
		memset(msg, (int)i, sizeof(msg));
		put_le32(msg + 12, 64);
		put_le32(msg + 36, 32);
		len = malice_nnc(m, msg, 64, sizeof(msg));
		h = (h ^ len ^ emu_crc32(0, msg, len)) * 0x100000001b3ull;
	}
	for (unsigned int k = 0; k < MALICE_NUM_KINDS; k++)
		h = (h ^ malice_count(m, k)) * 0x100000001b3ull;
	return h;
}

/* Nothing is drawn before the card is up; then the stream starts. */
static void test_arming(void)
{
	struct malice_cfg cfg = { .seed = 8, .permille = 500, .kinds = ALL_KINDS };
	struct malice *a = malice_create(&cfg), *b = make(8, 500, ALL_KINDS);
	uint8_t msg[64] = { 0 };

	CHECK(!malice_armed(a));
	CHECK(malice_armed(b));
	for (unsigned int i = 0; i < 1000; i++) {
		uint64_t ptr = 16;
		uint32_t dw0 = 0, dw1 = 0x22u << 16;

		for (unsigned int k = 0; k < MALICE_NUM_KINDS; k++) {
			CHECK(!malice_enabled(a, k));
			CHECK(!malice_hit(a, k));
		}
		CHECK_EQ(malice_u32(a, MALICE_RSP_STATUS, 0), 0);
		CHECK(!malice_mhi_event(a, &ptr, &dw0, &dw1));
		CHECK_EQ(malice_nnc(a, msg, 40, sizeof(msg)), 40);
		CHECK(!malice_storm(a, 1));
	}
	for (unsigned int k = 0; k < MALICE_NUM_KINDS; k++)
		CHECK_EQ(malice_count(a, k), 0);
	malice_arm(a);
	malice_arm(a);
	malice_arm(NULL);
	CHECK(malice_armed(a));
	CHECK(!malice_armed(NULL));
	/* Same decisions as one armed from the start. */
	for (unsigned int i = 0; i < 1000; i++)
		for (unsigned int k = 0; k < MALICE_NUM_KINDS; k++)
			CHECK_EQ(malice_hit(a, k), malice_hit(b, k));
	malice_destroy(a);
	malice_destroy(b);
}

static void test_determinism(void)
{
	struct malice *a = make(42, 100, ALL_KINDS), *b = make(42, 100, ALL_KINDS);
	struct malice *c = make(43, 100, ALL_KINDS);
	uint64_t ha = run_sequence(a, 5000), hb = run_sequence(b, 5000);

	CHECK_EQ(ha, hb);
	CHECK(run_sequence(c, 5000) != ha);
	for (unsigned int k = 0; k < MALICE_NUM_KINDS; k++)
		CHECK_EQ(malice_count(a, k), malice_count(b, k));
	malice_destroy(a);
	malice_destroy(b);
	malice_destroy(c);

	/*
	 * Each kind has its own stream: how often another kind was asked
	 * does not change the n-th decision of this one.
	 */
	a = make(9, 300, ALL_KINDS);
	b = make(9, 300, ALL_KINDS);
	for (unsigned int i = 0; i < 1000; i++) {
		bool x, y;

		if (i % 3 == 0)
			malice_hit(b, MALICE_MSI_SPURIOUS);
		malice_hit(b, MALICE_RSPTP);
		x = malice_hit(a, MALICE_RSP_REQID);
		y = malice_hit(b, MALICE_RSP_REQID);
		CHECK_EQ(x, y);
		CHECK_EQ(malice_u32(a, MALICE_RSP_STATUS, 5),
			 malice_u32(b, MALICE_RSP_STATUS, 5));
	}
	malice_destroy(a);
	malice_destroy(b);
}

static void test_rates(void)
{
	static const unsigned int pms[] = { 1, 20, 100, 500 };
	const unsigned int n = 200000;

	for (unsigned int p = 0; p < sizeof(pms) / sizeof(pms[0]); p++) {
		struct malice *m = make(p + 1, pms[p], ALL_KINDS);

		for (unsigned int k = 0; k < MALICE_NUM_KINDS; k++) {
			/* The MHI state kinds run at a tenth of the rate. */
			bool mhi = k >= MALICE_MHI_STATE && k <= MALICE_MHI_SYSERR;
			double expect = (double)n * pms[p] / (mhi ? 10000.0 : 1000.0);
			unsigned int hits = 0;

			for (unsigned int i = 0; i < n; i++)
				hits += malice_hit(m, k);
			CHECK_EQ(malice_count(m, k), hits);
			/* Within 5 standard deviations (binomial) plus slack. */
			if ((double)hits < expect - 5 * __builtin_sqrt(expect) - 2 ||
			    (double)hits > expect + 5 * __builtin_sqrt(expect) + 2) {
				fprintf(stderr, "%s at %u permille: %u hits of %u, expected %.0f\n",
					malice_kind_name(k), pms[p], hits, n, expect);
				CHECK(0);
			}
		}
		malice_destroy(m);
	}
	/* 1000 per mille: every decision. */
	{
		struct malice *m = make(5, 1000, malice_default_kinds());

		for (unsigned int i = 0; i < 1000; i++) {
			CHECK(malice_hit(m, MALICE_MSI_DROP));
			CHECK(malice_u32(m, MALICE_RSP_STATUS, 0) != 0);
		}
		malice_destroy(m);
	}
}

/* Nothing changes: NULL, permille 0, or the kind not selected. */
static void check_never(struct malice *m)
{
	uint16_t older[2] = { 7, 8 };
	uint8_t msg[128], copy[128];

	for (unsigned int i = 0; i < 20000; i++) {
		uint64_t ptr = 0x2000 + 16 * (i % 8);
		uint32_t dw0 = 0x02000000 | (i & 0xffff), dw1 = 0x0b220000;
		unsigned int v;

		for (unsigned int k = 0; k < MALICE_NUM_KINDS; k++)
			CHECK(!malice_hit(m, k));
		CHECK_EQ(malice_u32(m, MALICE_RSP_STATUS, i & 3), i & 3);
		CHECK_EQ(malice_u32(m, MALICE_NNC_SEQ, i), i);
		CHECK_EQ(malice_reqid(m, (uint16_t)i, older, 2), (uint16_t)i);
		CHECK_EQ(malice_index(m, MALICE_RSPTP, i % 64, 64), i % 64);
		CHECK_EQ(malice_index(m, MALICE_REQHP, i % 64, 64), i % 64);
		CHECK(!malice_mhi_event(m, &ptr, &dw0, &dw1));
		CHECK_EQ(ptr, 0x2000 + 16 * (i % 8));
		CHECK_EQ(dw0, 0x02000000 | (i & 0xffff));
		CHECK_EQ(dw1, 0x0b220000);
		CHECK_EQ(malice_ring_ptr(m, 0x2010, 0x2000, 128), 0x2010);
		CHECK(!malice_storm(m, 3));
		CHECK_EQ(malice_storm_take(m, &v), 0);
		CHECK_EQ(malice_timeout_ms(m), -1);
		for (unsigned int b = 0; b < sizeof(msg); b++)
			msg[b] = (uint8_t)(i * 31 + b);
		memcpy(copy, msg, sizeof(msg));
		CHECK_EQ(malice_nnc(m, msg, 96, sizeof(msg)), 96);
		CHECK(!memcmp(msg, copy, sizeof(msg)));
	}
	for (unsigned int k = 0; k < MALICE_NUM_KINDS; k++)
		CHECK_EQ(malice_count(m, k), 0);
}

static void test_off(void)
{
	struct malice *m;

	check_never(NULL);
	for (unsigned int k = 0; k < MALICE_NUM_KINDS; k++)
		CHECK(!malice_enabled(NULL, k));
	CHECK_EQ(malice_rand(NULL, MALICE_RSPTP), 0);

	m = make(1, 0, ALL_KINDS);
	check_never(m);
	malice_destroy(m);

	m = make(1, 1000, 0);
	check_never(m);
	malice_destroy(m);

	/* Only the kinds asked for. */
	m = make(1, 1000, K(MALICE_NNC_SEQ));
	CHECK(malice_enabled(m, MALICE_NNC_SEQ));
	CHECK(!malice_enabled(m, MALICE_RSPTP));
	for (unsigned int i = 0; i < 100; i++) {
		CHECK_EQ(malice_index(m, MALICE_RSPTP, 3, 8), 3);
		CHECK(malice_u32(m, MALICE_NNC_SEQ, i) != i);
	}
	CHECK_EQ(malice_count(m, MALICE_NNC_SEQ), 100);
	CHECK_EQ(malice_count(m, MALICE_RSPTP), 0);
	malice_destroy(m);
}

/* Every mutation mutates, and ring indexes say what they are said to. */
static void test_values(void)
{
	struct malice *m = make(77, 1000, ALL_KINDS);
	unsigned int out = 0, back = 0, ones = 0, ahead = 0;
	unsigned int spur_used = 0, spur_unused = 0;
	uint16_t older[4] = { 10, 11, 12, 13 };
	unsigned int from_older = 0;

	for (unsigned int i = 0; i < 10000; i++) {
		uint32_t nelem = 2 + i % 200, v = i % nelem;
		uint32_t r = malice_index(m, i & 1 ? MALICE_RSPTP : MALICE_REQHP, v, nelem);
		uint16_t id = (uint16_t)(100 + i), rid;
		unsigned int vec;

		CHECK(r != v);
		if (r == UINT32_MAX)
			ones++;
		else if (r >= nelem)
			out++;
		else if (r == (v + 1) % nelem)
			ahead++;
		else
			back++;
		CHECK(malice_u32(m, MALICE_RSP_STATUS, i & 0xffff) != (i & 0xffff));
		CHECK(malice_u32(m, MALICE_RSP_STATUS, 0) != 0);
		CHECK(malice_u32(m, MALICE_RSP_STATUS, 0) <= 0xffff);
		rid = malice_reqid(m, id, older, 4);
		CHECK(rid != id);
		from_older += rid >= 10 && rid <= 13;
		vec = malice_vector(m, 17);
		CHECK(vec < 32);
		if (vec < 17)
			spur_used++;
		else
			spur_unused++;
		/* Inactive channel (nelem 0): all-ones or far out. */
		CHECK(malice_index(m, MALICE_RSPTP, 0, 0) >= 0x80000000u);
	}
	CHECK(out > 500 && back > 500 && ones > 500 && ahead > 500);
	CHECK(spur_used > 1000 && spur_unused > 1000);
	CHECK(from_older > 500);
	malice_destroy(m);
}

static void test_mhi(void)
{
	struct malice *m = make(3, 1000, ALL_KINDS);
	unsigned int ptr_bad = 0, len_bad = 0, type_bad = 0;

	for (unsigned int i = 0; i < 5000; i++) {
		uint64_t ptr = 0x10000 + 16 * (i % 32), p0 = ptr;
		uint32_t dw0 = 0x02000000 | (i % 4096), dw1 = 10u << 24 | 0x22u << 16;
		uint32_t d0 = dw0, d1 = dw1;
		uint64_t rp = 0x20000 + 16 * (i % 64), r;

		CHECK(malice_mhi_event(m, &ptr, &dw0, &dw1));
		ptr_bad += ptr != p0;
		len_bad += (dw0 & 0xffff) != (d0 & 0xffff);
		type_bad += (dw0 >> 24) != (d0 >> 24) || dw1 != d1;

		/* A command completion has no length: left alone. */
		dw0 = 0x01000000;
		dw1 = 0x21u << 16;
		malice_mhi_event(m, &ptr, &dw0, &dw1);
		if (((dw1 >> 16) & 0xff) == 0x21)
			CHECK_EQ(dw0 & 0xffff, 0);

		r = malice_ring_ptr(m, rp, 0x20000, 64 * 16);
		CHECK(r != rp);
		CHECK(r < 0x20000 || r >= 0x20000 + 64 * 16 || (r & 15) ||
		      r != rp);
		CHECK(malice_mhi_state(m) < 256);
		malice_mhi_ee(m);
	}
	CHECK_EQ(malice_count(m, MALICE_EV_PTR), 5000 * 2);
	CHECK_EQ(malice_count(m, MALICE_EV_LEN), 5000);
	CHECK_EQ(malice_count(m, MALICE_EV_RP), 5000);
	CHECK_EQ(ptr_bad, 5000);
	CHECK_EQ(len_bad, 5000);
	CHECK(type_bad > 4000);
	malice_destroy(m);
}

static uint32_t nnc_crc(const uint8_t *msg, size_t len)
{
	static const uint8_t zero[4];

	return emu_crc32(emu_crc32(0, zero, 4), msg + 4, len - 4);
}

/* A well-formed answer: header and two STATUS_FROM_DEV. */
static size_t make_answer(uint8_t *msg, bool crc)
{
	memset(msg, 0, 80);
	put_le32(msg + 4, 0x43494151);
	put_le32(msg + 8, 77);
	put_le32(msg + 12, 80);
	put_le32(msg + 16, 2);
	for (unsigned int t = 0; t < 2; t++) {
		put_le32(msg + 32 + 24 * t, 14);
		put_le32(msg + 36 + 24 * t, 24);
	}
	if (crc)
		put_le32(msg, nnc_crc(msg, 80));
	return 80;
}

static void test_nnc(void)
{
	enum { CAP = 8192 };
	static uint8_t buf[CAP + 64];
	struct malice *m;

	/* One kind at a time, always: what it changes. */
	for (unsigned int k = MALICE_NNC_LEN; k <= MALICE_NNC_CRC; k++) {
		m = make(k, 1000, K(k));
		for (unsigned int i = 0; i < 2000; i++) {
			uint8_t orig[80];
			bool crc = i & 1;
			size_t len = make_answer(buf, crc), n;

			memcpy(orig, buf, len);
			memset(buf + len, 0xa5, sizeof(buf) - len);
			n = malice_nnc(m, buf, len, CAP);
			CHECK(n >= 1 && n <= CAP);
			/* Never beyond cap. */
			for (size_t b = CAP; b < sizeof(buf); b++)
				CHECK_EQ(buf[b], 0xa5);
			switch (k) {
			case MALICE_NNC_TRUNC:
				CHECK(n < len);
				CHECK(!memcmp(buf, orig, n));
				break;
			case MALICE_NNC_OVERSIZE:
				CHECK(n > len);
				break;
			case MALICE_NNC_CRC:
				CHECK_EQ(n, len);
				CHECK(get_le32(buf) != get_le32(orig));
				CHECK(!memcmp(buf + 4, orig + 4, len - 4));
				break;
			default:
				CHECK_EQ(n, len);
				CHECK(memcmp(buf + 4, orig + 4, len - 4));
				/* Re-signed if it was signed. */
				if (crc)
					CHECK_EQ(get_le32(buf), nnc_crc(buf, len));
				else
					CHECK_EQ(get_le32(buf), 0);
				break;
			}
		}
		CHECK_EQ(malice_count(m, k), 2000);
		malice_destroy(m);
	}

	/* Garbage in, any size: stays inside the buffer. */
	m = make(11, 500, ALL_KINDS);
	for (unsigned int i = 0; i < 20000; i++) {
		size_t len = emu_test_rnd() % 300, cap = len + emu_test_rnd() % 300, n;

		for (size_t b = 0; b < len; b++)
			buf[b] = (uint8_t)emu_test_rnd();
		/* Sometimes plausible transaction lengths. */
		if (len >= 40 && (i & 1))
			put_le32(buf + 36, (uint32_t)(emu_test_rnd() % 64));
		memset(buf + cap, 0x5a, sizeof(buf) - cap);
		n = malice_nnc(m, buf, len, cap);
		CHECK(n <= cap);
		CHECK(n >= (len ? 1 : 0));
		for (size_t b = cap; b < cap + 32; b++)
			CHECK_EQ(buf[b], 0x5a);
	}
	malice_destroy(m);
}

static void test_storm(void)
{
	struct malice *m = make(1, 1000, K(MALICE_MSI_STORM));
	struct timespec t0, t1;
	unsigned int total = 0, vector = 99, n;
	int ms;

	CHECK_EQ(malice_timeout_ms(m), -1);
	CHECK(malice_storm(m, 5));
	CHECK(!malice_storm(m, 6));		/* one at a time */
	CHECK_EQ(malice_count(m, MALICE_MSI_STORM), 1);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		ms = malice_timeout_ms(m);
		if (ms < 0)
			break;
		CHECK(ms <= MALICE_STORM_MS);
		n = malice_storm_take(m, &vector);
		CHECK(n <= MALICE_STORM_BATCH);
		if (n)
			CHECK_EQ(vector, 5);
		total += n;
		nanosleep(&(struct timespec){ .tv_nsec = 200000 }, NULL);
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	CHECK(total > 0 && total <= MALICE_STORM_MSIS);
	/* Bounded in time (with room for a loaded machine). */
	CHECK((t1.tv_sec - t0.tv_sec) * 1000 + (t1.tv_nsec - t0.tv_nsec) / 1000000 <
	      MALICE_STORM_MS + 100);
	CHECK_EQ(malice_storm_take(m, &vector), 0);
	/* The next one may begin. */
	CHECK(malice_storm(m, 7));
	malice_destroy(m);
}

static void test_print(void)
{
	struct malice *m = make(123, 20, ALL_KINDS);
	char *text = NULL;
	size_t size = 0;
	FILE *f;

	for (unsigned int i = 0; i < 1000; i++)
		malice_hit(m, MALICE_MSI_DROP);
	f = open_memstream(&text, &size);
	malice_print_counters(m, f);
	malice_log_summary(m, f);
	fclose(f);
	CHECK(strstr(text, "malice_enabled 1\n"));
	CHECK(strstr(text, "malice_seed 123\n"));
	CHECK(strstr(text, "malice_permille 20\n"));
	CHECK(strstr(text, "malice_armed 1\n"));
	CHECK(strstr(text, "malice_rsp_reqid 0\n"));
	CHECK(strstr(text, "malice_mhi_syserr 0\n"));
	CHECK(strstr(text, "malice_storm_msis 0\n"));
	{
		char line[64];

		snprintf(line, sizeof(line), "malice_msi_drop %llu\n",
			 (unsigned long long)malice_count(m, MALICE_MSI_DROP));
		CHECK(strstr(text, line));
		CHECK(malice_count(m, MALICE_MSI_DROP) > 0);
	}
	CHECK(strstr(text, "qaic-emu: malice: seed 123 permille 20:"));
	free(text);
	malice_destroy(m);

	text = NULL;
	f = open_memstream(&text, &size);
	malice_print_counters(NULL, f);
	malice_log_summary(NULL, f);
	fclose(f);
	CHECK(strstr(text, "malice_enabled 0\n"));
	CHECK(strstr(text, "malice_nnc_crc 0\n"));
	CHECK(!strstr(text, "qaic-emu: malice:"));
	free(text);
}

int main(void)
{
	RUN(test_parse);
	RUN(test_arming);
	RUN(test_determinism);
	RUN(test_rates);
	RUN(test_off);
	RUN(test_values);
	RUN(test_mhi);
	RUN(test_nnc);
	RUN(test_storm);
	RUN(test_print);
	return emu_test_exit();
}
