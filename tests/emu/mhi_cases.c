// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * The systematic MHI cases (see mhi_cases.h).
 *
 * Copyright (c) 2026 The qaic authors.
 */

#include <stddef.h>

#include "case_table.h"
#include "mhi_cases.h"

#define C(nm, ev, verdict_, x)	{ (nm), EMU_MHI_CASE_##ev, EMU_MHI_CASE_##verdict_, (x) }

const struct emu_mhi_case emu_mhi_cases[] = {
	/*
	 * State changes: RESET, READY, M0 (the truth), M1, M2, M3, past M3:
	 * the MHI core ignores them or refuses the transition; SYS_ERR: the
	 * card is reset and boots again (the MANAGE call in flight, the one
	 * that sent the case, fails with -EIO).
	 */
	C("state-reset", STATE, UP, 0x0),
	C("state-ready", STATE, UP, 0x1),
	C("state-m0", STATE, UP, 0x2),
	C("state-m1", STATE, UP, 0x3),
	C("state-m2", STATE, UP, 0x4),
	C("state-m3", STATE, UP, 0x5),
	C("state-past-table", STATE, UP, 0x6),
	C("state-fe", STATE, UP, 0xfe),
	C("state-sys-err", STATE, RECOVERS, 0xff),

	/* EE changes: every EE, one past the table, all-ones: ignored in mission mode. */
	C("ee-pbl", EE, UP, 0),
	C("ee-sbl", EE, UP, 1),
	C("ee-amss", EE, UP, 2),
	C("ee-rddm", EE, UP, 3),
	C("ee-wfw", EE, UP, 4),
	C("ee-pthru", EE, UP, 5),
	C("ee-edl", EE, UP, 6),
	C("ee-fp", EE, UP, 7),
	C("ee-past-table", EE, UP, 8),
	C("ee-ones", EE, UP, 0xff),

	/* A command completion for no command. */
	C("cmd-ptr-0", CMD, UP, 0),
	C("cmd-ptr-ones", CMD, UP, ~0ull),

	/*
	 * A transfer completion on a channel: not started, the last, past the
	 * table (the MHI core's WARN_ON there is patched on the bench only:
	 * see testing.rst), all-ones.
	 */
	C("xfer-chan-not-started", XFER, UP, 40),
	C("xfer-chan-127", XFER, UP, 127),
	C("xfer-chan-128", XFER, UP, 128),
	C("xfer-chan-ones", XFER, UP, 255),
	/* On QAIC_CONTROL's downlink, pointing outside its ring. */
	C("xfer-ptr-0", XFER_PTR, UP, 0),
	C("xfer-ptr-ones", XFER_PTR, UP, ~0ull),

	/* Types the host has no use for on the control event ring. */
	C("type-0", TYPE, UP, 0),
	C("type-past-table", TYPE, UP, 0x41),
	C("type-ones", TYPE, UP, 0xff),
};

const unsigned int emu_mhi_nr_cases = sizeof(emu_mhi_cases) / sizeof(emu_mhi_cases[0]);

_Static_assert(offsetof(struct emu_mhi_case, name) == 0, "emu_case_find() reads the name first");

int emu_mhi_case_parse(const char *s)
{
	return emu_case_find(s, emu_mhi_cases, sizeof(emu_mhi_cases[0]), emu_mhi_nr_cases);
}

const char *emu_mhi_case_verdict_name(unsigned int verdict)
{
	static const char *const names[] = { "up", "recovers" };

	return verdict < sizeof(names) / sizeof(names[0]) ? names[verdict] : "?";
}
