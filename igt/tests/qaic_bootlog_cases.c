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

#include "bootlog_cases.h"
#include "igt_qaic.h"
#include "igt_qaic_boot.h"

/**
 * TEST: qaic bootlog cases
 * Category: Core
 * Description: The systematic cases of the emulated card's boot log, a
 *		boot each: message lengths around the host's buffer, NULs,
 *		bytes that are not text, the length a completion claims, a
 *		flood.
 * Feature: qaic
 *
 * SUBTEST: bootlog-%s
 * Description: Check that after a reset whose boot writes the case's
 *		messages into the boot log the driver keeps of each the bytes
 *		tests/emu/bootlog_cases.c says, as text, between the boot's
 *		first line and the rest of the log, that the card reaches
 *		mission mode, with no kernel report.
 * Run type: FULL
 */

IGT_TEST_DESCRIPTION("The systematic cases of the emulated card's boot log, a boot each: "
		     "message lengths around the host's buffer, NULs, bytes that are not "
		     "text, the length a completion claims, a flood.");

#define LOG_MAX		(128 * 1024)
#define KEPT		65536
#define QUEUE_SIZE	16
#define WAIT_MS		30000

static int fd = -1;
static char bdf[32];

static char *read_bootlog(size_t *len)
{
	return igt_qaic_read_bootlog(bdf, LOG_MAX, len);
}

/* Reset the card; MANAGE works again once it is in mission mode. */
static void reset_card(void)
{
	uint64_t start = igt_qaic_now_ms();
	char path[128];
	uint32_t dbc;
	int rfd, ret;

	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/reset", bdf);
	rfd = open(path, O_WRONLY);
	igt_require_f(rfd >= 0, "open %s: %s\n", path, strerror(errno));
	igt_assert_f(write(rfd, "1", 1) == 1, "reset: %s\n", strerror(errno));
	close(rfd);
	while ((ret = __igt_qaic_activate(fd, QUEUE_SIZE, &dbc)) &&
	       igt_qaic_now_ms() - start < WAIT_MS)
		usleep(50000);
	igt_assert_eq(ret, 0);
	igt_qaic_deactivate(fd, dbc);
}

static void check_text(const char *log, size_t len)
{
	for (size_t i = 0; i < len; i++)
		igt_assert_f(log[i] == '\n' || log[i] == '\t' ||
			     (log[i] >= 0x20 && log[i] < 0x7f),
			     "byte %zu of the boot log is %#x, not text\n", i,
			     (unsigned char)log[i]);
}

/* The log after the case's bytes: the boot's other lines, the last the mission mode's. */
static void check_rest(const char *rest)
{
	const char *last = strstr(rest, "SBL: boot ");

	igt_assert_f(!strncmp(rest, "SBL: image ", strlen("SBL: image ")),
		     "after the case's bytes:\n%.200s\n", rest);
	igt_assert_f(last && strstr(last, ": entering mission mode\n") &&
		     !strcmp(strstr(last, ": entering mission mode\n"), ": entering mission mode\n"),
		     "the boot log does not end with the mission mode line:\n%s\n", rest);
}

static void run_case(unsigned int idx)
{
	const struct emu_bootlog_case *c = &emu_bootlog_cases[idx];
	uint8_t *kept = malloc(c->kept + 1);
	unsigned long long lost = 0;
	const char *p, *body;
	size_t len, from;
	char *log;
	int ret;

	igt_require(fd >= 0);
	igt_assert(kept);
	from = strlen(igt_qaic_kernel_log());
	ret = __igt_qaic_emu_card_case(fd, IGT_QAIC_EMU_CASE_BOOTLOG, idx);
	igt_require_f(ret != IGT_QAIC_EMU_PT_E_UNKNOWN_OP, "the emulator has no EMU_PT_CARD_CASE\n");
	igt_assert_eq(ret, 0);
	reset_card();

	log = read_bootlog(&len);
	emu_bootlog_case_kept(c, kept);
	body = log;
	if (c->lost) {
		igt_assert_f(sscanf(log, "[%llu bytes of the log lost]\n", &lost) == 1 && lost,
			     "no line of bytes lost:\n%.200s\n", log);
		body = strchr(log, '\n') + 1;
		igt_assert_eq(len - (body - log), KEPT);
		check_text(body, len - (body - log));
		/* What is left of the case's bytes, then the rest. */
		p = strstr(body, "SBL: image ");
		igt_assert_f(p, "no image line in the boot log\n");
		for (const char *q = p - 1; q >= body; q--)
			igt_assert_f(*q == kept[(c->kept - (p - q) % c->kept) % c->kept],
				     "byte %zu of the kept log is %#x\n", (size_t)(q - body),
				     (unsigned char)*q);
		check_rest(p);
	} else {
		igt_assert_f(!strncmp(log, "qaic-emu ", strlen("qaic-emu ")),
			     "the boot log does not begin with the emulator's line:\n%.200s\n", log);
		check_text(log, len);
		p = strchr(log, '\n');
		igt_assert(p);
		p++;
		for (unsigned int i = 0; i < c->count; i++, p += c->kept)
			igt_assert_f((size_t)(p - log) + c->kept <= len &&
				     !memcmp(p, kept, c->kept),
				     "message %u of the case is not kept as %u bytes:\n%.600s\n",
				     i, c->kept, p);
		check_rest(p);
	}
	igt_info("%s: %u messages of %u bytes, %u kept each; log %zu bytes, %llu lost\n",
		 c->name, c->count, c->len, c->kept, len, lost);
	free(log);
	free(kept);
	igt_qaic_assert_clean_log(from);
}

igt_main
{
	igt_fixture {
		fd = igt_qaic_open();
		igt_qaic_card_bdf(fd, bdf, sizeof(bdf));
	}

	for (unsigned int i = 0; i < emu_bootlog_nr_cases; i++) {
		igt_describe("The driver keeps of each of the case's boot log messages the "
			     "bytes tests/emu/bootlog_cases.c says, as text, and the card boots.");
		igt_subtest_f("bootlog-%s", emu_bootlog_cases[i].name)
			run_case(i);
	}

	igt_fixture {
		if (fd >= 0)
			igt_qaic_close(fd);
		igt_qaic_kernel_log_free();
	}
}
