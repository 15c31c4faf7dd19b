/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The qaic authors.
 */

#ifndef _QAIC_MEMDUMP_H_
#define _QAIC_MEMDUMP_H_

#include <linux/sizes.h>
#include <linux/types.h>

struct qaic_device;
struct qaic_memdump;

/* Bytes of one entry of the card's table of regions. */
#define QAIC_MEMDUMP_ENTRY_LEN		64
/* Most entries a table may have. */
#define QAIC_MEMDUMP_MAX_ENTRIES	256
/* Most bytes of one read: a table, or a piece of a region. */
#define QAIC_MEMDUMP_MAX_READ		SZ_16K
u64 qaic_memdump_max_size(void);
int qaic_memdump_check_table(u64 len, char *why, size_t why_len);
int qaic_memdump_create(struct qaic_memdump **dump, const void *table, size_t len,
			char *why, size_t why_len);
bool qaic_memdump_next(struct qaic_memdump *dump, u64 *addr, u64 *len);
void qaic_memdump_add(struct qaic_memdump *dump, const void *data);
void qaic_memdump_commit(struct qaic_memdump *dump, struct qaic_device *qdev);
void qaic_memdump_free(struct qaic_memdump *dump);
size_t qaic_memdump_size(const struct qaic_memdump *dump);
unsigned int qaic_memdump_regions(const struct qaic_memdump *dump);

#endif /* _QAIC_MEMDUMP_H_ */
