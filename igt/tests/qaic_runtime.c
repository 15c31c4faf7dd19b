// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The qaic authors.
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "igt_qaic.h"

/**
 * TEST: qaic runtime
 * Category: Core
 * Description: What Qualcomm's open runtime (software-kit-for-qualcomm-cloud-ai-100)
 *		sends through DRM_IOCTL_QAIC_MANAGE, byte for byte, and what it
 *		requires of the answers: the firmware's NNC commands inside
 *		PASSTHROUGH transactions, which the kernel carries unread.
 * Feature: qaic
 *
 * SUBTEST: status
 * Description: Check that the runtime's status query (STATUS_REQ, as its qaic-util -q sends it) is answered with a STATUS_RESP the runtime takes: status 0, format 12, metadata 1.0, NNC commands 17, the card's versions and resources.
 * Run type: BAT
 *
 * SUBTEST: status-tracks-activate
 * Description: Check that a DBC the file activates is one virtual channel less free in the status, and free again after its release.
 *
 * SUBTEST: firmware-properties
 * Description: Check the runtime's second query, a STATUS transaction: the card answers with its NNC transaction protocol version and no error.
 *
 * SUBTEST: wait-retry
 * Description: Check the runtime's inference wait on a job the card takes a second for: WAIT_BO with timeout 0 (the kernel's default), again on ETIMEDOUT, five times at most, succeeds in its first call, and the data arrived.
 *
 * SUBTEST: lifecycle
 * Description: Check the runtime's whole sequence on one file: load a network (LOAD_ELF with its image by DMA transfer) and its constants, activate it (ACTIVATE_REQ with the ACTIVATE transaction: its virtual channel is the DBC granted), run jobs on that DBC (execute, wait with timeout 0, perf stats) and check the data, deactivate (DEACTIVATE_REQ with the DEACTIVATE transaction), unload both, and close the objects without a detach; the status counts follow each step.
 *
 * SUBTEST: close-frees-programs
 * Description: Check that closing the file frees what it loaded and activated on the card: the status counts go back.
 *
 * SUBTEST: fw-error-%s
 * Description: Check that %arg[1] gets the firmware's error status, in an answer of its own.
 *
 * arg[1]:
 *
 * @parameter:	a status query for info type 1 (only 0 is defined)
 * @undefined:	command type 21, which the protocol leaves undefined
 * @load-short-transfer:	LOAD_ELF whose transfer brings less than its data_length
 * @activate-unknown-elf:	ACTIVATE_REQ of an ELF never loaded
 * @activate-other-file:	ACTIVATE_REQ of another file's ELF
 * @deactivate-twice:	DEACTIVATE_REQ of an activation already deactivated
 * @unload-in-use:	UNLOAD_ELF of an ELF an activation runs
 * @unload-unknown:	UNLOAD_CONSTANTS of constants never loaded
 * @short-command:	LOAD_ELF cut to 8 bytes
 */

IGT_TEST_DESCRIPTION("What Qualcomm's open runtime sends through MANAGE, and what it needs back.");

/* NNC command types and status codes (the runtime's QNncProtocol.h) */
#define NNC_LOAD_CONSTANTS_REQ	1
#define NNC_LOAD_CONSTANTS_RESP	2
#define NNC_LOAD_ELF_REQ	3
#define NNC_LOAD_ELF_RESP	4
#define NNC_UNLOAD_CONSTANTS_REQ	5
#define NNC_UNLOAD_CONSTANTS_RESP	6
#define NNC_UNLOAD_ELF_REQ	7
#define NNC_UNLOAD_ELF_RESP	8
#define NNC_ACTIVATE_REQ	9
#define NNC_ACTIVATE_RESP	10
#define NNC_DEACTIVATE_REQ	11
#define NNC_DEACTIVATE_RESP	12
#define NNC_STATUS_REQ		13
#define NNC_STATUS_RESP		14
#define NNC_UNDEFINED		0
#define NNC_E_UNDEFINED_REQUEST	(-3)
#define NNC_E_PARAMETER_ERROR	(-6)
#define NNC_E_DMA_ERROR		(-2)
#define NNC_E_NOT_PERMITTED	(-9)
#define NNC_E_NOT_FOUND		(-11)
#define NNC_E_CMD_LENGTH	(-17)
#define NNC_E_NO_NW_TO_DEACTIVATE	(-116)

/* The runtime's status request: nnc_cmd_t's type and padding, then 8 bytes */
#define STATUS_REQ_LEN		16
/* STATUS_RESP: type, status_code, then host_api_info_data_internal_t */
#define STATUS_RESP_LEN		504

/* Offsets in STATUS_RESP (QAicHostApiInfo.h, packed) */
#define SR_FORMAT		8
#define SR_FW_VERSION		16
#define SR_FW_QC		20
#define SR_SERIAL		116
#define SR_BOARD_SERIAL		132
#define SR_DRAM_TOTAL		168
#define SR_DRAM_FREE		172
#define SR_VC_TOTAL		180
#define SR_VC_FREE		181
#define SR_NSP_TOTAL		182
#define SR_NSP_FREE		183
#define SR_CONSTS_LOADED	264
#define SR_CONSTS_IN_USE	268
#define SR_NWS_LOADED		272
#define SR_NWS_ACTIVE		273
#define SR_META_MAJOR		274
#define SR_META_MINOR		276
#define SR_NNC_MAJOR		278
#define SR_SKU			332

/* What the runtime requires of every card it drives (QRuntimeManager.cpp, QRuntime.cpp) */
#define RUNTIME_FORMAT		12
#define RUNTIME_META_MAJOR	1
#define RUNTIME_META_MINOR	0
#define RUNTIME_NNC_MAJOR	17

#define QUEUE_SIZE		64
#define PAGE			4096ull
#define DEV_ADDR		0x600000ull

/* The card's time for the job of wait-retry, and the runtime's retries */
#define SLOW_JOB_NS		(1000 * 1000 * 1000)
#define RUNTIME_WAIT_TRIES	5

static uint32_t le32(const uint8_t *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint16_t le16(const uint8_t *p)
{
	return p[0] | p[1] << 8;
}

/*
 * One firmware command in one PASSTHROUGH transaction, as the runtime
 * builds it; returns the command's answer (the bytes after the answer's
 * transaction header) and its length in *@len.
 */
static const uint8_t *fw_command(int fd, struct igt_qaic_msg *msg, uint32_t type,
				 uint8_t info_type, uint32_t *len)
{
	uint8_t cmd[STATUS_REQ_LEN] = { 0 };
	const struct qaic_manage_trans_hdr *hdr;

	cmd[0] = type;
	cmd[4] = info_type;
	igt_qaic_msg_init(msg);
	igt_qaic_msg_passthrough(msg, cmd, sizeof(cmd));
	igt_assert_eq_u32(msg->len, 24);
	igt_qaic_manage(fd, msg);
	igt_assert_eq_u32(msg->count, 1);
	hdr = igt_qaic_msg_answer(msg, 0, QAIC_TRANS_PASSTHROUGH_FROM_DEV, 0);
	igt_assert_lte(sizeof(*hdr) + 8, hdr->len);
	*len = hdr->len - sizeof(*hdr);
	return (const uint8_t *)(hdr + 1);
}

/* The status the runtime reads, checked as the runtime checks it. */
static const uint8_t *status(int fd, struct igt_qaic_msg *msg)
{
	const uint8_t *r;
	uint32_t len;

	r = fw_command(fd, msg, NNC_STATUS_REQ, 0, &len);
	igt_assert_eq_u32(len, STATUS_RESP_LEN);
	igt_assert_eq_u32(le32(r), NNC_STATUS_RESP);
	igt_assert_eq(le32(r + 4), 0);
	return r;
}

/* A string field of @size bytes: terminated, printable, not empty. */
static void check_string(const uint8_t *p, size_t size, const char *what)
{
	size_t n = strnlen((const char *)p, size);

	igt_assert_f(n > 0 && n < size, "%s: %zu bytes, not a string in %zu\n", what, n, size);
	for (size_t i = 0; i < n; i++)
		igt_assert_f(p[i] >= 0x20 && p[i] < 0x7f, "%s: byte %zu is 0x%02x\n",
			     what, i, p[i]);
}

static void test_status(int fd)
{
	struct igt_qaic_msg msg;
	const uint8_t *r = status(fd, &msg);

	igt_info("firmware %u.%u.%u, %s, serial %s, board %s, %u MB DRAM, %u NSPs, %u VCs, SKU %u\n",
		 r[SR_FW_VERSION], r[SR_FW_VERSION + 1], r[SR_FW_VERSION + 2],
		 (const char *)r + SR_FW_QC, (const char *)r + SR_SERIAL,
		 (const char *)r + SR_BOARD_SERIAL, le32(r + SR_DRAM_TOTAL),
		 r[SR_NSP_TOTAL], r[SR_VC_TOTAL], r[SR_SKU]);
	igt_assert_lte(RUNTIME_FORMAT, r[SR_FORMAT]);
	igt_assert_eq(le16(r + SR_META_MAJOR), RUNTIME_META_MAJOR);
	igt_assert_eq(le16(r + SR_META_MINOR), RUNTIME_META_MINOR);
	igt_assert_eq(le16(r + SR_NNC_MAJOR), RUNTIME_NNC_MAJOR);
	check_string(r + SR_FW_QC, 38, "QC image version");
	check_string(r + SR_SERIAL, 16, "serial");
	check_string(r + SR_BOARD_SERIAL, 32, "board serial");
	igt_assert_lt(0, le32(r + SR_DRAM_TOTAL));
	igt_assert_lte(le32(r + SR_DRAM_FREE), le32(r + SR_DRAM_TOTAL));
	/* The card's DBCs are its virtual channels; a fresh file holds none */
	igt_assert_eq(r[SR_VC_TOTAL], IGT_QAIC_NUM_DBC);
	igt_assert_lte(r[SR_VC_FREE], r[SR_VC_TOTAL]);
	igt_assert_lte(r[SR_NSP_FREE], r[SR_NSP_TOTAL]);
}

/* A DBC is a virtual channel: one less free while the file holds it */
static void test_status_tracks_activate(int fd)
{
	struct igt_qaic_msg msg;
	unsigned int vc_free;
	uint32_t dbc;

	vc_free = status(fd, &msg)[SR_VC_FREE];
	dbc = igt_qaic_activate(fd, QUEUE_SIZE);
	igt_assert_eq(status(fd, &msg)[SR_VC_FREE], vc_free - 1);
	igt_qaic_release_dbc(fd, dbc);
	igt_assert_eq(status(fd, &msg)[SR_VC_FREE], vc_free);
}

static void test_firmware_properties(int fd)
{
	struct qaic_manage_trans_status_from_dev st;

	igt_qaic_status(fd, &st);
	igt_info("NNC transaction protocol %u.%u, flags 0x%llx\n", st.major, st.minor,
		 (unsigned long long)st.status_flags);
	igt_assert_eq(st.status, 0);
	igt_assert_lt(0, st.major);
}

/*
 * The runtime's wait (QNeuralNetwork.cpp): WAIT_BO with timeout 0, which
 * asks the kernel for its default, repeated on ETIMEDOUT up to five times.
 */
static void test_wait_retry(int fd)
{
	struct igt_qaic_bo bo;
	uint64_t start, took;
	uint8_t got[PAGE];
	int ret, tries = 0;
	uint32_t dbc;

	dbc = igt_qaic_activate(fd, QUEUE_SIZE);
	igt_qaic_bo_create(fd, PAGE, &bo);
	igt_qaic_attach_simple(fd, bo.handle, dbc, IGT_QAIC_DIR_TO_DEV, PAGE, DEV_ADDR);
	igt_qaic_fill_pattern(bo.ptr, PAGE, 35);
	igt_assert_eq(__igt_qaic_emu_dbc_timing(fd, dbc, SLOW_JOB_NS), 0);

	start = igt_qaic_now_ms();
	igt_qaic_execute_bo(fd, dbc, bo.handle, IGT_QAIC_DIR_TO_DEV);
	do
		ret = __igt_qaic_wait(fd, bo.handle, dbc, 0);
	while (ret == -ETIMEDOUT && ++tries < RUNTIME_WAIT_TRIES);
	took = igt_qaic_now_ms() - start;
	igt_assert_eq(__igt_qaic_emu_dbc_timing(fd, dbc, 0), 0);
	igt_info("a job of %u ms: WAIT_BO 0 returned %d after %llu ms, %d retries\n",
		 SLOW_JOB_NS / 1000000, ret, (unsigned long long)took, tries);
	igt_assert_eq(ret, 0);
	igt_assert_eq(tries, 0);
	igt_assert_lte(SLOW_JOB_NS / 1000000 - 5, took);

	igt_qaic_read_dev(fd, dbc, DEV_ADDR, got, PAGE);
	igt_qaic_assert_bytes(got, bo.ptr, PAGE, "after the runtime's wait");
	igt_qaic_bo_destroy(fd, &bo);
	igt_qaic_release_dbc(fd, dbc);
}

/* The runtime's commands (QNncProtocol.h), packed, little endian */
struct nnc_load_elf_req {
	uint32_t type, tag, process_id, metadata_crc;
	char network_name[64];
	uint64_t data_length;
	uint32_t metadata_flatbuffer_crc;
	uint8_t padding[4];
} __attribute__((packed));

struct nnc_load_constants_req {
	uint32_t type, process_id, tag, constants_crc;
	uint64_t data_length;
	char constants_name[64];
} __attribute__((packed));

/* The answer to both loads: the id, 0 on error */
struct nnc_load_resp {
	uint32_t type, id;
	int32_t status_code;
	uint32_t padding;
} __attribute__((packed));

struct nnc_unload_req {
	uint32_t type, id;
} __attribute__((packed));

struct nnc_status_only_resp {
	uint32_t type;
	int32_t status_code;
} __attribute__((packed));

struct nnc_activate_req {
	uint32_t type, process_id, constants_id, elf_id, reservation_type;
	int32_t resource_res_id;
	uint32_t opt_vc_setup;
	int32_t vc_res_id;
	int32_t initial_activation_state;
	uint32_t dma_type;
	uint8_t opt_support_datapath_switching;
	uint8_t padding[7];
} __attribute__((packed));

struct nnc_activate_resp {
	uint32_t type;
	int32_t status_code;
	uint32_t activation_id, virtual_channel_id;
	uint64_t ddr_base, dynamic_ddr_base, mcid_base, mcid_base_dma_cmd;
	uint32_t dma_type, pc_mask;
	uint64_t cmd_nsp_base_polling_addr;
	uint32_t cmd_nsp_polling_info_size, cmd_nsp_polling_data;
	uint64_t cmd_doorbell_addr;
	uint8_t cmd_doorbell_length, cmd_doorbell_valid;
	uint32_t nsp_mask;
	uint8_t padding[2];
} __attribute__((packed));

struct nnc_deactivate_req {
	uint32_t type, activation_id, opt_vc_teardown, padding;
} __attribute__((packed));

_Static_assert(sizeof(struct nnc_load_elf_req) == 96, "LOAD_ELF_REQ");
_Static_assert(sizeof(struct nnc_load_constants_req) == 88, "LOAD_CONSTANTS_REQ");
_Static_assert(sizeof(struct nnc_activate_req) == 48, "ACTIVATE_REQ");
_Static_assert(sizeof(struct nnc_activate_resp) == 88, "ACTIVATE_RESP");

#define ELF_TAG		0x454c46	/* the runtime's NncImageTag is its own */
#define CONSTANTS_TAG	0x434f4e
#define ELF_SIZE	(192 * 1024)
#define CONSTANTS_SIZE	(64 * 1024)

/* The first answer transaction's command: the firmware's answer */
static const void *fw_answer(const struct igt_qaic_msg *msg, uint32_t min_len)
{
	const struct qaic_manage_trans_hdr *hdr;

	hdr = igt_qaic_msg_answer(msg, 0, QAIC_TRANS_PASSTHROUGH_FROM_DEV, 0);
	igt_assert_lte(sizeof(*hdr) + min_len, hdr->len);
	return hdr + 1;
}

/* LOAD_ELF of @len bytes at @image, @dma_len of them by DMA; its answer. */
static struct nnc_load_resp load_elf(int fd, const void *image, uint64_t len, uint64_t dma_len)
{
	struct nnc_load_elf_req req = {
		.type = NNC_LOAD_ELF_REQ,
		.tag = ELF_TAG,
		.process_id = getpid(),
		.data_length = len,
	};
	struct nnc_load_resp rsp;
	struct igt_qaic_msg msg;

	snprintf(req.network_name, sizeof(req.network_name), "qaic_runtime");
	igt_qaic_msg_init(&msg);
	igt_qaic_msg_passthrough(&msg, &req, sizeof(req));
	igt_qaic_msg_dma_xfer(&msg, ELF_TAG, (uintptr_t)image, dma_len);
	igt_qaic_manage(fd, &msg);
	memcpy(&rsp, fw_answer(&msg, sizeof(rsp)), sizeof(rsp));
	igt_assert_eq_u32(rsp.type, NNC_LOAD_ELF_RESP);
	return rsp;
}

static struct nnc_load_resp load_constants(int fd, const void *data, uint64_t len)
{
	struct nnc_load_constants_req req = {
		.type = NNC_LOAD_CONSTANTS_REQ,
		.process_id = getpid(),
		.tag = CONSTANTS_TAG,
		.constants_crc = igt_qaic_crc32(0, data, len),
		.data_length = len,
	};
	struct nnc_load_resp rsp;
	struct igt_qaic_msg msg;

	igt_qaic_msg_init(&msg);
	igt_qaic_msg_passthrough(&msg, &req, sizeof(req));
	igt_qaic_msg_dma_xfer(&msg, CONSTANTS_TAG, (uintptr_t)data, len);
	igt_qaic_manage(fd, &msg);
	memcpy(&rsp, fw_answer(&msg, sizeof(rsp)), sizeof(rsp));
	igt_assert_eq_u32(rsp.type, NNC_LOAD_CONSTANTS_RESP);
	return rsp;
}

/*
 * ACTIVATE_REQ with the ACTIVATE transaction, as the runtime sends them:
 * the answer counts two transactions, and the DBC granted is *@dbc.
 */
static struct nnc_activate_resp activate(int fd, uint32_t elf_id, uint32_t constants_id,
					 uint32_t *dbc)
{
	struct nnc_activate_req req = {
		.type = NNC_ACTIVATE_REQ,
		.process_id = getpid(),
		.constants_id = constants_id,
		.elf_id = elf_id,
		.resource_res_id = -1,
		.opt_vc_setup = 1,
		.vc_res_id = -1,
	};
	const struct qaic_manage_trans_activate_from_dev *granted;
	struct nnc_activate_resp rsp;
	struct igt_qaic_msg msg;

	igt_qaic_msg_init(&msg);
	igt_qaic_msg_passthrough(&msg, &req, sizeof(req));
	igt_qaic_msg_activate(&msg, QUEUE_SIZE, 0);
	igt_qaic_manage(fd, &msg);
	memcpy(&rsp, fw_answer(&msg, sizeof(rsp)), sizeof(rsp));
	igt_assert_eq_u32(rsp.type, NNC_ACTIVATE_RESP);
	*dbc = ~0u;
	if (rsp.status_code)
		return rsp;
	igt_assert_eq_u32(msg.count, 2);
	granted = igt_qaic_msg_answer(&msg, 1, QAIC_TRANS_ACTIVATE_FROM_DEV, sizeof(*granted));
	igt_assert_eq_u32(granted->status, 0);
	*dbc = granted->dbc_id;
	return rsp;
}

/* DEACTIVATE_REQ, with the DEACTIVATE transaction of @dbc unless ~0 */
static struct nnc_status_only_resp deactivate(int fd, uint32_t activation_id, uint32_t dbc)
{
	struct nnc_deactivate_req req = {
		.type = NNC_DEACTIVATE_REQ,
		.activation_id = activation_id,
		.opt_vc_teardown = dbc != ~0u,
	};
	struct nnc_status_only_resp rsp;
	struct igt_qaic_msg msg;

	igt_qaic_msg_init(&msg);
	igt_qaic_msg_passthrough(&msg, &req, sizeof(req));
	if (dbc != ~0u)
		igt_qaic_msg_deactivate(&msg, dbc);
	igt_qaic_manage(fd, &msg);
	memcpy(&rsp, fw_answer(&msg, sizeof(rsp)), sizeof(rsp));
	igt_assert_eq_u32(rsp.type, NNC_DEACTIVATE_RESP);
	return rsp;
}

static int32_t unload(int fd, uint32_t type, uint32_t id)
{
	struct nnc_unload_req req = { .type = type, .id = id };
	struct nnc_status_only_resp rsp;
	struct igt_qaic_msg msg;

	igt_qaic_msg_init(&msg);
	igt_qaic_msg_passthrough(&msg, &req, sizeof(req));
	igt_qaic_manage(fd, &msg);
	memcpy(&rsp, fw_answer(&msg, sizeof(rsp)), sizeof(rsp));
	igt_assert_eq_u32(rsp.type, type + 1);
	return rsp.status_code;
}

struct program {
	uint8_t *elf, *constants;
	uint32_t elf_id, constants_id, activation_id, dbc;
};

static void program_load(int fd, struct program *p)
{
	struct nnc_load_resp r;

	p->elf = malloc(ELF_SIZE);
	p->constants = malloc(CONSTANTS_SIZE);
	igt_assert(p->elf && p->constants);
	igt_qaic_fill_pattern(p->elf, ELF_SIZE, 0xe1f);
	igt_qaic_fill_pattern(p->constants, CONSTANTS_SIZE, 0xc0);
	r = load_elf(fd, p->elf, ELF_SIZE, ELF_SIZE);
	igt_assert_eq(r.status_code, 0);
	igt_assert_neq_u32(r.id, 0);
	p->elf_id = r.id;
	r = load_constants(fd, p->constants, CONSTANTS_SIZE);
	igt_assert_eq(r.status_code, 0);
	igt_assert_neq_u32(r.id, 0);
	p->constants_id = r.id;
}

static void program_activate(int fd, struct program *p)
{
	struct nnc_activate_resp a = activate(fd, p->elf_id, p->constants_id, &p->dbc);

	igt_assert_eq(a.status_code, 0);
	igt_assert_neq_u32(a.activation_id, 0);
	igt_assert_eq_u32(a.virtual_channel_id, p->dbc);
	p->activation_id = a.activation_id;
}

static void program_free(struct program *p)
{
	free(p->elf);
	free(p->constants);
}

/* The status counts of what the card holds: loaded and active programs */
struct holds {
	uint32_t consts_loaded, nws_loaded, nws_active;
};

static struct holds holds(int fd)
{
	struct igt_qaic_msg msg;
	const uint8_t *r = status(fd, &msg);

	return (struct holds){
		.consts_loaded = le32(r + SR_CONSTS_LOADED),
		.nws_loaded = r[SR_NWS_LOADED],
		.nws_active = r[SR_NWS_ACTIVE],
	};
}

/* Jobs on the program's DBC as the runtime runs them, the data checked */
static void run_jobs(int fd, uint32_t dbc)
{
	struct igt_qaic_bo in, out;
	uint8_t got[PAGE];
	int ret, tries;

	igt_qaic_bo_create(fd, PAGE, &in);
	igt_qaic_bo_create(fd, PAGE, &out);
	igt_qaic_attach_simple(fd, in.handle, dbc, IGT_QAIC_DIR_TO_DEV, PAGE, DEV_ADDR);
	igt_qaic_attach_simple(fd, out.handle, dbc, IGT_QAIC_DIR_FROM_DEV, PAGE, DEV_ADDR);
	for (unsigned int i = 0; i < 4; i++) {
		igt_qaic_fill_pattern(in.ptr, PAGE, 100 + i);
		memset(out.ptr, 0, PAGE);
		/* The runtime's execute retries on EAGAIN; ours never says it */
		igt_qaic_execute_bo(fd, dbc, in.handle, IGT_QAIC_DIR_TO_DEV);
		igt_qaic_execute_bo(fd, dbc, out.handle, IGT_QAIC_DIR_FROM_DEV);
		tries = 0;
		do
			ret = __igt_qaic_wait(fd, out.handle, dbc, 0);
		while (ret == -ETIMEDOUT && ++tries < RUNTIME_WAIT_TRIES);
		igt_assert_eq(ret, 0);
		memcpy(got, out.ptr, PAGE);
		igt_qaic_assert_bytes(got, in.ptr, PAGE, "through the activated program's DBC");
	}
	/* The runtime closes its objects without a detach */
	igt_qaic_bo_destroy(fd, &in);
	igt_qaic_bo_destroy(fd, &out);
}

static void test_lifecycle(void)
{
	struct program p = { 0 };
	struct holds h0, h;
	int fd;

	fd = igt_qaic_open();
	h0 = holds(fd);
	program_load(fd, &p);
	h = holds(fd);
	igt_assert_eq_u32(h.nws_loaded, h0.nws_loaded + 1);
	igt_assert_eq_u32(h.consts_loaded, h0.consts_loaded + 1);

	program_activate(fd, &p);
	igt_info("ELF %u, constants %u, activation %u on DBC %u\n", p.elf_id,
		 p.constants_id, p.activation_id, p.dbc);
	igt_assert_eq_u32(holds(fd).nws_active, h0.nws_active + 1);
	run_jobs(fd, p.dbc);

	igt_assert_eq(deactivate(fd, p.activation_id, p.dbc).status_code, 0);
	/* The DBC is free again: the card released it */
	igt_qaic_assert_dbcs_free();
	igt_assert_eq_u32(holds(fd).nws_active, h0.nws_active);
	igt_assert_eq(unload(fd, NNC_UNLOAD_ELF_REQ, p.elf_id), 0);
	igt_assert_eq(unload(fd, NNC_UNLOAD_CONSTANTS_REQ, p.constants_id), 0);
	h = holds(fd);
	igt_assert_eq_u32(h.nws_loaded, h0.nws_loaded);
	igt_assert_eq_u32(h.consts_loaded, h0.consts_loaded);
	program_free(&p);
	close(fd);
}

static void test_close_frees_programs(void)
{
	struct program p = { 0 };
	struct holds h0, h;
	int fd, other;

	other = igt_qaic_open();
	h0 = holds(other);
	fd = igt_qaic_open();
	program_load(fd, &p);
	program_activate(fd, &p);
	run_jobs(fd, p.dbc);
	close(fd);
	program_free(&p);
	h = holds(other);
	igt_assert_eq_u32(h.nws_loaded, h0.nws_loaded);
	igt_assert_eq_u32(h.consts_loaded, h0.consts_loaded);
	igt_assert_eq_u32(h.nws_active, h0.nws_active);
	igt_qaic_assert_dbcs_free();
	close(other);
}

/* The firmware's errors in the lifecycle, each a step out of order */
static int32_t err_load_short_transfer(int fd)
{
	uint8_t *img = malloc(ELF_SIZE);
	struct nnc_load_resp r;

	igt_assert(img);
	igt_qaic_fill_pattern(img, ELF_SIZE, 1);
	r = load_elf(fd, img, ELF_SIZE, ELF_SIZE / 2);
	free(img);
	igt_assert_eq_u32(r.id, 0);
	return r.status_code;
}

static int32_t err_activate_unknown_elf(int fd)
{
	uint32_t dbc;

	return activate(fd, 0x7fff, 0, &dbc).status_code;
}

static int32_t err_activate_other_file(int fd)
{
	struct program p = { 0 };
	int other = igt_qaic_open();
	uint32_t dbc;
	int32_t st;

	program_load(other, &p);
	st = activate(fd, p.elf_id, p.constants_id, &dbc).status_code;
	close(other);
	program_free(&p);
	return st;
}

static int32_t err_deactivate_twice(int fd)
{
	struct program p = { 0 };

	program_load(fd, &p);
	program_activate(fd, &p);
	igt_assert_eq(deactivate(fd, p.activation_id, p.dbc).status_code, 0);
	program_free(&p);
	return deactivate(fd, p.activation_id, ~0u).status_code;
}

static int32_t err_unload_in_use(int fd)
{
	struct program p = { 0 };
	int32_t st;

	program_load(fd, &p);
	program_activate(fd, &p);
	st = unload(fd, NNC_UNLOAD_ELF_REQ, p.elf_id);
	program_free(&p);
	return st;
}

static int32_t err_unload_unknown(int fd)
{
	return unload(fd, NNC_UNLOAD_CONSTANTS_REQ, 0x7fff);
}

static int32_t err_short_command(int fd)
{
	uint32_t cmd[2] = { NNC_LOAD_ELF_REQ, 0 };
	struct nnc_load_resp rsp;
	struct igt_qaic_msg msg;

	igt_qaic_msg_init(&msg);
	igt_qaic_msg_passthrough(&msg, cmd, sizeof(cmd));
	igt_qaic_manage(fd, &msg);
	memcpy(&rsp, fw_answer(&msg, sizeof(rsp)), sizeof(rsp));
	igt_assert_eq_u32(rsp.type, NNC_LOAD_ELF_RESP);
	igt_assert_eq_u32(rsp.id, 0);
	return rsp.status_code;
}

struct lifecycle_error_case {
	const char *name;
	int32_t (*step)(int fd);
	int32_t status;
};

static const struct lifecycle_error_case lifecycle_error_cases[] = {
	{ "load-short-transfer", err_load_short_transfer, NNC_E_DMA_ERROR },
	{ "activate-unknown-elf", err_activate_unknown_elf, NNC_E_NOT_FOUND },
	{ "activate-other-file", err_activate_other_file, NNC_E_NOT_FOUND },
	{ "deactivate-twice", err_deactivate_twice, NNC_E_NO_NW_TO_DEACTIVATE },
	{ "unload-in-use", err_unload_in_use, NNC_E_NOT_PERMITTED },
	{ "unload-unknown", err_unload_unknown, NNC_E_NOT_FOUND },
	{ "short-command", err_short_command, NNC_E_CMD_LENGTH },
};

/* A file of its own, closed after: what the step left is freed */
static void test_lifecycle_error(const struct lifecycle_error_case *c)
{
	int fd = igt_qaic_open();
	int32_t st = c->step(fd);

	igt_info("%s: status %d\n", c->name, st);
	igt_assert_eq(st, c->status);
	close(fd);
	igt_qaic_assert_dbcs_free();
}

struct fw_error_case {
	const char *name;
	uint32_t type;
	uint8_t info_type;
	int32_t status;
};

static const struct fw_error_case fw_error_cases[] = {
	{ "parameter", NNC_STATUS_REQ, 1, NNC_E_PARAMETER_ERROR },
	{ "undefined", 21, 0, NNC_E_UNDEFINED_REQUEST },
};

static void test_fw_error(int fd, const struct fw_error_case *c)
{
	struct igt_qaic_msg msg;
	const uint8_t *r;
	uint32_t len;

	r = fw_command(fd, &msg, c->type, c->info_type, &len);
	igt_assert_lte(8, len);
	igt_assert_eq_u32(le32(r), NNC_UNDEFINED);
	igt_assert_eq((int32_t)le32(r + 4), c->status);
}

igt_main
{
	int fd = -1;

	igt_fixture {
		struct igt_qaic_msg msg;
		uint32_t len;
		const uint8_t *r;

		fd = igt_qaic_open();
		igt_install_exit_handler(igt_qaic_emu_dbc_timing_reset);
		r = fw_command(fd, &msg, NNC_STATUS_REQ, 0, &len);
		igt_require_f(len >= 8 && le32(r) == NNC_STATUS_RESP,
			      "the card does not answer the firmware's STATUS_REQ\n");
	}

	igt_describe("The runtime's status query and what it requires of the answer.");
	igt_subtest("status")
		test_status(fd);

	igt_describe("The status counts the virtual channels the host holds.");
	igt_subtest("status-tracks-activate")
		test_status_tracks_activate(fd);

	igt_describe("The runtime's STATUS transaction.");
	igt_subtest("firmware-properties")
		test_firmware_properties(fd);

	igt_describe("The runtime's inference wait: timeout 0, retried on ETIMEDOUT.");
	igt_subtest("wait-retry")
		test_wait_retry(fd);

	igt_describe("The runtime's load, activate, run, deactivate and unload.");
	igt_subtest("lifecycle")
		test_lifecycle();

	igt_describe("Closing the file frees its programs on the card.");
	igt_subtest("close-frees-programs")
		test_close_frees_programs();

	for (unsigned int i = 0; i < ARRAY_SIZE(lifecycle_error_cases); i++) {
		igt_describe("A lifecycle step out of order gets the firmware's status.");
		igt_subtest_f("fw-error-%s", lifecycle_error_cases[i].name)
			test_lifecycle_error(&lifecycle_error_cases[i]);
	}

	for (unsigned int i = 0; i < ARRAY_SIZE(fw_error_cases); i++) {
		igt_describe("A firmware command the card refuses gets the firmware's status.");
		igt_subtest_f("fw-error-%s", fw_error_cases[i].name)
			test_fw_error(fd, &fw_error_cases[i]);
	}

	igt_fixture
		igt_qaic_close(fd);
}
