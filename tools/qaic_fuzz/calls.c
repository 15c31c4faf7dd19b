// SPDX-License-Identifier: GPL-2.0-only
/*
 * qaic-fuzz: the calls and their accounting. Every ioctl and system call
 * is counted per errno, those of valid operations apart; an ioctl's
 * argument pointer may be broken on its way; a failure is recorded with
 * what replays it.
 *
 * Copyright (c) 2026 The qaic authors.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "fuzz.h"
#include "calls.h"
#include "rng.h"

/* CLOCK_MONOTONIC, in ms and in ns. */
uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000ull + ts.tv_nsec / 1000000;
}

uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

const char *err_name(int err)
{
	const char *name;

	if (!err)
		return "ok";
	name = strerrorname_np(err);
	return name ? name : "?";
}

/* What the summary and --verbose call the calls counted. */
const char *const ioc_names[NIOC] = {
	[IOC_MANAGE] = "QAIC_MANAGE",
	[IOC_CREATE_BO] = "QAIC_CREATE_BO",
	[IOC_MMAP_BO] = "QAIC_MMAP_BO",
	[IOC_ATTACH] = "QAIC_ATTACH_SLICE_BO",
	[IOC_EXECUTE] = "QAIC_EXECUTE_BO",
	[IOC_PARTIAL] = "QAIC_PARTIAL_EXECUTE_BO",
	[IOC_WAIT] = "QAIC_WAIT_BO",
	[IOC_PERF] = "QAIC_PERF_STATS_BO",
	[IOC_DETACH] = "QAIC_DETACH_SLICE_BO",
	[IOC_SUBMIT] = "QAIC_SUBMIT",
	[IOC_GEM_CLOSE] = "GEM_CLOSE",
	[IOC_PRIME_H2FD] = "PRIME_HANDLE_TO_FD",
	[IOC_PRIME_FD2H] = "PRIME_FD_TO_HANDLE",
	[IOC_SO_CREATE] = "SYNCOBJ_CREATE",
	[IOC_SO_DESTROY] = "SYNCOBJ_DESTROY",
	[IOC_SO_WAIT] = "SYNCOBJ_WAIT",
	[IOC_SO_TWAIT] = "SYNCOBJ_TIMELINE_WAIT",
	[IOC_SO_SIGNAL] = "SYNCOBJ_SIGNAL",
	[IOC_SO_TSIGNAL] = "SYNCOBJ_TIMELINE_SIGNAL",
	[IOC_SO_RESET] = "SYNCOBJ_RESET",
	[IOC_SO_H2FD] = "SYNCOBJ_HANDLE_TO_FD",
	[IOC_SO_FD2H] = "SYNCOBJ_FD_TO_HANDLE",
	[IOC_SO_QUERY] = "SYNCOBJ_QUERY",
	[IOC_SO_TRANSFER] = "SYNCOBJ_TRANSFER",
	[IOC_SO_EVENTFD] = "SYNCOBJ_EVENTFD",
	[IOC_DMABUF_EXPORT] = "DMA_BUF_EXPORT_SYNC_FILE",
	[IOC_DMABUF_IMPORT] = "DMA_BUF_IMPORT_SYNC_FILE",
	[IOC_DMABUF_SYNC] = "DMA_BUF_SYNC",
	[IOC_SYNC_INFO] = "SYNC_IOC_FILE_INFO",
	[IOC_VERSION] = "DRM_VERSION",
	[IOC_GET_CAP] = "DRM_GET_CAP",
	[IOC_BAD] = "(invalid ioctl numbers)",
	[SYS_OPEN] = "open()",
	[SYS_DUP] = "dup()",
	[SYS_CLOSE] = "close()",
	[SYS_MMAP] = "mmap()",
	[SYS_MUNMAP] = "munmap()",
	[SYS_POLL] = "poll()",
};

/* ---------------------------------------------------------- failures */

/* How the reports name a worker's threads (struct tctx's slot). */
const char *const slot_names[3] = { "", " (thread)", " (child)" };

void fail(struct tctx *t, const char *fmt, ...)
{
	char msg[256];
	va_list ap;
	int i;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	i = ADD(sh->nfail, 1);
	if (i < MAX_FAIL) {
		snprintf(sh->fail[i], sizeof(sh->fail[i]),
			 "worker %d%s op #%" PRIu64 " (op rng %#" PRIx64 ", %s): %s",
			 t->w->idx, slot_names[t->slot], t->opno, t->rng0,
			 t->valid ? "valid" : "mutated", msg);
		fprintf(stderr, "qaic-fuzz: FAIL: %s\n", sh->fail[i]);
	}
}

/* ------------------------------------------------------------ ioctls */

void count_res(enum ioc id, int err)
{
	ADD(sh->res[id][err > 0 && err < NERR - 1 ? err : err ? NERR - 1 : 0], 1);
}

static void count_valid(enum ioc id, int err)
{
	ADD(sh->res_valid[id][err > 0 && err < NERR - 1 ? err : err ? NERR - 1 : 0], 1);
}

void vlog(struct tctx *t, const char *what, int err)
{
	if (verbose)
		fprintf(stderr, "qaic-fuzz: w%d.%d #%" PRIu64 " %s: %s\n", t->w->idx,
			t->slot, t->opno, what, err_name(err));
}

/*
 * ioctl() on @fd, counted. Returns 0 or -errno. A mutated operation's first
 * ioctl may get a bad pointer to its argument instead of @arg.
 */
int xioctl(struct tctx *t, enum ioc id, int fd, unsigned long req, void *arg)
{
	size_t size = _IOC_SIZE(req);
	bool copyback = false;
	uint64_t argp = (uintptr_t)arg;
	int ret, err;

	if (t->argmut) {
		t->argmut = false;
		argp = bad_ptr(t, arg, size, &copyback);
	}
	ret = ioctl(fd, req, (void *)(uintptr_t)argp);
	err = ret < 0 ? errno : 0;
	unarm(t);
	if (copyback)
		memcpy(arg, (void *)(uintptr_t)argp, size);
	count_res(id, err);
	if (t->valid)
		count_valid(id, err);
	vlog(t, ioc_names[id], err);
	if (err == ENOTTY && id < IOC_BAD && !t->fd_mutated)
		fail(t, "%s: ENOTTY", ioc_names[id]);
	if (err == EFAULT && t->valid && argp == (uintptr_t)arg)
		fail(t, "%s: EFAULT from a valid operation", ioc_names[id]);
	return -err;
}

int xclose(struct tctx *t, int fd)
{
	int ret = close(fd), err = ret ? errno : 0;

	count_res(SYS_CLOSE, err);
	if (t)
		vlog(t, "close()", err);
	return -err;
}
