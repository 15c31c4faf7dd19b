/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The crashed card's memory dump: Sahara's memory-debug mode, card side.
 *
 * A card that crashed in mission mode keeps its memory across the reboot
 * that follows. On the next boot, SBL first offers that memory to the host
 * on QAIC_SAHARA before it asks for any image:
 *
 *   card: HELLO, mode MEMORY_DEBUG (2)
 *   host: HELLO_RESP, mode 2 (any other mode declines the dump)
 *   card: MEMORY_DEBUG64: the address and length of its table of regions
 *   host: MEMORY_READ64 of the table, then of pieces of each region
 *   card: the raw bytes asked for, or END_OF_IMAGE with a non-zero status
 *         for a read it cannot serve
 *   host: RESET, when it has what it wants (or gives up)
 *   card: RESET_RESP; then the image transfer starts as on any boot
 *
 * A table entry is 64 bytes: type, address and length (u64, little
 * endian), then a description and a file name of 20 bytes each, NUL
 * padded. The regions are EMU_MEMDUMP_NR_REGIONS fixed ones whose bytes
 * are emu_memdump_byte(): a test can check every byte it got.
 *
 * A host that does not answer the memory-debug HELLO within
 * EMU_MEMDUMP_HELLO_WAIT_MS (Linux 6.12's host does not know the mode)
 * gets the image transfer instead; the dump is lost. A dump is offered
 * once: a boot that does not finish it forgets it.
 *
 * Modes (emu_memdump_set_mode()): off, on, or on with a fault of the
 * malicious-card kind, each once per offered dump.
 *
 * Copyright (c) 2026 The qaic authors.
 */
#ifndef QAIC_EMU_MEMDUMP_H
#define QAIC_EMU_MEMDUMP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "sahara_proto.h"

struct emu_device;
struct emu_memdump;

/* The mode's commands are in sahara_proto.h. */

/* One table entry. */
#define EMU_MEMDUMP_ENTRY_LEN		64
#define EMU_MEMDUMP_STR_LEN		20
/* The regions of a good table. */
#define EMU_MEMDUMP_NR_REGIONS		3
/* Where the table is, in the card's address space. */
#define EMU_MEMDUMP_TABLE_ADDR		0x9fff0000ull
/* Largest read the card serves. */
#define EMU_MEMDUMP_MAX_READ		0x10000
/* END_OF_IMAGE status for a read the card cannot serve (ours). */
#define EMU_MEMDUMP_STATUS_BAD_READ	0x1d
#define EMU_MEMDUMP_HELLO_WAIT_MS	2000

enum emu_memdump_mode {
	EMU_MEMDUMP_OFF,	/* a crash leaves no dump */
	EMU_MEMDUMP_ON,		/* the good table */
	EMU_MEMDUMP_BAD_LENGTH,	/* a table length of 3 entries + 8 bytes */
	EMU_MEMDUMP_TOO_MANY,	/* a table of 300 entries */
	EMU_MEMDUMP_HUGE,	/* the first region 1 GiB long */
	EMU_MEMDUMP_SHORT_READ,	/* the second region read answered 1 byte short */
	EMU_MEMDUMP_MODE_COUNT,
};

/* The table of EMU_MEMDUMP_TOO_MANY; the first region of EMU_MEMDUMP_HUGE. */
#define EMU_MEMDUMP_TOO_MANY_ENTRIES	300
#define EMU_MEMDUMP_HUGE_LEN		(1ull << 30)

/* The entries of a good table. */
struct emu_memdump_region {
	uint64_t type;
	uint64_t addr;
	uint64_t len;
	const char *desc;
	const char *file;
};

extern const struct emu_memdump_region emu_memdump_regions[EMU_MEMDUMP_NR_REGIONS];

struct emu_memdump_ops {
	/* Queue one packet (or raw data) for the host on QAIC_SAHARA. */
	void (*send)(void *ctx, const void *pkt, size_t len);
};

struct emu_memdump_counters {
	uint64_t memdump_crashes;	/* crashes that left a dump */
	uint64_t memdump_offered;	/* memory-debug HELLOs sent */
	uint64_t memdump_reads;		/* MEMORY_READ64 served */
	uint64_t memdump_bytes;		/* bytes of regions sent */
	uint64_t memdump_bad_reads;	/* reads refused with END_OF_IMAGE */
	uint64_t memdump_complete;	/* RESET after every region byte was sent */
	uint64_t memdump_resets;	/* RESET from the host */
	uint64_t memdump_declined;	/* HELLO_RESP in another mode */
	uint64_t memdump_ignored;	/* no HELLO_RESP in time */
	uint64_t memdump_bad_msgs;	/* malformed or unexpected host packets */
	uint64_t memdump_faults;	/* faults injected */
};

/*
 * Byte @off of region @region of a good table: bits 31:24 of
 * ((off | region << 24) * 0x9e3779b1) modulo 2^32.
 */
static inline uint8_t emu_memdump_byte(unsigned int region, uint64_t off)
{
	return (uint8_t)((((uint32_t)off | (uint32_t)region << 24) * 0x9e3779b1u) >> 24);
}

/*
 * The crashed card's memory as a good table describes it: @len bytes at
 * @addr into @buf, from the table (at EMU_MEMDUMP_TABLE_ADDR) or from one
 * region. False when they are not all in one of them. Also read by SSR's
 * crash dump (ssr.c).
 */
bool emu_memdump_read_good(uint64_t addr, uint64_t len, uint8_t *buf);

struct emu_memdump *emu_memdump_create(struct emu_device *dev,
				       const struct emu_memdump_ops *ops,
				       void *ctx);
void emu_memdump_destroy(struct emu_memdump *md);

/* "name" -> mode, or -1. */
int emu_memdump_mode_parse(const char *name);
const char *emu_memdump_mode_name(enum emu_memdump_mode mode);
/* Off until set. Takes effect at the next crash. */
void emu_memdump_set_mode(struct emu_memdump *md, enum emu_memdump_mode mode);
/*
 * The next boot offers a good dump, whatever the mode, with @pkt (@len
 * bytes, copied) sent in place of its MEMORY_DEBUG64: a systematic Sahara
 * case (sahara_cases.h). The dump goes on from there as usual.
 */
int emu_memdump_offer_case(struct emu_memdump *md, const void *pkt, size_t len);

/* The card crashed in mission mode: unless off, it now holds a dump. */
void emu_memdump_crash(struct emu_memdump *md);
/* Whether a crash left a dump that the next boot offers. */
bool emu_memdump_pending(const struct emu_memdump *md);

/*
 * SBL's Sahara starts: if a dump is pending, say the memory-debug HELLO
 * and return true; the dump is then no longer pending.
 */
bool emu_memdump_start(struct emu_memdump *md);
/*
 * One host packet while the dump runs. True when the dump is over (the
 * host reset the session, or declined): the image transfer starts.
 */
bool emu_memdump_rx(struct emu_memdump *md, const uint8_t *msg, size_t len);
/* The host stopped the channel: the dump is over. */
void emu_memdump_stop(struct emu_memdump *md);
/* Milliseconds until emu_memdump_tick() has something to do, or -1. */
int emu_memdump_timeout_ms(const struct emu_memdump *md);
/* True when the host let the HELLO wait out: the image transfer starts. */
bool emu_memdump_tick(struct emu_memdump *md);

const struct emu_memdump_counters *emu_memdump_counters(const struct emu_memdump *md);
void emu_memdump_counters_print(const struct emu_memdump *md, FILE *out);

#endif /* QAIC_EMU_MEMDUMP_H */
