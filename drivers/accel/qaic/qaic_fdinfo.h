/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The qaic authors.
 */

#ifndef _QAIC_FDINFO_H_
#define _QAIC_FDINFO_H_

#include <linux/ktime.h>
#include <linux/types.h>

struct drm_file;
struct drm_printer;
struct qaic_queue;

void qaic_show_fdinfo(struct drm_printer *p, struct drm_file *file);
void qaic_fdinfo_busy_begin(struct qaic_queue *q, ktime_t now);
void qaic_fdinfo_busy_end(struct qaic_queue *q, ktime_t now);

#endif /* _QAIC_FDINFO_H_ */
