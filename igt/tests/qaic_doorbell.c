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
#include "igt_qaic_sync.h"

/**
 * TEST: qaic doorbell
 * Category: Core
 * Description: Doorbell batching: the request ring's tail (REQTP) is
 *		written once for jobs that are ready together, or that queue
 *		while the DBC is busy, and at once for a lone job. Counted by
 *		the driver (debugfs) and by the emulated card (its REQTP
 *		writes); the data the jobs moved is checked.
 * Feature: qaic
 *
 * SUBTEST: ready-%s
 * Description: Check that eight jobs released together by one fence are announced with %arg[1].
 * Run type: FULL
 *
 * arg[1]:
 *
 * @batched:	one doorbell (doorbell_batch 16)
 * @capped:	one doorbell per four requests (doorbell_batch 4)
 * @capped-odd:	one doorbell per three requests and one for the rest (doorbell_batch 3)
 * @one-by-one:	one doorbell each (doorbell_batch 0)
 *
 * SUBTEST: lone-jobs
 * Description: Check that a job alone on an idle DBC rings at once: one doorbell per job at QD1.
 * Run type: FULL
 *
 * SUBTEST: busy
 * Description: Check that jobs queued behind a job the card is still running wait for it without a doorbell, and fail with it.
 * Run type: FULL
 *
 * SUBTEST: busy-close
 * Description: Check that closing the file while jobs wait behind a busy DBC for their doorbell frees the DBC at once.
 * Run type: FULL
 *
 * SUBTEST: busy-completes
 * Description: Check that jobs queued while the card runs a slow job are announced together when it completes.
 * Run type: FULL
 */

IGT_TEST_DESCRIPTION("Doorbell batching of the qaic accel driver.");

#define NSEC_PER_SEC	1000000000ll
#define DEV_ADDR	(32ull << 20)
#define QUEUE_SIZE	64
#define NJOBS		8
/* Pattern of the first job's page; each next one's is one more */
#define SEED		100
#define PARAM		"/sys/module/qaic/parameters/doorbell_batch"

/* The emulated card's REQTP register, in its counters */
#define REG_REQTP	1

struct data {
	int fd;
	uint32_t dbc;
	char saved[32];
};

static void set_batch(unsigned int batch)
{
	char val[16];

	snprintf(val, sizeof(val), "%u", batch);
	igt_qaic_write_file(PARAM, val);
}

/* Both counts of doorbells: the driver's and the card's REQTP writes. */
struct counts {
	uint64_t doorbells;
	uint64_t requests;
	uint64_t reqtp_writes;
};

static void counts(const struct data *d, struct counts *c)
{
	struct igt_qaic_emu_counters emu;
	struct igt_qaic_dbc_debugfs st;

	igt_assert(igt_qaic_dbc_debugfs(d->fd, d->dbc, &st));
	igt_assert_eq(__igt_qaic_emu_dbc_counters(d->fd, d->dbc, &emu), 0);
	c->doorbells = st.doorbells;
	c->requests = st.requests;
	c->reqtp_writes = emu.reg_writes[REG_REQTP];
}

struct ready_case {
	const char *name;
	unsigned int batch;		/* doorbell_batch */
	unsigned int doorbells;		/* for NJOBS one-request jobs */
};

static const struct ready_case ready_cases[] = {
	{ "batched", 16, 1 },
	{ "capped", 4, 2 },
	{ "capped-odd", 3, 3 },
	{ "one-by-one", 0, NJOBS },
};

/*
 * Eight jobs wait behind one gate; when it opens the scheduler has them
 * all ready at once. Each job leaves its doorbell to the next until
 * doorbell_batch requests wait, and the last one rings for the rest.
 *
 * The card takes READY_REQ_NS a request, far longer than the scheduler
 * takes to run eight jobs, so it completes nothing meanwhile: every job
 * after the first doorbell finds it busy and rings only at the cap, and
 * the first completion rings for what is left. A fast card may complete
 * between two jobs and make the count depend on when its interrupt came.
 */
#define READY_REQ_NS	(50 * 1000 * 1000)

static void test_ready(const struct data *d, const struct ready_case *c)
{
	uint32_t gate_obj = igt_qaic_syncobj_create(d->fd);
	struct qaic_sync in = { .handle = gate_obj };
	struct igt_qaic_sync_bo bo[NJOBS];
	struct igt_qaic_gate gate;
	struct counts b, h, a;

	set_batch(c->batch);
	igt_qaic_sync_pages_new(d->fd, d->dbc, bo, NJOBS, DEV_ADDR, SEED);
	igt_qaic_gate_init(d->fd, gate_obj, 0, &gate);
	counts(d, &b);
	for (unsigned int i = 0; i < NJOBS; i++)
		igt_qaic_submit(d->fd, d->dbc, bo[i].handle, IGT_QAIC_SYNC_TO_DEV,
				&in, 1, 0, 0);

	/* Behind the gate nothing reaches the card */
	usleep(100000);
	counts(d, &h);
	igt_assert_eq_u64(h.requests, b.requests);
	igt_assert_eq_u64(h.reqtp_writes, b.reqtp_writes);

	igt_assert_eq(__igt_qaic_emu_dbc_timing(d->fd, d->dbc, READY_REQ_NS), 0);
	igt_qaic_gate_open(&gate);
	for (unsigned int i = 0; i < NJOBS; i++)
		igt_assert_eq(__igt_qaic_sync_wait_bo(d->fd, bo[i].handle, d->dbc, 20000), 0);
	igt_assert_eq(__igt_qaic_emu_dbc_timing(d->fd, d->dbc, 0), 0);
	counts(d, &a);
	igt_info("doorbell_batch %u: %u jobs, %" PRIu64 " doorbells, %" PRIu64 " REQTP writes\n",
		 c->batch, NJOBS, a.doorbells - b.doorbells, a.reqtp_writes - b.reqtp_writes);
	igt_assert_eq_u64(a.requests - b.requests, NJOBS);
	igt_assert_eq_u64(a.reqtp_writes - b.reqtp_writes, a.doorbells - b.doorbells);
	/*
	 * On one CPU the gate's signal makes all eight ready before the
	 * scheduler runs, so the count is exact. On more, the scheduler may
	 * run a job on another CPU before the next one is ready, and ring for
	 * it alone: never fewer doorbells than the cap allows, though.
	 */
	if (sysconf(_SC_NPROCESSORS_ONLN) == 1) {
		igt_assert_eq_u64(a.doorbells - b.doorbells, c->doorbells);
	} else {
		uint64_t rung = a.doorbells - b.doorbells;

		igt_assert_f(rung >= c->doorbells && rung <= NJOBS,
			     "%" PRIu64 " doorbells for %u jobs, batch %u\n",
			     rung, NJOBS, c->batch);
	}

	igt_qaic_sync_pages_check(d->fd, d->dbc, NJOBS, DEV_ADDR, SEED);
	igt_qaic_sync_pages_free(d->fd, bo, NJOBS);
	igt_qaic_syncobj_destroy(d->fd, gate_obj);
}

/* Execute and wait, one job at a time: none may wait for a doorbell. */
static void test_lone_jobs(const struct data *d)
{
	struct igt_qaic_sync_bo bo[NJOBS];
	struct counts b, a;

	set_batch(16);
	igt_qaic_sync_pages_new(d->fd, d->dbc, bo, NJOBS, DEV_ADDR, SEED);
	counts(d, &b);
	for (unsigned int i = 0; i < NJOBS; i++) {
		igt_qaic_execute_bo(d->fd, d->dbc, bo[i].handle, IGT_QAIC_SYNC_TO_DEV);
		igt_assert_eq(__igt_qaic_sync_wait_bo(d->fd, bo[i].handle, d->dbc, 20000), 0);
	}
	counts(d, &a);
	igt_assert_eq_u64(a.doorbells - b.doorbells, NJOBS);
	igt_assert_eq_u64(a.reqtp_writes - b.reqtp_writes, NJOBS);
	igt_qaic_sync_pages_check(d->fd, d->dbc, NJOBS, DEV_ADDR, SEED);
	igt_qaic_sync_pages_free(d->fd, bo, NJOBS);
}

/*
 * Queues a stalled job, then four behind it that wait for their doorbell;
 * @b (if not NULL) gets the counts in between. @st is the DBC's state
 * once the five are on the ring.
 */
static void queue_behind_stall(const struct data *d, struct igt_qaic_sync_bo *bo,
			       struct igt_qaic_bo *stall, struct counts *b,
			       struct igt_qaic_dbc_debugfs *st)
{
	uint64_t deadline;

	igt_qaic_sync_pages_new(d->fd, d->dbc, bo, 4, DEV_ADDR, SEED);
	igt_qaic_stall_bo(d->fd, d->dbc, 7, stall);
	igt_qaic_execute_bo(d->fd, d->dbc, stall->handle, IGT_QAIC_DIR_TO_DEV);
	deadline = igt_qaic_now_ms() + 2000;
	do {
		igt_assert(igt_qaic_dbc_debugfs(d->fd, d->dbc, st));
	} while (st->regs[1] == st->req_head && igt_qaic_now_ms() < deadline);
	igt_assert_f(st->regs[1] != st->req_head, "the stalled job was never announced\n");
	if (b)
		counts(d, b);
	for (unsigned int i = 0; i < 4; i++)
		igt_qaic_execute_bo(d->fd, d->dbc, bo[i].handle, IGT_QAIC_SYNC_TO_DEV);
	deadline = igt_qaic_now_ms() + 2000;
	do {
		igt_assert(igt_qaic_dbc_debugfs(d->fd, d->dbc, st));
	} while (st->jobs_in_flight < 5 && igt_qaic_now_ms() < deadline);
	igt_assert_eq_u64(st->jobs_in_flight, 5);
	/* The first behind the stall is told at once: see test_busy(). */
	igt_assert_eq_u64(st->regs[1], (st->req_head + 2) % QUEUE_SIZE);
}

/*
 * A job waits on the card for a semaphore nothing sets: the DBC is busy.
 * The first job queued behind it is announced at once (with one request
 * told, the card would run out of work at the completion that announces
 * the next); the three after it stay on the host side of the ring (the
 * tail moves, REQTP does not), as the completion that would announce them
 * never comes. The job timeout then fails the stuck job with -EIO and the
 * others with -ECANCELED, as it would have had they been announced.
 */
static void test_busy(const struct data *d)
{
	struct igt_qaic_sync_bo bo[4];
	struct igt_qaic_dbc_debugfs st;
	struct igt_qaic_bo stall;
	struct counts b, a;

	set_batch(16);
	queue_behind_stall(d, bo, &stall, &b, &st);
	counts(d, &a);
	igt_assert_eq_u64(a.requests - b.requests, 4);
	igt_assert_eq_u64(a.doorbells - b.doorbells, 1);
	igt_assert_eq_u64(a.reqtp_writes - b.reqtp_writes, 1);
	igt_assert_eq_u64(st.queued, 5);

	igt_assert_eq(__igt_qaic_wait(d->fd, stall.handle, d->dbc, 20000), -EIO);
	for (unsigned int i = 0; i < 4; i++)
		igt_assert_eq(__igt_qaic_sync_wait_bo(d->fd, bo[i].handle, d->dbc, 20000),
			      -ECANCELED);

	igt_qaic_detach_slice(d->fd, stall.handle);
	igt_qaic_bo_destroy(d->fd, &stall);
	igt_qaic_sync_pages_free(d->fd, bo, 4);
}

/*
 * The owner closes its file with the stalled job and the four held back
 * behind it: the DBC is released long before the job timeout, and the
 * kernel log stays clean (the runner checks it).
 */
static void test_busy_close(void)
{
	struct igt_qaic_dbc_debugfs st;
	struct igt_qaic_sync_bo bo[4];
	struct igt_qaic_bo stall;
	struct data d = { .fd = -1 };
	uint64_t t0;
	int other;

	set_batch(16);
	d.fd = igt_qaic_open_dbc(QUEUE_SIZE, &d.dbc);
	queue_behind_stall(&d, bo, &stall, NULL, &st);
	/* Mappings hold the file: unmap and drop the handles first (the jobs hold the objects) */
	igt_qaic_sync_pages_free(d.fd, bo, 4);
	igt_qaic_bo_destroy(d.fd, &stall);
	other = igt_qaic_open();
	t0 = igt_qaic_now_ms();
	close(d.fd);
	igt_assert(!igt_qaic_dbc_debugfs(other, d.dbc, &st));
	igt_info("DBC %u released %" PRIu64 " ms after close\n", d.dbc, igt_qaic_now_ms() - t0);
	igt_assert_cmpu64(igt_qaic_now_ms() - t0, <, >=, igt_qaic_job_timeout_ms());
	close(other);
}

/*
 * The card takes 100 ms per request. The first job, alone on an idle DBC,
 * rings at once, and so does the second (the card, told of one request,
 * would otherwise sit idle from its completion to the handler's doorbell);
 * the three queued while the card works on those wait for the first
 * completion, whose handler announces them with one doorbell. Their data
 * arrives as sent.
 */
static void test_busy_completes(const struct data *d)
{
	struct igt_qaic_dbc_debugfs st;
	struct igt_qaic_sync_bo bo[5];
	struct counts b, a;
	uint64_t deadline;

	set_batch(16);
	igt_qaic_sync_pages_new(d->fd, d->dbc, bo, 5, DEV_ADDR, SEED);
	counts(d, &b);
	igt_assert_eq(__igt_qaic_emu_dbc_timing(d->fd, d->dbc, 100 * 1000 * 1000), 0);
	igt_qaic_execute_bo(d->fd, d->dbc, bo[0].handle, IGT_QAIC_SYNC_TO_DEV);
	deadline = igt_qaic_now_ms() + 2000;
	do {
		igt_assert(igt_qaic_dbc_debugfs(d->fd, d->dbc, &st));
	} while (st.regs[1] == st.req_head && igt_qaic_now_ms() < deadline);
	for (unsigned int i = 1; i < 5; i++)
		igt_qaic_execute_bo(d->fd, d->dbc, bo[i].handle, IGT_QAIC_SYNC_TO_DEV);
	for (unsigned int i = 0; i < 5; i++)
		igt_assert_eq(__igt_qaic_sync_wait_bo(d->fd, bo[i].handle, d->dbc, 20000), 0);
	igt_assert_eq(__igt_qaic_emu_dbc_timing(d->fd, d->dbc, 0), 0);
	counts(d, &a);
	igt_info("5 jobs: %" PRIu64 " doorbells, %" PRIu64 " REQTP writes\n",
		 a.doorbells - b.doorbells, a.reqtp_writes - b.reqtp_writes);
	igt_assert_eq_u64(a.requests - b.requests, 5);
	igt_assert_eq_u64(a.doorbells - b.doorbells, 3);
	igt_assert_eq_u64(a.reqtp_writes - b.reqtp_writes, 3);
	igt_qaic_sync_pages_check(d->fd, d->dbc, 5, DEV_ADDR, SEED);
	igt_qaic_sync_pages_free(d->fd, bo, 5);
}

igt_main
{
	struct data d = { .fd = -1 };
	struct igt_qaic_emu_counters emu;
	FILE *f;

	igt_fixture {
		d.fd = igt_qaic_open_dbc(QUEUE_SIZE, &d.dbc);
		f = fopen(PARAM, "r");
		igt_require_f(f, "no %s: not our driver\n", PARAM);
		igt_assert(fgets(d.saved, sizeof(d.saved), f));
		fclose(f);
		igt_require_f(__igt_qaic_emu_dbc_counters(d.fd, d.dbc, &emu) == 0,
			      "no DBC counters from the card: not the emulator\n");
		igt_require(igt_qaic_has_syncobj(d.fd));
	}

	for (unsigned int i = 0; i < ARRAY_SIZE(ready_cases); i++) {
		igt_describe("Check how many doorbells announce jobs that are ready together.");
		igt_subtest_f("ready-%s", ready_cases[i].name)
			test_ready(&d, &ready_cases[i]);
	}

	igt_describe("Check that a lone job on an idle DBC rings at once.");
	igt_subtest("lone-jobs")
		test_lone_jobs(&d);

	igt_describe("Check that jobs behind a busy DBC wait for its completion, not a doorbell each.");
	igt_subtest("busy")
		test_busy(&d);

	igt_describe("Check that closing the file frees a DBC whose jobs wait for their doorbell behind a busy card.");
	igt_subtest("busy-close")
		test_busy_close();

	igt_describe("Check that jobs queued while the card works are announced with one doorbell when it completes.");
	igt_subtest("busy-completes") {
		igt_install_exit_handler(igt_qaic_emu_dbc_timing_reset);
		test_busy_completes(&d);
	}

	igt_fixture {
		if (d.saved[0])
			igt_qaic_write_file(PARAM, d.saved);
		close(d.fd);
	}
}
