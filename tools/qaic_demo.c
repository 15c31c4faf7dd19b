// SPDX-License-Identifier: GPL-2.0-only
/*
 * qaic-demo: run a small neural network on a Cloud AI 100 through
 * /dev/accel/accelN, the way an inference runtime would, and check every
 * result against the same network computed on the host.
 *
 * The network is a 2-layer perceptron on fixed weights,
 *	y = relu(x W1 + b1) W2 + b2,	x: 64, hidden: 32, y: 10 (fp32),
 * run on batches of 16 samples. On the emulated card it is a workload
 * program (tests/emu/manual.rst, "The workload model").
 *
 * 1. Load the network as Qualcomm's open runtime does, with
 *    DRM_IOCTL_QAIC_MANAGE and the firmware's NNC commands: the program as
 *    an ELF image (LOAD_ELF, its bytes by DMA transfer), the weights as its
 *    constants (LOAD_CONSTANTS); then activate it (ACTIVATE_REQ with the
 *    ACTIVATE transaction): the card places both in device memory and runs
 *    the network on the DMA Bridge Channel (DBC) it grants.
 * 3. For each inference, two buffer objects queued together: the input
 *    batch (to the device; its doorbell starts the program) and the output
 *    (from the device; it waits on a DBC semaphore the program increments
 *    when the outputs are written). Four such pairs are kept in flight.
 * 4. Check each output against the host's computation of the same network,
 *    read back the program's header (state and run count), print results
 *    and throughput.
 * 5. Deactivate the network (DEACTIVATE_REQ with the DEACTIVATE
 *    transaction) and unload it (UNLOAD_ELF, UNLOAD_CONSTANTS).
 *
 * usage: qaic-demo [-n INFERENCES] [-i INPUT_FILE] [-v]
 * INPUT_FILE holds little-endian float32 samples of 64 values each; they
 * are used in order, cycling. Without it the inputs are pseudo-random.
 *
 * Copyright (c) 2026 The qaic authors.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <xf86drm.h>

#include <drm/qaic_accel.h>

#define IN_DIM		64
#define HID_DIM		32
#define OUT_DIM		10
#define BATCH		16
#define INFLIGHT	4
#define QUEUE_SIZE	64

/* Device memory map (the card has 256 MiB at device addresses 0..). */
#define DEV_PROG	0x100000ull
#define DEV_W1		0x200000ull
#define DEV_B1		0x210000ull
#define DEV_W2		0x220000ull
#define DEV_B2		0x230000ull
#define DEV_X		0x400000ull
#define DEV_H		0x410000ull
#define DEV_Y		0x420000ull

/* Workload program format (tests/emu/workload.h). */
#define WL_MAGIC	0x314c5751u
#define WL_HDR_LEN	64
#define WL_OP_LEN	48
#define WL_GO		4
#define WL_STATE	8
#define WL_ERROR	12
#define WL_RUNS		20
#define WL_NOPS		24
#define WL_SIG0_DBC	40
#define WL_SIG0		44
#define WL_OP_MATMUL	6
#define WL_OP_RELU	5
#define WL_F32		1
#define WL_F_BIAS	1
#define WL_ST_DONE	2

/* DBC semaphore command word: enable, command, index, value. */
#define SEM_WORD(cmd, idx, val)	((1u << 31) | (uint32_t)(cmd) << 24 | \
				 (uint32_t)(idx) << 16 | (uint32_t)(val))
#define SEM_READY	0	/* the semaphore the program increments */

#define PAGE		4096u
#define X_BYTES		(BATCH * IN_DIM * 4)
#define Y_BYTES		(BATCH * OUT_DIM * 4)

struct bo {
	uint32_t handle;
	uint64_t size;
	uint8_t *map;
};

struct net {
	float w1[IN_DIM * HID_DIM], b1[HID_DIM];
	float w2[HID_DIM * OUT_DIM], b2[OUT_DIM];
};

static int fd = -1;
static uint32_t dbc;
static bool verbose;

static void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("qaic-demo: ", stderr);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

static int xioctl(unsigned long req, void *arg)
{
	int ret;

	do
		ret = ioctl(fd, req, arg);
	while (ret == -1 && (errno == EINTR || errno == EAGAIN));
	return ret ? -errno : 0;
}

static int open_card(char *path, size_t len)
{
	for (int i = 0; i < 64; i++) {
		drmVersionPtr v;
		int f;

		snprintf(path, len, "/dev/accel/accel%d", i);
		f = open(path, O_RDWR | O_CLOEXEC);
		if (f < 0)
			continue;
		v = drmGetVersion(f);
		if (v && !strcmp(v->name, "qaic")) {
			drmFreeVersion(v);
			return f;
		}
		drmFreeVersion(v);
		close(f);
	}
	return -1;
}

/*
 * The firmware's NNC commands (Qualcomm's open runtime,
 * lib/runtime-platform/inc/QNncProtocol.h), little endian, packed; each
 * goes in a passthrough transaction and its answer comes back in one.
 */
#define NNC_LOAD_CONSTANTS_REQ	1
#define NNC_LOAD_ELF_REQ	3
#define NNC_UNLOAD_CONSTANTS_REQ 5
#define NNC_UNLOAD_ELF_REQ	7
#define NNC_ACTIVATE_REQ	9
#define NNC_DEACTIVATE_REQ	11
#define NNC_NAME_LEN		64
#define ELF_TAG			1	/* the transfer a command names */
#define CONSTANTS_TAG		2

/* A MANAGE message being built: transactions back to back */
struct mmsg {
	uint32_t len, count;
	uint8_t buf[QAIC_MANAGE_MAX_MSG_LENGTH] __attribute__((aligned(8)));
};

static void *mmsg_add(struct mmsg *m, uint32_t type, uint32_t len)
{
	struct qaic_manage_trans_hdr *h = (void *)(m->buf + m->len);

	memset(h, 0, len);
	h->type = type;
	h->len = len;
	m->len += len;
	m->count++;
	return h;
}

/* A passthrough with the command @cmd of @len bytes (a multiple of 8) */
static void mmsg_command(struct mmsg *m, const void *cmd, uint32_t len)
{
	uint8_t *t = mmsg_add(m, QAIC_TRANS_PASSTHROUGH_FROM_USR, 8 + len);

	memcpy(t + 8, cmd, len);
}

/* Sends @m; the answer's first transaction: the firmware's, as u32 words */
static const uint32_t *mmsg_send(struct mmsg *m, const char *what, uint32_t min_len)
{
	struct qaic_manage_msg msg = { .len = m->len, .count = m->count,
				       .data = (uintptr_t)m->buf };
	const struct qaic_manage_trans_hdr *h = (const void *)m->buf;
	int ret = xioctl(DRM_IOCTL_QAIC_MANAGE, &msg);

	if (ret)
		die("%s: MANAGE: %s", what, strerror(-ret));
	m->count = msg.count;
	if (!msg.count || h->type != QAIC_TRANS_PASSTHROUGH_FROM_DEV || h->len < 8 + min_len)
		die("%s: the card's answer is not the firmware's", what);
	return (const uint32_t *)(m->buf + 8);
}

/* The status word @i of the firmware's answer @a to @what: 0, or dies */
static void fw_ok(const uint32_t *a, int i, const char *what)
{
	if ((int32_t)a[i])
		die("%s: the card's firmware says %d", what, (int32_t)a[i]);
}

/* LOAD_ELF (@tag's transfer @data, @len) or LOAD_CONSTANTS; the id */
static uint32_t fw_load(bool elf, const void *data, uint64_t len)
{
	uint32_t cmd[24] = {};	/* 96 and 88 bytes */
	struct qaic_manage_trans_dma_xfer *x;
	const char *what = elf ? "LOAD_ELF" : "LOAD_CONSTANTS";
	static struct mmsg m;
	const uint32_t *a;

	if (elf) {
		cmd[0] = NNC_LOAD_ELF_REQ;
		cmd[1] = ELF_TAG;
		cmd[2] = getpid();
		snprintf((char *)&cmd[4], NNC_NAME_LEN, "qaic-demo perceptron");
		cmd[20] = len;
		cmd[21] = len >> 32;
	} else {
		cmd[0] = NNC_LOAD_CONSTANTS_REQ;
		cmd[1] = getpid();
		cmd[2] = CONSTANTS_TAG;
		cmd[4] = len;
		cmd[5] = len >> 32;
		snprintf((char *)&cmd[6], NNC_NAME_LEN, "qaic-demo weights");
	}
	m.len = m.count = 0;
	mmsg_command(&m, cmd, elf ? 96 : 88);
	x = mmsg_add(&m, QAIC_TRANS_DMA_XFER_FROM_USR, sizeof(*x));
	x->tag = elf ? ELF_TAG : CONSTANTS_TAG;
	x->addr = (uintptr_t)data;
	x->size = len;
	a = mmsg_send(&m, what, 16);
	fw_ok(a, 2, what);
	return a[1];
}

/* ACTIVATE_REQ with the ACTIVATE transaction: the activation; *@vc its DBC */
static uint32_t fw_activate(uint32_t elf_id, uint32_t constants_id, uint32_t *vc)
{
	uint32_t cmd[12] = { NNC_ACTIVATE_REQ, getpid(), constants_id, elf_id,
			     0, (uint32_t)-1, 1, (uint32_t)-1 };
	struct qaic_manage_trans_activate_to_dev *act;
	const struct qaic_manage_trans_activate_from_dev *granted;
	static struct mmsg m;
	const uint32_t *a;

	m.len = m.count = 0;
	mmsg_command(&m, cmd, sizeof(cmd));
	act = mmsg_add(&m, QAIC_TRANS_ACTIVATE_FROM_USR, sizeof(*act));
	act->queue_size = QUEUE_SIZE;
	a = mmsg_send(&m, "ACTIVATE_REQ", 88);
	fw_ok(a, 1, "ACTIVATE_REQ");
	granted = (const void *)(m.buf + ((const struct qaic_manage_trans_hdr *)m.buf)->len);
	if (m.count != 2 || granted->hdr.type != QAIC_TRANS_ACTIVATE_FROM_DEV ||
	    granted->status || granted->dbc_id != a[3])
		die("ACTIVATE_REQ: no DMA Bridge Channel granted with it");
	*vc = a[3];
	return a[2];
}

/* DEACTIVATE_REQ with the DEACTIVATE transaction of the activation's DBC */
static void fw_deactivate(uint32_t activation_id)
{
	uint32_t cmd[4] = { NNC_DEACTIVATE_REQ, activation_id, 1 };
	struct qaic_manage_trans_deactivate *d;
	static struct mmsg m;

	m.len = m.count = 0;
	mmsg_command(&m, cmd, sizeof(cmd));
	d = mmsg_add(&m, QAIC_TRANS_DEACTIVATE_FROM_USR, sizeof(*d));
	d->dbc_id = dbc;
	fw_ok(mmsg_send(&m, "DEACTIVATE_REQ", 8), 1, "DEACTIVATE_REQ");
}

static void fw_unload(uint32_t type, uint32_t id)
{
	uint32_t cmd[2] = { type, id };
	static struct mmsg m;

	m.len = m.count = 0;
	mmsg_command(&m, cmd, sizeof(cmd));
	fw_ok(mmsg_send(&m, "UNLOAD", 8), 1, "UNLOAD");
}

static struct bo bo_new(uint64_t size)
{
	struct qaic_create_bo c = { .size = size };
	struct qaic_mmap_bo m = {};
	struct bo b = { .size = size };
	int ret;

	ret = xioctl(DRM_IOCTL_QAIC_CREATE_BO, &c);
	if (ret)
		die("CREATE_BO %llu: %s", (unsigned long long)size, strerror(-ret));
	m.handle = c.handle;
	ret = xioctl(DRM_IOCTL_QAIC_MMAP_BO, &m);
	if (ret)
		die("MMAP_BO: %s", strerror(-ret));
	b.handle = c.handle;
	b.map = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, m.offset);
	if (b.map == MAP_FAILED)
		die("mmap: %s", strerror(errno));
	return b;
}

static void bo_attach(const struct bo *b, uint32_t dir,
		      struct qaic_attach_slice_entry *ents, uint32_t n)
{
	struct qaic_attach_slice a = {
		.hdr = { .count = n, .dbc_id = dbc, .handle = b->handle, .dir = dir },
		.data = (uintptr_t)ents,
	};
	int ret = xioctl(DRM_IOCTL_QAIC_ATTACH_SLICE_BO, &a);

	if (ret)
		die("ATTACH_SLICE_BO: %s", strerror(-ret));
}

static void execute(const struct qaic_execute_entry *ents, uint32_t n)
{
	struct qaic_execute x = {
		.hdr = { .count = n, .dbc_id = dbc }, .data = (uintptr_t)ents,
	};
	int ret = xioctl(DRM_IOCTL_QAIC_EXECUTE_BO, &x);

	if (ret)
		die("EXECUTE_BO: %s", strerror(-ret));
}

static void wait_bo(const struct bo *b)
{
	struct qaic_wait w = { .handle = b->handle, .timeout = 10000, .dbc_id = dbc };
	int ret = xioctl(DRM_IOCTL_QAIC_WAIT_BO, &w);

	if (ret)
		die("WAIT_BO: %s", strerror(-ret));
}

static void put32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = v >> (8 * i);
}

static void put64(uint8_t *p, uint64_t v)
{
	put32(p, v);
	put32(p + 4, v >> 32);
}

static uint32_t get32(const uint8_t *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

static void put_f32s(uint8_t *p, const float *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		uint32_t bits;

		memcpy(&bits, &v[i], 4);
		put32(p + 4 * i, bits);
	}
}

static void op_matmul(uint8_t *op, uint32_t n, uint32_t k, uint32_t cols,
		      uint64_t a, uint64_t b, uint64_t dst, uint64_t bias)
{
	op[0] = WL_OP_MATMUL;
	op[1] = WL_F32;
	op[3] = WL_F_BIAS;
	put32(op + 4, n);
	put32(op + 8, k);
	put32(op + 12, cols);
	put64(op + 16, a);
	put64(op + 24, b);
	put64(op + 32, dst);
	put64(op + 40, bias);
}

/* The program: three ops, and a signal when the outputs are in. */
static size_t build_program(uint8_t *p)
{
	uint8_t *ops = p + WL_HDR_LEN;

	memset(p, 0, WL_HDR_LEN + 3 * WL_OP_LEN);
	put32(p, WL_MAGIC);
	put32(p + WL_NOPS, 3);
	/* The DBC of the semaphore: the card's firmware sets the activation's */
	put32(p + WL_SIG0_DBC, 0);
	put32(p + WL_SIG0, SEM_WORD(QAIC_SEM_INC, SEM_READY, 0));

	op_matmul(ops, BATCH, IN_DIM, HID_DIM, DEV_X, DEV_W1, DEV_H, DEV_B1);
	ops += WL_OP_LEN;
	ops[0] = WL_OP_RELU;
	ops[1] = WL_F32;
	put32(ops + 4, BATCH * HID_DIM);
	put64(ops + 16, DEV_H);
	put64(ops + 32, DEV_H);
	ops += WL_OP_LEN;
	op_matmul(ops, BATCH, HID_DIM, OUT_DIM, DEV_H, DEV_W2, DEV_Y, DEV_B2);
	return WL_HDR_LEN + 3 * WL_OP_LEN;
}

/* xorshift32: the same weights and default inputs on every run. */
static uint32_t rnd_state = 2463534242u;

static float rnd_unit(void)
{
	rnd_state ^= rnd_state << 13;
	rnd_state ^= rnd_state >> 17;
	rnd_state ^= rnd_state << 5;
	return (float)((double)rnd_state / 4294967296.0 * 2.0 - 1.0);
}

static void make_net(struct net *n)
{
	for (size_t i = 0; i < IN_DIM * HID_DIM; i++)
		n->w1[i] = rnd_unit() * 0.25f;
	for (size_t i = 0; i < HID_DIM; i++)
		n->b1[i] = rnd_unit() * 0.1f;
	for (size_t i = 0; i < HID_DIM * OUT_DIM; i++)
		n->w2[i] = rnd_unit() * 0.25f;
	for (size_t i = 0; i < OUT_DIM; i++)
		n->b2[i] = rnd_unit() * 0.1f;
}

/* The network on the host, in the card's order of operations. */
static void forward(const struct net *n, const float *x, float *y)
{
	float h[BATCH * HID_DIM];

	for (int r = 0; r < BATCH; r++) {
		for (int c = 0; c < HID_DIM; c++) {
			float acc = 0.0f;

			for (int k = 0; k < IN_DIM; k++)
				acc += x[r * IN_DIM + k] * n->w1[k * HID_DIM + c];
			acc += n->b1[c];
			h[r * HID_DIM + c] = acc > 0.0f ? acc : 0.0f;
		}
		for (int c = 0; c < OUT_DIM; c++) {
			float acc = 0.0f;

			for (int k = 0; k < HID_DIM; k++)
				acc += h[r * HID_DIM + k] * n->w2[k * OUT_DIM + c];
			y[r * OUT_DIM + c] = acc + n->b2[c];
		}
	}
}

/* Loads the program and the weights with one object of five slices. */
/*
 * The network as an ELF image (the emulated card's firmware reads its
 * PT_LOAD program headers: tests/emu/manual.rst): the
 * program for DEV_PROG, and a segment without bytes for DEV_W1 where the
 * card puts the constants, the four weight tensors at their offsets.
 */
#define ELF_EHDR	64
#define ELF_PHDR	56
#define CONSTANTS_SPAN	(DEV_B2 + PAGE - DEV_W1)

struct loaded {
	uint32_t elf_id, constants_id, activation_id;
};

static void put_phdr(uint8_t *h, uint64_t off, uint64_t filesz, uint64_t paddr,
		     uint64_t memsz)
{
	put32(h, 1);			/* PT_LOAD */
	put32(h + 4, 4);		/* PF_R */
	put64(h + 8, off);
	put64(h + 16, paddr);		/* p_vaddr */
	put64(h + 24, paddr);		/* p_paddr: the device address */
	put64(h + 32, filesz);
	put64(h + 40, memsz);
	put64(h + 48, 8);
}

static size_t build_elf(uint8_t *img)
{
	const size_t data = ELF_EHDR + 2 * ELF_PHDR;
	size_t prog;

	memset(img, 0, data);
	memcpy(img, "\x7f" "ELF", 4);
	img[4] = 2;			/* 64-bit */
	img[5] = 1;			/* little endian */
	img[6] = 1;			/* version */
	img[16] = 2;			/* ET_EXEC */
	img[18] = 0xa4;			/* EM_QDSP6, the card's NSPs */
	put32(img + 20, 1);
	put64(img + 32, ELF_EHDR);	/* e_phoff */
	img[52] = ELF_EHDR;		/* e_ehsize */
	img[54] = ELF_PHDR;		/* e_phentsize */
	img[56] = 2;			/* e_phnum */
	prog = build_program(img + data);
	put_phdr(img + ELF_EHDR, data, prog, DEV_PROG, prog);
	put_phdr(img + ELF_EHDR + ELF_PHDR, 0, 0, DEV_W1, CONSTANTS_SPAN);
	return data + prog;
}

static struct loaded load_network(const struct net *n)
{
	static uint8_t img[ELF_EHDR + 2 * ELF_PHDR + WL_HDR_LEN + 3 * WL_OP_LEN];
	static uint8_t k[CONSTANTS_SPAN];
	struct loaded l;
	size_t len = build_elf(img);

	put_f32s(k + (DEV_W1 - DEV_W1), n->w1, IN_DIM * HID_DIM);
	put_f32s(k + (DEV_B1 - DEV_W1), n->b1, HID_DIM);
	put_f32s(k + (DEV_W2 - DEV_W1), n->w2, HID_DIM * OUT_DIM);
	put_f32s(k + (DEV_B2 - DEV_W1), n->b2, OUT_DIM);
	l.elf_id = fw_load(true, img, len);
	l.constants_id = fw_load(false, k, sizeof(k));
	printf("loaded: ELF %u (program, 3 ops, %zu bytes) and constants %u (%zu bytes of weights)\n",
	       l.elf_id, len, l.constants_id, sizeof(k));
	l.activation_id = fw_activate(l.elf_id, l.constants_id, &dbc);
	return l;
}

struct slot {
	struct bo in, out;
	long inference;	/* the one in flight, or -1 */
	float x[BATCH * IN_DIM];
};

static void setup_slot(struct slot *s)
{
	struct qaic_attach_slice_entry in = {
		.size = X_BYTES, .dev_addr = DEV_X,
		/* Written after the transfer: starts the program. */
		.db_addr = DEV_PROG + WL_GO, .db_data = 1, .db_len = 32,
	};
	struct qaic_attach_slice_entry out = {
		.size = Y_BYTES, .dev_addr = DEV_Y,
		/* Before the transfer: wait until the program ran (and take it). */
		.sem0 = { .cmd = QAIC_SEM_WAIT_GT_0, .index = SEM_READY, .presync = 1 },
	};

	s->in = bo_new(X_BYTES);
	s->out = bo_new(PAGE);
	bo_attach(&s->in, 1, &in, 1);
	bo_attach(&s->out, 2, &out, 1);
	s->inference = -1;
}

struct inputs {
	float *samples;
	size_t count;
};

static void load_inputs(struct inputs *in, const char *path)
{
	struct stat st;
	uint8_t *raw;
	FILE *f;

	if (!path) {
		in->count = 4096;
		in->samples = malloc(in->count * IN_DIM * sizeof(float));
		if (!in->samples)
			die("out of memory");
		for (size_t i = 0; i < in->count * IN_DIM; i++)
			in->samples[i] = rnd_unit();
		return;
	}
	f = fopen(path, "rb");
	if (!f || fstat(fileno(f), &st))
		die("%s: %s", path, strerror(errno));
	in->count = st.st_size / (IN_DIM * 4);
	if (!in->count)
		die("%s: needs at least one sample of %d float32 values", path, IN_DIM);
	raw = malloc(in->count * IN_DIM * 4);
	in->samples = malloc(in->count * IN_DIM * sizeof(float));
	if (!raw || !in->samples)
		die("out of memory");
	if (fread(raw, 4, in->count * IN_DIM, f) != in->count * IN_DIM)
		die("%s: short read", path);
	fclose(f);
	for (size_t i = 0; i < in->count * IN_DIM; i++) {
		uint32_t bits = get32(raw + 4 * i);

		memcpy(&in->samples[i], &bits, 4);
	}
	free(raw);
	printf("inputs: %zu samples from %s\n", in->count, path);
}

struct tally {
	long checked, passed;
	double max_err;
};

/* Compares an output batch with the host's; prints the predicted classes. */
static void check(const struct net *n, struct slot *s, struct tally *t)
{
	float ref[BATCH * OUT_DIM], got[BATCH * OUT_DIM];
	int cls[BATCH];
	bool ok = true;

	forward(n, s->x, ref);
	for (int i = 0; i < BATCH * OUT_DIM; i++) {
		uint32_t bits = get32(s->out.map + 4 * i);
		double err;

		memcpy(&got[i], &bits, 4);
		err = fabs((double)got[i] - ref[i]);
		if (!(err <= 1e-5 * (1.0 + fabs(ref[i])))) {
			ok = false;
			err = isnan(err) ? INFINITY : err;
		}
		if (err > t->max_err)
			t->max_err = err;
	}
	for (int r = 0; r < BATCH; r++) {
		cls[r] = 0;
		for (int c = 1; c < OUT_DIM; c++)
			if (got[r * OUT_DIM + c] > got[r * OUT_DIM + cls[r]])
				cls[r] = c;
	}

	t->checked++;
	t->passed += ok;
	if (verbose || s->inference < 3 || !ok) {
		printf("inference %ld: %s; classes", s->inference, ok ? "ok" : "MISMATCH");
		for (int r = 0; r < BATCH; r++)
			printf(" %d", cls[r]);
		printf("\n");
	}
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Reads the program header back from the card. */
static void read_header(uint32_t *state, uint32_t *error, uint32_t *runs)
{
	struct qaic_attach_slice_entry e = { .size = WL_HDR_LEN, .dev_addr = DEV_PROG };
	struct bo b = bo_new(PAGE);
	struct qaic_execute_entry x = { .dir = 2 };

	bo_attach(&b, 2, &e, 1);
	x.handle = b.handle;
	execute(&x, 1);
	wait_bo(&b);
	*state = get32(b.map + WL_STATE);
	*error = get32(b.map + WL_ERROR);
	*runs = get32(b.map + WL_RUNS);
}

int main(int argc, char **argv)
{
	static struct slot slots[INFLIGHT];
	const char *input = NULL;
	struct tally t = {};
	struct inputs in;
	uint32_t state, error, runs;
	long count = 256, next = 0;
	char path[64];
	struct loaded net_ids;
	struct net net;
	double t0, dt;
	int opt;

	while ((opt = getopt(argc, argv, "n:i:vh")) != -1) {
		switch (opt) {
		case 'n':
			count = strtol(optarg, NULL, 0);
			if (count < 1)
				die("-n needs a positive count");
			break;
		case 'i':
			input = optarg;
			break;
		case 'v':
			verbose = true;
			break;
		default:
			fprintf(stderr, "usage: qaic-demo [-n INFERENCES] [-i INPUT_FILE] [-v]\n");
			return opt == 'h' ? 0 : 2;
		}
	}

	fd = open_card(path, sizeof(path));
	if (fd < 0)
		die("no qaic card under /dev/accel");
	printf("network: 2-layer perceptron %d -> %d (relu) -> %d, fp32, batches of %d\n",
	       IN_DIM, HID_DIM, OUT_DIM, BATCH);

	make_net(&net);
	load_inputs(&in, input);
	net_ids = load_network(&net);
	printf("card: %s, network activated (activation %u) on DMA Bridge Channel %u (%d-slot rings)\n",
	       path, net_ids.activation_id, dbc, QUEUE_SIZE);
	for (int i = 0; i < INFLIGHT; i++)
		setup_slot(&slots[i]);

	t0 = now();
	for (long done = 0; done < count; ) {
		struct slot *s = &slots[next % INFLIGHT];

		if (s->inference >= 0) {
			wait_bo(&s->out);
			check(&net, s, &t);
			s->inference = -1;
			done++;
		}
		if (next < count) {
			struct qaic_execute_entry e[2] = {
				{ .handle = s->in.handle, .dir = 1 },
				{ .handle = s->out.handle, .dir = 2 },
			};

			for (int r = 0; r < BATCH; r++)
				memcpy(&s->x[r * IN_DIM],
				       &in.samples[((next * BATCH + r) % in.count) * IN_DIM],
				       IN_DIM * sizeof(float));
			put_f32s(s->in.map, s->x, BATCH * IN_DIM);
			execute(e, 2);
			s->inference = next;
		}
		next++;
	}
	dt = now() - t0;

	read_header(&state, &error, &runs);
	printf("checks: %ld of %ld inferences match the host's computation (max |error| %.3g)\n",
	       t.passed, t.checked, t.max_err);
	printf("checks: the card ran the program %u times (expected %ld), last state %s, error %u\n",
	       runs, count, state == WL_ST_DONE ? "done" : "not done", error);
	printf("throughput: %.0f inferences/s, %.0f samples/s (%ld inferences in %.3f s, %d in flight)\n",
	       count / dt, count * BATCH / dt, count, dt, INFLIGHT);

	fw_deactivate(net_ids.activation_id);
	fw_unload(NNC_UNLOAD_ELF_REQ, net_ids.elf_id);
	fw_unload(NNC_UNLOAD_CONSTANTS_REQ, net_ids.constants_id);
	printf("unloaded: deactivated, ELF and constants unloaded\n");

	if (t.passed != count || runs != (uint32_t)count || state != WL_ST_DONE || error) {
		printf("RESULT: FAIL\n");
		return 1;
	}
	printf("RESULT: PASS\n");
	return 0;
}
