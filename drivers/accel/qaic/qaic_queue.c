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
 * The doorbell (REQTP) is written once for several jobs when it can be
 * without making the device wait. A job leaves its doorbell to what comes
 * next, up to ``doorbell_batch`` requests not announced, when
 *
 * - the scheduler will run another job of the queue right away (queued on
 *   the entity, waiting for no fence, within the credits left): the last
 *   job of such a run rings for all of them; or
 * - the device still has requests it was told of and did not complete: it
 *   is busy, and the completion handler, which runs when those complete,
 *   rings for everything queued meanwhile.
 *
 * A job on an idle DBC with nothing behind it rings at once, so QD1 pays
 * nothing. Each MMIO write is a bus transaction (a message through the
 * host on the bench), and a device raises one interrupt for a batch of
 * responses that arrive together, so fewer doorbells also mean fewer
 * completion interrupts and register reads. The cost is on a device that
 * would have finished its work before the completion handler ran: it
 * waits that long for the next batch, at most once per batch.
 *
 * Each slice queues one response. The completion handler (a threaded
 * interrupt) reads RSPTP once, retires every response, and acknowledges
 * them with one RSPHP write; the device interrupts when a response lands
 * in a ring it sees empty, and after an acknowledgment that leaves
 * responses in it. A response finds its job in O(1) through @ids. The
 * device runs the ring in order, so a response also retires every older
 * job: their responses were lost.
 *
 * Completions are coalesced by holding the acknowledgment back. When the
 * handler leaves responses due (the device has work it was told of), it
 * may leave RSPHP alone: the device then sees a ring that is not empty and
 * raises no interrupt for what it completes next. A timer wakes the
 * handler when about ``coalesce_rsps`` more responses (or all that are due,
 * if fewer) should be there, at the device's pace as measured from
 * earlier looks, and at most ``coalesce_max_us`` later. A look
 * acknowledges instead, and the device's next response interrupts again,
 * when it leaves fewer than two responses due, when it was the timer's and
 * found nothing, when half the ring is unacknowledged (the device must not
 * stall on a full response ring), and when the next look would come in
 * less than %QAIC_COALESCE_MIN_NS or be unlikely to find two responses
 * within ``coalesce_max_us``. So a job alone on the DBC (QD1) is completed
 * by its interrupt as before, and with a backlog each look takes several
 * responses. A timer look that finds nothing doubles the estimate of the
 * device's pace; one that finds the device idle halves it, so that the
 * device does not wait for the look to get its next doorbell.
 * ``coalesce_rsps`` below 2 takes an interrupt per batch of responses.
 *
 * Every value the device writes is checked: an index out of the ring or a
 * req_id of no job in flight is ignored with a debug line.
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
 *
 * A job that sees no progress of the DBC for job_timeout_ms times out. The
 * handler reads REQHP: if it moved since the last look, the DBC is slow,
 * not hung. If the device consumed every request, the responses were lost
 * and the jobs fail with -EIO. Otherwise the DBC is reset: the stuck job
 * fails with -EIO, the others on the ring with -ECANCELED, REQTP is set back
 * to REQHP (dropping what the device did not take) and RSPHP to RSPTP. The
 * other DBCs are not touched.
 *
 * A REQHP outside the entries queued and not yet known consumed is a
 * fault, never taken as progress or as the place to reset to. Before the
 * host gives up on the ring's requests it clears every entry to a no-op:
 * a device that read REQHP wrong, or reads REQTP as far ahead of its head
 * after the reset, then replays nothing of jobs whose memory is gone.
 *
 * Rewinding REQTP does not stop a request the device already fetched: one
 * before REQHP whose response is missing, or the one at REQHP, which may be
 * waiting on a semaphore in the engine. Such a job is failed all the same
 * (its waiters must not hang), but it is held: once the scheduler frees
 * it, it stays on @held with its object, so the object's pages and their
 * DMA mapping stay until the DBC is released, which happens only on the
 * card's answer to a deactivate or terminate, or by a reset of the card.
 * The user may close the object meanwhile; the card's late transfer then
 * lands in pages nobody else has. Jobs behind it, never fetched, are not
 * held. Held jobs stay counted against the queue's job limit.
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
#include "qaic_gem.h"
#include "qaic_hw.h"
#include "qaic_queue.h"
#include "qaic_trace.h"

static unsigned int job_timeout_ms = 2000;
module_param(job_timeout_ms, uint, 0444);
MODULE_PARM_DESC(job_timeout_ms,
		 "Milliseconds a DBC may make no progress before its job is failed and the DBC reset; 0 never (default 2000)");

static unsigned int doorbell_batch = 16;
module_param(doorbell_batch, uint, 0644);
MODULE_PARM_DESC(doorbell_batch,
		 "Most requests whose doorbell (REQTP write) may wait for the DBC's next ready job; 0 rings for every job (default 16)");

static unsigned int coalesce_rsps = 8;
module_param(coalesce_rsps, uint, 0644);
MODULE_PARM_DESC(coalesce_rsps,
		 "Responses the completion handler lets gather, looking by timer, while the device has work; below 2 takes an interrupt per batch (default 8)");

static unsigned int coalesce_max_us = 2000;
module_param(coalesce_max_us, uint, 0644);
MODULE_PARM_DESC(coalesce_max_us,
		 "Longest wait for those responses, in microseconds (default 2000)");

/* A shorter wait than this is not worth a timer: the interrupt is as cheap. */
#define QAIC_COALESCE_MIN_NS	(20 * NSEC_PER_USEC)

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

static u32 qaic_queue_next(const struct qaic_queue *q, u32 index)
{
	return index + 1 == q->nelem ? 0 : index + 1;
}

/*
 * Whether @head can be the device's REQHP: one of the entries from the
 * shadow head (all before it were consumed) to the last doorbell (nothing
 * after it was announced). A REQHP anywhere else is a device fault, and
 * writing it back as REQTP would make the ring's stale entries look queued.
 */
static bool qaic_queue_head_plausible(const struct qaic_queue *q, u32 head)
{
	u32 used = (q->req_rung + q->nelem - q->req_head) % q->nelem;

	return head < q->nelem && (head + q->nelem - q->req_head) % q->nelem <= used;
}

/*
 * Makes every request on the ring a no-op (no transfer, no response, no
 * semaphore, no doorbell) before the host gives up on what is there: a
 * device that still takes entries, or takes them again after a REQTP it
 * did not expect, then moves nothing into memory the jobs no longer own.
 */
static void qaic_queue_scrub(struct qaic_queue *q)
{
	lockdep_assert_held(&q->lock);

	memset(q->req_ring, 0, q->nelem * sizeof(*q->req_ring));
	/* The entries are clear before any register write that follows. */
	wmb();
}

static u32 qaic_us_between(ktime_t from, ktime_t to)
{
	s64 us = ktime_us_delta(to, from);

	return clamp_t(s64, us, 0, U32_MAX);
}

/*
 * A job that never reached the device: its error is news for WAIT_BO, and
 * a failed one leaves no timing, rather than an older run's for PERF_STATS.
 */
static void qaic_job_note_error(struct qaic_job *job)
{
	struct qaic_bo *bo = job->bo;

	spin_lock(&bo->stats_lock);
	bo->last_error = job->error;
	if (job->error)
		bo->stats = (struct qaic_bo_stats){};
	spin_unlock(&bo->stats_lock);
}

/* Counts a retired job for debugfs and tracing. */
static void qaic_queue_account(struct qaic_queue *q, struct qaic_job *job)
{
	struct qaic_dbc_stats *st = &q->qdev->dbc[q->id].stats;

	lockdep_assert_held(&q->lock);

	st->jobs++;
	if (job->error)
		st->last_error = job->error;
	trace_qaic_job_done(q->qdev, q->id, job->hw_fence->seqno, job->nop ? 0 : job->req_id,
			    job->nop ? 0 : job->nreqs, job->error);
}

/* Takes @job off the ring; @done collects the jobs to signal. */
static void qaic_queue_retire(struct qaic_queue *q, struct qaic_job *job, int error,
			      struct list_head *done)
{
	struct qaic_bo *bo = job->bo;
	ktime_t now = ktime_get();

	lockdep_assert_held(&q->lock);

	if (error && !job->error)
		job->error = error;
	q->req_head = job->ring_end;
	q->hang_head = job->ring_end;
	list_move_tail(&job->node, done);
	qaic_fdinfo_busy_end(q, now);
	qaic_queue_account(q, job);
	if (job->nop) {
		qaic_job_note_error(job);
		return;
	}
	q->ids[job->req_id & q->id_mask] = NULL;

	spin_lock(&bo->stats_lock);
	bo->stats = (struct qaic_bo_stats){
		.queue_level = job->queue_level,
		.nreqs = job->nreqs,
		.submit_us = qaic_us_between(job->t_submit, job->t_run),
		.device_us = qaic_us_between(job->t_run, now),
	};
	bo->last_error = job->error;
	spin_unlock(&bo->stats_lock);

	/* For platforms where the CPU does not see device writes by itself. */
	if (job->write)
		dma_sync_sgtable_for_cpu(q->qdev->drm.dev, bo->sgt, DMA_FROM_DEVICE);
}

/* Retires the failed jobs that waited for the ones just retired. */
static void qaic_queue_retire_nops(struct qaic_queue *q, struct list_head *done)
{
	struct qaic_job *job;

	lockdep_assert_held(&q->lock);

	while ((job = list_first_entry_or_null(&q->inflight, struct qaic_job, node)) &&
	       job->nop)
		qaic_queue_retire(q, job, 0, done);
}

/*
 * Signals the jobs qaic_queue_retire() collected. Called with the queue
 * locked, so that a timeout handler sees either the job on the ring or its
 * fence signalled, never in between.
 */
static void qaic_queue_signal(struct qaic_queue *q, struct list_head *done)
{
	struct qaic_job *job, *next;
	struct dma_fence *fence;

	lockdep_assert_held(&q->lock);

	list_for_each_entry_safe(job, next, done, node) {
		/* Signalling may free the job: keep the fence. */
		fence = dma_fence_get(job->hw_fence);
		list_del_init(&job->node);
		if (job->error)
			dma_fence_set_error(fence, job->error);
		dma_fence_signal(fence);
		dma_fence_put(fence);
	}
}

static void qaic_queue_response(struct qaic_queue *q, u32 index, struct list_head *done)
{
	struct drm_device *drm = &q->qdev->drm;
	struct qaic_job *job, *first;
	struct qaic_dbc_rsp rsp;
	u16 req_id, status;

	memcpy(&rsp, &q->rsp_ring[index], sizeof(rsp));
	req_id = le16_to_cpu(rsp.req_id);
	status = le16_to_cpu(rsp.status);

	job = q->ids[req_id & q->id_mask];
	if (!job || job->req_id != req_id) {
		q->bad_rsp++;
		drm_dbg(drm, "DBC %u: response %u names req_id %u, not in flight\n",
			q->id, index, req_id);
		return;
	}

	/* The ring runs in order: older jobs are done, their responses lost. */
	while ((first = list_first_entry(&q->inflight, struct qaic_job, node)) != job) {
		drm_dbg(drm, "DBC %u: req_id %u completed without its responses\n",
			q->id, first->req_id);
		qaic_queue_retire(q, first, -EIO, done);
	}

	if (status && !job->error) {
		drm_dbg(drm, "DBC %u: req_id %u: device status %#x\n", q->id, req_id, status);
		job->error = -EIO;
	}
	if (++job->rsps < job->nrsps)
		return;
	qaic_queue_retire(q, job, 0, done);
	qaic_queue_retire_nops(q, done);
}

/*
 * Retires what the device completed: one RSPTP read. Returns how many
 * responses there were; qaic_queue_ack() tells the device.
 */
static u32 qaic_queue_reap(struct qaic_queue *q, struct list_head *done)
{
	u32 head, tail, n = 0;

	lockdep_assert_held(&q->lock);

	tail = readl(q->regs + QAIC_DBC_RSPTP);
	if (tail >= q->nelem) {
		drm_dbg(&q->qdev->drm, "DBC %u: RSPTP %u out of the ring (%u)\n",
			q->id, tail, q->nelem);
		return 0;
	}
	for (head = q->rsp_head; head != tail; head = qaic_queue_next(q, head), n++)
		qaic_queue_response(q, head, done);
	q->rsp_head = head;
	return n;
}

/* Gives the device the retired responses' slots back: one RSPHP write. */
static void qaic_queue_ack(struct qaic_queue *q)
{
	lockdep_assert_held(&q->lock);

	if (q->rsp_acked == q->rsp_head)
		return;
	writel(q->rsp_head, q->regs + QAIC_DBC_RSPHP);
	q->rsp_acked = q->rsp_head;
}

/* Responses the device owes for the jobs on the ring. */
static u32 qaic_queue_rsps_due(struct qaic_queue *q)
{
	struct qaic_job *job;
	u32 due = 0;

	lockdep_assert_held(&q->lock);

	list_for_each_entry(job, &q->inflight, node)
		if (!job->nop)
			due += job->nrsps - job->rsps;
	return due;
}

/*
 * After a look at the ring that found @found responses (@timer: the poll
 * timer's look; @idle: the device had done all it was told of), learns the
 * device's pace and says how long to hold the acknowledgment back before
 * the next look; 0: acknowledge now.
 */
static u64 qaic_queue_poll_delay(struct qaic_queue *q, u32 found, bool timer, bool idle)
{
	u32 want = READ_ONCE(coalesce_rsps), due = qaic_queue_rsps_due(q);
	u32 unacked = (q->rsp_head + q->nelem - q->rsp_acked) % q->nelem;
	u64 max_ns = (u64)READ_ONCE(coalesce_max_us) * NSEC_PER_USEC;
	ktime_t now = ktime_get();
	u64 delay;

	lockdep_assert_held(&q->lock);

	if (q->t_look && found) {
		u64 sample = div_u64(ktime_to_ns(ktime_sub(now, q->t_look)), found);

		q->rsp_ns = q->rsp_ns ? (3 * q->rsp_ns + sample) / 4 : sample;
		/* The device waited for this look: it is faster than thought. */
		if (timer && idle)
			q->rsp_ns /= 2;
	} else if (timer) {
		q->rsp_ns = min_t(u64, q->rsp_ns * 2, NSEC_PER_SEC);
	}
	q->t_look = due ? now : 0;

	if (min(want, due) < 2 || (timer && !found) || unacked >= q->nelem / 2)
		return 0;
	/* Worth a timer only if the look should find two responses at least. */
	delay = (u64)min(want, due) * q->rsp_ns;
	if (delay < QAIC_COALESCE_MIN_NS || 2 * q->rsp_ns > max_ns)
		return 0;
	return min(delay, max_ns);
}

/* Tells the device of every request on the ring: one REQTP write. */
static void qaic_queue_doorbell(struct qaic_queue *q)
{
	lockdep_assert_held(&q->lock);

	if (q->req_rung == q->req_tail)
		return;
	/* writel() orders the ring writes before the doorbell. */
	writel(q->req_tail, q->regs + QAIC_DBC_REQTP);
	q->req_rung = q->req_tail;
	q->qdev->dbc[q->id].stats.doorbells++;
}

/*
 * Whether the scheduler runs another job of this queue as soon as run_job
 * returns: the entity's next job waits for no fence and fits in the
 * credits left. Called from run_job, so on the scheduler's work item, the
 * only consumer of the entity's queue: the next job cannot be taken or
 * freed meanwhile, and its dependencies change only there. A job pushed
 * concurrently may be missed; then this job rings, as it would have.
 */
static bool qaic_queue_next_ready(struct qaic_queue *q)
{
	struct drm_gpu_scheduler *sched = &q->sched;
	struct spsc_node *node = spsc_queue_peek(&q->entity.job_queue);
	struct drm_sched_job *next;
	struct dma_fence *fence;
	unsigned long index;

	if (!node || READ_ONCE(sched->pause_submit))
		return false;
	next = container_of(node, struct drm_sched_job, queue_node);
	if (next->credits > sched->credit_limit - atomic_read(&sched->credit_count))
		return false;
	xa_for_each(&next->dependencies, index, fence)
		if (!dma_fence_is_signaled(fence))
			return false;
	return true;
}

/*
 * Rings for the requests on the ring, unless the next job will, or the
 * completion of the work the device was told of already will.
 */
static void qaic_queue_doorbell_batched(struct qaic_queue *q)
{
	u32 waiting = (q->req_tail + q->nelem - q->req_rung) % q->nelem;

	lockdep_assert_held(&q->lock);

	if (waiting < READ_ONCE(doorbell_batch) &&
	    (q->req_head != q->req_rung || qaic_queue_next_ready(q)))
		return;
	qaic_queue_doorbell(q);
}

static void qaic_queue_complete(struct qaic_queue *q)
{
	bool timer, idle;
	LIST_HEAD(done);
	u32 found;
	u64 delay;

	guard(mutex)(&q->lock);

	/* Teardown retired everything; the device's word no longer counts. */
	if (q->dead)
		return;

	timer = q->polling;
	q->polling = false;
	found = qaic_queue_reap(q, &done);
	idle = q->req_head == q->req_rung;
	qaic_queue_signal(q, &done);
	qaic_queue_doorbell(q);

	delay = qaic_queue_poll_delay(q, found, timer, idle);
	if (!delay) {
		qaic_queue_ack(q);
		return;
	}
	q->polling = true;
	q->qdev->dbc[q->id].stats.polls++;
	hrtimer_start(&q->poll_timer, ns_to_ktime(delay), HRTIMER_MODE_REL);
}

/* The held-back acknowledgment's look is due: run the completion handler. */
static enum hrtimer_restart qaic_queue_poll_fire(struct hrtimer *timer)
{
	struct qaic_queue *q = container_of(timer, struct qaic_queue, poll_timer);

	irq_wake_thread(q->irq, q->irq_dev_id);
	return HRTIMER_NORESTART;
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
	qaic_queue_retire_nops(q, &done);
	qaic_queue_signal(q, &done);
	/* Jobs before it may have left their doorbell to it. */
	qaic_queue_doorbell_batched(q);
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
		if (qaic_queue_head_plausible(q, head))
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
	qaic_queue_doorbell_batched(q);
	qaic_fdinfo_busy_begin(q, job->t_run);
	q->qdev->dbc[q->id].stats.requests += job->nreqs;

	return dma_fence_get(job->hw_fence);
}

/*
 * Marks the jobs the device may still work on as the host gives up on the
 * ring: those with a request before @head (fetched, no response yet) or
 * at it (maybe fetched). Call before they are retired.
 */
static void qaic_queue_hold_fetched(struct qaic_queue *q, u32 head)
{
	u32 fetched = (head + q->nelem - q->req_head) % q->nelem;
	bool all = head == q->req_tail;
	u32 start = q->req_head;
	u32 pos = 0;
	struct qaic_job *job;

	lockdep_assert_held(&q->lock);

	list_for_each_entry(job, &q->inflight, node) {
		if (!all && pos > fetched)
			break;
		if (!job->nop && !job->held) {
			job->held = true;
			drm_dbg(&q->qdev->drm, "DBC %u: req_id %u held: the device may still run it\n",
				q->id, job->req_id);
		}
		pos += (job->ring_end + q->nelem - start) % q->nelem;
		start = job->ring_end;
	}
}

/* Fails every job on the ring and empties both rings, on the device too. */
static void qaic_queue_reset(struct qaic_queue *q, u32 head, struct list_head *done)
{
	struct qaic_job *job, *next;
	int error = -EIO;
	u32 tail;

	lockdep_assert_held(&q->lock);

	drm_info(&q->qdev->drm, "DBC %u: no progress at request %u for %u ms: resetting\n",
		 q->id, head, job_timeout_ms);
	qaic_coredump_dbc_hang(q);
	q->qdev->dbc[q->id].stats.resets++;
	trace_qaic_dbc_reset(q->qdev, q->id, head, q->req_tail);
	qaic_queue_hold_fetched(q, head);
	/* The oldest job is the stuck one; the others never ran. */
	list_for_each_entry_safe(job, next, &q->inflight, node) {
		qaic_queue_retire(q, job, error, done);
		error = -ECANCELED;
	}

	qaic_queue_scrub(q);
	writel(head, q->regs + QAIC_DBC_REQTP);
	q->req_tail = head;
	q->req_rung = head;
	q->req_head = head;
	q->hang_head = head;

	tail = readl(q->regs + QAIC_DBC_RSPTP);
	if (tail < q->nelem) {
		writel(tail, q->regs + QAIC_DBC_RSPHP);
		q->rsp_head = tail;
		q->rsp_acked = tail;
	}
}

/* Decides, with the queue locked, whether the DBC is slow, lossy or hung. */
static void qaic_queue_check(struct qaic_queue *q, struct list_head *done)
{
	struct qaic_job *job, *next;
	u32 head;

	lockdep_assert_held(&q->lock);

	if (q->dead || list_empty(&q->inflight))
		return;

	/*
	 * A completion interrupt may have been lost, or its RSPTP read have
	 * come back garbled: look at the responses again before deciding.
	 */
	qaic_queue_reap(q, done);
	qaic_queue_ack(q);
	if (list_empty(&q->inflight))
		return;

	/* Requests whose doorbell waited for a job the pause kept back. */
	qaic_queue_doorbell(q);
	head = readl(q->regs + QAIC_DBC_REQHP);
	if (!qaic_queue_head_plausible(q, head)) {
		drm_dbg(&q->qdev->drm, "DBC %u: REQHP %u not in %u..%u of %u\n",
			q->id, head, q->req_head, q->req_tail, q->nelem);
		head = q->req_head;
	} else if (head != q->hang_head) {
		q->hang_head = head;
		return;
	}
	if (head == q->req_tail) {
		drm_dbg(&q->qdev->drm, "DBC %u: requests consumed, responses lost\n", q->id);
		qaic_queue_hold_fetched(q, head);
		list_for_each_entry_safe(job, next, &q->inflight, node)
			qaic_queue_retire(q, job, -EIO, done);
		qaic_queue_scrub(q);
		return;
	}
	qaic_queue_reset(q, head, done);
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
	drm_sched_wqueue_stop(sched);
	mutex_lock(&q->lock);
	qaic_queue_check(q, &done);
	qaic_queue_signal(q, &done);
	spin_lock(&sched->job_list_lock);
	list_add(&sched_job->list, &sched->pending_list);
	spin_unlock(&sched->job_list_lock);
	mutex_unlock(&q->lock);
	drm_sched_wqueue_start(sched);

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
	/* As qaic_queue_irq_init() requested them. */
	q->irq_dev_id = qdev->num_irqs > 1 ? (void *)dbc : (void *)qdev;
	hrtimer_setup(&q->poll_timer, qaic_queue_poll_fire, CLOCK_MONOTONIC, HRTIMER_MODE_REL);
	q->fence_ctx = dma_fence_context_alloc(1);
	priv = xa_load(&qdev->file_ids, dbc->owner);
	q->busy_ns = priv ? priv->busy_ns : NULL;
	mutex_init(&q->lock);
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
		qaic_queue_hold_fetched(q, q->req_tail);
	list_for_each_entry_safe(job, next, &q->inflight, node)
		qaic_queue_retire(q, job, error, &done);
	qaic_queue_scrub(q);
	list_for_each_entry(job, &q->jobs, link) {
		if (job->ran || dma_fence_is_signaled(job->hw_fence))
			continue;
		job->error = error;
		qaic_job_note_error(job);
		list_add_tail(&job->node, &done);
	}
	qaic_queue_signal(q, &done);
	mutex_unlock(&q->lock);
	/* @dead keeps the completion handler from starting it again. */
	hrtimer_cancel(&q->poll_timer);

	/*
	 * Not drm_sched_entity_destroy(): its flush waits for the queued jobs
	 * to be run, so for their foreign fences. This kills them at once.
	 */
	drm_sched_entity_fini(&q->entity);

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

/* Retires the DBC's completions; false if it has no queue. */
static bool qaic_dbc_service(struct qaic_dbc *dbc)
{
	struct qaic_queue *q = READ_ONCE(dbc->queue);

	/* qaic_queue_destroy() waits for the handlers before freeing @q. */
	if (!q)
		return false;
	qaic_queue_complete(q);
	return true;
}

/*
 * A vector of its own is the DBC's whatever the device sends: claim it even
 * without a queue, so that a device raising it at will cannot get it
 * disabled as spurious.
 */
static irqreturn_t qaic_dbc_irq(int irq, void *data)
{
	struct qaic_dbc *dbc = data;

	return READ_ONCE(dbc->queue) ? IRQ_WAKE_THREAD : IRQ_HANDLED;
}

static irqreturn_t qaic_dbc_irq_thread(int irq, void *data)
{
	qaic_dbc_service(data);
	return IRQ_HANDLED;
}

/* One vector for every source: any active DBC may have completions. */
static irqreturn_t qaic_shared_irq(int irq, void *data)
{
	struct qaic_device *qdev = data;
	unsigned int i;

	for (i = 0; i < QAIC_NUM_DBC; i++)
		if (READ_ONCE(qdev->dbc[i].queue))
			return IRQ_WAKE_THREAD;
	return IRQ_NONE;
}

static irqreturn_t qaic_shared_irq_thread(int irq, void *data)
{
	struct qaic_device *qdev = data;
	irqreturn_t ret = IRQ_NONE;
	unsigned int i;

	for (i = 0; i < QAIC_NUM_DBC; i++)
		if (qaic_dbc_service(&qdev->dbc[i]))
			ret = IRQ_HANDLED;
	return ret;
}

/**
 * qaic_queue_irq_init() - Request the DBCs' completion interrupts.
 * @qdev: The card, its vectors allocated.
 *
 * With one vector per source DBC i has vector 1 + i. With a single vector
 * the DBCs share it with MHI, whose flags a shared handler must match.
 *
 * Return: 0 or a negative errno.
 */
int qaic_queue_irq_init(struct qaic_device *qdev)
{
	struct pci_dev *pdev = qdev->pdev;
	unsigned int i;
	int ret;

	if (qdev->num_irqs == 1)
		return devm_request_threaded_irq(&pdev->dev, pci_irq_vector(pdev, 0),
						 qaic_shared_irq, qaic_shared_irq_thread,
						 IRQF_SHARED | IRQF_NO_SUSPEND, "qaic-dbc", qdev);

	for (i = 0; i < QAIC_NUM_DBC; i++) {
		ret = devm_request_threaded_irq(&pdev->dev, pci_irq_vector(pdev, 1 + i),
						qaic_dbc_irq, qaic_dbc_irq_thread, 0,
						"qaic-dbc", &qdev->dbc[i]);
		if (ret)
			return ret;
	}
	return 0;
}
