// SPDX-License-Identifier: GPL-2.0-only
/*
 * MHI device side on BAR0 of the emulated AIC100 (see mhi.h).
 *
 * Facts used (Linux 6.12, drivers/bus/mhi/common.h and host/): register
 * offsets and fields; the 44-byte channel, event and command contexts and
 * 16-byte ring elements; a host rings a doorbell by writing the upper half
 * of the new write pointer, then the lower half; the device writes an event
 * at the event ring's read pointer, advances it and stores it back into the
 * event context, as long as the read pointer has not reached the write
 * pointer the host gave; a command completion event points at the command
 * element; a transfer event points at the last element it completes and
 * carries the length written; the host leaves chained elements without an
 * event unless it asked for one (IEOB) and asks for one at the end of each
 * transfer (IEOT).
 *
 * Copyright (c) 2026 The qaic authors.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bhi.h"
#include "mhi_cases.h"
#include "bhie.h"
#include "card.h"
#include "device.h"
#include "manager.h"
#include "mhi.h"
#include "le_bytes.h"
#include "malice.h"
#include "bootlog.h"
#include "memdump.h"
#include "sahara.h"
#include "ras.h"
#include "qrtr.h"
#include "ssr.h"
#include "telemetry.h"
#include "timesync.h"

/* Registers (drivers/bus/mhi/common.h). */
#define R_MHIREGLEN		0x00
#define R_MHIVER		0x08
#define R_MHICFG		0x10
#define R_CHDBOFF		0x18
#define R_ERDBOFF		0x20
#define R_BHIOFF		0x28
#define R_BHIEOFF		0x2c
#define R_DEBUGOFF		0x30
#define R_MHICTRL		0x38
#define R_MHISTATUS		0x48
#define R_CCABAP_LOWER		0x58
#define R_CCABAP_HIGHER		0x5c
#define R_ECABAP_LOWER		0x60
#define R_ECABAP_HIGHER		0x64
#define R_CRCBAP_LOWER		0x68
#define R_CRCBAP_HIGHER		0x6c
#define R_CRDB_LOWER		0x70
#define R_CRDB_HIGHER		0x74
#define R_MHICTRLBASE_LOWER	0x80
#define R_MHICTRLBASE_HIGHER	0x84
#define R_MHICTRLLIMIT_LOWER	0x88
#define R_MHICTRLLIMIT_HIGHER	0x8c
#define R_MHIDATABASE_LOWER	0x98
#define R_MHIDATABASE_HIGHER	0x9c
#define R_MHIDATALIMIT_LOWER	0xa0
#define R_MHIDATALIMIT_HIGHER	0xa4

/* BHI registers (bhi.h), relative to EMU_MHI_BHI_OFF. */
#define BHI_SIZE		EMU_BHI_SIZE

#define MHICTRL_RESET		(1u << 1)
#define MHICTRL_STATE_SHIFT	8
#define MHISTATUS_READY		(1u << 0)
#define MHISTATUS_SYSERR	(1u << 2)

/* enum mhi_state */
#define ST_RESET		0x0
#define ST_READY		0x1
#define ST_M0			0x2
#define ST_M1			0x3
#define ST_M2			0x4
#define ST_M3			0x5
#define ST_SYS_ERR		0xff


/* enum mhi_pkt_type */
#define PKT_NOOP_CMD		0x01
#define PKT_TRANSFER		0x02
#define PKT_RESET_CHAN		0x10
#define PKT_STOP_CHAN		0x11
#define PKT_START_CHAN		0x12
#define PKT_STATE_CHANGE_EV	0x20
#define PKT_CMD_COMPLETION_EV	0x21
#define PKT_TX_EV		0x22
#define PKT_EE_EV		0x40

/* enum mhi_ev_ccs */
#define CC_SUCCESS		0x01
#define CC_EOT			0x02
#define CC_OVERFLOW		0x03
#define CC_EOB			0x04
#define CC_UNDEFINED_ERR	0x10
#define CC_BAD_TRE		0x11

/* enum mhi_ch_state, in the low byte of chcfg */
#define CH_DISABLED		0
#define CH_RUNNING		2
#define CH_STOP			4

/* chtype: the DMA direction */
#define CHTYPE_UL		1	/* host to device */
#define CHTYPE_DL		2	/* device to host */

/* Contexts: three le32, then rbase, rlen, rp, wp as le64 (packed). */
#define CTX_SIZE		44
#define CTX_W0			0
#define CTX_W1			4
#define CTX_W2			8
#define CTX_RBASE		12
#define CTX_RLEN		20
#define CTX_RP			28
#define CTX_WP			36

#define EL_SIZE			16
/* Largest ring accepted: 64 Ki elements. */
#define MAX_RING_BYTES		(65536ull * EL_SIZE)

struct mhi_el {
	uint64_t ptr;
	uint32_t dw0;
	uint32_t dw1;
};

/* The device's view of a ring in host memory (absolute addresses). */
struct ring {
	bool started;
	uint64_t ctx;		/* where its context lives */
	uint64_t base;
	uint64_t len;
	uint64_t rp;
	uint64_t wp;
};

struct ev_ring {
	struct ring r;
	uint32_t msivec;
	bool irq_due;
	unsigned int nr_backlog;
	struct mhi_el backlog[EMU_MHI_MAX_EV_BACKLOG];
};

struct answer {
	uint8_t *data;
	size_t len;
	uint32_t claim;		/* the completion's length + 1, or 0: len */
	struct timespec due;	/* QAIC_CONTROL: not before (tv_sec 0: at once) */
};

/* Packets for the host on one downlink channel, held until it queues buffers. */
struct held_q {
	struct answer a[EMU_MHI_MAX_HELD];
	unsigned int head, nr;
};

/* An uplink message being assembled from a chain of TREs. */
struct ul_msg {
	uint8_t *buf;
	size_t cap, len;
	bool bad;
};

/* How long SBL, its images sent, waits by default for the host's channels */
#define SBL_HOST_WAIT_MS	1000

enum { Q_CONTROL, Q_SAHARA, Q_SSR, Q_RAS, Q_BOOTLOG, Q_TIMESYNC, Q_TIMESYNC_P, Q_IPCR,
       Q_TELEMETRY, NR_Q };

struct channel {
	unsigned int state;	/* CH_DISABLED, CH_RUNNING, CH_STOP */
	bool ul;
	uint32_t erindex;
	struct ring r;
};

struct emu_mhi {
	struct emu_device *dev;
	struct emu_manager *mgr;
	emu_mhi_control_fn control_fn;	/* overrides mgr when set */
	unsigned int answer_delay_ms;	/* EMU_PT_ANSWER_DELAY, until reset */
	void *control_ctx;

	/* Registers */
	uint32_t mhictrl;
	unsigned int state;		/* enum mhi_state the device is in */
	uint32_t ner, nhwer;
	uint64_t ccabap, ecabap, crcbap;
	uint64_t ctrlbase, ctrllimit, database, datalimit;
	uint32_t crdb[2];
	uint32_t chdb[EMU_MHI_MAX_CHANNELS][2];
	uint32_t erdb[EMU_MHI_MAX_EV_RINGS][2];
	bool erdb_rung[EMU_MHI_MAX_EV_RINGS];	/* since the last reset */
	struct emu_bhi bhi;		/* BHI registers and the EE */
	struct emu_bhie bhie;
	enum emu_mhi_boot boot;		/* where power-on starts */
	struct emu_sahara *sahara;	/* QAIC_SAHARA, in SBL */
	struct emu_memdump *md;		/* a crash's memory, over Sahara */
	struct emu_ssr *ssr;		/* QAIC_SSR, in AMSS */
	struct emu_ras *ras;		/* QAIC_STATUS, in AMSS */
	struct emu_bootlog *bootlog;	/* QAIC_LOGGING, in SBL */
	struct emu_timesync *ts;	/* QAIC_TIMESYNC{,_PERIODIC} */
	struct emu_qrtr *qrtr;		/* IPCR, in AMSS */
	struct emu_telemetry *tm;	/* QAIC_TELEMETRY, in AMSS */

	bool ee_sent;			/* EE event sent since reset */
	bool amss_pending;		/* AMSS once Sahara's last packet is out */
	struct timespec amss_by;	/* ...and the host listens, or then */
	unsigned int sbl_host_wait_ms;	/* amss_by - when Sahara ended */
	struct ring cmd;
	struct ev_ring ev[EMU_MHI_MAX_EV_RINGS];
	struct channel ch[EMU_MHI_MAX_CHANNELS];

	/* QAIC_CONTROL and QAIC_SAHARA: uplink messages, packets held. */
	struct ul_msg ul[NR_Q];
	uint8_t *answer;
	struct held_q held[NR_Q];

	/* Malicious-card mode: arm it at the end of this BAR0 write. */
	bool malice_arm;

	/* SYS_ERROR fault injection */
	unsigned int syserr_after_ms;
	bool syserr_armed;		/* not yet triggered */
	struct timespec syserr_at;
	bool syserr_timer_running;

	struct emu_mhi_counters c;
};

/* ---- little helpers ---------------------------------------------------- */

static uint64_t hi_lo(uint32_t hi, uint32_t lo)
{
	return (uint64_t)hi << 32 | lo;
}

static uint64_t set_lo(uint64_t v, uint32_t lo)
{
	return (v & 0xffffffff00000000ull) | lo;
}

static uint64_t set_hi(uint64_t v, uint32_t hi)
{
	return (v & 0xffffffffull) | (uint64_t)hi << 32;
}

static bool el_read(struct emu_mhi *mhi, uint64_t addr, struct mhi_el *el)
{
	uint8_t b[EL_SIZE];

	if (emu_dma_read(mhi->dev, addr, b, sizeof(b)))
		return false;
	el->ptr = get_le64(b);
	el->dw0 = get_le32(b + 8);
	el->dw1 = get_le32(b + 12);
	return true;
}

static bool el_write(struct emu_mhi *mhi, uint64_t addr, const struct mhi_el *el)
{
	uint8_t b[EL_SIZE];

	put_le64(b, el->ptr);
	put_le32(b + 8, el->dw0);
	put_le32(b + 12, el->dw1);
	return !emu_dma_write(mhi->dev, addr, b, sizeof(b));
}

static unsigned int el_type(const struct mhi_el *el)
{
	return (el->dw1 >> 16) & 0xff;
}

/* [addr, addr + len) inside [base, limit] when the host set a window. */
static bool in_window(uint64_t base, uint64_t limit, uint64_t addr,
		      uint64_t len)
{
	if (limit <= base)
		return true;		/* not configured */
	return addr >= base && len && addr + len - 1 >= addr &&
	       addr + len - 1 <= limit;
}

static bool ctrl_ok(struct emu_mhi *mhi, uint64_t addr, uint64_t len)
{
	if (!in_window(mhi->ctrlbase, mhi->ctrllimit, addr, len))
		return false;
	return emu_dma_reachable(mhi->dev, addr, len);
}

static bool data_ok(struct emu_mhi *mhi, uint64_t addr, uint64_t len)
{
	return in_window(mhi->database, mhi->datalimit, addr, len ? len : 1);
}

static bool ring_ptr_ok(const struct ring *r, uint64_t p)
{
	return p >= r->base && p - r->base < r->len &&
	       !((p - r->base) % EL_SIZE);
}

static uint64_t ring_next(const struct ring *r, uint64_t p)
{
	p += EL_SIZE;
	return p - r->base >= r->len ? r->base : p;
}

static unsigned int ring_elements(const struct ring *r)
{
	return (unsigned int)(r->len / EL_SIZE);
}

/*
 * Load a ring from the context at @ctx: base, length, read and write
 * pointers. False (counted) when anything is out of bounds.
 */
static bool ring_load(struct emu_mhi *mhi, struct ring *r, uint64_t ctx,
		      uint8_t raw[CTX_SIZE])
{
	struct ring n = { .ctx = ctx };

	if (!ctrl_ok(mhi, ctx, CTX_SIZE) ||
	    emu_dma_read(mhi->dev, ctx, raw, CTX_SIZE))
		goto bad;
	n.base = get_le64(raw + CTX_RBASE);
	n.len = get_le64(raw + CTX_RLEN);
	n.rp = get_le64(raw + CTX_RP);
	n.wp = get_le64(raw + CTX_WP);
	if (n.len < 2 * EL_SIZE || n.len > MAX_RING_BYTES || n.len % EL_SIZE ||
	    n.base % EL_SIZE || !ctrl_ok(mhi, n.base, n.len) ||
	    !ring_ptr_ok(&n, n.rp) || !ring_ptr_ok(&n, n.wp))
		goto bad;
	n.started = true;
	*r = n;
	return true;
bad:
	mhi->c.mhi_bad_ring++;
	emu_log(mhi->dev, "MHI: bad ring context at %#" PRIx64, ctx);
	return false;
}

/* Store the device's read pointer back into the ring's context. */
static void ring_store_rp(struct emu_mhi *mhi, const struct ring *r)
{
	uint8_t b[8];

	put_le64(b, r->rp);
	emu_dma_write(mhi->dev, r->ctx + CTX_RP, b, sizeof(b));
}

/* Rewrite the state byte of a channel context's chcfg. */
static void chan_ctx_set_state(struct emu_mhi *mhi, unsigned int chid,
			       unsigned int state)
{
	uint64_t ctx = mhi->ccabap + (uint64_t)chid * CTX_SIZE;
	uint8_t b[4];

	if (!ctrl_ok(mhi, ctx, CTX_SIZE) || emu_dma_read(mhi->dev, ctx, b, 4))
		return;
	put_le32(b, (get_le32(b) & ~0xffu) | state);
	emu_dma_write(mhi->dev, ctx, b, 4);
}

/* ---- event rings ------------------------------------------------------- */

static bool ev_ring_start(struct emu_mhi *mhi, unsigned int er)
{
	struct ev_ring *ev;
	uint8_t raw[CTX_SIZE];

	if (er >= EMU_MHI_MAX_EV_RINGS || er >= mhi->ner) {
		mhi->c.mhi_bad_ring++;
		return false;
	}
	ev = &mhi->ev[er];
	if (ev->r.started)
		return true;
	if (!ring_load(mhi, &ev->r, mhi->ecabap + (uint64_t)er * CTX_SIZE, raw))
		return false;
	ev->msivec = get_le32(raw + CTX_W2);
	/* Like the hardware, trust the doorbell over the context's wp. */
	if (mhi->erdb_rung[er]) {
		uint64_t wp = hi_lo(mhi->erdb[er][1], mhi->erdb[er][0]);

		if (ring_ptr_ok(&ev->r, wp))
			ev->r.wp = wp;
	}
	return true;
}

/* Write one event if the host left room; false when the ring is full. */
static bool ev_write(struct emu_mhi *mhi, struct ev_ring *ev,
		     const struct mhi_el *el)
{
	struct ring *r = &ev->r;
	struct mhi_el out = *el;
	uint8_t b[8];

	if (r->rp == r->wp)
		return false;
	/* Malicious-card mode: the host sees another element and rp. */
	if (malice_mhi_event(mhi->dev->malice, &out.ptr, &out.dw0, &out.dw1))
		emu_log(mhi->dev, "malice: event %#" PRIx64 " %#x %#x written as %#"
			PRIx64 " %#x %#x", el->ptr, el->dw0, el->dw1, out.ptr,
			out.dw0, out.dw1);
	if (!el_write(mhi, r->rp, &out)) {
		/* Memory went away under the ring: lose the event. */
		mhi->c.mhi_bad_ring++;
		return true;
	}
	r->rp = ring_next(r, r->rp);
	put_le64(b, malice_ring_ptr(mhi->dev->malice, r->rp, r->base, r->len));
	emu_dma_write(mhi->dev, r->ctx + CTX_RP, b, sizeof(b));
	mhi->c.mhi_events++;
	return true;
}

static void ev_flush_backlog(struct emu_mhi *mhi, struct ev_ring *ev)
{
	unsigned int done = 0;

	while (done < ev->nr_backlog && ev_write(mhi, ev, &ev->backlog[done]))
		done++;
	if (!done)
		return;
	memmove(ev->backlog, ev->backlog + done,
		(ev->nr_backlog - done) * sizeof(ev->backlog[0]));
	ev->nr_backlog -= done;
	ev->irq_due = true;
}

/* Queue @el on event ring @er; the interrupt goes out in irq_flush(). */
static void ev_send(struct emu_mhi *mhi, unsigned int er,
		    const struct mhi_el *el, bool irq)
{
	struct ev_ring *ev;

	if (!ev_ring_start(mhi, er)) {
		emu_log(mhi->dev, "MHI: event ring %u unusable, event lost", er);
		return;
	}
	ev = &mhi->ev[er];
	if (!ev->nr_backlog && ev_write(mhi, ev, el)) {
		if (irq)
			ev->irq_due = true;
		return;
	}
	/* Full: hold it until the host hands the slots back. */
	if (ev->nr_backlog == EMU_MHI_MAX_EV_BACKLOG) {
		mhi->c.mhi_events_lost++;
		emu_log(mhi->dev, "MHI: event ring %u backlog full", er);
		return;
	}
	ev->backlog[ev->nr_backlog++] = *el;
}

static void irq_flush(struct emu_mhi *mhi)
{
	unsigned int er;

	for (er = 0; er < EMU_MHI_MAX_EV_RINGS; er++) {
		if (!mhi->ev[er].irq_due)
			continue;
		mhi->ev[er].irq_due = false;
		emu_irq_raise(mhi->dev, mhi->ev[er].msivec);
	}
}

static void send_state_change(struct emu_mhi *mhi, unsigned int state)
{
	struct mhi_el el = {
		.dw0 = state << 24,
		.dw1 = PKT_STATE_CHANGE_EV << 16,
	};

	ev_send(mhi, 0, &el, true);
}

static void send_ee(struct emu_mhi *mhi, unsigned int ee)
{
	struct mhi_el el = {
		.dw0 = ee << 24,
		.dw1 = PKT_EE_EV << 16,
	};

	ev_send(mhi, 0, &el, true);
}

static void send_cmd_completion(struct emu_mhi *mhi, uint64_t cmd_el,
				unsigned int code)
{
	struct mhi_el el = {
		.ptr = cmd_el,
		.dw0 = code << 24,
		.dw1 = PKT_CMD_COMPLETION_EV << 16,
	};

	ev_send(mhi, 0, &el, true);
}

static void send_xfer(struct emu_mhi *mhi, unsigned int chid, uint64_t tre,
		      unsigned int code, uint32_t len, bool bei)
{
	struct mhi_el el = {
		.ptr = tre,
		.dw0 = code << 24 | (len & 0xffff),
		.dw1 = chid << 24 | PKT_TX_EV << 16,
	};

	ev_send(mhi, mhi->ch[chid].erindex, &el, !bei);
}

/* ---- state machine ----------------------------------------------------- */

static void held_clear(struct emu_mhi *mhi, unsigned int q)
{
	struct held_q *h = &mhi->held[q];

	while (h->nr) {
		free(h->a[h->head].data);
		h->a[h->head].data = NULL;
		h->head = (h->head + 1) % EMU_MHI_MAX_HELD;
		h->nr--;
		if (q == Q_CONTROL)
			mhi->c.control_msgs_dropped++;
	}
	h->head = 0;
}

/* Copy @len bytes into the held queue @q; false if it is full. */
static bool held_push(struct emu_mhi *mhi, unsigned int q, const void *data,
		      size_t len)
{
	struct held_q *h = &mhi->held[q];
	struct answer *a;

	if (h->nr == EMU_MHI_MAX_HELD)
		return false;
	a = &h->a[(h->head + h->nr) % EMU_MHI_MAX_HELD];
	a->data = malloc(len ? len : 1);
	if (!a->data)
		return false;
	memcpy(a->data, data, len);
	a->len = len;
	a->claim = 0;
	a->due.tv_sec = 0;
	h->nr++;
	return true;
}

static void ul_msg_reset(struct ul_msg *m)
{
	m->len = 0;
	m->bad = false;
}

/* Which queue a channel's messages use; -1 for channels that never talk. */
static int chan_q(unsigned int chid)
{
	switch (chid) {
	case EMU_MHI_CH_CONTROL_UL:
	case EMU_MHI_CH_CONTROL_DL:
		return Q_CONTROL;
	case EMU_SAHARA_CH_UL:
	case EMU_SAHARA_CH_DL:
		return Q_SAHARA;
	case EMU_SSR_CH_UL:
	case EMU_SSR_CH_DL:
		return Q_SSR;
	case EMU_RAS_CH_UL:
	case EMU_RAS_CH_DL:
		return Q_RAS;
	case EMU_BOOTLOG_CH_UL:
	case EMU_BOOTLOG_CH_DL:
		return Q_BOOTLOG;
	case EMU_TIMESYNC_CH_UL:
	case EMU_TIMESYNC_CH_DL:
		return Q_TIMESYNC;
	case EMU_TIMESYNC_PERIODIC_CH_UL:
	case EMU_TIMESYNC_PERIODIC_CH_DL:
		return Q_TIMESYNC_P;
	case EMU_QRTR_CH_UL:
	case EMU_QRTR_CH_DL:
		return Q_IPCR;
	case EMU_TELEMETRY_CH_UL:
	case EMU_TELEMETRY_CH_DL:
		return Q_TELEMETRY;
	default:
		return -1;
	}
}

/*
 * Everything the host set up is forgotten; the device is READY again, or
 * in RESET while PBL runs (it has no MHI until SBL is loaded).
 */
static void mhi_reset(struct emu_mhi *mhi)
{
	unsigned int q;

	mhi->state = mhi->bhi.ee == EMU_EE_PBL ? ST_RESET : ST_READY;
	mhi->mhictrl = 0;
	mhi->answer_delay_ms = 0;
	mhi->bhi.intvec = 0;
	mhi->ee_sent = false;
	if (mhi->amss_pending)
		mhi->bhi.ee = EMU_EE_AMSS;	/* SBL had finished */
	mhi->amss_pending = false;
	memset(&mhi->cmd, 0, sizeof(mhi->cmd));
	memset(mhi->ev, 0, sizeof(mhi->ev));
	memset(mhi->erdb_rung, 0, sizeof(mhi->erdb_rung));
	memset(mhi->ch, 0, sizeof(mhi->ch));
	for (q = 0; q < NR_Q; q++) {
		ul_msg_reset(&mhi->ul[q]);
		held_clear(mhi, q);
	}
	if (mhi->sahara)
		emu_sahara_stop(mhi->sahara);
	if (mhi->ssr)
		emu_ssr_reset(mhi->ssr);
	if (mhi->bootlog)
		emu_bootlog_listen(mhi->bootlog, false);
	if (mhi->ts)
		emu_timesync_reset(mhi->ts);
	if (mhi->tm) {
		emu_telemetry_reset(mhi->tm);
		/* Mission mode begins: power-on there, SBL's end, a crash's reset. */
		if (mhi->bhi.ee != EMU_EE_AMSS)
			emu_telemetry_stop(mhi->tm);
		else if (!emu_telemetry_serving(mhi->tm))
			emu_telemetry_start(mhi->tm);
	}
	if (mhi->mgr)
		emu_manager_reset(mhi->mgr);
}

/* Power-on or SoC reset: the card starts over where --boot says. */
static void power_on(struct emu_mhi *mhi)
{
	mhi->amss_pending = false;
	emu_bhi_power_on(&mhi->bhi, mhi->boot == EMU_MHI_BOOT_PBL ?
			 EMU_EE_PBL : EMU_EE_AMSS);
	emu_bhie_power_on(&mhi->bhie);
	if (mhi->sahara)
		emu_sahara_power_on(mhi->sahara);
	if (mhi->ts)
		emu_timesync_power_on(mhi->ts);
	if (mhi->tm)
		emu_telemetry_stop(mhi->tm);	/* the firmware starts over */
	mhi_reset(mhi);
}

/* @t becomes now (CLOCK_MONOTONIC) plus @ms milliseconds. */
static void deadline_in(struct timespec *t, unsigned int ms)
{
	clock_gettime(CLOCK_MONOTONIC, t);
	t->tv_sec += ms / 1000;
	t->tv_nsec += (long)(ms % 1000) * 1000000;
	if (t->tv_nsec >= 1000000000) {
		t->tv_sec++;
		t->tv_nsec -= 1000000000;
	}
}

static void arm_syserr_timer(struct emu_mhi *mhi)
{
	if (!mhi->syserr_armed || mhi->syserr_timer_running)
		return;
	deadline_in(&mhi->syserr_at, mhi->syserr_after_ms);
	mhi->syserr_timer_running = true;
}

static void enter_m0(struct emu_mhi *mhi)
{
	mhi->state = ST_M0;
	send_state_change(mhi, ST_M0);
	if (!mhi->ee_sent) {
		/* SBL or mission mode is up: tell the host once per reset. */
		send_ee(mhi, mhi->bhi.ee);
		mhi->ee_sent = true;
	}
	arm_syserr_timer(mhi);
	emu_log(mhi->dev, "MHI: M0");
}

static void mhictrl_write(struct emu_mhi *mhi, uint32_t val)
{
	unsigned int req = (val >> MHICTRL_STATE_SHIFT) & 0xff;

	if (val & MHICTRL_RESET) {
		mhi->c.mhi_resets++;
		emu_log(mhi->dev, "MHI: reset (state %#x)", mhi->state);
		if (mhi->state == ST_SYS_ERR && emu_memdump_pending(mhi->md)) {
			/* The crashed card reboots, its memory kept for the dump. */
			emu_log(mhi->dev, "MHI: rebooting to PBL after the crash");
			power_on(mhi);
			return;
		}
		mhi_reset(mhi);
		return;		/* reset done: the RESET bit reads back 0 */
	}
	mhi->mhictrl = val & (0xffu << MHICTRL_STATE_SHIFT);
	if (mhi->state == ST_SYS_ERR || req == mhi->state)
		return;		/* only a reset leaves SYS_ERROR */

	switch (req) {
	case ST_M0:
		if (mhi->state == ST_READY || mhi->state == ST_M3 ||
		    mhi->state == ST_M1 || mhi->state == ST_M2)
			enter_m0(mhi);
		break;
	case ST_M3:
		if (mhi->state == ST_M0) {
			mhi->state = ST_M3;
			send_state_change(mhi, ST_M3);
		}
		break;
	case ST_SYS_ERR:
		/* The host may force SYS_ERROR (mhi_force_rddm_mode). */
		emu_mhi_raise_syserr(mhi);
		break;
	default:
		break;		/* M1/M2 are device-initiated; ignore */
	}
}

/* ---- transfer rings ---------------------------------------------------- */

static void enter_amss(struct emu_mhi *mhi);

static int64_t ms_until(const struct timespec *t);

/* The host started the boot log and time sync channels of SBL (card.h). */
static bool sbl_host_listens(const struct emu_mhi *mhi)
{
	return mhi->ch[EMU_BOOTLOG_CH_DL].state == CH_RUNNING &&
	       (!emu_card_of(&mhi->dev->pci)->sbl_timesync ||
		(mhi->ch[EMU_TIMESYNC_CH_UL].state == CH_RUNNING &&
		 mhi->ch[EMU_TIMESYNC_CH_DL].state == CH_RUNNING));
}

/*
 * SBL hands over to mission mode once the host has Sahara's last packet,
 * and, if it listens, every line of the boot log and the time it was
 * asked for: the host's MHI core removes those channels in mission mode.
 * A host starts those channels while it serves Sahara, and a short
 * transfer can end first: SBL gives it sbl_host_wait_ms to start them.
 */
static bool amss_waits(struct emu_mhi *mhi)
{
	const struct channel *log = &mhi->ch[EMU_BOOTLOG_CH_DL];

	return mhi->held[Q_SAHARA].nr ||
	       (!sbl_host_listens(mhi) && ms_until(&mhi->amss_by) > 0) ||
	       (log->state == CH_RUNNING &&
		(mhi->held[Q_BOOTLOG].nr || emu_bootlog_pending(mhi->bootlog) ||
		 /* --bootlog-fault tail: a buffer of the host's for a last line */
		 (emu_bootlog_has_tail(mhi->bootlog) && log->r.rp == log->r.wp &&
		  ms_until(&mhi->amss_by) > 0))) ||
	       (mhi->ch[EMU_TIMESYNC_CH_UL].state == CH_RUNNING &&
		emu_timesync_waiting(mhi->ts));
}

static void maybe_enter_amss(struct emu_mhi *mhi)
{
	if (mhi->amss_pending && !amss_waits(mhi))
		enter_amss(mhi);
}

/* Deliver held answers into the buffers the host queued on @chid. */
static void dl_deliver(struct emu_mhi *mhi, unsigned int chid)
{
	struct channel *ch = &mhi->ch[chid];
	unsigned int n = 0, limit = ring_elements(&ch->r);
	int q = chan_q(chid);
	struct held_q *h;

	if (q < 0)
		return;
	h = &mhi->held[q];
	if (ch->state != CH_RUNNING || (!h->nr && q != Q_BOOTLOG))
		return;		/* held until the host queues a buffer */
	while (ch->r.rp != ch->r.wp && n++ < limit) {
		/* The boot log goes out as the host's buffers take it. */
		if (!h->nr && q == Q_BOOTLOG)
			emu_bootlog_pump(mhi->bootlog);
		if (!h->nr)
			break;
		struct answer *a = &h->a[h->head];
		uint64_t tre_addr = ch->r.rp;

		/* A slow manager's answer waits (emu_mhi_tick() sends it). */
		if (a->due.tv_sec && ms_until(&a->due) >= 0)
			break;
		unsigned int code = CC_EOT;
		struct mhi_el tre;
		size_t len;

		if (!el_read(mhi, tre_addr, &tre)) {
			mhi->c.mhi_bad_ring++;
			break;
		}
		ch->r.rp = ring_next(&ch->r, tre_addr);
		if (el_type(&tre) != PKT_TRANSFER) {
			mhi->c.mhi_bad_tre++;
			send_xfer(mhi, chid, tre_addr, CC_BAD_TRE, 0, false);
			continue;	/* the answer waits for a good buffer */
		}
		len = a->len;
		if (len > (tre.dw0 & 0xffff)) {
			len = tre.dw0 & 0xffff;
			code = CC_OVERFLOW;
		}
		if (!data_ok(mhi, tre.ptr, len) ||
		    emu_dma_write(mhi->dev, tre.ptr, a->data, len)) {
			mhi->c.mhi_bad_tre++;
			send_xfer(mhi, chid, tre_addr, CC_BAD_TRE, 0, false);
			continue;
		}
		if (a->claim)
			len = (a->claim - 1) & 0xffff;
		send_xfer(mhi, chid, tre_addr, code, (uint32_t)len,
			  (tre.dw1 >> 10) & 1);
		free(a->data);
		a->data = NULL;
		h->head = (h->head + 1) % EMU_MHI_MAX_HELD;
		h->nr--;
		if (q == Q_SAHARA || q == Q_BOOTLOG)
			maybe_enter_amss(mhi);
		if (q != Q_CONTROL)
			continue;
		mhi->c.control_msgs_out++;
		/* The card is up: malice begins after this BAR0 write's MSIs. */
		mhi->malice_arm = true;
	}
	ring_store_rp(mhi, &ch->r);
}

/* A complete uplink message on QAIC_CONTROL: to the manager and back. */
static void control_message(struct emu_mhi *mhi)
{
	struct ul_msg *m = &mhi->ul[Q_CONTROL];
	size_t n;

	mhi->c.control_msgs_in++;
	if (mhi->control_fn)
		n = mhi->control_fn(mhi->control_ctx, m->buf, m->len,
				    mhi->answer, EMU_MHI_MAX_ANSWER);
	else if (mhi->mgr)
		n = emu_manager_handle(mhi->mgr, m->buf, m->len,
				       mhi->answer, EMU_MHI_MAX_ANSWER);
	else
		return;
	if (!n)
		return;
	/* Malicious-card mode: the answer's fields, length and CRC. */
	if (n <= EMU_MHI_MAX_ANSWER)
		n = malice_nnc(mhi->dev->malice, mhi->answer, n, EMU_MHI_MAX_ANSWER);
	if (n > EMU_MHI_MAX_ANSWER || !held_push(mhi, Q_CONTROL, mhi->answer, n)) {
		mhi->c.control_msgs_dropped++;
		emu_log(mhi->dev, "MHI: control answer of %zu bytes dropped", n);
		return;
	}
	if (mhi->answer_delay_ms) {
		struct held_q *h = &mhi->held[Q_CONTROL];
		struct answer *a = &h->a[(h->head + h->nr - 1) % EMU_MHI_MAX_HELD];

		deadline_in(&a->due, mhi->answer_delay_ms);
	}
}

/* The first held control answer that waits for its time, or NULL. */
static const struct answer *control_answer_due(const struct emu_mhi *mhi)
{
	const struct held_q *h = &mhi->held[Q_CONTROL];

	if (!h->nr || !h->a[h->head].due.tv_sec)
		return NULL;
	return &h->a[h->head];
}

void emu_mhi_set_answer_delay(struct emu_mhi *mhi, unsigned int ms)
{
	mhi->answer_delay_ms = ms;
}

/* A complete uplink message: to its protocol. */
static void ul_message(struct emu_mhi *mhi, unsigned int chid)
{
	struct ul_msg *m = &mhi->ul[chan_q(chid)];

	if (chid == EMU_MHI_CH_CONTROL_UL) {
		if (!m->bad && m->len)
			control_message(mhi);
	} else if (chid == EMU_RAS_CH_UL) {
		/* The host has nothing to say on QAIC_STATUS. */
	} else if (chid == EMU_SSR_CH_UL) {
		if (!m->bad && mhi->ssr)
			emu_ssr_rx(mhi->ssr, m->buf, m->len);
	} else if (chid == EMU_TIMESYNC_CH_UL) {
		emu_timesync_rx(mhi->ts, m->buf, m->bad ? 0 : m->len);
		maybe_enter_amss(mhi);
	} else if (chid == EMU_TIMESYNC_PERIODIC_CH_UL) {
		emu_timesync_periodic_rx(mhi->ts, m->buf, m->bad ? 0 : m->len);
	} else if (chid == EMU_BOOTLOG_CH_UL) {
		/* The host has nothing to say on the boot log. */
	} else if (chid == EMU_QRTR_CH_UL) {
		if (!m->bad)
			emu_qrtr_rx(mhi->qrtr, m->buf, m->len);
	} else if (chid == EMU_TELEMETRY_CH_UL) {
		/* Too long or unreadable: nothing to answer to. */
		emu_telemetry_rx(mhi->tm, m->buf, m->bad ? 0 : m->len);
	} else if (!m->bad && mhi->sahara) {
		emu_sahara_rx(mhi->sahara, m->buf, m->len);
	}
	ul_msg_reset(m);
}

static void ul_process(struct emu_mhi *mhi, unsigned int chid)
{
	struct channel *ch = &mhi->ch[chid];
	int q = chan_q(chid);
	struct ul_msg *m = q < 0 ? NULL : &mhi->ul[q];
	unsigned int n = 0, limit = ring_elements(&ch->r);
	bool answered = false;

	while (ch->r.rp != ch->r.wp && n++ < limit) {
		uint64_t tre_addr = ch->r.rp;
		struct mhi_el tre;
		uint32_t len;
		bool chain;

		if (!el_read(mhi, tre_addr, &tre)) {
			mhi->c.mhi_bad_ring++;
			break;
		}
		ch->r.rp = ring_next(&ch->r, tre_addr);
		if (el_type(&tre) != PKT_TRANSFER) {
			/* Not a transfer: whatever it was part of is lost. */
			mhi->c.mhi_bad_tre++;
			if (m)
				ul_msg_reset(m);
			send_xfer(mhi, chid, tre_addr, CC_BAD_TRE, 0, false);
			continue;
		}
		len = tre.dw0 & 0xffff;
		chain = tre.dw1 & 1;
		if (m && !m->bad) {
			if (m->len + len > m->cap ||
			    !data_ok(mhi, tre.ptr, len) ||
			    emu_dma_read(mhi->dev, tre.ptr, m->buf + m->len, len)) {
				mhi->c.mhi_bad_tre++;
				m->bad = true;
			} else {
				m->len += len;
			}
		}
		if (chain && ((tre.dw1 >> 8) & 1))
			send_xfer(mhi, chid, tre_addr, CC_EOB, len,
				  (tre.dw1 >> 10) & 1);
		else if (!chain && ((tre.dw1 >> 9) & 1))
			send_xfer(mhi, chid, tre_addr, CC_EOT, len,
				  (tre.dw1 >> 10) & 1);
		if (chain || !m)
			continue;
		/* End of the message. */
		ul_message(mhi, chid);
		answered = true;
	}
	ring_store_rp(mhi, &ch->r);
	if (answered && chid == EMU_MHI_CH_CONTROL_UL)
		dl_deliver(mhi, EMU_MHI_CH_CONTROL_DL);
}

static void chan_doorbell(struct emu_mhi *mhi, unsigned int chid)
{
	struct channel *ch = &mhi->ch[chid];
	uint64_t wp = hi_lo(mhi->chdb[chid][1], mhi->chdb[chid][0]);

	if (chid == EMU_MHI_WAKE_DB)
		return;			/* DEV_WAKE: nothing to wake */
	if (mhi->state != ST_M0 || ch->state != CH_RUNNING)
		return;			/* the host rings again after START/M0 */
	if (!ring_ptr_ok(&ch->r, wp)) {
		mhi->c.mhi_bad_ring++;
		emu_log(mhi->dev, "MHI: channel %u doorbell %#" PRIx64
			" outside its ring", chid, wp);
		return;
	}
	ch->r.wp = wp;
	if (ch->ul)
		ul_process(mhi, chid);
	else
		dl_deliver(mhi, chid);
	if (chid == EMU_BOOTLOG_CH_DL)
		maybe_enter_amss(mhi);	/* --bootlog-fault tail waits for a buffer */
	/* Other downlink buffers stay queued: those channels never talk. */
}

static void ev_doorbell(struct emu_mhi *mhi, unsigned int er)
{
	struct ev_ring *ev = &mhi->ev[er];
	uint64_t wp = hi_lo(mhi->erdb[er][1], mhi->erdb[er][0]);

	mhi->erdb_rung[er] = true;
	if (!ev->r.started)
		return;			/* the context is read at first use */
	if (!ring_ptr_ok(&ev->r, wp)) {
		mhi->c.mhi_bad_ring++;
		return;
	}
	ev->r.wp = wp;
	ev_flush_backlog(mhi, ev);
}

/* ---- command ring ------------------------------------------------------ */

static unsigned int cmd_start(struct emu_mhi *mhi, unsigned int chid)
{
	struct channel *ch = &mhi->ch[chid];
	uint8_t raw[CTX_SIZE];
	uint32_t chtype, erindex;
	struct ring r;

	if (ch->state == CH_STOP || ch->state == CH_RUNNING) {
		ch->state = CH_RUNNING;
		chan_ctx_set_state(mhi, chid, CH_RUNNING);
		return CC_SUCCESS;
	}
	if (!ring_load(mhi, &r, mhi->ccabap + (uint64_t)chid * CTX_SIZE, raw))
		return CC_UNDEFINED_ERR;
	chtype = get_le32(raw + CTX_W1);
	erindex = get_le32(raw + CTX_W2);
	if ((chtype != CHTYPE_UL && chtype != CHTYPE_DL) ||
	    erindex >= mhi->ner || erindex >= EMU_MHI_MAX_EV_RINGS) {
		mhi->c.mhi_bad_ring++;
		emu_log(mhi->dev, "MHI: channel %u: chtype %u erindex %u",
			chid, chtype, erindex);
		return CC_UNDEFINED_ERR;
	}
	ch->r = r;
	ch->ul = chtype == CHTYPE_UL;
	ch->erindex = erindex;
	ch->state = CH_RUNNING;
	put_le32(raw, (get_le32(raw) & ~0xffu) | CH_RUNNING);
	emu_dma_write(mhi->dev, r.ctx, raw, 4);
	if (ch->ul && chan_q(chid) >= 0)
		ul_msg_reset(&mhi->ul[chan_q(chid)]);
	emu_log(mhi->dev, "MHI: channel %u started (%s, %u elements)", chid,
		ch->ul ? "uplink" : "downlink", ring_elements(&r));
	return CC_SUCCESS;
}

/* SBL talks Sahara once the host started both of its channels. */
static void sahara_maybe_start(struct emu_mhi *mhi, unsigned int chid)
{
	if (chan_q(chid) != Q_SAHARA || !mhi->sahara ||
	    mhi->bhi.ee != EMU_EE_SBL ||
	    mhi->ch[EMU_SAHARA_CH_UL].state != CH_RUNNING ||
	    mhi->ch[EMU_SAHARA_CH_DL].state != CH_RUNNING)
		return;
	emu_sahara_start(mhi->sahara);
}

/* Mission mode's IPC router says hello once the host started IPCR. */
static void ipcr_maybe_start(struct emu_mhi *mhi, unsigned int chid)
{
	if (chan_q(chid) != Q_IPCR || mhi->bhi.ee != EMU_EE_AMSS ||
	    mhi->ch[EMU_QRTR_CH_UL].state != CH_RUNNING ||
	    mhi->ch[EMU_QRTR_CH_DL].state != CH_RUNNING)
		return;
	emu_qrtr_start(mhi->qrtr);
}

/* The other SBL channels: the boot log is sent, the time asked for. */
static void sbl_chan_started(struct emu_mhi *mhi, unsigned int chid)
{
	if (mhi->bhi.ee != EMU_EE_SBL)
		return;
	if (chid == EMU_BOOTLOG_CH_DL) {
		emu_bootlog_listen(mhi->bootlog, true);
		dl_deliver(mhi, EMU_BOOTLOG_CH_DL);
	}
	if (chan_q(chid) == Q_TIMESYNC && emu_card_of(&mhi->dev->pci)->sbl_timesync &&
	    mhi->ch[EMU_TIMESYNC_CH_UL].state == CH_RUNNING &&
	    mhi->ch[EMU_TIMESYNC_CH_DL].state == CH_RUNNING &&
	    !emu_timesync_waiting(mhi->ts))
		emu_timesync_ask(mhi->ts);
}

static unsigned int cmd_stop(struct emu_mhi *mhi, unsigned int chid)
{
	struct channel *ch = &mhi->ch[chid];

	if (ch->state == CH_RUNNING) {
		ch->state = CH_STOP;
		chan_ctx_set_state(mhi, chid, CH_STOP);
	}
	return CC_SUCCESS;
}

static unsigned int cmd_reset(struct emu_mhi *mhi, unsigned int chid)
{
	struct channel *ch = &mhi->ch[chid];

	if (ch->state != CH_DISABLED)
		chan_ctx_set_state(mhi, chid, CH_DISABLED);
	memset(ch, 0, sizeof(*ch));
	if (chan_q(chid) >= 0 && (chid & 1) == 0)
		ul_msg_reset(&mhi->ul[chan_q(chid)]);
	if (chan_q(chid) >= 0 && (chid & 1) == 1)
		held_clear(mhi, chan_q(chid));
	if (chan_q(chid) == Q_SAHARA && mhi->sahara)
		emu_sahara_stop(mhi->sahara);
	if (chid == EMU_BOOTLOG_CH_DL)
		emu_bootlog_listen(mhi->bootlog, false);
	if (chan_q(chid) == Q_TIMESYNC)
		emu_timesync_reset(mhi->ts);
	maybe_enter_amss(mhi);
	return CC_SUCCESS;
}

static void cmd_one(struct emu_mhi *mhi, uint64_t addr, const struct mhi_el *el)
{
	unsigned int type = el_type(el), chid = el->dw1 >> 24;
	unsigned int code;

	mhi->c.mhi_cmds++;
	if (type == PKT_NOOP_CMD) {
		code = CC_SUCCESS;
	} else if (type != PKT_START_CHAN && type != PKT_STOP_CHAN &&
		   type != PKT_RESET_CHAN) {
		mhi->c.mhi_bad_tre++;
		code = CC_UNDEFINED_ERR;
	} else if (chid >= EMU_MHI_MAX_CHANNELS || chid == EMU_MHI_WAKE_DB) {
		mhi->c.mhi_bad_tre++;
		code = CC_UNDEFINED_ERR;
	} else if (type == PKT_START_CHAN) {
		code = cmd_start(mhi, chid);
		if (code == CC_SUCCESS) {
			sahara_maybe_start(mhi, chid);
			sbl_chan_started(mhi, chid);
			ipcr_maybe_start(mhi, chid);
		}
	} else if (type == PKT_STOP_CHAN) {
		code = cmd_stop(mhi, chid);
	} else {
		code = cmd_reset(mhi, chid);
	}
	emu_log(mhi->dev, "MHI: command %#x channel %u -> %#x", type, chid, code);
	send_cmd_completion(mhi, addr, code);
}

static void cmd_doorbell(struct emu_mhi *mhi)
{
	uint64_t wp = hi_lo(mhi->crdb[1], mhi->crdb[0]);
	unsigned int n = 0;
	uint8_t raw[CTX_SIZE];

	if (mhi->state != ST_M0)
		return;		/* the host rings again once in M0 */
	if (!mhi->cmd.started && !ring_load(mhi, &mhi->cmd, mhi->crcbap, raw))
		return;
	if (!ring_ptr_ok(&mhi->cmd, wp)) {
		mhi->c.mhi_bad_ring++;
		return;
	}
	mhi->cmd.wp = wp;
	while (mhi->cmd.rp != mhi->cmd.wp && n++ < ring_elements(&mhi->cmd)) {
		uint64_t addr = mhi->cmd.rp;
		struct mhi_el el;

		if (!el_read(mhi, addr, &el)) {
			mhi->c.mhi_bad_ring++;
			break;
		}
		mhi->cmd.rp = ring_next(&mhi->cmd, addr);
		cmd_one(mhi, addr, &el);
		if (mhi->state != ST_M0)
			break;
	}
	ring_store_rp(mhi, &mhi->cmd);
}

/* ---- registers --------------------------------------------------------- */

static uint32_t reg_read(struct emu_mhi *mhi, uint32_t off)
{
	if (off >= EMU_MHI_BHI_OFF && off < EMU_MHI_BHI_OFF + BHI_SIZE)
		return emu_bhi_read(&mhi->bhi, off - EMU_MHI_BHI_OFF);
	if (off >= EMU_MHI_BHIE_OFF && off < EMU_MHI_BHIE_OFF + EMU_BHIE_SIZE) {
		uint32_t lie;

		if (emu_bhi_case_lies(&mhi->bhi, true, off - EMU_MHI_BHIE_OFF, &lie))
			return lie;
		return emu_bhie_read(&mhi->bhie, off - EMU_MHI_BHIE_OFF);
	}
	if (off >= EMU_MHI_CHDB_OFF &&
	    off < EMU_MHI_CHDB_OFF + 8 * EMU_MHI_MAX_CHANNELS)
		return mhi->chdb[(off - EMU_MHI_CHDB_OFF) / 8][(off / 4) & 1];
	if (off >= EMU_MHI_ERDB_OFF &&
	    off < EMU_MHI_ERDB_OFF + 8 * EMU_MHI_MAX_EV_RINGS)
		return mhi->erdb[(off - EMU_MHI_ERDB_OFF) / 8][(off / 4) & 1];

	switch (off) {
	case R_MHIREGLEN: return EMU_MHI_REGLEN;
	case R_MHIVER: return EMU_MHI_VERSION;
	case R_MHICFG:
		return mhi->nhwer << 24 | mhi->ner << 16 | EMU_MHI_MAX_CHANNELS;
	case R_CHDBOFF: return EMU_MHI_CHDB_OFF;
	case R_ERDBOFF: return EMU_MHI_ERDB_OFF;
	case R_BHIOFF: return EMU_MHI_BHI_OFF;
	case R_BHIEOFF: return EMU_MHI_BHIE_OFF;
	case R_MHICTRL: return mhi->mhictrl;
	case R_MHISTATUS:
		return (mhi->state & 0xff) << 8 |
		       (mhi->state == ST_SYS_ERR ? MHISTATUS_SYSERR : 0) |
		       (mhi->state == ST_RESET ? 0 : MHISTATUS_READY);
	case R_CCABAP_LOWER: return (uint32_t)mhi->ccabap;
	case R_CCABAP_HIGHER: return (uint32_t)(mhi->ccabap >> 32);
	case R_ECABAP_LOWER: return (uint32_t)mhi->ecabap;
	case R_ECABAP_HIGHER: return (uint32_t)(mhi->ecabap >> 32);
	case R_CRCBAP_LOWER: return (uint32_t)mhi->crcbap;
	case R_CRCBAP_HIGHER: return (uint32_t)(mhi->crcbap >> 32);
	case R_CRDB_LOWER: return mhi->crdb[0];
	case R_CRDB_HIGHER: return mhi->crdb[1];
	case R_MHICTRLBASE_LOWER: return (uint32_t)mhi->ctrlbase;
	case R_MHICTRLBASE_HIGHER: return (uint32_t)(mhi->ctrlbase >> 32);
	case R_MHICTRLLIMIT_LOWER: return (uint32_t)mhi->ctrllimit;
	case R_MHICTRLLIMIT_HIGHER: return (uint32_t)(mhi->ctrllimit >> 32);
	case R_MHIDATABASE_LOWER: return (uint32_t)mhi->database;
	case R_MHIDATABASE_HIGHER: return (uint32_t)(mhi->database >> 32);
	case R_MHIDATALIMIT_LOWER: return (uint32_t)mhi->datalimit;
	case R_MHIDATALIMIT_HIGHER: return (uint32_t)(mhi->datalimit >> 32);
	case EMU_MHI_SOC_HW_VERSION_OFF: return EMU_MHI_SOC_HW_VERSION;
	case EMU_TIMESYNC_QTIMER_OFF:
		return (uint32_t)emu_timesync_qtimer(mhi->ts);
	case EMU_TIMESYNC_QTIMER_OFF + 4:
		return (uint32_t)(emu_timesync_qtimer(mhi->ts) >> 32);
	default: return 0;
	}
}

/* BHI or BHIe: a loaded SBL brings MHI up (READY); either way the host is told. */
static void bhi_event(struct emu_mhi *mhi, enum emu_bhi_event ev)
{
	switch (ev) {
	case EMU_BHI_LOADED:
		mhi->state = ST_READY;
		mhi->ee_sent = false;
		emu_log(mhi->dev, "MHI: SBL runs, READY");
		emu_bootlog_boot(mhi->bootlog);
		emu_bootlog_printf(mhi->bootlog, "qaic-emu %s: boot %u: SBL runs, serial %#x",
				   QAIC_EMU_VERSION, emu_bootlog_boots(mhi->bootlog),
				   mhi->bhi.serial);
		/* fall through */
	case EMU_BHI_FAILED:
		if (!emu_bhi_irq_withheld(&mhi->bhi))
			emu_irq_raise(mhi->dev, mhi->bhi.intvec);
		break;
	default:
		break;
	}
}

static void reg_write(struct emu_mhi *mhi, uint32_t off, uint32_t val)
{
	if (off >= EMU_MHI_BHI_OFF && off < EMU_MHI_BHI_OFF + BHI_SIZE) {
		bhi_event(mhi, emu_bhi_write(&mhi->bhi, off - EMU_MHI_BHI_OFF, val));
		return;
	}
	if (off >= EMU_MHI_BHIE_OFF && off < EMU_MHI_BHIE_OFF + EMU_BHIE_SIZE) {
		bhi_event(mhi, emu_bhie_write(&mhi->bhie, &mhi->bhi, off - EMU_MHI_BHIE_OFF, val));
		return;
	}
	if (off >= EMU_MHI_CHDB_OFF &&
	    off < EMU_MHI_CHDB_OFF + 8 * EMU_MHI_MAX_CHANNELS) {
		unsigned int chid = (off - EMU_MHI_CHDB_OFF) / 8;

		mhi->chdb[chid][(off / 4) & 1] = val;
		if (!(off & 4))
			chan_doorbell(mhi, chid);
		return;
	}
	if (off >= EMU_MHI_ERDB_OFF &&
	    off < EMU_MHI_ERDB_OFF + 8 * EMU_MHI_MAX_EV_RINGS) {
		unsigned int er = (off - EMU_MHI_ERDB_OFF) / 8;

		mhi->erdb[er][(off / 4) & 1] = val;
		if (!(off & 4))
			ev_doorbell(mhi, er);
		return;
	}

	switch (off) {
	case R_MHICFG:
		mhi->ner = (val >> 16) & 0xff;
		if (mhi->ner > EMU_MHI_MAX_EV_RINGS)
			mhi->ner = EMU_MHI_MAX_EV_RINGS;
		mhi->nhwer = (val >> 24) & 0xff;
		if (mhi->nhwer > mhi->ner)
			mhi->nhwer = mhi->ner;
		break;
	case R_MHICTRL: mhictrl_write(mhi, val); break;
	case R_CCABAP_LOWER: mhi->ccabap = set_lo(mhi->ccabap, val); break;
	case R_CCABAP_HIGHER: mhi->ccabap = set_hi(mhi->ccabap, val); break;
	case R_ECABAP_LOWER: mhi->ecabap = set_lo(mhi->ecabap, val); break;
	case R_ECABAP_HIGHER: mhi->ecabap = set_hi(mhi->ecabap, val); break;
	case R_CRCBAP_LOWER: mhi->crcbap = set_lo(mhi->crcbap, val); break;
	case R_CRCBAP_HIGHER: mhi->crcbap = set_hi(mhi->crcbap, val); break;
	case R_CRDB_LOWER: mhi->crdb[0] = val; cmd_doorbell(mhi); break;
	case R_CRDB_HIGHER: mhi->crdb[1] = val; break;
	case R_MHICTRLBASE_LOWER: mhi->ctrlbase = set_lo(mhi->ctrlbase, val); break;
	case R_MHICTRLBASE_HIGHER: mhi->ctrlbase = set_hi(mhi->ctrlbase, val); break;
	case R_MHICTRLLIMIT_LOWER: mhi->ctrllimit = set_lo(mhi->ctrllimit, val); break;
	case R_MHICTRLLIMIT_HIGHER: mhi->ctrllimit = set_hi(mhi->ctrllimit, val); break;
	case R_MHIDATABASE_LOWER: mhi->database = set_lo(mhi->database, val); break;
	case R_MHIDATABASE_HIGHER: mhi->database = set_hi(mhi->database, val); break;
	case R_MHIDATALIMIT_LOWER: mhi->datalimit = set_lo(mhi->datalimit, val); break;
	case R_MHIDATALIMIT_HIGHER: mhi->datalimit = set_hi(mhi->datalimit, val); break;
	case EMU_MHI_SOC_RESET_OFF:
		if (val & 1) {
			/*
			 * SoC reset: the card powers on again (PBL or AMSS).
			 * A host whose MHI was up (not in RESET) is told, as
			 * a card tells it of any reboot under it: its MHI
			 * state reads SYS_ERR, with the new execution
			 * environment, and the BHI interrupt fires. The MHI
			 * core then recovers the card (SYS_ERROR, and with
			 * the card in PBL a new boot); a host that had MHI
			 * down resets it as it powers up.
			 */
			bool host_up = mhi->state != ST_RESET;

			mhi->c.mhi_resets++;
			emu_log(mhi->dev, "MHI: SoC reset");
			power_on(mhi);
			if (host_up)
				emu_mhi_raise_syserr(mhi);
		}
		break;
	default:
		break;		/* read-only or unknown: ignored */
	}
}

/*
 * Malicious-card mode, MHI state kinds: a read of MHISTATUS may report
 * another state, one of BHI EXECENV another execution environment. The
 * device's own state does not change.
 */
static uint32_t mhi_malice_read(struct emu_mhi *mhi, uint32_t off, uint32_t v)
{
	struct malice *m = mhi->dev->malice;
	unsigned int st;

	if (off == R_MHISTATUS && malice_hit(m, MALICE_MHI_STATE)) {
		st = malice_mhi_state(m) & 0xff;
		emu_log(mhi->dev, "malice: MHISTATUS reads state %#x", st);
		return st << 8 | (st == ST_SYS_ERR ? MHISTATUS_SYSERR : 0) |
		       MHISTATUS_READY;
	}
	if (off == EMU_MHI_BHI_OFF + EMU_BHI_EXECENV &&
	    malice_hit(m, MALICE_MHI_EE)) {
		v = malice_mhi_ee(m);
		emu_log(mhi->dev, "malice: EXECENV reads %#x", v);
	}
	return v;
}

/*
 * Malicious-card mode, after a host write: a state change or EE event the
 * device did not go through, or a real SYS_ERROR (only from M0, where the
 * host has everything set up to recover).
 */
static void mhi_malice_after_write(struct emu_mhi *mhi)
{
	struct malice *m = mhi->dev->malice;
	unsigned int v;

	if (!malice_enabled(m, MALICE_MHI_STATE) && !malice_enabled(m, MALICE_MHI_EE) &&
	    !malice_enabled(m, MALICE_MHI_SYSERR))
		return;
	if (mhi->state == ST_M0 && malice_hit(m, MALICE_MHI_SYSERR)) {
		emu_log(mhi->dev, "malice: SYS_ERROR");
		emu_mhi_raise_syserr(mhi);
		return;
	}
	if (mhi->state == ST_READY || mhi->state == ST_RESET)
		return;		/* no event ring yet */
	if (malice_hit(m, MALICE_MHI_STATE)) {
		v = malice_mhi_state(m) & 0xff;
		emu_log(mhi->dev, "malice: state change event %#x", v);
		send_state_change(mhi, v);
	}
	if (malice_hit(m, MALICE_MHI_EE)) {
		v = malice_mhi_ee(m) & 0xff;
		emu_log(mhi->dev, "malice: EE event %#x", v);
		send_ee(mhi, v);
	}
}

/*
 * BAR0 accesses of any size: split into 32-bit registers. A partial
 * register write merges into the current value. An 8-byte write stores the
 * upper half first, so a 64-bit doorbell write rings once, complete.
 */
static void mhi_bar_read(struct emu_device *dev, void *priv, uint64_t off,
			 void *buf, uint64_t len)
{
	struct emu_mhi *mhi = priv;
	uint8_t *out = buf;
	uint64_t pos;

	(void)dev;
	for (pos = off & ~3ull; pos < off + len; pos += 4) {
		uint8_t b[4];
		uint64_t i;

		put_le32(b, mhi_malice_read(mhi, (uint32_t)pos,
					    reg_read(mhi, (uint32_t)pos)));
		for (i = 0; i < 4; i++)
			if (pos + i >= off && pos + i < off + len)
				out[pos + i - off] = b[i];
	}
}

static void write_dword(struct emu_mhi *mhi, uint64_t pos, uint64_t off,
			const uint8_t *in, uint64_t len)
{
	uint8_t b[4];
	uint64_t i;

	if (pos >= off && pos + 4 <= off + len) {
		reg_write(mhi, (uint32_t)pos, get_le32(in + (pos - off)));
		return;
	}
	put_le32(b, reg_read(mhi, (uint32_t)pos));
	for (i = 0; i < 4; i++)
		if (pos + i >= off && pos + i < off + len)
			b[i] = in[pos + i - off];
	reg_write(mhi, (uint32_t)pos, get_le32(b));
}

static void mhi_bar_write(struct emu_device *dev, void *priv, uint64_t off,
			  const void *buf, uint64_t len)
{
	struct emu_mhi *mhi = priv;
	uint64_t pos;

	(void)dev;
	if (len == 8 && !(off & 7)) {
		write_dword(mhi, off + 4, off, buf, len);
		write_dword(mhi, off, off, buf, len);
	} else {
		for (pos = off & ~3ull; pos < off + len; pos += 4)
			write_dword(mhi, pos, off, buf, len);
	}
	mhi_malice_after_write(mhi);
	irq_flush(mhi);
	if (mhi->malice_arm)
		malice_arm(mhi->dev->malice);
}

static const struct emu_bar_ops mhi_bar_ops = {
	.name = "mhi",
	.read = mhi_bar_read,
	.write = mhi_bar_write,
};

/* ---- API --------------------------------------------------------------- */

/*
 * A packet of Sahara, SSR or telemetry for the host, through the malicious-card mode
 * (a copy: the protocol models keep what they meant to send).
 */
static bool proto_push(struct emu_mhi *mhi, unsigned int q, const void *pkt,
		       size_t len)
{
	uint8_t buf[64];

	if (!mhi->dev->malice || len > sizeof(buf) / 2)
		return held_push(mhi, q, pkt, len);
	memcpy(buf, pkt, len);
	len = malice_packet(mhi->dev->malice, buf, len, sizeof(buf));
	return held_push(mhi, q, buf, len);
}

/*
 * A protocol's message for the host on downlink channel @chan (through
 * the malicious-card mode when @malice), delivered into the buffers the
 * host queued there, or held until it queues some; @what names it in the
 * log when the held queue is full.
 */
static void send_down(struct emu_mhi *mhi, unsigned int chan, bool malice, const char *what,
		      const void *msg, size_t len)
{
	unsigned int q = (unsigned int)chan_q(chan);

	if (!(malice ? proto_push(mhi, q, msg, len) : held_push(mhi, q, msg, len))) {
		emu_log(mhi->dev, "MHI: %s dropped", what);
		return;
	}
	dl_deliver(mhi, chan);
}

static void sahara_send(void *ctx, const void *pkt, size_t len)
{
	send_down(ctx, EMU_SAHARA_CH_DL, true, "Sahara packet", pkt, len);
}

/* Mission mode, once the host has SBL's last word (DONE_RESP). */
static void enter_amss(struct emu_mhi *mhi)
{
	mhi->amss_pending = false;
	/* --bootlog-fault tail: a line into each buffer the host has queued. */
	if (emu_bootlog_has_tail(mhi->bootlog)) {
		emu_bootlog_tail(mhi->bootlog, true);
		dl_deliver(mhi, EMU_BOOTLOG_CH_DL);
		emu_bootlog_tail(mhi->bootlog, false);
	}
	mhi->bhi.ee = EMU_EE_AMSS;
	emu_log(mhi->dev, "MHI: mission mode (AMSS)");
	emu_telemetry_start(mhi->tm);
	if (mhi->state == ST_M0) {
		send_ee(mhi, EMU_EE_AMSS);
		mhi->ee_sent = true;
	} else {
		mhi->ee_sent = false;
	}
}

/* Every image is in: mission mode after the last packet went out. */
static void sahara_booted(void *ctx)
{
	struct emu_mhi *mhi = ctx;

	const struct emu_sahara_table *t = emu_card_of(&mhi->dev->pci)->sahara;

	for (unsigned int i = 0; i < t->nr; i++)
		emu_bootlog_printf(mhi->bootlog,
				   emu_sahara_image_skipped(mhi->sahara, i) ?
				   "SBL: image %u left out: the host has none" :
				   "SBL: image %u loaded over Sahara",
				   t->images[i].id);
	emu_bootlog_printf(mhi->bootlog, "SBL: boot %u: entering mission mode",
			   emu_bootlog_boots(mhi->bootlog));
	dl_deliver(mhi, EMU_BOOTLOG_CH_DL);
	mhi->amss_pending = true;
	clock_gettime(CLOCK_MONOTONIC, &mhi->amss_by);
	mhi->amss_by.tv_sec += mhi->sbl_host_wait_ms / 1000;
	mhi->amss_by.tv_nsec += mhi->sbl_host_wait_ms % 1000 * 1000000L;
	if (mhi->amss_by.tv_nsec >= 1000000000L) {
		mhi->amss_by.tv_sec++;
		mhi->amss_by.tv_nsec -= 1000000000L;
	}
	maybe_enter_amss(mhi);
}

static const struct emu_sahara_ops mhi_sahara_ops = {
	.send = sahara_send,
	.booted = sahara_booted,
};

/* The memory dump's packets and data go out on QAIC_SAHARA too. */
static const struct emu_memdump_ops mhi_memdump_ops = {
	.send = sahara_send,
};

/* SSR's messages go out on its downlink channel. */
static void ssr_send(void *ctx, const void *msg, size_t len)
{
	send_down(ctx, EMU_SSR_CH_DL, true, "SSR message", msg, len);
}

static void ssr_restored(void *ctx, unsigned int dbc)
{
	struct emu_mhi *mhi = ctx;

	if (mhi->mgr)
		emu_manager_ssr_done(mhi->mgr, dbc);
}

static const struct emu_ssr_ops mhi_ssr_ops = {
	.send = ssr_send,
	.restored = ssr_restored,
};

/* RAS reports go out on QAIC_STATUS's downlink channel. */
static void ras_send(void *ctx, const void *msg, size_t len)
{
	send_down(ctx, EMU_RAS_CH_DL, false, "RAS report", msg, len);
}

static const struct emu_ras_ops mhi_ras_ops = {
	.send = ras_send,
};

/*
 * Lines of the boot log wait on QAIC_LOGGING's downlink channel; the
 * caller delivers them (dl_deliver() pumps more as buffers come).
 */
static bool bootlog_send(void *ctx, const void *msg, size_t len)
{
	struct emu_mhi *mhi = ctx;

	return held_push(mhi, Q_BOOTLOG, msg, len);
}

/* A systematic case's message: its completion says @claim bytes. */
static bool bootlog_send_claim(void *ctx, const void *msg, size_t len, uint32_t claim)
{
	struct emu_mhi *mhi = ctx;
	struct held_q *h = &mhi->held[Q_BOOTLOG];

	if (!held_push(mhi, Q_BOOTLOG, msg, len))
		return false;
	h->a[(h->head + h->nr - 1) % EMU_MHI_MAX_HELD].claim = (claim & 0xffff) + 1;
	return true;
}

static const struct emu_bootlog_ops mhi_bootlog_ops = {
	.send = bootlog_send,
	.send_claim = bootlog_send_claim,
};

static void timesync_send(void *ctx, const void *msg, size_t len)
{
	send_down(ctx, EMU_TIMESYNC_CH_DL, false, "time sync message", msg, len);
}

static const struct emu_timesync_ops mhi_timesync_ops = {
	.send = timesync_send,
};

static void qrtr_send(void *ctx, const void *pkt, size_t len)
{
	send_down(ctx, EMU_QRTR_CH_DL, false, "QRTR packet", pkt, len);
}

static const struct emu_qrtr_ops mhi_qrtr_ops = {
	.send = qrtr_send,
};

/* Telemetry answers go out on QAIC_TELEMETRY's downlink channel. */
static void telemetry_send(void *ctx, const void *msg, size_t len)
{
	send_down(ctx, EMU_TELEMETRY_CH_DL, true, "telemetry answer", msg, len);
}

static const struct emu_telemetry_ops mhi_telemetry_ops = {
	.send = telemetry_send,
};

struct emu_mhi *emu_mhi_create(struct emu_device *dev, struct emu_manager *mgr)
{
	struct emu_mhi *mhi = calloc(1, sizeof(*mhi));

	if (!mhi)
		return NULL;
	mhi->ul[Q_CONTROL].buf = malloc(EMU_MHI_MAX_MSG);
	mhi->ul[Q_CONTROL].cap = EMU_MHI_MAX_MSG;
	mhi->ul[Q_SAHARA].buf = malloc(EMU_SAHARA_MAX_MSG);
	mhi->ul[Q_SAHARA].cap = EMU_SAHARA_MAX_MSG;
	/* Room for more than a host may send: longer messages are seen whole. */
	mhi->ul[Q_SSR].buf = malloc(4 * SSR_MAX_MSG);
	mhi->ul[Q_SSR].cap = 4 * SSR_MAX_MSG;
	mhi->ul[Q_RAS].buf = malloc(RAS_MSG_LEN);
	mhi->ul[Q_RAS].cap = RAS_MSG_LEN;
	mhi->ul[Q_BOOTLOG].buf = malloc(EMU_BOOTLOG_MAX_LINE);
	mhi->ul[Q_BOOTLOG].cap = EMU_BOOTLOG_MAX_LINE;
	mhi->ul[Q_TIMESYNC].buf = malloc(4 * TS_MAX_MSG);
	mhi->ul[Q_TIMESYNC].cap = 4 * TS_MAX_MSG;
	mhi->ul[Q_TIMESYNC_P].buf = malloc(4 * TS_MAX_MSG);
	mhi->ul[Q_TIMESYNC_P].cap = 4 * TS_MAX_MSG;
	mhi->ul[Q_IPCR].buf = malloc(EMU_QRTR_MAX_PKT);
	mhi->ul[Q_IPCR].cap = EMU_QRTR_MAX_PKT;
	mhi->ul[Q_TELEMETRY].buf = malloc(TM_MAX_REQ);
	mhi->ul[Q_TELEMETRY].cap = TM_MAX_REQ;
	mhi->answer = malloc(EMU_MHI_MAX_ANSWER);
	mhi->sahara = emu_sahara_create(dev, &mhi_sahara_ops, mhi);
	mhi->md = emu_memdump_create(dev, &mhi_memdump_ops, mhi);
	mhi->ssr = emu_ssr_create(dev, &mhi_ssr_ops, mhi);
	mhi->ras = emu_ras_create(dev, &mhi_ras_ops, mhi);
	mhi->bootlog = emu_bootlog_create(dev, &mhi_bootlog_ops, mhi);
	mhi->ts = emu_timesync_create(dev, &mhi_timesync_ops, mhi);
	mhi->qrtr = emu_qrtr_create(dev, &mhi_qrtr_ops, mhi);
	mhi->tm = emu_telemetry_create(dev, &mhi_telemetry_ops, mhi);
	if (!mhi->ul[Q_CONTROL].buf || !mhi->ul[Q_SAHARA].buf ||
	    !mhi->ul[Q_SSR].buf || !mhi->ul[Q_RAS].buf || !mhi->answer ||
	    !mhi->sahara || !mhi->md || !mhi->ssr || !mhi->ras ||
	    !mhi->ul[Q_BOOTLOG].buf || !mhi->ul[Q_TIMESYNC].buf ||
	    !mhi->ul[Q_TIMESYNC_P].buf || !mhi->bootlog || !mhi->ts ||
	    !mhi->ul[Q_IPCR].buf || !mhi->qrtr ||
	    !mhi->ul[Q_TELEMETRY].buf || !mhi->tm) {
		emu_mhi_destroy(mhi);
		return NULL;
	}
	mhi->dev = dev;
	mhi->mgr = mgr;
	emu_sahara_set_memdump(mhi->sahara, mhi->md);
	emu_bhi_init(&mhi->bhi, dev, EMU_MHI_DEFAULT_SERIAL);
	mhi->bhi.bhie_only = emu_card_of(&dev->pci)->sbl_over_bhie;
	emu_bhie_init(&mhi->bhie, dev, emu_card_of(&dev->pci)->sbl_over_bhie);
	mhi->ner = EMU_MHI_MAX_EV_RINGS;
	mhi->boot = EMU_MHI_BOOT_AMSS;
	mhi->sbl_host_wait_ms = SBL_HOST_WAIT_MS;
	power_on(mhi);
	return mhi;
}

void emu_mhi_destroy(struct emu_mhi *mhi)
{
	unsigned int q;

	if (!mhi)
		return;
	for (q = 0; q < NR_Q; q++) {
		held_clear(mhi, q);
		free(mhi->ul[q].buf);
	}
	emu_sahara_destroy(mhi->sahara);
	emu_memdump_destroy(mhi->md);
	emu_ssr_destroy(mhi->ssr);
	emu_ras_destroy(mhi->ras);
	emu_bootlog_destroy(mhi->bootlog);
	emu_timesync_destroy(mhi->ts);
	emu_qrtr_destroy(mhi->qrtr);
	emu_telemetry_destroy(mhi->tm);
	free(mhi->answer);
	free(mhi);
}

void emu_mhi_set_boot(struct emu_mhi *mhi, enum emu_mhi_boot boot)
{
	mhi->boot = boot;
	power_on(mhi);
}

void emu_mhi_set_sbl_host_wait(struct emu_mhi *mhi, unsigned int ms)
{
	mhi->sbl_host_wait_ms = ms;
}

void emu_mhi_syserr_in(struct emu_mhi *mhi, unsigned int ms)
{
	emu_mhi_set_syserr_after(mhi, ms);
	/* Armed at the next M0; the card may be there already. */
	if (mhi->state == ST_M0)
		arm_syserr_timer(mhi);
}

void emu_mhi_power_on(struct emu_mhi *mhi)
{
	emu_log(mhi->dev, "MHI: power-on reset");
	power_on(mhi);
}

int emu_mhi_ras(struct emu_mhi *mhi, unsigned int source, unsigned int type,
		unsigned int flaw)
{
	if (mhi->bhi.ee != EMU_EE_AMSS)
		return -EINVAL;
	return emu_ras_report(mhi->ras, source, type, flaw);
}

/*
 * Systematic MHI case @idx (mhi_cases.h): its one event, on the primary
 * event ring or, for a transfer completion, on QAIC_CONTROL's downlink
 * ring; the card's own state does not change.
 */
static int send_mhi_case(struct emu_mhi *mhi, unsigned int idx)
{
	const struct emu_mhi_case *c;
	struct mhi_el el = { 0 };
	unsigned int er = 0;

	if (idx >= emu_mhi_nr_cases)
		return -EINVAL;
	c = &emu_mhi_cases[idx];
	switch (c->event) {
	case EMU_MHI_CASE_STATE:
		el.dw0 = (uint32_t)c->v << 24;
		el.dw1 = PKT_STATE_CHANGE_EV << 16;
		break;
	case EMU_MHI_CASE_EE:
		el.dw0 = (uint32_t)c->v << 24;
		el.dw1 = PKT_EE_EV << 16;
		break;
	case EMU_MHI_CASE_CMD:
		el.ptr = c->v;
		el.dw0 = 1u << 24;	/* SUCCESS */
		el.dw1 = PKT_CMD_COMPLETION_EV << 16;
		break;
	case EMU_MHI_CASE_XFER:
		el.ptr = 0;
		el.dw0 = 1u << 24;
		el.dw1 = (uint32_t)c->v << 24 | PKT_TX_EV << 16;
		break;
	case EMU_MHI_CASE_XFER_PTR:
		er = mhi->ch[EMU_MHI_CH_CONTROL_DL].erindex;
		el.ptr = c->v;
		el.dw0 = 1u << 24 | 16;
		el.dw1 = (uint32_t)EMU_MHI_CH_CONTROL_DL << 24 | PKT_TX_EV << 16;
		break;
	default:
		el.dw1 = (uint32_t)c->v << 16;
		break;
	}
	emu_log(mhi->dev, "MHI: case %s on event ring %u", c->name, er);
	ev_send(mhi, er, &el, true);
	irq_flush(mhi);
	return 0;
}

int emu_mhi_card_case(struct emu_mhi *mhi, unsigned int table, unsigned int idx)
{
	if (mhi->bhi.ee != EMU_EE_AMSS)
		return -EINVAL;
	switch (table) {
	case EMU_CARD_CASE_SSR:
		return emu_ssr_send_case(mhi->ssr, idx);
	case EMU_CARD_CASE_RAS:
		return emu_ras_send_case(mhi->ras, idx);
	case EMU_CARD_CASE_TIMESYNC:
		return emu_timesync_set_case(mhi->ts, idx);
	case EMU_CARD_CASE_BOOTLOG:
		return emu_bootlog_set_case(mhi->bootlog, idx) ? -EINVAL : 0;
	case EMU_CARD_CASE_BHI:
		return emu_bhi_arm_case(&mhi->bhi, idx);
	case EMU_CARD_CASE_MHI:
		return send_mhi_case(mhi, idx);
	default:
		return -EINVAL;
	}
}

int emu_mhi_ssr(struct emu_mhi *mhi, unsigned int dbc, unsigned int mode,
		unsigned int cycles)
{
	if (mhi->bhi.ee != EMU_EE_AMSS)
		return -EINVAL;
	return emu_ssr_start_cycles(mhi->ssr, dbc, mode, cycles);
}

struct emu_bootlog *emu_mhi_bootlog(struct emu_mhi *mhi)
{
	return mhi->bootlog;
}

struct emu_timesync *emu_mhi_timesync_dev(struct emu_mhi *mhi)
{
	return mhi->ts;
}

struct emu_qrtr *emu_mhi_qrtr(struct emu_mhi *mhi)
{
	return mhi->qrtr;
}

struct emu_telemetry *emu_mhi_telemetry(struct emu_mhi *mhi)
{
	return mhi->tm;
}

struct emu_sahara *emu_mhi_sahara(struct emu_mhi *mhi)
{
	return mhi->sahara;
}

struct emu_memdump *emu_mhi_memdump(struct emu_mhi *mhi)
{
	return mhi->md;
}

struct emu_bhi *emu_mhi_bhi(struct emu_mhi *mhi)
{
	return &mhi->bhi;
}

void emu_mhi_attach(struct emu_mhi *mhi)
{
	emu_device_set_bar_ops(mhi->dev, emu_card_of(&mhi->dev->pci)->mhi_bar, &mhi_bar_ops,
			       mhi);
}

void emu_mhi_set_serial(struct emu_mhi *mhi, uint32_t serial)
{
	mhi->bhi.serial = serial;
}

void emu_mhi_set_control_handler(struct emu_mhi *mhi, emu_mhi_control_fn fn,
				 void *ctx)
{
	mhi->control_fn = fn;
	mhi->control_ctx = ctx;
}

void emu_mhi_raise_syserr(struct emu_mhi *mhi)
{
	if (mhi->state == ST_SYS_ERR)
		return;
	mhi->state = ST_SYS_ERR;
	mhi->c.mhi_syserr++;
	emu_log(mhi->dev, "MHI: SYS_ERROR");
	/* The firmware is down: the reset that follows starts it again. */
	emu_telemetry_stop(mhi->tm);
	/* A crash of the mission-mode firmware; only PBL boots through SBL. */
	if (mhi->bhi.ee == EMU_EE_AMSS && mhi->boot == EMU_MHI_BOOT_PBL)
		emu_memdump_crash(mhi->md);
	/* The host reads MHISTATUS from its BHI interrupt handler. */
	emu_irq_raise(mhi->dev, mhi->bhi.intvec);
}

void emu_mhi_set_syserr_after(struct emu_mhi *mhi, unsigned int ms)
{
	mhi->syserr_after_ms = ms;
	mhi->syserr_armed = ms > 0;
	mhi->syserr_timer_running = false;
}

static int64_t ms_until(const struct timespec *t)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (int64_t)(t->tv_sec - now.tv_sec) * 1000 +
	       (t->tv_nsec - now.tv_nsec) / 1000000;
}

/* When SBL stops waiting for the host's channels; -1: not waiting. */
static int amss_timeout_ms(const struct emu_mhi *mhi)
{
	int64_t ms;

	if (!mhi->amss_pending || sbl_host_listens(mhi))
		return -1;
	ms = ms_until(&mhi->amss_by);
	return ms < 0 ? 0 : (int)ms + 1;
}

int emu_mhi_timeout_ms(const struct emu_mhi *mhi)
{
	int md = emu_memdump_timeout_ms(mhi->md);
	int amss = amss_timeout_ms(mhi);
	int tm = emu_telemetry_timeout_ms(mhi->tm);
	int64_t ms;

	const struct answer *due = control_answer_due(mhi);

	if (amss >= 0 && (md < 0 || amss < md))
		md = amss;
	if (tm >= 0 && (md < 0 || tm < md))
		md = tm;
	if (due) {
		ms = ms_until(&due->due);
		ms = ms < 0 ? 0 : ms + 1;
		if (md < 0 || ms < md)
			md = (int)ms;
	}
	if (!mhi->syserr_armed || !mhi->syserr_timer_running)
		return md;
	ms = ms_until(&mhi->syserr_at);
	if (ms < 0)
		ms = 0;
	else
		ms = ms > 60000 ? 60000 : ms + 1;
	return md >= 0 && md < ms ? md : (int)ms;
}

void emu_mhi_tick(struct emu_mhi *mhi)
{
	const struct answer *due = control_answer_due(mhi);

	if (due && ms_until(&due->due) < 0)
		dl_deliver(mhi, EMU_MHI_CH_CONTROL_DL);
	emu_sahara_tick(mhi->sahara);
	emu_telemetry_tick(mhi->tm);	/* late answers (EMU_PT_TELEMETRY) */
	/* The host started its last SBL channel, or SBL waited long enough. */
	maybe_enter_amss(mhi);
	if (!mhi->syserr_armed || !mhi->syserr_timer_running ||
	    ms_until(&mhi->syserr_at) > 0)
		return;
	mhi->syserr_armed = false;
	mhi->syserr_timer_running = false;
	emu_mhi_raise_syserr(mhi);
}

unsigned int emu_mhi_state(const struct emu_mhi *mhi)
{
	return mhi->state;
}

const struct emu_mhi_counters *emu_mhi_counters(const struct emu_mhi *mhi)
{
	return &mhi->c;
}

void emu_mhi_counters_print(const struct emu_mhi *mhi, FILE *out)
{
	const struct emu_mhi_counters *c = &mhi->c;

	fprintf(out, "mhi_bad_ring %" PRIu64 "\n", c->mhi_bad_ring);
	fprintf(out, "mhi_bad_tre %" PRIu64 "\n", c->mhi_bad_tre);
	fprintf(out, "mhi_cmds %" PRIu64 "\n", c->mhi_cmds);
	fprintf(out, "mhi_events %" PRIu64 "\n", c->mhi_events);
	fprintf(out, "mhi_events_lost %" PRIu64 "\n", c->mhi_events_lost);
	fprintf(out, "mhi_resets %" PRIu64 "\n", c->mhi_resets);
	fprintf(out, "mhi_syserr %" PRIu64 "\n", c->mhi_syserr);
	fprintf(out, "control_msgs_in %" PRIu64 "\n", c->control_msgs_in);
	fprintf(out, "control_msgs_out %" PRIu64 "\n", c->control_msgs_out);
	fprintf(out, "control_msgs_dropped %" PRIu64 "\n",
		c->control_msgs_dropped);
	emu_bhi_counters_print(&mhi->bhi, out);
	emu_bhie_counters_print(&mhi->bhie, out);
	emu_sahara_counters_print(mhi->sahara, out);
	emu_memdump_counters_print(mhi->md, out);
	emu_ssr_counters_print(mhi->ssr, out);
	emu_ras_counters_print(mhi->ras, out);
	emu_bootlog_counters_print(mhi->bootlog, out);
	emu_timesync_counters_print(mhi->ts, out);
	emu_qrtr_counters_print(mhi->qrtr, out);
	emu_telemetry_counters_print(mhi->tm, out);
}

const struct emu_timesync_counters *emu_mhi_timesync(const struct emu_mhi *mhi)
{
	return emu_timesync_counters(mhi->ts);
}
