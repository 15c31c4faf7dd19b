// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * The systematic BHI cases (see bhi_cases.h).
 *
 * The host's rules (Linux's MHI core, drivers/bus/mhi/host/boot.c, and
 * qaic_mhi.c's boot watchdog): after ringing IMGTXDB the MHI core waits,
 * up to mhi_timeout_ms, for STATUS bits 31:30 to be non-zero, looking
 * again at each BHI interrupt and once more at the end of the wait; ERROR
 * (3) or no change fails the download, any other non-zero value is taken
 * as done. The EE is then read on every state change; the card's boot
 * goes on as the card runs it. A failed download ends the boot with one
 * line; the serial number is only reported.
 *
 * Copyright (c) 2026 The qaic authors.
 */

#include <stddef.h>

#include "bhi.h"
#include "bhi_cases.h"
#include "bhie.h"
#include "case_table.h"

#define STATUS(x)	((uint32_t)(x) << EMU_BHI_STATUS_SHIFT)

#define CL(nm, load_, reg_, from_, verdict_, no_irq_, x)				\
	{ (nm), (reg_), EMU_BHI_FROM_##from_, EMU_BHI_CASE_##verdict_, (no_irq_), (load_), (x) }
/* A case of BHI's STATUS, or of a register every card has. */
#define C(nm, reg_, from_, verdict_, no_irq_, x)					\
	CL(nm, (reg_) == EMU_BHI_STATUS ? EMU_BHI_LOAD_BHI : EMU_BHI_LOAD_ANY, reg_, from_,	\
	   verdict_, no_irq_, x)
/* A case of BHIe's TXVECSTATUS. */
#define CE(nm, verdict_, x)								\
	CL(nm, EMU_BHI_LOAD_BHIE, EMU_BHIE_TXVECSTATUS, DOWNLOAD, verdict_, 0, x)
#define TXVEC(st)	((uint32_t)(st) << 30)

const struct emu_bhi_case emu_bhi_cases[] = {
	C("good", 0, POWER_ON, UP, 0, 0),

	/*
	 * STATUS after the download: ERROR fails it at once; 0 makes the MHI
	 * core give up after mhi_timeout_ms, which the driver does not hear
	 * of (the watchdog ends the boot); any other value is done, and so is
	 * a read that fails (all-ones: the core ends its wait on it).
	 */
	C("status-reset", EMU_BHI_STATUS, DOWNLOAD, FAILS_LATE, 0, STATUS(EMU_BHI_STATUS_RESET)),
	C("status-1", EMU_BHI_STATUS, DOWNLOAD, UP, 0, STATUS(1)),
	C("status-error", EMU_BHI_STATUS, DOWNLOAD, FAILS, 0, STATUS(EMU_BHI_STATUS_ERROR)),
	C("status-ones", EMU_BHI_STATUS, DOWNLOAD, UP, 0, 0xffffffffu),
	C("status-success-low-bits", EMU_BHI_STATUS, DOWNLOAD, UP, 0,
	  STATUS(EMU_BHI_STATUS_SUCCESS) | 0x3fffffffu),

	/* No interrupt: the host's last look at the end of its wait finds it done. */
	C("no-irq", 0, DOWNLOAD, UP, 1, 0),

	/*
	 * EXECENV after the download, while the card runs SBL: one the host
	 * boots no further from (still PBL, a RAM dump, none of the table)
	 * leaves it waiting for mission mode, which the watchdog ends; a
	 * mission mode it believes (the card gets there).
	 */
	C("ee-pbl", EMU_BHI_EXECENV, DOWNLOAD, FAILS_LATE, 0, EMU_EE_PBL),
	C("ee-amss", EMU_BHI_EXECENV, DOWNLOAD, UP, 0, EMU_EE_AMSS),
	C("ee-rddm", EMU_BHI_EXECENV, DOWNLOAD, FAILS_LATE, 0, 3),
	C("ee-past-table", EMU_BHI_EXECENV, DOWNLOAD, FAILS_LATE, 0, 8),
	C("ee-ones", EMU_BHI_EXECENV, DOWNLOAD, FAILS_LATE, 0, 0xffffffffu),
	/* ... and from power-on: a read that fails, and SBL, which loads nothing. */
	C("ee-ones-power-on", EMU_BHI_EXECENV, POWER_ON, UP, 0, 0xffffffffu),
	C("ee-sbl-power-on", EMU_BHI_EXECENV, POWER_ON, UP, 0, EMU_EE_SBL),

	/*
	 * BHIe's TXVECSTATUS after the download (Linux 6.15 on): only
	 * XFER_COMPL is done, whatever the sequence number; anything else
	 * fails the download at once, and ERROR is what the driver's boot
	 * watchdog names (a "refused" line at once); for the others the MHI
	 * core gives up without a word the driver hears, and the watchdog ends
	 * the boot (0 after mhi_timeout_ms; all-ones is a read that failed,
	 * which the watchdog does not take for ERROR).
	 */
	CE("bhie-status-error", FAILS, TXVEC(EMU_BHIE_ERROR)),
	CE("bhie-status-reset", FAILS_LATE, TXVEC(0)),
	CE("bhie-status-1", FAILS_LATE, TXVEC(1)),
	CE("bhie-status-ones", FAILS_LATE, 0xffffffffu),
	CE("bhie-compl-seq-0", UP, TXVEC(EMU_BHIE_XFER_COMPL)),
	CE("bhie-compl-seq-ones", UP, TXVEC(EMU_BHIE_XFER_COMPL) | EMU_BHIE_SEQ_MASK),

	/* The serial number: only reported. */
	C("serial-0", EMU_BHI_SERIALNU, POWER_ON, UP, 0, 0),
	C("serial-ones", EMU_BHI_SERIALNU, POWER_ON, UP, 0, 0xffffffffu),
};

const unsigned int emu_bhi_nr_cases = sizeof(emu_bhi_cases) / sizeof(emu_bhi_cases[0]);

_Static_assert(offsetof(struct emu_bhi_case, name) == 0, "emu_case_find() reads the name first");

int emu_bhi_case_parse(const char *s)
{
	return emu_case_find(s, emu_bhi_cases, sizeof(emu_bhi_cases[0]), emu_bhi_nr_cases);
}

const char *emu_bhi_case_verdict_name(unsigned int verdict)
{
	static const char *const names[] = { "up", "fails", "fails-late" };

	return verdict < sizeof(names) / sizeof(names[0]) ? names[verdict] : "?";
}
