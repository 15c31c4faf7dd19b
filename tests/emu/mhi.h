/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The device side of MHI (Modem Host Interface) on BAR0 of the emulated
 * AIC100: the MHI and BHI registers, the MHI state machine (RESET -> READY
 * -> M0 in mission mode, M3, SYS_ERROR), the command ring, event rings and
 * one transfer ring per channel the host starts, all in host memory.
 *
 * The card powers on either already running its mission-mode firmware
 * (BHI EXECENV = AMSS, the default of emu_mhi_create()), or, like a real
 * AIC100, in its primary boot loader (PBL): the host then loads SBL
 * through BHI (bhi.h), SBL serves Sahara on QAIC_SAHARA (sahara.h), and
 * once every image is in the card enters AMSS. The QAIC_CONTROL channel
 * pair carries the on-card manager (manager.h): each
 * message the host queues on the uplink channel is handed to it and its
 * answer is written into the next buffer the host queued on the downlink
 * channel. QAIC_SSR (ssr.h), QAIC_STATUS (ras.h), QAIC_LOGGING (bootlog.h),
 * the time sync pairs (timesync.h), IPCR (qrtr.h) and QAIC_TELEMETRY
 * (telemetry.h) carry the protocols of their files. Every other channel
 * starts, stops, completes uplink buffers and keeps downlink buffers, and
 * says nothing.
 *
 * Everything the host writes (context arrays, ring bases and sizes, write
 * pointers, ring elements) is untrusted: bad values are counted and skipped,
 * never fatal, and no loop runs longer than one ring.
 *
 * Threading: runs on the transport's thread. Doorbells are processed
 * synchronously inside the BAR0 write that rang them; reads never do more
 * than look at registers.
 *
 * Copyright (c) 2026 The qaic authors.
 */
#ifndef QAIC_EMU_MHI_H
#define QAIC_EMU_MHI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct emu_bhi;
struct emu_device;
struct emu_manager;
struct emu_memdump;
struct emu_mhi;
struct emu_qrtr;
struct emu_sahara;

/* Where the card starts at power-on and after a SoC reset. */
enum emu_mhi_boot {
	EMU_MHI_BOOT_AMSS,	/* mission mode: nothing to load */
	EMU_MHI_BOOT_PBL,	/* PBL: SBL over BHI, then Sahara */
};

/* Register layout of BAR0 (offsets the host discovers by reading them). */
#define EMU_MHI_REGLEN		0x1000
#define EMU_MHI_VERSION		0x01000000	/* MHI 1.0 */
#define EMU_MHI_BHI_OFF		0x100
#define EMU_MHI_BHIE_OFF	0x300
#define EMU_MHI_CHDB_OFF	0x400		/* 128 channels x 8 bytes */
#define EMU_MHI_ERDB_OFF	0x800		/* event rings x 8 bytes */
#define EMU_MHI_SOC_HW_VERSION_OFF 0x224
#define EMU_MHI_SOC_HW_VERSION	0x60110200	/* AIC100 */
#define EMU_MHI_SOC_RESET_OFF	0xb0

#define EMU_MHI_MAX_CHANNELS	128		/* MHICFG.NCH */
#define EMU_MHI_MAX_EV_RINGS	32		/* MHICFG.NER upper bound */
#define EMU_MHI_WAKE_DB		127		/* channel doorbell 127 = DEV_WAKE */

/* The channel pair of the on-card manager (drivers/accel/qaic). */
#define EMU_MHI_CH_CONTROL_UL	10
#define EMU_MHI_CH_CONTROL_DL	11

/* Largest uplink message (a chain of TREs) handed to the manager. */
#define EMU_MHI_MAX_MSG		(128 * 1024)
/* Largest answer the manager may produce. */
#define EMU_MHI_MAX_ANSWER	(64 * 1024)
/* Answers held for a downlink channel with no buffer queued. */
#define EMU_MHI_MAX_HELD	64
/* Events held while an event ring is full. */
#define EMU_MHI_MAX_EV_BACKLOG	256

/* Serial number reported in BHI_SERIALNU unless told otherwise. */
#define EMU_MHI_DEFAULT_SERIAL	0x0a100001

struct emu_mhi_counters {
	uint64_t mhi_bad_ring;		/* context/ring/pointer out of bounds */
	uint64_t mhi_bad_tre;		/* bad element type, bad buffer, oversize */
	uint64_t mhi_cmds;		/* command ring elements processed */
	uint64_t mhi_events;		/* events written into host memory */
	uint64_t mhi_events_lost;	/* event backlog overflowed */
	uint64_t mhi_resets;		/* MHI resets (host or SoC) */
	uint64_t mhi_syserr;		/* SYS_ERROR entered */
	uint64_t control_msgs_in;	/* QAIC_CONTROL messages to the manager */
	uint64_t control_msgs_out;	/* answers written to the host */
	uint64_t control_msgs_dropped;	/* answers dropped (held queue full, reset) */
};

/* @mgr may be NULL: the control channel then swallows messages. */
struct emu_mhi *emu_mhi_create(struct emu_device *dev, struct emu_manager *mgr);
void emu_mhi_destroy(struct emu_mhi *mhi);

/* Plug the MHI register model into BAR0 of @dev. */
void emu_mhi_attach(struct emu_mhi *mhi);

void emu_mhi_set_serial(struct emu_mhi *mhi, uint32_t serial);

/* Set where power-on starts and power the card on again there. */
void emu_mhi_set_boot(struct emu_mhi *mhi, enum emu_mhi_boot boot);
/*
 * How long SBL, its images sent, waits for the host to start the boot log
 * and time sync channels before it enters mission mode without them
 * (1000 ms unless set).
 */
void emu_mhi_set_sbl_host_wait(struct emu_mhi *mhi, unsigned int ms);
/*
 * The card powers on again (a function-level reset): where --boot says,
 * with everything the host set up forgotten, the manager's state too.
 */
void emu_mhi_power_on(struct emu_mhi *mhi);
/*
 * DBC @dbc's subsystem restarts (enum emu_ssr_mode @mode; @cycles times
 * for EMU_SSR_FLOOD): the events go out on QAIC_SSR. 0, or -errno of
 * emu_ssr_start_cycles(); -EINVAL outside AMSS.
 */
int emu_mhi_ssr(struct emu_mhi *mhi, unsigned int dbc, unsigned int mode,
		unsigned int cycles);
/*
 * Systematic case @idx of table @table (enum emu_card_case_table,
 * manager.h): SSR's (ssr_cases.h), RAS's (ras_cases.h) or the QTimer's
 * (timesync_cases.h); -EINVAL outside
 * AMSS or for no such case.
 */
int emu_mhi_card_case(struct emu_mhi *mhi, unsigned int table, unsigned int idx);

/* One RAS report on QAIC_STATUS (ras.h); -EINVAL outside AMSS. */
int emu_mhi_ras(struct emu_mhi *mhi, unsigned int source, unsigned int type,
		unsigned int flaw);
/* The Sahara and BHI models, for their fault options and tests. */
struct emu_sahara *emu_mhi_sahara(struct emu_mhi *mhi);
struct emu_memdump *emu_mhi_memdump(struct emu_mhi *mhi);
struct emu_bootlog *emu_mhi_bootlog(struct emu_mhi *mhi);
struct emu_timesync *emu_mhi_timesync_dev(struct emu_mhi *mhi);
struct emu_bhi *emu_mhi_bhi(struct emu_mhi *mhi);
struct emu_qrtr *emu_mhi_qrtr(struct emu_mhi *mhi);
/* QAIC_TELEMETRY's model: its load source and fault mode (telemetry.h). */
struct emu_telemetry *emu_mhi_telemetry(struct emu_mhi *mhi);

/*
 * Who answers QAIC_CONTROL messages: by default the manager given at
 * create (emu_manager_handle()); tests plug a fake one in here. Same
 * contract as emu_manager_handle(). NULL @fn: back to the manager.
 */
typedef size_t (*emu_mhi_control_fn)(void *ctx, const void *req, size_t len,
				     void *rsp, size_t cap);
void emu_mhi_set_control_handler(struct emu_mhi *mhi, emu_mhi_control_fn fn,
				 void *ctx);

/*
 * Fault injection: the device enters SYS_ERROR (MHISTATUS.MHISTATE =
 * SYS_ERR, SYSERR bit) and interrupts the host on the BHI interrupt vector.
 * It stops serving rings until the host writes MHICTRL.RESET.
 */
void emu_mhi_raise_syserr(struct emu_mhi *mhi);
/*
 * Every QAIC_CONTROL answer from now on goes out @ms milliseconds after
 * its message came (0: at once), until an MHI or SoC reset: a slow
 * manager (EMU_PT_ANSWER_DELAY).
 */
void emu_mhi_set_answer_delay(struct emu_mhi *mhi, unsigned int ms);

/*
 * One-shot SYS_ERROR @ms milliseconds after the device first reaches M0
 * (0: never). The main loop drives it with emu_mhi_timeout_ms() and
 * emu_mhi_tick().
 */
void emu_mhi_set_syserr_after(struct emu_mhi *mhi, unsigned int ms);
/* The card enters SYS_ERROR @ms (> 0) milliseconds from now (EMU_PT_SYS_ERROR). */
void emu_mhi_syserr_in(struct emu_mhi *mhi, unsigned int ms);
/* poll() timeout until the next timed event, -1 for none. */
int emu_mhi_timeout_ms(const struct emu_mhi *mhi);
void emu_mhi_tick(struct emu_mhi *mhi);

/* State as the host would read it (for tests). */
unsigned int emu_mhi_state(const struct emu_mhi *mhi);
const struct emu_mhi_counters *emu_mhi_counters(const struct emu_mhi *mhi);
struct emu_timesync_counters;
/* The time syncs the card saw (timesync.h). */
const struct emu_timesync_counters *emu_mhi_timesync(const struct emu_mhi *mhi);

/* "key value" lines, one per counter. */
void emu_mhi_counters_print(const struct emu_mhi *mhi, FILE *out);

#endif /* QAIC_EMU_MHI_H */
