// SPDX-License-Identifier: GPL-2.0-only
/*
 * qaic-fuzz: the MANAGE ioctl. Messages of transactions (activate,
 * deactivate, status, passthrough requests of the emulated card's
 * manager, DMA transfers), the walk of the card's answer, and the
 * operations that send them, valid or broken.
 *
 * Copyright (c) 2026 The qaic authors.
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <drm/qaic_accel.h>

#include "fuzz.h"
#include "calls.h"
#include "manage.h"
#include "model.h"
#include "rng.h"
#include "worker.h"

/* Passthrough requests of the emulated card's manager (tests/emu/manager.h). */
/* The emulator's own request n: above every firmware NNC command type */
#define EMU_PT_OP(n)	(0x51450000u + (n))
#define EMU_PT_ECHO		EMU_PT_OP(1)
#define EMU_PT_XFER_SUM		EMU_PT_OP(2)
#define EMU_PT_XFER_EXPECT	EMU_PT_OP(3)
#define EMU_PT_DEACTIVATE	EMU_PT_OP(4)
#define EMU_PT_HANG_DBC		EMU_PT_OP(5)
#define EMU_PT_DBC_COUNTERS	EMU_PT_OP(6)
#define EMU_PT_MEMCPY_BW	EMU_PT_OP(7)
/* Activate refused: every DBC is in use. */
#define EMU_NNC_E_NO_DBC	7

/* Largest request the uapi takes: the buffer less the count and len fields. */
#define MSG_MAX		(QAIC_MANAGE_MAX_MSG_LENGTH - 8)

static void *mm_add(struct mmsg *m, uint32_t type, uint32_t len)
{
	struct qaic_manage_trans_hdr hdr = { .type = type, .len = len };
	uint8_t *p;

	if (len < sizeof(hdr) || len > MSG_MAX - m->len)
		return NULL;
	p = m->buf + m->len;
	memset(p, 0, len);
	memcpy(p, &hdr, sizeof(hdr));
	m->len += len;
	m->count++;
	return p;
}

static void put_le32(uint8_t *p, uint32_t v)
{
	memcpy(p, &v, 4);	/* the bench is little endian, like the card */
}

static uint32_t get_le32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return v;
}

/* The argument of a MANAGE that sends @m as it is. */
struct qaic_manage_msg mm_msg(const struct mmsg *m)
{
	return (struct qaic_manage_msg){ .len = m->len, .count = m->count,
					 .data = (uintptr_t)m->buf };
}

static void mm_passthrough(struct mmsg *m, uint32_t op, uint32_t arg, const void *extra,
			   uint32_t extra_len)
{
	uint8_t *p = mm_add(m, QAIC_TRANS_PASSTHROUGH_FROM_USR,
			    sizeof(struct qaic_manage_trans_hdr) + 8 + extra_len);

	if (!p)
		return;
	put_le32(p + 8, op);
	put_le32(p + 12, arg);
	if (extra && extra_len)
		memcpy(p + 16, extra, extra_len);
}

void mm_activate(struct mmsg *m, uint32_t qsize)
{
	struct qaic_manage_trans_activate_to_dev *a;

	a = mm_add(m, QAIC_TRANS_ACTIVATE_FROM_USR, sizeof(*a));
	if (a)
		a->queue_size = qsize;
}

void mm_deactivate(struct mmsg *m, uint32_t id)
{
	struct qaic_manage_trans_deactivate *d;

	d = mm_add(m, QAIC_TRANS_DEACTIVATE_FROM_USR, sizeof(*d));
	if (d)
		d->dbc_id = id;
}

void mm_status(struct mmsg *m)
{
	mm_add(m, QAIC_TRANS_STATUS_FROM_USR, sizeof(struct qaic_manage_trans_status_to_dev));
}

static void mm_dma_xfer(struct mmsg *m, uint32_t tag, uint64_t addr, uint64_t size)
{
	struct qaic_manage_trans_dma_xfer *x;

	x = mm_add(m, QAIC_TRANS_DMA_XFER_FROM_USR, sizeof(*x));
	if (x) {
		x->tag = tag;
		x->addr = addr;
		x->size = size;
	}
}

/*
 * Walks an answer of @len bytes and @count transactions in @m; false if it
 * is malformed.
 */
bool parse_answer(const struct mmsg *m, uint32_t len, uint32_t count, struct answer *a)
{
	const uint32_t hl = sizeof(struct qaic_manage_trans_hdr);
	uint32_t off = 0, i;

	memset(a, 0, sizeof(*a));
	if (len > sizeof(m->buf))
		return false;
	for (i = 0; i < count; i++) {
		struct qaic_manage_trans_hdr h;
		const uint8_t *p = m->buf + off;

		if (len - off < hl)
			return false;
		memcpy(&h, p, hl);
		if (h.len < hl || h.len > len - off)
			return false;
		if (h.type == QAIC_TRANS_ACTIVATE_FROM_DEV &&
		    h.len >= sizeof(struct qaic_manage_trans_activate_from_dev) && a->nact < 4) {
			struct qaic_manage_trans_activate_from_dev ad;

			memcpy(&ad, p, sizeof(ad));
			a->act_status[a->nact] = ad.status;
			a->act_id[a->nact++] = ad.dbc_id;
		}
		if (h.type == QAIC_TRANS_STATUS_FROM_DEV &&
		    h.len >= sizeof(struct qaic_manage_trans_status_from_dev)) {
			struct qaic_manage_trans_status_from_dev sd;

			memcpy(&sd, p, sizeof(sd));
			a->status_ok = !sd.status;
		}
		/* struct emu_pt_status: op, arg, status, pad */
		if (h.type == QAIC_TRANS_PASSTHROUGH_FROM_DEV && h.len >= hl + 16 &&
		    get_le32(p + hl) == EMU_PT_DEACTIVATE && !get_le32(p + hl + 8) &&
		    a->npt_deact < 4)
			a->pt_deact[a->npt_deact++] = get_le32(p + hl + 4);
		off += h.len;
	}
	a->parsed = off == len;
	return a->parsed;
}

static int manage2(struct tctx *t, int fi, int fd, struct mmsg *m, struct qaic_manage_msg *arg,
		   struct answer *ans, uint64_t deact_mask, bool eperm_drops);

/*
 * Sends @m through file @fi's descriptor @fd with @arg (the caller may
 * have broken it; NULL: built from @m) and brings the model up to date
 * with the answer: DBCs activated and released.
 */
static int manage(struct tctx *t, int fi, int fd, struct mmsg *m, struct qaic_manage_msg *arg,
		  struct answer *ans, uint64_t deact_mask)
{
	return manage2(t, fi, fd, m, arg, ans, deact_mask, false);
}

/*
 * @eperm_drops: every DBC of @deact_mask is one the model says the file
 * holds; -EPERM means it does not (the card released it on its own), so
 * the model forgets them.
 */
static int manage2(struct tctx *t, int fi, int fd, struct mmsg *m, struct qaic_manage_msg *arg,
		   struct answer *ans, uint64_t deact_mask, bool eperm_drops)
{
	struct worker *w = t->w;
	struct qaic_manage_msg def = mm_msg(m);
	struct answer dummy;
	int ret;

	if (!arg)
		arg = &def;
	if (!ans)
		ans = &dummy;
	memset(ans, 0, sizeof(*ans));
	ret = xioctl(t, IOC_MANAGE, fd, DRM_IOCTL_QAIC_MANAGE, arg);
	if (ret == -EPERM && eperm_drops) {
		lock(w);
		for (uint32_t id = 0; id < NUM_DBC && w->f[fi].used; id++) {
			struct dbc *d = (deact_mask >> id) & 1 ? find_dbc(w, fi, id) : NULL;

			if (d)
				d->used = false;
		}
		unlock(w);
	}
	if ((ret && ret != -ECANCELED) || arg->data != (uintptr_t)m->buf)
		return ret;
	if (!parse_answer(m, arg->len, arg->count, ans)) {
		fail(t, "MANAGE: %s and a malformed answer (len %u count %u)",
		     err_name(-ret), arg->len, arg->count);
		return ret;
	}
	lock(w);
	if (w->f[fi].used) {
		/*
		 * A deactivate takes the DBC from the file; the card keeps it
		 * until released in its own terms. A DBC the card released
		 * (EMU_PT_DEACTIVATE) is gone, whether the file deactivated it
		 * or not (then the driver keeps its rings until the card
		 * grants it to someone).
		 */
		if (!ret)
			for (uint32_t id = 0; id < NUM_DBC; id++)
				if ((deact_mask >> id) & 1) {
					struct dbc *d = find_dbc(w, fi, id);

					if (d)
						d->draining = true;
				}
		for (int i = 0; i < ans->npt_deact; i++) {
			struct dbc *d = find_dbc(w, fi, ans->pt_deact[i]);

			if (d)
				d->used = false;
		}
		for (int i = 0; i < ans->nact; i++) {
			if (ans->act_status[i] || ans->act_id[i] >= NUM_DBC)
				continue;
			if (!find_dbc(w, fi, ans->act_id[i])) {
				for (int j = 0; j < MAX_DBCS; j++) {
					if (!w->f[fi].dbc[j].used) {
						w->f[fi].dbc[j] = (struct dbc){
							.used = true,
							.id = ans->act_id[i],
							/* good enough for choosing slices */
							.qsize = 16,
						};
						break;
					}
				}
			}
		}
	}
	unlock(w);
	return ret;
}

static uint32_t valid_qsize(struct tctx *t)
{
	switch (rnd(t, 4)) {
	case 0:
		return 16u << rnd(t, 7);	/* 16 .. 1024 */
	case 1:
		return 16 + rnd(t, 1009);
	case 2:
		return 64;
	default:
		return 256;
	}
}

void op_activate(struct tctx *t)
{
	struct worker *w = t->w;
	struct qaic_manage_trans_activate_to_dev *a;
	struct qaic_manage_msg arg;
	struct answer ans;
	struct mmsg m = { 0 };
	uint32_t qsize = valid_qsize(t), req_qsize;
	int fi, fd, ret, held;

	if (w->is_child) {
		/* The parent's model would not know about it. */
		become(t, OP_STATUS);
		return;
	}
	fi = use_file(t, &fd, false);
	if (fi < 0)
		return;
	lock(w);
	held = count_dbcs(w);
	unlock(w);
	if (held >= w->dbc_cap) {
		/*
		 * Give one back first, so that the workers leave each other
		 * DBCs; the next activate will find room.
		 */
		become(t, OP_DEACTIVATE);
		return;
	}

	a = mm_add(&m, QAIC_TRANS_ACTIVATE_FROM_USR, sizeof(*a));
	a->queue_size = qsize;
	if (one_in(t, 4))
		mm_status(&m);
	arg = mm_msg(&m);
	if (!t->valid) {
		int n = 1 + rnd(t, 2);

		while (n--) {
			switch (rnd(t, 7)) {
			case 0:
				a->queue_size = one_in(t, 3) ? mutate32(t, qsize) : boundary32(t);
				break;
			case 1:
				a->pad = 1u << rnd(t, 32);
				break;
			case 2:
				a->options = (uint32_t)rnd64(t);	/* passed on unchanged */
				a->eventfd = (uint32_t)rnd64(t);	/* ignored */
				break;
			case 3:
				mm_activate(&m, valid_qsize(t));	/* two in one message */
				arg.len = m.len;
				arg.count = m.count;
				break;
			case 4:
				a->hdr.len = mutate32(t, a->hdr.len);
				break;
			case 5:
				arg.len = mutate32(t, arg.len);
				break;
			default:
				arg.data = bad_ptr(t, m.buf, m.len, NULL);
				break;
			}
		}
		/* A huge ring may be granted: pin no more than a few MiB of it. */
		if (a->queue_size > 65536 && a->queue_size < (1u << 26) && !one_in(t, 8))
			a->queue_size = 65536;
	}
	req_qsize = a->queue_size;	/* the answer overwrites the message */
	ret = manage(t, fi, fd, &m, &arg, &ans, 0);
	if (!ret && ans.nact == 1 && !ans.act_status[0] && ans.act_id[0] < NUM_DBC &&
	    req_qsize >= 16 && req_qsize <= 65536) {
		struct dbc *d;

		lock(w);
		d = w->f[fi].used ? find_dbc(w, fi, ans.act_id[0]) : NULL;
		if (d)
			d->qsize = req_qsize;
		unlock(w);
	}
	if (!t->strict)
		return;
	if (ret == -ECANCELED && ans.parsed && ans.nact == 1 &&
	    ans.act_status[0] == EMU_NNC_E_NO_DBC)
		return;		/* every DBC is in use */
	if (ret == -EBUSY || ret == -ENOSPC)
		return;
	if (ret)
		fail(t, "activate with a %u-entry queue: %s", qsize, err_name(-ret));
	else if (!ans.parsed || ans.nact != 1 || ans.act_status[0] || ans.act_id[0] >= NUM_DBC)
		fail(t, "activate with a %u-entry queue: succeeded without a DBC "
		     "(%d answers, status %u, dbc %u)", qsize, ans.nact,
		     ans.nact ? ans.act_status[0] : 0, ans.nact ? ans.act_id[0] : 0);
}

void op_deactivate(struct tctx *t)
{
	struct worker *w = t->w;
	struct qaic_manage_trans_deactivate *d;
	struct qaic_manage_msg arg;
	struct mmsg m = { 0 };
	struct dbc *dbc;
	uint64_t mask = 0;
	bool draining;
	uint32_t id;
	int fi, fd;

	if (w->is_child) {
		become(t, OP_STATUS);
		return;
	}
	lock(w);
	fi = pick_file_dbc(t, true);
	if (fi < 0) {
		unlock(w);
		return;
	}
	fd = file_fd(t, fi);
	dbc = pick_dbc(t, fi, true);
	id = dbc ? dbc->id : bad_dbc(t, fi);
	draining = dbc && dbc->draining;
	if (!t->valid) {
		switch (rnd(t, 3)) {
		case 0:
			id = bad_dbc(t, fi);
			break;
		case 1:
			break;
		default:
			/* The card's release alone, of anything */
			if (one_in(t, 2))
				id = bad_dbc(t, fi);
			unlock(w);
			mm_passthrough(&m, EMU_PT_DEACTIVATE, id, NULL, 0);
			manage(t, fi, fd, &m, NULL, NULL, 0);
			return;
		}
	}
	unlock(w);

	/*
	 * As a runtime gives a DBC back: the deactivate transaction, which
	 * takes it from the file, and the firmware's own request in front of
	 * it, which makes the card release it. Sometimes the deactivate
	 * alone (the card keeps the DBC until the file is closed, or until
	 * it is asked later: the request alone, for a draining DBC).
	 */
	if (draining || !one_in(t, 4))
		mm_passthrough(&m, EMU_PT_DEACTIVATE, id, NULL, 0);
	d = NULL;
	if (!draining || !t->valid) {
		d = mm_add(&m, QAIC_TRANS_DEACTIVATE_FROM_USR, sizeof(*d));
		d->dbc_id = id;
		if (id < NUM_DBC)
			mask |= 1ull << id;
	}
	if (one_in(t, 5))
		mm_status(&m);
	arg = mm_msg(&m);
	if (!t->valid && d) {
		switch (rnd(t, 4)) {
		case 0:
			d->pad = 1u << rnd(t, 32);
			break;
		case 1:
			mm_deactivate(&m, id);	/* twice */
			arg.len = m.len;
			arg.count = m.count;
			break;
		case 2:
			d->hdr.len = mutate32(t, d->hdr.len);
			break;
		default:
			arg.count = mutate32(t, arg.count);
			break;
		}
	}
	manage2(t, fi, fd, &m, &arg, NULL, mask, t->valid && dbc && !draining);
}

void op_status(struct tctx *t)
{
	struct qaic_manage_msg arg;
	struct answer ans;
	struct mmsg m = { 0 };
	int fi, fd, ret;

	fi = use_file(t, &fd, false);
	if (fi < 0)
		return;
	mm_status(&m);
	arg = mm_msg(&m);
	if (!t->valid) {
		switch (rnd(t, 6)) {
		case 0:
			arg.len = mutate32(t, arg.len);
			break;
		case 1:
			arg.count = mutate32(t, arg.count);
			break;
		case 2:
			arg.data = bad_ptr(t, m.buf, m.len, NULL);
			break;
		case 3:
			/* the status transaction with a body */
			m.len = 0;
			m.count = 0;
			mm_add(&m, QAIC_TRANS_STATUS_FROM_USR, 8 + 8 * rnd(t, 4) + rnd(t, 2));
			arg.len = m.len;
			break;
		case 4:
			/* device-side status types */
			((struct qaic_manage_trans_hdr *)m.buf)->type =
				one_in(t, 2) ? QAIC_TRANS_STATUS_TO_USR :
				QAIC_TRANS_STATUS_FROM_DEV + rnd(t, 2);
			break;
		default:
			/* many of them */
			for (int i = rnd(t, 500); i > 0; i--)
				mm_status(&m);
			arg.len = m.len;
			arg.count = m.count;
			break;
		}
	}
	ret = manage(t, fi, fd, &m, &arg, &ans, 0);
	if (t->strict && (ret || !ans.status_ok))
		fail(t, "STATUS: %s, status %s", err_name(-ret), ans.status_ok ? "ok" : "not ok");
}

void op_passthrough(struct tctx *t)
{
	struct worker *w = t->w;
	struct qaic_manage_msg arg;
	struct mmsg m = { 0 };
	uint8_t extra[512];
	uint32_t op, a = 0, elen = 0;
	struct dbc *d;
	int fi, fd;

	fi = use_file(t, &fd, false);
	if (fi < 0)
		return;
	for (size_t i = 0; i < sizeof(extra); i += 8) {
		uint64_t v = rnd64(t);

		memcpy(extra + i, &v, 8);
	}
	lock(w);
	d = rand_dbc(t, fi);
	switch (rnd(t, 12)) {
	case 0:
	case 1:
	case 2:
		op = EMU_PT_ECHO;
		elen = 8 * rnd(t, 32);
		break;
	case 3:
		op = EMU_PT_XFER_SUM;
		a = rnd(t, 8);
		break;
	case 4:
		op = EMU_PT_XFER_EXPECT;
		a = rnd(t, 8);
		elen = 8;
		memset(extra, 0, 8);
		extra[0] = rnd(t, 255);
		break;
	case 5:
	case 6:
		op = EMU_PT_DBC_COUNTERS;
		a = d && one_in(t, 2) ? d->id : rnd(t, NUM_DBC);
		break;
	case 7:
		op = EMU_PT_MEMCPY_BW;
		a = rnd(t, 2);	/* 0 is refused, 1 MiB is quick */
		break;
	case 8:
		/* The firmware releasing one of ours. */
		op = EMU_PT_DEACTIVATE;
		a = d ? d->id : rnd(t, NUM_DBC);
		if (!d || !one_in(t, 3))
			op = EMU_PT_ECHO;
		break;
	case 9:
		/* A one-shot hang of one of ours: the job timeout ends it. */
		op = EMU_PT_HANG_DBC;
		a = d ? d->id : 0;
		if (!d || !one_in(t, 4))
			op = EMU_PT_DBC_COUNTERS;
		break;
	default:
		/*
		 * Unknown to the manager. Not just past the ops above: 8..11
		 * are test facilities (response faults, a crash, falling off
		 * the bus, a silent manager) that would end the run.
		 */
		op = 1000 + rnd(t, 100);
		a = (uint32_t)rnd64(t);
		break;
	}
	unlock(w);
	mm_passthrough(&m, op, a, extra, elen);
	if (one_in(t, 4))
		mm_passthrough(&m, EMU_PT_ECHO, 0, extra, 8 * rnd(t, 4));
	arg = mm_msg(&m);
	if (!t->valid) {
		struct qaic_manage_trans_hdr *h = (void *)m.buf;

		switch (rnd(t, 6)) {
		case 0:
			/* payload shorter than op and arg, or not a multiple of 8 */
			m.len = 0;
			m.count = 0;
			mm_add(&m, QAIC_TRANS_PASSTHROUGH_FROM_USR, 8 + rnd(t, 24));
			arg.len = m.len;
			arg.count = m.count;
			break;
		case 1:
			/* an echo whose answer does not fit */
			m.len = 0;
			m.count = 0;
			mm_passthrough(&m, EMU_PT_ECHO, 0, NULL, 0);
			h->len = MSG_MAX - rnd(t, 64);
			m.len = h->len;
			arg.len = m.len;
			break;
		case 2:
			h->type = one_in(t, 2) ? QAIC_TRANS_PASSTHROUGH_TO_USR :
				  QAIC_TRANS_PASSTHROUGH_FROM_DEV + rnd(t, 2);
			break;
		case 3:
			h->len = mutate32(t, h->len);
			break;
		case 4:
			arg.len = mutate32(t, arg.len);
			break;
		default:
			arg.data = bad_ptr(t, m.buf, m.len, NULL);
			break;
		}
	}
	manage(t, fi, fd, &m, &arg, NULL, 0);
}

void op_dma_xfer(struct tctx *t)
{
	struct qaic_manage_msg arg;
	struct mmsg m = { 0 };
	uint8_t *buf[2] = { NULL, NULL };
	int fi, fd, n = 1 + one_in(t, 3);

	fi = use_file(t, &fd, false);
	if (fi < 0)
		return;
	if (one_in(t, 4)) {
		uint64_t expect = 1 + rnd(t, 64 * KIB);

		mm_passthrough(&m, EMU_PT_XFER_EXPECT, rnd(t, 8), &expect, 8);
	}
	for (int i = 0; i < n; i++) {
		size_t size = one_in(t, 16) ? 1 + rnd(t, 256 * KIB) : 1 + rnd(t, 16 * KIB);

		buf[i] = malloc(size);
		if (!buf[i])
			break;
		for (size_t j = 0; j < size; j += 64)
			buf[i][j] = (uint8_t)rnd64(t);
		mm_dma_xfer(&m, rnd(t, 8), (uintptr_t)buf[i], size);
	}
	if (one_in(t, 4))
		mm_status(&m);
	arg = mm_msg(&m);
	if (!t->valid) {
		struct qaic_manage_trans_dma_xfer *x = NULL;
		uint32_t off = 0;

		/* The first transfer of the message. */
		for (uint32_t i = 0; i < m.count; i++) {
			struct qaic_manage_trans_hdr *h = (void *)(m.buf + off);

			if (h->type == QAIC_TRANS_DMA_XFER_FROM_USR) {
				x = (void *)h;
				break;
			}
			off += h->len;
		}
		for (int k = 1 + rnd(t, 2); k > 0 && x; k--) {
			switch (rnd(t, 10)) {
			case 0:
				x->size = boundary64(t);
				break;
			case 1:
				x->addr = bad_ptr(t, NULL, 0, NULL);
				break;
			case 2:
				x->addr = UINT64_MAX - rnd(t, 8192);	/* wraps */
				break;
			case 3:
				x->pad = 1u << rnd(t, 32);
				break;
			case 4:
				/* more than may be pinned at once */
				x->size = (64 + rnd(t, 1024)) * MIB;
				break;
			case 5:
				/* from a mapping of an object: not pinnable, or pinned */
				{
					struct map *mp;

					lock(t->w);
					mp = rand_map(t);
					if (mp) {
						x->addr = (uintptr_t)mp->ptr;
						x->size = 1 + rnd(t, mp->size);
					}
					unlock(t->w);
				}
				break;
			case 6:
				x->hdr.len = mutate32(t, x->hdr.len);
				break;
			case 7:
				x->size = mutate64(t, x->size);
				break;
			case 8:
				/* the largest sizes that do not wrap */
				x->addr = one_in(t, 2) ? rnd(t, 2 * PAGE) : x->addr;
				x->size = UINT64_MAX - x->addr - rnd(t, 2 * PAGE);
				break;
			default:
				/* read-only source: fine */
				x->addr = (uintptr_t)t->ro;
				x->size = 1 + rnd(t, PAGE);
				break;
			}
		}
	}
	manage(t, fi, fd, &m, &arg, NULL, 0);
	free(buf[0]);
	free(buf[1]);
}

/* Messages built from pieces of anything. */
void op_manage_raw(struct tctx *t)
{
	struct worker *w = t->w;
	struct qaic_manage_msg arg;
	struct mmsg m = { 0 };
	uint64_t mask = 0;
	int fi, fd, n = 1 + rnd(t, 4);
	struct dbc *d;

	fi = use_file(t, &fd, false);
	if (fi < 0)
		return;
	for (int i = 0; i < n; i++) {
		uint32_t type, len;
		uint8_t *p;

		switch (rnd(t, 8)) {
		case 0:
			mm_status(&m);
			continue;
		case 1:
			mm_passthrough(&m, EMU_PT_ECHO, i, NULL, 8 * rnd(t, 4));
			continue;
		case 2:
			lock(w);
			d = rand_dbc(t, fi);
			if (d && one_in(t, 2)) {
				mask |= 1ull << d->id;
				mm_deactivate(&m, d->id);
			} else {
				mm_deactivate(&m, bad_dbc(t, fi));
			}
			unlock(w);
			continue;
		case 3:
			/* at most one activate, and only if there is room */
			lock(w);
			if (count_dbcs(w) < w->dbc_cap)
				mm_activate(&m, valid_qsize(t));
			unlock(w);
			continue;
		case 4:
			type = rnd(t, QAIC_TRANS_VALIDATE_PARTITION_TO_DEV + 2);
			break;
		case 5:
			type = (uint32_t)rnd64(t);
			break;
		default:
			type = rnd(t, 14);
			break;
		}
		len = one_in(t, 3) ? (uint32_t)rnd(t, 64) : 8 + 8 * rnd(t, 6);
		if (len < 8) {
			/* a header that does not fit its own length */
			if (m.len + 8 > MSG_MAX)
				continue;
			p = m.buf + m.len;
			put_le32(p, type);
			put_le32(p + 4, len);
			m.len += 8;
			m.count++;
			continue;
		}
		p = mm_add(&m, type, len);
		for (uint32_t j = 8; p && j < len; j++)
			p[j] = one_in(t, 2) ? 0 : (uint8_t)rnd64(t);
	}
	arg = mm_msg(&m);
	switch (rnd(t, 6)) {
	case 0:
		arg.len = mutate32(t, arg.len);
		break;
	case 1:
		arg.count = one_in(t, 2) ? arg.count + 1 : mutate32(t, arg.count);
		break;
	case 2:
		arg.data = bad_ptr(t, m.buf, m.len, NULL);
		break;
	default:
		break;
	}
	if (arg.len > MSG_MAX || arg.len < 8)
		mask = 0;
	manage(t, fi, fd, &m, &arg, NULL, mask);
}
