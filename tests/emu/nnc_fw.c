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
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "card.h"
#include "elf_image.h"
#include "crc32.h"
#include "le_bytes.h"
#include "nnc_fw.h"
#include "workload.h"

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

/* ------------------------------------------------------------------ */
/* The program lifecycle: the firmware's tables */

/*
 * Request layouts (QNncProtocol.h, packed), offsets from the command's
 * type. The answers are written by the functions that build them.
 */
#define LE_TAG			4	/* LOAD_ELF_REQ: tag, process_id, */
#define LE_METADATA_CRC		12	/* metadata_crc, network_name[64], */
#define LE_DATA_LENGTH		80	/* data_length u64, fb crc, pad[4] */
#define LC_TAG			8	/* LOAD_CONSTANTS_REQ: process_id, tag, */
#define LC_CRC			12	/* constants_crc, data_length u64, */
#define LC_DATA_LENGTH		16	/* constants_name[64] */
#define LX_DESC_LEN		72	/* EX: process_id, name[64], descriptor_len */
#define LP_TAG			8	/* PAYLOAD: process_id, tag, constants_id, */
#define LP_ID			12	/* data_length u64, offset u64 */
#define LP_DATA_LENGTH		16
#define LP_OFFSET		24
#define AQ_CONSTS_ID		8	/* ACTIVATE_REQ: process_id, constants_id, */
#define AQ_ELF_ID		12	/* elf_id, reservation_type, */
#define AQ_RES_TYPE		16	/* resource_res_id, opt_vc_setup, */
#define AQ_OPT_VC		24	/* vc_res_id, initial_activation_state, */
#define AQ_VC_RES_ID		28	/* dma_type, u8 opt_support_datapath_ */
#define AQ_STATE		32	/* switching, pad[7] */
#define DQ_ID			4	/* DEACTIVATE_REQ: activation_id, */
#define DQ_TEARDOWN		8	/* opt_vc_teardown, padding */
#define SC_NUM			4	/* ACTIVATE_STATE_CMD_REQ: num_cmds, */
#define SC_CMDS			8	/* 8 x (acid, cmd) */
#define SC_MAX			8	/* NNC_ACTIVATION_CMD_TYPE_MAX_COMMANDS */
#define SC_STATE_MAX		2	/* STANDBY, READY, DEACTIVATE */
#define RI_GRP			8	/* RESOURCE_INFO_REQ: process_id, res_grp_id */

/* ACTIVATE_RESP (nnc_cmd_activate_response_t), 88 bytes */
#define AR_TYPE			0
#define AR_STATUS		4
#define AR_ACTIVATION_ID	8
#define AR_VC_ID		12
#define AR_DDR_BASE		16	/* u64 */
#define AR_DYN_DDR_BASE		24	/* u64 */
#define AR_MCID_BASE		32	/* u64 */
#define AR_MCID_BASE_DMA	40	/* u64 */
#define AR_DMA_TYPE		48
#define AR_PC_MASK		52
#define AR_POLL_ADDR		56	/* u64 */
#define AR_POLL_SIZE		64
#define AR_POLL_DATA		68
#define AR_DOORBELL_ADDR	72	/* u64 */
#define AR_DOORBELL_LEN		80	/* u8 */
#define AR_DOORBELL_VALID	81	/* u8 */
#define AR_NSP_MASK		82	/* u32, unaligned */

#define NO_ID			0xffffffffu	/* -1: reservation ids, res_grp_id */

struct fw_elf {
	bool used;
	uint32_t id;
	uint32_t handle;
	uint64_t len;
	uint32_t crc;
	uint32_t metadata_crc;
	unsigned int users;		/* activations */
	uint8_t *data;			/* the image, len bytes */
	struct emu_elf_seg segs[EMU_ELF_MAX_SEGS];
	int nsegs;
};

struct fw_consts {
	bool used;
	bool ex;			/* LOAD_CONSTANTS_EX: written by payloads */
	uint32_t id;
	uint32_t handle;
	uint64_t len;			/* bytes; EX: extent written so far */
	uint32_t crc;			/* LOAD_CONSTANTS: of the bytes */
	uint8_t *data;			/* EX: the region, len bytes */
	unsigned int users;
};

struct fw_act {
	bool used;
	uint32_t id;
	uint32_t handle;
	uint32_t elf_id;
	uint32_t consts_id;		/* 0: none */
	unsigned int dbc;
	int32_t state;			/* enum nnc_activation_state_type */
	uint64_t ddr_base;		/* the image's lowest segment */
};

struct fw_counters {
	uint64_t elf_loads;
	uint64_t consts_loads;		/* LOAD_CONSTANTS and LOAD_CONSTANTS_EX */
	uint64_t consts_payloads;
	uint64_t activations;
	uint64_t deactivations;		/* by DEACTIVATE_REQ */
	uint64_t activations_ended;	/* by a release of their DBC */
	uint64_t unloads;
	uint64_t state_cmds;
	uint64_t queries;		/* STATUS, RESOURCE_INFO, PERFORMANCE_INFO */
	uint64_t errors;		/* answers with a non-zero status */
	uint64_t err_length;		/* -17 */
	uint64_t err_undefined;		/* -3 */
	uint64_t err_param;		/* -6, -57 */
	uint64_t err_not_found;		/* -11 */
	uint64_t err_not_permitted;	/* -9 */
	uint64_t err_dma;		/* -2 */
	uint64_t err_mem;		/* -4 */
	uint64_t err_nsp;		/* -13 */
	uint64_t err_vc;		/* -14 */
	uint64_t err_no_nw;		/* -116 */
	uint64_t err_other;		/* -1 */
};

struct emu_nnc_fw {
	struct fw_elf elfs[NNC_FW_MAX_ELFS];
	struct fw_consts consts[NNC_FW_MAX_CONSTS];
	struct fw_act acts[NNC_FW_MAX_ACTIVATIONS];
	uint32_t last_id;		/* ids of all three kinds, one counter */
	uint64_t held;			/* bytes of ELFs and constants */
	struct fw_counters c;
};

/* Count the status of a final answer; returns it. */
static int32_t note(struct emu_nnc_fw *fw, int32_t st)
{
	struct fw_counters *c = &fw->c;

	if (!st)
		return st;
	c->errors++;
	switch (st) {
	case NNC_FW_CMD_LENGTH_ERROR:
		c->err_length++;
		break;
	case NNC_FW_UNDEFINED_REQUEST:
		c->err_undefined++;
		break;
	case NNC_FW_PARAMETER_ERROR:
	case NNC_FW_SWITCH_PARAM_ERROR:
		c->err_param++;
		break;
	case NNC_FW_RESOURCE_NOT_FOUND:
		c->err_not_found++;
		break;
	case NNC_FW_OPERATION_NOT_PERMITTED:
		c->err_not_permitted++;
		break;
	case NNC_FW_DMA_ERROR:
		c->err_dma++;
		break;
	case NNC_FW_MEM_ALLOC_ERROR:
		c->err_mem++;
		break;
	case NNC_FW_NSP_ALLOC_ERROR:
		c->err_nsp++;
		break;
	case NNC_FW_VC_ALLOC_ERROR:
		c->err_vc++;
		break;
	case NNC_FW_NO_NW_TO_DEACTIVATE:
		c->err_no_nw++;
		break;
	default:
		c->err_other++;
		break;
	}
	return st;
}

static bool id_live(const struct emu_nnc_fw *fw, uint32_t id)
{
	for (unsigned int i = 0; i < NNC_FW_MAX_ELFS; i++)
		if (fw->elfs[i].used && fw->elfs[i].id == id)
			return true;
	for (unsigned int i = 0; i < NNC_FW_MAX_CONSTS; i++)
		if (fw->consts[i].used && fw->consts[i].id == id)
			return true;
	for (unsigned int i = 0; i < NNC_FW_MAX_ACTIVATIONS; i++)
		if (fw->acts[i].used && fw->acts[i].id == id)
			return true;
	return false;
}

/*
 * A new id: non-zero, and no live ELF, constants or activation has it.
 * One counter for all three, so that the id of one kind is never taken
 * for another's; it goes on across resets. At most 144 ids are live: the
 * loop ends.
 */
static uint32_t new_id(struct emu_nnc_fw *fw)
{
	for (;;) {
		uint32_t id = ++fw->last_id;

		if (id && !id_live(fw, id))
			return id;
	}
}

/* The handle's ELF @id, or NULL: another handle's ids are unknown to it. */
static struct fw_elf *elf_find(struct emu_nnc_fw *fw, uint32_t handle,
			       uint32_t id)
{
	for (unsigned int i = 0; id && i < NNC_FW_MAX_ELFS; i++) {
		struct fw_elf *e = &fw->elfs[i];

		if (e->used && e->id == id && e->handle == handle)
			return e;
	}
	return NULL;
}

static struct fw_consts *consts_find(struct emu_nnc_fw *fw, uint32_t handle,
				     uint32_t id)
{
	for (unsigned int i = 0; id && i < NNC_FW_MAX_CONSTS; i++) {
		struct fw_consts *k = &fw->consts[i];

		if (k->used && k->id == id && k->handle == handle)
			return k;
	}
	return NULL;
}

static struct fw_act *act_find(struct emu_nnc_fw *fw, uint32_t handle,
			       uint32_t id)
{
	for (unsigned int i = 0; id && i < NNC_FW_MAX_ACTIVATIONS; i++) {
		struct fw_act *a = &fw->acts[i];

		if (a->used && a->id == id && a->handle == handle)
			return a;
	}
	return NULL;
}

static void elf_free(struct emu_nnc_fw *fw, struct fw_elf *e)
{
	fw->held -= e->len;
	free(e->data);
	memset(e, 0, sizeof(*e));
}

static void consts_free(struct emu_nnc_fw *fw, struct fw_consts *k)
{
	fw->held -= k->len;
	free(k->data);
	memset(k, 0, sizeof(*k));
}

/* The activation ends: its ELF and constants are free to unload. */
static void act_end(struct emu_nnc_fw *fw, struct fw_act *a)
{
	struct fw_elf *e = elf_find(fw, a->handle, a->elf_id);
	struct fw_consts *k = consts_find(fw, a->handle, a->consts_id);

	if (e && e->users)
		e->users--;
	if (k && k->users)
		k->users--;
	memset(a, 0, sizeof(*a));
}

/* Activations the card can hold: one NSP each. */
static unsigned int act_max(const struct emu_card *card)
{
	unsigned int n = fw_card(card)->nsps;

	return n < NNC_FW_MAX_ACTIVATIONS ? n : NNC_FW_MAX_ACTIVATIONS;
}

struct emu_nnc_fw *emu_nnc_fw_create(void)
{
	return calloc(1, sizeof(struct emu_nnc_fw));
}

void emu_nnc_fw_reset(struct emu_nnc_fw *fw)
{
	if (!fw)
		return;
	for (unsigned int i = 0; i < NNC_FW_MAX_ACTIVATIONS; i++)
		if (fw->acts[i].used)
			act_end(fw, &fw->acts[i]);
	for (unsigned int i = 0; i < NNC_FW_MAX_ELFS; i++)
		if (fw->elfs[i].used)
			elf_free(fw, &fw->elfs[i]);
	for (unsigned int i = 0; i < NNC_FW_MAX_CONSTS; i++)
		if (fw->consts[i].used)
			consts_free(fw, &fw->consts[i]);
	fw->held = 0;
}

void emu_nnc_fw_destroy(struct emu_nnc_fw *fw)
{
	emu_nnc_fw_reset(fw);
	free(fw);
}

void emu_nnc_fw_terminate(struct emu_nnc_fw *fw, uint32_t handle)
{
	if (!fw)
		return;
	for (unsigned int i = 0; i < NNC_FW_MAX_ACTIVATIONS; i++)
		if (fw->acts[i].used && fw->acts[i].handle == handle)
			act_end(fw, &fw->acts[i]);
	for (unsigned int i = 0; i < NNC_FW_MAX_ELFS; i++)
		if (fw->elfs[i].used && fw->elfs[i].handle == handle)
			elf_free(fw, &fw->elfs[i]);
	for (unsigned int i = 0; i < NNC_FW_MAX_CONSTS; i++)
		if (fw->consts[i].used && fw->consts[i].handle == handle)
			consts_free(fw, &fw->consts[i]);
}

void emu_nnc_fw_dbc_released(struct emu_nnc_fw *fw, unsigned int dbc)
{
	if (!fw)
		return;
	for (unsigned int i = 0; i < NNC_FW_MAX_ACTIVATIONS; i++) {
		if (fw->acts[i].used && fw->acts[i].dbc == dbc) {
			act_end(fw, &fw->acts[i]);
			fw->c.activations_ended++;
		}
	}
}

uint64_t emu_nnc_fw_mem_held(const struct emu_nnc_fw *fw)
{
	return fw ? fw->held : 0;
}

int emu_nnc_fw_lookup(const struct emu_nnc_fw *fw, bool consts, uint32_t id,
		      struct emu_nnc_fw_item *out)
{
	for (unsigned int i = 0; fw && id && !consts && i < NNC_FW_MAX_ELFS; i++) {
		const struct fw_elf *e = &fw->elfs[i];

		if (e->used && e->id == id) {
			*out = (struct emu_nnc_fw_item){
				.handle = e->handle, .len = e->len,
				.crc = e->crc, .users = e->users,
			};
			return 0;
		}
	}
	for (unsigned int i = 0; fw && id && consts && i < NNC_FW_MAX_CONSTS; i++) {
		const struct fw_consts *k = &fw->consts[i];

		if (k->used && k->id == id) {
			*out = (struct emu_nnc_fw_item){
				.handle = k->handle, .len = k->len,
				.crc = k->ex ? emu_crc32(0, k->data, k->len) : k->crc,
				.users = k->users,
			};
			return 0;
		}
	}
	return -1;
}

int emu_nnc_fw_activation(const struct emu_nnc_fw *fw, uint32_t id,
			  uint32_t *handle, uint32_t *elf_id,
			  uint32_t *constants_id, unsigned int *dbc,
			  int32_t *state)
{
	for (unsigned int i = 0; fw && id && i < NNC_FW_MAX_ACTIVATIONS; i++) {
		const struct fw_act *a = &fw->acts[i];

		if (!a->used || a->id != id)
			continue;
		if (handle)
			*handle = a->handle;
		if (elf_id)
			*elf_id = a->elf_id;
		if (constants_id)
			*constants_id = a->consts_id;
		if (dbc)
			*dbc = a->dbc;
		if (state)
			*state = a->state;
		return 0;
	}
	return -1;
}

/* ------------------------------------------------------------------ */
/* Answers */

static uint32_t error_answer(uint8_t *out, uint32_t room, int32_t status)
{
	if (room < NNC_FW_ERROR_RESP_LEN)
		return 0;
	memset(out, 0, NNC_FW_ERROR_RESP_LEN);
	put_le32(out, NNC_FW_CMD_UNDEFINED);
	put_le32(out + 4, (uint32_t)status);
	return NNC_FW_ERROR_RESP_LEN;
}

/* LOAD_ELF_RESP, LOAD_CONSTANTS_RESP: type, id, status_code, padding. */
static uint32_t load_answer(uint8_t *out, uint32_t room, uint32_t type,
			    uint32_t id, int32_t status)
{
	if (room < NNC_FW_LOAD_RESP_LEN)
		return 0;
	memset(out, 0, NNC_FW_LOAD_RESP_LEN);
	put_le32(out, type);
	put_le32(out + 4, status ? 0 : id);
	put_le32(out + 8, (uint32_t)status);
	return NNC_FW_LOAD_RESP_LEN;
}

/* The answers of type and status_code only: UNLOAD_*, DEACTIVATE, ... */
static uint32_t status_only_answer(uint8_t *out, uint32_t room, uint32_t type,
				   int32_t status)
{
	if (room < NNC_FW_STATUS_ONLY_RESP_LEN)
		return 0;
	put_le32(out, type);
	put_le32(out + 4, (uint32_t)status);
	return NNC_FW_STATUS_ONLY_RESP_LEN;
}

/*
 * ACTIVATE_RESP. The emulated card does not relocate a network: its device
 * memory is one flat region (the DMA Bridge's), so the DDR and MCID bases
 * are 0; it has no dedicated DMA channels (dma_type 0, pc_mask 0) and no
 * datapath switching doorbell (not valid). Each activation runs on one
 * NSP, the one of its slot: nspMask has that bit.
 */
static uint32_t activate_answer(uint8_t *out, uint32_t room, int32_t status,
				const struct fw_act *a, unsigned int slot)
{
	if (room < NNC_FW_ACTIVATE_RESP_LEN)
		return 0;
	memset(out, 0, NNC_FW_ACTIVATE_RESP_LEN);
	put_le32(out + AR_TYPE, NNC_FW_CMD_ACTIVATE_RESP);
	put_le32(out + AR_STATUS, (uint32_t)status);
	if (status || !a)
		return NNC_FW_ACTIVATE_RESP_LEN;
	put_le32(out + AR_ACTIVATION_ID, a->id);
	put_le32(out + AR_VC_ID, a->dbc);
	put_le64(out + AR_DDR_BASE, a->ddr_base);
	put_le64(out + AR_DYN_DDR_BASE, 0);
	put_le64(out + AR_MCID_BASE, 0);
	put_le64(out + AR_MCID_BASE_DMA, 0);
	put_le32(out + AR_DMA_TYPE, 0);
	put_le32(out + AR_PC_MASK, 0);
	out[AR_DOORBELL_VALID] = 0;
	put_le32(out + AR_NSP_MASK, 1u << slot);
	return NNC_FW_ACTIVATE_RESP_LEN;
}

/* host_api_resource_info_internal_t, 40 bytes at @p */
static void put_resource_info(const struct emu_nnc_fw_state *st, uint8_t *p)
{
	const struct fw_card_info *c = fw_card(st->card);
	uint64_t used = st->mem_used + emu_nnc_fw_mem_held(st->fw);
	uint64_t used_mb = (used + MB - 1) / MB;
	unsigned int active = st->dbc_active;

	put_le32(p + SR_DRAM_TOTAL - SR_DRAM_TOTAL, c->dram_mb);
	put_le32(p + SR_DRAM_FREE - SR_DRAM_TOTAL,
		 used_mb < c->dram_mb ? c->dram_mb - (uint32_t)used_mb : 0);
	p[SR_VC_TOTAL - SR_DRAM_TOTAL] = (uint8_t)st->dbc_total;
	p[SR_VC_FREE - SR_DRAM_TOTAL] =
		(uint8_t)(active < st->dbc_total ? st->dbc_total - active : 0);
	/* Each DBC granted runs one network on one NSP of the emulated card */
	p[SR_NSP_TOTAL - SR_DRAM_TOTAL] = c->nsps;
	p[SR_NSP_FREE - SR_DRAM_TOTAL] = (uint8_t)(active < c->nsps ? c->nsps - active : 0);
	put_le32(p + SR_MCID_TOTAL - SR_DRAM_TOTAL, c->mcids);
	put_le32(p + SR_MCID_FREE - SR_DRAM_TOTAL, c->mcids);
	put_le32(p + SR_SEM_TOTAL - SR_DRAM_TOTAL, c->semaphores);
	put_le32(p + SR_SEM_FREE - SR_DRAM_TOTAL, c->semaphores);
	p[SR_PC_TOTAL - SR_DRAM_TOTAL] = c->pcs;
}

/* host_api_performance_info_internal_t, 56 bytes at @p */
static void put_perf_info(const struct emu_nnc_fw_state *st, uint8_t *p)
{
	const struct fw_card_info *c = fw_card(st->card);

	for (unsigned int i = 0; i < 5; i++)
		put_le32(p + SR_FREQ_HZ - SR_FREQ_HZ + 4 * i, c->freq_hz[i]);
	put_le64(p + SR_PEAK_COMPUTE - SR_FREQ_HZ, c->peak_ops);
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
	const struct emu_nnc_fw *fw = st->fw;
	uint32_t consts = 0, consts_in_use = 0;
	unsigned int elfs = 0, acts = 0;
	uint8_t *p = out;

	if (len < NNC_FW_STATUS_REQ_LEN)
		return error_answer(out, room, NNC_FW_CMD_LENGTH_ERROR);
	if (cmd[4] != 0)
		return error_answer(out, room, NNC_FW_PARAMETER_ERROR);
	if (room < NNC_FW_STATUS_RESP_LEN)
		return 0;

	for (unsigned int i = 0; fw && i < NNC_FW_MAX_ELFS; i++)
		elfs += fw->elfs[i].used;
	for (unsigned int i = 0; fw && i < NNC_FW_MAX_CONSTS; i++) {
		consts += fw->consts[i].used;
		consts_in_use += fw->consts[i].used && fw->consts[i].users;
	}
	for (unsigned int i = 0; fw && i < NNC_FW_MAX_ACTIVATIONS; i++)
		acts += fw->acts[i].used;

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

	put_resource_info(st, p + SR_DRAM_TOTAL);
	put_perf_info(st, p + SR_FREQ_HZ);

	/* What the firmware holds, all handles together */
	put_le32(p + SR_CONSTS_LOADED, consts);
	put_le32(p + SR_CONSTS_IN_USE, consts_in_use);
	p[SR_NWS_LOADED] = (uint8_t)elfs;
	p[SR_NWS_ACTIVE] = (uint8_t)acts;
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

/*
 * RESOURCE_INFO_REQ: the card's resources as in the status (res_grp_id -1,
 * the system's; the card has no resource groups). RESOURCE_INFO_RESP:
 * type, res_grp_id, host_api_resource_info_internal_t, status, padding.
 */
static uint32_t resource_info_answer(const struct emu_nnc_fw_state *st,
				     const uint8_t *cmd, uint32_t len,
				     uint8_t *out, uint32_t room)
{
	uint32_t grp = len >= NNC_FW_RESOURCE_INFO_REQ_LEN ? get_le32(cmd + RI_GRP) : NO_ID;
	int32_t status = NNC_FW_SUCCESS;

	if (room < NNC_FW_RESOURCE_INFO_RESP_LEN)
		return 0;
	if (len < NNC_FW_RESOURCE_INFO_REQ_LEN)
		status = NNC_FW_CMD_LENGTH_ERROR;
	else if (grp != NO_ID)
		status = NNC_FW_RESOURCE_NOT_FOUND;
	memset(out, 0, NNC_FW_RESOURCE_INFO_RESP_LEN);
	put_le32(out, NNC_FW_CMD_RESOURCE_INFO_RESP);
	put_le32(out + 4, grp);
	if (!status)
		put_resource_info(st, out + 8);
	put_le32(out + 48, (uint32_t)note(st->fw, status));
	st->fw->c.queries++;
	return NNC_FW_RESOURCE_INFO_RESP_LEN;
}

/* PERFORMANCE_INFO_RESP: type, status, host_api_performance_info_internal_t */
static uint32_t perf_info_answer(const struct emu_nnc_fw_state *st,
				 uint8_t *out, uint32_t room)
{
	if (room < NNC_FW_PERF_INFO_RESP_LEN)
		return 0;
	memset(out, 0, NNC_FW_PERF_INFO_RESP_LEN);
	put_le32(out, NNC_FW_CMD_PERFORMANCE_INFO_RESP);
	put_perf_info(st, out + 8);
	st->fw->c.queries++;
	return NNC_FW_PERF_INFO_RESP_LEN;
}

/* ------------------------------------------------------------------ */
/* Commands answered at once */

/* UNLOAD_ELF_REQ, UNLOAD_CONSTANTS_REQ: type, id. */
static int32_t do_unload(struct emu_nnc_fw *fw, uint32_t handle,
			 const uint8_t *cmd, bool consts)
{
	uint32_t id = get_le32(cmd + 4);

	if (consts) {
		struct fw_consts *k = consts_find(fw, handle, id);

		if (!k)
			return NNC_FW_RESOURCE_NOT_FOUND;
		if (k->users)
			return NNC_FW_OPERATION_NOT_PERMITTED;
		consts_free(fw, k);
	} else {
		struct fw_elf *e = elf_find(fw, handle, id);

		if (!e)
			return NNC_FW_RESOURCE_NOT_FOUND;
		if (e->users)
			return NNC_FW_OPERATION_NOT_PERMITTED;
		elf_free(fw, e);
	}
	fw->c.unloads++;
	return NNC_FW_SUCCESS;
}

/*
 * DEACTIVATE_REQ. The host's DEACTIVATE transaction has no wire form (the
 * driver takes the DBC from the file and waits for the card to release
 * it): with opt_vc_teardown 1 the activation's DBC is released, and the
 * manager reports it with DEACTIVATE_FROM_DEV; with 0 the DBC stays the
 * handle's.
 */
static int32_t do_deactivate(struct emu_nnc_fw *fw, uint32_t handle,
			     const uint8_t *cmd, struct emu_nnc_fw_action *act)
{
	uint32_t teardown = get_le32(cmd + DQ_TEARDOWN);
	struct fw_act *a;

	if (teardown > 1)
		return NNC_FW_PARAMETER_ERROR;
	a = act_find(fw, handle, get_le32(cmd + DQ_ID));
	if (!a)
		return NNC_FW_NO_NW_TO_DEACTIVATE;
	if (teardown)
		act->release_dbc = (int)a->dbc;
	act_end(fw, a);
	fw->c.deactivations++;
	return NNC_FW_SUCCESS;
}

/* LOAD_CONSTANTS_EX_REQ: an empty region, which payloads fill. */
static int32_t do_load_consts_ex(struct emu_nnc_fw *fw, uint32_t handle,
				 const uint8_t *cmd, uint32_t len, uint32_t *id)
{
	struct fw_consts *k = NULL;

	/* The descriptor (the compiler's AICConstantDescriptor) is not read */
	if (get_le32(cmd + LX_DESC_LEN) > len - NNC_FW_LOAD_CONSTANTS_EX_REQ_LEN)
		return NNC_FW_CMD_LENGTH_ERROR;
	for (unsigned int i = 0; i < NNC_FW_MAX_CONSTS && !k; i++)
		if (!fw->consts[i].used)
			k = &fw->consts[i];
	if (!k)
		return NNC_FW_MEM_ALLOC_ERROR;
	*k = (struct fw_consts){
		.used = true, .ex = true, .id = new_id(fw), .handle = handle,
	};
	*id = k->id;
	fw->c.consts_loads++;
	return NNC_FW_SUCCESS;
}

/*
 * ACTIVATE_STATE_CMD_REQ: a state for each of num_cmds activations of the
 * handle, all or none. The state is recorded; the emulated NSPs run the
 * same in every state.
 */
static int32_t do_state_cmd(struct emu_nnc_fw *fw, uint32_t handle,
			    const uint8_t *cmd)
{
	uint32_t n = get_le32(cmd + SC_NUM);

	if (!n || n > SC_MAX)
		return NNC_FW_SWITCH_PARAM_ERROR;
	for (uint32_t i = 0; i < n; i++) {
		const uint8_t *c = cmd + SC_CMDS + 8 * i;

		if (get_le32(c + 4) > SC_STATE_MAX)
			return NNC_FW_PARAMETER_ERROR;
		if (!act_find(fw, handle, get_le32(c)))
			return NNC_FW_RESOURCE_NOT_FOUND;
	}
	for (uint32_t i = 0; i < n; i++) {
		const uint8_t *c = cmd + SC_CMDS + 8 * i;

		act_find(fw, handle, get_le32(c))->state = (int32_t)get_le32(c + 4);
	}
	fw->c.state_cmds++;
	return NNC_FW_SUCCESS;
}

/* ------------------------------------------------------------------ */
/* Commands completed at the end of their request */

/* The command's layout length and answer; 0 if it is not such a command. */
static uint32_t pending_layout(uint32_t type, uint32_t *resp, uint32_t *resp_len)
{
	switch (type) {
	case NNC_FW_CMD_LOAD_ELF_REQ:
		*resp = NNC_FW_CMD_LOAD_ELF_RESP;
		*resp_len = NNC_FW_LOAD_RESP_LEN;
		return NNC_FW_LOAD_ELF_REQ_LEN;
	case NNC_FW_CMD_LOAD_CONSTANTS_REQ:
		*resp = NNC_FW_CMD_LOAD_CONSTANTS_RESP;
		*resp_len = NNC_FW_LOAD_RESP_LEN;
		return NNC_FW_LOAD_CONSTANTS_REQ_LEN;
	case NNC_FW_CMD_LOAD_CONSTANTS_PAYLOAD_REQ:
		*resp = NNC_FW_CMD_LOAD_CONSTANTS_RESP;
		*resp_len = NNC_FW_LOAD_RESP_LEN;
		return NNC_FW_LOAD_PAYLOAD_REQ_LEN;
	case NNC_FW_CMD_ACTIVATE_REQ:
		*resp = NNC_FW_CMD_ACTIVATE_RESP;
		*resp_len = NNC_FW_ACTIVATE_RESP_LEN;
		return NNC_FW_ACTIVATE_REQ_LEN;
	default:
		return 0;
	}
}

/* An answer of @type and @len bytes with @status, every other field 0. */
static uint32_t resp_with_status(uint8_t *out, uint32_t room, uint32_t type,
				 uint32_t len, int32_t status)
{
	if (type == NNC_FW_CMD_ACTIVATE_RESP)
		return activate_answer(out, room, status, NULL, 0);
	if (len == NNC_FW_LOAD_RESP_LEN)
		return load_answer(out, room, type, 0, status);
	return status_only_answer(out, room, type, status);
}

/*
 * Check the command, and answer it for now: its RESP type, status
 * NNC_FW_ERROR, which emu_nnc_fw_complete() overwrites.
 */
static uint32_t defer(const struct emu_nnc_fw_state *st, const uint8_t *cmd,
		      uint32_t len, uint8_t *out, uint32_t room,
		      struct emu_nnc_fw_action *act)
{
	uint32_t type = get_le32(cmd), resp = 0, resp_len = 0;
	uint32_t need = pending_layout(type, &resp, &resp_len);
	struct emu_nnc_fw_pending *p = &act->p;

	if (len < need)
		return resp_with_status(out, room, resp, resp_len,
					note(st->fw, NNC_FW_CMD_LENGTH_ERROR));
	/* More waiting answers than a request may have: a general error */
	if (!st->can_defer)
		return resp_with_status(out, room, resp, resp_len,
					note(st->fw, NNC_FW_ERROR));
	if (room < resp_len)
		return 0;
	memset(p, 0, sizeof(*p));
	p->handle = st->handle;
	p->len = need;
	memcpy(p->cmd, cmd, need);
	switch (type) {
	case NNC_FW_CMD_LOAD_ELF_REQ:
		p->wants_data = true;
		p->tag = get_le32(cmd + LE_TAG);
		p->data_length = get_le64(cmd + LE_DATA_LENGTH);
		break;
	case NNC_FW_CMD_LOAD_CONSTANTS_REQ:
		p->wants_data = true;
		p->tag = get_le32(cmd + LC_TAG);
		p->data_length = get_le64(cmd + LC_DATA_LENGTH);
		break;
	case NNC_FW_CMD_LOAD_CONSTANTS_PAYLOAD_REQ:
		p->wants_data = true;
		p->tag = get_le32(cmd + LP_TAG);
		p->data_length = get_le64(cmd + LP_DATA_LENGTH);
		break;
	default:
		p->wants_dbc = true;
		break;
	}
	act->pending = true;
	return resp_with_status(out, room, resp, resp_len, NNC_FW_ERROR);
}

/* LOAD_ELF_REQ: the image is what the request's transfer brought. */
static int32_t complete_load_elf(struct emu_nnc_fw *fw,
				 const struct emu_nnc_fw_pending *p,
				 const struct emu_nnc_fw_arrived *in, uint32_t *id)
{
	uint64_t len = get_le64(p->cmd + LE_DATA_LENGTH);
	struct emu_elf_seg segs[EMU_ELF_MAX_SEGS];
	struct fw_elf *e = NULL;
	uint8_t *data;
	int nsegs;

	if (!len)
		return NNC_FW_PARAMETER_ERROR;
	if (len > NNC_FW_MAX_DATA || len > in->room)
		return NNC_FW_MEM_ALLOC_ERROR;
	for (unsigned int i = 0; i < NNC_FW_MAX_ELFS && !e; i++)
		if (!fw->elfs[i].used)
			e = &fw->elfs[i];
	if (!e)
		return NNC_FW_MEM_ALLOC_ERROR;
	if (in->len != len)
		return NNC_FW_DMA_ERROR;
	/*
	 * An image with ELF's magic must be a sound one; any other is kept
	 * as opaque bytes, placed nowhere (tests load such images).
	 */
	nsegs = emu_elf_segments(in->data, len, segs);
	if (nsegs < 0 && len >= 4 && !memcmp(in->data, "\x7f" "ELF", 4))
		return NNC_FW_METADATA_ERROR;
	if (nsegs < 0)
		nsegs = 0;
	data = malloc((size_t)len);
	if (!data)
		return NNC_FW_MEM_ALLOC_ERROR;
	memcpy(data, in->data, (size_t)len);
	*e = (struct fw_elf){
		.used = true, .id = new_id(fw), .handle = p->handle, .len = len,
		.crc = emu_crc32(0, in->data, len),
		.metadata_crc = get_le32(p->cmd + LE_METADATA_CRC),
		.data = data, .nsegs = nsegs,
	};
	memcpy(e->segs, segs, sizeof(segs));
	fw->held += len;
	*id = e->id;
	fw->c.elf_loads++;
	return NNC_FW_SUCCESS;
}

/*
 * LOAD_CONSTANTS_REQ: as LOAD_ELF, but data_length 0 is allowed (no
 * bytes), and a non-zero constants_crc must be the CRC-32 of the bytes.
 */
static int32_t complete_load_consts(struct emu_nnc_fw *fw,
				    const struct emu_nnc_fw_pending *p,
				    const struct emu_nnc_fw_arrived *in,
				    uint32_t *id)
{
	uint64_t len = get_le64(p->cmd + LC_DATA_LENGTH);
	uint32_t want = get_le32(p->cmd + LC_CRC), crc;
	struct fw_consts *k = NULL;
	uint8_t *data;

	if (len > NNC_FW_MAX_DATA || len > in->room)
		return NNC_FW_MEM_ALLOC_ERROR;
	for (unsigned int i = 0; i < NNC_FW_MAX_CONSTS && !k; i++)
		if (!fw->consts[i].used)
			k = &fw->consts[i];
	if (!k)
		return NNC_FW_MEM_ALLOC_ERROR;
	if (in->len != len)
		return NNC_FW_DMA_ERROR;
	crc = len ? emu_crc32(0, in->data, len) : 0;
	if (want && want != crc)
		return NNC_FW_PARAMETER_ERROR;
	data = len ? malloc((size_t)len) : NULL;
	if (len && !data)
		return NNC_FW_MEM_ALLOC_ERROR;
	if (len)
		memcpy(data, in->data, (size_t)len);
	*k = (struct fw_consts){
		.used = true, .id = new_id(fw), .handle = p->handle, .len = len,
		.crc = crc, .data = data,
	};
	fw->held += len;
	*id = k->id;
	fw->c.consts_loads++;
	return NNC_FW_SUCCESS;
}

/*
 * LOAD_CONSTANTS_PAYLOAD_REQ: the bytes at offset of a region set up by
 * LOAD_CONSTANTS_EX; the region grows to hold them (zeros in between),
 * up to NNC_FW_MAX_DATA.
 */
static int32_t complete_payload(struct emu_nnc_fw *fw,
				const struct emu_nnc_fw_pending *p,
				const struct emu_nnc_fw_arrived *in, uint32_t *id)
{
	uint64_t len = get_le64(p->cmd + LP_DATA_LENGTH);
	uint64_t off = get_le64(p->cmd + LP_OFFSET);
	struct fw_consts *k = consts_find(fw, p->handle, get_le32(p->cmd + LP_ID));
	uint64_t end, grow;

	if (!k)
		return NNC_FW_RESOURCE_NOT_FOUND;
	if (!k->ex || !len)
		return NNC_FW_PARAMETER_ERROR;
	if (k->users)
		return NNC_FW_OPERATION_NOT_PERMITTED;
	if (off > NNC_FW_MAX_DATA || len > NNC_FW_MAX_DATA - off)
		return NNC_FW_MEM_ALLOC_ERROR;
	end = off + len;
	grow = end > k->len ? end - k->len : 0;
	if (grow > in->room)
		return NNC_FW_MEM_ALLOC_ERROR;
	if (in->len != len)
		return NNC_FW_DMA_ERROR;
	if (grow) {
		uint8_t *data = realloc(k->data, (size_t)end);

		if (!data)
			return NNC_FW_MEM_ALLOC_ERROR;
		memset(data + k->len, 0, (size_t)grow);
		k->data = data;
		k->len = end;
		fw->held += grow;
	}
	memcpy(k->data + off, in->data, (size_t)len);
	*id = k->id;
	fw->c.consts_payloads++;
	return NNC_FW_SUCCESS;
}

/* @len zero bytes at @addr of device memory */
static int zero_mem(const struct emu_nnc_fw_arrived *in, uint64_t addr, uint64_t len)
{
	static const uint8_t zeros[4096];

	while (len) {
		uint64_t n = len < sizeof(zeros) ? len : sizeof(zeros);

		if (in->write_mem(in->mem_ctx, addr, zeros, n))
			return -1;
		addr += n;
		len -= n;
	}
	return 0;
}

/*
 * The activation puts the image in device memory (elf_image.h): each
 * segment with bytes at its address, the rest of it zeroed; the constants
 * into the first segment without bytes. A segment that is a workload
 * program (workload.h) is tied to the activation's DBC: its wait and
 * signal semaphores are that DBC's, whatever the image said, as the
 * firmware sets up a network's semaphores on the virtual channel it runs
 * on. *@base gets the lowest address of a segment with bytes.
 */
static int32_t place_image(const struct emu_nnc_fw_arrived *in, const struct fw_elf *e,
			   const struct fw_consts *k, unsigned int dbc, uint64_t *base)
{
	bool consts_placed = false;
	uint8_t le_dbc[4];

	*base = 0;
	put_le32(le_dbc, dbc);
	for (int i = 0; i < e->nsegs; i++) {
		const struct emu_elf_seg *g = &e->segs[i];

		if (g->filesz && (!*base || g->paddr < *base))
			*base = g->paddr;
		if (!g->filesz && k && !consts_placed && k->len > g->memsz)
			return NNC_FW_METADATA_ERROR;
	}
	if (!in->write_mem)
		return NNC_FW_SUCCESS;
	for (int i = 0; i < e->nsegs; i++) {
		const struct emu_elf_seg *g = &e->segs[i];
		const uint8_t *bytes = e->data + g->offset;

		if (!g->filesz) {
			if (consts_placed || !k)
				continue;
			consts_placed = true;
			if (k->len && in->write_mem(in->mem_ctx, g->paddr, k->data, k->len))
				return NNC_FW_METADATA_ERROR;
			continue;
		}
		if (in->write_mem(in->mem_ctx, g->paddr, bytes, g->filesz) ||
		    zero_mem(in, g->paddr + g->filesz, g->memsz - g->filesz))
			return NNC_FW_METADATA_ERROR;
		if (g->filesz >= EMU_WL_HDR_LEN && get_le32(bytes) == EMU_WL_MAGIC &&
		    (in->write_mem(in->mem_ctx, g->paddr + EMU_WL_H_WAIT_DBC, le_dbc, 4) ||
		     in->write_mem(in->mem_ctx, g->paddr + EMU_WL_H_SIG0_DBC, le_dbc, 4) ||
		     in->write_mem(in->mem_ctx, g->paddr + EMU_WL_H_SIG1_DBC, le_dbc, 4)))
			return NNC_FW_METADATA_ERROR;
	}
	return NNC_FW_SUCCESS;
}

/*
 * ACTIVATE_REQ: the ELF and constants (0: none) of the handle, a free NSP,
 * and the DBC the request's ACTIVATE granted as virtual channel. The card
 * has no reservations: reservation_type must be 0 (none), and a VC must be
 * set up (opt_vc_setup 1); naming a reservation is naming what does not
 * exist.
 */
static int32_t complete_activate(struct emu_nnc_fw *fw,
				 const struct emu_card *card,
				 const struct emu_nnc_fw_pending *p,
				 const struct emu_nnc_fw_arrived *in,
				 struct fw_act **out, unsigned int *slot)
{
	uint32_t consts_id = get_le32(p->cmd + AQ_CONSTS_ID);
	uint32_t opt_vc = get_le32(p->cmd + AQ_OPT_VC);
	uint32_t state = get_le32(p->cmd + AQ_STATE);
	struct fw_elf *e = elf_find(fw, p->handle, get_le32(p->cmd + AQ_ELF_ID));
	struct fw_consts *k = consts_find(fw, p->handle, consts_id);
	struct fw_act *a = NULL;
	uint64_t base;
	int32_t st;

	if (opt_vc > 1 || state > SC_STATE_MAX)
		return NNC_FW_PARAMETER_ERROR;
	if (!e || (consts_id && !k) || get_le32(p->cmd + AQ_RES_TYPE))
		return NNC_FW_RESOURCE_NOT_FOUND;
	for (unsigned int i = 0; i < act_max(card) && !a; i++) {
		if (!fw->acts[i].used) {
			a = &fw->acts[i];
			*slot = i;
		}
	}
	if (!a)
		return NNC_FW_NSP_ALLOC_ERROR;
	if (!opt_vc)
		return get_le32(p->cmd + AQ_VC_RES_ID) == NO_ID ?
		       NNC_FW_VC_ALLOC_ERROR : NNC_FW_RESOURCE_NOT_FOUND;
	if (in->dbc < 0)
		return NNC_FW_VC_ALLOC_ERROR;
	for (unsigned int i = 0; i < NNC_FW_MAX_ACTIVATIONS; i++)
		if (fw->acts[i].used && fw->acts[i].dbc == (unsigned int)in->dbc)
			return NNC_FW_VC_ALLOC_ERROR;
	st = place_image(in, e, k, (unsigned int)in->dbc, &base);
	if (st)
		return st;
	*a = (struct fw_act){
		.used = true, .id = new_id(fw), .handle = p->handle,
		.elf_id = e->id, .consts_id = k ? k->id : 0,
		.dbc = (unsigned int)in->dbc, .state = (int32_t)state,
		.ddr_base = base,
	};
	e->users++;
	if (k)
		k->users++;
	*out = a;
	fw->c.activations++;
	return NNC_FW_SUCCESS;
}

int32_t emu_nnc_fw_complete(struct emu_nnc_fw *fw, const struct emu_card *card,
			    const struct emu_nnc_fw_pending *p,
			    const struct emu_nnc_fw_arrived *in, uint8_t *out)
{
	uint32_t type = get_le32(p->cmd), resp = 0, resp_len = 0, id = 0;
	uint32_t need = pending_layout(type, &resp, &resp_len);
	struct fw_act *a = NULL;
	unsigned int slot = 0;
	int32_t st;

	if (!fw || !need || p->len < need)
		return NNC_FW_ERROR;
	switch (type) {
	case NNC_FW_CMD_LOAD_ELF_REQ:
		st = note(fw, complete_load_elf(fw, p, in, &id));
		if (out)
			load_answer(out, resp_len, resp, id, st);
		break;
	case NNC_FW_CMD_LOAD_CONSTANTS_REQ:
		st = note(fw, complete_load_consts(fw, p, in, &id));
		if (out)
			load_answer(out, resp_len, resp, id, st);
		break;
	case NNC_FW_CMD_LOAD_CONSTANTS_PAYLOAD_REQ:
		st = note(fw, complete_payload(fw, p, in, &id));
		if (out)
			load_answer(out, resp_len, resp, id, st);
		break;
	default:
		st = note(fw, complete_activate(fw, card, p, in, &a, &slot));
		if (out)
			activate_answer(out, resp_len, st, a, slot);
		break;
	}
	return st;
}

/* ------------------------------------------------------------------ */

/* The status of the answer of @n bytes at @out. */
static int32_t answer_status(const uint8_t *out, uint32_t n)
{
	uint32_t at = 4;

	switch (n >= 4 ? get_le32(out) : NNC_FW_CMD_UNDEFINED) {
	case NNC_FW_CMD_LOAD_ELF_RESP:
	case NNC_FW_CMD_LOAD_CONSTANTS_RESP:
		at = 8;
		break;
	case NNC_FW_CMD_RESOURCE_INFO_RESP:
		at = 48;
		break;
	}
	return n >= at + 4 ? (int32_t)get_le32(out + at) : NNC_FW_ERROR;
}

static uint32_t answer(const struct emu_nnc_fw_state *st, const uint8_t *cmd,
		       uint32_t len, uint8_t *out, uint32_t room,
		       struct emu_nnc_fw_action *act);

uint32_t emu_nnc_fw_answer(const struct emu_nnc_fw_state *st,
			   const uint8_t *cmd, uint32_t len,
			   uint8_t *out, uint32_t room,
			   struct emu_nnc_fw_action *act)
{
	uint32_t n;

	if (act) {
		memset(act, 0, sizeof(*act));
		act->release_dbc = -1;
	}
	n = answer(st, cmd, len, out, room, act);
	if (act && n && !act->pending)
		act->status = answer_status(out, n);
	return n;
}

static uint32_t answer(const struct emu_nnc_fw_state *st, const uint8_t *cmd,
		       uint32_t len, uint8_t *out, uint32_t room,
		       struct emu_nnc_fw_action *act)
{
	struct emu_nnc_fw *fw = st->fw;
	uint32_t type, id = 0;
	int32_t status;

	if (len < 4)
		return error_answer(out, room, fw ? note(fw, NNC_FW_CMD_LENGTH_ERROR) :
						    NNC_FW_CMD_LENGTH_ERROR);
	type = get_le32(cmd);
	if (type == NNC_FW_CMD_STATUS_REQ) {
		uint32_t n = status_answer(st, cmd, len, out, room);

		if (fw && n) {
			fw->c.queries++;
			note(fw, answer_status(out, n));
		}
		return n;
	}
	if (!fw || !act)
		return error_answer(out, room, NNC_FW_UNDEFINED_REQUEST);

	switch (type) {
	case NNC_FW_CMD_LOAD_ELF_REQ:
	case NNC_FW_CMD_LOAD_CONSTANTS_REQ:
	case NNC_FW_CMD_LOAD_CONSTANTS_PAYLOAD_REQ:
	case NNC_FW_CMD_ACTIVATE_REQ:
		return defer(st, cmd, len, out, room, act);
	case NNC_FW_CMD_LOAD_CONSTANTS_EX_REQ:
		status = len < NNC_FW_LOAD_CONSTANTS_EX_REQ_LEN ? NNC_FW_CMD_LENGTH_ERROR :
			 do_load_consts_ex(fw, st->handle, cmd, len, &id);
		return load_answer(out, room, NNC_FW_CMD_LOAD_CONSTANTS_RESP, id,
				   note(fw, status));
	case NNC_FW_CMD_UNLOAD_ELF_REQ:
	case NNC_FW_CMD_UNLOAD_CONSTANTS_REQ:
		status = len < NNC_FW_UNLOAD_REQ_LEN ? NNC_FW_CMD_LENGTH_ERROR :
			 do_unload(fw, st->handle, cmd,
				   type == NNC_FW_CMD_UNLOAD_CONSTANTS_REQ);
		return status_only_answer(out, room, type + 1, note(fw, status));
	case NNC_FW_CMD_DEACTIVATE_REQ:
		status = len < NNC_FW_DEACTIVATE_REQ_LEN ? NNC_FW_CMD_LENGTH_ERROR :
			 do_deactivate(fw, st->handle, cmd, act);
		return status_only_answer(out, room, NNC_FW_CMD_DEACTIVATE_RESP,
					  note(fw, status));
	case NNC_FW_CMD_ACTIVATE_STATE_CMD_REQ:
		status = len < NNC_FW_STATE_CMD_REQ_LEN ? NNC_FW_CMD_LENGTH_ERROR :
			 do_state_cmd(fw, st->handle, cmd);
		return status_only_answer(out, room, NNC_FW_CMD_ACTIVATE_STATE_CMD_RESP,
					  note(fw, status));
	case NNC_FW_CMD_RESOURCE_INFO_REQ:
		return resource_info_answer(st, cmd, len, out, room);
	case NNC_FW_CMD_PERFORMANCE_INFO_REQ:
		return perf_info_answer(st, out, room);
	default:
		return error_answer(out, room, note(fw, NNC_FW_UNDEFINED_REQUEST));
	}
}

void emu_nnc_fw_print_counters(const struct emu_nnc_fw *fw, FILE *out)
{
	static const struct emu_nnc_fw empty;
	const struct fw_counters *c;
	unsigned int elfs = 0, consts = 0, acts = 0;

	if (!fw)
		fw = &empty;
	c = &fw->c;
	for (unsigned int i = 0; i < NNC_FW_MAX_ELFS; i++)
		elfs += fw->elfs[i].used;
	for (unsigned int i = 0; i < NNC_FW_MAX_CONSTS; i++)
		consts += fw->consts[i].used;
	for (unsigned int i = 0; i < NNC_FW_MAX_ACTIVATIONS; i++)
		acts += fw->acts[i].used;
	fprintf(out, "fw_elf_loads %" PRIu64 "\n", c->elf_loads);
	fprintf(out, "fw_consts_loads %" PRIu64 "\n", c->consts_loads);
	fprintf(out, "fw_consts_payloads %" PRIu64 "\n", c->consts_payloads);
	fprintf(out, "fw_activations %" PRIu64 "\n", c->activations);
	fprintf(out, "fw_deactivations %" PRIu64 "\n", c->deactivations);
	fprintf(out, "fw_activations_ended %" PRIu64 "\n", c->activations_ended);
	fprintf(out, "fw_unloads %" PRIu64 "\n", c->unloads);
	fprintf(out, "fw_state_cmds %" PRIu64 "\n", c->state_cmds);
	fprintf(out, "fw_queries %" PRIu64 "\n", c->queries);
	fprintf(out, "fw_errors %" PRIu64 "\n", c->errors);
	fprintf(out, "fw_err_length %" PRIu64 "\n", c->err_length);
	fprintf(out, "fw_err_undefined %" PRIu64 "\n", c->err_undefined);
	fprintf(out, "fw_err_param %" PRIu64 "\n", c->err_param);
	fprintf(out, "fw_err_not_found %" PRIu64 "\n", c->err_not_found);
	fprintf(out, "fw_err_not_permitted %" PRIu64 "\n", c->err_not_permitted);
	fprintf(out, "fw_err_dma %" PRIu64 "\n", c->err_dma);
	fprintf(out, "fw_err_mem %" PRIu64 "\n", c->err_mem);
	fprintf(out, "fw_err_nsp %" PRIu64 "\n", c->err_nsp);
	fprintf(out, "fw_err_vc %" PRIu64 "\n", c->err_vc);
	fprintf(out, "fw_err_no_nw %" PRIu64 "\n", c->err_no_nw);
	fprintf(out, "fw_err_other %" PRIu64 "\n", c->err_other);
	fprintf(out, "fw_elfs_loaded %u\n", elfs);
	fprintf(out, "fw_consts_loaded %u\n", consts);
	fprintf(out, "fw_activations_active %u\n", acts);
	fprintf(out, "fw_mem_held %" PRIu64 "\n", fw->held);
}
