// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * The systematic time sync cases (see timesync_cases.h).
 *
 * The host reads the QTimer as two 32-bit words, low then high; all-ones
 * is a card gone, a QTimer past UTC (in microseconds, 19.2 ticks each)
 * gives no offset (qaic_timesync.c). UTC is about 2^55 ticks today.
 *
 * Copyright (c) 2026 The qaic authors.
 */

#include "case_table.h"
#include "timesync.h"
#include "timesync_cases.h"

#define TICKS_PER_S	((int64_t)EMU_TIMESYNC_QTIMER_HZ)

#define HOLD(nm, verdict_, x)	{ (nm), EMU_TS_ABS, EMU_TS_CASE_##verdict_, (uint64_t)(x) }
#define UTC(nm, verdict_, x)	{ (nm), EMU_TS_UTC, EMU_TS_CASE_##verdict_, (uint64_t)(x) }

const struct emu_ts_case emu_ts_cases[] = {
	{ "real", EMU_TS_REAL, EMU_TS_CASE_SENT, 0 },
	HOLD("qtimer-0", SENT, 0),
	HOLD("qtimer-1", SENT, 1),
	HOLD("qtimer-low-ones", SENT, 0xffffffffull),
	HOLD("qtimer-2p32", SENT, 1ull << 32),
	HOLD("qtimer-high-ones", SILENT, 0xffffffff00000000ull),
	UTC("qtimer-utc-minus-1s", SENT, -TICKS_PER_S),
	/* A held QTimer falls behind UTC: a minute ahead stays ahead for the case. */
	UTC("qtimer-utc-plus-1min", SILENT, 60 * TICKS_PER_S),
	HOLD("qtimer-2p63", SILENT, 1ull << 63),
	HOLD("qtimer-max-minus-1", SILENT, UINT64_MAX - 1),
	HOLD("qtimer-ones", SILENT, UINT64_MAX),
};

const unsigned int emu_ts_nr_cases = sizeof(emu_ts_cases) / sizeof(emu_ts_cases[0]);

_Static_assert(offsetof(struct emu_ts_case, name) == 0, "emu_case_find() reads the name first");

int emu_ts_case_parse(const char *s)
{
	return emu_case_find(s, emu_ts_cases, sizeof(emu_ts_cases[0]), emu_ts_nr_cases);
}

uint64_t emu_ts_case_qtimer(const struct emu_ts_case *c, int64_t utc_us)
{
	if (c->base == EMU_TS_UTC)
		return (uint64_t)(utc_us / 10 * 192) + c->v;
	return c->v;
}

const char *emu_ts_case_verdict_name(unsigned int verdict)
{
	return verdict == EMU_TS_CASE_SILENT ? "silent" : "sent";
}
