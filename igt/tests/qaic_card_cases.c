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
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "dbc_cases.h"
#include "igt_qaic.h"
#include "igt_qaic_boot.h"
#include "ras_cases.h"
#include "ssr_cases.h"
#include "timesync_cases.h"

/**
 * TEST: qaic card cases
 * Category: Core
 * Description: The systematic cases of the emulated card's SSR messages
 *		and RAS reports, all in one boot: every field at its boundary
 *		values, SSR events out of their order.
 * Feature: qaic
 *
 * SUBTEST: ssr-%s
 * Description: Check that the driver takes or refuses the case's SSR
 *		messages as tests/emu/ssr_cases.c says (the state of every
 *		DBC afterwards), that a DBC the case moved comes back through
 *		a real restart and runs work, with no kernel report.
 * Run type: FULL
 *
 * SUBTEST: ras-%s
 * Description: Check that the driver counts or refuses the case's RAS
 *		report as tests/emu/ras_cases.c says, nothing else moving,
 *		and that the card then runs work, with no kernel report.
 * Run type: FULL
 *
 * SUBTEST: dbc-%s
 * Description: Check that on a fresh DBC, one job done, the driver
 *		completes or fails the next job whose response or ring index
 *		the card crafts as tests/emu/dbc_cases.c says, at once or
 *		after job_timeout_ms, counts the stray responses the table
 *		says, and that a round trip then goes through the DBC, with no
 *		kernel report.
 * Run type: FULL
 *
 * SUBTEST: timesync-%s
 * Description: Check that with the card's QTimer held at the case's value
 *		the driver sends its periodic time syncs or none, as
 *		tests/emu/timesync_cases.c says, that with the QTimer running
 *		again they are good again, and that the card runs work, with
 *		no kernel report.
 * Run type: FULL
 */

IGT_TEST_DESCRIPTION("The systematic cases of the emulated card's SSR messages and RAS "
		     "reports, all in one boot: every field at its boundary values, SSR "
		     "events out of their order.");

#define NR_DBC		16
#define QUEUE_SIZE	16
#define SZ_4K		4096ull
#define DEV_ADDR	(56ull << 20)
#define WAIT_MS		10000
/* Time for a message the driver refuses to have been refused. */
#define SETTLE_US	(150 * 1000)

static int fd = -1;
static char bdf[32];
static unsigned int seed;

static int accel_minor(void)
{
	struct stat st;

	igt_assert_eq(fstat(fd, &st), 0);
	return minor(st.st_rdev);
}

static int dbc_state(uint32_t id)
{
	char path[128];

	snprintf(path, sizeof(path), "/sys/class/accel/accel%d/dbc%u_state", accel_minor(), id);
	return igt_qaic_read_int(path);
}

static void wait_state(uint32_t id, int want)
{
	uint64_t start = igt_qaic_now_ms();
	int got;

	while ((got = dbc_state(id)) != want && igt_qaic_now_ms() - start < WAIT_MS)
		usleep(10000);
	igt_assert_f(got == want, "DBC %u: state %d (%s), not %d (%s)\n", id, got,
		     emu_ssr_case_state_name(got), want, emu_ssr_case_state_name(want));
}

/* The card with all its DBCs active, every one this file's. */
static void setup(void)
{
	uint32_t id;
	bool have[NR_DBC] = { false };

	fd = igt_qaic_open();
	igt_qaic_card_bdf(fd, bdf, sizeof(bdf));
	igt_require_f(dbc_state(0) >= 0, "the driver has no dbc<N>_state files\n");
	for (unsigned int i = 0; i < NR_DBC; i++) {
		id = igt_qaic_activate(fd, QUEUE_SIZE);
		igt_assert(id < NR_DBC && !have[id]);
		have[id] = true;
	}
}

static void send_case(uint32_t table, uint32_t idx)
{
	int ret = __igt_qaic_emu_card_case(fd, table, idx);

	igt_require_f(ret != IGT_QAIC_EMU_PT_E_UNKNOWN_OP, "the emulator has no EMU_PT_CARD_CASE\n");
	igt_assert_eq(ret, 0);
}

/* DBC @id back through a real restart, active again, and work through it. */
static void restore(uint32_t id)
{
	uint32_t again;

	uint64_t start;
	int ret;

	igt_assert_eq(__igt_qaic_emu_ssr(fd, id, IGT_QAIC_EMU_SSR_NORMAL), 0);
	wait_state(id, EMU_SSR_STATE_IDLE);
	/*
	 * A case that ended IDLE (the card's own walk) is IDLE before the
	 * restart too: an activate may meet the restart and be cancelled.
	 */
	start = igt_qaic_now_ms();
	while ((ret = __igt_qaic_activate(fd, QUEUE_SIZE, &again)) &&
	       (ret == -ECANCELED || ret == -EPIPE) && igt_qaic_now_ms() - start < WAIT_MS)
		usleep(10000);
	igt_assert_eq(ret, 0);
	igt_assert_eq_u32(again, id);
	igt_qaic_round_trip(fd, id, DEV_ADDR + id * SZ_4K, SZ_4K, ++seed);
}

static void run_ssr(unsigned int idx)
{
	const struct emu_ssr_case *c = &emu_ssr_cases[idx];
	size_t from;

	igt_require(fd >= 0);
	for (uint32_t d = 0; d < NR_DBC; d++)
		igt_assert_eq(dbc_state(d), EMU_SSR_STATE_ASSIGNED);
	from = strlen(igt_qaic_kernel_log());

	send_case(IGT_QAIC_EMU_CASE_SSR, idx);
	if (c->state != EMU_SSR_STATE_ASSIGNED)
		wait_state(c->dbc, c->state);
	usleep(SETTLE_US);
	igt_info("%s: DBC %u %s\n", c->name, c->dbc, emu_ssr_case_state_name(dbc_state(c->dbc)));
	for (uint32_t d = 0; d < NR_DBC; d++)
		igt_assert_f(dbc_state(d) == (d == c->dbc ? c->state : EMU_SSR_STATE_ASSIGNED),
			     "DBC %u: state %d\n", d, dbc_state(d));

	if (c->state != EMU_SSR_STATE_ASSIGNED)
		restore(c->dbc);
	else
		igt_qaic_round_trip(fd, c->dbc, DEV_ADDR + c->dbc * SZ_4K, SZ_4K, ++seed);
	igt_qaic_assert_clean_log(from);
}

struct ras_counts {
	int ce, ue, ue_nf, refused;
};

static struct ras_counts ras_counts(void)
{
	char path[160];
	struct ras_counts r;

	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/ce_count", bdf);
	r.ce = igt_qaic_read_int(path);
	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/ue_count", bdf);
	r.ue = igt_qaic_read_int(path);
	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/ue_nonfatal_count", bdf);
	r.ue_nf = igt_qaic_read_int(path);
	snprintf(path, sizeof(path), "/sys/kernel/debug/accel/%s/ras_refused", bdf);
	r.refused = igt_qaic_read_int(path);
	return r;
}

static bool ras_equal(struct ras_counts a, struct ras_counts b)
{
	return !memcmp(&a, &b, sizeof(a));
}

static void run_ras(unsigned int idx)
{
	const struct emu_ras_case *c = &emu_ras_cases[idx];
	struct ras_counts want, got;
	uint64_t start;
	size_t from;

	igt_require(fd >= 0);
	want = ras_counts();
	igt_require_f(want.ce >= 0 && want.refused >= 0, "the driver has no RAS counters\n");
	from = strlen(igt_qaic_kernel_log());

	send_case(IGT_QAIC_EMU_CASE_RAS, idx);
	if (c->verdict == EMU_RAS_CASE_CE)
		want.ce++;
	else if (c->verdict == EMU_RAS_CASE_UE_NF)
		want.ue_nf++;
	else
		want.refused++;
	start = igt_qaic_now_ms();
	while (!ras_equal(got = ras_counts(), want) && igt_qaic_now_ms() - start < WAIT_MS)
		usleep(10000);
	usleep(SETTLE_US);
	got = ras_counts();
	igt_info("%s %s: ce %d ue %d ue_nf %d refused %d\n", c->name,
		 emu_ras_case_verdict_name(c->verdict), got.ce, got.ue, got.ue_nf, got.refused);
	igt_assert_f(ras_equal(got, want), "not ce %d ue %d ue_nf %d refused %d\n",
		     want.ce, want.ue, want.ue_nf, want.refused);
	igt_qaic_round_trip(fd, 0, DEV_ADDR, SZ_4K, ++seed);
	igt_qaic_assert_clean_log(from);
}

/* The DBC of the DBC cases, released and activated again for each. */
#define CASE_DBC	2

static long long bad_responses(uint32_t id)
{
	char path[160], line[128];
	long long n = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/kernel/debug/accel/%s/dbc%03u/state", bdf, id);
	f = fopen(path, "r");
	igt_require_f(f, "no %s\n", path);
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "bad_responses: %lld", &n) == 1)
			break;
	fclose(f);
	igt_assert_f(n >= 0, "no bad_responses in %s\n", path);
	return n;
}

/* One job: @bo's slice to the device; its wait's outcome and how long it took. */
static int dbc_job(uint32_t id, uint32_t handle, uint64_t *ms)
{
	uint64_t start = igt_qaic_now_ms();
	int ret;

	igt_qaic_execute_bo(fd, id, handle, IGT_QAIC_DIR_TO_DEV);
	ret = __igt_qaic_wait(fd, handle, id, 30000);
	*ms = igt_qaic_now_ms() - start;
	return ret;
}

static void run_dbc(unsigned int idx)
{
	const struct emu_dbc_case *c = &emu_dbc_cases[idx];
	uint32_t timeout = igt_qaic_job_timeout_ms();
	struct igt_qaic_bo bo;
	long long bad0, bad;
	bool late, eio;
	uint64_t ms, start;
	size_t from;
	uint32_t id;
	int ret;

	igt_require(fd >= 0);
	from = strlen(igt_qaic_kernel_log());
	/* A fresh DBC: its rings from 0. */
	igt_qaic_release_dbc(fd, CASE_DBC);
	start = igt_qaic_now_ms();
	while ((ret = __igt_qaic_activate(fd, QUEUE_SIZE, &id)) == -ECANCELED &&
	       igt_qaic_now_ms() - start < WAIT_MS)
		usleep(10000);
	igt_assert_eq(ret, 0);
	igt_assert_eq_u32(id, CASE_DBC);
	igt_qaic_bo_create(fd, SZ_4K, &bo);
	igt_qaic_attach_simple(fd, bo.handle, id, IGT_QAIC_DIR_TO_DEV, SZ_4K,
			       DEV_ADDR + id * SZ_4K);
	igt_assert_eq(dbc_job(id, bo.handle, &ms), 0);
	bad0 = bad_responses(id);

	if (c->field == EMU_DBC_CASE_REQHP)
		igt_assert_eq(__igt_qaic_emu_hang_dbc(fd, id), 0);
	send_case(IGT_QAIC_EMU_CASE_DBC, idx);
	ret = dbc_job(id, bo.handle, &ms);
	bad = bad_responses(id) - bad0;
	igt_info("%s %s: wait %d after %llu ms, %lld stray responses\n", c->name,
		 emu_dbc_case_verdict_name(c->verdict), ret, (unsigned long long)ms, bad);

	late = c->verdict == EMU_DBC_CASE_LATE || c->verdict == EMU_DBC_CASE_EIO_LATE;
	eio = c->verdict == EMU_DBC_CASE_EIO || c->verdict == EMU_DBC_CASE_EIO_LATE;
	igt_assert_f(ret == (eio ? -EIO : 0), "wait %d, not %d\n", ret, eio ? -EIO : 0);
	if (late)
		igt_assert_f(ms >= timeout * 8 / 10, "done after %llu ms, before the timeout (%u)\n",
			     (unsigned long long)ms, timeout);
	else
		igt_assert_f(ms < timeout / 2, "done after %llu ms, the timeout %u ms\n",
			     (unsigned long long)ms, timeout);
	if (c->bad == EMU_DBC_CASE_SOME)
		igt_assert_f(bad > 0, "no stray responses counted\n");
	else
		igt_assert_f(bad == c->bad, "%lld stray responses, not %d\n", bad, c->bad);

	/* The DBC works: the same job, and a round trip. */
	igt_assert_eq(dbc_job(id, bo.handle, &ms), 0);
	igt_qaic_detach_slice(fd, bo.handle);
	igt_qaic_bo_destroy(fd, &bo);
	igt_qaic_round_trip(fd, id, DEV_ADDR + id * SZ_4K, SZ_4K, ++seed);
	igt_qaic_assert_clean_log(from);
}

/* The period of the host's time syncs during the cases, and how long to count. */
#define TS_DELAY_MS	"100"
#define TS_SETTLE_US	(350 * 1000)
#define TS_COUNT_US	(700 * 1000)

/*
 * The period at 100 ms, for the process (igt/run runs a subtest a
 * process; the fixture at the end puts it back): once the sync the old
 * period had scheduled went (at most 2 s), the work goes by the new one.
 */
static void ts_fast(void)
{
	static bool fast;
	int n;

	if (fast)
		return;
	n = atoi(igt_qaic_param_set("timesync_delay_ms", TS_DELAY_MS));
	fast = true;
	usleep((n > 0 && n < 2000 ? n : 2000) * 1000 + 50 * 1000);
}

/* The syncs the card saw in TS_COUNT_US, after TS_SETTLE_US. */
static void ts_count(uint64_t *good, uint64_t *bad)
{
	struct igt_qaic_emu_timesync a, b;

	usleep(TS_SETTLE_US);
	igt_assert_eq(__igt_qaic_emu_timesync(fd, &a), 0);
	usleep(TS_COUNT_US);
	igt_assert_eq(__igt_qaic_emu_timesync(fd, &b), 0);
	*good = b.periodic_good - a.periodic_good;
	*bad = b.periodic_bad - a.periodic_bad;
}

static void run_ts(unsigned int idx)
{
	const struct emu_ts_case *c = &emu_ts_cases[idx];
	uint64_t good, bad;
	size_t from;

	igt_require(fd >= 0);
	ts_fast();
	from = strlen(igt_qaic_kernel_log());

	send_case(IGT_QAIC_EMU_CASE_TIMESYNC, idx);
	ts_count(&good, &bad);
	igt_info("%s %s: %llu good, %llu bad\n", c->name, emu_ts_case_verdict_name(c->verdict),
		 (unsigned long long)good, (unsigned long long)bad);
	if (c->verdict == EMU_TS_CASE_SENT)
		igt_assert_f(good >= 2 && !bad, "syncs: %llu good, %llu bad\n",
			     (unsigned long long)good, (unsigned long long)bad);
	else
		igt_assert_f(!good && !bad, "syncs: %llu good, %llu bad\n",
			     (unsigned long long)good, (unsigned long long)bad);

	/* The QTimer runs again: good syncs again. */
	send_case(IGT_QAIC_EMU_CASE_TIMESYNC, 0);
	ts_count(&good, &bad);
	igt_assert_f(good >= 2 && !bad, "after: %llu good, %llu bad\n",
		     (unsigned long long)good, (unsigned long long)bad);
	igt_qaic_round_trip(fd, 0, DEV_ADDR, SZ_4K, ++seed);
	igt_qaic_assert_clean_log(from);
}

igt_main
{
	igt_fixture
		setup();

	for (unsigned int i = 0; i < emu_ssr_nr_cases; i++) {
		igt_describe("The driver takes or refuses the SSR case's messages as the table "
			     "of tests/emu/ssr_cases.c says, and the DBC works again.");
		igt_subtest_f("ssr-%s", emu_ssr_cases[i].name)
			run_ssr(i);
	}
	for (unsigned int i = 0; i < emu_ras_nr_cases; i++) {
		igt_describe("The driver counts or refuses the RAS case's report as the table "
			     "of tests/emu/ras_cases.c says.");
		igt_subtest_f("ras-%s", emu_ras_cases[i].name)
			run_ras(i);
	}

	for (unsigned int i = 0; i < emu_dbc_nr_cases; i++) {
		igt_describe("The driver completes or fails the job whose response or ring "
			     "index the card crafts as tests/emu/dbc_cases.c says, and the "
			     "DBC works again.");
		igt_subtest_f("dbc-%s", emu_dbc_cases[i].name)
			run_dbc(i);
	}

	/* Case 0 lets the QTimer run: it is what every case goes back to. */
	for (unsigned int i = 1; i < emu_ts_nr_cases; i++) {
		igt_describe("The driver sends its time syncs or none with the card's QTimer "
			     "held as tests/emu/timesync_cases.c says, and good ones after.");
		igt_subtest_f("timesync-%s", emu_ts_cases[i].name)
			run_ts(i);
	}

	igt_fixture {
		igt_qaic_param_restore();
		if (fd >= 0)
			igt_qaic_close(fd);
		igt_qaic_kernel_log_free();
	}
}
