/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * The systematic SSR cases: a table of messages the emulated card sends on
 * the QAIC_SSR downlink channel (ssr.h) in mission mode, outside any
 * restart of its own, each with one field (the command, the length word,
 * the DBC id, the event, the bytes sent) at a boundary value: 0, 1,
 * max-1, max, max+1, all-ones, the length plus and minus one, each id one
 * past its table; and short runs of events out of their order. A random
 * fuzzer (malice.c) rarely hits one exact value; this table sends every
 * one of them, all in one boot (EMU_PT_CARD_CASE, manager.h).
 *
 * Each case says what a correct host makes of it: the state the case's
 * DBC is in afterwards as dbc<N>_state shows it (ASSIGNED: unchanged, as
 * every other DBC must stay), the host having dropped or NACKed what it
 * refused. The IGT test qaic_card_cases builds this file too: it keeps
 * every DBC active, sends each case, checks the states, gives a DBC the
 * case moved back through a real restart (EMU_PT_SSR), and runs a round
 * trip through it.
 *
 * Copyright (c) 2026 The qaic authors.
 */
#ifndef QAIC_EMU_SSR_CASES_H
#define QAIC_EMU_SSR_CASES_H

#include <stddef.h>
#include <stdint.h>

/* dbc<N>_state values (upstream Linux's), the verdict of a case. */
enum emu_ssr_case_state {
	EMU_SSR_STATE_IDLE,
	EMU_SSR_STATE_ASSIGNED,		/* unchanged: the host refused it all */
	EMU_SSR_STATE_BEFORE_SHUTDOWN,
	EMU_SSR_STATE_AFTER_SHUTDOWN,
	EMU_SSR_STATE_BEFORE_POWER_UP,
	EMU_SSR_STATE_AFTER_POWER_UP,
};

/* One field: the normal value unless set. */
struct emu_ssr_case_field {
	uint8_t set;
	uint32_t v;
};

struct emu_ssr_case_msg {
	struct emu_ssr_case_field cmd;	/* normal: SSR_CMD_EVENT */
	struct emu_ssr_case_field len;	/* normal: the bytes sent */
	struct emu_ssr_case_field dbc;	/* normal: the case's DBC */
	struct emu_ssr_case_field event; /* normal: BEFORE_SHUTDOWN */
	int32_t bytes_delta;		/* bytes sent: SSR_EVENT_LEN + this */
};

/* Most messages of a case. */
#define EMU_SSR_CASE_MSGS	6
/* Longest message of a case: one byte over the host's buffer. */
#define EMU_SSR_CASE_MAX_LEN	(32 + 1)

struct emu_ssr_case {
	const char *name;
	uint32_t dbc;		/* the DBC the case is about, < 16 */
	uint8_t state;		/* enum emu_ssr_case_state: its state after */
	uint8_t nr_msgs;
	struct emu_ssr_case_msg msg[EMU_SSR_CASE_MSGS];
};

extern const struct emu_ssr_case emu_ssr_cases[];
extern const unsigned int emu_ssr_nr_cases;

/* Case number of "name" or of a number below emu_ssr_nr_cases; or -1. */
int emu_ssr_case_parse(const char *s);

/*
 * Build message @i of case @c into @buf (EMU_SSR_CASE_MAX_LEN bytes).
 * Returns its length in bytes.
 */
size_t emu_ssr_case_msg(const struct emu_ssr_case *c, unsigned int i, uint8_t *buf);

const char *emu_ssr_case_state_name(unsigned int state);

#endif /* QAIC_EMU_SSR_CASES_H */
