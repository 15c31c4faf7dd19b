/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The cards qaic-emu can be (--card): what tells them apart, as the
 * driver's struct qaic_card does on the host side. Facts from upstream
 * Linux 7.2's qaic and MHI host (drivers/accel/qaic, drivers/bus/mhi):
 *
 * - AIC100 (17cb:a100): 64-bit BARs 0 (4 KiB, MHI), 2 (2 MiB, the DMA
 *   Bridge) and 4 (64 KiB); PBL takes the SBL over BHI; SBL syncs the
 *   card's clock over QAIC_TIMESYNC (20/21).
 * - AIC080 (17cb:a080): an AIC100 with another id.
 * - AIC200 (17cb:a110): memory BARs 0, 1, 2 and 4, so BARs 0 and 1 are
 *   32-bit (4 KiB each, MHI in BAR1; BAR0 is unused), BARs 2 and 4 as the
 *   AIC100's; PBL takes the SBL over BHIe only (bhie.h); SBL has no time
 *   sync channel; its Sahara table is its own (sahara_images.h), and it
 *   asks for reads of any length with READ_DATA only.
 *
 * Copyright (c) 2026 The qaic authors.
 */
#ifndef QAIC_EMU_CARD_H
#define QAIC_EMU_CARD_H

#include <stdbool.h>
#include <stdint.h>

#define EMU_CARD_NR_BARS	6

struct emu_sahara_table;

struct emu_card {
	const char *name;		/* as --card takes it */
	uint16_t device_id;		/* also the subsystem id */
	uint64_t bar_size[EMU_CARD_NR_BARS];	/* 0: no such BAR */
	bool bar_32bit[EMU_CARD_NR_BARS];	/* else 64-bit: takes the next slot */
	unsigned int mhi_bar;
	bool sbl_over_bhie;		/* PBL refuses a BHI download */
	bool sbl_timesync;		/* SBL asks for the time on 20/21 */
	const struct emu_sahara_table *sahara;
};

extern const struct emu_card emu_card_aic100;
extern const struct emu_card emu_card_aic080;
extern const struct emu_card emu_card_aic200;

/* The card a PCI function says it is (pci.h); the AIC100 before it says. */
#define emu_card_of(pci)	((pci)->card ? (pci)->card : &emu_card_aic100)

/* The card of --card @name, or NULL. */
const struct emu_card *emu_card_by_name(const char *name);
/* The card of PCI device id @id; the AIC100 for an id of none. */
const struct emu_card *emu_card_by_id(uint16_t id);

#endif /* QAIC_EMU_CARD_H */
