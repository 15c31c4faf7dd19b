/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The workload model of the emulated AIC100: small programs of tensor ops
 * over the DBC engine's device memory, so that the card computes something
 * a test can check (tests/emu/manual.rst, "The workload
 * model", has the full description and an example).
 *
 * A program is a 64-byte header at device address P followed by n_ops ops
 * of 48 bytes, little endian, put into device memory like any other data:
 * by a DBC to-device transfer. A DBC doorbell whose address is P + 4 (the
 * header's "go" word) while the word at P is EMU_WL_MAGIC runs it, inside
 * the doorbell write, i.e. inside the request that carried the doorbell.
 * Before it starts it may wait for a DBC semaphore (then it is queued and
 * starts when the engine is next at rest with the condition met); when it
 * ends it sets / increments / decrements up to two DBC semaphores, which
 * lets requests waiting on them (from-device transfers of the outputs) go
 * on. Results are written into the header (state, error, failing op, run
 * count) and counted.
 *
 * Everything in device memory is untrusted: a bad header or op fails the
 * program with an error code, never a crash; at most EMU_WL_MAX_OPS ops
 * and EMU_WL_MAX_WORK element operations per run.
 *
 * Threading: runs on the transport's thread, inside the DBC engine.
 *
 * Copyright (c) 2026 The qaic authors.
 */
#ifndef QAIC_EMU_WORKLOAD_H
#define QAIC_EMU_WORKLOAD_H

#include <stdint.h>
#include <stdio.h>

struct emu_dbc;
struct emu_workload;

#define EMU_WL_MAGIC		0x314c5751u	/* "QWL1" little endian */
#define EMU_WL_HDR_LEN		64
#define EMU_WL_OP_LEN		48
#define EMU_WL_MAX_OPS		256
#define EMU_WL_MAX_PENDING	16		/* programs waiting to start */
#define EMU_WL_MAX_TENSOR	(64u << 20)	/* bytes of one operand */
#define EMU_WL_MAX_WORK		(1ull << 30)	/* element ops (MACs) per run */

/* Header: byte offsets from P. */
#define EMU_WL_H_MAGIC		0	/* u32 EMU_WL_MAGIC */
#define EMU_WL_H_GO		4	/* u32 the doorbell word */
#define EMU_WL_H_STATE		8	/* u32 device: EMU_WL_ST_* */
#define EMU_WL_H_ERROR		12	/* u32 device: EMU_WL_E_* of the last run */
#define EMU_WL_H_FAIL_OP	16	/* u32 device: failing op, or ~0 */
#define EMU_WL_H_RUNS		20	/* u32 device: runs ended, wraps */
#define EMU_WL_H_NOPS		24	/* u32 0..EMU_WL_MAX_OPS */
#define EMU_WL_H_FLAGS		28	/* u32 0 (reserved) */
#define EMU_WL_H_WAIT_DBC	32	/* u32 DBC of the wait semaphore */
#define EMU_WL_H_WAIT		36	/* u32 wait command (DBC sem encoding) */
#define EMU_WL_H_SIG0_DBC	40	/* u32 DBC of signal 0 */
#define EMU_WL_H_SIG0		44	/* u32 signal 0 command */
#define EMU_WL_H_SIG1_DBC	48
#define EMU_WL_H_SIG1		52
#define EMU_WL_H_RSVD		56	/* u64 0 (reserved) */

/* Op: byte offsets from the op's start (P + 64 + 48 * i). */
#define EMU_WL_O_OPCODE		0	/* u8 EMU_WL_OP_* */
#define EMU_WL_O_TYPE		1	/* u8 element type of the inputs */
#define EMU_WL_O_OTYPE		2	/* u8 CONVERT: output type; else 0 */
#define EMU_WL_O_FLAGS		3	/* u8 MATMUL: EMU_WL_F_BIAS; else 0 */
#define EMU_WL_O_N		4	/* u32 elements; MATMUL: rows */
#define EMU_WL_O_K		8	/* u32 MATMUL: inner dimension; else 0 */
#define EMU_WL_O_COLS		12	/* u32 MATMUL: columns; else 0 */
#define EMU_WL_O_SRC0		16	/* u64 device address of input 0 */
#define EMU_WL_O_SRC1		24	/* u64 input 1 (ADD, MUL, MATMUL); else 0 */
#define EMU_WL_O_DST		32	/* u64 output */
#define EMU_WL_O_AUX		40	/* u64 constant / scale / bias address */

/* Ops. */
#define EMU_WL_OP_COPY		1
#define EMU_WL_OP_ADD		2
#define EMU_WL_OP_MUL		3
#define EMU_WL_OP_SCALE		4
#define EMU_WL_OP_RELU		5
#define EMU_WL_OP_MATMUL	6
#define EMU_WL_OP_CHECKSUM	7
#define EMU_WL_OP_CONVERT	8
#define EMU_WL_OP_MAX		8

/* Element types (0 is none: a zeroed op is refused). */
#define EMU_WL_F32		1	/* IEEE 754 binary32 */
#define EMU_WL_I32		2	/* two's complement */
#define EMU_WL_I8		3

#define EMU_WL_F_BIAS		0x01	/* MATMUL: add the row vector at aux */

/* Header state word. */
#define EMU_WL_ST_IDLE		0	/* what the host loads */
#define EMU_WL_ST_PENDING	1	/* rung, waiting for its semaphore */
#define EMU_WL_ST_DONE		2	/* last run succeeded */
#define EMU_WL_ST_FAILED	3	/* last run failed: see error, fail_op */

/* Error codes (header error word). */
#define EMU_WL_OK		0
#define EMU_WL_E_HEADER		1	/* reserved bits, bad wait / signal */
#define EMU_WL_E_TOO_MANY	2	/* n_ops > EMU_WL_MAX_OPS */
#define EMU_WL_E_OPCODE		3	/* unknown op */
#define EMU_WL_E_TYPE		4	/* element type the op does not take */
#define EMU_WL_E_FIELD		5	/* a needed size 0, an unused field set */
#define EMU_WL_E_RANGE		6	/* op table or operand outside device memory */
#define EMU_WL_E_TOO_BIG	7	/* operand > EMU_WL_MAX_TENSOR, run > MAX_WORK */
#define EMU_WL_E_BUSY		8	/* EMU_WL_MAX_PENDING programs waiting */
#define EMU_WL_E_NO_MEM		9	/* the emulator ran out of memory */

#define EMU_WL_NO_OP		0xffffffffu	/* fail_op when no op failed */

struct emu_workload_counters {
	uint64_t doorbells;	/* doorbells that hit a program header */
	uint64_t programs;	/* runs started (ops checked and executed) */
	uint64_t programs_ok;	/* runs that succeeded */
	uint64_t ops;		/* ops executed */
	uint64_t work;		/* element operations (MACs for MATMUL) */
	uint64_t errors;	/* refused headers, failed runs, full queue */
	uint64_t waits;		/* programs queued on a semaphore */
	uint64_t signals;	/* semaphore signals sent */
};

/*
 * Create the model on top of the DBC engine @e (it installs the engine's
 * hooks; one model per engine). NULL if out of memory.
 */
struct emu_workload *emu_workload_create(struct emu_dbc *e);
/* Unhook and free; NULL is fine. */
void emu_workload_destroy(struct emu_workload *w);

/* Forget the programs waiting to start (device reset). */
void emu_workload_reset(struct emu_workload *w);

void emu_workload_get_counters(const struct emu_workload *w,
			       struct emu_workload_counters *out);

/* "key value" lines: wl_doorbells, wl_programs, ..., wl_pending. */
void emu_workload_counters_print(const struct emu_workload *w, FILE *out);

#endif /* QAIC_EMU_WORKLOAD_H */
