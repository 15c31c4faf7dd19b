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
#include <sys/mman.h>
#include <unistd.h>

#include "device.h"
#include "emu_test.h"
#include "le_bytes.h"
#include "malice.h"
#include "mhi.h"

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

#define CTX_SIZE	44
#define CH_UL		EMU_MHI_CH_CONTROL_UL
#define CH_DL		EMU_MHI_CH_CONTROL_DL

static struct emu_device dev;
static struct guest_mem gm;
static struct emu_mhi *mhi;
static uint8_t *g;			/* guest memory as we see it */
static unsigned int irqs;

/* Host-side ring state. */
static uint64_t cmd_wp, ev_rp, ul_wp, dl_wp;

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

static uint8_t *gp(uint64_t gpa)
{
	return g + (gpa - G_BASE);
}

static void w32(uint64_t gpa, uint32_t v) { memcpy(gp(gpa), &v, 4); }
static void w64(uint64_t gpa, uint64_t v) { memcpy(gp(gpa), &v, 8); }
static uint32_t r32(uint64_t gpa) { uint32_t v; memcpy(&v, gp(gpa), 4); return v; }
static uint64_t r64(uint64_t gpa) { uint64_t v; memcpy(&v, gp(gpa), 8); return v; }

static uint32_t rd(uint32_t off)
{
	uint32_t v;

	emu_mmio_read(&dev, 0, off, &v, 4);
	return v;
}

static void wr(uint32_t off, uint32_t v)
{
	emu_mmio_write(&dev, 0, off, &v, 4);
}

/* Like mhi_write_db(): upper half, then lower half. */
static void db(uint32_t off, uint64_t v)
{
	wr(off + 4, (uint32_t)(v >> 32));
	wr(off, (uint32_t)v);
}

static void chdb(unsigned int ch, uint64_t wp)
{
	db(rd(0x18) + 8 * ch, wp);
}

static void erdb(unsigned int er, uint64_t wp)
{
	db(rd(0x20) + 8 * er, wp);
}

static void set_ctx(uint64_t ctx, uint32_t w0, uint32_t w1, uint32_t w2,
		    uint64_t base, uint64_t len)
{
	w32(ctx, w0);
	w32(ctx + 4, w1);
	w32(ctx + 8, w2);
	w64(ctx + 12, base);
	w64(ctx + 20, len);
	w64(ctx + 28, base);
	w64(ctx + 36, base);
}

static uint64_t next(uint64_t p, uint64_t base, unsigned int els)
{
	p += 16;
	return p >= base + 16ull * els ? base : p;
}

static void put_el(uint64_t gpa, uint64_t ptr, uint32_t dw0, uint32_t dw1)
{
	w64(gpa, ptr);
	w32(gpa + 8, dw0);
	w32(gpa + 12, dw1);
}

struct ev {
	uint64_t ptr;
	uint32_t dw0, dw1;
};

/* Next event the device wrote, like the host's ctrl event ring loop. */
static bool get_ev(struct ev *e)
{
	uint64_t dev_rp = r64(EV_CTX + 28);

	if (dev_rp == ev_rp)
		return false;
	e->ptr = r64(ev_rp);
	e->dw0 = r32(ev_rp + 8);
	e->dw1 = r32(ev_rp + 12);
	/* Recycle: hand the slot back (wp one behind our rp), ring the DB. */
	ev_rp = next(ev_rp, EV_RING, EV_ELS);
	w64(EV_CTX + 36, ev_rp == EV_RING ? EV_RING + 16 * (EV_ELS - 1) :
					    ev_rp - 16);
	erdb(0, r64(EV_CTX + 36));
	return true;
}

static unsigned int ev_type(const struct ev *e) { return (e->dw1 >> 16) & 0xff; }
static unsigned int ev_code(const struct ev *e) { return e->dw0 >> 24; }
static unsigned int ev_len(const struct ev *e) { return e->dw0 & 0xffff; }
static unsigned int ev_ch(const struct ev *e) { return e->dw1 >> 24; }

static unsigned int drain_events(void)
{
	struct ev e;
	unsigned int n = 0;

	while (get_ev(&e))
		n++;
	return n;
}

static void cmd(unsigned int type, unsigned int ch)
{
	put_el(cmd_wp, 0, 0, ch << 24 | type << 16);
	cmd_wp = next(cmd_wp, CMD_RING, CMD_ELS);
	db(0x70, cmd_wp);
}

/* One command and its completion code (0 when none came). */
static unsigned int cmd_sync(unsigned int type, unsigned int ch)
{
	uint64_t at = cmd_wp;
	struct ev e;

	cmd(type, ch);
	if (!get_ev(&e) || ev_type(&e) != 0x21 || e.ptr != at)
		return 0;
	return ev_code(&e);
}

static void queue_tre(unsigned int ch, uint64_t buf, uint32_t len, bool chain)
{
	uint64_t *wp = ch == CH_UL ? &ul_wp : &dl_wp;
	uint64_t base = ch == CH_UL ? UL_RING : DL_RING;
	/* Like mhi_gen_tre(): TRANSFER, IEOT unless chained. */
	uint32_t dw1 = 2 << 16 | (chain ? 1 : 1 << 9);

	put_el(*wp, buf, len, dw1);
	*wp = next(*wp, base, CH_ELS);
	chdb(ch, *wp);
}

static void setup(void)
{
	struct emu_irq_sink sink = { .send = record_msi };
	int fd;

	if (mhi)
		emu_mhi_destroy(mhi);
	emu_device_fini(&dev);
	guest_mem_reset(&gm);
	if (emu_device_init(&dev, true))
		abort();
	emu_device_set_irq_sink(&dev, &sink);

	fd = memfd_create("guest", MFD_CLOEXEC);
	if (fd < 0 || ftruncate(fd, G_SIZE) ||
	    guest_mem_add_fd(&gm, fd, 0, G_BASE, 0x7f0000000000ull, G_SIZE, false))
		abort();
	close(fd);
	g = guest_mem_gpa(&gm, G_BASE, G_SIZE);
	emu_device_set_guest_mem(&dev, &gm);

	emu_cfg_write(&dev, PCI_COMMAND, 2,
		      PCI_COMMAND_MEMORY | PCI_COMMAND_MASTER);
	/* MSI-X vector 0 unmasked. */
	emu_mmio_write(&dev, 4, EMU_MSIX_TABLE_OFF, &(uint32_t){ 0xfee00000 }, 4);
	emu_mmio_write(&dev, 4, EMU_MSIX_TABLE_OFF + 8, &(uint32_t){ 33 }, 4);
	emu_mmio_write(&dev, 4, EMU_MSIX_TABLE_OFF + 12, &(uint32_t){ 0 }, 4);
	emu_cfg_write(&dev, EMU_CAP_MSIX + PCI_MSIX_FLAGS, 2,
		      PCI_MSIX_FLAGS_ENABLE);

	mhi = emu_mhi_create(&dev, NULL);
	if (!mhi)
		abort();
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

	memset(g, 0, 0x8000);
	set_ctx(EV_CTX, 0, 1, 0, EV_RING, 16 * EV_ELS);
	set_ctx(CMD_CTX, 0, 0, 0, CMD_RING, 16 * CMD_ELS);
	cmd_wp = CMD_RING;
	ev_rp = EV_RING;

	wr(0x5c, (uint32_t)(CHAN_CTX >> 32)); wr(0x58, (uint32_t)CHAN_CTX);
	wr(0x64, (uint32_t)(EV_CTX >> 32)); wr(0x60, (uint32_t)EV_CTX);
	wr(0x6c, (uint32_t)(CMD_CTX >> 32)); wr(0x68, (uint32_t)CMD_CTX);
	wr(0x84, 0); wr(0x80, 0);
	wr(0x8c, 0xffffffff); wr(0x88, 0xfffffffe);
	wr(0x9c, 0); wr(0x98, 0);
	wr(0xa4, 0xffffffff); wr(0xa0, 0xfffffffe);
	cfg = rd(0x10);
	wr(0x10, (cfg & ~0x00ff0000u) | 1 << 16);	/* NER = 1 */
	cfg = rd(0x10);
	wr(0x10, cfg & ~0xff000000u);			/* NHWER = 0 */

	w64(EV_CTX + 36, EV_RING + 16 * (EV_ELS - 1));
	erdb(0, EV_RING + 16 * (EV_ELS - 1));
}

static void host_m0(void)
{
	uint32_t ctrl = rd(0x38);

	wr(0x38, (ctrl & ~0xff00u) | 2 << 8);
}

static void start_control(void)
{
	set_ctx(CHAN_CTX + CH_UL * CTX_SIZE, 1, 1, 0, UL_RING, 16 * CH_ELS);
	set_ctx(CHAN_CTX + CH_DL * CTX_SIZE, 1, 2, 0, DL_RING, 16 * CH_ELS);
	ul_wp = UL_RING;
	dl_wp = DL_RING;
	CHECK_EQ(cmd_sync(0x12, CH_UL), 1);
	CHECK_EQ(cmd_sync(0x12, CH_DL), 1);
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
	CHECK_EQ(rd(0x00), 0x1000);			/* MHIREGLEN */
	CHECK_EQ(rd(0x08), EMU_MHI_VERSION);
	CHECK_EQ(rd(0x10) & 0xff, 128);			/* NCH */
	CHECK(rd(0x18) < 0x1000 - 8 * 127);		/* CHDBOFF */
	CHECK(rd(0x20) < 0x1000 - 8 * 32);		/* ERDBOFF */
	CHECK(rd(0x28) < 0x1000);			/* BHIOFF */
	CHECK_EQ(rd(rd(0x28) + 0x28), 2);		/* EXECENV = AMSS */
	CHECK_EQ(rd(rd(0x28) + 0x40), EMU_MHI_DEFAULT_SERIAL);
	CHECK_EQ(rd(0x38) & 2, 0);			/* RESET clear */
	CHECK_EQ(rd(0x48), 1 << 8 | 1);			/* READY, READY bit */
	CHECK_EQ(rd(0x224), 0x60110200);
	/* Unknown offsets read 0; odd sizes and offsets do not crash. */
	CHECK_EQ(rd(0xffc), 0);
	CHECK_EQ(rd(0x3c), 0);
	emu_mmio_read(&dev, 0, 0x49, b, 3);
	CHECK_EQ(b[0], 1);
	emu_mmio_read(&dev, 0, 0x0, b, 8);
	CHECK_EQ(b[0], 0x00);
	CHECK_EQ(b[1], 0x10);
	emu_mmio_write(&dev, 0, 0xfff, "x", 1);
	emu_mmio_write(&dev, 0, 0x0, "12345678", 8);
	CHECK_EQ(rd(0x00), 0x1000);			/* read-only */
	/* BHI INTVEC is writable; other BHI fields are not. */
	wr(rd(0x28) + 0x20, 0);
	wr(rd(0x28) + 0x28, 7);
	CHECK_EQ(rd(rd(0x28) + 0x28), 2);
	/* Doorbells before anything is set up are just stored. */
	chdb(CH_UL, 0x1234);
	db(0x70, 0x10);
	CHECK_EQ(rd(0x70), 0x10);
	CHECK_EQ(emu_mhi_counters(mhi)->mhi_cmds, 0);
	CHECK_EQ(dev.counters.mmio_rejected, 0);
}

static void test_power_up(void)
{
	struct ev e;

	setup();
	host_init();
	CHECK_EQ(irqs, 0);
	host_m0();
	CHECK_EQ(rd(0x48) >> 8 & 0xff, 2);		/* M0 */
	CHECK_EQ(emu_mhi_state(mhi), 2);
	CHECK_EQ(irqs, 1);
	CHECK(get_ev(&e));
	CHECK_EQ(ev_type(&e), 0x20);			/* state change */
	CHECK_EQ(e.dw0 >> 24, 2);			/* M0 */
	CHECK(get_ev(&e));
	CHECK_EQ(ev_type(&e), 0x40);			/* EE */
	CHECK_EQ(e.dw0 >> 24, 2);			/* AMSS */
	CHECK(!get_ev(&e));
	/* Writing M0 again changes nothing. */
	host_m0();
	CHECK(!get_ev(&e));
	CHECK_EQ(emu_mhi_counters(mhi)->mhi_events, 2);

	/* Commands: NOOP, START both control channels. */
	CHECK_EQ(cmd_sync(0x01, 0), 1);
	start_control();
	CHECK_EQ(r32(CHAN_CTX + CH_UL * CTX_SIZE) & 0xff, 2);	/* RUNNING */
	CHECK_EQ(r32(CHAN_CTX + CH_DL * CTX_SIZE) & 0xff, 2);
	CHECK_EQ(r64(CMD_CTX + 28), cmd_wp);		/* cmd rp advanced */
	CHECK_EQ(emu_mhi_counters(mhi)->mhi_cmds, 3);

	/* M3 and back: state changes, no second EE event. */
	wr(0x38, 5 << 8);
	CHECK(get_ev(&e));
	CHECK_EQ(e.dw0 >> 24, 5);
	host_m0();
	CHECK(get_ev(&e));
	CHECK_EQ(ev_type(&e), 0x20);
	CHECK_EQ(e.dw0 >> 24, 2);
	CHECK(!get_ev(&e));
	CHECK_EQ(emu_mhi_counters(mhi)->mhi_bad_ring, 0);
	CHECK_EQ(emu_mhi_counters(mhi)->mhi_bad_tre, 0);
}

static void test_control_message(void)
{
	struct ev e;

	bring_up();
	/* The host queues the response buffer first, like qaic. */
	queue_tre(CH_DL, BUF + 0x1000, 4096, false);
	CHECK(!get_ev(&e));
	memcpy(gp(BUF), "hello", 5);
	irqs = 0;
	queue_tre(CH_UL, BUF, 5, false);
	CHECK_EQ(fake_calls, 1);
	CHECK_EQ(last_req_len, 5);
	CHECK(!memcmp(last_req, "hello", 5));
	CHECK_EQ(irqs, 1);
	CHECK(get_ev(&e));
	CHECK_EQ(ev_type(&e), 0x22);
	CHECK_EQ(ev_ch(&e), CH_UL);
	CHECK_EQ(ev_code(&e), 2);			/* EOT */
	CHECK_EQ(ev_len(&e), 5);
	CHECK_EQ(e.ptr, UL_RING);
	CHECK(get_ev(&e));
	CHECK_EQ(ev_ch(&e), CH_DL);
	CHECK_EQ(ev_code(&e), 2);
	CHECK_EQ(ev_len(&e), 8);
	CHECK_EQ(e.ptr, DL_RING);
	CHECK(!memcmp(gp(BUF + 0x1000), "re:hello", 8));
	CHECK(!get_ev(&e));

	/* A message in three chained TREs, rung one by one; no buffer yet. */
	memcpy(gp(BUF + 0x100), "abc", 3);
	memcpy(gp(BUF + 0x200), "defg", 4);
	memcpy(gp(BUF + 0x300), "hi", 2);
	queue_tre(CH_UL, BUF + 0x100, 3, true);
	queue_tre(CH_UL, BUF + 0x200, 4, true);
	CHECK_EQ(fake_calls, 1);
	queue_tre(CH_UL, BUF + 0x300, 2, false);
	CHECK_EQ(fake_calls, 2);
	CHECK_EQ(last_req_len, 9);
	CHECK(!memcmp(last_req, "abcdefghi", 9));
	/* One event, for the last TRE of the chain. */
	CHECK(get_ev(&e));
	CHECK_EQ(ev_ch(&e), CH_UL);
	CHECK_EQ(e.ptr, UL_RING + 3 * 16);
	CHECK(!get_ev(&e));
	/* The answer waits for a buffer. */
	queue_tre(CH_DL, BUF + 0x2000, 4096, false);
	CHECK(get_ev(&e));
	CHECK_EQ(ev_ch(&e), CH_DL);
	CHECK_EQ(ev_len(&e), 12);
	CHECK(!memcmp(gp(BUF + 0x2000), "re:abcdefghi", 12));

	/* A buffer smaller than the answer: truncated, OVERFLOW. */
	queue_tre(CH_DL, BUF + 0x3000, 4, false);
	queue_tre(CH_UL, BUF, 5, false);
	CHECK(get_ev(&e));
	CHECK(get_ev(&e));
	CHECK_EQ(ev_code(&e), 3);
	CHECK_EQ(ev_len(&e), 4);

	/* No answer: the uplink completes, the downlink buffer stays. */
	fake_silent = true;
	queue_tre(CH_DL, BUF + 0x4000, 4096, false);
	queue_tre(CH_UL, BUF, 5, false);
	CHECK(get_ev(&e));
	CHECK_EQ(ev_ch(&e), CH_UL);
	CHECK(!get_ev(&e));

	CHECK_EQ(emu_mhi_counters(mhi)->control_msgs_in, 4);
	CHECK_EQ(emu_mhi_counters(mhi)->control_msgs_out, 3);
	CHECK_EQ(emu_mhi_counters(mhi)->mhi_bad_ring, 0);
	CHECK_EQ(emu_mhi_counters(mhi)->mhi_bad_tre, 0);
}

static void test_other_channels(void)
{
	struct ev e;
	uint64_t ring = G_BASE + 0x7000;

	bring_up();
	/* Timesync pair 22 (uplink) / 23 (downlink). */
	set_ctx(CHAN_CTX + 22 * CTX_SIZE, 1, 1, 0, ring, 16 * 32);
	set_ctx(CHAN_CTX + 23 * CTX_SIZE, 1, 2, 0, ring + 0x200, 16 * 32);
	CHECK_EQ(cmd_sync(0x12, 22), 1);
	CHECK_EQ(cmd_sync(0x12, 23), 1);
	put_el(ring + 0x200, BUF, 64, 2 << 16 | 1 << 9);
	chdb(23, ring + 0x210);
	CHECK(!get_ev(&e));				/* downlink stays */
	put_el(ring, BUF, 24, 2 << 16 | 1 << 9);
	chdb(22, ring + 0x10);
	CHECK(get_ev(&e));
	CHECK_EQ(ev_ch(&e), 22);
	CHECK_EQ(ev_code(&e), 2);
	CHECK_EQ(ev_len(&e), 24);
	CHECK(!get_ev(&e));
	CHECK_EQ(fake_calls, 0);
	/* STOP, START again, RESET; doorbells after RESET are ignored. */
	CHECK_EQ(cmd_sync(0x11, 22), 1);
	CHECK_EQ(r32(CHAN_CTX + 22 * CTX_SIZE) & 0xff, 4);
	CHECK_EQ(cmd_sync(0x12, 22), 1);
	CHECK_EQ(cmd_sync(0x10, 22), 1);
	CHECK_EQ(r32(CHAN_CTX + 22 * CTX_SIZE) & 0xff, 0);
	put_el(ring + 0x10, BUF, 24, 2 << 16 | 1 << 9);
	chdb(22, ring + 0x20);
	CHECK(!get_ev(&e));
	/* Wake doorbell (127) is accepted silently. */
	chdb(127, 1);
	CHECK(!get_ev(&e));
	CHECK_EQ(emu_mhi_counters(mhi)->mhi_bad_ring, 0);
}

static void test_bogus_host(void)
{
	const struct emu_mhi_counters *c;
	struct ev e;
	uint64_t ctx30 = CHAN_CTX + 30 * CTX_SIZE;
	unsigned int i;

	bring_up();
	c = emu_mhi_counters(mhi);

	/* Ring outside guest memory, unaligned, absurd length, bad chtype. */
	set_ctx(ctx30, 1, 1, 0, G_BASE + G_SIZE - 0x100, 0x1000);
	CHECK_EQ(cmd_sync(0x12, 30), 0x10);
	set_ctx(ctx30, 1, 1, 0, G_BASE + 0x7008, 0x100);
	CHECK_EQ(cmd_sync(0x12, 30), 0x10);
	set_ctx(ctx30, 1, 1, 0, G_BASE + 0x7000, ~0ull);
	CHECK_EQ(cmd_sync(0x12, 30), 0x10);
	set_ctx(ctx30, 1, 1, 0, G_BASE + 0x7000, 16);
	CHECK_EQ(cmd_sync(0x12, 30), 0x10);
	set_ctx(ctx30, 1, 7, 0, G_BASE + 0x7000, 0x100);
	CHECK_EQ(cmd_sync(0x12, 30), 0x10);
	set_ctx(ctx30, 1, 1, 9, G_BASE + 0x7000, 0x100);	/* erindex */
	CHECK_EQ(cmd_sync(0x12, 30), 0x10);
	set_ctx(ctx30, 1, 1, 0, G_BASE + 0x7000, 0x100);
	w64(ctx30 + 36, G_BASE + 0x7000 + 0x100);		/* wp past end */
	CHECK_EQ(cmd_sync(0x12, 30), 0x10);
	CHECK_EQ(c->mhi_bad_ring, 7);
	/* Channel numbers out of range; unknown commands. */
	CHECK_EQ(cmd_sync(0x12, 200), 0x10);
	CHECK_EQ(cmd_sync(0x12, 127), 0x10);
	CHECK_EQ(cmd_sync(0x33, 1), 0x10);
	CHECK_EQ(cmd_sync(0x00, 1), 0x10);
	CHECK_EQ(c->mhi_bad_tre, 4);

	/* Doorbells outside the ring, or unaligned. */
	chdb(CH_UL, UL_RING + 16 * CH_ELS);
	chdb(CH_UL, UL_RING + 8);
	chdb(CH_UL, 0);
	db(0x70, CMD_RING + 16 * CMD_ELS + 16);
	CHECK_EQ(c->mhi_bad_ring, 11);
	CHECK(!get_ev(&e));

	/* A TRE of the wrong type: BAD_TRE event, and carry on. */
	put_el(ul_wp, BUF, 5, 0x21 << 16 | 1 << 9);
	ul_wp = next(ul_wp, UL_RING, CH_ELS);
	chdb(CH_UL, ul_wp);
	CHECK(get_ev(&e));
	CHECK_EQ(ev_code(&e), 0x11);
	CHECK_EQ(c->mhi_bad_tre, 5);
	/* A buffer outside guest memory: completed, not handed over. */
	queue_tre(CH_UL, G_BASE + G_SIZE - 2, 5, false);
	CHECK(get_ev(&e));
	CHECK_EQ(fake_calls, 0);
	CHECK_EQ(c->mhi_bad_tre, 6);
	/* A good message still gets through afterwards. */
	memcpy(gp(BUF), "ok", 2);
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
	wr(0x58, 0xfffff000);
	wr(0x5c, 0xffffffff);
	CHECK_EQ(cmd_sync(0x12, 40), 0x10);
	wr(0x68, 0x10);				/* command ring moves away ... */
	wr(0x6c, 0);
	cmd(0x01, 0);				/* ... but it is started already */
	CHECK_EQ(drain_events(), 1);
	CHECK_EQ(dev.counters.mmio_rejected, 0);
}

static void test_event_ring_full(void)
{
	const struct emu_mhi_counters *c;
	unsigned int i, n;
	struct ev e;

	bring_up();
	c = emu_mhi_counters(mhi);
	/* 40 commands, events not consumed: 31 fit, 9 are held back. */
	for (i = 0; i < 40; i++)
		cmd(0x01, 0);
	CHECK_EQ(c->mhi_cmds, 42);
	CHECK_EQ(c->mhi_events, 2 + 2 + 31);
	/* Consuming them hands slots back; the rest follow, in order. */
	for (n = 0; get_ev(&e); n++)
		CHECK_EQ(e.ptr, CMD_RING + 16 * (2 + n));
	CHECK_EQ(n, 40);
	CHECK_EQ(c->mhi_events_lost, 0);
	/* An event doorbell outside the ring is counted. */
	erdb(0, EV_RING - 16);
	CHECK_EQ(c->mhi_bad_ring, 0 + 1);
}

static void test_syserr_and_reset(void)
{
	const struct emu_mhi_counters *c;
	struct ev e;
	uint32_t ctrl;

	bring_up();
	c = emu_mhi_counters(mhi);
	queue_tre(CH_DL, BUF + 0x1000, 64, false);
	irqs = 0;
	emu_mhi_raise_syserr(mhi);
	CHECK_EQ(irqs, 1);
	CHECK_EQ(rd(0x48) >> 8 & 0xff, 0xff);
	CHECK(rd(0x48) & 4);				/* SYSERR bit */
	/* Rings are not served in SYS_ERROR; M0 does not leave it. */
	queue_tre(CH_UL, BUF, 2, false);
	CHECK_EQ(fake_calls, 0);
	host_m0();
	CHECK_EQ(rd(0x48) >> 8 & 0xff, 0xff);
	CHECK(!get_ev(&e));

	/* The host's reset, read-modify-write like mhi_set_mhi_state(). */
	ctrl = rd(0x38);
	wr(0x38, ctrl | 2);
	CHECK_EQ(rd(0x38) & 2, 0);
	CHECK_EQ(rd(0x48), 1 << 8 | 1);
	CHECK_EQ(rd(rd(0x28) + 0x28), 2);
	CHECK_EQ(c->mhi_resets, 1);
	CHECK_EQ(c->mhi_syserr, 1);

	/* Power up again from scratch. */
	host_init();
	host_m0();
	CHECK(get_ev(&e));
	CHECK_EQ(e.dw0 >> 24, 2);
	CHECK(get_ev(&e));
	CHECK_EQ(ev_type(&e), 0x40);
	start_control();
	memcpy(gp(BUF), "up", 2);
	queue_tre(CH_DL, BUF + 0x1000, 64, false);
	queue_tre(CH_UL, BUF, 2, false);
	CHECK_EQ(fake_calls, 1);
	CHECK_EQ(drain_events(), 2);

	/* A held answer dies with a reset; SoC reset works too. */
	queue_tre(CH_UL, BUF, 2, false);
	drain_events();
	wr(0xb0, 1);
	CHECK_EQ(c->control_msgs_dropped, 1);
	CHECK_EQ(c->mhi_resets, 2);
	CHECK_EQ(rd(0x48), 1 << 8 | 1);
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
	struct ev e;

	/* A host that gives event slots by doorbell only, ctx wp untouched. */
	setup();
	host_init();
	w64(EV_CTX + 36, EV_RING);
	host_m0();
	CHECK(get_ev(&e));
	CHECK_EQ(e.dw0 >> 24, 2);
	CHECK(get_ev(&e));
	CHECK_EQ(ev_type(&e), 0x40);

	/* And one that rings nothing before M0: events wait for the doorbell. */
	setup();
	host_init();
	emu_mhi_destroy(mhi);
	mhi = emu_mhi_create(&dev, NULL);
	emu_mhi_attach(mhi);
	wr(0x58, (uint32_t)CHAN_CTX); wr(0x5c, (uint32_t)(CHAN_CTX >> 32));
	wr(0x60, (uint32_t)EV_CTX); wr(0x64, (uint32_t)(EV_CTX >> 32));
	w64(EV_CTX + 36, EV_RING);
	host_m0();
	CHECK(!get_ev(&e));
	CHECK_EQ(emu_mhi_counters(mhi)->mhi_events, 0);
	w64(EV_CTX + 36, EV_RING + 16 * (EV_ELS - 1));
	erdb(0, EV_RING + 16 * (EV_ELS - 1));
	CHECK_EQ(emu_mhi_counters(mhi)->mhi_events, 2);
	CHECK(get_ev(&e));
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
	put_el(gpa, emu_test_rnd() % 4 ? BUF + emu_test_rnd() % 0x8000 : emu_test_rnd(), dw0, dw1);
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
			wr(0x38, 2);
			host_init();
			host_m0();
			drain_events();
			start_control();
			for (j = 0; j < 24; j++)
				set_ctx(CHAN_CTX + j * CTX_SIZE, 1, 1 + j % 2,
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
			wr(off + 4, (uint32_t)(wp >> 32));
			break;
		case 3:
			off = EMU_MHI_ERDB_OFF + 8 * (emu_test_rnd() % 2);
			val = (uint32_t)wp;
			wr(off + 4, (uint32_t)(wp >> 32));
			break;
		case 4:
			off = 0x70;
			val = (uint32_t)wp;
			wr(0x74, (uint32_t)(wp >> 32));
			break;
		case 5:
			off = 0x38;
			val = (emu_test_rnd() % 4 ? 2 : emu_test_rnd() % 8) << 8 |
			      (emu_test_rnd() % 64 ? 0 : 2);
			break;
		case 6:
			if (emu_test_rnd() % 256 == 0)
				emu_mhi_raise_syserr(mhi);
			(void)get_ev(&(struct ev){ 0 });
			continue;
		default:
			off = (uint32_t)(emu_test_rnd() % 0x1000);
			emu_mmio_write(&dev, 0, off, &big,
				       1 + emu_test_rnd() % (0x1000 - off < 8 ? 1 : 8));
			continue;
		}
		wr(off, val);
		(void)rd(emu_test_rnd() % 0x1000 & ~3u);
	}
	/* Still a device: reset and power-up work. */
	wr(0x38, 2);
	CHECK_EQ(rd(0x48), 1 << 8 | 1);
	host_init();
	host_m0();
	CHECK_EQ(rd(0x48) >> 8 & 0xff, 2);
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
	struct ev e;

	setup();
	dev.malice = malice_create(&cfg);
	host_init();
	host_m0();
	CHECK(get_ev(&e));
	CHECK_EQ(e.ptr, 0);
	CHECK(get_ev(&e));
	CHECK_EQ(e.ptr, 0);
	start_control();			/* completions point right */
	queue_tre(CH_DL, BUF + 0x1000, 4096, false);
	memcpy(gp(BUF), "hello", 5);
	queue_tre(CH_UL, BUF, 5, false);
	CHECK(get_ev(&e));
	CHECK_EQ(e.ptr, UL_RING);
	CHECK(get_ev(&e));
	CHECK_EQ(e.ptr, DL_RING);		/* the answer that arms it */
	CHECK(malice_armed(dev.malice));
	CHECK_EQ(malice_count(dev.malice, MALICE_EV_PTR), 0);
	queue_tre(CH_UL, BUF, 5, false);
	CHECK(get_ev(&e));
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
	struct ev e;

	bring_up();
	m = malice_on(1, 1000, MK(MALICE_EV_PTR) | MK(MALICE_EV_LEN));
	queue_tre(CH_DL, BUF + 0x1000, 4096, false);
	memcpy(gp(BUF), "hello", 5);
	queue_tre(CH_UL, BUF, 5, false);
	CHECK_EQ(fake_calls, 1);
	CHECK(get_ev(&e));
	CHECK_EQ(ev_type(&e), 0x22);
	CHECK(e.ptr != UL_RING);
	CHECK(ev_len(&e) != 5);
	CHECK(get_ev(&e));
	CHECK(e.ptr != DL_RING);
	CHECK(ev_len(&e) != 8);
	CHECK(!memcmp(gp(BUF + 0x1000), "re:hello", 8));
	CHECK(!get_ev(&e));
	CHECK_EQ(malice_count(m, MALICE_EV_PTR), 2);
	CHECK_EQ(malice_count(m, MALICE_EV_LEN), 2);
	malice_off();

	/* The event context's rp lies, the device's own rp does not. */
	m = malice_on(2, 1000, MK(MALICE_EV_RP));
	for (unsigned int i = 0; i < 20; i++) {
		uint64_t rp;

		queue_tre(CH_DL, BUF + 0x1000, 4096, false);
		queue_tre(CH_UL, BUF, 5, false);
		rp = r64(EV_CTX + 28);
		CHECK(rp != EV_RING + 16 * (emu_mhi_counters(mhi)->mhi_events % EV_ELS));
		/* Hand the two events back without looking at them. */
		ev_rp = next(next(ev_rp, EV_RING, EV_ELS), EV_RING, EV_ELS);
		w64(EV_CTX + 36, ev_rp == EV_RING ? EV_RING + 16 * (EV_ELS - 1) :
						    ev_rp - 16);
		erdb(0, r64(EV_CTX + 36));
	}
	CHECK_EQ(malice_count(m, MALICE_EV_RP), 40);
	malice_off();
	queue_tre(CH_DL, BUF + 0x1000, 4096, false);
	queue_tre(CH_UL, BUF, 5, false);
	CHECK_EQ(r64(EV_CTX + 28),
		 EV_RING + 16 * (emu_mhi_counters(mhi)->mhi_events % EV_ELS));
	CHECK_EQ(emu_mhi_counters(mhi)->mhi_events_lost, 0);
}

/* NNC answers are cut or padded on their way to the host. */
static void test_malice_answers(void)
{
	struct malice *m;
	struct ev e;

	bring_up();
	m = malice_on(3, 1000, MK(MALICE_NNC_TRUNC));
	memcpy(gp(BUF), "hello", 5);
	queue_tre(CH_DL, BUF + 0x1000, 4096, false);
	queue_tre(CH_UL, BUF, 5, false);
	CHECK(get_ev(&e));
	CHECK(get_ev(&e));
	CHECK_EQ(ev_ch(&e), CH_DL);
	CHECK(ev_len(&e) >= 1 && ev_len(&e) < 8);
	CHECK(!memcmp(gp(BUF + 0x1000), "re:hello", ev_len(&e)));
	malice_off();

	m = malice_on(4, 1000, MK(MALICE_NNC_OVERSIZE));
	queue_tre(CH_DL, BUF + 0x4000, 0x8000, false);
	queue_tre(CH_UL, BUF, 5, false);
	CHECK(get_ev(&e));
	CHECK(get_ev(&e));
	CHECK_EQ(ev_ch(&e), CH_DL);
	CHECK(ev_len(&e) > 8);
	CHECK(!memcmp(gp(BUF + 0x4000), "re:hello", 8));
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
		lies += (rd(0x48) >> 8 & 0xff) != 2;
		ee_lies += rd(EMU_MHI_BHI_OFF + 0x28) != 2;
		wr(EMU_MHI_BHI_OFF + 0x20, 0);		/* BHI INTVEC: a plain write */
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
		wr(EMU_MHI_BHI_OFF + 0x20, 0);
	CHECK_EQ(emu_mhi_state(mhi), 0xff);
	CHECK_EQ(malice_count(m, MALICE_MHI_SYSERR), 1);
	CHECK_EQ(emu_mhi_counters(mhi)->mhi_syserr, 1);
	/* Not again while in SYS_ERROR. */
	for (unsigned int i = 0; i < 100; i++)
		wr(EMU_MHI_BHI_OFF + 0x20, 0);
	CHECK_EQ(malice_count(m, MALICE_MHI_SYSERR), 1);
	malice_off();
	/* The host recovers as usual. */
	wr(0x38, 2);
	CHECK_EQ(rd(0x48), 1 << 8 | 1);
}

/*
 * A host that keeps talking while every kind of mutation happens often:
 * the device model stays whole, and once the mode is off a fresh power-up
 * works as if nothing had happened.
 */
static void test_malice_random(void)
{
	struct malice *m;
	struct ev e;

	bring_up();
	m = malice_on(7, 300, (1u << MALICE_NUM_KINDS) - 1);
	for (unsigned int i = 0; i < 5000; i++) {
		uint64_t r = emu_test_rnd();
		uint32_t len = 1 + (uint32_t)(emu_test_rnd() % 200);

		for (uint32_t b = 0; b < len; b += 4)
			put_le32(gp(BUF + b), (uint32_t)emu_test_rnd());
		if (len >= 40 && r & 0x10) {
			put_le32(gp(BUF + 12), len);
			put_le32(gp(BUF + 36), len - 32);
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
				(void)get_ev(&e);
			break;
		case 6:
			(void)rd(emu_test_rnd() % 0x1000 & ~3u);
			break;
		default:
			if (emu_mhi_state(mhi) != 2 || r % 64 == 7) {
				/* Recover like the host: reset, power up. */
				wr(0x38, 2);
				host_init();
				host_m0();
				for (unsigned int j = 0; j < 4; j++)
					(void)get_ev(&e);
				set_ctx(CHAN_CTX + CH_UL * CTX_SIZE, 1, 1, 0, UL_RING, 16 * CH_ELS);
				set_ctx(CHAN_CTX + CH_DL * CTX_SIZE, 1, 2, 0, DL_RING, 16 * CH_ELS);
				ul_wp = UL_RING;
				dl_wp = DL_RING;
				cmd(0x12, CH_UL);
				cmd(0x12, CH_DL);
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
	wr(0x38, 2);
	CHECK_EQ(rd(0x48), 1 << 8 | 1);
	host_init();
	host_m0();
	CHECK_EQ(drain_events(), 2);
	start_control();
	fake_calls = 0;
	fake_silent = false;
	queue_tre(CH_DL, BUF + 0x1000, 4096, false);
	memcpy(gp(BUF), "hello", 5);
	queue_tre(CH_UL, BUF, 5, false);
	CHECK_EQ(fake_calls, 1);
	CHECK(get_ev(&e));
	CHECK(get_ev(&e));
	CHECK_EQ(ev_len(&e), 8);
	CHECK(!memcmp(gp(BUF + 0x1000), "re:hello", 8));
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
