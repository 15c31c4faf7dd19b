/* SPDX-License-Identifier: MIT */
/*
 * Copyright (c) 2026 The qaic authors.
 */

#ifndef IGT_QAIC_H
#define IGT_QAIC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef QAIC_IGT_CORE_ABI
#include "igt_core_abi.h"
#else
#include "igt.h"
#endif

#include "qaic_accel.h"

bool is_qaic_device(int fd);

int __igt_qaic_open(void);
int igt_qaic_open(void);

int __igt_qaic_create_bo(int fd, uint64_t size, uint32_t *handle);
uint32_t igt_qaic_create_bo(int fd, uint64_t size);

int __igt_qaic_mmap_bo(int fd, uint32_t handle, uint64_t *offset);
void *igt_qaic_mmap_bo(int fd, uint32_t handle, uint64_t size,
		       unsigned int prot);

/**
 * struct igt_qaic_msg:
 * @len: bytes of transactions at @buf
 * @count: number of transactions at @buf
 * @buf: the transactions; the answer of the device replaces them
 *
 * A DRM_IOCTL_QAIC_MANAGE message being built with igt_qaic_msg_*(), then
 * the answer __igt_qaic_manage() got for it. @buf holds the largest message
 * the uapi allows, and the answer can be longer than the request.
 */
struct igt_qaic_msg {
	uint32_t len;
	uint32_t count;
	uint8_t buf[QAIC_MANAGE_MAX_MSG_LENGTH] __attribute__((aligned(8)));
};

void igt_qaic_msg_init(struct igt_qaic_msg *msg);
void *igt_qaic_msg_append(struct igt_qaic_msg *msg, uint32_t type,
			  uint32_t len);
void *igt_qaic_msg_passthrough(struct igt_qaic_msg *msg, const void *data,
			       uint32_t size);
void *igt_qaic_msg_dma_xfer(struct igt_qaic_msg *msg, uint32_t tag,
			    uint64_t addr, uint64_t size);
void *igt_qaic_msg_activate(struct igt_qaic_msg *msg, uint32_t queue_size,
			    uint32_t options);
void *igt_qaic_msg_deactivate(struct igt_qaic_msg *msg, uint32_t dbc_id);
void *igt_qaic_msg_status(struct igt_qaic_msg *msg);
const void *igt_qaic_msg_answer(const struct igt_qaic_msg *msg,
				uint32_t index, uint32_t type, uint32_t len);

int __igt_qaic_manage(int fd, struct igt_qaic_msg *msg);
void igt_qaic_manage(int fd, struct igt_qaic_msg *msg);

int __igt_qaic_activate(int fd, uint32_t queue_size, uint32_t *dbc_id);
uint32_t igt_qaic_activate(int fd, uint32_t queue_size);
int __igt_qaic_deactivate(int fd, uint32_t dbc_id);
void igt_qaic_deactivate(int fd, uint32_t dbc_id);
int __igt_qaic_status(int fd, struct qaic_manage_trans_status_from_dev *status);
void igt_qaic_status(int fd, struct qaic_manage_trans_status_from_dev *status);
int __igt_qaic_dma_xfer(int fd, uint32_t tag, const void *ptr, uint64_t size);
void igt_qaic_dma_xfer(int fd, uint32_t tag, const void *ptr, uint64_t size);

uint32_t igt_qaic_crc32(uint32_t crc, const void *buf, size_t len);

#endif /* IGT_QAIC_H */
