// SPDX-License-Identifier: GPL-2.0-only
/*
 * The DMA Bridge on BAR2: request/response rings in host memory, bulk DMA
 * between host memory and device memory, semaphores, doorbells, responses
 * and per-DBC interrupts. See dbc.h for the model and
 * tests/emu/manual.rst for what the host sees.
 *
 * Copyright (c) 2026 The qaic authors.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include "dbc.h"
#include "device.h"
#include "le_bytes.h"
#include "dbc_cases.h"
#include "malice.h"

/* Where a request stopped: the phases of aic100.rst, in order. */
enum {
	PH_PRESYNC,		/* checks, presync semaphore, transfer */
	PH_POST0,		/* post-sync semaphores 0..3 */
	PH_DOORBELL = PH_POST0 + 4,
};

struct dbc_chan {
	bool active;
	struct emu_dbc_cfg cfg;
	uint32_t reqhp, reqtp, rsphp, rsptp;
	uint16_t sem[EMU_DBC_NUM_SEM];
	/* The request at reqhp, once fetched. */
	bool have_req;
	uint8_t req[EMU_DBC_REQ_ELEM];
	unsigned int phase;
	uint16_t status;	/* of the request at reqhp */
	uint16_t err_pending;	/* first error of requests without a response */
	bool stalled;		/* on a semaphore wait */
	bool held;		/* on a full response ring */
	/* Fault injection. */
	bool hang;		/* permanent: --hang-dbc, emu_dbc_set_hang() */
	bool hang_once;		/* until the next channel reset */
	/*
	 * A one-shot hang armed with a delay fetches the request at REQHP
	 * and keeps it through the host's channel reset: the engine carries
	 * it out late_ns after that reset, or when the DBC is released
	 * (its work ends before the card says it stopped). Its transfer
	 * then reaches host memory the host gave up on.
	 */
	uint64_t late_ns;	/* armed: the delay after the reset */
	uint64_t late_due_ns;	/* a fetched request waits until then */
	uint8_t late_req[EMU_DBC_REQ_ELEM];
	uint32_t drop_every, drop_n;
	uint32_t corrupt_every, corrupt_n;
	uint16_t corrupt_status;
	uint32_t reqhp_lag;	/* REQHP reads this many entries behind */
	bool msi_off;		/* its completion MSIs never reach the host */
	/*
	 * Device time: each request takes req_ns after the one before it,
	 * counted from the doorbell; due_ns is when the next one is done (0:
	 * nothing scheduled). 0 req_ns: requests complete within the REQTP
	 * write, as they always did.
	 */
	uint64_t req_ns;
	uint64_t due_ns;
	/*
	 * When each ring entry's doorbell came (NULL if it could not be had:
	 * no timing then), and when the ring last ran out of announced
	 * requests (0: it has some, or never had any).
	 */
	uint64_t *told_ns;
	uint64_t idle_since_ns;
	bool raw;		/* activated through EMU_DBC_RAW_CTRL */
	/* req_ids of the last responses, for malice's "an older job's". */
	uint16_t old_ids[4];
	unsigned int n_old, old_pos;
	struct emu_dbc_counters c;
};

struct emu_dbc {
	struct emu_device *dev;
	struct emu_manager *mgr;
	uint8_t *mem;		/* device memory, mapped on first use */
	uint64_t mem_size;
	uint64_t mmio_other;	/* BAR2 accesses outside DBC registers */
	/* The raw channel's registers (dbc.h). */
	uint64_t raw_ring;
	uint32_t raw_nelem;
	uint32_t raw_result;
	uint64_t raw_activations;
	struct dbc_chan ch[EMU_NUM_DBC];
	/* The workload model. */
	const struct emu_dbc_hooks *hooks;
	void *hook_ctx;
	/*
	 * Re-entrancy: depth counts the public calls in progress (a hook may
	 * call emu_dbc_sem_set() while a request is half done); kick holds
	 * the channels whose semaphores changed meanwhile, run when the
	 * outermost call ends.
	 */
	unsigned int depth;
	uint32_t kick;
	/* A systematic case (dbc_cases.h): armed, then the lie it owes. */
	const struct emu_dbc_case *armed;
	const struct emu_dbc_case *lie;	/* an RSPTP case, owed to ... */
	unsigned int lie_ch;		/* ... this channel's next RSPTP read */
};

/* Bound on settle rounds: each one consumes requests or starts a program. */
#define SETTLE_ROUNDS	4096

/* ---- device memory ----------------------------------------------------- */

/* Pointer to [addr, addr + len) of device memory, or NULL. */
static uint8_t *dev_mem(struct emu_dbc *e, uint64_t addr, uint64_t len)
{
	if (addr > e->mem_size || len > e->mem_size - addr)
		return NULL;
	if (!e->mem) {
		void *p = mmap(NULL, e->mem_size, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
			       -1, 0);

		if (p == MAP_FAILED) {
			emu_log(e->dev, "DBC: cannot map %" PRIu64 " bytes of device memory",
				e->mem_size);
			return NULL;
		}
		e->mem = p;
	}
	return e->mem + addr;
}

uint8_t *emu_dbc_mem_ptr(struct emu_dbc *e, uint64_t addr, uint64_t len)
{
	return len ? dev_mem(e, addr, len) : NULL;
}

int emu_dbc_set_mem_size(struct emu_dbc *e, uint64_t bytes)
{
	if (e->mem)
		return -EBUSY;
	e->mem_size = bytes;
	return 0;
}

int emu_dbc_mem_read(struct emu_dbc *e, uint64_t addr, void *buf, uint64_t len)
{
	uint8_t *p = len ? dev_mem(e, addr, len) : NULL;

	if (!len)
		return 0;
	if (!p)
		return -EFAULT;
	memcpy(buf, p, len);
	return 0;
}

int emu_dbc_mem_write(struct emu_dbc *e, uint64_t addr, const void *buf,
		      uint64_t len)
{
	uint8_t *p = len ? dev_mem(e, addr, len) : NULL;

	if (!len)
		return 0;
	if (!p)
		return -EFAULT;
	memcpy(p, buf, len);
	return 0;
}

/* ---- requests ---------------------------------------------------------- */

/* Request layout (struct dbc_req of the Linux driver, 64 bytes LE). */
#define RQ_ID		0	/* le16 */
#define RQ_CMD		3
#define RQ_SRC		8
#define RQ_DST		16
#define RQ_LEN		24
#define RQ_DB_ADDR	32
#define RQ_DB_LEN	40
#define RQ_DB_DATA	44
#define RQ_SEM		48	/* 4 x le32 */

static uint32_t req_sem(const struct dbc_chan *ch, unsigned int i)
{
	return get_le32(ch->req + RQ_SEM + 4 * i);
}

static unsigned int sem_cmd(uint32_t s)
{
	return (s >> 24) & 7;
}

static bool sem_presync(uint32_t s)
{
	return (s & EMU_DBC_SEM_ENABLE) && (s & EMU_DBC_SEM_PRESYNC);
}

static bool sem_post(uint32_t s)
{
	return (s & EMU_DBC_SEM_ENABLE) && !(s & EMU_DBC_SEM_PRESYNC);
}

/*
 * Run semaphore command @s. Returns false if it is a wait that is not
 * satisfied (nothing changed then).
 */
static bool sem_run(struct dbc_chan *ch, uint32_t s)
{
	uint16_t val = s & EMU_DBC_SEM_MAX;
	uint16_t *sem = &ch->sem[(s >> 16) & 0x1f];

	switch (sem_cmd(s)) {
	case EMU_DBC_SEM_INIT:
		*sem = val;
		break;
	case EMU_DBC_SEM_INC:
		*sem = (*sem + 1) & EMU_DBC_SEM_MAX;
		break;
	case EMU_DBC_SEM_DEC:
		*sem = (*sem - 1) & EMU_DBC_SEM_MAX;
		break;
	case EMU_DBC_SEM_WAIT_EQUAL:
		if (*sem != val)
			return false;
		break;
	case EMU_DBC_SEM_WAIT_GT_EQ:
		if (*sem < val)
			return false;
		break;
	case EMU_DBC_SEM_WAIT_GT_0:
		if (!*sem)
			return false;
		(*sem)--;
		break;
	default:		/* NOP */
		break;
	}
	ch->c.sem_ops++;
	return true;
}

/* Reject what the hardware calls illegal before anything happens. */
static uint16_t req_check(const struct dbc_chan *ch)
{
	uint8_t cmd = ch->req[RQ_CMD];
	unsigned int presyncs = 0, i;

	if ((cmd & EMU_DBC_CMD_XFER_MASK) == 3)
		return EMU_DBC_E_CMD;
	if ((cmd & EMU_DBC_CMD_XFER_MASK) && !(cmd & EMU_DBC_CMD_BULK))
		return EMU_DBC_E_CMD;	/* linked-list transfers: not modelled */
	for (i = 0; i < 4; i++) {
		uint32_t s = req_sem(ch, i);

		if (!(s & EMU_DBC_SEM_ENABLE))
			continue;
		if (sem_cmd(s) == 7)
			return EMU_DBC_E_SEM;
		presyncs += sem_presync(s);
	}
	return presyncs > 1 ? EMU_DBC_E_CMD : EMU_DBC_OK;
}

static uint16_t req_transfer(struct emu_dbc *e, struct dbc_chan *ch, const uint8_t *req)
{
	uint8_t cmd = req[RQ_CMD];
	uint64_t src = get_le64(req + RQ_SRC);
	uint64_t dst = get_le64(req + RQ_DST);
	uint64_t len = get_le32(req + RQ_LEN);
	uint8_t *p;

	switch (cmd & EMU_DBC_CMD_XFER_MASK) {
	case EMU_DBC_CMD_TO_DEV:
		if (!len)
			return EMU_DBC_OK;
		p = dev_mem(e, dst, len);
		if (!p)
			return EMU_DBC_E_DEV;
		if (emu_dma_read(e->dev, src, p, len))
			return EMU_DBC_E_HOST;
		ch->c.dma_to_dev_bytes += len;
		return EMU_DBC_OK;
	case EMU_DBC_CMD_FROM_DEV:
		if (!len)
			return EMU_DBC_OK;
		p = dev_mem(e, src, len);
		if (!p)
			return EMU_DBC_E_DEV;
		if (emu_dma_write(e->dev, dst, p, len))
			return EMU_DBC_E_HOST;
		ch->c.dma_from_dev_bytes += len;
		return EMU_DBC_OK;
	default:
		return EMU_DBC_OK;
	}
}

static uint16_t req_doorbell(struct emu_dbc *e, struct dbc_chan *ch)
{
	static const unsigned int bytes[4] = { 4, 2, 1, 0 };
	uint8_t attr = ch->req[RQ_DB_LEN];
	uint64_t addr = get_le64(ch->req + RQ_DB_ADDR);
	unsigned int n = bytes[attr & 3];
	uint8_t *p;

	if (!(attr & EMU_DBC_DB_ENABLE))
		return EMU_DBC_OK;
	if (!n || addr & (n - 1))
		return EMU_DBC_E_DOORBELL;
	p = dev_mem(e, addr, n);
	if (!p)
		return EMU_DBC_E_DOORBELL;
	memcpy(p, ch->req + RQ_DB_DATA, n);	/* little endian, low bytes */
	ch->c.doorbells++;
	/* The write may start a program: the request reports its outcome. */
	if (e->hooks && e->hooks->doorbell)
		return e->hooks->doorbell(e->hook_ctx, (unsigned int)(ch - e->ch),
					  addr, n);
	return EMU_DBC_OK;
}

/*
 * Carry the request at reqhp on from its phase. Returns false if it is
 * waiting on a semaphore; ch->status holds its outcome otherwise.
 */
static bool req_run(struct emu_dbc *e, struct dbc_chan *ch)
{
	unsigned int i;

	if (ch->phase == PH_PRESYNC) {
		ch->status = req_check(ch);
		if (ch->status)
			return true;
		for (i = 0; i < 4; i++) {
			uint32_t s = req_sem(ch, i);

			if (sem_presync(s) && !sem_run(ch, s))
				return false;
		}
		/*
		 * Fences wait for earlier transfers of one direction: they
		 * are all complete here, requests run one at a time.
		 */
		ch->status = req_transfer(e, ch, ch->req);
		if (ch->status)
			return true;	/* no post-sync, no doorbell */
		ch->phase = PH_POST0;
	}
	for (; ch->phase < PH_DOORBELL; ch->phase++) {
		uint32_t s = req_sem(ch, ch->phase - PH_POST0);

		if (sem_post(s) && !sem_run(ch, s))
			return false;
	}
	ch->status = req_doorbell(e, ch);
	return true;
}

static bool fault_hit(uint32_t every, uint32_t *n)
{
	if (!every)
		return false;
	if (++*n < every)
		return false;
	*n = 0;
	return true;
}

/*
 * An armed systematic case about this response: its req_id or status
 * changed in @r, or true to write it twice; an RSPTP case owes its lie
 * to the next read of the channel's RSPTP (e->lie_v, the case's index
 * until rsp_write() knows the true RSPTP).
 */
static bool case_rsp(struct emu_dbc *e, unsigned int id, struct dbc_chan *ch,
		     uint8_t *r, uint16_t req_id)
{
	const struct emu_dbc_case *c = e->armed;

	if (!c || c->field == EMU_DBC_CASE_REQHP)
		return false;
	e->armed = NULL;
	emu_log(e->dev, "DBC%u: case %s", id, c->name);
	switch (c->field) {
	case EMU_DBC_CASE_REQID:
		put_le16(r, (uint16_t)emu_dbc_case_value(c, req_id, ch->cfg.nelem));
		return false;
	case EMU_DBC_CASE_STATUS:
		put_le16(r + 2, (uint16_t)emu_dbc_case_value(c, 0, ch->cfg.nelem));
		return false;
	case EMU_DBC_CASE_TWICE:
		return true;
	default:
		e->lie = c;
		e->lie_ch = id;
		return false;
	}
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Write the response of the request at reqhp. Returns true if the ring was empty. */
static bool rsp_write(struct emu_dbc *e, unsigned int id, struct dbc_chan *ch,
		      uint16_t status)
{
	uint8_t r[EMU_DBC_RSP_ELEM];
	bool was_empty = ch->rsphp == ch->rsptp;
	uint16_t req_id;
	bool twice;

	if (fault_hit(ch->drop_every, &ch->drop_n)) {
		ch->c.rsp_dropped++;
		return false;
	}
	if (fault_hit(ch->corrupt_every, &ch->corrupt_n)) {
		ch->c.rsp_corrupted++;
		status = ch->corrupt_status;
	}
	req_id = ch->req[RQ_ID] | ch->req[RQ_ID + 1] << 8;
	/* Malicious-card mode: the host sees another req_id or status. */
	put_le16(r, malice_reqid(e->dev->malice, req_id, ch->old_ids, ch->n_old));
	put_le16(r + 2, (uint16_t)malice_u32(e->dev->malice, MALICE_RSP_STATUS,
					     status));
	twice = case_rsp(e, id, ch, r, req_id);
	ch->old_ids[ch->old_pos] = req_id;
	ch->old_pos = (ch->old_pos + 1) % 4;
	if (ch->n_old < 4)
		ch->n_old++;
	if (emu_dma_write(e->dev, ch->cfg.rsp_q_addr +
			  (uint64_t)ch->rsptp * EMU_DBC_RSP_ELEM, r, sizeof(r))) {
		emu_log(e->dev, "DBC%u: response ring not in guest memory", id);
		ch->c.errors++;
		return false;
	}
	ch->rsptp = (ch->rsptp + 1) % ch->cfg.nelem;
	ch->c.responses++;
	if (ch->told_ns) {
		ch->c.card_ns += now_ns() - ch->told_ns[ch->reqhp];
		ch->c.rsps_timed++;
	}
	if (twice && (ch->rsptp + 1) % ch->cfg.nelem != ch->rsphp &&
	    !emu_dma_write(e->dev, ch->cfg.rsp_q_addr +
			   (uint64_t)ch->rsptp * EMU_DBC_RSP_ELEM, r, sizeof(r))) {
		ch->rsptp = (ch->rsptp + 1) % ch->cfg.nelem;
		ch->c.responses++;
	}
	return was_empty;
}

static void dbc_irq(struct emu_dbc *e, unsigned int id)
{
	if (e->ch[id].msi_off)
		return;
	e->ch[id].c.irqs++;
	emu_irq_raise(e->dev, 1 + id);
}

/*
 * Consume requests from reqhp up to reqtp, at most @max and one ring's
 * worth, stopping at a semaphore wait or a full response ring. Returns
 * true if the batch wants an MSI: the response ring went from empty to
 * non-empty or a request forced one. The caller raises it, at most one per
 * register write.
 */
static bool dbc_process_some(struct emu_dbc *e, unsigned int id, uint64_t max)
{
	struct dbc_chan *ch = &e->ch[id];
	uint32_t nelem = ch->cfg.nelem;
	bool irq = false;
	uint32_t budget;

	if (!ch->active || ch->hang)
		return false;
	if (ch->hang_once) {
		/* A late hang holds the request it fetched. */
		if (ch->late_ns && !ch->have_req && ch->reqhp != ch->reqtp &&
		    !emu_dma_read(e->dev, ch->cfg.req_q_addr +
				  (uint64_t)ch->reqhp * EMU_DBC_REQ_ELEM,
				  ch->req, sizeof(ch->req))) {
			ch->have_req = true;
			ch->phase = PH_PRESYNC;
		}
		return false;
	}
	budget = max < nelem ? (uint32_t)max : nelem;
	for (; ch->reqhp != ch->reqtp && budget; budget--) {
		uint8_t cmd;

		if (!ch->have_req) {
			if (emu_dma_read(e->dev, ch->cfg.req_q_addr +
					 (uint64_t)ch->reqhp * EMU_DBC_REQ_ELEM,
					 ch->req, sizeof(ch->req))) {
				/* Skipped; the next response reports it. */
				emu_log(e->dev, "DBC%u: request %u not in guest memory",
					id, ch->reqhp);
				ch->c.errors++;
				if (!ch->err_pending)
					ch->err_pending = EMU_DBC_E_FETCH;
				ch->reqhp = (ch->reqhp + 1) % nelem;
				ch->c.requests++;
				continue;
			}
			ch->have_req = true;
			ch->phase = PH_PRESYNC;
		}
		cmd = ch->req[RQ_CMD];
		/* Never start what cannot complete: a full response ring holds. */
		if ((cmd & EMU_DBC_CMD_RSP) && (ch->rsptp + 1) % nelem == ch->rsphp) {
			if (!ch->held)
				ch->c.rsp_full++;
			ch->held = true;
			break;
		}
		ch->held = false;
		if (!req_run(e, ch)) {
			if (!ch->stalled)
				ch->c.stalls++;
			ch->stalled = true;
			break;
		}
		ch->stalled = false;
		if (ch->status) {
			ch->c.errors++;
			emu_log(e->dev, "DBC%u: request %u (id %u) failed: status %u",
				id, ch->reqhp, ch->req[RQ_ID] | ch->req[RQ_ID + 1] << 8,
				ch->status);
		}
		if (cmd & EMU_DBC_CMD_RSP) {
			uint16_t status = ch->err_pending ? ch->err_pending : ch->status;

			ch->err_pending = 0;
			irq |= rsp_write(e, id, ch, status);
		} else if (ch->status && !ch->err_pending) {
			ch->err_pending = ch->status;
		}
		irq |= !!(cmd & EMU_DBC_CMD_FORCE_MSI);
		ch->have_req = false;
		ch->reqhp = (ch->reqhp + 1) % nelem;
		ch->c.requests++;
		if (ch->reqhp == ch->reqtp)
			ch->idle_since_ns = now_ns();
	}
	return irq;
}

static bool dbc_process(struct emu_dbc *e, unsigned int id)
{
	return dbc_process_some(e, id, UINT64_MAX);
}

static void dbc_run(struct emu_dbc *e, unsigned int id)
{
	if (dbc_process(e, id))
		dbc_irq(e, id);
}

/*
 * With device time, a doorbell schedules the work instead of doing it:
 * the first request is done req_ns from now, unless the channel is
 * already working through earlier ones.
 */
static void dbc_schedule(struct dbc_chan *ch)
{
	if (!ch->due_ns && ch->reqhp != ch->reqtp)
		ch->due_ns = now_ns() + ch->req_ns;
}

/*
 * Bring the engine to rest: run the channels whose semaphores changed,
 * then let the workload start programs that waited for a semaphore, until
 * neither has anything left. Each round consumes requests or starts a
 * pending program, so this ends; the cap is a guard, not a limit that
 * correct use reaches.
 */
static void engine_settle(struct emu_dbc *e)
{
	unsigned int rounds;

	for (rounds = 0; rounds < SETTLE_ROUNDS; rounds++) {
		if (e->kick) {
			unsigned int id = (unsigned int)__builtin_ctz(e->kick);

			e->kick &= e->kick - 1;
			dbc_run(e, id);
			continue;
		}
		if (!e->hooks || !e->hooks->idle || !e->hooks->idle(e->hook_ctx))
			return;
	}
	emu_log(e->dev, "DBC: engine did not settle in %u rounds", SETTLE_ROUNDS);
	e->kick = 0;
}

/*
 * Every public call that may process requests is bracketed by these: the
 * outermost one settles the engine, inner ones (from hooks) only queue
 * work for it, so a request is never re-entered while half done.
 */
static void engine_enter(struct emu_dbc *e)
{
	e->depth++;
}

static void engine_leave(struct emu_dbc *e)
{
	if (e->depth == 1)
		engine_settle(e);
	e->depth--;
}

/*
 * Is a request unfinished? Processing is synchronous, so requests between
 * REQHP and REQTP are left only when something holds the one at REQHP: a
 * hang, a semaphore wait, a full response ring.
 */
static bool chan_busy(const struct dbc_chan *ch)
{
	return ch->have_req || ch->reqhp != ch->reqtp;
}

/*
 * The host resets the channel (REQTP := REQHP while busy): the request at
 * REQHP and any queued behind it are dropped without a response. REQHP,
 * the response ring, the semaphores and the permanent hang stay.
 */
static void chan_abort(struct emu_dbc *e, unsigned int id)
{
	struct dbc_chan *ch = &e->ch[id];

	emu_log(e->dev, "DBC%u: reset at request %u (%s)", id, ch->reqhp,
		ch->hang_once ? "one-shot hang" : ch->hang ? "hang" :
		ch->stalled ? "semaphore wait" : ch->held ? "response ring full" :
		"in progress");
	if (ch->hang_once && ch->late_ns && ch->have_req) {
		memcpy(ch->late_req, ch->req, sizeof(ch->late_req));
		ch->late_due_ns = now_ns() + ch->late_ns;
		emu_log(e->dev, "DBC%u: request %u (id %u) was fetched: carried out %" PRIu64
			" ms after the reset", id, ch->reqhp,
			ch->req[RQ_ID] | ch->req[RQ_ID + 1] << 8, ch->late_ns / 1000000);
	}
	ch->late_ns = 0;
	ch->have_req = false;
	ch->phase = PH_PRESYNC;
	ch->status = ch->err_pending = 0;
	ch->stalled = ch->held = false;
	ch->hang_once = false;
	ch->reqtp = ch->reqhp;
	ch->c.resets++;
}

/*
 * Carry out the request a late hang kept: its transfer only. Its response
 * would name a req_id the host no longer has in flight; the transfer is
 * what matters, the memory it reaches.
 */
static void late_run(struct emu_dbc *e, unsigned int id)
{
	struct dbc_chan *ch = &e->ch[id];
	uint16_t status;

	if (!ch->late_due_ns)
		return;
	ch->late_due_ns = 0;
	status = req_transfer(e, ch, ch->late_req);
	ch->c.late_xfers++;
	emu_log(e->dev, "DBC%u: late request (id %u) carried out: status %u", id,
		ch->late_req[RQ_ID] | ch->late_req[RQ_ID + 1] << 8, status);
}

/* ---- registers --------------------------------------------------------- */

/* A systematic case's lie about register @reg (0 REQHP, 3 RSPTP) of DBC @id. */
static uint32_t case_read(struct emu_dbc *e, unsigned int id, unsigned int reg, uint32_t v)
{
	const struct emu_dbc_case *c = e->armed;

	if (reg == 3 && e->lie && e->lie_ch == id) {
		uint32_t lie = emu_dbc_case_value(e->lie, v, e->ch[id].cfg.nelem);

		e->lie = NULL;
		emu_log(e->dev, "DBC%u: RSPTP %u read as %u", id, v, lie);
		return lie;
	}
	if (reg != 0 || !c || c->field != EMU_DBC_CASE_REQHP || !e->ch[id].active)
		return v;
	e->armed = NULL;
	emu_log(e->dev, "DBC%u: case %s: REQHP %u read as %u", id, c->name, v,
		emu_dbc_case_value(c, v, e->ch[id].cfg.nelem));
	return emu_dbc_case_value(c, v, e->ch[id].cfg.nelem);
}

/* @reg: 0..3 = REQHP, REQTP, RSPHP, RSPTP. */
static uint32_t reg_value(const struct dbc_chan *ch, unsigned int reg)
{
	if (!ch->active)
		return 0;
	switch (reg) {
	case 0: return (ch->reqhp + ch->cfg.nelem - ch->reqhp_lag % ch->cfg.nelem) %
		       ch->cfg.nelem;
	case 1: return ch->reqtp;
	case 2: return ch->rsphp;
	default: return ch->rsptp;
	}
}

/* DBC and register of a 32-bit word of BAR2, or false if it is none. */
static bool decode(uint64_t pos, unsigned int *id, unsigned int *reg)
{
	uint64_t rel;

	if (pos < EMU_DBC_BASE)
		return false;
	rel = pos - EMU_DBC_BASE;
	if (rel / EMU_DBC_STRIDE >= EMU_NUM_DBC || rel % EMU_DBC_STRIDE >= 16)
		return false;
	*id = (unsigned int)(rel / EMU_DBC_STRIDE);
	*reg = (unsigned int)(rel % EMU_DBC_STRIDE) / 4;
	return true;
}

/*
 * A doorbell moves REQTP to @tp: the entries it adds (none when it moves
 * back, as a host's reset of the ring does) are announced now, and a ring
 * that had run out of work is busy again.
 */
static void chan_told(struct dbc_chan *ch, uint32_t tp)
{
	uint32_t nelem = ch->cfg.nelem;
	uint32_t used = (ch->reqtp + nelem - ch->reqhp) % nelem;
	uint32_t added = (tp + nelem - ch->reqtp) % nelem;
	uint64_t now;

	if (!added || used + added >= nelem)
		return;
	now = now_ns();
	if (ch->told_ns)
		for (uint32_t i = ch->reqtp; i != tp; i = (i + 1) % nelem)
			ch->told_ns[i] = now;
	if (ch->idle_since_ns) {
		ch->c.idle_ns += now - ch->idle_since_ns;
		ch->c.idles++;
		ch->idle_since_ns = 0;
	}
}

static void reg_write(struct emu_dbc *e, unsigned int id, unsigned int reg,
		      uint32_t val)
{
	struct dbc_chan *ch = &e->ch[id];

	ch->c.reg_writes[reg]++;
	if (!ch->active || reg == 0 || reg == 3) {
		ch->c.ignored_writes++;
		return;
	}
	if (val >= ch->cfg.nelem) {
		ch->c.bad_index++;
		emu_log(e->dev, "DBC%u: index %u >= nelem %u ignored", id, val,
			ch->cfg.nelem);
		return;
	}
	if (reg == 1) {
		if (val == ch->reqhp && chan_busy(ch)) {
			chan_abort(e, id);
		} else {
			chan_told(ch, val);
			ch->reqtp = val;
		}
		if (ch->req_ns)
			dbc_schedule(ch);
		else
			dbc_run(e, id);
		return;
	}
	ch->rsphp = val;
	/*
	 * Responses still in the ring after the acknowledgement (and after
	 * what it let through) interrupt again: they may have arrived after
	 * the host last read RSPTP, without an empty -> non-empty transition.
	 * With device time, requests a full response ring held resume in
	 * their own time.
	 */
	if (ch->req_ns) {
		dbc_schedule(ch);
		if (ch->rsphp != ch->rsptp)
			dbc_irq(e, id);
		return;
	}
	if (dbc_process(e, id) || ch->rsphp != ch->rsptp)
		dbc_irq(e, id);
}

/* ---- the raw channel (dbc.h) ------------------------------------------ */

static bool raw_decode(uint64_t pos, unsigned int *reg)
{
	if (pos < EMU_DBC_RAW_BASE || pos >= EMU_DBC_RAW_BASE + 16)
		return false;
	*reg = (unsigned int)(pos - EMU_DBC_RAW_BASE);
	return true;
}

static uint32_t raw_read(const struct emu_dbc *e, unsigned int reg)
{
	switch (reg) {
	case EMU_DBC_RAW_RING_LO: return (uint32_t)e->raw_ring;
	case EMU_DBC_RAW_RING_HI: return (uint32_t)(e->raw_ring >> 32);
	case EMU_DBC_RAW_NELEM: return e->raw_nelem;
	default: return e->raw_result;
	}
}

static void raw_ctrl(struct emu_dbc *e, uint32_t val)
{
	unsigned int id = val & (EMU_NUM_DBC - 1);
	struct dbc_chan *ch = &e->ch[id];
	struct emu_dbc_cfg cfg = { 0 };
	uint64_t rsp;

	e->raw_result = EMU_DBC_RAW_REFUSED;
	if (!(val & EMU_DBC_RAW_ON)) {
		if (ch->active && ch->raw) {
			emu_dbc_release(e, id);
			e->raw_result = EMU_DBC_RAW_OK;
		}
		return;
	}
	rsp = e->raw_ring + (uint64_t)e->raw_nelem * EMU_DBC_REQ_ELEM;
	if (ch->active || !e->raw_ring || !e->raw_nelem ||
	    e->raw_nelem > EMU_DBC_RAW_MAX_NELEM || rsp < e->raw_ring ||
	    rsp + (uint64_t)e->raw_nelem * EMU_DBC_RSP_ELEM < rsp)
		return;
	cfg.active = true;
	cfg.partition_id = -1;
	cfg.req_q_addr = e->raw_ring;
	cfg.rsp_q_addr = rsp;
	cfg.nelem = e->raw_nelem;
	cfg.buf_len = e->raw_nelem * (EMU_DBC_REQ_ELEM + EMU_DBC_RSP_ELEM);
	emu_dbc_activate(e, id, &cfg);
	ch->raw = true;
	e->raw_activations++;
	e->raw_result = EMU_DBC_RAW_OK;
}

static void raw_write(struct emu_dbc *e, unsigned int reg, uint32_t val)
{
	switch (reg) {
	case EMU_DBC_RAW_RING_LO:
		e->raw_ring = (e->raw_ring & ~0xffffffffull) | val;
		break;
	case EMU_DBC_RAW_RING_HI:
		e->raw_ring = (e->raw_ring & 0xffffffffull) | (uint64_t)val << 32;
		break;
	case EMU_DBC_RAW_NELEM:
		e->raw_nelem = val;
		break;
	default:
		raw_ctrl(e, val);
		break;
	}
}

static void dbc_bar_read(struct emu_device *dev, void *priv, uint64_t off,
			 void *buf, uint64_t len)
{
	struct emu_dbc *e = priv;
	uint8_t *out = buf;
	bool other = false;
	uint64_t pos;

	(void)dev;
	for (pos = off & ~3ull; pos < off + len; pos += 4) {
		unsigned int id, reg;
		uint32_t v = 0;
		uint8_t b[4];
		uint64_t i;

		if (raw_decode(pos, &reg)) {
			v = raw_read(e, reg);
		} else if (decode(pos, &id, &reg)) {
			v = reg_value(&e->ch[id], reg);
			e->ch[id].c.reg_reads[reg]++;
			/* Malicious-card mode: the device's indexes lie. */
			if (reg == 0)
				v = malice_index(e->dev->malice, MALICE_REQHP, v,
						 e->ch[id].cfg.nelem);
			else if (reg == 3)
				v = malice_index(e->dev->malice, MALICE_RSPTP, v,
						 e->ch[id].cfg.nelem);
			v = case_read(e, id, reg, v);
		} else {
			other = true;
		}
		put_le32(b, v);
		for (i = 0; i < 4; i++)
			if (pos + i >= off && pos + i < off + len)
				out[pos + i - off] = b[i];
	}
	e->mmio_other += other;
}

static void dbc_bar_write(struct emu_device *dev, void *priv, uint64_t off,
			  const void *buf, uint64_t len)
{
	struct emu_dbc *e = priv;
	const uint8_t *in = buf;
	bool other = false;
	uint64_t pos;

	(void)dev;
	engine_enter(e);
	for (pos = off & ~3ull; pos < off + len; pos += 4) {
		unsigned int id, reg;
		uint8_t b[4];
		uint64_t i;

		if (raw_decode(pos, &reg)) {
			/* Only whole registers: the raw loop writes 32 bits. */
			if (pos >= off && pos + 4 <= off + len)
				raw_write(e, reg, get_le32(in + (pos - off)));
			continue;
		}
		if (!decode(pos, &id, &reg)) {
			other = true;
			continue;
		}
		/* A partial write merges into the current value. */
		put_le32(b, reg_value(&e->ch[id], reg));
		for (i = 0; i < 4; i++)
			if (pos + i >= off && pos + i < off + len)
				b[i] = in[pos + i - off];
		reg_write(e, id, reg, get_le32(b));
	}
	engine_leave(e);
	e->mmio_other += other;
}

static const struct emu_bar_ops dbc_bar_ops = {
	.name = "dbc",
	.read = dbc_bar_read,
	.write = dbc_bar_write,
};

/* ---- API --------------------------------------------------------------- */

struct emu_dbc *emu_dbc_create(struct emu_device *dev)
{
	struct emu_dbc *e = calloc(1, sizeof(*e));

	if (!e)
		return NULL;
	e->dev = dev;
	e->mem_size = EMU_DBC_DEFAULT_MEM;
	return e;
}

void emu_dbc_destroy(struct emu_dbc *e)
{
	if (!e)
		return;
	if (e->mgr)
		emu_manager_set_dbc_ops(e->mgr, NULL, NULL);
	if (e->mem)
		munmap(e->mem, e->mem_size);
	for (unsigned int id = 0; id < EMU_NUM_DBC; id++)
		free(e->ch[id].told_ns);
	free(e);
}

void emu_dbc_attach(struct emu_dbc *e)
{
	emu_device_set_bar_ops(e->dev, EMU_DBC_BAR, &dbc_bar_ops, e);
}

static void chan_reset(struct dbc_chan *ch)
{
	ch->active = false;
	ch->due_ns = 0;
	free(ch->told_ns);
	ch->told_ns = NULL;
	ch->idle_since_ns = 0;
	ch->raw = false;
	memset(&ch->cfg, 0, sizeof(ch->cfg));
	ch->reqhp = ch->reqtp = ch->rsphp = ch->rsptp = 0;
	memset(ch->sem, 0, sizeof(ch->sem));
	ch->have_req = false;
	ch->phase = PH_PRESYNC;
	ch->status = ch->err_pending = 0;
	ch->stalled = ch->held = false;
	ch->hang_once = false;
	ch->late_ns = ch->late_due_ns = 0;
	ch->drop_n = ch->corrupt_n = 0;
	ch->n_old = ch->old_pos = 0;
}

void emu_dbc_activate(struct emu_dbc *e, unsigned int id,
		      const struct emu_dbc_cfg *cfg)
{
	struct dbc_chan *ch;

	if (id >= EMU_NUM_DBC || !cfg || !cfg->nelem)
		return;
	ch = &e->ch[id];
	chan_reset(ch);
	ch->cfg = *cfg;
	ch->active = true;
	/* Without it, the card works as well; it only does not say when. */
	ch->told_ns = calloc(cfg->nelem, sizeof(*ch->told_ns));
	emu_log(e->dev, "DBC%u: active, %u elements, req %#" PRIx64 " rsp %#" PRIx64,
		id, cfg->nelem, cfg->req_q_addr, cfg->rsp_q_addr);
}

void emu_dbc_release(struct emu_dbc *e, unsigned int id)
{
	if (id >= EMU_NUM_DBC)
		return;
	/* What the engine fetched is done before the card says it stopped. */
	late_run(e, id);
	chan_reset(&e->ch[id]);
	emu_log(e->dev, "DBC%u: released", id);
}

static void manager_hook(void *ctx, unsigned int id, bool active)
{
	struct emu_dbc *e = ctx;
	const struct emu_dbc_cfg *cfg;

	if (!active) {
		emu_dbc_release(e, id);
		return;
	}
	cfg = emu_manager_dbc(e->mgr, id);
	if (cfg && cfg->active)
		emu_dbc_activate(e, id, cfg);
}

static int manager_hang_once(void *ctx, unsigned int id, uint32_t late_ms)
{
	return emu_dbc_hang_once(ctx, id, late_ms);
}

static int manager_get_counters(void *ctx, unsigned int id,
				struct emu_dbc_counters *out)
{
	if (id >= EMU_NUM_DBC)
		return -EINVAL;
	emu_dbc_get_counters(ctx, id, out);
	return 0;
}

static int manager_set_faults(void *ctx, unsigned int id, uint32_t drop_every,
			      uint32_t corrupt_every, uint16_t corrupt_status,
			      uint32_t reqhp_lag, bool msi_off)
{
	if (id >= EMU_NUM_DBC)
		return -EINVAL;
	emu_dbc_set_drop_rsp(ctx, id, drop_every);
	emu_dbc_set_corrupt_rsp(ctx, id, corrupt_every, corrupt_status);
	emu_dbc_set_reqhp_lag(ctx, id, reqhp_lag);
	emu_dbc_set_msi_off(ctx, id, msi_off);
	return 0;
}

static int manager_set_timing(void *ctx, unsigned int id, uint32_t req_ns)
{
	if (id >= EMU_NUM_DBC)
		return -EINVAL;
	emu_dbc_set_timing(ctx, id, req_ns);
	return 0;
}

static int manager_write_mem(void *ctx, uint64_t addr, const void *buf, uint64_t len)
{
	return emu_dbc_mem_write(ctx, addr, buf, len);
}

static const struct emu_dbc_ops manager_ops = {
	.write_mem = manager_write_mem,
	.changed = manager_hook,
	.hang_once = manager_hang_once,
	.get_counters = manager_get_counters,
	.set_faults = manager_set_faults,
	.set_timing = manager_set_timing,
};

void emu_dbc_connect(struct emu_dbc *e, struct emu_manager *mgr)
{
	e->mgr = mgr;
	emu_manager_set_dbc_ops(mgr, &manager_ops, e);
}

int emu_dbc_sem_get(struct emu_dbc *e, unsigned int id, unsigned int idx)
{
	if (id >= EMU_NUM_DBC || idx >= EMU_DBC_NUM_SEM)
		return -EINVAL;
	return e->ch[id].sem[idx];
}

int emu_dbc_sem_set(struct emu_dbc *e, unsigned int id, unsigned int idx,
		    uint16_t val)
{
	if (id >= EMU_NUM_DBC || idx >= EMU_DBC_NUM_SEM)
		return -EINVAL;
	e->ch[id].sem[idx] = val & EMU_DBC_SEM_MAX;
	/* Inside a hook the request in progress finishes first. */
	e->kick |= 1u << id;
	engine_enter(e);
	engine_leave(e);
	return 0;
}

void emu_dbc_set_hooks(struct emu_dbc *e, const struct emu_dbc_hooks *hooks,
		       void *ctx)
{
	e->hooks = hooks;
	e->hook_ctx = ctx;
}

void emu_dbc_set_hang(struct emu_dbc *e, unsigned int id, bool hang)
{
	if (id >= EMU_NUM_DBC)
		return;
	e->ch[id].hang = hang;
	if (!hang) {
		e->kick |= 1u << id;
		engine_enter(e);
		engine_leave(e);
	}
}

int emu_dbc_hang_once(struct emu_dbc *e, unsigned int id, uint32_t late_ms)
{
	if (id >= EMU_NUM_DBC)
		return -EINVAL;
	if (!e->ch[id].active)
		return -ENODEV;
	e->ch[id].hang_once = true;
	e->ch[id].late_ns = (uint64_t)late_ms * 1000000u;
	return 0;
}

void emu_dbc_set_drop_rsp(struct emu_dbc *e, unsigned int id, uint32_t every)
{
	if (id >= EMU_NUM_DBC)
		return;
	e->ch[id].drop_every = every;
	e->ch[id].drop_n = 0;
}

void emu_dbc_set_corrupt_rsp(struct emu_dbc *e, unsigned int id,
			     uint32_t every, uint16_t status)
{
	if (id >= EMU_NUM_DBC)
		return;
	e->ch[id].corrupt_every = every;
	e->ch[id].corrupt_n = 0;
	e->ch[id].corrupt_status = status;
}

void emu_dbc_set_timing(struct emu_dbc *e, unsigned int id, uint32_t req_ns)
{
	struct dbc_chan *ch;

	if (id >= EMU_NUM_DBC)
		return;
	ch = &e->ch[id];
	ch->req_ns = req_ns;
	if (!req_ns && ch->due_ns) {
		/* Back to instant: finish what was scheduled now. */
		ch->due_ns = 0;
		engine_enter(e);
		dbc_run(e, id);
		engine_leave(e);
	}
}

long long emu_dbc_timeout_ns(const struct emu_dbc *e)
{
	uint64_t now = 0, min = UINT64_MAX;

	for (unsigned int id = 0; id < EMU_NUM_DBC; id++) {
		const struct dbc_chan *ch = &e->ch[id];
		uint64_t due[2] = { ch->due_ns, ch->late_due_ns };

		for (unsigned int k = 0; k < 2; k++) {
			if (!due[k])
				continue;
			if (!now)
				now = now_ns();
			if (due[k] <= now)
				return 0;
			if (due[k] - now < min)
				min = due[k] - now;
		}
	}
	return min == UINT64_MAX ? -1 : (long long)min;
}

void emu_dbc_tick(struct emu_dbc *e)
{
	uint64_t now = 0;

	for (unsigned int id = 0; id < EMU_NUM_DBC; id++) {
		struct dbc_chan *ch = &e->ch[id];
		uint64_t n, due, req_ns = ch->req_ns;

		if (ch->late_due_ns) {
			if (!now)
				now = now_ns();
			if (ch->late_due_ns <= now)
				late_run(e, id);
		}
		if (!ch->due_ns)
			continue;
		if (!now)
			now = now_ns();
		if (ch->due_ns > now)
			continue;
		/*
		 * Every request whose time has come, in one go. A due time
		 * implies device time: going back to 0 clears it.
		 */
		due = ch->due_ns;
		n = 1 + (now - due) / ch->req_ns;
		ch->due_ns = 0;
		engine_enter(e);
		if (dbc_process_some(e, id, n))
			dbc_irq(e, id);
		engine_leave(e);
		/* A wait, a full ring or a hang resumes on a register write. */
		if (!ch->req_ns || ch->stalled || ch->held || ch->hang || ch->hang_once)
			continue;
		/*
		 * A card with work it was told of goes on without a pause:
		 * its next request is done req_ns after the last one was due,
		 * however late this loop came to see it. Counting from now
		 * would slow the card by every wake-up's lateness.
		 */
		if (ch->reqhp != ch->reqtp && ch->req_ns == req_ns)
			ch->due_ns = due + n * req_ns;
		else
			dbc_schedule(ch);
	}
}

int emu_dbc_send_case(struct emu_dbc *e, unsigned int idx)
{
	if (idx >= emu_dbc_nr_cases)
		return -EINVAL;
	e->armed = &emu_dbc_cases[idx];
	e->lie = NULL;
	return 0;
}

void emu_dbc_set_reqhp_lag(struct emu_dbc *e, unsigned int id, uint32_t lag)
{
	if (id >= EMU_NUM_DBC)
		return;
	e->ch[id].reqhp_lag = lag;
}

void emu_dbc_set_msi_off(struct emu_dbc *e, unsigned int id, bool off)
{
	if (id >= EMU_NUM_DBC)
		return;
	e->ch[id].msi_off = off;
}

#define NCOUNTERS (sizeof(struct emu_dbc_counters) / sizeof(uint64_t))

void emu_dbc_get_counters(const struct emu_dbc *e, unsigned int id,
			  struct emu_dbc_counters *out)
{
	uint64_t sum[NCOUNTERS] = { 0 };
	unsigned int i, k;

	if (id < EMU_NUM_DBC) {
		*out = e->ch[id].c;
		return;
	}
	for (i = 0; i < EMU_NUM_DBC; i++) {
		uint64_t v[NCOUNTERS];

		memcpy(v, &e->ch[i].c, sizeof(v));
		for (k = 0; k < NCOUNTERS; k++)
			sum[k] += v[k];
	}
	memcpy(out, sum, sizeof(*out));
}

/* In the order of struct emu_dbc_counters. */
static const char *const counter_names[] = {
	"reads_reqhp", "reads_reqtp", "reads_rsphp", "reads_rsptp",
	"writes_reqhp", "writes_reqtp", "writes_rsphp", "writes_rsptp",
	"requests", "responses", "dma_to_dev_bytes", "dma_from_dev_bytes",
	"irqs", "errors", "stalls", "rsp_full", "sem_ops", "doorbells",
	"bad_index", "ignored_writes", "rsp_dropped", "rsp_corrupted",
	"resets", "late_xfers", "card_ns", "rsps_timed", "idle_ns", "idles",
};

_Static_assert(sizeof(counter_names) / sizeof(counter_names[0]) == NCOUNTERS,
	       "a name for every DBC counter");

static void print_set(const struct emu_dbc_counters *c, const char *prefix,
		      FILE *out)
{
	uint64_t v[NCOUNTERS];
	unsigned int k;

	memcpy(v, c, sizeof(v));
	for (k = 0; k < NCOUNTERS; k++)
		fprintf(out, "%s_%s %" PRIu64 "\n", prefix, counter_names[k], v[k]);
}

void emu_dbc_counters_print(const struct emu_dbc *e, FILE *out)
{
	struct emu_dbc_counters c;
	char prefix[16];
	unsigned int i;

	fprintf(out, "dbc_mmio_other %" PRIu64 "\n", e->mmio_other);
	fprintf(out, "dbc_raw_activations %" PRIu64 "\n", e->raw_activations);
	emu_dbc_get_counters(e, EMU_NUM_DBC, &c);
	print_set(&c, "dbc", out);
	for (i = 0; i < EMU_NUM_DBC; i++) {
		snprintf(prefix, sizeof(prefix), "dbc%u", i);
		print_set(&e->ch[i].c, prefix, out);
	}
}
