// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * The systematic Sahara cases (see sahara_cases.h).
 *
 * The first image of a boot is id 1, the largest of the table (over
 * SAHARA_MAX_READ bytes in the bench's firmware and in the unit tests'):
 * the reads of a case that name the current image and offsets from its
 * end are checked against that image. The AIC100 table has ids 1 to 10
 * with holes at 0, 3 and 7; 11 is one past it.
 *
 * Copyright (c) 2026 The qaic authors.
 */
#include <string.h>

#include "case_table.h"
#include "sahara_cases.h"
#include "sahara_proto.h"

#define N		{ EMU_SAHARA_NORMAL, 0 }
#define A(x)		{ EMU_SAHARA_ABS, (uint64_t)(x) }
#define IMG(x)		{ EMU_SAHARA_IMAGE, (uint64_t)(x) }
#define SZ(x)		{ EMU_SAHARA_SIZE, (uint64_t)(x) }
#define LEN(x)		{ EMU_SAHARA_LEN, (uint64_t)(x) }
/* All-ones, whatever the field's width. */
#define ONES		A(UINT64_MAX)

#define FAILS		EMU_SAHARA_BOOT_FAILS
#define GOES_ON		EMU_SAHARA_BOOT_GOES_ON
#define ABANDONED	EMU_SAHARA_DUMP_ABANDONED

#define CASE(nm, where, hw, verdict_, command, ...)				\
	{ .name = (nm), .at = EMU_SAHARA_AT_##where, .how = EMU_SAHARA_##hw,	\
	  .verdict = (verdict_), .cmd = (command), __VA_ARGS__ }

/* The length word off by one, 0 and all-ones; the packet a byte short and long. */
#define LENGTHS(prefix, where, hw, command)					\
	CASE(prefix "-len-field-minus-1", where, hw, FAILS, command,		\
	     .len_field = LEN(-1)),						\
	CASE(prefix "-len-field-plus-1", where, hw, FAILS, command,		\
	     .len_field = LEN(1)),						\
	CASE(prefix "-len-field-0", where, hw, FAILS, command,			\
	     .len_field = A(0)),						\
	CASE(prefix "-len-field-ones", where, hw, FAILS, command,		\
	     .len_field = ONES),						\
	CASE(prefix "-short", where, hw, FAILS, command, .len_delta = -1),	\
	CASE(prefix "-long", where, hw, FAILS, command, .len_delta = 1)

/* A command the card never sends, with no fields, before the first read. */
#define UNKNOWN(nm, command)	CASE(nm, READ_CLOSED, INSERT, FAILS, command)

const struct emu_sahara_case emu_sahara_cases[] = {
	/* Nothing changed: the boot every other case departs from. */
	CASE("good", HELLO, REPLACE, GOES_ON, SAHARA_HELLO),

	/* HELLO: version, compatible version, max length, mode, reserved. */
	CASE("hello-version-0", HELLO, REPLACE, FAILS, SAHARA_HELLO, .f = { A(0) }),
	CASE("hello-version-1", HELLO, REPLACE, FAILS, SAHARA_HELLO, .f = { A(1) }),
	CASE("hello-version-3", HELLO, REPLACE, GOES_ON, SAHARA_HELLO, .f = { A(3) }),
	CASE("hello-version-ones", HELLO, REPLACE, GOES_ON, SAHARA_HELLO, .f = { ONES }),
	CASE("hello-compat-0", HELLO, REPLACE, GOES_ON, SAHARA_HELLO, .f = { N, A(0) }),
	CASE("hello-compat-3", HELLO, REPLACE, GOES_ON, SAHARA_HELLO, .f = { A(3), A(3) }),
	CASE("hello-compat-4", HELLO, REPLACE, FAILS, SAHARA_HELLO, .f = { A(4), A(4) }),
	CASE("hello-compat-ones", HELLO, REPLACE, FAILS, SAHARA_HELLO, .f = { ONES, ONES }),
	CASE("hello-max-len-0", HELLO, REPLACE, GOES_ON, SAHARA_HELLO, .f = { N, N, A(0) }),
	CASE("hello-max-len-ones", HELLO, REPLACE, GOES_ON, SAHARA_HELLO, .f = { N, N, ONES }),
	CASE("hello-mode-complete", HELLO, REPLACE, GOES_ON, SAHARA_HELLO,
	     .f = { N, N, N, A(SAHARA_MODE_IMAGE_COMPLETE) }),
	/* A memory dump offered, then images asked for. */
	CASE("hello-mode-memory-debug", HELLO, REPLACE, FAILS, SAHARA_HELLO,
	     .f = { N, N, N, A(SAHARA_MODE_MEMORY_DEBUG) }),
	CASE("hello-mode-3", HELLO, REPLACE, FAILS, SAHARA_HELLO, .f = { N, N, N, A(3) }),
	CASE("hello-mode-ones", HELLO, REPLACE, FAILS, SAHARA_HELLO, .f = { N, N, N, ONES }),
	CASE("hello-reserved-ones", HELLO, REPLACE, GOES_ON, SAHARA_HELLO,
	     .f = { N, N, N, N, ONES }),
	LENGTHS("hello", HELLO, REPLACE, SAHARA_HELLO),
	/* Packets of no command, of a command alone, over the host's buffer. */
	CASE("packet-empty", HELLO, REPLACE, FAILS, SAHARA_HELLO,
	     .len_delta = -SAHARA_HELLO_LEN),
	CASE("packet-command-only", HELLO, REPLACE, FAILS, SAHARA_HELLO,
	     .len_delta = 4 - SAHARA_HELLO_LEN),
	CASE("packet-over-buffer", HELLO, REPLACE, FAILS, SAHARA_HELLO,
	     .len_delta = EMU_SAHARA_CASE_MAX_LEN - SAHARA_HELLO_LEN),
	/* HELLO out of its place: a new session mid-image is allowed. */
	CASE("hello-mid-image", READ_OPEN, INSERT_ANSWERED, GOES_ON, SAHARA_HELLO),
	CASE("hello-memory-debug-mid-boot", NEXT_HELLO, REPLACE, FAILS, SAHARA_HELLO,
	     .f = { N, N, N, A(SAHARA_MODE_MEMORY_DEBUG) }),
	CASE("hello-after-last", AFTER_LAST, INSERT, FAILS, SAHARA_HELLO),

	/* READ_DATA's image id with no image open: 0, holes, past, max. */
	CASE("read-image-0", READ_CLOSED, INSERT_ANSWERED, FAILS, SAHARA_READ_DATA,
	     .f = { A(0) }),
	CASE("read-image-3", READ_CLOSED, INSERT_ANSWERED, FAILS, SAHARA_READ_DATA,
	     .f = { A(3) }),
	CASE("read-image-7", READ_CLOSED, INSERT_ANSWERED, FAILS, SAHARA_READ_DATA,
	     .f = { A(7) }),
	CASE("read-image-11", READ_CLOSED, INSERT_ANSWERED, FAILS, SAHARA_READ_DATA,
	     .f = { A(11) }),
	CASE("read-image-max-minus-1", READ_CLOSED, INSERT_ANSWERED, FAILS, SAHARA_READ_DATA,
	     .f = { A(0xfffffffe) }),
	CASE("read-image-ones", READ_CLOSED, INSERT_ANSWERED, FAILS, SAHARA_READ_DATA,
	     .f = { ONES }),
	/* Image 10 (a good one) opened, then image 1 asked for: two open. */
	CASE("read-image-10-then-1", READ_CLOSED, INSERT_ANSWERED, FAILS, SAHARA_READ_DATA,
	     .f = { A(10) }),
	CASE("read-other-image-open", READ_OPEN, INSERT_ANSWERED, FAILS, SAHARA_READ_DATA,
	     .f = { IMG(1) }),
	/* READ_DATA's offset and length against the open image. */
	CASE("read-len-0", READ_OPEN, INSERT_ANSWERED, FAILS, SAHARA_READ_DATA,
	     .f = { N, A(0), A(0) }),
	CASE("read-len-1", READ_OPEN, INSERT_ANSWERED, GOES_ON, SAHARA_READ_DATA,
	     .f = { N, A(0), A(1) }),
	CASE("read-len-max", READ_OPEN, INSERT_ANSWERED, GOES_ON, SAHARA_READ_DATA,
	     .f = { N, A(0), A(SAHARA_MAX_READ) }),
	CASE("read-len-max-plus-1", READ_OPEN, INSERT_ANSWERED, FAILS, SAHARA_READ_DATA,
	     .f = { N, A(0), A(SAHARA_MAX_READ + 1) }),
	CASE("read-len-ones", READ_OPEN, INSERT_ANSWERED, FAILS, SAHARA_READ_DATA,
	     .f = { N, A(0), ONES }),
	CASE("read-last-byte", READ_OPEN, INSERT_ANSWERED, GOES_ON, SAHARA_READ_DATA,
	     .f = { N, SZ(-1), A(1) }),
	CASE("read-at-size", READ_OPEN, INSERT_ANSWERED, FAILS, SAHARA_READ_DATA,
	     .f = { N, SZ(0), A(1) }),
	CASE("read-at-size-plus-1", READ_OPEN, INSERT_ANSWERED, FAILS, SAHARA_READ_DATA,
	     .f = { N, SZ(1), A(1) }),
	CASE("read-last-byte-plus-1", READ_OPEN, INSERT_ANSWERED, FAILS, SAHARA_READ_DATA,
	     .f = { N, SZ(-1), A(2) }),
	CASE("read-max-at-end", READ_OPEN, INSERT_ANSWERED, GOES_ON, SAHARA_READ_DATA,
	     .f = { N, SZ(-SAHARA_MAX_READ), A(SAHARA_MAX_READ) }),
	CASE("read-max-past-end", READ_OPEN, INSERT_ANSWERED, FAILS, SAHARA_READ_DATA,
	     .f = { N, SZ(1 - SAHARA_MAX_READ), A(SAHARA_MAX_READ) }),
	/* Offset + length wraps to 0 in 32 bits. */
	CASE("read-offset-ones", READ_OPEN, INSERT_ANSWERED, FAILS, SAHARA_READ_DATA,
	     .f = { N, ONES, A(1) }),
	LENGTHS("read", READ_OPEN, INSERT_ANSWERED, SAHARA_READ_DATA),

	/* READ_DATA64: 64-bit values whose low 32 bits look good. */
	CASE("read64-len-1", READ_OPEN, INSERT_ANSWERED, GOES_ON, SAHARA_READ_DATA64,
	     .f = { N, A(0), A(1) }),
	CASE("read64-last-byte", READ_OPEN, INSERT_ANSWERED, GOES_ON, SAHARA_READ_DATA64,
	     .f = { N, SZ(-1), A(1) }),
	CASE("read64-image-2p32", READ_OPEN, INSERT_ANSWERED, FAILS, SAHARA_READ_DATA64,
	     .f = { IMG(1ull << 32) }),
	CASE("read64-image-11", READ_CLOSED, INSERT_ANSWERED, FAILS, SAHARA_READ_DATA64,
	     .f = { A(11) }),
	CASE("read64-image-ones", READ_CLOSED, INSERT_ANSWERED, FAILS, SAHARA_READ_DATA64,
	     .f = { ONES }),
	CASE("read64-offset-2p32", READ_OPEN, INSERT_ANSWERED, FAILS, SAHARA_READ_DATA64,
	     .f = { N, A(1ull << 32), A(1) }),
	/* Offset + length wraps to 1 in 64 bits. */
	CASE("read64-offset-ones", READ_OPEN, INSERT_ANSWERED, FAILS, SAHARA_READ_DATA64,
	     .f = { N, ONES, A(2) }),
	CASE("read64-len-2p32-plus-1", READ_OPEN, INSERT_ANSWERED, FAILS, SAHARA_READ_DATA64,
	     .f = { N, A(0), A((1ull << 32) + 1) }),
	CASE("read64-len-max-plus-1", READ_OPEN, INSERT_ANSWERED, FAILS, SAHARA_READ_DATA64,
	     .f = { N, A(0), A(SAHARA_MAX_READ + 1) }),
	CASE("read64-len-ones", READ_OPEN, INSERT_ANSWERED, FAILS, SAHARA_READ_DATA64,
	     .f = { N, A(0), ONES }),
	LENGTHS("read64", READ_OPEN, INSERT_ANSWERED, SAHARA_READ_DATA64),

	/* END_OF_IMAGE of the open image: another id, bad status. */
	CASE("eoi-other-image", EOI, REPLACE, FAILS, SAHARA_END_OF_IMAGE, .f = { IMG(1) }),
	CASE("eoi-image-0", EOI, REPLACE, FAILS, SAHARA_END_OF_IMAGE, .f = { A(0) }),
	CASE("eoi-image-11", EOI, REPLACE, FAILS, SAHARA_END_OF_IMAGE, .f = { A(11) }),
	CASE("eoi-image-ones", EOI, REPLACE, FAILS, SAHARA_END_OF_IMAGE, .f = { ONES }),
	CASE("eoi-status-1", EOI, REPLACE, FAILS, SAHARA_END_OF_IMAGE, .f = { N, A(1) }),
	CASE("eoi-status-ones", EOI, REPLACE, FAILS, SAHARA_END_OF_IMAGE, .f = { N, ONES }),
	LENGTHS("eoi", EOI, REPLACE, SAHARA_END_OF_IMAGE),
	/* END_OF_IMAGE (status 0) out of its state. */
	CASE("eoi-no-image", READ_CLOSED, INSERT_ANSWERED, FAILS, SAHARA_END_OF_IMAGE),
	CASE("eoi-no-image-ones", READ_CLOSED, INSERT_ANSWERED, FAILS, SAHARA_END_OF_IMAGE,
	     .f = { ONES }),
	CASE("eoi-no-image-11", READ_CLOSED, INSERT_ANSWERED, FAILS, SAHARA_END_OF_IMAGE,
	     .f = { A(11) }),
	/* DONE answered with more reads, not with DONE_RESP. */
	CASE("eoi-mid-image", READ_OPEN, INSERT_ANSWERED, FAILS, SAHARA_END_OF_IMAGE),
	CASE("eoi-after-last", AFTER_LAST, INSERT, FAILS, SAHARA_END_OF_IMAGE),

	/* DONE_RESP's status: anything but complete means more images. */
	CASE("done-resp-complete-early", DONE_RESP, REPLACE, FAILS, SAHARA_DONE_RESP,
	     .f = { A(SAHARA_TX_COMPLETE) }),
	CASE("done-resp-status-2", DONE_RESP, REPLACE, GOES_ON, SAHARA_DONE_RESP,
	     .f = { A(2) }),
	CASE("done-resp-status-ones", DONE_RESP, REPLACE, GOES_ON, SAHARA_DONE_RESP,
	     .f = { ONES }),
	/* The last image's DONE_RESP says more follow; the card goes to AMSS. */
	CASE("last-done-resp-pending", LAST_DONE_RESP, REPLACE, GOES_ON, SAHARA_DONE_RESP,
	     .f = { A(SAHARA_TX_PENDING) }),
	LENGTHS("done-resp", DONE_RESP, REPLACE, SAHARA_DONE_RESP),
	/* DONE_RESP where no DONE was sent. */
	CASE("done-resp-before-eoi", READ_CLOSED, INSERT, FAILS, SAHARA_DONE_RESP),
	CASE("done-resp-complete-before-eoi", READ_CLOSED, INSERT, FAILS, SAHARA_DONE_RESP,
	     .f = { A(SAHARA_TX_COMPLETE) }),
	CASE("done-resp-twice", DONE_RESP, INSERT, FAILS, SAHARA_DONE_RESP),
	CASE("done-resp-after-last", AFTER_LAST, INSERT, FAILS, SAHARA_DONE_RESP),

	/* RESET_RESP with no RESET sent. */
	CASE("reset-resp-at-hello", HELLO, INSERT, FAILS, SAHARA_RESET_RESP),
	CASE("reset-resp-mid-image", READ_CLOSED, INSERT, FAILS, SAHARA_RESET_RESP),
	LENGTHS("reset-resp", READ_CLOSED, INSERT, SAHARA_RESET_RESP),

	/* MEMORY_DEBUG64 outside memory-debug mode. */
	CASE("memory-debug-at-hello", HELLO, REPLACE, FAILS, SAHARA_MEMORY_DEBUG64),
	CASE("memory-debug-mid-image", READ_CLOSED, INSERT, FAILS, SAHARA_MEMORY_DEBUG64),
	LENGTHS("memory-debug", READ_CLOSED, INSERT, SAHARA_MEMORY_DEBUG64),

	/* Commands a card never sends: the host's own, holes, past, max. */
	UNKNOWN("command-0", 0),
	UNKNOWN("command-hello-resp", SAHARA_HELLO_RESP),
	UNKNOWN("command-done", SAHARA_DONE),
	UNKNOWN("command-reset", SAHARA_RESET),
	UNKNOWN("command-9", 0x09),
	UNKNOWN("command-0xf", 0x0f),
	UNKNOWN("command-memory-read64", SAHARA_MEMORY_READ64),
	UNKNOWN("command-0x13", 0x13),
	UNKNOWN("command-max-minus-1", 0xfffffffe),
	UNKNOWN("command-ones", 0xffffffff),
	CASE("read-after-last", AFTER_LAST, INSERT, FAILS, SAHARA_READ_DATA),

	/*
	 * MEMORY_DEBUG64 of a dump the card offers: its table's address and
	 * length (3 entries of 64 bytes normally; at most 256 entries).
	 */
	CASE("dump-good", DUMP_DEBUG, REPLACE, GOES_ON, SAHARA_MEMORY_DEBUG64),
	CASE("dump-table-len-0", DUMP_DEBUG, REPLACE, ABANDONED, SAHARA_MEMORY_DEBUG64,
	     .f = { N, A(0) }),
	CASE("dump-table-len-1", DUMP_DEBUG, REPLACE, ABANDONED, SAHARA_MEMORY_DEBUG64,
	     .f = { N, A(1) }),
	CASE("dump-table-len-minus-1", DUMP_DEBUG, REPLACE, ABANDONED, SAHARA_MEMORY_DEBUG64,
	     .f = { N, A(3 * 64 - 1) }),
	CASE("dump-table-len-plus-1", DUMP_DEBUG, REPLACE, ABANDONED, SAHARA_MEMORY_DEBUG64,
	     .f = { N, A(3 * 64 + 1) }),
	CASE("dump-table-257-entries", DUMP_DEBUG, REPLACE, ABANDONED, SAHARA_MEMORY_DEBUG64,
	     .f = { N, A(257 * 64) }),
	CASE("dump-table-len-2p32", DUMP_DEBUG, REPLACE, ABANDONED, SAHARA_MEMORY_DEBUG64,
	     .f = { N, A((1ull << 32) + 3 * 64) }),
	CASE("dump-table-len-ones", DUMP_DEBUG, REPLACE, ABANDONED, SAHARA_MEMORY_DEBUG64,
	     .f = { N, ONES }),
	/* Where the card has no table: it refuses the read. */
	CASE("dump-table-addr-0", DUMP_DEBUG, REPLACE, ABANDONED, SAHARA_MEMORY_DEBUG64,
	     .f = { A(0) }),
	CASE("dump-table-addr-ones", DUMP_DEBUG, REPLACE, ABANDONED, SAHARA_MEMORY_DEBUG64,
	     .f = { ONES }),
	LENGTHS("dump-debug", DUMP_DEBUG, REPLACE, SAHARA_MEMORY_DEBUG64),
};

const unsigned int emu_sahara_nr_cases = sizeof(emu_sahara_cases) / sizeof(emu_sahara_cases[0]);

_Static_assert(offsetof(struct emu_sahara_case, name) == 0, "emu_case_find() reads the name first");

int emu_sahara_case_parse(const char *s)
{
	return emu_case_find(s, emu_sahara_cases, sizeof(emu_sahara_cases[0]), emu_sahara_nr_cases);
}

const char *emu_sahara_verdict_name(unsigned int verdict)
{
	switch (verdict) {
	case EMU_SAHARA_BOOT_FAILS:
		return "fails";
	case EMU_SAHARA_DUMP_ABANDONED:
		return "dump-abandoned";
	default:
		return "goes-on";
	}
}

static uint32_t normal_len(uint32_t cmd)
{
	switch (cmd) {
	case SAHARA_HELLO:
	case SAHARA_HELLO_RESP:
		return SAHARA_HELLO_LEN;
	case SAHARA_READ_DATA:
		return SAHARA_READ_DATA_LEN;
	case SAHARA_READ_DATA64:
		return SAHARA_READ_DATA64_LEN;
	case SAHARA_END_OF_IMAGE:
		return SAHARA_END_OF_IMAGE_LEN;
	case SAHARA_DONE_RESP:
		return SAHARA_DONE_RESP_LEN;
	case SAHARA_MEMORY_DEBUG64:
		return SAHARA_MEMORY_DEBUG64_LEN;
	case SAHARA_MEMORY_READ64:
		return SAHARA_MEMORY_READ64_LEN;
	default:
		return 8;
	}
}

/* What the card sends in field @i of @cmd. */
static uint64_t normal_field(uint32_t cmd, unsigned int i, uint32_t image, bool last)
{
	static const uint32_t hello[] = {
		SAHARA_VERSION, SAHARA_VERSION_COMPAT, SAHARA_HELLO_LEN,
		SAHARA_MODE_IMAGE_PENDING,
	};

	switch (cmd) {
	case SAHARA_HELLO:
		return i < sizeof(hello) / sizeof(hello[0]) ? hello[i] : 0;
	case SAHARA_READ_DATA:
	case SAHARA_READ_DATA64:
		/* The image's first byte. */
		return i == 0 ? image : i == 2 ? 1 : 0;
	case SAHARA_END_OF_IMAGE:
		return i == 0 ? image : 0;
	case SAHARA_DONE_RESP:
		return i == 0 && last ? SAHARA_TX_COMPLETE : SAHARA_TX_PENDING;
	case SAHARA_MEMORY_DEBUG64:
		/* A table of three entries, where memdump.c keeps it. */
		return i == 0 ? 0x9fff0000ull : i == 1 ? 3 * 64 : 0;
	default:
		return 0;
	}
}

static uint64_t field_value(const struct emu_sahara_field *f, uint64_t normal,
			    uint32_t image, uint64_t size, uint64_t len)
{
	switch (f->base) {
	case EMU_SAHARA_ABS:
		return f->v;
	case EMU_SAHARA_IMAGE:
		return image + f->v;
	case EMU_SAHARA_SIZE:
		return size + f->v;
	case EMU_SAHARA_LEN:
		return len + f->v;
	default:
		return normal;
	}
}

static void put32(uint8_t *p, uint32_t v)
{
	for (unsigned int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static void put64(uint8_t *p, uint64_t v)
{
	put32(p, (uint32_t)v);
	put32(p + 4, (uint32_t)(v >> 32));
}

size_t emu_sahara_case_packet(const struct emu_sahara_case *c, uint32_t image,
			      uint64_t size, bool last, uint8_t *buf)
{
	bool wide = c->cmd == SAHARA_READ_DATA64 || c->cmd == SAHARA_MEMORY_DEBUG64;
	uint32_t nlen = normal_len(c->cmd);
	unsigned int width = wide ? 8 : 4;
	size_t len = (size_t)((int64_t)nlen + c->len_delta);
	size_t room = len > nlen ? len : nlen;

	if (room > EMU_SAHARA_CASE_MAX_LEN)
		room = len = EMU_SAHARA_CASE_MAX_LEN;
	memset(buf, 0, room);
	put32(buf, c->cmd);
	put32(buf + 4, (uint32_t)field_value(&c->len_field, len, image, size, len));
	for (unsigned int i = 0; 8 + (i + 1) * width <= nlen; i++) {
		uint64_t v = normal_field(c->cmd, i, image, last);

		if (i < EMU_SAHARA_CASE_FIELDS)
			v = field_value(&c->f[i], v, image, size, len);
		if (wide)
			put64(buf + 8 + 8 * i, v);
		else
			put32(buf + 8 + 4 * i, (uint32_t)v);
	}
	return len;
}
