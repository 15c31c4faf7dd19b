/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The qaic authors.
 */

#ifndef _QAIC_SAHARA_DUMP_H_
#define _QAIC_SAHARA_DUMP_H_

#include <linux/sizes.h>
#include <linux/types.h>

struct qaic_device;
struct qaic_sahara_dump;

/* Bytes of one entry of the card's table of regions. */
#define QAIC_SAHARA_DUMP_ENTRY_LEN	64
/* Most entries a table may have. */
#define QAIC_SAHARA_DUMP_MAX_ENTRIES	256
/* Most bytes of one read: a table, or a piece of a region. */
#define QAIC_SAHARA_DUMP_MAX_READ	SZ_16K
u64 qaic_sahara_dump_max_size(void);
int qaic_sahara_dump_check_table(u64 len, char *why, size_t why_len);
int qaic_sahara_dump_create(struct qaic_sahara_dump **dump, const void *table, size_t len,
			    char *why, size_t why_len);
bool qaic_sahara_dump_next(struct qaic_sahara_dump *dump, u64 *addr, u64 *len);
void qaic_sahara_dump_add(struct qaic_sahara_dump *dump, const void *data);
void qaic_sahara_dump_commit(struct qaic_sahara_dump *dump, struct qaic_device *qdev);
void qaic_sahara_dump_free(struct qaic_sahara_dump *dump);
size_t qaic_sahara_dump_size(const struct qaic_sahara_dump *dump);
unsigned int qaic_sahara_dump_regions(const struct qaic_sahara_dump *dump);

#endif /* _QAIC_SAHARA_DUMP_H_ */
