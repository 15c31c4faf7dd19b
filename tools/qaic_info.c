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

/* Path of a sysfs attribute of the PCI device behind /dev/accel/accel<minor>. */
static void pci_attr_path(char *buf, size_t len, int minor, const char *attr)
{
	snprintf(buf, len, "/sys/class/accel/accel%d/device%s%s", minor,
		 *attr ? "/" : "", attr);
}

static int read_attr(int minor, const char *attr, char *buf, size_t len)
{
	char path[PATH_MAX];
	ssize_t n;
	int fd;

	pci_attr_path(path, sizeof(path), minor, attr);
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

static void show_bars(int minor)
{
	unsigned long long start, end, flags;
	char path[PATH_MAX];
	int bar = 0;
	FILE *f;

	pci_attr_path(path, sizeof(path), minor, "resource");
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
	static const char *const attrs[] = { "vendor", "device", "class" };
	char buf[PATH_MAX];
	const char *name;
	unsigned int i;

	name = link_name(minor, "", buf, sizeof(buf));
	if (name)
		printf("  PCI device:  %s\n", name);
	for (i = 0; i < sizeof(attrs) / sizeof(attrs[0]); i++)
		if (!read_attr(minor, attrs[i], buf, sizeof(buf)))
			printf("  %s:%*s%s\n", attrs[i],
			       (int)(12 - strlen(attrs[i])), "", buf);
	show_bars(minor);
	printf("  interrupts:  %d vector(s)\n", count_entries(minor, "msi_irqs"));
	name = link_name(minor, "driver", buf, sizeof(buf));
	if (name)
		printf("  driver:      %s\n", name);
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
