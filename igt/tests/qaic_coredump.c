// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The qaic authors.
 */

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/klog.h>
#include <unistd.h>

#include "igt_qaic.h"
#include "igt_qaic_sync.h"

/**
 * TEST: qaic coredump
 * Category: Core
 * Description: A hung DBC and a crashed card leave a devcoredump of what the driver saw: rings, registers and jobs in flight.
 * Feature: qaic
 *
 * SUBTEST: dbc-hang
 * Description: Check that the reset of a hung DBC leaves one dump with its header, the DBC's indexes and registers, the hung job and its request, and that writing to it frees it.
 * Run type: FULL
 *
 * SUBTEST: dbc-hang-all
 * Description: Check that all 16 DBCs of a card hanging at the same instant leave one dump, of one of them, without a clash in sysfs, and that all are reset and run work.
 * Run type: FULL
 *
 * SUBTEST: card-crash
 * Description: Check that a crash of the card under work on two DBCs leaves one dump with both DBCs and their jobs, without register reads.
 * Run type: FULL
 *
 * SUBTEST: memdump
 * Description: Check that a crashed card's memory, offered by its boot loader in Sahara's memory-debug mode, ends up in a devcoredump: header, table and every byte of every region.
 * Run type: FULL
 *
 * SUBTEST: memdump-off
 * Description: Check that a card that offers no memory after a crash leaves no dump and boots.
 * Run type: FULL
 *
 * SUBTEST: memdump-bad-length
 * Description: Check that a table whose length is not a whole number of entries is refused with one error, and the card boots and computes.
 * Run type: FULL
 *
 * SUBTEST: memdump-too-many
 * Description: Check that a table of more entries than the driver takes is refused with one error, and the card boots and computes.
 * Run type: FULL
 *
 * SUBTEST: memdump-huge
 * Description: Check that a region larger than a dump may be is refused with one error, and the card boots and computes.
 * Run type: FULL
 *
 * SUBTEST: ssr-dump
 * Description: Check that the memory a crashed subsystem offers during its restart reaches devcoredump, every byte, and the DBC comes back.
 * Run type: FULL
 *
 * SUBTEST: ssr-dump-%s
 * Description: Check the host's answer to a crash dump offered during a subsystem restart with %arg[1]: the dump or none as the case says, the restart ends and the DBC computes again.
 * Run type: FULL
 *
 * arg[1]:
 *
 * @bad-length:		a table length that is not a whole number of entries (declined)
 * @too-many:		a table of more entries than the driver takes (declined)
 * @huge:		a region larger than a dump may be (abandoned)
 * @short-read:		a read answered one byte short (abandoned)
 * @long-read:		a read answered one byte long, past the host's buffer (abandoned)
 * @done-fails:		the card's end of the dump with a non-zero status (abandoned)
 * @empty-region:	a region of no bytes (abandoned)
 * @wrapping-region:	a region whose end wraps past 2^64 (abandoned)
 * @offer-twice:	a second offer during the dump (declined; the first dump is made)
 * @late-answer:	an answer to no read, after the dump's end (dropped; the dump is made)
 * @cut-short:		the restart's next step instead of a read's answer (abandoned)
 * @stall:		the table answered, then no read (abandoned after sahara_timeout_ms)
 *
 * SUBTEST: memdump-short-read
 * Description: Check that a read the card answers one byte short abandons the dump with one error, and the card boots and computes.
 * Run type: FULL
 */

IGT_TEST_DESCRIPTION("A hung DBC and a crashed card leave a devcoredump of what the driver saw; "
		     "a crashed card's own memory leaves another.");

#define SZ_4K		4096ull
#define DEV_ADDR	(56ull << 20)
#define QUEUE_SIZE	64
#define DEVCD		"/sys/class/devcoredump"
#define DUMP_MAX	(1 << 20)
#define LOG_SIZE	(4 << 20)
#define BOOT_WAIT_MS	30000
/* DBCs dbc-hang-all hangs at once: all a card has */
#define HANG_DBCS	16

/* The card's memory dump (Documentation/accel/qaic/qaic.rst) */
#define MD_MAGIC	0x1234567890abcdefull
#define MD_HDR_LEN	32
#define MD_ENTRY_LEN	64
#define MD_NR_REGIONS	3

/* The emulated card's good table (tests/emu/manual.rst) */
static const struct {
	uint64_t type, addr, len;
	const char *desc, *file;
} md_regions[MD_NR_REGIONS] = {
	{ 1, 0x80000000ull, 0x10000, "ddr", "ddr.bin" },
	{ 2, 0x1a000000ull, 0x3001, "nsp0_tcm", "nsp0_tcm.bin" },
	{ 3, 0x0c300000ull, 16, "msg_ram", "msg_ram.bin" },
};

/* Whether dump @name (devcdN) is of the card at @bdf */
static bool dump_is_of(const char *name, const char *bdf)
{
	char link[PATH_MAX], target[PATH_MAX];
	ssize_t n;

	if (strncmp(name, "devcd", 5))
		return false;
	snprintf(link, sizeof(link), DEVCD "/%s/failing_device", name);
	n = readlink(link, target, sizeof(target) - 1);
	if (n <= 0)
		return false;
	target[n] = '\0';
	return !strcmp(strrchr(target, '/') + 1, bdf);
}

/* The first devcdN of the card at @bdf in @name ("" if none); how many there are */
static int find_dumps(const char *bdf, char *name, size_t len)
{
	DIR *dir = opendir(DEVCD);
	struct dirent *e;
	int count = 0;

	if (name)
		name[0] = '\0';
	igt_assert(dir);
	while ((e = readdir(dir))) {
		if (!dump_is_of(e->d_name, bdf))
			continue;
		if (!count++ && name)
			snprintf(name, len, "%s", e->d_name);
	}
	closedir(dir);
	return count;
}

static void find_dump(const char *bdf, char *name, size_t len)
{
	find_dumps(bdf, name, len);
}

/*
 * Frees a dump: devcoredump drops it once its data is written to, from a
 * work item, so the dump may still be listed a moment; a write to one it
 * is already dropping fails with ENODEV (Linux 7.x).
 */
static void free_dump(const char *name)
{
	char path[PATH_MAX];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), DEVCD "/%s/data", name);
	fd = open(path, O_WRONLY);
	if (fd < 0)
		return;
	n = write(fd, "1", 1);
	igt_assert_f(n == 1 || (n < 0 && errno == ENODEV), "freeing %s: %s\n", name,
		     n < 0 ? strerror(errno) : "short write");
	close(fd);
}

/* Frees every dump of the card, and waits (up to 2 s) until none is left. */
static void free_dumps(const char *bdf)
{
	uint64_t start = igt_qaic_now_ms();
	char name[64];

	for (find_dump(bdf, name, sizeof(name)); name[0]; find_dump(bdf, name, sizeof(name))) {
		igt_assert_f(igt_qaic_now_ms() - start < 2000, "%s stays in devcoredump\n", name);
		free_dump(name);
		usleep(10000);
	}
}

/* Waits for the card's dump; returns its text (free() it) */
static char *read_dump(const char *bdf, char *name, size_t len)
{
	uint64_t start = igt_qaic_now_ms();
	char path[PATH_MAX], *buf = malloc(DUMP_MAX);
	size_t got = 0;
	ssize_t n;
	int fd;

	igt_assert(buf);
	do {
		find_dump(bdf, name, len);
	} while (!name[0] && igt_qaic_now_ms() - start < 10000 && !usleep(20000));
	igt_assert_f(name[0], "no devcoredump of %s\n", bdf);

	snprintf(path, sizeof(path), DEVCD "/%s/data", name);
	fd = open(path, O_RDONLY);
	igt_assert_f(fd >= 0, "open %s: %s\n", path, strerror(errno));
	while ((n = read(fd, buf + got, DUMP_MAX - 1 - got)) > 0)
		got += n;
	close(fd);
	buf[got] = '\0';
	igt_debug("%s", buf);
	return buf;
}

/* How many lines of @dump begin with @prefix */
static int count_lines(const char *dump, const char *prefix)
{
	size_t len = strlen(prefix);
	int n = 0;

	for (const char *p = dump; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		n += !strncmp(p, prefix, len);
	return n;
}

static int open_card(char *bdf, size_t len)
{
	int fd = igt_qaic_open();

	igt_require_f(!access(DEVCD, F_OK), "no devcoredump in this kernel\n");
	igt_require_f(igt_qaic_has_syncobj(fd), "upstream's qaic makes none of these dumps\n");
	igt_qaic_card_bdf(fd, bdf, len);
	free_dumps(bdf);
	return fd;
}

static void test_dbc_hang(void)
{
	char bdf[32], name[64], prefix[64];
	struct igt_qaic_bo bo;
	uint64_t start;
	uint32_t dbc;
	char *dump;
	int fd = open_card(bdf, sizeof(bdf));

	dbc = igt_qaic_activate(fd, QUEUE_SIZE);
	igt_qaic_bo_create(fd, SZ_4K, &bo);
	igt_qaic_attach_simple(fd, bo.handle, dbc, IGT_QAIC_DIR_TO_DEV, SZ_4K, DEV_ADDR);
	igt_qaic_emu_hang_dbc(fd, dbc);
	igt_qaic_execute_bo(fd, dbc, bo.handle, IGT_QAIC_DIR_TO_DEV);
	igt_assert_eq(__igt_qaic_wait(fd, bo.handle, dbc, 30000), -EIO);

	dump = read_dump(bdf, name, sizeof(name));
	igt_assert_eq(count_lines(dump, "qaic devcoredump 1\n"), 1);
	igt_assert_eq(count_lines(dump, "reason: dbc-hang\n"), 1);
	igt_assert_eq(count_lines(dump, "time_ns: "), 1);
	snprintf(prefix, sizeof(prefix), "dbc %u: nelem %u ", dbc, QUEUE_SIZE);
	igt_assert_eq(count_lines(dump, prefix), 1);
	snprintf(prefix, sizeof(prefix), "dbc %u: hw REQHP ", dbc);
	igt_assert_eq(count_lines(dump, prefix), 1);
	/* The hung job: one request, run, no response */
	snprintf(prefix, sizeof(prefix), "job %u: req_id ", dbc);
	igt_assert_eq(count_lines(dump, prefix), 1);
	igt_assert_f(strstr(dump, " requests 1 ") && strstr(dump, " responses 0/1 ran 1 "),
		     "the hung job's line is not as expected\n");
	snprintf(prefix, sizeof(prefix), "req %u.", dbc);
	igt_assert_eq(count_lines(dump, prefix), 1);
	igt_assert_eq(count_lines(dump, "end\n"), 1);
	igt_assert(dump[strlen(dump) - 1] == '\n');
	free(dump);

	/* devcoredump deletes it from a work item: soon, not at once */
	free_dump(name);
	start = igt_qaic_now_ms();
	do {
		find_dump(bdf, name, sizeof(name));
	} while (name[0] && igt_qaic_now_ms() - start < 5000 && !usleep(20000));
	igt_assert_f(!name[0], "the dump is still there 5 s after it was written to\n");

	/* The DBC was reset, not given up: it runs work */
	igt_qaic_round_trip(fd, dbc, DEV_ADDR, SZ_4K, 81);
	igt_qaic_bo_destroy(fd, &bo);
	close(fd);
}

static void test_card_crash(void)
{
	char bdf[32], name[64], prefix[64];
	struct igt_qaic_bo stall[2];
	uint32_t dbc[2], again;
	char *dump;
	int fd = open_card(bdf, sizeof(bdf)), ret;

	for (int i = 0; i < 2; i++) {
		dbc[i] = igt_qaic_activate(fd, QUEUE_SIZE);
		igt_qaic_stall_bo(fd, dbc[i], 0, &stall[i]);
		igt_qaic_execute_bo(fd, dbc[i], stall[i].handle, IGT_QAIC_DIR_TO_DEV);
	}
	igt_assert_eq(__igt_qaic_emu_sys_error(fd, 20), 0);

	dump = read_dump(bdf, name, sizeof(name));
	igt_assert_eq(count_lines(dump, "qaic devcoredump 1\n"), 1);
	igt_assert_eq(count_lines(dump, "reason: card-crash\n"), 1);
	for (int i = 0; i < 2; i++) {
		snprintf(prefix, sizeof(prefix), "dbc %u: nelem %u ", dbc[i], QUEUE_SIZE);
		igt_assert_eq(count_lines(dump, prefix), 1);
		snprintf(prefix, sizeof(prefix), "job %u: req_id ", dbc[i]);
		igt_assert_eq(count_lines(dump, prefix), 1);
	}
	/* A crashed card's registers are not read */
	igt_assert_eq(count_lines(dump, "dbc 0: hw") + count_lines(dump, "dbc 1: hw"), 0);
	igt_assert_eq(count_lines(dump, "end\n"), 1);
	free(dump);
	free_dump(name);

	while ((ret = __igt_qaic_activate(fd, QUEUE_SIZE, &again)) == -ENODEV)
		usleep(50000);
	igt_assert_eq(ret, 0);
	igt_qaic_round_trip(fd, again, DEV_ADDR, SZ_4K, 82);
	for (int i = 0; i < 2; i++)
		igt_qaic_bo_destroy(fd, &stall[i]);
	close(fd);
}

/* Byte @off of region @region of the emulated card's memory */
static uint8_t md_byte(unsigned int region, uint64_t off)
{
	return (uint8_t)((((uint32_t)off | (uint32_t)region << 24) * 0x9e3779b1u) >> 24);
}

static uint64_t le64(const uint8_t *p)
{
	uint64_t v = 0;

	for (int i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

static char *klog;

/* Lines of the kernel log of card @bdf (NULL: of anything) containing @what */
static int count_klog(const char *bdf, const char *what)
{
	char dev[48];
	const char *p;
	int n = 0, len;

	if (!klog)
		klog = malloc(LOG_SIZE + 1);
	igt_assert(klog);
	len = klogctl(3 /* SYSLOG_ACTION_READ_ALL */, klog, LOG_SIZE);
	igt_assert_f(len >= 0, "klogctl: %s\n", strerror(errno));
	klog[len] = '\0';
	snprintf(dev, sizeof(dev), "qaic %s: ", bdf ? bdf : "");
	for (p = klog; (p = strstr(p, what)); p++) {
		const char *bol = p;

		while (bol > klog && bol[-1] != '\n')
			bol--;
		n += !bdf || (strstr(bol, dev) && strstr(bol, dev) < p);
	}
	return n;
}

/*
 * The jobs are queued within a millisecond, so their timeouts fire together
 * and the DBCs' timeout works dump at once. devcoredump keeps one dump per
 * device: the others are dropped, and must not clash with it in sysfs. The
 * clash needs one work to sleep inside devcoredump while another looks for
 * the dump (seen when the card fell off the bus: qaic_unplug), so this
 * subtest does not always catch a driver that lets them race.
 */
static void test_dbc_hang_all(void)
{
	static const char dup[] = "cannot create duplicate filename";
	char bdf[32], name[64], prefix[64];
	struct igt_qaic_bo bo[HANG_DBCS];
	uint32_t dbc[HANG_DBCS];
	int fd = open_card(bdf, sizeof(bdf)), dups = count_klog(NULL, dup), found = 0;
	char *dump;

	for (int i = 0; i < HANG_DBCS; i++) {
		dbc[i] = igt_qaic_activate(fd, QUEUE_SIZE);
		igt_qaic_bo_create(fd, SZ_4K, &bo[i]);
		igt_qaic_attach_simple(fd, bo[i].handle, dbc[i], IGT_QAIC_DIR_TO_DEV, SZ_4K,
				       DEV_ADDR + i * SZ_4K);
		igt_qaic_emu_hang_dbc(fd, dbc[i]);
	}
	for (int i = 0; i < HANG_DBCS; i++)
		igt_qaic_execute_bo(fd, dbc[i], bo[i].handle, IGT_QAIC_DIR_TO_DEV);
	for (int i = 0; i < HANG_DBCS; i++)
		igt_assert_eq(__igt_qaic_wait(fd, bo[i].handle, dbc[i], 30000), -EIO);

	dump = read_dump(bdf, name, sizeof(name));
	igt_assert_eq(find_dumps(bdf, NULL, 0), 1);
	igt_assert_eq(count_lines(dump, "reason: dbc-hang\n"), 1);
	for (int i = 0; i < HANG_DBCS; i++) {
		snprintf(prefix, sizeof(prefix), "dbc %u: nelem %u ", dbc[i], QUEUE_SIZE);
		found += count_lines(dump, prefix);
	}
	igt_assert_eq(found, 1);
	igt_assert_eq(count_lines(dump, "end\n"), 1);
	free(dump);
	free_dump(name);
	igt_assert_eq(count_klog(NULL, dup), dups);

	for (int i = 0; i < HANG_DBCS; i++) {
		igt_qaic_round_trip(fd, dbc[i], DEV_ADDR, SZ_4K, 84 + i);
		igt_qaic_bo_destroy(fd, &bo[i]);
	}
	close(fd);
}

/* Reads the whole binary dump @name; its length in @len (free() it) */
static uint8_t *read_binary_dump(const char *name, size_t *len)
{
	size_t cap = 1 << 20, got = 0;
	uint8_t *buf = malloc(cap);
	char path[PATH_MAX];
	ssize_t n;
	int fd;

	igt_assert(buf);
	snprintf(path, sizeof(path), DEVCD "/%s/data", name);
	fd = open(path, O_RDONLY);
	igt_assert_f(fd >= 0, "open %s: %s\n", path, strerror(errno));
	while ((n = read(fd, buf + got, cap - got)) > 0) {
		got += n;
		if (got == cap) {
			cap *= 2;
			buf = realloc(buf, cap);
			igt_assert(buf);
		}
	}
	igt_assert_f(n == 0, "read %s: %s\n", path, strerror(errno));
	close(fd);
	*len = got;
	return buf;
}

/* Header, table and every byte of the regions of the emulated card's dump */
static void check_memdump(const uint8_t *d, size_t len)
{
	size_t pos = MD_HDR_LEN + MD_NR_REGIONS * MD_ENTRY_LEN;

	igt_assert_lte(MD_HDR_LEN, len);
	igt_assert_eq_u64(le64(d), MD_MAGIC);
	igt_assert_eq_u64(le64(d + 8), 1);
	igt_assert_eq_u64(le64(d + 16), len);
	igt_assert_eq_u64(le64(d + 24), MD_NR_REGIONS * MD_ENTRY_LEN);
	for (int i = 0; i < MD_NR_REGIONS; i++) {
		const uint8_t *e = d + MD_HDR_LEN + i * MD_ENTRY_LEN;

		igt_assert_eq_u64(le64(e), md_regions[i].type);
		igt_assert_eq_u64(le64(e + 8), md_regions[i].addr);
		igt_assert_eq_u64(le64(e + 16), md_regions[i].len);
		igt_assert(!memcmp(e + 24, md_regions[i].desc, strlen(md_regions[i].desc) + 1));
		igt_assert(!memcmp(e + 44, md_regions[i].file, strlen(md_regions[i].file) + 1));
		pos += md_regions[i].len;
	}
	igt_assert_eq_u64(pos, len);

	pos = MD_HDR_LEN + MD_NR_REGIONS * MD_ENTRY_LEN;
	for (int i = 0; i < MD_NR_REGIONS; i++) {
		for (uint64_t off = 0; off < md_regions[i].len; off++)
			igt_assert_f(d[pos + off] == md_byte(i, off),
				     "region %d byte %" PRIu64 ": %#x, expected %#x\n", i, off,
				     d[pos + off], md_byte(i, off));
		pos += md_regions[i].len;
	}
}

enum md_expect {
	MD_DUMP,	/* the whole dump */
	MD_NONE,	/* no dump, no word of one */
	MD_REFUSED,	/* no dump, one error naming why */
};

/*
 * The bench igt/run gives this test: six cards, card N (igt_qaic_card_addr())
 * at PCI slot N, each with its own qaic-emu --memdump mode. Elsewhere a
 * missing card skips.
 */
static const struct {
	const char *name;
	unsigned int slot;
	enum md_expect expect;
	const char *why;	/* MD_REFUSED: in the error */
	const char *describe;
} memdumps[] = {
	{ "memdump", 0, MD_DUMP, NULL,
	  "Check that a crashed card's memory dump reaches devcoredump, every byte." },
	{ "memdump-off", 1, MD_NONE, NULL,
	  "Check that a card without a memory dump just boots after a crash." },
	{ "memdump-bad-length", 2, MD_REFUSED, "table of 200 bytes",
	  "Check that a table of a broken length is refused." },
	{ "memdump-too-many", 3, MD_REFUSED, "table of 19200 bytes",
	  "Check that a table of too many entries is refused." },
	{ "memdump-huge", 4, MD_REFUSED, "region 0: 1073741824 bytes",
	  "Check that a region over the dump's limit is refused." },
	{ "memdump-short-read", 5, MD_REFUSED, "16383 bytes for a read of 16384 at 0x80004000",
	  "Check that a read answered short abandons the dump." },
};

static void test_memdump(unsigned int slot, enum md_expect expect, const char *why)
{
	char bdf[32], name[64], refused[160];
	int up, abandoned, fd, ret;
	uint32_t dbc;
	uint64_t start;
	uint8_t *dump;
	size_t len;

	igt_require_f(igt_qaic_card_addr(slot, bdf, sizeof(bdf)), "no card %u\n", slot);
	igt_require_f(!access(DEVCD, F_OK), "no devcoredump in this kernel\n");
	igt_require_f(!access("/sys/module/qaic/parameters/sahara_timeout_ms", F_OK),
		      "upstream's qaic: no sahara_timeout_ms; its memory dump is not checked here\n");
	fd = igt_qaic_open_bdf(bdf);
	free_dumps(bdf);
	up = count_klog(bdf, "card in mission mode");
	abandoned = count_klog(bdf, "memory dump abandoned: ");

	/* No DBC is active: the driver has nothing of its own to dump */
	ret = __igt_qaic_emu_sys_error(fd, 20);
	igt_require_f(ret != IGT_QAIC_EMU_PT_E_UNKNOWN_OP, "the emulator has no EMU_PT_SYS_ERROR\n");
	igt_assert_eq(ret, 0);
	start = igt_qaic_now_ms();
	while (count_klog(bdf, "card in mission mode") == up &&
	       igt_qaic_now_ms() - start < BOOT_WAIT_MS)
		usleep(50000);
	igt_assert_f(count_klog(bdf, "card in mission mode") > up,
		     "card %s not back in mission mode in %d ms\n", bdf, BOOT_WAIT_MS);

	/* The dump, if any, was made before the card left SBL */
	find_dump(bdf, name, sizeof(name));
	snprintf(refused, sizeof(refused), "memory dump abandoned: %s", why ? why : "");
	switch (expect) {
	case MD_DUMP:
		igt_assert_f(name[0], "no memory dump of %s\n", bdf);
		dump = read_binary_dump(name, &len);
		check_memdump(dump, len);
		free(dump);
		free_dump(name);
		igt_assert_eq(count_klog(bdf, "memory dump abandoned: "), abandoned);
		break;
	case MD_NONE:
		igt_assert_f(!name[0], "a dump of %s\n", bdf);
		igt_assert_eq(count_klog(bdf, "memory dump"), 0);
		break;
	case MD_REFUSED:
		igt_assert_f(!name[0], "a dump of %s\n", bdf);
		igt_assert_eq(count_klog(bdf, "memory dump abandoned: "), abandoned + 1);
		igt_assert_f(count_klog(bdf, refused) > 0, "no \"%s\" in the log\n", refused);
		break;
	}

	/* The card booted on and computes */
	while ((ret = __igt_qaic_activate(fd, QUEUE_SIZE, &dbc)) == -ENODEV)
		usleep(50000);
	igt_assert_eq(ret, 0);
	igt_qaic_round_trip(fd, dbc, DEV_ADDR, SZ_4K, 83 + slot);
	close(fd);
}

/*
 * Waits (up to 10 s) until the card grants DBC @victim again after its
 * restart, activating and letting go of the others it grants meanwhile.
 */
static uint32_t dbc_back(int fd, uint32_t victim)
{
	uint64_t start = igt_qaic_now_ms();
	uint32_t again;
	int ret;

	while ((ret = __igt_qaic_activate(fd, QUEUE_SIZE, &again)) == 0 && again != victim &&
	       igt_qaic_now_ms() - start < 10000) {
		igt_qaic_deactivate(fd, again);
		usleep(20000);
	}
	igt_assert_eq(ret, 0);
	igt_assert_f(again == victim, "DBC %u is not back after its restart\n", victim);
	return again;
}

/*
 * The crash dump of @bdf's restart, checked byte by byte and freed; it is
 * the one dump the driver logged since @dumped were.
 */
static void take_ssr_dump(const char *bdf, int dumped)
{
	uint64_t start = igt_qaic_now_ms();
	char name[64];
	uint8_t *dump;
	size_t len;

	do {
		find_dump(bdf, name, sizeof(name));
	} while (!name[0] && igt_qaic_now_ms() - start < 10000 && !usleep(20000));
	igt_assert_f(name[0], "no crash dump of %s\n", bdf);
	dump = read_binary_dump(name, &len);
	check_memdump(dump, len);
	free(dump);
	free_dump(name);
	igt_assert_eq(count_klog(bdf, "crash dump of "), dumped + 1);
}

/*
 * A subsystem restart whose card offers the crashed subsystem's memory
 * (qaic-emu's EMU_SSR_DUMP: the same good table as the card's memory
 * dump) between BEFORE_POWER_UP and AFTER_POWER_UP.
 */
static void test_ssr_dump(void)
{
	char bdf[32];
	uint32_t victim;
	int fd = open_card(bdf, sizeof(bdf)), dumped, ret;

	victim = igt_qaic_activate(fd, QUEUE_SIZE);
	dumped = count_klog(bdf, "crash dump of ");
	ret = __igt_qaic_emu_ssr(fd, victim, IGT_QAIC_EMU_SSR_DUMP);
	igt_require_f(ret != IGT_QAIC_EMU_PT_E_UNKNOWN_OP, "the emulator has no EMU_PT_SSR\n");
	igt_assert_eq(ret, 0);

	take_ssr_dump(bdf, dumped);
	igt_assert_eq(count_klog(bdf, "crash dump abandoned"), 0);

	/* The restart ends: the card grants the DBC again, and it computes */
	igt_qaic_round_trip(fd, dbc_back(fd, victim), DEV_ADDR, SZ_4K, 90);
	close(fd);
}

/*
 * Crash dumps offered during a restart with one fault each. The host
 * declines the offer (why NULL, no dump), abandons the dump with one line
 * naming the fault (why), or, for a fault that is not the dump's (dumped),
 * drops what is out of turn and makes the dump.
 */
static const struct {
	const char *name;
	uint32_t mode;		/* IGT_QAIC_EMU_SSR_DUMP_* */
	const char *why;	/* in the line that abandons it */
	bool dumped;
} ssr_dump_faults[] = {
	{ "bad-length", IGT_QAIC_EMU_SSR_DUMP_BAD_LENGTH, NULL, false },
	{ "too-many", IGT_QAIC_EMU_SSR_DUMP_TOO_MANY, NULL, false },
	{ "huge", IGT_QAIC_EMU_SSR_DUMP_HUGE, "region 0: 1073741824 bytes", false },
	{ "short-read", IGT_QAIC_EMU_SSR_DUMP_SHORT_READ, "16383 bytes for a read of 16384", false },
	{ "long-read", IGT_QAIC_EMU_SSR_DUMP_LONG_READ, "its answer did not arrive: -75", false },
	{ "done-fails", IGT_QAIC_EMU_SSR_DUMP_DONE_FAILS, "the card ended it with status 0x1", false },
	{ "empty-region", IGT_QAIC_EMU_SSR_DUMP_EMPTY_REGION, "region 1: 0 bytes at 0x1a000000", false },
	{ "wrapping-region", IGT_QAIC_EMU_SSR_DUMP_WRAPPING_REGION,
	  "region 2: 16 bytes at 0xfffffffffffffff8", false },
	{ "offer-twice", IGT_QAIC_EMU_SSR_DUMP_OFFER_TWICE, NULL, true },
	{ "late-answer", IGT_QAIC_EMU_SSR_DUMP_LATE_ANSWER, NULL, true },
	{ "cut-short", IGT_QAIC_EMU_SSR_DUMP_CUT_SHORT, "the restart went on (event 0x10)", false },
	{ "stall", IGT_QAIC_EMU_SSR_DUMP_STALL, "its answer did not arrive: -110", false },
};

static void test_ssr_dump_fault(unsigned int i)
{
	char bdf[32], name[64];
	int fd = open_card(bdf, sizeof(bdf)), dumped, abandoned, ret;
	uint32_t victim;

	victim = igt_qaic_activate(fd, QUEUE_SIZE);
	dumped = count_klog(bdf, "crash dump of ");
	abandoned = count_klog(bdf, "crash dump abandoned");
	ret = __igt_qaic_emu_ssr(fd, victim, ssr_dump_faults[i].mode);
	igt_require_f(ret != IGT_QAIC_EMU_PT_E_UNKNOWN_OP && ret != IGT_QAIC_EMU_PT_E_RANGE,
		      "the emulator has no SSR dump mode %u\n", ssr_dump_faults[i].mode);
	igt_assert_eq(ret, 0);

	/*
	 * The host gives a faulty dump up at once, a stalled one after
	 * sahara_timeout_ms; the restart then ends: the card grants the DBC
	 * again, and it computes.
	 */
	for (uint64_t start = igt_qaic_now_ms(); ssr_dump_faults[i].why &&
	     !count_klog(bdf, ssr_dump_faults[i].why) && igt_qaic_now_ms() - start < 20000;)
		usleep(50000);
	igt_qaic_round_trip(fd, dbc_back(fd, victim), DEV_ADDR, SZ_4K, 91 + i);

	/* The dump, or none, and one line if it was abandoned */
	if (ssr_dump_faults[i].dumped) {
		take_ssr_dump(bdf, dumped);
	} else {
		find_dump(bdf, name, sizeof(name));
		igt_assert_f(!name[0], "a dump of %s: %s\n", bdf, name);
		igt_assert_eq(count_klog(bdf, "crash dump of "), dumped);
	}
	igt_assert_eq(count_klog(bdf, "crash dump abandoned"),
		      abandoned + !!ssr_dump_faults[i].why);
	if (ssr_dump_faults[i].why)
		igt_assert_f(count_klog(bdf, ssr_dump_faults[i].why) > 0, "no \"%s\" in the log\n",
			     ssr_dump_faults[i].why);
	close(fd);
}

igt_main
{
	igt_describe("Check the dump a hung DBC leaves.");
	igt_subtest("dbc-hang")
		test_dbc_hang();

	igt_describe("Check that all DBCs hanging at once leave one dump and no clash.");
	igt_subtest("dbc-hang-all")
		test_dbc_hang_all();

	igt_describe("Check the dump a crashed card leaves.");
	igt_subtest("card-crash")
		test_card_crash();

	igt_describe("Check the memory a crashed subsystem offers during its restart.");
	igt_subtest("ssr-dump")
		test_ssr_dump();

	for (unsigned int i = 0; i < ARRAY_SIZE(ssr_dump_faults); i++) {
		igt_describe_f("Check the host's answer to a restart's crash dump with a fault (%s), and that the DBC comes back.",
			       ssr_dump_faults[i].name);
		igt_subtest_f("ssr-dump-%s", ssr_dump_faults[i].name)
			test_ssr_dump_fault(i);
	}

	for (unsigned int i = 0; i < sizeof(memdumps) / sizeof(memdumps[0]); i++) {
		igt_describe(memdumps[i].describe);
		igt_subtest(memdumps[i].name)
			test_memdump(memdumps[i].slot, memdumps[i].expect, memdumps[i].why);
	}
}
