// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The qaic authors.
 */

/**
 * DOC: qaic owner
 *
 * The memory the card can reach, and who owns it until the card cannot:
 * the rings of every DMA Bridge Channel (DBC), the user pages of MANAGE's
 * DMA transfers, and the objects of the jobs a DBC was given. Each is
 * released through this file (the jobs' objects through
 * qaic_queue_destroy() and qaic_queue_free_held(), which only this file
 * calls for jobs the card may have kept), and one function decides
 * whether that frees it or parks it, qaic_owner_may_free_locked(), from
 * two facts only:
 *
 * - what the card said of it (enum qaic_release): it never learnt of it;
 *   it said it is done with it (it answered the message that used it, or
 *   the release of its DBC, or the file's terminate, or it was reset since
 *   for that release); or nothing;
 * - whether the card may still reach host memory (enum qaic_reach, in
 *   &qaic_device.reach under &qaic_device.dbc_lock): QUIESCED once the host
 *   stopped it (MHI reset or powered down, bus mastering off) and released
 *   what it held; RUNNING once it booted to mission mode; CRASHED from the
 *   moment it reported a system error, or the host began to stop it, until
 *   either. CRASHED is set before the control path fails its waiters.
 *
 * Memory the card never learnt of is freed. Otherwise it is freed if the
 * card is QUIESCED, or RUNNING and said it is done with it. Else it is
 * parked, allocated, mapped and pinned:
 *
 * - on the file (&qaic_file_priv.stale) while the card runs: a MANAGE
 *   message whose answer never came (a fatal signal, a timeout) may have
 *   given it the rings of an activate or the pages of DMA transfers; until
 *   the file's terminate, or a reset of the card. A file that keeps
 *   %QAIC_MANAGE_FILE_STALE_MAX bytes or more so gets -EBUSY from MANAGE
 *   until then (qaic_manage.c), so that calls killed over and over cannot
 *   keep memory without bound;
 * - on the card (&qaic_device.parked_jobs, &qaic_device.parked_stale, the
 *   rings on their DBCs) while it is CRASHED: whatever is let go of then,
 *   by a file that closes, a MANAGE call that fails, an answer or a
 *   subsystem restart that releases a DBC, until the card is up again
 *   (qaic_owner_unpark()) or stopped (qaic_owner_release_all()).
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
#include <linux/xarray.h>

#include <drm/drm_drv.h>
#include <drm/drm_print.h>

#include "qaic_cntl.h"
#include "qaic_compat.h"
#include "qaic_drv.h"
#include "qaic_manage.h"
#include "qaic_nnc.h"
#include "qaic_owner.h"
#include "qaic_pin.h"
#include "qaic_queue.h"
#include "qaic_reset.h"
#include "qaic_sysfs.h"
#include "qaic_trace.h"

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

/* Frees the rings of an activate, which the card cannot reach; empties @mem. */
static void qaic_owner_free_ring(struct qaic_device *qdev, struct qaic_ring_mem *mem)
{
	if (mem->cpu) {
		trace_qaic_card_memory(qdev, "freed", "ring", mem->size);
		dma_free_coherent(&qdev->pdev->dev, mem->size, mem->cpu, mem->dma);
	}
	memset(mem, 0, sizeof(*mem));
}

/* Unpins the pages of a DMA transfer, which the card cannot reach; empties @pin. */
static void qaic_owner_free_pin(struct qaic_device *qdev, struct qaic_pin *pin)
{
	if (pin->npages)
		trace_qaic_card_memory(qdev, "freed", "pages", (u64)pin->npages << PAGE_SHIFT);
	qaic_pin_release(qdev, pin);
}

/**
 * qaic_owner_may_free_locked() - Whether memory the card was given may be freed.
 * @qdev: The card.
 * @how: What the card said of it.
 *
 * The one place that answers it; see the DOC above.
 *
 * Return: true to free it now, false to park it.
 */
static bool qaic_owner_may_free_locked(struct qaic_device *qdev, enum qaic_release how)
{
	lockdep_assert_held(&qdev->dbc_lock);

	if (how == QAIC_NOT_GIVEN)
		return true;
	switch (qdev->reach) {
	case QAIC_REACH_QUIESCED:
		return true;
	case QAIC_REACH_RUNNING:
		return how == QAIC_CONFIRMED;
	default:
		return false;
	}
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
	if (!mem->cpu) {
		/* Without an IOMMU one block: past 4 MiB (61680 elements) on x86. */
		drm_dbg(&qdev->drm, "manage: no %llu bytes of DMA memory for %u elements\n",
			size, nelem);
		return -ENOMEM;
	}
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
 * its owner. Its rings and held jobs are freed if the card cannot reach
 * them (@how, qaic_owner_may_free_locked()); else they are parked: the rings
 * stay on the DBC, free but not usable by anyone, the held jobs go on
 * &qaic_device.parked_jobs, until qaic_owner_unpark(), the DBC's next grant
 * while the card runs, or qaic_owner_release_all().
 */
static void qaic_owner_stop_dbc_locked(struct qaic_device *qdev, struct qaic_dbc *dbc,
				       int error, enum qaic_release how)
{
	bool park = !qaic_owner_may_free_locked(qdev, how);

	lockdep_assert_held(&qdev->dbc_lock);

	guard(mutex)(&dbc->lock);
	qaic_queue_destroy(qdev, dbc, error, park ? &qdev->parked_jobs : NULL);
	if (!park)
		qaic_owner_free_dbc_ring(qdev, dbc);
	else if (dbc->ring && dbc->owner)
		trace_qaic_card_memory(qdev, "parked", "ring", dbc->ring_size);
	dbc->owner = 0;
	dbc->draining = false;
	dbc->nelem = 0;
	WRITE_ONCE(dbc->activation, 0);
	qaic_dbc_state_changed(qdev, dbc - qdev->dbc);
}

/* Releases the DBC: the card said it is done with it. */
static void qaic_owner_release_dbc_locked(struct qaic_device *qdev, struct qaic_dbc *dbc,
					  int error)
{
	qaic_owner_stop_dbc_locked(qdev, dbc, error, QAIC_CONFIRMED);
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

	if (ans->activated && qdev->reach != QAIC_REACH_RUNNING) {
		/*
		 * The card crashed or is stopping since it answered: the grant
		 * went with it. The rings stay with the call, which parks them.
		 */
		drm_dbg(drm, "manage: DBC %u granted by a card that crashed since\n",
			ans->dbc_id);
	} else if (ans->activated) {
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

/*
 * Parks @stale: on the card while it is crashed (until it is up again or
 * stopped), else on the file (until its terminate).
 */
static void qaic_owner_keep_locked(struct qaic_device *qdev, struct qaic_file_priv *priv,
				   struct qaic_stale *stale)
{
	lockdep_assert_held(&qdev->dbc_lock);

	if (stale->ring.cpu)
		trace_qaic_card_memory(qdev, "parked", "ring", stale->ring.size);
	if (stale->pin.npages)
		trace_qaic_card_memory(qdev, "parked", "pages",
				       (u64)stale->pin.npages << PAGE_SHIFT);
	if (qdev->reach == QAIC_REACH_CRASHED) {
		list_add_tail(&stale->node, &qdev->parked_stale);
		return;
	}
	list_add_tail(&stale->node, &priv->stale);
	WRITE_ONCE(priv->stale_bytes, priv->stale_bytes + qaic_owner_stale_size(stale));
}

/**
 * qaic_owner_let_go() - Free, or park, memory of a MANAGE call's.
 * @qdev: The card.
 * @priv: The file whose call it was.
 * @mem: The rings of the call's activate, or NULL; emptied.
 * @pin: Pages of one of its DMA transfers, or NULL; emptied.
 * @how: What the card said of them.
 *
 * Freed if the card cannot reach them (qaic_owner_may_free_locked()), else
 * parked. The little parking needs cannot fail: memory the card may reach
 * is never freed for want of 48 bytes.
 */
void qaic_owner_let_go(struct qaic_device *qdev, struct qaic_file_priv *priv,
		       struct qaic_ring_mem *mem, struct qaic_pin *pin, enum qaic_release how)
{
	struct qaic_stale *stale;

	if ((!mem || !mem->cpu) && (!pin || !pin->npages))
		return;

	guard(mutex)(&qdev->dbc_lock);
	if (qaic_owner_may_free_locked(qdev, how)) {
		if (mem)
			qaic_owner_free_ring(qdev, mem);
		if (pin)
			qaic_owner_free_pin(qdev, pin);
		return;
	}
	stale = kzalloc_obj(*stale, GFP_KERNEL | __GFP_NOFAIL);
	if (mem) {
		stale->ring = *mem;
		memset(mem, 0, sizeof(*mem));
	}
	if (pin) {
		stale->pin = *pin;
		memset(pin, 0, sizeof(*pin));
	}
	qaic_owner_keep_locked(qdev, priv, stale);
}

/* Whether the card runs: it answers, and a reset makes it forget. */
static bool qaic_owner_card_runs(struct qaic_device *qdev)
{
	guard(mutex)(&qdev->dbc_lock);
	return qdev->reach == QAIC_REACH_RUNNING;
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

static void qaic_owner_free_stale(struct qaic_device *qdev, struct qaic_stale *stale)
{
	qaic_owner_free_ring(qdev, &stale->ring);
	qaic_owner_free_pin(qdev, &stale->pin);
	list_del(&stale->node);
	kfree(stale);
}

/*
 * Lets go of what @priv kept for the card (@how: what the card said of it):
 * frees it, or parks it on the card.
 */
static void qaic_owner_let_go_stale_locked(struct qaic_device *qdev,
					   struct qaic_file_priv *priv, enum qaic_release how)
{
	struct qaic_stale *stale, *next;

	lockdep_assert_held(&qdev->dbc_lock);

	WRITE_ONCE(priv->stale_bytes, 0);
	if (!qaic_owner_may_free_locked(qdev, how)) {
		list_splice_tail_init(&priv->stale, &qdev->parked_stale);
		return;
	}
	list_for_each_entry_safe(stale, next, &priv->stale, node)
		qaic_owner_free_stale(qdev, stale);
}

/**
 * qaic_owner_release_file() - Release what a closing file holds on the card.
 * @qdev: The card.
 * @priv: The file.
 *
 * Sends a terminate message for the file's handle if it talked to the card
 * and the card is still there, then lets go of the rings of its DBCs and
 * what it kept for the card (qaic_owner_let_go()).
 *
 * The card said it is done with them if it answered the terminate, or if
 * it was reset since: a terminate that got no answer (a silent or broken
 * card, no memory for it) from a card that runs resets it first, here,
 * which makes it forget the file. A control path that is down while the
 * card runs never came up in its current boot, which was given nothing of
 * the file's (what an earlier boot was given was parked at its crash or
 * freed at its reset). While the card is crashed or being stopped all of
 * it is parked on the card. The wait for the answer is bounded
 * (``control_resp_timeout_s``) and not cut short by signals: a process
 * killed with the file open closes it with a fatal signal pending.
 */
void qaic_owner_release_file(struct qaic_device *qdev, struct qaic_file_priv *priv)
{
	enum qaic_release how = QAIC_CONFIRMED;
	unsigned int i;
	int ret;
	int idx;

	if (READ_ONCE(priv->nnc_used) && drm_dev_enter(&qdev->drm, &idx)) {
		if (qaic_cntl_is_up(qdev->cntl)) {
			ret = qaic_manage_terminate(qdev, priv->id);
			if (ret) {
				drm_dbg(&qdev->drm, "file %u: terminate not answered: %d\n",
					priv->id, ret);
				how = QAIC_UNCONFIRMED;
			}
		}
		drm_dev_exit(idx);
	}
	if (how == QAIC_UNCONFIRMED && qaic_owner_file_holds(qdev, priv) &&
	    qaic_owner_card_runs(qdev)) {
		char why[64];

		snprintf(why, sizeof(why), "no answer to the terminate of file %u", priv->id);
		qaic_reset_card_now(qdev, why);
		how = QAIC_CONFIRMED;
	}

	guard(mutex)(&qdev->dbc_lock);
	for (i = 0; i < QAIC_NUM_DBC; i++)
		if (qdev->dbc[i].owner == priv->id)
			qaic_owner_stop_dbc_locked(qdev, &qdev->dbc[i], -ECANCELED, how);
	qaic_owner_let_go_stale_locked(qdev, priv, how);
}

/**
 * qaic_owner_forget_file() - A closed file's id may name another file.
 * @qdev: The card.
 * @priv: The file, after qaic_owner_release_file(); freed by the caller
 *	  once this returns.
 */
void qaic_owner_forget_file(struct qaic_device *qdev, struct qaic_file_priv *priv)
{
	guard(mutex)(&qdev->dbc_lock);
	xa_erase(&qdev->file_ids, priv->id);
}

/* Frees what was parked on the card: it can reach none of it any more. */
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
	list_for_each_entry_safe(stale, next, &qdev->parked_stale, node)
		qaic_owner_free_stale(qdev, stale);
}

/*
 * The card is now @reach (QUIESCED or CRASHED): every DBC is taken from
 * its owner, and what each open file kept for the card is let go of, all
 * of it freed (QUIESCED, with what was parked before) or parked (CRASHED).
 */
static void qaic_owner_stop_all(struct qaic_device *qdev, enum qaic_reach reach)
{
	struct qaic_file_priv *priv;
	unsigned long id;
	unsigned int i;

	guard(mutex)(&qdev->dbc_lock);
	qdev->reach = reach;
	for (i = 0; i < QAIC_NUM_DBC; i++) {
		struct qaic_dbc *dbc = &qdev->dbc[i];

		scoped_guard(mutex, &dbc->lock)
			WRITE_ONCE(dbc->ssr, 0);
		qaic_owner_stop_dbc_locked(qdev, dbc, -ECANCELED, QAIC_UNCONFIRMED);
	}
	/*
	 * Every file that has an id, closing ones too (they left the DRM
	 * core's file list before their postclose): what they kept must not
	 * outlive the card's binding. An id leaves the table under dbc_lock
	 * (qaic_owner_forget_file()), so @priv stays valid here.
	 */
	xa_for_each(&qdev->file_ids, id, priv)
		qaic_owner_let_go_stale_locked(qdev, priv, QAIC_UNCONFIRMED);
	if (reach == QAIC_REACH_QUIESCED)
		qaic_owner_unpark_locked(qdev);
}

/**
 * qaic_owner_release_all() - Forget everything the card held: it was
 *			       reset, or is gone.
 * @qdev: The card, which can no longer reach host memory (its MHI was
 *	  reset or powered down, bus mastering is off).
 *
 * The card is QUIESCED until it boots to mission mode again. Every DBC is
 * released: its jobs fail and its rings are freed. So is what each open
 * file had kept for the card (rings and pages of messages whose answer
 * never came) and all that was parked on the card since it crashed. A
 * subsystem restart under way is over: the card forgot it.
 */
void qaic_owner_release_all(struct qaic_device *qdev)
{
	qaic_owner_stop_all(qdev, QAIC_REACH_QUIESCED);
}

/**
 * qaic_owner_card_crashed() - The card may still reach all it was given,
 *			       and will confirm nothing, until it is reset.
 * @qdev: The card; it reported a system error, or the host begins to stop
 *	  it.
 *
 * Called before the control path fails its waiters: from now on, nothing
 * the card was given is freed, whoever lets go of it, until
 * qaic_owner_unpark() or qaic_owner_release_all().
 */
void qaic_owner_card_crashed(struct qaic_device *qdev)
{
	guard(mutex)(&qdev->dbc_lock);
	if (qdev->reach == QAIC_REACH_RUNNING)
		qdev->reach = QAIC_REACH_CRASHED;
}

/**
 * qaic_owner_park_all() - Forget everything a crashed card held, but keep
 *			    the memory it can reach until it is reset.
 * @qdev: The card; it reported a system error and the MHI core resets it
 *	  next. Until that reset is done its DBC engines may still run.
 *
 * As qaic_owner_release_all() for the files: every DBC is taken from its
 * owner and every job fails. But the card stays CRASHED: the rings, the
 * objects of the jobs that were on them and the files' stale memory stay
 * allocated, mapped and pinned, owned by the card (&qaic_device.parked_jobs
 * and &qaic_device.parked_stale, the rings on their DBCs), with whatever
 * else is let go of meanwhile, until qaic_owner_unpark() once the card
 * came up again, or qaic_owner_release_all() once it is stopped or gone.
 */
void qaic_owner_park_all(struct qaic_device *qdev)
{
	qaic_owner_stop_all(qdev, QAIC_REACH_CRASHED);
}

/**
 * qaic_owner_unpark() - The card runs: free what was parked on it.
 * @qdev: The card, which was reset since: it reached mission mode again.
 *
 * From now on the card is RUNNING: what it was given is freed once it says
 * it is done with it.
 */
void qaic_owner_unpark(struct qaic_device *qdev)
{
	guard(mutex)(&qdev->dbc_lock);
	qdev->reach = QAIC_REACH_RUNNING;
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
	/* A crashed or stopped card's restart went with it. */
	if (qdev->reach != QAIC_REACH_RUNNING) {
		drm_dbg(&qdev->drm, "ssr: DBC %u: step %u of a card that is not running\n",
			dbc_id, step);
		return false;
	}
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
