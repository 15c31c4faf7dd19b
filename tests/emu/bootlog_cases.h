/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * The systematic boot log cases: a table of messages the emulated card
 * writes on the QAIC_LOGGING downlink channel (bootlog.h) during SBL,
 * each with one property at a boundary value: the bytes sent (0, 1, the
 * host's buffer minus one, the buffer, plus one, the longest a transfer
 * descriptor says), where the NUL is (none, first, middle, all), the
 * bytes (every one but NUL, all-ones), the length the card's completion
 * event claims (0, less, one more, past the buffer, all-ones), and a
 * flood past what the host keeps. A case is armed for the card's next
 * boot (EMU_PT_CARD_CASE, manager.h): its messages go out after the
 * boot's first line, then the normal ones.
 *
 * Each case says what a correct host keeps of each message: its first
 * "kept" bytes, a byte that is not text as a '.' (qaic_bootlog.c). The
 * IGT test qaic_bootlog_cases builds this file too: it arms each case,
 * resets the card, and compares the host's debugfs bootlog with the
 * bytes the table says.
 *
 * Copyright (c) 2026 The qaic authors.
 */
#ifndef QAIC_EMU_BOOTLOG_CASES_H
#define QAIC_EMU_BOOTLOG_CASES_H

#include <stddef.h>
#include <stdint.h>

/* The bytes of a message. */
enum emu_bootlog_case_fill {
	EMU_BL_TEXT,	/* 'a' to 'z', again and again */
	EMU_BL_BYTES,	/* byte i is 1 + i % 255: every byte but NUL */
	EMU_BL_ONES,	/* 0xff */
	EMU_BL_ZERO,	/* NUL */
};

/* No NUL put into the message; no length claimed (the bytes sent). */
#define EMU_BL_NONE		0xffffffffu
/* Longest message: what one transfer descriptor can say. */
#define EMU_BOOTLOG_CASE_MAX_LEN	0xffffu

struct emu_bootlog_case {
	const char *name;
	uint8_t fill;		/* enum emu_bootlog_case_fill */
	uint32_t len;		/* bytes sent */
	uint32_t nul;		/* a NUL at this byte, or EMU_BL_NONE */
	uint32_t claim;		/* the completion's length, or EMU_BL_NONE */
	uint32_t count;		/* messages sent, all alike */
	uint32_t kept;		/* bytes the host keeps of each */
	uint8_t lost;		/* the host's log overflows: bytes are lost */
};

extern const struct emu_bootlog_case emu_bootlog_cases[];
extern const unsigned int emu_bootlog_nr_cases;

/* Case number of "name" or of a number below emu_bootlog_nr_cases; or -1. */
int emu_bootlog_case_parse(const char *s);

/*
 * Build the message of case @c into @buf (EMU_BOOTLOG_CASE_MAX_LEN
 * bytes). Returns its length in bytes.
 */
size_t emu_bootlog_case_msg(const struct emu_bootlog_case *c, uint8_t *buf);

/*
 * The bytes a host keeps of the message of case @c into @buf (c->kept
 * bytes): its first c->kept bytes, each byte not a tab, a newline or
 * printable ASCII made a '.'. Returns c->kept.
 */
size_t emu_bootlog_case_kept(const struct emu_bootlog_case *c, uint8_t *buf);

#endif /* QAIC_EMU_BOOTLOG_CASES_H */
