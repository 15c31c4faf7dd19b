// SPDX-License-Identifier: GPL-2.0-only
/*
 * The crash's memory dump (memdump.c) behind the card's Sahara (sahara.c):
 * a stand-in MHI records every packet the card sends, host packets built
 * by hand. Every mode, the refused reads, a host that declines, one that
 * never answers, and one that stops the channel half-way.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "device.h"
#include "emu_test.h"
#include "le_bytes.h"
#include "memdump.h"
#include "sahara.h"

static struct emu_device dev;	/* for emu_log(); not verbose */

/* ---- the stand-in MHI: what the card sent ---- */
#define MAX_SENT	16

static struct {
	uint8_t *pkt[MAX_SENT];
	size_t len[MAX_SENT];
	unsigned int n;
	unsigned int overflow;
	unsigned int booted;
} rec;

static void take(void)
{
	for (unsigned int i = 0; i < rec.n; i++)
		free(rec.pkt[i]);
	rec.n = 0;
}

static void fake_send(void *ctx, const void *pkt, size_t len)
{
	(void)ctx;
	if (rec.n >= MAX_SENT) {
		rec.overflow++;
		return;
	}
	rec.pkt[rec.n] = malloc(len ? len : 1);
	if (!rec.pkt[rec.n])
		abort();
	memcpy(rec.pkt[rec.n], pkt, len);
	rec.len[rec.n++] = len;
}

static void fake_booted(void *ctx)
{
	(void)ctx;
	rec.booted++;
}

static const struct emu_sahara_ops sahara_ops = {
	.send = fake_send,
	.booted = fake_booted,
};

static const struct emu_memdump_ops memdump_ops = {
	.send = fake_send,
};

static struct emu_sahara *s;
static struct emu_memdump *md;

static void setup(enum emu_memdump_mode mode)
{
	emu_sahara_destroy(s);
	emu_memdump_destroy(md);
	take();
	memset(&rec, 0, sizeof(rec));
	s = emu_sahara_create(&dev, &sahara_ops, NULL);
	md = emu_memdump_create(&dev, &memdump_ops, NULL);
	if (!s || !md)
		abort();
	emu_sahara_set_memdump(s, md);
	emu_memdump_set_mode(md, mode);
}

/* A new boot reaches SBL: what Sahara says first. */
static void boot(void)
{
	emu_sahara_power_on(s);
	emu_sahara_start(s);
}

static void host_words(const uint32_t *w, unsigned int n, size_t len)
{
	uint8_t pkt[SAHARA_HELLO_LEN] = { 0 };

	for (unsigned int i = 0; i < n; i++)
		put_le32(pkt + 4 * i, w[i]);
	emu_sahara_rx(s, pkt, len);
}

static void host_hello_resp(uint32_t mode)
{
	uint32_t w[] = { SAHARA_HELLO_RESP, SAHARA_HELLO_LEN, 2, 1, 0, mode };

	host_words(w, 6, SAHARA_HELLO_LEN);
}

static void host_read(uint64_t addr, uint64_t len)
{
	uint8_t pkt[SAHARA_MEMORY_READ64_LEN];

	put_le32(pkt, SAHARA_MEMORY_READ64);
	put_le32(pkt + 4, SAHARA_MEMORY_READ64_LEN);
	put_le64(pkt + 8, addr);
	put_le64(pkt + 16, len);
	emu_sahara_rx(s, pkt, sizeof(pkt));
}

static void host_reset(void)
{
	uint32_t w[] = { SAHARA_RESET, SAHARA_RESET_LEN };

	host_words(w, 2, SAHARA_RESET_LEN);
}

/* The one packet sent since the last take is a HELLO in @mode. */
static void check_hello(uint32_t mode)
{
	CHECK_EQ(rec.n, 1);
	if (rec.n != 1)
		return;
	CHECK_EQ(rec.len[0], SAHARA_HELLO_LEN);
	CHECK_EQ(get_le32(rec.pkt[0]), SAHARA_HELLO);
	CHECK_EQ(get_le32(rec.pkt[0] + 8), SAHARA_VERSION);
	CHECK_EQ(get_le32(rec.pkt[0] + 20), mode);
}

/* The one packet sent is END_OF_IMAGE refusing a read. */
static void check_refused(void)
{
	CHECK_EQ(rec.n, 1);
	if (rec.n != 1)
		return;
	CHECK_EQ(rec.len[0], SAHARA_END_OF_IMAGE_LEN);
	CHECK_EQ(get_le32(rec.pkt[0]), SAHARA_END_OF_IMAGE);
	CHECK_EQ(get_le32(rec.pkt[0] + 12), EMU_MEMDUMP_STATUS_BAD_READ);
}

/* Up to MEMORY_DEBUG64: its table length. */
static uint64_t offered(void)
{
	uint64_t len;

	boot();
	check_hello(SAHARA_MODE_MEMORY_DEBUG);
	take();
	host_hello_resp(SAHARA_MODE_MEMORY_DEBUG);
	CHECK_EQ(rec.n, 1);
	if (rec.n != 1)
		return 0;
	CHECK_EQ(rec.len[0], SAHARA_MEMORY_DEBUG64_LEN);
	CHECK_EQ(get_le32(rec.pkt[0]), SAHARA_MEMORY_DEBUG64);
	CHECK_EQ(get_le32(rec.pkt[0] + 4), SAHARA_MEMORY_DEBUG64_LEN);
	CHECK_EQ(get_le64(rec.pkt[0] + 8), EMU_MEMDUMP_TABLE_ADDR);
	len = get_le64(rec.pkt[0] + 16);
	take();
	return len;
}

/* Reads region @r in pieces of @piece; true if every byte is right. */
static bool read_region(unsigned int r, uint64_t piece)
{
	const struct emu_memdump_region *reg = &emu_memdump_regions[r];
	bool ok = true;

	for (uint64_t off = 0; off < reg->len; off += piece) {
		uint64_t n = reg->len - off < piece ? reg->len - off : piece;

		host_read(reg->addr + off, n);
		if (rec.n != 1 || rec.len[0] != n) {
			take();
			return false;
		}
		for (uint64_t i = 0; i < n; i++)
			ok &= rec.pkt[0][i] == emu_memdump_byte(r, off + i);
		take();
	}
	return ok;
}

static void test_off(void)
{
	setup(EMU_MEMDUMP_OFF);
	emu_memdump_crash(md);
	CHECK(!emu_memdump_pending(md));
	boot();
	check_hello(0);
	CHECK_EQ(emu_memdump_counters(md)->memdump_offered, 0);
}

static void test_good_dump(void)
{
	const struct emu_memdump_counters *c;
	uint64_t len;

	setup(EMU_MEMDUMP_ON);
	CHECK(!emu_memdump_pending(md));
	emu_memdump_crash(md);
	CHECK(emu_memdump_pending(md));
	len = offered();
	CHECK(!emu_memdump_pending(md));
	CHECK_EQ(len, EMU_MEMDUMP_NR_REGIONS * EMU_MEMDUMP_ENTRY_LEN);

	host_read(EMU_MEMDUMP_TABLE_ADDR, len);
	CHECK_EQ(rec.n, 1);
	CHECK_EQ(rec.len[0], len);
	for (unsigned int i = 0; rec.n == 1 && i < EMU_MEMDUMP_NR_REGIONS; i++) {
		const uint8_t *e = rec.pkt[0] + i * EMU_MEMDUMP_ENTRY_LEN;

		CHECK_EQ(get_le64(e), emu_memdump_regions[i].type);
		CHECK_EQ(get_le64(e + 8), emu_memdump_regions[i].addr);
		CHECK_EQ(get_le64(e + 16), emu_memdump_regions[i].len);
		CHECK(!strcmp((const char *)e + 24, emu_memdump_regions[i].desc));
		CHECK(!strcmp((const char *)e + 44, emu_memdump_regions[i].file));
	}
	take();

	CHECK(read_region(0, 0xfff0));
	CHECK(read_region(1, 4096));
	CHECK(read_region(2, 8));

	/* Reads the card cannot serve */
	host_read(EMU_MEMDUMP_TABLE_ADDR, len - 1);
	check_refused();
	take();
	host_read(emu_memdump_regions[0].addr, 0);
	check_refused();
	take();
	host_read(emu_memdump_regions[0].addr, EMU_MEMDUMP_MAX_READ + 1ull);
	check_refused();
	take();
	host_read(emu_memdump_regions[1].addr + emu_memdump_regions[1].len - 4, 8);
	check_refused();
	take();
	host_read(UINT64_MAX - 3, 8);
	check_refused();
	take();

	/* Something else than a read or RESET is counted and ignored */
	host_hello_resp(SAHARA_MODE_MEMORY_DEBUG);
	CHECK_EQ(rec.n, 0);

	/* RESET: RESET_RESP, then the images */
	host_reset();
	CHECK_EQ(rec.n, 2);
	if (rec.n == 2) {
		CHECK_EQ(get_le32(rec.pkt[0]), SAHARA_RESET_RESP);
		CHECK_EQ(rec.len[0], SAHARA_RESET_LEN);
		CHECK_EQ(get_le32(rec.pkt[1]), SAHARA_HELLO);
		CHECK_EQ(get_le32(rec.pkt[1] + 20), 0);
	}
	take();
	c = emu_memdump_counters(md);
	CHECK_EQ(c->memdump_crashes, 1);
	CHECK_EQ(c->memdump_offered, 1);
	CHECK_EQ(c->memdump_complete, 1);
	CHECK_EQ(c->memdump_bad_reads, 5);
	CHECK_EQ(c->memdump_bad_msgs, 1);
	CHECK_EQ(c->memdump_faults, 0);

	/* Offered once: the next boot asks for images at once */
	boot();
	check_hello(0);
	take();
}

/* A host that reads nothing and resets: the dump is not complete. */
static void test_reset_at_once(void)
{
	setup(EMU_MEMDUMP_ON);
	emu_memdump_crash(md);
	offered();
	host_reset();
	CHECK_EQ(rec.n, 2);
	CHECK_EQ(emu_memdump_counters(md)->memdump_complete, 0);
	CHECK_EQ(emu_memdump_counters(md)->memdump_resets, 1);
}

static void test_declined(void)
{
	setup(EMU_MEMDUMP_ON);
	emu_memdump_crash(md);
	boot();
	check_hello(SAHARA_MODE_MEMORY_DEBUG);
	take();
	host_hello_resp(0);
	check_hello(0);
	CHECK_EQ(emu_memdump_counters(md)->memdump_declined, 1);
}

static void test_ignored(void)
{
	struct timespec ts = { 0, 50 * 1000 * 1000 };
	int ms;

	setup(EMU_MEMDUMP_ON);
	emu_memdump_crash(md);
	boot();
	take();
	ms = emu_memdump_timeout_ms(md);
	CHECK(ms > 0 && ms <= EMU_MEMDUMP_HELLO_WAIT_MS + 1);
	emu_sahara_tick(s);
	CHECK_EQ(rec.n, 0);
	while (emu_memdump_timeout_ms(md) > 0)
		nanosleep(&ts, NULL);
	emu_sahara_tick(s);
	check_hello(0);
	CHECK_EQ(emu_memdump_counters(md)->memdump_ignored, 1);
	CHECK_EQ(emu_memdump_timeout_ms(md), -1);
}

/* The host stops the channel half-way: the next start asks for images. */
static void test_stopped(void)
{
	setup(EMU_MEMDUMP_ON);
	emu_memdump_crash(md);
	offered();
	emu_sahara_stop(s);
	emu_sahara_start(s);
	check_hello(0);
	CHECK(!emu_memdump_pending(md));
}

static void test_faults(void)
{
	uint64_t len;

	setup(EMU_MEMDUMP_BAD_LENGTH);
	emu_memdump_crash(md);
	len = offered();
	CHECK_EQ(len, EMU_MEMDUMP_NR_REGIONS * EMU_MEMDUMP_ENTRY_LEN + 8);
	host_read(EMU_MEMDUMP_TABLE_ADDR, len);
	CHECK_EQ(rec.n, 1);
	CHECK_EQ(rec.len[0], len);
	take();

	setup(EMU_MEMDUMP_TOO_MANY);
	emu_memdump_crash(md);
	CHECK_EQ(offered(), 300 * EMU_MEMDUMP_ENTRY_LEN);

	setup(EMU_MEMDUMP_HUGE);
	emu_memdump_crash(md);
	len = offered();
	host_read(EMU_MEMDUMP_TABLE_ADDR, len);
	CHECK_EQ(rec.n, 1);
	if (rec.n == 1)
		CHECK_EQ(get_le64(rec.pkt[0] + 16), 1ull << 30);
	take();

	setup(EMU_MEMDUMP_SHORT_READ);
	emu_memdump_crash(md);
	offered();
	host_read(emu_memdump_regions[0].addr, 4096);
	CHECK_EQ(rec.n, 1);
	CHECK_EQ(rec.len[0], 4096);
	take();
	host_read(emu_memdump_regions[0].addr + 4096, 4096);
	CHECK_EQ(rec.n, 1);
	CHECK_EQ(rec.len[0], 4095);
	take();
	host_read(emu_memdump_regions[0].addr + 8192, 4096);
	CHECK_EQ(rec.len[0], 4096);
	take();
	CHECK_EQ(emu_memdump_counters(md)->memdump_faults, 1);
	host_reset();
	CHECK_EQ(rec.n, 2);
	take();
}

static void test_names(void)
{
	for (int i = 0; i < EMU_MEMDUMP_MODE_COUNT; i++)
		CHECK_EQ(emu_memdump_mode_parse(emu_memdump_mode_name(i)), i);
	CHECK_EQ(emu_memdump_mode_parse("bogus"), -1);
	/* The pattern has no short period */
	CHECK(emu_memdump_byte(0, 0) != emu_memdump_byte(0, 256) ||
	      emu_memdump_byte(0, 1) != emu_memdump_byte(0, 257));
	CHECK(emu_memdump_byte(0, 5) != emu_memdump_byte(1, 5) ||
	      emu_memdump_byte(0, 6) != emu_memdump_byte(1, 6));
}

int main(void)
{
	RUN(test_off);
	RUN(test_good_dump);
	RUN(test_reset_at_once);
	RUN(test_declined);
	RUN(test_ignored);
	RUN(test_stopped);
	RUN(test_faults);
	RUN(test_names);
	take();
	emu_sahara_destroy(s);
	emu_memdump_destroy(md);
	CHECK_EQ(rec.overflow, 0);
	return emu_test_exit();
}
