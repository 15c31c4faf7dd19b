// SPDX-License-Identifier: GPL-2.0-only
/*
 * RAS reports on the QAIC_STATUS channel (see ras.h).
 *
 * Copyright (c) 2026 The qaic authors.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "device.h"
#include "le_bytes.h"
#include "ras.h"
#include "ras_cases.h"

/* Offsets in the message */
#define OFF_MAGIC	0
#define OFF_VERSION	2
#define OFF_SEQ		4
#define OFF_TYPE	8
#define OFF_ID		9
#define OFF_LEN		10
#define OFF_RESULT	12
#define OFF_SOURCE	16
#define OFF_ERR_TYPE	20
#define OFF_THRESHOLD	24
#define OFF_CE_COUNT	28
#define OFF_UE_COUNT	32
#define OFF_INTR	36
#define OFF_SYNDROME	40

#define RAS_TYPE_PUSH	0
#define RAS_TYPE_RESP	2

/* Largest message sent (RAS_FLAW_LONG) */
#define RAS_MAX_SENT	200

struct emu_ras {
	struct emu_device *dev;
	const struct emu_ras_ops *ops;
	void *ctx;
	uint32_t seq;
	uint32_t ce, ue;	/* the card's own counts, in its reports */
	uint64_t reports, flawed;
};

struct emu_ras *emu_ras_create(struct emu_device *dev,
			       const struct emu_ras_ops *ops, void *ctx)
{
	struct emu_ras *r = calloc(1, sizeof(*r));

	if (!r)
		return NULL;
	r->dev = dev;
	r->ops = ops;
	r->ctx = ctx;
	return r;
}

void emu_ras_destroy(struct emu_ras *r)
{
	free(r);
}

/* A syndrome that looks like its source's: addresses, counts, a temperature. */
static void fill_syndrome(uint8_t *syn, unsigned int source, uint32_t seq)
{
	for (unsigned int i = 0; i < 16; i++)
		put_le32(syn + 4 * i, 0x1000u * (seq + 1) + i);
	if (source == RAS_SRC_TSENS) {
		put_le32(syn, 1);		/* upper threshold */
		put_le32(syn + 4, 95);		/* degrees C */
	}
}

int emu_ras_report(struct emu_ras *r, unsigned int source, unsigned int type,
		   unsigned int flaw)
{
	uint8_t msg[RAS_MAX_SENT] = { 0 };
	size_t len = RAS_MSG_LEN;

	if (source >= RAS_NR_SOURCES || type >= RAS_NR_TYPES || flaw >= RAS_NR_FLAWS)
		return -EINVAL;

	if (type == RAS_CE)
		r->ce++;
	else
		r->ue++;
	put_le16(msg + OFF_MAGIC, RAS_MAGIC);
	put_le16(msg + OFF_VERSION, RAS_VERSION);
	put_le32(msg + OFF_SEQ, r->seq++);
	msg[OFF_TYPE] = RAS_TYPE_PUSH;
	msg[OFF_ID] = 0;
	put_le16(msg + OFF_LEN, RAS_MSG_LEN - RAS_HDR_LEN);
	put_le32(msg + OFF_SOURCE, source);
	put_le32(msg + OFF_ERR_TYPE, type);
	put_le32(msg + OFF_THRESHOLD, 1);
	put_le32(msg + OFF_CE_COUNT, r->ce);
	put_le32(msg + OFF_UE_COUNT, r->ue);
	put_le32(msg + OFF_INTR, 40 + source);
	fill_syndrome(msg + OFF_SYNDROME, source, r->seq);

	switch (flaw) {
	case RAS_FLAW_MAGIC:
		put_le16(msg + OFF_MAGIC, 0xaa55);
		break;
	case RAS_FLAW_VERSION_0:
		put_le16(msg + OFF_VERSION, 0);
		break;
	case RAS_FLAW_VERSION_NEW:
		put_le16(msg + OFF_VERSION, RAS_VERSION + 1);
		break;
	case RAS_FLAW_TYPE:
		msg[OFF_TYPE] = RAS_TYPE_RESP;
		break;
	case RAS_FLAW_LEN:
		put_le16(msg + OFF_LEN, RAS_MSG_LEN - RAS_HDR_LEN - 1);
		break;
	case RAS_FLAW_ERR_TYPE:
		put_le32(msg + OFF_ERR_TYPE, RAS_NR_TYPES);
		break;
	case RAS_FLAW_SOURCE:
		put_le32(msg + OFF_SOURCE, RAS_NR_SOURCES);
		break;
	case RAS_FLAW_THRESHOLD:
		put_le32(msg + OFF_SOURCE, RAS_SRC_TSENS);
		put_le32(msg + OFF_SYNDROME, 3);
		break;
	case RAS_FLAW_SHORT:
		len = 60;
		break;
	case RAS_FLAW_LONG:
		len = RAS_MAX_SENT;
		break;
	default:
		break;
	}
	r->reports++;
	if (flaw)
		r->flawed++;
	emu_log(r->dev, "RAS: report %u: source %u type %u flaw %u, %zu bytes",
		r->seq - 1, source, type, flaw, len);
	r->ops->send(r->ctx, msg, len);
	return 0;
}

int emu_ras_send_case(struct emu_ras *r, unsigned int idx)
{
	uint8_t msg[EMU_RAS_CASE_MAX_LEN];
	size_t len;

	if (idx >= emu_ras_nr_cases)
		return -EINVAL;
	len = emu_ras_case_msg(&emu_ras_cases[idx], r->seq++, msg);
	r->reports++;
	r->flawed++;
	emu_log(r->dev, "RAS: case %s, %zu bytes", emu_ras_cases[idx].name, len);
	r->ops->send(r->ctx, msg, len);
	return 0;
}

void emu_ras_counters_print(const struct emu_ras *r, FILE *out)
{
	fprintf(out, "ras_reports %" PRIu64 "\n", r->reports);
	fprintf(out, "ras_flawed %" PRIu64 "\n", r->flawed);
}
