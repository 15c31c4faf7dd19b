// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The qaic authors.
 */

#include <errno.h>
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
 * SUBTEST: fw-error-%s
 * Description: Check that %arg[1] gets the firmware's error status, in an answer of its own.
 *
 * arg[1]:
 *
 * @parameter:	a status query for info type 1 (only 0 is defined)
 * @undefined:	command type 21, which the protocol leaves undefined
 */

IGT_TEST_DESCRIPTION("What Qualcomm's open runtime sends through MANAGE, and what it needs back.");

/* NNC command types and status codes (the runtime's QNncProtocol.h) */
#define NNC_STATUS_REQ		13
#define NNC_STATUS_RESP		14
#define NNC_UNDEFINED		0
#define NNC_E_UNDEFINED_REQUEST	(-3)
#define NNC_E_PARAMETER_ERROR	(-6)

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

static void test_status_tracks_activate(int fd)
{
	struct igt_qaic_msg msg;
	unsigned int vc_free, active;
	uint32_t dbc;

	vc_free = status(fd, &msg)[SR_VC_FREE];
	active = status(fd, &msg)[SR_NWS_ACTIVE];
	dbc = igt_qaic_activate(fd, QUEUE_SIZE);
	igt_assert_eq(status(fd, &msg)[SR_VC_FREE], vc_free - 1);
	igt_assert_eq(status(fd, &msg)[SR_NWS_ACTIVE], active + 1);
	igt_qaic_release_dbc(fd, dbc);
	igt_assert_eq(status(fd, &msg)[SR_VC_FREE], vc_free);
	igt_assert_eq(status(fd, &msg)[SR_NWS_ACTIVE], active);
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

	for (unsigned int i = 0; i < ARRAY_SIZE(fw_error_cases); i++) {
		igt_describe("A firmware command the card refuses gets the firmware's status.");
		igt_subtest_f("fw-error-%s", fw_error_cases[i].name)
			test_fw_error(fd, &fw_error_cases[i]);
	}

	igt_fixture
		igt_qaic_close(fd);
}
