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
 * (0x1).
 *
 * Between BEFORE_POWER_UP and AFTER_POWER_UP the card may offer the
 * crashed subsystem's memory (DEBUG_XFER_INFO, cmd 0x1: the address and
 * length of a table of regions, u64s after a reserved word). The host
 * accepts (DEBUG_XFER_INFO_RSP, 0x2, status 0) and reads the table, then
 * every region in pieces of at most 16 KiB: MEMORY_READ (0x4: address and
 * length) answered by MEMORY_READ_RSP (0x8: a reserved word, then exactly
 * the bytes asked for). Then it says DEBUG_XFER_DONE (0x10), and the
 * card's DEBUG_XFER_DONE_RSP (0x20) of status 0 hands the dump to
 * devcoredump: the layout, the table's rules and the bound of its size
 * are those of the card's memory dump over Sahara (qaic_memdump.c).
 * The host declines an offer (status 1) for a DBC that is not between
 * those two steps, while it reads another dump, or with a table that
 * breaks a rule. An answer that breaks a rule abandons the dump with one
 * line in the log; the host then says DEBUG_XFER_DONE, so that the card
 * goes on with the restart, and ignores its answer. A step of the restart
 * of the DBC being dumped abandons the dump too.
 *
 * The host's part of each step is qaic_owner_ssr_step(): at
 * BEFORE_SHUTDOWN the card has dropped the DBC's workload, so the DBC is
 * released, its jobs failing with -EPIPE; until AFTER_POWER_UP every ioctl
 * naming the DBC fails with -EPIPE; then it is idle, before the host's
 * answer lets the card grant it again, and its owner activates it again.
 * Each step is a DBC_STATE uevent (qaic_sysfs.c).
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
#include "qaic_memdump.h"
#include "qaic_mhi.h"
#include "qaic_mhi_rx.h"
#include "qaic_owner.h"
#include "qaic_sahara.h"
#include "qaic_ssr.h"
#include "qaic_sysfs.h"

#define QAIC_SSR_DEBUG_XFER_INFO	0x001
#define QAIC_SSR_DEBUG_XFER_INFO_RSP	0x002
#define QAIC_SSR_MEMORY_READ		0x004
#define QAIC_SSR_MEMORY_READ_RSP	0x008
#define QAIC_SSR_DEBUG_XFER_DONE	0x010
#define QAIC_SSR_DEBUG_XFER_DONE_RSP	0x020
#define QAIC_SSR_EVENT			0x100
#define QAIC_SSR_EVENT_RSP		0x200

#define QAIC_SSR_NACK			0x01
/* DEBUG_XFER_INFO_RSP: the host takes the crash dump, or will not. */
#define QAIC_SSR_DUMP_ACCEPTED		0
#define QAIC_SSR_DUMP_DECLINED		1

/* No crash dump is being read. */
#define QAIC_SSR_NO_DUMP		U32_MAX

/*
 * The card's messages fit the 32 bytes upstream's host gives it, but for
 * MEMORY_READ_RSP: its header and reserved word, then the bytes of a read.
 * The receive buffer takes one only while a read is outstanding.
 */
#define QAIC_SSR_MSG_LEN		32
#define QAIC_SSR_READ_RSP_HDR_LEN	16
#define QAIC_SSR_RX_LEN			(QAIC_SSR_READ_RSP_HDR_LEN + QAIC_MEMDUMP_MAX_READ)

struct qaic_ssr_hdr {
	__le32 cmd;
	__le32 len;
	__le32 dbc_id;
} __packed;

/* An event, its answer, the answer to a crash dump offer, the dump's end. */
struct qaic_ssr_msg {
	struct qaic_ssr_hdr hdr;
	__le32 arg;
} __packed;

/* A crash dump's offer (DEBUG_XFER_INFO), and a read of it (MEMORY_READ). */
struct qaic_ssr_mem_msg {
	struct qaic_ssr_hdr hdr;
	__le32 resv;
	__le64 addr;
	__le64 len;
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
 * @dump_dbc: The DBC whose crash dump is being read, or %QAIC_SSR_NO_DUMP.
 * @dump_table_addr: Where the card has the dump's table.
 * @dump_table_len: Its length, until the table is in.
 * @dump: The dump, once its table is in; NULL before.
 * @dump_asked: Bytes of the outstanding MEMORY_READ; 0 once DEBUG_XFER_DONE
 *		was sent.
 *
 * The dump fields are used only by the receive handler, which runs one
 * message at a time, and by remove once the handler can run no more.
 */
struct qaic_ssr {
	struct mhi_device *mhi_dev;
	struct qaic_device *qdev;
	u32 dump_dbc;
	u64 dump_table_addr;
	u64 dump_table_len;
	struct qaic_memdump *dump;
	u64 dump_asked;
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

static int qaic_ssr_send_read(struct qaic_ssr *s, u64 addr, u64 len)
{
	struct qaic_ssr_mem_msg *msg;
	int ret;

	msg = kzalloc_obj(*msg, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	msg->hdr.cmd = cpu_to_le32(QAIC_SSR_MEMORY_READ);
	msg->hdr.len = cpu_to_le32(sizeof(*msg));
	msg->hdr.dbc_id = cpu_to_le32(s->dump_dbc);
	msg->addr = cpu_to_le64(addr);
	msg->len = cpu_to_le64(len);
	ret = mhi_queue_buf(s->mhi_dev, DMA_TO_DEVICE, msg, sizeof(*msg), MHI_EOT);
	if (ret) {
		kfree(msg);
		return ret;
	}
	s->dump_asked = len;
	qaic_mhi_rx_set_len(s->mhi_dev, QAIC_SSR_READ_RSP_HDR_LEN + len);
	return 0;
}

static void qaic_ssr_dump_forget(struct qaic_ssr *s)
{
	qaic_memdump_free(s->dump);
	s->dump = NULL;
	s->dump_asked = 0;
	s->dump_dbc = QAIC_SSR_NO_DUMP;
	qaic_mhi_rx_set_len(s->mhi_dev, QAIC_SSR_MSG_LEN);
}

/*
 * The card answers each read, and the dump's end, within the time Sahara
 * gives a packet; else the host gives the dump up (qaic_ssr_handle()), and
 * with it the memory it holds.
 */
static void qaic_ssr_dump_wait(struct qaic_ssr *s)
{
	qaic_mhi_rx_expect(s->mhi_dev, qaic_sahara_timeout());
}

/* The dump is over, kept or not: nothing more is waited for. */
static void qaic_ssr_dump_over(struct qaic_ssr *s)
{
	qaic_mhi_rx_expect(s->mhi_dev, 0);
	qaic_ssr_dump_forget(s);
}

/* Give the dump up with one line; the card is told the host is done. */
static __printf(2, 3) void qaic_ssr_dump_abandon(struct qaic_ssr *s, const char *fmt, ...)
{
	struct va_format vaf;
	va_list args;

	va_start(args, fmt);
	vaf.fmt = fmt;
	vaf.va = &args;
	drm_warn(&s->qdev->drm, "DBC %u: crash dump abandoned: %pV\n", s->dump_dbc, &vaf);
	va_end(args);
	if (s->dump_asked)
		qaic_ssr_send(s, QAIC_SSR_DEBUG_XFER_DONE, s->dump_dbc, 0);
	qaic_ssr_dump_over(s);
}

/* Ask for the dump's next piece, or say the host has it all. */
static void qaic_ssr_dump_next(struct qaic_ssr *s)
{
	u64 addr, len;
	int ret;

	if (!qaic_memdump_next(s->dump, &addr, &len)) {
		s->dump_asked = 0;
		qaic_mhi_rx_set_len(s->mhi_dev, QAIC_SSR_MSG_LEN);
		qaic_ssr_send(s, QAIC_SSR_DEBUG_XFER_DONE, s->dump_dbc, 0);
		qaic_ssr_dump_wait(s);
		return;
	}
	ret = qaic_ssr_send_read(s, addr, len);
	if (ret)
		qaic_ssr_dump_abandon(s, "read not sent: %d", ret);
	else
		qaic_ssr_dump_wait(s);
}

static void qaic_ssr_dump_offer(struct qaic_ssr *s, u32 dbc_id, const void *buf, u32 mlen)
{
	const struct qaic_ssr_mem_msg *msg = buf;
	struct qaic_device *qdev = s->qdev;
	char why[96];
	int ret;

	if (mlen < sizeof(*msg)) {
		drm_dbg(&qdev->drm, "ssr: DBC %u: crash dump offer of %u bytes declined\n", dbc_id,
			mlen);
		goto decline;
	}
	if (s->dump_dbc != QAIC_SSR_NO_DUMP ||
	    READ_ONCE(qdev->dbc[dbc_id].ssr) != QAIC_DBC_BEFORE_POWER_UP) {
		drm_dbg(&qdev->drm, "ssr: DBC %u: crash dump offered out of turn, declined\n",
			dbc_id);
		goto decline;
	}
	if (qaic_memdump_check_table(le64_to_cpu(msg->len), why, sizeof(why))) {
		drm_dbg(&qdev->drm, "ssr: DBC %u: crash dump declined: %s\n", dbc_id, why);
		goto decline;
	}
	s->dump_dbc = dbc_id;
	s->dump_table_addr = le64_to_cpu(msg->addr);
	s->dump_table_len = le64_to_cpu(msg->len);
	qaic_ssr_send(s, QAIC_SSR_DEBUG_XFER_INFO_RSP, dbc_id, QAIC_SSR_DUMP_ACCEPTED);
	ret = qaic_ssr_send_read(s, s->dump_table_addr, s->dump_table_len);
	if (ret)
		qaic_ssr_dump_abandon(s, "table read not sent: %d", ret);
	else
		qaic_ssr_dump_wait(s);
	return;

decline:
	qaic_ssr_send(s, QAIC_SSR_DEBUG_XFER_INFO_RSP, dbc_id, QAIC_SSR_DUMP_DECLINED);
}

/* The card's answer to the outstanding read: the table, or a region's piece. */
static void qaic_ssr_dump_data(struct qaic_ssr *s, u32 dbc_id, const void *buf, u32 mlen)
{
	const void *data = buf + QAIC_SSR_READ_RSP_HDR_LEN;
	char why[96];
	int ret;

	if (dbc_id != s->dump_dbc || !s->dump_asked) {
		drm_dbg(&s->qdev->drm, "ssr: DBC %u: memory unasked for dropped\n", dbc_id);
		return;
	}
	if (mlen != QAIC_SSR_READ_RSP_HDR_LEN + s->dump_asked) {
		qaic_ssr_dump_abandon(s, "%u bytes for a read of %llu", mlen -
				      QAIC_SSR_READ_RSP_HDR_LEN, s->dump_asked);
		return;
	}
	if (!s->dump) {
		ret = qaic_memdump_create(&s->dump, data, s->dump_table_len, why,
					  sizeof(why));
		if (ret) {
			qaic_ssr_dump_abandon(s, "%s", why);
			return;
		}
	} else {
		qaic_memdump_add(s->dump, data);
	}
	qaic_ssr_dump_next(s);
}

static void qaic_ssr_dump_end(struct qaic_ssr *s, u32 dbc_id, u32 status)
{
	struct qaic_device *qdev = s->qdev;
	size_t size;

	if (dbc_id != s->dump_dbc || !s->dump || s->dump_asked) {
		drm_dbg(&qdev->drm, "ssr: DBC %u: DEBUG_XFER_DONE_RSP unasked for dropped\n",
			dbc_id);
		return;
	}
	if (status) {
		qaic_ssr_dump_abandon(s, "the card ended it with status %#x", status);
		return;
	}
	size = qaic_memdump_size(s->dump);
	drm_info(&qdev->drm, "DBC %u: crash dump of %zu bytes in %u regions\n", dbc_id, size,
		 qaic_memdump_regions(s->dump));
	qaic_memdump_commit(s->dump, qdev);
	s->dump = NULL;
	qaic_ssr_dump_over(s);
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
	bool back;

	if (dbc_id == s->dump_dbc)
		qaic_ssr_dump_abandon(s, "the restart went on (event %#x)", event);
	if (step == QAIC_DBC_IDLE || !qaic_owner_ssr_step(qdev, dbc_id, step)) {
		drm_dbg(&qdev->drm, "ssr: DBC %u: event %#x refused\n", dbc_id, event);
		qaic_ssr_send(s, QAIC_SSR_EVENT_RSP, dbc_id, QAIC_SSR_NACK);
		return;
	}
	if (step == QAIC_DBC_BEFORE_SHUTDOWN && __ratelimit(&qdev->ssr_log_rs))
		drm_info(&qdev->drm, "DBC %u: subsystem restart: its work is lost\n", dbc_id);
	/*
	 * The card grants the DBC again once it has the answer to
	 * AFTER_POWER_UP: the DBC is idle before that answer goes, so that an
	 * ACTIVATE the card then grants finds it idle, not still restarting.
	 */
	back = step == QAIC_DBC_AFTER_POWER_UP &&
	       qaic_owner_ssr_step(qdev, dbc_id, QAIC_DBC_IDLE);
	qaic_ssr_send(s, QAIC_SSR_EVENT_RSP, dbc_id, event);
	if (back && __ratelimit(&qdev->ssr_log_rs))
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
		if (s->dump_dbc != QAIC_SSR_NO_DUMP)
			qaic_ssr_dump_abandon(s, "its answer did not arrive: %d", len);
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
		qaic_ssr_dump_offer(s, dbc_id, buf, mlen);
		break;
	case QAIC_SSR_MEMORY_READ_RSP:
		qaic_ssr_dump_data(s, dbc_id, buf, mlen);
		break;
	case QAIC_SSR_DEBUG_XFER_DONE_RSP:
		qaic_ssr_dump_end(s, dbc_id, le32_to_cpu(msg->arg));
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
	s->dump_dbc = QAIC_SSR_NO_DUMP;
	return qaic_mhi_rx_start(mhi_dev, QAIC_SSR_MSG_LEN, QAIC_SSR_RX_LEN, qaic_ssr_handle, s);
}

/* The card went away mid-dump (a reset, a crash): the dump goes with it. */
static void qaic_ssr_remove(struct mhi_device *mhi_dev)
{
	struct qaic_ssr *s = qaic_mhi_rx_ctx(mhi_dev);

	/* No message is handled once the channel stopped: the dump is ours. */
	qaic_mhi_rx_stop(mhi_dev);
	qaic_ssr_dump_forget(s);
}

static const struct mhi_device_id qaic_ssr_ids[] = {
	{ .chan = "QAIC_SSR" },
	{}
};

static struct mhi_driver qaic_ssr_driver = {
	.id_table = qaic_ssr_ids,
	.probe = qaic_ssr_probe,
	.remove = qaic_ssr_remove,
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
