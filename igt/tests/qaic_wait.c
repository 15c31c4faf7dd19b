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

/**
 * TEST: qaic wait
 * Category: Core
 * Description: WAIT_BO of the qaic accel driver: idle, busy, timeouts and errors.
 * Feature: qaic
 *
 * SUBTEST: idle-never-executed
 * Description: Check that WAIT_BO of an object never executed returns 0 at once.
 * Run type: BAT
 *
 * SUBTEST: after-completion
 * Description: Check that WAIT_BO returns 0 once the job is done and its data on the device.
 * Run type: BAT
 *
 * SUBTEST: waits-for-all-jobs
 * Description: Check that WAIT_BO waits for every job queued on the object.
 * Run type: FULL
 *
 * SUBTEST: busy-shortest
 * Description: Check that WAIT_BO with the shortest timeout (1 ms) on a busy object fails soon with ETIMEDOUT.
 * Run type: FULL
 *
 * SUBTEST: busy-default-timeout
 * Description: Check that WAIT_BO with timeout 0 waits wait_exec_default_timeout_ms, 5000 ms by default (as Linux 7.x and Qualcomm's runtime have it): past a stalled job's end, or a default set lower, then ETIMEDOUT; a default of 0 does not wait.
 * Run type: FULL
 *
 * SUBTEST: busy-timeout
 * Description: Check that WAIT_BO on a busy object fails with ETIMEDOUT after its timeout, not before.
 * Run type: FULL
 *
 * SUBTEST: busy-other-dbc
 * Description: Check that a stalled DBC does not hold up the jobs of another DBC.
 * Run type: FULL
 *
 * SUBTEST: cancelled
 * Description: Check that WAIT_BO reports a job cancelled by the reset of its DBC with ECANCELED.
 * Run type: FULL
 *
 * SUBTEST: device-error
 * Description: Check that WAIT_BO reports a job the device failed with EIO, for that object only, and not once the object is sliced again.
 * Run type: FULL
 *
 * SUBTEST: pad
 * Description: Check that WAIT_BO refuses a non-zero pad with EINVAL.
 * Run type: FULL
 *
 * SUBTEST: bad-dbc
 * Description: Check that WAIT_BO refuses a DBC id of 16 or more with EINVAL.
 * Run type: FULL
 *
 * SUBTEST: dbc-never-activated
 * Description: Check that WAIT_BO refuses a DBC the file never activated with EPERM.
 * Run type: FULL
 *
 * SUBTEST: dbc-other-file
 * Description: Check that WAIT_BO refuses the DBC of another file with EPERM.
 * Run type: FULL
 *
 * SUBTEST: dbc-deactivated
 * Description: Check that WAIT_BO refuses a DBC the file deactivated with EPERM.
 * Run type: FULL
 *
 * SUBTEST: bad-handle
 * Description: Check that WAIT_BO refuses an unknown handle with ENOENT.
 * Run type: FULL
 */

IGT_TEST_DESCRIPTION("WAIT_BO of the qaic accel driver: idle, busy, timeouts and errors.");

#define PAGE		4096ull
#define QUEUE_SIZE	64
#define DEV_ADDR	0x600000ull
/* Plenty for a job of a page, far less than the default job timeout */
#define QUICK_MS	10000

static void check_wait(int fd, uint32_t handle, uint32_t dbc,
		       uint32_t timeout, int err, const char *what)
{
	int ret = __igt_qaic_wait(fd, handle, dbc, timeout);

	igt_assert_f(ret == -err, "WAIT_BO %s: got %s, expected %s\n", what,
		     igt_qaic_err_name(-ret), igt_qaic_err_name(err));
}

static void test_idle_never_executed(void)
{
	struct igt_qaic_bo bo, sliced;
	uint64_t start;
	uint32_t dbc;
	int fd;

	fd = igt_qaic_open_dbc(QUEUE_SIZE, &dbc);
	igt_qaic_bo_create(fd, PAGE, &bo);
	igt_qaic_bo_create(fd, PAGE, &sliced);
	igt_qaic_attach_simple(fd, sliced.handle, dbc, IGT_QAIC_DIR_TO_DEV,
			       PAGE, DEV_ADDR);

	start = igt_qaic_now_ms();
	check_wait(fd, bo.handle, dbc, 0, 0, "unsliced, poll");
	check_wait(fd, bo.handle, dbc, QUICK_MS, 0, "unsliced");
	check_wait(fd, sliced.handle, dbc, 0, 0, "sliced, poll");
	check_wait(fd, sliced.handle, dbc, QUICK_MS, 0, "sliced");
	/* At once: nothing to wait for */
	igt_assert_f(igt_qaic_now_ms() - start < 1000,
		     "idle waits took %llu ms\n",
		     (unsigned long long)(igt_qaic_now_ms() - start));
	close(fd);
}

static void test_after_completion(void)
{
	struct igt_qaic_bo bo;
	uint8_t got[PAGE];
	uint32_t dbc;
	int fd;

	fd = igt_qaic_open_dbc(QUEUE_SIZE, &dbc);
	igt_qaic_bo_create(fd, PAGE, &bo);
	igt_qaic_attach_simple(fd, bo.handle, dbc, IGT_QAIC_DIR_TO_DEV, PAGE,
			       DEV_ADDR);
	for (int i = 0; i < 10; i++) {
		igt_qaic_fill_pattern(bo.ptr, PAGE, i);
		igt_qaic_execute_bo(fd, dbc, bo.handle, IGT_QAIC_DIR_TO_DEV);
		check_wait(fd, bo.handle, dbc, QUICK_MS, 0, "after execute");
		/* Done means done: the device has the bytes */
		igt_qaic_read_dev(fd, dbc, DEV_ADDR, got, PAGE);
		igt_qaic_assert_bytes(got, bo.ptr, PAGE, "after the wait");
		/* Idle and successful stays so */
		check_wait(fd, bo.handle, dbc, 0, 0, "poll after completion");
		check_wait(fd, bo.handle, dbc, 1, 0, "again after completion");
	}
	close(fd);
}

/*
 * Three jobs queued on one object are all waited for: the last one reads
 * what the first two wrote.
 */
static void test_waits_for_all_jobs(void)
{
	struct qaic_attach_slice_entry e;
	struct igt_qaic_bo w, r;
	uint32_t dbc;
	int fd;

	fd = igt_qaic_open_dbc(QUEUE_SIZE, &dbc);
	igt_qaic_bo_create(fd, PAGE, &w);
	igt_qaic_bo_create(fd, PAGE, &r);
	igt_qaic_fill_pattern(w.ptr, PAGE, 3);
	memset(r.ptr, 0, PAGE);

	igt_qaic_slice_init(&e, 0, PAGE, DEV_ADDR);
	e.sem0 = igt_qaic_sem(QAIC_SEM_INC, 4, 0, false);
	igt_qaic_attach_slice(fd, w.handle, dbc, IGT_QAIC_DIR_TO_DEV, &e, 1);
	igt_qaic_slice_init(&e, 0, PAGE, DEV_ADDR);
	e.sem0 = igt_qaic_sem(QAIC_SEM_WAIT_EQUAL, 4, 3, true);
	igt_qaic_attach_slice(fd, r.handle, dbc, IGT_QAIC_DIR_FROM_DEV, &e, 1);

	for (int i = 0; i < 3; i++)
		igt_qaic_execute_bo(fd, dbc, w.handle, IGT_QAIC_DIR_TO_DEV);
	igt_qaic_execute_bo(fd, dbc, r.handle, IGT_QAIC_DIR_FROM_DEV);
	check_wait(fd, r.handle, dbc, QUICK_MS, 0, "reader");
	check_wait(fd, w.handle, dbc, 0, 0, "writer, after the reader");
	igt_qaic_assert_bytes(r.ptr, w.ptr, PAGE, "read behind three writes");
	close(fd);
}

/*
 * A job waiting on a semaphore nothing sets: busy until the job timeout.
 * The emulated card runs a channel's requests in order and has no
 * workload, so no later job can release it; the driver's reset does.
 */
struct stalled {
	int fd;
	uint32_t dbc;
	struct igt_qaic_bo stall;
	uint64_t start;
};

static void stall_start(struct stalled *s)
{
	s->fd = igt_qaic_open_dbc(QUEUE_SIZE, &s->dbc);
	igt_qaic_stall_bo(s->fd, s->dbc, 30, &s->stall);
	s->start = igt_qaic_now_ms();
	igt_qaic_execute_bo(s->fd, s->dbc, s->stall.handle,
			    IGT_QAIC_DIR_TO_DEV);
}

/* The job timeout ends the stall with EIO; the DBC works afterwards */
static void stall_end(struct stalled *s)
{
	check_wait(s->fd, s->stall.handle, s->dbc,
		   2 * igt_qaic_job_timeout_ms() + 5000, EIO,
		   "stalled job, to its end");
	igt_info("stalled job failed after %llu ms (job_timeout_ms %u)\n",
		 (unsigned long long)(igt_qaic_now_ms() - s->start),
		 igt_qaic_job_timeout_ms());
	igt_qaic_round_trip(s->fd, s->dbc, DEV_ADDR, PAGE, 9);
	close(s->fd);
}

/* The shortest wait on a busy object: ETIMEDOUT, and soon */
static void test_busy_shortest(void)
{
	struct stalled s;
	uint64_t start;

	stall_start(&s);
	start = igt_qaic_now_ms();
	for (int i = 0; i < 10; i++)
		check_wait(s.fd, s.stall.handle, s.dbc, IGT_QAIC_WAIT_LOOK_MS, ETIMEDOUT,
			   "shortest wait on a busy object");
	igt_assert_f(igt_qaic_now_ms() - start < 1000,
		     "ten waits of %u ms took %llu ms\n", IGT_QAIC_WAIT_LOOK_MS,
		     (unsigned long long)(igt_qaic_now_ms() - start));
	stall_end(&s);
}

#define WAIT_DEFAULT_PARAM	"/sys/module/qaic/parameters/wait_exec_default_timeout_ms"
/* Linux 7.x's default, which Qualcomm's open runtime counts on */
#define WAIT_DEFAULT_MS		5000

/*
 * Timeout 0 is the kernel's choice: wait_exec_default_timeout_ms, 5000 by
 * default, longer than the job timeout, so a wait with 0 on a stalled job
 * sees it end (EIO) instead of ETIMEDOUT. A default set lower is waited
 * for, then ETIMEDOUT; a default of 0 looks without waiting.
 */
static void test_busy_default_timeout(void)
{
	const uint32_t ms = 250;	/* written below */
	uint64_t start, took;
	struct stalled s;
	char buf[16];
	FILE *f;

	f = fopen(WAIT_DEFAULT_PARAM, "r");
	igt_require_f(f, "no wait_exec_default_timeout_ms parameter\n");
	igt_assert(fgets(buf, sizeof(buf), f));
	fclose(f);
	igt_assert_eq(atoi(buf), WAIT_DEFAULT_MS);
	igt_require_f(igt_qaic_job_timeout_ms() < WAIT_DEFAULT_MS,
		      "job_timeout_ms %u: a stall outlasts the default wait\n",
		      igt_qaic_job_timeout_ms());

	stall_start(&s);
	check_wait(s.fd, s.stall.handle, s.dbc, 0, EIO, "stalled job, default timeout");
	took = igt_qaic_now_ms() - s.start;
	igt_info("timeout 0: the stalled job failed after %llu ms\n",
		 (unsigned long long)took);
	igt_assert_f(took + 5 >= igt_qaic_job_timeout_ms(),
		     "returned after %llu ms, before the job timeout\n",
		     (unsigned long long)took);
	igt_qaic_round_trip(s.fd, s.dbc, DEV_ADDR, PAGE, 9);
	close(s.fd);

	stall_start(&s);
	igt_qaic_param_set("wait_exec_default_timeout_ms", "250");
	start = igt_qaic_now_ms();
	check_wait(s.fd, s.stall.handle, s.dbc, 0, ETIMEDOUT, "busy object, default 250 ms");
	took = igt_qaic_now_ms() - start;
	igt_info("timeout 0, default %u ms: returned after %llu ms\n", ms,
		 (unsigned long long)took);
	igt_assert_f(took + 5 >= ms, "returned after %llu ms, the default is %u ms\n",
		     (unsigned long long)took, ms);
	igt_qaic_param_set("wait_exec_default_timeout_ms", "0");
	start = igt_qaic_now_ms();
	check_wait(s.fd, s.stall.handle, s.dbc, 0, ETIMEDOUT, "busy object, default 0");
	igt_assert_f(igt_qaic_now_ms() - start < ms, "a default of 0 waited %llu ms\n",
		     (unsigned long long)(igt_qaic_now_ms() - start));
	igt_qaic_param_restore();
	stall_end(&s);
}

static void test_busy_timeout(void)
{
	static const uint32_t timeouts[] = { 1, 100, 250 };
	struct stalled s;

	stall_start(&s);
	for (unsigned int i = 0; i < ARRAY_SIZE(timeouts); i++) {
		uint64_t start = igt_qaic_now_ms(), took;

		check_wait(s.fd, s.stall.handle, s.dbc, timeouts[i], ETIMEDOUT,
			   "busy object, with a timeout");
		took = igt_qaic_now_ms() - start;
		igt_info("timeout %u ms: returned after %llu ms\n",
			 timeouts[i], (unsigned long long)took);
		/* Not early; late only within reason (a jiffy of rounding) */
		igt_assert_f(took + 5 >= timeouts[i],
			     "timeout %u ms: returned after %llu ms\n",
			     timeouts[i], (unsigned long long)took);
	}
	igt_assert_f(igt_qaic_now_ms() - s.start < igt_qaic_job_timeout_ms(),
		     "the timeouts outlasted the job timeout: test not valid\n");
	stall_end(&s);
}

/* A stalled DBC holds up nothing on another DBC of the same file */
static void test_busy_other_dbc(void)
{
	struct stalled s;
	uint32_t dbc2;

	stall_start(&s);
	dbc2 = igt_qaic_activate(s.fd, QUEUE_SIZE);
	igt_qaic_round_trip(s.fd, dbc2, DEV_ADDR + PAGE, PAGE, 10);
	check_wait(s.fd, s.stall.handle, s.dbc, IGT_QAIC_WAIT_LOOK_MS, ETIMEDOUT,
		   "stalled object after a round trip on another DBC");
	stall_end(&s);
}

/*
 * A job queued behind a stalled one is cancelled when the DBC is reset for
 * the stall: ECANCELED, not EIO, and only once the stall ends.
 */
static void test_cancelled(void)
{
	struct igt_qaic_bo behind;
	struct stalled s;

	stall_start(&s);
	igt_qaic_bo_create(s.fd, PAGE, &behind);
	igt_qaic_attach_simple(s.fd, behind.handle, s.dbc, IGT_QAIC_DIR_TO_DEV,
			       PAGE, DEV_ADDR);
	igt_qaic_execute_bo(s.fd, s.dbc, behind.handle, IGT_QAIC_DIR_TO_DEV);
	check_wait(s.fd, behind.handle, s.dbc, IGT_QAIC_WAIT_LOOK_MS, ETIMEDOUT,
		   "job behind a stalled one, shortest wait");

	check_wait(s.fd, s.stall.handle, s.dbc,
		   2 * igt_qaic_job_timeout_ms() + 5000, EIO, "stalled job");
	check_wait(s.fd, behind.handle, s.dbc, QUICK_MS, ECANCELED,
		   "job behind the stalled one");
	check_wait(s.fd, behind.handle, s.dbc, 0, ECANCELED,
		   "job behind the stalled one, again");

	/* Its next job succeeds, and so does the wait */
	igt_qaic_execute_bo(s.fd, s.dbc, behind.handle, IGT_QAIC_DIR_TO_DEV);
	check_wait(s.fd, behind.handle, s.dbc, QUICK_MS, 0,
		   "job after the cancelled one");
	igt_qaic_round_trip(s.fd, s.dbc, DEV_ADDR, PAGE, 12);
	close(s.fd);
}

/* The last job of the object failed on the device: EIO, for it only */
static void test_device_error(void)
{
	static const uint64_t addrs[] = {
		IGT_QAIC_DEV_MEM_SIZE - PAGE / 2,	/* crosses the end */
		IGT_QAIC_DEV_MEM_SIZE,			/* just past it */
		1ull << 40,
	};
	struct igt_qaic_bo bad, good;
	uint32_t dbc;
	int fd;

	fd = igt_qaic_open_dbc(QUEUE_SIZE, &dbc);
	igt_qaic_bo_create(fd, PAGE, &good);
	igt_qaic_attach_simple(fd, good.handle, dbc, IGT_QAIC_DIR_TO_DEV, PAGE,
			       DEV_ADDR);
	for (unsigned int i = 0; i < ARRAY_SIZE(addrs); i++) {
		for (uint32_t dir = IGT_QAIC_DIR_TO_DEV;
		     dir <= IGT_QAIC_DIR_FROM_DEV; dir++) {
			igt_info("%u bytes at %#llx, dir %u\n", (unsigned int)PAGE,
				 (unsigned long long)addrs[i], dir);
			igt_qaic_bo_create(fd, PAGE, &bad);
			igt_qaic_attach_simple(fd, bad.handle, dbc, dir, PAGE,
					       addrs[i]);
			igt_qaic_execute_bo(fd, dbc, bad.handle, dir);
			igt_qaic_execute_bo(fd, dbc, good.handle,
					    IGT_QAIC_DIR_TO_DEV);
			check_wait(fd, bad.handle, dbc, QUICK_MS, EIO,
				   "job beyond device memory");
			/* It stays failed, and the next job is fine */
			check_wait(fd, bad.handle, dbc, 0, EIO,
				   "job beyond device memory, again");
			check_wait(fd, good.handle, dbc, QUICK_MS, 0,
				   "job behind the failed one");

			/* Sliced right, it succeeds again */
			igt_qaic_detach_slice(fd, bad.handle);
			igt_qaic_attach_simple(fd, bad.handle, dbc, dir, PAGE,
					       DEV_ADDR);
			/* The new slicing has not failed (ours: upstream waits for an execute) */
			if (igt_qaic_driver_is_ours(fd))
				check_wait(fd, bad.handle, dbc, 0, 0,
					   "sliced again, not executed yet");
			igt_qaic_execute_bo(fd, dbc, bad.handle, dir);
			check_wait(fd, bad.handle, dbc, QUICK_MS, 0,
				   "job after the failed one, sliced right");
			igt_qaic_detach_slice(fd, bad.handle);
			igt_qaic_bo_destroy(fd, &bad);
		}
	}
	igt_qaic_round_trip(fd, dbc, DEV_ADDR, PAGE, 11);
	close(fd);
}

static void test_pad(void)
{
	struct igt_qaic_bo bo;
	struct qaic_wait args = { };
	uint32_t dbc;
	int fd;

	fd = igt_qaic_open_dbc(QUEUE_SIZE, &dbc);
	igt_qaic_bo_create(fd, PAGE, &bo);
	args.handle = bo.handle;
	args.dbc_id = dbc;
	args.pad = 1;
	do_ioctl_err(fd, DRM_IOCTL_QAIC_WAIT_BO, &args, EINVAL);
	args.pad = 0x80000000u;
	do_ioctl_err(fd, DRM_IOCTL_QAIC_WAIT_BO, &args, EINVAL);
	/* Before the DBC and the handle */
	args.dbc_id = IGT_QAIC_NUM_DBC;
	args.handle = 0xdeadbeef;
	do_ioctl_err(fd, DRM_IOCTL_QAIC_WAIT_BO, &args, EINVAL);
	args.pad = 0;
	args.dbc_id = dbc;
	args.handle = bo.handle;
	do_ioctl(fd, DRM_IOCTL_QAIC_WAIT_BO, &args);
	close(fd);
}

static void test_bad_dbc(void)
{
	static const uint32_t ids[] = { IGT_QAIC_NUM_DBC, 17, 0x100,
					UINT32_MAX };
	struct igt_qaic_bo bo;
	uint32_t dbc;
	int fd;

	fd = igt_qaic_open_dbc(QUEUE_SIZE, &dbc);
	igt_qaic_bo_create(fd, PAGE, &bo);
	for (unsigned int i = 0; i < ARRAY_SIZE(ids); i++) {
		check_wait(fd, bo.handle, ids[i], 0, EINVAL, "DBC >= 16");
		/* Before the handle */
		check_wait(fd, 0xdeadbeef, ids[i], 0, EINVAL,
			   "DBC >= 16, unknown handle");
	}
	close(fd);
}

/* A wait on @dbc, which @fd does not own: EPERM */
static void check_eperm(int fd, uint32_t handle, uint32_t dbc,
			const char *what)
{
	char buf[96];

	snprintf(buf, sizeof(buf), "%s DBC %u", what, dbc);
	check_wait(fd, handle, dbc, 0, EPERM, buf);
	snprintf(buf, sizeof(buf), "%s DBC %u, unknown handle", what, dbc);
	check_wait(fd, 0xdeadbeef, dbc, 0, EPERM, buf);
}

static void test_dbc_never_activated(void)
{
	struct igt_qaic_bo bo;
	uint32_t dbc;
	int fd;

	fd = igt_qaic_open_dbc(QUEUE_SIZE, &dbc);
	igt_qaic_bo_create(fd, PAGE, &bo);
	check_eperm(fd, bo.handle, (dbc + 1) % IGT_QAIC_NUM_DBC,
		    "never activated");
	close(fd);
}

static void test_dbc_other_file(void)
{
	struct igt_qaic_bo bo;
	uint32_t dbc, dbc2;
	int fd, fd2;

	fd = igt_qaic_open_dbc(QUEUE_SIZE, &dbc);
	fd2 = igt_qaic_open_dbc(QUEUE_SIZE, &dbc2);
	igt_qaic_bo_create(fd, PAGE, &bo);
	check_eperm(fd, bo.handle, dbc2, "other file's");
	close(fd2);
	close(fd);
}

static void test_dbc_deactivated(void)
{
	struct igt_qaic_bo bo;
	uint32_t dbc, dbc2;
	int fd;

	fd = igt_qaic_open_dbc(QUEUE_SIZE, &dbc);
	dbc2 = igt_qaic_activate(fd, QUEUE_SIZE);
	igt_qaic_bo_create(fd, PAGE, &bo);
	igt_qaic_attach_simple(fd, bo.handle, dbc2, IGT_QAIC_DIR_TO_DEV, PAGE,
			       DEV_ADDR);
	igt_qaic_execute_bo(fd, dbc2, bo.handle, IGT_QAIC_DIR_TO_DEV);
	check_wait(fd, bo.handle, dbc2, QUICK_MS, 0, "on dbc2 while ours");
	igt_qaic_deactivate(fd, dbc2);
	check_eperm(fd, bo.handle, dbc2, "deactivated");
	close(fd);
}

static void test_bad_handle(void)
{
	uint32_t dbc, handle;
	int fd;

	fd = igt_qaic_open_dbc(QUEUE_SIZE, &dbc);
	check_wait(fd, 0xdeadbeef, dbc, 0, ENOENT, "unknown handle");
	check_wait(fd, 0, dbc, 0, ENOENT, "handle 0");
	check_wait(fd, 0xdeadbeef, dbc, 100, ENOENT,
		   "unknown handle, with a timeout");

	/* Closed after its job completed */
	handle = igt_qaic_create_bo(fd, PAGE);
	igt_qaic_attach_simple(fd, handle, dbc, IGT_QAIC_DIR_TO_DEV, PAGE,
			       DEV_ADDR);
	igt_qaic_execute_bo(fd, dbc, handle, IGT_QAIC_DIR_TO_DEV);
	igt_qaic_wait(fd, handle, dbc, QUICK_MS);
	gem_close(fd, handle);
	check_wait(fd, handle, dbc, 0, ENOENT, "closed handle");
	close(fd);
}

igt_main
{
	const char *no_timeout = "no job timeout: a stalled job is never ended";
	bool job_timeout = false;
	int fd = -1;

	igt_fixture {
		fd = igt_qaic_open();
		job_timeout = !access("/sys/module/qaic/parameters/job_timeout_ms", F_OK);
	}

	igt_describe("Check that WAIT_BO of an object never executed returns 0 at once.");
	igt_subtest("idle-never-executed")
		test_idle_never_executed();

	igt_describe("Check that WAIT_BO returns 0 once the job is done and its data on the device.");
	igt_subtest("after-completion")
		test_after_completion();

	igt_describe("Check that WAIT_BO waits for every job queued on the object.");
	igt_subtest("waits-for-all-jobs") {
		igt_qaic_require_ours(fd, false, "an object still queued is refused (EINVAL)");
		test_waits_for_all_jobs();
	}

	igt_describe("Check that WAIT_BO with the shortest timeout on a busy object fails soon with ETIMEDOUT.");
	igt_subtest("busy-shortest") {
		igt_qaic_require_ours(fd, job_timeout, no_timeout);
		test_busy_shortest();
	}

	igt_describe("Check that WAIT_BO with timeout 0 waits wait_exec_default_timeout_ms, 5000 ms by default.");
	igt_subtest("busy-default-timeout") {
		igt_qaic_require_ours(fd, job_timeout, no_timeout);
		test_busy_default_timeout();
	}

	igt_describe("Check that WAIT_BO on a busy object fails with ETIMEDOUT after its timeout, not before.");
	igt_subtest("busy-timeout") {
		igt_qaic_require_ours(fd, job_timeout, no_timeout);
		test_busy_timeout();
	}

	igt_describe("Check that a stalled DBC does not hold up the jobs of another DBC.");
	igt_subtest("busy-other-dbc") {
		igt_qaic_require_ours(fd, job_timeout, no_timeout);
		test_busy_other_dbc();
	}

	igt_describe("Check that WAIT_BO reports a job cancelled by the reset of its DBC with ECANCELED.");
	igt_subtest("cancelled") {
		igt_qaic_require_ours(fd, job_timeout, no_timeout);
		test_cancelled();
	}

	igt_describe("Check that WAIT_BO reports a job the device failed with EIO, for that object only, and not once the object is sliced again.");
	igt_subtest("device-error") {
		igt_qaic_require_ours(fd, false, "a job the device failed is not reported");
		test_device_error();
	}

	igt_describe("Check that WAIT_BO refuses a non-zero pad with EINVAL.");
	igt_subtest("pad")
		test_pad();

	igt_describe("Check that WAIT_BO refuses a DBC id of 16 or more with EINVAL.");
	igt_subtest("bad-dbc")
		test_bad_dbc();

	igt_describe("Check that WAIT_BO refuses a DBC the file never activated with EPERM.");
	igt_subtest("dbc-never-activated")
		test_dbc_never_activated();

	igt_describe("Check that WAIT_BO refuses the DBC of another file with EPERM.");
	igt_subtest("dbc-other-file")
		test_dbc_other_file();

	igt_describe("Check that WAIT_BO refuses a DBC the file deactivated with EPERM.");
	igt_subtest("dbc-deactivated")
		test_dbc_deactivated();

	igt_describe("Check that WAIT_BO refuses an unknown handle with ENOENT.");
	igt_subtest("bad-handle")
		test_bad_handle();

	igt_fixture {
		close(fd);
	}
}
