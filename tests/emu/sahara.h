/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The card side of the Sahara protocol on the QAIC_SAHARA channel pair
 * (2 up, 3 down) of the emulated AIC100: once SBL runs, the card asks the
 * host for every image of the AIC100 image table, in pieces at offsets of
 * its own choosing, checks each image (fw_image.h), and then enters
 * mission mode.
 *
 * One image is one session: HELLO (card) -> HELLO_RESP (host) -> READ_DATA
 * or READ_DATA64 (card; the latter only to a host of version 3 or later)
 * answered by exactly the bytes asked for (host),
 * as often as the card wants -> END_OF_IMAGE (card, with the check's
 * status) -> DONE (host) -> DONE_RESP (card: more images pending, or
 * complete). After the last DONE_RESP the card boots into AMSS.
 *
 * A host that has no image answers the card's first read of it with RESET
 * (Linux's does): the card answers RESET_RESP and goes on without an
 * optional image (sahara_images.h) with END_OF_IMAGE of status 0, or
 * gives up on a required one with END_OF_IMAGE of SAHARA_STATUS_NO_IMAGE.
 * A RESET anywhere else makes it ask for the image again from its HELLO.
 *
 * A boot after a crash first offers the crash's memory dump (memdump.h).
 *
 * Fault injection (emu_sahara_set_faults()) makes the card misbehave once
 * per boot, so that a host's error paths can be driven; the systematic
 * cases (sahara_cases.h, emu_sahara_set_cases()) send one crafted packet
 * per boot, each field at its boundary values.
 *
 * Copyright (c) 2026 The qaic authors.
 */
#ifndef QAIC_EMU_SAHARA_H
#define QAIC_EMU_SAHARA_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "sahara_images.h"
#include "sahara_proto.h"

struct emu_device;
struct emu_memdump;
struct emu_sahara;

/* The channel pair (drivers/accel/qaic/mhi_controller.c in Linux 6.12). */
#define EMU_SAHARA_CH_UL	2
#define EMU_SAHARA_CH_DL	3

/* Largest uplink message: one READ_DATA's worth of bytes. */
#define EMU_SAHARA_MAX_MSG	SAHARA_MAX_READ

/* END_OF_IMAGE status when the image failed its check (ours). */
#define SAHARA_STATUS_BAD_IMAGE	0x18
/* END_OF_IMAGE status: the host has none of an image the card needs (ours). */
#define SAHARA_STATUS_NO_IMAGE	0x19

enum emu_sahara_fault {
	SAHARA_FAULT_NONE,
	SAHARA_FAULT_UNKNOWN_IMAGE,	/* ask for image 3, not in the table */
	SAHARA_FAULT_OUT_OF_RANGE,	/* a read past the image's end */
	SAHARA_FAULT_ZERO_LENGTH,	/* a read of 0 bytes */
	SAHARA_FAULT_OVERSIZE,		/* a read of SAHARA_MAX_READ + 1 bytes */
	SAHARA_FAULT_NEVER_FINISH,	/* silent after the first HELLO_RESP */
	SAHARA_FAULT_CORRUPT,		/* the first image fails its check */
	SAHARA_FAULT_AFTER_DONE,	/* a read after the last DONE_RESP */
	/* END_OF_IMAGE (status 1) before any read: no image is open */
	SAHARA_FAULT_EOI_NO_IMAGE,	/* for image 0xffffffff */
	SAHARA_FAULT_EOI_PAST_TABLE,	/* for image 11, one past the table */
	SAHARA_FAULT_COUNT,
};

struct emu_sahara_ops {
	/* Queue one packet for the host on the downlink channel. */
	void (*send)(void *ctx, const void *pkt, size_t len);
	/* Every image loaded and checked: the card enters mission mode. */
	void (*booted)(void *ctx);
};

struct emu_sahara_counters {
	uint64_t sahara_sessions;	/* HELLOs sent */
	uint64_t sahara_reads;		/* READ_DATA / READ_DATA64 sent */
	uint64_t sahara_bytes;		/* image bytes received */
	uint64_t sahara_images_ok;
	uint64_t sahara_images_bad;
	uint64_t sahara_boots;		/* last DONE_RESP sent, AMSS entered */
	uint64_t sahara_resets;		/* RESET from the host */
	uint64_t sahara_images_skipped;	/* optional, the host had none */
	uint64_t sahara_images_missing;	/* required, the host had none */
	uint64_t sahara_bad_msgs;	/* unexpected or malformed host messages */
	uint64_t sahara_faults;		/* faults injected */
	uint64_t sahara_cases;		/* systematic cases sent */
};

struct emu_sahara *emu_sahara_create(struct emu_device *dev,
				     const struct emu_sahara_ops *ops,
				     void *ctx);
void emu_sahara_destroy(struct emu_sahara *s);

/* "name" -> fault, or -1. */
int emu_sahara_fault_parse(const char *name);
const char *emu_sahara_fault_name(enum emu_sahara_fault f);
/*
 * The fault of each boot in turn: the n-th boot (emu_sahara_start() after
 * emu_sahara_power_on()) gets faults[n], later boots none. At most 16.
 */
int emu_sahara_set_faults(struct emu_sahara *s, const enum emu_sahara_fault *f,
			  unsigned int n);

/*
 * The systematic case (sahara_cases.h) of each boot in turn: the n-th
 * boot gets emu_sahara_cases[cases[n]] (-1: none), later boots none. At
 * most 256.
 */
int emu_sahara_set_cases(struct emu_sahara *s, const int *cases, unsigned int n);
/*
 * Or: each boot takes its case from the file at @path (NULL: none) as it
 * starts, a name or number on its first line, and removes the file; no
 * file, an empty one or "none": no case. Set, it takes the place of the
 * list.
 */
int emu_sahara_set_case_file(struct emu_sahara *s, const char *path);

/*
 * A crash's memory dump (memdump.h), offered at the start of a new boot
 * before the images; NULL: none.
 */
void emu_sahara_set_memdump(struct emu_sahara *s, struct emu_memdump *md);
/* Timed work: the memory-debug HELLO the host let wait. */
void emu_sahara_tick(struct emu_sahara *s);

/* The card powered on or was reset: the next start is a new boot. */
void emu_sahara_power_on(struct emu_sahara *s);
/* SBL runs and the host started both channels: say HELLO. */
void emu_sahara_start(struct emu_sahara *s);
/* The host stopped or reset a channel: the session is over. */
void emu_sahara_stop(struct emu_sahara *s);
/* One complete uplink message (a chain of TREs ending in EOT). */
void emu_sahara_rx(struct emu_sahara *s, const uint8_t *msg, size_t len);

/*
 * Whether this boot went on without image @idx of the card's table
 * (sahara_images.h), an optional one the host had none of.
 */
bool emu_sahara_image_skipped(const struct emu_sahara *s, unsigned int idx);

const struct emu_sahara_counters *emu_sahara_counters(const struct emu_sahara *s);
void emu_sahara_counters_print(const struct emu_sahara *s, FILE *out);

#endif /* QAIC_EMU_SAHARA_H */
