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
 *    sg_table and map it for the device; allocate the rings of an activate
 *    with dma_alloc_coherent(): @queue_size request elements of 64 bytes, a
 *    256-byte gap, then @queue_size response elements of 4 bytes at the
 *    end of a 4 KiB-aligned buffer.
 * 4. Encode, send, and send the rest of a DMA transfer that did not fit one
 *    message each time the card asks for it; decode the answer. The last
 *    DMA transfer, the only one that may need several messages, is pinned
 *    and mapped one window at a time: the pages of what the next message
 *    has room for, unpinned once the card answered it. A fatal signal
 *    between two messages ends the transfer (-EINTR), and the card is told
 *    to drop it.
 * 5. Record the DBC the card activated as owned by the file (it keeps the
 *    rings); free the rings of the DBCs it released. Copy the answer out.
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
 * (a fatal signal, a timeout: the rings of an activate, the pinned pages of
 * DMA transfers) is kept, and counted against the file, until its terminate or
 * a reset of the card. A file that keeps %QAIC_MANAGE_FILE_STALE_MAX bytes
 * or more so gets -EBUSY from MANAGE until then, so that calls killed over
 * and over (by the processes that share the file) cannot keep memory
 * without bound. fdinfo shows the figure (``qaic-stale-memory``).
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
 * is reset first (qaic_manage_release_file()). When the card is gone, the
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
#include "qaic_nnc.h"
#include "qaic_queue.h"

/* DBC ring layout, as the card expects it. */
#define QAIC_DBC_REQ_ELEM_SIZE	64
#define QAIC_DBC_RSP_ELEM_SIZE	4
#define QAIC_DBC_RING_GAP	SZ_256
#define QAIC_DBC_RING_ALIGN	SZ_4K
/*
 * Most elements a ring may have: req_id is 16 bits, so a queue never has
 * more jobs in flight than that, and a bigger ring would only hold idle
 * memory (at most 4.3 MiB a DBC, if it can be had contiguous at all).
 */
#define QAIC_DBC_MAX_NELEM	SZ_64K

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
 * Bytes of stale memory (see struct qaic_manage_stale) a file may keep
 * before its MANAGE calls are refused: what one call may pin at most. A
 * file keeps at most this plus what one more call leaves.
 */
#define QAIC_MANAGE_FILE_STALE_MAX	SZ_64M

/**
 * struct qaic_manage_pin - The user buffer of one DMA transfer, pinned and mapped.
 * @pages: The pinned pages.
 * @npages: Pages pinned, the first @npages of @pages.
 * @cap: Entries @pages has room for.
 * @sgt: The pages as a scatterlist.
 * @sgt_ready: @sgt is allocated.
 * @mapped: @sgt is DMA-mapped.
 * @segs: The mapped segments, for the codec: one per page at most.
 * @nsegs: Entries at @segs.
 * @mm: The address space whose pinned_vm counts @npages, held (mmgrab())
 *	while it does; NULL before the first pin.
 *
 * The last DMA transfer of a message holds only its current window.
 */
struct qaic_manage_pin {
	struct mm_struct *mm;
	struct page **pages;
	unsigned int npages;
	unsigned int cap;
	struct sg_table sgt;
	bool sgt_ready;
	bool mapped;
	struct qaic_nnc_seg *segs;
	unsigned int nsegs;
};

/**
 * struct qaic_manage_call - One MANAGE call on its way.
 * @qdev: The card.
 * @priv: The caller's file.
 * @umsg: The copied-in user message.
 * @plan: What the codec found in it.
 * @xfers: Its DMA transfers.
 * @pins: Their buffers, one per entry of @xfers.
 * @ring: The rings of its activate, for the codec.
 * @ring_cpu: CPU address of the rings; NULL when there are none.
 * @ring_dma: DMA address of the rings.
 * @ring_size: Bytes of the rings.
 * @window_cap: Pages a window of the last DMA transfer may pin: what
 *		%QAIC_MANAGE_MAX_PIN_BYTES leaves once the others are pinned.
 * @sent: A message got out to the card (qaic_cntl_xfer() queued it).
 * @unanswered: A message with DMA transfers may have gone to the card and
 *		its answer did not come (a fatal signal, a timeout): the
 *		card may still read the pages.
 */
struct qaic_manage_call {
	struct qaic_device *qdev;
	struct qaic_file_priv *priv;
	struct qaic_nnc_user_msg umsg;
	struct qaic_nnc_plan plan;
	struct qaic_nnc_xfer *xfers;
	struct qaic_manage_pin *pins;
	struct qaic_nnc_ring ring;
	void *ring_cpu;
	dma_addr_t ring_dma;
	size_t ring_size;
	u64 window_cap;
	bool sent;
	bool unanswered;
};

/**
 * struct qaic_manage_stale - What the card may still reach after a message
 *			      whose answer never came.
 * @node: In &qaic_file_priv.stale.
 * @cpu: CPU address of the rings of its activate; NULL if none.
 * @dma: DMA address of the rings.
 * @size: Bytes of the rings.
 * @pin: The pages of its DMA transfers, pinned and mapped; none if
 *	 @pin.npages is 0.
 *
 * Kept until the file's terminate, after which the card reaches nothing
 * the file gave it.
 */
struct qaic_manage_stale {
	struct list_head node;
	void *cpu;
	dma_addr_t dma;
	size_t size;
	struct qaic_manage_pin pin;
};

/* Pages that hold @size bytes from user address @addr, which does not wrap. */
/*
 * Pages the @size bytes at @addr touch. Written so that it cannot wrap: a
 * size near 2^64 at an address in page 0 does not wrap in the codec's
 * check, but rounding offset + size up would (and give 0 pages).
 */
static u64 qaic_manage_npages(u64 addr, u64 size)
{
	return (size >> PAGE_SHIFT) +
	       DIV_ROUND_UP(offset_in_page(addr) + (size & ~PAGE_MASK), PAGE_SIZE);
}

/* Unmaps @pin and frees its segments; its pages stay pinned. */
static void qaic_manage_unmap(struct qaic_device *qdev, struct qaic_manage_pin *pin)
{
	kvfree(pin->segs);
	pin->segs = NULL;
	if (pin->mapped)
		dma_unmap_sgtable(&qdev->pdev->dev, &pin->sgt, DMA_TO_DEVICE, 0);
	pin->mapped = false;
	if (pin->sgt_ready)
		sg_free_table(&pin->sgt);
	pin->sgt_ready = false;
	pin->nsegs = 0;
}

static void qaic_manage_unpin(struct qaic_device *qdev, struct qaic_manage_pin *pin)
{
	qaic_manage_unmap(qdev, pin);
	if (pin->npages)
		unpin_user_pages(pin->pages, pin->npages);
	if (pin->mm) {
		atomic64_sub(pin->npages, &pin->mm->pinned_vm);
		mmdrop(pin->mm);
	}
	kvfree(pin->pages);
	memset(pin, 0, sizeof(*pin));
}

/*
 * Counts @n pages about to be pinned onto @pin in the caller's pinned_vm,
 * within RLIMIT_MEMLOCK unless the caller may lock any amount.
 */
static int qaic_manage_charge(struct qaic_device *qdev, struct qaic_manage_pin *pin,
			      unsigned int n)
{
	unsigned long limit = rlimit(RLIMIT_MEMLOCK) >> PAGE_SHIFT;
	s64 pinned;

	if (!pin->mm) {
		pin->mm = current->mm;
		mmgrab(pin->mm);
	}
	pinned = atomic64_add_return(n, &pin->mm->pinned_vm);
	if (pinned > limit && !capable(CAP_IPC_LOCK)) {
		atomic64_sub(n, &pin->mm->pinned_vm);
		drm_dbg(&qdev->drm, "manage: pinning %u pages: %lld pinned, RLIMIT_MEMLOCK %lu\n",
			n, pinned - n, limit);
		return -ENOMEM;
	}
	return 0;
}

/* Makes room for @n pages in @pin's page array, keeping those it holds. */
static int qaic_manage_grow(struct qaic_manage_pin *pin, unsigned int n)
{
	struct page **pages;

	if (n <= pin->cap)
		return 0;
	pages = kvmalloc_array(n, sizeof(*pages), QAIC_GFP_USER);
	if (!pages)
		return -ENOMEM;
	if (pin->npages)
		memcpy(pages, pin->pages, pin->npages * sizeof(*pages));
	kvfree(pin->pages);
	pin->pages = pages;
	pin->cap = n;
	return 0;
}

/* Pins @n more pages onto @pin, from the page-aligned user address @uaddr. */
static int qaic_manage_pin_pages(struct qaic_device *qdev, struct qaic_manage_pin *pin,
				 u64 uaddr, unsigned int n)
{
	int ret;

	ret = qaic_manage_charge(qdev, pin, n);
	if (ret)
		return ret;
	/*
	 * Long-term: a message whose answer never comes keeps its pages
	 * pinned until the file's terminate or a reset of the card, so they
	 * must not sit in ZONE_MOVABLE or CMA meanwhile.
	 */
	ret = pin_user_pages_fast(uaddr, n, FOLL_LONGTERM, pin->pages + pin->npages);
	if (ret > 0)
		pin->npages += ret;
	/* What was not pinned is not counted. */
	atomic64_sub(n - max(ret, 0), &pin->mm->pinned_vm);
	if (ret == n)
		return 0;
	/* Pinning stops short on a fatal signal too: that is no fault of the buffer. */
	if (fatal_signal_pending(current))
		return -EINTR;
	drm_dbg(&qdev->drm, "manage: pinned %d of %u pages at %#llx\n", ret, n, uaddr);
	return ret < 0 ? ret : -EFAULT;
}

/* Pages, of the device's view, that the @len bytes at DMA address @addr touch. */
static unsigned int qaic_manage_dma_pages(dma_addr_t addr, unsigned int len)
{
	return DIV_ROUND_UP(offset_in_page(addr) + (u64)len, PAGE_SIZE);
}

/*
 * Maps @bytes of @pin's pages, from @offset in the first, and describes
 * them to the card as one segment per page: a message then carries as many
 * pages as it has room for segments whether or not the mapping merged them
 * (an IOMMU gives a window one contiguous range). The card takes a message
 * that is not full for the last part of a transfer, so a window must fill
 * its message whatever the mapping.
 */
static int qaic_manage_map(struct qaic_device *qdev, struct qaic_manage_pin *pin,
			   unsigned int offset, u64 bytes)
{
	struct scatterlist *sg;
	unsigned int i, n = 0;
	int ret;

	qaic_manage_unmap(qdev, pin);
	ret = sg_alloc_table_from_pages_segment(&pin->sgt, pin->pages, pin->npages, offset, bytes,
						PAGE_SIZE, QAIC_GFP_USER);
	if (ret)
		return ret;
	pin->sgt_ready = true;
	ret = dma_map_sgtable(&qdev->pdev->dev, &pin->sgt, DMA_TO_DEVICE, 0);
	if (ret)
		return ret;
	pin->mapped = true;

	/* One segment per page of the device's view of the mapping. */
	for_each_sgtable_dma_sg(&pin->sgt, sg, i)
		n += qaic_manage_dma_pages(sg_dma_address(sg), sg_dma_len(sg));
	pin->segs = kvmalloc_array(n, sizeof(*pin->segs), QAIC_GFP_USER);
	if (!pin->segs)
		return -ENOMEM;
	n = 0;
	for_each_sgtable_dma_sg(&pin->sgt, sg, i) {
		dma_addr_t addr = sg_dma_address(sg);
		unsigned int left = sg_dma_len(sg);

		while (left) {
			unsigned int len = min_t(u64, left, PAGE_SIZE - offset_in_page(addr));

			pin->segs[n].addr = addr;
			pin->segs[n].size = len;
			n++;
			addr += len;
			left -= len;
		}
	}
	pin->nsegs = n;
	return 0;
}

/*
 * Pins and maps the whole buffer of @xfer, a transfer that goes in the
 * first message; qaic_manage_check_pins() bounded its size.
 */
static int qaic_manage_pin_whole(struct qaic_device *qdev, struct qaic_nnc_xfer *xfer,
				 struct qaic_manage_pin *pin)
{
	unsigned int offset = offset_in_page(xfer->addr);
	unsigned int npages = qaic_manage_npages(xfer->addr, xfer->size);
	int ret;

	ret = qaic_manage_grow(pin, npages);
	if (!ret)
		ret = qaic_manage_pin_pages(qdev, pin, xfer->addr - offset, npages);
	if (!ret)
		ret = qaic_manage_map(qdev, pin, offset, xfer->size);
	if (ret) {
		qaic_manage_unpin(qdev, pin);
		return ret;
	}
	xfer->segs = pin->segs;
	xfer->nsegs = pin->nsegs;
	return 0;
}

/*
 * Pins and maps the window of the message's last DMA transfer that starts
 * at byte @off: the pages for the @want segments the next message has room
 * for, or the rest of the transfer. Each page is a segment
 * (qaic_manage_map()), so the message is full unless the transfer ends in
 * it: a card takes a message that is not full for the last part of a
 * transfer.
 */
static int qaic_manage_pin_window(struct qaic_manage_call *call, u64 off, u32 want)
{
	struct qaic_device *qdev = call->qdev;
	u32 last = call->plan.num_xfers - 1;
	struct qaic_nnc_xfer *xfer = &call->xfers[last];
	struct qaic_manage_pin *pin = &call->pins[last];
	/* The codec checked that addr + size does not wrap; off < size. */
	u64 start = xfer->addr + off;
	unsigned int offset = offset_in_page(start);
	u64 left = xfer->size - off;
	u64 npages;
	int ret;

	qaic_manage_unpin(qdev, pin);
	/* qaic_manage_check_pins() left room for @want pages at least. */
	npages = min3((u64)want, qaic_manage_npages(start, left), call->window_cap);
	ret = qaic_manage_grow(pin, npages);
	if (!ret)
		ret = qaic_manage_pin_pages(qdev, pin, start - offset, npages);
	if (!ret)
		ret = qaic_manage_map(qdev, pin, offset, min(left, npages * PAGE_SIZE - offset));
	if (ret)
		goto fail;

	xfer->segs = pin->segs;
	xfer->nsegs = pin->nsegs;
	xfer->win_off = off;
	xfer->window = true;
	return 0;

fail:
	qaic_manage_unpin(qdev, pin);
	xfer->segs = NULL;
	xfer->nsegs = 0;
	return ret;
}

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
		pages += qaic_manage_npages(call->xfers[i].addr, call->xfers[i].size);
	last = &call->xfers[n - 1];
	window = min_t(u64, qaic_manage_npages(last->addr, last->size), QAIC_MANAGE_MSG_SEGS);
	if (pages > budget - window) {
		drm_dbg(&call->qdev->drm,
			"manage: DMA transfers would pin %llu + %llu pages, %llu at most\n",
			pages, window, budget);
		return -EINVAL;
	}
	call->window_cap = budget - pages;
	return 0;
}

static void qaic_manage_free_ring(struct qaic_device *qdev, void *cpu, dma_addr_t dma,
				  size_t size)
{
	if (cpu)
		dma_free_coherent(&qdev->pdev->dev, size, cpu, dma);
}

/* Allocates the rings of the message's activate. */
static int qaic_manage_alloc_ring(struct qaic_manage_call *call)
{
	struct qaic_device *qdev = call->qdev;
	u32 nelem = call->plan.activate_nelem;
	u64 size;

	/*
	 * Bounded, and charged to the caller's memory cgroup: dma-direct and
	 * the IOMMU's DMA ops take the pages from the page allocator with
	 * these flags (a CMA area, where one is used, is not charged). The
	 * charge goes with the pages, also when they outlive the caller
	 * (parked after a lost answer, or after a crash).
	 */
	if (nelem > QAIC_DBC_MAX_NELEM) {
		drm_dbg(&qdev->drm, "manage: queue size %u, at most %u\n",
			nelem, QAIC_DBC_MAX_NELEM);
		return -EINVAL;
	}
	size = (u64)nelem * (QAIC_DBC_REQ_ELEM_SIZE + QAIC_DBC_RSP_ELEM_SIZE);
	size = ALIGN(size + QAIC_DBC_RING_GAP, QAIC_DBC_RING_ALIGN);

	call->ring_cpu = dma_alloc_coherent(&qdev->pdev->dev, size, &call->ring_dma,
					    GFP_KERNEL_ACCOUNT | __GFP_NOWARN);
	if (!call->ring_cpu)
		return -ENOMEM;
	call->ring_size = size;
	call->ring = (struct qaic_nnc_ring){
		.req_addr = call->ring_dma,
		.rsp_addr = call->ring_dma + size - (u64)nelem * QAIC_DBC_RSP_ELEM_SIZE,
		.nelem = nelem,
		.buf_len = size,
	};
	return 0;
}

/* Bit i set: the file activated DBC i and did not deactivate it. */
static u32 qaic_manage_owned_locked(struct qaic_device *qdev, u32 id)
{
	u32 mask = 0;
	unsigned int i;

	lockdep_assert_held(&qdev->dbc_lock);

	for (i = 0; i < QAIC_NUM_DBC; i++)
		if (qdev->dbc[i].owner == id && !qdev->dbc[i].draining)
			mask |= BIT(i);
	return mask;
}

/* Takes the DBCs of @mask from the file, or gives them back. */
static void qaic_manage_set_draining_locked(struct qaic_device *qdev, u32 id,
					    unsigned long mask, bool draining)
{
	unsigned int i;

	lockdep_assert_held(&qdev->dbc_lock);

	for_each_set_bit(i, &mask, QAIC_NUM_DBC) {
		struct qaic_dbc *dbc = &qdev->dbc[i];

		guard(mutex)(&dbc->lock);
		if (dbc->owner == id)
			dbc->draining = draining;
	}
}

/* Frees the rings of @dbc: the card cannot reach them. */
static void qaic_manage_free_dbc_ring(struct qaic_device *qdev, struct qaic_dbc *dbc)
{
	qaic_manage_free_ring(qdev, dbc->ring, dbc->ring_dma, dbc->ring_size);
	dbc->ring = NULL;
	dbc->ring_dma = 0;
	dbc->ring_size = 0;
}

/*
 * Stops the DBC's queue, its jobs failing with @error, and takes it from
 * its owner. Its rings and held jobs are freed, the card being done with
 * them; unless @park: the card may still be running (it crashed, and is not
 * reset yet), and the rings stay on the DBC, free but not usable by
 * anyone, the held jobs on &qaic_device.parked_jobs, until
 * qaic_manage_unpark().
 */
static void qaic_manage_stop_dbc_locked(struct qaic_device *qdev, struct qaic_dbc *dbc,
					int error, bool park)
{
	lockdep_assert_held(&qdev->dbc_lock);

	guard(mutex)(&dbc->lock);
	qaic_queue_destroy(qdev, dbc, error, park ? &qdev->parked_jobs : NULL);
	if (!park)
		qaic_manage_free_dbc_ring(qdev, dbc);
	dbc->owner = 0;
	dbc->draining = false;
	dbc->nelem = 0;
	WRITE_ONCE(dbc->activation, 0);
	qaic_dbc_state_changed(qdev, dbc - qdev->dbc);
}

/* Releases the DBC: the card is done with it, or a new grant says so. */
static void qaic_manage_release_dbc_locked(struct qaic_device *qdev, struct qaic_dbc *dbc,
					   int error)
{
	qaic_manage_stop_dbc_locked(qdev, dbc, error, false);
}

/* Acts on what the card activated and released. */
static void qaic_manage_account(struct qaic_manage_call *call, const struct qaic_nnc_answer *ans,
				bool released)
{
	struct qaic_device *qdev = call->qdev;
	struct drm_device *drm = &qdev->drm;
	u32 id = call->priv->id;
	unsigned long bits;
	unsigned int i;

	guard(mutex)(&qdev->dbc_lock);

	if (ans->activated) {
		struct qaic_dbc *dbc = &qdev->dbc[ans->dbc_id];

		/*
		 * The card only grants a channel it considers free: rings
		 * still recorded here (an answer to a deactivate that was
		 * lost) are not in use any more.
		 */
		if (dbc->owner)
			drm_dbg(drm, "manage: DBC %u granted again, was file %u's\n",
				ans->dbc_id, dbc->owner);
		qaic_manage_release_dbc_locked(qdev, dbc, -ECANCELED);
		mutex_lock(&dbc->lock);
		dbc->owner = id;
		WRITE_ONCE(dbc->activation, ++qdev->activations);
		dbc->ring = call->ring_cpu;
		dbc->ring_dma = call->ring_dma;
		dbc->ring_size = call->ring_size;
		dbc->nelem = call->ring.nelem;
		call->ring_cpu = NULL;
		/* Without a queue the DBC is the file's, but execute fails. */
		qaic_queue_create(qdev, dbc, ans->dbc_id);
		qaic_dbc_state_changed(qdev, ans->dbc_id);
		mutex_unlock(&dbc->lock);
	}

	if (!released)
		return;
	/* The card kept these: they are the file's again. */
	qaic_manage_set_draining_locked(qdev, id, ans->deactivate_failed, false);
	bits = ans->deactivated;
	for_each_set_bit(i, &bits, QAIC_NUM_DBC) {
		if (qdev->dbc[i].owner != id || !qdev->dbc[i].draining) {
			drm_dbg(drm, "manage: card released DBC %u, not deactivated by file %u\n",
				i, id);
			continue;
		}
		qaic_manage_release_dbc_locked(qdev, &qdev->dbc[i], -ECANCELED);
	}
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
		size += qaic_manage_npages(last->addr, last->size) *
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
	return qaic_manage_pin_window(call, off, want);
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
		.ring = call->ring_cpu ? &call->ring : NULL,
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
			call->unanswered = ret == -EINTR || ret == -ETIMEDOUT;
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
		qaic_manage_unpin(qdev, &call->pins[req.cont_xfer]);
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
	qaic_manage_account(call, ans, !ret || ret == -ECANCELED);
	if (ret == -ECANCELED) {
		drm_dbg(drm, "manage: the card refused a transaction\n");
	} else if (ret) {
		drm_dbg(drm, "manage: bad answer from the card: %d\n", ret);
		ret = -EIO;
	}
	return ret;
}

/* Takes the DBCs the message deactivates from the file, if they are its. */
static int qaic_manage_take_dbcs(struct qaic_manage_call *call)
{
	struct qaic_device *qdev = call->qdev;
	u32 mask = call->plan.deactivate_mask;
	u32 id = call->priv->id;
	u32 owned;

	if (!mask)
		return 0;

	guard(mutex)(&qdev->dbc_lock);
	owned = qaic_manage_owned_locked(qdev, id);
	if (mask & ~owned) {
		drm_dbg(&qdev->drm, "manage: deactivate of DBCs %#x that file %u does not hold\n",
			mask & ~owned, id);
		return -EPERM;
	}
	qaic_manage_set_draining_locked(qdev, id, mask, true);
	return 0;
}

/* Gives the DBCs back: the message never reached the card. */
static void qaic_manage_return_dbcs(struct qaic_manage_call *call)
{
	struct qaic_device *qdev = call->qdev;

	guard(mutex)(&qdev->dbc_lock);
	qaic_manage_set_draining_locked(qdev, call->priv->id, call->plan.deactivate_mask, false);
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
		ret = qaic_manage_pin_whole(qdev, &call->xfers[i], &call->pins[i]);
		if (ret)
			return ret;
	}
	if (call->plan.activate_nelem)
		return qaic_manage_alloc_ring(call);
	return 0;
}

static u64 qaic_manage_stale_size(const struct qaic_manage_stale *stale)
{
	return (stale->cpu ? stale->size : 0) + ((u64)stale->pin.npages << PAGE_SHIFT);
}

/*
 * Keeps what the card may still reach until the file's terminate: the
 * rings of an activate the card may have granted without the driver
 * learning of it (@ring), or pages of a message whose answer never came
 * (@pin, taken over). Frees nothing if it cannot keep it: the caller does.
 */
static void qaic_manage_park(struct qaic_manage_call *call, bool ring,
			     struct qaic_manage_pin *pin)
{
	struct qaic_device *qdev = call->qdev;
	struct qaic_manage_stale *stale;

	stale = kzalloc_obj(*stale, GFP_KERNEL);
	if (!stale)
		return;
	if (ring) {
		stale->cpu = call->ring_cpu;
		stale->dma = call->ring_dma;
		stale->size = call->ring_size;
		call->ring_cpu = NULL;
	}
	if (pin) {
		stale->pin = *pin;
		memset(pin, 0, sizeof(*pin));
	}
	mutex_lock(&qdev->dbc_lock);
	list_add_tail(&stale->node, &call->priv->stale);
	WRITE_ONCE(call->priv->stale_bytes,
		   call->priv->stale_bytes + qaic_manage_stale_size(stale));
	mutex_unlock(&qdev->dbc_lock);
}

static void qaic_manage_cleanup(struct qaic_manage_call *call, bool answered)
{
	u32 i;

	if (call->ring_cpu && call->sent && !answered)
		qaic_manage_park(call, true, NULL);
	qaic_manage_free_ring(call->qdev, call->ring_cpu, call->ring_dma, call->ring_size);
	if (call->pins) {
		for (i = 0; i < call->plan.num_xfers; i++) {
			if (call->unanswered && call->pins[i].npages)
				qaic_manage_park(call, false, &call->pins[i]);
			qaic_manage_unpin(call->qdev, &call->pins[i]);
		}
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
		ret = qaic_manage_take_dbcs(&call);
	if (!ret) {
		ret = qaic_manage_acquire(&call);
		if (!ret)
			ret = qaic_manage_exchange(&call, rsp, &rsp_len);
		if (ret && !call.sent)
			qaic_manage_return_dbcs(&call);
	}
	if (!ret) {
		ans.activate_sent = !!call.ring_cpu;
		ret = qaic_manage_answer(&call, rsp, rsp_len, &ans);
	}
	answered = !ret || ret == -ECANCELED;
	if (answered) {
		if (copy_to_user(u64_to_user_ptr(msg->data), out, ans.len))
			ret = -EFAULT;
		msg->len = ans.len;
		msg->count = ans.count;
	}

	/* Without a sound answer, the card may have granted the activate. */
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

/* Asks the card to release whatever the user @handle holds; 0 once it answered. */
static int qaic_manage_terminate(struct qaic_device *qdev, u32 handle)
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

/* Whether the card may reach memory of @priv's: rings of its DBCs, stale memory. */
static bool qaic_manage_file_holds(struct qaic_device *qdev, struct qaic_file_priv *priv)
{
	unsigned int i;

	guard(mutex)(&qdev->dbc_lock);
	for (i = 0; i < QAIC_NUM_DBC; i++)
		if (qdev->dbc[i].owner == priv->id)
			return true;
	return !list_empty(&priv->stale);
}

/* Frees what the card could still reach of @priv's: it no longer can. */
static void qaic_manage_free_stale_locked(struct qaic_device *qdev, struct qaic_file_priv *priv)
{
	struct qaic_manage_stale *stale, *next;

	lockdep_assert_held(&qdev->dbc_lock);

	list_for_each_entry_safe(stale, next, &priv->stale, node) {
		WRITE_ONCE(priv->stale_bytes, priv->stale_bytes - qaic_manage_stale_size(stale));
		qaic_manage_free_ring(qdev, stale->cpu, stale->dma, stale->size);
		qaic_manage_unpin(qdev, &stale->pin);
		list_del(&stale->node);
		kfree(stale);
	}
}

/**
 * qaic_manage_release_file() - Release what a closing file holds on the card.
 * @qdev: The card.
 * @priv: The file.
 *
 * Sends a terminate message for the file's handle if it talked to the card
 * and the card is still there, then frees the rings of its DBCs and those
 * of activates whose answer was lost.
 *
 * The memory is freed only once the card cannot reach it any more: it
 * answered the terminate; or its control path was down (it is being
 * reset, or it is gone, and that path releases every DBC); or, when the
 * terminate got no answer (a silent or broken card, no memory for it), the
 * card was reset first, here, which makes it forget the file. The wait
 * for the answer is bounded (``control_resp_timeout_s``) and not cut short
 * by signals: a process killed with the file open closes it with a fatal
 * signal pending.
 */
void qaic_manage_release_file(struct qaic_device *qdev, struct qaic_file_priv *priv)
{
	unsigned int i;
	int ret = 0;
	int idx;

	if (READ_ONCE(priv->nnc_used) && drm_dev_enter(&qdev->drm, &idx)) {
		if (qaic_cntl_is_up(qdev->cntl))
			ret = qaic_manage_terminate(qdev, priv->id);
		drm_dev_exit(idx);
	}
	if (ret && ret != -ENODEV && qaic_manage_file_holds(qdev, priv)) {
		char why[64];

		snprintf(why, sizeof(why), "no answer to the terminate of file %u (%d)", priv->id,
			 ret);
		qaic_reset_card_now(qdev, why);
	}

	guard(mutex)(&qdev->dbc_lock);
	for (i = 0; i < QAIC_NUM_DBC; i++)
		if (qdev->dbc[i].owner == priv->id)
			qaic_manage_release_dbc_locked(qdev, &qdev->dbc[i], -ECANCELED);
	qaic_manage_free_stale_locked(qdev, priv);
}

/* Frees what qaic_manage_park_all() kept: the card can reach none of it. */
static void qaic_manage_unpark_locked(struct qaic_device *qdev)
{
	struct qaic_manage_stale *stale, *next;
	unsigned int i;

	lockdep_assert_held(&qdev->dbc_lock);

	for (i = 0; i < QAIC_NUM_DBC; i++) {
		struct qaic_dbc *dbc = &qdev->dbc[i];

		if (dbc->owner || !dbc->ring)
			continue;
		guard(mutex)(&dbc->lock);
		qaic_manage_free_dbc_ring(qdev, dbc);
	}
	qaic_queue_free_held(&qdev->parked_jobs);
	list_for_each_entry_safe(stale, next, &qdev->parked_stale, node) {
		qaic_manage_free_ring(qdev, stale->cpu, stale->dma, stale->size);
		qaic_manage_unpin(qdev, &stale->pin);
		list_del(&stale->node);
		kfree(stale);
	}
}

/* Takes every DBC from its owner; @park: see qaic_manage_park_all(). */
static void qaic_manage_stop_all(struct qaic_device *qdev, bool park)
{
	struct drm_file *file;
	unsigned int i;

	guard(mutex)(&qdev->drm.filelist_mutex);
	guard(mutex)(&qdev->dbc_lock);
	for (i = 0; i < QAIC_NUM_DBC; i++) {
		struct qaic_dbc *dbc = &qdev->dbc[i];

		scoped_guard(mutex, &dbc->lock)
			WRITE_ONCE(dbc->ssr, 0);
		qaic_manage_stop_dbc_locked(qdev, dbc, -ECANCELED, park);
	}
	list_for_each_entry(file, &qdev->drm.filelist, lhead) {
		struct qaic_file_priv *priv = file->driver_priv;

		if (!park) {
			qaic_manage_free_stale_locked(qdev, priv);
			continue;
		}
		list_splice_tail_init(&priv->stale, &qdev->parked_stale);
		WRITE_ONCE(priv->stale_bytes, 0);
	}
	if (!park)
		qaic_manage_unpark_locked(qdev);
}

/**
 * qaic_manage_release_all() - Forget everything the card held: it was
 *			       reset, or is gone.
 * @qdev: The card, which can no longer reach host memory (its MHI was
 *	  reset or powered down, bus mastering is off).
 *
 * Every DBC is released: its jobs fail and its rings are freed. So is
 * what each open file had kept for the card (rings and pages of messages
 * whose answer never came) and what qaic_manage_park_all() kept. A
 * subsystem restart under way is over: the card forgot it.
 */
void qaic_manage_release_all(struct qaic_device *qdev)
{
	qaic_manage_stop_all(qdev, false);
}

/**
 * qaic_manage_park_all() - Forget everything a crashed card held, but keep
 *			    the memory it can reach until it is reset.
 * @qdev: The card; it reported a system error and the MHI core resets it
 *	  next. Until that reset is done its DBC engines may still run.
 *
 * As qaic_manage_release_all() for the files: every DBC is taken from its
 * owner and every job fails. But the rings, the objects of the jobs that
 * were on them and the files' stale memory stay allocated, mapped and
 * pinned, owned by the card (&qaic_device.parked_jobs and
 * &qaic_device.parked_stale, the rings on their DBCs), until
 * qaic_manage_unpark() once the card came up again, or
 * qaic_manage_release_all() once it is stopped or gone.
 */
void qaic_manage_park_all(struct qaic_device *qdev)
{
	qaic_manage_stop_all(qdev, true);
}

/**
 * qaic_manage_unpark() - Free what qaic_manage_park_all() kept.
 * @qdev: The card, which was reset since: it reached mission mode again.
 */
void qaic_manage_unpark(struct qaic_device *qdev)
{
	guard(mutex)(&qdev->dbc_lock);
	qaic_manage_unpark_locked(qdev);
}

/**
 * qaic_manage_ssr_step() - Take a step of a DBC's subsystem restart.
 * @qdev: The card.
 * @dbc_id: The DBC the card names, < %QAIC_NUM_DBC.
 * @step: What the card reports: %QAIC_DBC_BEFORE_SHUTDOWN to
 *	  %QAIC_DBC_AFTER_POWER_UP, or %QAIC_DBC_IDLE once the host answered
 *	  the last one.
 *
 * At BEFORE_SHUTDOWN the card has already dropped the DBC's workload: the
 * DBC is released as a deactivate would, its jobs failing with -EPIPE, and
 * until the restart is over every ioctl naming it fails with -EPIPE. Its
 * owner activates a DBC again afterwards. A BEFORE_SHUTDOWN during a
 * restart begins it again (the subsystem crashed again); any other step
 * must follow the one before.
 *
 * Return: false if @step does not follow, and nothing changed.
 */
bool qaic_manage_ssr_step(struct qaic_device *qdev, u32 dbc_id, enum qaic_dbc_state step)
{
	struct qaic_dbc *dbc = &qdev->dbc[dbc_id];

	guard(mutex)(&qdev->dbc_lock);
	scoped_guard(mutex, &dbc->lock) {
		u8 from = dbc->ssr;

		if (step == QAIC_DBC_IDLE ? from != QAIC_DBC_AFTER_POWER_UP :
		    step != QAIC_DBC_BEFORE_SHUTDOWN && from != step - 1) {
			drm_dbg(&qdev->drm, "ssr: DBC %u: step %u after %u\n", dbc_id, step, from);
			return false;
		}
		WRITE_ONCE(dbc->ssr, step);
		qaic_dbc_state_changed_by_card(qdev, dbc_id);
	}
	if (step == QAIC_DBC_BEFORE_SHUTDOWN)
		qaic_manage_release_dbc_locked(qdev, dbc, -EPIPE);
	return true;
}
