/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * The images the emulated card's SBL asks for over Sahara, in the order it
 * asks, and which of them it can boot without.
 *
 * The ids are the AIC100 table of Linux's qaic (1, 2, 4, 5, 6, 8, 9, 10;
 * the AIC080 asks for the same ones). Which images a real card can do
 * without is the card's own knowledge: Linux's host marks none, answers
 * any image it cannot load with RESET and lets the card decide. The
 * optional ones here (5 and 10, a middle one and the last) are ours, chosen
 * so that the bench has both kinds: a card that gets RESET for an optional
 * image goes on without it, for a required one it cannot (sahara.c).
 *
 * Shared by the emulated card (sahara.c) and the IGT test qaic_boot, which
 * leaves images out of the firmware and checks the host's verdict.
 *
 * Copyright (c) 2026 The qaic authors.
 */
#ifndef QAIC_EMU_SAHARA_IMAGES_H
#define QAIC_EMU_SAHARA_IMAGES_H

#include <stdbool.h>
#include <stdint.h>

/* One image of a card's table. */
struct emu_sahara_image {
	uint32_t id;
	const char *file;	/* under qcom/, as Linux names it */
	bool optional;		/* the card boots without it */
};

/*
 * A card's table, in the order its SBL asks. @streams: the SBL reads with
 * READ_DATA only, in reads of any length (the AIC200's XBL), where the
 * AIC100's alternates READ_DATA64 (for a host of version 3) and keeps to
 * SAHARA_MAX_READ. At most 32 images.
 */
struct emu_sahara_table {
	const struct emu_sahara_image *images;
	unsigned int nr;
	bool streams;
};

extern const struct emu_sahara_table emu_sahara_aic100_table;
/*
 * The AIC200's 28 images (upstream Linux 7.2's table); 63
 * (xbl_ac_config.mbn) and 78 (pvs.bin, the last) are optional (ours).
 */
extern const struct emu_sahara_table emu_sahara_aic200_table;

#endif /* QAIC_EMU_SAHARA_IMAGES_H */
