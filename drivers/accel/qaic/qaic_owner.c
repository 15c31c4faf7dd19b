// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The qaic authors.
 */

/**
 * DOC: qaic owner
 *
 * The memory the card can reach, and who owns it until the card cannot:
 * the rings of every DMA Bridge Channel (DBC), the user pages of MANAGE's
 * DMA transfers, and the objects of the jobs a DBC was given. The rule:
 * each is released through this file (or, for the jobs' objects, through
 * qaic_queue_free_held(), which only this file calls for memory the card
 * kept), and only once the card provably cannot reach it any more:
 *
 * - it answered the release: a deactivate's answer names the DBC, or the
 *   file's terminate was answered;
 * - it was reset, or is gone: its MHI was reset or powered down and bus
 *   mastering is off (qaic_owner_release_all(), qaic_owner_unpark());
 * - or the DBC engine was stopped and said so (qaic_queue.c holds the
 *   jobs of a ring it reset until then).
 *
 * Until then the memory stays allocated, mapped and pinned, parked:
 *
 * - on the file (&qaic_file_priv.stale) when a MANAGE message whose
 *   answer never came may have reached the card (a fatal signal, a
 *   timeout): the rings of its activate, the pages of its DMA transfers;
 *   until the file's terminate. A file that keeps %QAIC_MANAGE_FILE_STALE_MAX
 *   bytes or more so gets -EBUSY from MANAGE until then (qaic_manage.c),
 *   so that calls killed over and over cannot keep memory without bound;
 * - on the card (&qaic_device.parked_jobs, &qaic_device.parked_stale, the
 *   rings on their DBCs) when the card crashed: its DBC engines may run
 *   until the MHI core has reset it (qaic_owner_park_all()).
 *
 * What is parked is bounded: per file as above, per card by the files'
 * bounds and the 16 DBCs' rings; the rings are charged to the memory
 * cgroup of the process that activated them, the pages to its pinned_vm
 * (long-term pins). A DBC is the file's from the activate's answer until
 * the card released it; a deactivate takes it from the file first
 * (draining), and gives it back if the card refuses.
 */

#include <linux/dma-mapping.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/string.h>

#include <drm/drm_drv.h>
#include <drm/drm_print.h>

#include "qaic_cntl.h"
#include "qaic_compat.h"
#include "qaic_drv.h"
#include "qaic_nnc.h"
#include "qaic_owner.h"
#include "qaic_pin.h"
#include "qaic_queue.h"

/* DBC ring layout, as the card expects it. */
#define QAIC_DBC_REQ_ELEM_SIZE	64
#define QAIC_DBC_RSP_ELEM_SIZE	4
#define QAIC_DBC_RING_GAP	SZ_256
#define QAIC_DBC_RING_ALIGN	SZ_4K
/*
 * Most elements a ring may have: req_id is 16 bits, so a queue never has
 * more jobs in flight than that, and a bigger ring would only hold idle
 * memory (at most 4.3 MiB a DBC, if it can be had contiguous at all).
 */
#define QAIC_DBC_MAX_NELEM	SZ_64K

/**
 * struct qaic_stale - What the card may still reach after a message whose
 *		       answer never came.
 * @node: In &qaic_file_priv.stale, or &qaic_device.parked_stale.
 * @ring: The rings of its activate; none if @ring.cpu is NULL.
 * @pin: The pages of its DMA transfers, pinned and mapped; none if
 *	 @pin.npages is 0.
 *
 * Kept until the file's terminate, after which the card reaches nothing
 * the file gave it, or a reset of the card.
 */
struct qaic_stale {
	struct list_head node;
	struct qaic_ring_mem ring;
	struct qaic_pin pin;
};

/**
 * qaic_owner_free_ring() - Free the rings of an activate.
 * @qdev: The card, which cannot reach them.
 * @mem: The rings; empty afterwards. Nothing happens if it already is.
 */
void qaic_owner_free_ring(struct qaic_device *qdev, struct qaic_ring_mem *mem)
{
	if (mem->cpu)
		dma_free_coherent(&qdev->pdev->dev, mem->size, mem->cpu, mem->dma);
	memset(mem, 0, sizeof(*mem));
}

/**
 * qaic_owner_alloc_ring() - Allocate the rings of an activate.
 * @qdev: The card.
 * @nelem: Elements of each ring, as the user asked.
 * @mem: Set to the rings.
 * @ring: Set to the rings as the codec sends them.
 *
 * Bounded, and charged to the caller's memory cgroup: dma-direct and the
 * IOMMU's DMA ops take the pages from the page allocator with these flags
 * (a CMA area, where one is used, is not charged). The charge goes with
 * the pages, also when they outlive the caller (parked after a lost
 * answer, or after a crash). A cgroup at its limit fails the activate
 * with -ENOMEM rather than OOM-killing someone: behind an IOMMU the rings
 * are order-0 pages, which the memcg charge would otherwise reclaim and
 * kill for (__GFP_RETRY_MAYFAIL, as %QAIC_GFP_USER has).
 *
 * Return: 0, -EINVAL for more elements than a ring may have, -ENOMEM.
 */
int qaic_owner_alloc_ring(struct qaic_device *qdev, u32 nelem, struct qaic_ring_mem *mem,
			  struct qaic_nnc_ring *ring)
{
	u64 size;

	if (nelem > QAIC_DBC_MAX_NELEM) {
		drm_dbg(&qdev->drm, "manage: queue size %u, at most %u\n",
			nelem, QAIC_DBC_MAX_NELEM);
		return -EINVAL;
	}
	size = (u64)nelem * (QAIC_DBC_REQ_ELEM_SIZE + QAIC_DBC_RSP_ELEM_SIZE);
	size = ALIGN(size + QAIC_DBC_RING_GAP, QAIC_DBC_RING_ALIGN);

	mem->cpu = dma_alloc_coherent(&qdev->pdev->dev, size, &mem->dma, QAIC_GFP_USER);
	if (!mem->cpu)
		return -ENOMEM;
	mem->size = size;
	*ring = (struct qaic_nnc_ring){
		.req_addr = mem->dma,
		.rsp_addr = mem->dma + size - (u64)nelem * QAIC_DBC_RSP_ELEM_SIZE,
		.nelem = nelem,
		.buf_len = size,
	};
	return 0;
}

/* Bit i set: the file activated DBC i and did not deactivate it. */
static u32 qaic_owner_owned_locked(struct qaic_device *qdev, u32 id)
{
	u32 mask = 0;
	unsigned int i;

	lockdep_assert_held(&qdev->dbc_lock);

	for (i = 0; i < QAIC_NUM_DBC; i++)
		if (qdev->dbc[i].owner == id && !qdev->dbc[i].draining)
			mask |= BIT(i);
	return mask;
}

/* Takes the DBCs of @mask from the file, or gives them back. */
static void qaic_owner_set_draining_locked(struct qaic_device *qdev, u32 id,
					   unsigned long mask, bool draining)
{
	unsigned int i;

	lockdep_assert_held(&qdev->dbc_lock);

	for_each_set_bit(i, &mask, QAIC_NUM_DBC) {
		struct qaic_dbc *dbc = &qdev->dbc[i];

		guard(mutex)(&dbc->lock);
		if (dbc->owner == id)
			dbc->draining = draining;
	}
}

/* Frees the rings of @dbc: the card cannot reach them. */
static void qaic_owner_free_dbc_ring(struct qaic_device *qdev, struct qaic_dbc *dbc)
{
	struct qaic_ring_mem mem = {
		.cpu = dbc->ring,
		.dma = dbc->ring_dma,
		.size = dbc->ring_size,
	};

	qaic_owner_free_ring(qdev, &mem);
	dbc->ring = NULL;
	dbc->ring_dma = 0;
	dbc->ring_size = 0;
}

/*
 * Stops the DBC's queue, its jobs failing with @error, and takes it from
 * its owner. Its rings and held jobs are freed, the card being done with
 * them; unless @park: the card may still be running (it crashed, and is not
 * reset yet), and the rings stay on the DBC, free but not usable by
 * anyone, the held jobs on &qaic_device.parked_jobs, until
 * qaic_owner_unpark().
 */
static void qaic_owner_stop_dbc_locked(struct qaic_device *qdev, struct qaic_dbc *dbc,
				       int error, bool park)
{
	lockdep_assert_held(&qdev->dbc_lock);

	guard(mutex)(&dbc->lock);
	qaic_queue_destroy(qdev, dbc, error, park ? &qdev->parked_jobs : NULL);
	if (!park)
		qaic_owner_free_dbc_ring(qdev, dbc);
	dbc->owner = 0;
	dbc->draining = false;
	dbc->nelem = 0;
	WRITE_ONCE(dbc->activation, 0);
	qaic_dbc_state_changed(qdev, dbc - qdev->dbc);
}

/* Releases the DBC: the card is done with it, or a new grant says so. */
static void qaic_owner_release_dbc_locked(struct qaic_device *qdev, struct qaic_dbc *dbc,
					  int error)
{
	qaic_owner_stop_dbc_locked(qdev, dbc, error, false);
}

/**
 * qaic_owner_account() - Act on what the card activated and released.
 * @qdev: The card.
 * @id: The file whose message the card answered.
 * @ans: The decoded answer.
 * @released: The answer is sound: its deactivates may be acted on.
 * @mem: The rings of the message's activate; taken over (emptied) when
 *	 the card granted it.
 * @nelem: Elements of each of those rings.
 */
void qaic_owner_account(struct qaic_device *qdev, u32 id, const struct qaic_nnc_answer *ans,
			bool released, struct qaic_ring_mem *mem, u32 nelem)
{
	struct drm_device *drm = &qdev->drm;
	unsigned long bits;
	unsigned int i;

	guard(mutex)(&qdev->dbc_lock);

	if (ans->activated) {
		struct qaic_dbc *dbc = &qdev->dbc[ans->dbc_id];

		/*
		 * The card only grants a channel it considers free: rings
		 * still recorded here (an answer to a deactivate that was
		 * lost) are not in use any more.
		 */
		if (dbc->owner)
			drm_dbg(drm, "manage: DBC %u granted again, was file %u's\n",
				ans->dbc_id, dbc->owner);
		qaic_owner_release_dbc_locked(qdev, dbc, -ECANCELED);
		mutex_lock(&dbc->lock);
		dbc->owner = id;
		WRITE_ONCE(dbc->activation, ++qdev->activations);
		dbc->ring = mem->cpu;
		dbc->ring_dma = mem->dma;
		dbc->ring_size = mem->size;
		dbc->nelem = nelem;
		memset(mem, 0, sizeof(*mem));
		/* Without a queue the DBC is the file's, but execute fails. */
		qaic_queue_create(qdev, dbc, ans->dbc_id);
		qaic_dbc_state_changed(qdev, ans->dbc_id);
		mutex_unlock(&dbc->lock);
	}

	if (!released)
		return;
	/* The card kept these: they are the file's again. */
	qaic_owner_set_draining_locked(qdev, id, ans->deactivate_failed, false);
	bits = ans->deactivated;
	for_each_set_bit(i, &bits, QAIC_NUM_DBC) {
		if (qdev->dbc[i].owner != id || !qdev->dbc[i].draining) {
			drm_dbg(drm, "manage: card released DBC %u, not deactivated by file %u\n",
				i, id);
			continue;
		}
		qaic_owner_release_dbc_locked(qdev, &qdev->dbc[i], -ECANCELED);
	}
}

/**
 * qaic_owner_take_dbcs() - Take the DBCs a message deactivates from the file.
 * @qdev: The card.
 * @id: The file.
 * @mask: Bit i set: the message deactivates DBC i.
 *
 * Return: 0, or -EPERM if the file does not hold them all (nothing taken).
 */
int qaic_owner_take_dbcs(struct qaic_device *qdev, u32 id, u32 mask)
{
	u32 owned;

	if (!mask)
		return 0;

	guard(mutex)(&qdev->dbc_lock);
	owned = qaic_owner_owned_locked(qdev, id);
	if (mask & ~owned) {
		drm_dbg(&qdev->drm, "manage: deactivate of DBCs %#x that file %u does not hold\n",
			mask & ~owned, id);
		return -EPERM;
	}
	qaic_owner_set_draining_locked(qdev, id, mask, true);
	return 0;
}

/**
 * qaic_owner_return_dbcs() - Give the DBCs back: the message never reached the card.
 * @qdev: The card.
 * @id: The file.
 * @mask: What qaic_owner_take_dbcs() took.
 */
void qaic_owner_return_dbcs(struct qaic_device *qdev, u32 id, u32 mask)
{
	guard(mutex)(&qdev->dbc_lock);
	qaic_owner_set_draining_locked(qdev, id, mask, false);
}

static u64 qaic_owner_stale_size(const struct qaic_stale *stale)
{
	return (stale->ring.cpu ? stale->ring.size : 0) + ((u64)stale->pin.npages << PAGE_SHIFT);
}

/**
 * qaic_owner_park() - Keep what the card may still reach until the file's terminate.
 * @qdev: The card.
 * @priv: The file whose message's answer never came.
 * @mem: The rings of an activate the card may have granted without the
 *	 driver learning of it, taken over; or NULL.
 * @pin: Pages of that message, taken over; or NULL.
 *
 * Frees nothing if it cannot keep it: the caller then does, with what it
 * did not hand over (@mem and @pin are emptied only when taken).
 */
void qaic_owner_park(struct qaic_device *qdev, struct qaic_file_priv *priv,
		     struct qaic_ring_mem *mem, struct qaic_pin *pin)
{
	struct qaic_stale *stale;

	stale = kzalloc_obj(*stale, GFP_KERNEL);
	if (!stale)
		return;
	if (mem) {
		stale->ring = *mem;
		memset(mem, 0, sizeof(*mem));
	}
	if (pin) {
		stale->pin = *pin;
		memset(pin, 0, sizeof(*pin));
	}
	mutex_lock(&qdev->dbc_lock);
	list_add_tail(&stale->node, &priv->stale);
	WRITE_ONCE(priv->stale_bytes, priv->stale_bytes + qaic_owner_stale_size(stale));
	mutex_unlock(&qdev->dbc_lock);
}

/* Whether the card may reach memory of @priv's: rings of its DBCs, stale memory. */
static bool qaic_owner_file_holds(struct qaic_device *qdev, struct qaic_file_priv *priv)
{
	unsigned int i;

	guard(mutex)(&qdev->dbc_lock);
	for (i = 0; i < QAIC_NUM_DBC; i++)
		if (qdev->dbc[i].owner == priv->id)
			return true;
	return !list_empty(&priv->stale);
}

/* Frees what the card could still reach of @priv's: it no longer can. */
static void qaic_owner_free_stale_locked(struct qaic_device *qdev, struct qaic_file_priv *priv)
{
	struct qaic_stale *stale, *next;

	lockdep_assert_held(&qdev->dbc_lock);

	list_for_each_entry_safe(stale, next, &priv->stale, node) {
		WRITE_ONCE(priv->stale_bytes, priv->stale_bytes - qaic_owner_stale_size(stale));
		qaic_owner_free_ring(qdev, &stale->ring);
		qaic_pin_release(qdev, &stale->pin);
		list_del(&stale->node);
		kfree(stale);
	}
}

/**
 * qaic_owner_release_file() - Release what a closing file holds on the card.
 * @qdev: The card.
 * @priv: The file.
 *
 * Sends a terminate message for the file's handle if it talked to the card
 * and the card is still there, then frees the rings of its DBCs and those
 * of activates whose answer was lost.
 *
 * The memory is freed only once the card cannot reach it any more: it
 * answered the terminate; or its control path was down (it is being
 * reset, or it is gone, and that path releases every DBC); or, when the
 * terminate got no answer (a silent or broken card, no memory for it), the
 * card was reset first, here, which makes it forget the file. The wait
 * for the answer is bounded (``control_resp_timeout_s``) and not cut short
 * by signals: a process killed with the file open closes it with a fatal
 * signal pending.
 */
void qaic_owner_release_file(struct qaic_device *qdev, struct qaic_file_priv *priv)
{
	unsigned int i;
	int ret = 0;
	int idx;

	if (READ_ONCE(priv->nnc_used) && drm_dev_enter(&qdev->drm, &idx)) {
		if (qaic_cntl_is_up(qdev->cntl))
			ret = qaic_manage_terminate(qdev, priv->id);
		drm_dev_exit(idx);
	}
	if (ret && ret != -ENODEV && qaic_owner_file_holds(qdev, priv)) {
		char why[64];

		snprintf(why, sizeof(why), "no answer to the terminate of file %u (%d)", priv->id,
			 ret);
		qaic_reset_card_now(qdev, why);
	}

	guard(mutex)(&qdev->dbc_lock);
	for (i = 0; i < QAIC_NUM_DBC; i++)
		if (qdev->dbc[i].owner == priv->id)
			qaic_owner_release_dbc_locked(qdev, &qdev->dbc[i], -ECANCELED);
	qaic_owner_free_stale_locked(qdev, priv);
}

/* Frees what qaic_owner_park_all() kept: the card can reach none of it. */
static void qaic_owner_unpark_locked(struct qaic_device *qdev)
{
	struct qaic_stale *stale, *next;
	unsigned int i;

	lockdep_assert_held(&qdev->dbc_lock);

	for (i = 0; i < QAIC_NUM_DBC; i++) {
		struct qaic_dbc *dbc = &qdev->dbc[i];

		if (dbc->owner || !dbc->ring)
			continue;
		guard(mutex)(&dbc->lock);
		qaic_owner_free_dbc_ring(qdev, dbc);
	}
	qaic_queue_free_held(&qdev->parked_jobs);
	list_for_each_entry_safe(stale, next, &qdev->parked_stale, node) {
		qaic_owner_free_ring(qdev, &stale->ring);
		qaic_pin_release(qdev, &stale->pin);
		list_del(&stale->node);
		kfree(stale);
	}
}

/* Takes every DBC from its owner; @park: see qaic_owner_park_all(). */
static void qaic_owner_stop_all(struct qaic_device *qdev, bool park)
{
	struct drm_file *file;
	unsigned int i;

	guard(mutex)(&qdev->drm.filelist_mutex);
	guard(mutex)(&qdev->dbc_lock);
	for (i = 0; i < QAIC_NUM_DBC; i++) {
		struct qaic_dbc *dbc = &qdev->dbc[i];

		scoped_guard(mutex, &dbc->lock)
			WRITE_ONCE(dbc->ssr, 0);
		qaic_owner_stop_dbc_locked(qdev, dbc, -ECANCELED, park);
	}
	list_for_each_entry(file, &qdev->drm.filelist, lhead) {
		struct qaic_file_priv *priv = file->driver_priv;

		if (!park) {
			qaic_owner_free_stale_locked(qdev, priv);
			continue;
		}
		list_splice_tail_init(&priv->stale, &qdev->parked_stale);
		WRITE_ONCE(priv->stale_bytes, 0);
	}
	if (!park)
		qaic_owner_unpark_locked(qdev);
}

/**
 * qaic_owner_release_all() - Forget everything the card held: it was
 *			       reset, or is gone.
 * @qdev: The card, which can no longer reach host memory (its MHI was
 *	  reset or powered down, bus mastering is off).
 *
 * Every DBC is released: its jobs fail and its rings are freed. So is
 * what each open file had kept for the card (rings and pages of messages
 * whose answer never came) and what qaic_owner_park_all() kept. A
 * subsystem restart under way is over: the card forgot it.
 */
void qaic_owner_release_all(struct qaic_device *qdev)
{
	qaic_owner_stop_all(qdev, false);
}

/**
 * qaic_owner_park_all() - Forget everything a crashed card held, but keep
 *			    the memory it can reach until it is reset.
 * @qdev: The card; it reported a system error and the MHI core resets it
 *	  next. Until that reset is done its DBC engines may still run.
 *
 * As qaic_owner_release_all() for the files: every DBC is taken from its
 * owner and every job fails. But the rings, the objects of the jobs that
 * were on them and the files' stale memory stay allocated, mapped and
 * pinned, owned by the card (&qaic_device.parked_jobs and
 * &qaic_device.parked_stale, the rings on their DBCs), until
 * qaic_owner_unpark() once the card came up again, or
 * qaic_owner_release_all() once it is stopped or gone.
 */
void qaic_owner_park_all(struct qaic_device *qdev)
{
	qaic_owner_stop_all(qdev, true);
}

/**
 * qaic_owner_unpark() - Free what qaic_owner_park_all() kept.
 * @qdev: The card, which was reset since: it reached mission mode again.
 */
void qaic_owner_unpark(struct qaic_device *qdev)
{
	guard(mutex)(&qdev->dbc_lock);
	qaic_owner_unpark_locked(qdev);
}

/**
 * qaic_owner_ssr_step() - Take a step of a DBC's subsystem restart.
 * @qdev: The card.
 * @dbc_id: The DBC the card names, < %QAIC_NUM_DBC.
 * @step: What the card reports: %QAIC_DBC_BEFORE_SHUTDOWN to
 *	  %QAIC_DBC_AFTER_POWER_UP, or %QAIC_DBC_IDLE once the host answered
 *	  the last one.
 *
 * At BEFORE_SHUTDOWN the card has already dropped the DBC's workload: the
 * DBC is released as a deactivate would, its jobs failing with -EPIPE, and
 * until the restart is over every ioctl naming it fails with -EPIPE. Its
 * owner activates a DBC again afterwards. A BEFORE_SHUTDOWN during a
 * restart begins it again (the subsystem crashed again); any other step
 * must follow the one before.
 *
 * Return: false if @step does not follow, and nothing changed.
 */
bool qaic_owner_ssr_step(struct qaic_device *qdev, u32 dbc_id, enum qaic_dbc_state step)
{
	struct qaic_dbc *dbc = &qdev->dbc[dbc_id];

	guard(mutex)(&qdev->dbc_lock);
	scoped_guard(mutex, &dbc->lock) {
		u8 from = dbc->ssr;

		if (step == QAIC_DBC_IDLE ? from != QAIC_DBC_AFTER_POWER_UP :
		    step != QAIC_DBC_BEFORE_SHUTDOWN && from != step - 1) {
			drm_dbg(&qdev->drm, "ssr: DBC %u: step %u after %u\n", dbc_id, step, from);
			return false;
		}
		WRITE_ONCE(dbc->ssr, step);
		qaic_dbc_state_changed_by_card(qdev, dbc_id);
	}
	if (step == QAIC_DBC_BEFORE_SHUTDOWN)
		qaic_owner_release_dbc_locked(qdev, dbc, -EPIPE);
	return true;
}
