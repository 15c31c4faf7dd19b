// SPDX-License-Identifier: GPL-2.0-only
/*
 * The on-card manager (QSM) of the emulated AIC100: answers NNC control
 * protocol 5.0 messages from the QAIC_CONTROL MHI channel.
 *
 * Wire format: what the Linux 6.12 qaic driver speaks (the facts, not the
 * code: drivers/accel/qaic/qaic_control.c), which our driver's codec
 * (drivers/accel/qaic/qaic_nnc_wire.h) speaks too. That header is not used
 * here because it pulls kernel-only headers; the layouts are restated below
 * as offsets and every field is read and written byte by byte, little
 * endian, so nothing depends on the alignment of the host's buffer.
 *
 * A message is handled in two passes. The first checks its structure
 * (magic, lengths, count, padding, CRC, transaction types and their
 * minimum lengths) without acting on anything; a message that fails gets
 * one STATUS_FROM_DEV answer carrying the error status (or no answer at
 * all if it is too short to have a header or the magic is wrong). The
 * second pass executes each transaction in order and answers each one.
 * tests/emu/manual.rst, "The on-card manager", describes
 * the behaviour in full.
 *
 * Copyright (c) 2026 The qaic authors.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "card.h"
#include "crc32.h"
#include "dbc.h"		/* struct emu_dbc_counters */
#include "device.h"
#include "manager.h"
#include "nnc_cases.h"
#include "nnc_fw.h"
#include "nnc_wire.h"
#include "ssr.h"
#include "timesync.h"
#include "le_bytes.h"

/* Transaction types: the QAIC_TRANS_* values of the uapi header. */
#define T_PASSTHROUGH_TO_DEV		4
#define T_PASSTHROUGH_FROM_DEV		3
#define T_DMA_XFER_TO_DEV		6
#define T_ACTIVATE_FROM_DEV		8
#define T_ACTIVATE_TO_DEV		9
#define T_DEACTIVATE_FROM_DEV		11
#define T_STATUS_FROM_DEV		14
#define T_STATUS_TO_DEV			15
#define T_TERMINATE_FROM_DEV		16
#define T_TERMINATE_TO_DEV		17
#define T_DMA_XFER_CONT			18
#define T_VALIDATE_PARTITION_FROM_DEV	19
#define T_VALIDATE_PARTITION_TO_DEV	20

#define NNC_MAGIC		0x43494151u	/* "QAIC" little endian */
#define NNC_MAX_REQ_LEN		0x10000u	/* host -> device, one message */
#define NNC_MAX_RSP_LEN		0x1000u		/* device -> host buffer */
#define NNC_NO_PARTITION	0xffffffffu	/* -1 */

/* The message header: nnc_wire.h. */

/* Transaction header, 8 bytes: type, len (counts the header). */
#define TH_LEN		8

/* DMA_XFER_TO_DEV: hdr, tag, count, dma_chunk_id, padding, then segments. */
#define DMA_LEN		24
#define SEG_LEN		16	/* addr, size: both u64 */
/* DMA_XFER_CONT (device -> host): hdr, dma_chunk_id, padding, xferred. */
#define CONT_LEN	24
/* ACTIVATE_TO_DEV: hdr, req_q_addr, rsp_q_addr, req_q_size, rsp_q_size, buf_len, options. */
#define ACT_LEN		40
/* ACTIVATE_FROM_DEV: hdr, status, dbc_id, options (u64). */
#define ACT_RSP_LEN	24
/* DEACTIVATE_FROM_DEV: hdr, status, dbc_id. */
#define DEACT_RSP_LEN	16
/* TERMINATE_TO_DEV: hdr, handle, padding. TERMINATE_FROM_DEV: hdr, status, padding. */
#define TERM_LEN	16
/* VALIDATE_PARTITION_TO_DEV: hdr, part_id, padding. FROM_DEV: hdr, status, padding. */
#define VALID_LEN	16
/* STATUS_FROM_DEV: hdr, major (u16), minor (u16), status, status_flags (u64). */
#define STATUS_RSP_LEN	24

#define STATUS_FLAG_CRC	1ull

/* Answer that always fits: header plus one STATUS_FROM_DEV. */
#define MIN_ANSWER	(HDR_LEN + STATUS_RSP_LEN)

#define MAX_TAGS	256	/* (handle, tag) pairs holding transferred bytes */
#define MAX_SEEN	16	/* tags one message transfers to, remembered */
#define MAX_CONTS	8	/* continued transfers in flight */
#define DMA_PIECE	4096	/* DMA reads never cross a 4 KiB boundary */

/*
 * A request without an EMU_PT_XFER_EXPECT announcement whose continued
 * transfer part leaves less than this much of the 64 KiB message unused is
 * taken to have been cut there, so more is asked for. Linux 6.12 cuts a
 * part when less than 1 KiB + one segment would be left; our driver fills
 * the message.
 */
#define CONT_FULL_SLACK	(1024 + SEG_LEN)

struct mgr_tag {
	bool used;
	uint32_t handle;
	uint32_t tag;
	uint8_t *data;
	uint64_t bytes;
	uint64_t cap;
	uint32_t crc;
	bool has_expect;
	uint64_t expect;	/* bytes the next transfer brings */
};

/*
 * A firmware command whose answer is completed at the end of its request
 * (nnc_fw.h): where its answer is, and what the request brought for it.
 */
struct fw_fixup {
	uint32_t off;		/* of the command's answer, from the body's start */
	uint64_t bytes0;	/* its tag's bytes before the request */
	uint32_t crc0;
	int dbc;		/* the request's ACTIVATE granted it, or -1 */
	struct emu_nnc_fw_pending p;
};

/* A DMA transfer continued over several messages (non-zero chunk id). */
struct mgr_cont {
	bool used;
	uint32_t handle;
	uint32_t chunk_id;
	uint32_t tag;
	uint64_t xferred;	/* bytes received under this chunk id */
	uint64_t tag_bytes0;	/* the tag before the transfer, for abort */
	uint32_t tag_crc0;
	int dbc;		/* DBC its first message activated, or -1 */
	uint64_t stamp;		/* when it started, for eviction */
	/* Answers to the first message's other transactions, sent at the end. */
	uint8_t deferred[NNC_MAX_RSP_LEN];
	uint32_t deferred_len;
	uint32_t deferred_count;
	/* Firmware answers among them, completed at the end (offsets in deferred) */
	struct fw_fixup fix[NNC_FW_MAX_PENDING];
	unsigned int nfix;
};

struct mgr_counters {
	uint64_t msgs;			/* messages handed to the manager */
	uint64_t bad_msgs;		/* refused: malformed, CRC, bad magic */
	uint64_t dropped;		/* not answered at all */
	uint64_t crc_errors;
	uint64_t answers;
	uint64_t transactions;		/* executed */
	uint64_t status;
	uint64_t passthrough;
	uint64_t pt_errors;		/* passthrough answered with an error */
	uint64_t fw_cmds;		/* of them, the firmware's NNC commands */
	uint64_t dma_xfers;		/* DMA_XFER_TO_DEV transactions with data */
	uint64_t dma_bytes;
	uint64_t dma_errors;
	uint64_t dma_conts;		/* DMA_XFER_CONT answers sent */
	uint64_t dma_aborts;
	uint64_t activates;
	uint64_t activate_errors;
	uint64_t deactivates;
	uint64_t terminates;
	uint64_t validate_partitions;
};

struct emu_manager {
	struct emu_device *dev;
	bool crc;
	uint64_t mem_size;
	uint64_t mem_used;
	struct emu_dbc_cfg dbc[EMU_NUM_DBC];
	struct mgr_tag tags[MAX_TAGS];
	struct mgr_cont conts[MAX_CONTS];
	uint64_t cont_stamp;
	const struct emu_dbc_ops *dbc_ops;	/* the DBC engine, or NULL */
	const struct emu_card_ops *card_ops;	/* or NULL */
	bool silent;				/* EMU_PT_SILENCE, until reset */
	bool in_ssr[EMU_NUM_DBC];		/* EMU_PT_SSR, until its end */
	bool silence_next;			/* after the answer being built */
	/*
	 * A systematic NNC case (nnc_cases.h): armed by the message being
	 * answered, then pending from the next message on, until an answer
	 * it applies to goes out.
	 */
	const struct emu_nnc_case *nnc_armed;
	const struct emu_nnc_case *nnc_pending;
	void *card_ctx;
	void *dbc_ctx;
	/* The identity the firmware's status answer gives; "": the card's */
	char serial[NNC_FW_SERIAL_LEN];
	char board_serial[NNC_FW_BOARD_SERIAL_LEN];
	struct emu_nnc_fw *fw;		/* the firmware's programs (nnc_fw.h) */
	struct mgr_counters c;
	uint8_t ans[NNC_MAX_RSP_LEN];	/* answer being built */
};

#define mgr_log(mgr, ...)						\
	do {								\
		if ((mgr)->dev)						\
			emu_log((mgr)->dev, __VA_ARGS__);		\
	} while (0)

/* ------------------------------------------------------------------ */
/* CRC of a message of @len bytes whose crc32 field reads as 0. */
static uint32_t msg_crc(const uint8_t *msg, uint32_t len)
{
	static const uint8_t zero[4];
	uint32_t crc = emu_crc32(0, zero, 4);

	return emu_crc32(crc, msg + 4, len - 4);
}

/* ------------------------------------------------------------------ */
/* The answer being built in mgr->ans. */

struct answer {
	uint8_t *buf;
	uint32_t len;
	uint32_t count;
	bool overflow;
};

static void ans_start(struct emu_manager *mgr, struct answer *a)
{
	a->buf = mgr->ans;
	a->len = HDR_LEN;
	a->count = 0;
	a->overflow = false;
}

static uint32_t ans_room(const struct answer *a)
{
	return NNC_MAX_RSP_LEN - a->len;
}

/* Room for a transaction of @len bytes, header written; NULL on overflow. */
static uint8_t *ans_trans(struct answer *a, uint32_t type, uint32_t len)
{
	uint8_t *p;

	if (a->overflow || len > ans_room(a)) {
		a->overflow = true;
		return NULL;
	}
	p = a->buf + a->len;
	memset(p, 0, len);
	put_le32(p, type);
	put_le32(p + 4, len);
	a->len += len;
	a->count++;
	return p;
}

/* Append already encoded transactions. */
static void ans_raw(struct answer *a, const uint8_t *src, uint32_t len,
		    uint32_t count)
{
	if (a->overflow || len > ans_room(a)) {
		a->overflow = true;
		return;
	}
	memcpy(a->buf + a->len, src, len);
	a->len += len;
	a->count += count;
}

static void ans_status(struct emu_manager *mgr, struct answer *a,
		       uint32_t status)
{
	uint8_t *p = ans_trans(a, T_STATUS_FROM_DEV, STATUS_RSP_LEN);

	if (!p)
		return;
	put_le16(p + 8, EMU_NNC_MAJOR);
	put_le16(p + 10, EMU_NNC_MINOR);
	put_le32(p + 12, status);
	put_le64(p + 16, mgr->crc ? STATUS_FLAG_CRC : 0);
}

/* Header, CRC, copy out. Returns the answer's length or 0. */
static size_t ans_finish(struct emu_manager *mgr, struct answer *a,
			 const uint8_t *req, void *rsp, size_t cap)
{
	uint8_t *h = a->buf;

	if (a->overflow) {
		ans_start(mgr, a);
		ans_status(mgr, a, EMU_NNC_E_TOO_BIG);
	}
	if (a->len > cap) {
		/* The host's buffer is smaller than what we have to say. */
		if (cap < MIN_ANSWER) {
			mgr->c.dropped++;
			return 0;
		}
		ans_start(mgr, a);
		ans_status(mgr, a, EMU_NNC_E_TOO_BIG);
	}
	memset(h, 0, HDR_LEN);
	put_le32(h + H_MAGIC, NNC_MAGIC);
	put_le32(h + H_SEQ, get_le32(req + H_SEQ));
	put_le32(h + H_LEN, a->len);
	put_le32(h + H_COUNT, a->count);
	put_le32(h + H_HANDLE, get_le32(req + H_HANDLE));
	put_le32(h + H_PART, get_le32(req + H_PART));
	if (mgr->nnc_pending) {
		uint32_t len = emu_nnc_case_apply(mgr->nnc_pending, h, a->len, cap);

		if (len) {
			mgr_log(mgr, "NNC case %s applied to answer seq %u",
				mgr->nnc_pending->name, get_le32(req + H_SEQ));
			a->len = len;
			mgr->nnc_pending = NULL;
		}
	}
	if (mgr->crc)
		put_le32(h + H_CRC, msg_crc(h, a->len));
	memcpy(rsp, h, a->len);
	mgr->c.answers++;
	return a->len;
}

/* ------------------------------------------------------------------ */
/* DBCs */

static void dbc_release(struct emu_manager *mgr, unsigned int id)
{
	if (!mgr->dbc[id].active)
		return;
	memset(&mgr->dbc[id], 0, sizeof(mgr->dbc[id]));
	mgr->c.deactivates++;
	/* Whatever the way, the activation running on it ends with it. */
	emu_nnc_fw_dbc_released(mgr->fw, id);
	if (mgr->dbc_ops && mgr->dbc_ops->changed)
		mgr->dbc_ops->changed(mgr->dbc_ctx, id, false);
}

/* ------------------------------------------------------------------ */
/* Tags: bytes delivered by DMA transfers, per (handle, tag). */

static struct mgr_tag *tag_find(struct emu_manager *mgr, uint32_t handle,
				uint32_t tag, bool create)
{
	struct mgr_tag *free_slot = NULL;

	for (unsigned int i = 0; i < MAX_TAGS; i++) {
		struct mgr_tag *t = &mgr->tags[i];

		if (!t->used) {
			if (!free_slot)
				free_slot = t;
			continue;
		}
		if (t->handle == handle && t->tag == tag)
			return t;
	}
	if (!create || !free_slot)
		return NULL;
	memset(free_slot, 0, sizeof(*free_slot));
	free_slot->used = true;
	free_slot->handle = handle;
	free_slot->tag = tag;
	return free_slot;
}

static void tag_free(struct emu_manager *mgr, struct mgr_tag *t)
{
	mgr->mem_used -= t->bytes;
	free(t->data);
	memset(t, 0, sizeof(*t));
}

/* Cut @t back to @bytes, whose CRC was @crc. */
static void tag_truncate(struct emu_manager *mgr, struct mgr_tag *t,
			 uint64_t bytes, uint32_t crc)
{
	if (bytes > t->bytes)
		return;
	mgr->mem_used -= t->bytes - bytes;
	t->bytes = bytes;
	t->crc = crc;
}

/* Device memory in use: transferred bytes, the firmware's programs. */
static uint64_t mem_in_use(const struct emu_manager *mgr)
{
	return mgr->mem_used + emu_nnc_fw_mem_held(mgr->fw);
}

/* Make room for @more bytes after t->bytes; device memory is accounted. */
static int tag_reserve(struct emu_manager *mgr, struct mgr_tag *t,
		       uint64_t more)
{
	uint64_t need, cap;
	uint8_t *data;

	if (more > mgr->mem_size || mem_in_use(mgr) > mgr->mem_size - more)
		return -ENOSPC;
	need = t->bytes + more;
	if (need <= t->cap)
		return 0;
	cap = t->cap ? t->cap : 4096;
	while (cap < need)
		cap = cap > UINT64_MAX / 2 ? need : cap * 2;
	if (cap > SIZE_MAX)
		return -ENOMEM;
	data = realloc(t->data, cap);
	if (!data) {
		cap = need;
		data = realloc(t->data, cap);
		if (!data)
			return -ENOMEM;
	}
	t->data = data;
	t->cap = cap;
	return 0;
}

/* ------------------------------------------------------------------ */
/* Continued transfers */

static struct mgr_cont *cont_find(struct emu_manager *mgr, uint32_t handle,
				  uint32_t chunk_id)
{
	for (unsigned int i = 0; i < MAX_CONTS; i++) {
		struct mgr_cont *c = &mgr->conts[i];

		if (c->used && c->handle == handle && c->chunk_id == chunk_id)
			return c;
	}
	return NULL;
}

static void cont_abort(struct emu_manager *mgr, struct mgr_cont *c);

/*
 * A slot for a new continued transfer. A host that gave up waiting leaves
 * its transfer behind; when every slot is taken the oldest is aborted.
 */
static struct mgr_cont *cont_new(struct emu_manager *mgr, uint32_t handle,
				 uint32_t chunk_id, uint32_t tag)
{
	struct mgr_cont *oldest = &mgr->conts[0];

	for (unsigned int i = 0; i < MAX_CONTS; i++) {
		struct mgr_cont *c = &mgr->conts[i];

		if (c->used) {
			if (c->stamp < oldest->stamp)
				oldest = c;
			continue;
		}
		oldest = c;
		break;
	}
	if (oldest->used) {
		mgr_log(mgr, "NNC continued transfer %u of handle %u evicted",
			oldest->chunk_id, oldest->handle);
		cont_abort(mgr, oldest);
	}
	{
		struct mgr_cont *c = oldest;

		c->used = true;
		c->stamp = ++mgr->cont_stamp;
		c->handle = handle;
		c->chunk_id = chunk_id;
		c->tag = tag;
		c->xferred = 0;
		c->dbc = -1;
		c->deferred_len = 0;
		c->deferred_count = 0;
		c->nfix = 0;
		return c;
	}
}

/* Give the transfer up: its bytes and the DBC its message activated go. */
static void cont_abort(struct emu_manager *mgr, struct mgr_cont *c)
{
	struct mgr_tag *t = tag_find(mgr, c->handle, c->tag, false);

	if (t) {
		tag_truncate(mgr, t, c->tag_bytes0, c->tag_crc0);
		t->has_expect = false;
	}
	if (c->dbc >= 0 && mgr->dbc[c->dbc].active &&
	    mgr->dbc[c->dbc].owner == c->handle)
		dbc_release(mgr, (unsigned int)c->dbc);
	c->used = false;
}

/* ------------------------------------------------------------------ */
/* First pass: structure only. Returns EMU_NNC_OK or the error status. */

static uint32_t check_trans(const uint8_t *p, uint32_t type, uint32_t len)
{
	uint32_t count, chunk;

	switch (type) {
	case T_STATUS_TO_DEV:
		return EMU_NNC_OK;	/* a bare header; more is ignored */
	case T_PASSTHROUGH_TO_DEV:
		/* The payload is 64-bit aligned, as both hosts enforce. */
		return len % 8 ? EMU_NNC_E_MALFORMED : EMU_NNC_OK;
	case T_DMA_XFER_TO_DEV:
		if (len < DMA_LEN)
			return EMU_NNC_E_MALFORMED;
		count = get_le32(p + 12);
		chunk = get_le32(p + 16);
		if (get_le32(p + 20))
			return EMU_NNC_E_MALFORMED;
		/* count is untrusted: compare without multiplying it. */
		if ((len - DMA_LEN) % SEG_LEN || count != (len - DMA_LEN) / SEG_LEN)
			return EMU_NNC_E_MALFORMED;
		/* No segments is an abort, which names a chunk id. */
		if (!count && !chunk)
			return EMU_NNC_E_MALFORMED;
		for (uint32_t i = 0; i < count; i++) {
			const uint8_t *s = p + DMA_LEN + i * SEG_LEN;
			uint64_t addr = get_le64(s), size = get_le64(s + 8);

			if (!size || addr + size < addr)
				return EMU_NNC_E_RANGE;
		}
		return EMU_NNC_OK;
	case T_ACTIVATE_TO_DEV:
		return len < ACT_LEN ? EMU_NNC_E_MALFORMED : EMU_NNC_OK;
	case T_TERMINATE_TO_DEV:
		if (len < TERM_LEN || get_le32(p + 12))
			return EMU_NNC_E_MALFORMED;
		return EMU_NNC_OK;
	case T_VALIDATE_PARTITION_TO_DEV:
		if (len < VALID_LEN || get_le32(p + 12))
			return EMU_NNC_E_MALFORMED;
		return EMU_NNC_OK;
	default:
		/* Unknown, or a type only the device sends (..._FROM_DEV, CONT). */
		return EMU_NNC_E_TYPE;
	}
}

static uint32_t check_msg(struct emu_manager *mgr, const uint8_t *m,
			  size_t len)
{
	uint32_t msg_len = get_le32(m + H_LEN);
	uint32_t count = get_le32(m + H_COUNT);
	uint32_t off = HDR_LEN;
	uint32_t chunked = 0;

	if (msg_len != len || msg_len < HDR_LEN || msg_len > NNC_MAX_REQ_LEN ||
	    get_le32(m + H_PAD))
		return EMU_NNC_E_MALFORMED;
	if (mgr->crc && get_le32(m + H_CRC) != msg_crc(m, msg_len)) {
		mgr->c.crc_errors++;
		return EMU_NNC_E_CRC;
	}
	/* Each transaction takes at least a header: count is bounded by len. */
	for (uint32_t i = 0; i < count; i++) {
		const uint8_t *p = m + off;
		uint32_t tlen, type, st;

		if (msg_len - off < TH_LEN)
			return EMU_NNC_E_MALFORMED;
		type = get_le32(p);
		tlen = get_le32(p + 4);
		if (tlen < TH_LEN || tlen > msg_len - off)
			return EMU_NNC_E_MALFORMED;
		st = check_trans(p, type, tlen);
		if (st)
			return st;
		/* At most one continued transfer (or abort) per message. */
		if (type == T_DMA_XFER_TO_DEV && get_le32(p + 16) && chunked++)
			return EMU_NNC_E_MALFORMED;
		off += tlen;
	}
	return off == msg_len ? EMU_NNC_OK : EMU_NNC_E_MALFORMED;
}

/* ------------------------------------------------------------------ */
/* Second pass: the transactions. */

struct msg_ctx {
	uint32_t handle;
	int32_t partition_id;
	uint32_t msg_len;
	struct mgr_cont *cont;	/* continued transfer this message feeds */
	bool cont_failed;
	int activated;		/* DBC this message activated, or -1 */
	/* Firmware answers to complete at the end (offsets in this answer) */
	struct fw_fixup fix[NNC_FW_MAX_PENDING];
	unsigned int nfix;
	/* Each tag this message transfers to, as it was before */
	struct {
		uint32_t tag;
		uint64_t bytes;
		uint32_t crc;
	} seen[MAX_SEEN];
	unsigned int nseen;
};

static const struct emu_card *mgr_card(const struct emu_manager *mgr)
{
	return mgr->dev ? emu_card_of(&mgr->dev->pci) : NULL;
}

/* Remember what tag @tag held before this message's first transfer to it. */
static void seen_tag(struct msg_ctx *ctx, uint32_t tag, uint64_t bytes,
		     uint32_t crc)
{
	for (unsigned int i = 0; i < ctx->nseen; i++)
		if (ctx->seen[i].tag == tag)
			return;
	if (ctx->nseen == MAX_SEEN)
		return;		/* its loads then find no bytes of the message */
	ctx->seen[ctx->nseen].tag = tag;
	ctx->seen[ctx->nseen].bytes = bytes;
	ctx->seen[ctx->nseen++].crc = crc;
}

/*
 * The message ran: what it brought for each of its firmware commands that
 * wait, its tag's bytes from where they were before the message's first
 * transfer to it on, and the DBC its ACTIVATE granted.
 */
static void fw_fixups_resolve(struct emu_manager *mgr, struct msg_ctx *ctx)
{
	for (unsigned int i = 0; i < ctx->nfix; i++) {
		struct fw_fixup *f = &ctx->fix[i];
		struct mgr_tag *t;
		unsigned int k;

		f->dbc = f->p.wants_dbc ? ctx->activated : -1;
		f->bytes0 = 0;
		f->crc0 = 0;
		if (!f->p.wants_data)
			continue;
		for (k = 0; k < ctx->nseen; k++)
			if (ctx->seen[k].tag == f->p.tag)
				break;
		if (k < ctx->nseen) {
			f->bytes0 = ctx->seen[k].bytes;
			f->crc0 = ctx->seen[k].crc;
			continue;
		}
		/* Nothing transferred to it in this message */
		t = tag_find(mgr, ctx->handle, f->p.tag, false);
		if (t) {
			f->bytes0 = t->bytes;
			f->crc0 = t->crc;
		}
	}
}

/*
 * The request of @f ended: the firmware completes the command, writing its
 * answer at @body + f->off (@body NULL: the answer is lost). The bytes a
 * load took leave the tag: device memory now holds them as the program's.
 */
static void fw_fixup_apply(struct emu_manager *mgr, const struct fw_fixup *f,
			   uint8_t *body)
{
	struct emu_nnc_fw_arrived in = { .dbc = -1 };
	uint64_t used = mem_in_use(mgr);
	struct mgr_tag *t = NULL;

	if (f->p.wants_data) {
		t = tag_find(mgr, f->p.handle, f->p.tag, false);
		if (t && t->bytes > f->bytes0) {
			in.data = t->data + f->bytes0;
			in.len = t->bytes - f->bytes0;
		}
	}
	in.room = (used < mgr->mem_size ? mgr->mem_size - used : 0) + in.len;
	if (f->p.wants_dbc && f->dbc >= 0 && f->dbc < EMU_NUM_DBC &&
	    mgr->dbc[f->dbc].active && mgr->dbc[f->dbc].owner == f->p.handle)
		in.dbc = f->dbc;
	if (mgr->dbc_ops && mgr->dbc_ops->write_mem) {
		in.write_mem = mgr->dbc_ops->write_mem;
		in.mem_ctx = mgr->dbc_ctx;
	}
	if (emu_nnc_fw_complete(mgr->fw, mgr_card(mgr), &f->p, &in,
				body ? body + f->off : NULL))
		mgr->c.pt_errors++;
	if (t && in.len) {
		tag_truncate(mgr, t, f->bytes0, f->crc0);
		if (!t->bytes)
			tag_free(mgr, t);
	}
}

/*
 * A passthrough answer of @len payload bytes, which every one of ours
 * starts with op, arg, status and padding (u32 each): writes those and
 * returns where the op's own fields go (payload offset 16), or NULL when
 * the answer has no room left.
 */
static uint8_t *pt_head(struct answer *a, uint32_t op, uint32_t arg,
			uint32_t status, uint32_t len)
{
	uint8_t *q = ans_trans(a, T_PASSTHROUGH_FROM_DEV, TH_LEN + len);

	if (!q)
		return NULL;
	q += TH_LEN;
	put_le32(q, op);
	put_le32(q + 4, arg);
	put_le32(q + 8, status);
	return q + 16;
}

static void pt_status(struct emu_manager *mgr, struct answer *a, uint32_t op,
		      uint32_t arg, uint32_t status)
{
	if (status)
		mgr->c.pt_errors++;
	pt_head(a, op, arg, status, 16);
}

/* Bytes of struct emu_pt_dbc_counters in the passthrough payload. */
#define PT_DBC_C_LEN	(16 + 16 * 8)

_Static_assert(sizeof(struct emu_pt_dbc_counters) == PT_DBC_C_LEN,
	       "struct emu_pt_dbc_counters is 144 bytes, no holes");

/*
 * EMU_PT_DBC_COUNTERS. The engine hands over a copy of its counters: no
 * MMIO, so the DBC's own register counters do not move by being read.
 */
/*
 * DBC @arg's counters into @c for a passthrough answer: EMU_PT_OK, or
 * EMU_PT_E_DBC (counted) with @c all 0.
 */
static uint32_t pt_get_counters(struct emu_manager *mgr, uint32_t arg,
				struct emu_dbc_counters *c)
{
	memset(c, 0, sizeof(*c));
	if (arg < EMU_NUM_DBC && mgr->dbc_ops && mgr->dbc_ops->get_counters &&
	    !mgr->dbc_ops->get_counters(mgr->dbc_ctx, arg, c))
		return EMU_PT_OK;
	memset(c, 0, sizeof(*c));
	mgr->c.pt_errors++;
	return EMU_PT_E_DBC;
}

static void pt_dbc_counters(struct emu_manager *mgr, struct answer *a,
			    uint32_t arg)
{
	struct emu_dbc_counters c;
	uint32_t status = pt_get_counters(mgr, arg, &c);
	uint8_t *f = pt_head(a, EMU_PT_DBC_COUNTERS, arg, status, PT_DBC_C_LEN);

	if (!f)
		return;
	/* The order of struct emu_pt_dbc_counters, not of the engine's struct. */
	for (unsigned int i = 0; i < 4; i++, f += 8)
		put_le64(f, c.reg_reads[i]);
	for (unsigned int i = 0; i < 4; i++, f += 8)
		put_le64(f, c.reg_writes[i]);
	put_le64(f, c.requests);
	put_le64(f + 8, c.responses);
	put_le64(f + 16, c.dma_to_dev_bytes);
	put_le64(f + 24, c.dma_from_dev_bytes);
	put_le64(f + 32, c.irqs);
	put_le64(f + 40, c.errors);
	put_le64(f + 48, c.resets);
	put_le64(f + 56, c.late_xfers);
}

_Static_assert(sizeof(struct emu_pt_dbc_times) == 48,
	       "struct emu_pt_dbc_times is 48 bytes, no holes");

/* EMU_PT_DBC_TIMES: the timing part of the engine's counters. */
static void pt_dbc_times(struct emu_manager *mgr, struct answer *a, uint32_t arg)
{
	struct emu_dbc_counters c;
	uint32_t status = pt_get_counters(mgr, arg, &c);
	uint8_t *f = pt_head(a, EMU_PT_DBC_TIMES, arg, status, sizeof(struct emu_pt_dbc_times));

	if (!f)
		return;
	put_le64(f, c.card_ns);
	put_le64(f + 8, c.rsps_timed);
	put_le64(f + 16, c.idle_ns);
	put_le64(f + 24, c.idles);
}

_Static_assert(sizeof(struct emu_pt_memcpy_bw) == 32,
	       "struct emu_pt_memcpy_bw is 32 bytes, no holes");

static uint64_t ns_between(const struct timespec *a, const struct timespec *b)
{
	return (uint64_t)(b->tv_sec - a->tv_sec) * 1000000000ull +
	       (uint64_t)b->tv_nsec - (uint64_t)a->tv_nsec;
}

_Static_assert(sizeof(struct emu_pt_timesync) == 64,
	       "struct emu_pt_timesync is 64 bytes, no holes");

/* EMU_PT_TIMESYNC */
static void pt_timesync(struct emu_manager *mgr, struct answer *a, uint32_t arg)
{
	struct emu_timesync_counters c = { 0 };
	uint32_t status = EMU_PT_OK;
	uint8_t *f;

	if (mgr->card_ops && mgr->card_ops->timesync) {
		mgr->card_ops->timesync(mgr->card_ctx, &c);
	} else {
		status = EMU_PT_E_RANGE;
		mgr->c.pt_errors++;
	}
	f = pt_head(a, EMU_PT_TIMESYNC, arg, status, sizeof(struct emu_pt_timesync));
	if (!f)
		return;
	put_le64(f, c.asked);
	put_le64(f + 8, c.boot_good);
	put_le64(f + 16, c.boot_bad);
	put_le64(f + 24, c.periodic_good);
	put_le64(f + 32, c.periodic_bad);
	put_le64(f + 40, (uint64_t)c.last_skew_us);
}

/*
 * EMU_PT_SSR: the subsystem behind DBC @id crashes. Its workload goes at
 * once, as on a real card (the DBC engine stops it); the events follow.
 */
static void pt_ssr(struct emu_manager *mgr, struct answer *a, uint32_t id,
		   uint32_t mode, uint32_t cycles)
{
	int ret;

	if (!mgr->card_ops || !mgr->card_ops->ssr || mode >= EMU_SSR_NR_MODES) {
		pt_status(mgr, a, EMU_PT_SSR, id, EMU_PT_E_RANGE);
		return;
	}
	if (id >= EMU_NUM_DBC || (mode != EMU_SSR_RESUME &&
				  (!mgr->dbc[id].active || mgr->in_ssr[id]))) {
		pt_status(mgr, a, EMU_PT_SSR, id, EMU_PT_E_DBC);
		return;
	}
	ret = mgr->card_ops->ssr(mgr->card_ctx, id, mode, cycles);
	if (ret) {
		pt_status(mgr, a, EMU_PT_SSR, id,
			  ret == -EBUSY ? EMU_PT_E_BUSY : EMU_PT_E_RANGE);
		return;
	}
	if (mode != EMU_SSR_RESUME) {
		mgr_log(mgr, "DBC%u: subsystem restart, by passthrough", id);
		mgr->in_ssr[id] = true;
		dbc_release(mgr, id);
	}
	pt_status(mgr, a, EMU_PT_SSR, id, EMU_PT_OK);
}

/*
 * EMU_PT_MEMCPY_BW: how fast this process copies memory, the ceiling of
 * every byte the emulated DMA moves (it is a memcpy() from the guest's
 * mapped memory). Both buffers are written once before the clock starts
 * so that page faults are not timed; copies alternate direction.
 */
static void pt_memcpy_bw(struct emu_manager *mgr, struct answer *a,
			 uint32_t arg)
{
	uint32_t status = EMU_PT_OK;
	uint64_t bytes = 0, ns = 0;
	uint8_t *x = NULL, *y = NULL;
	uint8_t *f;

	if (!arg || arg > EMU_PT_MEMCPY_BW_MAX_MIB) {
		status = EMU_PT_E_RANGE;
	} else {
		size_t len = (size_t)arg << 20;
		struct timespec t0, t1;

		x = malloc(len);
		y = malloc(len);
		if (!x || !y) {
			status = EMU_PT_E_NO_MEM;
		} else {
			memset(x, 0x5a, len);
			memset(y, 0xa5, len);
			clock_gettime(CLOCK_MONOTONIC, &t0);
			for (unsigned int i = 0; i < EMU_PT_MEMCPY_BW_COPIES; i++) {
				if (i & 1)
					memcpy(x, y, len);
				else
					memcpy(y, x, len);
				/* The copies are the point: keep them all. */
				__asm__ volatile("" : : "r"(x), "r"(y) : "memory");
			}
			clock_gettime(CLOCK_MONOTONIC, &t1);
			bytes = (uint64_t)len * EMU_PT_MEMCPY_BW_COPIES;
			ns = ns_between(&t0, &t1);
			if (!ns)
				ns = 1;
		}
		free(x);
		free(y);
	}
	if (status)
		mgr->c.pt_errors++;
	f = pt_head(a, EMU_PT_MEMCPY_BW, arg, status, sizeof(struct emu_pt_memcpy_bw));
	if (!f)
		return;
	put_le64(f, bytes);
	put_le64(f + 8, ns);
}

/*
 * A firmware NNC command (nnc_fw.h), as the vendor's runtime sends it: the
 * answer is one PASSTHROUGH_FROM_DEV transaction carrying the firmware's.
 * A command whose answer depends on the rest of the request (a load and its
 * transfer, an activate and its ACTIVATE) is answered for now and completed
 * at the end of the request (fw_fixup_apply()); DEACTIVATE_REQ may release
 * the activation's DBC, reported as EMU_PT_DEACTIVATE does.
 */
static void pt_firmware(struct emu_manager *mgr, struct msg_ctx *ctx,
			struct answer *a, const uint8_t *cmd, uint32_t len)
{
	struct emu_nnc_fw_state st = {
		.card = mgr_card(mgr),
		.serial = mgr->serial[0] ? mgr->serial : NULL,
		.board_serial = mgr->board_serial[0] ? mgr->board_serial : NULL,
		.mem_used = mgr->mem_used,
		.dbc_total = EMU_NUM_DBC,
		.fw = mgr->fw,
		.handle = ctx->handle,
		.can_defer = ctx->nfix < NNC_FW_MAX_PENDING,
	};
	struct emu_nnc_fw_action act;
	uint8_t out[NNC_FW_STATUS_RESP_LEN];
	uint32_t n;
	uint8_t *q;

	mgr->c.fw_cmds++;
	for (unsigned int i = 0; i < EMU_NUM_DBC; i++)
		st.dbc_active += mgr->dbc[i].active;
	n = emu_nnc_fw_answer(&st, cmd, len, out, sizeof(out), &act);
	/* A whole transaction is a multiple of 8 bytes, as the host's are */
	q = n ? ans_trans(a, T_PASSTHROUGH_FROM_DEV, TH_LEN + ((n + 7) & ~7u)) : NULL;
	if (!q)
		a->overflow = true;
	else
		memcpy(q + TH_LEN, out, n);
	if (act.status)
		mgr->c.pt_errors++;
	if (act.pending) {
		struct fw_fixup *f = &ctx->fix[ctx->nfix++];

		/* On overflow the answer is lost; the command is still completed */
		f->off = q ? (uint32_t)(q + TH_LEN - (a->buf + HDR_LEN)) : 0;
		f->p = act.p;
		f->dbc = -1;
	}
	if (act.release_dbc >= 0 && act.release_dbc < EMU_NUM_DBC) {
		unsigned int id = (unsigned int)act.release_dbc;
		bool ours = mgr->dbc[id].active && mgr->dbc[id].owner == ctx->handle;

		if (ours)
			dbc_release(mgr, id);
		q = ans_trans(a, T_DEACTIVATE_FROM_DEV, DEACT_RSP_LEN);
		if (q) {
			put_le32(q + 8, ours ? EMU_NNC_OK : EMU_NNC_E_RANGE);
			put_le32(q + 12, id);
		}
	}
}

static void do_passthrough(struct emu_manager *mgr, struct msg_ctx *ctx,
			   struct answer *a, const uint8_t *p, uint32_t len)
{
	const uint8_t *pl = p + TH_LEN;
	uint32_t plen = len - TH_LEN;
	uint32_t op, arg;
	struct mgr_tag *t;
	uint8_t *q;

	mgr->c.passthrough++;
	if (plen >= 4 && emu_nnc_fw_is_cmd(get_le32(pl))) {
		pt_firmware(mgr, ctx, a, pl, plen);
		return;
	}
	if (plen < 8) {
		pt_status(mgr, a, 0, 0, EMU_PT_E_SHORT);
		return;
	}
	op = get_le32(pl);
	arg = get_le32(pl + 4);
	switch (op) {
	case EMU_PT_ECHO:
		if (len > ans_room(a)) {
			pt_status(mgr, a, op, arg, EMU_PT_E_TOO_BIG);
			return;
		}
		q = ans_trans(a, T_PASSTHROUGH_FROM_DEV, len);
		if (q)
			memcpy(q + TH_LEN, pl, plen);
		return;
	case EMU_PT_XFER_SUM:
		t = tag_find(mgr, ctx->handle, arg, false);
		q = ans_trans(a, T_PASSTHROUGH_FROM_DEV, TH_LEN + 24);
		if (!q)
			return;
		put_le32(q + 8, EMU_PT_XFER_SUM);
		put_le32(q + 12, arg);
		put_le64(q + 16, t ? t->bytes : 0);
		put_le32(q + 24, t ? t->crc : 0);
		put_le32(q + 28, t ? EMU_PT_OK : EMU_PT_E_NO_TAG);
		return;
	case EMU_PT_XFER_EXPECT:
		if (plen < 16) {
			pt_status(mgr, a, op, arg, EMU_PT_E_SHORT);
			return;
		}
		t = tag_find(mgr, ctx->handle, arg, true);
		if (!t) {
			pt_status(mgr, a, op, arg, EMU_PT_E_NO_ROOM);
			return;
		}
		t->has_expect = true;
		t->expect = get_le64(pl + 8);
		pt_status(mgr, a, op, arg, EMU_PT_OK);
		return;
	case EMU_PT_DEACTIVATE:
		if (arg >= EMU_NUM_DBC) {
			pt_status(mgr, a, op, arg, EMU_PT_E_DBC);
			return;
		}
		if (!mgr->dbc[arg].active || mgr->dbc[arg].owner != ctx->handle) {
			pt_status(mgr, a, op, arg, EMU_PT_E_DBC);
			q = ans_trans(a, T_DEACTIVATE_FROM_DEV, DEACT_RSP_LEN);
			if (q) {
				put_le32(q + 8, EMU_NNC_E_RANGE);
				put_le32(q + 12, arg);
			}
			return;
		}
		dbc_release(mgr, arg);
		pt_status(mgr, a, op, arg, EMU_PT_OK);
		q = ans_trans(a, T_DEACTIVATE_FROM_DEV, DEACT_RSP_LEN);
		if (q)
			put_le32(q + 12, arg);
		return;
	case EMU_PT_HANG_DBC: {
		uint32_t late_ms = plen >= 12 ? get_le32(pl + 8) : 0;

		if (late_ms > EMU_PT_CARD_MAX_MS) {
			pt_status(mgr, a, op, arg, EMU_PT_E_RANGE);
			return;
		}
		/* A test facility: any user may hang any active DBC. */
		if (arg >= EMU_NUM_DBC || !mgr->dbc[arg].active ||
		    !mgr->dbc_ops || !mgr->dbc_ops->hang_once ||
		    mgr->dbc_ops->hang_once(mgr->dbc_ctx, arg, late_ms)) {
			pt_status(mgr, a, op, arg, EMU_PT_E_DBC);
			return;
		}
		mgr_log(mgr, "DBC%u: one-shot hang armed by passthrough%s", arg,
			late_ms ? ", its request carried out late" : "");
		pt_status(mgr, a, op, arg, EMU_PT_OK);
		return;
	}
	case EMU_PT_DBC_COUNTERS:
		pt_dbc_counters(mgr, a, arg);
		return;
	case EMU_PT_DBC_TIMES:
		pt_dbc_times(mgr, a, arg);
		return;
	case EMU_PT_MEMCPY_BW:
		pt_memcpy_bw(mgr, a, arg);
		return;
	case EMU_PT_DBC_FAULTS:
		if (plen < 8 + offsetof(struct emu_pt_faults, msi_off)) {
			pt_status(mgr, a, op, arg, EMU_PT_E_SHORT);
			return;
		}
		/* A test facility, like EMU_PT_HANG_DBC. */
		if (arg >= EMU_NUM_DBC || !mgr->dbc_ops || !mgr->dbc_ops->set_faults ||
		    mgr->dbc_ops->set_faults(mgr->dbc_ctx, arg, get_le32(pl + 8),
					     get_le32(pl + 12),
					     (uint16_t)get_le32(pl + 16),
					     get_le32(pl + 20),
					     plen >= 8 + offsetof(struct emu_pt_faults, pad) &&
					     get_le32(pl + 24))) {
			pt_status(mgr, a, op, arg, EMU_PT_E_DBC);
			return;
		}
		mgr_log(mgr, "DBC%u: response faults set by passthrough", arg);
		pt_status(mgr, a, op, arg, EMU_PT_OK);
		return;
	case EMU_PT_DBC_TIMING:
		if (plen < 12) {
			pt_status(mgr, a, op, arg, EMU_PT_E_SHORT);
			return;
		}
		if (get_le32(pl + 8) > EMU_PT_DBC_TIMING_MAX_NS) {
			pt_status(mgr, a, op, arg, EMU_PT_E_RANGE);
			return;
		}
		if (arg >= EMU_NUM_DBC || !mgr->dbc_ops || !mgr->dbc_ops->set_timing ||
		    mgr->dbc_ops->set_timing(mgr->dbc_ctx, arg, get_le32(pl + 8))) {
			pt_status(mgr, a, op, arg, EMU_PT_E_DBC);
			return;
		}
		mgr_log(mgr, "DBC%u: %u ns per request, by passthrough", arg, get_le32(pl + 8));
		pt_status(mgr, a, op, arg, EMU_PT_OK);
		return;
	case EMU_PT_SILENCE:
		mgr_log(mgr, "silent from the next message on, by passthrough");
		mgr->silence_next = true;
		pt_status(mgr, a, op, arg, EMU_PT_OK);
		return;
	case EMU_PT_SSR:
		pt_ssr(mgr, a, arg, plen >= 12 ? get_le32(pl + 8) : 0,
		       plen >= 16 ? get_le32(pl + 12) : 0);
		return;
	case EMU_PT_RAS:
		if (plen < 16) {
			pt_status(mgr, a, op, arg, EMU_PT_E_SHORT);
			return;
		}
		if (!mgr->card_ops || !mgr->card_ops->ras ||
		    mgr->card_ops->ras(mgr->card_ctx, arg, get_le32(pl + 8),
				       get_le32(pl + 12))) {
			pt_status(mgr, a, op, arg, EMU_PT_E_RANGE);
			return;
		}
		pt_status(mgr, a, op, arg, EMU_PT_OK);
		return;
	case EMU_PT_TIMESYNC:
		pt_timesync(mgr, a, arg);
		return;
	case EMU_PT_CARD_CASE:
		if (plen < 12) {
			pt_status(mgr, a, op, arg, EMU_PT_E_SHORT);
			return;
		}
		/* The manager's own answers: armed for a later message. */
		if (get_le32(pl + 8) == EMU_CARD_CASE_NNC) {
			if (arg >= emu_nnc_nr_cases) {
				pt_status(mgr, a, op, arg, EMU_PT_E_RANGE);
				return;
			}
			mgr->nnc_armed = &emu_nnc_cases[arg];
			pt_status(mgr, a, op, arg, EMU_PT_OK);
			return;
		}
		if (!mgr->card_ops || !mgr->card_ops->card_case ||
		    mgr->card_ops->card_case(mgr->card_ctx, get_le32(pl + 8), arg)) {
			pt_status(mgr, a, op, arg, EMU_PT_E_RANGE);
			return;
		}
		pt_status(mgr, a, op, arg, EMU_PT_OK);
		return;
	case EMU_PT_ANSWER_DELAY:
		if (arg > EMU_PT_CARD_MAX_MS || !mgr->card_ops || !mgr->card_ops->answer_delay) {
			pt_status(mgr, a, op, arg, EMU_PT_E_RANGE);
			return;
		}
		mgr_log(mgr, "answers %u ms late from the next on, by passthrough", arg);
		mgr->card_ops->answer_delay(mgr->card_ctx, arg);
		pt_status(mgr, a, op, arg, EMU_PT_OK);
		return;
	case EMU_PT_TELEMETRY:
		if (!mgr->card_ops || !mgr->card_ops->telemetry ||
		    mgr->card_ops->telemetry(mgr->card_ctx, arg)) {
			pt_status(mgr, a, op, arg, EMU_PT_E_RANGE);
			return;
		}
		mgr_log(mgr, "telemetry fault mode %u, by passthrough", arg);
		pt_status(mgr, a, op, arg, EMU_PT_OK);
		return;
	case EMU_PT_SYS_ERROR:
	case EMU_PT_VANISH: {
		/* Test facilities: what they do comes after this answer. */
		void (*fn)(void *ctx, unsigned int ms) = NULL;

		if (mgr->card_ops)
			fn = op == EMU_PT_VANISH ? mgr->card_ops->vanish : mgr->card_ops->sys_error;
		if (!arg || arg > EMU_PT_CARD_MAX_MS || !fn) {
			pt_status(mgr, a, op, arg, EMU_PT_E_RANGE);
			return;
		}
		mgr_log(mgr, "%s in %u ms, by passthrough",
			op == EMU_PT_VANISH ? "surprise removal" : "system error", arg);
		fn(mgr->card_ctx, arg);
		pt_status(mgr, a, op, arg, EMU_PT_OK);
		return;
	}
	default:
		pt_status(mgr, a, op, arg, EMU_PT_E_UNKNOWN_OP);
		return;
	}
}

/*
 * A part of continued transfer @c failed: the transfer is given up and the
 * request ends here, so the answers its first message deferred go out now,
 * ahead of the error.
 */
static void cont_fail(struct emu_manager *mgr, struct msg_ctx *ctx,
		      struct answer *a, struct mgr_cont *c)
{
	uint32_t base = a->len - HDR_LEN;
	unsigned int nfix = c->nfix;

	ans_raw(a, c->deferred, c->deferred_len, c->deferred_count);
	cont_abort(mgr, c);
	/* The transfer's bytes are gone: its loads say so. */
	for (unsigned int i = 0; i < nfix; i++)
		fw_fixup_apply(mgr, &c->fix[i],
			       a->overflow ? NULL : a->buf + HDR_LEN + base);
	c->nfix = 0;
	ctx->cont_failed = true;
}

/* Read one segment into @t; 0 or -errno. */
static int dma_segment(struct emu_manager *mgr, struct mgr_tag *t,
		       uint64_t addr, uint64_t size)
{
	int ret = tag_reserve(mgr, t, size);

	if (ret)
		return ret;
	while (size) {
		uint64_t piece = DMA_PIECE - (addr & (DMA_PIECE - 1));
		uint8_t *dst = t->data + t->bytes;

		if (piece > size)
			piece = size;
		ret = mgr->dev ? emu_dma_read(mgr->dev, addr, dst, piece) : -EFAULT;
		if (ret)
			return ret;
		t->crc = emu_crc32(t->crc, dst, piece);
		t->bytes += piece;
		mgr->mem_used += piece;
		mgr->c.dma_bytes += piece;
		addr += piece;
		size -= piece;
	}
	return 0;
}

static void do_dma(struct emu_manager *mgr, struct msg_ctx *ctx,
		   struct answer *a, const uint8_t *p, uint32_t len)
{
	uint32_t tag = get_le32(p + 8);
	uint32_t count = get_le32(p + 12);
	uint32_t chunk = get_le32(p + 16);
	struct mgr_cont *c = NULL;
	struct mgr_tag *t;
	uint64_t bytes0, total = 0;
	uint32_t crc0;
	int ret = 0;

	(void)len;
	if (chunk) {
		c = cont_find(mgr, ctx->handle, chunk);
		if (!count) {
			/* Abort: the host gives the transfer up. No answer. */
			mgr->c.dma_aborts++;
			if (c)
				cont_abort(mgr, c);
			return;
		}
		if (c && c->tag != tag) {
			cont_fail(mgr, ctx, a, c);
			mgr->c.dma_errors++;
			ans_status(mgr, a, EMU_NNC_E_CHUNK);
			return;
		}
	}

	t = tag_find(mgr, ctx->handle, tag, true);
	if (!t) {
		if (c)
			cont_fail(mgr, ctx, a, c);
		mgr->c.dma_errors++;
		ctx->cont_failed = !!chunk;
		ans_status(mgr, a, EMU_NNC_E_NO_MEM);
		return;
	}
	if (chunk && !c) {
		c = cont_new(mgr, ctx->handle, chunk, tag);
		if (!c) {
			mgr->c.dma_errors++;
			ctx->cont_failed = true;
			ans_status(mgr, a, EMU_NNC_E_CHUNK);
			return;
		}
		c->tag_bytes0 = t->bytes;
		c->tag_crc0 = t->crc;
	}

	bytes0 = t->bytes;
	crc0 = t->crc;
	seen_tag(ctx, tag, bytes0, crc0);
	mgr->c.dma_xfers++;
	for (uint32_t i = 0; i < count && !ret; i++) {
		const uint8_t *s = p + DMA_LEN + i * SEG_LEN;

		ret = dma_segment(mgr, t, get_le64(s), get_le64(s + 8));
		if (!ret)
			total += get_le64(s + 8);
	}
	if (ret) {
		mgr_log(mgr, "NNC DMA transfer tag %u failed: %d", tag, ret);
		mgr->c.dma_errors++;
		tag_truncate(mgr, t, bytes0, crc0);
		t->has_expect = false;
		if (c)
			cont_fail(mgr, ctx, a, c);
		ans_status(mgr, a, ret == -ENOSPC || ret == -ENOMEM ?
				   EMU_NNC_E_NO_MEM : EMU_NNC_E_DMA);
		/* Failed transfers do not use up the tag table. */
		if (!t->bytes)
			tag_free(mgr, t);
		return;
	}
	if (c) {
		c->xferred += total;
		ctx->cont = c;
		return;
	}
	/* A transfer in one piece: the announcement, if any, is used up. */
	t->has_expect = false;
}

static bool ring_ok(uint64_t req, uint64_t rsp, uint32_t nelem,
		    uint32_t buf_len)
{
	uint64_t req_len = (uint64_t)nelem * EMU_DBC_REQ_ELEM;
	uint64_t rsp_len = (uint64_t)nelem * EMU_DBC_RSP_ELEM;

	if (!nelem || !req || !rsp)
		return false;
	if (req + req_len < req || rsp + rsp_len < rsp)
		return false;
	/* The two rings must not overlap. */
	if (req < rsp + rsp_len && rsp < req + req_len)
		return false;
	return buf_len >= req_len + rsp_len;
}

static void do_activate(struct emu_manager *mgr, struct msg_ctx *ctx,
			struct answer *a, const uint8_t *p)
{
	uint64_t req = get_le64(p + 8), rsp = get_le64(p + 16);
	uint32_t req_n = get_le32(p + 24), rsp_n = get_le32(p + 28);
	uint32_t buf_len = get_le32(p + 32), options = get_le32(p + 36);
	uint32_t status = EMU_NNC_OK;
	unsigned int id = 0;
	uint8_t *q;

	if (req_n != rsp_n || !ring_ok(req, rsp, req_n, buf_len)) {
		status = EMU_NNC_E_RANGE;
	} else {
		while (id < EMU_NUM_DBC && (mgr->dbc[id].active || mgr->in_ssr[id]))
			id++;
		if (id == EMU_NUM_DBC)
			status = EMU_NNC_E_NO_DBC;
	}

	if (!status) {
		struct emu_dbc_cfg *d = &mgr->dbc[id];

		*d = (struct emu_dbc_cfg){
			.active = true,
			.owner = ctx->handle,
			.partition_id = ctx->partition_id,
			.req_q_addr = req,
			.rsp_q_addr = rsp,
			.nelem = req_n,
			.buf_len = buf_len,
			.options = options,
		};
		mgr->c.activates++;
		ctx->activated = (int)id;
		if (mgr->dbc_ops && mgr->dbc_ops->changed)
			mgr->dbc_ops->changed(mgr->dbc_ctx, id, true);
	} else {
		/*
		 * Linux 6.12 checks dbc_id against the DBC count before it
		 * looks at the status: a refusal names DBC 0 so that the
		 * user sees -ECANCELED and the status, not -ENODEV.
		 */
		id = 0;
		mgr->c.activate_errors++;
	}
	q = ans_trans(a, T_ACTIVATE_FROM_DEV, ACT_RSP_LEN);
	if (q) {
		put_le32(q + 8, status);
		put_le32(q + 12, id);
	}
}

static void do_terminate(struct emu_manager *mgr, struct answer *a,
			 const uint8_t *p)
{
	uint32_t handle = get_le32(p + 8);

	mgr->c.terminates++;
	for (unsigned int i = 0; i < MAX_CONTS; i++)
		if (mgr->conts[i].used && mgr->conts[i].handle == handle)
			mgr->conts[i].used = false;
	for (unsigned int i = 0; i < EMU_NUM_DBC; i++)
		if (mgr->dbc[i].active && mgr->dbc[i].owner == handle)
			dbc_release(mgr, i);
	for (unsigned int i = 0; i < MAX_TAGS; i++)
		if (mgr->tags[i].used && mgr->tags[i].handle == handle)
			tag_free(mgr, &mgr->tags[i]);
	/* The handle's programs, constants and activations go too. */
	emu_nnc_fw_terminate(mgr->fw, handle);
	ans_trans(a, T_TERMINATE_FROM_DEV, TERM_LEN);	/* status 0 */
}

static void do_validate_partition(struct emu_manager *mgr, struct answer *a,
				  const uint8_t *p)
{
	uint8_t *q;

	/* The emulated card is not partitioned: only "no partition" is valid. */
	mgr->c.validate_partitions++;
	q = ans_trans(a, T_VALIDATE_PARTITION_FROM_DEV, VALID_LEN);
	if (q)
		put_le32(q + 8, get_le32(p + 8) == NNC_NO_PARTITION ? EMU_NNC_OK :
							      EMU_NNC_E_RANGE);
}

/* The transfer is complete; its announcement, if any, is used up. */
static void cont_done(struct emu_manager *mgr, struct mgr_cont *c)
{
	struct mgr_tag *t = tag_find(mgr, c->handle, c->tag, false);

	if (t)
		t->has_expect = false;
	c->used = false;
}

/* Does a continued transfer want more after this message? */
static bool cont_wants_more(struct emu_manager *mgr, struct msg_ctx *ctx)
{
	struct mgr_cont *c = ctx->cont;
	struct mgr_tag *t = tag_find(mgr, c->handle, c->tag, false);
	bool full = ctx->msg_len > NNC_MAX_REQ_LEN - CONT_FULL_SLACK;

	if (t && t->has_expect)
		return c->xferred < t->expect;
	/*
	 * A firmware load of the request says how many bytes it wants: a
	 * full part that completes them is the last. A part that is not
	 * full still is: the host had no more.
	 */
	for (unsigned int i = 0; i < ctx->nfix + c->nfix; i++) {
		const struct fw_fixup *f = i < ctx->nfix ? &ctx->fix[i] : &c->fix[i - ctx->nfix];

		if (f->p.wants_data && f->p.tag == c->tag && f->p.data_length)
			return full && c->xferred < f->p.data_length;
	}
	return full;
}

size_t emu_manager_handle(struct emu_manager *mgr, const void *req, size_t len,
			  void *rsp, size_t cap)
{
	const uint8_t *m = req;
	struct msg_ctx ctx = { .activated = -1 };
	struct answer a;
	uint32_t st, count, off;

	mgr->c.msgs++;
	if (mgr->nnc_armed) {
		mgr->nnc_pending = mgr->nnc_armed;
		mgr->nnc_armed = NULL;
	}
	if (mgr->silence_next) {
		mgr->silence_next = false;
		mgr->silent = true;
	}
	if (mgr->silent) {
		mgr->c.dropped++;
		return 0;
	}
	if (cap > NNC_MAX_RSP_LEN)
		cap = NNC_MAX_RSP_LEN;
	/* Without a header or the magic there is nobody to answer to. */
	if (!m || len < HDR_LEN || get_le32(m + H_MAGIC) != NNC_MAGIC || !rsp) {
		mgr_log(mgr, "NNC message dropped: %zu bytes, no header/magic",
			len);
		mgr->c.bad_msgs++;
		mgr->c.dropped++;
		return 0;
	}

	ans_start(mgr, &a);
	st = check_msg(mgr, m, len);
	if (st) {
		mgr_log(mgr, "NNC message seq %u refused: status %u",
			get_le32(m + H_SEQ), st);
		mgr->c.bad_msgs++;
		ans_status(mgr, &a, st);
		return ans_finish(mgr, &a, m, rsp, cap);
	}

	ctx.handle = get_le32(m + H_HANDLE);
	ctx.partition_id = (int32_t)get_le32(m + H_PART);
	ctx.msg_len = get_le32(m + H_LEN);
	count = get_le32(m + H_COUNT);
	off = HDR_LEN;
	for (uint32_t i = 0; i < count; i++) {
		const uint8_t *p = m + off;
		uint32_t type = get_le32(p), tlen = get_le32(p + 4);

		mgr->c.transactions++;
		switch (type) {
		case T_STATUS_TO_DEV:
			mgr->c.status++;
			ans_status(mgr, &a, EMU_NNC_OK);
			break;
		case T_PASSTHROUGH_TO_DEV:
			do_passthrough(mgr, &ctx, &a, p, tlen);
			break;
		case T_DMA_XFER_TO_DEV:
			do_dma(mgr, &ctx, &a, p, tlen);
			break;
		case T_ACTIVATE_TO_DEV:
			do_activate(mgr, &ctx, &a, p);
			break;
		case T_TERMINATE_TO_DEV:
			do_terminate(mgr, &a, p);
			break;
		case T_VALIDATE_PARTITION_TO_DEV:
			do_validate_partition(mgr, &a, p);
			break;
		}
		off += tlen;
	}

	fw_fixups_resolve(mgr, &ctx);
	/* A continued transfer whose state a later transaction dropped. */
	if (ctx.cont && !ctx.cont->used)
		ctx.cont = NULL;
	if (ctx.cont && !ctx.cont_failed) {
		struct mgr_cont *c = ctx.cont;

		if (ctx.activated >= 0)
			c->dbc = ctx.activated;
		if (cont_wants_more(mgr, &ctx)) {
			uint32_t body = a.len - HDR_LEN;
			uint8_t *q;

			/* Keep this message's answers for the end. */
			if (a.overflow || body > sizeof(c->deferred) - c->deferred_len ||
			    ctx.nfix > NNC_FW_MAX_PENDING - c->nfix) {
				cont_abort(mgr, c);
				ans_start(mgr, &a);
				ans_status(mgr, &a, EMU_NNC_E_TOO_BIG);
				return ans_finish(mgr, &a, m, rsp, cap);
			}
			for (unsigned int i = 0; i < ctx.nfix; i++) {
				c->fix[c->nfix] = ctx.fix[i];
				c->fix[c->nfix++].off += c->deferred_len;
			}
			memcpy(c->deferred + c->deferred_len, a.buf + HDR_LEN, body);
			c->deferred_len += body;
			c->deferred_count += a.count;
			ans_start(mgr, &a);
			q = ans_trans(&a, T_DMA_XFER_CONT, CONT_LEN);
			if (q) {	/* always: the answer is empty here */
				put_le32(q + 8, c->chunk_id);
				put_le64(q + 16, c->xferred);
			}
			mgr->c.dma_conts++;
			return ans_finish(mgr, &a, m, rsp, cap);
		}
		/* Done: the whole request is answered now. */
		if (c->deferred_len) {
			uint8_t body[NNC_MAX_RSP_LEN];
			uint32_t blen = a.len - HDR_LEN, bcount = a.count;
			bool overflow = a.overflow;

			memcpy(body, a.buf + HDR_LEN, blen);
			ans_start(mgr, &a);
			ans_raw(&a, c->deferred, c->deferred_len, c->deferred_count);
			ans_raw(&a, body, blen, bcount);
			a.overflow |= overflow;
			for (unsigned int i = 0; i < ctx.nfix; i++)
				ctx.fix[i].off += c->deferred_len;
		}
		cont_done(mgr, c);
		for (unsigned int i = 0; i < c->nfix; i++)
			fw_fixup_apply(mgr, &c->fix[i], a.overflow ? NULL : a.buf + HDR_LEN);
		c->nfix = 0;
	}
	for (unsigned int i = 0; i < ctx.nfix; i++)
		fw_fixup_apply(mgr, &ctx.fix[i], a.overflow ? NULL : a.buf + HDR_LEN);
	return ans_finish(mgr, &a, m, rsp, cap);
}

/* ------------------------------------------------------------------ */

struct emu_manager *emu_manager_create(struct emu_device *dev)
{
	struct emu_manager *mgr = calloc(1, sizeof(*mgr));

	if (!mgr)
		return NULL;
	mgr->fw = emu_nnc_fw_create();
	if (!mgr->fw) {
		free(mgr);
		return NULL;
	}
	mgr->dev = dev;
	mgr->mem_size = EMU_MGR_DEFAULT_MEM;
	return mgr;
}

void emu_manager_ssr_done(struct emu_manager *mgr, unsigned int id)
{
	if (id < EMU_NUM_DBC)
		mgr->in_ssr[id] = false;
}

void emu_manager_reset(struct emu_manager *mgr)
{
	mgr->silent = false;
	memset(mgr->in_ssr, 0, sizeof(mgr->in_ssr));
	mgr->silence_next = false;
	mgr->nnc_armed = NULL;
	mgr->nnc_pending = NULL;
	for (unsigned int i = 0; i < EMU_NUM_DBC; i++)
		dbc_release(mgr, i);
	for (unsigned int i = 0; i < MAX_TAGS; i++)
		if (mgr->tags[i].used)
			tag_free(mgr, &mgr->tags[i]);
	for (unsigned int i = 0; i < MAX_CONTS; i++)
		mgr->conts[i].used = false;
	emu_nnc_fw_reset(mgr->fw);
	mgr->mem_used = 0;
}

void emu_manager_destroy(struct emu_manager *mgr)
{
	if (!mgr)
		return;
	mgr->dbc_ops = NULL;
	emu_manager_reset(mgr);
	emu_nnc_fw_destroy(mgr->fw);
	free(mgr);
}

void emu_manager_set_card_ops(struct emu_manager *mgr,
			      const struct emu_card_ops *ops, void *ctx)
{
	mgr->card_ops = ops;
	mgr->card_ctx = ctx;
}

void emu_manager_set_fw_ident(struct emu_manager *mgr, const char *serial,
			      const char *board_serial)
{
	snprintf(mgr->serial, sizeof(mgr->serial), "%s", serial ? serial : "");
	snprintf(mgr->board_serial, sizeof(mgr->board_serial), "%s",
		 board_serial ? board_serial : "");
}

void emu_manager_set_crc(struct emu_manager *mgr, bool on)
{
	mgr->crc = on;
}

void emu_manager_set_mem_size(struct emu_manager *mgr, uint64_t bytes)
{
	mgr->mem_size = bytes;
}

const struct emu_dbc_cfg *emu_manager_dbc(struct emu_manager *mgr,
					  unsigned int id)
{
	return id < EMU_NUM_DBC ? &mgr->dbc[id] : NULL;
}

void emu_manager_set_dbc_ops(struct emu_manager *mgr,
			     const struct emu_dbc_ops *ops, void *ctx)
{
	mgr->dbc_ops = ops;
	mgr->dbc_ctx = ctx;
}

struct emu_nnc_fw *emu_manager_fw(struct emu_manager *mgr)
{
	return mgr->fw;
}

const void *emu_manager_tag_data(struct emu_manager *mgr, uint32_t handle,
				 uint32_t tag, uint64_t *len)
{
	struct mgr_tag *t = tag_find(mgr, handle, tag, false);

	*len = t ? t->bytes : 0;
	return t && t->bytes ? t->data : NULL;
}

void emu_manager_print_counters(struct emu_manager *mgr, FILE *out)
{
	const struct mgr_counters *c = &mgr->c;
	unsigned int active = 0;

	for (unsigned int i = 0; i < EMU_NUM_DBC; i++)
		active += mgr->dbc[i].active;
	fprintf(out, "nnc_msgs %" PRIu64 "\n", c->msgs);
	fprintf(out, "nnc_bad_msgs %" PRIu64 "\n", c->bad_msgs);
	fprintf(out, "nnc_dropped %" PRIu64 "\n", c->dropped);
	fprintf(out, "nnc_crc_errors %" PRIu64 "\n", c->crc_errors);
	fprintf(out, "nnc_answers %" PRIu64 "\n", c->answers);
	fprintf(out, "nnc_transactions %" PRIu64 "\n", c->transactions);
	fprintf(out, "nnc_status %" PRIu64 "\n", c->status);
	fprintf(out, "nnc_passthrough %" PRIu64 "\n", c->passthrough);
	fprintf(out, "nnc_pt_errors %" PRIu64 "\n", c->pt_errors);
	fprintf(out, "nnc_fw_cmds %" PRIu64 "\n", c->fw_cmds);
	fprintf(out, "nnc_dma_xfers %" PRIu64 "\n", c->dma_xfers);
	fprintf(out, "nnc_dma_bytes %" PRIu64 "\n", c->dma_bytes);
	fprintf(out, "nnc_dma_errors %" PRIu64 "\n", c->dma_errors);
	fprintf(out, "nnc_dma_conts %" PRIu64 "\n", c->dma_conts);
	fprintf(out, "nnc_dma_aborts %" PRIu64 "\n", c->dma_aborts);
	fprintf(out, "nnc_activates %" PRIu64 "\n", c->activates);
	fprintf(out, "nnc_activate_errors %" PRIu64 "\n", c->activate_errors);
	fprintf(out, "nnc_deactivates %" PRIu64 "\n", c->deactivates);
	fprintf(out, "nnc_terminates %" PRIu64 "\n", c->terminates);
	fprintf(out, "nnc_validate_partitions %" PRIu64 "\n",
		c->validate_partitions);
	fprintf(out, "nnc_dbc_active %u\n", active);
	fprintf(out, "nnc_mem_used %" PRIu64 "\n", mgr->mem_used);
	emu_nnc_fw_print_counters(mgr->fw, out);
}
