// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The qaic authors.
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "igt_qaic_boot.h"
#include "sahara_cases.h"

/**
 * TEST: qaic sahara cases
 * Category: Core
 * Description: The systematic Sahara cases of the emulated card, one boot
 *		each: every field of every packet the card sends at its
 *		boundary values, every command out of its state.
 * Feature: qaic
 *
 * SUBTEST: case-%s
 * Description: Check that the host refuses the case's packet at once (the
 *		boot fails), takes it (the card reaches mission mode) or, for
 *		a memory dump's packet, gives the dump up and boots, as the
 *		table tests/emu/sahara_cases.c says, with one verdict in the
 *		log and no kernel report.
 * Run type: FULL
 */

IGT_TEST_DESCRIPTION("The systematic Sahara cases of the emulated card, one boot each: "
		     "every field of every packet the card sends at its boundary "
		     "values, every command out of its state.");

/*
 * The bench igt/run gives this test: one card, which takes each boot's
 * case from $QAIC_RUN/sahara-case (qaic-emu --sahara-case-file) and
 * removes the file, and that offers a function reset (--flr), which powers
 * it on again. A subtest writes its case there and power-cycles the card.
 */
#define SLOT		0
#define CASE_FILE	"sahara-case"
/* Time for a second verdict of the same boot to show in the log. */
#define SETTLE_US	(300 * 1000)

static void write_case(const char *path, const char *name)
{
	FILE *f = fopen(path, "w");

	igt_assert_f(f, "open %s: %s\n", path, strerror(errno));
	fprintf(f, "%s\n", name);
	igt_assert_eq(fclose(f), 0);
}

static void run_case(const struct emu_sahara_case *c)
{
	int failed, up, failed_after, up_after, abandoned;
	const char *run = getenv("QAIC_RUN");
	char line[512] = "", path[4096];
	bool boot_failed;
	size_t from;

	igt_require_f(run && *run, "QAIC_RUN is not set: not in the bench\n");
	igt_require_f(igt_qaic_card_present(SLOT), "no card %u\n", SLOT);
	igt_require_f(igt_qaic_boot_verdict_ours(),
		      "the boot verdict in the log is our driver's\n");
	snprintf(path, sizeof(path), "%s/" CASE_FILE, run);

	/* The boot before (at load, or the last case's) is over. */
	failed = igt_qaic_log_lines(SLOT, "boot failed: ", NULL, 0);
	up = igt_qaic_log_lines(SLOT, "card in mission mode", NULL, 0);
	if (!failed && !up)
		igt_qaic_wait_boot(SLOT, 0, 0, NULL, 0);
	failed = igt_qaic_log_lines(SLOT, "boot failed: ", NULL, 0);
	up = igt_qaic_log_lines(SLOT, "card in mission mode", NULL, 0);
	abandoned = igt_qaic_log_lines(SLOT, "memory dump abandoned", NULL, 0);
	from = strlen(igt_qaic_kernel_log());

	write_case(path, c->name);
	igt_qaic_power_cycle(SLOT);
	boot_failed = igt_qaic_wait_boot(SLOT, failed, up, line, sizeof(line));
	if (!access(path, F_OK)) {
		unlink(path);
		igt_require_f(false, "the card did not take its case: this test needs the "
			      "bench igt/run gives it\n");
	}
	igt_info("%s %s: %s\n", c->name, emu_sahara_verdict_name(c->verdict), line);

	usleep(SETTLE_US);
	failed_after = igt_qaic_log_lines(SLOT, "boot failed: ", NULL, 0);
	up_after = igt_qaic_log_lines(SLOT, "card in mission mode", NULL, 0);
	igt_assert_f(failed_after + up_after == failed + up + 1,
		     "%d verdicts of one boot in the log\n",
		     failed_after + up_after - failed - up);
	if (c->verdict == EMU_SAHARA_BOOT_FAILS) {
		igt_assert_f(boot_failed, "the host took the case's packet: the card booted\n");
		/* Refused at once, not after waiting for the card. */
		igt_assert_f(!strstr(line, "silent") && !strstr(line, "did not take"),
			     "the boot failed by a timeout, not by a refusal\n");
	} else {
		igt_assert_f(!boot_failed, "the host refused a harmless packet\n");
	}
	/* A dump given up is one line; one taken or never offered, none. */
	igt_assert_eq(igt_qaic_log_lines(SLOT, "memory dump abandoned", NULL, 0) - abandoned,
		      c->verdict == EMU_SAHARA_DUMP_ABANDONED);
	igt_qaic_assert_clean_log(from);
}

igt_main
{
	for (unsigned int i = 0; i < emu_sahara_nr_cases; i++) {
		const struct emu_sahara_case *c = &emu_sahara_cases[i];

		igt_describe("The host refuses the case's packet at once, takes it or gives "
			     "the memory dump up, as the table of tests/emu/sahara_cases.c says.");
		igt_subtest_f("case-%s", c->name)
			run_case(c);
	}

	igt_fixture
		igt_qaic_kernel_log_free();
}
