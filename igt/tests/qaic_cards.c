// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The qaic authors.
 */

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/utsname.h>

#include "igt_qaic.h"
#include "igt_qaic_boot.h"

/**
 * TEST: qaic cards
 * Category: Core
 * Description: Every card of the family the driver serves binds, boots and runs work.
 * Feature: qaic
 *
 * SUBTEST: aic100
 * Description: Check that an AIC100 (17cb:a100) with MSI-X binds to qaic, boots and moves data through a DBC.
 * Run type: BAT
 *
 * SUBTEST: aic080
 * Description: Check that an AIC080 (17cb:a080) with plain MSI, as real AIC080 cards have, binds to qaic, boots and moves data through a DBC.
 * Run type: BAT
 *
 * SUBTEST: aic200
 * Description: Check that an AIC200 (17cb:a110; MHI on BAR1, SBL over BHIe, its own Sahara table) binds to qaic, boots and moves data through a DBC on Linux 6.15 and later, and is refused at probe before.
 * Run type: BAT
 */

IGT_TEST_DESCRIPTION("Every card of the family the driver serves binds, boots and runs work.");

/*
 * The bench igt/run gives this test: card N (igt_qaic_card_addr()) at PCI
 * slot N, card 0 an AIC100 with MSI-X, card 1 an AIC080 with plain MSI
 * (qaic-emu --card aic080 --no-msix), card 2 an AIC200 with MSI-X.
 */
#define SZ_4K		4096ull
#define DEV_ADDR	(8ull << 20)
#define QUEUE_SIZE	64

static const struct {
	const char *name;
	unsigned int card;
	unsigned int device;	/* PCI device id */
	bool msix;		/* the bench gives it MSI-X, else plain MSI */
	bool bhie;		/* PBL takes the SBL over BHIe only */
} cards[] = {
	{ "aic100", 0, 0xa100, true, false },
	{ "aic080", 1, 0xa080, false, false },
	{ "aic200", 2, 0xa110, true, true },
};

/* Whether the running kernel's MHI core loads an SBL over BHIe (6.15 on). */
static bool kernel_loads_bhie(void)
{
	unsigned int major = 0, minor = 0;
	struct utsname u;

	igt_assert_eq(uname(&u), 0);
	igt_assert_eq(sscanf(u.release, "%u.%u", &major, &minor), 2);
	return major > 6 || (major == 6 && minor >= 15);
}

/* A hex number from sysfs file @name of the PCI function @bdf; -1 if none */
static long pci_attr(const char *bdf, const char *name)
{
	char path[128], buf[32] = "";
	long val = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/%s", bdf, name);
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (fgets(buf, sizeof(buf), f))
		val = strtol(buf, NULL, 16);
	fclose(f);
	return val;
}

/* Whether the function @bdf uses MSI-X: its msi_irqs entries say "msix" */
static bool uses_msix(const char *bdf)
{
	char cmd[192], out[16] = "";
	FILE *p;

	snprintf(cmd, sizeof(cmd), "cat /sys/bus/pci/devices/%s/msi_irqs/* 2>/dev/null | sort -u",
		 bdf);
	p = popen(cmd, "r");
	igt_assert(p);
	if (!fgets(out, sizeof(out), p))
		out[0] = '\0';
	pclose(p);
	return !strncmp(out, "msix", 4);
}

static void test_card(unsigned int i)
{
	char bdf[32], driver[256], link[128];
	uint32_t dbc;
	ssize_t n;
	int fd;

	igt_qaic_card_addr(cards[i].card, bdf, sizeof(bdf));
	igt_require_f(pci_attr(bdf, "vendor") == 0x17cb && pci_attr(bdf, "device") == cards[i].device,
		      "no %s at %s (igt/run gives this test its cards)\n", cards[i].name, bdf);

	snprintf(link, sizeof(link), "/sys/bus/pci/devices/%s/driver", bdf);
	n = readlink(link, driver, sizeof(driver) - 1);
	if (cards[i].bhie && !kernel_loads_bhie()) {
		/* Refused at probe, with its one line (qaic.rst, Probe) */
		igt_assert_f(n < 0, "%s (%s) is bound on a kernel that cannot boot it\n", bdf,
			     cards[i].name);
		igt_assert_eq(igt_qaic_log_lines(cards[i].card, "its SBL loads over BHIe", NULL, 0),
			      1);
		return;
	}
	igt_assert_f(n > 0, "%s is bound to no driver\n", bdf);
	driver[n] = '\0';
	igt_assert_f(!strcmp(strrchr(driver, '/') + 1, "qaic"), "%s is bound to %s\n", bdf,
		     driver);
	igt_assert_eq(uses_msix(bdf), cards[i].msix);

	/* The round trip waits for the boot and checks every byte */
	fd = igt_qaic_open_bdf(bdf);
	dbc = igt_qaic_activate(fd, QUEUE_SIZE);
	igt_qaic_round_trip(fd, dbc, DEV_ADDR, 16 * SZ_4K, 80 + i);
	igt_qaic_deactivate(fd, dbc);
	close(fd);
}

igt_main
{
	for (unsigned int i = 0; i < ARRAY_SIZE(cards); i++) {
		igt_describe_f("Check that an %s binds to qaic, boots and moves data through a DBC.",
			       cards[i].name);
		igt_subtest_f("%s", cards[i].name)
			test_card(i);
	}
}
