// SPDX-License-Identifier: GPL-2.0-only
/*
 * qaic-fuzz: buffer objects and their mappings. CREATE_BO, GEM_CLOSE and
 * MMAP_BO; mmap() of objects (whole, a part, past the end, private,
 * executable), touching the mapped bytes, munmap() of all or a tail.
 *
 * Copyright (c) 2026 The qaic authors.
 */

#include <errno.h>
#include <inttypes.h>
#include <setjmp.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>

#include <drm/qaic_accel.h>

#include "fuzz.h"
#include "calls.h"
#include "model.h"
#include "objects.h"
#include "rng.h"
#include "worker.h"

static uint64_t valid_bo_size(struct tctx *t)
{
	switch (rnd(t, 10)) {
	case 0:
	case 1:
	case 2:
		return PAGE;
	case 3:
	case 4:
		return PAGE * (1 + rnd(t, 4));
	case 5:
	case 6:
		return 1 + rnd(t, 64 * KIB);
	case 7:
	case 8:
		return PAGE * (1 + rnd(t, 64));
	default:
		return 1 + rnd(t, BO_VALID_MAX);
	}
}

static int gem_close(struct tctx *t, int fi, int fd, uint32_t handle)
{
	struct drm_gem_close c = { .handle = handle };
	int ret = xioctl(t, IOC_GEM_CLOSE, fd, DRM_IOCTL_GEM_CLOSE, &c);

	if (!ret) {
		lock(t->w);
		drop_bo(t->w, fi, handle);
		unlock(t->w);
	}
	return ret;
}

void op_create(struct tctx *t)
{
	struct worker *w = t->w;
	struct qaic_create_bo c = { 0 };
	uint64_t size = valid_bo_size(t);
	uint32_t old = 0;
	int fi, fd, ret;

	fi = use_file(t, &fd, false);
	if (fi < 0)
		return;
	lock(w);
	if (count_bos(w) >= MAX_BOS - 1) {
		if (w->is_child) {
			/* not the parent's objects: it relies on them */
			unlock(w);
			return;
		}
		{
			struct bo *bo = rand_bo(t, fi, BO_ANY, -1);

			old = bo ? bo->handle : 0;
		}
	}
	unlock(w);
	if (old)
		gem_close(t, fi, fd, old);	/* make room: any will do */

	c.size = size;
	if (!t->valid) {
		switch (rnd(t, 4)) {
		case 0:
		case 1:
			c.size = boundary64(t);
			break;
		case 2:
			c.size = mutate64(t, size);
			break;
		default:
			c.pad = 1u << rnd(t, 32);
			break;
		}
	}
	ret = xioctl(t, IOC_CREATE_BO, fd, DRM_IOCTL_QAIC_CREATE_BO, &c);
	if (t->valid && ret)
		fail(t, "CREATE_BO of %" PRIu64 " bytes: %s", size, err_name(-ret));
	if (ret)
		return;
	if (c.size > BO_VALID_MAX) {
		/* Never used: a huge object is only allowed to exist. */
		gem_close(t, fi, fd, c.handle);
		return;
	}
	lock(w);
	if (!add_bo(w, fi, c.handle, c.size, 0)) {
		unlock(w);
		gem_close(t, fi, fd, c.handle);
		return;
	}
	unlock(w);
}

void op_gem_close(struct tctx *t)
{
	struct worker *w = t->w;
	struct drm_gem_close c = { 0 };
	struct bo *bo;
	int fi, fd, ret;

	fi = lock_rand_file(t, &fd);
	if (fi < 0)
		return;
	bo = rand_bo(t, fi, BO_ANY, -1);
	if (!bo && t->valid) {
		unlock(w);
		become(t, OP_CREATE);
		return;
	}
	c.handle = bo ? bo->handle : 0;
	if (!t->valid) {
		if (one_in(t, 4))
			c.pad = 1u << rnd(t, 32);
		else
			c.handle = bad_handle(t, fi);
	}
	unlock(w);
	ret = xioctl(t, IOC_GEM_CLOSE, fd, DRM_IOCTL_GEM_CLOSE, &c);
	if (!ret) {
		lock(w);
		drop_bo(w, fi, c.handle);
		unlock(w);
	} else if (t->strict) {
		fail(t, "GEM_CLOSE of live handle %u: %s", c.handle, err_name(-ret));
	}
}

void op_mmap_bo(struct tctx *t)
{
	struct worker *w = t->w;
	struct qaic_mmap_bo mb = { 0 };
	struct bo *bo;
	int fi, fd, ret;

	lock(w);
	fi = rand_file(t);
	bo = fi >= 0 ? rand_bo(t, fi, BO_ANY, -1) : NULL;
	if (!bo) {
		unlock(w);
		become(t, OP_CREATE);
		return;
	}
	fd = file_fd(t, fi);
	mb.handle = bo->handle;
	if (!t->valid) {
		if (one_in(t, 3))
			mb.pad = 1u << rnd(t, 32);
		else
			mb.handle = bad_handle(t, fi);
	}
	unlock(w);
	ret = xioctl(t, IOC_MMAP_BO, fd, DRM_IOCTL_QAIC_MMAP_BO, &mb);
	if (t->strict && ret)
		fail(t, "MMAP_BO of live handle %u: %s", mb.handle, err_name(-ret));
}

/* --------------------------------------------------------- mappings */

static __thread sigjmp_buf touch_jmp;
static __thread volatile sig_atomic_t in_touch;

void on_fault(int sig, siginfo_t *si, void *uc)
{
	(void)si;
	(void)uc;
	if (in_touch)
		siglongjmp(touch_jmp, sig);
	signal(sig, SIG_DFL);
	raise(sig);
}

/* Reads and writes a few bytes of @m; the model's lock is held. */
void touch_map(struct tctx *t, struct map *m)
{
	volatile uint8_t *p = m->ptr;
	volatile size_t off = 0;
	volatile int n = 1 + rnd(t, 4);
	int sig;

	in_touch = 1;
	sig = sigsetjmp(touch_jmp, 1);
	if (sig) {
		in_touch = 0;
		fail(t, "%s touching byte %zu of a %zu-byte mapping of an object",
		     strsignal(sig), off, m->size);
		return;
	}
	while (n--) {
		off = rnd_upto(t, m->size - 1);
		(void)p[off];
		if (m->writable) {
			if (one_in(t, 4)) {
				size_t start = off & ~(size_t)(PAGE - 1);
				size_t len = m->size - start < PAGE ? m->size - start : PAGE;

				memset((uint8_t *)m->ptr + start, (int)rnd(t, 256), len);
			} else {
				p[off] = (uint8_t)rnd64(t);
			}
		}
	}
	in_touch = 0;
}

void op_touch(struct tctx *t)
{
	struct worker *w = t->w;
	struct map *m;

	lock(w);
	m = rand_map(t);
	if (m)
		touch_map(t, m);
	unlock(w);
}

/* fdlock held for writing. */
void op_mmap(struct tctx *t)
{
	struct worker *w = t->w;
	struct qaic_mmap_bo mb = { 0 };
	struct map *slot;
	struct bo *bo;
	uint64_t size, off = 0, len;
	int fi, fd, ret, prot, flags = MAP_SHARED, err;
	bool odd = false;
	void *p;

	lock(w);
	fi = rand_file(t);
	bo = fi >= 0 ? rand_bo(t, fi, BO_ANY, -1) : NULL;
	slot = free_map(w);
	if (!slot) {
		/* Full: unmap one (we hold fdlock for writing). */
		slot = rand_map(t);
		munmap(slot->ptr, slot->size);
		count_res(SYS_MUNMAP, 0);
		slot->used = false;
	}
	if (!bo) {
		unlock(w);
		become(t, OP_CREATE);
		return;
	}
	fd = file_fd(t, fi);
	mb.handle = bo->handle;
	size = (bo->size + PAGE - 1) & ~(uint64_t)(PAGE - 1);
	unlock(w);

	ret = xioctl(t, IOC_MMAP_BO, fd, DRM_IOCTL_QAIC_MMAP_BO, &mb);
	if (ret) {
		if (t->strict)
			fail(t, "MMAP_BO of live handle %u: %s", mb.handle, err_name(-ret));
		return;
	}
	prot = one_in(t, 4) ? PROT_READ : PROT_READ | PROT_WRITE;
	len = size;
	if (one_in(t, 3) && size > PAGE)
		len = PAGE * (1 + rnd(t, size / PAGE));	/* the start of the object */
	if (!t->valid) {
		odd = true;
		switch (rnd(t, 6)) {
		case 0:
			len = size + PAGE * (1 + rnd(t, 4));	/* past the end */
			break;
		case 1:
			flags = MAP_PRIVATE;
			break;
		case 2:
			mb.offset = mutate64(t, mb.offset) & ~(uint64_t)(PAGE - 1);
			break;
		case 3:
			/* another file's offset */
			lock(w);
			{
				int other = rand_file(t);

				if (other >= 0 && other != fi)
					fd = file_fd(t, other);
			}
			unlock(w);
			break;
		case 4:
			prot |= PROT_EXEC;
			break;
		default:
			/* not at the start of the object */
			off = PAGE * (1 + rnd(t, size / PAGE));
			len = PAGE;
			break;
		}
	}
	p = mmap(NULL, len, prot, flags, fd, mb.offset + off);
	err = p == MAP_FAILED ? errno : 0;
	count_res(SYS_MMAP, err);
	vlog(t, "mmap()", err);
	if (p == MAP_FAILED) {
		if (t->strict)
			fail(t, "mmap of %" PRIu64 " bytes of a live object: %s", len,
			     err_name(err));
		return;
	}
	if (odd) {
		/* Not something to touch: what it maps is not known. */
		munmap(p, len);
		count_res(SYS_MUNMAP, 0);
		return;
	}
	lock(w);
	*slot = (struct map){
		.used = true,
		.writable = prot & PROT_WRITE,
		.file = fi,
		.ptr = p,
		.size = len,
	};
	slot->gen = w->f[fi].gen;
	if (one_in(t, 2))
		touch_map(t, slot);
	unlock(w);
}

/* fdlock held for writing. */
void op_munmap(struct tctx *t)
{
	struct worker *w = t->w;
	struct map *m;
	int ret;

	lock(w);
	m = rand_map(t);
	for (int i = 0; i < MAX_MAPS; i++)
		if (w->map[i].used && w->map[i].zombie)
			m = &w->map[i];		/* let a closed file go */
	if (m) {
		if (m->size > PAGE && one_in(t, 3) && !m->zombie) {
			/* the tail only */
			size_t keep = PAGE * (1 + rnd(t, (m->size - 1) / PAGE));

			if (keep < m->size) {
				ret = munmap(m->ptr + keep, m->size - keep);
				count_res(SYS_MUNMAP, ret ? errno : 0);
				if (!ret)
					m->size = keep;
			}
		} else {
			ret = munmap(m->ptr, m->size);
			count_res(SYS_MUNMAP, ret ? errno : 0);
			m->used = false;
		}
	}
	unlock(w);
}
