/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The card side of subsystem restart (SSR) on the QAIC_SSR channel pair
 * (6 up, 7 down) of the emulated AIC100.
 *
 * When the neural signal processor behind one DMA Bridge Channel crashes,
 * the card drops that DBC's workload (the manager releases the DBC and
 * refuses to grant it again) and restarts the subsystem alone, telling the
 * host each step as an SSR_EVENT: BEFORE_SHUTDOWN, AFTER_SHUTDOWN,
 * BEFORE_POWER_UP, AFTER_POWER_UP. It waits for the host's SSR_EVENT_RSP
 * to each before it sends the next; once AFTER_POWER_UP is acknowledged
 * the DBC can be activated again. The other DBCs never notice.
 *
 * Wire format, as Linux 6.19's qaic has it: every message begins with
 * cmd, len (bytes of the whole message) and dbc_id, little-endian u32;
 * SSR_EVENT and SSR_EVENT_RSP add the event, u32. An answer with NACK,
 * or with the wrong event, is counted and the card waits on; an SSR
 * whose host never acknowledges stays where it is until a card reset.
 * The host's buffers on the downlink channel hold 32 bytes.
 *
 * One SSR runs at a time. A card reset forgets it.
 *
 * EMU_SSR_DUMP offers the crashed subsystem's memory once the host
 * acknowledged BEFORE_POWER_UP (Linux 6.19's host takes it then):
 * DEBUG_XFER_INFO (a reserved u32, then the table's address and length,
 * u64) names the good table of memdump.h; the host answers
 * DEBUG_XFER_INFO_RSP (0: it takes the dump, else not) and asks for the
 * table and the regions with MEMORY_READ (reserved, address, length),
 * each answered by MEMORY_READ_RSP (reserved, then the bytes; the header
 * alone for memory the card does not have), and ends with DEBUG_XFER_DONE,
 * answered by DEBUG_XFER_DONE_RSP of status 0. AFTER_POWER_UP follows
 * the host's DEBUG_XFER_DONE, or its refusal.
 *
 * EMU_SSR_DUMP_* offer a dump with one fault, those of the memory dump
 * over Sahara (memdump.h) and two more: a table length of the good
 * table's entries and 8 bytes (BAD_LENGTH); a table of
 * EMU_MEMDUMP_TOO_MANY_ENTRIES entries (TOO_MANY); the first region
 * EMU_MEMDUMP_HUGE_LEN long (HUGE: the table the host reads says so);
 * the second read of a region answered one byte short (SHORT_READ) or one
 * byte long (LONG_READ); DEBUG_XFER_DONE answered with status 1
 * (DONE_FAILS); the second region's length 0 (EMPTY_REGION); the third
 * region at EMU_SSR_DUMP_WRAP_ADDR, so that its end wraps past 2^64
 * (WRAPPING_REGION). The restart goes on as in EMU_SSR_DUMP.
 *
 * Three more break the dump's order, not its contents: OFFER_TWICE
 * offers the dump again once the host took the first offer (a host
 * declines the second and reads the first to its end); LATE_ANSWER
 * sends, after DEBUG_XFER_DONE_RSP, one more MEMORY_READ_RSP that no read
 * asked for; CUT_SHORT goes on with AFTER_POWER_UP instead of answering
 * the first read of a region, leaving the host's dump half read.
 *
 * EMU_SSR_FLOOD is a card gone bad: the same DBC restarts again and again,
 * a new BEFORE_SHUTDOWN as soon as the host acknowledged AFTER_POWER_UP,
 * @cycles restarts in all, each as the host sees a real one; the DBC is
 * given back only after the last. It is how a card could flood the host's
 * log and its listeners of uevents.
 *
 * Copyright (c) 2026 The qaic authors.
 */
#ifndef QAIC_EMU_SSR_H
#define QAIC_EMU_SSR_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct emu_device;
struct emu_ssr;

/* The channel pair (drivers/accel/qaic/mhi_controller.c in Linux 6.12). */
#define EMU_SSR_CH_UL		6
#define EMU_SSR_CH_DL		7

/* Commands (hdr.cmd) */
#define SSR_CMD_DEBUG_XFER_INFO		0x001
#define SSR_CMD_DEBUG_XFER_INFO_RSP	0x002
#define SSR_CMD_MEMORY_READ		0x004
#define SSR_CMD_MEMORY_READ_RSP		0x008
#define SSR_CMD_DEBUG_XFER_DONE		0x010
#define SSR_CMD_DEBUG_XFER_DONE_RSP	0x020
#define SSR_CMD_EVENT			0x100
#define SSR_CMD_EVENT_RSP		0x200

/* Events (the u32 after the header) */
#define SSR_EV_NACK		0x01
#define SSR_EV_BEFORE_SHUTDOWN	0x02
#define SSR_EV_AFTER_SHUTDOWN	0x04
#define SSR_EV_BEFORE_POWER_UP	0x08
#define SSR_EV_AFTER_POWER_UP	0x10

#define SSR_HDR_LEN		12
/* DEBUG_XFER_INFO and MEMORY_READ; MEMORY_READ_RSP's header. */
#define SSR_DUMP_MSG_LEN	32
#define SSR_READ_RSP_HDR_LEN	16
#define SSR_EVENT_LEN		16
/* The host's receive buffers. */
#define SSR_MAX_MSG		32

/* How an SSR started by emu_ssr_start() goes. */
enum emu_ssr_mode {
	EMU_SSR_NORMAL,		/* the four events, each once acknowledged */
	EMU_SSR_STALL,		/* stops after AFTER_SHUTDOWN until RESUME */
	EMU_SSR_GARBAGE,	/* malformed messages first, then NORMAL */
	EMU_SSR_RESUME,		/* a stalled SSR goes on (or, once AFTER_SHUTDOWN
				 * is sent, will not stall) */
	EMU_SSR_FLOOD,		/* NORMAL, @cycles times in a row */
	EMU_SSR_DUMP,		/* NORMAL, offering a crash dump before power-up */
	/* EMU_SSR_DUMP with one fault each (see above) */
	EMU_SSR_DUMP_BAD_LENGTH,
	EMU_SSR_DUMP_TOO_MANY,
	EMU_SSR_DUMP_HUGE,
	EMU_SSR_DUMP_SHORT_READ,
	EMU_SSR_DUMP_LONG_READ,
	EMU_SSR_DUMP_DONE_FAILS,
	EMU_SSR_DUMP_EMPTY_REGION,
	EMU_SSR_DUMP_WRAPPING_REGION,
	/* EMU_SSR_DUMP out of order (see above) */
	EMU_SSR_DUMP_OFFER_TWICE,
	EMU_SSR_DUMP_LATE_ANSWER,
	EMU_SSR_DUMP_CUT_SHORT,
	EMU_SSR_DUMP_STALL,
	EMU_SSR_NR_MODES,
};

/* EMU_SSR_DUMP_WRAPPING_REGION's third region (16 bytes) starts here. */
#define EMU_SSR_DUMP_WRAP_ADDR	0xfffffffffffffff8ull

/* Most restarts an EMU_SSR_FLOOD makes. */
#define EMU_SSR_MAX_CYCLES	100000

struct emu_ssr_ops {
	/* One message for the host, on the downlink channel. */
	void (*send)(void *ctx, const void *msg, size_t len);
	/* DBC @dbc's subsystem is back: it may be activated again. */
	void (*restored)(void *ctx, unsigned int dbc);
};

struct emu_ssr *emu_ssr_create(struct emu_device *dev,
			       const struct emu_ssr_ops *ops, void *ctx);
void emu_ssr_destroy(struct emu_ssr *s);

/*
 * DBC @dbc's subsystem crashed (the caller already dropped its workload),
 * or, with EMU_SSR_RESUME, a stalled SSR of @dbc goes on (one waiting
 * for the answer to AFTER_SHUTDOWN will not stall). 0, or -EBUSY
 * if another SSR runs, -EINVAL for a bad @mode or a RESUME of nothing.
 * EMU_SSR_FLOOD needs emu_ssr_start_cycles(): here it is -EINVAL.
 */
int emu_ssr_start(struct emu_ssr *s, unsigned int dbc, enum emu_ssr_mode mode);

/*
 * As emu_ssr_start(); for EMU_SSR_FLOOD, @cycles restarts in a row,
 * 1..EMU_SSR_MAX_CYCLES (else -EINVAL). The other modes ignore @cycles.
 */
int emu_ssr_start_cycles(struct emu_ssr *s, unsigned int dbc,
			 enum emu_ssr_mode mode, unsigned int cycles);

/* A message the host sent on the uplink channel. */
void emu_ssr_rx(struct emu_ssr *s, const void *msg, size_t len);

/*
 * Systematic case @idx of ssr_cases.h: its crafted messages, in a row,
 * whatever the SSR in progress. 0, or -EINVAL for no such case.
 */
int emu_ssr_send_case(struct emu_ssr *s, unsigned int idx);

/* The card was reset: the SSR in progress, if any, is forgotten. */
void emu_ssr_reset(struct emu_ssr *s);

/*
 * "key value" lines: ssr_started, ssr_completed, ssr_bad_msgs, ...;
 * ssr_flood_cycles counts the restarts of floods, the first included.
 */
void emu_ssr_counters_print(const struct emu_ssr *s, FILE *out);

#endif /* QAIC_EMU_SSR_H */
