// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The qaic authors.
 */

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <linux/dma-buf.h>
#include <xf86drm.h>

#include "igt_qaic_sync.h"

/* Retries on EINTR and EAGAIN, as drmIoctl() does; 0 or -errno. */
static int sync_ioctl(int fd, unsigned long request, void *arg)
{
	int ret;

	do {
		ret = ioctl(fd, request, arg);
	} while (ret == -1 && (errno == EINTR || errno == EAGAIN));

	return ret ? -errno : 0;
}

/**
 * igt_qaic_sync_bo_new:
 * @fd: qaic file
 * @size: size in bytes
 * @bo: filled with the new object and its read/write mapping
 */
void igt_qaic_sync_bo_new(int fd, uint64_t size, struct igt_qaic_sync_bo *bo)
{
	bo->handle = igt_qaic_create_bo(fd, size);
	bo->size = size;
	bo->ptr = igt_qaic_mmap_bo(fd, bo->handle, size,
				   PROT_READ | PROT_WRITE);
}

/**
 * igt_qaic_has_syncobj:
 * @fd: qaic file
 *
 * Whether the driver has syncobjs. Ours has; Linux 6.12's qaic, the other
 * driver the suite runs against, has not, so this also tells the two
 * apart where a test checks what only ours does.
 */
bool igt_qaic_has_syncobj(int fd)
{
	uint32_t obj;

	if (drmSyncobjCreate(fd, 0, &obj))
		return false;
	drmSyncobjDestroy(fd, obj);
	return true;
}

/**
 * igt_qaic_sync_bo_free:
 * @fd: qaic file
 * @bo: what igt_qaic_sync_bo_new() made; unmapped and its handle closed
 */
void igt_qaic_sync_bo_free(int fd, struct igt_qaic_sync_bo *bo)
{
	if (bo->ptr)
		igt_qaic_munmap(bo->ptr, bo->size);
	gem_close(fd, bo->handle);
	bo->ptr = NULL;
	bo->handle = 0;
}

/**
 * __igt_qaic_sync_attach:
 * @fd: qaic file
 * @handle: object to slice
 * @dbc_id: DMA Bridge Channel it will run on
 * @dir: IGT_QAIC_SYNC_TO_DEV or IGT_QAIC_SYNC_FROM_DEV
 * @size: bytes of the one slice, from the start of the object
 * @dev_addr: device address of the slice
 *
 * Attaches one slice without semaphores nor doorbell.
 *
 * Returns: 0 or a negative errno.
 */
int __igt_qaic_sync_attach(int fd, uint32_t handle, uint32_t dbc_id,
			   uint32_t dir, uint64_t size, uint64_t dev_addr)
{
	struct qaic_attach_slice_entry entry = {
		.size = size,
		.dev_addr = dev_addr,
	};
	struct qaic_attach_slice attach = {
		.hdr = {
			.count = 1,
			.dbc_id = dbc_id,
			.handle = handle,
			.dir = dir,
			.size = size,
		},
		.data = to_user_pointer(&entry),
	};

	return sync_ioctl(fd, DRM_IOCTL_QAIC_ATTACH_SLICE_BO, &attach);
}

void igt_qaic_sync_attach(int fd, uint32_t handle, uint32_t dbc_id,
			  uint32_t dir, uint64_t size, uint64_t dev_addr)
{
	igt_assert_eq(__igt_qaic_sync_attach(fd, handle, dbc_id, dir, size,
					     dev_addr), 0);
}

/**
 * __igt_qaic_submit_raw:
 * @fd: qaic file
 * @submit: argument of DRM_IOCTL_QAIC_SUBMIT, passed unchanged
 *
 * Returns: 0 or a negative errno.
 */
int __igt_qaic_submit_raw(int fd, struct qaic_submit *submit)
{
	igt_qaic_require_ours(fd, false, "no SUBMIT ioctl (0x09 is ours)");
	return sync_ioctl(fd, DRM_IOCTL_QAIC_SUBMIT, submit);
}

/**
 * __igt_qaic_submit:
 * @fd: qaic file
 * @dbc_id: DMA Bridge Channel
 * @handle: sliced object to execute
 * @dir: its direction
 * @in: @nin syncobj points to wait for first, or NULL
 * @nin: number of them
 * @out_handle: syncobj to signal, or 0
 * @out_point: timeline point of @out_handle, 0 for a binary syncobj
 *
 * Returns: 0 or a negative errno.
 */
int __igt_qaic_submit(int fd, uint32_t dbc_id, uint32_t handle, uint32_t dir,
		      const struct qaic_sync *in, uint32_t nin,
		      uint32_t out_handle, uint64_t out_point)
{
	struct qaic_execute_entry entry = {
		.handle = handle,
		.dir = dir,
	};
	struct qaic_submit submit = {
		.hdr = {
			.count = 1,
			.dbc_id = dbc_id,
		},
		.data = to_user_pointer(&entry),
		.in_syncs = to_user_pointer(in),
		.in_sync_count = nin,
		.out_sync = {
			.handle = out_handle,
			.point = out_point,
		},
	};

	return __igt_qaic_submit_raw(fd, &submit);
}

void igt_qaic_submit(int fd, uint32_t dbc_id, uint32_t handle, uint32_t dir,
		     const struct qaic_sync *in, uint32_t nin,
		     uint32_t out_handle, uint64_t out_point)
{
	igt_assert_eq(__igt_qaic_submit(fd, dbc_id, handle, dir, in, nin,
					out_handle, out_point), 0);
}

/**
 * __igt_qaic_sync_wait_bo:
 * @fd: qaic file
 * @handle: object
 * @dbc_id: DMA Bridge Channel it was queued on
 * @timeout_ms: how long to wait
 *
 * Returns: what DRM_IOCTL_QAIC_WAIT_BO returned: 0, or a negative errno,
 * among them the error of the object's last execution.
 */
int __igt_qaic_sync_wait_bo(int fd, uint32_t handle, uint32_t dbc_id,
			    uint32_t timeout_ms)
{
	struct qaic_wait wait = {
		.handle = handle,
		.timeout = timeout_ms,
		.dbc_id = dbc_id,
	};

	return sync_ioctl(fd, DRM_IOCTL_QAIC_WAIT_BO, &wait);
}

/**
 * igt_qaic_syncobj_create:
 * @fd: qaic file
 *
 * Returns: the handle of a new syncobj without a fence.
 */
uint32_t igt_qaic_syncobj_create(int fd)
{
	uint32_t handle = 0;

	igt_qaic_require_ours(fd, igt_qaic_has_syncobj(fd), "no syncobjs");
	igt_assert_eq(drmSyncobjCreate(fd, 0, &handle), 0);
	igt_assert_neq(handle, 0);

	return handle;
}

void igt_qaic_syncobj_destroy(int fd, uint32_t handle)
{
	igt_assert_eq(drmSyncobjDestroy(fd, handle), 0);
}

/**
 * igt_qaic_sync_now_ns:
 *
 * Returns: CLOCK_MONOTONIC in nanoseconds, the clock of syncobj timeouts.
 */
uint64_t igt_qaic_sync_now_ns(void)
{
	struct timespec ts;

	igt_assert_eq(clock_gettime(CLOCK_MONOTONIC, &ts), 0);

	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

/**
 * __igt_qaic_syncobj_wait:
 * @fd: qaic file
 * @handle: syncobj
 * @point: timeline point, or 0 for a binary syncobj
 * @timeout_ns: how long to wait from now, not a deadline
 * @flags: DRM_SYNCOBJ_WAIT_FLAGS_*
 *
 * Returns: what drmSyncobjTimelineWait() returned: 0 or a negative errno,
 * -ETIME on timeout.
 */
int __igt_qaic_syncobj_wait(int fd, uint32_t handle, uint64_t point,
			    int64_t timeout_ns, uint32_t flags)
{
	int64_t deadline = igt_qaic_sync_now_ns() + timeout_ns;

	return drmSyncobjTimelineWait(fd, &handle, &point, 1, deadline, flags,
				      NULL);
}

/* Waits for @point to be submitted and signalled, at most @timeout_ns. */
void igt_qaic_syncobj_wait(int fd, uint32_t handle, uint64_t point,
			   int64_t timeout_ns)
{
	igt_assert_eq(__igt_qaic_syncobj_wait(fd, handle, point, timeout_ns,
				DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT), 0);
}

/**
 * igt_qaic_syncobj_query:
 * @fd: qaic file
 * @handle: timeline syncobj
 *
 * Returns: the last signalled point of the timeline.
 */
uint64_t igt_qaic_syncobj_query(int fd, uint32_t handle)
{
	uint64_t point = 0;

	igt_assert_eq(drmSyncobjQuery(fd, &handle, &point, 1), 0);

	return point;
}

/* Signals @point from the host, as a fence that is already signalled. */
void igt_qaic_syncobj_signal(int fd, uint32_t handle, uint64_t point)
{
	igt_assert_eq(drmSyncobjTimelineSignal(fd, &handle, &point, 1), 0);
}

/**
 * __igt_qaic_vgem_open:
 *
 * Returns: a file of the first /dev/dri/card* whose driver is vgem, or
 * -ENOENT.
 */
int __igt_qaic_vgem_open(void)
{
	for (int minor = 0; minor < 64; minor++) {
		char path[32];
		drmVersionPtr version;
		bool vgem;
		int fd;

		snprintf(path, sizeof(path), "/dev/dri/card%d", minor);
		fd = open(path, O_RDWR | O_CLOEXEC);
		if (fd < 0)
			continue;

		version = drmGetVersion(fd);
		vgem = version && !strcmp(version->name, "vgem");
		drmFreeVersion(version);
		if (vgem)
			return fd;
		close(fd);
	}

	return -ENOENT;
}

/* As __igt_qaic_vgem_open(); skips the subtest without vgem. */
int igt_qaic_vgem_open(void)
{
	int fd = __igt_qaic_vgem_open();

	igt_require_f(fd >= 0, "no vgem device in /dev/dri\n");

	return fd;
}

/**
 * igt_qaic_vgem_mmap:
 * @vgem: vgem file
 * @handle: GEM handle in @vgem, made or imported there
 * @size: bytes to map
 *
 * Maps an object through vgem (DRM_IOCTL_MODE_MAP_DUMB and mmap()).
 *
 * Returns: the read/write mapping.
 */
void *igt_qaic_vgem_mmap(int vgem, uint32_t handle, uint64_t size)
{
	uint64_t offset = 0;
	void *ptr;

	igt_assert_eq(__igt_qaic_vgem_map_offset(vgem, handle, &offset), 0);
	ptr = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, vgem,
		   offset);
	igt_assert(ptr != MAP_FAILED);

	return ptr;
}

/**
 * __igt_qaic_vgem_map_offset:
 * @vgem: vgem file
 * @handle: GEM handle in @vgem
 * @offset: set to the offset to mmap() @vgem at
 *
 * Returns: what DRM_IOCTL_MODE_MAP_DUMB returned: 0 or a negative errno.
 * The DRM core refuses it (-EINVAL) for an object vgem imported.
 */
int __igt_qaic_vgem_map_offset(int vgem, uint32_t handle, uint64_t *offset)
{
	struct drm_mode_map_dumb map = {
		.handle = handle,
	};
	int ret;

	ret = sync_ioctl(vgem, DRM_IOCTL_MODE_MAP_DUMB, &map);
	if (!ret)
		*offset = map.offset;

	return ret;
}

/**
 * igt_qaic_dmabuf_mmap:
 * @dmabuf: dma-buf file descriptor
 * @size: bytes to map
 *
 * Returns: a read/write mapping of the dma-buf, made by its exporter.
 */
void *igt_qaic_dmabuf_mmap(int dmabuf, uint64_t size)
{
	void *ptr;

	ptr = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, dmabuf, 0);
	igt_assert(ptr != MAP_FAILED);

	return ptr;
}

/**
 * igt_qaic_dmabuf_sync:
 * @dmabuf: dma-buf file descriptor
 * @flags: DMA_BUF_SYNC_START or DMA_BUF_SYNC_END, with DMA_BUF_SYNC_RW
 *	   or one of its halves
 *
 * Brackets CPU access to a mapping of @dmabuf.
 */
void igt_qaic_dmabuf_sync(int dmabuf, uint64_t flags)
{
	struct dma_buf_sync sync = {
		.flags = flags,
	};

	igt_assert_eq(sync_ioctl(dmabuf, DMA_BUF_IOCTL_SYNC, &sync), 0);
}

/**
 * igt_qaic_vgem_create:
 * @vgem: vgem file
 * @size: bytes, a multiple of 4096
 * @bo: filled with the new dumb buffer and its mapping
 */
void igt_qaic_vgem_create(int vgem, uint64_t size, struct igt_qaic_dumb *bo)
{
	struct drm_mode_create_dumb create = {
		.width = 1024,
		.height = size / 4096,
		.bpp = 32,
	};

	igt_assert_eq_u64(size % 4096, 0);
	igt_assert_eq(sync_ioctl(vgem, DRM_IOCTL_MODE_CREATE_DUMB, &create), 0);
	igt_assert_lte(size, create.size);
	bo->handle = create.handle;
	bo->size = size;
	bo->ptr = igt_qaic_vgem_mmap(vgem, create.handle, size);
}

/**
 * __igt_qaic_prime_export:
 * @fd: DRM file
 * @handle: object in @fd
 * @dmabuf: set to a read/write dma-buf file descriptor of it
 *
 * Returns: 0 or a negative errno.
 */
int __igt_qaic_prime_export(int fd, uint32_t handle, int *dmabuf)
{
	int ret = drmPrimeHandleToFD(fd, handle, DRM_CLOEXEC | DRM_RDWR,
				     dmabuf);

	return ret ? -errno : 0;
}

int igt_qaic_prime_export(int fd, uint32_t handle)
{
	int dmabuf = -1;

	igt_assert_eq(__igt_qaic_prime_export(fd, handle, &dmabuf), 0);
	igt_assert_fd(dmabuf);

	return dmabuf;
}

/**
 * __igt_qaic_prime_import:
 * @fd: DRM file
 * @dmabuf: dma-buf file descriptor
 * @handle: set to the GEM handle of the object in @fd
 *
 * Returns: 0 or a negative errno.
 */
int __igt_qaic_prime_import(int fd, int dmabuf, uint32_t *handle)
{
	int ret = drmPrimeFDToHandle(fd, dmabuf, handle);

	return ret ? -errno : 0;
}

uint32_t igt_qaic_prime_import(int fd, int dmabuf)
{
	uint32_t handle = 0;

	igt_assert_eq(__igt_qaic_prime_import(fd, dmabuf, &handle), 0);
	igt_assert_neq(handle, 0);

	return handle;
}

/**
 * __igt_qaic_vgem_fence_attach:
 * @vgem: vgem file
 * @handle: vgem object
 * @fence: set to the id of a new write fence on it
 *
 * Returns: 0 or a negative errno.
 */
int __igt_qaic_vgem_fence_attach(int vgem, uint32_t handle, uint32_t *fence)
{
	struct igt_qaic_vgem_fence_attach attach = {
		.handle = handle,
		.flags = IGT_QAIC_VGEM_FENCE_WRITE,
	};
	int ret;

	ret = sync_ioctl(vgem, DRM_IOCTL_IGT_QAIC_VGEM_FENCE_ATTACH, &attach);
	if (!ret)
		*fence = attach.out_fence;

	return ret;
}

void igt_qaic_vgem_fence_signal(int vgem, uint32_t fence)
{
	struct igt_qaic_vgem_fence_signal signal = {
		.fence = fence,
	};

	igt_assert_eq(sync_ioctl(vgem, DRM_IOCTL_IGT_QAIC_VGEM_FENCE_SIGNAL,
				 &signal), 0);
}

/**
 * igt_qaic_gate_init:
 * @fd: qaic file
 * @syncobj: syncobj of @fd to put the fence in
 * @point: timeline point to add, or 0 to replace a binary syncobj's fence
 * @gate: filled; igt_qaic_gate_open() signals it
 *
 * Skips the subtest without vgem.
 */
void igt_qaic_gate_init(int fd, uint32_t syncobj, uint64_t point,
			struct igt_qaic_gate *gate)
{
	struct dma_buf_export_sync_file export = {
		.flags = DMA_BUF_SYNC_RW,
		.fd = -1,
	};
	struct igt_qaic_dumb bo;
	uint32_t binary;
	int dmabuf;

	gate->vgem = igt_qaic_vgem_open();
	igt_qaic_vgem_create(gate->vgem, 4096, &bo);
	igt_assert_eq(munmap(bo.ptr, bo.size), 0);
	gate->handle = bo.handle;
	igt_assert_eq(__igt_qaic_vgem_fence_attach(gate->vgem, gate->handle,
						   &gate->fence), 0);

	dmabuf = igt_qaic_prime_export(gate->vgem, gate->handle);
	igt_assert_eq(sync_ioctl(dmabuf, DMA_BUF_IOCTL_EXPORT_SYNC_FILE,
				 &export), 0);
	igt_assert_fd(export.fd);
	close(dmabuf);

	if (point) {
		binary = igt_qaic_syncobj_create(fd);
		igt_assert_eq(drmSyncobjImportSyncFile(fd, binary, export.fd), 0);
		igt_assert_eq(drmSyncobjTransfer(fd, syncobj, point, binary, 0,
						 0), 0);
		igt_qaic_syncobj_destroy(fd, binary);
	} else {
		igt_assert_eq(drmSyncobjImportSyncFile(fd, syncobj, export.fd),
			      0);
	}
	close(export.fd);
}

/**
 * igt_qaic_gate_fire:
 * @gate: a struct igt_qaic_gate
 *
 * Signals the fence of @gate and nothing else: for a watchdog's thread, so
 * it asserts nothing. igt_qaic_gate_open() would fail on the signalled
 * fence afterwards: close its vgem file instead.
 */
void igt_qaic_gate_fire(void *gate)
{
	struct igt_qaic_gate *g = gate;
	struct igt_qaic_vgem_fence_signal signal = {
		.fence = g->fence,
	};

	while (ioctl(g->vgem, DRM_IOCTL_IGT_QAIC_VGEM_FENCE_SIGNAL, &signal) &&
	       errno == EINTR)
		;
}

static void *watchdog_run(void *arg)
{
	struct igt_qaic_watchdog *w = arg;
	struct pollfd pfd = { .fd = w->pipe[0], .events = POLLIN };

	if (poll(&pfd, 1, w->ms) == 0) {
		w->fired = true;
		w->fire(w->data);
	}

	return NULL;
}

/**
 * igt_qaic_watchdog_start:
 * @w: the watchdog
 * @ms: its deadline, from now
 * @fire: what it does then, from its own thread
 * @data: for @fire
 */
void igt_qaic_watchdog_start(struct igt_qaic_watchdog *w, int ms,
			     void (*fire)(void *data), void *data)
{
	w->ms = ms;
	w->fire = fire;
	w->data = data;
	w->fired = false;
	igt_assert_eq(pipe(w->pipe), 0);
	w->start = igt_qaic_now_ms();
	igt_assert_eq(pthread_create(&w->thread, NULL, watchdog_run, w), 0);
}

/**
 * igt_qaic_watchdog_stop:
 * @w: the watchdog
 * @what: what it watched, for the log line with the time it took
 *
 * Returns: whether the watchdog fired before this stopped it.
 */
bool igt_qaic_watchdog_stop(struct igt_qaic_watchdog *w, const char *what)
{
	uint64_t took = igt_qaic_now_ms() - w->start;

	igt_assert_eq(write(w->pipe[1], "", 1), 1);
	igt_assert_eq(pthread_join(w->thread, NULL), 0);
	close(w->pipe[0]);
	close(w->pipe[1]);
	igt_info("%s took %llu ms%s\n", what, (unsigned long long)took,
		 w->fired ? ", and only returned once the watchdog fired" : "");

	return w->fired;
}

/* Signals the fence of @gate and lets its vgem file go. */
void igt_qaic_gate_open(struct igt_qaic_gate *gate)
{
	igt_qaic_vgem_fence_signal(gate->vgem, gate->fence);
	gem_close(gate->vgem, gate->handle);
	close(gate->vgem);
	gate->vgem = -1;
}

static uint32_t pattern_byte(uint64_t i, uint32_t seed)
{
	uint32_t x = (uint32_t)(i >> 2) * 0x9e3779b9u ^ seed * 0x85ebca6bu;

	x ^= x >> 15;
	x *= 0x2c1b3c6du;
	x ^= x >> 12;

	return (x >> ((i & 3) * 8)) & 0xff;
}

/* Fills @buf with bytes that depend on @seed and their offset. */
void igt_qaic_sync_pattern(void *buf, size_t len, uint32_t seed)
{
	uint8_t *p = buf;

	for (size_t i = 0; i < len; i++)
		p[i] = pattern_byte(i, seed);
}

/* Asserts that @got holds igt_qaic_sync_pattern(@seed), naming the first
 * byte that differs. */
void igt_qaic_sync_check(const void *got, size_t len, uint32_t seed,
			 const char *what)
{
	const uint8_t *p = got;

	for (size_t i = 0; i < len; i++) {
		uint32_t want = pattern_byte(i, seed);

		igt_assert_f(p[i] == want,
			     "%s: byte %zu of %zu is %#x, expected %#x (seed %u)\n",
			     what, i, len, p[i], want, seed);
	}
}

/**
 * igt_qaic_sync_pages_new:
 * @fd: qaic device file descriptor
 * @dbc_id: DMA Bridge Channel
 * @bo: gets @n objects
 * @n: how many
 * @dev_addr: device address of the first one's page
 * @seed: the first one's pattern; each next one's is one more
 *
 * Makes @n one-page objects filled with patterns, each sliced to send its
 * page to its own page of device memory, from @dev_addr on.
 */
void igt_qaic_sync_pages_new(int fd, uint32_t dbc_id, struct igt_qaic_sync_bo *bo,
			     unsigned int n, uint64_t dev_addr, uint32_t seed)
{
	for (unsigned int i = 0; i < n; i++) {
		igt_qaic_sync_bo_new(fd, IGT_QAIC_PAGE, &bo[i]);
		igt_qaic_sync_pattern(bo[i].ptr, IGT_QAIC_PAGE, seed + i);
		igt_qaic_sync_attach(fd, bo[i].handle, dbc_id, IGT_QAIC_SYNC_TO_DEV,
				     IGT_QAIC_PAGE, dev_addr + i * IGT_QAIC_PAGE);
	}
}

/**
 * igt_qaic_sync_pages_check:
 * @fd: qaic device file descriptor
 * @dbc_id: DMA Bridge Channel
 * @n: how many pages
 * @dev_addr: device address of the first
 * @seed: the first one's pattern; each next one's is one more
 *
 * Reads the @n pages of device memory back in one job and asserts that
 * each holds what igt_qaic_sync_pages_new() sent there.
 */
void igt_qaic_sync_pages_check(int fd, uint32_t dbc_id, unsigned int n, uint64_t dev_addr,
			       uint32_t seed)
{
	struct igt_qaic_sync_bo back;
	char what[32];

	igt_qaic_sync_bo_new(fd, n * IGT_QAIC_PAGE, &back);
	memset(back.ptr, 0, n * IGT_QAIC_PAGE);
	igt_qaic_sync_attach(fd, back.handle, dbc_id, IGT_QAIC_SYNC_FROM_DEV,
			     n * IGT_QAIC_PAGE, dev_addr);
	igt_qaic_submit(fd, dbc_id, back.handle, IGT_QAIC_SYNC_FROM_DEV, NULL, 0, 0, 0);
	igt_assert_eq(__igt_qaic_sync_wait_bo(fd, back.handle, dbc_id, 20000), 0);
	for (unsigned int i = 0; i < n; i++) {
		snprintf(what, sizeof(what), "page %u", i);
		igt_qaic_sync_check(back.ptr + i * IGT_QAIC_PAGE, IGT_QAIC_PAGE, seed + i, what);
	}
	igt_qaic_sync_bo_free(fd, &back);
}

/**
 * igt_qaic_sync_pages_free:
 * @fd: qaic device file descriptor
 * @bo: the objects
 * @n: how many
 */
void igt_qaic_sync_pages_free(int fd, struct igt_qaic_sync_bo *bo, unsigned int n)
{
	for (unsigned int i = 0; i < n; i++)
		igt_qaic_sync_bo_free(fd, &bo[i]);
}
