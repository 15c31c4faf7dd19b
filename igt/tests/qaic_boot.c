// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The qaic authors.
 */

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "igt_qaic_boot.h"
#include "sahara_images.h"

/**
 * TEST: qaic boot
 * Category: Core
 * Description: Boot of a card from power-on: SBL over BHI, the other images
 *		over Sahara, and every way the card can get it wrong.
 * Feature: qaic
 *
 * SUBTEST: good-boot
 * Description: Check that a card booted from PBL reaches mission mode and answers.
 * Run type: BAT
 *
 * SUBTEST: bhi-corrupt
 * Description: Check that a card refusing SBL over BHI leaves a node that refuses open().
 * Run type: FULL
 *
 * SUBTEST: power-up-garbage
 * Description: Check that a card whose registers read all-ones once after power-on is reset and tried again, with one line in the log.
 * Run type: FULL
 *
 * SUBTEST: power-up-no-decode
 * Description: Check that a card whose config write turning memory decoding on was lost (its registers read all-ones) has decoding turned on again after one failed try, and that its boot then goes on (card 7: to its Sahara fault).
 * Run type: FULL
 *
 * SUBTEST: unknown-image
 * Description: Check that a request for an image outside the table fails the boot.
 * Run type: FULL
 *
 * SUBTEST: out-of-range
 * Description: Check that a read past the end of an image fails the boot.
 * Run type: FULL
 *
 * SUBTEST: zero-length
 * Description: Check that a read of no bytes fails the boot.
 * Run type: FULL
 *
 * SUBTEST: never-finish
 * Description: Check that a card that falls silent fails the boot after a timeout.
 * Run type: FULL
 *
 * SUBTEST: corrupt
 * Description: Check that a card refusing an image fails the boot.
 * Run type: FULL
 *
 * SUBTEST: after-done
 * Description: Check that a request after the last image fails the boot.
 * Run type: FULL
 *
 * SUBTEST: oversize
 * Description: Check that a read over the size limit fails the boot, after a rebind.
 * Run type: FULL
 *
 * SUBTEST: eoi-no-image
 * Description: Check that an END_OF_IMAGE for image 0xffffffff with no image open fails the boot, after a rebind.
 * Run type: FULL
 *
 * SUBTEST: eoi-past-table
 * Description: Check that an END_OF_IMAGE for an image past the table with no image open fails the boot, after a rebind.
 * Run type: FULL
 *
 * SUBTEST: rebind-good
 * Description: Check that a card whose boot failed boots again when the driver is bound again.
 * Run type: FULL
 *
 * SUBTEST: missing-required-image
 * Description: Check that a firmware without an image the card needs (fw6 of an AIC100) fails the boot
 *		with one line naming the file, and open() gives ENODEV.
 * Run type: FULL
 *
 * SUBTEST: missing-required-first-image
 * Description: Check that a firmware without the first image, which the card needs (fw1 of an AIC100),
 *		fails the boot with one line naming the file, and open() gives ENODEV.
 * Run type: FULL
 *
 * SUBTEST: missing-optional-image
 * Description: Check that a firmware without an optional image (fw5 of an AIC100) boots the card
 *		without it, and data makes a round trip through a DBC.
 * Run type: FULL
 *
 * SUBTEST: missing-optional-last-image
 * Description: Check that a firmware without the last image, an optional one (fw10 of an AIC100), boots
 *		the card without it, and data makes a round trip through a DBC.
 * Run type: FULL
 */

IGT_TEST_DESCRIPTION("Boot of a card from power-on: SBL over BHI, the other "
		     "images over Sahara, and every way the card can get it wrong.");

/*
 * The bench igt/run gives this test: eight cards, card N in PCI slot N
 * (igt_qaic_card_addr() finds a card wherever it sits), all powering on
 * in PBL. Card 0 is good and offers a function reset (qaic-emu --flr),
 * which the missing-* subtests use to boot it again with an image left
 * out of the firmware; the others commit one fault
 * each on their first boot (qaic-emu --bhi-fault, --sahara-fault; card 1
 * also answers its first MHI register read with all-ones), card 6
 * boots well the second time, cards 2, 4 and 7 commit a second
 * fault on their second boot (reboot_faults). Run elsewhere, a card that
 * booted well or does not exist skips.
 */

/* The round trip of a card that booted without an image. */
#define SZ_4K		4096ull
#define DEV_ADDR	(8ull << 20)
#define QUEUE_SIZE	64

/* The accel node of card @card, or -1. */
static int card_minor(unsigned int card)
{
	char bdf[32], path[96];
	struct dirent *de;
	int minor = -1;
	DIR *d;

	if (!igt_qaic_card_addr(card, bdf, sizeof(bdf)))
		return -1;
	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/accel", bdf);
	d = opendir(path);
	if (!d)
		return -1;
	while ((de = readdir(d)))
		if (sscanf(de->d_name, "accel%d", &minor) == 1)
			break;
	closedir(d);
	return minor;
}

static int open_card(unsigned int card)
{
	char path[32];
	int minor = card_minor(card);

	igt_assert_f(minor >= 0, "card %u has no accel node\n", card);
	snprintf(path, sizeof(path), "/dev/accel/accel%d", minor);
	return open(path, O_RDWR | O_CLOEXEC);
}

/* The card's boot failed with @why in its one log line; open() is refused. */
static void check_failed(unsigned int card, const char *why, int failed_before,
			 int up_before)
{
	char line[512] = "";
	int fd;

	igt_require_f(igt_qaic_card_present(card), "no card %u\n", card);
	igt_require_f(igt_qaic_boot_verdict_ours(), "the boot verdict in the log is our driver's\n");
	igt_require_f(igt_qaic_wait_boot(card, failed_before, up_before, line, sizeof(line)),
		      "card %u booted: it has no fault to commit\n", card);
	igt_info("%s\n", line);
	igt_assert_f(strstr(line, why), "expected \"%s\" in the log line\n", why);
	/* One line per failed boot, and it stays one. */
	usleep(300 * 1000);
	igt_assert_eq(igt_qaic_log_lines(card, "boot failed: ", NULL, 0), failed_before + 1);

	fd = open_card(card);
	igt_assert_f(fd < 0 && errno == ENODEV, "open() gave %d (%s), not ENODEV\n",
		     fd, fd < 0 ? strerror(errno) : "a file");
	igt_qaic_assert_clean_log(0);
}

static void check_usable(unsigned int card)
{
	struct qaic_manage_trans_status_from_dev status;
	int fd = open_card(card);

	igt_assert_f(fd >= 0, "open(): %s\n", strerror(errno));
	igt_qaic_status(fd, &status);
	close(fd);
}

/* Another driver: the card is usable within the boot wait, or never. */
static void wait_usable(unsigned int card)
{
	struct qaic_manage_trans_status_from_dev status;

	for (int i = 0; i < IGT_QAIC_BOOT_WAIT_S * 10; i++) {
		int fd = open_card(card);

		if (fd >= 0) {
			int err = __igt_qaic_status(fd, &status);

			close(fd);
			if (!err)
				return;
		}
		usleep(100 * 1000);
	}
	igt_assert_f(false, "card %u not usable in %d s\n", card, IGT_QAIC_BOOT_WAIT_S);
}

static void test_good_boot(void)
{
	char line[512] = "";

	igt_require_f(igt_qaic_card_present(0), "no card 0\n");
	if (!igt_qaic_boot_verdict_ours()) {
		wait_usable(0);
		igt_qaic_assert_clean_log(0);
		return;
	}
	igt_assert_f(!igt_qaic_wait_boot(0, 0, 0, line, sizeof(line)), "%s\n", line);
	igt_info("%s\n", line);
	igt_assert_f(igt_qaic_log_lines(0, "Sahara: 8 images", NULL, 0) >= 1 ||
		     igt_qaic_log_lines(0, "boot failed", NULL, 0) == 0,
		     "no Sahara transfer logged\n");
	check_usable(0);
	igt_qaic_assert_clean_log(0);
}

/* Boot card @card once more, with the firmware at @fw_path ("" = default). */
static void reboot_card(unsigned int card, const char *fw_path, int *failed, int *up)
{
	*failed = igt_qaic_log_lines(card, "boot failed: ", NULL, 0);
	*up = igt_qaic_log_lines(card, "card in mission mode", NULL, 0);
	if (fw_path)
		igt_qaic_write_file("/sys/module/firmware_class/parameters/path", fw_path);
	igt_qaic_rebind(card);
}

/* The Sahara table of card @card: the AIC200's, or the AIC100's (also the AIC080's). */
static const struct emu_sahara_table *card_table(unsigned int card)
{
	return igt_qaic_card_device(card) == 0xa110 ? &emu_sahara_aic200_table :
						      &emu_sahara_aic100_table;
}

/*
 * A copy of the bench's firmware in a new directory: every file but
 * @omit (under qcom/).
 */
static char *firmware_without(const char *omit)
{
	const char *src = getenv("QAIC_FIRMWARE");
	char tmpl[] = "/tmp/qaic-boot-fw.XXXXXX", cmd[4096];
	char *dir;

	igt_require_f(src && *src, "QAIC_FIRMWARE is not set: not in the bench\n");
	dir = mkdtemp(tmpl);
	igt_assert(dir);
	snprintf(cmd, sizeof(cmd), "cp -r %s/qcom %s/ && rm %s/qcom/%s", src, dir, dir, omit);
	igt_assert_eq(system(cmd), 0);
	return strdup(dir);
}

/* Faults that cards commit on their second boot, after a rebind. */
static const struct {
	const char *name;
	unsigned int card;
	const char *why;	/* in the boot's log line */
} reboot_faults[] = {
	{ "oversize", 7, "bytes of image 1 (1 to" },	/* AIC100: reads up to 0x80000 */
	{ "eoi-no-image", 2, "END_OF_IMAGE for image 4294967295 with no image open" },
	{ "eoi-past-table", 4, "END_OF_IMAGE for image 11 with no image open" },
};

/* The card's first boot is over; its second, after a rebind, fails with @why. */
static void check_failed_on_reboot(unsigned int card, const char *why)
{
	int failed, up;

	igt_require_f(igt_qaic_card_present(card), "no card %u\n", card);
	igt_require_f(!strstr(why, "(1 to") || !card_table(card)->streams,
		      "this card reads any length: no oversize read\n");
	igt_require_f(igt_qaic_boot_verdict_ours(), "the boot verdict in the log is our driver's\n");
	igt_qaic_wait_boot(card, 0, 0, NULL, 0);
	reboot_card(card, NULL, &failed, &up);
	check_failed(card, why, failed, up);
}

static void remove_dir(const char *dir)
{
	char cmd[4096];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	igt_assert_eq(system(cmd), 0);
}

/*
 * Firmware without one image, card 0 booted again from power-on. The
 * host has none of the image and answers the card with RESET; whether the
 * card can go on is the card's to say (the emulated card's optional
 * images, sahara_images.c: 5 and 10 of the AIC100, 63 and 78 of the
 * AIC200). Which image, from the card's table: its fifth (required), its
 * first (required), its first optional one before the last, its last
 * (optional).
 */
enum pick { PICK_FIFTH, PICK_FIRST, PICK_OPTIONAL, PICK_LAST };

static const struct {
	const char *name;
	enum pick pick;
	bool optional;
} missing_images[] = {
	{ "missing-required-image", PICK_FIFTH, false },
	{ "missing-required-first-image", PICK_FIRST, false },
	{ "missing-optional-image", PICK_OPTIONAL, true },
	{ "missing-optional-last-image", PICK_LAST, true },
};

static const struct emu_sahara_image *pick_image(const struct emu_sahara_table *t, enum pick p)
{
	switch (p) {
	case PICK_FIFTH:
		return &t->images[4];
	case PICK_FIRST:
		return &t->images[0];
	case PICK_OPTIONAL:
		for (unsigned int k = 0; k + 1 < t->nr; k++)
			if (t->images[k].optional)
				return &t->images[k];
		break;
	case PICK_LAST:
		return &t->images[t->nr - 1];
	}
	igt_assert_f(false, "no such image in the table\n");
	return NULL;
}

static void test_missing_image(unsigned int i)
{
	const char *fw = getenv("QAIC_FIRMWARE");
	int failed, up, went_on, fd;
	const struct emu_sahara_image *img;
	char line[512] = "", image[96];
	bool boot_failed;
	size_t from;
	char *dir;

	igt_require_f(igt_qaic_card_present(0), "no card in slot 0\n");
	igt_require_f(igt_qaic_boot_verdict_ours(), "the boot verdict in the log is our driver's\n");
	/*
	 * firmware_class.path is searched before the kernel's own paths, not
	 * instead of them: firmware there (the PC's) cannot be hidden.
	 */
	igt_require_f(fw && strcmp(fw, "/lib/firmware") && strcmp(fw, "/usr/lib/firmware"),
		      "the firmware is in a path the kernel searches anyway (%s)\n", fw ? fw : "unset");
	img = pick_image(card_table(0), missing_images[i].pick);
	/* The table says what the emulated card does. */
	igt_assert_eq(img->optional, missing_images[i].optional);

	/* The boot before (at load, or the last subtest's) is over. */
	if (!igt_qaic_log_lines(0, "boot failed: ", NULL, 0) &&
	    !igt_qaic_log_lines(0, "card in mission mode", NULL, 0))
		igt_qaic_wait_boot(0, 0, 0, NULL, 0);
	snprintf(image, sizeof(image), "image %u (qcom/%s", img->id, img->file);
	failed = igt_qaic_log_lines(0, "boot failed: ", NULL, 0);
	up = igt_qaic_log_lines(0, "card in mission mode", NULL, 0);
	went_on = igt_qaic_log_lines(0, "Sahara: the card goes on without image", NULL, 0);
	from = strlen(igt_qaic_kernel_log());

	dir = firmware_without(img->file);
	igt_qaic_write_file("/sys/module/firmware_class/parameters/path", dir);
	igt_qaic_power_cycle(0);
	boot_failed = igt_qaic_wait_boot(0, failed, up, line, sizeof(line));
	igt_qaic_write_file("/sys/module/firmware_class/parameters/path", fw);
	remove_dir(dir);
	free(dir);
	igt_info("%s\n", line);
	/* Time for a second verdict, or another line, of the same boot. */
	usleep(300 * 1000);

	if (missing_images[i].optional) {
		igt_assert_f(!boot_failed, "the boot failed without an optional image\n");
		igt_assert_eq(igt_qaic_log_lines(0, "boot failed: ", NULL, 0), failed);
		igt_assert_eq(igt_qaic_log_lines(0, "Sahara: the card goes on without image",
						 line, sizeof(line)), went_on + 1);
		igt_info("%s\n", line);
		igt_assert_f(strstr(line, image), "\"%s\" not in the line\n", image);
		fd = open_card(0);
		igt_assert_f(fd >= 0, "open(): %s\n", strerror(errno));
		{
			uint32_t dbc = igt_qaic_activate(fd, QUEUE_SIZE);

			igt_qaic_round_trip(fd, dbc, DEV_ADDR, 16 * SZ_4K, 90 + i);
			igt_qaic_deactivate(fd, dbc);
		}
		close(fd);
	} else {
		igt_assert_f(boot_failed, "the card booted without an image it needs\n");
		igt_assert_f(strstr(line, image) && strstr(line, "not found") &&
			     strstr(line, "cannot go on without it"),
			     "the line does not say the card cannot go on without %s)\n", image);
		igt_assert_eq(igt_qaic_log_lines(0, "boot failed: ", NULL, 0), failed + 1);
		igt_assert_eq(igt_qaic_log_lines(0, "card in mission mode", NULL, 0), up);
		igt_assert_eq(igt_qaic_log_lines(0, "Sahara: the card goes on without image",
						 NULL, 0), went_on);
		fd = open_card(0);
		igt_assert_f(fd < 0 && errno == ENODEV, "open() gave %d (%s), not ENODEV\n",
			     fd, fd < 0 ? strerror(errno) : "a file");
	}
	igt_qaic_assert_clean_log(from);
}

igt_main
{
	igt_describe("A card booted from PBL reaches mission mode and answers.");
	igt_subtest("good-boot")
		test_good_boot();

	igt_describe("A card refusing SBL over BHI leaves a node that refuses open().");
	igt_subtest("bhi-corrupt")
		check_failed(1, "over BHI", 0, 0);

	igt_describe("A card whose registers read all-ones once after power-on is reset "
		     "and tried again, with one line in the log.");
	igt_subtest("power-up-garbage") {
		char line[512] = "";

		igt_require_f(igt_qaic_card_present(1), "no card 1\n");
		igt_require_f(igt_qaic_boot_verdict_ours(), "the retry is our driver's\n");
		igt_qaic_wait_boot(1, 0, 0, line, sizeof(line));
		igt_info("%s\n", line);
		igt_assert_eq(igt_qaic_log_lines(1, "power-up try 1 of 3: MHI prepare failed", NULL, 0), 1);
		igt_assert_eq(igt_qaic_log_lines(1, "power-up try 2 of", NULL, 0), 0);
		/* The second try got as far as BHI, which this card refuses. */
		igt_assert_f(strstr(line, "over BHI"), "the boot did not reach BHI\n");
		igt_qaic_assert_clean_log(0);
	}

	igt_describe("A card that does not decode memory (the write that turned it on was "
		     "lost) has decoding turned on again after one failed try, and boots on.");
	igt_subtest("power-up-no-decode") {
		char line[512] = "";

		igt_require_f(igt_qaic_card_present(7), "no card 7\n");
		igt_require_f(igt_qaic_boot_verdict_ours(), "the retry is our driver's\n");
		igt_qaic_wait_boot(7, 0, 0, line, sizeof(line));
		igt_info("%s\n", line);
		igt_assert_eq(igt_qaic_log_lines(7, "power-up try 1 of 3: MHI prepare failed",
						 NULL, 0), 1);
		igt_assert_eq(igt_qaic_log_lines(7, "turning memory decoding on again", NULL, 0), 1);
		igt_assert_eq(igt_qaic_log_lines(7, "power-up try 2 of", NULL, 0), 0);
		/* The second try got to Sahara, where this card's own fault waits. */
		igt_assert_f(strstr(line, "after the last image"), "the boot did not reach Sahara\n");
		igt_qaic_assert_clean_log(0);
	}

	igt_describe("A request for an image outside the table fails the boot.");
	igt_subtest("unknown-image")
		check_failed(2, "not in the image table", 0, 0);

	igt_describe("A read past the end of an image fails the boot.");
	igt_subtest("out-of-range")
		check_failed(3, "outside image", 0, 0);

	igt_describe("A read of no bytes fails the boot.");
	igt_subtest("zero-length")
		check_failed(4, "read of 0 bytes", 0, 0);

	igt_describe("A card that falls silent fails the boot after a timeout.");
	igt_subtest("never-finish")
		check_failed(5, "silent", 0, 0);

	igt_describe("A card refusing an image fails the boot.");
	igt_subtest("corrupt")
		check_failed(6, "refused image", 0, 0);

	igt_describe("A request after the last image fails the boot.");
	igt_subtest("after-done")
		check_failed(7, "after the last image", 0, 0);

	for (size_t i = 0; i < ARRAY_SIZE(reboot_faults); i++) {
		igt_describe("A card's fault on its second boot fails that boot: a read over "
			     "the size limit, or an END_OF_IMAGE with no image open.");
		igt_subtest_f("%s", reboot_faults[i].name)
			check_failed_on_reboot(reboot_faults[i].card, reboot_faults[i].why);
	}

	igt_describe("A card whose boot failed boots again when the driver is bound again.");
	igt_subtest("rebind-good") {
		char line[512] = "";
		int failed, up;

		igt_require_f(igt_qaic_card_present(6), "no card 6\n");
		igt_require_f(igt_qaic_boot_verdict_ours(), "the boot verdict in the log is our driver's\n");
		igt_qaic_wait_boot(6, 0, 0, NULL, 0);
		reboot_card(6, NULL, &failed, &up);
		igt_assert_f(!igt_qaic_wait_boot(6, failed, up, line, sizeof(line)), "%s\n", line);
		check_usable(6);
		igt_qaic_assert_clean_log(0);
	}

	for (unsigned int i = 0; i < ARRAY_SIZE(missing_images); i++) {
		igt_describe("An image missing from the firmware: the host answers RESET; the "
			     "card goes on without an optional one (a round trip works) and "
			     "cannot without a required one (one line naming the file, "
			     "open() gives ENODEV).");
		igt_subtest_f("%s", missing_images[i].name)
			test_missing_image(i);
	}

	igt_fixture
		igt_qaic_kernel_log_free();
}
