// SPDX-License-Identifier: GPL-2.0-only
/*
 * qaic-bench: measure a qaic driver on a Cloud AI 100 (or the emulated one)
 * through the uapi alone, and compare two such measurements.
 *
 *   qaic-bench run [--label NAME] [--quick] [--only rt,bw,scale,mem]
 *	Measures round trips, MMIO per job (from the emulator's counters),
 *	also on a card paced at PACED_NS of device time per request,
 *	bandwidth, multi-DBC scaling and kernel memory per BO, and prints one
 *	"key value" line per result on stdout. A metric that fails prints
 *	"error: <errno name>" as its value; the others still run.
 *
 *   qaic-bench report [--note TEXT]... [--limits FILE] OURS UPSTREAM...
 *	Prints the table "metric | ours | upstream, best mode | mode |
 *	other mode | limit | unit" from files written by "run", one run
 *	appended per round: the median and range of each key over the
 *	rounds; for upstream, the better of its files (modes) per row. The
 *	limits come from FILE (tests/uml/bench-inner's raw round trip) and
 *	from the runs (the emulator's memcpy). Then the slab caches per BO
 *	and the driver's performance goals, met or missed. Each --note
 *	becomes a footnote line.
 *
 *   qaic-bench compare A B
 *	Two "run" files of one driver side by side on the rows both have:
 *	median (min-max) of each and the ratio of the medians.
 *
 *   qaic-bench scaling [--ratio I/J]... NAME=FILE...
 *	The scaling of "run --scale-qds 1,32" (and --emu-cpu FILE, the
 *	emulator's CPU time as the host samples it) from several files side
 *	by side: a driver on 1 and 2 CPUs, say (scripts/qaic bench --cpus).
 *
 * libdrm and the uapi header only: the manage messages are built here.
 *
 * Copyright (c) 2026 The qaic authors.
 */

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <xf86drm.h>
#include <drm/qaic_accel.h>

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define KIB		1024ull
#define MIB		(1024ull * 1024)

/* DMA directions of ATTACH_SLICE_BO and EXECUTE_BO. */
#define DIR_TO_DEV	1
#define DIR_FROM_DEV	2

/*
 * Emulator passthrough requests (tests/emu/manager.h): they start at
 * EMU_PT_OP(0), above every firmware NNC command type.
 */
#define EMU_PT_OP(n)	(0x51450000u + (n))
#define EMU_PT_DBC_COUNTERS	EMU_PT_OP(6)
#define EMU_PT_MEMCPY_BW	EMU_PT_OP(7)
#define EMU_PT_DBC_TIMING	EMU_PT_OP(17)
#define EMU_PT_DBC_TIMES	EMU_PT_OP(21)

/*
 * Device time per request of the paced rows: a card slower than the host,
 * as a real network is, so that jobs queue on the device (400 us: at most
 * 2500 jobs/s, which the bench's guest keeps up with).
 */
#define PACED_NS		400000
/* The crossover: a card slower and one faster than that (issue 37) */
#define PACED_SLOW_NS		1000000
#define PACED_FAST_NS		100000

/* Milliseconds a WAIT_BO may take: never 0, which upstream reads as "default". */
#define WAIT_MS		10000
/* The device memory behind the DBCs: 256 MiB at device address 0. */
#define DEV_MEM		(256 * MIB)

/* Seconds per timed run; scripts/qaic bench repeats each run in rounds. */
static double run_secs = 1.0;

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * Each metric arms an alarm: a driver that stops completing work fails the
 * metric with ETIME instead of hanging the benchmark.
 */
static volatile sig_atomic_t expired;

static void on_alarm(int sig)
{
	(void)sig;
	expired = 1;
}

static void watchdog(unsigned int secs)
{
	struct sigaction sa = { .sa_handler = on_alarm };

	sigaction(SIGALRM, &sa, NULL);	/* no SA_RESTART: ioctls see EINTR */
	expired = 0;
	alarm(secs);
}

static int xioctl(int fd, unsigned long req, void *arg)
{
	int ret;

	do {
		if (expired)
			return -ETIME;
		ret = ioctl(fd, req, arg);
	} while (ret && errno == EINTR);
	return ret ? -errno : 0;
}

/* ---------------------------------------------------------------- device */

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

/* The first qaic node in /dev/accel, or -errno. */
static int open_qaic(void)
{
	int err = -ENOENT;

	for (int minor = 0; minor < 64; minor++) {
		char path[32];
		int fd;

		snprintf(path, sizeof(path), "/dev/accel/accel%d", minor);
		fd = open(path, O_RDWR | O_CLOEXEC);
		if (fd < 0) {
			if (errno != ENOENT)
				err = -errno;
			continue;
		}
		if (is_qaic(fd))
			return fd;
		close(fd);
	}
	return err;
}

/* ------------------------------------------------------------ manage */

struct msg {
	uint32_t len;
	uint32_t count;
	uint8_t buf[QAIC_MANAGE_MAX_MSG_LENGTH] __attribute__((aligned(8)));
};

static void *msg_add(struct msg *m, uint32_t type, uint32_t len)
{
	struct qaic_manage_trans_hdr hdr = { .type = type, .len = len };
	uint8_t *t = m->buf + m->len;

	memset(t, 0, len);
	memcpy(t, &hdr, sizeof(hdr));
	m->len += len;
	m->count++;
	return t;
}

static int manage(int fd, struct msg *m)
{
	struct qaic_manage_msg arg = {
		.len = m->len,
		.count = m->count,
		.data = (uintptr_t)m->buf,
	};
	int ret = xioctl(fd, DRM_IOCTL_QAIC_MANAGE, &arg);

	m->len = arg.len < sizeof(m->buf) ? arg.len : sizeof(m->buf);
	m->count = arg.count;
	return ret;
}

/* The first answer transaction of @type; *@len gets its length. */
static const uint8_t *msg_find(const struct msg *m, uint32_t type, uint32_t *len)
{
	struct qaic_manage_trans_hdr hdr;
	uint32_t off = 0;

	for (uint32_t i = 0; i < m->count && m->len - off >= sizeof(hdr); i++) {
		memcpy(&hdr, m->buf + off, sizeof(hdr));
		if (hdr.len < sizeof(hdr) || hdr.len > m->len - off)
			break;
		if (hdr.type == type) {
			*len = hdr.len;
			return m->buf + off;
		}
		off += hdr.len;
	}
	return NULL;
}

/*
 * Every metric gives its DBC back by closing its file, as programs do.
 * Not by DEACTIVATE: on the bench, a DEACTIVATE followed by close() makes
 * the upstream 6.12 module's next activate wait control_resp_timeout_s
 * (60 s) for an answer.
 */
static int activate(int fd, uint32_t queue_size, uint32_t *dbc_id)
{
	struct qaic_manage_trans_activate_to_dev *req;
	struct qaic_manage_trans_activate_from_dev ans;
	const uint8_t *t;
	struct msg m = { 0 };
	uint32_t len;
	int ret;

	req = msg_add(&m, QAIC_TRANS_ACTIVATE_FROM_USR, sizeof(*req));
	req->queue_size = queue_size;
	ret = manage(fd, &m);
	if (ret)
		return ret;
	t = msg_find(&m, QAIC_TRANS_ACTIVATE_FROM_DEV, &len);
	if (!t || len < sizeof(ans))
		return -EPROTO;
	memcpy(&ans, t, sizeof(ans));
	if (ans.status)
		return -ECANCELED;
	*dbc_id = ans.dbc_id;
	return 0;
}

static int device_status(int fd)
{
	struct msg m = { 0 };

	msg_add(&m, QAIC_TRANS_STATUS_FROM_USR,
		sizeof(struct qaic_manage_trans_status_to_dev));
	return manage(fd, &m);
}

static uint32_t get_le32(const uint8_t *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t get_le64(const uint8_t *p)
{
	return get_le32(p) | (uint64_t)get_le32(p + 4) << 32;
}

static void put_le32(uint8_t *p, uint32_t v)
{
	p[0] = v;
	p[1] = v >> 8;
	p[2] = v >> 16;
	p[3] = v >> 24;
}

/*
 * Passthrough @op, @arg and the @nparams 32-bit words at @params (whole
 * 8-byte words: an even number) to the emulator's manager. Copies up to
 * @cap bytes of the answer's payload to @out; returns the payload's length
 * or -errno.
 */
static int emu_call_params(int fd, uint32_t op, uint32_t arg, const uint32_t *params,
			   uint32_t nparams, uint8_t *out, uint32_t cap)
{
	const uint32_t hlen = sizeof(struct qaic_manage_trans_hdr);
	const uint8_t *t;
	struct msg m = { 0 };
	uint8_t *req;
	uint32_t len;
	int ret;

	req = msg_add(&m, QAIC_TRANS_PASSTHROUGH_FROM_USR, hlen + 8 + 4 * nparams);
	put_le32(req + hlen, op);
	put_le32(req + hlen + 4, arg);
	for (uint32_t i = 0; i < nparams; i++)
		put_le32(req + hlen + 8 + 4 * i, params[i]);
	ret = manage(fd, &m);
	if (ret)
		return ret;
	t = msg_find(&m, QAIC_TRANS_PASSTHROUGH_FROM_DEV, &len);
	if (!t)
		return -EPROTO;
	len -= hlen;
	memset(out, 0, cap);
	memcpy(out, t + hlen, len < cap ? len : cap);
	return len;
}

static int emu_call(int fd, uint32_t op, uint32_t arg, uint8_t *out, uint32_t cap)
{
	return emu_call_params(fd, op, arg, NULL, 0, out, cap);
}

/* Each request of @dbc_id takes @req_ns of device time (0: none). */
static int emu_set_timing(int fd, uint32_t dbc_id, uint32_t req_ns)
{
	const uint32_t params[2] = { req_ns, 0 };
	uint8_t status[12];	/* op, arg, status */
	int len = emu_call_params(fd, EMU_PT_DBC_TIMING, dbc_id, params, 2, status,
				  sizeof(status));

	if (len < 0)
		return len;
	if (len < (int)sizeof(status))
		return -EPROTO;
	return get_le32(status + 8) ? -EIO : 0;
}

/*
 * Where a DBC's jobs spent their time, as the card saw it
 * (EMU_PT_DBC_TIMES): doorbell to response summed over responses (the
 * card's part), and the time its ring had nothing announced, from the
 * response that emptied it to the next doorbell (the host's part).
 */
struct dbc_times {
	uint64_t card_ns, rsps, idle_ns, idles;
};

/*
 * An emulator answer of @len bytes at least into @a: op, arg, status,
 * padding, then the op's fields. -EOPNOTSUPP when the status is not OK.
 */
static int emu_answer(int fd, uint32_t op, uint32_t arg, uint8_t *a, uint32_t len)
{
	int got = emu_call(fd, op, arg, a, len);

	if (got < 0)
		return got;
	if (got < 16 || get_le32(a) != op)
		return -EPROTO;
	if (get_le32(a + 8))
		return -EOPNOTSUPP;
	return got < (int)len ? -EPROTO : 0;
}

static int dbc_times(int fd, uint32_t dbc_id, struct dbc_times *t)
{
	uint8_t a[48];
	int ret = emu_answer(fd, EMU_PT_DBC_TIMES, dbc_id, a, sizeof(a));

	if (ret)
		return ret;
	t->card_ns = get_le64(a + 16);
	t->rsps = get_le64(a + 24);
	t->idle_ns = get_le64(a + 32);
	t->idles = get_le64(a + 40);
	return 0;
}

enum { REQHP, REQTP, RSPHP, RSPTP };

struct dbc_counters {
	uint64_t reads[4];
	uint64_t writes[4];
	uint64_t requests, responses, to_dev, from_dev, irqs, errors, resets;
};

static int dbc_counters(int fd, uint32_t dbc_id, struct dbc_counters *c)
{
	uint8_t a[136];
	uint64_t v[15];
	int ret = emu_answer(fd, EMU_PT_DBC_COUNTERS, dbc_id, a, sizeof(a));

	if (ret)
		return ret;
	for (int i = 0; i < 15; i++)
		v[i] = get_le64(a + 16 + 8 * i);
	memcpy(c->reads, v, sizeof(c->reads));
	memcpy(c->writes, v + 4, sizeof(c->writes));
	c->requests = v[8];
	c->responses = v[9];
	c->to_dev = v[10];
	c->from_dev = v[11];
	c->irqs = v[12];
	c->errors = v[13];
	c->resets = v[14];
	return 0;
}

/* ----------------------------------------------------------- objects */

struct bo {
	uint32_t handle;
	uint32_t dir;
	uint64_t size;
	void *ptr;
};

static int bo_create(int fd, uint64_t size, struct bo *bo)
{
	struct qaic_create_bo c = { .size = size };
	struct qaic_mmap_bo m = { 0 };
	int ret;

	memset(bo, 0, sizeof(*bo));
	ret = xioctl(fd, DRM_IOCTL_QAIC_CREATE_BO, &c);
	if (ret)
		return ret;
	bo->handle = c.handle;
	bo->size = size;
	m.handle = c.handle;
	ret = xioctl(fd, DRM_IOCTL_QAIC_MMAP_BO, &m);
	if (ret)
		return ret;
	bo->ptr = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, m.offset);
	if (bo->ptr == MAP_FAILED) {
		bo->ptr = NULL;
		return -errno;
	}
	return 0;
}

static void bo_destroy(int fd, struct bo *bo)
{
	struct drm_gem_close c = { .handle = bo->handle };

	if (bo->ptr)
		munmap(bo->ptr, bo->size);
	if (bo->handle)
		xioctl(fd, DRM_IOCTL_GEM_CLOSE, &c);
	memset(bo, 0, sizeof(*bo));
}

/* One slice covering the whole object, at device address @dev_addr. */
static int bo_attach(int fd, struct bo *bo, uint32_t dbc_id, uint32_t dir,
		     uint64_t dev_addr)
{
	struct qaic_attach_slice_entry e = {
		.size = bo->size,
		.dev_addr = dev_addr,
	};
	struct qaic_attach_slice a = {
		.hdr = {
			.count = 1,
			.dbc_id = dbc_id,
			.handle = bo->handle,
			.dir = dir,
			.size = bo->size,
		},
		.data = (uintptr_t)&e,
	};
	int ret = xioctl(fd, DRM_IOCTL_QAIC_ATTACH_SLICE_BO, &a);

	if (!ret)
		bo->dir = dir;
	return ret;
}

/*
 * EXECUTE_BOs that failed with ENODEV and were tried again. Upstream 6.12
 * reads REQHP/REQTP on submit and takes ~0 for a dead link; on the bench a
 * read that collides with its hard-IRQ MMIO comes back ~0 now and then.
 */
static unsigned long execute_retries;

static int bo_execute(int fd, uint32_t dbc_id, const struct bo *bo)
{
	struct qaic_execute_entry e = { .handle = bo->handle, .dir = bo->dir };
	struct qaic_execute x = {
		.hdr = { .count = 1, .dbc_id = dbc_id },
		.data = (uintptr_t)&e,
	};
	int ret, tries = 0;

	while ((ret = xioctl(fd, DRM_IOCTL_QAIC_EXECUTE_BO, &x)) == -ENODEV &&
	       tries++ < 5) {
		execute_retries++;
		usleep(1000);
	}
	return ret;
}

static int bo_wait(int fd, uint32_t dbc_id, const struct bo *bo, uint32_t ms)
{
	struct qaic_wait w = {
		.handle = bo->handle,
		.timeout = ms,
		.dbc_id = dbc_id,
	};

	return xioctl(fd, DRM_IOCTL_QAIC_WAIT_BO, &w);
}

/* ------------------------------------------------------------ output */

static void put_err(const char *key, int err)
{
	const char *name = strerrorname_np(-err);

	if (name)
		printf("%s error: %s\n", key, name);
	else
		printf("%s error: %d\n", key, -err);
	fprintf(stderr, "qaic-bench: %s: %s\n", key, strerror(-err));
}

static void put_num(const char *key, double v)
{
	printf("%s %.4f\n", key, v);
}

static int wait_ready(int secs);

/* Wait (up to 15 s) until the card answers again, as before each metric. */
static void settle(const char *what)
{
	double t0 = now_s();
	int fd = wait_ready(15);

	if (fd >= 0)
		close(fd);
	if (now_s() - t0 > 0.5 || fd < 0)
		fprintf(stderr, "qaic-bench: %s: card ready after %.1f s (%s)\n", what,
			now_s() - t0, fd < 0 ? strerror(-fd) : "ok");
}

/* ------------------------------------------------------- round trips */

/* Per-job latencies of a run, microseconds: submit to WAIT_BO's return. */
struct lat {
	double *us;
	size_t n, cap;
	double sum;
};

static void lat_add(struct lat *l, double us)
{
	if (!l)
		return;
	if (l->n == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 4096;
		double *p = realloc(l->us, cap * sizeof(*p));

		if (!p)
			return;
		l->us = p;
		l->cap = cap;
	}
	l->us[l->n++] = us;
	l->sum += us;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* The @pct-th percentile (0..100) of @l, sorted in place; 0 if empty. */
static double lat_pct(struct lat *l, double pct)
{
	size_t i;

	if (!l->n)
		return 0;
	qsort(l->us, l->n, sizeof(*l->us), cmp_double);
	i = (size_t)(pct / 100.0 * (double)(l->n - 1) + 0.5);
	return l->us[i < l->n ? i : l->n - 1];
}

/*
 * Keeps @qd objects in flight on @dbc_id for @secs: waits on the oldest,
 * queues it again, until the time is up; then drains. *@jobs gets the
 * completed executions, *@elapsed the seconds from the first queueing to
 * the last completion; @lat (if not NULL) each job's latency, from its
 * EXECUTE_BO to the return of the WAIT_BO that saw it done.
 */
static int run_qd(int fd, uint32_t dbc_id, struct bo *bos, int qd, double secs,
		  uint64_t *jobs, double *elapsed, struct lat *lat)
{
	double start = now_s(), end = start + secs, t_sub[32];
	int inflight = 0, i, ret = 0;
	uint64_t done = 0;

	for (i = 0; i < qd; i++) {
		t_sub[i] = now_s();
		ret = bo_execute(fd, dbc_id, &bos[i]);
		if (ret)
			break;
		inflight++;
	}
	for (i = 0; inflight; i = (i + 1) % qd) {
		int w = bo_wait(fd, dbc_id, &bos[i], WAIT_MS);
		double t = now_s();

		inflight--;
		if (w) {
			if (!ret)
				ret = w;
			continue;
		}
		done++;
		lat_add(lat, (t - t_sub[i]) * 1e6);
		if (!ret && t < end) {
			t_sub[i] = now_s();
			ret = bo_execute(fd, dbc_id, &bos[i]);
			if (!ret)
				inflight++;
		}
	}
	*elapsed = now_s() - start;
	*jobs = done;
	return ret;
}

struct rt_result {
	int err;
	double rate;
	double p50_us, p99_us, max_us, mean_us;
	/* The card's account (EMU_PT_DBC_TIMES); times_err if it has none. */
	int times_err;
	double card_us, idle_pct;
	int cnt_err;
	double sub_rd, sub_wr, cpl_rd, cpl_wr, irqs;
};

static void bench_round_trips(int qd, uint32_t req_ns, struct rt_result *r)
{
	struct dbc_counters c0, c1;
	struct dbc_times t0, t1;
	struct lat lat = { 0 };
	struct bo bos[32];
	uint64_t jobs = 0;
	double elapsed = 0;
	uint32_t dbc_id = ~0u;
	int fd, i, n = 0;

	memset(r, 0, sizeof(*r));
	fd = open_qaic();
	if (fd < 0) {
		r->err = fd;
		return;
	}
	r->err = activate(fd, 256, &dbc_id);
	if (r->err)
		goto out;
	r->err = req_ns ? emu_set_timing(fd, dbc_id, req_ns) : 0;
	if (r->err)
		goto out;
	for (; n < qd; n++) {
		r->err = bo_create(fd, 4 * KIB, &bos[n]);
		if (r->err)
			goto out;
		memset(bos[n].ptr, n, 4 * KIB);
		r->err = bo_attach(fd, &bos[n], dbc_id, DIR_TO_DEV, n * 4 * KIB);
		if (r->err) {
			n++;
			goto out;
		}
	}
	/* Warm up: first faults, first interrupts, caches. */
	r->err = run_qd(fd, dbc_id, bos, qd, 0.2, &jobs, &elapsed, NULL);
	if (r->err)
		goto out;
	r->cnt_err = dbc_counters(fd, dbc_id, &c0);
	r->times_err = dbc_times(fd, dbc_id, &t0);
	r->err = run_qd(fd, dbc_id, bos, qd, run_secs, &jobs, &elapsed, &lat);
	if (r->err)
		goto out;
	r->rate = jobs / elapsed;
	r->p50_us = lat_pct(&lat, 50);
	r->p99_us = lat_pct(&lat, 99);
	r->max_us = lat_pct(&lat, 100);
	r->mean_us = lat.n ? lat.sum / (double)lat.n : 0;
	if (!r->times_err)
		r->times_err = dbc_times(fd, dbc_id, &t1);
	if (!r->times_err && t1.rsps > t0.rsps && elapsed > 0) {
		r->card_us = (double)(t1.card_ns - t0.card_ns) / (double)(t1.rsps - t0.rsps) / 1e3;
		r->idle_pct = (double)(t1.idle_ns - t0.idle_ns) / (elapsed * 1e9) * 100;
	} else if (!r->times_err) {
		r->times_err = -ENODATA;
	}
	if (!r->cnt_err)
		r->cnt_err = dbc_counters(fd, dbc_id, &c1);
	if (!r->cnt_err) {
		r->sub_rd = (double)(c1.reads[REQHP] + c1.reads[REQTP] -
				     c0.reads[REQHP] - c0.reads[REQTP]) / jobs;
		r->sub_wr = (double)(c1.writes[REQHP] + c1.writes[REQTP] -
				     c0.writes[REQHP] - c0.writes[REQTP]) / jobs;
		r->cpl_rd = (double)(c1.reads[RSPHP] + c1.reads[RSPTP] -
				     c0.reads[RSPHP] - c0.reads[RSPTP]) / jobs;
		r->cpl_wr = (double)(c1.writes[RSPHP] + c1.writes[RSPTP] -
				     c0.writes[RSPHP] - c0.writes[RSPTP]) / jobs;
		r->irqs = (double)(c1.irqs - c0.irqs) / jobs;
		fprintf(stderr, "qaic-bench: QD%d: %" PRIu64 " jobs in %.2f s, "
			"emulator saw %" PRIu64 " requests, %" PRIu64 " responses\n",
			qd, jobs, elapsed, c1.requests - c0.requests,
			c1.responses - c0.responses);
	}
out:
	/* The time outlives the DBC: the next user must not inherit it. */
	if (req_ns && dbc_id != ~0u)
		emu_set_timing(fd, dbc_id, 0);
	for (i = 0; i < n; i++)
		bo_destroy(fd, &bos[i]);
	close(fd);
	free(lat.us);
}

/* "NAME_SUFFIX value" for each of @n results of a run, or its error @err. */
static void put_group(const char *const *names, const double *vals, unsigned int n,
		      const char *suffix, int err)
{
	char key[64];

	for (unsigned int i = 0; i < n; i++) {
		snprintf(key, sizeof(key), "%s_%s", names[i], suffix);
		if (err)
			put_err(key, err);
		else
			put_num(key, vals[i]);
	}
}

static void report_round_trips(void)
{
	static const struct {
		int qd;
		uint32_t req_ns;
		const char *what, *suffix;
	} runs[] = {
		{ 1, 0, "QD1", "qd1" },
		{ 32, 0, "QD32", "qd32" },
		{ 1, PACED_NS, "QD1 paced", "paced_qd1" },
		{ 32, PACED_NS, "QD32 paced", "paced_qd32" },
		/* A queue the coalescing window (8 responses) does not fill. */
		{ 4, PACED_NS, "QD4 paced", "paced_qd4" },
		{ 1, PACED_SLOW_NS, "QD1 paced 1 ms", "paced1ms_qd1" },
		{ 32, PACED_SLOW_NS, "QD32 paced 1 ms", "paced1ms_qd32" },
		{ 1, PACED_FAST_NS, "QD1 paced 100 us", "paced100us_qd1" },
		{ 32, PACED_FAST_NS, "QD32 paced 100 us", "paced100us_qd32" },
	};

	static const char *const rate[] = { "rt" };
	static const char *const lats[] = { "lat_p50", "lat_p99", "lat_max", "lat_mean" };
	/*
	 * The split of a job's time: the card's part (doorbell to response),
	 * the host's (the mean latency less the card's), and the share of the
	 * run the card sat told of nothing.
	 */
	static const char *const split[] = { "card_us", "host_us", "idle_pct" };
	static const char *const counts[] = {
		"mmio_submit_reads", "mmio_submit_writes",
		"mmio_complete_reads", "mmio_complete_writes", "irqs",
	};

	for (unsigned int q = 0; q < ARRAY_SIZE(runs); q++) {
		const char *sfx = runs[q].suffix;
		struct rt_result r;

		settle(runs[q].what);
		watchdog(60);
		bench_round_trips(runs[q].qd, runs[q].req_ns, &r);
		put_group(rate, (double[]){ r.rate }, 1, sfx, r.err);
		put_group(lats, (double[]){ r.p50_us, r.p99_us, r.max_us, r.mean_us },
			  ARRAY_SIZE(lats), sfx, r.err);
		put_group(split, (double[]){ r.card_us, r.mean_us - r.card_us, r.idle_pct },
			  ARRAY_SIZE(split), sfx, r.err ? r.err : r.times_err);
		put_group(counts, (double[]){ r.sub_rd, r.sub_wr, r.cpl_rd, r.cpl_wr, r.irqs },
			  ARRAY_SIZE(counts), sfx, r.err ? r.err : r.cnt_err);
		fflush(stdout);
	}
}

/* --------------------------------------------------------- bandwidth */

/* MB/s of executing @bo on @dbc_id again and again, for about a second. */
static int measure_bw(int fd, uint32_t dbc_id, struct bo *bo, double *mbs)
{
	double start, t;
	int reps = 0, ret;

	/* Warm up, and make sure it works at all. */
	ret = bo_execute(fd, dbc_id, bo);
	if (!ret)
		ret = bo_wait(fd, dbc_id, bo, WAIT_MS * 3);
	if (ret)
		return ret;
	start = now_s();
	do {
		ret = bo_execute(fd, dbc_id, bo);
		if (!ret)
			ret = bo_wait(fd, dbc_id, bo, WAIT_MS * 3);
		if (ret)
			return ret;
		reps++;
		t = now_s() - start;
	} while (reps < 20 && (t < run_secs / 2 || reps < 3));
	*mbs = (double)bo->size * reps / t / 1e6;
	return 0;
}

static void report_bandwidth(void)
{
	/* A 64 MiB shmem object may need one request per page: 16384 + 1. */
	static const uint32_t queues[] = { 32768, 16400, 4096, 1024, 256 };
	static const uint32_t sizes_mib[] = { 64, 32, 16, 8, 4, 1 };
	double to = 0, from = 0;
	uint32_t dbc_id = 0, queue = 0, mib = 0;
	int fd, ret = 0, err_to = 0, err_from = 0;

	watchdog(120);
	fd = open_qaic();
	if (fd < 0) {
		ret = fd;
		goto out;
	}
	for (unsigned int i = 0; i < ARRAY_SIZE(queues); i++) {
		ret = activate(fd, queues[i], &dbc_id);
		if (!ret) {
			queue = queues[i];
			break;
		}
		fprintf(stderr, "qaic-bench: activate with a %u-entry queue: %s\n",
			queues[i], strerror(-ret));
	}
	if (ret)
		goto out_fd;

	for (unsigned int i = 0; i < ARRAY_SIZE(sizes_mib); i++) {
		struct bo a, b;
		uint64_t size = sizes_mib[i] * MIB;

		mib = sizes_mib[i];
		ret = bo_create(fd, size, &a);
		if (!ret)
			ret = bo_create(fd, size, &b);
		if (!ret) {
			memset(a.ptr, 0x5a, size);
			memset(b.ptr, 0, size);
			ret = bo_attach(fd, &a, dbc_id, DIR_TO_DEV, 0);
		}
		if (!ret)
			ret = bo_attach(fd, &b, dbc_id, DIR_FROM_DEV, 0);
		if (!ret) {
			err_to = measure_bw(fd, dbc_id, &a, &to);
			err_from = measure_bw(fd, dbc_id, &b, &from);
			if (!err_from && memcmp(a.ptr, b.ptr, size))
				fprintf(stderr, "qaic-bench: %u MiB read back differs\n", mib);
		}
		bo_destroy(fd, &a);
		bo_destroy(fd, &b);
		if (!ret && !(err_to && err_from))
			break;
		if (!ret)
			ret = err_to;
		fprintf(stderr, "qaic-bench: %u MiB objects on a %u-entry queue: %s\n",
			mib, queue, strerror(-ret));
	}
out_fd:
	close(fd);
out:
	printf("bw_queue %u\nbw_mib %u\n", queue, mib);
	if (ret) {
		put_err("bw_to_dev", ret);
		put_err("bw_from_dev", ret);
	} else {
		if (err_to)
			put_err("bw_to_dev", err_to);
		else
			put_num("bw_to_dev", to);
		if (err_from)
			put_err("bw_from_dev", err_from);
		else
			put_num("bw_from_dev", from);
	}
	fflush(stdout);
}

/*
 * The emulator's own memcpy bandwidth for @mib MiB, EMU_PT_MEMCPY_BW: the
 * best of three answers, as the transfers are timed at their best too.
 */
static void report_memcpy_bw(uint32_t mib)
{
	double best = 0;
	uint8_t a[32];
	int fd, len = 0;

	watchdog(60);
	fd = open_qaic();
	if (fd < 0) {
		put_err("emu_memcpy_bw", fd);
		return;
	}
	for (int i = 0; i < 3; i++) {
		len = emu_call(fd, EMU_PT_MEMCPY_BW, mib, a, sizeof(a));
		if (len < 32 || get_le32(a) != EMU_PT_MEMCPY_BW || get_le32(a + 8) ||
		    !get_le64(a + 24))
			break;
		if (get_le64(a + 16) * 1e3 / get_le64(a + 24) > best)
			best = get_le64(a + 16) * 1e3 / get_le64(a + 24);
	}
	close(fd);
	if (len < 0) {
		put_err("emu_memcpy_bw", len);
	} else if (!best) {
		fprintf(stderr, "qaic-bench: EMU_PT_MEMCPY_BW: status %u, %d bytes\n",
			len >= 12 ? get_le32(a + 8) : 0, len);
		printf("emu_memcpy_bw n/a\n");
	} else {
		put_num("emu_memcpy_bw", best);
	}
	fflush(stdout);
}

/* ------------------------------------------------------------ scaling */

struct child_msg {
	int err;
	uint64_t jobs;
	double elapsed;
	unsigned long retries;
};

static void child_send(int wfd, const struct child_msg *m)
{
	if (write(wfd, m, sizeof(*m)) != sizeof(*m))
		_exit(1);
}

/* The deepest queue of the scaling metric (--scale-qds). */
#define SCALE_MAX_QD		32

/* One process: its own file, its own DBC, @qd objects, QD @qd. */
static void scaling_child(int idx, int ready_w, int go_r, int qd)
{
	struct child_msg m = { 0 };
	struct bo bos[SCALE_MAX_QD];
	uint32_t dbc_id;
	char c;
	int fd, i;

	watchdog(60);
	fd = open_qaic();
	if (fd < 0) {
		m.err = fd;
		child_send(ready_w, &m);
		_exit(1);
	}
	m.err = activate(fd, 64, &dbc_id);
	for (i = 0; !m.err && i < qd; i++) {
		m.err = bo_create(fd, 4 * KIB, &bos[i]);
		if (!m.err) {
			memset(bos[i].ptr, idx, 4 * KIB);
			/* Each process in its own MiB of device memory. */
			m.err = bo_attach(fd, &bos[i], dbc_id, DIR_TO_DEV,
					  idx * MIB + i * 4 * KIB);
		}
	}
	if (!m.err) {
		uint64_t jobs;
		double elapsed;

		m.err = run_qd(fd, dbc_id, bos, qd, 0.1, &jobs, &elapsed, NULL);
	}
	child_send(ready_w, &m);
	if (m.err)
		_exit(1);
	/* The parent closes the other end: everyone starts at once. */
	if (read(go_r, &c, 1) < 0)
		_exit(1);
	m.err = run_qd(fd, dbc_id, bos, qd, run_secs, &m.jobs, &m.elapsed, NULL);
	m.retries = execute_retries;
	child_send(ready_w, &m);
	close(fd);
	_exit(0);
}

static int run_scaling(int nproc, int qd, double *rate)
{
	int ready[2], go[2], err = 0, started = 0, got = 0;
	pid_t pids[16];
	struct child_msg m;

	*rate = 0;
	if (pipe(ready) || pipe(go))
		return -errno;
	fflush(NULL);
	for (int i = 0; i < nproc; i++) {
		pids[i] = fork();
		if (pids[i] < 0) {
			err = -errno;
			break;
		}
		if (!pids[i]) {
			close(ready[0]);
			close(go[1]);
			scaling_child(i, ready[1], go[0], qd);
		}
		started++;
	}
	close(ready[1]);
	close(go[0]);
	for (int i = 0; i < started; i++) {
		if (read(ready[0], &m, sizeof(m)) != sizeof(m)) {
			err = err ? err : -EPIPE;
			break;
		}
		if (m.err && !err)
			err = m.err;
	}
	close(go[1]);
	while (!err && got < started && read(ready[0], &m, sizeof(m)) == sizeof(m)) {
		got++;
		execute_retries += m.retries;
		if (m.err && !err)
			err = m.err;
		else if (m.elapsed > 0)
			*rate += m.jobs / m.elapsed;
	}
	if (!err && got < started)
		err = -EPIPE;
	close(ready[0]);
	for (int i = 0; i < started; i++) {
		if (err)
			kill(pids[i], SIGTERM);
		waitpid(pids[i], NULL, 0);
	}
	return err;
}

/* Busy and total jiffies of all CPUs, from /proc/stat's first line. */
static void cpu_times(unsigned long long *busy, unsigned long long *total)
{
	unsigned long long v[10] = { 0 };
	FILE *f = fopen("/proc/stat", "r");

	*busy = *total = 0;
	if (!f)
		return;
	if (fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu",
		   &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7],
		   &v[8], &v[9]) >= 4) {
		for (int i = 0; i < 8; i++)
			*total += v[i];
		/* idle and iowait are not busy */
		*busy = *total - v[3] - v[4];
	}
	fclose(f);
}

/*
 * The emulator's CPU time, in host clock ticks, as the host last wrote it
 * to --emu-cpu FILE (scripts/qaic bench samples the qaic-emu process's
 * /proc/PID/stat into a file the bench sees): 0 if there is none.
 */
static const char *emu_cpu_path;

static unsigned long long emu_ticks(void)
{
	unsigned long long v = 0;
	FILE *f;

	if (!emu_cpu_path)
		return 0;
	f = fopen(emu_cpu_path, "r");
	if (!f)
		return 0;
	if (fscanf(f, "%llu", &v) != 1)
		v = 0;
	fclose(f);
	return v;
}

/* Queue depths of the scaling metric, from --scale-qds; 0: one run at 8. */
static int scale_qds[4];

/*
 * The guest's CPU time while the processes ran: what bounds the scaling
 * when the bench's kernel has a single CPU for all of them. With queue
 * depths given, every key is per depth ("tput_qd1_dbc4"), and the
 * emulator's CPU (percent of one host CPU) comes with each run.
 */
static void report_scaling_qd(int qd, const char *pfx)
{
	static const int counts[] = { 1, 4, 16 };
	unsigned long long b0, t0, b1, t1, e0, e1;
	double rate[ARRAY_SIZE(counts)], w0, w1;
	int err[ARRAY_SIZE(counts)];
	char key[48];

	for (unsigned int i = 0; i < ARRAY_SIZE(counts); i++) {
		settle("scaling");
		watchdog(300);
		cpu_times(&b0, &t0);
		e0 = emu_ticks();
		w0 = now_s();
		err[i] = run_scaling(counts[i], qd, &rate[i]);
		cpu_times(&b1, &t1);
		e1 = emu_ticks();
		w1 = now_s();
		snprintf(key, sizeof(key), "tput_%sdbc%d", pfx, counts[i]);
		if (err[i])
			put_err(key, err[i]);
		else
			put_num(key, rate[i]);
		snprintf(key, sizeof(key), "cpu_%sdbc%d", pfx, counts[i]);
		if (t1 > t0)
			put_num(key, 100.0 * (b1 - b0) / (t1 - t0));
		snprintf(key, sizeof(key), "emu_%sdbc%d", pfx, counts[i]);
		if (e0 && e1 >= e0 && w1 > w0)
			put_num(key, 100.0 * (e1 - e0) / sysconf(_SC_CLK_TCK) / (w1 - w0));
		fflush(stdout);
	}
	for (unsigned int i = 1; i < ARRAY_SIZE(counts); i++) {
		snprintf(key, sizeof(key), "scale_%sdbc%d", pfx, counts[i]);
		if (err[0] || err[i])
			put_err(key, err[0] ? err[0] : err[i]);
		else
			put_num(key, rate[i] / (counts[i] * rate[0]));
	}
	fflush(stdout);
}

static void report_scaling(void)
{
	char pfx[16];

	put_num("cpus", sysconf(_SC_NPROCESSORS_ONLN));
	if (!scale_qds[0]) {
		report_scaling_qd(8, "");
		return;
	}
	for (unsigned int i = 0; i < ARRAY_SIZE(scale_qds) && scale_qds[i]; i++) {
		snprintf(pfx, sizeof(pfx), "qd%d_", scale_qds[i]);
		report_scaling_qd(scale_qds[i], pfx);
	}
}

/* ------------------------------------------------------------ memory */

struct meminfo {
	long long avail_kib;
	long long slab_kib;
};

static void write_proc(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY);

	if (fd < 0)
		return;
	if (write(fd, val, strlen(val)) < 0)
		fprintf(stderr, "qaic-bench: %s: %s\n", path, strerror(errno));
	close(fd);
}

/*
 * Free pages sitting in the per-CPU page lists, in KiB: MemAvailable does
 * not count them, and a few MiB of allocations can come from them alone.
 */
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

	/* Fewer page-cache and dentry moves between the readings. */
	sync();
	write_proc("/proc/sys/vm/drop_caches", "3");
	/* Fold the per-CPU counter deltas into the totals. */
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
	fprintf(stderr, "qaic-bench: MemAvailable + per-CPU free %lld kB, Slab %lld kB\n",
		mi->avail_kib, mi->slab_kib);
	return 0;
}

/* One cache of /proc/slabinfo. */
struct slab_cache {
	char name[40];
	long long objs;		/* active objects */
	long long objsize;	/* bytes per object */
};

struct slab_info {
	struct slab_cache *c;
	int n;
};

/*
 * /proc/slabinfo (CONFIG_SLUB_DEBUG), right after read_meminfo() dropped
 * the caches. SLUB's active count takes the free objects of the per-CPU
 * slabs as active: a slab's worth of slack, small beside 10,000 objects.
 */
static int read_slabinfo(struct slab_info *si)
{
	char line[512];
	FILE *f = fopen("/proc/slabinfo", "r");

	si->c = NULL;
	si->n = 0;
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		struct slab_cache c;
		long long num;
		void *p;

		if (sscanf(line, "%39s %lld %lld %lld", c.name, &c.objs, &num,
			   &c.objsize) != 4)
			continue;
		p = realloc(si->c, (si->n + 1) * sizeof(*si->c));
		if (!p)
			break;
		si->c = p;
		si->c[si->n++] = c;
	}
	fclose(f);
	return 0;
}

/*
 * Per cache, objects per BO and object size, for caches that grew by at
 * least 8 bytes per BO between @a and @b: "slabobj.NAME" and "slabsz.NAME".
 */
static void put_slab_growth(const struct slab_info *a, const struct slab_info *b,
			    int bos)
{
	char key[64];

	for (int i = 0; i < b->n; i++) {
		long long before = 0;
		double per;

		for (int j = 0; j < a->n; j++)
			if (!strcmp(a->c[j].name, b->c[i].name))
				before = a->c[j].objs;
		per = (double)(b->c[i].objs - before) / bos;
		if (per * b->c[i].objsize < 8)
			continue;
		snprintf(key, sizeof(key), "slabobj.%s", b->c[i].name);
		put_num(key, per);
		snprintf(key, sizeof(key), "slabsz.%s", b->c[i].name);
		put_num(key, b->c[i].objsize);
	}
}

#define MEM_BOS 10000

static void report_memory(void)
{
	struct slab_info s0 = { 0 }, s1 = { 0 };
	struct meminfo m0, m1, m2;
	struct bo *bos;
	int fd, err, err_attach = 0, n = 0;
	uint32_t dbc_id;
	double per;

	watchdog(120);
	bos = calloc(MEM_BOS, sizeof(*bos));
	fd = open_qaic();
	err = bos ? fd < 0 ? fd : 0 : -ENOMEM;
	if (!err)
		err = activate(fd, 64, &dbc_id);
	if (!err)
		err = read_meminfo(&m0);
	if (!err)
		read_slabinfo(&s0);
	for (; !err && n < MEM_BOS; n++)
		err = bo_create(fd, 4 * KIB, &bos[n]);
	if (!err)
		err = read_meminfo(&m1);
	if (!err && !read_slabinfo(&s1))
		put_slab_growth(&s0, &s1, MEM_BOS);
	free(s0.c);
	free(s1.c);
	for (int i = 0; !err && !err_attach && i < MEM_BOS; i++)
		err_attach = bo_attach(fd, &bos[i], dbc_id, DIR_TO_DEV,
				       (i * 4 * KIB) % DEV_MEM);
	if (!err && !err_attach)
		err_attach = read_meminfo(&m2);

	per = 1000.0 / MEM_BOS;
	if (err) {
		put_err("mem_create_avail", err);
		put_err("mem_create_slab", err);
		put_err("mem_attach_avail", err);
		put_err("mem_attach_slab", err);
	} else {
		put_num("mem_create_avail", (m0.avail_kib - m1.avail_kib) * per);
		put_num("mem_create_slab", (m1.slab_kib - m0.slab_kib) * per);
		if (err_attach) {
			put_err("mem_attach_avail", err_attach);
			put_err("mem_attach_slab", err_attach);
		} else {
			put_num("mem_attach_avail", (m0.avail_kib - m2.avail_kib) * per);
			put_num("mem_attach_slab", (m2.slab_kib - m0.slab_kib) * per);
		}
	}
	fflush(stdout);
	if (fd >= 0) {
		for (int i = 0; i < n; i++)
			if (bos[i].ptr)
				munmap(bos[i].ptr, bos[i].size);
		close(fd);
	}
	free(bos);
}

/* ---------------------------------------------------------------- run */

/*
 * An open file once the card answers a STATUS request, within @secs
 * seconds, or -errno. After a load, and before each metric: a driver that
 * is resetting the card answers ENODEV for a while.
 */
static int wait_ready(int secs)
{
	double end = now_s() + secs;
	int fd;

	for (;;) {
		fd = open_qaic();
		if (fd >= 0) {
			int ret = device_status(fd);

			if (!ret)
				return fd;
			close(fd);
			fd = ret;
		}
		if (now_s() >= end)
			return fd;
		usleep(100 * 1000);
	}
}

/* Run @fn once the card answers. */
static void metric(void (*fn)(void), const char *name)
{
	alarm(0);
	expired = 0;
	settle(name);
	fn();
}

static void report_bw_all(void)
{
	report_bandwidth();
	report_memcpy_bw(64);
}

/*
 * How the loaded module completes jobs: "poll" or "irq" from Linux 6.12's
 * datapath_polling parameter, "default" for a module without it.
 */
static const char *driver_mode(void)
{
	char c = 0;
	int fd = open("/sys/module/qaic/parameters/datapath_polling", O_RDONLY);

	if (fd < 0)
		return "default";
	if (read(fd, &c, 1) != 1)
		c = 0;
	close(fd);
	return c == 'Y' || c == '1' ? "poll" : "irq";
}

/* The MSI and MSI-X vectors the module has, from the card's msi_irqs/. */
static void put_msi_vectors(void)
{
	DIR *d = opendir("/sys/class/accel/accel0/device/msi_irqs");
	struct dirent *e;
	int n = 0;

	if (!d)
		return;
	while ((e = readdir(d)))
		n += e->d_name[0] != '.';
	closedir(d);
	printf("msi_vectors %d\n", n);
}

/* Linux 6.12's datapath_poll_interval_us, when the module has it. */
static void put_poll_interval(void)
{
	char buf[32] = "";
	int fd = open("/sys/module/qaic/parameters/datapath_poll_interval_us", O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n > 0) {
		buf[n] = 0;
		buf[strcspn(buf, "\n")] = 0;
		printf("poll_interval_us %s\n", buf);
	}
}

/*
 * Takes every channel's device time back to 0, best effort: it outlives
 * the channel, and a run that failed half-way (seen: upstream's WAIT_BO
 * timing out on the paced card) must not leave it to the raw loop and
 * the driver measured next on the same card. A real card refuses it.
 */
static void reset_timings(void)
{
	int fd = open_qaic();

	if (fd < 0)
		return;
	for (uint32_t dbc = 0; dbc < 16; dbc++)
		emu_set_timing(fd, dbc, 0);
	close(fd);
}

static int cmd_run(int argc, char **argv)
{
	const char *label = "driver", *only = "rt,bw,scale,mem";
	drmVersionPtr ver;
	double t0 = now_s();
	int fd;

	for (int i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "--label") && i + 1 < argc)
			label = argv[++i];
		else if (!strcmp(argv[i], "--quick"))
			run_secs = 0.5;
		else if (!strcmp(argv[i], "--only") && i + 1 < argc)
			only = argv[++i];
		else if (!strcmp(argv[i], "--emu-cpu") && i + 1 < argc)
			emu_cpu_path = argv[++i];
		else if (!strcmp(argv[i], "--scale-qds") && i + 1 < argc) {
			char *p = argv[++i];

			for (unsigned int n = 0; *p && n < ARRAY_SIZE(scale_qds); n++) {
				scale_qds[n] = strtol(p, &p, 10);
				if (scale_qds[n] < 1 || scale_qds[n] > SCALE_MAX_QD || (*p && *p++ != ','))
					return 2;
			}
		} else
			return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);

	fd = wait_ready(30);
	printf("label %s\n", label);
	if (fd < 0) {
		put_err("device", fd);
		return 1;
	}
	ver = drmGetVersion(fd);
	if (ver) {
		printf("driver %s %d.%d.%d\n", ver->name, ver->version_major,
		       ver->version_minor, ver->version_patchlevel);
		drmFreeVersion(ver);
	}
	close(fd);
	printf("mode %s\n", driver_mode());
	put_poll_interval();
	put_msi_vectors();
	fprintf(stderr, "qaic-bench: %s: card ready after %.1f s\n", label, now_s() - t0);
	reset_timings();

	if (strstr(only, "rt"))
		metric(report_round_trips, "round trips");
	if (strstr(only, "bw"))
		metric(report_bw_all, "bandwidth");
	if (strstr(only, "scale"))
		metric(report_scaling, "scaling");
	if (strstr(only, "mem"))
		metric(report_memory, "memory");
	alarm(0);
	reset_timings();
	printf("execute_enodev_retries %lu\n", execute_retries);
	printf("seconds %.1f\n", now_s() - t0);
	return 0;
}

/* ------------------------------------------------------------- report */

/*
 * A results file holds "key value" lines; scripts/qaic bench appends one
 * run per round, so a key comes once per round and the report gives the
 * median and the range of its values.
 */
struct kv {
	char key[64];
	char val[64];
};

struct results {
	struct kv *kv;
	int n;
	const char *path;
};

static int kv_add(struct results *r, const char *key, const char *val)
{
	struct kv *kv;
	void *p;

	p = realloc(r->kv, (r->n + 1) * sizeof(*r->kv));
	if (!p)
		return -ENOMEM;
	r->kv = p;
	kv = &r->kv[r->n++];
	snprintf(kv->key, sizeof(kv->key), "%.63s", key);
	snprintf(kv->val, sizeof(kv->val), "%.63s", val);
	return 0;
}

/*
 * Guest CPU time per job at N DBCs, derived as a round's results are read:
 * its "cpu_dbcN" (busy percent of all the guest's CPUs, the "cpus" of that
 * run) over the "tput_dbcN" just before it (jobs per second), in
 * microseconds; the same for the per-depth keys ("cpu_qd1_dbcN").
 */
static void derive_cpu_per_job(struct results *r)
{
	const struct kv *cpu = &r->kv[r->n - 1];
	char tput_key[64], key[64], val[64];
	double busy, rate, cpus = 1;

	if (strncmp(cpu->key, "cpu_dbc", 7) && strncmp(cpu->key, "cpu_qd", 6))
		return;
	snprintf(tput_key, sizeof(tput_key), "tput_%.40s", cpu->key + 4);
	for (int i = r->n - 2; i >= 0; i--) {
		if (!strcmp(r->kv[i].key, "cpus")) {
			cpus = strtod(r->kv[i].val, NULL);
			break;
		}
	}
	for (int i = r->n - 2; i >= 0; i--) {
		if (strcmp(r->kv[i].key, tput_key))
			continue;
		busy = strtod(cpu->val, NULL);
		rate = strtod(r->kv[i].val, NULL);
		if (rate <= 0 || cpus < 1)
			return;
		snprintf(key, sizeof(key), "cpu_us_job_%.40s", cpu->key + 4);
		snprintf(val, sizeof(val), "%.4f", busy / 100 * cpus / rate * 1e6);
		kv_add(r, key, val);
		return;
	}
}

static int load(const char *path, struct results *r)
{
	char line[256];
	FILE *f = fopen(path, "r");

	r->kv = NULL;
	r->n = 0;
	r->path = path;
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		char *sp;

		line[strcspn(line, "\n")] = 0;
		sp = strchr(line, ' ');
		if (!sp)
			continue;
		*sp = 0;
		if (kv_add(r, line, sp + 1))
			break;
		derive_cpu_per_job(r);
	}
	fclose(f);
	return 0;
}

/* The first value of @key, or NULL. */
static const char *get(const struct results *r, const char *key)
{
	for (int i = 0; i < r->n; i++)
		if (!strcmp(r->kv[i].key, key))
			return r->kv[i].val;
	return NULL;
}

static bool is_num(const char *s, double *v)
{
	char *end;

	*v = strtod(s, &end);
	return end != s && !*end;
}

/* The values of a key over the rounds (and over several files). */
struct summary {
	int n;			/* numbers */
	int nerr;		/* other values: "error: ...", "n/a" */
	double med, min, max;
	const char *err;	/* the first of the others */
};

#define MAX_VALUES 1024

static void summarize(const struct results *const *sets, int nsets,
		      const char *key, struct summary *sm)
{
	static double v[MAX_VALUES];

	memset(sm, 0, sizeof(*sm));
	for (int k = 0; k < nsets; k++) {
		for (int i = 0; sets[k] && i < sets[k]->n; i++) {
			double x;

			if (strcmp(sets[k]->kv[i].key, key))
				continue;
			if (is_num(sets[k]->kv[i].val, &x) && sm->n < MAX_VALUES) {
				v[sm->n++] = x;
			} else {
				if (!sm->err)
					sm->err = sets[k]->kv[i].val;
				sm->nerr++;
			}
		}
	}
	if (!sm->n)
		return;
	qsort(v, sm->n, sizeof(v[0]), cmp_double);
	sm->min = v[0];
	sm->max = v[sm->n - 1];
	sm->med = sm->n % 2 ? v[sm->n / 2] : (v[sm->n / 2 - 1] + v[sm->n / 2]) / 2;
}

static void summary1(const struct results *r, const char *key, struct summary *sm)
{
	summarize(&r, 1, key, sm);
}

/* The median of @key in @r, or false when it has no number. */
static bool med(const struct results *r, const char *key, double *v)
{
	struct summary sm;

	summary1(r, key, &sm);
	*v = sm.med;
	return sm.n > 0;
}

/* "median (min-max)", the median alone, the error text, or "-". */
static void cell(char *buf, size_t len, const struct summary *sm, int prec,
		 bool spread)
{
	if (!sm->n) {
		snprintf(buf, len, "%s", sm->err ? sm->err : "-");
		return;
	}
	if (!spread || sm->min == sm->max)
		snprintf(buf, len, "%.*f", prec, sm->med);
	else
		snprintf(buf, len, "%.*f (%.*f-%.*f)", prec, sm->med, prec, sm->min,
			 prec, sm->max);
	if (sm->nerr)
		snprintf(buf + strlen(buf), len - strlen(buf), " %d err", sm->nerr);
}

struct row {
	const char *label;
	const char *key;
	int prec;
	const char *unit;
	const char *limit;	/* "=key" of any file, a literal, or NULL */
	int better;		/* 1: higher, -1: lower, 0: neither */
};

static const struct row rows[] = {
	{ "round trips, 4 KiB to device, QD1", "rt_qd1", 0, "jobs/s", "=raw_rt_qd1", 1 },
	{ "round trips, 4 KiB to device, QD32", "rt_qd32", 0, "jobs/s", "=raw_rt_qd32", 1 },
	{ "MMIO reads/job, submit (REQHP+REQTP), QD1", "mmio_submit_reads_qd1", 2, "reads", "0", -1 },
	{ "MMIO reads/job, submit (REQHP+REQTP), QD32", "mmio_submit_reads_qd32", 2, "reads", "0", -1 },
	{ "MMIO writes/job, submit (REQHP+REQTP), QD1", "mmio_submit_writes_qd1", 2, "writes", "=raw_reqtp_qd1", -1 },
	{ "MMIO writes/job, submit (REQHP+REQTP), QD32", "mmio_submit_writes_qd32", 2, "writes", "=raw_reqtp_qd32", -1 },
	{ "MMIO reads/job, completion (RSPHP+RSPTP), QD1", "mmio_complete_reads_qd1", 2, "reads", "0", -1 },
	{ "MMIO reads/job, completion (RSPHP+RSPTP), QD32", "mmio_complete_reads_qd32", 2, "reads", "0", -1 },
	{ "MMIO writes/job, completion (RSPHP+RSPTP), QD1", "mmio_complete_writes_qd1", 2, "writes", "=raw_rsphp_qd1", -1 },
	{ "MMIO writes/job, completion (RSPHP+RSPTP), QD32", "mmio_complete_writes_qd32", 2, "writes", "=raw_rsphp_qd32", -1 },
	{ "MSIs/job, QD1", "irqs_qd1", 2, "MSIs", "=raw_irqs_qd1", -1 },
	{ "MSIs/job, QD32", "irqs_qd32", 2, "MSIs", "=raw_irqs_qd32", -1 },
	{ "round trips, paced card (400 us/request), QD1", "rt_paced_qd1", 0, "jobs/s", "2500", 1 },
	{ "round trips, paced card (400 us/request), QD32", "rt_paced_qd32", 0, "jobs/s", "2500", 1 },
	{ "latency p50, QD1", "lat_p50_qd1", 0, "us", NULL, -1 },
	{ "latency p99, QD1", "lat_p99_qd1", 0, "us", NULL, -1 },
	{ "latency max, QD1", "lat_max_qd1", 0, "us", NULL, -1 },
	{ "latency p50, QD32", "lat_p50_qd32", 0, "us", NULL, -1 },
	{ "latency p99, QD32", "lat_p99_qd32", 0, "us", NULL, -1 },
	{ "latency max, QD32", "lat_max_qd32", 0, "us", NULL, -1 },
	{ "latency p50, paced card, QD1", "lat_p50_paced_qd1", 0, "us", "400", -1 },
	{ "latency p99, paced card, QD1", "lat_p99_paced_qd1", 0, "us", NULL, -1 },
	{ "latency max, paced card, QD1", "lat_max_paced_qd1", 0, "us", NULL, -1 },
	{ "latency p50, paced card, QD32", "lat_p50_paced_qd32", 0, "us", NULL, -1 },
	{ "latency p99, paced card, QD32", "lat_p99_paced_qd32", 0, "us", NULL, -1 },
	{ "latency max, paced card, QD32", "lat_max_paced_qd32", 0, "us", NULL, -1 },
	{ "round trips, paced card (400 us/request), QD4", "rt_paced_qd4", 0, "jobs/s", "2500", 1 },
	{ "card idle with jobs queued, paced card, QD4", "idle_pct_paced_qd4", 1, "%", "0", -1 },
	{ "round trips, paced card (1 ms/request), QD1", "rt_paced1ms_qd1", 0, "jobs/s", "1000", 1 },
	{ "round trips, paced card (1 ms/request), QD32", "rt_paced1ms_qd32", 0, "jobs/s", "1000", 1 },
	{ "latency p50, paced card (1 ms), QD1", "lat_p50_paced1ms_qd1", 0, "us", "1000", -1 },
	{ "round trips, paced card (100 us/request), QD1", "rt_paced100us_qd1", 0, "jobs/s", "10000", 1 },
	{ "round trips, paced card (100 us/request), QD32", "rt_paced100us_qd32", 0, "jobs/s", "10000", 1 },
	{ "latency p50, paced card (100 us), QD1", "lat_p50_paced100us_qd1", 0, "us", "100", -1 },
	{ "latency mean, paced card, QD1", "lat_mean_paced_qd1", 0, "us", NULL, -1 },
	{ "card's part/job (doorbell to response), paced card, QD1", "card_us_paced_qd1", 0, "us", "400", -1 },
	{ "host's part/job (mean latency - card's), paced card, QD1", "host_us_paced_qd1", 0, "us", NULL, -1 },
	{ "host's part/job, free card, QD1", "host_us_qd1", 0, "us", NULL, -1 },
	{ "card idle with jobs queued, paced card, QD32", "idle_pct_paced_qd32", 1, "%", "0", -1 },
	{ "card idle with jobs queued, paced card (1 ms), QD32", "idle_pct_paced1ms_qd32", 1, "%", "0", -1 },
	{ "card idle with jobs queued, paced card (100 us), QD32", "idle_pct_paced100us_qd32", 1, "%", "0", -1 },
	{ "MSIs/job, paced card, QD1", "irqs_paced_qd1", 2, "MSIs", NULL, -1 },
	{ "MSIs/job, paced card, QD32", "irqs_paced_qd32", 2, "MSIs", NULL, -1 },
	{ "MMIO reads/job, completion, paced card, QD32", "mmio_complete_reads_paced_qd32", 2, "reads", NULL, -1 },
	{ "MMIO writes/job, completion, paced card, QD32", "mmio_complete_writes_paced_qd32", 2, "writes", NULL, -1 },
	{ "MMIO writes/job, submit, paced card, QD32", "mmio_submit_writes_paced_qd32", 2, "writes", NULL, -1 },
	{ "bandwidth to device, 64 MiB BO", "bw_to_dev", 0, "MB/s", "=emu_memcpy_bw", 1 },
	{ "bandwidth from device, 64 MiB BO", "bw_from_dev", 0, "MB/s", "=emu_memcpy_bw", 1 },
	{ "throughput, 4 KiB QD8, 1 DBC / 1 process", "tput_dbc1", 0, "jobs/s", NULL, 1 },
	{ "throughput, 4 KiB QD8, 4 DBCs / 4 processes", "tput_dbc4", 0, "jobs/s", NULL, 1 },
	{ "throughput, 4 KiB QD8, 16 DBCs / 16 processes", "tput_dbc16", 0, "jobs/s", NULL, 1 },
	{ "guest CPU busy, 1 DBC", "cpu_dbc1", 0, "%", NULL, 0 },
	{ "guest CPU busy, 16 DBCs", "cpu_dbc16", 0, "%", NULL, 0 },
	{ "guest CPU per job, 1 DBC", "cpu_us_job_dbc1", 1, "us/job", NULL, -1 },
	{ "guest CPU per job, 4 DBCs", "cpu_us_job_dbc4", 1, "us/job", NULL, -1 },
	{ "guest CPU per job, 16 DBCs", "cpu_us_job_dbc16", 1, "us/job", NULL, -1 },
	{ "guest CPUs", "cpus", 0, "CPUs", NULL, 0 },
	{ "scaling vs linear, 4 DBCs", "scale_dbc4", 2, "x linear", "1.00", 1 },
	{ "scaling vs linear, 16 DBCs", "scale_dbc16", 2, "x linear", "1.00", 1 },
	{ "EXECUTE_BO retried after ENODEV (REQHP read ~0)", "execute_enodev_retries", 0, "retries", NULL, -1 },
	{ "MemAvailable drop, 1000 BOs created+mapped", "mem_create_avail", 0, "KiB/1000 BOs", NULL, -1 },
	{ "Slab growth, 1000 BOs created+mapped", "mem_create_slab", 0, "KiB/1000 BOs", NULL, -1 },
	{ "MemAvailable drop, 1000 BOs also attached", "mem_attach_avail", 0, "KiB/1000 BOs", NULL, -1 },
	{ "Slab growth, 1000 BOs also attached", "mem_attach_slab", 0, "KiB/1000 BOs", NULL, -1 },
	{ "kernel log WARNs while the module ran", "kernel_warns", 0, "WARNs/round", "0", -1 },
	{ "MSI vectors the module got (MHI + 16 DBCs)", "msi_vectors", 0, "vectors", "17", 1 },
};

/* The row of @key; the goals and the slab table use a few. */
static const struct row *row_of(const char *key)
{
	for (unsigned int i = 0; i < ARRAY_SIZE(rows); i++)
		if (!strcmp(rows[i].key, key))
			return &rows[i];
	abort();
}

#define ROW_RT_QD32	row_of("rt_qd32")
#define ROW_BW_TO	row_of("bw_to_dev")
#define ROW_SLAB	row_of("mem_create_slab")

/*
 * The peer's best: the index of the peer file whose median of @row is
 * the better one (the first with a number when neither is better), or -1.
 */
static int best_peer(const struct row *row, const struct results *peers, int npeers)
{
	double best = 0, v;
	int k = -1;

	for (int i = 0; i < npeers; i++) {
		if (!med(&peers[i], row->key, &v))
			continue;
		if (k < 0 || (row->better > 0 && v > best) || (row->better < 0 && v < best)) {
			k = i;
			best = v;
		}
	}
	return k;
}

static const char *mode_of(const struct results *r)
{
	const char *m = get(r, "mode");

	return m ? m : "?";
}

/* The bandwidth cells say so when the 64 MiB object could not be used. */
static void bw_note(char *buf, size_t len, const struct results *r, const char *key)
{
	double mib;

	if (strncmp(key, "bw_", 3) || !med(r, "bw_mib", &mib) || mib == 64)
		return;
	snprintf(buf + strlen(buf), len - strlen(buf), " [%.0f MiB]", mib);
}

/* "%.2f" and @suffix, or "-" when the number is not @known. */
static const char *fmt(char *buf, size_t len, bool known, double v, const char *suffix)
{
	if (known)
		snprintf(buf, len, "%.2f%s", v, suffix);
	else
		snprintf(buf, len, "-");
	return buf;
}

static const char *verdict(bool known, bool met)
{
	return !known ? "n/a" : met ? "met" : "missed";
}

/* A goal "@what <= @max" on the median of @key of @r. */
static void goal_max(const struct results *r, const char *key, double max,
		     const char *what)
{
	char c[32];
	double v;
	bool known = med(r, key, &v);

	printf("  %-7s %s <= %.2f (%s)\n", verdict(known, known && v <= max), what,
	       max, fmt(c, sizeof(c), known, v, ""));
}

/*
 * Issue 37's goals, where the card is the bottleneck: ours at least
 * upstream's best on every paced row, the QD32 row at 95% of the card's
 * pace, a lone job's median latency within 100 us of the card's own time
 * plus the transport's, and the free card's QD32 still 4x upstream's.
 */
static void paced_goals(const struct results *res, int npeers, const struct results *limits)
{
	static const struct {
		const char *key, *what;
		double pace;	/* jobs/s the card allows */
	} paced[] = {
		{ "rt_paced_qd1", "QD1, 400 us", 2500 },
		{ "rt_paced_qd32", "QD32, 400 us", 2500 },
		{ "rt_paced_qd4", "QD4, 400 us", 2500 },
		{ "rt_paced1ms_qd1", "QD1, 1 ms", 1000 },
		{ "rt_paced1ms_qd32", "QD32, 1 ms", 1000 },
		{ "rt_paced100us_qd1", "QD1, 100 us", 10000 },
		{ "rt_paced100us_qd32", "QD32, 100 us", 10000 },
	};
	double a, b, raw, card;
	char c[2][32];
	bool known;

	for (unsigned int i = 0; i < ARRAY_SIZE(paced); i++) {
		int k = best_peer(row_of(paced[i].key), res + 1, npeers);

		known = med(&res[0], paced[i].key, &a) && k >= 0 &&
			med(&res[1 + k], paced[i].key, &b);
		/* Nobody beats the card: within 1% of its pace is a tie. */
		printf("  %-7s paced card, %s: round trips/s >= upstream's, or both at the card's pace (%s vs %s)\n",
		       verdict(known, known && (a >= b || a >= 0.99 * paced[i].pace)),
		       paced[i].what, fmt(c[0], sizeof(c[0]), known, a, ""),
		       fmt(c[1], sizeof(c[1]), known, b, ""));
	}
	known = med(&res[0], "rt_paced_qd32", &a);
	printf("  %-7s paced card (400 us), QD32: >= 95%% of the card's 2500 jobs/s (%s)\n",
	       verdict(known, known && a >= 0.95 * 2500),
	       fmt(c[0], sizeof(c[0]), known, known ? a / 25 : 0, "%"));
	/*
	 * The transport's time is the raw round trip's, where the bench
	 * measured one; elsewhere (the PC) the card's own account of a job,
	 * doorbell to response, stands for its time and its side of it.
	 */
	known = med(&res[0], "lat_p50_paced_qd1", &a);
	if (limits && med(limits, "raw_rt_qd1", &raw) && raw > 0) {
		card = 400 + 1e6 / raw;
		printf("  %-7s paced card (400 us), QD1: p50 latency within 100 us of the card's 400 us + the raw round trip's %.0f us (%s us)\n",
		       verdict(known, known && a <= card + 100), 1e6 / raw,
		       fmt(c[0], sizeof(c[0]), known, a, ""));
	} else {
		known = known && med(&res[0], "card_us_paced_qd1", &card);
		printf("  %-7s paced card (400 us), QD1: p50 latency within 100 us of the card's doorbell-to-response %s us (%s us)\n",
		       verdict(known, known && a <= card + 100),
		       fmt(c[1], sizeof(c[1]), known, known ? card : 0, ""),
		       fmt(c[0], sizeof(c[0]), known, a, ""));
	}
	{
		int k = best_peer(ROW_RT_QD32, res + 1, npeers);

		known = med(&res[0], "rt_qd32", &a) && k >= 0 &&
			med(&res[1 + k], "rt_qd32", &b) && b > 0;
		printf("  %-7s free card, QD32: >= 4x upstream round trips/s (%s)\n",
		       verdict(known, known && a >= 4 * b),
		       fmt(c[0], sizeof(c[0]), known, known ? a / b : 0, "x"));
	}
}

struct slab_row {
	char name[48];
	double objs[2], size, bytes[2];
};

static int cmp_slab(const void *a, const void *b)
{
	const struct slab_row *x = a, *y = b;
	double mx = x->bytes[0] > x->bytes[1] ? x->bytes[0] : x->bytes[1];
	double my = y->bytes[0] > y->bytes[1] ? y->bytes[0] : y->bytes[1];

	return mx < my ? 1 : mx > my ? -1 : strcmp(x->name, y->name);
}

/*
 * Where the slab growth of 1000 BOs created and mapped goes, per cache:
 * objects per BO and bytes per BO (objects x object size), medians over
 * the rounds, for ours and for the peer file @peer (mode @peer_mode).
 */
static void slab_table(const struct results *ours, const struct results *peer,
		       const char *peer_mode)
{
	const struct results *sets[2] = { ours, peer };
	struct slab_row *t = NULL;
	double total[2] = { 0, 0 }, slab[2];
	int n = 0, shown = 0;

	for (int k = 0; k < 2; k++) {
		for (int i = 0; sets[k] && i < sets[k]->n; i++) {
			const char *name = sets[k]->kv[i].key;
			int j;

			if (strncmp(name, "slabobj.", 8))
				continue;
			name += 8;
			for (j = 0; j < n && strcmp(t[j].name, name); j++)
				;
			if (j == n) {
				void *p = realloc(t, (n + 1) * sizeof(*t));

				if (!p)
					break;
				t = p;
				memset(&t[n], 0, sizeof(t[n]));
				snprintf(t[n].name, sizeof(t[n].name), "%.47s", name);
				n++;
			}
		}
	}
	if (!n) {
		free(t);
		return;
	}
	for (int j = 0; j < n; j++) {
		char key[64];

		for (int k = 0; k < 2; k++) {
			double objs = 0, size = 0;

			if (!sets[k])
				continue;
			snprintf(key, sizeof(key), "slabobj.%s", t[j].name);
			med(sets[k], key, &objs);
			snprintf(key, sizeof(key), "slabsz.%s", t[j].name);
			if (med(sets[k], key, &size))
				t[j].size = size;
			t[j].objs[k] = objs;
		}
		for (int k = 0; k < 2; k++) {
			t[j].bytes[k] = t[j].objs[k] * t[j].size;
			total[k] += t[j].bytes[k];
		}
	}
	qsort(t, n, sizeof(*t), cmp_slab);
	printf("\nslab caches that grew, per BO created+mapped (medians; bytes = objects x object size;\n"
	       "upstream: its %s mode):\n", peer_mode);
	printf("%-28s | %8s | %8s  %8s | %8s  %8s\n", "cache", "obj size", "ours", "ours",
	       "upstream", "upstream");
	printf("%-28s | %8s | %8s  %8s | %8s  %8s\n", "", "bytes", "objs/BO", "bytes/BO",
	       "objs/BO", "bytes/BO");
	printf("%.28s-|-%.8s-|-%.18s-|-%.18s\n", "----------------------------",
	       "--------", "------------------", "------------------");
	for (int j = 0; j < n && shown < 14; j++, shown++)
		printf("%-28s | %8.0f | %8.2f  %8.0f | %8.2f  %8.0f\n", t[j].name,
		       t[j].size, t[j].objs[0], t[j].bytes[0], t[j].objs[1], t[j].bytes[1]);
	for (int k = 0; k < 2; k++)
		if (!sets[k] || !med(sets[k], "mem_create_slab", &slab[k]))
			slab[k] = 0;
	printf("%-28s | %8s | %8s  %8.0f | %8s  %8.0f\n", "sum of the caches above", "",
	       "", total[0], "", total[1]);
	printf("%-28s | %8s | %8s  %8.0f | %8s  %8.0f\n", "Slab in /proc/meminfo", "",
	       "", slab[0] * 1024 / 1000, "", slab[1] * 1024 / 1000);
	free(t);
}

static int cmd_report(int argc, char **argv)
{
	const char *notes[16], *files[8], *limits_path = NULL;
	struct results res[8], limits = { 0 };
	const struct results *all[10];
	int nnotes = 0, nfiles = 0, npeers, nall = 0;
	char c[4][96], hdr[96];
	double a = 0, b = 0, l = 0;
	bool known, met;

	for (int i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "--note") && i + 1 < argc) {
			if (nnotes < (int)ARRAY_SIZE(notes))
				notes[nnotes++] = argv[++i];
		} else if (!strcmp(argv[i], "--limits") && i + 1 < argc) {
			limits_path = argv[++i];
		} else if (nfiles < (int)ARRAY_SIZE(files)) {
			files[nfiles++] = argv[i];
		} else {
			return 2;
		}
	}
	if (nfiles < 2)
		return 2;
	for (int i = 0; i < nfiles; i++) {
		if (load(files[i], &res[i]))
			fprintf(stderr, "qaic-bench: %s: %s\n", files[i], strerror(errno));
		all[nall++] = &res[i];
	}
	if (limits_path) {
		if (load(limits_path, &limits))
			fprintf(stderr, "qaic-bench: %s: %s\n", limits_path, strerror(errno));
		all[nall++] = &limits;
	}
	npeers = nfiles - 1;

	printf("%-48s | %-24s | %-24s | %-5s | %-10s | %-24s | %s\n", "metric", "ours",
	       "upstream, best mode", "mode", "other mode", "limit", "unit");
	printf("%.48s-|-%.24s-|-%.24s-|-%.5s-|-%.10s-|-%.24s-|-%.12s\n",
	       "------------------------------------------------",
	       "------------------------", "------------------------", "-----",
	       "----------", "------------------------", "------------");
	for (unsigned int i = 0; i < ARRAY_SIZE(rows); i++) {
		const struct row *row = &rows[i];
		struct summary sm;
		int k = best_peer(row, res + 1, npeers);
		const char *mode = "";

		summary1(&res[0], row->key, &sm);
		cell(c[0], sizeof(c[0]), &sm, row->prec, true);
		bw_note(c[0], sizeof(c[0]), &res[0], row->key);
		summary1(&res[1 + (k < 0 ? 0 : k)], row->key, &sm);
		cell(c[1], sizeof(c[1]), &sm, row->prec, true);
		if (k >= 0) {
			bw_note(c[1], sizeof(c[1]), &res[1 + k], row->key);
			mode = mode_of(&res[1 + k]);
		}
		/* The other mode's median, for comparison. */
		snprintf(c[2], sizeof(c[2]), "-");
		for (int j = 0; j < npeers; j++) {
			if (j == (k < 0 ? 0 : k))
				continue;
			summary1(&res[1 + j], row->key, &sm);
			cell(c[2], sizeof(c[2]), &sm, row->prec, false);
			break;
		}
		if (!row->limit) {
			snprintf(c[3], sizeof(c[3]), "-");
		} else if (row->limit[0] == '=') {
			summarize(all, nall, row->limit + 1, &sm);
			if (sm.n)
				cell(c[3], sizeof(c[3]), &sm, row->prec, true);
			else
				snprintf(c[3], sizeof(c[3]), "n/a");
		} else {
			snprintf(c[3], sizeof(c[3]), "%s", row->limit);
		}
		printf("%-48s | %-24s | %-24s | %-5s | %-10s | %-24s | %s\n", row->label,
		       c[0], c[1], mode, c[2], c[3], row->unit);
	}
	for (int k = 0; k < nfiles; k++) {
		const char *drv = get(&res[k], "driver"), *dev = get(&res[k], "device");
		struct summary rounds, secs;

		summary1(&res[k], "seconds", &secs);
		summary1(&res[k], "label", &rounds);
		cell(c[0], sizeof(c[0]), &secs, 0, true);
		snprintf(hdr, sizeof(hdr), "%s (%s)", k ? "upstream" : "ours", mode_of(&res[k]));
		if (dev && !drv)
			printf("%s: no card: %s\n", hdr, dev);
		else
			printf("%s: %s, %d rounds, %s s each\n", hdr, drv ? drv : "no results",
			       rounds.nerr, c[0]);
	}
	printf("cells: median (min-max) over the rounds; \"other mode\": the median of "
	       "upstream's other mode;\nlimits: the emulator's memcpy bandwidth and the raw "
	       "DBC round trip (tests/uml/rawrt),\nmeasured between the drivers' runs in every round\n");
	for (int k = 1; k < nfiles; k++) {
		if (!strcmp(mode_of(&res[k]), "irq") && med(&res[k], "kernel_warns", &a) && a > 0)
			printf("handicap: upstream (irq) reads RSPHP and RSPTP in its hard-IRQ handler; "
			       "UML's virt-pci\n  WARNs on that (%.0f WARNs a round, median) and each "
			       "WARN stalls the guest\n  while its report is printed: its irq rows "
			       "measure that path too. Only a bench\n  kernel change removes it "
			       "(Documentation/accel/qaic/testing.rst)\n", a);
		if (k == 1 && med(&res[k], "msi_vectors", &a) && a == 1)
			printf("handicap: upstream has one MSI vector here: it asks for 32 MSI (not "
			       "MSI-X) and UML's virt-pci\n  has no multi-message MSI, so MHI and "
			       "the 16 DBCs share one vector and every\n  MSI runs all 17 handlers "
			       "(Documentation/accel/qaic/testing.rst)\n");
		if (!strcmp(mode_of(&res[k]), "poll"))
			printf("handicap: upstream (poll) checks RSPTP every %s us from a work item "
			       "(datapath_poll_interval_us),\n  by design; UML's timers make that "
			       "sleep longer than on a real host\n",
			       get(&res[k], "poll_interval_us") ? get(&res[k], "poll_interval_us") : "100-200");
	}
	{
		static const char *const keys[] = {
			"raw_stalls_qd1", "raw_late_msi_qd1", "raw_late_write_qd1",
			"raw_stalls_qd32", "raw_late_msi_qd32", "raw_late_write_qd32",
		};
		struct summary sm[ARRAY_SIZE(keys)];

		for (unsigned int i = 0; i < ARRAY_SIZE(keys); i++)
			summary1(&limits, keys[i], &sm[i]);
		if (sm[0].n || sm[3].n)
			printf("limits: the raw loop waited 10-20 ms for an MSI that did not come "
			       "%.0f times a run at QD1\n  (%.0f: response in memory, %.0f: REQTP "
			       "write not seen) and %.0f at QD32 (%.0f, %.0f),\n  medians; that "
			       "time is left out of its rate\n", sm[0].med, sm[1].med, sm[2].med,
			       sm[3].med, sm[4].med, sm[5].med);
	}
	for (int i = 0; i < nnotes; i++)
		printf("note: %s\n", notes[i]);

	{
		int k = best_peer(ROW_SLAB, res + 1, npeers);

		slab_table(&res[0], k >= 0 ? &res[1 + k] : NULL,
			   k >= 0 ? mode_of(&res[1 + k]) : "?");
	}

	printf("\ngoals (ours, medians; \"upstream\" is its best mode per row):\n");
	known = med(&res[0], "mmio_submit_reads_qd1", &a) &&
		med(&res[0], "mmio_submit_reads_qd32", &b);
	printf("  %-7s 0 MMIO reads per job on the submit path (QD1 %s, QD32 %s)\n",
	       verdict(known, known && a == 0 && b == 0),
	       fmt(c[0], sizeof(c[0]), known, a, ""), fmt(c[1], sizeof(c[1]), known, b, ""));

	{
		int k = best_peer(ROW_RT_QD32, res + 1, npeers);

		known = med(&res[0], "rt_qd32", &a) && k >= 0 &&
			med(&res[1 + k], "rt_qd32", &b) && b > 0;
		printf("  %-7s >= 1.5x upstream round trips/s at QD32 (%s)\n",
		       verdict(known, known && a >= 1.5 * b),
		       fmt(c[0], sizeof(c[0]), known, known ? a / b : 0, "x"));
	}
	goal_max(&res[0], "irqs_qd32", 0.25, "MSIs per job at QD32");
	goal_max(&res[0], "mmio_complete_reads_qd32", 0.25,
		 "completion register reads per job at QD32");
	goal_max(&res[0], "mmio_submit_writes_qd32", 0.25,
		 "doorbell (REQTP) writes per job at QD32");
	goal_max(&res[0], "irqs_paced_qd32", 0.2, "MSIs per job at QD32, paced card");
	goal_max(&res[0], "mmio_complete_reads_paced_qd32", 0.2,
		 "completion register reads per job at QD32, paced card");
	goal_max(&res[0], "mmio_submit_writes_paced_qd32", 0.2,
		 "doorbell (REQTP) writes per job at QD32, paced card");
	paced_goals(res, npeers, &limits);
	{
		int k = best_peer(ROW_SLAB, res + 1, npeers);

		known = med(&res[0], "mem_create_slab", &a) && k >= 0 &&
			med(&res[1 + k], "mem_create_slab", &b);
		printf("  %-7s slab per 1000 BOs created+mapped <= upstream's (%s KiB vs %s KiB)\n",
		       verdict(known, known && a <= b), fmt(c[0], sizeof(c[0]), known, a, ""),
		       fmt(c[1], sizeof(c[1]), known, b, ""));
	}
	{
		struct summary lim;
		double to, from, mib = 0;
		bool have = med(&res[0], "bw_to_dev", &to) &&
			    med(&res[0], "bw_from_dev", &from) &&
			    med(&res[0], "bw_mib", &mib);

		summarize(all, nall, ROW_BW_TO->limit + 1, &lim);
		l = lim.n ? lim.med : 0;
		known = have && l > 0;
		met = known && mib == 64 && to >= 0.9 * l && from >= 0.9 * l;
		if (known)
			printf("  %-7s >= 90%% of the emulator memcpy bandwidth for 64 MiB "
			       "(to device %.0f%%, from device %.0f%%%s)\n", verdict(true, met),
			       100 * to / l, 100 * from / l, mib == 64 ? "" : ", not at 64 MiB");
		else
			printf("  %-7s >= 90%% of the emulator memcpy bandwidth for 64 MiB (%s)\n",
			       "n/a", have ? "the emulator gave no memcpy bandwidth" :
			       "no bandwidth measured");
	}

	known = med(&res[0], "scale_dbc16", &a);
	printf("  %-7s >= 0.8x linear scaling to 16 DBCs (%s)\n",
	       verdict(known, known && a >= 0.8), fmt(c[0], sizeof(c[0]), known, a, "x"));
	for (int i = 0; i < nfiles; i++)
		free(res[i].kv);
	free(limits.kv);
	return 0;
}

/*
 * Two runs of one driver side by side (say, with and without a module
 * parameter), on the rows both have numbers for: median (min-max) of
 * each and the ratio of the medians, B / A.
 */
static int cmd_compare(int argc, char **argv)
{
	struct results res[2] = { 0 };
	struct summary sm[2];
	char c[2][96];

	if (argc != 2)
		return 2;
	for (int i = 0; i < 2; i++)
		if (load(argv[i], &res[i]))
			fprintf(stderr, "qaic-bench: %s: %s\n", argv[i], strerror(errno));
	printf("%-48s | %-24s | %-24s | %s\n", "metric",
	       get(&res[0], "label") ? get(&res[0], "label") : argv[0],
	       get(&res[1], "label") ? get(&res[1], "label") : argv[1], "B / A");
	for (unsigned int i = 0; i < ARRAY_SIZE(rows); i++) {
		summary1(&res[0], rows[i].key, &sm[0]);
		summary1(&res[1], rows[i].key, &sm[1]);
		if (!sm[0].n || !sm[1].n)
			continue;
		cell(c[0], sizeof(c[0]), &sm[0], rows[i].prec, true);
		cell(c[1], sizeof(c[1]), &sm[1], rows[i].prec, true);
		if (sm[0].med)
			printf("%-48s | %-24s | %-24s | %.2f\n", rows[i].label, c[0], c[1],
			       sm[1].med / sm[0].med);
		else
			printf("%-48s | %-24s | %-24s | -\n", rows[i].label, c[0], c[1]);
	}
	for (int i = 0; i < 2; i++)
		free(res[i].kv);
	return 0;
}

/*
 * qaic-bench scaling NAME=FILE...: the per-depth scaling keys of "run
 * --scale-qds" side by side, one column per file (a driver on a number of
 * CPUs), median (min-max) over the rounds; each --ratio I/J adds the column
 * "I/J", the ratio of the medians of columns I and J (from 1). The last row
 * of each group says what the measurements point at: "guest CPU" when the
 * guest's CPUs were 90% busy or more, "emulator" when the emulator's thread
 * was, "wake-ups" otherwise (both waiting on each other's round trips).
 */
static int cmd_scaling(int argc, char **argv)
{
	static const int counts[] = { 1, 4, 16 };
	static const struct {
		const char *what, *fmt;
		int prec;
	} kinds[] = {
		{ "jobs/s", "tput_qd%d_dbc%d", 0 },
		{ "guest CPU busy %", "cpu_qd%d_dbc%d", 0 },
		{ "guest CPU us/job", "cpu_us_job_qd%d_dbc%d", 1 },
		{ "emulator CPU %", "emu_qd%d_dbc%d", 0 },
	};
	struct results res[8] = { 0 };
	const char *name[8];
	int ratio[4][2], nratio = 0, n = 0, qds[8], nqd = 0;
	char c[96], key[64];

	for (int i = 0; i < argc; i++) {
		char *eq;

		if (!strcmp(argv[i], "--ratio") && i + 1 < argc && nratio < 4) {
			if (sscanf(argv[++i], "%d/%d", &ratio[nratio][0], &ratio[nratio][1]) != 2)
				return 2;
			nratio++;
			continue;
		}
		eq = strchr(argv[i], '=');
		if (!eq || n == ARRAY_SIZE(res))
			return 2;
		*eq = 0;
		name[n] = argv[i];
		if (load(eq + 1, &res[n]))
			fprintf(stderr, "qaic-bench: %s: %s\n", eq + 1, strerror(errno));
		n++;
	}
	for (int i = 0; i < nratio; i++)
		if (ratio[i][0] < 1 || ratio[i][0] > n || ratio[i][1] < 1 || ratio[i][1] > n)
			return 2;
	/* The depths, from the keys of the first file that has them. */
	for (int f = 0; f < n && !nqd; f++) {
		for (int i = 0; i < res[f].n && nqd < 8; i++) {
			int qd, dbc, seen = 0;

			if (sscanf(res[f].kv[i].key, "tput_qd%d_dbc%d", &qd, &dbc) != 2)
				continue;
			for (int j = 0; j < nqd; j++)
				seen |= qds[j] == qd;
			if (!seen)
				qds[nqd++] = qd;
		}
	}
	printf("%-30s", "metric");
	for (int f = 0; f < n; f++)
		printf(" | %-22s", name[f]);
	for (int i = 0; i < nratio; i++)
		printf(" | %d/%d  ", ratio[i][0], ratio[i][1]);
	printf("\n");
	for (int q = 0; q < nqd; q++) {
		for (unsigned int d = 0; d < ARRAY_SIZE(counts); d++) {
			for (unsigned int k = 0; k < ARRAY_SIZE(kinds); k++) {
				struct summary sm[8];
				char label[64];

				snprintf(key, sizeof(key), kinds[k].fmt, qds[q], counts[d]);
				snprintf(label, sizeof(label), "QD%d, %2d DBC%s, %s", qds[q],
					 counts[d], counts[d] > 1 ? "s" : "", kinds[k].what);
				printf("%-30s", label);
				for (int f = 0; f < n; f++) {
					summary1(&res[f], key, &sm[f]);
					cell(c, sizeof(c), &sm[f], kinds[k].prec, true);
					printf(" | %-22s", c);
				}
				for (int i = 0; i < nratio; i++) {
					const struct summary *a = &sm[ratio[i][0] - 1];
					const struct summary *b = &sm[ratio[i][1] - 1];

					if (a->n && b->n && b->med)
						printf(" | %5.2f", a->med / b->med);
					else
						printf(" | %5s", "-");
				}
				printf("\n");
			}
			printf("%-30s", "  limited by");
			for (int f = 0; f < n; f++) {
				struct summary cpu, emu;

				snprintf(key, sizeof(key), "cpu_qd%d_dbc%d", qds[q], counts[d]);
				summary1(&res[f], key, &cpu);
				snprintf(key, sizeof(key), "emu_qd%d_dbc%d", qds[q], counts[d]);
				summary1(&res[f], key, &emu);
				printf(" | %-22s", !cpu.n ? "-" : cpu.med >= 90 ? "guest CPU" :
				       emu.n && emu.med >= 90 ? "emulator" : "wake-ups");
			}
			printf("\n");
		}
	}
	for (int f = 0; f < n; f++)
		free(res[f].kv);
	return 0;
}

int main(int argc, char **argv)
{
	int ret = 2;

	if (argc >= 2 && !strcmp(argv[1], "run"))
		ret = cmd_run(argc - 2, argv + 2);
	else if (argc >= 2 && !strcmp(argv[1], "report"))
		ret = cmd_report(argc - 2, argv + 2);
	else if (argc >= 2 && !strcmp(argv[1], "compare"))
		ret = cmd_compare(argc - 2, argv + 2);
	else if (argc >= 2 && !strcmp(argv[1], "scaling"))
		ret = cmd_scaling(argc - 2, argv + 2);
	if (ret == 2)
		fprintf(stderr,
			"usage: qaic-bench run [--label NAME] [--quick] [--only rt,bw,scale,mem]\n"
			"                      [--scale-qds QD,...] [--emu-cpu FILE]\n"
			"       qaic-bench report [--note TEXT]... [--limits FILE] OURS UPSTREAM...\n"
			"       qaic-bench compare A B\n"
			"       qaic-bench scaling [--ratio I/J]... NAME=FILE...\n");
	return ret;
}
