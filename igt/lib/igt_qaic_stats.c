// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The qaic authors.
 */

/*
 * What the driver tells about its use: fdinfo of a file and the debugfs
 * files of a DMA Bridge Channel, parsed for the tests.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "igt_qaic_stats.h"

/* "123", "123 KiB" or "123 MiB" in bytes */
static uint64_t fdinfo_size(const char *key, const char *val)
{
	char *end;
	uint64_t n = strtoull(val, &end, 10);

	igt_assert_f(end != val, "%s: \"%s\" is no number\n", key, val);
	if (!strcmp(end, " KiB"))
		return n << 10;
	if (!strcmp(end, " MiB"))
		return n << 20;
	igt_assert_f(!*end, "%s: unit \"%s\"\n", key, end);
	return n;
}

static void fdinfo_line(struct igt_qaic_fdinfo *info, const char *key,
			const char *val)
{
	static const struct {
		const char *key;
		size_t off;
		unsigned int bit;
	} mem[] = {
		{ "drm-total-memory", offsetof(struct igt_qaic_fdinfo, total),
		  IGT_QAIC_MEM_TOTAL },
		{ "drm-shared-memory", offsetof(struct igt_qaic_fdinfo, shared),
		  IGT_QAIC_MEM_SHARED },
		{ "drm-active-memory", offsetof(struct igt_qaic_fdinfo, active),
		  IGT_QAIC_MEM_ACTIVE },
		{ "drm-resident-memory", offsetof(struct igt_qaic_fdinfo, resident),
		  IGT_QAIC_MEM_RESIDENT },
		{ "drm-purgeable-memory", offsetof(struct igt_qaic_fdinfo, purgeable),
		  IGT_QAIC_MEM_PURGEABLE },
	};
	unsigned int n;
	char *end;

	if (!strcmp(key, "drm-driver")) {
		snprintf(info->driver, sizeof(info->driver), "%s", val);
		return;
	}
	if (!strcmp(key, "drm-pdev")) {
		snprintf(info->pdev, sizeof(info->pdev), "%s", val);
		return;
	}
	if (!strcmp(key, "drm-client-id")) {
		info->client_id = strtoull(val, &end, 10);
		igt_assert_f(end != val && !*end, "drm-client-id: \"%s\"\n", val);
		info->has_client_id = true;
		return;
	}
	if (sscanf(key, "drm-engine-dbc%u", &n) == 1) {
		igt_assert_f(n < IGT_QAIC_NUM_DBC, "%s: no such DBC\n", key);
		info->engine_ns[n] = strtoull(val, &end, 10);
		igt_assert_f(end != val && !strcmp(end, " ns"),
			     "%s: \"%s\" is not \"<uint> ns\"\n", key, val);
		info->nengines++;
		return;
	}
	for (n = 0; n < ARRAY_SIZE(mem); n++) {
		if (!strcmp(key, mem[n].key)) {
			igt_assert_f(!(info->memory_keys & mem[n].bit),
				     "%s: printed twice\n", key);
			*(uint64_t *)((char *)info + mem[n].off) =
				fdinfo_size(key, val);
			info->memory_keys |= mem[n].bit;
			return;
		}
	}
}

/**
 * igt_qaic_fdinfo:
 * @fd: qaic device file descriptor
 * @info: gets what its fdinfo says
 *
 * Reads /proc/self/fdinfo/@fd and fails the test on a malformed drm-* line.
 */
void igt_qaic_fdinfo(int fd, struct igt_qaic_fdinfo *info)
{
	char path[64], line[256];
	FILE *f;

	memset(info, 0, sizeof(*info));
	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	f = fopen(path, "r");
	igt_assert_f(f, "%s: %s\n", path, strerror(errno));
	while (fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');
		char *val;

		line[strcspn(line, "\n")] = '\0';
		if (!colon || strncmp(line, "drm-", 4))
			continue;
		*colon = '\0';
		for (val = colon + 1; *val == ' ' || *val == '\t'; val++)
			;
		fdinfo_line(info, line, val);
	}
	fclose(f);
}

/**
 * igt_qaic_dbc_debugfs_path:
 * @fd: qaic device file descriptor
 * @dbc_id: DMA Bridge Channel
 * @file: a file of its debugfs directory
 * @path: gets the path
 * @len: bytes at @path
 */
void igt_qaic_dbc_debugfs_path(int fd, uint32_t dbc_id, const char *file,
			       char *path, size_t len)
{
	char bdf[32];

	igt_qaic_card_bdf(fd, bdf, sizeof(bdf));
	snprintf(path, len, "/sys/kernel/debug/accel/%s/dbc%03u/%s", bdf,
		 dbc_id, file);
}

static FILE *dbc_debugfs_open(int fd, uint32_t dbc_id, const char *file)
{
	char path[128];
	FILE *f;

	igt_qaic_dbc_debugfs_path(fd, dbc_id, file, path, sizeof(path));
	f = fopen(path, "r");
	igt_require_f(f, "no %s: %s\n", path, strerror(errno));
	return f;
}

/**
 * igt_qaic_dbc_debugfs_u64:
 * @fd: qaic device file descriptor
 * @dbc_id: DMA Bridge Channel
 * @file: "fifo_size" or "queued"
 *
 * Returns: the number the file holds; skips the test without the file.
 */
uint64_t igt_qaic_dbc_debugfs_u64(int fd, uint32_t dbc_id, const char *file)
{
	char buf[64] = "", *end;
	uint64_t v;
	FILE *f;

	f = dbc_debugfs_open(fd, dbc_id, file);
	igt_assert(fgets(buf, sizeof(buf), f));
	fclose(f);
	v = strtoull(buf, &end, 10);
	igt_assert_f(end != buf && *end == '\n', "dbc%03u/%s: \"%s\"\n",
		     dbc_id, file, buf);
	return v;
}

/**
 * igt_qaic_dbc_debugfs:
 * @fd: qaic device file descriptor
 * @dbc_id: DMA Bridge Channel
 * @st: gets what dbc<NNN>/state says
 *
 * Skips the test if the driver has no such file.
 *
 * Returns: whether the DBC is active (has a queue).
 */
bool igt_qaic_dbc_debugfs(int fd, uint32_t dbc_id,
			  struct igt_qaic_dbc_debugfs *st)
{
#define F(name) { #name, offsetof(struct igt_qaic_dbc_debugfs, name) }
	static const struct {
		const char *key;
		size_t off;
	} keys[] = {
		F(fifo_size), F(queued), F(owner), F(draining), F(req_head), F(req_tail),
		F(rsp_head), F(credits), F(credit_limit), F(jobs_in_flight),
		F(jobs_pending), F(next_req_id), F(bad_responses), F(requests),
		F(doorbells), F(polls), F(jobs), F(resets),
		{ "REQHP", offsetof(struct igt_qaic_dbc_debugfs, regs[0]) },
		{ "REQTP", offsetof(struct igt_qaic_dbc_debugfs, regs[1]) },
		{ "RSPHP", offsetof(struct igt_qaic_dbc_debugfs, regs[2]) },
		{ "RSPTP", offsetof(struct igt_qaic_dbc_debugfs, regs[3]) },
	};
#undef F
	char line[128], *end, *val;
	unsigned int i;
	FILE *f;

	memset(st, 0, sizeof(*st));
	f = dbc_debugfs_open(fd, dbc_id, "state");
	while (fgets(line, sizeof(line), f)) {
		val = strchr(line, ':');
		igt_assert_f(val, "dbc%03u/state: \"%s\"\n", dbc_id, line);
		*val++ = '\0';
		if (!strcmp(line, "last_error")) {
			st->last_error = strtoll(val, &end, 10);
			continue;
		}
		for (i = 0; i < ARRAY_SIZE(keys); i++)
			if (!strcmp(line, keys[i].key))
				break;
		igt_assert_f(i < ARRAY_SIZE(keys), "dbc%03u/state: key %s\n",
			     dbc_id, line);
		*(uint64_t *)((char *)st + keys[i].off) =
			strtoull(val, &end, 10);
		igt_assert_f(end != val && *end == '\n',
			     "dbc%03u/state: %s:%s\n", dbc_id, line, val);
		if (!strcmp(line, "req_head"))
			st->active = true;
		if (!strcmp(line, "REQHP"))
			st->has_regs = true;
	}
	fclose(f);
	return st->active;
}
