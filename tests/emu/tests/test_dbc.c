// SPDX-License-Identifier: GPL-2.0-only
/*
 * The DMA Bridge engine on BAR2: requests written into a fake guest memory
 * (a malloc'd region), REQTP rung through the real BAR dispatch, data,
 * responses, ring pointers and MSIs checked.
 *
 * Copyright (c) 2026 The qaic authors.
 */
#include <errno.h>
#include <linux/pci_regs.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dbc.h"
#include "dbc_cases.h"
#include "device.h"
#include "emu_test.h"
#include "le_bytes.h"
#include "malice.h"
#include "manager.h"

#define GUEST_GPA	0x100000ull
#define GUEST_SIZE	(4u << 20)
#define RING		(GUEST_GPA + 0x10000)	/* request ring of the DBC under test */
#define BUF		(GUEST_GPA + 0x200000)	/* data buffers */
#define MSI_DATA0	100

static struct emu_device dev;
static struct guest_mem gmem;
static uint8_t *guest;
static struct emu_dbc *eng;
static unsigned int msis[32];
static unsigned int msis_total;
static uint32_t cur_nelem;

static void record_msi(void *ctx, const struct emu_msi_msg *msg)
{
	(void)ctx;
	if (msg->data >= MSI_DATA0 && msg->data < MSI_DATA0 + 32)
		msis[msg->data - MSI_DATA0]++;
	msis_total++;
	dev.counters.irq_sent++;
}

static uint8_t *g(uint64_t gpa)
{
	return guest + (gpa - GUEST_GPA);
}

static uint64_t rsp_ring(void)
{
	return RING + (uint64_t)cur_nelem * EMU_DBC_REQ_ELEM;
}

static void setup(void)
{
	struct emu_irq_sink sink = { .send = record_msi };

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
	/* MSI-X, vectors 0..31 unmasked, data = MSI_DATA0 + vector. */
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
	emu_dbc_set_mem_size(eng, 1 << 20);
	emu_dbc_attach(eng);
	memset(msis, 0, sizeof(msis));
	msis_total = 0;
}

static void activate(unsigned int id, uint32_t nelem)
{
	struct emu_dbc_cfg cfg = {
		.active = true,
		.req_q_addr = RING,
		.rsp_q_addr = RING + (uint64_t)nelem * EMU_DBC_REQ_ELEM,
		.nelem = nelem,
		.buf_len = nelem * 68,
	};

	cur_nelem = nelem;
	emu_dbc_activate(eng, id, &cfg);
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

static void put_req(uint32_t slot, const struct req *r)
{
	uint8_t *p = g(RING + (uint64_t)slot * EMU_DBC_REQ_ELEM);

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
}

static uint32_t rsp_at(uint32_t slot)
{
	return get_le32(g(rsp_ring() + 4 * slot));
}

#define RSP(id, status)	((uint32_t)(id) | (uint32_t)(status) << 16)

static uint32_t sem(unsigned int cmd, unsigned int idx, unsigned int val,
		    bool presync)
{
	return EMU_DBC_SEM_ENABLE | cmd << 24 | idx << 16 | val |
	       (presync ? EMU_DBC_SEM_PRESYNC : 0);
}

static struct emu_dbc_counters counters(unsigned int id)
{
	struct emu_dbc_counters c;

	emu_dbc_get_counters(eng, id, &c);
	return c;
}

#define TO_DEV		(EMU_DBC_CMD_BULK | EMU_DBC_CMD_TO_DEV)
#define FROM_DEV	(EMU_DBC_CMD_BULK | EMU_DBC_CMD_FROM_DEV)
#define RSPF		EMU_DBC_CMD_RSP

static void test_reset_values(void)
{
	uint64_t v64 = 1;
	uint8_t b = 1;

	setup();
	for (unsigned int id = 0; id < EMU_NUM_DBC; id++)
		for (unsigned int r = 0; r < 16; r += 4)
			CHECK_EQ(reg_r(id, r), 0);
	/* Inactive: writes are counted and ignored. */
	reg_w(2, EMU_DBC_REQTP, 5);
	reg_w(2, EMU_DBC_RSPHP, 5);
	CHECK_EQ(reg_r(2, EMU_DBC_REQTP), 0);
	CHECK_EQ(counters(2).ignored_writes, 2);
	CHECK_EQ(counters(2).reg_reads[1], 2);
	/* Other sizes and other offsets. */
	emu_mmio_read(&dev, 2, EMU_DBC_BASE, &v64, 8);
	CHECK_EQ(v64, 0);
	emu_mmio_read(&dev, 2, 0x100, &v64, 8);
	CHECK_EQ(v64, 0);
	emu_mmio_read(&dev, 2, EMU_DBC_BASE + 0x10, &b, 1);
	CHECK_EQ(b, 0);
	emu_mmio_write(&dev, 2, 0x100, &v64, 8);
	emu_mmio_read(&dev, 2, 0x100, &v64, 8);
	CHECK_EQ(v64, 0);
	emu_mmio_read(&dev, 2, EMU_DBC_BASE + 16 * EMU_DBC_STRIDE, &v64, 4);
	CHECK_EQ(v64, 0);
}

static void test_round_trip(void)
{
	struct emu_dbc_counters c;
	uint8_t back[4096];

	setup();
	activate(3, 8);
	for (int i = 0; i < 4096; i++)
		*g(BUF + i) = (uint8_t)(i * 13 + 1);
	put_req(0, &(struct req){ .id = 7, .cmd = TO_DEV, .src = BUF,
				  .dst = 0x1000, .len = 4096 });
	put_req(1, &(struct req){ .id = 7, .cmd = FROM_DEV | RSPF,
				  .src = 0x1000, .dst = BUF + 0x10000,
				  .len = 4096 });
	reg_w(3, EMU_DBC_REQTP, 2);
	CHECK_EQ(reg_r(3, EMU_DBC_REQHP), 2);
	CHECK_EQ(reg_r(3, EMU_DBC_REQTP), 2);
	CHECK_EQ(reg_r(3, EMU_DBC_RSPTP), 1);
	CHECK_EQ(reg_r(3, EMU_DBC_RSPHP), 0);
	CHECK_EQ(rsp_at(0), RSP(7, 0));
	CHECK(!memcmp(g(BUF), g(BUF + 0x10000), 4096));
	CHECK_EQ(emu_dbc_mem_read(eng, 0x1000, back, sizeof(back)), 0);
	CHECK(!memcmp(back, g(BUF), 4096));
	CHECK_EQ(msis[4], 1);
	CHECK_EQ(msis_total, 1);
	c = counters(3);
	CHECK_EQ(c.requests, 2);
	CHECK_EQ(c.responses, 1);
	CHECK_EQ(c.dma_to_dev_bytes, 4096);
	CHECK_EQ(c.dma_from_dev_bytes, 4096);
	CHECK_EQ(c.irqs, 1);
	CHECK_EQ(c.errors, 0);
	CHECK_EQ(c.reg_writes[1], 1);
	c = counters(EMU_NUM_DBC);
	CHECK_EQ(c.requests, 2);
	/* The host consumes the response. */
	reg_w(3, EMU_DBC_RSPHP, 1);
	CHECK_EQ(reg_r(3, EMU_DBC_RSPHP), 1);
	/* A zero-length transfer and a no-transfer request succeed. */
	put_req(2, &(struct req){ .id = 8, .cmd = TO_DEV | RSPF, .src = 0,
				  .dst = 0, .len = 0 });
	put_req(3, &(struct req){ .id = 9, .cmd = RSPF });
	reg_w(3, EMU_DBC_REQTP, 4);
	CHECK_EQ(rsp_at(1), RSP(8, 0));
	CHECK_EQ(rsp_at(2), RSP(9, 0));
	CHECK_EQ(msis[4], 2);
}

/*
 * Device time: a doorbell schedules the requests, the tick does those
 * whose time has come, one MSI for the responses that arrive together,
 * and requests announced meanwhile join the work in progress.
 */
static void test_device_time(void)
{
	const uint32_t ns = 20 * 1000 * 1000;
	struct timespec nap = { .tv_nsec = 30 * 1000 * 1000 };
	long long left;

	setup();
	activate(5, 16);
	emu_dbc_set_timing(eng, 5, ns);
	CHECK_EQ(emu_dbc_timeout_ns(eng), -1);
	for (uint32_t i = 0; i < 4; i++)
		put_req(i, &(struct req){ .id = (uint16_t)(20 + i), .cmd = RSPF });
	reg_w(5, EMU_DBC_REQTP, 2);
	/* Nothing yet: the first request is due in 20 ms. */
	CHECK_EQ(reg_r(5, EMU_DBC_REQHP), 0);
	CHECK_EQ(msis_total, 0);
	left = emu_dbc_timeout_ns(eng);
	CHECK(left > 0 && left <= ns);
	emu_dbc_tick(eng);
	CHECK_EQ(reg_r(5, EMU_DBC_REQHP), 0);
	/* More requests join the channel's work without a new deadline. */
	reg_w(5, EMU_DBC_REQTP, 4);
	CHECK(emu_dbc_timeout_ns(eng) <= left);
	nanosleep(&nap, NULL);
	CHECK_EQ(emu_dbc_timeout_ns(eng), 0);
	emu_dbc_tick(eng);
	/* 30 ms after the doorbell (or later, on a busy machine) */
	CHECK(reg_r(5, EMU_DBC_REQHP) >= 1);
	CHECK_EQ(rsp_at(0), RSP(20, 0));
	CHECK_EQ(msis[6], 1);
	nap.tv_nsec = 80 * 1000 * 1000;
	nanosleep(&nap, NULL);
	emu_dbc_tick(eng);
	CHECK_EQ(reg_r(5, EMU_DBC_REQHP), 4);
	CHECK_EQ(rsp_at(3), RSP(23, 0));
	CHECK_EQ(emu_dbc_timeout_ns(eng), -1);
	/* Back to instant: a doorbell completes within the write. */
	emu_dbc_set_timing(eng, 5, 0);
	reg_w(5, EMU_DBC_RSPHP, 4);
	put_req(4, &(struct req){ .id = 24, .cmd = RSPF });
	reg_w(5, EMU_DBC_REQTP, 5);
	CHECK_EQ(reg_r(5, EMU_DBC_REQHP), 5);
	CHECK_EQ(rsp_at(4), RSP(24, 0));
}

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/*
 * A paced card with a backlog keeps its pace however late the serve loop
 * looks: the next request is due one request's time after the last one
 * was due, not after the late look.
 */
static void test_device_time_pace(void)
{
	const uint64_t ns = 10 * 1000 * 1000;
	struct timespec nap = { .tv_nsec = 25 * 1000 * 1000 };
	uint64_t t0, elapsed;
	long long left;
	uint32_t done;

	setup();
	activate(5, 16);
	emu_dbc_set_timing(eng, 5, (uint32_t)ns);
	for (uint32_t i = 0; i < 8; i++)
		put_req(i, &(struct req){ .id = (uint16_t)(40 + i), .cmd = RSPF });
	t0 = mono_ns();
	reg_w(5, EMU_DBC_REQTP, 8);
	/* A look 15 ms after the first request was due (or later). */
	nanosleep(&nap, NULL);
	emu_dbc_tick(eng);
	elapsed = mono_ns() - t0;
	done = reg_r(5, EMU_DBC_REQHP);
	CHECK(done >= 2 && done < 8);
	left = emu_dbc_timeout_ns(eng);
	/* Due at (done + 1) * ns after the doorbell, with 1 ms of slack. */
	CHECK(left >= 0);
	CHECK((uint64_t)left <= (done + 1) * ns - elapsed + 1000 * 1000);
}

/*
 * EMU_PT_DBC_TIMES' counters: the card's part from doorbell to response,
 * the host's from the response that emptied the ring to the next doorbell;
 * a REQTP moved back (the host resetting its ring) announces nothing.
 */
static void test_device_times(void)
{
	struct timespec nap = { .tv_nsec = 20 * 1000 * 1000 };
	struct emu_dbc_counters c;

	setup();
	activate(5, 16);
	put_req(0, &(struct req){ .id = 50, .cmd = RSPF });
	put_req(1, &(struct req){ .id = 51, .cmd = RSPF });
	reg_w(5, EMU_DBC_REQTP, 1);
	emu_dbc_get_counters(eng, 5, &c);
	CHECK_EQ(c.rsps_timed, 1);
	CHECK(c.card_ns < 20 * 1000 * 1000);
	CHECK_EQ(c.idles, 0);
	nanosleep(&nap, NULL);
	reg_w(5, EMU_DBC_REQTP, 2);
	emu_dbc_get_counters(eng, 5, &c);
	CHECK_EQ(c.rsps_timed, 2);
	CHECK_EQ(c.idles, 1);
	CHECK(c.idle_ns >= 20 * 1000 * 1000);
	/* Back to the head: nothing announced, no idle time closed. */
	reg_w(5, EMU_DBC_REQTP, 2);
	emu_dbc_get_counters(eng, 5, &c);
	CHECK_EQ(c.idles, 1);
	CHECK_EQ(c.rsps_timed, 2);
	/*
	 * The counts go on across activations (readers take differences),
	 * but the wait for a new activation's first doorbell is no host's.
	 */
	nanosleep(&nap, NULL);
	activate(5, 16);
	put_req(0, &(struct req){ .id = 52, .cmd = RSPF });
	reg_w(5, EMU_DBC_REQTP, 1);
	emu_dbc_get_counters(eng, 5, &c);
	CHECK_EQ(c.idles, 1);
	CHECK_EQ(c.rsps_timed, 3);
}

static void test_msi_rules(void)
{
	setup();
	activate(0, 16);
	put_req(0, &(struct req){ .id = 1, .cmd = RSPF });
	reg_w(0, EMU_DBC_REQTP, 1);
	CHECK_EQ(msis[1], 1);
	/* Ring not empty: no new MSI. */
	put_req(1, &(struct req){ .id = 2, .cmd = RSPF });
	reg_w(0, EMU_DBC_REQTP, 2);
	CHECK_EQ(msis[1], 1);
	CHECK_EQ(reg_r(0, EMU_DBC_RSPTP), 2);
	/* Drained: the next response interrupts again. */
	reg_w(0, EMU_DBC_RSPHP, 2);
	put_req(2, &(struct req){ .id = 3, .cmd = RSPF });
	reg_w(0, EMU_DBC_REQTP, 3);
	CHECK_EQ(msis[1], 2);
	/* Force MSI without a response; and no response, no MSI. */
	put_req(3, &(struct req){ .id = 4, .cmd = EMU_DBC_CMD_FORCE_MSI });
	put_req(4, &(struct req){ .id = 5 });
	reg_w(0, EMU_DBC_REQTP, 5);
	CHECK_EQ(msis[1], 3);
	CHECK_EQ(reg_r(0, EMU_DBC_RSPTP), 3);
	CHECK_EQ(reg_r(0, EMU_DBC_REQHP), 5);
	CHECK_EQ(msis_total, 3);
}

/*
 * A host that read RSPTP once, retired those responses and wrote RSPHP
 * hears of the ones that came in meanwhile: an MSI for every RSPHP write
 * that leaves the ring non-empty.
 */
static void test_msi_after_ack(void)
{
	setup();
	activate(0, 16);
	put_req(0, &(struct req){ .id = 1, .cmd = RSPF });
	reg_w(0, EMU_DBC_REQTP, 1);
	CHECK_EQ(msis[1], 1);
	/* The host reads RSPTP (1); two more arrive before it acknowledges. */
	CHECK_EQ(reg_r(0, EMU_DBC_RSPTP), 1);
	put_req(1, &(struct req){ .id = 2, .cmd = RSPF });
	put_req(2, &(struct req){ .id = 3, .cmd = RSPF });
	reg_w(0, EMU_DBC_REQTP, 3);
	CHECK_EQ(msis[1], 1);			/* ring was not empty */
	reg_w(0, EMU_DBC_RSPHP, 1);		/* retires only what it saw */
	CHECK_EQ(msis[1], 2);
	CHECK_EQ(counters(0).irqs, 2);
	/* Writing the same value again: still responses, again an MSI. */
	reg_w(0, EMU_DBC_RSPHP, 1);
	CHECK_EQ(msis[1], 3);
	/* Drained: no MSI. An ignored write (bad index): none either. */
	reg_w(0, EMU_DBC_RSPHP, 3);
	CHECK_EQ(msis[1], 3);
	reg_w(0, EMU_DBC_RSPHP, 16);
	CHECK_EQ(msis[1], 3);
	CHECK_EQ(counters(0).bad_index, 1);
	CHECK_EQ(msis_total, 3);
	CHECK_EQ(counters(0).irqs, 3);
}

static void test_semaphores(void)
{
	struct emu_dbc_counters c;

	setup();
	activate(1, 16);
	/* Post-sync INIT, then a presync wait that holds, INC, DEC wraps. */
	put_req(0, &(struct req){ .id = 1, .cmd = RSPF,
				  .sem = { sem(EMU_DBC_SEM_INIT, 5, 3, false),
					   sem(EMU_DBC_SEM_INC, 6, 0, false),
					   sem(EMU_DBC_SEM_DEC, 7, 0, false) } });
	put_req(1, &(struct req){ .id = 2, .cmd = RSPF,
				  .sem = { sem(EMU_DBC_SEM_WAIT_EQUAL, 5, 3, true),
					   sem(EMU_DBC_SEM_WAIT_GT_0, 5, 0, false) } });
	reg_w(1, EMU_DBC_REQTP, 2);
	CHECK_EQ(reg_r(1, EMU_DBC_REQHP), 2);
	CHECK_EQ(emu_dbc_sem_get(eng, 1, 5), 2);
	CHECK_EQ(emu_dbc_sem_get(eng, 1, 6), 1);
	CHECK_EQ(emu_dbc_sem_get(eng, 1, 7), EMU_DBC_SEM_MAX);
	CHECK_EQ(rsp_at(1), RSP(2, 0));

	/* A presync wait that cannot be met stalls the ring, the rest too. */
	for (int i = 0; i < 64; i++)
		*g(BUF + i) = (uint8_t)(0x40 + i);
	put_req(2, &(struct req){ .id = 3, .cmd = TO_DEV | RSPF, .src = BUF,
				  .dst = 0x2000, .len = 64,
				  .sem = { sem(EMU_DBC_SEM_WAIT_GT_EQ, 9, 4, true) } });
	put_req(3, &(struct req){ .id = 4, .cmd = RSPF });
	reg_w(1, EMU_DBC_REQTP, 4);
	CHECK_EQ(reg_r(1, EMU_DBC_REQHP), 2);
	CHECK_EQ(reg_r(1, EMU_DBC_RSPTP), 2);
	c = counters(1);
	CHECK_EQ(c.stalls, 1);
	CHECK_EQ(c.dma_to_dev_bytes, 0);
	emu_dbc_sem_set(eng, 1, 9, 3);		/* still not enough */
	CHECK_EQ(reg_r(1, EMU_DBC_REQHP), 2);
	CHECK_EQ(counters(1).stalls, 1);	/* the same stall */
	emu_dbc_sem_set(eng, 1, 9, 4);
	CHECK_EQ(reg_r(1, EMU_DBC_REQHP), 4);
	CHECK_EQ(rsp_at(2), RSP(3, 0));
	CHECK_EQ(rsp_at(3), RSP(4, 0));
	CHECK_EQ(counters(1).dma_to_dev_bytes, 64);

	/* A post-sync wait stalls after the transfer, which runs once. */
	put_req(4, &(struct req){ .id = 5, .cmd = TO_DEV | RSPF, .src = BUF,
				  .dst = 0x3000, .len = 64,
				  .sem = { sem(EMU_DBC_SEM_INC, 10, 0, false),
					   sem(EMU_DBC_SEM_WAIT_EQUAL, 11, 2, false) },
				  .db_addr = 0x4000, .db_len = EMU_DBC_DB_ENABLE,
				  .db_data = 0x11223344 });
	reg_w(1, EMU_DBC_REQTP, 5);
	CHECK_EQ(reg_r(1, EMU_DBC_REQHP), 4);
	CHECK_EQ(counters(1).dma_to_dev_bytes, 128);
	CHECK_EQ(counters(1).doorbells, 0);
	CHECK_EQ(emu_dbc_sem_get(eng, 1, 10), 1);
	reg_w(1, EMU_DBC_REQTP, 5);		/* ringing again changes nothing */
	CHECK_EQ(counters(1).dma_to_dev_bytes, 128);
	CHECK_EQ(emu_dbc_sem_get(eng, 1, 10), 1);
	emu_dbc_sem_set(eng, 1, 11, 2);
	CHECK_EQ(reg_r(1, EMU_DBC_REQHP), 5);
	CHECK_EQ(counters(1).dma_to_dev_bytes, 128);
	CHECK_EQ(emu_dbc_sem_get(eng, 1, 10), 1);
	CHECK_EQ(counters(1).doorbells, 1);
	CHECK_EQ(counters(1).stalls, 2);

	/* Reserved command 7, two presyncs, a disabled NOP. */
	put_req(5, &(struct req){ .id = 6, .cmd = RSPF,
				  .sem = { EMU_DBC_SEM_ENABLE | 7u << 24 } });
	put_req(6, &(struct req){ .id = 7, .cmd = RSPF,
				  .sem = { sem(EMU_DBC_SEM_INC, 1, 0, true),
					   sem(EMU_DBC_SEM_INC, 2, 0, true) } });
	put_req(7, &(struct req){ .id = 8, .cmd = RSPF,
				  .sem = { 7u << 24 | EMU_DBC_SEM_PRESYNC,
					   sem(EMU_DBC_SEM_NOP, 0, 0, false) } });
	reg_w(1, EMU_DBC_REQTP, 8);
	CHECK_EQ(rsp_at(5), RSP(6, EMU_DBC_E_SEM));
	CHECK_EQ(rsp_at(6), RSP(7, EMU_DBC_E_CMD));
	CHECK_EQ(rsp_at(7), RSP(8, 0));
	CHECK_EQ(emu_dbc_sem_get(eng, 1, 1), 0);	/* refused: nothing done */
	CHECK_EQ(emu_dbc_sem_get(eng, 1, 32), -22);
	CHECK_EQ(emu_dbc_sem_set(eng, 16, 0, 1), -22);
}

static void test_doorbells(void)
{
	uint8_t m[8];

	setup();
	activate(2, 16);
	put_req(0, &(struct req){ .id = 1, .cmd = RSPF, .db_addr = 0x100,
				  .db_len = EMU_DBC_DB_ENABLE, .db_data = 0xa1b2c3d4 });
	put_req(1, &(struct req){ .id = 2, .cmd = RSPF, .db_addr = 0x106,
				  .db_len = EMU_DBC_DB_ENABLE | 1, .db_data = 0xffff5566 });
	put_req(2, &(struct req){ .id = 3, .cmd = RSPF, .db_addr = 0x105,
				  .db_len = EMU_DBC_DB_ENABLE | 2, .db_data = 0x77 });
	put_req(3, &(struct req){ .id = 4, .cmd = RSPF, .db_addr = 0x102,
				  .db_len = EMU_DBC_DB_ENABLE, .db_data = 1 });
	put_req(4, &(struct req){ .id = 5, .cmd = RSPF, .db_addr = 0x100,
				  .db_len = EMU_DBC_DB_ENABLE | 3, .db_data = 1 });
	put_req(5, &(struct req){ .id = 6, .cmd = RSPF, .db_addr = 1 << 20,
				  .db_len = EMU_DBC_DB_ENABLE, .db_data = 1 });
	put_req(6, &(struct req){ .id = 7, .cmd = RSPF, .db_addr = 1 << 30,
				  .db_len = 0, .db_data = 1 });	/* disabled */
	reg_w(2, EMU_DBC_REQTP, 7);
	CHECK_EQ(emu_dbc_mem_read(eng, 0x100, m, 8), 0);
	CHECK_EQ(get_le32(m), 0xa1b2c3d4);
	CHECK_EQ(m[5], 0x77);
	CHECK_EQ(m[6] | m[7] << 8, 0x5566);
	CHECK_EQ(m[4], 0);
	CHECK_EQ(rsp_at(0), RSP(1, 0));
	CHECK_EQ(rsp_at(3), RSP(4, EMU_DBC_E_DOORBELL));
	CHECK_EQ(rsp_at(4), RSP(5, EMU_DBC_E_DOORBELL));
	CHECK_EQ(rsp_at(5), RSP(6, EMU_DBC_E_DOORBELL));
	CHECK_EQ(rsp_at(6), RSP(7, 0));
	CHECK_EQ(counters(2).doorbells, 3);
	CHECK_EQ(counters(2).errors, 3);
}

static void test_bad_requests(void)
{
	setup();
	activate(4, 32);
	/* Host range outside guest memory, wrapping, device range outside. */
	put_req(0, &(struct req){ .id = 1, .cmd = TO_DEV | RSPF, .src = 0x1000,
				  .dst = 0, .len = 16 });
	put_req(1, &(struct req){ .id = 2, .cmd = FROM_DEV | RSPF, .src = 0,
				  .dst = ~0ull - 8, .len = 64 });
	put_req(2, &(struct req){ .id = 3, .cmd = TO_DEV | RSPF, .src = BUF,
				  .dst = (1 << 20) - 8, .len = 16 });
	put_req(3, &(struct req){ .id = 4, .cmd = FROM_DEV | RSPF, .src = ~0ull - 4,
				  .dst = BUF, .len = 16 });
	put_req(4, &(struct req){ .id = 5, .cmd = TO_DEV | RSPF, .src = BUF,
				  .dst = 0, .len = 0xffffffffu });
	/* Transfer type 3, a linked list. */
	put_req(5, &(struct req){ .id = 6, .cmd = EMU_DBC_CMD_BULK | 3 | RSPF });
	put_req(6, &(struct req){ .id = 7, .cmd = EMU_DBC_CMD_TO_DEV | RSPF,
				  .src = BUF, .len = 4 });
	/* An error without a response is reported by the next response. */
	put_req(7, &(struct req){ .id = 8, .cmd = TO_DEV, .src = 0, .len = 4 });
	put_req(8, &(struct req){ .id = 8, .cmd = TO_DEV | RSPF, .src = BUF, .len = 4 });
	put_req(9, &(struct req){ .id = 9, .cmd = TO_DEV | RSPF, .src = BUF, .len = 4 });
	reg_w(4, EMU_DBC_REQTP, 10);
	CHECK_EQ(reg_r(4, EMU_DBC_REQHP), 10);
	CHECK_EQ(rsp_at(0), RSP(1, EMU_DBC_E_HOST));
	CHECK_EQ(rsp_at(1), RSP(2, EMU_DBC_E_HOST));
	CHECK_EQ(rsp_at(2), RSP(3, EMU_DBC_E_DEV));
	CHECK_EQ(rsp_at(3), RSP(4, EMU_DBC_E_DEV));
	CHECK_EQ(rsp_at(4), RSP(5, EMU_DBC_E_DEV));
	CHECK_EQ(rsp_at(5), RSP(6, EMU_DBC_E_CMD));
	CHECK_EQ(rsp_at(6), RSP(7, EMU_DBC_E_CMD));
	CHECK_EQ(rsp_at(7), RSP(8, EMU_DBC_E_HOST));
	CHECK_EQ(rsp_at(8), RSP(9, 0));
	CHECK_EQ(counters(4).errors, 8);
	CHECK_EQ(counters(4).dma_to_dev_bytes, 8);

	/* Ring indexes beyond nelem: counted, ignored. */
	reg_w(4, EMU_DBC_REQTP, 32);
	reg_w(4, EMU_DBC_RSPHP, 0xffffffffu);
	CHECK_EQ(reg_r(4, EMU_DBC_REQTP), 10);
	CHECK_EQ(reg_r(4, EMU_DBC_RSPHP), 0);
	CHECK_EQ(counters(4).bad_index, 2);
	/* Read-only registers. */
	reg_w(4, EMU_DBC_REQHP, 3);
	reg_w(4, EMU_DBC_RSPTP, 3);
	CHECK_EQ(reg_r(4, EMU_DBC_REQHP), 10);
	CHECK_EQ(reg_r(4, EMU_DBC_RSPTP), 9);
	CHECK_EQ(counters(4).ignored_writes, 2);

	/* Rings outside guest memory: counted, no crash, no hang. */
	{
		struct emu_dbc_cfg cfg = { .active = true, .req_q_addr = 0x10,
					   .rsp_q_addr = 0x1000, .nelem = 4 };

		emu_dbc_activate(eng, 5, &cfg);
		reg_w(5, EMU_DBC_REQTP, 3);
		CHECK_EQ(reg_r(5, EMU_DBC_REQHP), 3);
		CHECK_EQ(counters(5).errors, 3);
	}
}

static void test_rsp_full_and_wrap(void)
{
	setup();
	activate(6, 4);
	for (int i = 0; i < 3; i++)
		put_req(i, &(struct req){ .id = 10 + i, .cmd = RSPF });
	reg_w(6, EMU_DBC_REQTP, 3);
	CHECK_EQ(reg_r(6, EMU_DBC_RSPTP), 3);
	CHECK_EQ(msis[7], 1);
	/* The response ring is full: the next request is held. */
	put_req(3, &(struct req){ .id = 13, .cmd = RSPF });
	put_req(0, &(struct req){ .id = 14, .cmd = RSPF });
	reg_w(6, EMU_DBC_REQTP, 1);		/* wraps: slots 3 and 0 */
	CHECK_EQ(reg_r(6, EMU_DBC_REQHP), 3);
	CHECK_EQ(reg_r(6, EMU_DBC_RSPTP), 3);
	CHECK_EQ(counters(6).rsp_full, 1);
	/* The host takes one: one more fits. */
	reg_w(6, EMU_DBC_RSPHP, 1);
	CHECK_EQ(reg_r(6, EMU_DBC_REQHP), 0);
	CHECK_EQ(reg_r(6, EMU_DBC_RSPTP), 0);
	CHECK_EQ(rsp_at(3), RSP(13, 0));
	CHECK_EQ(counters(6).rsp_full, 2);
	CHECK_EQ(msis[7], 2);			/* responses left after the ack */
	/* The host drains everything: the last one goes; one MSI per write. */
	reg_w(6, EMU_DBC_RSPHP, 0);
	CHECK_EQ(reg_r(6, EMU_DBC_REQHP), 1);
	CHECK_EQ(reg_r(6, EMU_DBC_RSPTP), 1);
	CHECK_EQ(rsp_at(0), RSP(14, 0));
	CHECK_EQ(msis[7], 3);
	CHECK_EQ(counters(6).irqs, 3);
	CHECK_EQ(counters(6).requests, 5);
	CHECK_EQ(counters(6).responses, 5);
}

static void test_faults(void)
{
	uint64_t irqs;
	unsigned int before;

	setup();
	activate(7, 16);
	emu_dbc_set_hang(eng, 7, true);
	put_req(0, &(struct req){ .id = 1, .cmd = RSPF });
	reg_w(7, EMU_DBC_REQTP, 1);
	CHECK_EQ(reg_r(7, EMU_DBC_REQTP), 1);
	CHECK_EQ(reg_r(7, EMU_DBC_REQHP), 0);
	CHECK_EQ(reg_r(7, EMU_DBC_RSPTP), 0);
	CHECK_EQ(msis_total, 0);
	emu_dbc_set_hang(eng, 7, false);
	CHECK_EQ(reg_r(7, EMU_DBC_REQHP), 1);
	CHECK_EQ(reg_r(7, EMU_DBC_RSPTP), 1);
	CHECK_EQ(msis[8], 1);

	/* Drop every second response; corrupt every response. */
	emu_dbc_set_drop_rsp(eng, 7, 2);
	for (int i = 1; i < 5; i++)
		put_req(i, &(struct req){ .id = 100 + i, .cmd = RSPF });
	reg_w(7, EMU_DBC_REQTP, 5);
	CHECK_EQ(reg_r(7, EMU_DBC_REQHP), 5);
	CHECK_EQ(reg_r(7, EMU_DBC_RSPTP), 3);
	CHECK_EQ(rsp_at(1), RSP(101, 0));
	CHECK_EQ(rsp_at(2), RSP(103, 0));
	CHECK_EQ(counters(7).rsp_dropped, 2);
	emu_dbc_set_drop_rsp(eng, 7, 0);
	emu_dbc_set_corrupt_rsp(eng, 7, 1, EMU_DBC_E_INJECTED);
	put_req(5, &(struct req){ .id = 105, .cmd = RSPF });
	reg_w(7, EMU_DBC_REQTP, 6);
	CHECK_EQ(rsp_at(3), RSP(105, EMU_DBC_E_INJECTED));
	CHECK_EQ(counters(7).rsp_corrupted, 1);
	emu_dbc_set_corrupt_rsp(eng, 7, 0, 0);

	/* A lagging REQHP is only what the host reads, wrapping the ring. */
	emu_dbc_set_reqhp_lag(eng, 7, 8);
	CHECK_EQ(reg_r(7, EMU_DBC_REQHP), 14);
	put_req(6, &(struct req){ .id = 106, .cmd = RSPF });
	reg_w(7, EMU_DBC_REQTP, 7);
	CHECK_EQ(reg_r(7, EMU_DBC_REQHP), 15);
	CHECK_EQ(rsp_at(4), RSP(106, 0));
	emu_dbc_set_reqhp_lag(eng, 7, 0);
	CHECK_EQ(reg_r(7, EMU_DBC_REQHP), 7);

	/* MSIs withheld: the response lands, no interrupt is raised or counted. */
	emu_dbc_set_msi_off(eng, 7, true);
	reg_w(7, EMU_DBC_RSPHP, 5);
	before = msis[8];
	irqs = counters(7).irqs;
	put_req(7, &(struct req){ .id = 107, .cmd = RSPF });
	reg_w(7, EMU_DBC_REQTP, 8);
	CHECK_EQ(rsp_at(5), RSP(107, 0));
	CHECK_EQ(msis[8], before);
	CHECK_EQ(counters(7).irqs, irqs);
	emu_dbc_set_msi_off(eng, 7, false);

	/* Hang survives release; release resets the registers. */
	emu_dbc_set_hang(eng, 7, true);
	emu_dbc_release(eng, 7);
	for (unsigned int r = 0; r < 16; r += 4)
		CHECK_EQ(reg_r(7, r), 0);
	activate(7, 16);
	put_req(0, &(struct req){ .id = 1, .cmd = RSPF });
	reg_w(7, EMU_DBC_REQTP, 1);
	CHECK_EQ(reg_r(7, EMU_DBC_REQHP), 0);
	emu_dbc_set_hang(eng, 7, false);
	CHECK_EQ(reg_r(7, EMU_DBC_REQHP), 1);
}

/* The systematic cases (dbc_cases.h): once each, on the next response or read. */
static void test_cases(void)
{
	setup();
	activate(4, 16);
	CHECK_EQ(emu_dbc_send_case(eng, emu_dbc_nr_cases), -EINVAL);

	CHECK_EQ(emu_dbc_send_case(eng, (unsigned int)emu_dbc_case_parse("reqid-plus-1")), 0);
	put_req(0, &(struct req){ .id = 10, .cmd = RSPF });
	put_req(1, &(struct req){ .id = 11, .cmd = RSPF });
	reg_w(4, EMU_DBC_REQTP, 2);
	CHECK_EQ(rsp_at(0), RSP(11, 0));
	CHECK_EQ(rsp_at(1), RSP(11, 0));	/* once */

	CHECK_EQ(emu_dbc_send_case(eng, (unsigned int)emu_dbc_case_parse("status-ones")), 0);
	put_req(2, &(struct req){ .id = 12, .cmd = RSPF });
	reg_w(4, EMU_DBC_REQTP, 3);
	CHECK_EQ(rsp_at(2), RSP(12, 0xffff));

	CHECK_EQ(emu_dbc_send_case(eng, (unsigned int)emu_dbc_case_parse("rsp-twice")), 0);
	put_req(3, &(struct req){ .id = 13, .cmd = RSPF });
	reg_w(4, EMU_DBC_REQTP, 4);
	CHECK_EQ(rsp_at(3), RSP(13, 0));
	CHECK_EQ(rsp_at(4), RSP(13, 0));
	CHECK_EQ(reg_r(4, EMU_DBC_RSPTP), 5);

	/* RSPTP lies at the first read after the response, relative to the truth. */
	CHECK_EQ(emu_dbc_send_case(eng, (unsigned int)emu_dbc_case_parse("rsptp-head")), 0);
	CHECK_EQ(reg_r(4, EMU_DBC_RSPTP), 5);	/* not before */
	put_req(4, &(struct req){ .id = 14, .cmd = RSPF });
	reg_w(4, EMU_DBC_REQTP, 5);
	CHECK_EQ(reg_r(4, EMU_DBC_REQHP), 5);
	CHECK_EQ(reg_r(4, EMU_DBC_RSPTP), 5);
	CHECK_EQ(reg_r(4, EMU_DBC_RSPTP), 6);

	/* REQHP lies at its next read, once. */
	CHECK_EQ(emu_dbc_send_case(eng, (unsigned int)emu_dbc_case_parse("reqhp-nelem")), 0);
	CHECK_EQ(reg_r(4, EMU_DBC_REQHP), 16);
	CHECK_EQ(reg_r(4, EMU_DBC_REQHP), 5);
	CHECK_EQ(emu_dbc_send_case(eng, (unsigned int)emu_dbc_case_parse("reqhp-ones")), 0);
	CHECK_EQ(reg_r(4, EMU_DBC_REQHP), 0xffffffffu);
	CHECK_EQ(reg_r(4, EMU_DBC_RSPTP), 6);
}

/*
 * One-shot hang: nothing is consumed until the host resets the channel
 * (REQTP := REQHP), after which it goes on at that index.
 */
static void test_hang_once_reset(void)
{
	struct emu_dbc_counters c;

	setup();
	activate(10, 8);
	CHECK_EQ(emu_dbc_hang_once(eng, 16, 0), -EINVAL);
	CHECK_EQ(emu_dbc_hang_once(eng, 11, 0), -ENODEV);	/* not active */
	CHECK_EQ(emu_dbc_hang_once(eng, 10, 0), 0);
	for (int i = 0; i < 64; i++)
		*g(BUF + i) = (uint8_t)i;
	put_req(0, &(struct req){ .id = 1, .cmd = TO_DEV | RSPF, .src = BUF,
				  .dst = 0, .len = 64 });
	put_req(1, &(struct req){ .id = 2, .cmd = RSPF });
	reg_w(10, EMU_DBC_REQTP, 2);
	reg_w(10, EMU_DBC_REQTP, 2);		/* ringing again changes nothing */
	emu_dbc_sem_set(eng, 10, 0, 1);		/* nor does the workload */
	CHECK_EQ(reg_r(10, EMU_DBC_REQHP), 0);
	CHECK_EQ(reg_r(10, EMU_DBC_RSPTP), 0);
	c = counters(10);
	CHECK_EQ(c.requests, 0);
	CHECK_EQ(c.dma_to_dev_bytes, 0);
	CHECK_EQ(c.resets, 0);
	CHECK_EQ(msis_total, 0);

	/* The driver's reset: REQTP := REQHP, RSPHP := RSPTP. */
	reg_w(10, EMU_DBC_REQTP, reg_r(10, EMU_DBC_REQHP));
	reg_w(10, EMU_DBC_RSPHP, reg_r(10, EMU_DBC_RSPTP));
	CHECK_EQ(reg_r(10, EMU_DBC_REQHP), 0);
	CHECK_EQ(reg_r(10, EMU_DBC_REQTP), 0);
	CHECK_EQ(counters(10).resets, 1);
	CHECK_EQ(counters(10).requests, 0);
	CHECK_EQ(counters(10).responses, 0);
	CHECK_EQ(emu_dbc_sem_get(eng, 10, 0), 1);	/* semaphores kept */
	CHECK_EQ(msis_total, 0);

	/* New requests at that index complete; the hang is gone. */
	put_req(0, &(struct req){ .id = 20, .cmd = TO_DEV | RSPF, .src = BUF,
				  .dst = 0, .len = 64 });
	put_req(1, &(struct req){ .id = 21, .cmd = RSPF });
	reg_w(10, EMU_DBC_REQTP, 2);
	CHECK_EQ(reg_r(10, EMU_DBC_REQHP), 2);
	CHECK_EQ(reg_r(10, EMU_DBC_RSPTP), 2);
	CHECK_EQ(rsp_at(0), RSP(20, 0));
	CHECK_EQ(rsp_at(1), RSP(21, 0));
	CHECK_EQ(msis[11], 1);
	c = counters(10);
	CHECK_EQ(c.requests, 2);
	CHECK_EQ(c.responses, 2);
	CHECK_EQ(c.dma_to_dev_bytes, 64);
	reg_w(10, EMU_DBC_RSPHP, 2);

	/* Nothing unfinished: REQTP := REQHP is the no-op, not a reset. */
	reg_w(10, EMU_DBC_REQTP, 2);
	CHECK_EQ(counters(10).resets, 1);
	/* Armed with nothing queued: still a no-op, the hang stays armed. */
	CHECK_EQ(emu_dbc_hang_once(eng, 10, 0), 0);
	reg_w(10, EMU_DBC_REQTP, 2);
	CHECK_EQ(counters(10).resets, 1);
	put_req(2, &(struct req){ .id = 22, .cmd = RSPF });
	put_req(3, &(struct req){ .id = 23, .cmd = RSPF });
	reg_w(10, EMU_DBC_REQTP, 4);
	CHECK_EQ(reg_r(10, EMU_DBC_REQHP), 2);
	/* A reset at a non-zero index; the host goes on from there. */
	reg_w(10, EMU_DBC_REQTP, 2);
	CHECK_EQ(counters(10).resets, 2);
	CHECK_EQ(reg_r(10, EMU_DBC_REQTP), 2);
	put_req(2, &(struct req){ .id = 24, .cmd = RSPF });
	reg_w(10, EMU_DBC_REQTP, 3);
	CHECK_EQ(reg_r(10, EMU_DBC_REQHP), 3);
	CHECK_EQ(rsp_at(2), RSP(24, 0));
	CHECK_EQ(counters(10).responses, 3);

	/* A release forgets the one-shot hang. */
	CHECK_EQ(emu_dbc_hang_once(eng, 10, 0), 0);
	emu_dbc_release(eng, 10);
	activate(10, 8);
	put_req(0, &(struct req){ .id = 25, .cmd = RSPF });
	reg_w(10, EMU_DBC_REQTP, 1);
	CHECK_EQ(reg_r(10, EMU_DBC_REQHP), 1);

	/* A reset aborts what the permanent hang holds, but keeps the hang. */
	emu_dbc_set_hang(eng, 10, true);
	put_req(1, &(struct req){ .id = 26, .cmd = RSPF });
	reg_w(10, EMU_DBC_REQTP, 2);
	reg_w(10, EMU_DBC_REQTP, 1);
	CHECK_EQ(counters(10).resets, 3);
	put_req(1, &(struct req){ .id = 27, .cmd = RSPF });
	reg_w(10, EMU_DBC_REQTP, 2);
	CHECK_EQ(reg_r(10, EMU_DBC_REQHP), 1);
	emu_dbc_set_hang(eng, 10, false);
	CHECK_EQ(reg_r(10, EMU_DBC_REQHP), 2);
	CHECK_EQ(rsp_at(1), RSP(27, 0));
}

/*
 * A late hang: the engine fetched the request at REQHP and keeps it through
 * the host's reset, then carries out its transfer once the delay passed,
 * or at once when the DBC is released first. No response: the host gave
 * the request up.
 */
static void test_hang_late(void)
{
	const struct timespec wait = { .tv_nsec = 30 * 1000000 };
	struct emu_dbc_counters c;

	setup();
	activate(10, 8);
	for (int i = 0; i < 64; i++)
		*g(BUF + i) = (uint8_t)(0x80 + i);
	put_req(0, &(struct req){ .id = 1, .cmd = TO_DEV | RSPF, .src = BUF,
				  .dst = 0, .len = 64 });
	reg_w(10, EMU_DBC_REQTP, 1);
	CHECK_EQ(reg_r(10, EMU_DBC_REQHP), 1);

	for (int round = 0; round < 2; round++) {
		uint64_t dst = BUF + 0x1000 * (round + 1);

		CHECK_EQ(emu_dbc_hang_once(eng, 10, round ? 60000 : 20), 0);
		put_req(1 + round, &(struct req){ .id = 2, .cmd = FROM_DEV | RSPF,
						  .src = 0, .dst = dst, .len = 64 });
		reg_w(10, EMU_DBC_REQTP, 2 + round);
		CHECK_EQ(reg_r(10, EMU_DBC_REQHP), 1 + round);
		/* The host gives up: a no-op in the slot, REQTP := REQHP. */
		put_req(1 + round, &(struct req){ .id = 0, .cmd = 0 });
		reg_w(10, EMU_DBC_REQTP, 1 + round);
		c = counters(10);
		CHECK_EQ(c.resets, 1u + round);
		CHECK_EQ(c.late_xfers, (uint64_t)round);
		CHECK_EQ(*g(dst), 0);
		CHECK(emu_dbc_timeout_ns(eng) > 0);
		if (!round) {
			emu_dbc_tick(eng);		/* too early */
			CHECK_EQ(counters(10).late_xfers, 0);
			nanosleep(&wait, NULL);
			CHECK_EQ(emu_dbc_timeout_ns(eng), 0);
			emu_dbc_tick(eng);
			/* The slot stays where the host left it. */
			put_req(1, &(struct req){ .id = 3, .cmd = RSPF });
			reg_w(10, EMU_DBC_REQTP, 2);
			CHECK_EQ(reg_r(10, EMU_DBC_REQHP), 2);
			CHECK_EQ(rsp_at(1), RSP(3, 0));
		} else {
			emu_dbc_release(eng, 10);
		}
		c = counters(10);
		CHECK_EQ(c.late_xfers, 1u + round);
		CHECK(!memcmp(g(dst), g(BUF), 64));
		CHECK_EQ(emu_dbc_timeout_ns(eng), -1);
	}
	CHECK_EQ(rsp_at(0), RSP(1, 0));

	/* A plain one-shot hang keeps nothing through the reset. */
	activate(10, 8);
	CHECK_EQ(emu_dbc_hang_once(eng, 10, 0), 0);
	put_req(0, &(struct req){ .id = 4, .cmd = FROM_DEV | RSPF, .src = 0,
				  .dst = BUF + 0x3000, .len = 64 });
	reg_w(10, EMU_DBC_REQTP, 1);
	reg_w(10, EMU_DBC_REQTP, 0);
	CHECK_EQ(emu_dbc_timeout_ns(eng), -1);
	emu_dbc_release(eng, 10);
	CHECK_EQ(counters(10).late_xfers, 2);	/* the two above */
	CHECK_EQ(*g(BUF + 0x3000), 0);
}

/* Resets of a request waiting on a semaphore and of a held one. */
static void test_reset_stalled(void)
{
	struct emu_dbc_counters c;
	uint8_t m[4] = { 0 };

	setup();
	activate(12, 8);
	/* An error without a response, then a presync wait that stalls. */
	put_req(0, &(struct req){ .id = 1, .cmd = TO_DEV, .src = 0, .len = 4,
				  .sem = { sem(EMU_DBC_SEM_INIT, 4, 7, false) } });
	put_req(1, &(struct req){ .id = 2, .cmd = TO_DEV | RSPF, .src = BUF,
				  .dst = 0x100, .len = 4,
				  .sem = { sem(EMU_DBC_SEM_WAIT_EQUAL, 3, 1, true) } });
	put_req(2, &(struct req){ .id = 3, .cmd = RSPF });
	reg_w(12, EMU_DBC_REQTP, 3);
	CHECK_EQ(reg_r(12, EMU_DBC_REQHP), 1);
	CHECK_EQ(counters(12).stalls, 1);
	reg_w(12, EMU_DBC_REQTP, 1);
	CHECK_EQ(counters(12).resets, 1);
	CHECK_EQ(reg_r(12, EMU_DBC_REQHP), 1);
	CHECK_EQ(reg_r(12, EMU_DBC_REQTP), 1);
	/* The aborted request does not come back when its wait is met. */
	emu_dbc_sem_set(eng, 12, 3, 1);
	c = counters(12);
	CHECK_EQ(c.requests, 1);
	CHECK_EQ(c.responses, 0);
	CHECK_EQ(c.dma_to_dev_bytes, 0);
	CHECK_EQ(reg_r(12, EMU_DBC_RSPTP), 0);
	CHECK_EQ(emu_dbc_sem_get(eng, 12, 4), 0);	/* req 0 failed: no post-sync */
	/* The next response does not carry the error from before the reset. */
	put_req(1, &(struct req){ .id = 4, .cmd = RSPF });
	reg_w(12, EMU_DBC_REQTP, 2);
	CHECK_EQ(rsp_at(0), RSP(4, 0));
	CHECK_EQ(msis[13], 1);
	reg_w(12, EMU_DBC_RSPHP, 1);

	/* A post-sync wait: transfer done, no doorbell after the reset. */
	put_req(2, &(struct req){ .id = 5, .cmd = TO_DEV | RSPF, .src = BUF,
				  .dst = 0x200, .len = 4,
				  .sem = { sem(EMU_DBC_SEM_WAIT_EQUAL, 5, 9, false) },
				  .db_addr = 0x300, .db_len = EMU_DBC_DB_ENABLE,
				  .db_data = 0xdeadbeef });
	reg_w(12, EMU_DBC_REQTP, 3);
	CHECK_EQ(counters(12).dma_to_dev_bytes, 4);
	reg_w(12, EMU_DBC_REQTP, 2);
	CHECK_EQ(counters(12).resets, 2);
	emu_dbc_sem_set(eng, 12, 5, 9);
	CHECK_EQ(emu_dbc_mem_read(eng, 0x300, m, 4), 0);
	CHECK_EQ(get_le32(m), 0);
	CHECK_EQ(counters(12).doorbells, 0);
	CHECK_EQ(reg_r(12, EMU_DBC_RSPTP), 1);

	/* Held on a full response ring (4 elements: 3 responses fill it). */
	activate(13, 4);
	for (int i = 0; i < 4; i++)
		put_req(i, &(struct req){ .id = 40 + i, .cmd = RSPF });
	reg_w(13, EMU_DBC_REQTP, 3);
	reg_w(13, EMU_DBC_REQTP, 0);		/* the fourth, wrapping */
	CHECK_EQ(reg_r(13, EMU_DBC_REQHP), 3);
	CHECK_EQ(counters(13).rsp_full, 1);
	reg_w(13, EMU_DBC_REQTP, 3);
	CHECK_EQ(counters(13).resets, 1);
	reg_w(13, EMU_DBC_RSPHP, reg_r(13, EMU_DBC_RSPTP));
	CHECK_EQ(counters(13).responses, 3);	/* the held one is gone */
	CHECK_EQ(reg_r(13, EMU_DBC_REQHP), 3);
	CHECK_EQ(msis[14], 1);
	put_req(3, &(struct req){ .id = 50, .cmd = RSPF });
	reg_w(13, EMU_DBC_REQTP, 0);
	CHECK_EQ(reg_r(13, EMU_DBC_REQHP), 0);
	CHECK_EQ(rsp_at(3), RSP(50, 0));
	CHECK_EQ(msis[14], 2);
}

/* Release in the middle of a stall; semaphores start at 0 again. */
static void test_release(void)
{
	setup();
	activate(8, 8);
	put_req(0, &(struct req){ .id = 1, .cmd = RSPF,
				  .sem = { sem(EMU_DBC_SEM_INIT, 3, 9, false) } });
	put_req(1, &(struct req){ .id = 2, .cmd = RSPF,
				  .sem = { sem(EMU_DBC_SEM_WAIT_EQUAL, 3, 1, true) } });
	reg_w(8, EMU_DBC_REQTP, 2);
	CHECK_EQ(reg_r(8, EMU_DBC_REQHP), 1);
	emu_dbc_release(eng, 8);
	CHECK_EQ(reg_r(8, EMU_DBC_REQHP), 0);
	CHECK_EQ(emu_dbc_sem_get(eng, 8, 3), 0);
	emu_dbc_sem_set(eng, 8, 3, 1);		/* inactive: nothing runs */
	CHECK_EQ(reg_r(8, EMU_DBC_REQHP), 0);
	activate(8, 8);
	CHECK_EQ(reg_r(8, EMU_DBC_REQTP), 0);
}

/* An NNC 5.0 header for one transaction of @tlen bytes, handle 1. */
static void nnc_header(uint8_t *msg, uint32_t tlen)
{
	memset(msg, 0, 32 + tlen);
	put_le32(msg + 4, 0x43494151u);		/* magic */
	put_le32(msg + 8, 1);			/* sequence */
	put_le32(msg + 12, 32 + tlen);
	put_le32(msg + 16, 1);			/* one transaction */
	put_le32(msg + 20, 1);			/* handle */
	put_le32(msg + 24, 0xffffffffu);
}

#define MGR_NELEM	64
#define MGR_BUF_LEN	((MGR_NELEM * 68 + 256 + 4095) & ~4095u)
#define MGR_RSP_RING	(RING + MGR_BUF_LEN - MGR_NELEM * 4)

/* Activate a DBC with rings at RING through @mgr, as the host does. */
static void mgr_activate(struct emu_manager *mgr)
{
	uint8_t msg[72], ans[4096];

	nnc_header(msg, 40);
	put_le32(msg + 32, 9);			/* ACTIVATE_TO_DEV */
	put_le32(msg + 36, 40);
	put_le64(msg + 40, RING);
	put_le64(msg + 48, MGR_RSP_RING);
	put_le32(msg + 56, MGR_NELEM);
	put_le32(msg + 60, MGR_NELEM);
	put_le32(msg + 64, MGR_BUF_LEN);
	CHECK(emu_manager_handle(mgr, msg, sizeof(msg), ans, sizeof(ans)) > 32);
	cur_nelem = MGR_NELEM;
}

/* Passthrough (@op, @arg) to @mgr: the answer's payload in @ans, or NULL. */
static const uint8_t *mgr_pt(struct emu_manager *mgr, uint32_t op,
			     uint32_t arg, uint8_t *ans, size_t cap)
{
	uint8_t msg[48];
	size_t n;

	nnc_header(msg, 16);
	put_le32(msg + 32, 4);			/* PASSTHROUGH_TO_DEV */
	put_le32(msg + 36, 16);
	put_le32(msg + 40, op);
	put_le32(msg + 44, arg);
	n = emu_manager_handle(mgr, msg, sizeof(msg), ans, cap);
	if (n < 32 + 8 + 16 || get_le32(ans + 32) != 3)	/* PASSTHROUGH_FROM_DEV */
		return NULL;
	return ans + 40;
}

/* Activation and release through the real manager (NNC 5.0 activate). */
static void test_manager_hook(void)
{
	struct emu_manager *mgr;

	setup();
	mgr = emu_manager_create(&dev);
	if (!mgr)
		abort();
	emu_dbc_connect(eng, mgr);
	mgr_activate(mgr);
	put_req(0, &(struct req){ .id = 42, .cmd = RSPF });
	reg_w(0, EMU_DBC_REQTP, 1);
	CHECK_EQ(reg_r(0, EMU_DBC_REQHP), 1);
	CHECK_EQ(reg_r(0, EMU_DBC_RSPTP), 1);
	CHECK_EQ(get_le32(g(MGR_RSP_RING)), RSP(42, 0));
	CHECK_EQ(msis[1], 1);
	/* An MHI-style reset of the manager releases the DBC. */
	emu_manager_reset(mgr);
	CHECK_EQ(reg_r(0, EMU_DBC_REQHP), 0);
	CHECK_EQ(reg_r(0, EMU_DBC_RSPTP), 0);
	emu_dbc_destroy(eng);			/* unhooks from the manager */
	eng = NULL;
	emu_manager_reset(mgr);
	emu_manager_destroy(mgr);
}

/* Payload of EMU_PT_DBC_COUNTERS against the engine's counters of @id. */
static void check_pt_counters(const uint8_t *p, unsigned int id, int line)
{
	struct emu_dbc_counters c = counters(id);
	const uint64_t want[15] = {
		c.reg_reads[0], c.reg_reads[1], c.reg_reads[2], c.reg_reads[3],
		c.reg_writes[0], c.reg_writes[1], c.reg_writes[2], c.reg_writes[3],
		c.requests, c.responses, c.dma_to_dev_bytes, c.dma_from_dev_bytes,
		c.irqs, c.errors, c.resets,
	};

	if (!p || get_le32(p) != EMU_PT_DBC_COUNTERS || get_le32(p + 4) != id ||
	    get_le32(p + 8) != EMU_PT_OK) {
		fprintf(stderr, "line %d: no EMU_PT_DBC_COUNTERS answer for DBC %u\n",
			line, id);
		emu_test_failures++;
		return;
	}
	for (unsigned int k = 0; k < 15; k++)
		if (get_le64(p + 16 + 8 * k) != want[k]) {
			fprintf(stderr, "line %d: DBC %u counter %u: %llu, expected %llu\n",
				line, id, k,
				(unsigned long long)get_le64(p + 16 + 8 * k),
				(unsigned long long)want[k]);
			emu_test_failures++;
		}
}
#define CHECK_PT_COUNTERS(p, id) check_pt_counters(p, id, __LINE__)

/*
 * EMU_PT_HANG_DBC and EMU_PT_DBC_COUNTERS through the real manager: the
 * guest hangs a DBC, resets it and reads the counters without moving them.
 */
static void test_manager_passthrough(void)
{
	struct emu_dbc_counters before, after;
	struct emu_manager *mgr;
	uint8_t ans[4096];
	const uint8_t *p;

	setup();
	mgr = emu_manager_create(&dev);
	if (!mgr)
		abort();
	emu_dbc_connect(eng, mgr);
	mgr_activate(mgr);
	put_req(0, &(struct req){ .id = 42, .cmd = RSPF });
	reg_w(0, EMU_DBC_REQTP, 1);
	reg_r(0, EMU_DBC_RSPTP);
	reg_w(0, EMU_DBC_RSPHP, 1);

	before = counters(0);
	p = mgr_pt(mgr, EMU_PT_DBC_COUNTERS, 0, ans, sizeof(ans));
	CHECK_EQ(get_le32(ans + 36), 8 + sizeof(struct emu_pt_dbc_counters));
	CHECK_PT_COUNTERS(p, 0);
	p = mgr_pt(mgr, EMU_PT_DBC_COUNTERS, 0, ans, sizeof(ans));
	CHECK_PT_COUNTERS(p, 0);
	after = counters(0);
	CHECK(!memcmp(&before, &after, sizeof(before)));	/* reading moved nothing */
	CHECK_EQ(after.reg_reads[3], 1);
	CHECK_EQ(after.reg_writes[1], 1);
	CHECK_EQ(after.reg_writes[2], 1);
	CHECK_EQ(after.requests, 1);
	CHECK_EQ(after.irqs, 1);
	/* An inactive DBC's counters are there; DBC 16's are not. */
	CHECK_PT_COUNTERS(mgr_pt(mgr, EMU_PT_DBC_COUNTERS, 5, ans, sizeof(ans)), 5);
	p = mgr_pt(mgr, EMU_PT_DBC_COUNTERS, 16, ans, sizeof(ans));
	CHECK(p && get_le32(p + 8) == EMU_PT_E_DBC && get_le64(p + 16) == 0);

	/* Hang: only an active DBC. */
	p = mgr_pt(mgr, EMU_PT_HANG_DBC, 1, ans, sizeof(ans));
	CHECK(p && get_le32(p) == EMU_PT_HANG_DBC && get_le32(p + 8) == EMU_PT_E_DBC);
	p = mgr_pt(mgr, EMU_PT_HANG_DBC, 16, ans, sizeof(ans));
	CHECK(p && get_le32(p + 8) == EMU_PT_E_DBC);
	p = mgr_pt(mgr, EMU_PT_HANG_DBC, 0, ans, sizeof(ans));
	CHECK(p && get_le32(p) == EMU_PT_HANG_DBC && get_le32(p + 4) == 0 &&
	      get_le32(p + 8) == EMU_PT_OK);
	CHECK_EQ(get_le32(ans + 36), 8 + sizeof(struct emu_pt_status));
	put_req(1, &(struct req){ .id = 43, .cmd = RSPF });
	reg_w(0, EMU_DBC_REQTP, 2);
	CHECK_EQ(reg_r(0, EMU_DBC_REQHP), 1);
	/* The host's reset; then it goes on. */
	reg_w(0, EMU_DBC_REQTP, reg_r(0, EMU_DBC_REQHP));
	reg_w(0, EMU_DBC_RSPHP, reg_r(0, EMU_DBC_RSPTP));
	put_req(1, &(struct req){ .id = 44, .cmd = RSPF });
	reg_w(0, EMU_DBC_REQTP, 2);
	CHECK_EQ(reg_r(0, EMU_DBC_REQHP), 2);
	CHECK_EQ(get_le32(g(MGR_RSP_RING + 4)), RSP(44, 0));
	p = mgr_pt(mgr, EMU_PT_DBC_COUNTERS, 0, ans, sizeof(ans));
	CHECK_PT_COUNTERS(p, 0);
	CHECK(p && get_le64(p + 128) == 1);	/* resets */
	CHECK(p && get_le64(p + 80) == 2);	/* requests */
	CHECK(p && get_le64(p + 88) == 2);	/* responses */

	/* Unhooked: nobody to hang or count. */
	emu_dbc_destroy(eng);
	eng = NULL;
	p = mgr_pt(mgr, EMU_PT_HANG_DBC, 0, ans, sizeof(ans));
	CHECK(p && get_le32(p + 8) == EMU_PT_E_DBC);
	p = mgr_pt(mgr, EMU_PT_DBC_COUNTERS, 0, ans, sizeof(ans));
	CHECK(p && get_le32(p + 8) == EMU_PT_E_DBC);
	emu_manager_reset(mgr);
	emu_manager_destroy(mgr);
}

/* Single MSI: every DBC interrupt folds onto vector 0. */
static void test_single_msi(void)
{
	setup();
	emu_cfg_write(&dev, EMU_CAP_MSIX + PCI_MSIX_FLAGS, 2, 0);
	emu_cfg_write(&dev, EMU_CAP_MSI + PCI_MSI_ADDRESS_LO, 4, 0xfee00000);
	emu_cfg_write(&dev, EMU_CAP_MSI + PCI_MSI_DATA_64, 2, MSI_DATA0);
	emu_cfg_write(&dev, EMU_CAP_MSI + PCI_MSI_FLAGS, 2, PCI_MSI_FLAGS_ENABLE);
	activate(9, 8);
	put_req(0, &(struct req){ .id = 1, .cmd = RSPF });
	reg_w(9, EMU_DBC_REQTP, 1);
	CHECK_EQ(msis[0], 1);
	CHECK_EQ(msis_total, 1);
}

/*
 * Garbage requests, register writes and sizes: no crash, sane pointers.
 * With dev.malice set (after setup()), under the malicious-card mode.
 */
static void fuzz(void)
{
	static const uint64_t addrs[] = {
		0, BUF, BUF + 0x1000, GUEST_GPA + GUEST_SIZE - 16, 0x800,
		(1 << 20) - 32, ~0ull - 100, 1ull << 40,
	};

	for (unsigned int id = 0; id < EMU_NUM_DBC; id++)
		activate(id, 1 + id * 7);	/* all share one ring area */
	for (int iter = 0; iter < 20000; iter++) {
		unsigned int id = emu_test_rnd() % EMU_NUM_DBC;
		uint32_t n = 1 + id * 7;
		uint8_t *slot = g(RING + (emu_test_rnd() % n) * EMU_DBC_REQ_ELEM);
		uint64_t r = emu_test_rnd();

		for (int i = 0; i < EMU_DBC_REQ_ELEM; i += 8)
			put_le64(slot + i, emu_test_rnd());
		if (r & 1) {	/* make it plausible */
			slot[3] &= 0x9b;
			slot[3] |= 0x08;
			put_le64(slot + 8, addrs[emu_test_rnd() % 8]);
			put_le64(slot + 16, addrs[emu_test_rnd() % 8]);
			put_le32(slot + 24, (uint32_t)(emu_test_rnd() % 8192));
			put_le64(slot + 32, addrs[emu_test_rnd() % 8] + (emu_test_rnd() & 3));
		}
		switch ((r >> 1) % 8) {
		case 0: case 1: case 2:
			reg_w(id, EMU_DBC_REQTP, (uint32_t)(emu_test_rnd() % (n + 2)));
			break;
		case 3:
			reg_w(id, EMU_DBC_RSPHP, reg_r(id, EMU_DBC_RSPTP));
			break;
		case 4:
			reg_w(id, EMU_DBC_RSPHP, (uint32_t)emu_test_rnd());
			break;
		case 5:
			emu_dbc_sem_set(eng, id, emu_test_rnd() % 32, (uint16_t)emu_test_rnd());
			break;
		case 6: {
			uint8_t buf[16];
			uint64_t off = emu_test_rnd() % (EMU_BAR2_SIZE - 16);
			uint64_t len = 1 + emu_test_rnd() % 16;

			if (r & 0x100)
				off = EMU_DBC_BASE + (emu_test_rnd() % 0x11000);
			if (off + len > EMU_BAR2_SIZE)
				off = EMU_BAR2_SIZE - len;
			if (r & 0x200) {
				for (int i = 0; i < 16; i++)
					buf[i] = (uint8_t)emu_test_rnd();
				emu_mmio_write(&dev, 2, off, buf, len);
			} else {
				emu_mmio_read(&dev, 2, off, buf, len);
			}
			break;
		}
		default:
			if (r & 0x400)
				emu_dbc_release(eng, id);
			activate(id, n);
			break;
		}
		if (dev.malice)
			continue;	/* its REQHP/RSPTP lie; see test_malice_fuzz */
		CHECK(reg_r(id, EMU_DBC_REQHP) < n);
		CHECK(reg_r(id, EMU_DBC_RSPTP) < n);
		CHECK(reg_r(id, EMU_DBC_REQTP) < n);
	}
	/* Wake any stalls, then stop. */
	for (unsigned int id = 0; id < EMU_NUM_DBC; id++)
		for (unsigned int s = 0; s < EMU_DBC_NUM_SEM; s++)
			emu_dbc_sem_set(eng, id, s, 1);
	CHECK(counters(EMU_NUM_DBC).requests > 0);
}

static void test_fuzz(void)
{
	setup();
	fuzz();
}

/* ---- malicious-card mode (malice.h) ------------------------------------ */

static struct malice *malice_on(uint64_t seed, unsigned int permille,
				uint32_t kinds)
{
	struct malice_cfg cfg = { .seed = seed, .permille = permille, .kinds = kinds,
				  .boot = true };

	dev.malice = malice_create(&cfg);
	if (!dev.malice)
		abort();
	return dev.malice;
}

static void malice_off(void)
{
	malice_destroy(dev.malice);
	dev.malice = NULL;
}

/* Responses carry another req_id and status; the engine's view is intact. */
static void test_malice_responses(void)
{
	struct malice *m;
	uint32_t r;

	setup();
	m = malice_on(1, 1000, 1u << MALICE_RSP_REQID | 1u << MALICE_RSP_STATUS);
	activate(0, 16);
	for (uint32_t i = 0; i < 12; i++)
		put_req(i, &(struct req){ .id = (uint16_t)(100 + i), .cmd = RSPF });
	reg_w(0, EMU_DBC_REQTP, 12);
	CHECK_EQ(reg_r(0, EMU_DBC_REQHP), 12);
	CHECK_EQ(reg_r(0, EMU_DBC_RSPTP), 12);
	for (uint32_t i = 0; i < 12; i++) {
		r = rsp_at(i);
		CHECK((r & 0xffff) != 100 + i);
		CHECK(r >> 16 != 0);
	}
	CHECK_EQ(malice_count(m, MALICE_RSP_REQID), 12);
	CHECK_EQ(malice_count(m, MALICE_RSP_STATUS), 12);
	CHECK_EQ(counters(0).responses, 12);
	CHECK_EQ(counters(0).errors, 0);
	CHECK_EQ(msis[1], 1);
	malice_off();
	/* Off again: the truth. */
	reg_w(0, EMU_DBC_RSPHP, 12);
	put_req(12, &(struct req){ .id = 7, .cmd = RSPF });
	reg_w(0, EMU_DBC_REQTP, 13);
	CHECK_EQ(rsp_at(12), RSP(7, 0));
}

/* REQHP and RSPTP reads lie; the registers underneath do not move. */
static void test_malice_indexes(void)
{
	unsigned int lies = 0, out = 0;

	setup();
	malice_on(2, 1000, 1u << MALICE_RSPTP | 1u << MALICE_REQHP);
	activate(5, 8);
	for (uint32_t i = 0; i < 3; i++)
		put_req(i, &(struct req){ .id = (uint16_t)i, .cmd = RSPF });
	reg_w(5, EMU_DBC_REQTP, 3);
	for (unsigned int i = 0; i < 1000; i++) {
		uint32_t hp = reg_r(5, EMU_DBC_REQHP), tp = reg_r(5, EMU_DBC_RSPTP);

		lies += (hp != 3) + (tp != 3);
		out += (hp >= 8) + (tp >= 8);
		/* The host's registers are not mutated. */
		CHECK_EQ(reg_r(5, EMU_DBC_REQTP), 3);
		CHECK_EQ(reg_r(5, EMU_DBC_RSPHP), 0);
	}
	CHECK_EQ(lies, 2000);
	CHECK(out > 200 && out < 2000);
	/* Inactive DBC: all-ones or far out of any ring. */
	CHECK(reg_r(6, EMU_DBC_RSPTP) >= 0x80000000u);
	malice_off();
	CHECK_EQ(reg_r(5, EMU_DBC_REQHP), 3);
	CHECK_EQ(reg_r(5, EMU_DBC_RSPTP), 3);
	CHECK_EQ(counters(5).responses, 3);
}

static void test_malice_msis(void)
{
	struct malice *m;

	/* Dropped: the response is there, its MSI is not. */
	setup();
	m = malice_on(3, 1000, 1u << MALICE_MSI_DROP);
	activate(2, 8);
	put_req(0, &(struct req){ .id = 1, .cmd = RSPF });
	reg_w(2, EMU_DBC_REQTP, 1);
	CHECK_EQ(rsp_at(0), RSP(1, 0));
	CHECK_EQ(msis_total, 0);
	CHECK_EQ(counters(2).irqs, 1);		/* the engine did raise it */
	CHECK_EQ(malice_count(m, MALICE_MSI_DROP), 1);
	malice_off();

	/* Spurious: one after every MMIO access, on any of the 32 vectors. */
	setup();
	m = malice_on(4, 1000, 1u << MALICE_MSI_SPURIOUS);
	for (unsigned int i = 0; i < 1000; i++)
		reg_r(i % 16, EMU_DBC_RSPTP);
	CHECK_EQ(msis_total, 1000);
	CHECK_EQ(malice_count(m, MALICE_MSI_SPURIOUS), 1000);
	CHECK(msis[20] > 0 && msis[3] > 0);
	malice_off();

	/* A storm: one, bounded, on the vector of the MSI that started it. */
	setup();
	m = malice_on(5, 1000, 1u << MALICE_MSI_STORM);
	activate(1, 8);
	put_req(0, &(struct req){ .id = 1, .cmd = RSPF });
	reg_w(1, EMU_DBC_REQTP, 1);
	CHECK_EQ(msis[2], 1);
	CHECK_EQ(malice_count(m, MALICE_MSI_STORM), 1);
	while (emu_device_timeout_ms(&dev) >= 0) {
		nanosleep(&(struct timespec){ .tv_nsec = 100000 }, NULL);
		emu_device_tick(&dev);
	}
	CHECK(msis[2] > 1 && msis[2] <= 1 + MALICE_STORM_MSIS);
	CHECK_EQ(msis_total, msis[2]);
	CHECK_EQ(malice_count(m, MALICE_MSI_STORM), 1);
	malice_off();
}

/* Everything at once, often: the engine stays whole. */
static void test_malice_fuzz(void)
{
	struct malice *m;

	setup();
	m = malice_on(6, 300, (1u << MALICE_NUM_KINDS) - 1);
	fuzz();
	CHECK(malice_count(m, MALICE_RSP_REQID) > 0);
	CHECK(malice_count(m, MALICE_RSPTP) > 0);
	CHECK(malice_count(m, MALICE_MSI_SPURIOUS) > 0);
	malice_off();
	for (unsigned int id = 0; id < EMU_NUM_DBC; id++) {
		uint32_t n = 1 + id * 7;

		CHECK(reg_r(id, EMU_DBC_REQHP) < n);
		CHECK(reg_r(id, EMU_DBC_RSPTP) < n);
		CHECK(reg_r(id, EMU_DBC_REQTP) < n);
	}
}

/* The bench's raw channel: activated through BAR2, no manager. */
static void raw_w(unsigned int reg, uint32_t v)
{
	emu_mmio_write(&dev, 2, EMU_DBC_RAW_BASE + reg, &v, 4);
}

static uint32_t raw_r(unsigned int reg)
{
	uint32_t v;

	emu_mmio_read(&dev, 2, EMU_DBC_RAW_BASE + reg, &v, 4);
	return v;
}

static void test_raw_channel(void)
{
	setup();
	CHECK_EQ(raw_r(EMU_DBC_RAW_CTRL), 0);
	/* No ring yet: refused. */
	raw_w(EMU_DBC_RAW_CTRL, EMU_DBC_RAW_ON | 2);
	CHECK_EQ(raw_r(EMU_DBC_RAW_CTRL), EMU_DBC_RAW_REFUSED);
	raw_w(EMU_DBC_RAW_RING_LO, (uint32_t)RING);
	raw_w(EMU_DBC_RAW_RING_HI, (uint32_t)(RING >> 32));
	raw_w(EMU_DBC_RAW_NELEM, EMU_DBC_RAW_MAX_NELEM + 1);
	raw_w(EMU_DBC_RAW_CTRL, EMU_DBC_RAW_ON | 2);
	CHECK_EQ(raw_r(EMU_DBC_RAW_CTRL), EMU_DBC_RAW_REFUSED);
	raw_w(EMU_DBC_RAW_NELEM, 8);
	CHECK_EQ(raw_r(EMU_DBC_RAW_RING_LO), (uint32_t)RING);
	CHECK_EQ(raw_r(EMU_DBC_RAW_NELEM), 8);
	raw_w(EMU_DBC_RAW_CTRL, EMU_DBC_RAW_ON | 2);
	CHECK_EQ(raw_r(EMU_DBC_RAW_CTRL), EMU_DBC_RAW_OK);
	cur_nelem = 8;
	/* Active twice: refused, the channel stays. */
	raw_w(EMU_DBC_RAW_CTRL, EMU_DBC_RAW_ON | 2);
	CHECK_EQ(raw_r(EMU_DBC_RAW_CTRL), EMU_DBC_RAW_REFUSED);
	put_req(0, &(struct req){ .id = 5, .cmd = TO_DEV | RSPF, .src = BUF,
				  .dst = 0, .len = 4096 });
	reg_w(2, EMU_DBC_REQTP, 1);
	CHECK_EQ(rsp_at(0), RSP(5, 0));
	CHECK_EQ(msis[3], 1);
	CHECK_EQ(counters(2).dma_to_dev_bytes, 4096);
	/* A channel the manager's side activated is not raw: not released. */
	activate(4, 8);
	raw_w(EMU_DBC_RAW_CTRL, 4);
	CHECK_EQ(raw_r(EMU_DBC_RAW_CTRL), EMU_DBC_RAW_REFUSED);
	CHECK_EQ(reg_r(4, EMU_DBC_REQTP), 0);
	raw_w(EMU_DBC_RAW_CTRL, EMU_DBC_RAW_ON | 4);
	CHECK_EQ(raw_r(EMU_DBC_RAW_CTRL), EMU_DBC_RAW_REFUSED);
	/* Release: the registers read 0 again. */
	raw_w(EMU_DBC_RAW_CTRL, 2);
	CHECK_EQ(raw_r(EMU_DBC_RAW_CTRL), EMU_DBC_RAW_OK);
	CHECK_EQ(reg_r(2, EMU_DBC_REQHP), 0);
	raw_w(EMU_DBC_RAW_CTRL, 2);
	CHECK_EQ(raw_r(EMU_DBC_RAW_CTRL), EMU_DBC_RAW_REFUSED);
}

static void test_counters_print(void)
{
	char *text = NULL;
	size_t size = 0;
	FILE *f;

	setup();
	activate(0, 4);
	reg_r(0, EMU_DBC_RSPTP);
	f = open_memstream(&text, &size);
	if (!f)
		abort();
	emu_dbc_counters_print(eng, f);
	fclose(f);
	CHECK(strstr(text, "dbc_reads_rsptp 1\n") != NULL);
	CHECK(strstr(text, "dbc0_reads_rsptp 1\n") != NULL);
	CHECK(strstr(text, "dbc15_rsp_corrupted 0\n") != NULL);
	CHECK(strstr(text, "dbc15_resets 0\n") != NULL);
	CHECK(strstr(text, "dbc_resets 0\n") != NULL);
	CHECK(strstr(text, "dbc_mmio_other 0\n") != NULL);
	free(text);
}

int main(void)
{
	RUN(test_reset_values);
	RUN(test_round_trip);
	RUN(test_device_time);
	RUN(test_device_time_pace);
	RUN(test_device_times);
	RUN(test_msi_rules);
	RUN(test_msi_after_ack);
	RUN(test_semaphores);
	RUN(test_doorbells);
	RUN(test_bad_requests);
	RUN(test_rsp_full_and_wrap);
	RUN(test_faults);
	RUN(test_cases);
	RUN(test_hang_once_reset);
	RUN(test_hang_late);
	RUN(test_reset_stalled);
	RUN(test_release);
	RUN(test_manager_hook);
	RUN(test_manager_passthrough);
	RUN(test_single_msi);
	RUN(test_fuzz);
	RUN(test_counters_print);
	RUN(test_raw_channel);
	RUN(test_malice_responses);
	RUN(test_malice_indexes);
	RUN(test_malice_msis);
	RUN(test_malice_fuzz);
	emu_dbc_destroy(eng);
	emu_device_fini(&dev);
	guest_mem_reset(&gmem);
	free(guest);
	return emu_test_exit();
}
