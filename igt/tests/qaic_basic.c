// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The qaic authors.
 */

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "igt_qaic.h"

/**
 * TEST: qaic basic
 * Category: Infrastructure
 * Description: Basic checks of the qaic accel driver: its files and bad ioctls.
 * Feature: qaic
 *
 * SUBTEST: open-close
 * Description: Check that the device can be opened and closed again and again.
 * Run type: BAT
 *
 * SUBTEST: driver-name
 * Description: Check that the device reports itself as qaic, to DRM and to PCI.
 * Run type: BAT
 *
 * SUBTEST: two-fds
 * Description: Check that one process can use two files on the device at once.
 * Run type: BAT
 *
 * SUBTEST: unknown-ioctl
 * Description: Check that an ioctl number the driver does not know is rejected.
 * Run type: FULL
 *
 * SUBTEST: create-bo-pad
 * Description: Check that CREATE_BO rejects a non-zero pad.
 * Run type: FULL
 *
 * SUBTEST: mmap-bo-pad
 * Description: Check that MMAP_BO rejects a non-zero pad.
 * Run type: FULL
 *
 * SUBTEST: attach-slice-sem-pad
 * Description: Check that ATTACH_SLICE_BO rejects a non-zero pad in a semaphore.
 * Run type: FULL
 *
 * SUBTEST: wait-bo-pad
 * Description: Check that WAIT_BO rejects a non-zero pad.
 * Run type: FULL
 *
 * SUBTEST: perf-stats-pad
 * Description: Check that PERF_STATS_BO rejects a non-zero pad in its header.
 * Run type: FULL
 *
 * SUBTEST: detach-slice-pad
 * Description: Check that DETACH_SLICE_BO rejects a non-zero pad.
 * Run type: FULL
 *
 * SUBTEST: two-processes
 * Description: Check that two processes can use the device at the same time.
 * Run type: BAT
 *
 * SUBTEST: close-other-fd
 * Description: Check that closing a file leaves another file of the process usable.
 * Run type: BAT
 *
 * SUBTEST: unload-busy
 * Description: Check that the module cannot be unloaded while a file is open.
 * Run type: FULL
 *
 * SUBTEST: file-id-unique
 * Description: Check that a file never gets the id of another open file, nor its DBCs.
 * Run type: FULL
 *
 * SUBTEST: file-id-wrap
 * Description: Check that file ids wrap past the largest one and stay apart.
 * Run type: FULL
 */

IGT_TEST_DESCRIPTION("Basic checks of the qaic accel driver: its files and bad ioctls.");

#define BO_SIZE 4096

/* Values of qaic_attach_slice_hdr.dir, the kernel's enum dma_data_direction */
#define QAIC_DIR_TO_DEVICE 1

/* For the tests that run jobs */
#define QUEUE_SIZE 64
#define DEV_ADDR 0x100000

/*
 * The file works: the device answers DRM_IOCTL_VERSION as qaic, and a driver
 * ioctl reaches a live device. CREATE_BO may still fail for reasons of its
 * own, which are for its own tests, but not with the errors of a dead file
 * or of an unplugged device.
 */
static void check_usable(int fd)
{
	uint32_t handle;
	int err;

	igt_assert(is_qaic_device(fd));

	err = __igt_qaic_create_bo(fd, BO_SIZE, &handle);
	igt_assert_f(err != -EBADF && err != -ENODEV,
		     "CREATE_BO: %s\n", strerror(-err));
	if (!err)
		gem_close(fd, handle);
}

static void test_open_close(void)
{
	for (int i = 0; i < 8; i++) {
		int fd = __igt_qaic_open();

		igt_assert_fd(fd);
		igt_assert(is_qaic_device(fd));
		igt_assert_eq(close(fd), 0);
	}
}

static void test_driver_name(int fd)
{
	char name[16] = "", desc[128] = "", path[64], link[PATH_MAX];
	struct drm_version version = {};
	const char *driver;
	struct stat st;
	ssize_t len;

	/* First ask for the lengths only, then for the strings */
	do_ioctl(fd, DRM_IOCTL_VERSION, &version);
	igt_assert_eq(version.name_len, strlen("qaic"));
	igt_assert_lt(0, version.desc_len);

	version.name = name;
	version.name_len = sizeof(name) - 1;
	version.desc = desc;
	version.desc_len = sizeof(desc) - 1;
	version.date = NULL;
	version.date_len = 0;
	do_ioctl(fd, DRM_IOCTL_VERSION, &version);
	igt_assert_f(strcmp(name, "qaic") == 0, "driver name is \"%s\"\n", name);
	igt_info("%s %d.%d.%d: %s\n", name, version.version_major,
		 version.version_minor, version.version_patchlevel, desc);

	/* The PCI device behind the accel node is bound to qaic too */
	igt_assert_eq(fstat(fd, &st), 0);
	igt_assert(S_ISCHR(st.st_mode));
	snprintf(path, sizeof(path), "/sys/dev/char/%u:%u/device/driver",
		 major(st.st_rdev), minor(st.st_rdev));
	len = readlink(path, link, sizeof(link) - 1);
	igt_assert_f(len > 0, "readlink(%s): %s\n", path, strerror(errno));
	link[len] = '\0';
	driver = strrchr(link, '/');
	driver = driver ? driver + 1 : link;
	igt_assert_f(strcmp(driver, "qaic") == 0, "bound to \"%s\"\n", driver);
}

static void test_two_fds(void)
{
	int fd1, fd2;

	fd1 = __igt_qaic_open();
	igt_assert_fd(fd1);
	fd2 = __igt_qaic_open();
	igt_assert_fd(fd2);
	igt_assert_neq(fd1, fd2);

	check_usable(fd1);
	check_usable(fd2);

	igt_qaic_close(fd2);
	igt_qaic_close(fd1);
}

static void test_unknown_ioctl(int fd)
{
	uint64_t arg = 0;

	/* drm_ioctl() refuses driver ioctls past the end of the table */
	do_ioctl_err(fd, DRM_IOWR(DRM_COMMAND_BASE + 0x3f, uint64_t), &arg,
		     EINVAL);
}

/*
 * Every pad must be 0, so that a later version of the uapi can give it a
 * meaning, and the pads are checked before anything else: the other fields
 * are left 0 (handle 0 names no object), so a driver that ignores the pad
 * fails the call with another error.
 */
static void test_create_bo_pad(int fd)
{
	struct qaic_create_bo create = {
		.size = BO_SIZE,
		.pad = 1,
	};

	do_ioctl_err(fd, DRM_IOCTL_QAIC_CREATE_BO, &create, EINVAL);
}

static void test_mmap_bo_pad(int fd)
{
	struct qaic_mmap_bo map = {
		.pad = 1,
	};

	/* Upstream's qaic does not look at pad: handle 0 is not found */
	do_ioctl_err(fd, DRM_IOCTL_QAIC_MMAP_BO, &map,
		     igt_qaic_driver_is_ours(fd) ? EINVAL : ENOENT);
}

static void test_attach_slice_sem_pad(void)
{
	/* A file of its own: the card keeps a DBC until its file is released */
	int fd = igt_qaic_open();
	struct qaic_attach_slice_entry entry = {
		.size = BO_SIZE,
		.sem0.pad = 1,
	};
	struct qaic_attach_slice attach = {
		.hdr.count = 1,
		.hdr.dir = QAIC_DIR_TO_DEVICE,
		.hdr.size = BO_SIZE,
		.data = to_user_pointer(&entry),
	};

	/* Entries are only looked at for a DBC of the file and an object. */
	attach.hdr.dbc_id = igt_qaic_activate(fd, 16);
	attach.hdr.handle = igt_qaic_create_bo(fd, BO_SIZE);
	do_ioctl_err(fd, DRM_IOCTL_QAIC_ATTACH_SLICE_BO, &attach, EINVAL);
	igt_qaic_close(fd);
}

static void test_wait_bo_pad(int fd)
{
	struct qaic_wait wait = {
		.pad = 1,
	};

	do_ioctl_err(fd, DRM_IOCTL_QAIC_WAIT_BO, &wait, EINVAL);
}

static void test_perf_stats_pad(int fd)
{
	struct qaic_perf_stats_entry entry = {};
	struct qaic_perf_stats stats = {
		.hdr.count = 1,
		.hdr.pad = 1,
		.data = to_user_pointer(&entry),
	};

	/* Upstream's qaic does not look at pad: handle 0 is not found */
	do_ioctl_err(fd, DRM_IOCTL_QAIC_PERF_STATS_BO, &stats,
		     igt_qaic_driver_is_ours(fd) ? EINVAL : ENOENT);
}

static void test_detach_slice_pad(int fd)
{
	struct qaic_detach_slice detach = {
		.pad = 1,
	};

	do_ioctl_err(fd, DRM_IOCTL_QAIC_DETACH_SLICE_BO, &detach, EINVAL);
}

static void test_two_processes(void)
{
	int fd = __igt_qaic_open();

	igt_assert_fd(fd);

	/* The parent keeps its file open for the whole life of the child */
	igt_fork(child, 1) {
		int child_fd;

		igt_qaic_close(fd);
		child_fd = __igt_qaic_open();
		igt_assert_fd(child_fd);
		check_usable(child_fd);
		igt_qaic_close(child_fd);
	}
	check_usable(fd);
	igt_waitchildren();

	check_usable(fd);
	igt_qaic_close(fd);
}

static void test_close_other_fd(void)
{
	int fd1, fd2;

	fd1 = __igt_qaic_open();
	igt_assert_fd(fd1);
	fd2 = __igt_qaic_open();
	igt_assert_fd(fd2);

	igt_assert_eq(close(fd1), 0);
	check_usable(fd2);

	igt_qaic_close(fd2);
}

static void test_unload_busy(void)
{
	int before, after, fd, ret, err;

	/* refcnt only exists for a module that can be unloaded */
	before = igt_qaic_module_refcount();
	igt_require_f(before >= 0, "qaic is not an unloadable module: %s\n",
		      strerror(-before));

	fd = __igt_qaic_open();
	igt_assert_fd(fd);
	after = igt_qaic_module_refcount();

	/*
	 * An open file must pin the module. Check the count first so that a
	 * driver that gets this wrong fails here instead of being unloaded.
	 */
	igt_assert_lt(before, after);

	ret = syscall(SYS_delete_module, "qaic", O_NONBLOCK);
	err = errno;
	igt_require_f(ret == 0 || err != EPERM,
		      "unloading a module needs CAP_SYS_MODULE\n");
	igt_assert_f(ret == -1, "qaic was unloaded with a file open\n");
	igt_assert_f(err == EWOULDBLOCK || err == EBUSY,
		     "delete_module(qaic): %s\n", strerror(err));

	check_usable(fd);
	igt_qaic_close(fd);
}

/*
 * The file ids of a card: the user handle of each open file in the card's
 * control protocol, which owns the DBCs the file activates. The driver
 * hands them out cyclically, and debugfs shows and sets where the next
 * search starts: after an open, one past the id the file got.
 */
static void next_file_id_path(int fd, char *path, size_t size)
{
	char pci[32];

	/* debugfs names the card by its PCI function */
	igt_qaic_card_bdf(fd, pci, sizeof(pci));
	snprintf(path, size, "/sys/kernel/debug/accel/%s/next_file_id", pci);

	igt_require_f(access(path, R_OK | W_OK) == 0, "no %s: %s\n", path,
		      strerror(errno));
}

static uint32_t next_file_id_read(const char *path)
{
	char buf[32] = "";
	unsigned long id;
	ssize_t len;
	char *end;
	int dfd;

	dfd = open(path, O_RDONLY);
	igt_assert_fd(dfd);
	len = read(dfd, buf, sizeof(buf) - 1);
	close(dfd);
	igt_assert_lt(0, len);
	id = strtoul(buf, &end, 0);
	igt_assert_f(end != buf && id <= UINT32_MAX, "%s reads \"%s\"\n",
		     path, buf);

	return id;
}

static void next_file_id_write(const char *path, uint32_t id)
{
	char buf[32];
	int dfd, len;

	len = snprintf(buf, sizeof(buf), "%u\n", id);
	dfd = open(path, O_WRONLY);
	igt_assert_fd(dfd);
	igt_assert_eq(write(dfd, buf, len), len);
	close(dfd);
	igt_assert_eq_u32(next_file_id_read(path), id);
}

/* Opens a file and tells its id, which nothing else may open meanwhile. */
static int open_with_id(const char *path, uint32_t *id)
{
	int fd = __igt_qaic_open();

	igt_assert_fd(fd);
	*id = next_file_id_read(path) - 1;

	return fd;
}

/* The DBC of another file is out of reach of @fd. */
static void check_foreign_dbc(int fd, uint32_t dbc)
{
	uint32_t handle = igt_qaic_create_bo(fd, BO_SIZE);

	igt_assert_eq(__igt_qaic_attach_simple(fd, handle, dbc,
					       QAIC_DIR_TO_DEVICE, BO_SIZE,
					       DEV_ADDR), -EPERM);
	igt_assert_eq(__igt_qaic_execute_bo(fd, dbc, handle,
					    QAIC_DIR_TO_DEVICE), -EPERM);
	igt_assert_eq(__igt_qaic_wait(fd, handle, dbc, IGT_QAIC_WAIT_LOOK_MS), -EPERM);
	igt_assert_eq(__igt_qaic_deactivate(fd, dbc), -EPERM);
	gem_close(fd, handle);
}

/*
 * B's search for an id starts at A's, which A still holds: B gets another
 * one. Had it got A's, it would own A's DBC too.
 */
static void test_file_id_unique(int fd)
{
	uint32_t a_id, b_id, a_dbc, b_dbc;
	char path[PATH_MAX];
	int a, b;

	next_file_id_path(fd, path, sizeof(path));
	a = open_with_id(path, &a_id);
	a_dbc = igt_qaic_activate(a, QUEUE_SIZE);

	next_file_id_write(path, a_id);
	b = open_with_id(path, &b_id);
	igt_info("file A has id %u, file B %u\n", a_id, b_id);
	igt_assert_neq_u32(b_id, a_id);

	check_foreign_dbc(b, a_dbc);
	b_dbc = igt_qaic_activate(b, QUEUE_SIZE);
	igt_assert_neq_u32(b_dbc, a_dbc);
	check_foreign_dbc(a, b_dbc);

	igt_qaic_round_trip(a, a_dbc, DEV_ADDR, BO_SIZE, 1);
	igt_qaic_round_trip(b, b_dbc, DEV_ADDR, BO_SIZE, 2);

	igt_qaic_close(b);
	igt_qaic_close(a);
}

/*
 * C gets the largest id, D the first free one after the wrap (not 0, which
 * names no file). Each works on its own DBC and cannot reach the other's.
 */
static void test_file_id_wrap(int fd)
{
	uint32_t c_id, d_id, c_dbc, d_dbc;
	char path[PATH_MAX];
	int c, d;

	next_file_id_path(fd, path, sizeof(path));
	next_file_id_write(path, UINT32_MAX);
	c = open_with_id(path, &c_id);
	d = open_with_id(path, &d_id);
	igt_info("file C has id %u, file D %u\n", c_id, d_id);
	igt_assert_eq_u32(c_id, UINT32_MAX);
	igt_assert_neq_u32(d_id, 0);
	igt_assert_neq_u32(d_id, c_id);

	c_dbc = igt_qaic_activate(c, QUEUE_SIZE);
	d_dbc = igt_qaic_activate(d, QUEUE_SIZE);
	igt_assert_neq_u32(c_dbc, d_dbc);
	igt_qaic_round_trip(c, c_dbc, DEV_ADDR, BO_SIZE, 3);
	igt_qaic_round_trip(d, d_dbc, DEV_ADDR, BO_SIZE, 4);
	check_foreign_dbc(c, d_dbc);
	check_foreign_dbc(d, c_dbc);

	igt_qaic_close(d);
	igt_qaic_close(c);
}

igt_main
{
	int fd = -1;

	igt_fixture {
		fd = igt_qaic_open();
	}

	igt_describe("Check that the device can be opened and closed again and again.");
	igt_subtest("open-close")
		test_open_close();

	igt_describe("Check that the device reports itself as qaic, to DRM and to PCI.");
	igt_subtest("driver-name")
		test_driver_name(fd);

	igt_describe("Check that one process can use two files on the device at once.");
	igt_subtest("two-fds")
		test_two_fds();

	igt_describe("Check that an ioctl number the driver does not know is rejected.");
	igt_subtest("unknown-ioctl")
		test_unknown_ioctl(fd);

	igt_describe("Check that CREATE_BO rejects a non-zero pad.");
	igt_subtest("create-bo-pad")
		test_create_bo_pad(fd);

	igt_describe("Check that MMAP_BO rejects a non-zero pad.");
	igt_subtest("mmap-bo-pad")
		test_mmap_bo_pad(fd);

	igt_describe("Check that ATTACH_SLICE_BO rejects a non-zero pad in a semaphore.");
	igt_subtest("attach-slice-sem-pad")
		test_attach_slice_sem_pad();

	igt_describe("Check that WAIT_BO rejects a non-zero pad.");
	igt_subtest("wait-bo-pad")
		test_wait_bo_pad(fd);

	igt_describe("Check that PERF_STATS_BO rejects a non-zero pad in its header.");
	igt_subtest("perf-stats-pad")
		test_perf_stats_pad(fd);

	igt_describe("Check that DETACH_SLICE_BO rejects a non-zero pad.");
	igt_subtest("detach-slice-pad")
		test_detach_slice_pad(fd);

	igt_describe("Check that two processes can use the device at the same time.");
	igt_subtest("two-processes")
		test_two_processes();

	igt_describe("Check that closing a file leaves another file of the process usable.");
	igt_subtest("close-other-fd")
		test_close_other_fd();

	igt_describe("Check that the module cannot be unloaded while a file is open.");
	igt_subtest("unload-busy")
		test_unload_busy();

	igt_describe("Check that a file never gets the id of another open file, nor its DBCs.");
	igt_subtest("file-id-unique")
		test_file_id_unique(fd);

	igt_describe("Check that file ids wrap past the largest one and stay apart.");
	igt_subtest("file-id-wrap")
		test_file_id_wrap(fd);

	igt_fixture {
		igt_qaic_close(fd);
	}

	igt_qaic_dbcs_free_checks();
}
