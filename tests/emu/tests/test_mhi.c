// SPDX-License-Identifier: GPL-2.0-only
/*
 * The MHI device side, driven through BAR0 the way the Linux MHI host does
 * it: READY out of reset, context arrays in (memfd-backed) guest memory, M0
 * with its state-change and EE events, channel commands, a QAIC_CONTROL
 * message reaching a fake manager and its answer landing in a downlink
 * buffer; then everything a broken or hostile host can do, counted.
 */
#include <linux/pci_regs.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "device.h"
#include "emu_test.h"
#include "le_bytes.h"
#include "malice.h"
#include "mhi.h"
#include "mhi_host.h"

/* Guest memory: one memfd-backed region. */
#define G_BASE		0x40000000ull
#define G_SIZE		0x100000ull

/* Host layout inside it. */
#define CHAN_CTX	(G_BASE + 0x0000)	/* 128 x 44 bytes */
#define EV_CTX		(G_BASE + 0x2000)
#define CMD_CTX		(G_BASE + 0x2100)
#define CMD_RING	(G_BASE + 0x3000)
#define CMD_ELS		128
#define EV_RING		(G_BASE + 0x4000)
#define EV_ELS		32
#define UL_RING		(G_BASE + 0x5000)
#define DL_RING		(G_BASE + 0x6000)
#define CH_ELS		128
#define BUF		(G_BASE + 0x10000)	/* data buffers */

#define CH_UL		EMU_MHI_CH_CONTROL_UL
#define CH_DL		EMU_MHI_CH_CONTROL_DL

static struct emu_device dev;
static struct guest_mem gm;
static struct emu_mhi *mhi;
static unsigned int irqs;

/* The host's side, and its control channels. */
static struct mhi_host mh = {
	.dev = &dev, .bar = 0, .gm = &gm, .g_base = G_BASE, .g_size = G_SIZE,
	.chan_ctx = CHAN_CTX, .ev_ctx = EV_CTX, .cmd_ctx = CMD_CTX,
	.cmd_ring = CMD_RING, .cmd_els = CMD_ELS, .ev_ring = EV_RING, .ev_els = EV_ELS,
};
static struct mh_chan ul, dl;

/* The fake manager: records the request, answers "re:" + request. */
static uint8_t last_req[EMU_MHI_MAX_MSG];
static size_t last_req_len;
static unsigned int fake_calls;
static bool fake_silent;

static size_t fake_manager(void *ctx, const void *req, size_t len, void *rsp,
			   size_t cap)
{
	(void)ctx;
	fake_calls++;
	last_req_len = len;
	memcpy(last_req, req, len);
	if (fake_silent || len + 3 > cap)
		return 0;
	memcpy(rsp, "re:", 3);
	memcpy((uint8_t *)rsp + 3, req, len);
	return len + 3;
}

static void record_msi(void *ctx, const struct emu_msi_msg *msg)
{
	(void)ctx; (void)msg;
	irqs++;
	dev.counters.irq_sent++;
}

static unsigned int drain_events(void)
{
	struct mh_ev e;
	unsigned int n = 0;

	while (mh_get_ev(&mh, &e))
		n++;
	return n;
}

static void queue_tre(unsigned int ch, uint64_t buf, uint32_t len, bool chain)
{
	mh_queue_tre(&mh, ch == CH_UL ? &ul : &dl, buf, len, chain);
}

static void setup(void)
{
	struct emu_irq_sink sink = { .send = record_msi };

	mhi = mh_new_card(&mh, mhi, 0, &sink);
	emu_mhi_set_control_handler(mhi, fake_manager, NULL);
	emu_mhi_attach(mhi);
	irqs = 0;
	fake_calls = 0;
	fake_silent = false;
}

/* mhi_init_dev_ctxt() + mhi_init_mmio() + the ready transition. */
static void host_init(void)
{
	uint32_t cfg;

	memset(mh.g, 0, 0x8000);
	mh_init_ctxt(&mh);
	mh_wr(&mh, 0x84, 0); mh_wr(&mh, 0x80, 0);
	mh_wr(&mh, 0x8c, 0xffffffff); mh_wr(&mh, 0x88, 0xfffffffe);
	mh_wr(&mh, 0x9c, 0); mh_wr(&mh, 0x98, 0);
	mh_wr(&mh, 0xa4, 0xffffffff); mh_wr(&mh, 0xa0, 0xfffffffe);
	cfg = mh_rd(&mh, 0x10);
	mh_wr(&mh, 0x10, (cfg & ~0x00ff0000u) | 1 << 16);	/* NER = 1 */
	cfg = mh_rd(&mh, 0x10);
	mh_wr(&mh, 0x10, cfg & ~0xff000000u);		/* NHWER = 0 */

	mh_give_ev_ring(&mh);
}

static void host_m0(void)
{
	uint32_t ctrl = mh_rd(&mh, 0x38);

	mh_wr(&mh, 0x38, (ctrl & ~0xff00u) | 2 << 8);
}

static void start_control(void)
{
	mh_chan_init(&mh, &ul, CH_UL, 1, UL_RING, CH_ELS);
	mh_chan_init(&mh, &dl, CH_DL, 2, DL_RING, CH_ELS);
	CHECK_EQ(mh_cmd_sync(&mh, 0x12, CH_UL), 1);
	CHECK_EQ(mh_cmd_sync(&mh, 0x12, CH_DL), 1);
}

static void bring_up(void)
{
	setup();
	host_init();
	host_m0();
	CHECK_EQ(drain_events(), 2);
	start_control();
}

static void test_registers(void)
{
	uint8_t b[8];

	setup();
	CHECK_EQ(mh_rd(&mh, 0x00), 0x1000);		/* MHIREGLEN */
	CHECK_EQ(mh_rd(&mh, 0x08), EMU_MHI_VERSION);
	CHECK_EQ(mh_rd(&mh, 0x10) & 0xff, 128);		/* NCH */
	CHECK(mh_rd(&mh, 0x18) < 0x1000 - 8 * 127);	/* CHDBOFF */
	CHECK(mh_rd(&mh, 0x20) < 0x1000 - 8 * 32);	/* ERDBOFF */
	CHECK(mh_rd(&mh, 0x28) < 0x1000);		/* BHIOFF */
	CHECK_EQ(mh_rd(&mh, mh_rd(&mh, 0x28) + 0x28), 2);	/* EXECENV = AMSS */
	CHECK_EQ(mh_rd(&mh, mh_rd(&mh, 0x28) + 0x40), EMU_MHI_DEFAULT_SERIAL);
	CHECK_EQ(mh_rd(&mh, 0x38) & 2, 0);		/* RESET clear */
	CHECK_EQ(mh_rd(&mh, 0x48), 1 << 8 | 1);		/* READY, READY bit */
	CHECK_EQ(mh_rd(&mh, 0x224), 0x60110200);
	/* Unknown offsets read 0; odd sizes and offsets do not crash. */
	CHECK_EQ(mh_rd(&mh, 0xffc), 0);
	CHECK_EQ(mh_rd(&mh, 0x3c), 0);
	emu_mmio_read(&dev, 0, 0x49, b, 3);
	CHECK_EQ(b[0], 1);
	emu_mmio_read(&dev, 0, 0x0, b, 8);
	CHECK_EQ(b[0], 0x00);
	CHECK_EQ(b[1], 0x10);
	emu_mmio_write(&dev, 0, 0xfff, "x", 1);
	emu_mmio_write(&dev, 0, 0x0, "12345678", 8);
	CHECK_EQ(mh_rd(&mh, 0x00), 0x1000);		/* read-only */
	/* BHI INTVEC is writable; other BHI fields are not. */
	mh_wr(&mh, mh_rd(&mh, 0x28) + 0x20, 0);
	mh_wr(&mh, mh_rd(&mh, 0x28) + 0x28, 7);
	CHECK_EQ(mh_rd(&mh, mh_rd(&mh, 0x28) + 0x28), 2);
	/* Doorbells before anything is set up are just stored. */
	mh_chdb(&mh, CH_UL, 0x1234);
	mh_db(&mh, 0x70, 0x10);
	CHECK_EQ(mh_rd(&mh, 0x70), 0x10);
	CHECK_EQ(emu_mhi_counters(mhi)->mhi_cmds, 0);
	CHECK_EQ(dev.counters.mmio_rejected, 0);
}

static void test_power_up(void)
{
	struct mh_ev e;

	setup();
	host_init();
	CHECK_EQ(irqs, 0);
	host_m0();
	CHECK_EQ(mh_rd(&mh, 0x48) >> 8 & 0xff, 2);	/* M0 */
	CHECK_EQ(emu_mhi_state(mhi), 2);
	CHECK_EQ(irqs, 1);
	CHECK(mh_get_ev(&mh, &e));
	CHECK_EQ(mh_ev_type(&e), 0x20);			/* state change */
	CHECK_EQ(e.dw0 >> 24, 2);			/* M0 */
	CHECK(mh_get_ev(&mh, &e));
	CHECK_EQ(mh_ev_type(&e), 0x40);			/* EE */
	CHECK_EQ(e.dw0 >> 24, 2);			/* AMSS */
	CHECK(!mh_get_ev(&mh, &e));
	/* Writing M0 again changes nothing. */
	host_m0();
	CHECK(!mh_get_ev(&mh, &e));
	CHECK_EQ(emu_mhi_counters(mhi)->mhi_events, 2);

	/* Commands: NOOP, START both control channels. */
	CHECK_EQ(mh_cmd_sync(&mh, 0x01, 0), 1);
	start_control();
	CHECK_EQ(mh_r32(&mh, CHAN_CTX + CH_UL * MH_CTX_SIZE) & 0xff, 2);	/* RUNNING */
	CHECK_EQ(mh_r32(&mh, CHAN_CTX + CH_DL * MH_CTX_SIZE) & 0xff, 2);
	CHECK_EQ(mh_r64(&mh, CMD_CTX + 28), mh.cmd_wp);	/* cmd rp advanced */
	CHECK_EQ(emu_mhi_counters(mhi)->mhi_cmds, 3);

	/* M3 and back: state changes, no second EE event. */
	mh_wr(&mh, 0x38, 5 << 8);
	CHECK(mh_get_ev(&mh, &e));
	CHECK_EQ(e.dw0 >> 24, 5);
	host_m0();
	CHECK(mh_get_ev(&mh, &e));
	CHECK_EQ(mh_ev_type(&e), 0x20);
	CHECK_EQ(e.dw0 >> 24, 2);
	CHECK(!mh_get_ev(&mh, &e));
	CHECK_EQ(emu_mhi_counters(mhi)->mhi_bad_ring, 0);
	CHECK_EQ(emu_mhi_counters(mhi)->mhi_bad_tre, 0);
}

static void test_control_message(void)
{
	struct mh_ev e;

	bring_up();
	/* The host queues the response buffer first, like qaic. */
	queue_tre(CH_DL, BUF + 0x1000, 4096, false);
	CHECK(!mh_get_ev(&mh, &e));
	memcpy(mh_gp(&mh, BUF), "hello", 5);
	irqs = 0;
	queue_tre(CH_UL, BUF, 5, false);
	CHECK_EQ(fake_calls, 1);
	CHECK_EQ(last_req_len, 5);
	CHECK(!memcmp(last_req, "hello", 5));
	CHECK_EQ(irqs, 1);
	CHECK(mh_get_ev(&mh, &e));
	CHECK_EQ(mh_ev_type(&e), 0x22);
	CHECK_EQ(mh_ev_chan(&e), CH_UL);
	CHECK_EQ(mh_ev_code(&e), 2);			/* EOT */
	CHECK_EQ(mh_ev_len(&e), 5);
	CHECK_EQ(e.ptr, UL_RING);
	CHECK(mh_get_ev(&mh, &e));
	CHECK_EQ(mh_ev_chan(&e), CH_DL);
	CHECK_EQ(mh_ev_code(&e), 2);
	CHECK_EQ(mh_ev_len(&e), 8);
	CHECK_EQ(e.ptr, DL_RING);
	CHECK(!memcmp(mh_gp(&mh, BUF + 0x1000), "re:hello", 8));
	CHECK(!mh_get_ev(&mh, &e));

	/* A message in three chained TREs, rung one by one; no buffer yet. */
	memcpy(mh_gp(&mh, BUF + 0x100), "abc", 3);
	memcpy(mh_gp(&mh, BUF + 0x200), "defg", 4);
	memcpy(mh_gp(&mh, BUF + 0x300), "hi", 2);
	queue_tre(CH_UL, BUF + 0x100, 3, true);
	queue_tre(CH_UL, BUF + 0x200, 4, true);
	CHECK_EQ(fake_calls, 1);
	queue_tre(CH_UL, BUF + 0x300, 2, false);
	CHECK_EQ(fake_calls, 2);
	CHECK_EQ(last_req_len, 9);
	CHECK(!memcmp(last_req, "abcdefghi", 9));
	/* One event, for the last TRE of the chain. */
	CHECK(mh_get_ev(&mh, &e));
	CHECK_EQ(mh_ev_chan(&e), CH_UL);
	CHECK_EQ(e.ptr, UL_RING + 3 * 16);
	CHECK(!mh_get_ev(&mh, &e));
	/* The answer waits for a buffer. */
	queue_tre(CH_DL, BUF + 0x2000, 4096, false);
	CHECK(mh_get_ev(&mh, &e));
	CHECK_EQ(mh_ev_chan(&e), CH_DL);
	CHECK_EQ(mh_ev_len(&e), 12);
	CHECK(!memcmp(mh_gp(&mh, BUF + 0x2000), "re:abcdefghi", 12));

	/* A buffer smaller than the answer: truncated, OVERFLOW. */
	queue_tre(CH_DL, BUF + 0x3000, 4, false);
	queue_tre(CH_UL, BUF, 5, false);
	CHECK(mh_get_ev(&mh, &e));
	CHECK(mh_get_ev(&mh, &e));
	CHECK_EQ(mh_ev_code(&e), 3);
	CHECK_EQ(mh_ev_len(&e), 4);

	/* No answer: the uplink completes, the downlink buffer stays. */
	fake_silent = true;
	queue_tre(CH_DL, BUF + 0x4000, 4096, false);
	queue_tre(CH_UL, BUF, 5, false);
	CHECK(mh_get_ev(&mh, &e));
	CHECK_EQ(mh_ev_chan(&e), CH_UL);
	CHECK(!mh_get_ev(&mh, &e));

	CHECK_EQ(emu_mhi_counters(mhi)->control_msgs_in, 4);
	CHECK_EQ(emu_mhi_counters(mhi)->control_msgs_out, 3);
	CHECK_EQ(emu_mhi_counters(mhi)->mhi_bad_ring, 0);
	CHECK_EQ(emu_mhi_counters(mhi)->mhi_bad_tre, 0);
}

static void test_other_channels(void)
{
	struct mh_ev e;
	uint64_t ring = G_BASE + 0x7000;

	bring_up();
	/* Timesync pair 22 (uplink) / 23 (downlink). */
	mh_set_ctx(&mh, CHAN_CTX + 22 * MH_CTX_SIZE, 1, 1, 0, ring, 16 * 32);
	mh_set_ctx(&mh, CHAN_CTX + 23 * MH_CTX_SIZE, 1, 2, 0, ring + 0x200, 16 * 32);
	CHECK_EQ(mh_cmd_sync(&mh, 0x12, 22), 1);
	CHECK_EQ(mh_cmd_sync(&mh, 0x12, 23), 1);
	mh_put_el(&mh, ring + 0x200, BUF, 64, 2 << 16 | 1 << 9);
	mh_chdb(&mh, 23, ring + 0x210);
	CHECK(!mh_get_ev(&mh, &e));			/* downlink stays */
	mh_put_el(&mh, ring, BUF, 24, 2 << 16 | 1 << 9);
	mh_chdb(&mh, 22, ring + 0x10);
	CHECK(mh_get_ev(&mh, &e));
	CHECK_EQ(mh_ev_chan(&e), 22);
	CHECK_EQ(mh_ev_code(&e), 2);
	CHECK_EQ(mh_ev_len(&e), 24);
	CHECK(!mh_get_ev(&mh, &e));
	CHECK_EQ(fake_calls, 0);
	/* STOP, START again, RESET; doorbells after RESET are ignored. */
	CHECK_EQ(mh_cmd_sync(&mh, 0x11, 22), 1);
	CHECK_EQ(mh_r32(&mh, CHAN_CTX + 22 * MH_CTX_SIZE) & 0xff, 4);
	CHECK_EQ(mh_cmd_sync(&mh, 0x12, 22), 1);
	CHECK_EQ(mh_cmd_sync(&mh, 0x10, 22), 1);
	CHECK_EQ(mh_r32(&mh, CHAN_CTX + 22 * MH_CTX_SIZE) & 0xff, 0);
	mh_put_el(&mh, ring + 0x10, BUF, 24, 2 << 16 | 1 << 9);
	mh_chdb(&mh, 22, ring + 0x20);
	CHECK(!mh_get_ev(&mh, &e));
	/* Wake doorbell (127) is accepted silently. */
	mh_chdb(&mh, 127, 1);
	CHECK(!mh_get_ev(&mh, &e));
	CHECK_EQ(emu_mhi_counters(mhi)->mhi_bad_ring, 0);
}

static void test_bogus_host(void)
{
	const struct emu_mhi_counters *c;
	struct mh_ev e;
	uint64_t ctx30 = CHAN_CTX + 30 * MH_CTX_SIZE;
	unsigned int i;

	bring_up();
	c = emu_mhi_counters(mhi);

	/* Ring outside guest memory, unaligned, absurd length, bad chtype. */
	mh_set_ctx(&mh, ctx30, 1, 1, 0, G_BASE + G_SIZE - 0x100, 0x1000);
	CHECK_EQ(mh_cmd_sync(&mh, 0x12, 30), 0x10);
	mh_set_ctx(&mh, ctx30, 1, 1, 0, G_BASE + 0x7008, 0x100);
	CHECK_EQ(mh_cmd_sync(&mh, 0x12, 30), 0x10);
	mh_set_ctx(&mh, ctx30, 1, 1, 0, G_BASE + 0x7000, ~0ull);
	CHECK_EQ(mh_cmd_sync(&mh, 0x12, 30), 0x10);
	mh_set_ctx(&mh, ctx30, 1, 1, 0, G_BASE + 0x7000, 16);
	CHECK_EQ(mh_cmd_sync(&mh, 0x12, 30), 0x10);
	mh_set_ctx(&mh, ctx30, 1, 7, 0, G_BASE + 0x7000, 0x100);
	CHECK_EQ(mh_cmd_sync(&mh, 0x12, 30), 0x10);
	mh_set_ctx(&mh, ctx30, 1, 1, 9, G_BASE + 0x7000, 0x100);	/* erindex */
	CHECK_EQ(mh_cmd_sync(&mh, 0x12, 30), 0x10);
	mh_set_ctx(&mh, ctx30, 1, 1, 0, G_BASE + 0x7000, 0x100);
	mh_w64(&mh, ctx30 + 36, G_BASE + 0x7000 + 0x100);	/* wp past end */
	CHECK_EQ(mh_cmd_sync(&mh, 0x12, 30), 0x10);
	CHECK_EQ(c->mhi_bad_ring, 7);
	/* Channel numbers out of range; unknown commands. */
	CHECK_EQ(mh_cmd_sync(&mh, 0x12, 200), 0x10);
	CHECK_EQ(mh_cmd_sync(&mh, 0x12, 127), 0x10);
	CHECK_EQ(mh_cmd_sync(&mh, 0x33, 1), 0x10);
	CHECK_EQ(mh_cmd_sync(&mh, 0x00, 1), 0x10);
	CHECK_EQ(c->mhi_bad_tre, 4);

	/* Doorbells outside the ring, or unaligned. */
	mh_chdb(&mh, CH_UL, UL_RING + 16 * CH_ELS);
	mh_chdb(&mh, CH_UL, UL_RING + 8);
	mh_chdb(&mh, CH_UL, 0);
	mh_db(&mh, 0x70, CMD_RING + 16 * CMD_ELS + 16);
	CHECK_EQ(c->mhi_bad_ring, 11);
	CHECK(!mh_get_ev(&mh, &e));

	/* A TRE of the wrong type: BAD_TRE event, and carry on. */
	mh_put_el(&mh, ul.wp, BUF, 5, 0x21 << 16 | 1 << 9);
	ul.wp = mh_next(ul.wp, UL_RING, CH_ELS);
	mh_chdb(&mh, CH_UL, ul.wp);
	CHECK(mh_get_ev(&mh, &e));
	CHECK_EQ(mh_ev_code(&e), 0x11);
	CHECK_EQ(c->mhi_bad_tre, 5);
	/* A buffer outside guest memory: completed, not handed over. */
	queue_tre(CH_UL, G_BASE + G_SIZE - 2, 5, false);
	CHECK(mh_get_ev(&mh, &e));
	CHECK_EQ(fake_calls, 0);
	CHECK_EQ(c->mhi_bad_tre, 6);
	/* A good message still gets through afterwards. */
	memcpy(mh_gp(&mh, BUF), "ok", 2);
	queue_tre(CH_DL, BUF + 0x1000, 64, false);
	queue_tre(CH_UL, BUF, 2, false);
	CHECK_EQ(fake_calls, 1);
	CHECK_EQ(drain_events(), 2);
	/* A message longer than the cap: dropped at the end of its chain. */
	for (i = 0; i < EMU_MHI_MAX_MSG / 0x8000 + 1; i++)
		queue_tre(CH_UL, G_BASE + 0x20000, 0x8000, true);
	queue_tre(CH_UL, BUF, 2, false);
	CHECK_EQ(fake_calls, 1);
	CHECK_EQ(c->mhi_bad_tre, 7);
	drain_events();

	/* Context arrays pointing nowhere: commands fail, nothing crashes. */
	mh_wr(&mh, 0x58, 0xfffff000);
	mh_wr(&mh, 0x5c, 0xffffffff);
	CHECK_EQ(mh_cmd_sync(&mh, 0x12, 40), 0x10);
	mh_wr(&mh, 0x68, 0x10);			/* command ring moves away ... */
	mh_wr(&mh, 0x6c, 0);
	mh_cmd(&mh, 0x01, 0);			/* ... but it is started already */
	CHECK_EQ(drain_events(), 1);
	CHECK_EQ(dev.counters.mmio_rejected, 0);
}

static void test_event_ring_full(void)
{
	const struct emu_mhi_counters *c;
	unsigned int i, n;
	struct mh_ev e;

	bring_up();
	c = emu_mhi_counters(mhi);
	/* 40 commands, events not consumed: 31 fit, 9 are held back. */
	for (i = 0; i < 40; i++)
		mh_cmd(&mh, 0x01, 0);
	CHECK_EQ(c->mhi_cmds, 42);
	CHECK_EQ(c->mhi_events, 2 + 2 + 31);
	/* Consuming them hands slots back; the rest follow, in order. */
	for (n = 0; mh_get_ev(&mh, &e); n++)
		CHECK_EQ(e.ptr, CMD_RING + 16 * (2 + n));
	CHECK_EQ(n, 40);
	CHECK_EQ(c->mhi_events_lost, 0);
	/* An event doorbell outside the ring is counted. */
	mh_erdb(&mh, 0, EV_RING - 16);
	CHECK_EQ(c->mhi_bad_ring, 0 + 1);
}

static void test_syserr_and_reset(void)
{
	const struct emu_mhi_counters *c;
	struct mh_ev e;
	uint32_t ctrl;

	bring_up();
	c = emu_mhi_counters(mhi);
	queue_tre(CH_DL, BUF + 0x1000, 64, false);
	irqs = 0;
	emu_mhi_raise_syserr(mhi);
	CHECK_EQ(irqs, 1);
	CHECK_EQ(mh_rd(&mh, 0x48) >> 8 & 0xff, 0xff);
	CHECK(mh_rd(&mh, 0x48) & 4);			/* SYSERR bit */
	/* Rings are not served in SYS_ERROR; M0 does not leave it. */
	queue_tre(CH_UL, BUF, 2, false);
	CHECK_EQ(fake_calls, 0);
	host_m0();
	CHECK_EQ(mh_rd(&mh, 0x48) >> 8 & 0xff, 0xff);
	CHECK(!mh_get_ev(&mh, &e));

	/* The host's reset, read-modify-write like mhi_set_mhi_state(). */
	ctrl = mh_rd(&mh, 0x38);
	mh_wr(&mh, 0x38, ctrl | 2);
	CHECK_EQ(mh_rd(&mh, 0x38) & 2, 0);
	CHECK_EQ(mh_rd(&mh, 0x48), 1 << 8 | 1);
	CHECK_EQ(mh_rd(&mh, mh_rd(&mh, 0x28) + 0x28), 2);
	CHECK_EQ(c->mhi_resets, 1);
	CHECK_EQ(c->mhi_syserr, 1);

	/* Power up again from scratch. */
	host_init();
	host_m0();
	CHECK(mh_get_ev(&mh, &e));
	CHECK_EQ(e.dw0 >> 24, 2);
	CHECK(mh_get_ev(&mh, &e));
	CHECK_EQ(mh_ev_type(&e), 0x40);
	start_control();
	memcpy(mh_gp(&mh, BUF), "up", 2);
	queue_tre(CH_DL, BUF + 0x1000, 64, false);
	queue_tre(CH_UL, BUF, 2, false);
	CHECK_EQ(fake_calls, 1);
	CHECK_EQ(drain_events(), 2);

	/*
	 * A held answer dies with a reset; SoC reset works too. Under a host
	 * whose MHI is up it reads SYS_ERR until the host resets MHI.
	 */
	queue_tre(CH_UL, BUF, 2, false);
	drain_events();
	irqs = 0;
	mh_wr(&mh, 0xb0, 1);
	CHECK_EQ(irqs, 1);
	CHECK_EQ(c->control_msgs_dropped, 1);
	CHECK_EQ(c->mhi_resets, 2);
	CHECK_EQ(c->mhi_syserr, 2);
	CHECK_EQ(mh_rd(&mh, 0x48) >> 8, 0xff);
	mh_wr(&mh, 0x38, 2);
	CHECK_EQ(mh_rd(&mh, 0x48), 1 << 8 | 1);
}

static void test_syserr_timer(void)
{
	setup();
	emu_mhi_set_syserr_after(mhi, 1);
	CHECK_EQ(emu_mhi_timeout_ms(mhi), -1);		/* not before M0 */
	host_init();
	host_m0();
	CHECK(emu_mhi_timeout_ms(mhi) >= 0);
	usleep(5000);
	emu_mhi_tick(mhi);
	CHECK_EQ(emu_mhi_state(mhi), 0xff);
	CHECK_EQ(emu_mhi_timeout_ms(mhi), -1);		/* one shot */
}

static void test_event_doorbell_only(void)
{
	struct mh_ev e;

	/* A host that gives event slots by doorbell only, ctx wp untouched. */
	setup();
	host_init();
	mh_w64(&mh, EV_CTX + 36, EV_RING);
	host_m0();
	CHECK(mh_get_ev(&mh, &e));
	CHECK_EQ(e.dw0 >> 24, 2);
	CHECK(mh_get_ev(&mh, &e));
	CHECK_EQ(mh_ev_type(&e), 0x40);

	/* And one that rings nothing before M0: events wait for the doorbell. */
	setup();
	host_init();
	emu_mhi_destroy(mhi);
	mhi = emu_mhi_create(&dev, NULL);
	emu_mhi_attach(mhi);
	mh_wr(&mh, 0x58, (uint32_t)CHAN_CTX); mh_wr(&mh, 0x5c, (uint32_t)(CHAN_CTX >> 32));
	mh_wr(&mh, 0x60, (uint32_t)EV_CTX); mh_wr(&mh, 0x64, (uint32_t)(EV_CTX >> 32));
	mh_w64(&mh, EV_CTX + 36, EV_RING);
	host_m0();
	CHECK(!mh_get_ev(&mh, &e));
	CHECK_EQ(emu_mhi_counters(mhi)->mhi_events, 0);
	mh_w64(&mh, EV_CTX + 36, EV_RING + 16 * (EV_ELS - 1));
	mh_erdb(&mh, 0, EV_RING + 16 * (EV_ELS - 1));
	CHECK_EQ(emu_mhi_counters(mhi)->mhi_events, 2);
	CHECK(mh_get_ev(&mh, &e));
	CHECK_EQ(e.dw0 >> 24, 2);
}

/* A random ring element, mostly plausible. */
static void random_el(uint64_t gpa)
{
	static const uint8_t types[] = { 0x01, 0x02, 0x02, 0x10, 0x11, 0x12, 0x12, 0x99 };
	uint32_t dw0 = (uint32_t)emu_test_rnd(), dw1 = (uint32_t)emu_test_rnd();

	dw1 = (dw1 & 0xff00ffffu) | (uint32_t)types[emu_test_rnd() % 8] << 16;
	if (emu_test_rnd() % 2)
		dw1 = (dw1 & 0x00ffffffu) | (uint32_t)(emu_test_rnd() % 24) << 24;
	mh_put_el(&mh, gpa, emu_test_rnd() % 4 ? BUF + emu_test_rnd() % 0x8000 : emu_test_rnd(),
		  dw0, dw1);
}

/* A host writing garbage everywhere: the device must survive and stop. */
static void test_random_host(void)
{
	unsigned int i, j;

	bring_up();
	for (i = 0; i < 20000; i++) {
		uint64_t r = emu_test_rnd(), wp = G_BASE + 0x3000 + (emu_test_rnd() % 0x4000 & ~15ull);
		uint32_t off, val = (uint32_t)emu_test_rnd();
		uint64_t big = emu_test_rnd();

		if (i % 2000 == 0) {
			/* A fresh, valid power-up, then broken ring contents. */
			mh_wr(&mh, 0x38, 2);
			host_init();
			host_m0();
			drain_events();
			start_control();
			for (j = 0; j < 24; j++)
				mh_set_ctx(&mh, CHAN_CTX + j * MH_CTX_SIZE, 1, 1 + j % 2,
					emu_test_rnd() % 8 ? 0 : emu_test_rnd() % 3,
					G_BASE + 0x5000 + 0x800 * (j % 2),
					emu_test_rnd() % 8 ? 16 * CH_ELS : emu_test_rnd() % 0x10000);
		}
		if (i % 100 == 0)
			for (j = 0; j < 0x3000; j += 16)
				random_el(CMD_RING + j);
		switch (r % 8) {
		case 0:
			off = emu_test_rnd() % 0x1000 & ~3u;
			if (off == 0x38 || off == 0xb0)
				continue;	/* resets have their own case */
			break;
		case 1:
		case 2:
			off = EMU_MHI_CHDB_OFF + 8 * (emu_test_rnd() % 24);
			val = (uint32_t)wp;
			mh_wr(&mh, off + 4, (uint32_t)(wp >> 32));
			break;
		case 3:
			off = EMU_MHI_ERDB_OFF + 8 * (emu_test_rnd() % 2);
			val = (uint32_t)wp;
			mh_wr(&mh, off + 4, (uint32_t)(wp >> 32));
			break;
		case 4:
			off = 0x70;
			val = (uint32_t)wp;
			mh_wr(&mh, 0x74, (uint32_t)(wp >> 32));
			break;
		case 5:
			off = 0x38;
			val = (emu_test_rnd() % 4 ? 2 : emu_test_rnd() % 8) << 8 |
			      (emu_test_rnd() % 64 ? 0 : 2);
			break;
		case 6:
			if (emu_test_rnd() % 256 == 0)
				emu_mhi_raise_syserr(mhi);
			(void)mh_get_ev(&mh, &(struct mh_ev){ 0 });
			continue;
		default:
			off = (uint32_t)(emu_test_rnd() % 0x1000);
			emu_mmio_write(&dev, 0, off, &big,
				       1 + emu_test_rnd() % (0x1000 - off < 8 ? 1 : 8));
			continue;
		}
		mh_wr(&mh, off, val);
		(void)mh_rd(&mh, emu_test_rnd() % 0x1000 & ~3u);
	}
	/* Still a device: reset and power-up work. */
	mh_wr(&mh, 0x38, 2);
	CHECK_EQ(mh_rd(&mh, 0x48), 1 << 8 | 1);
	host_init();
	host_m0();
	CHECK_EQ(mh_rd(&mh, 0x48) >> 8 & 0xff, 2);
	CHECK(emu_mhi_counters(mhi)->mhi_bad_ring > 0);
	CHECK(emu_mhi_counters(mhi)->mhi_bad_tre > 0);
	CHECK(emu_mhi_counters(mhi)->mhi_cmds > 0);
	CHECK_EQ(dev.counters.mmio_rejected, 0);
}

static void test_no_memory(void)
{
	/* A host that sets everything up before sharing memory / mastering. */
	setup();
	emu_device_set_guest_mem(&dev, NULL);
	host_m0();
	CHECK(emu_mhi_counters(mhi)->mhi_bad_ring >= 1);
	emu_device_set_guest_mem(&dev, &gm);
	setup();
	host_init();
	emu_cfg_write(&dev, PCI_COMMAND, 2, PCI_COMMAND_MEMORY);
	host_m0();
	CHECK_EQ(emu_mhi_counters(mhi)->mhi_events, 0);
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

#define MK(k)	(1u << (k))

/* The first power-up is spared: mutations begin after the first answer. */
static void test_malice_arming(void)
{
	struct malice_cfg cfg = { .seed = 1, .permille = 1000,
				  .kinds = MK(MALICE_EV_PTR) };
	struct mh_ev e;

	setup();
	dev.malice = malice_create(&cfg);
	host_init();
	host_m0();
	CHECK(mh_get_ev(&mh, &e));
	CHECK_EQ(e.ptr, 0);
	CHECK(mh_get_ev(&mh, &e));
	CHECK_EQ(e.ptr, 0);
	start_control();			/* completions point right */
	queue_tre(CH_DL, BUF + 0x1000, 4096, false);
	memcpy(mh_gp(&mh, BUF), "hello", 5);
	queue_tre(CH_UL, BUF, 5, false);
	CHECK(mh_get_ev(&mh, &e));
	CHECK_EQ(e.ptr, UL_RING);
	CHECK(mh_get_ev(&mh, &e));
	CHECK_EQ(e.ptr, DL_RING);		/* the answer that arms it */
	CHECK(malice_armed(dev.malice));
	CHECK_EQ(malice_count(dev.malice, MALICE_EV_PTR), 0);
	queue_tre(CH_UL, BUF, 5, false);
	CHECK(mh_get_ev(&mh, &e));
	CHECK(e.ptr != UL_RING + 16);
	CHECK_EQ(malice_count(dev.malice, MALICE_EV_PTR), 1);
	malice_off();

	/* The MSI of the first answer is spared too, the next one is not. */
	setup();
	cfg.kinds = MK(MALICE_MSI_DROP);
	dev.malice = malice_create(&cfg);
	host_init();
	host_m0();
	drain_events();
	start_control();
	queue_tre(CH_DL, BUF + 0x1000, 4096, false);
	irqs = 0;
	queue_tre(CH_UL, BUF, 5, false);
	CHECK_EQ(irqs, 1);
	CHECK(malice_armed(dev.malice));
	drain_events();
	queue_tre(CH_DL, BUF + 0x1000, 4096, false);
	queue_tre(CH_UL, BUF, 5, false);
	CHECK_EQ(irqs, 1);
	CHECK_EQ(malice_count(dev.malice, MALICE_MSI_DROP), 1);
	malice_off();
}

/* Event elements lie; the device's rings and the data do not. */
static void test_malice_events(void)
{
	struct malice *m;
	struct mh_ev e;

	bring_up();
	m = malice_on(1, 1000, MK(MALICE_EV_PTR) | MK(MALICE_EV_LEN));
	queue_tre(CH_DL, BUF + 0x1000, 4096, false);
	memcpy(mh_gp(&mh, BUF), "hello", 5);
	queue_tre(CH_UL, BUF, 5, false);
	CHECK_EQ(fake_calls, 1);
	CHECK(mh_get_ev(&mh, &e));
	CHECK_EQ(mh_ev_type(&e), 0x22);
	CHECK(e.ptr != UL_RING);
	CHECK(mh_ev_len(&e) != 5);
	CHECK(mh_get_ev(&mh, &e));
	CHECK(e.ptr != DL_RING);
	CHECK(mh_ev_len(&e) != 8);
	CHECK(!memcmp(mh_gp(&mh, BUF + 0x1000), "re:hello", 8));
	CHECK(!mh_get_ev(&mh, &e));
	CHECK_EQ(malice_count(m, MALICE_EV_PTR), 2);
	CHECK_EQ(malice_count(m, MALICE_EV_LEN), 2);
	malice_off();

	/* The event context's rp lies, the device's own rp does not. */
	m = malice_on(2, 1000, MK(MALICE_EV_RP));
	for (unsigned int i = 0; i < 20; i++) {
		uint64_t rp;

		queue_tre(CH_DL, BUF + 0x1000, 4096, false);
		queue_tre(CH_UL, BUF, 5, false);
		rp = mh_r64(&mh, EV_CTX + 28);
		CHECK(rp != EV_RING + 16 * (emu_mhi_counters(mhi)->mhi_events % EV_ELS));
		/* Hand the two events back without looking at them. */
		mh.ev_rp = mh_next(mh_next(mh.ev_rp, EV_RING, EV_ELS), EV_RING, EV_ELS);
		mh_w64(&mh, EV_CTX + 36, mh.ev_rp == EV_RING ? EV_RING + 16 * (EV_ELS - 1) :
					 mh.ev_rp - 16);
		mh_erdb(&mh, 0, mh_r64(&mh, EV_CTX + 36));
	}
	CHECK_EQ(malice_count(m, MALICE_EV_RP), 40);
	malice_off();
	queue_tre(CH_DL, BUF + 0x1000, 4096, false);
	queue_tre(CH_UL, BUF, 5, false);
	CHECK_EQ(mh_r64(&mh, EV_CTX + 28),
		 EV_RING + 16 * (emu_mhi_counters(mhi)->mhi_events % EV_ELS));
	CHECK_EQ(emu_mhi_counters(mhi)->mhi_events_lost, 0);
}

/* NNC answers are cut or padded on their way to the host. */
static void test_malice_answers(void)
{
	struct malice *m;
	struct mh_ev e;

	bring_up();
	m = malice_on(3, 1000, MK(MALICE_NNC_TRUNC));
	memcpy(mh_gp(&mh, BUF), "hello", 5);
	queue_tre(CH_DL, BUF + 0x1000, 4096, false);
	queue_tre(CH_UL, BUF, 5, false);
	CHECK(mh_get_ev(&mh, &e));
	CHECK(mh_get_ev(&mh, &e));
	CHECK_EQ(mh_ev_chan(&e), CH_DL);
	CHECK(mh_ev_len(&e) >= 1 && mh_ev_len(&e) < 8);
	CHECK(!memcmp(mh_gp(&mh, BUF + 0x1000), "re:hello", mh_ev_len(&e)));
	malice_off();

	m = malice_on(4, 1000, MK(MALICE_NNC_OVERSIZE));
	queue_tre(CH_DL, BUF + 0x4000, 0x8000, false);
	queue_tre(CH_UL, BUF, 5, false);
	CHECK(mh_get_ev(&mh, &e));
	CHECK(mh_get_ev(&mh, &e));
	CHECK_EQ(mh_ev_chan(&e), CH_DL);
	CHECK(mh_ev_len(&e) > 8);
	CHECK(!memcmp(mh_gp(&mh, BUF + 0x4000), "re:hello", 8));
	CHECK_EQ(malice_count(m, MALICE_NNC_OVERSIZE), 1);
	malice_off();
	CHECK_EQ(emu_mhi_counters(mhi)->control_msgs_out, 2);
}

/* The MHI state kinds: lying reads, spurious events, real SYS_ERRORs. */
static void test_malice_states(void)
{
	struct malice *m;
	unsigned int lies = 0, ee_lies = 0;

	bring_up();
	m = malice_on(5, 1000, MK(MALICE_MHI_STATE) | MK(MALICE_MHI_EE));
	for (unsigned int i = 0; i < 2000; i++) {
		lies += (mh_rd(&mh, 0x48) >> 8 & 0xff) != 2;
		ee_lies += mh_rd(&mh, EMU_MHI_BHI_OFF + 0x28) != 2;
		mh_wr(&mh, EMU_MHI_BHI_OFF + 0x20, 0);	/* BHI INTVEC: a plain write */
		drain_events();
	}
	/* A tenth of the rate: 100 per mille. */
	CHECK(lies > 100 && lies < 400);
	CHECK(ee_lies > 100 && ee_lies < 400);
	CHECK(malice_count(m, MALICE_MHI_STATE) > lies);	/* events too */
	CHECK_EQ(emu_mhi_state(mhi), 2);			/* still M0 */
	malice_off();

	m = malice_on(6, 1000, MK(MALICE_MHI_SYSERR));
	for (unsigned int i = 0; i < 200 && emu_mhi_state(mhi) == 2; i++)
		mh_wr(&mh, EMU_MHI_BHI_OFF + 0x20, 0);
	CHECK_EQ(emu_mhi_state(mhi), 0xff);
	CHECK_EQ(malice_count(m, MALICE_MHI_SYSERR), 1);
	CHECK_EQ(emu_mhi_counters(mhi)->mhi_syserr, 1);
	/* Not again while in SYS_ERROR. */
	for (unsigned int i = 0; i < 100; i++)
		mh_wr(&mh, EMU_MHI_BHI_OFF + 0x20, 0);
	CHECK_EQ(malice_count(m, MALICE_MHI_SYSERR), 1);
	malice_off();
	/* The host recovers as usual. */
	mh_wr(&mh, 0x38, 2);
	CHECK_EQ(mh_rd(&mh, 0x48), 1 << 8 | 1);
}

/*
 * A host that keeps talking while every kind of mutation happens often:
 * the device model stays whole, and once the mode is off a fresh power-up
 * works as if nothing had happened.
 */
static void test_malice_random(void)
{
	struct malice *m;
	struct mh_ev e;

	bring_up();
	m = malice_on(7, 300, (1u << MALICE_NUM_KINDS) - 1);
	for (unsigned int i = 0; i < 5000; i++) {
		uint64_t r = emu_test_rnd();
		uint32_t len = 1 + (uint32_t)(emu_test_rnd() % 200);

		for (uint32_t b = 0; b < len; b += 4)
			put_le32(mh_gp(&mh, BUF + b), (uint32_t)emu_test_rnd());
		if (len >= 40 && r & 0x10) {
			put_le32(mh_gp(&mh, BUF + 12), len);
			put_le32(mh_gp(&mh, BUF + 36), len - 32);
		}
		switch (r % 8) {
		case 0: case 1: case 2:
			queue_tre(CH_DL, BUF + 0x8000 + 0x1000 * (r >> 8 & 7),
				  (uint32_t)(emu_test_rnd() % 4097), false);
			break;
		case 3: case 4:
			queue_tre(CH_UL, BUF, len, !(r & 0x20));
			break;
		case 5:
			for (unsigned int j = 0; j < 4; j++)
				(void)mh_get_ev(&mh, &e);
			break;
		case 6:
			(void)mh_rd(&mh, emu_test_rnd() % 0x1000 & ~3u);
			break;
		default:
			if (emu_mhi_state(mhi) != 2 || r % 64 == 7) {
				/* Recover like the host: reset, power up. */
				mh_wr(&mh, 0x38, 2);
				host_init();
				host_m0();
				for (unsigned int j = 0; j < 4; j++)
					(void)mh_get_ev(&mh, &e);
				mh_chan_init(&mh, &ul, CH_UL, 1, UL_RING, CH_ELS);
				mh_chan_init(&mh, &dl, CH_DL, 2, DL_RING, CH_ELS);
				mh_cmd(&mh, 0x12, CH_UL);
				mh_cmd(&mh, 0x12, CH_DL);
			}
			break;
		}
	}
	/*
	 * All but the DBC's (no DBC here), storms (one in 200 ms) and the
	 * Sahara and SSR packets' (neither runs here: test_boot.c has Sahara).
	 */
	for (unsigned int k = MALICE_MSI_SPURIOUS; k < MALICE_PROTO_FIELD; k++)
		if (k != MALICE_MSI_STORM && !malice_count(m, k)) {
			fprintf(stderr, "no %s\n", malice_kind_name(k));
			CHECK(0);
		}
	CHECK(fake_calls > 100);
	malice_off();
	/* Back to normal. */
	irqs = 0;
	mh_wr(&mh, 0x38, 2);
	CHECK_EQ(mh_rd(&mh, 0x48), 1 << 8 | 1);
	host_init();
	host_m0();
	CHECK_EQ(drain_events(), 2);
	start_control();
	fake_calls = 0;
	fake_silent = false;
	queue_tre(CH_DL, BUF + 0x1000, 4096, false);
	memcpy(mh_gp(&mh, BUF), "hello", 5);
	queue_tre(CH_UL, BUF, 5, false);
	CHECK_EQ(fake_calls, 1);
	CHECK(mh_get_ev(&mh, &e));
	CHECK(mh_get_ev(&mh, &e));
	CHECK_EQ(mh_ev_len(&e), 8);
	CHECK(!memcmp(mh_gp(&mh, BUF + 0x1000), "re:hello", 8));
	CHECK_EQ(dev.counters.mmio_rejected, 0);
}

int main(void)
{
	RUN(test_registers);
	RUN(test_power_up);
	RUN(test_control_message);
	RUN(test_other_channels);
	RUN(test_bogus_host);
	RUN(test_event_ring_full);
	RUN(test_syserr_and_reset);
	RUN(test_syserr_timer);
	RUN(test_event_doorbell_only);
	RUN(test_random_host);
	RUN(test_no_memory);
	RUN(test_malice_arming);
	RUN(test_malice_events);
	RUN(test_malice_answers);
	RUN(test_malice_states);
	RUN(test_malice_random);
	emu_mhi_destroy(mhi);
	emu_device_fini(&dev);
	guest_mem_reset(&gm);
	return emu_test_exit();
}
