// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * The systematic NNC cases (see nnc_cases.h).
 *
 * The host's rules (qaic_cntl.c, qaic_nnc.c): an answer is matched to its
 * request by its sequence number, once its header is sound (the magic; a
 * length from the header's own 32 bytes up to what was received and the
 * 4 KiB buffer); one that cannot be matched is dropped, and the request
 * times out. A matched answer must then be exactly its transactions, each
 * at least its 8-byte header, of a type the host takes, of that type's
 * length, answering what was asked; anything else fails the call with
 * -EIO. A status, activate or deactivate with a non-zero status is the
 * card refusing (-ECANCELED); a DBC id past the card's 16 is malformed;
 * the CRC flag of a card that does not use CRCs asks for a CRC the answer
 * does not have (-EIO). The handle, partition, pad and CRC fields of a
 * card without CRCs, the version and the options are not checked: they
 * are for the user. A DMA_XFER_CONT must repeat the transfer's chunk id
 * and count the bytes sent so far.
 *
 * Copyright (c) 2026 The qaic authors.
 */

#include <string.h>

#include "case_table.h"
#include "le_bytes.h"
#include "nnc_cases.h"
#include "nnc_wire.h"

/* Offsets of the transactions' fields (manager.c); the header's: nnc_wire.h */
#define TH_TYPE		0
#define TH_LEN		4
#define F_8		8	/* status: major (u16); others: status */
#define F_10		10	/* status: minor (u16) */
#define F_12		12	/* status: status; activate, deactivate: DBC */
#define F_16		16	/* status: flags; activate: options; cont: bytes */

#define C(nm, call_, where_, off_, width_, base_, verdict_, x)			\
	{ (nm), EMU_NNC_CALL_##call_, EMU_NNC_##where_, (off_), (width_),		\
	  EMU_NNC_##base_, EMU_NNC_CASE_##verdict_, (x) }
/* A header field of the answer to a status call */
#define HDR(nm, off_, base_, verdict_, x)	C(nm, STATUS, HDR, off_, 4, base_, verdict_, x)
/* A field of the answering transaction of @call_ */
#define TR(nm, call_, off_, width_, base_, verdict_, x)				\
	C(nm, call_, TRANS, off_, width_, base_, verdict_, x)

#define ONES32	0xffffffffll
#define ONES64	-1ll

const struct emu_nnc_case emu_nnc_cases[] = {
	C("good", STATUS, NONE, 0, 0, ABS, OK, 0),

	/* The header: matched to its request, or dropped. */
	HDR("magic-0", H_MAGIC, ABS, TIMEDOUT, 0),
	HDR("magic-ones", H_MAGIC, ABS, TIMEDOUT, ONES32),
	HDR("seq-minus-1", H_SEQ, TRUE, TIMEDOUT, -1),
	HDR("seq-plus-1", H_SEQ, TRUE, TIMEDOUT, 1),
	HDR("seq-ones", H_SEQ, ABS, TIMEDOUT, ONES32),
	HDR("len-0", H_LEN, ABS, TIMEDOUT, 0),
	HDR("len-header-minus-1", H_LEN, ABS, TIMEDOUT, HDR_LEN - 1),
	HDR("len-header", H_LEN, ABS, EIO, HDR_LEN),
	HDR("len-minus-1", H_LEN, TRUE, EIO, -1),
	HDR("len-plus-1", H_LEN, TRUE, TIMEDOUT, 1),
	HDR("len-max", H_LEN, ABS, TIMEDOUT, 0x1000),
	HDR("len-max-plus-1", H_LEN, ABS, TIMEDOUT, 0x1001),
	HDR("len-ones", H_LEN, ABS, TIMEDOUT, ONES32),
	HDR("count-0", H_COUNT, ABS, EIO, 0),
	HDR("count-plus-1", H_COUNT, TRUE, EIO, 1),
	HDR("count-ones", H_COUNT, ABS, EIO, ONES32),
	/* For the user, or for a card with CRCs: not checked. */
	HDR("handle-ones", H_HANDLE, ABS, OK, ONES32),
	HDR("partition-ones", H_PART, ABS, OK, ONES32),
	HDR("pad-ones", H_PAD, ABS, OK, ONES32),
	HDR("crc-ones", H_CRC, ABS, OK, ONES32),
	/* Bytes past the transactions: one, and an empty transaction header. */
	C("trailing-1", STATUS, GROW, 0, 0, ABS, EIO, 1),
	C("trailing-8", STATUS, GROW, 0, 0, ABS, EIO, 8),

	/* The transaction's header. */
	TR("type-0", STATUS, TH_TYPE, 4, ABS, EIO, 0),
	TR("type-status-to-dev", STATUS, TH_TYPE, 4, ABS, EIO, 15),
	TR("type-terminate", STATUS, TH_TYPE, 4, ABS, EIO, 16),
	TR("type-cont", STATUS, TH_TYPE, 4, ABS, EIO, 18),
	TR("type-past-table", STATUS, TH_TYPE, 4, ABS, EIO, 21),
	TR("type-ones", STATUS, TH_TYPE, 4, ABS, EIO, ONES32),
	TR("trans-len-0", STATUS, TH_LEN, 4, ABS, EIO, 0),
	TR("trans-len-header-minus-1", STATUS, TH_LEN, 4, ABS, EIO, 7),
	TR("trans-len-minus-1", STATUS, TH_LEN, 4, TRUE, EIO, -1),
	TR("trans-len-plus-1", STATUS, TH_LEN, 4, TRUE, EIO, 1),
	TR("trans-len-ones", STATUS, TH_LEN, 4, ABS, EIO, ONES32),

	/* A status: the version is the user's, a non-zero status a refusal. */
	TR("status-major-0", STATUS, F_8, 2, ABS, OK, 0),
	TR("status-major-ones", STATUS, F_8, 2, ABS, OK, 0xffff),
	TR("status-minor-ones", STATUS, F_10, 2, ABS, OK, 0xffff),
	TR("status-status-1", STATUS, F_12, 4, ABS, CANCELED, 1),
	TR("status-status-ones", STATUS, F_12, 4, ABS, CANCELED, ONES32),
	TR("status-flags-crc", STATUS, F_16, 8, ABS, EIO, 1),
	TR("status-flags-not-crc", STATUS, F_16, 8, ABS, OK, ONES64 - 1),

	/* An activate: the DBC it names is the file's, if there is one. */
	C("activate-good", ACTIVATE, NONE, 0, 0, ABS, OK, 0),
	TR("activate-status-1", ACTIVATE, F_8, 4, ABS, CANCELED, 1),
	TR("activate-status-ones", ACTIVATE, F_8, 4, ABS, CANCELED, ONES32),
	TR("activate-dbc-plus-1", ACTIVATE, F_12, 4, TRUE, OK, 1),
	TR("activate-dbc-15", ACTIVATE, F_12, 4, ABS, OK, 15),
	TR("activate-dbc-16", ACTIVATE, F_12, 4, ABS, EIO, 16),
	TR("activate-dbc-ones", ACTIVATE, F_12, 4, ABS, EIO, ONES32),
	TR("activate-options-ones", ACTIVATE, F_16, 8, ABS, OK, ONES64),
	TR("activate-len-minus-1", ACTIVATE, TH_LEN, 4, TRUE, EIO, -1),
	TR("activate-type-deactivate", ACTIVATE, TH_TYPE, 4, ABS, EIO, 11),

	/* A deactivate: another DBC's release is not this call's. */
	C("deactivate-good", DEACTIVATE, NONE, 0, 0, ABS, OK, 0),
	TR("deactivate-status-1", DEACTIVATE, F_8, 4, ABS, CANCELED, 1),
	TR("deactivate-status-ones", DEACTIVATE, F_8, 4, ABS, CANCELED, ONES32),
	TR("deactivate-dbc-plus-1", DEACTIVATE, F_12, 4, TRUE, OK, 1),
	TR("deactivate-dbc-16", DEACTIVATE, F_12, 4, ABS, EIO, 16),
	TR("deactivate-dbc-ones", DEACTIVATE, F_12, 4, ABS, EIO, ONES32),
	TR("deactivate-len-plus-1", DEACTIVATE, TH_LEN, 4, TRUE, EIO, 1),

	/* A passthrough: whole 8-byte words. */
	C("passthrough-good", PASSTHROUGH, NONE, 0, 0, ABS, OK, 0),
	TR("passthrough-len-minus-1", PASSTHROUGH, TH_LEN, 4, TRUE, EIO, -1),
	TR("passthrough-len-minus-8", PASSTHROUGH, TH_LEN, 4, TRUE, EIO, -8),
	TR("passthrough-len-header", PASSTHROUGH, TH_LEN, 4, ABS, EIO, 8),

	/* The request for the rest of a DMA transfer. */
	C("cont-good", DMA_XFER, NONE, 0, 0, ABS, OK, 0),
	TR("cont-chunk-0", DMA_XFER, F_8, 4, ABS, EIO, 0),
	TR("cont-chunk-plus-1", DMA_XFER, F_8, 4, TRUE, EIO, 1),
	TR("cont-chunk-ones", DMA_XFER, F_8, 4, ABS, EIO, ONES32),
	TR("cont-bytes-0", DMA_XFER, F_16, 8, ABS, EIO, 0),
	TR("cont-bytes-minus-1", DMA_XFER, F_16, 8, TRUE, EIO, -1),
	TR("cont-bytes-plus-1", DMA_XFER, F_16, 8, TRUE, EIO, 1),
	TR("cont-bytes-ones", DMA_XFER, F_16, 8, ABS, EIO, ONES64),
	TR("cont-len-plus-8", DMA_XFER, TH_LEN, 4, TRUE, EIO, 8),
};

const unsigned int emu_nnc_nr_cases = sizeof(emu_nnc_cases) / sizeof(emu_nnc_cases[0]);

_Static_assert(offsetof(struct emu_nnc_case, name) == 0, "emu_case_find() reads the name first");

int emu_nnc_case_parse(const char *s)
{
	return emu_case_find(s, emu_nnc_cases, sizeof(emu_nnc_cases[0]), emu_nnc_nr_cases);
}

uint32_t emu_nnc_case_trans_type(const struct emu_nnc_case *c)
{
	static const uint32_t types[] = {
		[EMU_NNC_CALL_STATUS] = 14,		/* STATUS_FROM_DEV */
		[EMU_NNC_CALL_ACTIVATE] = 8,		/* ACTIVATE_FROM_DEV */
		[EMU_NNC_CALL_DEACTIVATE] = 11,		/* DEACTIVATE_FROM_DEV */
		[EMU_NNC_CALL_PASSTHROUGH] = 3,		/* PASSTHROUGH_FROM_DEV */
		[EMU_NNC_CALL_DMA_XFER] = 18,		/* DMA_XFER_CONT */
	};

	return c->call < sizeof(types) / sizeof(types[0]) ? types[c->call] : 0;
}

/* Offset of the first transaction of @type in the answer, or 0. */
static uint32_t find_trans(const uint8_t *msg, uint32_t len, uint32_t type)
{
	uint32_t count = get_le32(msg + H_COUNT), off = HDR_LEN;

	for (uint32_t i = 0; i < count && len - off >= 8; i++) {
		uint32_t tlen = get_le32(msg + off + TH_LEN);

		if (get_le32(msg + off + TH_TYPE) == type)
			return off;
		if (tlen < 8 || tlen > len - off)
			break;
		off += tlen;
	}
	return 0;
}

uint32_t emu_nnc_case_apply(const struct emu_nnc_case *c, uint8_t *msg, uint32_t len,
			    uint32_t cap)
{
	uint32_t at = find_trans(msg, len, emu_nnc_case_trans_type(c));
	uint8_t *p;

	if (!at)
		return 0;
	switch (c->where) {
	case EMU_NNC_HDR:
		p = msg + c->off;
		break;
	case EMU_NNC_TRANS:
		p = msg + at + c->off;
		break;
	case EMU_NNC_GROW:
		if (c->v < 0 || (uint64_t)c->v > cap - len)
			return 0;
		memset(msg + len, 0, (size_t)c->v);
		len += (uint32_t)c->v;
		put_le32(msg + H_LEN, len);
		return len;
	default:
		return len;
	}
	if (p + c->width > msg + len)
		return 0;
	put_le_bytes(p, c->base == EMU_NNC_TRUE ? get_le_bytes(p, c->width) + (uint64_t)c->v :
						   (uint64_t)c->v, c->width);
	return len;
}

const char *emu_nnc_case_verdict_name(unsigned int verdict)
{
	static const char *const names[] = { "ok", "canceled", "eio", "timedout" };

	return verdict < sizeof(names) / sizeof(names[0]) ? names[verdict] : "?";
}
