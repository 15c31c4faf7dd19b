// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * The systematic RAS cases (see ras_cases.h).
 *
 * The host takes a report of exactly 104 bytes with magic 0x55aa,
 * version 1 or 2, type 0 (push), a length field of 92, an error type
 * below 3 and a source below 7, and for a temperature report (source 6) a
 * threshold (the syndrome's first word) below 3 (qaic_ras.c). Every other
 * field is the card's to fill: the host logs it and takes it. Its receive
 * buffer holds 105 bytes.
 *
 * Copyright (c) 2026 The qaic authors.
 */
#include <string.h>

#include "case_table.h"
#include "ras.h"
#include "ras_cases.h"

/* Offsets in the report (ras.c) */
#define MAGIC		0
#define VERSION		2
#define SEQ		4
#define TYPE		8
#define ID		9
#define LEN		10
#define RESULT		12
#define SOURCE		16
#define ERR_TYPE	20
#define THRESHOLD	24
#define CE_COUNT	28
#define UE_COUNT	32
#define INTR		36
#define SYN0		40
#define SYN1		44

#define REFUSED		EMU_RAS_CASE_REFUSED
#define CE		EMU_RAS_CASE_CE
#define UE_NF		EMU_RAS_CASE_UE_NF

#define S8(o, x)	{ (o), 1, (uint32_t)(x) }
#define S16(o, x)	{ (o), 2, (uint32_t)(x) }
#define S32(o, x)	{ (o), 4, (uint32_t)(x) }

#define CASE(nm, verdict_, ...)						\
	{ .name = (nm), .verdict = (verdict_), .set = { __VA_ARGS__ } }
#define BYTES(nm, delta)						\
	{ .name = (nm), .verdict = REFUSED, .bytes_delta = (delta) }
/* A temperature report with threshold @thr. */
#define TSENS(nm, verdict_, thr)					\
	CASE(nm, verdict_, S32(SOURCE, RAS_SRC_TSENS), S32(SYN0, thr))

const struct emu_ras_case emu_ras_cases[] = {
	CASE("good", CE),

	/* magic (u16) */
	CASE("magic-0", REFUSED, S16(MAGIC, 0)),
	CASE("magic-1", REFUSED, S16(MAGIC, 1)),
	CASE("magic-minus-1", REFUSED, S16(MAGIC, RAS_MAGIC - 1)),
	CASE("magic-plus-1", REFUSED, S16(MAGIC, RAS_MAGIC + 1)),
	CASE("magic-swapped", REFUSED, S16(MAGIC, 0xaa55)),
	CASE("magic-ones", REFUSED, S16(MAGIC, 0xffff)),

	/* version (u16): 1 and 2 known */
	CASE("version-0", REFUSED, S16(VERSION, 0)),
	CASE("version-1", CE, S16(VERSION, 1)),
	CASE("version-3", REFUSED, S16(VERSION, 3)),
	CASE("version-max-minus-1", REFUSED, S16(VERSION, 0xfffe)),
	CASE("version-ones", REFUSED, S16(VERSION, 0xffff)),

	/* sequence number (u32): the card's own */
	CASE("seq-0", CE, S32(SEQ, 0)),
	CASE("seq-ones", CE, S32(SEQ, 0xffffffffu)),

	/* type (u8): 0 push */
	CASE("type-1", REFUSED, S8(TYPE, 1)),
	CASE("type-response", REFUSED, S8(TYPE, 2)),
	CASE("type-ones", REFUSED, S8(TYPE, 0xff)),
	/* id (u8) */
	CASE("id-ones", CE, S8(ID, 0xff)),

	/* length field (u16): 92 */
	CASE("len-0", REFUSED, S16(LEN, 0)),
	CASE("len-1", REFUSED, S16(LEN, 1)),
	CASE("len-minus-1", REFUSED, S16(LEN, RAS_MSG_LEN - RAS_HDR_LEN - 1)),
	CASE("len-plus-1", REFUSED, S16(LEN, RAS_MSG_LEN - RAS_HDR_LEN + 1)),
	CASE("len-whole", REFUSED, S16(LEN, RAS_MSG_LEN)),
	CASE("len-ones", REFUSED, S16(LEN, 0xffff)),

	/* bytes sent, the header unchanged: 0, 1, a header, +-1, past the buffer */
	BYTES("bytes-0", -RAS_MSG_LEN),
	BYTES("bytes-1", 1 - RAS_MSG_LEN),
	BYTES("bytes-header-minus-1", RAS_HDR_LEN - 1 - RAS_MSG_LEN),
	BYTES("bytes-header", RAS_HDR_LEN - RAS_MSG_LEN),
	BYTES("bytes-minus-1", -1),
	BYTES("bytes-plus-1", 1),
	BYTES("bytes-buffer-plus-1", 2),

	/* result (s32): the card's own */
	CASE("result-ones", CE, S32(RESULT, 0xffffffffu)),
	CASE("result-2p31", CE, S32(RESULT, 0x80000000u)),

	/* source (u32): 0..6 */
	CASE("source-1", CE, S32(SOURCE, 1)),
	CASE("source-nsp-mem", CE, S32(SOURCE, RAS_SRC_NSP_MEM)),
	CASE("source-7", REFUSED, S32(SOURCE, RAS_NR_SOURCES)),
	CASE("source-8", REFUSED, S32(SOURCE, RAS_NR_SOURCES + 1)),
	CASE("source-2p31", REFUSED, S32(SOURCE, 0x80000000u)),
	CASE("source-max-minus-1", REFUSED, S32(SOURCE, 0xfffffffeu)),
	CASE("source-ones", REFUSED, S32(SOURCE, 0xffffffffu)),

	/* error type (u32): 0..2; 1 resets the card (qaic_ras@uncorrectable) */
	CASE("err-type-ue-nf", UE_NF, S32(ERR_TYPE, RAS_UE_NF)),
	CASE("err-type-3", REFUSED, S32(ERR_TYPE, RAS_NR_TYPES)),
	CASE("err-type-2p31", REFUSED, S32(ERR_TYPE, 0x80000000u)),
	CASE("err-type-ones", REFUSED, S32(ERR_TYPE, 0xffffffffu)),
	/* A bad error type on a good source, a bad source of a good type. */
	CASE("err-type-3-tsens", REFUSED, S32(ERR_TYPE, RAS_NR_TYPES),
	     S32(SOURCE, RAS_SRC_TSENS)),
	CASE("source-7-ue-nf", REFUSED, S32(SOURCE, RAS_NR_SOURCES),
	     S32(ERR_TYPE, RAS_UE_NF)),

	/* The card's numbers (u32): taken as they come */
	CASE("threshold-0", CE, S32(THRESHOLD, 0)),
	CASE("threshold-ones", CE, S32(THRESHOLD, 0xffffffffu)),
	CASE("ce-count-ones", CE, S32(CE_COUNT, 0xffffffffu)),
	CASE("ue-count-ones", CE, S32(UE_COUNT, 0xffffffffu)),
	CASE("intr-ones", CE, S32(INTR, 0xffffffffu)),
	CASE("syndrome-ones", CE, S32(SYN0, 0xffffffffu), S32(SYN1, 0xffffffffu)),

	/* A temperature report's threshold crossed (u32): 0..2 */
	TSENS("tsens-lower", CE, 0),
	TSENS("tsens-critical", CE, 2),
	TSENS("tsens-3", REFUSED, 3),
	TSENS("tsens-2p31", REFUSED, 0x80000000u),
	TSENS("tsens-ones", REFUSED, 0xffffffffu),
	/* ... and its temperature (s32), any. */
	CASE("tsens-temp-min", CE, S32(SOURCE, RAS_SRC_TSENS), S32(SYN1, 0x80000000u)),
	CASE("tsens-temp-ones", CE, S32(SOURCE, RAS_SRC_TSENS), S32(SYN1, 0xffffffffu)),
	CASE("tsens-temp-max", CE, S32(SOURCE, RAS_SRC_TSENS), S32(SYN1, 0x7fffffffu)),
	CASE("tsens-ue-nf", UE_NF, S32(SOURCE, RAS_SRC_TSENS), S32(ERR_TYPE, RAS_UE_NF)),
};

const unsigned int emu_ras_nr_cases = sizeof(emu_ras_cases) / sizeof(emu_ras_cases[0]);

_Static_assert(offsetof(struct emu_ras_case, name) == 0, "emu_case_find() reads the name first");

int emu_ras_case_parse(const char *s)
{
	return emu_case_find(s, emu_ras_cases, sizeof(emu_ras_cases[0]), emu_ras_nr_cases);
}

const char *emu_ras_case_verdict_name(unsigned int verdict)
{
	switch (verdict) {
	case EMU_RAS_CASE_CE:
		return "ce";
	case EMU_RAS_CASE_UE_NF:
		return "ue-nonfatal";
	default:
		return "refused";
	}
}

static void put_bytes(uint8_t *p, uint32_t v, unsigned int width)
{
	for (unsigned int i = 0; i < width; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

size_t emu_ras_case_msg(const struct emu_ras_case *c, uint32_t seq, uint8_t *buf)
{
	int len = RAS_MSG_LEN + c->bytes_delta;

	if (len < 0)
		len = 0;
	if (len > EMU_RAS_CASE_MAX_LEN)
		len = EMU_RAS_CASE_MAX_LEN;
	memset(buf, 0, EMU_RAS_CASE_MAX_LEN);
	put_bytes(buf + MAGIC, RAS_MAGIC, 2);
	put_bytes(buf + VERSION, RAS_VERSION, 2);
	put_bytes(buf + SEQ, seq, 4);
	put_bytes(buf + LEN, RAS_MSG_LEN - RAS_HDR_LEN, 2);
	put_bytes(buf + SOURCE, RAS_SRC_SOC_MEM, 4);
	put_bytes(buf + ERR_TYPE, RAS_CE, 4);
	put_bytes(buf + THRESHOLD, 1, 4);
	put_bytes(buf + INTR, 40, 4);
	for (unsigned int i = 0; i < 16; i++)
		put_bytes(buf + SYN0 + 4 * i, 0x1000u * (seq + 1) + i, 4);
	put_bytes(buf + SYN0, 1, 4);		/* upper, for a temperature */
	put_bytes(buf + SYN1, 95, 4);		/* degrees C */
	for (unsigned int i = 0; i < EMU_RAS_CASE_SETS; i++)
		if (c->set[i].width)
			put_bytes(buf + c->set[i].off, c->set[i].v, c->set[i].width);
	return (size_t)len;
}
