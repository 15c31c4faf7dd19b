/* SPDX-License-Identifier: MIT */
/*
 * Copyright (c) 2026 The qaic authors.
 */

#ifndef IGT_QAIC_STATS_H
#define IGT_QAIC_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "igt_qaic.h"

/**
 * struct igt_qaic_fdinfo:
 * @driver: drm-driver
 * @pdev: drm-pdev, "" if absent
 * @client_id: drm-client-id
 * @has_client_id: drm-client-id was there
 * @engine_ns: drm-engine-dbc<N>, nanoseconds
 * @nengines: drm-engine-dbc<N> lines seen, each N once
 * @total: drm-total-memory, bytes
 * @shared: drm-shared-memory, bytes
 * @active: drm-active-memory, bytes
 * @resident: drm-resident-memory, bytes
 * @purgeable: drm-purgeable-memory, bytes
 * @memory_keys: the drm-*-memory keys seen, IGT_QAIC_MEM_* bits
 *
 * What /proc/self/fdinfo/<fd> says of a qaic file, in the keys of the
 * kernel's Documentation/gpu/drm-usage-stats.rst.
 */
struct igt_qaic_fdinfo {
	char driver[32];
	char pdev[32];
	uint64_t client_id;
	bool has_client_id;
	uint64_t engine_ns[IGT_QAIC_NUM_DBC];
	unsigned int nengines;
	uint64_t total, shared, active, resident, purgeable;
	unsigned int memory_keys;
};

/* Bits of igt_qaic_fdinfo.memory_keys */
#define IGT_QAIC_MEM_TOTAL	(1u << 0)
#define IGT_QAIC_MEM_SHARED	(1u << 1)
#define IGT_QAIC_MEM_ACTIVE	(1u << 2)
#define IGT_QAIC_MEM_RESIDENT	(1u << 3)
#define IGT_QAIC_MEM_PURGEABLE	(1u << 4)

void igt_qaic_fdinfo(int fd, struct igt_qaic_fdinfo *info);

/**
 * struct igt_qaic_dbc_debugfs:
 * @fifo_size: entries of each ring, 0 if inactive
 * @queued: request entries written and not known consumed
 * @owner: file id of the owner, 0 if none
 * @draining: the owner deactivated it, the card did not release it yet
 * @active: the DBC has a queue: the fields up to @bad_responses are set
 * @req_head: the driver's request ring head
 * @req_tail: the driver's request ring tail
 * @rsp_head: the driver's response ring head
 * @credits: scheduler credits (ring slots) held by jobs
 * @credit_limit: the most credits the scheduler gives
 * @jobs_in_flight: jobs on the ring
 * @jobs_pending: jobs made and not freed
 * @next_req_id: req_id of the next job
 * @bad_responses: responses that named no job
 * @requests: requests written since probe
 * @doorbells: REQTP writes that announced them, since probe
 * @jobs: jobs retired since probe
 * @resets: DBC resets since probe
 * @last_error: error of the last failed job, 0 if none
 * @has_regs: the device registers below were read
 * @regs: REQHP, REQTP, RSPHP, RSPTP
 *
 * The dbc<NNN>/state debugfs file of a DBC.
 */
struct igt_qaic_dbc_debugfs {
	uint64_t fifo_size, queued, owner, draining;
	bool active;
	uint64_t req_head, req_tail, rsp_head;
	uint64_t credits, credit_limit;
	uint64_t jobs_in_flight, jobs_pending, next_req_id, bad_responses;
	uint64_t requests, doorbells, polls, jobs, resets;
	int64_t last_error;
	bool has_regs;
	uint64_t regs[4];
};

void igt_qaic_dbc_debugfs_path(int fd, uint32_t dbc_id, const char *file,
			       char *path, size_t len);
bool igt_qaic_dbc_debugfs(int fd, uint32_t dbc_id,
			  struct igt_qaic_dbc_debugfs *st);
uint64_t igt_qaic_dbc_debugfs_u64(int fd, uint32_t dbc_id, const char *file);

#endif /* IGT_QAIC_STATS_H */
