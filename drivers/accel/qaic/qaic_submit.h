/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The qaic authors.
 */

#ifndef _QAIC_SUBMIT_H_
#define _QAIC_SUBMIT_H_

#include <linux/types.h>

struct drm_device;
struct drm_file;

int qaic_submit_ioctl(struct drm_device *drm, void *data, struct drm_file *file);

#endif /* _QAIC_SUBMIT_H_ */
