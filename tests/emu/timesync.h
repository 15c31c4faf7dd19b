/* SPDX-License-Identifier: GPL-2.0-only
 *
 * The card side of time sync on the emulated AIC100: the host tells the
 * card what time it is, and the card checks what it was told.
 *
 * Boot time sync, QAIC_TIMESYNC (20 up, 21 down), in SBL: once the host
 * started both channels the card asks, with a header alone
 * (TS_CMD_TO_HOST); the host answers with a TS_SYNC_REQ that carries its
 * UTC time (CLOCK_REALTIME) in seconds and microseconds, and the card
 * acknowledges a good one (TS_ACK_TO_HOST).
 *
 * Periodic time sync, QAIC_TIMESYNC_PERIODIC (22 up, 23 down), in
 * mission mode: the host sends a TS_SYNC_REQ now and then, unasked, whose
 * time is the offset of UTC from the card's QTimer: host UTC minus the
 * QTimer it read from BAR0 (EMU_TIMESYNC_QTIMER_OFF, a 64-bit count of a
 * 19.2 MHz clock since power-on), in microseconds.
 *
 * Wire format, as Linux 6.12's qaic_timesync.c has it, little endian:
 * the header is signature (u16, 0x55aa), two reserved fields (u16, u8),
 * msg_type (u8) and one more reserved u16, 8 bytes; a TS_SYNC_REQ adds
 * tv_sec and tv_usec (u64 each), 24 bytes in all.
 *
 * The card checks each TS_SYNC_REQ: exactly 24 bytes, the signature, the
 * type, tv_usec below a second, the time it gives (for periodic ones, the
 * offset plus the QTimer now) within EMU_TIMESYNC_MAX_SKEW_US of its own
 * CLOCK_REALTIME, and not before the time of the last good one; on
 * QAIC_TIMESYNC, only as the answer to its question. Each is counted good
 * or bad (emu_timesync_counters()). SBL waits for the answer, good or
 * bad, before mission mode, as long as the host has the channel started.
 *
 * Fault injection, --timesync-fault garbage (emu_timesync_set_garbage()):
 * before each question the card sends what a host must not answer: 4
 * bytes, 16 bytes, 40 bytes (longer than the host's buffer), a header with
 * the signature 0xaa55, one of type 7, and an acknowledgement. An answer
 * to any of them is an answer to no question, or a second answer: bad.
 *
 * Copyright (c) 2026 The qaic authors.
 */
#ifndef QAIC_EMU_TIMESYNC_H
#define QAIC_EMU_TIMESYNC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct emu_device;
struct emu_timesync;

/* The channel pairs (drivers/accel/qaic/mhi_controller.c in Linux 6.12). */
#define EMU_TIMESYNC_CH_UL		20
#define EMU_TIMESYNC_CH_DL		21
#define EMU_TIMESYNC_PERIODIC_CH_UL	22
#define EMU_TIMESYNC_PERIODIC_CH_DL	23

/* The QTimer in BAR0: low word, high word; 19.2 MHz. */
#define EMU_TIMESYNC_QTIMER_OFF		0xa28
#define EMU_TIMESYNC_QTIMER_HZ		19200000ull

#define TS_SIGNATURE		0x55aa
#define TS_CMD_TO_HOST		0
#define TS_SYNC_REQ		1
#define TS_ACK_TO_HOST		2

#define TS_HDR_LEN		8
#define TS_SYNC_LEN		24
/* Longest message the host sends: a TS_SYNC_REQ. */
#define TS_MAX_MSG		TS_SYNC_LEN

/* How far the host's time may be from the card's. */
#define EMU_TIMESYNC_MAX_SKEW_US	(5 * 1000000ll)

struct emu_timesync_counters {
	uint64_t asked;		/* TS_CMD_TO_HOST sent */
	uint64_t boot_good;	/* good TS_SYNC_REQs on QAIC_TIMESYNC */
	uint64_t boot_bad;
	uint64_t periodic_good;	/* ... on QAIC_TIMESYNC_PERIODIC */
	uint64_t periodic_bad;
	int64_t last_skew_us;	/* host time - card time, last good one */
	uint64_t garbage;	/* malformed messages sent */
};

struct emu_timesync_ops {
	/* One message for the host, on QAIC_TIMESYNC's downlink channel. */
	void (*send)(void *ctx, const void *msg, size_t len);
};

struct emu_timesync *emu_timesync_create(struct emu_device *dev,
					 const struct emu_timesync_ops *ops,
					 void *ctx);
void emu_timesync_destroy(struct emu_timesync *t);

/* Power-on: the QTimer starts at 0. */
void emu_timesync_power_on(struct emu_timesync *t);
/*
 * Systematic case @idx of timesync_cases.h: the QTimer held at its value
 * until the next case or power-on (case 0 lets it run). 0, or -EINVAL.
 */
int emu_timesync_set_case(struct emu_timesync *t, unsigned int idx);
/* The QTimer now. */
uint64_t emu_timesync_qtimer(const struct emu_timesync *t);

/* SBL: the host started QAIC_TIMESYNC: the card asks for the time. */
void emu_timesync_ask(struct emu_timesync *t);
/* --timesync-fault garbage: before every question from now on. */
void emu_timesync_set_garbage(struct emu_timesync *t, bool on);
/* The card asked and waits for the answer. */
bool emu_timesync_waiting(const struct emu_timesync *t);
/* The channel was reset, or the card: a question is forgotten. */
void emu_timesync_reset(struct emu_timesync *t);

/* A message the host sent on QAIC_TIMESYNC's uplink channel. */
void emu_timesync_rx(struct emu_timesync *t, const void *msg, size_t len);
/* ... on QAIC_TIMESYNC_PERIODIC's uplink channel. */
void emu_timesync_periodic_rx(struct emu_timesync *t, const void *msg,
			      size_t len);

const struct emu_timesync_counters *
emu_timesync_counters(const struct emu_timesync *t);
/* "key value" lines: timesync_asked, timesync_boot_good, ... */
void emu_timesync_counters_print(const struct emu_timesync *t, FILE *out);

#endif /* QAIC_EMU_TIMESYNC_H */
