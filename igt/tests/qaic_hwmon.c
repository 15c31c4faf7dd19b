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
#include <sys/wait.h>
#include <unistd.h>

#include "igt_qaic.h"

/**
 * TEST: qaic hwmon
 * Category: Core
 * Description: The card's temperatures and power as a hwmon chip, asked of the card on its
 *		telemetry channel (QAIC_TELEMETRY) when a file is read.
 * Feature: qaic
 *
 * SUBTEST: sensors
 * Description: Check that the chip named qaic under the card's PCI function has the board, SoC and DDR temperatures, the board power and its cap, with labels, and that each reads a value a card can have.
 * Run type: BAT
 *
 * SUBTEST: lm-sensors
 * Description: Check that lm-sensors' sensors(1) shows the chip with the SoC, board and DDR temperatures and the board power.
 *
 * SUBTEST: follows-load
 * Description: Check that the SoC temperature and the board power rise while jobs run on four DBCs.
 *
 * SUBTEST: answer-%s
 * Description: Check that a card whose telemetry %arg[1] fails the read with an errno within two seconds, counts the answers refused, and reads well again once it answers well.
 *
 * arg[1]:
 *
 * @silent:	answers nothing
 * @garbage:	answers 23 bytes with a wrong magic
 * @late:	answers three seconds late
 * @error:	answers with its own error status
 * @wrong-seq:	answers with another sequence number
 * @absurd:	answers a temperature of 100000 C and a power of -5 W
 * @short:	answers 12 bytes
 *
 * SUBTEST: card-down
 * Description: Check that while the card reboots after a crash every read fails with ENODEV at once, and reads work once it is back.
 */

IGT_TEST_DESCRIPTION("The card's temperatures and power through hwmon.");

#define QUEUE_SIZE	64
#define LOAD_DBCS	4
#define LOAD_MS		3000

static char bdf[32];
static char hwmon[512];

/* The hwmon directory named qaic under the card's PCI function, or "". */
static void find_hwmon(void)
{
	char dir[160], path[512], name[32];
	struct dirent *d;
	DIR *dp;
	FILE *f;

	hwmon[0] = '\0';
	snprintf(dir, sizeof(dir), "/sys/bus/pci/devices/%s/hwmon", bdf);
	dp = opendir(dir);
	if (!dp)
		return;
	while ((d = readdir(dp))) {
		if (strncmp(d->d_name, "hwmon", 5))
			continue;
		snprintf(path, sizeof(path), "%s/%s/name", dir, d->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (fgets(name, sizeof(name), f) && !strcmp(name, "qaic\n"))
			snprintf(hwmon, sizeof(hwmon), "%s/%s", dir, d->d_name);
		fclose(f);
	}
	closedir(dp);
}

/* A file of the chip: its value, or a negative errno from read(). */
static int read_attr(const char *attr, long *val)
{
	char path[600], buf[64];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", hwmon, attr);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, sizeof(buf) - 1);
	if (n < 0) {
		n = -errno;
		close(fd);
		return n;
	}
	close(fd);
	buf[n] = '\0';
	if (val)
		*val = strtol(buf, NULL, 10);
	return 0;
}

static long attr(const char *name)
{
	long val = 0;
	int ret = read_attr(name, &val);

	igt_assert_f(ret == 0, "%s: %s\n", name, strerror(-ret));
	return val;
}

static void check_label(const char *name, const char *want)
{
	char path[600], buf[32] = "";
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", hwmon, name);
	f = fopen(path, "r");
	igt_assert_f(f, "no %s\n", path);
	igt_assert(fgets(buf, sizeof(buf), f));
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	igt_assert_f(!strcmp(buf, want), "%s: '%s', not '%s'\n", name, buf, want);
}

/* m°C a card can be at: above freezing, below its shutdown */
static void check_temp(const char *name)
{
	long v = attr(name);

	igt_assert_f(v > 0 && v < 150000, "%s: %ld m°C\n", name, v);
}

static void test_sensors(void)
{
	static const char *const temps[] = {
		"temp1_input", "temp1_highest", "temp2_input", "temp2_highest", "temp3_input",
	};
	char path[600];
	long power, cap;
	int fd;

	for (unsigned int i = 0; i < ARRAY_SIZE(temps); i++)
		check_temp(temps[i]);
	check_label("temp1_label", "board");
	check_label("temp2_label", "soc");
	check_label("temp3_label", "ddr");
	check_label("power1_label", "board");
	igt_assert_lte(attr("temp1_input"), attr("temp1_highest"));
	igt_assert_lte(attr("temp2_input"), attr("temp2_highest"));
	igt_assert_lt(attr("temp2_highest"), attr("temp2_crit"));
	igt_assert_lt(attr("temp2_crit"), attr("temp2_emergency"));
	power = attr("power1_input");
	cap = attr("power1_max");
	igt_info("SoC %ld m°C, board %ld m°C, DDR %ld m°C, power %ld of %ld uW\n",
		 attr("temp2_input"), attr("temp1_input"), attr("temp3_input"), power, cap);
	igt_assert_f(power > 0 && power <= cap, "power %ld uW, cap %ld uW\n", power, cap);
	/* Read-only, even for root: nobody changes the card's limits here */
	snprintf(path, sizeof(path), "%s/power1_max", hwmon);
	fd = open(path, O_WRONLY);
	igt_assert_f(fd < 0 && errno == EACCES, "power1_max opened for writing\n");
}

/* sensors(1) of lm-sensors, as a monitoring user runs it */
static void test_lm_sensors(void)
{
	/* In the C locale sensors writes degrees as " C" */
	static const char *const want[] = { "board:", "soc:", "ddr:", " C", " W" };
	char cmd[128], out[4096];
	size_t n;
	FILE *p;

	igt_require_f(access("/usr/bin/sensors", X_OK) == 0, "no sensors(1): lm-sensors\n");
	snprintf(cmd, sizeof(cmd), "LC_ALL=C /usr/bin/sensors 'qaic-*' 2>&1");
	p = popen(cmd, "r");
	igt_assert(p);
	n = fread(out, 1, sizeof(out) - 1, p);
	out[n] = '\0';
	igt_assert_eq(pclose(p), 0);
	igt_info("%s", out);
	for (unsigned int i = 0; i < ARRAY_SIZE(want); i++)
		igt_assert_f(strstr(out, want[i]), "no '%s' in sensors' output\n", want[i]);
}

/* Round trips on LOAD_DBCS DBCs of a file of its own, for @ms. */
static void load(unsigned int ms)
{
	uint32_t dbc[LOAD_DBCS];
	uint64_t end;
	int fd;

	fd = igt_qaic_open();
	for (unsigned int i = 0; i < LOAD_DBCS; i++)
		dbc[i] = igt_qaic_activate(fd, QUEUE_SIZE);
	end = igt_qaic_now_ms() + ms;
	for (unsigned int n = 0; igt_qaic_now_ms() < end; n++)
		igt_qaic_round_trip(fd, dbc[n % LOAD_DBCS], 0x100000ull * (n % LOAD_DBCS),
				    64 * 1024, n);
	close(fd);
}

static void test_follows_load(void)
{
	long soc0 = 0, power0 = 0, soc = 0, power = 0;
	pid_t pid;
	int st;

	/*
	 * The card measures its load since the last question, over a second
	 * at most: the jobs of an earlier test may still show. Ask every
	 * 200 ms for two seconds, idle, and take the last answer.
	 */
	for (unsigned int i = 0; i < 10; i++) {
		soc0 = attr("temp2_input");
		power0 = attr("power1_input");
		usleep(200 * 1000);
	}
	pid = fork();
	igt_assert(pid >= 0);
	if (pid == 0) {
		load(LOAD_MS);
		_exit(0);
	}
	for (unsigned int i = 0; i < LOAD_MS / 250; i++) {
		usleep(250 * 1000);
		long v = attr("temp2_input"), w = attr("power1_input");

		soc = v > soc ? v : soc;
		power = w > power ? w : power;
	}
	igt_assert_eq(waitpid(pid, &st, 0), pid);
	igt_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	igt_info("idle: SoC %ld m°C, %ld uW; under load, at most: %ld m°C, %ld uW\n",
		 soc0, power0, soc, power);
	igt_assert_lt(soc0, soc);
	igt_assert_lt(power0, power);
}

struct answer_case {
	const char *name;
	uint32_t mode;
	int err;		/* of a read */
};

static const struct answer_case answer_cases[] = {
	{ "silent", IGT_QAIC_EMU_TELEMETRY_SILENT, ETIMEDOUT },
	{ "garbage", IGT_QAIC_EMU_TELEMETRY_GARBAGE, ETIMEDOUT },
	{ "late", IGT_QAIC_EMU_TELEMETRY_LATE, ETIMEDOUT },
	{ "error", IGT_QAIC_EMU_TELEMETRY_ERROR, EREMOTEIO },
	{ "wrong-seq", IGT_QAIC_EMU_TELEMETRY_WRONG_SEQ, ETIMEDOUT },
	{ "absurd", IGT_QAIC_EMU_TELEMETRY_ABSURD, EPROTO },
	{ "short", IGT_QAIC_EMU_TELEMETRY_SHORT, ETIMEDOUT },
};

static int refused(void)
{
	char path[128];

	snprintf(path, sizeof(path), "/sys/kernel/debug/accel/%s/telemetry_refused", bdf);
	return igt_qaic_read_int(path);
}

static void test_answer(int fd, const struct answer_case *c)
{
	int before = refused(), ret;
	uint64_t start, took;
	long val;

	igt_assert_eq(__igt_qaic_emu_telemetry(fd, c->mode), 0);
	start = igt_qaic_now_ms();
	ret = read_attr("temp2_input", &val);
	took = igt_qaic_now_ms() - start;
	igt_info("%s: temp2_input %s after %llu ms, %d answers refused\n", c->name,
		 ret ? strerror(-ret) : "read", (unsigned long long)took, refused() - before);
	igt_assert_eq(ret, -c->err);
	igt_assert_f(took < 2000, "the read took %llu ms\n", (unsigned long long)took);
	if (c->err == ETIMEDOUT && c->mode != IGT_QAIC_EMU_TELEMETRY_SILENT) {
		/* The answer that came, or comes late, is refused */
		uint64_t deadline = igt_qaic_now_ms() + 5000;

		while (refused() == before && igt_qaic_now_ms() < deadline)
			usleep(50 * 1000);
		igt_assert_lt(before, refused());
	}
	if (c->err == EPROTO)
		igt_assert_lt(before, refused());

	/* (A late answer came above: it found no question, and is counted.) */
	igt_assert_eq(__igt_qaic_emu_telemetry(fd, IGT_QAIC_EMU_TELEMETRY_NORMAL), 0);
	check_temp("temp2_input");
}

/*
 * The card crashes and reboots (about 100 ms on the bench): reads in a
 * tight loop meanwhile see the channel down, and fail with ENODEV at once,
 * never waiting for an answer that cannot come.
 */
static void test_card_down(int *fd)
{
	unsigned int down = 0, up_again = 0, reads = 0;
	uint64_t deadline, start, took, longest = 0;
	int ret;

	igt_assert_eq(__igt_qaic_emu_sys_error(*fd, 100), 0);
	close(*fd);
	deadline = igt_qaic_now_ms() + 10000;
	while (igt_qaic_now_ms() < deadline && !(down && up_again >= 10)) {
		start = igt_qaic_now_ms();
		ret = read_attr("temp2_input", NULL);
		took = igt_qaic_now_ms() - start;
		longest = took > longest ? took : longest;
		reads++;
		igt_assert_f(ret == 0 || ret == -ENODEV, "a read while the card reboots: %s\n",
			     strerror(-ret));
		if (ret)
			down++;
		else if (down)
			up_again++;
		usleep(1000);
	}
	igt_info("%u reads: %u failed with ENODEV, %u worked after; the longest took %llu ms\n",
		 reads, down, up_again, (unsigned long long)longest);
	igt_assert_lt(0, down);
	igt_assert_lte(10, up_again);
	igt_assert_lt(longest, 1000);
	check_temp("temp2_input");
	*fd = igt_qaic_open();
}

igt_main
{
	int fd = -1;

	igt_fixture {
		fd = igt_qaic_open();
		igt_qaic_card_bdf(fd, bdf, sizeof(bdf));
		find_hwmon();
		igt_require_f(hwmon[0], "no hwmon chip named qaic under %s\n", bdf);
		igt_require_f(read_attr("temp2_input", NULL) == 0,
			      "the card does not answer telemetry\n");
		igt_install_exit_handler(igt_qaic_emu_telemetry_reset);
	}

	igt_describe("The card's sensors and what they read.");
	igt_subtest("sensors")
		test_sensors();

	igt_describe("lm-sensors shows the card.");
	igt_subtest("lm-sensors")
		test_lm_sensors();

	igt_describe("The sensors follow the card's load.");
	igt_subtest("follows-load")
		test_follows_load();

	for (unsigned int i = 0; i < ARRAY_SIZE(answer_cases); i++) {
		igt_describe("A card that answers telemetry badly fails the read, never blocks it.");
		igt_subtest_f("answer-%s", answer_cases[i].name)
			test_answer(fd, &answer_cases[i]);
	}

	igt_describe("Reads while the card reboots fail at once.");
	igt_subtest("card-down")
		test_card_down(&fd);

	igt_fixture
		close(fd);
}
