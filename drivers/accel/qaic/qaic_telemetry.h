/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The qaic authors.
 */

#ifndef _QAIC_TELEMETRY_H_
#define _QAIC_TELEMETRY_H_

struct qaic_device;

int qaic_telemetry_init(struct qaic_device *qdev);
int qaic_telemetry_register(void);
void qaic_telemetry_unregister(void);

#endif /* _QAIC_TELEMETRY_H_ */
