/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The qaic authors.
 */

#ifndef _QAIC_GEM_H_
#define _QAIC_GEM_H_

#include <linux/container_of.h>
#include <linux/spinlock.h>

#include <drm/drm_gem_shmem_helper.h>

struct dma_buf;
struct drm_device;
struct drm_file;
struct qaic_dbc_req;
struct qaic_device;
struct sg_table;
struct qaic_desc_slice;

/**
 * struct qaic_bo_slicing - How a buffer object is cut into DMA requests.
 * @activation: The grant of @dbc_id it was made under (&qaic_dbc.activation).
 *		Once that DBC is released the slicing is stale: an attach
 *		replaces it, as if the release had detached it.
 * @dbc_id: The DMA Bridge Channel it was sliced for.
 * @dir: uapi direction: 1 to the device, 2 from it.
 * @nslices: Entries at @slices; each completes with one response.
 * @nreqs: Entries at @reqs: ring slots one execution takes.
 * @slices: Where each slice's requests are in @reqs.
 * @reqs: The requests, encoded once at attach with req_id 0.
 */
struct qaic_bo_slicing {
	u64 activation;
	u32 dbc_id;
	u32 dir;
	u32 nslices;
	u32 nreqs;
	struct qaic_desc_slice *slices;
	struct qaic_dbc_req *reqs;
};

/**
 * struct qaic_bo_stats - Timing of the last completed execution.
 * @queue_level: Ring slots in use ahead of it when it was queued.
 * @nreqs: Ring slots it took.
 * @submit_us: Microseconds from the ioctl to the doorbell.
 * @device_us: Microseconds from the doorbell to its completion.
 */
struct qaic_bo_stats {
	u32 queue_level;
	u32 nreqs;
	u32 submit_us;
	u32 device_us;
};

/**
 * struct qaic_bo - A buffer object: pages of shmem the card reads or writes.
 * @base: The shmem GEM object; must stay the first member, as the shmem
 *	  helpers free the object through a pointer to it.
 * @sgt: The pages as the card sees them, set by qaic_bo_map() under the
 *	 reservation lock before the first slicing and kept until the object is
 *	 freed or the card unplugged: our own mapping of pinned pages, or an
 *	 imported object's table.
 * @mapped_node: In &qaic_device.mapped while @sgt is set.
 * @slicing: The slices attached; NULL if none. Protected by the object's
 *	     reservation lock. Detach refuses while a fence of the object is
 *	     unsignalled, so a job may use it without the lock until it ran.
 * @stats_lock: Protects @stats and @last_error, written at completion.
 * @stats: The last completed execution; all 0 once a later job failed
 *	  before it reached the device.
 * @last_error: 0, or the error its last completed job failed with.
 */
struct qaic_bo {
	struct drm_gem_shmem_object base;
	struct sg_table *sgt;
	struct list_head mapped_node;
	struct qaic_bo_slicing *slicing;
	spinlock_t stats_lock; /* Protects @stats and @last_error */
	struct qaic_bo_stats stats;
	int last_error;
};

static inline struct qaic_bo *to_qaic_bo(struct drm_gem_object *obj)
{
	return container_of(obj, struct qaic_bo, base.base);
}

struct drm_gem_object *qaic_gem_create_object(struct drm_device *drm, size_t size);

struct sg_table *qaic_bo_map(struct qaic_bo *bo);
void qaic_gem_unmap_all(struct qaic_device *qdev);
void qaic_bo_free_slicing(struct qaic_bo_slicing *slicing);

int qaic_create_bo_ioctl(struct drm_device *drm, void *data, struct drm_file *file);
int qaic_mmap_bo_ioctl(struct drm_device *drm, void *data, struct drm_file *file);

#endif /* _QAIC_GEM_H_ */
