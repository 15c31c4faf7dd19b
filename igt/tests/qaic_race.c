// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The qaic authors.
 *
 * Races: two or more threads or processes use the same objects at once,
 * thousands of times, while one of them takes the objects away (detach,
 * deactivate, close, exit). Each subtest asserts what must hold whatever
 * the interleaving: data that went through the card comes back right, and
 * every ioctl either works or fails with one of the errnos the uapi gives
 * for that state. The bench fails the run on any WARN, KASAN, lockdep,
 * kmemleak or hung-task report the races provoke.
 *
 * QAIC_RACE_ITERS sets the iterations of each subtest (default 2000) and
 * QAIC_RACE_SECONDS the time each may take at most (default 20); a subtest
 * that runs out of time stops early and says how far it got.
 */

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <xf86drm.h>

#include "igt_qaic.h"
#include "igt_qaic_sync.h"

IGT_TEST_DESCRIPTION("Races between users of the same objects and their teardown");

#define RACE_QUEUE	256
#define RACE_BO_SIZE	4096
#define RACE_THREADS	4

static unsigned long race_iters;
static uint64_t race_deadline_ms;

static unsigned long env_ulong(const char *name, unsigned long dflt)
{
	const char *v = getenv(name);

	return v && *v ? strtoul(v, NULL, 0) : dflt;
}

static void race_start(void)
{
	race_iters = env_ulong("QAIC_RACE_ITERS", 2000);
	race_deadline_ms = igt_qaic_now_ms() + 1000 * env_ulong("QAIC_RACE_SECONDS", 20);
}

static bool race_time_left(void)
{
	return igt_qaic_now_ms() < race_deadline_ms;
}

/*
 * What a racing thread saw that it must not have. Threads cannot use
 * igt_assert (it jumps to the main thread's subtest), so they record the
 * first bad result here and stop; the main thread asserts on it.
 */
struct race_fail {
	pthread_mutex_t lock;
	char what[160];
};

static struct race_fail race_fail = { .lock = PTHREAD_MUTEX_INITIALIZER };
static atomic_bool race_stop;

static void race_reset(void)
{
	race_fail.what[0] = '\0';
	atomic_store(&race_stop, false);
}

static void race_failed(const char *op, int err)
{
	pthread_mutex_lock(&race_fail.lock);
	if (!race_fail.what[0])
		snprintf(race_fail.what, sizeof(race_fail.what), "%s: %s", op,
			 igt_qaic_err_name(err));
	pthread_mutex_unlock(&race_fail.lock);
	atomic_store(&race_stop, true);
}

/* err (0 or a negative errno) must be one of the allowed ones. */
static bool race_check(const char *op, int err, const int *allowed)
{
	if (!err)
		return true;
	for (; *allowed; allowed++)
		if (err == *allowed)
			return true;
	race_failed(op, err);
	return false;
}

static void race_assert_clean(void)
{
	igt_assert_f(!race_fail.what[0], "%s\n", race_fail.what);
}

static int gem_close_raw(int fd, uint32_t handle)
{
	struct drm_gem_close arg = { .handle = handle };

	return drmIoctl(fd, DRM_IOCTL_GEM_CLOSE, &arg) ? -errno : 0;
}

/* A BO sliced once to the device at dev_addr. */
static uint32_t race_bo(int fd, uint32_t dbc, uint32_t dir, uint64_t dev_addr)
{
	uint32_t handle = igt_qaic_create_bo(fd, RACE_BO_SIZE);

	igt_qaic_attach_simple(fd, handle, dbc, dir, RACE_BO_SIZE, dev_addr);
	return handle;
}

/*
 * execute-threads: threads of one file execute on one DBC at once, each
 * its own round trips through its own device memory, and check every byte.
 */
struct rt_thread {
	pthread_t thread;
	int fd;
	uint32_t dbc;
	unsigned int index;
	unsigned long iters;
	unsigned long done;
	struct igt_qaic_bo in, out;
};

static void *rt_thread_run(void *arg)
{
	static const int none[] = { 0 };
	struct rt_thread *t = arg;
	int ret;

	for (t->done = 0; t->done < t->iters && !atomic_load(&race_stop) && race_time_left();
	     t->done++) {
		uint32_t seed = t->index << 24 | t->done;

		igt_qaic_fill_pattern(t->in.ptr, RACE_BO_SIZE, seed);
		memset(t->out.ptr, 0, RACE_BO_SIZE);
		ret = __igt_qaic_execute_bo(t->fd, t->dbc, t->in.handle, IGT_QAIC_DIR_TO_DEV);
		if (!race_check("execute to device", ret, none))
			break;
		ret = __igt_qaic_execute_bo(t->fd, t->dbc, t->out.handle, IGT_QAIC_DIR_FROM_DEV);
		if (!race_check("execute from device", ret, none))
			break;
		ret = __igt_qaic_wait(t->fd, t->out.handle, t->dbc, 10000);
		if (!race_check("wait", ret, none))
			break;
		if (memcmp(t->out.ptr, t->in.ptr, RACE_BO_SIZE)) {
			race_failed("round trip data", 0);
			break;
		}
	}
	return NULL;
}

static void test_execute_threads(int unused __attribute__((unused)))
{
	struct rt_thread t[RACE_THREADS];
	unsigned long total = 0;
	uint32_t dbc;
	int fd = igt_qaic_open_dbc(RACE_QUEUE, &dbc);
	unsigned int i;

	for (i = 0; i < RACE_THREADS; i++) {
		t[i] = (struct rt_thread){
			.fd = fd, .dbc = dbc, .index = i,
			.iters = race_iters / RACE_THREADS,
		};
		igt_qaic_bo_create(fd, RACE_BO_SIZE, &t[i].in);
		igt_qaic_bo_create(fd, RACE_BO_SIZE, &t[i].out);
		igt_qaic_attach_simple(fd, t[i].in.handle, dbc, IGT_QAIC_DIR_TO_DEV,
				       RACE_BO_SIZE, i * 65536ull);
		igt_qaic_attach_simple(fd, t[i].out.handle, dbc, IGT_QAIC_DIR_FROM_DEV,
				       RACE_BO_SIZE, i * 65536ull);
	}
	for (i = 0; i < RACE_THREADS; i++)
		igt_assert_eq(pthread_create(&t[i].thread, NULL, rt_thread_run, &t[i]), 0);
	for (i = 0; i < RACE_THREADS; i++) {
		igt_assert_eq(pthread_join(t[i].thread, NULL), 0);
		total += t[i].done;
	}
	race_assert_clean();
	igt_info("%lu round trips in %u threads\n", total, RACE_THREADS);
	igt_assert(total > 0);
	igt_qaic_close(fd);
}

/*
 * A thread that keeps executing an object on a DBC (and waiting for it),
 * accepting what the uapi says while another thread takes the slicing,
 * the DBC or the handle away.
 */
struct exec_loop {
	pthread_t thread;
	int fd;
	atomic_uint dbc;
	uint32_t handle;
	bool partial;
	unsigned long execs;
	unsigned long ok;
};

static void *exec_loop_run(void *arg)
{
	/* Detached (EINVAL), DBC gone (EPERM), jobs cancelled or failed. */
	static const int ok_exec[] = { -EINVAL, -EPERM, -ENOENT, 0 };
	static const int ok_wait[] = { -EPERM, -ENOENT, -ECANCELED, -ETIMEDOUT, 0 };
	struct exec_loop *l = arg;
	int ret;

	while (!atomic_load(&race_stop)) {
		uint32_t dbc = atomic_load(&l->dbc);

		if (l->partial) {
			struct qaic_partial_execute_entry e = {
				.handle = l->handle, .dir = IGT_QAIC_DIR_TO_DEV,
				.resize = RACE_BO_SIZE / 2,
			};

			ret = __igt_qaic_partial_execute(l->fd, dbc, &e, 1);
		} else {
			ret = __igt_qaic_execute_bo(l->fd, dbc, l->handle, IGT_QAIC_DIR_TO_DEV);
		}
		if (!race_check("execute", ret, ok_exec))
			break;
		l->execs++;
		if (ret)
			continue;
		ret = __igt_qaic_wait(l->fd, l->handle, dbc, 1000);
		if (!race_check("wait", ret, ok_wait))
			break;
		l->ok++;
	}
	return NULL;
}

static void exec_loop_start(struct exec_loop *l)
{
	igt_assert_eq(pthread_create(&l->thread, NULL, exec_loop_run, l), 0);
}

static void exec_loop_stop(struct exec_loop *l)
{
	atomic_store(&race_stop, true);
	igt_assert_eq(pthread_join(l->thread, NULL), 0);
	race_assert_clean();
	igt_info("%lu executes, %lu completed\n", l->execs, l->ok);
}

/* execute-vs-detach: detach and attach again under a running execute loop. */
static void test_execute_vs_detach(int partial)
{
	static const int ok_detach[] = { -EBUSY, -EINVAL, 0 };
	static const int ok_attach[] = { -EINVAL, 0 };
	struct exec_loop l = { .partial = partial };
	unsigned long i, detached = 0;
	uint32_t dbc;
	int ret;

	l.fd = igt_qaic_open_dbc(RACE_QUEUE, &dbc);
	atomic_store(&l.dbc, dbc);
	l.handle = race_bo(l.fd, dbc, IGT_QAIC_DIR_TO_DEV, 0);
	exec_loop_start(&l);
	for (i = 0; i < race_iters && !atomic_load(&race_stop) && race_time_left(); i++) {
		ret = __igt_qaic_detach_slice(l.fd, l.handle);
		if (!race_check("detach", ret, ok_detach))
			break;
		detached += !ret;
		ret = __igt_qaic_attach_simple(l.fd, l.handle, dbc, IGT_QAIC_DIR_TO_DEV,
					       RACE_BO_SIZE, 0);
		if (!race_check("attach", ret, ok_attach))
			break;
	}
	exec_loop_stop(&l);
	igt_info("%lu iterations, %lu detaches went through\n", i, detached);
	igt_qaic_close(l.fd);
}

/*
 * execute-vs-deactivate: the DBC goes away under a running execute loop
 * and comes back (maybe as another DBC); the object is sliced again each
 * time. Then a round trip checks the DBC still works.
 */
static void test_execute_vs_deactivate(int unused __attribute__((unused)))
{
	static const int ok_attach[] = { -EINVAL, -EPERM, 0 };
	struct exec_loop l = {};
	unsigned long i;
	uint32_t dbc;
	int ret;

	l.fd = igt_qaic_open_dbc(RACE_QUEUE, &dbc);
	atomic_store(&l.dbc, dbc);
	l.handle = race_bo(l.fd, dbc, IGT_QAIC_DIR_TO_DEV, 0);
	exec_loop_start(&l);
	for (i = 0; i < race_iters / 8 && !atomic_load(&race_stop) && race_time_left(); i++) {
		igt_qaic_release_dbc(l.fd, dbc);
		dbc = igt_qaic_activate(l.fd, RACE_QUEUE);
		/* Detach whatever slicing is left, for the new DBC. */
		while (__igt_qaic_detach_slice(l.fd, l.handle) == -EBUSY)
			usleep(100);
		ret = __igt_qaic_attach_simple(l.fd, l.handle, dbc, IGT_QAIC_DIR_TO_DEV,
					       RACE_BO_SIZE, 0);
		if (!race_check("attach", ret, ok_attach))
			break;
		atomic_store(&l.dbc, dbc);
	}
	exec_loop_stop(&l);
	igt_info("%lu deactivations\n", i);
	igt_qaic_round_trip(l.fd, dbc, 1 << 20, RACE_BO_SIZE, 7);
	igt_qaic_close(l.fd);
}

/*
 * execute-vs-exit: processes that exit, or are killed, with jobs queued
 * and running on their DBC. The card must take every DBC back: at the end
 * one file can activate all sixteen.
 */
static void test_execute_vs_exit(int kill_it)
{
	struct igt_qaic_bo in;
	unsigned long i, n = race_iters / 10;
	int status, fd, ret;
	pid_t pid;
	bool ours;

	fd = igt_qaic_open();
	ours = igt_qaic_driver_is_ours(fd);
	igt_qaic_close(fd);
	for (i = 0; i < n && race_time_left(); i++) {
		pid = fork();
		igt_assert(pid >= 0);
		if (!pid) {
			uint32_t dbc, j;

			fd = __igt_qaic_open();
			if (fd < 0 || __igt_qaic_activate(fd, RACE_QUEUE, &dbc))
				_exit(1);
			igt_qaic_bo_create(fd, RACE_BO_SIZE, &in);
			if (__igt_qaic_attach_simple(fd, in.handle, dbc, IGT_QAIC_DIR_TO_DEV,
						     RACE_BO_SIZE, 0))
				_exit(1);
			/* Upstream's qaic refuses an object still queued: EINVAL */
			for (j = 0; j < 64; j++) {
				ret = __igt_qaic_execute_bo(fd, dbc, in.handle, IGT_QAIC_DIR_TO_DEV);
				if (ret && (ours || !j || ret != -EINVAL))
					_exit(1);
			}
			if (kill_it)
				raise(SIGKILL);
			_exit(0);
		}
		igt_assert_eq(waitpid(pid, &status, 0), pid);
		if (kill_it)
			igt_assert(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
		else
			igt_assert_f(WIFEXITED(status) && !WEXITSTATUS(status),
				     "child %lu failed: %#x\n", i, status);
	}
	igt_info("%lu processes exited with jobs in flight\n", i);

	/* Each close terminates its handle on the card before it returns. */
	igt_qaic_assert_dbcs_free();
}

/* perf-stats-vs-detach: PERF_STATS_BO while the object is detached and run. */
struct stats_loop {
	pthread_t thread;
	int fd;
	uint32_t dbc;
	uint32_t handle;
	unsigned long calls;
	bool ours;
};

static void *stats_loop_run(void *arg)
{
	static const int none[] = { 0 };
	/* Upstream reports only an object sliced there: between detach and attach, EINVAL */
	static const int sliced_only[] = { -EINVAL, 0 };
	struct stats_loop *s = arg;
	int ret;

	while (!atomic_load(&race_stop)) {
		struct qaic_perf_stats_entry e = { .handle = s->handle };

		ret = __igt_qaic_perf_stats(s->fd, s->dbc, &e, 1);
		if (!race_check("perf_stats", ret, s->ours ? none : sliced_only))
			break;
		s->calls++;
	}
	return NULL;
}

static void test_perf_stats_vs_detach(int unused __attribute__((unused)))
{
	static const int ok_detach[] = { -EBUSY, 0 };
	static const int ok_exec[] = { -EINVAL, 0 };
	struct stats_loop s = {};
	unsigned long i;
	int ret;

	s.fd = igt_qaic_open_dbc(RACE_QUEUE, &s.dbc);
	s.ours = igt_qaic_driver_is_ours(s.fd);
	s.handle = race_bo(s.fd, s.dbc, IGT_QAIC_DIR_TO_DEV, 0);
	igt_assert_eq(pthread_create(&s.thread, NULL, stats_loop_run, &s), 0);
	for (i = 0; i < race_iters && !atomic_load(&race_stop) && race_time_left(); i++) {
		ret = __igt_qaic_execute_bo(s.fd, s.dbc, s.handle, IGT_QAIC_DIR_TO_DEV);
		if (!race_check("execute", ret, ok_exec))
			break;
		ret = __igt_qaic_detach_slice(s.fd, s.handle);
		if (!race_check("detach", ret, ok_detach))
			break;
		if (!ret)
			igt_qaic_attach_simple(s.fd, s.handle, s.dbc, IGT_QAIC_DIR_TO_DEV,
					       RACE_BO_SIZE, 0);
	}
	atomic_store(&race_stop, true);
	igt_assert_eq(pthread_join(s.thread, NULL), 0);
	race_assert_clean();
	igt_info("%lu iterations, %lu perf_stats calls\n", i, s.calls);
	igt_qaic_close(s.fd);
}

/*
 * wait-vs-close: WAIT_BO on a handle another thread closes. The wait holds
 * the object, so it returns (done, or timed out), never fails otherwise.
 */
struct wait_loop {
	pthread_t thread;
	int fd;
	uint32_t dbc;
	atomic_uint handle;
	unsigned long waits;
};

static void *wait_loop_run(void *arg)
{
	static const int ok_wait[] = { -ENOENT, -ETIMEDOUT, 0 };
	struct wait_loop *w = arg;
	int ret;

	while (!atomic_load(&race_stop)) {
		ret = __igt_qaic_wait(w->fd, atomic_load(&w->handle), w->dbc, 100);
		if (!race_check("wait", ret, ok_wait))
			break;
		w->waits++;
	}
	return NULL;
}

static void test_wait_vs_close(int unused __attribute__((unused)))
{
	static const int none[] = { 0 };
	struct wait_loop w = {};
	unsigned long i;
	uint32_t handle;
	int ret;

	w.fd = igt_qaic_open_dbc(RACE_QUEUE, &w.dbc);
	igt_assert_eq(pthread_create(&w.thread, NULL, wait_loop_run, &w), 0);
	for (i = 0; i < race_iters && !atomic_load(&race_stop) && race_time_left(); i++) {
		handle = igt_qaic_create_bo(w.fd, RACE_BO_SIZE);
		ret = __igt_qaic_attach_simple(w.fd, handle, w.dbc, IGT_QAIC_DIR_TO_DEV,
					       RACE_BO_SIZE, 0);
		if (!race_check("attach", ret, none))
			break;
		atomic_store(&w.handle, handle);
		ret = __igt_qaic_execute_bo(w.fd, w.dbc, handle, IGT_QAIC_DIR_TO_DEV);
		if (!race_check("execute", ret, none))
			break;
		ret = gem_close_raw(w.fd, handle);
		if (!race_check("gem_close", ret, none))
			break;
	}
	atomic_store(&race_stop, true);
	igt_assert_eq(pthread_join(w.thread, NULL), 0);
	race_assert_clean();
	igt_info("%lu objects closed, %lu waits\n", i, w.waits);
	igt_qaic_close(w.fd);
}

/*
 * mmap-vs-close: a thread maps objects and writes and reads them back
 * while the handles are closed under it. A mapping made holds the object:
 * its pages stay readable and writable until munmap.
 */
struct map_loop {
	pthread_t thread;
	int fd;
	atomic_uint handle;
	unsigned long maps;
};

static void *map_loop_run(void *arg)
{
	static const int ok_offset[] = { -ENOENT, 0 };
	struct map_loop *m = arg;
	uint64_t offset;
	uint8_t *p;
	int ret;

	while (!atomic_load(&race_stop)) {
		ret = __igt_qaic_mmap_bo(m->fd, atomic_load(&m->handle), &offset);
		if (!race_check("mmap_bo", ret, ok_offset))
			break;
		if (ret)
			continue;
		p = mmap(NULL, RACE_BO_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, m->fd, offset);
		/* The object may be gone between the two calls. */
		if (p == MAP_FAILED) {
			if (!race_check("mmap", -errno, (const int[]){ -EINVAL, -EACCES, 0 }))
				break;
			continue;
		}
		memset(p, 0x5a, RACE_BO_SIZE);
		if (p[0] != 0x5a || p[RACE_BO_SIZE - 1] != 0x5a) {
			race_failed("mapped page lost its data", 0);
			munmap(p, RACE_BO_SIZE);
			break;
		}
		munmap(p, RACE_BO_SIZE);
		m->maps++;
	}
	return NULL;
}

static void test_mmap_vs_close(int unused __attribute__((unused)))
{
	static const int none[] = { 0 };
	struct map_loop m = {};
	unsigned long i;
	uint32_t handle;

	m.fd = igt_qaic_open();
	atomic_store(&m.handle, igt_qaic_create_bo(m.fd, RACE_BO_SIZE));
	igt_assert_eq(pthread_create(&m.thread, NULL, map_loop_run, &m), 0);
	for (i = 0; i < race_iters && !atomic_load(&race_stop) && race_time_left(); i++) {
		handle = atomic_load(&m.handle);
		atomic_store(&m.handle, igt_qaic_create_bo(m.fd, RACE_BO_SIZE));
		if (!race_check("gem_close", gem_close_raw(m.fd, handle), none))
			break;
	}
	atomic_store(&race_stop, true);
	igt_assert_eq(pthread_join(m.thread, NULL), 0);
	race_assert_clean();
	igt_info("%lu objects closed, %lu mappings\n", i, m.maps);
	igt_qaic_close(m.fd);
}

/*
 * prime-vs-close: a child imports the dma-buf of an object that the
 * parent executes and closes at the same time; both close everything in
 * any order. The import is the parent's object (one card), still sliced.
 */
static void test_prime_vs_close(int unused __attribute__((unused)))
{
	unsigned long i, n = race_iters / 20;
	int status, fd0 = igt_qaic_open();
	bool ours = igt_qaic_driver_is_ours(fd0);

	close(fd0);

	for (i = 0; i < n && race_time_left(); i++) {
		uint32_t dbc, handle;
		int fd, dmabuf;
		pid_t pid;

		fd = igt_qaic_open_dbc(RACE_QUEUE, &dbc);
		handle = race_bo(fd, dbc, IGT_QAIC_DIR_TO_DEV, 0);
		dmabuf = igt_qaic_prime_export(fd, handle);
		pid = fork();
		igt_assert(pid >= 0);
		if (!pid) {
			uint32_t cdbc, import;
			int cfd = __igt_qaic_open(), ret;

			if (cfd < 0 || __igt_qaic_activate(cfd, RACE_QUEUE, &cdbc) ||
			    __igt_qaic_prime_import(cfd, dmabuf, &import))
				_exit(1);
			close(dmabuf);
			/*
			 * The same card: the import is the parent's object,
			 * sliced. Upstream's close detaches its slices, and
			 * then the object may be sliced again.
			 */
			ret = __igt_qaic_attach_simple(cfd, import, cdbc, IGT_QAIC_DIR_TO_DEV,
						       RACE_BO_SIZE, 0);
			if (ret != -EINVAL && (ours || ret))
				_exit(2);
			_exit(gem_close_raw(cfd, import) ? 3 : 0);
		}
		igt_qaic_execute_bo(fd, dbc, handle, IGT_QAIC_DIR_TO_DEV);
		close(dmabuf);
		igt_qaic_close(fd);
		igt_assert_eq(waitpid(pid, &status, 0), pid);
		igt_assert_f(WIFEXITED(status) && !WEXITSTATUS(status),
			     "child %lu failed: %#x\n", i, status);
	}
	igt_info("%lu exports\n", i);
}

/*
 * syncobj-wait-vs-close: a thread waits for a syncobj whose fence an
 * execution of the file will signal, while the file is closed under it.
 * The wait holds the file and the fence: it returns, with the fence
 * signalled (done or cancelled), never hangs.
 */
struct sync_waiter {
	pthread_t thread;
	int fd;
	uint32_t syncobj;
	int ret;
};

static void *sync_waiter_run(void *arg)
{
	struct sync_waiter *w = arg;

	w->ret = __igt_qaic_syncobj_wait(w->fd, w->syncobj, 0, 5000000000ll,
					 DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT);
	return NULL;
}

static void test_syncobj_wait_vs_close(int unused __attribute__((unused)))
{
	unsigned long i, n = race_iters / 20;

	for (i = 0; i < n && race_time_left(); i++) {
		struct sync_waiter w = {};
		uint32_t dbc, handle;
		int fd;

		fd = igt_qaic_open_dbc(RACE_QUEUE, &dbc);
		w.fd = dup(fd);
		igt_assert(w.fd >= 0);
		handle = igt_qaic_create_bo(fd, RACE_BO_SIZE);
		igt_qaic_sync_attach(fd, handle, dbc, IGT_QAIC_SYNC_TO_DEV, RACE_BO_SIZE, 0);
		w.syncobj = igt_qaic_syncobj_create(fd);
		igt_qaic_submit(fd, dbc, handle, IGT_QAIC_SYNC_TO_DEV, NULL, 0, w.syncobj, 0);
		igt_assert_eq(pthread_create(&w.thread, NULL, sync_waiter_run, &w), 0);
		igt_qaic_close(fd);
		/* The last reference of the file goes with the waiter's. */
		igt_qaic_close(w.fd);
		igt_assert_eq(pthread_join(w.thread, NULL), 0);
		igt_assert_f(!w.ret || w.ret == -EBADF, "wait: %s\n", igt_qaic_err_name(w.ret));
	}
	igt_info("%lu files closed under a waiter\n", i);
}

/*
 * deactivate-while-manage-busy: other files keep the control path busy
 * with status requests while one file activates, runs a round trip and
 * deactivates over and over; every round trip must come back right.
 */
struct status_loop {
	pthread_t thread;
	int fd;
	unsigned long calls;
};

static void *status_loop_run(void *arg)
{
	static const int none[] = { 0 };
	struct qaic_manage_trans_status_from_dev st;
	struct status_loop *s = arg;

	while (!atomic_load(&race_stop)) {
		if (!race_check("status", __igt_qaic_status(s->fd, &st), none))
			break;
		s->calls++;
	}
	return NULL;
}

/* The longest each step of deactivate-while-manage-busy took, in ms. */
enum busy_step { BUSY_ACTIVATE, BUSY_ROUND_TRIP, BUSY_RELEASE, BUSY_JOIN, BUSY_CLOSE, BUSY_STEPS };

static const char *const busy_step_name[BUSY_STEPS] = {
	"activate", "round trip", "release", "join", "close",
};

/* Adds the time since *@t to step @step's maximum; *@t becomes now. */
static void busy_step_done(uint64_t *max, enum busy_step step, uint64_t *t)
{
	uint64_t now = igt_qaic_now_ms();

	if (now - *t > max[step])
		max[step] = now - *t;
	*t = now;
}

static void test_deactivate_while_manage_busy(int unused __attribute__((unused)))
{
	struct status_loop s[RACE_THREADS];
	uint64_t max[BUSY_STEPS] = { 0 }, t;
	unsigned long i, calls = 0;
	unsigned int k;
	uint32_t dbc;
	int fd = igt_qaic_open();

	for (k = 0; k < RACE_THREADS; k++) {
		s[k] = (struct status_loop){ .fd = igt_qaic_open() };
		igt_assert_eq(pthread_create(&s[k].thread, NULL, status_loop_run, &s[k]), 0);
	}
	for (i = 0; i < race_iters / 20 && !atomic_load(&race_stop) && race_time_left(); i++) {
		t = igt_qaic_now_ms();
		dbc = igt_qaic_activate(fd, RACE_QUEUE);
		busy_step_done(max, BUSY_ACTIVATE, &t);
		igt_qaic_round_trip(fd, dbc, 0, RACE_BO_SIZE, i);
		busy_step_done(max, BUSY_ROUND_TRIP, &t);
		igt_qaic_release_dbc(fd, dbc);
		busy_step_done(max, BUSY_RELEASE, &t);
	}
	atomic_store(&race_stop, true);
	for (k = 0; k < RACE_THREADS; k++) {
		t = igt_qaic_now_ms();
		igt_assert_eq(pthread_join(s[k].thread, NULL), 0);
		busy_step_done(max, BUSY_JOIN, &t);
		calls += s[k].calls;
		igt_qaic_close(s[k].fd);
		busy_step_done(max, BUSY_CLOSE, &t);
	}
	race_assert_clean();
	igt_info("%lu activate/round trip/deactivate cycles, %lu status requests\n", i, calls);
	for (k = 0; k < BUSY_STEPS; k++)
		igt_info("longest %s: %" PRIu64 " ms\n", busy_step_name[k], max[k]);
	igt_qaic_close(fd);
}

static const struct race_test {
	const char *name;
	const char *desc;
	void (*run)(int arg);
	int arg;
} race_tests[] = {
	{ "execute-threads",
	  "Threads of one file run round trips on one DBC at once; every byte checked",
	  test_execute_threads, 0 },
	{ "execute-vs-detach", "EXECUTE_BO against DETACH_SLICE_BO and a new ATTACH",
	  test_execute_vs_detach, false },
	{ "partial-execute-vs-detach",
	  "PARTIAL_EXECUTE_BO against DETACH_SLICE_BO and a new ATTACH",
	  test_execute_vs_detach, true },
	{ "execute-vs-deactivate", "EXECUTE_BO against deactivating its DBC; the DBC works after",
	  test_execute_vs_deactivate, 0 },
	{ "execute-vs-exit", "Processes exit with jobs in flight; every DBC comes back",
	  test_execute_vs_exit, false },
	{ "execute-vs-kill", "Processes are killed with jobs in flight; every DBC comes back",
	  test_execute_vs_exit, true },
	{ "perf-stats-vs-detach", "PERF_STATS_BO against DETACH_SLICE_BO",
	  test_perf_stats_vs_detach, 0 },
	{ "wait-vs-close", "WAIT_BO against closing the handle", test_wait_vs_close, 0 },
	{ "mmap-vs-close", "Mapping and touching objects against closing their handles",
	  test_mmap_vs_close, 0 },
	{ "prime-vs-close", "PRIME export, import in another process, execute and close at once",
	  test_prime_vs_close, 0 },
	{ "syncobj-wait-vs-close",
	  "A syncobj wait against closing the file whose execution signals it",
	  test_syncobj_wait_vs_close, 0 },
	{ "deactivate-while-manage-busy",
	  "Activate, run and deactivate while other files keep the control path busy",
	  test_deactivate_while_manage_busy, 0 },
};

igt_main
{
	const struct race_test *t;

	igt_fixture {
		int fd = igt_qaic_open();

		igt_qaic_close(fd);
	}

	for (t = race_tests; t < race_tests + ARRAY_SIZE(race_tests); t++) {
		igt_describe(t->desc);
		igt_subtest_f("%s", t->name) {
			race_start();
			race_reset();
			t->run(t->arg);
		}
	}
	igt_qaic_dbcs_free_checks();
}
