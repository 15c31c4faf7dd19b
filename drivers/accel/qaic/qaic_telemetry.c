// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The qaic authors.
 */

/**
 * DOC: qaic telemetry
 *
 * In mission mode the card answers questions about its temperatures and
 * power on the QAIC_TELEMETRY channel pair (16 up, 17 down). The driver
 * asks when a hwmon file is read, so ``sensors``, monitoring agents and
 * Qualcomm's qaic-util see the card as any other hwmon chip, named
 * ``qaic``, under the PCI function:
 *
 * - ``temp1_input``, ``temp1_highest``: the board's temperature, now and
 *   the highest (m°C);
 * - ``temp2_input``, ``temp2_highest``: the SoC's, and its warning
 *   (``temp2_crit``) and shutdown (``temp2_emergency``) thresholds;
 * - ``temp3_input``: the DDR's;
 * - ``power1_input``, ``power1_max``: the board's power and its cap, the
 *   TDP (µW);
 *
 * with labels ``board``, ``soc`` and ``ddr``. Every file is read-only.
 *
 * A question and its answer are 23 bytes, little endian: a 12-byte header
 * (magic 0x55aa, version 1, sequence number, type: 1 request, 2 answer,
 * id 0, length of the rest: 11) and the question (command, read or write,
 * the card's status, a signed 64-bit value; degrees Celsius and watts).
 * One question is out at a time. The card is not trusted: an answer of
 * another size or header, to another question, or with a value out of
 * physical range fails the read with -EPROTO; the card's own error status
 * gives its errno; an answer that does not come within a second fails it
 * with -ETIMEDOUT, and a late answer is dropped. Every refused answer is
 * counted in debugfs ``telemetry_refused``. While the channel is down (the
 * card boots, resets or crashed) a read fails with -ENODEV at once.
 */

#include <linux/atomic.h>
#include <linux/completion.h>
#include <linux/debugfs.h>
#include <linux/device.h>
#include <linux/hwmon.h>
#include <linux/mhi.h>
#include <linux/mod_devicetable.h>
#include <linux/mutex.h>
#include <linux/pci.h>
#include <linux/slab.h>
#include <linux/spinlock.h>

#include <drm/drm_print.h>

#include "qaic_drv.h"
#include "qaic_mhi.h"
#include "qaic_mhi_rx.h"
#include "qaic_telemetry.h"

#define QAIC_TELE_MAGIC		0x55aa
#define QAIC_TELE_VERSION	1
#define QAIC_TELE_REQUEST	1
#define QAIC_TELE_ANSWER	2
#define QAIC_TELE_READ		0
#define QAIC_TELE_TIMEOUT	HZ
/* The receive buffer takes one more byte, so that a longer answer shows. */
#define QAIC_TELE_RX_LEN	(sizeof(struct qaic_tele_msg) + 1)

/* The card's questions this driver asks */
enum qaic_tele_cmd {
	QAIC_TELE_SOC_TEMP = 0,
	QAIC_TELE_SOC_MAX_TEMP = 1,
	QAIC_TELE_BOARD_TEMP = 2,
	QAIC_TELE_BOARD_MAX_TEMP = 3,
	QAIC_TELE_DDR_TEMP = 4,
	QAIC_TELE_WARNING_TEMP = 5,
	QAIC_TELE_SHUTDOWN_TEMP = 6,
	QAIC_TELE_BOARD_TDP = 7,
	QAIC_TELE_BOARD_POWER = 8,
};

/* Values a card can have: outside, the answer is not believed. */
#define QAIC_TELE_MIN_C		(-273)
#define QAIC_TELE_MAX_C		500
/* Watts; its µW must fit a long on a 32-bit host */
#define QAIC_TELE_MAX_W		2000

struct qaic_tele_msg {
	__le16 magic;
	__le16 version;
	__le32 seq;
	u8 type;
	u8 id;
	__le16 len;
	u8 cmd;
	u8 cmd_type;
	s8 status;
	__le64 val;
} __packed;

static_assert(sizeof(struct qaic_tele_msg) == 23);

/* What the header's length field counts: the question, after the header */
#define QAIC_TELE_BODY_LEN \
	(sizeof(struct qaic_tele_msg) - offsetof(struct qaic_tele_msg, cmd))

/**
 * struct qaic_telemetry - The telemetry of one card.
 * @qdev: The card.
 * @lock: One question at a time; protects @mhi and @seq.
 * @mhi: The channel while it runs, NULL otherwise.
 * @seq: Sequence number of the last question.
 * @rsp_lock: Protects what follows: the answer's hand-off from the
 *	      channel's handler to the one who asked. Taken under @lock.
 * @gone: The channel stopped: no question may wait any more.
 * @waiting: A question waits for the answer numbered @want, to @cmd.
 * @want: See @waiting.
 * @cmd: See @waiting.
 * @status: The answer: 0 or a negative errno.
 * @val: The answer's value, if @status is 0.
 * @done: Completed when the answer, or the channel's end, came.
 * @refused: Answers refused as malformed, late or out of range.
 */
struct qaic_telemetry {
	struct qaic_device *qdev;
	struct mutex lock; /* One question at a time; see above */
	struct mhi_device *mhi;
	u32 seq;
	spinlock_t rsp_lock; /* The answer's hand-off; see above */
	bool gone;
	bool waiting;
	u32 want;
	u8 cmd;
	int status;
	s64 val;
	struct completion done;
	atomic_t refused;
};

/* The errno of the card's own status in an answer */
static int qaic_tele_errno(s8 status)
{
	switch (status) {
	case -1:		/* read only */
		return -EROFS;
	case -2:		/* not supported */
		return -EOPNOTSUPP;
	case -3:		/* an error while processing */
		return -EREMOTEIO;
	case -4:		/* invalid value */
		return -EINVAL;
	default:		/* invalid header, or unknown */
		return -EPROTO;
	}
}

/* Why an answer is refused, or NULL if its header is sound. */
static const char *qaic_tele_check(const struct qaic_tele_msg *m, int len)
{
	if (len != sizeof(*m))
		return "size";
	if (le16_to_cpu(m->magic) != QAIC_TELE_MAGIC)
		return "magic";
	if (le16_to_cpu(m->version) != QAIC_TELE_VERSION)
		return "version";
	if (m->type != QAIC_TELE_ANSWER || m->id)
		return "type";
	if (le16_to_cpu(m->len) != QAIC_TELE_BODY_LEN)
		return "length field";
	return NULL;
}

static void qaic_tele_refuse(struct qaic_telemetry *t, const char *why, int len)
{
	atomic_inc(&t->refused);
	drm_dbg(&t->qdev->drm, "telemetry: answer of %d bytes refused: %s\n", len, why);
}

/* The channel's handler: each answer, in order, in process context. */
static void qaic_tele_handle(void *ctx, const void *buf, int len)
{
	const struct qaic_tele_msg *m = buf;
	struct qaic_telemetry *t = ctx;
	const char *why;

	if (len < 0) {
		qaic_tele_refuse(t, "receive failed", len);
		return;
	}
	why = qaic_tele_check(m, len);
	if (why) {
		qaic_tele_refuse(t, why, len);
		return;
	}

	spin_lock(&t->rsp_lock);
	if (!t->waiting || le32_to_cpu(m->seq) != t->want) {
		spin_unlock(&t->rsp_lock);
		qaic_tele_refuse(t, "no question waits for it", len);
		return;
	}
	if (m->cmd != t->cmd || m->cmd_type != QAIC_TELE_READ)
		t->status = -EPROTO;
	else if (m->status)
		t->status = qaic_tele_errno(m->status);
	else
		t->status = 0;
	t->val = (s64)le64_to_cpu(m->val);
	t->waiting = false;
	complete(&t->done);
	spin_unlock(&t->rsp_lock);
	if (t->status == -EPROTO)
		qaic_tele_refuse(t, "an answer to another question", len);
}

/* Asks the card @cmd; its answer's value into @val. 0 or a negative errno. */
static int qaic_tele_ask(struct qaic_telemetry *t, u8 cmd, s64 *val)
{
	struct qaic_tele_msg *q;
	long left;
	int ret;

	ret = mutex_lock_killable(&t->lock);
	if (ret)
		return ret;
	if (!t->mhi) {
		ret = -ENODEV;
		goto unlock;
	}
	/* The channel owns it once queued; qaic_mhi_tx_free_cb() frees it. */
	q = kzalloc(sizeof(*q), GFP_KERNEL);
	if (!q) {
		ret = -ENOMEM;
		goto unlock;
	}
	q->magic = cpu_to_le16(QAIC_TELE_MAGIC);
	q->version = cpu_to_le16(QAIC_TELE_VERSION);
	q->seq = cpu_to_le32(++t->seq);
	q->type = QAIC_TELE_REQUEST;
	q->len = cpu_to_le16(QAIC_TELE_BODY_LEN);
	q->cmd = cmd;
	q->cmd_type = QAIC_TELE_READ;

	spin_lock(&t->rsp_lock);
	if (t->gone) {
		spin_unlock(&t->rsp_lock);
		kfree(q);
		ret = -ENODEV;
		goto unlock;
	}
	t->waiting = true;
	t->want = t->seq;
	t->cmd = cmd;
	reinit_completion(&t->done);
	spin_unlock(&t->rsp_lock);

	ret = mhi_queue_buf(t->mhi, DMA_TO_DEVICE, q, sizeof(*q), MHI_EOT);
	if (ret) {
		kfree(q);
		/* -EIO: MHI is in its error state, the card crashed: it is down */
		left = ret == -EIO ? -ENODEV : ret;
	} else {
		left = wait_for_completion_killable_timeout(&t->done, QAIC_TELE_TIMEOUT);
	}

	spin_lock(&t->rsp_lock);
	if (t->waiting) {
		/* No answer: a late one finds no question and is dropped. */
		t->waiting = false;
		ret = left < 0 ? left : -ETIMEDOUT;
	} else {
		ret = t->status;
		*val = t->val;
	}
	spin_unlock(&t->rsp_lock);
	if (ret == -ETIMEDOUT)
		drm_dbg(&t->qdev->drm, "telemetry: no answer to question %u in %u ms\n",
			cmd, jiffies_to_msecs(QAIC_TELE_TIMEOUT));
unlock:
	mutex_unlock(&t->lock);
	return ret;
}

/*
 * Asks the card @cmd, whose answer is in @unit (degrees C, watts) and
 * believed between @min and @max; *@out gets it times @scale (hwmon's
 * m°C, µW). -EPROTO if no card can have that value.
 */
static int qaic_tele_value(struct qaic_telemetry *t, u8 cmd, s64 min, s64 max, long scale,
			   const char *unit, long *out)
{
	s64 val;
	int ret;

	ret = qaic_tele_ask(t, cmd, &val);
	if (ret)
		return ret;
	if (val < min || val > max) {
		atomic_inc(&t->refused);
		drm_dbg(&t->qdev->drm, "telemetry: %lld %s refused (question %u)\n", val, unit,
			cmd);
		return -EPROTO;
	}
	*out = (long)val * scale;
	return 0;
}

static int qaic_tele_temp(struct qaic_telemetry *t, u8 cmd, long *out)
{
	return qaic_tele_value(t, cmd, QAIC_TELE_MIN_C, QAIC_TELE_MAX_C, 1000, "C", out);
}

static int qaic_tele_power(struct qaic_telemetry *t, u8 cmd, long *out)
{
	return qaic_tele_value(t, cmd, 0, QAIC_TELE_MAX_W, 1000000, "W", out);
}

/* The temperature channels: board, SoC, DDR */
static const u8 qaic_tele_temp_input[] = {
	QAIC_TELE_BOARD_TEMP, QAIC_TELE_SOC_TEMP, QAIC_TELE_DDR_TEMP,
};

static const u8 qaic_tele_temp_highest[] = {
	QAIC_TELE_BOARD_MAX_TEMP, QAIC_TELE_SOC_MAX_TEMP,
};

static const char * const qaic_tele_temp_labels[] = { "board", "soc", "ddr" };

static int qaic_tele_read(struct device *dev, enum hwmon_sensor_types type, u32 attr,
			  int channel, long *val)
{
	struct qaic_telemetry *t = dev_get_drvdata(dev);

	if (type == hwmon_power) {
		switch (attr) {
		case hwmon_power_input:
			return qaic_tele_power(t, QAIC_TELE_BOARD_POWER, val);
		case hwmon_power_max:
			return qaic_tele_power(t, QAIC_TELE_BOARD_TDP, val);
		}
		return -EOPNOTSUPP;
	}
	if (type != hwmon_temp)
		return -EOPNOTSUPP;
	switch (attr) {
	case hwmon_temp_input:
		if (channel >= ARRAY_SIZE(qaic_tele_temp_input))
			return -EOPNOTSUPP;
		return qaic_tele_temp(t, qaic_tele_temp_input[channel], val);
	case hwmon_temp_highest:
		if (channel >= ARRAY_SIZE(qaic_tele_temp_highest))
			return -EOPNOTSUPP;
		return qaic_tele_temp(t, qaic_tele_temp_highest[channel], val);
	case hwmon_temp_crit:
		return qaic_tele_temp(t, QAIC_TELE_WARNING_TEMP, val);
	case hwmon_temp_emergency:
		return qaic_tele_temp(t, QAIC_TELE_SHUTDOWN_TEMP, val);
	}
	return -EOPNOTSUPP;
}

static int qaic_tele_read_string(struct device *dev, enum hwmon_sensor_types type, u32 attr,
				 int channel, const char **str)
{
	if (type == hwmon_power) {
		*str = "board";
		return 0;
	}
	if (type != hwmon_temp || channel >= ARRAY_SIZE(qaic_tele_temp_labels))
		return -EOPNOTSUPP;
	*str = qaic_tele_temp_labels[channel];
	return 0;
}

static umode_t qaic_tele_is_visible(const void *data, enum hwmon_sensor_types type, u32 attr,
				    int channel)
{
	return 0444;
}

static const struct hwmon_ops qaic_tele_hwmon_ops = {
	.is_visible = qaic_tele_is_visible,
	.read = qaic_tele_read,
	.read_string = qaic_tele_read_string,
};

static const struct hwmon_channel_info * const qaic_tele_hwmon_info[] = {
	HWMON_CHANNEL_INFO(temp,
			   HWMON_T_INPUT | HWMON_T_HIGHEST | HWMON_T_LABEL,
			   HWMON_T_INPUT | HWMON_T_HIGHEST | HWMON_T_CRIT |
			   HWMON_T_EMERGENCY | HWMON_T_LABEL,
			   HWMON_T_INPUT | HWMON_T_LABEL),
	HWMON_CHANNEL_INFO(power, HWMON_P_INPUT | HWMON_P_MAX | HWMON_P_LABEL),
	NULL
};

static const struct hwmon_chip_info qaic_tele_chip = {
	.ops = &qaic_tele_hwmon_ops,
	.info = qaic_tele_hwmon_info,
};

static int qaic_tele_probe(struct mhi_device *mhi_dev, const struct mhi_device_id *id)
{
	struct qaic_device *qdev = qaic_mhi_to_qdev(mhi_dev->mhi_cntrl);
	struct qaic_telemetry *t;
	int ret;

	if (!qdev || !qdev->telemetry)
		return -ENODEV;
	t = qdev->telemetry;
	ret = qaic_mhi_rx_start(mhi_dev, QAIC_TELE_RX_LEN, QAIC_TELE_RX_LEN, qaic_tele_handle, t);
	if (ret)
		return ret;
	spin_lock(&t->rsp_lock);
	t->gone = false;
	spin_unlock(&t->rsp_lock);
	mutex_lock(&t->lock);
	t->mhi = mhi_dev;
	mutex_unlock(&t->lock);
	return 0;
}

/*
 * The card left mission mode. A question waiting for its answer gets
 * -ENODEV at once, and none waits any more; then the channel is stopped,
 * which gives back the questions the card did not take (and frees them).
 */
static void qaic_tele_remove(struct mhi_device *mhi_dev)
{
	struct qaic_telemetry *t = qaic_mhi_rx_ctx(mhi_dev);

	spin_lock(&t->rsp_lock);
	t->gone = true;
	if (t->waiting) {
		t->waiting = false;
		t->status = -ENODEV;
		complete(&t->done);
	}
	spin_unlock(&t->rsp_lock);
	mutex_lock(&t->lock);
	t->mhi = NULL;
	mutex_unlock(&t->lock);
	qaic_mhi_rx_stop(mhi_dev);
}

static const struct mhi_device_id qaic_tele_ids[] = {
	{ .chan = "QAIC_TELEMETRY" },
	{}
};

static struct mhi_driver qaic_tele_driver = {
	.id_table = qaic_tele_ids,
	.probe = qaic_tele_probe,
	.remove = qaic_tele_remove,
	.ul_xfer_cb = qaic_mhi_tx_free_cb,
	.dl_xfer_cb = qaic_mhi_rx_xfer_cb,
	.driver = {
		.name = "qaic_telemetry",
	},
};

/**
 * qaic_telemetry_init() - The hwmon chip of a card being probed.
 * @qdev: The card.
 *
 * The chip lives as long as the driver is bound, across resets of the
 * card; it answers while the card's telemetry channel runs.
 *
 * Return: 0 or a negative errno.
 */
int qaic_telemetry_init(struct qaic_device *qdev)
{
	struct device *dev = &qdev->pdev->dev;
	struct qaic_telemetry *t;
	struct device *hwmon;
	int ret;

	if (!IS_REACHABLE(CONFIG_HWMON))
		return 0;
	t = devm_kzalloc(dev, sizeof(*t), GFP_KERNEL);
	if (!t)
		return -ENOMEM;
	t->qdev = qdev;
	ret = devm_mutex_init(dev, &t->lock);
	if (ret)
		return ret;
	spin_lock_init(&t->rsp_lock);
	init_completion(&t->done);
	t->gone = true;

	hwmon = devm_hwmon_device_register_with_info(dev, "qaic", t, &qaic_tele_chip, NULL);
	if (IS_ERR(hwmon))
		return PTR_ERR(hwmon);
	debugfs_create_atomic_t("telemetry_refused", 0400, qdev->drm.debugfs_root,
				&t->refused);
	qdev->telemetry = t;
	return 0;
}

/**
 * qaic_telemetry_register() - Register the QAIC_TELEMETRY driver with the MHI bus.
 *
 * Return: 0 or a negative errno.
 */
int qaic_telemetry_register(void)
{
	return mhi_driver_register(&qaic_tele_driver);
}

/**
 * qaic_telemetry_unregister() - Unregister the QAIC_TELEMETRY driver.
 */
void qaic_telemetry_unregister(void)
{
	mhi_driver_unregister(&qaic_tele_driver);
}
