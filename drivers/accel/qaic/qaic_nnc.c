// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The qaic authors.
 */

/**
 * DOC: qaic NNC codec
 *
 * The card's manager (QSM) is driven by NNC messages over the QAIC_CONTROL
 * MHI channel; qaic_nnc_wire.h has their format. This file turns a user
 * MANAGE message into wire messages and the device's answer back into the
 * user format. It is pure: no device, no locking, no user memory. The MANAGE
 * ioctl copies the user message in, then:
 *
 * 1. qaic_nnc_parse() checks every transaction and reports what the message
 *    needs: the user buffers of its DMA transfers, to be pinned and mapped,
 *    and the ring size of its activate, to be allocated.
 * 2. qaic_nnc_encode() writes the first wire message. A DMA transfer whose
 *    segments do not fit sends the rest in further messages, each asked for
 *    by the device with a DMA_XFER_CONT answer (qaic_nnc_check_cont()).
 *    The last transfer of a message need not be mapped whole: the caller
 *    may map it a window at a time, each window starting where the bytes
 *    sent so far end and holding what one message takes
 *    (qaic_nnc_next_window()), so that what it pins is bounded by the
 *    message size rather than by the transfer size.
 * 3. qaic_nnc_seal() stamps the sequence number and the CRC.
 * 4. qaic_nnc_decode() checks the device's answer, which is not trusted, and
 *    writes the user-format transactions.
 *
 * Deactivate transactions have no wire form: the driver stops the channel
 * itself, and the device reports the release in its answer.
 */

#include <linux/bug.h>
#include <linux/crc32.h>
#include <linux/errno.h>
#include <linux/export.h>
#include <linux/minmax.h>
#include <linux/overflow.h>
#include <linux/string.h>
#include <linux/types.h>
#include <asm/byteorder.h>

#include <kunit/visibility.h>

#include <uapi/drm/qaic_accel.h>

#include "qaic_nnc.h"

#define QAIC_NNC_HDR_LEN	sizeof(struct qaic_wire_msg_hdr)
#define QAIC_NNC_SEG_LEN	sizeof(struct qaic_wire_dma_seg)

/*
 * Types of the answers written for the user. The Linux 6.12 driver hands the
 * device's types back rather than the *_TO_USR ones; userspace written for
 * it expects them.
 */
#define QAIC_NNC_ANS_PASSTHROUGH	QAIC_TRANS_PASSTHROUGH_FROM_DEV
#define QAIC_NNC_ANS_ACTIVATE		QAIC_TRANS_ACTIVATE_FROM_DEV
#define QAIC_NNC_ANS_STATUS		QAIC_TRANS_STATUS_FROM_DEV

/* A message being written into a bounded buffer. */
struct qaic_nnc_out {
	u8 *buf;
	size_t size;
	size_t len;
	u32 count;
	bool overflow;
};

static void qaic_nnc_put(struct qaic_nnc_out *out, const void *src, size_t len)
{
	if (out->overflow || len > out->size - out->len) {
		out->overflow = true;
		return;
	}
	memcpy(out->buf + out->len, src, len);
	out->len += len;
}

static void qaic_nnc_put_trans_hdr(struct qaic_nnc_out *out, u32 type, u32 len)
{
	struct qaic_wire_trans_hdr hdr = {
		.type = cpu_to_le32(type),
		.len = cpu_to_le32(len),
	};

	qaic_nnc_put(out, &hdr, sizeof(hdr));
	out->count++;
}

/* Writes the message header at the start of @out, once its body is done. */
static ssize_t qaic_nnc_finish(struct qaic_nnc_out *out, u32 handle, s32 partition_id)
{
	struct qaic_wire_msg_hdr hdr = {
		.magic = cpu_to_le32(QAIC_NNC_MAGIC),
		.len = cpu_to_le32(out->len),
		.count = cpu_to_le32(out->count),
		.handle = cpu_to_le32(handle),
		.partition_id = cpu_to_le32(partition_id),
	};

	if (out->overflow)
		return -ENOSPC;
	memcpy(out->buf, &hdr, sizeof(hdr));
	return out->len;
}

static int qaic_nnc_start(struct qaic_nnc_out *out, void *buf, size_t size)
{
	*out = (struct qaic_nnc_out){
		.buf = buf,
		.size = min_t(size_t, size, QAIC_NNC_MAX_REQ_LEN),
		.len = QAIC_NNC_HDR_LEN,
	};
	return out->size < QAIC_NNC_HDR_LEN ? -ENOSPC : 0;
}

static int qaic_nnc_parse_xfer(const void *trans, u32 len, struct qaic_nnc_plan *plan,
			       struct qaic_nnc_xfer *xfers, u32 max_xfers)
{
	struct qaic_manage_trans_dma_xfer t;
	u64 end;

	if (len != sizeof(t))
		return -EINVAL;
	memcpy(&t, trans, sizeof(t));
	if (t.pad || !t.size || check_add_overflow(t.addr, t.size, &end))
		return -EINVAL;

	if (plan->num_xfers < max_xfers)
		xfers[plan->num_xfers] = (struct qaic_nnc_xfer){
			.addr = t.addr,
			.size = t.size,
		};
	plan->num_xfers++;
	plan->wire_len += sizeof(struct qaic_wire_dma_xfer);
	return 0;
}

static int qaic_nnc_parse_activate(const void *trans, u32 len, struct qaic_nnc_plan *plan)
{
	struct qaic_manage_trans_activate_to_dev t;

	if (len != sizeof(t))
		return -EINVAL;
	memcpy(&t, trans, sizeof(t));
	/* One activate per message: its answer is matched to its rings. */
	if (t.pad || !t.queue_size || plan->activate_nelem)
		return -EINVAL;

	plan->activate_nelem = t.queue_size;
	plan->wire_len += sizeof(struct qaic_wire_activate_to_dev);
	return 0;
}

static int qaic_nnc_parse_deactivate(const void *trans, u32 len, u32 num_dbc,
				     struct qaic_nnc_plan *plan)
{
	struct qaic_manage_trans_deactivate t;

	if (len != sizeof(t))
		return -EINVAL;
	memcpy(&t, trans, sizeof(t));
	if (t.pad || t.dbc_id >= num_dbc)
		return -EINVAL;

	plan->deactivate_mask |= BIT(t.dbc_id);
	return 0;
}

static int qaic_nnc_parse_trans(const void *trans, u32 type, u32 len, u32 num_dbc,
				struct qaic_nnc_plan *plan, struct qaic_nnc_xfer *xfers,
				u32 max_xfers)
{
	switch (type) {
	case QAIC_TRANS_PASSTHROUGH_FROM_USR:
		/* The device needs 64-bit alignment; the payload is opaque. */
		if (len % 8)
			return -EINVAL;
		plan->wire_len += len;
		return 0;
	case QAIC_TRANS_DMA_XFER_FROM_USR:
		return qaic_nnc_parse_xfer(trans, len, plan, xfers, max_xfers);
	case QAIC_TRANS_ACTIVATE_FROM_USR:
		return qaic_nnc_parse_activate(trans, len, plan);
	case QAIC_TRANS_DEACTIVATE_FROM_USR:
		return qaic_nnc_parse_deactivate(trans, len, num_dbc, plan);
	case QAIC_TRANS_STATUS_FROM_USR:
		if (len != sizeof(struct qaic_manage_trans_status_to_dev))
			return -EINVAL;
		plan->wire_len += sizeof(struct qaic_wire_trans_hdr);
		return 0;
	default:
		return -EINVAL;
	}
}

/**
 * qaic_nnc_parse() - Check a user MANAGE message and say what it needs.
 * @umsg: The message, copied into the kernel.
 * @num_dbc: DBCs of the device, at most %QAIC_NNC_MAX_DBC.
 * @plan: Out. What the message needs; zeroed on failure.
 * @xfers: Out. The first @max_xfers DMA transfers, @addr and @size set, in
 *	   message order. May be NULL if @max_xfers is 0.
 * @max_xfers: Entries at @xfers. Call once with 0 to count the transfers.
 *
 * Every length and count is checked: @len must hold at least one header
 * and at most %QAIC_NNC_MAX_USER_LEN bytes; @count transactions, each no
 * shorter than a header and within the message, must cover @len exactly.
 * Passthrough lengths are multiples of 8; every other type has exactly
 * its struct's length, pads 0. A DMA transfer is not empty and does not
 * wrap; an activate asks for a non-empty ring, and there is at most one;
 * a deactivate names an existing DBC. Other types are refused.
 *
 * Return: 0, or -EINVAL if the message breaks any of these rules.
 */
int qaic_nnc_parse(const struct qaic_nnc_user_msg *umsg, u32 num_dbc,
		   struct qaic_nnc_plan *plan, struct qaic_nnc_xfer *xfers, u32 max_xfers)
{
	struct qaic_manage_trans_hdr hdr;
	u32 off = 0;
	u32 i;
	int ret;

	memset(plan, 0, sizeof(*plan));
	if (num_dbc > QAIC_NNC_MAX_DBC || umsg->len < sizeof(hdr) ||
	    umsg->len > QAIC_NNC_MAX_USER_LEN || !umsg->count)
		return -EINVAL;

	plan->wire_len = QAIC_NNC_HDR_LEN;
	for (i = 0; i < umsg->count; i++) {
		const void *trans = umsg->data + off;

		/* off <= len holds here, so neither side can wrap. */
		if (umsg->len - off < sizeof(hdr)) {
			ret = -EINVAL;
			goto fail;
		}
		memcpy(&hdr, trans, sizeof(hdr));
		if (hdr.len < sizeof(hdr) || hdr.len > umsg->len - off) {
			ret = -EINVAL;
			goto fail;
		}
		ret = qaic_nnc_parse_trans(trans, hdr.type, hdr.len, num_dbc, plan,
					   xfers, max_xfers);
		if (ret)
			goto fail;
		off += hdr.len;
	}
	if (off == umsg->len)
		return 0;
	ret = -EINVAL;
fail:
	memset(plan, 0, sizeof(*plan));
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(qaic_nnc_parse);

/*
 * Checks @xfer's segments: none empty or wrapping, and together exactly the
 * transfer; or, for a window, a part of it that starts at byte @start, where
 * the bytes sent so far end, and does not go past its end. A window that
 * started elsewhere would send bytes twice or skip some. Only the @last
 * transfer of a message may be windowed: the others go whole in the first
 * message.
 */
static int qaic_nnc_check_segs(const struct qaic_nnc_xfer *xfer, bool last, u64 start)
{
	u64 total = 0;
	u64 end;
	u32 i;

	if (!xfer->nsegs || !xfer->segs)
		return -EINVAL;
	for (i = 0; i < xfer->nsegs; i++) {
		const struct qaic_nnc_seg *seg = &xfer->segs[i];

		if (!seg->size || check_add_overflow(seg->addr, seg->size, &end) ||
		    check_add_overflow(total, seg->size, &total))
			return -EINVAL;
	}
	if (!xfer->window)
		return !xfer->win_off && total == xfer->size ? 0 : -EINVAL;
	if (!last || xfer->win_off != start || start >= xfer->size)
		return -EINVAL;
	return total <= xfer->size - start ? 0 : -EINVAL;
}

/* Bytes of segments [first, first + n) of @xfer, whose sum was checked. */
static u64 qaic_nnc_seg_bytes(const struct qaic_nnc_xfer *xfer, u32 first, u32 n)
{
	u64 bytes = 0;
	u32 i;

	for (i = first; i < first + n; i++)
		bytes += xfer->segs[i].size;
	return bytes;
}

/* Appends segments [first, first + n) of @xfer as one DMA_XFER_TO_DEV. */
static u64 qaic_nnc_put_xfer(struct qaic_nnc_out *out, const struct qaic_nnc_xfer *xfer,
			     u32 tag, u32 chunk_id, u32 first, u32 n)
{
	struct qaic_wire_dma_xfer t = {
		.tag = cpu_to_le32(tag),
		.count = cpu_to_le32(n),
		.chunk_id = cpu_to_le32(chunk_id),
	};
	u64 bytes = 0;
	u32 i;

	/* n * 16 fits: callers bound n by the buffer size. */
	qaic_nnc_put_trans_hdr(out, QAIC_TRANS_DMA_XFER_TO_DEV,
			       sizeof(t) + n * QAIC_NNC_SEG_LEN);
	qaic_nnc_put(out, &t.tag, sizeof(t) - sizeof(t.hdr));
	for (i = first; i < first + n; i++) {
		struct qaic_wire_dma_seg seg = {
			.addr = cpu_to_le64(xfer->segs[i].addr),
			.size = cpu_to_le64(xfer->segs[i].size),
		};

		qaic_nnc_put(out, &seg, sizeof(seg));
		bytes += xfer->segs[i].size;
	}
	return bytes;
}

static void qaic_nnc_put_activate(struct qaic_nnc_out *out, const void *trans,
				  const struct qaic_nnc_ring *ring)
{
	struct qaic_manage_trans_activate_to_dev in;
	struct qaic_wire_activate_to_dev t = {
		.req_q_addr = cpu_to_le64(ring->req_addr),
		.rsp_q_addr = cpu_to_le64(ring->rsp_addr),
		.req_q_size = cpu_to_le32(ring->nelem),
		.rsp_q_size = cpu_to_le32(ring->nelem),
		.buf_len = cpu_to_le32(ring->buf_len),
	};

	memcpy(&in, trans, sizeof(in));
	t.options = cpu_to_le32(in.options);
	qaic_nnc_put_trans_hdr(out, QAIC_TRANS_ACTIVATE_TO_DEV, sizeof(t));
	qaic_nnc_put(out, &t.req_q_addr, sizeof(t) - sizeof(t.hdr));
}

/* Bytes the segments of every DMA transfer but the last take. */
static u64 qaic_nnc_others_len(const struct qaic_nnc_req *req)
{
	u64 others = 0;
	u32 i;

	for (i = 0; i + 1 < req->num_xfers; i++)
		others += (u64)req->xfers[i].nsegs * QAIC_NNC_SEG_LEN;
	return others;
}

/*
 * Decides how many segments of the last DMA transfer the first message
 * carries: all of them if they fit in @room bytes once the other transfers
 * are in, else as many as fit. Returns -ENOSPC if not even one does.
 */
static int qaic_nnc_split(const struct qaic_nnc_req *req, size_t room, u32 *first_n)
{
	u64 others;

	*first_n = 0;
	if (!req->num_xfers)
		return 0;
	others = qaic_nnc_others_len(req);
	if (others + QAIC_NNC_SEG_LEN > room)
		return -ENOSPC;
	*first_n = min_t(u64, req->xfers[req->num_xfers - 1].nsegs,
			 (room - others) / QAIC_NNC_SEG_LEN);
	return 0;
}

static int qaic_nnc_check_req(const struct qaic_nnc_req *req, struct qaic_nnc_plan *plan)
{
	int ret;

	ret = qaic_nnc_parse(&req->umsg, req->num_dbc, plan, NULL, 0);
	if (ret)
		return ret;
	if (plan->num_xfers != req->num_xfers || (plan->num_xfers && !req->xfers))
		return -EINVAL;
	if (plan->activate_nelem ? !req->ring || req->ring->nelem != plan->activate_nelem :
				   !!req->ring)
		return -EINVAL;
	return 0;
}

/*
 * Appends the first @n segments of the message's last DMA transfer @x. If
 * they do not cover it, the transfer continues in further messages under
 * the request's chunk id, which it then must have.
 */
static int qaic_nnc_put_last(struct qaic_nnc_req *req, struct qaic_nnc_out *out,
			     const struct qaic_nnc_xfer *x, u32 tag, u32 n)
{
	/* A window of the first message starts at byte 0. */
	if (qaic_nnc_seg_bytes(x, 0, n) == x->size) {
		qaic_nnc_put_xfer(out, x, tag, 0, 0, n);
		return 0;
	}
	if (!req->chunk_id)
		return -EINVAL;
	req->cont = true;
	req->cont_xfer = req->num_xfers - 1;
	req->cont_tag = tag;
	req->cont_seg = n;
	req->cont_sent = qaic_nnc_put_xfer(out, x, tag, req->chunk_id, 0, n);
	return 0;
}

static ssize_t qaic_nnc_encode_first(struct qaic_nnc_req *req, void *buf, size_t size)
{
	const struct qaic_nnc_user_msg *umsg = &req->umsg;
	struct qaic_manage_trans_dma_xfer xfer;
	struct qaic_manage_trans_hdr hdr;
	struct qaic_nnc_plan plan;
	struct qaic_nnc_out out;
	u32 off = 0, k = 0;
	u32 first_n;
	u32 i;
	int ret;

	req->cont = false;
	ret = qaic_nnc_check_req(req, &plan);
	if (!ret)
		ret = qaic_nnc_start(&out, buf, size);
	if (!ret && plan.wire_len > out.size)
		ret = -ENOSPC;
	if (!ret)
		ret = qaic_nnc_split(req, out.size - plan.wire_len, &first_n);
	if (ret)
		return ret;

	for (i = 0; i < umsg->count; i++, off += hdr.len) {
		const void *trans = umsg->data + off;
		const struct qaic_nnc_xfer *x;
		bool last;

		memcpy(&hdr, trans, sizeof(hdr));
		switch (hdr.type) {
		case QAIC_TRANS_PASSTHROUGH_FROM_USR:
			qaic_nnc_put_trans_hdr(&out, QAIC_TRANS_PASSTHROUGH_TO_DEV, hdr.len);
			qaic_nnc_put(&out, trans + sizeof(hdr), hdr.len - sizeof(hdr));
			break;
		case QAIC_TRANS_DMA_XFER_FROM_USR:
			memcpy(&xfer, trans, sizeof(xfer));
			x = &req->xfers[k];
			last = ++k == req->num_xfers;
			if (x->addr != xfer.addr || x->size != xfer.size ||
			    qaic_nnc_check_segs(x, last, 0))
				return -EINVAL;
			if (!last) {
				qaic_nnc_put_xfer(&out, x, xfer.tag, 0, 0, x->nsegs);
				break;
			}
			ret = qaic_nnc_put_last(req, &out, x, xfer.tag, first_n);
			if (ret)
				return ret;
			break;
		case QAIC_TRANS_ACTIVATE_FROM_USR:
			qaic_nnc_put_activate(&out, trans, req->ring);
			break;
		case QAIC_TRANS_STATUS_FROM_USR:
			qaic_nnc_put_trans_hdr(&out, QAIC_TRANS_STATUS_TO_DEV, hdr.len);
			break;
		}
	}
	return qaic_nnc_finish(&out, req->handle, req->partition_id);
}

static ssize_t qaic_nnc_encode_next(struct qaic_nnc_req *req, void *buf, size_t size)
{
	const struct qaic_nnc_xfer *x = &req->xfers[req->cont_xfer];
	struct qaic_nnc_out out;
	u32 first = req->cont_seg;
	size_t room;
	ssize_t len;
	u32 n;

	if (!req->cont)
		return -EINVAL;
	if (x->window) {
		/* A window of its own for each message. */
		if (qaic_nnc_check_segs(x, true, req->cont_sent))
			return -EINVAL;
		first = 0;
	}
	if (qaic_nnc_start(&out, buf, size))
		return -ENOSPC;
	room = out.size - out.len;
	if (room < sizeof(struct qaic_wire_dma_xfer) + QAIC_NNC_SEG_LEN)
		return -ENOSPC;
	room -= sizeof(struct qaic_wire_dma_xfer);
	n = min_t(u64, x->nsegs - first, room / QAIC_NNC_SEG_LEN);

	req->cont_sent += qaic_nnc_put_xfer(&out, x, req->cont_tag, req->chunk_id, first, n);
	len = qaic_nnc_finish(&out, req->handle, req->partition_id);
	req->cont_seg = first + n;
	req->cont = req->cont_sent < x->size;
	return len;
}

/**
 * qaic_nnc_next_window() - Tell where the next window of the last transfer starts.
 * @req: The request. Before its first message, every DMA transfer but the
 *	 last has its segments and @req->ring is set; after it, a transfer
 *	 continues (qaic_nnc_encode_pending()).
 * @size: Bytes of the buffer the next message will be written to, as will
 *	  be passed to qaic_nnc_encode().
 * @off: Out. Byte of the last transfer at which its next window must start:
 *	 0 before the first message, else the bytes sent so far.
 * @max_segs: Out. Segments of the window the next message has room for.
 *
 * For a caller that maps the last DMA transfer of a message a window at a
 * time (&qaic_nnc_xfer.window). A window of fewer segments than
 * @max_segs, unless it reaches the end of the transfer, leaves the message
 * short: a device that takes a message that is not full for the last part
 * of a transfer then misses the rest. A window of more segments is sent in
 * part; the next window starts where that part ended.
 *
 * Return: 0; -EINVAL if the request has no DMA transfer or does not agree
 * with its message, or, after the first message, nothing is pending;
 * -ENOSPC if not even one segment fits.
 */
int qaic_nnc_next_window(const struct qaic_nnc_req *req, size_t size, u64 *off, u32 *max_segs)
{
	size_t room = min_t(size_t, size, QAIC_NNC_MAX_REQ_LEN);
	struct qaic_nnc_plan plan;
	u64 used;
	int ret;

	if (req->msgs) {
		if (!req->cont)
			return -EINVAL;
		used = QAIC_NNC_HDR_LEN + sizeof(struct qaic_wire_dma_xfer);
		*off = req->cont_sent;
	} else {
		ret = qaic_nnc_check_req(req, &plan);
		if (ret)
			return ret;
		if (!req->num_xfers)
			return -EINVAL;
		used = plan.wire_len + qaic_nnc_others_len(req);
		*off = 0;
	}
	if (used + QAIC_NNC_SEG_LEN > room)
		return -ENOSPC;
	*max_segs = (room - used) / QAIC_NNC_SEG_LEN;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(qaic_nnc_next_window);

/**
 * qaic_nnc_encode() - Write the next wire message of a request.
 * @req: The request; qaic_nnc_parse() filled @req->xfers, the caller their
 *	 segments and @req->ring.
 * @buf: Where the message goes. Any alignment.
 * @size: Bytes at @buf; the message takes at most %QAIC_NNC_MAX_REQ_LEN.
 *
 * The first call writes the whole user message in wire format. If the
 * segments of its DMA transfers do not all fit, or the last transfer is
 * windowed and its window does not reach its end, the last transfer
 * carries a non-zero chunk id and only its first segments; each further
 * call, made once the device asked for more, writes a message holding the
 * next segments of that transfer alone: those after the ones sent, or
 * those of the window the caller mapped since, which must start where the
 * bytes sent end. The sequence number and CRC are left 0 for
 * qaic_nnc_seal().
 *
 * Return: bytes written, or -EINVAL if the message, the transfers, their
 * windows or the rings do not agree or nothing is pending, -ENOSPC if it
 * cannot fit.
 */
ssize_t qaic_nnc_encode(struct qaic_nnc_req *req, void *buf, size_t size)
{
	ssize_t ret;

	if (req->msgs)
		ret = qaic_nnc_encode_next(req, buf, size);
	else
		ret = qaic_nnc_encode_first(req, buf, size);
	if (ret < 0) {
		req->cont = false;
		return ret;
	}
	req->msgs++;
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(qaic_nnc_encode);

/* Checks the header of a device message; @len bytes were received. */
static int qaic_nnc_rsp_hdr(const void *rsp, size_t len, struct qaic_wire_msg_hdr *hdr)
{
	u32 msg_len;

	if (len < sizeof(*hdr))
		return -EINVAL;
	memcpy(hdr, rsp, sizeof(*hdr));
	msg_len = le32_to_cpu(hdr->len);
	if (le32_to_cpu(hdr->magic) != QAIC_NNC_MAGIC || msg_len < sizeof(*hdr) ||
	    msg_len > len || msg_len > QAIC_NNC_MAX_RSP_LEN)
		return -EINVAL;
	return 0;
}

/**
 * qaic_nnc_check_cont() - Tell a request for more of a DMA transfer.
 * @req: The request the device answered.
 * @rsp: The device's message. Not trusted.
 * @len: Bytes received at @rsp.
 *
 * The device asks for the rest of a continued transfer with a message
 * holding one DMA_XFER_CONT transaction that repeats the transfer's chunk
 * id and counts the bytes received so far.
 *
 * Return: 1 if @rsp is such a request and it matches what was sent, so
 * qaic_nnc_encode() must write the next message; 0 if @rsp is another
 * answer, for qaic_nnc_decode(); -EINVAL if @rsp is a malformed or
 * mismatched continuation request.
 */
int qaic_nnc_check_cont(const struct qaic_nnc_req *req, const void *rsp, size_t len)
{
	struct qaic_wire_dma_xfer_cont cont;
	struct qaic_wire_msg_hdr hdr;
	int ret;

	ret = qaic_nnc_rsp_hdr(rsp, len, &hdr);
	if (ret)
		return ret;
	if (le32_to_cpu(hdr.count) != 1 ||
	    le32_to_cpu(hdr.len) < QAIC_NNC_HDR_LEN + sizeof(cont.hdr))
		return 0;
	memcpy(&cont.hdr, rsp + QAIC_NNC_HDR_LEN, sizeof(cont.hdr));
	if (le32_to_cpu(cont.hdr.type) != QAIC_TRANS_DMA_XFER_CONT)
		return 0;

	if (le32_to_cpu(cont.hdr.len) != sizeof(cont) ||
	    le32_to_cpu(hdr.len) != QAIC_NNC_HDR_LEN + sizeof(cont) || !req->cont)
		return -EINVAL;
	memcpy(&cont, rsp + QAIC_NNC_HDR_LEN, sizeof(cont));
	if (le32_to_cpu(cont.chunk_id) != req->chunk_id ||
	    le64_to_cpu(cont.xferred) != req->cont_sent)
		return -EINVAL;
	return 1;
}
EXPORT_SYMBOL_IF_KUNIT(qaic_nnc_check_cont);

/**
 * qaic_nnc_encode_abort() - Write a message that cancels a continued transfer.
 * @req: The request whose transfer is given up.
 * @buf: Where the message goes.
 * @size: Bytes at @buf.
 *
 * The message holds one DMA_XFER_TO_DEV transaction with the transfer's
 * chunk id and no segments.
 *
 * Return: bytes written, -EINVAL if @req has no chunk id, -ENOSPC.
 */
ssize_t qaic_nnc_encode_abort(const struct qaic_nnc_req *req, void *buf, size_t size)
{
	struct qaic_nnc_out out;

	if (!req->chunk_id)
		return -EINVAL;
	if (qaic_nnc_start(&out, buf, size))
		return -ENOSPC;
	qaic_nnc_put_xfer(&out, NULL, 0, req->chunk_id, 0, 0);
	return qaic_nnc_finish(&out, req->handle, req->partition_id);
}
EXPORT_SYMBOL_IF_KUNIT(qaic_nnc_encode_abort);

/**
 * qaic_nnc_encode_terminate() - Write a message releasing a user's resources.
 * @handle: Id of the user that went away.
 * @buf: Where the message goes.
 * @size: Bytes at @buf.
 *
 * Return: bytes written, or -ENOSPC.
 */
ssize_t qaic_nnc_encode_terminate(u32 handle, void *buf, size_t size)
{
	struct qaic_wire_terminate_to_dev t = { .handle = cpu_to_le32(handle) };
	struct qaic_nnc_out out;

	if (qaic_nnc_start(&out, buf, size))
		return -ENOSPC;
	qaic_nnc_put_trans_hdr(&out, QAIC_TRANS_TERMINATE_TO_DEV, sizeof(t));
	qaic_nnc_put(&out, &t.handle, sizeof(t) - sizeof(t.hdr));
	return qaic_nnc_finish(&out, handle, QAIC_NNC_NO_PARTITION);
}
EXPORT_SYMBOL_IF_KUNIT(qaic_nnc_encode_terminate);

/**
 * qaic_nnc_crc() - CRC of a wire message.
 * @msg: The message, header first.
 * @len: Its length in bytes, at least the header's.
 *
 * The CRC-32 of the message as if its crc32 field read 0, whatever it
 * holds.
 *
 * Return: the CRC, in CPU order.
 */
u32 qaic_nnc_crc(const void *msg, size_t len)
{
	static const u8 zero[sizeof(__le32)];
	u32 crc;

	if (WARN_ON_ONCE(len < QAIC_NNC_HDR_LEN))
		return 0;
	crc = crc32_le(~0, zero, sizeof(zero));
	crc = crc32_le(crc, msg + sizeof(zero), len - sizeof(zero));
	return ~crc;
}
EXPORT_SYMBOL_IF_KUNIT(qaic_nnc_crc);

/**
 * qaic_nnc_seal() - Stamp a wire message before sending it.
 * @msg: A message from one of the qaic_nnc_encode*() functions.
 * @len: Its length, as they returned.
 * @seq: Its sequence number, which its answer repeats.
 * @crc: Set the CRC: true until the device says it does not use CRCs.
 */
void qaic_nnc_seal(void *msg, size_t len, u32 seq, bool crc)
{
	struct qaic_wire_msg_hdr hdr;

	memcpy(&hdr, msg, sizeof(hdr));
	hdr.seq = cpu_to_le32(seq);
	hdr.crc32 = 0;
	memcpy(msg, &hdr, sizeof(hdr));
	if (crc) {
		hdr.crc32 = cpu_to_le32(qaic_nnc_crc(msg, len));
		memcpy(msg, &hdr.crc32, sizeof(hdr.crc32));
	}
}
EXPORT_SYMBOL_IF_KUNIT(qaic_nnc_seal);

/**
 * qaic_nnc_rsp_seq() - Sequence number of a device message.
 * @rsp: The message. Not trusted.
 * @len: Bytes received.
 * @seq: Out. The sequence number of the request it answers.
 *
 * Return: 0, or -EINVAL if @rsp is too short, has the wrong magic or a
 * length it does not hold.
 */
int qaic_nnc_rsp_seq(const void *rsp, size_t len, u32 *seq)
{
	struct qaic_wire_msg_hdr hdr;
	int ret;

	ret = qaic_nnc_rsp_hdr(rsp, len, &hdr);
	if (!ret)
		*seq = le32_to_cpu(hdr.seq);
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(qaic_nnc_rsp_seq);

/**
 * qaic_nnc_crc_ok() - Check the CRC of a device message.
 * @rsp: The message. Not trusted.
 * @len: Bytes received.
 *
 * Return: true if the header is sound and the CRC matches its length.
 */
bool qaic_nnc_crc_ok(const void *rsp, size_t len)
{
	struct qaic_wire_msg_hdr hdr;

	if (qaic_nnc_rsp_hdr(rsp, len, &hdr))
		return false;
	return le32_to_cpu(hdr.crc32) == qaic_nnc_crc(rsp, le32_to_cpu(hdr.len));
}
EXPORT_SYMBOL_IF_KUNIT(qaic_nnc_crc_ok);

/* Appends one user-format transaction to the answer. */
static int qaic_nnc_answer_put(struct qaic_nnc_answer *ans, const void *src, u32 len)
{
	if (len > ans->size - ans->len)
		return -ENOSPC;
	memcpy(ans->buf + ans->len, src, len);
	ans->len += len;
	ans->count++;
	return 0;
}

static int qaic_nnc_decode_passthrough(const void *trans, u32 len, struct qaic_nnc_answer *ans)
{
	struct qaic_manage_trans_hdr hdr = {
		.type = QAIC_NNC_ANS_PASSTHROUGH,
		.len = len,
	};

	if (len % 8)
		return -EINVAL;
	if (!ans->buf)
		return 0;
	if (len > ans->size - ans->len)
		return -ENOSPC;
	memcpy(ans->buf + ans->len, &hdr, sizeof(hdr));
	memcpy(ans->buf + ans->len + sizeof(hdr), trans + sizeof(hdr), len - sizeof(hdr));
	ans->len += len;
	ans->count++;
	return 0;
}

static int qaic_nnc_decode_activate(const void *trans, u32 len, struct qaic_nnc_answer *ans)
{
	struct qaic_manage_trans_activate_from_dev out = {};
	struct qaic_wire_activate_from_dev t;

	if (len != sizeof(t))
		return -EINVAL;
	if (!ans->buf)
		return 0;
	/* Only the activate that was asked for, and once. */
	if (!ans->activate_sent || ans->activated)
		return -EINVAL;
	memcpy(&t, trans, sizeof(t));

	out.hdr.type = QAIC_NNC_ANS_ACTIVATE;
	out.hdr.len = sizeof(out);
	out.status = le32_to_cpu(t.status);
	out.dbc_id = le32_to_cpu(t.dbc_id);
	out.options = le64_to_cpu(t.options);
	if (!out.status) {
		if (out.dbc_id >= ans->num_dbc)
			return -ENODEV;
		ans->activated = true;
		ans->dbc_id = out.dbc_id;
	}
	if (qaic_nnc_answer_put(ans, &out, sizeof(out)))
		return -ENOSPC;
	return out.status ? -ECANCELED : 0;
}

static int qaic_nnc_decode_deactivate(const void *trans, u32 len, struct qaic_nnc_answer *ans)
{
	struct qaic_wire_deactivate_from_dev t;
	u32 dbc_id;

	if (len != sizeof(t))
		return -EINVAL;
	memcpy(&t, trans, sizeof(t));
	dbc_id = le32_to_cpu(t.dbc_id);
	if (dbc_id >= ans->num_dbc)
		return -ENODEV;
	if (t.status) {
		ans->deactivate_failed |= BIT(dbc_id);
		return -ECANCELED;
	}
	ans->deactivated |= BIT(dbc_id);
	return 0;
}

static int qaic_nnc_decode_status(const void *rsp, u32 msg_len, const void *trans, u32 len,
				  struct qaic_nnc_answer *ans)
{
	struct qaic_manage_trans_status_from_dev out = {};
	struct qaic_wire_status_from_dev t;
	int ret;

	if (len != sizeof(t))
		return -EINVAL;
	if (!ans->buf)
		return 0;
	memcpy(&t, trans, sizeof(t));

	out.hdr.type = QAIC_NNC_ANS_STATUS;
	out.hdr.len = sizeof(out);
	out.major = le16_to_cpu(t.major);
	out.minor = le16_to_cpu(t.minor);
	out.status = le32_to_cpu(t.status);
	out.status_flags = le64_to_cpu(t.status_flags);
	ans->has_status = true;
	ans->major = out.major;
	ans->minor = out.minor;
	ans->status_flags = out.status_flags;

	ret = qaic_nnc_answer_put(ans, &out, sizeof(out));
	if (ret)
		return ret;
	/* A device that uses CRCs vouches for this very answer with one. */
	if ((out.status_flags & QAIC_NNC_STATUS_CRC) && !qaic_nnc_crc_ok(rsp, msg_len))
		return -EPIPE;
	return out.status ? -ECANCELED : 0;
}

static int qaic_nnc_decode_trans(const void *rsp, u32 msg_len, const void *trans, u32 type,
				 u32 len, struct qaic_nnc_answer *ans)
{
	switch (type) {
	case QAIC_TRANS_PASSTHROUGH_FROM_DEV:
		return qaic_nnc_decode_passthrough(trans, len, ans);
	case QAIC_TRANS_ACTIVATE_FROM_DEV:
		return qaic_nnc_decode_activate(trans, len, ans);
	case QAIC_TRANS_DEACTIVATE_FROM_DEV:
		return qaic_nnc_decode_deactivate(trans, len, ans);
	case QAIC_TRANS_STATUS_FROM_DEV:
		return qaic_nnc_decode_status(rsp, msg_len, trans, len, ans);
	default:
		return -EINVAL;
	}
}

/**
 * qaic_nnc_decode() - Turn the device's answer into the user's.
 * @rsp: The device's message. Not trusted: every length is checked
 *	 against what was received, and nothing past it is read.
 * @len: Bytes received at @rsp.
 * @ans: In: where the user-format answer goes and what was asked.
 *	 Out: the answer and what the driver must act on.
 *
 * Passthrough, activate and status answers are written at @ans->buf, never
 * past @ans->size; deactivations are only reported in @ans. A device that
 * refuses a transaction (non-zero status) does not stop the decoding: the
 * whole answer is written and -ECANCELED returned, so the user sees why.
 *
 * Return: 0; -ECANCELED if the device refused a transaction; -EINVAL if
 * the message is malformed or answers what was not asked; -ENODEV if it
 * names a DBC that does not exist; -EPIPE if its CRC is wrong; -ENOSPC if
 * the answer does not fit @ans->buf. On errors other than -ECANCELED the
 * answer is not to be used.
 */
int qaic_nnc_decode(const void *rsp, size_t len, struct qaic_nnc_answer *ans)
{
	struct qaic_wire_msg_hdr hdr;
	struct qaic_wire_trans_hdr th;
	u32 msg_len, count, off, tlen;
	bool canceled = false;
	u32 i;
	int ret;

	ans->len = 0;
	ans->count = 0;
	ans->activated = false;
	ans->deactivated = 0;
	ans->deactivate_failed = 0;
	ans->has_status = false;
	if (ans->num_dbc > QAIC_NNC_MAX_DBC || (!ans->buf && ans->size))
		return -EINVAL;

	ret = qaic_nnc_rsp_hdr(rsp, len, &hdr);
	if (ret)
		return ret;
	msg_len = le32_to_cpu(hdr.len);
	count = le32_to_cpu(hdr.count);

	/* Each transaction takes at least a header, which bounds the loop. */
	for (i = 0, off = QAIC_NNC_HDR_LEN; i < count; i++, off += tlen) {
		if (msg_len - off < sizeof(th))
			return -EINVAL;
		memcpy(&th, rsp + off, sizeof(th));
		tlen = le32_to_cpu(th.len);
		if (tlen < sizeof(th) || tlen > msg_len - off)
			return -EINVAL;

		ret = qaic_nnc_decode_trans(rsp, msg_len, rsp + off, le32_to_cpu(th.type),
					    tlen, ans);
		if (ret == -ECANCELED)
			canceled = true;
		else if (ret)
			return ret;
	}
	if (off != msg_len)
		return -EINVAL;
	return canceled ? -ECANCELED : 0;
}
EXPORT_SYMBOL_IF_KUNIT(qaic_nnc_decode);
