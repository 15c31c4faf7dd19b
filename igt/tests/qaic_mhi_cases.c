// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The qaic authors.
 */

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "igt_qaic.h"
#include "igt_qaic_boot.h"
#include "mhi_cases.h"

/**
 * TEST: qaic mhi cases
 * Category: Core
 * Description: The systematic cases of the emulated card's MHI events in
 *		mission mode: state and execution environment changes to every
 *		value, completions of no command and on channels never started
 *		or past the table, events of types the host has no use for.
 * Feature: qaic
 *
 * SUBTEST: mhi-%s
 * Description: Check that after the case's event the card works on, or
 *		comes back to mission mode by the host's recovery, as
 *		tests/emu/mhi_cases.c says, and runs a round trip, with no
 *		kernel report.
 * Run type: FULL
 */

IGT_TEST_DESCRIPTION("The systematic cases of the emulated card's MHI events in mission "
		     "mode: states, execution environments, completions, event types.");

/* The one card of the Sahara cases' bench (igt/run): boots from PBL, can be reset. */
#define SLOT		0
#define QUEUE_SIZE	16
#define SZ_4K		4096ull
#define DEV_ADDR	(62ull << 20)
/* Time for the host to act on the event. */
#define SETTLE_US	(500 * 1000)
#define WAIT_MS		20000

static uint32_t seed;

/* A DBC activated and a round trip through it, once the control path answers. */
static void check_works(void)
{
	uint64_t start = igt_qaic_now_ms();
	uint32_t dbc;
	int fd, ret;

	do {
		fd = __igt_qaic_open();
		if (fd >= 0) {
			ret = __igt_qaic_activate(fd, QUEUE_SIZE, &dbc);
			if (!ret)
				break;
			igt_qaic_close(fd);
		} else {
			ret = fd;
		}
		usleep(100 * 1000);
	} while (igt_qaic_now_ms() - start < WAIT_MS);
	igt_assert_f(!ret, "no DBC activated %d ms after the case: %s\n", WAIT_MS,
		     strerror(-ret));
	igt_qaic_round_trip(fd, dbc, DEV_ADDR, SZ_4K, ++seed);
	igt_qaic_close(fd);
}

static void run_case(unsigned int idx)
{
	const struct emu_mhi_case *c = &emu_mhi_cases[idx];
	int up, recovered, fd, ret;
	size_t from;

	igt_require_f(igt_qaic_card_present(SLOT), "no card %u\n", SLOT);
	fd = igt_qaic_open_card_up(SLOT);
	up = igt_qaic_log_lines(SLOT, "card in mission mode", NULL, 0);
	from = strlen(igt_qaic_kernel_log());
	ret = __igt_qaic_emu_card_case(fd, IGT_QAIC_EMU_CASE_MHI, idx);
	igt_require_f(ret != IGT_QAIC_EMU_PT_E_UNKNOWN_OP, "the emulator has no EMU_PT_CARD_CASE\n");
	igt_require_f(ret != IGT_QAIC_EMU_PT_E_RANGE, "the emulator has no MHI cases\n");
	/* A recovery fails the call in flight: the one that sent the case. */
	igt_assert_f(!ret || (ret == -EIO && c->verdict == EMU_MHI_CASE_RECOVERS),
		     "sending the case: %d\n", ret);
	igt_qaic_close(fd);

	usleep(SETTLE_US);
	check_works();
	recovered = igt_qaic_log_lines(SLOT, "card in mission mode", NULL, 0) - up;
	igt_info("%s %s: %d recoveries\n", c->name, emu_mhi_case_verdict_name(c->verdict),
		 recovered);
	igt_assert_f(recovered == (c->verdict == EMU_MHI_CASE_RECOVERS),
		     "%d recoveries, not %d\n", recovered, c->verdict == EMU_MHI_CASE_RECOVERS);
	igt_qaic_assert_clean_log(from);
}

igt_main
{
	for (unsigned int i = 0; i < emu_mhi_nr_cases; i++) {
		igt_describe("After the case's MHI event the card works on, or comes back, as "
			     "the table of tests/emu/mhi_cases.c says.");
		igt_subtest_f("mhi-%s", emu_mhi_cases[i].name)
			run_case(i);
	}

	igt_fixture
		igt_qaic_kernel_log_free();
}
