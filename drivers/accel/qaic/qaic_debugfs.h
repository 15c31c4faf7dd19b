/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The qaic authors.
 */

#ifndef _QAIC_DEBUGFS_H_
#define _QAIC_DEBUGFS_H_

#include <linux/types.h>

struct qaic_device;

void qaic_debugfs_dbc_init(struct qaic_device *qdev);

#endif /* _QAIC_DEBUGFS_H_ */
