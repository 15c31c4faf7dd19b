/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * The systematic Sahara cases: a table of packets the emulated card sends
 * at one point of a boot, in place of a normal packet or before it, each
 * one field (or the length, or the command, or the moment) at a boundary
 * value: 0, 1, max-1, max, max+1, all-ones, the length plus and minus one,
 * each image id one past its table or in a hole of it, each command out of
 * its state. A random fuzzer (malice.c) rarely hits one exact value; this
 * table sends every one of them, one case per boot.
 *
 * Each case says what a correct host must do with it: refuse it (the boot
 * fails at once, not by a timeout), take it (a harmless value: the card
 * reaches mission mode), or, for a memory dump's packet, give the dump up
 * and go on with the boot. The card itself carries on after the packet as
 * if it had been the normal one, so that a host that takes what it should
 * refuse is seen to let the boot go on.
 *
 * The emulator (sahara.c) sends the cases (qaic-emu --sahara-case); the
 * IGT test qaic_sahara_cases builds this file too and checks our driver's
 * verdict of each.
 *
 * Copyright (c) 2026 The qaic authors.
 */
#ifndef QAIC_EMU_SAHARA_CASES_H
#define QAIC_EMU_SAHARA_CASES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Where in the boot the case's packet goes (the first image is id 1). */
enum emu_sahara_at {
	EMU_SAHARA_AT_HELLO,		/* the boot's first HELLO */
	EMU_SAHARA_AT_READ_CLOSED,	/* the first read: no image open yet */
	EMU_SAHARA_AT_READ_OPEN,	/* the second read: the image is open */
	EMU_SAHARA_AT_EOI,		/* the first image's END_OF_IMAGE */
	EMU_SAHARA_AT_DONE_RESP,	/* the first image's DONE_RESP */
	EMU_SAHARA_AT_NEXT_HELLO,	/* the second image's HELLO */
	EMU_SAHARA_AT_LAST_DONE_RESP,	/* the last image's DONE_RESP */
	EMU_SAHARA_AT_AFTER_LAST,	/* after it; the card stays in SBL */
	/*
	 * The MEMORY_DEBUG64 of a memory dump the card offers first, as
	 * after a crash (memdump.h); REPLACE only.
	 */
	EMU_SAHARA_AT_DUMP_DEBUG,
};

/* How the packet goes in. */
enum emu_sahara_how {
	/* Instead of the normal packet; the host's answer is the normal one's. */
	EMU_SAHARA_REPLACE,
	/* Just before the normal packet, which follows without waiting. */
	EMU_SAHARA_INSERT,
	/* Before the normal (read) packet, once the host's answer is in. */
	EMU_SAHARA_INSERT_ANSWERED,
};

enum emu_sahara_verdict {
	EMU_SAHARA_BOOT_FAILS,		/* the host must refuse the packet */
	EMU_SAHARA_BOOT_GOES_ON,	/* the host must take it */
	/* The host must give the dump up (one line) and go on with the boot. */
	EMU_SAHARA_DUMP_ABANDONED,
};

/* What a field's value is relative to; the value is base + v, wrapped. */
enum emu_sahara_base {
	EMU_SAHARA_NORMAL,	/* what the card sends normally; v unused */
	EMU_SAHARA_ABS,		/* v */
	EMU_SAHARA_IMAGE,	/* the current image's id + v */
	EMU_SAHARA_SIZE,	/* the current image's size + v */
	EMU_SAHARA_LEN,		/* the packet's real length + v */
};

struct emu_sahara_field {
	uint8_t base;		/* enum emu_sahara_base */
	uint64_t v;
};

/* Fields after the command and length words a case may set. */
#define EMU_SAHARA_CASE_FIELDS	5
/* Longest packet of a case: one byte over the host's receive buffer. */
#define EMU_SAHARA_CASE_MAX_LEN	(0x4000 + 1)

struct emu_sahara_case {
	const char *name;
	uint8_t at;		/* enum emu_sahara_at */
	uint8_t how;		/* enum emu_sahara_how */
	uint8_t verdict;	/* enum emu_sahara_verdict */
	uint32_t cmd;
	/* The packet's real length: the command's own plus this. */
	int32_t len_delta;
	/* The length word: NORMAL is the real length. */
	struct emu_sahara_field len_field;
	/*
	 * The fields in order: 32-bit words 2, 3, ..., or 64-bit ones at
	 * bytes 8, 16, 24 for READ_DATA64 and MEMORY_DEBUG64.
	 */
	struct emu_sahara_field f[EMU_SAHARA_CASE_FIELDS];
};

extern const struct emu_sahara_case emu_sahara_cases[];
extern const unsigned int emu_sahara_nr_cases;

/* Case number of "name" or of a number below emu_sahara_nr_cases; or -1. */
int emu_sahara_case_parse(const char *s);

/*
 * Build case @c's packet into @buf (EMU_SAHARA_CASE_MAX_LEN bytes) for the
 * image @image of @size bytes (0: its size is not known yet); @last: the
 * last image's DONE_RESP. Returns the packet's length.
 */
size_t emu_sahara_case_packet(const struct emu_sahara_case *c, uint32_t image,
			      uint64_t size, bool last, uint8_t *buf);

const char *emu_sahara_verdict_name(unsigned int verdict);

#endif /* QAIC_EMU_SAHARA_CASES_H */
