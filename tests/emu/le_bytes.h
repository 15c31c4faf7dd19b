/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Little-endian loads and stores on byte buffers: guest memory and wire
 * messages are untrusted bytes with no alignment promise, so they are read
 * and written a byte at a time, whatever the host's endianness.
 *
 * Copyright (c) 2026 The qaic authors.
 */
#ifndef QAIC_EMU_LE_BYTES_H
#define QAIC_EMU_LE_BYTES_H

#include <stdint.h>

static inline uint32_t get_le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static inline uint64_t get_le64(const uint8_t *p)
{
	return (uint64_t)get_le32(p) | (uint64_t)get_le32(p + 4) << 32;
}

static inline void put_le16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

static inline void put_le32(uint8_t *p, uint32_t v)
{
	put_le16(p, (uint16_t)v);
	put_le16(p + 2, (uint16_t)(v >> 16));
}

static inline void put_le64(uint8_t *p, uint64_t v)
{
	put_le32(p, (uint32_t)v);
	put_le32(p + 4, (uint32_t)(v >> 32));
}

/* A little-endian value @bytes wide (at most 8), as config space and MMIO use. */
static inline uint64_t get_le_bytes(const uint8_t *p, unsigned int bytes)
{
	uint64_t val = 0;
	unsigned int i;

	for (i = 0; i < bytes; i++)
		val |= (uint64_t)p[i] << (8 * i);
	return val;
}

static inline void put_le_bytes(uint8_t *p, uint64_t val, unsigned int bytes)
{
	unsigned int i;

	for (i = 0; i < bytes; i++)
		p[i] = (uint8_t)(val >> (8 * i));
}

#endif /* QAIC_EMU_LE_BYTES_H */
