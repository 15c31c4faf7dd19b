/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The qaic authors.
 */

#ifndef _QAIC_BOOTLOG_H_
#define _QAIC_BOOTLOG_H_

struct qaic_device;

int qaic_bootlog_init(struct qaic_device *qdev);
int qaic_bootlog_register(void);
void qaic_bootlog_unregister(void);

#endif /* _QAIC_BOOTLOG_H_ */
