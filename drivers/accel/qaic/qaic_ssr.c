// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The qaic authors.
 */

/**
 * DOC: qaic subsystem restart
 *
 * When the neural signal processor behind one DMA Bridge Channel crashes,
 * an AIC100 restarts that subsystem alone and walks the host through it on
 * the QAIC_SSR channel pair: the DBC goes BEFORE_SHUTDOWN, AFTER_SHUTDOWN,
 * BEFORE_POWER_UP, AFTER_POWER_UP, and the card waits for the host to
 * acknowledge each step. The other DBCs, and the card, carry on.
 *
 * The wire format is upstream Linux's (6.19): each message begins with
 * cmd, len (of the whole message) and dbc_id, little-endian u32s; an event
 * (cmd 0x100) adds the event, one bit of 0x2, 0x4, 0x8, 0x10 for the four
 * steps, and the host answers with cmd 0x200 and the same event, or NACK
 * (0x1). A card that would send a crash dump first offers it (cmd 0x1):
 * the host declines (crash dumps are not collected yet), so the card does
 * not wait for one.
 *
 * The host's part of each step is qaic_owner_ssr_step(): at
 * BEFORE_SHUTDOWN the card has dropped the DBC's workload, so the DBC is
 * released, its jobs failing with -EPIPE; until the host acknowledged
 * AFTER_POWER_UP every ioctl naming the DBC fails with -EPIPE; then it is
 * idle, and its owner activates it again. Each step is a DBC_STATE uevent
 * (qaic_sysfs.c).
 *
 * A card may restart a DBC again and again, by fault or by malice, and
 * each restart would be two lines in the log (its work lost, the DBC
 * back) and five uevents. What a card makes the host log and announce
 * through restarts is bounded per card: at most %QAIC_SSR_LOG_BURST (10)
 * of those lines per %QAIC_SSR_LIMIT_INTERVAL (5 s), the others dropped
 * (the kernel's ratelimit says how many, at most once an interval); and
 * at most %QAIC_SSR_UEVENT_BURST (16) DBC_STATE uevents of the steps and
 * the IDLE that ends a restart per interval, the others held back until
 * the next interval, when the current state of each DBC held back is
 * announced if it differs from the last one announced (qaic_sysfs.c). A
 * flood thus costs at most 10 lines and 16 uevents per 5 s, and its
 * listeners end up with the state dbc<N>_state shows. The restart itself
 * is never held back: every step is taken and answered at once. Three
 * restarts in an interval fit both limits, and a budget of one uevent per
 * DBC lets an interval announce every DBC held back.
 *
 * The card is not trusted: a message shorter than it says, a length past
 * the buffer, an unknown command or DBC are dropped with a debug line; an
 * unknown event or one out of order is answered NACK and changes nothing.
 * Messages arrive in one receive buffer, handled in order in process
 * context (qaic_mhi_rx.c), so steps are taken in the order the card sent
 * them.
 */

#include <linux/cleanup.h>
#include <linux/device.h>
#include <linux/mhi.h>
#include <linux/mod_devicetable.h>
#include <linux/ratelimit.h>
#include <linux/slab.h>

#include <drm/drm_print.h>

#include "qaic_compat.h"
#include "qaic_drv.h"
#include "qaic_mhi.h"
#include "qaic_mhi_rx.h"
#include "qaic_ssr.h"

#define QAIC_SSR_DEBUG_XFER_INFO	0x001
#define QAIC_SSR_DEBUG_XFER_INFO_RSP	0x002
#define QAIC_SSR_EVENT			0x100
#define QAIC_SSR_EVENT_RSP		0x200

#define QAIC_SSR_NACK			0x01
/* DEBUG_XFER_INFO_RSP: the host will not take a crash dump. */
#define QAIC_SSR_DUMP_DECLINED		1

/* The card's messages fit the 32 bytes upstream's host gives it. */
#define QAIC_SSR_RX_LEN			32

struct qaic_ssr_hdr {
	__le32 cmd;
	__le32 len;
	__le32 dbc_id;
} __packed;

/* An event, its answer, and the answer to a crash dump offer. */
struct qaic_ssr_msg {
	struct qaic_ssr_hdr hdr;
	__le32 arg;
} __packed;

static const struct {
	u32 event;
	enum qaic_dbc_state step;
} qaic_ssr_events[] = {
	{ 0x02, QAIC_DBC_BEFORE_SHUTDOWN },
	{ 0x04, QAIC_DBC_AFTER_SHUTDOWN },
	{ 0x08, QAIC_DBC_BEFORE_POWER_UP },
	{ 0x10, QAIC_DBC_AFTER_POWER_UP },
};

/**
 * struct qaic_ssr - The host end of one card's QAIC_SSR channel.
 * @mhi_dev: The channel's MHI device.
 * @qdev: The card.
 */
struct qaic_ssr {
	struct mhi_device *mhi_dev;
	struct qaic_device *qdev;
};

/* Answers go out in buffers of their own, freed by qaic_mhi_tx_free_cb(). */
static void qaic_ssr_send(struct qaic_ssr *s, u32 cmd, u32 dbc_id, u32 arg)
{
	struct qaic_ssr_msg *msg;
	int ret;

	msg = kzalloc_obj(*msg, GFP_KERNEL);
	if (!msg)
		return;
	msg->hdr.cmd = cpu_to_le32(cmd);
	msg->hdr.len = cpu_to_le32(sizeof(*msg));
	msg->hdr.dbc_id = cpu_to_le32(dbc_id);
	msg->arg = cpu_to_le32(arg);
	ret = mhi_queue_buf(s->mhi_dev, DMA_TO_DEVICE, msg, sizeof(*msg), MHI_EOT);
	if (ret) {
		drm_dbg(&s->qdev->drm, "ssr: answer %#x for DBC %u not sent: %d\n", cmd, dbc_id,
			ret);
		kfree(msg);
	}
}

static enum qaic_dbc_state qaic_ssr_step_of(u32 event)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(qaic_ssr_events); i++)
		if (qaic_ssr_events[i].event == event)
			return qaic_ssr_events[i].step;
	return QAIC_DBC_IDLE;
}

static void qaic_ssr_event(struct qaic_ssr *s, u32 dbc_id, u32 event)
{
	struct qaic_device *qdev = s->qdev;
	enum qaic_dbc_state step = qaic_ssr_step_of(event);

	if (step == QAIC_DBC_IDLE || !qaic_owner_ssr_step(qdev, dbc_id, step)) {
		drm_dbg(&qdev->drm, "ssr: DBC %u: event %#x refused\n", dbc_id, event);
		qaic_ssr_send(s, QAIC_SSR_EVENT_RSP, dbc_id, QAIC_SSR_NACK);
		return;
	}
	if (step == QAIC_DBC_BEFORE_SHUTDOWN && __ratelimit(&qdev->ssr_log_rs))
		drm_info(&qdev->drm, "DBC %u: subsystem restart: its work is lost\n", dbc_id);
	qaic_ssr_send(s, QAIC_SSR_EVENT_RSP, dbc_id, event);
	if (step == QAIC_DBC_AFTER_POWER_UP && qaic_owner_ssr_step(qdev, dbc_id, QAIC_DBC_IDLE) &&
	    __ratelimit(&qdev->ssr_log_rs))
		drm_info(&qdev->drm, "DBC %u: subsystem back\n", dbc_id);
}

static void qaic_ssr_handle(void *ctx, const void *buf, int len)
{
	const struct qaic_ssr_msg *msg = buf;
	struct qaic_ssr *s = ctx;
	struct drm_device *drm = &s->qdev->drm;
	u32 cmd, mlen, dbc_id;

	if (len < 0) {
		drm_dbg(drm, "ssr: receive failed: %d\n", len);
		return;
	}
	if (len < (int)sizeof(msg->hdr)) {
		drm_dbg(drm, "ssr: message of %d bytes dropped\n", len);
		return;
	}
	cmd = le32_to_cpu(msg->hdr.cmd);
	mlen = le32_to_cpu(msg->hdr.len);
	dbc_id = le32_to_cpu(msg->hdr.dbc_id);
	if (mlen < sizeof(*msg) || mlen > len) {
		drm_dbg(drm, "ssr: cmd %#x: length %u in a message of %d bytes\n", cmd, mlen, len);
		return;
	}
	if (dbc_id >= QAIC_NUM_DBC) {
		drm_dbg(drm, "ssr: cmd %#x: DBC %u: there are %u\n", cmd, dbc_id, QAIC_NUM_DBC);
		return;
	}

	switch (cmd) {
	case QAIC_SSR_EVENT:
		qaic_ssr_event(s, dbc_id, le32_to_cpu(msg->arg));
		break;
	case QAIC_SSR_DEBUG_XFER_INFO:
		drm_dbg(drm, "ssr: DBC %u: crash dump declined\n", dbc_id);
		qaic_ssr_send(s, QAIC_SSR_DEBUG_XFER_INFO_RSP, dbc_id, QAIC_SSR_DUMP_DECLINED);
		break;
	default:
		drm_dbg(drm, "ssr: unknown cmd %#x dropped\n", cmd);
		break;
	}
}

static int qaic_ssr_probe(struct mhi_device *mhi_dev, const struct mhi_device_id *id)
{
	struct qaic_device *qdev = qaic_mhi_to_qdev(mhi_dev->mhi_cntrl);
	struct qaic_ssr *s;

	if (!qdev)
		return -ENODEV;

	s = devm_kzalloc(&mhi_dev->dev, sizeof(*s), GFP_KERNEL);
	if (!s)
		return -ENOMEM;
	s->mhi_dev = mhi_dev;
	s->qdev = qdev;
	return qaic_mhi_rx_start(mhi_dev, QAIC_SSR_RX_LEN, qaic_ssr_handle, s);
}

static const struct mhi_device_id qaic_ssr_ids[] = {
	{ .chan = "QAIC_SSR" },
	{}
};

static struct mhi_driver qaic_ssr_driver = {
	.id_table = qaic_ssr_ids,
	.probe = qaic_ssr_probe,
	.remove = qaic_mhi_rx_stop,
	.ul_xfer_cb = qaic_mhi_tx_free_cb,
	.dl_xfer_cb = qaic_mhi_rx_xfer_cb,
	.driver = {
		.name = "qaic_ssr",
	},
};

/**
 * qaic_ssr_init() - The limit of the lines a card's restarts log.
 * @qdev: The card being probed, before its MHI channels can deliver.
 */
void qaic_ssr_init(struct qaic_device *qdev)
{
	ratelimit_state_init(&qdev->ssr_log_rs, QAIC_SSR_LIMIT_INTERVAL, QAIC_SSR_LOG_BURST);
}

/**
 * qaic_ssr_register() - Register the QAIC_SSR driver with the MHI bus.
 *
 * Return: 0 or a negative errno.
 */
int qaic_ssr_register(void)
{
	return mhi_driver_register(&qaic_ssr_driver);
}

/**
 * qaic_ssr_unregister() - Unregister the QAIC_SSR driver.
 */
void qaic_ssr_unregister(void)
{
	mhi_driver_unregister(&qaic_ssr_driver);
}
