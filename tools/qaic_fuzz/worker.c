// SPDX-License-Identifier: GPL-2.0-only
/*
 * qaic-fuzz: the workers. The table of operations (weights, locking,
 * where they may run), choosing and running one, a worker's loop, bursts
 * of operations in two threads, forked children and early exits.
 *
 * Copyright (c) 2026 The qaic authors.
 */

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fuzz.h"
#include "calls.h"
#include "execute.h"
#include "files.h"
#include "manage.h"
#include "objects.h"
#include "prime.h"
#include "rng.h"
#include "slicing.h"
#include "syncobj.h"
#include "worker.h"

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

/* Sums the weights of the operations, before the workers start. */
void ops_init(void)
{
	for (int i = 0; i < NOPS; i++)
		total_weight += ops[i].weight;
}

/* The name of operation @op, as the summary and the reports show it. */
const char *op_name(int op)
{
	return ops[op].name;
}

/*
 * Runs operation @op in place of the one chosen, which found nothing to
 * work on (no object to close: create one); counted as @op.
 */
void become(struct tctx *t, int op)
{
	t->op = op;
	ops[op].fn(t);
}

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

void worker_main(int idx, uint64_t rng, int procs)
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
