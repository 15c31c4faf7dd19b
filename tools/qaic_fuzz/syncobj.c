// SPDX-License-Identifier: GPL-2.0-only
/*
 * qaic-fuzz: the DRM core's syncobjs (binary and timeline): create,
 * destroy, wait, signal, reset, query, transfer, eventfd, export to and
 * import from a file or a sync_file; and the sync_files themselves.
 *
 * Copyright (c) 2026 The qaic authors.
 */

#include <errno.h>
#include <poll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <linux/sync_file.h>

#include <drm/qaic_accel.h>

#include "fuzz.h"
#include "calls.h"
#include "model.h"
#include "rng.h"
#include "syncobj.h"
#include "worker.h"

void op_so_create(struct tctx *t)
{
	struct worker *w = t->w;
	struct drm_syncobj_create c = { 0 };
	struct sobj *so;
	int fi, fd, ret;

	fi = use_file(t, &fd, false);
	if (fi < 0)
		return;
	c.flags = one_in(t, 3) ? DRM_SYNCOBJ_CREATE_SIGNALED : 0;
	if (!t->valid)
		c.flags = one_in(t, 2) ? 1u << rnd(t, 32) : mutate32(t, c.flags);
	ret = xioctl(t, IOC_SO_CREATE, fd, DRM_IOCTL_SYNCOBJ_CREATE, &c);
	if (ret) {
		if (t->valid)
			fail(t, "SYNCOBJ_CREATE with flags %#x: %s", c.flags, err_name(-ret));
		return;
	}
	lock(w);
	so = w->f[fi].used ? add_sobj(w, fi, c.handle) : NULL;
	if (so) {
		so->has_fence = c.flags & DRM_SYNCOBJ_CREATE_SIGNALED;
		so->timeline = one_in(t, 2);
	}
	unlock(w);
	if (!so) {
		struct drm_syncobj_destroy d = { .handle = c.handle };

		xioctl(t, IOC_SO_DESTROY, fd, DRM_IOCTL_SYNCOBJ_DESTROY, &d);
	}
}

void op_so_destroy(struct tctx *t)
{
	struct worker *w = t->w;
	struct drm_syncobj_destroy d = { 0 };
	struct sobj *so;
	int fi, fd, ret;

	fi = lock_rand_file(t, &fd);
	if (fi < 0)
		return;
	so = rand_sobj(t, fi);
	d.handle = so ? so->handle : 0;
	if (!t->valid) {
		if (one_in(t, 3))
			d.pad = 1u << rnd(t, 32);
		else
			d.handle = bad_handle(t, fi);
	}
	unlock(w);
	ret = xioctl(t, IOC_SO_DESTROY, fd, DRM_IOCTL_SYNCOBJ_DESTROY, &d);
	if (ret)
		return;
	lock(w);
	so = find_sobj(w, fi, d.handle);
	if (so)
		so->used = false;
	unlock(w);
}

/*
 * A broken handle count for the DRM core's syncobj ioctls, for @n handles.
 * Not above 64 Ki: drm_syncobj_array_find() kmallocs the count without
 * __GFP_NOWARN, and a count above 1 Mi makes the page allocator WARN (a DRM
 * core matter, not qaic's), which would end every run with a kernel report.
 * Below 64, not above @n: the handles' arrays hold no more.
 */
static uint32_t so_bad_count(struct tctx *t, uint32_t n)
{
	static const uint32_t v[] = { 0, 0, 1, 64, 65, 4096, 65535, 65536 };
	uint32_t count = v[rnd(t, ARRAY_SIZE(v))];

	return count > n && count < 64 ? n : count;
}

/* Up to @max syncobj handles of file @fi, with their points. */
static uint32_t pick_sobjs(struct tctx *t, int fi, uint32_t *h, uint64_t *pts, uint32_t max,
			   bool *timeline)
{
	uint32_t n = 0;

	*timeline = one_in(t, 2);
	for (uint32_t k = 1 + rnd(t, max); k > 0; k--) {
		struct sobj *so = rand_sobj(t, fi);

		if (!so)
			break;
		h[n] = so->handle;
		pts[n] = so->last_point ? 1 + rnd_upto(t, so->last_point - 1) : 0;
		n++;
	}
	return n;
}

void op_so_wait(struct tctx *t)
{
	struct worker *w = t->w;
	uint32_t h[4];
	uint64_t pts[4];
	uint32_t n, flags = 0;
	int64_t timeout;
	bool timeline;
	int fi, fd;

	fi = lock_rand_file(t, &fd);
	if (fi < 0)
		return;
	n = pick_sobjs(t, fi, h, pts, 3, &timeline);
	unlock(w);
	if (!n) {
		become(t, OP_SO_CREATE);
		return;
	}
	if (one_in(t, 2))
		flags |= DRM_SYNCOBJ_WAIT_FLAGS_WAIT_ALL;
	if (one_in(t, 3))
		flags |= DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT;
	if (timeline && one_in(t, 4))
		flags |= DRM_SYNCOBJ_WAIT_FLAGS_WAIT_AVAILABLE;
	/* Absolute, CLOCK_MONOTONIC: never more than 10 ms from now. */
	timeout = now_ns() + rnd(t, 10000001);
	if (timeline) {
		struct drm_syncobj_timeline_wait tw = {
			.handles = (uintptr_t)h,
			.points = (uintptr_t)pts,
			.timeout_nsec = timeout,
			.count_handles = n,
			.flags = flags,
		};

		if (!t->valid) {
			switch (rnd(t, 6)) {
			case 0:
				tw.count_handles = so_bad_count(t, n);
				break;
			case 1:
				tw.handles = bad_ptr(t, h, n * 4, NULL);
				break;
			case 2:
				tw.points = bad_ptr(t, pts, n * 8, NULL);
				break;
			case 3:
				tw.flags |= 1u << (3 + rnd(t, 29));
				break;
			case 4:
				tw.timeout_nsec = one_in(t, 2) ? 0 : -1 - (int64_t)rnd(t, 1000);
				break;
			default:
				h[rnd(t, n)] = bad_handle_l(t, fi);
				pts[rnd(t, n)] = boundary64(t);
				break;
			}
		}
		xioctl(t, IOC_SO_TWAIT, fd, DRM_IOCTL_SYNCOBJ_TIMELINE_WAIT, &tw);
	} else {
		struct drm_syncobj_wait sw = {
			.handles = (uintptr_t)h,
			.timeout_nsec = timeout,
			.count_handles = n,
			.flags = flags & ~DRM_SYNCOBJ_WAIT_FLAGS_WAIT_AVAILABLE,
		};

		if (!t->valid) {
			switch (rnd(t, 5)) {
			case 0:
				sw.count_handles = so_bad_count(t, n);
				break;
			case 1:
				sw.handles = bad_ptr(t, h, n * 4, NULL);
				break;
			case 2:
				sw.flags |= 1u << (2 + rnd(t, 30));
				break;
			case 3:
				sw.pad = 1u << rnd(t, 32);
				break;
			default:
				h[rnd(t, n)] = bad_handle_l(t, fi);
				break;
			}
		}
		xioctl(t, IOC_SO_WAIT, fd, DRM_IOCTL_SYNCOBJ_WAIT, &sw);
	}
}

void op_so_signal(struct tctx *t)
{
	struct worker *w = t->w;
	uint32_t h[4];
	uint64_t pts[4];
	uint32_t n;
	bool timeline;
	int fi, fd, ret;

	fi = lock_rand_file(t, &fd);
	if (fi < 0)
		return;
	n = pick_sobjs(t, fi, h, pts, 3, &timeline);
	for (uint32_t i = 0; i < n; i++) {
		struct sobj *so = find_sobj(w, fi, h[i]);

		pts[i] = so->last_point + 1 + rnd(t, 4);
	}
	unlock(w);
	if (!n) {
		become(t, OP_SO_CREATE);
		return;
	}
	if (timeline) {
		struct drm_syncobj_timeline_array ta = {
			.handles = (uintptr_t)h,
			.points = (uintptr_t)pts,
			.count_handles = n,
		};

		if (!t->valid) {
			switch (rnd(t, 5)) {
			case 0:
				ta.flags = 1u << rnd(t, 32);
				break;
			case 1:
				ta.count_handles = so_bad_count(t, n);
				break;
			case 2:
				ta.points = bad_ptr(t, pts, n * 8, NULL);
				break;
			case 3:
				pts[rnd(t, n)] = one_in(t, 2) ? 0 : 1;	/* not after the last */
				break;
			default:
				h[rnd(t, n)] = bad_handle_l(t, fi);
				break;
			}
		}
		ret = xioctl(t, IOC_SO_TSIGNAL, fd, DRM_IOCTL_SYNCOBJ_TIMELINE_SIGNAL, &ta);
	} else {
		struct drm_syncobj_array a = {
			.handles = (uintptr_t)h,
			.count_handles = n,
		};

		if (!t->valid) {
			switch (rnd(t, 4)) {
			case 0:
				a.pad = 1u << rnd(t, 32);
				break;
			case 1:
				a.count_handles = so_bad_count(t, n);
				break;
			case 2:
				a.handles = bad_ptr(t, h, n * 4, NULL);
				break;
			default:
				h[rnd(t, n)] = bad_handle_l(t, fi);
				break;
			}
		}
		ret = xioctl(t, IOC_SO_SIGNAL, fd, DRM_IOCTL_SYNCOBJ_SIGNAL, &a);
	}
	if (ret)
		return;
	lock(w);
	for (uint32_t i = 0; i < n && w->f[fi].used; i++) {
		struct sobj *so = find_sobj(w, fi, h[i]);

		if (!so)
			continue;
		if (timeline) {
			so->timeline = true;
			if (pts[i] > so->last_point)
				so->last_point = pts[i];
		} else {
			so->has_fence = true;
		}
	}
	unlock(w);
}

void op_so_reset(struct tctx *t)
{
	struct worker *w = t->w;
	struct drm_syncobj_array a = { 0 };
	uint32_t h[4];
	uint64_t pts[4];
	uint32_t n;
	bool timeline;
	int fi, fd, ret;

	fi = lock_rand_file(t, &fd);
	if (fi < 0)
		return;
	n = pick_sobjs(t, fi, h, pts, 2, &timeline);
	if (!n) {
		unlock(w);
		return;
	}
	a.handles = (uintptr_t)h;
	a.count_handles = n;
	if (!t->valid) {
		if (one_in(t, 2))
			a.pad = 1u << rnd(t, 32);
		else
			h[0] = bad_handle(t, fi);
	}
	unlock(w);
	ret = xioctl(t, IOC_SO_RESET, fd, DRM_IOCTL_SYNCOBJ_RESET, &a);
	if (ret)
		return;
	lock(w);
	for (uint32_t i = 0; i < n && w->f[fi].used; i++) {
		struct sobj *so = find_sobj(w, fi, h[i]);

		if (so) {
			so->has_fence = false;
			so->last_point = 0;
		}
	}
	unlock(w);
}

/* DRM_IOCTL_SYNCOBJ_EVENTFD (Linux 6.6), which libdrm's headers may lack. */
struct fz_syncobj_eventfd {
	__u32 handle;
	__u32 flags;
	__u64 point;
	__s32 fd;
	__u32 pad;
};

#define FZ_IOCTL_SYNCOBJ_EVENTFD	DRM_IOWR(0xCF, struct fz_syncobj_eventfd)

static void so_eventfd(struct tctx *t, int fi, int fd, uint32_t handle, uint64_t point)
{
	struct fz_syncobj_eventfd e = {
		.handle = handle,
		.flags = one_in(t, 2) ? DRM_SYNCOBJ_WAIT_FLAGS_WAIT_AVAILABLE : 0,
		.point = point,
	};
	uint64_t v;
	int efd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);

	if (efd < 0)
		return;
	e.fd = efd;
	if (!t->valid) {
		switch (rnd(t, 4)) {
		case 0:
			e.flags = 1u << rnd(t, 32);
			break;
		case 1:
			e.pad = 1u << rnd(t, 32);
			break;
		case 2:
			e.fd = one_in(t, 2) ? fd : -1;	/* not an eventfd */
			break;
		default:
			e.handle = bad_handle_l(t, fi);
			break;
		}
	}
	xioctl(t, IOC_SO_EVENTFD, fd, FZ_IOCTL_SYNCOBJ_EVENTFD, &e);
	/* -EAGAIN until signalled: fine */
	(void)!read(efd, &v, sizeof(v));
	close(efd);	/* ours alone: nobody else knows the number */
}

/* SYNCOBJ_QUERY, SYNCOBJ_TRANSFER and SYNCOBJ_EVENTFD */
void op_so_misc(struct tctx *t)
{
	struct worker *w = t->w;
	uint32_t h[4];
	uint64_t pts[4];
	uint32_t n;
	bool timeline;
	int fi, fd, ret;

	fi = lock_rand_file(t, &fd);
	if (fi < 0)
		return;
	n = pick_sobjs(t, fi, h, pts, 3, &timeline);
	if (!n) {
		unlock(w);
		return;
	}
	if (one_in(t, 3)) {
		uint64_t point = one_in(t, 2) ? pts[0] : pts[0] + 1 + rnd(t, 3);

		unlock(w);
		so_eventfd(t, fi, fd, h[0], point);
		return;
	}
	if (one_in(t, 2)) {
		struct drm_syncobj_timeline_array q = {
			.handles = (uintptr_t)h,
			.points = (uintptr_t)pts,
			.count_handles = n,
			.flags = one_in(t, 2) ? DRM_SYNCOBJ_QUERY_FLAGS_LAST_SUBMITTED : 0,
		};

		if (!t->valid) {
			switch (rnd(t, 3)) {
			case 0:
				q.flags = 1u << rnd(t, 32);
				break;
			case 1:
				q.points = bad_ptr(t, pts, n * 8, NULL);
				break;
			default:
				h[0] = bad_handle(t, fi);
				break;
			}
		}
		unlock(w);
		xioctl(t, IOC_SO_QUERY, fd, DRM_IOCTL_SYNCOBJ_QUERY, &q);
		return;
	} else {
		struct sobj *src = find_sobj(w, fi, h[0]);
		struct sobj *dst = rand_sobj(t, fi);
		struct drm_syncobj_transfer tr = {
			.src_handle = src->handle,
			.dst_handle = dst->handle,
			.src_point = src->last_point ? 1 + rnd_upto(t, src->last_point - 1) : 0,
			.dst_point = one_in(t, 3) ? 0 : dst->last_point + 1 + rnd(t, 3),
		};

		if (!t->valid) {
			switch (rnd(t, 5)) {
			case 0:
				tr.flags = 1u << rnd(t, 32);
				if (tr.flags == DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT)
					tr.flags = 0;	/* may wait for 5 s */
				break;
			case 1:
				tr.pad = 1u << rnd(t, 32);
				break;
			case 2:
				tr.src_handle = bad_handle(t, fi);
				break;
			case 3:
				tr.dst_handle = bad_handle(t, fi);
				break;
			default:
				tr.src_point = src->last_point + 50;	/* no fence there */
				break;
			}
		}
		unlock(w);
		ret = xioctl(t, IOC_SO_TRANSFER, fd, DRM_IOCTL_SYNCOBJ_TRANSFER, &tr);
		if (ret)
			return;
		lock(w);
		dst = w->f[fi].used ? find_sobj(w, fi, tr.dst_handle) : NULL;
		if (dst && tr.dst_point) {
			dst->timeline = true;
			if (tr.dst_point > dst->last_point)
				dst->last_point = tr.dst_point;
		} else if (dst) {
			dst->has_fence = true;
		}
		unlock(w);
	}
}

void op_so_export(struct tctx *t)
{
	struct worker *w = t->w;
	struct drm_syncobj_handle sh_ = { 0 };
	struct sobj *so;
	int fi, fd, ret;
	bool sync_file = one_in(t, 2);

	lock(w);
	fi = rand_file(t);
	so = fi >= 0 ? rand_sobj(t, fi) : NULL;
	if (!so) {
		unlock(w);
		return;
	}
	fd = file_fd(t, fi);
	sh_.handle = so->handle;
	sh_.flags = sync_file ? DRM_SYNCOBJ_HANDLE_TO_FD_FLAGS_EXPORT_SYNC_FILE : 0;
	sh_.fd = -1;
	if (!t->valid) {
		switch (rnd(t, 3)) {
		case 0:
			sh_.flags = 1u << rnd(t, 32);
			break;
		case 1:
			sh_.pad = 1u << rnd(t, 32);
			break;
		default:
			sh_.handle = bad_handle(t, fi);
			break;
		}
	}
	unlock(w);
	ret = xioctl(t, IOC_SO_H2FD, fd, DRM_IOCTL_SYNCOBJ_HANDLE_TO_FD, &sh_);
	if (ret)
		return;
	lock(w);
	add_xfd(t, sh_.flags & DRM_SYNCOBJ_HANDLE_TO_FD_FLAGS_EXPORT_SYNC_FILE ?
		XFD_SYNC_FILE : XFD_SYNCOBJ, sh_.fd, 0, 0);
	unlock(w);
}

void op_so_import(struct tctx *t)
{
	struct worker *w = t->w;
	struct drm_syncobj_handle sh_ = { 0 };
	struct sobj *so = NULL;
	struct xfd *x;
	int fi, fd, ret;

	lock(w);
	fi = rand_file(t);
	x = rand_xfd(t, one_in(t, 2) ? XFD_SYNC_FILE : XFD_SYNCOBJ);
	if (fi < 0 || !x) {
		unlock(w);
		return;
	}
	fd = file_fd(t, fi);
	sh_.fd = x->fd;
	if (x->kind == XFD_SYNC_FILE) {
		/* into an existing syncobj */
		so = rand_sobj(t, fi);
		if (!so) {
			unlock(w);
			return;
		}
		sh_.handle = so->handle;
		sh_.flags = DRM_SYNCOBJ_FD_TO_HANDLE_FLAGS_IMPORT_SYNC_FILE;
	}
	if (!t->valid) {
		switch (rnd(t, 4)) {
		case 0:
			sh_.flags ^= 1u << rnd(t, 32);
			break;
		case 1:
			sh_.pad = 1u << rnd(t, 32);
			break;
		case 2:
			/* not a syncobj file: a device, a dma-buf, nothing */
			sh_.fd = one_in(t, 2) ? fd : one_in(t, 2) ? -1 : 1000 + (int)rnd(t, 20);
			break;
		default:
			sh_.handle = bad_handle(t, fi);
			break;
		}
	}
	unlock(w);
	ret = xioctl(t, IOC_SO_FD2H, fd, DRM_IOCTL_SYNCOBJ_FD_TO_HANDLE, &sh_);
	if (ret)
		return;
	lock(w);
	if (w->f[fi].used) {
		if (sh_.flags & DRM_SYNCOBJ_FD_TO_HANDLE_FLAGS_IMPORT_SYNC_FILE) {
			so = find_sobj(w, fi, sh_.handle);
			if (so) {
				so->has_fence = true;
				so->last_point = 0;
			}
		} else {
			so = add_sobj(w, fi, sh_.handle);
			if (so)
				so->timeline = one_in(t, 2);
		}
	}
	unlock(w);
}

/* -------------------------------------------------------- sync_files */

void op_sync_file(struct tctx *t)
{
	struct worker *w = t->w;
	struct sync_fence_info info[4];
	struct sync_file_info fi = { 0 };
	struct xfd *x;
	int fd;

	lock(w);
	x = rand_xfd(t, XFD_SYNC_FILE);
	if (!x) {
		unlock(w);
		return;
	}
	fd = x->fd;
	unlock(w);
	if (one_in(t, 3)) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		int ret = poll(&p, 1, 0);

		count_res(SYS_POLL, ret < 0 ? errno : 0);
		return;
	}
	if (one_in(t, 2)) {
		fi.num_fences = 4;
		fi.sync_fence_info = (uintptr_t)info;
	}
	if (!t->valid) {
		switch (rnd(t, 3)) {
		case 0:
			fi.flags = 1u << rnd(t, 32);
			break;
		case 1:
			fi.num_fences = boundary32(t);
			fi.sync_fence_info = bad_ptr(t, NULL, 0, NULL);
			break;
		default:
			fi.pad = 1u << rnd(t, 32);
			break;
		}
	}
	xioctl(t, IOC_SYNC_INFO, fd, SYNC_IOC_FILE_INFO, &fi);
}
