// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The qaic authors.
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <xf86drm.h>

#include "igt_qaic.h"
#include "igt_qaic_sync.h"

/**
 * TEST: qaic syncobj
 * Category: Core
 * Description: DRM_IOCTL_QAIC_SUBMIT: executions that wait for and signal DRM syncobjs.
 * Feature: qaic, synchronization
 *
 * SUBTEST: chain-two-dbcs
 * Description: Check that a timeline point signalled on one DBC orders a transfer on another.
 * Run type: BAT
 *
 * SUBTEST: binary-in-out
 * Description: Check that binary syncobjs carry the fence of a job to the next one.
 * Run type: BAT
 *
 * SUBTEST: timeline-100
 * Description: Check that 100 submissions chained through one timeline run in order.
 * Run type: FULL
 *
 * SUBTEST: wait-before-signal
 * Description: Check that a submission waits for a point another process submits later.
 * Run type: FULL
 *
 * SUBTEST: wait-unsignalled-timeout
 * Description: Check that waiting for a point nobody submits times out.
 * Run type: FULL
 *
 * SUBTEST: host-signal
 * Description: Check that a job waiting for a point the host signals runs after the signal.
 * Run type: FULL
 *
 * SUBTEST: error-propagation
 * Description: Check that the out-sync of a failing job signals and the job reports -EIO.
 * Run type: FULL
 *
 * SUBTEST: partial
 * Description: Check that QAIC_SUBMIT_PARTIAL takes partial execute entries.
 * Run type: FULL
 *
 * SUBTEST: invalid-flags
 * Description: Check that unknown SUBMIT flags are refused with -EINVAL.
 * Run type: FULL
 *
 * SUBTEST: invalid-reserved
 * Description: Check that a non-zero reserved field is refused with -EINVAL.
 * Run type: FULL
 *
 * SUBTEST: invalid-out-sync-flags
 * Description: Check that out-sync flags are refused with -EINVAL.
 * Run type: FULL
 *
 * SUBTEST: too-many-in-syncs
 * Description: Check that 64 in-syncs are taken and 65 refused with -EINVAL.
 * Run type: FULL
 *
 * SUBTEST: invalid-count
 * Description: Check that 0 or more than 1024 entries are refused with -EINVAL.
 * Run type: FULL
 *
 * SUBTEST: invalid-dbc
 * Description: Check that a DBC number past the last one is refused with -EINVAL.
 * Run type: FULL
 *
 * SUBTEST: foreign-dbc
 * Description: Check that a DBC of another file is refused with -EPERM.
 * Run type: FULL
 *
 * SUBTEST: in-syncs-fault
 * Description: Check that an unreadable in-sync array is refused with -EFAULT.
 * Run type: FULL
 *
 * SUBTEST: in-sync-invalid-flags
 * Description: Check that unknown in-sync flags are refused with -EINVAL.
 * Run type: FULL
 *
 * SUBTEST: in-sync-unknown-handle
 * Description: Check that an in-sync naming no syncobj is refused with -ENOENT.
 * Run type: FULL
 *
 * SUBTEST: in-sync-unsubmitted
 * Description: Check that an in-sync point with no fence yet is refused with -EINVAL.
 * Run type: FULL
 *
 * SUBTEST: in-sync-wait-for-submit-timeout
 * Description: Check that waiting for a point that is never submitted fails with -ETIME.
 * Run type: FULL
 *
 * SUBTEST: out-sync-unknown-handle
 * Description: Check that an out-sync naming no syncobj is refused with -ENOENT.
 * Run type: FULL
 *
 * SUBTEST: unknown-bo
 * Description: Check that an entry naming no buffer object is refused with -ENOENT.
 * Run type: FULL
 *
 * SUBTEST: unsliced-bo
 * Description: Check that an entry naming an object without slices is refused with -EINVAL.
 * Run type: FULL
 */

IGT_TEST_DESCRIPTION("DRM_IOCTL_QAIC_SUBMIT: executions that wait for and signal DRM syncobjs.");

#define SZ_4K		4096ull
#define SZ_1M		(1024 * 1024ull)
#define NSEC_PER_MSEC	1000000ll
#define NSEC_PER_SEC	1000000000ll

/* Where the tests put their data in device memory */
#define DEV_ADDR	(16 * SZ_1M)

/* Long enough for any job of these tests, even on the debug kernel */
#define WAIT_NS		(20 * NSEC_PER_SEC)

/* How long a helper process lets the other side block first */
#define DELAY_US	300000

/* How long jobs behind a closed gate are seen not to run */
#define HOLD_US		300000

#define MAX_IN_SYNCS	64

/*
 * Ring entries of each DBC. A slice takes a request per contiguous piece of
 * the object, a page at worst, and must fit in the ring: objects here have
 * at most MAX_SIZE bytes.
 */
#define QUEUE_SIZE	256
#define MAX_SIZE	(QUEUE_SIZE / 2 * SZ_4K)

struct data {
	int fd;
	uint32_t dbc_a;
	uint32_t dbc_b;
};

/*
 * Two objects of the same size: @src is sent to device memory on DBC A and
 * @dst reads the same device memory back on DBC B.
 */
struct pair {
	struct igt_qaic_sync_bo src;
	struct igt_qaic_sync_bo dst;
};

static void pair_init(const struct data *d, struct pair *p, uint64_t size,
		      uint64_t dev_addr, uint32_t seed)
{
	igt_qaic_sync_bo_new(d->fd, size, &p->src);
	igt_qaic_sync_bo_new(d->fd, size, &p->dst);
	igt_qaic_sync_pattern(p->src.ptr, size, seed);
	memset(p->dst.ptr, 0, size);
	igt_qaic_sync_attach(d->fd, p->src.handle, d->dbc_a,
			     IGT_QAIC_SYNC_TO_DEV, size, dev_addr);
	igt_qaic_sync_attach(d->fd, p->dst.handle, d->dbc_b,
			     IGT_QAIC_SYNC_FROM_DEV, size, dev_addr);
}

static void pair_fini(const struct data *d, struct pair *p)
{
	igt_qaic_sync_bo_free(d->fd, &p->src);
	igt_qaic_sync_bo_free(d->fd, &p->dst);
}

/* Fills @size bytes of device memory at @dev_addr with zeroes. */
static void clear_dev(const struct data *d, uint64_t dev_addr, uint64_t size)
{
	struct igt_qaic_sync_bo zero;

	igt_qaic_sync_bo_new(d->fd, size, &zero);
	memset(zero.ptr, 0, size);
	igt_qaic_sync_attach(d->fd, zero.handle, d->dbc_a,
			     IGT_QAIC_SYNC_TO_DEV, size, dev_addr);
	igt_qaic_submit(d->fd, d->dbc_a, zero.handle, IGT_QAIC_SYNC_TO_DEV,
			NULL, 0, 0, 0);
	igt_assert_eq(__igt_qaic_sync_wait_bo(d->fd, zero.handle, d->dbc_a,
					      10000), 0);
	igt_qaic_sync_bo_free(d->fd, &zero);
}

/*
 * After HOLD_US, @point of @syncobj (0: its binary fence) is still not
 * signalled and the job of @bo, queued on @dbc, has not run: the jobs wait
 * behind a closed gate.
 */
static void assert_held(const struct data *d, uint32_t syncobj,
			uint64_t point, const struct igt_qaic_sync_bo *bo,
			uint32_t dbc)
{
	usleep(HOLD_US);
	igt_assert_eq(__igt_qaic_syncobj_wait(d->fd, syncobj, point, 0,
				DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT), -ETIME);
	igt_assert_eq(__igt_qaic_sync_wait_bo(d->fd, bo->handle, dbc, IGT_QAIC_WAIT_LOOK_MS),
		      -ETIMEDOUT);
	for (uint64_t i = 0; i < bo->size; i++)
		igt_assert_f(bo->ptr[i] == 0,
			     "byte %llu of an object behind the gate changed\n",
			     (unsigned long long)i);
}

/*
 * The job on A waits behind a gate, a fence the test signals: had the job
 * on B not waited for A's point it would have read device memory first.
 */
static void test_chain_two_dbcs(const struct data *d)
{
	const uint64_t size = MAX_SIZE;
	uint32_t tl = igt_qaic_syncobj_create(d->fd);
	uint32_t gate_obj = igt_qaic_syncobj_create(d->fd);
	struct qaic_sync after_gate = { .handle = gate_obj };
	struct qaic_sync after_1 = { .handle = tl, .point = 1 };
	struct igt_qaic_gate gate;
	struct pair p;

	clear_dev(d, DEV_ADDR, size);
	pair_init(d, &p, size, DEV_ADDR, 1);
	igt_qaic_gate_init(d->fd, gate_obj, 0, &gate);

	/* A: to the device, signals 1; B: back, waits for 1, signals 2 */
	igt_qaic_submit(d->fd, d->dbc_a, p.src.handle, IGT_QAIC_SYNC_TO_DEV,
			&after_gate, 1, tl, 1);
	igt_qaic_submit(d->fd, d->dbc_b, p.dst.handle, IGT_QAIC_SYNC_FROM_DEV,
			&after_1, 1, tl, 2);

	assert_held(d, tl, 2, &p.dst, d->dbc_b);
	igt_assert_eq_u64(igt_qaic_syncobj_query(d->fd, tl), 0);
	igt_qaic_gate_open(&gate);

	igt_qaic_syncobj_wait(d->fd, tl, 2, WAIT_NS);
	igt_assert_eq_u64(igt_qaic_syncobj_query(d->fd, tl), 2);
	igt_qaic_sync_check(p.dst.ptr, size, 1, "read back on DBC B");

	/* Both jobs are over for WAIT_BO too, without error */
	igt_assert_eq(__igt_qaic_sync_wait_bo(d->fd, p.src.handle, d->dbc_a, IGT_QAIC_WAIT_LOOK_MS), 0);
	igt_assert_eq(__igt_qaic_sync_wait_bo(d->fd, p.dst.handle, d->dbc_b, IGT_QAIC_WAIT_LOOK_MS), 0);

	pair_fini(d, &p);
	igt_qaic_syncobj_destroy(d->fd, gate_obj);
	igt_qaic_syncobj_destroy(d->fd, tl);
}

static void test_binary_in_out(const struct data *d)
{
	const uint64_t size = MAX_SIZE / 2;
	uint32_t s1 = igt_qaic_syncobj_create(d->fd);
	uint32_t s2 = igt_qaic_syncobj_create(d->fd);
	uint32_t gate_obj = igt_qaic_syncobj_create(d->fd);
	struct qaic_sync after_gate = { .handle = gate_obj };
	struct qaic_sync after_s1 = { .handle = s1 };
	struct igt_qaic_gate gate;
	struct pair p;

	clear_dev(d, DEV_ADDR, size);
	pair_init(d, &p, size, DEV_ADDR, 2);

	for (uint32_t round = 0; round < 3; round++) {
		uint32_t seed = 2 + round;

		igt_qaic_sync_pattern(p.src.ptr, size, seed);
		memset(p.dst.ptr, 0, size);

		/* The first round waits behind a gate */
		if (!round)
			igt_qaic_gate_init(d->fd, gate_obj, 0, &gate);

		/* Each round replaces the fences of both syncobjs */
		igt_qaic_submit(d->fd, d->dbc_a, p.src.handle,
				IGT_QAIC_SYNC_TO_DEV, round ? NULL : &after_gate,
				round ? 0 : 1, s1, 0);
		igt_qaic_submit(d->fd, d->dbc_b, p.dst.handle,
				IGT_QAIC_SYNC_FROM_DEV, &after_s1, 1, s2, 0);

		if (!round) {
			assert_held(d, s2, 0, &p.dst, d->dbc_b);
			igt_qaic_gate_open(&gate);
		}

		igt_assert_eq(__igt_qaic_syncobj_wait(d->fd, s2, 0, WAIT_NS, 0), 0);
		igt_qaic_sync_check(p.dst.ptr, size, seed, "read back");
		/* s1 signalled before s2 */
		igt_assert_eq(__igt_qaic_syncobj_wait(d->fd, s1, 0, 0, 0), 0);
	}

	pair_fini(d, &p);
	igt_qaic_syncobj_destroy(d->fd, s1);
	igt_qaic_syncobj_destroy(d->fd, s2);
	igt_qaic_syncobj_destroy(d->fd, gate_obj);
}

/*
 * 50 pairs of jobs take turns on the same 4 KiB of device memory: point
 * 2k + 1 copies buffer k to it on DBC A, point 2k + 2 copies it back into
 * buffer k on DBC B. Every job waits for the point before its own, and
 * only that orders the two DBCs: a job that ran early would read another
 * pair's data. The first job waits behind a gate until all are queued.
 */
static void test_timeline_100(const struct data *d)
{
	const unsigned int pairs = 50;
	const uint64_t size = SZ_4K;
	uint32_t tl = igt_qaic_syncobj_create(d->fd);
	uint32_t gate_obj = igt_qaic_syncobj_create(d->fd);
	struct qaic_sync after_gate = { .handle = gate_obj };
	struct pair *p = calloc(pairs, sizeof(*p));
	struct igt_qaic_gate gate;

	igt_assert(p);
	clear_dev(d, DEV_ADDR, size);
	for (unsigned int k = 0; k < pairs; k++)
		pair_init(d, &p[k], size, DEV_ADDR, 100 + k);
	igt_qaic_gate_init(d->fd, gate_obj, 0, &gate);

	for (unsigned int k = 0; k < pairs; k++) {
		uint64_t point = 2 * k + 1;
		struct qaic_sync before = { .handle = tl, .point = point - 1 };
		struct qaic_sync after = { .handle = tl, .point = point };

		igt_qaic_submit(d->fd, d->dbc_a, p[k].src.handle,
				IGT_QAIC_SYNC_TO_DEV, k ? &before : &after_gate,
				1, tl, point);
		igt_qaic_submit(d->fd, d->dbc_b, p[k].dst.handle,
				IGT_QAIC_SYNC_FROM_DEV, &after, 1, tl,
				point + 1);
	}

	assert_held(d, tl, 2 * pairs, &p[pairs - 1].dst, d->dbc_b);
	igt_assert_eq_u64(igt_qaic_syncobj_query(d->fd, tl), 0);
	igt_qaic_gate_open(&gate);

	igt_qaic_syncobj_wait(d->fd, tl, 2 * pairs, WAIT_NS);
	igt_assert_eq_u64(igt_qaic_syncobj_query(d->fd, tl), 2 * pairs);
	for (unsigned int k = 0; k < pairs; k++) {
		char what[32];

		snprintf(what, sizeof(what), "pair %u", k);
		igt_qaic_sync_check(p[k].dst.ptr, size, 100 + k, what);
		pair_fini(d, &p[k]);
	}

	free(p);
	igt_qaic_syncobj_destroy(d->fd, gate_obj);
	igt_qaic_syncobj_destroy(d->fd, tl);
}

/*
 * The parent's SUBMIT waits for point 1 with QAIC_SYNC_WAIT_FOR_SUBMIT
 * before a child process, sharing the file, submits it.
 */
static void test_wait_before_signal(const struct data *d)
{
	const uint64_t size = MAX_SIZE / 4;
	uint32_t tl = igt_qaic_syncobj_create(d->fd);
	struct qaic_sync wait_1 = {
		.handle = tl,
		.flags = QAIC_SYNC_WAIT_FOR_SUBMIT,
		.point = 1,
	};
	uint64_t start, waited;
	struct pair p;

	clear_dev(d, DEV_ADDR, size);
	pair_init(d, &p, size, DEV_ADDR, 7);

	igt_fork(child, 1) {
		usleep(DELAY_US);
		igt_qaic_submit(d->fd, d->dbc_a, p.src.handle,
				IGT_QAIC_SYNC_TO_DEV, NULL, 0, tl, 1);
	}

	start = igt_qaic_sync_now_ns();
	igt_qaic_submit(d->fd, d->dbc_b, p.dst.handle, IGT_QAIC_SYNC_FROM_DEV,
			&wait_1, 1, tl, 2);
	waited = igt_qaic_sync_now_ns() - start;
	igt_waitchildren();

	igt_info("SUBMIT waited %llu ms for the point\n",
		 (unsigned long long)(waited / NSEC_PER_MSEC));
	igt_assert_f(waited >= DELAY_US * 1000ull / 2,
		     "SUBMIT returned after %llu ms, before the point was submitted\n",
		     (unsigned long long)(waited / NSEC_PER_MSEC));

	igt_qaic_syncobj_wait(d->fd, tl, 2, WAIT_NS);
	igt_qaic_sync_check(p.dst.ptr, size, 7, "read back");

	pair_fini(d, &p);
	igt_qaic_syncobj_destroy(d->fd, tl);
}

static void test_wait_unsignalled_timeout(const struct data *d)
{
	const int64_t timeout = 100 * NSEC_PER_MSEC;
	uint32_t tl = igt_qaic_syncobj_create(d->fd);
	uint64_t start, waited;
	struct pair p;

	/* Point 1 is there, point 5 never will be */
	pair_init(d, &p, SZ_4K, DEV_ADDR, 8);
	igt_qaic_submit(d->fd, d->dbc_a, p.src.handle, IGT_QAIC_SYNC_TO_DEV,
			NULL, 0, tl, 1);
	igt_qaic_syncobj_wait(d->fd, tl, 1, WAIT_NS);

	start = igt_qaic_sync_now_ns();
	igt_assert_eq(__igt_qaic_syncobj_wait(d->fd, tl, 5, timeout,
				DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT), -ETIME);
	waited = igt_qaic_sync_now_ns() - start;
	igt_assert_f(waited >= (uint64_t)timeout,
		     "timed out after %llu ns of %lld\n",
		     (unsigned long long)waited, (long long)timeout);

	/* Without WAIT_FOR_SUBMIT the missing point is an error at once */
	igt_assert_eq(__igt_qaic_syncobj_wait(d->fd, tl, 5, timeout, 0), -EINVAL);
	igt_assert_eq_u64(igt_qaic_syncobj_query(d->fd, tl), 1);

	pair_fini(d, &p);
	igt_qaic_syncobj_destroy(d->fd, tl);
}

/*
 * A point the host signals with drmSyncobjTimelineSignal(): signalled
 * before SUBMIT it needs no flag; signalled later by another process it
 * releases a SUBMIT that waits for it, and the job then copies what the
 * host wrote before signalling.
 */
static void test_host_signal(const struct data *d)
{
	const uint64_t size = MAX_SIZE / 4;
	uint32_t tl = igt_qaic_syncobj_create(d->fd);
	struct qaic_sync after_1 = { .handle = tl, .point = 1 };
	struct qaic_sync after_2 = { .handle = tl, .point = 2 };
	struct qaic_sync wait_4 = {
		.handle = tl,
		.flags = QAIC_SYNC_WAIT_FOR_SUBMIT,
		.point = 4,
	};
	struct qaic_sync after_5 = { .handle = tl, .point = 5 };
	uint64_t start, waited;
	struct pair p;

	clear_dev(d, DEV_ADDR, size);
	pair_init(d, &p, size, DEV_ADDR, 9);

	/* Signalled already */
	igt_qaic_syncobj_signal(d->fd, tl, 1);
	igt_assert_eq_u64(igt_qaic_syncobj_query(d->fd, tl), 1);
	igt_qaic_submit(d->fd, d->dbc_a, p.src.handle, IGT_QAIC_SYNC_TO_DEV,
			&after_1, 1, tl, 2);
	igt_qaic_submit(d->fd, d->dbc_b, p.dst.handle, IGT_QAIC_SYNC_FROM_DEV,
			&after_2, 1, tl, 3);
	igt_qaic_syncobj_wait(d->fd, tl, 3, WAIT_NS);
	igt_qaic_sync_check(p.dst.ptr, size, 9, "after a signalled point");

	/* Signalled later, by a process that first writes the data */
	memset(p.dst.ptr, 0, size);
	igt_fork(child, 1) {
		usleep(DELAY_US);
		igt_qaic_sync_pattern(p.src.ptr, size, 10);
		igt_qaic_syncobj_signal(d->fd, tl, 4);
	}

	start = igt_qaic_sync_now_ns();
	igt_qaic_submit(d->fd, d->dbc_a, p.src.handle, IGT_QAIC_SYNC_TO_DEV,
			&wait_4, 1, tl, 5);
	waited = igt_qaic_sync_now_ns() - start;
	igt_waitchildren();
	igt_info("SUBMIT waited %llu ms for the host\n",
		 (unsigned long long)(waited / NSEC_PER_MSEC));
	igt_assert_f(waited >= DELAY_US * 1000ull / 2,
		     "SUBMIT returned after %llu ms, before the host signalled\n",
		     (unsigned long long)(waited / NSEC_PER_MSEC));

	igt_qaic_submit(d->fd, d->dbc_b, p.dst.handle, IGT_QAIC_SYNC_FROM_DEV,
			&after_5, 1, tl, 6);
	igt_qaic_syncobj_wait(d->fd, tl, 6, WAIT_NS);
	igt_assert_eq_u64(igt_qaic_syncobj_query(d->fd, tl), 6);
	igt_qaic_sync_check(p.dst.ptr, size, 10, "after the host signalled");

	pair_fini(d, &p);
	igt_qaic_syncobj_destroy(d->fd, tl);
}

/*
 * A slice that runs past the end of device memory fails on the device. The
 * out-sync signals all the same, and WAIT_BO reports the error.
 */
static void test_error_propagation(const struct data *d)
{
	const uint64_t size = 2 * SZ_4K;
	uint32_t bin = igt_qaic_syncobj_create(d->fd);
	uint32_t tl = igt_qaic_syncobj_create(d->fd);
	struct qaic_sync after_1 = { .handle = tl, .point = 1 };
	struct igt_qaic_sync_bo bad;
	struct pair p;
	int ret;

	igt_qaic_sync_bo_new(d->fd, size, &bad);
	igt_qaic_sync_attach(d->fd, bad.handle, d->dbc_a,
			     IGT_QAIC_SYNC_FROM_DEV, size,
			     IGT_QAIC_SYNC_DEV_MEM - SZ_4K);

	/* Binary */
	igt_qaic_submit(d->fd, d->dbc_a, bad.handle, IGT_QAIC_SYNC_FROM_DEV,
			NULL, 0, bin, 0);
	igt_assert_eq(__igt_qaic_syncobj_wait(d->fd, bin, 0, WAIT_NS,
				DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT), 0);
	igt_assert_eq(__igt_qaic_sync_wait_bo(d->fd, bad.handle, d->dbc_a, IGT_QAIC_WAIT_LOOK_MS),
		      -EIO);

	/* Timeline, and a job that waits for the failed one */
	pair_init(d, &p, SZ_4K, DEV_ADDR, 11);
	igt_qaic_submit(d->fd, d->dbc_a, bad.handle, IGT_QAIC_SYNC_FROM_DEV,
			NULL, 0, tl, 1);
	igt_qaic_submit(d->fd, d->dbc_a, p.src.handle, IGT_QAIC_SYNC_TO_DEV,
			&after_1, 1, tl, 2);
	igt_qaic_syncobj_wait(d->fd, tl, 2, WAIT_NS);
	igt_assert_eq_u64(igt_qaic_syncobj_query(d->fd, tl), 2);
	igt_assert_eq(__igt_qaic_sync_wait_bo(d->fd, bad.handle, d->dbc_a, IGT_QAIC_WAIT_LOOK_MS),
		      -EIO);
	ret = __igt_qaic_sync_wait_bo(d->fd, p.src.handle, d->dbc_a, IGT_QAIC_WAIT_LOOK_MS);
	igt_info("a job after a failed in-sync: WAIT_BO %d (%s)\n", ret,
		 strerror(-ret));

	/* The DBCs still work */
	igt_qaic_submit(d->fd, d->dbc_a, p.src.handle, IGT_QAIC_SYNC_TO_DEV,
			NULL, 0, tl, 3);
	{
		struct qaic_sync after_3 = { .handle = tl, .point = 3 };

		igt_qaic_submit(d->fd, d->dbc_b, p.dst.handle,
				IGT_QAIC_SYNC_FROM_DEV, &after_3, 1, tl, 4);
	}
	igt_qaic_syncobj_wait(d->fd, tl, 4, WAIT_NS);
	igt_assert_eq(__igt_qaic_sync_wait_bo(d->fd, p.src.handle, d->dbc_a, IGT_QAIC_WAIT_LOOK_MS), 0);
	igt_assert_eq(__igt_qaic_sync_wait_bo(d->fd, p.dst.handle, d->dbc_b, IGT_QAIC_WAIT_LOOK_MS), 0);
	igt_qaic_sync_check(p.dst.ptr, SZ_4K, 11, "read back after the error");

	pair_fini(d, &p);
	igt_qaic_sync_bo_free(d->fd, &bad);
	igt_qaic_syncobj_destroy(d->fd, bin);
	igt_qaic_syncobj_destroy(d->fd, tl);
}

/* Half of the object goes to the device, the rest stays as it was. */
static void test_partial(const struct data *d)
{
	const uint64_t size = MAX_SIZE / 4;
	uint32_t tl = igt_qaic_syncobj_create(d->fd);
	struct qaic_sync after_1 = { .handle = tl, .point = 1 };
	struct qaic_partial_execute_entry entry;
	struct qaic_submit submit;
	struct pair p;
	uint8_t *want;

	clear_dev(d, DEV_ADDR, size);
	pair_init(d, &p, size, DEV_ADDR, 12);

	entry = (struct qaic_partial_execute_entry) {
		.handle = p.src.handle,
		.dir = IGT_QAIC_SYNC_TO_DEV,
		.resize = size / 2,
	};
	submit = (struct qaic_submit) {
		.hdr = { .count = 1, .dbc_id = d->dbc_a },
		.data = to_user_pointer(&entry),
		.flags = QAIC_SUBMIT_PARTIAL,
		.out_sync = { .handle = tl, .point = 1 },
	};
	igt_assert_eq(__igt_qaic_submit_raw(d->fd, &submit), 0);
	igt_qaic_submit(d->fd, d->dbc_b, p.dst.handle, IGT_QAIC_SYNC_FROM_DEV,
			&after_1, 1, tl, 2);
	igt_qaic_syncobj_wait(d->fd, tl, 2, WAIT_NS);

	want = calloc(1, size);
	igt_assert(want);
	memcpy(want, p.src.ptr, size / 2);
	igt_assert_f(memcmp(p.dst.ptr, want, size) == 0,
		     "partial transfer: device memory is not half new, half zero\n");
	free(want);

	pair_fini(d, &p);
	igt_qaic_syncobj_destroy(d->fd, tl);
}

/*
 * The errno tests. Each starts from a SUBMIT that is valid, changes one
 * thing, and checks the error and that nothing was signalled.
 */
struct bad_submit {
	struct qaic_execute_entry entry;
	struct qaic_submit submit;
	struct igt_qaic_sync_bo bo;
	uint32_t out;
};

static void bad_init(const struct data *d, struct bad_submit *b)
{
	igt_qaic_sync_bo_new(d->fd, SZ_4K, &b->bo);
	igt_qaic_sync_attach(d->fd, b->bo.handle, d->dbc_a,
			     IGT_QAIC_SYNC_TO_DEV, SZ_4K, DEV_ADDR);
	b->out = igt_qaic_syncobj_create(d->fd);
	b->entry = (struct qaic_execute_entry) {
		.handle = b->bo.handle,
		.dir = IGT_QAIC_SYNC_TO_DEV,
	};
	b->submit = (struct qaic_submit) {
		.hdr = { .count = 1, .dbc_id = d->dbc_a },
		.data = to_user_pointer(&b->entry),
		.out_sync = { .handle = b->out, .point = 1 },
	};
}

/* SUBMIT of @b fails with @err and leaves its out-sync alone. */
static void bad_expect(const struct data *d, struct bad_submit *b, int err)
{
	struct qaic_submit copy = b->submit;

	igt_assert_eq(__igt_qaic_submit_raw(d->fd, &copy), -err);
	igt_assert_eq_u64(igt_qaic_syncobj_query(d->fd, b->out), 0);
	igt_assert_eq(__igt_qaic_syncobj_wait(d->fd, b->out, 1, 0, 0), -EINVAL);
}

/* The valid SUBMIT of @b, as a control, then cleanup. */
static void bad_fini(const struct data *d, struct bad_submit *b)
{
	b->submit.out_sync.point = 1;
	igt_assert_eq(__igt_qaic_submit_raw(d->fd, &b->submit), 0);
	igt_qaic_syncobj_wait(d->fd, b->out, 1, WAIT_NS);
	igt_assert_eq(__igt_qaic_sync_wait_bo(d->fd, b->bo.handle, d->dbc_a,
					      IGT_QAIC_WAIT_LOOK_MS), 0);
	igt_qaic_syncobj_destroy(d->fd, b->out);
	igt_qaic_sync_bo_free(d->fd, &b->bo);
}

static void test_invalid_flags(const struct data *d)
{
	static const uint32_t flags[] = { 0x2, 0x80000000, ~0u,
					  ~0u & ~QAIC_SUBMIT_PARTIAL };
	struct bad_submit b;

	bad_init(d, &b);
	for (unsigned int i = 0; i < ARRAY_SIZE(flags); i++) {
		b.submit.flags = flags[i];
		bad_expect(d, &b, EINVAL);
	}
	b.submit.flags = 0;
	bad_fini(d, &b);
}

static void test_invalid_reserved(const struct data *d)
{
	static const uint64_t reserved[] = { 1, 1ull << 63, ~0ull };
	struct bad_submit b;

	bad_init(d, &b);
	for (unsigned int i = 0; i < ARRAY_SIZE(reserved); i++) {
		b.submit.reserved = reserved[i];
		bad_expect(d, &b, EINVAL);
	}
	b.submit.reserved = 0;
	bad_fini(d, &b);
}

static void test_invalid_out_sync_flags(const struct data *d)
{
	static const uint32_t flags[] = { QAIC_SYNC_WAIT_FOR_SUBMIT, 0x2, ~0u };
	struct bad_submit b;

	bad_init(d, &b);
	for (unsigned int i = 0; i < ARRAY_SIZE(flags); i++) {
		b.submit.out_sync.flags = flags[i];
		bad_expect(d, &b, EINVAL);
	}
	b.submit.out_sync.flags = 0;
	bad_fini(d, &b);
}

static void test_too_many_in_syncs(const struct data *d)
{
	struct qaic_sync in[MAX_IN_SYNCS + 1];
	uint32_t signalled = igt_qaic_syncobj_create(d->fd);
	struct bad_submit b;

	/* Every in-sync waits for the same signalled point */
	igt_qaic_syncobj_signal(d->fd, signalled, 1);
	for (unsigned int i = 0; i < ARRAY_SIZE(in); i++)
		in[i] = (struct qaic_sync) { .handle = signalled, .point = 1 };

	bad_init(d, &b);
	b.submit.in_syncs = to_user_pointer(in);
	b.submit.in_sync_count = MAX_IN_SYNCS + 1;
	bad_expect(d, &b, EINVAL);
	b.submit.in_sync_count = ~0u;
	bad_expect(d, &b, EINVAL);

	/* The most there may be */
	b.submit.in_sync_count = MAX_IN_SYNCS;
	bad_fini(d, &b);
	igt_qaic_syncobj_destroy(d->fd, signalled);
}

static void test_invalid_count(const struct data *d)
{
	static const uint32_t counts[] = { 0, 1025, 4097, ~0u };
	struct bad_submit b;

	bad_init(d, &b);
	for (unsigned int i = 0; i < ARRAY_SIZE(counts); i++) {
		b.submit.hdr.count = counts[i];
		bad_expect(d, &b, EINVAL);
	}
	b.submit.hdr.count = 1;
	bad_fini(d, &b);
}

static void test_invalid_dbc(const struct data *d)
{
	static const uint32_t dbcs[] = { 16, 17, 0x10000, ~0u };
	struct bad_submit b;

	bad_init(d, &b);
	for (unsigned int i = 0; i < ARRAY_SIZE(dbcs); i++) {
		b.submit.hdr.dbc_id = dbcs[i];
		bad_expect(d, &b, EINVAL);
	}
	b.submit.hdr.dbc_id = d->dbc_a;
	bad_fini(d, &b);
}

static void test_foreign_dbc(const struct data *d)
{
	int other = igt_qaic_open();
	uint32_t theirs = igt_qaic_activate(other, 16);
	struct bad_submit b;

	igt_assert_neq(theirs, d->dbc_a);
	igt_assert_neq(theirs, d->dbc_b);

	bad_init(d, &b);
	b.submit.hdr.dbc_id = theirs;
	bad_expect(d, &b, EPERM);
	b.submit.hdr.dbc_id = d->dbc_a;
	bad_fini(d, &b);

	close(other);
}

static void test_in_syncs_fault(const struct data *d)
{
	struct bad_submit b;
	void *gone;

	/* Nothing may be mapped at the hole afterwards */
	bad_init(d, &b);
	gone = mmap(NULL, SZ_4K, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	igt_assert(gone != MAP_FAILED);
	igt_assert_eq(munmap(gone, SZ_4K), 0);

	b.submit.in_sync_count = 1;
	b.submit.in_syncs = to_user_pointer(gone);
	bad_expect(d, &b, EFAULT);
	b.submit.in_syncs = 8;
	bad_expect(d, &b, EFAULT);
	b.submit.in_syncs = ~0ull - 8;
	bad_expect(d, &b, EFAULT);
	b.submit.in_syncs = 0;
	b.submit.in_sync_count = 0;
	bad_fini(d, &b);
}

static void test_in_sync_invalid_flags(const struct data *d)
{
	static const uint32_t flags[] = { 0x2, 0x80000000, ~0u };
	uint32_t signalled = igt_qaic_syncobj_create(d->fd);
	struct qaic_sync in[2];
	struct bad_submit b;

	igt_qaic_syncobj_signal(d->fd, signalled, 1);
	bad_init(d, &b);
	b.submit.in_syncs = to_user_pointer(in);
	b.submit.in_sync_count = 2;
	for (unsigned int i = 0; i < ARRAY_SIZE(flags); i++) {
		/* The bad one second, after a good one */
		in[0] = (struct qaic_sync) { .handle = signalled, .point = 1 };
		in[1] = (struct qaic_sync) {
			.handle = signalled,
			.flags = flags[i],
			.point = 1,
		};
		bad_expect(d, &b, EINVAL);
	}
	in[1].flags = QAIC_SYNC_WAIT_FOR_SUBMIT;
	bad_fini(d, &b);
	igt_qaic_syncobj_destroy(d->fd, signalled);
}

static void test_in_sync_unknown_handle(const struct data *d)
{
	uint32_t signalled = igt_qaic_syncobj_create(d->fd);
	uint32_t destroyed;
	uint32_t handles[3];
	struct qaic_sync in[2];
	struct bad_submit b;

	/* After bad_init(), which would get the destroyed handle back */
	bad_init(d, &b);
	destroyed = igt_qaic_syncobj_create(d->fd);
	igt_qaic_syncobj_destroy(d->fd, destroyed);
	handles[0] = 0;
	handles[1] = 0xdeadbeef;
	handles[2] = destroyed;
	igt_qaic_syncobj_signal(d->fd, signalled, 1);
	b.submit.in_syncs = to_user_pointer(in);
	b.submit.in_sync_count = 2;
	in[0] = (struct qaic_sync) { .handle = signalled, .point = 1 };
	for (unsigned int i = 0; i < ARRAY_SIZE(handles); i++) {
		for (uint32_t flags = 0; flags <= QAIC_SYNC_WAIT_FOR_SUBMIT;
		     flags++) {
			in[1] = (struct qaic_sync) {
				.handle = handles[i],
				.flags = flags,
			};
			bad_expect(d, &b, ENOENT);
		}
	}
	in[1] = in[0];
	bad_fini(d, &b);
	igt_qaic_syncobj_destroy(d->fd, signalled);
}

static void test_in_sync_unsubmitted(const struct data *d)
{
	uint32_t bin = igt_qaic_syncobj_create(d->fd);
	uint32_t tl = igt_qaic_syncobj_create(d->fd);
	struct qaic_sync in;
	struct bad_submit b;

	igt_qaic_syncobj_signal(d->fd, tl, 1);
	bad_init(d, &b);
	b.submit.in_syncs = to_user_pointer(&in);
	b.submit.in_sync_count = 1;

	/* A binary syncobj without a fence */
	in = (struct qaic_sync) { .handle = bin };
	bad_expect(d, &b, EINVAL);
	/* A timeline point past the last one */
	in = (struct qaic_sync) { .handle = tl, .point = 2 };
	bad_expect(d, &b, EINVAL);
	in = (struct qaic_sync) { .handle = tl, .point = ~0ull };
	bad_expect(d, &b, EINVAL);

	in = (struct qaic_sync) { .handle = tl, .point = 1 };
	bad_fini(d, &b);
	igt_qaic_syncobj_destroy(d->fd, bin);
	igt_qaic_syncobj_destroy(d->fd, tl);
}

/* drm_syncobj_find_fence() waits 5 s for a point to be submitted. */
static void test_in_sync_wait_for_submit_timeout(const struct data *d)
{
	uint32_t tl = igt_qaic_syncobj_create(d->fd);
	struct qaic_sync in = {
		.handle = tl,
		.flags = QAIC_SYNC_WAIT_FOR_SUBMIT,
		.point = 1,
	};
	uint64_t start, waited;
	struct bad_submit b;

	bad_init(d, &b);
	b.submit.in_syncs = to_user_pointer(&in);
	b.submit.in_sync_count = 1;

	start = igt_qaic_sync_now_ns();
	bad_expect(d, &b, ETIME);
	waited = igt_qaic_sync_now_ns() - start;
	igt_info("SUBMIT gave up after %llu ms\n",
		 (unsigned long long)(waited / NSEC_PER_MSEC));
	igt_assert_f(waited >= 4 * NSEC_PER_SEC && waited < 40 * NSEC_PER_SEC,
		     "SUBMIT gave up after %llu ms, not after seconds\n",
		     (unsigned long long)(waited / NSEC_PER_MSEC));

	igt_qaic_syncobj_signal(d->fd, tl, 1);
	bad_fini(d, &b);
	igt_qaic_syncobj_destroy(d->fd, tl);
}

static void test_out_sync_unknown_handle(const struct data *d)
{
	uint32_t destroyed;
	uint32_t handles[2];
	struct qaic_submit submit;
	struct bad_submit b;

	bad_init(d, &b);
	destroyed = igt_qaic_syncobj_create(d->fd);
	igt_qaic_syncobj_destroy(d->fd, destroyed);
	handles[0] = 0xdeadbeef;
	handles[1] = destroyed;
	for (unsigned int i = 0; i < ARRAY_SIZE(handles); i++) {
		for (uint64_t point = 0; point < 2; point++) {
			submit = b.submit;
			submit.out_sync.handle = handles[i];
			submit.out_sync.point = point;
			igt_assert_eq(__igt_qaic_submit_raw(d->fd, &submit),
				      -ENOENT);
		}
	}
	/* Nothing ran */
	igt_assert_eq(__igt_qaic_sync_wait_bo(d->fd, b.bo.handle, d->dbc_a, IGT_QAIC_WAIT_LOOK_MS), 0);
	bad_fini(d, &b);
}

static void test_unknown_bo(const struct data *d)
{
	struct bad_submit b;

	bad_init(d, &b);
	b.entry.handle = 0xdeadbeef;
	bad_expect(d, &b, ENOENT);
	b.entry.handle = 0;
	bad_expect(d, &b, ENOENT);
	b.entry.handle = b.bo.handle;
	bad_fini(d, &b);
}

static void test_unsliced_bo(const struct data *d)
{
	struct igt_qaic_sync_bo plain;
	struct bad_submit b;

	igt_qaic_sync_bo_new(d->fd, SZ_4K, &plain);
	bad_init(d, &b);
	b.entry.handle = plain.handle;
	bad_expect(d, &b, EINVAL);
	b.entry.handle = b.bo.handle;
	bad_fini(d, &b);
	igt_qaic_sync_bo_free(d->fd, &plain);
}

igt_main
{
	struct data d = { .fd = -1 };

	igt_fixture {
		d.fd = igt_qaic_open();
		d.dbc_a = igt_qaic_activate(d.fd, QUEUE_SIZE);
		d.dbc_b = igt_qaic_activate(d.fd, QUEUE_SIZE);
		igt_assert_neq(d.dbc_a, d.dbc_b);
	}

	igt_describe("Check that a timeline point signalled on one DBC orders a transfer on another.");
	igt_subtest("chain-two-dbcs")
		test_chain_two_dbcs(&d);

	igt_describe("Check that binary syncobjs carry the fence of a job to the next one.");
	igt_subtest("binary-in-out")
		test_binary_in_out(&d);

	igt_describe("Check that 100 submissions chained through one timeline run in order.");
	igt_subtest("timeline-100")
		test_timeline_100(&d);

	igt_describe("Check that a submission waits for a point another process submits later.");
	igt_subtest("wait-before-signal")
		test_wait_before_signal(&d);

	igt_describe("Check that waiting for a point nobody submits times out.");
	igt_subtest("wait-unsignalled-timeout")
		test_wait_unsignalled_timeout(&d);

	igt_describe("Check that a job waiting for a point the host signals runs after the signal.");
	igt_subtest("host-signal")
		test_host_signal(&d);

	igt_describe("Check that the out-sync of a failing job signals and the job reports -EIO.");
	igt_subtest("error-propagation")
		test_error_propagation(&d);

	igt_describe("Check that QAIC_SUBMIT_PARTIAL takes partial execute entries.");
	igt_subtest("partial")
		test_partial(&d);

	igt_describe("Check that unknown SUBMIT flags are refused with -EINVAL.");
	igt_subtest("invalid-flags")
		test_invalid_flags(&d);

	igt_describe("Check that a non-zero reserved field is refused with -EINVAL.");
	igt_subtest("invalid-reserved")
		test_invalid_reserved(&d);

	igt_describe("Check that out-sync flags are refused with -EINVAL.");
	igt_subtest("invalid-out-sync-flags")
		test_invalid_out_sync_flags(&d);

	igt_describe("Check that 64 in-syncs are taken and 65 refused with -EINVAL.");
	igt_subtest("too-many-in-syncs")
		test_too_many_in_syncs(&d);

	igt_describe("Check that 0 or more than 1024 entries are refused with -EINVAL.");
	igt_subtest("invalid-count")
		test_invalid_count(&d);

	igt_describe("Check that a DBC number past the last one is refused with -EINVAL.");
	igt_subtest("invalid-dbc")
		test_invalid_dbc(&d);

	igt_describe("Check that a DBC of another file is refused with -EPERM.");
	igt_subtest("foreign-dbc")
		test_foreign_dbc(&d);

	igt_describe("Check that an unreadable in-sync array is refused with -EFAULT.");
	igt_subtest("in-syncs-fault")
		test_in_syncs_fault(&d);

	igt_describe("Check that unknown in-sync flags are refused with -EINVAL.");
	igt_subtest("in-sync-invalid-flags")
		test_in_sync_invalid_flags(&d);

	igt_describe("Check that an in-sync naming no syncobj is refused with -ENOENT.");
	igt_subtest("in-sync-unknown-handle")
		test_in_sync_unknown_handle(&d);

	igt_describe("Check that an in-sync point with no fence yet is refused with -EINVAL.");
	igt_subtest("in-sync-unsubmitted")
		test_in_sync_unsubmitted(&d);

	igt_describe("Check that waiting for a point that is never submitted fails with -ETIME.");
	igt_subtest("in-sync-wait-for-submit-timeout")
		test_in_sync_wait_for_submit_timeout(&d);

	igt_describe("Check that an out-sync naming no syncobj is refused with -ENOENT.");
	igt_subtest("out-sync-unknown-handle")
		test_out_sync_unknown_handle(&d);

	igt_describe("Check that an entry naming no buffer object is refused with -ENOENT.");
	igt_subtest("unknown-bo")
		test_unknown_bo(&d);

	igt_describe("Check that an entry naming an object without slices is refused with -EINVAL.");
	igt_subtest("unsliced-bo")
		test_unsliced_bo(&d);

	igt_fixture {
		close(d.fd);
	}
}
