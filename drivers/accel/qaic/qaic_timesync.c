// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The qaic authors.
 */

/**
 * DOC: qaic time sync
 *
 * The card has no clock of its own that knows the date: the host tells it
 * the time, so that what the card logs can be set beside what the host
 * logs. Two channel pairs carry it, with one message format (Linux 6.12's):
 * a header of signature (0x55aa), msg_type and reserved fields, 8 bytes,
 * which a time request follows with seconds and microseconds, u64 each;
 * little endian.
 *
 * QAIC_TIMESYNC (20 up, 21 down), in SBL: the card asks for the time with
 * a header of type 0 (command to host); the host answers with type 1 (sync
 * request) and its UTC time, CLOCK_REALTIME; the card may acknowledge it
 * with type 2. The card's messages are handled in order in process
 * context (qaic_mhi_rx.c).
 *
 * QAIC_TIMESYNC_PERIODIC (22 up, 23 down), in mission mode: every
 * ``timesync_delay_ms`` milliseconds (a module parameter, 1000 by default,
 * at least 100) the host sends, unasked, a sync request whose time is the
 * offset of UTC from the card's QTimer: a 64-bit counter of a 19.2 MHz
 * clock the host reads at 0xa28 of the MHI BAR. Adding its QTimer to the
 * offset gives the card UTC. A request not yet sent when the next is due
 * is not duplicated: that one is skipped.
 *
 * The card is not trusted: a message that is not exactly a header, has a
 * wrong signature or an unknown type gets a debug line and no answer. A
 * QTimer that reads all ones (the card is gone) or ahead of UTC makes no
 * offset; that period sends nothing.
 */

#include <linux/device.h>
#include <linux/io.h>
#include <linux/math64.h>
#include <linux/mhi.h>
#include <linux/mod_devicetable.h>
#include <linux/moduleparam.h>
#include <linux/slab.h>
#include <linux/time64.h>
#include <linux/timekeeping.h>
#include <linux/workqueue.h>

#include <drm/drm_drv.h>
#include <drm/drm_print.h>

#include "qaic_compat.h"
#include "qaic_drv.h"
#include "qaic_mhi.h"
#include "qaic_mhi_rx.h"
#include "qaic_timesync.h"

static unsigned int timesync_delay_ms = 1000;
module_param(timesync_delay_ms, uint, 0600);
MODULE_PARM_DESC(timesync_delay_ms,
		 "Period of the time sync in mission mode, in milliseconds (default 1000, at least 100)");

#define QAIC_TS_MIN_DELAY_MS		100

#define QAIC_TS_SIGNATURE		0x55aa
#define QAIC_TS_CMD_TO_HOST		0
#define QAIC_TS_SYNC_REQ		1
#define QAIC_TS_ACK_TO_HOST		2

/* The card's 64-bit QTimer in the MHI BAR, and its frequency. */
#define QAIC_TS_QTIMER_LO		0xa28
#define QAIC_TS_QTIMER_HI		0xa2c
#define QAIC_TS_QTIMER_HZ		19200000

/* Room for more than a header, so that a longer message is seen as one. */
#define QAIC_TS_RX_LEN			32

struct qaic_ts_hdr {
	__le16 signature;
	__le16 rsvd0;
	u8 rsvd1;
	u8 msg_type;
	__le16 rsvd2;
} __packed;

struct qaic_ts_sync {
	struct qaic_ts_hdr hdr;
	__le64 tv_sec;
	__le64 tv_usec;
} __packed;

/**
 * struct qaic_ts_boot - The host end of one card's QAIC_TIMESYNC.
 * @mhi_dev: The channel's MHI device.
 * @qdev: The card.
 */
struct qaic_ts_boot {
	struct mhi_device *mhi_dev;
	struct qaic_device *qdev;
};

/**
 * struct qaic_ts_periodic - The host end of one card's QAIC_TIMESYNC_PERIODIC.
 * @mhi_dev: The channel's MHI device.
 * @qdev: The card.
 * @msg: The request; the card's while @busy.
 * @busy: @msg is queued; cleared by the uplink transfer callback.
 * @work: Sends a request, every timesync_delay_ms.
 */
struct qaic_ts_periodic {
	struct mhi_device *mhi_dev;
	struct qaic_device *qdev;
	struct qaic_ts_sync *msg;
	atomic_t busy;
	struct delayed_work work;
};

static void qaic_ts_fill(struct qaic_ts_sync *msg, u64 usec)
{
	u32 rem;

	msg->hdr.signature = cpu_to_le16(QAIC_TS_SIGNATURE);
	msg->hdr.msg_type = QAIC_TS_SYNC_REQ;
	msg->tv_sec = cpu_to_le64(div_u64_rem(usec, USEC_PER_SEC, &rem));
	msg->tv_usec = cpu_to_le64(rem);
}

/* The card asked for the time: UTC, in a buffer freed by qaic_mhi_tx_free_cb(). */
static void qaic_ts_boot_answer(struct qaic_ts_boot *ts)
{
	struct qaic_ts_sync *msg;
	int ret;

	msg = kzalloc_obj(*msg, GFP_KERNEL);
	if (!msg)
		return;
	qaic_ts_fill(msg, div_u64(ktime_get_real_ns(), NSEC_PER_USEC));
	ret = mhi_queue_buf(ts->mhi_dev, DMA_TO_DEVICE, msg, sizeof(*msg), MHI_EOT);
	if (ret) {
		drm_dbg(&ts->qdev->drm, "timesync: time not sent: %d\n", ret);
		kfree(msg);
	}
}

static void qaic_ts_boot_handle(void *ctx, const void *buf, int len)
{
	const struct qaic_ts_hdr *hdr = buf;
	struct qaic_ts_boot *ts = ctx;
	struct drm_device *drm = &ts->qdev->drm;

	if (len < 0) {
		drm_dbg(drm, "timesync: receive failed: %d\n", len);
		return;
	}
	if (len != sizeof(*hdr)) {
		drm_dbg(drm, "timesync: message of %d bytes dropped\n", len);
		return;
	}
	if (le16_to_cpu(hdr->signature) != QAIC_TS_SIGNATURE) {
		drm_dbg(drm, "timesync: signature %#x dropped\n", le16_to_cpu(hdr->signature));
		return;
	}
	switch (hdr->msg_type) {
	case QAIC_TS_CMD_TO_HOST:
		qaic_ts_boot_answer(ts);
		break;
	case QAIC_TS_ACK_TO_HOST:
		drm_dbg(drm, "timesync: the card took the time\n");
		break;
	default:
		drm_dbg(drm, "timesync: message type %u dropped\n", hdr->msg_type);
		break;
	}
}

static int qaic_ts_boot_probe(struct mhi_device *mhi_dev, const struct mhi_device_id *id)
{
	struct qaic_device *qdev = qaic_mhi_to_qdev(mhi_dev->mhi_cntrl);
	struct device *dev = &mhi_dev->dev;
	struct qaic_ts_boot *ts;

	if (!qdev)
		return -ENODEV;

	ts = devm_kzalloc(dev, sizeof(*ts), GFP_KERNEL);
	if (!ts)
		return -ENOMEM;
	ts->mhi_dev = mhi_dev;
	ts->qdev = qdev;
	return qaic_mhi_rx_start(mhi_dev, QAIC_TS_RX_LEN, QAIC_TS_RX_LEN, qaic_ts_boot_handle, ts);
}

static void qaic_ts_boot_remove(struct mhi_device *mhi_dev)
{
	qaic_mhi_rx_stop(mhi_dev);
}

static const struct mhi_device_id qaic_ts_boot_ids[] = {
	{ .chan = "QAIC_TIMESYNC" },
	{}
};

static struct mhi_driver qaic_ts_boot_driver = {
	.id_table = qaic_ts_boot_ids,
	.probe = qaic_ts_boot_probe,
	.remove = qaic_ts_boot_remove,
	.ul_xfer_cb = qaic_mhi_tx_free_cb,
	.dl_xfer_cb = qaic_mhi_rx_xfer_cb,
	.driver = {
		.name = "qaic_timesync",
	},
};

/* The QTimer, read high, low, high: the low word may wrap meanwhile. */
static u64 qaic_ts_qtimer(void __iomem *bar)
{
	u32 hi, lo, hi2;

	hi = readl(bar + QAIC_TS_QTIMER_HI);
	lo = readl(bar + QAIC_TS_QTIMER_LO);
	hi2 = readl(bar + QAIC_TS_QTIMER_HI);
	if (hi != hi2)
		lo = readl(bar + QAIC_TS_QTIMER_LO);
	return (u64)hi2 << 32 | lo;
}

/* Fills @ts->msg with UTC - QTimer; false if that makes no sense. */
static bool qaic_ts_periodic_fill(struct qaic_ts_periodic *ts)
{
	struct qaic_device *qdev = ts->qdev;
	u64 now_us, qtimer, qtimer_us;
	int idx;

	if (!drm_dev_enter(&qdev->drm, &idx))
		return false;
	now_us = div_u64(ktime_get_real_ns(), NSEC_PER_USEC);
	qtimer = qaic_ts_qtimer(qdev->bar_mhi);
	drm_dev_exit(idx);

	if (qtimer == U64_MAX) {
		drm_dbg(&qdev->drm, "timesync: QTimer reads all ones\n");
		return false;
	}
	qtimer_us = mul_u64_u32_div(qtimer, USEC_PER_SEC, QAIC_TS_QTIMER_HZ);
	if (qtimer_us > now_us) {
		drm_dbg(&qdev->drm, "timesync: QTimer %llu us is ahead of UTC\n", qtimer_us);
		return false;
	}
	qaic_ts_fill(ts->msg, now_us - qtimer_us);
	return true;
}

static void qaic_ts_periodic_work(struct work_struct *work)
{
	struct qaic_ts_periodic *ts = container_of(to_delayed_work(work),
						   struct qaic_ts_periodic, work);
	int ret;

	if (!atomic_read(&ts->busy) && qaic_ts_periodic_fill(ts)) {
		atomic_set(&ts->busy, 1);
		ret = mhi_queue_buf(ts->mhi_dev, DMA_TO_DEVICE, ts->msg, sizeof(*ts->msg),
				    MHI_EOT);
		if (ret) {
			atomic_set(&ts->busy, 0);
			drm_dbg(&ts->qdev->drm, "timesync: offset not sent: %d\n", ret);
		}
	}
	schedule_delayed_work(&ts->work,
			      msecs_to_jiffies(max(READ_ONCE(timesync_delay_ms),
						   QAIC_TS_MIN_DELAY_MS)));
}

static void qaic_ts_periodic_ul_xfer_cb(struct mhi_device *mhi_dev, struct mhi_result *result)
{
	struct qaic_ts_periodic *ts = dev_get_drvdata(&mhi_dev->dev);

	atomic_set(&ts->busy, 0);
}

/* No buffer is queued on the downlink channel: the card has nothing to say. */
static void qaic_ts_periodic_dl_xfer_cb(struct mhi_device *mhi_dev, struct mhi_result *result)
{
}

static int qaic_ts_periodic_probe(struct mhi_device *mhi_dev, const struct mhi_device_id *id)
{
	struct qaic_device *qdev = qaic_mhi_to_qdev(mhi_dev->mhi_cntrl);
	struct device *dev = &mhi_dev->dev;
	struct qaic_ts_periodic *ts;
	int ret;

	if (!qdev)
		return -ENODEV;

	ts = devm_kzalloc(dev, sizeof(*ts), GFP_KERNEL);
	if (!ts)
		return -ENOMEM;
	ts->msg = devm_kzalloc(dev, sizeof(*ts->msg), GFP_KERNEL);
	if (!ts->msg)
		return -ENOMEM;
	ts->mhi_dev = mhi_dev;
	ts->qdev = qdev;
	atomic_set(&ts->busy, 0);
	INIT_DELAYED_WORK(&ts->work, qaic_ts_periodic_work);
	dev_set_drvdata(dev, ts);

	ret = mhi_prepare_for_transfer(mhi_dev);
	if (ret)
		return ret;
	schedule_delayed_work(&ts->work, 0);
	return 0;
}

static void qaic_ts_periodic_remove(struct mhi_device *mhi_dev)
{
	struct qaic_ts_periodic *ts = dev_get_drvdata(&mhi_dev->dev);

	cancel_delayed_work_sync(&ts->work);
	/* Gives the request back if it is still queued. */
	mhi_unprepare_from_transfer(mhi_dev);
}

static const struct mhi_device_id qaic_ts_periodic_ids[] = {
	{ .chan = "QAIC_TIMESYNC_PERIODIC" },
	{}
};

static struct mhi_driver qaic_ts_periodic_driver = {
	.id_table = qaic_ts_periodic_ids,
	.probe = qaic_ts_periodic_probe,
	.remove = qaic_ts_periodic_remove,
	.ul_xfer_cb = qaic_ts_periodic_ul_xfer_cb,
	.dl_xfer_cb = qaic_ts_periodic_dl_xfer_cb,
	.driver = {
		.name = "qaic_timesync_periodic",
	},
};

/**
 * qaic_timesync_register() - Register both time sync drivers with the MHI bus.
 *
 * Return: 0 or a negative errno.
 */
int qaic_timesync_register(void)
{
	int ret;

	ret = mhi_driver_register(&qaic_ts_boot_driver);
	if (ret)
		return ret;
	ret = mhi_driver_register(&qaic_ts_periodic_driver);
	if (ret)
		mhi_driver_unregister(&qaic_ts_boot_driver);
	return ret;
}

/**
 * qaic_timesync_unregister() - Unregister both time sync drivers.
 */
void qaic_timesync_unregister(void)
{
	mhi_driver_unregister(&qaic_ts_periodic_driver);
	mhi_driver_unregister(&qaic_ts_boot_driver);
}
