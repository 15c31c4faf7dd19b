// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The qaic authors.
 */

/**
 * DOC: qaic manage
 *
 * DRM_IOCTL_QAIC_MANAGE carries a message of transactions for the card's
 * manager (activate and deactivate DMA Bridge Channels, load a network by
 * DMA transfer, passthrough requests) and returns the manager's answer in
 * the same buffer. This file is the glue between the user, the NNC codec
 * (qaic_nnc.c) and the control transport (qaic_cntl.c):
 *
 * 1. Copy the message in and parse it. A deactivate of a DMA Bridge Channel
 *    (DBC) the file did not activate, or already deactivated, fails with
 *    -EPERM before anything is sent. Deactivate transactions have no wire
 *    form: the DBC is taken from the file at once, and its rings are freed
 *    when the card reports the release (it goes back to the file if the
 *    card fails the release).
 * 2. Wait for the control path to be up (bounded; -ENODEV).
 * 3. Pin the user pages of every DMA transfer but the last, build an
 *    sg_table and map it for the device (qaic_pin.c); allocate the rings
 *    of an activate with dma_alloc_coherent() (qaic_owner.c): @queue_size
 *    request elements of 64 bytes, a 256-byte gap, then @queue_size
 *    response elements of 4 bytes at the end of a 4 KiB-aligned buffer.
 * 4. Encode, send, and send the rest of a DMA transfer that did not fit one
 *    message each time the card asks for it; decode the answer. The last
 *    DMA transfer, the only one that may need several messages, is pinned
 *    and mapped one window at a time: the pages of what the next message
 *    has room for, unpinned once the card answered it. A fatal signal
 *    between two messages ends the transfer (-EINTR), and the card is told
 *    to drop it.
 * 5. Record the DBC the card activated as owned by the file (it keeps the
 *    rings); free the rings of the DBCs it released (qaic_owner.c, the
 *    owner of all memory the card can reach). Copy the answer out.
 *
 * What a call pins at once is bounded by %QAIC_MANAGE_MAX_PIN_BYTES,
 * whatever the sizes the user names: the transfers that go whole in the
 * first message must leave room for a window of the last one, or the call
 * fails with -EINVAL before anything is allocated for them. Arrays sized
 * after the user's numbers are charged to the caller's memory cgroup.
 * Pinned pages count in the caller's pinned_vm (VmPin in
 * /proc/PID/status) until they are unpinned, and a pin that would take it
 * past RLIMIT_MEMLOCK fails with -ENOMEM unless the caller has
 * CAP_IPC_LOCK, as for the other drivers that pin user memory.
 *
 * What the card may still reach after a message whose answer never came
 * (a fatal signal, a timeout: the rings of an activate, the pinned pages
 * of DMA transfers) is kept, and counted against the file, until its
 * terminate or a reset of the card (qaic_owner_let_go()). A file that keeps
 * %QAIC_MANAGE_FILE_STALE_MAX bytes or more so gets -EBUSY from MANAGE
 * until then, so that calls killed over and over (by the processes that
 * share the file) cannot keep memory without bound. fdinfo shows the
 * figure (``qaic-stale-memory``).
 *
 * The card's control channel has a fixed number of request slots, shared
 * by every file of the card. A file may have at most
 * %QAIC_MANAGE_FILE_CALLS MANAGE calls under way at once (each holds one
 * slot at a time); one more fails at once with -EBUSY, so that a file
 * whose calls wait on a silent card cannot take every slot from the
 * others.
 *
 * Errors of the user fail with -EINVAL (or -EPERM, -EFAULT) and a
 * ``drm_dbg`` line. An answer the codec rejects fails with -EIO; a
 * transaction the card refused fails with -ECANCELED, the answer still
 * being copied out so that the user sees the card's status. The user
 * handle in the messages is the file's id.
 *
 * When a file that talked to the card is closed, the driver sends a
 * terminate message for its handle, so that the card releases whatever the
 * file held, then frees the file's rings; a card that does not answer it
 * is reset first (qaic_owner_release_file()). When the card is gone, the
 * rings were already freed at remove.
 */

#include <linux/capability.h>
#include <linux/dma-mapping.h>
#include <linux/minmax.h>
#include <linux/mm.h>
#include <linux/overflow.h>
#include <linux/scatterlist.h>
#include <linux/sched/mm.h>
#include <linux/sched/signal.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include <drm/drm_drv.h>
#include <drm/drm_print.h>

#include <uapi/drm/qaic_accel.h>

#include "qaic_cntl.h"
#include "qaic_compat.h"
#include "qaic_drv.h"
#include "qaic_manage.h"
#include "qaic_nnc.h"
#include "qaic_owner.h"
#include "qaic_pin.h"
#include "qaic_reset.h"

/*
 * Segments one wire message can carry at most; the pages of a window that
 * fills a message when each page is a segment of its own.
 */
#define QAIC_MANAGE_MSG_SEGS	(QAIC_CNTL_MAX_REQ_LEN / sizeof(struct qaic_wire_dma_seg))

/*
 * Most bytes of user memory, in whole pages, that one MANAGE call keeps
 * pinned at once: the DMA transfers that go whole in the first message and
 * the window of the last one. Pinned pages can be neither reclaimed nor
 * migrated, and the arrays that track them grow with their number, so the
 * user must not choose it. 64 MiB; where pages are larger than 4 KiB, what
 * four windows that fill a message take, so that the transfers in the
 * first message always leave a window room to fill it.
 */
#define QAIC_MANAGE_MAX_PIN_BYTES \
	max_t(u64, SZ_64M, 4ULL * QAIC_MANAGE_MSG_SEGS * PAGE_SIZE)

/* MANAGE calls one file may have under way: a quarter of the control slots. */
#define QAIC_MANAGE_FILE_CALLS	16

/*
 * Bytes of stale memory (see struct qaic_stale, qaic_owner.c) a file may keep
 * before its MANAGE calls are refused: what one call may pin at most. A
 * file keeps at most this plus what one more call leaves.
 */
#define QAIC_MANAGE_FILE_STALE_MAX	SZ_64M

/**
 * struct qaic_manage_call - One MANAGE call on its way.
 * @qdev: The card.
 * @priv: The caller's file.
 * @umsg: The copied-in user message.
 * @plan: What the codec found in it.
 * @xfers: Its DMA transfers.
 * @pins: Their buffers, one per entry of @xfers.
 * @ring: The rings of its activate, for the codec.
 * @ring_mem: The memory of those rings; none if @ring_mem.cpu is NULL.
 * @window_cap: Pages a window of the last DMA transfer may pin: what
 *		%QAIC_MANAGE_MAX_PIN_BYTES leaves once the others are pinned.
 * @sent: A message got out to the card (qaic_cntl_xfer() queued it).
 * @unanswered: A message went out to the card and its answer did not
 *		come (a fatal signal, a timeout, the card's crash): the card
 *		may still read the pages.
 */
struct qaic_manage_call {
	struct qaic_device *qdev;
	struct qaic_file_priv *priv;
	struct qaic_nnc_user_msg umsg;
	struct qaic_nnc_plan plan;
	struct qaic_nnc_xfer *xfers;
	struct qaic_pin *pins;
	struct qaic_nnc_ring ring;
	struct qaic_ring_mem ring_mem;
	u64 window_cap;
	bool sent;
	bool unanswered;
};

/*
 * Checks, before anything is allocated for them, that the DMA transfers
 * that go whole in the first message leave room within
 * %QAIC_MANAGE_MAX_PIN_BYTES for a window of the last one that fills a
 * message, and sets what its windows may pin.
 */
static int qaic_manage_check_pins(struct qaic_manage_call *call)
{
	u64 budget = QAIC_MANAGE_MAX_PIN_BYTES >> PAGE_SHIFT;
	const struct qaic_nnc_xfer *last;
	u32 n = call->plan.num_xfers;
	u64 pages = 0, window;
	u32 i;

	if (!n)
		return 0;
	/*
	 * No overflow: a message holds fewer than 200 transfers, and the
	 * codec checked that none wraps, so each is below 2^52 pages.
	 */
	for (i = 0; i + 1 < n; i++)
		pages += qaic_pin_npages(call->xfers[i].addr, call->xfers[i].size);
	last = &call->xfers[n - 1];
	window = min_t(u64, qaic_pin_npages(last->addr, last->size), QAIC_MANAGE_MSG_SEGS);
	if (pages > budget - window) {
		drm_dbg(&call->qdev->drm,
			"manage: DMA transfers would pin %llu + %llu pages, %llu at most\n",
			pages, window, budget);
		return -EINVAL;
	}
	call->window_cap = budget - pages;
	return 0;
}

/*
 * Bytes of the buffer the wire messages are written to: what the first
 * message takes with a segment per page of the last DMA transfer, or the
 * largest message.
 */
static size_t qaic_manage_wire_size(const struct qaic_manage_call *call)
{
	const struct qaic_nnc_xfer *last;
	u64 size = call->plan.wire_len;
	u32 n = call->plan.num_xfers;
	u32 i;

	if (n) {
		for (i = 0; i + 1 < n; i++)
			size += (u64)call->xfers[i].nsegs * sizeof(struct qaic_wire_dma_seg);
		/* Below 2^52 pages: no overflow. */
		last = &call->xfers[n - 1];
		size += qaic_pin_npages(last->addr, last->size) *
			sizeof(struct qaic_wire_dma_seg);
	}
	return min_t(u64, size, QAIC_CNTL_MAX_REQ_LEN);
}

/* Pins the window of the last DMA transfer that the next message carries. */
static int qaic_manage_next_window(struct qaic_manage_call *call, const struct qaic_nnc_req *req,
				   size_t size)
{
	u32 want;
	u64 off;
	int ret;

	if (!call->plan.num_xfers)
		return 0;
	ret = qaic_nnc_next_window(req, size, &off, &want);
	if (ret) {
		drm_dbg(&call->qdev->drm, "manage: no room for DMA transfer segments: %d\n", ret);
		return ret;
	}
	return qaic_pin_window(call->qdev, &call->xfers[call->plan.num_xfers - 1],
			       &call->pins[call->plan.num_xfers - 1], off, want, call->window_cap);
}

/* Sends the message, and the rest of a continued DMA transfer; the answer is at @rsp. */
static int qaic_manage_exchange(struct qaic_manage_call *call, void *rsp, size_t *rsp_len)
{
	struct qaic_device *qdev = call->qdev;
	struct drm_device *drm = &qdev->drm;
	struct qaic_nnc_req req = {
		.umsg = call->umsg,
		.num_dbc = QAIC_NUM_DBC,
		.xfers = call->xfers,
		.num_xfers = call->plan.num_xfers,
		.ring = call->ring_mem.cpu ? &call->ring : NULL,
		.handle = call->priv->id,
		.partition_id = QAIC_NNC_NO_PARTITION,
	};
	size_t size = qaic_manage_wire_size(call);
	bool in_flight = false, queued;
	ssize_t len;
	void *wbuf;
	int ret;

	do {
		req.chunk_id = atomic_inc_return(&qdev->next_chunk_id);
	} while (!req.chunk_id);

	wbuf = kvmalloc(size, QAIC_GFP_USER);
	if (!wbuf)
		return -ENOMEM;

	for (;;) {
		ret = qaic_manage_next_window(call, &req, size);
		if (ret)
			break;
		len = qaic_nnc_encode(&req, wbuf, size);
		if (len < 0) {
			ret = len;
			drm_dbg(drm, "manage: cannot encode message %u: %d\n", req.msgs, ret);
			break;
		}
		queued = false;
		ret = qaic_cntl_xfer(qdev->cntl, wbuf, len, rsp, rsp_len, &queued);
		/*
		 * Only a message that got out can have changed the card:
		 * one that did not (-EBUSY, -ENOMEM) leaves the DBCs it
		 * deactivates the file's and parks no ring. Until its last
		 * part is out, the card holds a transfer to drop.
		 */
		if (queued) {
			WRITE_ONCE(call->priv->nnc_used, true);
			call->sent = true;
			in_flight = qaic_nnc_encode_pending(&req);
		}
		if (ret == -ETIMEDOUT && qaic_reset_check_card(qdev))
			ret = -ENODEV;
		else if (ret == -ETIMEDOUT)
			qaic_reset_manager_silent(qdev);
		else if (!ret)
			qaic_reset_manager_answered(qdev);
		if (ret) {
			drm_dbg(drm, "manage: no answer: %d\n", ret);
			/*
			 * Whatever ended the wait (a signal, a timeout, the
			 * card's crash), the card may still read what this
			 * message gave it.
			 */
			call->unanswered = queued;
			break;
		}
		ret = qaic_nnc_check_cont(&req, rsp, *rsp_len);
		if (ret <= 0) {
			if (ret) {
				drm_dbg(drm, "manage: malformed continuation request\n");
				ret = -EIO;
			}
			break;
		}
		/* The card read the window: let it go before pinning the next. */
		qaic_owner_let_go(qdev, call->priv, NULL, &call->pins[req.cont_xfer],
				  QAIC_CONFIRMED);
		if (fatal_signal_pending(current)) {
			drm_dbg(drm, "manage: DMA transfer interrupted after %llu bytes\n",
				req.cont_sent);
			ret = -EINTR;
			break;
		}
	}

	/*
	 * Tell the card to drop a transfer it will not get the rest of. On a
	 * fatal signal the message is sent, but its answer not waited for.
	 */
	if (ret && in_flight && qaic_cntl_is_up(qdev->cntl)) {
		size_t abort_len;

		len = qaic_nnc_encode_abort(&req, wbuf, size);
		if (len > 0)
			qaic_cntl_xfer(qdev->cntl, wbuf, len, rsp, &abort_len, NULL);
	}
	kvfree(wbuf);
	return ret;
}

/* Decodes the answer into @out, acts on it. */
static int qaic_manage_answer(struct qaic_manage_call *call, const void *rsp, size_t rsp_len,
			      struct qaic_nnc_answer *ans)
{
	struct drm_device *drm = &call->qdev->drm;
	int ret;

	ret = qaic_nnc_decode(rsp, rsp_len, ans);
	qaic_owner_account(call->qdev, call->priv->id, ans, !ret || ret == -ECANCELED,
			   &call->ring_mem, call->ring.nelem);
	if (ret == -ECANCELED) {
		drm_dbg(drm, "manage: the card refused a transaction\n");
	} else if (ret) {
		drm_dbg(drm, "manage: bad answer from the card: %d\n", ret);
		ret = -EIO;
	}
	return ret;
}

static int qaic_manage_prepare(struct qaic_manage_call *call)
{
	struct qaic_device *qdev = call->qdev;
	struct drm_device *drm = &qdev->drm;
	u32 n;
	int ret;

	ret = qaic_nnc_parse(&call->umsg, QAIC_NUM_DBC, &call->plan, NULL, 0);
	if (ret) {
		drm_dbg(drm, "manage: malformed message\n");
		return ret;
	}
	n = call->plan.num_xfers;
	if (!n)
		return 0;
	/* Bounded by the message length. */
	call->xfers = kcalloc(n, sizeof(*call->xfers), QAIC_GFP_USER);
	call->pins = kcalloc(n, sizeof(*call->pins), QAIC_GFP_USER);
	if (!call->xfers || !call->pins)
		return -ENOMEM;
	ret = qaic_nnc_parse(&call->umsg, QAIC_NUM_DBC, &call->plan, call->xfers, n);
	if (ret)
		return ret;
	return qaic_manage_check_pins(call);
}

/*
 * Waits for the control path, pins the transfers but the last, whose
 * windows qaic_manage_exchange() pins, and allocates the rings.
 */
static int qaic_manage_acquire(struct qaic_manage_call *call)
{
	struct qaic_device *qdev = call->qdev;
	struct drm_device *drm = &qdev->drm;
	u32 i;
	int ret;

	ret = qaic_cntl_wait_up(qdev->cntl);
	if (ret) {
		drm_dbg(drm, "manage: control path not up: %d\n", ret);
		return ret;
	}

	for (i = 0; i + 1 < call->plan.num_xfers; i++) {
		ret = qaic_pin_whole(qdev, &call->xfers[i], &call->pins[i]);
		if (ret)
			return ret;
	}
	if (call->plan.activate_nelem)
		return qaic_owner_alloc_ring(qdev, call->plan.activate_nelem, &call->ring_mem,
					     &call->ring);
	return 0;
}

/*
 * Lets go of what the call allocated and pinned (qaic_owner_let_go() frees
 * or parks it). Without a sound answer the card may have granted the
 * activate; without any answer it may read the pages of the message.
 */
static void qaic_manage_cleanup(struct qaic_manage_call *call, bool answered)
{
	struct qaic_device *qdev = call->qdev;
	enum qaic_release ring = QAIC_NOT_GIVEN, pages = QAIC_NOT_GIVEN;
	u32 i;

	if (call->sent) {
		ring = answered ? QAIC_CONFIRMED : QAIC_UNCONFIRMED;
		pages = call->unanswered ? QAIC_UNCONFIRMED : QAIC_CONFIRMED;
	}
	qaic_owner_let_go(qdev, call->priv, &call->ring_mem, NULL, ring);
	if (call->pins) {
		for (i = 0; i < call->plan.num_xfers; i++)
			qaic_owner_let_go(qdev, call->priv, NULL, &call->pins[i], pages);
	}
	kfree(call->pins);
	kfree(call->xfers);
}

static int qaic_manage(struct qaic_device *qdev, struct qaic_file_priv *priv,
		       struct qaic_manage_msg *msg, const void *data, void *out)
{
	struct qaic_manage_call call = {
		.qdev = qdev,
		.priv = priv,
		.umsg = { .data = data, .len = msg->len, .count = msg->count },
	};
	struct qaic_nnc_answer ans = {
		.buf = out,
		.size = QAIC_NNC_MAX_USER_LEN,
		.num_dbc = QAIC_NUM_DBC,
	};
	bool answered;
	size_t rsp_len;
	void *rsp;
	int ret;

	rsp = kmalloc(QAIC_CNTL_RSP_SIZE, GFP_KERNEL);
	if (!rsp)
		return -ENOMEM;

	ret = qaic_manage_prepare(&call);
	if (!ret)
		ret = qaic_owner_take_dbcs(qdev, priv->id, call.plan.deactivate_mask);
	if (!ret) {
		ret = qaic_manage_acquire(&call);
		if (!ret)
			ret = qaic_manage_exchange(&call, rsp, &rsp_len);
		/* A message that never reached the card changed nothing there. */
		if (ret && !call.sent)
			qaic_owner_return_dbcs(qdev, priv->id, call.plan.deactivate_mask);
	}
	if (!ret) {
		ans.activate_sent = !!call.ring_mem.cpu;
		ret = qaic_manage_answer(&call, rsp, rsp_len, &ans);
	}
	answered = !ret || ret == -ECANCELED;
	if (answered) {
		if (copy_to_user(u64_to_user_ptr(msg->data), out, ans.len))
			ret = -EFAULT;
		msg->len = ans.len;
		msg->count = ans.count;
	}

	qaic_manage_cleanup(&call, answered);
	kfree(rsp);
	return ret;
}

int qaic_manage_ioctl(struct drm_device *drm, void *data, struct drm_file *file)
{
	struct qaic_device *qdev = to_qaic_device(drm);
	struct qaic_file_priv *priv = file->driver_priv;
	struct qaic_manage_msg *msg = data;
	void *in, *out;
	int ret;
	int idx;

	if (!drm_dev_enter(drm, &idx))
		return -ENODEV;

	if (msg->len < sizeof(struct qaic_manage_trans_hdr) || msg->len > QAIC_NNC_MAX_USER_LEN) {
		drm_dbg(drm, "manage: len %u out of range\n", msg->len);
		ret = -EINVAL;
		goto exit;
	}
	if (!msg->count || msg->count > msg->len / sizeof(struct qaic_manage_trans_hdr)) {
		drm_dbg(drm, "manage: count %u does not fit len %u\n", msg->count, msg->len);
		ret = -EINVAL;
		goto exit;
	}

	if (atomic_inc_return(&priv->manage_calls) > QAIC_MANAGE_FILE_CALLS) {
		drm_dbg(drm, "manage: file %u has %u calls under way already\n", priv->id,
			QAIC_MANAGE_FILE_CALLS);
		ret = -EBUSY;
		goto dec;
	}

	if (READ_ONCE(priv->stale_bytes) >= QAIC_MANAGE_FILE_STALE_MAX) {
		drm_dbg(drm, "manage: file %u keeps %llu bytes for the card already\n", priv->id,
			READ_ONCE(priv->stale_bytes));
		ret = -EBUSY;
		goto dec;
	}

	in = memdup_user(u64_to_user_ptr(msg->data), msg->len);
	if (IS_ERR(in)) {
		ret = PTR_ERR(in);
		goto dec;
	}
	out = kzalloc(QAIC_NNC_MAX_USER_LEN, GFP_KERNEL);
	if (out)
		ret = qaic_manage(qdev, priv, msg, in, out);
	else
		ret = -ENOMEM;
	kfree(out);
	kfree(in);
dec:
	atomic_dec(&priv->manage_calls);
exit:
	drm_dev_exit(idx);
	return ret;
}

/**
 * qaic_manage_terminate() - Ask the card to release what a file holds.
 * @qdev: The card, its control path up.
 * @handle: The file's id, the user handle of its messages.
 *
 * Waits for the answer (``control_resp_timeout_s``), not cut short by
 * signals.
 *
 * Return: 0 once the card answered, else a negative errno.
 */
int qaic_manage_terminate(struct qaic_device *qdev, u32 handle)
{
	u8 msg[sizeof(struct qaic_wire_msg_hdr) + sizeof(struct qaic_wire_terminate_to_dev)];
	size_t rsp_len;
	ssize_t len;
	void *rsp;
	int ret;

	len = qaic_nnc_encode_terminate(handle, msg, sizeof(msg));
	if (len < 0)
		return len;
	rsp = kmalloc(QAIC_CNTL_RSP_SIZE, GFP_KERNEL);
	if (!rsp)
		return -ENOMEM;
	ret = qaic_cntl_xfer_release(qdev->cntl, msg, len, rsp, &rsp_len);
	if (ret)
		drm_dbg(&qdev->drm, "terminate of file %u: %d\n", handle, ret);
	kfree(rsp);
	return ret;
}
