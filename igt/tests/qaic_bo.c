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

#include "igt_qaic.h"

/**
 * TEST: qaic bo
 * Category: Core
 * Description: Buffer objects of the qaic accel driver: creation, mapping, lifetime.
 * Feature: qaic
 *
 * SUBTEST: create-sizes
 * Description: Check that buffer objects of small, odd and large sizes work.
 * Run type: BAT
 *
 * SUBTEST: create-size-zero
 * Description: Check that CREATE_BO rejects an empty buffer object.
 * Run type: FULL
 *
 * SUBTEST: create-huge
 * Description: Check that a buffer object larger than RAM is refused, not promised.
 * Run type: FULL
 *
 * SUBTEST: mmap-rw
 * Description: Check that data written through one mapping is read through another.
 * Run type: BAT
 *
 * SUBTEST: mmap-bad-handle
 * Description: Check that MMAP_BO rejects a handle that names no buffer object.
 * Run type: FULL
 *
 * SUBTEST: mmap-beyond-object
 * Description: Check that a mapping cannot reach past the end of its buffer object.
 * Run type: FULL
 *
 * SUBTEST: handles-per-file
 * Description: Check that the handles of one file mean nothing in another.
 * Run type: FULL
 *
 * SUBTEST: close-frees
 * Description: Check that closing a file frees the memory of its buffer objects.
 * Run type: FULL
 *
 * SUBTEST: gem-close
 * Description: Check that a buffer object closed with GEM_CLOSE can no longer be mapped.
 * Run type: FULL
 */

IGT_TEST_DESCRIPTION("Buffer objects of the qaic accel driver: creation, mapping, lifetime.");

#define SZ_1M		(1024 * 1024ull)

static uint64_t page_size;

static uint64_t page_align(uint64_t size)
{
	return (size + page_size - 1) & ~(page_size - 1);
}

static void *map_bo(int fd, uint32_t handle, uint64_t size)
{
	return igt_qaic_mmap_bo(fd, handle, size, PROT_READ | PROT_WRITE);
}

/* A fresh object reads as zeroes and keeps what is written to it. */
static void test_create_sizes(int fd)
{
	static const uint64_t sizes[] = { 1, 4096, 12345, 64 * SZ_1M };

	for (unsigned int i = 0; i < ARRAY_SIZE(sizes); i++) {
		uint64_t size = page_align(sizes[i]);
		uint32_t handle = igt_qaic_create_bo(fd, sizes[i]);
		uint8_t *ptr;

		igt_assert_neq(handle, 0);
		/* The object is rounded up to whole pages: all of them map */
		ptr = map_bo(fd, handle, size);
		for (uint64_t off = 0; off < size; off += page_size) {
			igt_assert_eq(ptr[off], 0);
			ptr[off] = i + 1;
		}
		igt_assert_eq(ptr[size - 1], 0);
		ptr[size - 1] = 0xa5;
		for (uint64_t off = 0; off < size; off += page_size)
			igt_assert_eq(ptr[off], i + 1);
		igt_assert_eq(ptr[size - 1], 0xa5);

		igt_assert_eq(munmap(ptr, size), 0);
		gem_close(fd, handle);
	}
}

static void test_create_size_zero(int fd)
{
	struct qaic_create_bo create = {
		.size = 0,
	};

	do_ioctl_err(fd, DRM_IOCTL_QAIC_CREATE_BO, &create, EINVAL);
}

static void test_create_huge(int fd)
{
	/* The last one wraps to 0 if rounded up to a page before any check */
	const uint64_t sizes[] = {
		1ull << 40, UINT64_MAX, (UINT64_MAX & ~(page_size - 1)) + 1,
	};
	uint32_t handle;

	for (unsigned int i = 0; i < ARRAY_SIZE(sizes); i++) {
		int err;

		handle = 0;
		err = __igt_qaic_create_bo(fd, sizes[i], &handle);
		igt_info("CREATE_BO of %#llx bytes: %s\n",
			 (unsigned long long)sizes[i], strerror(-err));
		igt_assert_f(err < 0, "CREATE_BO of %#llx bytes succeeded\n",
			     (unsigned long long)sizes[i]);
	}

	/* The device is still usable, and this process still alive */
	handle = igt_qaic_create_bo(fd, page_size);
	gem_close(fd, handle);
}

static void test_mmap_rw(int fd)
{
	const uint64_t size = 4 * SZ_1M;
	const unsigned int count = size / sizeof(uint32_t);
	uint32_t handle = igt_qaic_create_bo(fd, size);
	uint64_t offset, offset2;
	uint32_t *a, *b;

	a = map_bo(fd, handle, size);
	for (unsigned int i = 0; i < count; i++)
		a[i] = i * 0x9e3779b9u;

	/* The offset does not change, and a second mapping sees the data */
	igt_assert_eq(__igt_qaic_mmap_bo(fd, handle, &offset), 0);
	igt_assert_eq(__igt_qaic_mmap_bo(fd, handle, &offset2), 0);
	igt_assert_eq_u64(offset, offset2);
	b = mmap(NULL, size, PROT_READ, MAP_SHARED, fd, offset);
	igt_assert(b != MAP_FAILED);
	igt_assert(a != b);
	for (unsigned int i = 0; i < count; i++)
		igt_assert_eq_u32(b[i], i * 0x9e3779b9u);

	/* The data outlives the first mapping and the handle */
	igt_assert_eq(munmap(a, size), 0);
	gem_close(fd, handle);
	for (unsigned int i = 0; i < count; i += 1024)
		igt_assert_eq_u32(b[i], i * 0x9e3779b9u);
	igt_assert_eq(munmap(b, size), 0);
}

static void test_mmap_bad_handle(int fd)
{
	struct qaic_mmap_bo map = {
		.handle = 0xdeadbeef,
	};

	do_ioctl_err(fd, DRM_IOCTL_QAIC_MMAP_BO, &map, ENOENT);
	map.handle = 0;
	do_ioctl_err(fd, DRM_IOCTL_QAIC_MMAP_BO, &map, ENOENT);
}

static void test_mmap_beyond_object(int fd)
{
	const uint64_t size = 4 * page_size;
	uint32_t handle = igt_qaic_create_bo(fd, size);
	uint64_t offset;
	void *ptr;

	igt_assert_eq(__igt_qaic_mmap_bo(fd, handle, &offset), 0);

	/* One page too long */
	ptr = mmap(NULL, size + page_size, PROT_READ, MAP_SHARED, fd, offset);
	igt_assert(ptr == MAP_FAILED);
	igt_assert_eq(errno, EINVAL);

	/* The right length, but starting a page into the object */
	ptr = mmap(NULL, size, PROT_READ, MAP_SHARED, fd, offset + page_size);
	igt_assert(ptr == MAP_FAILED);
	igt_assert_eq(errno, EINVAL);

	/* The whole object still maps */
	ptr = mmap(NULL, size, PROT_READ, MAP_SHARED, fd, offset);
	igt_assert(ptr != MAP_FAILED);
	igt_assert_eq(munmap(ptr, size), 0);

	gem_close(fd, handle);
}

static void test_handles_per_file(void)
{
	int fd_a = igt_qaic_open();
	int fd_b = igt_qaic_open();
	uint32_t handle = igt_qaic_create_bo(fd_a, page_size);
	uint64_t offset;

	igt_assert_eq(__igt_qaic_mmap_bo(fd_b, handle, &offset), -ENOENT);
	igt_assert_eq(__igt_qaic_mmap_bo(fd_a, handle, &offset), 0);

	/* Closing the file that created it does not reach into the other one */
	close(fd_a);
	igt_assert_eq(__igt_qaic_mmap_bo(fd_b, handle, &offset), -ENOENT);
	close(fd_b);
}

/*
 * Shmem in /proc/meminfo counts the pages of shmem files, which is what
 * buffer objects are made of. MemFree would be no good: freed pages wait in
 * per-CPU lists it does not count, 100 MiB of them after a burst of frees.
 */
/*
 * Shmem of /proc/meminfo in KiB. On an SMP kernel the counter is a sum that
 * each CPU updates in batches (vmstat's per-CPU deltas, up to its
 * stat_threshold pages each), so it can lag by dozens of pages; writing
 * vm.stat_refresh folds every CPU's delta in first, making it exact.
 */
static int64_t shmem_kib(void)
{
	unsigned long long kib = 0;
	char line[128];
	bool found = false;
	FILE *f;

	f = fopen("/proc/sys/vm/stat_refresh", "w");
	if (f) {
		fputs("1\n", f);
		fclose(f);
	}
	f = fopen("/proc/meminfo", "r");
	igt_assert(f);
	while (!found && fgets(line, sizeof(line), f))
		found = sscanf(line, "Shmem: %llu kB", &kib) == 1;
	fclose(f);
	igt_assert_f(found, "no Shmem line in /proc/meminfo\n");

	return kib;
}

static void check_shmem(int64_t before, int done)
{
	int64_t now = shmem_kib();

	/* Each object has 1 MiB; nothing else here uses more than a few */
	igt_assert_f(now - before < 16 * 1024,
		     "Shmem grew by %lld kB after %d objects\n",
		     (long long)(now - before), done);
}

/*
 * Every object is written through, so it has pages of its own, and left for
 * close() of its file to free, 100 objects a file. Leaked, they would add up
 * to all of the bench's RAM: check after each file, to fail on the first
 * 100 MiB rather than be OOM-killed. Mapping a shmem object allocates all of
 * its pages; one page in 16 is written, which would still leak 6 MiB a file
 * should that change, and keeps the loop quick: faults are slow under
 * User-Mode Linux.
 */
static void test_close_frees(void)
{
	const uint64_t size = SZ_1M;
	const int files = 10, per_file = 100;
	int64_t before;
	int probe = igt_qaic_open();

	/* Shmem is what this counts; upstream's qaic allocates pages itself */
	igt_qaic_require_ours(probe, false, "objects are not shmem, nothing here counts them");
	igt_qaic_close(probe);
	before = shmem_kib();
	for (int i = 0; i < files; i++) {
		int fd = igt_qaic_open();

		for (int j = 0; j < per_file; j++) {
			uint32_t handle = igt_qaic_create_bo(fd, size);
			uint8_t *ptr = map_bo(fd, handle, size);

			for (uint64_t off = 0; off < size; off += 16 * page_size)
				ptr[off] = j;
			igt_assert_eq(munmap(ptr, size), 0);
		}
		/* The objects are all alive until here */
		igt_assert_lte(before + per_file * size / 1024, shmem_kib());
		igt_assert_eq(close(fd), 0);
		check_shmem(before, (i + 1) * per_file);
	}
	igt_info("Shmem %lld kB before, %lld kB after %d x %llu kB\n",
		 (long long)before, (long long)shmem_kib(), files * per_file,
		 (unsigned long long)size / 1024);
}

static void test_gem_close(int fd)
{
	uint32_t handle = igt_qaic_create_bo(fd, page_size);
	struct drm_gem_close close_bo = {
		.handle = handle,
	};
	uint64_t offset;

	do_ioctl(fd, DRM_IOCTL_GEM_CLOSE, &close_bo);
	igt_assert_eq(__igt_qaic_mmap_bo(fd, handle, &offset), -ENOENT);
	/* The handle is gone: closing it again fails too */
	do_ioctl_err(fd, DRM_IOCTL_GEM_CLOSE, &close_bo, EINVAL);
}

igt_main
{
	int fd = -1;

	igt_fixture {
		page_size = sysconf(_SC_PAGESIZE);
		fd = igt_qaic_open();
	}

	igt_describe("Check that buffer objects of small, odd and large sizes work.");
	igt_subtest("create-sizes")
		test_create_sizes(fd);

	igt_describe("Check that CREATE_BO rejects an empty buffer object.");
	igt_subtest("create-size-zero")
		test_create_size_zero(fd);

	igt_describe("Check that a buffer object larger than RAM is refused, not promised.");
	igt_subtest("create-huge")
		test_create_huge(fd);

	igt_describe("Check that data written through one mapping is read through another.");
	igt_subtest("mmap-rw")
		test_mmap_rw(fd);

	igt_describe("Check that MMAP_BO rejects a handle that names no buffer object.");
	igt_subtest("mmap-bad-handle")
		test_mmap_bad_handle(fd);

	igt_describe("Check that a mapping cannot reach past the end of its buffer object.");
	igt_subtest("mmap-beyond-object")
		test_mmap_beyond_object(fd);

	igt_describe("Check that the handles of one file mean nothing in another.");
	igt_subtest("handles-per-file")
		test_handles_per_file();

	igt_describe("Check that closing a file frees the memory of its buffer objects.");
	igt_subtest("close-frees")
		test_close_frees();

	igt_describe("Check that a buffer object closed with GEM_CLOSE can no longer be mapped.");
	igt_subtest("gem-close")
		test_gem_close(fd);

	igt_fixture {
		close(fd);
	}
}
