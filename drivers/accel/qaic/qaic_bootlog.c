// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The qaic authors.
 */

/**
 * DOC: qaic boot log
 *
 * While the card runs its secondary boot loader (SBL) it writes a log of
 * its boot, in text, on the QAIC_LOGGING channel pair (12 up, 13 down;
 * only the downlink carries anything). The driver keeps what it gets per
 * card and shows it in debugfs, in the file ``bootlog`` of the card's DRM
 * directory (``/sys/kernel/debug/accel/<PCI address>/bootlog``).
 *
 * The log is the card's, not the channel's: it lives as long as the DRM
 * device, so it stays readable after the card left SBL (the MHI core then
 * removes the channel), after a crash of the card, and while it resets.
 * It starts over when a new boot opens the channel again. A crash of a
 * card in mission mode does not go through SBL, and leaves the log as it
 * was.
 *
 * Memory is bounded: the driver keeps the last 64 KiB the card wrote
 * (%QAIC_BOOTLOG_SIZE) in a ring. A card that writes more loses its oldest
 * bytes, and the file then begins with a line saying how many were lost.
 *
 * The card is not trusted. Each message is taken up to its first NUL byte
 * (the card sends C strings) and at most 512 bytes, the size of the
 * buffers the driver queues. A byte that is neither printable ASCII, a
 * tab nor a newline is kept as a '.', so the file is always text; such a
 * message gets a debug line (rate limited: the callback runs in softirq
 * context, and the card may send nothing else). Messages go into the ring from the transfer
 * callback, in the order the card wrote them, and the buffer is queued
 * again at once, so a card that never stops writing costs CPU time, but
 * no more memory.
 */

#include <linux/debugfs.h>
#include <linux/device.h>
#include <linux/mhi.h>
#include <linux/mod_devicetable.h>
#include <linux/seq_file.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/spinlock.h>

#include <drm/drm_managed.h>
#include <drm/drm_print.h>

#include "qaic_bootlog.h"
#include "qaic_drv.h"
#include "qaic_mhi.h"

/* Bytes of log kept per card: the last ones the card wrote. */
#define QAIC_BOOTLOG_SIZE	SZ_64K
/* The receive buffers: upstream Linux's size, and a few of them. */
#define QAIC_BOOTLOG_MSG_LEN	512
#define QAIC_BOOTLOG_NR_BUFS	8

/**
 * struct qaic_bootlog - The boot log of one card.
 * @lock: Protects the other members. Taken in the MHI transfer callback,
 *	  which runs in softirq context, and by readers of the debugfs file.
 * @ring: %QAIC_BOOTLOG_SIZE bytes: the log, oldest byte at @head - @len.
 * @head: Where the next byte goes.
 * @len: Bytes of the log in @ring.
 * @lost: Bytes the card wrote that no longer are in @ring.
 */
struct qaic_bootlog {
	spinlock_t lock; /* Protects the ring; see above */
	char *ring;
	size_t head;
	size_t len;
	u64 lost;
};

/**
 * struct qaic_bootlog_chan - The host end of one card's QAIC_LOGGING.
 * @qdev: The card.
 * @log: The card's boot log.
 */
struct qaic_bootlog_chan {
	struct qaic_device *qdev;
	struct qaic_bootlog *log;
};

static void qaic_bootlog_clear(struct qaic_bootlog *log)
{
	spin_lock_bh(&log->lock);
	log->head = 0;
	log->len = 0;
	log->lost = 0;
	spin_unlock_bh(&log->lock);
}

static void qaic_bootlog_put_locked(struct qaic_bootlog *log, char c)
{
	lockdep_assert_held(&log->lock);

	log->ring[log->head] = c;
	log->head = (log->head + 1) % QAIC_BOOTLOG_SIZE;
	if (log->len < QAIC_BOOTLOG_SIZE)
		log->len++;
	else
		log->lost++;
}

/* Text as it is; anything else, a '.'. Returns how many were replaced. */
static unsigned int qaic_bootlog_append(struct qaic_bootlog *log, const u8 *msg, size_t len)
{
	unsigned int replaced = 0;
	size_t i;

	spin_lock_bh(&log->lock);
	for (i = 0; i < len && msg[i]; i++) {
		u8 c = msg[i];

		if (c != '\n' && c != '\t' && (c < 0x20 || c > 0x7e)) {
			c = '.';
			replaced++;
		}
		qaic_bootlog_put_locked(log, c);
	}
	spin_unlock_bh(&log->lock);
	return replaced;
}

static int qaic_bootlog_show(struct seq_file *s, void *unused)
{
	struct qaic_bootlog *log = s->private;
	size_t start, first;

	spin_lock_bh(&log->lock);
	if (log->lost)
		seq_printf(s, "[%llu bytes of the log lost]\n", log->lost);
	start = (log->head + QAIC_BOOTLOG_SIZE - log->len) % QAIC_BOOTLOG_SIZE;
	first = min(log->len, QAIC_BOOTLOG_SIZE - start);
	seq_write(s, log->ring + start, first);
	seq_write(s, log->ring, log->len - first);
	spin_unlock_bh(&log->lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(qaic_bootlog);

static void qaic_bootlog_free_ring(struct drm_device *drm, void *ring)
{
	kvfree(ring);
}

/**
 * qaic_bootlog_init() - Make room for a card's boot log, and its file.
 * @qdev: The card; its DRM device not registered yet.
 *
 * Both last as long as the DRM device.
 *
 * Return: 0 or a negative errno.
 */
int qaic_bootlog_init(struct qaic_device *qdev)
{
	struct qaic_bootlog *log;
	int ret;

	log = drmm_kzalloc(&qdev->drm, sizeof(*log), GFP_KERNEL);
	if (!log)
		return -ENOMEM;
	spin_lock_init(&log->lock);
	log->ring = kvzalloc(QAIC_BOOTLOG_SIZE, GFP_KERNEL);
	if (!log->ring)
		return -ENOMEM;
	ret = drmm_add_action_or_reset(&qdev->drm, qaic_bootlog_free_ring, log->ring);
	if (ret)
		return ret;
	qdev->bootlog = log;

	debugfs_create_file("bootlog", 0400, qdev->drm.debugfs_root, log, &qaic_bootlog_fops);
	return 0;
}

static void qaic_bootlog_dl_xfer_cb(struct mhi_device *mhi_dev, struct mhi_result *result)
{
	struct qaic_bootlog_chan *ch = dev_get_drvdata(&mhi_dev->dev);
	struct drm_device *drm = &ch->qdev->drm;
	size_t len = min_t(size_t, result->bytes_xferd, QAIC_BOOTLOG_MSG_LEN);
	unsigned int replaced;
	int ret;

	/* -ENOTCONN: the channel is going away; the buffer is ours again. */
	if (result->transaction_status == -ENOTCONN)
		return;
	if (result->transaction_status && result->transaction_status != -EOVERFLOW) {
		drm_dbg_ratelimited(drm, "bootlog: receive failed: %d\n",
				    result->transaction_status);
	} else {
		replaced = qaic_bootlog_append(ch->log, result->buf_addr, len);
		if (replaced)
			drm_dbg_ratelimited(drm,
					    "bootlog: %u bytes of a %zu-byte message are not text\n",
					    replaced, len);
	}

	ret = mhi_queue_buf(mhi_dev, DMA_FROM_DEVICE, result->buf_addr, QAIC_BOOTLOG_MSG_LEN,
			    MHI_EOT);
	if (ret)
		drm_dbg(drm, "bootlog: buffer not queued again: %d\n", ret);
}

/* Nothing is sent on the uplink channel. */
static void qaic_bootlog_ul_xfer_cb(struct mhi_device *mhi_dev, struct mhi_result *result)
{
}

static int qaic_bootlog_probe(struct mhi_device *mhi_dev, const struct mhi_device_id *id)
{
	struct qaic_device *qdev = qaic_mhi_to_qdev(mhi_dev->mhi_cntrl);
	struct device *dev = &mhi_dev->dev;
	struct qaic_bootlog_chan *ch;
	unsigned int i;
	int ret;

	if (!qdev || !qdev->bootlog)
		return -ENODEV;

	ch = devm_kzalloc(dev, sizeof(*ch), GFP_KERNEL);
	if (!ch)
		return -ENOMEM;
	ch->qdev = qdev;
	ch->log = qdev->bootlog;
	dev_set_drvdata(dev, ch);

	/* A new boot: its log replaces the last one's. */
	qaic_bootlog_clear(ch->log);

	ret = mhi_prepare_for_transfer(mhi_dev);
	if (ret)
		return ret;
	for (i = 0; i < QAIC_BOOTLOG_NR_BUFS; i++) {
		void *buf = devm_kzalloc(dev, QAIC_BOOTLOG_MSG_LEN, GFP_KERNEL);

		ret = buf ? mhi_queue_buf(mhi_dev, DMA_FROM_DEVICE, buf, QAIC_BOOTLOG_MSG_LEN,
					  MHI_EOT) : -ENOMEM;
		if (ret) {
			/* Gives back the buffers already queued. */
			mhi_unprepare_from_transfer(mhi_dev);
			return ret;
		}
	}
	return 0;
}

static void qaic_bootlog_remove(struct mhi_device *mhi_dev)
{
	/* Gives every queued buffer back; no callback runs after this. */
	mhi_unprepare_from_transfer(mhi_dev);
}

static const struct mhi_device_id qaic_bootlog_ids[] = {
	{ .chan = "QAIC_LOGGING" },
	{}
};

static struct mhi_driver qaic_bootlog_driver = {
	.id_table = qaic_bootlog_ids,
	.probe = qaic_bootlog_probe,
	.remove = qaic_bootlog_remove,
	.ul_xfer_cb = qaic_bootlog_ul_xfer_cb,
	.dl_xfer_cb = qaic_bootlog_dl_xfer_cb,
	.driver = {
		.name = "qaic_bootlog",
	},
};

/**
 * qaic_bootlog_register() - Register the QAIC_LOGGING driver with the MHI bus.
 *
 * Return: 0 or a negative errno.
 */
int qaic_bootlog_register(void)
{
	return mhi_driver_register(&qaic_bootlog_driver);
}

/**
 * qaic_bootlog_unregister() - Unregister the QAIC_LOGGING driver.
 */
void qaic_bootlog_unregister(void)
{
	mhi_driver_unregister(&qaic_bootlog_driver);
}
