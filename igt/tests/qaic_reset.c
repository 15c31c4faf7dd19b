// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The qaic authors.
 */

#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <inttypes.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include "igt_qaic.h"
#include "igt_qaic_boot.h"
#include "igt_qaic_busy.h"
#include "igt_qaic_sync.h"

/**
 * TEST: qaic reset
 * Category: Core
 * Description: The card is reset under work in flight (PCI error recovery, function reset, its own crash) and comes back.
 * Feature: qaic
 *
 * SUBTEST: pci-error-normal
 * Description: Check that recovery from a PCI error with the link working ends every job of two processes with an error, keeps their mappings, that the same files then activate DBCs and run work again, and that the accel device announced the card going offline and coming back online (uevents).
 * Run type: FULL
 *
 * SUBTEST: pci-error-frozen
 * Description: Check the same for a PCI error with the link frozen.
 * Run type: FULL
 *
 * SUBTEST: function-reset
 * Description: Check the same for a function-level reset through sysfs.
 * Run type: FULL
 *
 * SUBTEST: sys-error
 * Description: Check the same for a crash of the card (MHI SYS_ERROR), which the card reports itself.
 * Run type: FULL
 *
 * SUBTEST: sys-error-cycles
 * Description: Check the same for 20 crashes in a row (QAIC_RESET_CYCLES sets how many).
 * Run type: FULL
 *
 * SUBTEST: soc-reset
 * Description: Check the same for the operator's SoC reset through the MHI core's sysfs (soc_reset), which the card reports as it reboots.
 * Run type: FULL
 *
 * SUBTEST: suspend-busy
 * Description: Check that system sleep is refused with EBUSY while a job is not done, and that the card was not touched.
 * Run type: FULL
 *
 * SUBTEST: suspend-resume
 * Description: Check that after suspend to RAM and resume, files of two processes keep their objects and mappings, their DBCs are released, and they activate again and run work.
 * Run type: FULL
 *
 * SUBTEST: hibernate-busy
 * Description: Check that hibernation is refused with EBUSY while a job is not done, and that the card was not touched.
 * Run type: FULL
 *
 * SUBTEST: hibernate-resume
 * Description: Check that after the freeze and thaw of hibernation, files of two processes keep their objects and mappings, their DBCs are released, and they activate again and run work.
 * Run type: FULL
 *
 * SUBTEST: manager-silent
 * Description: Check the same when the card's manager stops answering: MANAGE calls that get no answer fail with ETIMEDOUT, and after three in a row the driver resets the card by itself.
 * Run type: FULL
 *
 * SUBTEST: manage-stale-bound
 * Description: Check that the memory a file keeps for MANAGE calls killed before the card answered is bounded: once it reaches 64 MiB (fdinfo qaic-stale-memory), MANAGE fails with EBUSY.
 * Run type: FULL
 *
 * SUBTEST: release-silent
 * Description: Check that a closing file's terminate gets a control slot when MANAGE calls hold all the others, and that a terminate without an answer makes the driver reset the card before it frees the file's rings.
 * Run type: FULL
 *
 * SUBTEST: release-busy
 * Description: Check that a closing file's terminate that finds every control slot taken, by slow MANAGE calls and other files' terminates, waits for one and gets its answer: the card is not reset, and other files' work goes on.
 * Run type: FULL
 *
 * SUBTEST: manage-quota
 * Description: Check that one file cannot have more than 16 MANAGE calls waiting on a silent card (the next fail with EBUSY at once), while another file's call still gets a control slot.
 * Run type: FULL
 */

IGT_TEST_DESCRIPTION("The card is reset under work in flight (PCI error recovery, function reset, its own crash) and comes back.");

#define SZ_4K		4096ull
#define DEV_ADDR	(40ull << 20)
#define QUEUE_SIZE	64

/* How the card is reset: a file written, or something asked of the card */
struct reset {
	const char *path;	/* written to reset the card; NULL: ask the card */
	const char *val;
	bool silence;		/* asked: its manager goes silent; else a crash */
};

#define RESP_TIMEOUT	"/sys/module/qaic/parameters/control_resp_timeout_s"

/* The card crashes on its own, soon after it answered the request */
static void crash(void)
{
	int fd = igt_qaic_open();
	int ret = __igt_qaic_emu_sys_error(fd, 50);

	igt_require_f(ret != IGT_QAIC_EMU_PT_E_UNKNOWN_OP, "the emulator has no EMU_PT_SYS_ERROR\n");
	igt_assert_eq(ret, 0);
	close(fd);
}

/*
 * The manager goes silent: the next MANAGE calls wait for an answer (2 s
 * here) and fail with ETIMEDOUT; after the third in a row the driver
 * resets the card.
 */
static void silence(void)
{
	char old[16] = "60";
	uint32_t dbc;
	int fd, ret;

	fd = open(RESP_TIMEOUT, O_RDONLY);
	igt_require_f(fd >= 0, "no %s\n", RESP_TIMEOUT);
	igt_assert_lt(0, read(fd, old, sizeof(old) - 1));
	close(fd);
	igt_qaic_write_file(RESP_TIMEOUT, "2");

	fd = igt_qaic_open();
	ret = __igt_qaic_emu_silence(fd);
	igt_require_f(ret != IGT_QAIC_EMU_PT_E_UNKNOWN_OP, "the emulator has no EMU_PT_SILENCE\n");
	igt_assert_eq(ret, 0);
	for (int i = 0; i < 3; i++) {
		ret = __igt_qaic_activate(fd, QUEUE_SIZE, &dbc);
		if (ret != -ETIMEDOUT)
			break;
	}
	igt_qaic_write_file(RESP_TIMEOUT, old);
	igt_assert_eq(ret, -ETIMEDOUT);
	close(fd);
}

static void reset_event(void *data)
{
	const struct reset *r = data;

	if (r->path)
		igt_qaic_write_file(r->path, r->val);
	else if (r->silence)
		silence();
	else
		crash();
}

/*
 * Each process's work ended with an error, its old DBCs are no longer its
 * own, and once the card is back (MANAGE waits for it) it activates a DBC
 * and runs work.
 */
static void after_reset(struct igt_qaic_busy *b, uint64_t since_ms)
{
	uint32_t dbc;
	int ret;

	igt_qaic_busy_check_ended(b, since_ms, ECANCELED, "reset");
	for (int i = 0; i < 2; i++) {
		ret = __igt_qaic_execute_bo(b->fd, b->dbc[i], b->gated.handle,
					    IGT_QAIC_DIR_TO_DEV);
		/* Linux 6.12's refuses any execute with ENODEV until the card is back */
		if (b->shared && ret == -ENODEV)
			continue;
		igt_assert_eq(ret, -EPERM);
	}
	/* A MANAGE call the reset overtakes fails with ENODEV: try again */
	while ((ret = __igt_qaic_activate(b->fd, QUEUE_SIZE, &dbc)) == -ENODEV &&
	       igt_qaic_now_ms() - since_ms < 20000)
		usleep(50000);
	igt_assert_eq(ret, 0);
	igt_info("card back %llu ms after the reset\n",
		 (unsigned long long)(igt_qaic_now_ms() - since_ms));
	igt_qaic_round_trip(b->fd, dbc, DEV_ADDR + (1 + getpid() % 64) * SZ_4K, SZ_4K, 61);
}

static const struct {
	const char *name;
	const char *desc;
	const char *file;	/* under debugfs (pci_error) or sysfs (reset); NULL: ask the card */
	const char *val;
	unsigned int cycles;
	bool silence;
} resets[] = {
	{ "pci-error-normal",
	  "Check that recovery from a PCI error with the link working ends every job of two processes with an error, keeps their mappings, that the same files then activate DBCs and run work again, and that the accel device announced the card going offline and coming back online (uevents).",
	  "/sys/kernel/debug/accel/%s/pci_error", "normal", 1, false },
	{ "pci-error-frozen",
	  "Check the same for a PCI error with the link frozen.",
	  "/sys/kernel/debug/accel/%s/pci_error", "frozen", 1, false },
	{ "function-reset",
	  "Check the same for a function-level reset through sysfs.",
	  "/sys/bus/pci/devices/%s/reset", "1", 1, false },
	{ "sys-error",
	  "Check the same for a crash of the card (MHI SYS_ERROR), which the card reports itself.",
	  NULL, NULL, 1, false },
	{ "sys-error-cycles",
	  "Check the same for 20 crashes in a row (QAIC_RESET_CYCLES sets how many).",
	  NULL, NULL, 20, false },
	{ "soc-reset",
	  "Check the same for the operator's SoC reset through the MHI core's sysfs (soc_reset), which the card reports as it reboots.",
	  "/sys/bus/pci/devices/%s/mhi*/soc_reset", "1", 1, false },
	{ "manager-silent",
	  "Check the same when the card's manager stops answering: MANAGE calls that get no answer fail with ETIMEDOUT, and after three in a row the driver resets the card by itself.",
	  NULL, NULL, 1, true },
};

/* How long after a suspend the UML bench wakes the kernel (--wake) */
#define WAKE_MS		300

/* Ours, not upstream's qaic (--module upstream) */
static bool driver_is_ours(void)
{
	int fd = igt_qaic_open();
	bool ours = igt_qaic_driver_is_ours(fd);

	close(fd);
	return ours;
}

/*
 * Puts the machine to sleep, @state "mem" or "disk" (hibernation), and
 * returns 0 once it is back, or -errno if refused. Two ways:
 * - the UML bench with tests/uml/run --wake, which wakes it WAKE_MS after
 *   a suspend to RAM (UML has no hibernation);
 * - a kernel with PM_DEBUG (Debian's, on the PC: tests/pc/igt sets
 *   QAIC_PM_TEST=1), in its test mode: /sys/power/pm_test "devices" runs
 *   every device's callbacks, then waits 5 s and resumes them; hibernation
 *   makes no image and needs no swap.
 */
static int system_sleep(const char *state)
{
	const char *run = getenv("QAIC_RUN");
	bool wake = run && getenv("QAIC_WAKE") && !strcmp(getenv("QAIC_WAKE"), "1");
	bool pm_test = !wake && getenv("QAIC_PM_TEST") && !strcmp(getenv("QAIC_PM_TEST"), "1");
	char wake_file[256], ms[16];
	int fd, wfd, ret = 0;

	igt_require_f(wake || pm_test,
		      "no way back from sleep here (tests/uml/run --wake, or QAIC_PM_TEST=1)\n");
	igt_require_f(pm_test || !strcmp(state, "mem"), "UML has no hibernation\n");
	/* System sleep came to upstream qaic in 6.19 */
	igt_require_f(driver_is_ours(),
		      "upstream's qaic: 6.12's has no system sleep callbacks, 7.2's are not checked here\n");
	/*
	 * On the debug kernel, UML's own way back from a (failed) suspend now
	 * and then trips lockdep ("unannotated irqs-off" in whatever process
	 * runs next, a stack in arch/um and the page allocator, no qaic): the
	 * bench would call that a failed run. The normal kernel runs these.
	 */
	igt_require_f(!wake || access("/proc/lockdep", F_OK),
		      "UML's suspend path trips lockdep on the debug kernel\n");
	fd = open("/sys/power/state", O_WRONLY);
	igt_require_f(fd >= 0, "no /sys/power/state: %s\n", strerror(errno));

	if (wake) {
		snprintf(wake_file, sizeof(wake_file), "%s/wake", run);
		snprintf(ms, sizeof(ms), "%d", WAKE_MS);
		wfd = open(wake_file, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		igt_assert_f(wfd >= 0, "open %s: %s\n", wake_file, strerror(errno));
		igt_assert_eq(write(wfd, ms, strlen(ms)), (ssize_t)strlen(ms));
		close(wfd);
	} else {
		igt_qaic_write_file("/sys/power/pm_test", "devices");
	}
	if (write(fd, state, strlen(state)) != (ssize_t)strlen(state))
		ret = -errno;
	close(fd);
	if (wake && ret)
		unlink(wake_file);
	if (!wake)
		igt_qaic_write_file("/sys/power/pm_test", "none");
	return ret;
}

static void test_sleep_busy(const char *state)
{
	struct igt_qaic_bo stall;
	uint32_t dbc, other;
	int fd = igt_qaic_open();

	dbc = igt_qaic_activate(fd, QUEUE_SIZE);
	igt_qaic_stall_bo(fd, dbc, 0, &stall);
	igt_qaic_execute_bo(fd, dbc, stall.handle, IGT_QAIC_DIR_TO_DEV);
	igt_assert_eq(system_sleep(state), -EBUSY);

	/* Nothing was stopped: the job is still in flight, the card works */
	igt_assert_eq(__igt_qaic_wait(fd, stall.handle, dbc, IGT_QAIC_WAIT_LOOK_MS), -ETIMEDOUT);
	other = igt_qaic_activate(fd, QUEUE_SIZE);
	igt_qaic_round_trip(fd, other, DEV_ADDR, SZ_4K, 63);
	igt_qaic_bo_destroy(fd, &stall);
	close(fd);
}

static void test_sleep_resume(const char *state)
{
	uint8_t pattern[SZ_4K];
	struct igt_qaic_bo bo;
	int fd[2], ret;
	uint32_t dbc[2];
	uint64_t t0;

	for (int i = 0; i < 2; i++) {
		fd[i] = igt_qaic_open();
		dbc[i] = igt_qaic_activate(fd[i], QUEUE_SIZE);
		igt_qaic_round_trip(fd[i], dbc[i], DEV_ADDR + i * SZ_4K, SZ_4K, 64 + i);
	}
	igt_qaic_bo_create(fd[0], SZ_4K, &bo);
	igt_qaic_fill_pattern(pattern, sizeof(pattern), 65);
	memcpy(bo.ptr, pattern, sizeof(pattern));

	t0 = igt_qaic_now_ms();
	igt_assert_eq(system_sleep(state), 0);
	igt_info("resumed %llu ms after the suspend began\n",
		 (unsigned long long)(igt_qaic_now_ms() - t0));

	igt_qaic_assert_bytes(bo.ptr, pattern, sizeof(pattern), "object across sleep");
	for (int i = 0; i < 2; i++) {
		uint32_t again;

		igt_assert_eq(__igt_qaic_execute_bo(fd[i], dbc[i], bo.handle,
						    IGT_QAIC_DIR_TO_DEV), -EPERM);
		/* The card boots again; MANAGE waits for it */
		while ((ret = __igt_qaic_activate(fd[i], QUEUE_SIZE, &again)) == -ENODEV &&
		       igt_qaic_now_ms() - t0 < 20000)
			usleep(50000);
		igt_assert_eq(ret, 0);
		igt_qaic_round_trip(fd[i], again, DEV_ADDR + i * SZ_4K, SZ_4K, 66 + i);
	}
	igt_qaic_bo_destroy(fd[0], &bo);
	close(fd[0]);
	close(fd[1]);
}

/*
 * Appends to @got ('0' offline, '1' online) the ONLINE and OFFLINE uevents
 * of accel node @minor that arrived on @s; returns their number in @got.
 */
static int uevent_drain_online(int s, int minor, char *got, int n, int max)
{
	char buf[4096], node[32];
	ssize_t len;

	snprintf(node, sizeof(node), "/accel%d", minor);
	while ((len = recv(s, buf, sizeof(buf) - 1, 0)) > 0) {
		const char *action = NULL, *end = buf + len, *p;
		bool ours = false;

		buf[len] = '\0';
		for (p = buf; p < end; p += strlen(p) + 1) {
			size_t l = strlen(p), nl = strlen(node);

			if (!strncmp(p, "DEVPATH=", 8))
				ours = l >= nl && !strcmp(p + l - nl, node);
			else if (!strncmp(p, "ACTION=", 7))
				action = p + 7;
		}
		if (!ours || !action || n >= max)
			continue;
		if (!strcmp(action, "offline"))
			got[n++] = '0';
		else if (!strcmp(action, "online"))
			got[n++] = '1';
	}
	got[n] = '\0';
	return n;
}

/*
 * Each of @cycles resets took the card offline and brought it online
 * again, and the uevents of the accel device said so, in order: "offline"
 * then "online", once a reset. Linux 6.12's qaic sends none.
 */
struct online_uevents {
	int s;
	int minor;
	char got[2 * 64 + 1];
	int n;
};

static void online_uevents_begin(struct online_uevents *ue, int fd)
{
	struct stat st;

	igt_assert_eq(fstat(fd, &st), 0);
	ue->s = igt_qaic_uevent_open();
	ue->minor = minor(st.st_rdev);
	ue->n = 0;
}

/* Takes what arrived, so that the socket's buffer does not overflow. */
static void online_uevents_drain(struct online_uevents *ue)
{
	ue->n = uevent_drain_online(ue->s, ue->minor, ue->got, ue->n, sizeof(ue->got) - 1);
}

static void check_online_uevents(struct online_uevents *ue, unsigned int cycles)
{
	char want[sizeof(ue->got)] = "";
	uint64_t end = igt_qaic_now_ms() + 5000;

	/* QAIC_RESET_CYCLES may ask for more than a string here holds. */
	if (cycles > 64) {
		close(ue->s);
		return;
	}
	for (unsigned int i = 0; i < cycles; i++)
		strcat(want, "01");
	/* The card answers MANAGE a moment before its ONLINE uevent goes out. */
	do {
		online_uevents_drain(ue);
		if (ue->n >= (int)strlen(want))
			break;
		usleep(20 * 1000);
	} while (igt_qaic_now_ms() < end);
	close(ue->s);
	if (!ue->n && !driver_is_ours()) {
		igt_info("no ONLINE or OFFLINE uevents: this driver sends none\n");
		return;
	}
	igt_assert_f(!strcmp(ue->got, want), "uevents (0 offline, 1 online) %s, want %s\n",
		     ue->got, want);
}

static void test_reset(const char *file, const char *val, unsigned int cycles, bool silent)
{
	/*
	 * Linux 6.12's qaic (no syncobjs) waits out control_resp_timeout_s
	 * (60 s) in D state for a silent manager and never resets the card.
	 */
	if (silent)
		igt_require_f(driver_is_ours(),
			      "upstream's qaic does not recover a silent manager\n");

	const char *env = getenv("QAIC_RESET_CYCLES");
	struct reset r = { .val = val, .silence = silent };
	char bdf[32], path[128];
	uint32_t dbc;
	struct online_uevents ue;
	int fd = igt_qaic_open();

	igt_qaic_card_bdf(fd, bdf, sizeof(bdf));
	if (file) {
		glob_t g;

		/* The MHI controller's name (mhiN) is numbered across cards */
		snprintf(path, sizeof(path), file, bdf);
		igt_require_f(!glob(path, 0, NULL, &g) && g.gl_pathc == 1 &&
			      !access(g.gl_pathv[0], W_OK), "no %s\n", path);
		snprintf(path, sizeof(path), "%s", g.gl_pathv[0]);
		globfree(&g);
		r.path = path;
	}

	if (cycles > 1 && env)
		cycles = atoi(env);
	online_uevents_begin(&ue, fd);
	for (unsigned int i = 0; i < cycles; i++) {
		if (cycles > 1)
			igt_info("cycle %u of %u\n", i + 1, cycles);
		igt_qaic_busy_run(2, NULL, reset_event, &r, after_reset);
		online_uevents_drain(&ue);
	}

	/* A file opened before the reset, and untouched, works as well */
	dbc = igt_qaic_activate(fd, QUEUE_SIZE);
	igt_qaic_round_trip(fd, dbc, DEV_ADDR, SZ_4K, 62);
	check_online_uevents(&ue, cycles);
	close(fd);
}

/* How long a MANAGE call waits for the silent card in these tests, in s */
#define SILENT_WAIT_S	"3"

/*
 * The manager goes silent; answers are waited for SILENT_WAIT_S. @old gets
 * the wait to restore (wait_silent_card_back()).
 */
static void silence_for_test(int fd, char *old, size_t len)
{
	int pfd, ret;

	pfd = open(RESP_TIMEOUT, O_RDONLY);
	igt_require_f(pfd >= 0, "no %s\n", RESP_TIMEOUT);
	igt_assert_lt(0, read(pfd, old, len - 1));
	close(pfd);
	igt_qaic_write_file(RESP_TIMEOUT, SILENT_WAIT_S);
	ret = __igt_qaic_emu_silence(fd);
	igt_require_f(ret != IGT_QAIC_EMU_PT_E_UNKNOWN_OP, "the emulator has no EMU_PT_SILENCE\n");
	igt_assert_eq(ret, 0);
}

/*
 * Once the manager was silent for three answer timeouts the driver resets
 * the card; calls fail until it is back. Restores the wait; returns 0 once
 * the card answers, or the last error.
 */
static int wait_silent_card_back(int fd, const char *old)
{
	struct qaic_manage_trans_status_from_dev status;
	uint64_t end = igt_qaic_now_ms() + 60000;
	int ret;

	while ((ret = __igt_qaic_status(fd, &status)) && igt_qaic_now_ms() < end)
		usleep(100 * 1000);
	igt_qaic_write_file(RESP_TIMEOUT, old);
	return ret;
}

/* MANAGE calls a file may have under way (QAIC_MANAGE_FILE_CALLS), and a few more */
#define MANAGE_QUOTA	16
#define QUOTA_CALLS	(MANAGE_QUOTA + 4)

struct quota_call {
	pthread_t thread;
	int fd;
	int ret;
};

static void *quota_call_run(void *arg)
{
	struct qaic_manage_trans_status_from_dev status;
	struct quota_call *c = arg;

	c->ret = __igt_qaic_status(c->fd, &status);
	return NULL;
}

/*
 * The manager goes silent; one file makes QUOTA_CALLS status calls at
 * once. The first MANAGE_QUOTA wait for the answer and fail with ETIMEDOUT
 * (or ENODEV, once the driver reset the card after three in a row); the
 * rest fail with EBUSY at once. A call of another file made meanwhile
 * waits like the first ones: it is not refused.
 */
static void test_manage_quota(void)
{
	struct qaic_manage_trans_status_from_dev status;
	struct quota_call calls[QUOTA_CALLS];
	unsigned int busy = 0, waited = 0;
	int fd, other, ret, other_ret;
	char old[16] = "60";

	igt_require_f(driver_is_ours(), "upstream's qaic has no per-file quota\n");
	fd = igt_qaic_open();
	other = igt_qaic_open();
	igt_qaic_status(other, &status);
	silence_for_test(fd, old, sizeof(old));

	for (int i = 0; i < QUOTA_CALLS; i++) {
		calls[i] = (struct quota_call){ .fd = fd, .ret = 1 };
		igt_assert_eq(pthread_create(&calls[i].thread, NULL, quota_call_run, &calls[i]), 0);
	}
	usleep(500 * 1000);
	other_ret = __igt_qaic_status(other, &status);
	for (int i = 0; i < QUOTA_CALLS; i++) {
		igt_assert_eq(pthread_join(calls[i].thread, NULL), 0);
		if (calls[i].ret == -EBUSY)
			busy++;
		else if (calls[i].ret == -ETIMEDOUT || calls[i].ret == -ENODEV)
			waited++;
		else
			igt_info("call %d: %d\n", i, calls[i].ret);
	}
	ret = wait_silent_card_back(other, old);
	igt_info("%u calls waited, %u refused; the other file's: %s\n", waited, busy,
		 igt_qaic_err_name(-other_ret));
	igt_assert_eq(busy, QUOTA_CALLS - MANAGE_QUOTA);
	igt_assert_eq(waited, MANAGE_QUOTA);
	igt_assert_f(other_ret == -ETIMEDOUT || other_ret == -ENODEV,
		     "the other file's call: %d\n", other_ret);
	igt_assert_f(!ret, "the card did not come back: %s\n", igt_qaic_err_name(-ret));
	close(other);
	close(fd);
}

/* How many times the kernel log holds @what */
static unsigned int kernel_log_count(const char *what)
{
	unsigned int found = 0;
	const char *p;

	for (p = igt_qaic_kernel_log(); (p = strstr(p, what)); p++)
		found++;
	return found;
}

/* Files whose calls fill the control slots: four at their quota of 16 */
#define FILL_FILES	4
/* Control slots MANAGE calls leave to the files' releases (QAIC_CNTL_RELEASE_SLOTS) */
#define RELEASE_SLOTS	8

/*
 * A file holds a DBC; the manager goes silent, and four other files make
 * 16 status calls each. The calls take every slot but the eight kept for
 * releases (eight calls fail with EBUSY at once). The file is closed: its
 * terminate takes a kept slot, gets no answer, and the driver resets the
 * card before it frees the file's rings, which the card may still reach.
 */
static void test_release_silent(void)
{
	struct qaic_manage_trans_status_from_dev status;
	struct quota_call calls[FILL_FILES * MANAGE_QUOTA];
	unsigned int busy = 0, waited = 0;
	int fd, other, files[FILL_FILES], ret;
	char old[16] = "60", line[96];
	unsigned int resets;

	igt_require_f(driver_is_ours(), "upstream's qaic keeps no slots for releases\n");
	fd = igt_qaic_open();
	other = igt_qaic_open();
	igt_qaic_activate(fd, QUEUE_SIZE);
	snprintf(line, sizeof(line), "no answer to the terminate of file");
	resets = kernel_log_count(line);
	for (int f = 0; f < FILL_FILES; f++)
		files[f] = igt_qaic_open();
	silence_for_test(other, old, sizeof(old));

	for (int i = 0; i < FILL_FILES * MANAGE_QUOTA; i++) {
		calls[i] = (struct quota_call){ .fd = files[i / MANAGE_QUOTA], .ret = 1 };
		igt_assert_eq(pthread_create(&calls[i].thread, NULL, quota_call_run, &calls[i]), 0);
	}
	usleep(500 * 1000);
	close(fd);
	for (int i = 0; i < FILL_FILES * MANAGE_QUOTA; i++) {
		igt_assert_eq(pthread_join(calls[i].thread, NULL), 0);
		if (calls[i].ret == -EBUSY)
			busy++;
		else if (calls[i].ret == -ETIMEDOUT || calls[i].ret == -ENODEV)
			waited++;
	}
	ret = wait_silent_card_back(other, old);
	igt_info("%u calls waited, %u refused\n", waited, busy);
	igt_assert_eq(busy, RELEASE_SLOTS);
	igt_assert_eq(waited, FILL_FILES * MANAGE_QUOTA - RELEASE_SLOTS);
	igt_assert_f(kernel_log_count(line) == resets + 1,
		     "the card was not reset once for the lost terminate\n");
	igt_assert_f(!ret, "the card did not come back: %s\n", igt_qaic_err_name(-ret));
	for (int f = 0; f < FILL_FILES; f++)
		close(files[f]);
	igt_qaic_status(other, &status);
	close(other);
}

/* How late the slow manager answers in release-busy, in ms */
#define SLOW_MS		2000
/* Status calls of each of the FILL_FILES files: all the slots MANAGE calls may take */
#define BUSY_CALLS	((64 - RELEASE_SLOTS) / FILL_FILES)

static void *close_run(void *arg)
{
	close(*(int *)arg);
	return NULL;
}

/*
 * A file holds a DBC; the manager answers every message SLOW_MS late, and
 * FILL_FILES other files make BUSY_CALLS status calls each: every slot
 * MANAGE calls may take. RELEASE_SLOTS more files that talked to the card
 * close at once: their terminates take the slots kept for releases. Then
 * the file holding the DBC closes, and its terminate finds every slot
 * taken. It waits for one and gets its answer: the card is not reset
 * (which would fail every other user's work), and another file's DBC
 * still computes afterwards.
 */
static void test_release_busy(void)
{
	struct qaic_manage_trans_status_from_dev status;
	struct quota_call calls[FILL_FILES * BUSY_CALLS];
	int owner, other, files[FILL_FILES], closing[RELEASE_SLOTS], ret;
	const char *line = "no answer to the terminate of file";
	pthread_t closers[RELEASE_SLOTS];
	unsigned int resets;
	uint64_t start;
	uint32_t dbc;

	igt_require_f(driver_is_ours(), "upstream's qaic keeps no slots for releases\n");
	owner = igt_qaic_open();
	other = igt_qaic_open();
	igt_qaic_activate(owner, QUEUE_SIZE);
	dbc = igt_qaic_activate(other, QUEUE_SIZE);
	for (int f = 0; f < FILL_FILES; f++)
		files[f] = igt_qaic_open();
	for (int c = 0; c < RELEASE_SLOTS; c++) {
		closing[c] = igt_qaic_open();
		igt_qaic_status(closing[c], &status);
	}
	resets = kernel_log_count(line);
	ret = __igt_qaic_emu_answer_delay(other, SLOW_MS);
	igt_require_f(ret != IGT_QAIC_EMU_PT_E_UNKNOWN_OP,
		      "the emulator has no EMU_PT_ANSWER_DELAY\n");
	igt_assert_eq(ret, 0);

	for (int i = 0; i < FILL_FILES * BUSY_CALLS; i++) {
		calls[i] = (struct quota_call){ .fd = files[i / BUSY_CALLS], .ret = 1 };
		igt_assert_eq(pthread_create(&calls[i].thread, NULL, quota_call_run, &calls[i]), 0);
	}
	usleep(500 * 1000);
	for (int c = 0; c < RELEASE_SLOTS; c++)
		igt_assert_eq(pthread_create(&closers[c], NULL, close_run, &closing[c]), 0);
	usleep(500 * 1000);
	start = igt_qaic_now_ms();
	close(owner);
	igt_info("the DBC's owner closed in %llu ms\n",
		 (unsigned long long)(igt_qaic_now_ms() - start));
	for (int c = 0; c < RELEASE_SLOTS; c++)
		igt_assert_eq(pthread_join(closers[c], NULL), 0);
	for (int i = 0; i < FILL_FILES * BUSY_CALLS; i++) {
		igt_assert_eq(pthread_join(calls[i].thread, NULL), 0);
		igt_assert_f(!calls[i].ret, "status call %d: %s\n", i,
			     igt_qaic_err_name(-calls[i].ret));
	}
	igt_assert_eq(__igt_qaic_emu_answer_delay(other, 0), 0);
	igt_assert_f(kernel_log_count(line) == resets,
		     "a release that found no slot reset the card\n");
	igt_qaic_round_trip(other, dbc, DEV_ADDR, SZ_4K, 63);
	for (int f = 0; f < FILL_FILES; f++)
		close(files[f]);
	close(other);
}

/* Memory a file may keep for unanswered calls (QAIC_MANAGE_FILE_STALE_MAX), in KiB */
#define STALE_MAX_KIB	(64u << 10)
/* Ring elements of the activates that are killed: about 2.1 MiB of rings */
#define BIG_QUEUE	32768
#define STALE_ROUNDS	64

/* fdinfo's qaic-stale-memory of @fd, in KiB */
static uint64_t stale_kib(int fd)
{
	uint64_t kib = UINT64_MAX;
	char path[64], line[256];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	f = fopen(path, "r");
	igt_assert(f);
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "qaic-stale-memory: %" SCNu64 " KiB", &kib) == 1)
			break;
	fclose(f);
	igt_assert_f(kib != UINT64_MAX, "no qaic-stale-memory in fdinfo\n");
	return kib;
}

/*
 * The manager goes silent. Round after round a child activates a DBC with a
 * big ring on the file it shares with the test, and is killed while it
 * waits for the answer: the card may have the ring, so the file keeps it
 * (qaic-stale-memory grows), and each child starts with nothing pinned of
 * its own. Once the file keeps 64 MiB, MANAGE fails at once with EBUSY.
 * Closing the file and the reset of the silent card free it all.
 */
static void test_manage_stale_bound(void)
{
	struct qaic_manage_trans_status_from_dev status;
	uint64_t before, after = 0;
	int fd, other, ret, round;
	char old[16] = "60";
	bool refused = false;

	igt_require_f(driver_is_ours(), "upstream's qaic keeps no such figure\n");
	fd = igt_qaic_open();
	other = igt_qaic_open();
	igt_qaic_status(other, &status);
	igt_assert_eq_u64(stale_kib(fd), 0);
	silence_for_test(fd, old, sizeof(old));

	for (round = 0; round < STALE_ROUNDS && !refused; round++) {
		pid_t pid;
		int st;

		before = stale_kib(fd);
		pid = fork();
		igt_assert(pid >= 0);
		if (!pid) {
			uint32_t dbc;

			_exit(-__igt_qaic_activate(fd, BIG_QUEUE, &dbc));
		}
		usleep(300 * 1000);
		kill(pid, SIGKILL);
		igt_assert_eq(waitpid(pid, &st, 0), pid);
		after = stale_kib(fd);
		if (WIFEXITED(st) && WEXITSTATUS(st) == EBUSY) {
			refused = true;
			igt_assert_lte(STALE_MAX_KIB, before);
			igt_assert_eq_u64(after, before);
		} else {
			igt_assert_f(WIFSIGNALED(st), "round %d: the activate returned %s\n", round,
				     igt_qaic_err_name(WEXITSTATUS(st)));
			igt_assert_f(after > before, "round %d: %" PRIu64 " KiB kept, was %" PRIu64 "\n",
				     round, after, before);
		}
	}
	igt_info("%d rounds; %" PRIu64 " KiB kept when MANAGE was refused\n", round, after);
	igt_assert_f(refused, "%" PRIu64 " KiB kept, and MANAGE is not refused\n", after);

	close(fd);
	ret = wait_silent_card_back(other, old);
	igt_assert_f(!ret, "the card did not come back: %s\n", igt_qaic_err_name(-ret));
	close(other);
}

/* System sleep, the subtests' name and /sys/power/state's word */
static const struct {
	const char *name;
	const char *state;
	const char *what;
} sleeps[] = {
	{ "suspend", "mem", "suspend to RAM" },
	{ "hibernate", "disk", "hibernation (its freeze and thaw)" },
};

igt_main
{
	igt_fixture {
		close(igt_qaic_open());
	}

	for (unsigned int i = 0; i < ARRAY_SIZE(resets); i++) {
		igt_describe(resets[i].desc);
		igt_subtest_f("%s", resets[i].name)
			test_reset(resets[i].file, resets[i].val, resets[i].cycles,
				   resets[i].silence);
	}

	igt_describe("Check that the memory a file keeps for MANAGE calls killed before the card answered is bounded: once it reaches 64 MiB (fdinfo qaic-stale-memory), MANAGE fails with EBUSY.");
	igt_subtest("manage-stale-bound")
		test_manage_stale_bound();

	igt_describe("Check that one file cannot have more than 16 MANAGE calls waiting on a silent card (the next fail with EBUSY at once), while another file's call still gets a control slot.");
	igt_subtest("manage-quota")
		test_manage_quota();

	igt_describe("Check that a closing file's terminate gets a control slot when MANAGE calls hold all the others, and that a terminate without an answer makes the driver reset the card before it frees the file's rings.");
	igt_subtest("release-silent")
		test_release_silent();

	igt_describe("Check that a closing file's terminate that finds every control slot taken, by slow MANAGE calls and other files' terminates, waits for one and gets its answer: the card is not reset, and other files' work goes on.");
	igt_subtest("release-busy")
		test_release_busy();

	for (unsigned int i = 0; i < ARRAY_SIZE(sleeps); i++) {
		igt_describe_f("Check that %s is refused while a job is not done.",
			       sleeps[i].what);
		igt_subtest_f("%s-busy", sleeps[i].name)
			test_sleep_busy(sleeps[i].state);

		igt_describe_f("Check that files keep their objects across %s, and activate again.",
			       sleeps[i].what);
		igt_subtest_f("%s-resume", sleeps[i].name)
			test_sleep_resume(sleeps[i].state);
	}
}
