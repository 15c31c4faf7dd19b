/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The qaic authors.
 */

#ifndef _QAIC_RESET_H_
#define _QAIC_RESET_H_

#include <linux/pci.h>
#include <linux/pm.h>
#include <linux/types.h>

struct qaic_device;

extern const struct pci_error_handlers qaic_pci_err_handlers;
extern const struct dev_pm_ops qaic_pm_ops;
void qaic_reset_debugfs_init(struct qaic_device *qdev);
int qaic_reset_init(void);
void qaic_reset_fini(void);
bool qaic_reset_check_card(struct qaic_device *qdev);
void qaic_reset_card(struct qaic_device *qdev, const char *why);
void qaic_reset_card_now(struct qaic_device *qdev, const char *why);
void qaic_reset_manager_silent(struct qaic_device *qdev);
void qaic_reset_manager_answered(struct qaic_device *qdev);

#endif /* _QAIC_RESET_H_ */
