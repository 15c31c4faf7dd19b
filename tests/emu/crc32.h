/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * CRC-32 as zlib's crc32() computes it (reflected polynomial 0xedb88320,
 * seeded and inverted): the CRC of NNC messages, of EMU_PT_XFER_SUM and of
 * the workload's CHECKSUM op.
 *
 * Copyright (c) 2026 The qaic authors.
 */
#ifndef QAIC_EMU_CRC32_H
#define QAIC_EMU_CRC32_H

#include <stdint.h>

/* Continue @crc (a finished crc32 value, 0 to start) over @len bytes. */
uint32_t emu_crc32(uint32_t crc, const uint8_t *buf, uint64_t len);

#endif /* QAIC_EMU_CRC32_H */
