// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The qaic authors.
 */

/*
 * The receive side of the small MHI clients (QAIC_SSR, QAIC_STATUS): one
 * buffer the card writes a message into; the transfer callback (a tasklet
 * or the MHI core's thread) only queues a work item, which hands the
 * message to the client in process context and then queues the buffer
 * again. One buffer keeps the messages in the order the card sent them,
 * and a card that sends faster than the host handles waits for the buffer.
 * A client that waits for an answer says how long it waits
 * (qaic_mhi_rx_expect()): a card that never answers then gets its handler
 * called with -ETIMEDOUT, so that nothing waits on the card for ever.
 */

#include <linux/device.h>
#include <linux/mhi.h>
#include <linux/jiffies.h>
#include <linux/minmax.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/workqueue.h>

#include "qaic_mhi_rx.h"

/**
 * struct qaic_mhi_rx - One MHI channel's receive buffer.
 * @mhi_dev: The channel's MHI device; its driver data is this.
 * @buf: The buffer; the card's while queued, @work's otherwise.
 * @size: Bytes at @buf.
 * @queue_len: Bytes of @buf the card may write into: the longest message
 *	       the client takes next (qaic_mhi_rx_set_len()).
 * @len: Bytes the card wrote into @buf, or a negative errno.
 * @work: Hands @buf to @fn, then queues it again.
 * @fn: The client's handler.
 * @ctx: The client's, for @fn.
 * @fn_lock: Held around every call of @fn, from @work and from @timeout,
 *	     which would otherwise overlap.
 * @timeout: Calls @fn with -ETIMEDOUT once @deadline passed.
 * @expecting: @fn waits for the card until @deadline; under @fn_lock.
 * @deadline: In jiffies; under @fn_lock.
 */
struct qaic_mhi_rx {
	struct mhi_device *mhi_dev;
	void *buf;
	size_t size;
	size_t queue_len;
	int len;
	struct work_struct work;
	qaic_mhi_rx_fn fn;
	void *ctx;
	struct mutex fn_lock; /* Serialises @fn; see above */
	struct delayed_work timeout;
	bool expecting;
	unsigned long deadline;
};

static void qaic_mhi_rx_work(struct work_struct *work)
{
	struct qaic_mhi_rx *rx = container_of(work, struct qaic_mhi_rx, work);
	int ret;

	scoped_guard(mutex, &rx->fn_lock)
		rx->fn(rx->ctx, rx->buf, rx->len);
	ret = mhi_queue_buf(rx->mhi_dev, DMA_FROM_DEVICE, rx->buf, rx->queue_len, MHI_EOT);
	if (ret)
		dev_dbg(&rx->mhi_dev->dev, "receive buffer not queued again: %d\n", ret);
}

static void qaic_mhi_rx_timeout(struct work_struct *work)
{
	struct qaic_mhi_rx *rx = container_of(to_delayed_work(work), struct qaic_mhi_rx, timeout);

	guard(mutex)(&rx->fn_lock);
	if (!rx->expecting)
		return;
	/* Queued for an earlier deadline, which the handler moved on. */
	if (time_before(jiffies, rx->deadline)) {
		mod_delayed_work(system_percpu_wq, &rx->timeout, rx->deadline - jiffies);
		return;
	}
	rx->expecting = false;
	rx->fn(rx->ctx, NULL, -ETIMEDOUT);
}

/**
 * qaic_mhi_rx_xfer_cb() - The dl_xfer_cb of a client using qaic_mhi_rx_start().
 * @mhi_dev: The channel.
 * @result: The transfer into the receive buffer.
 */
void qaic_mhi_rx_xfer_cb(struct mhi_device *mhi_dev, struct mhi_result *result)
{
	struct qaic_mhi_rx *rx = dev_get_drvdata(&mhi_dev->dev);

	/* -ENOTCONN: the channel is going away; the buffer is ours again. */
	if (result->transaction_status == -ENOTCONN)
		return;
	rx->len = result->transaction_status ? result->transaction_status :
					       (int)result->bytes_xferd;
	queue_work(system_percpu_wq, &rx->work);
}

/**
 * qaic_mhi_tx_free_cb() - A ul_xfer_cb for clients whose every message is
 *			   a kmalloc()ed buffer of its own: it frees it.
 * @mhi_dev: The channel.
 * @result: The transfer of the message, done or given back.
 */
void qaic_mhi_tx_free_cb(struct mhi_device *mhi_dev, struct mhi_result *result)
{
	kfree(result->buf_addr);
}

/**
 * qaic_mhi_rx_start() - Start a channel and receive on it, from a probe.
 * @mhi_dev: The channel.
 * @len: The longest message taken, until qaic_mhi_rx_set_len(); a longer
 *	 one fails its transfer.
 * @size: Bytes of the receive buffer: the longest @len ever.
 * @fn: Called with each message, in process context.
 * @ctx: For @fn, and qaic_mhi_rx_ctx().
 *
 * Takes the channel's driver data. The buffer is devm-allocated on
 * @mhi_dev.
 *
 * Return: 0 or a negative errno; the channel is not started then.
 */
int qaic_mhi_rx_start(struct mhi_device *mhi_dev, size_t len, size_t size, qaic_mhi_rx_fn fn,
		      void *ctx)
{
	struct device *dev = &mhi_dev->dev;
	struct qaic_mhi_rx *rx;
	int ret;

	rx = devm_kzalloc(dev, sizeof(*rx), GFP_KERNEL);
	if (!rx)
		return -ENOMEM;
	rx->buf = devm_kzalloc(dev, size, GFP_KERNEL);
	if (!rx->buf)
		return -ENOMEM;
	rx->mhi_dev = mhi_dev;
	rx->size = size;
	rx->queue_len = min(len, size);
	rx->fn = fn;
	rx->ctx = ctx;
	INIT_WORK(&rx->work, qaic_mhi_rx_work);
	mutex_init(&rx->fn_lock);
	INIT_DELAYED_WORK(&rx->timeout, qaic_mhi_rx_timeout);
	dev_set_drvdata(dev, rx);

	ret = mhi_prepare_for_transfer(mhi_dev);
	if (ret)
		return ret;
	ret = mhi_queue_buf(mhi_dev, DMA_FROM_DEVICE, rx->buf, rx->queue_len, MHI_EOT);
	if (ret)
		mhi_unprepare_from_transfer(mhi_dev);
	return ret;
}

/**
 * qaic_mhi_rx_set_len() - The longest message the client takes next.
 * @mhi_dev: A channel started by qaic_mhi_rx_start().
 * @len: Bytes, at most its buffer's; from the handler only, for the
 *	 messages after the one it handles.
 */
void qaic_mhi_rx_set_len(struct mhi_device *mhi_dev, size_t len)
{
	struct qaic_mhi_rx *rx = dev_get_drvdata(&mhi_dev->dev);

	rx->queue_len = min(len, rx->size);
}

/**
 * qaic_mhi_rx_expect() - How long the client waits for the card's next message.
 * @mhi_dev: A channel started by qaic_mhi_rx_start().
 * @timeout: In jiffies, from now; 0 for no wait (the default).
 *
 * From the handler only: unless the handler calls this again before
 * @timeout passed (with 0 to stop waiting), it is called with -ETIMEDOUT
 * then. Messages the handler takes meanwhile do not end the wait: a card
 * that sends something else every so often cannot keep the client waiting.
 */
void qaic_mhi_rx_expect(struct mhi_device *mhi_dev, unsigned long timeout)
{
	struct qaic_mhi_rx *rx = dev_get_drvdata(&mhi_dev->dev);

	lockdep_assert_held(&rx->fn_lock);
	rx->expecting = timeout;
	if (!timeout)
		return;
	rx->deadline = jiffies + timeout;
	mod_delayed_work(system_percpu_wq, &rx->timeout, timeout);
}

/**
 * qaic_mhi_rx_ctx() - The context a channel was started with.
 * @mhi_dev: A channel started by qaic_mhi_rx_start().
 *
 * Return: its @ctx.
 */
void *qaic_mhi_rx_ctx(struct mhi_device *mhi_dev)
{
	struct qaic_mhi_rx *rx = dev_get_drvdata(&mhi_dev->dev);

	return rx->ctx;
}

/**
 * qaic_mhi_rx_stop() - Stop a channel started by qaic_mhi_rx_start(), from
 *			its remove.
 * @mhi_dev: The channel.
 *
 * No handler runs once this returns.
 */
void qaic_mhi_rx_stop(struct mhi_device *mhi_dev)
{
	struct qaic_mhi_rx *rx = dev_get_drvdata(&mhi_dev->dev);

	/* Gives every queued buffer back; no callback runs after this. */
	mhi_unprepare_from_transfer(mhi_dev);
	cancel_work_sync(&rx->work);
	cancel_delayed_work_sync(&rx->timeout);
}
