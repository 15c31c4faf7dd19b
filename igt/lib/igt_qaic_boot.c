// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The qaic authors.
 */

/*
 * A card's boot as the kernel log tells it: our driver logs one verdict
 * per boot, "card in mission mode" or "boot failed: <why>", each line
 * beginning with the card's "qaic <bdf>: ". A rebind through sysfs powers
 * the card up again: a new boot. A card is named by its number N, from 0:
 * its PCI address is igt_qaic_card_addr()'s, slot N of the bench's bus.
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/klog.h>
#include <unistd.h>

#include "igt_qaic_boot.h"

#define LOG_SIZE	(4 << 20)

static char *klog;

/**
 * igt_qaic_kernel_log:
 *
 * Returns: the kernel log, NUL-terminated, in a buffer the library keeps
 * until the next call (or igt_qaic_kernel_log_free()).
 */
const char *igt_qaic_kernel_log(void)
{
	int n;

	if (!klog)
		klog = malloc(LOG_SIZE + 1);
	igt_assert(klog);
	n = klogctl(3 /* SYSLOG_ACTION_READ_ALL */, klog, LOG_SIZE);
	igt_assert_f(n >= 0, "klogctl: %s\n", strerror(errno));
	klog[n] = '\0';
	return klog;
}

/**
 * igt_qaic_kernel_log_free:
 *
 * Frees the buffer of igt_qaic_kernel_log().
 */
void igt_qaic_kernel_log_free(void)
{
	free(klog);
	klog = NULL;
}

/**
 * igt_qaic_log_lines:
 * @card: the card's number (igt_qaic_card_addr())
 * @what: text to look for
 * @last: where to copy the last line found, or NULL
 * @len: size of @last
 *
 * Returns: how many lines of the kernel log of the card contain @what.
 */
int igt_qaic_log_lines(unsigned int card, const char *what, char *last, size_t len)
{
	const char *log = igt_qaic_kernel_log(), *p = log;
	char bdf[32], dev[48];
	int n = 0;

	if (!igt_qaic_card_addr(card, bdf, sizeof(bdf)))
		return 0;
	snprintf(dev, sizeof(dev), "qaic %s: ", bdf);
	while ((p = strstr(p, what))) {
		const char *bol = p, *eol = strchr(p, '\n');

		while (bol > log && bol[-1] != '\n')
			bol--;
		if (strstr(bol, dev) && strstr(bol, dev) < p) {
			n++;
			if (last) {
				size_t l = eol ? (size_t)(eol - bol) : strlen(bol);

				snprintf(last, len, "%.*s", (int)l, bol);
			}
		}
		p = eol ? eol : p + strlen(p);
	}
	return n;
}

/**
 * igt_qaic_card_device:
 * @card: the card's number (igt_qaic_card_addr())
 *
 * Returns: the card's PCI device id (0xa100 AIC100, 0xa080 AIC080, 0xa110
 * AIC200), or 0 if there is no such card.
 */
unsigned int igt_qaic_card_device(unsigned int card)
{
	char bdf[32], path[128], buf[16] = "";
	FILE *f;

	if (!igt_qaic_card_addr(card, bdf, sizeof(bdf)))
		return 0;
	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/device", bdf);
	f = fopen(path, "r");
	if (!f)
		return 0;
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = '\0';
	fclose(f);
	return (unsigned int)strtoul(buf, NULL, 16);
}

/**
 * igt_qaic_card_present:
 * @card: the card's number (igt_qaic_card_addr())
 *
 * Returns: whether the machine has card @card.
 */
bool igt_qaic_card_present(unsigned int card)
{
	char bdf[32];

	return igt_qaic_card_addr(card, bdf, sizeof(bdf));
}

/**
 * igt_qaic_boot_verdict_ours:
 *
 * Returns: whether the loaded module logs the boot's verdict ("card in
 * mission mode", "boot failed: ..."): ours does, Linux 6.12's does not.
 */
bool igt_qaic_boot_verdict_ours(void)
{
	return !access("/sys/module/qaic/parameters/boot_timeout_s", F_OK);
}

/**
 * igt_qaic_wait_boot:
 * @card: the card's number (igt_qaic_card_addr())
 * @failed_before: "boot failed: " lines of the card before this boot
 * @up_before: "card in mission mode" lines of the card before this boot
 * @line: where to copy the verdict's line, or NULL
 * @len: size of @line
 *
 * Waits up to %IGT_QAIC_BOOT_WAIT_S seconds for the boot's verdict and
 * fails the test without one.
 *
 * Returns: true when the boot failed.
 */
bool igt_qaic_wait_boot(unsigned int card, int failed_before, int up_before,
			char *line, size_t len)
{
	char bdf[32];

	for (int i = 0; i < IGT_QAIC_BOOT_WAIT_S * 10; i++) {
		if (igt_qaic_log_lines(card, "boot failed: ", line, len) > failed_before)
			return true;
		if (igt_qaic_log_lines(card, "card in mission mode", line, len) > up_before)
			return false;
		usleep(100 * 1000);
	}
	igt_qaic_card_addr(card, bdf, sizeof(bdf));
	igt_assert_f(false, "card %u (%s) did not finish booting in %d s\n",
		     card, bdf, IGT_QAIC_BOOT_WAIT_S);
	return false;
}

/**
 * igt_qaic_rebind:
 * @card: the card's number (igt_qaic_card_addr())
 *
 * Unbinds the card from qaic and binds it again: a new power-up.
 */
void igt_qaic_rebind(unsigned int card)
{
	char bdf[32];

	igt_assert_f(igt_qaic_card_addr(card, bdf, sizeof(bdf)), "no card %u\n", card);
	igt_qaic_write_file("/sys/bus/pci/drivers/qaic/unbind", bdf);
	igt_qaic_write_file("/sys/bus/pci/drivers/qaic/bind", bdf);
}

/**
 * igt_qaic_power_cycle:
 * @card: the card's number (igt_qaic_card_addr())
 *
 * Unbinds the card from qaic, resets its function and binds it again: a
 * new boot from PBL even for a card in mission mode, which a rebind alone
 * finds still there. Skips the test for a card that offers no reset
 * (qaic-emu --flr gives one).
 */
void igt_qaic_power_cycle(unsigned int card)
{
	char bdf[32], path[96];

	igt_assert_f(igt_qaic_card_addr(card, bdf, sizeof(bdf)), "no card %u\n", card);
	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/reset", bdf);
	igt_require_f(!access(path, F_OK), "card %s offers no function reset\n", bdf);
	igt_qaic_write_file("/sys/bus/pci/drivers/qaic/unbind", bdf);
	igt_qaic_write_file(path, "1");
	igt_qaic_write_file("/sys/bus/pci/drivers/qaic/bind", bdf);
}

/**
 * igt_qaic_open_card_up:
 * @card: the card's number (igt_qaic_card_addr()); the machine's only one
 *
 * Opens the card with its control path answering (a STATUS call), power
 * cycling it first when it is down or its last boot failed (an earlier
 * test may have left it so). Fails the test if it does not boot then.
 *
 * Returns: a file descriptor.
 */
int igt_qaic_open_card_up(unsigned int card)
{
	struct qaic_manage_trans_status_from_dev st;
	int failed, up, fd;

	fd = __igt_qaic_open();
	if (fd >= 0 && !__igt_qaic_status(fd, &st))
		return fd;
	if (fd >= 0)
		igt_qaic_close(fd);
	failed = igt_qaic_log_lines(card, "boot failed: ", NULL, 0);
	up = igt_qaic_log_lines(card, "card in mission mode", NULL, 0);
	igt_qaic_power_cycle(card);
	igt_assert_f(!igt_qaic_wait_boot(card, failed, up, NULL, 0),
		     "card %u does not boot\n", card);
	return igt_qaic_open();
}

/**
 * igt_qaic_assert_clean_log:
 * @from: offset in the kernel log to look from (0: all of it)
 *
 * Fails the test when the kernel log from @from on shows a WARN, a BUG or
 * a call trace.
 */
void igt_qaic_assert_clean_log(size_t from)
{
	const char *log = igt_qaic_kernel_log();

	if (from > strlen(log))
		from = 0;	/* the log wrapped */
	log += from;
	igt_assert_f(!strstr(log, "WARNING:") && !strstr(log, "BUG:") &&
		     !strstr(log, "Call Trace:"), "the kernel log shows a report\n");
}
