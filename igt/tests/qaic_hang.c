// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The qaic authors.
 */

#include <errno.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "igt_qaic.h"

/**
 * TEST: qaic hang
 * Category: Core
 * Description: Hung DMA Bridge Channels: job timeout, reset, cancellation, recovery.
 * Feature: qaic
 *
 * SUBTEST: hang-eio
 * Description: Check that a hung job fails with EIO after the job timeout, that another DBC works meanwhile, and that the hung DBC works again afterwards.
 * Run type: BAT
 *
 * SUBTEST: hang-queued
 * Description: Check that the jobs on the ring behind a hung one are cancelled with it, not each after a timeout.
 * Run type: FULL
 *
 * SUBTEST: hang-queued-beyond-ring
 * Description: Check that, behind a hung job, the jobs on the ring are cancelled and those still waiting for room run once the DBC is reset.
 * Run type: FULL
 *
 * SUBTEST: hang-other-process
 * Description: Check that another process's DBC works while one DBC hangs.
 * Run type: FULL
 *
 * SUBTEST: semaphore-stall
 * Description: Check that a DBC stalled on a semaphore is reset after the job timeout and works again.
 * Run type: FULL
 *
 * SUBTEST: close-handle-while-hung
 * Description: Check that closing the handle of a hung object is safe and the DBC recovers.
 * Run type: FULL
 *
 * SUBTEST: close-while-hung
 * Description: Check that closing a file with a hung job leaves every DBC usable.
 * Run type: FULL
 *
 * SUBTEST: lost-responses
 * Description: Check that jobs whose responses the device loses fail with EIO, and the others complete.
 * Run type: FULL
 *
 * SUBTEST: corrupt-responses
 * Description: Check that a response with an error status fails its job with EIO and the DBC goes on.
 * Run type: FULL
 *
 * SUBTEST: reset-with-lying-head
 * Description: Check that resetting a DBC whose REQHP reads behind the truth runs none of the ring's old requests again.
 * Run type: FULL
 *
 * SUBTEST: late-transfer-after-reset
 * Description: Check that a request the card fetched before the driver reset its DBC, and carries out after the reset, writes into the hung object's own pages even when the user closed it, never into memory given to others.
 * Run type: FULL
 *
 * SUBTEST: late-transfer-at-crash
 * Description: Check that a request a crashed card still carries out before its reset reaches only memory the driver kept for it, and that the card and every DBC work afterwards.
 * Run type: FULL
 */

IGT_TEST_DESCRIPTION("Hung DMA Bridge Channels: job timeout, reset, cancellation, recovery.");

#define PAGE		4096ull
#define QUEUE_SIZE	16
#define DEV_ADDR	0xc00000ull

/* Counters of @dbc, or false from an emulator that has none */
static bool counters(int fd, uint32_t dbc, struct igt_qaic_emu_counters *c)
{
	return __igt_qaic_emu_dbc_counters(fd, dbc, c) == 0;
}

struct hang {
	int fd;
	uint32_t dbc;
	uint32_t timeout_ms;
	struct igt_qaic_bo bo;
	struct igt_qaic_emu_counters before;
	bool have_counters;
};

/* A DBC with its one-shot hang armed, and an object to run into it */
static void hang_setup(struct hang *h)
{
	h->fd = igt_qaic_open_dbc(QUEUE_SIZE, &h->dbc);
	h->timeout_ms = igt_qaic_job_timeout_ms();
	igt_qaic_bo_create(h->fd, PAGE, &h->bo);
	igt_qaic_fill_pattern(h->bo.ptr, PAGE, 1);
	igt_qaic_attach_simple(h->fd, h->bo.handle, h->dbc,
			       IGT_QAIC_DIR_TO_DEV, PAGE, DEV_ADDR);
	h->have_counters = counters(h->fd, h->dbc, &h->before);
	igt_qaic_emu_hang_dbc(h->fd, h->dbc);
}

/*
 * Waits for the hung job: EIO once the job timeout passed, well before
 * the wait's own timeout of 10 s (or twice the job timeout if longer).
 * Returns how long the job took from @start.
 */
static uint64_t wait_hung(struct hang *h, uint64_t start)
{
	uint32_t wait_ms = h->timeout_ms * 2 > 10000 ? h->timeout_ms * 2 : 10000;
	uint64_t took;
	int ret;

	ret = __igt_qaic_wait(h->fd, h->bo.handle, h->dbc, wait_ms);
	took = igt_qaic_now_ms() - start;
	igt_info("hung job: %s after %llu ms (job_timeout_ms %u)\n",
		 igt_qaic_err_name(-ret), (unsigned long long)took, h->timeout_ms);
	igt_assert_f(ret == -EIO, "wait of the hung job: got %s, expected %s\n",
		     igt_qaic_err_name(-ret), strerror(EIO));
	/* Not given up on before its time */
	igt_assert_f(took >= h->timeout_ms / 2,
		     "hung job failed after %llu ms, job timeout %u ms\n",
		     (unsigned long long)took, h->timeout_ms);

	return took;
}

/* The DBC was reset once, and works again */
static void check_recovered(struct hang *h)
{
	struct igt_qaic_emu_counters after;

	if (h->have_counters) {
		igt_assert(counters(h->fd, h->dbc, &after));
		igt_info("DBC %u: %llu reset(s)\n", h->dbc,
			 (unsigned long long)(after.resets - h->before.resets));
		igt_assert_eq_u64(after.resets - h->before.resets, 1);
	}
	for (int i = 0; i < 3; i++)
		igt_qaic_round_trip(h->fd, h->dbc, DEV_ADDR + PAGE, PAGE, 10 + i);
	/* And the object that hung runs fine now */
	igt_qaic_execute_bo(h->fd, h->dbc, h->bo.handle, IGT_QAIC_DIR_TO_DEV);
	igt_qaic_wait(h->fd, h->bo.handle, h->dbc, 10000);
}

/*
 * The hung job fails with EIO after the job timeout; meanwhile another
 * DBC of the same file works, and is not reset; afterwards the hung DBC
 * works again.
 */
static void test_hang_eio(void)
{
	struct igt_qaic_emu_counters b_before, b_after;
	uint64_t start;
	bool b_counters;
	struct hang h;
	uint32_t b;

	hang_setup(&h);
	b = igt_qaic_activate(h.fd, QUEUE_SIZE);
	b_counters = counters(h.fd, b, &b_before);

	start = igt_qaic_now_ms();
	igt_qaic_execute_bo(h.fd, h.dbc, h.bo.handle, IGT_QAIC_DIR_TO_DEV);
	igt_assert_eq(__igt_qaic_wait(h.fd, h.bo.handle, h.dbc, IGT_QAIC_WAIT_LOOK_MS),
		      -ETIMEDOUT);

	/* Meanwhile, on DBC B */
	for (int i = 0; i < 5; i++)
		igt_qaic_round_trip(h.fd, b, DEV_ADDR + 2 * PAGE, PAGE, 20 + i);
	igt_assert_f(igt_qaic_now_ms() - start < h.timeout_ms,
		     "round trips on DBC B outlasted the job timeout\n");
	igt_assert_eq(__igt_qaic_wait(h.fd, h.bo.handle, h.dbc, IGT_QAIC_WAIT_LOOK_MS),
		      -ETIMEDOUT);

	wait_hung(&h, start);
	check_recovered(&h);

	/* B never noticed */
	igt_qaic_round_trip(h.fd, b, DEV_ADDR + 2 * PAGE, PAGE, 30);
	if (b_counters) {
		igt_assert(counters(h.fd, b, &b_after));
		igt_assert_eq_u64(b_after.resets - b_before.resets, 0);
		igt_assert_eq_u64(b_after.errors - b_before.errors, 0);
	}
	igt_qaic_close(h.fd);
}

/*
 * Jobs queued behind the hung one, @singles in calls of their own, then
 * @batch in one call: the hung one fails with EIO, and none of the others
 * waits for a job timeout of its own. A ring of QUEUE_SIZE takes
 * QUEUE_SIZE - 1 one-page jobs: the QUEUE_SIZE - 2 behind the hung one are
 * on the ring and are cancelled with it; the others wait in the driver for
 * room, never reached the device, and run once the DBC is reset.
 */
#define MAX_QUEUED	32

static void test_hang_queued(int singles, int batch)
{
	struct qaic_execute_entry entries[MAX_QUEUED];
	struct igt_qaic_bo bo[MAX_QUEUED];
	int cancelled = 0, failed = 0, n = singles + batch;
	uint64_t start, took;
	struct hang h;

	igt_assert(n <= MAX_QUEUED);
	hang_setup(&h);
	for (int i = 0; i < n; i++) {
		igt_qaic_bo_create(h.fd, PAGE, &bo[i]);
		igt_qaic_attach_simple(h.fd, bo[i].handle, h.dbc,
				       IGT_QAIC_DIR_TO_DEV, PAGE,
				       DEV_ADDR + (i + 1) * PAGE);
		entries[i].handle = bo[i].handle;
		entries[i].dir = IGT_QAIC_DIR_TO_DEV;
	}

	start = igt_qaic_now_ms();
	igt_qaic_execute_bo(h.fd, h.dbc, h.bo.handle, IGT_QAIC_DIR_TO_DEV);
	for (int i = 0; i < singles; i++)
		igt_qaic_execute(h.fd, h.dbc, &entries[i], 1);
	igt_qaic_execute(h.fd, h.dbc, &entries[singles], batch);
	/* Queued on a stuck ring without blocking */
	igt_assert_f(igt_qaic_now_ms() - start < h.timeout_ms / 2,
		     "queueing behind a hung job took %llu ms\n",
		     (unsigned long long)(igt_qaic_now_ms() - start));

	wait_hung(&h, start);
	for (int i = 0; i < n; i++) {
		int ret = __igt_qaic_wait(h.fd, bo[i].handle, h.dbc, 10000);

		int want = i < QUEUE_SIZE - 2 ? -ECANCELED : 0;

		igt_assert_f(ret == want,
			     "job %d of %d behind the hung one (ring of %d): got %s, want %s\n",
			     i + 1, n, QUEUE_SIZE, igt_qaic_err_name(-ret), igt_qaic_err_name(-want));
		cancelled += ret == -ECANCELED;
		failed += ret == -EIO;
	}
	took = igt_qaic_now_ms() - start;
	igt_info("behind the hung job: %d cancelled, %d failed, all done after %llu ms\n",
		 cancelled, failed, (unsigned long long)took);
	/* One job timeout for the lot, not one each */
	igt_assert_f(took < 3ull * h.timeout_ms + 2000,
		     "the queued jobs took %llu ms to end\n",
		     (unsigned long long)took);

	check_recovered(&h);
	/* The cancelled objects run again too */
	igt_qaic_execute(h.fd, h.dbc, entries, n);
	for (int i = 0; i < n; i++)
		igt_qaic_wait(h.fd, entries[i].handle, h.dbc, 10000);
	igt_qaic_close(h.fd);
}

/*
 * The device loses every second response. A job whose response is lost
 * but is followed by another's is retired by that one (the ring runs in
 * order); the last one is failed by the timeout handler, which sees every
 * request consumed. Both fail with EIO; the others succeed.
 */
static void test_lost_responses(void)
{
	struct qaic_execute_entry entries[4];
	struct igt_qaic_bo bo[4];
	uint32_t dbc, timeout_ms;
	int ret[4];
	int fd;

	fd = igt_qaic_open_dbc(QUEUE_SIZE, &dbc);
	timeout_ms = igt_qaic_job_timeout_ms();
	igt_qaic_emu_dbc_faults(fd, dbc, 2, 0, 0);
	for (int i = 0; i < 4; i++) {
		igt_qaic_bo_create(fd, PAGE, &bo[i]);
		igt_qaic_attach_simple(fd, bo[i].handle, dbc, IGT_QAIC_DIR_TO_DEV,
				       PAGE, DEV_ADDR + i * PAGE);
		entries[i].handle = bo[i].handle;
		entries[i].dir = IGT_QAIC_DIR_TO_DEV;
	}
	igt_qaic_execute(fd, dbc, entries, 4);
	for (int i = 0; i < 4; i++)
		ret[i] = __igt_qaic_wait(fd, bo[i].handle, dbc, 4 * timeout_ms + 5000);
	igt_info("lost responses: jobs ended %s, %s, %s, %s\n", igt_qaic_err_name(-ret[0]),
		 igt_qaic_err_name(-ret[1]), igt_qaic_err_name(-ret[2]), igt_qaic_err_name(-ret[3]));
	igt_assert_eq(ret[0], 0);
	igt_assert_eq(ret[1], -EIO);
	igt_assert_eq(ret[2], 0);
	igt_assert_eq(ret[3], -EIO);

	igt_qaic_emu_dbc_faults(fd, dbc, 0, 0, 0);
	igt_qaic_round_trip(fd, dbc, DEV_ADDR + 8 * PAGE, PAGE, 40);
	igt_qaic_close(fd);
}

/* Responses with an error status fail their jobs; the DBC is not reset */
static void test_corrupt_responses(void)
{
	struct igt_qaic_emu_counters before, after;
	struct igt_qaic_bo bo;
	bool have_counters;
	uint32_t dbc;
	int fd;

	fd = igt_qaic_open_dbc(QUEUE_SIZE, &dbc);
	igt_qaic_bo_create(fd, PAGE, &bo);
	igt_qaic_attach_simple(fd, bo.handle, dbc, IGT_QAIC_DIR_TO_DEV, PAGE, DEV_ADDR);
	have_counters = counters(fd, dbc, &before);
	igt_qaic_emu_dbc_faults(fd, dbc, 0, 1, 0xbad);
	for (int i = 0; i < 3; i++) {
		igt_qaic_execute_bo(fd, dbc, bo.handle, IGT_QAIC_DIR_TO_DEV);
		igt_assert_eq(__igt_qaic_wait(fd, bo.handle, dbc, 10000), -EIO);
	}
	igt_qaic_emu_dbc_faults(fd, dbc, 0, 0, 0);
	igt_qaic_execute_bo(fd, dbc, bo.handle, IGT_QAIC_DIR_TO_DEV);
	igt_assert_eq(__igt_qaic_wait(fd, bo.handle, dbc, 10000), 0);
	igt_qaic_round_trip(fd, dbc, DEV_ADDR + 8 * PAGE, PAGE, 41);
	if (have_counters) {
		igt_assert(counters(fd, dbc, &after));
		igt_assert_eq_u64(after.resets - before.resets, 0);
	}
	igt_qaic_close(fd);
}

/*
 * The device loses a response and reads REQHP one entry behind the truth,
 * so the job times out and the DBC is reset to a head the device already
 * passed. Had the old requests stayed on the ring, the device would take
 * REQTP as a full ring ahead and run them again: the earlier from-device
 * request would overwrite its object, whose sentinel is checked here.
 */
static void test_reset_with_lying_head(void)
{
	struct igt_qaic_dbc_faults faults = { .drop_every = 1, .reqhp_lag = 1 };
	const struct igt_qaic_dbc_faults none = { };
	struct igt_qaic_bo src, dst, stuck;
	uint32_t dbc, timeout_ms;
	int fd, ret;

	fd = igt_qaic_open_dbc(QUEUE_SIZE, &dbc);
	timeout_ms = igt_qaic_job_timeout_ms();
	igt_qaic_bo_create(fd, PAGE, &src);
	igt_qaic_bo_create(fd, PAGE, &dst);
	igt_qaic_bo_create(fd, PAGE, &stuck);
	igt_qaic_fill_pattern(src.ptr, PAGE, 51);
	igt_qaic_attach_simple(fd, src.handle, dbc, IGT_QAIC_DIR_TO_DEV, PAGE, DEV_ADDR);
	igt_qaic_attach_simple(fd, dst.handle, dbc, IGT_QAIC_DIR_FROM_DEV, PAGE, DEV_ADDR);
	igt_qaic_attach_simple(fd, stuck.handle, dbc, IGT_QAIC_DIR_TO_DEV, PAGE,
			       DEV_ADDR + 4 * PAGE);

	igt_qaic_execute_bo(fd, dbc, src.handle, IGT_QAIC_DIR_TO_DEV);
	igt_assert_eq(__igt_qaic_wait(fd, src.handle, dbc, 10000), 0);
	igt_qaic_execute_bo(fd, dbc, dst.handle, IGT_QAIC_DIR_FROM_DEV);
	igt_assert_eq(__igt_qaic_wait(fd, dst.handle, dbc, 10000), 0);
	igt_assert(!memcmp(dst.ptr, src.ptr, PAGE));
	memset(dst.ptr, 0x5a, PAGE);

	ret = __igt_qaic_emu_dbc_set_faults(fd, dbc, &faults);
	igt_require_f(ret != IGT_QAIC_EMU_PT_E_UNKNOWN_OP, "the emulator has no EMU_PT_DBC_FAULTS\n");
	igt_assert_eq(ret, 0);
	igt_qaic_execute_bo(fd, dbc, stuck.handle, IGT_QAIC_DIR_TO_DEV);
	igt_assert_eq(__igt_qaic_wait(fd, stuck.handle, dbc, 4 * timeout_ms + 5000), -EIO);
	igt_assert_eq(__igt_qaic_emu_dbc_set_faults(fd, dbc, &none), 0);

	/* The device runs in order: what it replayed is done before this. */
	igt_qaic_round_trip(fd, dbc, DEV_ADDR + 8 * PAGE, PAGE, 52);
	for (unsigned int i = 0; i < PAGE; i++)
		igt_assert_f(((uint8_t *)dst.ptr)[i] == 0x5a,
			     "byte %u of the finished job's object changed after the reset\n", i);
	igt_qaic_close(fd);
}

/* While a DBC of one process hangs, another process's DBC works */
static void test_hang_other_process(void)
{
	struct hang h;
	uint64_t start;

	hang_setup(&h);
	start = igt_qaic_now_ms();
	igt_qaic_execute_bo(h.fd, h.dbc, h.bo.handle, IGT_QAIC_DIR_TO_DEV);

	igt_fork(child, 1) {
		uint32_t dbc;
		int fd;

		fd = igt_qaic_open_dbc(QUEUE_SIZE, &dbc);
		igt_assert_neq(dbc, h.dbc);
		for (int i = 0; i < 10; i++)
			igt_qaic_round_trip(fd, dbc, DEV_ADDR + 4 * PAGE,
					    PAGE, 40 + i);
		igt_qaic_close(fd);
	}
	igt_waitchildren();
	igt_assert_eq(__igt_qaic_wait(h.fd, h.bo.handle, h.dbc, IGT_QAIC_WAIT_LOOK_MS),
		      -ETIMEDOUT);

	wait_hung(&h, start);
	check_recovered(&h);
	igt_qaic_close(h.fd);
}

/*
 * No fault injection: a presync wait on a semaphore nothing sets stalls
 * the DBC just the same, and is ended the same way.
 */
static void test_semaphore_stall(void)
{
	struct igt_qaic_bo stall, behind;
	uint64_t start;
	uint32_t dbc;
	int ret, fd;

	fd = igt_qaic_open_dbc(QUEUE_SIZE, &dbc);
	igt_qaic_stall_bo(fd, dbc, 17, &stall);
	igt_qaic_bo_create(fd, PAGE, &behind);
	igt_qaic_attach_simple(fd, behind.handle, dbc, IGT_QAIC_DIR_TO_DEV,
			       PAGE, DEV_ADDR);

	start = igt_qaic_now_ms();
	igt_qaic_execute_bo(fd, dbc, stall.handle, IGT_QAIC_DIR_TO_DEV);
	igt_qaic_execute_bo(fd, dbc, behind.handle, IGT_QAIC_DIR_TO_DEV);

	ret = __igt_qaic_wait(fd, stall.handle, dbc, 10000);
	igt_info("stalled job: %s after %llu ms\n", igt_qaic_err_name(-ret),
		 (unsigned long long)(igt_qaic_now_ms() - start));
	igt_assert_f(ret == -EIO, "stalled job: got %s\n", igt_qaic_err_name(-ret));
	ret = __igt_qaic_wait(fd, behind.handle, dbc, 10000);
	igt_assert_f(ret == -ECANCELED || ret == -EIO,
		     "job behind the stalled one: got %s\n", igt_qaic_err_name(-ret));

	/* The semaphore is still 0 after the reset: run it satisfied now */
	igt_qaic_round_trip(fd, dbc, DEV_ADDR + PAGE, PAGE, 50);
	igt_qaic_execute_bo(fd, dbc, behind.handle, IGT_QAIC_DIR_TO_DEV);
	igt_qaic_wait(fd, behind.handle, dbc, 10000);
	igt_qaic_close(fd);
}

/*
 * The handle of an object whose job hangs is closed: the job keeps the
 * object alive, fails at the job timeout all the same, and the DBC works
 * afterwards. Nothing to wait on: the DBC's counters tell when it was
 * reset, and a job queued behind tells too.
 */
static void test_close_handle_while_hung(void)
{
	struct igt_qaic_bo behind;
	uint64_t start;
	struct hang h;
	int ret;

	hang_setup(&h);
	igt_qaic_bo_create(h.fd, PAGE, &behind);
	igt_qaic_attach_simple(h.fd, behind.handle, h.dbc, IGT_QAIC_DIR_TO_DEV,
			       PAGE, DEV_ADDR + PAGE);
	start = igt_qaic_now_ms();
	igt_qaic_execute_bo(h.fd, h.dbc, h.bo.handle, IGT_QAIC_DIR_TO_DEV);
	igt_qaic_execute_bo(h.fd, h.dbc, behind.handle, IGT_QAIC_DIR_TO_DEV);
	igt_qaic_munmap(h.bo.ptr, h.bo.size);
	gem_close(h.fd, h.bo.handle);

	ret = __igt_qaic_wait(h.fd, behind.handle, h.dbc, 10000);
	igt_info("job behind the closed hung one: %s after %llu ms\n",
		 igt_qaic_err_name(-ret),
		 (unsigned long long)(igt_qaic_now_ms() - start));
	igt_assert_f(ret == -ECANCELED || ret == -EIO,
		     "job behind the hung one: got %s\n", igt_qaic_err_name(-ret));

	igt_qaic_execute_bo(h.fd, h.dbc, behind.handle, IGT_QAIC_DIR_TO_DEV);
	igt_qaic_wait(h.fd, behind.handle, h.dbc, 10000);
	igt_qaic_round_trip(h.fd, h.dbc, DEV_ADDR, PAGE, 70);
	igt_qaic_close(h.fd);
}

/* A process that exits with its job hung leaves a working device behind */
static void test_close_while_hung(void)
{
	uint32_t dbc[IGT_QAIC_NUM_DBC];
	int fd;

	igt_fork(child, 1) {
		struct hang h;

		hang_setup(&h);
		igt_qaic_execute_bo(h.fd, h.dbc, h.bo.handle,
				    IGT_QAIC_DIR_TO_DEV);
		igt_assert_eq(__igt_qaic_wait(h.fd, h.bo.handle, h.dbc, IGT_QAIC_WAIT_LOOK_MS),
			      -ETIMEDOUT);
		/* exit() closes the file */
	}
	igt_waitchildren();

	/* All 16 DBCs are free again, the one that hung included, and work */
	fd = igt_qaic_open();
	for (int i = 0; i < IGT_QAIC_NUM_DBC; i++)
		dbc[i] = igt_qaic_activate(fd, QUEUE_SIZE);
	for (int i = 0; i < IGT_QAIC_NUM_DBC; i++)
		igt_qaic_round_trip(fd, dbc[i], DEV_ADDR + i * PAGE, PAGE,
				    60 + i);
	igt_qaic_close(fd);
}

#define LATE_SIZE	(64 * 1024ull)
#define LATE_VICTIMS	64
#define LATE_SEED	0x1a7e
#define LATE_QUEUE	64	/* a request per page of an object at most */

struct late_case {
	const char *name;
	const char *desc;
	uint32_t late_ms;	/* after the driver's reset of the DBC */
	bool crash;		/* the card crashes first: its reset carries it out */
};

static const struct late_case late_cases[] = {
	{ "late-transfer-after-reset",
	  "Check that a request the card fetched before the driver reset its DBC, and carries out after the reset, writes into the hung object's own pages even when the user closed it, never into memory given to others.",
	  1500, false },
	{ "late-transfer-at-crash",
	  "Check that a request a crashed card still carries out before its reset reaches only memory the driver kept for it, and that the card and every DBC work afterwards.",
	  60000, true },
};

/* Waits for the card to come back after a crash: an activate works */
static uint32_t late_wait_card(int fd)
{
	uint64_t end = igt_qaic_now_ms() + 60000;
	uint32_t dbc;
	int ret;

	while ((ret = __igt_qaic_activate(fd, LATE_QUEUE, &dbc)) == -ENODEV &&
	       igt_qaic_now_ms() < end)
		usleep(50000);
	igt_assert_eq(ret, 0);
	return dbc;
}

/*
 * The card fetched the request it hangs on and carries out its transfer
 * after the driver gave up on it: into the hung object's pages. The user
 * closed that object; the victims are new objects, made at once on the
 * same CPU, so they get its pages first if the driver let them go. On a
 * machine with an IOMMU the late transfer faults instead (the PC bench
 * fails the run on a DMA fault).
 */
static void test_late_transfer(const struct late_case *lc)
{
	struct igt_qaic_bo src, late, victim[LATE_VICTIMS];
	struct igt_qaic_emu_counters before, after;
	cpu_set_t all, one;
	uint32_t dbc, hung, timeout_ms;
	uint8_t *expect;
	uint64_t start, end;
	int fd, ret;

	igt_assert_eq(sched_getaffinity(0, sizeof(all), &all), 0);
	CPU_ZERO(&one);
	CPU_SET(sched_getcpu(), &one);
	igt_assert_eq(sched_setaffinity(0, sizeof(one), &one), 0);

	fd = igt_qaic_open_dbc(LATE_QUEUE, &dbc);
	hung = dbc;
	timeout_ms = igt_qaic_job_timeout_ms();
	igt_require_f(counters(fd, hung, &before), "the emulator keeps no counters\n");

	/* Device memory gets bytes no victim has */
	igt_qaic_bo_create(fd, LATE_SIZE, &src);
	igt_qaic_fill_pattern(src.ptr, LATE_SIZE, LATE_SEED);
	igt_qaic_attach_simple(fd, src.handle, dbc, IGT_QAIC_DIR_TO_DEV, LATE_SIZE, DEV_ADDR);
	igt_qaic_execute_bo(fd, dbc, src.handle, IGT_QAIC_DIR_TO_DEV);
	igt_qaic_wait(fd, src.handle, dbc, 10000);

	igt_qaic_bo_create(fd, LATE_SIZE, &late);
	igt_qaic_attach_simple(fd, late.handle, dbc, IGT_QAIC_DIR_FROM_DEV, LATE_SIZE,
			       DEV_ADDR);
	ret = __igt_qaic_emu_hang_dbc_late(fd, dbc, lc->late_ms);
	igt_require_f(ret != IGT_QAIC_EMU_PT_E_UNKNOWN_OP, "no late hang in the emulator\n");
	igt_assert_eq(ret, 0);
	start = igt_qaic_now_ms();
	igt_qaic_execute_bo(fd, dbc, late.handle, IGT_QAIC_DIR_FROM_DEV);
	ret = __igt_qaic_wait(fd, late.handle, dbc, timeout_ms * 2 + 10000);
	igt_info("hung job: %s after %llu ms\n", igt_qaic_err_name(-ret),
		 (unsigned long long)(igt_qaic_now_ms() - start));
	igt_assert_eq(ret, -EIO);

	/* The scheduler frees the job; then the user lets the object go */
	usleep(200000);
	igt_qaic_bo_destroy(fd, &late);
	for (int i = 0; i < LATE_VICTIMS; i++) {
		igt_qaic_bo_create(fd, LATE_SIZE, &victim[i]);
		igt_qaic_fill_pattern(victim[i].ptr, LATE_SIZE, 100 + i);
	}

	if (lc->crash)
		igt_assert_eq(__igt_qaic_emu_sys_error(fd, 20), 0);
	/*
	 * Until the card carried the request out: after the delay, or at
	 * the reset that follows the crash (the counters cannot be read
	 * while the card is down).
	 */
	end = igt_qaic_now_ms() + lc->late_ms + 10000;
	do {
		memset(&after, 0, sizeof(after));
		if (!counters(fd, hung, &after))
			after.late_xfers = before.late_xfers;
		if (after.late_xfers != before.late_xfers)
			break;
		usleep(50000);
	} while (igt_qaic_now_ms() < end);
	if (lc->crash) {
		dbc = late_wait_card(fd);
		igt_qaic_round_trip(fd, dbc, DEV_ADDR + LATE_SIZE, PAGE, 70);
	}
	igt_info("late transfers: %llu, %llu ms after the job started\n",
		 (unsigned long long)(after.late_xfers - before.late_xfers),
		 (unsigned long long)(igt_qaic_now_ms() - start));
	igt_assert_eq_u64(after.late_xfers - before.late_xfers, 1);

	/* Nobody else's memory changed */
	expect = malloc(LATE_SIZE);
	igt_assert(expect);
	for (int i = 0; i < LATE_VICTIMS; i++) {
		igt_qaic_fill_pattern(expect, LATE_SIZE, 100 + i);
		igt_qaic_assert_bytes(victim[i].ptr, expect, LATE_SIZE, "an object made after the hung one was closed");
		igt_qaic_bo_destroy(fd, &victim[i]);
	}
	free(expect);
	igt_qaic_bo_destroy(fd, &src);
	igt_qaic_round_trip(fd, dbc, DEV_ADDR + LATE_SIZE, PAGE, 71);
	igt_qaic_close(fd);
	igt_assert_eq(sched_setaffinity(0, sizeof(all), &all), 0);
}

igt_main
{
	int fd = -1;

	igt_fixture {
		fd = igt_qaic_open();
		igt_qaic_require_ours(fd, !access("/sys/module/qaic/parameters/job_timeout_ms", F_OK),
				      "no job timeout: a hung job is never ended");
	}

	igt_describe("Check that a hung job fails with EIO after the job timeout, that another DBC works meanwhile, and that the hung DBC works again afterwards.");
	igt_subtest("hang-eio")
		test_hang_eio();

	igt_describe("Check that the jobs on the ring behind a hung one are cancelled with it, not each after a timeout.");
	igt_subtest("hang-queued")
		test_hang_queued(6, 6);

	igt_describe("Check that, behind a hung job, the jobs on the ring are cancelled and those still waiting for room run once the DBC is reset.");
	igt_subtest("hang-queued-beyond-ring")
		test_hang_queued(8, 24);

	igt_describe("Check that another process's DBC works while one DBC hangs.");
	igt_subtest("hang-other-process")
		test_hang_other_process();

	igt_describe("Check that a DBC stalled on a semaphore is reset after the job timeout and works again.");
	igt_subtest("semaphore-stall")
		test_semaphore_stall();

	igt_describe("Check that closing the handle of a hung object is safe and the DBC recovers.");
	igt_subtest("close-handle-while-hung")
		test_close_handle_while_hung();

	igt_describe("Check that closing a file with a hung job leaves every DBC usable.");
	igt_subtest("close-while-hung")
		test_close_while_hung();

	igt_describe("Check that jobs whose responses the device loses fail with EIO, and the others complete.");
	igt_subtest("lost-responses")
		test_lost_responses();

	igt_describe("Check that a response with an error status fails its job with EIO and the DBC goes on.");
	igt_subtest("corrupt-responses")
		test_corrupt_responses();

	igt_describe("Check that resetting a DBC whose REQHP reads behind the truth runs none of the ring's old requests again.");
	igt_subtest("reset-with-lying-head")
		test_reset_with_lying_head();

	for (unsigned int i = 0; i < ARRAY_SIZE(late_cases); i++) {
		igt_describe(late_cases[i].desc);
		igt_subtest(late_cases[i].name)
			test_late_transfer(&late_cases[i]);
	}

	igt_fixture {
		igt_qaic_close(fd);
	}
	igt_qaic_dbcs_free_checks();
}
