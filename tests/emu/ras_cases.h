/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * The systematic RAS cases: a table of reports the emulated card pushes
 * on the QAIC_STATUS downlink channel (ras.h) in mission mode, each a
 * well-formed correctable report of SoC memory with one field (or two that
 * go together, or the bytes sent) at a boundary value: 0, 1, max-1, max,
 * max+1, all-ones, the length plus and minus one, each source, error type
 * and temperature threshold one past its table. All are sent in one boot
 * (EMU_PT_CARD_CASE, manager.h).
 *
 * Each case says what a correct host makes of it: counts it as a
 * correctable or an uncorrectable non-fatal error (ce_count,
 * ue_nonfatal_count), or refuses it (debugfs ras_refused), and nothing
 * else. An uncorrectable report, which resets the card, is qaic_ras's
 * subtest, not a case. The IGT test qaic_card_cases builds this file too
 * and checks the counts, a clean log and a round trip after each case.
 *
 * Copyright (c) 2026 The qaic authors.
 */
#ifndef QAIC_EMU_RAS_CASES_H
#define QAIC_EMU_RAS_CASES_H

#include <stddef.h>
#include <stdint.h>

enum emu_ras_case_verdict {
	EMU_RAS_CASE_REFUSED,
	EMU_RAS_CASE_CE,	/* counted correctable */
	EMU_RAS_CASE_UE_NF,	/* counted uncorrectable non-fatal */
};

/* One field set: @width bytes (1, 2 or 4) at byte @off of the report. */
struct emu_ras_case_set {
	uint8_t off;
	uint8_t width;		/* 0: unused */
	uint32_t v;
};

#define EMU_RAS_CASE_SETS	2
/* Longest report of a case: one byte over the host's 105-byte buffer. */
#define EMU_RAS_CASE_MAX_LEN	106

struct emu_ras_case {
	const char *name;
	uint8_t verdict;	/* enum emu_ras_case_verdict */
	int16_t bytes_delta;	/* bytes sent: RAS_MSG_LEN + this */
	struct emu_ras_case_set set[EMU_RAS_CASE_SETS];
};

extern const struct emu_ras_case emu_ras_cases[];
extern const unsigned int emu_ras_nr_cases;

/* Case number of "name" or of a number below emu_ras_nr_cases; or -1. */
int emu_ras_case_parse(const char *s);

/*
 * Build case @c's report, sequence number @seq, into @buf
 * (EMU_RAS_CASE_MAX_LEN bytes). Returns its length in bytes.
 */
size_t emu_ras_case_msg(const struct emu_ras_case *c, uint32_t seq, uint8_t *buf);

const char *emu_ras_case_verdict_name(unsigned int verdict);

#endif /* QAIC_EMU_RAS_CASES_H */
