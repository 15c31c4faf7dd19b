// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The qaic authors.
 */

/**
 * DOC: qaic queues
 *
 * Each active DMA Bridge Channel (DBC) has a queue: a drm_sched scheduler
 * with one entity, the host side of the DBC's request and response rings,
 * and a completion interrupt.
 *
 * Credits are ring slots. A job asks for as many as it has requests and the
 * scheduler holds no more than the ring can take (one slot stays empty), so a
 * full ring is back-pressure inside the scheduler and run_job always finds
 * room. run_job copies the pre-encoded requests and gives them the job's
 * req_id; it reads no register, as the head is shadowed from completions.
 *
 * The ring itself, as the device sees it (requests, doorbells,
 * completions, hangs), is qaic_ring.c's.
 *
 * The fence a job shows the world (reservations, syncobjs, sync_files) is
 * its hardware fence, not the scheduler's finished fence: the latter names
 * its timeline through the scheduler, which is freed with the queue, while
 * a sync_file may keep the fence for ever. Hardware fences point at nothing
 * of the queue, hold the module while they live, and signal in the order
 * the jobs were made, also when jobs fail before reaching the ring (they
 * are retired in turn, as "nop" jobs) or are cancelled at teardown. So a
 * reservation, which keeps only the newest fence of a context, never lets
 * a waiter through while an older job still runs. Fences of the queue's
 * own context are not dependencies of its jobs: the ring runs in order.
 */

#include <linux/bitops.h>
#include <linux/dma-fence.h>
#include <linux/dma-mapping.h>
#include <linux/dma-resv.h>
#include <linux/io.h>
#include <linux/log2.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/sizes.h>
#include <linux/string.h>
#include <linux/wait_bit.h>

#include <drm/drm_drv.h>
#include <drm/drm_gem.h>
#include <drm/drm_print.h>

#include "qaic_compat.h"
#include "qaic_desc.h"
#include "qaic_drv.h"
#include "qaic_fdinfo.h"
#include "qaic_gem.h"
#include "qaic_hw.h"
#include "qaic_queue.h"
#include "qaic_reset.h"
#include "qaic_ring.h"
#include "qaic_trace.h"

static unsigned int job_timeout_ms = 2000;
module_param(job_timeout_ms, uint, 0444);
MODULE_PARM_DESC(job_timeout_ms,
		 "Milliseconds a DBC may make no progress before its job is failed and the DBC reset; 0 never (default 2000)");

/* req_id is 16 bits: no more jobs than that can be told apart on a ring. */
#define QAIC_QUEUE_MAX_IDS	BIT(16)

/**
 * struct qaic_hw_fence - Signalled when the device is done with a job.
 * @base: The fence; first, as dma_fence_free() frees through it.
 * @lock: Its lock; its own, as the fence may outlive the queue.
 * @dbc: The DBC's number, which names the timeline.
 *
 * Whoever holds the fence (a reservation, a syncobj, a sync_file, another
 * driver) keeps it and, through it, this module: its operations are here.
 */
struct qaic_hw_fence {
	struct dma_fence base;
	spinlock_t lock; /* The fence's */
	unsigned int dbc;
};

/* Timeline names live as long as the module, which every fence holds. */
static const char * const qaic_hw_fence_timelines[QAIC_NUM_DBC] = {
	"qaic-dbc0", "qaic-dbc1", "qaic-dbc2", "qaic-dbc3",
	"qaic-dbc4", "qaic-dbc5", "qaic-dbc6", "qaic-dbc7",
	"qaic-dbc8", "qaic-dbc9", "qaic-dbc10", "qaic-dbc11",
	"qaic-dbc12", "qaic-dbc13", "qaic-dbc14", "qaic-dbc15",
};

static const char *qaic_hw_fence_driver_name(struct dma_fence *fence)
{
	return QAIC_NAME;
}

static const char *qaic_hw_fence_timeline_name(struct dma_fence *fence)
{
	return qaic_hw_fence_timelines[container_of(fence, struct qaic_hw_fence, base)->dbc];
}

/*
 * The last reference is gone: free after a grace period (fences are
 * looked at under RCU), and let the module go. module_put() comes last:
 * after it only this function's return runs in the module's code.
 */
static void qaic_hw_fence_release(struct dma_fence *fence)
{
	dma_fence_free(fence);
	module_put(THIS_MODULE);
}

static const struct dma_fence_ops qaic_hw_fence_ops = {
	.get_driver_name = qaic_hw_fence_driver_name,
	.get_timeline_name = qaic_hw_fence_timeline_name,
	.release = qaic_hw_fence_release,
};

static inline struct qaic_job *to_qaic_job(struct drm_sched_job *sched_job)
{
	return container_of(sched_job, struct qaic_job, base);
}

/*
 * Fails a job in run_job. It puts nothing on the ring but waits there for
 * the jobs ahead of it, so that its fence does not signal before theirs.
 */
static struct dma_fence *qaic_queue_fail_job(struct qaic_queue *q, struct qaic_job *job,
					     int error)
{
	LIST_HEAD(done);

	lockdep_assert_held(&q->lock);

	job->error = error;
	job->nop = true;
	job->ring_end = q->req_tail;
	list_add_tail(&job->node, &q->inflight);
	qaic_ring_retire_nops(q, &done);
	qaic_ring_signal(q, &done);
	/* Jobs before it may have left their doorbell to it. */
	qaic_ring_doorbell_batched(q);
	return dma_fence_get(job->hw_fence);
}

static struct dma_fence *qaic_queue_run_job(struct drm_sched_job *sched_job)
{
	struct qaic_job *job = to_qaic_job(sched_job);
	struct qaic_queue *q = job->queue;
	u32 free, head, slot;

	guard(mutex)(&q->lock);

	job->ran = true;
	atomic_inc(&q->nrun);
	/* Teardown signalled the fence of every job it did not find running. */
	if (q->dead) {
		drm_dbg(&q->qdev->drm, "DBC %u: job cancelled before it ran\n", q->id);
		return dma_fence_get(job->hw_fence);
	}
	if (sched_job->s_fence->finished.error) {
		drm_dbg(&q->qdev->drm, "DBC %u: job cancelled before it ran: fence error %d\n",
			q->id, sched_job->s_fence->finished.error);
		return qaic_queue_fail_job(q, job, -ECANCELED);
	}

	free = qaic_desc_ring_free(q->req_head, q->req_tail, q->nelem);
	if (free < job->nreqs) {
		/* Credits keep this from happening; look at the device anyway. */
		head = readl(q->regs + QAIC_DBC_REQHP);
		if (qaic_ring_head_plausible(q, head))
			q->req_head = head;
		free = qaic_desc_ring_free(q->req_head, q->req_tail, q->nelem);
		if (free < job->nreqs) {
			drm_dbg(&q->qdev->drm, "DBC %u: %u ring slots free, job needs %u\n",
				q->id, free, job->nreqs);
			return qaic_queue_fail_job(q, job, -EIO);
		}
	}

	slot = q->next_id & q->id_mask;
	if (q->ids[slot]) {
		drm_dbg(&q->qdev->drm, "DBC %u: req_id %u still in flight\n",
			q->id, q->ids[slot]->req_id);
		return qaic_queue_fail_job(q, job, -EIO);
	}
	job->req_id = q->next_id++;
	q->ids[slot] = job;
	list_add_tail(&job->node, &q->inflight);

	job->queue_level = q->nelem - 1 - free;
	job->t_run = ktime_get();
	job->ring_end = qaic_desc_ring_copy(q->req_ring, q->nelem, q->req_tail,
					    job->reqs, job->nreqs, job->req_id);
	q->req_tail = job->ring_end;
	/* Before the doorbell: once rung, the job may be done on another CPU. */
	trace_qaic_job_run(q->qdev, q->id, job->hw_fence->seqno, job->req_id, job->nreqs,
			   q->req_tail);
	qaic_ring_doorbell_batched(q);
	qaic_fdinfo_busy_begin(q, job->t_run);
	q->qdev->dbc[q->id].stats.requests += job->nreqs;

	return dma_fence_get(job->hw_fence);
}

static enum drm_gpu_sched_stat qaic_queue_timedout_job(struct drm_sched_job *sched_job)
{
	struct qaic_queue *q = to_qaic_job(sched_job)->queue;
	struct drm_gpu_scheduler *sched = &q->sched;
	LIST_HEAD(done);

	/*
	 * The scheduler took the job off its pending list so that it is not
	 * freed under this handler. With the scheduler's work paused, the job
	 * goes back at the head (where it was) once decided; restarting the
	 * work then frees whatever completed, this job too if it did. The
	 * queue lock keeps completions out meanwhile.
	 *
	 * A card that fell off the bus is given up (the driver unbinds, which
	 * cancels every job); until then it is handled as a hung DBC.
	 */
	qaic_reset_check_card(q->qdev);
	mutex_lock(&q->pause_lock);
	drm_sched_wqueue_stop(sched);
	mutex_lock(&q->lock);
	qaic_ring_check(q, &done);
	qaic_ring_signal(q, &done);
	spin_lock(&sched->job_list_lock);
	list_add(&sched_job->list, &sched->pending_list);
	spin_unlock(&sched->job_list_lock);
	mutex_unlock(&q->lock);
	drm_sched_wqueue_start(sched);
	mutex_unlock(&q->pause_lock);

	/* Not _NO_HANG (7.2): that would put the job back a second time. */
	return DRM_GPU_SCHED_STAT_RESET;
}

/* Takes a job off the queue's list and limits. */
static void qaic_queue_uncharge(struct qaic_queue *q, struct qaic_job *job)
{
	lockdep_assert_held(&q->lock);

	list_del(&job->link);
	q->njobs--;
	q->copy_bytes -= job->copy_bytes;
}

/*
 * The last reference is gone: the DBC was torn down and every job freed,
 * maybe after the card went away. The queue held the DRM device and the
 * module for those jobs; module_put() comes last, as after it only the
 * returns of this function and its callers run in the module's code.
 */
static void qaic_queue_free(struct kref *ref)
{
	struct qaic_queue *q = container_of(ref, struct qaic_queue, refs);

	kvfree(q->ids);
	mutex_destroy(&q->pause_lock);
	mutex_destroy(&q->lock);
	drm_dev_put(&q->qdev->drm);
	kfree(q);
	module_put(THIS_MODULE);
}

/* Frees a job that is off every list but &qaic_queue.jobs. */
static void qaic_job_free(struct qaic_job *job)
{
	struct qaic_queue *q = job->queue;

	mutex_lock(&q->lock);
	qaic_queue_uncharge(q, job);
	mutex_unlock(&q->lock);
	dma_fence_put(job->hw_fence);
	drm_gem_object_put(&job->bo->base.base);
	kfree(job);
	kref_put(&q->refs, qaic_queue_free);
}

/*
 * Drops what a job holds; the job was never queued or the scheduler is
 * done with it. A held job keeps its object and its place on the queue's
 * lists, and waits on &qaic_queue.held (qaic_queue_destroy() frees it).
 */
static void qaic_job_release(struct qaic_job *job)
{
	struct qaic_queue *q = job->queue;
	bool held;

	mutex_lock(&q->lock);
	/*
	 * Only a job that was never pushed gets here unsignalled: nobody saw
	 * its fence, but it is left tidy.
	 */
	if (!dma_fence_is_signaled(job->hw_fence)) {
		dma_fence_set_error(job->hw_fence, -ECANCELED);
		dma_fence_signal(job->hw_fence);
	}
	held = job->held;
	if (held) {
		list_add_tail(&job->node, &q->held);
		q->copy_bytes -= job->copy_bytes;
		job->copy_bytes = 0;
	}
	mutex_unlock(&q->lock);

	kvfree(job->own_reqs);
	job->own_reqs = NULL;
	/* The last thing: teardown waits for it, then frees the held jobs. */
	if (job->ran && atomic_dec_and_test(&q->nrun))
		wake_up_var(&q->nrun);
	if (!held)
		qaic_job_free(job);
}

/**
 * qaic_queue_free_held() - Free jobs the card may have still worked on.
 * @held: Held jobs (&qaic_job.node), of any queues; emptied.
 *
 * The card provably stopped: it answered the release of their DBC, or it
 * was reset. Their objects may go now.
 */
void qaic_queue_free_held(struct list_head *held)
{
	struct qaic_job *job, *next;

	list_for_each_entry_safe(job, next, held, node) {
		list_del_init(&job->node);
		qaic_job_free(job);
	}
}

static void qaic_queue_free_job(struct drm_sched_job *sched_job)
{
	drm_sched_job_cleanup(sched_job);
	qaic_job_release(to_qaic_job(sched_job));
}

static const struct drm_sched_backend_ops qaic_queue_ops = {
	.run_job = qaic_queue_run_job,
	.timedout_job = qaic_queue_timedout_job,
	.free_job = qaic_queue_free_job,
};

/* Counts a new job against the user's limits on the queue. */
static int qaic_queue_charge(struct qaic_queue *q, struct qaic_job *job)
{
	guard(mutex)(&q->lock);

	if (q->njobs >= QAIC_QUEUE_MAX_JOBS) {
		drm_dbg(&q->qdev->drm, "DBC %u: %u jobs not freed yet, the most there can be\n",
			q->id, q->njobs);
		return -EBUSY;
	}
	if (job->copy_bytes > QAIC_QUEUE_MAX_COPY_BYTES - q->copy_bytes) {
		drm_dbg(&q->qdev->drm, "DBC %u: partial requests of %zu bytes, %zu held, at most %u\n",
			q->id, job->copy_bytes, q->copy_bytes, QAIC_QUEUE_MAX_COPY_BYTES);
		return -EBUSY;
	}
	q->njobs++;
	q->copy_bytes += job->copy_bytes;
	list_add_tail(&job->link, &q->jobs);
	return 0;
}

/**
 * qaic_job_alloc() - Make a job that executes a sliced buffer object.
 * @q: The queue it will run on.
 * @bo: The object; its lock is held. The job takes a reference.
 * @nreqs: Requests it will queue: its credits, at most @q->max_credits.
 * @own_reqs: Requests of its own (a partial execution), or NULL to use
 *	      the object's. The job takes them over if it is made.
 * @own_bytes: Bytes allocated at @own_reqs.
 * @client_id: The file's fdinfo id.
 *
 * The caller holds the DBC's lock, so hardware fence numbers follow the
 * order jobs are pushed in. It sets the job's response count.
 *
 * Return: the job, or an ERR_PTR(): -EBUSY if the queue holds as many jobs
 * or partial requests as a user may make it hold.
 */
struct qaic_job *qaic_job_alloc(struct qaic_queue *q, struct qaic_bo *bo, u32 nreqs,
				struct qaic_dbc_req *own_reqs, size_t own_bytes, u64 client_id)
{
	struct qaic_hw_fence *fence;
	struct qaic_job *job;
	int ret;

	dma_resv_assert_held(bo->base.base.resv);

	job = kzalloc_obj(*job, GFP_KERNEL_ACCOUNT);
	fence = kzalloc_obj(*fence, GFP_KERNEL_ACCOUNT);
	if (!job || !fence) {
		ret = -ENOMEM;
		goto fail;
	}
	job->copy_bytes = own_bytes;
	ret = qaic_queue_charge(q, job);
	if (ret)
		goto fail;
	ret = drm_sched_job_init(&job->base, &q->entity, nreqs, NULL, client_id);
	if (ret) {
		mutex_lock(&q->lock);
		qaic_queue_uncharge(q, job);
		mutex_unlock(&q->lock);
		goto fail;
	}

	/* The fence's reference on the module goes in qaic_hw_fence_release(). */
	__module_get(THIS_MODULE);
	spin_lock_init(&fence->lock);
	fence->dbc = q->id;
	dma_fence_init(&fence->base, &qaic_hw_fence_ops, &fence->lock, q->fence_ctx,
		       ++q->fence_seqno);
	job->hw_fence = &fence->base;
	job->queue = q;
	job->bo = bo;
	job->nreqs = nreqs;
	job->own_reqs = own_reqs;
	job->t_submit = ktime_get();
	INIT_LIST_HEAD(&job->node);
	drm_gem_object_get(&bo->base.base);
	kref_get(&q->refs);
	return job;

fail:
	kfree(fence);
	kfree(job);
	return ERR_PTR(ret);
}

/**
 * qaic_job_add_dependency() - Make a job wait for a fence.
 * @job: The job, not pushed yet.
 * @fence: The fence; the reference is consumed, also on failure.
 *
 * A fence of the job's own queue is dropped: the ring runs in order, so
 * the job runs after that fence's job anyway, and waiting would only stall
 * the ring.
 *
 * Return: 0 or a negative errno.
 */
int qaic_job_add_dependency(struct qaic_job *job, struct dma_fence *fence)
{
	if (fence->context == job->queue->fence_ctx) {
		dma_fence_put(fence);
		return 0;
	}
	return drm_sched_job_add_dependency(&job->base, fence);
}

/**
 * qaic_job_free_unqueued() - Free a job that was never armed.
 * @job: From qaic_job_alloc().
 */
void qaic_job_free_unqueued(struct qaic_job *job)
{
	drm_sched_job_cleanup(&job->base);
	qaic_job_release(job);
}

/**
 * qaic_queue_create() - Start the queue of a DBC the card just activated.
 * @qdev: The card.
 * @dbc: The DBC, its rings set; its lock and &qaic_device.dbc_lock are held.
 * @id: Its number.
 *
 * Return: 0, or a negative errno; the DBC then has no queue and every
 * execute on it fails.
 */
int qaic_queue_create(struct qaic_device *qdev, struct qaic_dbc *dbc, unsigned int id)
{
	struct drm_gpu_scheduler *sched_list[1];
	struct drm_sched_init_args args = {
		.ops = &qaic_queue_ops,
		.num_rqs = 1,
		.timeout = job_timeout_ms ? msecs_to_jiffies(job_timeout_ms) :
					    MAX_SCHEDULE_TIMEOUT,
		.name = "qaic-dbc",
		.dev = qdev->drm.dev,
	};
	struct qaic_file_priv *priv;
	struct qaic_queue *q;
	u32 nids;
	int ret;

	lockdep_assert_held(&dbc->lock);

	q = kzalloc_obj(*q, GFP_KERNEL);
	if (!q)
		return -ENOMEM;

	q->qdev = qdev;
	q->id = id;
	q->regs = qdev->bar_dbc + QAIC_DBC_REGS(id);
	q->nelem = dbc->nelem;
	q->req_ring = dbc->ring;
	q->rsp_ring = dbc->ring + dbc->ring_size - (size_t)dbc->nelem * sizeof(*q->rsp_ring);
	q->max_credits = min_t(u32, dbc->nelem - 1, QAIC_QUEUE_MAX_IDS - 1);
	q->irq = pci_irq_vector(qdev->pdev, qdev->num_irqs > 1 ? 1 + id : 0);
	/* As qaic_ring_irq_init() requested them. */
	q->irq_dev_id = qdev->num_irqs > 1 ? (void *)dbc : (void *)qdev;
	hrtimer_setup(&q->poll_timer, qaic_ring_poll_fire, CLOCK_MONOTONIC, HRTIMER_MODE_REL);
	q->datapath_polling = qaic_ring_datapath_polling();
	INIT_WORK(&q->poll_work, qaic_ring_poll_work);
	q->fence_ctx = dma_fence_context_alloc(1);
	priv = xa_load(&qdev->file_ids, dbc->owner);
	q->busy_ns = priv ? priv->busy_ns : NULL;
	mutex_init(&q->lock);
	mutex_init(&q->pause_lock);
	INIT_LIST_HEAD(&q->inflight);
	INIT_LIST_HEAD(&q->jobs);
	INIT_LIST_HEAD(&q->held);
	kref_init(&q->refs);

	nids = roundup_pow_of_two(q->max_credits + 1);
	q->id_mask = nids - 1;
	q->ids = kvcalloc(nids, sizeof(*q->ids), QAIC_GFP_USER);
	if (!q->ids) {
		ret = -ENOMEM;
		goto fail;
	}

	/* A ring of one slot takes nothing; attach refuses every slice. */
	args.credit_limit = max(q->max_credits, 1U);
	ret = drm_sched_init(&q->sched, &args);
	if (ret)
		goto fail;
	sched_list[0] = &q->sched;
	ret = drm_sched_entity_init(&q->entity, DRM_SCHED_PRIORITY_KERNEL, sched_list, 1, NULL);
	if (ret) {
		drm_sched_fini(&q->sched);
		goto fail;
	}

	/* Dropped by qaic_queue_free(), when the last job is gone too. */
	drm_dev_get(&qdev->drm);
	__module_get(THIS_MODULE);
	WRITE_ONCE(dbc->queue, q);
	return 0;

fail:
	drm_dbg(&qdev->drm, "DBC %u: no queue: %d\n", id, ret);
	kvfree(q->ids);
	mutex_destroy(&q->pause_lock);
	mutex_destroy(&q->lock);
	kfree(q);
	return ret;
}

/**
 * qaic_queue_destroy() - Stop the queue of a DBC that goes away.
 * @qdev: The card.
 * @dbc: The DBC; its lock and &qaic_device.dbc_lock are held.
 * @error: What its jobs fail with: -ECANCELED when the DBC is released,
 *	   -EPIPE when the card lost its workload (subsystem restart).
 * @park: NULL when the card stopped the DBC (it answered its release, or
 *	  it was reset): the held jobs are freed. Otherwise the card may
 *	  still run the jobs on the ring: they are held too, and every held
 *	  job is moved to @park (under &qaic_device.dbc_lock), for
 *	  qaic_queue_free_held() once the card is reset.
 *
 * Jobs on the ring fail with @error, and so do the jobs not on it yet,
 * whatever they wait for: every fence of the queue is signalled, in order,
 * before this returns. It waits for nothing outside the driver: jobs still
 * waiting for a foreign fence are freed by the scheduler when that fence
 * signals, maybe after the card and the file went away; they hold the
 * queue, which holds the DRM device and the module until then. Returns once
 * no job can touch the rings any more, so they can go.
 */
void qaic_queue_destroy(struct qaic_device *qdev, struct qaic_dbc *dbc, int error,
			struct list_head *park)
{
	struct qaic_queue *q = dbc->queue;
	struct qaic_job *job, *next;
	LIST_HEAD(held);
	LIST_HEAD(done);

	lockdep_assert_held(&dbc->lock);

	if (!q)
		return;

	/* Under the DBC's lock no job is being made: @jobs is complete. */
	mutex_lock(&q->lock);
	q->dead = true;
	if (park)
		qaic_ring_hold_fetched(q, q->req_tail);
	list_for_each_entry_safe(job, next, &q->inflight, node)
		qaic_ring_retire(q, job, error, &done);
	qaic_ring_scrub(q);
	list_for_each_entry(job, &q->jobs, link) {
		if (job->ran || dma_fence_is_signaled(job->hw_fence))
			continue;
		job->error = error;
		qaic_job_note_error(job);
		list_add_tail(&job->node, &done);
	}
	qaic_ring_signal(q, &done);
	mutex_unlock(&q->lock);
	/* @dead keeps the completion handler from starting it again. */
	hrtimer_cancel(&q->poll_timer);
	cancel_work_sync(&q->poll_work);

	/*
	 * Not drm_sched_entity_destroy(): its flush waits for the queued jobs
	 * to be run, so for their foreign fences. This kills them at once.
	 *
	 * With the scheduler's work paused: drm_sched's kill (6.12 and 7.2)
	 * takes the entity off the run queue and pops its jobs, but a pop of
	 * the run work that began before puts the entity back on the run
	 * queue, whose next run then pops the jobs the kill is popping: a job
	 * both run and killed, freed twice. Paused, the kill pops alone.
	 */
	mutex_lock(&q->pause_lock);
	drm_sched_wqueue_stop(&q->sched);
	drm_sched_entity_fini(&q->entity);
	drm_sched_wqueue_start(&q->sched);
	mutex_unlock(&q->pause_lock);

	WRITE_ONCE(dbc->queue, NULL);
	synchronize_irq(q->irq);

	/* What reached run_job is signalled; its frees are not far behind. */
	wait_var_event(&q->nrun, !atomic_read(&q->nrun));
	drm_sched_fini(&q->sched);

	/* Every held job is on @held now: none is left to run_job's frees. */
	mutex_lock(&q->lock);
	list_splice_init(&q->held, &held);
	mutex_unlock(&q->lock);
	if (park)
		list_splice_tail(&held, park);
	else
		qaic_queue_free_held(&held);

	if (q->bad_rsp)
		drm_dbg(&qdev->drm, "DBC %u: %llu stray responses\n", q->id, q->bad_rsp);
	kref_put(&q->refs, qaic_queue_free);
}

/**
 * qaic_queue_busy() - Does a DBC have work that is not done?
 * @dbc: The DBC; its lock is held.
 *
 * Return: true if a job of its queue has not signalled its fence: queued,
 * waiting for a fence, or on the ring.
 */
bool qaic_queue_busy(struct qaic_dbc *dbc)
{
	struct qaic_queue *q = dbc->queue;
	struct qaic_job *job;

	lockdep_assert_held(&dbc->lock);

	if (!q)
		return false;
	guard(mutex)(&q->lock);
	list_for_each_entry(job, &q->jobs, link)
		if (!dma_fence_is_signaled(job->hw_fence))
			return true;
	return false;
}

/**
 * qaic_dbc_lock_owned() - Lock a DBC the file activated and may use.
 * @qdev: The card.
 * @file: The file.
 * @dbc_id: The DBC's number, from userspace.
 * @what: The ioctl, for debug lines.
 *
 * Return: the DBC, locked (mutex_unlock() its &qaic_dbc.lock), or an
 * ERR_PTR(): -EINVAL for no such DBC, -EPIPE while its subsystem restarts
 * (whoever held it), -EPERM if the file does not hold it or it has no
 * queue, -EINTR on a signal.
 */
struct qaic_dbc *qaic_dbc_lock_owned(struct qaic_device *qdev, struct drm_file *file,
				     u32 dbc_id, const char *what)
{
	struct qaic_file_priv *priv = file->driver_priv;
	struct qaic_dbc *dbc;

	if (dbc_id >= QAIC_NUM_DBC) {
		drm_dbg(&qdev->drm, "%s: dbc_id %u: there are %u\n", what, dbc_id, QAIC_NUM_DBC);
		return ERR_PTR(-EINVAL);
	}
	dbc = &qdev->dbc[dbc_id];
	if (mutex_lock_interruptible(&dbc->lock))
		return ERR_PTR(-EINTR);
	if (dbc->ssr) {
		drm_dbg(&qdev->drm, "%s: DBC %u: subsystem restart in progress\n", what, dbc_id);
		mutex_unlock(&dbc->lock);
		return ERR_PTR(-EPIPE);
	}
	if (dbc->owner != priv->id || dbc->draining || !dbc->queue) {
		drm_dbg(&qdev->drm, "%s: DBC %u is not activated by file %u\n",
			what, dbc_id, priv->id);
		mutex_unlock(&dbc->lock);
		return ERR_PTR(-EPERM);
	}
	return dbc;
}

/**
 * qaic_dbc_check_owned() - Check that a file holds a DBC, without keeping it.
 * @qdev: The card.
 * @file: The file.
 * @dbc_id: The DBC's number, from userspace.
 * @what: The ioctl, for debug lines.
 *
 * Return: 0, or the errors of qaic_dbc_lock_owned().
 */
int qaic_dbc_check_owned(struct qaic_device *qdev, struct drm_file *file, u32 dbc_id,
			 const char *what)
{
	struct qaic_dbc *dbc;

	dbc = qaic_dbc_lock_owned(qdev, file, dbc_id, what);
	if (IS_ERR(dbc))
		return PTR_ERR(dbc);
	mutex_unlock(&dbc->lock);
	return 0;
}
