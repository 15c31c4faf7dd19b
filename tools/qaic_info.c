// SPDX-License-Identifier: GPL-2.0-only
/*
 * qaic-info: show the Cloud AI 100 cards as a userspace program sees them,
 * through libdrm (/dev/accel/accelN) and sysfs.
 *
 * Copyright (c) 2026 The qaic authors.
 */

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <xf86drm.h>

#define ACCEL_DIR "/dev/accel"

static int read_sysfs(const char *dir, const char *name, char *buf, size_t len)
{
	char path[PATH_MAX];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
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

static int count_entries(const char *dir)
{
	struct dirent *de;
	int n = 0;
	DIR *d;

	d = opendir(dir);
	if (!d)
		return 0;
	while ((de = readdir(d)))
		n += de->d_name[0] != '.';
	closedir(d);
	return n;
}

static void show_bars(const char *dev)
{
	unsigned long long start, end, flags;
	char path[PATH_MAX];
	int bar = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/resource", dev);
	f = fopen(path, "r");
	if (!f)
		return;
	while (bar < 6 && fscanf(f, "%llx %llx %llx", &start, &end, &flags) == 3) {
		if (end)
			printf("  BAR%d:        %#llx, %llu KiB%s\n", bar, start,
			       (end - start + 1) >> 10, flags & 0x4 ? ", 64-bit" : "");
		bar++;
	}
	fclose(f);
}

static void show_pci(int minor)
{
	char dev[PATH_MAX], link[PATH_MAX], buf[256];
	char msi[PATH_MAX];
	ssize_t n;

	snprintf(dev, sizeof(dev), "/sys/class/accel/accel%d/device", minor);
	n = readlink(dev, link, sizeof(link) - 1);
	if (n > 0) {
		link[n] = '\0';
		printf("  PCI device:  %s\n", strrchr(link, '/') + 1);
	}
	if (!read_sysfs(dev, "vendor", buf, sizeof(buf)))
		printf("  vendor:      %s\n", buf);
	if (!read_sysfs(dev, "device", buf, sizeof(buf)))
		printf("  device:      %s\n", buf);
	if (!read_sysfs(dev, "class", buf, sizeof(buf)))
		printf("  class:       %s\n", buf);
	show_bars(dev);
	snprintf(msi, sizeof(msi), "/sys/class/accel/accel%d/device/msi_irqs", minor);
	printf("  interrupts:  %d vector(s)\n", count_entries(msi));
	snprintf(msi, sizeof(msi), "/sys/class/accel/accel%d/device/driver", minor);
	n = readlink(msi, link, sizeof(link) - 1);
	if (n > 0) {
		link[n] = '\0';
		printf("  driver:      %s\n", strrchr(link, '/') + 1);
	}
}

static int show_card(const char *name)
{
	char path[PATH_MAX];
	drmVersionPtr ver;
	int minor;
	int fd;

	if (sscanf(name, "accel%d", &minor) != 1)
		return 0;
	snprintf(path, sizeof(path), ACCEL_DIR "/%s", name);
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "%s: %s\n", path, strerror(errno));
		return 0;
	}
	ver = drmGetVersion(fd);
	if (!ver) {
		fprintf(stderr, "%s: drmGetVersion: %s\n", path, strerror(errno));
		close(fd);
		return 0;
	}
	printf("%s\n", path);
	printf("  driver name: %s (%s), version %d.%d.%d\n", ver->name, ver->desc,
	       ver->version_major, ver->version_minor, ver->version_patchlevel);
	drmFreeVersion(ver);
	show_pci(minor);
	close(fd);
	return 1;
}

int main(void)
{
	struct dirent **names;
	int cards = 0;
	int n, i;

	n = scandir(ACCEL_DIR, &names, NULL, alphasort);
	if (n < 0) {
		fprintf(stderr, "%s: %s\n", ACCEL_DIR, strerror(errno));
		return 1;
	}
	for (i = 0; i < n; i++) {
		cards += show_card(names[i]->d_name);
		free(names[i]);
	}
	free(names);
	printf("%d card(s)\n", cards);
	return cards ? 0 : 1;
}
