/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * The systematic DBC cases: what the card writes of one job's completion,
 * each with one value at a boundary: the req_id of its response (0, the
 * job's own, one past it, the job before, one ring or 2^15 further, max-1,
 * all-ones), its status (0, 1, 2^15, all-ones), the response written
 * twice; the RSPTP the host reads after it (0, its own head, the truth,
 * one past it, nelem-1, nelem, nelem+1, 2^31, all-ones); the REQHP the
 * host reads when the job hangs (the truth, one back, one on, nelem,
 * all-ones). A case is armed for the next response (or, for REQHP, the
 * next REQHP read) of any DBC (EMU_PT_CARD_CASE, manager.h) and applies
 * once.
 *
 * Each case says what a correct host does with the job (qaic_ring.c):
 * completes it, fails it with EIO, at once or only when it looks again
 * after job_timeout_ms; and whether it counts stray responses. The IGT
 * test qaic_card_cases builds this file too: on a fresh DBC it runs one
 * job, arms the case (and a hang, for REQHP), runs a second one, checks
 * its outcome and the count, and runs a round trip through the DBC.
 *
 * Copyright (c) 2026 The qaic authors.
 */
#ifndef QAIC_EMU_DBC_CASES_H
#define QAIC_EMU_DBC_CASES_H

#include <stdint.h>

enum emu_dbc_case_field {
	EMU_DBC_CASE_REQID,	/* the response's req_id */
	EMU_DBC_CASE_STATUS,	/* the response's status */
	EMU_DBC_CASE_TWICE,	/* the response written twice */
	EMU_DBC_CASE_RSPTP,	/* the next RSPTP read after the response */
	EMU_DBC_CASE_REQHP,	/* the next REQHP read; the job hangs */
};

enum emu_dbc_case_base {
	EMU_DBC_ABS,		/* v */
	EMU_DBC_TRUE,		/* the true value (the job's req_id, the index) + v */
	EMU_DBC_NELEM,		/* the ring's elements + v */
};

enum emu_dbc_case_verdict {
	EMU_DBC_CASE_OK,	/* the job completes */
	EMU_DBC_CASE_LATE,	/* it completes, after job_timeout_ms */
	EMU_DBC_CASE_EIO,	/* it fails with EIO at once */
	EMU_DBC_CASE_EIO_LATE,	/* it fails with EIO after job_timeout_ms */
};

/* bad: any number of stray responses, at least one. */
#define EMU_DBC_CASE_SOME	-1

struct emu_dbc_case {
	const char *name;
	uint8_t field;		/* enum emu_dbc_case_field */
	uint8_t base;		/* enum emu_dbc_case_base */
	uint8_t verdict;	/* enum emu_dbc_case_verdict */
	int8_t bad;		/* stray responses the host counts, or SOME */
	int64_t v;
};

extern const struct emu_dbc_case emu_dbc_cases[];
extern const unsigned int emu_dbc_nr_cases;

/* Case number of "name" or of a number below emu_dbc_nr_cases; or -1. */
int emu_dbc_case_parse(const char *s);

/* The value case @c writes or shows: @truth the true one, @nelem the ring's. */
uint32_t emu_dbc_case_value(const struct emu_dbc_case *c, uint32_t truth, uint32_t nelem);

const char *emu_dbc_case_verdict_name(unsigned int verdict);

#endif /* QAIC_EMU_DBC_CASES_H */
