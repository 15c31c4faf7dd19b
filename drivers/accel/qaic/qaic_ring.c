// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The qaic authors.
 */

/**
 * DOC: qaic rings
 *
 * The host side of a DBC's request and response rings, as the device sees
 * them: the doorbell, the completions, and what the host does when the
 * device stops making progress. qaic_queue.c's run_job puts requests on
 * the ring; everything else that reads or writes the DBC's registers is
 * here, under &qaic_queue.lock.
 *
 * The doorbell (REQTP) is written once for several jobs when it can be
 * without making the device wait. A job leaves its doorbell to what comes
 * next, up to ``doorbell_batch`` requests not announced, when
 *
 * - the scheduler will run another job of the queue right away (queued on
 *   the entity, waiting for no fence, within the credits left): the last
 *   job of such a run rings for all of them; or
 * - the device is busy past the completion handler's next look, which
 *   rings for everything queued meanwhile: it was told of two requests or
 *   more that it did not complete (the next response's interrupt brings
 *   the handler while the device works on another), or the next look is
 *   the coalescing timer's, which comes before the last response due.
 *
 * A job on an idle DBC with nothing behind it rings at once, so QD1 pays
 * nothing. Each MMIO write is a bus transaction (a message through the
 * host on the bench), and a device raises one interrupt for a batch of
 * responses that arrive together, so fewer doorbells also mean fewer
 * completion interrupts and register reads. A device that would run out
 * of work before the handler's next look is told of a new job at once:
 * it never sits idle while the host holds a job for it.
 *
 * Each slice queues one response. The completion handler (a threaded
 * interrupt) reads RSPTP once, retires every response, and acknowledges
 * them with one RSPHP write; the device interrupts when a response lands
 * in a ring it sees empty, and after an acknowledgment that leaves
 * responses in it. A response finds its job in O(1) through
 * &qaic_queue.ids. The device runs the ring in order, so a response also
 * retires every older job: their responses were lost.
 *
 * Completions are coalesced by holding the acknowledgment back. When the
 * handler leaves responses due (the device has work it was told of), it
 * may leave RSPHP alone: the device then sees a ring that is not empty and
 * raises no interrupt for what it completes next. A timer wakes the
 * handler when about ``coalesce_rsps`` more responses should be there, at
 * the device's pace as measured from earlier looks, and at most
 * ``coalesce_max_us`` later; the device then still has work, and the look
 * announces what was queued meanwhile before it runs out. A look
 * acknowledges instead, and the device's next response interrupts again,
 * when it leaves no more than ``coalesce_rsps`` responses due (a short
 * queue is completed response by response), when it was the timer's and
 * found nothing, when half the ring is unacknowledged (the device must not
 * stall on a full response ring), and when the next look would come in
 * less than %QAIC_COALESCE_MIN_NS or be unlikely to find two responses
 * within ``coalesce_max_us``. So a job alone or last on the DBC is
 * completed by its interrupt, never by a timer, and with a backlog each
 * look takes several responses. A timer look that finds nothing doubles
 * the estimate of the device's pace; one that finds the device idle halves
 * it, so that the device does not wait for the look to get its next
 * doorbell.
 * ``coalesce_rsps`` below 2 takes an interrupt per batch of responses.
 *
 * With ``datapath_polling`` set, a DBC activated afterwards takes no
 * completion interrupt at all, for hosts whose MSIs do not arrive (some
 * VMs): while jobs are on its ring the timer wakes the handler every
 * ``datapath_poll_interval_us``, from a work item. The device's interrupts,
 * if any come, are claimed and ignored, so that the vector stays enabled
 * for the DBCs that use it.
 *
 * Every value the device writes is checked: an index out of the ring or a
 * req_id of no job in flight is ignored with a debug line.
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
 * before REQHP whose response is missing, or the one at REQHP, which may
 * be waiting on a semaphore in the engine. Such a job is failed all the
 * same (its waiters must not hang), but it is held: once the scheduler
 * frees it, it stays on &qaic_queue.held with its object, so the object's
 * pages and their DMA mapping stay until the DBC is released, which
 * happens only on the card's answer to a deactivate or terminate, or by a
 * reset of the card. The user may close the object meanwhile; the card's
 * late transfer then lands in pages nobody else has. Jobs behind it, never
 * fetched, are not held. Held jobs stay counted against the queue's job
 * limit.
 */

#include <linux/dma-fence.h>
#include <linux/dma-mapping.h>
#include <linux/interrupt.h>
#include <linux/io.h>
#include <linux/jiffies.h>
#include <linux/moduleparam.h>
#include <linux/string.h>
#include <linux/workqueue.h>

#include <drm/drm_print.h>

#include "qaic_compat.h"
#include "qaic_coredump.h"
#include "qaic_drv.h"
#include "qaic_fdinfo.h"
#include "qaic_gem.h"
#include "qaic_hw.h"
#include "qaic_queue.h"
#include "qaic_ring.h"
#include "qaic_trace.h"

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

static bool datapath_polling;
module_param(datapath_polling, bool, 0644);
MODULE_PARM_DESC(datapath_polling,
		 "Look for DBC completions by timer, taking no interrupt, on DBCs activated from now on (for VMs without working MSIs; default off)");

static unsigned int datapath_poll_interval_us = 100;
module_param(datapath_poll_interval_us, uint, 0644);
MODULE_PARM_DESC(datapath_poll_interval_us,
		 "Time between two looks of a polled DBC that has jobs, in microseconds, 10 to 1000000 (default 100)");

/* A shorter wait than this is not worth a timer: the interrupt is as cheap. */
#define QAIC_COALESCE_MIN_NS	(20 * NSEC_PER_USEC)

static u32 qaic_ring_next(const struct qaic_queue *q, u32 index)
{
	return index + 1 == q->nelem ? 0 : index + 1;
}

/*
 * Whether @head can be the device's REQHP: one of the entries from the
 * shadow head (all before it were consumed) to the last doorbell (nothing
 * after it was announced). A REQHP anywhere else is a device fault, and
 * writing it back as REQTP would make the ring's stale entries look queued.
 */
bool qaic_ring_head_plausible(const struct qaic_queue *q, u32 head)
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
void qaic_ring_scrub(struct qaic_queue *q)
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
void qaic_job_note_error(struct qaic_job *job)
{
	struct qaic_bo *bo = job->bo;

	spin_lock(&bo->stats_lock);
	bo->last_error = job->error;
	if (job->error)
		bo->stats = (struct qaic_bo_stats){};
	spin_unlock(&bo->stats_lock);
}

/* Counts a retired job for debugfs and tracing. */
static void qaic_ring_account(struct qaic_queue *q, struct qaic_job *job)
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
void qaic_ring_retire(struct qaic_queue *q, struct qaic_job *job, int error,
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
	qaic_ring_account(q, job);
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
void qaic_ring_retire_nops(struct qaic_queue *q, struct list_head *done)
{
	struct qaic_job *job;

	lockdep_assert_held(&q->lock);

	while ((job = list_first_entry_or_null(&q->inflight, struct qaic_job, node)) &&
	       job->nop)
		qaic_ring_retire(q, job, 0, done);
}

/*
 * Signals the jobs qaic_ring_retire() collected. Called with the queue
 * locked, so that a timeout handler sees either the job on the ring or its
 * fence signalled, never in between.
 */
void qaic_ring_signal(struct qaic_queue *q, struct list_head *done)
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

static void qaic_ring_response(struct qaic_queue *q, u32 index, struct list_head *done)
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
		qaic_ring_retire(q, first, -EIO, done);
	}

	if (status && !job->error) {
		drm_dbg(drm, "DBC %u: req_id %u: device status %#x\n", q->id, req_id, status);
		job->error = -EIO;
	}
	if (++job->rsps < job->nrsps)
		return;
	qaic_ring_retire(q, job, 0, done);
	qaic_ring_retire_nops(q, done);
}

/*
 * Retires what the device completed: one RSPTP read. Returns how many
 * responses there were; qaic_ring_ack() tells the device.
 */
static u32 qaic_ring_reap(struct qaic_queue *q, struct list_head *done)
{
	u32 head, tail, n = 0;

	lockdep_assert_held(&q->lock);

	tail = readl(q->regs + QAIC_DBC_RSPTP);
	if (tail >= q->nelem) {
		drm_dbg(&q->qdev->drm, "DBC %u: RSPTP %u out of the ring (%u)\n",
			q->id, tail, q->nelem);
		return 0;
	}
	for (head = q->rsp_head; head != tail; head = qaic_ring_next(q, head), n++)
		qaic_ring_response(q, head, done);
	q->rsp_head = head;
	return n;
}

/* Gives the device the retired responses' slots back: one RSPHP write. */
static void qaic_ring_ack(struct qaic_queue *q)
{
	lockdep_assert_held(&q->lock);

	if (q->rsp_acked == q->rsp_head)
		return;
	writel(q->rsp_head, q->regs + QAIC_DBC_RSPHP);
	q->rsp_acked = q->rsp_head;
}

/* Responses the device owes for the jobs on the ring. */
static u32 qaic_ring_rsps_due(struct qaic_queue *q)
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
static u64 qaic_ring_poll_delay(struct qaic_queue *q, u32 found, bool timer, bool idle)
{
	u32 want = READ_ONCE(coalesce_rsps), due = qaic_ring_rsps_due(q);
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

	/*
	 * Coalesce only with more work due than one look takes: the look
	 * then comes while the device still works, so that the requests
	 * queued meanwhile are announced before it runs out, and no timer
	 * waits for the last response due. A shorter queue (a job alone or
	 * a few) is completed by interrupt, each response as it lands.
	 */
	if (want < 2 || due <= want || (timer && !found) || unacked >= q->nelem / 2)
		return 0;
	delay = (u64)want * q->rsp_ns;
	if (delay < QAIC_COALESCE_MIN_NS || 2 * q->rsp_ns > max_ns)
		return 0;
	return min(delay, max_ns);
}

/* A polled DBC's next look, if none is pending. */
static void qaic_ring_poll_arm(struct qaic_queue *q)
{
	u32 us = clamp(READ_ONCE(datapath_poll_interval_us), 10U, USEC_PER_SEC);

	lockdep_assert_held(&q->lock);

	if (hrtimer_active(&q->poll_timer))
		return;
	q->qdev->dbc[q->id].stats.polls++;
	hrtimer_start(&q->poll_timer, ns_to_ktime((u64)us * NSEC_PER_USEC), HRTIMER_MODE_REL);
}

/* Tells the device of every request on the ring: one REQTP write. */
static void qaic_ring_doorbell(struct qaic_queue *q)
{
	lockdep_assert_held(&q->lock);

	if (q->req_rung == q->req_tail)
		return;
	/* writel() orders the ring writes before the doorbell. */
	writel(q->req_tail, q->regs + QAIC_DBC_REQTP);
	q->req_rung = q->req_tail;
	q->qdev->dbc[q->id].stats.doorbells++;
	if (q->datapath_polling)
		qaic_ring_poll_arm(q);
}

/*
 * Whether the scheduler runs another job of this queue as soon as run_job
 * returns: the entity's next job waits for no fence and fits in the
 * credits left. Called from run_job, so on the scheduler's work item, the
 * only consumer of the entity's queue: the next job cannot be taken or
 * freed meanwhile, and its dependencies change only there. A job pushed
 * concurrently may be missed; then this job rings, as it would have.
 */
static bool qaic_ring_next_ready(struct qaic_queue *q)
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
 * Whether the device, busy with what it was told of, still has work when
 * the completion handler next looks (and rings): a look by the held-back
 * acknowledgment's timer comes before the last response due
 * (qaic_ring_poll_delay()), one by interrupt at the next response, so the
 * device must have a second request then.
 */
static bool qaic_ring_busy_past_look(const struct qaic_queue *q)
{
	u32 told = (q->req_rung + q->nelem - q->req_head) % q->nelem;

	return told && (q->polling || told >= 2);
}

/*
 * Rings for the requests on the ring, unless the next job will, or the
 * completion handler will before the device runs out of work.
 */
void qaic_ring_doorbell_batched(struct qaic_queue *q)
{
	u32 waiting = (q->req_tail + q->nelem - q->req_rung) % q->nelem;

	lockdep_assert_held(&q->lock);

	if (waiting < READ_ONCE(doorbell_batch) &&
	    (qaic_ring_busy_past_look(q) || qaic_ring_next_ready(q)))
		return;
	qaic_ring_doorbell(q);
}

static void qaic_ring_complete(struct qaic_queue *q)
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
	found = qaic_ring_reap(q, &done);
	idle = q->req_head == q->req_rung;
	qaic_ring_signal(q, &done);
	qaic_ring_doorbell(q);

	if (q->datapath_polling) {
		qaic_ring_ack(q);
		if (!list_empty(&q->inflight))
			qaic_ring_poll_arm(q);
		return;
	}
	delay = qaic_ring_poll_delay(q, found, timer, idle);
	if (!delay) {
		qaic_ring_ack(q);
		return;
	}
	q->polling = true;
	q->qdev->dbc[q->id].stats.polls++;
	hrtimer_start(&q->poll_timer, ns_to_ktime(delay), HRTIMER_MODE_REL);
}

/*
 * The held-back acknowledgment's look is due, or a polled DBC's: run the
 * completion handler, in its interrupt thread or, polled, in a work item.
 */
enum hrtimer_restart qaic_ring_poll_fire(struct hrtimer *timer)
{
	struct qaic_queue *q = container_of(timer, struct qaic_queue, poll_timer);

	if (q->datapath_polling)
		queue_work(system_highpri_wq, &q->poll_work);
	else
		irq_wake_thread(q->irq, q->irq_dev_id);
	return HRTIMER_NORESTART;
}

/**
 * qaic_ring_poll_work() - A polled DBC's look at its ring.
 * @work: &qaic_queue.poll_work.
 */
void qaic_ring_poll_work(struct work_struct *work)
{
	qaic_ring_complete(container_of(work, struct qaic_queue, poll_work));
}

/**
 * qaic_ring_datapath_polling() - Whether a DBC activated now is to be polled.
 *
 * Return: ``datapath_polling``.
 */
bool qaic_ring_datapath_polling(void)
{
	return READ_ONCE(datapath_polling);
}

/*
 * Marks the jobs the device may still work on as the host gives up on the
 * ring: those with a request before @head (fetched, no response yet) or
 * at it (maybe fetched). Call before they are retired.
 */
void qaic_ring_hold_fetched(struct qaic_queue *q, u32 head)
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
static void qaic_ring_reset(struct qaic_queue *q, u32 head, struct list_head *done)
{
	struct qaic_job *job, *next;
	int error = -EIO;
	u32 tail;

	lockdep_assert_held(&q->lock);

	drm_info(&q->qdev->drm, "DBC %u: no progress at request %u for %u ms: resetting\n",
		 q->id, head, jiffies_to_msecs(q->sched.timeout));
	qaic_coredump_dbc_hang(q);
	q->qdev->dbc[q->id].stats.resets++;
	trace_qaic_dbc_reset(q->qdev, q->id, head, q->req_tail);
	qaic_ring_hold_fetched(q, head);
	/* The oldest job is the stuck one; the others never ran. */
	list_for_each_entry_safe(job, next, &q->inflight, node) {
		qaic_ring_retire(q, job, error, done);
		error = -ECANCELED;
	}

	qaic_ring_scrub(q);
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
void qaic_ring_check(struct qaic_queue *q, struct list_head *done)
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
	qaic_ring_reap(q, done);
	qaic_ring_ack(q);
	if (list_empty(&q->inflight))
		return;

	/* Requests whose doorbell waited for a job the pause kept back. */
	qaic_ring_doorbell(q);
	head = readl(q->regs + QAIC_DBC_REQHP);
	if (!qaic_ring_head_plausible(q, head)) {
		drm_dbg(&q->qdev->drm, "DBC %u: REQHP %u not in %u..%u of %u\n",
			q->id, head, q->req_head, q->req_tail, q->nelem);
		head = q->req_head;
	} else if (head != q->hang_head) {
		q->hang_head = head;
		return;
	}
	if (head == q->req_tail) {
		drm_dbg(&q->qdev->drm, "DBC %u: requests consumed, responses lost\n", q->id);
		qaic_ring_hold_fetched(q, head);
		list_for_each_entry_safe(job, next, &q->inflight, node)
			qaic_ring_retire(q, job, -EIO, done);
		qaic_ring_scrub(q);
		return;
	}
	qaic_ring_reset(q, head, done);
}

/* Retires the DBC's completions; false if it has no queue. */
static bool qaic_dbc_service(struct qaic_dbc *dbc)
{
	struct qaic_queue *q = READ_ONCE(dbc->queue);

	/* qaic_queue_destroy() waits for the handlers before freeing @q. */
	if (!q)
		return false;
	qaic_ring_complete(q);
	return true;
}

/*
 * A vector of its own is the DBC's whatever the device sends: claim it even
 * without a queue, so that a device raising it at will cannot get it
 * disabled as spurious.
 */
static irqreturn_t qaic_dbc_irq(int irq, void *data)
{
	struct qaic_queue *q = READ_ONCE(((struct qaic_dbc *)data)->queue);

	return q && !q->datapath_polling ? IRQ_WAKE_THREAD : IRQ_HANDLED;
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
	struct qaic_queue *q;
	unsigned int i;

	for (i = 0; i < QAIC_NUM_DBC; i++) {
		q = READ_ONCE(qdev->dbc[i].queue);
		if (q && !q->datapath_polling)
			return IRQ_WAKE_THREAD;
	}
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
 * qaic_ring_irq_init() - Request the DBCs' completion interrupts.
 * @qdev: The card, its vectors allocated.
 *
 * With one vector per source DBC i has vector 1 + i. With a single vector
 * the DBCs share it with MHI, whose flags a shared handler must match.
 *
 * Return: 0 or a negative errno.
 */
int qaic_ring_irq_init(struct qaic_device *qdev)
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
