// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The qaic authors.
 */

/**
 * DOC: qaic RAS reports
 *
 * In mission mode an AIC100 pushes reports of the errors its hardware
 * caught (RAS: reliability, availability, serviceability) on the
 * QAIC_STATUS channel pair: correctable and uncorrectable errors of the
 * SoC and NSP memories, the PCIe link, DDR, the system buses, and
 * temperature thresholds crossed. The driver logs each in one line,
 * counts them by type in sysfs, as upstream Linux (6.17) names the files
 * of the PCI device: ``ce_count`` (correctable), ``ue_count``
 * (uncorrectable) and ``ue_nonfatal_count`` (uncorrectable, the card goes
 * on with a disruption); and resets the card after an uncorrectable one,
 * which is fatal to it. The counts live as long as the driver is bound,
 * across resets of the card.
 *
 * The message is upstream's: a 12-byte header (magic 0x55aa, version 1 or
 * 2, sequence number, type, id, length of the rest) and 92 bytes of body
 * (result, source, error type, threshold, the card's own counts, interrupt
 * number, a 64-byte syndrome), little-endian. The card is not trusted: a
 * message of another size, magic or version, anything but a push, a length
 * field other than 92, an unknown source or error type, or a temperature
 * report with an unknown threshold is refused, counted in debugfs
 * ``ras_refused``, and changes nothing else.
 */

#include <linux/atomic.h>
#include <linux/debugfs.h>
#include <linux/device.h>
#include <linux/mhi.h>
#include <linux/mod_devicetable.h>
#include <linux/pci.h>
#include <linux/slab.h>
#include <linux/sysfs.h>

#include <drm/drm_print.h>

#include "qaic_drv.h"
#include "qaic_mhi.h"
#include "qaic_mhi_rx.h"
#include "qaic_ras.h"
#include "qaic_reset.h"

#define QAIC_RAS_MAGIC		0x55aa
#define QAIC_RAS_MAX_VERSION	2
#define QAIC_RAS_PUSH		0
/* The receive buffer takes one more byte, so that a longer message shows. */
#define QAIC_RAS_RX_LEN		(sizeof(struct qaic_ras_msg) + 1)

/* Error types; QAIC_RAS_NR_TYPES of them */
enum qaic_ras_type {
	QAIC_RAS_CE,
	QAIC_RAS_UE,
	QAIC_RAS_UE_NF,
};

static const char * const qaic_ras_type_names[QAIC_RAS_NR_TYPES] = {
	[QAIC_RAS_CE] = "correctable",
	[QAIC_RAS_UE] = "uncorrectable",
	[QAIC_RAS_UE_NF] = "uncorrectable non-fatal",
};

#define QAIC_RAS_SRC_TSENS	6

static const char * const qaic_ras_source_names[] = {
	"SoC memory", "PCIe", "DDR", "system bus 1", "system bus 2", "NSP memory",
	"temperature sensor",
};

static const char * const qaic_ras_threshold_names[] = { "lower", "upper", "critical" };

struct qaic_ras_msg {
	__le16 magic;
	__le16 version;
	__le32 seq;
	u8 type;
	u8 id;
	__le16 len;
	__le32 result;
	__le32 source;
	__le32 err_type;
	__le32 threshold;
	__le32 ce_count;
	__le32 ue_count;
	__le32 intr;
	__le32 syndrome[16];
} __packed;

static_assert(sizeof(struct qaic_ras_msg) == 104);

/* What the header's length field counts: the body, after the header */
#define QAIC_RAS_BODY_LEN \
	(sizeof(struct qaic_ras_msg) - offsetof(struct qaic_ras_msg, result))

/* Why a report is refused, or NULL if it is sound. */
static const char *qaic_ras_check(const struct qaic_ras_msg *m, int len)
{
	if (len != sizeof(*m))
		return "size";
	if (le16_to_cpu(m->magic) != QAIC_RAS_MAGIC)
		return "magic";
	if (!le16_to_cpu(m->version) || le16_to_cpu(m->version) > QAIC_RAS_MAX_VERSION)
		return "version";
	if (m->type != QAIC_RAS_PUSH)
		return "type";
	if (le16_to_cpu(m->len) != QAIC_RAS_BODY_LEN)
		return "length field";
	if (le32_to_cpu(m->err_type) >= QAIC_RAS_NR_TYPES)
		return "error type";
	if (le32_to_cpu(m->source) >= ARRAY_SIZE(qaic_ras_source_names))
		return "source";
	if (le32_to_cpu(m->source) == QAIC_RAS_SRC_TSENS &&
	    le32_to_cpu(m->syndrome[0]) >= ARRAY_SIZE(qaic_ras_threshold_names))
		return "temperature threshold";
	return NULL;
}

static void qaic_ras_handle(void *ctx, const void *buf, int len)
{
	const struct qaic_ras_msg *m = buf;
	struct qaic_device *qdev = ctx;
	const char *why;
	u32 type, source;

	if (len < 0) {
		atomic_inc(&qdev->ras_refused);
		drm_dbg(&qdev->drm, "RAS: receive failed: %d\n", len);
		return;
	}
	why = qaic_ras_check(m, len);
	if (why) {
		atomic_inc(&qdev->ras_refused);
		drm_dbg(&qdev->drm, "RAS: report of %d bytes refused: bad %s\n", len, why);
		return;
	}
	type = le32_to_cpu(m->err_type);
	source = le32_to_cpu(m->source);

	/* One line each, and no more than the ratelimit: the card may flood. */
	if (source == QAIC_RAS_SRC_TSENS)
		dev_warn_ratelimited(&qdev->pdev->dev, "RAS: %s error: %s threshold crossed, %d C\n",
				     qaic_ras_type_names[type],
				     qaic_ras_threshold_names[le32_to_cpu(m->syndrome[0])],
				     (s32)le32_to_cpu(m->syndrome[1]));
	else
		dev_warn_ratelimited(&qdev->pdev->dev,
				     "RAS: %s error from %s (report %u, threshold %u, syndrome %08x %08x)\n",
				     qaic_ras_type_names[type], qaic_ras_source_names[source],
				     le32_to_cpu(m->seq), le32_to_cpu(m->threshold),
				     le32_to_cpu(m->syndrome[0]), le32_to_cpu(m->syndrome[1]));

	/* Counts stop at the top rather than wrap to 0. */
	atomic_add_unless(&qdev->ras_count[type], 1, INT_MAX);
	if (type == QAIC_RAS_UE)
		qaic_reset_card(qdev, "uncorrectable RAS error");
}

static int qaic_ras_probe(struct mhi_device *mhi_dev, const struct mhi_device_id *id)
{
	struct qaic_device *qdev = qaic_mhi_to_qdev(mhi_dev->mhi_cntrl);

	if (!qdev)
		return -ENODEV;
	return qaic_mhi_rx_start(mhi_dev, QAIC_RAS_RX_LEN, QAIC_RAS_RX_LEN, qaic_ras_handle, qdev);
}

/* The host sends nothing on QAIC_STATUS. */
static void qaic_ras_ul_xfer_cb(struct mhi_device *mhi_dev, struct mhi_result *result)
{
}

static const struct mhi_device_id qaic_ras_ids[] = {
	{ .chan = "QAIC_STATUS" },
	{}
};

static struct mhi_driver qaic_ras_driver = {
	.id_table = qaic_ras_ids,
	.probe = qaic_ras_probe,
	.remove = qaic_mhi_rx_stop,
	.ul_xfer_cb = qaic_ras_ul_xfer_cb,
	.dl_xfer_cb = qaic_mhi_rx_xfer_cb,
	.driver = {
		.name = "qaic_ras",
	},
};

static ssize_t qaic_ras_show(struct device *dev, char *buf, enum qaic_ras_type type)
{
	struct qaic_device *qdev = pci_get_drvdata(to_pci_dev(dev));

	return sysfs_emit(buf, "%d\n", atomic_read(&qdev->ras_count[type]));
}

static ssize_t ce_count_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	return qaic_ras_show(dev, buf, QAIC_RAS_CE);
}

static ssize_t ue_count_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	return qaic_ras_show(dev, buf, QAIC_RAS_UE);
}

static ssize_t ue_nonfatal_count_show(struct device *dev, struct device_attribute *attr,
				      char *buf)
{
	return qaic_ras_show(dev, buf, QAIC_RAS_UE_NF);
}

static DEVICE_ATTR_RO(ce_count);
static DEVICE_ATTR_RO(ue_count);
static DEVICE_ATTR_RO(ue_nonfatal_count);

static struct attribute *qaic_ras_attrs[] = {
	&dev_attr_ce_count.attr,
	&dev_attr_ue_count.attr,
	&dev_attr_ue_nonfatal_count.attr,
	NULL
};

static const struct attribute_group qaic_ras_group = {
	.attrs = qaic_ras_attrs,
};

/**
 * qaic_ras_init() - The RAS counters of a card being probed.
 * @qdev: The card.
 *
 * Return: 0 or a negative errno; the sysfs files go at unbind.
 */
int qaic_ras_init(struct qaic_device *qdev)
{
	debugfs_create_atomic_t("ras_refused", 0400, qdev->drm.debugfs_root,
				&qdev->ras_refused);
	return devm_device_add_group(&qdev->pdev->dev, &qaic_ras_group);
}

/**
 * qaic_ras_register() - Register the QAIC_STATUS driver with the MHI bus.
 *
 * Return: 0 or a negative errno.
 */
int qaic_ras_register(void)
{
	return mhi_driver_register(&qaic_ras_driver);
}

/**
 * qaic_ras_unregister() - Unregister the QAIC_STATUS driver.
 */
void qaic_ras_unregister(void)
{
	mhi_driver_unregister(&qaic_ras_driver);
}
