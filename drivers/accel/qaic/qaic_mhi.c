// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The qaic authors.
 */

/**
 * DOC: qaic MHI controller
 *
 * BAR0 of the card (BAR1 of an AIC200) is an MHI (Modem Host Interface)
 * register block. The
 * driver registers it with the kernel's MHI bus as a controller; the MHI
 * core then runs the state machine, the command and event rings, and
 * creates one MHI device per channel pair the card offers in its current
 * execution environment. The driver uses one of them, QAIC_CONTROL
 * (channels 10 up and 11 down, in mission mode), for the card's manager;
 * qaic_cntl.c binds to it.
 *
 * Every MHI interrupt (the BHI state-change interrupt and the one event
 * ring) uses vector 0, whether the card got one MSI vector or 32 MSI-X
 * vectors: the other vectors belong to the DMA Bridge Channels.
 *
 * A card powers on in its primary boot loader (PBL). The controller's
 * firmware image is qcom/aic100/sbl.bin: the MHI core finds the card in
 * PBL and loads it through the BHI registers (an AIC200's PBL takes
 * qcom/aic200/sbl.bin through the BHIe vector registers, in 512 KiB
 * segments); the card then runs SBL, whose
 * QAIC_SAHARA channels (2 up, 3 down) qaic_sahara.c serves with the other
 * images, and enters mission mode (AMSS). SBL also writes its boot log on
 * QAIC_LOGGING (12, 13; qaic_bootlog.c) and asks for the time on
 * QAIC_TIMESYNC (20, 21; not on an AIC200); mission mode gets it on QAIC_TIMESYNC_PERIODIC
 * (22, 23; both in qaic_timesync.c), and answers questions about its
 * temperatures and power on QAIC_TELEMETRY (16, 17; qaic_telemetry.c).
 * Mission mode also offers the card's
 * IPC router on IPCR (24, 25), which no part of this driver serves: the
 * kernel's QRTR MHI transport (CONFIG_QRTR_MHI) binds it by name, and
 * userspace reaches the card's services through AF_QIPCRTR sockets. A card already in AMSS (the
 * driver was bound again) goes straight to the READY and M0 states. A card
 * left in SBL by an earlier boot is reset (SOC_RESET_REQ) back to PBL
 * first. A power-up that fails before the card answered sensibly (its
 * registers read all-ones, say) is retried after a reset, at most
 * %QAIC_POWER_UP_TRIES times in all; a card found not decoding memory
 * has decoding turned on again first. The MHI core waits at most ``mhi_timeout_ms`` (a module
 * parameter, 2000 by default) for each state change of the card.
 *
 * Power-up is asynchronous: the control path comes up when the MHI core
 * reaches mission mode and probes QAIC_CONTROL, some time after the PCI
 * probe. A watchdog follows the boot: if the card refuses SBL (BHI error
 * status), the Sahara host gives up, or mission mode is not reached within
 * ``boot_timeout_s`` (a module parameter, 30 by default), the boot has
 * failed: one error in the log, MANAGE calls waiting for the control path
 * fail at once, and every open() of the node fails with -ENODEV, until the
 * card is powered up again.
 *
 * When the card reports a system error, the MHI core resets it and brings
 * it back to mission mode by itself. The driver fails the control requests
 * in flight (the core then removes QAIC_CONTROL and probes it again) and
 * forgets every DBC activation, which the reset undid, freeing the rings.
 *
 * Shutdown powers MHI down; remove powers it down unless shutdown already
 * did, then unregisters the controller.
 */

#include <linux/bitfield.h>
#include <linux/device.h>
#include <linux/iopoll.h>
#include <linux/delay.h>
#include <linux/jiffies.h>
#include <linux/mhi.h>
#include <linux/moduleparam.h>
#include <linux/pci.h>
#include <linux/sizes.h>
#include <linux/workqueue.h>

#include "qaic_cntl.h"
#include "qaic_compat.h"
#include "qaic_coredump.h"
#include "qaic_drv.h"
#include "qaic_mhi.h"
#include "qaic_owner.h"
#include "qaic_trace.h"

static unsigned int mhi_timeout_ms = 2000;
module_param(mhi_timeout_ms, uint, 0600);
MODULE_PARM_DESC(mhi_timeout_ms, "Timeout of MHI state changes, in milliseconds (default 2000)");

static unsigned int boot_timeout_s = 30;
module_param(boot_timeout_s, uint, 0600);
MODULE_PARM_DESC(boot_timeout_s,
		 "Longest time from power-up to mission mode, in seconds (default 30)");

/* BHI registers the boot watchdog reads (relative to the BHI block). */
#define QAIC_BHI_ERRCODE		0x30
#define QAIC_BHI_STATUS			0x2c
#define QAIC_BHI_STATUS_MASK		GENMASK(31, 30)
#define QAIC_BHI_STATUS_ERROR		3
/* BHIe's status of a download (relative to the BHIe block); bits as STATUS. */
#define QAIC_BHIE_TXVECSTATUS		0x44
#define QAIC_BOOT_POLL			(HZ / 10)

/*
 * Tries of a power-up that fails before the card said anything (its
 * registers read all-ones or nonsense once after power-on), and the pause
 * after the reset between two tries.
 */
#define QAIC_POWER_UP_TRIES		3
#define QAIC_POWER_UP_RETRY_MS		100

/* SOC_HW_VERSION is not reliable on the card: its known value is served. */
#define QAIC_MHI_SOC_HW_VERSION_OFF	0x224
#define QAIC_MHI_SOC_HW_VERSION		0x60110200

/* The two channels of QAIC_CONTROL; the numbers are the card's. */
#define QAIC_MHI_CONTROL_UL		10
#define QAIC_MHI_CONTROL_DL		11
#define QAIC_MHI_CONTROL_ELEMS		128
/* The two channels of QAIC_SAHARA, in SBL. */
#define QAIC_MHI_SAHARA_UL		2
#define QAIC_MHI_SAHARA_DL		3
#define QAIC_MHI_SAHARA_ELEMS		32

#define QAIC_MHI_SSR_UL			6
#define QAIC_MHI_SSR_DL			7
#define QAIC_MHI_SSR_ELEMS		32

#define QAIC_MHI_STATUS_UL		14
#define QAIC_MHI_STATUS_DL		15
#define QAIC_MHI_STATUS_ELEMS		32

/* QAIC_LOGGING, in SBL: the card's boot log comes down channel 13. */
#define QAIC_MHI_LOGGING_UL		12
#define QAIC_MHI_LOGGING_DL		13
#define QAIC_MHI_LOGGING_ELEMS		32

/* QAIC_TELEMETRY: the card's temperatures and power (qaic_telemetry.c). */
#define QAIC_MHI_TELEMETRY_UL		16
#define QAIC_MHI_TELEMETRY_DL		17
#define QAIC_MHI_TELEMETRY_ELEMS	32

/*
 * IPCR, in mission mode: the card's IPC router. The kernel's QRTR MHI
 * transport binds it by name and gives userspace AF_QIPCRTR sockets.
 */
#define QAIC_MHI_IPCR_UL		24
#define QAIC_MHI_IPCR_DL		25
#define QAIC_MHI_IPCR_ELEMS		32

/* QAIC_TIMESYNC in SBL, QAIC_TIMESYNC_PERIODIC in mission mode. */
#define QAIC_MHI_TIMESYNC_UL		20
#define QAIC_MHI_TIMESYNC_DL		21
#define QAIC_MHI_TIMESYNC_PERIODIC_UL	22
#define QAIC_MHI_TIMESYNC_PERIODIC_DL	23
#define QAIC_MHI_TIMESYNC_ELEMS		32

/* The card's boot, from power-up to mission mode. */
enum qaic_boot_state {
	QAIC_BOOT_BOOTING,
	QAIC_BOOT_UP,
	QAIC_BOOT_FAILED,
};

/**
 * struct qaic_mhi - The MHI controller of one card.
 * @cntrl: The controller the MHI core sees.
 * @qdev: The card.
 * @irq: The controller's interrupt, vector 0.
 * @boot_state: An &enum qaic_boot_state; moves from BOOTING to UP or
 *		FAILED once per power-up (atomic: the first verdict wins).
 * @boot_start: When the boot began, in jiffies.
 * @boot_work: The boot watchdog; runs while the state is BOOTING.
 */
struct qaic_mhi {
	struct mhi_controller cntrl;
	struct qaic_device *qdev;
	int irq;
	atomic_t boot_state;
	unsigned long boot_start;
	struct delayed_work boot_work;
};

#define QAIC_MHI_CONTROL_CHAN(_num, _dir)			\
	{							\
		.name = "QAIC_CONTROL",				\
		.num = (_num),					\
		.num_elements = QAIC_MHI_CONTROL_ELEMS,		\
		.event_ring = 0,				\
		.dir = (_dir),					\
		.ee_mask = MHI_CH_EE_AMSS,			\
		.doorbell = MHI_DB_BRST_DISABLE,		\
	}

#define QAIC_MHI_SAHARA_CHAN(_num, _dir)			\
	{							\
		.name = "QAIC_SAHARA",				\
		.num = (_num),					\
		.num_elements = QAIC_MHI_SAHARA_ELEMS,		\
		.event_ring = 0,				\
		.dir = (_dir),					\
		.ee_mask = MHI_CH_EE_SBL,			\
		.doorbell = MHI_DB_BRST_DISABLE,		\
	}

#define QAIC_MHI_SSR_CHAN(_num, _dir)				\
	{							\
		.name = "QAIC_SSR",				\
		.num = (_num),					\
		.num_elements = QAIC_MHI_SSR_ELEMS,		\
		.event_ring = 0,				\
		.dir = (_dir),					\
		.ee_mask = MHI_CH_EE_AMSS,			\
		.doorbell = MHI_DB_BRST_DISABLE,		\
	}

#define QAIC_MHI_STATUS_CHAN(_num, _dir)			\
	{							\
		.name = "QAIC_STATUS",				\
		.num = (_num),					\
		.num_elements = QAIC_MHI_STATUS_ELEMS,		\
		.event_ring = 0,				\
		.dir = (_dir),					\
		.ee_mask = MHI_CH_EE_AMSS,			\
		.doorbell = MHI_DB_BRST_DISABLE,		\
	}

#define QAIC_MHI_LOGGING_CHAN(_num, _dir)			\
	{							\
		.name = "QAIC_LOGGING",				\
		.num = (_num),					\
		.num_elements = QAIC_MHI_LOGGING_ELEMS,		\
		.event_ring = 0,				\
		.dir = (_dir),					\
		.ee_mask = MHI_CH_EE_SBL,			\
		.doorbell = MHI_DB_BRST_DISABLE,		\
	}

#define QAIC_MHI_TELEMETRY_CHAN(_num, _dir)			\
	{							\
		.name = "QAIC_TELEMETRY",			\
		.num = (_num),					\
		.num_elements = QAIC_MHI_TELEMETRY_ELEMS,	\
		.event_ring = 0,				\
		.dir = (_dir),					\
		.ee_mask = MHI_CH_EE_AMSS,			\
		.doorbell = MHI_DB_BRST_DISABLE,		\
	}

#define QAIC_MHI_IPCR_CHAN(_num, _dir)				\
	{							\
		.name = "IPCR",					\
		.num = (_num),					\
		.num_elements = QAIC_MHI_IPCR_ELEMS,		\
		.event_ring = 0,				\
		.dir = (_dir),					\
		.ee_mask = MHI_CH_EE_AMSS,			\
		.doorbell = MHI_DB_BRST_DISABLE,		\
	}

#define QAIC_MHI_TIMESYNC_CHAN(_name, _num, _dir, _ee)		\
	{							\
		.name = (_name),				\
		.num = (_num),					\
		.num_elements = QAIC_MHI_TIMESYNC_ELEMS,	\
		.event_ring = 0,				\
		.dir = (_dir),					\
		.ee_mask = (_ee),				\
		.doorbell = MHI_DB_BRST_DISABLE,		\
	}

/*
 * The channels the host serves. The AIC100's SBL also sets the card's
 * clock from the host's on QAIC_TIMESYNC, the last pair; the AIC200's SBL
 * has no such channel, and the AIC200 takes all of them but that pair.
 */
static const struct mhi_channel_config qaic_mhi_channels[] = {
	QAIC_MHI_SAHARA_CHAN(QAIC_MHI_SAHARA_UL, DMA_TO_DEVICE),
	QAIC_MHI_SAHARA_CHAN(QAIC_MHI_SAHARA_DL, DMA_FROM_DEVICE),
	QAIC_MHI_SSR_CHAN(QAIC_MHI_SSR_UL, DMA_TO_DEVICE),
	QAIC_MHI_SSR_CHAN(QAIC_MHI_SSR_DL, DMA_FROM_DEVICE),
	QAIC_MHI_STATUS_CHAN(QAIC_MHI_STATUS_UL, DMA_TO_DEVICE),
	QAIC_MHI_STATUS_CHAN(QAIC_MHI_STATUS_DL, DMA_FROM_DEVICE),
	QAIC_MHI_CONTROL_CHAN(QAIC_MHI_CONTROL_UL, DMA_TO_DEVICE),
	QAIC_MHI_CONTROL_CHAN(QAIC_MHI_CONTROL_DL, DMA_FROM_DEVICE),
	QAIC_MHI_LOGGING_CHAN(QAIC_MHI_LOGGING_UL, DMA_TO_DEVICE),
	QAIC_MHI_LOGGING_CHAN(QAIC_MHI_LOGGING_DL, DMA_FROM_DEVICE),
	QAIC_MHI_TELEMETRY_CHAN(QAIC_MHI_TELEMETRY_UL, DMA_TO_DEVICE),
	QAIC_MHI_TELEMETRY_CHAN(QAIC_MHI_TELEMETRY_DL, DMA_FROM_DEVICE),
	QAIC_MHI_TIMESYNC_CHAN("QAIC_TIMESYNC_PERIODIC", QAIC_MHI_TIMESYNC_PERIODIC_UL,
			       DMA_TO_DEVICE, MHI_CH_EE_AMSS),
	QAIC_MHI_TIMESYNC_CHAN("QAIC_TIMESYNC_PERIODIC", QAIC_MHI_TIMESYNC_PERIODIC_DL,
			       DMA_FROM_DEVICE, MHI_CH_EE_AMSS),
	QAIC_MHI_IPCR_CHAN(QAIC_MHI_IPCR_UL, DMA_TO_DEVICE),
	QAIC_MHI_IPCR_CHAN(QAIC_MHI_IPCR_DL, DMA_FROM_DEVICE),
	QAIC_MHI_TIMESYNC_CHAN("QAIC_TIMESYNC", QAIC_MHI_TIMESYNC_UL, DMA_TO_DEVICE,
			       MHI_CH_EE_SBL),
	QAIC_MHI_TIMESYNC_CHAN("QAIC_TIMESYNC", QAIC_MHI_TIMESYNC_DL, DMA_FROM_DEVICE,
			       MHI_CH_EE_SBL),
};

#define QAIC_MHI_NUM_AIC200_CHANNELS	(ARRAY_SIZE(qaic_mhi_channels) - 2)

/*
 * The cards differ in where their MHI block is, how PBL takes the SBL, and
 * what runs over MHI; their DBCs are alike (BAR2). The AIC080 is an AIC100
 * with another PCI id. The AIC200 has two 32-bit BARs in slots 0 and 1 (so
 * BAR0 is not MHI's) and takes its SBL over BHIe in 512 KiB segments.
 */
const struct qaic_card qaic_card_aic100 = {
	.name = "AIC100",
	.bars = BIT(0) | BIT(2) | BIT(4),
	.mhi_bar = 0,
	.sbl = "qcom/aic100/sbl.bin",
	.channels = qaic_mhi_channels,
	.num_channels = ARRAY_SIZE(qaic_mhi_channels),
};

const struct qaic_card qaic_card_aic080 = {
	.name = "AIC080",
	.bars = BIT(0) | BIT(2) | BIT(4),
	.mhi_bar = 0,
	.sbl = "qcom/aic100/sbl.bin",
	.channels = qaic_mhi_channels,
	.num_channels = ARRAY_SIZE(qaic_mhi_channels),
};

const struct qaic_card qaic_card_aic200 = {
	.name = "AIC200",
	.bars = BIT(0) | BIT(1) | BIT(2) | BIT(4),
	.mhi_bar = 1,
	.sbl = "qcom/aic200/sbl.bin",
	.sbl_seg_len = SZ_512K,
	.channels = qaic_mhi_channels,
	.num_channels = QAIC_MHI_NUM_AIC200_CHANNELS,
};

MODULE_FIRMWARE("qcom/aic100/sbl.bin");
MODULE_FIRMWARE("qcom/aic200/sbl.bin");

/* One event ring for state changes and transfer completions alike. */
static struct mhi_event_config qaic_mhi_events[] = {
	{
		.num_elements = 32,
		.irq = 0,
		.channel = U32_MAX,
		.priority = 1,
		.mode = MHI_DB_BRST_DISABLE,
		.data_type = MHI_ER_CTRL,
	},
};

static struct qaic_mhi *to_qaic_mhi(struct mhi_controller *cntrl)
{
	return container_of(cntrl, struct qaic_mhi, cntrl);
}

static int qaic_mhi_read_reg(struct mhi_controller *cntrl, void __iomem *addr, u32 *out)
{
	u32 val;

	if (addr - cntrl->regs == QAIC_MHI_SOC_HW_VERSION_OFF) {
		*out = QAIC_MHI_SOC_HW_VERSION;
		return 0;
	}

	/* All ones: the card fell off the bus. */
	val = readl_relaxed(addr);
	if (val == U32_MAX)
		return -EIO;
	*out = val;
	return 0;
}

static void qaic_mhi_write_reg(struct mhi_controller *cntrl, void __iomem *addr, u32 val)
{
	writel_relaxed(val, addr);
}

/* The card has no runtime power management. */
static int qaic_mhi_runtime_get(struct mhi_controller *cntrl)
{
	return 0;
}

static void qaic_mhi_runtime_put(struct mhi_controller *cntrl)
{
}

/* A new boot begins: watch it until mission mode. */
static void qaic_mhi_boot_begin(struct qaic_mhi *qmhi)
{
	qmhi->boot_start = jiffies;
	atomic_set(&qmhi->boot_state, QAIC_BOOT_BOOTING);
	mod_delayed_work(system_percpu_wq, &qmhi->boot_work, QAIC_BOOT_POLL);
}

static void qaic_mhi_boot_watch(struct work_struct *work)
{
	struct qaic_mhi *qmhi = container_of(to_delayed_work(work), struct qaic_mhi,
					     boot_work);
	struct mhi_controller *mhi = &qmhi->cntrl;
	u32 status;

	if (atomic_read(&qmhi->boot_state) != QAIC_BOOT_BOOTING)
		return;
	status = mhi->bhi ? readl(mhi->bhi + QAIC_BHI_STATUS) : 0;
	if (status != U32_MAX &&
	    FIELD_GET(QAIC_BHI_STATUS_MASK, status) == QAIC_BHI_STATUS_ERROR) {
		qaic_mhi_boot_fail(qmhi->qdev, "the card refused %s over BHI (error code %#x)",
				   mhi->fw_image, readl(mhi->bhi + QAIC_BHI_ERRCODE));
		return;
	}
	/*
	 * A BHIe download the card refused ends the MHI core's power-up
	 * without a word to the controller: tell it here, as for BHI.
	 */
	status = mhi->seg_len && mhi->bhie ? readl(mhi->bhie + QAIC_BHIE_TXVECSTATUS) : 0;
	if (status != U32_MAX &&
	    FIELD_GET(QAIC_BHI_STATUS_MASK, status) == QAIC_BHI_STATUS_ERROR) {
		qaic_mhi_boot_fail(qmhi->qdev, "the card refused %s over BHIe", mhi->fw_image);
		return;
	}
	if (time_after(jiffies, qmhi->boot_start + boot_timeout_s * HZ)) {
		qaic_mhi_boot_fail(qmhi->qdev,
				   "no mission mode %u s after power-up (execution environment %u)",
				   boot_timeout_s, mhi_get_exec_env(mhi));
		return;
	}
	schedule_delayed_work(&qmhi->boot_work, QAIC_BOOT_POLL);
}

/**
 * qaic_mhi_boot_fail() - The card's boot failed.
 * @qdev: The card.
 * @fmt: Why, for the log.
 *
 * The first verdict of a boot wins: the boot failed unless the card
 * already reached mission mode. One error goes to the log; MANAGE calls
 * waiting for the control path stop waiting, and the node refuses open()
 * until the card is powered up again.
 */
void qaic_mhi_boot_fail(struct qaic_device *qdev, const char *fmt, ...)
{
	struct qaic_mhi *qmhi = to_qaic_mhi(qdev->mhi);
	struct va_format vaf;
	va_list args;

	va_start(args, fmt);
	vaf.fmt = fmt;
	vaf.va = &args;
	if (atomic_cmpxchg(&qmhi->boot_state, QAIC_BOOT_BOOTING, QAIC_BOOT_FAILED) ==
	    QAIC_BOOT_BOOTING) {
		drm_err(&qdev->drm, "boot failed: %pV\n", &vaf);
		qaic_cntl_stopping(qdev->cntl);
	} else {
		drm_dbg(&qdev->drm, "boot: %pV\n", &vaf);
	}
	va_end(args);
}

/**
 * qaic_mhi_boot_failed() - Whether the card's last boot failed.
 * @qdev: The card.
 *
 * Return: true if the card is not usable until it is powered up again.
 */
bool qaic_mhi_boot_failed(struct qaic_device *qdev)
{
	return qdev->mhi &&
	       atomic_read(&to_qaic_mhi(qdev->mhi)->boot_state) == QAIC_BOOT_FAILED;
}

static void qaic_mhi_status_cb(struct mhi_controller *cntrl, enum mhi_callback reason)
{
	struct qaic_mhi *qmhi = to_qaic_mhi(cntrl);
	struct qaic_device *qdev = qmhi->qdev;

	switch (reason) {
	case MHI_CB_EE_MISSION_MODE:
		if (atomic_cmpxchg(&qmhi->boot_state, QAIC_BOOT_BOOTING, QAIC_BOOT_UP) ==
		    QAIC_BOOT_BOOTING) {
			drm_info(&qdev->drm, "card in mission mode %u ms after power-up\n",
				 jiffies_to_msecs(jiffies - qmhi->boot_start));
			trace_qaic_card_state(qdev, "up", "mission mode");
		}
		/* A new boot: what the card ran before its reset is gone. */
		qaic_owner_unpark(qdev);
		break;
	case MHI_CB_SYS_ERROR:
		/* Process context; the MHI core recovers the card next. */
		drm_err(&qdev->drm, "card reported a system error, resetting it\n");
		trace_qaic_card_state(qdev, "booting", "system error");
		/* Before any waiter learns of it: nothing is freed from now on. */
		qaic_owner_card_crashed(qdev);
		qaic_cntl_sys_error(qdev->cntl);
		/* What the host saw, before every DBC is taken back. */
		qaic_coredump_card_crash(qdev);
		/*
		 * The MHI core resets the card after this returns: until
		 * then its DBC engines may still reach the rings and the
		 * objects of their jobs, which stay until the card is up again.
		 */
		qaic_owner_park_all(qdev);
		qaic_mhi_boot_begin(qmhi);
		break;
	case MHI_CB_FATAL_ERROR:
		/* Atomic context. */
		drm_err(&qdev->drm, "card reported a fatal error\n");
		trace_qaic_card_state(qdev, "fatal", "fatal error");
		break;
	default:
		break;
	}
}

/**
 * qaic_mhi_to_qdev() - The card of an MHI controller, if it is one of ours.
 * @mhi: An MHI controller.
 *
 * Return: the card, or NULL if another driver registered @mhi.
 */
struct qaic_device *qaic_mhi_to_qdev(struct mhi_controller *mhi)
{
	if (mhi->status_cb != qaic_mhi_status_cb)
		return NULL;
	return to_qaic_mhi(mhi)->qdev;
}

/**
 * qaic_mhi_stop() - Power MHI down.
 * @qdev: The card.
 *
 * Called by shutdown and by remove, which may follow shutdown: the second
 * call does nothing. Both run under the device lock, which orders them.
 */
void qaic_mhi_stop(struct qaic_device *qdev)
{
	if (!qdev->mhi_up)
		return;
	qdev->mhi_up = false;
	cancel_delayed_work_sync(&to_qaic_mhi(qdev->mhi)->boot_work);
	/* Until the caller released what it held, the card may reach it. */
	qaic_owner_card_crashed(qdev);
	qaic_cntl_stopping(qdev->cntl);
	/* Nothing to wait for from a card that is off the bus */
	mhi_power_down(qdev->mhi, !pci_channel_offline(qdev->pdev) &&
		       !test_bit(QAIC_CARD_GONE, &qdev->card_state));
	mhi_unprepare_after_power_down(qdev->mhi);
}

static void qaic_mhi_fini(void *data)
{
	struct qaic_device *qdev = data;
	struct qaic_mhi *qmhi = to_qaic_mhi(qdev->mhi);

	qaic_mhi_stop(qdev);
	cancel_delayed_work_sync(&qmhi->boot_work);
	mhi_unregister_controller(&qmhi->cntrl);
	qdev->mhi = NULL;
	kfree(qmhi);
}

/*
 * A card an earlier boot left in SBL (the driver was unbound meanwhile)
 * cannot be powered up there: reset it back to PBL.
 */
static void qaic_mhi_reset_half_booted(struct qaic_device *qdev)
{
	struct mhi_controller *mhi = qdev->mhi;
	enum mhi_ee_type ee;
	int ret;

	if (mhi_get_exec_env(mhi) != MHI_EE_SBL)
		return;
	drm_info(&qdev->drm, "card left in SBL, resetting it to boot again\n");
	mhi_soc_reset(mhi);
	ret = read_poll_timeout(mhi_get_exec_env, ee, ee == MHI_EE_PBL, 20 * USEC_PER_MSEC,
				mhi_timeout_ms * USEC_PER_MSEC, false, mhi);
	if (ret)
		drm_dbg(&qdev->drm, "card still in execution environment %u\n", ee);
}

/* One try at powering MHI up; @what names the step that failed. */
static int qaic_mhi_try_power_up(struct qaic_device *qdev, const char **what)
{
	struct mhi_controller *mhi = qdev->mhi;
	int ret;

	ret = mhi_prepare_for_power_up(mhi);
	if (ret) {
		*what = "MHI prepare";
		return ret;
	}
	qaic_mhi_reset_half_booted(qdev);

	qaic_cntl_powering_up(qdev->cntl);
	ret = mhi_async_power_up(mhi);
	if (ret) {
		*what = "MHI power-up";
		qaic_cntl_stopping(qdev->cntl);
		mhi_unprepare_after_power_down(mhi);
		return ret;
	}
	return 0;
}

/*
 * A card whose registers read all-ones may not be decoding memory at all:
 * its config space was reset, or the write that turned decoding on never
 * reached it. Turn decoding (and bus mastering, if it was on) on again
 * before the next try, with a line in the log; nothing to do for a card
 * that decodes, or that does not answer config reads either. The MSI-X
 * table is in a BAR: what the PCI core wrote there while the card did not
 * decode never arrived, so the vectors are written again.
 */
static void qaic_mhi_check_decode(struct qaic_device *qdev)
{
	struct pci_dev *pdev = qdev->pdev;
	u16 cmd, want = PCI_COMMAND_MEMORY;

	if (pdev->is_busmaster)
		want |= PCI_COMMAND_MASTER;
	if (pci_read_config_word(pdev, PCI_COMMAND, &cmd) || PCI_POSSIBLE_ERROR(cmd) ||
	    (cmd & want) == want)
		return;
	drm_warn(&qdev->drm, "the card's PCI_COMMAND is %#x: turning memory decoding on again\n",
		 cmd);
	pci_write_config_word(pdev, PCI_COMMAND, cmd | want);
	pci_restore_msi_state(pdev);
}

/*
 * Power MHI up. A try that fails has only read the card's registers (the
 * MHI core found them unusable): a card can answer garbage once after
 * power-on, so it is reset and tried again, a bounded number of times,
 * with one line in the log per failed try. The boot fails after the last.
 */
static void qaic_mhi_power_up(struct qaic_device *qdev)
{
	struct mhi_controller *mhi = qdev->mhi;
	const char *what = NULL;
	unsigned int try;
	int ret;

	qaic_mhi_boot_begin(to_qaic_mhi(mhi));
	for (try = 1;; try++) {
		ret = qaic_mhi_try_power_up(qdev, &what);
		if (!ret) {
			qdev->mhi_up = true;
			return;
		}
		if (try == QAIC_POWER_UP_TRIES)
			break;
		drm_warn(&qdev->drm, "power-up try %u of %u: %s failed: %d; resetting the card\n",
			 try, QAIC_POWER_UP_TRIES, what, ret);
		qaic_mhi_check_decode(qdev);
		mhi_soc_reset(mhi);
		msleep(QAIC_POWER_UP_RETRY_MS);
		/* The boot watchdog counts from the try that may succeed. */
		qaic_mhi_boot_begin(to_qaic_mhi(mhi));
	}
	qaic_mhi_boot_fail(qdev, "%s failed: %d (%u tries)", what, ret, try);
}

/**
 * qaic_mhi_start() - Power MHI up again after qaic_mhi_stop().
 * @qdev: The card, after a reset: it boots again from PBL.
 *
 * Runs under the device lock, like qaic_mhi_stop().
 */
void qaic_mhi_start(struct qaic_device *qdev)
{
	if (qdev->mhi_up)
		return;
	qaic_mhi_power_up(qdev);
}

/**
 * qaic_mhi_init() - Register the card's MHI controller and power it up.
 * @qdev: The card; BAR0 mapped, interrupt vectors allocated.
 *
 * The controller is powered down and unregistered when the driver
 * detaches (a devm action). A card that does not power up leaves the
 * control path down; the DRM device still registers.
 *
 * Return: 0, or a negative errno if the controller could not be registered.
 */
int qaic_mhi_init(struct qaic_device *qdev)
{
	struct mhi_controller_config config = {
		.max_channels = 128,
		.timeout_ms = mhi_timeout_ms,
		.num_channels = qdev->card->num_channels,
		.ch_cfg = qdev->card->channels,
		.num_events = ARRAY_SIZE(qaic_mhi_events),
		.event_cfg = qaic_mhi_events,
	};
	struct pci_dev *pdev = qdev->pdev;
	struct mhi_controller *mhi;
	struct qaic_mhi *qmhi;
	int ret;

	qmhi = kzalloc_obj(*qmhi, GFP_KERNEL);
	if (!qmhi)
		return -ENOMEM;
	qmhi->qdev = qdev;
	qmhi->irq = pci_irq_vector(pdev, 0);
	atomic_set(&qmhi->boot_state, QAIC_BOOT_BOOTING);
	INIT_DELAYED_WORK(&qmhi->boot_work, qaic_mhi_boot_watch);

	mhi = &qmhi->cntrl;
	mhi->cntrl_dev = &pdev->dev;
	mhi->regs = qdev->bar_mhi;
	mhi->reg_len = SZ_4K;
	/* The card can reach all of host memory. */
	mhi->iova_start = 0;
	mhi->iova_stop = PHYS_ADDR_MAX - 1;
	mhi->irq = &qmhi->irq;
	mhi->nr_irqs = 1;
	mhi->status_cb = qaic_mhi_status_cb;
	mhi->runtime_get = qaic_mhi_runtime_get;
	mhi->runtime_put = qaic_mhi_runtime_put;
	mhi->read_reg = qaic_mhi_read_reg;
	mhi->write_reg = qaic_mhi_write_reg;
	/*
	 * Loaded through BHI (or BHIe, when the card takes segments) into a
	 * card in PBL; the rest is Sahara's, whose image table is chosen by
	 * the card's PCI id.
	 */
	mhi->name = qdev->card->name;
	mhi->fw_image = qdev->card->sbl;
	mhi->seg_len = qdev->card->sbl_seg_len;

	ret = mhi_register_controller(mhi, &config);
	if (ret) {
		drm_err(&qdev->drm, "MHI controller registration failed: %d\n", ret);
		kfree(qmhi);
		return ret;
	}
	qdev->mhi = mhi;

	ret = devm_add_action_or_reset(&pdev->dev, qaic_mhi_fini, qdev);
	if (ret)
		return ret;

	qaic_mhi_power_up(qdev);
	return 0;
}
