// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The qaic authors.
 */

/**
 * DOC: qaic debugfs
 *
 * Each DMA Bridge Channel has a directory ``dbc<NNN>`` (three digits, as
 * Linux 6.12's qaic names them) in the card's DRM debugfs directory,
 * /sys/kernel/debug/accel/<PCI function>/. Its files are read-only:
 *
 * ``fifo_size``
 *	Entries in each of the DBC's rings; 0 while it is not active.
 * ``queued``
 *	Request ring entries the driver wrote that no completion has shown
 *	consumed yet: req_tail - req_head modulo fifo_size.
 * ``state``
 *	One ``key: value`` line each: ``owner`` (the id of the file that
 *	activated it, 0 if none), ``draining``, ``fifo_size``, ``req_head``,
 *	``req_tail``, ``rsp_head`` (the ring indexes as the driver holds them),
 *	``queued``, ``credits`` and ``credit_limit`` (ring slots the scheduler
 *	has given to jobs, and the most it gives), ``jobs_in_flight`` (jobs on
 *	the ring), ``jobs_pending`` (jobs made and not freed yet),
 *	``next_req_id``, ``bad_responses``, then the counters kept since the
 *	card was probed: ``requests`` (written to the ring), ``doorbells``
 *	(REQTP writes that announced them: one per run of ready jobs),
 *	``polls`` (looks at the response ring by timer, see qaic_queue.c),
 *	``jobs`` (retired, failed ones included), ``resets`` (after a job made
 *	no progress) and ``last_error`` (of the last job that failed, 0 if none
 *	did); then the
 *	device's registers as read now: ``REQHP``, ``REQTP``, ``RSPHP`` and
 *	``RSPTP``, while the DBC is active and the card present.
 *
 * The values are taken under the DBC's locks, so they agree with each other.
 */

#include <linux/debugfs.h>
#include <linux/io.h>
#include <linux/kernel.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/seq_file.h>

#include <drm/drm_drv.h>
#include <drm/drm_managed.h>

#include "qaic_debugfs.h"
#include "qaic_drv.h"
#include "qaic_hw.h"
#include "qaic_queue.h"

/* Room for the name of a DBC's directory, "dbc" and its number. */
#define QAIC_DEBUGFS_DBC_NAME	16

struct qaic_debugfs_dbc {
	struct qaic_device *qdev;
	unsigned int id;
};

static u32 qaic_debugfs_queued(const struct qaic_queue *q)
{
	return (q->req_tail + q->nelem - q->req_head) % q->nelem;
}

/* Prints the queue's state; its lock is held. */
static void qaic_debugfs_show_queue(struct seq_file *m, struct qaic_queue *q)
{
	struct qaic_job *job;
	u32 n = 0;
	int idx;

	lockdep_assert_held(&q->lock);

	list_for_each_entry(job, &q->inflight, node)
		n++;
	seq_printf(m, "req_head: %u\nreq_tail: %u\nrsp_head: %u\nqueued: %u\n",
		   q->req_head, q->req_tail, q->rsp_head, qaic_debugfs_queued(q));
	seq_printf(m, "credits: %d\ncredit_limit: %u\n",
		   atomic_read(&q->sched.credit_count), q->sched.credit_limit);
	seq_printf(m, "jobs_in_flight: %u\njobs_pending: %u\nnext_req_id: %u\n",
		   n, q->njobs, q->next_id);
	seq_printf(m, "bad_responses: %llu\n", q->bad_rsp);

	if (q->dead || !drm_dev_enter(&q->qdev->drm, &idx))
		return;
	seq_printf(m, "REQHP: %u\nREQTP: %u\nRSPHP: %u\nRSPTP: %u\n",
		   readl(q->regs + QAIC_DBC_REQHP), readl(q->regs + QAIC_DBC_REQTP),
		   readl(q->regs + QAIC_DBC_RSPHP), readl(q->regs + QAIC_DBC_RSPTP));
	drm_dev_exit(idx);
}

static int qaic_debugfs_state_show(struct seq_file *m, void *unused)
{
	struct qaic_debugfs_dbc *d = m->private;
	struct qaic_dbc *dbc = &d->qdev->dbc[d->id];
	struct qaic_dbc_stats st;
	struct qaic_queue *q;

	if (mutex_lock_interruptible(&dbc->lock))
		return -EINTR;
	seq_printf(m, "owner: %u\ndraining: %d\nfifo_size: %u\n",
		   dbc->owner, dbc->draining, dbc->nelem);
	q = dbc->queue;
	if (q) {
		mutex_lock(&q->lock);
		st = dbc->stats;
		qaic_debugfs_show_queue(m, q);
		mutex_unlock(&q->lock);
	} else {
		st = dbc->stats;
	}
	mutex_unlock(&dbc->lock);

	seq_printf(m, "requests: %llu\ndoorbells: %llu\npolls: %llu\njobs: %llu\nresets: %llu\nlast_error: %d\n",
		   st.requests, st.doorbells, st.polls, st.jobs, st.resets, st.last_error);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(qaic_debugfs_state);

static int qaic_debugfs_fifo_size_show(struct seq_file *m, void *unused)
{
	struct qaic_debugfs_dbc *d = m->private;
	struct qaic_dbc *dbc = &d->qdev->dbc[d->id];

	if (mutex_lock_interruptible(&dbc->lock))
		return -EINTR;
	seq_printf(m, "%u\n", dbc->nelem);
	mutex_unlock(&dbc->lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(qaic_debugfs_fifo_size);

static int qaic_debugfs_queued_show(struct seq_file *m, void *unused)
{
	struct qaic_debugfs_dbc *d = m->private;
	struct qaic_dbc *dbc = &d->qdev->dbc[d->id];
	struct qaic_queue *q;
	u32 queued = 0;

	if (mutex_lock_interruptible(&dbc->lock))
		return -EINTR;
	q = dbc->queue;
	if (q) {
		mutex_lock(&q->lock);
		queued = qaic_debugfs_queued(q);
		mutex_unlock(&q->lock);
	}
	mutex_unlock(&dbc->lock);
	seq_printf(m, "%u\n", queued);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(qaic_debugfs_queued);

/**
 * qaic_debugfs_dbc_init() - Make the DBCs' debugfs directories.
 * @qdev: The card, before its DRM device is registered.
 *
 * Debugfs failures are not the card's: nothing is returned.
 */
void qaic_debugfs_dbc_init(struct qaic_device *qdev)
{
	char name[QAIC_DEBUGFS_DBC_NAME];
	struct qaic_debugfs_dbc *d;
	struct dentry *dir;
	unsigned int i;

	d = drmm_kcalloc(&qdev->drm, QAIC_NUM_DBC, sizeof(*d), GFP_KERNEL);
	if (!d)
		return;
	for (i = 0; i < QAIC_NUM_DBC; i++) {
		d[i].qdev = qdev;
		d[i].id = i;
		snprintf(name, sizeof(name), "dbc%03u", i);
		dir = debugfs_create_dir(name, qdev->drm.debugfs_root);
		debugfs_create_file("fifo_size", 0400, dir, &d[i], &qaic_debugfs_fifo_size_fops);
		debugfs_create_file("queued", 0400, dir, &d[i], &qaic_debugfs_queued_fops);
		debugfs_create_file("state", 0400, dir, &d[i], &qaic_debugfs_state_fops);
	}
}
