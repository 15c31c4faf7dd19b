// SPDX-License-Identifier: GPL-2.0-only
/*
 * BHIe SBL download of the emulated card (see bhie.h).
 *
 * Copyright (c) 2026 The qaic authors.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "bhie.h"
#include "device.h"
#include "fw_image.h"
#include "le_bytes.h"

void emu_bhie_init(struct emu_bhie *e, struct emu_device *dev, bool active)
{
	memset(e, 0, sizeof(*e));
	e->dev = dev;
	e->active = active;
}

void emu_bhie_power_on(struct emu_bhie *e)
{
	memset(e->regs, 0, sizeof(e->regs));
}

uint32_t emu_bhie_read(const struct emu_bhie *e, uint32_t off)
{
	return off < EMU_BHIE_SIZE ? e->regs[off / 4] : 0;
}

static void set_status(struct emu_bhie *e, uint32_t status)
{
	e->regs[EMU_BHIE_TXVECSTATUS / 4] = status << 30 |
		(e->regs[EMU_BHIE_TXVECDB / 4] & EMU_BHIE_SEQ_MASK);
}

static enum emu_bhi_event refuse(struct emu_bhie *e, const char *why, uint64_t what)
{
	set_status(e, EMU_BHIE_ERROR);
	e->errors++;
	emu_log(e->dev, "BHIe: download refused: %s (%#" PRIx64 ")", why, what);
	return EMU_BHI_FAILED;
}

/* Gather the image the vector table describes, check it, start it. */
static enum emu_bhi_event download(struct emu_bhie *e, struct emu_bhi *bhi)
{
	uint64_t table = (uint64_t)e->regs[EMU_BHIE_TXVECADDR_HIGH / 4] << 32 |
			 e->regs[EMU_BHIE_TXVECADDR_LOW / 4];
	uint32_t table_len = e->regs[EMU_BHIE_TXVECSIZE / 4];
	uint8_t vec[EMU_BHIE_MAX_ENTRIES * 16], *img;
	unsigned int n = table_len / 16;
	uint64_t size = 0, pos = 0;
	bool ok;

	bhi->downloaded = true;		/* for the cases (bhi_cases.h) */
	if (bhi->ee != EMU_EE_PBL)
		return refuse(e, "not in PBL", bhi->ee);
	if (!n || table_len % 16 || n > EMU_BHIE_MAX_ENTRIES)
		return refuse(e, "vector table size", table_len);
	if (emu_dma_read(e->dev, table, vec, table_len))
		return refuse(e, "vector table not readable", table);
	for (unsigned int i = 0; i < n; i++) {
		uint64_t len = get_le64(vec + 16 * i + 8);

		if (!len || len > EMU_BHI_MAX_IMAGE - size)
			return refuse(e, "segment size", len);
		size += len;
	}
	if (size < FW_IMAGE_HDR_LEN)
		return refuse(e, "image size", size);
	img = malloc(size);
	if (!img)
		return refuse(e, "no memory", size);
	for (unsigned int i = 0; i < n; i++) {
		uint64_t addr = get_le64(vec + 16 * i), len = get_le64(vec + 16 * i + 8);

		if (emu_dma_read(e->dev, addr, img + pos, len)) {
			free(img);
			return refuse(e, "segment not readable", addr);
		}
		pos += len;
	}
	if (bhi->corrupt_next) {
		/* --bhi-fault corrupt: the SBL download, whichever way it comes */
		bhi->corrupt_next = false;
		img[size / 2] ^= 0x10;
		emu_log(e->dev, "BHIe: fault: image corrupted");
	}
	ok = fw_image_ok(img, size, FW_IMAGE_ID_SBL);
	free(img);
	if (!ok)
		return refuse(e, "bad image", size);
	set_status(e, EMU_BHIE_XFER_COMPL);
	bhi->ee = EMU_EE_SBL;
	e->loads++;
	emu_log(e->dev, "BHIe: SBL of %" PRIu64 " bytes in %u segments loaded", size, n);
	return EMU_BHI_LOADED;
}

enum emu_bhi_event emu_bhie_write(struct emu_bhie *e, struct emu_bhi *bhi, uint32_t off,
				  uint32_t val)
{
	if (off >= EMU_BHIE_SIZE)
		return EMU_BHI_NONE;
	if (off == EMU_BHIE_TXVECSTATUS && e->active)
		return EMU_BHI_NONE;	/* the card's to set */
	e->regs[off / 4] = val;
	if (off != EMU_BHIE_TXVECDB || !e->active)
		return EMU_BHI_NONE;
	return download(e, bhi);
}

void emu_bhie_counters_print(const struct emu_bhie *e, FILE *out)
{
	fprintf(out, "bhie_loads %" PRIu64 "\n", e->loads);
	fprintf(out, "bhie_errors %" PRIu64 "\n", e->errors);
}
