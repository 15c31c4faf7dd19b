// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The qaic authors.
 */

/**
 * DOC: qaic control transport
 *
 * The card's manager listens on the QAIC_CONTROL MHI channel pair. This
 * file is an MHI driver bound to it; it moves NNC messages and knows
 * nothing of their transactions beyond the header (qaic_nnc.c has the
 * rest).
 *
 * A request is copied into a buffer of its own, stamped with a sequence
 * number and queued on the uplink channel; the MHI core gives the buffer
 * back once the card has read it. The sender then sleeps until the answer
 * that repeats its sequence number arrives, or until
 * ``control_resp_timeout_s`` (a module parameter, 60 s by default) has
 * passed: -ETIMEDOUT. Waiters sit in a table of %QAIC_CNTL_SLOTS slots
 * indexed by sequence number, so an answer finds its waiter in O(1); an
 * answer nobody waits for any more is dropped. MANAGE calls leave
 * %QAIC_CNTL_RELEASE_SLOTS of them to the terminates of closing files
 * (-EBUSY when the rest are taken), so that a file's release always gets
 * out; a release that still finds every slot taken (more files closing at
 * once than that) waits for one, within the same timeout, rather than
 * fail: a failed release resets the card under every user. A release's
 * waits are not cut short by signals.
 *
 * A few downlink buffers stay queued at all times. The completion handler,
 * which runs in a tasklet, only marks the buffer full; a work item hands
 * the answer to its waiter and queues the buffer again, so that the
 * tasklet stays short and shallow.
 *
 * When the channel goes away (card removed, MHI powered down, or reset
 * after a system error) every waiter is woken with -ENODEV (-EIO for the
 * system error), and new requests fail with -ENODEV until the channel is
 * probed again.
 *
 * At probe, before any user request is let through, the driver asks the
 * manager for its status. A manager that does not speak protocol 5.0
 * leaves the card unusable: one error in the log, and every open of the
 * card's node fails with -ENODEV. The MHI bring-up finishes some time
 * after the PCI probe; a MANAGE call made meanwhile waits for the check,
 * at most ``control_resp_timeout_s`` after power-up, then fails with
 * -ENODEV.
 */

#include <linux/cleanup.h>
#include <linux/completion.h>
#include <linux/jiffies.h>
#include <linux/list.h>
#include <linux/lockdep.h>
#include <linux/mhi.h>
#include <linux/mod_devicetable.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/overflow.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/wait.h>
#include <linux/workqueue.h>

#include <drm/drm_managed.h>

#include "qaic_cntl.h"
#include "qaic_drv.h"
#include "qaic_mhi.h"
#include "qaic_nnc.h"
#include "qaic_sysfs.h"

static unsigned int control_resp_timeout_s = 60;
module_param(control_resp_timeout_s, uint, 0600);
MODULE_PARM_DESC(control_resp_timeout_s,
		 "Seconds to wait for an answer of the card's manager (default 60)");

/* Requests in flight at most; a power of two. */
#define QAIC_CNTL_SLOTS		64
/*
 * Slots that only a release (the terminate of a closing file) may take:
 * MANAGE calls leave them free, so that a file's release always finds one.
 */
#define QAIC_CNTL_RELEASE_SLOTS	8

/* What a request is, for qaic_cntl_send(). */
enum qaic_cntl_kind {
	QAIC_CNTL_USER,		/* a MANAGE call's message */
	QAIC_CNTL_RELEASE,	/* a file's terminate */
	QAIC_CNTL_CHECK,	/* the version check at probe */
};

/* Downlink buffers kept queued. */
#define QAIC_CNTL_RX_BUFS	4

/**
 * enum qaic_cntl_state - Where the control path is.
 * @QAIC_CNTL_DOWN: No channel, or it failed its version check.
 * @QAIC_CNTL_CHECKING: Channel bound, version check in flight.
 * @QAIC_CNTL_UP: Requests go through.
 * @QAIC_CNTL_REFUSED: The manager speaks another protocol version.
 */
enum qaic_cntl_state {
	QAIC_CNTL_DOWN,
	QAIC_CNTL_CHECKING,
	QAIC_CNTL_UP,
	QAIC_CNTL_REFUSED,
};

/**
 * struct qaic_cntl_waiter - A sender waiting for its answer.
 * @done: Completed once @err and @len are set.
 * @seq: Sequence number of the request.
 * @rsp: Where the answer goes; %QAIC_CNTL_RSP_SIZE bytes.
 * @len: Bytes of the answer.
 * @err: 0, or why there is no answer.
 */
struct qaic_cntl_waiter {
	struct completion done;
	u32 seq;
	void *rsp;
	size_t len;
	int err;
};

/**
 * struct qaic_cntl_tx - A request queued on the uplink.
 * @node: In &qaic_cntl.tx_list until the MHI core gives the buffer back.
 * @data: The message.
 */
struct qaic_cntl_tx {
	struct list_head node;
	u8 data[];
};

/**
 * struct qaic_cntl - The QAIC_CONTROL transport of one card.
 * @qdev: The card.
 * @chan_lock: Protects @mhi_dev: a request is queued on it only under this
 *	       lock, and remove clears it under the lock, so nothing is queued
 *	       on a channel that is gone. Also orders requests on the wire by
 *	       sequence number. Never taken in atomic context.
 * @mhi_dev: The bound QAIC_CONTROL device; NULL when there is none.
 * @rx: The downlink buffers; valid while @mhi_dev is.
 * @rx_len: Bytes the card wrote in each of @rx.
 * @rx_full: Bit i set: @rx[i] holds an answer for @rx_work.
 * @rx_work: Hands the answers in @rx to their waiters, queues the buffers
 *	     again.
 * @lock: Protects @rx_len, @rx_full, @state, @crc, @next_seq, @slots and
 *	  @tx_list. Taken by
 *	  the MHI completion callbacks, which run in a tasklet: _bh
 *	  everywhere else. Nests inside @chan_lock; no MHI call is made
 *	  under it.
 * @state: Where the control path is; read locklessly by
 *	   qaic_cntl_wait_up() and qaic_cntl_refused().
 * @crc: The card uses CRCs: check them on answers. Requests carry one
 *	  until the version check says the card does not use them.
 * @next_seq: Sequence number of the next request.
 * @slots: Waiters, at index seq % %QAIC_CNTL_SLOTS.
 * @tx_list: Requests the MHI core has not given back.
 * @state_wq: Woken when @state settles at UP or REFUSED.
 * @slot_wq: Woken when a slot is freed, or every waiter is failed: a
 *	     release that found no slot waits on it.
 * @deadline: In jiffies: until then a MANAGE call waits for the control
 *	      path to come up. WRITE_ONCE/READ_ONCE.
 * @check_work: The version check, queued by probe.
 */
struct qaic_cntl {
	struct qaic_device *qdev;

	struct mutex chan_lock; /* Protects @mhi_dev; see above */
	struct mhi_device *mhi_dev;
	void *rx[QAIC_CNTL_RX_BUFS];
	size_t rx_len[QAIC_CNTL_RX_BUFS];
	unsigned long rx_full;
	struct work_struct rx_work;

	spinlock_t lock; /* Protects @rx_len..@tx_list; see above */
	enum qaic_cntl_state state;
	bool crc;
	u32 next_seq;
	struct qaic_cntl_waiter *slots[QAIC_CNTL_SLOTS];
	struct list_head tx_list;

	wait_queue_head_t state_wq;
	wait_queue_head_t slot_wq;
	unsigned long deadline;
	struct work_struct check_work;
};

static unsigned long qaic_cntl_timeout(void)
{
	return (unsigned long)control_resp_timeout_s * HZ;
}

/**
 * qaic_cntl_answer_timeout() - How long a request waits for its answer.
 *
 * Return: ``control_resp_timeout_s``, in jiffies.
 */
unsigned long qaic_cntl_answer_timeout(void)
{
	return qaic_cntl_timeout();
}

/* Fails every waiter with @err; the control path becomes @state. */
static void qaic_cntl_fail_all_locked(struct qaic_cntl *cntl, int err,
				      enum qaic_cntl_state state)
{
	unsigned int i;

	lockdep_assert_held(&cntl->lock);

	WRITE_ONCE(cntl->state, state);
	for (i = 0; i < QAIC_CNTL_SLOTS; i++) {
		struct qaic_cntl_waiter *w = cntl->slots[i];

		if (!w)
			continue;
		cntl->slots[i] = NULL;
		w->err = err;
		complete(&w->done);
	}
	wake_up_all(&cntl->slot_wq);
}

/* Gives @w a sequence number and a slot; a user's leaves the release slots free. */
static int qaic_cntl_add_waiter_locked(struct qaic_cntl *cntl, struct qaic_cntl_waiter *w,
				       enum qaic_cntl_kind kind)
{
	enum qaic_cntl_state want = kind == QAIC_CNTL_CHECK ? QAIC_CNTL_CHECKING : QAIC_CNTL_UP;
	unsigned int i, used = 0;

	lockdep_assert_held(&cntl->lock);

	if (cntl->state != want)
		return -ENODEV;
	if (kind == QAIC_CNTL_USER) {
		for (i = 0; i < QAIC_CNTL_SLOTS; i++)
			used += !!cntl->slots[i];
		if (used >= QAIC_CNTL_SLOTS - QAIC_CNTL_RELEASE_SLOTS)
			return -EBUSY;
	}
	/* Skip slots still held by requests that have not timed out. */
	for (i = 0; i < QAIC_CNTL_SLOTS; i++) {
		u32 seq = cntl->next_seq++;

		if (!cntl->slots[seq % QAIC_CNTL_SLOTS]) {
			w->seq = seq;
			cntl->slots[seq % QAIC_CNTL_SLOTS] = w;
			return 0;
		}
	}
	return -EBUSY;
}

static void qaic_cntl_del_waiter_locked(struct qaic_cntl *cntl, struct qaic_cntl_waiter *w,
					int err)
{
	lockdep_assert_held(&cntl->lock);

	if (cntl->slots[w->seq % QAIC_CNTL_SLOTS] == w) {
		cntl->slots[w->seq % QAIC_CNTL_SLOTS] = NULL;
		w->err = err;
		wake_up_all(&cntl->slot_wq);
	}
}

/* Queues @tx for the card; @w is registered. */
static int qaic_cntl_queue(struct qaic_cntl *cntl, struct qaic_cntl_tx *tx, size_t len,
			   struct qaic_cntl_waiter *w, enum qaic_cntl_kind kind)
{
	bool crc;
	int ret;

	guard(mutex)(&cntl->chan_lock);
	if (!cntl->mhi_dev)
		return -ENODEV;

	spin_lock_bh(&cntl->lock);
	ret = qaic_cntl_add_waiter_locked(cntl, w, kind);
	if (!ret)
		list_add_tail(&tx->node, &cntl->tx_list);
	crc = cntl->crc || cntl->state == QAIC_CNTL_CHECKING;
	spin_unlock_bh(&cntl->lock);
	if (ret)
		return ret;

	qaic_nnc_seal(tx->data, len, w->seq, crc);
	ret = mhi_queue_buf(cntl->mhi_dev, DMA_TO_DEVICE, tx->data, len, MHI_EOT);
	if (ret) {
		spin_lock_bh(&cntl->lock);
		list_del(&tx->node);
		qaic_cntl_del_waiter_locked(cntl, w, ret);
		spin_unlock_bh(&cntl->lock);
	}
	return ret;
}

/* Whether a request may find a slot now, or will fail at once. */
static bool qaic_cntl_slot_or_down(struct qaic_cntl *cntl)
{
	bool yes;
	unsigned int i;

	spin_lock_bh(&cntl->lock);
	yes = cntl->state != QAIC_CNTL_UP;
	for (i = 0; i < QAIC_CNTL_SLOTS && !yes; i++)
		yes = !cntl->slots[i];
	spin_unlock_bh(&cntl->lock);
	return yes;
}

/*
 * Queues @tx; a release that finds every slot taken waits for one until
 * @deadline, whatever the signals.
 */
static int qaic_cntl_queue_wait(struct qaic_cntl *cntl, struct qaic_cntl_tx *tx, size_t len,
				struct qaic_cntl_waiter *w, enum qaic_cntl_kind kind,
				unsigned long deadline)
{
	long left;
	int ret;

	for (;;) {
		ret = qaic_cntl_queue(cntl, tx, len, w, kind);
		if (ret != -EBUSY || kind != QAIC_CNTL_RELEASE)
			return ret;
		left = (long)(deadline - jiffies);
		if (left <= 0 ||
		    !wait_event_timeout(cntl->slot_wq, qaic_cntl_slot_or_down(cntl), left))
			return -EBUSY;
	}
}

static int qaic_cntl_send(struct qaic_cntl *cntl, const void *msg, size_t len,
			  void *rsp, size_t *rsp_len, bool *queued, enum qaic_cntl_kind kind)
{
	struct qaic_cntl_waiter w = { .rsp = rsp };
	struct qaic_cntl_tx *tx;
	long left;
	int ret;

	if (len < sizeof(struct qaic_wire_msg_hdr) || len > QAIC_CNTL_MAX_REQ_LEN)
		return -EINVAL;

	tx = kmalloc(struct_size(tx, data, len), GFP_KERNEL);
	if (!tx)
		return -ENOMEM;
	memcpy(tx->data, msg, len);
	init_completion(&w.done);

	ret = qaic_cntl_queue_wait(cntl, tx, len, &w, kind, jiffies + qaic_cntl_timeout());
	if (ret) {
		kfree(tx);
		return ret;
	}
	if (queued)
		*queued = true;

	/*
	 * Only a fatal signal ends the wait early: an answer nobody waits for
	 * is lost, and with it what the card did. The wait is bounded. A
	 * release is waited for whatever the signals: its caller frees what
	 * the card may reach once it returns, and a process killed with the
	 * file open has a fatal signal pending when it closes the file.
	 */
	if (kind == QAIC_CNTL_RELEASE)
		left = wait_for_completion_timeout(&w.done, qaic_cntl_timeout());
	else
		left = wait_for_completion_killable_timeout(&w.done, qaic_cntl_timeout());
	if (left <= 0) {
		spin_lock_bh(&cntl->lock);
		qaic_cntl_del_waiter_locked(cntl, &w, left ? -EINTR : -ETIMEDOUT);
		spin_unlock_bh(&cntl->lock);
		/* Else the answer came in meanwhile: use it. */
	}
	if (w.err)
		return w.err;
	*rsp_len = w.len;
	return 0;
}

/**
 * qaic_cntl_xfer() - Send a message to the card's manager and wait for its answer.
 * @cntl: The card's transport.
 * @msg: A message from the codec, not sealed yet; it is copied.
 * @len: Bytes at @msg.
 * @rsp: Where the answer goes; %QAIC_CNTL_RSP_SIZE bytes.
 * @rsp_len: Out. Bytes of the answer.
 * @queued: Out, may be NULL. Set to true once the message is on the
 *	    channel, whatever happens to its answer; left alone when the call
 *	    fails before that. A caller that changes state on the host for
 *	    what the card will do must undo it if the message never got out.
 *
 * The answer is only known to repeat the request's sequence number and,
 * if the card uses CRCs, to carry a good one; the rest is for the codec to
 * check.
 *
 * Return: 0; -ENODEV if the control path is not up or went away meanwhile;
 * -EIO if the card reported a system error or sent a corrupt answer;
 * -ETIMEDOUT; -EINTR if a fatal signal came first; -EBUSY if too many
 * requests are in flight; -EINVAL if @len is out of range; -ENOMEM.
 */
int qaic_cntl_xfer(struct qaic_cntl *cntl, const void *msg, size_t len,
		   void *rsp, size_t *rsp_len, bool *queued)
{
	return qaic_cntl_send(cntl, msg, len, rsp, rsp_len, queued, QAIC_CNTL_USER);
}

/**
 * qaic_cntl_xfer_release() - Send a file's release (its terminate) and wait
 *			      for the answer.
 * @cntl: The card's transport.
 * @msg: As for qaic_cntl_xfer().
 * @len: As for qaic_cntl_xfer().
 * @rsp: As for qaic_cntl_xfer().
 * @rsp_len: As for qaic_cntl_xfer().
 *
 * As qaic_cntl_xfer(), but the message may take the slots that user
 * requests leave free, waits for one if every slot is taken, and the
 * waits end only with a slot and the answer, the timeout or the control
 * path going away: not with a signal.
 *
 * Return: as qaic_cntl_xfer(), but never -EINTR; -EBUSY only when no slot
 * freed within the timeout.
 */
int qaic_cntl_xfer_release(struct qaic_cntl *cntl, const void *msg, size_t len,
			   void *rsp, size_t *rsp_len)
{
	return qaic_cntl_send(cntl, msg, len, rsp, rsp_len, NULL, QAIC_CNTL_RELEASE);
}

/* Hands the answer at @buf to its waiter. */
static void qaic_cntl_rx(struct qaic_cntl *cntl, const void *buf, size_t len)
{
	struct drm_device *drm = &cntl->qdev->drm;
	struct qaic_cntl_waiter *w;
	u32 seq;

	if (qaic_nnc_rsp_seq(buf, len, &seq)) {
		drm_dbg(drm, "control: malformed answer of %zu bytes dropped\n", len);
		return;
	}

	spin_lock_bh(&cntl->lock);
	w = cntl->slots[seq % QAIC_CNTL_SLOTS];
	if (!w || w->seq != seq) {
		spin_unlock_bh(&cntl->lock);
		drm_dbg(drm, "control: answer %u has no waiter, dropped\n", seq);
		return;
	}
	cntl->slots[seq % QAIC_CNTL_SLOTS] = NULL;
	wake_up_all(&cntl->slot_wq);
	if (cntl->crc && !qaic_nnc_crc_ok(buf, len)) {
		drm_dbg(drm, "control: answer %u has a bad CRC\n", seq);
		w->err = -EIO;
	} else {
		memcpy(w->rsp, buf, len);
		w->len = len;
		w->err = 0;
	}
	complete(&w->done);
	spin_unlock_bh(&cntl->lock);
}

static void qaic_cntl_rx_work(struct work_struct *work)
{
	struct qaic_cntl *cntl = container_of(work, struct qaic_cntl, rx_work);
	unsigned int i;
	size_t len;
	int ret;

	for (;;) {
		spin_lock_bh(&cntl->lock);
		if (!cntl->rx_full) {
			spin_unlock_bh(&cntl->lock);
			return;
		}
		i = __ffs(cntl->rx_full);
		__clear_bit(i, &cntl->rx_full);
		len = cntl->rx_len[i];
		spin_unlock_bh(&cntl->lock);

		if (len)
			qaic_cntl_rx(cntl, cntl->rx[i], len);

		guard(mutex)(&cntl->chan_lock);
		if (!cntl->mhi_dev)
			return;
		ret = mhi_queue_buf(cntl->mhi_dev, DMA_FROM_DEVICE, cntl->rx[i],
				    QAIC_CNTL_RSP_SIZE, MHI_EOT);
		/* -EIO: MHI is in reset or error, the channel and buffer go with it. */
		if (ret == -EIO)
			drm_dbg(&cntl->qdev->drm, "control: MHI down, buffer %u not requeued\n", i);
		else if (ret)
			drm_err_once(&cntl->qdev->drm,
				     "control: cannot requeue a downlink buffer: %d\n", ret);
	}
}

static void qaic_cntl_dl_xfer_cb(struct mhi_device *mhi_dev, struct mhi_result *result)
{
	struct qaic_cntl *cntl = dev_get_drvdata(&mhi_dev->dev);
	unsigned int i;

	/* The channel is being reset: remove frees the buffer. */
	if (result->transaction_status == -ENOTCONN)
		return;

	for (i = 0; i < QAIC_CNTL_RX_BUFS; i++)
		if (cntl->rx[i] == result->buf_addr)
			break;
	if (i == QAIC_CNTL_RX_BUFS)
		return;

	if (result->transaction_status)
		drm_dbg(&cntl->qdev->drm, "control: downlink error %d\n",
			result->transaction_status);

	spin_lock_bh(&cntl->lock);
	/* An answer that failed is not looked at, only the buffer requeued. */
	cntl->rx_len[i] = result->transaction_status ? 0 :
			  min_t(size_t, result->bytes_xferd, QAIC_CNTL_RSP_SIZE);
	__set_bit(i, &cntl->rx_full);
	spin_unlock_bh(&cntl->lock);
	queue_work(system_highpri_wq, &cntl->rx_work);
}

static void qaic_cntl_ul_xfer_cb(struct mhi_device *mhi_dev, struct mhi_result *result)
{
	struct qaic_cntl *cntl = dev_get_drvdata(&mhi_dev->dev);
	struct qaic_cntl_tx *tx = container_of(result->buf_addr, struct qaic_cntl_tx, data);

	spin_lock_bh(&cntl->lock);
	list_del(&tx->node);
	spin_unlock_bh(&cntl->lock);
	kfree(tx);
}

/* Asks the manager for its protocol version. */
static int qaic_cntl_check_version(struct qaic_cntl *cntl, struct qaic_nnc_answer *ans)
{
	struct qaic_manage_trans_status_to_dev status = {
		.hdr.type = QAIC_TRANS_STATUS_FROM_USR,
		.hdr.len = sizeof(status),
	};
	struct qaic_nnc_req req = {
		.umsg = { .data = &status, .len = sizeof(status), .count = 1 },
		.num_dbc = QAIC_NUM_DBC,
		.partition_id = QAIC_NNC_NO_PARTITION,
	};
	u8 msg[sizeof(struct qaic_wire_msg_hdr) + sizeof(status)];
	size_t rsp_len;
	ssize_t len;
	void *rsp;
	int ret;

	len = qaic_nnc_encode(&req, msg, sizeof(msg));
	if (len < 0)
		return len;

	rsp = kmalloc(QAIC_CNTL_RSP_SIZE, GFP_KERNEL);
	if (!rsp)
		return -ENOMEM;
	ret = qaic_cntl_send(cntl, msg, len, rsp, &rsp_len, NULL, QAIC_CNTL_CHECK);
	if (!ret)
		ret = qaic_nnc_decode(rsp, rsp_len, ans);
	if (!ret && !ans->has_status)
		ret = -EIO;
	kfree(rsp);
	return ret;
}

static void qaic_cntl_check_work(struct work_struct *work)
{
	struct qaic_cntl *cntl = container_of(work, struct qaic_cntl, check_work);
	struct drm_device *drm = &cntl->qdev->drm;
	struct qaic_manage_trans_status_from_dev out;
	struct qaic_nnc_answer ans = {
		.buf = &out,
		.size = sizeof(out),
		.num_dbc = QAIC_NUM_DBC,
	};
	enum qaic_cntl_state state;
	int ret;

	ret = qaic_cntl_check_version(cntl, &ans);
	if (ret) {
		drm_err(drm, "control: version check failed: %d\n", ret);
		state = QAIC_CNTL_DOWN;
	} else if (ans.major != QAIC_NNC_MAJOR || ans.minor != QAIC_NNC_MINOR) {
		drm_err(drm, "card speaks control protocol %u.%u, the driver %u.%u: card unusable\n",
			ans.major, ans.minor, QAIC_NNC_MAJOR, QAIC_NNC_MINOR);
		state = QAIC_CNTL_REFUSED;
	} else {
		drm_info(drm, "control path up, protocol %u.%u%s\n", ans.major, ans.minor,
			 ans.status_flags & QAIC_NNC_STATUS_CRC ? ", CRC" : "");
		state = QAIC_CNTL_UP;
	}

	spin_lock_bh(&cntl->lock);
	/* Remove or a system error may have come first. */
	if (cntl->state == QAIC_CNTL_CHECKING) {
		cntl->crc = ans.status_flags & QAIC_NNC_STATUS_CRC;
		WRITE_ONCE(cntl->state, state);
	}
	spin_unlock_bh(&cntl->lock);
	wake_up_all(&cntl->state_wq);
	qaic_card_announce(cntl->qdev);
}

static void qaic_cntl_free_rx(struct qaic_cntl *cntl)
{
	unsigned int i;

	for (i = 0; i < QAIC_CNTL_RX_BUFS; i++) {
		kfree(cntl->rx[i]);
		cntl->rx[i] = NULL;
	}
	cntl->rx_full = 0;
}

static int qaic_cntl_probe(struct mhi_device *mhi_dev, const struct mhi_device_id *id)
{
	struct qaic_device *qdev = qaic_mhi_to_qdev(mhi_dev->mhi_cntrl);
	struct qaic_cntl *cntl;
	unsigned int i;
	int ret;

	if (!qdev)
		return -ENODEV;
	cntl = qdev->cntl;
	dev_set_drvdata(&mhi_dev->dev, cntl);

	ret = mhi_prepare_for_transfer(mhi_dev);
	if (ret)
		return ret;

	for (i = 0; i < QAIC_CNTL_RX_BUFS; i++) {
		cntl->rx[i] = kmalloc(QAIC_CNTL_RSP_SIZE, GFP_KERNEL);
		if (!cntl->rx[i]) {
			ret = -ENOMEM;
			goto unprepare;
		}
		ret = mhi_queue_buf(mhi_dev, DMA_FROM_DEVICE, cntl->rx[i], QAIC_CNTL_RSP_SIZE,
				    MHI_EOT);
		if (ret)
			goto unprepare;
	}

	mutex_lock(&cntl->chan_lock);
	cntl->mhi_dev = mhi_dev;
	mutex_unlock(&cntl->chan_lock);

	spin_lock_bh(&cntl->lock);
	cntl->crc = false;
	WRITE_ONCE(cntl->state, QAIC_CNTL_CHECKING);
	spin_unlock_bh(&cntl->lock);

	queue_work(system_dfl_wq, &cntl->check_work);
	return 0;

unprepare:
	/* Gives the queued buffers back with -ENOTCONN. */
	mhi_unprepare_from_transfer(mhi_dev);
	cancel_work_sync(&cntl->rx_work);
	qaic_cntl_free_rx(cntl);
	return ret;
}

static void qaic_cntl_remove(struct mhi_device *mhi_dev)
{
	struct qaic_cntl *cntl = dev_get_drvdata(&mhi_dev->dev);
	struct qaic_cntl_tx *tx, *next;
	LIST_HEAD(stale);

	mutex_lock(&cntl->chan_lock);
	cntl->mhi_dev = NULL;
	mutex_unlock(&cntl->chan_lock);

	spin_lock_bh(&cntl->lock);
	qaic_cntl_fail_all_locked(cntl, -ENODEV, QAIC_CNTL_DOWN);
	spin_unlock_bh(&cntl->lock);
	wake_up_all(&cntl->state_wq);
	cancel_work_sync(&cntl->check_work);
	qaic_card_announce(cntl->qdev);

	mhi_unprepare_from_transfer(mhi_dev);
	cancel_work_sync(&cntl->rx_work);

	/* No callback runs any more: what the card did not give back is ours. */
	spin_lock_bh(&cntl->lock);
	list_splice_init(&cntl->tx_list, &stale);
	spin_unlock_bh(&cntl->lock);
	list_for_each_entry_safe(tx, next, &stale, node)
		kfree(tx);
	qaic_cntl_free_rx(cntl);
}

/**
 * qaic_cntl_sys_error() - Fail the requests in flight: the card is being reset.
 * @cntl: The card's transport.
 *
 * The MHI core removes the channel and probes it again once the card is
 * back; MANAGE calls made meanwhile wait for that as after power-up.
 */
void qaic_cntl_sys_error(struct qaic_cntl *cntl)
{
	qaic_cntl_powering_up(cntl);
	spin_lock_bh(&cntl->lock);
	qaic_cntl_fail_all_locked(cntl, -EIO, QAIC_CNTL_DOWN);
	spin_unlock_bh(&cntl->lock);
	qaic_card_announce(cntl->qdev);
}

/**
 * qaic_cntl_powering_up() - Note that the control path should come up soon.
 * @cntl: The card's transport.
 *
 * MANAGE calls wait for it during the next ``control_resp_timeout_s``.
 */
void qaic_cntl_powering_up(struct qaic_cntl *cntl)
{
	WRITE_ONCE(cntl->deadline, jiffies + qaic_cntl_timeout());
}

static bool qaic_cntl_settled(struct qaic_cntl *cntl)
{
	enum qaic_cntl_state state = READ_ONCE(cntl->state);

	return state == QAIC_CNTL_UP || state == QAIC_CNTL_REFUSED ||
	       !time_before(jiffies, READ_ONCE(cntl->deadline));
}

/**
 * qaic_cntl_stopping() - Stop waiting for the control path: MHI goes down.
 * @cntl: The card's transport.
 */
void qaic_cntl_stopping(struct qaic_cntl *cntl)
{
	WRITE_ONCE(cntl->deadline, jiffies);
	wake_up_all(&cntl->state_wq);
}

/**
 * qaic_cntl_wait_up() - Wait for the control path to be usable.
 * @cntl: The card's transport.
 *
 * Return: 0 if it is up; -ENODEV if it is not up by the deadline set at
 * power-up, or the card was refused; -ERESTARTSYS on a signal.
 */
int qaic_cntl_wait_up(struct qaic_cntl *cntl)
{
	long left = (long)(READ_ONCE(cntl->deadline) - jiffies);
	long ret;

	ret = wait_event_interruptible_timeout(cntl->state_wq,
					       qaic_cntl_settled(cntl),
					       max(left, 0L));
	if (ret < 0)
		return ret;
	return qaic_cntl_is_up(cntl) ? 0 : -ENODEV;
}

/**
 * qaic_cntl_is_up() - Whether requests go through now.
 * @cntl: The card's transport.
 *
 * Return: true if the control path is up.
 */
bool qaic_cntl_is_up(struct qaic_cntl *cntl)
{
	return READ_ONCE(cntl->state) == QAIC_CNTL_UP;
}

/**
 * qaic_cntl_refused() - Whether the card failed its version check.
 * @cntl: The card's transport.
 *
 * Return: true if the manager speaks a protocol the driver does not.
 */
bool qaic_cntl_refused(struct qaic_cntl *cntl)
{
	return READ_ONCE(cntl->state) == QAIC_CNTL_REFUSED;
}

/**
 * qaic_cntl_init() - Set up the transport state of a card.
 * @qdev: The card.
 *
 * The state lives as long as the DRM device; the channel binds later.
 *
 * Return: 0 or -ENOMEM.
 */
int qaic_cntl_init(struct qaic_device *qdev)
{
	struct qaic_cntl *cntl;
	int ret;

	cntl = drmm_kzalloc(&qdev->drm, sizeof(*cntl), GFP_KERNEL);
	if (!cntl)
		return -ENOMEM;
	ret = drmm_mutex_init(&qdev->drm, &cntl->chan_lock);
	if (ret)
		return ret;

	cntl->qdev = qdev;
	spin_lock_init(&cntl->lock);
	INIT_LIST_HEAD(&cntl->tx_list);
	init_waitqueue_head(&cntl->state_wq);
	init_waitqueue_head(&cntl->slot_wq);
	INIT_WORK(&cntl->check_work, qaic_cntl_check_work);
	INIT_WORK(&cntl->rx_work, qaic_cntl_rx_work);
	cntl->deadline = jiffies;
	qdev->cntl = cntl;
	return 0;
}

static const struct mhi_device_id qaic_cntl_ids[] = {
	{ .chan = "QAIC_CONTROL" },
	{}
};
MODULE_DEVICE_TABLE(mhi, qaic_cntl_ids);

static struct mhi_driver qaic_cntl_driver = {
	.id_table = qaic_cntl_ids,
	.probe = qaic_cntl_probe,
	.remove = qaic_cntl_remove,
	.ul_xfer_cb = qaic_cntl_ul_xfer_cb,
	.dl_xfer_cb = qaic_cntl_dl_xfer_cb,
	.driver = {
		.name = "qaic_control",
	},
};

/**
 * qaic_cntl_register() - Register the QAIC_CONTROL driver with the MHI bus.
 *
 * Return: 0 or a negative errno.
 */
int qaic_cntl_register(void)
{
	return mhi_driver_register(&qaic_cntl_driver);
}

/**
 * qaic_cntl_unregister() - Unregister the QAIC_CONTROL driver.
 */
void qaic_cntl_unregister(void)
{
	mhi_driver_unregister(&qaic_cntl_driver);
}
