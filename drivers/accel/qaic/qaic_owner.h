/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The qaic authors.
 */

#ifndef _QAIC_OWNER_H_
#define _QAIC_OWNER_H_

#include <linux/types.h>

struct qaic_device;
struct qaic_file_priv;
struct qaic_nnc_answer;
struct qaic_nnc_ring;
struct qaic_pin;

/**
 * struct qaic_ring_mem - The memory of a DBC's rings, coherent DMA.
 * @cpu: CPU address; NULL when there is none.
 * @dma: DMA address.
 * @size: Bytes.
 */
struct qaic_ring_mem {
	void *cpu;
	dma_addr_t dma;
	size_t size;
};

/* What a MANAGE call (qaic_manage.c) hands to the owner, and when. */
int qaic_owner_alloc_ring(struct qaic_device *qdev, u32 nelem, struct qaic_ring_mem *mem,
			  struct qaic_nnc_ring *ring);
void qaic_owner_free_ring(struct qaic_device *qdev, struct qaic_ring_mem *mem);
int qaic_owner_take_dbcs(struct qaic_device *qdev, u32 id, u32 mask);
void qaic_owner_return_dbcs(struct qaic_device *qdev, u32 id, u32 mask);
void qaic_owner_account(struct qaic_device *qdev, u32 id, const struct qaic_nnc_answer *ans,
			bool released, struct qaic_ring_mem *mem, u32 nelem);
void qaic_owner_park(struct qaic_device *qdev, struct qaic_file_priv *priv,
		     struct qaic_ring_mem *mem, struct qaic_pin *pin);

#endif /* _QAIC_OWNER_H_ */
