// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The qaic authors.
 */

#include <errno.h>
#include <inttypes.h>
#include <fcntl.h>
#include <linux/netlink.h>
#include <poll.h>
#include <stdbool.h>
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

/**
 * TEST: qaic ssr
 * Category: Core
 * Description: One DBC's subsystem restarts under work: its jobs and ioctls fail with EPIPE, the other DBCs never notice, and the DBC comes back idle; its state is in sysfs and every change is a uevent.
 * Feature: qaic
 *
 * SUBTEST: state-files
 * Description: Check that every DBC has a dbc<N>_state file showing IDLE (0) or ASSIGNED (1), and that an activate and the release at close are DBC_STATE uevents.
 * Run type: BAT
 *
 * SUBTEST: restart
 * Description: Check that a restart of one DBC under work fails its jobs and wakes its waiter with EPIPE, makes every ioctl naming it fail with EPIPE until it is over, keeps its objects mapped and readable, never disturbs another DBC of the same file or of another process, announces BEFORE_SHUTDOWN, AFTER_SHUTDOWN, BEFORE_POWER_UP, AFTER_POWER_UP and IDLE, and that the file then activates a DBC and runs work.
 * Run type: FULL
 *
 * SUBTEST: restart-garbage
 * Description: Check the same when the card first sends malformed SSR messages (a DBC it does not have, bad lengths, an unknown command, an event out of order, an unknown event): they change nothing.
 * Run type: FULL
 *
 * SUBTEST: restart-then-card-crash
 * Description: Check that a card crash in the middle of a restart ends it: the DBC is idle once the card is back, and new activations run work.
 * Run type: FULL
 *
 * SUBTEST: runtime-recovery
 * Description: Check that a runtime's loop of execute and wait, retrying EAGAIN and ETIMEDOUT, gets through a restart of its DBC the way runtimes recover, on either driver: an error of the DBC, a wait for IDLE, a new activate and its objects attached again without a detach, then every round trip's data right.
 * Run type: FULL
 *
 * SUBTEST: flood
 * Description: Check that a card restarting one DBC 200 times in a row makes the driver log at most 10 restart lines and send at most 16 DBC_STATE uevents per 5 s, that the uevent of the final IDLE, held back, still comes once the next 5 s begin, as sysfs tells, and that the DBC then activates and runs work.
 * Run type: FULL
 *
 * SUBTEST: flood-unbind
 * Description: Check that an unbind of the driver while a flood of restarts holds a uevent back sends no DBC_STATE uevent afterwards, even past the 5 s, and that the card bound again runs work.
 * Run type: FULL
 */

IGT_TEST_DESCRIPTION("One DBC's subsystem restarts under work: its jobs and ioctls fail with EPIPE, the other DBCs never notice, and the DBC comes back idle.");

#define SZ_4K		4096ull
#define DEV_ADDR	(48ull << 20)
#define QUEUE_SIZE	64
#define STATE_WAIT_MS	10000

/* Upstream Linux's dbc<N>_state values */
enum {
	DBC_IDLE,
	DBC_ASSIGNED,
	DBC_BEFORE_SHUTDOWN,
	DBC_AFTER_SHUTDOWN,
	DBC_BEFORE_POWER_UP,
	DBC_AFTER_POWER_UP,
};

static int accel_minor(int fd)
{
	struct stat st;

	igt_assert_eq(fstat(fd, &st), 0);
	return minor(st.st_rdev);
}

/* What /sys/class/accel/accelN/dbc<id>_state shows; -1 without the file */
static int dbc_state(int fd, uint32_t dbc_id)
{
	char path[128];

	snprintf(path, sizeof(path), "/sys/class/accel/accel%d/dbc%u_state",
		 accel_minor(fd), dbc_id);
	return igt_qaic_read_int(path);
}

static void wait_state(int fd, uint32_t dbc_id, int want)
{
	uint64_t start = igt_qaic_now_ms();
	int got;

	while ((got = dbc_state(fd, dbc_id)) != want &&
	       igt_qaic_now_ms() - start < STATE_WAIT_MS)
		usleep(10000);
	igt_assert_f(got == want, "DBC %u: state %d, not %d after %d ms\n",
		     dbc_id, got, want, STATE_WAIT_MS);
}

/*
 * The DBC_STATE uevents of the card seen so far by the listener of
 * uevent_open(), all DBCs, in order
 */
static struct {
	int id, state;
} seen[256];
static int nseen;

/*
 * Kernel uevents, as udev receives them, from now on: what an earlier
 * subtest of the process saw is forgotten
 */
static int uevent_open(void)
{
	nseen = 0;
	return igt_qaic_uevent_open();
}

/*
 * One uevent of @len bytes at @buf, NUL-terminated: whether it is of accel
 * node @node ("/accelN"), its DBC_ID and DBC_STATE in @id and @state (-1 if
 * it has none).
 */
static bool uevent_parse(const char *buf, ssize_t len, const char *node, int *id, int *state)
{
	const char *p, *end = buf + len;
	bool ours = false;

	*id = -1;
	*state = -1;
	for (p = buf; p < end; p += strlen(p) + 1) {
		if (!strncmp(p, "DEVPATH=", 8)) {
			size_t l = strlen(p), nl = strlen(node);

			ours = l >= nl && !strcmp(p + l - nl, node);
		} else if (!strncmp(p, "DBC_ID=", 7)) {
			*id = atoi(p + 7);
		} else if (!strncmp(p, "DBC_STATE=", 10)) {
			*state = atoi(p + 10);
		}
	}
	return ours;
}

/* Adds the DBC_STATE uevents of accel node @minor that arrived to seen[] */
static void uevent_drain(int s, int minor)
{
	char buf[4096], node[32];
	ssize_t len;

	snprintf(node, sizeof(node), "/accel%d", minor);
	while ((len = recv(s, buf, sizeof(buf) - 1, 0)) > 0) {
		int id, state;
		bool ours;

		buf[len] = '\0';
		ours = uevent_parse(buf, len, node, &id, &state);
		igt_assert(nseen < (int)(sizeof(seen) / sizeof(seen[0])));
		if (ours && id >= 0 && state >= 0) {
			seen[nseen].id = id;
			seen[nseen++].state = state;
		}
	}
}

/* The DBC_STATE uevents for DBC @dbc_id so far are @want, in order */
static void assert_states(int s, int minor, uint32_t dbc_id, const int *want, int nwant)
{
	int got[32], n = 0;

	uevent_drain(s, minor);
	for (int i = 0; i < nseen && n < 32; i++) {
		if (seen[i].id != (int)dbc_id)
			continue;
		igt_debug("DBC %u: uevent DBC_STATE=%d\n", dbc_id, seen[i].state);
		got[n++] = seen[i].state;
	}
	igt_assert_f(n == nwant, "DBC %u: %d DBC_STATE uevents, not %d\n", dbc_id, n, nwant);
	for (int i = 0; i < n; i++)
		igt_assert_f(got[i] == want[i], "DBC %u: uevent %d has DBC_STATE=%d, not %d\n",
			     dbc_id, i, got[i], want[i]);
}

static void require_ssr(int fd, uint32_t dbc_id)
{
	igt_require_f(dbc_state(fd, dbc_id) >= 0, "the driver has no dbc<N>_state files\n");
}

/* Round trips on its own file and DBC until told to stop; exits 0 if all came back right */
static pid_t bystander(int *stop_wr)
{
	int p[2];
	pid_t pid;

	igt_assert_eq(pipe(p), 0);
	pid = fork();
	igt_assert(pid >= 0);
	if (pid == 0) {
		struct pollfd pfd = { .fd = p[0], .events = POLLIN };
		uint32_t dbc, seed = 1;
		int fd;

		close(p[1]);
		fd = igt_qaic_open_dbc(QUEUE_SIZE, &dbc);
		while (poll(&pfd, 1, 0) == 0)
			igt_qaic_round_trip(fd, dbc, DEV_ADDR + 32 * SZ_4K, SZ_4K, seed++);
		igt_info("bystander: %u round trips on DBC %u\n", seed - 1, dbc);
		igt_qaic_close(fd);
		_exit(seed > 1 ? 0 : 1);
	}
	close(p[0]);
	*stop_wr = p[1];
	return pid;
}

static void bystander_check(pid_t pid, int stop_wr)
{
	int st;

	close(stop_wr);
	igt_assert_eq(waitpid(pid, &st, 0), pid);
	igt_assert_f(WIFEXITED(st) && WEXITSTATUS(st) == 0,
		     "the process on another DBC saw something wrong (status %#x)\n", st);
}

/* A process blocked in WAIT_BO on @handle; exits with the errno it ended with */
static pid_t waiter(int fd, uint32_t handle, uint32_t dbc_id)
{
	pid_t pid = fork();

	igt_assert(pid >= 0);
	if (pid == 0)
		_exit(-__igt_qaic_wait(fd, handle, dbc_id, 60000));
	usleep(200000);
	return pid;
}

static int waiter_errno(pid_t pid)
{
	int st;

	igt_assert_eq(waitpid(pid, &st, 0), pid);
	igt_assert(WIFEXITED(st));
	return WEXITSTATUS(st);
}

/*
 * Every ioctl that names a DBC, on @dbc_id, with objects that would do.
 * Upstream's qaic gives the DBC up when its restart begins, detaching its
 * slices: from then on, during the restart too, its execute and wait calls
 * answer "not yours" (EPERM) and its PERF_STATS_BO and ATTACH_SLICE_BO
 * EINVAL; its EPIPE goes only to a WAIT_BO that was already waiting.
 */
static void assert_ioctls_fail(int fd, uint32_t dbc_id, uint32_t handle, int err)
{
	bool ours = igt_qaic_driver_is_ours(fd);
	int not_yours = ours ? err : EPERM, not_sliced = ours ? err : EINVAL;
	struct qaic_execute_entry exec = { .handle = handle, .dir = IGT_QAIC_DIR_TO_DEV };
	struct qaic_partial_execute_entry pexec = {
		.handle = handle, .dir = IGT_QAIC_DIR_TO_DEV, .resize = SZ_4K,
	};
	struct qaic_perf_stats_entry stats = { .handle = handle };
	struct igt_qaic_bo fresh;

	igt_qaic_bo_create(fd, SZ_4K, &fresh);
	igt_assert_eq(__igt_qaic_execute(fd, dbc_id, &exec, 1), -not_yours);
	igt_assert_eq(__igt_qaic_partial_execute(fd, dbc_id, &pexec, 1), -not_yours);
	igt_assert_eq(__igt_qaic_wait(fd, handle, dbc_id, 100), -not_yours);
	igt_assert_eq(__igt_qaic_perf_stats(fd, dbc_id, &stats, 1), -not_sliced);
	igt_assert_eq(__igt_qaic_attach_simple(fd, fresh.handle, dbc_id, IGT_QAIC_DIR_TO_DEV,
					       SZ_4K, DEV_ADDR), -not_sliced);
	igt_qaic_bo_destroy(fd, &fresh);
}

/*
 * Upstream refuses every ioctl with ENODEV until the card is back from a
 * crash; ours answers them meanwhile. Waits (up to 20 s) for the first.
 */
static void wait_ioctls_back(int fd)
{
	uint64_t deadline = igt_qaic_now_ms() + 20000;
	uint32_t handle;
	int ret;

	while ((ret = __igt_qaic_create_bo(fd, SZ_4K, &handle)) == -ENODEV &&
	       igt_qaic_now_ms() < deadline)
		usleep(50000);
	igt_assert_eq(ret, 0);
	gem_close(fd, handle);
}

static const struct {
	const char *name;
	uint32_t mode;		/* of the restart */
	bool crash;		/* the card crashes while the restart is stalled */
} cases[] = {
	{ "restart", IGT_QAIC_EMU_SSR_STALL, false },
	{ "restart-garbage", IGT_QAIC_EMU_SSR_GARBAGE, false },
	{ "restart-then-card-crash", IGT_QAIC_EMU_SSR_STALL, true },
};

static void restart(uint32_t mode, bool crash)
{
	static const int full[] = {
		DBC_ASSIGNED, DBC_BEFORE_SHUTDOWN, DBC_AFTER_SHUTDOWN,
		DBC_BEFORE_POWER_UP, DBC_AFTER_POWER_UP, DBC_IDLE,
	};
	static const int crashed[] = {
		DBC_ASSIGNED, DBC_BEFORE_SHUTDOWN, DBC_AFTER_SHUTDOWN, DBC_IDLE,
	};
	int fd = igt_qaic_open(), ue, minor, stop = -1, ret;
	uint32_t victim, other, again;
	struct igt_qaic_bo stall;
	uint8_t pattern[SZ_4K];
	pid_t by = -1, w;

	require_ssr(fd, 0);
	minor = accel_minor(fd);
	ue = uevent_open();
	victim = igt_qaic_activate(fd, QUEUE_SIZE);
	other = igt_qaic_activate(fd, QUEUE_SIZE);
	igt_assert_eq(dbc_state(fd, victim), DBC_ASSIGNED);
	/* Another process at work on its own DBC; not across a card crash */
	if (!crash)
		by = bystander(&stop);

	/* A job in flight on the victim, and a process waiting for it */
	igt_qaic_stall_bo(fd, victim, 0, &stall);
	igt_qaic_fill_pattern(pattern, sizeof(pattern), 7);
	memcpy(stall.ptr, pattern, sizeof(pattern));
	igt_qaic_execute_bo(fd, victim, stall.handle, IGT_QAIC_DIR_TO_DEV);
	w = waiter(fd, stall.handle, victim);

	ret = __igt_qaic_emu_ssr(fd, victim, mode);
	igt_require_f(ret != IGT_QAIC_EMU_PT_E_UNKNOWN_OP, "the emulator has no EMU_PT_SSR\n");
	igt_assert_eq(ret, 0);

	if (mode == IGT_QAIC_EMU_SSR_STALL) {
		wait_state(fd, victim, DBC_AFTER_SHUTDOWN);
		igt_assert_eq(waiter_errno(w), EPIPE);
		assert_ioctls_fail(fd, victim, stall.handle, EPIPE);
	}
	/* The other DBC of the same file works meanwhile */
	igt_qaic_round_trip(fd, other, DEV_ADDR + SZ_4K, SZ_4K, 11);

	if (crash) {
		igt_assert_eq(__igt_qaic_emu_sys_error(fd, 20), 0);
	} else if (mode == IGT_QAIC_EMU_SSR_STALL) {
		igt_assert_eq(__igt_qaic_emu_ssr(fd, victim, IGT_QAIC_EMU_SSR_RESUME), 0);
	}
	wait_state(fd, victim, DBC_IDLE);
	if (mode != IGT_QAIC_EMU_SSR_STALL)
		igt_assert_eq(waiter_errno(w), EPIPE);
	if (!crash)
		bystander_check(by, stop);

	/* The objects are still mapped and readable */
	igt_qaic_assert_bytes(stall.ptr, pattern, sizeof(pattern), "stalled object");

	/* The DBC is nobody's now; its owner activates again */
	if (crash)
		wait_ioctls_back(fd);
	assert_ioctls_fail(fd, victim, stall.handle, EPERM);
	if (crash) {
		assert_states(ue, minor, victim, crashed, 4);
		/* The card is back once MANAGE works again */
		while ((ret = __igt_qaic_activate(fd, QUEUE_SIZE, &again)) == -ENODEV)
			usleep(50000);
		igt_assert_eq(ret, 0);
	} else {
		assert_states(ue, minor, victim, full, 6);
		assert_states(ue, minor, other, full, 1);
		again = igt_qaic_activate(fd, QUEUE_SIZE);
	}
	igt_qaic_round_trip(fd, again, DEV_ADDR + 2 * SZ_4K, SZ_4K, 13);
	igt_qaic_bo_destroy(fd, &stall);
	close(ue);
	igt_qaic_close(fd);
}

/*
 * The driver's limits on what a card makes it log and announce through
 * restarts (QAIC_SSR_* in qaic_drv.h), per card and per interval.
 */
#define SSR_LIMIT_INTERVAL_MS	5000
#define SSR_LOG_BURST		10
#define SSR_UEVENT_BURST	16

#define FLOOD_CYCLES		200
#define FLOOD_WAIT_MS		120000
/* Longer than an interval: the flood is over, and what was held back told */
#define FLOOD_QUIET_MS		(SSR_LIMIT_INTERVAL_MS + 1500)

/* The kernel log from now on */
static int kmsg_open(void)
{
	int k = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);

	igt_require_f(k >= 0, "no /dev/kmsg: %s\n", strerror(errno));
	igt_assert(lseek(k, 0, SEEK_END) >= 0);
	return k;
}

/* The records of @k since kmsg_open() that hold @dev and one of @what */
static int kmsg_count(int k, const char *dev, const char *const *what, int nwhat)
{
	char rec[2048];
	ssize_t len;
	int n = 0;

	for (;;) {
		len = read(k, rec, sizeof(rec) - 1);
		if (len < 0 && errno == EPIPE)	/* overwritten: go on */
			continue;
		if (len <= 0)
			break;
		rec[len] = '\0';
		for (int i = 0; i < nwhat; i++)
			if (strstr(rec, dev) && strstr(rec, what[i]))
				n++;
	}
	return n;
}

/* DBC_STATE uevents of @dbc_id on accel node @minor: how many, the last */
struct uevent_count {
	int n, last;
	uint64_t last_ms;
};

static void uevent_count(int s, int minor, uint32_t dbc_id, struct uevent_count *c)
{
	char buf[4096], node[32];
	ssize_t len;

	snprintf(node, sizeof(node), "/accel%d", minor);
	while ((len = recv(s, buf, sizeof(buf) - 1, 0)) > 0 || (len < 0 && errno == ENOBUFS)) {
		int id, state;
		bool ours;

		igt_assert_f(len > 0, "the uevent socket overflowed: uevents lost\n");
		buf[len] = '\0';
		ours = uevent_parse(buf, len, node, &id, &state);
		if (ours && id == (int)dbc_id && state >= 0) {
			c->n++;
			c->last = state;
			c->last_ms = igt_qaic_now_ms();
		}
	}
}

/*
 * Unbinds the driver while the uevent of @victim's last state waits for
 * the next interval: nothing of the DBC's may be announced any more.
 */
static void unbind_in_flood(int fd, int ue, int minor, uint32_t victim, const char *bdf,
			    struct uevent_count *c)
{
	uint32_t dbc;
	int n, again;

	/* The budget ran out within the first restarts */
	usleep(200000);
	igt_qaic_write_file("/sys/bus/pci/drivers/qaic/unbind", bdf);
	igt_assert_eq(__igt_qaic_activate(fd, QUEUE_SIZE, &dbc), -ENODEV);
	uevent_count(ue, minor, victim, c);
	n = c->n;
	igt_info("%d DBC_STATE uevents of DBC %u up to the unbind\n", n, victim);
	igt_assert_f(n <= SSR_UEVENT_BURST + 1, "%d DBC_STATE uevents in the first interval\n", n);
	/* Past the interval's end, when the uevent held back was due */
	usleep((SSR_LIMIT_INTERVAL_MS + 1000) * 1000);
	uevent_count(ue, minor, victim, c);
	igt_assert_f(c->n == n, "%d DBC_STATE uevents after the unbind\n", c->n - n);

	igt_qaic_write_file("/sys/bus/pci/drivers/qaic/bind", bdf);
	again = igt_qaic_open_bdf(bdf);
	igt_qaic_round_trip(again, igt_qaic_activate(again, QUEUE_SIZE), DEV_ADDR, SZ_4K, 19);
	igt_qaic_close(again);
}

static void flood(bool unbind)
{
	int fd = igt_qaic_open(), ue, k, minor, ret, nlines, bufsz = 16 << 20;
	uint32_t victim, got = ~0u, held[16];
	struct uevent_count c = { .last = -1 };
	char bdf[32], dev[48], lost[64], back[64];
	const char *lines[] = { lost, back };
	uint64_t start, windows;
	unsigned int nheld = 0;

	require_ssr(fd, 0);
	minor = accel_minor(fd);
	igt_qaic_card_bdf(fd, bdf, sizeof(bdf));
	snprintf(dev, sizeof(dev), "qaic %s:", bdf);
	ue = uevent_open();
	/* Room for every uevent of a driver without a limit */
	if (setsockopt(ue, SOL_SOCKET, SO_RCVBUFFORCE, &bufsz, sizeof(bufsz)))
		igt_assert_eq(setsockopt(ue, SOL_SOCKET, SO_RCVBUF, &bufsz, sizeof(bufsz)), 0);
	k = kmsg_open();
	victim = igt_qaic_activate(fd, QUEUE_SIZE);
	/* Not the activate's uevent: that one is the user's */
	usleep(100000);
	uevent_count(ue, minor, victim, &c);
	c.n = 0;
	/* An interval of its own: the restarts of earlier subtests are over */
	usleep(SSR_LIMIT_INTERVAL_MS * 1000 + 500000);

	start = igt_qaic_now_ms();
	ret = __igt_qaic_emu_ssr_flood(fd, victim, FLOOD_CYCLES);
	igt_require_f(ret != IGT_QAIC_EMU_PT_E_UNKNOWN_OP, "the emulator has no EMU_PT_SSR\n");
	igt_assert_eq(ret, 0);
	if (unbind) {
		unbind_in_flood(fd, ue, minor, victim, bdf, &c);
		close(k);
		close(ue);
		igt_qaic_close(fd);
		return;
	}

	/*
	 * Over once the DBC's uevents stay quiet longer than an interval:
	 * while the card floods, every interval brings one.
	 */
	c.last_ms = start;
	while (igt_qaic_now_ms() - c.last_ms < FLOOD_QUIET_MS) {
		struct pollfd pfd = { .fd = ue, .events = POLLIN };

		igt_assert_f(igt_qaic_now_ms() - start < FLOOD_WAIT_MS,
			     "the restarts did not end in %d ms\n", FLOOD_WAIT_MS);
		poll(&pfd, 1, 100);
		uevent_count(ue, minor, victim, &c);
	}
	/* Intervals the flood and what it held back could span */
	windows = (c.last_ms - start + SSR_LIMIT_INTERVAL_MS - 1) / SSR_LIMIT_INTERVAL_MS + 1;
	snprintf(lost, sizeof(lost), "DBC %u: subsystem restart: its work is lost", victim);
	snprintf(back, sizeof(back), "DBC %u: subsystem back", victim);
	nlines = kmsg_count(k, dev, lines, 2);
	igt_info("%d restarts of DBC %u in %" PRIu64 " ms: %d log lines, %d DBC_STATE uevents, "
		 "the last %d; bounds %" PRIu64 " and %" PRIu64 "\n",
		 FLOOD_CYCLES, victim, c.last_ms - start, nlines, c.n, c.last,
		 SSR_LOG_BURST * windows, SSR_UEVENT_BURST * windows);

	/* The bounds are of our log lines and uevents; upstream logs none */
	igt_qaic_require_ours(fd, nlines >= 1, "no log line per subsystem restart");
	igt_assert_f(nlines >= 1, "no restart line in the log\n");
	igt_assert_f(nlines <= SSR_LOG_BURST * (int)windows,
		     "%d restart lines in the log, more than %d per %d ms\n",
		     nlines, SSR_LOG_BURST, SSR_LIMIT_INTERVAL_MS);
	igt_assert_f(c.n <= SSR_UEVENT_BURST * (int)windows,
		     "%d DBC_STATE uevents, more than %d per %d ms\n",
		     c.n, SSR_UEVENT_BURST, SSR_LIMIT_INTERVAL_MS);
	igt_assert_f(c.last == DBC_IDLE, "the last uevent has DBC_STATE=%d, not IDLE\n", c.last);
	igt_assert_eq(dbc_state(fd, victim), DBC_IDLE);
	/*
	 * The first interval's uevents run out in the middle of a restart
	 * (16 is 3 restarts and a step): the final IDLE was held back and
	 * came once the next interval began, if the flood was not longer.
	 */
	igt_assert_f(c.last_ms - start >= SSR_LIMIT_INTERVAL_MS - 500,
		     "the last uevent came %" PRIu64 " ms after the flood began: not held back\n",
		     c.last_ms - start);

	/* The card grants the DBC again, and it runs work */
	while (nheld < 16) {
		igt_assert_eq(__igt_qaic_activate(fd, QUEUE_SIZE, &got), 0);
		if (got == victim)
			break;
		held[nheld++] = got;
	}
	igt_assert_f(got == victim, "DBC %u is not granted again\n", victim);
	for (unsigned int i = 0; i < nheld; i++)
		igt_qaic_deactivate(fd, held[i]);
	igt_assert_eq(dbc_state(fd, victim), DBC_ASSIGNED);
	igt_qaic_round_trip(fd, victim, DEV_ADDR, SZ_4K, 17);
	close(k);
	close(ue);
	igt_qaic_close(fd);
}

static const struct {
	const char *name;
	bool unbind;		/* the driver, while a uevent is held back */
} floods[] = {
	{ "flood", false },
	{ "flood-unbind", true },
};

static void state_files(void)
{
	static const int seq[] = { DBC_ASSIGNED, DBC_IDLE };
	int fd = igt_qaic_open(), ue, minor, user;
	uint32_t dbc;

	require_ssr(fd, 0);
	minor = accel_minor(fd);
	for (uint32_t i = 0; i < 16; i++)
		igt_assert_f(dbc_state(fd, i) == DBC_IDLE || dbc_state(fd, i) == DBC_ASSIGNED,
			     "DBC %u: state %d\n", i, dbc_state(fd, i));
	igt_assert_eq(dbc_state(fd, 16), -1);
	ue = uevent_open();
	/* The card releases a DBC when its file closes */
	user = igt_qaic_open();
	dbc = igt_qaic_activate(user, QUEUE_SIZE);
	igt_assert_eq(dbc_state(fd, dbc), DBC_ASSIGNED);
	igt_qaic_close(user);
	igt_assert_eq(dbc_state(fd, dbc), DBC_IDLE);
	assert_states(ue, minor, dbc, seq, 2);
	close(ue);
	igt_qaic_close(fd);
}

/*
 * The vendor runtime's way through a restart of its DBC, on either
 * driver: its two objects stay sliced from round to round; execute is
 * tried again on EAGAIN (the library does), wait on ETIMEDOUT. Half way
 * the card restarts the DBC, held after its shutdown so that the next
 * round surely meets it. The round fails with the DBC's error (ours:
 * EPIPE; upstream: EPERM or EINVAL, it gave the DBC up; a job the restart
 * ended: ECANCELED), the runtime waits for the DBC to be IDLE, activates
 * again, attaches the same objects again without a detach and redoes the
 * round.
 */
#define RUNTIME_ROUNDS	20

static void runtime_attach(int fd, uint32_t dbc, struct igt_qaic_bo *in,
			   struct igt_qaic_bo *out)
{
	igt_assert_eq(__igt_qaic_attach_simple(fd, in->handle, dbc, IGT_QAIC_DIR_TO_DEV,
					       SZ_4K, DEV_ADDR), 0);
	igt_assert_eq(__igt_qaic_attach_simple(fd, out->handle, dbc, IGT_QAIC_DIR_FROM_DEV,
					       SZ_4K, DEV_ADDR), 0);
}

static int runtime_run(int fd, uint32_t dbc, struct igt_qaic_bo *bo, int dir)
{
	int err, tries = 0;

	err = __igt_qaic_execute_bo(fd, dbc, bo->handle, dir);
	if (err)
		return err;
	while ((err = __igt_qaic_wait(fd, bo->handle, dbc, 1000)) == -ETIMEDOUT && ++tries < 10)
		;
	return err;
}

/* One round trip; 0, or the error of the call that failed */
static int runtime_round(int fd, uint32_t dbc, struct igt_qaic_bo *in,
			 struct igt_qaic_bo *out, uint32_t round)
{
	int err;

	igt_qaic_fill_pattern(in->ptr, SZ_4K, 100 + round);
	igt_qaic_fill_pattern(out->ptr, SZ_4K, ~(100 + round));
	err = runtime_run(fd, dbc, in, IGT_QAIC_DIR_TO_DEV);
	if (!err)
		err = runtime_run(fd, dbc, out, IGT_QAIC_DIR_FROM_DEV);
	if (!err)
		igt_qaic_assert_bytes(out->ptr, in->ptr, SZ_4K, "round trip");
	return err;
}

static void runtime_recovery(void)
{
	int fd = igt_qaic_open(), err, recovered = 0;
	struct igt_qaic_bo in, out;
	bool stalled = false;
	uint32_t dbc;

	require_ssr(fd, 0);
	dbc = igt_qaic_activate(fd, QUEUE_SIZE);
	igt_qaic_bo_create(fd, SZ_4K, &in);
	igt_qaic_bo_create(fd, SZ_4K, &out);
	runtime_attach(fd, dbc, &in, &out);
	for (uint32_t round = 0; round < RUNTIME_ROUNDS; round++) {
		if (round == RUNTIME_ROUNDS / 2 && !recovered) {
			err = __igt_qaic_emu_ssr(fd, dbc, IGT_QAIC_EMU_SSR_STALL);
			igt_require_f(err != IGT_QAIC_EMU_PT_E_UNKNOWN_OP,
				      "the emulator has no EMU_PT_SSR\n");
			igt_assert_eq(err, 0);
			wait_state(fd, dbc, DBC_AFTER_SHUTDOWN);
			stalled = true;
		}
		err = runtime_round(fd, dbc, &in, &out, round);
		if (!err)
			continue;
		igt_info("round %u on DBC %u: %s; recovering\n", round, dbc,
			 igt_qaic_err_name(-err));
		igt_assert_f(stalled && (err == -EPIPE || err == -EPERM || err == -EINVAL ||
					 err == -ECANCELED),
			     "round %u: %s, not the error of a restart\n", round,
			     igt_qaic_err_name(-err));
		/* The card goes on with the restart; the runtime waits for its end */
		igt_assert_eq(__igt_qaic_emu_ssr(fd, dbc, IGT_QAIC_EMU_SSR_RESUME), 0);
		stalled = false;
		wait_state(fd, dbc, DBC_IDLE);
		dbc = igt_qaic_activate(fd, QUEUE_SIZE);
		runtime_attach(fd, dbc, &in, &out);
		recovered++;
		round--;
	}
	igt_assert_eq(recovered, 1);
	igt_qaic_bo_destroy(fd, &in);
	igt_qaic_bo_destroy(fd, &out);
	igt_qaic_close(fd);
}

igt_main
{
	igt_describe("Check that every DBC has a state file, and that an activate and its release are uevents.");
	igt_subtest("state-files")
		state_files();

	for (unsigned int i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		igt_describe("Check a restart of one DBC under work.");
		igt_subtest_f("%s", cases[i].name)
			restart(cases[i].mode, cases[i].crash);
	}

	igt_describe("Check that a runtime's execute and wait loop recovers from a restart of its DBC as runtimes do.");
	igt_subtest("runtime-recovery")
		runtime_recovery();

	for (unsigned int i = 0; i < sizeof(floods) / sizeof(floods[0]); i++) {
		igt_describe("Check that a card restarting a DBC over and over floods neither the log nor the uevents, and that listeners still learn the DBC's final state, unless the driver is unbound.");
		igt_subtest_f("%s", floods[i].name)
			flood(floods[i].unbind);
	}
	igt_qaic_dbcs_free_checks();
}
