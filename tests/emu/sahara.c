// SPDX-License-Identifier: GPL-2.0-only
/*
 * The card side of Sahara (see sahara.h).
 *
 * Facts used (Linux 6.12, drivers/accel/qaic/sahara.c and
 * mhi_controller.c): the channel numbers; the command numbers; a packet is
 * little-endian 32-bit words, command then length then the fields; HELLO
 * is 0x30 bytes (version, compatible version, max length, mode), READ_DATA
 * 0x14 (image, offset, length), END_OF_IMAGE 0x10 (image, status), DONE 8;
 * the host answers a read with exactly the bytes asked for and sends DONE
 * after an END_OF_IMAGE of status 0; the host limits a read to 0x80000
 * bytes; the AIC100 image table (ids 1, 2, 4, 5, 6, 8, 9, 10). READ_DATA64
 * (0x12) carries 64-bit image, offset and length; DONE_RESP (0x0c bytes)
 * carries whether more images are pending.
 *
 * How the card asks for an image (ours): its 32-byte header first, then
 * the payload from the end backwards, in pieces whose sizes cycle through
 * a fixed list (1 byte up to the largest read), alternating the 32- and
 * 64-bit forms of READ_DATA if the host answered HELLO with version 3 or
 * later (Linux 6.12's host answers 2 and knows no READ_DATA64: it gets
 * READ_DATA only).
 *
 * Copyright (c) 2026 The qaic authors.
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "card.h"
#include "device.h"
#include "fw_image.h"
#include "le_bytes.h"
#include "memdump.h"
#include "sahara.h"
#include "sahara_cases.h"
#include "sahara_images.h"

#define MAX_FAULTS		16
#define MAX_CASES		256
#define MAX_RESETS		8
/* Bit i: the boot went on without the card's image i. */
#define SKIPPED(i)		(1u << (i))
/* An image id the table does not have. */
#define UNKNOWN_IMAGE_ID	3
/* The id one past the AIC100 table (ids 0 to 10). */
#define PAST_TABLE_IMAGE_ID	11

static const uint32_t piece_sizes[] = {
	SAHARA_MAX_READ, 4096, 65535, 1, 100000, 65536, 777, 0x7ffff,
};
/*
 * A streaming SBL's (emu_sahara_table.streams), image i starting at entry
 * i: UINT32_MAX is the rest, 0x80001 one byte past the largest message
 * (the first image, over 1 MiB, is read in that and the rest).
 */
static const uint32_t stream_piece_sizes[] = {
	SAHARA_MAX_READ + 1, UINT32_MAX, 4096, 1, 0x100000, 65535,
};

static const char *const fault_names[SAHARA_FAULT_COUNT] = {
	[SAHARA_FAULT_NONE] = "none",
	[SAHARA_FAULT_UNKNOWN_IMAGE] = "unknown-image",
	[SAHARA_FAULT_OUT_OF_RANGE] = "out-of-range",
	[SAHARA_FAULT_ZERO_LENGTH] = "zero-length",
	[SAHARA_FAULT_OVERSIZE] = "oversize",
	[SAHARA_FAULT_NEVER_FINISH] = "never-finish",
	[SAHARA_FAULT_CORRUPT] = "corrupt",
	[SAHARA_FAULT_AFTER_DONE] = "after-done",
	[SAHARA_FAULT_EOI_NO_IMAGE] = "eoi-no-image",
	[SAHARA_FAULT_EOI_PAST_TABLE] = "eoi-past-table",
};

enum state {
	ST_IDLE,	/* not started */
	ST_HELLO,	/* HELLO sent, waiting for HELLO_RESP */
	ST_READ,	/* a read sent, waiting for its bytes */
	ST_EOI,		/* END_OF_IMAGE (status 0) sent, waiting for DONE */
	ST_FINISHED,	/* every image loaded: mission mode */
	ST_STOPPED,	/* silent: failed, or told to be */
	ST_MEMDUMP,	/* offering a crash's memory dump (memdump.c) */
};

struct emu_sahara {
	struct emu_device *dev;
	const struct emu_sahara_ops *ops;
	void *ctx;
	struct emu_memdump *md;		/* or NULL */

	enum emu_sahara_fault faults[MAX_FAULTS];
	unsigned int nr_faults;
	unsigned int boots;		/* boots started since creation */
	bool new_boot;			/* the next start is a new boot */
	enum emu_sahara_fault fault;	/* this boot's, until injected */
	unsigned int resets;		/* RESETs this boot */
	uint32_t skipped;		/* SKIPPED(i) of this boot */
	int cases[MAX_CASES];		/* of each boot in turn; -1: none */
	unsigned int nr_cases;
	char *case_file;		/* names each boot's case; or NULL */
	const struct emu_sahara_case *kase;	/* this boot's, until sent */

	enum state st;
	unsigned int idx;		/* into the card's table */
	uint8_t *img;			/* the image being read */
	uint64_t size;			/* its size; 0 until its header is in */
	uint64_t end;			/* bytes from here on are in */
	unsigned int piece;		/* reads of this image so far */
	uint32_t host_version;		/* from HELLO_RESP */
	uint64_t want_off, want_len;	/* the read outstanding */
	uint64_t got;			/* bytes of it in (a streaming SBL's) */
	bool fault_read;		/* it is a fault: its bytes are dropped */

	struct emu_sahara_counters c;
};

static const struct emu_sahara_table *table_of(const struct emu_sahara *s)
{
	return emu_card_of(&s->dev->pci)->sahara;
}

/* Id of image @idx of the card's table. */
static uint32_t image_id(const struct emu_sahara *s, unsigned int idx)
{
	return table_of(s)->images[idx].id;
}

int emu_sahara_fault_parse(const char *name)
{
	for (int i = 0; i < SAHARA_FAULT_COUNT; i++)
		if (!strcmp(name, fault_names[i]))
			return i;
	return -1;
}

const char *emu_sahara_fault_name(enum emu_sahara_fault f)
{
	return f < SAHARA_FAULT_COUNT ? fault_names[f] : "?";
}

int emu_sahara_set_faults(struct emu_sahara *s, const enum emu_sahara_fault *f,
			  unsigned int n)
{
	if (n > MAX_FAULTS)
		return -1;
	memcpy(s->faults, f, n * sizeof(*f));
	s->nr_faults = n;
	return 0;
}

int emu_sahara_set_cases(struct emu_sahara *s, const int *cases, unsigned int n)
{
	if (n > MAX_CASES)
		return -1;
	for (unsigned int i = 0; i < n; i++)
		if (cases[i] >= (int)emu_sahara_nr_cases)
			return -1;
	memcpy(s->cases, cases, n * sizeof(*cases));
	s->nr_cases = n;
	return 0;
}

int emu_sahara_set_case_file(struct emu_sahara *s, const char *path)
{
	free(s->case_file);
	s->case_file = path ? strdup(path) : NULL;
	return path && !s->case_file ? -1 : 0;
}

/*
 * The case of the boot that starts: from the file, which it takes (a
 * test that wrote it sees it gone), or from the list.
 */
static const struct emu_sahara_case *boot_case(struct emu_sahara *s)
{
	char line[128] = "";
	int n = -1;
	FILE *f;

	if (s->case_file) {
		f = fopen(s->case_file, "r");
		if (f) {
			if (fgets(line, sizeof(line), f))
				line[strcspn(line, "\n")] = '\0';
			fclose(f);
			unlink(s->case_file);
		}
		n = emu_sahara_case_parse(line);
		if (n < 0 && *line && strcmp(line, "none"))
			emu_log(s->dev, "Sahara: no case '%s' (%s)", line, s->case_file);
	} else if (s->boots < s->nr_cases) {
		n = s->cases[s->boots];
	}
	if (n < 0)
		return NULL;
	emu_log(s->dev, "Sahara: boot %u: case %d %s", s->boots, n, emu_sahara_cases[n].name);
	return &emu_sahara_cases[n];
}

/* This boot's case goes in at @at (the callers check the image too). */
static bool case_at(struct emu_sahara *s, enum emu_sahara_at at)
{
	return s->kase && s->kase->at == at;
}

/*
 * Send this boot's case for image @id (@last: the last one); true when
 * it replaces the normal packet.
 */
static bool case_send(struct emu_sahara *s, uint32_t id, bool last)
{
	const struct emu_sahara_case *c = s->kase;
	uint8_t *pkt = malloc(EMU_SAHARA_CASE_MAX_LEN);
	size_t len;

	s->kase = NULL;
	if (!pkt)
		return false;
	len = emu_sahara_case_packet(c, id, s->size, last, pkt);
	s->c.sahara_cases++;
	emu_log(s->dev, "Sahara: case %s: command %#x, %zu bytes", c->name, c->cmd, len);
	s->ops->send(s->ctx, pkt, len);
	free(pkt);
	return c->how == EMU_SAHARA_REPLACE;
}

/* This boot offers a dump first, with the case as its MEMORY_DEBUG64. */
static void case_to_memdump(struct emu_sahara *s)
{
	uint8_t *pkt = malloc(EMU_SAHARA_CASE_MAX_LEN);
	size_t len;

	if (pkt) {
		len = emu_sahara_case_packet(s->kase, 0, 0, false, pkt);
		if (!emu_memdump_offer_case(s->md, pkt, len)) {
			s->c.sahara_cases++;
			emu_log(s->dev, "Sahara: case %s: a dump offered", s->kase->name);
		}
		free(pkt);
	}
	s->kase = NULL;
}

/* Take this boot's fault if it is @f (once per boot). */
static bool fault_now(struct emu_sahara *s, enum emu_sahara_fault f)
{
	if (s->fault != f)
		return false;
	s->fault = SAHARA_FAULT_NONE;
	s->c.sahara_faults++;
	emu_log(s->dev, "Sahara: fault: %s", fault_names[f]);
	return true;
}

static void send_words(struct emu_sahara *s, const uint32_t *w, unsigned int n)
{
	uint8_t pkt[SAHARA_HELLO_LEN];

	memset(pkt, 0, sizeof(pkt));
	for (unsigned int i = 0; i < n; i++)
		put_le32(pkt + 4 * i, w[i]);
	s->ops->send(s->ctx, pkt, w[1]);
}

static void image_forget(struct emu_sahara *s)
{
	free(s->img);
	s->img = NULL;
	s->size = 0;
	s->end = 0;
	s->piece = 0;
	s->fault_read = false;
}

static void send_hello(struct emu_sahara *s)
{
	uint32_t w[] = { SAHARA_HELLO, SAHARA_HELLO_LEN, SAHARA_VERSION,
			 SAHARA_VERSION_COMPAT, SAHARA_HELLO_LEN, 0 };
	uint32_t id = image_id(s, s->idx);

	image_forget(s);
	s->st = ST_HELLO;
	s->c.sahara_sessions++;
	if (((s->idx == 0 && case_at(s, EMU_SAHARA_AT_HELLO)) ||
	     (s->idx == 1 && case_at(s, EMU_SAHARA_AT_NEXT_HELLO))) &&
	    case_send(s, id, false))
		return;
	send_words(s, w, 6);
}

static void send_read(struct emu_sahara *s, uint32_t image, uint64_t off,
		      uint64_t len, bool wide)
{
	s->st = ST_READ;
	s->want_off = off;
	s->want_len = len;
	s->got = 0;
	s->c.sahara_reads++;
	if (wide) {
		uint8_t pkt[SAHARA_READ_DATA64_LEN];

		put_le32(pkt, SAHARA_READ_DATA64);
		put_le32(pkt + 4, SAHARA_READ_DATA64_LEN);
		put_le64(pkt + 8, image);
		put_le64(pkt + 16, off);
		put_le64(pkt + 24, len);
		s->ops->send(s->ctx, pkt, sizeof(pkt));
	} else {
		uint32_t w[] = { SAHARA_READ_DATA, SAHARA_READ_DATA_LEN, image,
				 (uint32_t)off, (uint32_t)len };

		send_words(s, w, 5);
	}
}

static void send_eoi(struct emu_sahara *s, uint32_t status)
{
	uint32_t w[] = { SAHARA_END_OF_IMAGE, SAHARA_END_OF_IMAGE_LEN,
			 image_id(s, s->idx), status };

	if (status || s->idx || !case_at(s, EMU_SAHARA_AT_EOI) ||
	    !case_send(s, w[2], false))
		send_words(s, w, 4);
	if (status) {
		s->c.sahara_images_bad++;
		s->st = ST_STOPPED;
		emu_log(s->dev, "Sahara: image %u refused",
			image_id(s, s->idx));
	} else {
		s->c.sahara_images_ok++;
		s->st = ST_EOI;
	}
	image_forget(s);
}

/* A fault request instead of the next real one; false if none is due. */
static bool fault_read(struct emu_sahara *s, uint32_t id)
{
	if (fault_now(s, SAHARA_FAULT_UNKNOWN_IMAGE))
		send_read(s, UNKNOWN_IMAGE_ID, 0, FW_IMAGE_HDR_LEN, false);
	else if (fault_now(s, SAHARA_FAULT_ZERO_LENGTH))
		send_read(s, id, 0, 0, false);
	else if (fault_now(s, SAHARA_FAULT_OVERSIZE))
		send_read(s, id, 0, SAHARA_MAX_READ + 1ull, s->host_version >= 3);
	else if (s->size && fault_now(s, SAHARA_FAULT_OUT_OF_RANGE))
		send_read(s, id, s->size - 16, 32, false);
	else
		return false;
	s->fault_read = true;
	return true;
}

/*
 * An END_OF_IMAGE instead of the first read, when no image is open; false
 * if none is due. The card then falls silent.
 */
static bool fault_eoi(struct emu_sahara *s)
{
	uint32_t w[] = { SAHARA_END_OF_IMAGE, SAHARA_END_OF_IMAGE_LEN, 0, 1 };

	if (fault_now(s, SAHARA_FAULT_EOI_NO_IMAGE))
		w[2] = UINT32_MAX;
	else if (fault_now(s, SAHARA_FAULT_EOI_PAST_TABLE))
		w[2] = PAST_TABLE_IMAGE_ID;
	else
		return false;
	send_words(s, w, 4);
	s->st = ST_STOPPED;
	return true;
}

/* Ask for the next piece of the current image, or finish it. */
static void next_read(struct emu_sahara *s)
{
	uint32_t id = image_id(s, s->idx);
	uint64_t piece;
	bool ok;

	if (fault_read(s, id))
		return;
	if (!s->idx && ((!s->size && case_at(s, EMU_SAHARA_AT_READ_CLOSED)) ||
			(s->size && !s->piece && case_at(s, EMU_SAHARA_AT_READ_OPEN)))) {
		bool answered = s->kase->how != EMU_SAHARA_INSERT;

		case_send(s, id, false);
		if (answered) {
			/* Its answer, if any, is dropped; then this read. */
			s->st = ST_READ;
			s->fault_read = true;
			return;
		}
	}
	if (!s->size) {
		send_read(s, id, 0, FW_IMAGE_HDR_LEN, false);
		return;
	}
	if (s->end > FW_IMAGE_HDR_LEN) {
		if (table_of(s)->streams)
			/*
			 * Each image starts at its own place in the list: its
			 * first read is not always the rest, which would
			 * leave the others unused.
			 */
			piece = stream_piece_sizes[(s->idx + s->piece) %
						   (sizeof(stream_piece_sizes) /
						    sizeof(stream_piece_sizes[0]))];
		else
			piece = piece_sizes[s->piece % (sizeof(piece_sizes) /
							sizeof(piece_sizes[0]))];
		if (piece > s->end - FW_IMAGE_HDR_LEN)
			piece = s->end - FW_IMAGE_HDR_LEN;
		send_read(s, id, s->end - piece, piece,
			  !table_of(s)->streams && s->host_version >= 3 && (s->piece & 1));
		s->piece++;
		return;
	}
	if (fault_now(s, SAHARA_FAULT_CORRUPT))
		s->img[s->size - 1] ^= 0x01;
	ok = fw_image_ok(s->img, s->size, id);
	send_eoi(s, ok ? 0 : SAHARA_STATUS_BAD_IMAGE);
}

/* The bytes of the outstanding read. */
static void rx_data(struct emu_sahara *s, const uint8_t *msg, size_t len)
{
	uint32_t id = image_id(s, s->idx);
	int64_t payload;

	if (s->fault_read) {
		/* A host that served a bad request: carry on regardless. */
		s->fault_read = false;
		next_read(s);
		return;
	}
	/*
	 * A streaming SBL gathers a read's bytes from as many transfers as
	 * the host makes of it (Linux 7.2's: 0xffff bytes each; ours: up to
	 * SAHARA_MAX_READ); the header's read is always one.
	 */
	if (table_of(s)->streams && s->size && len < s->want_len - s->got) {
		memcpy(s->img + s->want_off + s->got, msg, len);
		s->got += len;
		s->c.sahara_bytes += len;
		return;
	}
	if (len != s->want_len - s->got) {
		s->c.sahara_bad_msgs++;
		emu_log(s->dev, "Sahara: %zu bytes for a read of %" PRIu64 " (%" PRIu64 " in)",
			len, s->want_len, s->got);
		send_eoi(s, SAHARA_STATUS_BAD_IMAGE);
		return;
	}
	s->c.sahara_bytes += len;
	if (!s->size) {
		payload = fw_image_hdr_payload(msg, id);
		if (payload < 0) {
			emu_log(s->dev, "Sahara: image %u: bad header", id);
			send_eoi(s, SAHARA_STATUS_BAD_IMAGE);
			return;
		}
		s->size = FW_IMAGE_HDR_LEN + (uint64_t)payload;
		s->img = malloc(s->size);
		if (!s->img) {
			send_eoi(s, SAHARA_STATUS_BAD_IMAGE);
			return;
		}
		memcpy(s->img, msg, FW_IMAGE_HDR_LEN);
		s->end = s->size;
	} else {
		memcpy(s->img + s->want_off + s->got, msg, len);
		s->end = s->want_off;
	}
	next_read(s);
}

static void rx_done(struct emu_sahara *s)
{
	bool last = s->idx + 1 == table_of(s)->nr;
	uint32_t id = image_id(s, s->idx);
	uint32_t w[] = { SAHARA_DONE_RESP, SAHARA_DONE_RESP_LEN,
			 last ? SAHARA_TX_COMPLETE : SAHARA_TX_PENDING };

	if (!(((!s->idx && case_at(s, EMU_SAHARA_AT_DONE_RESP)) ||
	       (last && case_at(s, EMU_SAHARA_AT_LAST_DONE_RESP))) &&
	      case_send(s, id, last)))
		send_words(s, w, 3);
	if (!last) {
		s->idx++;
		send_hello(s);
		return;
	}
	if (fault_now(s, SAHARA_FAULT_AFTER_DONE)) {
		send_read(s, image_id(s, 0), 0, FW_IMAGE_HDR_LEN, false);
		s->st = ST_STOPPED;
		return;
	}
	if (case_at(s, EMU_SAHARA_AT_AFTER_LAST)) {
		case_send(s, id, true);
		s->st = ST_STOPPED;
		return;
	}
	s->st = ST_FINISHED;
	s->c.sahara_boots++;
	emu_log(s->dev, "Sahara: every image loaded");
	s->ops->booted(s->ctx);
}

/*
 * The host has no image (its RESET answered the first read of one): the
 * card goes on without an optional image, and cannot without another.
 */
static void host_has_none(struct emu_sahara *s)
{
	uint32_t id = image_id(s, s->idx);
	uint32_t w[] = { SAHARA_END_OF_IMAGE, SAHARA_END_OF_IMAGE_LEN, id, 0 };

	image_forget(s);
	if (!table_of(s)->images[s->idx].optional) {
		w[3] = SAHARA_STATUS_NO_IMAGE;
		send_words(s, w, 4);
		s->c.sahara_images_missing++;
		s->st = ST_STOPPED;
		emu_log(s->dev, "Sahara: the host has no image %u, which the card needs", id);
		return;
	}
	/* The host's DONE follows, as after any image. */
	send_words(s, w, 4);
	s->skipped |= SKIPPED(s->idx);
	s->c.sahara_images_skipped++;
	s->st = ST_EOI;
	emu_log(s->dev, "Sahara: the host has no image %u: going on without it", id);
}

/*
 * The host's RESET. Before any byte of an image came (its first read,
 * the header's, is outstanding) it says the host has no such image: a
 * host with the file would have sent it, and Linux's answers a file it
 * cannot load with RESET. Anywhere else, and after one of the card's own
 * faults, the card asks for the image again from its HELLO, at most
 * MAX_RESETS times a boot.
 */
static void rx_reset(struct emu_sahara *s)
{
	uint32_t w[] = { SAHARA_RESET_RESP, SAHARA_RESET_LEN };
	bool no_image = s->st == ST_READ && !s->size && !s->fault_read;

	s->c.sahara_resets++;
	send_words(s, w, 2);
	if (no_image) {
		host_has_none(s);
		return;
	}
	if (++s->resets > MAX_RESETS) {
		s->st = ST_STOPPED;
		return;
	}
	/* Try the image again from its HELLO. */
	send_hello(s);
}

void emu_sahara_rx(struct emu_sahara *s, const uint8_t *msg, size_t len)
{
	uint32_t cmd = len >= 8 ? get_le32(msg) : 0;
	uint32_t plen = len >= 8 ? get_le32(msg + 4) : 0;
	bool is_reset = cmd == SAHARA_RESET && plen == SAHARA_RESET_LEN &&
			len == SAHARA_RESET_LEN;

	if (s->st == ST_MEMDUMP) {
		if (emu_memdump_rx(s->md, msg, len))
			send_hello(s);	/* the dump is over: the images */
		return;
	}
	if (s->st == ST_READ && !(is_reset && s->want_len - s->got != len)) {
		rx_data(s, msg, len);
		return;
	}
	if (s->st == ST_STOPPED || s->st == ST_IDLE)
		return;			/* nobody listens */
	if (is_reset) {
		rx_reset(s);
		return;
	}
	if (s->st == ST_HELLO && cmd == SAHARA_HELLO_RESP &&
	    plen == SAHARA_HELLO_LEN && len == SAHARA_HELLO_LEN &&
	    !get_le32(msg + 16)) {
		s->host_version = get_le32(msg + 8);
		if (fault_now(s, SAHARA_FAULT_NEVER_FINISH)) {
			s->st = ST_STOPPED;
			return;
		}
		if (!s->size && fault_eoi(s))
			return;
		next_read(s);
		return;
	}
	if (s->st == ST_EOI && cmd == SAHARA_DONE && plen == SAHARA_DONE_LEN &&
	    len == SAHARA_DONE_LEN) {
		rx_done(s);
		return;
	}
	s->c.sahara_bad_msgs++;
	emu_log(s->dev, "Sahara: unexpected message (cmd %#x, %zu bytes) in state %d",
		cmd, len, s->st);
}

void emu_sahara_power_on(struct emu_sahara *s)
{
	image_forget(s);
	s->st = ST_IDLE;
	s->new_boot = true;
}

void emu_sahara_start(struct emu_sahara *s)
{
	if (s->st == ST_FINISHED)
		return;
	if (s->new_boot) {
		s->new_boot = false;
		s->fault = s->boots < s->nr_faults ? s->faults[s->boots] :
						     SAHARA_FAULT_NONE;
		s->kase = boot_case(s);
		if (s->kase && s->kase->at == EMU_SAHARA_AT_DUMP_DEBUG && s->md)
			case_to_memdump(s);
		s->boots++;
		s->resets = 0;
		s->skipped = 0;
		s->idx = 0;
		if (s->md && emu_memdump_start(s->md)) {
			s->st = ST_MEMDUMP;
			return;
		}
	} else if (s->st == ST_STOPPED) {
		return;			/* a failed boot stays failed */
	}
	send_hello(s);
}

void emu_sahara_stop(struct emu_sahara *s)
{
	image_forget(s);
	if (s->st == ST_MEMDUMP) {
		emu_memdump_stop(s->md);
		s->st = ST_IDLE;
	}
	if (s->st != ST_FINISHED && s->st != ST_STOPPED)
		s->st = ST_IDLE;
}

void emu_sahara_set_memdump(struct emu_sahara *s, struct emu_memdump *md)
{
	s->md = md;
}

void emu_sahara_tick(struct emu_sahara *s)
{
	if (s->st == ST_MEMDUMP && emu_memdump_tick(s->md))
		send_hello(s);
}

struct emu_sahara *emu_sahara_create(struct emu_device *dev,
				     const struct emu_sahara_ops *ops, void *ctx)
{
	struct emu_sahara *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->dev = dev;
	s->ops = ops;
	s->ctx = ctx;
	s->new_boot = true;
	return s;
}

void emu_sahara_destroy(struct emu_sahara *s)
{
	if (!s)
		return;
	image_forget(s);
	free(s->case_file);
	free(s);
}

bool emu_sahara_image_skipped(const struct emu_sahara *s, unsigned int idx)
{
	return idx < table_of(s)->nr && (s->skipped & SKIPPED(idx));
}

const struct emu_sahara_counters *emu_sahara_counters(const struct emu_sahara *s)
{
	return &s->c;
}

void emu_sahara_counters_print(const struct emu_sahara *s, FILE *out)
{
	const struct emu_sahara_counters *c = &s->c;

	fprintf(out, "sahara_sessions %" PRIu64 "\n", c->sahara_sessions);
	fprintf(out, "sahara_reads %" PRIu64 "\n", c->sahara_reads);
	fprintf(out, "sahara_bytes %" PRIu64 "\n", c->sahara_bytes);
	fprintf(out, "sahara_images_ok %" PRIu64 "\n", c->sahara_images_ok);
	fprintf(out, "sahara_images_bad %" PRIu64 "\n", c->sahara_images_bad);
	fprintf(out, "sahara_boots %" PRIu64 "\n", c->sahara_boots);
	fprintf(out, "sahara_resets %" PRIu64 "\n", c->sahara_resets);
	fprintf(out, "sahara_images_skipped %" PRIu64 "\n", c->sahara_images_skipped);
	fprintf(out, "sahara_images_missing %" PRIu64 "\n", c->sahara_images_missing);
	fprintf(out, "sahara_bad_msgs %" PRIu64 "\n", c->sahara_bad_msgs);
	fprintf(out, "sahara_faults %" PRIu64 "\n", c->sahara_faults);
	fprintf(out, "sahara_cases %" PRIu64 "\n", c->sahara_cases);
}
