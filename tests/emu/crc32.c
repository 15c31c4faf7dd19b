// SPDX-License-Identifier: GPL-2.0-only
/*
 * CRC-32, zlib's (see crc32.h), table-driven. The table is built on first
 * use; the emulator is single-threaded.
 *
 * Copyright (c) 2026 The qaic authors.
 */
#include "crc32.h"

static uint32_t crc_table[256];

static void crc_init(void)
{
	for (uint32_t i = 0; i < 256; i++) {
		uint32_t c = i;

		for (int k = 0; k < 8; k++)
			c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
		crc_table[i] = c;
	}
}

uint32_t emu_crc32(uint32_t crc, const uint8_t *buf, uint64_t len)
{
	if (!crc_table[1])
		crc_init();
	crc = ~crc;
	while (len--)
		crc = crc_table[(crc ^ *buf++) & 0xff] ^ (crc >> 8);
	return ~crc;
}
