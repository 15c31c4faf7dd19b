// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The qaic authors.
 */

/*
 * KUnit tests of the NNC codec (qaic_nnc.c).
 *
 * Every rule the codec enforces has a case, and every case comes as a pair:
 * a valid message, which must be accepted, and the same message broken in
 * exactly one way, which must be refused. The valid twin shows the case can
 * fail; the broken one that the rule holds. Device answers are copied into
 * allocations of exactly the received size, so that an out-of-bounds read
 * shows up under KASAN, and user answers are followed by a guard area that
 * must stay intact.
 */

#include <kunit/test.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <asm/byteorder.h>

#include <uapi/drm/qaic_accel.h>

#include "../qaic_compat.h"
#include "../qaic_nnc.h"

#define NUM_DBC		16
#define BUILD_LEN	8192
#define GUARD_LEN	64
#define GUARD_BYTE	0xa5

/* A user message being built. */
struct umsg {
	u8 *data;
	u32 len;
	u32 count;
};

/* A device answer being built; @rcvd is the length said to be received. */
struct rsp {
	u8 *data;
	u32 len;
	u32 count;
	size_t rcvd;
};

static struct umsg *umsg_new(struct kunit *test)
{
	struct umsg *m = kunit_kzalloc(test, sizeof(*m), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, m);
	m->data = kunit_kzalloc(test, BUILD_LEN, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, m->data);
	return m;
}

static void *umsg_add(struct umsg *m, u32 type, u32 len)
{
	struct qaic_manage_trans_hdr *hdr = (void *)(m->data + m->len);

	hdr->type = type;
	hdr->len = len;
	m->len += len;
	m->count++;
	return hdr;
}

static struct qaic_manage_trans_passthrough *add_passthrough(struct umsg *m, u32 len)
{
	struct qaic_manage_trans_passthrough *t;
	u32 i;

	t = umsg_add(m, QAIC_TRANS_PASSTHROUGH_FROM_USR, len);
	for (i = 0; i + sizeof(t->hdr) < len; i++)
		t->data[i] = i + 1;
	return t;
}

static struct qaic_manage_trans_dma_xfer *add_xfer(struct umsg *m, u32 tag, u64 addr, u64 size)
{
	struct qaic_manage_trans_dma_xfer *t;

	t = umsg_add(m, QAIC_TRANS_DMA_XFER_FROM_USR, sizeof(*t));
	t->tag = tag;
	t->addr = addr;
	t->size = size;
	return t;
}

static struct qaic_manage_trans_activate_to_dev *add_activate(struct umsg *m, u32 nelem)
{
	struct qaic_manage_trans_activate_to_dev *t;

	t = umsg_add(m, QAIC_TRANS_ACTIVATE_FROM_USR, sizeof(*t));
	t->queue_size = nelem;
	t->options = 0x10000;
	return t;
}

static struct qaic_manage_trans_deactivate *add_deactivate(struct umsg *m, u32 dbc_id)
{
	struct qaic_manage_trans_deactivate *t;

	t = umsg_add(m, QAIC_TRANS_DEACTIVATE_FROM_USR, sizeof(*t));
	t->dbc_id = dbc_id;
	return t;
}

static struct qaic_manage_trans_hdr *add_status(struct umsg *m)
{
	return umsg_add(m, QAIC_TRANS_STATUS_FROM_USR, sizeof(struct qaic_manage_trans_hdr));
}

/* A message with one transaction of each kind a user may send. */
static void add_all(struct umsg *m)
{
	add_passthrough(m, 16);
	add_xfer(m, 7, 0x10000, 0x3000);
	add_activate(m, 8);
	add_deactivate(m, 3);
	add_status(m);
}

static int parse(const struct umsg *m)
{
	struct qaic_nnc_user_msg u = { .data = m->data, .len = m->len, .count = m->count };
	struct qaic_nnc_plan plan;

	return qaic_nnc_parse(&u, NUM_DBC, &plan, NULL, 0);
}

/* Parse: one builder per rule; @bad breaks the rule in the valid message. */
struct parse_case {
	const char *name;
	void (*build)(struct umsg *m, bool bad);
};

static void p_len_below_header(struct umsg *m, bool bad)
{
	add_status(m);
	if (bad)
		m->len = sizeof(struct qaic_manage_trans_hdr) - 1;
}

static void p_len_zero(struct umsg *m, bool bad)
{
	add_all(m);
	if (bad)
		m->len = 0;
}

static void p_len_over_max(struct umsg *m, bool bad)
{
	add_all(m);
	add_passthrough(m, QAIC_NNC_MAX_USER_LEN - m->len + (bad ? 8 : 0));
}

static void p_count_zero(struct umsg *m, bool bad)
{
	add_all(m);
	if (bad)
		m->count = 0;
}

static void p_count_past_end(struct umsg *m, bool bad)
{
	add_all(m);
	if (bad)
		m->count++;
}

static void p_count_short(struct umsg *m, bool bad)
{
	add_all(m);
	if (bad)
		m->count--;
}

static void p_trans_len_zero(struct umsg *m, bool bad)
{
	struct qaic_manage_trans_hdr *t;

	add_all(m);
	t = add_status(m);
	if (bad)
		t->len = 0;
}

static void p_trans_len_below_header(struct umsg *m, bool bad)
{
	struct qaic_manage_trans_hdr *t;

	add_all(m);
	t = add_status(m);
	if (bad)
		t->len = 4;
}

static void p_trans_len_past_end(struct umsg *m, bool bad)
{
	struct qaic_manage_trans_passthrough *t;

	add_status(m);
	t = add_passthrough(m, 24);
	if (bad)
		t->hdr.len = 32;
}

static void p_trans_len_sum_wraps(struct umsg *m, bool bad)
{
	struct qaic_manage_trans_passthrough *t;

	add_status(m);
	t = add_passthrough(m, 16);
	add_status(m);
	/* 8 + 0xfffffff8 wraps a u32 back to 0. */
	if (bad)
		t->hdr.len = 0xfffffff8;
}

static void p_passthrough_unaligned(struct umsg *m, bool bad)
{
	add_passthrough(m, bad ? 12 : 16);
}

static void shrink_last(struct umsg *m, void *t, u32 len)
{
	struct qaic_manage_trans_hdr *hdr = t;

	m->len = m->len - hdr->len + len;
	hdr->len = len;
}

static void p_xfer_short(struct umsg *m, bool bad)
{
	void *t = add_xfer(m, 1, 0x1000, 0x1000);

	if (bad)
		shrink_last(m, t, sizeof(struct qaic_manage_trans_dma_xfer) - 8);
}

static void p_xfer_long(struct umsg *m, bool bad)
{
	void *t = add_xfer(m, 1, 0x1000, 0x1000);

	if (bad)
		shrink_last(m, t, sizeof(struct qaic_manage_trans_dma_xfer) + 8);
}

static void p_activate_short(struct umsg *m, bool bad)
{
	void *t = add_activate(m, 8);

	if (bad)
		shrink_last(m, t, sizeof(struct qaic_manage_trans_activate_to_dev) - 8);
}

static void p_deactivate_short(struct umsg *m, bool bad)
{
	void *t = add_deactivate(m, 1);

	if (bad)
		shrink_last(m, t, sizeof(struct qaic_manage_trans_hdr));
}

static void p_status_long(struct umsg *m, bool bad)
{
	void *t = add_status(m);

	if (bad)
		shrink_last(m, t, 16);
}

static void p_xfer_pad(struct umsg *m, bool bad)
{
	add_xfer(m, 1, 0x1000, 0x1000)->pad = bad;
}

static void p_xfer_size_zero(struct umsg *m, bool bad)
{
	add_xfer(m, 1, 0x1000, bad ? 0 : 1);
}

static void p_xfer_wraps(struct umsg *m, bool bad)
{
	/* The valid twin ends on the last byte of the address space. */
	add_xfer(m, 1, U64_MAX - 0xfff - (bad ? 0 : 1), 0x1000);
}

static void p_activate_pad(struct umsg *m, bool bad)
{
	add_activate(m, 8)->pad = bad;
}

static void p_activate_empty(struct umsg *m, bool bad)
{
	add_activate(m, bad ? 0 : 1);
}

static void p_activate_twice(struct umsg *m, bool bad)
{
	add_activate(m, 8);
	if (bad)
		add_activate(m, 8);
}

static void p_deactivate_pad(struct umsg *m, bool bad)
{
	add_deactivate(m, 1)->pad = bad;
}

static void p_deactivate_bad_dbc(struct umsg *m, bool bad)
{
	add_deactivate(m, bad ? NUM_DBC : NUM_DBC - 1);
}

static const struct parse_case parse_cases[] = {
	{ "len-below-header", p_len_below_header },
	{ "len-zero", p_len_zero },
	{ "len-over-max", p_len_over_max },
	{ "count-zero", p_count_zero },
	{ "count-past-end", p_count_past_end },
	{ "count-short", p_count_short },
	{ "trans-len-zero", p_trans_len_zero },
	{ "trans-len-below-header", p_trans_len_below_header },
	{ "trans-len-past-end", p_trans_len_past_end },
	{ "trans-len-sum-wraps", p_trans_len_sum_wraps },
	{ "passthrough-unaligned", p_passthrough_unaligned },
	{ "xfer-short", p_xfer_short },
	{ "xfer-long", p_xfer_long },
	{ "activate-short", p_activate_short },
	{ "deactivate-short", p_deactivate_short },
	{ "status-long", p_status_long },
	{ "xfer-pad", p_xfer_pad },
	{ "xfer-size-zero", p_xfer_size_zero },
	{ "xfer-wraps", p_xfer_wraps },
	{ "activate-pad", p_activate_pad },
	{ "activate-empty", p_activate_empty },
	{ "activate-twice", p_activate_twice },
	{ "deactivate-pad", p_deactivate_pad },
	{ "deactivate-bad-dbc", p_deactivate_bad_dbc },
};

KUNIT_ARRAY_PARAM_DESC(parse_rule, parse_cases, name);

static void parse_rule_test(struct kunit *test)
{
	const struct parse_case *c = test->param_value;
	struct umsg *good = umsg_new(test);
	struct umsg *bad = umsg_new(test);

	c->build(good, false);
	KUNIT_EXPECT_EQ_MSG(test, parse(good), 0, "valid twin refused");
	c->build(bad, true);
	KUNIT_EXPECT_EQ(test, parse(bad), -EINVAL);
}

/* Types a user may not send: device types, answer types, unknown. */
static const u32 refused_types[] = {
	QAIC_TRANS_UNDEFINED,
	QAIC_TRANS_PASSTHROUGH_TO_USR,
	QAIC_TRANS_PASSTHROUGH_FROM_DEV,
	QAIC_TRANS_PASSTHROUGH_TO_DEV,
	QAIC_TRANS_DMA_XFER_TO_DEV,
	QAIC_TRANS_ACTIVATE_FROM_DEV,
	QAIC_TRANS_ACTIVATE_TO_DEV,
	QAIC_TRANS_DEACTIVATE_FROM_DEV,
	QAIC_TRANS_STATUS_TO_USR,
	QAIC_TRANS_STATUS_FROM_DEV,
	QAIC_TRANS_STATUS_TO_DEV,
	QAIC_TRANS_TERMINATE_FROM_DEV,
	QAIC_TRANS_TERMINATE_TO_DEV,
	QAIC_TRANS_DMA_XFER_CONT,
	QAIC_TRANS_VALIDATE_PARTITION_FROM_DEV,
	QAIC_TRANS_VALIDATE_PARTITION_TO_DEV,
	21,
	0xffffffff,
};

static void refused_type_desc(const u32 *type, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "type-%u", *type);
}

KUNIT_ARRAY_PARAM(refused_type, refused_types, refused_type_desc);

static void parse_refused_type_test(struct kunit *test)
{
	const u32 *type = test->param_value;
	struct umsg *m = umsg_new(test);
	struct qaic_manage_trans_passthrough *t;

	add_status(m);
	t = add_passthrough(m, 16);
	KUNIT_EXPECT_EQ(test, parse(m), 0);
	t->hdr.type = *type;
	KUNIT_EXPECT_EQ(test, parse(m), -EINVAL);
}

static void parse_plan_test(struct kunit *test)
{
	struct umsg *m = umsg_new(test);
	struct qaic_nnc_user_msg u;
	struct qaic_nnc_xfer xfers[2];
	struct qaic_nnc_plan plan;

	add_all(m);
	add_xfer(m, 9, 0x200000, 0x123);
	add_deactivate(m, 15);
	u = (struct qaic_nnc_user_msg){ .data = m->data, .len = m->len, .count = m->count };

	KUNIT_ASSERT_EQ(test, qaic_nnc_parse(&u, NUM_DBC, &plan, NULL, 0), 0);
	KUNIT_EXPECT_EQ(test, plan.num_xfers, 2);
	KUNIT_EXPECT_EQ(test, plan.activate_nelem, 8);
	KUNIT_EXPECT_EQ(test, plan.deactivate_mask, BIT(3) | BIT(15));

	/* Only max_xfers entries are written. */
	memset(xfers, 0xff, sizeof(xfers));
	KUNIT_ASSERT_EQ(test, qaic_nnc_parse(&u, NUM_DBC, &plan, xfers, 1), 0);
	KUNIT_EXPECT_EQ(test, xfers[0].addr, 0x10000);
	KUNIT_EXPECT_EQ(test, xfers[0].size, 0x3000);
	KUNIT_EXPECT_EQ(test, xfers[1].addr, U64_MAX);
	KUNIT_ASSERT_EQ(test, qaic_nnc_parse(&u, NUM_DBC, &plan, xfers, 2), 0);
	KUNIT_EXPECT_EQ(test, xfers[1].addr, 0x200000);
	KUNIT_EXPECT_EQ(test, xfers[1].size, 0x123);
	KUNIT_EXPECT_PTR_EQ(test, xfers[1].segs, NULL);

	/* More DBCs than the masks hold. */
	KUNIT_EXPECT_EQ(test, qaic_nnc_parse(&u, QAIC_NNC_MAX_DBC + 1, &plan, NULL, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, plan.num_xfers, 0);
}

/* Encoding */

static const struct qaic_nnc_seg segs3[] = {
	{ .addr = 0x80001000, .size = 0x1000 },
	{ .addr = 0x80005000, .size = 0x1800 },
	{ .addr = 0x90000000, .size = 0x800 },
};

static const struct qaic_nnc_ring ring8 = {
	.req_addr = 0xa0000000,
	.rsp_addr = 0xa0000a00,
	.nelem = 8,
	.buf_len = 0x1000,
};

struct enc {
	struct umsg *m;
	struct qaic_nnc_req req;
	struct qaic_nnc_xfer xfers[4];
	u8 *buf;
};

static struct enc *enc_new(struct kunit *test)
{
	struct enc *e = kunit_kzalloc(test, sizeof(*e), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, e);
	e->m = umsg_new(test);
	e->buf = kunit_kzalloc(test, QAIC_NNC_MAX_REQ_LEN, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, e->buf);
	return e;
}

/* Parses the message and fills the request as the ioctl would. */
static void enc_prepare(struct kunit *test, struct enc *e, const struct qaic_nnc_seg *segs,
			u32 nsegs)
{
	struct qaic_nnc_plan plan;
	u32 i;

	e->req.umsg = (struct qaic_nnc_user_msg){
		.data = e->m->data, .len = e->m->len, .count = e->m->count,
	};
	KUNIT_ASSERT_EQ(test, qaic_nnc_parse(&e->req.umsg, NUM_DBC, &plan, e->xfers,
					     ARRAY_SIZE(e->xfers)), 0);
	for (i = 0; i < plan.num_xfers; i++) {
		e->xfers[i].segs = segs;
		e->xfers[i].nsegs = nsegs;
	}
	e->req.num_dbc = NUM_DBC;
	e->req.xfers = e->xfers;
	e->req.num_xfers = plan.num_xfers;
	e->req.ring = plan.activate_nelem ? &ring8 : NULL;
	e->req.handle = 0x55;
	e->req.partition_id = QAIC_NNC_NO_PARTITION;
	e->req.chunk_id = 0x77;
}

static const struct qaic_wire_msg_hdr *whdr(const struct enc *e)
{
	return (const void *)e->buf;
}

static const struct qaic_wire_trans_hdr *wtrans(const struct enc *e, u32 off)
{
	return (const void *)(e->buf + off);
}

static void expect_hdr(struct kunit *test, const struct enc *e, ssize_t len, u32 count)
{
	const struct qaic_wire_msg_hdr *h = whdr(e);

	KUNIT_EXPECT_EQ(test, le32_to_cpu(h->magic), QAIC_NNC_MAGIC);
	KUNIT_EXPECT_EQ(test, le32_to_cpu(h->len), len);
	KUNIT_EXPECT_EQ(test, le32_to_cpu(h->count), count);
	KUNIT_EXPECT_EQ(test, le32_to_cpu(h->seq), 0);
	KUNIT_EXPECT_EQ(test, le32_to_cpu(h->crc32), 0);
	KUNIT_EXPECT_EQ(test, le32_to_cpu(h->handle), 0x55);
	KUNIT_EXPECT_EQ(test, (s32)le32_to_cpu(h->partition_id), QAIC_NNC_NO_PARTITION);
	KUNIT_EXPECT_EQ(test, le32_to_cpu(h->pad), 0);
}

static void encode_passthrough_test(struct kunit *test)
{
	struct enc *e = enc_new(test);
	const struct qaic_wire_passthrough *t;
	ssize_t len;

	add_passthrough(e->m, 24);
	enc_prepare(test, e, NULL, 0);
	len = qaic_nnc_encode(&e->req, e->buf, QAIC_NNC_MAX_REQ_LEN);
	KUNIT_ASSERT_EQ(test, len, 32 + 24);
	expect_hdr(test, e, len, 1);
	t = (const void *)wtrans(e, 32);
	KUNIT_EXPECT_EQ(test, le32_to_cpu(t->hdr.type), QAIC_TRANS_PASSTHROUGH_TO_DEV);
	KUNIT_EXPECT_EQ(test, le32_to_cpu(t->hdr.len), 24);
	KUNIT_EXPECT_MEMEQ(test, t->data, e->m->data + 8, 16);
	KUNIT_EXPECT_FALSE(test, qaic_nnc_encode_pending(&e->req));
}

static void encode_status_test(struct kunit *test)
{
	struct enc *e = enc_new(test);
	ssize_t len;

	add_status(e->m);
	enc_prepare(test, e, NULL, 0);
	len = qaic_nnc_encode(&e->req, e->buf, QAIC_NNC_MAX_REQ_LEN);
	KUNIT_ASSERT_EQ(test, len, 32 + 8);
	expect_hdr(test, e, len, 1);
	KUNIT_EXPECT_EQ(test, le32_to_cpu(wtrans(e, 32)->type), QAIC_TRANS_STATUS_TO_DEV);
	KUNIT_EXPECT_EQ(test, le32_to_cpu(wtrans(e, 32)->len), 8);
}

static void encode_activate_test(struct kunit *test)
{
	struct enc *e = enc_new(test);
	const struct qaic_wire_activate_to_dev *t;
	ssize_t len;

	add_activate(e->m, 8);
	enc_prepare(test, e, NULL, 0);
	len = qaic_nnc_encode(&e->req, e->buf, QAIC_NNC_MAX_REQ_LEN);
	KUNIT_ASSERT_EQ(test, len, 32 + sizeof(*t));
	expect_hdr(test, e, len, 1);
	t = (const void *)wtrans(e, 32);
	KUNIT_EXPECT_EQ(test, le32_to_cpu(t->hdr.type), QAIC_TRANS_ACTIVATE_TO_DEV);
	KUNIT_EXPECT_EQ(test, le32_to_cpu(t->hdr.len), sizeof(*t));
	KUNIT_EXPECT_EQ(test, le64_to_cpu(t->req_q_addr), ring8.req_addr);
	KUNIT_EXPECT_EQ(test, le64_to_cpu(t->rsp_q_addr), ring8.rsp_addr);
	KUNIT_EXPECT_EQ(test, le32_to_cpu(t->req_q_size), 8);
	KUNIT_EXPECT_EQ(test, le32_to_cpu(t->rsp_q_size), 8);
	KUNIT_EXPECT_EQ(test, le32_to_cpu(t->buf_len), ring8.buf_len);
	KUNIT_EXPECT_EQ(test, le32_to_cpu(t->options), 0x10000);
}

static void encode_deactivate_test(struct kunit *test)
{
	struct enc *e = enc_new(test);
	ssize_t len;

	/* A deactivate has no wire form: only the header goes. */
	add_deactivate(e->m, 2);
	enc_prepare(test, e, NULL, 0);
	len = qaic_nnc_encode(&e->req, e->buf, QAIC_NNC_MAX_REQ_LEN);
	KUNIT_ASSERT_EQ(test, len, 32);
	expect_hdr(test, e, len, 0);
}

static void expect_xfer(struct kunit *test, const struct enc *e, u32 off, u32 tag,
			u32 chunk_id, const struct qaic_nnc_seg *segs, u32 n)
{
	const struct qaic_wire_dma_xfer *t = (const void *)wtrans(e, off);
	u32 i;

	KUNIT_EXPECT_EQ(test, le32_to_cpu(t->hdr.type), QAIC_TRANS_DMA_XFER_TO_DEV);
	KUNIT_EXPECT_EQ(test, le32_to_cpu(t->hdr.len), sizeof(*t) + n * sizeof(t->segs[0]));
	KUNIT_EXPECT_EQ(test, le32_to_cpu(t->tag), tag);
	KUNIT_EXPECT_EQ(test, le32_to_cpu(t->count), n);
	KUNIT_EXPECT_EQ(test, le32_to_cpu(t->chunk_id), chunk_id);
	KUNIT_EXPECT_EQ(test, le32_to_cpu(t->pad), 0);
	for (i = 0; i < n; i++) {
		KUNIT_EXPECT_EQ(test, le64_to_cpu(t->segs[i].addr), segs[i].addr);
		KUNIT_EXPECT_EQ(test, le64_to_cpu(t->segs[i].size), segs[i].size);
	}
}

static void encode_xfer_test(struct kunit *test)
{
	struct enc *e = enc_new(test);
	ssize_t len;

	add_xfer(e->m, 7, 0x7000, 0x3000);
	enc_prepare(test, e, segs3, ARRAY_SIZE(segs3));
	len = qaic_nnc_encode(&e->req, e->buf, QAIC_NNC_MAX_REQ_LEN);
	KUNIT_ASSERT_EQ(test, len, 32 + 24 + 3 * 16);
	expect_hdr(test, e, len, 1);
	expect_xfer(test, e, 32, 7, 0, segs3, 3);
	KUNIT_EXPECT_FALSE(test, qaic_nnc_encode_pending(&e->req));
	/* Nothing is left to send. */
	KUNIT_EXPECT_EQ(test, qaic_nnc_encode(&e->req, e->buf, QAIC_NNC_MAX_REQ_LEN), -EINVAL);
}

static void encode_all_test(struct kunit *test)
{
	struct enc *e = enc_new(test);
	u32 off = 32;
	ssize_t len;

	add_all(e->m);
	e->m->data[8] = 0xee;
	enc_prepare(test, e, segs3, ARRAY_SIZE(segs3));
	len = qaic_nnc_encode(&e->req, e->buf, QAIC_NNC_MAX_REQ_LEN);
	KUNIT_ASSERT_EQ(test, len, 32 + 16 + (24 + 48) + 40 + 8);
	expect_hdr(test, e, len, 4);

	KUNIT_EXPECT_EQ(test, le32_to_cpu(wtrans(e, off)->type), QAIC_TRANS_PASSTHROUGH_TO_DEV);
	KUNIT_EXPECT_EQ(test, e->buf[off + 8], 0xee);
	off += 16;
	expect_xfer(test, e, off, 7, 0, segs3, 3);
	off += 24 + 48;
	KUNIT_EXPECT_EQ(test, le32_to_cpu(wtrans(e, off)->type), QAIC_TRANS_ACTIVATE_TO_DEV);
	off += 40;
	KUNIT_EXPECT_EQ(test, le32_to_cpu(wtrans(e, off)->type), QAIC_TRANS_STATUS_TO_DEV);
}

/* A device message, built in a kunit buffer. */
static struct rsp *rsp_new(struct kunit *test)
{
	struct rsp *r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, r);
	r->data = kunit_kzalloc(test, BUILD_LEN, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, r->data);
	r->len = sizeof(struct qaic_wire_msg_hdr);
	return r;
}

static void *rsp_add(struct rsp *r, u32 type, u32 len)
{
	struct qaic_wire_trans_hdr *hdr = (void *)(r->data + r->len);

	hdr->type = cpu_to_le32(type);
	hdr->len = cpu_to_le32(len);
	r->len += len;
	r->count++;
	return hdr;
}

static struct qaic_wire_msg_hdr *rsp_finish(struct rsp *r)
{
	struct qaic_wire_msg_hdr *hdr = (void *)r->data;

	hdr->magic = cpu_to_le32(QAIC_NNC_MAGIC);
	hdr->seq = cpu_to_le32(42);
	hdr->len = cpu_to_le32(r->len);
	hdr->count = cpu_to_le32(r->count);
	r->rcvd = r->len;
	return hdr;
}

/* A copy of exactly the received bytes, so KASAN sees any overread. */
static const void *rsp_rcvd(struct kunit *test, const struct rsp *r)
{
	void *copy = kunit_kmalloc(test, r->rcvd ?: 1, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, copy);
	memcpy(copy, r->data, r->rcvd);
	return copy;
}

static struct rsp *cont_rsp(struct kunit *test, u32 chunk_id, u64 xferred)
{
	struct rsp *r = rsp_new(test);
	struct qaic_wire_dma_xfer_cont *c;

	c = rsp_add(r, QAIC_TRANS_DMA_XFER_CONT, sizeof(*c));
	c->chunk_id = cpu_to_le32(chunk_id);
	c->xferred = cpu_to_le64(xferred);
	rsp_finish(r);
	return r;
}

static int check_cont(struct kunit *test, const struct enc *e, u32 chunk_id, u64 xferred)
{
	const struct rsp *r = cont_rsp(test, chunk_id, xferred);

	return qaic_nnc_check_cont(&e->req, rsp_rcvd(test, r), r->rcvd);
}

static const struct qaic_nnc_seg segs5[] = {
	{ .addr = 0x1000, .size = 0x1000 },
	{ .addr = 0x3000, .size = 0x2000 },
	{ .addr = 0x7000, .size = 0x100 },
	{ .addr = 0x9000, .size = 0x10 },
	{ .addr = 0xb000, .size = 0x1 },
};

/* Room for a header, a status, a transfer and two of its segments. */
#define CONT_BUF_LEN	(32 + 8 + 24 + 2 * 16)

static void encode_continuation_test(struct kunit *test)
{
	struct enc *e = enc_new(test);
	ssize_t len;

	add_status(e->m);
	add_xfer(e->m, 5, 0x40000, 0x3111);
	enc_prepare(test, e, segs5, ARRAY_SIZE(segs5));

	/* The first message carries what fits and names the chunk. */
	len = qaic_nnc_encode(&e->req, e->buf, CONT_BUF_LEN);
	KUNIT_ASSERT_EQ(test, len, CONT_BUF_LEN);
	expect_hdr(test, e, len, 2);
	expect_xfer(test, e, 40, 5, 0x77, segs5, 2);
	KUNIT_ASSERT_TRUE(test, qaic_nnc_encode_pending(&e->req));

	/* The device asks for more, having received 0x3000 bytes. */
	KUNIT_EXPECT_EQ(test, check_cont(test, e, 0x77, 0x2fff), -EINVAL);
	KUNIT_EXPECT_EQ(test, check_cont(test, e, 0x78, 0x3000), -EINVAL);
	KUNIT_ASSERT_EQ(test, check_cont(test, e, 0x77, 0x3000), 1);

	/* Each further message holds the transfer alone. */
	len = qaic_nnc_encode(&e->req, e->buf, 32 + 24 + 2 * 16);
	KUNIT_ASSERT_EQ(test, len, 32 + 24 + 2 * 16);
	expect_hdr(test, e, len, 1);
	expect_xfer(test, e, 32, 5, 0x77, segs5 + 2, 2);
	KUNIT_ASSERT_TRUE(test, qaic_nnc_encode_pending(&e->req));
	KUNIT_ASSERT_EQ(test, check_cont(test, e, 0x77, 0x3110), 1);

	len = qaic_nnc_encode(&e->req, e->buf, QAIC_NNC_MAX_REQ_LEN);
	KUNIT_ASSERT_EQ(test, len, 32 + 24 + 16);
	expect_xfer(test, e, 32, 5, 0x77, segs5 + 4, 1);
	KUNIT_EXPECT_FALSE(test, qaic_nnc_encode_pending(&e->req));

	/* All sent: a further request for more is a lie. */
	KUNIT_EXPECT_EQ(test, check_cont(test, e, 0x77, 0x3111), -EINVAL);
	KUNIT_EXPECT_EQ(test, qaic_nnc_encode(&e->req, e->buf, QAIC_NNC_MAX_REQ_LEN), -EINVAL);
}

static void encode_cont_malformed_test(struct kunit *test)
{
	struct enc *e = enc_new(test);
	struct qaic_wire_dma_xfer_cont *c;
	struct rsp *r;

	add_xfer(e->m, 5, 0x40000, 0x3111);
	enc_prepare(test, e, segs5, ARRAY_SIZE(segs5));
	KUNIT_ASSERT_GT(test, qaic_nnc_encode(&e->req, e->buf, 32 + 24 + 16), 0);
	KUNIT_ASSERT_EQ(test, check_cont(test, e, 0x77, 0x1000), 1);

	/* A continuation request of the wrong length. */
	r = rsp_new(test);
	c = rsp_add(r, QAIC_TRANS_DMA_XFER_CONT, sizeof(*c) + 8);
	c->chunk_id = cpu_to_le32(0x77);
	c->xferred = cpu_to_le64(0x1000);
	rsp_finish(r);
	KUNIT_EXPECT_EQ(test, qaic_nnc_check_cont(&e->req, rsp_rcvd(test, r), r->rcvd), -EINVAL);

	/* Truncated in transit. */
	r = cont_rsp(test, 0x77, 0x1000);
	r->rcvd -= 8;
	KUNIT_EXPECT_EQ(test, qaic_nnc_check_cont(&e->req, rsp_rcvd(test, r), r->rcvd), -EINVAL);

	/* Another answer is not a continuation request. */
	r = rsp_new(test);
	rsp_add(r, QAIC_TRANS_STATUS_FROM_DEV, sizeof(struct qaic_wire_status_from_dev));
	rsp_finish(r);
	KUNIT_EXPECT_EQ(test, qaic_nnc_check_cont(&e->req, rsp_rcvd(test, r), r->rcvd), 0);
}

/* Windows: the last transfer mapped one message's worth at a time. */

/* Makes the last transfer a window of @n segments at @segs, from byte @off. */
static void set_window(struct enc *e, const struct qaic_nnc_seg *segs, u32 n, u64 off)
{
	struct qaic_nnc_xfer *x = &e->xfers[e->req.num_xfers - 1];

	x->segs = segs;
	x->nsegs = n;
	x->win_off = off;
	x->window = true;
}

/* Index of the segment of segs5 that starts at byte @off of the transfer. */
static u32 segs5_at(struct kunit *test, u64 off)
{
	u64 at = 0;
	u32 i;

	for (i = 0; i < ARRAY_SIZE(segs5) && at < off; i++)
		at += segs5[i].size;
	KUNIT_ASSERT_EQ(test, at, off);
	return i;
}

/*
 * The messages of encode_continuation_test, once from the whole transfer
 * and once from windows: byte for byte the same. The windows alternate
 * between all the segments left, more than the message takes, and exactly
 * what it takes.
 */
static void encode_window_test(struct kunit *test)
{
	static const size_t sizes[] = { CONT_BUF_LEN, 32 + 24 + 2 * 16, QAIC_NNC_MAX_REQ_LEN };
	static const u32 room[] = { 2, 2, (QAIC_NNC_MAX_REQ_LEN - 32 - 24) / 16 };
	struct enc *whole = enc_new(test);
	struct enc *win = enc_new(test);
	ssize_t len, wlen;
	u32 i, first, n, max;
	u64 off;

	add_status(whole->m);
	add_xfer(whole->m, 5, 0x40000, 0x3111);
	enc_prepare(test, whole, segs5, ARRAY_SIZE(segs5));
	add_status(win->m);
	add_xfer(win->m, 5, 0x40000, 0x3111);
	enc_prepare(test, win, NULL, 0);

	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		KUNIT_ASSERT_EQ(test, qaic_nnc_next_window(&win->req, sizes[i], &off, &max), 0);
		KUNIT_EXPECT_EQ(test, off, i ? whole->req.cont_sent : 0);
		KUNIT_EXPECT_EQ(test, max, room[i]);
		first = segs5_at(test, off);
		n = ARRAY_SIZE(segs5) - first;
		if (i % 2)
			n = min(n, max);
		set_window(win, segs5 + first, n, off);

		len = qaic_nnc_encode(&whole->req, whole->buf, sizes[i]);
		wlen = qaic_nnc_encode(&win->req, win->buf, sizes[i]);
		KUNIT_ASSERT_GT(test, len, 0);
		KUNIT_ASSERT_EQ(test, wlen, len);
		KUNIT_EXPECT_MEMEQ(test, win->buf, whole->buf, len);
		KUNIT_EXPECT_EQ(test, win->req.cont_sent, whole->req.cont_sent);
		KUNIT_ASSERT_EQ(test, qaic_nnc_encode_pending(&win->req),
				qaic_nnc_encode_pending(&whole->req));
		if (!qaic_nnc_encode_pending(&win->req))
			break;
		KUNIT_ASSERT_EQ(test, check_cont(test, win, 0x77, whole->req.cont_sent), 1);
	}
	KUNIT_EXPECT_EQ(test, i, ARRAY_SIZE(sizes) - 1);
	KUNIT_EXPECT_FALSE(test, qaic_nnc_encode_pending(&win->req));
	KUNIT_EXPECT_EQ(test, qaic_nnc_next_window(&win->req, QAIC_NNC_MAX_REQ_LEN, &off, &max),
			-EINVAL);

	/* A window that covers the transfer goes as one, without a chunk id. */
	win = enc_new(test);
	add_xfer(win->m, 5, 0x40000, 0x3111);
	enc_prepare(test, win, NULL, 0);
	win->req.chunk_id = 0;
	set_window(win, segs5, ARRAY_SIZE(segs5), 0);
	len = qaic_nnc_encode(&win->req, win->buf, QAIC_NNC_MAX_REQ_LEN);
	KUNIT_ASSERT_EQ(test, len, 32 + 24 + 5 * 16);
	expect_xfer(test, win, 32, 5, 0, segs5, 5);
	KUNIT_EXPECT_FALSE(test, qaic_nnc_encode_pending(&win->req));
}

/*
 * A request for the transfer of encode_continuation_test whose first
 * message carries a window of segs5[0..2), 0x3000 bytes, and whose second
 * window is the rest: @segs, @n, from byte @off.
 */
static int window_second(struct kunit *test, const struct qaic_nnc_seg *segs, u32 n, u64 off)
{
	struct enc *e = enc_new(test);

	add_xfer(e->m, 5, 0x40000, 0x3111);
	enc_prepare(test, e, NULL, 0);
	set_window(e, segs5, 2, 0);
	KUNIT_EXPECT_EQ(test, qaic_nnc_encode(&e->req, e->buf, QAIC_NNC_MAX_REQ_LEN),
			32 + 24 + 2 * 16);
	KUNIT_EXPECT_TRUE(test, qaic_nnc_encode_pending(&e->req));
	KUNIT_EXPECT_EQ(test, check_cont(test, e, 0x77, 0x3000), 1);
	set_window(e, segs, n, off);
	return qaic_nnc_encode(&e->req, e->buf, QAIC_NNC_MAX_REQ_LEN);
}

/* Encodes a first message whose only transfer is a window. */
static ssize_t window_first(struct kunit *test, u64 size, const struct qaic_nnc_seg *segs,
			    u32 n, u64 off)
{
	struct enc *e = enc_new(test);

	add_xfer(e->m, 5, 0x40000, size);
	enc_prepare(test, e, NULL, 0);
	set_window(e, segs, n, off);
	return qaic_nnc_encode(&e->req, e->buf, QAIC_NNC_MAX_REQ_LEN);
}

static void encode_window_past_size_test(struct kunit *test)
{
	struct qaic_nnc_seg *segs = kunit_kmalloc(test, sizeof(segs5), GFP_KERNEL);
	struct qaic_nnc_seg rest = { .addr = 0x20000, .size = 0x111 };

	KUNIT_ASSERT_NOT_NULL(test, segs);
	memcpy(segs, segs5, sizeof(segs5));

	/* The first window: 0x3111 bytes, of a transfer of 0x3111, or 0x3110. */
	KUNIT_EXPECT_EQ(test, window_first(test, 0x3111, segs5, 5, 0), 32 + 24 + 5 * 16);
	KUNIT_EXPECT_EQ(test, window_first(test, 0x3110, segs5, 5, 0), -EINVAL);
	KUNIT_EXPECT_GT(test, window_first(test, 0x3110, segs5, 4, 0), 0);

	/* A later window that ends on the last byte, or one past it. */
	KUNIT_EXPECT_EQ(test, window_second(test, segs + 2, 3, 0x3000), 32 + 24 + 3 * 16);
	segs[4].size++;
	KUNIT_EXPECT_EQ(test, window_second(test, segs + 2, 3, 0x3000), -EINVAL);
	KUNIT_EXPECT_EQ(test, window_second(test, &rest, 1, 0x3000), 32 + 24 + 16);
	rest.size++;
	KUNIT_EXPECT_EQ(test, window_second(test, &rest, 1, 0x3000), -EINVAL);
}

static void encode_window_start_test(struct kunit *test)
{
	/* The first window starts at byte 0. */
	KUNIT_EXPECT_GT(test, window_first(test, 0x3111, segs5 + 1, 2, 0), 0);
	KUNIT_EXPECT_EQ(test, window_first(test, 0x3111, segs5 + 1, 2, 0x1000), -EINVAL);

	/* A later one where the bytes sent end, 0x3000: not before, not after. */
	KUNIT_EXPECT_EQ(test, window_second(test, segs5 + 2, 3, 0x3000), 32 + 24 + 3 * 16);
	KUNIT_EXPECT_EQ(test, window_second(test, segs5 + 2, 3, 0x2fff), -EINVAL);
	KUNIT_EXPECT_EQ(test, window_second(test, segs5 + 2, 3, 0x3001), -EINVAL);
	/* The first window again: the caller did not map the next one. */
	KUNIT_EXPECT_EQ(test, window_second(test, segs5, 2, 0), -EINVAL);
}

static void encode_window_rules_test(struct kunit *test)
{
	struct enc *e;
	u32 pass, max;
	u64 off;

	for (pass = 0; pass < 2; pass++) {
		/* Only the last transfer may be windowed. */
		e = enc_new(test);
		add_xfer(e->m, 1, 0x10000, 0x3000);
		add_xfer(e->m, 2, 0x40000, 0x3111);
		enc_prepare(test, e, segs3, ARRAY_SIZE(segs3));
		set_window(e, segs5, ARRAY_SIZE(segs5), 0);
		if (pass)
			e->xfers[0].window = true;
		KUNIT_EXPECT_EQ(test, qaic_nnc_encode(&e->req, e->buf, QAIC_NNC_MAX_REQ_LEN),
				pass ? -EINVAL : 32 + 2 * 24 + 8 * 16);

		/* A window short of the end needs a chunk id to go on. */
		e = enc_new(test);
		add_xfer(e->m, 2, 0x40000, 0x3111);
		enc_prepare(test, e, NULL, 0);
		set_window(e, segs5, 3, 0);
		if (pass)
			e->req.chunk_id = 0;
		KUNIT_EXPECT_EQ(test, qaic_nnc_encode(&e->req, e->buf, QAIC_NNC_MAX_REQ_LEN),
				pass ? -EINVAL : 32 + 24 + 3 * 16);
		if (pass)
			KUNIT_EXPECT_FALSE(test, qaic_nnc_encode_pending(&e->req));
		else
			KUNIT_EXPECT_TRUE(test, qaic_nnc_encode_pending(&e->req));

		/* The first window's room: what the other transfers leave. */
		e = enc_new(test);
		add_all(e->m);
		add_xfer(e->m, 2, 0x40000, 0x3111);
		enc_prepare(test, e, segs3, ARRAY_SIZE(segs3));
		KUNIT_ASSERT_EQ(test, qaic_nnc_next_window(&e->req, 32 + 16 + 24 + 48 + 40 + 8 +
							   24 + 15 + 16 * pass, &off, &max),
				pass ? 0 : -ENOSPC);
		if (pass) {
			KUNIT_EXPECT_EQ(test, off, 0);
			KUNIT_EXPECT_EQ(test, max, 1);
		}
	}

	/* A request with no transfer has no window. */
	e = enc_new(test);
	add_status(e->m);
	enc_prepare(test, e, NULL, 0);
	KUNIT_EXPECT_EQ(test, qaic_nnc_next_window(&e->req, QAIC_NNC_MAX_REQ_LEN, &off, &max),
			-EINVAL);
}

/* Encode: requests that do not agree with their message. */
struct encode_case {
	const char *name;
	int err;
	void (*breaks)(struct enc *e, struct qaic_nnc_seg *segs, size_t *size);
};

static void e_seg_size_zero(struct enc *e, struct qaic_nnc_seg *segs, size_t *size)
{
	segs[2].size = 0;
}

static void e_seg_wraps(struct enc *e, struct qaic_nnc_seg *segs, size_t *size)
{
	segs[1].addr = U64_MAX - 0x100;
}

static void e_segs_short(struct enc *e, struct qaic_nnc_seg *segs, size_t *size)
{
	segs[2].size--;
}

static void e_segs_long(struct enc *e, struct qaic_nnc_seg *segs, size_t *size)
{
	segs[2].size++;
}

static void e_segs_none(struct enc *e, struct qaic_nnc_seg *segs, size_t *size)
{
	e->xfers[0].nsegs = 0;
}

static void e_xfer_moved(struct enc *e, struct qaic_nnc_seg *segs, size_t *size)
{
	e->xfers[0].addr += 0x1000;
}

static void e_xfers_missing(struct enc *e, struct qaic_nnc_seg *segs, size_t *size)
{
	e->req.num_xfers = 0;
}

static void e_ring_missing(struct enc *e, struct qaic_nnc_seg *segs, size_t *size)
{
	e->req.ring = NULL;
}

static void e_ring_wrong_size(struct enc *e, struct qaic_nnc_seg *segs, size_t *size)
{
	static const struct qaic_nnc_ring ring4 = { .nelem = 4 };

	e->req.ring = &ring4;
}

static void e_no_chunk_id(struct enc *e, struct qaic_nnc_seg *segs, size_t *size)
{
	e->req.chunk_id = 0;
	*size = 32 + 16 + 24 + 40 + 8 + 16;
}

static void e_no_room_for_a_seg(struct enc *e, struct qaic_nnc_seg *segs, size_t *size)
{
	*size = 32 + 16 + 24 + 40 + 8 + 15;
}

static void e_no_room_at_all(struct enc *e, struct qaic_nnc_seg *segs, size_t *size)
{
	*size = 31;
}

static const struct encode_case encode_cases[] = {
	{ "seg-size-zero", -EINVAL, e_seg_size_zero },
	{ "seg-wraps", -EINVAL, e_seg_wraps },
	{ "segs-short", -EINVAL, e_segs_short },
	{ "segs-long", -EINVAL, e_segs_long },
	{ "segs-none", -EINVAL, e_segs_none },
	{ "xfer-moved", -EINVAL, e_xfer_moved },
	{ "xfers-missing", -EINVAL, e_xfers_missing },
	{ "ring-missing", -EINVAL, e_ring_missing },
	{ "ring-wrong-size", -EINVAL, e_ring_wrong_size },
	{ "no-chunk-id", -EINVAL, e_no_chunk_id },
	{ "no-room-for-a-seg", -ENOSPC, e_no_room_for_a_seg },
	{ "no-room-at-all", -ENOSPC, e_no_room_at_all },
};

KUNIT_ARRAY_PARAM_DESC(encode_rule, encode_cases, name);

static void encode_rule_test(struct kunit *test)
{
	const struct encode_case *c = test->param_value;
	struct qaic_nnc_seg *segs;
	struct enc *e;
	size_t size;
	int pass;

	for (pass = 0; pass < 2; pass++) {
		e = enc_new(test);
		segs = kunit_kmalloc(test, sizeof(segs3), GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, segs);
		memcpy(segs, segs3, sizeof(segs3));
		add_all(e->m);
		enc_prepare(test, e, segs, ARRAY_SIZE(segs3));
		size = QAIC_NNC_MAX_REQ_LEN;
		if (pass) {
			c->breaks(e, segs, &size);
			KUNIT_EXPECT_EQ(test, qaic_nnc_encode(&e->req, e->buf, size), c->err);
			KUNIT_EXPECT_FALSE(test, qaic_nnc_encode_pending(&e->req));
		} else {
			KUNIT_EXPECT_GT_MSG(test, qaic_nnc_encode(&e->req, e->buf, size), 0,
					    "valid twin refused");
		}
	}
}

static void encode_abort_test(struct kunit *test)
{
	struct enc *e = enc_new(test);
	ssize_t len;

	add_xfer(e->m, 5, 0x40000, 0x3111);
	enc_prepare(test, e, segs5, ARRAY_SIZE(segs5));
	len = qaic_nnc_encode_abort(&e->req, e->buf, QAIC_NNC_MAX_REQ_LEN);
	KUNIT_ASSERT_EQ(test, len, 32 + 24);
	expect_hdr(test, e, len, 1);
	expect_xfer(test, e, 32, 0, 0x77, NULL, 0);

	e->req.chunk_id = 0;
	KUNIT_EXPECT_EQ(test, qaic_nnc_encode_abort(&e->req, e->buf, 64), -EINVAL);
}

static void encode_terminate_test(struct kunit *test)
{
	struct enc *e = enc_new(test);
	const struct qaic_wire_terminate_to_dev *t;
	ssize_t len;

	len = qaic_nnc_encode_terminate(0x55, e->buf, QAIC_NNC_MAX_REQ_LEN);
	KUNIT_ASSERT_EQ(test, len, 32 + sizeof(*t));
	expect_hdr(test, e, len, 1);
	t = (const void *)wtrans(e, 32);
	KUNIT_EXPECT_EQ(test, le32_to_cpu(t->hdr.type), QAIC_TRANS_TERMINATE_TO_DEV);
	KUNIT_EXPECT_EQ(test, le32_to_cpu(t->hdr.len), sizeof(*t));
	KUNIT_EXPECT_EQ(test, le32_to_cpu(t->handle), 0x55);
	KUNIT_EXPECT_EQ(test, le32_to_cpu(t->pad), 0);
	KUNIT_EXPECT_EQ(test, qaic_nnc_encode_terminate(0x55, e->buf, 32 + 8), -ENOSPC);
}

/* CRC and sealing */

static void crc_known_answer_test(struct kunit *test)
{
	u8 msg[48];
	u32 i;

	for (i = 0; i < sizeof(msg); i++)
		msg[i] = i * 7 + 3;
	/* zlib.crc32() of the bytes with the first four zeroed. */
	KUNIT_EXPECT_EQ(test, qaic_nnc_crc(msg, sizeof(msg)), 0xe7c6610f);
	/* The crc32 field itself does not count. */
	msg[0] ^= 0xff;
	msg[3] ^= 0x01;
	KUNIT_EXPECT_EQ(test, qaic_nnc_crc(msg, sizeof(msg)), 0xe7c6610f);
	msg[4] ^= 0x01;
	KUNIT_EXPECT_NE(test, qaic_nnc_crc(msg, sizeof(msg)), 0xe7c6610f);
}

static void seal_test(struct kunit *test)
{
	struct enc *e = enc_new(test);
	ssize_t len;
	u32 seq;

	add_status(e->m);
	enc_prepare(test, e, NULL, 0);
	len = qaic_nnc_encode(&e->req, e->buf, QAIC_NNC_MAX_REQ_LEN);
	KUNIT_ASSERT_GT(test, len, 0);

	qaic_nnc_seal(e->buf, len, 1234, false);
	KUNIT_EXPECT_EQ(test, le32_to_cpu(whdr(e)->crc32), 0);
	KUNIT_EXPECT_EQ(test, qaic_nnc_rsp_seq(e->buf, len, &seq), 0);
	KUNIT_EXPECT_EQ(test, seq, 1234);
	KUNIT_EXPECT_FALSE(test, qaic_nnc_crc_ok(e->buf, len));

	qaic_nnc_seal(e->buf, len, 1235, true);
	KUNIT_EXPECT_EQ(test, le32_to_cpu(whdr(e)->crc32), qaic_nnc_crc(e->buf, len));
	KUNIT_EXPECT_TRUE(test, qaic_nnc_crc_ok(e->buf, len));
	e->buf[len - 1] ^= 0x40;
	KUNIT_EXPECT_FALSE(test, qaic_nnc_crc_ok(e->buf, len));
	/* Resealing covers the change. */
	qaic_nnc_seal(e->buf, len, 1235, true);
	KUNIT_EXPECT_TRUE(test, qaic_nnc_crc_ok(e->buf, len));
}

static void rsp_seq_test(struct kunit *test)
{
	struct rsp *r = rsp_new(test);
	struct qaic_wire_msg_hdr *h;
	u32 seq = 0;

	rsp_add(r, QAIC_TRANS_STATUS_FROM_DEV, sizeof(struct qaic_wire_status_from_dev));
	h = rsp_finish(r);
	KUNIT_EXPECT_EQ(test, qaic_nnc_rsp_seq(rsp_rcvd(test, r), r->rcvd, &seq), 0);
	KUNIT_EXPECT_EQ(test, seq, 42);
	KUNIT_EXPECT_EQ(test, qaic_nnc_rsp_seq(rsp_rcvd(test, r), 31, &seq), -EINVAL);
	h->magic = cpu_to_le32(QAIC_NNC_MAGIC + 1);
	KUNIT_EXPECT_EQ(test, qaic_nnc_rsp_seq(rsp_rcvd(test, r), r->rcvd, &seq), -EINVAL);
}

/* Decoding */

struct dec {
	struct qaic_nnc_answer ans;
	u8 *user;
	u32 size;
};

static struct dec *dec_new(struct kunit *test, u32 size)
{
	struct dec *d = kunit_kzalloc(test, sizeof(*d), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, d);
	d->user = kunit_kmalloc(test, size + GUARD_LEN, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, d->user);
	memset(d->user, GUARD_BYTE, size + GUARD_LEN);
	d->size = size;
	d->ans.buf = d->user;
	d->ans.size = size;
	d->ans.num_dbc = NUM_DBC;
	return d;
}

static int decode(struct kunit *test, struct dec *d, const struct rsp *r)
{
	int ret = qaic_nnc_decode(rsp_rcvd(test, r), r->rcvd, &d->ans);
	u32 i;

	for (i = 0; i < GUARD_LEN; i++)
		if (d->user[d->ans.size + i] != GUARD_BYTE)
			break;
	KUNIT_EXPECT_EQ_MSG(test, i, GUARD_LEN, "wrote past the user buffer");
	return ret;
}

static struct qaic_wire_status_from_dev *add_rsp_status(struct rsp *r, u32 status, u64 flags)
{
	struct qaic_wire_status_from_dev *t;

	t = rsp_add(r, QAIC_TRANS_STATUS_FROM_DEV, sizeof(*t));
	t->major = cpu_to_le16(QAIC_NNC_MAJOR);
	t->minor = cpu_to_le16(QAIC_NNC_MINOR);
	t->status = cpu_to_le32(status);
	t->status_flags = cpu_to_le64(flags);
	return t;
}

static struct qaic_wire_passthrough *add_rsp_passthrough(struct rsp *r, u32 len)
{
	struct qaic_wire_passthrough *t;
	u32 i;

	t = rsp_add(r, QAIC_TRANS_PASSTHROUGH_FROM_DEV, len);
	for (i = 0; i + sizeof(t->hdr) < len; i++)
		t->data[i] = 0x80 + i;
	return t;
}

static struct qaic_wire_activate_from_dev *
add_rsp_activate(struct rsp *r, u32 status, u32 dbc_id)
{
	struct qaic_wire_activate_from_dev *t;

	t = rsp_add(r, QAIC_TRANS_ACTIVATE_FROM_DEV, sizeof(*t));
	t->status = cpu_to_le32(status);
	t->dbc_id = cpu_to_le32(dbc_id);
	t->options = cpu_to_le64(0x10000);
	return t;
}

static void add_rsp_deactivate(struct rsp *r, u32 status, u32 dbc_id)
{
	struct qaic_wire_deactivate_from_dev *t;

	t = rsp_add(r, QAIC_TRANS_DEACTIVATE_FROM_DEV, sizeof(*t));
	t->status = cpu_to_le32(status);
	t->dbc_id = cpu_to_le32(dbc_id);
}

static void decode_status_test(struct kunit *test)
{
	const struct qaic_manage_trans_status_from_dev *out;
	struct dec *d = dec_new(test, 4088);
	struct rsp *r = rsp_new(test);

	add_rsp_status(r, 0, 0);
	rsp_finish(r);
	KUNIT_ASSERT_EQ(test, decode(test, d, r), 0);
	KUNIT_EXPECT_EQ(test, d->ans.len, sizeof(*out));
	KUNIT_EXPECT_EQ(test, d->ans.count, 1);
	KUNIT_EXPECT_TRUE(test, d->ans.has_status);
	KUNIT_EXPECT_EQ(test, d->ans.major, QAIC_NNC_MAJOR);
	KUNIT_EXPECT_EQ(test, d->ans.minor, QAIC_NNC_MINOR);
	out = (const void *)d->user;
	KUNIT_EXPECT_EQ(test, out->hdr.type, QAIC_TRANS_STATUS_FROM_DEV);
	KUNIT_EXPECT_EQ(test, out->hdr.len, sizeof(*out));
	KUNIT_EXPECT_EQ(test, out->major, QAIC_NNC_MAJOR);
	KUNIT_EXPECT_EQ(test, out->minor, QAIC_NNC_MINOR);
	KUNIT_EXPECT_EQ(test, out->status, 0);
	KUNIT_EXPECT_EQ(test, out->status_flags, 0);
}

static void decode_status_crc_test(struct kunit *test)
{
	struct dec *d = dec_new(test, 4088);
	struct rsp *r = rsp_new(test);

	/* A device that uses CRCs must get this answer's right. */
	add_rsp_status(r, 0, QAIC_NNC_STATUS_CRC);
	rsp_finish(r);
	KUNIT_EXPECT_EQ(test, decode(test, d, r), -EPIPE);
	qaic_nnc_seal(r->data, r->len, 42, true);
	KUNIT_EXPECT_EQ(test, decode(test, d, r), 0);
	KUNIT_EXPECT_EQ(test, d->ans.status_flags, QAIC_NNC_STATUS_CRC);
}

static void decode_status_refused_test(struct kunit *test)
{
	const struct qaic_manage_trans_status_from_dev *out;
	struct dec *d = dec_new(test, 4088);
	struct rsp *r = rsp_new(test);

	add_rsp_status(r, 3, 0);
	add_rsp_passthrough(r, 16);
	rsp_finish(r);
	/* The whole answer is there for the user to see why. */
	KUNIT_EXPECT_EQ(test, decode(test, d, r), -ECANCELED);
	KUNIT_EXPECT_EQ(test, d->ans.count, 2);
	out = (const void *)d->user;
	KUNIT_EXPECT_EQ(test, out->status, 3);
}

static void decode_passthrough_test(struct kunit *test)
{
	const struct qaic_manage_trans_passthrough *out;
	struct dec *d = dec_new(test, 4088);
	struct rsp *r = rsp_new(test);
	const struct qaic_wire_passthrough *in;

	add_rsp_passthrough(r, 8);
	in = add_rsp_passthrough(r, 40);
	rsp_finish(r);
	KUNIT_ASSERT_EQ(test, decode(test, d, r), 0);
	KUNIT_EXPECT_EQ(test, d->ans.len, 48);
	KUNIT_EXPECT_EQ(test, d->ans.count, 2);
	out = (const void *)(d->user + 8);
	KUNIT_EXPECT_EQ(test, out->hdr.type, QAIC_TRANS_PASSTHROUGH_FROM_DEV);
	KUNIT_EXPECT_EQ(test, out->hdr.len, 40);
	KUNIT_EXPECT_MEMEQ(test, out->data, in->data, 32);
}

static void decode_activate_test(struct kunit *test)
{
	const struct qaic_manage_trans_activate_from_dev *out;
	struct dec *d = dec_new(test, 4088);
	struct rsp *r = rsp_new(test);

	add_rsp_activate(r, 0, 5);
	rsp_finish(r);
	d->ans.activate_sent = true;
	KUNIT_ASSERT_EQ(test, decode(test, d, r), 0);
	KUNIT_EXPECT_TRUE(test, d->ans.activated);
	KUNIT_EXPECT_EQ(test, d->ans.dbc_id, 5);
	out = (const void *)d->user;
	KUNIT_EXPECT_EQ(test, out->hdr.type, QAIC_TRANS_ACTIVATE_FROM_DEV);
	KUNIT_EXPECT_EQ(test, out->hdr.len, sizeof(*out));
	KUNIT_EXPECT_EQ(test, out->status, 0);
	KUNIT_EXPECT_EQ(test, out->dbc_id, 5);
	KUNIT_EXPECT_EQ(test, out->options, 0x10000);

	/* Unsolicited. */
	d->ans.activate_sent = false;
	KUNIT_EXPECT_EQ(test, decode(test, d, r), -EINVAL);
}

static void decode_activate_refused_test(struct kunit *test)
{
	struct dec *d = dec_new(test, 4088);
	struct rsp *r = rsp_new(test);

	add_rsp_activate(r, 1, 0xffffffff);
	rsp_finish(r);
	d->ans.activate_sent = true;
	KUNIT_EXPECT_EQ(test, decode(test, d, r), -ECANCELED);
	KUNIT_EXPECT_FALSE(test, d->ans.activated);
	KUNIT_EXPECT_EQ(test, d->ans.count, 1);
}

static void decode_deactivate_test(struct kunit *test)
{
	struct dec *d = dec_new(test, 4088);
	struct rsp *r = rsp_new(test);

	add_rsp_deactivate(r, 0, 2);
	add_rsp_deactivate(r, 0, 15);
	add_rsp_status(r, 0, 0);
	rsp_finish(r);
	KUNIT_ASSERT_EQ(test, decode(test, d, r), 0);
	KUNIT_EXPECT_EQ(test, d->ans.deactivated, BIT(2) | BIT(15));
	/* Only the status reaches the user. */
	KUNIT_EXPECT_EQ(test, d->ans.count, 1);

	r = rsp_new(test);
	add_rsp_deactivate(r, 0, 2);
	add_rsp_deactivate(r, 9, 4);
	rsp_finish(r);
	KUNIT_EXPECT_EQ(test, decode(test, d, r), -ECANCELED);
	KUNIT_EXPECT_EQ(test, d->ans.deactivated, BIT(2));
	KUNIT_EXPECT_EQ(test, d->ans.deactivate_failed, BIT(4));
}

static void decode_orphan_test(struct kunit *test)
{
	struct qaic_nnc_answer ans = { .num_dbc = NUM_DBC };
	struct rsp *r = rsp_new(test);

	/* Nobody waits: only the deactivations matter. */
	add_rsp_passthrough(r, 16);
	add_rsp_activate(r, 0, 1);
	add_rsp_deactivate(r, 0, 7);
	add_rsp_status(r, 0, 0);
	rsp_finish(r);
	KUNIT_EXPECT_EQ(test, qaic_nnc_decode(rsp_rcvd(test, r), r->rcvd, &ans), 0);
	KUNIT_EXPECT_EQ(test, ans.deactivated, BIT(7));
	KUNIT_EXPECT_EQ(test, ans.len, 0);
	KUNIT_EXPECT_FALSE(test, ans.activated);
}

/*
 * Decode: a misbehaving device. Each case breaks a valid answer of a status
 * and a passthrough in one way.
 */
struct decode_case {
	const char *name;
	int err;
	void (*breaks)(struct rsp *r, struct dec *d);
};

static struct qaic_wire_msg_hdr *rhdr(struct rsp *r)
{
	return (void *)r->data;
}

static struct qaic_wire_trans_hdr *rtrans(struct rsp *r, u32 i)
{
	/* The status comes first, then the passthrough. */
	return (void *)(r->data + 32 + i * sizeof(struct qaic_wire_status_from_dev));
}

static void d_truncated_header(struct rsp *r, struct dec *d)
{
	r->rcvd = 16;
}

static void d_truncated_body(struct rsp *r, struct dec *d)
{
	r->rcvd -= 8;
}

static void d_wrong_magic(struct rsp *r, struct dec *d)
{
	rhdr(r)->magic = cpu_to_le32(0x43494150);
}

static void d_len_below_header(struct rsp *r, struct dec *d)
{
	rhdr(r)->len = cpu_to_le32(24);
}

static void d_len_over_max(struct rsp *r, struct dec *d)
{
	u32 len = QAIC_NNC_MAX_RSP_LEN + 8;

	/* A longer passthrough, all of it received. */
	rtrans(r, 1)->len = cpu_to_le32(len - 32 - 24);
	rhdr(r)->len = cpu_to_le32(len);
	r->rcvd = len;
}

static void d_count_huge(struct rsp *r, struct dec *d)
{
	rhdr(r)->count = cpu_to_le32(0xffffffff);
}

static void d_count_past_end(struct rsp *r, struct dec *d)
{
	rhdr(r)->count = cpu_to_le32(3);
}

static void d_count_short(struct rsp *r, struct dec *d)
{
	rhdr(r)->count = cpu_to_le32(1);
}

static void d_trans_len_zero(struct rsp *r, struct dec *d)
{
	rtrans(r, 1)->len = 0;
}

static void d_trans_len_below_header(struct rsp *r, struct dec *d)
{
	rtrans(r, 1)->len = cpu_to_le32(4);
}

static void d_trans_len_past_end(struct rsp *r, struct dec *d)
{
	rtrans(r, 1)->len = cpu_to_le32(40);
}

static void d_trans_len_huge(struct rsp *r, struct dec *d)
{
	rtrans(r, 1)->len = cpu_to_le32(0xffffffff);
}

static void d_trans_len_wraps(struct rsp *r, struct dec *d)
{
	/* 32 + 24 + 0xffffffc8 wraps a u32 to 0. */
	rtrans(r, 1)->len = cpu_to_le32(0xffffffc8);
}

static void d_type_unknown(struct rsp *r, struct dec *d)
{
	rtrans(r, 1)->type = cpu_to_le32(0x1234);
}

static void d_type_to_dev(struct rsp *r, struct dec *d)
{
	rtrans(r, 1)->type = cpu_to_le32(QAIC_TRANS_PASSTHROUGH_TO_DEV);
}

static void d_type_user(struct rsp *r, struct dec *d)
{
	rtrans(r, 1)->type = cpu_to_le32(QAIC_TRANS_PASSTHROUGH_FROM_USR);
}

static void d_type_cont(struct rsp *r, struct dec *d)
{
	rtrans(r, 1)->type = cpu_to_le32(QAIC_TRANS_DMA_XFER_CONT);
}

static void d_type_terminate(struct rsp *r, struct dec *d)
{
	rtrans(r, 1)->type = cpu_to_le32(QAIC_TRANS_TERMINATE_FROM_DEV);
}

static void d_status_as_passthrough_len(struct rsp *r, struct dec *d)
{
	/* A status 16 bytes long, its last half read as the next header. */
	rtrans(r, 0)->len = cpu_to_le32(16);
	rhdr(r)->count = cpu_to_le32(3);
}

static void d_passthrough_unaligned(struct rsp *r, struct dec *d)
{
	rtrans(r, 1)->len = cpu_to_le32(12);
	rhdr(r)->len = cpu_to_le32(32 + 24 + 12);
	r->rcvd = 32 + 24 + 12;
}

static void d_activate_len(struct rsp *r, struct dec *d)
{
	d->ans.activate_sent = true;
	rtrans(r, 1)->type = cpu_to_le32(QAIC_TRANS_ACTIVATE_FROM_DEV);
}

static void d_deactivate_len(struct rsp *r, struct dec *d)
{
	rtrans(r, 1)->type = cpu_to_le32(QAIC_TRANS_DEACTIVATE_FROM_DEV);
}

static void d_answer_too_big(struct rsp *r, struct dec *d)
{
	d->ans.size -= 8;
}

static const struct decode_case decode_cases[] = {
	{ "truncated-header", -EINVAL, d_truncated_header },
	{ "truncated-body", -EINVAL, d_truncated_body },
	{ "wrong-magic", -EINVAL, d_wrong_magic },
	{ "len-below-header", -EINVAL, d_len_below_header },
	{ "len-over-max", -EINVAL, d_len_over_max },
	{ "count-huge", -EINVAL, d_count_huge },
	{ "count-past-end", -EINVAL, d_count_past_end },
	{ "count-short", -EINVAL, d_count_short },
	{ "trans-len-zero", -EINVAL, d_trans_len_zero },
	{ "trans-len-below-header", -EINVAL, d_trans_len_below_header },
	{ "trans-len-past-end", -EINVAL, d_trans_len_past_end },
	{ "trans-len-huge", -EINVAL, d_trans_len_huge },
	{ "trans-len-wraps", -EINVAL, d_trans_len_wraps },
	{ "type-unknown", -EINVAL, d_type_unknown },
	{ "type-to-dev", -EINVAL, d_type_to_dev },
	{ "type-user", -EINVAL, d_type_user },
	{ "type-dma-xfer-cont", -EINVAL, d_type_cont },
	{ "type-terminate", -EINVAL, d_type_terminate },
	{ "status-len", -EINVAL, d_status_as_passthrough_len },
	{ "passthrough-unaligned", -EINVAL, d_passthrough_unaligned },
	{ "activate-len", -EINVAL, d_activate_len },
	{ "deactivate-len", -EINVAL, d_deactivate_len },
	{ "answer-too-big", -ENOSPC, d_answer_too_big },
};

KUNIT_ARRAY_PARAM_DESC(decode_rule, decode_cases, name);

static void decode_rule_test(struct kunit *test)
{
	const struct decode_case *c = test->param_value;
	struct rsp *r;
	struct dec *d;
	int pass;

	for (pass = 0; pass < 2; pass++) {
		r = rsp_new(test);
		/* Exactly room for the answer: 24 + 32 bytes. */
		d = dec_new(test, 56);
		add_rsp_status(r, 0, 0);
		add_rsp_passthrough(r, 32);
		rsp_finish(r);
		if (pass) {
			c->breaks(r, d);
			KUNIT_EXPECT_EQ(test, decode(test, d, r), c->err);
		} else {
			KUNIT_EXPECT_EQ_MSG(test, decode(test, d, r), 0, "valid twin refused");
		}
	}
}

static void decode_bad_dbc_test(struct kunit *test)
{
	struct dec *d = dec_new(test, 4088);
	struct rsp *r;

	r = rsp_new(test);
	add_rsp_activate(r, 0, NUM_DBC - 1);
	rsp_finish(r);
	d->ans.activate_sent = true;
	KUNIT_EXPECT_EQ(test, decode(test, d, r), 0);

	r = rsp_new(test);
	add_rsp_activate(r, 0, NUM_DBC);
	rsp_finish(r);
	KUNIT_EXPECT_EQ(test, decode(test, d, r), -ENODEV);
	KUNIT_EXPECT_FALSE(test, d->ans.activated);

	r = rsp_new(test);
	add_rsp_deactivate(r, 0, NUM_DBC);
	rsp_finish(r);
	KUNIT_EXPECT_EQ(test, decode(test, d, r), -ENODEV);
}

static void decode_activate_twice_test(struct kunit *test)
{
	struct dec *d = dec_new(test, 4088);
	struct rsp *r = rsp_new(test);

	add_rsp_activate(r, 0, 1);
	add_rsp_activate(r, 0, 2);
	rsp_finish(r);
	d->ans.activate_sent = true;
	KUNIT_EXPECT_EQ(test, decode(test, d, r), -EINVAL);
}

/* A round trip: a user message through a device that answers in kind. */
static void round_trip_test(struct kunit *test)
{
	struct enc *e = enc_new(test);
	struct dec *d = dec_new(test, 4088);
	const struct qaic_manage_trans_hdr *h;
	struct rsp *r = rsp_new(test);
	u32 off = 0, i;
	ssize_t len;

	add_all(e->m);
	enc_prepare(test, e, segs3, ARRAY_SIZE(segs3));
	len = qaic_nnc_encode(&e->req, e->buf, QAIC_NNC_MAX_REQ_LEN);
	KUNIT_ASSERT_GT(test, len, 0);
	qaic_nnc_seal(e->buf, len, 7, true);
	KUNIT_ASSERT_TRUE(test, qaic_nnc_crc_ok(e->buf, len));

	add_rsp_passthrough(r, 16);
	add_rsp_activate(r, 0, 3);
	add_rsp_deactivate(r, 0, 3);
	add_rsp_status(r, 0, QAIC_NNC_STATUS_CRC);
	rsp_finish(r);
	qaic_nnc_seal(r->data, r->len, 7, true);
	KUNIT_ASSERT_EQ(test, qaic_nnc_check_cont(&e->req, rsp_rcvd(test, r), r->rcvd), 0);

	d->ans.activate_sent = !!e->req.ring;
	KUNIT_ASSERT_EQ(test, decode(test, d, r), 0);
	KUNIT_EXPECT_EQ(test, d->ans.count, 3);
	KUNIT_EXPECT_EQ(test, d->ans.len, 16 + 24 + 24);
	KUNIT_EXPECT_TRUE(test, d->ans.activated);
	KUNIT_EXPECT_EQ(test, d->ans.deactivated, BIT(3));

	/* The user can walk the answer by its lengths. */
	for (i = 0; i < d->ans.count; i++) {
		h = (const void *)(d->user + off);
		KUNIT_EXPECT_GE(test, h->len, sizeof(*h));
		off += h->len;
	}
	KUNIT_EXPECT_EQ(test, off, d->ans.len);
}

static struct kunit_case qaic_nnc_parse_cases[] = {
	KUNIT_CASE_PARAM(parse_rule_test, parse_rule_gen_params),
	KUNIT_CASE_PARAM(parse_refused_type_test, refused_type_gen_params),
	KUNIT_CASE(parse_plan_test),
	{}
};

static struct kunit_suite qaic_nnc_parse_suite = {
	.name = "qaic_nnc_parse",
	.test_cases = qaic_nnc_parse_cases,
};

static struct kunit_case qaic_nnc_encode_cases[] = {
	KUNIT_CASE(encode_passthrough_test),
	KUNIT_CASE(encode_status_test),
	KUNIT_CASE(encode_activate_test),
	KUNIT_CASE(encode_deactivate_test),
	KUNIT_CASE(encode_xfer_test),
	KUNIT_CASE(encode_all_test),
	KUNIT_CASE(encode_continuation_test),
	KUNIT_CASE(encode_cont_malformed_test),
	KUNIT_CASE(encode_window_test),
	KUNIT_CASE(encode_window_past_size_test),
	KUNIT_CASE(encode_window_start_test),
	KUNIT_CASE(encode_window_rules_test),
	KUNIT_CASE_PARAM(encode_rule_test, encode_rule_gen_params),
	KUNIT_CASE(encode_abort_test),
	KUNIT_CASE(encode_terminate_test),
	KUNIT_CASE(crc_known_answer_test),
	KUNIT_CASE(seal_test),
	KUNIT_CASE(rsp_seq_test),
	{}
};

static struct kunit_suite qaic_nnc_encode_suite = {
	.name = "qaic_nnc_encode",
	.test_cases = qaic_nnc_encode_cases,
};

static struct kunit_case qaic_nnc_decode_cases[] = {
	KUNIT_CASE(decode_status_test),
	KUNIT_CASE(decode_status_crc_test),
	KUNIT_CASE(decode_status_refused_test),
	KUNIT_CASE(decode_passthrough_test),
	KUNIT_CASE(decode_activate_test),
	KUNIT_CASE(decode_activate_refused_test),
	KUNIT_CASE(decode_activate_twice_test),
	KUNIT_CASE(decode_deactivate_test),
	KUNIT_CASE(decode_orphan_test),
	KUNIT_CASE(decode_bad_dbc_test),
	KUNIT_CASE_PARAM(decode_rule_test, decode_rule_gen_params),
	KUNIT_CASE(round_trip_test),
	{}
};

static struct kunit_suite qaic_nnc_decode_suite = {
	.name = "qaic_nnc_decode",
	.test_cases = qaic_nnc_decode_cases,
};

kunit_test_suites(&qaic_nnc_parse_suite, &qaic_nnc_encode_suite, &qaic_nnc_decode_suite);

MODULE_DESCRIPTION("KUnit tests for the qaic NNC codec");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS("EXPORTED_FOR_KUNIT_TESTING");
