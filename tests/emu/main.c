// SPDX-License-Identifier: GPL-2.0-only
/*
 * qaic-emu: an emulated Qualcomm Cloud AI 100 on the PCI bus of a UML
 * kernel, attached through vhost-user + virtio_pcidev (--socket), or of a
 * QEMU guest, attached through vfio-user (--vfio-user, vfio_user.h).
 *
 *   qaic-emu --socket PATH|--vfio-user PATH [--no-msix] [--counters FILE] [--ready FILE]
 *            [--syserr-after-ms N] [--dbc-mem-mb N] [--hang-dbc N]
 *            [--drop-dbc-rsp N[:K]] [--corrupt-dbc-rsp N[:K]]
 *            [--malice SEED[:PERMILLE[:KINDS]]] [--boot pbl|amss]
 *            [--sahara-fault F[,F...]] [--bhi-fault corrupt] [--flr] [--verbose]
 *            [--sahara-case C[,C...]] [--sahara-case-file PATH]
 *            [--bootlog-fault garbage|tail] [--timesync-fault garbage]
 *            [--memdump MODE] [--garbage-reads N] [--lose-decode-writes N]
 *            [--card aic100|aic080|aic200] [--qrtr-node N]
 *            [--serial S] [--board-serial S]
 *
 * The card powers on in PBL, as a real one does (the host loads SBL over
 * BHI, then the images over Sahara); --boot amss starts it in mission mode.
 * A crash in mission mode reboots it from PBL, and SBL offers the crash's
 * memory dump over Sahara first (memdump.h): --memdump off, on (the
 * default) or one of its faults. --qrtr-node is the node id of the card's
 * IPC router (qrtr.h); each card of a host needs its own. --serial and
 * --board-serial are what the firmware's status answer says (nnc_fw.h).
 *
 * qaic-emu --list-sahara-cases prints the systematic Sahara cases
 * (sahara_cases.h), "N name verdict" a line, and exits.
 *
 * Listens on PATH (UML and QEMU connect once at start and never retry, so
 * the runner waits for the --ready file), serves one frontend until it goes
 * away, writes the counters and exits 0. SIGTERM/SIGINT also write the
 * counters and exit 0. Only startup errors exit non-zero: whatever the
 * guest does is counted, not fatal.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <time.h>
#include <unistd.h>

#include "dbc.h"
#include "card.h"
#include "device.h"
#include "malice.h"
#include "manager.h"
#include "mhi.h"
#include "bhi.h"
#include "bootlog.h"
#include "memdump.h"
#include "qrtr.h"
#include "sahara.h"
#include "sahara_cases.h"
#include "telemetry.h"
#include "timesync.h"
#include "vfio_user.h"
#include "vhost_user.h"
#include "virtio_pcidev.h"
#include "workload.h"

struct emu_options {
	const char *socket_path;
	bool vfio_user;			/* --vfio-user: socket_path speaks it */
	const char *counters_path;
	const char *ready_path;
	unsigned int syserr_after_ms;
	uint64_t dbc_mem_bytes;			/* 0: default */
	bool hang_dbc[EMU_NUM_DBC];
	uint32_t drop_dbc_rsp[EMU_NUM_DBC];	/* every K-th response, 0: off */
	uint32_t corrupt_dbc_rsp[EMU_NUM_DBC];
	const char *malice_arg;		/* --malice, or NULL */
	enum emu_mhi_boot boot;
	enum emu_sahara_fault sahara_faults[16];
	unsigned int nr_sahara_faults;
	int sahara_cases[256];
	unsigned int nr_sahara_cases;
	const char *sahara_case_file;
	bool bhi_corrupt;
	bool bootlog_garbage;
	bool bootlog_tail;
	bool timesync_garbage;
	enum emu_memdump_mode memdump;
	struct malice_cfg malice_cfg;
	bool no_msix;
	bool flr;			/* offer a function-level reset */
	unsigned int garbage_reads;	/* first BAR0 reads answered all-ones */
	unsigned int lose_decode_writes;	/* first writes enabling decoding lost */
	uint16_t device_id;		/* --card; 0: the AIC100 */
	uint32_t qrtr_node;		/* --qrtr-node; 0: the default */
	const char *serial;		/* --serial; NULL: the card's */
	const char *board_serial;	/* --board-serial */
	bool verbose;
};

/* The one emulator instance: device, transport and protocol glue. */
struct emu {
	struct emu_device dev;
	struct emu_manager *mgr;	/* behind QAIC_CONTROL */
	struct emu_mhi *mhi;		/* BAR0 */
	struct emu_dbc *dbc;		/* BAR2 */
	struct emu_workload *wl;	/* programs the DBC doorbells run */
	struct malice *malice;		/* malicious-card mode, or NULL */
	bool vfio_user;			/* the transport: vfu, else vu + vpci */
	struct vu_dev vu;
	struct vpci vpci;
	struct vfu_server vfu;
	/* EMU_PT_VANISH: when the card goes away, if it is to */
	bool vanish;
	struct timespec vanish_at;
};

static void usage(FILE *out)
{
	fprintf(out,
		"usage: qaic-emu --socket PATH|--vfio-user PATH [--no-msix] [--counters FILE]\n"
		"                [--ready FILE] [--syserr-after-ms N] [--dbc-mem-mb N]\n"
		"                [--hang-dbc N] [--drop-dbc-rsp N[:K]]\n"
		"                [--corrupt-dbc-rsp N[:K]]\n"
		"                [--malice SEED[:PERMILLE[:KINDS]]] [--boot pbl|amss (pbl)]\n"
		"                [--sahara-fault F[,F...]] [--bhi-fault corrupt] [--flr]\n"
		"                [--bootlog-fault garbage|tail] [--timesync-fault garbage]\n"
		"                [--memdump MODE] [--garbage-reads N] [--lose-decode-writes N]\n"
		"                [--card aic100|aic080|aic200] [--qrtr-node N]\n"
		"                [--serial S] [--board-serial S]\n"
		"                [--sahara-case C[,C...]] [--sahara-case-file PATH] [--verbose]\n"
		"       qaic-emu --list-sahara-cases\n"
		"Sahara faults: none unknown-image out-of-range zero-length oversize\n"
		"               never-finish corrupt after-done eoi-no-image eoi-past-table\n"
		"Memory dump modes: off on (default) bad-length too-many huge short-read\n");
}

/* "F[,F...]": the Sahara fault of each boot in turn. */
static int parse_sahara_faults(const char *arg, struct emu_options *o)
{
	char buf[512], *tok, *save = NULL;
	int f;

	if (strlen(arg) >= sizeof(buf))
		return -1;
	strcpy(buf, arg);
	o->nr_sahara_faults = 0;
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		f = emu_sahara_fault_parse(tok);
		if (f < 0 || o->nr_sahara_faults == 16)
			return -1;
		o->sahara_faults[o->nr_sahara_faults++] = f;
	}
	return o->nr_sahara_faults ? 0 : -1;
}

/*
 * "C[,C...]": the systematic Sahara case of each boot in turn; C is a
 * case's name or number, "none", "N-M" (cases N to M, one boot each) or
 * "all" (every case in table order).
 */
static int parse_sahara_cases(const char *arg, struct emu_options *o)
{
	const unsigned int max = sizeof(o->sahara_cases) / sizeof(o->sahara_cases[0]);
	char buf[4096], *tok, *save = NULL;
	int from, to;

	if (strlen(arg) >= sizeof(buf))
		return -1;
	strcpy(buf, arg);
	o->nr_sahara_cases = 0;
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char *dash = strchr(tok, '-');

		if (!strcmp(tok, "none")) {
			from = to = -1;
		} else if (!strcmp(tok, "all")) {
			from = 0;
			to = (int)emu_sahara_nr_cases - 1;
		} else if ((from = emu_sahara_case_parse(tok)) >= 0) {
			to = from;
		} else if (dash) {
			*dash = '\0';
			from = emu_sahara_case_parse(tok);
			to = emu_sahara_case_parse(dash + 1);
			if (from < 0 || to < from)
				return -1;
		} else {
			return -1;
		}
		for (int c = from; c <= to; c++) {
			if (o->nr_sahara_cases == max)
				return -1;
			o->sahara_cases[o->nr_sahara_cases++] = c;
		}
	}
	return o->nr_sahara_cases ? 0 : -1;
}

static void list_sahara_cases(void)
{
	for (unsigned int i = 0; i < emu_sahara_nr_cases; i++)
		printf("%u %s %s\n", i, emu_sahara_cases[i].name,
		       emu_sahara_verdict_name(emu_sahara_cases[i].verdict));
}

/* "N" or "N:K": DBC N (< EMU_NUM_DBC), every K-th (default 1, > 0). */
static int parse_dbc_arg(const char *arg, unsigned int *id, uint32_t *every)
{
	unsigned long n, k = 1;
	char *end;

	n = strtoul(arg, &end, 0);
	if (end == arg || n >= EMU_NUM_DBC)
		return -1;
	if (*end == ':') {
		const char *ks = end + 1;

		k = strtoul(ks, &end, 0);
		if (end == ks || !k || k > UINT32_MAX)
			return -1;
	}
	if (*end)
		return -1;
	*id = (unsigned int)n;
	*every = (uint32_t)k;
	return 0;
}

/* A whole number @s, at most @max, into @n: 0, or -1 for anything else. */
static int parse_count(const char *s, unsigned long max, unsigned long *n)
{
	char *end;

	*n = strtoul(s, &end, 0);
	return *end || !*s || *n > max ? -1 : 0;
}

static int parse_options(int argc, char **argv, struct emu_options *o)
{
	static const struct option longopts[] = {
		{ "socket", required_argument, NULL, 's' },
		{ "vfio-user", required_argument, NULL, 'U' },
		{ "no-msix", no_argument, NULL, 'n' },
		{ "counters", required_argument, NULL, 'c' },
		{ "ready", required_argument, NULL, 'r' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "syserr-after-ms", required_argument, NULL, 'E' },
		{ "dbc-mem-mb", required_argument, NULL, 'M' },
		{ "hang-dbc", required_argument, NULL, 'H' },
		{ "drop-dbc-rsp", required_argument, NULL, 'D' },
		{ "corrupt-dbc-rsp", required_argument, NULL, 'C' },
		{ "malice", required_argument, NULL, 'X' },
		{ "boot", required_argument, NULL, 'B' },
		{ "sahara-fault", required_argument, NULL, 'S' },
		{ "sahara-case", required_argument, NULL, 'K' },
		{ "sahara-case-file", required_argument, NULL, 'Q' },
		{ "list-sahara-cases", no_argument, NULL, 'l' },
		{ "bhi-fault", required_argument, NULL, 'F' },
		{ "flr", no_argument, NULL, 'R' },
		{ "bootlog-fault", required_argument, NULL, 'L' },
		{ "timesync-fault", required_argument, NULL, 'T' },
		{ "memdump", required_argument, NULL, 'P' },
		{ "garbage-reads", required_argument, NULL, 'G' },
		{ "lose-decode-writes", required_argument, NULL, 'W' },
		{ "card", required_argument, NULL, 'A' },
		{ "qrtr-node", required_argument, NULL, 'N' },
		{ "serial", required_argument, NULL, 'Z' },
		{ "board-serial", required_argument, NULL, 'Y' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	unsigned int id;
	unsigned long n;
	uint32_t every;
	int opt;

	while ((opt = getopt_long(argc, argv, "s:nc:r:vh", longopts, NULL)) != -1) {
		switch (opt) {
		case 's':
		case 'U':
			/* One transport: --socket and --vfio-user exclude each other. */
			if (o->socket_path && o->vfio_user != (opt == 'U'))
				return -1;
			o->socket_path = optarg;
			o->vfio_user = opt == 'U';
			break;
		case 'n': o->no_msix = true; break;
		case 'R': o->flr = true; break;
		case 'c': o->counters_path = optarg; break;
		case 'r': o->ready_path = optarg; break;
		case 'v': o->verbose = true; break;
		case 'Z': o->serial = optarg; break;
		case 'Y': o->board_serial = optarg; break;
		case 'E':
			if (parse_count(optarg, 86400000, &n))
				return -1;
			o->syserr_after_ms = (unsigned int)n;
			break;
		case 'M':
			if (parse_count(optarg, 65536, &n) || !n)
				return -1;
			o->dbc_mem_bytes = (uint64_t)n << 20;
			break;
		case 'H':
			if (parse_dbc_arg(optarg, &id, &every) || every != 1)
				return -1;
			o->hang_dbc[id] = true;
			break;
		case 'D':
			if (parse_dbc_arg(optarg, &id, &every))
				return -1;
			o->drop_dbc_rsp[id] = every;
			break;
		case 'C':
			if (parse_dbc_arg(optarg, &id, &every))
				return -1;
			o->corrupt_dbc_rsp[id] = every;
			break;
		case 'X':
			if (malice_parse(optarg, &o->malice_cfg))
				return -1;
			o->malice_arg = optarg;
			break;
		case 'B':
			if (!strcmp(optarg, "pbl"))
				o->boot = EMU_MHI_BOOT_PBL;
			else if (!strcmp(optarg, "amss"))
				o->boot = EMU_MHI_BOOT_AMSS;
			else
				return -1;
			break;
		case 'S':
			if (parse_sahara_faults(optarg, o))
				return -1;
			break;
		case 'K':
			if (parse_sahara_cases(optarg, o))
				return -1;
			break;
		case 'Q': o->sahara_case_file = optarg; break;
		case 'l': list_sahara_cases(); exit(0);
		case 'F':
			if (strcmp(optarg, "corrupt"))
				return -1;
			o->bhi_corrupt = true;
			break;
		case 'L':
			if (!strcmp(optarg, "garbage"))
				o->bootlog_garbage = true;
			else if (!strcmp(optarg, "tail"))
				o->bootlog_tail = true;
			else
				return -1;
			break;
		case 'T':
			if (strcmp(optarg, "garbage"))
				return -1;
			o->timesync_garbage = true;
			break;
		case 'A':
			if (!emu_card_by_name(optarg))
				return -1;
			o->device_id = emu_card_by_name(optarg)->device_id;
			break;
		case 'N':
			/* Not 0, and below QRTR's broadcast and its "any". */
			if (parse_count(optarg, 0xfffffffdul, &n) || !n)
				return -1;
			o->qrtr_node = (uint32_t)n;
			break;
		case 'G':
			if (parse_count(optarg, 1000, &n))
				return -1;
			o->garbage_reads = (unsigned int)n;
			break;
		case 'W':
			if (parse_count(optarg, 1000, &n))
				return -1;
			o->lose_decode_writes = (unsigned int)n;
			break;
		case 'P': {
			int m = emu_memdump_mode_parse(optarg);

			if (m < 0)
				return -1;
			o->memdump = m;
			break;
		}
		case 'h': usage(stdout); exit(0);
		default: return -1;
		}
	}
	if (!o->socket_path || optind != argc)
		return -1;
	return 0;
}

/* Written to a temporary name and renamed: readers never see half a file. */
static int write_counters(const struct emu *emu, const char *path)
{
	char tmp[4096];
	FILE *f;

	if (snprintf(tmp, sizeof(tmp), "%s.tmp", path) >= (int)sizeof(tmp))
		return -ENAMETOOLONG;
	f = fopen(tmp, "w");
	if (!f)
		return -errno;
	emu_counters_print(&emu->dev.counters, f);
	emu_mhi_counters_print(emu->mhi, f);
	emu_manager_print_counters(emu->mgr, f);
	emu_dbc_counters_print(emu->dbc, f);
	emu_workload_counters_print(emu->wl, f);
	malice_print_counters(emu->malice, f);
	if (emu->vfio_user)
		vfu_stats_print(&emu->vfu.stats, f);
	else
		vu_stats_print(&emu->vu.stats, f);
	if (fclose(f))
		return -errno;
	return rename(tmp, path) ? -errno : 0;
}

static int create_ready_file(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

	if (fd < 0)
		return -errno;
	close(fd);
	return 0;
}

/* Termination requests arrive as an fd in the poll set, not as handlers. */
static int setup_signals(void)
{
	sigset_t mask;

	signal(SIGPIPE, SIG_IGN);	/* a dead frontend must not kill us */
	sigemptyset(&mask);
	sigaddset(&mask, SIGTERM);
	sigaddset(&mask, SIGINT);
	if (sigprocmask(SIG_BLOCK, &mask, NULL))
		return -errno;
	return signalfd(-1, &mask, SFD_CLOEXEC);
}

/* Milliseconds until the card vanishes (0: now), or -1 if it does not. */
static int vanish_timeout_ms(const struct emu *emu)
{
	struct timespec now;
	long long ms;

	if (!emu->vanish)
		return -1;
	clock_gettime(CLOCK_MONOTONIC, &now);
	ms = (emu->vanish_at.tv_sec - now.tv_sec) * 1000LL +
	     (emu->vanish_at.tv_nsec - now.tv_nsec) / 1000000;
	return ms > 0 ? (int)ms : 0;
}

/* The nearer of the timed events; -1 if there is none. */
static int poll_timeout(const struct emu *emu)
{
	int t[] = {
		emu_mhi_timeout_ms(emu->mhi),
		emu_device_timeout_ms(&emu->dev),
		vanish_timeout_ms(emu),
	};
	int min = -1;

	for (unsigned int i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (t[i] >= 0 && (min < 0 || t[i] < min))
			min = t[i];
	return min;
}

/*
 * How long poll() may wait: the timed events in milliseconds, or less if
 * a DBC with device time has a request due sooner. NULL: no limit.
 */
static const struct timespec *wait_limit(const struct emu *emu, struct timespec *ts)
{
	long long ns = emu->dbc ? emu_dbc_timeout_ns(emu->dbc) : -1;
	int ms = poll_timeout(emu);

	if (ms >= 0 && (ns < 0 || (long long)ms * 1000000 < ns))
		ns = (long long)ms * 1000000;
	if (ns < 0)
		return NULL;
	ts->tv_sec = ns / 1000000000;
	ts->tv_nsec = ns % 1000000000;
	return ts;
}

/* Returns when the frontend disconnects or a termination signal comes. */
static void serve(struct emu *emu, int sig_fd)
{
	struct pollfd pfds[1 + VU_MAX_POLLFDS];
	struct timespec ts;
	unsigned int n;
	int ret;

	for (;;) {
		pfds[0] = (struct pollfd){ .fd = sig_fd, .events = POLLIN };
		n = emu->vfio_user ?
		    vfu_pollfds(&emu->vfu, &pfds[1], VU_MAX_POLLFDS) :
		    vu_pollfds(&emu->vu, &pfds[1], VU_MAX_POLLFDS);
		ret = ppoll(pfds, 1 + n, wait_limit(emu, &ts), NULL);
		if (ret < 0) {
			if (errno == EINTR)
				continue;
			perror("qaic-emu: poll");
			return;
		}
		if (emu->dbc)
			emu_dbc_tick(emu->dbc);	/* device time */
		emu_mhi_tick(emu->mhi);	/* timed fault injection */
		emu_device_tick(&emu->dev);	/* malice: MSI storms */
		if (!vanish_timeout_ms(emu)) {
			emu->vanish = false;
			emu_device_fall_off(&emu->dev);
		}
		if (!ret)
			continue;
		if (pfds[0].revents) {
			emu_log(&emu->dev, "terminating on signal");
			return;
		}
		if (emu->vfio_user ? vfu_dispatch(&emu->vfu, &pfds[1], n) :
		    vu_dispatch(&emu->vu, &pfds[1], n)) {
			emu_log(&emu->dev, "frontend disconnected");
			return;
		}
	}
}

/* EMU_PT_SYS_ERROR */
static void emu_sys_error(void *ctx, unsigned int ms)
{
	struct emu *emu = ctx;

	emu_mhi_syserr_in(emu->mhi, ms);
}

/* EMU_PT_ANSWER_DELAY */
static void emu_answer_delay(void *ctx, unsigned int ms)
{
	struct emu *emu = ctx;

	emu_mhi_set_answer_delay(emu->mhi, ms);
}

/* EMU_PT_VANISH: serve() makes the card fall off the bus once the time comes. */
static void emu_vanish(void *ctx, unsigned int ms)
{
	struct emu *emu = ctx;

	clock_gettime(CLOCK_MONOTONIC, &emu->vanish_at);
	emu->vanish_at.tv_sec += ms / 1000;
	emu->vanish_at.tv_nsec += (long)(ms % 1000) * 1000000;
	if (emu->vanish_at.tv_nsec >= 1000000000) {
		emu->vanish_at.tv_sec++;
		emu->vanish_at.tv_nsec -= 1000000000;
	}
	emu->vanish = true;
}

/* EMU_PT_SSR */
static int emu_ssr(void *ctx, unsigned int dbc, unsigned int mode,
		   unsigned int cycles)
{
	struct emu *emu = ctx;

	return emu_mhi_ssr(emu->mhi, dbc, mode, cycles);
}

/* EMU_PT_RAS */
static int emu_ras(void *ctx, unsigned int source, unsigned int type,
		   unsigned int flaw)
{
	struct emu *emu = ctx;

	return emu_mhi_ras(emu->mhi, source, type, flaw);
}

/* EMU_PT_CARD_CASE */
static int emu_card_case(void *ctx, unsigned int table, unsigned int idx)
{
	struct emu *emu = ctx;

	if (table == EMU_CARD_CASE_DBC)
		return emu->dbc ? emu_dbc_send_case(emu->dbc, idx) : -EINVAL;
	return emu_mhi_card_case(emu->mhi, table, idx);
}

/* EMU_PT_TIMESYNC */
static void emu_timesync(void *ctx, struct emu_timesync_counters *out)
{
	struct emu *emu = ctx;

	*out = *emu_mhi_timesync(emu->mhi);
}

/* EMU_PT_TELEMETRY */
static int emu_telemetry_mode_op(void *ctx, unsigned int mode)
{
	struct emu *emu = ctx;

	return emu_telemetry_set_mode(emu_mhi_telemetry(emu->mhi), mode);
}

/* The telemetry's load: every request the DBCs carried out so far. */
static uint64_t emu_dbc_work(void *ctx)
{
	struct emu *emu = ctx;
	struct emu_dbc_counters c;

	emu_dbc_get_counters(emu->dbc, EMU_NUM_DBC, &c);
	return c.requests;
}

static const struct emu_card_ops emu_card_ops = {
	.sys_error = emu_sys_error,
	.answer_delay = emu_answer_delay,
	.vanish = emu_vanish,
	.card_case = emu_card_case,
	.ssr = emu_ssr,
	.ras = emu_ras,
	.timesync = emu_timesync,
	.telemetry = emu_telemetry_mode_op,
};

/* A function-level reset: the card powers on again. */
static void emu_flr(void *ctx)
{
	struct emu *emu = ctx;

	emu_mhi_power_on(emu->mhi);
}

static struct emu *emu_create(const struct emu_options *o)
{
	struct emu *emu = calloc(1, sizeof(*emu));

	if (!emu)
		return NULL;
	if (emu_device_init(&emu->dev, !o->no_msix)) {
		free(emu);
		return NULL;
	}
	/* The card first: its BARs and boot are what the models attach to. */
	if (o->device_id)
		emu_pci_set_device_id(&emu->dev.pci, o->device_id);
	emu->mgr = emu_manager_create(&emu->dev);
	emu->mhi = emu->mgr ? emu_mhi_create(&emu->dev, emu->mgr) : NULL;
	emu->dbc = emu->mhi ? emu_dbc_create(&emu->dev) : NULL;
	emu->wl = emu->dbc ? emu_workload_create(emu->dbc) : NULL;
	if (!emu->wl) {
		emu_dbc_destroy(emu->dbc);
		emu_mhi_destroy(emu->mhi);
		emu_manager_destroy(emu->mgr);
		emu_device_fini(&emu->dev);
		free(emu);
		return NULL;
	}
	if (o->malice_arg) {
		emu->malice = malice_create(&o->malice_cfg);
		if (!emu->malice) {
			emu_workload_destroy(emu->wl);
			emu_dbc_destroy(emu->dbc);
			emu_mhi_destroy(emu->mhi);
			emu_manager_destroy(emu->mgr);
			emu_device_fini(&emu->dev);
			free(emu);
			return NULL;
		}
		emu->dev.malice = emu->malice;
	}
	emu_mhi_attach(emu->mhi);
	emu_sahara_set_faults(emu_mhi_sahara(emu->mhi), o->sahara_faults,
			      o->nr_sahara_faults);
	emu_sahara_set_cases(emu_mhi_sahara(emu->mhi), o->sahara_cases, o->nr_sahara_cases);
	emu_sahara_set_case_file(emu_mhi_sahara(emu->mhi), o->sahara_case_file);
	emu_mhi_bhi(emu->mhi)->corrupt_next = o->bhi_corrupt;
	emu_bootlog_set_garbage(emu_mhi_bootlog(emu->mhi), o->bootlog_garbage);
	emu_bootlog_set_tail(emu_mhi_bootlog(emu->mhi), o->bootlog_tail);
	emu_timesync_set_garbage(emu_mhi_timesync_dev(emu->mhi), o->timesync_garbage);
	emu_memdump_set_mode(emu_mhi_memdump(emu->mhi), o->memdump);
	if (o->qrtr_node)
		emu_qrtr_set_node(emu_mhi_qrtr(emu->mhi), o->qrtr_node);
	emu_mhi_set_boot(emu->mhi, o->boot);
	emu_mhi_set_syserr_after(emu->mhi, o->syserr_after_ms);
	emu_manager_set_card_ops(emu->mgr, &emu_card_ops, emu);
	emu_telemetry_set_activity(emu_mhi_telemetry(emu->mhi), emu_dbc_work, emu);
	emu_manager_set_fw_ident(emu->mgr, o->serial, o->board_serial);
	emu_dbc_attach(emu->dbc);
	emu_dbc_connect(emu->dbc, emu->mgr);
	if (o->dbc_mem_bytes)
		emu_dbc_set_mem_size(emu->dbc, o->dbc_mem_bytes);
	for (unsigned int i = 0; i < EMU_NUM_DBC; i++) {
		emu_dbc_set_hang(emu->dbc, i, o->hang_dbc[i]);
		emu_dbc_set_drop_rsp(emu->dbc, i, o->drop_dbc_rsp[i]);
		emu_dbc_set_corrupt_rsp(emu->dbc, i, o->corrupt_dbc_rsp[i],
					EMU_DBC_E_INJECTED);
	}
	vu_init(&emu->vu, VPCI_NR_VQS, &vpci_vu_ops, &emu->vpci);
	emu->vfio_user = o->vfio_user;
	if (o->vfio_user)
		vfu_init(&emu->vfu, &emu->dev);
	else
		vpci_init(&emu->vpci, &emu->dev, &emu->vu);
	if (o->flr)
		emu_pci_set_flr(&emu->dev.pci, true);
	/* Also vfio-user's DEVICE_RESET: the card powers on again. */
	emu_device_set_flr_hook(&emu->dev, emu_flr, emu);
	emu->dev.verbose = o->verbose;
	emu->dev.garbage_reads = o->garbage_reads;
	emu->dev.lose_decode_writes = o->lose_decode_writes;
	emu->vu.verbose = o->verbose;
	return emu;
}

static void emu_destroy(struct emu *emu)
{
	vu_close(&emu->vu);
	if (emu->vfio_user)
		vfu_close(&emu->vfu);
	emu_workload_destroy(emu->wl);
	emu_dbc_destroy(emu->dbc);
	emu_mhi_destroy(emu->mhi);
	emu_manager_destroy(emu->mgr);
	emu_device_fini(&emu->dev);
	malice_destroy(emu->malice);
	free(emu);
}

int main(int argc, char **argv)
{
	/* Like a real card: power-on in PBL (--boot amss: already in AMSS). */
	struct emu_options opts = { .boot = EMU_MHI_BOOT_PBL, .memdump = EMU_MEMDUMP_ON };
	struct emu *emu;
	int sig_fd, ret;

	if (parse_options(argc, argv, &opts)) {
		usage(stderr);
		return 2;
	}
	emu = emu_create(&opts);
	if (!emu) {
		fprintf(stderr, "qaic-emu: out of memory\n");
		return 1;
	}
	/*
	 * A DBC with device time is due to the nanosecond; the default 50 us
	 * of timer slack (and the wake-up after it) made each paced request
	 * about 100 us late, a card slower than the one asked for.
	 */
	prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL);
	/* Startup errors free everything too, so that ASan runs stay clean. */
	sig_fd = setup_signals();
	if (sig_fd < 0) {
		fprintf(stderr, "qaic-emu: signals: %s\n", strerror(-sig_fd));
		emu_destroy(emu);
		return 1;
	}
	ret = opts.vfio_user ? vfu_listen(&emu->vfu, opts.socket_path) :
			       vu_listen(&emu->vu, opts.socket_path);
	if (ret) {
		fprintf(stderr, "qaic-emu: listen on %s: %s\n", opts.socket_path,
			strerror(-ret));
		goto fail;
	}
	if (opts.ready_path && (ret = create_ready_file(opts.ready_path))) {
		fprintf(stderr, "qaic-emu: %s: %s\n", opts.ready_path,
			strerror(-ret));
		unlink(opts.socket_path);
		goto fail;
	}
	emu_log(&emu->dev, "listening on %s (%s, MSI-X %s)", opts.socket_path,
		opts.vfio_user ? "vfio-user" : "vhost-user",
		opts.no_msix ? "off" : "on");
	if (emu->malice)
		fprintf(stderr, "qaic-emu: malicious card: --malice %s\n",
			opts.malice_arg);

	serve(emu, sig_fd);

	malice_log_summary(emu->malice, stderr);

	if (opts.counters_path && (ret = write_counters(emu, opts.counters_path)))
		fprintf(stderr, "qaic-emu: counters %s: %s\n", opts.counters_path,
			strerror(-ret));
	unlink(opts.socket_path);
	emu_destroy(emu);
	close(sig_fd);
	return 0;

fail:
	emu_destroy(emu);
	close(sig_fd);
	return 1;
}
