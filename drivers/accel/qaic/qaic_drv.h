/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The qaic authors.
 */

#ifndef _QAIC_DRV_H_
#define _QAIC_DRV_H_

#include <linux/mutex.h>
#include <linux/pci.h>
#include <linux/ratelimit_types.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/workqueue.h>
#include <linux/xarray.h>

#include <drm/drm_device.h>
#include <drm/drm_file.h>
#include <drm/drm_print.h>

#define QAIC_NAME		"qaic"
#define QAIC_DESC		"Qualcomm Cloud AI 100 accelerator"

/* PCI device ids of the cards (vendor %PCI_VENDOR_ID_QCOM) */
#define QAIC_PCI_ID_AIC080	0xa080
#define QAIC_PCI_ID_AIC100	0xa100
#define QAIC_PCI_ID_AIC200	0xa110

/* Every card of the family has its DMA Bridge Channels in BAR2. */
#define QAIC_BAR_DBC		2

/**
 * struct qaic_card - What tells the cards this driver serves apart.
 * @name: The card's name in the log, and its MHI controller's name.
 * @bars: Memory BARs the card has, as pci_select_bars() gives them; the
 *	  host needs all of them (it claims the ones it does not map).
 * @mhi_bar: The BAR of the MHI register block.
 * @sbl: Firmware file of the secondary boot loader, which the MHI core
 *	 loads into a card in PBL.
 * @sbl_seg_len: 0 when PBL takes the SBL over BHI; else PBL takes it over
 *		 BHIe, in segments of this many bytes (an MHI core of Linux
 *		 6.15 or later can do that).
 * @channels: The MHI channels the host serves on this card.
 * @num_channels: Entries of @channels.
 *
 * The card's Sahara image table is qaic_sahara.c's, by PCI device id.
 */
struct qaic_card {
	const char *name;
	unsigned long bars;
	int mhi_bar;
	const char *sbl;
	size_t sbl_seg_len;
	const struct mhi_channel_config *channels;
	unsigned int num_channels;
};

extern const struct qaic_card qaic_card_aic100;
extern const struct qaic_card qaic_card_aic080;
extern const struct qaic_card qaic_card_aic200;

/*
 * Interrupts: vector 0 is MHI's, vector 1 + i is DMA Bridge Channel i's.
 * With a single vector every source shares vector 0.
 */
/*
 * Memory whose size a user chooses: charged to the user's memory cgroup,
 * and a cgroup (or machine) short of memory fails the call with -ENOMEM
 * instead of OOM-killing someone over it.
 */
#define QAIC_GFP_USER		(GFP_KERNEL_ACCOUNT | __GFP_RETRY_MAYFAIL | __GFP_NOWARN)

/* Types of the errors a card reports (qaic_ras.c) */
#define QAIC_RAS_NR_TYPES	3
#define QAIC_NUM_IRQS		(1 + QAIC_NUM_DBC)

struct drm_printer;
struct mhi_channel_config;
struct mhi_controller;
struct qaic_bootlog;
struct qaic_cntl;
struct qaic_queue;

#define QAIC_NUM_DBC		16

/*
 * What a card can make the host log and announce through subsystem
 * restarts (qaic_ssr.c), per card and per QAIC_SSR_LIMIT_INTERVAL: at most
 * QAIC_SSR_LOG_BURST lines and QAIC_SSR_UEVENT_BURST DBC_STATE uevents,
 * enough for the state of every DBC that an interval held back.
 */
#define QAIC_SSR_LIMIT_INTERVAL	(5 * HZ)
#define QAIC_SSR_LOG_BURST	10
#define QAIC_SSR_UEVENT_BURST	QAIC_NUM_DBC

/*
 * What sysfs dbc<N>_state shows and a DBC_STATE= uevent carries; the names
 * and values are upstream Linux's (Documentation/ABI/testing/sysfs-driver-qaic here).
 * The last four are the steps of a subsystem restart (qaic_ssr.c).
 */
enum qaic_dbc_state {
	QAIC_DBC_IDLE,
	QAIC_DBC_ASSIGNED,
	QAIC_DBC_BEFORE_SHUTDOWN,
	QAIC_DBC_AFTER_SHUTDOWN,
	QAIC_DBC_BEFORE_POWER_UP,
	QAIC_DBC_AFTER_POWER_UP,
};

/**
 * struct qaic_dbc_stats - What a DBC did since the card was probed, for
 *			   debugfs; kept across activations.
 * @requests: Requests written to the request ring.
 * @doorbells: REQTP writes that told the device of new requests.
 * @polls: Looks at the response ring made by timer, an acknowledgment
 *	   held back, instead of by interrupt.
 * @jobs: Jobs retired, failed ones included.
 * @resets: Times the DBC was reset because a job made no progress.
 * @last_error: The error of the last job that failed; 0 if none did.
 *
 * Written with the queue's lock held, read with the DBC's lock and the
 * queue's lock held.
 */
struct qaic_dbc_stats {
	u64 requests;
	u64 doorbells;
	u64 polls;
	u64 jobs;
	u64 resets;
	int last_error;
};

/**
 * struct qaic_dbc - Host side of one DMA Bridge Channel.
 * @owner: Id of the file the channel is activated for; 0 if it is free.
 * @draining: The owner asked for the channel to be deactivated; it is its
 *	      no more, but the rings stay until the card reports the release
 *	      (or fails it, and the owner gets the channel back).
 * @ring: CPU address of the request and response rings; NULL if none.
 *	  With no @owner, rings kept until the card is reset
 *	  (qaic_owner_park_all()); freed before the DBC is granted again.
 * @ring_dma: DMA address of @ring.
 * @ring_size: Bytes at @ring.
 * @nelem: Entries in each ring.
 * @lock: Held while the fields above and @queue change (together with
 *	  &qaic_device.dbc_lock, taken first), and by the ioctls that use the
 *	  DBC, so that it cannot go away under them.
 * @queue: The scheduler and rings' state while the DBC is active; read
 *	   without the lock by the interrupt handlers.
 * @ssr: The step of the subsystem restart under way (an &enum
 *	 qaic_dbc_state from %QAIC_DBC_BEFORE_SHUTDOWN on), or 0 for none.
 *	 While set every ioctl naming the DBC fails with -EPIPE. Changes under
 *	 the same locks as @owner.
 * @reported: The state the last DBC_STATE uevent announced; under @lock.
 * @stats: Its counters, for debugfs.
 * @activation: Which grant of the card's DBCs made this one active (a
 *		number no other grant had); 0 while it is free. Changes with
 *		@owner; read without the locks by the check of a stale
 *		slicing (&qaic_bo_slicing.activation).
 */
struct qaic_dbc {
	u32 owner;
	bool draining;
	void *ring;
	dma_addr_t ring_dma;
	size_t ring_size;
	u32 nelem;
	struct mutex lock; /* Protects the DBC's use; see above */
	struct qaic_queue *queue;
	u8 ssr;
	u8 reported;
	struct qaic_dbc_stats stats;
	u64 activation;
};

/**
 * enum qaic_reach - Whether the card may still reach host memory it was given.
 * @QAIC_REACH_QUIESCED: It cannot: it was reset and bus mastering turned
 *			 off, or it is gone, and it was given nothing since.
 *			 What it held may be freed.
 * @QAIC_REACH_RUNNING: It runs and answers: what it was given may be freed
 *			once it said it is done with it (an answer to a
 *			release), or was reset since.
 * @QAIC_REACH_CRASHED: It crashed, or is being stopped, and is not reset
 *			yet: it may still reach all it was given, and its
 *			word counts for nothing. Everything is parked.
 *
 * The one answer qaic_owner.c gives to "may this be freed?". The card goes
 * to CRASHED before its control path fails its waiters, so that no closing
 * file takes a failed control path for a reset card; to QUIESCED when the
 * host released what it held after stopping it; to RUNNING when it booted
 * to mission mode since.
 */
enum qaic_reach {
	QAIC_REACH_QUIESCED,
	QAIC_REACH_RUNNING,
	QAIC_REACH_CRASHED,
};

/**
 * struct qaic_device - One AIC100 card.
 * @drm: DRM device; /dev/accel/accelN. Embedded: the device lives as long as
 *	 the last reference to it, past PCI remove.
 * @pdev: The PCI function.
 * @card: Which card of the family this is; set at probe.
 * @bar_mhi: Mapped MHI register BAR; valid only inside drm_dev_enter().
 * @bar_dbc: Mapped DMA Bridge Channel register BAR; same rule.
 * @num_irqs: Interrupt vectors allocated: %QAIC_NUM_IRQS or 1.
 * @irq_msix: The vectors are MSI-X rather than MSI.
 * @mhi: MHI controller on @bar_mhi; NULL until registered.
 * @mhi_up: The MHI controller is powered up; cleared by the first of
 *	    shutdown and remove.
 * @cntl: The QAIC_CONTROL transport; lives as long as @drm.
 * @dbc_lock: Protects @dbc: ownership and rings change only under it.
 *	      Taken by MANAGE, postclose, remove and the MHI system-error
 *	      callback; never from atomic context, and never while holding
 *	      the transport's locks.
 * @dbc: The DMA Bridge Channels.
 * @parked_jobs: Jobs of DBCs taken from their owners while the card may
 *		 still run them (it crashed and is not reset yet), with their
 *		 objects; under @dbc_lock (qaic_owner_park_all()).
 * @parked_stale: The files' &qaic_file_priv.stale memory, kept likewise.
 * @reach: Whether the card may still reach what it was given (enum
 *	   qaic_reach); under @dbc_lock, read by qaic_owner.c alone.
 * @activations: DBC grants so far (&qaic_dbc.activation); under @dbc_lock.
 * @next_chunk_id: Source of ids of DMA transfers continued over several
 *		   messages.
 * @file_ids: The open files by &qaic_file_priv.id. An id names the file to
 *	      the card and owns its DBCs, so no two open files share one,
 *	      however often the numbers wrap.
 * @next_file_id: Where the search for a free file id starts; ids are given
 *		  out cyclically so that a closed file's id is not reused at
 *		  once (the card may still be releasing what it held).
 * @mapped_lock: Protects @mapped.
 * @mapped: The buffer objects mapped for the card (&qaic_bo.mapped_node),
 *	    which unplug unmaps.
 * @card_state: %QAIC_CARD_GONE: the card fell off the bus
 *	        (qaic_reset_check_card()), set once for good;
 *	        %QAIC_CARD_RESETTING: a reset of the whole card is on its way
 *	        (qaic_reset_card()).
 * @last_answer: jiffies when a MANAGE message last got an answer (or, if
 *		 none did yet, when one first went unanswered); 0 before.
 * @sysfs_added: The dbc<N>_state files exist (qaic_sysfs_init()).
 * @pm_stopped: System sleep stopped the card; it starts once awake.
 * @ras_count: RAS reports of correctable, uncorrectable and uncorrectable
 *	       non-fatal errors since probe (qaic_ras.c).
 * @ras_refused: RAS messages refused as malformed.
 * @bootlog: What the card wrote on QAIC_LOGGING (qaic_bootlog.c); lives
 *	     as long as @drm.
 * @telemetry: The card's temperatures and power, asked on QAIC_TELEMETRY
 *	       for its hwmon chip (qaic_telemetry.c); lives as long as the
 *	       driver is bound.
 * @coredump_lock: Protects @coredumps; innermost of the driver's locks.
 * @coredumps: Dumps on their way to devcoredump (qaic_coredump.c).
 * @coredump_work: Hands @coredumps to devcoredump; flushed at remove.
 * @ssr_log_rs: Bounds the lines subsystem restarts log (qaic_ssr.c).
 * @uevent_lock: Protects @uevent_begin, @uevent_sent and @uevent_held.
 *		 Taken under &qaic_dbc.lock, and nothing is taken under it.
 * @uevent_begin: jiffies when the current interval of the DBC_STATE
 *		  uevents the card causes began.
 * @uevent_sent: Those uevents sent in that interval.
 * @uevent_held: DBCs whose state the card changed and no uevent announced
 *		 yet, as the interval had none left (qaic_sysfs.c).
 * @uevent_work: Announces the state of the @uevent_held DBCs once an
 *		 interval allows; cancelled at unbind.
 * @online_lock: Orders the ONLINE and OFFLINE uevents (qaic_card_announce());
 *		 nothing of the driver's is taken under it.
 * @online_reported: What the last of them said: the control path was up.
 */
struct qaic_device {
	struct drm_device drm;
	struct pci_dev *pdev;
	const struct qaic_card *card;
	void __iomem *bar_mhi;
	void __iomem *bar_dbc;
	unsigned int num_irqs;
	bool irq_msix;
	struct mhi_controller *mhi;
	bool mhi_up;
	struct qaic_cntl *cntl;
	struct mutex dbc_lock; /* Protects @dbc; see above */
	struct qaic_dbc dbc[QAIC_NUM_DBC];
	struct list_head parked_jobs;
	struct list_head parked_stale;
	enum qaic_reach reach;
	u64 activations;
	atomic_t next_chunk_id;
	struct xarray file_ids;
	u32 next_file_id;
	spinlock_t mapped_lock; /* Protects @mapped */
	struct list_head mapped;
	unsigned long card_state;
	unsigned long last_answer;
	bool sysfs_added;
	bool pm_stopped;
	atomic_t ras_count[QAIC_RAS_NR_TYPES];
	atomic_t ras_refused;
	struct qaic_bootlog *bootlog;
	struct qaic_telemetry *telemetry;
	spinlock_t coredump_lock; /* Protects @coredumps */
	struct list_head coredumps;
	struct work_struct coredump_work;
	struct ratelimit_state ssr_log_rs;
	spinlock_t uevent_lock; /* Protects the card's uevent budget; see above */
	unsigned long uevent_begin;
	unsigned int uevent_sent;
	unsigned long uevent_held;
	struct delayed_work uevent_work;
	struct mutex online_lock; /* Orders ONLINE and OFFLINE uevents */
	bool online_reported;
};

/* Bits of &qaic_device.card_state */
#define QAIC_CARD_GONE		0
#define QAIC_CARD_RESETTING	1

/**
 * struct qaic_file_priv - State of one open file of a card.
 * @qdev: The card.
 * @id: Number of the file, unique per card among the open files, never 0:
 *	the user handle in control messages, and the owner of the DBCs it
 *	activates. Held in &qaic_device.file_ids from open until the card
 *	released what the file held, at postclose.
 * @nnc_used: The file sent a control message; set by MANAGE, read at
 *	      postclose (a terminate message is due).
 * @stale: What the card may reach until the file's terminate: rings of
 *	   activates whose answer never came or made no sense, and pages of
 *	   DMA transfers whose answer never came. Protected by
 *	   &qaic_device.dbc_lock.
 * @busy_ns: Per DBC, nanoseconds it had jobs of the file on its ring, for
 *	     fdinfo; added to when the ring runs empty.
 * @manage_calls: MANAGE calls of the file under way, each holding at most
 *		  one control slot at a time; at most
 *		  %QAIC_MANAGE_FILE_CALLS (qaic_manage.c).
 * @stale_bytes: Bytes of ring and pinned user memory on @stale; while it
 *		 is %QAIC_MANAGE_FILE_STALE_MAX or more, MANAGE fails with
 *		 -EBUSY (qaic_manage.c). Protected by &qaic_device.dbc_lock;
 *		 read without it for fdinfo.
 */
struct qaic_file_priv {
	struct qaic_device *qdev;
	u32 id;
	bool nnc_used;
	atomic_t manage_calls;
	struct list_head stale;
	u64 stale_bytes;
	atomic64_t busy_ns[QAIC_NUM_DBC];
};

bool qaic_pci_bound(struct pci_dev *pdev);

static inline struct qaic_device *to_qaic_device(struct drm_device *drm)
{
	return container_of(drm, struct qaic_device, drm);
}

/* uapi directions of qaic_attach_slice_hdr.dir and qaic_execute_entry.dir */
#define QAIC_DIR_TO_DEV		1
#define QAIC_DIR_FROM_DEV	2

#endif /* _QAIC_DRV_H_ */
