/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * qaic-fuzz: what its files share. The limits of what a worker holds; the
 * ioctls, system calls and operations that are counted; the memory shared
 * by the parent and the workers (counts, failures, and the slots the
 * watchdog reads); and the model: what a worker owns (files of the
 * device, buffer objects, DBCs, syncobjs, mappings, dma-bufs and
 * sync_files) and the state of a thread that runs operations for it.
 *
 * Copyright (c) 2026 The qaic authors.
 */
#ifndef QAIC_FUZZ_H
#define QAIC_FUZZ_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define KIB		1024ull
#define MIB		(1024ull * 1024)
#define PAGE		4096u

/* DMA directions of ATTACH_SLICE_BO and EXECUTE_BO. */
#define DIR_TO_DEV	1
#define DIR_FROM_DEV	2

#define NUM_DBC		16
/* Device memory behind the DBCs of the emulated card: 256 MiB at 0. */
#define DEV_MEM		(256 * MIB)
/* Largest object a valid operation creates. */
#define BO_VALID_MAX	MIB

/* What a worker holds at most. */
#define MAX_WORKERS	32
#define MAX_FILES	3
#define MAX_FDS		2	/* per file: the one open() gave, and a dup */
#define MAX_BOS		64
#define MAX_DBCS	NUM_DBC	/* per file: whatever the card grants is recorded */
#define MAX_SOBJS	12	/* per file */
#define MAX_MAPS	24
#define MAX_XFDS	8	/* dma-bufs; sync_files and syncobj files */
#define NFREED		16
#define MAX_FAIL	32

/* ------------------------------------------------------------- stats */

enum ioc {
	IOC_MANAGE,
	IOC_CREATE_BO,
	IOC_MMAP_BO,
	IOC_ATTACH,
	IOC_EXECUTE,
	IOC_PARTIAL,
	IOC_WAIT,
	IOC_PERF,
	IOC_DETACH,
	IOC_SUBMIT,
	IOC_GEM_CLOSE,
	IOC_PRIME_H2FD,
	IOC_PRIME_FD2H,
	IOC_SO_CREATE,
	IOC_SO_DESTROY,
	IOC_SO_WAIT,
	IOC_SO_TWAIT,
	IOC_SO_SIGNAL,
	IOC_SO_TSIGNAL,
	IOC_SO_RESET,
	IOC_SO_H2FD,
	IOC_SO_FD2H,
	IOC_SO_QUERY,
	IOC_SO_TRANSFER,
	IOC_SO_EVENTFD,
	IOC_DMABUF_EXPORT,
	IOC_DMABUF_IMPORT,
	IOC_DMABUF_SYNC,
	IOC_SYNC_INFO,
	IOC_VERSION,
	IOC_GET_CAP,
	/* Not valid ioctl numbers: ENOTTY is fine. */
	IOC_BAD,
	/* System calls. */
	SYS_OPEN,
	SYS_DUP,
	SYS_CLOSE,
	SYS_MMAP,
	SYS_MUNMAP,
	SYS_POLL,
	NIOC
};

enum op {
	OP_OPEN,
	OP_DUP,
	OP_CLOSE,
	OP_STATUS,
	OP_ACTIVATE,
	OP_DEACTIVATE,
	OP_PASSTHROUGH,
	OP_DMA_XFER,
	OP_MANAGE_RAW,
	OP_CREATE,
	OP_MMAP_BO,
	OP_MMAP,
	OP_MUNMAP,
	OP_TOUCH,
	OP_ATTACH,
	OP_DETACH,
	OP_EXECUTE,
	OP_PARTIAL,
	OP_WAIT,
	OP_PERF,
	OP_SUBMIT,
	OP_GEM_CLOSE,
	OP_PRIME_EXPORT,
	OP_PRIME_IMPORT,
	OP_DMABUF,
	OP_XFD_CLOSE,
	OP_SO_CREATE,
	OP_SO_DESTROY,
	OP_SO_WAIT,
	OP_SO_SIGNAL,
	OP_SO_RESET,
	OP_SO_EXPORT,
	OP_SO_IMPORT,
	OP_SO_MISC,
	OP_SYNC_FILE,
	OP_BAD_IOCTL,
	OP_FORK,
	OP_BURST,
	OP_EXIT,
	NOPS
};

/* Errno values counted one by one; the rest are counted together. */
#define NERR		136

/* One thread of a worker: what it runs, since when. */
struct tslot {
	int active;
	int op;
	int valid;
	uint64_t t0_ms;
	uint64_t opno;
	uint64_t rng;		/* the state the op started from */
};

struct wslot {
	pid_t pid;
	pid_t child;		/* a forked child running */
	uint64_t exit_ms;	/* when it called _exit(): its files are closing */
	int finished;
	uint64_t rng;		/* where a restarted worker resumes */
	uint64_t ops_left;
	uint64_t opno;		/* operations run so far */
	unsigned int restarts;
	struct tslot t[3];	/* main thread, burst thread, forked child */
};

/* Shared by the parent, the workers and their children. */
struct shared {
	uint64_t res[NIOC][NERR];
	uint64_t res_valid[NIOC][NERR];	/* of operations built to be valid */
	uint64_t ops[NOPS][2];	/* valid, mutated */
	uint64_t children;
	uint64_t bursts;
	uint64_t early_exits;
	int nfail;
	char fail[MAX_FAIL][384];
	struct wslot w[MAX_WORKERS];
};

/* The run, as main() set it up (main.c). */
extern struct shared *sh;
extern int verbose;
extern int kmsg_fd;		/* --verbose: op lines go to the kernel log too */
extern const char *device;

#define ADD(x, n)	__atomic_fetch_add(&(x), (n), __ATOMIC_RELAXED)

/* ------------------------------------------------------------- model */

struct bo {
	bool used;
	bool sliced;		/* the object's state, as all its handles see it */
	bool imported;		/* came from PRIME_FD_TO_HANDLE */
	bool childs;		/* made by this forked child */
	int file;
	uint32_t obj;		/* the object: handles of one object share it */
	uint32_t handle;
	uint32_t dbc;		/* when sliced */
	uint32_t dir;
	uint32_t nslices;
	uint64_t size;
};

struct dbc {
	bool used;
	/*
	 * Deactivated: the file cannot use it any more, but the card keeps
	 * it, and the file holds it, until the card is asked to release it
	 * in its own terms (EMU_PT_DEACTIVATE) or the file is closed.
	 */
	bool draining;
	uint32_t id;
	uint32_t qsize;
};

struct sobj {
	bool used;
	bool timeline;		/* used with points */
	bool has_fence;		/* binary: a fence was put in */
	uint32_t handle;
	uint64_t last_point;	/* timeline: highest point with a fence */
};

struct file {
	bool used;
	uint32_t gen;		/* which open() of the slot */
	int nfds;
	int fds[MAX_FDS];
	struct dbc dbc[MAX_DBCS];
	struct sobj so[MAX_SOBJS];
	uint32_t freed[NFREED];	/* handles closed lately */
	unsigned int nfreed;
};

struct map {
	bool used;
	bool writable;
	bool zombie;		/* its file is closed: the mapping holds it open */
	int file;		/* whose object it maps: the mapping holds the file */
	uint32_t gen;
	uint8_t *ptr;
	size_t size;
};

enum xfd_kind { XFD_DMABUF, XFD_SYNC_FILE, XFD_SYNCOBJ };

struct xfd {
	bool used;
	int kind;
	int fd;
	uint32_t obj;		/* dma-buf: the object */
	uint64_t size;		/* dma-buf: of the object */
};

struct worker {
	int idx;
	uint32_t next_obj;
	uint32_t next_gen;
	int dbc_cap;		/* DBCs held at most, over all files */
	bool in_burst;
	bool is_child;
	pthread_mutex_t lock;	/* the model */
	pthread_rwlock_t fdlock; /* closing descriptors, unmapping: write */
	struct file f[MAX_FILES];
	struct bo bo[MAX_BOS];
	struct map map[MAX_MAPS];
	struct xfd xfd[MAX_XFDS];
};

/* A thread running operations for a worker. */
struct tctx {
	struct worker *w;
	uint64_t sel;		/* chooses the operations: their sequence */
	uint64_t rng;		/* chooses an operation's arguments, from sel */
	int slot;		/* 0 main thread, 1 burst thread, 2 forked child */
	int op;
	bool valid;		/* built to be valid */
	bool strict;		/* ... and must-succeed rules apply */
	bool fd_mutated;	/* the file passed may not be a qaic one */
	bool argmut;		/* the next ioctl gets a bad argument pointer */
	bool ro_armed;
	uint64_t opno;
	uint64_t rng0;
	uint8_t *scratch;	/* two RW pages, then a PROT_NONE one */
	uint8_t *ro;		/* a page made read-only around an ioctl, then a PROT_NONE one */
};

static inline void lock(struct worker *w)
{
	pthread_mutex_lock(&w->lock);
}

static inline void unlock(struct worker *w)
{
	pthread_mutex_unlock(&w->lock);
}

#endif /* QAIC_FUZZ_H */
