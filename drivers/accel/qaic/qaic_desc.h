/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The qaic authors.
 */

#ifndef _QAIC_DESC_H_
#define _QAIC_DESC_H_

#include <linux/dma-direction.h>
#include <linux/types.h>

#include <uapi/drm/qaic_accel.h>

#include "qaic_hw.h"

/*
 * Largest transfer of one request. The length field has 32 bits; a longer
 * piece is split at a page-aligned size so that later requests stay aligned.
 */
#define QAIC_DESC_MAX_LEN	0xfffff000U

/**
 * struct qaic_desc_seg - One DMA-mapped piece of a buffer object.
 * @addr: Device (DMA) address.
 * @len: Bytes; a segment of 0 bytes is skipped.
 * @start: Its offset in the object: the sum of the lengths before it, set
 *	   by qaic_desc_index().
 */
struct qaic_desc_seg {
	u64 addr;
	u64 len;
	u64 start;
};

/**
 * struct qaic_desc_slice - Where the requests of one slice are.
 * @offset: Offset of the slice in the buffer object.
 * @size: Bytes of the slice.
 * @first: Index of its first request in the encoded array.
 * @nreqs: Number of its requests; never 0.
 */
struct qaic_desc_slice {
	u64 offset;
	u64 size;
	u32 first;
	u32 nreqs;
};

int qaic_desc_check_slice(const struct qaic_attach_slice_entry *e, u64 bo_size,
			  const char **why);
void qaic_desc_index(struct qaic_desc_seg *segs, u32 nsegs);
int qaic_desc_count(const struct qaic_attach_slice_entry *ents, u32 nents,
		    const struct qaic_desc_seg *segs, u32 nsegs, u32 max_reqs);
int qaic_desc_encode(const struct qaic_attach_slice_entry *ents, u32 nents,
		     const struct qaic_desc_seg *segs, u32 nsegs,
		     enum dma_data_direction dir, struct qaic_desc_slice *slices,
		     struct qaic_dbc_req *reqs, u32 max_reqs);
u32 qaic_desc_resize_slice(const struct qaic_desc_slice *slice,
			   const struct qaic_dbc_req *reqs, u64 resize,
			   struct qaic_dbc_req *last);
int qaic_desc_resize(const struct qaic_desc_slice *slices, u32 nslices,
		     const struct qaic_dbc_req *reqs, u64 resize,
		     struct qaic_dbc_req *out, u32 max_out);
u32 qaic_desc_ring_free(u32 head, u32 tail, u32 nelem);
u32 qaic_desc_ring_copy(struct qaic_dbc_req *ring, u32 nelem, u32 tail,
			const struct qaic_dbc_req *reqs, u32 n, u16 req_id);

#endif /* _QAIC_DESC_H_ */
