// SPDX-License-Identifier: GPL-2.0-only
/*
 * The on-card manager: NNC 5.0 messages built by hand, answers checked
 * field by field. Guest memory is a malloc'd region; DMA goes through the
 * real emu_dma_read().
 */
#include <errno.h>
#include <linux/pci_regs.h>
#include <stdlib.h>
#include <string.h>

#include "dbc.h"		/* struct emu_dbc_counters */
#include "device.h"
#include "emu_test.h"
#include "manager.h"
#include "le_bytes.h"
#include "nnc_cases.h"
#include "nnc_fw.h"

/* Transaction types (uapi QAIC_TRANS_*). */
enum {
	PT_FROM_DEV = 3, PT_TO_DEV = 4, DMA_TO_DEV = 6, ACT_FROM_DEV = 8,
	ACT_TO_DEV = 9, DEACT_FROM_DEV = 11, STATUS_FROM_DEV = 14,
	STATUS_TO_DEV = 15, TERM_FROM_DEV = 16, TERM_TO_DEV = 17,
	DMA_CONT = 18, VALID_FROM_DEV = 19, VALID_TO_DEV = 20,
};

#define MAGIC		0x43494151u
#define GUEST_GPA	0x100000ull
#define GUEST_SIZE	(4u << 20)

static struct emu_device dev;
static struct guest_mem gmem;
static uint8_t *guest;
static struct emu_manager *mgr;

/* ---- little endian ---- */
/* Reference CRC-32 (zlib), bit by bit. */
static uint32_t ref_crc(uint32_t crc, const uint8_t *p, size_t n)
{
	crc = ~crc;
	while (n--) {
		crc ^= *p++;
		for (int k = 0; k < 8; k++)
			crc = crc & 1 ? (crc >> 1) ^ 0xedb88320u : crc >> 1;
	}
	return ~crc;
}

/* ---- message builder ---- */
struct msgb {
	uint8_t buf[0x10000 + 64];
	uint32_t len;
	uint32_t count;
};

static struct msgb mb;
static uint8_t rsp[4096];
static size_t rlen;

static void mb_init(uint32_t seq, uint32_t handle)
{
	memset(&mb, 0, sizeof(mb));
	put_le32(mb.buf + 4, MAGIC);
	put_le32(mb.buf + 8, seq);
	put_le32(mb.buf + 20, handle);
	put_le32(mb.buf + 24, 0xffffffffu);
	mb.len = 32;
}

static uint8_t *mb_trans(uint32_t type, uint32_t len)
{
	uint8_t *p = mb.buf + mb.len;

	put_le32(p, type);
	put_le32(p + 4, len);
	mb.len += len;
	mb.count++;
	return p;
}

static void mb_pt(uint32_t op, uint32_t arg, const void *extra, uint32_t n)
{
	uint8_t *p = mb_trans(PT_TO_DEV, 16 + n);

	put_le32(p + 8, op);
	put_le32(p + 12, arg);
	if (n)
		memcpy(p + 16, extra, n);
}

struct seg { uint64_t addr, size; };

static void mb_dma(uint32_t tag, uint32_t chunk, const struct seg *s, uint32_t n)
{
	uint8_t *p = mb_trans(DMA_TO_DEV, 24 + 16 * n);

	put_le32(p + 8, tag);
	put_le32(p + 12, n);
	put_le32(p + 16, chunk);
	for (uint32_t i = 0; i < n; i++) {
		put_le64(p + 24 + 16 * i, s[i].addr);
		put_le64(p + 32 + 16 * i, s[i].size);
	}
}

static void mb_activate(uint64_t req, uint32_t nelem)
{
	uint8_t *p = mb_trans(ACT_TO_DEV, 40);
	uint32_t buf_len = (nelem * 68 + 256 + 4095) & ~4095u;

	put_le64(p + 8, req);
	put_le64(p + 16, req + buf_len - nelem * 4);
	put_le32(p + 24, nelem);
	put_le32(p + 28, nelem);
	put_le32(p + 32, buf_len);
}

static void mb_terminate(uint32_t handle)
{
	uint8_t *p = mb_trans(TERM_TO_DEV, 16);

	put_le32(p + 8, handle);
}

/* Fill in len, count and (if @crc) the CRC; send; keep the answer. */
static size_t mb_send_raw(size_t len, bool crc)
{
	put_le32(mb.buf + 12, mb.len);
	put_le32(mb.buf + 16, mb.count);
	put_le32(mb.buf, 0);
	if (crc)
		put_le32(mb.buf, ref_crc(0, mb.buf, mb.len));
	memset(rsp, 0xa5, sizeof(rsp));
	rlen = emu_manager_handle(mgr, mb.buf, len, rsp, sizeof(rsp));
	return rlen;
}

static size_t mb_send(void)
{
	return mb_send_raw(mb.len, false);
}

/* ---- answer access ---- */
static uint32_t r_count(void) { return get_le32(rsp + 16); }

/* Transaction @i of the answer, after checking the answer's framing. */
static const uint8_t *r_trans(unsigned int i)
{
	uint32_t off = 32;

	if (rlen < 32 || get_le32(rsp + 4) != MAGIC || get_le32(rsp + 12) != rlen)
		return NULL;
	for (unsigned int k = 0; k < r_count(); k++) {
		if (off + 8 > rlen || get_le32(rsp + off + 4) < 8 ||
		    off + get_le32(rsp + off + 4) > rlen)
			return NULL;
		if (k == i)
			return rsp + off;
		off += get_le32(rsp + off + 4);
	}
	return NULL;
}

/* The answer is a single STATUS_FROM_DEV with @status. */
static void check_status_answer(uint32_t status, int line)
{
	const uint8_t *t = r_trans(0);

	if (!t || r_count() != 1 || get_le32(t) != STATUS_FROM_DEV ||
	    get_le32(t + 12) != status) {
		fprintf(stderr, "line %d: expected a status %u answer (rlen %zu, count %u, type %u, status %u)\n",
			line, status, rlen, rlen >= 32 ? r_count() : 0,
			t ? get_le32(t) : 0, t ? get_le32(t + 12) : 0);
		emu_test_failures++;
	}
}
#define CHECK_STATUS(st) check_status_answer(st, __LINE__)

static void setup(void)
{
	if (mgr)
		emu_manager_destroy(mgr);
	emu_device_fini(&dev);
	guest_mem_reset(&gmem);
	if (emu_device_init(&dev, false))
		abort();
	emu_cfg_write(&dev, PCI_COMMAND, 2, PCI_COMMAND_MEMORY | PCI_COMMAND_MASTER);
	guest_mem_init(&gmem);
	if (!guest)
		guest = malloc(GUEST_SIZE);
	if (!guest || guest_mem_add_host(&gmem, guest, GUEST_GPA, 0, GUEST_SIZE, false))
		abort();
	for (uint32_t i = 0; i < GUEST_SIZE; i++)
		guest[i] = (uint8_t)(i * 7 + (i >> 12));
	emu_device_set_guest_mem(&dev, &gmem);
	mgr = emu_manager_create(&dev);
	if (!mgr)
		abort();
}

/* XFER_SUM for @tag of @handle; returns the transaction or NULL. */
static const uint8_t *xfer_sum(uint32_t handle, uint32_t tag)
{
	mb_init(900, handle);
	mb_pt(EMU_PT_XFER_SUM, tag, NULL, 0);
	mb_send();
	return r_trans(0);
}

static void test_status(void)
{
	const uint8_t *t;

	setup();
	mb_init(41, 0);
	mb_trans(STATUS_TO_DEV, 8);
	/* The first status query of a host always carries a CRC. */
	CHECK_EQ(mb_send_raw(mb.len, true), 56);
	CHECK_EQ(get_le32(rsp), 0);			/* CRC off: 0 */
	CHECK_EQ(get_le32(rsp + 4), MAGIC);
	CHECK_EQ(get_le32(rsp + 8), 41);		/* sequence number echoed */
	CHECK_EQ(get_le32(rsp + 12), 56);
	CHECK_EQ(get_le32(rsp + 16), 1);
	CHECK_EQ(get_le32(rsp + 24), 0xffffffffu);	/* partition echoed */
	CHECK_EQ(get_le32(rsp + 28), 0);
	t = r_trans(0);
	CHECK(t != NULL);
	if (!t)
		return;
	CHECK_EQ(get_le32(t), STATUS_FROM_DEV);
	CHECK_EQ(get_le32(t + 4), 24);
	CHECK_EQ(t[8] | t[9] << 8, 5);		/* major */
	CHECK_EQ(t[10] | t[11] << 8, 0);	/* minor */
	CHECK_EQ(get_le32(t + 12), 0);
	CHECK_EQ(get_le64(t + 16), 0);		/* status_flags: no CRC */

	/* CRC off: whatever the crc field holds is ignored. */
	mb_init(42, 0);
	mb_trans(STATUS_TO_DEV, 8);
	put_le32(mb.buf, 0x12345678);
	mb_send();
	put_le32(mb.buf + 12, mb.len);
	put_le32(mb.buf + 16, 1);
	put_le32(mb.buf, 0x12345678);
	rlen = emu_manager_handle(mgr, mb.buf, mb.len, rsp, sizeof(rsp));
	CHECK_STATUS(0);

	/* An empty message (Linux sends one for a deactivate-only request). */
	mb_init(43, 5);
	CHECK_EQ(mb_send(), 32);
	CHECK_EQ(r_count(), 0);
	CHECK_EQ(get_le32(rsp + 8), 43);
	CHECK_EQ(get_le32(rsp + 20), 5);
}

static void test_crc(void)
{
	const uint8_t *t;

	setup();
	emu_manager_set_crc(mgr, true);
	mb_init(1, 0);
	mb_trans(STATUS_TO_DEV, 8);
	CHECK_EQ(mb_send_raw(mb.len, true), 56);
	t = r_trans(0);
	CHECK(t && get_le64(t + 16) == 1);		/* status_flags bit 0 */
	/* The answer's CRC covers len bytes with the field read as 0. */
	{
		uint8_t copy[56];

		memcpy(copy, rsp, 56);
		put_le32(copy, 0);
		CHECK_EQ(get_le32(rsp), ref_crc(0, copy, 56));
	}
	/* A wrong CRC is refused with a status; nothing is executed. */
	mb_init(2, 0);
	mb_activate(GUEST_GPA, 16);
	put_le32(mb.buf + 12, mb.len);
	put_le32(mb.buf + 16, mb.count);
	put_le32(mb.buf, 0xdeadbeef);
	rlen = emu_manager_handle(mgr, mb.buf, mb.len, rsp, sizeof(rsp));
	CHECK_STATUS(EMU_NNC_E_CRC);
	CHECK(!emu_manager_dbc(mgr, 0)->active);
	/* The right CRC is accepted. */
	mb_init(3, 0);
	mb_pt(EMU_PT_ECHO, 9, NULL, 0);
	mb_send_raw(mb.len, true);
	t = r_trans(0);
	CHECK(t && get_le32(t) == PT_FROM_DEV && get_le32(t + 12) == 9);
}

static void test_echo(void)
{
	static const char text[] = "hello, AIC100!!";	/* 16 bytes */
	static uint8_t big[4096];
	const uint8_t *t;

	setup();
	mb_init(7, 3);
	mb_pt(EMU_PT_ECHO, 0xabcd, text, 16);
	mb_trans(STATUS_TO_DEV, 8);
	mb_send();
	CHECK_EQ(r_count(), 2);
	t = r_trans(0);
	CHECK(t != NULL);
	if (t) {
		CHECK_EQ(get_le32(t), PT_FROM_DEV);
		CHECK_EQ(get_le32(t + 4), 32);
		CHECK_EQ(get_le32(t + 8), EMU_PT_ECHO);
		CHECK_EQ(get_le32(t + 12), 0xabcd);
		CHECK(!memcmp(t + 16, text, 16));
	}
	t = r_trans(1);
	CHECK(t && get_le32(t) == STATUS_FROM_DEV);

	/* Unknown op: an error status in the passthrough answer. */
	mb_init(8, 3);
	mb_pt(EMU_PT_BASE + 0x77, 1, NULL, 0);
	mb_send();
	t = r_trans(0);
	CHECK(t && get_le32(t) == PT_FROM_DEV && get_le32(t + 4) == 24 &&
	      get_le32(t + 8) == EMU_PT_BASE + 0x77 &&
	      get_le32(t + 16) == EMU_PT_E_UNKNOWN_OP);

	/* No op at all. */
	mb_init(9, 3);
	mb_trans(PT_TO_DEV, 8);
	mb_send();
	t = r_trans(0);
	CHECK(t && get_le32(t) == PT_FROM_DEV && get_le32(t + 16) == EMU_PT_E_SHORT);

	/* An echo that cannot fit the 4 KiB answer. */
	mb_init(10, 3);
	mb_pt(EMU_PT_ECHO, 0, big, sizeof(big));
	mb_send();
	t = r_trans(0);
	CHECK(t && get_le32(t) == PT_FROM_DEV && get_le32(t + 16) == EMU_PT_E_TOO_BIG);
}

/* A firmware command of @n bytes (its type first) in one passthrough. */
static const uint8_t *fw_call(const uint8_t *cmd, uint32_t n)
{
	uint8_t *p;

	mb_init(950, 4);
	p = mb_trans(PT_TO_DEV, 8 + n);
	memcpy(p + 8, cmd, n);
	mb_send();
	return r_count() == 1 ? r_trans(0) : NULL;
}

/* The runtime's STATUS_REQ: type 13, info_type 0, 8 bytes of zeroes. */
static const uint8_t *fw_status(uint8_t info_type)
{
	uint8_t cmd[16] = { NNC_FW_CMD_STATUS_REQ, 0, 0, 0, info_type };

	return fw_call(cmd, sizeof(cmd));
}

/*
 * The firmware's commands: STATUS_REQ as the open runtime sends it gets
 * the 504-byte STATUS_RESP, with the versions the runtime requires and the
 * card's resources as they are; other commands get the firmware's error.
 */
static void test_firmware(void)
{
	uint8_t cmd[16] = { 0 };
	const uint8_t *t;

	setup();
	t = fw_status(0);
	CHECK(t != NULL);
	if (!t)
		return;
	CHECK_EQ(get_le32(t), PT_FROM_DEV);
	CHECK_EQ(get_le32(t + 4), 8 + NNC_FW_STATUS_RESP_LEN);
	t += 8;
	CHECK_EQ(get_le32(t), NNC_FW_CMD_STATUS_RESP);
	CHECK_EQ(get_le32(t + 4), 0);
	CHECK_EQ(t[8], NNC_FW_STATUS_FORMAT);
	CHECK_EQ(t[16], 1);				/* firmware 1.20.0 */
	CHECK_EQ(t[17], 20);
	CHECK(!strcmp((const char *)t + 116, "EMU0A100000001"));
	CHECK_EQ(get_le32(t + 168), 16384);		/* DRAM total, MB */
	CHECK_EQ(get_le32(t + 172), 16384);		/* nothing held */
	CHECK_EQ(t[180], 16);				/* VCs: total, free */
	CHECK_EQ(t[181], 16);
	CHECK_EQ(get_le32(t + 274), 0x00000001);	/* metadata 1.0 */
	CHECK_EQ(get_le32(t + 278), 0x00000011);	/* NNC commands 17.0 */
	CHECK_EQ(t[332], 3);				/* SKU: PCIe Pro */

	/*
	 * An activated DBC is one VC and one NSP less free; without an
	 * ACTIVATE_REQ it runs no network (test_nnc_fw.c has those).
	 */
	mb_init(951, 4);
	mb_activate(GUEST_GPA, 64);
	mb_send();
	t = fw_status(0);
	CHECK(t && t[8 + 181] == 15 && t[8 + 183] == 15 && t[8 + 273] == 0);

	/* The serials the card was given, cut to their fields. */
	emu_manager_set_fw_ident(mgr, "S123", "BOARD-0123456789-0123456789-0123456789");
	t = fw_status(0);
	CHECK(t && !strcmp((const char *)t + 8 + 116, "S123"));
	CHECK(t && !memcmp(t + 8 + 132, "BOARD-0123456789-0123456789-012", 31) &&
	      t[8 + 163] == 0);
	emu_manager_set_fw_ident(mgr, NULL, NULL);
	t = fw_status(0);
	CHECK(t && !strcmp((const char *)t + 8 + 116, "EMU0A100000001"));

	/* Errors: the firmware's status in an 8-byte answer of type 0. */
	t = fw_status(1);
	CHECK(t && get_le32(t + 4) == 16 && get_le32(t + 8) == 0 &&
	      (int32_t)get_le32(t + 12) == NNC_FW_PARAMETER_ERROR);
	/* The shortest STATUS_REQ a transaction can carry is whole */
	put_le32(cmd, NNC_FW_CMD_STATUS_REQ);
	t = fw_call(cmd, 8);
	CHECK(t && get_le32(t + 8) == NNC_FW_CMD_STATUS_RESP && get_le32(t + 12) == 0);
	put_le32(cmd, 21);				/* no such command */
	t = fw_call(cmd, 16);
	CHECK(t && get_le32(t + 8) == 0 &&
	      (int32_t)get_le32(t + 12) == NNC_FW_UNDEFINED_REQUEST);
	/* A known command too short for its layout: its own answer, -17 */
	put_le32(cmd, NNC_FW_CMD_LOAD_ELF_REQ);
	t = fw_call(cmd, 16);
	CHECK(t && get_le32(t + 4) == 24 && get_le32(t + 8) == NNC_FW_CMD_LOAD_ELF_RESP &&
	      get_le32(t + 12) == 0 && (int32_t)get_le32(t + 16) == NNC_FW_CMD_LENGTH_ERROR);
	put_le32(cmd, EMU_NNC_FW_CMD_MAX - 1);
	t = fw_call(cmd, 16);
	CHECK(t && (int32_t)get_le32(t + 12) == NNC_FW_UNDEFINED_REQUEST);
	/* Past the firmware's types and below EMU_PT_BASE: the emulator's */
	put_le32(cmd, EMU_NNC_FW_CMD_MAX);
	t = fw_call(cmd, 16);
	CHECK(t && get_le32(t + 16) == EMU_PT_E_UNKNOWN_OP);
}

static void test_dma(void)
{
	/* Three segments, one crossing a 4 KiB boundary, out of order. */
	struct seg s[3] = {
		{ GUEST_GPA + 0x3f00, 0x300 },
		{ GUEST_GPA + 0x10, 100 },
		{ GUEST_GPA + 0x20000, 0x2000 },
	};
	uint32_t crc = 0;
	uint64_t total = 0, len;
	const uint8_t *t, *data;

	setup();
	mb_init(11, 4);
	mb_dma(55, 0, s, 3);
	CHECK_EQ(mb_send(), 32);		/* no transaction answers a DMA */
	CHECK_EQ(r_count(), 0);
	for (int i = 0; i < 3; i++) {
		crc = ref_crc(crc, guest + (s[i].addr - GUEST_GPA), s[i].size);
		total += s[i].size;
	}
	t = xfer_sum(4, 55);
	CHECK(t != NULL);
	if (t) {
		CHECK_EQ(get_le32(t + 4), 32);
		CHECK_EQ(get_le32(t + 8), EMU_PT_XFER_SUM);
		CHECK_EQ(get_le32(t + 12), 55);
		CHECK_EQ(get_le64(t + 16), total);
		CHECK_EQ(get_le32(t + 24), crc);
		CHECK_EQ(get_le32(t + 28), 0);
	}
	data = emu_manager_tag_data(mgr, 4, 55, &len);
	CHECK_EQ(len, total);
	CHECK(data && !memcmp(data + 0x300, guest + 0x10, 100));

	/* Tags are per user; an unknown tag says so. */
	t = xfer_sum(5, 55);
	CHECK(t && get_le64(t + 16) == 0 && get_le32(t + 28) == EMU_PT_E_NO_TAG);

	/* A second transfer with the same tag appends. */
	mb_init(12, 4);
	mb_dma(55, 0, s, 1);
	mb_send();
	crc = ref_crc(crc, guest + (s[0].addr - GUEST_GPA), s[0].size);
	t = xfer_sum(4, 55);
	CHECK(t && get_le64(t + 16) == total + s[0].size && get_le32(t + 24) == crc);

	/* Outside guest memory: an error status, nothing kept. */
	{
		struct seg bad[2] = {
			{ GUEST_GPA, 64 },
			{ GUEST_GPA + GUEST_SIZE - 16, 32 },
		};

		mb_init(13, 4);
		mb_dma(56, 0, bad, 2);
		mb_send();
		CHECK_STATUS(EMU_NNC_E_DMA);
		t = xfer_sum(4, 56);
		CHECK(t && get_le64(t + 16) == 0);
	}
	/* Bus mastering off: refused too. */
	emu_cfg_write(&dev, PCI_COMMAND, 2, PCI_COMMAND_MEMORY);
	mb_init(14, 4);
	mb_dma(57, 0, s, 1);
	mb_send();
	CHECK_STATUS(EMU_NNC_E_DMA);
	emu_cfg_write(&dev, PCI_COMMAND, 2, PCI_COMMAND_MEMORY | PCI_COMMAND_MASTER);

	/* Device memory full. */
	setup();
	emu_manager_set_mem_size(mgr, 0x4000);
	mb_init(15, 4);
	mb_dma(58, 0, &s[2], 1);
	mb_dma(58, 0, &s[2], 1);
	mb_dma(58, 0, &s[2], 1);
	mb_send();
	CHECK_EQ(r_count(), 1);		/* the first two fit: only the third fails */
	t = r_trans(0);
	CHECK(t && get_le32(t) == STATUS_FROM_DEV && get_le32(t + 12) == EMU_NNC_E_NO_MEM);
	t = xfer_sum(4, 58);
	CHECK(t && get_le64(t + 16) == 0x4000);
}

/* Answer is one DMA_XFER_CONT for @chunk with @xferred bytes. */
static void check_cont(uint32_t chunk, uint64_t xferred, int line)
{
	const uint8_t *t = r_trans(0);

	if (!t || r_count() != 1 || get_le32(t) != DMA_CONT || get_le32(t + 4) != 24 ||
	    get_le32(t + 8) != chunk || get_le64(t + 16) != xferred) {
		fprintf(stderr, "line %d: expected DMA_XFER_CONT %u/%llu\n", line,
			chunk, (unsigned long long)xferred);
		emu_test_failures++;
	}
}
#define CHECK_CONT(c, x) check_cont(c, x, __LINE__)

static void test_continuation(void)
{
	struct seg s[8];
	uint64_t expect = 0;
	uint32_t crc = 0;
	const uint8_t *t;

	setup();
	for (int i = 0; i < 8; i++) {
		s[i] = (struct seg){ GUEST_GPA + 0x1000 * (i * 3 + 1) + i, 0x800 + i * 16 };
		expect += s[i].size;
		crc = ref_crc(crc, guest + (s[i].addr - GUEST_GPA), s[i].size);
	}

	/* Part 1: the announcement, an activate and the first 3 segments. */
	mb_init(100, 9);
	{
		uint8_t n[8];

		put_le64(n, expect);
		mb_pt(EMU_PT_XFER_EXPECT, 77, n, 8);
	}
	mb_activate(GUEST_GPA + 0x200000, 32);
	mb_dma(77, 5, s, 3);
	mb_send();
	CHECK_EQ(get_le32(rsp + 8), 100);
	CHECK_CONT(5, s[0].size + s[1].size + s[2].size);
	CHECK(emu_manager_dbc(mgr, 0)->active);

	/* Part 2: the host sends the next segments, count 1, same chunk id. */
	mb_init(101, 9);
	mb_dma(77, 5, s + 3, 3);
	mb_send();
	CHECK_EQ(get_le32(rsp + 8), 101);
	CHECK_CONT(5, expect - s[6].size - s[7].size);

	/* Last part: now the whole request is answered. */
	mb_init(102, 9);
	mb_dma(77, 5, s + 6, 2);
	mb_send();
	CHECK_EQ(get_le32(rsp + 8), 102);
	CHECK_EQ(r_count(), 2);
	t = r_trans(0);
	CHECK(t && get_le32(t) == PT_FROM_DEV && get_le32(t + 8) == EMU_PT_XFER_EXPECT &&
	      get_le32(t + 16) == 0);
	t = r_trans(1);
	CHECK(t && get_le32(t) == ACT_FROM_DEV && get_le32(t + 8) == 0 && get_le32(t + 12) == 0);
	t = xfer_sum(9, 77);
	CHECK(t && get_le64(t + 16) == expect && get_le32(t + 24) == crc);

	/* Abort half way: bytes and the activated DBC go. */
	mb_init(103, 9);
	{
		uint8_t n[8];

		put_le64(n, 1 << 20);
		mb_pt(EMU_PT_XFER_EXPECT, 77, n, 8);
	}
	mb_activate(GUEST_GPA + 0x300000, 8);
	mb_dma(77, 6, s, 2);
	mb_send();
	CHECK_CONT(6, s[0].size + s[1].size);
	CHECK(emu_manager_dbc(mgr, 1)->active);
	mb_init(104, 9);
	mb_dma(0, 6, NULL, 0);			/* count 0: abort */
	CHECK_EQ(mb_send(), 32);
	CHECK_EQ(r_count(), 0);
	CHECK(!emu_manager_dbc(mgr, 1)->active);
	CHECK(emu_manager_dbc(mgr, 0)->active);
	t = xfer_sum(9, 77);
	CHECK(t && get_le64(t + 16) == expect && get_le32(t + 24) == crc);
	/* Aborting what is not in flight is harmless. */
	mb_init(105, 9);
	mb_dma(0, 6, NULL, 0);
	CHECK_EQ(mb_send(), 32);

	/* A part with another tag than the transfer's is refused. */
	mb_init(106, 9);
	{
		uint8_t n[8];

		put_le64(n, 1 << 20);
		mb_pt(EMU_PT_XFER_EXPECT, 78, n, 8);
	}
	mb_dma(78, 7, s, 1);
	mb_send();
	CHECK_CONT(7, s[0].size);
	mb_init(107, 9);
	mb_dma(79, 7, s + 1, 1);
	mb_send();
	CHECK_EQ(r_count(), 2);		/* the deferred answer, then the error */
	t = r_trans(0);
	CHECK(t && get_le32(t) == PT_FROM_DEV && get_le32(t + 8) == EMU_PT_XFER_EXPECT);
	t = r_trans(1);
	CHECK(t && get_le32(t) == STATUS_FROM_DEV && get_le32(t + 12) == EMU_NNC_E_CHUNK);
	t = xfer_sum(9, 78);
	CHECK(t && get_le64(t + 16) == 0);

	/* A refused segment ends the transfer with the deferred answers. */
	mb_init(108, 9);
	{
		uint8_t n[8];

		put_le64(n, 1 << 20);
		mb_pt(EMU_PT_XFER_EXPECT, 80, n, 8);
	}
	mb_dma(80, 8, s, 1);
	mb_send();
	CHECK_CONT(8, s[0].size);
	mb_init(109, 9);
	{
		struct seg bad = { 0x10, 0x10 };

		mb_dma(80, 8, &bad, 1);
	}
	mb_send();
	CHECK_EQ(r_count(), 2);
	t = r_trans(0);
	CHECK(t && get_le32(t) == PT_FROM_DEV);
	t = r_trans(1);
	CHECK(t && get_le32(t) == STATUS_FROM_DEV && get_le32(t + 12) == EMU_NNC_E_DMA);
	mb_init(110, 9);
	mb_dma(80, 8, s, 1);		/* a new transfer now, done at once */
	mb_send();
	CHECK_EQ(r_count(), 0);
}

/* Eight continued transfers in flight; a ninth evicts the oldest. */
static void test_continuation_evict(void)
{
	struct seg s = { GUEST_GPA, 0x100 };
	uint8_t n[8];

	setup();
	put_le64(n, 0x1000);
	for (uint32_t i = 0; i < 9; i++) {
		mb_init(700 + i, 2);
		mb_pt(EMU_PT_XFER_EXPECT, 10 + i, n, 8);
		if (i == 0)
			mb_activate(GUEST_GPA + 0x100000, 16);
		mb_dma(10 + i, 20 + i, &s, 1);
		mb_send();
		CHECK_CONT(20 + i, 0x100);
		CHECK_EQ(emu_manager_dbc(mgr, 0)->active, i < 8);
	}
	/* The survivors go on. */
	mb_init(720, 2);
	mb_dma(18, 28, &s, 1);
	mb_send();
	CHECK_CONT(28, 0x200);
}

/* Without an announcement: a part that fills the message asks for more. */
static void test_continuation_full(void)
{
	/* Linux 6.12 cuts a part with < 1 KiB + 16 bytes left of 64 KiB. */
	uint32_t n = (0x10000 - 32 - 24 - 1030) / 16;
	static struct seg s[4096];
	uint64_t sent = 0;
	uint32_t crc = 0;
	const uint8_t *t;

	setup();
	for (uint32_t i = 0; i < 4096; i++) {
		s[i] = (struct seg){ GUEST_GPA + 64 * i, 32 };
		if (i < n + 10)
			crc = ref_crc(crc, guest + 64 * i, 32);
	}
	mb_init(200, 1);
	mb_dma(3, 99, s, n);
	CHECK(mb.len > 0x10000 - 1040);
	mb_send();
	sent = 32ull * n;
	CHECK_CONT(99, sent);
	mb_init(201, 1);
	mb_dma(3, 99, s + n, 10);
	mb_send();
	CHECK_EQ(r_count(), 0);
	t = xfer_sum(1, 3);
	CHECK(t && get_le64(t + 16) == sent + 320 && get_le32(t + 24) == crc);

	/* Our driver fills the message to the last byte: same. */
	n = (0x10000 - 32 - 24) / 16;
	mb_init(202, 1);
	mb_dma(4, 98, s, n);
	CHECK_EQ(mb.len, 0x10000 - 8);
	mb_send();
	CHECK_CONT(98, 32ull * n);
	mb_init(203, 1);
	mb_dma(4, 98, s, 1);
	mb_send();
	CHECK_EQ(r_count(), 0);
}

static unsigned int hook_on, hook_off;

static void dbc_hook(void *ctx, unsigned int id, bool active)
{
	const struct emu_dbc_cfg *d = emu_manager_dbc(mgr, id);

	(void)ctx;
	/* Called with the config already in place, or already gone. */
	if (active && d->active && d->nelem)
		hook_on++;
	if (!active && !d->active)
		hook_off++;
}

static const struct emu_dbc_ops hook_ops = { .changed = dbc_hook };

static void test_activate(void)
{
	const struct emu_dbc_cfg *d;
	const uint8_t *t;

	setup();
	hook_on = hook_off = 0;
	emu_manager_set_dbc_ops(mgr, &hook_ops, NULL);
	for (int i = 0; i < 16; i++) {
		mb_init(300 + i, i < 10 ? 1 : 2);
		mb_activate(GUEST_GPA + 0x10000 * i, 64);
		mb_send();
		t = r_trans(0);
		CHECK(t && get_le32(t) == ACT_FROM_DEV && get_le32(t + 4) == 24 &&
		      get_le32(t + 8) == 0 && get_le32(t + 12) == (uint32_t)i);
	}
	d = emu_manager_dbc(mgr, 3);
	CHECK(d && d->active && d->owner == 1 && d->nelem == 64 &&
	      d->req_q_addr == GUEST_GPA + 0x30000 &&
	      d->rsp_q_addr == GUEST_GPA + 0x30000 + 8192 - 256);
	CHECK(emu_manager_dbc(mgr, 16) == NULL);

	/* The 17th: no DBC left. dbc_id 0 so Linux reports -ECANCELED. */
	mb_init(400, 3);
	mb_activate(GUEST_GPA, 64);
	mb_send();
	t = r_trans(0);
	CHECK(t && get_le32(t) == ACT_FROM_DEV && get_le32(t + 8) == EMU_NNC_E_NO_DBC &&
	      get_le32(t + 12) == 0);

	/* Deactivate by passthrough: only the owner may. */
	mb_init(401, 2);
	mb_pt(EMU_PT_DEACTIVATE, 3, NULL, 0);
	mb_send();
	CHECK_EQ(r_count(), 2);
	t = r_trans(1);
	CHECK(t && get_le32(t) == DEACT_FROM_DEV && get_le32(t + 8) != 0 && get_le32(t + 12) == 3);
	CHECK(emu_manager_dbc(mgr, 3)->active);
	mb_init(402, 1);
	mb_pt(EMU_PT_DEACTIVATE, 3, NULL, 0);
	mb_send();
	t = r_trans(0);
	CHECK(t && get_le32(t) == PT_FROM_DEV && get_le32(t + 16) == 0);
	t = r_trans(1);
	CHECK(t && get_le32(t) == DEACT_FROM_DEV && get_le32(t + 8) == 0 && get_le32(t + 12) == 3);
	CHECK(!emu_manager_dbc(mgr, 3)->active);
	mb_init(403, 1);
	mb_pt(EMU_PT_DEACTIVATE, 16, NULL, 0);
	mb_send();
	CHECK_EQ(r_count(), 1);		/* no DEACTIVATE_FROM_DEV for DBC 16 */

	/* Terminate handle 1: its 9 DBCs go, handle 2's stay. */
	mb_init(404, 1);
	mb_terminate(1);
	mb_send();
	t = r_trans(0);
	CHECK(t && r_count() == 1 && get_le32(t) == TERM_FROM_DEV && get_le32(t + 4) == 16 &&
	      get_le32(t + 8) == 0);
	for (unsigned int i = 0; i < 16; i++)
		if (i < 10)
			CHECK(!emu_manager_dbc(mgr, i)->active);
		else
			CHECK(emu_manager_dbc(mgr, i)->active);
	mb_init(405, 2);
	mb_terminate(2);
	mb_send();
	for (unsigned int i = 0; i < 16; i++)
		CHECK(!emu_manager_dbc(mgr, i)->active);
	CHECK_EQ(hook_on, 16);
	CHECK_EQ(hook_off, 16);

	/* Bad rings: sizes differ, zero, overlapping, wrapping, short buffer. */
	{
		static const struct { uint64_t req, rsp; uint32_t rn, sn, buf; } bad[] = {
			{ GUEST_GPA, GUEST_GPA + 0x4000, 16, 8, 0x5000 },
			{ GUEST_GPA, GUEST_GPA + 0x4000, 0, 0, 0x5000 },
			{ GUEST_GPA, GUEST_GPA + 0x100, 16, 16, 0x5000 },
			{ ~0ull - 100, GUEST_GPA, 16, 16, 0x5000 },
			{ GUEST_GPA, GUEST_GPA + 0x4000, 16, 16, 16 },
			{ 0, GUEST_GPA, 16, 16, 0x5000 },
		};

		for (unsigned int i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
			uint8_t *p;

			mb_init(500 + i, 1);
			p = mb_trans(ACT_TO_DEV, 40);
			put_le64(p + 8, bad[i].req);
			put_le64(p + 16, bad[i].rsp);
			put_le32(p + 24, bad[i].rn);
			put_le32(p + 28, bad[i].sn);
			put_le32(p + 32, bad[i].buf);
			mb_send();
			t = r_trans(0);
			CHECK(t && get_le32(t) == ACT_FROM_DEV &&
			      get_le32(t + 8) == EMU_NNC_E_RANGE && get_le32(t + 12) == 0);
		}
		CHECK(!emu_manager_dbc(mgr, 0)->active);
	}

	/* Terminate also drops the user's transfers; reset drops everything. */
	{
		struct seg s = { GUEST_GPA, 4096 };

		mb_init(600, 7);
		mb_dma(1, 0, &s, 1);
		mb_activate(GUEST_GPA + 0x100000, 16);
		mb_send();
		CHECK(emu_manager_dbc(mgr, 0)->active);
		mb_init(601, 7);
		mb_terminate(7);
		mb_send();
		t = xfer_sum(7, 1);
		CHECK(t && get_le32(t + 28) == EMU_PT_E_NO_TAG);
		mb_init(602, 7);
		mb_dma(1, 0, &s, 1);
		mb_activate(GUEST_GPA + 0x100000, 16);
		mb_send();
		emu_manager_reset(mgr);
		CHECK(!emu_manager_dbc(mgr, 0)->active);
		t = xfer_sum(7, 1);
		CHECK(t && get_le32(t + 28) == EMU_PT_E_NO_TAG);
	}
	CHECK_EQ(hook_on, 18);
	CHECK_EQ(hook_off, 18);
}

/* A stand-in DBC engine: records hangs, hands out recognisable counters. */
static unsigned int fake_hangs, fake_hang_id;
static uint32_t fake_late_ms;
static int fake_ret;

static int fake_hang_once(void *ctx, unsigned int id, uint32_t late_ms)
{
	(void)ctx;
	fake_hangs++;
	fake_hang_id = id;
	fake_late_ms = late_ms;
	return fake_ret;
}

static int fake_get_counters(void *ctx, unsigned int id,
			     struct emu_dbc_counters *out)
{
	uint64_t base = 0x0101010100000000ull * (id + 1);

	(void)ctx;
	memset(out, 0xee, sizeof(*out));	/* what is not sent */
	for (unsigned int i = 0; i < 4; i++) {
		out->reg_reads[i] = base + 1 + i;
		out->reg_writes[i] = base + 5 + i;
	}
	out->requests = base + 9;
	out->responses = base + 10;
	out->dma_to_dev_bytes = base + 11;
	out->dma_from_dev_bytes = base + 12;
	out->irqs = base + 13;
	out->errors = base + 14;
	out->resets = base + 15;
	out->late_xfers = base + 16;
	out->card_ns = base + 17;
	out->rsps_timed = base + 18;
	out->idle_ns = base + 19;
	out->idles = base + 20;
	return fake_ret;
}

static const struct emu_dbc_ops fake_ops = {
	.hang_once = fake_hang_once,
	.get_counters = fake_get_counters,
};

/* The only transaction of the answer: a passthrough of @len bytes. */
static const uint8_t *pt_answer(uint32_t len)
{
	const uint8_t *t = r_trans(0);

	if (!t || r_count() != 1 || get_le32(t) != PT_FROM_DEV ||
	    get_le32(t + 4) != len)
		return NULL;
	return t + 8;
}

/* A stand-in engine for EMU_PT_DBC_FAULTS: records what it is told. */
static unsigned int fault_calls, fault_id;
static uint32_t fault_drop, fault_corrupt;
static uint16_t fault_status;

static uint32_t fault_lag;
static bool fault_msi_off;

static int fake_set_faults(void *ctx, unsigned int id, uint32_t drop_every,
			   uint32_t corrupt_every, uint16_t corrupt_status,
			   uint32_t reqhp_lag, bool msi_off)
{
	(void)ctx;
	fault_calls++;
	fault_lag = reqhp_lag;
	fault_msi_off = msi_off;
	fault_id = id;
	fault_drop = drop_every;
	fault_corrupt = corrupt_every;
	fault_status = corrupt_status;
	return 0;
}

static const struct emu_dbc_ops fault_ops = {
	.set_faults = fake_set_faults,
};

static unsigned int card_calls[2], card_ms;

static void fake_crash(void *ctx, unsigned int ms)
{
	(void)ctx;
	card_calls[0]++;
	card_ms = ms;
}

static void fake_vanish(void *ctx, unsigned int ms)
{
	(void)ctx;
	card_calls[1]++;
	card_ms = ms;
}

/*
 * EMU_PT_SYS_ERROR and EMU_PT_VANISH: refused without a card that can do
 * it or a delay in range; else the card's hook runs, with the delay.
 */
static void test_card_ops(void)
{
	static const struct emu_card_ops ops = { .sys_error = fake_crash, .vanish = fake_vanish };
	static const uint32_t bad[] = { 0, EMU_PT_CARD_MAX_MS + 1 };
	static const uint32_t op[] = { EMU_PT_SYS_ERROR, EMU_PT_VANISH };
	const uint8_t *p;
	uint32_t seq = 1;

	setup();
	for (unsigned int k = 0; k < 2; k++) {
		emu_manager_set_card_ops(mgr, NULL, NULL);
		mb_init(seq++, 1);
		mb_pt(op[k], 10, NULL, 0);
		mb_send();
		p = pt_answer(24);
		CHECK(p && get_le32(p) == op[k] && get_le32(p + 8) == EMU_PT_E_RANGE);

		emu_manager_set_card_ops(mgr, &ops, NULL);
		memset(card_calls, 0, sizeof(card_calls));
		for (unsigned int i = 0; i < 2; i++) {
			mb_init(seq++, 1);
			mb_pt(op[k], bad[i], NULL, 0);
			mb_send();
			p = pt_answer(24);
			CHECK(p && get_le32(p + 8) == EMU_PT_E_RANGE);
		}
		CHECK_EQ(card_calls[k], 0);
		mb_init(seq++, 1);
		mb_pt(op[k], 50, NULL, 0);
		mb_send();
		p = pt_answer(24);
		CHECK(p && get_le32(p + 4) == 50 && get_le32(p + 8) == EMU_PT_OK);
		CHECK_EQ(card_calls[k], 1);
		CHECK_EQ(card_calls[!k], 0);
		CHECK_EQ(card_ms, 50);
	}
	emu_manager_set_card_ops(mgr, NULL, NULL);
}

static unsigned int tm_calls, tm_mode;

static int fake_telemetry(void *ctx, unsigned int mode)
{
	(void)ctx;
	tm_calls++;
	if (mode > 7)
		return -22;
	tm_mode = mode;
	return 0;
}

/*
 * EMU_PT_TELEMETRY: refused without a card that has telemetry, or for a
 * mode the card refuses; else the card's hook runs with the mode.
 */
static void test_telemetry_op(void)
{
	static const struct emu_card_ops none = { .sys_error = fake_crash };
	static const struct emu_card_ops ops = { .telemetry = fake_telemetry };
	const uint8_t *p;
	uint32_t seq = 1;

	setup();
	emu_manager_set_card_ops(mgr, NULL, NULL);
	mb_init(seq++, 1);
	mb_pt(EMU_PT_TELEMETRY, 1, NULL, 0);
	mb_send();
	p = pt_answer(24);
	CHECK(p && get_le32(p) == EMU_PT_TELEMETRY && get_le32(p + 8) == EMU_PT_E_RANGE);

	emu_manager_set_card_ops(mgr, &none, NULL);
	mb_init(seq++, 1);
	mb_pt(EMU_PT_TELEMETRY, 1, NULL, 0);
	mb_send();
	p = pt_answer(24);
	CHECK(p && get_le32(p + 8) == EMU_PT_E_RANGE);

	emu_manager_set_card_ops(mgr, &ops, NULL);
	tm_calls = 0;
	mb_init(seq++, 1);
	mb_pt(EMU_PT_TELEMETRY, 8, NULL, 0);
	mb_send();
	p = pt_answer(24);
	CHECK(p && get_le32(p + 4) == 8 && get_le32(p + 8) == EMU_PT_E_RANGE);
	CHECK_EQ(tm_calls, 1);
	mb_init(seq++, 1);
	mb_pt(EMU_PT_TELEMETRY, 3, NULL, 0);
	mb_send();
	p = pt_answer(24);
	CHECK(p && get_le32(p + 4) == 3 && get_le32(p + 8) == EMU_PT_OK);
	CHECK_EQ(tm_calls, 2);
	CHECK_EQ(tm_mode, 3);
	emu_manager_set_card_ops(mgr, NULL, NULL);
}

/* EMU_PT_SILENCE: answered, then nothing is, until a reset */
static void test_silence(void)
{
	const uint8_t *p;

	setup();
	mb_init(1, 1);
	mb_pt(EMU_PT_SILENCE, 0, NULL, 0);
	mb_send();
	p = pt_answer(24);
	CHECK(p && get_le32(p) == EMU_PT_SILENCE && get_le32(p + 8) == EMU_PT_OK);
	mb_init(2, 1);
	mb_pt(EMU_PT_ECHO, 0, NULL, 0);
	CHECK_EQ(mb_send(), 0);
	emu_manager_reset(mgr);
	mb_init(3, 1);
	mb_pt(EMU_PT_ECHO, 0, NULL, 0);
	CHECK(mb_send() > 0);
}

static void test_dbc_faults(void)
{
	uint8_t params[16] = { 0 };
	const uint8_t *p;

	setup();
	/* No engine: refused. */
	mb_init(1, 1);
	put_le32(params, 3);
	put_le32(params + 4, 5);
	put_le32(params + 8, 0x1bad);
	put_le32(params + 12, 7);
	mb_pt(EMU_PT_DBC_FAULTS, 2, params, sizeof(params));
	mb_send();
	p = pt_answer(24);
	CHECK(p && get_le32(p) == EMU_PT_DBC_FAULTS && get_le32(p + 8) == EMU_PT_E_DBC);

	emu_manager_set_dbc_ops(mgr, &fault_ops, NULL);
	fault_calls = 0;
	mb_init(2, 1);
	mb_pt(EMU_PT_DBC_FAULTS, 2, params, sizeof(params));
	mb_send();
	p = pt_answer(24);
	CHECK(p && get_le32(p + 4) == 2 && get_le32(p + 8) == EMU_PT_OK);
	CHECK_EQ(fault_calls, 1);
	CHECK_EQ(fault_id, 2);
	CHECK_EQ(fault_drop, 3);
	CHECK_EQ(fault_corrupt, 5);
	CHECK_EQ(fault_status, 0x1bad);
	CHECK_EQ(fault_lag, 7);
	CHECK(!fault_msi_off);

	/* The optional fifth word: the MSIs withheld. */
	{
		uint8_t more[24] = { 0 };

		memcpy(more, params, sizeof(params));
		put_le32(more + 16, 1);
		mb_init(5, 1);
		mb_pt(EMU_PT_DBC_FAULTS, 2, more, sizeof(more));
		mb_send();
		p = pt_answer(24);
		CHECK(p && get_le32(p + 8) == EMU_PT_OK);
		CHECK(fault_msi_off);
		fault_calls = 1;
	}

	/* Short parameters and a bad DBC reach nothing. */
	mb_init(3, 1);
	mb_pt(EMU_PT_DBC_FAULTS, 2, params, 8);
	mb_send();
	p = pt_answer(24);
	CHECK(p && get_le32(p + 8) == EMU_PT_E_SHORT);
	mb_init(4, 1);
	mb_pt(EMU_PT_DBC_FAULTS, 16, params, sizeof(params));
	mb_send();
	p = pt_answer(24);
	CHECK(p && get_le32(p + 8) == EMU_PT_E_DBC);
	CHECK_EQ(fault_calls, 1);
	emu_manager_set_dbc_ops(mgr, NULL, NULL);
}

/*
 * A DBC request (EMU_PT_DBC_COUNTERS, EMU_PT_DBC_TIMES) for a DBC past the
 * table, and for one the engine refuses: its answer names the DBC, says
 * EMU_PT_E_DBC and has all @nfields u64 fields 0.
 */
static void check_dbc_refusals(uint32_t op, uint32_t seq, unsigned int nfields)
{
	const uint8_t *p;

	fake_ret = -EINVAL;
	for (unsigned int i = 0; i < 2; i++) {
		mb_init(seq, 1);
		mb_pt(op, i ? 3 : 16, NULL, 0);
		mb_send();
		p = pt_answer(8 + 16 + 8 * nfields);
		CHECK(p && get_le32(p) == op && get_le32(p + 4) == (i ? 3u : 16u) &&
		      get_le32(p + 8) == EMU_PT_E_DBC);
		for (unsigned int k = 0; p && k < nfields; k++)
			CHECK_EQ(get_le64(p + 16 + 8 * k), 0);
	}
	fake_ret = 0;
}

static void test_dbc_passthrough(void)
{
	const uint8_t *p;

	setup();
	/* No engine connected: nothing to hang or count. */
	mb_init(1, 1);
	mb_activate(GUEST_GPA, 16);
	mb_send();
	CHECK(emu_manager_dbc(mgr, 0)->active);
	mb_init(2, 1);
	mb_pt(EMU_PT_HANG_DBC, 0, NULL, 0);
	mb_send();
	p = pt_answer(8 + sizeof(struct emu_pt_status));
	CHECK(p && get_le32(p) == EMU_PT_HANG_DBC && get_le32(p + 4) == 0 &&
	      get_le32(p + 8) == EMU_PT_E_DBC);
	mb_init(3, 1);
	mb_pt(EMU_PT_DBC_COUNTERS, 0, NULL, 0);
	mb_send();
	p = pt_answer(8 + sizeof(struct emu_pt_dbc_counters));
	CHECK(p && get_le32(p) == EMU_PT_DBC_COUNTERS && get_le32(p + 8) == EMU_PT_E_DBC);

	emu_manager_set_dbc_ops(mgr, &fake_ops, NULL);
	fake_hangs = 0;
	fake_ret = 0;
	/* Hang: active DBCs only, whoever owns them. */
	mb_init(4, 2);
	mb_pt(EMU_PT_HANG_DBC, 0, NULL, 0);
	mb_pt(EMU_PT_HANG_DBC, 1, NULL, 0);
	mb_pt(EMU_PT_HANG_DBC, 16, NULL, 0);
	mb_pt(EMU_PT_HANG_DBC, 0xffffffffu, NULL, 0);
	mb_send();
	CHECK_EQ(r_count(), 4);
	CHECK_EQ(fake_hangs, 1);
	CHECK_EQ(fake_hang_id, 0);
	for (unsigned int i = 0; i < 4; i++) {
		const uint8_t *t = r_trans(i);

		CHECK(t && get_le32(t) == PT_FROM_DEV && get_le32(t + 4) == 24 &&
		      get_le32(t + 8) == EMU_PT_HANG_DBC &&
		      get_le32(t + 16) == (i ? EMU_PT_E_DBC : EMU_PT_OK));
	}
	CHECK_EQ(fake_late_ms, 0);
	/* A late hang: its delay reaches the engine, up to the card's bound. */
	for (unsigned int i = 0; i < 2; i++) {
		uint32_t late[2] = { i ? EMU_PT_CARD_MAX_MS + 1 : EMU_PT_CARD_MAX_MS, 0 };

		fake_hangs = 0;
		mb_init(4, 1);
		mb_pt(EMU_PT_HANG_DBC, 0, late, sizeof(late));
		mb_send();
		p = pt_answer(24);
		CHECK(p && get_le32(p + 8) == (i ? EMU_PT_E_RANGE : EMU_PT_OK));
		CHECK_EQ(fake_hangs, i ? 0u : 1u);
		if (!i)
			CHECK_EQ(fake_late_ms, EMU_PT_CARD_MAX_MS);
	}
	/* The engine refuses. */
	fake_ret = -ENODEV;
	mb_init(5, 1);
	mb_pt(EMU_PT_HANG_DBC, 0, NULL, 0);
	mb_send();
	p = pt_answer(24);
	CHECK(p && get_le32(p + 8) == EMU_PT_E_DBC);
	fake_ret = 0;

	/* Counters: the layout, field by field; inactive DBCs too. */
	for (unsigned int id = 0; id < EMU_NUM_DBC; id += 5) {
		uint64_t base = 0x0101010100000000ull * (id + 1);

		mb_init(6, 3);
		mb_pt(EMU_PT_DBC_COUNTERS, id, NULL, 0);
		mb_send();
		p = pt_answer(8 + 144);
		CHECK(p && get_le32(p) == EMU_PT_DBC_COUNTERS &&
		      get_le32(p + 4) == id && get_le32(p + 8) == EMU_PT_OK &&
		      get_le32(p + 12) == 0);
		for (unsigned int k = 0; p && k < 16; k++)
			CHECK_EQ(get_le64(p + 16 + 8 * k), base + 1 + k);
	}
	/* Bad DBC, or the engine has none: status, all zeros. */
	check_dbc_refusals(EMU_PT_DBC_COUNTERS, 7, 16);

	/* Times: the four timing counters, then the same refusals. */
	mb_init(8, 3);
	mb_pt(EMU_PT_DBC_TIMES, 5, NULL, 0);
	mb_send();
	p = pt_answer(8 + 48);
	CHECK(p && get_le32(p) == EMU_PT_DBC_TIMES && get_le32(p + 4) == 5 &&
	      get_le32(p + 8) == EMU_PT_OK && get_le32(p + 12) == 0);
	for (unsigned int k = 0; p && k < 4; k++)
		CHECK_EQ(get_le64(p + 16 + 8 * k), 0x0101010100000000ull * 6 + 17 + k);
	check_dbc_refusals(EMU_PT_DBC_TIMES, 9, 4);
	emu_manager_set_dbc_ops(mgr, NULL, NULL);
}

/* EMU_PT_MEMCPY_BW: the layout, a real measurement, the refusals. */
static void test_memcpy_bw(void)
{
	static const uint32_t bad[] = { 0, EMU_PT_MEMCPY_BW_MAX_MIB + 1, 0xffffffffu };
	const uint8_t *p;

	setup();
	mb_init(1, 1);
	mb_pt(EMU_PT_MEMCPY_BW, 2, NULL, 0);
	mb_send();
	p = pt_answer(8 + sizeof(struct emu_pt_memcpy_bw));
	CHECK(p != NULL);
	if (p) {
		uint64_t bytes = get_le64(p + 16), ns = get_le64(p + 24);

		CHECK_EQ(get_le32(p), EMU_PT_MEMCPY_BW);
		CHECK_EQ(get_le32(p + 4), 2);
		CHECK_EQ(get_le32(p + 8), EMU_PT_OK);
		CHECK_EQ(get_le32(p + 12), 0);
		CHECK_EQ(bytes, (uint64_t)EMU_PT_MEMCPY_BW_COPIES * (2u << 20));
		CHECK(ns > 0);
		/* Any machine copies between 10 MB/s and 10 TB/s. */
		CHECK(bytes * 1000000000ull / ns > 10000000ull);
		CHECK(bytes * 1000000000ull / ns < 10000000000000ull);
	}
	/* Out of range: refused before anything is allocated. */
	for (unsigned int i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		mb_init(2, 1);
		mb_pt(EMU_PT_MEMCPY_BW, bad[i], NULL, 0);
		mb_send();
		p = pt_answer(8 + 32);
		CHECK(p && get_le32(p) == EMU_PT_MEMCPY_BW &&
		      get_le32(p + 4) == bad[i] &&
		      get_le32(p + 8) == EMU_PT_E_RANGE &&
		      get_le64(p + 16) == 0 && get_le64(p + 24) == 0);
	}
	/* Two in one message: two answers, in order. */
	mb_init(3, 1);
	mb_pt(EMU_PT_MEMCPY_BW, 1, NULL, 0);
	mb_pt(EMU_PT_MEMCPY_BW, 0, NULL, 0);
	mb_send();
	CHECK_EQ(r_count(), 2);
	p = r_trans(0);
	CHECK(p && get_le32(p + 8) == EMU_PT_MEMCPY_BW && get_le32(p + 16) == EMU_PT_OK &&
	      get_le64(p + 24) == (uint64_t)EMU_PT_MEMCPY_BW_COPIES << 20);
	p = r_trans(1);
	CHECK(p && get_le32(p + 16) == EMU_PT_E_RANGE);
}

static void test_validate_partition(void)
{
	const uint8_t *t;
	uint8_t *p;

	setup();
	mb_init(1, 0);
	p = mb_trans(VALID_TO_DEV, 16);
	put_le32(p + 8, 0xffffffffu);
	p = mb_trans(VALID_TO_DEV, 16);
	put_le32(p + 8, 3);
	mb_send();
	CHECK_EQ(r_count(), 2);
	t = r_trans(0);
	CHECK(t && get_le32(t) == VALID_FROM_DEV && get_le32(t + 8) == 0);
	t = r_trans(1);
	CHECK(t && get_le32(t) == VALID_FROM_DEV && get_le32(t + 8) == EMU_NNC_E_RANGE);
}

static void test_malformed(void)
{
	uint8_t *p;

	setup();
	/* Shorter than a header, or not this protocol: no answer at all. */
	mb_init(1, 0);
	mb_trans(STATUS_TO_DEV, 8);
	CHECK_EQ(mb_send_raw(31, false), 0);
	CHECK_EQ(mb_send_raw(0, false), 0);
	CHECK_EQ(emu_manager_handle(mgr, NULL, 100, rsp, sizeof(rsp)), 0);
	put_le32(mb.buf + 4, 0x43494152);
	rlen = emu_manager_handle(mgr, mb.buf, mb.len, rsp, sizeof(rsp));
	CHECK_EQ(rlen, 0);

	/* hdr.len disagrees with what arrived, both ways. */
	mb_init(2, 0);
	mb_trans(STATUS_TO_DEV, 8);
	mb_send_raw(mb.len + 8, false);
	CHECK_STATUS(EMU_NNC_E_MALFORMED);
	CHECK_EQ(get_le32(rsp + 8), 2);		/* still echoes the sequence */
	mb_send_raw(mb.len - 4, false);
	CHECK_STATUS(EMU_NNC_E_MALFORMED);

	/* hdr.len below the header. */
	mb_init(3, 0);
	put_le32(mb.buf + 12, 16);
	rlen = emu_manager_handle(mgr, mb.buf, 32, rsp, sizeof(rsp));
	CHECK_STATUS(EMU_NNC_E_MALFORMED);

	/* Huge hdr.len. */
	put_le32(mb.buf + 12, 0xffffffffu);
	rlen = emu_manager_handle(mgr, mb.buf, 32, rsp, sizeof(rsp));
	CHECK_STATUS(EMU_NNC_E_MALFORMED);

	/* count larger than the transactions present. */
	mb_init(4, 0);
	mb_trans(STATUS_TO_DEV, 8);
	put_le32(mb.buf + 12, mb.len);
	put_le32(mb.buf + 16, 2);
	rlen = emu_manager_handle(mgr, mb.buf, mb.len, rsp, sizeof(rsp));
	CHECK_STATUS(EMU_NNC_E_MALFORMED);
	put_le32(mb.buf + 16, 0xffffffffu);
	rlen = emu_manager_handle(mgr, mb.buf, mb.len, rsp, sizeof(rsp));
	CHECK_STATUS(EMU_NNC_E_MALFORMED);

	/* count smaller: bytes left over. */
	mb_init(5, 0);
	mb_trans(STATUS_TO_DEV, 8);
	mb_trans(STATUS_TO_DEV, 8);
	put_le32(mb.buf + 12, mb.len);
	put_le32(mb.buf + 16, 1);
	rlen = emu_manager_handle(mgr, mb.buf, mb.len, rsp, sizeof(rsp));
	CHECK_STATUS(EMU_NNC_E_MALFORMED);

	/* Transaction len 0, below its header, and huge. */
	{
		static const uint32_t lens[] = { 0, 4, 7, 0xffffffffu, 0x80000000u, 16 };

		for (unsigned int i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
			mb_init(6, 0);
			p = mb_trans(STATUS_TO_DEV, 8);
			put_le32(p + 4, lens[i]);
			mb_send();
			CHECK_STATUS(EMU_NNC_E_MALFORMED);
		}
	}

	/* Lengths summing past the end. */
	mb_init(7, 0);
	mb_trans(STATUS_TO_DEV, 8);
	p = mb_trans(PT_TO_DEV, 16);
	put_le32(p + 4, 24);
	mb_send();
	CHECK_STATUS(EMU_NNC_E_MALFORMED);

	/* Unknown types, and types only the device sends. */
	{
		static const uint32_t types[] = {
			0, 1, 2, 3, 5, 7, 8, 10, 11, 12, 13, 14, 16, 18, 19, 21, 0xffffffffu,
		};

		for (unsigned int i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
			mb_init(8, 0);
			mb_trans(types[i], 24);
			mb_send();
			CHECK_STATUS(EMU_NNC_E_TYPE);
		}
	}

	/* A refused message executes nothing, even its valid parts. */
	mb_init(9, 0);
	mb_activate(GUEST_GPA, 16);
	mb_trans(99, 8);
	mb_send();
	CHECK_STATUS(EMU_NNC_E_TYPE);
	CHECK(!emu_manager_dbc(mgr, 0)->active);

	/* Type structs shorter than they must be. */
	mb_init(10, 0);
	mb_trans(ACT_TO_DEV, 32);
	mb_send();
	CHECK_STATUS(EMU_NNC_E_MALFORMED);
	mb_init(10, 0);
	mb_trans(TERM_TO_DEV, 8);
	mb_send();
	CHECK_STATUS(EMU_NNC_E_MALFORMED);
	mb_init(10, 0);
	mb_trans(DMA_TO_DEV, 16);
	mb_send();
	CHECK_STATUS(EMU_NNC_E_MALFORMED);
	mb_init(10, 0);
	mb_trans(PT_TO_DEV, 12);		/* not a multiple of 8 */
	mb_send();
	CHECK_STATUS(EMU_NNC_E_MALFORMED);

	/* DMA: count disagrees with len (both ways, and huge). */
	{
		static const uint32_t counts[] = { 2, 0, 0xffffffffu, 0x10000000u };
		struct seg s = { GUEST_GPA, 16 };

		for (unsigned int i = 0; i < sizeof(counts) / sizeof(counts[0]); i++) {
			mb_init(11, 0);
			mb_dma(1, 0, &s, 1);
			put_le32(mb.buf + 32 + 12, counts[i]);
			mb_send();
			CHECK_STATUS(EMU_NNC_E_MALFORMED);
		}
	}
	/* DMA: empty segment, wrapping segment. */
	{
		struct seg s0 = { GUEST_GPA, 0 }, sw = { ~0ull - 8, 0x100 };

		mb_init(12, 0);
		mb_dma(1, 0, &s0, 1);
		mb_send();
		CHECK_STATUS(EMU_NNC_E_RANGE);
		mb_init(12, 0);
		mb_dma(1, 0, &sw, 1);
		mb_send();
		CHECK_STATUS(EMU_NNC_E_RANGE);
		/* Huge but not wrapping: refused by guest memory, or by size. */
		sw = (struct seg){ GUEST_GPA, 1ull << 62 };
		mb_init(12, 0);
		mb_dma(1, 0, &sw, 1);
		mb_send();
		CHECK_STATUS(EMU_NNC_E_NO_MEM);
		sw = (struct seg){ 0x10, 0x100 };
		mb_init(12, 0);
		mb_dma(1, 0, &sw, 1);
		mb_send();
		CHECK_STATUS(EMU_NNC_E_DMA);
	}
	/* Two continued transfers in one message; segment-less non-abort. */
	{
		struct seg s = { GUEST_GPA, 16 };

		mb_init(13, 0);
		mb_dma(1, 1, &s, 1);
		mb_dma(1, 2, &s, 1);
		mb_send();
		CHECK_STATUS(EMU_NNC_E_MALFORMED);
		mb_init(13, 0);
		mb_dma(1, 0, NULL, 0);
		mb_send();
		CHECK_STATUS(EMU_NNC_E_MALFORMED);
	}
	/* Non-zero padding. */
	mb_init(14, 0);
	mb_trans(STATUS_TO_DEV, 8);
	put_le32(mb.buf + 28, 1);
	mb_send();
	CHECK_STATUS(EMU_NNC_E_MALFORMED);
	mb_init(14, 0);
	p = mb_trans(TERM_TO_DEV, 16);
	put_le32(p + 12, 1);
	mb_send();
	CHECK_STATUS(EMU_NNC_E_MALFORMED);

	/* A message larger than 64 KiB. */
	mb_init(15, 0);
	p = mb_trans(PT_TO_DEV, 0x10000);
	put_le32(p + 8, EMU_PT_ECHO);
	mb_send();
	CHECK_STATUS(EMU_NNC_E_MALFORMED);

	/* The host's buffer too small for the answer. */
	mb_init(16, 0);
	mb_trans(STATUS_TO_DEV, 8);
	put_le32(mb.buf + 12, mb.len);
	put_le32(mb.buf + 16, 1);
	CHECK_EQ(emu_manager_handle(mgr, mb.buf, mb.len, rsp, 40), 0);
	CHECK_EQ(emu_manager_handle(mgr, mb.buf, mb.len, NULL, 4096), 0);
}

/* Random corruption of valid messages: no crash, no out-of-bounds access. */
static void test_fuzz(void)
{
	uint32_t seed = 12345;
	struct seg s[4] = {
		{ GUEST_GPA, 100 }, { GUEST_GPA + 0x5000, 0x1000 },
		{ GUEST_GPA + 0x9000, 8 }, { GUEST_GPA + 0x20000, 0x40 },
	};

	setup();
	for (int iter = 0; iter < 20000; iter++) {
		uint8_t *copy;
		size_t len;

		mb_init(iter, iter % 3);
		switch (iter % 5) {
		case 0: mb_trans(STATUS_TO_DEV, 8); mb_pt(EMU_PT_ECHO, 1, s, 16); break;
		case 1: mb_dma(iter % 7, iter % 4 ? 0 : 3, s, 4); break;
		case 2: mb_activate(GUEST_GPA + 0x100000, 32); mb_terminate(iter % 3); break;
		case 3: mb_pt(EMU_PT_XFER_SUM, iter % 7, NULL, 0); mb_pt(EMU_PT_DEACTIVATE, iter % 17, NULL, 0); break;
		case 4: mb_dma(1, 9, s, 2); mb_dma(0, 9, NULL, 0); break;
		}
		put_le32(mb.buf + 12, mb.len);
		put_le32(mb.buf + 16, mb.count);
		len = mb.len;
		for (int k = 0; k < 1 + iter % 4; k++) {
			seed = seed * 1103515245 + 12345;
			mb.buf[(seed >> 8) % mb.len] ^= 1u << ((seed >> 4) & 7);
		}
		seed = seed * 1103515245 + 12345;
		if (!(seed & 0x700))
			len = (seed >> 12) % (mb.len + 1);
		/* An exact-size heap copy, so ASan sees any over-read. */
		copy = malloc(len ? len : 1);
		if (!copy)
			abort();
		memcpy(copy, mb.buf, len);
		rlen = emu_manager_handle(mgr, copy, len, rsp, sizeof(rsp));
		free(copy);
		CHECK(rlen == 0 || (rlen >= 32 && rlen <= sizeof(rsp) &&
				    get_le32(rsp + 12) == rlen && r_trans(r_count() ? r_count() - 1 : 0) != NULL) ||
		      (rlen == 32 && r_count() == 0));
	}
}

static uint32_t rnd_state = 777;

static uint32_t rnd(void)
{
	rnd_state = rnd_state * 1103515245 + 12345;
	return rnd_state >> 8;
}

/* Well-framed messages with random fields: every execution path. */
static void test_fuzz_fields(void)
{
	static const uint32_t types[] = {
		STATUS_TO_DEV, PT_TO_DEV, DMA_TO_DEV, ACT_TO_DEV, TERM_TO_DEV,
		VALID_TO_DEV,
	};
	setup();
	emu_manager_set_mem_size(mgr, 1 << 20);
	for (int iter = 0; iter < 20000; iter++) {
		uint32_t n = 1 + rnd() % 4;

		mb_init(iter, rnd() % 3);
		for (uint32_t k = 0; k < n; k++) {
			uint32_t type = types[rnd() % 6];
			struct seg sg[3];
			uint8_t *p;
			uint8_t x[16];

			switch (type) {
			case PT_TO_DEV: {
				uint32_t op = rnd() % 8, arg = rnd() % 20;

				/*
				 * MEMCPY_BW with an arg it refuses: a real
				 * measurement in every eighth passthrough
				 * would be most of the test's time.
				 */
				if (op == EMU_PT_MEMCPY_BW)
					arg += EMU_PT_MEMCPY_BW_MAX_MIB + 1;
				put_le64(x, rnd() % 0x3000);
				put_le64(x + 8, rnd());
				mb_pt(op, arg, x, (rnd() % 3) * 8);
				break;
			}
			case DMA_TO_DEV:
				for (int j = 0; j < 3; j++) {
					sg[j].addr = GUEST_GPA - 0x1000 + rnd() % (GUEST_SIZE + 0x2000);
					sg[j].size = 1 + rnd() % 0x3000;
				}
				mb_dma(rnd() % 8, rnd() % 4 ? 0 : rnd() % 12,
				       sg, rnd() % 4);
				break;
			case ACT_TO_DEV:
				mb_activate(GUEST_GPA + (rnd() % 64) * 0x10000, rnd() % 300);
				break;
			case TERM_TO_DEV:
				mb_terminate(rnd() % 3);
				break;
			case VALID_TO_DEV:
				p = mb_trans(VALID_TO_DEV, 16);
				put_le32(p + 8, rnd() % 2 ? 0xffffffffu : rnd());
				break;
			default:
				mb_trans(type, 8);
				break;
			}
		}
		mb_send();
		CHECK(rlen >= 32 && get_le32(rsp + 12) == rlen &&
		      (r_count() == 0 || r_trans(r_count() - 1) != NULL));
	}
}

static void test_counters(void)
{
	char *text = NULL;
	size_t size = 0;
	FILE *f;

	setup();
	mb_init(1, 0);
	mb_activate(GUEST_GPA, 16);
	mb_send();
	mb_init(2, 0);
	mb_trans(77, 8);
	mb_send();
	f = open_memstream(&text, &size);
	CHECK(f != NULL);
	if (!f)
		return;
	emu_manager_print_counters(mgr, f);
	fclose(f);
	CHECK(strstr(text, "nnc_msgs 2\n") != NULL);
	CHECK(strstr(text, "nnc_bad_msgs 1\n") != NULL);
	CHECK(strstr(text, "nnc_activates 1\n") != NULL);
	CHECK(strstr(text, "nnc_dma_bytes 0\n") != NULL);
	CHECK(strstr(text, "nnc_dbc_active 1\n") != NULL);
	free(text);
}

/*
 * The host's verdict of an answer to the call @call with sequence number
 * @seq, as qaic_cntl.c and qaic_nnc.c reach it (a card without CRCs; no
 * transfer continued): the model the table of nnc_cases.c must agree with.
 */
static unsigned int host_verdict(const uint8_t *m, size_t len, uint32_t seq, uint8_t call)
{
	uint32_t mlen, count, off = 32, type, tlen, dbc, st;
	bool canceled = false;

	if (len < 32 || get_le32(m + 4) != MAGIC)
		return EMU_NNC_CASE_TIMEDOUT;
	mlen = get_le32(m + 12);
	if (mlen < 32 || mlen > len || mlen > 4096 || get_le32(m + 8) != seq)
		return EMU_NNC_CASE_TIMEDOUT;
	count = get_le32(m + 16);
	for (uint32_t i = 0; i < count; i++, off += tlen) {
		if (mlen - off < 8)
			return EMU_NNC_CASE_EIO;
		type = get_le32(m + off);
		tlen = get_le32(m + off + 4);
		if (tlen < 8 || tlen > mlen - off)
			return EMU_NNC_CASE_EIO;
		st = tlen >= 12 ? get_le32(m + off + 8) : 0;
		dbc = tlen >= 16 ? get_le32(m + off + 12) : 0;
		switch (type) {
		case PT_FROM_DEV:
			if (tlen % 8)
				return EMU_NNC_CASE_EIO;
			break;
		case ACT_FROM_DEV:
			if (tlen != 24 || call != EMU_NNC_CALL_ACTIVATE || (!st && dbc >= 16))
				return EMU_NNC_CASE_EIO;
			canceled |= st != 0;
			break;
		case DEACT_FROM_DEV:
			if (tlen != 16 || dbc >= 16)
				return EMU_NNC_CASE_EIO;
			canceled |= st != 0;
			break;
		case STATUS_FROM_DEV:
			if (tlen != 24 || (get_le64(m + off + 16) & 1))
				return EMU_NNC_CASE_EIO;
			canceled |= get_le32(m + off + 12) != 0;
			break;
		default:
			return EMU_NNC_CASE_EIO;
		}
	}
	if (off != mlen)
		return EMU_NNC_CASE_EIO;
	return canceled ? EMU_NNC_CASE_CANCELED : EMU_NNC_CASE_OK;
}

/*
 * The NNC cases of every call but a continued transfer: armed by one
 * message, left alone by its answer, applied to the next call's, whose
 * verdict is the table's; and only once.
 */
static void test_nnc_cases(void)
{
	const uint32_t table[2] = { EMU_CARD_CASE_NNC, 0 };
	const struct emu_nnc_case *c;
	uint32_t h = 0x4e4e43;
	size_t good_len;

	CHECK(emu_nnc_nr_cases > 60);
	CHECK_EQ(emu_nnc_case_parse("no-such-case"), -1);
	for (unsigned int i = 0; i < emu_nnc_nr_cases; i++) {
		c = &emu_nnc_cases[i];
		CHECK_EQ(emu_nnc_case_parse(c->name), i);
		for (unsigned int j = 0; j < i; j++)
			CHECK(strcmp(c->name, emu_nnc_cases[j].name));
		if (c->call == EMU_NNC_CALL_DMA_XFER)
			continue;

		setup();
		if (c->call == EMU_NNC_CALL_DEACTIVATE) {
			mb_init(1, h);
			mb_activate(GUEST_GPA, 64);
			mb_send();
			CHECK_EQ(get_le32(r_trans(0) + 12), 0);
		}
		mb_init(2, h);
		mb_pt(EMU_PT_CARD_CASE, i, table, sizeof(table));
		mb_send();
		CHECK_EQ(host_verdict(rsp, rlen, 2, EMU_NNC_CALL_PASSTHROUGH), EMU_NNC_CASE_OK);
		CHECK_EQ(get_le32(r_trans(0) + 16), EMU_PT_OK);

		mb_init(3, h);
		switch (c->call) {
		case EMU_NNC_CALL_STATUS:
			mb_trans(STATUS_TO_DEV, 8);
			break;
		case EMU_NNC_CALL_ACTIVATE:
			mb_activate(GUEST_GPA + 0x10000, 64);
			break;
		case EMU_NNC_CALL_DEACTIVATE:
			mb_pt(EMU_PT_DEACTIVATE, 0, NULL, 0);
			break;
		case EMU_NNC_CALL_PASSTHROUGH:
			mb_pt(0x7fff, 0, NULL, 0);
			break;
		}
		mb_send();
		if (host_verdict(rsp, rlen, 3, c->call) != c->verdict) {
			fprintf(stderr, "case %s: the host's verdict %s, the table's %s\n", c->name,
				emu_nnc_case_verdict_name(host_verdict(rsp, rlen, 3, c->call)),
				emu_nnc_case_verdict_name(c->verdict));
			emu_test_failures++;
		}
		/* Once: the same call again is answered as usual. */
		good_len = rlen;
		mb_init(4, h);
		mb_trans(STATUS_TO_DEV, 8);
		mb_send();
		CHECK_EQ(host_verdict(rsp, rlen, 4, EMU_NNC_CALL_STATUS), EMU_NNC_CASE_OK);
		if (c->where == EMU_NNC_GROW)
			CHECK_EQ(good_len, 56 + (size_t)c->v);
	}
	/* Out of the table: refused. */
	setup();
	mb_init(5, h);
	mb_pt(EMU_PT_CARD_CASE, emu_nnc_nr_cases, table, sizeof(table));
	mb_send();
	CHECK_EQ(get_le32(r_trans(0) + 16), EMU_PT_E_RANGE);
}

int main(void)
{
	RUN(test_status);
	RUN(test_crc);
	RUN(test_echo);
	RUN(test_firmware);
	RUN(test_dma);
	RUN(test_continuation);
	RUN(test_continuation_evict);
	RUN(test_continuation_full);
	RUN(test_activate);
	RUN(test_dbc_passthrough);
	RUN(test_dbc_faults);
	RUN(test_card_ops);
	RUN(test_telemetry_op);
	RUN(test_silence);
	RUN(test_memcpy_bw);
	RUN(test_validate_partition);
	RUN(test_malformed);
	RUN(test_fuzz);
	RUN(test_fuzz_fields);
	RUN(test_counters);
	RUN(test_nnc_cases);
	emu_manager_destroy(mgr);
	emu_device_fini(&dev);
	guest_mem_reset(&gmem);
	free(guest);
	return emu_test_exit();
}
