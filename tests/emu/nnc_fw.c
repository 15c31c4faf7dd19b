// SPDX-License-Identifier: GPL-2.0-only
/*
 * The firmware's NNC commands (nnc_fw.h): what the card's manager answers
 * to the commands Qualcomm's open runtime sends inside PASSTHROUGH.
 *
 * The layouts are the runtime's (facts, restated as offsets): every field
 * is written byte by byte, little endian, so nothing depends on the host's
 * alignment or on the compiler packing a structure. The values are the
 * emulated card's: each card type has its own table below. They describe
 * the emulated card, not a claim about a real card of that type.
 *
 * Copyright (c) 2026 The qaic authors.
 */
#include <string.h>

#include "card.h"
#include "le_bytes.h"
#include "nnc_fw.h"

/*
 * STATUS_RESP (nnc_cmd_status_query_response_t), offsets from its start:
 * type, status_code, then host_api_info_data_internal_t: an 8-byte header
 * (format_version, padding), the device's data (host_api_info_dev_data_
 * internal_t) and the NSP firmware's (host_api_info_nsp_data_internal_t).
 */
#define SR_TYPE			0
#define SR_STATUS		4
#define SR_FORMAT		8
#define SR_FW_VERSION		16	/* major, minor, patch, build: u8 each */
#define SR_FW_QC		20
#define SR_FW_OEM		58
#define SR_FW_VARIANT		96
#define SR_FW_STR_LEN		38	/* the QC and OEM strings */
#define SR_FW_VARIANT_LEN	16
#define SR_HW_VERSION		112
#define SR_SERIAL		116
#define SR_BOARD_SERIAL		132
#define SR_COMPILER		164
/* host_api_resource_info_internal_t */
#define SR_DRAM_TOTAL		168	/* MB */
#define SR_DRAM_FREE		172
#define SR_FRAGMENTATION	176
#define SR_VC_TOTAL		180	/* u8 */
#define SR_VC_FREE		181
#define SR_NSP_TOTAL		182
#define SR_NSP_FREE		183
#define SR_MCID_TOTAL		184	/* u32 */
#define SR_MCID_FREE		188
#define SR_SEM_TOTAL		192
#define SR_SEM_FREE		196
#define SR_PC_TOTAL		200	/* u8 */
#define SR_PC_RESERVED		201
/* host_api_performance_info_internal_t */
#define SR_FREQ_HZ		208	/* NSP, DDR, COMPNOC, MEMNOC, SYSNOC: u32 */
#define SR_PEAK_COMPUTE		232	/* u64, int8 ops/s */
#define SR_DRAM_BW		240	/* u64, KB/s over ~100 ms */
#define SR_CONSTS_LOADED	264
#define SR_CONSTS_IN_USE	268
#define SR_NWS_LOADED		272	/* u8 */
#define SR_NWS_ACTIVE		273
#define SR_META_VERSION		274	/* major, minor: u16 */
#define SR_NNC_VERSION		278	/* major, minor: u16 */
#define SR_SBL_IMAGE		282
#define SR_SBL_IMAGE_LEN	24
#define SR_PVS_VERSION		308
#define SR_NSP_PGMASK		312
#define SR_SKU			332	/* u8 */
#define SR_NSP_VERSION		336	/* major, minor, patch, build: u8 each */
#define SR_NSP_QC		344
#define SR_NSP_QC_LEN		64
#define SR_NSP_OEM		408
#define SR_NSP_OEM_LEN		48
#define SR_NSP_VARIANT		456
#define SR_NSP_VARIANT_LEN	48

/* The versions the open runtime requires of a card it drives */
#define META_MAJOR		1
#define META_MINOR		0
#define NNC_CMD_MAJOR		17
#define NNC_CMD_MINOR		0

/* sku_type values (nnc_transaction_sku_query_type_t) */
#define SKU_PCIE		2
#define SKU_PCIE_PRO		3
#define SKU_PCIE_080		8

#define MB			(1ull << 20)

/* One card type's answer to a status query, what does not change. */
struct fw_card_info {
	const char *card;		/* emu_card.name */
	uint8_t fw_version[4];		/* build 255: not printed */
	const char *fw_variant;
	uint32_t hw_version;		/* 31:28, 27:16, 15:8, 7:0 */
	const char *serial;
	const char *board_serial;
	uint32_t dram_mb;
	uint8_t nsps;
	uint32_t mcids;
	uint32_t semaphores;
	uint8_t pcs;			/* physical DMA channels */
	uint32_t freq_hz[5];
	uint64_t peak_ops;
	uint8_t sku;
};

static const struct fw_card_info fw_cards[] = {
	{
		.card = "aic100",
		.fw_version = { 1, 20, 0, 255 },
		.fw_variant = "AIC100.EMU",
		.hw_version = 0x20010000,
		.serial = "EMU0A100000001",
		.board_serial = "EMU-BOARD-A100-000001",
		.dram_mb = 16384,
		.nsps = 16,
		.mcids = 32,
		.semaphores = 512,
		.pcs = 16,
		.freq_hz = { 1450000000, 2133000000, 1000000000, 1000000000, 400000000 },
		.peak_ops = 400000000000000ull,
		.sku = SKU_PCIE_PRO,
	},
	{
		.card = "aic080",
		.fw_version = { 1, 20, 0, 255 },
		.fw_variant = "AIC080.EMU",
		.hw_version = 0x20010000,
		.serial = "EMU0A080000001",
		.board_serial = "EMU-BOARD-A080-000001",
		.dram_mb = 16384,
		.nsps = 14,
		.mcids = 32,
		.semaphores = 512,
		.pcs = 16,
		.freq_hz = { 1450000000, 2133000000, 1000000000, 1000000000, 400000000 },
		.peak_ops = 350000000000000ull,
		.sku = SKU_PCIE_080,
	},
	{
		.card = "aic200",
		.fw_version = { 2, 0, 0, 255 },
		.fw_variant = "AIC200.EMU",
		.hw_version = 0x30010000,
		.serial = "EMU0A200000001",
		.board_serial = "EMU-BOARD-A200-000001",
		.dram_mb = 32768,
		.nsps = 16,
		.mcids = 32,
		.semaphores = 512,
		.pcs = 16,
		.freq_hz = { 1800000000, 3200000000u, 1200000000, 1200000000, 400000000 },
		.peak_ops = 800000000000000ull,
		.sku = SKU_PCIE,
	},
};

static const struct fw_card_info *fw_card(const struct emu_card *card)
{
	for (unsigned int i = 0; i < sizeof(fw_cards) / sizeof(fw_cards[0]); i++)
		if (card && !strcmp(fw_cards[i].card, card->name))
			return &fw_cards[i];
	return &fw_cards[0];
}

/* A NUL-terminated string in a @size-byte field: cut to fit, rest zero. */
static void put_str(uint8_t *p, size_t size, const char *s)
{
	size_t n = strlen(s);

	if (n > size - 1)
		n = size - 1;
	memcpy(p, s, n);
}

static uint32_t error_answer(uint8_t *out, uint32_t room, int32_t status)
{
	if (room < NNC_FW_ERROR_RESP_LEN)
		return 0;
	memset(out, 0, NNC_FW_ERROR_RESP_LEN);
	put_le32(out, NNC_FW_CMD_UNDEFINED);
	put_le32(out + 4, (uint32_t)status);
	return NNC_FW_ERROR_RESP_LEN;
}

/*
 * STATUS_REQ with info_type 0, the one the runtime sends: the whole
 * host_api_info_data_internal_t, the device's data and the NSP's together.
 */
static uint32_t status_answer(const struct emu_nnc_fw_state *st,
			      const uint8_t *cmd, uint32_t len,
			      uint8_t *out, uint32_t room)
{
	const struct fw_card_info *c = fw_card(st->card);
	uint32_t used_mb = (uint32_t)((st->mem_used + MB - 1) / MB);
	unsigned int active = st->dbc_active;
	uint8_t *p = out;

	if (len < NNC_FW_STATUS_REQ_LEN)
		return error_answer(out, room, NNC_FW_CMD_LENGTH_ERROR);
	if (cmd[4] != 0)
		return error_answer(out, room, NNC_FW_PARAMETER_ERROR);
	if (room < NNC_FW_STATUS_RESP_LEN)
		return 0;

	memset(p, 0, NNC_FW_STATUS_RESP_LEN);
	put_le32(p + SR_TYPE, NNC_FW_CMD_STATUS_RESP);
	put_le32(p + SR_STATUS, NNC_FW_SUCCESS);
	p[SR_FORMAT] = NNC_FW_STATUS_FORMAT;
	memcpy(p + SR_FW_VERSION, c->fw_version, 4);
	put_str(p + SR_FW_QC, SR_FW_STR_LEN, "QAIC.EMU.FW." QAIC_EMU_VERSION);
	put_str(p + SR_FW_OEM, SR_FW_STR_LEN, "qaic-emu " QAIC_EMU_VERSION);
	put_str(p + SR_FW_VARIANT, SR_FW_VARIANT_LEN, c->fw_variant);
	put_le32(p + SR_HW_VERSION, c->hw_version);
	put_str(p + SR_SERIAL, NNC_FW_SERIAL_LEN, st->serial ? st->serial : c->serial);
	put_str(p + SR_BOARD_SERIAL, NNC_FW_BOARD_SERIAL_LEN,
		st->board_serial ? st->board_serial : c->board_serial);

	put_le32(p + SR_DRAM_TOTAL, c->dram_mb);
	put_le32(p + SR_DRAM_FREE, used_mb < c->dram_mb ? c->dram_mb - used_mb : 0);
	p[SR_VC_TOTAL] = (uint8_t)st->dbc_total;
	p[SR_VC_FREE] = (uint8_t)(active < st->dbc_total ? st->dbc_total - active : 0);
	/* Each DBC granted runs one network on one NSP of the emulated card */
	p[SR_NSP_TOTAL] = c->nsps;
	p[SR_NSP_FREE] = (uint8_t)(active < c->nsps ? c->nsps - active : 0);
	put_le32(p + SR_MCID_TOTAL, c->mcids);
	put_le32(p + SR_MCID_FREE, c->mcids);
	put_le32(p + SR_SEM_TOTAL, c->semaphores);
	put_le32(p + SR_SEM_FREE, c->semaphores);
	p[SR_PC_TOTAL] = c->pcs;
	for (unsigned int i = 0; i < 5; i++)
		put_le32(p + SR_FREQ_HZ + 4 * i, c->freq_hz[i]);
	put_le64(p + SR_PEAK_COMPUTE, c->peak_ops);

	p[SR_NWS_LOADED] = (uint8_t)active;
	p[SR_NWS_ACTIVE] = (uint8_t)active;
	put_le16(p + SR_META_VERSION, META_MAJOR);
	put_le16(p + SR_META_VERSION + 2, META_MINOR);
	put_le16(p + SR_NNC_VERSION, NNC_CMD_MAJOR);
	put_le16(p + SR_NNC_VERSION + 2, NNC_CMD_MINOR);
	put_str(p + SR_SBL_IMAGE, SR_SBL_IMAGE_LEN, "SBL.EMU." QAIC_EMU_VERSION);
	put_le32(p + SR_PVS_VERSION, 1);
	p[SR_SKU] = c->sku;

	memcpy(p + SR_NSP_VERSION, c->fw_version, 4);
	put_str(p + SR_NSP_QC, SR_NSP_QC_LEN, "QAIC.EMU.NSP." QAIC_EMU_VERSION);
	put_str(p + SR_NSP_OEM, SR_NSP_OEM_LEN, "qaic-emu " QAIC_EMU_VERSION);
	put_str(p + SR_NSP_VARIANT, SR_NSP_VARIANT_LEN, c->fw_variant);
	return NNC_FW_STATUS_RESP_LEN;
}

uint32_t emu_nnc_fw_answer(const struct emu_nnc_fw_state *st,
			   const uint8_t *cmd, uint32_t len,
			   uint8_t *out, uint32_t room)
{
	if (len < 4)
		return error_answer(out, room, NNC_FW_CMD_LENGTH_ERROR);
	switch (get_le32(cmd)) {
	case NNC_FW_CMD_STATUS_REQ:
		return status_answer(st, cmd, len, out, room);
	default:
		return error_answer(out, room, NNC_FW_UNDEFINED_REQUEST);
	}
}
