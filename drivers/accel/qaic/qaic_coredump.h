/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The qaic authors.
 */

#ifndef _QAIC_COREDUMP_H_
#define _QAIC_COREDUMP_H_

#include <linux/types.h>

struct qaic_device;
struct qaic_queue;

void qaic_coredump_card_crash(struct qaic_device *qdev);
void qaic_coredump_dbc_hang(struct qaic_queue *q);
void qaic_coredump_submit(struct qaic_device *qdev, void *buf, size_t len);
int qaic_coredump_init(struct qaic_device *qdev);
void qaic_coredump_flush(struct qaic_device *qdev);

#endif /* _QAIC_COREDUMP_H_ */
