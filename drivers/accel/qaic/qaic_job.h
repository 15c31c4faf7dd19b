/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The qaic authors.
 */

#ifndef _QAIC_JOB_H_
#define _QAIC_JOB_H_

#include <linux/types.h>

struct drm_device;
struct drm_file;

int qaic_execute_bo_ioctl(struct drm_device *drm, void *data, struct drm_file *file);
int qaic_partial_execute_bo_ioctl(struct drm_device *drm, void *data, struct drm_file *file);
int qaic_wait_bo_ioctl(struct drm_device *drm, void *data, struct drm_file *file);
int qaic_perf_stats_bo_ioctl(struct drm_device *drm, void *data, struct drm_file *file);

#endif /* _QAIC_JOB_H_ */
