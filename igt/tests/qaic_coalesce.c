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
 * TEST: qaic coalesce
 * Category: Core
 * Description: Completion coalescing: while the card has a backlog the
 *		driver holds the acknowledgment of responses (RSPHP) back and
 *		looks at the response ring by timer, so the card raises no
 *		interrupt per response; a job alone on the DBC, or a queue no
 *		deeper than one look, still completes by interrupts. Counted by the driver (debugfs polls) and by
 *		the emulated card (its interrupts and RSPTP reads); the data
 *		the jobs moved is checked.
 * Feature: qaic
 *
 * SUBTEST: backlog-%s
 * Description: Check 16 jobs queued at once on a card that takes 5 ms per request, %arg[1].
 * Run type: FULL
 *
 * arg[1]:
 *
 * @on:		coalesced (coalesce_rsps 4): timer looks, at most one interrupt per two jobs
 * @off:	not coalesced (coalesce_rsps 0): no timer look
 *
 * SUBTEST: lone-jobs
 * Description: Check that jobs run one at a time complete by their interrupt, one each, with no timer look.
 * Run type: FULL
 *
 * SUBTEST: short-queue
 * Description: Check that jobs queued four at a time (no more than one look takes) complete by their interrupts, one each, with no timer look.
 * Run type: FULL
 *
 * SUBTEST: close-held
 * Description: Check that closing the file while a timer look is pending frees the DBC, and that it is taken again and runs work.
 * Run type: FULL
 *
 * SUBTEST: polling-%s
 * Description: Check that a DBC activated with datapath_polling set completes 16 jobs by timer looks alone, in well under job_timeout_ms, and is released cleanly with jobs on it, %arg[1].
 * Run type: FULL
 *
 * arg[1]:
 *
 * @msi:	the card's completion interrupts arriving (claimed, ignored)
 * @msi-lost:	no completion interrupt reaching the host (a VM whose MSIs are broken)
 */

IGT_TEST_DESCRIPTION("Completion coalescing of the qaic accel driver.");

#define SZ_4K		4096ull
#define DEV_ADDR	(40ull << 20)
#define QUEUE_SIZE	64
#define NJOBS		16
/* Pattern of the first job's page; each next one's is one more */
#define SEED		60
#define REQ_NS		(5 * 1000 * 1000)
#define PARAMS		"/sys/module/qaic/parameters/"

/* The emulated card's RSPTP register, in its counters */
#define REG_RSPTP	3

struct data {
	int fd;
	uint32_t dbc;
};

/* Both sides' counts: the driver's timer looks, the card's interrupts and RSPTP reads. */
struct counts {
	uint64_t polls, jobs, irqs, rsptp_reads;
};

static void counts(const struct data *d, struct counts *c)
{
	struct igt_qaic_emu_counters emu;
	struct igt_qaic_dbc_debugfs st;

	igt_assert(igt_qaic_dbc_debugfs(d->fd, d->dbc, &st));
	igt_assert_eq(__igt_qaic_emu_dbc_counters(d->fd, d->dbc, &emu), 0);
	c->polls = st.polls;
	c->jobs = st.jobs;
	c->irqs = emu.irqs;
	c->rsptp_reads = emu.reg_reads[REG_RSPTP];
}

/* A module parameter for the rest of the process (igt_qaic_param_set()) */
static void set_param(const char *name, unsigned int val)
{
	char s[16];

	snprintf(s, sizeof(s), "%u", val);
	igt_qaic_param_set(name, s);
}

struct backlog_case {
	const char *name;
	unsigned int rsps;		/* coalesce_rsps */
};

static const struct backlog_case backlog_cases[] = {
	{ "on", 4 },
	{ "off", 0 },
};

/*
 * The card takes 5 ms per request and the driver may wait 20 ms for four
 * responses: coalesced, each look should find about four, so half as many
 * interrupts as jobs leaves a margin of two to the card's pace. Without
 * coalescing no look is made by timer.
 */
static void test_backlog(const struct data *d, const struct backlog_case *c)
{
	struct igt_qaic_sync_bo bo[NJOBS];
	struct counts b, a;

	set_param("coalesce_rsps", c->rsps);
	set_param("coalesce_max_us", 20000);
	igt_qaic_sync_pages_new(d->fd, d->dbc, bo, NJOBS, DEV_ADDR, SEED);
	igt_assert_eq(__igt_qaic_emu_dbc_timing(d->fd, d->dbc, REQ_NS), 0);
	counts(d, &b);
	for (unsigned int i = 0; i < NJOBS; i++)
		igt_qaic_execute_bo(d->fd, d->dbc, bo[i].handle, IGT_QAIC_SYNC_TO_DEV);
	for (unsigned int i = 0; i < NJOBS; i++)
		igt_assert_eq(__igt_qaic_sync_wait_bo(d->fd, bo[i].handle, d->dbc, 20000), 0);
	counts(d, &a);
	igt_assert_eq(__igt_qaic_emu_dbc_timing(d->fd, d->dbc, 0), 0);
	igt_info("%d jobs: %" PRIu64 " timer looks, %" PRIu64 " interrupts, %" PRIu64 " RSPTP reads\n",
		 NJOBS, a.polls - b.polls, a.irqs - b.irqs, a.rsptp_reads - b.rsptp_reads);
	igt_assert_eq_u64(a.jobs - b.jobs, NJOBS);
	if (c->rsps >= 2) {
		igt_assert_lt_u64(0, a.polls - b.polls);
		igt_assert_lte_u64(2 * (a.irqs - b.irqs), NJOBS);
	} else {
		igt_assert_eq_u64(a.polls - b.polls, 0);
	}
	igt_qaic_sync_pages_check(d->fd, d->dbc, NJOBS, DEV_ADDR, SEED);
	igt_qaic_sync_pages_free(d->fd, bo, NJOBS);
}

struct polling_case {
	const char *name;
	bool msi_off;		/* the card's completion MSIs withheld */
};

static const struct polling_case polling_cases[] = {
	{ "msi", false },
	{ "msi-lost", true },
};

/*
 * A DBC activated with datapath_polling set is polled for good: the
 * parameter goes back at once. Its jobs complete by the timer's looks,
 * whether or not the card's interrupts arrive, long before the job
 * timeout (which would find the responses too).
 */
static void test_polling(const struct polling_case *c)
{
	struct igt_qaic_dbc_faults faults = { .msi_off = c->msi_off };
	uint32_t timeout = igt_qaic_job_timeout_ms();
	struct igt_qaic_sync_bo bo[NJOBS];
	struct data d = { .fd = -1 };
	struct counts b, a;
	uint64_t start, ms;

	set_param("datapath_polling", 1);
	d.fd = igt_qaic_open_dbc(QUEUE_SIZE, &d.dbc);
	igt_qaic_param_put_back("datapath_polling");

	igt_assert_eq(__igt_qaic_emu_dbc_set_faults(d.fd, d.dbc, &faults), 0);
	igt_qaic_sync_pages_new(d.fd, d.dbc, bo, NJOBS, DEV_ADDR, SEED);
	igt_assert_eq(__igt_qaic_emu_dbc_timing(d.fd, d.dbc, REQ_NS / 5), 0);
	counts(&d, &b);
	start = igt_qaic_now_ms();
	for (unsigned int i = 0; i < NJOBS; i++)
		igt_qaic_execute_bo(d.fd, d.dbc, bo[i].handle, IGT_QAIC_SYNC_TO_DEV);
	for (unsigned int i = 0; i < NJOBS; i++)
		igt_assert_eq(__igt_qaic_sync_wait_bo(d.fd, bo[i].handle, d.dbc, 20000), 0);
	ms = igt_qaic_now_ms() - start;
	counts(&d, &a);
	igt_info("%d jobs in %" PRIu64 " ms: %" PRIu64 " timer looks, %" PRIu64
		 " interrupts, %" PRIu64 " RSPTP reads\n", NJOBS, ms, a.polls - b.polls,
		 a.irqs - b.irqs, a.rsptp_reads - b.rsptp_reads);
	igt_assert_eq(__igt_qaic_emu_dbc_timing(d.fd, d.dbc, 0), 0);
	faults.msi_off = 0;
	igt_assert_eq(__igt_qaic_emu_dbc_set_faults(d.fd, d.dbc, &faults), 0);

	igt_assert_eq_u64(a.jobs - b.jobs, NJOBS);
	igt_assert_lt_u64(0, a.polls - b.polls);
	if (c->msi_off)
		igt_assert_eq_u64(a.irqs - b.irqs, 0);
	igt_assert_f(ms < timeout / 2, "16 jobs took %" PRIu64 " ms, job_timeout_ms %u\n",
		     ms, timeout);
	igt_qaic_sync_pages_check(d.fd, d.dbc, NJOBS, DEV_ADDR, SEED);

	/*
	 * Closed with jobs on the ring and a look pending: teardown cancels
	 * the timer and the work (the debug kernel checks the freed queue).
	 */
	igt_assert_eq(__igt_qaic_emu_dbc_timing(d.fd, d.dbc, REQ_NS), 0);
	for (unsigned int i = 0; i < NJOBS; i++)
		igt_qaic_execute_bo(d.fd, d.dbc, bo[i].handle, IGT_QAIC_SYNC_TO_DEV);
	igt_assert_eq(__igt_qaic_sync_wait_bo(d.fd, bo[1].handle, d.dbc, 20000), 0);
	igt_assert_eq(__igt_qaic_emu_dbc_timing(d.fd, d.dbc, 0), 0);
	close(d.fd);
	d.fd = igt_qaic_open_dbc(QUEUE_SIZE, &d.dbc);
	igt_qaic_round_trip(d.fd, d.dbc, DEV_ADDR, SZ_4K, 78);
	close(d.fd);
}

struct queue_case {
	const char *name;
	unsigned int depth;	/* jobs queued at once, then waited for */
};

static const struct queue_case queue_cases[] = {
	{ "lone-jobs", 1 },
	{ "short-queue", 4 },
};

/*
 * No more responses due than one look takes (coalesce_rsps 4): a look
 * would come when the card has run out of work, and wait for the last
 * response due, so each response is taken by its interrupt, at once.
 */
static void test_queue(const struct data *d, const struct queue_case *c)
{
	struct igt_qaic_sync_bo bo[NJOBS];
	struct counts b, a;

	set_param("coalesce_rsps", 4);
	set_param("coalesce_max_us", 20000);
	igt_qaic_sync_pages_new(d->fd, d->dbc, bo, NJOBS, DEV_ADDR, SEED);
	igt_assert_eq(__igt_qaic_emu_dbc_timing(d->fd, d->dbc, REQ_NS / 5), 0);
	counts(d, &b);
	for (unsigned int i = 0; i < NJOBS; i += c->depth) {
		for (unsigned int j = i; j < i + c->depth; j++)
			igt_qaic_execute_bo(d->fd, d->dbc, bo[j].handle, IGT_QAIC_SYNC_TO_DEV);
		for (unsigned int j = i; j < i + c->depth; j++)
			igt_assert_eq(__igt_qaic_sync_wait_bo(d->fd, bo[j].handle, d->dbc,
							      20000), 0);
	}
	counts(d, &a);
	igt_info("%d jobs, %u at a time: %" PRIu64 " timer looks, %" PRIu64 " interrupts\n",
		 NJOBS, c->depth, a.polls - b.polls, a.irqs - b.irqs);
	igt_assert_eq(__igt_qaic_emu_dbc_timing(d->fd, d->dbc, 0), 0);
	igt_assert_eq_u64(a.polls - b.polls, 0);
	/* Responses that land together (one tick of the card) share one. */
	if (c->depth == 1)
		igt_assert_eq_u64(a.irqs - b.irqs, NJOBS);
	else
		igt_assert_lte_u64(NJOBS / 2, a.irqs - b.irqs);
	igt_qaic_sync_pages_check(d->fd, d->dbc, NJOBS, DEV_ADDR, SEED);
	igt_qaic_sync_pages_free(d->fd, bo, NJOBS);
}

/*
 * The file goes while its DBC's completion handler waits for a timer look:
 * teardown cancels the timer (the debug kernel checks the freed queue).
 */
static void test_close_held(void)
{
	struct igt_qaic_sync_bo bo[NJOBS];
	struct igt_qaic_dbc_debugfs st;
	uint32_t dbc, again;
	uint64_t deadline;
	int fd = igt_qaic_open_dbc(QUEUE_SIZE, &dbc);

	set_param("coalesce_rsps", 4);
	set_param("coalesce_max_us", 20000);
	igt_qaic_sync_pages_new(fd, dbc, bo, NJOBS, DEV_ADDR, SEED);
	igt_assert_eq(__igt_qaic_emu_dbc_timing(fd, dbc, REQ_NS), 0);
	igt_assert(igt_qaic_dbc_debugfs(fd, dbc, &st));
	deadline = st.polls;
	for (unsigned int i = 0; i < NJOBS; i++)
		igt_qaic_execute_bo(fd, dbc, bo[i].handle, IGT_QAIC_SYNC_TO_DEV);
	igt_assert_eq(__igt_qaic_sync_wait_bo(fd, bo[2].handle, dbc, 20000), 0);
	igt_assert(igt_qaic_dbc_debugfs(fd, dbc, &st));
	igt_assert_lt_u64(deadline, st.polls);
	igt_assert_eq(__igt_qaic_emu_dbc_timing(fd, dbc, 0), 0);
	close(fd);

	/* The DBC is free again at once, and works. */
	fd = igt_qaic_open();
	deadline = igt_qaic_now_ms() + 5000;
	while (__igt_qaic_activate(fd, QUEUE_SIZE, &again) == -EBUSY &&
	       igt_qaic_now_ms() < deadline)
		usleep(10000);
	igt_qaic_round_trip(fd, again, DEV_ADDR, SZ_4K, 77);
	close(fd);
}

igt_main
{
	struct data d = { .fd = -1 };
	struct igt_qaic_emu_counters emu;

	igt_fixture {
		d.fd = igt_qaic_open_dbc(QUEUE_SIZE, &d.dbc);
		igt_require_f(!access(PARAMS "coalesce_rsps", F_OK) &&
			      !access(PARAMS "coalesce_max_us", F_OK), "not our driver\n");
		igt_require_f(__igt_qaic_emu_dbc_counters(d.fd, d.dbc, &emu) == 0,
			      "no DBC counters from the card: not the emulator\n");
		igt_require(igt_qaic_has_syncobj(d.fd));
		igt_install_exit_handler(igt_qaic_emu_dbc_timing_reset);
	}

	for (unsigned int i = 0; i < ARRAY_SIZE(backlog_cases); i++) {
		igt_describe("Check the interrupts and timer looks of a backlog of jobs.");
		igt_subtest_f("backlog-%s", backlog_cases[i].name)
			test_backlog(&d, &backlog_cases[i]);
	}

	for (unsigned int i = 0; i < ARRAY_SIZE(queue_cases); i++) {
		igt_describe("Check that jobs of a queue no deeper than a look complete by their interrupts, no timer look.");
		igt_subtest_f("%s", queue_cases[i].name)
			test_queue(&d, &queue_cases[i]);
	}

	igt_describe("Check that closing the file while a timer look is pending frees the DBC.");
	igt_subtest("close-held")
		test_close_held();

	for (unsigned int i = 0; i < ARRAY_SIZE(polling_cases); i++) {
		igt_describe("Check that a DBC polled by datapath_polling completes its jobs "
			     "by timer looks alone.");
		igt_subtest_f("polling-%s", polling_cases[i].name)
			test_polling(&polling_cases[i]);
	}

	igt_fixture {
		igt_qaic_param_restore();
		close(d.fd);
	}
}
