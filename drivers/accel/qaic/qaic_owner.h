/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The qaic authors.
 */

#ifndef _QAIC_OWNER_H_
#define _QAIC_OWNER_H_

#include <linux/types.h>

#include "qaic_drv.h"

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

/**
 * enum qaic_release - What the card said of memory the host lets go of.
 * @QAIC_NOT_GIVEN: Nothing: it never learnt of it (the message that named
 *		    it never went out).
 * @QAIC_CONFIRMED: It is done with it: it answered the message that used
 *		    it, or released it.
 * @QAIC_UNCONFIRMED: Nothing, though it may have it: the message went out
 *		      and no answer came.
 */
enum qaic_release {
	QAIC_NOT_GIVEN,
	QAIC_CONFIRMED,
	QAIC_UNCONFIRMED,
};

/* What a MANAGE call (qaic_manage.c) hands to the owner, and when. */
int qaic_owner_alloc_ring(struct qaic_device *qdev, u32 nelem, struct qaic_ring_mem *mem,
			  struct qaic_nnc_ring *ring);
int qaic_owner_take_dbcs(struct qaic_device *qdev, u32 id, u32 mask);
void qaic_owner_return_dbcs(struct qaic_device *qdev, u32 id, u32 mask);
void qaic_owner_account(struct qaic_device *qdev, u32 id, const struct qaic_nnc_answer *ans,
			bool released, struct qaic_ring_mem *mem, u32 nelem);
void qaic_owner_let_go(struct qaic_device *qdev, struct qaic_file_priv *priv,
		       struct qaic_ring_mem *mem, struct qaic_pin *pin, enum qaic_release how);

bool qaic_owner_ssr_step(struct qaic_device *qdev, u32 dbc_id, enum qaic_dbc_state step);
void qaic_owner_release_file(struct qaic_device *qdev, struct qaic_file_priv *priv);
void qaic_owner_forget_file(struct qaic_device *qdev, struct qaic_file_priv *priv);
void qaic_owner_release_all(struct qaic_device *qdev);
void qaic_owner_card_crashed(struct qaic_device *qdev);
void qaic_owner_park_all(struct qaic_device *qdev);
void qaic_owner_unpark(struct qaic_device *qdev);

#endif /* _QAIC_OWNER_H_ */
