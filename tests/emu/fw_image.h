/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The test firmware image format of the emulated AIC100: what the card
 * checks before it runs an image it was given over BHI (SBL) or Sahara
 * (every other image). A real AIC100 checks signed ELF images; ours only
 * has to tell a good image from a truncated, mixed-up or corrupted one.
 *
 * An image is a 32-byte header followed by the payload, all little-endian:
 *
 *   0  magic        "QFW1" (0x31574651)
 *   4  hdr_len      32
 *   8  image_id     0 for SBL, else the Sahara image id (1, 2, 4, 5, 6, 8,
 *                   9, 10 on AIC100)
 *  12  payload_len  bytes after the header; the image is exactly
 *                   32 + payload_len bytes
 *  16  payload_crc  CRC-32 (zlib) of the payload
 *  20  hdr_crc      CRC-32 of bytes 0..19
 *  24  reserved     8 bytes of 0
 *
 * tools/qaic_mkfw.c makes such images; qaic-emu checks them.
 *
 * Copyright (c) 2026 The qaic authors.
 */
#ifndef QAIC_EMU_FW_IMAGE_H
#define QAIC_EMU_FW_IMAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "crc32.h"
#include "le_bytes.h"

#define FW_IMAGE_MAGIC		0x31574651u	/* "QFW1" */
#define FW_IMAGE_HDR_LEN	32u
#define FW_IMAGE_ID_SBL		0u
/* Largest payload the emulated card accepts (a sanity bound). */
#define FW_IMAGE_MAX_PAYLOAD	(64u << 20)

/* Fill the header of an image whose payload follows it at @img + 32. */
static inline void fw_image_seal(uint8_t *img, uint32_t image_id,
				 uint32_t payload_len)
{
	put_le32(img, FW_IMAGE_MAGIC);
	put_le32(img + 4, FW_IMAGE_HDR_LEN);
	put_le32(img + 8, image_id);
	put_le32(img + 12, payload_len);
	put_le32(img + 16, emu_crc32(0, img + FW_IMAGE_HDR_LEN, payload_len));
	put_le32(img + 20, emu_crc32(0, img, 20));
	put_le64(img + 24, 0);
}

/* A header that makes sense on its own: the payload length it gives, or -1. */
static inline int64_t fw_image_hdr_payload(const uint8_t *hdr, uint32_t image_id)
{
	if (get_le32(hdr) != FW_IMAGE_MAGIC ||
	    get_le32(hdr + 4) != FW_IMAGE_HDR_LEN ||
	    get_le32(hdr + 8) != image_id ||
	    get_le32(hdr + 12) > FW_IMAGE_MAX_PAYLOAD ||
	    get_le32(hdr + 20) != emu_crc32(0, hdr, 20) ||
	    get_le64(hdr + 24))
		return -1;
	return get_le32(hdr + 12);
}

/* The whole image of @len bytes is image @image_id, intact. */
static inline bool fw_image_ok(const uint8_t *img, size_t len, uint32_t image_id)
{
	int64_t payload;

	if (len < FW_IMAGE_HDR_LEN)
		return false;
	payload = fw_image_hdr_payload(img, image_id);
	return payload >= 0 && (uint64_t)payload == len - FW_IMAGE_HDR_LEN &&
	       get_le32(img + 16) == emu_crc32(0, img + FW_IMAGE_HDR_LEN,
					       (uint64_t)payload);
}

#endif /* QAIC_EMU_FW_IMAGE_H */
