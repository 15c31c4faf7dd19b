// SPDX-License-Identifier: GPL-2.0-only
/*
 * The boot log on the QAIC_LOGGING channel (see bootlog.h).
 *
 * Copyright (c) 2026 The qaic authors.
 */

#include <inttypes.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bootlog.h"
#include "bootlog_cases.h"
#include "device.h"

/* Garbage mode: what comes after line 0, in this order. */
enum {
	G_FLOOD,	/* flood lines until EMU_BOOTLOG_FLOOD_BYTES */
	G_BYTES,	/* every byte but NUL and newline */
	G_NUL,		/* a NUL in the middle */
	G_LONG,		/* longer than the host's buffers */
	G_DONE,
};

struct emu_bootlog {
	struct emu_device *dev;
	const struct emu_bootlog_ops *ops;
	void *ctx;

	bool listening;
	unsigned int nr;			/* lines of this boot */
	unsigned int next;			/* the next line to send */
	char lines[EMU_BOOTLOG_MAX_LINES][EMU_BOOTLOG_MAX_LINE];

	bool garbage;				/* --bootlog-fault garbage */
	bool tail;				/* --bootlog-fault tail */
	bool tailing;				/* a line a pump, now */
	unsigned int g_step;			/* G_*, after line 0 */
	size_t flood_sent;			/* bytes of flood sent */

	unsigned int armed;			/* next boot's case + 1, or 0 */
	const struct emu_bootlog_case *c;	/* this boot's case, or NULL */
	uint32_t c_sent;			/* its messages sent */
	uint8_t *c_msg;				/* EMU_BOOTLOG_CASE_MAX_LEN bytes */

	uint64_t boots;		/* boots begun */
	uint64_t sent;		/* lines sent to the host, replays included */
	uint64_t dropped;	/* lines past EMU_BOOTLOG_MAX_LINES */
	uint64_t garbage_sent;	/* garbage and flood messages sent */
	uint64_t tail_sent;	/* tail lines sent */
};

struct emu_bootlog *emu_bootlog_create(struct emu_device *dev,
				       const struct emu_bootlog_ops *ops,
				       void *ctx)
{
	struct emu_bootlog *b = calloc(1, sizeof(*b));

	if (!b)
		return NULL;
	b->dev = dev;
	b->ops = ops;
	b->ctx = ctx;
	return b;
}

void emu_bootlog_destroy(struct emu_bootlog *b)
{
	if (b)
		free(b->c_msg);
	free(b);
}

void emu_bootlog_set_garbage(struct emu_bootlog *b, bool on)
{
	b->garbage = on;
}

void emu_bootlog_set_tail(struct emu_bootlog *b, bool on)
{
	b->tail = on;
}

bool emu_bootlog_has_tail(const struct emu_bootlog *b)
{
	return b->tail;
}

void emu_bootlog_tail(struct emu_bootlog *b, bool on)
{
	b->tailing = on && b->tail;
}

static void rewind_log(struct emu_bootlog *b)
{
	b->next = 0;
	b->g_step = b->garbage ? G_FLOOD : G_DONE;
	b->flood_sent = 0;
	b->c_sent = 0;
}

int emu_bootlog_set_case(struct emu_bootlog *b, unsigned int idx)
{
	if (idx >= emu_bootlog_nr_cases)
		return -1;
	if (!b->c_msg) {
		b->c_msg = malloc(EMU_BOOTLOG_CASE_MAX_LEN);
		if (!b->c_msg)
			return -1;
	}
	b->armed = idx + 1;
	return 0;
}

void emu_bootlog_boot(struct emu_bootlog *b)
{
	b->boots++;
	b->nr = 0;
	b->listening = false;
	b->tailing = false;
	b->c = b->armed ? &emu_bootlog_cases[b->armed - 1] : NULL;
	b->armed = 0;
	if (b->c)
		emu_log(b->dev, "bootlog: case %s, %u messages", b->c->name, b->c->count);
	rewind_log(b);
}

unsigned int emu_bootlog_boots(const struct emu_bootlog *b)
{
	return (unsigned int)b->boots;
}

/* The next garbage message into @buf (EMU_BOOTLOG_LONG_LINE + 2 bytes). */
static size_t garbage_msg(struct emu_bootlog *b, uint8_t *buf)
{
	size_t n = 0;

	switch (b->g_step) {
	case G_FLOOD:
		n = (size_t)snprintf((char *)buf, 32, "flood %06zu: ",
				     b->flood_sent);
		while (n < 249)
			buf[n++] = 'x';
		buf[n++] = '\n';
		buf[n++] = '\0';
		break;
	case G_BYTES:
		n = (size_t)snprintf((char *)buf, 16, "garbage: ");
		for (unsigned int c = 1; c < 256; c++)
			if (c != '\n')
				buf[n++] = (uint8_t)c;
		buf[n++] = '\n';
		buf[n++] = '\0';
		break;
	case G_NUL:
		memcpy(buf, "before NUL\0after NUL\n", 22);
		n = 22;
		break;
	case G_LONG:
		memset(buf, 'L', EMU_BOOTLOG_LONG_LINE);
		n = EMU_BOOTLOG_LONG_LINE;
		buf[n++] = '\n';
		buf[n++] = '\0';
		break;
	}
	return n;
}

static void garbage_sent(struct emu_bootlog *b, size_t len)
{
	b->garbage_sent++;
	if (b->g_step != G_FLOOD) {
		b->g_step++;
		return;
	}
	b->flood_sent += len;
	if (b->flood_sent >= EMU_BOOTLOG_FLOOD_BYTES)
		b->g_step++;
}

void emu_bootlog_pump(struct emu_bootlog *b)
{
	uint8_t buf[EMU_BOOTLOG_LONG_LINE + 2];

	while (b->listening) {
		if (b->next == 1 && b->c && b->c_sent < b->c->count) {
			size_t n = emu_bootlog_case_msg(b->c, b->c_msg);
			bool ok;

			if (b->c->claim != EMU_BL_NONE && b->ops->send_claim)
				ok = b->ops->send_claim(b->ctx, b->c_msg, n, b->c->claim);
			else
				ok = b->ops->send(b->ctx, b->c_msg, n);
			if (!ok)
				return;
			b->c_sent++;
			b->garbage_sent++;
			continue;
		}
		if (b->next == 1 && b->g_step != G_DONE) {
			size_t n = garbage_msg(b, buf);

			if (!b->ops->send(b->ctx, buf, n))
				return;
			garbage_sent(b, n);
			continue;
		}
		if (b->next == b->nr && b->tailing) {
			/* One line: the caller asks for one a buffer of the host's. */
			char line[64];
			int n = snprintf(line, sizeof(line), "SBL: tail: line %" PRIu64 "\n",
					 b->tail_sent);

			if (b->ops->send(b->ctx, line, (size_t)n + 1))
				b->tail_sent++;
			return;
		}
		if (b->next == b->nr)
			return;
		if (!b->ops->send(b->ctx, b->lines[b->next],
				  strlen(b->lines[b->next]) + 1))
			return;
		b->sent++;
		b->next++;
	}
}

bool emu_bootlog_pending(const struct emu_bootlog *b)
{
	return b->listening &&
	       (b->next < b->nr ||
		(b->next == 1 && (b->g_step != G_DONE || (b->c && b->c_sent < b->c->count))));
}

void emu_bootlog_listen(struct emu_bootlog *b, bool on)
{
	if (on == b->listening)
		return;
	b->listening = on;
	rewind_log(b);
	emu_bootlog_pump(b);
}

void emu_bootlog_printf(struct emu_bootlog *b, const char *fmt, ...)
{
	char *line;
	va_list ap;
	int n;

	if (b->nr == EMU_BOOTLOG_MAX_LINES) {
		b->dropped++;
		return;
	}
	line = b->lines[b->nr];
	va_start(ap, fmt);
	n = vsnprintf(line, EMU_BOOTLOG_MAX_LINE - 1, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if (n > EMU_BOOTLOG_MAX_LINE - 2)
		n = EMU_BOOTLOG_MAX_LINE - 2;
	line[n] = '\n';
	line[n + 1] = '\0';
	emu_log(b->dev, "bootlog: %.*s", n, line);
	b->nr++;
	emu_bootlog_pump(b);
}

void emu_bootlog_counters_print(const struct emu_bootlog *b, FILE *out)
{
	fprintf(out, "bootlog_boots %" PRIu64 "\n", b->boots);
	fprintf(out, "bootlog_lines %" PRIu64 "\n", b->sent);
	fprintf(out, "bootlog_dropped %" PRIu64 "\n", b->dropped);
	fprintf(out, "bootlog_garbage %" PRIu64 "\n", b->garbage_sent);
	fprintf(out, "bootlog_tail %" PRIu64 "\n", b->tail_sent);
}
