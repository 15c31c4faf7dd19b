// SPDX-License-Identifier: GPL-2.0-only
/*
 * The host side of MHI for the emulator's unit tests (see mhi_host.h).
 *
 * Copyright (c) 2026 The qaic authors.
 */
#include <linux/pci_regs.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "bhie.h"
#include "mhi_host.h"
#include "pci.h"

/* Guest memory: g_size bytes at g_base from a memfd, given to the device; MSI-X on. */
static void mh_attach_guest(struct mhi_host *h)
{
	int fd = memfd_create("guest", MFD_CLOEXEC);

	if (fd < 0 || ftruncate(fd, (off_t)h->g_size) ||
	    guest_mem_add_fd(h->gm, fd, 0, h->g_base, 0x7f0000000000ull, h->g_size, false))
		abort();
	close(fd);
	h->g = guest_mem_gpa(h->gm, h->g_base, h->g_size);
	emu_device_set_guest_mem(h->dev, h->gm);
	emu_cfg_write(h->dev, PCI_COMMAND, 2, PCI_COMMAND_MEMORY | PCI_COMMAND_MASTER);
	emu_mmio_write(h->dev, 4, EMU_MSIX_TABLE_OFF, &(uint32_t){ 0xfee00000 }, 4);
	emu_mmio_write(h->dev, 4, EMU_MSIX_TABLE_OFF + 8, &(uint32_t){ 33 }, 4);
	emu_mmio_write(h->dev, 4, EMU_MSIX_TABLE_OFF + 12, &(uint32_t){ 0 }, 4);
	emu_cfg_write(h->dev, EMU_CAP_MSIX + PCI_MSIX_FLAGS, 2, PCI_MSIX_FLAGS_ENABLE);
}

struct emu_mhi *mh_new_card(struct mhi_host *h, struct emu_mhi *old, uint16_t id,
			    const struct emu_irq_sink *sink)
{
	struct emu_mhi *mhi;

	if (old)
		emu_mhi_destroy(old);
	emu_device_fini(h->dev);
	guest_mem_reset(h->gm);
	if (emu_device_init(h->dev, true))
		abort();
	if (id)
		emu_pci_set_device_id(&h->dev->pci, id);
	emu_device_set_irq_sink(h->dev, sink);
	mh_attach_guest(h);
	mhi = emu_mhi_create(h->dev, NULL);
	if (!mhi)
		abort();
	return mhi;
}

uint8_t *mh_gp(const struct mhi_host *h, uint64_t gpa)
{
	return h->g + (gpa - h->g_base);
}

void mh_w32(struct mhi_host *h, uint64_t gpa, uint32_t v) { memcpy(mh_gp(h, gpa), &v, 4); }
void mh_w64(struct mhi_host *h, uint64_t gpa, uint64_t v) { memcpy(mh_gp(h, gpa), &v, 8); }

uint32_t mh_r32(const struct mhi_host *h, uint64_t gpa)
{
	uint32_t v;

	memcpy(&v, mh_gp(h, gpa), 4);
	return v;
}

uint64_t mh_r64(const struct mhi_host *h, uint64_t gpa)
{
	uint64_t v;

	memcpy(&v, mh_gp(h, gpa), 8);
	return v;
}

uint32_t mh_rd(struct mhi_host *h, uint32_t off)
{
	uint32_t v;

	emu_mmio_read(h->dev, h->bar, off, &v, 4);
	return v;
}

void mh_wr(struct mhi_host *h, uint32_t off, uint32_t v)
{
	emu_mmio_write(h->dev, h->bar, off, &v, 4);
}

void mh_db(struct mhi_host *h, uint32_t off, uint64_t v)
{
	mh_wr(h, off + 4, (uint32_t)(v >> 32));
	mh_wr(h, off, (uint32_t)v);
}

void mh_chdb(struct mhi_host *h, unsigned int ch, uint64_t wp)
{
	mh_db(h, mh_rd(h, 0x18) + 8 * ch, wp);
}

void mh_erdb(struct mhi_host *h, unsigned int er, uint64_t wp)
{
	mh_db(h, mh_rd(h, 0x20) + 8 * er, wp);
}

uint64_t mh_next(uint64_t p, uint64_t base, unsigned int els)
{
	p += 16;
	return p >= base + 16ull * els ? base : p;
}

void mh_put_el(struct mhi_host *h, uint64_t gpa, uint64_t ptr, uint32_t dw0, uint32_t dw1)
{
	mh_w64(h, gpa, ptr);
	mh_w32(h, gpa + 8, dw0);
	mh_w32(h, gpa + 12, dw1);
}

void mh_set_ctx(struct mhi_host *h, uint64_t ctx, uint32_t w0, uint32_t w1, uint32_t w2,
		uint64_t base, uint64_t len)
{
	mh_w32(h, ctx, w0);
	mh_w32(h, ctx + 4, w1);
	mh_w32(h, ctx + 8, w2);
	mh_w64(h, ctx + 12, base);
	mh_w64(h, ctx + 20, len);
	mh_w64(h, ctx + 28, base);
	mh_w64(h, ctx + 36, base);
}

void mh_init_ctxt(struct mhi_host *h)
{
	mh_set_ctx(h, h->ev_ctx, 0, 1, 0, h->ev_ring, 16ull * h->ev_els);
	mh_set_ctx(h, h->cmd_ctx, 0, 0, 0, h->cmd_ring, 16ull * h->cmd_els);
	h->cmd_wp = h->cmd_ring;
	h->ev_rp = h->ev_ring;
	mh_wr(h, 0x5c, (uint32_t)(h->chan_ctx >> 32));
	mh_wr(h, 0x58, (uint32_t)h->chan_ctx);
	mh_wr(h, 0x64, (uint32_t)(h->ev_ctx >> 32));
	mh_wr(h, 0x60, (uint32_t)h->ev_ctx);
	mh_wr(h, 0x6c, (uint32_t)(h->cmd_ctx >> 32));
	mh_wr(h, 0x68, (uint32_t)h->cmd_ctx);
}

void mh_give_ev_ring(struct mhi_host *h)
{
	uint64_t last = h->ev_ring + 16ull * (h->ev_els - 1);

	mh_w64(h, h->ev_ctx + 36, last);
	mh_erdb(h, 0, last);
}

void mh_ready_m0(struct mhi_host *h)
{
	mh_init_ctxt(h);
	mh_wr(h, 0x10, (mh_rd(h, 0x10) & ~0xffff0000u) | 1 << 16);
	mh_give_ev_ring(h);
	mh_wr(h, 0x38, 2 << 8);
}

bool mh_get_ev(struct mhi_host *h, struct mh_ev *e)
{
	uint64_t rp = h->ev_rp;

	if (mh_r64(h, h->ev_ctx + 28) == rp)
		return false;
	e->ptr = mh_r64(h, rp);
	e->dw0 = mh_r32(h, rp + 8);
	e->dw1 = mh_r32(h, rp + 12);
	/* Recycle: hand the slot back (wp one behind our rp), ring the DB. */
	h->ev_rp = mh_next(rp, h->ev_ring, h->ev_els);
	mh_w64(h, h->ev_ctx + 36, h->ev_rp == h->ev_ring ?
				  h->ev_ring + 16ull * (h->ev_els - 1) : h->ev_rp - 16);
	mh_erdb(h, 0, mh_r64(h, h->ev_ctx + 36));
	return true;
}

void mh_cmd(struct mhi_host *h, unsigned int type, unsigned int ch)
{
	mh_put_el(h, h->cmd_wp, 0, 0, ch << 24 | type << 16);
	h->cmd_wp = mh_next(h->cmd_wp, h->cmd_ring, h->cmd_els);
	mh_db(h, 0x70, h->cmd_wp);
}

unsigned int mh_cmd_sync(struct mhi_host *h, unsigned int type, unsigned int ch)
{
	uint64_t at = h->cmd_wp;
	struct mh_ev e;

	mh_cmd(h, type, ch);
	if (!mh_get_ev(h, &e) || mh_ev_type(&e) != 0x21 || e.ptr != at)
		return 0;
	return mh_ev_code(&e);
}

uint32_t mh_bhie_load(struct mhi_host *h, const uint8_t *img, size_t len, size_t first,
		      uint32_t seq)
{
	uint32_t bhie = mh_rd(h, 0x2c);

	memcpy(mh_gp(h, h->bhie_seg[0]), img, first);
	memcpy(mh_gp(h, h->bhie_seg[1]), img + first, len - first);
	mh_w64(h, h->bhie_vec, h->bhie_seg[0]);
	mh_w64(h, h->bhie_vec + 8, first);
	mh_w64(h, h->bhie_vec + 16, h->bhie_seg[1]);
	mh_w64(h, h->bhie_vec + 24, len - first);
	mh_wr(h, bhie + EMU_BHIE_TXVECADDR_HIGH, (uint32_t)(h->bhie_vec >> 32));
	mh_wr(h, bhie + EMU_BHIE_TXVECADDR_LOW, (uint32_t)h->bhie_vec);
	mh_wr(h, bhie + EMU_BHIE_TXVECSIZE, 32);
	mh_wr(h, bhie + EMU_BHIE_TXVECDB,
	      (mh_rd(h, bhie + EMU_BHIE_TXVECDB) & ~EMU_BHIE_SEQ_MASK) | seq);
	return mh_rd(h, bhie + EMU_BHIE_TXVECSTATUS);
}

void mh_chan_init(struct mhi_host *h, struct mh_chan *c, unsigned int ch, unsigned int dir,
		  uint64_t ring, unsigned int els)
{
	mh_set_ctx(h, h->chan_ctx + ch * MH_CTX_SIZE, 1, dir, 0, ring, 16ull * els);
	c->ch = ch;
	c->ring = ring;
	c->els = els;
	c->wp = ring;
}

void mh_put_tre(struct mhi_host *h, struct mh_chan *c, uint64_t buf, uint32_t len, bool chain)
{
	mh_put_el(h, c->wp, buf, len, 2 << 16 | (chain ? 1 : 1 << 9));
	c->wp = mh_next(c->wp, c->ring, c->els);
}

void mh_queue_tre(struct mhi_host *h, struct mh_chan *c, uint64_t buf, uint32_t len, bool chain)
{
	mh_put_tre(h, c, buf, len, chain);
	mh_chdb(h, c->ch, c->wp);
}

void mh_send(struct mhi_host *h, struct mh_chan *c, uint64_t buf, const void *data,
	     size_t len)
{
	size_t off = 0;

	memcpy(mh_gp(h, buf), data, len);
	do {
		size_t n = len - off > 0x8000 ? 0x8000 : len - off;

		off += n;
		mh_put_tre(h, c, buf + off - n, (uint32_t)n, off < len);
	} while (off < len);
	mh_chdb(h, c->ch, c->wp);
}
