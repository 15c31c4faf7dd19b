// SPDX-License-Identifier: GPL-2.0-only
/*
 * qaic-mkfw: make the test firmware of the emulated cards.
 *
 *   qaic-mkfw [--omit NAME]... DIR
 *
 * Writes DIR/qcom/aic100/sbl.bin (loaded over BHI) and fwN.bin for every
 * image id N of the AIC100 Sahara table (1, 2, 4, 5, 6, 8, 9, 10): the
 * file names Linux 6.12's qaic asks for, so that a kernel booted with
 * firmware_class.path=DIR finds them, as it would find a real card's
 * firmware package. Each image is our QFW1 format (tests/emu/fw_image.h):
 * a 32-byte header with the image id, the payload length and CRC-32s,
 * then a payload of deterministic bytes, of sizes chosen to exercise the
 * card's reads (empty, one byte, around 64 KiB, over 512 KiB).
 *
 * It also writes DIR/qcom/aic200/sbl.bin (over 512 KiB: BHIe takes it in
 * two segments) and the 28 images of the AIC200 table, under the names
 * Linux 7.2 uses (tests/emu/sahara_images.h), one of them over 1 MiB (an
 * AIC200 reads any length at once), the others 0 bytes to 64 KiB.
 *
 * --omit NAME (e.g. fw6.bin, or aic200/pvs.bin) leaves that file out, for
 * tests of a missing image. Files are written to a temporary name and renamed, so that runs
 * reading DIR concurrently never see half an image; an existing identical
 * file is left alone.
 *
 * Copyright (c) 2026 The qaic authors.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fw_image.h"
#include "sahara_images.h"

struct image {
	const char *name;
	uint32_t id;
	uint32_t payload;
};

static const struct image images[] = {
	{ "aic100/sbl.bin", FW_IMAGE_ID_SBL, 48 * 1024 },
	{ "aic100/fw1.bin", 1, 1024 * 1024 + 123 },
	{ "aic100/fw2.bin", 2, 300000 },
	{ "aic100/fw4.bin", 4, 4096 },
	{ "aic100/fw5.bin", 5, 70000 },
	{ "aic100/fw6.bin", 6, 1 },
	{ "aic100/fw8.bin", 8, 65535 },
	{ "aic100/fw9.bin", 9, 65536 },
	{ "aic100/fw10.bin", 10, 0 },
};

/* The AIC200's payload sizes: the first image's over 1 MiB, the others' in turn. */
#define AIC200_FIRST_PAYLOAD	(1024 * 1024 + 5)
static const uint32_t aic200_payloads[] = {
	65535, 0, 1, 4096, 65536, 30000, 100,
};
#define NR_AIC100	(sizeof(images) / sizeof(images[0]))

/* Every file: the AIC100's, then the AIC200's SBL and table. */
static struct image all[NR_AIC100 + 1 + 32];
static size_t nr_all;

static void list_images(void)
{
	const struct emu_sahara_table *t = &emu_sahara_aic200_table;

	for (size_t k = 0; k < NR_AIC100; k++)
		all[nr_all++] = images[k];
	all[nr_all++] = (struct image){ "aic200/sbl.bin", FW_IMAGE_ID_SBL, 600 * 1024 + 7 };
	for (unsigned int k = 0; k < t->nr && nr_all < sizeof(all) / sizeof(all[0]); k++)
		all[nr_all++] = (struct image){ t->images[k].file, t->images[k].id,
			k ? aic200_payloads[(k - 1) % (sizeof(aic200_payloads) /
						       sizeof(aic200_payloads[0]))] :
			    AIC200_FIRST_PAYLOAD };
}

static int mkdir_p(char *path)
{
	for (char *p = path + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(path, 0755) && errno != EEXIST)
			return -1;
		*p = '/';
	}
	return mkdir(path, 0755) && errno != EEXIST ? -1 : 0;
}

/* True if @path already holds exactly @len bytes of @data. */
static int same_file(const char *path, const uint8_t *data, size_t len)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf;
	int same;

	if (!f)
		return 0;
	buf = malloc(len + 1);
	same = buf && fread(buf, 1, len + 1, f) == len && !memcmp(buf, data, len);
	free(buf);
	fclose(f);
	return same;
}

static int write_image(const char *dir, const struct image *im)
{
	size_t len = FW_IMAGE_HDR_LEN + im->payload;
	char path[4096], tmp[4200];
	uint64_t x = 0x9e3779b97f4a7c15ull * (im->id + 1);
	uint8_t *img = malloc(len);
	FILE *f;
	int ret = -1;

	if (!img)
		return -1;
	for (size_t i = 0; i < im->payload; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		img[FW_IMAGE_HDR_LEN + i] = (uint8_t)x;
	}
	fw_image_seal(img, im->id, im->payload);
	snprintf(path, sizeof(path), "%s/%s", dir, im->name);
	if (same_file(path, img, len)) {
		free(img);
		return 0;
	}
	snprintf(tmp, sizeof(tmp), "%s.tmp.%d", path, (int)getpid());
	f = fopen(tmp, "wb");
	if (f && fwrite(img, 1, len, f) == len && !fclose(f)) {
		f = NULL;
		ret = rename(tmp, path);
	}
	if (f)
		fclose(f);
	if (ret)
		unlink(tmp);
	free(img);
	return ret;
}

int main(int argc, char **argv)
{
	const char *omit[16];
	unsigned int nr_omit = 0;
	char dir[4096];
	int i;

	for (i = 1; i < argc - 1; i++) {
		if (strcmp(argv[i], "--omit") || nr_omit == 16)
			break;
		omit[nr_omit++] = argv[++i];
	}
	if (i != argc - 1 || argv[i][0] == '-') {
		fprintf(stderr, "usage: qaic-mkfw [--omit NAME]... DIR\n");
		return 2;
	}
	for (const char *const *d = (const char *const[]){ "aic100", "aic200", NULL }; *d; d++) {
		if (snprintf(dir, sizeof(dir), "%s/qcom/%s", argv[i], *d) >= (int)sizeof(dir) ||
		    mkdir_p(dir)) {
			fprintf(stderr, "qaic-mkfw: %s: %s\n", dir, strerror(errno));
			return 1;
		}
	}
	snprintf(dir, sizeof(dir), "%s/qcom", argv[i]);
	list_images();
	for (size_t k = 0; k < nr_all; k++) {
		unsigned int o;

		for (o = 0; o < nr_omit; o++)
			if (!strcmp(omit[o], all[k].name) ||
			    (!strchr(omit[o], '/') && !strncmp(all[k].name, "aic100/", 7) &&
			     !strcmp(omit[o], all[k].name + 7)))
				break;
		if (o < nr_omit)
			continue;
		if (write_image(dir, &all[k])) {
			fprintf(stderr, "qaic-mkfw: %s/%s: %s\n", dir,
				all[k].name, strerror(errno));
			return 1;
		}
	}
	return 0;
}
