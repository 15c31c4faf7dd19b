/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * The systematic BHI cases: what the host reads of the card's BHI
 * registers during one boot, each case one register at a boundary value:
 * STATUS after the download (RESET, the reserved 1, ERROR, all-ones),
 * EXECENV after it (PBL, mission mode, RAMDUMP, one past the table,
 * all-ones) and from power-on (all-ones: a card not there yet), the
 * serial number (0, all-ones), and the download's interrupt withheld;
 * on a card whose PBL takes the SBL over BHIe (the AIC200), BHIe's
 * TXVECSTATUS after the download (ERROR, RESET, the reserved 1,
 * all-ones, XFER_COMPL with another sequence number). The card itself
 * boots as it would: only what the host reads lies.
 *
 * A case is armed by EMU_PT_CARD_CASE (manager.h) for the card's next
 * power-on and lasts that boot. Each says what a correct host does: the
 * card reaches mission mode, or the boot fails with one line in the log
 * (the card is then powered up again by the test). The IGT test
 * qaic_bhi_cases builds this file too.
 *
 * Copyright (c) 2026 The qaic authors.
 */
#ifndef QAIC_EMU_BHI_CASES_H
#define QAIC_EMU_BHI_CASES_H

#include <stdint.h>

/* From when the register lies. */
enum emu_bhi_case_from {
	EMU_BHI_FROM_POWER_ON,	/* the whole boot */
	EMU_BHI_FROM_DOWNLOAD,	/* once the host rang IMGTXDB */
};

/* Which download a case is about: a card takes its SBL one way only. */
enum emu_bhi_case_load {
	EMU_BHI_LOAD_ANY,	/* either: the EE, the serial, the interrupt */
	EMU_BHI_LOAD_BHI,	/* BHI's STATUS: an AIC100 or AIC080 */
	EMU_BHI_LOAD_BHIE,	/* BHIe's TXVECSTATUS: an AIC200 */
};

enum emu_bhi_case_verdict {
	EMU_BHI_CASE_UP,	/* mission mode */
	EMU_BHI_CASE_FAILS,	/* one "boot failed" line, at once */
	EMU_BHI_CASE_FAILS_LATE,	/* one, by the watchdog after boot_timeout_s */
};

struct emu_bhi_case {
	const char *name;
	uint8_t reg;		/* a register offset in the block of @load; 0: none */
	uint8_t from;		/* enum emu_bhi_case_from */
	uint8_t verdict;	/* enum emu_bhi_case_verdict */
	uint8_t no_irq;		/* the download raises no interrupt */
	uint8_t load;		/* enum emu_bhi_case_load */
	uint32_t v;		/* what the register reads */
};

extern const struct emu_bhi_case emu_bhi_cases[];
extern const unsigned int emu_bhi_nr_cases;

/* Case number of "name" or of a number below emu_bhi_nr_cases; or -1. */
int emu_bhi_case_parse(const char *s);

const char *emu_bhi_case_verdict_name(unsigned int verdict);

#endif /* QAIC_EMU_BHI_CASES_H */
