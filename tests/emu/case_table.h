/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * What the tables of systematic cases (sahara_cases.c, ssr_cases.c,
 * ras_cases.c, timesync_cases.c) share: finding a case by its name or its
 * number. Header-only, as the IGT programs build the tables in.
 *
 * Copyright (c) 2026 The qaic authors.
 */
#ifndef QAIC_EMU_CASE_TABLE_H
#define QAIC_EMU_CASE_TABLE_H

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/*
 * The index of the case named @s, or numbered @s (decimal), in @table: @n
 * entries of @size bytes, each beginning with its name (a const char *).
 * -1 if there is none.
 */
static inline int emu_case_find(const char *s, const void *table, size_t size,
				unsigned int n)
{
	const char *p = table;
	unsigned long i;
	char *end;

	for (i = 0; i < n; i++, p += size)
		if (!strcmp(s, *(const char *const *)(const void *)p))
			return (int)i;
	i = strtoul(s, &end, 10);
	if (end == s || *end || i >= n)
		return -1;
	return (int)i;
}

#endif /* QAIC_EMU_CASE_TABLE_H */
