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
 *
 * Execute makes one job per entry. All objects' reservations are locked
 * together (an object named twice is -EINVAL), each entry is checked
 * against its object's slicing, and the jobs are made with the object's
 * fences as implicit dependencies: a to-device job reads the object and
 * waits for its writers, a from-device job writes it and waits for
 * everyone. Nothing can fail once the first job is armed, so either every
 * entry is queued, in order, or none is. Each job's hardware fence goes
 * into the object's reservation, which is what WAIT_BO waits on.
 *
 * User memory is copied in before the DBC is locked: a page fault can take
 * as long as its owner wants (userfaultfd, FUSE), and a DBC's lock is
 * taken by deactivate and close under the device-wide &qaic_device.dbc_lock.
 */

#include <linux/dma-mapping.h>
#include <linux/dma-resv.h>
#include <linux/moduleparam.h>
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
#include "qaic_job.h"
#include "qaic_queue.h"
#include "qaic_trace.h"

/*
 * Most objects one execute queues. All of them are locked at once, and the
 * array of entries must stay a small allocation. Lockdep counts the
 * reservation locks of one acquire context in 11 bits: past 2047 it WARNs
 * and turns itself off, which no user may cause.
 */
#define QAIC_EXECUTE_MAX	1024

/**
 * qaic_execute_copy_entries() - Copy in the entries of an execute, as partial ones.
 * @data: User pointer to the entries.
 * @n: Their count, checked by the caller.
 * @partial: They are struct qaic_partial_execute_entry, not struct
 *	     qaic_execute_entry (which execute whole objects).
 *
 * Return: the entries (kvfree() them), or an ERR_PTR().
 */
static struct qaic_partial_execute_entry *
qaic_execute_copy_entries(u64 data, u32 n, bool partial)
{
	struct qaic_partial_execute_entry *ents;
	struct qaic_execute_entry *full;
	u32 i;

	if (partial)
		return vmemdup_array_user(u64_to_user_ptr(data), n, sizeof(*ents));

	full = vmemdup_array_user(u64_to_user_ptr(data), n, sizeof(*full));
	if (IS_ERR(full))
		return ERR_CAST(full);
	ents = kvmalloc_array(n, sizeof(*ents), QAIC_GFP_USER);
	if (ents) {
		for (i = 0; i < n; i++)
			ents[i] = (struct qaic_partial_execute_entry){
				.handle = full[i].handle,
				.dir = full[i].dir,
			};
	}
	kvfree(full);
	return ents ?: ERR_PTR(-ENOMEM);
}

/* Checks one entry against its object; the object's reservation is locked. */
static int qaic_execute_check(struct drm_device *drm, const struct qaic_partial_execute_entry *e,
			      bool partial, struct drm_gem_object *obj, u32 dbc_id,
			      const struct qaic_queue *q)
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
	if (partial && e->resize > obj->size) {
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
					 bool partial, struct drm_gem_object *obj,
					 struct qaic_queue *q, struct drm_file *file)
{
	struct qaic_bo *bo = to_qaic_bo(obj);
	const struct qaic_bo_slicing *s = bo->slicing;
	struct qaic_dbc_req *own = NULL;
	struct dma_resv_iter cursor;
	struct dma_fence *fence;
	struct qaic_job *job;
	int n = s->nreqs;
	int ret;

	if (partial) {
		/* Up to 64 bytes a ring slot: charged, and bounded per queue. */
		own = kvmalloc_array(s->nreqs, sizeof(*own), QAIC_GFP_USER);
		if (!own)
			return ERR_PTR(-ENOMEM);
		n = qaic_desc_resize(s->slices, s->nslices, s->reqs, e->resize, own, s->nreqs);
		if (n < 0) {
			kvfree(own);
			return ERR_PTR(n);
		}
	}

	job = qaic_job_alloc(q, bo, n, own, own ? s->nreqs * sizeof(*own) : 0, file->client_id);
	if (IS_ERR(job)) {
		kvfree(own);
		return job;
	}
	job->reqs = own ?: s->reqs;
	job->nrsps = s->nslices;
	job->write = s->dir == QAIC_DIR_FROM_DEV;

	ret = dma_resv_reserve_fences(obj->resv, 1);
	if (ret)
		goto fail;
	dma_resv_for_each_fence(&cursor, obj->resv, dma_resv_usage_rw(job->write), fence) {
		ret = qaic_job_add_dependency(job, dma_fence_get(fence));
		if (ret)
			goto fail;
	}
	return job;

fail:
	qaic_job_free_unqueued(job);
	return ERR_PTR(ret);
}

/* Fences the first job waits for, besides the objects' own. */
static int qaic_execute_add_deps(struct qaic_job *job, struct qaic_execute_fences *f)
{
	int ret = 0;

	for (; f->nin && !ret; f->nin--, f->in++) {
		ret = qaic_job_add_dependency(job, *f->in);
		*f->in = NULL;
	}
	return ret;
}

/* Locks the objects, makes the jobs and pushes them; the DBC's lock is held. */
static int qaic_execute_submit(struct drm_device *drm, struct qaic_queue *q, u32 dbc_id,
			       const struct qaic_partial_execute_entry *ents,
			       bool partial, struct drm_gem_object **objs, u32 count,
			       struct drm_file *file, struct qaic_execute_fences *f)
{
	struct ww_acquire_ctx ctx;
	struct qaic_job **jobs;
	u32 i, made = 0;
	int ret;

	jobs = kvcalloc(count, sizeof(*jobs), QAIC_GFP_USER);
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
		ret = qaic_execute_check(drm, &ents[i], partial, objs[i], dbc_id, q);
		if (ret)
			goto unwind;
	}
	for (made = 0; made < count; made++) {
		jobs[made] = qaic_execute_job(&ents[made], partial, objs[made], q, file);
		if (IS_ERR(jobs[made])) {
			ret = PTR_ERR(jobs[made]);
			goto unwind;
		}
	}
	/* The jobs run in order: the first waiting is enough. */
	ret = qaic_execute_add_deps(jobs[0], f);
	if (ret)
		goto unwind;

	/* Nothing fails from here: every job is pushed, in order. */
	for (i = 0; i < count; i++) {
		struct qaic_job *job = jobs[i];

		dma_sync_sgtable_for_device(drm->dev, job->bo->sgt, DMA_BIDIRECTIONAL);
		drm_sched_job_arm(&job->base);
		dma_resv_add_fence(objs[i]->resv, job->hw_fence,
				   job->write ? DMA_RESV_USAGE_WRITE : DMA_RESV_USAGE_READ);
		if (i == count - 1 && f->out)
			*f->out = dma_fence_get(job->hw_fence);
		trace_qaic_job_queued(q->qdev, dbc_id, job->hw_fence->seqno, job->nreqs);
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

/**
 * qaic_execute_check_count() - Check the entry count of an execute.
 * @drm: The DRM device.
 * @count: From userspace.
 *
 * Return: 0, or -EINVAL for 0 or more than %QAIC_EXECUTE_MAX.
 */
int qaic_execute_check_count(struct drm_device *drm, u32 count)
{
	if (!count || count > QAIC_EXECUTE_MAX) {
		drm_dbg(drm, "execute: count %u not in 1..%u\n", count, QAIC_EXECUTE_MAX);
		return -EINVAL;
	}
	return 0;
}

/**
 * qaic_execute_run() - Queue the entries of an execute on a DBC of the file.
 * @drm: The DRM device.
 * @file: The file.
 * @dbc_id: The DBC, from userspace.
 * @data: User pointer to the entries.
 * @count: Their count, checked with qaic_execute_check_count().
 * @partial: The entries are struct qaic_partial_execute_entry.
 * @f: Fences the first job waits for (consumed, also on failure), and where
 *     to put the last job's finished fence; may be NULL.
 *
 * Return: 0 once every entry is queued, or a negative errno and nothing is.
 */
int qaic_execute_run(struct drm_device *drm, struct drm_file *file, u32 dbc_id, u64 data,
		     u32 count, bool partial, struct qaic_execute_fences *f)
{
	struct qaic_device *qdev = to_qaic_device(drm);
	struct qaic_execute_fences none = {};
	struct qaic_partial_execute_entry *ents;
	struct drm_gem_object **objs;
	struct qaic_dbc *dbc;
	u32 i;
	int ret;

	if (!f)
		f = &none;

	/* A first look, so that a DBC not held fails before user memory does. */
	ret = qaic_dbc_check_owned(to_qaic_device(drm), file, dbc_id, "execute");
	if (ret)
		goto put_in;

	ents = qaic_execute_copy_entries(data, count, partial);
	if (IS_ERR(ents)) {
		ret = PTR_ERR(ents);
		goto put_in;
	}

	objs = kvcalloc(count, sizeof(*objs), QAIC_GFP_USER);
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

	dbc = qaic_dbc_lock_owned(qdev, file, dbc_id, "execute");
	if (IS_ERR(dbc)) {
		ret = PTR_ERR(dbc);
		goto put;
	}
	ret = qaic_execute_submit(drm, dbc->queue, dbc_id, ents, partial, objs, count, file, f);
	mutex_unlock(&dbc->lock);
put:
	for (i = 0; i < count && objs[i]; i++)
		drm_gem_object_put(objs[i]);
	kvfree(objs);
free_ents:
	kvfree(ents);
put_in:
	for (; f->nin; f->nin--, f->in++) {
		dma_fence_put(*f->in);
		*f->in = NULL;
	}
	return ret;
}

static int qaic_execute(struct drm_device *drm, struct qaic_execute *args,
			struct drm_file *file, bool partial)
{
	int ret;

	ret = qaic_execute_check_count(drm, args->hdr.count);
	if (ret)
		return ret;
	return qaic_execute_run(drm, file, args->hdr.dbc_id, args->data, args->hdr.count,
				partial, NULL);
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

/*
 * A WAIT_BO with timeout 0 asks the kernel to choose: Linux's qaic and
 * Qualcomm's open runtime, which passes 0 by default and gives up after
 * five -ETIMEDOUTs, count on this long. 0 here makes timeout 0 a look.
 */
static unsigned int wait_exec_default_timeout_ms = 5000;
module_param(wait_exec_default_timeout_ms, uint, 0644);
MODULE_PARM_DESC(wait_exec_default_timeout_ms,
		 "How long a WAIT_BO with timeout 0 waits, in ms (default 5000; 0: it does not wait)");

/*
 * Waits for the object @obj (a reference the caller holds) outside the
 * card's unplug barrier: the object and its reservation outlive the card,
 * and a fence of another driver (an imported object) need not signal when
 * the card goes, so the wait must not hold unbind.
 */
static int qaic_wait_bo(const struct qaic_wait *args, struct drm_gem_object *obj)
{
	u32 timeout = args->timeout ?: READ_ONCE(wait_exec_default_timeout_ms);
	struct qaic_bo *bo = to_qaic_bo(obj);
	long ret;

	if (!timeout)
		ret = dma_resv_test_signaled(obj->resv, DMA_RESV_USAGE_BOOKKEEP);
	else
		ret = dma_resv_wait_timeout(obj->resv, DMA_RESV_USAGE_BOOKKEEP, true,
					    msecs_to_jiffies(timeout));
	if (!ret) {
		ret = -ETIMEDOUT;
	} else if (ret > 0) {
		spin_lock(&bo->stats_lock);
		ret = bo->last_error;
		spin_unlock(&bo->stats_lock);
	}
	return ret;
}

int qaic_wait_bo_ioctl(struct drm_device *drm, void *data, struct drm_file *file)
{
	struct qaic_wait *args = data;
	struct drm_gem_object *obj;
	int ret;
	int idx;

	if (args->pad) {
		drm_dbg(drm, "wait_bo: pad %#x is not 0\n", args->pad);
		return -EINVAL;
	}

	/* The checks need the card; the wait does not (qaic_wait_bo()). */
	if (!drm_dev_enter(drm, &idx))
		return -ENODEV;
	ret = qaic_dbc_check_owned(to_qaic_device(drm), file, args->dbc_id, "wait_bo");
	obj = ret ? NULL : drm_gem_object_lookup(file, args->handle);
	drm_dev_exit(idx);
	if (ret)
		return ret;
	if (!obj) {
		drm_dbg(drm, "wait_bo: no object with handle %u\n", args->handle);
		return -ENOENT;
	}

	ret = qaic_wait_bo(args, obj);
	drm_gem_object_put(obj);
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

	ret = qaic_dbc_check_owned(to_qaic_device(drm), file, args->hdr.dbc_id, "perf_stats");
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
