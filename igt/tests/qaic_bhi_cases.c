// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The qaic authors.
 */

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "bhi_cases.h"
#include "igt_qaic.h"
#include "igt_qaic_boot.h"

/**
 * TEST: qaic bhi cases
 * Category: Core
 * Description: The systematic cases of the emulated card's BHI registers,
 *		a boot each: the download's status (BHI's, or BHIe's on an
 *		AIC200), the execution environment and the serial number at
 *		their boundary values, the download's interrupt withheld.
 * Feature: qaic
 *
 * SUBTEST: bhi-%s
 * Description: Check that a boot whose BHI registers read as the case
 *		says reaches mission mode, or fails with one line in the log
 *		and open() -ENODEV, as tests/emu/bhi_cases.c says; that the card
 *		then boots again and runs work, with no kernel report.
 * Run type: FULL
 *
 * SUBTEST: bhie-%s
 * Description: Check the same of a card that takes its SBL over BHIe (an
 *		AIC200, on Linux 6.15 and later) and BHIe's TXVECSTATUS.
 * Run type: FULL
 */

IGT_TEST_DESCRIPTION("The systematic cases of the emulated card's BHI registers, a boot "
		     "each: status, execution environment, serial number, the interrupt.");

/* The one card of the Sahara cases' bench (igt/run): boots from PBL, can be reset. */
#define SLOT		0
#define QUEUE_SIZE	16
#define SZ_4K		4096ull
#define DEV_ADDR	(60ull << 20)
/* Time for a second verdict of the same boot to show in the log. */
#define SETTLE_US	(300 * 1000)
/*
 * The boot watchdog's deadline during the test (seconds): what a case
 * that fails late costs. Put back at exit (a process per subtest).
 */
#define BOOT_TIMEOUT_S		"4"

static uint32_t seed;

static void run_case(unsigned int idx)
{
	const struct emu_bhi_case *c = &emu_bhi_cases[idx];
	int failed, up, failed_after, up_after, fd, ret;
	bool boot_failed, bhie;
	char line[512] = "";
	uint32_t dbc;
	size_t from;

	igt_require_f(igt_qaic_card_present(SLOT), "no card %u\n", SLOT);
	igt_require_f(igt_qaic_boot_verdict_ours(), "the boot verdict in the log is our driver's\n");
	/* An AIC200's PBL takes the SBL over BHIe, the others' over BHI. */
	bhie = igt_qaic_card_device(SLOT) == 0xa110;
	igt_require_f(c->load == EMU_BHI_LOAD_ANY || (c->load == EMU_BHI_LOAD_BHIE) == bhie,
		      "the card takes its SBL over %s; the case is about the other\n",
		      bhie ? "BHIe" : "BHI");
	fd = igt_qaic_open_card_up(SLOT);
	ret = __igt_qaic_emu_card_case(fd, IGT_QAIC_EMU_CASE_BHI, idx);
	igt_require_f(ret != IGT_QAIC_EMU_PT_E_UNKNOWN_OP, "the emulator has no EMU_PT_CARD_CASE\n");
	igt_require_f(ret != IGT_QAIC_EMU_PT_E_RANGE, "the emulator has no BHI cases\n");
	igt_assert_eq(ret, 0);
	igt_qaic_close(fd);

	failed = igt_qaic_log_lines(SLOT, "boot failed: ", NULL, 0);
	up = igt_qaic_log_lines(SLOT, "card in mission mode", NULL, 0);
	from = strlen(igt_qaic_kernel_log());
	igt_qaic_power_cycle(SLOT);
	boot_failed = igt_qaic_wait_boot(SLOT, failed, up, line, sizeof(line));
	igt_info("%s %s: %s\n", c->name, emu_bhi_case_verdict_name(c->verdict), line);

	usleep(SETTLE_US);
	failed_after = igt_qaic_log_lines(SLOT, "boot failed: ", NULL, 0);
	up_after = igt_qaic_log_lines(SLOT, "card in mission mode", NULL, 0);
	igt_assert_f(failed_after + up_after == failed + up + 1,
		     "%d verdicts of one boot in the log\n", failed_after + up_after - failed - up);
	if (c->verdict != EMU_BHI_CASE_UP) {
		igt_assert_f(boot_failed, "the host took the case: the card booted\n");
		igt_assert_f(!strstr(line, "no mission mode") == (c->verdict == EMU_BHI_CASE_FAILS),
			     "the boot failed %s\n", c->verdict == EMU_BHI_CASE_FAILS ?
			     "by the watchdog, not at once" : "at once, not by the watchdog");
		fd = __igt_qaic_open();
		igt_assert_f(fd == -ENODEV, "open() after a failed boot: %d, not -ENODEV\n", fd);
		fd = igt_qaic_open_card_up(SLOT);
	} else {
		igt_assert_f(!boot_failed, "the host refused a harmless value\n");
		fd = igt_qaic_open();
	}
	dbc = igt_qaic_activate(fd, QUEUE_SIZE);
	igt_qaic_round_trip(fd, dbc, DEV_ADDR, SZ_4K, ++seed);
	igt_qaic_close(fd);
	igt_qaic_assert_clean_log(from);
}

igt_main
{
	igt_fixture
		igt_qaic_param_set("boot_timeout_s", BOOT_TIMEOUT_S);

	for (unsigned int i = 0; i < emu_bhi_nr_cases; i++) {
		igt_describe("A boot whose BHI registers read as the case says comes up or "
			     "fails as the table of tests/emu/bhi_cases.c says.");
		/* The BHIe cases' names say so already: bhie-NAME. */
		igt_subtest_f("%s%s", emu_bhi_cases[i].load == EMU_BHI_LOAD_BHIE ? "" : "bhi-",
			      emu_bhi_cases[i].name)
			run_case(i);
	}

	igt_fixture {
		igt_qaic_param_restore();
		igt_qaic_kernel_log_free();
	}
}
