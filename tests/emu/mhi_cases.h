/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * The systematic MHI cases: one event the card puts on an event ring in
 * mission mode, each field at a boundary value: a state change to every
 * MHI state, one past the table and all-ones; an execution environment
 * change to every EE, one past the table and all-ones; a command
 * completion for no command; a transfer completion on a channel never
 * started, the last channel, one past the table and all-ones, and one
 * pointing outside its ring; an event type the host has no use for. The
 * card itself stays in mission mode: only the event lies.
 *
 * Each case says what a correct host does: nothing the user sees (the
 * card works on), or a recovery (the card reset or brought back to mission
 * mode by the host), after which the card works again. Armed by
 * EMU_PT_CARD_CASE (manager.h), sent at once. The IGT test qaic_mhi_cases
 * builds this file too.
 *
 * Copyright (c) 2026 The qaic authors.
 */
#ifndef QAIC_EMU_MHI_CASES_H
#define QAIC_EMU_MHI_CASES_H

#include <stdint.h>

enum emu_mhi_case_event {
	EMU_MHI_CASE_STATE,	/* a state change to v */
	EMU_MHI_CASE_EE,	/* an EE change to v */
	EMU_MHI_CASE_CMD,	/* a command completion, pointer v */
	EMU_MHI_CASE_XFER,	/* a transfer completion on channel v */
	EMU_MHI_CASE_XFER_PTR,	/* one on QAIC_CONTROL's downlink, pointer v */
	EMU_MHI_CASE_TYPE,	/* an event of type v */
};

enum emu_mhi_case_verdict {
	EMU_MHI_CASE_UP,	/* the card works on */
	EMU_MHI_CASE_RECOVERS,	/* back to mission mode, then works */
};

struct emu_mhi_case {
	const char *name;
	uint8_t event;		/* enum emu_mhi_case_event */
	uint8_t verdict;	/* enum emu_mhi_case_verdict */
	uint64_t v;
};

extern const struct emu_mhi_case emu_mhi_cases[];
extern const unsigned int emu_mhi_nr_cases;

/* Case number of "name" or of a number below emu_mhi_nr_cases; or -1. */
int emu_mhi_case_parse(const char *s);

const char *emu_mhi_case_verdict_name(unsigned int verdict);

#endif /* QAIC_EMU_MHI_CASES_H */
