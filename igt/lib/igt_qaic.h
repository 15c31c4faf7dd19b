/* SPDX-License-Identifier: MIT */
/*
 * Copyright (c) 2026 The qaic authors.
 */

#ifndef IGT_QAIC_H
#define IGT_QAIC_H

#include <stdbool.h>
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

#endif /* IGT_QAIC_H */
