/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The qaic authors.
 */

#ifndef _QAIC_MHI_RX_H_
#define _QAIC_MHI_RX_H_

#include <linux/types.h>

struct mhi_device;
struct mhi_result;

/*
 * Called in process context with each message the card sent, in order:
 * @len bytes at @buf, or a negative errno (@buf then unused) if the
 * transfer failed, or -ETIMEDOUT once the time the handler last gave
 * qaic_mhi_rx_expect() passed. @buf is valid until it returns.
 * Calls never overlap.
 */
typedef void (*qaic_mhi_rx_fn)(void *ctx, const void *buf, int len);

int qaic_mhi_rx_start(struct mhi_device *mhi_dev, size_t len, size_t size, qaic_mhi_rx_fn fn,
		      void *ctx);
void qaic_mhi_rx_set_len(struct mhi_device *mhi_dev, size_t len);
void qaic_mhi_rx_expect(struct mhi_device *mhi_dev, unsigned long timeout);
void qaic_mhi_rx_stop(struct mhi_device *mhi_dev);
void *qaic_mhi_rx_ctx(struct mhi_device *mhi_dev);
void qaic_mhi_rx_xfer_cb(struct mhi_device *mhi_dev, struct mhi_result *result);
void qaic_mhi_tx_free_cb(struct mhi_device *mhi_dev, struct mhi_result *result);

#endif /* _QAIC_MHI_RX_H_ */
