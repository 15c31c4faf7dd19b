// SPDX-License-Identifier: GPL-2.0-only
/*
 * The firmware's program lifecycle (nnc_fw.c) through the card's manager:
 * NNC messages built by hand as the open runtime builds them (a
 * PASSTHROUGH whose payload is the command, 8 bytes longer than its
 * layout, then the DMA transfer or the ACTIVATE of the same message), the
 * answers checked byte by byte. Guest memory is a malloc'd region; DMA
 * goes through the real emu_dma_read().
 */
#include <linux/pci_regs.h>
#include <stdlib.h>
#include <errno.h>
#include <string.h>

#include "card.h"
#include "device.h"
#include "emu_test.h"
#include "manager.h"
#include "le_bytes.h"
#include "nnc_fw.h"
#include "elf_image.h"
#include "workload.h"

/* Transaction types (uapi QAIC_TRANS_*). */
enum {
	PT_FROM_DEV = 3, PT_TO_DEV = 4, DMA_TO_DEV = 6, ACT_FROM_DEV = 8,
	ACT_TO_DEV = 9, DEACT_FROM_DEV = 11, STATUS_FROM_DEV = 14,
	TERM_TO_DEV = 17, DMA_CONT = 18,
};

#define MAGIC		0x43494151u
#define GUEST_GPA	0x100000ull
#define GUEST_SIZE	(4u << 20)
#define RING_GPA	(GUEST_GPA + 0x300000)	/* activate rings: never read */

/* The runtime's tags (QKmdDevice.cpp); any would do */
#define ELF_TAG		100
#define CONSTS_TAG	300

/* STATUS_RESP offsets (nnc_fw.c) */
#define SR_DRAM_FREE		172
#define SR_VC_FREE		181
#define SR_CONSTS_LOADED	264
#define SR_CONSTS_IN_USE	268
#define SR_NWS_LOADED		272
#define SR_NWS_ACTIVE		273

static struct emu_device dev;
static struct guest_mem gmem;
static uint8_t *guest;
static struct emu_manager *mgr;

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
static struct {
	uint8_t buf[0x10000 + 64];
	uint32_t len;
	uint32_t count;
} mb;
static uint8_t rsp[4096];
static size_t rlen;

static void mb_init(uint32_t handle)
{
	static uint32_t seq;

	memset(&mb, 0, sizeof(mb));
	put_le32(mb.buf + 4, MAGIC);
	put_le32(mb.buf + 8, ++seq);
	put_le32(mb.buf + 20, handle);
	put_le32(mb.buf + 24, 0xffffffffu);
	mb.len = 32;
}

static uint8_t *mb_trans(uint32_t type, uint32_t len)
{
	uint8_t *p = mb.buf + mb.len;

	memset(p, 0, len);
	put_le32(p, type);
	put_le32(p + 4, len);
	mb.len += len;
	mb.count++;
	return p;
}

/* A passthrough of exactly @n payload bytes (a multiple of 8). */
static void mb_fw_raw(const uint8_t *cmd, uint32_t n)
{
	memcpy(mb_trans(PT_TO_DEV, 8 + n) + 8, cmd, n);
}

/* A command as the runtime sends it: header, nnc_cmd_t (8), the layout. */
static void mb_fw(const uint8_t *cmd, uint32_t n)
{
	memcpy(mb_trans(PT_TO_DEV, 8 + n + 8) + 8, cmd, n);
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

/* One segment of guest memory at @off, @len bytes. */
static void mb_dma1(uint32_t tag, uint64_t off, uint64_t len)
{
	struct seg s = { GUEST_GPA + off, len };

	mb_dma(tag, 0, &s, 1);
}

static void mb_activate(void)
{
	uint8_t *p = mb_trans(ACT_TO_DEV, 40);
	uint32_t nelem = 16, buf_len = 0x2000;

	put_le64(p + 8, RING_GPA);
	put_le64(p + 16, RING_GPA + buf_len - nelem * 4);
	put_le32(p + 24, nelem);
	put_le32(p + 28, nelem);
	put_le32(p + 32, buf_len);
}

static void mb_pt(uint32_t op, uint32_t arg, const void *extra, uint32_t n)
{
	uint8_t *p = mb_trans(PT_TO_DEV, 16 + n);

	put_le32(p + 8, op);
	put_le32(p + 12, arg);
	if (n)
		memcpy(p + 16, extra, n);
}

static void mb_send(void)
{
	put_le32(mb.buf + 12, mb.len);
	put_le32(mb.buf + 16, mb.count);
	memset(rsp, 0xa5, sizeof(rsp));
	rlen = emu_manager_handle(mgr, mb.buf, mb.len, rsp, sizeof(rsp));
}

/* ---- answers ---- */
static uint32_t r_count(void)
{
	return rlen >= 32 ? get_le32(rsp + 16) : 0;
}

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

/*
 * Answer transaction @i is a passthrough of the firmware's answer of @len
 * bytes (padded to 8) of type @type: the answer, or NULL.
 */
static const uint8_t *fw_ans(unsigned int i, uint32_t type, uint32_t len)
{
	const uint8_t *t = r_trans(i);

	if (!t || get_le32(t) != PT_FROM_DEV || get_le32(t + 4) != 8 + ((len + 7) & ~7u) ||
	    get_le32(t + 8) != type)
		return NULL;
	return t + 8;
}

static int32_t s32(const uint8_t *p)
{
	return (int32_t)get_le32(p);
}

/* LOAD_*_RESP at answer @i: its id if status is @st (0 otherwise), else ~0 */
static uint32_t load_result(unsigned int i, uint32_t type, int32_t st, int line)
{
	const uint8_t *a = fw_ans(i, type, NNC_FW_LOAD_RESP_LEN);

	if (!a || s32(a + 8) != st || get_le32(a + 12) != 0 ||
	    (st && get_le32(a + 4)) || (!st && !get_le32(a + 4))) {
		fprintf(stderr, "line %d: expected LOAD answer type %u status %d: %s (status %d)\n",
			line, type, st, a ? "wrong" : "missing", a ? s32(a + 8) : 0);
		emu_test_failures++;
		return ~0u;
	}
	return get_le32(a + 4);
}
#define LOAD_RESULT(i, type, st) load_result(i, type, st, __LINE__)

/* A status-only answer (8 bytes) at @i */
static void check_status_only(unsigned int i, uint32_t type, int32_t st, int line)
{
	const uint8_t *a = fw_ans(i, type, NNC_FW_STATUS_ONLY_RESP_LEN);

	if (!a || s32(a + 4) != st) {
		fprintf(stderr, "line %d: expected answer type %u status %d: %s (status %d)\n",
			line, type, st, a ? "wrong" : "missing", a ? s32(a + 4) : 0);
		emu_test_failures++;
	}
}
#define STATUS_ONLY(i, type, st) check_status_only(i, type, st, __LINE__)

/* ---- commands, laid out as QNncProtocol.h says ---- */
static uint32_t load_elf(uint32_t handle, uint64_t data_length, uint64_t off,
			 uint64_t dma_len)
{
	uint8_t c[NNC_FW_LOAD_ELF_REQ_LEN] = { 0 };

	put_le32(c, NNC_FW_CMD_LOAD_ELF_REQ);
	put_le32(c + 4, ELF_TAG);
	put_le32(c + 8, 4242);			/* process_id */
	put_le32(c + 12, 0x1234);		/* metadata_crc */
	memcpy(c + 16, "net", 3);
	put_le64(c + 80, data_length);
	mb_init(handle);
	mb_fw(c, sizeof(c));
	if (dma_len)
		mb_dma1(ELF_TAG, off, dma_len);
	mb_send();
	return r_count();
}

static void cmd_load_consts(uint8_t *c, uint32_t tag, uint32_t crc, uint64_t len)
{
	memset(c, 0, NNC_FW_LOAD_CONSTANTS_REQ_LEN);
	put_le32(c, NNC_FW_CMD_LOAD_CONSTANTS_REQ);
	put_le32(c + 4, 4242);
	put_le32(c + 8, tag);
	put_le32(c + 12, crc);
	put_le64(c + 16, len);
	memcpy(c + 24, "consts", 6);
}

static uint32_t load_consts(uint32_t handle, uint32_t crc, uint64_t len,
			    uint64_t off, uint64_t dma_len)
{
	uint8_t c[NNC_FW_LOAD_CONSTANTS_REQ_LEN];

	cmd_load_consts(c, CONSTS_TAG, crc, len);
	mb_init(handle);
	mb_fw(c, sizeof(c));
	if (dma_len)
		mb_dma1(CONSTS_TAG, off, dma_len);
	mb_send();
	return r_count();
}

static void cmd_activate(uint8_t *c, uint32_t elf, uint32_t consts)
{
	memset(c, 0, NNC_FW_ACTIVATE_REQ_LEN);
	put_le32(c, NNC_FW_CMD_ACTIVATE_REQ);
	put_le32(c + 4, 4242);
	put_le32(c + 8, consts);
	put_le32(c + 12, elf);
	put_le32(c + 20, 0xffffffffu);		/* resource_res_id -1 */
	put_le32(c + 24, 1);			/* opt_vc_setup */
	put_le32(c + 28, 0xffffffffu);		/* vc_res_id -1 */
}

/* ACTIVATE_REQ (+ ACTIVATE if @with_act); the ACTIVATE_RESP or NULL */
static const uint8_t *activate(uint32_t handle, uint32_t elf, uint32_t consts,
			       bool with_act)
{
	uint8_t c[NNC_FW_ACTIVATE_REQ_LEN];

	cmd_activate(c, elf, consts);
	mb_init(handle);
	mb_fw(c, sizeof(c));
	if (with_act)
		mb_activate();
	mb_send();
	return fw_ans(0, NNC_FW_CMD_ACTIVATE_RESP, NNC_FW_ACTIVATE_RESP_LEN);
}

/* The DBC of ACTIVATE_FROM_DEV at answer 1, -1 if refused or absent */
static int granted(void)
{
	const uint8_t *t = r_trans(1);

	if (!t || get_le32(t) != ACT_FROM_DEV || get_le32(t + 8))
		return -1;
	return (int)get_le32(t + 12);
}

static void deactivate(uint32_t handle, uint32_t id, uint32_t teardown)
{
	uint8_t c[NNC_FW_DEACTIVATE_REQ_LEN] = { 0 };

	put_le32(c, NNC_FW_CMD_DEACTIVATE_REQ);
	put_le32(c + 4, id);
	put_le32(c + 8, teardown);
	mb_init(handle);
	mb_fw(c, sizeof(c));
	mb_send();
}

static void unload(uint32_t handle, uint32_t type, uint32_t id)
{
	uint8_t c[NNC_FW_UNLOAD_REQ_LEN] = { 0 };

	put_le32(c, type);
	put_le32(c + 4, id);
	mb_init(handle);
	mb_fw(c, sizeof(c));
	mb_send();
}

/* The STATUS_RESP, copied */
static uint8_t st_buf[NNC_FW_STATUS_RESP_LEN];

static const uint8_t *status(void)
{
	uint8_t c[8] = { NNC_FW_CMD_STATUS_REQ };
	const uint8_t *a;

	mb_init(77);
	mb_fw(c, sizeof(c));
	mb_send();
	a = fw_ans(0, NNC_FW_CMD_STATUS_RESP, NNC_FW_STATUS_RESP_LEN);
	if (!a) {
		memset(st_buf, 0xff, sizeof(st_buf));
		emu_test_failures++;
		return st_buf;
	}
	memcpy(st_buf, a, sizeof(st_buf));
	return st_buf;
}

static void check_holds(uint32_t consts, uint32_t in_use, unsigned int nws,
			unsigned int active, int line)
{
	const uint8_t *s = status();

	if (get_le32(s + SR_CONSTS_LOADED) != consts || get_le32(s + SR_CONSTS_IN_USE) != in_use ||
	    s[SR_NWS_LOADED] != nws || s[SR_NWS_ACTIVE] != active) {
		fprintf(stderr, "line %d: status holds %u/%u/%u/%u, expected %u/%u/%u/%u\n",
			line, get_le32(s + SR_CONSTS_LOADED), get_le32(s + SR_CONSTS_IN_USE),
			s[SR_NWS_LOADED], s[SR_NWS_ACTIVE], consts, in_use, nws, active);
		emu_test_failures++;
	}
}
#define CHECK_HOLDS(c, u, n, a) check_holds(c, u, n, a, __LINE__)

/* The EMU_PT_XFER_SUM answer of a tag, or NULL */
static const uint8_t *tag_sum(uint32_t handle, uint32_t tag)
{
	mb_init(handle);
	mb_pt(EMU_PT_XFER_SUM, tag, NULL, 0);
	mb_send();
	return r_trans(0);
}

/* Its status: EMU_PT_E_NO_TAG once a load took the tag's bytes */
static uint32_t tag_status(uint32_t handle, uint32_t tag)
{
	const uint8_t *t = tag_sum(handle, tag);

	return t ? get_le32(t + 28) : ~0u;
}

/* The bytes a tag holds */
static uint64_t tag_bytes(uint32_t handle, uint32_t tag)
{
	const uint8_t *t = tag_sum(handle, tag);

	return t ? get_le64(t + 16) : ~0ull;
}

static bool counter(const char *line)
{
	char *text = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&text, &size);
	bool found;

	if (!f)
		return false;
	emu_manager_print_counters(mgr, f);
	fclose(f);
	found = text && strstr(text, line);
	free(text);
	return found;
}

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
		guest[i] = (uint8_t)(i * 13 + (i >> 10));
	emu_device_set_guest_mem(&dev, &gmem);
	mgr = emu_manager_create(&dev);
	if (!mgr)
		abort();
}

/* ------------------------------------------------------------------ */

/*
 * The runtime's whole sequence: load an ELF and constants with their
 * bytes by DMA, activate with the ACTIVATE in the same message, deactivate
 * with the DBC torn down, unload both; the answers and the status follow.
 */
static void test_lifecycle(void)
{
	struct seg s[3] = {
		{ GUEST_GPA + 0x1f00, 0x300 },		/* crosses a page */
		{ GUEST_GPA + 0x10, 0x1234 },
		{ GUEST_GPA + 0x20000, 0x4000 },
	};
	const uint64_t elf_len = 0x300 + 0x1234 + 0x4000, k_len = 0x2100;
	const uint8_t *a, *t;
	struct emu_nnc_fw_item it;
	uint32_t elf, consts, act, crc = 0, h, e, k;
	uint8_t c[NNC_FW_LOAD_ELF_REQ_LEN] = { 0 };
	unsigned int dbc;
	int32_t state;

	setup();
	CHECK_HOLDS(0, 0, 0, 0);
	CHECK_EQ(get_le32(status() + SR_DRAM_FREE), 16384);

	/* LOAD_ELF, its image in three segments: one answer, 16 bytes */
	put_le32(c, NNC_FW_CMD_LOAD_ELF_REQ);
	put_le32(c + 4, ELF_TAG);
	put_le64(c + 80, elf_len);
	mb_init(5);
	mb_fw(c, sizeof(c));
	mb_dma(ELF_TAG, 0, s, 3);
	mb_send();
	CHECK_EQ(r_count(), 1);
	t = r_trans(0);
	CHECK(t && get_le32(t + 4) == 24);
	elf = LOAD_RESULT(0, NNC_FW_CMD_LOAD_ELF_RESP, 0);
	for (int i = 0; i < 3; i++)
		crc = ref_crc(crc, guest + (s[i].addr - GUEST_GPA), s[i].size);
	CHECK_EQ(emu_nnc_fw_lookup(emu_manager_fw(mgr), false, elf, &it), 0);
	CHECK(it.handle == 5 && it.len == elf_len && it.crc == crc && it.users == 0);
	/* The bytes are the program's now, not the tag's */
	CHECK_EQ(tag_status(5, ELF_TAG), EMU_PT_E_NO_TAG);
	CHECK(counter("nnc_mem_used 0\n"));
	CHECK(counter("fw_mem_held 21812\n"));		/* 0x5534 */
	CHECK_EQ(get_le32(status() + SR_DRAM_FREE), 16383);

	/* LOAD_CONSTANTS with the right CRC */
	CHECK_EQ(load_consts(5, ref_crc(0, guest + 0x8000, k_len), k_len, 0x8000, k_len), 1);
	consts = LOAD_RESULT(0, NNC_FW_CMD_LOAD_CONSTANTS_RESP, 0);
	CHECK(consts != elf);
	CHECK_HOLDS(1, 0, 1, 0);

	/* ACTIVATE_REQ + ACTIVATE: two answers, the VC is the DBC granted */
	a = activate(5, elf, consts, true);
	CHECK_EQ(r_count(), 2);
	CHECK(a != NULL);
	CHECK_EQ(granted(), 0);
	if (a) {
		CHECK_EQ(get_le32(a + 4), 0);			/* status */
		act = get_le32(a + 8);
		CHECK(act != 0 && act != elf && act != consts);
		CHECK_EQ(get_le32(a + 12), 0);			/* virtual_channel_id */
		for (unsigned int i = 16; i < 82; i++)		/* bases, ..., doorbell */
			CHECK_EQ(a[i], 0);
		CHECK_EQ(get_le32(a + 82), 1);			/* nspMask: NSP 0 */
		CHECK(a[86] == 0 && a[87] == 0);
	} else {
		act = 0;
	}
	CHECK(emu_manager_dbc(mgr, 0)->active && emu_manager_dbc(mgr, 0)->owner == 5);
	CHECK_EQ(emu_nnc_fw_activation(emu_manager_fw(mgr), act, &h, &e, &k, &dbc, &state), 0);
	CHECK(h == 5 && e == elf && k == consts && dbc == 0 && state == 0);
	CHECK_HOLDS(1, 1, 1, 1);
	CHECK_EQ(status()[SR_VC_FREE], 15);

	/* What an activation uses cannot be unloaded */
	unload(5, NNC_FW_CMD_UNLOAD_ELF_REQ, elf);
	CHECK_EQ(r_count(), 1);
	t = r_trans(0);
	CHECK(t && get_le32(t + 4) == 16);
	STATUS_ONLY(0, NNC_FW_CMD_UNLOAD_ELF_RESP, NNC_FW_OPERATION_NOT_PERMITTED);
	unload(5, NNC_FW_CMD_UNLOAD_CONSTANTS_REQ, consts);
	STATUS_ONLY(0, NNC_FW_CMD_UNLOAD_CONSTANTS_RESP, NNC_FW_OPERATION_NOT_PERMITTED);

	/* DEACTIVATE_REQ, VC torn down: the DBC is released and reported */
	deactivate(5, act, 1);
	CHECK_EQ(r_count(), 2);
	STATUS_ONLY(0, NNC_FW_CMD_DEACTIVATE_RESP, 0);
	t = r_trans(1);
	CHECK(t && get_le32(t) == DEACT_FROM_DEV && get_le32(t + 4) == 16 &&
	      get_le32(t + 8) == 0 && get_le32(t + 12) == 0);
	CHECK(!emu_manager_dbc(mgr, 0)->active);
	CHECK_HOLDS(1, 0, 1, 0);
	CHECK_EQ(status()[SR_VC_FREE], 16);
	/* Twice: nothing to deactivate */
	deactivate(5, act, 0);
	CHECK_EQ(r_count(), 1);
	STATUS_ONLY(0, NNC_FW_CMD_DEACTIVATE_RESP, NNC_FW_NO_NW_TO_DEACTIVATE);

	unload(5, NNC_FW_CMD_UNLOAD_ELF_REQ, elf);
	STATUS_ONLY(0, NNC_FW_CMD_UNLOAD_ELF_RESP, 0);
	unload(5, NNC_FW_CMD_UNLOAD_CONSTANTS_REQ, consts);
	STATUS_ONLY(0, NNC_FW_CMD_UNLOAD_CONSTANTS_RESP, 0);
	unload(5, NNC_FW_CMD_UNLOAD_ELF_REQ, elf);
	STATUS_ONLY(0, NNC_FW_CMD_UNLOAD_ELF_RESP, NNC_FW_RESOURCE_NOT_FOUND);
	/* An id of the other kind is not found either */
	unload(5, NNC_FW_CMD_UNLOAD_CONSTANTS_REQ, elf);
	STATUS_ONLY(0, NNC_FW_CMD_UNLOAD_CONSTANTS_RESP, NNC_FW_RESOURCE_NOT_FOUND);
	CHECK_HOLDS(0, 0, 0, 0);
	CHECK_EQ(get_le32(status() + SR_DRAM_FREE), 16384);
	CHECK(counter("fw_mem_held 0\n"));
	CHECK(counter("fw_elf_loads 1\n"));
	CHECK(counter("fw_consts_loads 1\n"));
	CHECK(counter("fw_activations 1\n"));
	CHECK(counter("fw_deactivations 1\n"));
	CHECK(counter("fw_unloads 2\n"));
	CHECK(counter("fw_err_not_permitted 2\n"));
	CHECK(counter("fw_err_no_nw 1\n"));
	CHECK(counter("fw_err_not_found 2\n"));
	CHECK(counter("fw_errors 5\n"));

	/* The ACTIVATE may come first in the message too */
	CHECK_EQ(load_elf(5, 0x100, 0, 0x100), 1);
	elf = LOAD_RESULT(0, NNC_FW_CMD_LOAD_ELF_RESP, 0);
	cmd_activate(c, elf, 0);
	mb_init(5);
	mb_activate();
	mb_fw(c, NNC_FW_ACTIVATE_REQ_LEN);
	mb_send();
	CHECK_EQ(r_count(), 2);
	t = r_trans(0);
	CHECK(t && get_le32(t) == ACT_FROM_DEV && get_le32(t + 8) == 0 && get_le32(t + 12) == 0);
	t = r_trans(1);
	CHECK(t && get_le32(t) == PT_FROM_DEV && get_le32(t + 8) == NNC_FW_CMD_ACTIVATE_RESP &&
	      get_le32(t + 12) == 0 && get_le32(t + 16) != 0 && get_le32(t + 20) == 0);
	CHECK_HOLDS(0, 0, 1, 1);
}

/* Loads that fail: the status, id 0, and nothing kept, not even the bytes */
static void test_load_errors(void)
{
	uint8_t c[NNC_FW_LOAD_CONSTANTS_REQ_LEN];
	const uint8_t *t;
	uint32_t ids[NNC_FW_MAX_ELFS];

	setup();
	/* The transfer brings less than data_length, or nothing */
	load_elf(1, 0x2000, 0, 0x1000);
	LOAD_RESULT(0, NNC_FW_CMD_LOAD_ELF_RESP, NNC_FW_DMA_ERROR);
	CHECK_EQ(tag_status(1, ELF_TAG), EMU_PT_E_NO_TAG);
	load_elf(1, 0x2000, 0, 0);
	LOAD_RESULT(0, NNC_FW_CMD_LOAD_ELF_RESP, NNC_FW_DMA_ERROR);
	/* More than data_length */
	load_elf(1, 0x1000, 0, 0x1001);
	LOAD_RESULT(0, NNC_FW_CMD_LOAD_ELF_RESP, NNC_FW_DMA_ERROR);
	/* Bytes a transfer left in the tag before are not the image's */
	mb_init(1);
	mb_dma1(ELF_TAG, 0, 0x800);
	mb_send();
	load_elf(1, 0x800, 0, 0);
	LOAD_RESULT(0, NNC_FW_CMD_LOAD_ELF_RESP, NNC_FW_DMA_ERROR);
	load_elf(1, 0x800, 0x800, 0x800);
	LOAD_RESULT(0, NNC_FW_CMD_LOAD_ELF_RESP, 0);
	CHECK_EQ(tag_status(1, ELF_TAG), 0);		/* the first 0x800 stay */
	/* data_length 0, above the cap */
	load_elf(1, 0, 0, 0x100);
	LOAD_RESULT(0, NNC_FW_CMD_LOAD_ELF_RESP, NNC_FW_PARAMETER_ERROR);
	load_elf(1, NNC_FW_MAX_DATA + 1, 0, 0x100);
	LOAD_RESULT(0, NNC_FW_CMD_LOAD_ELF_RESP, NNC_FW_MEM_ALLOC_ERROR);
	/* A segment outside host memory: the load and the transfer say so */
	{
		struct seg bad = { GUEST_GPA + GUEST_SIZE - 16, 32 };
		uint8_t e[NNC_FW_LOAD_ELF_REQ_LEN] = { 0 };

		put_le32(e, NNC_FW_CMD_LOAD_ELF_REQ);
		put_le32(e + 4, 7);
		put_le64(e + 80, 32);
		mb_init(1);
		mb_fw(e, sizeof(e));
		mb_dma(7, 0, &bad, 1);
		mb_send();
		CHECK_EQ(r_count(), 2);
		LOAD_RESULT(0, NNC_FW_CMD_LOAD_ELF_RESP, NNC_FW_DMA_ERROR);
		t = r_trans(1);
		CHECK(t && get_le32(t) == STATUS_FROM_DEV && get_le32(t + 12) == EMU_NNC_E_DMA);
	}
	CHECK_HOLDS(0, 0, 1, 0);
	CHECK(counter("fw_err_dma 5\n"));

	/* Device memory: more than it holds */
	setup();
	emu_manager_set_mem_size(mgr, 0x4000);
	load_elf(1, 0x3000, 0, 0x3000);
	LOAD_RESULT(0, NNC_FW_CMD_LOAD_ELF_RESP, 0);
	load_elf(1, 0x2000, 0, 0x2000);		/* 0x1000 left */
	CHECK_EQ(r_count(), 2);
	LOAD_RESULT(0, NNC_FW_CMD_LOAD_ELF_RESP, NNC_FW_MEM_ALLOC_ERROR);
	t = r_trans(1);
	CHECK(t && get_le32(t) == STATUS_FROM_DEV && get_le32(t + 12) == EMU_NNC_E_NO_MEM);
	load_consts(1, 0, 0x1000, 0, 0x1000);
	LOAD_RESULT(0, NNC_FW_CMD_LOAD_CONSTANTS_RESP, 0);
	CHECK(counter("fw_mem_held 16384\n"));

	/* Constants: the CRC, if given, must be the bytes' */
	setup();
	load_consts(2, ref_crc(0, guest, 0x400) ^ 1, 0x400, 0, 0x400);
	LOAD_RESULT(0, NNC_FW_CMD_LOAD_CONSTANTS_RESP, NNC_FW_PARAMETER_ERROR);
	CHECK_EQ(tag_status(2, CONSTS_TAG), EMU_PT_E_NO_TAG);
	load_consts(2, 0, 0x400, 0, 0x400);
	LOAD_RESULT(0, NNC_FW_CMD_LOAD_CONSTANTS_RESP, 0);
	/* data_length 0: no transfer, no bytes */
	load_consts(2, 0, 0, 0, 0);
	LOAD_RESULT(0, NNC_FW_CMD_LOAD_CONSTANTS_RESP, 0);
	load_consts(2, 0x1234, 0, 0, 0);
	LOAD_RESULT(0, NNC_FW_CMD_LOAD_CONSTANTS_RESP, NNC_FW_PARAMETER_ERROR);
	load_consts(2, 0, NNC_FW_MAX_DATA + 1, 0, 0x10);
	LOAD_RESULT(0, NNC_FW_CMD_LOAD_CONSTANTS_RESP, NNC_FW_MEM_ALLOC_ERROR);
	CHECK_HOLDS(2, 0, 0, 0);

	/* The tables: 64 ELFs, 64 constants, all handles together */
	setup();
	for (unsigned int i = 0; i < NNC_FW_MAX_ELFS; i++) {
		load_elf(i % 3, 16, 16 * i, 16);
		ids[i] = LOAD_RESULT(0, NNC_FW_CMD_LOAD_ELF_RESP, 0);
	}
	load_elf(9, 16, 0, 16);
	LOAD_RESULT(0, NNC_FW_CMD_LOAD_ELF_RESP, NNC_FW_MEM_ALLOC_ERROR);
	CHECK_EQ(tag_status(9, ELF_TAG), EMU_PT_E_NO_TAG);
	for (unsigned int i = 0; i < NNC_FW_MAX_ELFS; i++)
		for (unsigned int k = 0; k < i; k++)
			if (ids[i] == ids[k] || !ids[i])
				CHECK(!"ids unique and non-zero");
	unload(1, NNC_FW_CMD_UNLOAD_ELF_REQ, ids[1]);
	STATUS_ONLY(0, NNC_FW_CMD_UNLOAD_ELF_RESP, 0);
	load_elf(9, 16, 0, 16);
	LOAD_RESULT(0, NNC_FW_CMD_LOAD_ELF_RESP, 0);
	for (unsigned int i = 0; i < NNC_FW_MAX_CONSTS; i++) {
		load_consts(4, 0, 0, 0, 0);
		LOAD_RESULT(0, NNC_FW_CMD_LOAD_CONSTANTS_RESP, 0);
	}
	load_consts(4, 0, 0, 0, 0);
	LOAD_RESULT(0, NNC_FW_CMD_LOAD_CONSTANTS_RESP, NNC_FW_MEM_ALLOC_ERROR);
	CHECK_HOLDS(64, 0, 64, 0);

	/* More waiting answers in one request than the card keeps: -1 */
	setup();
	mb_init(3);
	for (unsigned int i = 0; i <= NNC_FW_MAX_PENDING; i++) {
		cmd_load_consts(c, 50 + i, 0, 0);
		mb_fw(c, sizeof(c));
	}
	mb_send();
	CHECK_EQ(r_count(), NNC_FW_MAX_PENDING + 1);
	for (unsigned int i = 0; i < NNC_FW_MAX_PENDING; i++)
		LOAD_RESULT(i, NNC_FW_CMD_LOAD_CONSTANTS_RESP, 0);
	LOAD_RESULT(NNC_FW_MAX_PENDING, NNC_FW_CMD_LOAD_CONSTANTS_RESP, NNC_FW_ERROR);
}

/* Every command shorter than its layout: its own answer type, -17 */
static void test_short(void)
{
	static const struct {
		uint32_t type, len, resp, resp_len;
	} cases[] = {
		{ NNC_FW_CMD_LOAD_ELF_REQ, 88, NNC_FW_CMD_LOAD_ELF_RESP, 16 },
		{ NNC_FW_CMD_LOAD_ELF_REQ, 8, NNC_FW_CMD_LOAD_ELF_RESP, 16 },
		{ NNC_FW_CMD_LOAD_CONSTANTS_REQ, 80, NNC_FW_CMD_LOAD_CONSTANTS_RESP, 16 },
		{ NNC_FW_CMD_LOAD_CONSTANTS_EX_REQ, 72, NNC_FW_CMD_LOAD_CONSTANTS_RESP, 16 },
		{ NNC_FW_CMD_LOAD_CONSTANTS_PAYLOAD_REQ, 24, NNC_FW_CMD_LOAD_CONSTANTS_RESP, 16 },
		{ NNC_FW_CMD_ACTIVATE_REQ, 40, NNC_FW_CMD_ACTIVATE_RESP, 88 },
		{ NNC_FW_CMD_DEACTIVATE_REQ, 8, NNC_FW_CMD_DEACTIVATE_RESP, 8 },
		{ NNC_FW_CMD_ACTIVATE_STATE_CMD_REQ, 64, NNC_FW_CMD_ACTIVATE_STATE_CMD_RESP, 8 },
		{ NNC_FW_CMD_RESOURCE_INFO_REQ, 8, NNC_FW_CMD_RESOURCE_INFO_RESP, 56 },
	};
	uint8_t c[128] = { 0 };

	setup();
	for (unsigned int i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const uint8_t *a;
		int32_t st;

		memset(c, 0, sizeof(c));
		put_le32(c, cases[i].type);
		put_le64(c + 16, 16);
		mb_init(1);
		mb_fw_raw(c, cases[i].len);
		mb_dma1(ELF_TAG, 0, 16);
		mb_activate();
		mb_send();
		a = fw_ans(0, cases[i].resp, cases[i].resp_len);
		st = !a ? 1 : cases[i].resp_len == 16 ? s32(a + 8) :
		     cases[i].resp_len == 56 ? s32(a + 48) : s32(a + 4);
		if (st != NNC_FW_CMD_LENGTH_ERROR) {
			fprintf(stderr, "short case %u (type %u, %u bytes): answer %s, status %d\n",
				i, cases[i].type, cases[i].len, a ? "ok" : "wrong", st);
			emu_test_failures++;
		}
		if (cases[i].resp_len == 16)
			CHECK(a && get_le32(a + 4) == 0);
	}
	/* The EX descriptor longer than what came */
	put_le32(c, NNC_FW_CMD_LOAD_CONSTANTS_EX_REQ);
	put_le32(c + 72, 17);
	mb_init(1);
	mb_fw_raw(c, 96);
	mb_send();
	LOAD_RESULT(0, NNC_FW_CMD_LOAD_CONSTANTS_RESP, NNC_FW_CMD_LENGTH_ERROR);
	put_le32(c + 72, 16);
	mb_init(1);
	mb_fw_raw(c, 96);
	mb_send();
	LOAD_RESULT(0, NNC_FW_CMD_LOAD_CONSTANTS_RESP, 0);
	CHECK(counter("fw_err_length 10\n"));
	CHECK_HOLDS(1, 0, 0, 0);
}

/* ACTIVATE_REQ that cannot be: the status, and what becomes of the DBC */
static void test_activate_errors(void)
{
	uint8_t c[NNC_FW_ACTIVATE_REQ_LEN];
	const uint8_t *a, *t;
	uint32_t elf, elf2, consts;

	setup();
	load_elf(1, 0x100, 0, 0x100);
	elf = LOAD_RESULT(0, NNC_FW_CMD_LOAD_ELF_RESP, 0);
	load_consts(1, 0, 0x100, 0, 0x100);
	consts = LOAD_RESULT(0, NNC_FW_CMD_LOAD_CONSTANTS_RESP, 0);
	load_elf(2, 0x100, 0, 0x100);
	elf2 = LOAD_RESULT(0, NNC_FW_CMD_LOAD_ELF_RESP, 0);

	/* Unknown ELF: -11, no activation; the ACTIVATE still granted a DBC */
	a = activate(1, 0x7fff, 0, true);
	CHECK(a && s32(a + 4) == NNC_FW_RESOURCE_NOT_FOUND && get_le32(a + 8) == 0 &&
	      get_le32(a + 12) == 0 && get_le32(a + 82) == 0);
	CHECK_EQ(r_count(), 2);
	CHECK_EQ(granted(), 0);
	CHECK(emu_manager_dbc(mgr, 0)->active);
	/* Unknown constants, another handle's ELF or constants */
	a = activate(1, elf, 0x7fff, true);
	CHECK(a && s32(a + 4) == NNC_FW_RESOURCE_NOT_FOUND);
	a = activate(1, elf2, 0, true);
	CHECK(a && s32(a + 4) == NNC_FW_RESOURCE_NOT_FOUND);
	a = activate(2, elf2, consts, true);
	CHECK(a && s32(a + 4) == NNC_FW_RESOURCE_NOT_FOUND);
	CHECK_HOLDS(1, 0, 2, 0);

	/* A VC asked for and none granted */
	setup();
	load_elf(1, 0x100, 0, 0x100);
	elf = LOAD_RESULT(0, NNC_FW_CMD_LOAD_ELF_RESP, 0);
	a = activate(1, elf, 0, false);
	CHECK_EQ(r_count(), 1);
	CHECK(a && s32(a + 4) == NNC_FW_VC_ALLOC_ERROR && get_le32(a + 8) == 0);
	cmd_activate(c, elf, 0);
	mb_init(1);
	mb_fw(c, sizeof(c));
	{
		uint8_t *p = mb_trans(ACT_TO_DEV, 40);	/* rings of different sizes */

		put_le64(p + 8, RING_GPA);
		put_le64(p + 16, RING_GPA + 0x1000);
		put_le32(p + 24, 16);
		put_le32(p + 28, 8);
		put_le32(p + 32, 0x2000);
	}
	mb_send();
	CHECK_EQ(r_count(), 2);
	a = fw_ans(0, NNC_FW_CMD_ACTIVATE_RESP, 88);
	CHECK(a && s32(a + 4) == NNC_FW_VC_ALLOC_ERROR);
	t = r_trans(1);
	CHECK(t && get_le32(t) == ACT_FROM_DEV && get_le32(t + 8) == EMU_NNC_E_RANGE);
	/* No VC set up: there is no reservation to take one from */
	cmd_activate(c, elf, 0);
	put_le32(c + 24, 0);
	mb_init(1);
	mb_fw(c, sizeof(c));
	mb_send();
	a = fw_ans(0, NNC_FW_CMD_ACTIVATE_RESP, 88);
	CHECK(a && s32(a + 4) == NNC_FW_VC_ALLOC_ERROR);
	put_le32(c + 28, 3);				/* vc_res_id 3 */
	mb_init(1);
	mb_fw(c, sizeof(c));
	mb_send();
	a = fw_ans(0, NNC_FW_CMD_ACTIVATE_RESP, 88);
	CHECK(a && s32(a + 4) == NNC_FW_RESOURCE_NOT_FOUND);
	/* A reservation, bad fields */
	cmd_activate(c, elf, 0);
	put_le32(c + 16, 1);				/* reservation_type */
	mb_init(1);
	mb_fw(c, sizeof(c));
	mb_activate();
	mb_send();
	a = fw_ans(0, NNC_FW_CMD_ACTIVATE_RESP, 88);
	CHECK(a && s32(a + 4) == NNC_FW_RESOURCE_NOT_FOUND);
	cmd_activate(c, elf, 0);
	put_le32(c + 24, 2);				/* opt_vc_setup */
	mb_init(1);
	mb_fw(c, sizeof(c));
	mb_send();
	a = fw_ans(0, NNC_FW_CMD_ACTIVATE_RESP, 88);
	CHECK(a && s32(a + 4) == NNC_FW_PARAMETER_ERROR);
	cmd_activate(c, elf, 0);
	put_le32(c + 32, 3);				/* initial state */
	mb_init(1);
	mb_fw(c, sizeof(c));
	mb_send();
	a = fw_ans(0, NNC_FW_CMD_ACTIVATE_RESP, 88);
	CHECK(a && s32(a + 4) == NNC_FW_PARAMETER_ERROR);
	/* Two ACTIVATE_REQs and one ACTIVATE: the first gets the DBC */
	cmd_activate(c, elf, 0);
	mb_init(1);
	mb_fw(c, sizeof(c));
	mb_fw(c, sizeof(c));
	mb_activate();
	mb_send();
	CHECK_EQ(r_count(), 3);
	a = fw_ans(0, NNC_FW_CMD_ACTIVATE_RESP, 88);
	CHECK(a && s32(a + 4) == 0);
	a = fw_ans(1, NNC_FW_CMD_ACTIVATE_RESP, 88);
	CHECK(a && s32(a + 4) == NNC_FW_VC_ALLOC_ERROR);
	CHECK_HOLDS(0, 0, 1, 1);
	CHECK(counter("fw_err_vc 4\n"));

	/* One activation per NSP: the 17th finds none (and no DBC either) */
	setup();
	load_elf(1, 0x100, 0, 0x100);
	elf = LOAD_RESULT(0, NNC_FW_CMD_LOAD_ELF_RESP, 0);
	for (unsigned int i = 0; i < 16; i++) {
		a = activate(1, elf, 0, true);
		CHECK(a && s32(a + 4) == 0 && get_le32(a + 12) == i &&
		      get_le32(a + 82) == 1u << i);
	}
	CHECK_HOLDS(0, 0, 1, 16);
	a = activate(1, elf, 0, true);
	CHECK(a && s32(a + 4) == NNC_FW_NSP_ALLOC_ERROR);
	t = r_trans(1);
	CHECK(t && get_le32(t) == ACT_FROM_DEV && get_le32(t + 8) == EMU_NNC_E_NO_DBC);
	unload(1, NNC_FW_CMD_UNLOAD_ELF_REQ, elf);
	STATUS_ONLY(0, NNC_FW_CMD_UNLOAD_ELF_RESP, NNC_FW_OPERATION_NOT_PERMITTED);

	/* An AIC080 has 14 NSPs: the 15th activation finds none */
	setup();
	dev.pci.card = emu_card_by_name("aic080");
	load_elf(1, 0x100, 0, 0x100);
	elf = LOAD_RESULT(0, NNC_FW_CMD_LOAD_ELF_RESP, 0);
	for (unsigned int i = 0; i < 14; i++) {
		a = activate(1, elf, 0, true);
		CHECK(a && s32(a + 4) == 0);
	}
	a = activate(1, elf, 0, true);
	CHECK(a && s32(a + 4) == NNC_FW_NSP_ALLOC_ERROR);
	CHECK_EQ(granted(), 14);
	dev.pci.card = NULL;
}

static unsigned int ssr_calls;

static int fake_ssr(void *ctx, unsigned int dbc, unsigned int mode,
		    unsigned int cycles)
{
	(void)ctx;
	(void)dbc;
	(void)mode;
	(void)cycles;
	ssr_calls++;
	return 0;
}

/* Load an ELF and activate it for @handle: the activation's id */
static uint32_t running(uint32_t handle, uint32_t *elf, int *dbc)
{
	const uint8_t *a;

	load_elf(handle, 0x200, 0x1000, 0x200);
	*elf = LOAD_RESULT(0, NNC_FW_CMD_LOAD_ELF_RESP, 0);
	a = activate(handle, *elf, 0, true);
	*dbc = granted();
	CHECK(a && s32(a + 4) == 0 && get_le32(a + 12) == (uint32_t)*dbc);
	return a ? get_le32(a + 8) : 0;
}

/*
 * DEACTIVATE_REQ without teardown keeps the DBC; a DBC released any
 * other way ends its activation too.
 */
static void test_deactivate(void)
{
	static const struct emu_card_ops ops = { .ssr = fake_ssr };
	uint32_t act, elf;
	const uint8_t *t;
	int dbc;

	setup();
	act = running(1, &elf, &dbc);
	/* Another handle's activation is not there for it */
	deactivate(2, act, 1);
	CHECK_EQ(r_count(), 1);
	STATUS_ONLY(0, NNC_FW_CMD_DEACTIVATE_RESP, NNC_FW_NO_NW_TO_DEACTIVATE);
	deactivate(1, act, 2);
	STATUS_ONLY(0, NNC_FW_CMD_DEACTIVATE_RESP, NNC_FW_PARAMETER_ERROR);
	CHECK_HOLDS(0, 0, 1, 1);
	deactivate(1, act, 0);
	CHECK_EQ(r_count(), 1);
	STATUS_ONLY(0, NNC_FW_CMD_DEACTIVATE_RESP, 0);
	CHECK(emu_manager_dbc(mgr, dbc)->active);
	CHECK_HOLDS(0, 0, 1, 0);
	/* The DBC can run a new activation */
	mb_init(1);
	{
		uint8_t c[NNC_FW_ACTIVATE_REQ_LEN];

		cmd_activate(c, elf, 0);
		mb_fw(c, sizeof(c));
	}
	mb_send();
	t = fw_ans(0, NNC_FW_CMD_ACTIVATE_RESP, 88);
	CHECK(t && s32(t + 4) == NNC_FW_VC_ALLOC_ERROR);	/* no ACTIVATE */

	/* EMU_PT_DEACTIVATE */
	setup();
	act = running(1, &elf, &dbc);
	mb_init(1);
	mb_pt(EMU_PT_DEACTIVATE, (uint32_t)dbc, NULL, 0);
	mb_send();
	CHECK_HOLDS(0, 0, 1, 0);
	deactivate(1, act, 1);
	STATUS_ONLY(0, NNC_FW_CMD_DEACTIVATE_RESP, NNC_FW_NO_NW_TO_DEACTIVATE);
	CHECK_EQ(r_count(), 1);
	unload(1, NNC_FW_CMD_UNLOAD_ELF_REQ, elf);
	STATUS_ONLY(0, NNC_FW_CMD_UNLOAD_ELF_RESP, 0);
	CHECK(counter("fw_activations_ended 1\n"));

	/* A subsystem restart of the DBC */
	setup();
	emu_manager_set_card_ops(mgr, &ops, NULL);
	act = running(1, &elf, &dbc);
	mb_init(9);
	mb_pt(EMU_PT_SSR, (uint32_t)dbc, NULL, 0);
	mb_send();
	CHECK_EQ(ssr_calls, 1);
	CHECK_HOLDS(0, 0, 1, 0);
	CHECK(emu_nnc_fw_activation(emu_manager_fw(mgr), act, NULL, NULL, NULL, NULL, NULL) != 0);
	emu_manager_set_card_ops(mgr, NULL, NULL);

	/* The card's reset: everything goes */
	setup();
	act = running(1, &elf, &dbc);
	load_consts(2, 0, 0x300, 0, 0x300);
	LOAD_RESULT(0, NNC_FW_CMD_LOAD_CONSTANTS_RESP, 0);
	CHECK_HOLDS(1, 0, 1, 1);
	emu_manager_reset(mgr);
	CHECK_HOLDS(0, 0, 0, 0);
	CHECK(counter("fw_mem_held 0\n"));
	CHECK(counter("nnc_mem_used 0\n"));
	CHECK_EQ(get_le32(status() + SR_DRAM_FREE), 16384);
	/* Ids keep counting: the old ones are not found */
	deactivate(1, act, 1);
	STATUS_ONLY(0, NNC_FW_CMD_DEACTIVATE_RESP, NNC_FW_NO_NW_TO_DEACTIVATE);
	load_elf(1, 0x100, 0, 0x100);
	CHECK(LOAD_RESULT(0, NNC_FW_CMD_LOAD_ELF_RESP, 0) > act);
}

/*
 * Programs belong to the handle that loaded them: another handle's ids
 * are not found; TERMINATE of the handle frees them all, and only them.
 */
static void test_ownership(void)
{
	uint32_t act1, elf1, act2, elf2, consts1;
	uint8_t c[NNC_FW_STATE_CMD_REQ_LEN] = { 0 };
	int dbc1, dbc2;

	setup();
	act1 = running(1, &elf1, &dbc1);
	load_consts(1, 0, 0x80, 0, 0x80);
	consts1 = LOAD_RESULT(0, NNC_FW_CMD_LOAD_CONSTANTS_RESP, 0);
	act2 = running(2, &elf2, &dbc2);
	CHECK_HOLDS(1, 0, 2, 2);

	unload(2, NNC_FW_CMD_UNLOAD_ELF_REQ, elf1);
	STATUS_ONLY(0, NNC_FW_CMD_UNLOAD_ELF_RESP, NNC_FW_RESOURCE_NOT_FOUND);
	unload(2, NNC_FW_CMD_UNLOAD_CONSTANTS_REQ, consts1);
	STATUS_ONLY(0, NNC_FW_CMD_UNLOAD_CONSTANTS_RESP, NNC_FW_RESOURCE_NOT_FOUND);
	put_le32(c, NNC_FW_CMD_ACTIVATE_STATE_CMD_REQ);
	put_le32(c + 4, 1);
	put_le32(c + 8, act1);
	put_le32(c + 12, 1);
	mb_init(2);
	mb_fw(c, sizeof(c));
	mb_send();
	STATUS_ONLY(0, NNC_FW_CMD_ACTIVATE_STATE_CMD_RESP, NNC_FW_RESOURCE_NOT_FOUND);

	/* TERMINATE of handle 1 */
	mb_init(1);
	put_le32(mb_trans(TERM_TO_DEV, 16) + 8, 1);
	mb_send();
	CHECK_HOLDS(0, 0, 1, 1);
	CHECK(!emu_manager_dbc(mgr, dbc1)->active);
	CHECK(emu_manager_dbc(mgr, dbc2)->active);
	CHECK(emu_nnc_fw_activation(emu_manager_fw(mgr), act2, NULL, NULL, NULL, NULL, NULL) == 0);
	deactivate(1, act1, 0);
	STATUS_ONLY(0, NNC_FW_CMD_DEACTIVATE_RESP, NNC_FW_NO_NW_TO_DEACTIVATE);
	CHECK(counter("fw_mem_held 512\n"));
	mb_init(2);
	put_le32(mb_trans(TERM_TO_DEV, 16) + 8, 2);
	mb_send();
	CHECK_HOLDS(0, 0, 0, 0);
	CHECK(counter("fw_mem_held 0\n"));
	CHECK(counter("fw_activations_active 0\n"));
}

/* LOAD_CONSTANTS_EX and its payloads */
static void test_constants_ex(void)
{
	uint8_t c[NNC_FW_LOAD_CONSTANTS_EX_REQ_LEN + 24] = { 0 };
	uint8_t p[NNC_FW_LOAD_PAYLOAD_REQ_LEN];
	uint8_t *want = calloc(1, 0x2000);
	struct emu_nnc_fw_item it;
	uint32_t id, other, elf;
	const uint8_t *a;

	setup();
	if (!want)
		abort();
	put_le32(c, NNC_FW_CMD_LOAD_CONSTANTS_EX_REQ);
	put_le32(c + 4, 4242);
	memcpy(c + 8, "ex", 2);
	put_le32(c + 72, 24);			/* a descriptor of 24 bytes */
	memset(c + 80, 0x5c, 24);
	mb_init(1);
	mb_fw(c, sizeof(c));
	mb_send();
	CHECK_EQ(r_count(), 1);
	id = LOAD_RESULT(0, NNC_FW_CMD_LOAD_CONSTANTS_RESP, 0);
	CHECK_HOLDS(1, 0, 0, 0);
	CHECK(emu_nnc_fw_lookup(emu_manager_fw(mgr), true, id, &it) == 0 && it.len == 0);

#define PAYLOAD(handle, cid, len, off, dma_off, dma_len)		\
	do {								\
		memset(p, 0, sizeof(p));				\
		put_le32(p, NNC_FW_CMD_LOAD_CONSTANTS_PAYLOAD_REQ);	\
		put_le32(p + 8, CONSTS_TAG);				\
		put_le32(p + 12, cid);					\
		put_le64(p + 16, len);					\
		put_le64(p + 24, off);					\
		mb_init(handle);					\
		mb_fw(p, sizeof(p));					\
		if (dma_len)						\
			mb_dma1(CONSTS_TAG, dma_off, dma_len);		\
		mb_send();						\
	} while (0)

	/* At 0x1000: the region grows to 0x1800, zeros before */
	PAYLOAD(1, id, 0x800, 0x1000, 0x40000, 0x800);
	CHECK_EQ(LOAD_RESULT(0, NNC_FW_CMD_LOAD_CONSTANTS_RESP, 0), id);
	memcpy(want + 0x1000, guest + 0x40000, 0x800);
	CHECK(emu_nnc_fw_lookup(emu_manager_fw(mgr), true, id, &it) == 0 &&
	      it.len == 0x1800 && it.crc == ref_crc(0, want, 0x1800));
	CHECK(counter("fw_mem_held 6144\n"));
	CHECK_EQ(tag_status(1, CONSTS_TAG), EMU_PT_E_NO_TAG);
	/* At 0x100, inside */
	PAYLOAD(1, id, 0x100, 0x100, 0x50000, 0x100);
	CHECK_EQ(LOAD_RESULT(0, NNC_FW_CMD_LOAD_CONSTANTS_RESP, 0), id);
	memcpy(want + 0x100, guest + 0x50000, 0x100);
	CHECK(emu_nnc_fw_lookup(emu_manager_fw(mgr), true, id, &it) == 0 &&
	      it.len == 0x1800 && it.crc == ref_crc(0, want, 0x1800));
	/* Errors */
	PAYLOAD(2, id, 0x100, 0, 0, 0x100);		/* another handle's */
	LOAD_RESULT(0, NNC_FW_CMD_LOAD_CONSTANTS_RESP, NNC_FW_RESOURCE_NOT_FOUND);
	PAYLOAD(1, 0x7fff, 0x100, 0, 0, 0x100);
	LOAD_RESULT(0, NNC_FW_CMD_LOAD_CONSTANTS_RESP, NNC_FW_RESOURCE_NOT_FOUND);
	PAYLOAD(1, id, 0x100, 0, 0, 0x80);		/* short transfer */
	LOAD_RESULT(0, NNC_FW_CMD_LOAD_CONSTANTS_RESP, NNC_FW_DMA_ERROR);
	PAYLOAD(1, id, 0, 0, 0, 0);
	LOAD_RESULT(0, NNC_FW_CMD_LOAD_CONSTANTS_RESP, NNC_FW_PARAMETER_ERROR);
	PAYLOAD(1, id, 0x100, NNC_FW_MAX_DATA - 0x80, 0, 0x100);
	LOAD_RESULT(0, NNC_FW_CMD_LOAD_CONSTANTS_RESP, NNC_FW_MEM_ALLOC_ERROR);
	PAYLOAD(1, id, 0x100, ~0ull - 0x10, 0, 0x100);
	LOAD_RESULT(0, NNC_FW_CMD_LOAD_CONSTANTS_RESP, NNC_FW_MEM_ALLOC_ERROR);
	emu_manager_set_mem_size(mgr, 0x3000);		/* 0x1800 held */
	PAYLOAD(1, id, 0x100, 0x2f01, 0, 0x100);	/* grows by 0x1801 */
	LOAD_RESULT(0, NNC_FW_CMD_LOAD_CONSTANTS_RESP, NNC_FW_MEM_ALLOC_ERROR);
	PAYLOAD(1, id, 0x100, 0x2f00, 0, 0x100);	/* by 0x1800: just fits */
	LOAD_RESULT(0, NNC_FW_CMD_LOAD_CONSTANTS_RESP, 0);
	CHECK(counter("fw_mem_held 12288\n"));
	emu_manager_set_mem_size(mgr, EMU_MGR_DEFAULT_MEM);
	/* Payloads go to EX regions only */
	load_consts(1, 0, 0x10, 0, 0x10);
	other = LOAD_RESULT(0, NNC_FW_CMD_LOAD_CONSTANTS_RESP, 0);
	PAYLOAD(1, other, 0x10, 0, 0, 0x10);
	LOAD_RESULT(0, NNC_FW_CMD_LOAD_CONSTANTS_RESP, NNC_FW_PARAMETER_ERROR);
	/* Nor to constants an activation uses */
	load_elf(1, 0x10, 0, 0x10);
	elf = LOAD_RESULT(0, NNC_FW_CMD_LOAD_ELF_RESP, 0);
	a = activate(1, elf, id, true);
	CHECK(a && s32(a + 4) == 0);
	CHECK_HOLDS(2, 1, 1, 1);
	PAYLOAD(1, id, 0x10, 0, 0, 0x10);
	LOAD_RESULT(0, NNC_FW_CMD_LOAD_CONSTANTS_RESP, NNC_FW_OPERATION_NOT_PERMITTED);
	CHECK(counter("fw_consts_payloads 3\n"));
#undef PAYLOAD
	free(want);
}

/* ACTIVATE_STATE_CMD, RESOURCE_INFO, PERFORMANCE_INFO */
static void test_state_and_info(void)
{
	uint8_t c[NNC_FW_STATE_CMD_REQ_LEN];
	uint32_t act1, act2, elf;
	const uint8_t *a;
	int32_t state;
	int dbc;

	setup();
	act1 = running(1, &elf, &dbc);
	act2 = running(1, &elf, &dbc);

#define STATE_CMD(n, ...)						\
	do {								\
		const uint32_t v[] = { __VA_ARGS__ };			\
		memset(c, 0, sizeof(c));				\
		put_le32(c, NNC_FW_CMD_ACTIVATE_STATE_CMD_REQ);		\
		put_le32(c + 4, n);					\
		for (unsigned int i = 0; i < sizeof(v) / 4; i++)	\
			put_le32(c + 8 + 4 * i, v[i]);			\
		mb_init(1);						\
		mb_fw(c, sizeof(c));					\
		mb_send();						\
	} while (0)

	STATE_CMD(2, act1, 1, act2, 2);
	STATUS_ONLY(0, NNC_FW_CMD_ACTIVATE_STATE_CMD_RESP, 0);
	CHECK(emu_nnc_fw_activation(emu_manager_fw(mgr), act1, NULL, NULL, NULL, NULL, &state) == 0 &&
	      state == 1);
	CHECK(emu_nnc_fw_activation(emu_manager_fw(mgr), act2, NULL, NULL, NULL, NULL, &state) == 0 &&
	      state == 2);
	STATE_CMD(0, 0);
	STATUS_ONLY(0, NNC_FW_CMD_ACTIVATE_STATE_CMD_RESP, NNC_FW_SWITCH_PARAM_ERROR);
	STATE_CMD(9, act1, 0);
	STATUS_ONLY(0, NNC_FW_CMD_ACTIVATE_STATE_CMD_RESP, NNC_FW_SWITCH_PARAM_ERROR);
	/* All or nothing */
	STATE_CMD(2, act1, 0, act2, 3);
	STATUS_ONLY(0, NNC_FW_CMD_ACTIVATE_STATE_CMD_RESP, NNC_FW_PARAMETER_ERROR);
	STATE_CMD(2, act1, 0, 0x7fff, 0);
	STATUS_ONLY(0, NNC_FW_CMD_ACTIVATE_STATE_CMD_RESP, NNC_FW_RESOURCE_NOT_FOUND);
	CHECK(emu_nnc_fw_activation(emu_manager_fw(mgr), act1, NULL, NULL, NULL, NULL, &state) == 0 &&
	      state == 1);
#undef STATE_CMD

	/* RESOURCE_INFO of the system (-1): what the status says */
	memset(c, 0, sizeof(c));
	put_le32(c, NNC_FW_CMD_RESOURCE_INFO_REQ);
	put_le32(c + 8, 0xffffffffu);
	mb_init(1);
	mb_fw(c, NNC_FW_RESOURCE_INFO_REQ_LEN);
	mb_send();
	a = fw_ans(0, NNC_FW_CMD_RESOURCE_INFO_RESP, NNC_FW_RESOURCE_INFO_RESP_LEN);
	CHECK(a != NULL);
	if (a) {
		const uint8_t *s;
		uint8_t info[40];

		memcpy(info, a + 8, 40);
		CHECK_EQ(get_le32(a + 4), 0xffffffffu);
		CHECK_EQ(get_le32(a + 48), 0);
		CHECK_EQ(get_le32(a + 52), 0);
		s = status();
		CHECK(!memcmp(info, s + 168, 40));
		CHECK(get_le32(info) == 16384 && info[12] == 16 && info[13] == 14);
	}
	put_le32(c + 8, 5);
	mb_init(1);
	mb_fw(c, NNC_FW_RESOURCE_INFO_REQ_LEN);
	mb_send();
	a = fw_ans(0, NNC_FW_CMD_RESOURCE_INFO_RESP, NNC_FW_RESOURCE_INFO_RESP_LEN);
	CHECK(a && get_le32(a + 4) == 5 && s32(a + 48) == NNC_FW_RESOURCE_NOT_FOUND &&
	      get_le32(a + 8) == 0);

	/* PERFORMANCE_INFO: the status's performance part */
	memset(c, 0, sizeof(c));
	put_le32(c, NNC_FW_CMD_PERFORMANCE_INFO_REQ);
	mb_init(1);
	mb_fw(c, NNC_FW_PERF_INFO_REQ_LEN);
	mb_send();
	a = fw_ans(0, NNC_FW_CMD_PERFORMANCE_INFO_RESP, NNC_FW_PERF_INFO_RESP_LEN);
	CHECK(a != NULL);
	if (a) {
		uint8_t perf[56];

		memcpy(perf, a + 8, 56);
		CHECK_EQ(get_le32(a + 4), 0);
		CHECK(!memcmp(perf, status() + 208, 56));
		CHECK_EQ(get_le32(perf), 1450000000);
	}

	/* What stays undefined: reservations, DEVICE_CONFIG, TERMINATE_REQ */
	{
		static const uint32_t undefined[] = { 17, 19, 22, 24, 26, 28, 30, 38, 44 };

		for (unsigned int i = 0; i < sizeof(undefined) / 4; i++) {
			memset(c, 0, sizeof(c));
			put_le32(c, undefined[i]);
			mb_init(1);
			mb_fw(c, 64);
			mb_send();
			a = fw_ans(0, NNC_FW_CMD_UNDEFINED, NNC_FW_ERROR_RESP_LEN);
			CHECK(a && s32(a + 4) == NNC_FW_UNDEFINED_REQUEST);
		}
	}
	CHECK(counter("fw_err_undefined 9\n"));
	CHECK(counter("fw_state_cmds 1\n"));
}

/*
 * A large ELF in a continued transfer, as the driver cuts it: the answer
 * to the first message is deferred, the LOAD_ELF_RESP completed when the
 * last part came; a failed part fails the load, an abort drops it.
 */
static void test_continuation(void)
{
	/* Linux 6.12 cuts a part with < 1 KiB + 16 bytes left of 64 KiB */
	const uint32_t pt = 8 + NNC_FW_LOAD_ELF_REQ_LEN + 8;
	const uint32_t n = (0x10000 - 32 - pt - 24 - 1030) / 16;
	static struct seg s[4096];
	uint8_t c[NNC_FW_LOAD_ELF_REQ_LEN] = { 0 };
	struct emu_nnc_fw_item it;
	uint32_t crc = 0, elf;
	const uint8_t *t;

	setup();
	for (uint32_t i = 0; i < 4096; i++) {
		s[i] = (struct seg){ GUEST_GPA + 64 * i + (i & 7), 40 };
		if (i < n + 10)
			crc = ref_crc(crc, guest + 64 * i + (i & 7), 40);
	}
	put_le32(c, NNC_FW_CMD_LOAD_ELF_REQ);
	put_le32(c + 4, ELF_TAG);
	put_le64(c + 80, 40ull * (n + 10));
	mb_init(3);
	mb_fw(c, sizeof(c));
	mb_dma(ELF_TAG, 41, s, n);
	CHECK(mb.len > 0x10000 - 1040);
	mb_send();
	t = r_trans(0);
	CHECK(t && r_count() == 1 && get_le32(t) == DMA_CONT && get_le32(t + 8) == 41 &&
	      get_le64(t + 16) == 40ull * n);
	CHECK_HOLDS(0, 0, 0, 0);
	mb_init(3);
	mb_dma(ELF_TAG, 41, s + n, 10);
	mb_send();
	CHECK_EQ(r_count(), 1);
	elf = LOAD_RESULT(0, NNC_FW_CMD_LOAD_ELF_RESP, 0);
	CHECK(emu_nnc_fw_lookup(emu_manager_fw(mgr), false, elf, &it) == 0 &&
	      it.len == 40ull * (n + 10) && it.crc == crc);
	CHECK_EQ(tag_status(3, ELF_TAG), EMU_PT_E_NO_TAG);
	CHECK_HOLDS(0, 0, 1, 0);

	/*
	 * The firmware knows the size: a last part that fills its message
	 * too ends the transfer all the same (the guess would ask for more),
	 * and a first part that brought it all is the last.
	 */
	{
		const uint32_t n2 = (0x10000 - 32 - 24) / 16;

		crc = 0;
		for (uint32_t i = 0; i < n; i++)
			crc = ref_crc(crc, guest + 64 * i + (i & 7), 40);
		for (uint32_t i = 0; i < n2; i++)
			crc = ref_crc(crc, guest + 64 * i + (i & 7), 40);
		put_le64(c + 80, 40ull * (n + n2));
		mb_init(3);
		mb_fw(c, sizeof(c));
		mb_dma(ELF_TAG, 47, s, n);
		mb_send();
		t = r_trans(0);
		CHECK(t && get_le32(t) == DMA_CONT && get_le64(t + 16) == 40ull * n);
		mb_init(3);
		mb_dma(ELF_TAG, 47, s, n2);
		CHECK_EQ(mb.len, 0x10000 - 8);
		mb_send();
		CHECK_EQ(r_count(), 1);
		elf = LOAD_RESULT(0, NNC_FW_CMD_LOAD_ELF_RESP, 0);
		CHECK(emu_nnc_fw_lookup(emu_manager_fw(mgr), false, elf, &it) == 0 &&
		      it.len == 40ull * (n + n2) && it.crc == crc);
		unload(3, NNC_FW_CMD_UNLOAD_ELF_REQ, elf);
		STATUS_ONLY(0, NNC_FW_CMD_UNLOAD_ELF_RESP, 0);

		put_le64(c + 80, 40ull * n);
		mb_init(3);
		mb_fw(c, sizeof(c));
		mb_dma(ELF_TAG, 48, s, n);
		mb_send();
		CHECK_EQ(r_count(), 1);
		LOAD_RESULT(0, NNC_FW_CMD_LOAD_ELF_RESP, 0);
		/* A part not full is the last, whatever data_length says */
		put_le64(c + 80, 40ull * (n + 10));
		mb_init(3);
		mb_fw(c, sizeof(c));
		mb_dma(ELF_TAG, 49, s, n);
		mb_send();
		t = r_trans(0);
		CHECK(t && get_le32(t) == DMA_CONT);
		mb_init(3);
		mb_dma(ELF_TAG, 49, s, 5);
		mb_send();
		CHECK_EQ(r_count(), 1);
		LOAD_RESULT(0, NNC_FW_CMD_LOAD_ELF_RESP, NNC_FW_DMA_ERROR);
		CHECK_EQ(tag_status(3, ELF_TAG), EMU_PT_E_NO_TAG);
	}
	CHECK_HOLDS(0, 0, 2, 0);

	/*
	 * Announced, in three parts, after another passthrough: the answers
	 * come in order, the LOAD_ELF_RESP second, completed.
	 */
	{
		uint8_t x[8];

		put_le64(x, 40 * 30);
		put_le64(c + 80, 40 * 30);
		mb_init(3);
		mb_pt(EMU_PT_XFER_EXPECT, ELF_TAG, x, 8);
		mb_fw(c, sizeof(c));
		mb_dma(ELF_TAG, 42, s, 10);
		mb_send();
		t = r_trans(0);
		CHECK(t && get_le32(t) == DMA_CONT && get_le64(t + 16) == 400);
		mb_init(3);
		mb_dma(ELF_TAG, 42, s + 10, 10);
		mb_send();
		t = r_trans(0);
		CHECK(t && get_le32(t) == DMA_CONT && get_le64(t + 16) == 800);
		mb_init(3);
		mb_dma(ELF_TAG, 42, s + 20, 10);
		mb_send();
		CHECK_EQ(r_count(), 2);
		t = r_trans(0);
		CHECK(t && get_le32(t) == PT_FROM_DEV && get_le32(t + 8) == EMU_PT_XFER_EXPECT);
		elf = LOAD_RESULT(1, NNC_FW_CMD_LOAD_ELF_RESP, 0);
		crc = 0;
		for (unsigned int i = 0; i < 30; i++)
			crc = ref_crc(crc, guest + 64 * i + (i & 7), 40);
		CHECK(emu_nnc_fw_lookup(emu_manager_fw(mgr), false, elf, &it) == 0 &&
		      it.len == 1200 && it.crc == crc);

		/* Announced more than data_length: the load says the DMA was wrong */
		put_le64(c + 80, 40 * 15);
		mb_init(3);
		mb_pt(EMU_PT_XFER_EXPECT, ELF_TAG, x, 8);
		mb_fw(c, sizeof(c));
		mb_dma(ELF_TAG, 43, s, 10);
		mb_send();
		mb_init(3);
		mb_dma(ELF_TAG, 43, s + 10, 20);
		mb_send();
		CHECK_EQ(r_count(), 2);
		LOAD_RESULT(1, NNC_FW_CMD_LOAD_ELF_RESP, NNC_FW_DMA_ERROR);
		CHECK_EQ(tag_status(3, ELF_TAG), EMU_PT_E_NO_TAG);

		/* A part that fails: the deferred answers, the load failed */
		put_le64(c + 80, 40 * 30);
		mb_init(3);
		mb_pt(EMU_PT_XFER_EXPECT, ELF_TAG, x, 8);
		mb_fw(c, sizeof(c));
		mb_dma(ELF_TAG, 44, s, 10);
		mb_send();
		mb_init(3);
		{
			struct seg bad = { 0x10, 0x10 };

			mb_dma(ELF_TAG, 44, &bad, 1);
		}
		mb_send();
		CHECK_EQ(r_count(), 3);
		LOAD_RESULT(1, NNC_FW_CMD_LOAD_ELF_RESP, NNC_FW_DMA_ERROR);
		t = r_trans(2);
		CHECK(t && get_le32(t) == STATUS_FROM_DEV && get_le32(t + 12) == EMU_NNC_E_DMA);
		CHECK_EQ(tag_status(3, ELF_TAG), EMU_PT_E_NO_TAG);

		/* Aborted: no answer, nothing loaded */
		mb_init(3);
		mb_pt(EMU_PT_XFER_EXPECT, ELF_TAG, x, 8);
		mb_fw(c, sizeof(c));
		mb_dma(ELF_TAG, 45, s, 10);
		mb_send();
		mb_init(3);
		mb_dma(0, 45, NULL, 0);
		mb_send();
		CHECK_EQ(r_count(), 0);
		CHECK_EQ(tag_bytes(3, ELF_TAG), 0);
	}
	CHECK_HOLDS(0, 0, 3, 0);
	CHECK(counter("nnc_mem_used 0\n"));

	/* A constants payload continued, and the ACTIVATE in the first part */
	{
		uint8_t x[8], a[NNC_FW_ACTIVATE_REQ_LEN];
		const uint8_t *r;

		cmd_activate(a, elf, 0);
		put_le64(x, 40 * 20);
		cmd_load_consts(c, CONSTS_TAG, 0, 40 * 20);
		mb_init(3);
		mb_fw(a, sizeof(a));
		mb_pt(EMU_PT_XFER_EXPECT, CONSTS_TAG, x, 8);
		mb_fw(c, NNC_FW_LOAD_CONSTANTS_REQ_LEN);
		mb_activate();
		mb_dma(CONSTS_TAG, 46, s, 10);
		mb_send();
		t = r_trans(0);
		CHECK(t && get_le32(t) == DMA_CONT);
		mb_init(3);
		mb_dma(CONSTS_TAG, 46, s + 10, 10);
		mb_send();
		CHECK_EQ(r_count(), 4);
		r = fw_ans(0, NNC_FW_CMD_ACTIVATE_RESP, 88);
		CHECK(r && s32(r + 4) == 0 && get_le32(r + 12) == 0);
		LOAD_RESULT(2, NNC_FW_CMD_LOAD_CONSTANTS_RESP, 0);
		t = r_trans(3);
		CHECK(t && get_le32(t) == ACT_FROM_DEV && get_le32(t + 12) == 0);
		CHECK_HOLDS(1, 0, 3, 1);
	}
}

/* A random small number below @n */
static uint32_t rnd(uint32_t n)
{
	return (uint32_t)(emu_test_rnd() % n);
}

/*
 * Random lifecycles: commands mostly well formed, with ids the card gave
 * (or not), transfers of the right length (or not), ACTIVATEs, releases
 * of DBCs, terminates and resets in between. No crash, every answer
 * whole, and once every handle terminated nothing is left.
 */
static void test_fuzz(void)
{
	static const uint32_t types[] = { 1, 3, 3, 5, 7, 9, 9, 11, 13, 15, 16, 32, 34, 36 };
	uint32_t pool[3][3][8] = { { { 0 } } };	/* handle, ELF/consts/activation */
	uint8_t c[128];

	setup();
	for (unsigned int round = 0; round < 6000; round++) {
		uint32_t handle = rnd(3), tag = rnd(3), type = types[rnd(14)];
		uint32_t (*ids)[8] = pool[rnd(12) ? handle : rnd(3)];
		uint32_t len = 0, id = rnd(300);
		uint64_t dlen = 1 + rnd(3000);
		const uint8_t *t;

		memset(c, 0, sizeof(c));
		put_le32(c, rnd(40) ? type : rnd(50));
		switch (type) {
		case NNC_FW_CMD_LOAD_ELF_REQ:
			put_le32(c + 4, tag);
			put_le64(c + 80, rnd(8) ? dlen : rnd(3));
			len = NNC_FW_LOAD_ELF_REQ_LEN;
			break;
		case NNC_FW_CMD_LOAD_CONSTANTS_REQ:
			put_le32(c + 8, tag);
			put_le64(c + 16, rnd(8) ? dlen : 0);
			len = NNC_FW_LOAD_CONSTANTS_REQ_LEN;
			break;
		case NNC_FW_CMD_LOAD_CONSTANTS_EX_REQ:
			len = NNC_FW_LOAD_CONSTANTS_EX_REQ_LEN + 8 * rnd(3);
			put_le32(c + 72, rnd(30));
			break;
		case NNC_FW_CMD_LOAD_CONSTANTS_PAYLOAD_REQ:
			put_le32(c + 8, tag);
			put_le32(c + 12, rnd(4) ? ids[1][rnd(8)] : id);
			put_le64(c + 16, dlen);
			put_le64(c + 24, rnd(8) ? rnd(0x4000) : emu_test_rnd());
			len = NNC_FW_LOAD_PAYLOAD_REQ_LEN;
			break;
		case NNC_FW_CMD_ACTIVATE_REQ:
			put_le32(c + 8, rnd(2) ? ids[1][rnd(8)] : 0);
			put_le32(c + 12, rnd(6) ? ids[0][rnd(8)] : id);
			put_le32(c + 24, rnd(10) ? 1 : rnd(3));
			put_le32(c + 28, 0xffffffffu);
			put_le32(c + 32, rnd(10) ? 0 : rnd(4));
			len = NNC_FW_ACTIVATE_REQ_LEN;
			break;
		case NNC_FW_CMD_DEACTIVATE_REQ:
			put_le32(c + 4, rnd(6) ? ids[2][rnd(8)] : id);
			put_le32(c + 8, rnd(2));
			len = NNC_FW_DEACTIVATE_REQ_LEN;
			break;
		case NNC_FW_CMD_ACTIVATE_STATE_CMD_REQ:
			put_le32(c + 4, rnd(10));
			for (unsigned int i = 0; i < 8; i++) {
				put_le32(c + 8 + 8 * i, ids[2][rnd(8)]);
				put_le32(c + 12 + 8 * i, rnd(4));
			}
			len = NNC_FW_STATE_CMD_REQ_LEN;
			break;
		case NNC_FW_CMD_RESOURCE_INFO_REQ:
			put_le32(c + 8, rnd(2) ? 0xffffffffu : rnd(3));
			len = 16;
			break;
		default:
			put_le32(c + 4, rnd(6) ? ids[type == NNC_FW_CMD_UNLOAD_CONSTANTS_REQ][rnd(8)] : id);
			len = 8;
			break;
		}
		if (!rnd(20))
			len = 8 * rnd(len / 8 + 1);
		mb_init(handle);
		if (len)
			mb_fw(c, len);
		else
			mb_fw_raw(c, 8);
		if (rnd(4))
			mb_dma1(rnd(8) ? tag : rnd(5), rnd(0x1000), rnd(6) ? dlen : 1 + rnd(64));
		if (type == NNC_FW_CMD_ACTIVATE_REQ ? rnd(8) != 0 : rnd(16) == 0)
			mb_activate();
		if (!rnd(100))
			put_le32(mb_trans(TERM_TO_DEV, 16) + 8, handle);
		if (!rnd(10))
			mb_pt(EMU_PT_DEACTIVATE, rnd(16), NULL, 0);
		mb_send();
		CHECK(r_count() >= 1 && r_trans(r_count() - 1) != NULL);
		/* Remember the ids the card gave */
		t = r_trans(0);
		if (t && get_le32(t) == PT_FROM_DEV && get_le32(t + 4) >= 24) {
			uint32_t kind = get_le32(t + 8) == NNC_FW_CMD_LOAD_ELF_RESP ? 0 :
					get_le32(t + 8) == NNC_FW_CMD_LOAD_CONSTANTS_RESP ? 1 :
					get_le32(t + 8) == NNC_FW_CMD_ACTIVATE_RESP ? 2 : 3;
			uint32_t got = kind < 3 ? get_le32(t + (kind == 2 ? 16 : 12)) : 0;

			if (got)
				pool[handle][kind][rnd(8)] = got;
		}
		if (!rnd(1500))
			emu_manager_reset(mgr);
	}
	CHECK(counter("fw_err_other 0\n"));
	for (uint32_t h = 0; h < 3; h++) {
		mb_init(h);
		put_le32(mb_trans(TERM_TO_DEV, 16) + 8, h);
		mb_send();
	}
	CHECK_HOLDS(0, 0, 0, 0);
	CHECK(counter("fw_mem_held 0\n"));
	CHECK(counter("nnc_mem_used 0\n"));
	CHECK(counter("nnc_dbc_active 0\n"));
}

/* ------------------------------------------------------------------ */
/* Device memory of a fake DBC engine: what activation placed */

#define DEV_MEM		(4u << 20)
static uint8_t dev_mem[DEV_MEM];

static int fake_write_mem(void *ctx __attribute__((unused)), uint64_t addr, const void *buf, uint64_t len)
{
	if (addr > DEV_MEM || len > DEV_MEM - addr)
		return -EFAULT;
	memcpy(dev_mem + addr, buf, len);
	return 0;
}

static const struct emu_dbc_ops fake_mem_ops = { .write_mem = fake_write_mem };

/*
 * An ELF image at guest offset @off: a workload program segment of 0x200
 * bytes for 0x100000 (then 0x100 zeroed), a data segment for 0x180000,
 * and a constants segment (no bytes) of @k_room at 0x200000. Its length.
 */
static uint64_t put_elf(uint64_t off, uint64_t k_room)
{
	uint8_t *img = guest + off;
	const uint64_t phoff = EMU_ELF_EHDR_LEN, data = phoff + 3 * EMU_ELF_PHDR_LEN;
	const struct { uint64_t off, filesz, paddr, memsz; } ph[3] = {
		{ data, 0x200, 0x100000, 0x300 },
		{ data + 0x200, 0x80, 0x180000, 0x80 },
		{ 0, 0, 0x200000, k_room },
	};

	memset(img, 0, data);
	memcpy(img, "\x7f" "ELF", 4);
	img[4] = 2;
	img[5] = 1;
	img[6] = 1;
	put_le64(img + 32, phoff);
	img[54] = EMU_ELF_PHDR_LEN;
	img[56] = 3;
	for (int i = 0; i < 3; i++) {
		uint8_t *h = img + phoff + i * EMU_ELF_PHDR_LEN;

		put_le32(h, 1);				/* PT_LOAD */
		put_le64(h + 8, ph[i].off);
		put_le64(h + 24, ph[i].paddr);
		put_le64(h + 32, ph[i].filesz);
		put_le64(h + 40, ph[i].memsz);
	}
	/* The program: a header whose semaphores name DBC 9 */
	put_le32(img + data, EMU_WL_MAGIC);
	put_le32(img + data + EMU_WL_H_WAIT_DBC, 9);
	put_le32(img + data + EMU_WL_H_SIG0_DBC, 9);
	put_le32(img + data + EMU_WL_H_SIG1_DBC, 9);
	return data + 0x280;
}

/*
 * An ELF's segments go to their device addresses at activation, the rest
 * of each zeroed; the constants into the segment without bytes; the
 * program's semaphores become the activation's DBC's; ddr_base is the
 * lowest segment. A malformed ELF, or constants too big for their
 * segment, are refused.
 */
static void test_elf_placement(void)
{
	const uint64_t img_off = 0x10000, k_off = 0x40000, k_len = 0x800;
	uint64_t len;
	uint32_t elf, consts;
	const uint8_t *a;
	int dbc;

	setup();
	emu_manager_set_dbc_ops(mgr, &fake_mem_ops, NULL);
	memset(dev_mem, 0xee, sizeof(dev_mem));
	len = put_elf(img_off, 0x1000);
	CHECK_EQ(load_elf(1, len, img_off, len), 1);
	elf = LOAD_RESULT(0, NNC_FW_CMD_LOAD_ELF_RESP, 0);
	CHECK_EQ(load_consts(1, 0, k_len, k_off, k_len), 1);
	consts = LOAD_RESULT(0, NNC_FW_CMD_LOAD_CONSTANTS_RESP, 0);
	/* Nothing placed before the activation */
	CHECK_EQ(dev_mem[0x100000], 0xee);
	a = activate(1, elf, consts, true);
	CHECK(a && s32(a + 4) == 0);
	dbc = granted();
	CHECK(dbc >= 0);
	CHECK(a && get_le64(a + 16) == 0x100000);
	CHECK(!memcmp(dev_mem + 0x100000 + 64, guest + img_off + 64 + 3 * 56 + 64, 0x200 - 64));
	CHECK_EQ(get_le32(dev_mem + 0x100000), EMU_WL_MAGIC);
	CHECK_EQ(get_le32(dev_mem + 0x100000 + EMU_WL_H_WAIT_DBC), (uint32_t)dbc);
	CHECK_EQ(get_le32(dev_mem + 0x100000 + EMU_WL_H_SIG0_DBC), (uint32_t)dbc);
	CHECK_EQ(get_le32(dev_mem + 0x100000 + EMU_WL_H_SIG1_DBC), (uint32_t)dbc);
	CHECK_EQ(dev_mem[0x100000 + 0x200], 0);		/* memsz past filesz */
	CHECK_EQ(dev_mem[0x100000 + 0x2ff], 0);
	CHECK_EQ(dev_mem[0x100000 + 0x300], 0xee);
	CHECK(!memcmp(dev_mem + 0x180000, guest + img_off + 64 + 3 * 56 + 0x200, 0x80));
	CHECK(!memcmp(dev_mem + 0x200000, guest + k_off, k_len));
	CHECK_EQ(dev_mem[0x200000 + k_len], 0xee);

	/* Constants bigger than their segment: refused, nothing active */
	setup();
	emu_manager_set_dbc_ops(mgr, &fake_mem_ops, NULL);
	len = put_elf(img_off, k_len - 1);
	CHECK_EQ(load_elf(1, len, img_off, len), 1);
	elf = LOAD_RESULT(0, NNC_FW_CMD_LOAD_ELF_RESP, 0);
	CHECK_EQ(load_consts(1, 0, k_len, k_off, k_len), 1);
	consts = LOAD_RESULT(0, NNC_FW_CMD_LOAD_CONSTANTS_RESP, 0);
	a = activate(1, elf, consts, true);
	CHECK(a && s32(a + 4) == NNC_FW_METADATA_ERROR);

	/* A segment past the end of device memory: refused at activation */
	setup();
	emu_manager_set_dbc_ops(mgr, &fake_mem_ops, NULL);
	len = put_elf(img_off, 0x1000);
	put_le64(guest + img_off + 64 + 24, DEV_MEM - 0x100);
	CHECK_EQ(load_elf(1, len, img_off, len), 1);
	elf = LOAD_RESULT(0, NNC_FW_CMD_LOAD_ELF_RESP, 0);
	a = activate(1, elf, 0, true);
	CHECK(a && s32(a + 4) == NNC_FW_METADATA_ERROR);

	/* ELF's magic, a segment past the file: not loaded */
	setup();
	len = put_elf(img_off, 0x1000);
	put_le64(guest + img_off + 64 + 32, len);	/* filesz */
	put_le64(guest + img_off + 64 + 40, len);
	CHECK_EQ(load_elf(1, len, img_off, len), 1);
	LOAD_RESULT(0, NNC_FW_CMD_LOAD_ELF_RESP, NNC_FW_METADATA_ERROR);
	/* ... and a phdr table past the file */
	setup();
	len = put_elf(img_off, 0x1000);
	guest[img_off + 56] = 60;
	CHECK_EQ(load_elf(1, len, img_off, len), 1);
	LOAD_RESULT(0, NNC_FW_CMD_LOAD_ELF_RESP, NNC_FW_METADATA_ERROR);
}

int main(void)
{
	RUN(test_lifecycle);
	RUN(test_elf_placement);
	RUN(test_load_errors);
	RUN(test_short);
	RUN(test_activate_errors);
	RUN(test_deactivate);
	RUN(test_ownership);
	RUN(test_constants_ex);
	RUN(test_state_and_info);
	RUN(test_continuation);
	RUN(test_fuzz);
	if (mgr)
		emu_manager_destroy(mgr);
	emu_device_fini(&dev);
	guest_mem_reset(&gmem);
	free(guest);
	return emu_test_exit();
}
