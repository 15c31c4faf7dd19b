// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The qaic authors.
 */

/**
 * DOC: qaic manage
 *
 * DRM_IOCTL_QAIC_MANAGE carries a message of transactions for the card's
 * manager (activate and deactivate DMA Bridge Channels, load a network by
 * DMA transfer, passthrough requests) and returns the manager's answer in
 * the same buffer. This file owns the ioctl: copy-in and the checks on the
 * message as a whole.
 */

#include <drm/drm_drv.h>
#include <drm/drm_print.h>

#include <uapi/drm/qaic_accel.h>

#include "qaic_drv.h"

int qaic_manage_ioctl(struct drm_device *drm, void *data, struct drm_file *file)
{
	struct qaic_manage_msg *msg = data;
	int ret = -EOPNOTSUPP;
	int idx;

	if (!drm_dev_enter(drm, &idx))
		return -ENODEV;

	if (msg->len < sizeof(struct qaic_manage_trans_hdr) ||
	    msg->len > QAIC_MANAGE_MAX_MSG_LENGTH - sizeof(msg->len) - sizeof(msg->count)) {
		drm_dbg(drm, "manage: len %u out of range\n", msg->len);
		ret = -EINVAL;
	} else if (!msg->count || msg->count > msg->len / sizeof(struct qaic_manage_trans_hdr)) {
		drm_dbg(drm, "manage: count %u does not fit len %u\n", msg->count, msg->len);
		ret = -EINVAL;
	}

	drm_dev_exit(idx);
	return ret;
}
