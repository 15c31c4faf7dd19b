// SPDX-License-Identifier: GPL-2.0-only
/*
 * Placeholder for the on-card manager: answers nothing. Replaced by the NNC
 * implementation.
 *
 * Copyright (c) 2026 The qaic authors.
 */
#include <stdlib.h>

#include "manager.h"

struct emu_manager {
	struct emu_device *dev;
};

struct emu_manager *emu_manager_create(struct emu_device *dev)
{
	struct emu_manager *mgr = calloc(1, sizeof(*mgr));

	if (mgr)
		mgr->dev = dev;
	return mgr;
}

void emu_manager_destroy(struct emu_manager *mgr)
{
	free(mgr);
}

size_t emu_manager_handle(struct emu_manager *mgr, const void *req, size_t len,
			  void *rsp, size_t cap)
{
	(void)mgr; (void)req; (void)len; (void)rsp; (void)cap;
	return 0;
}

void emu_manager_reset(struct emu_manager *mgr)
{
	(void)mgr;
}
