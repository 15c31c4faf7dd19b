// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The qaic authors.
 */

/**
 * DOC: qaic Sahara host
 *
 * A card powers on in its primary boot loader (PBL). The MHI core loads
 * the secondary boot loader, qcom/aic100/sbl.bin, through the BHI registers
 * (qcom/aic200/sbl.bin through BHIe on an AIC200; qaic_mhi.c); SBL then
 * asks the host for every other image over the Sahara protocol on the
 * QAIC_SAHARA channel pair, and starts the mission mode firmware (AMSS)
 * once it has them all. This file is the host side: an MHI driver bound to
 * QAIC_SAHARA that serves the images of the card's table
 * (qaic_sahara_cards) with request_firmware().
 *
 * One image is one session: the card says HELLO, the host answers
 * HELLO_RESP; the card asks for pieces of the image (READ_DATA, or
 * READ_DATA64 with 64-bit fields), each answered by exactly the bytes asked
 * for; the card ends with END_OF_IMAGE and its verdict; the host says DONE
 * and the card answers DONE_RESP, which tells whether more images follow.
 *
 * An image the host cannot load (no such file under /lib/firmware, or
 * request_firmware() fails otherwise) is answered with RESET instead of
 * its bytes, and the card decides: real firmware packages leave optional
 * images out, and only the card knows which of its images it can boot
 * without (see qaic_sahara_cards). A card that goes on without the image
 * ends it with END_OF_IMAGE of status 0, which gets DONE as any image
 * does, or asks for another image; the boot goes on and the log says which
 * image the card did without. A card that cannot go on says so with
 * END_OF_IMAGE of another status, asks for the same image again, or falls
 * silent; each ends the boot with one error naming the missing file.
 *
 * The card is not trusted. Every request is checked before anything is
 * sent: the image id must be in the table, only one image may be open at a
 * time, a read must be 1 to 0x80000 bytes (of any length on a card whose
 * SBL streams, the AIC200's) and lie inside the image, a
 * DONE_RESP must answer a DONE and nothing else may, a RESET_RESP must
 * answer a RESET, an image the host had none of may not be asked for
 * again, and nothing may be asked once the card said the last image was
 * in. The host
 * waits at most ``sahara_timeout_ms`` (a module parameter) for each packet
 * of the card, and as long for the card to take the bytes of a read. The
 * first failure ends the boot: one error in the log, the card is left
 * alone, and its node refuses open() with -ENODEV (qaic_mhi_boot_fail()).
 *
 * After a crash the card's SBL first offers the card's memory (HELLO in
 * memory-debug mode): the host reads it into a devcoredump
 * (qaic_memdump.c), sends RESET, and the card goes on with the images.
 * A dump that breaks a rule is abandoned with one error in the log; the
 * boot goes on. Anything else out of order there ends the boot as above.
 *
 * Packets of the card arrive in a single receive buffer; the transfer
 * callback only queues a work item, which handles the packet under the
 * host's lock and then queues the buffer again. The bytes of a read are
 * copied from the firmware into buffers of 32 KiB chained into one
 * transfer; a streamed read larger than 0x80000 bytes takes one such
 * transfer after another.
 */

#include <linux/bitmap.h>
#include <linux/cleanup.h>
#include <linux/device.h>
#include <linux/firmware.h>
#include <linux/jiffies.h>
#include <linux/lockdep.h>
#include <linux/mhi.h>
#include <linux/minmax.h>
#include <linux/mod_devicetable.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/overflow.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/wait.h>
#include <linux/workqueue.h>

#include <drm/drm_print.h>

#include "qaic_drv.h"
#include "qaic_memdump.h"
#include "qaic_mhi.h"
#include "qaic_sahara.h"

static unsigned int sahara_timeout_ms = 5000;
module_param(sahara_timeout_ms, uint, 0600);
MODULE_PARM_DESC(sahara_timeout_ms,
		 "Longest wait for the card during the Sahara image transfer, and for each answer during a crash dump over QAIC_SSR, in milliseconds (default 5000)");

/* Commands and their packet lengths, in bytes. */
#define SAHARA_HELLO			0x01
#define SAHARA_HELLO_RESP		0x02
#define SAHARA_READ_DATA		0x03
#define SAHARA_END_OF_IMAGE		0x04
#define SAHARA_DONE			0x05
#define SAHARA_DONE_RESP		0x06
#define SAHARA_RESET			0x07
#define SAHARA_RESET_RESP		0x08
#define SAHARA_MEMORY_DEBUG64		0x10
#define SAHARA_MEMORY_READ64		0x11
#define SAHARA_READ_DATA64		0x12

#define SAHARA_HELLO_LEN		0x30
#define SAHARA_READ_DATA_LEN		0x14
#define SAHARA_READ_DATA64_LEN		0x20
#define SAHARA_END_OF_IMAGE_LEN		0x10
#define SAHARA_DONE_LEN			0x08
#define SAHARA_DONE_RESP_LEN		0x0c
#define SAHARA_RESET_LEN		0x08
#define SAHARA_MEMORY_DEBUG64_LEN	0x18
#define SAHARA_MEMORY_READ64_LEN	0x18

/*
 * The card must speak version 2 at least; the host answers 3, which tells
 * the card it may use READ_DATA64 (Linux 6.12's host answers 2).
 */
#define SAHARA_VERSION			2
#define SAHARA_VERSION_HOST		3
#define SAHARA_MODE_IMAGE_PENDING	0
#define SAHARA_MODE_IMAGE_COMPLETE	1
#define SAHARA_MODE_MEMORY_DEBUG	2
#define SAHARA_TX_COMPLETE		1

/* Largest read the host serves. */
#define QAIC_SAHARA_MAX_READ		0x80000
/* Bytes of a read per transfer descriptor, and how many it takes. */
#define QAIC_SAHARA_TX_CHUNK		SZ_32K
#define QAIC_SAHARA_NR_TX		(QAIC_SAHARA_MAX_READ / QAIC_SAHARA_TX_CHUNK)
/* The receive buffer: a packet of the card, or the bytes of a dump's read. */
#define QAIC_SAHARA_RX_LEN		QAIC_MEMDUMP_MAX_READ

#define QAIC_SAHARA_NO_IMAGE		U32_MAX

/* The AIC100 image table: image id -> firmware file. */
static const char * const qaic_sahara_aic100_images[] = {
	[1] = "qcom/aic100/fw1.bin",
	[2] = "qcom/aic100/fw2.bin",
	[4] = "qcom/aic100/fw4.bin",
	[5] = "qcom/aic100/fw5.bin",
	[6] = "qcom/aic100/fw6.bin",
	[8] = "qcom/aic100/fw8.bin",
	[9] = "qcom/aic100/fw9.bin",
	[10] = "qcom/aic100/fw10.bin",
};

/* The AIC200 image table: image id -> firmware file. */
static const char * const qaic_sahara_aic200_images[] = {
	[5] = "qcom/aic200/uefi.elf",
	[12] = "qcom/aic200/aic200-nsp.bin",
	[23] = "qcom/aic200/aop.mbn",
	[32] = "qcom/aic200/tz.mbn",
	[33] = "qcom/aic200/hypvm.mbn",
	[38] = "qcom/aic200/xbl_config.elf",
	[39] = "qcom/aic200/aic200_abl.elf",
	[40] = "qcom/aic200/apdp.mbn",
	[41] = "qcom/aic200/devcfg.mbn",
	[42] = "qcom/aic200/sec.elf",
	[43] = "qcom/aic200/aic200-hlos.elf",
	[49] = "qcom/aic200/shrm.elf",
	[50] = "qcom/aic200/cpucp.elf",
	[51] = "qcom/aic200/aop_devcfg.mbn",
	[54] = "qcom/aic200/qupv3fw.elf",
	[57] = "qcom/aic200/cpucp_dtbs.elf",
	[62] = "qcom/aic200/uefi_dtbs.elf",
	[63] = "qcom/aic200/xbl_ac_config.mbn",
	[64] = "qcom/aic200/tz_ac_config.mbn",
	[65] = "qcom/aic200/hyp_ac_config.mbn",
	[66] = "qcom/aic200/pdp.elf",
	[67] = "qcom/aic200/pdp_cdb.elf",
	[68] = "qcom/aic200/sdi.mbn",
	[69] = "qcom/aic200/dcd.mbn",
	[73] = "qcom/aic200/gearvm.mbn",
	[74] = "qcom/aic200/sti.bin",
	[76] = "qcom/aic200/tz_qti_config.mbn",
	[78] = "qcom/aic200/pvs.bin",
};

/**
 * struct qaic_sahara_table - The images a card's SBL may ask for.
 * @images: Firmware file of each image id; NULL where the card has none.
 * @count: Entries of @images: ids from 0 to @count - 1.
 * @streams: A read may be of any length inside the image (the AIC200's
 *	     SBL asks so); else it is at most %QAIC_SAHARA_MAX_READ bytes.
 */
struct qaic_sahara_table {
	const char * const *images;
	unsigned int count;
	bool streams;
};

/*
 * The image table of each card, by PCI device id. No image of a table is
 * marked optional, and none required, on purpose: which images a card can
 * boot without is the card's knowledge, not the host's. Some images are
 * only shipped with a provisioning flow and real firmware packages leave
 * them out; upstream Linux (7.2) marks none of its AIC100 or AIC200
 * images, answers every one it cannot load with RESET and lets the card
 * evaluate whether it needs it. So does this host, for every image of
 * these tables: any of them may be missing on the host, and a boot fails
 * for a missing image only when the card says it cannot go on. The AIC080
 * runs the AIC100's SBL and asks for the same files (upstream gives it the
 * AIC100 table too).
 */
static const struct {
	unsigned short device;
	struct qaic_sahara_table table;
} qaic_sahara_cards[] = {
	{ QAIC_PCI_ID_AIC100,
	  { qaic_sahara_aic100_images, ARRAY_SIZE(qaic_sahara_aic100_images) } },
	{ QAIC_PCI_ID_AIC080,
	  { qaic_sahara_aic100_images, ARRAY_SIZE(qaic_sahara_aic100_images) } },
	{ QAIC_PCI_ID_AIC200,
	  { qaic_sahara_aic200_images, ARRAY_SIZE(qaic_sahara_aic200_images), true } },
};

static const struct qaic_sahara_table *qaic_sahara_table_of(unsigned short device)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(qaic_sahara_cards); i++)
		if (qaic_sahara_cards[i].device == device)
			return &qaic_sahara_cards[i].table;
	return NULL;
}

/**
 * enum qaic_memdump_state - Where the card's memory dump is.
 * @QAIC_MEMDUMP_NONE: The card offered none (yet).
 * @QAIC_MEMDUMP_HELLO: Memory-debug HELLO answered, its table not named.
 * @QAIC_MEMDUMP_READING: A read is outstanding: the next packet is data.
 * @QAIC_MEMDUMP_RESET: Dump over or abandoned: RESET sent.
 * @QAIC_MEMDUMP_OVER: The card took the RESET: the images follow.
 */
enum qaic_memdump_state {
	QAIC_MEMDUMP_NONE,
	QAIC_MEMDUMP_HELLO,
	QAIC_MEMDUMP_READING,
	QAIC_MEMDUMP_RESET,
	QAIC_MEMDUMP_OVER,
};

/**
 * struct qaic_sahara - The Sahara host of one card, while it runs SBL.
 * @mhi_dev: The QAIC_SAHARA channel pair.
 * @qdev: The card.
 * @lock: Protects the fields below it; taken by the receive and the
 *	  timeout work and by remove, never in atomic context.
 * @table: The card's image table.
 * @active: Id of the open image, %QAIC_SAHARA_NO_IMAGE when none is.
 * @fw: The open image's firmware; valid while @active is an id.
 * @declined: Id of the image the host had none of and answered with
 *	      RESET, while the card has not said whether it goes on without
 *	      it; %QAIC_SAHARA_NO_IMAGE otherwise.
 * @declined_err: Why the host had none of @declined: an errno.
 * @reset_resp_due: RESET sent for @declined; the card may answer RESET_RESP.
 * @declined_ids: Images of @table the host had none of in this boot.
 * @skipped: Images the card went on without.
 * @images: Images the card accepted.
 * @bytes: Bytes of images sent.
 * @done_sent: DONE sent; the card owes its DONE_RESP.
 * @finished: The card said the last image is in.
 * @failed: The boot failed: nothing more is sent or received.
 * @stopping: The channel is going away: nothing more is queued. Set
 *	      without @lock, so that a long read under it sees it.
 * @dump_state: Where the card's memory dump is.
 * @dump: The dump being read, once its table is in; else NULL.
 * @dump_addr: Address of the outstanding read of the dump.
 * @dump_asked: Bytes of the outstanding read of the dump.
 * @rx: The receive buffer, %QAIC_SAHARA_RX_LEN bytes.
 * @rx_len: Bytes in @rx, set by the transfer callback; negative errno
 *	    for a packet that did not fit.
 * @cmd: Buffer of the host's command packets.
 * @tx: Buffers of the bytes of a read.
 * @tx_pending: Buffers the card has not taken yet.
 * @tx_wq: Woken when @tx_pending drops to 0.
 * @rx_work: Handles a received packet.
 * @timeout_work: Fires when the card has been silent too long.
 */
struct qaic_sahara {
	struct mhi_device *mhi_dev;
	struct qaic_device *qdev;
	struct mutex lock; /* Protects the fields below; see above */
	const struct qaic_sahara_table *table;
	u32 active;
	const struct firmware *fw;
	u32 declined;
	int declined_err;
	bool reset_resp_due;
	unsigned long *declined_ids;
	unsigned int skipped;
	unsigned int images;
	size_t bytes;
	bool done_sent;
	bool finished;
	bool failed;
	bool stopping;
	enum qaic_memdump_state dump_state;
	struct qaic_memdump *dump;
	u64 dump_addr;
	u64 dump_asked;
	void *rx;
	int rx_len;
	void *cmd;
	void *tx[QAIC_SAHARA_NR_TX];
	atomic_t tx_pending;
	wait_queue_head_t tx_wq;
	struct work_struct rx_work;
	struct delayed_work timeout_work;
};

/* File name of image @id, or NULL when the card's table has none of that id. */
static const char *qaic_sahara_image_name(const struct qaic_sahara *s, u64 id)
{
	return id < s->table->count ? s->table->images[id] : NULL;
}

/**
 * qaic_sahara_timeout() - The longest wait for one packet of the card's.
 *
 * Also bounds each answer of a crash dump read over QAIC_SSR.
 *
 * Return: ``sahara_timeout_ms`` in jiffies, at least one.
 */
unsigned long qaic_sahara_timeout(void)
{
	return msecs_to_jiffies(max(sahara_timeout_ms, 1U));
}

static void qaic_sahara_close_image_locked(struct qaic_sahara *s)
{
	lockdep_assert_held(&s->lock);
	if (s->active == QAIC_SAHARA_NO_IMAGE)
		return;
	release_firmware(s->fw);
	s->fw = NULL;
	s->active = QAIC_SAHARA_NO_IMAGE;
}

/* End the boot: one line in the log, and the card refuses open(). */
static __printf(2, 3) void qaic_sahara_fail_locked(struct qaic_sahara *s,
						   const char *fmt, ...)
{
	char why[192];	/* room for an image file name, an errno, a status */
	va_list args;

	lockdep_assert_held(&s->lock);
	va_start(args, fmt);
	vsnprintf(why, sizeof(why), fmt, args);
	va_end(args);

	s->failed = true;
	qaic_sahara_close_image_locked(s);
	qaic_memdump_free(s->dump);
	s->dump = NULL;
	cancel_delayed_work(&s->timeout_work);
	qaic_mhi_boot_fail(s->qdev, "Sahara: %s", why);
}

static void qaic_sahara_put(void *pkt, unsigned int word, u32 val)
{
	((__le32 *)pkt)[word] = cpu_to_le32(val);
}

static u32 qaic_sahara_get(const void *pkt, unsigned int word)
{
	return le32_to_cpu(((const __le32 *)pkt)[word]);
}

static u64 qaic_sahara_get64(const void *pkt, unsigned int offset)
{
	return le64_to_cpu(*(const __le64 *)(pkt + offset));
}

/*
 * Wait until the card took everything sent before: the buffers are free.
 * -ESHUTDOWN once the channel is going away: remove waits for the lock,
 * and a slow card must not keep it for every window of a long read.
 */
static int qaic_sahara_wait_tx_locked(struct qaic_sahara *s)
{
	lockdep_assert_held(&s->lock);
	if (!wait_event_timeout(s->tx_wq, !atomic_read(&s->tx_pending) ||
				READ_ONCE(s->stopping), qaic_sahara_timeout())) {
		qaic_sahara_fail_locked(s, "the card did not take %d buffers in %u ms",
					atomic_read(&s->tx_pending), sahara_timeout_ms);
		return -ETIMEDOUT;
	}
	return READ_ONCE(s->stopping) ? -ESHUTDOWN : 0;
}

/* Queue one buffer on the uplink channel; @flags: MHI_CHAIN or MHI_EOT. */
static int qaic_sahara_queue_locked(struct qaic_sahara *s, void *buf, size_t len,
				    enum mhi_flags flags)
{
	int ret;

	lockdep_assert_held(&s->lock);
	atomic_inc(&s->tx_pending);
	ret = mhi_queue_buf(s->mhi_dev, DMA_TO_DEVICE, buf, len, flags);
	if (ret) {
		atomic_dec(&s->tx_pending);
		qaic_sahara_fail_locked(s, "sending %zu bytes failed: %d", len, ret);
	}
	return ret;
}

static void qaic_sahara_send_cmd_locked(struct qaic_sahara *s, const u32 *words,
					unsigned int nr)
{
	unsigned int i;

	lockdep_assert_held(&s->lock);
	if (qaic_sahara_wait_tx_locked(s))
		return;
	for (i = 0; i < nr; i++)
		qaic_sahara_put(s->cmd, i, words[i]);
	qaic_sahara_queue_locked(s, s->cmd, words[1], MHI_EOT);
}

static void qaic_sahara_hello_locked(struct qaic_sahara *s, const void *pkt, size_t len)
{
	u32 version, compat, mode;

	lockdep_assert_held(&s->lock);
	if (len != SAHARA_HELLO_LEN) {
		qaic_sahara_fail_locked(s, "HELLO of %zu bytes", len);
		return;
	}
	version = qaic_sahara_get(pkt, 2);
	compat = qaic_sahara_get(pkt, 3);
	mode = qaic_sahara_get(pkt, 5);
	if (version < SAHARA_VERSION || compat > SAHARA_VERSION_HOST) {
		qaic_sahara_fail_locked(s, "protocol version %u (compatible %u), need %u",
					version, compat, SAHARA_VERSION);
		return;
	}
	if (mode == SAHARA_MODE_MEMORY_DEBUG) {
		if (s->dump_state != QAIC_MEMDUMP_NONE || s->images ||
		    s->active != QAIC_SAHARA_NO_IMAGE ||
		    !bitmap_empty(s->declined_ids, s->table->count)) {
			qaic_sahara_fail_locked(s, "memory-debug HELLO after the boot began");
			return;
		}
		s->dump_state = QAIC_MEMDUMP_HELLO;
	} else if (mode != SAHARA_MODE_IMAGE_PENDING && mode != SAHARA_MODE_IMAGE_COMPLETE) {
		qaic_sahara_fail_locked(s, "HELLO in mode %u", mode);
		return;
	} else if (s->dump_state == QAIC_MEMDUMP_RESET) {
		/* The card went on without a RESET_RESP. */
		s->dump_state = QAIC_MEMDUMP_OVER;
	} else if (s->dump_state != QAIC_MEMDUMP_NONE &&
		   s->dump_state != QAIC_MEMDUMP_OVER) {
		qaic_sahara_fail_locked(s, "HELLO in mode %u during the memory dump", mode);
		return;
	}
	/* A new session: whatever was open is over. */
	qaic_sahara_close_image_locked(s);
	qaic_sahara_send_cmd_locked(s, (const u32[]){ SAHARA_HELLO_RESP, SAHARA_HELLO_LEN,
				    SAHARA_VERSION_HOST, SAHARA_VERSION, 0, mode,
				    0, 0, 0, 0, 0, 0 }, 12);
}

/* The card went on without the image the host had none of. */
static void qaic_sahara_went_on_locked(struct qaic_sahara *s)
{
	lockdep_assert_held(&s->lock);
	if (s->declined == QAIC_SAHARA_NO_IMAGE)
		return;
	drm_info(&s->qdev->drm, "Sahara: the card goes on without image %u (%s, not found: %d)\n",
		 s->declined, qaic_sahara_image_name(s, s->declined), s->declined_err);
	s->skipped++;
	s->declined = QAIC_SAHARA_NO_IMAGE;
	s->reset_resp_due = false;
}

/*
 * The host has no image @id (@err from request_firmware()): RESET instead
 * of its bytes. The card knows whether it can boot without it; what it
 * does next tells.
 */
static void qaic_sahara_decline_locked(struct qaic_sahara *s, u32 id, int err)
{
	lockdep_assert_held(&s->lock);
	drm_dbg(&s->qdev->drm, "Sahara: image %u (%s) not found: %d; RESET\n", id,
		qaic_sahara_image_name(s, id), err);
	set_bit(id, s->declined_ids);
	s->declined = id;
	s->declined_err = err;
	s->reset_resp_due = true;
	qaic_sahara_send_cmd_locked(s, (const u32[]){ SAHARA_RESET, SAHARA_RESET_LEN }, 2);
}

/*
 * Open image @id for reading: 0, or -errno when the boot failed or the
 * host has no such image (RESET sent).
 */
static int qaic_sahara_open_image_locked(struct qaic_sahara *s, u64 id)
{
	int ret;

	lockdep_assert_held(&s->lock);
	if (!qaic_sahara_image_name(s, id)) {
		qaic_sahara_fail_locked(s, "the card asked for image %llu, not in the image table",
					id);
		return -EINVAL;
	}
	if (s->active == id)
		return 0;
	if (s->active != QAIC_SAHARA_NO_IMAGE) {
		qaic_sahara_fail_locked(s, "the card asked for image %llu while image %u is open",
					id, s->active);
		return -EINVAL;
	}
	/* The card needs an image the host has none of: no second RESET. */
	if (test_bit(id, s->declined_ids)) {
		qaic_sahara_fail_locked(s,
					"image %llu (%s) not found, and the card asked for it again after RESET",
					id, qaic_sahara_image_name(s, id));
		return -ENOENT;
	}
	/* A request for another image: the card went on without the last one. */
	qaic_sahara_went_on_locked(s);
	ret = firmware_request_nowarn(&s->fw, qaic_sahara_image_name(s, id), &s->mhi_dev->dev);
	if (ret) {
		qaic_sahara_decline_locked(s, id, ret);
		return ret;
	}
	s->active = id;
	return 0;
}

/*
 * Send @len bytes (at most %QAIC_SAHARA_MAX_READ) as one transfer, once the
 * card took everything sent before.
 */
static int qaic_sahara_send_window_locked(struct qaic_sahara *s, const u8 *data, size_t len)
{
	size_t done, n;
	unsigned int i;
	int ret;

	ret = qaic_sahara_wait_tx_locked(s);
	if (ret)
		return ret;
	for (i = 0, done = 0; done < len; i++, done += n) {
		n = min_t(size_t, len - done, QAIC_SAHARA_TX_CHUNK);
		memcpy(s->tx[i], data + done, n);
		ret = qaic_sahara_queue_locked(s, s->tx[i], n,
					       done + n == len ? MHI_EOT : MHI_CHAIN);
		if (ret)
			return ret;
	}
	return 0;
}

static void qaic_sahara_read_locked(struct qaic_sahara *s, u64 id, u64 offset, u64 len)
{
	size_t size, done, n;

	lockdep_assert_held(&s->lock);
	if (s->finished) {
		qaic_sahara_fail_locked(s, "the card asked for image %llu after the last image",
					id);
		return;
	}
	if (s->dump_state != QAIC_MEMDUMP_NONE && s->dump_state != QAIC_MEMDUMP_OVER) {
		qaic_sahara_fail_locked(s, "the card asked for image %llu during the memory dump",
					id);
		return;
	}
	if (qaic_sahara_open_image_locked(s, id))
		return;
	size = s->fw->size;
	if (!len || (!s->table->streams && len > QAIC_SAHARA_MAX_READ)) {
		qaic_sahara_fail_locked(s, "read of %llu bytes of image %llu (1 to %u allowed)",
					len, id,
					s->table->streams ? U32_MAX : QAIC_SAHARA_MAX_READ);
		return;
	}
	if (offset > size || len > size - offset) {
		qaic_sahara_fail_locked(s,
					"read of %llu bytes at %llu outside image %llu (%zu bytes)",
					len, offset, id, size);
		return;
	}
	/*
	 * A read larger than the buffers goes out in windows, each one
	 * transfer, the next once the card took the last: the card gathers
	 * the bytes of its read whatever transfers bring them.
	 */
	for (done = 0; done < len; done += n) {
		n = min_t(size_t, len - done, QAIC_SAHARA_MAX_READ);
		if (qaic_sahara_send_window_locked(s, s->fw->data + offset + done, n))
			return;
	}
	s->bytes += len;
}

static void qaic_sahara_end_of_image_locked(struct qaic_sahara *s, const void *pkt,
					    size_t len)
{
	u32 id, status;

	lockdep_assert_held(&s->lock);
	if (len != SAHARA_END_OF_IMAGE_LEN) {
		qaic_sahara_fail_locked(s, "END_OF_IMAGE of %zu bytes", len);
		return;
	}
	id = qaic_sahara_get(pkt, 2);
	status = qaic_sahara_get(pkt, 3);
	/* The card's word on the image the host had none of. */
	if (s->declined != QAIC_SAHARA_NO_IMAGE && id == s->declined) {
		if (status) {
			qaic_sahara_fail_locked(s,
						"image %u (%s) not found: %d, and the card cannot go on without it (status %#x)",
						id, qaic_sahara_image_name(s, id),
						s->declined_err, status);
			return;
		}
		qaic_sahara_went_on_locked(s);
		s->done_sent = true;
		qaic_sahara_send_cmd_locked(s, (const u32[]){ SAHARA_DONE, SAHARA_DONE_LEN }, 2);
		return;
	}
	/*
	 * "No image open" is QAIC_SAHARA_NO_IMAGE, itself a u32 the card can
	 * send: compare with @active only once an image is open, and name
	 * the image from the one that is.
	 */
	if (s->active == QAIC_SAHARA_NO_IMAGE) {
		qaic_sahara_fail_locked(s, "END_OF_IMAGE for image %u with no image open", id);
		return;
	}
	if (id != s->active) {
		qaic_sahara_fail_locked(s, "end of image %u, which is not open", id);
		return;
	}
	if (status) {
		qaic_sahara_fail_locked(s, "the card refused image %u (%s): status %#x",
					id, qaic_sahara_image_name(s, id), status);
		return;
	}
	qaic_sahara_close_image_locked(s);
	s->images++;
	s->done_sent = true;
	qaic_sahara_send_cmd_locked(s, (const u32[]){ SAHARA_DONE, SAHARA_DONE_LEN }, 2);
}

static void qaic_sahara_done_resp_locked(struct qaic_sahara *s, const void *pkt, size_t len)
{
	lockdep_assert_held(&s->lock);
	if (len != SAHARA_DONE_RESP_LEN) {
		qaic_sahara_fail_locked(s, "DONE_RESP of %zu bytes", len);
		return;
	}
	if (!s->done_sent) {
		qaic_sahara_fail_locked(s, "DONE_RESP with no DONE sent");
		return;
	}
	s->done_sent = false;
	if (qaic_sahara_get(pkt, 2) != SAHARA_TX_COMPLETE)
		return;		/* the next image's HELLO follows */
	s->finished = true;
	if (s->skipped)
		drm_info(&s->qdev->drm,
			 "Sahara: %u images (%zu bytes) loaded, %u not found and done without\n",
			 s->images, s->bytes, s->skipped);
	else
		drm_info(&s->qdev->drm, "Sahara: %u images (%zu bytes) loaded\n", s->images,
			 s->bytes);
}

/* Ask the card for @len bytes at @addr of its memory. */
static void qaic_memdump_read_locked(struct qaic_sahara *s, u64 addr, u64 len)
{
	lockdep_assert_held(&s->lock);
	s->dump_state = QAIC_MEMDUMP_READING;
	s->dump_addr = addr;
	s->dump_asked = len;
	qaic_sahara_send_cmd_locked(s, (const u32[]){ SAHARA_MEMORY_READ64,
				    SAHARA_MEMORY_READ64_LEN, lower_32_bits(addr),
				    upper_32_bits(addr), lower_32_bits(len),
				    upper_32_bits(len) }, 6);
}

/* The dump is over, taken or not: the card goes on once it has RESET. */
static void qaic_memdump_reset_locked(struct qaic_sahara *s)
{
	lockdep_assert_held(&s->lock);
	s->dump_state = QAIC_MEMDUMP_RESET;
	qaic_sahara_send_cmd_locked(s, (const u32[]){ SAHARA_RESET, SAHARA_RESET_LEN }, 2);
}

/* The card broke a rule of the dump: one line, no dump, the boot goes on. */
static __printf(2, 3) void qaic_memdump_abandon_locked(struct qaic_sahara *s,
							   const char *fmt, ...)
{
	struct va_format vaf;
	va_list args;

	lockdep_assert_held(&s->lock);
	va_start(args, fmt);
	vaf.fmt = fmt;
	vaf.va = &args;
	drm_err(&s->qdev->drm, "Sahara: memory dump abandoned: %pV\n", &vaf);
	va_end(args);

	qaic_memdump_free(s->dump);
	s->dump = NULL;
	qaic_memdump_reset_locked(s);
}

static void qaic_sahara_memory_debug_locked(struct qaic_sahara *s, const void *pkt, size_t len)
{
	char why[128];
	u64 table_len;

	lockdep_assert_held(&s->lock);
	if (len != SAHARA_MEMORY_DEBUG64_LEN) {
		qaic_sahara_fail_locked(s, "MEMORY_DEBUG64 of %zu bytes", len);
		return;
	}
	if (s->dump_state != QAIC_MEMDUMP_HELLO) {
		qaic_sahara_fail_locked(s, "MEMORY_DEBUG64 outside memory-debug mode");
		return;
	}
	table_len = qaic_sahara_get64(pkt, 16);
	if (qaic_memdump_check_table(table_len, why, sizeof(why))) {
		qaic_memdump_abandon_locked(s, "%s", why);
		return;
	}
	qaic_memdump_read_locked(s, qaic_sahara_get64(pkt, 8), table_len);
}

/* The card's answer to a read of the dump: the table, or a region's bytes. */
static void qaic_memdump_data_locked(struct qaic_sahara *s, const void *data, int len)
{
	char why[128];
	u64 addr, n;

	lockdep_assert_held(&s->lock);
	if (len == SAHARA_END_OF_IMAGE_LEN && s->dump_asked != SAHARA_END_OF_IMAGE_LEN &&
	    qaic_sahara_get(data, 0) == SAHARA_END_OF_IMAGE) {
		qaic_memdump_abandon_locked(s,
					    "the card refused %llu bytes at %#llx: status %#x",
						s->dump_asked, s->dump_addr,
						qaic_sahara_get(data, 3));
		return;
	}
	if (len != s->dump_asked) {
		qaic_memdump_abandon_locked(s, "%d bytes for a read of %llu at %#llx", len,
					    s->dump_asked, s->dump_addr);
		return;
	}
	if (!s->dump) {
		if (qaic_memdump_create(&s->dump, data, len, why, sizeof(why))) {
			qaic_memdump_abandon_locked(s, "%s", why);
			return;
		}
	} else {
		qaic_memdump_add(s->dump, data);
	}
	if (qaic_memdump_next(s->dump, &addr, &n)) {
		qaic_memdump_read_locked(s, addr, n);
		return;
	}
	drm_info(&s->qdev->drm, "Sahara: memory dump of %u regions, %zu bytes, in devcoredump\n",
		 qaic_memdump_regions(s->dump), qaic_memdump_size(s->dump));
	qaic_memdump_commit(s->dump, s->qdev);
	s->dump = NULL;
	qaic_memdump_reset_locked(s);
}

static void qaic_sahara_handle_locked(struct qaic_sahara *s, const void *pkt, int len)
{
	u32 cmd;

	lockdep_assert_held(&s->lock);
	if (len < 8 || qaic_sahara_get(pkt, 1) != len) {
		qaic_sahara_fail_locked(s, "malformed packet of %d bytes", len);
		return;
	}
	cmd = qaic_sahara_get(pkt, 0);
	drm_dbg(&s->qdev->drm, "Sahara: command %#x, %d bytes\n", cmd, len);
	if (s->finished && cmd != SAHARA_READ_DATA && cmd != SAHARA_READ_DATA64) {
		qaic_sahara_fail_locked(s, "command %#x after the last image", cmd);
		return;
	}
	if (s->done_sent && cmd != SAHARA_DONE_RESP) {
		qaic_sahara_fail_locked(s, "command %#x where DONE_RESP was due", cmd);
		return;
	}

	switch (cmd) {
	case SAHARA_HELLO:
		qaic_sahara_hello_locked(s, pkt, len);
		break;
	case SAHARA_READ_DATA:
		if (len != SAHARA_READ_DATA_LEN) {
			qaic_sahara_fail_locked(s, "READ_DATA of %d bytes", len);
			break;
		}
		qaic_sahara_read_locked(s, qaic_sahara_get(pkt, 2), qaic_sahara_get(pkt, 3),
					qaic_sahara_get(pkt, 4));
		break;
	case SAHARA_READ_DATA64:
		if (len != SAHARA_READ_DATA64_LEN) {
			qaic_sahara_fail_locked(s, "READ_DATA64 of %d bytes", len);
			break;
		}
		qaic_sahara_read_locked(s, qaic_sahara_get64(pkt, 8), qaic_sahara_get64(pkt, 16),
					qaic_sahara_get64(pkt, 24));
		break;
	case SAHARA_END_OF_IMAGE:
		qaic_sahara_end_of_image_locked(s, pkt, len);
		break;
	case SAHARA_DONE_RESP:
		qaic_sahara_done_resp_locked(s, pkt, len);
		break;
	case SAHARA_MEMORY_DEBUG64:
		qaic_sahara_memory_debug_locked(s, pkt, len);
		break;
	case SAHARA_RESET_RESP:
		if (len != SAHARA_RESET_LEN ||
		    (!s->reset_resp_due && s->dump_state != QAIC_MEMDUMP_RESET)) {
			qaic_sahara_fail_locked(s, "unexpected RESET_RESP of %d bytes", len);
			break;
		}
		if (s->reset_resp_due)
			s->reset_resp_due = false;
		else
			s->dump_state = QAIC_MEMDUMP_OVER;
		break;
	default:
		qaic_sahara_fail_locked(s, "unexpected command %#x", cmd);
		break;
	}
}

static void qaic_sahara_rx_work(struct work_struct *work)
{
	struct qaic_sahara *s = container_of(work, struct qaic_sahara, rx_work);
	int ret;

	guard(mutex)(&s->lock);
	if (s->failed || READ_ONCE(s->stopping))
		return;
	if (s->rx_len < 0)
		qaic_sahara_fail_locked(s, "packet over %u bytes", QAIC_SAHARA_RX_LEN);
	else if (s->dump_state == QAIC_MEMDUMP_READING)
		qaic_memdump_data_locked(s, s->rx, s->rx_len);
	else
		qaic_sahara_handle_locked(s, s->rx, s->rx_len);
	if (s->failed)
		return;

	/*
	 * The channel goes away when the card leaves SBL: after the last
	 * image, or when the MHI core saw it go elsewhere. Either way
	 * qaic_mhi.c watches for mission mode from here on; a request the
	 * card still makes after the last image is refused if it arrives.
	 */
	ret = mhi_queue_buf(s->mhi_dev, DMA_FROM_DEVICE, s->rx, QAIC_SAHARA_RX_LEN, MHI_EOT);
	if (ret || s->finished) {
		if (ret)
			drm_dbg(&s->qdev->drm, "Sahara: channel gone: %d\n", ret);
		cancel_delayed_work(&s->timeout_work);
		return;
	}
	mod_delayed_work(system_percpu_wq, &s->timeout_work, qaic_sahara_timeout());
}

static void qaic_sahara_timeout_work(struct work_struct *work)
{
	struct qaic_sahara *s = container_of(to_delayed_work(work), struct qaic_sahara,
					     timeout_work);

	guard(mutex)(&s->lock);
	if (s->failed || READ_ONCE(s->stopping) || s->finished)
		return;
	if (s->declined != QAIC_SAHARA_NO_IMAGE)
		qaic_sahara_fail_locked(s,
					"the card was silent for %u ms after RESET for image %u (%s, not found: %d)",
					sahara_timeout_ms, s->declined,
					qaic_sahara_image_name(s, s->declined), s->declined_err);
	else
		qaic_sahara_fail_locked(s, "the card was silent for %u ms", sahara_timeout_ms);
}

static void qaic_sahara_ul_xfer_cb(struct mhi_device *mhi_dev, struct mhi_result *result)
{
	struct qaic_sahara *s = dev_get_drvdata(&mhi_dev->dev);

	if (atomic_dec_and_test(&s->tx_pending))
		wake_up(&s->tx_wq);
}

static void qaic_sahara_dl_xfer_cb(struct mhi_device *mhi_dev, struct mhi_result *result)
{
	struct qaic_sahara *s = dev_get_drvdata(&mhi_dev->dev);

	/* -ENOTCONN: the channel is going away; the buffer is ours again. */
	if (result->transaction_status == -ENOTCONN)
		return;
	s->rx_len = result->transaction_status ? result->transaction_status :
						 (int)result->bytes_xferd;
	queue_work(system_percpu_wq, &s->rx_work);
}

static int qaic_sahara_probe(struct mhi_device *mhi_dev, const struct mhi_device_id *id)
{
	struct qaic_device *qdev = qaic_mhi_to_qdev(mhi_dev->mhi_cntrl);
	struct device *dev = &mhi_dev->dev;
	struct qaic_sahara *s;
	unsigned int i;
	int ret;

	if (!qdev)
		return -ENODEV;
	/* QAIC_SAHARA runs in SBL only: the MHI core loaded it. */
	drm_info(&qdev->drm, "card runs SBL, loaded over %s; serving its images over Sahara\n",
		 qdev->card->sbl_seg_len ? "BHIe" : "BHI");

	s = devm_kzalloc(dev, sizeof(*s), GFP_KERNEL);
	if (!s)
		return -ENOMEM;
	s->table = qaic_sahara_table_of(qdev->pdev->device);
	if (!s->table) {
		qaic_mhi_boot_fail(qdev, "Sahara: no image table for device %#x",
				   qdev->pdev->device);
		return -ENODEV;
	}
	s->declined_ids = devm_bitmap_zalloc(dev, s->table->count, GFP_KERNEL);
	if (!s->declined_ids)
		return -ENOMEM;
	s->rx = devm_kzalloc(dev, QAIC_SAHARA_RX_LEN, GFP_KERNEL);
	s->cmd = devm_kzalloc(dev, SAHARA_HELLO_LEN, GFP_KERNEL);
	if (!s->rx || !s->cmd)
		return -ENOMEM;
	for (i = 0; i < QAIC_SAHARA_NR_TX; i++) {
		s->tx[i] = devm_kmalloc(dev, QAIC_SAHARA_TX_CHUNK, GFP_KERNEL);
		if (!s->tx[i])
			return -ENOMEM;
	}
	ret = devm_mutex_init(dev, &s->lock);
	if (ret)
		return ret;

	s->mhi_dev = mhi_dev;
	s->qdev = qdev;
	s->active = QAIC_SAHARA_NO_IMAGE;
	s->declined = QAIC_SAHARA_NO_IMAGE;
	atomic_set(&s->tx_pending, 0);
	init_waitqueue_head(&s->tx_wq);
	INIT_WORK(&s->rx_work, qaic_sahara_rx_work);
	INIT_DELAYED_WORK(&s->timeout_work, qaic_sahara_timeout_work);
	dev_set_drvdata(dev, s);

	ret = mhi_prepare_for_transfer(mhi_dev);
	if (ret) {
		qaic_mhi_boot_fail(qdev, "Sahara: channel not started: %d", ret);
		return ret;
	}
	ret = mhi_queue_buf(mhi_dev, DMA_FROM_DEVICE, s->rx, QAIC_SAHARA_RX_LEN, MHI_EOT);
	if (ret) {
		mhi_unprepare_from_transfer(mhi_dev);
		qaic_mhi_boot_fail(qdev, "Sahara: receive buffer not queued: %d", ret);
		return ret;
	}
	/* The card speaks first. */
	schedule_delayed_work(&s->timeout_work, qaic_sahara_timeout());
	return 0;
}

static void qaic_sahara_remove(struct mhi_device *mhi_dev)
{
	struct qaic_sahara *s = dev_get_drvdata(&mhi_dev->dev);

	/*
	 * Before the lock: a read under way stops at its next window, then
	 * the handler lets the lock go, and queues nothing more.
	 */
	WRITE_ONCE(s->stopping, true);
	wake_up_all(&s->tx_wq);
	mutex_lock(&s->lock);
	mutex_unlock(&s->lock);

	/* Gives every queued buffer back; no callback runs after this. */
	mhi_unprepare_from_transfer(mhi_dev);
	cancel_work_sync(&s->rx_work);
	cancel_delayed_work_sync(&s->timeout_work);

	mutex_lock(&s->lock);
	qaic_sahara_close_image_locked(s);
	qaic_memdump_free(s->dump);
	s->dump = NULL;
	mutex_unlock(&s->lock);
}

static const struct mhi_device_id qaic_sahara_ids[] = {
	{ .chan = "QAIC_SAHARA" },
	{}
};

static struct mhi_driver qaic_sahara_driver = {
	.id_table = qaic_sahara_ids,
	.probe = qaic_sahara_probe,
	.remove = qaic_sahara_remove,
	.ul_xfer_cb = qaic_sahara_ul_xfer_cb,
	.dl_xfer_cb = qaic_sahara_dl_xfer_cb,
	.driver = {
		.name = "qaic_sahara",
	},
};

/**
 * qaic_sahara_register() - Register the QAIC_SAHARA driver with the MHI bus.
 *
 * Return: 0 or a negative errno.
 */
int qaic_sahara_register(void)
{
	return mhi_driver_register(&qaic_sahara_driver);
}

/**
 * qaic_sahara_unregister() - Unregister the QAIC_SAHARA driver.
 */
void qaic_sahara_unregister(void)
{
	mhi_driver_unregister(&qaic_sahara_driver);
}
