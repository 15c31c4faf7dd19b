// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The qaic authors.
 */

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>
#include <xf86drm.h>

#include <linux/netlink.h>

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

/*
 * The mappings igt_qaic_mmap_bo() made and nothing unmapped through
 * igt_qaic_munmap() yet, with the file they map: igt_qaic_close() unmaps
 * them.
 */
static struct {
	int fd;
	uint64_t file;
	void *ptr;
	uint64_t size;
} *mappings;
static size_t n_mappings, max_mappings;

/*
 * Which open file @fd is: its drm-client-id, unique among the open files
 * of the device, so that a file closed and another opened under the same
 * number are told apart; 0 with a driver that does not tell.
 */
static uint64_t file_of(int fd)
{
	char path[64], line[128];
	unsigned long long id = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	f = fopen(path, "r");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "drm-client-id: %llu", &id) == 1)
			break;
	fclose(f);
	return id;
}

static void mapping_add(int fd, void *ptr, uint64_t size)
{
	if (n_mappings == max_mappings) {
		max_mappings = max_mappings ? 2 * max_mappings : 64;
		mappings = realloc(mappings, max_mappings * sizeof(*mappings));
		igt_assert(mappings);
	}
	mappings[n_mappings].fd = fd;
	mappings[n_mappings].file = file_of(fd);
	mappings[n_mappings].ptr = ptr;
	mappings[n_mappings].size = size;
	n_mappings++;
}

static void mapping_forget(const void *ptr)
{
	for (size_t i = 0; i < n_mappings; i++) {
		if (mappings[i].ptr == ptr) {
			mappings[i] = mappings[--n_mappings];
			return;
		}
	}
}

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

static void release_file(int fd);

/**
 * igt_qaic_driver_is_ours:
 * @fd: qaic file
 *
 * Returns: true if the qaic behind @fd is this tree's, false if it is the
 * upstream module (--module upstream), told apart by the description
 * DRM_IOCTL_VERSION gives. A test whose check only our driver can pass
 * skips on the other through igt_qaic_require_ours(), and never skips on
 * ours: probe the feature with it, so that ours loses no check.
 */
bool igt_qaic_driver_is_ours(int fd)
{
	drmVersionPtr version;
	bool ret;

	version = drmGetVersion(fd);
	if (!version)
		return false;

	ret = version->desc && !strcmp(version->desc, "Qualcomm Cloud AI 100 accelerator");
	drmFreeVersion(version);

	return ret;
}

/**
 * igt_qaic_require_ours:
 * @fd: qaic file
 * @has: whether the driver behind @fd has what the test needs (a probe)
 * @why: one line, what upstream's qaic lacks
 *
 * Skips the test with @why when @fd is not our driver and @has is false;
 * on ours it never skips, whatever @has says. Before it skips, it releases
 * every qaic file of the process (release_file()), so that the subtest
 * gives its DBCs back (igt_qaic_dbcs_free_checks()).
 */
void igt_qaic_require_ours(int fd, bool has, const char *why)
{
	struct dirent *d;
	DIR *dir;

	if (has || igt_qaic_driver_is_ours(fd))
		return;
	dir = opendir("/proc/self/fd");
	if (dir) {
		while ((d = readdir(dir))) {
			int n = atoi(d->d_name);

			if (d->d_name[0] != '.' && n != dirfd(dir) && is_qaic_device(n))
				release_file(n);
		}
		closedir(dir);
	}
	igt_skip("upstream qaic: %s\n", why);
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
	mapping_add(fd, ptr, size);

	return ptr;
}

/**
 * igt_qaic_munmap:
 * @ptr: a mapping from igt_qaic_mmap_bo()
 * @size: its size
 *
 * Unmaps it, failing the test if that does not work.
 */
void igt_qaic_munmap(void *ptr, uint64_t size)
{
	mapping_forget(ptr);
	igt_assert_eq(munmap(ptr, size), 0);
}

/* Whether /proc/self/maps has a mapping of an accel node that starts at @ptr */
static bool mapped_accel(const void *ptr)
{
	char line[512], path[256];
	unsigned long start;
	bool found = false;
	FILE *f = fopen("/proc/self/maps", "r");

	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%lx-%*x %*s %*x %*s %*u %255s", &start, path) == 2)
			found = start == (uintptr_t)ptr &&
				!strncmp(path, "/dev/accel/", 11);
	}
	fclose(f);
	return found;
}

/**
 * igt_qaic_close:
 * @fd: qaic device file descriptor
 *
 * Unmaps what igt_qaic_mmap_bo() (and igt_qaic_bo_create()) mapped of the
 * file @fd is and not unmapped yet, then closes @fd. The card gives the DBCs of a file
 * back only when the file is released: closed, with no mapping of its
 * objects left. A subtest that closes its files this way leaves the card
 * as it found it for the next subtest of the same process (IGT's runner
 * with -m), which igt_qaic_assert_dbcs_free() checks.
 */
static void unmap_file(int fd)
{
	uint64_t file = file_of(fd);

	for (size_t i = 0; i < n_mappings; i++) {
		/* Not those of a file closed before under the same number */
		if (mappings[i].fd != fd || mappings[i].file != file)
			continue;
		/* A test may have unmapped it itself; then it is not ours */
		if (mapped_accel(mappings[i].ptr))
			igt_assert_eq(munmap(mappings[i].ptr, mappings[i].size), 0);
		mappings[i--] = mappings[--n_mappings];
	}
}

void igt_qaic_close(int fd)
{
	unmap_file(fd);
	igt_assert_eq(close(fd), 0);
}

/*
 * Releases the qaic file of @fd, with the mappings igt_qaic_close() knows,
 * but leaves @fd open on /dev/null: a fixture's close() of it still works.
 */
static void release_file(int fd)
{
	int null = open("/dev/null", O_RDWR | O_CLOEXEC);

	unmap_file(fd);
	igt_assert(null >= 0);
	igt_assert_eq(dup2(null, fd), fd);
	close(null);
}

/**
 * igt_qaic_assert_dbcs_free:
 *
 * Checks that a new file on the first qaic device activates every DBC of
 * the card, as it can when no earlier test left a file, or a mapping of an
 * object of a closed file, that holds one.
 */
void igt_qaic_assert_dbcs_free(void)
{
	bool seen[IGT_QAIC_NUM_DBC] = { false };
	int fd = igt_qaic_open();

	for (unsigned int i = 0; i < IGT_QAIC_NUM_DBC; i++) {
		uint32_t dbc = 0;
		int err = __igt_qaic_activate(fd, 16, &dbc);

		igt_assert_f(!err, "DBC %u of %u: activate: %s: a test left a file, or a mapping of a closed one's object, holding DBCs\n",
			     i + 1, IGT_QAIC_NUM_DBC, strerror(-err));
		igt_assert_f(dbc < IGT_QAIC_NUM_DBC && !seen[dbc],
			     "activate gave DBC %u twice or out of range\n", dbc);
		seen[dbc] = true;
	}
	igt_qaic_close(fd);
}

/**
 * igt_qaic_msg_init:
 * @msg: message to start
 *
 * Empties @msg, to add transactions to it with igt_qaic_msg_append() and
 * the igt_qaic_msg_*() helpers built on it.
 */
void igt_qaic_msg_init(struct igt_qaic_msg *msg)
{
	memset(msg, 0, sizeof(*msg));
}

/**
 * igt_qaic_msg_append:
 * @msg: message to add to
 * @type: transaction type, one of the QAIC_TRANS_* values or any other
 * @len: length of the whole transaction, header included
 *
 * Appends a transaction whose header says @type and @len and whose body is
 * zeroed, for the caller to fill in. The header is not checked, so that
 * tests can build malformed messages; the transaction must fit in @msg.
 *
 * Returns: the new transaction, which starts with its struct
 * qaic_manage_trans_hdr and is 4-byte aligned.
 */
void *igt_qaic_msg_append(struct igt_qaic_msg *msg, uint32_t type,
			  uint32_t len)
{
	struct qaic_manage_trans_hdr hdr = {
		.type = type,
		.len = len,
	};
	uint8_t *trans;

	igt_assert(len >= sizeof(hdr));
	igt_assert(len <= sizeof(msg->buf) - msg->len);

	trans = msg->buf + msg->len;
	memset(trans, 0, len);
	memcpy(trans, &hdr, sizeof(hdr));
	msg->len += len;
	msg->count++;

	return trans;
}

/**
 * igt_qaic_msg_passthrough:
 * @msg: message to add to
 * @data: payload for the card's manager
 * @size: bytes at @data; the device wants sizeof(header) + @size to be a
 *	  multiple of 8
 *
 * Appends a passthrough transaction carrying @data.
 *
 * Returns: the new transaction.
 */
void *igt_qaic_msg_passthrough(struct igt_qaic_msg *msg, const void *data,
			       uint32_t size)
{
	struct qaic_manage_trans_passthrough *trans;

	igt_assert(size <= sizeof(msg->buf) - sizeof(trans->hdr));
	trans = igt_qaic_msg_append(msg, QAIC_TRANS_PASSTHROUGH_FROM_USR,
				    sizeof(trans->hdr) + size);
	memcpy(trans->data, data, size);

	return trans;
}

/**
 * igt_qaic_msg_dma_xfer:
 * @msg: message to add to
 * @tag: destination of the transfer, for the card's manager
 * @addr: user address of the source buffer
 * @size: bytes to transfer
 *
 * Appends a DMA transfer transaction.
 *
 * Returns: the new transaction, a struct qaic_manage_trans_dma_xfer.
 */
void *igt_qaic_msg_dma_xfer(struct igt_qaic_msg *msg, uint32_t tag,
			    uint64_t addr, uint64_t size)
{
	struct qaic_manage_trans_dma_xfer *trans;

	trans = igt_qaic_msg_append(msg, QAIC_TRANS_DMA_XFER_FROM_USR,
				    sizeof(*trans));
	trans->tag = tag;
	trans->addr = addr;
	trans->size = size;

	return trans;
}

/**
 * igt_qaic_msg_activate:
 * @msg: message to add to
 * @queue_size: entries of the rings of the DMA Bridge Channel
 * @options: passed to the device
 *
 * Appends a transaction that asks for a DMA Bridge Channel.
 *
 * Returns: the new transaction, a struct qaic_manage_trans_activate_to_dev.
 */
void *igt_qaic_msg_activate(struct igt_qaic_msg *msg, uint32_t queue_size,
			    uint32_t options)
{
	struct qaic_manage_trans_activate_to_dev *trans;

	trans = igt_qaic_msg_append(msg, QAIC_TRANS_ACTIVATE_FROM_USR,
				    sizeof(*trans));
	trans->queue_size = queue_size;
	trans->options = options;

	return trans;
}

/**
 * igt_qaic_msg_deactivate:
 * @msg: message to add to
 * @dbc_id: DMA Bridge Channel to give back
 *
 * Appends a transaction that gives a DMA Bridge Channel back.
 *
 * Returns: the new transaction, a struct qaic_manage_trans_deactivate.
 */
void *igt_qaic_msg_deactivate(struct igt_qaic_msg *msg, uint32_t dbc_id)
{
	struct qaic_manage_trans_deactivate *trans;

	trans = igt_qaic_msg_append(msg, QAIC_TRANS_DEACTIVATE_FROM_USR,
				    sizeof(*trans));
	trans->dbc_id = dbc_id;

	return trans;
}

/**
 * __igt_qaic_release_dbc:
 * @fd: qaic device file descriptor
 * @dbc_id: DMA Bridge Channel of @fd to give back for good
 * @msg: gets the message and its answer, for igt_qaic_check_released()
 *
 * A deactivate transaction has no wire form: it takes the DBC from the
 * file, and the driver frees it once the card reports the release. The
 * emulated card releases a DBC when asked in its own terms, as a runtime
 * asks the firmware: the EMU_PT_DEACTIVATE passthrough, sent here in front
 * of the deactivate (tests/emu/manual.rst).
 *
 * Returns: 0 or the negative errno of MANAGE.
 */
int __igt_qaic_release_dbc(int fd, uint32_t dbc_id, struct igt_qaic_msg *msg)
{
	struct igt_qaic_emu_req req = { .op = IGT_QAIC_EMU_PT_DEACTIVATE, .arg = dbc_id };

	igt_qaic_msg_init(msg);
	igt_qaic_msg_passthrough(msg, &req, sizeof(req));
	igt_qaic_msg_deactivate(msg, dbc_id);
	return __igt_qaic_manage(fd, msg);
}

/**
 * igt_qaic_check_released:
 * @msg: a message of __igt_qaic_release_dbc() that succeeded
 * @dbc_id: its DMA Bridge Channel
 *
 * Checks that the card answered the passthrough: it let @dbc_id go. Skips
 * the test on an emulator without EMU_PT_DEACTIVATE.
 */
void igt_qaic_check_released(const struct igt_qaic_msg *msg, uint32_t dbc_id)
{
	const uint32_t hdr_len = sizeof(struct qaic_manage_trans_hdr);
	struct igt_qaic_emu_status status;
	const uint8_t *trans;

	trans = igt_qaic_msg_answer(msg, 0, QAIC_TRANS_PASSTHROUGH_FROM_DEV,
				    hdr_len + sizeof(status));
	memcpy(&status, trans + hdr_len, sizeof(status));
	igt_require_f(status.status != IGT_QAIC_EMU_PT_E_UNKNOWN_OP,
		      "the emulator has no EMU_PT_DEACTIVATE\n");
	igt_assert_eq_u32(status.op, IGT_QAIC_EMU_PT_DEACTIVATE);
	igt_assert_eq_u32(status.arg, dbc_id);
	igt_assert_eq_u32(status.status, IGT_QAIC_EMU_PT_OK);
}

/**
 * igt_qaic_release_dbc:
 * @fd: qaic device file descriptor
 * @dbc_id: DMA Bridge Channel of @fd to give back for good
 *
 * __igt_qaic_release_dbc() and igt_qaic_check_released(): returns once
 * the DBC is free.
 */
void igt_qaic_release_dbc(int fd, uint32_t dbc_id)
{
	struct igt_qaic_msg msg;
	int err = __igt_qaic_release_dbc(fd, dbc_id, &msg);

	igt_assert_f(err == 0, "release DBC %u: %s\n", dbc_id, strerror(-err));
	igt_qaic_check_released(&msg, dbc_id);
}

/**
 * igt_qaic_msg_status:
 * @msg: message to add to
 *
 * Appends a transaction that asks for the status of the device.
 *
 * Returns: the new transaction, a struct qaic_manage_trans_status_to_dev.
 */
void *igt_qaic_msg_status(struct igt_qaic_msg *msg)
{
	return igt_qaic_msg_append(msg, QAIC_TRANS_STATUS_FROM_USR,
				   sizeof(struct qaic_manage_trans_status_to_dev));
}

/**
 * igt_qaic_msg_answer:
 * @msg: message that __igt_qaic_manage() answered
 * @index: which transaction of the answer, from 0
 * @type: type it must have
 * @len: length it must have, header included; 0 for any
 *
 * Finds a transaction of an answer, failing the test unless the answer is
 * well formed up to it and it has the type and length asked for.
 *
 * Returns: the transaction, 4-byte aligned if the answer is.
 */
const void *igt_qaic_msg_answer(const struct igt_qaic_msg *msg,
				uint32_t index, uint32_t type, uint32_t len)
{
	struct qaic_manage_trans_hdr hdr;
	uint32_t off = 0;

	igt_assert_f(index < msg->count,
		     "answer has %u transactions, wanted #%u\n",
		     msg->count, index);
	igt_assert(msg->len <= sizeof(msg->buf));

	for (uint32_t i = 0; ; i++) {
		igt_assert_f(msg->len - off >= sizeof(hdr),
			     "answer of %u bytes ends in transaction #%u\n",
			     msg->len, i);
		memcpy(&hdr, msg->buf + off, sizeof(hdr));
		igt_assert_f(hdr.len >= sizeof(hdr) &&
			     hdr.len <= msg->len - off,
			     "answer transaction #%u has length %u at %u of %u\n",
			     i, hdr.len, off, msg->len);
		if (i == index)
			break;
		off += hdr.len;
	}

	igt_assert_f(hdr.type == type,
		     "answer transaction #%u has type %u, not %u\n",
		     index, hdr.type, type);
	igt_assert_f(!len || hdr.len == len,
		     "answer transaction #%u has length %u, not %u\n",
		     index, hdr.len, len);

	return msg->buf + off;
}

/**
 * __igt_qaic_manage:
 * @fd: qaic device file descriptor
 * @msg: message to send; gets the answer
 *
 * Sends @msg to the card's manager with DRM_IOCTL_QAIC_MANAGE. The answer
 * replaces the transactions at @msg->buf, and @msg->len and @msg->count
 * take the values the ioctl hands back, whether it failed or not: a driver
 * may answer a request the device refused (-ECANCELED in Linux 6.12).
 *
 * Returns: 0 on success, else a negative errno.
 */
int __igt_qaic_manage(int fd, struct igt_qaic_msg *msg)
{
	struct qaic_manage_msg arg = {
		.len = msg->len,
		.count = msg->count,
		.data = to_user_pointer(msg->buf),
	};
	int err = 0;

	if (igt_ioctl(fd, DRM_IOCTL_QAIC_MANAGE, &arg))
		err = -errno;
	msg->len = arg.len;
	msg->count = arg.count;
	errno = 0;

	return err;
}

/**
 * igt_qaic_manage:
 * @fd: qaic device file descriptor
 * @msg: message to send; gets the answer
 *
 * Like __igt_qaic_manage(), but fails the test on error.
 */
void igt_qaic_manage(int fd, struct igt_qaic_msg *msg)
{
	int err = __igt_qaic_manage(fd, msg);

	igt_assert_f(err == 0, "MANAGE: %s\n", strerror(-err));
}

/**
 * __igt_qaic_activate:
 * @fd: qaic device file descriptor
 * @queue_size: entries of the rings of the channel
 * @dbc_id: where to store the DMA Bridge Channel the device gave
 *
 * Asks for a DMA Bridge Channel, owned by @fd from then on. A successful
 * call must be answered by one activate transaction, else the test fails.
 *
 * Returns: 0 on success; -ECANCELED if the device refused, whether the
 * ioctl failed with ECANCELED or answered a non-zero status; else the
 * negative errno of the ioctl.
 */
int __igt_qaic_activate(int fd, uint32_t queue_size, uint32_t *dbc_id)
{
	struct qaic_manage_trans_activate_from_dev ans;
	struct igt_qaic_msg msg;
	int err;

	igt_qaic_msg_init(&msg);
	igt_qaic_msg_activate(&msg, queue_size, 0);
	err = __igt_qaic_manage(fd, &msg);
	if (err)
		return err;

	igt_assert_eq(msg.count, 1);
	memcpy(&ans, igt_qaic_msg_answer(&msg, 0, QAIC_TRANS_ACTIVATE_FROM_DEV,
					 sizeof(ans)), sizeof(ans));
	if (ans.status) {
		igt_debug("activate: device status %u\n", ans.status);
		return -ECANCELED;
	}
	*dbc_id = ans.dbc_id;

	return 0;
}

/**
 * igt_qaic_activate:
 * @fd: qaic device file descriptor
 * @queue_size: entries of the rings of the channel
 *
 * Like __igt_qaic_activate(), but fails the test on error.
 *
 * Returns: the DMA Bridge Channel the device gave.
 */
uint32_t igt_qaic_activate(int fd, uint32_t queue_size)
{
	uint32_t dbc_id = 0;
	int err;

	err = __igt_qaic_activate(fd, queue_size, &dbc_id);
	igt_assert_f(err == 0, "activate: %s\n", strerror(-err));

	return dbc_id;
}

/**
 * __igt_qaic_deactivate:
 * @fd: qaic device file descriptor
 * @dbc_id: DMA Bridge Channel to give back
 *
 * Gives back a DMA Bridge Channel activated through @fd.
 *
 * Returns: 0 on success, else a negative errno.
 */
int __igt_qaic_deactivate(int fd, uint32_t dbc_id)
{
	struct igt_qaic_msg msg;

	igt_qaic_msg_init(&msg);
	igt_qaic_msg_deactivate(&msg, dbc_id);

	return __igt_qaic_manage(fd, &msg);
}

/**
 * igt_qaic_deactivate:
 * @fd: qaic device file descriptor
 * @dbc_id: DMA Bridge Channel to give back
 *
 * Like __igt_qaic_deactivate(), but fails the test on error.
 */
void igt_qaic_deactivate(int fd, uint32_t dbc_id)
{
	int err = __igt_qaic_deactivate(fd, dbc_id);

	igt_assert_f(err == 0, "deactivate DBC %u: %s\n", dbc_id,
		     strerror(-err));
}

/**
 * __igt_qaic_status:
 * @fd: qaic device file descriptor
 * @status: where to store the status transaction of the answer
 *
 * Asks for the status of the device. A successful call must be answered by
 * one status transaction, else the test fails.
 *
 * Returns: 0 on success, else a negative errno.
 */
int __igt_qaic_status(int fd, struct qaic_manage_trans_status_from_dev *status)
{
	struct igt_qaic_msg msg;
	int err;

	igt_qaic_msg_init(&msg);
	igt_qaic_msg_status(&msg);
	err = __igt_qaic_manage(fd, &msg);
	if (err)
		return err;

	igt_assert_eq(msg.count, 1);
	memcpy(status, igt_qaic_msg_answer(&msg, 0, QAIC_TRANS_STATUS_FROM_DEV,
					   sizeof(*status)), sizeof(*status));

	return 0;
}

/**
 * igt_qaic_status:
 * @fd: qaic device file descriptor
 * @status: where to store the status transaction of the answer
 *
 * Like __igt_qaic_status(), but fails the test on error.
 */
void igt_qaic_status(int fd, struct qaic_manage_trans_status_from_dev *status)
{
	int err = __igt_qaic_status(fd, status);

	igt_assert_f(err == 0, "status: %s\n", strerror(-err));
}

/**
 * __igt_qaic_dma_xfer:
 * @fd: qaic device file descriptor
 * @tag: destination of the transfer, for the card's manager
 * @ptr: source buffer
 * @size: bytes to transfer
 *
 * Has the device copy @size bytes at @ptr with a DMA transfer transaction.
 *
 * Returns: 0 on success, else a negative errno.
 */
int __igt_qaic_dma_xfer(int fd, uint32_t tag, const void *ptr, uint64_t size)
{
	struct igt_qaic_msg msg;

	igt_qaic_msg_init(&msg);
	igt_qaic_msg_dma_xfer(&msg, tag, to_user_pointer(ptr), size);

	return __igt_qaic_manage(fd, &msg);
}

/**
 * igt_qaic_dma_xfer:
 * @fd: qaic device file descriptor
 * @tag: destination of the transfer, for the card's manager
 * @ptr: source buffer
 * @size: bytes to transfer
 *
 * Like __igt_qaic_dma_xfer(), but fails the test on error.
 */
void igt_qaic_dma_xfer(int fd, uint32_t tag, const void *ptr, uint64_t size)
{
	int err = __igt_qaic_dma_xfer(fd, tag, ptr, size);

	igt_assert_f(err == 0, "DMA transfer of %llu bytes: %s\n",
		     (unsigned long long)size, strerror(-err));
}

/**
 * igt_qaic_crc32:
 * @crc: CRC of the bytes before @buf, 0 to start
 * @buf: bytes to add
 * @len: number of bytes at @buf
 *
 * Computes the CRC-32 of zlib's crc32() (IEEE 802.3, reflected, inverted
 * before and after), so that tests need not link zlib to check what a
 * device reports.
 *
 * Returns: the CRC of the bytes before @buf followed by those at @buf.
 */
uint32_t igt_qaic_crc32(uint32_t crc, const void *buf, size_t len)
{
	static uint32_t table[256];
	const uint8_t *p = buf;

	if (!table[1]) {
		for (uint32_t i = 0; i < 256; i++) {
			uint32_t c = i;

			for (int k = 0; k < 8; k++)
				c = c & 1 ? 0xedb88320 ^ (c >> 1) : c >> 1;
			table[i] = c;
		}
	}

	crc = ~crc;
	while (len--)
		crc = table[(crc ^ *p++) & 0xff] ^ (crc >> 8);

	return ~crc;
}

/**
 * igt_qaic_open_dbc:
 * @queue_size: ring entries of the DMA Bridge Channel
 * @dbc_id: where to store the DMA Bridge Channel the device gave
 *
 * Opens a new file on the first qaic device and activates a DMA Bridge
 * Channel through it. Closing the file gives the channel back to the card,
 * so a test that opens its own file per channel leaves nothing behind even
 * when it fails half-way. Skips like igt_qaic_open() without a device.
 *
 * Returns: the file descriptor.
 */
int igt_qaic_open_dbc(uint32_t queue_size, uint32_t *dbc_id)
{
	int fd = igt_qaic_open();

	*dbc_id = igt_qaic_activate(fd, queue_size);
	igt_assert_f(*dbc_id < IGT_QAIC_NUM_DBC, "DBC %u\n", *dbc_id);

	return fd;
}

/**
 * igt_qaic_bo_create:
 * @fd: qaic device file descriptor
 * @size: size in bytes, a multiple of the page size
 * @bo: gets the handle, the size and a read/write mapping of the object
 *
 * Creates a buffer object and maps all of it.
 */
void igt_qaic_bo_create(int fd, uint64_t size, struct igt_qaic_bo *bo)
{
	bo->handle = igt_qaic_create_bo(fd, size);
	bo->size = size;
	bo->ptr = igt_qaic_mmap_bo(fd, bo->handle, size,
				   PROT_READ | PROT_WRITE);
}

/**
 * igt_qaic_bo_destroy:
 * @fd: qaic device file descriptor
 * @bo: object from igt_qaic_bo_create()
 *
 * Unmaps the object and closes its handle.
 */
void igt_qaic_bo_destroy(int fd, struct igt_qaic_bo *bo)
{
	igt_qaic_munmap(bo->ptr, bo->size);
	gem_close(fd, bo->handle);
	memset(bo, 0, sizeof(*bo));
}

/**
 * igt_qaic_fill_pattern:
 * @buf: buffer to fill
 * @len: bytes at @buf
 * @seed: selects the sequence; 0 is as good as any other value
 *
 * Fills @buf with pseudo-random bytes (xorshift32) that depend on @seed
 * only, so that a test can compute them again to compare with.
 */
void igt_qaic_fill_pattern(void *buf, size_t len, uint32_t seed)
{
	uint32_t x = seed * 2654435761u + 0x9e3779b9u;
	uint8_t *p = buf;

	if (!x)
		x = 1;
	for (size_t i = 0; i < len; i++) {
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		p[i] = x >> 24;
	}
}

/**
 * igt_qaic_assert_bytes:
 * @got: bytes read back
 * @expected: bytes they must equal
 * @len: bytes to compare
 * @what: what is compared, for the failure message
 *
 * Fails the test at the first byte that differs, saying where it is.
 */
void igt_qaic_assert_bytes(const void *got, const void *expected, size_t len,
			   const char *what)
{
	const uint8_t *g = got, *e = expected;
	size_t i, bad = 0;

	if (!memcmp(got, expected, len))
		return;

	for (i = 0; i < len; i++)
		bad += g[i] != e[i];
	for (i = 0; g[i] == e[i]; i++)
		;
	igt_assert_f(false,
		     "%s: %zu of %zu bytes differ, first at %#zx: %#04x, expected %#04x\n",
		     what, bad, len, i, g[i], e[i]);
}

/**
 * igt_qaic_sem:
 * @cmd: QAIC_SEM_* command
 * @index: semaphore number, 0 to 31
 * @val: operand, 12 bits
 * @presync: run before the transfer instead of after it
 *
 * Returns: the semaphore operation, with no fence flags.
 */
struct qaic_sem igt_qaic_sem(uint8_t cmd, uint8_t index, uint16_t val,
			     bool presync)
{
	struct qaic_sem sem = {
		.val = val,
		.index = index,
		.presync = presync,
		.cmd = cmd,
	};

	return sem;
}

/**
 * igt_qaic_slice_init:
 * @entry: slice to set up
 * @offset: offset of the slice in its buffer object
 * @size: bytes of the slice
 * @dev_addr: device address the slice is transferred to or from
 *
 * Makes @entry a slice with no semaphore operation and no doorbell.
 */
void igt_qaic_slice_init(struct qaic_attach_slice_entry *entry,
			 uint64_t offset, uint64_t size, uint64_t dev_addr)
{
	memset(entry, 0, sizeof(*entry));
	entry->offset = offset;
	entry->size = size;
	entry->dev_addr = dev_addr;
}

/**
 * igt_qaic_slice_doorbell:
 * @entry: slice to change
 * @db_addr: device address of the doorbell
 * @db_len: width of the doorbell write in bits: 8, 16 or 32
 * @db_data: value to write
 *
 * Has the slice write a doorbell after its transfer.
 */
void igt_qaic_slice_doorbell(struct qaic_attach_slice_entry *entry,
			     uint64_t db_addr, uint32_t db_len,
			     uint32_t db_data)
{
	entry->db_addr = db_addr;
	entry->db_len = db_len;
	entry->db_data = db_data;
}

/**
 * __igt_qaic_attach_slice:
 * @fd: qaic device file descriptor
 * @handle: GEM handle of the buffer object to slice
 * @dbc_id: DMA Bridge Channel it is sliced for
 * @dir: IGT_QAIC_DIR_TO_DEV or IGT_QAIC_DIR_FROM_DEV
 * @entries: the slices; the pointer is passed as is, even if invalid
 * @count: number of slices
 *
 * Slices a buffer object with DRM_IOCTL_QAIC_ATTACH_SLICE_BO.
 *
 * Returns: 0 on success, else a negative errno.
 */
int __igt_qaic_attach_slice(int fd, uint32_t handle, uint32_t dbc_id,
			    uint32_t dir,
			    const struct qaic_attach_slice_entry *entries,
			    uint32_t count)
{
	struct qaic_attach_slice args = {
		.hdr = {
			.count = count,
			.dbc_id = dbc_id,
			.handle = handle,
			.dir = dir,
		},
		.data = to_user_pointer(entries),
	};
	int err = 0;

	if (igt_ioctl(fd, DRM_IOCTL_QAIC_ATTACH_SLICE_BO, &args))
		err = -errno;
	errno = 0;

	return err;
}

/**
 * igt_qaic_attach_slice:
 * @fd: qaic device file descriptor
 * @handle: GEM handle of the buffer object to slice
 * @dbc_id: DMA Bridge Channel it is sliced for
 * @dir: IGT_QAIC_DIR_TO_DEV or IGT_QAIC_DIR_FROM_DEV
 * @entries: the slices
 * @count: number of slices
 *
 * Like __igt_qaic_attach_slice(), but fails the test on error.
 */
void igt_qaic_attach_slice(int fd, uint32_t handle, uint32_t dbc_id,
			   uint32_t dir,
			   const struct qaic_attach_slice_entry *entries,
			   uint32_t count)
{
	int err = __igt_qaic_attach_slice(fd, handle, dbc_id, dir, entries,
					  count);

	igt_assert_f(err == 0, "ATTACH_SLICE_BO of %u slices on DBC %u: %s\n",
		     count, dbc_id, strerror(-err));
}

/**
 * __igt_qaic_attach_simple:
 * @fd: qaic device file descriptor
 * @handle: GEM handle of the buffer object to slice
 * @dbc_id: DMA Bridge Channel it is sliced for
 * @dir: IGT_QAIC_DIR_TO_DEV or IGT_QAIC_DIR_FROM_DEV
 * @size: bytes from the start of the object
 * @dev_addr: device address they are transferred to or from
 *
 * Slices the first @size bytes of an object as one slice, with no
 * semaphore operation and no doorbell.
 *
 * Returns: 0 on success, else a negative errno.
 */
int __igt_qaic_attach_simple(int fd, uint32_t handle, uint32_t dbc_id,
			     uint32_t dir, uint64_t size, uint64_t dev_addr)
{
	struct qaic_attach_slice_entry entry;

	igt_qaic_slice_init(&entry, 0, size, dev_addr);

	return __igt_qaic_attach_slice(fd, handle, dbc_id, dir, &entry, 1);
}

/**
 * igt_qaic_attach_simple:
 * @fd: qaic device file descriptor
 * @handle: GEM handle of the buffer object to slice
 * @dbc_id: DMA Bridge Channel it is sliced for
 * @dir: IGT_QAIC_DIR_TO_DEV or IGT_QAIC_DIR_FROM_DEV
 * @size: bytes from the start of the object
 * @dev_addr: device address they are transferred to or from
 *
 * Like __igt_qaic_attach_simple(), but fails the test on error.
 */
void igt_qaic_attach_simple(int fd, uint32_t handle, uint32_t dbc_id,
			    uint32_t dir, uint64_t size, uint64_t dev_addr)
{
	struct qaic_attach_slice_entry entry;

	igt_qaic_slice_init(&entry, 0, size, dev_addr);
	igt_qaic_attach_slice(fd, handle, dbc_id, dir, &entry, 1);
}

/**
 * __igt_qaic_detach_slice:
 * @fd: qaic device file descriptor
 * @handle: GEM handle of a sliced buffer object
 *
 * Drops the slices of an object with DRM_IOCTL_QAIC_DETACH_SLICE_BO.
 *
 * Returns: 0 on success, else a negative errno.
 */
int __igt_qaic_detach_slice(int fd, uint32_t handle)
{
	struct qaic_detach_slice args = {
		.handle = handle,
	};
	int err = 0;

	if (igt_ioctl(fd, DRM_IOCTL_QAIC_DETACH_SLICE_BO, &args))
		err = -errno;
	errno = 0;

	return err;
}

/**
 * igt_qaic_detach_slice:
 * @fd: qaic device file descriptor
 * @handle: GEM handle of a sliced buffer object
 *
 * Like __igt_qaic_detach_slice(), but fails the test on error.
 */
void igt_qaic_detach_slice(int fd, uint32_t handle)
{
	int err = __igt_qaic_detach_slice(fd, handle);

	igt_assert_f(err == 0, "DETACH_SLICE_BO: %s\n", strerror(-err));
}

static int qaic_execute_ioctl(int fd, unsigned long request, uint32_t dbc_id,
			      const void *entries, uint32_t count)
{
	struct qaic_execute args = {
		.hdr = {
			.count = count,
			.dbc_id = dbc_id,
		},
		.data = to_user_pointer(entries),
	};
	static int ours = -1;
	int err = 0;

	if (ours < 0)
		ours = igt_qaic_driver_is_ours(fd);
	if (ours) {
		if (igt_ioctl(fd, request, &args))
			err = -errno;
		errno = 0;
		return err;
	}
	/*
	 * Upstream's qaic answers EAGAIN while the ring is full, and never
	 * queues more than it holds: igt_ioctl() would retry for ever. Retry
	 * for a while, as its runtime does, then give the EAGAIN back.
	 */
	for (int tries = 0; tries < 5000; tries++) {
		err = ioctl(fd, request, &args) ? -errno : 0;
		if (err != -EAGAIN && err != -EINTR)
			break;
		usleep(1000);
	}
	errno = 0;

	return err;
}

/**
 * __igt_qaic_execute:
 * @fd: qaic device file descriptor
 * @dbc_id: DMA Bridge Channel to queue on
 * @entries: the buffer objects to queue, in order; passed as is
 * @count: number of entries
 *
 * Queues sliced buffer objects with DRM_IOCTL_QAIC_EXECUTE_BO.
 *
 * Returns: 0 on success, else a negative errno.
 */
int __igt_qaic_execute(int fd, uint32_t dbc_id,
		       const struct qaic_execute_entry *entries,
		       uint32_t count)
{
	return qaic_execute_ioctl(fd, DRM_IOCTL_QAIC_EXECUTE_BO, dbc_id,
				  entries, count);
}

/**
 * igt_qaic_execute:
 * @fd: qaic device file descriptor
 * @dbc_id: DMA Bridge Channel to queue on
 * @entries: the buffer objects to queue, in order
 * @count: number of entries
 *
 * Like __igt_qaic_execute(), but fails the test on error.
 */
void igt_qaic_execute(int fd, uint32_t dbc_id,
		      const struct qaic_execute_entry *entries,
		      uint32_t count)
{
	int err = __igt_qaic_execute(fd, dbc_id, entries, count);

	igt_assert_f(err == 0, "EXECUTE_BO of %u objects on DBC %u: %s\n",
		     count, dbc_id, strerror(-err));
}

/**
 * __igt_qaic_execute_bo:
 * @fd: qaic device file descriptor
 * @dbc_id: DMA Bridge Channel to queue on
 * @handle: GEM handle of a sliced buffer object
 * @dir: its direction, as attached
 *
 * Queues one buffer object with DRM_IOCTL_QAIC_EXECUTE_BO.
 *
 * Returns: 0 on success, else a negative errno.
 */
int __igt_qaic_execute_bo(int fd, uint32_t dbc_id, uint32_t handle,
			  uint32_t dir)
{
	struct qaic_execute_entry entry = {
		.handle = handle,
		.dir = dir,
	};

	return __igt_qaic_execute(fd, dbc_id, &entry, 1);
}

/**
 * igt_qaic_execute_bo:
 * @fd: qaic device file descriptor
 * @dbc_id: DMA Bridge Channel to queue on
 * @handle: GEM handle of a sliced buffer object
 * @dir: its direction, as attached
 *
 * Like __igt_qaic_execute_bo(), but fails the test on error.
 */
void igt_qaic_execute_bo(int fd, uint32_t dbc_id, uint32_t handle,
			 uint32_t dir)
{
	int err = __igt_qaic_execute_bo(fd, dbc_id, handle, dir);

	igt_assert_f(err == 0, "EXECUTE_BO of handle %u on DBC %u: %s\n",
		     handle, dbc_id, strerror(-err));
}

/**
 * __igt_qaic_partial_execute:
 * @fd: qaic device file descriptor
 * @dbc_id: DMA Bridge Channel to queue on
 * @entries: the buffer objects to queue, in order, with the bytes of each
 *	     to transfer; passed as is
 * @count: number of entries
 *
 * Queues sliced buffer objects with DRM_IOCTL_QAIC_PARTIAL_EXECUTE_BO.
 *
 * Returns: 0 on success, else a negative errno.
 */
int __igt_qaic_partial_execute(int fd, uint32_t dbc_id,
			       const struct qaic_partial_execute_entry *entries,
			       uint32_t count)
{
	return qaic_execute_ioctl(fd, DRM_IOCTL_QAIC_PARTIAL_EXECUTE_BO,
				  dbc_id, entries, count);
}

/**
 * igt_qaic_partial_execute:
 * @fd: qaic device file descriptor
 * @dbc_id: DMA Bridge Channel to queue on
 * @entries: the buffer objects to queue, in order, with their sizes
 * @count: number of entries
 *
 * Like __igt_qaic_partial_execute(), but fails the test on error.
 */
void igt_qaic_partial_execute(int fd, uint32_t dbc_id,
			      const struct qaic_partial_execute_entry *entries,
			      uint32_t count)
{
	int err = __igt_qaic_partial_execute(fd, dbc_id, entries, count);

	igt_assert_f(err == 0,
		     "PARTIAL_EXECUTE_BO of %u objects on DBC %u: %s\n",
		     count, dbc_id, strerror(-err));
}

/**
 * __igt_qaic_wait:
 * @fd: qaic device file descriptor
 * @handle: GEM handle of a buffer object
 * @dbc_id: DMA Bridge Channel it was queued on
 * @timeout_ms: milliseconds to wait; 0 only polls
 *
 * Waits for the jobs of a buffer object with DRM_IOCTL_QAIC_WAIT_BO.
 *
 * Returns: 0 when the object is idle and its last job succeeded, else a
 * negative errno: -ETIMEDOUT if it is still busy, -EIO if its last job
 * failed, -ECANCELED if that job was cancelled.
 */
int __igt_qaic_wait(int fd, uint32_t handle, uint32_t dbc_id,
		    uint32_t timeout_ms)
{
	struct qaic_wait args = {
		.handle = handle,
		.timeout = timeout_ms,
		.dbc_id = dbc_id,
	};
	int err = 0;

	if (igt_ioctl(fd, DRM_IOCTL_QAIC_WAIT_BO, &args))
		err = -errno;
	errno = 0;

	return err;
}

/**
 * igt_qaic_wait:
 * @fd: qaic device file descriptor
 * @handle: GEM handle of a buffer object
 * @dbc_id: DMA Bridge Channel it was queued on
 * @timeout_ms: milliseconds to wait; 0 only polls
 *
 * Like __igt_qaic_wait(), but fails the test unless the object is idle and
 * its last job succeeded.
 */
void igt_qaic_wait(int fd, uint32_t handle, uint32_t dbc_id,
		   uint32_t timeout_ms)
{
	int err = __igt_qaic_wait(fd, handle, dbc_id, timeout_ms);

	igt_assert_f(err == 0, "WAIT_BO of handle %u on DBC %u: %s\n",
		     handle, dbc_id, strerror(-err));
}

/**
 * __igt_qaic_perf_stats:
 * @fd: qaic device file descriptor
 * @dbc_id: DMA Bridge Channel
 * @entries: handles in, statistics out; passed as is
 * @count: number of entries
 *
 * Reads the timing of the last execution of buffer objects with
 * DRM_IOCTL_QAIC_PERF_STATS_BO.
 *
 * Returns: 0 on success, else a negative errno.
 */
int __igt_qaic_perf_stats(int fd, uint32_t dbc_id,
			  struct qaic_perf_stats_entry *entries,
			  uint16_t count)
{
	struct qaic_perf_stats args = {
		.hdr = {
			.count = count,
			.dbc_id = dbc_id,
		},
		.data = to_user_pointer(entries),
	};
	int err = 0;

	if (igt_ioctl(fd, DRM_IOCTL_QAIC_PERF_STATS_BO, &args))
		err = -errno;
	errno = 0;

	return err;
}

/**
 * igt_qaic_perf_stats:
 * @fd: qaic device file descriptor
 * @dbc_id: DMA Bridge Channel
 * @entries: handles in, statistics out
 * @count: number of entries
 *
 * Like __igt_qaic_perf_stats(), but fails the test on error.
 */
void igt_qaic_perf_stats(int fd, uint32_t dbc_id,
			 struct qaic_perf_stats_entry *entries,
			 uint16_t count)
{
	int err = __igt_qaic_perf_stats(fd, dbc_id, entries, count);

	igt_assert_f(err == 0, "PERF_STATS_BO on DBC %u: %s\n", dbc_id,
		     strerror(-err));
}

/* One object, one slice of @size bytes at @dev_addr, executed and waited for */
static void qaic_transfer(int fd, uint32_t dbc_id, uint32_t dir,
			  uint64_t dev_addr, void *buf, uint64_t size)
{
	struct igt_qaic_bo bo;

	igt_qaic_bo_create(fd, size, &bo);
	if (dir == IGT_QAIC_DIR_TO_DEV)
		memcpy(bo.ptr, buf, size);
	else
		memset(bo.ptr, 0x5a, size);
	igt_qaic_attach_simple(fd, bo.handle, dbc_id, dir, size, dev_addr);
	igt_qaic_execute_bo(fd, dbc_id, bo.handle, dir);
	igt_qaic_wait(fd, bo.handle, dbc_id, 10000);
	if (dir == IGT_QAIC_DIR_FROM_DEV)
		memcpy(buf, bo.ptr, size);
	igt_qaic_detach_slice(fd, bo.handle);
	igt_qaic_bo_destroy(fd, &bo);
}

/**
 * igt_qaic_write_dev:
 * @fd: qaic device file descriptor
 * @dbc_id: DMA Bridge Channel owned by @fd, idle
 * @dev_addr: device address to write at
 * @buf: bytes to write
 * @size: bytes at @buf
 *
 * Writes device memory through a buffer object sliced, executed and waited
 * for on @dbc_id, failing the test if any step fails.
 */
void igt_qaic_write_dev(int fd, uint32_t dbc_id, uint64_t dev_addr,
			const void *buf, uint64_t size)
{
	qaic_transfer(fd, dbc_id, IGT_QAIC_DIR_TO_DEV, dev_addr, (void *)buf,
		      size);
}

/**
 * igt_qaic_read_dev:
 * @fd: qaic device file descriptor
 * @dbc_id: DMA Bridge Channel owned by @fd, idle
 * @dev_addr: device address to read at
 * @buf: gets the bytes
 * @size: bytes to read
 *
 * Reads device memory through a buffer object sliced, executed and waited
 * for on @dbc_id, failing the test if any step fails.
 */
void igt_qaic_read_dev(int fd, uint32_t dbc_id, uint64_t dev_addr,
		       void *buf, uint64_t size)
{
	qaic_transfer(fd, dbc_id, IGT_QAIC_DIR_FROM_DEV, dev_addr, buf, size);
}

/**
 * igt_qaic_round_trip:
 * @fd: qaic device file descriptor
 * @dbc_id: DMA Bridge Channel owned by @fd
 * @dev_addr: device address to go through
 * @size: bytes, a multiple of the page size
 * @seed: selects the data
 *
 * Sends @size pseudo-random bytes to the device at @dev_addr from one
 * buffer object, reads them back into another one, and fails the test
 * unless they came back unchanged. The ring of the channel must take the
 * requests of a @size-byte slice: up to one per page.
 */
void igt_qaic_round_trip(int fd, uint32_t dbc_id, uint64_t dev_addr,
			 uint64_t size, uint32_t seed)
{
	struct igt_qaic_bo in, out;

	igt_qaic_bo_create(fd, size, &in);
	igt_qaic_bo_create(fd, size, &out);
	igt_qaic_fill_pattern(in.ptr, size, seed);
	/* Whatever the device does not write must not pass for the data */
	igt_qaic_fill_pattern(out.ptr, size, ~seed);

	igt_qaic_attach_simple(fd, in.handle, dbc_id, IGT_QAIC_DIR_TO_DEV,
			       size, dev_addr);
	igt_qaic_attach_simple(fd, out.handle, dbc_id, IGT_QAIC_DIR_FROM_DEV,
			       size, dev_addr);

	igt_qaic_execute_bo(fd, dbc_id, in.handle, IGT_QAIC_DIR_TO_DEV);
	igt_qaic_wait(fd, in.handle, dbc_id, 10000);
	igt_qaic_execute_bo(fd, dbc_id, out.handle, IGT_QAIC_DIR_FROM_DEV);
	igt_qaic_wait(fd, out.handle, dbc_id, 10000);

	igt_qaic_assert_bytes(out.ptr, in.ptr, size, "round trip");

	igt_qaic_detach_slice(fd, in.handle);
	igt_qaic_detach_slice(fd, out.handle);
	igt_qaic_bo_destroy(fd, &in);
	igt_qaic_bo_destroy(fd, &out);
}

/**
 * igt_qaic_stall_bo:
 * @fd: qaic device file descriptor
 * @dbc_id: DMA Bridge Channel owned by @fd
 * @sem_index: a semaphore of the channel that is 0 and stays so
 * @bo: gets a one-page object, sliced for @dbc_id to the device
 *
 * Makes an object whose one slice first waits for semaphore @sem_index to
 * be 4095. The channel runs its requests in order and nothing else on it
 * sets the semaphore, so once executed the object keeps the channel busy
 * until the driver gives up on it: after job_timeout_ms its wait fails
 * with EIO and the channel is reset. The emulated card has no workload
 * that could release the semaphore, and a request queued behind the
 * waiting one cannot run before it.
 */
void igt_qaic_stall_bo(int fd, uint32_t dbc_id, uint8_t sem_index,
		       struct igt_qaic_bo *bo)
{
	struct qaic_attach_slice_entry entry;

	igt_qaic_bo_create(fd, 4096, bo);
	igt_qaic_slice_init(&entry, 0, 4096, IGT_QAIC_DEV_MEM_SIZE - 4096);
	entry.sem0 = igt_qaic_sem(QAIC_SEM_WAIT_EQUAL, sem_index,
				  IGT_QAIC_SEM_MAX, true);
	igt_qaic_attach_slice(fd, bo->handle, dbc_id, IGT_QAIC_DIR_TO_DEV,
			      &entry, 1);
}

/**
 * igt_qaic_write_file:
 * @path: a file to write, which must exist (sysfs, debugfs, procfs)
 * @val: what to write, in one write()
 *
 * Fails the test unless all of @val was written.
 */
void igt_qaic_write_file(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY);

	igt_assert_f(fd >= 0, "open %s: %s\n", path, strerror(errno));
	igt_assert_f(write(fd, val, strlen(val)) == (ssize_t)strlen(val),
		     "write %s to %s: %s\n", val, path, strerror(errno));
	close(fd);
}

/* Module parameters igt_qaic_param_set() changed, and what they were. */
#define QAIC_PARAMS_DIR		"/sys/module/qaic/parameters/"
#define QAIC_PARAMS_MAX		8

static struct {
	char name[48];
	char was[32];
} qaic_params[QAIC_PARAMS_MAX];
static unsigned int qaic_nr_params;

static void qaic_params_put_back(int sig)
{
	(void)sig;
	igt_qaic_param_restore();
}

/**
 * igt_qaic_param_set:
 * @name: a parameter of the qaic module (/sys/module/qaic/parameters/@name)
 * @val: what to write into it
 *
 * Sets a module parameter for the rest of the process, skipping the test
 * when the driver has no such parameter. The first time this process sets
 * @name, its value is kept: igt_qaic_param_restore() and, at the latest,
 * the process's exit (an exit handler: igt/run runs a subtest a process)
 * write it back.
 *
 * Returns: the value the parameter had before this process first set it.
 */
const char *igt_qaic_param_set(const char *name, const char *val)
{
	char path[128];
	unsigned int i;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), QAIC_PARAMS_DIR "%s", name);
	for (i = 0; i < qaic_nr_params; i++)
		if (!strcmp(qaic_params[i].name, name))
			break;
	if (i == qaic_nr_params) {
		igt_assert(i < QAIC_PARAMS_MAX);
		fd = open(path, O_RDONLY);
		igt_require_f(fd >= 0, "the driver has no %s\n", name);
		n = read(fd, qaic_params[i].was, sizeof(qaic_params[i].was) - 1);
		close(fd);
		igt_assert_f(n > 0, "read %s: %s\n", path, n < 0 ? strerror(errno) : "empty");
		qaic_params[i].was[n] = '\0';
		snprintf(qaic_params[i].name, sizeof(qaic_params[i].name), "%s", name);
		if (!qaic_nr_params++)
			igt_install_exit_handler(qaic_params_put_back);
	}
	igt_qaic_write_file(path, val);
	return qaic_params[i].was;
}

/* Writes entry @i back and forgets it; also from an exit handler: no assertion. */
static void qaic_param_put_back_at(unsigned int i)
{
	char path[128];
	int fd;

	snprintf(path, sizeof(path), QAIC_PARAMS_DIR "%s", qaic_params[i].name);
	fd = open(path, O_WRONLY);
	if (fd >= 0) {
		if (write(fd, qaic_params[i].was, strlen(qaic_params[i].was)) < 0)
			igt_info("putting %s back: %s\n", path, strerror(errno));
		close(fd);
	}
	qaic_nr_params--;
	memmove(&qaic_params[i], &qaic_params[i + 1],
		(qaic_nr_params - i) * sizeof(qaic_params[0]));
}

/**
 * igt_qaic_param_put_back:
 * @name: a parameter igt_qaic_param_set() changed
 *
 * Writes @name back as it was before this process first set it, now; the
 * other parameters stay as set. Nothing happens for a parameter not set.
 */
void igt_qaic_param_put_back(const char *name)
{
	for (unsigned int i = 0; i < qaic_nr_params; i++)
		if (!strcmp(qaic_params[i].name, name))
			qaic_param_put_back_at(i);
}

/**
 * igt_qaic_param_restore:
 *
 * Writes back every module parameter igt_qaic_param_set() changed, last
 * set first, as it was before this process set it.
 */
void igt_qaic_param_restore(void)
{
	while (qaic_nr_params)
		qaic_param_put_back_at(qaic_nr_params - 1);
}

/**
 * igt_qaic_read_int:
 * @path: a file holding a decimal number (sysfs, debugfs)
 *
 * Returns: the number, or -1 if there is no such file. Fails the test if
 * the file cannot be read.
 */
int igt_qaic_read_int(const char *path)
{
	char buf[32] = "";
	int fd, n;

	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	igt_assert_f(n > 0, "read %s: %s\n", path, strerror(errno));
	return atoi(buf);
}

/**
 * igt_qaic_card_bdf:
 * @fd: qaic device file descriptor
 * @bdf: where the PCI address goes, e.g. "0000:00:00.0"
 * @len: bytes at @bdf
 *
 * The PCI function of the card behind @fd, as sysfs and debugfs name it:
 * the device of its accel node.
 */
void igt_qaic_card_bdf(int fd, char *bdf, size_t len)
{
	char dev[64], link[PATH_MAX];
	const char *base;
	struct stat st;
	ssize_t n;

	igt_assert_eq(fstat(fd, &st), 0);
	snprintf(dev, sizeof(dev), "/sys/dev/char/%u:%u/device",
		 major(st.st_rdev), minor(st.st_rdev));
	n = readlink(dev, link, sizeof(link) - 1);
	igt_assert_f(n > 0, "readlink(%s): %s\n", dev, strerror(errno));
	link[n] = '\0';
	base = strrchr(link, '/');
	snprintf(bdf, len, "%s", base ? base + 1 : link);
}

/* scandir() filter: a PCI function of Qualcomm's, as qaic's cards are. */
static int is_qaic_function(const struct dirent *de)
{
	char path[PATH_MAX], buf[16] = "";
	FILE *f;
	bool ok;

	if (de->d_name[0] == '.')
		return 0;
	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/vendor", de->d_name);
	f = fopen(path, "r");
	if (!f)
		return 0;
	ok = fgets(buf, sizeof(buf), f) && strtoul(buf, NULL, 16) == 0x17cb;
	fclose(f);
	return ok;
}

/**
 * igt_qaic_card_addr:
 * @n: which card, from 0
 * @bdf: where the PCI address goes, e.g. "0000:01:00.0"
 * @len: bytes at @bdf
 *
 * Card @n of the machine: the @n-th PCI function of vendor 17cb in
 * address order, bound to a driver or not. In igt/run's bench, card N is
 * in slot N of bus 0 ("0000:00:0N.0"); on tests/pc/run's PC, each card is
 * alone on the bus behind its own root port ("0000:0M:00.0", M = N + 1).
 *
 * Returns: false (and "" at @bdf) when the machine has no card @n.
 */
bool igt_qaic_card_addr(unsigned int n, char *bdf, size_t len)
{
	struct dirent **list;
	bool found = false;
	int count;

	if (len)
		bdf[0] = '\0';
	count = scandir("/sys/bus/pci/devices", &list, is_qaic_function, alphasort);
	if (count < 0)
		return false;
	for (int i = 0; i < count; i++) {
		if ((unsigned int)i == n) {
			snprintf(bdf, len, "%s", list[i]->d_name);
			found = true;
		}
		free(list[i]);
	}
	free(list);
	return found;
}

/**
 * igt_qaic_open_bdf:
 * @bdf: PCI address of a card, as igt_qaic_card_bdf() gives it
 *
 * Opens the accel node of the card at @bdf, waiting up to 5 s for it to
 * appear (after a bind or a module load) and, on upstream's driver, to
 * open (it refuses opens with ENODEV until the card has booted).
 *
 * Returns: the file descriptor.
 */
int igt_qaic_open_bdf(const char *bdf)
{
	uint64_t deadline = igt_qaic_now_ms() + 5000;
	bool refused = false;
	char path[128];

	do {
		for (int minor = 0; minor < 64; minor++) {
			int fd;

			snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/accel/accel%d",
				 bdf, minor);
			if (access(path, F_OK))
				continue;
			snprintf(path, sizeof(path), "/dev/accel/accel%d", minor);
			if (access(path, F_OK))
				continue;
			fd = open(path, O_RDWR | O_CLOEXEC);
			/* Upstream's node refuses opens until the card has booted */
			if (fd < 0 && errno == ENODEV && igt_qaic_now_ms() < deadline) {
				refused = true;
				continue;
			}
			igt_assert_f(fd >= 0, "open %s: %s\n", path, strerror(errno));
			return fd;
		}
		usleep(50000);
	} while (igt_qaic_now_ms() < deadline);
	igt_assert_f(false, "card %s: %s\n", bdf,
		     refused ? "its accel node refused every open (ENODEV)" : "no accel node");
	return -1;
}

/**
 * igt_qaic_dbcs_free_checks:
 *
 * The end of a program whose subtests take DBCs: a last subtest,
 * dbcs-free, and a last fixture that check with igt_qaic_assert_dbcs_free()
 * that the subtests before gave every DBC back. IGT's runner with -m runs
 * the subtest after all others of the program, in the same process; a
 * runner that runs one subtest per process gets the fixture's verdict
 * after each in the exit status (igt_runner does not look at it).
 */
void igt_qaic_dbcs_free_checks(void)
{
	igt_describe("Check that a new file can activate every DBC: no subtest before left one taken.");
	igt_subtest("dbcs-free")
		igt_qaic_assert_dbcs_free();

	igt_fixture
		igt_qaic_assert_dbcs_free();
}

/**
 * igt_qaic_tool_path:
 * @name: a program of tools/, e.g. "qaic-info"
 * @path: gets where it is
 * @len: bytes at @path
 *
 * Finds a tool of the project in $QAIC_TOOLS_DIR if that is set (igt/run
 * sets it to the build's tools/), else in $PATH. Skips the test if there
 * is none: a test program may run far from the build, under any runner.
 */
void igt_qaic_tool_path(const char *name, char *path, size_t len)
{
	const char *dir = getenv("QAIC_TOOLS_DIR");
	char *dirs, *d, *save = NULL;

	if (dir) {
		snprintf(path, len, "%s/%s", dir, name);
		igt_require_f(!access(path, X_OK), "no %s in QAIC_TOOLS_DIR=%s\n",
			      name, dir);
		return;
	}
	dirs = strdup(getenv("PATH") ?: "/usr/local/bin:/usr/bin:/bin");
	igt_assert(dirs);
	for (d = strtok_r(dirs, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
		snprintf(path, len, "%s/%s", *d ? d : ".", name);
		if (!access(path, X_OK))
			break;
	}
	free(dirs);
	igt_require_f(d, "no %s in $PATH, and no QAIC_TOOLS_DIR\n", name);
}

/**
 * igt_qaic_job_timeout_ms:
 *
 * Returns: the job_timeout_ms parameter of the loaded qaic module, or its
 * default when the module does not show it.
 */
uint32_t igt_qaic_job_timeout_ms(void)
{
	unsigned int ms = IGT_QAIC_JOB_TIMEOUT_MS;
	FILE *f;

	f = fopen("/sys/module/qaic/parameters/job_timeout_ms", "r");
	if (f) {
		if (fscanf(f, "%u", &ms) != 1 || !ms)
			ms = IGT_QAIC_JOB_TIMEOUT_MS;
		fclose(f);
	}

	return ms;
}

/**
 * igt_qaic_module_refcount:
 *
 * Returns: the references held on the qaic module (/sys/module/qaic/refcnt),
 * or a negative errno, -ENOENT where qaic is no module or not loaded.
 */
int igt_qaic_module_refcount(void)
{
	FILE *file = fopen("/sys/module/qaic/refcnt", "r");
	int count;

	if (!file)
		return -errno;
	if (fscanf(file, "%d", &count) != 1)
		count = -EINVAL;
	fclose(file);

	return count;
}

/**
 * igt_qaic_now_ms:
 *
 * Returns: CLOCK_MONOTONIC in milliseconds.
 */
uint64_t igt_qaic_now_ms(void)
{
	struct timespec ts;

	igt_assert_eq(clock_gettime(CLOCK_MONOTONIC, &ts), 0);

	return ts.tv_sec * 1000ull + ts.tv_nsec / 1000000;
}

/*
 * Sends passthrough @op @arg to the emulated card's manager and copies the
 * payload of its answer, at most @size bytes, to @answer. Returns the
 * payload's length, or a negative errno of MANAGE.
 */
static int qaic_emu_call_params(int fd, uint32_t op, uint32_t arg,
				const void *params, uint32_t params_len,
				void *answer, uint32_t size)
{
	const uint32_t hdr_len = sizeof(struct qaic_manage_trans_hdr);
	struct igt_qaic_emu_req req = {
		.op = op,
		.arg = arg,
	};
	struct qaic_manage_trans_hdr hdr;
	uint8_t payload[64];
	struct igt_qaic_msg msg;
	const uint8_t *trans;
	uint32_t len;
	int err;

	igt_assert(sizeof(req) + params_len <= sizeof(payload));
	memcpy(payload, &req, sizeof(req));
	if (params_len)
		memcpy(payload + sizeof(req), params, params_len);
	igt_qaic_msg_init(&msg);
	igt_qaic_msg_passthrough(&msg, payload, sizeof(req) + params_len);
	err = __igt_qaic_manage(fd, &msg);
	if (err)
		return err;

	trans = igt_qaic_msg_answer(&msg, 0, QAIC_TRANS_PASSTHROUGH_FROM_DEV, 0);
	memcpy(&hdr, trans, sizeof(hdr));
	len = hdr.len - hdr_len;
	memset(answer, 0, size);
	memcpy(answer, trans + hdr_len, len < size ? len : size);

	return len;
}

static int qaic_emu_call(int fd, uint32_t op, uint32_t arg, void *answer,
			 uint32_t size)
{
	return qaic_emu_call_params(fd, op, arg, NULL, 0, answer, size);
}

/**
 * __igt_qaic_emu_dbc_set_faults:
 * @fd: qaic device file descriptor
 * @dbc_id: DMA Bridge Channel
 * @faults: the faults, all of them (0 turns one off)
 *
 * Sets the faults of the emulated card's channel (EMU_PT_DBC_FAULTS); they
 * last until changed, also past the channel's release.
 *
 * Returns: a negative errno if MANAGE failed, else the status the emulator
 * answered (0 on success).
 */
int __igt_qaic_emu_dbc_set_faults(int fd, uint32_t dbc_id,
				  const struct igt_qaic_dbc_faults *faults)
{
	uint32_t params[6] = {
		faults->drop_every, faults->corrupt_every, faults->corrupt_status,
		faults->reqhp_lag, faults->msi_off, 0,
	};
	struct igt_qaic_emu_status status;
	int len;

	len = qaic_emu_call_params(fd, IGT_QAIC_EMU_PT_DBC_FAULTS, dbc_id, params,
				   sizeof(params), &status, sizeof(status));
	if (len < 0)
		return len;
	igt_assert_eq(len, sizeof(status));
	igt_assert_eq_u32(status.op, IGT_QAIC_EMU_PT_DBC_FAULTS);

	return status.status;
}

/**
 * __igt_qaic_emu_dbc_faults:
 * @fd: qaic device file descriptor
 * @dbc_id: DMA Bridge Channel
 * @drop_every: drop every this many-th response of the channel; 0 for none
 * @corrupt_every: give every this many-th response @corrupt_status; 0 for none
 * @corrupt_status: the status a corrupted response carries
 *
 * __igt_qaic_emu_dbc_set_faults() of the response faults alone.
 *
 * Returns: as __igt_qaic_emu_dbc_set_faults().
 */
int __igt_qaic_emu_dbc_faults(int fd, uint32_t dbc_id, uint32_t drop_every,
			      uint32_t corrupt_every, uint16_t corrupt_status)
{
	struct igt_qaic_dbc_faults faults = {
		.drop_every = drop_every,
		.corrupt_every = corrupt_every,
		.corrupt_status = corrupt_status,
	};

	return __igt_qaic_emu_dbc_set_faults(fd, dbc_id, &faults);
}

/**
 * igt_qaic_emu_dbc_faults:
 * @fd: qaic device file descriptor
 * @dbc_id: DMA Bridge Channel
 * @drop_every: as for __igt_qaic_emu_dbc_faults()
 * @corrupt_every: as for __igt_qaic_emu_dbc_faults()
 * @corrupt_status: as for __igt_qaic_emu_dbc_faults()
 *
 * Like __igt_qaic_emu_dbc_faults(), but skips the test on an emulator that
 * does not know the request and fails it on any other error.
 */
void igt_qaic_emu_dbc_faults(int fd, uint32_t dbc_id, uint32_t drop_every,
			     uint32_t corrupt_every, uint16_t corrupt_status)
{
	int ret = __igt_qaic_emu_dbc_faults(fd, dbc_id, drop_every, corrupt_every,
					    corrupt_status);

	igt_require_f(ret != IGT_QAIC_EMU_PT_E_UNKNOWN_OP,
		      "the emulator has no EMU_PT_DBC_FAULTS\n");
	igt_assert_f(ret == 0, "EMU_PT_DBC_FAULTS of DBC %u: %d\n", dbc_id, ret);
}

/*
 * A request with two parameter words, answered with a status: a negative
 * errno if MANAGE failed, else the status.
 */
static int qaic_emu_status_call(int fd, uint32_t op, uint32_t arg, uint32_t p0,
				uint32_t p1)
{
	uint32_t params[2] = { p0, p1 };
	struct igt_qaic_emu_status status;
	int len;

	len = qaic_emu_call_params(fd, op, arg, params, sizeof(params), &status,
				   sizeof(status));
	if (len < 0)
		return len;
	igt_assert_eq(len, sizeof(status));
	igt_assert_eq_u32(status.op, op);
	igt_assert_eq_u32(status.arg, arg);

	return status.status;
}

/**
 * __igt_qaic_emu_hang_dbc:
 * @fd: qaic device file descriptor
 * @dbc_id: an active DMA Bridge Channel
 *
 * Arms the one-shot hang of the emulated card (EMU_PT_HANG_DBC): the next
 * request the channel starts never completes, until the driver resets the
 * channel.
 *
 * Returns: a negative errno if MANAGE failed, else the status the emulator
 * answered: 0 on success, IGT_QAIC_EMU_PT_E_UNKNOWN_OP from an emulator
 * without the request.
 */
int __igt_qaic_emu_hang_dbc(int fd, uint32_t dbc_id)
{
	return __igt_qaic_emu_hang_dbc_late(fd, dbc_id, 0);
}

/**
 * __igt_qaic_emu_hang_dbc_late:
 * @fd: qaic device file descriptor
 * @dbc_id: an active DMA Bridge Channel
 * @late_ms: delay after the driver's reset of the channel, at most 60000
 *
 * Arms the one-shot hang as __igt_qaic_emu_hang_dbc(), but the channel
 * fetches the request it hangs on and keeps it through the driver's
 * reset: it carries out the request's transfer @late_ms after that reset,
 * or when the DBC is released first (the card's work ends before it
 * answers). A card that goes on with work the host gave up on.
 *
 * Returns: as __igt_qaic_emu_hang_dbc().
 */
int __igt_qaic_emu_hang_dbc_late(int fd, uint32_t dbc_id, uint32_t late_ms)
{
	/* Transactions are whole 8-byte words: the delay and a pad */
	return qaic_emu_status_call(fd, IGT_QAIC_EMU_PT_HANG_DBC, dbc_id, late_ms, 0);
}


/**
 * __igt_qaic_emu_dbc_timing:
 * @fd: qaic device file descriptor
 * @dbc_id: DMA Bridge Channel
 * @req_ns: nanoseconds each request of the channel takes from its doorbell;
 *	    0 (the default) completes requests within the doorbell write
 *
 * Sets the device time of the emulated card's channel (EMU_PT_DBC_TIMING);
 * it lasts until changed, also past the channel's release.
 *
 * Returns: a negative errno if MANAGE failed, else the status the emulator
 * answered (0 on success).
 */
int __igt_qaic_emu_dbc_timing(int fd, uint32_t dbc_id, uint32_t req_ns)
{
	/* Transactions are whole 8-byte words: the time and a pad */
	return qaic_emu_status_call(fd, IGT_QAIC_EMU_PT_DBC_TIMING, dbc_id, req_ns, 0);
}

/**
 * igt_qaic_emu_dbc_timing_reset:
 * @sig: the signal of an exit handler, unused
 *
 * Takes the device time of every channel of the emulated card back to 0:
 * device time outlives the channel, and a test that sets it installs this
 * as an exit handler so as never to leave it to the next test.
 */
void igt_qaic_emu_dbc_timing_reset(int sig __attribute__((unused)))
{
	int fd = __igt_qaic_open();

	if (fd < 0)
		return;
	for (uint32_t dbc = 0; dbc < IGT_QAIC_NUM_DBC; dbc++)
		__igt_qaic_emu_dbc_timing(fd, dbc, 0);
	close(fd);
}

/* A request to the whole emulated card, answered with a status. */
static int qaic_emu_card_call(int fd, uint32_t op, uint32_t ms)
{
	struct igt_qaic_emu_status status;
	int len;

	len = qaic_emu_call(fd, op, ms, &status, sizeof(status));
	if (len < 0)
		return len;
	igt_assert_eq(len, sizeof(status));
	igt_assert_eq_u32(status.op, op);

	return status.status;
}

/**
 * __igt_qaic_emu_sys_error:
 * @fd: qaic device file descriptor
 * @ms: milliseconds from now, 1..60000
 *
 * Makes the emulated card crash (MHI SYS_ERROR, EMU_PT_SYS_ERROR) @ms
 * milliseconds after it answered this request.
 *
 * Returns: a negative errno if MANAGE failed, else the status the emulator
 * answered (0 on success, IGT_QAIC_EMU_PT_E_UNKNOWN_OP from an emulator
 * without the request).
 */
int __igt_qaic_emu_sys_error(int fd, uint32_t ms)
{
	return qaic_emu_card_call(fd, IGT_QAIC_EMU_PT_SYS_ERROR, ms);
}

/**
 * __igt_qaic_emu_vanish:
 * @fd: qaic device file descriptor
 * @ms: milliseconds from now, 1..60000
 *
 * Makes the emulated card go away (EMU_PT_VANISH: the emulator drops its
 * connection, a surprise removal) @ms milliseconds after it answered.
 *
 * Returns: as __igt_qaic_emu_sys_error().
 */
int __igt_qaic_emu_vanish(int fd, uint32_t ms)
{
	return qaic_emu_card_call(fd, IGT_QAIC_EMU_PT_VANISH, ms);
}

/**
 * __igt_qaic_emu_silence:
 * @fd: qaic device file descriptor
 *
 * Makes the emulated card's manager answer nothing after this request
 * (EMU_PT_SILENCE), until the card is reset.
 *
 * Returns: as __igt_qaic_emu_sys_error().
 */
int __igt_qaic_emu_silence(int fd)
{
	return qaic_emu_card_call(fd, IGT_QAIC_EMU_PT_SILENCE, 0);
}

/**
 * __igt_qaic_emu_answer_delay:
 * @fd: qaic device file descriptor
 * @ms: 0..60000
 *
 * Makes the emulated card's manager answer every later message @ms
 * milliseconds after it came (EMU_PT_ANSWER_DELAY; 0: at once again),
 * until the card is reset: a slow manager.
 *
 * Returns: as __igt_qaic_emu_sys_error().
 */
int __igt_qaic_emu_answer_delay(int fd, uint32_t ms)
{
	return qaic_emu_card_call(fd, IGT_QAIC_EMU_PT_ANSWER_DELAY, ms);
}

/**
 * __igt_qaic_emu_telemetry:
 * @fd: qaic device file descriptor
 * @mode: IGT_QAIC_EMU_TELEMETRY_*
 *
 * Makes the emulated card answer its telemetry questions (QAIC_TELEMETRY)
 * in @mode from now on, until it is reset or told otherwise
 * (EMU_PT_TELEMETRY).
 *
 * Returns: as __igt_qaic_emu_sys_error().
 */
int __igt_qaic_emu_telemetry(int fd, uint32_t mode)
{
	return qaic_emu_card_call(fd, IGT_QAIC_EMU_PT_TELEMETRY, mode);
}

/**
 * igt_qaic_emu_telemetry_reset:
 * @sig: the signal of an exit handler, unused
 *
 * Makes the emulated card answer telemetry well again: the mode outlives
 * the test, so a test that sets it installs this as an exit handler.
 */
void igt_qaic_emu_telemetry_reset(int sig __attribute__((unused)))
{
	int fd = __igt_qaic_open();

	if (fd < 0)
		return;
	__igt_qaic_emu_telemetry(fd, IGT_QAIC_EMU_TELEMETRY_NORMAL);
	close(fd);
}

/**
 * __igt_qaic_emu_ssr:
 * @fd: qaic device file descriptor
 * @dbc_id: an active DMA Bridge Channel (any file's)
 * @mode: IGT_QAIC_EMU_SSR_*
 *
 * Makes the subsystem behind @dbc_id crash and restart (EMU_PT_SSR): the
 * card drops the channel's work at once and walks the driver through the
 * restart on QAIC_SSR. IGT_QAIC_EMU_SSR_RESUME lets a stalled restart of
 * @dbc_id go on.
 *
 * Returns: as __igt_qaic_emu_hang_dbc().
 */
int __igt_qaic_emu_ssr(int fd, uint32_t dbc_id, uint32_t mode)
{
	/* Transactions are whole 8-byte words: the mode and a pad */
	return qaic_emu_status_call(fd, IGT_QAIC_EMU_PT_SSR, dbc_id, mode, 0);
}

/**
 * __igt_qaic_emu_ssr_flood:
 * @fd: qaic device file descriptor
 * @dbc_id: an active DMA Bridge Channel (any file's)
 * @cycles: restarts in a row, 1..IGT_QAIC_EMU_SSR_MAX_CYCLES
 *
 * Makes the card restart the subsystem behind @dbc_id @cycles times in a
 * row (EMU_PT_SSR, IGT_QAIC_EMU_SSR_FLOOD), a new restart as soon as the
 * driver acknowledged the end of the last; the card grants @dbc_id again
 * only after the last one. A card gone bad, against the driver's limits.
 *
 * Returns: as __igt_qaic_emu_hang_dbc().
 */
int __igt_qaic_emu_ssr_flood(int fd, uint32_t dbc_id, uint32_t cycles)
{
	/* The count takes the place of the pad */
	return qaic_emu_status_call(fd, IGT_QAIC_EMU_PT_SSR, dbc_id, IGT_QAIC_EMU_SSR_FLOOD,
				    cycles);
}

/**
 * __igt_qaic_emu_ras:
 * @fd: qaic device file descriptor
 * @source: the error's source, 0..6 (SoC memory, PCIe, DDR, system bus 1
 *	    and 2, NSP memory, temperature sensor)
 * @type: 0 correctable, 1 uncorrectable, 2 uncorrectable non-fatal
 * @flaw: 0 for a well-formed report, else how the emulator breaks it
 *	  (enum emu_ras_flaw of tests/emu/ras.h)
 *
 * Makes the card push a RAS report on QAIC_STATUS (EMU_PT_RAS).
 *
 * Returns: as __igt_qaic_emu_hang_dbc().
 */
int __igt_qaic_emu_ras(int fd, uint32_t source, uint32_t type, uint32_t flaw)
{
	return qaic_emu_status_call(fd, IGT_QAIC_EMU_PT_RAS, source, type, flaw);
}

/**
 * __igt_qaic_emu_card_case:
 * @fd: qaic device file descriptor
 * @table: IGT_QAIC_EMU_CASE_SSR, _RAS, _TIMESYNC, _BOOTLOG or _DBC
 * @idx: the case's index in its table
 *
 * Makes the card send the crafted messages of a systematic case
 * (EMU_PT_CARD_CASE): SSR messages on QAIC_SSR, a RAS report on
 * QAIC_STATUS; or hold its QTimer at the case's value (case 0: it runs);
 * or write the case's boot log messages in its next boot; or craft the
 * next DBC response or index read as the case says.
 *
 * Returns: as __igt_qaic_emu_hang_dbc().
 */
int __igt_qaic_emu_card_case(int fd, uint32_t table, uint32_t idx)
{
	return qaic_emu_status_call(fd, IGT_QAIC_EMU_PT_CARD_CASE, idx, table, 0);
}

/**
 * igt_qaic_emu_hang_dbc:
 * @fd: qaic device file descriptor
 * @dbc_id: an active DMA Bridge Channel
 *
 * Like __igt_qaic_emu_hang_dbc(), but skips the test on an emulator that
 * does not know the request and fails it on any other error.
 */
void igt_qaic_emu_hang_dbc(int fd, uint32_t dbc_id)
{
	int ret = __igt_qaic_emu_hang_dbc(fd, dbc_id);

	igt_require_f(ret != IGT_QAIC_EMU_PT_E_UNKNOWN_OP,
		      "the emulator has no EMU_PT_HANG_DBC\n");
	igt_assert_f(ret == 0, "EMU_PT_HANG_DBC of DBC %u: %d\n", dbc_id, ret);
}

/**
 * __igt_qaic_emu_dbc_counters:
 * @fd: qaic device file descriptor
 * @dbc_id: DMA Bridge Channel, active or not
 * @counters: gets the counters
 *
 * Reads the counters the emulated card keeps for a channel
 * (EMU_PT_DBC_COUNTERS).
 *
 * Returns: a negative errno if MANAGE failed, else the status the emulator
 * answered: 0 on success, IGT_QAIC_EMU_PT_E_UNKNOWN_OP from an emulator
 * without the request.
 */
int __igt_qaic_emu_dbc_counters(int fd, uint32_t dbc_id,
				struct igt_qaic_emu_counters *counters)
{
	int len;

	len = qaic_emu_call(fd, IGT_QAIC_EMU_PT_DBC_COUNTERS, dbc_id, counters,
			    sizeof(*counters));
	if (len < 0)
		return len;
	igt_assert_lte(sizeof(struct igt_qaic_emu_status), len);
	if (counters->status)
		return counters->status;
	igt_assert_eq(len, sizeof(*counters));
	igt_assert_eq_u32(counters->op, IGT_QAIC_EMU_PT_DBC_COUNTERS);
	igt_assert_eq_u32(counters->arg, dbc_id);

	return 0;
}

/**
 * __igt_qaic_emu_timesync:
 * @fd: qaic device file descriptor
 * @ts: gets the counters
 *
 * Reads what the emulated card thought of the times the driver gave it
 * (EMU_PT_TIMESYNC).
 *
 * Returns: as __igt_qaic_emu_dbc_counters().
 */
int __igt_qaic_emu_timesync(int fd, struct igt_qaic_emu_timesync *ts)
{
	int len;

	len = qaic_emu_call(fd, IGT_QAIC_EMU_PT_TIMESYNC, 0, ts, sizeof(*ts));
	if (len < 0)
		return len;
	igt_assert_lte(sizeof(struct igt_qaic_emu_status), len);
	if (ts->status)
		return ts->status;
	igt_assert_eq(len, sizeof(*ts));
	igt_assert_eq_u32(ts->op, IGT_QAIC_EMU_PT_TIMESYNC);

	return 0;
}

/**
 * igt_qaic_err_name:
 * @err: a positive errno, or 0
 *
 * Returns: strerror(@err), or "success" for 0, for messages that print
 * what an ioctl returned.
 */
const char *igt_qaic_err_name(int err)
{
	return err ? strerror(err) : "success";
}

/**
 * igt_qaic_unmapped_ptr:
 *
 * Returns: an address with nothing mapped at it (a page mapped and
 * unmapped again), for passing to an ioctl that must fail with EFAULT.
 */
void *igt_qaic_unmapped_ptr(void)
{
	void *ptr = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	igt_assert(ptr != MAP_FAILED);
	igt_assert_eq(munmap(ptr, 4096), 0);

	return ptr;
}

/**
 * igt_qaic_uevent_open: A socket of the kernel's uevents, as udev receives
 * them, from now on (non-blocking), with room for the dozens a card's reset
 * brings (MHI channels, DBC states).
 */
int igt_qaic_uevent_open(void)
{
	struct sockaddr_nl addr = {
		.nl_family = AF_NETLINK,
		.nl_groups = 1,
	};
	int s = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK,
		       NETLINK_KOBJECT_UEVENT);
	int size = 8 << 20;

	igt_require_f(s >= 0, "no uevent socket: %s\n", strerror(errno));
	setsockopt(s, SOL_SOCKET, SO_RCVBUFFORCE, &size, sizeof(size));
	igt_assert_f(bind(s, (struct sockaddr *)&addr, sizeof(addr)) == 0,
		     "bind: %s\n", strerror(errno));
	return s;
}

/**
 * igt_qaic_read_bootlog: What the driver kept of the card's boot log
 * (debugfs ``bootlog`` of the card at PCI address @bdf), at most @max
 * bytes, NUL-terminated; @len gets its length. Skips without debugfs.
 * free() the result.
 */
char *igt_qaic_read_bootlog(const char *bdf, size_t max, size_t *len)
{
	char path[128];
	char *buf = malloc(max + 1);
	size_t n = 0;
	ssize_t r = 0;
	int lfd;

	igt_assert(buf);
	snprintf(path, sizeof(path), "/sys/kernel/debug/accel/%s/bootlog", bdf);
	lfd = open(path, O_RDONLY);
	igt_require_f(lfd >= 0, "no %s: %s\n", path, strerror(errno));
	while (n < max && (r = read(lfd, buf + n, max - n)) > 0)
		n += r;
	igt_assert_f(r >= 0, "read %s: %s\n", path, strerror(errno));
	close(lfd);
	buf[n] = '\0';
	*len = n;
	return buf;
}
