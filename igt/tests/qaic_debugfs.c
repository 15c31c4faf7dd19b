// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The qaic authors.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "igt_qaic.h"
#include "igt_qaic_stats.h"

/**
 * TEST: qaic debugfs
 * Category: Core
 * Description: The debugfs files of each DMA Bridge Channel: the ring
 *		indexes the driver holds, what is queued, and its counters,
 *		checked against the work done and the emulated card's own
 *		counters.
 * Feature: qaic
 *
 * SUBTEST: inactive
 * Description: Check that a DBC shows its draining after deactivate and no ring and no owner once released.
 * Run type: BAT
 *
 * SUBTEST: after-jobs-%s
 * Description: Check the ring indexes and counters of a DBC after jobs that %arg[1].
 * Run type: FULL
 *
 * arg[1]:
 *
 * @fit:	fit in its ring
 * @wrap:	wrap around its ring twice
 * @slices:	have three slices each
 *
 * SUBTEST: hung-job
 * Description: Check what a DBC shows while a job is stuck on it, and its reset count after.
 * Run type: FULL
 */

IGT_TEST_DESCRIPTION("debugfs of the qaic accel driver: per-DBC ring state and counters.");

#define PAGE		4096ull
#define DEV_ADDR	0x800000ull

static void state(int fd, uint32_t dbc, struct igt_qaic_dbc_debugfs *st)
{
	igt_assert_f(igt_qaic_dbc_debugfs(fd, dbc, st), "DBC %u: not active\n", dbc);
	/* The two small files agree with the state file, on a DBC at rest */
	igt_assert_eq_u64(igt_qaic_dbc_debugfs_u64(fd, dbc, "fifo_size"), st->fifo_size);
	igt_assert_eq_u64(igt_qaic_dbc_debugfs_u64(fd, dbc, "queued"), st->queued);
}

static void test_inactive(void)
{
	struct igt_qaic_dbc_debugfs st;
	uint32_t dbc;
	int fd, other;

	other = igt_qaic_open();
	fd = igt_qaic_open_dbc(16, &dbc);
	state(fd, dbc, &st);
	igt_assert_eq_u64(st.fifo_size, 16);
	igt_assert_cmpu64(st.owner, >, <=, 0);
	igt_assert_eq_u64(st.draining, 0);

	/* Deactivated, the DBC stays until the card releases it */
	igt_qaic_deactivate(fd, dbc);
	state(fd, dbc, &st);
	igt_assert_eq_u64(st.draining, 1);

	/* Closing the file releases it */
	close(fd);
	igt_assert(!igt_qaic_dbc_debugfs(other, dbc, &st));
	igt_assert_eq_u64(st.fifo_size, 0);
	igt_assert_eq_u64(st.owner, 0);
	igt_assert_eq_u64(st.draining, 0);
	igt_assert_eq_u64(igt_qaic_dbc_debugfs_u64(other, dbc, "fifo_size"), 0);
	igt_assert_eq_u64(igt_qaic_dbc_debugfs_u64(other, dbc, "queued"), 0);
	close(other);
}

struct jobs_case {
	const char *name;
	uint32_t queue_size;
	uint32_t njobs;
	uint32_t slices;	/* one page each, scattered in device memory */
};

static const struct jobs_case jobs_cases[] = {
	{ "fit", 64, 5, 1 },
	{ "wrap", 16, 33, 1 },
	{ "slices", 16, 9, 3 },
};

static void make_bo(int fd, uint32_t dbc, uint32_t slices, struct igt_qaic_bo *bo)
{
	struct qaic_attach_slice_entry e[3];

	igt_assert_lte(slices, ARRAY_SIZE(e));
	igt_qaic_bo_create(fd, slices * PAGE, bo);
	igt_qaic_fill_pattern(bo->ptr, bo->size, slices);
	for (uint32_t i = 0; i < slices; i++)
		igt_qaic_slice_init(&e[i], i * PAGE, PAGE, DEV_ADDR + 2 * i * PAGE);
	igt_qaic_attach_slice(fd, bo->handle, dbc, IGT_QAIC_DIR_TO_DEV, e, slices);
}

/*
 * After N jobs on a fresh DBC the tail moved by the requests they took,
 * modulo the ring size, the head caught up with it, nothing is queued or
 * held, and the device's registers say the same. The requests written are
 * those the emulated card consumed.
 */
static void test_after_jobs(const struct jobs_case *c)
{
	struct igt_qaic_emu_counters eb, ea;
	struct igt_qaic_dbc_debugfs b, a;
	struct qaic_perf_stats_entry ps;
	struct igt_qaic_bo bo;
	uint64_t reqs = 0, deadline;
	bool emu;
	uint32_t dbc;
	int fd;

	fd = igt_qaic_open_dbc(c->queue_size, &dbc);
	state(fd, dbc, &b);
	igt_assert_eq_u64(b.fifo_size, c->queue_size);
	igt_assert_eq_u64(b.req_tail, 0);
	igt_assert_eq_u64(b.queued, 0);
	igt_assert_eq_u64(b.credit_limit, c->queue_size - 1);
	emu = __igt_qaic_emu_dbc_counters(fd, dbc, &eb) == 0;

	make_bo(fd, dbc, c->slices, &bo);
	for (uint32_t i = 0; i < c->njobs; i++) {
		igt_qaic_execute_bo(fd, dbc, bo.handle, IGT_QAIC_DIR_TO_DEV);
		igt_qaic_wait(fd, bo.handle, dbc, 10000);
		ps = (struct qaic_perf_stats_entry){ .handle = bo.handle };
		igt_qaic_perf_stats(fd, dbc, &ps, 1);
		igt_assert_lte(c->slices, ps.num_queue_element);
		reqs += ps.num_queue_element;
	}

	/*
	 * The scheduler gives the credits back in its own callback of the
	 * job's fence, which may run just after WAIT_BO's has woken us.
	 */
	deadline = igt_qaic_now_ms() + 1000;
	do {
		state(fd, dbc, &a);
	} while (a.credits && igt_qaic_now_ms() < deadline);
	igt_info("%u jobs, %" PRIu64 " requests, ring %u: tail %" PRIu64 "\n",
		 c->njobs, reqs, c->queue_size, a.req_tail);
	igt_assert_eq_u64(a.req_tail, (b.req_tail + reqs) % c->queue_size);
	igt_assert_eq_u64(a.req_head, a.req_tail);
	igt_assert_eq_u64(a.rsp_head, (b.rsp_head + c->njobs * c->slices) % c->queue_size);
	igt_assert_eq_u64(a.queued, 0);
	igt_assert_eq_u64(a.credits, 0);
	igt_assert_eq_u64(a.jobs_in_flight, 0);
	igt_assert_eq_u64(a.next_req_id, b.next_req_id + c->njobs);
	igt_assert_eq_u64(a.requests - b.requests, reqs);
	igt_assert_eq_u64(a.jobs - b.jobs, c->njobs);
	igt_assert_eq_u64(a.resets, b.resets);
	igt_assert_eq_u64(a.bad_responses, 0);
	igt_assert(a.has_regs);
	igt_assert_eq_u64(a.regs[0], a.req_tail);	/* REQHP */
	igt_assert_eq_u64(a.regs[1], a.req_tail);	/* REQTP */
	igt_assert_eq_u64(a.regs[2], a.rsp_head);	/* RSPHP */
	igt_assert_eq_u64(a.regs[3], a.rsp_head);	/* RSPTP */

	if (emu) {
		igt_assert_eq(__igt_qaic_emu_dbc_counters(fd, dbc, &ea), 0);
		igt_assert_eq_u64(ea.requests - eb.requests, reqs);
		igt_assert_eq_u64(ea.responses - eb.responses, c->njobs * c->slices);
		igt_assert_eq_u64(ea.resets, eb.resets);
	} else {
		igt_info("no DBC counters from the emulator: not compared\n");
	}

	igt_qaic_detach_slice(fd, bo.handle);
	igt_qaic_bo_destroy(fd, &bo);
	close(fd);
}

/*
 * A job the card never completes: it is on the ring (queued, in flight,
 * holding its credits) until the job timeout resets the DBC, which then
 * counts one reset more, as the card does, and -EIO as its last error.
 */
static void test_hung_job(void)
{
	struct igt_qaic_emu_counters eb, ea;
	struct igt_qaic_dbc_debugfs b, st;
	struct igt_qaic_bo bo;
	uint64_t deadline;
	uint32_t dbc;
	bool emu;
	int fd;

	fd = igt_qaic_open_dbc(16, &dbc);
	make_bo(fd, dbc, 1, &bo);
	state(fd, dbc, &b);
	emu = __igt_qaic_emu_dbc_counters(fd, dbc, &eb) == 0;
	igt_qaic_emu_hang_dbc(fd, dbc);

	igt_qaic_execute_bo(fd, dbc, bo.handle, IGT_QAIC_DIR_TO_DEV);
	/* Until the job is on the ring the files may tell two moments apart */
	deadline = igt_qaic_now_ms() + 1000;
	do {
		igt_qaic_dbc_debugfs(fd, dbc, &st);
	} while (!st.jobs_in_flight && igt_qaic_now_ms() < deadline);
	state(fd, dbc, &st);
	igt_assert_eq_u64(st.jobs_in_flight, 1);
	igt_assert_eq_u64(st.queued, 1);
	igt_assert_eq_u64(st.credits, 1);
	igt_assert_eq_u64(st.req_tail, (b.req_tail + 1) % 16);
	igt_assert_eq_u64(st.req_head, b.req_tail);
	igt_assert_eq_u64(st.regs[0], b.req_tail);	/* the card is stuck */

	igt_assert_eq(__igt_qaic_wait(fd, bo.handle, dbc, 10000), -EIO);
	state(fd, dbc, &st);
	igt_assert_eq_u64(st.resets, b.resets + 1);
	igt_assert_eq(st.last_error, -EIO);
	igt_assert_eq_u64(st.queued, 0);
	igt_assert_eq_u64(st.jobs_in_flight, 0);
	igt_assert_eq_u64(st.regs[0], st.regs[1]);
	if (emu) {
		igt_assert_eq(__igt_qaic_emu_dbc_counters(fd, dbc, &ea), 0);
		igt_assert_eq_u64(ea.resets, eb.resets + 1);
	}

	igt_qaic_detach_slice(fd, bo.handle);
	igt_qaic_bo_destroy(fd, &bo);
	close(fd);
}

igt_main
{
	igt_describe("Check that a DBC shows its draining after deactivate and no ring and no owner once released.");
	igt_subtest("inactive")
		test_inactive();

	for (unsigned int i = 0; i < ARRAY_SIZE(jobs_cases); i++) {
		igt_describe("Check the ring indexes and counters of a DBC after jobs, against the card's.");
		igt_subtest_f("after-jobs-%s", jobs_cases[i].name)
			test_after_jobs(&jobs_cases[i]);
	}

	igt_describe("Check what a DBC shows while a job is stuck on it, and its reset count after.");
	igt_subtest("hung-job")
		test_hung_job();
}
