/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The qaic authors.
 */

#ifndef _QAIC_GEM_H_
#define _QAIC_GEM_H_

#include <linux/container_of.h>

#include <drm/drm_gem_shmem_helper.h>

struct drm_device;
struct drm_file;

/**
 * struct qaic_bo - A buffer object: pages of shmem the card reads or writes.
 * @base: The shmem GEM object; must stay the first member, as the shmem
 *	  helpers free the object through a pointer to it.
 */
struct qaic_bo {
	struct drm_gem_shmem_object base;
};

static inline struct qaic_bo *to_qaic_bo(struct drm_gem_object *obj)
{
	return container_of(obj, struct qaic_bo, base.base);
}

struct drm_gem_object *qaic_gem_create_object(struct drm_device *drm, size_t size);

int qaic_create_bo_ioctl(struct drm_device *drm, void *data, struct drm_file *file);
int qaic_mmap_bo_ioctl(struct drm_device *drm, void *data, struct drm_file *file);

#endif /* _QAIC_GEM_H_ */
