/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The DMA Bridge of the emulated AIC100 on BAR2: 16 DMA Bridge Channels
 * (DBCs), each a request ring and a response ring in host memory that the
 * on-card manager set up when the host activated the channel.
 *
 * Registers of DBC i at BAR2 + 0x20000 + i * 0x1000 (32-bit, indexes into
 * the rings): REQHP 0x0 (device advances), REQTP 0x4 (host writes: the
 * doorbell), RSPHP 0x8 (host writes), RSPTP 0xc (device advances).
 *
 * A request (64 bytes, little endian) may wait on or change one of the
 * channel's 32 semaphores before its transfer (presync), move bytes between
 * host memory and device memory, run up to four post-transfer semaphore
 * commands, write a doorbell into device memory and ask for a 4-byte
 * response (req_id, status). An MSI goes out on vector 1 + i when the
 * response ring goes from empty to non-empty, or when a request asks for
 * one (force-MSI bit), as the real DMA Bridge does; and when a host write
 * to RSPHP leaves responses in the ring, so that a host that read RSPTP
 * once, retired what it saw and acknowledged hears of the ones that came
 * in meanwhile (they made no empty -> non-empty transition).
 *
 * Channel reset: the real DMA Bridge's reset sequence is not public. The
 * emulator's model is what the driver does: a REQTP write equal to REQHP
 * while a request is unfinished (queued behind a hang, waiting on a
 * semaphore, held by a full response ring, fetched and not done) aborts
 * it: no response, its state and a one-shot hang are forgotten, REQHP
 * stays (the ring is empty now), semaphores are kept, `resets` counts it.
 * With nothing unfinished the same write is the ordinary no-op.
 *
 * Device memory is one flat region of the emulator's own, device addresses
 * 0 .. size - 1, mapped lazily (it is not the manager's per-tag storage).
 * The workload model (workload.c) plugs in through struct emu_dbc_hooks: a
 * doorbell may start a program there, which signals semaphores when done.
 *
 * Everything in host memory is untrusted: a bad request gets a non-zero
 * status, a bad register value is counted and ignored, nothing loops
 * longer than one ring.
 *
 * Threading: runs on the transport's thread. Requests are processed
 * synchronously inside the REQTP (or RSPHP) write; reads only look at
 * registers.
 *
 * Copyright (c) 2026 The qaic authors.
 */
#ifndef QAIC_EMU_DBC_H
#define QAIC_EMU_DBC_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "manager.h"	/* EMU_NUM_DBC, struct emu_dbc_cfg */

struct emu_device;
struct emu_dbc;

#define EMU_DBC_BAR		2
#define EMU_DBC_BASE		0x20000
#define EMU_DBC_STRIDE		0x1000
#define EMU_DBC_REQHP		0x0
#define EMU_DBC_REQTP		0x4
#define EMU_DBC_RSPHP		0x8
#define EMU_DBC_RSPTP		0xc

#define EMU_DBC_NUM_SEM		32
#define EMU_DBC_SEM_MAX		0xfff		/* semaphores are 12 bits */

/*
 * The bench's raw round trip (tests/uml/rawrt): a DBC activated through
 * BAR2 itself, without the manager, so that a minimal guest module can
 * measure REQTP -> response -> MSI with no driver loaded. Write the ring's
 * address (request ring, then nelem * 4 bytes of responses right after it)
 * and nelem, then CTRL = EMU_DBC_RAW_ON | id to activate DBC id (refused
 * if it is active already), CTRL = id to release it (only a raw one).
 * Reading CTRL gives the last command's outcome: EMU_DBC_RAW_OK or
 * EMU_DBC_RAW_REFUSED (0 before any command). A test facility: no driver
 * writes there; whatever activates the DBC next (the manager, a reset)
 * replaces a raw channel.
 */
#define EMU_DBC_RAW_BASE	0x10000
#define EMU_DBC_RAW_RING_LO	0x0
#define EMU_DBC_RAW_RING_HI	0x4
#define EMU_DBC_RAW_NELEM	0x8
#define EMU_DBC_RAW_CTRL	0xc
#define EMU_DBC_RAW_ON		(1u << 31)
#define EMU_DBC_RAW_OK		1
#define EMU_DBC_RAW_REFUSED	2
#define EMU_DBC_RAW_MAX_NELEM	4096

/* Device memory behind the DBCs, by default (mapped on first use). */
#define EMU_DBC_DEFAULT_MEM	(256ull << 20)

/* Request fields (Documentation/accel/qaic/aic100.rst). */
#define EMU_DBC_CMD_XFER_MASK	0x03		/* 0 none, 1 to device, 2 from device */
#define EMU_DBC_CMD_TO_DEV	0x01
#define EMU_DBC_CMD_FROM_DEV	0x02
#define EMU_DBC_CMD_BULK	0x08		/* 0: linked list (not modelled) */
#define EMU_DBC_CMD_RSP		0x10		/* write a response element */
#define EMU_DBC_CMD_FORCE_MSI	0x80
#define EMU_DBC_DB_ENABLE	0x80		/* db_len bit 7; bits 1:0 = 32/16/8 bit */
#define EMU_DBC_SEM_ENABLE	(1u << 31)
#define EMU_DBC_SEM_IN_FENCE	(1u << 30)	/* to-device DMA fence */
#define EMU_DBC_SEM_OUT_FENCE	(1u << 29)	/* from-device DMA fence */
#define EMU_DBC_SEM_PRESYNC	(1u << 22)

/* Semaphore commands (uapi QAIC_SEM_*), bits 26:24. */
enum {
	EMU_DBC_SEM_NOP, EMU_DBC_SEM_INIT, EMU_DBC_SEM_INC, EMU_DBC_SEM_DEC,
	EMU_DBC_SEM_WAIT_EQUAL, EMU_DBC_SEM_WAIT_GT_EQ, EMU_DBC_SEM_WAIT_GT_0,
};

/*
 * Response status codes (0 is success; the others are the emulator's own,
 * the real DMA Bridge's values are not public).
 */
#define EMU_DBC_OK		0
#define EMU_DBC_E_HOST		1	/* host range outside guest memory / wraps */
#define EMU_DBC_E_DEV		2	/* device range outside device memory */
#define EMU_DBC_E_CMD		3	/* transfer type 3, linked list, 2+ presyncs */
#define EMU_DBC_E_SEM		4	/* reserved semaphore command 7 */
#define EMU_DBC_E_DOORBELL	5	/* reserved length, misaligned, outside */
#define EMU_DBC_E_FETCH		6	/* a request could not be read */
#define EMU_DBC_E_WORKLOAD	7	/* the doorbell ran a program that failed */
#define EMU_DBC_E_INJECTED	0xbad	/* fault injection: corrupted status */

struct emu_dbc_counters {
	uint64_t reg_reads[4];		/* REQHP, REQTP, RSPHP, RSPTP */
	uint64_t reg_writes[4];
	uint64_t requests;		/* requests consumed (REQHP advanced) */
	uint64_t responses;		/* response elements written */
	uint64_t dma_to_dev_bytes;	/* host -> device memory */
	uint64_t dma_from_dev_bytes;	/* device memory -> host */
	uint64_t irqs;			/* MSIs raised */
	uint64_t errors;		/* requests completed with a non-zero status */
	uint64_t stalls;		/* times a semaphore wait stopped the ring */
	uint64_t rsp_full;		/* times a full response ring held the ring */
	uint64_t sem_ops;		/* semaphore commands executed */
	uint64_t doorbells;		/* doorbells written */
	uint64_t bad_index;		/* REQTP/RSPHP write >= nelem: ignored */
	uint64_t ignored_writes;	/* read-only register, or inactive DBC */
	uint64_t rsp_dropped;		/* fault injection */
	uint64_t rsp_corrupted;		/* fault injection */
	uint64_t resets;		/* channel resets that aborted a request */
	uint64_t late_xfers;		/* fetched requests carried out after a reset */
	/*
	 * Where a job's time goes, as the card sees it (EMU_PT_DBC_TIMES):
	 * the card's share is from the doorbell that announced a request to
	 * its response; the host's is what the ring spends with nothing
	 * announced, from the response that emptied it to the next doorbell.
	 */
	uint64_t card_ns;		/* sum of doorbell -> response */
	uint64_t rsps_timed;		/* responses counted in card_ns */
	uint64_t idle_ns;		/* sum of emptied -> next doorbell */
	uint64_t idles;			/* times the ring ran out of work */
};

struct emu_dbc *emu_dbc_create(struct emu_device *dev);
void emu_dbc_destroy(struct emu_dbc *e);

/* Plug the DBC registers into BAR2 of the device. */
void emu_dbc_attach(struct emu_dbc *e);

/*
 * Follow the manager's activations and releases, and serve its
 * EMU_PT_HANG_DBC and EMU_PT_DBC_COUNTERS passthroughs
 * (emu_manager_set_dbc_ops() on @mgr, which then belongs to the engine).
 */
void emu_dbc_connect(struct emu_dbc *e, struct emu_manager *mgr);

/*
 * What the manager's hook does: activate DBC @id with @cfg (rings start
 * at index 0, semaphores 0), or release it (stop, forget all state; reads
 * return 0 again). Fault settings and counters are kept; a one-shot hang
 * is forgotten.
 */
void emu_dbc_activate(struct emu_dbc *e, unsigned int id,
		      const struct emu_dbc_cfg *cfg);
void emu_dbc_release(struct emu_dbc *e, unsigned int id);

/* Device memory size in bytes; only before the first access. -EBUSY, 0. */
int emu_dbc_set_mem_size(struct emu_dbc *e, uint64_t bytes);
/* Device memory access for tests and the workload model: 0 or -EFAULT. */
int emu_dbc_mem_read(struct emu_dbc *e, uint64_t addr, void *buf, uint64_t len);
int emu_dbc_mem_write(struct emu_dbc *e, uint64_t addr, const void *buf,
		      uint64_t len);

/*
 * Device memory in place, for the workload model: a pointer to [addr,
 * addr + len), valid until emu_dbc_destroy(), or NULL if the range is not
 * inside device memory (or wraps, or len is 0).
 */
uint8_t *emu_dbc_mem_ptr(struct emu_dbc *e, uint64_t addr, uint64_t len);

/*
 * Semaphores as the workload sees them. Setting one lets a waiting request
 * go on. Called from outside the engine, processing resumes inside the
 * call; called from a hook below (the engine is processing a request),
 * only the value changes, and the channel is run once the engine is back
 * at the outermost call, after the request that called the hook is done.
 * -EINVAL on a bad id/index.
 */
int emu_dbc_sem_get(struct emu_dbc *e, unsigned int id, unsigned int idx);
int emu_dbc_sem_set(struct emu_dbc *e, unsigned int id, unsigned int idx,
		    uint16_t val);

/*
 * The workload model's view of the engine (workload.c); any member may be
 * NULL. Hooks run inside the engine: they may read and write device memory
 * and call emu_dbc_sem_get()/emu_dbc_sem_set(), nothing else of the engine.
 */
struct emu_dbc_hooks {
	/*
	 * A request of DBC @id wrote a doorbell of @len bytes (1, 2 or 4) at
	 * device address @addr; the bytes are in device memory already.
	 * Returns the request's status: 0, or EMU_DBC_E_WORKLOAD.
	 */
	uint16_t (*doorbell)(void *ctx, unsigned int id, uint64_t addr,
			     unsigned int len);
	/*
	 * The engine ran out of work at the end of an outermost call (a BAR2
	 * write, emu_dbc_sem_set(), ...): semaphores may have changed since
	 * the last call. Returns true if it did something (which may give
	 * the channels more to do: they run, then idle is called again).
	 */
	bool (*idle)(void *ctx);
};

/* Plug in the workload model (NULL @hooks: none). */
void emu_dbc_set_hooks(struct emu_dbc *e, const struct emu_dbc_hooks *hooks,
		       void *ctx);

/*
 * Fault injection; settings survive release and activation.
 * hang: the DBC stops consuming requests (REQTP writes are still taken);
 * un-hanging resumes. drop / corrupt: every @every-th response (1: all of
 * them, 0: off) is not written (the request is still consumed) / carries
 * @status instead of the real one. reqhp_lag: REQHP reads @lag entries
 * (modulo the ring) behind the truth, a device misreporting its head
 * (0: off); the engine itself is not affected. msi_off: the channel's
 * completion MSIs never reach the host (a VM whose MSIs are broken); the
 * irqs counter counts only those sent.
 */
void emu_dbc_set_hang(struct emu_dbc *e, unsigned int id, bool hang);
void emu_dbc_set_drop_rsp(struct emu_dbc *e, unsigned int id, uint32_t every);
void emu_dbc_set_corrupt_rsp(struct emu_dbc *e, unsigned int id,
			     uint32_t every, uint16_t status);
void emu_dbc_set_reqhp_lag(struct emu_dbc *e, unsigned int id, uint32_t lag);
void emu_dbc_set_msi_off(struct emu_dbc *e, unsigned int id, bool off);

/*
 * Arm systematic case @idx of dbc_cases.h: the next response of any DBC,
 * or the next REQHP read of an active one, is the case's; once. 0 or
 * -EINVAL.
 */
int emu_dbc_send_case(struct emu_dbc *e, unsigned int idx);

/*
 * Device time of DBC @id: each request takes @req_ns, from the doorbell
 * (REQTP write) or from the end of the one before, instead of completing
 * within the write (0, the default). Survives release and activation.
 * Going back to 0 finishes what was scheduled at once. The requests a
 * semaphore releases run at once, as before.
 */
void emu_dbc_set_timing(struct emu_dbc *e, unsigned int id, uint32_t req_ns);

/*
 * Nanoseconds until a DBC with device time has a request done (0: now),
 * or -1 if none has work scheduled; the serve loop waits no longer and
 * then calls emu_dbc_tick(), which does the work whose time has come.
 */
long long emu_dbc_timeout_ns(const struct emu_dbc *e);
void emu_dbc_tick(struct emu_dbc *e);

/*
 * One-shot hang of active DBC @id (what EMU_PT_HANG_DBC does): from now on
 * it processes nothing, so the request at REQHP is never completed, until
 * the host resets the channel (see above) or the DBC is released. Separate
 * from the permanent hang, which a reset leaves alone. With @late_ms, the
 * engine fetches the request at REQHP and keeps it through the host's
 * reset: it carries out its transfer @late_ms after the reset, or when the
 * DBC is released first (a card that goes on with work the host gave up
 * on). 0, -EINVAL (bad id), -ENODEV (not active).
 */
int emu_dbc_hang_once(struct emu_dbc *e, unsigned int id, uint32_t late_ms);

/* Counters of DBC @id, or of all of them for @id == EMU_NUM_DBC. */
void emu_dbc_get_counters(const struct emu_dbc *e, unsigned int id,
			  struct emu_dbc_counters *out);

/* "key value" lines: dbc_<name> totals, then dbc<i>_<name> per DBC. */
void emu_dbc_counters_print(const struct emu_dbc *e, FILE *out);

#endif /* QAIC_EMU_DBC_H */
