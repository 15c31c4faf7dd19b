// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The qaic authors.
 */

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <xf86drm.h>

#include "igt_qaic.h"

/**
 * SECTION:igt_qaic
 * @short_description: qaic support library
 * @title: qaic
 * @include: igt_qaic.h
 *
 * This library provides helpers for tests of the qaic accel driver of the
 * Qualcomm Cloud AI 100: finding and opening the device, and thin wrappers
 * around its ioctls.
 *
 * As everywhere in IGT, a helper whose name starts with two underscores
 * returns 0 or a negative errno, and its counterpart without them fails the
 * test when the ioctl fails.
 */

/* DRM accel minors are numbered from 0 up to ACCEL_MAX_MINORS - 1. */
#define QAIC_ACCEL_MAX_MINORS 256

/**
 * is_qaic_device:
 * @fd: DRM or accel file descriptor
 *
 * Returns: true if @fd is a file on a device driven by qaic, according to
 * DRM_IOCTL_VERSION.
 */
bool is_qaic_device(int fd)
{
	drmVersionPtr version;
	bool ret;

	version = drmGetVersion(fd);
	if (!version)
		return false;

	ret = strcmp(version->name, "qaic") == 0;
	drmFreeVersion(version);

	return ret;
}

/* Whether accel node @minor belongs to a device that qaic is bound to */
static bool is_qaic_minor(int minor)
{
	char path[64], link[256];
	const char *driver;
	ssize_t len;

	snprintf(path, sizeof(path), "/sys/class/accel/accel%d/device/driver",
		 minor);
	len = readlink(path, link, sizeof(link) - 1);
	if (len <= 0)
		return false;
	link[len] = '\0';

	driver = strrchr(link, '/');
	return strcmp(driver ? driver + 1 : link, "qaic") == 0;
}

/**
 * __igt_qaic_open:
 *
 * Opens the first qaic device among /dev/accel/accel*. drm_open_driver() only
 * knows /dev/dri, and accel devices live elsewhere.
 *
 * Returns: a file descriptor; -ENOENT when there is no qaic device; else the
 * negative errno of open() on a node of a qaic device, e.g. -ENODEV while
 * the device is not ready.
 */
int __igt_qaic_open(void)
{
	int err = -ENOENT;

	for (int minor = 0; minor < QAIC_ACCEL_MAX_MINORS; minor++) {
		char path[32];
		int fd;

		snprintf(path, sizeof(path), "/dev/accel/accel%d", minor);
		fd = open(path, O_RDWR | O_CLOEXEC);
		if (fd < 0) {
			int open_err = -errno;

			if (open_err != -ENOENT && err == -ENOENT &&
			    is_qaic_minor(minor))
				err = open_err;
			continue;
		}

		if (is_qaic_device(fd))
			return fd;

		close(fd);
	}

	errno = -err;
	return err;
}

/**
 * igt_qaic_open:
 *
 * Opens the first qaic device, like __igt_qaic_open(). Skips the test when
 * there is no qaic device, and fails it when there is one that cannot be
 * opened.
 *
 * Returns: a file descriptor.
 */
int igt_qaic_open(void)
{
	int fd = __igt_qaic_open();

	igt_require_f(fd != -ENOENT, "no qaic device in /dev/accel\n");
	igt_assert_f(fd >= 0, "cannot open the qaic device: %s\n",
		     strerror(-fd));

	return fd;
}

/**
 * __igt_qaic_create_bo:
 * @fd: qaic device file descriptor
 * @size: size of the buffer object in bytes
 * @handle: where to store the GEM handle of the new buffer object
 *
 * Creates a buffer object with DRM_IOCTL_QAIC_CREATE_BO.
 *
 * Returns: 0 on success, else a negative errno.
 */
int __igt_qaic_create_bo(int fd, uint64_t size, uint32_t *handle)
{
	struct qaic_create_bo create = {
		.size = size,
	};
	int err = 0;

	if (igt_ioctl(fd, DRM_IOCTL_QAIC_CREATE_BO, &create))
		err = -errno;
	else
		*handle = create.handle;
	errno = 0;

	return err;
}

/**
 * igt_qaic_create_bo:
 * @fd: qaic device file descriptor
 * @size: size of the buffer object in bytes
 *
 * Like __igt_qaic_create_bo(), but fails the test on error.
 *
 * Returns: the GEM handle of the new buffer object.
 */
uint32_t igt_qaic_create_bo(int fd, uint64_t size)
{
	uint32_t handle = 0;

	igt_assert_eq(__igt_qaic_create_bo(fd, size, &handle), 0);

	return handle;
}

/**
 * __igt_qaic_mmap_bo:
 * @fd: qaic device file descriptor
 * @handle: GEM handle of a buffer object
 * @offset: where to store the fake offset to pass to mmap()
 *
 * Looks up the mmap offset of a buffer object with DRM_IOCTL_QAIC_MMAP_BO.
 *
 * Returns: 0 on success, else a negative errno.
 */
int __igt_qaic_mmap_bo(int fd, uint32_t handle, uint64_t *offset)
{
	struct qaic_mmap_bo map = {
		.handle = handle,
	};
	int err = 0;

	if (igt_ioctl(fd, DRM_IOCTL_QAIC_MMAP_BO, &map))
		err = -errno;
	else
		*offset = map.offset;
	errno = 0;

	return err;
}

/**
 * igt_qaic_mmap_bo:
 * @fd: qaic device file descriptor
 * @handle: GEM handle of a buffer object
 * @size: bytes to map, not more than the size of the buffer object
 * @prot: memory protection of the mapping, as for mmap()
 *
 * Maps a buffer object into the address space of the caller, failing the
 * test if that does not work. Unmap it with munmap().
 *
 * Returns: the address of the mapping.
 */
void *igt_qaic_mmap_bo(int fd, uint32_t handle, uint64_t size,
		       unsigned int prot)
{
	uint64_t offset = 0;
	void *ptr;

	igt_assert_eq(__igt_qaic_mmap_bo(fd, handle, &offset), 0);

	ptr = mmap(NULL, size, prot, MAP_SHARED, fd, offset);
	igt_assert(ptr != MAP_FAILED);

	return ptr;
}
