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
#include "device.h"

struct emu_bootlog {
	struct emu_device *dev;
	const struct emu_bootlog_ops *ops;
	void *ctx;

	bool listening;
	unsigned int nr;			/* lines of this boot */
	char lines[EMU_BOOTLOG_MAX_LINES][EMU_BOOTLOG_MAX_LINE];

	uint64_t boots;		/* boots begun */
	uint64_t sent;		/* lines sent to the host, replays included */
	uint64_t dropped;	/* lines past EMU_BOOTLOG_MAX_LINES */
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
	free(b);
}

void emu_bootlog_boot(struct emu_bootlog *b)
{
	b->boots++;
	b->nr = 0;
	b->listening = false;
}

unsigned int emu_bootlog_boots(const struct emu_bootlog *b)
{
	return (unsigned int)b->boots;
}

static void send_line(struct emu_bootlog *b, unsigned int i)
{
	b->sent++;
	b->ops->send(b->ctx, b->lines[i], strlen(b->lines[i]) + 1);
}

void emu_bootlog_listen(struct emu_bootlog *b, bool on)
{
	if (on == b->listening)
		return;
	b->listening = on;
	for (unsigned int i = 0; on && i < b->nr; i++)
		send_line(b, i);
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
	if (b->listening)
		send_line(b, b->nr);
	b->nr++;
}

void emu_bootlog_counters_print(const struct emu_bootlog *b, FILE *out)
{
	fprintf(out, "bootlog_boots %" PRIu64 "\n", b->boots);
	fprintf(out, "bootlog_lines %" PRIu64 "\n", b->sent);
	fprintf(out, "bootlog_dropped %" PRIu64 "\n", b->dropped);
}
