// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The qaic authors.
 */

/**
 * DOC: qaic card memory dumps
 *
 * A card that crashed keeps its memory across the reboot that follows,
 * and its SBL offers that memory to the host before it asks for any
 * image: it says HELLO in memory-debug mode, then names a table of memory
 * regions (MEMORY_DEBUG64: the table's address and length). The host
 * reads the table, then every region, in pieces, with MEMORY_READ64; the
 * card answers each read with exactly the bytes asked for. The host then
 * sends RESET, the card answers RESET_RESP and the image transfer starts
 * as on any boot (qaic_sahara.c drives this). This file checks the table
 * and builds the dump, which goes to devcoredump as a devcoredump of the
 * PCI device, /sys/class/devcoredump/devcdN/data. A subsystem restart
 * offers a crashed NSP's memory the same way over QAIC_SSR (qaic_ssr.c):
 * the same table, the same rules and the same dump.
 *
 * The dump is binary, every field little endian, laid out as Linux 6.13
 * lays out its own (its version 1):
 *
 * ====== ====================================================================
 * offset field
 * ====== ====================================================================
 * 0      magic u64, 0x1234567890abcdef
 * 8      version u64, 1
 * 16     dump_size u64: bytes of the whole dump, this header included
 * 24     table_size u64: bytes of the table that follows (64 per region)
 * 32     the table: per region type u64, address u64 (on the card), length
 *        u64, a description and a file name of 20 bytes each, the card's
 *        text, NUL padded and always NUL terminated
 * 32 + t the regions' bytes (t: table_size), in table order, back to back
 * ====== ====================================================================
 *
 * The card is not trusted. The table must be 1 to
 * %QAIC_MEMDUMP_MAX_ENTRIES entries of 64 bytes; each region at least
 * a byte long, its end not past 2^64; and the whole dump, held in
 * vmalloc()ed memory until devcoredump lets it go (read, or five minutes),
 * at most qaic_memdump_max_size() bytes, which bounds each region too:
 * half the host's RAM, or the module parameter memdump_max_mb. There is no
 * fixed cap: a real card's dump is as large as the memory it offers, and
 * the host keeps what it can spare. Every answer must be exactly as long
 * as the read (a read is never 16 bytes long, the length of END_OF_IMAGE,
 * with which the card refuses one). Anything else abandons the dump with
 * one error in the log: the host sends RESET and the boot goes on without
 * it. A dump made while devcoredump still holds another one of the same
 * PCI device (the driver's own text dump of the crash, qaic_coredump.c,
 * until it is read or times out) is dropped by devcoredump.
 */

#include <linux/minmax.h>
#include <linux/mm.h>
#include <linux/moduleparam.h>
#include <linux/overflow.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/vmalloc.h>

#include <kunit/visibility.h>

#include "qaic_compat.h"
#include "qaic_coredump.h"
#include "qaic_drv.h"
#include "qaic_memdump.h"

#define QAIC_MEMDUMP_MAGIC		0x1234567890abcdefULL
#define QAIC_MEMDUMP_VERSION		1
#define QAIC_MEMDUMP_STR_LEN		20
/* The length of END_OF_IMAGE: a read never asks for it. */
#define QAIC_MEMDUMP_AMBIGUOUS		16

static unsigned int memdump_max_mb;
module_param(memdump_max_mb, uint, 0644);
MODULE_PARM_DESC(memdump_max_mb,
		 "Largest memory dump of a crashed card kept, in MiB (default 0: half the host's RAM)");

/**
 * qaic_memdump_max_size() - Most bytes a dump may take.
 *
 * Return: memdump_max_mb in bytes if set, else half the host's RAM.
 */
u64 qaic_memdump_max_size(void)
{
	u64 max = (u64)READ_ONCE(memdump_max_mb) << 20;

	return max ?: (u64)totalram_pages() << (PAGE_SHIFT - 1);
}
EXPORT_SYMBOL_IF_KUNIT(qaic_memdump_max_size);

/**
 * struct qaic_memdump_header - The dump's first 32 bytes.
 * @magic: %QAIC_MEMDUMP_MAGIC.
 * @version: %QAIC_MEMDUMP_VERSION.
 * @dump_size: Bytes of the dump.
 * @table_size: Bytes of the table after the header.
 */
struct qaic_memdump_header {
	__le64 magic;
	__le64 version;
	__le64 dump_size;
	__le64 table_size;
};

/**
 * struct qaic_memdump_entry - One region, in the card's table and in
 *				   the dump's.
 * @type: What the region is, the card's number.
 * @addr: Where it is, in the card's address space.
 * @len: Its length in bytes.
 * @desc: A description, NUL padded.
 * @file: A file name for it, NUL padded.
 */
struct qaic_memdump_entry {
	__le64 type;
	__le64 addr;
	__le64 len;
	char desc[QAIC_MEMDUMP_STR_LEN];
	char file[QAIC_MEMDUMP_STR_LEN];
};

static_assert(sizeof(struct qaic_memdump_header) == 32);
static_assert(sizeof(struct qaic_memdump_entry) == QAIC_MEMDUMP_ENTRY_LEN);
static_assert(QAIC_MEMDUMP_MAX_ENTRIES * QAIC_MEMDUMP_ENTRY_LEN <=
	      QAIC_MEMDUMP_MAX_READ);

/**
 * struct qaic_memdump - A dump being read from the card.
 * @buf: The dump, vmalloc()ed: devcoredump frees it once committed.
 * @size: Its size.
 * @table: Its table, in @buf.
 * @nr: Regions in @table.
 * @cur: The region being read.
 * @off: Bytes of it read.
 * @pos: Where in @buf the next bytes go.
 * @asked: Bytes of the read outstanding, 0 if none.
 */
struct qaic_memdump {
	void *buf;
	size_t size;
	struct qaic_memdump_entry *table;
	unsigned int nr;
	unsigned int cur;
	u64 off;
	size_t pos;
	size_t asked;
};

/**
 * qaic_memdump_check_table() - Check the length of the card's table.
 * @len: From MEMORY_DEBUG64.
 * @why: Filled with the reason on failure.
 * @why_len: Bytes of @why.
 *
 * Return: 0, or -EINVAL.
 */
int qaic_memdump_check_table(u64 len, char *why, size_t why_len)
{
	if (!len || len % QAIC_MEMDUMP_ENTRY_LEN ||
	    len > QAIC_MEMDUMP_MAX_ENTRIES * QAIC_MEMDUMP_ENTRY_LEN) {
		snprintf(why, why_len, "table of %llu bytes (%u to %u entries of %u bytes allowed)",
			 len, 1, QAIC_MEMDUMP_MAX_ENTRIES, QAIC_MEMDUMP_ENTRY_LEN);
		return -EINVAL;
	}
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(qaic_memdump_check_table);

/*
 * The bound is at least 1 MiB (memdump_max_mb, or half of any RAM Linux
 * runs in), and the largest table fits well under it: only the regions
 * can go over.
 */
static_assert(sizeof(struct qaic_memdump_header) +
	      QAIC_MEMDUMP_MAX_ENTRIES * QAIC_MEMDUMP_ENTRY_LEN <= SZ_1M);

/* Bytes of the dump the table describes, or 0 if it breaks a rule. */
static size_t qaic_memdump_sizes(const struct qaic_memdump_entry *t, unsigned int nr,
				 char *why, size_t why_len)
{
	u64 size = sizeof(struct qaic_memdump_header) + nr * sizeof(*t);
	u64 addr, len, max = min_t(u64, qaic_memdump_max_size(), SIZE_MAX);
	unsigned int i;

	for (i = 0; i < nr; i++) {
		addr = le64_to_cpu(t[i].addr);
		len = le64_to_cpu(t[i].len);
		if (!len || addr + len - 1 < addr) {
			snprintf(why, why_len, "region %u: %llu bytes at %#llx", i, len, addr);
			return 0;
		}
		if (len > max - size) {
			snprintf(why, why_len, "region %u: %llu bytes: a dump over %llu bytes",
				 i, len, max);
			return 0;
		}
		size += len;
	}
	return size;
}

/**
 * qaic_memdump_create() - Start a dump from the card's table.
 * @dump: Set to the dump on success.
 * @table: The table, as the card sent it.
 * @len: Its bytes, checked by qaic_memdump_check_table().
 * @why: Filled with the reason on failure.
 * @why_len: Bytes of @why.
 *
 * Return: 0, -EINVAL for a table that breaks a rule, or -ENOMEM.
 */
int qaic_memdump_create(struct qaic_memdump **dump, const void *table, size_t len,
			char *why, size_t why_len)
{
	const struct qaic_memdump_entry *in = table;
	struct qaic_memdump_header *hdr;
	struct qaic_memdump *d;
	unsigned int i, nr;
	size_t size;

	if (qaic_memdump_check_table(len, why, why_len))
		return -EINVAL;
	nr = len / QAIC_MEMDUMP_ENTRY_LEN;
	size = qaic_memdump_sizes(in, nr, why, why_len);
	if (!size)
		return -EINVAL;

	d = kzalloc_obj(*d, GFP_KERNEL);
	if (!d)
		goto no_mem;
	/*
	 * The card chose the size, up to memdump_max_mb: fail the dump rather
	 * than make the OOM killer take a process for it.
	 */
	d->buf = __vmalloc(size, GFP_KERNEL | __GFP_ZERO | __GFP_RETRY_MAYFAIL | __GFP_NOWARN);
	if (!d->buf) {
		kfree(d);
		goto no_mem;
	}
	d->size = size;
	d->nr = nr;
	hdr = d->buf;
	hdr->magic = cpu_to_le64(QAIC_MEMDUMP_MAGIC);
	hdr->version = cpu_to_le64(QAIC_MEMDUMP_VERSION);
	hdr->dump_size = cpu_to_le64(size);
	hdr->table_size = cpu_to_le64(len);
	d->table = d->buf + sizeof(*hdr);
	for (i = 0; i < nr; i++) {
		d->table[i] = in[i];
		/* The card's text: keep it NUL terminated. */
		d->table[i].desc[QAIC_MEMDUMP_STR_LEN - 1] = '\0';
		d->table[i].file[QAIC_MEMDUMP_STR_LEN - 1] = '\0';
	}
	d->pos = sizeof(*hdr) + len;
	*dump = d;
	return 0;

no_mem:
	snprintf(why, why_len, "no memory for %zu bytes", size);
	return -ENOMEM;
}
EXPORT_SYMBOL_IF_KUNIT(qaic_memdump_create);

/**
 * qaic_memdump_next() - The next read to ask the card for.
 * @dump: The dump.
 * @addr: Set to the address to read, on the card.
 * @len: Set to the bytes to read: 1 to %QAIC_MEMDUMP_MAX_READ, never 16.
 *
 * Return: false when every region has been read.
 */
bool qaic_memdump_next(struct qaic_memdump *dump, u64 *addr, u64 *len)
{
	const struct qaic_memdump_entry *e;
	u64 left;

	while (dump->cur < dump->nr &&
	       dump->off == le64_to_cpu(dump->table[dump->cur].len)) {
		dump->cur++;
		dump->off = 0;
	}
	if (dump->cur == dump->nr)
		return false;
	e = &dump->table[dump->cur];
	left = le64_to_cpu(e->len) - dump->off;
	*len = min_t(u64, left, QAIC_MEMDUMP_MAX_READ);
	if (*len == QAIC_MEMDUMP_AMBIGUOUS)
		*len /= 2;
	*addr = le64_to_cpu(e->addr) + dump->off;
	dump->asked = *len;
	return true;
}
EXPORT_SYMBOL_IF_KUNIT(qaic_memdump_next);

/**
 * qaic_memdump_add() - Add the card's answer to the last read.
 * @dump: The dump.
 * @data: Exactly as many bytes as qaic_memdump_next() asked for.
 */
void qaic_memdump_add(struct qaic_memdump *dump, const void *data)
{
	/* Sized from the table: the reads never run past the end. */
	if (dump->asked > dump->size - dump->pos)
		return;
	memcpy(dump->buf + dump->pos, data, dump->asked);
	dump->pos += dump->asked;
	dump->off += dump->asked;
	dump->asked = 0;
}
EXPORT_SYMBOL_IF_KUNIT(qaic_memdump_add);

/**
 * qaic_memdump_commit() - Hand a complete dump to devcoredump.
 * @dump: The dump, freed.
 * @qdev: The card the dump is of.
 */
void qaic_memdump_commit(struct qaic_memdump *dump, struct qaic_device *qdev)
{
	qaic_coredump_submit(qdev, dump->buf, dump->size);
	kfree(dump);
}

/**
 * qaic_memdump_free() - Abandon a dump.
 * @dump: The dump, or NULL.
 */
void qaic_memdump_free(struct qaic_memdump *dump)
{
	if (!dump)
		return;
	vfree(dump->buf);
	kfree(dump);
}
EXPORT_SYMBOL_IF_KUNIT(qaic_memdump_free);

/**
 * qaic_memdump_size() - Bytes of a dump.
 * @dump: The dump.
 *
 * Return: its size, header and table included.
 */
size_t qaic_memdump_size(const struct qaic_memdump *dump)
{
	return dump->size;
}
EXPORT_SYMBOL_IF_KUNIT(qaic_memdump_size);

/**
 * qaic_memdump_regions() - Regions of a dump.
 * @dump: The dump.
 *
 * Return: the entries of its table.
 */
unsigned int qaic_memdump_regions(const struct qaic_memdump *dump)
{
	return dump->nr;
}
