// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The qaic authors.
 */

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <linux/dma-buf.h>
#include <linux/sync_file.h>
#include <linux/userfaultfd.h>
#include <xf86drm.h>

#include "igt_qaic.h"
#include "igt_qaic_sync.h"

/**
 * TEST: qaic lifetime
 * Category: Core
 * Description: What outlives a DBC and its file, and what a DBC's teardown must not wait for.
 * Feature: qaic, synchronization
 *
 * SUBTEST: sync-file-after-close
 * Description: Check that a sync_file of a job's syncobj still names its qaic fence after the DBC and the file are gone.
 * Run type: BAT
 *
 * SUBTEST: prime-sync-file-after-close
 * Description: Check that a sync_file of an exported object still names its qaic fence after the DBC and the file are gone.
 * Run type: FULL
 *
 * SUBTEST: deactivate-during-fault-execute
 * Description: Check that deactivating a DBC does not wait for a page fault of EXECUTE_BO.
 * Run type: FULL
 *
 * SUBTEST: deactivate-during-fault-partial-execute
 * Description: Check that deactivating a DBC does not wait for a page fault of PARTIAL_EXECUTE_BO.
 * Run type: FULL
 *
 * SUBTEST: deactivate-during-fault-submit
 * Description: Check that deactivating a DBC does not wait for a page fault of SUBMIT.
 * Run type: FULL
 *
 * SUBTEST: deactivate-during-fault-attach-slice
 * Description: Check that deactivating a DBC does not wait for a page fault of ATTACH_SLICE_BO.
 * Run type: FULL
 *
 * SUBTEST: deactivate-waiting-on-vgem
 * Description: Check that deactivating a DBC cancels at once the jobs that wait for a vgem fence.
 * Run type: FULL
 *
 * SUBTEST: deactivate-after-run-stats
 * Description: Check that an object whose job was cancelled before it reached the device shows no timing in PERF_STATS_BO, not that of its earlier run.
 * Run type: FULL
 *
 * SUBTEST: close-waiting-on-vgem
 * Description: Check that closing the file cancels at once the jobs that wait for a vgem fence.
 * Run type: FULL
 */

IGT_TEST_DESCRIPTION("What outlives a DBC and its file, and what a DBC's teardown must not wait for.");

#define SZ_4K		4096ull
#define SZ_1M		(1024 * 1024ull)
#define NSEC_PER_SEC	1000000000ll

/* Where the tests put their data in device memory */
#define DEV_ADDR	(16 * SZ_1M)

#define QUEUE_SIZE	64

/* Long enough for any job of these tests, even on the debug kernel */
#define WAIT_MS		20000
#define WAIT_NS		(20 * NSEC_PER_SEC)

/*
 * How long a deactivate or a close may take. They wait for the card's
 * answer and nothing else; what they must not wait for (a user page
 * fault, a vgem fence) would take for ever, or vgem's 10 s.
 */
#define RETURN_MS	2000

/* How long a thread may take to reach its page fault */
#define FAULT_MS	5000

/* Jobs queued behind a vgem fence */
#define HELD_JOBS	8

/* Syncobjs and channels made and dropped to reuse freed memory */
#define CHURN_SYNCOBJS	300
#define CHURN_DBCS	4

/* Retries on EINTR; 0 or -errno, for the threads, which must not assert. */
static int raw_ioctl(int fd, unsigned long request, void *arg)
{
	int ret;

	do {
		ret = ioctl(fd, request, arg);
	} while (ret == -1 && errno == EINTR);

	return ret ? -errno : 0;
}

/* Signals the gate, unless the watchdog did, and lets its vgem file go. */
static void gate_release(struct igt_qaic_gate *gate, bool fired)
{
	if (!fired) {
		igt_qaic_gate_open(gate);
		return;
	}
	gem_close(gate->vgem, gate->handle);
	close(gate->vgem);
	gate->vgem = -1;
}

/*
 * The fence of sync_file @sync_fd, which must hold one: SYNC_IOC_FILE_INFO
 * first for the count, then for the fence.
 */
static void sync_file_fence(int sync_fd, struct sync_file_info *info,
			    struct sync_fence_info *fence)
{
	memset(info, 0, sizeof(*info));
	memset(fence, 0, sizeof(*fence));
	igt_assert_eq(raw_ioctl(sync_fd, SYNC_IOC_FILE_INFO, info), 0);
	igt_assert_eq_u32(info->num_fences, 1);

	info->sync_fence_info = to_user_pointer(fence);
	igt_assert_eq(raw_ioctl(sync_fd, SYNC_IOC_FILE_INFO, info), 0);
	igt_assert_eq_u32(info->num_fences, 1);
}

/*
 * The fence of @sync_fd is a job's of qaic on DBC @dbc, with @status: 1
 * signalled, 0 not yet, else its error. Before it was qaic's own fence the
 * sync_file held drm_sched's finished fence, whose timeline name lives in
 * the scheduler, freed with the DBC: its names then read freed memory.
 */
static void check_qaic_fence(int sync_fd, uint32_t dbc, int status)
{
	struct sync_fence_info fence;
	struct sync_file_info info;
	char timeline[32];

	sync_file_fence(sync_fd, &info, &fence);
	fence.driver_name[sizeof(fence.driver_name) - 1] = '\0';
	fence.obj_name[sizeof(fence.obj_name) - 1] = '\0';
	igt_info("fence of driver \"%s\", timeline \"%s\", status %d\n",
		 fence.driver_name, fence.obj_name, fence.status);

	/*
	 * Newer kernels (7.2 here, not 6.12) answer for a signalled fence
	 * themselves and never ask the driver, whose data may be gone: these
	 * fixed names are right, and anything else (freed memory) is caught.
	 */
	if (status != 0 && strcmp(fence.driver_name, "detached-driver") == 0) {
		igt_assert_f(strcmp(fence.obj_name, "signaled-timeline") == 0,
			     "timeline name \"%s\" of a detached fence\n",
			     fence.obj_name);
		igt_assert_eq(fence.status, status);
		igt_assert_eq(info.status, status);
		return;
	}

	snprintf(timeline, sizeof(timeline), "qaic-dbc%u", dbc);
	igt_assert_f(strcmp(fence.driver_name, "qaic") == 0,
		     "driver name \"%s\", not \"qaic\"\n", fence.driver_name);
	igt_assert_f(strcmp(fence.obj_name, timeline) == 0,
		     "timeline name \"%s\", not \"%s\"\n", fence.obj_name,
		     timeline);
	igt_assert_eq(fence.status, status);
	igt_assert_eq(info.status, status);
}

/*
 * Makes and drops objects of the sizes the DBC and its jobs had, so that
 * what a stale pointer into them reads is something else by now: channels
 * (their queue and scheduler) and syncobjs (small objects).
 */
static void churn(void)
{
	uint32_t syncobjs[CHURN_SYNCOBJS];
	uint32_t dbcs[CHURN_DBCS];
	int fd = igt_qaic_open();

	for (unsigned int i = 0; i < CHURN_DBCS; i++)
		dbcs[i] = igt_qaic_activate(fd, QUEUE_SIZE);
	for (unsigned int i = 0; i < CHURN_SYNCOBJS; i++)
		syncobjs[i] = igt_qaic_syncobj_create(fd);
	for (unsigned int i = 0; i < CHURN_SYNCOBJS; i++)
		igt_qaic_syncobj_destroy(fd, syncobjs[i]);
	for (unsigned int i = 0; i < CHURN_DBCS; i++)
		igt_qaic_deactivate(fd, dbcs[i]);
	close(fd);
}

/* Nothing of qaic is left but fences: they hold the module. */
static void check_fence_holds_module(void)
{
	int refs = igt_qaic_module_refcount();

	if (refs < 0) {
		igt_info("qaic is not an unloadable module: not checked\n");
		return;
	}
	igt_assert_f(refs > 0,
		     "qaic could be unloaded while a sync_file holds one of its fences\n");
}

static void test_sync_file_after_close(void)
{
	struct igt_qaic_sync_bo bo;
	uint32_t dbc, out;
	int fd, sync_fd;

	fd = igt_qaic_open_dbc(QUEUE_SIZE, &dbc);
	igt_qaic_sync_bo_new(fd, SZ_4K, &bo);
	igt_qaic_sync_pattern(bo.ptr, SZ_4K, 1);
	igt_qaic_sync_attach(fd, bo.handle, dbc, IGT_QAIC_SYNC_TO_DEV, SZ_4K,
			     DEV_ADDR);
	out = igt_qaic_syncobj_create(fd);

	igt_qaic_submit(fd, dbc, bo.handle, IGT_QAIC_SYNC_TO_DEV, NULL, 0, out,
			0);
	igt_qaic_syncobj_wait(fd, out, 0, WAIT_NS);
	igt_assert_eq(drmSyncobjExportSyncFile(fd, out, &sync_fd), 0);
	igt_assert_fd(sync_fd);
	check_qaic_fence(sync_fd, dbc, 1);

	igt_qaic_release_dbc(fd, dbc);
	/* The mapping holds the file: unmap it, or close() releases nothing */
	igt_qaic_sync_bo_free(fd, &bo);
	igt_qaic_syncobj_destroy(fd, out);
	igt_assert_eq(close(fd), 0);
	churn();

	check_fence_holds_module();
	check_qaic_fence(sync_fd, dbc, 1);
	close(sync_fd);
}

/*
 * The same through PRIME: the sync_file comes from the dma-buf's
 * reservation. That skips signalled fences, so it is taken while the job
 * still waits behind a gate.
 */
static void test_prime_sync_file_after_close(void)
{
	struct dma_buf_export_sync_file export = {
		.flags = DMA_BUF_SYNC_RW,
		.fd = -1,
	};
	struct igt_qaic_sync_bo bo;
	struct igt_qaic_gate gate;
	struct qaic_sync after_gate;
	uint32_t dbc, gate_obj;
	int fd, dmabuf;

	fd = igt_qaic_open_dbc(QUEUE_SIZE, &dbc);
	igt_qaic_sync_bo_new(fd, SZ_4K, &bo);
	igt_qaic_sync_pattern(bo.ptr, SZ_4K, 2);
	igt_qaic_sync_attach(fd, bo.handle, dbc, IGT_QAIC_SYNC_TO_DEV, SZ_4K,
			     DEV_ADDR);
	dmabuf = igt_qaic_prime_export(fd, bo.handle);

	gate_obj = igt_qaic_syncobj_create(fd);
	igt_qaic_gate_init(fd, gate_obj, 0, &gate);
	after_gate = (struct qaic_sync) { .handle = gate_obj };
	igt_qaic_submit(fd, dbc, bo.handle, IGT_QAIC_SYNC_TO_DEV, &after_gate,
			1, 0, 0);

	igt_assert_eq(raw_ioctl(dmabuf, DMA_BUF_IOCTL_EXPORT_SYNC_FILE,
				&export), 0);
	igt_assert_fd(export.fd);
	check_qaic_fence(export.fd, dbc, 0);

	igt_qaic_gate_open(&gate);
	igt_assert_eq(__igt_qaic_sync_wait_bo(fd, bo.handle, dbc, WAIT_MS), 0);
	check_qaic_fence(export.fd, dbc, 1);

	igt_qaic_release_dbc(fd, dbc);
	igt_assert_eq(close(dmabuf), 0);
	igt_qaic_sync_bo_free(fd, &bo);
	igt_qaic_syncobj_destroy(fd, gate_obj);
	igt_assert_eq(close(fd), 0);
	churn();

	check_fence_holds_module();
	check_qaic_fence(export.fd, dbc, 1);
	close(export.fd);
}

/*
 * A page registered with userfaultfd: a thread that touches it blocks until
 * the test resolves the fault, as long as the test likes.
 */
struct fault {
	int uffd;
	uint8_t *page;		/* nothing there until resolved */
	uint8_t *content;	/* what resolving it puts there */
};

static void fault_init(struct fault *f)
{
	struct uffdio_api api = {
		.api = UFFD_API,
	};
	struct uffdio_register reg = {
		.mode = UFFDIO_REGISTER_MODE_MISSING,
	};

	f->uffd = syscall(SYS_userfaultfd, O_CLOEXEC | O_NONBLOCK);
	igt_require_f(f->uffd >= 0, "no userfaultfd: %s\n", strerror(errno));
	igt_assert_eq(raw_ioctl(f->uffd, UFFDIO_API, &api), 0);

	f->page = mmap(NULL, SZ_4K, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	igt_assert(f->page != MAP_FAILED);
	f->content = mmap(NULL, SZ_4K, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	igt_assert(f->content != MAP_FAILED);

	reg.range.start = to_user_pointer(f->page);
	reg.range.len = SZ_4K;
	igt_assert_eq(raw_ioctl(f->uffd, UFFDIO_REGISTER, &reg), 0);
}

/* Waits until a thread is blocked on the page. */
static void fault_wait(struct fault *f)
{
	struct pollfd pfd = { .fd = f->uffd, .events = POLLIN };
	struct uffd_msg msg;
	uint64_t addr;

	igt_assert_f(poll(&pfd, 1, FAULT_MS) == 1,
		     "no page fault within %d ms\n", FAULT_MS);
	igt_assert_eq(read(f->uffd, &msg, sizeof(msg)), sizeof(msg));
	igt_assert_eq(msg.event, UFFD_EVENT_PAGEFAULT);
	addr = msg.arg.pagefault.address;
	igt_assert_f(addr - to_user_pointer(f->page) < SZ_4K,
		     "fault at %#llx, not on the page at %p\n",
		     (unsigned long long)addr, f->page);
}

/* Fills the page, which wakes the thread; 0 or -errno, -EEXIST if done. */
static int fault_resolve(struct fault *f)
{
	struct uffdio_copy copy = {
		.dst = to_user_pointer(f->page),
		.src = to_user_pointer(f->content),
		.len = SZ_4K,
	};

	return raw_ioctl(f->uffd, UFFDIO_COPY, &copy);
}

static void fault_fire(void *data)
{
	fault_resolve(data);
}

static void fault_fini(struct fault *f)
{
	close(f->uffd);
	igt_assert_eq(munmap(f->page, SZ_4K), 0);
	igt_assert_eq(munmap(f->content, SZ_4K), 0);
}

enum fault_ioctl {
	FAULT_EXECUTE,
	FAULT_PARTIAL_EXECUTE,
	FAULT_SUBMIT,
	FAULT_ATTACH_SLICE,
};

/* A thread in an ioctl whose entries are on the page of a struct fault */
struct faulter {
	pthread_t thread;
	enum fault_ioctl ioctl;
	int fd;
	uint32_t dbc;
	uint32_t handle;	/* the object to slice, for ATTACH_SLICE_BO */
	void *entries;
	int ret;
};

static void *faulter_run(void *arg)
{
	struct faulter *t = arg;
	struct qaic_execute exec = {
		.hdr = { .count = 1, .dbc_id = t->dbc },
		.data = to_user_pointer(t->entries),
	};
	struct qaic_submit submit = {
		.hdr = { .count = 1, .dbc_id = t->dbc },
		.data = to_user_pointer(t->entries),
	};
	struct qaic_attach_slice attach = {
		.hdr = {
			.count = 1,
			.dbc_id = t->dbc,
			.handle = t->handle,
			.dir = IGT_QAIC_DIR_TO_DEV,
		},
		.data = to_user_pointer(t->entries),
	};

	switch (t->ioctl) {
	case FAULT_EXECUTE:
		t->ret = raw_ioctl(t->fd, DRM_IOCTL_QAIC_EXECUTE_BO, &exec);
		break;
	case FAULT_PARTIAL_EXECUTE:
		t->ret = raw_ioctl(t->fd, DRM_IOCTL_QAIC_PARTIAL_EXECUTE_BO,
				   &exec);
		break;
	case FAULT_SUBMIT:
		t->ret = raw_ioctl(t->fd, DRM_IOCTL_QAIC_SUBMIT, &submit);
		break;
	case FAULT_ATTACH_SLICE:
		t->ret = raw_ioctl(t->fd, DRM_IOCTL_QAIC_ATTACH_SLICE_BO,
				   &attach);
		break;
	}

	return NULL;
}

/*
 * What the page will hold once resolved: valid entries for @ioctl, so that
 * the only thing wrong with the call by then is that its DBC went away.
 */
static void fault_content(struct fault *f, enum fault_ioctl ioctl,
			  uint32_t handle)
{
	struct qaic_execute_entry exec = {
		.handle = handle,
		.dir = IGT_QAIC_DIR_TO_DEV,
	};
	struct qaic_partial_execute_entry partial = {
		.handle = handle,
		.dir = IGT_QAIC_DIR_TO_DEV,
		.resize = SZ_4K,
	};
	struct qaic_attach_slice_entry slice;

	switch (ioctl) {
	case FAULT_EXECUTE:
	case FAULT_SUBMIT:
		memcpy(f->content, &exec, sizeof(exec));
		break;
	case FAULT_PARTIAL_EXECUTE:
		memcpy(f->content, &partial, sizeof(partial));
		break;
	case FAULT_ATTACH_SLICE:
		igt_qaic_slice_init(&slice, 0, SZ_4K, DEV_ADDR);
		memcpy(f->content, &slice, sizeof(slice));
		break;
	}
}

/*
 * A thread's ioctl checked that its file holds the DBC, then blocks reading
 * its entries. Deactivating the DBC, and another file's MANAGE, must not
 * wait for that fault: it lasts as long as its owner wants. The ioctl then
 * finds the DBC gone.
 */
static void test_deactivate_during_fault(enum fault_ioctl ioctl)
{
	struct qaic_manage_trans_status_from_dev status;
	struct faulter t = { .ioctl = ioctl };
	struct igt_qaic_msg msg;
	int deactivated, asked, other;
	struct igt_qaic_watchdog w;
	struct fault f;
	bool fired;

	t.fd = igt_qaic_open_dbc(QUEUE_SIZE, &t.dbc);
	if (ioctl == FAULT_SUBMIT)
		igt_qaic_require_ours(t.fd, igt_qaic_has_syncobj(t.fd), "no SUBMIT");
	other = igt_qaic_open();
	t.handle = igt_qaic_create_bo(t.fd, SZ_4K);
	if (ioctl != FAULT_ATTACH_SLICE)
		igt_qaic_attach_simple(t.fd, t.handle, t.dbc,
				       IGT_QAIC_DIR_TO_DEV, SZ_4K, DEV_ADDR);

	fault_init(&f);
	fault_content(&f, ioctl, t.handle);
	t.entries = f.page;
	igt_assert_eq(pthread_create(&t.thread, NULL, faulter_run, &t), 0);
	fault_wait(&f);

	igt_qaic_watchdog_start(&w, RETURN_MS, fault_fire, &f);
	deactivated = __igt_qaic_release_dbc(t.fd, t.dbc, &msg);
	asked = __igt_qaic_status(other, &status);
	fired = igt_qaic_watchdog_stop(&w, "deactivate and another file's status");

	if (!fired)
		igt_assert_eq(fault_resolve(&f), 0);
	igt_assert_eq(pthread_join(t.thread, NULL), 0);
	igt_info("the faulting ioctl returned %s\n",
		 igt_qaic_err_name(-t.ret));

	igt_assert_f(!fired,
		     "deactivate or another file's MANAGE waited for a user page fault\n");
	igt_assert_eq(deactivated, 0);
	igt_qaic_check_released(&msg, t.dbc);
	igt_assert_eq(asked, 0);
	/* Upstream's ATTACH_SLICE_BO says EINVAL for a DBC not the file's */
	igt_assert_eq(t.ret, ioctl == FAULT_ATTACH_SLICE &&
			     !igt_qaic_driver_is_ours(t.fd) ? -EINVAL : -EPERM);

	fault_fini(&f);
	close(other);
	close(t.fd);
}

/*
 * HELD_JOBS jobs on a DBC, each with an object of its own and an out-sync,
 * all waiting for a gate: a vgem fence that only the test signals (or vgem
 * after 10 s).
 */
struct held {
	uint32_t gate_obj;
	struct igt_qaic_gate gate;
	uint32_t bo[HELD_JOBS];
	uint32_t out[HELD_JOBS];
};

static void held_submit(int fd, uint32_t dbc, struct held *h)
{
	struct qaic_sync after_gate;

	h->gate_obj = igt_qaic_syncobj_create(fd);
	igt_qaic_gate_init(fd, h->gate_obj, 0, &h->gate);
	after_gate = (struct qaic_sync) { .handle = h->gate_obj };

	/* No mappings: they would keep the file open past its close() */
	for (int i = 0; i < HELD_JOBS; i++) {
		h->bo[i] = igt_qaic_create_bo(fd, SZ_4K);
		igt_qaic_attach_simple(fd, h->bo[i], dbc, IGT_QAIC_DIR_TO_DEV,
				       SZ_4K, DEV_ADDR + i * SZ_4K);
		h->out[i] = igt_qaic_syncobj_create(fd);
		igt_qaic_submit(fd, dbc, h->bo[i], IGT_QAIC_SYNC_TO_DEV,
				&after_gate, 1, h->out[i], 0);
	}

	usleep(100000);
	for (int i = 0; i < HELD_JOBS; i++)
		igt_assert_eq(__igt_qaic_syncobj_wait(fd, h->out[i], 0, 0, 0),
			      -ETIME);
}

/* The card still runs jobs for a new file. */
static void check_card_works(void)
{
	uint32_t dbc;
	int fd;

	fd = igt_qaic_open_dbc(QUEUE_SIZE, &dbc);
	igt_qaic_round_trip(fd, dbc, DEV_ADDR, SZ_4K, 3);
	close(fd);
}

/*
 * Deactivating the DBC cancels the jobs at once: their fences signal with
 * ECANCELED, although what they wait for has not signalled. The jobs
 * themselves go when it does, after the file.
 */
static void test_deactivate_waiting_on_vgem(void)
{
	struct igt_qaic_msg msg;
	struct igt_qaic_watchdog w;
	uint32_t dbc, spare;
	struct held h;
	int fd, ret;
	bool fired;

	fd = igt_qaic_open();
	dbc = igt_qaic_activate(fd, QUEUE_SIZE);
	/* WAIT_BO wants a DBC the file holds, any one */
	spare = igt_qaic_activate(fd, QUEUE_SIZE);
	held_submit(fd, dbc, &h);

	igt_qaic_watchdog_start(&w, RETURN_MS, igt_qaic_gate_fire, &h.gate);
	ret = __igt_qaic_release_dbc(fd, dbc, &msg);
	fired = igt_qaic_watchdog_stop(&w, "deactivate");
	igt_assert_f(!fired, "deactivate waited for a vgem fence\n");
	igt_assert_eq(ret, 0);
	igt_qaic_check_released(&msg, dbc);

	for (int i = 0; i < HELD_JOBS; i++) {
		int sync_fd;

		igt_assert_eq(drmSyncobjExportSyncFile(fd, h.out[i], &sync_fd),
			      0);
		check_qaic_fence(sync_fd, dbc, -ECANCELED);
		close(sync_fd);
		/* The object's last job was cancelled, and WAIT_BO says so */
		igt_assert_eq(__igt_qaic_sync_wait_bo(fd, h.bo[i], spare, IGT_QAIC_WAIT_LOOK_MS),
			      -ECANCELED);
	}

	igt_assert_eq(close(fd), 0);
	gate_release(&h.gate, fired);
	check_card_works();
}

/*
 * An object runs once (PERF_STATS_BO shows its timing), then a job of it
 * waits for a vgem fence and the DBC is deactivated: the job never reached
 * the device, and PERF_STATS_BO (through another DBC of the file) shows
 * nothing rather than the earlier run's timing.
 */
static void test_deactivate_after_run_stats(void)
{
	struct qaic_perf_stats_entry st = {};
	struct igt_qaic_gate gate;
	struct qaic_sync after_gate;
	uint32_t dbc, spare, bo, gate_obj;
	struct igt_qaic_msg msg;
	int fd;

	fd = igt_qaic_open();
	igt_qaic_require_ours(fd, igt_qaic_has_syncobj(fd), "no syncobjs");
	dbc = igt_qaic_activate(fd, QUEUE_SIZE);
	spare = igt_qaic_activate(fd, QUEUE_SIZE);
	bo = igt_qaic_create_bo(fd, SZ_4K);
	igt_qaic_attach_simple(fd, bo, dbc, IGT_QAIC_DIR_TO_DEV, SZ_4K, DEV_ADDR);
	igt_qaic_execute_bo(fd, dbc, bo, IGT_QAIC_DIR_TO_DEV);
	igt_assert_eq(__igt_qaic_sync_wait_bo(fd, bo, dbc, 10000), 0);
	st.handle = bo;
	igt_qaic_perf_stats(fd, spare, &st, 1);
	igt_assert_f(st.num_queue_element && st.device_latency_us,
		     "no timing after a run: %u elements, %u us\n", st.num_queue_element,
		     st.device_latency_us);

	gate_obj = igt_qaic_syncobj_create(fd);
	igt_qaic_gate_init(fd, gate_obj, 0, &gate);
	after_gate = (struct qaic_sync) { .handle = gate_obj };
	igt_qaic_submit(fd, dbc, bo, IGT_QAIC_SYNC_TO_DEV, &after_gate, 1, 0, 0);
	igt_assert_eq(__igt_qaic_release_dbc(fd, dbc, &msg), 0);
	igt_qaic_check_released(&msg, dbc);
	igt_assert_eq(__igt_qaic_sync_wait_bo(fd, bo, spare, IGT_QAIC_WAIT_LOOK_MS), -ECANCELED);

	memset(&st, 0, sizeof(st));
	st.handle = bo;
	igt_qaic_perf_stats(fd, spare, &st, 1);
	igt_assert_f(!st.queue_level_before && !st.num_queue_element &&
		     !st.submit_latency_us && !st.device_latency_us,
		     "a cancelled job shows timing: level %u, %u elements, %u + %u us\n",
		     st.queue_level_before, st.num_queue_element, st.submit_latency_us,
		     st.device_latency_us);
	igt_assert_eq(close(fd), 0);
	igt_qaic_gate_open(&gate);
	check_card_works();
}

/* The same, with the file closed instead: close() cancels them at once. */
static void test_close_waiting_on_vgem(void)
{
	int sync_fd[HELD_JOBS];
	struct igt_qaic_watchdog w;
	struct held h;
	uint32_t dbc;
	int fd, ret;
	bool fired;

	fd = igt_qaic_open_dbc(QUEUE_SIZE, &dbc);
	held_submit(fd, dbc, &h);
	for (int i = 0; i < HELD_JOBS; i++)
		igt_assert_eq(drmSyncobjExportSyncFile(fd, h.out[i],
						       &sync_fd[i]), 0);

	igt_qaic_watchdog_start(&w, RETURN_MS, igt_qaic_gate_fire, &h.gate);
	ret = close(fd);
	fired = igt_qaic_watchdog_stop(&w, "close");
	igt_assert_f(!fired, "close waited for a vgem fence\n");
	igt_assert_eq(ret, 0);

	for (int i = 0; i < HELD_JOBS; i++) {
		check_qaic_fence(sync_fd[i], dbc, -ECANCELED);
		close(sync_fd[i]);
	}

	/*
	 * Nothing of qaic is open, but the cancelled jobs wait for the vgem
	 * fence before the scheduler frees them, and their code is qaic's:
	 * they hold the module until then, and let go of it after.
	 */
	if (igt_qaic_module_refcount() >= 0)
		igt_assert_f(igt_qaic_module_refcount() > 0,
			     "qaic could be unloaded while its jobs wait for a vgem fence\n");
	gate_release(&h.gate, fired);
	if (igt_qaic_module_refcount() >= 0) {
		uint64_t end = igt_qaic_now_ms() + 2000;

		while (igt_qaic_module_refcount() > 0 && igt_qaic_now_ms() < end)
			usleep(1000);
		igt_assert_f(!igt_qaic_module_refcount(),
			     "qaic still held %d times once the jobs could go\n",
			     igt_qaic_module_refcount());
	}
	check_card_works();
}

igt_main
{
	static const struct {
		const char *name;
		const char *ioctl;
		enum fault_ioctl which;
	} faults[] = {
		{ "execute", "EXECUTE_BO", FAULT_EXECUTE },
		{ "partial-execute", "PARTIAL_EXECUTE_BO",
		  FAULT_PARTIAL_EXECUTE },
		{ "submit", "SUBMIT", FAULT_SUBMIT },
		{ "attach-slice", "ATTACH_SLICE_BO", FAULT_ATTACH_SLICE },
	};

	/*
	 * Only to skip without a card. Each subtest opens files of its own:
	 * some check what holds the module once they are all closed.
	 */
	igt_fixture {
		close(igt_qaic_open());
	}

	igt_describe("Check that a sync_file of a job's syncobj still names its qaic fence after the DBC and the file are gone.");
	igt_subtest("sync-file-after-close")
		test_sync_file_after_close();

	igt_describe("Check that a sync_file of an exported object still names its qaic fence after the DBC and the file are gone.");
	igt_subtest("prime-sync-file-after-close")
		test_prime_sync_file_after_close();

	for (unsigned int i = 0; i < ARRAY_SIZE(faults); i++) {
		igt_describe_f("Check that deactivating a DBC does not wait for a page fault of %s.",
			       faults[i].ioctl);
		igt_subtest_f("deactivate-during-fault-%s", faults[i].name)
			test_deactivate_during_fault(faults[i].which);
	}

	igt_describe("Check that deactivating a DBC cancels at once the jobs that wait for a vgem fence.");
	igt_subtest("deactivate-waiting-on-vgem")
		test_deactivate_waiting_on_vgem();

	igt_describe("Check that an object whose job was cancelled before it reached the device shows no timing in PERF_STATS_BO, not that of its earlier run.");
	igt_subtest("deactivate-after-run-stats")
		test_deactivate_after_run_stats();

	igt_describe("Check that closing the file cancels at once the jobs that wait for a vgem fence.");
	igt_subtest("close-waiting-on-vgem")
		test_close_waiting_on_vgem();
}
