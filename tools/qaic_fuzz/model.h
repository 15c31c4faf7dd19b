/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * qaic-fuzz: the model of what a worker owns, and its rules: choosing a
 * file, a DBC, an object, a syncobj, a mapping or a descriptor the worker
 * holds; recording what the kernel created or took away; handles and DBC
 * ids the file does not own, for mutated operations; opening the device.
 *
 * Copyright (c) 2026 The qaic authors.
 */
#ifndef QAIC_FUZZ_MODEL_H
#define QAIC_FUZZ_MODEL_H

#include <stdbool.h>
#include <stdint.h>

#include "fuzz.h"

enum { BO_ANY, BO_SLICED, BO_UNSLICED };

int nfiles(struct worker *w);
int rand_file(struct tctx *t);
int file_fd(struct tctx *t, int fi);
int count_dbcs(struct worker *w);
struct dbc *pick_dbc(struct tctx *t, int fi, bool any);
struct dbc *rand_dbc(struct tctx *t, int fi);
struct dbc *find_dbc(struct worker *w, int fi, uint32_t id);
int pick_file_dbc(struct tctx *t, bool any);
int rand_file_dbc(struct tctx *t);
struct bo *rand_bo(struct tctx *t, int fi, int which, int64_t dbc);
struct bo *find_bo(struct worker *w, int fi, uint32_t handle);
int count_bos(struct worker *w);
struct bo *add_bo(struct worker *w, int fi, uint32_t handle, uint64_t size,
		  uint32_t obj);
void set_sliced(struct worker *w, struct bo *bo, bool sliced, uint32_t dbc, uint32_t dir);
void drop_bo(struct worker *w, int fi, uint32_t handle);
uint32_t bad_handle(struct tctx *t, int fi);
uint32_t bad_handle_l(struct tctx *t, int fi);
uint32_t bad_dbc(struct tctx *t, int fi);
struct sobj *rand_sobj(struct tctx *t, int fi);
struct sobj *find_sobj(struct worker *w, int fi, uint32_t handle);
struct sobj *add_sobj(struct worker *w, int fi, uint32_t handle);
struct xfd *rand_xfd(struct tctx *t, int kind);
void add_xfd(struct tctx *t, int kind, int fd, uint64_t size, uint32_t obj);
struct map *rand_map(struct tctx *t);
struct map *free_map(struct worker *w);
int open_device(int flags);
int file_open(struct tctx *t);
int use_file(struct tctx *t, int *fd, bool want_dbc);
int lock_rand_file(struct tctx *t, int *fd);
int lock_rand_file_dbc(struct tctx *t, int *fd);

#endif /* QAIC_FUZZ_MODEL_H */
