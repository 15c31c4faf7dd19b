// SPDX-License-Identifier: GPL-2.0-only
/*
 * qaic-fuzz: a structure-aware fuzzer of the qaic uapi.
 *
 *   qaic-fuzz [--seed S] [--ops N] [--procs P] [--device PATH]
 *             [--watchdog SECS] [--verbose]
 *
 * P worker processes (default 2) run about N/P operations each (default N
 * 20000) on the device (default /dev/accel/accel0). Each worker keeps a
 * model of what it owns: up to three open files of the device and dup'ed
 * descriptors of them, buffer objects (size, slicing: DBC and direction),
 * the DMA Bridge Channels it activated, syncobjs, mappings, dma-bufs and
 * sync_files. About half of the operations are built from the model to be
 * valid, so that they reach the deep code; the others break one or more
 * fields: boundary values, flipped bits, non-zero pads, freed handles,
 * handles of another file, DBCs out of range or not owned, user pointers
 * NULL, unmapped, read-only or straddling into an unmapped page.
 *
 * Besides every qaic ioctl (MANAGE with activate, deactivate, status,
 * passthrough and DMA transfer transactions), the workers close GEM
 * handles, share objects through PRIME (also between their own files),
 * use syncobjs (binary and timeline) and sync_files, map, touch and unmap
 * objects, close and reopen files with work in flight, fork children that
 * do a few operations on the inherited files and _exit() with work in
 * flight, run bursts of operations in two threads sharing the files, and
 * now and then exit early with work in flight (the parent starts them
 * again where they stopped).
 *
 * Everything a worker does derives from the seed and its index
 * (xorshift64*, seeded with splitmix64): "qaic-fuzz: seed S ops N procs P",
 * the first line, is enough to replay a run. The sequence of operations
 * of each process depends on that alone; their arguments come from the
 * model too, so from the kernel's answers, which may differ from run to
 * run. --verbose prints every operation and ioctl result (the operations
 * also go to /dev/kmsg, to line them up with the kernel log).
 *
 * Errors are expected and counted per ioctl and errno. A run fails on: a
 * worker that crashed, or that spent more than 60 s (--watchdog) in one
 * operation or in exiting (all are killed then, their kernel stacks
 * printed); EFAULT from an operation built to be valid; ENOTTY
 * from a qaic or DRM ioctl on a qaic file; a "must succeed" operation that
 * failed (CREATE_BO of at most 1 MiB, MMAP_BO and mmap() of a live object,
 * GEM_CLOSE of a live handle, SYNCOBJ_CREATE, a STATUS request, an activate
 * that the card did not refuse for want of a free DBC); or one of the
 * checks after the workers are gone: every DBC can be activated again, and
 * MemAvailable and Slab are back within a tolerance. A MANAGE that returns
 * 0 or ECANCELED must leave a well-formed answer. The last line is
 * "N passed, N failed" over those checks. Kernel reports (WARN, KASAN,
 * lockdep...) are for tests/uml/run to find in the kernel log.
 *
 * Workers leave each other DBCs: each holds at most (16 - 4) / P (1 to 4),
 * and gives one back before it asks for another, as a runtime does: the
 * deactivate transaction with the firmware's release (EMU_PT_DEACTIVATE
 * of the emulated card) in front of it; a deactivate alone leaves the DBC
 * held until the file is closed. The syncobj ioctls of the DRM core get
 * handle counts of at most 64 Ki: above 1 Mi, drm_syncobj_array_find()'s
 * kmalloc_array() makes the page allocator WARN, a DRM core matter that
 * would end every run.
 *
 * The files: this one is the parent: the command line, the checks
 * before and after the run, the watchdog. worker.c runs the operations;
 * manage.c, objects.c, slicing.c, execute.c, syncobj.c, prime.c and
 * files.c build them from the model of model.c; calls.c makes and counts
 * the calls, rng.c the random choices; fuzz.h has what they share.
 *
 * Copyright (c) 2026 The qaic authors.
 */

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <xf86drm.h>
#include <drm/qaic_accel.h>

#include "fuzz.h"
#include "calls.h"
#include "manage.h"
#include "model.h"
#include "rng.h"
#include "worker.h"

/* An operation that takes longer than this is a hang (--watchdog). */
static uint64_t watchdog_ms = 60000;

struct shared *sh;
int verbose;
int kmsg_fd = -1;	/* --verbose: op lines go to the kernel log too */
static uint64_t seed;
const char *device = "/dev/accel/accel0";

/* ---------------------------------------------------------- the parent */

static int is_qaic(int fd)
{
	drmVersionPtr ver = drmGetVersion(fd);
	int ok;

	if (!ver)
		return 0;
	ok = ver->name && !strcmp(ver->name, "qaic");
	drmFreeVersion(ver);
	return ok;
}

/* MANAGE for the parent: no model, no stats. */
static int pmanage(int fd, struct mmsg *m)
{
	struct qaic_manage_msg arg = mm_msg(m);
	int ret;

	do {
		ret = ioctl(fd, DRM_IOCTL_QAIC_MANAGE, &arg);
	} while (ret && errno == EINTR);
	if (ret && errno != ECANCELED)
		return -errno;
	m->len = arg.len;
	m->count = arg.count;
	return ret ? -ECANCELED : 0;
}

static int pactivate(int fd, uint32_t *id)
{
	struct answer a;
	struct mmsg m = { 0 };
	int ret;

	mm_activate(&m, 16);
	ret = pmanage(fd, &m);
	if (ret && ret != -ECANCELED)
		return ret;
	if (!parse_answer(&m, m.len, m.count, &a) || a.nact != 1)
		return -EPROTO;
	if (a.act_status[0])
		return -ECANCELED;
	*id = a.act_id[0];
	return 0;
}

static int pdeactivate(int fd, uint32_t id)
{
	struct mmsg m = { 0 };

	mm_deactivate(&m, id);
	return pmanage(fd, &m);
}

static int pstatus(int fd)
{
	struct mmsg m = { 0 };

	mm_status(&m);
	return pmanage(fd, &m);
}

/* DBCs a fresh file can activate (all of them are given back). */
static int free_dbcs(int *err)
{
	uint32_t ids[NUM_DBC + 1];
	int fd, n = 0, ret = 0;

	fd = open_device(O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		*err = -errno;
		return 0;
	}
	while (n <= NUM_DBC && !(ret = pactivate(fd, &ids[n])))
		n++;
	*err = n == NUM_DBC + 1 ? 0 : ret;
	for (int i = 0; i < n; i++)
		pdeactivate(fd, ids[i]);
	close(fd);
	return n;
}

struct meminfo {
	long long avail_kib;
	long long slab_kib;
};

static void write_proc(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY);

	if (fd < 0)
		return;
	/* not root: the numbers are noisier, that is all */
	(void)!write(fd, val, strlen(val));
	close(fd);
}

/* Free pages in the per-CPU lists, which MemAvailable leaves out. */
static long long pcp_free_kib(void)
{
	char line[256];
	long long n, sum = 0;
	FILE *f = fopen("/proc/zoneinfo", "r");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, " count: %lld", &n) == 1)
			sum += n;
	fclose(f);
	return sum * (sysconf(_SC_PAGESIZE) / 1024);
}

static int read_meminfo(struct meminfo *mi)
{
	char line[256];
	FILE *f;

	sync();
	write_proc("/proc/sys/vm/drop_caches", "3");
	write_proc("/proc/sys/vm/stat_refresh", "1");
	f = fopen("/proc/meminfo", "r");
	if (!f)
		return -errno;
	mi->avail_kib = mi->slab_kib = -1;
	while (fgets(line, sizeof(line), f)) {
		sscanf(line, "MemAvailable: %lld", &mi->avail_kib);
		sscanf(line, "Slab: %lld", &mi->slab_kib);
	}
	fclose(f);
	if (mi->avail_kib < 0 || mi->slab_kib < 0)
		return -ENODATA;
	mi->avail_kib += pcp_free_kib();
	return 0;
}

/* Tolerances of the memory check. */
#define AVAIL_TOL_KIB	(16 * 1024)
#define SLAB_TOL_KIB	(8 * 1024)

static pid_t start_worker(int idx, int procs)
{
	pid_t pid;

	fflush(NULL);
	sh->w[idx].exit_ms = 0;
	pid = fork();
	if (pid == 0) {
		setpgid(0, 0);
		worker_main(idx, sh->w[idx].rng, procs);
	}
	if (pid > 0) {
		setpgid(pid, pid);
		sh->w[idx].pid = pid;
	}
	return pid;
}

/* The kernel stacks of every thread of @pid. */
static void dump_task(pid_t pid)
{
	char path[300], buf[4096];
	struct dirent *de;
	ssize_t n;
	DIR *d;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/task", pid);
	d = opendir(path);
	if (!d)
		return;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/proc/%d/task/%s/stack", pid, de->d_name);
		fd = open(path, O_RDONLY);
		if (fd < 0)
			continue;
		n = read(fd, buf, sizeof(buf) - 1);
		close(fd);
		if (n > 0) {
			buf[n] = 0;
			fprintf(stderr, "qaic-fuzz: kernel stack of %d thread %s:\n%s", pid,
				de->d_name, buf);
		}
	}
	closedir(d);
}

/* The checks done so far, for on_check_alarm(). */
static int checks_passed, checks_failed;

/* A post-run check that does not come back is a failure too. */
static void on_check_alarm(int sig)
{
	char buf[160];
	int n;

	(void)sig;
	n = snprintf(buf, sizeof(buf), "check after the run: FAIL (no answer from the card "
		     "for 60 s)\n%d passed, %d failed\n", checks_passed, checks_failed + 1);
	(void)!write(STDOUT_FILENO, buf, n);
	_exit(1);
}

static void usage(void)
{
	fprintf(stderr, "usage: qaic-fuzz [--seed S] [--ops N] [--procs P] "
		"[--device PATH] [--watchdog SECS] [--verbose]\n");
	exit(2);
}

static void print_errnos(const uint64_t *res)
{
	bool any = false;

	for (int e = 1; e < NERR; e++) {
		if (!res[e])
			continue;
		printf("%s%s %" PRIu64, any ? ", " : "", e == NERR - 1 ? "other" : err_name(e),
		       res[e]);
		any = true;
	}
	printf("\n");
}

/* The command line; the seed from /dev/urandom if it gives none: -1 if that fails. */
static int parse_args(int argc, char **argv, uint64_t *nops, int *procs)
{
	bool have_seed = false;

	for (int i = 1; i < argc; i++) {
		char *end;

		if (!strcmp(argv[i], "--seed") && i + 1 < argc) {
			seed = strtoull(argv[++i], &end, 0);
			if (*end)
				usage();
			have_seed = true;
		} else if (!strcmp(argv[i], "--ops") && i + 1 < argc) {
			*nops = strtoull(argv[++i], &end, 0);
			if (*end)
				usage();
		} else if (!strcmp(argv[i], "--procs") && i + 1 < argc) {
			*procs = strtol(argv[++i], &end, 0);
			if (*end || *procs < 1 || *procs > MAX_WORKERS)
				usage();
		} else if (!strcmp(argv[i], "--watchdog") && i + 1 < argc) {
			watchdog_ms = strtoull(argv[++i], &end, 0) * 1000;
			if (*end || !watchdog_ms)
				usage();
		} else if (!strcmp(argv[i], "--device") && i + 1 < argc) {
			device = argv[++i];
		} else if (!strcmp(argv[i], "--verbose")) {
			verbose = 1;
			kmsg_fd = open("/dev/kmsg", O_WRONLY | O_CLOEXEC);
		} else {
			usage();
		}
	}
	if (!have_seed) {
		int r = open("/dev/urandom", O_RDONLY);

		if (r < 0 || read(r, &seed, sizeof(seed)) != sizeof(seed)) {
			fprintf(stderr, "qaic-fuzz: /dev/urandom: %s\n", strerror(errno));
			return -1;
		}
		close(r);
	}
	return 0;
}

/* The card must answer first: false, the last lines printed, if it does not. */
static bool card_answers(void)
{
	double t0 = now_ms() / 1000.0;
	int fd, err;

	for (;;) {
		fd = open_device(O_RDWR | O_CLOEXEC);
		err = fd < 0 ? -errno : 0;
		if (fd >= 0 && !is_qaic(fd)) {
			printf("check the card answers: FAIL (%s is not a qaic device)\n", device);
			printf("0 passed, 1 failed\n");
			return false;
		}
		if (fd >= 0) {
			err = pstatus(fd);
			close(fd);
			if (!err)
				return true;
		}
		/* A card being reset answers again; a missing node does not appear. */
		if (now_ms() / 1000.0 - t0 > (err == -ENOENT ? 2 : 30)) {
			printf("check the card answers: FAIL (%s: %s)\n", device, strerror(-err));
			printf("0 passed, 1 failed\n");
			return false;
		}
		usleep(100 * 1000);
	}
}

static void pfail(const char *what, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Records a failure the parent saw, and prints it (@what if it finds no room). */
static void pfail(const char *what, const char *fmt, ...)
{
	int i = ADD(sh->nfail, 1);
	va_list ap;

	if (i < MAX_FAIL) {
		va_start(ap, fmt);
		vsnprintf(sh->fail[i], sizeof(sh->fail[i]), fmt, ap);
		va_end(ap);
	}
	fprintf(stderr, "qaic-fuzz: FAIL: %s\n", i < MAX_FAIL ? sh->fail[i] : what);
}

/* A worker that has been exiting, or in one operation, for too long: recorded, true. */
static bool find_hang(int procs, uint64_t now)
{
	for (int i = 0; i < procs; i++) {
		struct wslot *ws = &sh->w[i];
		uint64_t ex = __atomic_load_n(&ws->exit_ms, __ATOMIC_ACQUIRE);

		if (!ws->finished && ex && now > ex && now - ex >= watchdog_ms) {
			pfail("hang", "worker %d (pid %d) called _exit() %" PRIu64 " s ago and is "
			      "still there: closing its files hangs", i, ws->pid,
			      watchdog_ms / 1000);
			return true;
		}
		for (int s = 0; s < 3 && !ws->finished; s++) {
			struct tslot *ts = &ws->t[s];

			if (!__atomic_load_n(&ts->active, __ATOMIC_ACQUIRE) ||
			    now - ts->t0_ms < watchdog_ms || now < ts->t0_ms)
				continue;
			pfail("hang", "worker %d%s (pid %d) made no progress for %" PRIu64
			      " s in op #%" PRIu64 " %s (op rng %#" PRIx64 ", %s)", i,
			      slot_names[s], ws->pid, watchdog_ms / 1000, ts->opno,
			      op_name(ts->op), ts->rng, ts->valid ? "valid" : "mutated");
			return true;
		}
	}
	return false;
}

/* After a hang: where every worker is, then kill them all. */
static void kill_workers(int procs)
{
	uint64_t now = now_ms();

	for (int i = 0; i < procs; i++) {
		if (sh->w[i].finished)
			continue;
		for (int s = 0; s < 3; s++) {
			struct tslot *ts = &sh->w[i].t[s];

			if (ts->active)
				fprintf(stderr, "qaic-fuzz: worker %d%s: op #%" PRIu64 " %s (%s, "
					"op rng %#" PRIx64 ") running for %.1f s\n", i,
					slot_names[s], ts->opno, op_name(ts->op),
					ts->valid ? "valid" : "mutated", ts->rng,
					(now - ts->t0_ms) / 1000.0);
		}
		dump_task(sh->w[i].pid);
		if (sh->w[i].child > 0)
			dump_task(sh->w[i].child);
	}
	for (int i = 0; i < procs; i++)
		if (!sh->w[i].finished)
			kill(-sh->w[i].pid, SIGKILL);
	for (int i = 0; i < 50; i++) {
		while (waitpid(-1, NULL, WNOHANG) > 0)
			;
		usleep(100 * 1000);
	}
}

/*
 * Reaps the workers, starts again those that stopped early, and watches
 * for operations that take too long until all are done: true after a
 * hang (the workers killed). *@crashed: one crashed.
 */
static bool watch(int procs, bool *crashed)
{
	uint64_t last_progress = now_ms();
	int alive = procs;
	bool hung = false;

	while (alive && !hung) {
		uint64_t now;
		int status;
		pid_t pid;

		while ((pid = waitpid(-1, &status, WNOHANG)) > 0) {
			int idx = -1;

			for (int i = 0; i < procs; i++)
				if (sh->w[i].pid == pid)
					idx = i;
			if (idx < 0)
				continue;
			if (WIFEXITED(status) && WEXITSTATUS(status) == EXIT_RESTART &&
			    sh->w[idx].ops_left) {
				sh->w[idx].restarts++;
				memset(sh->w[idx].t, 0, sizeof(sh->w[idx].t));
				if (start_worker(idx, procs) > 0)
					continue;
			}
			if (!WIFEXITED(status) || (WEXITSTATUS(status) &&
						   WEXITSTATUS(status) != EXIT_RESTART)) {
				struct tslot *ts = &sh->w[idx].t[0];

				*crashed = true;
				pfail("worker crashed", "worker %d (pid %d) %s %d in op #%" PRIu64
				      " %s (op rng %#" PRIx64 ", %s)", idx, pid,
				      WIFSIGNALED(status) ? "killed by signal" : "exited with",
				      WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status),
				      ts->opno, op_name(ts->op), ts->rng,
				      ts->valid ? "valid" : "mutated");
			}
			sh->w[idx].finished = 1;
			alive--;
		}
		now = now_ms();
		hung = find_hang(procs, now);
		if (!hung)
			usleep(20 * 1000);
		if (now - last_progress >= 30000) {
			uint64_t done = 0;

			last_progress = now;
			for (int i = 0; i < procs; i++)
				done += sh->w[i].opno;
			fprintf(stderr, "qaic-fuzz: %" PRIu64 " ops done, %d failure%s so far\n",
				done, sh->nfail, sh->nfail == 1 ? "" : "s");
		}
	}
	if (hung)
		kill_workers(procs);
	return hung;
}

/* What ran, what the calls answered, the failures, in @secs s. */
static void summary(uint64_t nops, int procs, double secs)
{
	uint64_t total = 0;

	for (int i = 0; i < NOPS; i++)
		total += sh->ops[i][0] + sh->ops[i][1];

	printf("\n%-26s %9s %9s %9s\n", "operation", "total", "valid", "mutated");
	for (int i = 0; i < NOPS; i++)
		printf("%-26s %9" PRIu64 " %9" PRIu64 " %9" PRIu64 "\n", op_name(i),
		       sh->ops[i][0] + sh->ops[i][1], sh->ops[i][0], sh->ops[i][1]);
	printf("\n%-26s %7s %7s %7s %7s  %s\n", "call", "calls", "ok", "valid", "v. ok",
	       "errors (of valid operations: on the next line)");
	for (int i = 0; i < NIOC; i++) {
		uint64_t calls = 0, vcalls = 0;

		for (int e = 0; e < NERR; e++) {
			calls += sh->res[i][e];
			vcalls += sh->res_valid[i][e];
		}
		if (!calls)
			continue;
		printf("%-26s %7" PRIu64 " %7" PRIu64 " %7" PRIu64 " %7" PRIu64 "  ", ioc_names[i],
		       calls, sh->res[i][0], vcalls, sh->res_valid[i][0]);
		print_errnos(sh->res[i]);
		if (vcalls > sh->res_valid[i][0]) {
			printf("%-26s %31s  ", "", "valid:");
			print_errnos(sh->res_valid[i]);
		}
	}
	printf("\nqaic-fuzz: %" PRIu64 " ops in %.1f s (%.0f ops/s), %" PRIu64 " bursts in two "
	       "threads, %" PRIu64 " forked children, %" PRIu64 " early exits\n", total, secs,
	       total / (secs > 0 ? secs : 1), sh->bursts, sh->children, sh->early_exits);
	if (sh->nfail) {
		printf("\nqaic-fuzz: %d failure%s (replay: --seed %" PRIu64 " --ops %" PRIu64
		       " --procs %d):\n", sh->nfail, sh->nfail == 1 ? "" : "s", seed, nops, procs);
		for (int i = 0; i < sh->nfail && i < MAX_FAIL; i++)
			printf("  %s\n", sh->fail[i]);
	}
	printf("\n");
}

/*
 * The checks after the run, against @m0 (or its error, @mem0_err) from
 * before it: the exit status.
 */
static int checks(bool hung, bool crashed, const struct meminfo *m0, int mem0_err)
{
	int passed = 0, failed = 0, n, err;
	struct meminfo m1;

	signal(SIGALRM, on_check_alarm);
	if (!sh->nfail) {
		printf("check workers ran clean: ok\n");
		passed++;
	} else {
		printf("check workers ran clean: FAIL (%d failure%s%s%s)\n", sh->nfail,
		       sh->nfail == 1 ? "" : "s", hung ? ", a hang" : "",
		       crashed ? ", a crash" : "");
		failed++;
	}
	if (hung) {
		printf("check all DBCs free after the run: not run (a worker hung)\n");
		printf("check MemAvailable after the run: not run (a worker hung)\n");
		printf("check Slab after the run: not run (a worker hung)\n");
		failed += 3;
		printf("%d passed, %d failed\n", passed, failed);
		return 1;
	}

	checks_passed = passed;
	checks_failed = failed;
	alarm(60);
	{
		uint64_t start = now_ms();

		for (;;) {
			n = free_dbcs(&err);
			if (n == NUM_DBC || now_ms() - start > 2000)
				break;
			usleep(100 * 1000);
		}
		if (n == NUM_DBC) {
			printf("check all %d DBCs free after the run: ok (after %.1f s)\n", NUM_DBC,
			       (now_ms() - start) / 1000.0);
			passed++;
		} else {
			printf("check all %d DBCs free after the run: FAIL (%d activated after "
			       "2 s, then %s)\n", NUM_DBC, n, err_name(-err));
			failed++;
		}
	}

	checks_passed = passed;
	checks_failed = failed;
	{
		uint64_t start = now_ms();
		bool avail_ok = false, slab_ok = false;
		int e = mem0_err;

		for (;;) {
			if (!e)
				e = read_meminfo(&m1);
			if (e)
				break;
			avail_ok = m1.avail_kib >= m0->avail_kib - AVAIL_TOL_KIB;
			slab_ok = m1.slab_kib <= m0->slab_kib + SLAB_TOL_KIB;
			if ((avail_ok && slab_ok) || now_ms() - start > 3000)
				break;
			usleep(250 * 1000);
		}
		if (e) {
			printf("check MemAvailable after the run: FAIL (/proc/meminfo: %s)\n",
			       strerror(-e));
			printf("check Slab after the run: FAIL (/proc/meminfo: %s)\n",
			       strerror(-e));
			failed += 2;
		} else {
			printf("check MemAvailable after the run: %s (before %lld kB, after %lld "
			       "kB, %+lld kB; may drop by %d kB)\n", avail_ok ? "ok" : "FAIL",
			       m0->avail_kib, m1.avail_kib, m1.avail_kib - m0->avail_kib,
			       AVAIL_TOL_KIB);
			printf("check Slab after the run: %s (before %lld kB, after %lld kB, "
			       "%+lld kB; may grow by %d kB)\n", slab_ok ? "ok" : "FAIL",
			       m0->slab_kib, m1.slab_kib, m1.slab_kib - m0->slab_kib, SLAB_TOL_KIB);
			passed += avail_ok + slab_ok;
			failed += !avail_ok + !slab_ok;
		}
	}

	alarm(0);
	printf("%d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}

int main(int argc, char **argv)
{
	uint64_t nops = 20000;
	int procs = 2, err = 0, n, mem0_err;
	bool hung, crashed = false;
	struct meminfo m0;
	double t0;

	if (parse_args(argc, argv, &nops, &procs))
		return 1;
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("qaic-fuzz: seed %" PRIu64 " ops %" PRIu64 " procs %d\n", seed, nops, procs);

	ops_init();
	if (!card_answers())
		return 1;
	n = free_dbcs(&err);
	printf("qaic-fuzz: %d of %d DBCs free before the run%s%s\n", n, NUM_DBC,
	       n < NUM_DBC ? ": " : "", n < NUM_DBC ? err_name(-err) : "");
	mem0_err = read_meminfo(&m0);

	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED) {
		perror("qaic-fuzz: mmap");
		return 1;
	}
	signal(SIGPIPE, SIG_IGN);

	t0 = now_ms() / 1000.0;
	for (int i = 0; i < procs; i++) {
		sh->w[i].rng = rng_init(seed, i + 1);
		sh->w[i].ops_left = nops / procs + ((uint64_t)i < nops % procs);
		if (start_worker(i, procs) < 0) {
			perror("qaic-fuzz: fork");
			return 1;
		}
	}
	hung = watch(procs, &crashed);
	summary(nops, procs, now_ms() / 1000.0 - t0);
	return checks(hung, crashed, &m0, mem0_err);
}
