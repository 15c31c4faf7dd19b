// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * The emulated card's Sahara images (see sahara_images.h).
 *
 * Copyright (c) 2026 The qaic authors.
 */
#include "sahara_images.h"

const uint32_t emu_sahara_image_ids[EMU_SAHARA_NR_IMAGES] = {
	1, 2, 4, 5, 6, 8, 9, 10,
};

bool emu_sahara_image_optional(uint32_t id)
{
	return id == 5 || id == 10;
}
