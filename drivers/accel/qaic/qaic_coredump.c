// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The qaic authors.
 */

/**
 * DOC: qaic crash dumps
 *
 * When a DBC hangs (its job timed out and the DBC is reset) or the card
 * crashes (MHI SYS_ERROR), the driver writes what it saw into a
 * devcoredump of the PCI device, /sys/class/devcoredump/devcdN/data,
 * before it gives the work up. The dump is text, one fact per line::
 *
 *   qaic devcoredump 1
 *   reason: dbc-hang | card-crash
 *   time_ns: <CLOCK_REALTIME>
 *   dbc <id>: nelem <n> req_head <h> req_tail <t> rsp_head <r> hang_head <g>
 *   dbc <id>: hw REQHP <h> REQTP <t> RSPHP <r> RSPTP <p>
 *   job <id>: req_id <q> requests <n> ring_end <e> responses <got>/<due> ran <0|1> age_us <us>
 *   jobs <id>: <n> more
 *   req <id>.<index>: <64 bytes of the request, hex>
 *   rsp <id>.<index>: <4 bytes of the response, hex>
 *   end
 *
 * One "dbc" pair per DBC the dump covers (the hung one, or every active
 * one when the card crashed; a crash with none active leaves no dump: the
 * host saw nothing, and the card's own memory dump, qaic_memdump.c,
 * is about to come), its jobs on the ring (the oldest %QAIC_DUMP_MAX_JOBS,
 * then a "jobs" line with how many more), then the requests the card had
 * not consumed by the driver's count (req_head to req_tail, at most
 * %QAIC_DUMP_MAX_REQS) and the responses it had not retired. The
 * register line is missing when the card crashed: it is not read then.
 * devcoredump keeps one dump per device until it is read and freed
 * (writing to ``data``) or five minutes passed; a dump made meanwhile is
 * dropped.
 *
 * Every dump of a card goes through qaic_coredump_submit(), which hands it
 * to the card's work item: dumps are written where the driver's locks are
 * held (a queue's lock in the timeout handler, the DBC lock at a crash),
 * but devcoredump adds a device, which takes the driver core's locks, and
 * those rank above locks that page faults and mmap take, which rank above
 * the driver's (a reservation, then a queue's lock). The work item also
 * hands them over one at a time: devcoredump looks for the device's dump
 * and then adds one without a lock, so two DBCs hanging in the same
 * instant (the card fell off the bus) would both add theirs, and the
 * second clashes with the first in sysfs.
 */

#include <linux/devcoredump.h>
#include <linux/io.h>
#include <linux/ktime.h>
#include <linux/seq_buf.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>

#include <drm/drm_managed.h>

#include <drm/drm_print.h>

#include "qaic_compat.h"
#include "qaic_coredump.h"
#include "qaic_drv.h"
#include "qaic_hw.h"
#include "qaic_queue.h"

#define QAIC_DUMP_VERSION	1
/* Requests of one DBC in a dump, at most; each is one line of 150 bytes. */
#define QAIC_DUMP_MAX_REQS	256
/* Jobs of one DBC in a dump, at most; each is one line of at most 128 bytes. */
#define QAIC_DUMP_MAX_JOBS	256
/*
 * Bytes of one DBC's part: its two lines, its jobs and the line saying how
 * many more there were, its requests and responses.
 */
#define QAIC_DUMP_DBC_BYTES	(512 + 128 * QAIC_DUMP_MAX_JOBS + 160 * 2 * QAIC_DUMP_MAX_REQS)

/**
 * struct qaic_dump - A dump being written.
 * @buf: Where, vmalloc()ed: devcoredump frees it.
 * @s: The text so far.
 */
struct qaic_dump {
	char *buf;
	struct seq_buf s;
};

static bool qaic_dump_begin(struct qaic_dump *d, unsigned int ndbc, const char *reason)
{
	size_t size = 256 + (size_t)ndbc * QAIC_DUMP_DBC_BYTES;

	d->buf = vmalloc(size);
	if (!d->buf)
		return false;
	seq_buf_init(&d->s, d->buf, size);
	seq_buf_printf(&d->s, "qaic devcoredump %u\nreason: %s\ntime_ns: %llu\n",
		       QAIC_DUMP_VERSION, reason, ktime_get_real_ns());
	return true;
}

static void qaic_dump_hex_line(struct qaic_dump *d, const char *what, u32 dbc, u32 index,
			       const void *p, size_t len)
{
	seq_buf_printf(&d->s, "%s %u.%u: %*phN\n", what, dbc, index, (int)len, p);
}

/*
 * The host's view of one DBC's rings and jobs; @q's lock is held. The
 * registers are read only if @read_hw (the card is alive); the responses
 * the card wrote and the host did not retire are known only then.
 */
static void qaic_dump_queue(struct qaic_dump *d, struct qaic_queue *q, bool read_hw)
{
	u32 rsp_tail = q->rsp_head;
	ktime_t now = ktime_get();
	struct qaic_job *job;
	u32 i, n;

	lockdep_assert_held(&q->lock);

	seq_buf_printf(&d->s, "dbc %u: nelem %u req_head %u req_tail %u rsp_head %u hang_head %u\n",
		       q->id, q->nelem, q->req_head, q->req_tail, q->rsp_head, q->hang_head);
	if (read_hw) {
		u32 reqhp = readl(q->regs + QAIC_DBC_REQHP);
		u32 reqtp = readl(q->regs + QAIC_DBC_REQTP);
		u32 rsphp = readl(q->regs + QAIC_DBC_RSPHP);
		u32 rsptp = readl(q->regs + QAIC_DBC_RSPTP);

		seq_buf_printf(&d->s, "dbc %u: hw REQHP %u REQTP %u RSPHP %u RSPTP %u\n",
			       q->id, reqhp, reqtp, rsphp, rsptp);
		/* The card is not trusted with the bounds of the loop below. */
		if (rsptp < q->nelem)
			rsp_tail = rsptp;
	}

	n = 0;
	list_for_each_entry(job, &q->inflight, node) {
		/* A ring of 65535 jobs would not fit: the oldest are told. */
		if (n++ >= QAIC_DUMP_MAX_JOBS)
			continue;
		seq_buf_printf(&d->s,
			       "job %u: req_id %u requests %u ring_end %u responses %u/%u ran %u age_us %lld\n",
			       q->id, job->req_id, job->nreqs, job->ring_end, job->rsps, job->nrsps,
			       job->ran, ktime_us_delta(now, job->t_submit));
	}
	if (n > QAIC_DUMP_MAX_JOBS)
		seq_buf_printf(&d->s, "jobs %u: %u more\n", q->id, n - QAIC_DUMP_MAX_JOBS);

	for (i = q->req_head, n = 0; i != q->req_tail && n < QAIC_DUMP_MAX_REQS;
	     i = (i + 1) % q->nelem, n++)
		qaic_dump_hex_line(d, "req", q->id, i, &q->req_ring[i], sizeof(q->req_ring[i]));
	for (i = q->rsp_head, n = 0; i != rsp_tail && n < QAIC_DUMP_MAX_REQS;
	     i = (i + 1) % q->nelem, n++)
		qaic_dump_hex_line(d, "rsp", q->id, i, &q->rsp_ring[i], sizeof(q->rsp_ring[i]));
}

static void qaic_dump_end(struct qaic_device *qdev, struct qaic_dump *d)
{
	seq_buf_puts(&d->s, "end\n");
	if (seq_buf_has_overflowed(&d->s)) {
		/* Sized for the worst case: cannot happen, but never send half. */
		drm_dbg(&qdev->drm, "coredump: overflowed, dropped\n");
		vfree(d->buf);
		return;
	}
	qaic_coredump_submit(qdev, d->buf, seq_buf_used(&d->s));
}

/**
 * struct qaic_coredump_pending - A dump on its way to devcoredump.
 * @node: In &qaic_device.coredumps.
 * @buf: The dump, vmalloc()ed.
 * @len: Its length in bytes.
 */
struct qaic_coredump_pending {
	struct list_head node;
	void *buf;
	size_t len;
};

/* Takes the next dump off the card's list, or NULL. */
static struct qaic_coredump_pending *qaic_coredump_next(struct qaic_device *qdev)
{
	struct qaic_coredump_pending *p;

	spin_lock(&qdev->coredump_lock);
	p = list_first_entry_or_null(&qdev->coredumps, struct qaic_coredump_pending, node);
	if (p)
		list_del(&p->node);
	spin_unlock(&qdev->coredump_lock);
	return p;
}

/* Hands the card's dumps to devcoredump, one at a time, holding no lock. */
static void qaic_coredump_work(struct work_struct *work)
{
	struct qaic_device *qdev = container_of(work, struct qaic_device, coredump_work);
	struct qaic_coredump_pending *p;

	while ((p = qaic_coredump_next(qdev))) {
		dev_coredumpv(&qdev->pdev->dev, p->buf, p->len, GFP_KERNEL);
		kfree(p);
	}
}

/* drmm action: the device goes; dumps not handed over are dropped. */
static void qaic_coredump_fini(struct drm_device *drm, void *data)
{
	struct qaic_device *qdev = data;
	struct qaic_coredump_pending *p;

	cancel_work_sync(&qdev->coredump_work);
	while ((p = qaic_coredump_next(qdev))) {
		vfree(p->buf);
		kfree(p);
	}
}

/**
 * qaic_coredump_init() - Set up the card's dumps.
 * @qdev: The card.
 *
 * Return: 0 or a negative errno.
 */
int qaic_coredump_init(struct qaic_device *qdev)
{
	spin_lock_init(&qdev->coredump_lock);
	INIT_LIST_HEAD(&qdev->coredumps);
	INIT_WORK(&qdev->coredump_work, qaic_coredump_work);
	return drmm_add_action_or_reset(&qdev->drm, qaic_coredump_fini, qdev);
}

/**
 * qaic_coredump_flush() - Hand every dump made so far to devcoredump.
 * @qdev: The card, going away: no new dump comes (remove).
 */
void qaic_coredump_flush(struct qaic_device *qdev)
{
	flush_work(&qdev->coredump_work);
}

/**
 * qaic_coredump_submit() - Hand a dump of the card to devcoredump.
 * @qdev: The card.
 * @buf: The dump, vmalloc()ed; taken over, also when it is dropped.
 * @len: Its length in bytes.
 *
 * Context: process context; any lock of the driver may be held. The dump
 * reaches devcoredump from the card's work item.
 */
void qaic_coredump_submit(struct qaic_device *qdev, void *buf, size_t len)
{
	struct qaic_coredump_pending *p;

	p = kmalloc_obj(*p, GFP_KERNEL);
	if (!p) {
		vfree(buf);
		return;
	}
	p->buf = buf;
	p->len = len;
	spin_lock(&qdev->coredump_lock);
	list_add_tail(&p->node, &qdev->coredumps);
	spin_unlock(&qdev->coredump_lock);
	queue_work(system_unbound_wq, &qdev->coredump_work);
}

/**
 * qaic_coredump_dbc_hang() - Dump a hung DBC before it is reset.
 * @q: The DBC's queue, locked; its registers readable.
 */
void qaic_coredump_dbc_hang(struct qaic_queue *q)
{
	struct qaic_dump d;

	lockdep_assert_held(&q->lock);

	if (!qaic_dump_begin(&d, 1, "dbc-hang"))
		return;
	qaic_dump_queue(&d, q, true);
	qaic_dump_end(q->qdev, &d);
}

/**
 * qaic_coredump_card_crash() - Dump every active DBC of a crashed card.
 * @qdev: The card, before its DBCs are released.
 */
void qaic_coredump_card_crash(struct qaic_device *qdev)
{
	struct qaic_dump d;
	unsigned int i, n = 0;

	/* No DBC comes or goes meanwhile. */
	guard(mutex)(&qdev->dbc_lock);

	for (i = 0; i < QAIC_NUM_DBC; i++)
		n += !!qdev->dbc[i].queue;
	if (!n || !qaic_dump_begin(&d, n, "card-crash"))
		return;
	for (i = 0; i < QAIC_NUM_DBC; i++) {
		struct qaic_dbc *dbc = &qdev->dbc[i];

		guard(mutex)(&dbc->lock);
		if (!dbc->queue)
			continue;
		guard(mutex)(&dbc->queue->lock);
		qaic_dump_queue(&d, dbc->queue, false);
	}
	qaic_dump_end(qdev, &d);
}
