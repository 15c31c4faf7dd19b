// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The qaic authors.
 */

/**
 * DOC: qaic buffer objects
 *
 * Buffers are GEM objects created with DRM_IOCTL_QAIC_CREATE_BO and mapped
 * into userspace at the offset DRM_IOCTL_QAIC_MMAP_BO returns.
 */

#include <drm/drm_drv.h>
#include <drm/drm_print.h>

#include <uapi/drm/qaic_accel.h>

#include "qaic_drv.h"

int qaic_create_bo_ioctl(struct drm_device *drm, void *data, struct drm_file *file)
{
	struct qaic_create_bo *args = data;
	int ret = -EOPNOTSUPP;
	int idx;

	if (!drm_dev_enter(drm, &idx))
		return -ENODEV;

	if (args->pad) {
		drm_dbg(drm, "create_bo: pad %#x is not 0\n", args->pad);
		ret = -EINVAL;
	} else if (!args->size) {
		drm_dbg(drm, "create_bo: size 0\n");
		ret = -EINVAL;
	}

	drm_dev_exit(idx);
	return ret;
}

int qaic_mmap_bo_ioctl(struct drm_device *drm, void *data, struct drm_file *file)
{
	struct qaic_mmap_bo *args = data;
	int ret = -EOPNOTSUPP;
	int idx;

	if (!drm_dev_enter(drm, &idx))
		return -ENODEV;

	if (args->pad) {
		drm_dbg(drm, "mmap_bo: pad %#x is not 0\n", args->pad);
		ret = -EINVAL;
	}

	drm_dev_exit(idx);
	return ret;
}
