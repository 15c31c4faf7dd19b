/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The host side of MHI for the emulator's unit tests, driven the way the
 * Linux MHI host does it: guest memory the test host owns (one memfd-backed
 * region), the MHI registers of one BAR, the context arrays, the command
 * and event rings, and transfer rings of channels. Each test program has
 * one struct mhi_host with its own layout; the checks stay in the tests.
 *
 * Copyright (c) 2026 The qaic authors.
 */
#ifndef QAIC_EMU_MHI_HOST_H
#define QAIC_EMU_MHI_HOST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "device.h"
#include "guest_mem.h"
#include "mhi.h"

#define MH_CTX_SIZE	44	/* a channel context */

/* A test host: its device, guest memory and MHI layout, its ring positions. */
struct mhi_host {
	struct emu_device *dev;
	unsigned int bar;		/* the BAR of the MHI registers */
	struct guest_mem *gm;
	uint64_t g_base, g_size;	/* the guest memory region */
	uint8_t *g;			/* guest memory as the test sees it */
	uint64_t chan_ctx, ev_ctx, cmd_ctx;
	uint64_t cmd_ring, ev_ring;
	unsigned int cmd_els, ev_els;
	uint64_t cmd_wp, ev_rp;		/* where the host writes, reads next */
	uint64_t bhie_vec, bhie_seg[2];	/* a BHIe vector table, its two segments */
};

/* A channel's transfer ring, and where the host writes next. */
struct mh_chan {
	unsigned int ch;
	uint64_t ring;
	unsigned int els;
	uint64_t wp;
};

/* An event ring element, as the host reads it. */
struct mh_ev {
	uint64_t ptr;
	uint32_t dw0, dw1;
};

/*
 * A fresh card at power-on for @h: @old (the last card's MHI, or NULL)
 * destroyed, device id @id (0: the default), interrupts to @sink, guest
 * memory attached; its new MHI, not yet attached.
 */
struct emu_mhi *mh_new_card(struct mhi_host *h, struct emu_mhi *old, uint16_t id,
			    const struct emu_irq_sink *sink);

/* mhi_fw_load_bhie(): @img in two segments, @first bytes and the rest; TXVECSTATUS at the end. */
uint32_t mh_bhie_load(struct mhi_host *h, const uint8_t *img, size_t len, size_t first,
		      uint32_t seq);

/* Guest memory at @gpa, and its little-endian words. */
uint8_t *mh_gp(const struct mhi_host *h, uint64_t gpa);
void mh_w32(struct mhi_host *h, uint64_t gpa, uint32_t v);
void mh_w64(struct mhi_host *h, uint64_t gpa, uint64_t v);
uint32_t mh_r32(const struct mhi_host *h, uint64_t gpa);
uint64_t mh_r64(const struct mhi_host *h, uint64_t gpa);

/* The MHI registers; doorbells like mhi_write_db(): upper half, then lower half. */
uint32_t mh_rd(struct mhi_host *h, uint32_t off);
void mh_wr(struct mhi_host *h, uint32_t off, uint32_t v);
void mh_db(struct mhi_host *h, uint32_t off, uint64_t v);
void mh_chdb(struct mhi_host *h, unsigned int ch, uint64_t wp);
void mh_erdb(struct mhi_host *h, unsigned int er, uint64_t wp);

/* The ring element after @p in the ring at @base of @els elements. */
uint64_t mh_next(uint64_t p, uint64_t base, unsigned int els);

/* A ring element at @gpa. */
void mh_put_el(struct mhi_host *h, uint64_t gpa, uint64_t ptr, uint32_t dw0, uint32_t dw1);

/* A context at @ctx: its three words, then ring base, length, rp and wp at @base. */
void mh_set_ctx(struct mhi_host *h, uint64_t ctx, uint32_t w0, uint32_t w1, uint32_t w2,
		uint64_t base, uint64_t len);

/* mhi_init_dev_ctxt(): event and command contexts, ring positions, the arrays' registers. */
void mh_init_ctxt(struct mhi_host *h);

/* The whole event ring handed to the card: wp one behind rp, and its doorbell. */
void mh_give_ev_ring(struct mhi_host *h);

/* mhi_init_dev_ctxt(), one event ring and no hardware ones, the ready transition and M0. */
void mh_ready_m0(struct mhi_host *h);

/* Next event the device wrote, its slot handed back; false when none is new. */
bool mh_get_ev(struct mhi_host *h, struct mh_ev *e);

/* An event's type, completion code, length and channel. */
static inline unsigned int mh_ev_type(const struct mh_ev *e) { return (e->dw1 >> 16) & 0xff; }
static inline unsigned int mh_ev_code(const struct mh_ev *e) { return e->dw0 >> 24; }
static inline unsigned int mh_ev_len(const struct mh_ev *e) { return e->dw0 & 0xffff; }
static inline unsigned int mh_ev_chan(const struct mh_ev *e) { return e->dw1 >> 24; }

/* A command of @type for channel @ch on the command ring, and its doorbell. */
void mh_cmd(struct mhi_host *h, unsigned int type, unsigned int ch);

/* One command and its completion code (0 when none came). */
unsigned int mh_cmd_sync(struct mhi_host *h, unsigned int type, unsigned int ch);

/* Channel @ch's context (@dir 1 UL, 2 DL) at its ring of @els elements, empty. */
void mh_chan_init(struct mhi_host *h, struct mh_chan *c, unsigned int ch, unsigned int dir,
		  uint64_t ring, unsigned int els);

/* Like mhi_gen_tre(): a TRANSFER TRE, IEOT unless chained; no doorbell. */
void mh_put_tre(struct mhi_host *h, struct mh_chan *c, uint64_t buf, uint32_t len, bool chain);

/* One TRE and the channel's doorbell. */
void mh_queue_tre(struct mhi_host *h, struct mh_chan *c, uint64_t buf, uint32_t len, bool chain);

/* @data copied to @buf, sent like mhi_queue_buf() chains it: 32 KiB TREs, EOT at the end. */
void mh_send(struct mhi_host *h, struct mh_chan *c, uint64_t buf, const void *data,
	     size_t len);

#endif /* QAIC_EMU_MHI_HOST_H */
