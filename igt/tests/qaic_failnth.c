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
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <xf86drm.h>

#include "igt_qaic.h"
#include "igt_qaic_sync.h"

/**
 * TEST: qaic failnth
 * Category: Core
 * Description: Every allocation an ioctl makes fails in turn (fault injection through /proc/thread-self/fail-nth); each failure gives an errno and leaves the file, the channel and the card usable.
 * Feature: qaic
 *
 * SUBTEST: open
 * Description: Check the allocation failures of opening the accel node.
 * Run type: FULL
 *
 * SUBTEST: create-bo
 * Description: Check the allocation failures of CREATE_BO.
 * Run type: FULL
 *
 * SUBTEST: mmap-bo
 * Description: Check the allocation failures of MMAP_BO.
 * Run type: FULL
 *
 * SUBTEST: activate
 * Description: Check the allocation failures of a MANAGE activate.
 * Run type: FULL
 *
 * SUBTEST: deactivate
 * Description: Check the allocation failures of a MANAGE deactivate; one that fails before the message gets out leaves the DBC the file's.
 * Run type: FULL
 *
 * SUBTEST: status
 * Description: Check the allocation failures of a MANAGE status request.
 * Run type: FULL
 *
 * SUBTEST: dma-xfer
 * Description: Check the allocation failures of a MANAGE DMA transfer.
 * Run type: FULL
 *
 * SUBTEST: attach-slice
 * Description: Check the allocation failures of ATTACH_SLICE_BO.
 * Run type: FULL
 *
 * SUBTEST: attach-untouched
 * Description: Check the allocation failures of ATTACH_SLICE_BO of an object whose pages were never touched (the attach allocates and pins them).
 * Run type: FULL
 *
 * SUBTEST: detach-slice
 * Description: Check the allocation failures of DETACH_SLICE_BO.
 * Run type: FULL
 *
 * SUBTEST: execute
 * Description: Check the allocation failures of EXECUTE_BO of one object.
 * Run type: FULL
 *
 * SUBTEST: execute-two
 * Description: Check the allocation failures of EXECUTE_BO of two objects.
 * Run type: FULL
 *
 * SUBTEST: partial-execute
 * Description: Check the allocation failures of PARTIAL_EXECUTE_BO.
 * Run type: FULL
 *
 * SUBTEST: submit
 * Description: Check the allocation failures of SUBMIT with an in-syncobj and a timeline out-point.
 * Run type: FULL
 *
 * SUBTEST: submit-two-fences
 * Description: Check the allocation failures of SUBMIT waiting for two syncobjs that hold fences of two other contexts (vgem).
 * Run type: FULL
 *
 * SUBTEST: submit-partial
 * Description: Check the allocation failures of a partial SUBMIT with a binary out-syncobj.
 * Run type: FULL
 *
 * SUBTEST: wait-bo
 * Description: Check the allocation failures of WAIT_BO.
 * Run type: FULL
 *
 * SUBTEST: perf-stats
 * Description: Check the allocation failures of PERF_STATS_BO.
 * Run type: FULL
 *
 * SUBTEST: prime-export
 * Description: Check the allocation failures of exporting an object as a dma-buf.
 * Run type: FULL
 *
 * SUBTEST: prime-to-vgem
 * Description: Check the allocation failures of vgem importing (attaching and mapping) a qaic dma-buf.
 * Run type: FULL
 *
 * SUBTEST: prime-from-vgem
 * Description: Check the allocation failures of importing a vgem dma-buf.
 * Run type: FULL
 *
 * SUBTEST: attach-import
 * Description: Check the allocation failures of ATTACH_SLICE_BO of an imported object.
 * Run type: FULL
 *
 * SUBTEST: bind
 * Description: Check the allocation failures of binding the driver to the card (its probe); only with QAIC_FAILNTH_PROBE=1, as one of them crashes Linux 6.12's DRM core.
 * Run type: FULL
 */

IGT_TEST_DESCRIPTION("Every allocation an ioctl makes fails in turn (fault injection through /proc/thread-self/fail-nth); each failure gives an errno and leaves the file, the channel and the card usable.");

#define SZ_4K		4096ull
#define BO_SIZE		(16 * SZ_4K)
#define DEV_ADDR	(48ull << 20)
#define QUEUE_SIZE	64
#define XFER_TAG	0x5a17
#define WAIT_MS		20000
/* More injection points than any of these calls has */
#define MAX_NTH		2000

#define DEBUGFS		"/sys/kernel/debug"

/* What one scenario holds; everything is given back by closing the files. */
struct ctx {
	int fd;
	int vgem;
	int dmabuf;
	uint32_t dbc;
	uint32_t handle;		/* result of the call under test */
	struct igt_qaic_bo bo[2];
	struct igt_qaic_dumb dumb;
	uint32_t in_sync, out_sync;
	struct qaic_sync in, ins[2];
	struct igt_qaic_gate gates[2];
	struct qaic_attach_slice_entry slices[4];
	struct qaic_execute_entry exec[2];
	struct qaic_partial_execute_entry partial;
	struct qaic_perf_stats_entry perf;
	struct qaic_manage_msg manage;
	struct igt_qaic_msg msg;
	union {
		struct qaic_create_bo create;
		struct qaic_mmap_bo mmap;
		struct qaic_attach_slice attach;
		struct qaic_detach_slice detach;
		struct qaic_execute execute;
		struct qaic_wait wait;
		struct qaic_perf_stats perf_stats;
		struct qaic_submit submit;
		struct drm_prime_handle prime;
	} arg;
	uint8_t *xfer;
	int sysfs;
};

struct scenario {
	const char *name;
	void (*setup)(struct ctx *c);
	/* The call under test: only syscalls of the call itself, no malloc */
	int (*op)(struct ctx *c);
	/* After a successful call: check that what it made works */
	void (*check)(struct ctx *c);
	/* After a failed call (optional): check that the file kept what it had */
	void (*check_failed)(struct ctx *c, int err);
};

#define DRIVER_DIR	"/sys/bus/pci/drivers/qaic"

static char node[32];
/* Whether the call being checked had a failure injected */
static bool injected_now;
static char bdf[64];
static int nth_fd = -1;

static int failnth_ioctl(int fd, unsigned long req, void *arg)
{
	return ioctl(fd, req, arg) ? -errno : 0;
}

/* Debugfs settings of one fault type, and what they were before */
struct knob {
	const char *path;
	const char *val;
	char old[32];
	bool saved;
};

static struct knob knobs[] = {
	/* Fail sleeping allocations too, not only atomic ones. */
	{ .path = DEBUGFS "/failslab/ignore-gfp-wait", .val = "N" },
	{ .path = DEBUGFS "/fail_page_alloc/ignore-gfp-wait", .val = "N" },
	{ .path = DEBUGFS "/fail_page_alloc/min-order", .val = "0" },
	/* No stack dump per failure: the bench counts a Call Trace as a report. */
	{ .path = DEBUGFS "/failslab/verbose", .val = "0" },
	{ .path = DEBUGFS "/fail_page_alloc/verbose", .val = "0" },
	/*
	 * On the bench a failed GFP_ATOMIC allocation of UML's virt-pci, made
	 * for a posted MMIO write, can delay a doorbell of the control channel
	 * until the next one: the message's answer comes after the timeout,
	 * and the driver resets the card. Wait 2 s for it, not 60.
	 */
	{ .path = "/sys/module/qaic/parameters/control_resp_timeout_s", .val = "2" },
};

static bool write_str(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY);
	bool ok;

	if (fd < 0)
		return false;
	ok = write(fd, val, strlen(val)) == (ssize_t)strlen(val);
	close(fd);
	return ok;
}

static void knobs_set(void)
{
	/* QAIC_FAILNTH_VERBOSE=1 keeps the stack dump of each failure. */
	if (getenv("QAIC_FAILNTH_VERBOSE")) {
		knobs[3].val = "2";
		knobs[4].val = "2";
	}
	for (unsigned int i = 0; i < ARRAY_SIZE(knobs); i++) {
		struct knob *k = &knobs[i];
		int fd = open(k->path, O_RDONLY);
		ssize_t n;

		igt_require_f(fd >= 0, "no %s: %s\n", k->path, strerror(errno));
		n = read(fd, k->old, sizeof(k->old) - 1);
		close(fd);
		igt_assert(n > 0);
		k->old[n] = 0;
		k->saved = true;
		igt_assert_f(write_str(k->path, k->val), "write %s to %s: %s\n",
			     k->val, k->path, strerror(errno));
	}
}

static void knobs_restore(void)
{
	for (unsigned int i = 0; i < ARRAY_SIZE(knobs); i++)
		if (knobs[i].saved)
			write_str(knobs[i].path, knobs[i].old);
}

/*
 * Runs @c's call with its @nth injectable failure forced. Returns what the
 * call returned; *@injected tells whether the call got as far as the @nth
 * point. The counter of fail-nth is the task's, not the syscall's: it is
 * read back and cleared at once, before anything else can count.
 */
static int run_nth(const struct scenario *s, struct ctx *c, unsigned int nth,
		   bool *injected)
{
	char buf[16];
	int len, ret;

	len = snprintf(buf, sizeof(buf), "%u", nth);
	igt_assert_eq(pwrite(nth_fd, buf, len, 0), len);
	ret = s->op(c);
	len = pread(nth_fd, buf, sizeof(buf) - 1, 0);
	igt_assert_eq(pwrite(nth_fd, "0", 1, 0), 1);
	igt_assert(len > 0);
	buf[len] = 0;
	*injected = atoi(buf) == 0;

	return ret;
}

static void ctx_open(struct ctx *c)
{
	memset(c, 0, sizeof(*c));
	c->fd = igt_qaic_open();
	c->vgem = -1;
	c->dmabuf = -1;
}

static void ctx_close(struct ctx *c)
{
	for (unsigned int i = 0; i < ARRAY_SIZE(c->bo); i++)
		if (c->bo[i].ptr)
			munmap(c->bo[i].ptr, c->bo[i].size);
	if (c->dumb.ptr)
		munmap(c->dumb.ptr, c->dumb.size);
	for (unsigned int i = 0; i < ARRAY_SIZE(c->gates); i++)
		if (c->gates[i].vgem > 0)
			igt_qaic_gate_open(&c->gates[i]);
	if (c->xfer)
		munmap(c->xfer, BO_SIZE);
	if (c->dmabuf >= 0)
		close(c->dmabuf);
	if (c->sysfs > 0)
		close(c->sysfs);
	if (c->vgem >= 0)
		close(c->vgem);
	if (c->fd >= 0)
		close(c->fd);
}

/* An active DBC and @n objects on it, each in four slices, to the device */
static void setup_attached(struct ctx *c, unsigned int n)
{
	ctx_open(c);
	c->dbc = igt_qaic_activate(c->fd, QUEUE_SIZE);
	for (unsigned int i = 0; i < n; i++) {
		igt_qaic_bo_create(c->fd, BO_SIZE, &c->bo[i]);
		igt_qaic_fill_pattern(c->bo[i].ptr, BO_SIZE, i + 1);
		igt_qaic_attach_simple(c->fd, c->bo[i].handle, c->dbc,
				       IGT_QAIC_DIR_TO_DEV, BO_SIZE,
				       DEV_ADDR + i * BO_SIZE);
		c->exec[i].handle = c->bo[i].handle;
		c->exec[i].dir = IGT_QAIC_DIR_TO_DEV;
	}
	c->arg.execute.hdr.count = n;
	c->arg.execute.hdr.dbc_id = c->dbc;
	c->arg.execute.data = to_user_pointer(c->exec);
}

static void check_bo_runs(struct ctx *c, uint32_t handle)
{
	igt_qaic_execute_bo(c->fd, c->dbc, handle, IGT_QAIC_DIR_TO_DEV);
	igt_qaic_wait(c->fd, handle, c->dbc, WAIT_MS);
}

/* open */

static void setup_none(struct ctx *c)
{
	memset(c, 0, sizeof(*c));
	c->fd = -1;
	c->vgem = -1;
	c->dmabuf = -1;
}

static int op_open(struct ctx *c)
{
	c->fd = open(node, O_RDWR | O_CLOEXEC);
	return c->fd < 0 ? -errno : 0;
}

static void check_open(struct ctx *c)
{
	c->dbc = igt_qaic_activate(c->fd, QUEUE_SIZE);
	igt_qaic_round_trip(c->fd, c->dbc, DEV_ADDR, SZ_4K, 1);
}

/* create-bo, mmap-bo */

static void setup_open(struct ctx *c)
{
	ctx_open(c);
	c->arg.create.size = BO_SIZE;
}

static int op_create(struct ctx *c)
{
	return failnth_ioctl(c->fd, DRM_IOCTL_QAIC_CREATE_BO, &c->arg.create);
}

static void check_create(struct ctx *c)
{
	void *ptr = igt_qaic_mmap_bo(c->fd, c->arg.create.handle, BO_SIZE,
				     PROT_READ | PROT_WRITE);

	memset(ptr, 0x5a, BO_SIZE);
	munmap(ptr, BO_SIZE);
}

static void setup_mmap(struct ctx *c)
{
	ctx_open(c);
	c->arg.mmap.handle = igt_qaic_create_bo(c->fd, BO_SIZE);
}

static int op_mmap(struct ctx *c)
{
	return failnth_ioctl(c->fd, DRM_IOCTL_QAIC_MMAP_BO, &c->arg.mmap);
}

static void check_mmap(struct ctx *c)
{
	uint8_t *ptr = mmap(NULL, BO_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED,
			    c->fd, c->arg.mmap.offset);

	igt_assert(ptr != MAP_FAILED);
	ptr[BO_SIZE - 1] = 1;
	munmap(ptr, BO_SIZE);
}

/* MANAGE */

static void manage_arg(struct ctx *c)
{
	c->manage.len = c->msg.len;
	c->manage.count = c->msg.count;
	c->manage.data = to_user_pointer(c->msg.buf);
}

static int op_manage(struct ctx *c)
{
	return failnth_ioctl(c->fd, DRM_IOCTL_QAIC_MANAGE, &c->manage);
}

static void setup_activate(struct ctx *c)
{
	ctx_open(c);
	igt_qaic_msg_init(&c->msg);
	igt_qaic_msg_activate(&c->msg, QUEUE_SIZE, 0);
	manage_arg(c);
}

static void check_activate(struct ctx *c)
{
	const struct qaic_manage_trans_activate_from_dev *ans;

	c->msg.len = c->manage.len;
	c->msg.count = c->manage.count;
	igt_assert_eq(c->msg.count, 1);
	ans = igt_qaic_msg_answer(&c->msg, 0, QAIC_TRANS_ACTIVATE_FROM_DEV,
				  sizeof(*ans));
	igt_assert_eq(ans->status, 0);
	c->dbc = ans->dbc_id;
	/*
	 * An activate whose queue could not be made still gives the DBC
	 * (qaic_manage_account()): the file owns it, every execute fails.
	 * Deactivating it must give back a DBC that works.
	 */
	if (__igt_qaic_attach_simple(c->fd, igt_qaic_create_bo(c->fd, SZ_4K),
				     c->dbc, IGT_QAIC_DIR_TO_DEV, SZ_4K,
				     DEV_ADDR) == -EPERM) {
		igt_info("activate: DBC %u given without a queue\n", c->dbc);
		igt_qaic_deactivate(c->fd, c->dbc);
		c->dbc = igt_qaic_activate(c->fd, QUEUE_SIZE);
	}
	igt_qaic_round_trip(c->fd, c->dbc, DEV_ADDR, SZ_4K, 2);
}

static void setup_deactivate(struct ctx *c)
{
	ctx_open(c);
	c->dbc = igt_qaic_activate(c->fd, QUEUE_SIZE);
	igt_qaic_round_trip(c->fd, c->dbc, DEV_ADDR, SZ_4K, 3);
	igt_qaic_msg_init(&c->msg);
	igt_qaic_msg_deactivate(&c->msg, c->dbc);
	manage_arg(c);
}

static void check_deactivate(struct ctx *c)
{
	c->dbc = igt_qaic_activate(c->fd, QUEUE_SIZE);
	igt_qaic_round_trip(c->fd, c->dbc, DEV_ADDR, SZ_4K, 4);
}

/*
 * An allocation failure comes before the message gets out (-ENOMEM): the
 * card never heard of the deactivate, so the DBC is still the file's. It
 * runs jobs, and a deactivate gives it back.
 */
static void check_deactivate_failed(struct ctx *c, int err)
{
	if (err != -ENOMEM)
		return;
	igt_qaic_round_trip(c->fd, c->dbc, DEV_ADDR, SZ_4K, 5);
	igt_qaic_deactivate(c->fd, c->dbc);
	check_deactivate(c);
}

static void setup_status(struct ctx *c)
{
	ctx_open(c);
	igt_qaic_msg_init(&c->msg);
	igt_qaic_msg_status(&c->msg);
	manage_arg(c);
}

static void check_status(struct ctx *c)
{
	struct qaic_manage_trans_status_from_dev status;

	igt_qaic_status(c->fd, &status);
}

static void setup_xfer(struct ctx *c)
{
	ctx_open(c);
	c->xfer = mmap(NULL, BO_SIZE, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	igt_assert(c->xfer != MAP_FAILED);
	igt_qaic_fill_pattern(c->xfer, BO_SIZE, 5);
	igt_qaic_msg_init(&c->msg);
	igt_qaic_msg_dma_xfer(&c->msg, XFER_TAG, to_user_pointer(c->xfer),
			      BO_SIZE);
	manage_arg(c);
}

static void check_xfer(struct ctx *c)
{
	igt_qaic_dma_xfer(c->fd, XFER_TAG, c->xfer, BO_SIZE);
}

/* ATTACH_SLICE_BO, DETACH_SLICE_BO */

static void attach_arg(struct ctx *c, uint32_t handle)
{
	for (unsigned int i = 0; i < ARRAY_SIZE(c->slices); i++)
		igt_qaic_slice_init(&c->slices[i], i * (BO_SIZE / 4), BO_SIZE / 4,
				    DEV_ADDR + i * (BO_SIZE / 4));
	c->arg.attach.hdr.count = ARRAY_SIZE(c->slices);
	c->arg.attach.hdr.dbc_id = c->dbc;
	c->arg.attach.hdr.handle = handle;
	c->arg.attach.hdr.dir = IGT_QAIC_DIR_TO_DEV;
	c->arg.attach.hdr.size = BO_SIZE;
	c->arg.attach.data = to_user_pointer(c->slices);
}

static void setup_attach(struct ctx *c)
{
	ctx_open(c);
	c->dbc = igt_qaic_activate(c->fd, QUEUE_SIZE);
	igt_qaic_bo_create(c->fd, BO_SIZE, &c->bo[0]);
	igt_qaic_fill_pattern(c->bo[0].ptr, BO_SIZE, 6);
	attach_arg(c, c->bo[0].handle);
}

static void setup_attach_untouched(struct ctx *c)
{
	ctx_open(c);
	c->dbc = igt_qaic_activate(c->fd, QUEUE_SIZE);
	attach_arg(c, igt_qaic_create_bo(c->fd, BO_SIZE));
}

static int op_attach(struct ctx *c)
{
	return failnth_ioctl(c->fd, DRM_IOCTL_QAIC_ATTACH_SLICE_BO, &c->arg.attach);
}

static void check_attach(struct ctx *c)
{
	check_bo_runs(c, c->arg.attach.hdr.handle);
}

static void setup_detach(struct ctx *c)
{
	setup_attached(c, 1);
	check_bo_runs(c, c->bo[0].handle);
	memset(&c->arg, 0, sizeof(c->arg));
	c->arg.detach.handle = c->bo[0].handle;
}

static int op_detach(struct ctx *c)
{
	return failnth_ioctl(c->fd, DRM_IOCTL_QAIC_DETACH_SLICE_BO, &c->arg.detach);
}

static void check_detach(struct ctx *c)
{
	igt_qaic_attach_simple(c->fd, c->bo[0].handle, c->dbc,
			       IGT_QAIC_DIR_TO_DEV, BO_SIZE, DEV_ADDR);
	check_bo_runs(c, c->bo[0].handle);
}

/* EXECUTE_BO, PARTIAL_EXECUTE_BO, WAIT_BO, PERF_STATS_BO */

static void setup_exec1(struct ctx *c)
{
	setup_attached(c, 1);
}

static void setup_exec2(struct ctx *c)
{
	setup_attached(c, 2);
}

static int op_execute(struct ctx *c)
{
	return failnth_ioctl(c->fd, DRM_IOCTL_QAIC_EXECUTE_BO, &c->arg.execute);
}

static void check_execute(struct ctx *c)
{
	for (unsigned int i = 0; i < c->arg.execute.hdr.count; i++)
		igt_qaic_wait(c->fd, c->exec[i].handle, c->dbc, WAIT_MS);
	check_bo_runs(c, c->exec[0].handle);
}

static void setup_partial(struct ctx *c)
{
	setup_attached(c, 1);
	c->partial.handle = c->bo[0].handle;
	c->partial.dir = IGT_QAIC_DIR_TO_DEV;
	c->partial.resize = BO_SIZE / 2 + 100;
	c->arg.execute.data = to_user_pointer(&c->partial);
}

static int op_partial(struct ctx *c)
{
	return failnth_ioctl(c->fd, DRM_IOCTL_QAIC_PARTIAL_EXECUTE_BO,
			&c->arg.execute);
}

static void check_partial(struct ctx *c)
{
	igt_qaic_wait(c->fd, c->bo[0].handle, c->dbc, WAIT_MS);
	check_bo_runs(c, c->bo[0].handle);
}

static void setup_wait(struct ctx *c)
{
	setup_attached(c, 1);
	igt_qaic_execute_bo(c->fd, c->dbc, c->bo[0].handle,
			    IGT_QAIC_DIR_TO_DEV);
	memset(&c->arg, 0, sizeof(c->arg));
	c->arg.wait.handle = c->bo[0].handle;
	c->arg.wait.dbc_id = c->dbc;
	c->arg.wait.timeout = WAIT_MS;
}

static int op_wait(struct ctx *c)
{
	return failnth_ioctl(c->fd, DRM_IOCTL_QAIC_WAIT_BO, &c->arg.wait);
}

static void check_wait(struct ctx *c)
{
	check_bo_runs(c, c->bo[0].handle);
}

static void setup_perf(struct ctx *c)
{
	setup_attached(c, 1);
	check_bo_runs(c, c->bo[0].handle);
	memset(&c->arg, 0, sizeof(c->arg));
	c->perf.handle = c->bo[0].handle;
	c->arg.perf_stats.hdr.count = 1;
	c->arg.perf_stats.hdr.dbc_id = c->dbc;
	c->arg.perf_stats.data = to_user_pointer(&c->perf);
}

static int op_perf(struct ctx *c)
{
	return failnth_ioctl(c->fd, DRM_IOCTL_QAIC_PERF_STATS_BO,
			&c->arg.perf_stats);
}

/* SUBMIT */

static void setup_submit(struct ctx *c)
{
	setup_attached(c, 1);
	igt_assert_eq(drmSyncobjCreate(c->fd, DRM_SYNCOBJ_CREATE_SIGNALED,
				       &c->in_sync), 0);
	c->out_sync = igt_qaic_syncobj_create(c->fd);
	c->in.handle = c->in_sync;
	c->arg.submit.in_syncs = to_user_pointer(&c->in);
	c->arg.submit.in_sync_count = 1;
	c->arg.submit.out_sync.handle = c->out_sync;
	c->arg.submit.out_sync.point = 1;
}

/* struct qaic_submit starts as struct qaic_execute: setup_partial() fills that. */
static void setup_submit_partial(struct ctx *c)
{
	setup_partial(c);
	c->out_sync = igt_qaic_syncobj_create(c->fd);
	c->arg.submit.flags = QAIC_SUBMIT_PARTIAL;
	c->arg.submit.out_sync.handle = c->out_sync;
}

static int op_submit(struct ctx *c)
{
	return failnth_ioctl(c->fd, DRM_IOCTL_QAIC_SUBMIT, &c->arg.submit);
}

static void check_submit(struct ctx *c)
{
	igt_qaic_syncobj_wait(c->fd, c->out_sync, c->arg.submit.out_sync.point,
			      WAIT_MS * 1000000ll);
	check_bo_runs(c, c->bo[0].handle);
}

/* Two gates: fences of two vgem contexts, which the job must both wait for */
static void setup_submit_two(struct ctx *c)
{
	setup_attached(c, 1);
	for (unsigned int i = 0; i < ARRAY_SIZE(c->gates); i++) {
		c->ins[i].handle = igt_qaic_syncobj_create(c->fd);
		igt_qaic_gate_init(c->fd, c->ins[i].handle, 0, &c->gates[i]);
	}
	c->out_sync = igt_qaic_syncobj_create(c->fd);
	c->arg.submit.in_syncs = to_user_pointer(c->ins);
	c->arg.submit.in_sync_count = ARRAY_SIZE(c->ins);
	c->arg.submit.out_sync.handle = c->out_sync;
}

static void check_submit_two(struct ctx *c)
{
	for (unsigned int i = 0; i < ARRAY_SIZE(c->gates); i++) {
		igt_qaic_gate_open(&c->gates[i]);
		c->gates[i].vgem = 0;
	}
	check_submit(c);
}

/* PRIME */

static void setup_export(struct ctx *c)
{
	ctx_open(c);
	igt_qaic_bo_create(c->fd, BO_SIZE, &c->bo[0]);
	c->arg.prime.handle = c->bo[0].handle;
	c->arg.prime.flags = DRM_CLOEXEC | DRM_RDWR;
	c->arg.prime.fd = -1;
}

static int op_export(struct ctx *c)
{
	return failnth_ioctl(c->fd, DRM_IOCTL_PRIME_HANDLE_TO_FD, &c->arg.prime);
}

static void check_export(struct ctx *c)
{
	c->dmabuf = c->arg.prime.fd;
	igt_assert_eq(igt_qaic_prime_import(c->fd, c->dmabuf), c->bo[0].handle);
}

static void setup_to_vgem(struct ctx *c)
{
	ctx_open(c);
	c->vgem = igt_qaic_vgem_open();
	igt_qaic_bo_create(c->fd, BO_SIZE, &c->bo[0]);
	igt_qaic_fill_pattern(c->bo[0].ptr, BO_SIZE, 7);
	c->dmabuf = igt_qaic_prime_export(c->fd, c->bo[0].handle);
	c->arg.prime.fd = c->dmabuf;
}

static int op_to_vgem(struct ctx *c)
{
	return failnth_ioctl(c->vgem, DRM_IOCTL_PRIME_FD_TO_HANDLE, &c->arg.prime);
}

static void check_to_vgem(struct ctx *c)
{
	uint8_t *ptr = igt_qaic_dmabuf_mmap(c->dmabuf, BO_SIZE);
	uint8_t *want = malloc(BO_SIZE);

	igt_assert(want);
	igt_qaic_fill_pattern(want, BO_SIZE, 7);
	igt_qaic_assert_bytes(ptr, want, BO_SIZE, "dma-buf");
	free(want);
	munmap(ptr, BO_SIZE);
}

static void setup_from_vgem(struct ctx *c)
{
	ctx_open(c);
	c->vgem = igt_qaic_vgem_open();
	igt_qaic_vgem_create(c->vgem, BO_SIZE, &c->dumb);
	memset(c->dumb.ptr, 0x3c, BO_SIZE);
	c->dmabuf = igt_qaic_prime_export(c->vgem, c->dumb.handle);
	c->arg.prime.fd = c->dmabuf;
}

static int op_from_vgem(struct ctx *c)
{
	return failnth_ioctl(c->fd, DRM_IOCTL_PRIME_FD_TO_HANDLE, &c->arg.prime);
}

static void check_from_vgem(struct ctx *c)
{
	c->dbc = igt_qaic_activate(c->fd, QUEUE_SIZE);
	igt_qaic_attach_simple(c->fd, c->arg.prime.handle, c->dbc,
			       IGT_QAIC_DIR_TO_DEV, BO_SIZE, DEV_ADDR);
	check_bo_runs(c, c->arg.prime.handle);
}

static void setup_attach_import(struct ctx *c)
{
	setup_from_vgem(c);
	c->dbc = igt_qaic_activate(c->fd, QUEUE_SIZE);
	attach_arg(c, igt_qaic_prime_import(c->fd, c->dmabuf));
}

/* bind: the probe, run by the writer of the driver's bind file */

static bool card_bound(void)
{
	char path[96];

	snprintf(path, sizeof(path), DRIVER_DIR "/%s", bdf);
	return !access(path, F_OK);
}

static void setup_bind(struct ctx *c)
{
	/*
	 * Linux 6.12's drm_minor_alloc() keeps the ERR_PTR of a failed
	 * drm_sysfs_minor_alloc() in minor->kdev, and its release action
	 * then calls put_device() on it: a kernel crash, in the DRM core,
	 * when that allocation of devm_drm_dev_alloc() fails.
	 */
	igt_require_f(getenv("QAIC_FAILNTH_PROBE"),
		      "fail-nth in probe crashes Linux 6.12 in drm_minor_alloc_release(); set QAIC_FAILNTH_PROBE=1 on a kernel with that fixed\n");
	setup_none(c);
	if (card_bound()) {
		int fd = open(DRIVER_DIR "/unbind", O_WRONLY);

		igt_assert(fd >= 0);
		igt_assert_eq(write(fd, bdf, strlen(bdf)), (ssize_t)strlen(bdf));
		close(fd);
	}
	igt_assert(!card_bound());
	c->sysfs = open(DRIVER_DIR "/bind", O_WRONLY);
	igt_assert(c->sysfs >= 0);
}

static int op_bind(struct ctx *c)
{
	return write(c->sysfs, bdf, strlen(bdf)) < 0 ? -errno : 0;
}

/*
 * Probe only starts the card's boot; the control path comes up later. After
 * a failure the probe absorbed, the card may stay down: on the bench, a
 * failed GFP_ATOMIC allocation of UML's virt-pci can lose an MMIO write of
 * the boot. The driver must then stay bound and quiet, and unbind cleanly
 * (the next try starts with that); without an injected failure the card
 * must come up.
 */
static void check_bind(struct ctx *c)
{
	uint64_t end = igt_qaic_now_ms() + WAIT_MS;
	int err;

	igt_assert(card_bound());
	while (access(node, F_OK) && igt_qaic_now_ms() < end)
		usleep(10000);
	c->fd = igt_qaic_open();
	while ((err = __igt_qaic_activate(c->fd, QUEUE_SIZE, &c->dbc)) == -ENODEV &&
	       igt_qaic_now_ms() < end)
		usleep(100000);
	if (err == -ENODEV && injected_now) {
		igt_info("bind: the card did not come up after a failure the probe absorbed\n");
		return;
	}
	igt_assert_f(!err, "activate after bind: %s\n", igt_qaic_err_name(-err));
	igt_qaic_round_trip(c->fd, c->dbc, DEV_ADDR, SZ_4K, 8);
}

static const struct scenario scenarios[] = {
	{ "open", setup_none, op_open, check_open, NULL },
	{ "create-bo", setup_open, op_create, check_create, NULL },
	{ "mmap-bo", setup_mmap, op_mmap, check_mmap, NULL },
	{ "activate", setup_activate, op_manage, check_activate, NULL },
	{ "deactivate", setup_deactivate, op_manage, check_deactivate, check_deactivate_failed },
	{ "status", setup_status, op_manage, check_status, NULL },
	{ "dma-xfer", setup_xfer, op_manage, check_xfer, NULL },
	{ "attach-slice", setup_attach, op_attach, check_attach, NULL },
	{ "attach-untouched", setup_attach_untouched, op_attach, check_attach, NULL },
	{ "detach-slice", setup_detach, op_detach, check_detach, NULL },
	{ "execute", setup_exec1, op_execute, check_execute, NULL },
	{ "execute-two", setup_exec2, op_execute, check_execute, NULL },
	{ "partial-execute", setup_partial, op_partial, check_partial, NULL },
	{ "submit", setup_submit, op_submit, check_submit, NULL },
	{ "submit-two-fences", setup_submit_two, op_submit, check_submit_two, NULL },
	{ "submit-partial", setup_submit_partial, op_submit, check_submit, NULL },
	{ "wait-bo", setup_wait, op_wait, check_wait, NULL },
	{ "perf-stats", setup_perf, op_perf, check_wait, NULL },
	{ "prime-export", setup_export, op_export, check_export, NULL },
	{ "prime-to-vgem", setup_to_vgem, op_to_vgem, check_to_vgem, NULL },
	{ "prime-from-vgem", setup_from_vgem, op_from_vgem, check_from_vgem, NULL },
	{ "attach-import", setup_attach_import, op_attach, check_attach, NULL },
	{ "bind", setup_bind, op_bind, check_bind, NULL },
};

/*
 * A MANAGE call that timed out gets the card reset (the manager is taken
 * for dead): wait until it answers again, as a runtime would.
 */
static void wait_card_up(void)
{
	struct qaic_manage_trans_status_from_dev status;
	uint64_t end = igt_qaic_now_ms() + WAIT_MS;
	int fd = igt_qaic_open();
	int err;

	while ((err = __igt_qaic_status(fd, &status)) == -ENODEV &&
	       igt_qaic_now_ms() < end)
		usleep(100000);
	igt_assert_f(!err, "the card did not come back: %s\n",
		     igt_qaic_err_name(-err));
	close(fd);
}

/*
 * Fails the 1st, 2nd, ... injectable allocation of the call in turn, each
 * time on a fresh file, until the call gets through without reaching the
 * point to fail. A failing call must give an errno; every file is closed
 * after each try, so a leak or a lost channel shows in the next setup, in
 * the final successful call and its check, and in the kernel log.
 */
static void run_scenario(const struct scenario *s)
{
	unsigned int nth, failed = 0, absorbed = 0;
	unsigned int by_errno[256] = {};
	bool injected = true;
	struct ctx c;
	int ret = 0;

	/* QAIC_FAILNTH_START=N starts at the N-th point, to look at one. */
	nth = getenv("QAIC_FAILNTH_START") ? atoi(getenv("QAIC_FAILNTH_START")) : 1;
	for (; nth <= MAX_NTH && injected; nth++) {
		s->setup(&c);
		ret = run_nth(s, &c, nth, &injected);
		if (injected && ret) {
			igt_assert_f(ret < 0 && -ret < 256, "%s: fail-nth %u: %d\n",
				     s->name, nth, ret);
			igt_debug("%s: fail-nth %u: %s\n", s->name, nth,
				  igt_qaic_err_name(-ret));
			by_errno[-ret]++;
			failed++;
		} else if (injected) {
			absorbed++;
		}
		injected_now = injected;
		if (!ret)
			s->check(&c);
		else if (s->check_failed)
			s->check_failed(&c, ret);
		ctx_close(&c);
		if (ret == -ETIMEDOUT || ret == -ENODEV)
			wait_card_up();
	}
	igt_assert_f(!injected, "%s: still failing after %u injected faults\n",
		     s->name, MAX_NTH);
	igt_assert_f(ret == 0, "%s: %s without an injected fault\n", s->name,
		     igt_qaic_err_name(-ret));
	igt_info("%s: %u injection points, %u failed the call, %u absorbed\n",
		 s->name, nth - 2, failed, absorbed);
	for (unsigned int e = 1; e < 256; e++)
		if (by_errno[e])
			igt_info("  %s: %u\n", igt_qaic_err_name(e), by_errno[e]);
}

igt_main
{
	igt_fixture {
		struct stat st;
		int fd = igt_qaic_open();

		char path[64], target[256];
		const char *base;
		ssize_t n;

		igt_assert_eq(fstat(fd, &st), 0);
		snprintf(node, sizeof(node), "/dev/accel/accel%u",
			 minor(st.st_rdev));
		snprintf(path, sizeof(path), "/sys/dev/char/%u:%u/device",
			 major(st.st_rdev), minor(st.st_rdev));
		n = readlink(path, target, sizeof(target) - 1);
		igt_assert(n > 0);
		target[n] = 0;
		base = strrchr(target, '/');
		snprintf(bdf, sizeof(bdf), "%.63s", base ? base + 1 : target);
		close(fd);
		igt_require_f(!access("/proc/thread-self/fail-nth", W_OK),
			      "no fail-nth (CONFIG_FAULT_INJECTION)\n");
		if (access(DEBUGFS "/failslab", F_OK))
			mount("debugfs", DEBUGFS, "debugfs", 0, NULL);
		knobs_set();
		nth_fd = open("/proc/thread-self/fail-nth", O_RDWR);
		igt_assert(nth_fd >= 0);
	}

	for (unsigned int i = 0; i < ARRAY_SIZE(scenarios); i++) {
		const struct scenario *s = &scenarios[i];

		igt_describe_f("Fail each allocation of %s in turn; every failure gives an errno and leaves the card usable.",
			       s->name);
		igt_subtest_f("%s", s->name)
			run_scenario(s);
	}

	igt_fixture {
		if (nth_fd >= 0)
			close(nth_fd);
		knobs_restore();
		/* Leave the card bound, whatever the bind subtest did. */
		if (bdf[0] && !card_bound())
			write_str(DRIVER_DIR "/bind", bdf);
	}
}
