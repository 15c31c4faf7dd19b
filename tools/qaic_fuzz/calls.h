/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * qaic-fuzz: the calls and their accounting. Every ioctl and system call
 * is counted per errno, those of valid operations apart; an ioctl's
 * argument pointer may be broken on its way; a failure is recorded with
 * what replays it.
 *
 * Copyright (c) 2026 The qaic authors.
 */
#ifndef QAIC_FUZZ_CALLS_H
#define QAIC_FUZZ_CALLS_H

#include <stdint.h>

#include "fuzz.h"

extern const char *const ioc_names[NIOC];
extern const char *const slot_names[3];

uint64_t now_ms(void);
uint64_t now_ns(void);
const char *err_name(int err);
void fail(struct tctx *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void count_res(enum ioc id, int err);
void vlog(struct tctx *t, const char *what, int err);
int xioctl(struct tctx *t, enum ioc id, int fd, unsigned long req, void *arg);
int xclose(struct tctx *t, int fd);

#endif /* QAIC_FUZZ_CALLS_H */
