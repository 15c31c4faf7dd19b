/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The on-card manager: the firmware behind the QAIC_CONTROL MHI channel that
 * answers NNC control messages (status, passthrough, DMA transfer into device
 * memory, activate / deactivate DBC, terminate).
 *
 * The MHI device model (mhi.c) hands it each message the host queued on the
 * QAIC_CONTROL uplink channel and sends what it returns on the downlink one.
 * The manager never trusts a length: a malformed message gets an error
 * answer, never a crash.
 *
 * Copyright (c) 2026 The qaic authors.
 */
#ifndef QAIC_EMU_MANAGER_H
#define QAIC_EMU_MANAGER_H

#include <stddef.h>
#include <stdint.h>

struct emu_device;
struct emu_manager;

/*
 * Passthrough requests the emulated manager understands. The payload of a
 * passthrough transaction starts with struct emu_pt_req (little endian).
 */
#define EMU_PT_ECHO		1	/* answer: the request payload, unchanged */
#define EMU_PT_XFER_SUM		2	/* answer: struct emu_pt_xfer_sum for tag arg */

struct emu_pt_req {
	uint32_t op;
	uint32_t arg;
	/* op-specific bytes follow */
};

/* What the device received by DMA transfer for one tag so far. */
struct emu_pt_xfer_sum {
	uint32_t op;		/* EMU_PT_XFER_SUM */
	uint32_t tag;
	uint64_t bytes;		/* bytes received for the tag */
	uint32_t crc32;		/* zlib crc32 of those bytes, in order */
	uint32_t status;	/* 0, or 1 if the tag is unknown */
};

struct emu_manager *emu_manager_create(struct emu_device *dev);
void emu_manager_destroy(struct emu_manager *mgr);

/*
 * Handle one message from the host; write the answer (a complete NNC wire
 * message) into @rsp, at most @cap bytes. Returns the answer's length, or 0
 * when there is nothing to send. DMA transfers read host memory with
 * emu_dma_read() on the device given at create.
 */
size_t emu_manager_handle(struct emu_manager *mgr, const void *req, size_t len,
			  void *rsp, size_t cap);

/* The host reset the device (MHI reset, SYS_ERROR): drop all state. */
void emu_manager_reset(struct emu_manager *mgr);

#endif /* QAIC_EMU_MANAGER_H */
