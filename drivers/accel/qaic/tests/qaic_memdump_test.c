// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The qaic authors.
 */

/*
 * KUnit tests of the card's memory dump (qaic_memdump.c): the rules a
 * table of the card must keep, each broken alone, and the reads a good
 * table turns into (at most 16 KiB each, never 16 bytes, back to back).
 */

#include <kunit/test.h>
#include <linux/kernel.h>
#include <linux/limits.h>
#include <linux/sizes.h>
#include <linux/string.h>
#include <asm/byteorder.h>

#include "../qaic_memdump.h"

/* One entry of the card's table, as it sends it. */
struct table_entry {
	__le64 type;
	__le64 addr;
	__le64 len;
	char desc[20];
	char file[20];
};

static_assert(sizeof(struct table_entry) == QAIC_MEMDUMP_ENTRY_LEN);

static void set_entry(struct table_entry *e, u64 addr, u64 len)
{
	memset(e, 0, sizeof(*e));
	e->type = cpu_to_le64(1);
	e->addr = cpu_to_le64(addr);
	e->len = cpu_to_le64(len);
	/* No NUL: the dump must terminate the card's text itself. */
	memset(e->desc, 'd', sizeof(e->desc));
	memset(e->file, 'f', sizeof(e->file));
}

static int create(struct kunit *test, struct qaic_memdump **d,
		  const struct table_entry *t, unsigned int nr)
{
	char why[128] = "";
	int ret;

	ret = qaic_memdump_create(d, t, nr * sizeof(*t), why, sizeof(why));
	if (ret)
		KUNIT_EXPECT_NE(test, why[0], '\0');
	return ret;
}

static void check_table_len(struct kunit *test)
{
	char why[128];

	KUNIT_EXPECT_EQ(test, qaic_memdump_check_table(64, why, sizeof(why)), 0);
	KUNIT_EXPECT_EQ(test, qaic_memdump_check_table(QAIC_MEMDUMP_MAX_ENTRIES * 64,
						       why, sizeof(why)), 0);
	KUNIT_EXPECT_EQ(test, qaic_memdump_check_table(0, why, sizeof(why)), -EINVAL);
	KUNIT_EXPECT_EQ(test, qaic_memdump_check_table(65, why, sizeof(why)), -EINVAL);
	KUNIT_EXPECT_EQ(test, qaic_memdump_check_table(3 * 64 + 8, why, sizeof(why)),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, qaic_memdump_check_table((QAIC_MEMDUMP_MAX_ENTRIES + 1) * 64,
						       why, sizeof(why)), -EINVAL);
	KUNIT_EXPECT_EQ(test, qaic_memdump_check_table(U64_MAX - 63, why, sizeof(why)),
			-EINVAL);
}

static void bad_regions(struct kunit *test)
{
	struct qaic_memdump *d = NULL;
	struct table_entry t[2];
	char why[128];

	/* Empty */
	set_entry(&t[0], 0x1000, 0);
	KUNIT_EXPECT_EQ(test, create(test, &d, t, 1), -EINVAL);
	/* Wrapping */
	set_entry(&t[0], U64_MAX, 2);
	KUNIT_EXPECT_EQ(test, create(test, &d, t, 1), -EINVAL);
	/* Larger than a dump may be */
	set_entry(&t[0], 0x1000, qaic_memdump_max_size());
	KUNIT_EXPECT_EQ(test, create(test, &d, t, 1), -EINVAL);
	/* Two that fit alone, not together */
	set_entry(&t[0], 0x1000, qaic_memdump_max_size() / 2 + SZ_4K);
	set_entry(&t[1], 0x1000, qaic_memdump_max_size() / 2 + SZ_4K);
	KUNIT_EXPECT_EQ(test, create(test, &d, t, 2), -EINVAL);
	/* A table of a broken length */
	KUNIT_EXPECT_EQ(test, qaic_memdump_create(&d, t, sizeof(t) - 1, why, sizeof(why)),
			-EINVAL);
	KUNIT_EXPECT_NULL(test, d);
}

/* The last byte of the address space is a region's last byte: allowed. */
static void region_at_top(struct kunit *test)
{
	struct qaic_memdump *d = NULL;
	struct table_entry t;
	u64 addr, len;

	set_entry(&t, U64_MAX, 1);
	KUNIT_ASSERT_EQ(test, create(test, &d, &t, 1), 0);
	KUNIT_EXPECT_TRUE(test, qaic_memdump_next(d, &addr, &len));
	KUNIT_EXPECT_EQ(test, addr, U64_MAX);
	KUNIT_EXPECT_EQ(test, len, 1);
	qaic_memdump_free(d);
}

/* Every read of a table: addresses, lengths, and the dump's size. */
static void reads(struct kunit *test)
{
	static const struct { u64 addr, len; } want[] = {
		{ 0x80000000, SZ_16K }, { 0x80004000, SZ_16K }, { 0x80008000, 8 },
		{ 0x80008008, 8 }, { 0x1a000000, 0x3001 }, { 0x0c300000, 8 },
		{ 0x0c300008, 8 }, { 0x0c400000, 1 },
	};
	struct qaic_memdump *d = NULL;
	struct table_entry t[4];
	static u8 data[SZ_16K];
	unsigned int i = 0;
	u64 addr, len;

	set_entry(&t[0], 0x80000000, 2 * SZ_16K + 16);
	set_entry(&t[1], 0x1a000000, 0x3001);
	set_entry(&t[2], 0x0c300000, 16);
	set_entry(&t[3], 0x0c400000, 1);
	KUNIT_ASSERT_EQ(test, create(test, &d, t, 4), 0);
	KUNIT_EXPECT_EQ(test, qaic_memdump_size(d),
			32 + sizeof(t) + 2 * SZ_16K + 16 + 0x3001 + 16 + 1);
	while (qaic_memdump_next(d, &addr, &len)) {
		KUNIT_ASSERT_LT(test, i, ARRAY_SIZE(want));
		KUNIT_EXPECT_EQ(test, addr, want[i].addr);
		KUNIT_EXPECT_EQ(test, len, want[i].len);
		KUNIT_EXPECT_NE(test, len, 16);
		qaic_memdump_add(d, data);
		i++;
	}
	KUNIT_EXPECT_EQ(test, i, ARRAY_SIZE(want));
	qaic_memdump_free(d);
}

/* The most entries, each a byte: one read each. */
static void most_entries(struct kunit *test)
{
	struct qaic_memdump *d = NULL;
	struct table_entry *t;
	unsigned int i, n = 0;
	u64 addr, len;
	u8 byte = 0;

	t = kunit_kcalloc(test, QAIC_MEMDUMP_MAX_ENTRIES, sizeof(*t), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, t);
	for (i = 0; i < QAIC_MEMDUMP_MAX_ENTRIES; i++)
		set_entry(&t[i], 0x1000 * i, 1);
	KUNIT_ASSERT_EQ(test, create(test, &d, t, QAIC_MEMDUMP_MAX_ENTRIES), 0);
	while (qaic_memdump_next(d, &addr, &len)) {
		KUNIT_EXPECT_EQ(test, addr, 0x1000ULL * n);
		KUNIT_EXPECT_EQ(test, len, 1);
		qaic_memdump_add(d, &byte);
		n++;
	}
	KUNIT_EXPECT_EQ(test, n, QAIC_MEMDUMP_MAX_ENTRIES);
	qaic_memdump_free(d);
}

static struct kunit_case qaic_memdump_cases[] = {
	KUNIT_CASE(check_table_len),
	KUNIT_CASE(bad_regions),
	KUNIT_CASE(region_at_top),
	KUNIT_CASE(reads),
	KUNIT_CASE(most_entries),
	{}
};

static struct kunit_suite qaic_memdump_suite = {
	.name = "qaic_memdump",
	.test_cases = qaic_memdump_cases,
};

kunit_test_suites(&qaic_memdump_suite);

/* MODULE_LICENSE() and the namespace import are in qaic_nnc_test.c. */
