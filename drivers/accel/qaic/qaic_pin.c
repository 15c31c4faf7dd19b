// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The qaic authors.
 */

/**
 * DOC: qaic pin
 *
 * The user buffers of MANAGE's DMA transfers, which the card reads: their
 * pages pinned (long-term), counted in the caller's pinned_vm within
 * RLIMIT_MEMLOCK, mapped for the device and described as one segment per
 * page. Who holds a &struct qaic_pin decides when it is released: a MANAGE
 * call while its message is under way (qaic_manage.c), then, if the answer
 * never came, the owner of what the card can reach (qaic_owner.c) until
 * the card forgot it.
 */

#include <linux/capability.h>
#include <linux/dma-mapping.h>
#include <linux/minmax.h>
#include <linux/mm.h>
#include <linux/scatterlist.h>
#include <linux/sched/mm.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/string.h>

#include <drm/drm_print.h>

#include "qaic_compat.h"
#include "qaic_drv.h"
#include "qaic_nnc.h"
#include "qaic_pin.h"

/* Unmaps @pin and frees its segments; its pages stay pinned. */
static void qaic_pin_unmap(struct qaic_device *qdev, struct qaic_pin *pin)
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

/**
 * qaic_pin_release() - Unmap and unpin a buffer, uncount its pages.
 * @qdev: The card it was mapped for.
 * @pin: The buffer; empty afterwards. Nothing happens if it already is.
 *
 * Only once the card can no longer reach the pages: it answered the
 * message that carried them, or it forgot them (its terminate, a reset).
 */
void qaic_pin_release(struct qaic_device *qdev, struct qaic_pin *pin)
{
	qaic_pin_unmap(qdev, pin);
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
static int qaic_pin_charge(struct qaic_device *qdev, struct qaic_pin *pin,
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
static int qaic_pin_grow(struct qaic_pin *pin, unsigned int n)
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
static int qaic_pin_pages(struct qaic_device *qdev, struct qaic_pin *pin,
			  u64 uaddr, unsigned int n)
{
	int ret;

	ret = qaic_pin_charge(qdev, pin, n);
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
static unsigned int qaic_pin_dma_pages(dma_addr_t addr, unsigned int len)
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
static int qaic_pin_map(struct qaic_device *qdev, struct qaic_pin *pin,
			unsigned int offset, u64 bytes)
{
	struct scatterlist *sg;
	unsigned int i, n = 0;
	int ret;

	qaic_pin_unmap(qdev, pin);
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
		n += qaic_pin_dma_pages(sg_dma_address(sg), sg_dma_len(sg));
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

/**
 * qaic_pin_whole() - Pin and map the whole buffer of a DMA transfer.
 * @qdev: The card.
 * @xfer: A transfer that goes whole in the first message; the caller
 *	  bounded its size. Its segments are set to the mapping's.
 * @pin: Empty; holds the buffer on success, is empty again on failure.
 *
 * Return: 0, or a negative errno (-ENOMEM past RLIMIT_MEMLOCK, -EFAULT,
 * -EINTR on a fatal signal).
 */
int qaic_pin_whole(struct qaic_device *qdev, struct qaic_nnc_xfer *xfer, struct qaic_pin *pin)
{
	unsigned int offset = offset_in_page(xfer->addr);
	unsigned int npages = qaic_pin_npages(xfer->addr, xfer->size);
	int ret;

	ret = qaic_pin_grow(pin, npages);
	if (!ret)
		ret = qaic_pin_pages(qdev, pin, xfer->addr - offset, npages);
	if (!ret)
		ret = qaic_pin_map(qdev, pin, offset, xfer->size);
	if (ret) {
		qaic_pin_release(qdev, pin);
		return ret;
	}
	xfer->segs = pin->segs;
	xfer->nsegs = pin->nsegs;
	return 0;
}

/**
 * qaic_pin_window() - Pin and map the next window of a DMA transfer.
 * @qdev: The card.
 * @xfer: The last transfer of a message, which goes a window at a time.
 *	  Its segments and window are set to the new window's.
 * @pin: Its buffer: what it held (the window before, which the card read)
 *	 is released first.
 * @off: Byte of the transfer the window starts at, below its size.
 * @want: Segments the next message has room for; at least one.
 * @cap: Pages the window may pin at most, at least @want or what is left.
 *
 * The window is the pages for @want segments or the rest of the transfer.
 * Each page is a segment (qaic_pin_map()), so the message is full unless
 * the transfer ends in it: a card takes a message that is not full for
 * the last part of a transfer.
 *
 * Return: 0, or a negative errno as qaic_pin_whole(); @pin is empty then.
 */
int qaic_pin_window(struct qaic_device *qdev, struct qaic_nnc_xfer *xfer, struct qaic_pin *pin,
		    u64 off, u32 want, u64 cap)
{
	/* The codec checked that addr + size does not wrap; off < size. */
	u64 start = xfer->addr + off;
	unsigned int offset = offset_in_page(start);
	u64 left = xfer->size - off;
	u64 npages;
	int ret;

	qaic_pin_release(qdev, pin);
	npages = min3((u64)want, qaic_pin_npages(start, left), cap);
	ret = qaic_pin_grow(pin, npages);
	if (!ret)
		ret = qaic_pin_pages(qdev, pin, start - offset, npages);
	if (!ret)
		ret = qaic_pin_map(qdev, pin, offset, min(left, npages * PAGE_SIZE - offset));
	if (ret)
		goto fail;

	xfer->segs = pin->segs;
	xfer->nsegs = pin->nsegs;
	xfer->win_off = off;
	xfer->window = true;
	return 0;

fail:
	qaic_pin_release(qdev, pin);
	xfer->segs = NULL;
	xfer->nsegs = 0;
	return ret;
}
