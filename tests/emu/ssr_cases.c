// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * The systematic SSR cases (see ssr_cases.h).
 *
 * The host checks a message in this order (qaic_ssr.c): at least a header
 * (12 bytes) received, a length word of at least an event's 16 bytes and
 * at most what arrived, a DBC id below 16, then the command: an event
 * (0x100) is taken when it is the next step of the DBC's restart
 * (BEFORE_SHUTDOWN from any state) and NACKed otherwise; a crash dump
 * offer (0x1) is declined; any other command is dropped. The host's
 * buffer holds 32 bytes. A case's DBC is 1 unless it is about the id.
 *
 * Copyright (c) 2026 The qaic authors.
 */
#include <string.h>

#include "case_table.h"
#include "ssr.h"
#include "ssr_cases.h"

#define V(x)		{ 1, (uint32_t)(x) }
#define ONES		V(0xffffffffu)

#define BS		SSR_EV_BEFORE_SHUTDOWN
#define AS		SSR_EV_AFTER_SHUTDOWN
#define BPU		SSR_EV_BEFORE_POWER_UP
#define APU		SSR_EV_AFTER_POWER_UP

#define ASSIGNED	EMU_SSR_STATE_ASSIGNED
#define IDLE		EMU_SSR_STATE_IDLE
#define S_BS		EMU_SSR_STATE_BEFORE_SHUTDOWN
#define S_AS		EMU_SSR_STATE_AFTER_SHUTDOWN
#define S_BPU		EMU_SSR_STATE_BEFORE_POWER_UP

/* An event of the case's DBC, as the card sends it. */
#define EV(e)		{ .event = V(e) }

/* One message, of DBC 1, with the fields given. */
#define ONE(nm, st, ...)							\
	{ .name = (nm), .dbc = 1, .state = (st), .nr_msgs = 1,			\
	  .msg = { { __VA_ARGS__ } } }
/* A run of events of DBC 1. */
#define RUN(nm, st, n, ...)							\
	{ .name = (nm), .dbc = 1, .state = (st), .nr_msgs = (n),		\
	  .msg = { __VA_ARGS__ } }
/* BEFORE_SHUTDOWN naming DBC @id; taken when @id is below 16. */
#define DBC(nm, id, st)								\
	{ .name = (nm), .dbc = (id) < 16 ? (id) : 1, .state = (st),		\
	  .nr_msgs = 1, .msg = { { .dbc = V(id) } } }

const struct emu_ssr_case emu_ssr_cases[] = {
	/* A BEFORE_SHUTDOWN the host takes: every other case departs from it. */
	ONE("good", S_BS),

	/* The command: 0, the crash dump offer (declined), the host's own, past. */
	ONE("cmd-0", ASSIGNED, .cmd = V(0)),
	ONE("cmd-debug-xfer-info", ASSIGNED, .cmd = V(SSR_CMD_DEBUG_XFER_INFO)),
	ONE("cmd-debug-xfer-info-rsp", ASSIGNED, .cmd = V(SSR_CMD_DEBUG_XFER_INFO_RSP)),
	ONE("cmd-3", ASSIGNED, .cmd = V(3)),
	ONE("cmd-event-minus-1", ASSIGNED, .cmd = V(SSR_CMD_EVENT - 1)),
	ONE("cmd-event-plus-1", ASSIGNED, .cmd = V(SSR_CMD_EVENT + 1)),
	ONE("cmd-event-rsp", ASSIGNED, .cmd = V(SSR_CMD_EVENT_RSP)),
	ONE("cmd-event-2p32", ASSIGNED, .cmd = V(SSR_CMD_EVENT | 0x80000000u)),
	ONE("cmd-max-minus-1", ASSIGNED, .cmd = V(0xfffffffeu)),
	ONE("cmd-ones", ASSIGNED, .cmd = ONES),

	/* The length word against the 16 bytes sent. */
	ONE("len-0", ASSIGNED, .len = V(0)),
	ONE("len-1", ASSIGNED, .len = V(1)),
	ONE("len-header-minus-1", ASSIGNED, .len = V(SSR_HDR_LEN - 1)),
	ONE("len-header", ASSIGNED, .len = V(SSR_HDR_LEN)),
	ONE("len-minus-1", ASSIGNED, .len = V(SSR_EVENT_LEN - 1)),
	ONE("len-plus-1", ASSIGNED, .len = V(SSR_EVENT_LEN + 1)),
	ONE("len-buffer", ASSIGNED, .len = V(SSR_MAX_MSG)),
	ONE("len-buffer-plus-1", ASSIGNED, .len = V(SSR_MAX_MSG + 1)),
	ONE("len-2p31", ASSIGNED, .len = V(0x80000000u)),
	ONE("len-ones", ASSIGNED, .len = ONES),

	/* The bytes sent, the length word saying so. */
	ONE("bytes-0", ASSIGNED, .bytes_delta = -SSR_EVENT_LEN),
	ONE("bytes-1", ASSIGNED, .bytes_delta = 1 - SSR_EVENT_LEN),
	ONE("bytes-header-minus-1", ASSIGNED, .bytes_delta = SSR_HDR_LEN - 1 - SSR_EVENT_LEN),
	ONE("bytes-header", ASSIGNED, .bytes_delta = SSR_HDR_LEN - SSR_EVENT_LEN),
	ONE("bytes-minus-1", ASSIGNED, .bytes_delta = -1),
	/* Longer than an event, within the buffer: the rest is ignored. */
	ONE("bytes-plus-1", S_BS, .bytes_delta = 1),
	ONE("bytes-buffer", S_BS, .bytes_delta = SSR_MAX_MSG - SSR_EVENT_LEN),
	ONE("bytes-buffer-plus-1", ASSIGNED, .bytes_delta = SSR_MAX_MSG + 1 - SSR_EVENT_LEN),
	/* 16 bytes said, 32 sent: taken. */
	ONE("bytes-buffer-len-16", S_BS, .len = V(SSR_EVENT_LEN),
	    .bytes_delta = SSR_MAX_MSG - SSR_EVENT_LEN),
	/* 33 said in 16 sent, and in 32. */
	ONE("bytes-buffer-len-plus-1", ASSIGNED, .len = V(SSR_MAX_MSG + 1),
	    .bytes_delta = SSR_MAX_MSG - SSR_EVENT_LEN),

	/* The DBC id: the first, the last, one past the table, the maxima. */
	DBC("dbc-0", 0, S_BS),
	DBC("dbc-14", 14, S_BS),
	DBC("dbc-15", 15, S_BS),
	DBC("dbc-16", 16, ASSIGNED),
	DBC("dbc-17", 17, ASSIGNED),
	DBC("dbc-2p31", 0x80000000u, ASSIGNED),
	DBC("dbc-max-minus-1", 0xfffffffeu, ASSIGNED),
	DBC("dbc-ones", 0xffffffffu, ASSIGNED),
	/* A crash dump offered for a DBC past the table. */
	ONE("debug-xfer-info-dbc-16", ASSIGNED, .cmd = V(SSR_CMD_DEBUG_XFER_INFO), .dbc = V(16)),

	/* The event: 0, NACK, two bits, none of the four, the maxima. */
	ONE("event-0", ASSIGNED, .event = V(0)),
	ONE("event-nack", ASSIGNED, .event = V(SSR_EV_NACK)),
	ONE("event-3", ASSIGNED, .event = V(BS | SSR_EV_NACK)),
	ONE("event-bs-as", ASSIGNED, .event = V(BS | AS)),
	ONE("event-0x20", ASSIGNED, .event = V(APU << 1)),
	ONE("event-2p31", ASSIGNED, .event = V(0x80000000u)),
	ONE("event-max-minus-1", ASSIGNED, .event = V(0xfffffffeu)),
	ONE("event-ones", ASSIGNED, .event = ONES),
	/* Each later event with no restart begun. */
	ONE("event-after-shutdown-first", ASSIGNED, .event = V(AS)),
	ONE("event-before-power-up-first", ASSIGNED, .event = V(BPU)),
	ONE("event-after-power-up-first", ASSIGNED, .event = V(APU)),

	/* Events out of their order. */
	RUN("before-shutdown-twice", S_BS, 2, EV(BS), EV(BS)),
	RUN("after-shutdown-twice", S_AS, 3, EV(BS), EV(AS), EV(AS)),
	RUN("skip-after-shutdown", S_BS, 2, EV(BS), EV(BPU)),
	RUN("skip-to-after-power-up", S_BS, 2, EV(BS), EV(APU)),
	RUN("back-to-after-shutdown", S_BPU, 4, EV(BS), EV(AS), EV(BPU), EV(AS)),
	RUN("restart-mid-restart", S_BS, 3, EV(BS), EV(AS), EV(BS)),
	/* All four: the host takes the DBC back to IDLE; then more. */
	RUN("walk", IDLE, 4, EV(BS), EV(AS), EV(BPU), EV(APU)),
	RUN("walk-after-power-up-twice", IDLE, 5, EV(BS), EV(AS), EV(BPU), EV(APU), EV(APU)),
	RUN("walk-then-before-shutdown", S_BS, 5, EV(BS), EV(AS), EV(BPU), EV(APU), EV(BS)),
	/* Another DBC's step in the middle: that DBC stays as it was. */
	RUN("other-dbc-mid-restart", S_AS, 3, EV(BS), { .dbc = V(2), .event = V(AS) }, EV(AS)),
	/* Refused messages in the middle change nothing. */
	RUN("garbage-mid-restart", S_AS, 6, EV(BS), { .dbc = V(16), .event = V(AS) },
	    { .len = V(SSR_EVENT_LEN + 1), .event = V(AS) }, { .cmd = V(0x4000), .event = V(AS) },
	    { .event = V(0x80) }, EV(AS)),
	RUN("debug-xfer-info-mid-restart", S_AS, 3, EV(BS),
	    { .cmd = V(SSR_CMD_DEBUG_XFER_INFO) }, EV(AS)),
};

const unsigned int emu_ssr_nr_cases = sizeof(emu_ssr_cases) / sizeof(emu_ssr_cases[0]);

_Static_assert(offsetof(struct emu_ssr_case, name) == 0, "emu_case_find() reads the name first");

int emu_ssr_case_parse(const char *s)
{
	return emu_case_find(s, emu_ssr_cases, sizeof(emu_ssr_cases[0]), emu_ssr_nr_cases);
}

const char *emu_ssr_case_state_name(unsigned int state)
{
	static const char *const names[] = {
		"idle", "assigned", "before-shutdown", "after-shutdown",
		"before-power-up", "after-power-up",
	};

	return state < sizeof(names) / sizeof(names[0]) ? names[state] : "?";
}

static void put32(uint8_t *p, uint32_t v)
{
	for (unsigned int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static uint32_t field(const struct emu_ssr_case_field *f, uint32_t normal)
{
	return f->set ? f->v : normal;
}

size_t emu_ssr_case_msg(const struct emu_ssr_case *c, unsigned int i, uint8_t *buf)
{
	const struct emu_ssr_case_msg *m = &c->msg[i];
	int64_t len = (int64_t)SSR_EVENT_LEN + m->bytes_delta;

	if (len < 0)
		len = 0;
	if (len > EMU_SSR_CASE_MAX_LEN)
		len = EMU_SSR_CASE_MAX_LEN;
	memset(buf, 0, EMU_SSR_CASE_MAX_LEN);
	put32(buf, field(&m->cmd, SSR_CMD_EVENT));
	put32(buf + 4, field(&m->len, (uint32_t)len));
	put32(buf + 8, field(&m->dbc, c->dbc));
	put32(buf + 12, field(&m->event, SSR_EV_BEFORE_SHUTDOWN));
	return (size_t)len;
}
