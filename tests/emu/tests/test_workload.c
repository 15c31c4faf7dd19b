// SPDX-License-Identifier: GPL-2.0-only
/*
 * The workload model: programs put into device memory, rung through real
 * DBC requests on active channels (REQTP through the BAR dispatch, as the
 * host does), outputs read back from device memory or by from-device
 * transfers gated on the semaphores the programs signal. Every op against
 * a reference computed here; malformed programs; a 2-layer MLP in fp32
 * and in int8, loaded and run the way a host would.
 *
 * Copyright (c) 2026 The qaic authors.
 */
#include <inttypes.h>
#include <linux/pci_regs.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dbc.h"
#include "device.h"
#include "emu_test.h"
#include "le_bytes.h"
#include "manager.h"
#include "workload.h"

#define GUEST_GPA	0x100000ull
#define GUEST_SIZE	(4u << 20)
#define RINGS		(GUEST_GPA + 0x10000)	/* DBC i: RINGS + i * RING_SPAN */
#define RING_SPAN	0x2000ull
#define NELEM		64
#define BUF		(GUEST_GPA + 0x200000)	/* data buffers */
#define MSI_DATA0	100
#define DEV_MEM		(16ull << 20)

static struct emu_device dev;
static struct guest_mem gmem;
static uint8_t *guest;
static struct emu_dbc *eng;
static struct emu_workload *wl;
static unsigned int msis[32];
static uint32_t tail[EMU_NUM_DBC];	/* our REQTP per DBC */
static uint32_t db_seq;

static void record_msi(void *ctx, const struct emu_msi_msg *msg)
{
	(void)ctx;
	if (msg->data >= MSI_DATA0 && msg->data < MSI_DATA0 + 32)
		msis[msg->data - MSI_DATA0]++;
}

static uint8_t *g(uint64_t gpa)
{
	return guest + (gpa - GUEST_GPA);
}

static uint64_t req_ring(unsigned int id)
{
	return RINGS + id * RING_SPAN;
}

static uint64_t rsp_ring(unsigned int id)
{
	return req_ring(id) + NELEM * EMU_DBC_REQ_ELEM;
}

static void activate(unsigned int id)
{
	struct emu_dbc_cfg cfg = {
		.active = true,
		.req_q_addr = req_ring(id),
		.rsp_q_addr = rsp_ring(id),
		.nelem = NELEM,
		.buf_len = NELEM * 68,
	};

	emu_dbc_activate(eng, id, &cfg);
	tail[id] = 0;
}

static void setup(void)
{
	struct emu_irq_sink sink = { .send = record_msi };

	emu_workload_destroy(wl);
	emu_dbc_destroy(eng);
	emu_device_fini(&dev);
	guest_mem_reset(&gmem);
	if (emu_device_init(&dev, true))
		abort();
	emu_device_set_irq_sink(&dev, &sink);
	guest_mem_init(&gmem);
	if (!guest)
		guest = malloc(GUEST_SIZE);
	if (!guest || guest_mem_add_host(&gmem, guest, GUEST_GPA, 0, GUEST_SIZE, false))
		abort();
	memset(guest, 0, GUEST_SIZE);
	emu_device_set_guest_mem(&dev, &gmem);
	emu_cfg_write(&dev, PCI_COMMAND, 2, PCI_COMMAND_MEMORY | PCI_COMMAND_MASTER);
	for (uint32_t v = 0; v < 32; v++) {
		uint64_t e = EMU_MSIX_TABLE_OFF + 16 * v;

		emu_mmio_write(&dev, 4, e, &(uint32_t){ 0xfee00000 }, 4);
		emu_mmio_write(&dev, 4, e + 8, &(uint32_t){ MSI_DATA0 + v }, 4);
		emu_mmio_write(&dev, 4, e + 12, &(uint32_t){ 0 }, 4);
	}
	emu_cfg_write(&dev, EMU_CAP_MSIX + PCI_MSIX_FLAGS, 2, PCI_MSIX_FLAGS_ENABLE);
	eng = emu_dbc_create(&dev);
	if (!eng)
		abort();
	emu_dbc_set_mem_size(eng, DEV_MEM);
	emu_dbc_attach(eng);
	wl = emu_workload_create(eng);
	if (!wl)
		abort();
	memset(msis, 0, sizeof(msis));
	activate(0);
}

static uint32_t reg_r(unsigned int id, unsigned int reg)
{
	uint32_t v;

	emu_mmio_read(&dev, 2, EMU_DBC_BASE + id * EMU_DBC_STRIDE + reg, &v, 4);
	return v;
}

static void reg_w(unsigned int id, unsigned int reg, uint32_t v)
{
	emu_mmio_write(&dev, 2, EMU_DBC_BASE + id * EMU_DBC_STRIDE + reg, &v, 4);
}

struct req {
	uint16_t id;
	uint8_t cmd;
	uint64_t src, dst;
	uint32_t len;
	uint64_t db_addr;
	uint8_t db_len;
	uint32_t db_data;
	uint32_t sem[4];
};

#define TO_DEV		(EMU_DBC_CMD_BULK | EMU_DBC_CMD_TO_DEV)
#define FROM_DEV	(EMU_DBC_CMD_BULK | EMU_DBC_CMD_FROM_DEV)
#define RSPF		EMU_DBC_CMD_RSP
#define DB32		EMU_DBC_DB_ENABLE

/* Queue a request on DBC @id (not rung yet); returns its slot. */
static uint32_t queue(unsigned int id, const struct req *r)
{
	uint32_t slot = tail[id];
	uint8_t *p = g(req_ring(id) + (uint64_t)slot * EMU_DBC_REQ_ELEM);

	memset(p, 0, EMU_DBC_REQ_ELEM);
	put_le16(p, r->id);
	p[3] = r->cmd;
	put_le64(p + 8, r->src);
	put_le64(p + 16, r->dst);
	put_le32(p + 24, r->len);
	put_le64(p + 32, r->db_addr);
	p[40] = r->db_len;
	put_le32(p + 44, r->db_data);
	for (int i = 0; i < 4; i++)
		put_le32(p + 48 + 4 * i, r->sem[i]);
	tail[id] = (slot + 1) % NELEM;
	return slot;
}

static void ring_tail(unsigned int id)
{
	reg_w(id, EMU_DBC_REQTP, tail[id]);
}

/* The host's side of the response ring: read everything, acknowledge. */
static uint32_t last_rsp[EMU_NUM_DBC];

static unsigned int drain(unsigned int id)
{
	uint32_t head = reg_r(id, EMU_DBC_RSPHP), t = reg_r(id, EMU_DBC_RSPTP);
	unsigned int n = 0;

	while (head != t) {
		last_rsp[id] = get_le32(g(rsp_ring(id) + 4 * head));
		head = (head + 1) % NELEM;
		n++;
	}
	reg_w(id, EMU_DBC_RSPHP, head);
	return n;
}

#define RSP_STATUS(r)	((r) >> 16)

/*
 * What a host does to start the program at device address @p: a request
 * on active DBC @id whose doorbell writes the program's go word. Returns
 * the response status (0xffff if no response came).
 */
static uint32_t ring_program(unsigned int id, uint64_t p)
{
	queue(id, &(struct req){ .id = 0x77, .cmd = RSPF, .db_addr = p + EMU_WL_H_GO,
				 .db_len = DB32, .db_data = ++db_seq });
	ring_tail(id);
	if (drain(id) != 1)
		return 0xffff;
	CHECK_EQ(last_rsp[id] & 0xffff, 0x77);
	return RSP_STATUS(last_rsp[id]);
}

static uint32_t sem(unsigned int cmd, unsigned int idx, unsigned int val,
		    bool presync)
{
	return EMU_DBC_SEM_ENABLE | cmd << 24 | idx << 16 | val |
	       (presync ? EMU_DBC_SEM_PRESYNC : 0);
}

static struct emu_workload_counters wl_counters(void)
{
	struct emu_workload_counters c;

	emu_workload_get_counters(wl, &c);
	return c;
}

/* ---- program builder ---- */

#define MAX_PROG_OPS	260

struct prog {
	uint8_t b[EMU_WL_HDR_LEN + MAX_PROG_OPS * EMU_WL_OP_LEN];
	uint32_t nops;
};

static struct prog pr;

static void prog_init(void)
{
	memset(&pr, 0, sizeof(pr));
	put_le32(pr.b + EMU_WL_H_MAGIC, EMU_WL_MAGIC);
}

static void prog_wait(unsigned int dbc, uint32_t word)
{
	put_le32(pr.b + EMU_WL_H_WAIT_DBC, dbc);
	put_le32(pr.b + EMU_WL_H_WAIT, word);
}

static void prog_signal(unsigned int i, unsigned int dbc, uint32_t word)
{
	put_le32(pr.b + EMU_WL_H_SIG0_DBC + 8 * i, dbc);
	put_le32(pr.b + EMU_WL_H_SIG0 + 8 * i, word);
}

static uint8_t *prog_op(uint8_t code, uint8_t type, uint32_t n, uint64_t src0,
			uint64_t src1, uint64_t dst, uint64_t aux)
{
	uint8_t *o = pr.b + EMU_WL_HDR_LEN + pr.nops * EMU_WL_OP_LEN;

	o[EMU_WL_O_OPCODE] = code;
	o[EMU_WL_O_TYPE] = type;
	put_le32(o + EMU_WL_O_N, n);
	put_le64(o + EMU_WL_O_SRC0, src0);
	put_le64(o + EMU_WL_O_SRC1, src1);
	put_le64(o + EMU_WL_O_DST, dst);
	put_le64(o + EMU_WL_O_AUX, aux);
	put_le32(pr.b + EMU_WL_H_NOPS, ++pr.nops);
	return o;
}

static uint8_t *prog_matmul(uint8_t type, uint32_t rows, uint32_t k,
			    uint32_t cols, uint64_t a, uint64_t b, uint64_t d,
			    uint64_t bias)
{
	uint8_t *o = prog_op(EMU_WL_OP_MATMUL, type, rows, a, b, d, bias);

	put_le32(o + EMU_WL_O_K, k);
	put_le32(o + EMU_WL_O_COLS, cols);
	o[EMU_WL_O_FLAGS] = bias != ~0ull ? EMU_WL_F_BIAS : 0;
	if (bias == ~0ull)
		put_le64(o + EMU_WL_O_AUX, 0);
	return o;
}

static size_t prog_len(void)
{
	return EMU_WL_HDR_LEN + (size_t)pr.nops * EMU_WL_OP_LEN;
}

/* Put the program at device address @p (the engine's memory API). */
static void prog_store(uint64_t p)
{
	CHECK_EQ(emu_dbc_mem_write(eng, p, pr.b, prog_len()), 0);
}

static uint32_t hdr_word(uint64_t p, unsigned int off)
{
	uint8_t b[4] = { 0 };

	CHECK_EQ(emu_dbc_mem_read(eng, p + off, b, 4), 0);
	return get_le32(b);
}

/* State, error, failing op and runs of the program at @p, as one check. */
static void check_hdr(uint64_t p, uint32_t state, uint32_t err,
		      uint32_t fail_op, uint32_t runs, int line)
{
	uint32_t s = hdr_word(p, EMU_WL_H_STATE), e = hdr_word(p, EMU_WL_H_ERROR);
	uint32_t f = hdr_word(p, EMU_WL_H_FAIL_OP), r = hdr_word(p, EMU_WL_H_RUNS);

	if (s != state || e != err || f != fail_op || r != runs) {
		fprintf(stderr, "line %d: header state %u error %u fail_op %#x runs %u, expected %u %u %#x %u\n",
			line, s, e, f, r, state, err, fail_op, runs);
		emu_test_failures++;
	}
}
#define CHECK_HDR(p, st, err, op, runs) check_hdr(p, st, err, op, runs, __LINE__)

/* Store / load typed arrays in device memory. */
static void dev_f32(uint64_t addr, const float *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		uint8_t b[4];
		uint32_t u;

		memcpy(&u, &v[i], 4);
		put_le32(b, u);
		emu_dbc_mem_write(eng, addr + 4 * i, b, 4);
	}
}

static float dev_get_f32(uint64_t addr)
{
	uint8_t b[4];
	uint32_t u;
	float f;

	emu_dbc_mem_read(eng, addr, b, 4);
	u = get_le32(b);
	memcpy(&f, &u, 4);
	return f;
}

static void dev_i32(uint64_t addr, const int32_t *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		uint8_t b[4];

		put_le32(b, (uint32_t)v[i]);
		emu_dbc_mem_write(eng, addr + 4 * i, b, 4);
	}
}

static int32_t dev_get_i32(uint64_t addr)
{
	uint8_t b[4];

	emu_dbc_mem_read(eng, addr, b, 4);
	return (int32_t)get_le32(b);
}

static int8_t dev_get_i8(uint64_t addr)
{
	uint8_t b;

	emu_dbc_mem_read(eng, addr, &b, 1);
	return (int8_t)b;
}

static float guest_f32(uint64_t gpa)
{
	uint32_t u = get_le32(g(gpa));
	float f;

	memcpy(&f, &u, 4);
	return f;
}

static uint32_t f32_bits(float f)
{
	uint32_t u;

	memcpy(&u, &f, 4);
	return u;
}

/* Reference CRC-32 (zlib), bit by bit. */
static uint32_t ref_crc(const uint8_t *p, size_t n)
{
	uint32_t crc = ~0u;

	while (n--) {
		crc ^= *p++;
		for (int k = 0; k < 8; k++)
			crc = crc & 1 ? (crc >> 1) ^ 0xedb88320u : crc >> 1;
	}
	return ~crc;
}

static float rnd_f32(void)
{
	/* [-1, 1) in steps of 2^-10: exact in binary32. */
	return (float)((int)(emu_test_rnd() % 2048) - 1024) / 1024.0f;
}

static int8_t rnd_i8(int range)
{
	return (int8_t)((int)(emu_test_rnd() % (2 * range + 1)) - range);
}

#define P	0x1000ull	/* where the test programs live */
#define T0	0x10000ull	/* tensors */
#define T1	0x20000ull
#define T2	0x30000ull
#define T3	0x40000ull

/* ---- ops ---- */

static void test_copy(void)
{
	static const float src[5] = { 1.5f, -2.0f, 0.0f, 3.25f, -0.0f };
	uint8_t seq[64], back[64];

	setup();
	dev_f32(T0, src, 5);
	for (int i = 0; i < 64; i++)
		seq[i] = (uint8_t)(i + 1);
	emu_dbc_mem_write(eng, T1, seq, 64);
	prog_init();
	prog_op(EMU_WL_OP_COPY, EMU_WL_F32, 5, T0, 0, T2, 0);
	/* Overlapping, forwards by 8 bytes: memmove semantics. */
	prog_op(EMU_WL_OP_COPY, EMU_WL_I8, 32, T1, 0, T1 + 8, 0);
	prog_store(P);
	CHECK_EQ(ring_program(0, P), EMU_DBC_OK);
	CHECK_HDR(P, EMU_WL_ST_DONE, EMU_WL_OK, EMU_WL_NO_OP, 1);
	for (int i = 0; i < 5; i++)
		CHECK_EQ(f32_bits(dev_get_f32(T2 + 4 * i)), f32_bits(src[i]));
	emu_dbc_mem_read(eng, T1, back, 64);
	for (int i = 0; i < 64; i++)
		CHECK_EQ(back[i], i < 8 ? i + 1 : i < 40 ? i - 8 + 1 : i + 1);
	CHECK_EQ(wl_counters().programs, 1);
	CHECK_EQ(wl_counters().programs_ok, 1);
	CHECK_EQ(wl_counters().ops, 2);
	CHECK_EQ(wl_counters().work, 37);
	/* Rung again: runs again. */
	CHECK_EQ(ring_program(0, P), EMU_DBC_OK);
	CHECK_HDR(P, EMU_WL_ST_DONE, EMU_WL_OK, EMU_WL_NO_OP, 2);
	CHECK_EQ(wl_counters().doorbells, 2);
}

static void test_add_mul(void)
{
	static const float fa[4] = { 1.5f, -2.0f, 1e30f, 0.25f };
	static const float fb[4] = { 2.0f, 0.5f, 1e30f, -4.0f };
	static const int32_t ia[3] = { 5, INT32_MAX, -7 };
	static const int32_t ib[3] = { -9, 1, 3 };
	static const int8_t ba[4] = { 100, -100, 7, -128 };
	static const int8_t bb[4] = { 100, -100, -3, 2 };

	setup();
	dev_f32(T0, fa, 4);
	dev_f32(T0 + 0x100, fb, 4);
	dev_i32(T1, ia, 3);
	dev_i32(T1 + 0x100, ib, 3);
	emu_dbc_mem_write(eng, T2, ba, 4);
	emu_dbc_mem_write(eng, T2 + 0x100, bb, 4);
	prog_init();
	prog_op(EMU_WL_OP_ADD, EMU_WL_F32, 4, T0, T0 + 0x100, T3, 0);
	prog_op(EMU_WL_OP_MUL, EMU_WL_F32, 4, T0, T0 + 0x100, T3 + 0x100, 0);
	prog_op(EMU_WL_OP_ADD, EMU_WL_I32, 3, T1, T1 + 0x100, T3 + 0x200, 0);
	prog_op(EMU_WL_OP_MUL, EMU_WL_I32, 3, T1, T1 + 0x100, T3 + 0x300, 0);
	prog_op(EMU_WL_OP_ADD, EMU_WL_I8, 4, T2, T2 + 0x100, T3 + 0x400, 0);
	prog_op(EMU_WL_OP_MUL, EMU_WL_I8, 4, T2, T2 + 0x100, T3 + 0x500, 0);
	/* In place: the output is input 0. */
	prog_op(EMU_WL_OP_ADD, EMU_WL_I32, 3, T1, T1, T1, 0);
	prog_store(P);
	CHECK_EQ(ring_program(0, P), EMU_DBC_OK);
	CHECK_HDR(P, EMU_WL_ST_DONE, EMU_WL_OK, EMU_WL_NO_OP, 1);
	for (int i = 0; i < 4; i++) {
		CHECK_EQ(f32_bits(dev_get_f32(T3 + 4 * i)), f32_bits(fa[i] + fb[i]));
		CHECK_EQ(f32_bits(dev_get_f32(T3 + 0x100 + 4 * i)),
			 f32_bits(fa[i] * fb[i]));
	}
	CHECK(isinf(dev_get_f32(T3 + 0x108)));
	/* i32 wraps. */
	CHECK_EQ(dev_get_i32(T3 + 0x200), -4);
	CHECK_EQ(dev_get_i32(T3 + 0x204), INT32_MIN);
	CHECK_EQ(dev_get_i32(T3 + 0x208), -4);
	CHECK_EQ(dev_get_i32(T3 + 0x300), -45);
	CHECK_EQ(dev_get_i32(T3 + 0x304), INT32_MAX);
	CHECK_EQ(dev_get_i32(T3 + 0x308), -21);
	/* i8 saturates. */
	CHECK_EQ(dev_get_i8(T3 + 0x400), 127);
	CHECK_EQ(dev_get_i8(T3 + 0x401), -128);
	CHECK_EQ(dev_get_i8(T3 + 0x402), 4);
	CHECK_EQ(dev_get_i8(T3 + 0x403), -126);
	CHECK_EQ(dev_get_i8(T3 + 0x500), 127);
	CHECK_EQ(dev_get_i8(T3 + 0x501), 127);
	CHECK_EQ(dev_get_i8(T3 + 0x502), -21);
	CHECK_EQ(dev_get_i8(T3 + 0x503), -128);
	CHECK_EQ(dev_get_i32(T1), 10);
	CHECK_EQ(dev_get_i32(T1 + 4), -2);
	CHECK_EQ(dev_get_i32(T1 + 8), -14);
}

static void test_scale_relu(void)
{
	static const float fa[5] = { 1.5f, -2.0f, 0.0f, -0.0f, 3.0f };
	static const int32_t ia[3] = { 5, -6, 0x40000001 };
	static const int8_t ba[4] = { 50, -50, 3, 0 };
	float nan_in[1] = { NAN };

	setup();
	dev_f32(T0, fa, 5);
	dev_f32(T0 + 0x100, nan_in, 1);
	dev_i32(T1, ia, 3);
	emu_dbc_mem_write(eng, T2, ba, 4);
	prog_init();
	prog_op(EMU_WL_OP_SCALE, EMU_WL_F32, 5, T0, 0, T3, f32_bits(-0.5f));
	prog_op(EMU_WL_OP_SCALE, EMU_WL_I32, 3, T1, 0, T3 + 0x100, (uint32_t)-3);
	prog_op(EMU_WL_OP_SCALE, EMU_WL_I8, 4, T2, 0, T3 + 0x200, 3);
	prog_op(EMU_WL_OP_RELU, EMU_WL_F32, 5, T0, 0, T3 + 0x300, 0);
	prog_op(EMU_WL_OP_RELU, EMU_WL_F32, 1, T0 + 0x100, 0, T3 + 0x320, 0);
	prog_op(EMU_WL_OP_RELU, EMU_WL_I32, 3, T3 + 0x100, 0, T3 + 0x400, 0);
	prog_op(EMU_WL_OP_RELU, EMU_WL_I8, 4, T2, 0, T2, 0);
	prog_store(P);
	CHECK_EQ(ring_program(0, P), EMU_DBC_OK);
	CHECK_HDR(P, EMU_WL_ST_DONE, EMU_WL_OK, EMU_WL_NO_OP, 1);
	for (int i = 0; i < 5; i++)
		CHECK_EQ(f32_bits(dev_get_f32(T3 + 4 * i)), f32_bits(fa[i] * -0.5f));
	CHECK_EQ(dev_get_i32(T3 + 0x100), -15);
	CHECK_EQ(dev_get_i32(T3 + 0x104), 18);
	CHECK_EQ(dev_get_i32(T3 + 0x108), 0x3ffffffd);	/* wraps */
	CHECK_EQ(dev_get_i8(T3 + 0x200), 127);
	CHECK_EQ(dev_get_i8(T3 + 0x201), -128);
	CHECK_EQ(dev_get_i8(T3 + 0x202), 9);
	CHECK_EQ(dev_get_i8(T3 + 0x203), 0);
	CHECK_EQ(f32_bits(dev_get_f32(T3 + 0x300)), f32_bits(1.5f));
	CHECK_EQ(f32_bits(dev_get_f32(T3 + 0x304)), 0);
	CHECK_EQ(f32_bits(dev_get_f32(T3 + 0x308)), 0);
	CHECK_EQ(f32_bits(dev_get_f32(T3 + 0x30c)), 0);	/* -0 -> +0 */
	CHECK_EQ(f32_bits(dev_get_f32(T3 + 0x310)), f32_bits(3.0f));
	CHECK_EQ(f32_bits(dev_get_f32(T3 + 0x320)), 0);	/* NaN -> 0 */
	CHECK_EQ(dev_get_i32(T3 + 0x400), 0);
	CHECK_EQ(dev_get_i32(T3 + 0x404), 18);
	CHECK_EQ(dev_get_i32(T3 + 0x408), 0x3ffffffd);
	CHECK_EQ(dev_get_i8(T2), 50);
	CHECK_EQ(dev_get_i8(T2 + 1), 0);
	CHECK_EQ(dev_get_i8(T2 + 2), 3);
}

/* Matmul of rows x k by k x cols, both types, against the obvious loops. */
static void test_matmul(void)
{
	enum { R = 3, K = 7, C = 5 };
	float a[R * K], b[K * C], bias[C];
	int8_t qa[R * K], qb[K * C];
	int32_t qbias[C];

	setup();
	for (int i = 0; i < R * K; i++) {
		a[i] = rnd_f32();
		qa[i] = rnd_i8(128);
	}
	for (int i = 0; i < K * C; i++) {
		b[i] = rnd_f32();
		qb[i] = rnd_i8(128);
	}
	for (int j = 0; j < C; j++) {
		bias[j] = rnd_f32();
		qbias[j] = (int32_t)(emu_test_rnd() % 100000) - 50000;
	}
	/* Extreme values: -128 * -128 * 7 stays exact in int32. */
	qa[0] = -128;
	qb[0] = -128;
	dev_f32(T0, a, R * K);
	dev_f32(T0 + 0x1000, b, K * C);
	dev_f32(T0 + 0x2000, bias, C);
	emu_dbc_mem_write(eng, T1, qa, sizeof(qa));
	emu_dbc_mem_write(eng, T1 + 0x1000, qb, sizeof(qb));
	dev_i32(T1 + 0x2000, qbias, C);
	prog_init();
	prog_matmul(EMU_WL_F32, R, K, C, T0, T0 + 0x1000, T2, ~0ull);
	prog_matmul(EMU_WL_F32, R, K, C, T0, T0 + 0x1000, T2 + 0x1000, T0 + 0x2000);
	prog_matmul(EMU_WL_I8, R, K, C, T1, T1 + 0x1000, T3, ~0ull);
	prog_matmul(EMU_WL_I8, R, K, C, T1, T1 + 0x1000, T3 + 0x1000, T1 + 0x2000);
	/* The output over input 0: inputs are read in full first. */
	prog_matmul(EMU_WL_F32, 1, 1, 1, T0, T0, T0, ~0ull);
	prog_store(P);
	CHECK_EQ(ring_program(0, P), EMU_DBC_OK);
	CHECK_HDR(P, EMU_WL_ST_DONE, EMU_WL_OK, EMU_WL_NO_OP, 1);
	for (int i = 0; i < R; i++) {
		for (int j = 0; j < C; j++) {
			float acc = 0.0f;
			int32_t qacc = 0;

			/* The documented order: increasing p, bias last. */
			for (int p = 0; p < K; p++) {
				acc += a[i * K + p] * b[p * C + j];
				qacc += qa[i * K + p] * qb[p * C + j];
			}
			CHECK_EQ(f32_bits(dev_get_f32(T2 + 4 * (i * C + j))),
				 f32_bits(acc));
			CHECK_EQ(f32_bits(dev_get_f32(T2 + 0x1000 + 4 * (i * C + j))),
				 f32_bits(acc + bias[j]));
			CHECK_EQ(dev_get_i32(T3 + 4 * (i * C + j)), qacc);
			CHECK_EQ(dev_get_i32(T3 + 0x1000 + 4 * (i * C + j)),
				 qacc + qbias[j]);
		}
	}
	CHECK_EQ(f32_bits(dev_get_f32(T0)), f32_bits(a[0] * a[0]));
	CHECK_EQ(wl_counters().work, 4 * R * K * C + 1);
}

static void test_checksum(void)
{
	static const char text[] = "123456789";
	uint8_t big[4096];

	setup();
	for (unsigned int i = 0; i < sizeof(big); i++)
		big[i] = (uint8_t)(i * 31 + 7);
	emu_dbc_mem_write(eng, T0, text, 9);
	emu_dbc_mem_write(eng, T1, big, sizeof(big));
	prog_init();
	prog_op(EMU_WL_OP_CHECKSUM, EMU_WL_I8, 9, T0, 0, T2, 0);
	prog_op(EMU_WL_OP_CHECKSUM, EMU_WL_F32, 1024, T1, 0, T2 + 4, 0);
	/* The checksum may overwrite its own input. */
	prog_op(EMU_WL_OP_CHECKSUM, EMU_WL_I32, 2, T1, 0, T1, 0);
	prog_store(P);
	CHECK_EQ(ring_program(0, P), EMU_DBC_OK);
	CHECK_EQ(hdr_word(T2, 0), 0xcbf43926u);	/* the CRC-32 check value */
	CHECK_EQ(hdr_word(T2, 4), ref_crc(big, sizeof(big)));
	CHECK_EQ(hdr_word(T1, 0), ref_crc(big, 8));
}

static void test_convert(void)
{
	static const float f[8] = { 0.5f, 1.5f, 2.5f, -0.5f, -1.5f, 300.0f,
				    -1e10f, NAN };
	static const int32_t i32[4] = { 1000, -1000, 7, INT32_MIN };
	static const int8_t i8[3] = { -128, 127, -1 };

	setup();
	dev_f32(T0, f, 8);
	dev_i32(T1, i32, 4);
	emu_dbc_mem_write(eng, T2, i8, 3);
	prog_init();
	/* f32 -> i8, scale 1: round half to even, saturate, NaN -> 0. */
	prog_op(EMU_WL_OP_CONVERT, EMU_WL_F32, 8, T0, 0, T3, f32_bits(1.0f))
		[EMU_WL_O_OTYPE] = EMU_WL_I8;
	/* f32 -> i32, scale 2. */
	prog_op(EMU_WL_OP_CONVERT, EMU_WL_F32, 8, T0, 0, T3 + 0x100, f32_bits(2.0f))
		[EMU_WL_O_OTYPE] = EMU_WL_I32;
	/* i32 -> i8 requantisation, scale 1/16. */
	prog_op(EMU_WL_OP_CONVERT, EMU_WL_I32, 4, T1, 0, T3 + 0x200, f32_bits(0.0625f))
		[EMU_WL_O_OTYPE] = EMU_WL_I8;
	/* i32 -> f32 and i8 -> f32 dequantisation. */
	prog_op(EMU_WL_OP_CONVERT, EMU_WL_I32, 4, T1, 0, T3 + 0x300, f32_bits(0.5f))
		[EMU_WL_O_OTYPE] = EMU_WL_F32;
	prog_op(EMU_WL_OP_CONVERT, EMU_WL_I8, 3, T2, 0, T3 + 0x400, f32_bits(0.25f))
		[EMU_WL_O_OTYPE] = EMU_WL_F32;
	/* In place, i8 -> f32 grows: still correct, inputs are read first. */
	prog_op(EMU_WL_OP_CONVERT, EMU_WL_I8, 3, T2, 0, T2, f32_bits(1.0f))
		[EMU_WL_O_OTYPE] = EMU_WL_F32;
	prog_store(P);
	CHECK_EQ(ring_program(0, P), EMU_DBC_OK);
	CHECK_HDR(P, EMU_WL_ST_DONE, EMU_WL_OK, EMU_WL_NO_OP, 1);
	{
		static const int8_t want[8] = { 0, 2, 2, 0, -2, 127, -128, 0 };
		static const int32_t want32[8] = { 1, 3, 5, -1, -3, 600,
						   INT32_MIN, 0 };

		for (int i = 0; i < 8; i++) {
			CHECK_EQ(dev_get_i8(T3 + i), want[i]);
			CHECK_EQ(dev_get_i32(T3 + 0x100 + 4 * i), want32[i]);
		}
	}
	CHECK_EQ(dev_get_i8(T3 + 0x200), 62);	/* 62.5 -> 62 */
	CHECK_EQ(dev_get_i8(T3 + 0x201), -62);
	CHECK_EQ(dev_get_i8(T3 + 0x202), 0);	/* 0.4375 */
	CHECK_EQ(dev_get_i8(T3 + 0x203), -128);
	CHECK_EQ(f32_bits(dev_get_f32(T3 + 0x300)), f32_bits(500.0f));
	CHECK_EQ(f32_bits(dev_get_f32(T3 + 0x30c)), f32_bits(-1073741824.0f));
	CHECK_EQ(f32_bits(dev_get_f32(T3 + 0x400)), f32_bits(-32.0f));
	CHECK_EQ(f32_bits(dev_get_f32(T3 + 0x404)), f32_bits(31.75f));
	CHECK_EQ(f32_bits(dev_get_f32(T2)), f32_bits(-128.0f));
	CHECK_EQ(f32_bits(dev_get_f32(T2 + 4)), f32_bits(127.0f));
	CHECK_EQ(f32_bits(dev_get_f32(T2 + 8)), f32_bits(-1.0f));
}

/* ---- malformed programs ---- */

/*
 * Store the program, ring it on DBC 0, expect a failed run with @err at
 * op @fail_op, and that the output canary at T3 is untouched: a malformed
 * program changes nothing but its own header.
 */
static void expect_fail(uint32_t err, uint32_t fail_op, int line)
{
	uint32_t canary = 0x5a5a5a5a, st, s, e, f;

	emu_dbc_mem_write(eng, T3, &canary, 4);
	prog_store(P);
	st = ring_program(0, P);
	s = hdr_word(P, EMU_WL_H_STATE);
	e = hdr_word(P, EMU_WL_H_ERROR);
	f = hdr_word(P, EMU_WL_H_FAIL_OP);
	if (st != EMU_DBC_E_WORKLOAD || s != EMU_WL_ST_FAILED || e != err ||
	    f != fail_op || hdr_word(T3, 0) != canary) {
		fprintf(stderr, "line %d: response %u state %u error %u fail_op %#x canary %#x; expected error %u at %#x\n",
			line, st, s, e, f, hdr_word(T3, 0), err, fail_op);
		emu_test_failures++;
	}
}
#define EXPECT_FAIL(err, op) expect_fail(err, op, __LINE__)

static void test_malformed(void)
{
	struct emu_workload_counters c;
	uint8_t *o;

	setup();
	/* Bad magic: an ordinary doorbell; nothing runs, nothing counted. */
	prog_init();
	prog_op(EMU_WL_OP_COPY, EMU_WL_I8, 4, T0, 0, T3, 0);
	put_le32(pr.b + EMU_WL_H_MAGIC, EMU_WL_MAGIC ^ 1);
	emu_dbc_mem_write(eng, T3, "\x11\x22\x33\x44", 4);
	prog_store(P);
	CHECK_EQ(ring_program(0, P), EMU_DBC_OK);
	CHECK_HDR(P, 0, 0, 0, 0);
	CHECK_EQ(hdr_word(T3, 0), 0x44332211u);
	CHECK_EQ(hdr_word(P, EMU_WL_H_GO), db_seq);	/* the doorbell landed */
	c = wl_counters();
	CHECK_EQ(c.doorbells + c.programs + c.errors, 0);
	/* A doorbell next to the go word is not the go word. */
	prog_init();
	prog_op(EMU_WL_OP_COPY, EMU_WL_I8, 4, T0, 0, T3, 0);
	prog_store(P);
	queue(0, &(struct req){ .cmd = RSPF, .db_addr = P + 8, .db_len = DB32 });
	ring_tail(0);
	drain(0);
	CHECK_EQ(RSP_STATUS(last_rsp[0]), 0);
	CHECK_EQ(wl_counters().doorbells, 0);
	/* A header that does not fit device memory is no program. */
	pr.nops = 0;
	put_le32(pr.b + EMU_WL_H_NOPS, 0);
	emu_dbc_mem_write(eng, DEV_MEM - 32, pr.b, 32);
	CHECK_EQ(ring_program(0, DEV_MEM - 32), EMU_DBC_OK);
	CHECK_EQ(wl_counters().doorbells, 0);

	/* Unknown ops. */
	prog_init();
	prog_op(EMU_WL_OP_COPY, EMU_WL_I8, 4, T0, 0, T3, 0);
	prog_op(EMU_WL_OP_MAX + 1, EMU_WL_I8, 4, T0, 0, T3, 0);
	EXPECT_FAIL(EMU_WL_E_OPCODE, 1);
	prog_init();
	prog_op(0, EMU_WL_I8, 4, T0, 0, T3, 0);
	EXPECT_FAIL(EMU_WL_E_OPCODE, 0);
	prog_init();
	prog_op(0xff, EMU_WL_I8, 4, T0, 0, T3, 0);
	EXPECT_FAIL(EMU_WL_E_OPCODE, 0);
	/* Types. */
	prog_init();
	prog_op(EMU_WL_OP_ADD, 0, 4, T0, T1, T3, 0);
	EXPECT_FAIL(EMU_WL_E_TYPE, 0);
	prog_init();
	prog_op(EMU_WL_OP_ADD, 4, 4, T0, T1, T3, 0);
	EXPECT_FAIL(EMU_WL_E_TYPE, 0);
	prog_init();
	prog_matmul(EMU_WL_I32, 1, 1, 1, T0, T1, T3, ~0ull);
	EXPECT_FAIL(EMU_WL_E_TYPE, 0);
	prog_init();
	prog_op(EMU_WL_OP_CONVERT, EMU_WL_I8, 4, T0, 0, T3, f32_bits(1.0f));
	EXPECT_FAIL(EMU_WL_E_TYPE, 0);		/* no output type */
	/* Fields an op does not use, sizes it needs. */
	prog_init();
	prog_op(EMU_WL_OP_COPY, EMU_WL_I8, 0, T0, 0, T3, 0);
	EXPECT_FAIL(EMU_WL_E_FIELD, 0);
	prog_init();
	prog_op(EMU_WL_OP_COPY, EMU_WL_I8, 4, T0, T1, T3, 0);
	EXPECT_FAIL(EMU_WL_E_FIELD, 0);
	prog_init();
	prog_op(EMU_WL_OP_RELU, EMU_WL_I8, 4, T0, 0, T3, 1);
	EXPECT_FAIL(EMU_WL_E_FIELD, 0);
	prog_init();
	prog_op(EMU_WL_OP_SCALE, EMU_WL_I8, 4, T0, 0, T3, 1ull << 32);
	EXPECT_FAIL(EMU_WL_E_FIELD, 0);
	prog_init();
	prog_op(EMU_WL_OP_ADD, EMU_WL_I8, 4, T0, T1, T3, 0)[EMU_WL_O_FLAGS] = 1;
	EXPECT_FAIL(EMU_WL_E_FIELD, 0);
	prog_init();
	prog_op(EMU_WL_OP_ADD, EMU_WL_I8, 4, T0, T1, T3, 0)[EMU_WL_O_OTYPE] = EMU_WL_I8;
	EXPECT_FAIL(EMU_WL_E_FIELD, 0);
	prog_init();
	put_le32(prog_op(EMU_WL_OP_ADD, EMU_WL_I8, 4, T0, T1, T3, 0) + EMU_WL_O_K, 1);
	EXPECT_FAIL(EMU_WL_E_FIELD, 0);
	prog_init();
	prog_matmul(EMU_WL_F32, 1, 0, 1, T0, T1, T3, ~0ull);
	EXPECT_FAIL(EMU_WL_E_FIELD, 0);
	prog_init();
	o = prog_matmul(EMU_WL_F32, 1, 1, 1, T0, T1, T3, ~0ull);
	put_le64(o + EMU_WL_O_AUX, T2);		/* a bias without the flag */
	EXPECT_FAIL(EMU_WL_E_FIELD, 0);

	/* Addresses out of bounds, or wrapping. */
	prog_init();
	prog_op(EMU_WL_OP_COPY, EMU_WL_I8, 4, DEV_MEM - 3, 0, T3, 0);
	EXPECT_FAIL(EMU_WL_E_RANGE, 0);
	prog_init();
	prog_op(EMU_WL_OP_COPY, EMU_WL_I8, 4, T0, 0, DEV_MEM, 0);
	EXPECT_FAIL(EMU_WL_E_RANGE, 0);
	prog_init();
	prog_op(EMU_WL_OP_COPY, EMU_WL_F32, 4, ~0ull - 3, 0, T3, 0);
	EXPECT_FAIL(EMU_WL_E_RANGE, 0);
	prog_init();
	prog_op(EMU_WL_OP_COPY, EMU_WL_I8, 4, T0, 0, T3, 0);
	prog_op(EMU_WL_OP_ADD, EMU_WL_F32, 4, T0, DEV_MEM - 8, T3, 0);
	EXPECT_FAIL(EMU_WL_E_RANGE, 1);
	prog_init();
	prog_op(EMU_WL_OP_CHECKSUM, EMU_WL_I8, 4, T0, 0, DEV_MEM - 2, 0);
	EXPECT_FAIL(EMU_WL_E_RANGE, 0);
	prog_init();
	prog_matmul(EMU_WL_F32, 1, 1, 1, T0, T1, T3, DEV_MEM);	/* bias */
	EXPECT_FAIL(EMU_WL_E_RANGE, 0);
	prog_init();
	prog_matmul(EMU_WL_I8, 4096, 4096, 1, T0, T1, T3, ~0ull);
	EXPECT_FAIL(EMU_WL_E_RANGE, 0);		/* A is 16 MiB at T0 */
	/* Too big: an operand over 64 MiB, too much work in a run. */
	prog_init();
	prog_op(EMU_WL_OP_COPY, EMU_WL_F32, (EMU_WL_MAX_TENSOR / 4) + 1, T0, 0, T3, 0);
	EXPECT_FAIL(EMU_WL_E_TOO_BIG, 0);
	prog_init();
	prog_matmul(EMU_WL_I8, 2048, 1024, 1024, 0, 0, 0, ~0ull);
	EXPECT_FAIL(EMU_WL_E_TOO_BIG, 0);
	prog_init();
	prog_matmul(EMU_WL_I8, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0, 0, 0, ~0ull);
	EXPECT_FAIL(EMU_WL_E_TOO_BIG, 0);
	prog_init();
	prog_op(EMU_WL_OP_COPY, EMU_WL_I8, 4, T0, 0, T3, 0);
	prog_matmul(EMU_WL_I8, 1024, 1024, 768, 0, 0x400000, 0x800000, ~0ull);
	prog_matmul(EMU_WL_I8, 1024, 1024, 768, 0, 0x400000, 0x800000, ~0ull);
	EXPECT_FAIL(EMU_WL_E_TOO_BIG, 2);

	/* Too many ops: refused from the header, no op runs, no signal. */
	prog_init();
	prog_signal(0, 0, sem(EMU_DBC_SEM_INC, 3, 0, false));
	put_le32(pr.b + EMU_WL_H_NOPS, EMU_WL_MAX_OPS + 1);
	EXPECT_FAIL(EMU_WL_E_TOO_MANY, EMU_WL_NO_OP);
	put_le32(pr.b + EMU_WL_H_NOPS, 0xffffffffu);
	EXPECT_FAIL(EMU_WL_E_TOO_MANY, EMU_WL_NO_OP);
	CHECK_EQ(emu_dbc_sem_get(eng, 0, 3), 0);
	/* The op table past the end of device memory. */
	prog_init();
	put_le32(pr.b + EMU_WL_H_NOPS, 1);
	CHECK_EQ(emu_dbc_mem_write(eng, DEV_MEM - 64, pr.b, 64), 0);
	CHECK_EQ(ring_program(0, DEV_MEM - 64), EMU_DBC_E_WORKLOAD);
	CHECK_HDR(DEV_MEM - 64, EMU_WL_ST_FAILED, EMU_WL_E_RANGE, EMU_WL_NO_OP, 1);
	/* The maximum count is fine. */
	prog_init();
	for (int i = 0; i < EMU_WL_MAX_OPS; i++)
		prog_op(EMU_WL_OP_ADD, EMU_WL_I32, 1, T0, T0, T0, 0);
	dev_i32(T0, &(int32_t){ 1 }, 1);
	prog_store(P);
	CHECK_EQ(ring_program(0, P), EMU_DBC_OK);
	CHECK_EQ(dev_get_i32(T0), 0);		/* 2^256 mod 2^32 */

	/* Header: reserved words, bad waits and signals. */
	prog_init();
	put_le32(pr.b + EMU_WL_H_FLAGS, 1);
	EXPECT_FAIL(EMU_WL_E_HEADER, EMU_WL_NO_OP);
	prog_init();
	put_le64(pr.b + EMU_WL_H_RSVD, 1ull << 40);
	EXPECT_FAIL(EMU_WL_E_HEADER, EMU_WL_NO_OP);
	prog_init();
	prog_wait(0, sem(EMU_DBC_SEM_INC, 0, 0, false));	/* not a wait */
	EXPECT_FAIL(EMU_WL_E_HEADER, EMU_WL_NO_OP);
	prog_init();
	prog_wait(EMU_NUM_DBC, sem(EMU_DBC_SEM_WAIT_EQUAL, 0, 0, false));
	EXPECT_FAIL(EMU_WL_E_HEADER, EMU_WL_NO_OP);
	prog_init();
	prog_wait(0, sem(EMU_DBC_SEM_WAIT_EQUAL, 0, 0, true));	/* bit 22 */
	EXPECT_FAIL(EMU_WL_E_HEADER, EMU_WL_NO_OP);
	prog_init();
	prog_wait(3, 0);				/* unused, but a DBC */
	EXPECT_FAIL(EMU_WL_E_HEADER, EMU_WL_NO_OP);
	prog_init();
	prog_signal(1, 0, sem(EMU_DBC_SEM_WAIT_GT_0, 0, 0, false));
	EXPECT_FAIL(EMU_WL_E_HEADER, EMU_WL_NO_OP);
	prog_init();
	prog_signal(0, 0, sem(EMU_DBC_SEM_NOP, 0, 0, false));
	EXPECT_FAIL(EMU_WL_E_HEADER, EMU_WL_NO_OP);
	prog_init();
	prog_signal(0, 0, sem(7, 0, 0, false));
	EXPECT_FAIL(EMU_WL_E_HEADER, EMU_WL_NO_OP);
	prog_init();
	prog_signal(0, 0, 0x00001000);			/* value bit, not enabled */
	EXPECT_FAIL(EMU_WL_E_HEADER, EMU_WL_NO_OP);

	/* A failed run still signals: nothing queued behind it waits forever. */
	prog_init();
	prog_signal(0, 0, sem(EMU_DBC_SEM_INIT, 4, 9, false));
	prog_signal(1, 0, sem(EMU_DBC_SEM_INC, 5, 0, false));
	prog_op(EMU_WL_OP_COPY, EMU_WL_I8, 4, DEV_MEM, 0, T3, 0);
	EXPECT_FAIL(EMU_WL_E_RANGE, 0);
	CHECK_EQ(emu_dbc_sem_get(eng, 0, 4), 9);
	CHECK_EQ(emu_dbc_sem_get(eng, 0, 5), 1);
	CHECK_HDR(P, EMU_WL_ST_FAILED, EMU_WL_E_RANGE, 0, 1);

	/* An error without a response of its own reaches the next one. */
	prog_init();
	prog_op(0, 0, 0, 0, 0, 0, 0);
	prog_store(P);
	queue(0, &(struct req){ .id = 1, .db_addr = P + EMU_WL_H_GO, .db_len = DB32 });
	queue(0, &(struct req){ .id = 2, .cmd = RSPF });
	ring_tail(0);
	drain(0);
	CHECK_EQ(last_rsp[0], 2 | (uint32_t)EMU_DBC_E_WORKLOAD << 16);

	c = wl_counters();
	CHECK(c.errors > 30);
	CHECK_EQ(c.errors + 1, c.doorbells);	/* all but the 256-op one */
}

/* ---- semaphores ---- */

/*
 * The host's order of requests for one inference, all on DBC 0:
 *   0: ring the program, which waits for sem 0 >= 1 (inputs in)
 *   1: to-device input, post-sync INC sem 0
 *   2: from-device output, presync WAIT_GT_0 sem 1 (the program's signal)
 * The program cannot start at its doorbell, starts once request 1 is done
 * and the engine is at rest, signals sem 1, and request 2 then carries
 * the outputs, not what was in device memory before.
 */
static void test_wait_and_signal(void)
{
	static const float in[4] = { 1.0f, -2.0f, 3.0f, -4.0f };
	float out[4];

	setup();
	for (int i = 0; i < 4; i++)
		put_le32(g(BUF) + 4 * i, f32_bits(in[i]));
	prog_init();
	prog_wait(0, sem(EMU_DBC_SEM_WAIT_GT_EQ, 0, 1, false));
	prog_signal(0, 0, sem(EMU_DBC_SEM_INC, 1, 0, false));
	prog_op(EMU_WL_OP_RELU, EMU_WL_F32, 4, T0, 0, T1, 0);
	prog_store(P);

	/* Only the doorbell first: pending, the response says nothing failed. */
	CHECK_EQ(ring_program(0, P), EMU_DBC_OK);
	CHECK_HDR(P, EMU_WL_ST_PENDING, EMU_WL_OK, EMU_WL_NO_OP, 0);
	CHECK_EQ(wl_counters().waits, 1);
	/* Rung again while waiting: still one program waiting. */
	CHECK_EQ(ring_program(0, P), EMU_DBC_OK);
	CHECK_EQ(wl_counters().waits, 1);

	queue(0, &(struct req){ .id = 1, .cmd = TO_DEV, .src = BUF, .dst = T0,
				.len = sizeof(in),
				.sem = { sem(EMU_DBC_SEM_INC, 0, 0, false) } });
	queue(0, &(struct req){ .id = 2, .cmd = FROM_DEV | RSPF, .src = T1,
				.dst = BUF + 0x100, .len = sizeof(out),
				.sem = { sem(EMU_DBC_SEM_WAIT_GT_0, 1, 0, true) } });
	ring_tail(0);
	CHECK_EQ(reg_r(0, EMU_DBC_REQHP), tail[0]);
	CHECK_EQ(drain(0), 1);
	CHECK_EQ(last_rsp[0], 2);
	for (int i = 0; i < 4; i++)
		out[i] = guest_f32(BUF + 0x100 + 4 * i);
	CHECK(out[0] == 1.0f && out[1] == 0.0f && out[2] == 3.0f && out[3] == 0.0f);
	CHECK_HDR(P, EMU_WL_ST_DONE, EMU_WL_OK, EMU_WL_NO_OP, 1);
	CHECK_EQ(emu_dbc_sem_get(eng, 0, 1), 0);	/* taken by WAIT_GT_0 */
	CHECK_EQ(wl_counters().signals, 1);
	CHECK_EQ(wl_counters().programs, 1);

	/* WAIT_GT_0 takes one; WAIT_EQUAL from emu_dbc_sem_set(). */
	prog_init();
	prog_wait(2, sem(EMU_DBC_SEM_WAIT_GT_0, 7, 0, false));
	prog_signal(0, 2, sem(EMU_DBC_SEM_INIT, 8, 0x123, false));
	prog_signal(1, 2, sem(EMU_DBC_SEM_DEC, 9, 0, false));
	prog_store(P + 0x400);
	emu_dbc_sem_set(eng, 2, 7, 2);
	CHECK_EQ(ring_program(0, P + 0x400), EMU_DBC_OK);
	CHECK_EQ(emu_dbc_sem_get(eng, 2, 7), 1);
	CHECK_EQ(emu_dbc_sem_get(eng, 2, 8), 0x123);
	CHECK_EQ(emu_dbc_sem_get(eng, 2, 9), EMU_DBC_SEM_MAX);	/* wraps */
	prog_init();
	prog_wait(2, sem(EMU_DBC_SEM_WAIT_EQUAL, 8, 5, false));
	prog_signal(0, 2, sem(EMU_DBC_SEM_INC, 10, 0, false));
	prog_store(P + 0x800);
	CHECK_EQ(ring_program(0, P + 0x800), EMU_DBC_OK);
	CHECK_HDR(P + 0x800, EMU_WL_ST_PENDING, 0, EMU_WL_NO_OP, 0);
	emu_dbc_sem_set(eng, 2, 8, 4);
	CHECK_HDR(P + 0x800, EMU_WL_ST_PENDING, 0, EMU_WL_NO_OP, 0);
	emu_dbc_sem_set(eng, 2, 8, 5);
	CHECK_HDR(P + 0x800, EMU_WL_ST_DONE, 0, EMU_WL_NO_OP, 1);
	CHECK_EQ(emu_dbc_sem_get(eng, 2, 10), 1);
}

/*
 * A program rung on DBC 0 signals DBC 1, whose from-device request waited
 * for it: it goes on, responds and interrupts on DBC 1's vector.
 */
static void test_cross_dbc(void)
{
	setup();
	activate(1);
	emu_dbc_mem_write(eng, T0, "workload", 8);
	queue(1, &(struct req){ .id = 9, .cmd = FROM_DEV | RSPF, .src = T1,
				.dst = BUF, .len = 8,
				.sem = { sem(EMU_DBC_SEM_WAIT_EQUAL, 2, 1, true) } });
	ring_tail(1);
	CHECK_EQ(reg_r(1, EMU_DBC_REQHP), 0);		/* stalled */
	prog_init();
	prog_signal(0, 1, sem(EMU_DBC_SEM_INIT, 2, 1, false));
	prog_op(EMU_WL_OP_COPY, EMU_WL_I8, 8, T0, 0, T1, 0);
	prog_store(P);
	CHECK_EQ(ring_program(0, P), EMU_DBC_OK);
	CHECK_EQ(reg_r(1, EMU_DBC_REQHP), 1);
	CHECK(!memcmp(g(BUF), "workload", 8));
	CHECK_EQ(msis[2], 1);
	CHECK_EQ(drain(1), 1);
	CHECK_EQ(last_rsp[1], 9);
}

/* Waiting programs: a bounded table, oldest first, reset forgets them. */
static void test_pending_limits(void)
{
	setup();
	for (unsigned int i = 0; i <= EMU_WL_MAX_PENDING; i++) {
		uint64_t p = P + 0x100 * i;

		prog_init();
		prog_wait(0, sem(EMU_DBC_SEM_WAIT_GT_EQ, 0, 1, false));
		/* Each one that runs counts itself in sem 1. */
		prog_signal(0, 0, sem(EMU_DBC_SEM_INC, 1, 0, false));
		prog_store(p);
		CHECK_EQ(ring_program(0, p),
			 i < EMU_WL_MAX_PENDING ? EMU_DBC_OK : EMU_DBC_E_WORKLOAD);
	}
	CHECK_HDR(P + 0x100 * EMU_WL_MAX_PENDING, EMU_WL_ST_FAILED, EMU_WL_E_BUSY,
		  EMU_WL_NO_OP, 1);
	/* A program overwritten while it waits is dropped, not run. */
	emu_dbc_mem_write(eng, P + 0x100, "\0\0\0\0", 4);
	emu_dbc_sem_set(eng, 0, 0, 1);
	CHECK_EQ(emu_dbc_sem_get(eng, 0, 1), EMU_WL_MAX_PENDING - 1);
	for (unsigned int i = 0; i < EMU_WL_MAX_PENDING; i++)
		if (i != 1)
			CHECK_HDR(P + 0x100 * i, EMU_WL_ST_DONE, 0, EMU_WL_NO_OP, 1);
	/* Reset: the waiting ones are forgotten. */
	prog_init();
	prog_wait(0, sem(EMU_DBC_SEM_WAIT_EQUAL, 0, 3, false));
	prog_signal(0, 0, sem(EMU_DBC_SEM_INC, 1, 0, false));
	prog_store(P);
	CHECK_EQ(ring_program(0, P), EMU_DBC_OK);
	emu_workload_reset(wl);
	emu_dbc_sem_set(eng, 0, 0, 3);
	CHECK_HDR(P, EMU_WL_ST_PENDING, 0, EMU_WL_NO_OP, 0);
}

/*
 * The example of tests/emu/manual.rst, byte for byte,
 * with the requests it lists.
 */
static void test_doc_example(void)
{
	static const uint8_t prog[112] = {
		0x51, 0x57, 0x4c, 0x31, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
		0, 0, 0, 0, 0, 0, 0, 0, 0x01, 0, 0, 0, 0, 0, 0, 0,
		0, 0, 0, 0, 0x01, 0, 0, 0x85, 0, 0, 0, 0, 0, 0, 0x01, 0x82,
		0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
		0x05, 0x01, 0, 0, 0x04, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
		0x00, 0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
		0x00, 0x81, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	};
	static const float in[4] = { -1.0f, 2.0f, -3.0f, 4.0f };

	setup();
	memcpy(g(BUF), prog, sizeof(prog));
	for (int i = 0; i < 4; i++)
		put_le32(g(BUF + 0x100) + 4 * i, f32_bits(in[i]));
	queue(0, &(struct req){ .cmd = 0x09 | RSPF, .src = BUF, .dst = 0x1000,
				.len = sizeof(prog) });
	queue(0, &(struct req){ .id = 1, .db_addr = 0x1004, .db_len = 0x80,
				.db_data = 0xdeadbeef });
	queue(0, &(struct req){ .id = 2, .cmd = 0x09, .src = BUF + 0x100,
				.dst = 0x8000, .len = 16, .sem = { 0x82000000 } });
	queue(0, &(struct req){ .id = 3, .cmd = 0x1a, .src = 0x8100,
				.dst = BUF + 0x200, .len = 16, .sem = { 0x86410000 } });
	ring_tail(0);
	CHECK_EQ(drain(0), 2);
	CHECK_EQ(last_rsp[0], 3);
	for (int i = 0; i < 4; i++)
		CHECK_EQ(f32_bits(guest_f32(BUF + 0x200 + 4 * i)),
			 f32_bits(in[i] > 0 ? in[i] : 0.0f));
	CHECK_HDR(0x1000, EMU_WL_ST_DONE, 0, EMU_WL_NO_OP, 1);
	CHECK_EQ(hdr_word(0x1000, EMU_WL_H_GO), 0xdeadbeef);
	CHECK_EQ(wl_counters().waits, 1);
	CHECK_EQ(emu_dbc_sem_get(eng, 0, 0), 1);
	CHECK_EQ(emu_dbc_sem_get(eng, 0, 1), 0);
}

/* ---- a real network ---- */

enum { BATCH = 4, IN = 16, HID = 32, OUT = 8 };

/* Device memory layout of the MLP: program, then weights, then tensors. */
#define M_PROG	0x1000ull
#define M_W1	0x2000ull
#define M_B1	(M_W1 + 4 * IN * HID)
#define M_W2	(M_B1 + 4 * HID)
#define M_B2	(M_W2 + 4 * HID * OUT)
#define M_X	0x8000ull
#define M_H	0x9000ull
#define M_Y	0xa000ull
#define M_CRC	0xb000ull

/*
 * Load a blob into device memory as the host does: one to-device request
 * on DBC 0, from a guest buffer. Returns the response status.
 */
static uint32_t host_load(uint64_t gpa, const void *data, size_t len,
			  uint64_t dev_addr)
{
	memcpy(g(gpa), data, len);
	queue(0, &(struct req){ .id = 0x10, .cmd = TO_DEV | RSPF, .src = gpa,
				.dst = dev_addr, .len = (uint32_t)len });
	ring_tail(0);
	drain(0);
	return RSP_STATUS(last_rsp[0]);
}

/* y = relu(x W1 + b1) W2 + b2, fp32, and the CRC of y. */
static void test_mlp_f32(void)
{
	static float w1[IN * HID], b1[HID], w2[HID * OUT], b2[OUT];
	static float x[BATCH * IN];
	static uint8_t blob[0x4000];
	size_t wlen = M_B2 + 4 * OUT - M_W1;

	setup();
	for (int i = 0; i < IN * HID; i++)
		w1[i] = rnd_f32();
	for (int i = 0; i < HID; i++)
		b1[i] = rnd_f32();
	for (int i = 0; i < HID * OUT; i++)
		w2[i] = rnd_f32();
	for (int i = 0; i < OUT; i++)
		b2[i] = rnd_f32();
	for (int i = 0; i < BATCH * IN; i++)
		x[i] = rnd_f32();

	/* The program: wait for the input, run, signal the output. */
	prog_init();
	prog_wait(0, sem(EMU_DBC_SEM_WAIT_GT_0, 0, 0, false));
	prog_signal(0, 0, sem(EMU_DBC_SEM_INC, 1, 0, false));
	prog_matmul(EMU_WL_F32, BATCH, IN, HID, M_X, M_W1, M_H, M_B1);
	prog_op(EMU_WL_OP_RELU, EMU_WL_F32, BATCH * HID, M_H, 0, M_H, 0);
	prog_matmul(EMU_WL_F32, BATCH, HID, OUT, M_H, M_W2, M_Y, M_B2);
	prog_op(EMU_WL_OP_CHECKSUM, EMU_WL_F32, BATCH * OUT, M_Y, 0, M_CRC, 0);
	CHECK_EQ(host_load(BUF, pr.b, prog_len(), M_PROG), 0);
	/* Weights and biases, packed as the layout says, little endian. */
	for (size_t i = 0; i < IN * HID; i++)
		put_le32(blob + 4 * i, f32_bits(w1[i]));
	for (size_t i = 0; i < HID; i++)
		put_le32(blob + (M_B1 - M_W1) + 4 * i, f32_bits(b1[i]));
	for (size_t i = 0; i < HID * OUT; i++)
		put_le32(blob + (M_W2 - M_W1) + 4 * i, f32_bits(w2[i]));
	for (size_t i = 0; i < OUT; i++)
		put_le32(blob + (M_B2 - M_W1) + 4 * i, f32_bits(b2[i]));
	CHECK_EQ(host_load(BUF + 0x1000, blob, wlen, M_W1), 0);

	/* One inference per batch, three times, with new inputs each time. */
	for (int run = 1; run <= 3; run++) {
		bool close = true;

		for (int i = 0; i < BATCH * IN; i++)
			put_le32(g(BUF + 0x8000) + 4 * i, f32_bits(x[i] * (float)run));
		/* Doorbell first, then the input, then the output. */
		queue(0, &(struct req){ .id = 1, .db_addr = M_PROG + EMU_WL_H_GO,
					.db_len = DB32, .db_data = (uint32_t)run });
		queue(0, &(struct req){ .id = 2, .cmd = TO_DEV, .src = BUF + 0x8000,
					.dst = M_X, .len = 4 * BATCH * IN,
					.sem = { sem(EMU_DBC_SEM_INC, 0, 0, false) } });
		queue(0, &(struct req){ .id = 3, .cmd = FROM_DEV | RSPF, .src = M_Y,
					.dst = BUF + 0x9000, .len = 4 * BATCH * OUT,
					.sem = { sem(EMU_DBC_SEM_WAIT_GT_0, 1, 0, true) } });
		queue(0, &(struct req){ .id = 4, .cmd = FROM_DEV | RSPF, .src = M_CRC,
					.dst = BUF + 0x9800, .len = 4 });
		memset(g(BUF + 0x9000), 0xff, 4 * BATCH * OUT);
		ring_tail(0);
		CHECK_EQ(drain(0), 2);
		CHECK_EQ(last_rsp[0], 4);
		CHECK_HDR(M_PROG, EMU_WL_ST_DONE, 0, EMU_WL_NO_OP, (uint32_t)run);

		for (int b = 0; b < BATCH; b++) {
			double h[HID];

			for (int j = 0; j < HID; j++) {
				double acc = b1[j];

				for (int p = 0; p < IN; p++)
					acc += (double)x[b * IN + p] * run * w1[p * HID + j];
				h[j] = acc > 0 ? acc : 0;
			}
			for (int j = 0; j < OUT; j++) {
				double acc = b2[j], mag = fabs(b2[j]);
				double got = guest_f32(BUF + 0x9000 + 4 * (b * OUT + j));

				for (int p = 0; p < HID; p++) {
					acc += h[p] * w2[p * OUT + j];
					mag += fabs(h[p] * w2[p * OUT + j]);
				}
				/*
				 * binary32 sums of 16 and 32 terms: a few ulp
				 * of the largest partial sum, far below this.
				 */
				if (fabs(got - acc) > 1e-5 * (1 + mag)) {
					fprintf(stderr, "run %d y[%d][%d] = %.9g, reference %.9g\n",
						run, b, j, got, acc);
					close = false;
				}
			}
		}
		CHECK(close);
		CHECK_EQ(get_le32(g(BUF + 0x9800)), ref_crc(g(BUF + 0x9000), 4 * BATCH * OUT));
	}
	CHECK_EQ(wl_counters().programs_ok, 3);
	CHECK_EQ(wl_counters().ops, 12);
	CHECK_EQ(wl_counters().waits, 3);
	CHECK_EQ(wl_counters().errors, 0);
}

/*
 * The same network quantised: int8 inputs and weights, int32 biases and
 * accumulators, the hidden layer requantised to int8 (scale 1/64), the
 * output dequantised to fp32 (scale 0.01). Exact, so compared bit for bit
 * with the same arithmetic done here. The program starts right at its
 * doorbell (no wait: the input request is ahead of it on the ring).
 */
static void test_mlp_i8(void)
{
	static int8_t x[BATCH * IN], w1[IN * HID], w2[HID * OUT];
	static int32_t b1[HID], b2[OUT];
	const float s1 = 1.0f / 64, s2 = 0.01f;
	uint64_t mx = 0x8000, mw1 = 0x8100, mb1 = 0x8400, mw2 = 0x8500,
		 mb2 = 0x8700, mh = 0x9000, mh8 = 0x9400, my = 0x9800,
		 myf = 0x9c00;
	uint8_t *o;

	setup();
	for (int i = 0; i < BATCH * IN; i++)
		x[i] = rnd_i8(127);
	for (int i = 0; i < IN * HID; i++)
		w1[i] = rnd_i8(127);
	for (int i = 0; i < HID * OUT; i++)
		w2[i] = rnd_i8(127);
	for (int i = 0; i < HID; i++)
		b1[i] = (int32_t)(emu_test_rnd() % 20001) - 10000;
	for (int i = 0; i < OUT; i++)
		b2[i] = (int32_t)(emu_test_rnd() % 20001) - 10000;

	prog_init();
	prog_signal(0, 0, sem(EMU_DBC_SEM_INIT, 3, 1, false));
	prog_matmul(EMU_WL_I8, BATCH, IN, HID, mx, mw1, mh, mb1);
	prog_op(EMU_WL_OP_RELU, EMU_WL_I32, BATCH * HID, mh, 0, mh, 0);
	o = prog_op(EMU_WL_OP_CONVERT, EMU_WL_I32, BATCH * HID, mh, 0, mh8,
		    f32_bits(s1));
	o[EMU_WL_O_OTYPE] = EMU_WL_I8;
	prog_matmul(EMU_WL_I8, BATCH, HID, OUT, mh8, mw2, my, mb2);
	o = prog_op(EMU_WL_OP_CONVERT, EMU_WL_I32, BATCH * OUT, my, 0, myf,
		    f32_bits(s2));
	o[EMU_WL_O_OTYPE] = EMU_WL_F32;
	CHECK_EQ(host_load(BUF, pr.b, prog_len(), P), 0);
	CHECK_EQ(host_load(BUF + 0x1000, w1, sizeof(w1), mw1), 0);
	CHECK_EQ(host_load(BUF + 0x2000, w2, sizeof(w2), mw2), 0);
	for (int i = 0; i < HID; i++)
		put_le32(g(BUF + 0x3000) + 4 * i, (uint32_t)b1[i]);
	for (int i = 0; i < OUT; i++)
		put_le32(g(BUF + 0x3100) + 4 * i, (uint32_t)b2[i]);
	CHECK_EQ(host_load(BUF + 0x3000, g(BUF + 0x3000), 4 * HID, mb1), 0);
	CHECK_EQ(host_load(BUF + 0x3100, g(BUF + 0x3100), 4 * OUT, mb2), 0);

	memcpy(g(BUF + 0x4000), x, sizeof(x));
	queue(0, &(struct req){ .id = 1, .cmd = TO_DEV, .src = BUF + 0x4000,
				.dst = mx, .len = sizeof(x) });
	queue(0, &(struct req){ .id = 2, .cmd = RSPF, .db_addr = P + EMU_WL_H_GO,
				.db_len = DB32 });
	queue(0, &(struct req){ .id = 3, .cmd = FROM_DEV | RSPF, .src = myf,
				.dst = BUF + 0x5000, .len = 4 * BATCH * OUT,
				.sem = { sem(EMU_DBC_SEM_WAIT_GT_0, 3, 0, true) } });
	queue(0, &(struct req){ .id = 4, .cmd = FROM_DEV | RSPF, .src = mh8,
				.dst = BUF + 0x6000, .len = BATCH * HID });
	ring_tail(0);
	CHECK_EQ(drain(0), 3);
	CHECK_EQ(last_rsp[0], 4);
	CHECK_HDR(P, EMU_WL_ST_DONE, 0, EMU_WL_NO_OP, 1);
	CHECK_EQ(wl_counters().waits, 0);

	for (int b = 0; b < BATCH; b++) {
		int8_t h8[HID];

		for (int j = 0; j < HID; j++) {
			int32_t acc = b1[j];
			double v;

			for (int p = 0; p < IN; p++)
				acc += x[b * IN + p] * w1[p * HID + j];
			acc = acc > 0 ? acc : 0;
			v = nearbyint((double)acc * s1);
			h8[j] = (int8_t)(v > 127 ? 127 : v);
			CHECK_EQ((int8_t)g(BUF + 0x6000)[b * HID + j], h8[j]);
		}
		for (int j = 0; j < OUT; j++) {
			int32_t acc = b2[j];

			for (int p = 0; p < HID; p++)
				acc += h8[p] * w2[p * OUT + j];
			CHECK_EQ(dev_get_i32(my + 4 * (b * OUT + j)), acc);
			CHECK_EQ(f32_bits(guest_f32(BUF + 0x5000 + 4 * (b * OUT + j))),
				 f32_bits((float)((double)acc * s2)));
		}
	}
}

/* A device address: mostly inside device memory, sometimes not. */
static uint64_t fuzz_addr(void)
{
	uint64_t r = emu_test_rnd();

	if (r % 50 == 0)
		return emu_test_rnd() >> (r >> 8 & 63);
	return (r >> 12) % DEV_MEM;
}

/* An op that is valid more often than not, then maybe one field spoilt. */
static void fuzz_op(void)
{
	uint64_t q = emu_test_rnd();
	uint8_t code = q % 20 ? 1 + q % EMU_WL_OP_MAX : (uint8_t)(q >> 8);
	uint8_t type = q % 23 ? 1 + (q >> 16) % 3 : (uint8_t)(q >> 24);
	bool two = code == EMU_WL_OP_ADD || code == EMU_WL_OP_MUL ||
		   code == EMU_WL_OP_MATMUL;
	uint64_t aux = 0;
	uint8_t *o;

	if (code == EMU_WL_OP_SCALE)
		aux = (uint32_t)emu_test_rnd();
	else if (code == EMU_WL_OP_CONVERT)
		aux = f32_bits((float)((int)(emu_test_rnd() % 200) - 100) / 16);
	else if (code == EMU_WL_OP_MATMUL && q & 0x100000000ull)
		aux = fuzz_addr();
	o = prog_op(code, type, 1 + (uint32_t)(q >> 32) % 256, fuzz_addr(),
		    two ? fuzz_addr() : 0, fuzz_addr(), aux);
	if (code == EMU_WL_OP_CONVERT)
		o[EMU_WL_O_OTYPE] = 1 + (q >> 40) % 3;
	if (code == EMU_WL_OP_MATMUL) {
		if (type == EMU_WL_I32)
			o[EMU_WL_O_TYPE] = EMU_WL_I8;
		put_le32(o + EMU_WL_O_K, 1 + (uint32_t)(q >> 44) % 32);
		put_le32(o + EMU_WL_O_COLS, 1 + (uint32_t)(q >> 50) % 32);
		o[EMU_WL_O_FLAGS] = aux ? EMU_WL_F_BIAS : 0;
	}
	if (q >> 58 == 0)	/* 1 in 64: a random byte anywhere in the op */
		o[emu_test_rnd() % EMU_WL_OP_LEN] = (uint8_t)emu_test_rnd();
}

/* Random programs: an error or a result, never a crash or a hang. */
static void test_fuzz(void)
{
	unsigned int ok = 0, failed = 0;

	setup();
	activate(1);
	for (unsigned int it = 0; it < 3000; it++) {
		uint64_t r = emu_test_rnd();
		unsigned int nops = 1 + r % 5;
		uint32_t st;

		prog_init();
		if (!(r & 0x700))
			prog_wait(emu_test_rnd() % 17, (uint32_t)emu_test_rnd() &
				  (r & 0x800 ? ~0u : 0x8000001fu | 7u << 24));
		if (r & 0x1000)
			prog_signal(r >> 13 & 1, emu_test_rnd() % 17,
				    (uint32_t)emu_test_rnd() & (r & 0x4000 ? ~0u : 0x831f0fffu));
		for (unsigned int i = 0; i < nops; i++)
			fuzz_op();
		if (!(r & 0xf8000))
			pr.b[emu_test_rnd() % prog_len()] ^= (uint8_t)(1 << (r >> 20 & 7));
		prog_store(P);
		st = ring_program(r >> 23 & 1, P);
		CHECK(st == EMU_DBC_OK || st == EMU_DBC_E_WORKLOAD);
		if (st == EMU_DBC_OK)
			ok++;
		else
			failed++;
		if (it % 100 == 99) {
			/* Let waiting programs go, or forget them. */
			for (unsigned int s = 0; s < EMU_DBC_NUM_SEM; s++)
				emu_dbc_sem_set(eng, 0, s, (uint16_t)emu_test_rnd());
			emu_workload_reset(wl);
		}
	}
	printf("fuzz: %u rung without error, %u with, %" PRIu64 " runs ok, %" PRIu64 " ops\n",
	       ok, failed, wl_counters().programs_ok, wl_counters().ops);
	CHECK(ok > 100);
	CHECK(failed > 100);
	CHECK(wl_counters().programs_ok > 50);
	/* The engine still works. */
	emu_workload_reset(wl);
	prog_init();
	prog_op(EMU_WL_OP_COPY, EMU_WL_I8, 4, T0, 0, T1, 0);
	prog_store(P);
	CHECK_EQ(ring_program(0, P), EMU_DBC_OK);
	CHECK_HDR(P, EMU_WL_ST_DONE, 0, EMU_WL_NO_OP, 1);
}

static void test_counters_print(void)
{
	char *text = NULL;
	size_t size = 0;
	FILE *f;

	setup();
	prog_init();
	prog_signal(0, 0, sem(EMU_DBC_SEM_INC, 0, 0, false));
	prog_op(EMU_WL_OP_COPY, EMU_WL_I8, 10, T0, 0, T1, 0);
	prog_op(EMU_WL_OP_RELU, EMU_WL_I8, 10, T0, 0, T1, 0);
	prog_store(P);
	ring_program(0, P);
	prog_init();
	prog_wait(0, sem(EMU_DBC_SEM_WAIT_EQUAL, 0, 5, false));
	prog_store(P + 0x100);
	ring_program(0, P + 0x100);
	prog_init();
	prog_op(0, 0, 0, 0, 0, 0, 0);
	prog_store(P + 0x200);
	ring_program(0, P + 0x200);
	f = open_memstream(&text, &size);
	if (!f)
		abort();
	emu_workload_counters_print(wl, f);
	fclose(f);
	CHECK(strstr(text, "wl_doorbells 3\n") != NULL);
	CHECK(strstr(text, "wl_programs 2\n") != NULL);
	CHECK(strstr(text, "wl_programs_ok 1\n") != NULL);
	CHECK(strstr(text, "wl_ops 2\n") != NULL);
	CHECK(strstr(text, "wl_work 20\n") != NULL);
	CHECK(strstr(text, "wl_errors 1\n") != NULL);
	CHECK(strstr(text, "wl_waits 1\n") != NULL);
	CHECK(strstr(text, "wl_signals 1\n") != NULL);
	CHECK(strstr(text, "wl_pending 1\n") != NULL);
	free(text);
}

int main(void)
{
	RUN(test_copy);
	RUN(test_add_mul);
	RUN(test_scale_relu);
	RUN(test_matmul);
	RUN(test_checksum);
	RUN(test_convert);
	RUN(test_malformed);
	RUN(test_wait_and_signal);
	RUN(test_cross_dbc);
	RUN(test_pending_limits);
	RUN(test_doc_example);
	RUN(test_mlp_f32);
	RUN(test_mlp_i8);
	RUN(test_fuzz);
	RUN(test_counters_print);
	emu_workload_destroy(wl);
	emu_dbc_destroy(eng);
	emu_device_fini(&dev);
	guest_mem_reset(&gmem);
	free(guest);
	return emu_test_exit();
}
