/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The qaic authors.
 */

/*
 * Wire format of the NNC control protocol spoken with the card's manager
 * (QSM) over the QAIC_CONTROL MHI channel, protocol version 5.0.
 *
 * Every field is little endian. A message is a header followed by
 * transactions; each transaction starts with a transaction header whose
 * length counts the header itself. All fields are naturally aligned and the
 * structs have no implicit padding (checked below), so they match the wire
 * byte for byte without __packed. The codec never dereferences these
 * structs inside a message buffer: it copies them in and out with memcpy(),
 * so buffers need no particular alignment.
 *
 * The transaction type numbers are the QAIC_TRANS_* values of the uapi
 * header, which the wire shares.
 */

#ifndef _QAIC_NNC_WIRE_H_
#define _QAIC_NNC_WIRE_H_

#include <linux/build_bug.h>
#include <linux/types.h>

/* NNC protocol version this driver speaks. */
#define QAIC_NNC_MAJOR			5
#define QAIC_NNC_MINOR			0

/* Magic of every message: "QAIC" read as a little-endian u32. */
#define QAIC_NNC_MAGIC			0x43494151

/*
 * Largest message: host to device one MHI packet, device to host 4 KiB.
 * Larger DMA transfers continue in further messages.
 */
#define QAIC_NNC_MAX_REQ_LEN		0x10000
#define QAIC_NNC_MAX_RSP_LEN		0x1000

/* Partition id of a message that targets no partition. */
#define QAIC_NNC_NO_PARTITION		(-1)

/* Bit of the status answer's status_flags: the device uses message CRCs. */
#define QAIC_NNC_STATUS_CRC		0x1

/*
 * Message header. @crc32 is the CRC-32 (IEEE 802.3, as crc32_le() seeded
 * with ~0 and inverted) of the first @len bytes of the message, computed
 * while @crc32 itself reads 0. @len counts this header. @handle names the
 * user whose resources the message uses; @partition_id is signed.
 */
struct qaic_wire_msg_hdr {
	__le32 crc32;
	__le32 magic;
	__le32 seq;
	__le32 len;
	__le32 count;
	__le32 handle;
	__le32 partition_id;
	__le32 pad;
};

/* Transaction header; @len counts this header. */
struct qaic_wire_trans_hdr {
	__le32 type;
	__le32 len;
};

/* PASSTHROUGH_TO_DEV and PASSTHROUGH_FROM_DEV: opaque payload. */
struct qaic_wire_passthrough {
	struct qaic_wire_trans_hdr hdr;
	u8 data[];
};

/* One DMA segment of a DMA_XFER_TO_DEV transaction. */
struct qaic_wire_dma_seg {
	__le64 addr;
	__le64 size;
};

/*
 * DMA_XFER_TO_DEV: @count segments follow. @chunk_id is 0 unless the
 * transfer continues in later messages, which repeat the same @chunk_id.
 */
struct qaic_wire_dma_xfer {
	struct qaic_wire_trans_hdr hdr;
	__le32 tag;
	__le32 count;
	__le32 chunk_id;
	__le32 pad;
	struct qaic_wire_dma_seg segs[];
};

/*
 * DMA_XFER_CONT, device to host: alone in its message, asks for the next
 * part of transfer @chunk_id, of which @xferred bytes have been received.
 */
struct qaic_wire_dma_xfer_cont {
	struct qaic_wire_trans_hdr hdr;
	__le32 chunk_id;
	__le32 pad;
	__le64 xferred;
};

/* ACTIVATE_TO_DEV: rings of @req_q_size/@rsp_q_size entries in host memory. */
struct qaic_wire_activate_to_dev {
	struct qaic_wire_trans_hdr hdr;
	__le64 req_q_addr;
	__le64 rsp_q_addr;
	__le32 req_q_size;
	__le32 rsp_q_size;
	__le32 buf_len;
	__le32 options;
};

/* ACTIVATE_FROM_DEV */
struct qaic_wire_activate_from_dev {
	struct qaic_wire_trans_hdr hdr;
	__le32 status;
	__le32 dbc_id;
	__le64 options;
};

/* DEACTIVATE_FROM_DEV */
struct qaic_wire_deactivate_from_dev {
	struct qaic_wire_trans_hdr hdr;
	__le32 status;
	__le32 dbc_id;
};

/* TERMINATE_TO_DEV: release everything user @handle holds. */
struct qaic_wire_terminate_to_dev {
	struct qaic_wire_trans_hdr hdr;
	__le32 handle;
	__le32 pad;
};

/* TERMINATE_FROM_DEV */
struct qaic_wire_terminate_from_dev {
	struct qaic_wire_trans_hdr hdr;
	__le32 status;
	__le32 pad;
};

/* STATUS_TO_DEV is a bare header. STATUS_FROM_DEV: */
struct qaic_wire_status_from_dev {
	struct qaic_wire_trans_hdr hdr;
	__le16 major;
	__le16 minor;
	__le32 status;
	__le64 status_flags;
};

static_assert(sizeof(struct qaic_wire_msg_hdr) == 32);
static_assert(sizeof(struct qaic_wire_trans_hdr) == 8);
static_assert(sizeof(struct qaic_wire_dma_seg) == 16);
static_assert(sizeof(struct qaic_wire_dma_xfer) == 24);
static_assert(sizeof(struct qaic_wire_dma_xfer_cont) == 24);
static_assert(sizeof(struct qaic_wire_activate_to_dev) == 40);
static_assert(sizeof(struct qaic_wire_activate_from_dev) == 24);
static_assert(sizeof(struct qaic_wire_deactivate_from_dev) == 16);
static_assert(sizeof(struct qaic_wire_terminate_to_dev) == 16);
static_assert(sizeof(struct qaic_wire_terminate_from_dev) == 16);
static_assert(sizeof(struct qaic_wire_status_from_dev) == 24);

#endif /* _QAIC_NNC_WIRE_H_ */
