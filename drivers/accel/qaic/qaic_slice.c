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
 *
 * What userspace sizes is bounded and charged to its memory cgroup: at most
 * as many requests as the DBC's ring can take (so at most 4 MiB of them),
 * and at most %QAIC_SLICE_MAX_EMPTY slices of size 0, which move nothing
 * and only serve their semaphores and doorbell. The user entries are
 * copied, the object mapped and the requests encoded before the DBC is
 * locked: a DBC's lock must never wait for a user page fault.
 */

#include <linux/dma-resv.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>
#include <linux/string.h>

#include <drm/drm_drv.h>
#include <drm/drm_gem.h>
#include <drm/drm_print.h>

#include <uapi/drm/qaic_accel.h>

#include "qaic_compat.h"
#include "qaic_desc.h"
#include "qaic_drv.h"
#include "qaic_gem.h"
#include "qaic_queue.h"
#include "qaic_slice.h"

/*
 * A new slicing, or none, is a new program for the object: WAIT_BO does not
 * report the error of a job of the old one. PERF_STATS keeps its numbers
 * (uapi.rst: they belong to the object's last execution).
 */
static void qaic_bo_forget_error(struct qaic_bo *bo)
{
	spin_lock(&bo->stats_lock);
	bo->last_error = 0;
	spin_unlock(&bo->stats_lock);
}

/* Slices of size 0 one object may have. */
#define QAIC_SLICE_MAX_EMPTY	64

/* The object's DMA mapping as the encoder wants it: segments, indexed. */
static struct qaic_desc_seg *qaic_slice_segs(struct sg_table *sgt, u32 *nsegs)
{
	struct qaic_desc_seg *segs;
	struct scatterlist *sg;
	unsigned int i;

	segs = kvmalloc_array(sgt->nents, sizeof(*segs), QAIC_GFP_USER);
	if (!segs)
		return NULL;
	for_each_sgtable_dma_sg(sgt, sg, i)
		segs[i] = (struct qaic_desc_seg){
			.addr = sg_dma_address(sg),
			.len = sg_dma_len(sg),
		};
	*nsegs = sgt->nents;
	qaic_desc_index(segs, *nsegs);
	return segs;
}

/* Maps the object and encodes its requests, at most @max_reqs of them. */
static int qaic_slice_encode(struct qaic_device *qdev, struct qaic_bo *bo,
			     const struct qaic_attach_slice *args,
			     const struct qaic_attach_slice_entry *ents,
			     u32 max_reqs, struct qaic_bo_slicing **out)
{
	struct drm_device *drm = &qdev->drm;
	struct qaic_bo_slicing *slicing;
	struct qaic_desc_seg *segs;
	struct sg_table *sgt;
	u32 count = args->hdr.count;
	u32 nsegs;
	int n, ret;

	/* Pins and maps the whole object once; both last until it is freed. */
	ret = dma_resv_lock_interruptible(bo->base.base.resv, NULL);
	if (ret)
		return ret;
	sgt = qaic_bo_map(bo);
	dma_resv_unlock(bo->base.base.resv);
	if (IS_ERR(sgt)) {
		drm_dbg(drm, "attach_slice: handle %u: cannot map: %ld\n",
			args->hdr.handle, PTR_ERR(sgt));
		return PTR_ERR(sgt);
	}
	segs = qaic_slice_segs(sgt, &nsegs);
	if (!segs)
		return -ENOMEM;

	n = qaic_desc_count(ents, count, segs, nsegs, max_reqs);
	if (n == -ENOSPC) {
		drm_dbg(drm, "attach_slice: more requests than the %u DBC %u takes\n",
			max_reqs, args->hdr.dbc_id);
		ret = n;
		goto out;
	}
	if (n < 0) {
		ret = n;
		drm_dbg(drm, "attach_slice: handle %u: cannot count requests: %d\n",
			args->hdr.handle, ret);
		goto out;
	}

	ret = -ENOMEM;
	slicing = kzalloc_obj(*slicing, QAIC_GFP_USER);
	if (!slicing)
		goto out;
	slicing->slices = kvcalloc(count, sizeof(*slicing->slices), QAIC_GFP_USER);
	slicing->reqs = kvcalloc(n, sizeof(*slicing->reqs), QAIC_GFP_USER);
	if (!slicing->slices || !slicing->reqs) {
		qaic_bo_free_slicing(slicing);
		goto out;
	}

	ret = qaic_desc_encode(ents, count, segs, nsegs,
			       args->hdr.dir == QAIC_DIR_TO_DEV ? DMA_TO_DEVICE : DMA_FROM_DEVICE,
			       slicing->slices, slicing->reqs, n);
	if (ret != n) {
		drm_dbg(drm, "attach_slice: encoding failed: %d\n", ret);
		qaic_bo_free_slicing(slicing);
		ret = ret < 0 ? ret : -EINVAL;
		goto out;
	}
	slicing->dbc_id = args->hdr.dbc_id;
	slicing->dir = args->hdr.dir;
	slicing->nslices = count;
	slicing->nreqs = n;
	*out = slicing;
	ret = 0;
out:
	kvfree(segs);
	return ret;
}

static int qaic_slice_check_entries(struct drm_device *drm,
				    const struct qaic_attach_slice_entry *ents, u32 count,
				    u64 bo_size)
{
	const char *why;
	u32 i, empty = 0;

	for (i = 0; i < count; i++) {
		if (qaic_desc_check_slice(&ents[i], bo_size, &why)) {
			drm_dbg(drm, "attach_slice: entry %u: %s\n", i, why);
			return -EINVAL;
		}
		if (!ents[i].size && ++empty > QAIC_SLICE_MAX_EMPTY) {
			drm_dbg(drm, "attach_slice: entry %u: more than %u slices of size 0\n",
				i, QAIC_SLICE_MAX_EMPTY);
			return -EINVAL;
		}
	}
	return 0;
}

/* The most requests the DBC takes, if the file holds it. */
static int qaic_slice_max_reqs(struct qaic_device *qdev, struct drm_file *file, u32 dbc_id,
			       u32 *max_reqs)
{
	struct qaic_dbc *dbc;

	dbc = qaic_dbc_lock_owned(qdev, file, dbc_id, "attach_slice");
	if (IS_ERR(dbc))
		return PTR_ERR(dbc);
	*max_reqs = dbc->queue->max_credits;
	mutex_unlock(&dbc->lock);
	return 0;
}

/*
 * Whether @slicing (may be NULL) still belongs to its DBC's grant. A DBC
 * released since (deactivated, its file closed, the card reset, a
 * subsystem restart) leaves it stale, as if detached: runtimes re-attach
 * their objects after a recovery. The DBC's lock need not be held: a
 * grant only ever gives a DBC a new number.
 */
static bool qaic_slicing_live(struct qaic_device *qdev, const struct qaic_bo_slicing *slicing)
{
	return slicing &&
	       slicing->activation == READ_ONCE(qdev->dbc[slicing->dbc_id].activation);
}

static int qaic_attach_slice(struct qaic_device *qdev, struct qaic_attach_slice *args,
			     struct drm_file *file)
{
	struct drm_device *drm = &qdev->drm;
	struct qaic_attach_slice_entry *ents;
	struct qaic_bo_slicing *slicing = NULL;
	struct drm_gem_object *obj;
	struct qaic_dbc *dbc;
	struct qaic_bo *bo;
	u32 max_reqs;
	int ret;

	ret = qaic_slice_max_reqs(qdev, file, args->hdr.dbc_id, &max_reqs);
	if (ret)
		return ret;

	/* Every slice takes a ring slot at least. */
	if (args->hdr.count > max_reqs) {
		drm_dbg(drm, "attach_slice: %u slices, DBC %u takes %u requests\n",
			args->hdr.count, args->hdr.dbc_id, max_reqs);
		return -ENOSPC;
	}

	ents = vmemdup_array_user(u64_to_user_ptr(args->data), args->hdr.count, sizeof(*ents));
	if (IS_ERR(ents))
		return PTR_ERR(ents);

	obj = drm_gem_object_lookup(file, args->hdr.handle);
	if (!obj) {
		drm_dbg(drm, "attach_slice: no object with handle %u\n", args->hdr.handle);
		ret = -ENOENT;
		goto free_ents;
	}
	bo = to_qaic_bo(obj);

	ret = qaic_slice_check_entries(drm, ents, args->hdr.count, obj->size);
	if (ret)
		goto put;

	/* Cheap refusal first; checked again under the lock. */
	if (qaic_slicing_live(qdev, READ_ONCE(bo->slicing))) {
		drm_dbg(drm, "attach_slice: handle %u is sliced already\n", args->hdr.handle);
		ret = -EINVAL;
		goto put;
	}

	ret = qaic_slice_encode(qdev, bo, args, ents, max_reqs, &slicing);
	if (ret)
		goto put;

	/* The DBC may have been deactivated, or activated again, meanwhile. */
	dbc = qaic_dbc_lock_owned(qdev, file, args->hdr.dbc_id, "attach_slice");
	if (IS_ERR(dbc)) {
		ret = PTR_ERR(dbc);
		goto put;
	}
	if (slicing->nreqs > dbc->queue->max_credits) {
		drm_dbg(drm, "attach_slice: %u requests, DBC %u takes %u\n",
			slicing->nreqs, args->hdr.dbc_id, dbc->queue->max_credits);
		ret = -ENOSPC;
		goto unlock;
	}
	ret = dma_resv_lock_interruptible(obj->resv, NULL);
	if (ret)
		goto unlock;
	if (qaic_slicing_live(qdev, bo->slicing)) {
		drm_dbg(drm, "attach_slice: handle %u is sliced already\n", args->hdr.handle);
		ret = -EINVAL;
	} else if (bo->slicing &&
		   !dma_resv_test_signaled(obj->resv, DMA_RESV_USAGE_BOOKKEEP)) {
		/* Jobs of the released DBC may still read the old requests. */
		drm_dbg(drm, "attach_slice: handle %u has work queued\n", args->hdr.handle);
		ret = -EBUSY;
	} else {
		slicing->activation = dbc->activation;
		swap(bo->slicing, slicing);
		qaic_bo_forget_error(bo);
	}
	dma_resv_unlock(obj->resv);
unlock:
	mutex_unlock(&dbc->lock);
put:
	qaic_bo_free_slicing(slicing);
	drm_gem_object_put(obj);
free_ents:
	kvfree(ents);
	return ret;
}

int qaic_attach_slice_bo_ioctl(struct drm_device *drm, void *data, struct drm_file *file)
{
	struct qaic_attach_slice *args = data;
	int ret;
	int idx;

	if (!args->hdr.count) {
		drm_dbg(drm, "attach_slice: count 0\n");
		return -EINVAL;
	}
	if (args->hdr.dir != QAIC_DIR_TO_DEV && args->hdr.dir != QAIC_DIR_FROM_DEV) {
		drm_dbg(drm, "attach_slice: dir %u invalid\n", args->hdr.dir);
		return -EINVAL;
	}

	if (!drm_dev_enter(drm, &idx))
		return -ENODEV;
	ret = qaic_attach_slice(to_qaic_device(drm), args, file);
	drm_dev_exit(idx);
	return ret;
}

int qaic_detach_slice_bo_ioctl(struct drm_device *drm, void *data, struct drm_file *file)
{
	struct qaic_detach_slice *args = data;
	struct qaic_bo_slicing *slicing = NULL;
	struct drm_gem_object *obj;
	struct qaic_bo *bo;
	int ret;

	if (args->pad) {
		drm_dbg(drm, "detach_slice: pad %#x is not 0\n", args->pad);
		return -EINVAL;
	}

	obj = drm_gem_object_lookup(file, args->handle);
	if (!obj) {
		drm_dbg(drm, "detach_slice: no object with handle %u\n", args->handle);
		return -ENOENT;
	}
	bo = to_qaic_bo(obj);

	ret = dma_resv_lock_interruptible(obj->resv, NULL);
	if (ret)
		goto put;
	if (!bo->slicing) {
		drm_dbg(drm, "detach_slice: handle %u is not sliced\n", args->handle);
		ret = -EINVAL;
	} else if (!dma_resv_test_signaled(obj->resv, DMA_RESV_USAGE_BOOKKEEP)) {
		/* Queued jobs still read the requests. */
		drm_dbg(drm, "detach_slice: handle %u has work queued\n", args->handle);
		ret = -EBUSY;
	} else {
		slicing = bo->slicing;
		bo->slicing = NULL;
		qaic_bo_forget_error(bo);
	}
	dma_resv_unlock(obj->resv);
	qaic_bo_free_slicing(slicing);
put:
	drm_gem_object_put(obj);
	return ret;
}
