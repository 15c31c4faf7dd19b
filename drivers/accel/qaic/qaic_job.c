// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The qaic authors.
 */

/**
 * DOC: qaic jobs
 *
 * DRM_IOCTL_QAIC_EXECUTE_BO and DRM_IOCTL_QAIC_PARTIAL_EXECUTE_BO queue
 * sliced buffer objects on a DMA Bridge Channel; DRM_IOCTL_QAIC_WAIT_BO
 * waits for one to complete and DRM_IOCTL_QAIC_PERF_STATS_BO reports how
 * long its last execution took.
 */

#include <linux/slab.h>
#include <linux/string.h>

#include <drm/drm_drv.h>
#include <drm/drm_print.h>

#include <uapi/drm/qaic_accel.h>

#include "qaic_drv.h"

static int qaic_check_execute_hdr(struct drm_device *drm, const struct qaic_execute *args)
{
	if (!args->hdr.count) {
		drm_dbg(drm, "execute: count 0\n");
		return -EINVAL;
	}
	return -EOPNOTSUPP;
}

int qaic_execute_bo_ioctl(struct drm_device *drm, void *data, struct drm_file *file)
{
	int ret;
	int idx;

	if (!drm_dev_enter(drm, &idx))
		return -ENODEV;
	ret = qaic_check_execute_hdr(drm, data);
	drm_dev_exit(idx);
	return ret;
}

int qaic_partial_execute_bo_ioctl(struct drm_device *drm, void *data, struct drm_file *file)
{
	int ret;
	int idx;

	if (!drm_dev_enter(drm, &idx))
		return -ENODEV;
	ret = qaic_check_execute_hdr(drm, data);
	drm_dev_exit(idx);
	return ret;
}

int qaic_wait_bo_ioctl(struct drm_device *drm, void *data, struct drm_file *file)
{
	struct qaic_wait *args = data;
	int ret = -EOPNOTSUPP;
	int idx;

	if (!drm_dev_enter(drm, &idx))
		return -ENODEV;

	if (args->pad) {
		drm_dbg(drm, "wait_bo: pad %#x is not 0\n", args->pad);
		ret = -EINVAL;
	}

	drm_dev_exit(idx);
	return ret;
}

static int qaic_check_perf_stats_entries(struct drm_device *drm,
					 const struct qaic_perf_stats *args)
{
	struct qaic_perf_stats_entry *entries;
	int ret = -EOPNOTSUPP;
	u16 i;

	entries = memdup_array_user(u64_to_user_ptr(args->data), args->hdr.count,
				    sizeof(*entries));
	if (IS_ERR(entries))
		return PTR_ERR(entries);

	for (i = 0; i < args->hdr.count; i++) {
		if (entries[i].pad) {
			drm_dbg(drm, "perf_stats: entry %u pad %#x is not 0\n",
				i, entries[i].pad);
			ret = -EINVAL;
			break;
		}
	}
	kfree(entries);
	return ret;
}

int qaic_perf_stats_bo_ioctl(struct drm_device *drm, void *data, struct drm_file *file)
{
	struct qaic_perf_stats *args = data;
	int ret;
	int idx;

	if (!drm_dev_enter(drm, &idx))
		return -ENODEV;

	if (args->hdr.pad) {
		drm_dbg(drm, "perf_stats: pad %#x is not 0\n", args->hdr.pad);
		ret = -EINVAL;
	} else if (!args->hdr.count) {
		drm_dbg(drm, "perf_stats: count 0\n");
		ret = -EINVAL;
	} else {
		ret = qaic_check_perf_stats_entries(drm, args);
	}

	drm_dev_exit(idx);
	return ret;
}
