// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The qaic authors.
 */

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "igt_qaic.h"

/**
 * TEST: qaic trace
 * Category: Core
 * Description: The qaic tracepoints, read from a tracefs instance of
 *		their own while a known workload runs.
 * Feature: qaic
 *
 * SUBTEST: job-sequence
 * Description: Check that each job is queued, run and done in order, with its seqno, req_id, requests and ring tail.
 * Run type: FULL
 *
 * SUBTEST: dbc-reset
 * Description: Check that a hung DBC traces its reset, then its stuck job failing with EIO and the next with ECANCELED.
 * Run type: FULL
 *
 * SUBTEST: dbc-state
 * Description: Check that a DBC traces ASSIGNED when activated and IDLE when its file closes.
 * Run type: FULL
 *
 * SUBTEST: card-state
 * Description: Check that a PCI error traces the card stopped, booting and up again.
 * Run type: FULL
 *
 * SUBTEST: crash-frees-nothing
 * Description: Check that nothing a crashed card was given is freed before it is up again: the rings of a DBC, and the rings and pages of a message the crash cut short, of a file closed while the card was down.
 * Run type: FULL
 */

IGT_TEST_DESCRIPTION("Tracepoints of the qaic accel driver.");

#define PAGE		4096ull
#define QUEUE_SIZE	16
#define DEV_ADDR	0xa00000ull
#define MAX_EVENTS	64

static char instance[128];

/* An event: its name and its key=value fields, as text */
struct event {
	char name[32];
	char fields[224];
};

static bool tracefs_events(const char *root)
{
	char path[128];

	snprintf(path, sizeof(path), "%s/events/qaic", root);
	return !access(path, F_OK);
}

static const char *tracefs_root(void)
{
	static const char *const roots[] = {
		"/sys/kernel/tracing", "/sys/kernel/debug/tracing",
	};

	for (unsigned int i = 0; i < ARRAY_SIZE(roots); i++)
		if (tracefs_events(roots[i]))
			return roots[i];
	mount("tracefs", roots[0], "tracefs", 0, NULL);
	return tracefs_events(roots[0]) ? roots[0] : NULL;
}

static void write_file(const char *file, const char *val)
{
	char path[192];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", instance, file);
	fd = open(path, O_WRONLY | O_TRUNC);
	igt_assert_f(fd >= 0, "%s: %s\n", path, strerror(errno));
	igt_assert_eq(write(fd, val, strlen(val)), (int)strlen(val));
	close(fd);
}

/* A tracefs instance of the test's own, with the qaic events on */
static void trace_start(void)
{
	const char *root = tracefs_root();

	igt_require_f(root, "no tracefs events/qaic: a kernel without CONFIG_EVENT_TRACING (the bench's normal kernel), or qaic not loaded\n");
	snprintf(instance, sizeof(instance), "%s/instances/qaic_trace_%d", root, getpid());
	igt_assert_f(!mkdir(instance, 0700), "%s: %s\n", instance, strerror(errno));
	/*
	 * Events are read back in order across CPUs only with a clock that
	 * orders them: the default per-CPU clock of the bench's kernel counts
	 * jiffies, and two CPUs' events of one tick come out in CPU order.
	 */
	write_file("trace_clock", "counter");
	write_file("events/qaic/enable", "1");
}

/* The events of card @bdf; the instance goes */
static int trace_stop(const char *bdf, struct event *ev, int max)
{
	char path[192], line[512], dev[48];
	int n = 0;
	FILE *f;

	write_file("events/qaic/enable", "0");
	snprintf(path, sizeof(path), "%s/trace", instance);
	f = fopen(path, "r");
	igt_assert_f(f, "%s: %s\n", path, strerror(errno));
	snprintf(dev, sizeof(dev), "dev=%s ", bdf);
	while (fgets(line, sizeof(line), f)) {
		char *name = strstr(line, ": qaic_"), *colon, *fields;

		if (line[0] == '#' || !name)
			continue;
		name += 2;
		colon = strchr(name, ':');
		igt_assert(colon);
		*colon = '\0';
		fields = colon + 1;
		while (*fields == ' ')
			fields++;
		fields[strcspn(fields, "\n")] = '\0';
		if (strncmp(fields, dev, strlen(dev)))
			continue;
		igt_assert_f(n < max, "more than %d events\n", max);
		snprintf(ev[n].name, sizeof(ev[n].name), "%s", name);
		snprintf(ev[n].fields, sizeof(ev[n].fields), "%s", fields + strlen(dev));
		igt_debug("event %d: %s %s\n", n, ev[n].name, ev[n].fields);
		n++;
	}
	fclose(f);
	igt_assert_f(!rmdir(instance), "%s: %s\n", instance, strerror(errno));
	instance[0] = '\0';
	return n;
}

/* Field @key of @e as a number; fails the test without it */
static int64_t field(const struct event *e, const char *key)
{
	char pat[32];
	const char *p;

	snprintf(pat, sizeof(pat), "%s=", key);
	for (p = e->fields; (p = strstr(p, pat)); p++)
		if (p == e->fields || p[-1] == ' ')
			return strtoll(p + strlen(pat), NULL, 10);
	igt_assert_f(false, "%s: no %s in \"%s\"\n", e->name, key, e->fields);
	return 0;
}

static const char *text_field(const struct event *e, const char *key, char *buf, size_t len)
{
	char pat[32];
	const char *p;

	snprintf(pat, sizeof(pat), "%s=", key);
	p = strstr(e->fields, pat);
	igt_assert_f(p, "%s: no %s in \"%s\"\n", e->name, key, e->fields);
	p += strlen(pat);
	snprintf(buf, len, "%.*s", (int)strcspn(p, " "), p);
	return buf;
}

/* Index of the first event @name at or after @from with seqno @seqno, or -1 */
static int find(const struct event *ev, int n, int from, const char *name, int64_t seqno)
{
	for (int i = from; i < n; i++)
		if (!strcmp(ev[i].name, name) && (seqno < 0 || field(&ev[i], "seqno") == seqno))
			return i;
	return -1;
}

static void make_bo(int fd, uint32_t dbc, uint32_t slices, struct igt_qaic_bo *bo)
{
	struct qaic_attach_slice_entry e[3];

	igt_qaic_bo_create(fd, slices * PAGE, bo);
	igt_qaic_fill_pattern(bo->ptr, bo->size, slices);
	for (uint32_t i = 0; i < slices; i++)
		igt_qaic_slice_init(&e[i], i * PAGE, PAGE, DEV_ADDR + 2 * i * PAGE);
	igt_qaic_attach_slice(fd, bo->handle, dbc, IGT_QAIC_DIR_TO_DEV, e, slices);
}

/*
 * Three jobs on a fresh DBC: one alone, then two in one execute. Each is
 * queued, run and done in that order; seqnos and req_ids follow each
 * other, the requests are the same in all three events and the tail
 * moves by them.
 */
static void test_job_sequence(void)
{
	struct qaic_execute_entry ents[2];
	struct event ev[MAX_EVENTS];
	struct igt_qaic_bo a, b;
	uint32_t dbc, reqs[3];
	int64_t seqno0 = -1, tail = 0;
	int fd, n, q, r, d, prev_r = -1, prev_d = -1;
	char bdf[32];

	fd = igt_qaic_open_dbc(QUEUE_SIZE, &dbc);
	igt_qaic_card_bdf(fd, bdf, sizeof(bdf));
	make_bo(fd, dbc, 1, &a);
	make_bo(fd, dbc, 3, &b);

	trace_start();
	igt_qaic_execute_bo(fd, dbc, a.handle, IGT_QAIC_DIR_TO_DEV);
	igt_qaic_wait(fd, a.handle, dbc, 10000);
	ents[0] = (struct qaic_execute_entry){ .handle = a.handle, .dir = IGT_QAIC_DIR_TO_DEV };
	ents[1] = (struct qaic_execute_entry){ .handle = b.handle, .dir = IGT_QAIC_DIR_TO_DEV };
	igt_qaic_execute(fd, dbc, ents, 2);
	igt_qaic_wait(fd, b.handle, dbc, 10000);
	n = trace_stop(bdf, ev, MAX_EVENTS);

	reqs[0] = 1;
	reqs[1] = 1;
	reqs[2] = 3;
	igt_assert_eq(n, 9);
	q = find(ev, n, 0, "qaic_job_queued", -1);
	igt_assert_lte(0, q);
	seqno0 = field(&ev[q], "seqno");
	for (int j = 0; j < 3; j++) {
		q = find(ev, n, 0, "qaic_job_queued", seqno0 + j);
		r = find(ev, n, 0, "qaic_job_run", seqno0 + j);
		d = find(ev, n, 0, "qaic_job_done", seqno0 + j);
		igt_assert_f(q >= 0 && r > q && d > r,
			     "job %d: queued at %d, run at %d, done at %d\n", j, q, r, d);
		/* The ring runs and retires in order */
		igt_assert_lt(prev_r, r);
		igt_assert_lt(prev_d, d);
		prev_r = r;
		prev_d = d;

		tail = (tail + reqs[j]) % QUEUE_SIZE;
		for (int k = 0; k < 3; k++) {
			const struct event *e = &ev[k == 0 ? q : k == 1 ? r : d];

			igt_assert_eq(field(e, "dbc"), dbc);
			igt_assert_eq(field(e, "requests"), reqs[j]);
		}
		igt_assert_eq(field(&ev[r], "req_id"), j);
		igt_assert_eq(field(&ev[d], "req_id"), j);
		igt_assert_eq(field(&ev[r], "tail"), tail);
		igt_assert_eq(field(&ev[d], "error"), 0);
	}

	igt_qaic_detach_slice(fd, a.handle);
	igt_qaic_detach_slice(fd, b.handle);
	igt_qaic_bo_destroy(fd, &a);
	igt_qaic_bo_destroy(fd, &b);
	close(fd);
}

/*
 * Two jobs on a hung DBC: both run, the DBC is reset where the card
 * stopped (the first request), the first job fails with EIO and the
 * second, which never ran on the card, with ECANCELED.
 */
static void test_dbc_reset(void)
{
	struct event ev[MAX_EVENTS];
	struct igt_qaic_bo a, b;
	int fd, n, r0, r1, reset, d0, d1;
	int64_t seqno;
	char bdf[32];
	uint32_t dbc;

	fd = igt_qaic_open_dbc(QUEUE_SIZE, &dbc);
	igt_qaic_card_bdf(fd, bdf, sizeof(bdf));
	make_bo(fd, dbc, 1, &a);
	make_bo(fd, dbc, 1, &b);
	igt_qaic_emu_hang_dbc(fd, dbc);

	trace_start();
	igt_qaic_execute_bo(fd, dbc, a.handle, IGT_QAIC_DIR_TO_DEV);
	igt_qaic_execute_bo(fd, dbc, b.handle, IGT_QAIC_DIR_TO_DEV);
	igt_assert_eq(__igt_qaic_wait(fd, b.handle, dbc, 10000), -ECANCELED);
	igt_assert_eq(__igt_qaic_wait(fd, a.handle, dbc, IGT_QAIC_WAIT_LOOK_MS), -EIO);
	n = trace_stop(bdf, ev, MAX_EVENTS);

	seqno = field(&ev[find(ev, n, 0, "qaic_job_queued", -1)], "seqno");
	r0 = find(ev, n, 0, "qaic_job_run", seqno);
	r1 = find(ev, n, 0, "qaic_job_run", seqno + 1);
	reset = find(ev, n, 0, "qaic_dbc_reset", -1);
	d0 = find(ev, n, 0, "qaic_job_done", seqno);
	d1 = find(ev, n, 0, "qaic_job_done", seqno + 1);
	igt_assert_f(r0 >= 0 && r1 > r0 && reset > r1 && d0 > reset && d1 > d0,
		     "run %d, %d, reset %d, done %d, %d\n", r0, r1, reset, d0, d1);
	igt_assert_eq(field(&ev[reset], "dbc"), dbc);
	igt_assert_eq(field(&ev[reset], "reqhp"), 0);
	igt_assert_eq(field(&ev[reset], "tail"), 2);
	igt_assert_eq(field(&ev[d0], "error"), -EIO);
	igt_assert_eq(field(&ev[d1], "error"), -ECANCELED);
	igt_assert_eq(find(ev, n, reset + 1, "qaic_dbc_reset", -1), -1);

	igt_qaic_detach_slice(fd, a.handle);
	igt_qaic_detach_slice(fd, b.handle);
	igt_qaic_bo_destroy(fd, &a);
	igt_qaic_bo_destroy(fd, &b);
	close(fd);
}

/* A DBC activated, then released as its file closes: ASSIGNED, IDLE */
static void test_dbc_state(void)
{
	static const char *const states[] = { "ASSIGNED", "IDLE" };
	struct event ev[MAX_EVENTS];
	char bdf[32], buf[32];
	int fd, other, n, at = 0;
	uint32_t dbc;

	other = igt_qaic_open();
	igt_qaic_card_bdf(other, bdf, sizeof(bdf));
	trace_start();
	fd = igt_qaic_open_dbc(QUEUE_SIZE, &dbc);
	close(fd);
	n = trace_stop(bdf, ev, MAX_EVENTS);

	for (int i = 0; i < n; i++) {
		if (strcmp(ev[i].name, "qaic_dbc_state") || field(&ev[i], "dbc") != dbc)
			continue;
		igt_assert_f(at < (int)ARRAY_SIZE(states), "event %d: %s %s after IDLE\n",
			     i, ev[i].name, ev[i].fields);
		igt_assert_f(!strcmp(text_field(&ev[i], "state", buf, sizeof(buf)),
				     states[at]),
			     "DBC %u state %d: %s, expected %s\n", dbc, at, buf, states[at]);
		at++;
	}
	igt_assert_eq(at, ARRAY_SIZE(states));
	close(other);
}

/* A PCI error (the link working): stopped, booting, up, once each */
static void test_card_state(void)
{
	static const char *const states[] = { "stopped", "booting", "up" };
	struct event ev[MAX_EVENTS];
	char bdf[32], path[128], buf[32];
	uint64_t start;
	uint32_t dbc;
	int fd, dfd, n, at = 0;
	int ret;

	fd = igt_qaic_open();
	igt_qaic_card_bdf(fd, bdf, sizeof(bdf));
	snprintf(path, sizeof(path), "/sys/kernel/debug/accel/%s/pci_error", bdf);
	igt_require_f(!access(path, W_OK), "no %s\n", path);

	trace_start();
	dfd = open(path, O_WRONLY);
	igt_assert_fd(dfd);
	igt_assert_eq(write(dfd, "normal", 6), 6);
	close(dfd);
	/* The card is back when a DBC can be had again */
	start = igt_qaic_now_ms();
	while ((ret = __igt_qaic_activate(fd, QUEUE_SIZE, &dbc)) == -ENODEV &&
	       igt_qaic_now_ms() - start < 20000)
		usleep(50000);
	igt_assert_eq(ret, 0);
	n = trace_stop(bdf, ev, MAX_EVENTS);

	for (int i = 0; i < n; i++) {
		if (strcmp(ev[i].name, "qaic_card_state"))
			continue;
		igt_assert_f(at < (int)ARRAY_SIZE(states), "event %d: %s %s after up\n",
			     i, ev[i].name, ev[i].fields);
		igt_assert_f(!strcmp(text_field(&ev[i], "state", buf, sizeof(buf)),
				     states[at]),
			     "card state %d: %s, expected %s\n", at, buf, states[at]);
		at++;
	}
	igt_assert_eq(at, ARRAY_SIZE(states));
	close(fd);
}

#define CRASH_XFER	(64 * 1024)
#define CRASH_EVENTS	512

/*
 * A file holds a DBC, sends a message with an activate and a DMA transfer
 * to a card whose manager went silent, the card crashes: the message fails
 * with EIO and the file is closed at once, while the card is still down.
 * Until the card's reset the crashed card may reach all of it (the DBC's
 * rings, the activate's rings it may have granted, the pages it may be
 * reading): each is parked, and freed only once the card is up again.
 */
static void test_crash_frees_nothing(void)
{
	struct event *ev = calloc(CRASH_EVENTS, sizeof(*ev));
	struct igt_qaic_msg *msg = malloc(sizeof(*msg));
	int owner, other, ret, n, crash = -1, up = -1, parked = 0, freed = 0;
	char bdf[32], buf[32];
	uint64_t start;
	uint32_t dbc;
	void *pages;

	igt_assert(ev && msg);
	pages = aligned_alloc(PAGE, CRASH_XFER);
	igt_assert(pages);
	memset(pages, 0x5a, CRASH_XFER);
	owner = igt_qaic_open();
	other = igt_qaic_open();
	igt_qaic_card_bdf(owner, bdf, sizeof(bdf));
	igt_qaic_activate(owner, QUEUE_SIZE);

	trace_start();
	ret = __igt_qaic_emu_sys_error(owner, 500);
	igt_require_f(ret != IGT_QAIC_EMU_PT_E_UNKNOWN_OP, "the emulator cannot crash\n");
	igt_assert_eq(ret, 0);
	igt_assert_eq(__igt_qaic_emu_silence(owner), 0);
	igt_qaic_msg_init(msg);
	igt_qaic_msg_activate(msg, QUEUE_SIZE, 0);
	igt_qaic_msg_dma_xfer(msg, 1, (uintptr_t)pages, CRASH_XFER);
	igt_assert_eq(__igt_qaic_manage(owner, msg), -EIO);
	close(owner);

	/* The card is back when a DBC can be had again */
	start = igt_qaic_now_ms();
	while ((ret = __igt_qaic_activate(other, QUEUE_SIZE, &dbc)) == -ENODEV &&
	       igt_qaic_now_ms() - start < 60000)
		usleep(50000);
	igt_assert_eq(ret, 0);
	n = trace_stop(bdf, ev, CRASH_EVENTS);

	for (int i = 0; i < n; i++) {
		if (!strcmp(ev[i].name, "qaic_card_state")) {
			text_field(&ev[i], "state", buf, sizeof(buf));
			if (crash < 0 && strstr(ev[i].fields, "why=system error"))
				crash = i;
			else if (crash >= 0 && up < 0 && !strcmp(buf, "up"))
				up = i;
			continue;
		}
		if (crash < 0 || strcmp(ev[i].name, "qaic_card_memory"))
			continue;
		text_field(&ev[i], "action", buf, sizeof(buf));
		if (up < 0) {
			igt_assert_f(strcmp(buf, "freed"),
				     "event %d: %s, while the crashed card was not reset\n", i,
				     ev[i].fields);
			parked++;
		} else {
			freed += !strcmp(buf, "freed");
		}
	}
	igt_assert_f(crash >= 0 && up > crash, "no system error then up in %d events\n", n);
	/* The DBC's rings, the activate's rings, the transfer's pages */
	igt_assert_lte(3, parked);
	igt_assert_lte(3, freed);

	close(other);
	free(pages);
	free(msg);
	free(ev);
}

igt_main
{
	igt_describe("Check that each job is queued, run and done in order, with its seqno, req_id, requests and ring tail.");
	igt_subtest("job-sequence")
		test_job_sequence();

	igt_describe("Check that a hung DBC traces its reset, then its stuck job failing with EIO and the next with ECANCELED.");
	igt_subtest("dbc-reset")
		test_dbc_reset();

	igt_describe("Check that a DBC traces ASSIGNED when activated and IDLE when its file closes.");
	igt_subtest("dbc-state")
		test_dbc_state();

	igt_describe("Check that a PCI error traces the card stopped, booting and up again.");
	igt_subtest("card-state")
		test_card_state();

	igt_describe("Check that nothing a crashed card was given is freed before it is up again: the rings of a DBC, and the rings and pages of a message the crash cut short, of a file closed while the card was down.");
	igt_subtest("crash-frees-nothing")
		test_crash_frees_nothing();

	igt_fixture {
		/* A failed subtest may have left its instance */
		if (instance[0])
			rmdir(instance);
	}
}
