// SPDX-License-Identifier: GPL-2.0-only
/*
 * qaic-fuzz: slicing. ATTACH_SLICE_BO with slices the driver accepts
 * (semaphores, doorbells) or with one field broken, and
 * DETACH_SLICE_BO.
 *
 * Copyright (c) 2026 The qaic authors.
 */

#include <errno.h>
#include <string.h>

#include <drm/qaic_accel.h>

#include "fuzz.h"
#include "calls.h"
#include "model.h"
#include "rng.h"
#include "slicing.h"
#include "worker.h"

static struct qaic_sem valid_sem(struct tctx *t, bool presync)
{
	struct qaic_sem s = {
		.val = rnd(t, 4096),
		.index = rnd(t, 32),
		.presync = presync,
		.cmd = QAIC_SEM_INIT + rnd(t, 3),	/* INIT, INC, DEC */
		.flags = rnd(t, 4),
	};

	if (one_in(t, 10)) {
		/* a wait that is always satisfied */
		s.cmd = QAIC_SEM_WAIT_GT_EQ;
		s.val = 0;
	} else if (presync && one_in(t, 100)) {
		/* a wait that may stall the DBC until the job timeout */
		s.cmd = QAIC_SEM_WAIT_EQUAL + rnd(t, 3);
	}
	return s;
}

/* Slices of an object of @size bytes that the driver accepts; their count. */
static uint32_t make_slices(struct tctx *t, struct qaic_attach_slice_entry *e, uint32_t max,
			    uint64_t size)
{
	uint32_t n, i;
	uint64_t off = 0;

	if (!max)
		max = 1;
	switch (rnd(t, 4)) {
	case 0:
	case 1:
		n = 1;
		memset(e, 0, sizeof(*e));
		e[0].size = size;
		break;
	case 2:
		/* consecutive pieces */
		n = 1 + rnd(t, max < 4 ? max : 4);
		for (i = 0; i < n; i++) {
			uint64_t left = size - off, len;

			len = i == n - 1 ? left : rnd_upto(t, left);
			if (one_in(t, 2) && len > PAGE)
				len &= ~(uint64_t)(PAGE - 1);
			memset(&e[i], 0, sizeof(e[i]));
			e[i].offset = off;
			e[i].size = len;
			off += len;
		}
		break;
	default:
		/* any ranges, maybe empty or overlapping */
		n = 1 + rnd(t, max < 6 ? max : 6);
		for (i = 0; i < n; i++) {
			memset(&e[i], 0, sizeof(e[i]));
			e[i].offset = rnd_upto(t, size);
			e[i].size = one_in(t, 6) ? 0 : rnd_upto(t, size - e[i].offset);
		}
		break;
	}
	for (i = 0; i < n; i++) {
		struct qaic_sem *sems[] = { &e[i].sem0, &e[i].sem1, &e[i].sem2, &e[i].sem3 };

		e[i].dev_addr = rnd_upto(t, DEV_MEM - e[i].size) & ~63ull;
		if (one_in(t, 3)) {
			bool pre = one_in(t, 2);

			*sems[rnd(t, 4)] = valid_sem(t, pre);
			if (one_in(t, 3))
				*sems[rnd(t, 4)] = valid_sem(t, false);
		}
		if (one_in(t, 8)) {
			static const uint32_t lens[] = { 8, 16, 32 };

			e[i].db_len = lens[rnd(t, 3)];
			e[i].db_addr = 4 + (rnd_upto(t, DEV_MEM - 8) & ~3ull);
			e[i].db_data = (uint32_t)rnd64(t);
		}
	}
	return n;
}

/* Breaks one field of one of the slices. */
static void mutate_slice(struct tctx *t, struct qaic_attach_slice_entry *e, uint64_t bo_size)
{
	struct qaic_sem *sems[] = { &e->sem0, &e->sem1, &e->sem2, &e->sem3 };
	struct qaic_sem *s = sems[rnd(t, 4)];

	switch (rnd(t, 14)) {
	case 0:
		e->size = bo_size + 1 + rnd(t, PAGE);
		break;
	case 1:
		e->offset = boundary64(t);
		break;
	case 2:
		e->offset = bo_size;
		e->size = 1;
		break;
	case 3:
		e->size = mutate64(t, e->size);
		break;
	case 4:
		if (one_in(t, 2) && e->size)
			e->dev_addr = UINT64_MAX - e->size + 1;	/* ends at the top */
		else
			e->dev_addr = UINT64_MAX - rnd(t, 64);	/* wraps */
		break;
	case 5:
		e->dev_addr = DEV_MEM + rnd64(t) % DEV_MEM;	/* the device refuses it */
		break;
	case 6:
		s->pad = 1 + rnd(t, 0xffff);
		break;
	case 7:
		s->cmd = QAIC_SEM_WAIT_GT_0 + 1 + rnd(t, 250);
		break;
	case 8:
		s->flags = 4 + rnd(t, 252);
		break;
	case 9:
		s->presync = 2 + rnd(t, 254);
		break;
	case 10:
		if (one_in(t, 2))
			s->index = 32 + rnd(t, 224);
		else
			s->val = 4096 + rnd(t, 61440);
		break;
	case 11:
		/* two presync semaphores */
		e->sem0.presync = 1;
		e->sem1.presync = 1;
		break;
	case 12:
		switch (rnd(t, 4)) {
		case 0:
			e->db_len = 1 + rnd(t, 64);
			e->db_addr = PAGE;
			break;
		case 1:
			e->db_len = 32;
			e->db_addr = PAGE + 1 + rnd(t, 3);	/* misaligned */
			break;
		case 2:
			e->db_len = 0;
			e->db_addr = PAGE;
			break;
		default:
			e->db_len = 16;
			e->db_addr = 0;
			break;
		}
		break;
	default:
		e->db_addr = (DEV_MEM + rnd64(t) % DEV_MEM) & ~3ull;	/* the device's problem */
		e->db_len = 32;
		break;
	}
}

void op_attach(struct tctx *t)
{
	struct worker *w = t->w;
	struct qaic_attach_slice_entry e[80];
	struct qaic_attach_slice a = { 0 };
	struct dbc *d;
	struct bo *bo;
	uint32_t n, max;
	uint64_t size;
	int fi, fd, ret;

	memset(e, 0, sizeof(e));
	lock(w);
	fi = rand_file_dbc(t);
	if (fi < 0) {
		unlock(w);
		use_file(t, &fd, false);
		return;
	}
	d = rand_dbc(t, fi);
	if (!d) {
		unlock(w);
		become(t, OP_ACTIVATE);
		return;
	}
	bo = rand_bo(t, fi, t->valid ? BO_UNSLICED : BO_ANY, -1);
	if (!bo) {
		unlock(w);
		become(t, OP_CREATE);
		return;
	}
	fd = file_fd(t, fi);
	size = bo->size;
	a.hdr.dbc_id = d->id;
	a.hdr.handle = bo->handle;
	a.hdr.dir = one_in(t, 2) ? DIR_TO_DEV : DIR_FROM_DEV;
	a.hdr.size = size;
	max = d->qsize > 9 ? 8 : d->qsize - 1;
	n = make_slices(t, e, max, size);
	a.hdr.count = n;
	a.data = (uintptr_t)e;
	if (!t->valid) {
		for (int k = 1 + rnd(t, 2); k > 0; k--) {
			switch (rnd(t, 11)) {
			case 0:
				/* up to 80 read zeroed slices, more read what follows */
				a.hdr.count = one_in(t, 3) ? 0 : boundary32(t);
				break;
			case 1:
				a.data = bad_ptr(t, e, n * sizeof(e[0]), NULL);
				break;
			case 2:
				a.hdr.dbc_id = bad_dbc(t, fi);
				break;
			case 3:
				a.hdr.handle = bad_handle(t, fi);
				break;
			case 4:
				a.hdr.dir = one_in(t, 2) ? mutate32(t, a.hdr.dir) : rnd(t, 4) * 3;
				break;
			case 5:
			case 6:
			case 7:
				mutate_slice(t, &e[rnd(t, n)], size);
				break;
			case 8:
				/* more than 64 slices of size 0 */
				n = 65 + rnd(t, 15);
				memset(e, 0, n * sizeof(e[0]));
				a.hdr.count = n;
				break;
			case 9:
				a.hdr.size = rnd64(t);	/* ignored */
				break;
			default:
				/* an object sliced already, or imported */
				{
					struct bo *o = rand_bo(t, fi, BO_SLICED, -1);

					if (o)
						a.hdr.handle = o->handle;
				}
				break;
			}
		}
	}
	unlock(w);
	ret = xioctl(t, IOC_ATTACH, fd, DRM_IOCTL_QAIC_ATTACH_SLICE_BO, &a);
	if (ret == -EINVAL && t->valid) {
		/*
		 * Sliced already, behind the model's back (another thread,
		 * a bad pointer that hid an answer): a valid detach will
		 * find out, and put the model right.
		 */
		lock(w);
		bo = find_bo(w, fi, a.hdr.handle);
		if (bo && !bo->sliced)
			set_sliced(w, bo, true, UINT32_MAX, DIR_TO_DEV);
		unlock(w);
	}
	if (ret)
		return;
	lock(w);
	bo = find_bo(w, fi, a.hdr.handle);
	if (bo) {
		set_sliced(w, bo, true, a.hdr.dbc_id, a.hdr.dir);
		bo->nslices = a.hdr.count;
	}
	unlock(w);
}

void op_detach(struct tctx *t)
{
	struct worker *w = t->w;
	struct qaic_detach_slice dt = { 0 };
	struct bo *bo;
	int fi, fd, ret;

	lock(w);
	fi = rand_file(t);
	bo = fi >= 0 ? rand_bo(t, fi, t->valid ? BO_SLICED : BO_ANY, -1) : NULL;
	if (!bo) {
		unlock(w);
		become(t, OP_ATTACH);
		return;
	}
	fd = file_fd(t, fi);
	dt.handle = bo->handle;
	if (!t->valid) {
		if (one_in(t, 3))
			dt.pad = 1u << rnd(t, 32);
		else if (one_in(t, 2))
			dt.handle = bad_handle(t, fi);
	}
	unlock(w);
	ret = xioctl(t, IOC_DETACH, fd, DRM_IOCTL_QAIC_DETACH_SLICE_BO, &dt);
	if (ret == -EINVAL && t->valid) {
		/* not sliced after all */
		lock(w);
		bo = find_bo(w, fi, dt.handle);
		if (bo)
			set_sliced(w, bo, false, 0, 0);
		unlock(w);
	}
	if (ret)
		return;
	lock(w);
	bo = find_bo(w, fi, dt.handle);
	if (bo)
		set_sliced(w, bo, false, 0, 0);
	unlock(w);
}
