// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The qaic authors.
 */

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/sysmacros.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <linux/dma-buf.h>
#include <xf86drm.h>

#include "igt_qaic.h"
#include "igt_qaic_busy.h"
#include "igt_qaic_sync.h"

/**
 * TEST: qaic unplug
 * Category: Core
 * Description: The card goes away under open files and work in flight (driver unbind, module unload), and comes back.
 * Feature: qaic
 *
 * SUBTEST: unbind-idle
 * Description: Check that after an unbind every ioctl of an open file fails with ENODEV, and that closing it is clean.
 * Run type: FULL
 *
 * SUBTEST: bind-after-unbind
 * Description: Check that a card unbound with no file open works again once bound.
 * Run type: FULL
 *
 * SUBTEST: unbind-busy
 * Description: Check that an unbind with jobs queued, waiting and hung on several DBCs of two processes signals every fence, wakes every waiter, keeps every mapping readable, and that the card works again once bound.
 * Run type: FULL
 *
 * SUBTEST: unbind-waiting-on-vgem
 * Description: Check that an unbind does not wait for a WAIT_BO on an object whose reservation holds a vgem fence nobody signals, and that the wait still ends with the fence.
 * Run type: FULL
 *
 * SUBTEST: unbind-imported
 * Description: Check that an unbind unmaps an object imported from another driver and never sliced, which the import mapped for the card, and that the object lives on.
 * Run type: FULL
 *
 * SUBTEST: unbind-unload-load
 * Description: Check that the module cannot go while an unbound card's file is open, goes once it is closed, and binds the card again when loaded.
 * Run type: FULL
 *
 * SUBTEST: surprise-removal
 * Description: Check that when a card falls off the bus under work of two processes, the driver gives it up by itself: every job ends with an error, mappings stay readable, every ioctl fails with ENODEV, and another card goes on working.
 * Run type: FULL
 */

IGT_TEST_DESCRIPTION("The card goes away under open files and work in flight (driver unbind, module unload), and comes back.");

#define SZ_4K		4096ull
#define DEV_ADDR	(32ull << 20)
#define QUEUE_SIZE	64
#define DRIVER_DIR	"/sys/bus/pci/drivers/qaic"
/* How long an unbind may take: it waits for nothing of another driver's */
#define RETURN_MS	2000
/* How long a WAIT_BO waits, at most */
#define WAIT_MS		20000

static void unbind(const char *bdf)
{
	igt_qaic_write_file(DRIVER_DIR "/unbind", bdf);
}

/* Binds the card again and checks that it runs work: the round trip waits for its boot */
static void bind_and_check(const char *bdf)
{
	uint32_t dbc;
	int fd;

	igt_qaic_write_file(DRIVER_DIR "/bind", bdf);
	fd = igt_qaic_open_bdf(bdf);
	dbc = igt_qaic_activate(fd, QUEUE_SIZE);
	igt_qaic_round_trip(fd, dbc, DEV_ADDR, SZ_4K, 77);
	close(fd);
}

static void check_enodev(int fd)
{
	uint32_t handle;

	igt_assert_eq(__igt_qaic_create_bo(fd, SZ_4K, &handle), -ENODEV);
	igt_assert_eq(__igt_qaic_activate(fd, QUEUE_SIZE, &handle), -ENODEV);
}

/* Binds the card again and waits (up to 5 s) for its accel node, not for its boot */
static void bind_node(const char *bdf)
{
	uint64_t deadline = igt_qaic_now_ms() + 5000;
	char pattern[96];
	glob_t g;
	int ret;

	igt_qaic_write_file(DRIVER_DIR "/bind", bdf);
	snprintf(pattern, sizeof(pattern), "/sys/bus/pci/devices/%s/accel/accel*", bdf);
	while ((ret = glob(pattern, 0, NULL, &g)) == GLOB_NOMATCH &&
	       igt_qaic_now_ms() < deadline)
		usleep(50000);
	igt_assert_f(ret == 0, "card %s has no accel node after its bind\n", bdf);
	globfree(&g);
}

/*
 * The file outlives the binding: its ioctls fail, its close is the last
 * reference to the unbound device. Whether the card boots again after
 * the bind is bind-after-unbind's.
 */
static void test_unbind_idle(void)
{
	char bdf[32];
	int fd = igt_qaic_open();

	igt_qaic_card_bdf(fd, bdf, sizeof(bdf));
	unbind(bdf);
	check_enodev(fd);
	close(fd);
	bind_node(bdf);
}

static void test_bind_after_unbind(void)
{
	char bdf[32];
	int fd = igt_qaic_open();

	igt_qaic_card_bdf(fd, bdf, sizeof(bdf));
	close(fd);
	unbind(bdf);
	bind_and_check(bdf);
}

static void unbind_event(void *data)
{
	unbind(data);
}

/* What each process checks after the unbind: its work ended, ioctls are refused */
static void after_unbind(struct igt_qaic_busy *b, uint64_t since_ms)
{
	igt_qaic_busy_check_ended(b, since_ms, ECANCELED, "unbind");
	check_enodev(b->fd);
}

static void test_unbind_busy(void)
{
	char bdf[32];
	int fd = igt_qaic_open();

	igt_qaic_card_bdf(fd, bdf, sizeof(bdf));
	close(fd);
	igt_qaic_busy_run(2, NULL, unbind_event, bdf, after_unbind);
	bind_and_check(bdf);
}

struct fenced_wait {
	pthread_t thread;
	int fd;
	uint32_t handle;
	uint32_t dbc;
	int ret;
};

static void *fenced_wait_run(void *arg)
{
	struct fenced_wait *fw = arg;

	fw->ret = __igt_qaic_sync_wait_bo(fw->fd, fw->handle, fw->dbc, WAIT_MS);
	return NULL;
}

/*
 * Puts a vgem write fence, which only the test signals (or vgem after
 * 10 s), into the reservation of object @handle of @fd: through the
 * dma-buf of the object, so the object itself is never mapped for the card.
 */
static void fence_from_vgem(int fd, uint32_t handle, struct igt_qaic_gate *gate)
{
	struct dma_buf_export_sync_file export = { .flags = DMA_BUF_SYNC_WRITE, .fd = -1 };
	struct dma_buf_import_sync_file import = { .flags = DMA_BUF_SYNC_WRITE };
	struct igt_qaic_dumb vbo;
	int vgem_buf, buf;

	gate->vgem = igt_qaic_vgem_open();
	igt_qaic_vgem_create(gate->vgem, SZ_4K, &vbo);
	igt_assert_eq(munmap(vbo.ptr, vbo.size), 0);
	gate->handle = vbo.handle;
	igt_assert_eq(__igt_qaic_vgem_fence_attach(gate->vgem, gate->handle, &gate->fence), 0);
	vgem_buf = igt_qaic_prime_export(gate->vgem, gate->handle);
	igt_assert_eq(ioctl(vgem_buf, DMA_BUF_IOCTL_EXPORT_SYNC_FILE, &export), 0);
	close(vgem_buf);

	buf = igt_qaic_prime_export(fd, handle);
	import.fd = export.fd;
	igt_assert_eq(ioctl(buf, DMA_BUF_IOCTL_IMPORT_SYNC_FILE, &import), 0);
	close(import.fd);
	close(buf);
}

/*
 * A thread waits (WAIT_BO) on an object whose reservation holds a fence of
 * another driver (vgem) that nobody signals. The unbind must not wait for
 * it: the wait does not need the card. The wait goes on, and ends when the
 * fence signals, with no error.
 */
static void test_unbind_waiting_on_vgem(void)
{
	struct fenced_wait fw = { .ret = 1 };
	struct igt_qaic_watchdog w;
	struct igt_qaic_gate gate;
	char bdf[32];
	bool fired;

	fw.fd = igt_qaic_open();
	igt_qaic_card_bdf(fw.fd, bdf, sizeof(bdf));
	/* WAIT_BO wants a DBC the file holds, any one */
	fw.dbc = igt_qaic_activate(fw.fd, QUEUE_SIZE);
	fw.handle = igt_qaic_create_bo(fw.fd, SZ_4K);
	fence_from_vgem(fw.fd, fw.handle, &gate);

	igt_assert_eq(pthread_create(&fw.thread, NULL, fenced_wait_run, &fw), 0);
	usleep(200 * 1000);
	igt_assert_f(fw.ret == 1, "WAIT_BO returned %d before the fence signalled\n", fw.ret);

	igt_qaic_watchdog_start(&w, RETURN_MS, igt_qaic_gate_fire, &gate);
	unbind(bdf);
	fired = igt_qaic_watchdog_stop(&w, "unbind");
	igt_assert_f(!fired, "unbind waited for a vgem fence\n");
	igt_assert_f(fw.ret == 1, "WAIT_BO returned %d at the unbind\n", fw.ret);

	igt_qaic_gate_fire(&gate);
	igt_assert_eq(pthread_join(fw.thread, NULL), 0);
	igt_assert_eq(fw.ret, 0);

	close(fw.fd);
	gem_close(gate.vgem, gate.handle);
	close(gate.vgem);
	bind_and_check(bdf);
}

/* Where DMA-API debugging lists every mapping, one line each, with its device */
#define DMA_API_DUMP	"/sys/kernel/debug/dma-api/dump"

static int kernel_major(void)
{
	struct utsname u;

	igt_assert_eq(uname(&u), 0);
	return atoi(u.release);
}

/* Mappings of the device @bdf that DMA-API debugging knows of */
static unsigned int dma_mappings_of(const char *bdf)
{
	char line[512], dev[48];
	unsigned int n = 0;
	FILE *f;

	f = fopen(DMA_API_DUMP, "r");
	igt_assert(f);
	/* "<driver> <device> <type> idx ...": the device is the second word */
	snprintf(dev, sizeof(dev), " %s ", bdf);
	while (fgets(line, sizeof(line), f))
		n += strstr(line, dev) != NULL;
	fclose(f);
	return n;
}

/*
 * An object imported from vgem and never sliced: the import mapped the
 * attachment for the card. The unbind must unmap it with the card's other
 * objects (qaic_gem_unmap_all()); before, it stayed mapped for a device
 * that was gone until the object was freed. The object lives on: its
 * handle goes with the file, its pages with vgem.
 */
static void test_unbind_imported(void)
{
	struct igt_qaic_dumb vbo;
	unsigned int before;
	int fd, vgem, buf;
	char bdf[32];

	igt_require_f(access(DMA_API_DUMP, R_OK) == 0,
		      "no DMA-API debugging (the debug kernel has it)\n");
	/*
	 * Before 7.x the DRM PRIME helpers' exporters cache an attachment's
	 * mapping (dma_buf_ops.cache_sgt_mapping) until it is detached,
	 * which only the core's free of the object does: no driver can
	 * unmap an import at unplug there, and the unbind WARNs.
	 */
	igt_require_f(kernel_major() >= 7,
		      "the exporter keeps the mapping until the object is freed (Linux 6.x)\n");
	fd = igt_qaic_open();
	igt_qaic_card_bdf(fd, bdf, sizeof(bdf));
	vgem = igt_qaic_vgem_open();
	igt_qaic_vgem_create(vgem, 16 * SZ_4K, &vbo);
	buf = igt_qaic_prime_export(vgem, vbo.handle);
	before = dma_mappings_of(bdf);
	igt_qaic_prime_import(fd, buf);
	igt_assert_f(dma_mappings_of(bdf) > before,
		     "importing mapped nothing for %s\n", bdf);

	unbind(bdf);
	igt_info("DMA mappings of %s: %u before the import, %u after the unbind\n",
		 bdf, before, dma_mappings_of(bdf));
	igt_assert_eq(dma_mappings_of(bdf), 0);
	/* Its handle goes with the file: ioctls fail on an unplugged card */
	close(fd);
	close(buf);
	igt_assert_eq(munmap(vbo.ptr, vbo.size), 0);
	close(vgem);
	bind_and_check(bdf);
}

/*
 * The second card, which falls off the bus (igt/run gives two): the last
 * one bound to qaic, 0000:00:01.0 in the bench, 0000:02:00.0 behind the
 * PC's second root port (tests/pc/run). "" when there is no second card.
 */
static const char *lost_bdf(void)
{
	static char bdf[32];
	struct dirent *de;
	unsigned int n = 0;
	DIR *dir;

	bdf[0] = '\0';
	dir = opendir(DRIVER_DIR);
	if (!dir)
		return bdf;
	while ((de = readdir(dir))) {
		if (!strchr(de->d_name, ':') || strlen(de->d_name) >= sizeof(bdf))
			continue;
		n++;
		if (strcmp(de->d_name, bdf) > 0)
			strcpy(bdf, de->d_name);
	}
	closedir(dir);
	if (n < 2)
		bdf[0] = '\0';
	return bdf;
}

/* The card that fell off, for after_fall_off() */
static char lost[32];

static void fall_off_event(void *data)
{
	int fd = igt_qaic_open_bdf(data);
	int ret = __igt_qaic_emu_vanish(fd, 50);

	igt_require_f(ret != IGT_QAIC_EMU_PT_E_UNKNOWN_OP, "the emulator has no EMU_PT_VANISH\n");
	igt_assert_eq(ret, 0);
	close(fd);
}

/*
 * The hung job's timeout (2 s by default) finds the card gone; the
 * driver unbinds, which ends the rest.
 */
static void after_fall_off(struct igt_qaic_busy *b, uint64_t since_ms)
{
	char path[128];

	igt_qaic_busy_check_ended(b, since_ms, ECANCELED, "fall off the bus");
	check_enodev(b->fd);
	snprintf(path, sizeof(path), "%s/%s", DRIVER_DIR, lost);
	igt_assert_f(access(path, F_OK), "the driver is still bound to %s\n", lost);
}

static void test_surprise_removal(void)
{
	int fd;

	strcpy(lost, lost_bdf());
	igt_require_f(lost[0], "no second card bound to qaic\n");
	igt_qaic_busy_run(2, lost, fall_off_event, lost, after_fall_off);

	/* The other card did not notice */
	fd = igt_qaic_open();
	igt_qaic_round_trip(fd, igt_qaic_activate(fd, QUEUE_SIZE), DEV_ADDR, SZ_4K, 79);
	close(fd);
}

/* A module file the kernel must decompress (.ko.xz, .ko.zst, .ko.gz) */
static bool ko_compressed(const char *ko)
{
	const char *dot = strrchr(ko, '.');

	return dot && strcmp(dot, ".ko") != 0;
}

static void test_unbind_unload_load(void)
{
	const char *ko = getenv("QAIC_KO");
	const char *args = getenv("QAIC_MODULE_ARGS");
	char bdf[32];
	int fd, kfd, ret;

	igt_require_f(ko && *ko, "QAIC_KO names no module to load again\n");
	fd = igt_qaic_open();
	igt_qaic_card_bdf(fd, bdf, sizeof(bdf));
	unbind(bdf);
	/* The open file holds the module */
	ret = syscall(SYS_delete_module, "qaic", O_NONBLOCK);
	igt_assert_f(ret < 0 && (errno == EBUSY || errno == EWOULDBLOCK),
		     "rmmod with a file open: %s\n", ret ? strerror(errno) : "success");
	close(fd);
	igt_assert_eq(igt_qaic_module_refcount(), 0);
	igt_assert_eq(syscall(SYS_delete_module, "qaic", O_NONBLOCK), 0);

	if (ko_compressed(ko)) {
		/*
		 * Debian 12's DKMS installs it as qaic.ko.xz, with a check
		 * the kernel's own xz decoder refuses ("decompression failed
		 * with status 6"): kmod unpacks it, as modprobe does.
		 */
		char cmd[PATH_MAX + 256];

		snprintf(cmd, sizeof(cmd), "insmod '%s' %s", ko, args ? args : "");
		igt_assert_f(system(cmd) == 0, "%s failed\n", cmd);
	} else {
		kfd = open(ko, O_RDONLY | O_CLOEXEC);
		igt_assert_f(kfd >= 0, "open %s: %s\n", ko, strerror(errno));
		igt_assert_f(!syscall(SYS_finit_module, kfd, args ? args : "", 0),
			     "loading %s: %s\n", ko, strerror(errno));
		close(kfd);
	}
	/* Loading bound the card: check that it works */
	fd = igt_qaic_open_bdf(bdf);
	igt_qaic_round_trip(fd, igt_qaic_activate(fd, QUEUE_SIZE), DEV_ADDR, SZ_4K, 78);
	close(fd);
}

igt_main
{
	igt_fixture {
		close(igt_qaic_open());
		igt_require_f(!access(DRIVER_DIR "/unbind", W_OK), "no %s/unbind\n", DRIVER_DIR);
	}

	igt_describe("Check that after an unbind every ioctl of an open file fails with ENODEV, and that closing it is clean.");
	igt_subtest("unbind-idle")
		test_unbind_idle();

	igt_describe("Check that a card unbound with no file open works again once bound.");
	igt_subtest("bind-after-unbind")
		test_bind_after_unbind();

	igt_describe("Check that an unbind with jobs queued, waiting and hung on several DBCs of two processes signals every fence, wakes every waiter, keeps every mapping readable, and that the card works again once bound.");
	igt_subtest("unbind-busy")
		test_unbind_busy();

	igt_describe("Check that an unbind does not wait for a WAIT_BO on an object whose reservation holds a vgem fence nobody signals, and that the wait still ends with the fence.");
	igt_subtest("unbind-waiting-on-vgem")
		test_unbind_waiting_on_vgem();

	igt_describe("Check that an unbind unmaps an object imported from another driver and never sliced, which the import mapped for the card, and that the object lives on.");
	igt_subtest("unbind-imported")
		test_unbind_imported();

	igt_describe("Check that the module cannot go while an unbound card's file is open, goes once it is closed, and binds the card again when loaded.");
	igt_subtest("unbind-unload-load")
		test_unbind_unload_load();

	igt_describe("Check that when a card falls off the bus under work of two processes, the driver gives it up by itself: every job ends with an error, mappings stay readable, every ioctl fails with ENODEV, and another card goes on working.");
	igt_subtest("surprise-removal")
		test_surprise_removal();
}
