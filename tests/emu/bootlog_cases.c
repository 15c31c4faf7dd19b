// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * The systematic boot log cases (see bootlog_cases.h).
 *
 * The host queues 8 buffers of 512 bytes on the channel (qaic_bootlog.c).
 * Of each message it keeps at most what the completion says arrived, at
 * most 512 bytes, and only up to the first NUL; every byte but a tab, a
 * newline and printable ASCII becomes a '.'. It keeps the last 64 KiB of
 * the log and then begins the file with a line saying how many bytes were
 * lost. A message longer than the buffer fills it (the card's transfer
 * overflows) and the rest is dropped. The MHI core of the host takes a
 * completion's length up to the buffer's. A message is 20 bytes, its
 * last a NUL, unless it is about that.
 *
 * Copyright (c) 2026 The qaic authors.
 */
#include <string.h>

#include "bootlog_cases.h"
#include "case_table.h"

#define BUF		512u
#define NONE		EMU_BL_NONE

/* @len bytes of text, a NUL at @nul, the host keeping @kept. */
#define TXT(nm, len_, nul_, kept_)						\
	{ .name = (nm), .fill = EMU_BL_TEXT, .len = (len_), .nul = (nul_),	\
	  .claim = NONE, .count = 1, .kept = (kept_) }
/* @len bytes of @fill, no NUL put in. */
#define FILL(nm, fill_, len_, kept_)						\
	{ .name = (nm), .fill = (fill_), .len = (len_), .nul = NONE,		\
	  .claim = NONE, .count = 1, .kept = (kept_) }
/* The normal message, its completion saying @claim bytes. */
#define CLAIM(nm, claim_, kept_)						\
	{ .name = (nm), .fill = EMU_BL_TEXT, .len = 20, .nul = 19,		\
	  .claim = (claim_), .count = 1, .kept = (kept_) }

const struct emu_bootlog_case emu_bootlog_cases[] = {
	TXT("good", 20, 19, 19),

	/* The bytes sent, a C string. */
	TXT("len-0", 0, NONE, 0),
	TXT("len-1", 1, 0, 0),
	TXT("len-2", 2, 1, 1),
	TXT("len-buffer-minus-1", BUF - 1, BUF - 2, BUF - 2),
	TXT("len-buffer", BUF, BUF - 1, BUF - 1),
	TXT("len-buffer-plus-1", BUF + 1, BUF, BUF),
	TXT("len-max", EMU_BOOTLOG_CASE_MAX_LEN, EMU_BOOTLOG_CASE_MAX_LEN - 1, BUF),

	/* No NUL at all. */
	TXT("no-nul-1", 1, NONE, 1),
	TXT("no-nul", 20, NONE, 20),
	TXT("no-nul-buffer-minus-1", BUF - 1, NONE, BUF - 1),
	TXT("no-nul-buffer", BUF, NONE, BUF),
	TXT("no-nul-buffer-plus-1", BUF + 1, NONE, BUF),
	TXT("no-nul-max", EMU_BOOTLOG_CASE_MAX_LEN, NONE, BUF),

	/* Where the NUL is. */
	TXT("nul-first", 20, 0, 0),
	TXT("nul-second", 20, 1, 1),
	TXT("nul-middle", 20, 10, 10),
	TXT("nul-last-of-buffer", BUF + 20, BUF - 1, BUF - 1),
	TXT("nul-past-buffer", BUF + 20, BUF + 1, BUF),
	FILL("nuls", EMU_BL_ZERO, 20, 0),

	/* Bytes that are not text. */
	FILL("bytes-all", EMU_BL_BYTES, 255, 255),
	FILL("bytes-all-twice", EMU_BL_BYTES, BUF + 1, BUF),
	FILL("bytes-ones", EMU_BL_ONES, 20, 20),
	FILL("bytes-ones-buffer", EMU_BL_ONES, BUF, BUF),

	/* The length the completion claims, of 20 bytes sent. */
	CLAIM("claim-0", 0, 0),
	CLAIM("claim-1", 1, 1),
	CLAIM("claim-minus-1", 19, 19),
	CLAIM("claim-half", 10, 10),
	CLAIM("claim-plus-1", 21, 19),
	CLAIM("claim-buffer", BUF, 19),
	CLAIM("claim-buffer-plus-1", BUF + 1, 19),
	CLAIM("claim-ones", 0xffff, 19),

	/* Many messages: more than the host keeps. */
	{ .name = "many-empty", .fill = EMU_BL_TEXT, .len = 0, .nul = NONE, .claim = NONE,
	  .count = 1000, .kept = 0 },
	{ .name = "flood", .fill = EMU_BL_TEXT, .len = BUF, .nul = NONE, .claim = NONE,
	  .count = 200, .kept = BUF, .lost = 1 },
	{ .name = "flood-not-text", .fill = EMU_BL_ONES, .len = BUF, .nul = NONE,
	  .claim = NONE, .count = 200, .kept = BUF, .lost = 1 },
};

const unsigned int emu_bootlog_nr_cases =
	sizeof(emu_bootlog_cases) / sizeof(emu_bootlog_cases[0]);

_Static_assert(offsetof(struct emu_bootlog_case, name) == 0,
	       "emu_case_find() reads the name first");

int emu_bootlog_case_parse(const char *s)
{
	return emu_case_find(s, emu_bootlog_cases, sizeof(emu_bootlog_cases[0]),
			     emu_bootlog_nr_cases);
}

static uint8_t fill_byte(const struct emu_bootlog_case *c, size_t i)
{
	switch (c->fill) {
	case EMU_BL_BYTES:
		return (uint8_t)(1 + i % 255);
	case EMU_BL_ONES:
		return 0xff;
	case EMU_BL_ZERO:
		return 0;
	default:
		return (uint8_t)('a' + i % 26);
	}
}

size_t emu_bootlog_case_msg(const struct emu_bootlog_case *c, uint8_t *buf)
{
	size_t len = c->len < EMU_BOOTLOG_CASE_MAX_LEN ? c->len : EMU_BOOTLOG_CASE_MAX_LEN;

	for (size_t i = 0; i < len; i++)
		buf[i] = fill_byte(c, i);
	if (c->nul < len)
		buf[c->nul] = 0;
	return len;
}

size_t emu_bootlog_case_kept(const struct emu_bootlog_case *c, uint8_t *buf)
{
	for (size_t i = 0; i < c->kept; i++) {
		uint8_t b = fill_byte(c, i);

		buf[i] = b == '\n' || b == '\t' || (b >= 0x20 && b < 0x7f) ? b : '.';
	}
	return c->kept;
}
