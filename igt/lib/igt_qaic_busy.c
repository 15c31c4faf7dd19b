// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The qaic authors.
 */

/*
 * Work in flight when the card goes away or is reset: several processes
 * each hold jobs behind a gate that never opens, a hung job, a blocked
 * waiter, an exported fence and mapped objects; an event happens (unbind,
 * PCI error, ...); each process then checks that everything ended.
 */

#include <errno.h>
#include <linux/sync_file.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <xf86drm.h>

#include "igt_qaic.h"
#include "igt_qaic_busy.h"

#define BUSY_QUEUE	64
#define BUSY_SIZE	4096ull
#define BUSY_DEV_ADDR	(48ull << 20)

/* Longest a wait of these checks may take, even on the debug kernel */
#define BUSY_WAIT_MS	20000

static void busy_start(struct igt_qaic_busy *b, const char *bdf)
{
	struct qaic_sync after_gate;

	b->fd = bdf ? igt_qaic_open_bdf(bdf) : igt_qaic_open();
	for (int i = 0; i < 2; i++)
		b->dbc[i] = igt_qaic_activate(b->fd, BUSY_QUEUE);
	b->shared = false;

	b->gate_obj = igt_qaic_syncobj_create(b->fd);
	b->out = igt_qaic_syncobj_create(b->fd);
	igt_qaic_gate_init(b->fd, b->gate_obj, 0, &b->gate);
	after_gate = (struct qaic_sync) { .handle = b->gate_obj };
	igt_qaic_sync_bo_new(b->fd, BUSY_SIZE, &b->gated);
	igt_qaic_sync_pattern(b->gated.ptr, BUSY_SIZE, 31);
	igt_qaic_sync_attach(b->fd, b->gated.handle, b->dbc[0], IGT_QAIC_SYNC_TO_DEV,
			     BUSY_SIZE, BUSY_DEV_ADDR);
	for (int i = 0; i < 4; i++)
		igt_qaic_submit(b->fd, b->dbc[0], b->gated.handle, IGT_QAIC_SYNC_TO_DEV,
				&after_gate, 1, b->out, 0);
	igt_assert_eq(drmSyncobjExportSyncFile(b->fd, b->out, &b->sync_fd), 0);

	igt_qaic_sync_bo_new(b->fd, BUSY_SIZE, &b->hung);
	igt_qaic_sync_pattern(b->hung.ptr, BUSY_SIZE, 32);
	igt_qaic_sync_attach(b->fd, b->hung.handle, b->dbc[1], IGT_QAIC_SYNC_TO_DEV,
			     BUSY_SIZE, BUSY_DEV_ADDR + BUSY_SIZE);
	igt_qaic_emu_hang_dbc(b->fd, b->dbc[1]);
	for (int i = 0; i < 3; i++)
		igt_qaic_submit(b->fd, b->dbc[1], b->hung.handle, IGT_QAIC_SYNC_TO_DEV,
				NULL, 0, 0, 0);

	b->waiter = fork();
	igt_assert(b->waiter >= 0);
	if (!b->waiter)
		_exit(-__igt_qaic_wait(b->fd, b->gated.handle, b->dbc[0], BUSY_WAIT_MS));
}

/*
 * The same work through the uapi Linux 6.12's qaic shares with ours, for a
 * driver without syncobjs: the "gated" job waits on a device semaphore
 * that nothing releases (EXECUTE_BO), and no fence is exported.
 */
static void busy_start_shared(struct igt_qaic_busy *b, const char *bdf)
{
	struct igt_qaic_bo stall;

	b->fd = bdf ? igt_qaic_open_bdf(bdf) : igt_qaic_open();
	for (int i = 0; i < 2; i++)
		b->dbc[i] = igt_qaic_activate(b->fd, BUSY_QUEUE);
	b->gate_obj = 0;
	b->out = 0;
	b->sync_fd = -1;
	b->shared = true;

	igt_qaic_stall_bo(b->fd, b->dbc[0], 0, &stall);
	b->gated = (struct igt_qaic_sync_bo) {
		.handle = stall.handle, .size = stall.size, .ptr = stall.ptr,
	};
	igt_qaic_sync_pattern(b->gated.ptr, BUSY_SIZE, 31);
	igt_qaic_execute_bo(b->fd, b->dbc[0], b->gated.handle, IGT_QAIC_DIR_TO_DEV);

	igt_qaic_sync_bo_new(b->fd, BUSY_SIZE, &b->hung);
	igt_qaic_sync_pattern(b->hung.ptr, BUSY_SIZE, 32);
	igt_qaic_attach_simple(b->fd, b->hung.handle, b->dbc[1], IGT_QAIC_DIR_TO_DEV,
			       BUSY_SIZE, BUSY_DEV_ADDR + BUSY_SIZE);
	igt_qaic_emu_hang_dbc(b->fd, b->dbc[1]);
	igt_qaic_execute_bo(b->fd, b->dbc[1], b->hung.handle, IGT_QAIC_DIR_TO_DEV);

	b->waiter = fork();
	igt_assert(b->waiter >= 0);
	if (!b->waiter)
		_exit(-__igt_qaic_wait(b->fd, b->gated.handle, b->dbc[0], BUSY_WAIT_MS));
}

/**
 * igt_qaic_busy_check_ended:
 * @b: the work, started before @event
 * @since_ms: when @event happened (igt_qaic_now_ms())
 * @err: the errno the blocked WAIT_BO must end with (ENODEV is taken too);
 *	 ECANCELED means "the DBC was released under it", which Linux 6.12's
 *	 qaic (@b->shared) reports as EPERM: it checks the DBC again when the
 *	 wait ends, before it looks at the job
 * @event: what happened, for the messages
 *
 * Checks that the blocked waiter woke up soon after @event, that the
 * exported fence (if any: see igt_qaic_busy_run()) signalled with an error,
 * and that both objects' mappings still read what was written into them.
 */
void igt_qaic_busy_check_ended(struct igt_qaic_busy *b, uint64_t since_ms,
			       int err, const char *event)
{
	struct pollfd pfd = { .fd = b->sync_fd, .events = POLLIN };
	struct sync_file_info info = { };
	char what[96];
	int status;

	if (b->shared && err == ECANCELED)
		err = EPERM;
	igt_assert_eq(waitpid(b->waiter, &status, 0), b->waiter);
	igt_assert(WIFEXITED(status));
	igt_info("WAIT_BO behind the gate ended %llu ms after the %s: %s\n",
		 (unsigned long long)(igt_qaic_now_ms() - since_ms), event,
		 igt_qaic_err_name(WEXITSTATUS(status)));
	igt_assert_f(WEXITSTATUS(status) == err || WEXITSTATUS(status) == ENODEV,
		     "WAIT_BO behind the gate, after the %s: %s\n", event,
		     igt_qaic_err_name(WEXITSTATUS(status)));
	igt_assert_lt(igt_qaic_now_ms() - since_ms, BUSY_WAIT_MS / 2);

	if (b->sync_fd >= 0) {
		igt_assert_eq(poll(&pfd, 1, BUSY_WAIT_MS), 1);
		igt_assert_eq(ioctl(b->sync_fd, SYNC_IOC_FILE_INFO, &info), 0);
		igt_assert_f(info.status < 0, "sync_file status %d after the %s\n",
			     info.status, event);
	}

	snprintf(what, sizeof(what), "the gated object, after the %s", event);
	igt_qaic_sync_check(b->gated.ptr, BUSY_SIZE, 31, what);
	snprintf(what, sizeof(what), "the hung object, after the %s", event);
	igt_qaic_sync_check(b->hung.ptr, BUSY_SIZE, 32, what);
}

static void busy_end(struct igt_qaic_busy *b)
{
	if (b->sync_fd >= 0) {
		igt_qaic_gate_open(&b->gate);
		close(b->sync_fd);
	}
	close(b->fd);
}

/**
 * igt_qaic_busy_run:
 * @nproc: processes with work in flight
 * @bdf: the card they use (igt_qaic_card_bdf()); NULL: the first one
 * @event: what happens to the card once they all have, in this process
 * @data: for @event
 * @after: what each process checks after @event, given when it happened
 *
 * Each process starts its work (struct igt_qaic_busy), then @event runs,
 * then each process runs @after and ends its work (the gate opens, the
 * file closes). A driver without syncobjs (Linux 6.12's) gets the same
 * events through the uapi both share: a job that waits on the device
 * instead of behind a gate, and no exported fence.
 */
void igt_qaic_busy_run(unsigned int nproc, const char *bdf,
		       void (*event)(void *data), void *data,
		       void (*after)(struct igt_qaic_busy *b, uint64_t since_ms))
{
	int ready[2], go[2];
	bool syncobjs;
	uint64_t start;
	char c;
	int fd;

	fd = bdf ? igt_qaic_open_bdf(bdf) : igt_qaic_open();
	syncobjs = igt_qaic_has_syncobj(fd);
	if (!syncobjs)
		igt_info("no syncobjs: the shared uapi only\n");
	close(fd);

	igt_assert_eq(pipe(ready), 0);
	igt_assert_eq(pipe(go), 0);
	igt_fork(child, (int)nproc) {
		struct igt_qaic_busy b;
		uint64_t since;

		if (syncobjs)
			busy_start(&b, bdf);
		else
			busy_start_shared(&b, bdf);
		igt_assert_eq(write(ready[1], "r", 1), 1);
		igt_assert_eq(read(go[0], &since, sizeof(since)), (int)sizeof(since));
		after(&b, since);
		busy_end(&b);
	}
	/* A child that fails before it is ready ends the wait (EOF) */
	close(ready[1]);
	close(go[0]);
	for (unsigned int i = 0; i < nproc; i++)
		igt_assert_eq(read(ready[0], &c, 1), 1);
	/* Let the waiters block */
	usleep(200000);
	start = igt_qaic_now_ms();
	event(data);
	for (unsigned int i = 0; i < nproc; i++)
		igt_assert_eq(write(go[1], &start, sizeof(start)), (int)sizeof(start));
	igt_waitchildren();
	close(ready[0]);
	close(go[1]);
}
