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

#include <linux/dma-mapping.h>
#include <linux/dma-resv.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <linux/ww_mutex.h>

#include <drm/drm_drv.h>
#include <drm/drm_gem.h>
#include <drm/drm_print.h>
#include <drm/gpu_scheduler.h>

#include <uapi/drm/qaic_accel.h>

#include "qaic_desc.h"
#include "qaic_drv.h"
#include "qaic_gem.h"
#include "qaic_queue.h"

/*
 * Most objects one execute queues. All of them are locked at once, and the
 * array of entries must stay a small allocation.
 */
#define QAIC_EXECUTE_MAX	4096

/* Resize that means "all of it" for the entries of a full execute. */
#define QAIC_RESIZE_NONE	U64_MAX

/* The entries of either execute ioctl, as partial ones. */
static struct qaic_partial_execute_entry *
qaic_execute_copy_entries(const struct qaic_execute *args, bool partial)
{
	struct qaic_partial_execute_entry *ents;
	struct qaic_execute_entry *full;
	u32 i, n = args->hdr.count;

	if (partial)
		return vmemdup_array_user(u64_to_user_ptr(args->data), n, sizeof(*ents));

	full = vmemdup_array_user(u64_to_user_ptr(args->data), n, sizeof(*full));
	if (IS_ERR(full))
		return ERR_CAST(full);
	ents = kvmalloc_array(n, sizeof(*ents), GFP_KERNEL);
	if (ents) {
		for (i = 0; i < n; i++)
			ents[i] = (struct qaic_partial_execute_entry){
				.handle = full[i].handle,
				.dir = full[i].dir,
				.resize = QAIC_RESIZE_NONE,
			};
	}
	kvfree(full);
	return ents ?: ERR_PTR(-ENOMEM);
}

/* Checks one entry against its object; the object's reservation is locked. */
static int qaic_execute_check(struct drm_device *drm, const struct qaic_partial_execute_entry *e,
			      struct drm_gem_object *obj, u32 dbc_id, const struct qaic_queue *q)
{
	const struct qaic_bo_slicing *s = to_qaic_bo(obj)->slicing;

	if (!s) {
		drm_dbg(drm, "execute: handle %u is not sliced\n", e->handle);
		return -EINVAL;
	}
	if (s->dbc_id != dbc_id) {
		drm_dbg(drm, "execute: handle %u is sliced for DBC %u, not %u\n",
			e->handle, s->dbc_id, dbc_id);
		return -EINVAL;
	}
	if (e->dir != s->dir) {
		drm_dbg(drm, "execute: handle %u: dir %u, attached with %u\n",
			e->handle, e->dir, s->dir);
		return -EINVAL;
	}
	if (e->resize != QAIC_RESIZE_NONE && e->resize > obj->size) {
		drm_dbg(drm, "execute: handle %u: resize %llu past its size %zu\n",
			e->handle, e->resize, obj->size);
		return -EINVAL;
	}
	/* The DBC was activated again, with a smaller ring. */
	if (s->nreqs > q->max_credits) {
		drm_dbg(drm, "execute: handle %u takes %u requests, DBC %u takes %u\n",
			e->handle, s->nreqs, dbc_id, q->max_credits);
		return -EINVAL;
	}
	return 0;
}

/* Makes the job of one entry, with its implicit dependencies. */
static struct qaic_job *qaic_execute_job(const struct qaic_partial_execute_entry *e,
					 struct drm_gem_object *obj, struct qaic_queue *q,
					 struct drm_file *file)
{
	struct qaic_bo *bo = to_qaic_bo(obj);
	const struct qaic_bo_slicing *s = bo->slicing;
	struct qaic_dbc_req *own = NULL;
	struct qaic_job *job;
	int n = s->nreqs;
	int ret;

	if (e->resize != QAIC_RESIZE_NONE) {
		own = kvmalloc_array(s->nreqs, sizeof(*own), GFP_KERNEL);
		if (!own)
			return ERR_PTR(-ENOMEM);
		n = qaic_desc_resize(s->slices, s->nslices, s->reqs, e->resize, own, s->nreqs);
		if (n < 0) {
			kvfree(own);
			return ERR_PTR(n);
		}
	}

	job = qaic_job_alloc(q, bo, n, file->client_id);
	if (IS_ERR(job)) {
		kvfree(own);
		return job;
	}
	job->reqs = own ?: s->reqs;
	job->own_reqs = own;
	job->nrsps = s->nslices;
	job->write = s->dir == QAIC_DIR_FROM_DEV;

	ret = dma_resv_reserve_fences(obj->resv, 1);
	if (!ret)
		ret = drm_sched_job_add_implicit_dependencies(&job->base, obj, job->write);
	if (ret) {
		qaic_job_free_unqueued(job);
		return ERR_PTR(ret);
	}
	return job;
}

/* Locks the objects, makes the jobs and pushes them; the DBC's lock is held. */
static int qaic_execute_submit(struct drm_device *drm, struct qaic_queue *q, u32 dbc_id,
			       const struct qaic_partial_execute_entry *ents,
			       struct drm_gem_object **objs, u32 count, struct drm_file *file)
{
	struct ww_acquire_ctx ctx;
	struct qaic_job **jobs;
	u32 i, made = 0;
	int ret;

	jobs = kvcalloc(count, sizeof(*jobs), GFP_KERNEL);
	if (!jobs)
		return -ENOMEM;

	ret = drm_gem_lock_reservations(objs, count, &ctx);
	if (ret == -EALREADY) {
		drm_dbg(drm, "execute: an object is in the list twice\n");
		ret = -EINVAL;
	}
	if (ret)
		goto free;

	for (i = 0; i < count; i++) {
		ret = qaic_execute_check(drm, &ents[i], objs[i], dbc_id, q);
		if (ret)
			goto unwind;
	}
	for (made = 0; made < count; made++) {
		jobs[made] = qaic_execute_job(&ents[made], objs[made], q, file);
		if (IS_ERR(jobs[made])) {
			ret = PTR_ERR(jobs[made]);
			goto unwind;
		}
	}

	/* Nothing fails from here: every job is pushed, in order. */
	for (i = 0; i < count; i++) {
		struct qaic_job *job = jobs[i];

		dma_sync_sgtable_for_device(drm->dev, job->bo->base.sgt, DMA_BIDIRECTIONAL);
		drm_sched_job_arm(&job->base);
		dma_resv_add_fence(objs[i]->resv, &job->base.s_fence->finished,
				   job->write ? DMA_RESV_USAGE_WRITE : DMA_RESV_USAGE_READ);
		drm_sched_entity_push_job(&job->base);
	}

unwind:
	if (ret)
		for (i = 0; i < made; i++)
			qaic_job_free_unqueued(jobs[i]);
	drm_gem_unlock_reservations(objs, count, &ctx);
free:
	kvfree(jobs);
	return ret;
}

static int qaic_execute(struct drm_device *drm, struct qaic_execute *args,
			struct drm_file *file, bool partial)
{
	struct qaic_device *qdev = to_qaic_device(drm);
	struct qaic_partial_execute_entry *ents;
	struct drm_gem_object **objs;
	struct qaic_dbc *dbc;
	u32 count = args->hdr.count;
	u32 i;
	int ret;

	if (!count || count > QAIC_EXECUTE_MAX) {
		drm_dbg(drm, "execute: count %u not in 1..%u\n", count, QAIC_EXECUTE_MAX);
		return -EINVAL;
	}

	dbc = qaic_dbc_lock_owned(qdev, file, args->hdr.dbc_id, "execute");
	if (IS_ERR(dbc))
		return PTR_ERR(dbc);

	ents = qaic_execute_copy_entries(args, partial);
	if (IS_ERR(ents)) {
		ret = PTR_ERR(ents);
		goto unlock;
	}

	objs = kvcalloc(count, sizeof(*objs), GFP_KERNEL);
	if (!objs) {
		ret = -ENOMEM;
		goto free_ents;
	}
	for (i = 0; i < count; i++) {
		objs[i] = drm_gem_object_lookup(file, ents[i].handle);
		if (!objs[i]) {
			drm_dbg(drm, "execute: entry %u: no object with handle %u\n",
				i, ents[i].handle);
			ret = -ENOENT;
			goto put;
		}
	}

	ret = qaic_execute_submit(drm, dbc->queue, args->hdr.dbc_id, ents, objs, count, file);
put:
	for (i = 0; i < count && objs[i]; i++)
		drm_gem_object_put(objs[i]);
	kvfree(objs);
free_ents:
	kvfree(ents);
unlock:
	mutex_unlock(&dbc->lock);
	return ret;
}

int qaic_execute_bo_ioctl(struct drm_device *drm, void *data, struct drm_file *file)
{
	int ret;
	int idx;

	if (!drm_dev_enter(drm, &idx))
		return -ENODEV;
	ret = qaic_execute(drm, data, file, false);
	drm_dev_exit(idx);
	return ret;
}

int qaic_partial_execute_bo_ioctl(struct drm_device *drm, void *data, struct drm_file *file)
{
	int ret;
	int idx;

	if (!drm_dev_enter(drm, &idx))
		return -ENODEV;
	ret = qaic_execute(drm, data, file, true);
	drm_dev_exit(idx);
	return ret;
}

/* Checks that the file holds the DBC, without keeping it. */
static int qaic_check_dbc_owned(struct drm_device *drm, struct drm_file *file, u32 dbc_id,
				const char *what)
{
	struct qaic_dbc *dbc;

	dbc = qaic_dbc_lock_owned(to_qaic_device(drm), file, dbc_id, what);
	if (IS_ERR(dbc))
		return PTR_ERR(dbc);
	mutex_unlock(&dbc->lock);
	return 0;
}

static int qaic_wait_bo(struct drm_device *drm, const struct qaic_wait *args,
			struct drm_file *file)
{
	struct drm_gem_object *obj;
	struct qaic_bo *bo;
	long ret;

	ret = qaic_check_dbc_owned(drm, file, args->dbc_id, "wait_bo");
	if (ret)
		return ret;

	obj = drm_gem_object_lookup(file, args->handle);
	if (!obj) {
		drm_dbg(drm, "wait_bo: no object with handle %u\n", args->handle);
		return -ENOENT;
	}
	bo = to_qaic_bo(obj);

	if (!args->timeout)
		ret = dma_resv_test_signaled(obj->resv, DMA_RESV_USAGE_BOOKKEEP);
	else
		ret = dma_resv_wait_timeout(obj->resv, DMA_RESV_USAGE_BOOKKEEP, true,
					    msecs_to_jiffies(args->timeout));
	if (!ret) {
		ret = -ETIMEDOUT;
	} else if (ret > 0) {
		spin_lock(&bo->stats_lock);
		ret = bo->last_error;
		spin_unlock(&bo->stats_lock);
	}

	drm_gem_object_put(obj);
	return ret;
}

int qaic_wait_bo_ioctl(struct drm_device *drm, void *data, struct drm_file *file)
{
	struct qaic_wait *args = data;
	int ret;
	int idx;

	if (args->pad) {
		drm_dbg(drm, "wait_bo: pad %#x is not 0\n", args->pad);
		return -EINVAL;
	}

	if (!drm_dev_enter(drm, &idx))
		return -ENODEV;
	ret = qaic_wait_bo(drm, args, file);
	drm_dev_exit(idx);
	return ret;
}

static int qaic_perf_stats_fill(struct drm_device *drm, struct qaic_perf_stats_entry *e,
				struct drm_file *file)
{
	struct drm_gem_object *obj;
	struct qaic_bo_stats st;
	struct qaic_bo *bo;

	obj = drm_gem_object_lookup(file, e->handle);
	if (!obj) {
		drm_dbg(drm, "perf_stats: no object with handle %u\n", e->handle);
		return -ENOENT;
	}
	bo = to_qaic_bo(obj);
	spin_lock(&bo->stats_lock);
	st = bo->stats;
	spin_unlock(&bo->stats_lock);
	drm_gem_object_put(obj);

	e->queue_level_before = st.queue_level;
	e->num_queue_element = st.nreqs;
	e->submit_latency_us = st.submit_us;
	e->device_latency_us = st.device_us;
	return 0;
}

static int qaic_perf_stats(struct drm_device *drm, const struct qaic_perf_stats *args,
			   struct drm_file *file)
{
	struct qaic_perf_stats_entry *ents;
	void __user *uptr = u64_to_user_ptr(args->data);
	u16 n = args->hdr.count;
	int ret;
	u16 i;

	ret = qaic_check_dbc_owned(drm, file, args->hdr.dbc_id, "perf_stats");
	if (ret)
		return ret;

	ents = memdup_array_user(uptr, n, sizeof(*ents));
	if (IS_ERR(ents))
		return PTR_ERR(ents);

	for (i = 0; i < n && !ret; i++) {
		if (ents[i].pad) {
			drm_dbg(drm, "perf_stats: entry %u pad %#x is not 0\n", i, ents[i].pad);
			ret = -EINVAL;
		}
	}
	for (i = 0; i < n && !ret; i++)
		ret = qaic_perf_stats_fill(drm, &ents[i], file);
	if (!ret && copy_to_user(uptr, ents, array_size(n, sizeof(*ents))))
		ret = -EFAULT;

	kfree(ents);
	return ret;
}

int qaic_perf_stats_bo_ioctl(struct drm_device *drm, void *data, struct drm_file *file)
{
	struct qaic_perf_stats *args = data;
	int ret;
	int idx;

	if (args->hdr.pad) {
		drm_dbg(drm, "perf_stats: pad %#x is not 0\n", args->hdr.pad);
		return -EINVAL;
	}
	if (!args->hdr.count) {
		drm_dbg(drm, "perf_stats: count 0\n");
		return -EINVAL;
	}

	if (!drm_dev_enter(drm, &idx))
		return -ENODEV;
	ret = qaic_perf_stats(drm, args, file);
	drm_dev_exit(idx);
	return ret;
}
