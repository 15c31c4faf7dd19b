// SPDX-License-Identifier: GPL-2.0-only
/*
 * Boot from power-on, driven through BAR0 the way the Linux MHI host and a
 * Sahara host do it: PBL at power-on, SBL loaded over BHI (good, corrupt,
 * refused), the ready transition and M0 with the EE (SBL) event, then the
 * QAIC_SAHARA channels serving every image of the table until the card
 * enters AMSS; and every Sahara fault the card can be told to commit, and
 * every systematic case (sahara_cases.h) in its place in the boot.
 */
#include <linux/pci_regs.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bhi.h"
#include "bhie.h"
#include "card.h"
#include "device.h"
#include "emu_test.h"
#include "fw_image.h"
#include "le_bytes.h"
#include "mhi.h"
#include "mhi_host.h"
#include "sahara.h"
#include "sahara_cases.h"
#include "sahara_images.h"

#define G_BASE		0x40000000ull
#define G_SIZE		0x400000ull

#define CHAN_CTX	(G_BASE + 0x0000)
#define EV_CTX		(G_BASE + 0x2000)
#define CMD_CTX		(G_BASE + 0x2100)
#define CMD_RING	(G_BASE + 0x3000)
#define CMD_ELS		64
#define EV_RING		(G_BASE + 0x4000)
#define EV_ELS		64
#define UL_RING		(G_BASE + 0x5000)
#define DL_RING		(G_BASE + 0x6000)
#define CH_ELS		64
#define DL_BUF		(G_BASE + 0x10000)
#define DL_BUF_LEN	4096
#define UL_BUF		(G_BASE + 0x100000)	/* up to 1 MiB */
#define IMG_BUF		(G_BASE + 0x200000)	/* the SBL image for BHI */
#define VEC_TABLE	(G_BASE + 0x300000)	/* and for BHIe */
#define SEG0		(G_BASE + 0x310000)
#define SEG1		(G_BASE + 0x340000)

#define CH_UL		EMU_SAHARA_CH_UL
#define CH_DL		EMU_SAHARA_CH_DL
#define BHI(off)	(mh_rd(&mh, 0x28) + (off))

/* The AIC100's Sahara table, which these tests boot (sahara_images.h). */
#define NR_IMAGES	(emu_sahara_aic100_table.nr)

static uint32_t image_id(unsigned int i)
{
	return emu_sahara_aic100_table.images[i].id;
}

static bool image_optional(uint32_t id)
{
	for (unsigned int i = 0; i < NR_IMAGES; i++)
		if (image_id(i) == id)
			return emu_sahara_aic100_table.images[i].optional;
	return false;
}

static struct emu_device dev;
static struct guest_mem gm;
static struct emu_mhi *mhi;
static unsigned int irqs;
static uint32_t host_version = 3;	/* what the test host says in HELLO_RESP */
static bool late_dl;			/* requeue the DL buffer after answering */
static bool lenient;			/* ignore malformed packets, check nothing */
/* Bit id: the test host has no image id and answers its reads with RESET. */
static uint32_t host_missing;

/* The host's side (.bar, the card's MHI BAR: setup_card()), and its Sahara channels. */
static struct mhi_host mh = {
	.dev = &dev, .gm = &gm, .g_base = G_BASE, .g_size = G_SIZE,
	.chan_ctx = CHAN_CTX, .ev_ctx = EV_CTX, .cmd_ctx = CMD_CTX,
	.cmd_ring = CMD_RING, .cmd_els = CMD_ELS, .ev_ring = EV_RING, .ev_els = EV_ELS,
	.bhie_vec = VEC_TABLE, .bhie_seg = { SEG0, SEG1 },
};
static struct mh_chan ul, dl;

/* The firmware the test host serves: index = image id, 0 = SBL. */
static uint8_t *fw[11];
static size_t fw_len[11];

static void record_msi(void *ctx, const struct emu_msi_msg *msg)
{
	(void)ctx; (void)msg;
	irqs++;
}

static void queue_dl(void)
{
	mh_queue_tre(&mh, &dl, DL_BUF, DL_BUF_LEN, false);
}

/* Like mhi_queue_buf() chains: 32 KiB TREs, CHAIN on all but the last. */
static void send_ul(const void *data, size_t len)
{
	mh_send(&mh, &ul, UL_BUF, data, len);
}

static void make_images(void)
{
	static const size_t payload[11] = {
		[0] = 5000, [1] = 600000, [2] = 100000, [4] = 4096, [5] = 70000,
		[6] = 1, [8] = 65535, [9] = 65536, [10] = 0,
	};

	for (unsigned int id = 0; id < 11; id++) {
		if (id && (id == 3 || id == 7))
			continue;
		fw_len[id] = FW_IMAGE_HDR_LEN + payload[id];
		fw[id] = malloc(fw_len[id]);
		for (size_t i = 0; i < payload[id]; i++)
			fw[id][FW_IMAGE_HDR_LEN + i] = (uint8_t)(i * 7 + id);
		fw_image_seal(fw[id], id, (uint32_t)payload[id]);
	}
}

/* A card of PCI device id @id (card.h), powered on in @boot. */
static void setup_card(enum emu_mhi_boot boot, uint16_t id)
{
	struct emu_irq_sink sink = { .send = record_msi };

	mhi = mh_new_card(&mh, mhi, id, &sink);
	mh.bar = emu_card_by_id(id)->mhi_bar;
	emu_mhi_attach(mhi);
	/* These hosts serve Sahara alone: SBL need not wait for the others. */
	emu_mhi_set_sbl_host_wait(mhi, 0);
	emu_mhi_set_boot(mhi, boot);
	irqs = 0;
}

static void setup(enum emu_mhi_boot boot)
{
	setup_card(boot, EMU_PCI_DEVICE_ID);
}

/* mhi_fw_load_bhi(): the BHI status it ends with. */
static uint32_t bhi_load(const uint8_t *img, size_t len)
{
	memcpy(mh_gp(&mh, IMG_BUF), img, len);
	mh_wr(&mh, BHI(EMU_BHI_STATUS), 0);
	mh_wr(&mh, BHI(EMU_BHI_IMGADDR_HIGH), (uint32_t)(IMG_BUF >> 32));
	mh_wr(&mh, BHI(EMU_BHI_IMGADDR_LOW), (uint32_t)IMG_BUF);
	mh_wr(&mh, BHI(EMU_BHI_IMGSIZE), (uint32_t)len);
	mh_wr(&mh, BHI(EMU_BHI_IMGTXDB), 0x1234);
	return mh_rd(&mh, BHI(EMU_BHI_STATUS)) >> 30;
}

/* The ready transition and M0 (see test_mhi.c's host_init()). */
static void host_ready_m0(void)
{
	memset(mh.g, 0, 0x8000);
	mh_ready_m0(&mh);
}

static void start_sahara(void)
{
	mh_chan_init(&mh, &ul, CH_UL, 1, UL_RING, CH_ELS);
	mh_chan_init(&mh, &dl, CH_DL, 2, DL_RING, CH_ELS);
	CHECK_EQ(mh_cmd_sync(&mh, 0x12, CH_UL), 1);
	CHECK_EQ(mh_cmd_sync(&mh, 0x12, CH_DL), 1);
}

/* Every packet the test host got in one boot: its length and first bytes. */
#define REC_MAX		1024
#define REC_HEAD	64
struct rec {
	size_t len;
	uint8_t head[REC_HEAD];
};
static struct rec rec[REC_MAX];
static unsigned int nrec;

/* What the test host saw of one boot. */
struct seen {
	unsigned int hellos, reads32, reads64, eoi_ok, eoi_bad, done_resp;
	unsigned int resets_resp, bad_reads, amss_ee, other;
	bool complete, backwards;
	bool amss_early;		/* AMSS before the last DONE_RESP */
	uint64_t bad_image, bad_off, bad_len;
	uint32_t eoi_image;		/* of the last END_OF_IMAGE */
	uint32_t eoi_status;		/* of the last END_OF_IMAGE */
	unsigned int resets_sent;	/* for images the host has none of */
	uint64_t bytes;
};

/* A careful host: serves good reads, stops at the first bad one. */
static bool serve_read(struct seen *s, uint64_t id, uint64_t off, uint64_t len,
		       uint64_t *last_off)
{
	if (id > 10 || !fw[id] || !id || !len || len > SAHARA_MAX_READ ||
	    off > fw_len[id] || len > fw_len[id] - off || s->complete) {
		s->bad_reads++;
		s->bad_image = id;
		s->bad_off = off;
		s->bad_len = len;
		return false;
	}
	if (*last_off != ~0ull && off < *last_off)
		s->backwards = true;
	*last_off = off;
	s->bytes += len;
	send_ul(fw[id] + off, len);
	return true;
}

/* The length of a packet of @cmd; 8 for commands a card does not send. */
static uint32_t packet_len(uint32_t cmd)
{
	switch (cmd) {
	case SAHARA_HELLO: return SAHARA_HELLO_LEN;
	case SAHARA_READ_DATA: return SAHARA_READ_DATA_LEN;
	case SAHARA_READ_DATA64: return SAHARA_READ_DATA64_LEN;
	case SAHARA_END_OF_IMAGE: return SAHARA_END_OF_IMAGE_LEN;
	case SAHARA_DONE_RESP: return SAHARA_DONE_RESP_LEN;
	case SAHARA_MEMORY_DEBUG64: return SAHARA_MEMORY_DEBUG64_LEN;
	default: return 8;
	}
}

/*
 * Run the host side until nothing more happens. @reset_after: send a
 * Sahara RESET instead of the n-th read's data (0: never).
 */
static void host_sahara(struct seen *s, unsigned int reset_after)
{
	uint64_t last_off = ~0ull;
	unsigned int reads = 0;
	bool stop = false;
	struct mh_ev e;

	memset(s, 0, sizeof(*s));
	nrec = 0;
	queue_dl();
	while (!stop && mh_get_ev(&mh, &e)) {
		uint8_t pkt[64];
		uint32_t cmd, len;

		if (mh_ev_type(&e) == 0x40) {
			if (e.dw0 >> 24 == EMU_EE_AMSS) {
				s->amss_ee++;
				s->amss_early |= !s->complete;
			}
			continue;
		}
		if (mh_ev_type(&e) != 0x22 || e.dw1 >> 24 != CH_DL)
			continue;
		len = e.dw0 & 0xffff;
		memset(pkt, 0, sizeof(pkt));
		memcpy(pkt, mh_gp(&mh, DL_BUF), len < sizeof(pkt) ? len : sizeof(pkt));
		if (nrec < REC_MAX) {
			rec[nrec].len = len;
			memcpy(rec[nrec++].head, pkt, REC_HEAD);
		}
		cmd = get_le32(pkt);
		if (!lenient)
			CHECK_EQ(get_le32(pkt + 4), len);
		if (!late_dl)
			queue_dl();
		if (lenient && (len < 8 || get_le32(pkt + 4) != len ||
				len != packet_len(cmd))) {
			s->other++;
			if (late_dl)
				queue_dl();
			continue;
		}
		switch (cmd) {
		case SAHARA_HELLO: {
			uint8_t rsp[SAHARA_HELLO_LEN] = { 0 };

			s->hellos++;
			CHECK_EQ(len, SAHARA_HELLO_LEN);
			if (!lenient)
				CHECK_EQ(get_le32(pkt + 8), 2);
			put_le32(rsp, SAHARA_HELLO_RESP);
			put_le32(rsp + 4, SAHARA_HELLO_LEN);
			put_le32(rsp + 8, host_version);
			put_le32(rsp + 12, 1);
			put_le32(rsp + 20, get_le32(pkt + 20));
			last_off = ~0ull;
			send_ul(rsp, sizeof(rsp));
			break;
		}
		case SAHARA_READ_DATA:
		case SAHARA_READ_DATA64: {
			bool wide = cmd == SAHARA_READ_DATA64;

			uint64_t id = wide ? get_le64(pkt + 8) : get_le32(pkt + 8);

			CHECK_EQ(len, wide ? SAHARA_READ_DATA64_LEN : SAHARA_READ_DATA_LEN);
			wide ? s->reads64++ : s->reads32++;
			if ((reset_after && ++reads == reset_after) ||
			    (id < 32 && (host_missing & 1u << id))) {
				if (id < 32 && (host_missing & 1u << id))
					s->resets_sent++;
				uint8_t r[8];

				put_le32(r, SAHARA_RESET);
				put_le32(r + 4, SAHARA_RESET_LEN);
				send_ul(r, 8);
				break;
			}
			if (wide)
				stop = !serve_read(s, get_le64(pkt + 8), get_le64(pkt + 16),
						   get_le64(pkt + 24), &last_off);
			else
				stop = !serve_read(s, get_le32(pkt + 8), get_le32(pkt + 12),
						   get_le32(pkt + 16), &last_off);
			break;
		}
		case SAHARA_END_OF_IMAGE: {
			uint8_t d[8];

			s->eoi_image = get_le32(pkt + 8);
			s->eoi_status = get_le32(pkt + 12);
			if (get_le32(pkt + 12)) {
				s->eoi_bad++;
				stop = true;
				break;
			}
			s->eoi_ok++;
			put_le32(d, SAHARA_DONE);
			put_le32(d + 4, SAHARA_DONE_LEN);
			send_ul(d, 8);
			break;
		}
		case SAHARA_DONE_RESP:
			s->done_resp++;
			CHECK_EQ(len, SAHARA_DONE_RESP_LEN);
			if (get_le32(pkt + 8) == SAHARA_TX_COMPLETE)
				s->complete = true;
			break;
		case SAHARA_RESET_RESP:
			s->resets_resp++;
			break;
		default:
			s->other++;
			break;
		}
		if (late_dl)
			queue_dl();
	}
	/* Whatever is still queued (an EE event after a stop, say). */
	while (mh_get_ev(&mh, &e))
		if (mh_ev_type(&e) == 0x40 && e.dw0 >> 24 == EMU_EE_AMSS)
			s->amss_ee++;
}

/* Power-on in PBL up to SBL in M0 with the Sahara channels started. */
static void boot_to_sbl(void)
{
	struct mh_ev e;

	CHECK_EQ(bhi_load(fw[0], fw_len[0]), EMU_BHI_STATUS_SUCCESS);
	CHECK_EQ(mh_rd(&mh, BHI(EMU_BHI_EXECENV)), EMU_EE_SBL);
	CHECK_EQ(mh_rd(&mh, 0x48) & 1, 1);		/* READY */
	host_ready_m0();
	CHECK(mh_get_ev(&mh, &e));
	CHECK_EQ(mh_ev_type(&e), 0x20);
	CHECK(mh_get_ev(&mh, &e));
	CHECK_EQ(mh_ev_type(&e), 0x40);
	CHECK_EQ(e.dw0 >> 24, EMU_EE_SBL);
	start_sahara();
}

static void test_pbl_power_on(void)
{
	setup(EMU_MHI_BOOT_PBL);
	CHECK_EQ(mh_rd(&mh, BHI(EMU_BHI_EXECENV)), EMU_EE_PBL);
	CHECK_EQ(mh_rd(&mh, 0x48), 0);			/* RESET, not READY */
	CHECK_EQ(mh_rd(&mh, BHI(EMU_BHI_STATUS)), 0);
	mh_wr(&mh, 0x38, 2 << 8);			/* M0 refused in PBL */
	CHECK_EQ(emu_mhi_state(mhi), 0);
	CHECK_EQ(mh_rd(&mh, BHI(EMU_BHI_SERIALNU)), EMU_MHI_DEFAULT_SERIAL);
	/* The AMSS default is unchanged. */
	setup(EMU_MHI_BOOT_AMSS);
	CHECK_EQ(mh_rd(&mh, BHI(EMU_BHI_EXECENV)), EMU_EE_AMSS);
	CHECK_EQ(mh_rd(&mh, 0x48), 1 << 8 | 1);
}

static void test_bhi_refused(void)
{
	uint8_t *bad = malloc(fw_len[0]);

	setup(EMU_MHI_BOOT_PBL);
	mh_wr(&mh, BHI(EMU_BHI_INTVEC), 0);
	/* A flipped payload bit. */
	memcpy(bad, fw[0], fw_len[0]);
	bad[100] ^= 1;
	CHECK_EQ(bhi_load(bad, fw_len[0]), EMU_BHI_STATUS_ERROR);
	CHECK_EQ(mh_rd(&mh, BHI(EMU_BHI_ERRCODE)), EMU_BHI_ERR_IMAGE);
	CHECK_EQ(mh_rd(&mh, BHI(EMU_BHI_EXECENV)), EMU_EE_PBL);
	CHECK_EQ(irqs, 1);
	/* Truncated, zero-sized, another image's id. */
	CHECK_EQ(bhi_load(fw[0], fw_len[0] - 1), EMU_BHI_STATUS_ERROR);
	CHECK_EQ(bhi_load(fw[0], 0), EMU_BHI_STATUS_ERROR);
	CHECK_EQ(mh_rd(&mh, BHI(EMU_BHI_ERRCODE)), EMU_BHI_ERR_SIZE);
	CHECK_EQ(bhi_load(fw[4], fw_len[4]), EMU_BHI_STATUS_ERROR);
	/* An address outside guest memory. */
	mh_wr(&mh, BHI(EMU_BHI_STATUS), 0);
	mh_wr(&mh, BHI(EMU_BHI_IMGADDR_HIGH), 0x10);
	mh_wr(&mh, BHI(EMU_BHI_IMGADDR_LOW), 0);
	mh_wr(&mh, BHI(EMU_BHI_IMGSIZE), (uint32_t)fw_len[0]);
	mh_wr(&mh, BHI(EMU_BHI_IMGTXDB), 1);
	CHECK_EQ(mh_rd(&mh, BHI(EMU_BHI_STATUS)) >> 30, EMU_BHI_STATUS_ERROR);
	CHECK_EQ(mh_rd(&mh, BHI(EMU_BHI_ERRCODE)), EMU_BHI_ERR_DMA);
	/* The --bhi-fault: a good image corrupted once. */
	emu_mhi_bhi(mhi)->corrupt_next = true;
	CHECK_EQ(bhi_load(fw[0], fw_len[0]), EMU_BHI_STATUS_ERROR);
	CHECK_EQ(emu_mhi_bhi(mhi)->c.bhi_errors, 6);
	CHECK_EQ(mh_rd(&mh, BHI(EMU_BHI_EXECENV)), EMU_EE_PBL);
	/* Then the good one; a second download is refused in SBL. */
	CHECK_EQ(bhi_load(fw[0], fw_len[0]), EMU_BHI_STATUS_SUCCESS);
	CHECK_EQ(mh_rd(&mh, BHI(EMU_BHI_EXECENV)), EMU_EE_SBL);
	CHECK_EQ(bhi_load(fw[0], fw_len[0]), EMU_BHI_STATUS_ERROR);
	CHECK_EQ(mh_rd(&mh, BHI(EMU_BHI_ERRCODE)), EMU_BHI_ERR_NOT_PBL);
	CHECK_EQ(mh_rd(&mh, BHI(EMU_BHI_EXECENV)), EMU_EE_SBL);
	free(bad);
}

#define BHIE(off)	(mh_rd(&mh, 0x2c) + (off))

/*
 * An AIC200: 32-bit BARs 0 and 1, MHI in BAR1; its PBL refuses BHI and
 * takes the SBL over BHIe, in segments; an AIC100 ignores BHIe's doorbell.
 */
static void test_aic200_bhie(void)
{
	uint8_t *bad = malloc(fw_len[0]);

	setup_card(EMU_MHI_BOOT_PBL, EMU_PCI_DEVICE_ID_AIC200);
	CHECK_EQ(emu_cfg_read(&dev, PCI_DEVICE_ID, 2), 0xa110);
	emu_cfg_write(&dev, PCI_BASE_ADDRESS_0, 4, 0xffffffff);
	emu_cfg_write(&dev, PCI_BASE_ADDRESS_1, 4, 0xffffffff);
	emu_cfg_write(&dev, PCI_BASE_ADDRESS_2, 4, 0xffffffff);
	emu_cfg_write(&dev, PCI_BASE_ADDRESS_3, 4, 0xffffffff);
	CHECK_EQ(emu_cfg_read(&dev, PCI_BASE_ADDRESS_0, 4), 0xfffff000);	/* 32-bit, 4 KiB */
	CHECK_EQ(emu_cfg_read(&dev, PCI_BASE_ADDRESS_1, 4), 0xfffff000);
	CHECK_EQ(emu_cfg_read(&dev, PCI_BASE_ADDRESS_2, 4), 0xffe00000 | 4);	/* 64-bit, 2 MiB */
	CHECK_EQ(emu_cfg_read(&dev, PCI_BASE_ADDRESS_3, 4), 0xffffffff);
	CHECK_EQ(emu_cfg_read(&dev, PCI_BASE_ADDRESS_5, 4), 0);
	CHECK_EQ(mh_rd(&mh, BHI(EMU_BHI_EXECENV)), EMU_EE_PBL);

	mh_wr(&mh, BHI(EMU_BHI_INTVEC), 0);
	CHECK_EQ(bhi_load(fw[0], fw_len[0]), EMU_BHI_STATUS_ERROR);
	CHECK_EQ(mh_rd(&mh, BHI(EMU_BHI_ERRCODE)), EMU_BHI_ERR_BHIE_ONLY);
	CHECK_EQ(mh_rd(&mh, BHI(EMU_BHI_EXECENV)), EMU_EE_PBL);

	/* A bad image, an empty table, a segment outside memory: ERROR, and the interrupt. */
	memcpy(bad, fw[0], fw_len[0]);
	bad[fw_len[0] - 1] ^= 1;
	irqs = 0;
	CHECK_EQ(mh_bhie_load(&mh, bad, fw_len[0], 4096, 7), EMU_BHIE_ERROR << 30 | 7);
	CHECK_EQ(irqs, 1);
	mh_wr(&mh, BHIE(EMU_BHIE_TXVECSIZE), 0);
	mh_wr(&mh, BHIE(EMU_BHIE_TXVECDB), 8);
	CHECK_EQ(mh_rd(&mh, BHIE(EMU_BHIE_TXVECSTATUS)), EMU_BHIE_ERROR << 30 | 8);
	mh_w64(&mh, VEC_TABLE, 0x10ull << 32);
	mh_wr(&mh, BHIE(EMU_BHIE_TXVECSIZE), 32);
	mh_wr(&mh, BHIE(EMU_BHIE_TXVECDB), 9);
	CHECK_EQ(mh_rd(&mh, BHIE(EMU_BHIE_TXVECSTATUS)), EMU_BHIE_ERROR << 30 | 9);
	CHECK_EQ(mh_rd(&mh, BHI(EMU_BHI_EXECENV)), EMU_EE_PBL);

	/* The good one: XFER_COMPL with the sequence number, SBL runs. */
	CHECK_EQ(mh_bhie_load(&mh, fw[0], fw_len[0], 4096, 0x2345),
		 EMU_BHIE_XFER_COMPL << 30 | 0x2345);
	CHECK_EQ(mh_rd(&mh, BHIE(EMU_BHIE_TXVECDB)) & EMU_BHIE_SEQ_MASK, 0x2345);
	CHECK_EQ(mh_rd(&mh, BHI(EMU_BHI_EXECENV)), EMU_EE_SBL);
	CHECK_EQ(mh_rd(&mh, 0x48) >> 8 & 0xff, 1);	/* READY */
	/* Not again in SBL. */
	CHECK_EQ(mh_bhie_load(&mh, fw[0], fw_len[0], 4096, 3) >> 30, EMU_BHIE_ERROR);

	/* An AIC100 keeps the block as plain registers: no download. */
	setup(EMU_MHI_BOOT_PBL);
	CHECK_EQ(mh_bhie_load(&mh, fw[0], fw_len[0], 4096, 5), 0);
	CHECK_EQ(mh_rd(&mh, BHI(EMU_BHI_EXECENV)), EMU_EE_PBL);
	free(bad);
}

static void test_boot_good(void)
{
	const struct emu_sahara_counters *c;
	uint64_t total = 0;
	struct seen s;

	setup(EMU_MHI_BOOT_PBL);
	boot_to_sbl();
	host_sahara(&s, 0);
	c = emu_sahara_counters(emu_mhi_sahara(mhi));
	CHECK_EQ(s.hellos, NR_IMAGES);
	CHECK_EQ(s.eoi_ok, NR_IMAGES);
	CHECK_EQ(s.done_resp, NR_IMAGES);
	CHECK(s.complete);
	CHECK_EQ(s.amss_ee, 1);
	CHECK_EQ(s.bad_reads, 0);
	CHECK(s.reads32 > 0);
	CHECK(s.reads64 > 0);
	CHECK(s.backwards);
	for (unsigned int i = 0; i < NR_IMAGES; i++)
		total += fw_len[image_id(i)];
	CHECK_EQ(s.bytes, total);
	CHECK_EQ(c->sahara_bytes, total);
	CHECK_EQ(c->sahara_images_ok, NR_IMAGES);
	CHECK_EQ(c->sahara_boots, 1);
	CHECK_EQ(c->sahara_bad_msgs, 0);
	CHECK_EQ(mh_rd(&mh, BHI(EMU_BHI_EXECENV)), EMU_EE_AMSS);
	/* Mission mode: QAIC_CONTROL starts. */
	mh_set_ctx(&mh, CHAN_CTX + 10 * MH_CTX_SIZE, 1, 1, 0, G_BASE + 0x7000, 16 * 32);
	CHECK_EQ(mh_cmd_sync(&mh, 0x12, 10), 1);
	/* The host tears Sahara down: nothing more is said. */
	CHECK_EQ(mh_cmd_sync(&mh, 0x10, CH_UL), 1);
	CHECK_EQ(mh_cmd_sync(&mh, 0x10, CH_DL), 1);
	/* An MHI reset keeps the card in AMSS. */
	mh_wr(&mh, 0x38, 2);
	CHECK_EQ(mh_rd(&mh, BHI(EMU_BHI_EXECENV)), EMU_EE_AMSS);
	CHECK_EQ(mh_rd(&mh, 0x48) & 1, 1);
	/*
	 * A SoC reset takes it back to PBL; with the host's MHI up it says
	 * so (SYS_ERR, the BHI interrupt) until the host resets MHI.
	 */
	mh_wr(&mh, 0xb0, 1);
	CHECK_EQ(mh_rd(&mh, BHI(EMU_BHI_EXECENV)), EMU_EE_PBL);
	CHECK_EQ(mh_rd(&mh, 0x48) >> 8, 0xff);
	mh_wr(&mh, 0x38, 2);
	CHECK_EQ(mh_rd(&mh, 0x48), 0);
	CHECK_EQ(emu_mhi_counters(mhi)->mhi_bad_ring, 0);
	CHECK_EQ(emu_mhi_counters(mhi)->mhi_bad_tre, 0);
}

/*
 * A host that never starts the boot log and time sync channels: SBL, its
 * images sent, waits for them for the time set, then enters AMSS.
 */
static void test_sbl_waits_for_host(void)
{
	struct seen s;
	int ms;

	setup(EMU_MHI_BOOT_PBL);
	emu_mhi_set_sbl_host_wait(mhi, 50);
	boot_to_sbl();
	host_sahara(&s, 0);
	CHECK(s.complete);
	CHECK_EQ(s.amss_ee, 0);
	CHECK_EQ(mh_rd(&mh, BHI(EMU_BHI_EXECENV)), EMU_EE_SBL);
	ms = emu_mhi_timeout_ms(mhi);
	CHECK(ms > 0 && ms <= 51);
	emu_mhi_tick(mhi);
	CHECK_EQ(mh_rd(&mh, BHI(EMU_BHI_EXECENV)), EMU_EE_SBL);
	usleep(60000);
	CHECK_EQ(emu_mhi_timeout_ms(mhi), 0);
	emu_mhi_tick(mhi);
	CHECK_EQ(mh_rd(&mh, BHI(EMU_BHI_EXECENV)), EMU_EE_AMSS);
	CHECK_EQ(emu_mhi_timeout_ms(mhi), -1);
}

static void boot_with(enum emu_sahara_fault f, struct seen *s)
{
	setup(EMU_MHI_BOOT_PBL);
	CHECK_EQ(emu_sahara_set_faults(emu_mhi_sahara(mhi), &f, 1), 0);
	boot_to_sbl();
	host_sahara(s, 0);
}

static void test_faults(void)
{
	struct seen s;

	boot_with(SAHARA_FAULT_UNKNOWN_IMAGE, &s);
	CHECK_EQ(s.bad_reads, 1);
	CHECK_EQ(s.bad_image, 3);
	CHECK_EQ(s.amss_ee, 0);

	boot_with(SAHARA_FAULT_OUT_OF_RANGE, &s);
	CHECK_EQ(s.bad_reads, 1);
	CHECK_EQ(s.bad_image, 1);
	CHECK(s.bad_off + s.bad_len > fw_len[1]);

	boot_with(SAHARA_FAULT_ZERO_LENGTH, &s);
	CHECK_EQ(s.bad_reads, 1);
	CHECK_EQ(s.bad_len, 0);

	boot_with(SAHARA_FAULT_OVERSIZE, &s);
	CHECK_EQ(s.bad_reads, 1);
	CHECK_EQ(s.bad_len, SAHARA_MAX_READ + 1);
	CHECK_EQ(s.reads64, 1);

	boot_with(SAHARA_FAULT_NEVER_FINISH, &s);
	CHECK_EQ(s.hellos, 1);
	CHECK_EQ(s.reads32 + s.reads64, 0);
	CHECK_EQ(s.amss_ee, 0);

	boot_with(SAHARA_FAULT_CORRUPT, &s);
	CHECK_EQ(s.eoi_bad, 1);
	CHECK_EQ(s.eoi_ok, 0);
	CHECK_EQ(emu_sahara_counters(emu_mhi_sahara(mhi))->sahara_images_bad, 1);
	CHECK_EQ(s.amss_ee, 0);

	boot_with(SAHARA_FAULT_AFTER_DONE, &s);
	CHECK(s.complete);
	CHECK_EQ(s.bad_reads, 1);
	CHECK_EQ(s.amss_ee, 0);
	CHECK_EQ(mh_rd(&mh, BHI(EMU_BHI_EXECENV)), EMU_EE_SBL);
	CHECK_EQ(emu_sahara_counters(emu_mhi_sahara(mhi))->sahara_faults, 1);

	/* END_OF_IMAGE before any read: no image is open. */
	static const struct {
		enum emu_sahara_fault fault;
		uint32_t image;
	} eoi[] = {
		{ SAHARA_FAULT_EOI_NO_IMAGE, UINT32_MAX },
		{ SAHARA_FAULT_EOI_PAST_TABLE, 11 },
	};
	for (size_t i = 0; i < sizeof(eoi) / sizeof(eoi[0]); i++) {
		boot_with(eoi[i].fault, &s);
		CHECK_EQ(s.hellos, 1);
		CHECK_EQ(s.reads32 + s.reads64, 0);
		CHECK_EQ(s.eoi_bad, 1);
		CHECK_EQ(s.eoi_image, eoi[i].image);
		CHECK_EQ(s.amss_ee, 0);
	}

	CHECK_EQ(emu_sahara_fault_parse("never-finish"), SAHARA_FAULT_NEVER_FINISH);
	CHECK_EQ(emu_sahara_fault_parse("eoi-no-image"), SAHARA_FAULT_EOI_NO_IMAGE);
	CHECK_EQ(emu_sahara_fault_parse("bogus"), -1);
}

/* Index of the @nth packet of @cmd in @r (@nth < 0: the last one), or -1. */
static int find_cmd(const struct rec *r, unsigned int n, uint32_t cmd, int nth)
{
	int seen = 0;

	for (unsigned int i = 0; i < n; i++) {
		unsigned int k = nth < 0 ? n - 1 - i : i;

		if (get_le32(r[k].head) == cmd && (nth < 0 || ++seen == nth))
			return (int)k;
	}
	return -1;
}

static bool same_rec(const struct rec *a, const struct rec *b)
{
	return a->len == b->len && !memcmp(a->head, b->head, REC_HEAD);
}

/* Where case @c's packet goes among the packets of the good boot @g. */
static int case_index(const struct emu_sahara_case *c, const struct rec *g, unsigned int n)
{
	switch (c->at) {
	case EMU_SAHARA_AT_HELLO: return 0;
	case EMU_SAHARA_AT_READ_CLOSED: return 1;
	case EMU_SAHARA_AT_READ_OPEN: return 2;
	case EMU_SAHARA_AT_EOI: return find_cmd(g, n, SAHARA_END_OF_IMAGE, 1);
	case EMU_SAHARA_AT_DONE_RESP: return find_cmd(g, n, SAHARA_DONE_RESP, 1);
	case EMU_SAHARA_AT_NEXT_HELLO: return find_cmd(g, n, SAHARA_HELLO, 2);
	case EMU_SAHARA_AT_LAST_DONE_RESP: return find_cmd(g, n, SAHARA_DONE_RESP, -1);
	case EMU_SAHARA_AT_DUMP_DEBUG: return 1;	/* after the memory-debug HELLO */
	default: return find_cmd(g, n, SAHARA_DONE_RESP, -1) + 1;
	}
}

/*
 * Every systematic case, one boot each, against a test host that answers
 * what is well formed and ignores the rest: the card's packets are the
 * good boot's up to the case's place, the case's packet is there, and
 * the card goes on as the table says (the normal packet next for an
 * insert, the good boot's packets to the end when the boot goes on). A
 * dump case's packet follows the memory-debug HELLO.
 */
static void test_sahara_cases(void)
{
	static struct rec good[REC_MAX];
	uint8_t *pkt = malloc(EMU_SAHARA_CASE_MAX_LEN);
	unsigned int ngood;
	struct seen s;

	lenient = true;
	setup(EMU_MHI_BOOT_PBL);
	boot_to_sbl();
	host_sahara(&s, 0);
	CHECK_EQ(s.amss_ee, 1);
	memcpy(good, rec, sizeof(rec));
	ngood = nrec;
	for (unsigned int i = 0; i < emu_sahara_nr_cases; i++) {
		const struct emu_sahara_case *c = &emu_sahara_cases[i];
		bool last = c->at == EMU_SAHARA_AT_LAST_DONE_RESP ||
			    c->at == EMU_SAHARA_AT_AFTER_LAST;
		bool dump = c->at == EMU_SAHARA_AT_DUMP_DEBUG;
		bool open = c->at == EMU_SAHARA_AT_READ_OPEN || c->at == EMU_SAHARA_AT_EOI;
		uint32_t image = image_id(last ? NR_IMAGES - 1 :
						      c->at == EMU_SAHARA_AT_NEXT_HELLO);
		uint64_t size = open ? fw_len[image] : 0;
		int n = (int)i, at = case_index(c, good, ngood), before = emu_test_failures;
		struct rec want = { 0 };

		setup(EMU_MHI_BOOT_PBL);
		CHECK_EQ(emu_sahara_set_cases(emu_mhi_sahara(mhi), &n, 1), 0);
		boot_to_sbl();
		host_sahara(&s, 0);
		want.len = emu_sahara_case_packet(c, image, size, last, pkt);
		memcpy(want.head, pkt, want.len < REC_HEAD ? want.len : REC_HEAD);
		if (want.len > DL_BUF_LEN)
			want.len = DL_BUF_LEN;	/* the rest overflowed the buffer */
		CHECK(at > 0 || c->at == EMU_SAHARA_AT_HELLO);
		CHECK(at < (int)nrec);
		if (at < 0 || at >= (int)nrec)
			goto next;
		if (dump) {
			/* This host takes no dump: nothing follows. */
			CHECK_EQ(get_le32(rec[0].head), SAHARA_HELLO);
			CHECK_EQ(get_le32(rec[0].head + 20), SAHARA_MODE_MEMORY_DEBUG);
			CHECK_EQ(nrec, 2);
		}
		for (int k = 0; k < at && !dump; k++)
			CHECK(same_rec(&rec[k], &good[k]));
		CHECK(same_rec(&rec[at], &want));
		CHECK_EQ(emu_sahara_counters(emu_mhi_sahara(mhi))->sahara_cases, 1);
		if (c->at == EMU_SAHARA_AT_AFTER_LAST) {
			CHECK_EQ(nrec, at + 1);
			CHECK_EQ(s.amss_ee, 0);
		} else if (c->how == EMU_SAHARA_INSERT) {
			CHECK(at + 1 < (int)nrec && same_rec(&rec[at + 1], &good[at]));
		}
		if (c->verdict == EMU_SAHARA_BOOT_GOES_ON && !dump) {
			unsigned int extra = c->how != EMU_SAHARA_REPLACE;

			CHECK_EQ(s.amss_ee, 1);
			CHECK_EQ(nrec, ngood + extra);
			for (unsigned int k = at + 1; k < nrec && k - extra < ngood; k++)
				CHECK(same_rec(&rec[k], &good[k - extra]));
		}
next:
		if (emu_test_failures != before)
			fprintf(stderr, "  in case %u %s\n", i, c->name);
	}
	lenient = false;
	free(pkt);
}

/* A few cases' packets, field by field. */
static void test_sahara_case_packets(void)
{
	uint8_t *p = malloc(EMU_SAHARA_CASE_MAX_LEN);
	const struct emu_sahara_case *c;
	size_t len;

#define CASE_PKT(name, size)						\
	(c = &emu_sahara_cases[emu_sahara_case_parse(name)],		\
	 len = emu_sahara_case_packet(c, 1, (size), false, p))

	CHECK_EQ(emu_sahara_case_parse("bogus"), -1);
	CHECK_EQ(emu_sahara_case_parse("0"), 0);
	CHECK_EQ(emu_sahara_case_parse("good"), 0);
	CHECK_EQ(emu_sahara_case_parse("100000"), -1);
	CASE_PKT("good", 0);
	CHECK_EQ(len, SAHARA_HELLO_LEN);
	CHECK_EQ(get_le32(p), SAHARA_HELLO);
	CHECK_EQ(get_le32(p + 4), SAHARA_HELLO_LEN);
	CHECK_EQ(get_le32(p + 8), SAHARA_VERSION);
	CHECK_EQ(get_le32(p + 12), SAHARA_VERSION_COMPAT);
	CHECK_EQ(get_le32(p + 20), SAHARA_MODE_IMAGE_PENDING);
	CASE_PKT("hello-len-field-minus-1", 0);
	CHECK_EQ(len, SAHARA_HELLO_LEN);
	CHECK_EQ(get_le32(p + 4), SAHARA_HELLO_LEN - 1);
	CASE_PKT("hello-short", 0);
	CHECK_EQ(len, SAHARA_HELLO_LEN - 1);
	CHECK_EQ(get_le32(p + 4), SAHARA_HELLO_LEN - 1);
	CASE_PKT("hello-reserved-ones", 0);
	CHECK_EQ(get_le32(p + 24), 0xffffffff);
	CHECK_EQ(get_le32(p + 28), 0);
	CASE_PKT("packet-empty", 0);
	CHECK_EQ(len, 0);
	CASE_PKT("packet-over-buffer", 0);
	CHECK_EQ(len, 0x4001);
	CHECK_EQ(get_le32(p + 4), 0x4001);
	CASE_PKT("read-max-at-end", 1000000);
	CHECK_EQ(get_le32(p + 8), 1);
	CHECK_EQ(get_le32(p + 12), 1000000 - SAHARA_MAX_READ);
	CHECK_EQ(get_le32(p + 16), SAHARA_MAX_READ);
	CASE_PKT("read-offset-ones", 1000000);
	CHECK_EQ(get_le32(p + 12), 0xffffffff);
	CASE_PKT("read64-image-2p32", 1000000);
	CHECK_EQ(len, SAHARA_READ_DATA64_LEN);
	CHECK_EQ(get_le64(p + 8), 0x100000001ull);
	CHECK_EQ(get_le64(p + 16), 0);
	CHECK_EQ(get_le64(p + 24), 1);
	CASE_PKT("read64-offset-ones", 1000000);
	CHECK_EQ(get_le64(p + 16), UINT64_MAX);
	CHECK_EQ(get_le64(p + 24), 2);
	CASE_PKT("eoi-no-image-ones", 0);
	CHECK_EQ(get_le32(p + 8), 0xffffffff);
	CHECK_EQ(get_le32(p + 12), 0);
	CASE_PKT("done-resp-complete-early", 0);
	CHECK_EQ(get_le32(p + 8), SAHARA_TX_COMPLETE);
	CASE_PKT("command-ones", 0);
	CHECK_EQ(len, 8);
	CHECK_EQ(get_le32(p), 0xffffffff);
	CHECK_EQ(get_le32(p + 4), 8);
	/* Names are unique. */
	for (unsigned int i = 0; i < emu_sahara_nr_cases; i++)
		CHECK_EQ(emu_sahara_case_parse(emu_sahara_cases[i].name), i);
#undef CASE_PKT
	free(p);
}

/* Each boot its case: from the list, or from the file as each boot starts. */
static void test_sahara_case_per_boot(void)
{
	char path[] = "/tmp/test-emu-sahara-case.XXXXXX";
	int cases[2] = { emu_sahara_case_parse("eoi-status-1"), -1 };
	struct seen s;
	FILE *f;
	int fd;

	setup(EMU_MHI_BOOT_PBL);
	CHECK_EQ(emu_sahara_set_cases(emu_mhi_sahara(mhi), cases, 2), 0);
	boot_to_sbl();
	host_sahara(&s, 0);
	CHECK_EQ(s.eoi_bad, 1);
	mh_wr(&mh, 0xb0, 1);
	boot_to_sbl();
	host_sahara(&s, 0);
	CHECK(s.complete);
	CHECK_EQ(s.amss_ee, 1);

	fd = mkstemp(path);
	CHECK(fd >= 0);
	f = fdopen(fd, "w");
	fprintf(f, "hello-version-0\n");
	fclose(f);
	setup(EMU_MHI_BOOT_PBL);
	CHECK_EQ(emu_sahara_set_cases(emu_mhi_sahara(mhi), cases, 2), 0);
	CHECK_EQ(emu_sahara_set_case_file(emu_mhi_sahara(mhi), path), 0);
	lenient = true;
	boot_to_sbl();
	host_sahara(&s, 0);
	CHECK_EQ(get_le32(rec[0].head + 8), 0);	/* the file's case, not the list's */
	CHECK(access(path, F_OK));		/* taken */
	mh_wr(&mh, 0xb0, 1);
	boot_to_sbl();
	host_sahara(&s, 0);
	CHECK(s.complete);
	CHECK_EQ(emu_sahara_counters(emu_mhi_sahara(mhi))->sahara_cases, 1);
	CHECK_EQ(emu_sahara_set_case_file(emu_mhi_sahara(mhi), NULL), 0);
	lenient = false;
}

/* The n-th boot gets the n-th fault; a SoC reset starts a new boot. */
static void test_fault_per_boot(void)
{
	enum emu_sahara_fault f[2] = { SAHARA_FAULT_CORRUPT, SAHARA_FAULT_NONE };
	struct seen s;

	setup(EMU_MHI_BOOT_PBL);
	emu_sahara_set_faults(emu_mhi_sahara(mhi), f, 2);
	boot_to_sbl();
	host_sahara(&s, 0);
	CHECK_EQ(s.eoi_bad, 1);
	/* Restarting the channels does not retry a failed boot. */
	CHECK_EQ(mh_cmd_sync(&mh, 0x10, CH_UL), 1);
	CHECK_EQ(mh_cmd_sync(&mh, 0x10, CH_DL), 1);
	start_sahara();
	host_sahara(&s, 0);
	CHECK_EQ(s.hellos, 0);
	mh_wr(&mh, 0xb0, 1);
	boot_to_sbl();
	host_sahara(&s, 0);
	CHECK(s.complete);
	CHECK_EQ(s.amss_ee, 1);
}

/* A host of version 2 (Linux 6.12's) only ever gets 32-bit reads. */
static void test_version2_host(void)
{
	struct seen s;

	host_version = 2;
	setup(EMU_MHI_BOOT_PBL);
	boot_to_sbl();
	host_sahara(&s, 0);
	CHECK(s.complete);
	CHECK_EQ(s.amss_ee, 1);
	CHECK_EQ(s.reads64, 0);
	CHECK(s.reads32 > 0);
	host_version = 3;
}

/*
 * A host that queues its receive buffer only after answering: the card
 * holds its packets, and enters AMSS only once the last DONE_RESP is out.
 */
static void test_late_buffer(void)
{
	struct seen s;

	late_dl = true;
	setup(EMU_MHI_BOOT_PBL);
	boot_to_sbl();
	host_sahara(&s, 0);
	CHECK(s.complete);
	CHECK_EQ(s.amss_ee, 1);
	CHECK(!s.amss_early);
	late_dl = false;
}

/* A host RESET: the card answers and asks for the image again. */
static void test_host_reset(void)
{
	struct seen s;

	setup(EMU_MHI_BOOT_PBL);
	boot_to_sbl();
	host_sahara(&s, 3);
	CHECK_EQ(s.resets_resp, 1);
	CHECK_EQ(s.hellos, NR_IMAGES + 1);
	CHECK(s.complete);
	CHECK_EQ(s.amss_ee, 1);
}

/*
 * A host that has no image answers its first read with RESET: the card
 * goes on without an optional image (END_OF_IMAGE, status 0, then the
 * next image) and gives up on a required one (END_OF_IMAGE with status
 * SAHARA_STATUS_NO_IMAGE, then silence in SBL). Each image of the table
 * missing alone, then both optional ones.
 */
static void test_host_missing_image(void)
{
	const struct emu_sahara_counters *c;
	unsigned int optional = 0;
	struct seen s;

	for (unsigned int i = 0; i < NR_IMAGES; i++) {
		uint32_t id = image_id(i);
		uint64_t total = 0;

		host_missing = 1u << id;
		setup(EMU_MHI_BOOT_PBL);
		boot_to_sbl();
		host_sahara(&s, 0);
		c = emu_sahara_counters(emu_mhi_sahara(mhi));
		CHECK_EQ(s.resets_sent, 1);
		CHECK_EQ(s.resets_resp, 1);
		CHECK_EQ(s.bad_reads, 0);
		CHECK_EQ(c->sahara_resets, 1);
		if (!image_optional(id)) {
			/* Asked once, refused, nothing after. */
			CHECK_EQ(s.eoi_bad, 1);
			CHECK_EQ(s.eoi_image, id);
			CHECK_EQ(s.eoi_status, SAHARA_STATUS_NO_IMAGE);
			CHECK_EQ(s.eoi_ok, i);
			CHECK_EQ(s.hellos, i + 1);
			CHECK(!s.complete);
			CHECK_EQ(s.amss_ee, 0);
			CHECK_EQ(c->sahara_images_missing, 1);
			CHECK_EQ(c->sahara_images_skipped, 0);
			CHECK_EQ(c->sahara_boots, 0);
			CHECK_EQ(mh_rd(&mh, BHI(EMU_BHI_EXECENV)), EMU_EE_SBL);
			continue;
		}
		optional++;
		for (unsigned int k = 0; k < NR_IMAGES; k++)
			if (k != i)
				total += fw_len[image_id(k)];
		CHECK_EQ(s.eoi_bad, 0);
		CHECK_EQ(s.hellos, NR_IMAGES);
		CHECK_EQ(s.eoi_ok, NR_IMAGES);
		CHECK_EQ(s.done_resp, NR_IMAGES);
		CHECK(s.complete);
		CHECK_EQ(s.amss_ee, 1);
		CHECK_EQ(s.bytes, total);
		CHECK_EQ(c->sahara_bytes, total);
		CHECK_EQ(c->sahara_images_ok, NR_IMAGES - 1);
		CHECK_EQ(c->sahara_images_skipped, 1);
		CHECK_EQ(c->sahara_images_missing, 0);
		CHECK_EQ(c->sahara_boots, 1);
		CHECK_EQ(c->sahara_bad_msgs, 0);
		for (unsigned int k = 0; k < NR_IMAGES; k++)
			CHECK_EQ(emu_sahara_image_skipped(emu_mhi_sahara(mhi), k), k == i);
		CHECK_EQ(mh_rd(&mh, BHI(EMU_BHI_EXECENV)), EMU_EE_AMSS);
	}
	/* The bench has both kinds: a middle image and the last are optional. */
	CHECK_EQ(optional, 2);
	CHECK(image_optional(image_id(NR_IMAGES - 1)));

	/* Every optional image missing at once; the next boot has them all. */
	host_missing = 0;
	for (unsigned int i = 0; i < NR_IMAGES; i++)
		if (image_optional(image_id(i)))
			host_missing |= 1u << image_id(i);
	setup(EMU_MHI_BOOT_PBL);
	boot_to_sbl();
	host_sahara(&s, 0);
	c = emu_sahara_counters(emu_mhi_sahara(mhi));
	CHECK_EQ(s.resets_sent, 2);
	CHECK(s.complete);
	CHECK_EQ(s.amss_ee, 1);
	CHECK_EQ(c->sahara_images_skipped, 2);
	CHECK_EQ(c->sahara_images_ok, NR_IMAGES - 2);
	host_missing = 0;
	mh_wr(&mh, 0xb0, 1);
	boot_to_sbl();
	host_sahara(&s, 0);
	CHECK(s.complete);
	CHECK_EQ(s.resets_sent, 0);
	CHECK_EQ(c->sahara_images_ok, 2 * NR_IMAGES - 2);
	for (unsigned int k = 0; k < NR_IMAGES; k++)
		CHECK(!emu_sahara_image_skipped(emu_mhi_sahara(mhi), k));
}

/*
 * A RESET in answer to one of the card's own faults (a read of image 3)
 * is no word on the image: the card asks for it again and boots.
 */
static void test_reset_after_fault(void)
{
	enum emu_sahara_fault f = SAHARA_FAULT_UNKNOWN_IMAGE;
	struct seen s;

	host_missing = 1u << 3;
	setup(EMU_MHI_BOOT_PBL);
	CHECK_EQ(emu_sahara_set_faults(emu_mhi_sahara(mhi), &f, 1), 0);
	boot_to_sbl();
	host_sahara(&s, 0);
	host_missing = 0;
	CHECK_EQ(s.resets_sent, 1);
	CHECK_EQ(s.hellos, NR_IMAGES + 1);
	CHECK(s.complete);
	CHECK_EQ(s.amss_ee, 1);
	CHECK_EQ(emu_sahara_counters(emu_mhi_sahara(mhi))->sahara_images_skipped, 0);
	CHECK_EQ(emu_sahara_counters(emu_mhi_sahara(mhi))->sahara_images_ok,
		 NR_IMAGES);
}

/* Garbage from the host is counted and changes nothing. */
static void test_bogus_host(void)
{
	uint8_t junk[64];
	struct seen s;

	struct mh_ev e;

	setup(EMU_MHI_BOOT_PBL);
	boot_to_sbl();
	for (unsigned int i = 0; i < 200; i++) {
		size_t len = emu_test_rnd() % sizeof(junk);

		for (size_t k = 0; k < len; k++)
			junk[k] = (uint8_t)emu_test_rnd();
		if (len >= 4)
			put_le32(junk, (uint32_t)(emu_test_rnd() % 0x14));
		send_ul(junk, len);
		while (mh_get_ev(&mh, &e))
			;
	}
	CHECK(emu_sahara_counters(emu_mhi_sahara(mhi))->sahara_bad_msgs > 0);
	CHECK_EQ(emu_mhi_counters(mhi)->mhi_bad_tre, 0);
	/* The HELLO held all along: the boot still completes. */
	host_sahara(&s, 0);
	CHECK(s.complete);
	CHECK_EQ(s.amss_ee, 1);
}

int main(void)
{
	make_images();
	RUN(test_pbl_power_on);
	RUN(test_bhi_refused);
	RUN(test_aic200_bhie);
	RUN(test_boot_good);
	RUN(test_sbl_waits_for_host);
	RUN(test_faults);
	RUN(test_fault_per_boot);
	RUN(test_host_reset);
	RUN(test_host_missing_image);
	RUN(test_reset_after_fault);
	RUN(test_version2_host);
	RUN(test_late_buffer);
	RUN(test_bogus_host);
	RUN(test_sahara_case_packets);
	RUN(test_sahara_cases);
	RUN(test_sahara_case_per_boot);
	emu_mhi_destroy(mhi);
	emu_device_fini(&dev);
	guest_mem_reset(&gm);
	for (unsigned int i = 0; i < 11; i++)
		free(fw[i]);
	return emu_test_exit();
}
