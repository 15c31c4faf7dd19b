/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The card side of the boot log on the QAIC_LOGGING channel pair (12 up,
 * 13 down) of the emulated AIC100.
 *
 * While SBL runs, the card writes a few lines of text about its boot on
 * the downlink channel, one line a message, each a C string (its NUL
 * included): which emulator and which boot this is, the images Sahara
 * loaded, and that it enters mission mode. A line written before the host
 * started the channel waits for it (SBL keeps its log from the start of
 * the boot and sends it all once someone listens); the uplink channel
 * carries nothing. Mission mode waits until every line is out, as long as
 * the host listens: the MHI core of the host removes the channel there.
 * Lines go out as the host's buffers take them (emu_bootlog_pump()).
 *
 * Fault injection, --bootlog-fault garbage (emu_bootlog_set_garbage()):
 * after its first line the card floods the host with
 * EMU_BOOTLOG_FLOOD_BYTES of lines, more than the host keeps, and then
 * writes a line of every byte but NUL and newline, a line with a NUL in
 * the middle ("before NUL", NUL, "after NUL"), and a line longer than the
 * host's buffers (600 'L's), before the lines of a normal boot.
 *
 * --bootlog-fault tail (emu_bootlog_set_tail()): as SBL enters mission
 * mode, right before it tells the host the new execution environment, it
 * writes a line into every buffer the host has queued: the host gets a
 * log message for each just as its MHI core removes the SBL channels.
 * Mission mode waits for the host to have a buffer queued, as long as it
 * waits for the host's channels (sbl_host_wait_ms).
 * (The card writes nothing on the channel once in mission mode: the host
 * does not reset an SBL channel there, it only unmaps its buffers.)
 *
 * Copyright (c) 2026 The qaic authors.
 */
#ifndef QAIC_EMU_BOOTLOG_H
#define QAIC_EMU_BOOTLOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct emu_device;
struct emu_bootlog;

/* The channel pair (drivers/accel/qaic/mhi_controller.c in Linux 6.12). */
#define EMU_BOOTLOG_CH_UL	12
#define EMU_BOOTLOG_CH_DL	13

/* Longest line, its NUL included; the host's buffers hold 512 bytes. */
#define EMU_BOOTLOG_MAX_LINE	256
/* Lines kept per boot; later ones are counted and dropped. */
#define EMU_BOOTLOG_MAX_LINES	32
/* --bootlog-fault garbage: the flood, in lines of 250 bytes. */
#define EMU_BOOTLOG_FLOOD_BYTES	(96 * 1024)
#define EMU_BOOTLOG_LONG_LINE	600

struct emu_bootlog_ops {
	/*
	 * One message for the host, on the downlink channel: false if it
	 * cannot be taken now (the next emu_bootlog_pump() tries again).
	 */
	bool (*send)(void *ctx, const void *msg, size_t len);
	/*
	 * The same, the completion saying @claim bytes (at most 0xffff)
	 * whatever was sent: a systematic case's (bootlog_cases.h).
	 * Optional: without it the completion says the bytes sent.
	 */
	bool (*send_claim)(void *ctx, const void *msg, size_t len, uint32_t claim);
};

struct emu_bootlog *emu_bootlog_create(struct emu_device *dev,
				       const struct emu_bootlog_ops *ops,
				       void *ctx);
void emu_bootlog_destroy(struct emu_bootlog *b);

/* A new boot: the last one's lines are forgotten. Counts the boot. */
void emu_bootlog_boot(struct emu_bootlog *b);
/* The number of the boot in progress, 1 for the first. */
unsigned int emu_bootlog_boots(const struct emu_bootlog *b);

/*
 * The host started the downlink channel (@on) and gets every line of
 * this boot so far, or reset it: lines wait again.
 */
void emu_bootlog_listen(struct emu_bootlog *b, bool on);

/* A line of the log ("\n" added), sent if the host listens. */
void emu_bootlog_printf(struct emu_bootlog *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Send what waits, while ops->send takes it and the host listens. */
void emu_bootlog_pump(struct emu_bootlog *b);
/* Lines of this boot the host listens for and has not been sent yet. */
bool emu_bootlog_pending(const struct emu_bootlog *b);

/* --bootlog-fault garbage: every boot from now on (see above). */
void emu_bootlog_set_garbage(struct emu_bootlog *b, bool on);
/* --bootlog-fault tail: every boot from now on (see above). */
void emu_bootlog_set_tail(struct emu_bootlog *b, bool on);
/* --bootlog-fault tail is set. */
bool emu_bootlog_has_tail(const struct emu_bootlog *b);
/*
 * With --bootlog-fault tail, while @on each emu_bootlog_pump() with
 * nothing else to send sends one tail line ("SBL: tail: line N").
 */
void emu_bootlog_tail(struct emu_bootlog *b, bool on);

/*
 * Systematic case @idx of bootlog_cases.h goes out in the next boot, after
 * its first line, and in no later one. 0, or -1 for no such case.
 */
int emu_bootlog_set_case(struct emu_bootlog *b, unsigned int idx);

/*
 * "key value" lines: bootlog_boots, bootlog_lines (sent, replays
 * included), bootlog_dropped (past EMU_BOOTLOG_MAX_LINES), bootlog_garbage
 * (garbage, flood and case messages sent).
 */
void emu_bootlog_counters_print(const struct emu_bootlog *b, FILE *out);

#endif /* QAIC_EMU_BOOTLOG_H */
