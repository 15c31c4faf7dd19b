// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The qaic authors.
 */

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "igt_qaic.h"
#include "igt_qaic_stats.h"
#include "igt_qaic_sync.h"

/**
 * TEST: qaic fdinfo
 * Category: Core
 * Description: What /proc/<pid>/fdinfo tells of a qaic file: its
 *		identity, the time it kept each DMA Bridge Channel busy, and
 *		the memory of its buffer objects.
 * Feature: qaic
 *
 * SUBTEST: idle-file
 * Description: Check that a file that did nothing, or only activated a DBC, reports zeros.
 * Run type: BAT
 *
 * SUBTEST: client-id
 * Description: Check that each open file has its own drm-client-id and a dup() shares it.
 * Run type: FULL
 *
 * SUBTEST: pdev
 * Description: Check that drm-driver is qaic and drm-pdev is the card's PCI function.
 * Run type: FULL
 *
 * SUBTEST: busy-sequential
 * Description: Check that the busy time of a DBC grows by the device time of each job run.
 * Run type: FULL
 *
 * SUBTEST: busy-overlapping
 * Description: Check that jobs on the ring together (of a hung DBC) count once, and waiting for a fence not at all.
 * Run type: FULL
 *
 * SUBTEST: memory
 * Description: Check that the memory keys follow an object created, mapped, sliced and freed.
 * Run type: FULL
 *
 * SUBTEST: memory-shared
 * Description: Check that an exported object counts as shared memory.
 * Run type: FULL
 *
 * SUBTEST: memory-active
 * Description: Check that an object with a job not done counts as active memory.
 * Run type: FULL
 *
 * SUBTEST: qaic-info
 * Description: Check that qaic-info --json shows each open file once, with its busy time and memory.
 * Run type: FULL
 */

IGT_TEST_DESCRIPTION("fdinfo of the qaic accel driver: client, busy time per DBC, memory.");

#define PAGE		4096ull
#define QUEUE_SIZE	1024
#define DEV_ADDR	0x400000ull
#define NJOBS		3
#define GATE_MS		200

static void assert_engines(const struct igt_qaic_fdinfo *info, int busy_dbc)
{
	igt_assert_eq_u32(info->nengines, IGT_QAIC_NUM_DBC);
	for (int i = 0; i < IGT_QAIC_NUM_DBC; i++) {
		if (i == busy_dbc)
			continue;
		igt_assert_f(!info->engine_ns[i], "drm-engine-dbc%d: %" PRIu64 " ns\n",
			     i, info->engine_ns[i]);
	}
}

static void assert_no_memory(const struct igt_qaic_fdinfo *info)
{
	/*
	 * Without objects every kernel prints total and shared (6.12 adds
	 * active; 7.2 prints active, resident and purgeable only when an
	 * object is so): the keys there must say zero.
	 */
	igt_assert_f((info->memory_keys & (IGT_QAIC_MEM_TOTAL | IGT_QAIC_MEM_SHARED)) ==
		     (IGT_QAIC_MEM_TOTAL | IGT_QAIC_MEM_SHARED),
		     "drm-total-memory or drm-shared-memory missing (keys %#x)\n",
		     info->memory_keys);
	igt_assert_eq_u64(info->total, 0);
	igt_assert_eq_u64(info->shared, 0);
	igt_assert_eq_u64(info->active, 0);
	igt_assert_eq_u64(info->resident, 0);
	igt_assert_eq_u64(info->purgeable, 0);
}

static void test_idle_file(void)
{
	struct igt_qaic_fdinfo info;
	uint32_t dbc;
	int fd;

	fd = igt_qaic_open();
	igt_qaic_fdinfo(fd, &info);
	igt_assert(info.has_client_id);
	assert_engines(&info, -1);
	assert_no_memory(&info);
	igt_qaic_close(fd);

	/* A DBC held but never used was not busy */
	fd = igt_qaic_open_dbc(QUEUE_SIZE, &dbc);
	igt_qaic_fdinfo(fd, &info);
	assert_engines(&info, -1);
	assert_no_memory(&info);
	igt_qaic_close(fd);
}

static void test_client_id(void)
{
	struct igt_qaic_fdinfo a, b, c, d;
	int fa, fb, fc, fd;

	fa = igt_qaic_open();
	fb = igt_qaic_open();
	fc = igt_qaic_open();
	fd = dup(fa);
	igt_assert_fd(fd);

	igt_qaic_fdinfo(fa, &a);
	igt_qaic_fdinfo(fb, &b);
	igt_qaic_fdinfo(fc, &c);
	igt_qaic_fdinfo(fd, &d);
	igt_assert(a.has_client_id && b.has_client_id && c.has_client_id);
	igt_assert_f(a.client_id != b.client_id && a.client_id != c.client_id &&
		     b.client_id != c.client_id,
		     "drm-client-id %" PRIu64 ", %" PRIu64 ", %" PRIu64 "\n",
		     a.client_id, b.client_id, c.client_id);
	/* The same open file behind another descriptor */
	igt_assert_eq_u64(d.client_id, a.client_id);

	igt_qaic_close(fd);
	igt_qaic_close(fc);
	igt_qaic_close(fb);
	igt_qaic_close(fa);
}

static void test_pdev(void)
{
	struct igt_qaic_fdinfo info;
	char bdf[32];
	int fd;

	fd = igt_qaic_open();
	igt_qaic_card_bdf(fd, bdf, sizeof(bdf));
	igt_qaic_fdinfo(fd, &info);
	igt_assert_f(!strcmp(info.driver, "qaic"), "drm-driver: %s\n", info.driver);
	igt_assert_f(!strcmp(info.pdev, bdf), "drm-pdev: \"%s\", card %s\n",
		     info.pdev, bdf);
	igt_qaic_close(fd);
}

/* One-slice object of @size to or from the device at DEV_ADDR */
static void job_bo(int fd, uint32_t dbc, uint32_t dir, uint64_t size,
		   struct igt_qaic_bo *bo)
{
	igt_qaic_bo_create(fd, size, bo);
	igt_qaic_fill_pattern(bo->ptr, size, size);
	igt_qaic_attach_simple(fd, bo->handle, dbc, dir, size, DEV_ADDR);
}

static uint32_t device_us(int fd, uint32_t dbc, uint32_t handle)
{
	struct qaic_perf_stats_entry e = { .handle = handle };

	igt_qaic_perf_stats(fd, dbc, &e, 1);
	igt_assert_lt(0, e.num_queue_element);
	return e.device_latency_us;
}

/*
 * One job at a time: the DBC is busy exactly while each job is on the
 * ring, which is the device latency PERF_STATS_BO reports (in whole
 * microseconds, rounded down).
 */
static void test_busy_sequential(void)
{
	static const uint64_t sizes[] = { PAGE, 16 * PAGE, 256 * PAGE, 8 * PAGE };
	struct igt_qaic_fdinfo before, after, other;
	uint64_t sum_us = 0, prev;
	struct igt_qaic_bo bo;
	uint32_t dbc;
	int fd, idle;

	fd = igt_qaic_open_dbc(QUEUE_SIZE, &dbc);
	idle = igt_qaic_open();
	igt_qaic_fdinfo(fd, &before);
	igt_assert_eq_u64(before.engine_ns[dbc], 0);
	prev = 0;

	for (unsigned int i = 0; i < ARRAY_SIZE(sizes); i++) {
		uint32_t dir = i & 1 ? IGT_QAIC_DIR_FROM_DEV : IGT_QAIC_DIR_TO_DEV;

		job_bo(fd, dbc, dir, sizes[i], &bo);
		igt_qaic_execute_bo(fd, dbc, bo.handle, dir);
		igt_qaic_wait(fd, bo.handle, dbc, 10000);
		sum_us += device_us(fd, dbc, bo.handle);

		igt_qaic_fdinfo(fd, &after);
		assert_engines(&after, dbc);
		igt_assert_f(after.engine_ns[dbc] > prev,
			     "job %u: busy %" PRIu64 " ns, was %" PRIu64 "\n",
			     i, after.engine_ns[dbc], prev);
		igt_assert_f(after.engine_ns[dbc] >= sum_us * 1000 &&
			     after.engine_ns[dbc] < (sum_us + i + 1) * 1000,
			     "job %u: busy %" PRIu64 " ns, device time %" PRIu64 " us\n",
			     i, after.engine_ns[dbc], sum_us);
		prev = after.engine_ns[dbc];
		igt_qaic_detach_slice(fd, bo.handle);
		igt_qaic_bo_destroy(fd, &bo);
	}
	igt_info("%zu jobs: busy %" PRIu64 " ns, device time %" PRIu64 " us\n",
		 ARRAY_SIZE(sizes), prev, sum_us);

	/* Another file's work is not this one's */
	igt_qaic_fdinfo(idle, &other);
	assert_engines(&other, -1);
	igt_qaic_close(idle);
	igt_qaic_close(fd);
}

/*
 * NJOBS jobs wait behind a gate, then all go on the ring of a DBC that
 * hangs until the job timeout resets it: they are on the ring together
 * for that long, whatever the timing of the card. The wait behind the
 * gate counts for nothing, and the jobs count once: no more than the time
 * from the gate's opening to the reset, no less than the last job's own
 * device time, though their device times add up to NJOBS times that.
 */
static void test_busy_overlapping(void)
{
	struct qaic_execute_entry ents[NJOBS];
	struct igt_qaic_bo bo[NJOBS];
	struct igt_qaic_fdinfo info;
	uint32_t gate_obj, last_us = 0;
	uint64_t sum_us = 0, t0, t1, t2;
	struct qaic_sync in;
	struct qaic_submit submit;
	struct igt_qaic_gate gate;
	uint32_t dbc;
	int fd, ret;

	fd = igt_qaic_open_dbc(QUEUE_SIZE, &dbc);
	for (int i = 0; i < NJOBS; i++) {
		job_bo(fd, dbc, IGT_QAIC_DIR_TO_DEV, PAGE, &bo[i]);
		ents[i] = (struct qaic_execute_entry){
			.handle = bo[i].handle,
			.dir = IGT_QAIC_DIR_TO_DEV,
		};
	}
	gate_obj = igt_qaic_syncobj_create(fd);
	igt_qaic_gate_init(fd, gate_obj, 0, &gate);
	in = (struct qaic_sync){ .handle = gate_obj };
	submit = (struct qaic_submit){
		.hdr = { .count = NJOBS, .dbc_id = dbc },
		.data = to_user_pointer(ents),
		.in_syncs = to_user_pointer(&in),
		.in_sync_count = 1,
	};

	t0 = igt_qaic_sync_now_ns();
	igt_assert_eq(__igt_qaic_submit_raw(fd, &submit), 0);
	usleep(GATE_MS * 1000);
	igt_qaic_fdinfo(fd, &info);
	igt_assert_eq_u64(info.engine_ns[dbc], 0);

	igt_qaic_emu_hang_dbc(fd, dbc);
	t1 = igt_qaic_sync_now_ns();
	igt_qaic_gate_open(&gate);
	for (int i = 0; i < NJOBS; i++) {
		ret = __igt_qaic_wait(fd, bo[i].handle, dbc, 20000);
		igt_assert_f(ret == (i ? -ECANCELED : -EIO), "job %d: %s\n", i,
			     igt_qaic_err_name(-ret));
	}
	t2 = igt_qaic_sync_now_ns();

	for (int i = 0; i < NJOBS; i++) {
		last_us = device_us(fd, dbc, bo[i].handle);
		igt_debug("job %d: device time %u us\n", i, last_us);
		sum_us += last_us;
	}
	igt_qaic_fdinfo(fd, &info);
	assert_engines(&info, dbc);
	igt_info("%d jobs: busy %" PRIu64 " ns, gate to done %" PRIu64
		 " ns, since submit %" PRIu64 " ns, device times %" PRIu64
		 " us, last %u us\n", NJOBS, info.engine_ns[dbc], t2 - t1,
		 t2 - t0, sum_us, last_us);
	igt_assert_cmpu64(last_us * 1000ull, <=, >, info.engine_ns[dbc]);
	igt_assert_f(info.engine_ns[dbc] <= t2 - t1,
		     "busy %" PRIu64 " ns, more than the %" PRIu64
		     " ns from the gate's opening to the last completion\n",
		     info.engine_ns[dbc], t2 - t1);
	/* The jobs did overlap: counting each would have exceeded that */
	igt_assert_f(sum_us * 1000 > t2 - t1,
		     "device times %" PRIu64 " us: the jobs did not overlap\n",
		     sum_us);

	for (int i = 0; i < NJOBS; i++) {
		igt_qaic_detach_slice(fd, bo[i].handle);
		igt_qaic_bo_destroy(fd, &bo[i]);
	}
	igt_qaic_syncobj_destroy(fd, gate_obj);
	igt_qaic_close(fd);
}

static void assert_memory(int fd, uint64_t total, uint64_t resident,
			  const char *what)
{
	struct igt_qaic_fdinfo info;

	igt_qaic_fdinfo(fd, &info);
	igt_assert_f(info.total == total && info.resident == resident &&
		     !info.shared && !info.active && !info.purgeable,
		     "%s: total %" PRIu64 " resident %" PRIu64 " shared %" PRIu64
		     " active %" PRIu64 " purgeable %" PRIu64 ", expected total %"
		     PRIu64 " resident %" PRIu64 "\n", what, info.total,
		     info.resident, info.shared, info.active, info.purgeable,
		     total, resident);
}

static void test_memory(void)
{
	const uint64_t a_size = 3 * PAGE, b_size = 256 * PAGE;
	uint32_t a, b, dbc;
	void *ptr;
	int fd;

	fd = igt_qaic_open_dbc(QUEUE_SIZE, &dbc);
	assert_memory(fd, 0, 0, "no objects");

	/* Pages come when first needed */
	a = igt_qaic_create_bo(fd, a_size);
	assert_memory(fd, a_size, 0, "created");
	b = igt_qaic_create_bo(fd, b_size);
	assert_memory(fd, a_size + b_size, 0, "two created");

	ptr = igt_qaic_mmap_bo(fd, b, b_size, PROT_READ | PROT_WRITE);
	memset(ptr, 1, b_size);
	assert_memory(fd, a_size + b_size, b_size, "one mapped");
	igt_assert_eq(munmap(ptr, b_size), 0);
	assert_memory(fd, a_size + b_size, 0, "unmapped");

	/* Slicing pins the pages until the object is freed */
	igt_qaic_attach_simple(fd, a, dbc, IGT_QAIC_DIR_TO_DEV, a_size, DEV_ADDR);
	assert_memory(fd, a_size + b_size, a_size, "one sliced");
	igt_qaic_detach_slice(fd, a);
	assert_memory(fd, a_size + b_size, a_size, "detached");

	gem_close(fd, b);
	assert_memory(fd, a_size, a_size, "one freed");
	gem_close(fd, a);
	assert_memory(fd, 0, 0, "both freed");
	igt_qaic_close(fd);
}

static void test_memory_shared(void)
{
	struct igt_qaic_fdinfo info;
	const uint64_t size = 4 * PAGE;
	uint32_t handle;
	int fd, dmabuf;

	fd = igt_qaic_open();
	handle = igt_qaic_create_bo(fd, size);
	igt_qaic_fdinfo(fd, &info);
	igt_assert_eq_u64(info.shared, 0);

	dmabuf = igt_qaic_prime_export(fd, handle);
	igt_qaic_fdinfo(fd, &info);
	igt_assert_eq_u64(info.total, size);
	igt_assert_eq_u64(info.shared, size);

	close(dmabuf);
	gem_close(fd, handle);
	igt_qaic_fdinfo(fd, &info);
	assert_no_memory(&info);
	igt_qaic_close(fd);
}

static void test_memory_active(void)
{
	struct igt_qaic_fdinfo info;
	struct igt_qaic_gate gate;
	struct qaic_sync in;
	struct igt_qaic_bo bo;
	uint32_t dbc, gate_obj;
	int fd;

	fd = igt_qaic_open_dbc(QUEUE_SIZE, &dbc);
	job_bo(fd, dbc, IGT_QAIC_DIR_TO_DEV, 2 * PAGE, &bo);
	gate_obj = igt_qaic_syncobj_create(fd);
	igt_qaic_gate_init(fd, gate_obj, 0, &gate);
	in = (struct qaic_sync){ .handle = gate_obj };

	igt_qaic_submit(fd, dbc, bo.handle, IGT_QAIC_DIR_TO_DEV, &in, 1, 0, 0);
	igt_qaic_fdinfo(fd, &info);
	igt_assert_eq_u64(info.active, bo.size);
	igt_assert_eq_u64(info.total, bo.size);

	igt_qaic_gate_open(&gate);
	igt_qaic_wait(fd, bo.handle, dbc, 10000);
	igt_qaic_fdinfo(fd, &info);
	igt_assert_eq_u64(info.active, 0);
	igt_assert_eq_u64(info.resident, bo.size);

	igt_qaic_detach_slice(fd, bo.handle);
	igt_qaic_bo_destroy(fd, &bo);
	igt_qaic_syncobj_destroy(fd, gate_obj);
	igt_qaic_close(fd);
}

static char *run_qaic_info(const char *tool)
{
	static char out[1 << 16];
	char cmd[PATH_MAX + 16];
	size_t n = 0, r;
	FILE *p;

	snprintf(cmd, sizeof(cmd), "%s --json", tool);
	p = popen(cmd, "r");
	igt_assert(p);
	while ((r = fread(out + n, 1, sizeof(out) - 1 - n, p)) > 0)
		n += r;
	out[n] = '\0';
	igt_assert_eq(pclose(p), 0);
	return out;
}

static unsigned int count(const char *hay, const char *needle)
{
	unsigned int n = 0;

	for (; (hay = strstr(hay, needle)); hay++)
		n++;
	return n;
}

/*
 * A busy file, a dup of it and an idle file: qaic-info lists the two
 * files once each, under this process, with the busy time and memory
 * their fdinfo shows.
 */
static void test_qaic_info(void)
{
	struct igt_qaic_fdinfo busy, idle_info;
	char tool[PATH_MAX], key[128];
	struct igt_qaic_bo bo;
	const char *out, *at;
	int fd, dupfd, idle;
	uint32_t dbc;

	igt_qaic_tool_path("qaic-info", tool, sizeof(tool));
	fd = igt_qaic_open_dbc(QUEUE_SIZE, &dbc);
	dupfd = dup(fd);
	idle = igt_qaic_open();
	job_bo(fd, dbc, IGT_QAIC_DIR_TO_DEV, 4 * PAGE, &bo);
	igt_qaic_execute_bo(fd, dbc, bo.handle, IGT_QAIC_DIR_TO_DEV);
	igt_qaic_wait(fd, bo.handle, dbc, 10000);
	igt_qaic_fdinfo(fd, &busy);
	igt_qaic_fdinfo(idle, &idle_info);
	igt_assert_cmpu64(busy.engine_ns[dbc], >, <=, 0);

	out = run_qaic_info(tool);
	igt_debug("qaic-info --json: %s\n", out);

	snprintf(key, sizeof(key), "\"client_id\":%" PRIu64 ",", busy.client_id);
	igt_assert_f(count(out, key) == 1, "%s %u times\n", key, count(out, key));
	at = strstr(out, key);
	snprintf(key, sizeof(key), "\"pid\":%d,\"comm\":\"qaic_fdinfo\",", getpid());
	igt_assert_f(strstr(out, key) && strstr(out, key) < at, "no %s\n", key);
	snprintf(key, sizeof(key), "\"dbc%u\":%" PRIu64 ",", dbc, busy.engine_ns[dbc]);
	if (dbc == IGT_QAIC_NUM_DBC - 1)
		key[strlen(key) - 1] = '}';
	igt_assert_f(strstr(at, key), "no %s after the client\n", key);
	snprintf(key, sizeof(key), "\"memory\":{\"total\":%" PRIu64 ",", bo.size);
	igt_assert_f(strstr(at, key), "no %s after the client\n", key);

	snprintf(key, sizeof(key), "\"client_id\":%" PRIu64 ",", idle_info.client_id);
	igt_assert_f(count(out, key) == 1, "%s %u times\n", key, count(out, key));

	igt_qaic_detach_slice(fd, bo.handle);
	igt_qaic_bo_destroy(fd, &bo);
	igt_qaic_close(idle);
	igt_qaic_close(dupfd);
	igt_qaic_close(fd);
}

igt_main
{
	igt_fixture {
		struct igt_qaic_fdinfo info;
		int fd = igt_qaic_open();

		igt_qaic_fdinfo(fd, &info);
		igt_qaic_require_ours(fd, info.has_client_id, "no drm-* keys in fdinfo");
		igt_qaic_close(fd);
	}

	igt_describe("Check that a file that did nothing, or only activated a DBC, reports zeros.");
	igt_subtest("idle-file")
		test_idle_file();

	igt_describe("Check that each open file has its own drm-client-id and a dup() shares it.");
	igt_subtest("client-id")
		test_client_id();

	igt_describe("Check that drm-driver is qaic and drm-pdev is the card's PCI function.");
	igt_subtest("pdev")
		test_pdev();

	igt_describe("Check that the busy time of a DBC grows by the device time of each job run.");
	igt_subtest("busy-sequential")
		test_busy_sequential();

	igt_describe("Check that jobs on the ring together (of a hung DBC) count once, and waiting for a fence not at all.");
	igt_subtest("busy-overlapping")
		test_busy_overlapping();

	igt_describe("Check that the memory keys follow an object created, mapped, sliced and freed.");
	igt_subtest("memory")
		test_memory();

	igt_describe("Check that an exported object counts as shared memory.");
	igt_subtest("memory-shared")
		test_memory_shared();

	igt_describe("Check that an object with a job not done counts as active memory.");
	igt_subtest("memory-active")
		test_memory_active();

	igt_describe("Check that qaic-info --json shows each open file once, with its busy time and memory.");
	igt_subtest("qaic-info")
		test_qaic_info();

	igt_qaic_dbcs_free_checks();
}
