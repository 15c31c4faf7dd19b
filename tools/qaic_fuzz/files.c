// SPDX-License-Identifier: GPL-2.0-only
/*
 * qaic-fuzz: the files of the device. Opening (also with odd flags),
 * dup(), closing a descriptor with work in flight, and ioctl numbers that
 * are not qaic's or DRM's.
 *
 * Copyright (c) 2026 The qaic authors.
 */

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <xf86drm.h>
#include <drm/qaic_accel.h>

#include "fuzz.h"
#include "calls.h"
#include "files.h"
#include "manage.h"
#include "model.h"
#include "rng.h"

void op_open(struct tctx *t)
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
		arg = mm_msg(&m);
		xioctl(t, IOC_MANAGE, fd, DRM_IOCTL_QAIC_MANAGE, &arg);
		xclose(t, fd);
	}
}

void op_dup(struct tctx *t)
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
void op_close(struct tctx *t)
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

void op_bad_ioctl(struct tctx *t)
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
