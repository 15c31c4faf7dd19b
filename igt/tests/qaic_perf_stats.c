// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The qaic authors.
 */

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "igt_qaic.h"

/**
 * TEST: qaic perf stats
 * Category: Core
 * Description: PERF_STATS_BO of the qaic accel driver.
 * Feature: qaic
 *
 * SUBTEST: after-execute
 * Description: Check the statistics of an object after a 4 KiB execute.
 * Run type: BAT
 *
 * SUBTEST: multi-slice
 * Description: Check that an object of three one-page slices took three queue elements.
 * Run type: FULL
 *
 * SUBTEST: scattered-pages
 * Description: Check that the queue elements reported are the requests the device consumed.
 * Run type: FULL
 *
 * SUBTEST: never-executed
 * Description: Check that the statistics of objects never executed are all 0, entry by entry.
 * Run type: FULL
 *
 * SUBTEST: hdr-pad
 * Description: Check that PERF_STATS_BO refuses a non-zero hdr.pad with EINVAL.
 * Run type: FULL
 *
 * SUBTEST: count-zero
 * Description: Check that PERF_STATS_BO refuses 0 entries with EINVAL.
 * Run type: FULL
 *
 * SUBTEST: bad-dbc
 * Description: Check that PERF_STATS_BO refuses a DBC id of 16 or more with EINVAL.
 * Run type: FULL
 *
 * SUBTEST: dbc-never-activated
 * Description: Check that PERF_STATS_BO refuses a DBC the file never activated with EPERM.
 * Run type: FULL
 *
 * SUBTEST: dbc-other-file
 * Description: Check that PERF_STATS_BO refuses the DBC of another file with EPERM.
 * Run type: FULL
 *
 * SUBTEST: dbc-deactivated
 * Description: Check that PERF_STATS_BO refuses a DBC the file deactivated with EPERM.
 * Run type: FULL
 *
 * SUBTEST: data-unmapped
 * Description: Check that PERF_STATS_BO refuses unreadable entries with EFAULT.
 * Run type: FULL
 *
 * SUBTEST: data-readonly
 * Description: Check that PERF_STATS_BO fails with EFAULT when the entries cannot be written back.
 * Run type: FULL
 *
 * SUBTEST: entry-pad
 * Description: Check that PERF_STATS_BO refuses an entry with a non-zero pad with EINVAL.
 * Run type: FULL
 *
 * SUBTEST: bad-handle
 * Description: Check that PERF_STATS_BO refuses an unknown handle with ENOENT.
 * Run type: FULL
 */

IGT_TEST_DESCRIPTION("PERF_STATS_BO of the qaic accel driver.");

#define PAGE		4096ull
#define QUEUE_SIZE	64
#define DEV_ADDR	0xa00000ull
/* Far more than any latency of a job of a few pages */
#define LATENCY_MAX_US	(10 * 1000 * 1000)

/*
 * What the driver under test checks. Upstream's qaic answers differently
 * where the uapi leaves room (testing.rst, "The whole IGT suite against
 * Linux 7.2's module"), and the tests check it as it answers: it reads
 * neither pad, takes 0 entries, checks the entries' objects before the
 * DBC's owner (from 6.13 on it reports only objects sliced for the DBC
 * asked about, EINVAL otherwise; 6.12 reports any object of the file),
 * and counts a slicing's queue elements whether it ran or not.
 */
static struct {
	bool ours;
	bool sliced_only;	/* EINVAL for an object not sliced there */
} drv;

/* The answer for an object sliced for another DBC than the one asked */
static int foreign_err(int ours_err)
{
	if (drv.ours)
		return ours_err;
	return drv.sliced_only ? EINVAL : 0;
}

static void check_ret(int ret, int err, const char *what)
{
	igt_assert_f(ret == -err, "PERF_STATS_BO %s: got %s, expected %s\n",
		     what, igt_qaic_err_name(-ret), igt_qaic_err_name(err));
}

static void show(const struct qaic_perf_stats_entry *s, const char *what)
{
	igt_info("%s: handle %u, queue level %u, %u elements, submit %u us, device %u us\n",
		 what, s->handle, s->queue_level_before, s->num_queue_element,
		 s->submit_latency_us, s->device_latency_us);
}

/* @elements: of its slicing, which upstream reports for an object never run */
static void check_zero(const struct qaic_perf_stats_entry *s,
		       uint32_t handle, uint32_t elements)
{
	show(s, "never executed");
	igt_assert_eq_u32(s->handle, handle);
	igt_assert_eq_u32(s->queue_level_before, 0);
	igt_assert_eq_u32(s->num_queue_element, drv.ours ? 0 : elements);
	igt_assert_eq_u32(s->submit_latency_us, 0);
	igt_assert_eq_u32(s->device_latency_us, 0);
	igt_assert_eq_u32(s->pad, 0);
}

static void check_executed(const struct qaic_perf_stats_entry *s,
			   uint32_t handle, uint32_t requests)
{
	show(s, "executed");
	igt_assert_eq_u32(s->handle, handle);
	igt_assert_eq_u32(s->num_queue_element, requests);
	/* Nothing else ran on the channel: nothing was queued ahead */
	igt_assert_eq_u32(s->queue_level_before, 0);
	igt_assert_lt(s->submit_latency_us, LATENCY_MAX_US);
	igt_assert_lt(s->device_latency_us, LATENCY_MAX_US);
	igt_assert_eq_u32(s->pad, 0);
}

static void test_after_execute(void)
{
	struct qaic_perf_stats_entry s;
	struct igt_qaic_bo bo;
	uint64_t start, took_us;
	uint32_t dbc;
	int fd;

	fd = igt_qaic_open_dbc(QUEUE_SIZE, &dbc);
	igt_qaic_bo_create(fd, PAGE, &bo);
	igt_qaic_attach_simple(fd, bo.handle, dbc, IGT_QAIC_DIR_TO_DEV, PAGE,
			       DEV_ADDR);

	for (int i = 0; i < 3; i++) {
		start = igt_qaic_now_ms();
		igt_qaic_execute_bo(fd, dbc, bo.handle, IGT_QAIC_DIR_TO_DEV);
		igt_qaic_wait(fd, bo.handle, dbc, 10000);
		took_us = (igt_qaic_now_ms() - start + 1) * 1000;

		memset(&s, 0, sizeof(s));
		s.handle = bo.handle;
		igt_qaic_perf_stats(fd, dbc, &s, 1);
		check_executed(&s, bo.handle, 1);
		/* The job's own times fit in the time the test measured */
		igt_assert_f(s.submit_latency_us + s.device_latency_us <=
			     took_us + 1000,
			     "latencies %u + %u us, job took %llu us\n",
			     s.submit_latency_us, s.device_latency_us,
			     (unsigned long long)took_us);
	}
	close(fd);
}

/* One request per one-page slice: three slices, three elements */
static void test_multi_slice(void)
{
	struct qaic_attach_slice_entry e[3];
	struct qaic_perf_stats_entry s;
	struct igt_qaic_bo bo;
	uint32_t dbc;
	int fd;

	fd = igt_qaic_open_dbc(QUEUE_SIZE, &dbc);
	igt_qaic_bo_create(fd, 3 * PAGE, &bo);
	for (int i = 0; i < 3; i++)
		igt_qaic_slice_init(&e[i], i * PAGE, PAGE,
				    DEV_ADDR + i * 0x10000);
	igt_qaic_attach_slice(fd, bo.handle, dbc, IGT_QAIC_DIR_TO_DEV, e, 3);
	igt_qaic_execute_bo(fd, dbc, bo.handle, IGT_QAIC_DIR_TO_DEV);
	igt_qaic_wait(fd, bo.handle, dbc, 10000);

	memset(&s, 0, sizeof(s));
	s.handle = bo.handle;
	igt_qaic_perf_stats(fd, dbc, &s, 1);
	check_executed(&s, bo.handle, 3);
	close(fd);
}

/*
 * One slice over pages faulted in out of order, so that they are (almost
 * surely) not physically contiguous: the queue elements the driver reports
 * are the requests the device consumed, one per contiguous piece.
 */
static void test_scattered_pages(void)
{
	const uint64_t pages = 16;
	struct igt_qaic_emu_counters before, after;
	struct qaic_perf_stats_entry s;
	struct igt_qaic_bo bo;
	uint32_t dbc;
	int fd;

	fd = igt_qaic_open_dbc(QUEUE_SIZE, &dbc);
	igt_require_f(__igt_qaic_emu_dbc_counters(fd, dbc, &before) == 0,
		      "the emulator has no EMU_PT_DBC_COUNTERS\n");
	igt_qaic_bo_create(fd, pages * PAGE, &bo);
	for (uint64_t parity = 0; parity < 2; parity++)
		for (uint64_t i = parity; i < pages; i += 2)
			bo.ptr[i * PAGE] = i;
	igt_qaic_attach_simple(fd, bo.handle, dbc, IGT_QAIC_DIR_TO_DEV,
			       bo.size, DEV_ADDR);
	igt_qaic_execute_bo(fd, dbc, bo.handle, IGT_QAIC_DIR_TO_DEV);
	igt_qaic_wait(fd, bo.handle, dbc, 10000);
	igt_assert_eq(__igt_qaic_emu_dbc_counters(fd, dbc, &after), 0);

	memset(&s, 0, sizeof(s));
	s.handle = bo.handle;
	igt_qaic_perf_stats(fd, dbc, &s, 1);
	igt_info("device consumed %llu requests, %llu bytes\n",
		 (unsigned long long)(after.requests - before.requests),
		 (unsigned long long)(after.dma_to_dev_bytes -
				      before.dma_to_dev_bytes));
	check_executed(&s, bo.handle, after.requests - before.requests);
	igt_assert_lte(1, s.num_queue_element);
	igt_assert_lte(s.num_queue_element, pages);
	igt_assert_eq_u64(after.dma_to_dev_bytes - before.dma_to_dev_bytes,
			  bo.size);
	close(fd);
}

struct stats_ctx {
	int fd;
	uint32_t dbc;
	struct igt_qaic_bo bo;
	struct qaic_perf_stats_entry s[2];
};

/* A DBC and an object sliced for it, never run: both drivers report it */
static void ctx_open(struct stats_ctx *t)
{
	t->fd = igt_qaic_open_dbc(QUEUE_SIZE, &t->dbc);
	igt_qaic_bo_create(t->fd, PAGE, &t->bo);
	igt_qaic_attach_simple(t->fd, t->bo.handle, t->dbc, IGT_QAIC_DIR_TO_DEV,
			       PAGE, DEV_ADDR);
	memset(t->s, 0, sizeof(t->s));
	t->s[0].handle = t->s[1].handle = t->bo.handle;
}

static int stats_raw(int fd, uint16_t count, uint16_t pad, uint32_t dbc,
		     void *data)
{
	struct qaic_perf_stats args = {
		.hdr = {
			.count = count,
			.pad = pad,
			.dbc_id = dbc,
		},
		.data = to_user_pointer(data),
	};
	int err = 0;

	if (igt_ioctl(fd, DRM_IOCTL_QAIC_PERF_STATS_BO, &args))
		err = -errno;
	errno = 0;

	return err;
}

static void test_never_executed(void)
{
	struct qaic_perf_stats_entry s[4];
	struct igt_qaic_bo plain, sliced, done;
	uint32_t dbc;
	int fd;

	fd = igt_qaic_open_dbc(QUEUE_SIZE, &dbc);
	igt_qaic_bo_create(fd, PAGE, &plain);
	igt_qaic_bo_create(fd, PAGE, &sliced);
	igt_qaic_bo_create(fd, PAGE, &done);
	igt_qaic_attach_simple(fd, sliced.handle, dbc, IGT_QAIC_DIR_TO_DEV,
			       PAGE, DEV_ADDR);
	igt_qaic_attach_simple(fd, done.handle, dbc, IGT_QAIC_DIR_FROM_DEV,
			       PAGE, DEV_ADDR);

	/* Out fields come in as garbage: they are all overwritten */
	memset(s, 0xff, sizeof(s));
	s[0].handle = plain.handle;
	s[0].pad = 0;
	if (drv.sliced_only) {
		check_ret(stats_raw(fd, 1, 0, dbc, s), EINVAL, "object never sliced");
		s[2].handle = sliced.handle;
	} else {
		igt_qaic_perf_stats(fd, dbc, s, 1);
		check_zero(&s[0], plain.handle, 0);
	}

	/* Per entry, in one call: executed and not, side by side */
	igt_qaic_execute_bo(fd, dbc, done.handle, IGT_QAIC_DIR_FROM_DEV);
	igt_qaic_wait(fd, done.handle, dbc, 10000);
	memset(s, 0xff, sizeof(s));
	s[0].handle = sliced.handle;
	s[1].handle = done.handle;
	s[2].handle = drv.sliced_only ? sliced.handle : plain.handle;
	s[3].handle = done.handle;
	for (int i = 0; i < 4; i++)
		s[i].pad = 0;
	igt_qaic_perf_stats(fd, dbc, s, 4);
	check_zero(&s[0], sliced.handle, 1);
	check_executed(&s[1], done.handle, 1);
	check_zero(&s[2], s[2].handle, drv.sliced_only ? 1 : 0);
	check_executed(&s[3], done.handle, 1);
	close(fd);
}

static void test_hdr_pad(void)
{
	struct stats_ctx t;

	ctx_open(&t);
	check_ret(stats_raw(t.fd, 1, 1, t.dbc, t.s), drv.ours ? EINVAL : 0,
		  "hdr.pad 1");
	check_ret(stats_raw(t.fd, 1, 0x8000, t.dbc, t.s), drv.ours ? EINVAL : 0,
		  "hdr.pad 0x8000");
	/* Before the count and the DBC */
	check_ret(stats_raw(t.fd, 0, 1, IGT_QAIC_NUM_DBC, NULL), EINVAL,
		  "hdr.pad 1, count 0, DBC 16");
	check_ret(stats_raw(t.fd, 1, 0, t.dbc, t.s), 0, "hdr.pad 0");
	close(t.fd);
}

static void test_count_zero(void)
{
	struct stats_ctx t;

	ctx_open(&t);
	check_ret(stats_raw(t.fd, 0, 0, t.dbc, t.s), drv.ours ? EINVAL : 0,
		  "count 0");
	check_ret(stats_raw(t.fd, 0, 0, t.dbc, NULL), drv.ours ? EINVAL : 0,
		  "count 0, data NULL");
	close(t.fd);
}

static void test_bad_dbc(void)
{
	static const uint32_t ids[] = { IGT_QAIC_NUM_DBC, 17, 0x100,
					UINT32_MAX };
	struct stats_ctx t;

	ctx_open(&t);
	for (unsigned int i = 0; i < ARRAY_SIZE(ids); i++) {
		check_ret(stats_raw(t.fd, 1, 0, ids[i], t.s), EINVAL,
			  "DBC >= 16");
		check_ret(stats_raw(t.fd, 1, 0, ids[i], NULL), EINVAL,
			  "DBC >= 16, data NULL");
	}
	close(t.fd);
}

static void check_eperm(struct stats_ctx *t, uint32_t dbc, const char *what)
{
	char buf[96];

	snprintf(buf, sizeof(buf), "%s DBC %u", what, dbc);
	check_ret(stats_raw(t->fd, 1, 0, dbc, t->s), foreign_err(EPERM), buf);
	/* Upstream reads the entries first */
	snprintf(buf, sizeof(buf), "%s DBC %u, data NULL", what, dbc);
	check_ret(stats_raw(t->fd, 1, 0, dbc, NULL), drv.ours ? EPERM : EFAULT, buf);
}

static void test_dbc_never_activated(void)
{
	struct stats_ctx t;

	ctx_open(&t);
	check_eperm(&t, (t.dbc + 1) % IGT_QAIC_NUM_DBC, "never activated");
	close(t.fd);
}

static void test_dbc_other_file(void)
{
	struct stats_ctx t;
	uint32_t dbc2;
	int fd2;

	ctx_open(&t);
	fd2 = igt_qaic_open_dbc(QUEUE_SIZE, &dbc2);
	check_eperm(&t, dbc2, "other file's");
	close(fd2);
	close(t.fd);
}

static void test_dbc_deactivated(void)
{
	struct stats_ctx t;
	uint32_t dbc2;

	ctx_open(&t);
	dbc2 = igt_qaic_activate(t.fd, QUEUE_SIZE);
	/* The object is sliced for the other DBC */
	check_ret(stats_raw(t.fd, 1, 0, dbc2, t.s), foreign_err(0),
		  "DBC while ours");
	igt_qaic_deactivate(t.fd, dbc2);
	check_eperm(&t, dbc2, "deactivated");
	close(t.fd);
}

static void test_data_unmapped(void)
{
	struct qaic_perf_stats_entry *s;
	struct stats_ctx t;
	uint8_t *two;

	ctx_open(&t);
	check_ret(stats_raw(t.fd, 1, 0, t.dbc, NULL), EFAULT, "data NULL");
	check_ret(stats_raw(t.fd, 1, 0, t.dbc, igt_qaic_unmapped_ptr()), EFAULT,
		  "data unmapped");

	/* The first entry is readable, the second is not */
	two = mmap(NULL, 2 * PAGE, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	igt_assert(two != MAP_FAILED);
	igt_assert_eq(munmap(two + PAGE, PAGE), 0);
	s = (void *)(two + PAGE - sizeof(*s));
	memset(s, 0, sizeof(*s));
	s->handle = t.bo.handle;
	check_ret(stats_raw(t.fd, 2, 0, t.dbc, s), EFAULT,
		  "second entry unmapped");
	check_ret(stats_raw(t.fd, 1, 0, t.dbc, s), 0,
		  "last entry of a mapped page");
	igt_assert_eq(munmap(two, PAGE), 0);
	close(t.fd);
}

/* The entries are read, but cannot be written back */
static void test_data_readonly(void)
{
	struct qaic_perf_stats_entry *s;
	struct stats_ctx t;

	ctx_open(&t);
	s = mmap(NULL, PAGE, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	igt_assert(s != MAP_FAILED);
	memset(s, 0, sizeof(*s));
	s->handle = t.bo.handle;
	igt_assert_eq(mprotect(s, PAGE, PROT_READ), 0);
	check_ret(stats_raw(t.fd, 1, 0, t.dbc, s), EFAULT, "data read-only");
	igt_assert_eq(munmap(s, PAGE), 0);
	close(t.fd);
}

static void test_entry_pad(void)
{
	struct stats_ctx t;

	ctx_open(&t);
	t.s[0].pad = 1;
	check_ret(stats_raw(t.fd, 1, 0, t.dbc, t.s), drv.ours ? EINVAL : 0,
		  "entry pad 1");
	t.s[0].pad = 0;
	t.s[1].pad = 0x80000000u;
	check_ret(stats_raw(t.fd, 2, 0, t.dbc, t.s), drv.ours ? EINVAL : 0,
		  "second entry pad");
	/* Only the pad: out fields may hold anything on the way in */
	t.s[1].pad = 0;
	t.s[0].queue_level_before = t.s[0].num_queue_element = 7;
	t.s[0].submit_latency_us = t.s[0].device_latency_us = 7;
	check_ret(stats_raw(t.fd, 2, 0, t.dbc, t.s), 0,
		  "out fields set on the way in");
	check_zero(&t.s[0], t.bo.handle, 1);
	close(t.fd);
}

static void test_bad_handle(void)
{
	struct stats_ctx t;
	uint32_t handle;

	ctx_open(&t);
	t.s[0].handle = 0xdeadbeef;
	check_ret(stats_raw(t.fd, 1, 0, t.dbc, t.s), ENOENT, "unknown handle");
	t.s[0].handle = 0;
	check_ret(stats_raw(t.fd, 1, 0, t.dbc, t.s), ENOENT, "handle 0");
	t.s[0].handle = t.bo.handle;
	t.s[1].handle = 0xdeadbeef;
	check_ret(stats_raw(t.fd, 2, 0, t.dbc, t.s), ENOENT,
		  "unknown second handle");

	handle = igt_qaic_create_bo(t.fd, PAGE);
	gem_close(t.fd, handle);
	t.s[1].handle = handle;
	check_ret(stats_raw(t.fd, 2, 0, t.dbc, t.s), ENOENT, "closed handle");
	close(t.fd);
}

igt_main
{
	int fd = -1;

	igt_fixture {
		struct qaic_perf_stats_entry e = {};
		uint32_t dbc;
		int probe;

		fd = igt_qaic_open();
		drv.ours = igt_qaic_driver_is_ours(fd);
		/* Does it report an object never sliced? */
		probe = igt_qaic_open_dbc(QUEUE_SIZE, &dbc);
		e.handle = igt_qaic_create_bo(probe, PAGE);
		drv.sliced_only = !drv.ours &&
				  stats_raw(probe, 1, 0, dbc, &e) == -EINVAL;
		close(probe);
	}

	igt_describe("Check the statistics of an object after a 4 KiB execute.");
	igt_subtest("after-execute")
		test_after_execute();

	igt_describe("Check that an object of three one-page slices took three queue elements.");
	igt_subtest("multi-slice")
		test_multi_slice();

	igt_describe("Check that the queue elements reported are the requests the device consumed.");
	igt_subtest("scattered-pages")
		test_scattered_pages();

	igt_describe("Check that the statistics of objects never executed are all 0, entry by entry.");
	igt_subtest("never-executed")
		test_never_executed();

	igt_describe("Check that PERF_STATS_BO refuses a non-zero hdr.pad with EINVAL.");
	igt_subtest("hdr-pad")
		test_hdr_pad();

	igt_describe("Check that PERF_STATS_BO refuses 0 entries with EINVAL.");
	igt_subtest("count-zero")
		test_count_zero();

	igt_describe("Check that PERF_STATS_BO refuses a DBC id of 16 or more with EINVAL.");
	igt_subtest("bad-dbc")
		test_bad_dbc();

	igt_describe("Check that PERF_STATS_BO refuses a DBC the file never activated with EPERM.");
	igt_subtest("dbc-never-activated")
		test_dbc_never_activated();

	igt_describe("Check that PERF_STATS_BO refuses the DBC of another file with EPERM.");
	igt_subtest("dbc-other-file")
		test_dbc_other_file();

	igt_describe("Check that PERF_STATS_BO refuses a DBC the file deactivated with EPERM.");
	igt_subtest("dbc-deactivated")
		test_dbc_deactivated();

	igt_describe("Check that PERF_STATS_BO refuses unreadable entries with EFAULT.");
	igt_subtest("data-unmapped")
		test_data_unmapped();

	igt_describe("Check that PERF_STATS_BO fails with EFAULT when the entries cannot be written back.");
	igt_subtest("data-readonly")
		test_data_readonly();

	igt_describe("Check that PERF_STATS_BO refuses an entry with a non-zero pad with EINVAL.");
	igt_subtest("entry-pad")
		test_entry_pad();

	igt_describe("Check that PERF_STATS_BO refuses an unknown handle with ENOENT.");
	igt_subtest("bad-handle")
		test_bad_handle();

	igt_fixture {
		close(fd);
	}
}
