// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The qaic authors.
 */

/**
 * DOC: qaic DMA request descriptors
 *
 * A sliced buffer object is executed by queueing DMA requests (struct
 * qaic_dbc_req) on the request ring of a DMA Bridge Channel. This file
 * turns the slices userspace attaches into those requests. It is pure: no
 * device, no locking, no user memory, no DMA API; the callers do that.
 *
 * 1. At attach, qaic_desc_check_slice() checks each struct
 *    qaic_attach_slice_entry against the object, once.
 * 2. Once the object is mapped, qaic_desc_index() notes where each
 *    segment of the mapping starts, qaic_desc_count() sizes and
 *    qaic_desc_encode() fills the request array. A slice takes one request
 *    per contiguous piece of the mapping. A presync semaphore goes on every
 *    request of its slice, so that no piece is transferred before the
 *    receiver is ready. The postsync semaphores, the doorbell and the
 *    completion go on the last request only; when a slice has several
 *    requests and no presync semaphore, the last one also waits for the
 *    transfers of the others with a DMA fence.
 * 3. At PARTIAL_EXECUTE, qaic_desc_resize() derives the requests of a
 *    shortened execution: a slice past the resize point still runs its
 *    semaphores and doorbell, in one request that transfers nothing; the
 *    slice across it transfers up to it.
 * 4. At run time, qaic_desc_ring_free() and qaic_desc_ring_copy() put the
 *    requests of a job on the ring.
 */

#include <linux/align.h>
#include <linux/bitfield.h>
#include <linux/errno.h>
#include <linux/export.h>
#include <linux/limits.h>
#include <linux/minmax.h>
#include <linux/overflow.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <linux/types.h>
#include <asm/byteorder.h>

#include <kunit/visibility.h>

#include <uapi/drm/qaic_accel.h>

#include "qaic_desc.h"
#include "qaic_hw.h"

#define QAIC_DESC_SEM_FLAGS	(QAIC_SEM_INSYNCFENCE | QAIC_SEM_OUTSYNCFENCE)

static const char *qaic_desc_check_sem(const struct qaic_sem *sem)
{
	if (sem->pad)
		return "semaphore pad is not 0";
	if (sem->cmd > QAIC_SEM_WAIT_GT_0)
		return "semaphore cmd is unknown";
	if (sem->flags & ~QAIC_DESC_SEM_FLAGS)
		return "semaphore flags has unknown bits";
	if (sem->presync > 1)
		return "semaphore presync is not 0 or 1";
	if (sem->index > FIELD_MAX(QAIC_DBC_SEM_INDEX))
		return "semaphore index is above 31";
	if (sem->val > FIELD_MAX(QAIC_DBC_SEM_VAL))
		return "semaphore val is above 4095";
	return NULL;
}

static const char *qaic_desc_check_db(const struct qaic_attach_slice_entry *e)
{
	switch (e->db_len) {
	case 0:
		if (e->db_addr)
			return "db_addr is set but db_len is 0";
		return NULL;
	case 8:
	case 16:
	case 32:
		if (!e->db_addr)
			return "db_len is set but db_addr is 0";
		if (!IS_ALIGNED(e->db_addr, e->db_len / 8))
			return "db_addr is not aligned to db_len";
		return NULL;
	default:
		return "db_len is not 0, 8, 16 or 32";
	}
}

static const char *qaic_desc_check_entry(const struct qaic_attach_slice_entry *e,
					 u64 bo_size)
{
	const struct qaic_sem *sems[QAIC_DBC_NUM_SEMS] = {
		&e->sem0, &e->sem1, &e->sem2, &e->sem3,
	};
	unsigned int presync = 0;
	const char *why;
	u64 end;
	int i;

	/*
	 * Size 0 is allowed, as Linux 6.12 allows it: a slice that moves no
	 * data but still runs its semaphores and doorbell.
	 */
	if (check_add_overflow(e->offset, e->size, &end))
		return "offset + size wraps";
	if (end > bo_size)
		return "slice passes the end of the object";
	if (e->size && check_add_overflow(e->dev_addr, e->size - 1, &end))
		return "dev_addr + size wraps";

	for (i = 0; i < QAIC_DBC_NUM_SEMS; i++) {
		why = qaic_desc_check_sem(sems[i]);
		if (why)
			return why;
		presync += sems[i]->presync;
	}
	/* The device runs at most one presync semaphore per request. */
	if (presync > 1)
		return "more than one presync semaphore";

	return qaic_desc_check_db(e);
}

/**
 * qaic_desc_check_slice() - Check one slice userspace attaches.
 * @e: The slice, copied from userspace.
 * @bo_size: Size of the buffer object it slices.
 * @why: Set to the reason of a refusal, a static string for drm_dbg().
 *
 * Return: 0 if qaic_desc_encode() can encode @e, -EINVAL if not.
 */
int qaic_desc_check_slice(const struct qaic_attach_slice_entry *e, u64 bo_size,
			  const char **why)
{
	*why = qaic_desc_check_entry(e, bo_size);
	return *why ? -EINVAL : 0;
}
EXPORT_SYMBOL_IF_KUNIT(qaic_desc_check_slice);

/* A walk through the bytes of a slice, one contiguous piece at a time. */
struct qaic_desc_walk {
	const struct qaic_desc_seg *segs;
	u32 nsegs;
	u32 seg;	/* segment of the next byte */
	u64 off;	/* its offset in that segment */
	u64 left;	/* bytes of the slice not walked yet */
};

/**
 * qaic_desc_index() - Note where each segment of a mapping starts.
 * @segs: The DMA mapping of the whole buffer object, in order.
 * @nsegs: Entries at @segs.
 *
 * Done once per mapping, so that a slice's first segment is found by a
 * binary search, not a walk from the object's start: an object of 1 GiB
 * mapped page by page has 262144 segments, and an attach may name 65535
 * slices.
 */
void qaic_desc_index(struct qaic_desc_seg *segs, u32 nsegs)
{
	u64 start = 0;
	u32 i;

	for (i = 0; i < nsegs; i++) {
		segs[i].start = start;
		start += segs[i].len;
	}
}
EXPORT_SYMBOL_IF_KUNIT(qaic_desc_index);

/* The segment that holds byte @offset of the object, or @nsegs if none does. */
static u32 qaic_desc_find_seg(const struct qaic_desc_seg *segs, u32 nsegs, u64 offset)
{
	u32 lo = 0, hi = nsegs;

	/*
	 * The first segment that ends past @offset. Ends never decrease, and
	 * a segment of 0 bytes ends where it starts, so it is never the one.
	 */
	while (lo < hi) {
		u32 mid = lo + (hi - lo) / 2;

		if (segs[mid].start + segs[mid].len > offset)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

static int qaic_desc_walk_start(struct qaic_desc_walk *w,
				const struct qaic_desc_seg *segs, u32 nsegs,
				const struct qaic_attach_slice_entry *e)
{
	u32 i = qaic_desc_find_seg(segs, nsegs, e->offset);

	if (i == nsegs)
		return -EINVAL;

	w->segs = segs;
	w->nsegs = nsegs;
	w->seg = i;
	w->off = e->offset - segs[i].start;
	w->left = e->size;
	return 0;
}

/* Next piece of the slice; -EINVAL if the mapping ends before the slice. */
static int qaic_desc_walk_next(struct qaic_desc_walk *w, u64 *addr, u32 *len)
{
	u64 piece;

	while (w->seg < w->nsegs && w->off == w->segs[w->seg].len) {
		w->seg++;
		w->off = 0;
	}
	if (w->seg == w->nsegs)
		return -EINVAL;

	piece = min3(w->segs[w->seg].len - w->off, w->left, (u64)QAIC_DESC_MAX_LEN);
	*addr = w->segs[w->seg].addr + w->off;
	*len = piece;
	w->off += piece;
	w->left -= piece;
	return 0;
}

/*
 * Requests of one slice: one per piece, and one that transfers nothing if
 * empty. -ENOSPC once there would be more than @max: the walk is never
 * longer than what the caller can take.
 */
static int qaic_desc_slice_count(const struct qaic_attach_slice_entry *e,
				 const struct qaic_desc_seg *segs, u32 nsegs,
				 u32 max, u32 *nreqs)
{
	struct qaic_desc_walk w;
	u64 addr = 0;
	u32 len = 0;
	u32 n;
	int ret;

	if (!e->size) {
		if (!max)
			return -ENOSPC;
		*nreqs = 1;
		return 0;
	}

	ret = qaic_desc_walk_start(&w, segs, nsegs, e);
	for (n = 0; !ret && w.left; n++) {
		if (n == max)
			return -ENOSPC;
		ret = qaic_desc_walk_next(&w, &addr, &len);
	}
	if (ret)
		return ret;
	*nreqs = n;
	return 0;
}

/**
 * qaic_desc_count() - Count the requests of a set of slices.
 * @ents: The slices, each accepted by qaic_desc_check_slice().
 * @nents: Entries at @ents.
 * @segs: The DMA mapping of the whole buffer object, in order, indexed by
 *	  qaic_desc_index().
 * @nsegs: Entries at @segs.
 * @max_reqs: The most requests the caller takes.
 *
 * Stops counting as soon as the total passes @max_reqs, so the cost is
 * bounded by @nents and @max_reqs, whatever the slices overlap. May sleep
 * between slices.
 *
 * Return: the number of requests qaic_desc_encode() writes, or -EINVAL if a
 * slice passes the end of the mapping, -ENOSPC if there are more than
 * @max_reqs (or INT_MAX).
 */
int qaic_desc_count(const struct qaic_attach_slice_entry *ents, u32 nents,
		    const struct qaic_desc_seg *segs, u32 nsegs, u32 max_reqs)
{
	u32 total = 0;
	u32 i, n;
	int ret;

	max_reqs = min_t(u32, max_reqs, INT_MAX);
	for (i = 0; i < nents; i++) {
		ret = qaic_desc_slice_count(&ents[i], segs, nsegs, max_reqs - total, &n);
		if (ret)
			return ret;
		total += n;
		cond_resched();
	}
	return total;
}
EXPORT_SYMBOL_IF_KUNIT(qaic_desc_count);

static __le32 qaic_desc_sem_cmd(const struct qaic_sem *sem, u8 fence)
{
	u32 cmd = FIELD_PREP(QAIC_DBC_SEM_VAL, sem->val) |
		  FIELD_PREP(QAIC_DBC_SEM_INDEX, sem->index) |
		  FIELD_PREP(QAIC_DBC_SEM_PRESYNC, sem->presync) |
		  FIELD_PREP(QAIC_DBC_SEM_CMD, sem->cmd) |
		  FIELD_PREP(QAIC_DBC_SEM_FENCE, sem->flags | fence);

	/* A NOP is not enabled, but its fence bits still hold. */
	if (sem->cmd != QAIC_SEM_NOP)
		cmd |= QAIC_DBC_SEM_ENABLE;
	return cpu_to_le32(cmd);
}

static u8 qaic_desc_db_attr(u32 db_len)
{
	switch (db_len) {
	case 8:
		return QAIC_DBC_DB_ENABLE | QAIC_DBC_DB_LEN_8;
	case 16:
		return QAIC_DBC_DB_ENABLE | QAIC_DBC_DB_LEN_16;
	case 32:
		return QAIC_DBC_DB_ENABLE | QAIC_DBC_DB_LEN_32;
	default:
		return 0;
	}
}

/* Fill the @n requests counted for @e; the walk cannot fail any more. */
static void qaic_desc_encode_slice(const struct qaic_attach_slice_entry *e,
				   const struct qaic_desc_seg *segs, u32 nsegs,
				   enum dma_data_direction dir,
				   struct qaic_dbc_req *reqs, u32 n)
{
	const struct qaic_sem *sems[QAIC_DBC_NUM_SEMS] = {
		&e->sem0, &e->sem1, &e->sem2, &e->sem3,
	};
	bool to_dev = dir == DMA_TO_DEVICE;
	struct qaic_dbc_req *last = &reqs[n - 1];
	u8 cmd = QAIC_DBC_CMD_BULK;
	u64 dev_addr = e->dev_addr;
	struct qaic_desc_walk w;
	int presync = -1;
	u8 fence = 0;
	u64 addr = 0;
	u32 len = 0;
	u32 i;

	memset(reqs, 0, n * sizeof(*reqs));
	for (i = 0; i < QAIC_DBC_NUM_SEMS; i++)
		if (sems[i]->presync)
			presync = i;
	if (e->size) {
		cmd |= to_dev ? QAIC_DBC_CMD_XFER_TO_DEV : QAIC_DBC_CMD_XFER_FROM_DEV;
		qaic_desc_walk_start(&w, segs, nsegs, e);
	}

	for (i = 0; i < n; i++) {
		reqs[i].cmd = cmd;
		if (e->size) {
			qaic_desc_walk_next(&w, &addr, &len);
			reqs[i].src_addr = cpu_to_le64(to_dev ? addr : dev_addr);
			reqs[i].dest_addr = cpu_to_le64(to_dev ? dev_addr : addr);
			reqs[i].len = cpu_to_le32(len);
			dev_addr += len;
		}
		if (presync >= 0)
			reqs[i].sem_cmd[presync] = qaic_desc_sem_cmd(sems[presync], 0);
	}

	last->cmd |= QAIC_DBC_CMD_COMPLETION;
	if (e->db_len) {
		last->db_addr = cpu_to_le64(e->db_addr);
		last->db_attr = qaic_desc_db_attr(e->db_len);
		last->db_data = cpu_to_le32(e->db_data);
	}
	/*
	 * With no presync semaphore, the pieces of a slice may complete out of
	 * order: the last one waits for all transfers in its direction before
	 * running the postsync semaphores and the doorbell. A presync keeps
	 * them in order on the device already.
	 */
	if (n > 1 && presync < 0)
		fence = to_dev ? QAIC_SEM_INSYNCFENCE : QAIC_SEM_OUTSYNCFENCE;
	for (i = 0; i < QAIC_DBC_NUM_SEMS; i++)
		last->sem_cmd[i] = qaic_desc_sem_cmd(sems[i], i ? 0 : fence);
}

/**
 * qaic_desc_encode() - Encode the requests of a set of slices.
 * @ents: The slices, each accepted by qaic_desc_check_slice().
 * @nents: Entries at @ents.
 * @segs: The DMA mapping of the whole buffer object, in order, indexed by
 *	  qaic_desc_index().
 * @nsegs: Entries at @segs.
 * @dir: %DMA_TO_DEVICE or %DMA_FROM_DEVICE.
 * @slices: Out. One entry per slice: where its requests are.
 * @reqs: Out. The requests of all slices, in slice order, req_id 0.
 * @max_reqs: Entries at @reqs; qaic_desc_count() tells how many are needed.
 *
 * May sleep between slices.
 *
 * Return: the number of requests written, or -EINVAL for a bad @dir or a
 * slice that passes the end of the mapping, -ENOSPC if @reqs is too short
 * (or there would be more than INT_MAX requests).
 */
int qaic_desc_encode(const struct qaic_attach_slice_entry *ents, u32 nents,
		     const struct qaic_desc_seg *segs, u32 nsegs,
		     enum dma_data_direction dir, struct qaic_desc_slice *slices,
		     struct qaic_dbc_req *reqs, u32 max_reqs)
{
	u32 total = 0;
	u32 i, n;
	int ret;

	if (dir != DMA_TO_DEVICE && dir != DMA_FROM_DEVICE)
		return -EINVAL;
	max_reqs = min_t(u32, max_reqs, INT_MAX);

	for (i = 0; i < nents; i++) {
		ret = qaic_desc_slice_count(&ents[i], segs, nsegs, max_reqs - total, &n);
		if (ret)
			return ret;
		qaic_desc_encode_slice(&ents[i], segs, nsegs, dir, &reqs[total], n);
		slices[i].offset = ents[i].offset;
		slices[i].size = ents[i].size;
		slices[i].first = total;
		slices[i].nreqs = n;
		total += n;
		cond_resched();
	}
	return total;
}
EXPORT_SYMBOL_IF_KUNIT(qaic_desc_encode);

/**
 * qaic_desc_resize_slice() - Shorten the requests of one slice.
 * @slice: The slice, as qaic_desc_encode() described it.
 * @reqs: The encoded requests of all slices.
 * @resize: Bytes of the buffer object to transfer, from its start.
 * @last: Out. The request to queue after the unchanged ones.
 *
 * A slice that starts at or past @resize (or any slice, if @resize is 0)
 * keeps only its last request, which transfers nothing but still runs its
 * semaphores and doorbell and queues a completion. A slice that @resize cuts
 * keeps the requests before the cut, then its last request transferring the
 * piece up to the cut. Other slices are unchanged.
 *
 * Return: the number of requests, from @reqs[@slice->first], to queue
 * unchanged before @last.
 */
u32 qaic_desc_resize_slice(const struct qaic_desc_slice *slice,
			   const struct qaic_dbc_req *reqs, u64 resize,
			   struct qaic_dbc_req *last)
{
	const struct qaic_dbc_req *r = &reqs[slice->first];
	u32 nreqs = slice->nreqs;
	u64 left = 0;
	u32 n = 0;
	u32 len;

	if (resize && resize > slice->offset) {
		left = resize - slice->offset;
		if (left >= slice->size) {
			*last = r[nreqs - 1];
			return nreqs - 1;
		}
		for (; n < nreqs - 1; n++) {
			len = le32_to_cpu(r[n].len);
			if (left <= len)
				break;
			left -= len;
		}
	}

	*last = r[nreqs - 1];
	last->src_addr = r[n].src_addr;
	last->dest_addr = r[n].dest_addr;
	last->len = cpu_to_le32(left);
	if (!left)
		last->cmd &= ~QAIC_DBC_CMD_XFER;
	return n;
}
EXPORT_SYMBOL_IF_KUNIT(qaic_desc_resize_slice);

/**
 * qaic_desc_resize() - Derive the requests of a shortened execution.
 * @slices: The slices, as qaic_desc_encode() described them.
 * @nslices: Entries at @slices.
 * @reqs: The encoded requests of all slices.
 * @resize: Bytes of the buffer object to transfer, from its start; the
 *	    caller checked it is not more than the object's size.
 * @out: Out. The requests to queue, in slice order.
 * @max_out: Entries at @out; the count of @reqs is always enough.
 *
 * See qaic_desc_resize_slice() for what happens to each slice.
 *
 * Return: the number of requests written, or -ENOSPC if @out is too short.
 */
int qaic_desc_resize(const struct qaic_desc_slice *slices, u32 nslices,
		     const struct qaic_dbc_req *reqs, u64 resize,
		     struct qaic_dbc_req *out, u32 max_out)
{
	struct qaic_dbc_req last;
	u32 total = 0;
	u32 i, n;

	max_out = min_t(u32, max_out, INT_MAX);
	for (i = 0; i < nslices; i++) {
		n = qaic_desc_resize_slice(&slices[i], reqs, resize, &last);
		if (n >= max_out - total)
			return -ENOSPC;
		memcpy(&out[total], &reqs[slices[i].first], n * sizeof(*out));
		out[total + n] = last;
		total += n + 1;
	}
	return total;
}
EXPORT_SYMBOL_IF_KUNIT(qaic_desc_resize);

/**
 * qaic_desc_ring_free() - Free entries of a request ring.
 * @head: Index of the next entry the device reads (REQHP).
 * @tail: Index of the next entry the host writes (REQTP).
 * @nelem: Entries in the ring.
 *
 * One entry always stays empty, so that a full ring differs from an empty
 * one.
 *
 * Return: the entries the host may write, 0 if @head or @tail is out of
 * the ring (the device's head is not trusted).
 */
u32 qaic_desc_ring_free(u32 head, u32 tail, u32 nelem)
{
	if (head >= nelem || tail >= nelem)
		return 0;
	if (head > tail)
		return head - tail - 1;
	return nelem - (tail - head) - 1;
}
EXPORT_SYMBOL_IF_KUNIT(qaic_desc_ring_free);

/**
 * qaic_desc_ring_copy() - Copy requests onto a request ring.
 * @ring: The ring, @nelem entries.
 * @nelem: Entries in the ring.
 * @tail: Index of the first entry to write, below @nelem.
 * @reqs: The requests.
 * @n: Entries at @reqs; not more than qaic_desc_ring_free() reported.
 * @req_id: Request id to give each copy; @reqs are left unchanged.
 *
 * Return: the new tail, to write to REQTP.
 */
u32 qaic_desc_ring_copy(struct qaic_dbc_req *ring, u32 nelem, u32 tail,
			const struct qaic_dbc_req *reqs, u32 n, u16 req_id)
{
	u32 i;

	for (i = 0; i < n; i++) {
		ring[tail] = reqs[i];
		ring[tail].req_id = cpu_to_le16(req_id);
		if (++tail == nelem)
			tail = 0;
	}
	return tail;
}
EXPORT_SYMBOL_IF_KUNIT(qaic_desc_ring_copy);
