// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The qaic authors.
 */

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "igt_qaic.h"
#include "igt_qaic_sync.h"

/**
 * TEST: qaic coredump
 * Category: Core
 * Description: A hung DBC and a crashed card leave a devcoredump of what the driver saw: rings, registers and jobs in flight.
 * Feature: qaic
 *
 * SUBTEST: dbc-hang
 * Description: Check that the reset of a hung DBC leaves one dump with its header, the DBC's indexes and registers, the hung job and its request, and that writing to it frees it.
 * Run type: FULL
 *
 * SUBTEST: card-crash
 * Description: Check that a crash of the card under work on two DBCs leaves one dump with both DBCs and their jobs, without register reads.
 * Run type: FULL
 */

IGT_TEST_DESCRIPTION("A hung DBC and a crashed card leave a devcoredump of what the driver saw.");

#define SZ_4K		4096ull
#define DEV_ADDR	(56ull << 20)
#define QUEUE_SIZE	64
#define DEVCD		"/sys/class/devcoredump"
#define DUMP_MAX	(1 << 20)

/* The devcdN of the card at @bdf, or "" */
static void find_dump(const char *bdf, char *name, size_t len)
{
	char link[PATH_MAX], target[PATH_MAX];
	struct dirent *e;
	DIR *dir = opendir(DEVCD);
	ssize_t n;

	name[0] = '\0';
	igt_assert(dir);
	while ((e = readdir(dir))) {
		if (strncmp(e->d_name, "devcd", 5))
			continue;
		snprintf(link, sizeof(link), DEVCD "/%s/failing_device", e->d_name);
		n = readlink(link, target, sizeof(target) - 1);
		if (n <= 0)
			continue;
		target[n] = '\0';
		if (!strcmp(strrchr(target, '/') + 1, bdf)) {
			snprintf(name, len, "%s", e->d_name);
			break;
		}
	}
	closedir(dir);
}

/* Frees a dump: devcoredump drops it once its data is written to */
static void free_dump(const char *name)
{
	char path[PATH_MAX];
	int fd;

	snprintf(path, sizeof(path), DEVCD "/%s/data", name);
	fd = open(path, O_WRONLY);
	if (fd < 0)
		return;
	igt_assert_eq(write(fd, "1", 1), 1);
	close(fd);
}

static void free_dumps(const char *bdf)
{
	char name[64];

	for (find_dump(bdf, name, sizeof(name)); name[0]; find_dump(bdf, name, sizeof(name)))
		free_dump(name);
}

/* Waits for the card's dump; returns its text (free() it) */
static char *read_dump(const char *bdf, char *name, size_t len)
{
	uint64_t start = igt_qaic_now_ms();
	char path[PATH_MAX], *buf = malloc(DUMP_MAX);
	size_t got = 0;
	ssize_t n;
	int fd;

	igt_assert(buf);
	do {
		find_dump(bdf, name, len);
	} while (!name[0] && igt_qaic_now_ms() - start < 10000 && !usleep(20000));
	igt_assert_f(name[0], "no devcoredump of %s\n", bdf);

	snprintf(path, sizeof(path), DEVCD "/%s/data", name);
	fd = open(path, O_RDONLY);
	igt_assert_f(fd >= 0, "open %s: %s\n", path, strerror(errno));
	while ((n = read(fd, buf + got, DUMP_MAX - 1 - got)) > 0)
		got += n;
	close(fd);
	buf[got] = '\0';
	igt_debug("%s", buf);
	return buf;
}

/* How many lines of @dump begin with @prefix */
static int count_lines(const char *dump, const char *prefix)
{
	size_t len = strlen(prefix);
	int n = 0;

	for (const char *p = dump; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		n += !strncmp(p, prefix, len);
	return n;
}

static int open_card(char *bdf, size_t len)
{
	int fd = igt_qaic_open();

	igt_require_f(!access(DEVCD, F_OK), "no devcoredump in this kernel\n");
	igt_require_f(igt_qaic_has_syncobj(fd), "Linux 6.12's qaic makes no dumps\n");
	igt_qaic_card_bdf(fd, bdf, len);
	free_dumps(bdf);
	return fd;
}

static void test_dbc_hang(void)
{
	char bdf[32], name[64], prefix[64];
	struct igt_qaic_bo bo;
	uint64_t start;
	uint32_t dbc;
	char *dump;
	int fd = open_card(bdf, sizeof(bdf));

	dbc = igt_qaic_activate(fd, QUEUE_SIZE);
	igt_qaic_bo_create(fd, SZ_4K, &bo);
	igt_qaic_attach_simple(fd, bo.handle, dbc, IGT_QAIC_DIR_TO_DEV, SZ_4K, DEV_ADDR);
	igt_qaic_emu_hang_dbc(fd, dbc);
	igt_qaic_execute_bo(fd, dbc, bo.handle, IGT_QAIC_DIR_TO_DEV);
	igt_assert_eq(__igt_qaic_wait(fd, bo.handle, dbc, 30000), -EIO);

	dump = read_dump(bdf, name, sizeof(name));
	igt_assert_eq(count_lines(dump, "qaic devcoredump 1\n"), 1);
	igt_assert_eq(count_lines(dump, "reason: dbc-hang\n"), 1);
	igt_assert_eq(count_lines(dump, "time_ns: "), 1);
	snprintf(prefix, sizeof(prefix), "dbc %u: nelem %u ", dbc, QUEUE_SIZE);
	igt_assert_eq(count_lines(dump, prefix), 1);
	snprintf(prefix, sizeof(prefix), "dbc %u: hw REQHP ", dbc);
	igt_assert_eq(count_lines(dump, prefix), 1);
	/* The hung job: one request, run, no response */
	snprintf(prefix, sizeof(prefix), "job %u: req_id ", dbc);
	igt_assert_eq(count_lines(dump, prefix), 1);
	igt_assert_f(strstr(dump, " requests 1 ") && strstr(dump, " responses 0/1 ran 1 "),
		     "the hung job's line is not as expected\n");
	snprintf(prefix, sizeof(prefix), "req %u.", dbc);
	igt_assert_eq(count_lines(dump, prefix), 1);
	igt_assert_eq(count_lines(dump, "end\n"), 1);
	igt_assert(dump[strlen(dump) - 1] == '\n');
	free(dump);

	/* devcoredump deletes it from a work item: soon, not at once */
	free_dump(name);
	start = igt_qaic_now_ms();
	do {
		find_dump(bdf, name, sizeof(name));
	} while (name[0] && igt_qaic_now_ms() - start < 5000 && !usleep(20000));
	igt_assert_f(!name[0], "the dump is still there 5 s after it was written to\n");

	/* The DBC was reset, not given up: it runs work */
	igt_qaic_round_trip(fd, dbc, DEV_ADDR, SZ_4K, 81);
	igt_qaic_bo_destroy(fd, &bo);
	close(fd);
}

static void test_card_crash(void)
{
	char bdf[32], name[64], prefix[64];
	struct igt_qaic_bo stall[2];
	uint32_t dbc[2], again;
	char *dump;
	int fd = open_card(bdf, sizeof(bdf)), ret;

	for (int i = 0; i < 2; i++) {
		dbc[i] = igt_qaic_activate(fd, QUEUE_SIZE);
		igt_qaic_stall_bo(fd, dbc[i], 0, &stall[i]);
		igt_qaic_execute_bo(fd, dbc[i], stall[i].handle, IGT_QAIC_DIR_TO_DEV);
	}
	igt_assert_eq(__igt_qaic_emu_sys_error(fd, 20), 0);

	dump = read_dump(bdf, name, sizeof(name));
	igt_assert_eq(count_lines(dump, "qaic devcoredump 1\n"), 1);
	igt_assert_eq(count_lines(dump, "reason: card-crash\n"), 1);
	for (int i = 0; i < 2; i++) {
		snprintf(prefix, sizeof(prefix), "dbc %u: nelem %u ", dbc[i], QUEUE_SIZE);
		igt_assert_eq(count_lines(dump, prefix), 1);
		snprintf(prefix, sizeof(prefix), "job %u: req_id ", dbc[i]);
		igt_assert_eq(count_lines(dump, prefix), 1);
	}
	/* A crashed card's registers are not read */
	igt_assert_eq(count_lines(dump, "dbc 0: hw") + count_lines(dump, "dbc 1: hw"), 0);
	igt_assert_eq(count_lines(dump, "end\n"), 1);
	free(dump);
	free_dump(name);

	while ((ret = __igt_qaic_activate(fd, QUEUE_SIZE, &again)) == -ENODEV)
		usleep(50000);
	igt_assert_eq(ret, 0);
	igt_qaic_round_trip(fd, again, DEV_ADDR, SZ_4K, 82);
	for (int i = 0; i < 2; i++)
		igt_qaic_bo_destroy(fd, &stall[i]);
	close(fd);
}

igt_main
{
	igt_describe("Check the dump a hung DBC leaves.");
	igt_subtest("dbc-hang")
		test_dbc_hang();

	igt_describe("Check the dump a crashed card leaves.");
	igt_subtest("card-crash")
		test_card_crash();
}
