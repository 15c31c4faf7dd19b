/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The qaic authors.
 */

#ifndef _QAIC_JOB_H_
#define _QAIC_JOB_H_

#include <linux/types.h>

struct dma_fence;
struct drm_device;
struct drm_file;

/**
 * struct qaic_execute_fences - Explicit fences of an execute.
 * @in: Fences the execution waits for; references, taken over.
 * @nin: Entries at @in.
 * @out: If not NULL, set to a reference to the fence that signals when the
 *	 last entry completes.
 */
struct qaic_execute_fences {
	struct dma_fence **in;
	u32 nin;
	struct dma_fence **out;
};

int qaic_execute_check_count(struct drm_device *drm, u32 count);
int qaic_execute_run(struct drm_device *drm, struct drm_file *file, u32 dbc_id, u64 data,
		     u32 count, bool partial, struct qaic_execute_fences *f);

int qaic_execute_bo_ioctl(struct drm_device *drm, void *data, struct drm_file *file);
int qaic_partial_execute_bo_ioctl(struct drm_device *drm, void *data, struct drm_file *file);
int qaic_wait_bo_ioctl(struct drm_device *drm, void *data, struct drm_file *file);
int qaic_perf_stats_bo_ioctl(struct drm_device *drm, void *data, struct drm_file *file);

#endif /* _QAIC_JOB_H_ */
