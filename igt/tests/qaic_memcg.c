// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The qaic authors.
 */

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "igt_qaic.h"

/**
 * TEST: qaic memcg
 * Category: Core
 * Description: What the kernel allocates at a user's request is charged to the user's memory cgroup; at its limit the call fails, nobody is killed.
 * Feature: qaic
 *
 * SUBTEST: attach-slice
 * Description: Check that ATTACH_SLICE_BO fails with ENOMEM in a memory cgroup too small for its requests, without an OOM kill, and works outside it.
 * Run type: FULL
 *
 * SUBTEST: partial-execute
 * Description: Check that PARTIAL_EXECUTE_BO fails with ENOMEM in a memory cgroup too small for its copy of the requests, without an OOM kill, and works outside it.
 * Run type: FULL
 *
 * SUBTEST: activate
 * Description: Check that a MANAGE activate fails with ENOMEM in a memory cgroup too small for its rings, without an OOM kill, and works outside it.
 * Run type: FULL
 */

IGT_TEST_DESCRIPTION("What the kernel allocates at a user's request is charged to the user's memory cgroup; at its limit the call fails, nobody is killed.");

#define SZ_4K		4096ull
#define DEV_ADDR	(16ull << 20)

/*
 * An object of SLICES slices of 64 bytes, each in a page: one request of
 * 64 bytes each, 1 MiB of them (and as much again of slice entries), on a
 * ring that takes them all. The cgroup allows half of that.
 */
#define QUEUE_SIZE	16384
#define SLICES		16000
#define SLICE_SIZE	64ull
#define BO_SIZE		(SLICES * SZ_4K)
#define MEMCG_MAX	(512 * 1024)

#define CGROUP_ROOT	"/sys/fs/cgroup"

static char memcg[64];

static void write_file(const char *dir, const char *name, const char *val)
{
	char path[128];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_WRONLY);
	igt_assert_f(fd >= 0, "open %s: %s\n", path, strerror(errno));
	igt_assert_f(write(fd, val, strlen(val)) == (ssize_t)strlen(val),
		     "write '%s' to %s: %s\n", val, path, strerror(errno));
	close(fd);
}

/* The value of @key in @dir/memory.events */
static long memcg_event(const char *dir, const char *key)
{
	char path[128], name[32];
	long val, found = -1;
	FILE *f;

	snprintf(path, sizeof(path), "%s/memory.events", dir);
	f = fopen(path, "r");
	igt_assert(f);
	while (fscanf(f, "%31s %ld", name, &val) == 2)
		if (!strcmp(name, key))
			found = val;
	fclose(f);
	igt_assert_f(found >= 0, "no %s in %s\n", key, path);
	return found;
}

/* A memory cgroup of MEMCG_MAX bytes and no swap, in the cgroup2 hierarchy */
static void memcg_create(void)
{
	struct stat st;
	char max[96];

	if (stat(CGROUP_ROOT "/cgroup.controllers", &st))
		igt_require_f(!mount("none", CGROUP_ROOT, "cgroup2", 0, NULL),
			      "cannot mount cgroup2: %s\n", strerror(errno));
	write_file(CGROUP_ROOT, "cgroup.subtree_control", "+memory");
	snprintf(memcg, sizeof(memcg), CGROUP_ROOT "/qaic-igt-%d", getpid());
	igt_assert_f(!mkdir(memcg, 0755) || errno == EEXIST, "mkdir %s: %s\n",
		     memcg, strerror(errno));
	snprintf(max, sizeof(max), "%u", MEMCG_MAX);
	write_file(memcg, "memory.max", max);
	snprintf(max, sizeof(max), "%s/memory.swap.max", memcg);
	if (!stat(max, &st))
		write_file(memcg, "memory.swap.max", "0");
}

static void memcg_join(const char *dir)
{
	char pid[16];

	snprintf(pid, sizeof(pid), "%d", getpid());
	write_file(dir, "cgroup.procs", pid);
}

/*
 * Leaves the cgroup through @fd, the root's cgroup.procs opened before
 * joining it: opening a file charges its struct file to the cgroup, which
 * the call just filled. On SMP what the call freed may still be counted
 * there a moment (per-CPU charge caches), and the open OOM-killed the
 * test, not the driver's call (Linux 7.2, two CPUs).
 */
static void memcg_leave(int fd)
{
	char pid[16];
	int len = snprintf(pid, sizeof(pid), "%d", getpid());

	igt_assert_f(write(fd, pid, len) == len, "leaving the cgroup: %s\n", strerror(errno));
	close(fd);
}

/*
 * An open DBC and the object, every page of it faulted in outside the
 * cgroup, and its slice entries.
 */
struct setup {
	int fd;
	uint32_t dbc;
	struct igt_qaic_bo bo;
	struct qaic_attach_slice_entry *slices;
};

static void setup(struct setup *s)
{
	s->fd = igt_qaic_open_dbc(QUEUE_SIZE, &s->dbc);
	igt_qaic_bo_create(s->fd, BO_SIZE, &s->bo);
	memset(s->bo.ptr, 0x3c, BO_SIZE);
	s->slices = calloc(SLICES, sizeof(*s->slices));
	igt_assert(s->slices);
	for (int i = 0; i < SLICES; i++)
		igt_qaic_slice_init(&s->slices[i], i * SZ_4K, SLICE_SIZE,
				    DEV_ADDR + i * SLICE_SIZE);
}

static int attach(const struct setup *s)
{
	return __igt_qaic_attach_slice(s->fd, s->bo.handle, s->dbc, IGT_QAIC_DIR_TO_DEV,
				       s->slices, SLICES);
}

static int partial_execute(const struct setup *s)
{
	struct qaic_partial_execute_entry partial = {
		.handle = s->bo.handle,
		.dir = IGT_QAIC_DIR_TO_DEV,
		/* The last slice shortened: its own copy of every request, 1 MiB. */
		.resize = SLICES * SZ_4K - SZ_4K + SLICE_SIZE / 2,
	};
	int ret = __igt_qaic_partial_execute(s->fd, s->dbc, &partial, 1);

	if (!ret)
		igt_qaic_wait(s->fd, s->bo.handle, s->dbc, 20000);
	return ret;
}

/*
 * Rings of 1.06 MiB, twice what the cgroup allows: request and response
 * rings of QUEUE_SIZE elements (the largest, 65536, needs 8 MiB of
 * contiguous memory, which a fragmented bench may not have at all).
 */
static int activate(const struct setup *s)
{
	uint32_t dbc;

	return __igt_qaic_activate(s->fd, QUEUE_SIZE, &dbc);
}

/* The call the cgroup's limit stops; what comes before it runs outside. */
static const struct {
	const char *name;
	const char *desc;
	bool attached;		/* the object is sliced before */
	int (*call)(const struct setup *s);
} calls[] = {
	{ "attach-slice",
	  "Check that ATTACH_SLICE_BO fails with ENOMEM in a memory cgroup too small for its requests, without an OOM kill, and works outside it.",
	  false, attach },
	{ "partial-execute",
	  "Check that PARTIAL_EXECUTE_BO fails with ENOMEM in a memory cgroup too small for its copy of the requests, without an OOM kill, and works outside it.",
	  true, partial_execute },
	{ "activate",
	  "Check that a MANAGE activate fails with ENOMEM in a memory cgroup too small for its rings, without an OOM kill, and works outside it.",
	  false, activate },
};

static void test_call(bool attached, int (*call)(const struct setup *s))
{
	memcg_create();
	igt_fork(child, 1) {
		struct setup s;

		char root_procs[96];
		int root;

		setup(&s);
		if (attached)
			igt_assert_eq(attach(&s), 0);
		snprintf(root_procs, sizeof(root_procs), CGROUP_ROOT "/cgroup.procs");
		root = open(root_procs, O_WRONLY | O_CLOEXEC);
		igt_assert_f(root >= 0, "open %s: %s\n", root_procs, strerror(errno));
		memcg_join(memcg);
		igt_assert_eq(call(&s), -ENOMEM);
		memcg_leave(root);
		igt_assert_eq(call(&s), 0);
		close(s.fd);
	}
	/* A child the OOM killer took fails here */
	igt_waitchildren();
	igt_info("%s: memory.max hit %ld times, %ld OOM kills\n", memcg,
		 memcg_event(memcg, "max"), memcg_event(memcg, "oom_kill"));
	igt_assert_lt(0, memcg_event(memcg, "max"));
	igt_assert_eq(memcg_event(memcg, "oom_kill"), 0);
	igt_assert_eq(rmdir(memcg), 0);
}

igt_main
{
	igt_fixture {
		close(igt_qaic_open());
	}

	for (unsigned int i = 0; i < ARRAY_SIZE(calls); i++) {
		igt_describe(calls[i].desc);
		igt_subtest_f("%s", calls[i].name)
			test_call(calls[i].attached, calls[i].call);
	}
}
