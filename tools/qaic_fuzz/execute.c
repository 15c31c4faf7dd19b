// SPDX-License-Identifier: GPL-2.0-only
/*
 * qaic-fuzz: running work on a DBC. EXECUTE_BO and PARTIAL_EXECUTE_BO of
 * objects sliced for it, WAIT_BO, PERF_STATS_BO, and SUBMIT, an execute
 * that waits for syncobjs and signals one.
 *
 * Copyright (c) 2026 The qaic authors.
 */

#include <string.h>

#include <drm/qaic_accel.h>

#include "fuzz.h"
#include "calls.h"
#include "execute.h"
#include "model.h"
#include "rng.h"
#include "worker.h"

/*
 * Entries for an execute on file @fi: up to 4 distinct objects sliced for
 * one of its DBCs. Returns the count (0: none), the DBC in *@dbc.
 */
static int pick_exec(struct tctx *t, int fi, uint32_t *dbc, struct qaic_partial_execute_entry *pe,
		     uint64_t *sizes)
{
	struct worker *w = t->w;
	struct bo *cand[MAX_BOS];
	struct dbc *d = rand_dbc(t, fi);
	int n = 0, k;

	if (!d)
		return 0;
	*dbc = d->id;
	for (int i = 0; i < MAX_BOS; i++) {
		struct bo *bo = &w->bo[i];

		if (bo->used && bo->file == fi && bo->sliced && bo->dbc == d->id)
			cand[n++] = bo;
	}
	if (!n)
		return 0;
	k = 1 + rnd(t, n < 4 ? n : 4);
	for (int i = 0; i < k; i++) {
		int j = i + rnd(t, n - i);
		struct bo *tmp = cand[i];

		cand[i] = cand[j];
		cand[j] = tmp;
		pe[i] = (struct qaic_partial_execute_entry){
			.handle = cand[i]->handle,
			.dir = cand[i]->dir,
			.resize = cand[i]->size,
		};
		sizes[i] = cand[i]->size;
	}
	return k;
}

static uint64_t valid_resize(struct tctx *t, uint64_t size)
{
	switch (rnd(t, 5)) {
	case 0:
		return 0;
	case 1:
		return size;
	case 2:
		return size ? size - 1 : 0;
	default:
		return rnd_upto(t, size);
	}
}

/* The entries of an EXECUTE_BO: @pe's without their sizes. */
static void full_entries(struct qaic_execute_entry *fe,
			 const struct qaic_partial_execute_entry *pe, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		fe[i] = (struct qaic_execute_entry){ .handle = pe[i].handle, .dir = pe[i].dir };
}

/* Breaks an execute: its header, its pointer or one of its entries. */
static void mutate_exec(struct tctx *t, int fi, struct qaic_execute *x,
			struct qaic_partial_execute_entry *pe, uint32_t *n, bool partial,
			uint64_t *sizes)
{
	struct worker *w = t->w;
	uint32_t i = rnd(t, *n);
	struct bo *o;

	switch (rnd(t, 10)) {
	case 0:
		x->hdr.count = one_in(t, 2) ? 0 : one_in(t, 2) ? 4097 : boundary32(t);
		if (x->hdr.count > *n && x->hdr.count <= 8)
			x->hdr.count = *n;
		break;
	case 1:
		x->data = bad_ptr(t, NULL, 0, NULL);
		break;
	case 2:
		x->hdr.dbc_id = bad_dbc(t, fi);
		break;
	case 3:
		pe[i].handle = bad_handle(t, fi);
		break;
	case 4:
		pe[i].dir = pe[i].dir == DIR_TO_DEV ? DIR_FROM_DEV :
			    one_in(t, 2) ? 0 : mutate32(t, 1);
		break;
	case 5:
		if (*n < 8) {
			/* the same object twice */
			pe[*n] = pe[i];
			(*n)++;
			x->hdr.count = *n;
		}
		break;
	case 6:
		/* an object not sliced, or sliced for another DBC */
		o = rand_bo(t, fi, one_in(t, 2) ? BO_UNSLICED : BO_SLICED, -1);
		if (o) {
			pe[i].handle = o->handle;
			pe[i].dir = o->sliced ? o->dir : DIR_TO_DEV;
		}
		break;
	case 7:
		if (partial)
			pe[i].resize = one_in(t, 2) ? sizes[i] + 1 + rnd(t, PAGE) : boundary64(t);
		else
			x->hdr.dbc_id = bad_dbc(t, fi);
		break;
	case 8:
		{
			/* another file's object handle and DBC */
			int other = rand_file(t);
			struct dbc *d;

			d = other >= 0 && other != fi ? rand_dbc(t, other) : NULL;
			if (d)
				x->hdr.dbc_id = d->id;
		}
		break;
	default:
		/* the first entry straddles into an unmapped page */
		x->data = (uintptr_t)t->scratch + 2 * PAGE -
			  (partial ? sizeof(struct qaic_partial_execute_entry) :
			   sizeof(struct qaic_execute_entry)) / 2;
		break;
	}
	(void)w;
}

static void do_execute(struct tctx *t, bool partial)
{
	struct worker *w = t->w;
	struct qaic_partial_execute_entry pe[8];
	struct qaic_execute_entry fe[8];
	struct qaic_execute x = { 0 };
	uint64_t sizes[8];
	uint32_t dbc = 0, n;
	int fi, fd;

	fi = lock_rand_file_dbc(t, &fd);
	if (fi < 0)
		return;
	n = pick_exec(t, fi, &dbc, pe, sizes);
	if (!n) {
		unlock(w);
		become(t, rand_dbc(t, fi) ? OP_ATTACH : OP_ACTIVATE);
		return;
	}
	for (uint32_t i = 0; i < n; i++)
		pe[i].resize = partial ? valid_resize(t, sizes[i]) : sizes[i];
	x.hdr.count = n;
	x.hdr.dbc_id = dbc;
	if (!t->valid)
		for (int k = 1 + rnd(t, 2); k > 0; k--)
			mutate_exec(t, fi, &x, pe, &n, partial, sizes);
	unlock(w);
	if (partial) {
		if (!x.data)
			x.data = (uintptr_t)pe;
		xioctl(t, IOC_PARTIAL, fd, DRM_IOCTL_QAIC_PARTIAL_EXECUTE_BO, &x);
	} else {
		full_entries(fe, pe, n);
		if (!x.data)
			x.data = (uintptr_t)fe;
		xioctl(t, IOC_EXECUTE, fd, DRM_IOCTL_QAIC_EXECUTE_BO, &x);
	}
}

void op_execute(struct tctx *t)
{
	do_execute(t, false);
}

void op_partial(struct tctx *t)
{
	do_execute(t, true);
}

void op_wait(struct tctx *t)
{
	static const uint32_t timeouts[] = { 0, 1, 1, 2, 5, 10 };
	struct worker *w = t->w;
	struct qaic_wait wt = { 0 };
	struct dbc *d;
	struct bo *bo;
	int fi, fd;

	fi = lock_rand_file_dbc(t, &fd);
	if (fi < 0)
		return;
	bo = rand_bo(t, fi, one_in(t, 4) ? BO_ANY : BO_SLICED, -1);
	if (!bo)
		bo = rand_bo(t, fi, BO_ANY, -1);
	d = bo && bo->sliced ? find_dbc(w, fi, bo->dbc) : NULL;
	if (!d || d->draining)
		d = rand_dbc(t, fi);
	if (!d && t->valid) {
		unlock(w);
		become(t, OP_ACTIVATE);
		return;
	}
	wt.handle = bo ? bo->handle : 0;
	wt.dbc_id = d ? d->id : 0;
	wt.timeout = timeouts[rnd(t, ARRAY_SIZE(timeouts))];
	if (!t->valid) {
		switch (rnd(t, 4)) {
		case 0:
			wt.pad = 1u << rnd(t, 32);
			break;
		case 1:
			wt.handle = bad_handle(t, fi);
			break;
		case 2:
			wt.dbc_id = bad_dbc(t, fi);
			break;
		default:
			wt.timeout = rnd(t, 2);
			wt.handle ^= 1u << rnd(t, 8);
			break;
		}
	}
	unlock(w);
	xioctl(t, IOC_WAIT, fd, DRM_IOCTL_QAIC_WAIT_BO, &wt);
}

void op_perf(struct tctx *t)
{
	struct worker *w = t->w;
	struct qaic_perf_stats_entry e[8];
	struct qaic_perf_stats ps = { 0 };
	struct dbc *d;
	int fi, fd, n = 0;

	memset(e, 0, sizeof(e));
	fi = lock_rand_file_dbc(t, &fd);
	if (fi < 0)
		return;
	d = rand_dbc(t, fi);
	if (!d && t->valid) {
		unlock(w);
		become(t, OP_ACTIVATE);
		return;
	}
	for (int k = 1 + rnd(t, 4); k > 0; k--) {
		struct bo *bo = rand_bo(t, fi, BO_ANY, -1);

		if (bo)
			e[n++].handle = bo->handle;
	}
	if (!n)
		n = 1;	/* handle 0: -ENOENT */
	ps.hdr.count = n;
	ps.hdr.dbc_id = d ? d->id : bad_dbc(t, fi);
	ps.data = (uintptr_t)e;
	if (!t->valid) {
		switch (rnd(t, 6)) {
		case 0:
			ps.hdr.count = one_in(t, 2) ? 0 : 65535;
			break;
		case 1:
			ps.hdr.pad = 1 + rnd(t, 0xffff);
			break;
		case 2:
			e[rnd(t, n)].pad = 1u << rnd(t, 32);
			break;
		case 3:
			ps.hdr.dbc_id = bad_dbc(t, fi);
			break;
		case 4:
			e[rnd(t, n)].handle = bad_handle(t, fi);
			break;
		default:
			ps.data = bad_ptr(t, e, n * sizeof(e[0]), NULL);
			break;
		}
	}
	unlock(w);
	xioctl(t, IOC_PERF, fd, DRM_IOCTL_QAIC_PERF_STATS_BO, &ps);
}

/* ------------------------------------------------------------ submit */

/* A syncobj of file @fi that has a fence to wait for, as a qaic_sync. */
static bool in_sync(struct tctx *t, int fi, struct qaic_sync *s)
{
	struct sobj *so = rand_sobj(t, fi);

	if (!so)
		return false;
	*s = (struct qaic_sync){ .handle = so->handle };
	if (so->timeline && so->last_point) {
		s->point = 1 + rnd_upto(t, so->last_point - 1);
		return true;
	}
	if (!so->timeline && so->has_fence)
		return true;
	/* none yet: wait until it is submitted, maybe by the other thread */
	if (t->w->in_burst && one_in(t, 16)) {
		s->flags = QAIC_SYNC_WAIT_FOR_SUBMIT;
		s->point = so->timeline ? so->last_point + 1 : 0;
		return true;
	}
	return false;
}

void op_submit(struct tctx *t)
{
	struct worker *w = t->w;
	struct qaic_partial_execute_entry pe[8];
	struct qaic_execute_entry fe[8];
	struct qaic_submit s = { 0 };
	struct qaic_execute x = { 0 };
	struct qaic_sync in[72];
	struct sobj *out = NULL;
	uint64_t sizes[8];
	uint32_t dbc = 0, n, nin = 0;
	bool partial = one_in(t, 3), syncs_set = false;
	int fi, fd, ret;

	fi = lock_rand_file_dbc(t, &fd);
	if (fi < 0)
		return;
	n = pick_exec(t, fi, &dbc, pe, sizes);
	if (!n) {
		unlock(w);
		become(t, OP_ATTACH);
		return;
	}
	for (uint32_t i = 0; i < n; i++)
		pe[i].resize = partial ? valid_resize(t, sizes[i]) : sizes[i];
	for (int k = rnd(t, 4); k > 0; k--)
		if (in_sync(t, fi, &in[nin]))
			nin++;
	s.flags = partial ? QAIC_SUBMIT_PARTIAL : 0;
	if (!one_in(t, 4))
		out = rand_sobj(t, fi);
	if (out) {
		s.out_sync.handle = out->handle;
		if (out->timeline || (!out->has_fence && one_in(t, 2)))
			s.out_sync.point = out->last_point + 1 + rnd(t, 3);
	}
	x.hdr.count = n;
	x.hdr.dbc_id = dbc;
	if (!t->valid) {
		for (int k = 1 + rnd(t, 2); k > 0; k--) {
			switch (rnd(t, 12)) {
			case 0:
				s.flags = 1u << rnd(t, 32);
				break;
			case 1:
				s.reserved = 1ull << rnd(t, 64);
				break;
			case 2:
				s.out_sync.flags = 1u << rnd(t, 32);
				break;
			case 3:
				/* more in-syncs than allowed, or than there are */
				nin = one_in(t, 2) ? 65 + rnd(t, 5) : nin;
				for (uint32_t i = 0; i < nin; i++)
					if (!in_sync(t, fi, &in[i]))
						in[i] = (struct qaic_sync){
							.handle = bad_handle(t, fi),
						};
				s.in_sync_count = one_in(t, 2) ? nin : boundary32(t);
				break;
			case 4:
				s.in_syncs = bad_ptr(t, in, nin * sizeof(in[0]), NULL);
				s.in_sync_count = nin ? nin : 1;
				syncs_set = true;
				break;
			case 5:
				in[nin] = (struct qaic_sync){
					.handle = one_in(t, 2) ? bad_handle(t, fi) :
						  out ? out->handle : 0,
					.flags = one_in(t, 2) ? 2 + rnd(t, 100) : 0,
					.point = one_in(t, 2) ? boundary64(t) : 0,
				};
				nin++;
				break;
			case 6:
				/* a point with no fence yet */
				if (out) {
					in[nin] = (struct qaic_sync){
						.handle = out->handle,
						.point = out->last_point + 100,
					};
					nin++;
				}
				break;
			case 7:
				s.out_sync.handle = bad_handle(t, fi);
				break;
			case 8:
				/* a timeline point below the last one */
				if (out && out->last_point)
					s.out_sync.point = 1;
				break;
			default:
				mutate_exec(t, fi, &x, pe, &n, partial, sizes);
				break;
			}
		}
	}
	unlock(w);
	if (!syncs_set) {
		if (!s.in_sync_count)
			s.in_sync_count = nin;
		s.in_syncs = (uintptr_t)in;
		if (s.in_sync_count > ARRAY_SIZE(in))
			s.in_syncs = (uintptr_t)t->scratch + 2 * PAGE - sizeof(in[0]);
	}
	s.hdr = x.hdr;
	s.data = x.data;
	if (!s.data) {
		full_entries(fe, pe, n);
		s.data = partial ? (uintptr_t)pe : (uintptr_t)fe;
	}
	ret = xioctl(t, IOC_SUBMIT, fd, DRM_IOCTL_QAIC_SUBMIT, &s);
	if (ret || !s.out_sync.handle)
		return;
	lock(w);
	if (w->f[fi].used) {
		struct sobj *so = find_sobj(w, fi, s.out_sync.handle);

		if (so && s.out_sync.point) {
			so->timeline = true;
			if (s.out_sync.point > so->last_point)
				so->last_point = s.out_sync.point;
		} else if (so) {
			so->has_fence = true;
		}
	}
	unlock(w);
}
