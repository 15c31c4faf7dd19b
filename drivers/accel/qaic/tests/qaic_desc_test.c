// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The qaic authors.
 */

/*
 * KUnit tests of the DMA request descriptors (qaic_desc.c).
 *
 * Every check rule has a case made of pairs: a valid slice, which must be
 * accepted, and the same slice broken in exactly one way, which must be
 * refused with a reason. Encoding cases compare the requests field by field
 * with what Documentation/accel/qaic/aic100.rst says the device expects.
 * Ring cases surround the ring with guard entries that must stay intact.
 */

#include <kunit/test.h>
#include <linux/bits.h>
#include <linux/dma-direction.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/vmalloc.h>
#include <asm/byteorder.h>

#include <uapi/drm/qaic_accel.h>

#include "../qaic_desc.h"
#include "../qaic_hw.h"

#define BO_SIZE		0x10000
#define DEV_ADDR	0x80000000ULL

/* A slice the checker accepts, with a doorbell and no semaphores. */
static struct qaic_attach_slice_entry valid_entry(void)
{
	return (struct qaic_attach_slice_entry) {
		.size = 0x1000,
		.offset = 0x2000,
		.dev_addr = DEV_ADDR,
		.db_addr = 0x1000,
		.db_data = 0x1,
		.db_len = 32,
	};
}

static void expect_ok(struct kunit *test, const struct qaic_attach_slice_entry *e)
{
	const char *why = "unset";

	KUNIT_EXPECT_EQ(test, qaic_desc_check_slice(e, BO_SIZE, &why), 0);
	KUNIT_EXPECT_NULL(test, why);
}

static void expect_bad(struct kunit *test, const struct qaic_attach_slice_entry *e)
{
	const char *why = NULL;

	KUNIT_EXPECT_EQ(test, qaic_desc_check_slice(e, BO_SIZE, &why), -EINVAL);
	KUNIT_EXPECT_NOT_NULL(test, why);
}

static struct qaic_sem *sem_of(struct qaic_attach_slice_entry *e, int i)
{
	struct qaic_sem *sems[] = { &e->sem0, &e->sem1, &e->sem2, &e->sem3 };

	return sems[i];
}

static void check_valid(struct kunit *test)
{
	struct qaic_attach_slice_entry e = valid_entry();

	expect_ok(test, &e);
}

/* A size-0 slice only runs its semaphores and doorbell (Linux 6.12 ABI). */
static void check_size_zero(struct kunit *test)
{
	struct qaic_attach_slice_entry e = valid_entry();

	e.size = 0;
	expect_ok(test, &e);
	e.dev_addr = U64_MAX;
	expect_ok(test, &e);
}

static void check_offset_size_wrap(struct kunit *test)
{
	struct qaic_attach_slice_entry e = valid_entry();

	e.offset = 0;
	e.size = BO_SIZE;
	expect_ok(test, &e);
	e.offset = U64_MAX - 0xfff;
	e.size = 0x2000;
	expect_bad(test, &e);
}

static void check_past_end(struct kunit *test)
{
	struct qaic_attach_slice_entry e = valid_entry();

	e.offset = BO_SIZE - e.size;
	expect_ok(test, &e);
	e.offset++;
	expect_bad(test, &e);
	e.offset = BO_SIZE;
	e.size = 1;
	expect_bad(test, &e);
}

static void check_dev_addr_wrap(struct kunit *test)
{
	struct qaic_attach_slice_entry e = valid_entry();

	e.dev_addr = U64_MAX - e.size + 1;
	expect_ok(test, &e);
	e.dev_addr++;
	expect_bad(test, &e);
}

static void check_sem_pad(struct kunit *test)
{
	int i;

	for (i = 0; i < QAIC_DBC_NUM_SEMS; i++) {
		struct qaic_attach_slice_entry e = valid_entry();

		sem_of(&e, i)->cmd = QAIC_SEM_INC;
		expect_ok(test, &e);
		sem_of(&e, i)->pad = 1;
		expect_bad(test, &e);
	}
}

static void check_sem_cmd(struct kunit *test)
{
	int i;

	for (i = 0; i < QAIC_DBC_NUM_SEMS; i++) {
		struct qaic_attach_slice_entry e = valid_entry();

		sem_of(&e, i)->cmd = QAIC_SEM_WAIT_GT_0;
		expect_ok(test, &e);
		sem_of(&e, i)->cmd = QAIC_SEM_WAIT_GT_0 + 1;
		expect_bad(test, &e);
	}
}

static void check_sem_flags(struct kunit *test)
{
	int i;

	for (i = 0; i < QAIC_DBC_NUM_SEMS; i++) {
		struct qaic_attach_slice_entry e = valid_entry();

		sem_of(&e, i)->flags = QAIC_SEM_INSYNCFENCE | QAIC_SEM_OUTSYNCFENCE;
		expect_ok(test, &e);
		sem_of(&e, i)->flags = 4;
		expect_bad(test, &e);
	}
}

static void check_sem_presync(struct kunit *test)
{
	int i;

	for (i = 0; i < QAIC_DBC_NUM_SEMS; i++) {
		struct qaic_attach_slice_entry e = valid_entry();

		sem_of(&e, i)->presync = 1;
		expect_ok(test, &e);
		sem_of(&e, i)->presync = 2;
		expect_bad(test, &e);
	}
}

static void check_sem_index(struct kunit *test)
{
	int i;

	for (i = 0; i < QAIC_DBC_NUM_SEMS; i++) {
		struct qaic_attach_slice_entry e = valid_entry();

		sem_of(&e, i)->index = 31;
		expect_ok(test, &e);
		sem_of(&e, i)->index = 32;
		expect_bad(test, &e);
	}
}

static void check_sem_val(struct kunit *test)
{
	int i;

	for (i = 0; i < QAIC_DBC_NUM_SEMS; i++) {
		struct qaic_attach_slice_entry e = valid_entry();

		sem_of(&e, i)->val = 4095;
		expect_ok(test, &e);
		sem_of(&e, i)->val = 4096;
		expect_bad(test, &e);
	}
}

static void check_two_presync(struct kunit *test)
{
	struct qaic_attach_slice_entry e = valid_entry();

	e.sem0.presync = 1;
	e.sem3.presync = 0;
	expect_ok(test, &e);
	e.sem3.presync = 1;
	expect_bad(test, &e);
}

static void check_db_len(struct kunit *test)
{
	static const u32 good[] = { 0, 8, 16, 32 };
	static const u32 bad[] = { 1, 24, 64, U32_MAX };
	struct qaic_attach_slice_entry e;
	int i;

	for (i = 0; i < ARRAY_SIZE(good); i++) {
		e = valid_entry();
		e.db_len = good[i];
		e.db_addr = good[i] ? 0x1000 : 0;
		expect_ok(test, &e);
	}
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		e = valid_entry();
		e.db_len = bad[i];
		expect_bad(test, &e);
	}
}

static void check_db_align(struct kunit *test)
{
	struct qaic_attach_slice_entry e = valid_entry();

	e.db_len = 8;
	e.db_addr = 0x1001;
	expect_ok(test, &e);
	e.db_len = 16;
	e.db_addr = 0x1002;
	expect_ok(test, &e);
	e.db_addr = 0x1001;
	expect_bad(test, &e);
	e.db_len = 32;
	e.db_addr = 0x1004;
	expect_ok(test, &e);
	e.db_addr = 0x1002;
	expect_bad(test, &e);
}

static void check_db_addr_without_len(struct kunit *test)
{
	struct qaic_attach_slice_entry e = valid_entry();

	e.db_len = 0;
	e.db_addr = 0;
	expect_ok(test, &e);
	e.db_addr = 0x1000;
	expect_bad(test, &e);
}

static void check_db_len_without_addr(struct kunit *test)
{
	struct qaic_attach_slice_entry e = valid_entry();

	e.db_len = 16;
	expect_ok(test, &e);
	e.db_addr = 0;
	expect_bad(test, &e);
}

static struct kunit_case qaic_desc_check_cases[] = {
	KUNIT_CASE(check_valid),
	KUNIT_CASE(check_size_zero),
	KUNIT_CASE(check_offset_size_wrap),
	KUNIT_CASE(check_past_end),
	KUNIT_CASE(check_dev_addr_wrap),
	KUNIT_CASE(check_sem_pad),
	KUNIT_CASE(check_sem_cmd),
	KUNIT_CASE(check_sem_flags),
	KUNIT_CASE(check_sem_presync),
	KUNIT_CASE(check_sem_index),
	KUNIT_CASE(check_sem_val),
	KUNIT_CASE(check_two_presync),
	KUNIT_CASE(check_db_len),
	KUNIT_CASE(check_db_align),
	KUNIT_CASE(check_db_addr_without_len),
	KUNIT_CASE(check_db_len_without_addr),
	{}
};

static struct kunit_suite qaic_desc_check_suite = {
	.name = "qaic_desc_check",
	.test_cases = qaic_desc_check_cases,
};

/* Three segments of 0x1000, 0x2000 and 0x1000 bytes: a 0x4000-byte object. */
static const struct qaic_desc_seg three_segs[] = {
	{ .addr = 0x100000, .len = 0x1000 },
	{ .addr = 0x500000, .len = 0x2000 },
	{ .addr = 0x900000, .len = 0x1000 },
};

#define MAX_REQS	16

struct enc {
	struct qaic_desc_slice slices[4];
	struct qaic_dbc_req reqs[MAX_REQS];
	int n;
};

/* A copy of @segs, indexed as the driver indexes a mapping. */
static struct qaic_desc_seg *indexed(struct kunit *test, const struct qaic_desc_seg *segs,
				     u32 nsegs)
{
	struct qaic_desc_seg *copy = kunit_kmalloc_array(test, nsegs, sizeof(*segs), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, copy);
	memcpy(copy, segs, nsegs * sizeof(*segs));
	qaic_desc_index(copy, nsegs);
	return copy;
}

static struct enc *encode(struct kunit *test, const struct qaic_attach_slice_entry *ents,
			  u32 nents, const struct qaic_desc_seg *unindexed, u32 nsegs,
			  enum dma_data_direction dir)
{
	struct enc *enc = kunit_kzalloc(test, sizeof(*enc), GFP_KERNEL);
	struct qaic_desc_seg *segs = indexed(test, unindexed, nsegs);
	int count;

	KUNIT_ASSERT_NOT_NULL(test, enc);
	KUNIT_ASSERT_LE(test, nents, ARRAY_SIZE(enc->slices));
	count = qaic_desc_count(ents, nents, segs, nsegs, MAX_REQS);
	KUNIT_ASSERT_GT(test, count, 0);
	KUNIT_ASSERT_LE(test, count, MAX_REQS);
	/* Dirty the output: the encoder must clear what it does not set. */
	memset(enc->reqs, 0xa5, sizeof(enc->reqs));
	enc->n = qaic_desc_encode(ents, nents, segs, nsegs, dir, enc->slices,
				  enc->reqs, MAX_REQS);
	KUNIT_ASSERT_EQ(test, enc->n, count);
	return enc;
}

static u32 sem_word(u32 val, u32 index, u32 presync, u32 cmd, u32 fence)
{
	return val | index << 16 | presync << 22 | cmd << 24 | fence << 29 |
	       (cmd ? BIT(31) : 0);
}

static void expect_req(struct kunit *test, const struct qaic_dbc_req *r, u8 cmd,
		       u64 src, u64 dest, u32 len)
{
	KUNIT_EXPECT_EQ(test, le16_to_cpu(r->req_id), 0);
	KUNIT_EXPECT_EQ(test, r->seq_id, 0);
	KUNIT_EXPECT_EQ(test, r->cmd, cmd);
	KUNIT_EXPECT_EQ(test, le32_to_cpu(r->resv), 0);
	KUNIT_EXPECT_EQ(test, le64_to_cpu(r->src_addr), src);
	KUNIT_EXPECT_EQ(test, le64_to_cpu(r->dest_addr), dest);
	KUNIT_EXPECT_EQ(test, le32_to_cpu(r->len), len);
	KUNIT_EXPECT_EQ(test, le32_to_cpu(r->resv2), 0);
	KUNIT_EXPECT_EQ(test, r->resv3, 0);
	KUNIT_EXPECT_EQ(test, le16_to_cpu(r->resv4), 0);
}

static void expect_no_db(struct kunit *test, const struct qaic_dbc_req *r)
{
	KUNIT_EXPECT_EQ(test, le64_to_cpu(r->db_addr), 0);
	KUNIT_EXPECT_EQ(test, r->db_attr, 0);
	KUNIT_EXPECT_EQ(test, le32_to_cpu(r->db_data), 0);
}

static void expect_sems(struct kunit *test, const struct qaic_dbc_req *r,
			u32 s0, u32 s1, u32 s2, u32 s3)
{
	KUNIT_EXPECT_EQ(test, le32_to_cpu(r->sem_cmd[0]), s0);
	KUNIT_EXPECT_EQ(test, le32_to_cpu(r->sem_cmd[1]), s1);
	KUNIT_EXPECT_EQ(test, le32_to_cpu(r->sem_cmd[2]), s2);
	KUNIT_EXPECT_EQ(test, le32_to_cpu(r->sem_cmd[3]), s3);
}

#define CMD_TO_DEV	(QAIC_DBC_CMD_BULK | QAIC_DBC_CMD_XFER_TO_DEV)
#define CMD_FROM_DEV	(QAIC_DBC_CMD_BULK | QAIC_DBC_CMD_XFER_FROM_DEV)
#define CMD_DONE	QAIC_DBC_CMD_COMPLETION

static void encode_single_segment(struct kunit *test)
{
	static const struct qaic_desc_seg seg = { .addr = 0x100000, .len = BO_SIZE };
	struct qaic_attach_slice_entry e = {
		.size = 0x1000, .offset = 0x2000, .dev_addr = DEV_ADDR,
	};
	struct enc *enc = encode(test, &e, 1, &seg, 1, DMA_TO_DEVICE);

	KUNIT_ASSERT_EQ(test, enc->n, 1);
	expect_req(test, &enc->reqs[0], CMD_TO_DEV | CMD_DONE, 0x102000, DEV_ADDR, 0x1000);
	expect_no_db(test, &enc->reqs[0]);
	expect_sems(test, &enc->reqs[0], 0, 0, 0, 0);
	KUNIT_EXPECT_EQ(test, enc->slices[0].offset, 0x2000);
	KUNIT_EXPECT_EQ(test, enc->slices[0].size, 0x1000);
	KUNIT_EXPECT_EQ(test, enc->slices[0].first, 0);
	KUNIT_EXPECT_EQ(test, enc->slices[0].nreqs, 1);
}

/* 0x3000 bytes from 0x800: the end of seg 0, all of seg 1, the start of seg 2. */
static const struct qaic_attach_slice_entry across_entry = {
	.size = 0x3000, .offset = 0x800, .dev_addr = DEV_ADDR,
};

static void encode_across_segments(struct kunit *test)
{
	struct enc *enc = encode(test, &across_entry, 1, three_segs, 3, DMA_TO_DEVICE);
	u32 fence = sem_word(0, 0, 0, 0, QAIC_SEM_INSYNCFENCE);

	KUNIT_ASSERT_EQ(test, enc->n, 3);
	expect_req(test, &enc->reqs[0], CMD_TO_DEV, 0x100800, DEV_ADDR, 0x800);
	expect_req(test, &enc->reqs[1], CMD_TO_DEV, 0x500000, DEV_ADDR + 0x800, 0x2000);
	expect_req(test, &enc->reqs[2], CMD_TO_DEV | CMD_DONE, 0x900000,
		   DEV_ADDR + 0x2800, 0x800);
	expect_sems(test, &enc->reqs[0], 0, 0, 0, 0);
	expect_sems(test, &enc->reqs[1], 0, 0, 0, 0);
	/* No presync: the last request fences the others' transfers. */
	expect_sems(test, &enc->reqs[2], fence, 0, 0, 0);
	KUNIT_EXPECT_EQ(test, enc->slices[0].nreqs, 3);
}

static void encode_from_device(struct kunit *test)
{
	struct enc *enc = encode(test, &across_entry, 1, three_segs, 3, DMA_FROM_DEVICE);
	u32 fence = sem_word(0, 0, 0, 0, QAIC_SEM_OUTSYNCFENCE);

	KUNIT_ASSERT_EQ(test, enc->n, 3);
	expect_req(test, &enc->reqs[0], CMD_FROM_DEV, DEV_ADDR, 0x100800, 0x800);
	expect_req(test, &enc->reqs[1], CMD_FROM_DEV, DEV_ADDR + 0x800, 0x500000, 0x2000);
	expect_req(test, &enc->reqs[2], CMD_FROM_DEV | CMD_DONE, DEV_ADDR + 0x2800,
		   0x900000, 0x800);
	expect_sems(test, &enc->reqs[2], fence, 0, 0, 0);
}

static void encode_multiple_slices(struct kunit *test)
{
	struct qaic_attach_slice_entry e[3] = {
		{ .size = 0x1000, .offset = 0, .dev_addr = 0x1000 },
		{ .size = 0x2000, .offset = 0x1800, .dev_addr = 0x8000 },
		{ .size = 0x400, .offset = 0x3c00, .dev_addr = 0x20000 },
	};
	struct enc *enc = encode(test, e, 3, three_segs, 3, DMA_TO_DEVICE);

	KUNIT_ASSERT_EQ(test, enc->n, 4);
	expect_req(test, &enc->reqs[0], CMD_TO_DEV | CMD_DONE, 0x100000, 0x1000, 0x1000);
	expect_req(test, &enc->reqs[1], CMD_TO_DEV, 0x500800, 0x8000, 0x1800);
	expect_req(test, &enc->reqs[2], CMD_TO_DEV | CMD_DONE, 0x900000, 0x9800, 0x800);
	expect_req(test, &enc->reqs[3], CMD_TO_DEV | CMD_DONE, 0x900c00, 0x20000, 0x400);
	KUNIT_EXPECT_EQ(test, enc->slices[0].first, 0);
	KUNIT_EXPECT_EQ(test, enc->slices[0].nreqs, 1);
	KUNIT_EXPECT_EQ(test, enc->slices[1].first, 1);
	KUNIT_EXPECT_EQ(test, enc->slices[1].nreqs, 2);
	KUNIT_EXPECT_EQ(test, enc->slices[2].first, 3);
	KUNIT_EXPECT_EQ(test, enc->slices[2].nreqs, 1);
}

static void encode_sem_word(struct kunit *test)
{
	static const struct qaic_desc_seg seg = { .addr = 0x100000, .len = BO_SIZE };
	struct qaic_attach_slice_entry e = {
		.size = 0x1000, .dev_addr = DEV_ADDR,
		.sem2 = { .val = 0xabc, .index = 17, .presync = 1,
			  .cmd = QAIC_SEM_WAIT_GT_EQ, .flags = QAIC_SEM_INSYNCFENCE },
	};
	struct enc *enc = encode(test, &e, 1, &seg, 1, DMA_TO_DEVICE);

	KUNIT_ASSERT_EQ(test, enc->n, 1);
	KUNIT_EXPECT_EQ(test, le32_to_cpu(enc->reqs[0].sem_cmd[2]), 0xc5510abc);
}

static void encode_presync_on_every_request(struct kunit *test)
{
	struct qaic_attach_slice_entry e = across_entry;
	u32 pre, post0, post3;
	struct enc *enc;
	int i;

	e.sem1 = (struct qaic_sem) { .val = 1, .index = 3, .presync = 1,
				     .cmd = QAIC_SEM_WAIT_GT_0 };
	e.sem0 = (struct qaic_sem) { .val = 2, .index = 4, .cmd = QAIC_SEM_INC };
	e.sem3 = (struct qaic_sem) { .val = 5, .index = 31, .cmd = QAIC_SEM_INIT,
				     .flags = QAIC_SEM_OUTSYNCFENCE };
	pre = sem_word(1, 3, 1, QAIC_SEM_WAIT_GT_0, 0);
	post0 = sem_word(2, 4, 0, QAIC_SEM_INC, 0);
	post3 = sem_word(5, 31, 0, QAIC_SEM_INIT, QAIC_SEM_OUTSYNCFENCE);
	enc = encode(test, &e, 1, three_segs, 3, DMA_TO_DEVICE);

	KUNIT_ASSERT_EQ(test, enc->n, 3);
	for (i = 0; i < 2; i++) {
		expect_sems(test, &enc->reqs[i], 0, pre, 0, 0);
		KUNIT_EXPECT_EQ(test, enc->reqs[i].cmd, CMD_TO_DEV);
	}
	/* A presync orders the requests already: no fence on sem0. */
	expect_sems(test, &enc->reqs[2], post0, pre, 0, post3);
	KUNIT_EXPECT_EQ(test, enc->reqs[2].cmd, CMD_TO_DEV | CMD_DONE);
}

static void encode_postsync_single_request(struct kunit *test)
{
	static const struct qaic_desc_seg seg = { .addr = 0x100000, .len = BO_SIZE };
	struct qaic_attach_slice_entry e = {
		.size = 0x1000, .dev_addr = DEV_ADDR,
		.sem0 = { .val = 7, .index = 1, .cmd = QAIC_SEM_DEC },
	};
	struct enc *enc = encode(test, &e, 1, &seg, 1, DMA_FROM_DEVICE);

	/* One request: no fence needed. */
	KUNIT_ASSERT_EQ(test, enc->n, 1);
	expect_sems(test, &enc->reqs[0], sem_word(7, 1, 0, QAIC_SEM_DEC, 0), 0, 0, 0);
}

static void encode_doorbell(struct kunit *test)
{
	static const struct { u32 len; u8 attr; } dbs[] = {
		{ 8, 0x82 }, { 16, 0x81 }, { 32, 0x80 },
	};
	struct qaic_attach_slice_entry e = across_entry;
	struct enc *enc;
	int i;

	for (i = 0; i < ARRAY_SIZE(dbs); i++) {
		e.db_len = dbs[i].len;
		e.db_addr = 0x40000000 + dbs[i].len;
		e.db_data = 0xdeadbeef;
		enc = encode(test, &e, 1, three_segs, 3, DMA_TO_DEVICE);
		KUNIT_ASSERT_EQ(test, enc->n, 3);
		expect_no_db(test, &enc->reqs[0]);
		expect_no_db(test, &enc->reqs[1]);
		KUNIT_EXPECT_EQ(test, le64_to_cpu(enc->reqs[2].db_addr), e.db_addr);
		KUNIT_EXPECT_EQ(test, enc->reqs[2].db_attr, dbs[i].attr);
		KUNIT_EXPECT_EQ(test, le32_to_cpu(enc->reqs[2].db_data), 0xdeadbeef);
	}
}

static void encode_skips_empty_segments(struct kunit *test)
{
	static const struct qaic_desc_seg segs[] = {
		{ .addr = 0x100000, .len = 0 },
		{ .addr = 0x200000, .len = 0x1000 },
		{ .addr = 0x300000, .len = 0 },
		{ .addr = 0x400000, .len = 0x1000 },
	};
	struct qaic_attach_slice_entry e = { .size = 0x2000, .dev_addr = DEV_ADDR };
	struct enc *enc = encode(test, &e, 1, segs, ARRAY_SIZE(segs), DMA_TO_DEVICE);

	KUNIT_ASSERT_EQ(test, enc->n, 2);
	expect_req(test, &enc->reqs[0], CMD_TO_DEV, 0x200000, DEV_ADDR, 0x1000);
	expect_req(test, &enc->reqs[1], CMD_TO_DEV | CMD_DONE, 0x400000,
		   DEV_ADDR + 0x1000, 0x1000);
}

static void encode_splits_long_segment(struct kunit *test)
{
	static const struct qaic_desc_seg seg = { .addr = 0x100000000ULL, .len = 0x200000000ULL };
	struct qaic_attach_slice_entry e = {
		.size = 0x100001000ULL, .dev_addr = 0x1000,
	};
	struct enc *enc = encode(test, &e, 1, &seg, 1, DMA_TO_DEVICE);

	KUNIT_ASSERT_EQ(test, enc->n, 2);
	expect_req(test, &enc->reqs[0], CMD_TO_DEV, 0x100000000ULL, 0x1000,
		   QAIC_DESC_MAX_LEN);
	expect_req(test, &enc->reqs[1], CMD_TO_DEV | CMD_DONE,
		   0x100000000ULL + QAIC_DESC_MAX_LEN, 0x1000ULL + QAIC_DESC_MAX_LEN, 0x2000);
}

static void encode_empty_slice(struct kunit *test)
{
	struct qaic_attach_slice_entry e = {
		.offset = 0x800, .dev_addr = DEV_ADDR,
		.sem0 = { .cmd = QAIC_SEM_INC, .index = 2 },
	};
	struct enc *enc = encode(test, &e, 1, three_segs, 3, DMA_TO_DEVICE);

	/* Refused by the checker today, but encoded as a sync-only request. */
	KUNIT_ASSERT_EQ(test, enc->n, 1);
	expect_req(test, &enc->reqs[0], QAIC_DBC_CMD_BULK | CMD_DONE, 0, 0, 0);
	expect_sems(test, &enc->reqs[0], sem_word(0, 2, 0, QAIC_SEM_INC, 0), 0, 0, 0);
}

static void encode_errors(struct kunit *test)
{
	struct qaic_desc_seg *segs = indexed(test, three_segs, 3);
	struct qaic_attach_slice_entry e = across_entry;
	struct qaic_desc_slice slices[1];
	struct qaic_dbc_req reqs[3];

	/* The valid twin. */
	KUNIT_EXPECT_EQ(test, qaic_desc_count(&e, 1, segs, 3, 3), 3);
	KUNIT_EXPECT_EQ(test, qaic_desc_encode(&e, 1, segs, 3, DMA_TO_DEVICE,
					       slices, reqs, 3), 3);
	/* Array one short. */
	KUNIT_EXPECT_EQ(test, qaic_desc_encode(&e, 1, segs, 3, DMA_TO_DEVICE,
					       slices, reqs, 2), -ENOSPC);
	/* Bad direction. */
	KUNIT_EXPECT_EQ(test, qaic_desc_encode(&e, 1, segs, 3, DMA_BIDIRECTIONAL,
					       slices, reqs, 3), -EINVAL);
	/* Mapping shorter than the slice, or than its offset. */
	KUNIT_EXPECT_EQ(test, qaic_desc_count(&e, 1, segs, 2, 3), -EINVAL);
	KUNIT_EXPECT_EQ(test, qaic_desc_encode(&e, 1, segs, 2, DMA_TO_DEVICE,
					       slices, reqs, 3), -EINVAL);
	e.offset = 0x4000;
	e.size = 1;
	KUNIT_EXPECT_EQ(test, qaic_desc_count(&e, 1, segs, 3, 3), -EINVAL);
}

/* The count stops at the caller's limit, in a slice and across slices. */
static void count_stops_at_limit(struct kunit *test)
{
	struct qaic_desc_seg *segs = indexed(test, three_segs, 3);
	struct qaic_attach_slice_entry e[2] = { across_entry, across_entry };

	KUNIT_EXPECT_EQ(test, qaic_desc_count(e, 1, segs, 3, 3), 3);
	KUNIT_EXPECT_EQ(test, qaic_desc_count(e, 1, segs, 3, 2), -ENOSPC);
	KUNIT_EXPECT_EQ(test, qaic_desc_count(e, 2, segs, 3, 6), 6);
	KUNIT_EXPECT_EQ(test, qaic_desc_count(e, 2, segs, 3, 5), -ENOSPC);
	/* A slice of size 0 takes a request too. */
	e[1].size = 0;
	KUNIT_EXPECT_EQ(test, qaic_desc_count(e, 2, segs, 3, 4), 4);
	KUNIT_EXPECT_EQ(test, qaic_desc_count(e, 2, segs, 3, 3), -ENOSPC);
}

/* Each slice starts in the segment that holds its first byte. */
static void encode_finds_first_segment(struct kunit *test)
{
	static const struct qaic_desc_seg segs[] = {
		{ .addr = 0x100000, .len = 0 },
		{ .addr = 0x200000, .len = 0x1000 },
		{ .addr = 0x300000, .len = 0 },
		{ .addr = 0x400000, .len = 0 },
		{ .addr = 0x500000, .len = 0x2000 },
		{ .addr = 0x600000, .len = 0x1000 },
	};
	static const struct {
		u64 offset;
		u64 addr;
	} firsts[] = {
		{ 0, 0x200000 }, { 0xfff, 0x200fff }, { 0x1000, 0x500000 },
		{ 0x2fff, 0x501fff }, { 0x3000, 0x600000 }, { 0x3fff, 0x600fff },
	};
	struct qaic_attach_slice_entry e[ARRAY_SIZE(firsts)];
	struct enc *enc;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(firsts); i++)
		e[i] = (struct qaic_attach_slice_entry){
			.offset = firsts[i].offset, .size = 1, .dev_addr = DEV_ADDR,
		};
	/* Three slices at a time: encode() takes four at most. */
	for (i = 0; i < ARRAY_SIZE(firsts); i += 3) {
		enc = encode(test, &e[i], 3, segs, ARRAY_SIZE(segs), DMA_TO_DEVICE);
		KUNIT_ASSERT_EQ(test, enc->n, 3);
		expect_req(test, &enc->reqs[0], CMD_TO_DEV | CMD_DONE, firsts[i].addr, DEV_ADDR, 1);
		expect_req(test, &enc->reqs[1], CMD_TO_DEV | CMD_DONE, firsts[i + 1].addr,
			   DEV_ADDR, 1);
		expect_req(test, &enc->reqs[2], CMD_TO_DEV | CMD_DONE, firsts[i + 2].addr,
			   DEV_ADDR, 1);
	}
}

#define MANY_SEGS	262144		/* 1 GiB mapped page by page */
#define MANY_SLICES	65535		/* the most a DBC takes */

/*
 * The attach of review S4-M2: 65535 one-byte slices at the end of an object
 * of 262144 scattered pages. Encoded right, and by a search per slice: a
 * walk from the first segment for each would take some 10^10 steps.
 */
static void encode_many_slices_many_segments(struct kunit *test)
{
	struct qaic_attach_slice_entry *ents;
	struct qaic_desc_slice *slices;
	struct qaic_desc_seg *segs;
	struct qaic_dbc_req *reqs;
	u32 i;

	segs = vmalloc_array(MANY_SEGS, sizeof(*segs));
	ents = vmalloc_array(MANY_SLICES, sizeof(*ents));
	slices = vmalloc_array(MANY_SLICES, sizeof(*slices));
	reqs = vmalloc_array(MANY_SLICES, sizeof(*reqs));
	if (!segs || !ents || !slices || !reqs)
		goto out;
	for (i = 0; i < MANY_SEGS; i++)
		segs[i] = (struct qaic_desc_seg){
			.addr = 0x100000000ULL + (u64)(MANY_SEGS - 1 - i) * 0x2000, .len = 0x1000,
		};
	qaic_desc_index(segs, MANY_SEGS);
	for (i = 0; i < MANY_SLICES; i++)
		ents[i] = (struct qaic_attach_slice_entry){
			.offset = (u64)MANY_SEGS * 0x1000 - 1 - (i & 1) * 0x1000,
			.size = 1, .dev_addr = DEV_ADDR,
		};

	KUNIT_EXPECT_EQ(test, qaic_desc_count(ents, MANY_SLICES, segs, MANY_SEGS,
					      MANY_SLICES), MANY_SLICES);
	KUNIT_EXPECT_EQ(test, qaic_desc_count(ents, MANY_SLICES, segs, MANY_SEGS,
					      MANY_SLICES - 1), -ENOSPC);
	KUNIT_EXPECT_EQ(test, qaic_desc_encode(ents, MANY_SLICES, segs, MANY_SEGS,
					       DMA_TO_DEVICE, slices, reqs, MANY_SLICES),
			MANY_SLICES);
	/* The last page is the lowest address; the one before it 8 KiB up. */
	expect_req(test, &reqs[0], CMD_TO_DEV | CMD_DONE, 0x100000fffULL, DEV_ADDR, 1);
	expect_req(test, &reqs[1], CMD_TO_DEV | CMD_DONE, 0x100002fffULL, DEV_ADDR, 1);
	expect_req(test, &reqs[MANY_SLICES - 1], CMD_TO_DEV | CMD_DONE, 0x100000fffULL,
		   DEV_ADDR, 1);
out:
	vfree(reqs);
	vfree(slices);
	vfree(ents);
	vfree(segs);
	KUNIT_ASSERT_TRUE_MSG(test, segs && ents && slices && reqs, "no memory for the tables");
}

static struct kunit_case qaic_desc_encode_cases[] = {
	KUNIT_CASE(encode_single_segment),
	KUNIT_CASE(encode_across_segments),
	KUNIT_CASE(encode_from_device),
	KUNIT_CASE(encode_multiple_slices),
	KUNIT_CASE(encode_sem_word),
	KUNIT_CASE(encode_presync_on_every_request),
	KUNIT_CASE(encode_postsync_single_request),
	KUNIT_CASE(encode_doorbell),
	KUNIT_CASE(encode_skips_empty_segments),
	KUNIT_CASE(encode_splits_long_segment),
	KUNIT_CASE(encode_empty_slice),
	KUNIT_CASE(encode_errors),
	KUNIT_CASE(count_stops_at_limit),
	KUNIT_CASE(encode_finds_first_segment),
	KUNIT_CASE(encode_many_slices_many_segments),
	{}
};

static struct kunit_suite qaic_desc_encode_suite = {
	.name = "qaic_desc_encode",
	.test_cases = qaic_desc_encode_cases,
};

/* Slice 0: 0x1000 at 0, one request. Slice 1: 0x3000 at 0x800, three. */
static struct enc *two_slices(struct kunit *test)
{
	static const struct qaic_desc_seg seg0 = { .addr = 0x10000, .len = 0x1000 };
	struct qaic_desc_seg segs[4];
	struct qaic_attach_slice_entry e[2] = {
		{ .size = 0x1000, .offset = 0, .dev_addr = 0x1000,
		  .sem0 = { .cmd = QAIC_SEM_INC, .index = 1 } },
		{ .size = 0x3000, .offset = 0x1800, .dev_addr = DEV_ADDR,
		  .db_addr = 0x100, .db_len = 32, .db_data = 9,
		  .sem2 = { .cmd = QAIC_SEM_INC, .index = 2 } },
	};

	/* seg0, then three_segs moved 0x1000 on in the object. */
	segs[0] = seg0;
	memcpy(&segs[1], three_segs, sizeof(three_segs));
	return encode(test, e, 2, segs, 4, DMA_TO_DEVICE);
}

static struct qaic_dbc_req *resize(struct kunit *test, const struct enc *enc, u64 size,
				   int expect)
{
	struct qaic_dbc_req *out = kunit_kcalloc(test, MAX_REQS, sizeof(*out), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, out);
	KUNIT_ASSERT_EQ(test, qaic_desc_resize(enc->slices, 2, enc->reqs, size, out,
					       enc->n), expect);
	return out;
}

static void resize_full(struct kunit *test)
{
	struct enc *enc = two_slices(test);
	struct qaic_dbc_req *out;

	KUNIT_ASSERT_EQ(test, enc->n, 4);
	out = resize(test, enc, 0x4800, 4);
	KUNIT_EXPECT_MEMEQ(test, out, enc->reqs, 4 * sizeof(*out));
}

static void resize_zero(struct kunit *test)
{
	struct enc *enc = two_slices(test);
	struct qaic_dbc_req *out = resize(test, enc, 0, 2);

	/* Each slice keeps its last request, moving nothing. */
	expect_req(test, &out[0], QAIC_DBC_CMD_BULK | CMD_DONE, 0x10000, 0x1000, 0);
	KUNIT_EXPECT_EQ(test, le32_to_cpu(out[0].sem_cmd[0]),
			le32_to_cpu(enc->reqs[0].sem_cmd[0]));
	expect_req(test, &out[1], QAIC_DBC_CMD_BULK | CMD_DONE, 0x100800, DEV_ADDR, 0);
	KUNIT_EXPECT_MEMEQ(test, out[1].sem_cmd, enc->reqs[3].sem_cmd,
			   sizeof(out[1].sem_cmd));
	KUNIT_EXPECT_EQ(test, le64_to_cpu(out[1].db_addr), 0x100);
	KUNIT_EXPECT_EQ(test, out[1].db_attr, 0x80);
	KUNIT_EXPECT_EQ(test, le32_to_cpu(out[1].db_data), 9);
}

static void resize_inside_piece(struct kunit *test)
{
	struct enc *enc = two_slices(test);
	/* 0x900 into slice 1: all of its first piece, 0x100 of the second. */
	struct qaic_dbc_req *out = resize(test, enc, 0x1800 + 0x900, 3);

	KUNIT_EXPECT_MEMEQ(test, &out[0], &enc->reqs[0], 2 * sizeof(*out));
	expect_req(test, &out[2], CMD_TO_DEV | CMD_DONE, 0x500000, DEV_ADDR + 0x800, 0x100);
	KUNIT_EXPECT_MEMEQ(test, out[2].sem_cmd, enc->reqs[3].sem_cmd,
			   sizeof(out[2].sem_cmd));
	KUNIT_EXPECT_EQ(test, out[2].db_attr, 0x80);
}

static void resize_at_piece_end(struct kunit *test)
{
	struct enc *enc = two_slices(test);
	/* Exactly the first piece of slice 1. */
	struct qaic_dbc_req *out = resize(test, enc, 0x1800 + 0x800, 2);

	KUNIT_EXPECT_MEMEQ(test, &out[0], &enc->reqs[0], sizeof(*out));
	expect_req(test, &out[1], CMD_TO_DEV | CMD_DONE, 0x100800, DEV_ADDR, 0x800);
	KUNIT_EXPECT_EQ(test, out[1].db_attr, 0x80);
}

static void resize_before_slice(struct kunit *test)
{
	struct enc *enc = two_slices(test);
	/* Slice 0 whole, slice 1 (at 0x1800) starts past the resize point. */
	struct qaic_dbc_req *out = resize(test, enc, 0x1800, 2);

	KUNIT_EXPECT_MEMEQ(test, &out[0], &enc->reqs[0], sizeof(*out));
	expect_req(test, &out[1], QAIC_DBC_CMD_BULK | CMD_DONE, 0x100800, DEV_ADDR, 0);
}

static void resize_cut_first_slice(struct kunit *test)
{
	struct enc *enc = two_slices(test);
	struct qaic_dbc_req *out = resize(test, enc, 0x10, 2);

	expect_req(test, &out[0], CMD_TO_DEV | CMD_DONE, 0x10000, 0x1000, 0x10);
	expect_req(test, &out[1], QAIC_DBC_CMD_BULK | CMD_DONE, 0x100800, DEV_ADDR, 0);
}

static void resize_slice_view(struct kunit *test)
{
	struct enc *enc = two_slices(test);
	struct qaic_dbc_req last;

	KUNIT_EXPECT_EQ(test, qaic_desc_resize_slice(&enc->slices[1], enc->reqs,
						     0x4800, &last), 2);
	KUNIT_EXPECT_MEMEQ(test, &last, &enc->reqs[3], sizeof(last));
	/* 0x2800 into slice 1: its first piece whole, then all of the second. */
	KUNIT_EXPECT_EQ(test, qaic_desc_resize_slice(&enc->slices[1], enc->reqs,
						     0x4000, &last), 1);
	KUNIT_EXPECT_EQ(test, le32_to_cpu(last.len), 0x2000);
	KUNIT_EXPECT_EQ(test, le64_to_cpu(last.src_addr), le64_to_cpu(enc->reqs[2].src_addr));
	KUNIT_EXPECT_EQ(test, le64_to_cpu(last.dest_addr), le64_to_cpu(enc->reqs[2].dest_addr));
	KUNIT_EXPECT_MEMEQ(test, last.sem_cmd, enc->reqs[3].sem_cmd, sizeof(last.sem_cmd));
}

static void resize_no_space(struct kunit *test)
{
	struct enc *enc = two_slices(test);
	struct qaic_dbc_req *out = kunit_kcalloc(test, MAX_REQS, sizeof(*out), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, out);

	KUNIT_EXPECT_EQ(test, qaic_desc_resize(enc->slices, 2, enc->reqs, 0x4800, out, 4), 4);
	KUNIT_EXPECT_EQ(test, qaic_desc_resize(enc->slices, 2, enc->reqs, 0x4800, out, 3),
			-ENOSPC);
	KUNIT_EXPECT_EQ(test, qaic_desc_resize(enc->slices, 2, enc->reqs, 0, out, 2), 2);
	KUNIT_EXPECT_EQ(test, qaic_desc_resize(enc->slices, 2, enc->reqs, 0, out, 1),
			-ENOSPC);
}

static struct kunit_case qaic_desc_resize_cases[] = {
	KUNIT_CASE(resize_full),
	KUNIT_CASE(resize_zero),
	KUNIT_CASE(resize_inside_piece),
	KUNIT_CASE(resize_at_piece_end),
	KUNIT_CASE(resize_before_slice),
	KUNIT_CASE(resize_cut_first_slice),
	KUNIT_CASE(resize_slice_view),
	KUNIT_CASE(resize_no_space),
	{}
};

static struct kunit_suite qaic_desc_resize_suite = {
	.name = "qaic_desc_resize",
	.test_cases = qaic_desc_resize_cases,
};

static void ring_free(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, qaic_desc_ring_free(0, 0, 8), 7);
	KUNIT_EXPECT_EQ(test, qaic_desc_ring_free(5, 5, 8), 7);
	KUNIT_EXPECT_EQ(test, qaic_desc_ring_free(3, 2, 8), 0);
	KUNIT_EXPECT_EQ(test, qaic_desc_ring_free(0, 7, 8), 0);
	KUNIT_EXPECT_EQ(test, qaic_desc_ring_free(6, 2, 8), 3);
	KUNIT_EXPECT_EQ(test, qaic_desc_ring_free(2, 6, 8), 3);
	/* An index out of the ring is a broken device: nothing is free. */
	KUNIT_EXPECT_EQ(test, qaic_desc_ring_free(8, 0, 8), 0);
	KUNIT_EXPECT_EQ(test, qaic_desc_ring_free(0, 8, 8), 0);
	KUNIT_EXPECT_EQ(test, qaic_desc_ring_free(0, 0, 0), 0);
}

#define NELEM	8
#define GUARD	2

struct ring {
	struct qaic_dbc_req mem[GUARD + NELEM + GUARD];
	struct qaic_dbc_req *ring;
	struct qaic_dbc_req src[NELEM];
};

static struct ring *ring_new(struct kunit *test)
{
	struct ring *r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);
	int i;

	KUNIT_ASSERT_NOT_NULL(test, r);
	memset(r->mem, 0x5a, sizeof(r->mem));
	r->ring = &r->mem[GUARD];
	memset(r->ring, 0, NELEM * sizeof(*r->ring));
	for (i = 0; i < NELEM; i++) {
		r->src[i].len = cpu_to_le32(i + 1);
		r->src[i].req_id = cpu_to_le16(0xffff);
	}
	return r;
}

static void ring_expect_guards(struct kunit *test, const struct ring *r)
{
	const u8 *p = (const u8 *)r->mem;
	size_t i;

	for (i = 0; i < GUARD * sizeof(r->mem[0]); i++)
		KUNIT_ASSERT_EQ(test, p[i], 0x5a);
	p = (const u8 *)&r->mem[GUARD + NELEM];
	for (i = 0; i < GUARD * sizeof(r->mem[0]); i++)
		KUNIT_ASSERT_EQ(test, p[i], 0x5a);
}

/* Ring entry @slot must be src[@i] with request id @id. */
static void ring_expect(struct kunit *test, const struct ring *r, u32 slot, u32 i, u16 id)
{
	KUNIT_EXPECT_EQ(test, le32_to_cpu(r->ring[slot].len), i + 1);
	KUNIT_EXPECT_EQ(test, le16_to_cpu(r->ring[slot].req_id), id);
}

static void ring_copy_no_wrap(struct kunit *test)
{
	struct ring *r = ring_new(test);
	u32 i;

	KUNIT_EXPECT_EQ(test, qaic_desc_ring_copy(r->ring, NELEM, 1, r->src, 3, 7), 4);
	for (i = 0; i < 3; i++)
		ring_expect(test, r, 1 + i, i, 7);
	KUNIT_EXPECT_EQ(test, le32_to_cpu(r->ring[0].len), 0);
	KUNIT_EXPECT_EQ(test, le32_to_cpu(r->ring[4].len), 0);
	/* The source keeps its own request ids. */
	KUNIT_EXPECT_EQ(test, le16_to_cpu(r->src[0].req_id), 0xffff);
	ring_expect_guards(test, r);
}

static void ring_copy_to_end(struct kunit *test)
{
	struct ring *r = ring_new(test);
	u32 i;

	KUNIT_EXPECT_EQ(test, qaic_desc_ring_copy(r->ring, NELEM, 5, r->src, 3, 1), 0);
	for (i = 0; i < 3; i++)
		ring_expect(test, r, 5 + i, i, 1);
	KUNIT_EXPECT_EQ(test, le32_to_cpu(r->ring[0].len), 0);
	ring_expect_guards(test, r);
}

static void ring_copy_wraps(struct kunit *test)
{
	struct ring *r = ring_new(test);
	u32 i;

	KUNIT_EXPECT_EQ(test, qaic_desc_ring_copy(r->ring, NELEM, 6, r->src, 5, 2), 3);
	ring_expect(test, r, 6, 0, 2);
	ring_expect(test, r, 7, 1, 2);
	for (i = 0; i < 3; i++)
		ring_expect(test, r, i, 2 + i, 2);
	KUNIT_EXPECT_EQ(test, le32_to_cpu(r->ring[3].len), 0);
	ring_expect_guards(test, r);
}

static void ring_copy_exactly_full(struct kunit *test)
{
	struct ring *r = ring_new(test);
	u32 head = 4, tail = 4, free, i;

	free = qaic_desc_ring_free(head, tail, NELEM);
	KUNIT_ASSERT_EQ(test, free, NELEM - 1);
	tail = qaic_desc_ring_copy(r->ring, NELEM, tail, r->src, free, 9);
	KUNIT_EXPECT_EQ(test, tail, head - 1);
	KUNIT_EXPECT_EQ(test, qaic_desc_ring_free(head, tail, NELEM), 0);
	for (i = 0; i < NELEM - 1; i++)
		ring_expect(test, r, (4 + i) % NELEM, i, 9);
	/* The entry kept empty. */
	KUNIT_EXPECT_EQ(test, le32_to_cpu(r->ring[head - 1].len), 0);
	ring_expect_guards(test, r);
}

static void ring_copy_none(struct kunit *test)
{
	struct ring *r = ring_new(test);

	KUNIT_EXPECT_EQ(test, qaic_desc_ring_copy(r->ring, NELEM, 2, r->src, 0, 1), 2);
	KUNIT_EXPECT_EQ(test, le32_to_cpu(r->ring[2].len), 0);
	ring_expect_guards(test, r);
}

static struct kunit_case qaic_desc_ring_cases[] = {
	KUNIT_CASE(ring_free),
	KUNIT_CASE(ring_copy_no_wrap),
	KUNIT_CASE(ring_copy_to_end),
	KUNIT_CASE(ring_copy_wraps),
	KUNIT_CASE(ring_copy_exactly_full),
	KUNIT_CASE(ring_copy_none),
	{}
};

static struct kunit_suite qaic_desc_ring_suite = {
	.name = "qaic_desc_ring",
	.test_cases = qaic_desc_ring_cases,
};

kunit_test_suites(&qaic_desc_check_suite, &qaic_desc_encode_suite,
		  &qaic_desc_resize_suite, &qaic_desc_ring_suite);

/* MODULE_LICENSE() and the namespace import are in qaic_nnc_test.c. */
