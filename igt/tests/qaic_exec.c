// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The qaic authors.
 */

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "igt_qaic.h"

/**
 * TEST: qaic exec
 * Category: Core
 * Description: EXECUTE_BO and PARTIAL_EXECUTE_BO of the qaic accel driver: data through the device.
 * Feature: qaic
 *
 * SUBTEST: round-trip-4k
 * Description: Check that 4 KiB go to the device and back unchanged at several device addresses.
 * Run type: BAT
 *
 * SUBTEST: round-trip-1m
 * Description: Check that 1 MiB goes to the device and back unchanged as one slice.
 * Run type: BAT
 *
 * SUBTEST: round-trip-one-call
 * Description: Check that a write and a read queued in one call run in order.
 * Run type: FULL
 *
 * SUBTEST: round-trip-multi-slice
 * Description: Check that each slice of a multi-slice object moves its own bytes.
 * Run type: FULL
 *
 * SUBTEST: round-trip-unaligned
 * Description: Check that slices off page boundaries move exactly their bytes.
 * Run type: FULL
 *
 * SUBTEST: ordering
 * Description: Check that 1000 jobs over 8 objects run in the order they were queued.
 * Run type: BAT
 *
 * SUBTEST: two-processes
 * Description: Check that two processes doing round trips on two DBCs at once get their own data.
 * Run type: FULL
 *
 * SUBTEST: small-ring-overfill
 * Description: Check that 400 jobs on a ring of 4 are queued without blocking and all run.
 * Run type: FULL
 *
 * SUBTEST: partial-resize-zero
 * Description: Check that a partial execute of 0 bytes moves nothing but runs semaphores and doorbell.
 * Run type: FULL
 *
 * SUBTEST: partial-resize-n
 * Description: Check that a partial execute of N bytes changes exactly N bytes on the device.
 * Run type: BAT
 *
 * SUBTEST: partial-from-dev
 * Description: Check that a partial execute from the device changes exactly N bytes of the object.
 * Run type: FULL
 *
 * SUBTEST: partial-multi-slice
 * Description: Check that a partial execute cuts the right slice and still rings every doorbell.
 * Run type: FULL
 *
 * SUBTEST: partial-resize-too-large
 * Description: Check that PARTIAL_EXECUTE_BO refuses a resize beyond the object with EINVAL.
 * Run type: FULL
 *
 * SUBTEST: exec-count-zero
 * Description: Check that EXECUTE_BO refuses 0 entries with EINVAL.
 * Run type: FULL
 *
 * SUBTEST: partial-count-zero
 * Description: Check that PARTIAL_EXECUTE_BO refuses 0 entries with EINVAL.
 * Run type: FULL
 *
 * SUBTEST: exec-count-too-large
 * Description: Check that EXECUTE_BO refuses more than 1024 entries with EINVAL.
 * Run type: FULL
 *
 * SUBTEST: partial-count-too-large
 * Description: Check that PARTIAL_EXECUTE_BO refuses more than 1024 entries with EINVAL.
 * Run type: FULL
 *
 * SUBTEST: exec-bad-dbc
 * Description: Check that EXECUTE_BO refuses a DBC id of 16 or more with EINVAL.
 * Run type: FULL
 *
 * SUBTEST: partial-bad-dbc
 * Description: Check that PARTIAL_EXECUTE_BO refuses a DBC id of 16 or more with EINVAL.
 * Run type: FULL
 *
 * SUBTEST: exec-dbc-never-activated
 * Description: Check that EXECUTE_BO refuses a DBC the file never activated with EPERM.
 * Run type: FULL
 *
 * SUBTEST: partial-dbc-never-activated
 * Description: Check that PARTIAL_EXECUTE_BO refuses a DBC the file never activated with EPERM.
 * Run type: FULL
 *
 * SUBTEST: exec-dbc-other-file
 * Description: Check that EXECUTE_BO refuses the DBC of another file with EPERM.
 * Run type: FULL
 *
 * SUBTEST: partial-dbc-other-file
 * Description: Check that PARTIAL_EXECUTE_BO refuses the DBC of another file with EPERM.
 * Run type: FULL
 *
 * SUBTEST: exec-dbc-deactivated
 * Description: Check that EXECUTE_BO refuses a DBC the file deactivated with EPERM.
 * Run type: FULL
 *
 * SUBTEST: partial-dbc-deactivated
 * Description: Check that PARTIAL_EXECUTE_BO refuses a DBC the file deactivated with EPERM.
 * Run type: FULL
 *
 * SUBTEST: exec-data-unmapped
 * Description: Check that EXECUTE_BO refuses unreadable entries with EFAULT.
 * Run type: FULL
 *
 * SUBTEST: partial-data-unmapped
 * Description: Check that PARTIAL_EXECUTE_BO refuses unreadable entries with EFAULT.
 * Run type: FULL
 *
 * SUBTEST: exec-bad-handle
 * Description: Check that EXECUTE_BO refuses an unknown handle with ENOENT.
 * Run type: FULL
 *
 * SUBTEST: partial-bad-handle
 * Description: Check that PARTIAL_EXECUTE_BO refuses an unknown handle with ENOENT.
 * Run type: FULL
 *
 * SUBTEST: exec-not-sliced
 * Description: Check that EXECUTE_BO refuses an object without slices with EINVAL.
 * Run type: FULL
 *
 * SUBTEST: partial-not-sliced
 * Description: Check that PARTIAL_EXECUTE_BO refuses an object without slices with EINVAL.
 * Run type: FULL
 *
 * SUBTEST: exec-other-dbc-slicing
 * Description: Check that EXECUTE_BO refuses an object sliced for another DBC with EINVAL.
 * Run type: FULL
 *
 * SUBTEST: partial-other-dbc-slicing
 * Description: Check that PARTIAL_EXECUTE_BO refuses an object sliced for another DBC with EINVAL.
 * Run type: FULL
 *
 * SUBTEST: exec-wrong-dir
 * Description: Check that EXECUTE_BO refuses a direction other than the attached one with EINVAL.
 * Run type: FULL
 *
 * SUBTEST: partial-wrong-dir
 * Description: Check that PARTIAL_EXECUTE_BO refuses a direction other than the attached one with EINVAL.
 * Run type: FULL
 *
 * SUBTEST: exec-same-handle-twice
 * Description: Check that EXECUTE_BO refuses one object twice in a call with EINVAL.
 * Run type: FULL
 *
 * SUBTEST: partial-same-handle-twice
 * Description: Check that PARTIAL_EXECUTE_BO refuses one object twice in a call with EINVAL.
 * Run type: FULL
 */

IGT_TEST_DESCRIPTION("EXECUTE_BO and PARTIAL_EXECUTE_BO of the qaic accel driver: data through the device.");

#define PAGE		4096ull
#define SZ_1M		(1024 * 1024ull)
#define QUEUE_SIZE	64
/* Enough for a 1 MiB slice cut into pages, and then some */
#define BIG_QUEUE_SIZE	1024
#define DEV_ADDR	0x400000ull
#define DB_ADDR		0x800000ull

/* ---- data ---------------------------------------------------------------- */

/*
 * Whether the driver is ours; upstream's qaic (--module upstream) differs where
 * noted: what it answers there is up() of ours.
 */
static bool ours = true;

static int up(int ours_err, int upstream_err)
{
	return ours ? ours_err : upstream_err;
}

static void test_round_trip_4k(void)
{
	static const uint64_t addrs[] = {
		0, PAGE, 0x123000, 128 * SZ_1M,
		IGT_QAIC_DEV_MEM_SIZE - PAGE,
	};
	struct igt_qaic_emu_counters before, after;
	bool counters;
	uint32_t dbc;
	int fd;

	fd = igt_qaic_open_dbc(QUEUE_SIZE, &dbc);
	counters = __igt_qaic_emu_dbc_counters(fd, dbc, &before) == 0;

	for (unsigned int i = 0; i < ARRAY_SIZE(addrs); i++)
		igt_qaic_round_trip(fd, dbc, addrs[i], PAGE, i + 1);

	/* The bytes crossed the DMA bridge of this channel, once each way */
	if (counters) {
		igt_assert_eq(__igt_qaic_emu_dbc_counters(fd, dbc, &after), 0);
		igt_assert_eq_u64(after.dma_to_dev_bytes -
				  before.dma_to_dev_bytes,
				  ARRAY_SIZE(addrs) * PAGE);
		igt_assert_eq_u64(after.dma_from_dev_bytes -
				  before.dma_from_dev_bytes,
				  ARRAY_SIZE(addrs) * PAGE);
		igt_assert_eq_u64(after.requests - before.requests,
				  2 * ARRAY_SIZE(addrs));
		igt_assert_eq_u64(after.errors - before.errors, 0);
	} else {
		igt_info("no DBC counters from the emulator: not checked\n");
	}
	igt_qaic_close(fd);
}

static void test_round_trip_1m(void)
{
	uint32_t dbc;
	int fd;

	fd = igt_qaic_open_dbc(BIG_QUEUE_SIZE, &dbc);
	igt_qaic_round_trip(fd, dbc, DEV_ADDR, SZ_1M, 7);
	igt_qaic_round_trip(fd, dbc, IGT_QAIC_DEV_MEM_SIZE - SZ_1M, SZ_1M, 8);
	igt_qaic_close(fd);
}

/* Both directions in one call: the entries run in order */
static void test_round_trip_one_call(void)
{
	struct qaic_execute_entry entries[2];
	struct igt_qaic_bo in, out;
	uint32_t dbc;
	int fd;

	fd = igt_qaic_open_dbc(QUEUE_SIZE, &dbc);
	for (int i = 0; i < 4; i++) {
		igt_qaic_bo_create(fd, 8 * PAGE, &in);
		igt_qaic_bo_create(fd, 8 * PAGE, &out);
		igt_qaic_fill_pattern(in.ptr, in.size, 20 + i);
		memset(out.ptr, 0, out.size);
		igt_qaic_attach_simple(fd, in.handle, dbc, IGT_QAIC_DIR_TO_DEV,
				       in.size, DEV_ADDR + i * SZ_1M);
		igt_qaic_attach_simple(fd, out.handle, dbc,
				       IGT_QAIC_DIR_FROM_DEV, out.size,
				       DEV_ADDR + i * SZ_1M);

		entries[0].handle = in.handle;
		entries[0].dir = IGT_QAIC_DIR_TO_DEV;
		entries[1].handle = out.handle;
		entries[1].dir = IGT_QAIC_DIR_FROM_DEV;
		igt_qaic_execute(fd, dbc, entries, 2);
		igt_qaic_wait(fd, out.handle, dbc, 10000);
		igt_qaic_wait(fd, in.handle, dbc, IGT_QAIC_WAIT_LOOK_MS);
		igt_qaic_assert_bytes(out.ptr, in.ptr, in.size,
				      "round trip in one call");

		igt_qaic_bo_destroy(fd, &in);
		igt_qaic_bo_destroy(fd, &out);
	}
	igt_qaic_close(fd);
}

/*
 * 1 MiB out in 4 slices, to device addresses in another order and apart,
 * back in 8 slices in yet another order: every slice moves its own bytes.
 */
static void test_round_trip_multi_slice(void)
{
	static const unsigned int in_perm[4] = { 2, 0, 3, 1 };
	static const unsigned int out_perm[8] = { 5, 2, 7, 0, 3, 6, 1, 4 };
	const uint64_t in_len = SZ_1M / 4, out_len = SZ_1M / 8;
	const uint64_t stride = 2 * SZ_1M;	/* device layout: gaps between */
	struct qaic_attach_slice_entry in_e[4], out_e[8];
	struct igt_qaic_bo in, out;
	uint8_t *dev, *expected;
	uint32_t dbc;
	int fd;

	fd = igt_qaic_open_dbc(BIG_QUEUE_SIZE, &dbc);
	igt_qaic_bo_create(fd, SZ_1M, &in);
	igt_qaic_bo_create(fd, SZ_1M, &out);
	igt_qaic_fill_pattern(in.ptr, SZ_1M, 31);
	memset(out.ptr, 0xee, SZ_1M);

	/*
	 * Device chunk k (in_len bytes at DEV_ADDR + k * stride) gets the
	 * object's quarter i where in_perm[i] == k. Out slice j reads half j'
	 * of a chunk: out_perm[j] = 2 * k + half.
	 */
	dev = malloc(4 * in_len);
	expected = malloc(SZ_1M);
	igt_assert(dev && expected);
	for (int i = 0; i < 4; i++) {
		igt_qaic_slice_init(&in_e[i], i * in_len, in_len,
				    DEV_ADDR + in_perm[i] * stride);
		memcpy(dev + in_perm[i] * in_len, in.ptr + i * in_len, in_len);
	}
	for (int j = 0; j < 8; j++) {
		unsigned int k = out_perm[j] / 2, half = out_perm[j] % 2;

		igt_qaic_slice_init(&out_e[j], j * out_len, out_len,
				    DEV_ADDR + k * stride + half * out_len);
		memcpy(expected + j * out_len,
		       dev + k * in_len + half * out_len, out_len);
	}
	igt_qaic_attach_slice(fd, in.handle, dbc, IGT_QAIC_DIR_TO_DEV, in_e, 4);
	igt_qaic_attach_slice(fd, out.handle, dbc, IGT_QAIC_DIR_FROM_DEV,
			      out_e, 8);

	igt_qaic_execute_bo(fd, dbc, in.handle, IGT_QAIC_DIR_TO_DEV);
	igt_qaic_wait(fd, in.handle, dbc, 10000);
	igt_qaic_execute_bo(fd, dbc, out.handle, IGT_QAIC_DIR_FROM_DEV);
	igt_qaic_wait(fd, out.handle, dbc, 10000);
	igt_qaic_assert_bytes(out.ptr, expected, SZ_1M, "multi-slice round trip");

	free(dev);
	free(expected);
	igt_qaic_bo_destroy(fd, &in);
	igt_qaic_bo_destroy(fd, &out);
	igt_qaic_close(fd);
}

/* Slices off page boundaries, in the object and on the device */
static void test_round_trip_unaligned(void)
{
	const uint64_t len = 5000, dev_addr = DEV_ADDR + 0x10001;
	struct qaic_attach_slice_entry e;
	struct igt_qaic_bo in, out;
	uint8_t *expected;
	uint32_t dbc;
	int fd;

	fd = igt_qaic_open_dbc(QUEUE_SIZE, &dbc);
	igt_qaic_bo_create(fd, 4 * PAGE, &in);
	igt_qaic_bo_create(fd, 4 * PAGE, &out);
	igt_qaic_fill_pattern(in.ptr, in.size, 41);
	igt_qaic_fill_pattern(out.ptr, out.size, 42);
	expected = malloc(out.size);
	igt_assert(expected);
	memcpy(expected, out.ptr, out.size);
	memcpy(expected + 3001, in.ptr + 100, len);

	igt_qaic_slice_init(&e, 100, len, dev_addr);
	igt_qaic_attach_slice(fd, in.handle, dbc, IGT_QAIC_DIR_TO_DEV, &e, 1);
	igt_qaic_slice_init(&e, 3001, len, dev_addr);
	igt_qaic_attach_slice(fd, out.handle, dbc, IGT_QAIC_DIR_FROM_DEV, &e, 1);

	igt_qaic_execute_bo(fd, dbc, in.handle, IGT_QAIC_DIR_TO_DEV);
	igt_qaic_wait(fd, in.handle, dbc, 10000);
	igt_qaic_execute_bo(fd, dbc, out.handle, IGT_QAIC_DIR_FROM_DEV);
	igt_qaic_wait(fd, out.handle, dbc, 10000);
	/* The slice came back, and nothing around it changed */
	igt_qaic_assert_bytes(out.ptr, expected, out.size, "unaligned slices");

	free(expected);
	igt_qaic_bo_destroy(fd, &in);
	igt_qaic_bo_destroy(fd, &out);
	igt_qaic_close(fd);
}

/*
 * 1000 jobs over 8 objects, object k taking turn k: each one's slice first
 * waits for semaphore 0 to be k, then sets it to k + 1 (mod 8), counts in
 * semaphore 1, writes its page over the same device page and rings the
 * same doorbell. A job run out of turn would wait forever (and fail at the
 * job timeout); the last page and doorbell must be those of job 999.
 */
#define ORDER_OBJS	8
#define ORDER_JOBS	1000

static void test_ordering(void)
{
	struct qaic_attach_slice_entry e[2];
	struct qaic_execute_entry entries[ORDER_OBJS];
	struct igt_qaic_bo bo[ORDER_OBJS], check;
	uint8_t expected[PAGE];
	uint32_t dbc, db;
	int fd, job = 0, group = 1;

	fd = igt_qaic_open_dbc(QUEUE_SIZE, &dbc);
	igt_qaic_require_ours(fd, ours,
			      "an object still queued is refused (EINVAL), not queued again");
	for (int k = 0; k < ORDER_OBJS; k++) {
		igt_qaic_bo_create(fd, PAGE, &bo[k]);
		igt_qaic_fill_pattern(bo[k].ptr, PAGE, 500 + k);
		igt_qaic_slice_init(&e[0], 0, PAGE, DEV_ADDR);
		e[0].sem0 = igt_qaic_sem(QAIC_SEM_WAIT_EQUAL, 0, k, true);
		e[0].sem1 = igt_qaic_sem(QAIC_SEM_INIT, 0,
					 (k + 1) % ORDER_OBJS, false);
		e[0].sem2 = igt_qaic_sem(QAIC_SEM_INC, 1, 0, false);
		igt_qaic_slice_doorbell(&e[0], DB_ADDR, 32, 0x1000 + k);
		igt_qaic_attach_slice(fd, bo[k].handle, dbc,
				      IGT_QAIC_DIR_TO_DEV, e, 1);
	}

	/* Calls of 1, 2, ... 8 consecutive jobs: never one object twice */
	while (job < ORDER_JOBS) {
		int n = 0;

		for (; n < group && job < ORDER_JOBS; n++, job++) {
			entries[n].handle = bo[job % ORDER_OBJS].handle;
			entries[n].dir = IGT_QAIC_DIR_TO_DEV;
		}
		igt_qaic_execute(fd, dbc, entries, n);
		group = group % ORDER_OBJS + 1;
	}

	/* Reads the page and the doorbell once all 1000 counted */
	igt_qaic_bo_create(fd, 2 * PAGE, &check);
	memset(check.ptr, 0, check.size);
	igt_qaic_slice_init(&e[0], 0, PAGE, DEV_ADDR);
	e[0].sem0 = igt_qaic_sem(QAIC_SEM_WAIT_EQUAL, 1, ORDER_JOBS, true);
	igt_qaic_slice_init(&e[1], PAGE, sizeof(db), DB_ADDR);
	e[1].sem0 = igt_qaic_sem(QAIC_SEM_WAIT_EQUAL, 0,
				 ORDER_JOBS % ORDER_OBJS, true);
	igt_qaic_attach_slice(fd, check.handle, dbc, IGT_QAIC_DIR_FROM_DEV,
			      e, 2);
	igt_qaic_execute_bo(fd, dbc, check.handle, IGT_QAIC_DIR_FROM_DEV);

	igt_qaic_wait(fd, check.handle, dbc, 30000);
	for (int k = 0; k < ORDER_OBJS; k++)
		igt_qaic_wait(fd, bo[k].handle, dbc, IGT_QAIC_WAIT_LOOK_MS);

	igt_qaic_fill_pattern(expected, PAGE,
			      500 + (ORDER_JOBS - 1) % ORDER_OBJS);
	igt_qaic_assert_bytes(check.ptr, expected, PAGE, "page of the last job");
	memcpy(&db, check.ptr + PAGE, sizeof(db));
	igt_assert_eq_u32(db, 0x1000 + (ORDER_JOBS - 1) % ORDER_OBJS);

	igt_qaic_close(fd);
}

static void test_two_processes(void)
{
	igt_fork(child, 2) {
		uint64_t base = (uint64_t)child * 64 * SZ_1M;
		uint32_t dbc;
		int fd;

		fd = igt_qaic_open_dbc(QUEUE_SIZE, &dbc);
		igt_info("child %d: DBC %u\n", child, dbc);
		for (int i = 0; i < 20; i++)
			igt_qaic_round_trip(fd, dbc, base + i * 16 * PAGE,
					    (i % 4 + 1) * PAGE,
					    child * 1000 + i);
		igt_qaic_close(fd);
	}
	igt_waitchildren();
}

/*
 * A ring of 4 (3 requests) gets 200 jobs in one call, then 200 more in
 * calls of 4: the ioctl does not block nor refuse, and every job runs.
 */
#define OVERFILL_JOBS	200

static void test_small_ring_overfill(void)
{
	static struct igt_qaic_bo bo[OVERFILL_JOBS];
	static struct qaic_execute_entry entries[OVERFILL_JOBS];
	struct qaic_attach_slice_entry e;
	struct igt_qaic_bo check[2];
	uint8_t *got, expected[PAGE];
	uint32_t dbc, big, db;
	uint64_t start;
	int fd;

	fd = igt_qaic_open_dbc(4, &dbc);
	big = igt_qaic_activate(fd, BIG_QUEUE_SIZE);

	for (int k = 0; k < OVERFILL_JOBS; k++) {
		igt_qaic_bo_create(fd, PAGE, &bo[k]);
		igt_qaic_fill_pattern(bo[k].ptr, PAGE, 700 + k);
		igt_qaic_slice_init(&e, 0, PAGE, DEV_ADDR + k * PAGE);
		e.sem0 = igt_qaic_sem(QAIC_SEM_INC, 2, 0, false);
		igt_qaic_attach_slice(fd, bo[k].handle, dbc,
				      IGT_QAIC_DIR_TO_DEV, &e, 1);
		entries[k].handle = bo[k].handle;
		entries[k].dir = IGT_QAIC_DIR_TO_DEV;
	}
	/* Doorbells once 200, then 400 jobs counted */
	for (int i = 0; i < 2; i++) {
		igt_qaic_bo_create(fd, PAGE, &check[i]);
		igt_qaic_slice_init(&e, 0, 0, 0);
		e.sem0 = igt_qaic_sem(QAIC_SEM_WAIT_EQUAL, 2,
				      (i + 1) * OVERFILL_JOBS, true);
		igt_qaic_slice_doorbell(&e, DB_ADDR, 32, 0xc0ffee00 + i);
		igt_qaic_attach_slice(fd, check[i].handle, dbc,
				      IGT_QAIC_DIR_TO_DEV, &e, 1);
	}

	if (!ours) {
		/*
		 * Upstream queues no more than the ring holds: EAGAIN, nothing
		 * queued. Asked once: igt_ioctl() would retry it for ever.
		 */
		struct qaic_execute args = {
			.hdr = { .count = OVERFILL_JOBS, .dbc_id = dbc },
			.data = to_user_pointer(entries),
		};

		igt_assert_eq(ioctl(fd, DRM_IOCTL_QAIC_EXECUTE_BO, &args), -1);
		igt_assert_eq(errno, EAGAIN);
		igt_qaic_close(fd);
		return;
	}
	start = igt_qaic_now_ms();
	igt_qaic_execute(fd, dbc, entries, OVERFILL_JOBS);
	igt_info("200 jobs queued on a ring of 4 in %llu ms\n",
		 (unsigned long long)(igt_qaic_now_ms() - start));
	igt_qaic_execute_bo(fd, dbc, check[0].handle, IGT_QAIC_DIR_TO_DEV);
	igt_qaic_wait(fd, check[0].handle, dbc, 30000);
	for (int k = 0; k < OVERFILL_JOBS; k++)
		igt_qaic_wait(fd, bo[k].handle, dbc, IGT_QAIC_WAIT_LOOK_MS);

	got = malloc(OVERFILL_JOBS * PAGE);
	igt_assert(got);
	igt_qaic_read_dev(fd, big, DEV_ADDR, got, OVERFILL_JOBS * PAGE);
	for (int k = 0; k < OVERFILL_JOBS; k++) {
		igt_qaic_fill_pattern(expected, PAGE, 700 + k);
		igt_qaic_assert_bytes(got + k * PAGE, expected, PAGE,
				      "page of an overfilling job");
	}
	igt_qaic_read_dev(fd, big, DB_ADDR, &db, sizeof(db));
	igt_assert_eq_u32(db, 0xc0ffee00);

	/* 200 more, four at a time */
	for (int i = 0; i < OVERFILL_JOBS / 4; i++)
		igt_qaic_execute(fd, dbc, entries, 4);
	igt_qaic_execute_bo(fd, dbc, check[1].handle, IGT_QAIC_DIR_TO_DEV);
	igt_qaic_wait(fd, check[1].handle, dbc, 30000);
	for (int k = 0; k < 4; k++)
		igt_qaic_wait(fd, bo[k].handle, dbc, IGT_QAIC_WAIT_LOOK_MS);
	igt_qaic_read_dev(fd, big, DB_ADDR, &db, sizeof(db));
	igt_assert_eq_u32(db, 0xc0ffee01);

	free(got);
	igt_qaic_close(fd);
}

/* ---- partial execute ----------------------------------------------------- */

#define PART_SIZE	(4 * PAGE)

struct partial {
	int fd;
	uint32_t dbc;
	struct igt_qaic_bo bo;
	uint8_t old[PART_SIZE];	/* device bytes before */
	uint8_t new[PART_SIZE];	/* object bytes */
	uint8_t got[PART_SIZE];
};

/*
 * An object of 4 pages going to DEV_ADDR as one slice with a doorbell and
 * a semaphore count, over device bytes set to something else first.
 */
static void partial_setup(struct partial *p, uint32_t dir)
{
	struct qaic_attach_slice_entry e;
	uint32_t zero = 0;

	p->fd = igt_qaic_open_dbc(QUEUE_SIZE, &p->dbc);
	igt_qaic_fill_pattern(p->old, PART_SIZE, 61);
	igt_qaic_fill_pattern(p->new, PART_SIZE, 62);
	igt_qaic_write_dev(p->fd, p->dbc, DEV_ADDR, p->old, PART_SIZE);
	igt_qaic_write_dev(p->fd, p->dbc, DB_ADDR, &zero, sizeof(zero));

	igt_qaic_bo_create(p->fd, PART_SIZE, &p->bo);
	memcpy(p->bo.ptr, p->new, PART_SIZE);
	igt_qaic_slice_init(&e, 0, PART_SIZE, DEV_ADDR);
	e.sem0 = igt_qaic_sem(QAIC_SEM_INC, 3, 0, false);
	igt_qaic_slice_doorbell(&e, DB_ADDR, 32, 0xabcd1234);
	igt_qaic_attach_slice(p->fd, p->bo.handle, p->dbc, dir, &e, 1);
}

static void partial_run(struct partial *p, uint32_t dir, uint64_t resize)
{
	struct qaic_partial_execute_entry entry = {
		.handle = p->bo.handle,
		.dir = dir,
		.resize = resize,
	};

	igt_qaic_partial_execute(p->fd, p->dbc, &entry, 1);
	igt_qaic_wait(p->fd, p->bo.handle, p->dbc, 10000);
}

/* Semaphore 3 counted @count slices, and the doorbell rang */
static void partial_check_sem_db(struct partial *p, uint16_t count)
{
	struct qaic_attach_slice_entry e;
	struct igt_qaic_bo check;
	uint32_t db;

	igt_qaic_read_dev(p->fd, p->dbc, DB_ADDR, &db, sizeof(db));
	igt_assert_eq_u32(db, 0xabcd1234);

	igt_qaic_bo_create(p->fd, PAGE, &check);
	igt_qaic_slice_init(&e, 0, 0, 0);
	e.sem0 = igt_qaic_sem(QAIC_SEM_WAIT_EQUAL, 3, count, true);
	igt_qaic_attach_slice(p->fd, check.handle, p->dbc, IGT_QAIC_DIR_TO_DEV,
			      &e, 1);
	igt_qaic_execute_bo(p->fd, p->dbc, check.handle, IGT_QAIC_DIR_TO_DEV);
	igt_assert_f(__igt_qaic_wait(p->fd, check.handle, p->dbc, 10000) == 0,
		     "semaphore 3 is not %u\n", count);
	igt_qaic_detach_slice(p->fd, check.handle);
	igt_qaic_bo_destroy(p->fd, &check);
}

static void test_partial_resize_zero(void)
{
	struct partial p;

	partial_setup(&p, IGT_QAIC_DIR_TO_DEV);
	partial_run(&p, IGT_QAIC_DIR_TO_DEV, 0);

	igt_qaic_read_dev(p.fd, p.dbc, DEV_ADDR, p.got, PART_SIZE);
	igt_qaic_assert_bytes(p.got, p.old, PART_SIZE, "device after resize 0");
	partial_check_sem_db(&p, 1);
	igt_qaic_close(p.fd);
}

static void test_partial_resize_n(void)
{
	static const uint64_t sizes[] = { 1, 5000, PAGE, PART_SIZE - 1,
					  PART_SIZE };
	uint8_t expected[PART_SIZE];
	struct partial p;

	partial_setup(&p, IGT_QAIC_DIR_TO_DEV);
	for (unsigned int i = 0; i < ARRAY_SIZE(sizes); i++) {
		igt_qaic_write_dev(p.fd, p.dbc, DEV_ADDR, p.old, PART_SIZE);
		partial_run(&p, IGT_QAIC_DIR_TO_DEV, sizes[i]);

		memcpy(expected, p.old, PART_SIZE);
		memcpy(expected, p.new, sizes[i]);
		igt_qaic_read_dev(p.fd, p.dbc, DEV_ADDR, p.got, PART_SIZE);
		igt_info("resize %llu\n", (unsigned long long)sizes[i]);
		igt_qaic_assert_bytes(p.got, expected, PART_SIZE,
				      "device after a partial execute");
	}
	partial_check_sem_db(&p, ARRAY_SIZE(sizes));

	/* A full execute afterwards moves everything again */
	igt_qaic_write_dev(p.fd, p.dbc, DEV_ADDR, p.old, PART_SIZE);
	igt_qaic_execute_bo(p.fd, p.dbc, p.bo.handle, IGT_QAIC_DIR_TO_DEV);
	igt_qaic_wait(p.fd, p.bo.handle, p.dbc, 10000);
	igt_qaic_read_dev(p.fd, p.dbc, DEV_ADDR, p.got, PART_SIZE);
	igt_qaic_assert_bytes(p.got, p.new, PART_SIZE,
			      "device after a full execute");
	igt_qaic_close(p.fd);
}

static void test_partial_from_dev(void)
{
	static const uint64_t sizes[] = { 0, 5000, PART_SIZE };
	uint8_t expected[PART_SIZE];
	struct partial p;

	/* Device holds old; the object starts as new and gets old's head */
	partial_setup(&p, IGT_QAIC_DIR_FROM_DEV);
	for (unsigned int i = 0; i < ARRAY_SIZE(sizes); i++) {
		memcpy(p.bo.ptr, p.new, PART_SIZE);
		partial_run(&p, IGT_QAIC_DIR_FROM_DEV, sizes[i]);

		memcpy(expected, p.new, PART_SIZE);
		memcpy(expected, p.old, sizes[i]);
		igt_info("resize %llu\n", (unsigned long long)sizes[i]);
		igt_qaic_assert_bytes(p.bo.ptr, expected, PART_SIZE,
				      "object after a partial execute");
	}
	partial_check_sem_db(&p, ARRAY_SIZE(sizes));
	igt_qaic_close(p.fd);
}

/*
 * Four one-page slices, each to its own device page and doorbell: the cut
 * shortens the slice it falls in; the slices after it move nothing, yet
 * ring their doorbells.
 */
static void test_partial_multi_slice(void)
{
	static const uint64_t resizes[] = { 0, PAGE + 1904, 2 * PAGE,
					    4 * PAGE };
	const uint64_t stride = 0x10000;
	struct qaic_attach_slice_entry e[4];
	uint8_t old[PAGE], new[PAGE], got[PAGE];
	struct qaic_partial_execute_entry entry;
	struct igt_qaic_bo bo;
	uint32_t dbc, db[4];
	int fd;

	fd = igt_qaic_open_dbc(QUEUE_SIZE, &dbc);
	igt_qaic_fill_pattern(old, PAGE, 71);
	igt_qaic_bo_create(fd, 4 * PAGE, &bo);
	igt_qaic_fill_pattern(bo.ptr, bo.size, 72);
	for (int i = 0; i < 4; i++) {
		igt_qaic_slice_init(&e[i], i * PAGE, PAGE,
				    DEV_ADDR + i * stride);
		igt_qaic_slice_doorbell(&e[i], DB_ADDR + 4 * i, 32, 0x100 + i);
	}
	igt_qaic_attach_slice(fd, bo.handle, dbc, IGT_QAIC_DIR_TO_DEV, e, 4);

	for (unsigned int r = 0; r < ARRAY_SIZE(resizes); r++) {
		const uint64_t resize = resizes[r];

		for (int i = 0; i < 4; i++)
			igt_qaic_write_dev(fd, dbc, DEV_ADDR + i * stride, old,
					   PAGE);
		memset(db, 0, sizeof(db));
		igt_qaic_write_dev(fd, dbc, DB_ADDR, db, sizeof(db));

		entry.handle = bo.handle;
		entry.dir = IGT_QAIC_DIR_TO_DEV;
		entry.resize = resize;
		igt_qaic_partial_execute(fd, dbc, &entry, 1);
		igt_qaic_wait(fd, bo.handle, dbc, 10000);

		for (int i = 0; i < 4; i++) {
			uint64_t moved = resize > i * PAGE ? resize - i * PAGE : 0;

			if (moved > PAGE)
				moved = PAGE;
			memcpy(new, old, PAGE);
			memcpy(new, bo.ptr + i * PAGE, moved);
			igt_qaic_read_dev(fd, dbc, DEV_ADDR + i * stride, got,
					  PAGE);
			igt_info("resize %llu, slice %d: %llu bytes\n",
				 (unsigned long long)resize, i,
				 (unsigned long long)moved);
			igt_qaic_assert_bytes(got, new, PAGE,
					      "slice of a partial execute");
		}
		igt_qaic_read_dev(fd, dbc, DB_ADDR, db, sizeof(db));
		for (int i = 0; i < 4; i++)
			igt_assert_eq_u32(db[i], 0x100 + i);
	}
	igt_qaic_close(fd);
}

/* ---- errors -------------------------------------------------------------- */

/*
 * Objects for the error checks: a (to the device) and b (from it) sliced
 * for dbc, c sliced for dbc2, u not sliced.
 */
struct exec_ctx {
	int fd;
	uint32_t dbc, dbc2;
	struct igt_qaic_bo a, b, c, u;
};

static void exec_ctx_open(struct exec_ctx *t)
{
	t->fd = igt_qaic_open_dbc(QUEUE_SIZE, &t->dbc);
	t->dbc2 = igt_qaic_activate(t->fd, QUEUE_SIZE);
	igt_qaic_bo_create(t->fd, 2 * PAGE, &t->a);
	igt_qaic_bo_create(t->fd, 2 * PAGE, &t->b);
	igt_qaic_bo_create(t->fd, 2 * PAGE, &t->c);
	igt_qaic_bo_create(t->fd, 2 * PAGE, &t->u);
	igt_qaic_attach_simple(t->fd, t->a.handle, t->dbc, IGT_QAIC_DIR_TO_DEV,
			       2 * PAGE, DEV_ADDR);
	igt_qaic_attach_simple(t->fd, t->b.handle, t->dbc,
			       IGT_QAIC_DIR_FROM_DEV, 2 * PAGE, DEV_ADDR);
	igt_qaic_attach_simple(t->fd, t->c.handle, t->dbc2,
			       IGT_QAIC_DIR_TO_DEV, 2 * PAGE, DEV_ADDR);
}

struct job {
	uint32_t handle;
	uint32_t dir;
	uint64_t resize;
};

/* Up to 8 jobs through EXECUTE_BO or PARTIAL_EXECUTE_BO */
static int exec_jobs(int fd, uint32_t dbc, bool partial,
		     const struct job *jobs, uint32_t count)
{
	struct qaic_partial_execute_entry pe[8];
	struct qaic_execute_entry e[8];

	igt_assert(count <= 8);
	for (uint32_t i = 0; i < count; i++) {
		e[i].handle = pe[i].handle = jobs[i].handle;
		e[i].dir = pe[i].dir = jobs[i].dir;
		pe[i].resize = jobs[i].resize;
	}
	if (partial)
		return __igt_qaic_partial_execute(fd, dbc, pe, count);
	return __igt_qaic_execute(fd, dbc, e, count);
}

static int exec_raw(int fd, uint32_t dbc, bool partial, const void *data,
		    uint32_t count)
{
	if (partial)
		return __igt_qaic_partial_execute(fd, dbc, data, count);
	return __igt_qaic_execute(fd, dbc, data, count);
}

static void check_ret(int ret, int err, bool partial, const char *what)
{
	igt_assert_f(ret == -err, "%s %s: got %s, expected %s\n",
		     partial ? "PARTIAL_EXECUTE_BO" : "EXECUTE_BO", what,
		     igt_qaic_err_name(-ret), igt_qaic_err_name(err));
}

/* A succeeded: wait for it, so that the context is idle again */
static void settle(struct exec_ctx *t)
{
	igt_qaic_wait(t->fd, t->a.handle, t->dbc, 10000);
	igt_qaic_wait(t->fd, t->b.handle, t->dbc, 10000);
}

static void test_count_zero(bool partial)
{
	struct job jobs[1] = { { 0, IGT_QAIC_DIR_TO_DEV, 0 } };
	struct exec_ctx t;

	exec_ctx_open(&t);
	jobs[0].handle = t.a.handle;
	check_ret(exec_jobs(t.fd, t.dbc, partial, jobs, 0), EINVAL, partial,
		  "count 0");
	check_ret(exec_raw(t.fd, t.dbc, partial, NULL, 0), EINVAL, partial,
		  "count 0, data NULL");
	igt_qaic_close(t.fd);
}

static void test_count_too_large(bool partial)
{
	struct exec_ctx t;

	exec_ctx_open(&t);
	/*
	 * The count is checked before the data is read: EINVAL, not EFAULT.
	 * Upstream has no limit: it copies count entries in, EFAULT from NULL,
	 * and ENOMEM where that copy cannot be allocated.
	 */
	check_ret(exec_raw(t.fd, t.dbc, partial, NULL,
			   IGT_QAIC_MAX_EXEC_COUNT + 1), up(EINVAL, EFAULT), partial,
		  "count 4097");
	check_ret(exec_raw(t.fd, t.dbc, partial, NULL, UINT32_MAX), up(EINVAL, ENOMEM),
		  partial, "count 2^32 - 1");
	check_ret(exec_raw(t.fd, t.dbc, partial, NULL, 0x80000000u), up(EINVAL, ENOMEM),
		  partial, "count 2^31");
	/* 1024 is allowed: this one gets as far as reading the data */
	check_ret(exec_raw(t.fd, t.dbc, partial, NULL,
			   IGT_QAIC_MAX_EXEC_COUNT), EFAULT, partial,
		  "count 1024, data NULL");
	igt_qaic_close(t.fd);
}

static void test_bad_dbc(bool partial)
{
	static const uint32_t ids[] = { IGT_QAIC_NUM_DBC, 17, 0x100,
					UINT32_MAX };
	struct job jobs[1] = { { 0, IGT_QAIC_DIR_TO_DEV, 2 * PAGE } };
	struct exec_ctx t;
	char what[64];

	exec_ctx_open(&t);
	jobs[0].handle = t.a.handle;
	for (unsigned int i = 0; i < ARRAY_SIZE(ids); i++) {
		snprintf(what, sizeof(what), "DBC %#x", ids[i]);
		check_ret(exec_jobs(t.fd, ids[i], partial, jobs, 1), EINVAL,
			  partial, what);
		snprintf(what, sizeof(what), "DBC %#x, data NULL", ids[i]);
		check_ret(exec_raw(t.fd, ids[i], partial, NULL, 1), up(EINVAL, EFAULT),
			  partial, what);
	}
	igt_qaic_close(t.fd);
}

/* Execute on @dbc, which @t does not own: EPERM */
static void check_eperm(struct exec_ctx *t, uint32_t dbc, bool partial,
			const char *what)
{
	struct job jobs[1] = { { t->a.handle, IGT_QAIC_DIR_TO_DEV, 2 * PAGE } };
	char buf[96];

	snprintf(buf, sizeof(buf), "%s DBC %u", what, dbc);
	check_ret(exec_jobs(t->fd, dbc, partial, jobs, 1), EPERM, partial, buf);
	snprintf(buf, sizeof(buf), "%s DBC %u, data NULL", what, dbc);
	check_ret(exec_raw(t->fd, dbc, partial, NULL, 1), up(EPERM, EFAULT), partial, buf);
}

static void test_dbc_never_activated(bool partial)
{
	struct exec_ctx t;
	uint32_t dbc;

	exec_ctx_open(&t);
	for (dbc = 0; dbc == t.dbc || dbc == t.dbc2; dbc++)
		;
	check_eperm(&t, dbc, partial, "never activated");
	igt_qaic_close(t.fd);
}

static void test_dbc_other_file(bool partial)
{
	struct exec_ctx t;
	uint32_t dbc3;
	int fd2;

	exec_ctx_open(&t);
	fd2 = igt_qaic_open_dbc(QUEUE_SIZE, &dbc3);
	check_eperm(&t, dbc3, partial, "other file's");
	igt_qaic_close(fd2);
	igt_qaic_close(t.fd);
}

static void test_dbc_deactivated(bool partial)
{
	struct job jobs[1] = { { 0, IGT_QAIC_DIR_TO_DEV, 2 * PAGE } };
	struct exec_ctx t;

	exec_ctx_open(&t);
	/* c runs on dbc2 while it is ours, not after */
	jobs[0].handle = t.c.handle;
	check_ret(exec_jobs(t.fd, t.dbc2, partial, jobs, 1), 0, partial,
		  "on dbc2");
	igt_qaic_wait(t.fd, t.c.handle, t.dbc2, 10000);
	igt_qaic_deactivate(t.fd, t.dbc2);
	check_ret(exec_jobs(t.fd, t.dbc2, partial, jobs, 1), EPERM, partial,
		  "deactivated DBC");
	check_eperm(&t, t.dbc2, partial, "deactivated");
	igt_qaic_close(t.fd);
}

static void test_data_unmapped(bool partial)
{
	struct qaic_partial_execute_entry *pe;
	struct qaic_execute_entry *e;
	struct exec_ctx t;
	uint8_t *two;

	exec_ctx_open(&t);
	check_ret(exec_raw(t.fd, t.dbc, partial, NULL, 1), EFAULT, partial,
		  "data NULL");
	check_ret(exec_raw(t.fd, t.dbc, partial, igt_qaic_unmapped_ptr(), 1), EFAULT,
		  partial, "data unmapped");

	/* The first entry is readable, the second is not */
	two = mmap(NULL, 2 * PAGE, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	igt_assert(two != MAP_FAILED);
	igt_assert_eq(munmap(two + PAGE, PAGE), 0);
	if (partial) {
		pe = (void *)(two + PAGE - sizeof(*pe));
		pe->handle = t.a.handle;
		pe->dir = IGT_QAIC_DIR_TO_DEV;
		pe->resize = PAGE;
		check_ret(exec_raw(t.fd, t.dbc, partial, pe, 2), EFAULT,
			  partial, "second entry unmapped");
		check_ret(exec_raw(t.fd, t.dbc, partial, pe, 1), 0, partial,
			  "last entry of a mapped page");
	} else {
		e = (void *)(two + PAGE - sizeof(*e));
		e->handle = t.a.handle;
		e->dir = IGT_QAIC_DIR_TO_DEV;
		check_ret(exec_raw(t.fd, t.dbc, partial, e, 2), EFAULT,
			  partial, "second entry unmapped");
		check_ret(exec_raw(t.fd, t.dbc, partial, e, 1), 0, partial,
			  "last entry of a mapped page");
	}
	settle(&t);
	igt_assert_eq(munmap(two, PAGE), 0);
	igt_qaic_close(t.fd);
}

static void test_bad_handle(bool partial)
{
	struct job jobs[2] = {
		{ 0, IGT_QAIC_DIR_TO_DEV, PAGE },
		{ 0, IGT_QAIC_DIR_TO_DEV, PAGE },
	};
	struct exec_ctx t;

	exec_ctx_open(&t);
	jobs[0].handle = 0xdeadbeef;
	check_ret(exec_jobs(t.fd, t.dbc, partial, jobs, 1), ENOENT, partial,
		  "unknown handle");
	jobs[0].handle = 0;
	check_ret(exec_jobs(t.fd, t.dbc, partial, jobs, 1), ENOENT, partial,
		  "handle 0");
	/* Second of two */
	jobs[0].handle = t.a.handle;
	jobs[1].handle = 0xdeadbeef;
	check_ret(exec_jobs(t.fd, t.dbc, partial, jobs, 2), ENOENT, partial,
		  "unknown second handle");
	/* A closed handle */
	gem_close(t.fd, t.u.handle);
	jobs[0].handle = t.u.handle;
	check_ret(exec_jobs(t.fd, t.dbc, partial, jobs, 1), ENOENT, partial,
		  "closed handle");
	settle(&t);
	igt_qaic_close(t.fd);
}

static void test_not_sliced(bool partial)
{
	struct job jobs[2] = {
		{ 0, IGT_QAIC_DIR_TO_DEV, PAGE },
		{ 0, IGT_QAIC_DIR_TO_DEV, PAGE },
	};
	struct exec_ctx t;

	exec_ctx_open(&t);
	jobs[0].handle = t.u.handle;
	check_ret(exec_jobs(t.fd, t.dbc, partial, jobs, 1), EINVAL, partial,
		  "object not sliced");
	jobs[0].dir = IGT_QAIC_DIR_FROM_DEV;
	check_ret(exec_jobs(t.fd, t.dbc, partial, jobs, 1), EINVAL, partial,
		  "object not sliced, dir 2");
	/* Detached: not sliced any more */
	igt_qaic_detach_slice(t.fd, t.a.handle);
	jobs[0].handle = t.b.handle;
	jobs[0].dir = IGT_QAIC_DIR_FROM_DEV;
	jobs[1].handle = t.a.handle;
	jobs[1].dir = IGT_QAIC_DIR_TO_DEV;
	check_ret(exec_jobs(t.fd, t.dbc, partial, jobs, 2), EINVAL, partial,
		  "second object detached");
	igt_qaic_wait(t.fd, t.b.handle, t.dbc, 10000);
	igt_qaic_close(t.fd);
}

static void test_other_dbc_slicing(bool partial)
{
	struct job jobs[1] = { { 0, IGT_QAIC_DIR_TO_DEV, PAGE } };
	struct exec_ctx t;

	exec_ctx_open(&t);
	jobs[0].handle = t.c.handle;
	check_ret(exec_jobs(t.fd, t.dbc, partial, jobs, 1), EINVAL, partial,
		  "object sliced for dbc2, on dbc");
	jobs[0].handle = t.a.handle;
	check_ret(exec_jobs(t.fd, t.dbc2, partial, jobs, 1), EINVAL, partial,
		  "object sliced for dbc, on dbc2");
	/* Each on its own DBC is fine */
	check_ret(exec_jobs(t.fd, t.dbc, partial, jobs, 1), 0, partial,
		  "object on its DBC");
	settle(&t);
	igt_qaic_close(t.fd);
}

static void test_wrong_dir(bool partial)
{
	static const uint32_t dirs[] = { IGT_QAIC_DIR_FROM_DEV, 0, 3,
					 UINT32_MAX };
	struct job jobs[1] = { { 0, 0, PAGE } };
	struct exec_ctx t;
	char what[64];

	exec_ctx_open(&t);
	igt_qaic_require_ours(t.fd, ours, "the dir of an execute entry is not looked at");
	for (unsigned int i = 0; i < ARRAY_SIZE(dirs); i++) {
		jobs[0].handle = t.a.handle;
		jobs[0].dir = dirs[i];
		snprintf(what, sizeof(what), "dir %#x on a dir 1 object",
			 dirs[i]);
		check_ret(exec_jobs(t.fd, t.dbc, partial, jobs, 1), EINVAL,
			  partial, what);
	}
	jobs[0].handle = t.b.handle;
	jobs[0].dir = IGT_QAIC_DIR_TO_DEV;
	check_ret(exec_jobs(t.fd, t.dbc, partial, jobs, 1), EINVAL, partial,
		  "dir 1 on a dir 2 object");
	igt_qaic_close(t.fd);
}

static void test_same_handle_twice(bool partial)
{
	struct job jobs[3] = {
		{ 0, IGT_QAIC_DIR_TO_DEV, PAGE },
		{ 0, IGT_QAIC_DIR_FROM_DEV, PAGE },
		{ 0, IGT_QAIC_DIR_TO_DEV, PAGE },
	};
	struct exec_ctx t;

	exec_ctx_open(&t);
	jobs[0].handle = jobs[1].handle = t.a.handle;
	jobs[1].dir = IGT_QAIC_DIR_TO_DEV;
	check_ret(exec_jobs(t.fd, t.dbc, partial, jobs, 2), EINVAL, partial,
		  "a, a");
	jobs[1].handle = t.b.handle;
	jobs[1].dir = IGT_QAIC_DIR_FROM_DEV;
	jobs[2].handle = t.a.handle;
	check_ret(exec_jobs(t.fd, t.dbc, partial, jobs, 3), EINVAL, partial,
		  "a, b, a");
	/* a, b is fine */
	check_ret(exec_jobs(t.fd, t.dbc, partial, jobs, 2), 0, partial, "a, b");
	settle(&t);
	igt_qaic_close(t.fd);
}

static void test_partial_resize_too_large(void)
{
	static const uint64_t bad[] = { 2 * PAGE + 1, 3 * PAGE, 1ull << 32,
					(1ull << 32) + PAGE, UINT64_MAX };
	struct job jobs[2] = {
		{ 0, IGT_QAIC_DIR_TO_DEV, 2 * PAGE },
		{ 0, IGT_QAIC_DIR_FROM_DEV, 0 },
	};
	struct exec_ctx t;
	char what[64];

	exec_ctx_open(&t);
	jobs[0].handle = t.a.handle;
	jobs[1].handle = t.b.handle;
	for (unsigned int i = 0; i < ARRAY_SIZE(bad); i++) {
		jobs[0].resize = bad[i];
		snprintf(what, sizeof(what), "resize %#llx of 8 KiB",
			 (unsigned long long)bad[i]);
		check_ret(exec_jobs(t.fd, t.dbc, true, jobs, 1), EINVAL, true,
			  what);
		/* As the second entry */
		jobs[1].resize = bad[i];
		jobs[0].resize = PAGE;
		check_ret(exec_jobs(t.fd, t.dbc, true, jobs, 2), EINVAL, true,
			  what);
		jobs[1].resize = 0;
	}
	/* The whole object is fine */
	jobs[0].resize = 2 * PAGE;
	jobs[1].resize = 2 * PAGE;
	check_ret(exec_jobs(t.fd, t.dbc, true, jobs, 2), 0, true,
		  "resize to the object's size");
	settle(&t);
	igt_qaic_close(t.fd);
}

igt_main
{
	static const struct {
		const char *name;
		const char *desc;
		void (*func)(bool partial);
	} errors[] = {
		{ "count-zero", "refuses 0 entries with EINVAL",
		  test_count_zero },
		{ "count-too-large", "refuses more than 1024 entries with EINVAL",
		  test_count_too_large },
		{ "bad-dbc", "refuses a DBC id of 16 or more with EINVAL",
		  test_bad_dbc },
		{ "dbc-never-activated",
		  "refuses a DBC the file never activated with EPERM",
		  test_dbc_never_activated },
		{ "dbc-other-file", "refuses the DBC of another file with EPERM",
		  test_dbc_other_file },
		{ "dbc-deactivated",
		  "refuses a DBC the file deactivated with EPERM",
		  test_dbc_deactivated },
		{ "data-unmapped", "refuses unreadable entries with EFAULT",
		  test_data_unmapped },
		{ "bad-handle", "refuses an unknown handle with ENOENT",
		  test_bad_handle },
		{ "not-sliced", "refuses an object without slices with EINVAL",
		  test_not_sliced },
		{ "other-dbc-slicing",
		  "refuses an object sliced for another DBC with EINVAL",
		  test_other_dbc_slicing },
		{ "wrong-dir",
		  "refuses a direction other than the attached one with EINVAL",
		  test_wrong_dir },
		{ "same-handle-twice",
		  "refuses one object twice in a call with EINVAL",
		  test_same_handle_twice },
	};
	int fd = -1;

	igt_fixture {
		fd = igt_qaic_open();
		ours = igt_qaic_driver_is_ours(fd);
	}

	igt_describe("Check that 4 KiB go to the device and back unchanged at several device addresses.");
	igt_subtest("round-trip-4k")
		test_round_trip_4k();

	igt_describe("Check that 1 MiB goes to the device and back unchanged as one slice.");
	igt_subtest("round-trip-1m")
		test_round_trip_1m();

	igt_describe("Check that a write and a read queued in one call run in order.");
	igt_subtest("round-trip-one-call")
		test_round_trip_one_call();

	igt_describe("Check that each slice of a multi-slice object moves its own bytes.");
	igt_subtest("round-trip-multi-slice")
		test_round_trip_multi_slice();

	igt_describe("Check that slices off page boundaries move exactly their bytes.");
	igt_subtest("round-trip-unaligned")
		test_round_trip_unaligned();

	igt_describe("Check that 1000 jobs over 8 objects run in the order they were queued.");
	igt_subtest("ordering")
		test_ordering();

	igt_describe("Check that two processes doing round trips on two DBCs at once get their own data.");
	igt_subtest("two-processes")
		test_two_processes();

	igt_describe("Check that 400 jobs on a ring of 4 are queued without blocking and all run.");
	igt_subtest("small-ring-overfill")
		test_small_ring_overfill();

	igt_describe("Check that a partial execute of 0 bytes moves nothing but runs semaphores and doorbell.");
	igt_subtest("partial-resize-zero")
		test_partial_resize_zero();

	igt_describe("Check that a partial execute of N bytes changes exactly N bytes on the device.");
	igt_subtest("partial-resize-n")
		test_partial_resize_n();

	igt_describe("Check that a partial execute from the device changes exactly N bytes of the object.");
	igt_subtest("partial-from-dev")
		test_partial_from_dev();

	igt_describe("Check that a partial execute cuts the right slice and still rings every doorbell.");
	igt_subtest("partial-multi-slice")
		test_partial_multi_slice();

	igt_describe("Check that PARTIAL_EXECUTE_BO refuses a resize beyond the object with EINVAL.");
	igt_subtest("partial-resize-too-large")
		test_partial_resize_too_large();

	for (unsigned int i = 0; i < ARRAY_SIZE(errors); i++) {
		igt_describe_f("Check that EXECUTE_BO %s.", errors[i].desc);
		igt_subtest_f("exec-%s", errors[i].name)
			errors[i].func(false);

		igt_describe_f("Check that PARTIAL_EXECUTE_BO %s.",
			       errors[i].desc);
		igt_subtest_f("partial-%s", errors[i].name)
			errors[i].func(true);
	}

	igt_fixture {
		igt_qaic_close(fd);
	}

	igt_qaic_dbcs_free_checks();
}
