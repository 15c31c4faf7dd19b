// SPDX-License-Identifier: GPL-2.0-only
/*
 * qaic-info: show the Cloud AI 100 cards as a userspace program sees them,
 * through libdrm (/dev/accel/accelN), sysfs and procfs: the driver and the
 * PCI function, the state of each DMA Bridge Channel, the RAS counters, and
 * which processes use the card, how much and with how much memory (from
 * the drm-* keys of /proc/<pid>/fdinfo).
 *
 * usage: qaic-info [--json] [--watch]
 *
 * Copyright (c) 2026 The qaic authors.
 */

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <xf86drm.h>

#define ACCEL_DIR	"/dev/accel"
#define NUM_DBC		16
#define MAX_CLIENTS	256
#define MAX_BARS	6
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/* What the lead's dbc<N>_state sysfs files hold, as Linux names the states */
static const char *const dbc_state_names[] = {
	"IDLE", "ASSIGNED", "BEFORE_SHUTDOWN", "AFTER_SHUTDOWN",
	"BEFORE_POWER_UP", "AFTER_POWER_UP",
};

static const char *const ras_attrs[] = {
	"ce_count", "ue_count", "ue_nonfatal_count",
};

/* One open file of the card: what its fdinfo says. */
struct client {
	int pid;
	int fd;
	char comm[64];
	uint64_t client_id;
	uint64_t engine_ns[NUM_DBC];
	bool has_engine[NUM_DBC];
	uint64_t total, shared, active, resident, purgeable;
	bool has_resident;
	/* Busy share of each DBC since the last sample, -1 if unknown */
	double busy_pct[NUM_DBC];
};

struct bar {
	int index;
	unsigned long long start, kib;
	bool is64;
};

struct card {
	int minor;
	char node[64];
	char drv_name[64], drv_desc[128];
	int ver[3];
	char bdf[64], vendor[16], device[16], class[16], driver[64];
	struct bar bars[MAX_BARS];
	int nbars;
	int irqs;
	/* dbc<N>_state: -2 absent, -1 unreadable or unknown text in state_text */
	int dbc_state[NUM_DBC];
	char state_text[NUM_DBC][64];
	bool has_states;
	long long ras[3];	/* -1: absent */
	struct client clients[MAX_CLIENTS];
	int nclients;
};

/* The previous sample of each client, for the busy share in --watch */
struct sample {
	int minor;
	uint64_t client_id;
	uint64_t engine_ns[NUM_DBC];
};

static struct sample prev[MAX_CLIENTS * 4], cur[MAX_CLIENTS * 4];
static int nprev, ncur;
static uint64_t prev_ns, cur_ns;

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

/* Path of a sysfs attribute of the PCI device behind /dev/accel/accel<minor>. */
static void pci_attr_path(char *buf, size_t len, int minor, const char *attr)
{
	snprintf(buf, len, "/sys/class/accel/accel%d/device%s%s", minor,
		 *attr ? "/" : "", attr);
}

static int read_file(const char *path, char *buf, size_t len)
{
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -errno;
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

static int read_attr(int minor, const char *attr, char *buf, size_t len)
{
	char path[PATH_MAX];

	pci_attr_path(path, sizeof(path), minor, attr);
	return read_file(path, buf, len);
}

/* The last component of a sysfs link, or NULL. */
static const char *link_name(int minor, const char *attr, char *buf, size_t len)
{
	char path[PATH_MAX];
	ssize_t n;

	pci_attr_path(path, sizeof(path), minor, attr);
	n = readlink(path, buf, len - 1);
	if (n <= 0)
		return NULL;
	buf[n] = '\0';
	return strrchr(buf, '/') ? strrchr(buf, '/') + 1 : buf;
}

static int count_entries(int minor, const char *attr)
{
	char path[PATH_MAX];
	struct dirent *de;
	int n = 0;
	DIR *d;

	pci_attr_path(path, sizeof(path), minor, attr);
	d = opendir(path);
	if (!d)
		return 0;
	while ((de = readdir(d)))
		n += de->d_name[0] != '.';
	closedir(d);
	return n;
}

static void get_bars(struct card *c)
{
	unsigned long long start, end, flags;
	char path[PATH_MAX];
	int bar = 0;
	FILE *f;

	pci_attr_path(path, sizeof(path), c->minor, "resource");
	f = fopen(path, "r");
	if (!f)
		return;
	while (bar < MAX_BARS && fscanf(f, "%llx %llx %llx", &start, &end, &flags) == 3) {
		if (end) {
			c->bars[c->nbars++] = (struct bar){
				.index = bar,
				.start = start,
				.kib = (end - start + 1) >> 10,
				.is64 = flags & 0x4,
			};
		}
		bar++;
	}
	fclose(f);
}

static void get_pci(struct card *c)
{
	char buf[PATH_MAX];
	const char *name;

	name = link_name(c->minor, "", buf, sizeof(buf));
	snprintf(c->bdf, sizeof(c->bdf), "%s", name ? name : "");
	if (read_attr(c->minor, "vendor", c->vendor, sizeof(c->vendor)))
		c->vendor[0] = '\0';
	if (read_attr(c->minor, "device", c->device, sizeof(c->device)))
		c->device[0] = '\0';
	if (read_attr(c->minor, "class", c->class, sizeof(c->class)))
		c->class[0] = '\0';
	get_bars(c);
	c->irqs = count_entries(c->minor, "msi_irqs");
	name = link_name(c->minor, "driver", buf, sizeof(buf));
	snprintf(c->driver, sizeof(c->driver), "%s", name ? name : "");
}

/* dbc<N>_state of the accel device, or of its PCI device */
static void get_dbc_states(struct card *c)
{
	char path[PATH_MAX], buf[64], *end;
	long v;

	for (int i = 0; i < NUM_DBC; i++) {
		snprintf(path, sizeof(path), "/sys/class/accel/accel%d/dbc%d_state", c->minor, i);
		if (access(path, F_OK))
			snprintf(path, sizeof(path), "/sys/class/accel/accel%d/device/dbc%d_state",
				 c->minor, i);
		c->dbc_state[i] = -2;
		if (read_file(path, buf, sizeof(buf)))
			continue;
		c->has_states = true;
		c->dbc_state[i] = -1;
		v = strtol(buf, &end, 0);
		if (end != buf && !*end && v >= 0 &&
		    v < (long)ARRAY_SIZE(dbc_state_names)) {
			c->dbc_state[i] = v;
			continue;
		}
		/* A name, or a value this tool does not know */
		snprintf(c->state_text[i], sizeof(c->state_text[i]), "%s", buf);
		for (unsigned int s = 0; s < ARRAY_SIZE(dbc_state_names); s++)
			if (!strcasecmp(buf, dbc_state_names[s]))
				c->dbc_state[i] = s;
	}
}

static void get_ras(struct card *c)
{
	char buf[64], *end;

	for (int i = 0; i < 3; i++) {
		c->ras[i] = -1;
		if (read_attr(c->minor, ras_attrs[i], buf, sizeof(buf)))
			continue;
		c->ras[i] = strtoll(buf, &end, 0);
		if (end == buf)
			c->ras[i] = -1;
	}
}

/* "123", "123 KiB" or "123 MiB" in bytes */
static uint64_t fdinfo_size(const char *val)
{
	char *end;
	uint64_t n = strtoull(val, &end, 10);

	if (!strcmp(end, " KiB"))
		return n << 10;
	if (!strcmp(end, " MiB"))
		return n << 20;
	return n;
}

/* Parses one fdinfo; true if it is a file of card @c */
static bool parse_fdinfo(const struct card *c, const char *path, struct client *cl)
{
	char line[256], *val, *colon;
	bool qaic = false, ours = false;
	unsigned int n;
	FILE *f;

	f = fopen(path, "r");
	if (!f)
		return false;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, "drm-", 4))
			continue;
		line[strcspn(line, "\n")] = '\0';
		colon = strchr(line, ':');
		if (!colon)
			continue;
		*colon = '\0';
		for (val = colon + 1; *val == ' ' || *val == '\t'; val++)
			;
		if (!strcmp(line, "drm-driver")) {
			qaic = !strcmp(val, "qaic");
		} else if (!strcmp(line, "drm-pdev")) {
			ours = !strcmp(val, c->bdf);
		} else if (!strcmp(line, "drm-client-id")) {
			cl->client_id = strtoull(val, NULL, 10);
		} else if (sscanf(line, "drm-engine-dbc%u", &n) == 1 && n < NUM_DBC) {
			cl->engine_ns[n] = strtoull(val, NULL, 10);
			cl->has_engine[n] = true;
		} else if (!strcmp(line, "drm-total-memory")) {
			cl->total = fdinfo_size(val);
		} else if (!strcmp(line, "drm-shared-memory")) {
			cl->shared = fdinfo_size(val);
		} else if (!strcmp(line, "drm-active-memory")) {
			cl->active = fdinfo_size(val);
		} else if (!strcmp(line, "drm-resident-memory")) {
			cl->resident = fdinfo_size(val);
			cl->has_resident = true;
		} else if (!strcmp(line, "drm-purgeable-memory")) {
			cl->purgeable = fdinfo_size(val);
		}
	}
	fclose(f);
	return qaic && ours;
}

static bool seen_client(const struct card *c, uint64_t id)
{
	for (int i = 0; i < c->nclients; i++)
		if (c->clients[i].client_id == id)
			return true;
	return false;
}

static void busy_share(const struct card *c, struct client *cl)
{
	const struct sample *p = NULL;

	for (int i = 0; i < nprev; i++)
		if (prev[i].minor == c->minor && prev[i].client_id == cl->client_id)
			p = &prev[i];
	for (int e = 0; e < NUM_DBC; e++) {
		cl->busy_pct[e] = -1;
		if (p && cur_ns > prev_ns && cl->engine_ns[e] >= p->engine_ns[e])
			cl->busy_pct[e] = 100.0 * (cl->engine_ns[e] - p->engine_ns[e]) /
					  (cur_ns - prev_ns);
	}
	if (ncur < (int)ARRAY_SIZE(cur)) {
		cur[ncur].minor = c->minor;
		cur[ncur].client_id = cl->client_id;
		memcpy(cur[ncur].engine_ns, cl->engine_ns, sizeof(cl->engine_ns));
		ncur++;
	}
}

/*
 * Every open file of the card, once: a file shared by several descriptors
 * or processes has one drm-client-id, and is shown for the first found.
 */
static void get_clients(struct card *c)
{
	char path[PATH_MAX], comm[64];
	struct dirent *p, *fd;
	DIR *proc, *fds;
	int self = getpid();

	proc = opendir("/proc");
	if (!proc)
		return;
	while ((p = readdir(proc)) && c->nclients < MAX_CLIENTS) {
		int pid = atoi(p->d_name);

		if (pid <= 0 || pid == self)
			continue;
		snprintf(path, sizeof(path), "/proc/%d/fdinfo", pid);
		fds = opendir(path);
		if (!fds)
			continue;
		snprintf(path, sizeof(path), "/proc/%d/comm", pid);
		if (read_file(path, comm, sizeof(comm)))
			snprintf(comm, sizeof(comm), "?");
		while ((fd = readdir(fds)) && c->nclients < MAX_CLIENTS) {
			struct client *cl = &c->clients[c->nclients];

			if (!isdigit((unsigned char)fd->d_name[0]))
				continue;
			memset(cl, 0, sizeof(*cl));
			snprintf(path, sizeof(path), "/proc/%d/fdinfo/%s", pid, fd->d_name);
			if (!parse_fdinfo(c, path, cl) || seen_client(c, cl->client_id))
				continue;
			cl->pid = pid;
			cl->fd = atoi(fd->d_name);
			snprintf(cl->comm, sizeof(cl->comm), "%s", comm);
			busy_share(c, cl);
			c->nclients++;
		}
		closedir(fds);
	}
	closedir(proc);
}

static bool get_card(const char *name, struct card *c)
{
	drmVersionPtr ver;
	int fd;

	memset(c, 0, sizeof(*c));
	if (sscanf(name, "accel%d", &c->minor) != 1)
		return false;
	snprintf(c->node, sizeof(c->node), ACCEL_DIR "/%s", name);
	fd = open(c->node, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "%s: %s\n", c->node, strerror(errno));
		return false;
	}
	ver = drmGetVersion(fd);
	if (!ver) {
		fprintf(stderr, "%s: drmGetVersion: %s\n", c->node, strerror(errno));
		close(fd);
		return false;
	}
	snprintf(c->drv_name, sizeof(c->drv_name), "%s", ver->name);
	snprintf(c->drv_desc, sizeof(c->drv_desc), "%s", ver->desc);
	c->ver[0] = ver->version_major;
	c->ver[1] = ver->version_minor;
	c->ver[2] = ver->version_patchlevel;
	drmFreeVersion(ver);
	close(fd);

	get_pci(c);
	get_dbc_states(c);
	get_ras(c);
	get_clients(c);
	return true;
}

static const char *state_name(const struct card *c, int i)
{
	if (c->dbc_state[i] >= 0)
		return dbc_state_names[c->dbc_state[i]];
	return c->state_text[i][0] ? c->state_text[i] : "?";
}

/* Bytes as the kernel's fdinfo would round them, for people */
static void print_size(uint64_t b)
{
	if (b && !(b % (1 << 20)))
		printf("%" PRIu64 " MiB", b >> 20);
	else if (b && !(b % 1024))
		printf("%" PRIu64 " KiB", b >> 10);
	else
		printf("%" PRIu64 " B", b);
}

static void print_client(const struct client *cl)
{
	bool any = false;

	printf("    pid %d (%s) fd %d, client %" PRIu64 ":", cl->pid, cl->comm, cl->fd,
	       cl->client_id);
	for (int e = 0; e < NUM_DBC; e++) {
		if (!cl->engine_ns[e] && !(cl->busy_pct[e] > 0))
			continue;
		printf("%s dbc%d %.3f ms", any ? "," : "", e, cl->engine_ns[e] / 1e6);
		if (cl->busy_pct[e] >= 0)
			printf(" (%.1f%%)", cl->busy_pct[e]);
		any = true;
	}
	if (!any)
		printf(" no DBC used");
	printf("\n      memory: ");
	print_size(cl->total);
	printf(" total, ");
	print_size(cl->resident);
	printf(" resident, ");
	print_size(cl->shared);
	printf(" shared, ");
	print_size(cl->active);
	printf(" active\n");
}

static void print_text(const struct card *c)
{
	printf("%s\n", c->node);
	printf("  driver name: %s (%s), version %d.%d.%d\n", c->drv_name, c->drv_desc,
	       c->ver[0], c->ver[1], c->ver[2]);
	if (c->bdf[0])
		printf("  PCI device:  %s\n", c->bdf);
	if (c->vendor[0])
		printf("  vendor:      %s\n", c->vendor);
	if (c->device[0])
		printf("  device:      %s\n", c->device);
	if (c->class[0])
		printf("  class:       %s\n", c->class);
	for (int i = 0; i < c->nbars; i++)
		printf("  BAR%d:        %#llx, %llu KiB%s\n", c->bars[i].index, c->bars[i].start,
		       c->bars[i].kib, c->bars[i].is64 ? ", 64-bit" : "");
	printf("  interrupts:  %d vector(s)\n", c->irqs);
	if (c->driver[0])
		printf("  driver:      %s\n", c->driver);

	if (c->has_states) {
		int shown = 0;

		printf("  DBC states:  ");
		for (int i = 0; i < NUM_DBC; i++) {
			if (c->dbc_state[i] == -2)
				continue;
			/* Four a line, under the first */
			printf("%s%d %s", !shown ? "" : shown % 4 ? ", " : "\n               ",
			       i, state_name(c, i));
			shown++;
		}
		printf("\n");
	} else {
		printf("  DBC states:  no dbc<N>_state in sysfs\n");
	}

	printf("  RAS:        ");
	for (int i = 0; i < 3; i++) {
		if (c->ras[i] >= 0)
			printf(" %s %lld", ras_attrs[i], c->ras[i]);
		else
			printf(" %s -", ras_attrs[i]);
	}
	printf("\n");

	printf("  clients:     %d\n", c->nclients);
	for (int i = 0; i < c->nclients; i++)
		print_client(&c->clients[i]);
}

static void json_str(const char *s)
{
	putchar('"');
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			printf("\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			printf("\\u%04x", *s);
		else
			putchar(*s);
	}
	putchar('"');
}

static void json_client(const struct client *cl)
{
	bool first = true;

	printf("{\"pid\":%d,\"comm\":", cl->pid);
	json_str(cl->comm);
	printf(",\"fd\":%d,\"client_id\":%" PRIu64 ",\"engine_ns\":{", cl->fd, cl->client_id);
	for (int e = 0; e < NUM_DBC; e++) {
		if (!cl->has_engine[e])
			continue;
		printf("%s\"dbc%d\":%" PRIu64, first ? "" : ",", e, cl->engine_ns[e]);
		first = false;
	}
	printf("},\"busy_percent\":{");
	first = true;
	for (int e = 0; e < NUM_DBC; e++) {
		if (!cl->has_engine[e] || cl->busy_pct[e] < 0)
			continue;
		printf("%s\"dbc%d\":%.2f", first ? "" : ",", e, cl->busy_pct[e]);
		first = false;
	}
	printf("},\"memory\":{\"total\":%" PRIu64 ",\"shared\":%" PRIu64 ",\"active\":%" PRIu64,
	       cl->total, cl->shared, cl->active);
	if (cl->has_resident)
		printf(",\"resident\":%" PRIu64 ",\"purgeable\":%" PRIu64, cl->resident,
		       cl->purgeable);
	printf("}}");
}

static void print_json(const struct card *c)
{
	printf("{\"node\":");
	json_str(c->node);
	printf(",\"driver\":{\"name\":");
	json_str(c->drv_name);
	printf(",\"desc\":");
	json_str(c->drv_desc);
	printf(",\"version\":\"%d.%d.%d\"},\"pci\":{\"address\":", c->ver[0], c->ver[1], c->ver[2]);
	json_str(c->bdf);
	printf(",\"vendor\":");
	json_str(c->vendor);
	printf(",\"device\":");
	json_str(c->device);
	printf(",\"class\":");
	json_str(c->class);
	printf(",\"driver\":");
	json_str(c->driver);
	printf(",\"interrupts\":%d,\"bars\":[", c->irqs);
	for (int i = 0; i < c->nbars; i++)
		printf("%s{\"bar\":%d,\"start\":%llu,\"kib\":%llu,\"64bit\":%s}", i ? "," : "",
		       c->bars[i].index, c->bars[i].start, c->bars[i].kib,
		       c->bars[i].is64 ? "true" : "false");
	printf("]},\"dbc_states\":");
	if (c->has_states) {
		bool first = true;

		printf("[");
		for (int i = 0; i < NUM_DBC; i++) {
			if (c->dbc_state[i] == -2)
				continue;
			printf("%s{\"dbc\":%d,\"state\":", first ? "" : ",", i);
			json_str(state_name(c, i));
			if (c->dbc_state[i] >= 0)
				printf(",\"value\":%d", c->dbc_state[i]);
			printf("}");
			first = false;
		}
		printf("]");
	} else {
		printf("null");
	}
	printf(",\"ras\":{");
	for (int i = 0; i < 3; i++) {
		printf("%s\"%s\":", i ? "," : "", ras_attrs[i]);
		if (c->ras[i] >= 0)
			printf("%lld", c->ras[i]);
		else
			printf("null");
	}
	printf("},\"clients\":[");
	for (int i = 0; i < c->nclients; i++) {
		if (i)
			printf(",");
		json_client(&c->clients[i]);
	}
	printf("]}");
}

/* One report of every card; returns the number of cards. */
static int report(bool json)
{
	static struct card card;
	struct dirent **names;
	int cards = 0;
	int n, i;

	n = scandir(ACCEL_DIR, &names, NULL, alphasort);
	if (n < 0) {
		fprintf(stderr, "%s: %s\n", ACCEL_DIR, strerror(errno));
		return -1;
	}
	cur_ns = now_ns();
	ncur = 0;
	if (json)
		printf("{\"time_ns\":%" PRIu64 ",\"cards\":[", cur_ns);
	for (i = 0; i < n; i++) {
		if (get_card(names[i]->d_name, &card)) {
			if (json) {
				if (cards)
					printf(",");
				print_json(&card);
			} else {
				print_text(&card);
			}
			cards++;
		}
		free(names[i]);
	}
	free(names);
	if (json)
		printf("],\"count\":%d}\n", cards);
	else
		printf("%d card(s)\n", cards);
	memcpy(prev, cur, sizeof(cur[0]) * ncur);
	nprev = ncur;
	prev_ns = cur_ns;
	fflush(stdout);
	return cards;
}

static void usage(FILE *f)
{
	fprintf(f, "usage: qaic-info [--json] [--watch]\n"
		"  --json   the same as one JSON object a report\n"
		"  --watch  a report every second, with each client's busy share\n"
		"           of each DBC since the last one; until interrupted\n");
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "watch", no_argument, NULL, 'w' },
		{ "help", no_argument, NULL, 'h' },
		{ }
	};
	bool json = false, watch = false;
	int opt, cards;

	while ((opt = getopt_long(argc, argv, "jwh", opts, NULL)) != -1) {
		switch (opt) {
		case 'j':
			json = true;
			break;
		case 'w':
			watch = true;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind < argc) {
		usage(stderr);
		return 2;
	}

	for (;;) {
		/* Text in --watch: a fresh screen each time */
		if (watch && !json)
			printf("\033[H\033[2J");
		cards = report(json);
		if (!watch)
			break;
		sleep(1);
	}
	return cards > 0 ? 0 : 1;
}
