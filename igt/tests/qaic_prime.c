// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The qaic authors.
 */

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <linux/dma-buf.h>
#include <xf86drm.h>

#include "igt_qaic.h"
#include "igt_qaic_sync.h"

/**
 * TEST: qaic prime
 * Category: Core
 * Description: Sharing buffer objects between qaic and vgem through dma-bufs.
 * Feature: qaic, prime
 *
 * SUBTEST: export-to-vgem
 * Description: Check that bytes cross an exported object both ways between the card and vgem.
 * Run type: BAT
 *
 * SUBTEST: import-from-vgem
 * Description: Check that an object of vgem imported into qaic executes both ways.
 * Run type: BAT
 *
 * SUBTEST: self-import
 * Description: Check that an object exported by qaic comes back as the same handle.
 * Run type: FULL
 *
 * SUBTEST: close-dmabuf-before-execute
 * Description: Check that an import outlives its dma-buf file descriptor.
 * Run type: FULL
 *
 * SUBTEST: close-dmabuf-during-execute
 * Description: Check that closing the dma-buf while a job uses the import is safe.
 * Run type: FULL
 *
 * SUBTEST: close-vgem-first
 * Description: Check that an import outlives the exporter's handle, mapping and file.
 * Run type: FULL
 *
 * SUBTEST: close-qaic-first
 * Description: Check that closing qaic's handles first, with work queued, is safe.
 * Run type: FULL
 *
 * SUBTEST: exit-with-work-queued
 * Description: Check that a process may exit with jobs on imported and exported objects queued.
 * Run type: FULL
 *
 * SUBTEST: implicit-fence
 * Description: Check that a job on an import waits for the exporter's write fence.
 * Run type: FULL
 *
 * SUBTEST: import-bad-fd
 * Description: Check that importing what is not a dma-buf fails.
 * Run type: FULL
 *
 * SUBTEST: attach-import-twice
 * Description: Check that slicing an imported object a second time is refused with -EINVAL.
 * Run type: FULL
 */

IGT_TEST_DESCRIPTION("Sharing buffer objects between qaic and vgem through dma-bufs.");

#define SZ_4K		4096ull
#define SZ_1M		(1024 * 1024ull)

/* Where the tests put their data in device memory */
#define DEV_ADDR	(32 * SZ_1M)

/* Ring entries of each DBC; objects have at most half as many pages */
#define QUEUE_SIZE	256
#define BO_SIZE		(64 * SZ_4K)

#define WAIT_MS		20000

struct data {
	int fd;
	int vgem;
	uint32_t dbc;
};

/* Runs @handle, sliced in direction @dir on the test's DBC, and waits. */
static void run_bo(const struct data *d, uint32_t handle, uint32_t dir)
{
	igt_qaic_submit(d->fd, d->dbc, handle, dir, NULL, 0, 0, 0);
	igt_assert_eq(__igt_qaic_sync_wait_bo(d->fd, handle, d->dbc, WAIT_MS),
		      0);
}

/* Puts @size bytes of seed @seed in device memory at @dev_addr. */
static void write_dev(const struct data *d, uint64_t dev_addr, uint64_t size,
		      uint32_t seed)
{
	struct igt_qaic_sync_bo bo;

	igt_qaic_sync_bo_new(d->fd, size, &bo);
	igt_qaic_sync_pattern(bo.ptr, size, seed);
	igt_qaic_sync_attach(d->fd, bo.handle, d->dbc, IGT_QAIC_SYNC_TO_DEV,
			     size, dev_addr);
	run_bo(d, bo.handle, IGT_QAIC_SYNC_TO_DEV);
	igt_qaic_sync_bo_free(d->fd, &bo);
}

/* Checks that device memory at @dev_addr holds seed @seed. */
static void check_dev(const struct data *d, uint64_t dev_addr, uint64_t size,
		      uint32_t seed, const char *what)
{
	struct igt_qaic_sync_bo bo;

	igt_qaic_sync_bo_new(d->fd, size, &bo);
	memset(bo.ptr, 0, size);
	igt_qaic_sync_attach(d->fd, bo.handle, d->dbc, IGT_QAIC_SYNC_FROM_DEV,
			     size, dev_addr);
	run_bo(d, bo.handle, IGT_QAIC_SYNC_FROM_DEV);
	igt_qaic_sync_check(bo.ptr, size, seed, what);
	igt_qaic_sync_bo_free(d->fd, &bo);
}

/*
 * A CPU view of an object vgem imported. The DRM core refuses
 * DRM_IOCTL_MODE_MAP_DUMB for imports (drm_gem_dumb_map_offset()), so the
 * view maps the dma-buf vgem exports for its handle: the same object, and
 * mmap() on it goes to the exporter, qaic.
 */
struct view {
	int dmabuf;
	uint8_t *ptr;
};

static void view_open(const struct data *d, uint32_t vhandle,
		      struct view *v)
{
	uint64_t offset;

	igt_assert_eq(__igt_qaic_vgem_map_offset(d->vgem, vhandle, &offset),
		      -EINVAL);
	v->dmabuf = igt_qaic_prime_export(d->vgem, vhandle);
	v->ptr = igt_qaic_dmabuf_mmap(v->dmabuf, BO_SIZE);
}

static void view_close(struct view *v)
{
	igt_assert_eq(munmap(v->ptr, BO_SIZE), 0);
	igt_assert_eq(close(v->dmabuf), 0);
}

static void view_check(const struct view *v, uint32_t seed, const char *what)
{
	igt_qaic_dmabuf_sync(v->dmabuf, DMA_BUF_SYNC_START | DMA_BUF_SYNC_READ);
	igt_qaic_sync_check(v->ptr, BO_SIZE, seed, what);
	igt_qaic_dmabuf_sync(v->dmabuf, DMA_BUF_SYNC_END | DMA_BUF_SYNC_READ);
}

static void view_fill(const struct view *v, uint32_t seed)
{
	igt_qaic_dmabuf_sync(v->dmabuf, DMA_BUF_SYNC_START | DMA_BUF_SYNC_WRITE);
	igt_qaic_sync_pattern(v->ptr, BO_SIZE, seed);
	igt_qaic_dmabuf_sync(v->dmabuf, DMA_BUF_SYNC_END | DMA_BUF_SYNC_WRITE);
}

/*
 * A job held back: it waits for a gate, a fence the test signals, so that
 * it is surely queued and not yet run while the test closes things.
 */
struct held {
	uint32_t gate_obj;
	uint32_t out;
	struct igt_qaic_gate gate;
};

/* Queues @handle behind a new gate; the job signals @h->out when done. */
static void held_submit(const struct data *d, uint32_t handle, uint32_t dir,
			struct held *h)
{
	struct qaic_sync after_gate;

	h->gate_obj = igt_qaic_syncobj_create(d->fd);
	h->out = igt_qaic_syncobj_create(d->fd);
	igt_qaic_gate_init(d->fd, h->gate_obj, 0, &h->gate);
	after_gate = (struct qaic_sync) { .handle = h->gate_obj };
	igt_qaic_submit(d->fd, d->dbc, handle, dir, &after_gate, 1, h->out, 0);
}

/* Checks the job is still held, lets it run and waits for it. */
static void held_release(const struct data *d, struct held *h)
{
	usleep(100000);
	igt_assert_eq(__igt_qaic_syncobj_wait(d->fd, h->out, 0, 0, 0), -ETIME);
	igt_qaic_gate_open(&h->gate);
	igt_qaic_syncobj_wait(d->fd, h->out, 0, WAIT_MS * 1000000ll);
	igt_qaic_syncobj_destroy(d->fd, h->gate_obj);
	igt_qaic_syncobj_destroy(d->fd, h->out);
}

/* Imports vgem object @handle into qaic, through a dma-buf closed after. */
static uint32_t vgem_to_qaic(const struct data *d, uint32_t handle)
{
	int dmabuf = igt_qaic_prime_export(d->vgem, handle);
	uint32_t imported = igt_qaic_prime_import(d->fd, dmabuf);

	close(dmabuf);
	return imported;
}

static void test_export_to_vgem(const struct data *d)
{
	struct igt_qaic_sync_bo out, in;
	uint32_t vout, vin;
	struct view view;
	int dmabuf;

	/* The card writes an object, vgem reads it */
	igt_qaic_sync_bo_new(d->fd, BO_SIZE, &out);
	memset(out.ptr, 0, BO_SIZE);
	igt_qaic_sync_attach(d->fd, out.handle, d->dbc,
			     IGT_QAIC_SYNC_FROM_DEV, BO_SIZE, DEV_ADDR);
	write_dev(d, DEV_ADDR, BO_SIZE, 20);

	dmabuf = igt_qaic_prime_export(d->fd, out.handle);
	vout = igt_qaic_prime_import(d->vgem, dmabuf);
	close(dmabuf);
	view_open(d, vout, &view);
	igt_assert_eq(view.ptr[0], 0);

	run_bo(d, out.handle, IGT_QAIC_SYNC_FROM_DEV);
	igt_qaic_sync_check(out.ptr, BO_SIZE, 20, "qaic mapping");
	view_check(&view, 20, "vgem's view");
	view_close(&view);

	/* vgem writes an object, the card reads it */
	igt_qaic_sync_bo_new(d->fd, BO_SIZE, &in);
	memset(in.ptr, 0, BO_SIZE);
	igt_qaic_sync_attach(d->fd, in.handle, d->dbc, IGT_QAIC_SYNC_TO_DEV,
			     BO_SIZE, DEV_ADDR);
	dmabuf = igt_qaic_prime_export(d->fd, in.handle);
	vin = igt_qaic_prime_import(d->vgem, dmabuf);
	close(dmabuf);
	view_open(d, vin, &view);
	view_fill(&view, 21);
	view_close(&view);

	run_bo(d, in.handle, IGT_QAIC_SYNC_TO_DEV);
	check_dev(d, DEV_ADDR, BO_SIZE, 21, "written through vgem");

	gem_close(d->vgem, vout);
	gem_close(d->vgem, vin);
	igt_qaic_sync_bo_free(d->fd, &out);
	igt_qaic_sync_bo_free(d->fd, &in);
}

/*
 * Dumb buffers of vgem go through the card both ways: one is read by it,
 * one written, and the data is checked through vgem's mappings.
 */
static void test_import_from_vgem(const struct data *d)
{
	struct igt_qaic_dumb src, dst;
	uint32_t qsrc, qdst;

	igt_qaic_vgem_create(d->vgem, BO_SIZE, &src);
	igt_qaic_vgem_create(d->vgem, BO_SIZE, &dst);
	igt_qaic_sync_pattern(src.ptr, BO_SIZE, 22);
	memset(dst.ptr, 0, BO_SIZE);

	qsrc = vgem_to_qaic(d, src.handle);
	qdst = vgem_to_qaic(d, dst.handle);
	igt_assert_neq(qsrc, qdst);
	igt_qaic_sync_attach(d->fd, qsrc, d->dbc, IGT_QAIC_SYNC_TO_DEV,
			     BO_SIZE, DEV_ADDR);
	igt_qaic_sync_attach(d->fd, qdst, d->dbc, IGT_QAIC_SYNC_FROM_DEV,
			     BO_SIZE, DEV_ADDR);

	run_bo(d, qsrc, IGT_QAIC_SYNC_TO_DEV);
	check_dev(d, DEV_ADDR, BO_SIZE, 22, "from a vgem object");
	run_bo(d, qdst, IGT_QAIC_SYNC_FROM_DEV);
	igt_qaic_sync_check(dst.ptr, BO_SIZE, 22, "into a vgem object");

	/* Again, with new data, through the same imports */
	igt_qaic_sync_pattern(src.ptr, BO_SIZE, 23);
	run_bo(d, qsrc, IGT_QAIC_SYNC_TO_DEV);
	run_bo(d, qdst, IGT_QAIC_SYNC_FROM_DEV);
	igt_qaic_sync_check(dst.ptr, BO_SIZE, 23, "into a vgem object again");

	gem_close(d->fd, qsrc);
	gem_close(d->fd, qdst);
	igt_assert_eq(munmap(src.ptr, BO_SIZE), 0);
	igt_assert_eq(munmap(dst.ptr, BO_SIZE), 0);
	gem_close(d->vgem, src.handle);
	gem_close(d->vgem, dst.handle);
}

static void test_self_import(const struct data *d)
{
	struct igt_qaic_sync_bo bo;
	uint32_t handle, vhandle;
	int dmabuf, again;

	igt_qaic_sync_bo_new(d->fd, BO_SIZE, &bo);

	/* Straight back */
	dmabuf = igt_qaic_prime_export(d->fd, bo.handle);
	igt_assert_eq(igt_qaic_prime_import(d->fd, dmabuf), bo.handle);

	/* Through vgem and back */
	vhandle = igt_qaic_prime_import(d->vgem, dmabuf);
	close(dmabuf);
	again = igt_qaic_prime_export(d->vgem, vhandle);
	handle = igt_qaic_prime_import(d->fd, again);
	close(again);
	igt_assert_eq(handle, bo.handle);

	/* It is one object: slicing it through one handle slices all */
	igt_qaic_sync_attach(d->fd, bo.handle, d->dbc, IGT_QAIC_SYNC_TO_DEV,
			     BO_SIZE, DEV_ADDR);
	igt_assert_eq(__igt_qaic_sync_attach(d->fd, handle, d->dbc,
					     IGT_QAIC_SYNC_TO_DEV, BO_SIZE,
					     DEV_ADDR), -EINVAL);
	igt_qaic_sync_pattern(bo.ptr, BO_SIZE, 24);
	run_bo(d, bo.handle, IGT_QAIC_SYNC_TO_DEV);
	check_dev(d, DEV_ADDR, BO_SIZE, 24, "self-imported object");

	gem_close(d->vgem, vhandle);
	igt_qaic_sync_bo_free(d->fd, &bo);
}

static void test_close_dmabuf_before_execute(const struct data *d)
{
	struct igt_qaic_dumb src;
	uint32_t qsrc;
	int dmabuf;

	igt_qaic_vgem_create(d->vgem, BO_SIZE, &src);
	igt_qaic_sync_pattern(src.ptr, BO_SIZE, 25);

	dmabuf = igt_qaic_prime_export(d->vgem, src.handle);
	qsrc = igt_qaic_prime_import(d->fd, dmabuf);
	igt_assert_eq(close(dmabuf), 0);

	igt_qaic_sync_attach(d->fd, qsrc, d->dbc, IGT_QAIC_SYNC_TO_DEV,
			     BO_SIZE, DEV_ADDR);
	run_bo(d, qsrc, IGT_QAIC_SYNC_TO_DEV);
	check_dev(d, DEV_ADDR, BO_SIZE, 25, "import without its dma-buf");

	gem_close(d->fd, qsrc);
	igt_assert_eq(munmap(src.ptr, BO_SIZE), 0);
	gem_close(d->vgem, src.handle);
}

static void test_close_dmabuf_during_execute(const struct data *d)
{
	struct igt_qaic_dumb dst;
	struct held held;
	uint32_t qdst;
	int dmabuf;

	write_dev(d, DEV_ADDR, BO_SIZE, 26);
	igt_qaic_vgem_create(d->vgem, BO_SIZE, &dst);
	memset(dst.ptr, 0, BO_SIZE);

	dmabuf = igt_qaic_prime_export(d->vgem, dst.handle);
	qdst = igt_qaic_prime_import(d->fd, dmabuf);
	igt_qaic_sync_attach(d->fd, qdst, d->dbc, IGT_QAIC_SYNC_FROM_DEV,
			     BO_SIZE, DEV_ADDR);

	held_submit(d, qdst, IGT_QAIC_SYNC_FROM_DEV, &held);
	igt_assert_eq(close(dmabuf), 0);
	held_release(d, &held);
	igt_assert_eq(__igt_qaic_sync_wait_bo(d->fd, qdst, d->dbc, IGT_QAIC_WAIT_LOOK_MS), 0);
	igt_qaic_sync_check(dst.ptr, BO_SIZE, 26, "vgem object");

	gem_close(d->fd, qdst);
	igt_assert_eq(munmap(dst.ptr, BO_SIZE), 0);
	gem_close(d->vgem, dst.handle);
}

/*
 * The vgem file that made the object goes away, handle, mapping and all,
 * while the card reads the import. The import keeps the object alive and
 * runs again after.
 */
static void test_close_vgem_first(const struct data *d)
{
	int vgem = igt_qaic_vgem_open();
	struct igt_qaic_dumb src;
	struct held held;
	uint32_t qsrc;
	int dmabuf;

	igt_qaic_vgem_create(vgem, BO_SIZE, &src);
	igt_qaic_sync_pattern(src.ptr, BO_SIZE, 27);
	dmabuf = igt_qaic_prime_export(vgem, src.handle);
	qsrc = igt_qaic_prime_import(d->fd, dmabuf);
	igt_qaic_sync_attach(d->fd, qsrc, d->dbc, IGT_QAIC_SYNC_TO_DEV,
			     BO_SIZE, DEV_ADDR);

	held_submit(d, qsrc, IGT_QAIC_SYNC_TO_DEV, &held);
	igt_assert_eq(munmap(src.ptr, BO_SIZE), 0);
	gem_close(vgem, src.handle);
	igt_assert_eq(close(vgem), 0);
	igt_assert_eq(close(dmabuf), 0);

	held_release(d, &held);
	igt_assert_eq(__igt_qaic_sync_wait_bo(d->fd, qsrc, d->dbc, WAIT_MS), 0);
	check_dev(d, DEV_ADDR, BO_SIZE, 27, "import of a closed vgem object");

	write_dev(d, DEV_ADDR, BO_SIZE, 0);
	run_bo(d, qsrc, IGT_QAIC_SYNC_TO_DEV);
	check_dev(d, DEV_ADDR, BO_SIZE, 27, "import run again");

	gem_close(d->fd, qsrc);
}

/*
 * The other way round: qaic's handles close first. An import closed with
 * a job queued: the job still fills vgem's object. An exported object
 * closed in qaic: vgem still maps it, with what the card wrote.
 */
static void test_close_qaic_first(const struct data *d)
{
	struct igt_qaic_sync_bo bo;
	struct held held;
	struct igt_qaic_dumb dst;
	uint32_t qdst, vhandle;
	struct view view;
	int dmabuf;

	write_dev(d, DEV_ADDR, BO_SIZE, 28);

	/* An import of vgem's */
	igt_qaic_vgem_create(d->vgem, BO_SIZE, &dst);
	memset(dst.ptr, 0, BO_SIZE);
	qdst = vgem_to_qaic(d, dst.handle);
	igt_qaic_sync_attach(d->fd, qdst, d->dbc, IGT_QAIC_SYNC_FROM_DEV,
			     BO_SIZE, DEV_ADDR);
	held_submit(d, qdst, IGT_QAIC_SYNC_FROM_DEV, &held);
	gem_close(d->fd, qdst);
	held_release(d, &held);
	igt_qaic_sync_check(dst.ptr, BO_SIZE, 28, "vgem object after qaic closed it");

	/* An export of qaic's */
	igt_qaic_sync_bo_new(d->fd, BO_SIZE, &bo);
	memset(bo.ptr, 0, BO_SIZE);
	igt_qaic_sync_attach(d->fd, bo.handle, d->dbc, IGT_QAIC_SYNC_FROM_DEV,
			     BO_SIZE, DEV_ADDR);
	dmabuf = igt_qaic_prime_export(d->fd, bo.handle);
	vhandle = igt_qaic_prime_import(d->vgem, dmabuf);
	igt_assert_eq(close(dmabuf), 0);
	held_submit(d, bo.handle, IGT_QAIC_SYNC_FROM_DEV, &held);
	igt_qaic_sync_bo_free(d->fd, &bo);
	held_release(d, &held);
	view_open(d, vhandle, &view);
	view_check(&view, 28, "qaic object after qaic closed it");
	view_close(&view);
	gem_close(d->vgem, vhandle);

	igt_assert_eq(munmap(dst.ptr, BO_SIZE), 0);
	gem_close(d->vgem, dst.handle);
}

/*
 * A child process opens qaic itself, queues jobs on an import of the
 * parent's vgem object and on an object it exports to vgem, and exits
 * without waiting: closing its file must tear the jobs down cleanly. In
 * every other round the jobs wait behind a gate the child never opens:
 * its file is closed with none of them run.
 */
static void test_exit_with_work_queued(const struct data *d)
{
	const int jobs = 16;
	struct igt_qaic_dumb shared;
	uint32_t exported = 0;
	struct view view;
	int pipefd[2];

	/* The children's syncobjs: a skip is not allowed in a fork */
	igt_qaic_require_ours(d->fd, igt_qaic_has_syncobj(d->fd), "no syncobjs");
	igt_qaic_vgem_create(d->vgem, BO_SIZE, &shared);
	igt_qaic_sync_pattern(shared.ptr, BO_SIZE, 29);
	igt_assert_eq(pipe(pipefd), 0);

	for (int round = 0; round < 4; round++) {
		igt_fork(child, 1) {
			int fd = igt_qaic_open();
			uint32_t dbc = igt_qaic_activate(fd, QUEUE_SIZE);
			struct qaic_sync after_gate = { };
			struct igt_qaic_gate gate;
			struct igt_qaic_sync_bo bo;
			uint32_t imported, vhandle;
			int dmabuf;

			if (round % 2) {
				after_gate.handle = igt_qaic_syncobj_create(fd);
				igt_qaic_gate_init(fd, after_gate.handle, 0,
						   &gate);
			}

			dmabuf = igt_qaic_prime_export(d->vgem, shared.handle);
			imported = igt_qaic_prime_import(fd, dmabuf);
			igt_qaic_sync_attach(fd, imported, dbc,
					     IGT_QAIC_SYNC_TO_DEV, BO_SIZE,
					     DEV_ADDR + SZ_1M);

			igt_qaic_sync_bo_new(fd, BO_SIZE, &bo);
			igt_qaic_sync_attach(fd, bo.handle, dbc,
					     IGT_QAIC_SYNC_FROM_DEV, BO_SIZE,
					     DEV_ADDR + SZ_1M);
			close(dmabuf);
			dmabuf = igt_qaic_prime_export(fd, bo.handle);
			vhandle = igt_qaic_prime_import(d->vgem, dmabuf);

			for (int i = 0; i < jobs; i++) {
				igt_qaic_submit(fd, dbc, imported,
						IGT_QAIC_SYNC_TO_DEV,
						&after_gate,
						after_gate.handle ? 1 : 0,
						0, 0);
				igt_qaic_submit(fd, dbc, bo.handle,
						IGT_QAIC_SYNC_FROM_DEV, NULL,
						0, 0, 0);
			}

			/* The parent gets the vgem handle of our object */
			igt_assert_eq(write(pipefd[1], &vhandle,
					    sizeof(vhandle)),
				      (int)sizeof(vhandle));
			/* and we leave with everything open and queued */
		}
		igt_waitchildren();

		igt_assert_eq(read(pipefd[0], &exported, sizeof(exported)),
			      (int)sizeof(exported));
		/* The child's object lives on in vgem, mapped or not */
		view_open(d, exported, &view);
		igt_info("round %d: first byte of the child's object %#x\n",
			 round, view.ptr[0]);
		view_close(&view);
		gem_close(d->vgem, exported);
	}
	close(pipefd[0]);
	close(pipefd[1]);

	/* The vgem object is whole, and the card still works */
	igt_qaic_sync_check(shared.ptr, BO_SIZE, 29, "shared vgem object");
	write_dev(d, DEV_ADDR, BO_SIZE, 30);
	check_dev(d, DEV_ADDR, BO_SIZE, 30, "after the children");

	igt_assert_eq(munmap(shared.ptr, BO_SIZE), 0);
	gem_close(d->vgem, shared.handle);
}

/*
 * vgem puts an unsignalled write fence on its object; a job of the card
 * reading the import must wait for it, and then see what vgem wrote
 * before signalling.
 */
static void test_implicit_fence(const struct data *d)
{
	struct igt_qaic_dumb src;
	uint32_t qsrc, fence;
	int ret;

	igt_qaic_vgem_create(d->vgem, BO_SIZE, &src);
	igt_qaic_sync_pattern(src.ptr, BO_SIZE, 31);
	qsrc = vgem_to_qaic(d, src.handle);
	igt_qaic_sync_attach(d->fd, qsrc, d->dbc, IGT_QAIC_SYNC_TO_DEV,
			     BO_SIZE, DEV_ADDR);
	write_dev(d, DEV_ADDR, BO_SIZE, 0);

	ret = __igt_qaic_vgem_fence_attach(d->vgem, src.handle, &fence);
	igt_require_f(ret == 0, "vgem cannot attach fences: %s\n",
		      strerror(-ret));

	igt_qaic_submit(d->fd, d->dbc, qsrc, IGT_QAIC_SYNC_TO_DEV, NULL, 0,
			0, 0);
	usleep(300000);
	igt_assert_eq(__igt_qaic_sync_wait_bo(d->fd, qsrc, d->dbc, IGT_QAIC_WAIT_LOOK_MS),
		      -ETIMEDOUT);

	/* What vgem writes while it holds the fence is what the card reads */
	igt_qaic_sync_pattern(src.ptr, BO_SIZE, 32);
	igt_qaic_vgem_fence_signal(d->vgem, fence);

	igt_assert_eq(__igt_qaic_sync_wait_bo(d->fd, qsrc, d->dbc, WAIT_MS), 0);
	check_dev(d, DEV_ADDR, BO_SIZE, 32, "read after the fence");

	gem_close(d->fd, qsrc);
	igt_assert_eq(munmap(src.ptr, BO_SIZE), 0);
	gem_close(d->vgem, src.handle);
}

static void test_import_bad_fd(const struct data *d)
{
	uint32_t handle = 0;
	int fds[2];
	int nul;

	igt_assert_eq(__igt_qaic_prime_import(d->fd, -1, &handle), -EBADF);

	/* A descriptor just closed */
	igt_assert_eq(pipe(fds), 0);
	close(fds[0]);
	close(fds[1]);
	igt_assert_eq(__igt_qaic_prime_import(d->fd, fds[0], &handle), -EBADF);

	/* Files that are not dma-bufs */
	igt_assert_eq(pipe(fds), 0);
	igt_assert_eq(__igt_qaic_prime_import(d->fd, fds[0], &handle), -EINVAL);
	close(fds[0]);
	close(fds[1]);
	nul = open("/dev/null", O_RDWR);
	igt_assert_fd(nul);
	igt_assert_eq(__igt_qaic_prime_import(d->fd, nul, &handle), -EINVAL);
	close(nul);
	/* Not even a DRM file of its own */
	igt_assert_eq(__igt_qaic_prime_import(d->fd, d->fd, &handle), -EINVAL);
	igt_assert_eq(__igt_qaic_prime_import(d->fd, d->vgem, &handle), -EINVAL);
}

static void test_attach_import_twice(const struct data *d)
{
	struct igt_qaic_dumb src;
	uint32_t qsrc, again;
	int dmabuf;

	igt_qaic_vgem_create(d->vgem, BO_SIZE, &src);
	igt_qaic_sync_pattern(src.ptr, BO_SIZE, 33);
	dmabuf = igt_qaic_prime_export(d->vgem, src.handle);
	qsrc = igt_qaic_prime_import(d->fd, dmabuf);
	igt_qaic_sync_attach(d->fd, qsrc, d->dbc, IGT_QAIC_SYNC_TO_DEV,
			     BO_SIZE, DEV_ADDR);

	igt_assert_eq(__igt_qaic_sync_attach(d->fd, qsrc, d->dbc,
					     IGT_QAIC_SYNC_TO_DEV, BO_SIZE,
					     DEV_ADDR), -EINVAL);
	igt_assert_eq(__igt_qaic_sync_attach(d->fd, qsrc, d->dbc,
					     IGT_QAIC_SYNC_FROM_DEV, SZ_4K,
					     DEV_ADDR + SZ_1M), -EINVAL);

	/* A second import is the same object, sliced already */
	again = igt_qaic_prime_import(d->fd, dmabuf);
	igt_assert_eq(again, qsrc);
	igt_assert_eq(__igt_qaic_sync_attach(d->fd, again, d->dbc,
					     IGT_QAIC_SYNC_TO_DEV, BO_SIZE,
					     DEV_ADDR), -EINVAL);
	close(dmabuf);

	/* The first slicing is the one that runs */
	run_bo(d, qsrc, IGT_QAIC_SYNC_TO_DEV);
	check_dev(d, DEV_ADDR, BO_SIZE, 33, "import sliced once");

	gem_close(d->fd, qsrc);
	igt_assert_eq(munmap(src.ptr, BO_SIZE), 0);
	gem_close(d->vgem, src.handle);
}

igt_main
{
	struct data d = { .fd = -1, .vgem = -1 };

	igt_fixture {
		d.fd = igt_qaic_open();
		d.vgem = igt_qaic_vgem_open();
		d.dbc = igt_qaic_activate(d.fd, QUEUE_SIZE);
	}

	igt_describe("Check that bytes cross an exported object both ways between the card and vgem.");
	igt_subtest("export-to-vgem")
		test_export_to_vgem(&d);

	igt_describe("Check that an object of vgem imported into qaic executes both ways.");
	igt_subtest("import-from-vgem")
		test_import_from_vgem(&d);

	igt_describe("Check that an object exported by qaic comes back as the same handle.");
	igt_subtest("self-import")
		test_self_import(&d);

	igt_describe("Check that an import outlives its dma-buf file descriptor.");
	igt_subtest("close-dmabuf-before-execute")
		test_close_dmabuf_before_execute(&d);

	igt_describe("Check that closing the dma-buf while a job uses the import is safe.");
	igt_subtest("close-dmabuf-during-execute")
		test_close_dmabuf_during_execute(&d);

	igt_describe("Check that an import outlives the exporter's handle, mapping and file.");
	igt_subtest("close-vgem-first")
		test_close_vgem_first(&d);

	igt_describe("Check that closing qaic's handles first, with work queued, is safe.");
	igt_subtest("close-qaic-first")
		test_close_qaic_first(&d);

	igt_describe("Check that a process may exit with jobs on imported and exported objects queued.");
	igt_subtest("exit-with-work-queued")
		test_exit_with_work_queued(&d);

	igt_describe("Check that a job on an import waits for the exporter's write fence.");
	igt_subtest("implicit-fence")
		test_implicit_fence(&d);

	igt_describe("Check that importing what is not a dma-buf fails.");
	igt_subtest("import-bad-fd")
		test_import_bad_fd(&d);

	igt_describe("Check that slicing an imported object a second time is refused with -EINVAL.");
	igt_subtest("attach-import-twice")
		test_attach_import_twice(&d);

	igt_fixture {
		close(d.vgem);
		close(d.fd);
	}
}
