// SPDX-License-Identifier: GPL-2.0-only
/*
 * qaic-fuzz: the model of what a worker owns, and its rules: choosing a
 * file, a DBC, an object, a syncobj, a mapping or a descriptor the worker
 * holds; recording what the kernel created or took away; handles and DBC
 * ids the file does not own, for mutated operations; opening the device.
 *
 * Copyright (c) 2026 The qaic authors.
 */

#include <errno.h>
#include <fcntl.h>
#include <string.h>

#include "fuzz.h"
#include "calls.h"
#include "model.h"
#include "rng.h"

int nfiles(struct worker *w)
{
	int n = 0;

	for (int i = 0; i < MAX_FILES; i++)
		n += w->f[i].used;
	return n;
}

/* A random file with a descriptor, or -1. Model locked. */
int rand_file(struct tctx *t)
{
	struct worker *w = t->w;
	int idx[MAX_FILES], n = 0;

	for (int i = 0; i < MAX_FILES; i++)
		if (w->f[i].used && w->f[i].nfds)
			idx[n++] = i;
	return n ? idx[rnd(t, n)] : -1;
}

int file_fd(struct tctx *t, int fi)
{
	struct file *f = &t->w->f[fi];

	return f->fds[rnd(t, f->nfds)];
}

int count_dbcs(struct worker *w)
{
	int n = 0;

	for (int i = 0; i < MAX_FILES; i++)
		for (int j = 0; j < MAX_DBCS; j++)
			n += w->f[i].used && w->f[i].dbc[j].used;
	return n;
}

/* A random DBC of file @fi (@any: draining ones too), or NULL. Model locked. */
struct dbc *pick_dbc(struct tctx *t, int fi, bool any)
{
	struct file *f = &t->w->f[fi];
	struct dbc *d[MAX_DBCS];
	int n = 0;

	for (int j = 0; j < MAX_DBCS; j++)
		if (f->dbc[j].used && (any || !f->dbc[j].draining))
			d[n++] = &f->dbc[j];
	return n ? d[rnd(t, n)] : NULL;
}

/* A DBC file @fi can use. */
struct dbc *rand_dbc(struct tctx *t, int fi)
{
	return pick_dbc(t, fi, false);
}

/* Any DBC of file @fi's, draining ones too. */
struct dbc *find_dbc(struct worker *w, int fi, uint32_t id)
{
	for (int j = 0; j < MAX_DBCS; j++)
		if (w->f[fi].dbc[j].used && w->f[fi].dbc[j].id == id)
			return &w->f[fi].dbc[j];
	return NULL;
}

/* A file with a DBC (@any: draining ones too), preferred, else any file. Model locked. */
int pick_file_dbc(struct tctx *t, bool any)
{
	struct worker *w = t->w;
	int idx[MAX_FILES], n = 0;

	for (int i = 0; i < MAX_FILES; i++) {
		if (!w->f[i].used || !w->f[i].nfds)
			continue;
		for (int j = 0; j < MAX_DBCS; j++) {
			if (w->f[i].dbc[j].used && (any || !w->f[i].dbc[j].draining)) {
				idx[n++] = i;
				break;
			}
		}
	}
	return n ? idx[rnd(t, n)] : rand_file(t);
}

int rand_file_dbc(struct tctx *t)
{
	return pick_file_dbc(t, false);
}

/* A random object of file @fi; @dbc >= 0: sliced for that DBC. Model locked. */
struct bo *rand_bo(struct tctx *t, int fi, int which, int64_t dbc)
{
	struct worker *w = t->w;
	struct bo *b[MAX_BOS];
	int n = 0;

	for (int i = 0; i < MAX_BOS; i++) {
		struct bo *bo = &w->bo[i];

		if (!bo->used || bo->file != fi)
			continue;
		if (which == BO_SLICED && !bo->sliced)
			continue;
		if (which == BO_UNSLICED && bo->sliced)
			continue;
		/* a child slices only its own: the parent would not know */
		if (which == BO_UNSLICED && w->is_child && !bo->childs)
			continue;
		if (dbc >= 0 && (!bo->sliced || bo->dbc != dbc))
			continue;
		b[n++] = bo;
	}
	return n ? b[rnd(t, n)] : NULL;
}

struct bo *find_bo(struct worker *w, int fi, uint32_t handle)
{
	for (int i = 0; i < MAX_BOS; i++)
		if (w->bo[i].used && w->bo[i].file == fi && w->bo[i].handle == handle)
			return &w->bo[i];
	return NULL;
}

int count_bos(struct worker *w)
{
	int n = 0;

	for (int i = 0; i < MAX_BOS; i++)
		n += w->bo[i].used;
	return n;
}

/* @obj: 0 for a new object; else the object an import shares. Model locked. */
struct bo *add_bo(struct worker *w, int fi, uint32_t handle, uint64_t size,
		  uint32_t obj)
{
	struct bo *bo = find_bo(w, fi, handle);

	if (bo)
		return bo;
	for (int i = 0; i < MAX_BOS; i++) {
		if (!w->bo[i].used) {
			w->bo[i] = (struct bo){
				.used = true,
				.imported = obj != 0,
				.childs = w->is_child,
				.file = fi,
				.obj = obj ? obj : ++w->next_obj,
				.handle = handle,
				.size = size,
			};
			/* an import of a sliced object is sliced too */
			for (int j = 0; obj && j < MAX_BOS; j++) {
				if (j != i && w->bo[j].used && w->bo[j].obj == obj) {
					w->bo[i].sliced = w->bo[j].sliced;
					w->bo[i].dbc = w->bo[j].dbc;
					w->bo[i].dir = w->bo[j].dir;
					break;
				}
			}
			return &w->bo[i];
		}
	}
	return NULL;
}

/* The object of @bo was sliced (for @dbc, @dir) or not: all its handles. */
void set_sliced(struct worker *w, struct bo *bo, bool sliced, uint32_t dbc, uint32_t dir)
{
	uint32_t obj = bo->obj;

	for (int i = 0; i < MAX_BOS; i++) {
		if (w->bo[i].used && w->bo[i].obj == obj) {
			w->bo[i].sliced = sliced;
			w->bo[i].dbc = dbc;
			w->bo[i].dir = dir;
		}
	}
}

static void note_freed(struct file *f, uint32_t handle)
{
	f->freed[f->nfreed++ % NFREED] = handle;
}

/* The handle of file @fi's object @handle is gone. Model locked. */
void drop_bo(struct worker *w, int fi, uint32_t handle)
{
	struct bo *bo = find_bo(w, fi, handle);

	if (bo) {
		bo->used = false;
		note_freed(&w->f[fi], handle);
	}
}

/*
 * A handle for a mutated operation on file @fi: a freed one, another
 * file's, 0, a boundary value or a random one. Model locked.
 */
uint32_t bad_handle(struct tctx *t, int fi)
{
	struct worker *w = t->w;
	struct file *f = &w->f[fi];
	int other;
	struct bo *bo;

	switch (rnd(t, 5)) {
	case 0:
		if (f->nfreed)
			return f->freed[rnd(t, f->nfreed < NFREED ? f->nfreed : NFREED)];
		return 0;
	case 1:
		other = rand_file(t);
		bo = other >= 0 ? rand_bo(t, other, BO_ANY, -1) : NULL;
		if (bo)
			return bo->handle;
		return 1 + rnd(t, 200);
	case 2:
		return 0;
	case 3:
		return boundary32(t);
	default:
		return 1 + rnd(t, 300);
	}
}

/* bad_handle(), the model unlocked. */
uint32_t bad_handle_l(struct tctx *t, int fi)
{
	uint32_t h;

	lock(t->w);
	h = bad_handle(t, fi);
	unlock(t->w);
	return h;
}

/* A DBC id this file does not hold: out of range, someone else's, another file's. */
uint32_t bad_dbc(struct tctx *t, int fi)
{
	struct worker *w = t->w;
	uint32_t id;
	int other;
	struct dbc *d;

	switch (rnd(t, 4)) {
	case 0:
		return NUM_DBC + rnd(t, 3);
	case 1:
		return boundary32(t);
	case 2:
		other = rand_file(t);
		d = other >= 0 && other != fi ? rand_dbc(t, other) : NULL;
		if (d)
			return d->id;
		return rnd(t, NUM_DBC);
	default:
		for (int i = 0; i < 4; i++) {
			id = rnd(t, NUM_DBC);
			if (!find_dbc(w, fi, id))
				return id;
		}
		return id;
	}
}

struct sobj *rand_sobj(struct tctx *t, int fi)
{
	struct file *f = &t->w->f[fi];
	struct sobj *s[MAX_SOBJS];
	int n = 0;

	for (int j = 0; j < MAX_SOBJS; j++)
		if (f->so[j].used)
			s[n++] = &f->so[j];
	return n ? s[rnd(t, n)] : NULL;
}

struct sobj *find_sobj(struct worker *w, int fi, uint32_t handle)
{
	for (int j = 0; j < MAX_SOBJS; j++)
		if (w->f[fi].so[j].used && w->f[fi].so[j].handle == handle)
			return &w->f[fi].so[j];
	return NULL;
}

struct sobj *add_sobj(struct worker *w, int fi, uint32_t handle)
{
	struct sobj *s = find_sobj(w, fi, handle);

	if (s)
		return s;
	for (int j = 0; j < MAX_SOBJS; j++) {
		if (!w->f[fi].so[j].used) {
			w->f[fi].so[j] = (struct sobj){ .used = true, .handle = handle };
			return &w->f[fi].so[j];
		}
	}
	return NULL;
}

struct xfd *rand_xfd(struct tctx *t, int kind)
{
	struct worker *w = t->w;
	struct xfd *x[MAX_XFDS];
	int n = 0;

	for (int i = 0; i < MAX_XFDS; i++)
		if (w->xfd[i].used && (kind < 0 || w->xfd[i].kind == kind))
			x[n++] = &w->xfd[i];
	return n ? x[rnd(t, n)] : NULL;
}

/* Records descriptor @fd, or closes it when there is no room. Model locked. */
void add_xfd(struct tctx *t, int kind, int fd, uint64_t size, uint32_t obj)
{
	struct worker *w = t->w;

	for (int i = 0; i < MAX_XFDS; i++) {
		if (!w->xfd[i].used) {
			w->xfd[i] = (struct xfd){
				.used = true,
				.kind = kind,
				.fd = fd,
				.obj = obj,
				.size = size,
			};
			return;
		}
	}
	/* No room. Nobody else knows the number yet: closing it is safe. */
	xclose(t, fd);
}

struct map *rand_map(struct tctx *t)
{
	struct worker *w = t->w;
	struct map *m[MAX_MAPS];
	int n = 0;

	for (int i = 0; i < MAX_MAPS; i++)
		if (w->map[i].used)
			m[n++] = &w->map[i];
	return n ? m[rnd(t, n)] : NULL;
}

struct map *free_map(struct worker *w)
{
	for (int i = 0; i < MAX_MAPS; i++)
		if (!w->map[i].used)
			return &w->map[i];
	return NULL;
}

/* --------------------------------------------------------- the file */

int open_device(int flags)
{
	return open(device, flags);
}

/* Opens a new file of the device into the model; its index or -1. */
int file_open(struct tctx *t)
{
	struct worker *w = t->w;
	int fd, err, fi = -1;

	fd = open_device(O_RDWR | O_CLOEXEC);
	err = fd < 0 ? errno : 0;
	count_res(SYS_OPEN, err);
	vlog(t, "open()", err);
	if (fd < 0) {
		fail(t, "open(%s): %s", device, strerror(err));
		return -1;
	}
	lock(w);
	for (int i = 0; i < MAX_FILES; i++) {
		if (!w->f[i].used) {
			memset(&w->f[i], 0, sizeof(w->f[i]));
			w->f[i].used = true;
			w->f[i].gen = ++w->next_gen;
			w->f[i].nfds = 1;
			w->f[i].fds[0] = fd;
			fi = i;
			break;
		}
	}
	unlock(w);
	if (fi < 0)
		xclose(t, fd);	/* another thread took the last slot; not shared yet */
	return fi;
}

/* A file to work on, and one of its descriptors; opens one if there is none. */
int use_file(struct tctx *t, int *fd, bool want_dbc)
{
	struct worker *w = t->w;
	int fi;

	lock(w);
	fi = want_dbc ? rand_file_dbc(t) : rand_file(t);
	if (fi >= 0)
		*fd = file_fd(t, fi);
	unlock(w);
	if (fi >= 0)
		return fi;
	fi = file_open(t);
	if (fi >= 0) {
		lock(w);
		*fd = w->f[fi].fds[0];
		unlock(w);
	}
	return fi;
}

/*
 * A random file and one of its descriptors, in *@fd: the file's index,
 * the model locked; -1 and the model unlocked if there is no file.
 */
int lock_rand_file(struct tctx *t, int *fd)
{
	int fi;

	lock(t->w);
	fi = rand_file(t);
	if (fi < 0) {
		unlock(t->w);
		return -1;
	}
	*fd = file_fd(t, fi);
	return fi;
}

/*
 * lock_rand_file() preferring a file with a DBC. With no file at all, it
 * opens one for the next operations and returns -1 (model unlocked).
 */
int lock_rand_file_dbc(struct tctx *t, int *fd)
{
	int fi;

	lock(t->w);
	fi = rand_file_dbc(t);
	if (fi < 0) {
		unlock(t->w);
		use_file(t, fd, false);
		return -1;
	}
	*fd = file_fd(t, fi);
	return fi;
}
