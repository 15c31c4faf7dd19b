/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The qaic authors.
 */

#ifndef _QAIC_MANAGE_H_
#define _QAIC_MANAGE_H_

#include <linux/types.h>

struct drm_device;
struct drm_file;
struct qaic_device;

int qaic_manage_ioctl(struct drm_device *drm, void *data, struct drm_file *file);
int qaic_manage_terminate(struct qaic_device *qdev, u32 handle);

#endif /* _QAIC_MANAGE_H_ */
