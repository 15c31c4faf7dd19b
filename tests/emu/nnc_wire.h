/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * The NNC message header as the card's manager (manager.c) and the
 * systematic NNC cases (nnc_cases.c) lay it out: 32 bytes, little endian,
 * crc32, magic, sequence number, len (counts the header), count
 * (transactions), handle, partition_id, padding (0).
 *
 * Copyright (c) 2026 The qaic authors.
 */
#ifndef QAIC_EMU_NNC_WIRE_H
#define QAIC_EMU_NNC_WIRE_H

#define H_CRC		0
#define H_MAGIC		4
#define H_SEQ		8
#define H_LEN		12
#define H_COUNT		16
#define H_HANDLE	20
#define H_PART		24
#define H_PAD		28
#define HDR_LEN		32

#endif /* QAIC_EMU_NNC_WIRE_H */
