// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The qaic authors.
 */

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "igt_qaic.h"

/**
 * TEST: qaic slice
 * Category: Core
 * Description: ATTACH_SLICE_BO and DETACH_SLICE_BO of the qaic accel driver.
 * Feature: qaic
 *
 * SUBTEST: attach-simple
 * Description: Check that valid slicings, with every field set, are attached and detached.
 * Run type: BAT
 *
 * SUBTEST: attach-count-zero
 * Description: Check that ATTACH_SLICE_BO refuses 0 slices with EINVAL.
 * Run type: FULL
 *
 * SUBTEST: attach-bad-dir
 * Description: Check that ATTACH_SLICE_BO refuses a direction other than 1 and 2 with EINVAL.
 * Run type: FULL
 *
 * SUBTEST: attach-bad-dbc
 * Description: Check that ATTACH_SLICE_BO refuses a DBC id of 16 or more with EINVAL.
 * Run type: FULL
 *
 * SUBTEST: attach-dbc-never-activated
 * Description: Check that ATTACH_SLICE_BO refuses a DBC the file never activated with EPERM.
 * Run type: FULL
 *
 * SUBTEST: attach-dbc-other-file
 * Description: Check that ATTACH_SLICE_BO refuses the DBC of another file with EPERM.
 * Run type: FULL
 *
 * SUBTEST: attach-dbc-deactivated
 * Description: Check that ATTACH_SLICE_BO refuses a DBC the file deactivated with EPERM.
 * Run type: FULL
 *
 * SUBTEST: attach-count-too-many
 * Description: Check that ATTACH_SLICE_BO refuses more slices than the ring takes with ENOSPC.
 * Run type: FULL
 *
 * SUBTEST: attach-data-unmapped
 * Description: Check that ATTACH_SLICE_BO refuses unreadable slices with EFAULT.
 * Run type: FULL
 *
 * SUBTEST: attach-bad-handle
 * Description: Check that ATTACH_SLICE_BO refuses an unknown handle with ENOENT.
 * Run type: FULL
 *
 * SUBTEST: attach-sem-pad
 * Description: Check that ATTACH_SLICE_BO refuses a semaphore with a non-zero pad.
 * Run type: FULL
 *
 * SUBTEST: attach-sem-cmd
 * Description: Check that ATTACH_SLICE_BO refuses semaphore commands above 6.
 * Run type: FULL
 *
 * SUBTEST: attach-sem-flags
 * Description: Check that ATTACH_SLICE_BO refuses unknown semaphore flags.
 * Run type: FULL
 *
 * SUBTEST: attach-sem-presync
 * Description: Check that ATTACH_SLICE_BO refuses a semaphore presync other than 0 and 1.
 * Run type: FULL
 *
 * SUBTEST: attach-sem-index
 * Description: Check that ATTACH_SLICE_BO refuses semaphore indexes above 31.
 * Run type: FULL
 *
 * SUBTEST: attach-sem-val
 * Description: Check that ATTACH_SLICE_BO refuses semaphore values above 4095.
 * Run type: FULL
 *
 * SUBTEST: attach-two-presync
 * Description: Check that ATTACH_SLICE_BO refuses a slice with two presync semaphores.
 * Run type: FULL
 *
 * SUBTEST: attach-offset-size-wrap
 * Description: Check that ATTACH_SLICE_BO refuses a slice whose offset + size wraps.
 * Run type: FULL
 *
 * SUBTEST: attach-past-end
 * Description: Check that ATTACH_SLICE_BO refuses a slice past the end of the object.
 * Run type: FULL
 *
 * SUBTEST: attach-offset-beyond-4g
 * Description: Check that ATTACH_SLICE_BO refuses offsets beyond 4 GiB on a small object.
 * Run type: FULL
 *
 * SUBTEST: attach-dev-addr-wrap
 * Description: Check that ATTACH_SLICE_BO refuses a slice whose device range wraps.
 * Run type: FULL
 *
 * SUBTEST: attach-db-len
 * Description: Check that ATTACH_SLICE_BO refuses doorbell widths other than 0, 8, 16, 32.
 * Run type: FULL
 *
 * SUBTEST: attach-db-len-zero-addr
 * Description: Check that ATTACH_SLICE_BO refuses a doorbell address without a width.
 * Run type: FULL
 *
 * SUBTEST: attach-db-addr-zero
 * Description: Check that ATTACH_SLICE_BO refuses a doorbell width without an address.
 * Run type: FULL
 *
 * SUBTEST: attach-db-unaligned
 * Description: Check that ATTACH_SLICE_BO refuses doorbells not aligned to their width.
 * Run type: FULL
 *
 * SUBTEST: attach-size-zero
 * Description: Check that a slice of 0 bytes is taken and still runs its semaphores and doorbell.
 * Run type: FULL
 *
 * SUBTEST: attach-already-sliced
 * Description: Check that ATTACH_SLICE_BO refuses an object that is already sliced.
 * Run type: FULL
 *
 * SUBTEST: attach-too-many-requests
 * Description: Check that ATTACH_SLICE_BO refuses slices needing more requests than the ring takes.
 * Run type: FULL
 *
 * SUBTEST: attach-hdr-size-ignored
 * Description: Check that ATTACH_SLICE_BO ignores hdr.size.
 * Run type: FULL
 *
 * SUBTEST: detach-pad
 * Description: Check that DETACH_SLICE_BO refuses a non-zero pad with EINVAL.
 * Run type: FULL
 *
 * SUBTEST: detach-bad-handle
 * Description: Check that DETACH_SLICE_BO refuses an unknown handle with ENOENT.
 * Run type: FULL
 *
 * SUBTEST: detach-not-sliced
 * Description: Check that DETACH_SLICE_BO refuses an object that is not sliced with EINVAL.
 * Run type: FULL
 *
 * SUBTEST: detach-busy
 * Description: Check that DETACH_SLICE_BO refuses an object with jobs running or queued with EBUSY.
 * Run type: FULL
 *
 * SUBTEST: reattach
 * Description: Check that a detached object can be attached again and moves the new slices' data.
 * Run type: BAT
 *
 * SUBTEST: reattach-other-dbc
 * Description: Check that a detached object can be attached to another DBC and runs there only.
 * Run type: FULL
 *
 * SUBTEST: reattach-after-deactivate
 * Description: Check that an object sliced for a DBC that was deactivated and activated again can be attached again without a detach, as runtimes do after a recovery, and moves the new slices' data.
 * Run type: FULL
 */

IGT_TEST_DESCRIPTION("ATTACH_SLICE_BO and DETACH_SLICE_BO of the qaic accel driver.");

#define PAGE		4096ull
#define QUEUE_SIZE	64
/* Objects the rules are checked on: 16 pages */
#define BO_SIZE		(16 * PAGE)
/* A valid slice that the bad ones are made from: page 8 of the object */
#define BASE_OFFSET	(8 * PAGE)
#define BASE_DEV_ADDR	0x100000ull
#define DB_ADDR		0x200000ull

struct ctx {
	int fd;
	uint32_t dbc;
	struct igt_qaic_bo bo;
};

static void ctx_open(struct ctx *t, uint32_t queue_size)
{
	t->fd = igt_qaic_open_dbc(queue_size, &t->dbc);
	igt_qaic_bo_create(t->fd, BO_SIZE, &t->bo);
}

/* Closing the file gives its DBCs back and frees its objects */
static void ctx_close(struct ctx *t)
{
	igt_qaic_bo_destroy(t->fd, &t->bo);
	close(t->fd);
}

/* A DBC that @fd does not own: the next one after @dbc */
static uint32_t other_dbc(uint32_t dbc)
{
	return (dbc + 1) % IGT_QAIC_NUM_DBC;
}

static void base_entry(struct qaic_attach_slice_entry *e)
{
	igt_qaic_slice_init(e, BASE_OFFSET, PAGE, BASE_DEV_ADDR);
}

static struct qaic_sem *sem_slot(struct qaic_attach_slice_entry *e, int i)
{
	struct qaic_sem *sems[] = { &e->sem0, &e->sem1, &e->sem2, &e->sem3 };

	return sems[i];
}

/*
 * Attaches @count entries to the context's object and checks that it
 * fails with @err, or succeeds when @err is 0 (then detaches again).
 */
static void attach_check(struct ctx *t, const struct qaic_attach_slice_entry *e,
			 uint32_t count, int err, const char *what)
{
	int ret;

	ret = __igt_qaic_attach_slice(t->fd, t->bo.handle, t->dbc,
				      IGT_QAIC_DIR_TO_DEV, e, count);
	igt_assert_f(ret == -err, "%s: got %s, expected %s\n", what,
		     igt_qaic_err_name(-ret), igt_qaic_err_name(err));
	if (!ret)
		igt_qaic_detach_slice(t->fd, t->bo.handle);
}

/*
 * Checks one entry alone, then as the last of three whose first two are
 * valid: every entry is checked, not only the first.
 */
static void entry_check(struct ctx *t, const struct qaic_attach_slice_entry *e,
			int err, const char *what)
{
	struct qaic_attach_slice_entry three[3];
	char buf[128];

	attach_check(t, e, 1, err, what);

	igt_qaic_slice_init(&three[0], 0, PAGE, 0);
	igt_qaic_slice_init(&three[1], PAGE, 2 * PAGE, 0x10000);
	three[2] = *e;
	snprintf(buf, sizeof(buf), "%s (third of three)", what);
	attach_check(t, three, 3, err, buf);
}

static void test_attach_simple(void)
{
	struct qaic_attach_slice_entry e[4];
	struct ctx t;

	ctx_open(&t, QUEUE_SIZE);

	/* The helper's single slice, and four slices with everything set */
	igt_qaic_attach_simple(t.fd, t.bo.handle, t.dbc, IGT_QAIC_DIR_TO_DEV,
			       BO_SIZE, 0);
	igt_qaic_detach_slice(t.fd, t.bo.handle);

	for (int i = 0; i < 4; i++) {
		igt_qaic_slice_init(&e[i], i * 4 * PAGE, 4 * PAGE,
				    0x40000 * (3 - i));
		e[i].sem0 = igt_qaic_sem(QAIC_SEM_WAIT_GT_EQ, i, 0, true);
		e[i].sem1 = igt_qaic_sem(QAIC_SEM_INC, i, 0, false);
		e[i].sem2 = igt_qaic_sem(QAIC_SEM_DEC, 31 - i, 0, false);
		e[i].sem3 = igt_qaic_sem(QAIC_SEM_INIT, 7, IGT_QAIC_SEM_MAX,
					 false);
		e[i].sem1.flags = QAIC_SEM_INSYNCFENCE | QAIC_SEM_OUTSYNCFENCE;
		igt_qaic_slice_doorbell(&e[i], DB_ADDR + 4 * i, 32, i);
	}
	igt_qaic_attach_slice(t.fd, t.bo.handle, t.dbc, IGT_QAIC_DIR_FROM_DEV,
			      e, 4);
	igt_qaic_detach_slice(t.fd, t.bo.handle);

	ctx_close(&t);
}

static void test_count_zero(void)
{
	struct qaic_attach_slice_entry e;
	struct ctx t;

	ctx_open(&t, QUEUE_SIZE);
	base_entry(&e);
	attach_check(&t, &e, 0, EINVAL, "count 0");
	/* Checked before the data is read */
	attach_check(&t, NULL, 0, EINVAL, "count 0, data NULL");
	ctx_close(&t);
}

static void test_bad_dir(void)
{
	static const uint32_t dirs[] = { 0, 3, 4, 0x101, UINT32_MAX };
	struct qaic_attach_slice_entry e;
	struct ctx t;

	ctx_open(&t, QUEUE_SIZE);
	base_entry(&e);
	for (unsigned int i = 0; i < ARRAY_SIZE(dirs); i++) {
		int ret = __igt_qaic_attach_slice(t.fd, t.bo.handle, t.dbc,
						  dirs[i], &e, 1);

		igt_assert_f(ret == -EINVAL, "dir %#x: got %s\n", dirs[i],
			     igt_qaic_err_name(-ret));
		ret = __igt_qaic_attach_slice(t.fd, t.bo.handle, t.dbc,
					      dirs[i], NULL, 1);
		igt_assert_f(ret == -EINVAL, "dir %#x, data NULL: got %s\n",
			     dirs[i], igt_qaic_err_name(-ret));
	}
	ctx_close(&t);
}

static void test_bad_dbc(void)
{
	static const uint32_t ids[] = { IGT_QAIC_NUM_DBC, 17, 0x100,
					0x80000000u, UINT32_MAX };
	struct qaic_attach_slice_entry e;
	struct ctx t;

	ctx_open(&t, QUEUE_SIZE);
	base_entry(&e);
	for (unsigned int i = 0; i < ARRAY_SIZE(ids); i++) {
		int ret = __igt_qaic_attach_slice(t.fd, t.bo.handle, ids[i],
						  IGT_QAIC_DIR_TO_DEV, &e, 1);

		igt_assert_f(ret == -EINVAL, "DBC %#x: got %s\n", ids[i],
			     igt_qaic_err_name(-ret));
		ret = __igt_qaic_attach_slice(t.fd, t.bo.handle, ids[i],
					      IGT_QAIC_DIR_TO_DEV, NULL, 1);
		igt_assert_f(ret == -EINVAL, "DBC %#x, data NULL: got %s\n",
			     ids[i], igt_qaic_err_name(-ret));
	}
	ctx_close(&t);
}

/* An attach to @dbc, which @t does not own, fails with EPERM */
static void check_eperm(struct ctx *t, uint32_t dbc, const char *what)
{
	struct qaic_attach_slice_entry e;
	int ret;

	base_entry(&e);
	ret = __igt_qaic_attach_slice(t->fd, t->bo.handle, dbc,
				      IGT_QAIC_DIR_TO_DEV, &e, 1);
	igt_assert_f(ret == -EPERM, "%s DBC %u: got %s\n", what, dbc,
		     igt_qaic_err_name(-ret));
	/* Before the data is read, and before the count is held to the ring */
	ret = __igt_qaic_attach_slice(t->fd, t->bo.handle, dbc,
				      IGT_QAIC_DIR_TO_DEV, NULL, UINT32_MAX);
	igt_assert_f(ret == -EPERM, "%s DBC %u, data NULL: got %s\n", what,
		     dbc, igt_qaic_err_name(-ret));
}

static void test_dbc_never_activated(void)
{
	struct ctx t;

	ctx_open(&t, QUEUE_SIZE);
	check_eperm(&t, other_dbc(t.dbc), "never activated");
	ctx_close(&t);
}

static void test_dbc_other_file(void)
{
	uint32_t dbc2;
	struct ctx t;
	int fd2;

	ctx_open(&t, QUEUE_SIZE);
	fd2 = igt_qaic_open_dbc(QUEUE_SIZE, &dbc2);
	igt_assert_neq(dbc2, t.dbc);
	check_eperm(&t, dbc2, "other file's");
	close(fd2);
	ctx_close(&t);
}

static void test_dbc_deactivated(void)
{
	uint32_t dbc2;
	struct ctx t;

	ctx_open(&t, QUEUE_SIZE);
	dbc2 = igt_qaic_activate(t.fd, QUEUE_SIZE);
	/* Usable while it is ours */
	igt_qaic_attach_simple(t.fd, t.bo.handle, dbc2, IGT_QAIC_DIR_TO_DEV,
			       PAGE, 0);
	igt_qaic_detach_slice(t.fd, t.bo.handle);
	igt_qaic_deactivate(t.fd, dbc2);
	check_eperm(&t, dbc2, "deactivated");
	ctx_close(&t);
}

static void test_count_too_many(void)
{
	struct qaic_attach_slice_entry e[4];
	struct ctx t;

	/* A ring of 4 takes 3 requests */
	ctx_open(&t, 4);
	for (int i = 0; i < 4; i++)
		igt_qaic_slice_init(&e[i], i * PAGE, PAGE, i * PAGE);

	attach_check(&t, e, 4, ENOSPC, "4 slices on a ring of 4");
	/* Before the data is read: nothing is allocated for a huge count */
	attach_check(&t, NULL, 4, ENOSPC, "4 slices, data NULL");
	attach_check(&t, NULL, UINT32_MAX, ENOSPC, "UINT32_MAX slices, data NULL");
	attach_check(&t, e, 3, 0, "3 one-page slices on a ring of 4");
	ctx_close(&t);
}

static void test_data_unmapped(void)
{
	struct qaic_attach_slice_entry *e;
	uint8_t *two;
	struct ctx t;

	ctx_open(&t, QUEUE_SIZE);
	attach_check(&t, NULL, 1, EFAULT, "data NULL");
	attach_check(&t, igt_qaic_unmapped_ptr(), 1, EFAULT, "data unmapped");

	/* The first entry is readable, the second is on an unmapped page */
	two = mmap(NULL, 2 * PAGE, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	igt_assert(two != MAP_FAILED);
	igt_assert_eq(munmap(two + PAGE, PAGE), 0);
	e = (void *)(two + PAGE - sizeof(*e));
	base_entry(e);
	attach_check(&t, e, 1, 0, "last entry of a mapped page");
	attach_check(&t, e, 2, EFAULT, "second entry unmapped");
	igt_assert_eq(munmap(two, PAGE), 0);

	ctx_close(&t);
}

static void test_bad_handle(void)
{
	static const uint32_t handles[] = { 0, 0xdeadbeef };
	struct qaic_attach_slice_entry e;
	struct ctx t;

	ctx_open(&t, QUEUE_SIZE);
	for (unsigned int i = 0; i < ARRAY_SIZE(handles); i++) {
		int ret;

		base_entry(&e);
		ret = __igt_qaic_attach_slice(t.fd, handles[i], t.dbc,
					      IGT_QAIC_DIR_TO_DEV, &e, 1);
		igt_assert_f(ret == -ENOENT, "handle %#x: got %s\n",
			     handles[i], igt_qaic_err_name(-ret));

		/* The data is read first... */
		ret = __igt_qaic_attach_slice(t.fd, handles[i], t.dbc,
					      IGT_QAIC_DIR_TO_DEV, NULL, 1);
		igt_assert_f(ret == -EFAULT, "handle %#x, data NULL: got %s\n",
			     handles[i], igt_qaic_err_name(-ret));

		/* ...the entries are checked after the handle */
		e.sem0.pad = 1;
		ret = __igt_qaic_attach_slice(t.fd, handles[i], t.dbc,
					      IGT_QAIC_DIR_TO_DEV, &e, 1);
		igt_assert_f(ret == -ENOENT, "handle %#x, bad entry: got %s\n",
			     handles[i], igt_qaic_err_name(-ret));
	}

	/* A closed handle is unknown too */
	{
		uint32_t handle = igt_qaic_create_bo(t.fd, PAGE);
		int ret;

		gem_close(t.fd, handle);
		base_entry(&e);
		ret = __igt_qaic_attach_slice(t.fd, handle, t.dbc,
					      IGT_QAIC_DIR_TO_DEV, &e, 1);
		igt_assert_f(ret == -ENOENT, "closed handle: got %s\n",
			     igt_qaic_err_name(-ret));
	}
	ctx_close(&t);
}

/* The field of a semaphore a sem_field_case breaks. */
enum sem_field { SEM_PAD, SEM_CMD, SEM_FLAGS, SEM_PRESYNC, SEM_INDEX, SEM_VAL };

static void sem_set(struct qaic_sem *sem, enum sem_field f, uint32_t v)
{
	switch (f) {
	case SEM_PAD: sem->pad = v; break;
	case SEM_CMD: sem->cmd = v; break;
	case SEM_FLAGS: sem->flags = v; break;
	case SEM_PRESYNC: sem->presync = v; break;
	case SEM_INDEX: sem->index = v; break;
	case SEM_VAL: sem->val = v; break;
	}
}

/*
 * One rule of a semaphore operation: on top of a valid operation, each
 * of @good is taken and each of @bad refused with EINVAL, in each of the
 * four slots; with @nop_too, the bad values are refused on a NOP as well.
 */
struct sem_field_case {
	const char *name;
	struct qaic_sem base;
	enum sem_field field;
	uint32_t good[8];
	unsigned int ngood;
	uint32_t bad[8];
	unsigned int nbad;
	bool nop_too;
};

#define SEM(c, i, v, p)	{ .cmd = (c), .index = (i), .val = (v), .presync = (p) }

static const struct sem_field_case sem_field_cases[] = {
	{ "pad", SEM(QAIC_SEM_INC, 1, 0, 0), SEM_PAD, { 0 }, 1, { 1, 0x8000 }, 2, true },
	{ "cmd", SEM(QAIC_SEM_INC, 2, 1, 0), SEM_CMD,
	  { QAIC_SEM_NOP, QAIC_SEM_INIT, QAIC_SEM_INC, QAIC_SEM_DEC, QAIC_SEM_WAIT_EQUAL,
	    QAIC_SEM_WAIT_GT_EQ, QAIC_SEM_WAIT_GT_0 }, 7, { 7, 8, 0x10, 0xff }, 4, false },
	{ "flags", SEM(QAIC_SEM_INC, 3, 0, 0), SEM_FLAGS,
	  { 0, QAIC_SEM_INSYNCFENCE, QAIC_SEM_OUTSYNCFENCE,
	    QAIC_SEM_INSYNCFENCE | QAIC_SEM_OUTSYNCFENCE }, 4,
	  { 4, 5, 7, 8, 0x80, 0xff }, 6, false },
	{ "presync", SEM(QAIC_SEM_WAIT_GT_EQ, 4, 0, 1), SEM_PRESYNC, { 1 }, 1,
	  { 2, 3, 0x80, 0xff }, 4, false },
	{ "index", SEM(QAIC_SEM_INC, IGT_QAIC_NUM_SEM - 1, 0, 0), SEM_INDEX,
	  { IGT_QAIC_NUM_SEM - 1 }, 1, { 32, 33, 64, 0xff }, 4, false },
	{ "val", SEM(QAIC_SEM_INIT, 5, IGT_QAIC_SEM_MAX, 0), SEM_VAL, { IGT_QAIC_SEM_MAX }, 1,
	  { 0x1000, 0x1001, 0x8000, 0xffff }, 4, false },
};

static void test_sem_field(const struct sem_field_case *c)
{
	struct qaic_attach_slice_entry e;
	char what[64];
	struct ctx t;

	ctx_open(&t, QUEUE_SIZE);
	for (int i = 0; i < 4; i++) {
		for (unsigned int j = 0; j < c->ngood + c->nbad; j++) {
			bool ok = j < c->ngood;
			uint32_t v = ok ? c->good[j] : c->bad[j - c->ngood];

			base_entry(&e);
			*sem_slot(&e, i) = c->base;
			sem_set(sem_slot(&e, i), c->field, v);
			snprintf(what, sizeof(what), "sem%d %s %#x", i, c->name, v);
			entry_check(&t, &e, ok ? 0 : EINVAL, what);
			if (ok || !c->nop_too)
				continue;
			base_entry(&e);
			sem_set(sem_slot(&e, i), c->field, v);
			snprintf(what, sizeof(what), "NOP sem%d %s %#x", i, c->name, v);
			entry_check(&t, &e, EINVAL, what);
		}
	}
	ctx_close(&t);
}

static void test_two_presync(void)
{
	struct qaic_attach_slice_entry e;
	char what[64];
	struct ctx t;

	ctx_open(&t, QUEUE_SIZE);
	/* One presync and three post-sync operations are fine */
	for (int p = 0; p < 4; p++) {
		base_entry(&e);
		for (int i = 0; i < 4; i++)
			*sem_slot(&e, i) = igt_qaic_sem(QAIC_SEM_INC, i, 0,
							i == p);
		snprintf(what, sizeof(what), "presync in sem%d only", p);
		entry_check(&t, &e, 0, what);
	}
	/* Any two of them presync is one too many */
	for (int a = 0; a < 4; a++) {
		for (int b = a + 1; b < 4; b++) {
			base_entry(&e);
			*sem_slot(&e, a) = igt_qaic_sem(QAIC_SEM_INC, 1, 0,
							true);
			*sem_slot(&e, b) = igt_qaic_sem(QAIC_SEM_WAIT_GT_EQ, 1,
							0, true);
			snprintf(what, sizeof(what), "presync in sem%d and sem%d",
				 a, b);
			entry_check(&t, &e, EINVAL, what);
		}
	}
	base_entry(&e);
	for (int i = 0; i < 4; i++)
		*sem_slot(&e, i) = igt_qaic_sem(QAIC_SEM_INC, i, 0, true);
	entry_check(&t, &e, EINVAL, "four presync");
	ctx_close(&t);
}

static void test_offset_size_wrap(void)
{
	struct qaic_attach_slice_entry e;
	struct ctx t;

	ctx_open(&t, QUEUE_SIZE);
	/* offset + size is exactly 2^64, i.e. 0 */
	igt_qaic_slice_init(&e, UINT64_MAX - PAGE + 1, PAGE, 0);
	entry_check(&t, &e, EINVAL, "offset 2^64 - 4096, size 4096");
	igt_qaic_slice_init(&e, PAGE, UINT64_MAX - PAGE + 1, 0);
	entry_check(&t, &e, EINVAL, "offset 4096, size 2^64 - 4096");
	igt_qaic_slice_init(&e, UINT64_MAX, UINT64_MAX, 0);
	entry_check(&t, &e, EINVAL, "offset and size 2^64 - 1");
	igt_qaic_slice_init(&e, 1, UINT64_MAX, 0);
	entry_check(&t, &e, EINVAL, "offset 1, size 2^64 - 1");
	ctx_close(&t);
}

static void test_past_end(void)
{
	struct qaic_attach_slice_entry e;
	struct ctx t;

	ctx_open(&t, QUEUE_SIZE);
	igt_qaic_slice_init(&e, 0, BO_SIZE, 0);
	entry_check(&t, &e, 0, "the whole object");
	igt_qaic_slice_init(&e, BO_SIZE - 1, 1, 0);
	entry_check(&t, &e, 0, "its last byte");
	igt_qaic_slice_init(&e, 0, BO_SIZE + 1, 0);
	entry_check(&t, &e, EINVAL, "one byte more than the object");
	igt_qaic_slice_init(&e, BO_SIZE - PAGE, 2 * PAGE, 0);
	entry_check(&t, &e, EINVAL, "last page and one more");
	igt_qaic_slice_init(&e, BO_SIZE, 1, 0);
	entry_check(&t, &e, EINVAL, "a byte at the end");
	igt_qaic_slice_init(&e, BO_SIZE + PAGE, PAGE, 0);
	entry_check(&t, &e, EINVAL, "a page after the end");
	igt_qaic_slice_init(&e, 0, 1ull << 40, 0);
	entry_check(&t, &e, EINVAL, "1 TiB");
	ctx_close(&t);
}

static void test_offset_beyond_4g(void)
{
	struct qaic_attach_slice_entry e;
	struct ctx t;

	/* Bits above 31 must not be lost on the way: 2^32 is not 0 */
	ctx_open(&t, QUEUE_SIZE);
	igt_qaic_slice_init(&e, 1ull << 32, PAGE, 0);
	entry_check(&t, &e, EINVAL, "offset 4 GiB");
	igt_qaic_slice_init(&e, (1ull << 32) + PAGE, PAGE, 0);
	entry_check(&t, &e, EINVAL, "offset 4 GiB + 4 KiB");
	igt_qaic_slice_init(&e, 1ull << 32, 0, 0);
	entry_check(&t, &e, EINVAL, "offset 4 GiB, size 0");
	igt_qaic_slice_init(&e, 1ull << 63, PAGE, 0);
	entry_check(&t, &e, EINVAL, "offset 2^63");
	igt_qaic_slice_init(&e, 0, (1ull << 32) + PAGE, 0);
	entry_check(&t, &e, EINVAL, "size 4 GiB + 4 KiB");
	ctx_close(&t);
}

static void test_dev_addr_wrap(void)
{
	struct qaic_attach_slice_entry e;
	struct ctx t;

	ctx_open(&t, QUEUE_SIZE);
	/* Ends at the last device address there can be: fine at attach */
	igt_qaic_slice_init(&e, 0, PAGE, UINT64_MAX - PAGE + 1);
	entry_check(&t, &e, 0, "last 4 KiB of the address space");
	/* Nothing transferred, nothing wraps */
	igt_qaic_slice_init(&e, 0, 0, UINT64_MAX);
	entry_check(&t, &e, 0, "size 0 at 2^64 - 1");

	igt_qaic_slice_init(&e, 0, PAGE, UINT64_MAX - PAGE + 2);
	entry_check(&t, &e, EINVAL, "one byte past 2^64");
	igt_qaic_slice_init(&e, 0, 2, UINT64_MAX);
	entry_check(&t, &e, EINVAL, "2 bytes at 2^64 - 1");
	igt_qaic_slice_init(&e, 0, BO_SIZE, UINT64_MAX - PAGE);
	entry_check(&t, &e, EINVAL, "16 pages at 2^64 - 8 KiB");
	ctx_close(&t);
}

static void test_db_len(void)
{
	static const uint32_t good[] = { 8, 16, 32 };
	static const uint32_t bad[] = { 1, 4, 7, 24, 64, 0x80, 0x88,
					0x100 | 32, UINT32_MAX };
	struct qaic_attach_slice_entry e;
	char what[64];
	struct ctx t;

	ctx_open(&t, QUEUE_SIZE);
	for (unsigned int i = 0; i < ARRAY_SIZE(good); i++) {
		base_entry(&e);
		igt_qaic_slice_doorbell(&e, DB_ADDR, good[i], 0xffffffff);
		snprintf(what, sizeof(what), "db_len %u", good[i]);
		entry_check(&t, &e, 0, what);
	}
	for (unsigned int i = 0; i < ARRAY_SIZE(bad); i++) {
		base_entry(&e);
		igt_qaic_slice_doorbell(&e, DB_ADDR, bad[i], 1);
		snprintf(what, sizeof(what), "db_len %#x", bad[i]);
		entry_check(&t, &e, EINVAL, what);
	}
	ctx_close(&t);
}

static void test_db_len_zero_addr(void)
{
	struct qaic_attach_slice_entry e;
	struct ctx t;

	ctx_open(&t, QUEUE_SIZE);
	base_entry(&e);
	igt_qaic_slice_doorbell(&e, 0, 0, 0);
	entry_check(&t, &e, 0, "no doorbell");
	igt_qaic_slice_doorbell(&e, DB_ADDR, 0, 0);
	entry_check(&t, &e, EINVAL, "db_len 0, db_addr set");
	igt_qaic_slice_doorbell(&e, 1ull << 32, 0, 0);
	entry_check(&t, &e, EINVAL, "db_len 0, db_addr 4 GiB");
	ctx_close(&t);
}

static void test_db_addr_zero(void)
{
	static const uint32_t lens[] = { 8, 16, 32 };
	struct qaic_attach_slice_entry e;
	char what[64];
	struct ctx t;

	ctx_open(&t, QUEUE_SIZE);
	for (unsigned int i = 0; i < ARRAY_SIZE(lens); i++) {
		base_entry(&e);
		igt_qaic_slice_doorbell(&e, 0, lens[i], 1);
		snprintf(what, sizeof(what), "db_len %u, db_addr 0", lens[i]);
		entry_check(&t, &e, EINVAL, what);
	}
	ctx_close(&t);
}

static void test_db_unaligned(void)
{
	static const struct {
		uint32_t len;
		uint64_t addr;
		int err;
	} cases[] = {
		{ 8, DB_ADDR + 1, 0 },
		{ 8, DB_ADDR + 3, 0 },
		{ 16, DB_ADDR + 2, 0 },
		{ 32, DB_ADDR + 4, 0 },
		{ 16, DB_ADDR + 1, EINVAL },
		{ 16, DB_ADDR + 3, EINVAL },
		{ 32, DB_ADDR + 1, EINVAL },
		{ 32, DB_ADDR + 2, EINVAL },
		{ 32, DB_ADDR + 3, EINVAL },
		{ 32, (1ull << 32) + 2, EINVAL },
	};
	struct qaic_attach_slice_entry e;
	char what[64];
	struct ctx t;

	ctx_open(&t, QUEUE_SIZE);
	for (unsigned int i = 0; i < ARRAY_SIZE(cases); i++) {
		base_entry(&e);
		igt_qaic_slice_doorbell(&e, cases[i].addr, cases[i].len, 1);
		snprintf(what, sizeof(what), "db_len %u at %#llx", cases[i].len,
			 (unsigned long long)cases[i].addr);
		entry_check(&t, &e, cases[i].err, what);
	}
	ctx_close(&t);
}

/* A slice of 0 bytes is taken and still rings its doorbell */
static void test_size_zero(void)
{
	struct qaic_attach_slice_entry e[2];
	uint32_t db[2] = { 0x11111111, 0x22222222 };
	struct ctx t;

	ctx_open(&t, QUEUE_SIZE);
	igt_qaic_write_dev(t.fd, t.dbc, DB_ADDR, db, sizeof(db));

	igt_qaic_slice_init(&e[0], 0, 0, BASE_DEV_ADDR);
	igt_qaic_slice_doorbell(&e[0], DB_ADDR, 32, 0xcafef00d);
	e[0].sem0 = igt_qaic_sem(QAIC_SEM_INC, 9, 0, false);
	/* One at the very end of the object, checking the semaphore */
	igt_qaic_slice_init(&e[1], BO_SIZE, 0, BASE_DEV_ADDR);
	igt_qaic_slice_doorbell(&e[1], DB_ADDR + 4, 16, 0xbeef);
	e[1].sem0 = igt_qaic_sem(QAIC_SEM_WAIT_EQUAL, 9, 1, true);
	igt_qaic_attach_slice(t.fd, t.bo.handle, t.dbc, IGT_QAIC_DIR_TO_DEV,
			      e, 2);

	igt_qaic_execute_bo(t.fd, t.dbc, t.bo.handle, IGT_QAIC_DIR_TO_DEV);
	igt_qaic_wait(t.fd, t.bo.handle, t.dbc, 10000);

	igt_qaic_read_dev(t.fd, t.dbc, DB_ADDR, db, sizeof(db));
	igt_assert_eq_u32(db[0], 0xcafef00d);
	/* A 16-bit doorbell writes the low two bytes only */
	igt_assert_eq_u32(db[1], 0x2222beef);

	igt_qaic_detach_slice(t.fd, t.bo.handle);
	ctx_close(&t);
}

static void test_already_sliced(void)
{
	struct qaic_attach_slice_entry e;
	uint32_t dbc2;
	struct ctx t;
	int ret;

	ctx_open(&t, QUEUE_SIZE);
	dbc2 = igt_qaic_activate(t.fd, QUEUE_SIZE);
	base_entry(&e);
	igt_qaic_attach_slice(t.fd, t.bo.handle, t.dbc, IGT_QAIC_DIR_TO_DEV,
			      &e, 1);

	ret = __igt_qaic_attach_slice(t.fd, t.bo.handle, t.dbc,
				      IGT_QAIC_DIR_TO_DEV, &e, 1);
	igt_assert_f(ret == -EINVAL, "same slicing again: got %s\n",
		     igt_qaic_err_name(-ret));
	ret = __igt_qaic_attach_slice(t.fd, t.bo.handle, t.dbc,
				      IGT_QAIC_DIR_FROM_DEV, &e, 1);
	igt_assert_f(ret == -EINVAL, "other direction: got %s\n",
		     igt_qaic_err_name(-ret));
	ret = __igt_qaic_attach_slice(t.fd, t.bo.handle, dbc2,
				      IGT_QAIC_DIR_TO_DEV, &e, 1);
	igt_assert_f(ret == -EINVAL, "other DBC: got %s\n", igt_qaic_err_name(-ret));

	igt_qaic_detach_slice(t.fd, t.bo.handle);
	igt_qaic_attach_slice(t.fd, t.bo.handle, dbc2, IGT_QAIC_DIR_TO_DEV,
			      &e, 1);
	igt_qaic_detach_slice(t.fd, t.bo.handle);
	ctx_close(&t);
}

/* A ring that takes every request of the slicings below: 64 pages at most */
#define WIDE_RING	128

/*
 * The requests the driver makes of @count slices @e of @bo, as PERF_STATS
 * reports them after one execution on a ring that takes them all.
 */
static uint32_t slicing_requests(int fd, uint32_t handle,
				 const struct qaic_attach_slice_entry *e,
				 uint32_t count)
{
	struct qaic_perf_stats_entry s = { .handle = handle };
	uint32_t dbc = igt_qaic_activate(fd, WIDE_RING);

	igt_qaic_attach_slice(fd, handle, dbc, IGT_QAIC_DIR_TO_DEV, e, count);
	igt_qaic_execute_bo(fd, dbc, handle, IGT_QAIC_DIR_TO_DEV);
	igt_qaic_wait(fd, handle, dbc, 10000);
	igt_qaic_perf_stats(fd, dbc, &s, 1);
	igt_qaic_detach_slice(fd, handle);
	igt_qaic_deactivate(fd, dbc);
	return s.num_queue_element;
}

/*
 * A slice takes one request per contiguous piece of the object's DMA
 * mapping that it covers, and a ring of N elements takes N - 1 requests.
 * How many pieces there are is the kernel's: without an IOMMU, one per run
 * of physically contiguous pages; behind one, the whole object is usually
 * one range of addresses. So the test asks the driver how many requests
 * @count slices @e make (n), then checks the bound on either side: a
 * ring that takes n - 1 refuses them with ENOSPC, leaving the object
 * unsliced, and one that takes n accepts them. Where n is more than
 * @count, the refusal is of the requests the mapping's pieces add; where
 * it is not, of the slices alone.
 */
static void check_requests_bound(int fd, struct igt_qaic_bo *bo,
				 const struct qaic_attach_slice_entry *e,
				 uint32_t count, uint64_t pages, const char *what)
{
	uint32_t n = slicing_requests(fd, bo->handle, e, count);
	uint32_t dbc;
	int ret;

	igt_info("%s: %u requests (%s)\n", what, n,
		 n > count ? "the mapping's pieces" : "one per slice");
	igt_assert_f(n >= count && n <= pages,
		     "%s: %u requests, not between %u and %llu\n", what, n, count,
		     (unsigned long long)pages);

	/* A ring of n elements takes n - 1 requests */
	dbc = igt_qaic_activate(fd, n);
	ret = __igt_qaic_attach_slice(fd, bo->handle, dbc, IGT_QAIC_DIR_TO_DEV,
				      e, count);
	igt_assert_f(ret == -ENOSPC, "%s on a ring of %u: got %s\n", what, n,
		     igt_qaic_err_name(-ret));
	igt_qaic_deactivate(fd, dbc);

	dbc = igt_qaic_activate(fd, n + 1);
	igt_qaic_attach_slice(fd, bo->handle, dbc, IGT_QAIC_DIR_TO_DEV, e, count);
	igt_qaic_detach_slice(fd, bo->handle);
	igt_qaic_deactivate(fd, dbc);
}

static void test_too_many_requests(void)
{
	struct qaic_attach_slice_entry e[3];
	struct igt_qaic_bo big;
	uint32_t dbc;
	int fd;

	fd = igt_qaic_open_dbc(4, &dbc);
	igt_qaic_bo_create(fd, 64 * PAGE, &big);
	for (uint64_t i = 0; i < 64; i++)
		big.ptr[i * PAGE] = i;

	/* One slice over the 64 pages */
	igt_qaic_slice_init(&e[0], 0, big.size, 0);
	check_requests_bound(fd, &big, e, 1, 64, "1 slice of 64 pages");

	/* Three slices of 16 pages */
	for (int i = 0; i < 3; i++)
		igt_qaic_slice_init(&e[i], i * 16 * PAGE, 16 * PAGE,
				    i * 0x10000);
	check_requests_bound(fd, &big, e, 3, 48, "3 slices of 16 pages");

	/* A ring of 4 takes three one-page slices */
	for (int i = 0; i < 3; i++)
		igt_qaic_slice_init(&e[i], i * 16 * PAGE, PAGE, i * 0x10000);
	igt_qaic_attach_slice(fd, big.handle, dbc, IGT_QAIC_DIR_TO_DEV, e, 3);
	igt_qaic_detach_slice(fd, big.handle);

	igt_qaic_bo_destroy(fd, &big);
	close(fd);
}

static void test_hdr_size_ignored(void)
{
	static const uint64_t sizes[] = { 0, 1, PAGE, BO_SIZE + PAGE,
					  UINT64_MAX };
	struct qaic_attach_slice_entry e;
	struct ctx t;

	ctx_open(&t, QUEUE_SIZE);
	base_entry(&e);
	for (unsigned int i = 0; i < ARRAY_SIZE(sizes); i++) {
		struct qaic_attach_slice args = {
			.hdr = {
				.count = 1,
				.dbc_id = t.dbc,
				.handle = t.bo.handle,
				.dir = IGT_QAIC_DIR_TO_DEV,
				.size = sizes[i],
			},
			.data = to_user_pointer(&e),
		};

		igt_assert_f(igt_ioctl(t.fd, DRM_IOCTL_QAIC_ATTACH_SLICE_BO,
				       &args) == 0,
			     "hdr.size %#llx: %s\n",
			     (unsigned long long)sizes[i], strerror(errno));
		igt_qaic_detach_slice(t.fd, t.bo.handle);
	}
	ctx_close(&t);
}

static void test_detach_pad(void)
{
	struct qaic_detach_slice args = { };
	struct ctx t;
	int ret;

	ctx_open(&t, QUEUE_SIZE);
	igt_qaic_attach_simple(t.fd, t.bo.handle, t.dbc, IGT_QAIC_DIR_TO_DEV,
			       PAGE, 0);
	args.handle = t.bo.handle;
	args.pad = 1;
	do_ioctl_err(t.fd, DRM_IOCTL_QAIC_DETACH_SLICE_BO, &args, EINVAL);
	args.pad = 0x80000000u;
	do_ioctl_err(t.fd, DRM_IOCTL_QAIC_DETACH_SLICE_BO, &args, EINVAL);
	/* Checked before the handle */
	args.handle = 0xdeadbeef;
	do_ioctl_err(t.fd, DRM_IOCTL_QAIC_DETACH_SLICE_BO, &args, EINVAL);

	/* The object is still sliced */
	ret = __igt_qaic_attach_simple(t.fd, t.bo.handle, t.dbc,
				       IGT_QAIC_DIR_TO_DEV, PAGE, 0);
	igt_assert_f(ret == -EINVAL, "attach after a failed detach: got %s\n",
		     igt_qaic_err_name(-ret));
	igt_qaic_detach_slice(t.fd, t.bo.handle);
	ctx_close(&t);
}

static void test_detach_bad_handle(void)
{
	uint32_t handle;
	struct ctx t;

	ctx_open(&t, QUEUE_SIZE);
	igt_assert_eq(__igt_qaic_detach_slice(t.fd, 0), -ENOENT);
	igt_assert_eq(__igt_qaic_detach_slice(t.fd, 0xdeadbeef), -ENOENT);

	/* A sliced object whose handle was closed: gone with it */
	handle = igt_qaic_create_bo(t.fd, PAGE);
	igt_qaic_attach_simple(t.fd, handle, t.dbc, IGT_QAIC_DIR_TO_DEV,
			       PAGE, 0);
	gem_close(t.fd, handle);
	igt_assert_eq(__igt_qaic_detach_slice(t.fd, handle), -ENOENT);
	ctx_close(&t);
}

static void test_detach_not_sliced(void)
{
	struct ctx t;

	ctx_open(&t, QUEUE_SIZE);
	igt_assert_eq(__igt_qaic_detach_slice(t.fd, t.bo.handle), -EINVAL);
	igt_qaic_attach_simple(t.fd, t.bo.handle, t.dbc, IGT_QAIC_DIR_TO_DEV,
			       PAGE, 0);
	igt_qaic_detach_slice(t.fd, t.bo.handle);
	igt_assert_eq(__igt_qaic_detach_slice(t.fd, t.bo.handle), -EINVAL);
	ctx_close(&t);
}

/*
 * A job that waits on a semaphore nothing releases keeps its object busy,
 * and an object queued behind it stays queued. The emulated card runs a
 * channel's requests in order and has no workload to set semaphores, so
 * nothing can release the wait: the driver's job timeout ends it (EIO),
 * and cancels the one queued behind (ECANCELED).
 */
static void test_detach_busy(void)
{
	struct igt_qaic_bo stall;
	int ret;
	struct ctx t;

	ctx_open(&t, QUEUE_SIZE);
	igt_qaic_stall_bo(t.fd, t.dbc, 31, &stall);
	igt_qaic_attach_simple(t.fd, t.bo.handle, t.dbc, IGT_QAIC_DIR_TO_DEV,
			       PAGE, BASE_DEV_ADDR);

	igt_qaic_execute_bo(t.fd, t.dbc, stall.handle, IGT_QAIC_DIR_TO_DEV);
	igt_qaic_execute_bo(t.fd, t.dbc, t.bo.handle, IGT_QAIC_DIR_TO_DEV);

	igt_assert_eq(__igt_qaic_wait(t.fd, stall.handle, t.dbc, IGT_QAIC_WAIT_LOOK_MS),
		      -ETIMEDOUT);
	ret = __igt_qaic_detach_slice(t.fd, stall.handle);
	igt_assert_f(ret == -EBUSY, "detach of a running object: got %s\n",
		     igt_qaic_err_name(-ret));
	ret = __igt_qaic_detach_slice(t.fd, t.bo.handle);
	igt_assert_f(ret == -EBUSY, "detach of a queued object: got %s\n",
		     igt_qaic_err_name(-ret));

	/* Still sliced: executing it again is fine */
	igt_qaic_execute_bo(t.fd, t.dbc, t.bo.handle, IGT_QAIC_DIR_TO_DEV);

	ret = __igt_qaic_wait(t.fd, stall.handle, t.dbc, 10000);
	igt_assert_f(ret == -EIO, "wait of the stalled job: got %s\n",
		     igt_qaic_err_name(-ret));
	ret = __igt_qaic_wait(t.fd, t.bo.handle, t.dbc, 10000);
	igt_assert_f(ret == -ECANCELED || ret == -EIO,
		     "wait of the jobs behind it: got %s\n", igt_qaic_err_name(-ret));

	igt_qaic_detach_slice(t.fd, stall.handle);
	igt_qaic_detach_slice(t.fd, t.bo.handle);
	igt_qaic_bo_destroy(t.fd, &stall);
	ctx_close(&t);
}

static void test_reattach(void)
{
	uint8_t got[PAGE];
	struct ctx t;

	ctx_open(&t, QUEUE_SIZE);
	for (int i = 0; i < 3; i++) {
		uint64_t dev_addr = BASE_DEV_ADDR + i * 0x10000;

		igt_qaic_fill_pattern(t.bo.ptr, PAGE, 100 + i);
		igt_qaic_attach_simple(t.fd, t.bo.handle, t.dbc,
				       IGT_QAIC_DIR_TO_DEV, PAGE, dev_addr);
		igt_qaic_execute_bo(t.fd, t.dbc, t.bo.handle,
				    IGT_QAIC_DIR_TO_DEV);
		igt_qaic_wait(t.fd, t.bo.handle, t.dbc, 10000);
		igt_qaic_detach_slice(t.fd, t.bo.handle);

		igt_qaic_read_dev(t.fd, t.dbc, dev_addr, got, PAGE);
		igt_qaic_assert_bytes(got, t.bo.ptr, PAGE, "after re-attach");
	}

	/* The other direction this time */
	memset(t.bo.ptr, 0, PAGE);
	igt_qaic_attach_simple(t.fd, t.bo.handle, t.dbc, IGT_QAIC_DIR_FROM_DEV,
			       PAGE, BASE_DEV_ADDR + 0x10000);
	igt_qaic_execute_bo(t.fd, t.dbc, t.bo.handle, IGT_QAIC_DIR_FROM_DEV);
	igt_qaic_wait(t.fd, t.bo.handle, t.dbc, 10000);
	igt_qaic_fill_pattern(got, PAGE, 101);
	igt_qaic_assert_bytes(t.bo.ptr, got, PAGE, "read back after re-attach");
	igt_qaic_detach_slice(t.fd, t.bo.handle);
	ctx_close(&t);
}

/*
 * A runtime's recovery: its DBC went away (here a deactivate the card
 * answered; a reset or a subsystem restart release it the same way), it
 * activates one again and
 * attaches its objects again, without detaching them first. The release
 * made the old slicing stale (Linux 7.2 detaches it), so the attach works
 * and the new slicing, the other direction, is the one that runs. A live
 * slicing still refuses a second attach (attach-already-sliced).
 */
static void test_reattach_after_deactivate(void)
{
	uint8_t want[PAGE];
	struct ctx t;
	int ret;

	ctx_open(&t, QUEUE_SIZE);
	igt_qaic_fill_pattern(t.bo.ptr, PAGE, 120);
	memcpy(want, t.bo.ptr, PAGE);
	igt_qaic_attach_simple(t.fd, t.bo.handle, t.dbc, IGT_QAIC_DIR_TO_DEV, PAGE,
			       BASE_DEV_ADDR);
	igt_qaic_execute_bo(t.fd, t.dbc, t.bo.handle, IGT_QAIC_DIR_TO_DEV);
	igt_qaic_wait(t.fd, t.bo.handle, t.dbc, 10000);

	igt_qaic_release_dbc(t.fd, t.dbc);
	t.dbc = igt_qaic_activate(t.fd, QUEUE_SIZE);
	memset(t.bo.ptr, 0, PAGE);
	ret = __igt_qaic_attach_simple(t.fd, t.bo.handle, t.dbc, IGT_QAIC_DIR_FROM_DEV,
				       PAGE, BASE_DEV_ADDR);
	igt_assert_f(ret == 0, "attach after the DBC was released: got %s\n",
		     igt_qaic_err_name(-ret));
	ret = __igt_qaic_attach_simple(t.fd, t.bo.handle, t.dbc, IGT_QAIC_DIR_FROM_DEV,
				       PAGE, BASE_DEV_ADDR);
	igt_assert_f(ret == -EINVAL, "a second attach on the live DBC: got %s\n",
		     igt_qaic_err_name(-ret));
	igt_qaic_execute_bo(t.fd, t.dbc, t.bo.handle, IGT_QAIC_DIR_FROM_DEV);
	igt_qaic_wait(t.fd, t.bo.handle, t.dbc, 10000);
	igt_qaic_assert_bytes(t.bo.ptr, want, PAGE, "read back through the new slicing");
	igt_qaic_detach_slice(t.fd, t.bo.handle);
	ctx_close(&t);
}

static void test_reattach_other_dbc(void)
{
	uint8_t got[PAGE];
	uint32_t dbc2;
	struct ctx t;
	int ret;

	ctx_open(&t, QUEUE_SIZE);
	dbc2 = igt_qaic_activate(t.fd, QUEUE_SIZE);

	igt_qaic_fill_pattern(t.bo.ptr, PAGE, 1);
	igt_qaic_attach_simple(t.fd, t.bo.handle, t.dbc, IGT_QAIC_DIR_TO_DEV,
			       PAGE, BASE_DEV_ADDR);
	igt_qaic_execute_bo(t.fd, t.dbc, t.bo.handle, IGT_QAIC_DIR_TO_DEV);
	igt_qaic_wait(t.fd, t.bo.handle, t.dbc, 10000);
	igt_qaic_detach_slice(t.fd, t.bo.handle);

	igt_qaic_fill_pattern(t.bo.ptr, PAGE, 2);
	igt_qaic_attach_simple(t.fd, t.bo.handle, dbc2, IGT_QAIC_DIR_TO_DEV,
			       PAGE, BASE_DEV_ADDR + PAGE);
	ret = __igt_qaic_execute_bo(t.fd, t.dbc, t.bo.handle,
				    IGT_QAIC_DIR_TO_DEV);
	igt_assert_f(ret == -EINVAL, "execute on the old DBC: got %s\n",
		     igt_qaic_err_name(-ret));
	igt_qaic_execute_bo(t.fd, dbc2, t.bo.handle, IGT_QAIC_DIR_TO_DEV);
	igt_qaic_wait(t.fd, t.bo.handle, dbc2, 10000);

	/* Device memory is one for all channels: read both through the first */
	igt_qaic_read_dev(t.fd, t.dbc, BASE_DEV_ADDR + PAGE, got, PAGE);
	igt_qaic_assert_bytes(got, t.bo.ptr, PAGE, "written through DBC 2");
	igt_qaic_fill_pattern(t.bo.ptr, PAGE, 1);
	igt_qaic_read_dev(t.fd, dbc2, BASE_DEV_ADDR, got, PAGE);
	igt_qaic_assert_bytes(got, t.bo.ptr, PAGE, "written through DBC 1");

	igt_qaic_detach_slice(t.fd, t.bo.handle);
	ctx_close(&t);
}

igt_main
{
	int fd = -1;

	igt_fixture {
		fd = igt_qaic_open();
	}

	igt_describe("Check that valid slicings, with every field set, are attached and detached.");
	igt_subtest("attach-simple")
		test_attach_simple();

	igt_describe("Check that ATTACH_SLICE_BO refuses 0 slices with EINVAL.");
	igt_subtest("attach-count-zero")
		test_count_zero();

	igt_describe("Check that ATTACH_SLICE_BO refuses a direction other than 1 and 2 with EINVAL.");
	igt_subtest("attach-bad-dir")
		test_bad_dir();

	igt_describe("Check that ATTACH_SLICE_BO refuses a DBC id of 16 or more with EINVAL.");
	igt_subtest("attach-bad-dbc")
		test_bad_dbc();

	igt_describe("Check that ATTACH_SLICE_BO refuses a DBC the file never activated with EPERM.");
	igt_subtest("attach-dbc-never-activated")
		test_dbc_never_activated();

	igt_describe("Check that ATTACH_SLICE_BO refuses the DBC of another file with EPERM.");
	igt_subtest("attach-dbc-other-file")
		test_dbc_other_file();

	igt_describe("Check that ATTACH_SLICE_BO refuses a DBC the file deactivated with EPERM.");
	igt_subtest("attach-dbc-deactivated")
		test_dbc_deactivated();

	igt_describe("Check that ATTACH_SLICE_BO refuses more slices than the ring takes with ENOSPC.");
	igt_subtest("attach-count-too-many")
		test_count_too_many();

	igt_describe("Check that ATTACH_SLICE_BO refuses unreadable slices with EFAULT.");
	igt_subtest("attach-data-unmapped")
		test_data_unmapped();

	igt_describe("Check that ATTACH_SLICE_BO refuses an unknown handle with ENOENT.");
	igt_subtest("attach-bad-handle")
		test_bad_handle();

	for (unsigned int i = 0; i < ARRAY_SIZE(sem_field_cases); i++) {
		igt_describe("Check ATTACH_SLICE_BO's rule for one field of a semaphore operation.");
		igt_subtest_f("attach-sem-%s", sem_field_cases[i].name)
			test_sem_field(&sem_field_cases[i]);
	}

	igt_describe("Check that ATTACH_SLICE_BO refuses a slice with two presync semaphores.");
	igt_subtest("attach-two-presync")
		test_two_presync();

	igt_describe("Check that ATTACH_SLICE_BO refuses a slice whose offset + size wraps.");
	igt_subtest("attach-offset-size-wrap")
		test_offset_size_wrap();

	igt_describe("Check that ATTACH_SLICE_BO refuses a slice past the end of the object.");
	igt_subtest("attach-past-end")
		test_past_end();

	igt_describe("Check that ATTACH_SLICE_BO refuses offsets beyond 4 GiB on a small object.");
	igt_subtest("attach-offset-beyond-4g")
		test_offset_beyond_4g();

	igt_describe("Check that ATTACH_SLICE_BO refuses a slice whose device range wraps.");
	igt_subtest("attach-dev-addr-wrap")
		test_dev_addr_wrap();

	igt_describe("Check that ATTACH_SLICE_BO refuses doorbell widths other than 0, 8, 16, 32.");
	igt_subtest("attach-db-len")
		test_db_len();

	igt_describe("Check that ATTACH_SLICE_BO refuses a doorbell address without a width.");
	igt_subtest("attach-db-len-zero-addr")
		test_db_len_zero_addr();

	igt_describe("Check that ATTACH_SLICE_BO refuses a doorbell width without an address.");
	igt_subtest("attach-db-addr-zero")
		test_db_addr_zero();

	igt_describe("Check that ATTACH_SLICE_BO refuses doorbells not aligned to their width.");
	igt_subtest("attach-db-unaligned")
		test_db_unaligned();

	igt_describe("Check that a slice of 0 bytes is taken and still runs its semaphores and doorbell.");
	igt_subtest("attach-size-zero")
		test_size_zero();

	igt_describe("Check that ATTACH_SLICE_BO refuses an object that is already sliced.");
	igt_subtest("attach-already-sliced")
		test_already_sliced();

	igt_describe("Check that ATTACH_SLICE_BO refuses slices needing more requests than the ring takes.");
	igt_subtest("attach-too-many-requests")
		test_too_many_requests();

	igt_describe("Check that ATTACH_SLICE_BO ignores hdr.size.");
	igt_subtest("attach-hdr-size-ignored")
		test_hdr_size_ignored();

	igt_describe("Check that DETACH_SLICE_BO refuses a non-zero pad with EINVAL.");
	igt_subtest("detach-pad")
		test_detach_pad();

	igt_describe("Check that DETACH_SLICE_BO refuses an unknown handle with ENOENT.");
	igt_subtest("detach-bad-handle")
		test_detach_bad_handle();

	igt_describe("Check that DETACH_SLICE_BO refuses an object that is not sliced with EINVAL.");
	igt_subtest("detach-not-sliced")
		test_detach_not_sliced();

	igt_describe("Check that DETACH_SLICE_BO refuses an object with jobs running or queued with EBUSY.");
	igt_subtest("detach-busy")
		test_detach_busy();

	igt_describe("Check that a detached object can be attached again and moves the new slices' data.");
	igt_subtest("reattach")
		test_reattach();

	igt_describe("Check that a detached object can be attached to another DBC and runs there only.");
	igt_subtest("reattach-other-dbc")
		test_reattach_other_dbc();

	igt_describe("Check that an object sliced for a DBC that was deactivated and activated again can be attached again without a detach, as runtimes do after a recovery, and moves the new slices' data.");
	igt_subtest("reattach-after-deactivate")
		test_reattach_after_deactivate();

	igt_fixture {
		close(fd);
	}
}
