/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The card's telemetry service on the QAIC_TELEMETRY channel pair (16 up,
 * 17 down) of the emulated AIC100, in mission mode: the host asks for a
 * temperature or a power reading, the card answers.
 *
 * The message is that of Qualcomm's out-of-tree qaic driver
 * (qaic_telemetry.c), 23 bytes, packed, little endian: a 12-byte header,
 * magic u16 0x55aa, version u16 1, seq_num u32, type u8 (0 push from the
 * card, 1 request to it, 2 response from it), id u8 0, len u16 11 (the
 * bytes after the header); then cmd u8, cmd_type u8 (0 read, 1 write),
 * status s8 (0 ok, -1 read only, -2 not supported, -3 error while
 * processing, -4 invalid value, -5 invalid header) and val s64.
 *
 * The card answers each request (type 1) with one response (type 2) on
 * the downlink channel: the request's seq_num, cmd and cmd_type, a status
 * and a value (0 unless status is 0). In turn:
 *
 * - outside mission mode nothing is served: the request is dropped;
 * - fewer than 8 bytes (no seq_num): dropped; so is one over TM_MAX_REQ
 *   bytes or one the card could not read (mhi.c hands it over empty);
 * - fault mode silent: dropped;
 * - not 23 bytes, or magic, version, type (not 1), id or len field
 *   wrong: status -5 (cmd and cmd_type echoed if the request had them,
 *   else 0);
 * - cmd above 13: -2 (also for a write);
 * - cmd_type above 1: -4;
 * - a write (cmd_type 1): -1, every value is read only;
 * - a read: status 0 and the value. The request's own status and val are
 *   not looked at.
 *
 * Values (the emulator's model, not a real card's, the same for every
 * card type; temperatures whole degrees C, power whole watts), from the
 * load L (0..1000 per mille):
 *
 *   cmd  what                 value
 *   0    SoC temperature      40 + 35 L / 1000            (40..75)
 *   1    SoC max temperature  highest SoC temperature of this mission mode
 *   2    board temperature    35 + 20 L / 1000            (35..55)
 *   3    board max            highest board temperature of this mission mode
 *   4    DDR temperature      38 + 27 L / 1000            (38..65)
 *   5    warning (critical)   105
 *   6    shutdown (emergency) 115
 *   7    board TDP (cap)      75
 *   8    board power          20 + 55 L / 1000            (20..75)
 *   9    power state          0 (the card's only one)
 *   10   power max            highest board power of this mission mode
 *   11   throttle percent     (L - 900) / 10 above L = 900, else 0 (0..10)
 *   12   throttle time        seconds throttled in this mission mode
 *   13   uptime               seconds since the card entered mission mode
 *
 * (divisions round down). The load is the DBC engine's work: the requests
 * all DBCs carried out (the activity callback, a running count), sampled
 * at each telemetry request, as a rate over the last second or so,
 * EMU_TELEMETRY_FULL_RATE requests a second and more being full load.
 * The card keeps up to EMU_TELEMETRY_NR_SAMPLES samples at least
 * EMU_TELEMETRY_MIN_SPAN_MS apart; the rate is counted from the newest
 * sample at least EMU_TELEMETRY_WINDOW_MS old (from the oldest while
 * there is none) to now, so a host that reads every second or more often
 * sees the last second's load (a burst of reads about the same one), one
 * that reads seldom the average since its last read. Over less than
 * EMU_TELEMETRY_MIN_SPAN_MS (just after mission mode began) the load
 * stays what it was (0 at first). The highest values, the throttle time
 * (the time since the previous request, when this one finds the card
 * throttling) and the uptime start again whenever the card enters mission
 * mode (power-on, SBL's end, the reset after a crash; a plain MHI reset
 * keeps them). The temperatures follow the load at once: no thermal lag.
 *
 * Fault modes (EMU_PT_TELEMETRY, emu_telemetry_set_mode()), for every
 * answer (absurd: every good read) until changed or the card resets (MHI
 * reset, SoC reset, crash):
 *
 *   0 normal;
 *   1 silent: every request is dropped;
 *   2 garbage: 23 bytes, the good answer's header with magic 0xaa55
 *     (seq_num echoed) and 11 bytes of 0xa5 after it;
 *   3 late: every answer goes out EMU_TELEMETRY_LATE_MS after its
 *     request (its values those of the request's time), at most
 *     EMU_TELEMETRY_MAX_LATE waiting; the ones a reset finds are lost;
 *   4 error: status -3, value 0;
 *   5 wrong seq: seq_num + 1;
 *   6 absurd: a read that succeeds gives 100000 for a temperature (0..6),
 *     -5 for a power (7, 8, 10), -1 for the others;
 *   7 short: the answer's first 12 bytes (its header) only.
 *
 * Copyright (c) 2026 The qaic authors.
 */
#ifndef QAIC_EMU_TELEMETRY_H
#define QAIC_EMU_TELEMETRY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct emu_device;
struct emu_telemetry;

/* The channel pair (QAIC_TELEMETRY, ee_mask AMSS). */
#define EMU_TELEMETRY_CH_UL	16
#define EMU_TELEMETRY_CH_DL	17

#define TM_MAGIC		0x55aa
#define TM_VERSION		1
#define TM_HDR_LEN		12
#define TM_MSG_LEN		23
/* Longest request the MHI model keeps whole; longer ones are dropped. */
#define TM_MAX_REQ		1024

#define TM_TYPE_PUSH		0
#define TM_TYPE_REQ		1
#define TM_TYPE_RSP		2

#define TM_READ			0
#define TM_WRITE		1

#define TM_OK			0
#define TM_E_READ_ONLY		(-1)
#define TM_E_UNSUPPORTED	(-2)
#define TM_E_PROCESSING		(-3)
#define TM_E_INVALID		(-4)
#define TM_E_HEADER		(-5)

enum emu_telemetry_cmd {
	TM_SOC_TEMP,
	TM_SOC_MAX_TEMP,
	TM_BOARD_TEMP,
	TM_BOARD_MAX_TEMP,
	TM_DDR_TEMP,
	TM_WARNING_TEMP,
	TM_SHUTDOWN_TEMP,
	TM_BOARD_TDP,
	TM_BOARD_POWER,
	TM_POWER_STATE,
	TM_POWER_MAX,
	TM_THROTTLE_PERCENT,
	TM_THROTTLE_TIME,
	TM_UPTIME,
	TM_NR_CMDS,
};

enum emu_telemetry_mode {
	TM_MODE_NORMAL,
	TM_MODE_SILENT,
	TM_MODE_GARBAGE,
	TM_MODE_LATE,
	TM_MODE_ERROR,
	TM_MODE_WRONG_SEQ,
	TM_MODE_ABSURD,
	TM_MODE_SHORT,
	TM_NR_MODES,
};

/* The load model */
#define EMU_TELEMETRY_FULL_RATE		1000	/* DBC requests a second */
#define EMU_TELEMETRY_WINDOW_MS		1000
#define EMU_TELEMETRY_MIN_SPAN_MS	100
#define EMU_TELEMETRY_NR_SAMPLES	16
/* Throttling above this load (per mille) */
#define EMU_TELEMETRY_THROTTLE_LOAD	900

/* Fault mode late */
#define EMU_TELEMETRY_LATE_MS		3000
#define EMU_TELEMETRY_MAX_LATE		64

#define EMU_TELEMETRY_ABSURD_TEMP	100000
#define EMU_TELEMETRY_ABSURD_POWER	(-5)

struct emu_telemetry_counters {
	uint64_t requests;		/* messages on the uplink channel */
	uint64_t answered;		/* answers sent (late ones once out) */
	uint64_t reads;			/* answers of status 0 */
	uint64_t refused;		/* answers of status -1, -2, -4, -5 */
	uint64_t refused_write;		/* -1 */
	uint64_t refused_unknown;	/* -2 */
	uint64_t refused_value;		/* -4: cmd_type above 1 */
	uint64_t refused_header;	/* -5 */
	uint64_t dropped_short;		/* fewer than 8 bytes */
	uint64_t dropped_idle;		/* outside mission mode */
	uint64_t dropped_silent;	/* fault mode silent */
	uint64_t faulted;		/* answers a fault mode changed or delayed */
	uint64_t late_lost;		/* late answers lost: reset, or too many */
	uint64_t read_cmd[TM_NR_CMDS];	/* good reads of each command */
};

struct emu_telemetry_ops {
	/* One answer for the host, on the downlink channel. */
	void (*send)(void *ctx, const void *msg, size_t len);
};

struct emu_telemetry *emu_telemetry_create(struct emu_device *dev,
					   const struct emu_telemetry_ops *ops,
					   void *ctx);
void emu_telemetry_destroy(struct emu_telemetry *t);

/*
 * Where the load comes from: @fn returns a running count of the work the
 * card did (the DBC requests carried out); NULL: none, the card idles.
 */
void emu_telemetry_set_activity(struct emu_telemetry *t,
				uint64_t (*fn)(void *ctx), void *ctx);
/*
 * Tests: the load held at @permille (0..1000), or -1: from the activity
 * again. -EINVAL for another value.
 */
int emu_telemetry_set_load(struct emu_telemetry *t, int permille);
/* Tests: the clock in milliseconds (NULL: CLOCK_MONOTONIC). */
void emu_telemetry_set_clock(struct emu_telemetry *t,
			     uint64_t (*now_ms)(void *ctx), void *ctx);

/* The card enters mission mode: it serves, uptime and highest values anew. */
void emu_telemetry_start(struct emu_telemetry *t);
/* The card leaves mission mode (power-on, crash): requests are dropped. */
void emu_telemetry_stop(struct emu_telemetry *t);
bool emu_telemetry_serving(const struct emu_telemetry *t);
/* The card resets: fault mode back to normal, late answers lost. */
void emu_telemetry_reset(struct emu_telemetry *t);

/* Fault mode (enum emu_telemetry_mode); 0, or -EINVAL for no such mode. */
int emu_telemetry_set_mode(struct emu_telemetry *t, unsigned int mode);
unsigned int emu_telemetry_mode(const struct emu_telemetry *t);

/* A message the host sent on the uplink channel. */
void emu_telemetry_rx(struct emu_telemetry *t, const void *msg, size_t len);

/* Late answers: ms until the next is due (0: now), -1 for none. */
int emu_telemetry_timeout_ms(const struct emu_telemetry *t);
/* Sends the late answers whose time has come. */
void emu_telemetry_tick(struct emu_telemetry *t);

/* The load of the last request, per mille. */
unsigned int emu_telemetry_load(const struct emu_telemetry *t);

const struct emu_telemetry_counters *
emu_telemetry_counters(const struct emu_telemetry *t);
/* "key value" lines: telemetry_requests, telemetry_answered, ... */
void emu_telemetry_counters_print(const struct emu_telemetry *t, FILE *out);

#endif /* QAIC_EMU_TELEMETRY_H */
