// SPDX-License-Identifier: GPL-2.0-only
/*
 * Subsystem restart of one DBC on the QAIC_SSR channel (see ssr.h).
 *
 * Copyright (c) 2026 The qaic authors.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "device.h"
#include "le_bytes.h"
#include "memdump.h"
#include "ssr.h"
#include "ssr_cases.h"

/* The events in the order the card sends them. */
static const uint32_t ssr_events[] = {
	SSR_EV_BEFORE_SHUTDOWN,
	SSR_EV_AFTER_SHUTDOWN,
	SSR_EV_BEFORE_POWER_UP,
	SSR_EV_AFTER_POWER_UP,
};
#define NR_EVENTS	(sizeof(ssr_events) / sizeof(ssr_events[0]))

struct emu_ssr_counters {
	uint64_t started;	/* SSRs begun */
	uint64_t completed;	/* AFTER_POWER_UP acknowledged */
	uint64_t events_sent;	/* SSR_EVENTs, repeats included */
	uint64_t acks;		/* SSR_EVENT_RSPs that moved the SSR on */
	uint64_t nacks;		/* NACKs and answers to the wrong event */
	uint64_t bad_msgs;	/* host messages that made no sense */
	uint64_t garbage_sent;	/* malformed messages sent (EMU_SSR_GARBAGE) */
	uint64_t flood_cycles;	/* restarts begun by EMU_SSR_FLOOD */
	uint64_t dumps_offered;	/* DEBUG_XFER_INFOs sent (EMU_SSR_DUMP) */
	uint64_t dumps_declined; /* answered with a non-zero status */
	uint64_t dump_reads;	/* MEMORY_READs served */
	uint64_t dump_bytes;	/* bytes of memory sent */
	uint64_t dump_bad_reads; /* MEMORY_READs of memory the card lacks */
	uint64_t dumps_done;	/* DEBUG_XFER_DONEs answered */
};

struct emu_ssr {
	struct emu_device *dev;
	const struct emu_ssr_ops *ops;
	void *ctx;

	bool running;
	bool stall;		/* EMU_SSR_STALL: hold after AFTER_SHUTDOWN */
	bool stalled;		/* held there now */
	unsigned int dbc;
	unsigned int step;	/* index in ssr_events[] of the event sent */
	unsigned int cycles_left; /* EMU_SSR_FLOOD: restarts after this one */
	enum emu_ssr_mode mode;	/* EMU_SSR_DUMP* offer a dump after BEFORE_POWER_UP */
	unsigned int region_reads;	/* of this dump, the table's not counted */
	bool dumping;		/* offered, and the host has not ended it */
	unsigned int offers;	/* of this dump: 2 after EMU_SSR_DUMP_OFFER_TWICE's */
	unsigned int offer_answers;	/* DEBUG_XFER_INFO_RSPs to them */

	struct emu_ssr_counters c;
};

static void ssr_send_raw(struct emu_ssr *s, uint32_t cmd, uint32_t len,
			 uint32_t dbc, uint32_t event, size_t bytes)
{
	uint8_t msg[SSR_MAX_MSG] = { 0 };

	put_le32(msg, cmd);
	put_le32(msg + 4, len);
	put_le32(msg + 8, dbc);
	put_le32(msg + 12, event);
	s->ops->send(s->ctx, msg, bytes);
}

static void ssr_send_event(struct emu_ssr *s)
{
	s->c.events_sent++;
	emu_log(s->dev, "SSR: DBC%u: event %#x", s->dbc, ssr_events[s->step]);
	ssr_send_raw(s, SSR_CMD_EVENT, SSR_EVENT_LEN, s->dbc,
		     ssr_events[s->step], SSR_EVENT_LEN);
}

/*
 * What a confused card might send: each must be dropped by the host, and
 * none may stop the SSR that follows.
 */
static void ssr_send_garbage(struct emu_ssr *s)
{
	/* A DBC the card does not have. */
	ssr_send_raw(s, SSR_CMD_EVENT, SSR_EVENT_LEN, 16, SSR_EV_BEFORE_SHUTDOWN,
		     SSR_EVENT_LEN);
	/* A length longer than the message. */
	ssr_send_raw(s, SSR_CMD_EVENT, SSR_MAX_MSG + 4, s->dbc,
		     SSR_EV_BEFORE_SHUTDOWN, SSR_EVENT_LEN);
	/* A message shorter than its header. */
	ssr_send_raw(s, SSR_CMD_EVENT, 8, s->dbc, 0, 8);
	/* A command the host does not know. */
	ssr_send_raw(s, 0x4000, SSR_EVENT_LEN, s->dbc, 0, SSR_EVENT_LEN);
	/* An event out of order: power-up before any shutdown. */
	ssr_send_raw(s, SSR_CMD_EVENT, SSR_EVENT_LEN, s->dbc,
		     SSR_EV_AFTER_POWER_UP, SSR_EVENT_LEN);
	/* An event that is none of the four. */
	ssr_send_raw(s, SSR_CMD_EVENT, SSR_EVENT_LEN, s->dbc, 0x80,
		     SSR_EVENT_LEN);
	s->c.garbage_sent += 6;
}

struct emu_ssr *emu_ssr_create(struct emu_device *dev,
			       const struct emu_ssr_ops *ops, void *ctx)
{
	struct emu_ssr *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->dev = dev;
	s->ops = ops;
	s->ctx = ctx;
	return s;
}

void emu_ssr_destroy(struct emu_ssr *s)
{
	free(s);
}

int emu_ssr_start(struct emu_ssr *s, unsigned int dbc, enum emu_ssr_mode mode)
{
	return emu_ssr_start_cycles(s, dbc, mode, 0);
}

int emu_ssr_start_cycles(struct emu_ssr *s, unsigned int dbc,
			 enum emu_ssr_mode mode, unsigned int cycles)
{
	if (mode >= EMU_SSR_NR_MODES)
		return -EINVAL;
	if (mode == EMU_SSR_FLOOD && (!cycles || cycles > EMU_SSR_MAX_CYCLES))
		return -EINVAL;
	if (mode == EMU_SSR_RESUME) {
		if (!s->running || s->dbc != dbc)
			return -EINVAL;
		if (s->stalled) {
			s->stalled = false;
			s->stall = false;
			s->step++;
			ssr_send_event(s);
			return 0;
		}
		/*
		 * The host shows AFTER_SHUTDOWN before its answer to that
		 * event reaches the card, so whoever reads the host's state
		 * and asks to go on may come before the answer: the stall is
		 * called off, and the answer, when it comes, goes on at once.
		 */
		if (s->stall && ssr_events[s->step] == SSR_EV_AFTER_SHUTDOWN) {
			s->stall = false;
			emu_log(s->dev, "SSR: DBC%u: resumed before its stall", dbc);
			return 0;
		}
		return -EINVAL;
	}
	if (s->running)
		return -EBUSY;

	s->running = true;
	s->stall = mode == EMU_SSR_STALL;
	s->stalled = false;
	s->dbc = dbc;
	s->step = 0;
	s->cycles_left = mode == EMU_SSR_FLOOD ? cycles - 1 : 0;
	s->mode = mode;
	s->dumping = false;
	s->c.started++;
	if (mode == EMU_SSR_FLOOD) {
		s->c.flood_cycles++;
		emu_log(s->dev, "SSR: DBC%u: flood of %u restarts", dbc, cycles);
	}
	emu_log(s->dev, "SSR: DBC%u: subsystem crashed", dbc);
	if (mode == EMU_SSR_GARBAGE)
		ssr_send_garbage(s);
	ssr_send_event(s);
	return 0;
}

/* The table length the offer names: the good one's, or a fault's. */
static uint64_t ssr_dump_table_len(const struct emu_ssr *s)
{
	uint64_t len = (uint64_t)EMU_MEMDUMP_NR_REGIONS * EMU_MEMDUMP_ENTRY_LEN;

	if (s->mode == EMU_SSR_DUMP_BAD_LENGTH)
		return len + 8;
	if (s->mode == EMU_SSR_DUMP_TOO_MANY)
		return (uint64_t)EMU_MEMDUMP_TOO_MANY_ENTRIES * EMU_MEMDUMP_ENTRY_LEN;
	return len;
}

/* The field of the good table each table fault changes, and to what. */
static const struct {
	enum emu_ssr_mode mode;
	unsigned int entry;
	unsigned int field;	/* bytes into the entry: 8 address, 16 length */
	uint64_t val;
} ssr_table_faults[] = {
	{ EMU_SSR_DUMP_HUGE, 0, 16, EMU_MEMDUMP_HUGE_LEN },
	{ EMU_SSR_DUMP_EMPTY_REGION, 1, 16, 0 },
	{ EMU_SSR_DUMP_WRAPPING_REGION, 2, 8, EMU_SSR_DUMP_WRAP_ADDR },
};

/* The table's fault, in the bytes [addr, addr + len) of it read into @buf. */
static void ssr_dump_table_fault(const struct emu_ssr *s, uint64_t addr, uint64_t len,
				 uint8_t *buf)
{
	uint64_t field;
	uint8_t val[8];

	for (unsigned int f = 0; f < sizeof(ssr_table_faults) / sizeof(ssr_table_faults[0]); f++) {
		if (ssr_table_faults[f].mode != s->mode)
			continue;
		field = EMU_MEMDUMP_TABLE_ADDR +
			ssr_table_faults[f].entry * EMU_MEMDUMP_ENTRY_LEN +
			ssr_table_faults[f].field;
		put_le64(val, ssr_table_faults[f].val);
		for (unsigned int i = 0; i < 8; i++)
			if (field + i >= addr && field + i - addr < len)
				buf[field + i - addr] = val[i];
	}
}

static void ssr_send_offer(struct emu_ssr *s)
{
	uint8_t msg[SSR_DUMP_MSG_LEN] = { 0 };

	put_le32(msg, SSR_CMD_DEBUG_XFER_INFO);
	put_le32(msg + 4, SSR_DUMP_MSG_LEN);
	put_le32(msg + 8, s->dbc);
	put_le64(msg + 16, EMU_MEMDUMP_TABLE_ADDR);
	put_le64(msg + 24, ssr_dump_table_len(s));
	s->offers++;
	s->c.dumps_offered++;
	emu_log(s->dev, "SSR: DBC%u: crash dump offered%s", s->dbc,
		s->offers > 1 ? " again" : "");
	s->ops->send(s->ctx, msg, sizeof(msg));
}

static void ssr_send_dump_offer(struct emu_ssr *s)
{
	s->dumping = true;
	s->region_reads = 0;
	s->offers = 0;
	s->offer_answers = 0;
	ssr_send_offer(s);
}

/* Whether a read at @addr is of the table, not of a region. */
static bool ssr_in_table(uint64_t addr)
{
	return addr >= EMU_MEMDUMP_TABLE_ADDR &&
	       addr - EMU_MEMDUMP_TABLE_ADDR < (uint64_t)EMU_MEMDUMP_NR_REGIONS * EMU_MEMDUMP_ENTRY_LEN;
}

/* A read of the crashed subsystem's memory: its bytes, or none. */
static void ssr_serve_read(struct emu_ssr *s, uint64_t addr, uint64_t len)
{
	uint8_t *msg;
	bool ok;

	if (len > EMU_MEMDUMP_MAX_READ)
		len = 0;
	msg = calloc(1, SSR_READ_RSP_HDR_LEN + len + 1);
	if (!msg)
		return;
	ok = len && emu_memdump_read_good(addr, len, msg + SSR_READ_RSP_HDR_LEN);
	if (ok)
		ssr_dump_table_fault(s, addr, len, msg + SSR_READ_RSP_HDR_LEN);
	if (ok && !ssr_in_table(addr) && ++s->region_reads == 2) {
		/* The faults of the second read of a region. */
		if (s->mode == EMU_SSR_DUMP_SHORT_READ)
			len--;
		if (s->mode == EMU_SSR_DUMP_LONG_READ)
			len++;
	}
	if (!ok) {
		s->c.dump_bad_reads++;
		emu_log(s->dev, "SSR: read of %#" PRIx64 " bytes at %#" PRIx64 " refused",
			len, addr);
		len = 0;
	} else {
		s->c.dump_reads++;
		s->c.dump_bytes += len;
	}
	put_le32(msg, SSR_CMD_MEMORY_READ_RSP);
	put_le32(msg + 4, (uint32_t)(SSR_READ_RSP_HDR_LEN + len));
	put_le32(msg + 8, s->dbc);
	s->ops->send(s->ctx, msg, SSR_READ_RSP_HDR_LEN + len);
	free(msg);
}

/* The dump is over: the restart goes on with AFTER_POWER_UP. */
static void ssr_dump_over(struct emu_ssr *s)
{
	s->dumping = false;
	s->step++;
	ssr_send_event(s);
}

/* A host message about the crash dump, while one is offered. */
static void ssr_rx_dump(struct emu_ssr *s, uint32_t cmd, const uint8_t *p, size_t len)
{
	uint32_t status = get_le32(p + 12);
	uint64_t addr;

	switch (cmd) {
	case SSR_CMD_DEBUG_XFER_INFO_RSP:
		if (++s->offer_answers > s->offers)
			break;
		if (s->offer_answers == 2) {
			/* OFFER_TWICE: the host must not take the second offer. */
			if (!status)
				break;
			s->c.dumps_declined++;
			emu_log(s->dev, "SSR: DBC%u: second offer declined", s->dbc);
			return;
		}
		if (status) {
			s->c.dumps_declined++;
			emu_log(s->dev, "SSR: DBC%u: crash dump declined", s->dbc);
			ssr_dump_over(s);
		} else if (s->mode == EMU_SSR_DUMP_OFFER_TWICE) {
			ssr_send_offer(s);
		}
		return;
	case SSR_CMD_MEMORY_READ:
		if (len < SSR_DUMP_MSG_LEN)
			break;
		addr = get_le64(p + 16);
		if (s->mode == EMU_SSR_DUMP_CUT_SHORT && !ssr_in_table(addr)) {
			emu_log(s->dev, "SSR: DBC%u: read of %#" PRIx64 " left, restart goes on",
				s->dbc, addr);
			ssr_dump_over(s);
			return;
		}
		if (s->mode == EMU_SSR_DUMP_STALL && !ssr_in_table(addr)) {
			emu_log(s->dev, "SSR: DBC%u: read of %#" PRIx64 " not answered",
				s->dbc, addr);
			return;
		}
		ssr_serve_read(s, addr, get_le64(p + 24));
		return;
	case SSR_CMD_DEBUG_XFER_DONE: {
		uint32_t w[] = { SSR_CMD_DEBUG_XFER_DONE_RSP, SSR_EVENT_LEN, s->dbc,
				 s->mode == EMU_SSR_DUMP_DONE_FAILS };

		s->c.dumps_done++;
		ssr_send_raw(s, w[0], w[1], w[2], w[3], SSR_EVENT_LEN);
		if (s->mode == EMU_SSR_DUMP_LATE_ANSWER) {
			emu_log(s->dev, "SSR: DBC%u: an answer to no read", s->dbc);
			ssr_serve_read(s, emu_memdump_regions[0].addr, 16);
		}
		ssr_dump_over(s);
		return;
	}
	}
	s->c.bad_msgs++;
	emu_log(s->dev, "SSR: host message cmd %#x (%zu bytes) during the dump dropped", cmd, len);
}

void emu_ssr_rx(struct emu_ssr *s, const void *msg, size_t len)
{
	const uint8_t *p = msg;
	uint32_t cmd, mlen, dbc, event;

	if (len < SSR_EVENT_LEN) {
		s->c.bad_msgs++;
		emu_log(s->dev, "SSR: host message of %zu bytes dropped", len);
		return;
	}
	cmd = get_le32(p);
	mlen = get_le32(p + 4);
	dbc = get_le32(p + 8);
	event = get_le32(p + 12);
	if (s->dumping && mlen == len && dbc == s->dbc && cmd != SSR_CMD_EVENT_RSP) {
		ssr_rx_dump(s, cmd, p, len);
		return;
	}
	if (cmd != SSR_CMD_EVENT_RSP || mlen != len) {
		s->c.bad_msgs++;
		emu_log(s->dev, "SSR: host message cmd %#x len %u (%zu bytes) dropped",
			cmd, mlen, len);
		return;
	}
	if (!s->running || s->stalled || dbc != s->dbc) {
		s->c.bad_msgs++;
		emu_log(s->dev, "SSR: answer for DBC%u out of turn", dbc);
		return;
	}
	if (event != ssr_events[s->step]) {
		/* Not taken: the card waits for the answer it wants. */
		s->c.nacks++;
		emu_log(s->dev, "SSR: DBC%u: host answered %#x to %#x", dbc,
			event, ssr_events[s->step]);
		return;
	}

	s->c.acks++;
	if (ssr_events[s->step] == SSR_EV_AFTER_SHUTDOWN && s->stall) {
		s->stalled = true;
		emu_log(s->dev, "SSR: DBC%u: stalled after shutdown", dbc);
		return;
	}
	if (ssr_events[s->step] == SSR_EV_BEFORE_POWER_UP && s->mode >= EMU_SSR_DUMP) {
		ssr_send_dump_offer(s);
		return;
	}
	if (s->step + 1 < NR_EVENTS) {
		s->step++;
		ssr_send_event(s);
		return;
	}
	if (s->cycles_left) {
		/* EMU_SSR_FLOOD: it crashes again at once, the DBC still away. */
		s->cycles_left--;
		s->c.flood_cycles++;
		s->step = 0;
		ssr_send_event(s);
		return;
	}
	s->running = false;
	s->c.completed++;
	emu_log(s->dev, "SSR: DBC%u: subsystem back", dbc);
	if (s->ops->restored)
		s->ops->restored(s->ctx, dbc);
}

int emu_ssr_send_case(struct emu_ssr *s, unsigned int idx)
{
	const struct emu_ssr_case *c;
	uint8_t msg[EMU_SSR_CASE_MAX_LEN];

	if (idx >= emu_ssr_nr_cases)
		return -EINVAL;
	c = &emu_ssr_cases[idx];
	emu_log(s->dev, "SSR: case %s, %u messages", c->name, c->nr_msgs);
	for (unsigned int i = 0; i < c->nr_msgs; i++)
		s->ops->send(s->ctx, msg, emu_ssr_case_msg(c, i, msg));
	s->c.garbage_sent += c->nr_msgs;
	return 0;
}

void emu_ssr_reset(struct emu_ssr *s)
{
	s->running = false;
	s->stalled = false;
	s->stall = false;
	s->cycles_left = 0;
	s->mode = EMU_SSR_NORMAL;
	s->dumping = false;
}

void emu_ssr_counters_print(const struct emu_ssr *s, FILE *out)
{
	fprintf(out, "ssr_started %" PRIu64 "\n", s->c.started);
	fprintf(out, "ssr_completed %" PRIu64 "\n", s->c.completed);
	fprintf(out, "ssr_events_sent %" PRIu64 "\n", s->c.events_sent);
	fprintf(out, "ssr_acks %" PRIu64 "\n", s->c.acks);
	fprintf(out, "ssr_nacks %" PRIu64 "\n", s->c.nacks);
	fprintf(out, "ssr_bad_msgs %" PRIu64 "\n", s->c.bad_msgs);
	fprintf(out, "ssr_garbage_sent %" PRIu64 "\n", s->c.garbage_sent);
	fprintf(out, "ssr_flood_cycles %" PRIu64 "\n", s->c.flood_cycles);
	fprintf(out, "ssr_dumps_offered %" PRIu64 "\n", s->c.dumps_offered);
	fprintf(out, "ssr_dumps_declined %" PRIu64 "\n", s->c.dumps_declined);
	fprintf(out, "ssr_dump_reads %" PRIu64 "\n", s->c.dump_reads);
	fprintf(out, "ssr_dump_bytes %" PRIu64 "\n", s->c.dump_bytes);
	fprintf(out, "ssr_dump_bad_reads %" PRIu64 "\n", s->c.dump_bad_reads);
	fprintf(out, "ssr_dumps_done %" PRIu64 "\n", s->c.dumps_done);
}
