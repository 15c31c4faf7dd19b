/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * qaic-fuzz: the MANAGE ioctl. Messages of transactions (activate,
 * deactivate, status, passthrough requests of the emulated card's
 * manager, DMA transfers), the walk of the card's answer, and the
 * operations that send them, valid or broken.
 *
 * Copyright (c) 2026 The qaic authors.
 */
#ifndef QAIC_FUZZ_MANAGE_H
#define QAIC_FUZZ_MANAGE_H

#include <stdbool.h>
#include <stdint.h>

#include <drm/qaic_accel.h>

#include "fuzz.h"

struct mmsg {
	uint32_t len;
	uint32_t count;
	uint8_t buf[QAIC_MANAGE_MAX_MSG_LENGTH] __attribute__((aligned(8)));
};

/* What the answer to a MANAGE said, as far as the model cares. */
struct answer {
	bool parsed;		/* the answer is in our buffer and well formed */
	int nact;
	uint32_t act_status[4];
	uint32_t act_id[4];
	bool status_ok;
	int npt_deact;		/* EMU_PT_DEACTIVATE granted */
	uint32_t pt_deact[4];
};

struct qaic_manage_msg mm_msg(const struct mmsg *m);
void mm_activate(struct mmsg *m, uint32_t qsize);
void mm_deactivate(struct mmsg *m, uint32_t id);
void mm_status(struct mmsg *m);
bool parse_answer(const struct mmsg *m, uint32_t len, uint32_t count, struct answer *a);
void op_activate(struct tctx *t);
void op_deactivate(struct tctx *t);
void op_status(struct tctx *t);
void op_passthrough(struct tctx *t);
void op_dma_xfer(struct tctx *t);
void op_manage_raw(struct tctx *t);

#endif /* QAIC_FUZZ_MANAGE_H */
