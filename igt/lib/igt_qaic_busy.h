/* SPDX-License-Identifier: MIT */
/*
 * Copyright (c) 2026 The qaic authors.
 */

#ifndef IGT_QAIC_BUSY_H
#define IGT_QAIC_BUSY_H

#include <stdint.h>
#include <sys/types.h>

#include "igt_qaic_sync.h"

/**
 * struct igt_qaic_busy - Work one process has in flight on the card.
 * @fd: Its file.
 * @dbc: Its two DBCs.
 * @gate: A vgem fence that never signals while the card is busy.
 * @gate_obj: The syncobj holding @gate's fence.
 * @out: The syncobj of the last job behind the gate.
 * @sync_fd: @out's fence as a sync_file, exported before the event.
 * @waiter: A process blocked in WAIT_BO on the jobs behind the gate;
 *	    it exits with the errno its wait ended with.
 * @gated: The object of the jobs behind the gate, on @dbc[0].
 * @hung: The object of a hung job and the jobs behind it, on @dbc[1].
 * @shared: The driver has no syncobjs (Linux 6.12's qaic): the work uses
 *	    only the uapi both drivers share, @gate, @out and @sync_fd unused.
 */
struct igt_qaic_busy {
	int fd;
	uint32_t dbc[2];
	struct igt_qaic_gate gate;
	uint32_t gate_obj, out;
	int sync_fd;
	pid_t waiter;
	struct igt_qaic_sync_bo gated, hung;
	bool shared;
};

void igt_qaic_busy_check_ended(struct igt_qaic_busy *b, uint64_t since_ms,
			       int err, const char *event);
void igt_qaic_busy_run(unsigned int nproc, const char *bdf,
		       void (*event)(void *data), void *data,
		       void (*after)(struct igt_qaic_busy *b, uint64_t since_ms));

#endif /* IGT_QAIC_BUSY_H */
