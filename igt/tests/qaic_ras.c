// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The qaic authors.
 */

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "igt_qaic.h"

/**
 * TEST: qaic ras
 * Category: Core
 * Description: RAS reports of the card are counted by type in sysfs; malformed ones are refused; an uncorrectable error resets the card.
 * Feature: qaic
 *
 * SUBTEST: counts
 * Description: Check that correctable and uncorrectable non-fatal reports from every source raise ce_count and ue_nonfatal_count by one each, and nothing else.
 * Run type: BAT
 *
 * SUBTEST: refused-%s
 * Description: Check that a report with a bad %arg[1] is refused: counted in debugfs ras_refused, no other count changes, and the card keeps working.
 * Run type: FULL
 *
 * arg[1]:
 *
 * @magic:		magic
 * @version-0:		version 0
 * @version-new:	newer version
 * @type:		message type
 * @len:		length field
 * @err-type:		error type
 * @source:		source
 * @threshold:		temperature threshold
 * @short:		size (too short)
 * @long:		size (too long)
 *
 * SUBTEST: uncorrectable
 * Description: Check that an uncorrectable error raises ue_count, resets the card (DBCs released), that the counts survive the reset, and that the card then runs work.
 * Run type: FULL
 */

IGT_TEST_DESCRIPTION("RAS reports of the card are counted by type in sysfs; malformed ones are refused; an uncorrectable error resets the card.");

#define SZ_4K		4096ull
#define DEV_ADDR	(52ull << 20)
#define QUEUE_SIZE	64
#define WAIT_MS		10000

enum { CE, UE, UE_NF };
#define NR_SOURCES	7

struct counts {
	int ce, ue, ue_nf, refused;
};

static int read_int(const char *fmt, const char *bdf)
{
	char path[160];

	snprintf(path, sizeof(path), fmt, bdf);
	return igt_qaic_read_int(path);
}

static struct counts read_counts(const char *bdf)
{
	return (struct counts) {
		.ce = read_int("/sys/bus/pci/devices/%s/ce_count", bdf),
		.ue = read_int("/sys/bus/pci/devices/%s/ue_count", bdf),
		.ue_nf = read_int("/sys/bus/pci/devices/%s/ue_nonfatal_count", bdf),
		.refused = read_int("/sys/kernel/debug/accel/%s/ras_refused", bdf),
	};
}

static bool counts_equal(struct counts a, struct counts b)
{
	return a.ce == b.ce && a.ue == b.ue && a.ue_nf == b.ue_nf && a.refused == b.refused;
}

/* Reports are pushed: wait until the counts are @want, then check they stay */
static void wait_counts(const char *bdf, struct counts want)
{
	uint64_t start = igt_qaic_now_ms();
	struct counts got;

	while (!counts_equal(got = read_counts(bdf), want) &&
	       igt_qaic_now_ms() - start < WAIT_MS)
		usleep(10000);
	igt_assert_f(counts_equal(got, want),
		     "ce %d ue %d ue_nf %d refused %d, not %d %d %d %d\n",
		     got.ce, got.ue, got.ue_nf, got.refused,
		     want.ce, want.ue, want.ue_nf, want.refused);
	usleep(100000);
	got = read_counts(bdf);
	igt_assert_f(counts_equal(got, want), "counts moved on: ce %d ue %d ue_nf %d refused %d\n",
		     got.ce, got.ue, got.ue_nf, got.refused);
}

static int open_card(char *bdf, size_t len)
{
	int fd = igt_qaic_open();

	igt_qaic_card_bdf(fd, bdf, len);
	igt_require_f(read_int("/sys/bus/pci/devices/%s/ce_count", bdf) >= 0,
		      "the driver has no RAS counters\n");
	return fd;
}

static void report(int fd, uint32_t source, uint32_t type, uint32_t flaw)
{
	int ret = __igt_qaic_emu_ras(fd, source, type, flaw);

	igt_require_f(ret != IGT_QAIC_EMU_PT_E_UNKNOWN_OP, "the emulator has no EMU_PT_RAS\n");
	igt_assert_eq(ret, 0);
}

static void test_counts(void)
{
	char bdf[32];
	int fd = open_card(bdf, sizeof(bdf));
	struct counts c = read_counts(bdf);
	uint32_t dbc;

	for (uint32_t src = 0; src < NR_SOURCES; src++)
		report(fd, src, CE, 0);
	report(fd, 2, UE_NF, 0);
	report(fd, 1, UE_NF, 0);
	c.ce += NR_SOURCES;
	c.ue_nf += 2;
	wait_counts(bdf, c);

	dbc = igt_qaic_activate(fd, QUEUE_SIZE);
	igt_qaic_round_trip(fd, dbc, DEV_ADDR, SZ_4K, 71);
	close(fd);
}

static const struct {
	const char *name;
	uint32_t flaw;		/* enum emu_ras_flaw */
} flaws[] = {
	{ "magic", 1 },
	{ "version-0", 2 },
	{ "version-new", 3 },
	{ "type", 4 },
	{ "len", 5 },
	{ "err-type", 6 },
	{ "source", 7 },
	{ "threshold", 8 },
	{ "short", 9 },
	{ "long", 10 },
};

static void test_refused(uint32_t flaw)
{
	char bdf[32];
	int fd = open_card(bdf, sizeof(bdf));
	struct counts c = read_counts(bdf);
	uint32_t dbc;

	igt_require_f(c.refused >= 0, "no debugfs ras_refused\n");
	/* An uncorrectable error, were it taken, would reset the card */
	report(fd, 0, UE, flaw);
	c.refused++;
	wait_counts(bdf, c);

	/* The channel still takes reports */
	report(fd, 0, CE, 0);
	c.ce++;
	wait_counts(bdf, c);

	dbc = igt_qaic_activate(fd, QUEUE_SIZE);
	igt_qaic_round_trip(fd, dbc, DEV_ADDR, SZ_4K, 72);
	close(fd);
}

static void test_uncorrectable(void)
{
	char bdf[32];
	int fd = open_card(bdf, sizeof(bdf)), ret;
	struct counts c = read_counts(bdf);
	uint32_t dbc, again;
	uint64_t start;

	dbc = igt_qaic_activate(fd, QUEUE_SIZE);
	report(fd, 2, CE, 0);
	c.ce++;
	wait_counts(bdf, c);

	start = igt_qaic_now_ms();
	/*
	 * The card sends the report before its answer to the passthrough
	 * that asked for it, then resets: upstream fails that call with EIO
	 * when the card's reset reaches it first; ours answers it first.
	 */
	ret = __igt_qaic_emu_ras(fd, 2, UE, 0);
	igt_assert_f(ret == 0 || (ret == -EIO && !igt_qaic_driver_is_ours(fd)),
		     "UE report: %d\n", ret);
	c.ue++;
	wait_counts(bdf, c);

	/* The reset released the DBC; MANAGE waits for the card to be back */
	while ((ret = __igt_qaic_activate(fd, QUEUE_SIZE, &again)) == -ENODEV &&
	       igt_qaic_now_ms() - start < 20000)
		usleep(50000);
	igt_assert_eq(ret, 0);
	igt_info("card back %llu ms after the report\n",
		 (unsigned long long)(igt_qaic_now_ms() - start));
	if (again != dbc)
		igt_assert_eq(__igt_qaic_execute_bo(fd, dbc, 1, IGT_QAIC_DIR_TO_DEV), -EPERM);
	igt_qaic_round_trip(fd, again, DEV_ADDR, SZ_4K, 73);
	/* The counts outlive the reset */
	wait_counts(bdf, c);
	close(fd);
}

igt_main
{
	igt_describe("Check that reports of every source are counted by type.");
	igt_subtest("counts")
		test_counts();

	for (unsigned int i = 0; i < sizeof(flaws) / sizeof(flaws[0]); i++) {
		igt_describe("Check that a malformed report is refused and counted.");
		igt_subtest_f("refused-%s", flaws[i].name)
			test_refused(flaws[i].flaw);
	}

	igt_describe("Check that an uncorrectable error resets the card, counted.");
	igt_subtest("uncorrectable")
		test_uncorrectable();
}
