// SPDX-License-Identifier: GPL-2.0-only
/*
 * tools/qaic-mkfw: the firmware of both cards, each file an intact image
 * of its id (fw_image.h); the AIC200's SBL in two BHIe segments and its
 * 28 images, one read past SAHARA_MAX_READ, small ones too; --omit of
 * either card's files; a second run leaves good files alone and mends a
 * damaged one; a bad command line.
 *
 * Copyright (c) 2026 The qaic authors.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "emu_test.h"
#include "fw_image.h"
#include "sahara_proto.h"
#include "sahara_images.h"

#define SEG_LEN		(512 * 1024)	/* Linux's BHIe segment */

static const char *mkfw;
static char dir[] = "/tmp/qaic-mkfw-test.XXXXXX";

/* The payload length of qcom/@name, an intact image of @id; -1 if not. */
static long image_payload(const char *name, uint32_t id)
{
	char path[4096];
	uint8_t *buf;
	long len, payload = -1;
	FILE *f;

	snprintf(path, sizeof(path), "%s/qcom/%s", dir, name);
	f = fopen(path, "rb");
	if (!f)
		return -1;
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	rewind(f);
	buf = malloc(len ? len : 1);
	if (buf && fread(buf, 1, len, f) == (size_t)len && fw_image_ok(buf, len, id))
		payload = len - FW_IMAGE_HDR_LEN;
	free(buf);
	fclose(f);
	return payload;
}

static ino_t inode_of(const char *name)
{
	char path[4096];
	struct stat st;

	snprintf(path, sizeof(path), "%s/qcom/%s", dir, name);
	return stat(path, &st) ? 0 : st.st_ino;
}

/* qaic-mkfw with @argv (NULL-terminated, at most 4) and DIR if @with_dir. */
static int run_mkfw(const char *const *argv, bool with_dir)
{
	const char *args[8] = { mkfw };
	unsigned int n = 1;
	pid_t pid;
	int st;

	for (; argv && *argv && n < 6; argv++)
		args[n++] = *argv;
	if (with_dir)
		args[n++] = dir;
	pid = fork();
	if (pid == 0) {
		if (!freopen("/dev/null", "w", stderr))
			_exit(126);
		execv(mkfw, (char *const *)args);
		_exit(127);
	}
	return pid > 0 && waitpid(pid, &st, 0) == pid && WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void remove_qcom(void)
{
	char cmd[4200];

	snprintf(cmd, sizeof(cmd), "rm -rf %s/qcom", dir);
	CHECK_EQ(system(cmd), 0);
}

/*
 * The AIC200's firmware: an SBL of two BHIe segments, every image of its
 * table intact, one past SAHARA_MAX_READ, the small sizes a read meets;
 * under 4 MiB. The AIC100's beside it, as before.
 */
static void test_both_cards(void)
{
	static const long small[] = { 0, 1, 4096, 65535, 65536 };
	const struct emu_sahara_table *t = &emu_sahara_aic200_table;
	const struct emu_sahara_table *t100 = &emu_sahara_aic100_table;
	long total = 0, big = 0, sbl;

	remove_qcom();
	CHECK_EQ(run_mkfw(NULL, true), 0);
	sbl = image_payload("aic200/sbl.bin", FW_IMAGE_ID_SBL);
	CHECK(sbl + FW_IMAGE_HDR_LEN > SEG_LEN);
	CHECK(sbl + FW_IMAGE_HDR_LEN <= 2 * SEG_LEN);
	for (unsigned int i = 0; i < t->nr; i++) {
		long p = image_payload(t->images[i].file, t->images[i].id);

		CHECK(p >= 0);
		if (p < 0)
			fprintf(stderr, "  (%s)\n", t->images[i].file);
		total += FW_IMAGE_HDR_LEN + p;
		big += p > SAHARA_MAX_READ;
	}
	CHECK(big >= 1);
	for (unsigned int k = 0; k < sizeof(small) / sizeof(small[0]); k++) {
		bool found = false;

		for (unsigned int i = 0; i < t->nr; i++)
			found |= image_payload(t->images[i].file, t->images[i].id) == small[k];
		CHECK(found);
	}
	CHECK(total + FW_IMAGE_HDR_LEN + sbl < 4l << 20);
	/* Another image's id is no good. */
	CHECK_EQ(image_payload(t->images[0].file, t->images[1].id), -1);

	CHECK_EQ(image_payload("aic100/sbl.bin", FW_IMAGE_ID_SBL), 48 * 1024);
	for (unsigned int i = 0; i < t100->nr; i++)
		CHECK(image_payload(t100->images[i].file, t100->images[i].id) >= 0);
}

/*
 * --omit leaves one file out: a card's path, or a bare name, which is
 * the AIC100's.
 */
static void test_omit(void)
{
	static const struct {
		const char *omit;
		const char *gone, *kept;	/* under qcom/ */
		uint32_t gone_id, kept_id;
	} cases[] = {
		{ "aic200/pvs.bin", "aic200/pvs.bin", "aic200/sti.bin", 78, 74 },
		{ "aic200/uefi.elf", "aic200/uefi.elf", "aic200/sbl.bin", 5, 0 },
		{ "aic100/fw1.bin", "aic100/fw1.bin", "aic200/aic200-nsp.bin", 1, 12 },
		{ "fw6.bin", "aic100/fw6.bin", "aic100/fw5.bin", 6, 5 },
		{ "sbl.bin", "aic100/sbl.bin", "aic200/sbl.bin", 0, 0 },
	};

	for (unsigned int k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		const char *argv[] = { "--omit", cases[k].omit, NULL };
		int before = emu_test_failures;

		remove_qcom();
		CHECK_EQ(run_mkfw(argv, true), 0);
		CHECK_EQ(image_payload(cases[k].gone, cases[k].gone_id), -1);
		CHECK(image_payload(cases[k].kept, cases[k].kept_id) >= 0);
		if (emu_test_failures != before)
			fprintf(stderr, "  (--omit %s)\n", cases[k].omit);
	}
	/* Twice, one of each card's. */
	remove_qcom();
	CHECK_EQ(run_mkfw((const char *[]){ "--omit", "aic100/fw2.bin", "--omit",
					    "aic200/aop.mbn", NULL }, true), 0);
	CHECK_EQ(image_payload("aic100/fw2.bin", 2), -1);
	CHECK_EQ(image_payload("aic200/aop.mbn", 23), -1);
	CHECK(image_payload("aic200/tz.mbn", 32) >= 0);
}

/* A second run leaves an intact file alone and writes a damaged one anew. */
static void test_rerun(void)
{
	char path[4096];
	ino_t sbl_ino;
	FILE *f;

	remove_qcom();
	CHECK_EQ(run_mkfw(NULL, true), 0);
	sbl_ino = inode_of("aic200/sbl.bin");
	snprintf(path, sizeof(path), "%s/qcom/aic200/uefi.elf", dir);
	f = fopen(path, "r+b");
	CHECK(f);
	if (f) {
		int c;

		fseek(f, 1000, SEEK_SET);
		c = fgetc(f);
		fseek(f, 1000, SEEK_SET);
		fputc(c ^ 1, f);
		fclose(f);
	}
	CHECK_EQ(image_payload("aic200/uefi.elf", 5), -1);
	CHECK_EQ(run_mkfw(NULL, true), 0);
	CHECK(image_payload("aic200/uefi.elf", 5) >= 0);
	CHECK(sbl_ino != 0);
	CHECK_EQ(inode_of("aic200/sbl.bin"), sbl_ino);
}

/* A command line without a directory, or with an option for one: usage, 2. */
static void test_usage(void)
{
	static const struct {
		const char *argv[4];
		bool with_dir;
	} cases[] = {
		{ { NULL }, false },
		{ { "--omit", "fw1.bin", NULL }, false },
		{ { "--bogus", NULL }, true },
		{ { "--omit", NULL }, true },
	};

	for (unsigned int k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		int before = emu_test_failures;

		CHECK_EQ(run_mkfw(cases[k].argv, cases[k].with_dir), 2);
		if (emu_test_failures != before)
			fprintf(stderr, "  (case %u)\n", k);
	}
}

int main(int argc, char **argv)
{
	char cmd[4200];

	if (argc != 2) {
		fprintf(stderr, "usage: %s PATH-TO-qaic-mkfw\n", argv[0]);
		return 2;
	}
	mkfw = argv[1];
	if (!mkdtemp(dir))
		return 1;
	RUN(test_both_cards);
	RUN(test_omit);
	RUN(test_rerun);
	RUN(test_usage);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd))
		return 1;
	return emu_test_exit();
}
