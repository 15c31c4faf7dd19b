// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The qaic authors.
 */

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "igt_qaic.h"
#include "igt_qaic_sync.h"

/**
 * TEST: qaic limits
 * Category: Core
 * Description: What one user can make a DBC hold: jobs, copies of requests, empty slices.
 * Feature: qaic
 *
 * SUBTEST: jobs-behind-fence
 * Description: Check that a DBC holds 4096 jobs behind a fence that does not signal, refuses the next with EBUSY, and takes 4096 again once they ran.
 * Run type: FULL
 *
 * SUBTEST: partial-copy-budget
 * Description: Check that partial executes hold at most 16 MiB of copied requests per DBC, then get EBUSY, and as much again once they ran.
 * Run type: FULL
 *
 * SUBTEST: empty-slices-64
 * Description: Check that ATTACH_SLICE_BO takes 64 slices of size 0.
 * Run type: FULL
 *
 * SUBTEST: empty-slices-65
 * Description: Check that ATTACH_SLICE_BO refuses 65 slices of size 0 with EINVAL.
 * Run type: FULL
 */

IGT_TEST_DESCRIPTION("What one user can make a DBC hold: jobs, copies of requests, empty slices.");

#define SZ_4K		4096ull
#define SZ_1M		(1024 * 1024ull)

/* Where the tests put their data in device memory */
#define DEV_ADDR	(16 * SZ_1M)

#define QUEUE_SIZE	256

/*
 * The ring of jobs-behind-fence: 7 jobs on it at most. Thousands of jobs
 * let go at once onto a large ring make long bursts of doorbell writes
 * while completions come in, which the bench's transport (UML's virt-pci)
 * sometimes garbles: a register then reads ~0, or the virtqueue breaks,
 * and the channel stalls.
 */
#define FENCE_QUEUE_SIZE	8

/* Long enough for any job of these tests, even on the debug kernel */
#define WAIT_MS		20000

/*
 * How long after the last fence signalled a limit may still be reached:
 * jobs are freed by the scheduler's worker, after their fences signal.
 */
#define RECOVER_MS	2000

/* Jobs a DBC holds, made and not freed yet (QAIC_QUEUE_MAX_JOBS) */
#define MAX_JOBS	4096

/*
 * Bytes of the requests partial executes copy that a DBC holds
 * (QAIC_QUEUE_MAX_COPY_BYTES): a partial execute copies every request of
 * the object's slicing, 64 bytes each (struct qaic_dbc_req), whatever its
 * resize.
 */
#define MAX_COPY_BYTES	(16 * SZ_1M)
#define REQ_BYTES	64

/*
 * The object of partial-copy-budget: BUDGET_SLICES slices of 64 bytes,
 * each in a page, so one request each, on a ring that takes them all.
 */
#define BUDGET_QUEUE_SIZE	8192
#define BUDGET_SLICES		4000
#define BUDGET_SLICE_SIZE	64ull
#define BUDGET_BO_SIZE		((BUDGET_SLICES * BUDGET_SLICE_SIZE + SZ_4K - 1) & \
				 ~(SZ_4K - 1))

/* Slices of size 0 one ATTACH_SLICE_BO takes (QAIC_SLICE_MAX_EMPTY) */
#define MAX_EMPTY_SLICES	64

/*
 * Jobs are queued FILL_CALL at a time, each call on FILL_CALL objects of
 * their own (one call may not name an object twice). Not 4096 at once: a
 * call locks the reservations of all its objects, and lockdep counts at
 * most 2047 nested locks of one class.
 */
#define FILL_CALL	64

/*
 * Queues MAX_JOBS jobs of @entries on @dbc, the first waiting for
 * @gate_obj: a DBC runs its jobs in order, so none of them runs before the
 * gate opens, and none is freed. A call that fails with EBUSY is tried
 * again until @deadline (milliseconds), while the jobs of a previous round
 * are still being freed.
 */
static void fill_behind_gate(int fd, uint32_t dbc,
			     const struct qaic_execute_entry *entries,
			     uint32_t gate_obj, uint64_t deadline)
{
	struct qaic_sync after_gate = { .handle = gate_obj };
	struct qaic_submit submit = {
		.hdr = { .count = FILL_CALL, .dbc_id = dbc },
		.data = to_user_pointer(entries),
		.in_syncs = to_user_pointer(&after_gate),
		.in_sync_count = 1,
	};
	int ret;

	for (int queued = 0; queued < MAX_JOBS; queued += FILL_CALL) {
		while ((ret = __igt_qaic_submit_raw(fd, &submit)) == -EBUSY &&
		       igt_qaic_now_ms() < deadline)
			usleep(10000);
		igt_assert_f(ret == 0, "SUBMIT of jobs %d to %d: %s\n",
			     queued + 1, queued + FILL_CALL,
			     igt_qaic_err_name(-ret));
		submit.in_sync_count = 0;
	}
}

/* Job MAX_JOBS + 1 is one too many, however it is made. */
static void check_full(int fd, uint32_t dbc,
		       const struct qaic_execute_entry *entries)
{
	struct qaic_partial_execute_entry partial = {
		.handle = entries[0].handle,
		.dir = IGT_QAIC_DIR_TO_DEV,
		.resize = SZ_4K,
	};

	igt_assert_eq(__igt_qaic_execute_bo(fd, dbc, entries[0].handle,
					    IGT_QAIC_DIR_TO_DEV), -EBUSY);
	igt_assert_eq(__igt_qaic_partial_execute(fd, dbc, &partial, 1), -EBUSY);
	igt_assert_eq(__igt_qaic_submit(fd, dbc, entries[0].handle,
					IGT_QAIC_SYNC_TO_DEV, NULL, 0, 0, 0),
		      -EBUSY);
	igt_assert_eq(__igt_qaic_execute(fd, dbc, entries, FILL_CALL), -EBUSY);
	igt_assert_eq(__igt_qaic_wait(fd, entries[FILL_CALL - 1].handle, dbc, IGT_QAIC_WAIT_LOOK_MS),
		      -ETIMEDOUT);
}

/*
 * MAX_JOBS jobs behind a vgem fence fill a DBC. Once the fence signals
 * they run and are freed: the DBC then takes MAX_JOBS jobs again, and not
 * one more, which shows that all of the first ones were freed. The second
 * round is cancelled by closing the file, not run.
 */
static void test_jobs_behind_fence(void)
{
	struct qaic_execute_entry entries[FILL_CALL];
	struct igt_qaic_gate gate[2];
	uint32_t dbc, gate_obj[2];
	int fd;

	fd = igt_qaic_open_dbc(FENCE_QUEUE_SIZE, &dbc);
	for (int i = 0; i < FILL_CALL; i++) {
		entries[i].handle = igt_qaic_create_bo(fd, SZ_4K);
		entries[i].dir = IGT_QAIC_DIR_TO_DEV;
		igt_qaic_attach_simple(fd, entries[i].handle, dbc,
				       IGT_QAIC_DIR_TO_DEV, SZ_4K, DEV_ADDR);
	}
	for (int i = 0; i < 2; i++)
		gate_obj[i] = igt_qaic_syncobj_create(fd);

	igt_qaic_gate_init(fd, gate_obj[0], 0, &gate[0]);
	fill_behind_gate(fd, dbc, entries, gate_obj[0], 0);
	check_full(fd, dbc, entries);

	igt_qaic_gate_open(&gate[0]);
	for (int i = 0; i < FILL_CALL; i++)
		igt_qaic_wait(fd, entries[i].handle, dbc, WAIT_MS);

	igt_qaic_gate_init(fd, gate_obj[1], 0, &gate[1]);
	fill_behind_gate(fd, dbc, entries, gate_obj[1],
			 igt_qaic_now_ms() + RECOVER_MS);
	check_full(fd, dbc, entries);

	close(fd);
	igt_qaic_gate_open(&gate[1]);
}

/*
 * Queues a job of @small that waits for @gate_obj, then partial executes
 * of @partial behind it until the DBC refuses one, which must be the one
 * past @fit. A refusal before that is tried again until @deadline
 * (milliseconds), while the jobs of a previous round are still being
 * freed.
 */
static void fill_partial(int fd, uint32_t dbc, uint32_t small,
			 const struct qaic_partial_execute_entry *partial,
			 uint32_t gate_obj, unsigned int fit, uint64_t deadline)
{
	struct qaic_sync after_gate = { .handle = gate_obj };
	unsigned int taken = 0;
	int ret = 0;

	/* A plain execute: it copies no request */
	igt_qaic_submit(fd, dbc, small, IGT_QAIC_SYNC_TO_DEV, &after_gate, 1,
			0, 0);
	while (taken <= fit) {
		ret = __igt_qaic_partial_execute(fd, dbc, partial, 1);
		if (!ret) {
			taken++;
			continue;
		}
		if (ret != -EBUSY || taken == fit ||
		    igt_qaic_now_ms() >= deadline)
			break;
		usleep(10000);
	}
	igt_info("%u partial executes taken, then %s\n", taken,
		 igt_qaic_err_name(-ret));
	igt_assert_eq(ret, -EBUSY);
	igt_assert_eq(taken, fit);
}

/*
 * Partial executes of an object of BUDGET_SLICES requests, each copying
 * them all, queued behind a job that waits for a vgem fence, until the
 * DBC holds as many copies as fit in MAX_COPY_BYTES. Plain executes copy
 * nothing and are still taken. Once the fence signals the jobs run and
 * are freed, and the DBC takes as many again; the second round is
 * cancelled by closing the file.
 */
static void test_partial_copy_budget(void)
{
	const uint64_t job_bytes = BUDGET_SLICES * REQ_BYTES;
	const unsigned int fit = MAX_COPY_BYTES / job_bytes;
	struct qaic_attach_slice_entry *slices;
	struct qaic_partial_execute_entry partial;
	struct qaic_perf_stats_entry stats;
	struct igt_qaic_gate gate[2];
	uint32_t dbc, gate_obj[2], big, small;
	int fd;

	fd = igt_qaic_open_dbc(BUDGET_QUEUE_SIZE, &dbc);
	small = igt_qaic_create_bo(fd, SZ_4K);
	igt_qaic_attach_simple(fd, small, dbc, IGT_QAIC_DIR_TO_DEV, SZ_4K,
			       DEV_ADDR);

	big = igt_qaic_create_bo(fd, BUDGET_BO_SIZE);
	slices = calloc(BUDGET_SLICES, sizeof(*slices));
	igt_assert(slices);
	for (int i = 0; i < BUDGET_SLICES; i++)
		igt_qaic_slice_init(&slices[i], i * BUDGET_SLICE_SIZE,
				    BUDGET_SLICE_SIZE,
				    DEV_ADDR + i * BUDGET_SLICE_SIZE);
	igt_qaic_attach_slice(fd, big, dbc, IGT_QAIC_DIR_TO_DEV, slices,
			      BUDGET_SLICES);
	free(slices);

	/* One request a slice, or the count is off */
	igt_qaic_execute_bo(fd, dbc, big, IGT_QAIC_DIR_TO_DEV);
	igt_qaic_wait(fd, big, dbc, WAIT_MS);
	stats = (struct qaic_perf_stats_entry) { .handle = big };
	igt_qaic_perf_stats(fd, dbc, &stats, 1);
	igt_assert_eq_u32(stats.num_queue_element, BUDGET_SLICES);
	igt_info("%u partial executes of %llu bytes of requests fit in %llu\n",
		 fit, (unsigned long long)job_bytes,
		 (unsigned long long)MAX_COPY_BYTES);

	/* The copy is of every request, the resize cuts half of them short */
	partial = (struct qaic_partial_execute_entry) {
		.handle = big,
		.dir = IGT_QAIC_DIR_TO_DEV,
		.resize = BUDGET_SLICES * BUDGET_SLICE_SIZE / 2,
	};
	for (int i = 0; i < 2; i++)
		gate_obj[i] = igt_qaic_syncobj_create(fd);

	igt_qaic_gate_init(fd, gate_obj[0], 0, &gate[0]);
	fill_partial(fd, dbc, small, &partial, gate_obj[0], fit, 0);
	igt_qaic_execute_bo(fd, dbc, small, IGT_QAIC_DIR_TO_DEV);
	igt_assert_eq(__igt_qaic_wait(fd, big, dbc, IGT_QAIC_WAIT_LOOK_MS), -ETIMEDOUT);

	igt_qaic_gate_open(&gate[0]);
	igt_qaic_wait(fd, big, dbc, WAIT_MS);
	igt_qaic_wait(fd, small, dbc, WAIT_MS);

	igt_qaic_gate_init(fd, gate_obj[1], 0, &gate[1]);
	fill_partial(fd, dbc, small, &partial, gate_obj[1], fit,
		     igt_qaic_now_ms() + RECOVER_MS);

	close(fd);
	igt_qaic_gate_open(&gate[1]);
}

/*
 * @empty slices of size 0, then one of the whole object, in one
 * ATTACH_SLICE_BO: -@err. The object runs either way, with the slices it
 * got.
 */
static void test_empty_slices(unsigned int empty, int err)
{
	struct qaic_attach_slice_entry slices[MAX_EMPTY_SLICES + 2];
	struct qaic_perf_stats_entry stats;
	struct igt_qaic_bo bo;
	uint8_t back[SZ_4K];
	uint32_t dbc;
	int fd;

	igt_assert_lte(empty + 1, ARRAY_SIZE(slices));
	fd = igt_qaic_open_dbc(QUEUE_SIZE, &dbc);
	igt_qaic_bo_create(fd, SZ_4K, &bo);
	igt_qaic_fill_pattern(bo.ptr, SZ_4K, empty);

	for (unsigned int i = 0; i < empty; i++)
		igt_qaic_slice_init(&slices[i], 0, 0, DEV_ADDR);
	igt_qaic_slice_init(&slices[empty], 0, SZ_4K, DEV_ADDR);
	igt_assert_eq(__igt_qaic_attach_slice(fd, bo.handle, dbc,
					      IGT_QAIC_DIR_TO_DEV, slices,
					      empty + 1), -err);
	/* Refused: the object is not sliced, and takes a slicing */
	if (err)
		igt_qaic_attach_simple(fd, bo.handle, dbc, IGT_QAIC_DIR_TO_DEV,
				       SZ_4K, DEV_ADDR);

	igt_qaic_execute_bo(fd, dbc, bo.handle, IGT_QAIC_DIR_TO_DEV);
	igt_qaic_wait(fd, bo.handle, dbc, WAIT_MS);
	stats = (struct qaic_perf_stats_entry) { .handle = bo.handle };
	igt_qaic_perf_stats(fd, dbc, &stats, 1);
	igt_assert_eq_u32(stats.num_queue_element, err ? 1 : empty + 1);
	igt_qaic_read_dev(fd, dbc, DEV_ADDR, back, SZ_4K);
	igt_qaic_assert_bytes(back, bo.ptr, SZ_4K, "the object's data");

	igt_qaic_bo_destroy(fd, &bo);
	close(fd);
}

igt_main
{
	static const struct {
		unsigned int empty;
		int err;
	} empty[] = {
		{ MAX_EMPTY_SLICES, 0 },
		{ MAX_EMPTY_SLICES + 1, EINVAL },
	};

	/* Only to skip without a card: each subtest opens its own file */
	igt_fixture {
		close(igt_qaic_open());
	}

	igt_describe("Check that a DBC holds 4096 jobs behind a fence that does not signal, refuses the next with EBUSY, and takes 4096 again once they ran.");
	igt_subtest("jobs-behind-fence")
		test_jobs_behind_fence();

	igt_describe("Check that partial executes hold at most 16 MiB of copied requests per DBC, then get EBUSY, and as much again once they ran.");
	igt_subtest("partial-copy-budget")
		test_partial_copy_budget();

	for (unsigned int i = 0; i < ARRAY_SIZE(empty); i++) {
		if (empty[i].err)
			igt_describe_f("Check that ATTACH_SLICE_BO refuses %u slices of size 0 with EINVAL.",
				       empty[i].empty);
		else
			igt_describe_f("Check that ATTACH_SLICE_BO takes %u slices of size 0.",
				       empty[i].empty);
		igt_subtest_f("empty-slices-%u", empty[i].empty)
			test_empty_slices(empty[i].empty, empty[i].err);
	}
}
