// SPDX-License-Identifier: GPL-2.0-only
/*
 * The crashed card's memory dump (see memdump.h).
 *
 * Facts used (Linux 6.13, drivers/accel/qaic/sahara.c): the command
 * numbers MEMORY_DEBUG64 0x10 and MEMORY_READ64 0x11, both 0x18 bytes
 * (command, length, then two u64: the table's address and length, or the
 * address and length of a read); HELLO's mode 2 for memory debug; the
 * 64-byte table entry (type, address, length, then 20-byte description
 * and file name); the host reads the table in one read and answers with
 * RESET when done; a read the card cannot serve is answered with
 * END_OF_IMAGE.
 *
 * Ours: the regions, their bytes, the table's address, the largest read,
 * the status of a refused read, the wait for the host, the faults.
 *
 * Copyright (c) 2026 The qaic authors.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "device.h"
#include "le_bytes.h"
#include "memdump.h"
#include "sahara.h"

/* Entries of the too-many fault's table. */
/* The huge fault's first region. */

const struct emu_memdump_region emu_memdump_regions[EMU_MEMDUMP_NR_REGIONS] = {
	{ 1, 0x80000000ull, 0x10000, "ddr", "ddr.bin" },
	{ 2, 0x1a000000ull, 0x3001, "nsp0_tcm", "nsp0_tcm.bin" },
	{ 3, 0x0c300000ull, 16, "msg_ram", "msg_ram.bin" },
};

static const char *const mode_names[EMU_MEMDUMP_MODE_COUNT] = {
	[EMU_MEMDUMP_OFF] = "off",
	[EMU_MEMDUMP_ON] = "on",
	[EMU_MEMDUMP_BAD_LENGTH] = "bad-length",
	[EMU_MEMDUMP_TOO_MANY] = "too-many",
	[EMU_MEMDUMP_HUGE] = "huge",
	[EMU_MEMDUMP_SHORT_READ] = "short-read",
};

enum state {
	ST_IDLE,	/* no dump, or not offering it now */
	ST_HELLO,	/* memory-debug HELLO sent, waiting for HELLO_RESP */
	ST_DEBUG,	/* MEMORY_DEBUG64 sent: serving reads until RESET */
};

struct emu_memdump {
	struct emu_device *dev;
	const struct emu_memdump_ops *ops;
	void *ctx;

	enum emu_memdump_mode mode;
	enum emu_memdump_mode pending;	/* the crash's dump, or OFF */
	enum emu_memdump_mode fault;	/* the dump offered now */
	enum state st;
	struct timespec hello_at;	/* when the HELLO went out */

	uint8_t *table;			/* the table offered now */
	unsigned int nr_entries;
	uint64_t table_len;		/* what MEMORY_DEBUG64 said */
	uint64_t region_reads;		/* region reads served this dump */
	uint64_t region_bytes;		/* bytes of the good regions sent */
	uint8_t *case_pkt;		/* the next MEMORY_DEBUG64, or NULL */
	size_t case_len;

	struct emu_memdump_counters c;
};

int emu_memdump_mode_parse(const char *name)
{
	for (int i = 0; i < EMU_MEMDUMP_MODE_COUNT; i++)
		if (!strcmp(name, mode_names[i]))
			return i;
	return -1;
}

const char *emu_memdump_mode_name(enum emu_memdump_mode mode)
{
	return mode < EMU_MEMDUMP_MODE_COUNT ? mode_names[mode] : "?";
}

void emu_memdump_set_mode(struct emu_memdump *md, enum emu_memdump_mode mode)
{
	md->mode = mode;
}

void emu_memdump_crash(struct emu_memdump *md)
{
	if (md->mode == EMU_MEMDUMP_OFF)
		return;
	md->pending = md->mode;
	md->c.memdump_crashes++;
	emu_log(md->dev, "memdump: the crash left a dump (%s)", mode_names[md->mode]);
}

int emu_memdump_offer_case(struct emu_memdump *md, const void *pkt, size_t len)
{
	free(md->case_pkt);
	md->case_pkt = malloc(len ? len : 1);
	if (!md->case_pkt)
		return -1;
	memcpy(md->case_pkt, pkt, len);
	md->case_len = len;
	md->pending = EMU_MEMDUMP_ON;
	return 0;
}

bool emu_memdump_pending(const struct emu_memdump *md)
{
	return md->pending != EMU_MEMDUMP_OFF;
}

static void send_words(struct emu_memdump *md, const uint32_t *w, unsigned int n)
{
	uint8_t pkt[SAHARA_HELLO_LEN] = { 0 };

	for (unsigned int i = 0; i < n; i++)
		put_le32(pkt + 4 * i, w[i]);
	md->ops->send(md->ctx, pkt, w[1]);
}

static void fault_taken(struct emu_memdump *md)
{
	md->c.memdump_faults++;
	emu_log(md->dev, "memdump: fault: %s", mode_names[md->fault]);
}

/* The table of this dump, its faults included. */
static void put_entry(uint8_t *e, const struct emu_memdump_region *r)
{
	memset(e, 0, EMU_MEMDUMP_ENTRY_LEN);
	put_le64(e, r->type);
	put_le64(e + 8, r->addr);
	put_le64(e + 16, r->len);
	memcpy(e + 24, r->desc, strlen(r->desc));
	memcpy(e + 24 + EMU_MEMDUMP_STR_LEN, r->file, strlen(r->file));
}

bool emu_memdump_read_good(uint64_t addr, uint64_t len, uint8_t *buf)
{
	uint64_t table_len = (uint64_t)EMU_MEMDUMP_NR_REGIONS * EMU_MEMDUMP_ENTRY_LEN;

	if (addr >= EMU_MEMDUMP_TABLE_ADDR && addr - EMU_MEMDUMP_TABLE_ADDR < table_len &&
	    len <= table_len - (addr - EMU_MEMDUMP_TABLE_ADDR)) {
		uint8_t table[EMU_MEMDUMP_NR_REGIONS * EMU_MEMDUMP_ENTRY_LEN];

		for (unsigned int i = 0; i < EMU_MEMDUMP_NR_REGIONS; i++)
			put_entry(table + i * EMU_MEMDUMP_ENTRY_LEN, &emu_memdump_regions[i]);
		memcpy(buf, table + (addr - EMU_MEMDUMP_TABLE_ADDR), len);
		return true;
	}
	for (unsigned int i = 0; i < EMU_MEMDUMP_NR_REGIONS; i++) {
		const struct emu_memdump_region *r = &emu_memdump_regions[i];

		if (addr < r->addr || addr - r->addr >= r->len || len > r->len - (addr - r->addr))
			continue;
		for (uint64_t k = 0; k < len; k++)
			buf[k] = emu_memdump_byte(i, addr - r->addr + k);
		return true;
	}
	return false;
}

static bool build_table(struct emu_memdump *md)
{
	unsigned int n = md->fault == EMU_MEMDUMP_TOO_MANY ? EMU_MEMDUMP_TOO_MANY_ENTRIES :
							     EMU_MEMDUMP_NR_REGIONS;

	md->table = calloc(n, EMU_MEMDUMP_ENTRY_LEN);
	if (!md->table)
		return false;
	md->nr_entries = n;
	for (unsigned int i = 0; i < n; i++) {
		put_entry(md->table + (size_t)i * EMU_MEMDUMP_ENTRY_LEN,
			  &emu_memdump_regions[i % EMU_MEMDUMP_NR_REGIONS]);
	}
	if (md->fault == EMU_MEMDUMP_HUGE)
		put_le64(md->table + 16, EMU_MEMDUMP_HUGE_LEN);
	md->table_len = (uint64_t)n * EMU_MEMDUMP_ENTRY_LEN;
	if (md->fault == EMU_MEMDUMP_BAD_LENGTH)
		md->table_len += 8;
	if (md->fault != EMU_MEMDUMP_ON && md->fault != EMU_MEMDUMP_SHORT_READ)
		fault_taken(md);
	return true;
}

static void dump_over(struct emu_memdump *md)
{
	free(md->table);
	md->table = NULL;
	md->st = ST_IDLE;
}

bool emu_memdump_start(struct emu_memdump *md)
{
	uint32_t w[] = { SAHARA_HELLO, SAHARA_HELLO_LEN, SAHARA_VERSION,
			 SAHARA_VERSION_COMPAT, SAHARA_HELLO_LEN,
			 SAHARA_MODE_MEMORY_DEBUG };

	if (md->pending == EMU_MEMDUMP_OFF)
		return false;
	md->fault = md->pending;
	md->pending = EMU_MEMDUMP_OFF;
	md->region_reads = 0;
	md->region_bytes = 0;
	if (!build_table(md))
		return false;
	md->st = ST_HELLO;
	clock_gettime(CLOCK_MONOTONIC, &md->hello_at);
	md->c.memdump_offered++;
	emu_log(md->dev, "memdump: offering the dump");
	send_words(md, w, 6);
	return true;
}

/* The entry whose region holds [addr, addr + len), or -1. */
static int find_region(const struct emu_memdump *md, uint64_t addr, uint64_t len)
{
	for (unsigned int i = 0; i < md->nr_entries; i++) {
		const uint8_t *e = md->table + (size_t)i * EMU_MEMDUMP_ENTRY_LEN;
		uint64_t base = get_le64(e + 8), size = get_le64(e + 16);

		if (addr >= base && addr - base < size && len <= size - (addr - base))
			return (int)i;
	}
	return -1;
}

static void refuse_read(struct emu_memdump *md, uint64_t addr, uint64_t len)
{
	uint32_t w[] = { SAHARA_END_OF_IMAGE, SAHARA_END_OF_IMAGE_LEN, 0,
			 EMU_MEMDUMP_STATUS_BAD_READ };

	md->c.memdump_bad_reads++;
	emu_log(md->dev, "memdump: read of %#" PRIx64 " bytes at %#" PRIx64 " refused",
		len, addr);
	send_words(md, w, 4);
}

static void serve_read(struct emu_memdump *md, uint64_t addr, uint64_t len)
{
	uint64_t base;
	uint8_t *buf;
	int entry;

	if (!len || len > EMU_MEMDUMP_MAX_READ) {
		refuse_read(md, addr, len);
		return;
	}
	md->c.memdump_reads++;
	if (addr == EMU_MEMDUMP_TABLE_ADDR && len == md->table_len) {
		/* The bad-length table's last bytes are zeros. */
		buf = calloc(1, len);
		if (!buf)
			return;
		memcpy(buf, md->table, len < (uint64_t)md->nr_entries * EMU_MEMDUMP_ENTRY_LEN ?
		       len : (uint64_t)md->nr_entries * EMU_MEMDUMP_ENTRY_LEN);
		md->ops->send(md->ctx, buf, len);
		free(buf);
		return;
	}
	entry = find_region(md, addr, len);
	if (entry < 0) {
		refuse_read(md, addr, len);
		return;
	}
	buf = malloc(len);
	if (!buf)
		return;
	base = get_le64(md->table + (size_t)entry * EMU_MEMDUMP_ENTRY_LEN + 8);
	for (uint64_t i = 0; i < len; i++)
		buf[i] = emu_memdump_byte(entry % EMU_MEMDUMP_NR_REGIONS, addr - base + i);
	md->c.memdump_bytes += len;
	if (entry < EMU_MEMDUMP_NR_REGIONS)
		md->region_bytes += len;
	if (++md->region_reads == 2 && md->fault == EMU_MEMDUMP_SHORT_READ) {
		fault_taken(md);
		len--;
	}
	md->ops->send(md->ctx, buf, len);
	free(buf);
}

static bool rx_hello_resp(struct emu_memdump *md, const uint8_t *msg, size_t len)
{
	uint32_t w[2] = { SAHARA_MEMORY_DEBUG64, SAHARA_MEMORY_DEBUG64_LEN };
	uint8_t pkt[SAHARA_MEMORY_DEBUG64_LEN];

	if (len != SAHARA_HELLO_LEN || get_le32(msg) != SAHARA_HELLO_RESP ||
	    get_le32(msg + 4) != SAHARA_HELLO_LEN || get_le32(msg + 16)) {
		md->c.memdump_bad_msgs++;
		emu_log(md->dev, "memdump: unexpected answer to HELLO (%zu bytes)", len);
		return false;
	}
	if (get_le32(msg + 20) != SAHARA_MODE_MEMORY_DEBUG) {
		md->c.memdump_declined++;
		emu_log(md->dev, "memdump: the host declined the dump");
		dump_over(md);
		return true;
	}
	put_le32(pkt, w[0]);
	put_le32(pkt + 4, w[1]);
	put_le64(pkt + 8, EMU_MEMDUMP_TABLE_ADDR);
	put_le64(pkt + 16, md->table_len);
	md->st = ST_DEBUG;
	if (md->case_pkt) {
		md->ops->send(md->ctx, md->case_pkt, md->case_len);
		free(md->case_pkt);
		md->case_pkt = NULL;
		return false;
	}
	md->ops->send(md->ctx, pkt, sizeof(pkt));
	return false;
}

bool emu_memdump_rx(struct emu_memdump *md, const uint8_t *msg, size_t len)
{
	uint32_t cmd = len >= 8 ? get_le32(msg) : 0;
	uint32_t plen = len >= 8 ? get_le32(msg + 4) : 0;
	uint64_t good = 0;

	if (md->st == ST_HELLO)
		return rx_hello_resp(md, msg, len);
	if (md->st != ST_DEBUG)
		return true;
	if (cmd == SAHARA_MEMORY_READ64 && plen == SAHARA_MEMORY_READ64_LEN &&
	    len == SAHARA_MEMORY_READ64_LEN) {
		serve_read(md, get_le64(msg + 8), get_le64(msg + 16));
		return false;
	}
	if (cmd == SAHARA_RESET && plen == SAHARA_RESET_LEN && len == SAHARA_RESET_LEN) {
		uint32_t w[] = { SAHARA_RESET_RESP, SAHARA_RESET_LEN };

		for (unsigned int i = 0; i < EMU_MEMDUMP_NR_REGIONS; i++)
			good += emu_memdump_regions[i].len;
		md->c.memdump_resets++;
		if (md->fault == EMU_MEMDUMP_ON && md->region_bytes == good)
			md->c.memdump_complete++;
		emu_log(md->dev, "memdump: host reset after %" PRIu64 " region bytes",
			md->region_bytes);
		send_words(md, w, 2);
		dump_over(md);
		return true;
	}
	md->c.memdump_bad_msgs++;
	emu_log(md->dev, "memdump: unexpected message (cmd %#x, %zu bytes)", cmd, len);
	return false;
}

void emu_memdump_stop(struct emu_memdump *md)
{
	dump_over(md);
}

int emu_memdump_timeout_ms(const struct emu_memdump *md)
{
	struct timespec now;
	int64_t ms;

	if (md->st != ST_HELLO)
		return -1;
	clock_gettime(CLOCK_MONOTONIC, &now);
	ms = (int64_t)(now.tv_sec - md->hello_at.tv_sec) * 1000 +
	     (now.tv_nsec - md->hello_at.tv_nsec) / 1000000;
	if (ms >= EMU_MEMDUMP_HELLO_WAIT_MS)
		return 0;
	return EMU_MEMDUMP_HELLO_WAIT_MS - (int)ms + 1;
}

bool emu_memdump_tick(struct emu_memdump *md)
{
	if (md->st != ST_HELLO || emu_memdump_timeout_ms(md))
		return false;
	md->c.memdump_ignored++;
	emu_log(md->dev, "memdump: no answer to HELLO in %d ms: booting on",
		EMU_MEMDUMP_HELLO_WAIT_MS);
	dump_over(md);
	return true;
}

struct emu_memdump *emu_memdump_create(struct emu_device *dev,
				       const struct emu_memdump_ops *ops, void *ctx)
{
	struct emu_memdump *md = calloc(1, sizeof(*md));

	if (!md)
		return NULL;
	md->dev = dev;
	md->ops = ops;
	md->ctx = ctx;
	return md;
}

void emu_memdump_destroy(struct emu_memdump *md)
{
	if (!md)
		return;
	free(md->case_pkt);
	free(md->table);
	free(md);
}

const struct emu_memdump_counters *emu_memdump_counters(const struct emu_memdump *md)
{
	return &md->c;
}

void emu_memdump_counters_print(const struct emu_memdump *md, FILE *out)
{
	const struct emu_memdump_counters *c = &md->c;

	fprintf(out, "memdump_crashes %" PRIu64 "\n", c->memdump_crashes);
	fprintf(out, "memdump_offered %" PRIu64 "\n", c->memdump_offered);
	fprintf(out, "memdump_reads %" PRIu64 "\n", c->memdump_reads);
	fprintf(out, "memdump_bytes %" PRIu64 "\n", c->memdump_bytes);
	fprintf(out, "memdump_bad_reads %" PRIu64 "\n", c->memdump_bad_reads);
	fprintf(out, "memdump_complete %" PRIu64 "\n", c->memdump_complete);
	fprintf(out, "memdump_resets %" PRIu64 "\n", c->memdump_resets);
	fprintf(out, "memdump_declined %" PRIu64 "\n", c->memdump_declined);
	fprintf(out, "memdump_ignored %" PRIu64 "\n", c->memdump_ignored);
	fprintf(out, "memdump_bad_msgs %" PRIu64 "\n", c->memdump_bad_msgs);
	fprintf(out, "memdump_faults %" PRIu64 "\n", c->memdump_faults);
}
