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
 * Copyright (c) 2026 The qaic authors.
 */

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/dma-buf.h>
#include <linux/sync_file.h>

#include <xf86drm.h>
#include <drm/qaic_accel.h>

#include "fuzz.h"
#include "rng.h"
#include "calls.h"
#include "model.h"
#include "manage.h"
#include "objects.h"
#include "slicing.h"
#include "execute.h"
#include "syncobj.h"
#include "prime.h"

/* An operation that takes longer than this is a hang (--watchdog). */
static uint64_t watchdog_ms = 60000;

/* Exit status of a worker that stopped early, to be started again. */
#define EXIT_RESTART	42

struct shared *sh;
int verbose;
int kmsg_fd = -1;	/* --verbose: op lines go to the kernel log too */
static uint64_t seed;
const char *device = "/dev/accel/accel0";

/* ---------------------------------------------------------------- files */

static void op_open(struct tctx *t)
{
	struct worker *w = t->w;
	int n, fd;

	lock(w);
	n = nfiles(w);
	unlock(w);
	if (t->valid && n < MAX_FILES) {
		file_open(t);
		return;
	}
	/* an open with odd flags, used once and closed */
	fd = open_device((one_in(t, 2) ? O_RDONLY : O_WRONLY) | O_CLOEXEC |
			 (one_in(t, 2) ? O_NONBLOCK : 0));
	count_res(SYS_OPEN, fd < 0 ? errno : 0);
	if (fd >= 0) {
		struct mmsg m = { 0 };
		struct qaic_manage_msg arg;

		mm_status(&m);
		arg = (struct qaic_manage_msg){ .len = m.len, .count = m.count,
						.data = (uintptr_t)m.buf };
		xioctl(t, IOC_MANAGE, fd, DRM_IOCTL_QAIC_MANAGE, &arg);
		xclose(t, fd);
	}
}

static void op_dup(struct tctx *t)
{
	struct worker *w = t->w;
	int fi, fd, nfd, err;

	lock(w);
	fi = rand_file(t);
	if (fi < 0 || w->f[fi].nfds >= MAX_FDS) {
		unlock(w);
		return;
	}
	fd = file_fd(t, fi);
	unlock(w);
	nfd = one_in(t, 2) ? dup(fd) : fcntl(fd, F_DUPFD_CLOEXEC, 100 + rnd(t, 100));
	err = nfd < 0 ? errno : 0;
	count_res(SYS_DUP, err);
	vlog(t, "dup()", err);
	if (nfd < 0)
		return;
	lock(w);
	if (w->f[fi].used && w->f[fi].nfds < MAX_FDS)
		w->f[fi].fds[w->f[fi].nfds++] = nfd;
	else
		nfd = -nfd - 1;
	unlock(w);
	if (nfd < 0)
		xclose(t, -nfd - 1);
}

/* The last descriptor of file @fi is gone: so is what it held, for us. */
static void forget_file(struct worker *w, int fi)
{
	for (int i = 0; i < MAX_BOS; i++)
		if (w->bo[i].used && w->bo[i].file == fi)
			w->bo[i].used = false;
	memset(&w->f[fi], 0, sizeof(w->f[fi]));
}

/* fdlock held for writing: close a descriptor with work in flight, maybe reopen. */
static void op_close(struct tctx *t)
{
	struct worker *w = t->w;
	int fi, k, fd;

	lock(w);
	fi = rand_file(t);
	if (fi < 0) {
		unlock(w);
		return;
	}
	k = rnd(t, w->f[fi].nfds);
	fd = w->f[fi].fds[k];
	w->f[fi].fds[k] = w->f[fi].fds[--w->f[fi].nfds];
	if (!w->f[fi].nfds) {
		/*
		 * Its mappings hold the file open, and with it its DBCs. They
		 * mostly go with it; when they stay, they go at the next
		 * munmap or close, so that the DBCs do not run out.
		 */
		bool keep = one_in(t, 4);

		for (int i = 0; i < MAX_MAPS; i++) {
			struct map *m = &w->map[i];

			if (!m->used)
				continue;
			if (m->file == fi && m->gen == w->f[fi].gen && keep) {
				m->zombie = true;
			} else if (m->zombie || (m->file == fi && m->gen == w->f[fi].gen)) {
				munmap(m->ptr, m->size);
				count_res(SYS_MUNMAP, 0);
				m->used = false;
			}
		}
		forget_file(w, fi);
	}
	unlock(w);
	xclose(t, fd);
	if (one_in(t, 2))
		file_open(t);
}

/* ------------------------------------------------------------ bad ioctls */

static void op_bad_ioctl(struct tctx *t)
{
	uint8_t buf[512];
	unsigned long req;
	int fi, fd, size = 8 * rnd(t, 33);

	fi = use_file(t, &fd, false);
	if (fi < 0)
		return;
	for (size_t i = 0; i < sizeof(buf); i++)
		buf[i] = one_in(t, 2) ? 0 : (uint8_t)rnd64(t);
	switch (rnd(t, 6)) {
	case 0:
		/* driver numbers after SUBMIT */
		req = _IOC(_IOC_READ | _IOC_WRITE, DRM_IOCTL_BASE,
			   DRM_COMMAND_BASE + DRM_QAIC_SUBMIT + 1 + rnd(t, 0x56), size);
		break;
	case 1:
		/* past the core's numbers */
		req = _IOC(_IOC_READ | _IOC_WRITE, DRM_IOCTL_BASE, 0xd1 + rnd(t, 0x2f), size);
		break;
	case 2:
		/* qaic numbers that change nothing, with a wrong size */
		{
			static const unsigned int nrs[] = {
				DRM_QAIC_WAIT_BO, DRM_QAIC_PERF_STATS_BO, DRM_QAIC_MMAP_BO,
			};

			memset(buf, 0, sizeof(buf));
			req = _IOC(rnd(t, 4), DRM_IOCTL_BASE,
				   DRM_COMMAND_BASE + nrs[rnd(t, ARRAY_SIZE(nrs))], size);
		}
		break;
	case 3:
		/* another type than DRM's, out of DRM's numbers */
		req = _IOC(rnd(t, 4), 'x' + rnd(t, 3), 0xd1 + rnd(t, 0x2f), size);
		break;
	case 4: {
		/* valid: the version */
		drmVersionPtr v = drmGetVersion(fd);

		count_res(IOC_VERSION, v ? 0 : errno);
		if (v) {
			if (strcmp(v->name, "qaic"))
				fail(t, "DRM_VERSION: driver %s", v->name);
			drmFreeVersion(v);
		} else if (t->strict) {
			fail(t, "DRM_VERSION: %s", strerror(errno));
		}
		return;
	}
	default: {
		/* valid: a capability */
		static const uint64_t caps[] = {
			DRM_CAP_SYNCOBJ, DRM_CAP_SYNCOBJ_TIMELINE, DRM_CAP_PRIME,
			DRM_CAP_DUMB_BUFFER, 0, 0x1000,
		};
		struct drm_get_cap c = { .capability = caps[rnd(t, ARRAY_SIZE(caps))] };

		xioctl(t, IOC_GET_CAP, fd, DRM_IOCTL_GET_CAP, &c);
		return;
	}
	}
	t->fd_mutated = true;
	xioctl(t, IOC_BAD, fd, req, buf);
	t->fd_mutated = false;
}

/* ------------------------------------------------------------ the loop */

enum {
	OPF_WRLOCK = 1,		/* closes descriptors or unmaps */
	OPF_NOLOCK = 2,		/* takes no lock itself */
	OPF_TOP = 4,		/* only in a worker's main thread, alone */
	OPF_NOCHILD = 8,	/* not in a forked child: the parent relies on it */
	OPF_MUTATED = 16,	/* never valid */
};

struct opdesc {
	const char *name;
	void (*fn)(struct tctx *t);
	unsigned int weight;
	unsigned int flags;
};

static void op_fork(struct tctx *t);
static void op_burst(struct tctx *t);
static void op_exit(struct tctx *t);

static const struct opdesc ops[NOPS] = {
	[OP_OPEN] = { "open", op_open, 8, 0 },
	[OP_DUP] = { "dup", op_dup, 6, 0 },
	[OP_CLOSE] = { "close-fd", op_close, 6, OPF_WRLOCK | OPF_NOCHILD },
	[OP_STATUS] = { "manage-status", op_status, 12, 0 },
	[OP_ACTIVATE] = { "manage-activate", op_activate, 25, OPF_NOCHILD },
	[OP_DEACTIVATE] = { "manage-deactivate", op_deactivate, 10, OPF_NOCHILD },
	[OP_PASSTHROUGH] = { "manage-passthrough", op_passthrough, 20, OPF_NOCHILD },
	[OP_DMA_XFER] = { "manage-dma-xfer", op_dma_xfer, 14, 0 },
	[OP_MANAGE_RAW] = { "manage-raw", op_manage_raw, 25, OPF_NOCHILD | OPF_MUTATED },
	[OP_CREATE] = { "create-bo", op_create, 60, 0 },
	[OP_MMAP_BO] = { "mmap-bo", op_mmap_bo, 15, 0 },
	[OP_MMAP] = { "mmap", op_mmap, 25, OPF_WRLOCK },
	[OP_MUNMAP] = { "munmap", op_munmap, 10, OPF_WRLOCK },
	[OP_TOUCH] = { "touch", op_touch, 25, 0 },
	[OP_ATTACH] = { "attach-slice", op_attach, 85, 0 },
	[OP_DETACH] = { "detach-slice", op_detach, 25, OPF_NOCHILD },
	[OP_EXECUTE] = { "execute", op_execute, 110, 0 },
	[OP_PARTIAL] = { "partial-execute", op_partial, 50, 0 },
	[OP_WAIT] = { "wait-bo", op_wait, 85, 0 },
	[OP_PERF] = { "perf-stats", op_perf, 25, 0 },
	[OP_SUBMIT] = { "submit", op_submit, 75, 0 },
	[OP_GEM_CLOSE] = { "gem-close", op_gem_close, 30, OPF_NOCHILD },
	[OP_PRIME_EXPORT] = { "prime-export", op_prime_export, 14, 0 },
	[OP_PRIME_IMPORT] = { "prime-import", op_prime_import, 14, 0 },
	[OP_DMABUF] = { "dma-buf", op_dmabuf, 14, 0 },
	[OP_XFD_CLOSE] = { "close-dmabuf-syncfile", op_xfd_close, 12, OPF_WRLOCK },
	[OP_SO_CREATE] = { "syncobj-create", op_so_create, 18, 0 },
	[OP_SO_DESTROY] = { "syncobj-destroy", op_so_destroy, 8, OPF_NOCHILD },
	[OP_SO_WAIT] = { "syncobj-wait", op_so_wait, 20, 0 },
	[OP_SO_SIGNAL] = { "syncobj-signal", op_so_signal, 14, 0 },
	[OP_SO_RESET] = { "syncobj-reset", op_so_reset, 6, 0 },
	[OP_SO_EXPORT] = { "syncobj-export", op_so_export, 12, 0 },
	[OP_SO_IMPORT] = { "syncobj-import", op_so_import, 12, 0 },
	[OP_SO_MISC] = { "syncobj-query-transfer", op_so_misc, 10, 0 },
	[OP_SYNC_FILE] = { "sync-file", op_sync_file, 8, 0 },
	[OP_BAD_IOCTL] = { "bad-ioctl", op_bad_ioctl, 10, OPF_MUTATED },
	[OP_FORK] = { "fork", op_fork, 3, OPF_NOLOCK | OPF_TOP },
	[OP_BURST] = { "threads", op_burst, 6, OPF_NOLOCK | OPF_TOP },
	[OP_EXIT] = { "exit-early", op_exit, 1, OPF_NOLOCK | OPF_TOP },
};

static unsigned int total_weight;

static int pick_op(struct tctx *t)
{
	struct worker *w = t->w;

	for (;;) {
		uint32_t r = rnd(t, total_weight);
		int op = 0;

		while (r >= ops[op].weight)
			r -= ops[op++].weight;
		if ((ops[op].flags & OPF_TOP) && (w->in_burst || w->is_child))
			continue;
		if ((ops[op].flags & OPF_NOCHILD) && w->is_child)
			continue;
		return op;
	}
}

static void run_op(struct tctx *t)
{
	struct worker *w = t->w;
	struct wslot *ws = &sh->w[w->idx];
	struct tslot *ts = &ws->t[t->slot];
	int op;

	/*
	 * The operation and whether it is valid come from sel alone, its
	 * arguments from a state derived from it: however many choices an
	 * operation makes (they depend on the model, so on the kernel's
	 * answers), the sequence of operations stays the same.
	 */
	t->rng0 = t->sel;
	t->rng = t->sel;
	op = pick_op(t);
	t->valid = one_in(t, 2) && !(ops[op].flags & OPF_MUTATED);
	t->sel = t->rng;
	{
		uint64_t st = t->sel;

		t->rng = splitmix64(&st) | 1;
	}
	t->op = op;
	t->strict = t->valid && !w->in_burst && !w->is_child;
	t->argmut = !t->valid && one_in(t, 16);
	t->fd_mutated = false;
	t->opno = ADD(ws->opno, 1);

	ts->op = op;
	ts->valid = t->valid;
	ts->opno = t->opno;
	ts->rng = t->rng0;
	ts->t0_ms = now_ms();
	__atomic_store_n(&ts->active, 1, __ATOMIC_RELEASE);
	if (verbose) {
		char line[160];
		int len;

		len = snprintf(line, sizeof(line), "qaic-fuzz: w%d.%d #%" PRIu64 " %s %s (rng %#"
			       PRIx64 ")\n", w->idx, t->slot, t->opno, ops[op].name,
			       t->valid ? "valid" : "mutated", t->rng0);
		fputs(line, stderr);
		if (kmsg_fd >= 0)
			(void)!write(kmsg_fd, line, len);
	}

	if (ops[op].flags & OPF_NOLOCK) {
		ops[op].fn(t);
	} else if (ops[op].flags & OPF_WRLOCK) {
		pthread_rwlock_wrlock(&w->fdlock);
		ops[op].fn(t);
		pthread_rwlock_unlock(&w->fdlock);
	} else {
		pthread_rwlock_rdlock(&w->fdlock);
		ops[op].fn(t);
		pthread_rwlock_unlock(&w->fdlock);
	}

	__atomic_store_n(&ts->active, 0, __ATOMIC_RELEASE);
	ADD(sh->ops[t->op][!t->valid], 1);
}

static int tctx_init(struct tctx *t, struct worker *w, int slot, uint64_t rng)
{
	memset(t, 0, sizeof(*t));
	t->w = w;
	t->slot = slot;
	t->sel = rng ? rng : 1;
	t->rng = t->sel;
	t->scratch = mmap(NULL, 3 * PAGE, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	t->ro = mmap(NULL, 2 * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (t->scratch == MAP_FAILED || t->ro == MAP_FAILED)
		return -1;
	mprotect(t->scratch + 2 * PAGE, PAGE, PROT_NONE);
	mprotect(t->ro + PAGE, PAGE, PROT_NONE);
	return 0;
}

static void tctx_fini(struct tctx *t)
{
	munmap(t->scratch, 3 * PAGE);
	munmap(t->ro, 2 * PAGE);
}

struct burst {
	struct tctx t;
	int n;
};

static void *burst_thread(void *arg)
{
	struct burst *b = arg;

	for (int i = 0; i < b->n; i++)
		run_op(&b->t);
	return NULL;
}

/* Two threads sharing the files run a burst of operations each. */
static void op_burst(struct tctx *t)
{
	struct worker *w = t->w;
	struct wslot *ws = &sh->w[w->idx];
	struct burst b;
	pthread_t th;
	uint64_t left = __atomic_load_n(&ws->ops_left, __ATOMIC_RELAXED);
	int n = 4 + rnd(t, 21);

	if ((uint64_t)2 * n > left)
		n = left / 2;
	if (n <= 0 || tctx_init(&b.t, w, 1, rnd64(t)))
		return;
	b.n = n;
	ADD(sh->bursts, 1);
	w->in_burst = true;
	if (pthread_create(&th, NULL, burst_thread, &b)) {
		w->in_burst = false;
		tctx_fini(&b.t);
		return;
	}
	{
		/* this thread's ops have their own slot state: save ours */
		struct tslot save = ws->t[t->slot];
		int op = t->op;
		bool valid = t->valid;

		for (int i = 0; i < n; i++)
			run_op(t);
		t->op = op;
		t->valid = valid;
		ws->t[t->slot] = save;
		__atomic_store_n(&ws->t[t->slot].active, 1, __ATOMIC_RELEASE);
		ws->t[t->slot].t0_ms = now_ms();
	}
	pthread_join(th, NULL);
	w->in_burst = false;
	tctx_fini(&b.t);
	/* counted as ops themselves */
	ADD(ws->ops_left, -(uint64_t)(2 * n));
}

/* A child does a few operations on the inherited files and _exit()s. */
static void op_fork(struct tctx *t)
{
	struct worker *w = t->w;
	uint64_t crng = rnd64(t);
	int n = 2 + rnd(t, 7), status;
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		fail(t, "fork: %s", strerror(errno));
		return;
	}
	if (!pid) {
		struct tctx c;

		w->is_child = true;
		if (tctx_init(&c, w, 2, crng))
			_exit(1);
		for (int i = 0; i < n; i++)
			run_op(&c);
		_exit(0);	/* with work in flight */
	}
	ADD(sh->children, 1);
	sh->w[w->idx].child = pid;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	sh->w[w->idx].child = 0;
	/* a child killed in an op left it marked as running */
	__atomic_store_n(&sh->w[w->idx].t[2].active, 0, __ATOMIC_RELEASE);
	if (WIFSIGNALED(status))
		fail(t, "forked child (seed %#" PRIx64 ") killed by %s", crng,
		     strsignal(WTERMSIG(status)));
	else if (WEXITSTATUS(status))
		fail(t, "forked child (seed %#" PRIx64 ") exited with %d", crng,
		     WEXITSTATUS(status));
}

/* Stop here with work in flight; the parent starts us again from the next state. */
static void op_exit(struct tctx *t)
{
	struct wslot *ws = &sh->w[t->w->idx];

	ADD(sh->early_exits, 1);
	ADD(sh->ops[OP_EXIT][!t->valid], 1);
	ws->rng = t->sel;
	ws->ops_left--;
	ws->t[0].active = 0;
	ws->exit_ms = now_ms();
	_exit(EXIT_RESTART);
}

static void worker_main(int idx, uint64_t rng, int procs)
{
	struct wslot *ws = &sh->w[idx];
	pthread_rwlockattr_t ra;
	struct sigaction sa;
	struct worker *w;
	struct tctx t;

	w = calloc(1, sizeof(*w));
	if (!w || tctx_init(&t, w, 0, rng))
		_exit(1);
	w->idx = idx;
	w->dbc_cap = (NUM_DBC - 4) / procs;
	if (w->dbc_cap < 1)
		w->dbc_cap = 1;
	if (w->dbc_cap > 4)
		w->dbc_cap = 4;
	pthread_mutex_init(&w->lock, NULL);
	pthread_rwlockattr_init(&ra);
	pthread_rwlockattr_setkind_np(&ra, PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP);
	pthread_rwlock_init(&w->fdlock, &ra);

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_fault;
	sa.sa_flags = SA_SIGINFO | SA_NODEFER;
	sigaction(SIGSEGV, &sa, NULL);
	sigaction(SIGBUS, &sa, NULL);

	while (__atomic_load_n(&ws->ops_left, __ATOMIC_RELAXED) > 0) {
		/* the state to resume from, should the worker be killed */
		ws->rng = t.sel;
		run_op(&t);
		if (t.op != OP_BURST)
			ADD(ws->ops_left, -1);
		else if (ws->ops_left)
			ADD(ws->ops_left, -1);
	}
	ws->exit_ms = now_ms();
	_exit(0);
}

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
	struct qaic_manage_msg arg = { .len = m->len, .count = m->count, .data = (uintptr_t)m->buf };
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

int main(int argc, char **argv)
{
	uint64_t nops = 20000, total = 0;
	int procs = 2, passed = 0, failed = 0, fd, err = 0, alive, n;
	bool have_seed = false, hung = false, crashed = false;
	struct meminfo m0, m1;
	uint64_t last_progress;
	double t0, t1;
	int mem0_err;

	for (int i = 1; i < argc; i++) {
		char *end;

		if (!strcmp(argv[i], "--seed") && i + 1 < argc) {
			seed = strtoull(argv[++i], &end, 0);
			if (*end)
				usage();
			have_seed = true;
		} else if (!strcmp(argv[i], "--ops") && i + 1 < argc) {
			nops = strtoull(argv[++i], &end, 0);
			if (*end)
				usage();
		} else if (!strcmp(argv[i], "--procs") && i + 1 < argc) {
			procs = strtol(argv[++i], &end, 0);
			if (*end || procs < 1 || procs > MAX_WORKERS)
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
			return 1;
		}
		close(r);
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("qaic-fuzz: seed %" PRIu64 " ops %" PRIu64 " procs %d\n", seed, nops, procs);

	for (int i = 0; i < NOPS; i++)
		total_weight += ops[i].weight;

	/* The card must answer first. */
	t0 = now_ms() / 1000.0;
	for (;;) {
		fd = open_device(O_RDWR | O_CLOEXEC);
		err = fd < 0 ? -errno : 0;
		if (fd >= 0 && !is_qaic(fd)) {
			printf("check the card answers: FAIL (%s is not a qaic device)\n", device);
			printf("0 passed, 1 failed\n");
			return 1;
		}
		if (fd >= 0) {
			err = pstatus(fd);
			close(fd);
			if (!err)
				break;
		}
		/* A card being reset answers again; a missing node does not appear. */
		if (now_ms() / 1000.0 - t0 > (err == -ENOENT ? 2 : 30)) {
			printf("check the card answers: FAIL (%s: %s)\n", device, strerror(-err));
			printf("0 passed, 1 failed\n");
			return 1;
		}
		usleep(100 * 1000);
	}
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

	/* Reap, restart, and watch for operations that take too long. */
	last_progress = now_ms();
	alive = procs;
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
				int i = ADD(sh->nfail, 1);

				crashed = true;
				if (i < MAX_FAIL)
					snprintf(sh->fail[i], sizeof(sh->fail[i]),
						 "worker %d (pid %d) %s %d in op #%" PRIu64 " %s "
						 "(op rng %#" PRIx64 ", %s)", idx, pid,
						 WIFSIGNALED(status) ? "killed by signal" : "exited with",
						 WIFSIGNALED(status) ? WTERMSIG(status) :
						 WEXITSTATUS(status), ts->opno, ops[ts->op].name,
						 ts->rng, ts->valid ? "valid" : "mutated");
				fprintf(stderr, "qaic-fuzz: FAIL: %s\n",
					i < MAX_FAIL ? sh->fail[i] : "worker crashed");
			}
			sh->w[idx].finished = 1;
			alive--;
		}
		now = now_ms();
		for (int i = 0; i < procs && !hung; i++) {
			uint64_t ex = __atomic_load_n(&sh->w[i].exit_ms, __ATOMIC_ACQUIRE);

			if (!sh->w[i].finished && ex && now > ex && now - ex >= watchdog_ms) {
				int k = ADD(sh->nfail, 1);

				hung = true;
				if (k < MAX_FAIL)
					snprintf(sh->fail[k], sizeof(sh->fail[k]),
						 "worker %d (pid %d) called _exit() %" PRIu64 " s ago and "
						 "is still there: closing its files hangs", i,
						 sh->w[i].pid, watchdog_ms / 1000);
				fprintf(stderr, "qaic-fuzz: FAIL: %s\n", k < MAX_FAIL ? sh->fail[k] : "hang");
				break;
			}
			for (int s = 0; s < 3 && !sh->w[i].finished; s++) {
				struct tslot *ts = &sh->w[i].t[s];

				if (!__atomic_load_n(&ts->active, __ATOMIC_ACQUIRE) ||
				    now - ts->t0_ms < watchdog_ms || now < ts->t0_ms)
					continue;
				hung = true;
				{
					int k = ADD(sh->nfail, 1);

					if (k < MAX_FAIL)
						snprintf(sh->fail[k], sizeof(sh->fail[k]),
							 "worker %d%s (pid %d) made no progress for %" PRIu64 " s "
							 "in op #%" PRIu64 " %s (op rng %#" PRIx64 ", %s)",
							 i, s == 1 ? " (thread)" : s == 2 ? " (child)" : "",
							 sh->w[i].pid, watchdog_ms / 1000, ts->opno,
							 ops[ts->op].name, ts->rng,
							 ts->valid ? "valid" : "mutated");
					fprintf(stderr, "qaic-fuzz: FAIL: %s\n",
						k < MAX_FAIL ? sh->fail[k] : "hang");
				}
				break;
			}
		}
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
	if (hung) {
		uint64_t now = now_ms();

		/* Show where everyone is, then kill everything. */
		for (int i = 0; i < procs; i++) {
			if (sh->w[i].finished)
				continue;
			for (int s = 0; s < 3; s++) {
				struct tslot *ts = &sh->w[i].t[s];

				if (ts->active)
					fprintf(stderr, "qaic-fuzz: worker %d%s: op #%" PRIu64 " %s (%s, "
						"op rng %#" PRIx64 ") running for %.1f s\n", i,
						s == 1 ? " (thread)" : s == 2 ? " (child)" : "",
						ts->opno, ops[ts->op].name,
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
	t1 = now_ms() / 1000.0;

	for (int i = 0; i < NOPS; i++)
		total += sh->ops[i][0] + sh->ops[i][1];

	/* ------------------------------------------------------------ summary */
	printf("\n%-26s %9s %9s %9s\n", "operation", "total", "valid", "mutated");
	for (int i = 0; i < NOPS; i++)
		printf("%-26s %9" PRIu64 " %9" PRIu64 " %9" PRIu64 "\n", ops[i].name,
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
	       "threads, %" PRIu64 " forked children, %" PRIu64 " early exits\n", total, t1 - t0,
	       total / (t1 - t0 > 0 ? t1 - t0 : 1), sh->bursts, sh->children, sh->early_exits);
	if (sh->nfail) {
		printf("\nqaic-fuzz: %d failure%s (replay: --seed %" PRIu64 " --ops %" PRIu64
		       " --procs %d):\n", sh->nfail, sh->nfail == 1 ? "" : "s", seed, nops, procs);
		for (int i = 0; i < sh->nfail && i < MAX_FAIL; i++)
			printf("  %s\n", sh->fail[i]);
	}
	printf("\n");

	/* ------------------------------------------------------------- checks */
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
			avail_ok = m1.avail_kib >= m0.avail_kib - AVAIL_TOL_KIB;
			slab_ok = m1.slab_kib <= m0.slab_kib + SLAB_TOL_KIB;
			if ((avail_ok && slab_ok) || now_ms() - start > 3000)
				break;
			usleep(250 * 1000);
		}
		if (e) {
			printf("check MemAvailable after the run: FAIL (/proc/meminfo: %s)\n",
			       strerror(-e));
			printf("check Slab after the run: FAIL (/proc/meminfo: %s)\n", strerror(-e));
			failed += 2;
		} else {
			printf("check MemAvailable after the run: %s (before %lld kB, after %lld kB, "
			       "%+lld kB; may drop by %d kB)\n", avail_ok ? "ok" : "FAIL",
			       m0.avail_kib, m1.avail_kib, m1.avail_kib - m0.avail_kib,
			       AVAIL_TOL_KIB);
			printf("check Slab after the run: %s (before %lld kB, after %lld kB, "
			       "%+lld kB; may grow by %d kB)\n", slab_ok ? "ok" : "FAIL",
			       m0.slab_kib, m1.slab_kib, m1.slab_kib - m0.slab_kib, SLAB_TOL_KIB);
			passed += avail_ok + slab_ok;
			failed += !avail_ok + !slab_ok;
		}
	}

	alarm(0);
	printf("%d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
