/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The qaic authors.
 */

#ifndef _QAIC_MHI_H_
#define _QAIC_MHI_H_

#include <linux/types.h>

struct mhi_controller;
struct qaic_device;

int qaic_mhi_init(struct qaic_device *qdev);
void qaic_mhi_stop(struct qaic_device *qdev);
void qaic_mhi_start(struct qaic_device *qdev);
struct qaic_device *qaic_mhi_to_qdev(struct mhi_controller *mhi);
__printf(2, 3) void qaic_mhi_boot_fail(struct qaic_device *qdev, const char *fmt, ...);
bool qaic_mhi_boot_failed(struct qaic_device *qdev);

#endif /* _QAIC_MHI_H_ */
