/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * The systematic NNC cases: the card manager's answers to the host's
 * MANAGE messages (manager.c), each with one field at a boundary value:
 * the message header (magic, sequence number, length, transaction count,
 * handle, partition, pad, CRC; bytes past the length), the header of the
 * answering transaction (type: 0, a request's type, one the host does not
 * take, one past the table, all-ones; length: 0, a header minus one, the
 * truth plus and minus one, all-ones), and the fields of each answer the
 * host reads: a status (version, status, flags), an activate (status, the
 * DBC it names: the truth, another, the last, one past the table,
 * all-ones; options), a deactivate (status, DBC), a passthrough (length)
 * and a request for the rest of a DMA transfer (chunk id, bytes so far).
 *
 * A case is armed by EMU_PT_CARD_CASE (manager.h) and applies once, to the
 * first answer of a later message that holds a transaction of the case's
 * type: the message that armed it is answered as usual. Each case says
 * which MANAGE call the IGT test qaic_nnc_cases makes for it, and what a
 * correct host returns for that call: the answer (0), the card's refusal
 * (-ECANCELED), a malformed answer (-EIO) or an answer it cannot even
 * match to its request, dropped, so the call times out (-ETIMEDOUT).
 *
 * Copyright (c) 2026 The qaic authors.
 */
#ifndef QAIC_EMU_NNC_CASES_H
#define QAIC_EMU_NNC_CASES_H

#include <stdint.h>

/* The MANAGE call the case answers. */
enum emu_nnc_case_call {
	EMU_NNC_CALL_STATUS,		/* one STATUS transaction */
	EMU_NNC_CALL_ACTIVATE,		/* one ACTIVATE */
	EMU_NNC_CALL_DEACTIVATE,	/* EMU_PT_DEACTIVATE and DEACTIVATE of an active DBC */
	EMU_NNC_CALL_PASSTHROUGH,	/* one passthrough the card does not know */
	EMU_NNC_CALL_DMA_XFER,		/* a DMA transfer of several messages */
};

/* Where the field is. */
enum emu_nnc_case_where {
	EMU_NNC_NONE,	/* nothing changes */
	EMU_NNC_HDR,	/* at off in the message header */
	EMU_NNC_TRANS,	/* at off in the first transaction of the case's type */
	EMU_NNC_GROW,	/* v zero bytes appended, counted in the header's length */
};

enum emu_nnc_case_base {
	EMU_NNC_ABS,	/* v */
	EMU_NNC_TRUE,	/* the value the card wrote + v (signed) */
};

enum emu_nnc_case_verdict {
	EMU_NNC_CASE_OK,	/* the call succeeds */
	EMU_NNC_CASE_CANCELED,	/* -ECANCELED: the card refused */
	EMU_NNC_CASE_EIO,	/* -EIO: the answer is malformed */
	EMU_NNC_CASE_TIMEDOUT,	/* -ETIMEDOUT: the answer was dropped */
};

struct emu_nnc_case {
	const char *name;
	uint8_t call;		/* enum emu_nnc_case_call */
	uint8_t where;		/* enum emu_nnc_case_where */
	uint8_t off;		/* byte offset of the field */
	uint8_t width;		/* its bytes: 2, 4 or 8 */
	uint8_t base;		/* enum emu_nnc_case_base */
	uint8_t verdict;	/* enum emu_nnc_case_verdict */
	int64_t v;
};

extern const struct emu_nnc_case emu_nnc_cases[];
extern const unsigned int emu_nnc_nr_cases;

/* Case number of "name" or of a number below emu_nnc_nr_cases; or -1. */
int emu_nnc_case_parse(const char *s);

/* The answer's transaction type case @c waits for. */
uint32_t emu_nnc_case_trans_type(const struct emu_nnc_case *c);

/*
 * Applies case @c to the answer of @len bytes at @msg, room for @cap; the
 * header is written, its CRC not yet. Returns the answer's new length, or
 * 0 if @c does not apply to it (no transaction of its type).
 */
uint32_t emu_nnc_case_apply(const struct emu_nnc_case *c, uint8_t *msg, uint32_t len,
			    uint32_t cap);

const char *emu_nnc_case_verdict_name(unsigned int verdict);

#endif /* QAIC_EMU_NNC_CASES_H */
