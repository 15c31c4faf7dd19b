/* SPDX-License-Identifier: MIT */
/*
 * Copyright (c) 2026 The qaic authors.
 */

#ifndef IGT_QAIC_SYNC_H
#define IGT_QAIC_SYNC_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "igt_qaic.h"

/*
 * Helpers of the tests of DRM_IOCTL_QAIC_SUBMIT (explicit fences through
 * DRM syncobjs) and of PRIME sharing with vgem. The __ variants return 0 or
 * a negative errno; the others assert success.
 */

/* DMA directions of qaic_attach_slice_hdr.dir and qaic_execute_entry.dir */
#define IGT_QAIC_SYNC_TO_DEV	1
#define IGT_QAIC_SYNC_FROM_DEV	2

/* Device memory behind the DMA Bridge of the emulated card, in bytes */
#define IGT_QAIC_SYNC_DEV_MEM	(256ull << 20)

/**
 * struct igt_qaic_sync_bo:
 * @handle: GEM handle in the qaic file
 * @size: size in bytes
 * @ptr: read/write mapping of the whole object, or NULL
 *
 * A qaic buffer object, its mapping, and the one slice it is attached with.
 */
struct igt_qaic_sync_bo {
	uint32_t handle;
	uint64_t size;
	uint8_t *ptr;
};

bool igt_qaic_has_syncobj(int fd);
void igt_qaic_sync_bo_new(int fd, uint64_t size, struct igt_qaic_sync_bo *bo);
void igt_qaic_sync_bo_free(int fd, struct igt_qaic_sync_bo *bo);

int __igt_qaic_sync_attach(int fd, uint32_t handle, uint32_t dbc_id,
			   uint32_t dir, uint64_t size, uint64_t dev_addr);
void igt_qaic_sync_attach(int fd, uint32_t handle, uint32_t dbc_id,
			  uint32_t dir, uint64_t size, uint64_t dev_addr);

int __igt_qaic_submit_raw(int fd, struct qaic_submit *submit);
int __igt_qaic_submit(int fd, uint32_t dbc_id, uint32_t handle, uint32_t dir,
		      const struct qaic_sync *in, uint32_t nin,
		      uint32_t out_handle, uint64_t out_point);
void igt_qaic_submit(int fd, uint32_t dbc_id, uint32_t handle, uint32_t dir,
		     const struct qaic_sync *in, uint32_t nin,
		     uint32_t out_handle, uint64_t out_point);

int __igt_qaic_sync_wait_bo(int fd, uint32_t handle, uint32_t dbc_id,
			    uint32_t timeout_ms);

uint32_t igt_qaic_syncobj_create(int fd);
void igt_qaic_syncobj_destroy(int fd, uint32_t handle);
int __igt_qaic_syncobj_wait(int fd, uint32_t handle, uint64_t point,
			    int64_t timeout_ns, uint32_t flags);
void igt_qaic_syncobj_wait(int fd, uint32_t handle, uint64_t point,
			   int64_t timeout_ns);
uint64_t igt_qaic_syncobj_query(int fd, uint32_t handle);
void igt_qaic_syncobj_signal(int fd, uint32_t handle, uint64_t point);

uint64_t igt_qaic_sync_now_ns(void);

/**
 * struct igt_qaic_dumb:
 * @handle: GEM handle in the vgem file
 * @size: size in bytes
 * @ptr: read/write mapping through the vgem file, or NULL
 *
 * A dumb buffer of vgem.
 */
struct igt_qaic_dumb {
	uint32_t handle;
	uint64_t size;
	uint8_t *ptr;
};

int __igt_qaic_vgem_open(void);
int igt_qaic_vgem_open(void);
void igt_qaic_vgem_create(int vgem, uint64_t size, struct igt_qaic_dumb *bo);
void *igt_qaic_vgem_mmap(int vgem, uint32_t handle, uint64_t size);
int __igt_qaic_vgem_map_offset(int vgem, uint32_t handle, uint64_t *offset);
void *igt_qaic_dmabuf_mmap(int dmabuf, uint64_t size);
void igt_qaic_dmabuf_sync(int dmabuf, uint64_t flags);

/* include/uapi/drm/vgem_drm.h, which libdrm does not install */
#define IGT_QAIC_VGEM_FENCE_ATTACH	0x1
#define IGT_QAIC_VGEM_FENCE_SIGNAL	0x2

struct igt_qaic_vgem_fence_attach {
	uint32_t handle;
	uint32_t flags;
#define IGT_QAIC_VGEM_FENCE_WRITE	0x1
	uint32_t out_fence;
	uint32_t pad;
};

struct igt_qaic_vgem_fence_signal {
	uint32_t fence;
	uint32_t flags;
};

#define DRM_IOCTL_IGT_QAIC_VGEM_FENCE_ATTACH \
	DRM_IOWR(DRM_COMMAND_BASE + IGT_QAIC_VGEM_FENCE_ATTACH, \
		 struct igt_qaic_vgem_fence_attach)
#define DRM_IOCTL_IGT_QAIC_VGEM_FENCE_SIGNAL \
	DRM_IOW(DRM_COMMAND_BASE + IGT_QAIC_VGEM_FENCE_SIGNAL, \
		struct igt_qaic_vgem_fence_signal)

int __igt_qaic_vgem_fence_attach(int vgem, uint32_t handle, uint32_t *fence);
void igt_qaic_vgem_fence_signal(int vgem, uint32_t fence);

/**
 * struct igt_qaic_gate:
 * @vgem: vgem file
 * @handle: vgem object that carries the fence
 * @fence: vgem fence id
 *
 * An unsignalled fence the test signals when it likes, put in a syncobj:
 * jobs that wait for it are queued but cannot run. A vgem write fence,
 * exported as a sync_file; vgem signals it itself after 10 s.
 */
struct igt_qaic_gate {
	int vgem;
	uint32_t handle;
	uint32_t fence;
};

void igt_qaic_gate_init(int fd, uint32_t syncobj, uint64_t point,
			struct igt_qaic_gate *gate);
void igt_qaic_gate_open(struct igt_qaic_gate *gate);
void igt_qaic_gate_fire(void *gate);

/**
 * struct igt_qaic_watchdog:
 * @thread: the thread that waits for the deadline
 * @pipe: what igt_qaic_watchdog_stop() writes to, to stop it
 * @ms: the deadline, in ms from the start
 * @fire: what it does at the deadline, from its thread: no asserts
 * @data: for @fire
 * @fired: whether it did
 * @start: when it started, in ms (igt_qaic_now_ms())
 *
 * A thread that does something at a deadline unless stopped first: it
 * unblocks what the test waits for (igt_qaic_gate_fire(), say), so that a
 * driver that waits when it must not fails the subtest instead of hanging
 * it. Whether it fired is the one measure of time subtests assert on.
 */
struct igt_qaic_watchdog {
	pthread_t thread;
	int pipe[2];
	int ms;
	void (*fire)(void *data);
	void *data;
	bool fired;
	uint64_t start;
};

void igt_qaic_watchdog_start(struct igt_qaic_watchdog *w, int ms,
			     void (*fire)(void *data), void *data);
bool igt_qaic_watchdog_stop(struct igt_qaic_watchdog *w, const char *what);

int __igt_qaic_prime_export(int fd, uint32_t handle, int *dmabuf);
int igt_qaic_prime_export(int fd, uint32_t handle);
int __igt_qaic_prime_import(int fd, int dmabuf, uint32_t *handle);
uint32_t igt_qaic_prime_import(int fd, int dmabuf);

void igt_qaic_sync_pattern(void *buf, size_t len, uint32_t seed);
void igt_qaic_sync_check(const void *got, size_t len, uint32_t seed,
			 const char *what);

/* One-page objects, each sent to its own page of device memory */
#define IGT_QAIC_PAGE	4096ull
void igt_qaic_sync_pages_new(int fd, uint32_t dbc_id, struct igt_qaic_sync_bo *bo,
			     unsigned int n, uint64_t dev_addr, uint32_t seed);
void igt_qaic_sync_pages_check(int fd, uint32_t dbc_id, unsigned int n, uint64_t dev_addr,
			       uint32_t seed);
void igt_qaic_sync_pages_free(int fd, struct igt_qaic_sync_bo *bo, unsigned int n);

#endif /* IGT_QAIC_SYNC_H */
