// SPDX-License-Identifier: GPL-2.0-only
/*
 * BHI of the emulated AIC100 (see bhi.h).
 *
 * Facts used (Linux 6.12, drivers/bus/mhi/common.h and host/boot.c): the
 * register offsets; STATUS in bits 31:30 (0 reset, 2 success, 3 error);
 * the session id in IMGTXDB bits 29:0; the host clears STATUS, writes the
 * image's bus address (high half first) and size, then the session id,
 * and waits for STATUS to turn non-zero, woken by the BHI interrupt.
 *
 * Copyright (c) 2026 The qaic authors.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "bhi.h"
#include "bhi_cases.h"
#include "device.h"
#include "fw_image.h"

void emu_bhi_init(struct emu_bhi *b, struct emu_device *dev, uint32_t serial)
{
	memset(b, 0, sizeof(*b));
	b->dev = dev;
	b->serial = serial;
}

void emu_bhi_power_on(struct emu_bhi *b, uint32_t ee)
{
	b->ee = ee;
	b->intvec = 0;
	b->status = EMU_BHI_STATUS_RESET;
	b->errcode = 0;
	b->errdbg1 = 0;
	b->imgaddr = 0;
	b->imgsize = 0;
	b->txdb = 0;
	b->kase = b->armed;
	b->armed = NULL;
	b->downloaded = false;
	if (b->kase)
		emu_log(b->dev, "BHI: case %s this boot", b->kase->name);
}

int emu_bhi_arm_case(struct emu_bhi *b, unsigned int idx)
{
	if (idx >= emu_bhi_nr_cases)
		return -EINVAL;
	b->armed = &emu_bhi_cases[idx];
	return 0;
}

bool emu_bhi_irq_withheld(const struct emu_bhi *b)
{
	return b->kase && b->kase->no_irq;
}

bool emu_bhi_case_lies(const struct emu_bhi *b, bool bhie, uint32_t off, uint32_t *val)
{
	const struct emu_bhi_case *c = b->kase;

	if (!c || !c->reg || c->reg != off || (c->load == EMU_BHI_LOAD_BHIE) != bhie ||
	    (c->from == EMU_BHI_FROM_DOWNLOAD && !b->downloaded))
		return false;
	*val = c->v;
	return true;
}

uint32_t emu_bhi_read(const struct emu_bhi *b, uint32_t off)
{
	uint32_t lie;

	if (emu_bhi_case_lies(b, false, off, &lie))
		return lie;
	switch (off) {
	case EMU_BHI_VERSION_MINOR: return 0;
	case EMU_BHI_VERSION_MAJOR: return 1;
	case EMU_BHI_IMGADDR_LOW: return (uint32_t)b->imgaddr;
	case EMU_BHI_IMGADDR_HIGH: return (uint32_t)(b->imgaddr >> 32);
	case EMU_BHI_IMGSIZE: return b->imgsize;
	case EMU_BHI_IMGTXDB: return b->txdb;
	case EMU_BHI_INTVEC: return b->intvec;
	case EMU_BHI_EXECENV: return b->ee;
	case EMU_BHI_STATUS: return b->status << EMU_BHI_STATUS_SHIFT;
	case EMU_BHI_ERRCODE: return b->errcode;
	case EMU_BHI_ERRDBG1: return b->errdbg1;
	case EMU_BHI_SERIALNU: return b->serial;
	case EMU_BHI_MSMHWID0: return 0x60110200;	/* AIC100 */
	default: return 0;
	}
}

static enum emu_bhi_event refuse(struct emu_bhi *b, uint32_t code, uint32_t dbg)
{
	b->status = EMU_BHI_STATUS_ERROR;
	b->errcode = code;
	b->errdbg1 = dbg;
	b->c.bhi_errors++;
	emu_log(b->dev, "BHI: download refused, error %u (%#x)", code, dbg);
	return EMU_BHI_FAILED;
}

/* IMGTXDB: read the image the host described, check it, start it. */
static enum emu_bhi_event download(struct emu_bhi *b)
{
	uint8_t *img;
	bool ok;

	if (b->ee != EMU_EE_PBL)
		return refuse(b, EMU_BHI_ERR_NOT_PBL, b->ee);
	if (b->bhie_only)
		return refuse(b, EMU_BHI_ERR_BHIE_ONLY, b->imgsize);
	if (b->imgsize < FW_IMAGE_HDR_LEN || b->imgsize > EMU_BHI_MAX_IMAGE)
		return refuse(b, EMU_BHI_ERR_SIZE, b->imgsize);
	img = malloc(b->imgsize);
	if (!img)
		return refuse(b, EMU_BHI_ERR_DMA, 0);
	if (emu_dma_read(b->dev, b->imgaddr, img, b->imgsize)) {
		free(img);
		return refuse(b, EMU_BHI_ERR_DMA, (uint32_t)b->imgaddr);
	}
	if (b->corrupt_next) {
		b->corrupt_next = false;
		img[b->imgsize / 2] ^= 0x10;
		emu_log(b->dev, "BHI: fault: image corrupted");
	}
	ok = fw_image_ok(img, b->imgsize, FW_IMAGE_ID_SBL);
	free(img);
	if (!ok)
		return refuse(b, EMU_BHI_ERR_IMAGE, b->imgsize);
	b->status = EMU_BHI_STATUS_SUCCESS;
	b->ee = EMU_EE_SBL;
	b->c.bhi_loads++;
	emu_log(b->dev, "BHI: SBL of %u bytes loaded, session %#x", b->imgsize,
		b->txdb);
	return EMU_BHI_LOADED;
}

enum emu_bhi_event emu_bhi_write(struct emu_bhi *b, uint32_t off, uint32_t val)
{
	switch (off) {
	case EMU_BHI_IMGADDR_LOW:
		b->imgaddr = (b->imgaddr & ~0xffffffffull) | val;
		break;
	case EMU_BHI_IMGADDR_HIGH:
		b->imgaddr = (b->imgaddr & 0xffffffffull) | (uint64_t)val << 32;
		break;
	case EMU_BHI_IMGSIZE:
		b->imgsize = val;
		break;
	case EMU_BHI_IMGTXDB:
		b->txdb = val & 0x3fffffff;
		b->downloaded = true;
		return download(b);
	case EMU_BHI_INTVEC:
		b->intvec = val;
		break;
	case EMU_BHI_STATUS:
		/* The host clears it before a download. */
		if (!val)
			b->status = EMU_BHI_STATUS_RESET;
		break;
	default:
		break;		/* read-only or unknown */
	}
	return EMU_BHI_NONE;
}

void emu_bhi_counters_print(const struct emu_bhi *b, FILE *out)
{
	fprintf(out, "bhi_loads %" PRIu64 "\n", b->c.bhi_loads);
	fprintf(out, "bhi_errors %" PRIu64 "\n", b->c.bhi_errors);
}
