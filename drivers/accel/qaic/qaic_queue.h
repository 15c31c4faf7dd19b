/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The qaic authors.
 */

#ifndef _QAIC_QUEUE_H_
#define _QAIC_QUEUE_H_

#include <linux/dma-fence.h>
#include <linux/hrtimer.h>
#include <linux/interrupt.h>
#include <linux/kref.h>
#include <linux/ktime.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/sizes.h>
#include <linux/types.h>
#include <linux/workqueue.h>

#include <drm/gpu_scheduler.h>

struct qaic_bo;
struct qaic_dbc;
struct qaic_dbc_req;
struct qaic_dbc_rsp;
struct qaic_device;
struct drm_device;
struct drm_file;

/**
 * struct qaic_queue - The work queue of one active DMA Bridge Channel.
 * @sched: Feeds the request ring; one credit is one ring slot.
 * @entity: The only entity: a DBC belongs to one file.
 * @qdev: The card.
 * @id: The DBC's number.
 * @regs: The DBC's registers.
 * @req_ring: Request ring, @nelem elements.
 * @rsp_ring: Response ring, @nelem elements.
 * @nelem: Elements in each ring.
 * @max_credits: Most ring slots jobs may hold at once, and so the most one
 *		 job may take.
 * @irq: The interrupt its completions arrive on.
 * @lock: Protects the ring indexes, @inflight and @ids, and serialises
 *	  run_job, completion and reset. A mutex: every path is in process
 *	  context, and an MMIO write may sleep (User-Mode Linux).
 * @pause_lock: Serialises pausing and restarting the scheduler's work:
 *		the timeout handler's and qaic_queue_destroy()'s, so that
 *		one does not restart it under the other. Taken before @lock.
 * @req_tail: Next request slot the host fills.
 * @req_rung: What REQTP was last set to: the device was told of every
 *	      request before it. Requests from here to @req_tail are on the
 *	      ring, and their doorbell waits for the job run next.
 * @req_head: Shadow of REQHP: the device consumed everything before it,
 *	      as completions proved. Submission never reads REQHP.
 * @rsp_head: Next response to retire; what RSPHP was set to.
 * @hang_head: REQHP as the last timeout (or completion) saw it.
 * @inflight: Jobs on the ring, oldest first; the device runs them in order.
 * @ids: In-flight jobs by req_id & @id_mask.
 * @id_mask: Entries at @ids minus 1; @ids has more entries than jobs can be
 *	     in flight (one credit at least each), so ids never collide.
 * @next_id: req_id of the next job.
 * @fence_ctx: Fence context of the hardware fences.
 * @fence_seqno: Last hardware fence sequence number given out.
 * @dead: The DBC is going away: run_job cancels what it is given. Set
 *	  under @lock and the DBC's lock.
 * @nrun: Jobs given to run_job and not freed yet; teardown waits for 0,
 *	  as the scheduler must not be finished with such jobs pending.
 * @refs: One for the DBC, one per job: a job cancelled while it waits for
 *	  a fence is freed whenever that fence signals, maybe long after the
 *	  DBC went away, through the scheduler's callbacks. Until the last
 *	  reference is gone the queue also holds the DRM device and the
 *	  module, whose code those callbacks run.
 * @jobs: Every job made on the queue and not freed yet, oldest first
 *	  (which is fence order); under @lock.
 * @njobs: Entries on @jobs; at most %QAIC_QUEUE_MAX_JOBS.
 * @copy_bytes: Bytes of the partial executions' own requests held by the
 *		jobs on @jobs; at most %QAIC_QUEUE_MAX_COPY_BYTES.
 * @bad_rsp: Responses that named no job in flight (ignored).
 * @busy_ns: The owner's &qaic_file_priv.busy_ns of the DBC; NULL if the
 *	     owner was not found. The owner outlives the queue.
 * @busy_since: When the ring last went from no job to one; 0 while no job
 *		is on it. Under @lock.
 * @irq_dev_id: The dev_id of the completion handler of @irq.
 * @rsp_acked: The response ring's head as last written to RSPHP; behind
 *	       @rsp_head while an acknowledgment is held back. Under @lock.
 * @poll_timer: Wakes the completion handler to look at the ring again
 *		while an acknowledgment is held back; cancelled by teardown
 *		once @dead keeps it from being started again.
 * @polling: The next look is @poll_timer's. Under @lock.
 * @datapath_polling: The DBC takes no completion interrupt: @poll_timer
 *		      looks at the ring while it has jobs, through
 *		      @poll_work. Set at creation (``datapath_polling``).
 * @poll_work: Runs a polled DBC's look; cancelled by teardown after
 *	       @poll_timer.
 * @rsp_ns: Estimated nanoseconds the device takes per response while it
 *	    has work; 0 until measured. Under @lock.
 * @t_look: When the completion handler last looked at the ring and left
 *	    responses due; 0 if it left none. Under @lock.
 * @held: Jobs the host gave up on while the device may still work on them
 *	  (&qaic_job.held), kept with their objects after their fences
 *	  signalled and the scheduler freed them; under @lock. They stay on
 *	  @jobs, so they count against the queue's limits, and go when the
 *	  DBC is released (qaic_queue_destroy()).
 */
struct qaic_queue {
	struct drm_gpu_scheduler sched;
	struct drm_sched_entity entity;
	struct qaic_device *qdev;
	unsigned int id;
	void __iomem *regs;
	struct qaic_dbc_req *req_ring;
	struct qaic_dbc_rsp *rsp_ring;
	u32 nelem;
	u32 max_credits;
	int irq;
	struct mutex lock; /* Protects the rings' state; see above */
	struct mutex pause_lock; /* Serialises sched work stop and start */
	u32 req_tail;
	u32 req_rung;
	u32 req_head;
	u32 rsp_head;
	u32 hang_head;
	struct list_head inflight;
	struct qaic_job **ids;
	u32 id_mask;
	u16 next_id;
	u64 fence_ctx;
	u64 fence_seqno;
	bool dead;
	atomic_t nrun;
	struct kref refs;
	struct list_head jobs;
	u32 njobs;
	size_t copy_bytes;
	u64 bad_rsp;
	atomic64_t *busy_ns;
	ktime_t busy_since;
	void *irq_dev_id;
	u32 rsp_acked;
	struct hrtimer poll_timer;
	bool polling;
	bool datapath_polling;
	struct work_struct poll_work;
	u64 rsp_ns;
	ktime_t t_look;
	struct list_head held;
};

/*
 * What one user can make a DBC hold: jobs made and not freed yet (those
 * queued behind a fence that never signals included), and the copies of
 * the requests partial executions resize.
 */
#define QAIC_QUEUE_MAX_JOBS		4096
#define QAIC_QUEUE_MAX_COPY_BYTES	SZ_16M

/**
 * struct qaic_job - One execution of a sliced buffer object.
 * @base: The scheduler's job; credits are @nreqs.
 * @queue: Where it runs.
 * @bo: The object; a reference is held.
 * @reqs: The requests to queue: the object's, or @own_reqs.
 * @own_reqs: Requests of a partial execution, freed with the job.
 * @nreqs: Entries at @reqs.
 * @nrsps: Responses that complete it: one per slice.
 * @rsps: Responses seen so far.
 * @write: The device writes the object (DMA from the device).
 * @error: First error seen: -EIO for an error status.
 * @req_id: Its id on the ring.
 * @ring_end: Ring slot after its last request.
 * @queue_level: Ring slots in use ahead of it when queued.
 * @hw_fence: Signalled when the device is done with it, or when it is
 *	      cancelled; always in the order the jobs were made. This is the
 *	      fence userspace and other drivers see (reservations, syncobjs,
 *	      sync_files): it does not point at the queue, so it may outlive
 *	      it, and it holds the module as long as it lives.
 * @node: In &qaic_queue.inflight.
 * @link: In &qaic_queue.jobs.
 * @nop: It was failed in run_job and put no request on the ring; it is
 *	 retired in turn, so that its fence signals after the older ones.
 * @copy_bytes: Bytes at @own_reqs, counted in &qaic_queue.copy_bytes.
 * @t_submit: When the ioctl queued it.
 * @t_run: When it was put on the ring.
 * @ran: It was given to run_job: it counts in &qaic_queue.nrun.
 * @held: The host gave up on it (a DBC reset, lost responses, a card that
 *	  crashed) after the device fetched its requests: the device may
 *	  still transfer to and from its object. Once the scheduler is done
 *	  with it, it waits on &qaic_queue.held, with its reference to the
 *	  object (which keeps the object's pages and their DMA mapping),
 *	  until the card provably stopped: the DBC was released on the
 *	  card's answer or the card was reset.
 */
struct qaic_job {
	struct drm_sched_job base;
	struct qaic_queue *queue;
	struct qaic_bo *bo;
	const struct qaic_dbc_req *reqs;
	struct qaic_dbc_req *own_reqs;
	u32 nreqs;
	u32 nrsps;
	u32 rsps;
	bool write;
	int error;
	u16 req_id;
	u32 ring_end;
	u32 queue_level;
	struct dma_fence *hw_fence;
	struct list_head node;
	struct list_head link;
	bool nop;
	size_t copy_bytes;
	ktime_t t_submit;
	ktime_t t_run;
	bool ran;
	bool held;
};

int qaic_queue_create(struct qaic_device *qdev, struct qaic_dbc *dbc, unsigned int id);
void qaic_queue_destroy(struct qaic_device *qdev, struct qaic_dbc *dbc, int error,
			struct list_head *park);
void qaic_queue_free_held(struct list_head *held);
bool qaic_queue_busy(struct qaic_dbc *dbc);

struct qaic_job *qaic_job_alloc(struct qaic_queue *q, struct qaic_bo *bo, u32 nreqs,
				struct qaic_dbc_req *own_reqs, size_t own_bytes, u64 client_id);
void qaic_job_free_unqueued(struct qaic_job *job);
int qaic_job_add_dependency(struct qaic_job *job, struct dma_fence *fence);

/* A DBC of the caller's file, or an errno and a drm_dbg() line */
struct qaic_dbc *qaic_dbc_lock_owned(struct qaic_device *qdev, struct drm_file *file,
				     u32 dbc_id, const char *what);
int qaic_dbc_check_owned(struct qaic_device *qdev, struct drm_file *file, u32 dbc_id,
			 const char *what);

#endif /* _QAIC_QUEUE_H_ */
