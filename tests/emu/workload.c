// SPDX-License-Identifier: GPL-2.0-only
/*
 * The workload model: programs of tensor ops in the DBC engine's device
 * memory, started by a DBC doorbell, synchronised with DBC semaphores.
 * See workload.h for the model and tests/emu/manual.rst
 * ("The workload model") for the byte layouts and the rules.
 *
 * Everything is read from device memory the host wrote: every field is
 * checked, every range is checked before it is touched, the ops are
 * copied out of device memory once per run (a program that overwrites its
 * own op table changes the next run, not this one) and all of them are
 * checked before the first one runs, so a malformed program changes
 * nothing but its own header.
 *
 * Copyright (c) 2026 The qaic authors.
 */
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "crc32.h"
#include "dbc.h"
#include "le_bytes.h"
#include "workload.h"

struct wl_pending {
	bool used;
	uint64_t addr;		/* P */
	uint64_t seq;		/* order of arrival: started oldest first */
};

struct emu_workload {
	struct emu_dbc *e;
	struct wl_pending pend[EMU_WL_MAX_PENDING];
	uint64_t seq;
	struct emu_workload_counters c;
};

/* A wait or signal of the header, decoded. */
struct wl_sem {
	bool on;
	unsigned int dbc, cmd, idx;
	uint16_t val;
};

struct wl_hdr {
	uint32_t nops;
	struct wl_sem wait;
	struct wl_sem sig[2];
};

struct wl_op {
	uint8_t code, type, otype, flags;
	uint32_t n, k, cols;
	uint64_t src0, src1, dst, aux;
	/* Filled by op_check(). */
	uint64_t in0, in1, out, bias;	/* operand bytes */
	uint64_t work;
};

/* The bits a semaphore word may have: the DBC request encoding, no fences. */
#define SEM_BITS	(EMU_DBC_SEM_ENABLE | 7u << 24 | 0x1fu << 16 | EMU_DBC_SEM_MAX)

/* ---- helpers ----------------------------------------------------------- */

static unsigned int type_size(uint8_t type)
{
	switch (type) {
	case EMU_WL_F32:
	case EMU_WL_I32:
		return 4;
	case EMU_WL_I8:
		return 1;
	default:
		return 0;
	}
}

/* Elements are little endian whatever the host is, and may be unaligned. */
static float ld_f32(const uint8_t *p)
{
	uint32_t u = get_le32(p);
	float f;

	memcpy(&f, &u, sizeof(f));
	return f;
}

static void st_f32(uint8_t *p, float f)
{
	uint32_t u;

	memcpy(&u, &f, sizeof(u));
	put_le32(p, u);
}

static float f32_of_bits(uint32_t u)
{
	float f;

	memcpy(&f, &u, sizeof(f));
	return f;
}

static int8_t sat8(int64_t v)
{
	return v > INT8_MAX ? INT8_MAX : v < INT8_MIN ? INT8_MIN : (int8_t)v;
}

/* a * b * c without wrapping; false if it would. */
static bool mul3(uint64_t a, uint64_t b, uint64_t c, uint64_t *r)
{
	return !__builtin_mul_overflow(a, b, r) && !__builtin_mul_overflow(*r, c, r);
}

/* ---- header ------------------------------------------------------------ */

/*
 * A wait (WAIT_EQUAL, WAIT_GT_EQ, WAIT_GT_0) or a signal (INIT, INC, DEC)
 * in the DBC semaphore encoding. An unused one is all zeros, DBC included,
 * so that garbage is never taken for "none".
 */
static bool sem_decode(uint32_t dbc, uint32_t word, bool wait, struct wl_sem *s)
{
	memset(s, 0, sizeof(*s));
	if (!(word & EMU_DBC_SEM_ENABLE))
		return !word && !dbc;
	if ((word & ~SEM_BITS) || dbc >= EMU_NUM_DBC)
		return false;
	s->on = true;
	s->dbc = dbc;
	s->cmd = (word >> 24) & 7;
	s->idx = (word >> 16) & 0x1f;
	s->val = word & EMU_DBC_SEM_MAX;
	if (wait)
		return s->cmd >= EMU_DBC_SEM_WAIT_EQUAL &&
		       s->cmd <= EMU_DBC_SEM_WAIT_GT_0;
	return s->cmd >= EMU_DBC_SEM_INIT && s->cmd <= EMU_DBC_SEM_DEC;
}

static uint32_t hdr_decode(const uint8_t *h, struct wl_hdr *hd)
{
	hd->nops = get_le32(h + EMU_WL_H_NOPS);
	if (get_le32(h + EMU_WL_H_FLAGS) || get_le64(h + EMU_WL_H_RSVD))
		return EMU_WL_E_HEADER;
	if (!sem_decode(get_le32(h + EMU_WL_H_WAIT_DBC),
			get_le32(h + EMU_WL_H_WAIT), true, &hd->wait) ||
	    !sem_decode(get_le32(h + EMU_WL_H_SIG0_DBC),
			get_le32(h + EMU_WL_H_SIG0), false, &hd->sig[0]) ||
	    !sem_decode(get_le32(h + EMU_WL_H_SIG1_DBC),
			get_le32(h + EMU_WL_H_SIG1), false, &hd->sig[1]))
		return EMU_WL_E_HEADER;
	if (hd->nops > EMU_WL_MAX_OPS)
		return EMU_WL_E_TOO_MANY;
	return EMU_WL_OK;
}

/* The header of the program at @p, or NULL if there is none there. */
static uint8_t *hdr_at(struct emu_workload *w, uint64_t p)
{
	uint8_t *h = emu_dbc_mem_ptr(w->e, p, EMU_WL_HDR_LEN);

	return h && get_le32(h + EMU_WL_H_MAGIC) == EMU_WL_MAGIC ? h : NULL;
}

/* Tell the host: state, error, failing op; @ended counts a run. */
static void hdr_result(struct emu_workload *w, uint64_t p, uint32_t state,
		       uint32_t err, uint32_t fail_op, bool ended)
{
	uint8_t *h = emu_dbc_mem_ptr(w->e, p, EMU_WL_HDR_LEN);

	if (!h)
		return;
	put_le32(h + EMU_WL_H_STATE, state);
	put_le32(h + EMU_WL_H_ERROR, err);
	put_le32(h + EMU_WL_H_FAIL_OP, fail_op);
	if (ended)
		put_le32(h + EMU_WL_H_RUNS, get_le32(h + EMU_WL_H_RUNS) + 1);
}

/* ---- semaphores -------------------------------------------------------- */

/* Is the wait met? WAIT_GT_0 then takes one, as the DBC's own does. */
static bool wait_met(struct emu_workload *w, const struct wl_sem *s)
{
	int v;

	if (!s->on)
		return true;
	v = emu_dbc_sem_get(w->e, s->dbc, s->idx);
	switch (s->cmd) {
	case EMU_DBC_SEM_WAIT_EQUAL:
		return v == s->val;
	case EMU_DBC_SEM_WAIT_GT_EQ:
		return v >= s->val;
	default:
		if (v <= 0)
			return false;
		emu_dbc_sem_set(w->e, s->dbc, s->idx, (uint16_t)(v - 1));
		return true;
	}
}

/*
 * INIT / INC / DEC, modulo 4096 like the DBC's own commands. The engine
 * runs the channel (its stalled requests) once the current call ends.
 */
static void send_signal(struct emu_workload *w, const struct wl_sem *s)
{
	int v;

	if (!s->on)
		return;
	v = emu_dbc_sem_get(w->e, s->dbc, s->idx);
	if (s->cmd == EMU_DBC_SEM_INIT)
		v = s->val;
	else if (s->cmd == EMU_DBC_SEM_INC)
		v++;
	else
		v--;
	emu_dbc_sem_set(w->e, s->dbc, s->idx, (uint16_t)(v & EMU_DBC_SEM_MAX));
	w->c.signals++;
}

/* ---- ops: checks ------------------------------------------------------- */

static void op_decode(const uint8_t *p, struct wl_op *o)
{
	memset(o, 0, sizeof(*o));
	o->code = p[EMU_WL_O_OPCODE];
	o->type = p[EMU_WL_O_TYPE];
	o->otype = p[EMU_WL_O_OTYPE];
	o->flags = p[EMU_WL_O_FLAGS];
	o->n = get_le32(p + EMU_WL_O_N);
	o->k = get_le32(p + EMU_WL_O_K);
	o->cols = get_le32(p + EMU_WL_O_COLS);
	o->src0 = get_le64(p + EMU_WL_O_SRC0);
	o->src1 = get_le64(p + EMU_WL_O_SRC1);
	o->dst = get_le64(p + EMU_WL_O_DST);
	o->aux = get_le64(p + EMU_WL_O_AUX);
}

/* Fields first, then sizes, then ranges: the most specific error wins. */
static uint32_t op_check(struct emu_workload *w, struct wl_op *o)
{
	unsigned int sz = type_size(o->type);
	bool two_inputs = o->code == EMU_WL_OP_ADD || o->code == EMU_WL_OP_MUL ||
			  o->code == EMU_WL_OP_MATMUL;
	bool bias = o->code == EMU_WL_OP_MATMUL && (o->flags & EMU_WL_F_BIAS);

	if (!o->code || o->code > EMU_WL_OP_MAX)
		return EMU_WL_E_OPCODE;
	if (!sz)
		return EMU_WL_E_TYPE;
	if (o->code == EMU_WL_OP_MATMUL && o->type == EMU_WL_I32)
		return EMU_WL_E_TYPE;
	if (o->code == EMU_WL_OP_CONVERT ? !type_size(o->otype) : o->otype)
		return o->code == EMU_WL_OP_CONVERT ? EMU_WL_E_TYPE : EMU_WL_E_FIELD;
	if (o->flags & ~(o->code == EMU_WL_OP_MATMUL ? EMU_WL_F_BIAS : 0))
		return EMU_WL_E_FIELD;
	if (!o->n || (!two_inputs && o->src1))
		return EMU_WL_E_FIELD;
	/* aux: SCALE's constant and CONVERT's scale are 32 bits; the bias. */
	switch (o->code) {
	case EMU_WL_OP_SCALE:
	case EMU_WL_OP_CONVERT:
		if (o->aux >> 32)
			return EMU_WL_E_FIELD;
		break;
	case EMU_WL_OP_MATMUL:
		if (!bias && o->aux)
			return EMU_WL_E_FIELD;
		break;
	default:
		if (o->aux)
			return EMU_WL_E_FIELD;
	}

	if (o->code == EMU_WL_OP_MATMUL) {
		if (!o->k || !o->cols)
			return EMU_WL_E_FIELD;
		/* Outputs: f32 for f32 inputs, i32 for i8 inputs; both 4 bytes. */
		if (!mul3(o->n, o->k, sz, &o->in0) ||
		    !mul3(o->k, o->cols, sz, &o->in1) ||
		    !mul3(o->n, o->cols, 4, &o->out) ||
		    !mul3(o->n, o->k, o->cols, &o->work))
			return EMU_WL_E_TOO_BIG;
		o->bias = bias ? (uint64_t)o->cols * 4 : 0;
	} else {
		if (o->k || o->cols)
			return EMU_WL_E_FIELD;
		o->in0 = (uint64_t)o->n * sz;
		o->in1 = two_inputs ? o->in0 : 0;
		if (o->code == EMU_WL_OP_CHECKSUM)
			o->out = 4;
		else if (o->code == EMU_WL_OP_CONVERT)
			o->out = (uint64_t)o->n * type_size(o->otype);
		else
			o->out = o->in0;
		o->work = o->code == EMU_WL_OP_CHECKSUM ? o->in0 : o->n;
	}
	if (o->in0 > EMU_WL_MAX_TENSOR || o->in1 > EMU_WL_MAX_TENSOR ||
	    o->out > EMU_WL_MAX_TENSOR || o->work > EMU_WL_MAX_WORK)
		return EMU_WL_E_TOO_BIG;
	if (!emu_dbc_mem_ptr(w->e, o->src0, o->in0) ||
	    (o->in1 && !emu_dbc_mem_ptr(w->e, o->src1, o->in1)) ||
	    !emu_dbc_mem_ptr(w->e, o->dst, o->out) ||
	    (o->bias && !emu_dbc_mem_ptr(w->e, o->aux, o->bias)))
		return EMU_WL_E_RANGE;
	return EMU_WL_OK;
}

/* ---- ops: execution ---------------------------------------------------- */

/*
 * A private copy of an input: every op reads all of its inputs before it
 * writes, so an output may overlap its inputs in any way.
 */
static uint8_t *in_copy(struct emu_workload *w, uint64_t addr, uint64_t len)
{
	uint8_t *buf = malloc(len);

	if (buf)
		memcpy(buf, emu_dbc_mem_ptr(w->e, addr, len), len);
	return buf;
}

/* ADD, MUL and SCALE (b == NULL: the constant @c instead of input 1). */
static void ew_arith(const struct wl_op *o, const uint8_t *a,
		     const uint8_t *b, uint32_t c, uint8_t *d)
{
	bool add = o->code == EMU_WL_OP_ADD;

	for (uint64_t i = 0; i < o->n; i++) {
		switch (o->type) {
		case EMU_WL_F32: {
			float x = ld_f32(a + 4 * i);
			float y = b ? ld_f32(b + 4 * i) : f32_of_bits(c);

			st_f32(d + 4 * i, add ? x + y : x * y);
			break;
		}
		case EMU_WL_I32: {
			/* Unsigned arithmetic: wraps modulo 2^32, no UB. */
			uint32_t x = get_le32(a + 4 * i);
			uint32_t y = b ? get_le32(b + 4 * i) : c;

			put_le32(d + 4 * i, add ? x + y : x * y);
			break;
		}
		default: {
			int64_t x = (int8_t)a[i];
			int64_t y = b ? (int8_t)b[i] : (int32_t)c;

			d[i] = (uint8_t)sat8(add ? x + y : x * y);
			break;
		}
		}
	}
}

static void ew_relu(const struct wl_op *o, const uint8_t *a, uint8_t *d)
{
	for (uint64_t i = 0; i < o->n; i++) {
		switch (o->type) {
		case EMU_WL_F32: {
			float x = ld_f32(a + 4 * i);

			/* NaN and -0 become +0: "x > 0 ? x : 0". */
			st_f32(d + 4 * i, x > 0.0f ? x : 0.0f);
			break;
		}
		case EMU_WL_I32: {
			int32_t x = (int32_t)get_le32(a + 4 * i);

			put_le32(d + 4 * i, x > 0 ? (uint32_t)x : 0);
			break;
		}
		default:
			d[i] = (int8_t)a[i] > 0 ? a[i] : 0;
			break;
		}
	}
}

/* Round half to even and saturate; NaN is 0. */
static int64_t to_int(double v, int64_t lo, int64_t hi)
{
	if (isnan(v))
		return 0;
	if (v <= (double)lo)
		return lo;
	if (v >= (double)hi)
		return hi;
	return (int64_t)nearbyint(v);
}

static void ew_convert(const struct wl_op *o, const uint8_t *a, uint8_t *d)
{
	double scale = f32_of_bits((uint32_t)o->aux);

	for (uint64_t i = 0; i < o->n; i++) {
		double v;

		switch (o->type) {
		case EMU_WL_F32:
			v = ld_f32(a + 4 * i);
			break;
		case EMU_WL_I32:
			v = (int32_t)get_le32(a + 4 * i);
			break;
		default:
			v = (int8_t)a[i];
			break;
		}
		/* Exact in double for all inputs: one rounding, at the end. */
		v *= scale;
		switch (o->otype) {
		case EMU_WL_F32:
			st_f32(d + 4 * i, (float)v);
			break;
		case EMU_WL_I32:
			put_le32(d + 4 * i, (uint32_t)to_int(v, INT32_MIN, INT32_MAX));
			break;
		default:
			d[i] = (uint8_t)to_int(v, INT8_MIN, INT8_MAX);
			break;
		}
	}
}

/*
 * out[i][j] = sum over p of A[i][p] * B[p][j] (+ bias[j]), row-major.
 * f32: binary32 accumulation in increasing p, bias added last. i8: exact
 * products, int32 accumulation wrapping modulo 2^32, bias (i32) added.
 * The loops run i, p, j so that B is read along its rows; every output
 * element still sums its terms in increasing p.
 */
static uint32_t op_matmul(struct emu_workload *w, const struct wl_op *o)
{
	uint64_t n = o->n, k = o->k, cols = o->cols;
	uint8_t *a = in_copy(w, o->src0, o->in0);
	uint8_t *b = in_copy(w, o->src1, o->in1);
	uint8_t *bias = o->bias ? in_copy(w, o->aux, o->bias) : NULL;
	/* f32 or u32 accumulators: 4 bytes either way, one buffer. */
	void *acc = calloc(n * cols, 4);
	uint32_t st = EMU_WL_E_NO_MEM;
	uint8_t *d;

	if (!a || !b || (o->bias && !bias) || !acc)
		goto out;
	if (o->type == EMU_WL_F32) {
		float *fa = acc;

		for (uint64_t i = 0; i < n; i++) {
			float *row = fa + i * cols;

			for (uint64_t p = 0; p < k; p++) {
				float x = ld_f32(a + 4 * (i * k + p));
				const uint8_t *brow = b + 4 * p * cols;

				for (uint64_t j = 0; j < cols; j++)
					row[j] += x * ld_f32(brow + 4 * j);
			}
			if (bias)
				for (uint64_t j = 0; j < cols; j++)
					row[j] += ld_f32(bias + 4 * j);
		}
	} else {
		uint32_t *ia = acc;

		for (uint64_t i = 0; i < n; i++) {
			uint32_t *row = ia + i * cols;

			for (uint64_t p = 0; p < k; p++) {
				int32_t x = (int8_t)a[i * k + p];
				const uint8_t *brow = b + p * cols;

				for (uint64_t j = 0; j < cols; j++)
					row[j] += (uint32_t)(x * (int8_t)brow[j]);
			}
			if (bias)
				for (uint64_t j = 0; j < cols; j++)
					row[j] += get_le32(bias + 4 * j);
		}
	}
	d = emu_dbc_mem_ptr(w->e, o->dst, o->out);
	for (uint64_t i = 0; i < n * cols; i++) {
		if (o->type == EMU_WL_F32)
			st_f32(d + 4 * i, ((const float *)acc)[i]);
		else
			put_le32(d + 4 * i, ((const uint32_t *)acc)[i]);
	}
	st = EMU_WL_OK;
out:
	free(a);
	free(b);
	free(bias);
	free(acc);
	return st;
}

static uint32_t op_exec(struct emu_workload *w, const struct wl_op *o)
{
	uint8_t *a, *b = NULL, *d;

	switch (o->code) {
	case EMU_WL_OP_COPY:
		memmove(emu_dbc_mem_ptr(w->e, o->dst, o->out),
			emu_dbc_mem_ptr(w->e, o->src0, o->in0), o->in0);
		return EMU_WL_OK;
	case EMU_WL_OP_CHECKSUM:
		put_le32(emu_dbc_mem_ptr(w->e, o->dst, 4),
			 emu_crc32(0, emu_dbc_mem_ptr(w->e, o->src0, o->in0), o->in0));
		return EMU_WL_OK;
	case EMU_WL_OP_MATMUL:
		return op_matmul(w, o);
	default:
		break;
	}
	a = in_copy(w, o->src0, o->in0);
	if (o->in1)
		b = in_copy(w, o->src1, o->in1);
	if (!a || (o->in1 && !b)) {
		free(a);
		free(b);
		return EMU_WL_E_NO_MEM;
	}
	d = emu_dbc_mem_ptr(w->e, o->dst, o->out);
	switch (o->code) {
	case EMU_WL_OP_ADD:
	case EMU_WL_OP_MUL:
	case EMU_WL_OP_SCALE:
		ew_arith(o, a, b, (uint32_t)o->aux, d);
		break;
	case EMU_WL_OP_RELU:
		ew_relu(o, a, d);
		break;
	default:
		ew_convert(o, a, d);
		break;
	}
	free(a);
	free(b);
	return EMU_WL_OK;
}

/* ---- programs ---------------------------------------------------------- */

/* Check all ops, then run them in order. EMU_WL_OK or the first error. */
static uint32_t prog_ops(struct emu_workload *w, uint64_t p, uint32_t nops,
			 uint32_t *fail_op)
{
	uint64_t work = 0;
	struct wl_op *ops;
	const uint8_t *tbl;
	uint32_t st = EMU_WL_OK, i;

	*fail_op = EMU_WL_NO_OP;
	if (!nops)
		return EMU_WL_OK;
	/* The header is in memory, so p + 64 cannot wrap. */
	tbl = emu_dbc_mem_ptr(w->e, p + EMU_WL_HDR_LEN,
			      (uint64_t)nops * EMU_WL_OP_LEN);
	if (!tbl)
		return EMU_WL_E_RANGE;
	ops = calloc(nops, sizeof(*ops));
	if (!ops)
		return EMU_WL_E_NO_MEM;
	for (i = 0; i < nops; i++)
		op_decode(tbl + (uint64_t)i * EMU_WL_OP_LEN, &ops[i]);
	for (i = 0; i < nops; i++) {
		st = op_check(w, &ops[i]);
		work += ops[i].work;
		if (!st && work > EMU_WL_MAX_WORK)
			st = EMU_WL_E_TOO_BIG;
		if (st)
			goto out;
	}
	for (i = 0; i < nops; i++) {
		st = op_exec(w, &ops[i]);
		if (st)
			goto out;
		w->c.ops++;
		w->c.work += ops[i].work;
	}
out:
	if (st)
		*fail_op = i;
	free(ops);
	return st;
}

/*
 * Run the program at @p now: ops, result into the header, then the
 * signals, also after a failed run (the header says how it went), so that
 * nothing the host queued behind it waits forever. Returns its error.
 */
static uint32_t prog_run(struct emu_workload *w, uint64_t p,
			 const struct wl_hdr *hd)
{
	uint32_t fail_op, st;

	w->c.programs++;
	st = prog_ops(w, p, hd->nops, &fail_op);
	if (st)
		w->c.errors++;
	else
		w->c.programs_ok++;
	hdr_result(w, p, st ? EMU_WL_ST_FAILED : EMU_WL_ST_DONE, st, fail_op,
		   true);
	send_signal(w, &hd->sig[0]);
	send_signal(w, &hd->sig[1]);
	return st;
}

static struct wl_pending *pending_find(struct emu_workload *w, uint64_t p)
{
	for (unsigned int i = 0; i < EMU_WL_MAX_PENDING; i++)
		if (w->pend[i].used && w->pend[i].addr == p)
			return &w->pend[i];
	return NULL;
}

static struct wl_pending *pending_add(struct emu_workload *w, uint64_t p)
{
	for (unsigned int i = 0; i < EMU_WL_MAX_PENDING; i++) {
		struct wl_pending *q = &w->pend[i];

		if (!q->used) {
			q->used = true;
			q->addr = p;
			q->seq = ++w->seq;
			return q;
		}
	}
	return NULL;
}

/* The doorbell hook: is the word rung the go word of a program? */
static uint16_t wl_doorbell(void *ctx, unsigned int id, uint64_t addr,
			    unsigned int len)
{
	struct emu_workload *w = ctx;
	struct wl_hdr hd;
	uint8_t *h;
	uint64_t p;
	uint32_t st;

	(void)id;
	(void)len;
	if (addr < EMU_WL_H_GO)
		return EMU_DBC_OK;
	p = addr - EMU_WL_H_GO;
	h = hdr_at(w, p);
	if (!h)
		return EMU_DBC_OK;	/* an ordinary doorbell */
	w->c.doorbells++;
	/* Rung again while it waits: it still starts once. */
	if (pending_find(w, p))
		return EMU_DBC_OK;
	st = hdr_decode(h, &hd);
	if (st) {
		/* No ops, no signals: nothing of it can be trusted. */
		w->c.errors++;
		hdr_result(w, p, EMU_WL_ST_FAILED, st, EMU_WL_NO_OP, true);
		return EMU_DBC_E_WORKLOAD;
	}
	if (!wait_met(w, &hd.wait)) {
		if (!pending_add(w, p)) {
			w->c.errors++;
			hdr_result(w, p, EMU_WL_ST_FAILED, EMU_WL_E_BUSY,
				   EMU_WL_NO_OP, true);
			return EMU_DBC_E_WORKLOAD;
		}
		w->c.waits++;
		hdr_result(w, p, EMU_WL_ST_PENDING, EMU_WL_OK, EMU_WL_NO_OP,
			   false);
		return EMU_DBC_OK;
	}
	return prog_run(w, p, &hd) ? EMU_DBC_E_WORKLOAD : EMU_DBC_OK;
}

/*
 * The idle hook: start the waiting programs whose semaphore condition
 * holds now, oldest first. The header is read again: the host may have
 * loaded the program's inputs, or a new program, since it was rung.
 */
static bool wl_idle(void *ctx)
{
	struct emu_workload *w = ctx;
	uint64_t seen = 0;	/* each waiting program is looked at once */
	bool did = false;

	for (;;) {
		struct wl_pending *q = NULL;
		struct wl_hdr hd;
		uint8_t *h;
		uint64_t p;
		uint32_t st;

		for (unsigned int i = 0; i < EMU_WL_MAX_PENDING; i++) {
			struct wl_pending *c = &w->pend[i];

			if (c->used && c->seq > seen &&
			    (!q || c->seq < q->seq))
				q = c;
		}
		if (!q)
			break;
		seen = q->seq;
		p = q->addr;
		h = hdr_at(w, p);
		if (!h) {
			/* Overwritten while it waited: not a program any more. */
			q->used = false;
			w->c.errors++;
			did = true;
			continue;
		}
		st = hdr_decode(h, &hd);
		if (st) {
			q->used = false;
			w->c.errors++;
			hdr_result(w, p, EMU_WL_ST_FAILED, st, EMU_WL_NO_OP, true);
			did = true;
			continue;
		}
		if (!wait_met(w, &hd.wait))
			continue;
		q->used = false;
		prog_run(w, p, &hd);
		did = true;
	}
	return did;
}

static const struct emu_dbc_hooks wl_hooks = {
	.doorbell = wl_doorbell,
	.idle = wl_idle,
};

/* ---- API --------------------------------------------------------------- */

struct emu_workload *emu_workload_create(struct emu_dbc *e)
{
	struct emu_workload *w = calloc(1, sizeof(*w));

	if (!w)
		return NULL;
	w->e = e;
	emu_dbc_set_hooks(e, &wl_hooks, w);
	return w;
}

void emu_workload_destroy(struct emu_workload *w)
{
	if (!w)
		return;
	emu_dbc_set_hooks(w->e, NULL, NULL);
	free(w);
}

void emu_workload_reset(struct emu_workload *w)
{
	memset(w->pend, 0, sizeof(w->pend));
}

void emu_workload_get_counters(const struct emu_workload *w,
			       struct emu_workload_counters *out)
{
	*out = w->c;
}

void emu_workload_counters_print(const struct emu_workload *w, FILE *out)
{
	const struct emu_workload_counters *c = &w->c;
	unsigned int pending = 0;

	for (unsigned int i = 0; i < EMU_WL_MAX_PENDING; i++)
		pending += w->pend[i].used;
	fprintf(out, "wl_doorbells %" PRIu64 "\n", c->doorbells);
	fprintf(out, "wl_programs %" PRIu64 "\n", c->programs);
	fprintf(out, "wl_programs_ok %" PRIu64 "\n", c->programs_ok);
	fprintf(out, "wl_ops %" PRIu64 "\n", c->ops);
	fprintf(out, "wl_work %" PRIu64 "\n", c->work);
	fprintf(out, "wl_errors %" PRIu64 "\n", c->errors);
	fprintf(out, "wl_waits %" PRIu64 "\n", c->waits);
	fprintf(out, "wl_signals %" PRIu64 "\n", c->signals);
	fprintf(out, "wl_pending %u\n", pending);
}
