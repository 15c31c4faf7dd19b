// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The qaic authors.
 */

/**
 * DOC: qaic fdinfo
 *
 * /proc/<pid>/fdinfo/<fd> of an open /dev/accel/accelN shows what the file
 * had the card do, in the keys of Documentation/gpu/drm-usage-stats.rst.
 * The DRM core prints ``drm-driver`` (``qaic``), ``drm-client-id`` (one
 * number per open file) and ``drm-pdev`` (the card's PCI function); the
 * driver adds:
 *
 * ``drm-engine-dbc<N>: <ns> ns``
 *	One line per DMA Bridge Channel of the card, N = 0..15, whether the
 *	file used it or not. The value is the wall time, in nanoseconds, that
 *	DBC N had at least one of the file's jobs on its ring: from the ring
 *	write of a job that found no other job on the ring to the completion
 *	(or failure) of the job that left it empty. Jobs that overlap on a
 *	DBC count once, as the device runs a ring in order. A DBC belongs to
 *	one file at a time, so every job on its ring is its owner's. The time
 *	is added when the ring runs empty: a ring busy for a long time shows
 *	it at once, when its jobs are done.
 *
 * ``drm-{total,shared,active,resident,purgeable}-memory``
 *	The buffer objects the file has handles to, by drm_show_memory_stats().
 *	An object is resident while its pages exist: once mapped, sliced or
 *	imported, until the last of these is undone. None is purgeable (there
 *	is no madvise).
 *
 * ``qaic-stale-memory: <n> KiB``
 *	Ring and pinned user memory the card may still reach after MANAGE
 *	calls of the file whose answer never came (qaic_manage.c), kept until
 *	the file's terminate or a reset of the card. MANAGE fails with -EBUSY
 *	while it is 64 MiB or more.
 */

#include <linux/atomic.h>
#include <linux/ktime.h>

#include <drm/drm_file.h>
#include <drm/drm_print.h>

#include "qaic_drv.h"
#include "qaic_fdinfo.h"
#include "qaic_queue.h"

/**
 * qaic_fdinfo_busy_begin() - A job went on the ring.
 * @q: The queue; its lock is held.
 * @now: When the job was written to the ring.
 */
void qaic_fdinfo_busy_begin(struct qaic_queue *q, ktime_t now)
{
	lockdep_assert_held(&q->lock);

	if (!q->busy_since)
		q->busy_since = now;
}

/**
 * qaic_fdinfo_busy_end() - A job left the ring.
 * @q: The queue; its lock is held.
 * @now: When it completed or failed.
 *
 * If the ring is empty now, the time since it got its first job counts
 * for its owner.
 */
void qaic_fdinfo_busy_end(struct qaic_queue *q, ktime_t now)
{
	lockdep_assert_held(&q->lock);

	if (!q->busy_since || !list_empty(&q->inflight))
		return;
	if (q->busy_ns)
		atomic64_add(max(ktime_to_ns(ktime_sub(now, q->busy_since)), 0LL),
			     &q->busy_ns[q->id]);
	q->busy_since = 0;
}

/**
 * qaic_show_fdinfo() - &drm_driver.show_fdinfo: the file's usage.
 * @p: Where to print.
 * @file: The file.
 */
void qaic_show_fdinfo(struct drm_printer *p, struct drm_file *file)
{
	struct qaic_file_priv *priv = file->driver_priv;
	unsigned int i;

	for (i = 0; i < QAIC_NUM_DBC; i++)
		drm_printf(p, "drm-engine-dbc%u:\t%llu ns\n", i,
			   (u64)atomic64_read(&priv->busy_ns[i]));
	drm_show_memory_stats(p, file);
	drm_printf(p, "qaic-stale-memory:\t%llu KiB\n", READ_ONCE(priv->stale_bytes) >> 10);
}
