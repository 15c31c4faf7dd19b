// SPDX-License-Identifier: GPL-2.0-only
/*
 * The emulated AIC200's Sahara (card.h, sahara_images.h, sahara.c): its
 * 28-image table, each image's header read first and then payload reads
 * of any length, READ_DATA only whatever the host's version, the bytes of
 * a read gathered from as many transfers as the host makes (each at most
 * EMU_SAHARA_MAX_MSG bytes), bad answers, the host's RESET in the middle
 * of a read, images the host has none of, and mission mode without a wait
 * for the time sync channels the AIC200's SBL lacks. The SBL comes over
 * BHIe (test_boot.c:test_aic200_bhie checks the download itself).
 *
 * Copyright (c) 2026 The qaic authors.
 */
#include <stdlib.h>
#include <string.h>

#include "bhi.h"
#include "bhie.h"
#include "bootlog.h"
#include "card.h"
#include "device.h"
#include "emu_test.h"
#include "fw_image.h"
#include "le_bytes.h"
#include "mhi.h"
#include "mhi_host.h"
#include "sahara.h"
#include "sahara_images.h"

#define G_BASE		0x40000000ull
#define G_SIZE		0x800000ull

#define CHAN_CTX	(G_BASE + 0x0000)
#define EV_CTX		(G_BASE + 0x2000)
#define CMD_CTX		(G_BASE + 0x2100)
#define CMD_RING	(G_BASE + 0x3000)
#define CMD_ELS		64
#define UL_RING		(G_BASE + 0x5000)
#define DL_RING		(G_BASE + 0x6000)
#define BL_RING		(G_BASE + 0x7000)	/* the boot log's buffers */
#define CH_ELS		64
#define EV_RING		(G_BASE + 0x8000)	/* room for a read's many transfers */
#define EV_ELS		1024
#define DL_BUF		(G_BASE + 0x10000)
#define DL_BUF_LEN	4096
#define BL_BUF		(G_BASE + 0x20000)	/* BL_BUFS lines */
#define BL_BUFS		48
#define VEC_TABLE	(G_BASE + 0x30000)
#define UL_BUF		(G_BASE + 0x100000)	/* up to 2 MiB */
#define SEG0		(G_BASE + 0x300000)	/* the SBL's BHIe segments */
#define SEG1		(G_BASE + 0x400000)

#define CH_UL		EMU_SAHARA_CH_UL
#define CH_DL		EMU_SAHARA_CH_DL
#define BHI(off)	(mh_rd(&mh, 0x28) + (off))
#define SEG_LEN		(512 * 1024)	/* Linux's BHIe segment */

#define TABLE		(&emu_sahara_aic200_table)
#define NR_IMAGES	28
#define BIG_PAYLOAD	(1024 * 1024 + 5)	/* image 0's: over two uplink messages */
#define NO_IMAGE	(-1)

static struct emu_device dev;
static struct guest_mem gm;
static struct emu_mhi *mhi;

/* The host's side (the AIC200's MHI registers are in BAR1), and its Sahara channels. */
static struct mhi_host mh = {
	.dev = &dev, .bar = 1, .gm = &gm, .g_base = G_BASE, .g_size = G_SIZE,
	.chan_ctx = CHAN_CTX, .ev_ctx = EV_CTX, .cmd_ctx = CMD_CTX,
	.cmd_ring = CMD_RING, .cmd_els = CMD_ELS, .ev_ring = EV_RING, .ev_els = EV_ELS,
	.bhie_vec = VEC_TABLE, .bhie_seg = { SEG0, SEG1 },
};
static struct mh_chan ul, dl;

/* The SBL, and the images the test host serves, by table index. */
static uint8_t *sbl, *fw[NR_IMAGES];
static size_t sbl_len, fw_len[NR_IMAGES];

static void ignore_msi(void *ctx, const struct emu_msi_msg *msg)
{
	(void)ctx; (void)msg;
}

static void queue_dl(void)
{
	mh_queue_tre(&mh, &dl, DL_BUF, DL_BUF_LEN, false);
}

/* One transfer, as mhi_queue_buf() chains it: 32 KiB TREs, EOT at the end. */
static void send_ul(const void *data, size_t len)
{
	mh_send(&mh, &ul, UL_BUF, data, len);
}

static void send_words(uint32_t cmd, uint32_t len)
{
	uint8_t p[8];

	put_le32(p, cmd);
	put_le32(p + 4, len);
	send_ul(p, sizeof(p));
}

static uint8_t *make_image(uint32_t id, size_t payload, unsigned int seed)
{
	uint8_t *img = malloc(FW_IMAGE_HDR_LEN + payload);

	if (!img)
		abort();
	for (size_t i = 0; i < payload; i++)
		img[FW_IMAGE_HDR_LEN + i] = (uint8_t)(i * 13 + seed);
	fw_image_seal(img, id, (uint32_t)payload);
	return img;
}

/*
 * The payloads: one over two uplink messages, one a byte over a message,
 * one a message exactly, around 64 KiB, empty, one byte; small others.
 */
static void make_images(void)
{
	static const size_t payload[] = {
		BIG_PAYLOAD, EMU_SAHARA_MAX_MSG + 1, EMU_SAHARA_MAX_MSG, 0xffff, 0x10000, 0, 1,
	};

	sbl_len = FW_IMAGE_HDR_LEN + 600 * 1024 + 7;
	sbl = make_image(FW_IMAGE_ID_SBL, sbl_len - FW_IMAGE_HDR_LEN, 0);
	for (unsigned int i = 0; i < NR_IMAGES; i++) {
		size_t p = i < sizeof(payload) / sizeof(payload[0]) ? payload[i] :
			   (i * 977) % 5000;

		fw_len[i] = FW_IMAGE_HDR_LEN + p;
		fw[i] = make_image(TABLE->images[i].id, p, i);
	}
}

static uint64_t table_bytes(void)
{
	uint64_t total = 0;

	for (unsigned int i = 0; i < NR_IMAGES; i++)
		total += fw_len[i];
	return total;
}

/* An AIC200 in PBL; SBL waits @wait_ms for the host's other channels. */
static void setup(unsigned int wait_ms)
{
	struct emu_irq_sink sink = { .send = ignore_msi };

	mhi = mh_new_card(&mh, mhi, EMU_PCI_DEVICE_ID_AIC200, &sink);
	emu_mhi_attach(mhi);
	emu_mhi_set_sbl_host_wait(mhi, wait_ms);
	emu_mhi_set_boot(mhi, EMU_MHI_BOOT_PBL);
}

/*
 * SBL over BHIe, M0, then (@bootlog) the boot log's buffers queued and
 * the Sahara channels started: the card's first HELLO is queued.
 */
static void boot_to_sbl(bool bootlog)
{
	struct mh_ev e;

	/* mhi_fw_load_bhie(): the SBL in segments of SEG_LEN, two of them. */
	CHECK_EQ(mh_bhie_load(&mh, sbl, sbl_len, SEG_LEN, 1), EMU_BHIE_XFER_COMPL << 30 | 1);
	CHECK_EQ(mh_rd(&mh, BHI(EMU_BHI_EXECENV)), EMU_EE_SBL);
	memset(mh.g, 0, 0x10000);
	mh_ready_m0(&mh);
	while (mh_get_ev(&mh, &e))
		;
	if (bootlog) {
		mh_set_ctx(&mh, CHAN_CTX + EMU_BOOTLOG_CH_DL * MH_CTX_SIZE, 1, 2, 0, BL_RING,
			16 * CH_ELS);
		CHECK_EQ(mh_cmd_sync(&mh, 0x12, EMU_BOOTLOG_CH_DL), 1);
		for (unsigned int i = 0; i < BL_BUFS; i++)
			mh_put_el(&mh, BL_RING + 16 * i, BL_BUF + i * EMU_BOOTLOG_MAX_LINE,
				  EMU_BOOTLOG_MAX_LINE, 2 << 16 | 1 << 9);
		mh_chdb(&mh, EMU_BOOTLOG_CH_DL, BL_RING + 16 * BL_BUFS);
		while (mh_get_ev(&mh, &e))	/* its first line */
			;
	}
	mh_chan_init(&mh, &ul, CH_UL, 1, UL_RING, CH_ELS);
	mh_chan_init(&mh, &dl, CH_DL, 2, DL_RING, CH_ELS);
	CHECK_EQ(mh_cmd_sync(&mh, 0x12, CH_UL), 1);
	CHECK_EQ(mh_cmd_sync(&mh, 0x12, CH_DL), 1);
}

/* How the test host answers. */
enum spoil {
	SPOIL_NONE,
	SPOIL_HEADER_SPLIT,	/* the header's read in two transfers */
	SPOIL_LONG_ONE,		/* a payload read a byte long, in one transfer */
	SPOIL_LONG_LAST,	/* the last transfer of a payload read a byte long */
	SPOIL_FLIPPED,		/* a bit flipped in a payload read's second transfer */
};

struct host {
	size_t chunk;		/* most bytes per transfer */
	uint32_t version;	/* in HELLO_RESP */
	int missing;		/* table index the host has no file of, or NO_IMAGE */
	unsigned int idx;	/* table index of the image the rest apply to */
	enum spoil spoil;
	bool whole_first;	/* its payload first in one transfer, then in chunks */
	bool reset_mid_read;	/* RESET after the first chunk of its payload */
	bool short_first;	/* its payload a byte short, then the byte */
	bool tail8;		/* its payload's last 8 bytes a transfer of their own */
};

/* What the test host saw of one boot. */
struct seen {
	unsigned int hellos, reads32, reads64, eoi_ok, eoi_bad, done_resp;
	unsigned int resets_sent, resets_resp, amss_ee, bad_reads, other;
	unsigned int headers_first;	/* images whose first read was the header */
	unsigned int transfers;		/* of image data */
	bool complete;
	uint64_t max_read, bytes;
	unsigned int reads_of_1;
	unsigned int payload_reads;	/* of the image being read */
	unsigned int split_payloads;	/* images whose payload took two reads or more */
	uint32_t eoi_image, eoi_status;
	unsigned int early_packets;	/* Sahara packets before a read was whole */
	bool header_read;		/* this image's first read was seen */
	bool target_done;		/* host.idx's payload read was served */
};

static int table_index(uint32_t id)
{
	for (unsigned int i = 0; i < NR_IMAGES; i++)
		if (TABLE->images[i].id == id)
			return (int)i;
	return -1;
}

/* Sahara packets the card queued for the host since its last look. */
static unsigned int dl_packets_pending(void)
{
	unsigned int n = 0;
	struct mh_ev e;

	while (mh_get_ev(&mh, &e))
		n += mh_ev_type(&e) == 0x22 && mh_ev_chan(&e) == CH_DL;
	return n;
}

/* Send @len bytes of @data in transfers of at most @chunk; the transfers. */
static unsigned int send_chunks(const uint8_t *data, size_t len, size_t chunk)
{
	unsigned int n = 0;

	for (size_t done = 0, k; done < len; done += k, n++) {
		k = len - done < chunk ? len - done : chunk;
		send_ul(data + done, k);
	}
	return n;
}

/* Image @i's bytes from @off, @len of them and one more: the spoils' copy. */
static uint8_t *copy_plus_one(unsigned int i, uint64_t off, uint64_t len)
{
	uint8_t *c = malloc(len + 1);

	if (!c)
		abort();
	memcpy(c, fw[i] + off, len);
	c[len] = 0xa5;
	return c;
}

/* Serve one read; false if the read is bad (the host stops). */
static bool serve_read(struct seen *s, const struct host *h, uint32_t id,
		       uint64_t off, uint64_t len)
{
	int i = table_index(id);
	bool target;
	uint8_t *d;

	if (i < 0 || !len || off > fw_len[i] || len > fw_len[i] - off) {
		s->bad_reads++;
		return false;
	}
	if (!s->header_read) {
		s->header_read = true;
		s->headers_first += off == 0 && len == FW_IMAGE_HDR_LEN;
	}
	if (len > s->max_read)
		s->max_read = len;
	s->reads_of_1 += len == 1;
	s->payload_reads += off >= FW_IMAGE_HDR_LEN;
	s->bytes += len;
	d = fw[i] + off;
	/* Image h->idx's header read, or the first read of its payload. */
	target = i == (int)h->idx && (!off || !s->target_done);
	if (target && off)
		s->target_done = true;
	if (target && !off && h->spoil == SPOIL_HEADER_SPLIT) {
		send_ul(d, 16);
		send_ul(d + 16, len - 16);
		return true;
	}
	if (!target || !off || h->spoil == SPOIL_HEADER_SPLIT) {
		s->transfers += send_chunks(d, len, h->chunk);
		return true;
	}
	switch (h->spoil) {
	case SPOIL_LONG_ONE:
		d = copy_plus_one(i, off, len);
		send_ul(d, len + 1);
		free(d);
		return true;
	case SPOIL_LONG_LAST:
		d = copy_plus_one(i, off, len);
		send_chunks(d, len - 1, h->chunk);
		send_ul(d + len - 1, 2);
		free(d);
		return true;
	case SPOIL_FLIPPED:
		d = copy_plus_one(i, off, len);
		d[h->chunk + 7] ^= 0x10;
		send_chunks(d, len, h->chunk);
		free(d);
		return true;
	default:
		break;
	}
	if (h->whole_first) {
		send_ul(d, len);
		s->early_packets += dl_packets_pending();
	}
	if (h->reset_mid_read) {
		send_ul(d, h->chunk);
		s->resets_sent++;
		send_words(SAHARA_RESET, SAHARA_RESET_LEN);
		return true;
	}
	if (h->short_first) {
		s->transfers += send_chunks(d, len - 1, h->chunk);
		s->early_packets += dl_packets_pending();
		send_ul(d + len - 1, 1);
		s->transfers++;
		return true;
	}
	if (h->tail8) {
		s->transfers += send_chunks(d, len - 8, h->chunk);
		send_ul(d + len - 8, 8);
		s->transfers++;
		return true;
	}
	s->transfers += send_chunks(d, len, h->chunk);
	return true;
}

/* Run the host's side of Sahara until nothing more happens. */
static void host_sahara(struct seen *s, const struct host *h)
{
	bool stop = false;
	struct mh_ev e;

	memset(s, 0, sizeof(*s));
	queue_dl();
	while (!stop && mh_get_ev(&mh, &e)) {
		uint8_t pkt[64], rsp[SAHARA_HELLO_LEN] = { 0 };
		uint32_t len;
		int i;

		if (mh_ev_type(&e) == 0x40) {
			s->amss_ee += e.dw0 >> 24 == EMU_EE_AMSS;
			continue;
		}
		if (mh_ev_type(&e) != 0x22 || mh_ev_chan(&e) != CH_DL)
			continue;
		len = e.dw0 & 0xffff;
		memset(pkt, 0, sizeof(pkt));
		memcpy(pkt, mh_gp(&mh, DL_BUF), len < sizeof(pkt) ? len : sizeof(pkt));
		CHECK_EQ(get_le32(pkt + 4), len);
		queue_dl();
		switch (get_le32(pkt)) {
		case SAHARA_HELLO:
			s->hellos++;
			s->header_read = false;
			s->payload_reads = 0;
			put_le32(rsp, SAHARA_HELLO_RESP);
			put_le32(rsp + 4, SAHARA_HELLO_LEN);
			put_le32(rsp + 8, h->version);
			put_le32(rsp + 12, 1);
			send_ul(rsp, sizeof(rsp));
			break;
		case SAHARA_READ_DATA:
			CHECK_EQ(len, SAHARA_READ_DATA_LEN);
			s->reads32++;
			i = table_index(get_le32(pkt + 8));
			if (i >= 0 && i == h->missing) {
				s->resets_sent++;
				send_words(SAHARA_RESET, SAHARA_RESET_LEN);
				break;
			}
			stop = !serve_read(s, h, get_le32(pkt + 8), get_le32(pkt + 12),
					   get_le32(pkt + 16));
			break;
		case SAHARA_READ_DATA64:
			s->reads64++;
			stop = true;
			break;
		case SAHARA_END_OF_IMAGE:
			s->eoi_image = get_le32(pkt + 8);
			s->eoi_status = get_le32(pkt + 12);
			if (s->eoi_status) {
				s->eoi_bad++;
				stop = true;
				break;
			}
			s->eoi_ok++;
			s->split_payloads += s->payload_reads > 1;
			send_words(SAHARA_DONE, SAHARA_DONE_LEN);
			break;
		case SAHARA_DONE_RESP:
			s->done_resp++;
			s->complete |= get_le32(pkt + 8) == SAHARA_TX_COMPLETE;
			break;
		case SAHARA_RESET_RESP:
			s->resets_resp++;
			break;
		default:
			s->other++;
			break;
		}
	}
	while (mh_get_ev(&mh, &e))
		s->amss_ee += mh_ev_type(&e) == 0x40 && e.dw0 >> 24 == EMU_EE_AMSS;
}

static const struct emu_sahara_counters *counters(void)
{
	return emu_sahara_counters(emu_mhi_sahara(mhi));
}

/* The AIC200's table: Linux 7.2's 28 images in order, 63 and 78 optional. */
static void test_image_table(void)
{
	static const uint32_t ids[NR_IMAGES] = {
		5, 12, 23, 32, 33, 38, 39, 40, 41, 42, 43, 49, 50, 51, 54, 57,
		62, 63, 64, 65, 66, 67, 68, 69, 73, 74, 76, 78,
	};

	CHECK_EQ(TABLE->nr, NR_IMAGES);
	CHECK(TABLE->streams);
	CHECK(!emu_sahara_aic100_table.streams);
	for (unsigned int i = 0; i < NR_IMAGES && i < TABLE->nr; i++) {
		CHECK_EQ(TABLE->images[i].id, ids[i]);
		CHECK_EQ(TABLE->images[i].optional, ids[i] == 63 || ids[i] == 78);
		CHECK(!strncmp(TABLE->images[i].file, "aic200/", 7));
	}
	CHECK(!strcmp(TABLE->images[0].file, "aic200/uefi.elf"));
	CHECK(!strcmp(TABLE->images[1].file, "aic200/aic200-nsp.bin"));
	CHECK(!strcmp(TABLE->images[10].file, "aic200/aic200-hlos.elf"));
	CHECK(!strcmp(TABLE->images[27].file, "aic200/pvs.bin"));
	CHECK(emu_card_aic200.sahara == TABLE);
	CHECK(emu_card_by_id(EMU_PCI_DEVICE_ID_AIC200)->sahara == TABLE);
	CHECK(emu_card_aic080.sahara == &emu_sahara_aic100_table);
	CHECK(emu_card_aic100.sahara == &emu_sahara_aic100_table);
	CHECK(!emu_card_aic200.sbl_timesync);
}

/*
 * A whole boot, the host answering in transfers of at most @chunk bytes
 * and HELLO_RESP of @version: every image in, READ_DATA only, reads past
 * SAHARA_MAX_READ, each image's header read first.
 */
static void test_boot_in_transfers(void)
{
	static const struct host hosts[] = {
		{ .chunk = 0xffff, .version = 2 },		/* Linux 7.2's transfers */
		{ .chunk = 0xffff, .version = 3 },		/* READ_DATA64 known: unused */
		{ .chunk = EMU_SAHARA_MAX_MSG, .version = 3 },	/* the largest message */
		{ .chunk = 0x8000, .version = 3 },		/* one TRE each */
		{ .chunk = 4097, .version = 2 },
	};

	for (unsigned int k = 0; k < sizeof(hosts) / sizeof(hosts[0]); k++) {
		struct host h = hosts[k];
		struct seen s;

		h.missing = NO_IMAGE;
		setup(0);
		boot_to_sbl(false);
		host_sahara(&s, &h);
		CHECK_EQ(s.hellos, NR_IMAGES);
		CHECK_EQ(s.eoi_ok, NR_IMAGES);
		CHECK_EQ(s.done_resp, NR_IMAGES);
		CHECK(s.complete);
		CHECK_EQ(s.bad_reads, 0);
		CHECK_EQ(s.other, 0);
		CHECK_EQ(s.reads64, 0);
		CHECK_EQ(s.headers_first, NR_IMAGES);
		CHECK(s.max_read > EMU_SAHARA_MAX_MSG);
		/* Not only whole payloads: pieces of them too, down to a byte. */
		CHECK(s.split_payloads >= 3);
		CHECK(s.reads_of_1 > 1);
		CHECK(s.transfers > s.reads32);
		CHECK_EQ(s.bytes, table_bytes());
		CHECK_EQ(counters()->sahara_bytes, table_bytes());
		CHECK_EQ(counters()->sahara_reads, s.reads32);
		CHECK_EQ(counters()->sahara_images_ok, NR_IMAGES);
		CHECK_EQ(counters()->sahara_boots, 1);
		CHECK_EQ(counters()->sahara_bad_msgs, 0);
		CHECK_EQ(emu_mhi_counters(mhi)->mhi_bad_tre, 0);
		CHECK_EQ(s.amss_ee, 1);
		CHECK_EQ(mh_rd(&mh, BHI(EMU_BHI_EXECENV)), EMU_EE_AMSS);
		if (emu_test_failures)
			fprintf(stderr, "  (host %u: chunk %zu, version %u)\n", k, h.chunk,
				h.version);
	}
}

/*
 * Bad answers: a header's read split, more bytes than asked (in one
 * transfer, or in the last of several), a bit flipped in a gathered read.
 */
static void test_bad_answers(void)
{
	static const struct {
		enum spoil spoil;
		unsigned int idx;	/* of the image spoiled */
		unsigned int bad_msgs;
	} cases[] = {
		{ SPOIL_HEADER_SPLIT, 0, 1 },	/* the header's read is never gathered */
		{ SPOIL_LONG_ONE, 3, 1 },	/* 0xffff bytes asked, 0x10000 sent */
		{ SPOIL_LONG_LAST, 0, 1 },
		{ SPOIL_FLIPPED, 0, 0 },	/* the image fails its check */
	};

	for (unsigned int k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		struct host h = { .chunk = 0xffff, .version = 2, .missing = NO_IMAGE,
				  .idx = cases[k].idx, .spoil = cases[k].spoil };
		int before = emu_test_failures;
		struct seen s;

		setup(0);
		boot_to_sbl(false);
		host_sahara(&s, &h);
		CHECK_EQ(s.eoi_ok, cases[k].idx);
		CHECK_EQ(s.eoi_bad, 1);
		CHECK_EQ(s.eoi_image, TABLE->images[cases[k].idx].id);
		CHECK_EQ(s.eoi_status, SAHARA_STATUS_BAD_IMAGE);
		CHECK(!s.complete);
		CHECK_EQ(s.amss_ee, 0);
		CHECK_EQ(counters()->sahara_bad_msgs, cases[k].bad_msgs);
		CHECK_EQ(counters()->sahara_images_bad, 1);
		CHECK_EQ(mh_rd(&mh, BHI(EMU_BHI_EXECENV)), EMU_EE_SBL);
		if (emu_test_failures != before)
			fprintf(stderr, "  (spoil %d)\n", cases[k].spoil);
	}
}

/*
 * A read answered a byte short: the card waits, silent, for the rest,
 * and takes the last byte as a transfer of its own.
 */
static void test_short_answer_waits(void)
{
	struct host h = { .chunk = 0xffff, .version = 2, .missing = NO_IMAGE,
			  .short_first = true };
	struct seen s;

	setup(0);
	boot_to_sbl(false);
	host_sahara(&s, &h);
	CHECK_EQ(s.early_packets, 0);
	CHECK(s.complete);
	CHECK_EQ(s.eoi_ok, NR_IMAGES);
	CHECK_EQ(counters()->sahara_bytes, table_bytes());
	CHECK_EQ(counters()->sahara_bad_msgs, 0);
	CHECK_EQ(s.amss_ee, 1);
}

/*
 * A transfer over EMU_SAHARA_MAX_MSG is dropped (MHI counts a bad TRE)
 * and the card, silent, still waits for the read, which the same bytes
 * in smaller transfers then complete.
 */
static void test_transfer_too_long(void)
{
	struct host h = { .chunk = 0xffff, .version = 2, .missing = NO_IMAGE,
			  .whole_first = true };
	struct seen s;

	setup(0);
	boot_to_sbl(false);
	host_sahara(&s, &h);
	CHECK_EQ(s.early_packets, 0);
	CHECK_EQ(emu_mhi_counters(mhi)->mhi_bad_tre, 1);
	CHECK(s.complete);
	CHECK_EQ(s.eoi_ok, NR_IMAGES);
	CHECK_EQ(counters()->sahara_bytes, table_bytes());
	CHECK_EQ(counters()->sahara_bad_msgs, 0);
	CHECK_EQ(s.amss_ee, 1);
}

/*
 * The host's RESET after part of a read: RESET_RESP, the image again from
 * its HELLO (the part forgotten), and the boot goes on.
 */
static void test_reset_mid_read(void)
{
	struct host h = { .chunk = 0xffff, .version = 2, .missing = NO_IMAGE,
			  .reset_mid_read = true };
	struct seen s;

	setup(0);
	boot_to_sbl(false);
	host_sahara(&s, &h);
	CHECK_EQ(s.resets_resp, 1);
	CHECK_EQ(s.hellos, NR_IMAGES + 1);
	CHECK_EQ(s.headers_first, NR_IMAGES + 1);
	CHECK(s.complete);
	CHECK_EQ(s.eoi_ok, NR_IMAGES);
	CHECK_EQ(counters()->sahara_resets, 1);
	CHECK_EQ(counters()->sahara_images_ok, NR_IMAGES);
	CHECK_EQ(counters()->sahara_images_skipped, 0);
	/* The header and the first chunk, then all of it again. */
	CHECK_EQ(counters()->sahara_bytes, table_bytes() + FW_IMAGE_HDR_LEN + h.chunk);
	CHECK_EQ(s.amss_ee, 1);
}

/*
 * The last 8 bytes of a read, a transfer of their own that looks like
 * RESET: data, as a whole read of 8 bytes would be; no new HELLO.
 */
static void test_reset_shaped_tail(void)
{
	struct host h = { .chunk = 0xffff, .version = 2, .missing = NO_IMAGE, .idx = 4,
			  .tail8 = true };
	size_t payload = fw_len[4] - FW_IMAGE_HDR_LEN;
	uint8_t *keep = fw[4];
	struct seen s;

	fw[4] = make_image(TABLE->images[4].id, payload, 4);
	put_le32(fw[4] + fw_len[4] - 8, SAHARA_RESET);
	put_le32(fw[4] + fw_len[4] - 4, SAHARA_RESET_LEN);
	fw_image_seal(fw[4], TABLE->images[4].id, (uint32_t)payload);
	setup(0);
	boot_to_sbl(false);
	host_sahara(&s, &h);
	CHECK_EQ(s.resets_resp, 0);
	CHECK_EQ(s.hellos, NR_IMAGES);
	CHECK(s.complete);
	CHECK_EQ(s.eoi_ok, NR_IMAGES);
	CHECK_EQ(counters()->sahara_resets, 0);
	CHECK_EQ(counters()->sahara_bytes, table_bytes());
	CHECK_EQ(s.amss_ee, 1);
	free(fw[4]);
	fw[4] = keep;
}

/*
 * An image the host has none of (RESET for its first read): the card goes
 * on without an optional one (63, 78), and cannot without another.
 */
static void test_missing_image(void)
{
	static const struct {
		unsigned int idx;
		bool optional;
	} cases[] = {
		{ 27, true },	/* 78, pvs.bin, the last */
		{ 17, true },	/* 63, xbl_ac_config.mbn */
		{ 1, false },	/* 12, aic200-nsp.bin */
		{ 0, false },	/* 5, uefi.elf, the first */
	};

	for (unsigned int k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		unsigned int idx = cases[k].idx;
		bool opt = cases[k].optional;
		/* The last END_OF_IMAGE: the table's last one's, or this one's refusal. */
		unsigned int eoi_idx = opt ? NR_IMAGES - 1 : idx;
		uint32_t eoi_status = opt ? 0 : SAHARA_STATUS_NO_IMAGE;
		struct host h = { .chunk = 0xffff, .version = 2, .missing = (int)idx };
		int before = emu_test_failures;
		struct seen s;

		setup(0);
		boot_to_sbl(false);
		host_sahara(&s, &h);
		CHECK_EQ(s.resets_sent, 1);
		CHECK_EQ(s.resets_resp, 1);
		CHECK_EQ(s.eoi_image, TABLE->images[eoi_idx].id);
		CHECK_EQ(s.eoi_status, eoi_status);
		CHECK_EQ(s.complete, opt);
		CHECK_EQ(s.amss_ee, opt);
		CHECK_EQ(emu_sahara_image_skipped(emu_mhi_sahara(mhi), idx), opt);
		CHECK_EQ(counters()->sahara_images_skipped, opt);
		CHECK_EQ(counters()->sahara_images_missing, !opt);
		if (opt) {
			CHECK_EQ(s.eoi_ok, NR_IMAGES);
			CHECK_EQ(counters()->sahara_images_ok, NR_IMAGES - 1);
			CHECK_EQ(counters()->sahara_bytes, table_bytes() - fw_len[idx]);
		}
		if (emu_test_failures != before)
			fprintf(stderr, "  (image index %u)\n", idx);
	}
}

/*
 * No time sync in the AIC200's SBL: a host that started the boot log but
 * not QAIC_TIMESYNC gets mission mode at once, not after SBL's wait, and
 * the boot log names each of the 28 images.
 */
static void test_no_timesync_wait(void)
{
	struct host h = { .chunk = 0xffff, .version = 2, .missing = NO_IMAGE };
	unsigned int loaded = 0;
	bool first = false, last = false;
	struct seen s;

	setup(60 * 1000);
	boot_to_sbl(true);
	host_sahara(&s, &h);
	CHECK(s.complete);
	CHECK_EQ(s.amss_ee, 1);
	CHECK_EQ(mh_rd(&mh, BHI(EMU_BHI_EXECENV)), EMU_EE_AMSS);
	for (unsigned int i = 0; i < BL_BUFS; i++) {
		const char *line = (const char *)mh_gp(&mh, BL_BUF + i * EMU_BOOTLOG_MAX_LINE);

		loaded += strstr(line, " loaded over Sahara") != NULL;
		first |= !strcmp(line, "SBL: image 5 loaded over Sahara\n");
		last |= !strcmp(line, "SBL: image 78 loaded over Sahara\n");
	}
	CHECK_EQ(loaded, NR_IMAGES);
	CHECK(first);
	CHECK(last);
}

int main(void)
{
	make_images();
	RUN(test_image_table);
	RUN(test_boot_in_transfers);
	RUN(test_bad_answers);
	RUN(test_short_answer_waits);
	RUN(test_transfer_too_long);
	RUN(test_reset_mid_read);
	RUN(test_reset_shaped_tail);
	RUN(test_missing_image);
	RUN(test_no_timesync_wait);
	emu_mhi_destroy(mhi);
	emu_device_fini(&dev);
	guest_mem_reset(&gm);
	for (unsigned int i = 0; i < NR_IMAGES; i++)
		free(fw[i]);
	free(sbl);
	return emu_test_exit();
}
