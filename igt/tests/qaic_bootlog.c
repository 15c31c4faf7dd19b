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
#include "igt_qaic_sync.h"

/**
 * TEST: qaic bootlog
 * Category: Core
 * Description: The card's boot log is kept in debugfs bootlog, across crashes and resets, and the time the driver gives the card is right.
 * Feature: qaic
 *
 * SUBTEST: bootlog
 * Description: Check that debugfs bootlog holds, as text, every line the card wrote in SBL: which boot it is, the eight images it loaded, and mission mode.
 * Run type: BAT
 *
 * SUBTEST: timesync
 * Description: Check that the card got the time in SBL and gets it every second in mission mode, and found every one well formed, within 5 s of its own clock and never going back.
 * Run type: BAT
 *
 * SUBTEST: sys-error
 * Description: Check that the boot log stays readable while the card crashes (MHI SYS_ERROR) and recovers, and is the same afterwards: a crash in mission mode does not go through SBL. The time syncs stay good.
 * Run type: FULL
 *
 * SUBTEST: reboot
 * Description: Check that after a function-level reset the card boots again through SBL, and bootlog then holds that boot's lines and none of the last one's; the card got the time again.
 * Run type: FULL
 *
 * SUBTEST: garbage
 * Description: Check that a card that floods its boot log with more than the driver keeps, and writes bytes that are not text, a line with a NUL inside and a line longer than the driver's buffers, leaves a boot log of the last 64 KiB it wrote, as text, saying how much was lost, and boots; and that malformed messages on QAIC_TIMESYNC get no answer, the real question one.
 * Run type: FULL
 *
 * SUBTEST: tail
 * Description: Check that a card that writes a boot log line into every buffer the host has queued right as it enters mission mode, when the host removes the channel, boots; the log holds its SBL lines and then those lines, as text and in order.
 * Run type: FULL
 */

IGT_TEST_DESCRIPTION("The card's boot log is kept in debugfs bootlog, across crashes and resets, and the time the driver gives the card is right.");

#define LOG_MAX		(128 * 1024)
#define QUEUE_SIZE	64
#define NR_IMAGES	8

/*
 * The bench igt/run gives this test: card 0 (at PCI slot 0) boots
 * normally, card 1 (at slot 1) writes garbage into its boot log, card 2
 * fills the host's buffers as it enters mission mode (--bootlog-fault tail).
 */
#define CARD		0
#define GARBAGE_CARD	1
#define TAIL_CARD	2
/* What the driver keeps, and the longest message it takes */
#define KEPT		65536
#define MSG_LEN		512

/* Opens card @n (igt_qaic_card_addr()); skips when there is none. */
static int open_card(unsigned int n)
{
	char bdf[32];

	igt_require_f(igt_qaic_card_addr(n, bdf, sizeof(bdf)), "no card %u\n", n);
	return igt_qaic_open_bdf(bdf);
}

static char *read_bootlog(int fd, size_t *len)
{
	char bdf[32];

	igt_qaic_card_bdf(fd, bdf, sizeof(bdf));
	return igt_qaic_read_bootlog(bdf, LOG_MAX, len);
}

static void check_text(const char *log, size_t len)
{
	for (size_t i = 0; i < len; i++)
		igt_assert_f(log[i] == '\n' || log[i] == '\t' ||
			     (log[i] >= 0x20 && log[i] < 0x7f),
			     "byte %zu of the boot log is %#x, not text\n", i,
			     (unsigned char)log[i]);
}

/* The images and the last line; @boot 0: the boot the last line says. */
static unsigned int check_tail(const char *log, size_t len, unsigned int boot)
{
	unsigned int last = 0;
	const char *p = log;
	char want[64];

	for (unsigned int i = 0; i < NR_IMAGES; i++) {
		p = strstr(p, "loaded over Sahara\n");
		igt_assert_f(p, "%u of %u images in the boot log:\n%s\n", i, NR_IMAGES, log);
		p++;
	}
	igt_assert_f(!strstr(p, "loaded over Sahara"), "more than %u images:\n%s\n",
		     NR_IMAGES, log);
	p = strstr(log, "SBL: boot ");
	igt_assert_f(p && sscanf(p, "SBL: boot %u: entering mission mode", &last) == 1,
		     "no mission mode line:\n%s\n", log);
	if (boot)
		igt_assert_eq_u32(last, boot);
	snprintf(want, sizeof(want), "boot %u: entering mission mode\n", last);
	igt_assert_f(len >= strlen(want) && !strcmp(log + len - strlen(want), want),
		     "the boot log does not end with \"%s\":\n%s\n", want, log);
	return last;
}

/* The boot the log is of: "qaic-emu V: boot N: SBL runs" comes first. */
static unsigned int check_bootlog(const char *log, size_t len)
{
	const char *first = strstr(log, "qaic-emu ");
	unsigned int boot = 0;

	check_text(log, len);
	igt_assert_f(first == log, "the boot log does not begin with the emulator's line:\n%s\n",
		     log);
	igt_assert_f(sscanf(strchr(first, ':'), ": boot %u: SBL runs", &boot) == 1,
		     "no boot number in:\n%s\n", log);
	return check_tail(log, len, boot);
}

static void get_timesync(int fd, struct igt_qaic_emu_timesync *ts)
{
	int ret = __igt_qaic_emu_timesync(fd, ts);

	igt_require_f(ret != IGT_QAIC_EMU_PT_E_UNKNOWN_OP, "the emulator has no EMU_PT_TIMESYNC\n");
	igt_assert_eq(ret, 0);
	igt_info("time sync: asked %llu, boot %llu good %llu bad, periodic %llu good %llu bad, skew %lld us\n",
		 (unsigned long long)ts->asked, (unsigned long long)ts->boot_good,
		 (unsigned long long)ts->boot_bad, (unsigned long long)ts->periodic_good,
		 (unsigned long long)ts->periodic_bad, (long long)ts->last_skew_us);
}

/* MANAGE works again after a reset: a DBC is activated, and given back. */
static void wait_card(int fd, uint64_t since_ms)
{
	uint32_t dbc;
	int ret;

	while ((ret = __igt_qaic_activate(fd, QUEUE_SIZE, &dbc)) == -ENODEV &&
	       igt_qaic_now_ms() - since_ms < 30000)
		usleep(50000);
	igt_assert_eq(ret, 0);
	igt_qaic_deactivate(fd, dbc);
	igt_info("card back %llu ms after the reset\n",
		 (unsigned long long)(igt_qaic_now_ms() - since_ms));
}

static void test_bootlog(void)
{
	int fd = open_card(CARD);
	size_t len;
	char *log;

	/* A MANAGE call waits for mission mode, which waits for the log. */
	igt_qaic_deactivate(fd, igt_qaic_activate(fd, QUEUE_SIZE));
	log = read_bootlog(fd, &len);
	igt_info("boot log of boot %u, %zu bytes:\n%s", check_bootlog(log, len), len, log);
	free(log);
	close(fd);
}

/*
 * What the garbage card wrote after its flood: every byte but NUL and
 * newline, as the driver keeps them; the line with a NUL up to the NUL;
 * the first 512 bytes of the long line (no newline made it either).
 */
static void check_garbage(const char *log)
{
	const char *g = strstr(log, "garbage: ");
	char want[600];
	size_t n = 0;

	igt_assert_f(g, "no garbage line in the boot log\n");
	for (unsigned int c = 1; c < 256; c++) {
		if (c == '\n')
			continue;
		want[n++] = c == '\t' || (c >= 0x20 && c < 0x7f) ? c : '.';
	}
	want[n++] = '\n';
	igt_assert_f(!memcmp(g + strlen("garbage: "), want, n),
		     "the garbage line is not kept as text with dots:\n%.300s\n", g);
	g += strlen("garbage: ") + n;
	igt_assert_f(!strncmp(g, "before NUL", 10), "no \"before NUL\" after it:\n%.40s\n", g);
	g += 10;
	for (n = 0; n < MSG_LEN; n++)
		igt_assert_f(g[n] == 'L', "byte %zu of the long line is %#x\n", n,
			     (unsigned char)g[n]);
	igt_assert_f(!strncmp(g + MSG_LEN, "SBL: image ", 11),
		     "the long line is not cut at %u bytes:\n%.40s\n", MSG_LEN, g + MSG_LEN);
	igt_assert_f(!strstr(log, "after NUL"), "what follows a NUL was kept\n");
}

static void test_garbage(void)
{
	struct igt_qaic_emu_timesync ts;
	unsigned long long lost = 0;
	const char *body;
	size_t len;
	char *log;
	int fd, n = 0;

	/*
	 * 6.12 stops listening on QAIC_TIMESYNC after a message that is not
	 * exactly a header, so the garbage card never leaves SBL there.
	 */
	fd = open_card(CARD);
	igt_require_f(igt_qaic_has_syncobj(fd),
		      "upstream's qaic keeps every byte the card sends, as sent\n");
	close(fd);
	fd = open_card(GARBAGE_CARD);
	/* A MANAGE call waits for mission mode, which waits for the log. */
	igt_qaic_deactivate(fd, igt_qaic_activate(fd, QUEUE_SIZE));
	log = read_bootlog(fd, &len);
	check_text(log, len);
	igt_assert_f(sscanf(log, "[%llu bytes of the log lost]\n%n", &lost, &n) == 1 && n > 0,
		     "the boot log does not say what was lost:\n%.200s\n", log);
	body = log + n;
	igt_info("%llu bytes lost, %zu kept; the end:\n%s", lost, len - n,
		 len > 900 ? log + len - 900 : log);
	igt_assert_lt(0, lost);
	/* The oldest went: the first line, and the first of the flood */
	igt_assert_eq(len - n, KEPT);
	igt_assert(!strstr(body, "qaic-emu "));
	igt_assert(!strstr(body, "flood 000000: "));
	igt_assert(strstr(body, "flood "));
	check_garbage(body);
	check_tail(body, len - n, 0);
	free(log);

	/* An answer to a malformed message would be one to no question: bad */
	get_timesync(fd, &ts);
	igt_assert_eq(ts.asked, 1);
	igt_assert_eq(ts.boot_good, 1);
	igt_assert_eq(ts.boot_bad, 0);
	igt_assert_eq(ts.periodic_bad, 0);
	close(fd);
}

static void test_timesync(void)
{
	struct igt_qaic_emu_timesync a, b;
	int fd = open_card(CARD);

	get_timesync(fd, &a);
	igt_assert_lte(1, a.boot_good);
	igt_assert_eq(a.boot_bad, 0);
	igt_assert_eq(a.periodic_bad, 0);
	sleep(3);
	get_timesync(fd, &b);
	igt_assert_eq(b.boot_bad, 0);
	igt_assert_eq(b.periodic_bad, 0);
	/* One a second (timesync_delay_ms): at least two in three seconds */
	igt_assert_lte(a.periodic_good + 2, b.periodic_good);
	igt_assert_lte(b.last_skew_us, 5000000);
	igt_assert_lte(-5000000, b.last_skew_us);
	close(fd);
}

static void test_sys_error(void)
{
	struct igt_qaic_emu_timesync ts;
	int fd = open_card(CARD);
	uint32_t dbc = igt_qaic_activate(fd, QUEUE_SIZE);
	size_t len, len2;
	char *log, *log2;
	uint64_t start;
	int ret;

	log = read_bootlog(fd, &len);
	check_bootlog(log, len);
	ret = __igt_qaic_emu_sys_error(fd, 50);
	igt_require_f(ret != IGT_QAIC_EMU_PT_E_UNKNOWN_OP, "the emulator has no EMU_PT_SYS_ERROR\n");
	igt_assert_eq(ret, 0);
	start = igt_qaic_now_ms();
	/* Read it all through the crash and the recovery */
	while (igt_qaic_now_ms() - start < 1000) {
		log2 = read_bootlog(fd, &len2);
		igt_assert_eq(len2, len);
		igt_assert(!memcmp(log2, log, len));
		free(log2);
		usleep(20000);
	}
	wait_card(fd, start);
	/* The crash released the DBC: it is no longer the file's */
	igt_assert_neq(__igt_qaic_deactivate(fd, dbc), 0);

	log2 = read_bootlog(fd, &len2);
	igt_assert_eq(len2, len);
	igt_assert(!memcmp(log2, log, len));
	free(log2);
	free(log);

	sleep(2);
	get_timesync(fd, &ts);
	igt_assert_eq(ts.boot_bad, 0);
	igt_assert_eq(ts.periodic_bad, 0);
	close(fd);
}

static void test_reboot(void)
{
	struct igt_qaic_emu_timesync a, b;
	int fd = open_card(CARD);
	unsigned int boot, boot2;
	char bdf[32], path[128];
	size_t len, len2;
	char *log, *log2;
	uint64_t start;
	int rfd;

	igt_qaic_card_bdf(fd, bdf, sizeof(bdf));
	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/reset", bdf);
	igt_require_f(!access(path, W_OK), "no %s\n", path);
	log = read_bootlog(fd, &len);
	boot = check_bootlog(log, len);
	get_timesync(fd, &a);

	start = igt_qaic_now_ms();
	rfd = open(path, O_WRONLY);
	igt_assert_f(rfd >= 0, "open %s: %s\n", path, strerror(errno));
	igt_assert_f(write(rfd, "1", 1) == 1, "reset: %s\n", strerror(errno));
	close(rfd);
	wait_card(fd, start);

	log2 = read_bootlog(fd, &len2);
	boot2 = check_bootlog(log2, len2);
	igt_info("boot log of boot %u after the reset, %zu bytes:\n%s", boot2, len2, log2);
	igt_assert_eq_u32(boot2, boot + 1);
	get_timesync(fd, &b);
	igt_assert_eq(b.asked, a.asked + 1);
	igt_assert_eq(b.boot_good, a.boot_good + 1);
	igt_assert_eq(b.boot_bad, 0);
	igt_assert_eq(b.periodic_bad, 0);
	free(log2);
	free(log);
	close(fd);
}

/*
 * The card's last lines: "SBL: tail: line N", N from 0 up, one for each
 * buffer the host had queued as the card entered mission mode; the MHI
 * core removes the channel then, while their completions are handled.
 */
static void test_tail(void)
{
	static const char mark[] = "entering mission mode\n";
	int fd = open_card(TAIL_CARD);
	unsigned int n = 0, line;
	const char *p;
	size_t len;
	char *log;

	igt_qaic_deactivate(fd, igt_qaic_activate(fd, QUEUE_SIZE));
	log = read_bootlog(fd, &len);
	check_text(log, len);
	p = strstr(log, mark);
	igt_assert_f(p, "no mission mode line:\n%s\n", log);
	for (p += strlen(mark); *p; p = strchr(p, '\n') + 1, n++) {
		igt_assert_f(sscanf(p, "SBL: tail: line %u\n", &line) == 1 &&
			     line == n && strchr(p, '\n'),
			     "tail line %u is not the card's:\n%.200s\n", n, p);
	}
	igt_assert_f(n > 0, "no tail line: the card wrote one a queued buffer\n");
	igt_info("%u tail lines kept\n", n);
	free(log);
	close(fd);
}

igt_main
{
	igt_fixture {
		close(open_card(CARD));
	}

	igt_describe("Check that debugfs bootlog holds, as text, every line the card wrote in SBL: which boot it is, the eight images it loaded, and mission mode.");
	igt_subtest("bootlog")
		test_bootlog();

	igt_describe("Check that the card got the time in SBL and gets it every second in mission mode, and found every one well formed, within 5 s of its own clock and never going back.");
	igt_subtest("timesync")
		test_timesync();

	igt_describe("Check that the boot log stays readable while the card crashes (MHI SYS_ERROR) and recovers, and is the same afterwards: a crash in mission mode does not go through SBL. The time syncs stay good.");
	igt_subtest("sys-error")
		test_sys_error();

	igt_describe("Check that after a function-level reset the card boots again through SBL, and bootlog then holds that boot's lines and none of the last one's; the card got the time again.");
	igt_subtest("reboot")
		test_reboot();

	igt_describe("Check that a card that floods its boot log with more than the driver keeps, and writes bytes that are not text, a line with a NUL inside and a line longer than the driver's buffers, leaves a boot log of the last 64 KiB it wrote, as text, saying how much was lost, and boots; and that malformed messages on QAIC_TIMESYNC get no answer, the real question one.");
	igt_subtest("garbage")
		test_garbage();

	igt_describe("Check that a card that writes a boot log line into every buffer the host has queued right as it enters mission mode, when the host removes the channel, boots; the log holds its SBL lines and then those lines, as text and in order.");
	igt_subtest("tail")
		test_tail();
}
