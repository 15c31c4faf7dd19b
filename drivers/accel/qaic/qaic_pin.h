/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The qaic authors.
 */

#ifndef _QAIC_PIN_H_
#define _QAIC_PIN_H_

#include <linux/math.h>
#include <linux/mm.h>
#include <linux/scatterlist.h>
#include <linux/types.h>

struct mm_struct;
struct page;
struct qaic_device;
struct qaic_nnc_seg;
struct qaic_nnc_xfer;

/**
 * struct qaic_pin - The user buffer of one DMA transfer, pinned and mapped.
 * @mm: The address space whose pinned_vm counts @npages, held (mmgrab())
 *	while it does; NULL before the first pin.
 * @pages: The pinned pages.
 * @npages: Pages pinned, the first @npages of @pages.
 * @cap: Entries @pages has room for.
 * @sgt: The pages as a scatterlist.
 * @sgt_ready: @sgt is allocated.
 * @mapped: @sgt is DMA-mapped.
 * @segs: The mapped segments, for the codec: one per page at most.
 * @nsegs: Entries at @segs.
 *
 * The last DMA transfer of a message holds only its current window. An
 * all-zero &struct qaic_pin is empty.
 */
struct qaic_pin {
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

/*
 * Pages the @size bytes at @addr touch. Written so that it cannot wrap: a
 * size near 2^64 at an address in page 0 does not wrap in the codec's
 * check, but rounding offset + size up would (and give 0 pages).
 */
static inline u64 qaic_pin_npages(u64 addr, u64 size)
{
	return (size >> PAGE_SHIFT) +
	       DIV_ROUND_UP(offset_in_page(addr) + (size & ~PAGE_MASK), PAGE_SIZE);
}

int qaic_pin_whole(struct qaic_device *qdev, struct qaic_nnc_xfer *xfer, struct qaic_pin *pin);
int qaic_pin_window(struct qaic_device *qdev, struct qaic_nnc_xfer *xfer, struct qaic_pin *pin,
		    u64 off, u32 want, u64 cap);
void qaic_pin_release(struct qaic_device *qdev, struct qaic_pin *pin);

#endif /* _QAIC_PIN_H_ */
