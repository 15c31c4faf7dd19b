/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * The systematic time sync cases: the card's one input to the host's
 * periodic time sync in mission mode is its QTimer (timesync.h), the
 * 64-bit count of a 19.2 MHz clock the host reads from BAR0 and subtracts
 * from UTC. Each case holds the QTimer at a boundary value (0, 1, a word's
 * edge, UTC minus a second and plus a minute, max-1, all-ones) until the
 * next case (EMU_PT_CARD_CASE, manager.h); case 0, "real", lets it run.
 *
 * Each case says what a correct host does: sends its periodic syncs (an
 * offset it can compute: the QTimer behind UTC) or stays silent (all-ones,
 * a card gone; or a QTimer ahead of UTC: no offset). The IGT test
 * qaic_card_cases builds this file too and counts the syncs the card saw.
 *
 * Copyright (c) 2026 The qaic authors.
 */
#ifndef QAIC_EMU_TIMESYNC_CASES_H
#define QAIC_EMU_TIMESYNC_CASES_H

#include <stdint.h>

enum emu_ts_case_base {
	EMU_TS_REAL,	/* the QTimer runs; v unused */
	EMU_TS_ABS,	/* held at v */
	EMU_TS_UTC,	/* held at UTC now, in QTimer ticks, + v (signed) */
};

enum emu_ts_case_verdict {
	EMU_TS_CASE_SENT,	/* the host sends its syncs */
	EMU_TS_CASE_SILENT,	/* it sends none */
};

struct emu_ts_case {
	const char *name;
	uint8_t base;		/* enum emu_ts_case_base */
	uint8_t verdict;	/* enum emu_ts_case_verdict */
	uint64_t v;
};

extern const struct emu_ts_case emu_ts_cases[];
extern const unsigned int emu_ts_nr_cases;

/* Case number of "name" or of a number below emu_ts_nr_cases; or -1. */
int emu_ts_case_parse(const char *s);

/* The QTimer value case @c holds, UTC being @utc_us; @c must not be REAL. */
uint64_t emu_ts_case_qtimer(const struct emu_ts_case *c, int64_t utc_us);

const char *emu_ts_case_verdict_name(unsigned int verdict);

#endif /* QAIC_EMU_TIMESYNC_CASES_H */
