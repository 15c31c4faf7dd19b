// SPDX-License-Identifier: GPL-2.0-only
/*
 * qaic-fuzz: PRIME. Objects exported as dma-bufs and imported into the
 * same file or another, the dma-buf's own ioctls and mmap(), and closing
 * the dma-bufs, sync_files and syncobj files a worker holds.
 *
 * Copyright (c) 2026 The qaic authors.
 */

#include <errno.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <linux/dma-buf.h>

#include <drm/qaic_accel.h>

#include "fuzz.h"
#include "calls.h"
#include "model.h"
#include "objects.h"
#include "prime.h"
#include "rng.h"
#include "worker.h"

void op_prime_export(struct tctx *t)
{
	struct worker *w = t->w;
	struct drm_prime_handle p = { 0 };
	struct bo *bo;
	uint64_t size;
	int fi, fd, ret, room = 0;

	lock(w);
	for (int i = 0; i < MAX_XFDS; i++)
		room += !w->xfd[i].used;
	fi = rand_file(t);
	bo = fi >= 0 ? rand_bo(t, fi, BO_ANY, -1) : NULL;
	if (!bo || !room) {
		unlock(w);
		return;
	}
	fd = file_fd(t, fi);
	size = bo->size;
	p.handle = bo->handle;
	p.flags = DRM_CLOEXEC | (one_in(t, 4) ? 0 : DRM_RDWR);
	p.fd = -1;
	if (!t->valid) {
		if (one_in(t, 2))
			p.flags = mutate32(t, p.flags);
		else
			p.handle = bad_handle(t, fi);
	}
	unlock(w);
	ret = xioctl(t, IOC_PRIME_H2FD, fd, DRM_IOCTL_PRIME_HANDLE_TO_FD, &p);
	if (ret)
		return;
	lock(w);
	{
		struct bo *o = find_bo(w, fi, p.handle);
		off_t end;

		/*
		 * An unknown handle (mutated) that the kernel knew: an object
		 * of its own, e.g. one a forked child made in this file. Its
		 * size is not the picked object's: the dma-buf tells it (an
		 * import taking the picked size made a later whole-object
		 * mmap() of it fail with EINVAL, seed 102 on 7.2).
		 */
		if (!o) {
			end = lseek(p.fd, 0, SEEK_END);
			size = end > 0 ? (uint64_t)end : 0;
		}
		add_xfd(t, XFD_DMABUF, p.fd, o ? o->size : size, o ? o->obj : ++w->next_obj);
	}
	unlock(w);
}

void op_prime_import(struct tctx *t)
{
	struct worker *w = t->w;
	struct drm_prime_handle p = { 0 };
	struct xfd *x;
	uint64_t size;
	uint32_t obj;
	int fi, fd, ret;

	lock(w);
	fi = rand_file(t);	/* maybe another file than the exporter's */
	x = rand_xfd(t, XFD_DMABUF);
	if (fi < 0 || !x) {
		unlock(w);
		become(t, OP_PRIME_EXPORT);
		return;
	}
	fd = file_fd(t, fi);
	p.fd = x->fd;
	size = x->size;
	obj = x->obj;
	if (!t->valid) {
		switch (rnd(t, 3)) {
		case 0:
			p.flags = (uint32_t)rnd64(t);	/* ignored */
			break;
		default:
			/* not a dma-buf: a device, a sync_file, nothing */
			{
				struct xfd *o = rand_xfd(t, XFD_SYNC_FILE);

				p.fd = one_in(t, 2) ? fd : o ? o->fd : -1;
			}
			break;
		}
	}
	unlock(w);
	ret = xioctl(t, IOC_PRIME_FD2H, fd, DRM_IOCTL_PRIME_FD_TO_HANDLE, &p);
	if (ret || p.fd != x->fd)
		return;
	lock(w);
	if (w->f[fi].used)
		add_bo(w, fi, p.handle, size, obj);
	unlock(w);
}

/* The dma-buf's own ioctls, and mapping it. */
void op_dmabuf(struct tctx *t)
{
	struct worker *w = t->w;
	struct xfd *x, *s;
	int fd, sfd = -1, ret;
	uint64_t size;

	lock(w);
	x = rand_xfd(t, XFD_DMABUF);
	s = rand_xfd(t, XFD_SYNC_FILE);
	if (!x) {
		unlock(w);
		become(t, OP_PRIME_EXPORT);
		return;
	}
	fd = x->fd;
	size = x->size;
	if (s)
		sfd = s->fd;
	unlock(w);

	switch (rnd(t, 4)) {
	case 0: {
		struct dma_buf_export_sync_file e = {
			.flags = one_in(t, 2) ? DMA_BUF_SYNC_READ : DMA_BUF_SYNC_RW,
			.fd = -1,
		};

		if (!t->valid)
			e.flags = mutate32(t, e.flags);
		ret = xioctl(t, IOC_DMABUF_EXPORT, fd, DMA_BUF_IOCTL_EXPORT_SYNC_FILE, &e);
		if (!ret) {
			lock(w);
			add_xfd(t, XFD_SYNC_FILE, e.fd, 0, 0);
			unlock(w);
		}
		break;
	}
	case 1: {
		struct dma_buf_import_sync_file i = {
			.flags = one_in(t, 2) ? DMA_BUF_SYNC_WRITE : DMA_BUF_SYNC_READ,
			.fd = sfd,
		};

		if (sfd < 0 && t->valid)
			break;
		if (!t->valid) {
			if (one_in(t, 2))
				i.flags = mutate32(t, i.flags);
			else
				i.fd = one_in(t, 2) ? fd : -1;
		}
		xioctl(t, IOC_DMABUF_IMPORT, fd, DMA_BUF_IOCTL_IMPORT_SYNC_FILE, &i);
		break;
	}
	case 2: {
		struct dma_buf_sync sy = {
			.flags = (one_in(t, 2) ? DMA_BUF_SYNC_START : DMA_BUF_SYNC_END) |
				 (1 + rnd(t, 3)),
		};

		if (!t->valid)
			sy.flags = mutate64(t, sy.flags);
		xioctl(t, IOC_DMABUF_SYNC, fd, DMA_BUF_IOCTL_SYNC, &sy);
		break;
	}
	default: {
		/* map the dma-buf, touch it, unmap it */
		size_t len = (size + PAGE - 1) & ~(size_t)(PAGE - 1);
		int prot = PROT_READ | (one_in(t, 2) ? PROT_WRITE : 0);
		void *p = mmap(NULL, len, prot, MAP_SHARED, fd, 0);
		int err = p == MAP_FAILED ? errno : 0;

		count_res(SYS_MMAP, err);
		vlog(t, "mmap(dma-buf)", err);
		if (p != MAP_FAILED) {
			struct map m = {
				.used = true,
				.writable = prot & PROT_WRITE,
				.ptr = p,
				.size = len < size ? len : size,
			};

			if (m.size)
				touch_map(t, &m);
			munmap(p, len);
			count_res(SYS_MUNMAP, 0);
		}
		break;
	}
	}
}

/* fdlock held for writing. */
void op_xfd_close(struct tctx *t)
{
	struct worker *w = t->w;
	struct xfd *x;

	lock(w);
	x = rand_xfd(t, -1);
	if (x) {
		xclose(t, x->fd);
		x->used = false;
	}
	unlock(w);
}
