/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The qaic authors.
 */

#ifndef _QAIC_SYSFS_H_
#define _QAIC_SYSFS_H_

#include <linux/types.h>

#include "qaic_drv.h"

enum qaic_dbc_state qaic_dbc_state(const struct qaic_dbc *dbc);
int qaic_dbc_uevents_init(struct qaic_device *qdev);
void qaic_dbc_state_changed(struct qaic_device *qdev, u32 dbc_id);
void qaic_dbc_state_changed_by_card(struct qaic_device *qdev, u32 dbc_id);
void qaic_card_announce(struct qaic_device *qdev);
void qaic_sysfs_init(struct qaic_device *qdev);
void qaic_sysfs_fini(struct qaic_device *qdev);

#endif /* _QAIC_SYSFS_H_ */
