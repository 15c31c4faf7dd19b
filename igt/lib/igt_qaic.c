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
