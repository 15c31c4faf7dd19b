/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The card's RAS reports (reliability, availability, serviceability) on
 * the QAIC_STATUS channel pair (14 up, 15 down) of the emulated AIC100:
 * correctable and uncorrectable errors of its memories, PCIe link, DDR,
 * system buses and temperature sensors, pushed to the host in mission
 * mode.
 *
 * The message is upstream Linux's (6.17, qaic_ras.c): a 12-byte header
 * (magic u16 0x55aa, version u16 1 or 2, sequence number u32, type u8:
 * 0 push, id u8, len u16: bytes after the header) and 92 bytes of body
 * (result s32, source u32 0..6, err_type u32: 0 correctable, 1
 * uncorrectable, 2 uncorrectable non-fatal, err_threshold, ce_count,
 * ue_count, intr_num u32, syndrome 64 bytes), all little-endian; 104
 * bytes in all. A temperature report's syndrome begins with the threshold
 * crossed (u32, 0 lower, 1 upper, 2 critical) and the temperature (s32).
 *
 * emu_ras_report() sends one well-formed report, or one broken in a
 * chosen way (enum emu_ras_flaw), for testing that the host refuses it.
 *
 * Copyright (c) 2026 The qaic authors.
 */
#ifndef QAIC_EMU_RAS_H
#define QAIC_EMU_RAS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct emu_device;
struct emu_ras;

#define EMU_RAS_CH_UL		14
#define EMU_RAS_CH_DL		15

#define RAS_MAGIC		0x55aa
#define RAS_VERSION		2
#define RAS_HDR_LEN		12
#define RAS_MSG_LEN		104

enum emu_ras_source {
	RAS_SRC_SOC_MEM,
	RAS_SRC_PCIE,
	RAS_SRC_DDR,
	RAS_SRC_SYS_BUS1,
	RAS_SRC_SYS_BUS2,
	RAS_SRC_NSP_MEM,
	RAS_SRC_TSENS,
	RAS_NR_SOURCES,
};

enum emu_ras_type {
	RAS_CE,
	RAS_UE,
	RAS_UE_NF,
	RAS_NR_TYPES,
};

/* How a report is broken (EMU_PT_RAS); each must be refused by the host. */
enum emu_ras_flaw {
	RAS_FLAW_NONE,
	RAS_FLAW_MAGIC,		/* magic 0xaa55 */
	RAS_FLAW_VERSION_0,	/* version 0 */
	RAS_FLAW_VERSION_NEW,	/* version 3, newer than any host knows */
	RAS_FLAW_TYPE,		/* a response (2), not a push */
	RAS_FLAW_LEN,		/* len 91 in the header */
	RAS_FLAW_ERR_TYPE,	/* err_type 3 */
	RAS_FLAW_SOURCE,	/* source 7 */
	RAS_FLAW_THRESHOLD,	/* a temperature report with threshold 3 */
	RAS_FLAW_SHORT,		/* 60 bytes sent, the header unchanged */
	RAS_FLAW_LONG,		/* 200 bytes sent */
	RAS_NR_FLAWS,
};

struct emu_ras_ops {
	/* One message for the host, on the downlink channel. */
	void (*send)(void *ctx, const void *msg, size_t len);
};

struct emu_ras *emu_ras_create(struct emu_device *dev,
			       const struct emu_ras_ops *ops, void *ctx);
void emu_ras_destroy(struct emu_ras *r);

/* One report; 0, or -EINVAL for a source, type or flaw out of range. */
int emu_ras_report(struct emu_ras *r, unsigned int source, unsigned int type,
		   unsigned int flaw);

/*
 * Systematic case @idx of ras_cases.h, the next sequence number; 0, or
 * -EINVAL for no such case.
 */
int emu_ras_send_case(struct emu_ras *r, unsigned int idx);

/* "key value" lines: ras_reports, ras_flawed */
void emu_ras_counters_print(const struct emu_ras *r, FILE *out);

#endif /* QAIC_EMU_RAS_H */
