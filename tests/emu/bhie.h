/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * BHIe, the vector form of the Boot Host Interface, of the emulated card:
 * the register block at MHI + EMU_MHI_BHIE_OFF (the MHI register BHIEOFF
 * says where). An AIC200's PBL takes its SBL this way only (card.h), as
 * Linux's MHI host drives it from 6.15 on when the controller gives a
 * segment length: the image in segments (512 KiB each, the last one the
 * rest), a vector table of {le64 address, le64 size} entries, one per
 * segment, in host memory; the host writes TXVECADDR_HIGH and _LOW,
 * TXVECSIZE (the table's bytes), then TXVECDB with a sequence number in
 * bits 29:0 (read, modified and written: it reads back). The card reads
 * the table and the segments, checks the image (fw_image.h) and sets
 * TXVECSTATUS: bits 31:30 XFER_COMPL (2) or ERROR (3), bits 29:0 the
 * sequence number; then it raises the BHI interrupt vector and runs SBL,
 * as after a BHI download (bhi.h).
 *
 * Other cards keep the block as plain registers: a TXVECDB starts
 * nothing.
 *
 * Copyright (c) 2026 The qaic authors.
 */
#ifndef QAIC_EMU_BHIE_H
#define QAIC_EMU_BHIE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "bhi.h"

/* Registers, relative to the block. */
#define EMU_BHIE_TXVECADDR_LOW	0x2c
#define EMU_BHIE_TXVECADDR_HIGH	0x30
#define EMU_BHIE_TXVECSIZE	0x34
#define EMU_BHIE_TXVECDB	0x3c
#define EMU_BHIE_TXVECSTATUS	0x44
#define EMU_BHIE_SIZE		0x80

#define EMU_BHIE_SEQ_MASK	0x3fffffffu
#define EMU_BHIE_XFER_COMPL	2u
#define EMU_BHIE_ERROR		3u
/* Most entries of a vector table the card takes. */
#define EMU_BHIE_MAX_ENTRIES	64

struct emu_bhie {
	struct emu_device *dev;
	bool active;			/* PBL takes the SBL this way */
	uint32_t regs[EMU_BHIE_SIZE / 4];
	uint64_t loads, errors;
};

void emu_bhie_init(struct emu_bhie *e, struct emu_device *dev, bool active);
/* Power-on or SoC reset: every register 0. */
void emu_bhie_power_on(struct emu_bhie *e);
uint32_t emu_bhie_read(const struct emu_bhie *e, uint32_t off);
/*
 * A register write. A TXVECDB of an active block in PBL (@bhi's EE)
 * downloads the SBL: EMU_BHI_LOADED with @bhi's EE now SBL, or
 * EMU_BHI_FAILED; else EMU_BHI_NONE.
 */
enum emu_bhi_event emu_bhie_write(struct emu_bhie *e, struct emu_bhi *bhi, uint32_t off,
				  uint32_t val);
void emu_bhie_counters_print(const struct emu_bhie *e, FILE *out);

#endif /* QAIC_EMU_BHIE_H */
