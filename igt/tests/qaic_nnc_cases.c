// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The qaic authors.
 */

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "igt_qaic.h"
#include "igt_qaic_boot.h"
#include "nnc_cases.h"

/**
 * TEST: qaic nnc cases
 * Category: Core
 * Description: The systematic cases of the emulated card manager's answers
 *		to MANAGE: every field of the message header, of the answering
 *		transaction's header, of status, activate, deactivate and
 *		passthrough answers and of a request for the rest of a DMA
 *		transfer at its boundary values.
 * Feature: qaic
 *
 * SUBTEST: nnc-%s
 * Description: Check that the MANAGE call the case's answer goes to
 *		returns what tests/emu/nnc_cases.c says (the answer, the
 *		card's refusal, -EIO for a malformed answer, -ETIMEDOUT for
 *		one that cannot be matched to its request), that the control
 *		path then works, and that once the file is closed a new one
 *		activates all 16 DBCs and runs work through one, with no
 *		kernel report.
 * Run type: FULL
 */

IGT_TEST_DESCRIPTION("The systematic cases of the emulated card manager's answers to MANAGE: "
		     "every field of the header, of the transaction and of each answer at its "
		     "boundary values.");

#define NR_DBC		16
#define QUEUE_SIZE	16
#define SZ_4K		4096ull
#define SZ_1M		(1024ull * 1024)
#define DEV_ADDR	(56ull << 20)
#define WAIT_MS		10000

/*
 * The answer timeout during the cases: a dropped answer costs this much.
 * The parameter is put back at exit (igt/run runs a subtest a process).
 */
#define TIMEOUT_S	"2"

/* The emulator's own request n: above every firmware NNC command type */
#define EMU_PT_OP(n)	(0x51450000u + (n))
/* The emulator's EMU_PT_XFER_EXPECT (tests/emu/manager.h): u64 bytes follow */
#define EMU_PT_XFER_EXPECT	EMU_PT_OP(3)
/* An op the emulated card does not know: its answer is a status */
#define EMU_PT_UNKNOWN		EMU_PT_OP(0x7fff)

/*
 * More than one message of the driver describes when the pages are
 * scattered (16 bytes a piece in 64 KiB): the card asks for the rest.
 */
#define XFER_SIZE	(20 * SZ_1M)

static uint32_t seed;

static void arm(int fd, unsigned int idx)
{
	int ret = __igt_qaic_emu_card_case(fd, IGT_QAIC_EMU_CASE_NNC, idx);

	igt_require_f(ret != IGT_QAIC_EMU_PT_E_UNKNOWN_OP, "the emulator has no EMU_PT_CARD_CASE\n");
	igt_require_f(ret != IGT_QAIC_EMU_PT_E_RANGE, "the emulator has no NNC cases\n");
	igt_assert_eq(ret, 0);
}

/* A buffer of @size bytes whose pages are scattered: odd ones faulted in first. */
static uint8_t *scattered(size_t size)
{
	const size_t page = sysconf(_SC_PAGESIZE);
	uint8_t *buf = mmap(NULL, size, PROT_READ | PROT_WRITE,
			    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	igt_assert(buf != MAP_FAILED);
	madvise(buf, size, MADV_NOHUGEPAGE);
	for (size_t off = page; off < size; off += 2 * page)
		buf[off] = 1;
	for (size_t off = 0; off < size; off += 2 * page)
		buf[off] = (uint8_t)(off / page);
	return buf;
}

static void expect_xfer(int fd, uint32_t tag, uint64_t size)
{
	struct igt_qaic_emu_req req = { .op = EMU_PT_XFER_EXPECT, .arg = tag };
	struct igt_qaic_emu_status st;
	struct igt_qaic_msg msg;
	uint8_t body[sizeof(req) + sizeof(size)];
	const uint8_t *ans;

	memcpy(body, &req, sizeof(req));
	memcpy(body + sizeof(req), &size, sizeof(size));
	igt_qaic_msg_init(&msg);
	igt_qaic_msg_passthrough(&msg, body, sizeof(body));
	igt_qaic_manage(fd, &msg);
	ans = igt_qaic_msg_answer(&msg, 0, QAIC_TRANS_PASSTHROUGH_FROM_DEV,
				  sizeof(struct qaic_manage_trans_hdr) + sizeof(st));
	memcpy(&st, ans + sizeof(struct qaic_manage_trans_hdr), sizeof(st));
	igt_assert_eq_u32(st.status, IGT_QAIC_EMU_PT_OK);
}

/* The call the case's answer goes to; its result. */
static int call(int fd, const struct emu_nnc_case *c, unsigned int idx)
{
	struct qaic_manage_trans_status_from_dev status;
	struct igt_qaic_emu_req req = { .op = EMU_PT_UNKNOWN };
	struct igt_qaic_msg msg;
	uint32_t dbc = 0, tag = 0x4e4e4300 + idx;
	uint8_t *buf = NULL;
	int ret;

	switch (c->call) {
	case EMU_NNC_CALL_DEACTIVATE:
		dbc = igt_qaic_activate(fd, QUEUE_SIZE);
		break;
	case EMU_NNC_CALL_DMA_XFER:
		buf = scattered(XFER_SIZE);
		expect_xfer(fd, tag, XFER_SIZE);
		break;
	}

	arm(fd, idx);
	switch (c->call) {
	case EMU_NNC_CALL_STATUS:
		return __igt_qaic_status(fd, &status);
	case EMU_NNC_CALL_ACTIVATE:
		ret = __igt_qaic_activate(fd, QUEUE_SIZE, &dbc);
		if (!ret)
			igt_assert_f(dbc < NR_DBC, "activated DBC %u\n", dbc);
		return ret;
	case EMU_NNC_CALL_DEACTIVATE:
		ret = __igt_qaic_release_dbc(fd, dbc, &msg);
		if (!ret)
			igt_qaic_check_released(&msg, dbc);
		return ret;
	case EMU_NNC_CALL_PASSTHROUGH:
		igt_qaic_msg_init(&msg);
		igt_qaic_msg_passthrough(&msg, &req, sizeof(req));
		return __igt_qaic_manage(fd, &msg);
	case EMU_NNC_CALL_DMA_XFER:
		ret = __igt_qaic_dma_xfer(fd, tag, buf, XFER_SIZE);
		munmap(buf, XFER_SIZE);
		return ret;
	}
	igt_assert_f(false, "case %s: no call %u\n", c->name, c->call);
	return 0;
}

/* A new file activates every DBC, and one runs a round trip. */
static void check_card_whole(void)
{
	bool have[NR_DBC] = { false };
	uint64_t start = igt_qaic_now_ms();
	uint32_t id;
	int fd, ret;

	fd = igt_qaic_open();
	for (unsigned int i = 0; i < NR_DBC; i++) {
		while ((ret = __igt_qaic_activate(fd, QUEUE_SIZE, &id)) == -ECANCELED &&
		       igt_qaic_now_ms() - start < WAIT_MS)
			usleep(10000);
		igt_assert_f(ret == 0, "activate %u of %u: %s\n", i + 1, NR_DBC, strerror(-ret));
		igt_assert(id < NR_DBC && !have[id]);
		have[id] = true;
	}
	igt_qaic_round_trip(fd, id, DEV_ADDR + id * SZ_4K, SZ_4K, ++seed);
	igt_qaic_close(fd);
}

static int verdict_errno(unsigned int verdict)
{
	static const int err[] = {
		[EMU_NNC_CASE_OK] = 0,
		[EMU_NNC_CASE_CANCELED] = -ECANCELED,
		[EMU_NNC_CASE_EIO] = -EIO,
		[EMU_NNC_CASE_TIMEDOUT] = -ETIMEDOUT,
	};

	igt_assert(verdict < sizeof(err) / sizeof(err[0]));
	return err[verdict];
}

static void run_case(unsigned int idx)
{
	const struct emu_nnc_case *c = &emu_nnc_cases[idx];
	struct qaic_manage_trans_status_from_dev status;
	int want = verdict_errno(c->verdict), fd, ret;
	size_t from = strlen(igt_qaic_kernel_log());
	uint64_t start;

	fd = igt_qaic_open();
	start = igt_qaic_now_ms();
	ret = call(fd, c, idx);
	igt_info("%s %s: %s after %llu ms\n", c->name, emu_nnc_case_verdict_name(c->verdict),
		 ret ? strerror(-ret) : "success", (unsigned long long)(igt_qaic_now_ms() - start));
	igt_assert_f(ret == want, "MANAGE: %s, not %s\n", ret ? strerror(-ret) : "success",
		     want ? strerror(-want) : "success");

	/* The control path works, and what the file holds goes with it. */
	igt_qaic_status(fd, &status);
	igt_qaic_close(fd);
	check_card_whole();
	igt_qaic_assert_clean_log(from);
}

igt_main
{
	igt_fixture {
		igt_qaic_close(igt_qaic_open());
		igt_qaic_param_set("control_resp_timeout_s", TIMEOUT_S);
	}

	for (unsigned int i = 0; i < emu_nnc_nr_cases; i++) {
		igt_describe("The MANAGE call returns what the table of tests/emu/nnc_cases.c "
			     "says for the card's crafted answer, and the card is whole after.");
		igt_subtest_f("nnc-%s", emu_nnc_cases[i].name)
			run_case(i);
	}

	igt_fixture {
		igt_qaic_param_restore();
		igt_qaic_kernel_log_free();
	}
}
