/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The qaic authors.
 */

#ifndef _QAIC_RING_H_
#define _QAIC_RING_H_

#include <linux/hrtimer.h>
#include <linux/list.h>
#include <linux/types.h>

struct qaic_device;
struct qaic_job;
struct qaic_queue;

/*
 * The ring engine (qaic_ring.c) as the queue (qaic_queue.c) uses it; all
 * but qaic_ring_poll_fire() with &qaic_queue.lock held. Retiring moves
 * jobs to a list that qaic_ring_signal() then signals, so that the fences
 * of one look signal together, in order.
 */
bool qaic_ring_head_plausible(const struct qaic_queue *q, u32 head);
int qaic_ring_irq_init(struct qaic_device *qdev);
void qaic_ring_scrub(struct qaic_queue *q);
void qaic_ring_retire(struct qaic_queue *q, struct qaic_job *job, int error,
		      struct list_head *done);
void qaic_ring_retire_nops(struct qaic_queue *q, struct list_head *done);
void qaic_ring_signal(struct qaic_queue *q, struct list_head *done);
void qaic_ring_doorbell_batched(struct qaic_queue *q);
void qaic_ring_hold_fetched(struct qaic_queue *q, u32 head);
void qaic_ring_check(struct qaic_queue *q, struct list_head *done);
enum hrtimer_restart qaic_ring_poll_fire(struct hrtimer *timer);
void qaic_ring_poll_work(struct work_struct *work);
bool qaic_ring_datapath_polling(void);
void qaic_job_note_error(struct qaic_job *job);

#endif /* _QAIC_RING_H_ */
