/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The qaic authors.
 */

#ifndef _QAIC_RAS_H_
#define _QAIC_RAS_H_

struct qaic_device;

int qaic_ras_init(struct qaic_device *qdev);
int qaic_ras_register(void);
void qaic_ras_unregister(void);

#endif /* _QAIC_RAS_H_ */
