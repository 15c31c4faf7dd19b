// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * The systematic DBC cases (see dbc_cases.h).
 *
 * The host checks (qaic_ring.c): a response's req_id must be a job in
 * flight, found through its slot and compared whole (16 bits); a
 * response of no such job is counted (debugfs bad_responses) and
 * ignored; one of a later job retires the older ones with EIO. A
 * non-zero status fails the job with EIO. RSPTP at or past the ring's
 * end is ignored; below it, the host takes every slot from its head to
 * RSPTP as a response, the stale ones counted. A job that sees no
 * progress for job_timeout_ms makes the host look again at RSPTP, then
 * at REQHP: a REQHP that moved since its last look is progress, and it
 * looks again a timeout later (a lie costs a timeout); one outside the
 * requests in flight is not believed; one that says every request was
 * consumed fails the jobs (responses lost), any other resets the DBC,
 * failing them. Every case is about the
 * job after a first one, on a fresh DBC: its req_id is not 0, the host's
 * response head is 1.
 *
 * Copyright (c) 2026 The qaic authors.
 */

#include "case_table.h"
#include "dbc_cases.h"

#define C(nm, f, b, verdict_, bad_, x)						\
	{ (nm), EMU_DBC_CASE_##f, EMU_DBC_##b, EMU_DBC_CASE_##verdict_, (bad_), (x) }
#define SOME	EMU_DBC_CASE_SOME

const struct emu_dbc_case emu_dbc_cases[] = {
	C("good", REQID, TRUE, OK, 0, 0),

	/* The response's req_id: no job in flight has it. */
	C("reqid-0", REQID, ABS, EIO_LATE, 1, 0),
	C("reqid-minus-1", REQID, TRUE, EIO_LATE, 1, -1),
	C("reqid-plus-1", REQID, TRUE, EIO_LATE, 1, 1),
	C("reqid-nelem", REQID, NELEM, EIO_LATE, 1, 0),
	C("reqid-plus-nelem", REQID, TRUE, EIO_LATE, 1, 16),
	C("reqid-plus-2p15", REQID, TRUE, EIO_LATE, 1, 0x8000),
	C("reqid-max-minus-1", REQID, ABS, EIO_LATE, 1, 0xfffe),
	C("reqid-ones", REQID, ABS, EIO_LATE, 1, 0xffff),
	/* Written twice: the second names a job done. */
	C("rsp-twice", TWICE, TRUE, OK, 1, 0),

	/* The response's status. */
	C("status-0", STATUS, ABS, OK, 0, 0),
	C("status-1", STATUS, ABS, EIO, 0, 1),
	C("status-2p15", STATUS, ABS, EIO, 0, 0x8000),
	C("status-ones", STATUS, ABS, EIO, 0, 0xffff),

	/* RSPTP read after the response. */
	C("rsptp-true", RSPTP, TRUE, OK, 0, 0),
	/* The host's own head: nothing new, until it looks again. */
	C("rsptp-head", RSPTP, TRUE, LATE, 0, -1),
	/*
	 * Ahead: the stale slot is counted; the host's head is then past
	 * the card's, and its next look (the card's MSI for the RSPHP
	 * write) takes the whole ring, stale, as responses.
	 */
	C("rsptp-plus-1", RSPTP, TRUE, OK, SOME, 1),
	/* Behind the head: all the way round the ring. */
	C("rsptp-0", RSPTP, ABS, OK, SOME, 0),
	C("rsptp-nelem-minus-1", RSPTP, NELEM, OK, SOME, -1),
	/* Out of the ring: ignored. */
	C("rsptp-nelem", RSPTP, NELEM, LATE, 0, 0),
	C("rsptp-nelem-plus-1", RSPTP, NELEM, LATE, 0, 1),
	C("rsptp-2p31", RSPTP, ABS, LATE, 0, 0x80000000ll),
	C("rsptp-ones", RSPTP, ABS, LATE, 0, 0xffffffffll),

	/*
	 * REQHP read when the job hangs: the DBC is reset all the same. One
	 * on is the end of the requests: progress, then back, then reset.
	 */
	C("reqhp-true", REQHP, TRUE, EIO_LATE, 0, 0),
	C("reqhp-minus-1", REQHP, TRUE, EIO_LATE, 0, -1),
	C("reqhp-plus-1", REQHP, TRUE, EIO_LATE, 0, 1),
	C("reqhp-plus-2", REQHP, TRUE, EIO_LATE, 0, 2),
	C("reqhp-nelem", REQHP, NELEM, EIO_LATE, 0, 0),
	C("reqhp-ones", REQHP, ABS, EIO_LATE, 0, 0xffffffffll),
};

const unsigned int emu_dbc_nr_cases = sizeof(emu_dbc_cases) / sizeof(emu_dbc_cases[0]);

_Static_assert(offsetof(struct emu_dbc_case, name) == 0, "emu_case_find() reads the name first");

int emu_dbc_case_parse(const char *s)
{
	return emu_case_find(s, emu_dbc_cases, sizeof(emu_dbc_cases[0]), emu_dbc_nr_cases);
}

uint32_t emu_dbc_case_value(const struct emu_dbc_case *c, uint32_t truth, uint32_t nelem)
{
	switch (c->base) {
	case EMU_DBC_TRUE:
		return (uint32_t)((int64_t)truth + c->v);
	case EMU_DBC_NELEM:
		return (uint32_t)((int64_t)nelem + c->v);
	default:
		return (uint32_t)c->v;
	}
}

const char *emu_dbc_case_verdict_name(unsigned int verdict)
{
	static const char *const names[] = { "ok", "late", "eio", "eio-late" };

	return verdict < sizeof(names) / sizeof(names[0]) ? names[verdict] : "?";
}
