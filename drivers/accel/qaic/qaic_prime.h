/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The qaic authors.
 */

#ifndef _QAIC_PRIME_H_
#define _QAIC_PRIME_H_

struct dma_buf;
struct drm_device;
struct drm_gem_object;

struct dma_buf *qaic_gem_prime_export(struct drm_gem_object *obj, int flags);
struct drm_gem_object *qaic_gem_prime_import(struct drm_device *drm, struct dma_buf *dmabuf);

#endif /* _QAIC_PRIME_H_ */
