/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The on-card manager: the firmware behind the QAIC_CONTROL MHI channel that
 * answers NNC control messages (status, passthrough, DMA transfer into device
 * memory, activate / deactivate DBC, terminate).
 *
 * The MHI device model (mhi.c) hands it each message the host queued on the
 * QAIC_CONTROL uplink channel and sends what it returns on the downlink one.
 * The manager never trusts a length: a malformed message gets an error
 * answer, never a crash.
 *
 * Copyright (c) 2026 The qaic authors.
 */
#ifndef QAIC_EMU_MANAGER_H
#define QAIC_EMU_MANAGER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct emu_timesync_counters;

struct emu_device;
struct emu_manager;

/*
 * Passthrough requests the emulated manager understands, beside the
 * firmware's NNC commands (nnc_fw.h). The payload of a passthrough
 * transaction starts with struct emu_pt_req (little endian). Its op is
 * EMU_PT_BASE plus a small number, far above every NNC command type (below
 * EMU_NNC_FW_CMD_MAX), so the first word of a payload says which of the
 * two it is: a test facility never takes a command the vendor's runtime
 * sends, and the runtime's commands never reach a test facility.
 */
#define EMU_PT_BASE		0x51450000u	/* "\0\0EQ" */
#define EMU_PT_ECHO		(EMU_PT_BASE + 1)	/* answer: the payload, unchanged */
#define EMU_PT_XFER_SUM		(EMU_PT_BASE + 2)	/* answer: struct emu_pt_xfer_sum for tag arg */
/*
 * Announce the size of the next DMA transfer with tag arg: a u64 byte
 * count follows struct emu_pt_req. A continued transfer (non-zero chunk
 * id) with such an announcement is asked for more (DMA_XFER_CONT) until
 * that many bytes arrived; without one the manager guesses from the part's
 * length (see tests/emu/manual.rst). Answer: struct
 * emu_pt_status.
 */
#define EMU_PT_XFER_EXPECT	(EMU_PT_BASE + 3)
/*
 * Release DBC arg, which the message's handle activated, as the real
 * firmware does on its own (opaque) deactivate request. Answer: struct
 * emu_pt_status, then a DEACTIVATE_FROM_DEV transaction when arg names a
 * DBC (arg < EMU_NUM_DBC), which the host needs to free the rings.
 */
#define EMU_PT_DEACTIVATE	(EMU_PT_BASE + 4)
/*
 * Fault injection from inside the guest: DBC arg (active, any owner) stops
 * processing, so the request at its REQHP is never completed, until the
 * host resets the channel (see dbc.h, "Channel reset"). One-shot: the
 * reset clears it. An optional le32 after struct emu_pt_req, late_ms
 * (0..EMU_PT_CARD_MAX_MS), makes the DBC fetch that request and carry out
 * its transfer late_ms after the host's reset, or when the DBC is
 * released first. Answer: struct emu_pt_status, EMU_PT_E_DBC if arg >=
 * EMU_NUM_DBC or the DBC is not active, EMU_PT_E_RANGE for a bad late_ms.
 */
#define EMU_PT_HANG_DBC		(EMU_PT_BASE + 5)
/*
 * The counters of DBC arg (struct emu_dbc_counters of dbc.h; active or
 * not, they persist). Answer: struct emu_pt_dbc_counters, EMU_PT_E_DBC if
 * arg >= EMU_NUM_DBC.
 */
#define EMU_PT_DBC_COUNTERS	(EMU_PT_BASE + 6)
/*
 * The emulator's own memcpy() bandwidth, what the driver's DMA bandwidth
 * is compared to: arg MiB (1..EMU_PT_MEMCPY_BW_MAX_MIB) are copied
 * between two buffers of the emulator's, allocated and touched first,
 * EMU_PT_MEMCPY_BW_COPIES times under clock_gettime(CLOCK_MONOTONIC).
 * Answer: struct emu_pt_memcpy_bw, EMU_PT_E_RANGE for a bad arg,
 * EMU_PT_E_NO_MEM if the buffers cannot be had.
 */
#define EMU_PT_MEMCPY_BW	(EMU_PT_BASE + 7)
#define EMU_PT_MEMCPY_BW_MAX_MIB	1024
#define EMU_PT_MEMCPY_BW_COPIES		4
/*
 * Fault injection from inside the guest: DBC arg (any DBC, active or not)
 * from now on drops every drop_every-th response, gives every
 * corrupt_every-th one the status corrupt_status and reports REQHP
 * reqhp_lag entries behind the truth, and, if msi_off is there and not 0,
 * sends no completion MSI (struct emu_pt_faults follows struct
 * emu_pt_req; 0 turns a fault off), as --drop-dbc-rsp and
 * --corrupt-dbc-rsp do for the first two. The settings outlive releases of the DBC. Answer:
 * struct emu_pt_status, EMU_PT_E_DBC if arg >= EMU_NUM_DBC,
 * EMU_PT_E_SHORT without the parameters.
 */
#define EMU_PT_DBC_FAULTS	(EMU_PT_BASE + 8)
/*
 * The card crashes (MHI SYS_ERROR) arg milliseconds from now (1..60000),
 * after this answer went out. Answer: struct emu_pt_status, EMU_PT_E_RANGE
 * for another arg or a card that cannot crash.
 */
#define EMU_PT_SYS_ERROR	(EMU_PT_BASE + 9)
/*
 * The card falls off the bus arg milliseconds from now (1..60000), after
 * this answer went out, for good: config and BAR reads return all-ones,
 * writes are lost, no MSI, no DMA; what a host sees of a card pulled out
 * of its slot before the PCI core removes it. (Dropping the vhost-user
 * connection instead makes UML's virtio_uml WARN and its virt-pci crash.)
 * Answer: as EMU_PT_SYS_ERROR.
 */
#define EMU_PT_VANISH		(EMU_PT_BASE + 10)
#define EMU_PT_CARD_MAX_MS	60000
/*
 * The manager goes silent after this answer: it answers no message until
 * it is reset (the card's MHI reset, a SoC reset, a function-level reset),
 * as a card whose firmware hung. Answer: struct emu_pt_status.
 */
#define EMU_PT_SILENCE		(EMU_PT_BASE + 11)
/*
 * The subsystem behind active DBC arg crashes and restarts (ssr.h): the
 * DBC's workload is dropped at once, the card then walks the host through
 * the SSR events, and grants the DBC again only after the last one. Any
 * user may do it to any DBC (a test facility). A u32 after the request is
 * the enum emu_ssr_mode (default EMU_SSR_NORMAL; a u32 follows, as a
 * transaction is whole 8-byte words: padding, but for EMU_SSR_FLOOD the
 * number of restarts in a row, 1..EMU_SSR_MAX_CYCLES); EMU_SSR_RESUME
 * continues a stalled SSR and needs no active DBC. Answer: struct emu_pt_status,
 * EMU_PT_E_DBC for a DBC that is not active (or under SSR), EMU_PT_E_RANGE
 * for a bad mode or a card that cannot, EMU_PT_E_BUSY if an SSR runs.
 */
#define EMU_PT_SSR		(EMU_PT_BASE + 12)
/*
 * The time syncs the card saw (timesync.h): how often it asked for the
 * time, the TS_SYNC_REQs it found good and bad on QAIC_TIMESYNC and on
 * QAIC_TIMESYNC_PERIODIC, and how far the last good one was from its own
 * clock. arg is not used. Answer: struct emu_pt_timesync, EMU_PT_E_RANGE
 * from a card without time sync.
 */
#define EMU_PT_TIMESYNC		(EMU_PT_BASE + 13)
/*
 * The card pushes a RAS report on QAIC_STATUS (ras.h): arg = source
 * (0..6), then u32 err_type (0 correctable, 1 uncorrectable, 2
 * uncorrectable non-fatal) and u32 flaw (enum emu_ras_flaw, 0 for a
 * well-formed report). A test facility. Answer: struct emu_pt_status,
 * EMU_PT_E_SHORT without the two words, EMU_PT_E_RANGE for values out of
 * range or a card that cannot.
 */
#define EMU_PT_RAS		(EMU_PT_BASE + 14)
/*
 * Device time of DBC arg: u32 nanoseconds each request takes, counted
 * from the doorbell (0, the default: requests complete within the REQTP
 * write), at most EMU_PT_DBC_TIMING_MAX_NS. A test and benchmark facility,
 * like EMU_PT_DBC_FAULTS. Answer: struct emu_pt_status, EMU_PT_E_SHORT
 * without the word, EMU_PT_E_RANGE above the limit, EMU_PT_E_DBC if arg >=
 * EMU_NUM_DBC.
 */
#define EMU_PT_DBC_TIMING	(EMU_PT_BASE + 17)
#define EMU_PT_DBC_TIMING_MAX_NS	1000000000u
/*
 * The card sends systematic case arg of a table of crafted messages: u32
 * after the request, enum emu_card_case_table (ssr_cases.h, ras_cases.h,
 * timesync_cases.h, bootlog_cases.h, dbc_cases.h, nnc_cases.h,
 * bhi_cases.h, mhi_cases.h), and a u32 pad. A test facility: it goes out whatever the card is doing.
 * Answer: struct emu_pt_status, EMU_PT_E_SHORT without the word,
 * EMU_PT_E_RANGE for no such case or table, or a card that cannot.
 */
#define EMU_PT_CARD_CASE	(EMU_PT_BASE + 18)
/*
 * The manager turns slow: every answer after this one goes out arg
 * milliseconds (0..EMU_PT_CARD_MAX_MS; 0: at once again) after its
 * message came, in order, until the card is reset. A test facility: a
 * card that answers, late. Answer: struct emu_pt_status, EMU_PT_E_RANGE
 * for another arg or a card that cannot.
 */
#define EMU_PT_ANSWER_DELAY	(EMU_PT_BASE + 19)
/*
 * How the card answers its telemetry requests on QAIC_TELEMETRY
 * (telemetry.h): arg = mode, enum emu_telemetry_mode, until changed or
 * the card resets (MHI reset, SoC reset, crash): 0 normal, 1 silent (every
 * request dropped), 2 garbage (23 bytes, magic 0xaa55), 3 late (each
 * answer 3000 ms after its request), 4 status -3, 5 seq_num + 1, 6 absurd
 * values (100000 C, -5 W), 7 short (the 12-byte header only). A test
 * facility. Answer: struct emu_pt_status, EMU_PT_E_RANGE for another mode
 * or a card without telemetry.
 */
#define EMU_PT_TELEMETRY	(EMU_PT_BASE + 20)
/*
 * Where DBC arg's jobs spent their time, as the card saw it: the sums of
 * struct emu_dbc_counters' card_ns, rsps_timed, idle_ns and idles (they
 * go on across activations, as the other counters do), for benchmarks to split a job's latency into the
 * card's part and the host's. A benchmark facility. Answer: struct
 * emu_pt_dbc_times, EMU_PT_E_DBC if arg >= EMU_NUM_DBC.
 */
#define EMU_PT_DBC_TIMES	(EMU_PT_BASE + 21)

enum emu_card_case_table {
	EMU_CARD_CASE_SSR,
	EMU_CARD_CASE_RAS,
	EMU_CARD_CASE_TIMESYNC,	/* the QTimer held (timesync_cases.h) */
	EMU_CARD_CASE_BOOTLOG,	/* armed for the next boot (bootlog_cases.h) */
	EMU_CARD_CASE_DBC,	/* the next response or REQHP read (dbc_cases.h) */
	EMU_CARD_CASE_NNC,	/* an answer to a later message (nnc_cases.h) */
	EMU_CARD_CASE_BHI,	/* armed for the next boot (bhi_cases.h) */
	EMU_CARD_CASE_MHI,	/* one event, at once (mhi_cases.h) */
};

struct emu_pt_faults {
	uint32_t drop_every;
	uint32_t corrupt_every;
	uint32_t corrupt_status;	/* low 16 bits */
	uint32_t reqhp_lag;
	uint32_t msi_off;	/* optional: a shorter payload leaves MSIs on */
	uint32_t pad;		/* whole 8-byte words */
};

struct emu_pt_req {
	uint32_t op;
	uint32_t arg;
	/* op-specific bytes follow */
};

/* What the device received by DMA transfer for one tag so far. */
struct emu_pt_xfer_sum {
	uint32_t op;		/* EMU_PT_XFER_SUM */
	uint32_t tag;
	uint64_t bytes;		/* bytes received for the tag */
	uint32_t crc32;		/* zlib crc32 of those bytes, in order */
	uint32_t status;	/* 0, or 1 if the tag is unknown */
};

/* Answer of EMU_PT_XFER_EXPECT, EMU_PT_DEACTIVATE and of any refused request. */
struct emu_pt_status {
	uint32_t op;		/* the request's op */
	uint32_t arg;		/* the request's arg */
	uint32_t status;	/* EMU_PT_OK or EMU_PT_E_* */
	uint32_t pad;
};

/*
 * Answer of EMU_PT_DBC_COUNTERS, 136 bytes; the fields are those of struct
 * emu_dbc_counters, all 0 when status is not EMU_PT_OK.
 */
struct emu_pt_dbc_counters {
	uint32_t op;		/* EMU_PT_DBC_COUNTERS */
	uint32_t arg;		/* the DBC */
	uint32_t status;	/* EMU_PT_OK or EMU_PT_E_DBC */
	uint32_t pad;
	uint64_t reg_reads[4];	/* REQHP, REQTP, RSPHP, RSPTP */
	uint64_t reg_writes[4];
	uint64_t requests;
	uint64_t responses;
	uint64_t dma_to_dev_bytes;
	uint64_t dma_from_dev_bytes;
	uint64_t irqs;
	uint64_t errors;
	uint64_t resets;
	uint64_t late_xfers;	/* fetched requests carried out after a reset */
};

/* Answer of EMU_PT_DBC_TIMES, 48 bytes; all 0 when status is not EMU_PT_OK. */
struct emu_pt_dbc_times {
	uint32_t op;		/* EMU_PT_DBC_TIMES */
	uint32_t arg;		/* the DBC */
	uint32_t status;	/* EMU_PT_OK or EMU_PT_E_DBC */
	uint32_t pad;
	uint64_t card_ns;	/* sum, over responses, of doorbell -> response */
	uint64_t rsps_timed;	/* responses in card_ns */
	uint64_t idle_ns;	/* sum of ring emptied by a response -> next doorbell */
	uint64_t idles;		/* times the ring ran out of announced requests */
};

/* Answer of EMU_PT_TIMESYNC, 64 bytes; all 0 when status is not EMU_PT_OK. */
struct emu_pt_timesync {
	uint32_t op;		/* EMU_PT_TIMESYNC */
	uint32_t arg;
	uint32_t status;	/* EMU_PT_OK or EMU_PT_E_RANGE */
	uint32_t pad;
	uint64_t asked;		/* TS_CMD_TO_HOST sent */
	uint64_t boot_good;
	uint64_t boot_bad;
	uint64_t periodic_good;
	uint64_t periodic_bad;
	int64_t last_skew_us;	/* host time - card time, microseconds */
};

/*
 * Answer of EMU_PT_MEMCPY_BW, 32 bytes: bytes copied in the timed part
 * (EMU_PT_MEMCPY_BW_COPIES * arg MiB) and the nanoseconds it took (at
 * least 1); both 0 when status is not EMU_PT_OK.
 */
struct emu_pt_memcpy_bw {
	uint32_t op;		/* EMU_PT_MEMCPY_BW */
	uint32_t arg;		/* MiB per copy */
	uint32_t status;	/* EMU_PT_OK, EMU_PT_E_RANGE, EMU_PT_E_NO_MEM */
	uint32_t pad;
	uint64_t bytes;
	uint64_t ns;
};

#define EMU_PT_OK		0
#define EMU_PT_E_NO_TAG		1	/* XFER_SUM: no transfer with this tag */
#define EMU_PT_E_UNKNOWN_OP	2
#define EMU_PT_E_SHORT		3	/* payload shorter than the op needs */
#define EMU_PT_E_TOO_BIG	4	/* the answer would not fit 4 KiB */
#define EMU_PT_E_DBC		5	/* no such DBC; DEACTIVATE: not ours;
					 * HANG_DBC: not active */
#define EMU_PT_E_NO_ROOM	6	/* XFER_EXPECT: tag table full */
#define EMU_PT_E_RANGE		7	/* MEMCPY_BW: arg out of range */
#define EMU_PT_E_NO_MEM		8	/* MEMCPY_BW: the emulator is out of memory */
#define EMU_PT_E_BUSY		9	/* SSR: another one runs */

/*
 * Status codes the manager puts in the status field of STATUS_FROM_DEV,
 * ACTIVATE_FROM_DEV, DEACTIVATE_FROM_DEV, TERMINATE_FROM_DEV and
 * VALIDATE_PARTITION_FROM_DEV answers. 0 is success; the others are the
 * emulator's own (the real firmware's values are not public).
 */
#define EMU_NNC_OK		0
#define EMU_NNC_E_MALFORMED	1	/* lengths, count, padding */
#define EMU_NNC_E_TYPE		2	/* unknown or device-only transaction type */
#define EMU_NNC_E_CRC		3	/* CRC on and the message's CRC is wrong */
#define EMU_NNC_E_RANGE		4	/* a field out of range */
#define EMU_NNC_E_DMA		5	/* a DMA segment outside host memory */
#define EMU_NNC_E_NO_MEM	6	/* device memory or tag table full */
#define EMU_NNC_E_NO_DBC	7	/* activate: every DBC is in use */
#define EMU_NNC_E_CHUNK		8	/* continuation: part with another tag */
#define EMU_NNC_E_TOO_BIG	9	/* the answer would not fit 4 KiB */

/* NNC protocol version the manager speaks. */
#define EMU_NNC_MAJOR		5
#define EMU_NNC_MINOR		0

/* DMA Bridge Channels of AIC100 and the sizes of their ring elements. */
#define EMU_NUM_DBC		16
#define EMU_DBC_REQ_ELEM	64
#define EMU_DBC_RSP_ELEM	4

/* Device memory DMA transfers fill, by default. */
#define EMU_MGR_DEFAULT_MEM	(64ull << 20)

/* A DBC as the host's activate set it up; for the DBC engine. */
struct emu_dbc_cfg {
	bool active;
	uint32_t owner;		/* handle of the user that activated it */
	int32_t partition_id;	/* of the activate message */
	uint64_t req_q_addr;	/* host request ring, nelem * 64 bytes */
	uint64_t rsp_q_addr;	/* host response ring, nelem * 4 bytes */
	uint32_t nelem;		/* elements in each ring */
	uint32_t buf_len;	/* bytes of the host allocation holding both */
	uint32_t options;	/* as the host sent them */
};

struct emu_manager *emu_manager_create(struct emu_device *dev);
void emu_manager_destroy(struct emu_manager *mgr);

/*
 * Handle one message from the host; write the answer (a complete NNC wire
 * message) into @rsp, at most @cap bytes. Returns the answer's length, or 0
 * when there is nothing to send. DMA transfers read host memory with
 * emu_dma_read() on the device given at create.
 */
size_t emu_manager_handle(struct emu_manager *mgr, const void *req, size_t len,
			  void *rsp, size_t cap);

/* The host reset the device (MHI reset, SYS_ERROR): drop all state. */
void emu_manager_reset(struct emu_manager *mgr);

/*
 * Message CRCs (status_flags bit 0): off by default. When on, requests with
 * a wrong CRC are refused and answers carry one.
 */
void emu_manager_set_crc(struct emu_manager *mgr, bool on);

/*
 * The serial and board serial the firmware's status answer gives
 * (nnc_fw.h), cut to fit; NULL or "": the card type's default. Kept
 * across resets: they are the card's.
 */
void emu_manager_set_fw_ident(struct emu_manager *mgr, const char *serial,
			      const char *board_serial);

/*
 * Device memory that DMA transfers and the firmware's loaded programs and
 * constants (nnc_fw.h) may fill, in bytes (default EMU_MGR_DEFAULT_MEM).
 * Allocated as transfers arrive. Takes effect for later transfers; bytes
 * already held are kept.
 */
void emu_manager_set_mem_size(struct emu_manager *mgr, uint64_t bytes);

/* DBC @id (< EMU_NUM_DBC), or NULL. Valid until the next call into @mgr. */
const struct emu_dbc_cfg *emu_manager_dbc(struct emu_manager *mgr,
					  unsigned int id);

struct emu_dbc_counters;

/*
 * What the manager needs of the DBC engine (dbc.c); any member may be
 * NULL. @ctx of emu_manager_set_dbc_ops() is passed to each.
 */
struct emu_dbc_ops {
	/*
	 * DBC @id was activated (@active true, its config already set) or
	 * released (deactivate, terminate, abort, reset).
	 */
	void (*changed)(void *ctx, unsigned int id, bool active);
	/* EMU_PT_HANG_DBC: arm DBC @id's one-shot hang. 0 or -errno. */
	int (*hang_once)(void *ctx, unsigned int id, uint32_t late_ms);
	/*
	 * EMU_PT_DBC_COUNTERS: DBC @id's counters into @out, without
	 * counting anything itself. 0 or -errno.
	 */
	int (*get_counters)(void *ctx, unsigned int id,
			    struct emu_dbc_counters *out);
	/* EMU_PT_DBC_TIMING: DBC @id's device time per request. 0 or -errno. */
	int (*set_timing)(void *ctx, unsigned int id, uint32_t req_ns);
	/* EMU_PT_DBC_FAULTS: set DBC @id's response faults. 0 or -errno. */
	int (*set_faults)(void *ctx, unsigned int id, uint32_t drop_every,
			  uint32_t corrupt_every, uint16_t corrupt_status,
			  uint32_t reqhp_lag, bool msi_off);
	/*
	 * The firmware places an activated image in device memory: @len
	 * bytes at @addr. 0, or -errno outside device memory.
	 */
	int (*write_mem)(void *ctx, uint64_t addr, const void *buf, uint64_t len);
};

/*
 * Connect the DBC engine: @ops (kept, not copied) and @ctx. NULL @ops:
 * none; then EMU_PT_HANG_DBC and EMU_PT_DBC_COUNTERS answer EMU_PT_E_DBC.
 */
void emu_manager_set_dbc_ops(struct emu_manager *mgr,
			     const struct emu_dbc_ops *ops, void *ctx);

/*
 * What the manager needs of the card around it, for the passthroughs that
 * act on the whole card; any member may be NULL (the request then answers
 * EMU_PT_E_RANGE). @ctx of emu_manager_set_card_ops() is passed to each.
 */
struct emu_card_ops {
	/* EMU_PT_SYS_ERROR: the card crashes @ms milliseconds from now. */
	void (*sys_error)(void *ctx, unsigned int ms);
	/* EMU_PT_VANISH: the card falls off the bus @ms milliseconds from now. */
	void (*vanish)(void *ctx, unsigned int ms);
	/*
	 * EMU_PT_SSR: DBC @dbc's subsystem restarts (its workload already
	 * dropped), @cycles times for EMU_SSR_FLOOD, or a stalled restart
	 * goes on. 0 or -errno as emu_ssr_start_cycles().
	 */
	int (*ssr)(void *ctx, unsigned int dbc, unsigned int mode,
		   unsigned int cycles);
	/* EMU_PT_RAS: one RAS report. 0 or -errno as emu_ras_report(). */
	int (*ras)(void *ctx, unsigned int source, unsigned int type,
		   unsigned int flaw);
	/* EMU_PT_CARD_CASE: a systematic case; 0 or -EINVAL. */
	int (*card_case)(void *ctx, unsigned int table, unsigned int idx);
	/* EMU_PT_TIMESYNC: the card's time sync counters into @out. */
	void (*timesync)(void *ctx, struct emu_timesync_counters *out);
	/* EMU_PT_ANSWER_DELAY: later answers go out @ms after their message. */
	void (*answer_delay)(void *ctx, unsigned int ms);
	/* EMU_PT_TELEMETRY: the telemetry fault mode. 0 or -EINVAL. */
	int (*telemetry)(void *ctx, unsigned int mode);
};

/*
 * DBC @id's subsystem is back from an EMU_PT_SSR: it can be granted
 * again. A card reset does the same for every DBC.
 */
void emu_manager_ssr_done(struct emu_manager *mgr, unsigned int id);

void emu_manager_set_card_ops(struct emu_manager *mgr,
			      const struct emu_card_ops *ops, void *ctx);

/*
 * The bytes DMA transfers delivered for (@handle, @tag), in order, or NULL
 * if there are none. *@len gets their count. Valid until the next call.
 */
const void *emu_manager_tag_data(struct emu_manager *mgr, uint32_t handle,
				 uint32_t tag, uint64_t *len);

struct emu_nnc_fw;

/* The firmware's programs, constants and activations (nnc_fw.h). */
struct emu_nnc_fw *emu_manager_fw(struct emu_manager *mgr);

/* "key value" lines: nnc_msgs, nnc_bad_msgs, nnc_dma_bytes, ..., fw_* */
void emu_manager_print_counters(struct emu_manager *mgr, FILE *out);

#endif /* QAIC_EMU_MANAGER_H */
