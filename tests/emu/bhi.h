/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The Boot Host Interface (BHI) of the emulated AIC100: the register block
 * at BAR0 + EMU_MHI_BHI_OFF through which the host loads the secondary boot
 * loader (SBL) into a card that powered on in its primary boot loader
 * (PBL), the way the Linux MHI host's mhi_fw_load_handler() drives it:
 * STATUS cleared, IMGADDR high and low, IMGSIZE, then a session id written
 * to IMGTXDB; the card DMAs the image, checks it (fw_image.h) and sets
 * STATUS to SUCCESS or ERROR, then raises the BHI interrupt vector.
 *
 * BHI also reports the execution environment (EXECENV) the card runs,
 * which the MHI model (mhi.c) changes as the card boots.
 *
 * Copyright (c) 2026 The qaic authors.
 */
#ifndef QAIC_EMU_BHI_H
#define QAIC_EMU_BHI_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct emu_bhi_case;
struct emu_device;

/* BHI registers, relative to the start of the block. */
#define EMU_BHI_VERSION_MINOR	0x00
#define EMU_BHI_VERSION_MAJOR	0x04
#define EMU_BHI_IMGADDR_LOW	0x08
#define EMU_BHI_IMGADDR_HIGH	0x0c
#define EMU_BHI_IMGSIZE		0x10
#define EMU_BHI_IMGTXDB		0x18
#define EMU_BHI_INTVEC		0x20
#define EMU_BHI_EXECENV		0x28
#define EMU_BHI_STATUS		0x2c
#define EMU_BHI_ERRCODE		0x30
#define EMU_BHI_ERRDBG1		0x34
#define EMU_BHI_SERIALNU	0x40
#define EMU_BHI_MSMHWID0	0x4c
#define EMU_BHI_SIZE		0xc8

/* STATUS bits 31:30 */
#define EMU_BHI_STATUS_SHIFT	30
#define EMU_BHI_STATUS_RESET	0u
#define EMU_BHI_STATUS_SUCCESS	2u
#define EMU_BHI_STATUS_ERROR	3u

/* Execution environments (enum mhi_ee_type). */
#define EMU_EE_PBL		0u
#define EMU_EE_SBL		1u
#define EMU_EE_AMSS		2u

/* ERRCODE after a refused download (ours; ERRDBG1 gives a detail). */
#define EMU_BHI_ERR_NOT_PBL	1u	/* not in PBL: nothing to load */
#define EMU_BHI_ERR_SIZE	2u	/* size 0 or too large (ERRDBG1: size) */
#define EMU_BHI_ERR_DMA		3u	/* the image could not be read */
#define EMU_BHI_ERR_IMAGE	4u	/* bad header, length or checksum */
#define EMU_BHI_ERR_BHIE_ONLY	5u	/* this PBL takes the SBL over BHIe only */

/* Largest image accepted over BHI. */
#define EMU_BHI_MAX_IMAGE	(16u << 20)

struct emu_bhi_counters {
	uint64_t bhi_loads;		/* images loaded and started */
	uint64_t bhi_errors;		/* downloads refused */
};

struct emu_bhi {
	struct emu_device *dev;
	uint32_t ee;
	uint32_t intvec;
	uint32_t status;		/* STATUS bits 31:30 */
	uint32_t errcode, errdbg1;
	uint64_t imgaddr;
	uint32_t imgsize;
	uint32_t txdb;
	uint32_t serial;
	bool corrupt_next;		/* fault: flip a bit of the next image */
	bool bhie_only;			/* PBL refuses BHI downloads (bhie.h) */
	/* A systematic case (bhi_cases.h): armed for the next boot, this boot's. */
	const struct emu_bhi_case *armed, *kase;
	bool downloaded;		/* IMGTXDB rung since power-on */
	struct emu_bhi_counters c;
};

/* What a register write did. */
enum emu_bhi_event {
	EMU_BHI_NONE,
	EMU_BHI_LOADED,		/* SBL loaded: the card now runs it */
	EMU_BHI_FAILED,		/* download refused: STATUS = ERROR */
};

void emu_bhi_init(struct emu_bhi *b, struct emu_device *dev, uint32_t serial);
/* Power-on or SoC reset: every register back to its reset value. */
void emu_bhi_power_on(struct emu_bhi *b, uint32_t ee);
uint32_t emu_bhi_read(const struct emu_bhi *b, uint32_t off);
enum emu_bhi_event emu_bhi_write(struct emu_bhi *b, uint32_t off, uint32_t val);
/* Whether the download's interrupt is withheld (this boot's case). */
bool emu_bhi_irq_withheld(const struct emu_bhi *b);
/* Arm systematic case @idx (bhi_cases.h) for the next power-on: 0 or -EINVAL. */
int emu_bhi_arm_case(struct emu_bhi *b, unsigned int idx);
/*
 * This boot's case lies about the register at @off of the BHI block (or,
 * with @bhie, of the BHIe block): true, and what it reads then at @val.
 */
bool emu_bhi_case_lies(const struct emu_bhi *b, bool bhie, uint32_t off, uint32_t *val);
void emu_bhi_counters_print(const struct emu_bhi *b, FILE *out);

#endif /* QAIC_EMU_BHI_H */
