/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The qaic authors.
 */

#ifndef _QAIC_NNC_H_
#define _QAIC_NNC_H_

#include <linux/types.h>

#include <uapi/drm/qaic_accel.h>

#include "qaic_nnc_wire.h"

/*
 * Largest transactions part of a user MANAGE message: the uapi limit less
 * the len and count fields of struct qaic_manage_msg.
 */
#define QAIC_NNC_MAX_USER_LEN	(QAIC_MANAGE_MAX_MSG_LENGTH - 2 * sizeof(u32))

/* Most DMA Bridge Channels the codec can track in its 32-bit masks. */
#define QAIC_NNC_MAX_DBC	32

/**
 * struct qaic_nnc_user_msg - A user MANAGE message copied into the kernel.
 * @data: The transactions, @len bytes in user format. Any alignment.
 * @len: Bytes at @data; qaic_manage_msg.len.
 * @count: Transactions at @data; qaic_manage_msg.count.
 */
struct qaic_nnc_user_msg {
	const void *data;
	u32 len;
	u32 count;
};

/**
 * struct qaic_nnc_seg - One DMA-mapped piece of a user buffer.
 * @addr: Device (DMA) address.
 * @size: Bytes; not 0.
 */
struct qaic_nnc_seg {
	u64 addr;
	u64 size;
};

/**
 * struct qaic_nnc_xfer - One DMA transfer of a user message.
 * @addr: User virtual address to pin; set by qaic_nnc_parse().
 * @size: Bytes to pin; set by qaic_nnc_parse().
 * @segs: The pinned and mapped buffer, in order; set by the caller.
 * @nsegs: Entries at @segs; their sizes add up to @size, or for a window
 *	   to at most the bytes from @win_off to @size.
 * @win_off: Byte of the transfer at which @segs start; 0 unless @window.
 * @window: @segs map only a window of the transfer, from @win_off on, so
 *	    that the caller need not pin it whole. Only the last transfer of
 *	    a message may be windowed: before each message that carries it,
 *	    the caller maps the window qaic_nnc_next_window() asks for.
 */
struct qaic_nnc_xfer {
	u64 addr;
	u64 size;
	const struct qaic_nnc_seg *segs;
	u32 nsegs;
	u64 win_off;
	bool window;
};

/**
 * struct qaic_nnc_ring - Host memory of the DBC an activate asks for.
 * @req_addr: DMA address of the request ring.
 * @rsp_addr: DMA address of the response ring.
 * @nelem: Entries in each ring; the activate's queue_size.
 * @buf_len: Bytes of the allocation holding both rings.
 */
struct qaic_nnc_ring {
	u64 req_addr;
	u64 rsp_addr;
	u32 nelem;
	u32 buf_len;
};

/**
 * struct qaic_nnc_plan - What a user message needs from the caller.
 * @num_xfers: DMA transfers in the message, each to be pinned.
 * @activate_nelem: queue_size of the message's activate; 0 if it has none.
 * @deactivate_mask: DBCs the message deactivates, one bit each.
 * @wire_len: Bytes of the first wire message, DMA segments not counted.
 */
struct qaic_nnc_plan {
	u32 num_xfers;
	u32 activate_nelem;
	u32 deactivate_mask;
	u32 wire_len;
};

/**
 * struct qaic_nnc_req - A user message on its way to the device.
 * @umsg: In. The validated user message.
 * @num_dbc: In. DBCs of the device, at most %QAIC_NNC_MAX_DBC.
 * @xfers: In. One entry per DMA transfer, in message order, segments filled.
 * @num_xfers: In. Entries at @xfers.
 * @ring: In. Rings for the message's activate, or NULL if it has none.
 * @handle: In. Id of the user, for the message header.
 * @partition_id: In. Partition of the message, %QAIC_NNC_NO_PARTITION if none.
 * @chunk_id: In. Non-zero id to give a transfer that continues in further
 *	      messages; unique among the user's transfers in flight.
 * @msgs: Messages encoded so far. Private to the codec, as are the rest.
 * @cont: A DMA transfer has bytes left for a further message.
 * @cont_xfer: Index in @xfers of the continued transfer.
 * @cont_tag: Its tag.
 * @cont_seg: Its first segment not sent yet, unless it is windowed.
 * @cont_sent: Its bytes sent so far; where its next window must start.
 */
struct qaic_nnc_req {
	struct qaic_nnc_user_msg umsg;
	u32 num_dbc;
	const struct qaic_nnc_xfer *xfers;
	u32 num_xfers;
	const struct qaic_nnc_ring *ring;
	u32 handle;
	s32 partition_id;
	u32 chunk_id;

	u32 msgs;
	bool cont;
	u32 cont_xfer;
	u32 cont_tag;
	u32 cont_seg;
	u64 cont_sent;
};

/**
 * struct qaic_nnc_answer - The device's answer decoded for the user.
 * @buf: In. Where the user-format transactions go; NULL to only account
 *	 deactivations (a response nobody waits for any more).
 * @size: In. Bytes at @buf.
 * @num_dbc: In. DBCs of the device, at most %QAIC_NNC_MAX_DBC.
 * @activate_sent: In. The request held an activate.
 * @len: Out. Bytes written at @buf.
 * @count: Out. Transactions written at @buf.
 * @activated: Out. The device granted the activate; @dbc_id is valid.
 * @dbc_id: Out. The DBC the device activated.
 * @deactivated: Out. DBCs the device released, one bit each.
 * @deactivate_failed: Out. DBCs the device failed to release.
 * @has_status: Out. The answer held a status; the next three are valid.
 * @major: Out. Protocol major version of the device.
 * @minor: Out. Protocol minor version of the device.
 * @status_flags: Out. %QAIC_NNC_STATUS_CRC: the device uses CRCs.
 */
struct qaic_nnc_answer {
	void *buf;
	u32 size;
	u32 num_dbc;
	bool activate_sent;

	u32 len;
	u32 count;
	bool activated;
	u32 dbc_id;
	u32 deactivated;
	u32 deactivate_failed;
	bool has_status;
	u16 major;
	u16 minor;
	u64 status_flags;
};

int qaic_nnc_parse(const struct qaic_nnc_user_msg *umsg, u32 num_dbc,
		   struct qaic_nnc_plan *plan, struct qaic_nnc_xfer *xfers,
		   u32 max_xfers);
int qaic_nnc_next_window(const struct qaic_nnc_req *req, size_t size, u64 *off,
			 u32 *max_segs);
ssize_t qaic_nnc_encode(struct qaic_nnc_req *req, void *buf, size_t size);
int qaic_nnc_check_cont(const struct qaic_nnc_req *req, const void *rsp,
			size_t len);
ssize_t qaic_nnc_encode_abort(const struct qaic_nnc_req *req, void *buf,
			      size_t size);
ssize_t qaic_nnc_encode_terminate(u32 handle, void *buf, size_t size);
u32 qaic_nnc_crc(const void *msg, size_t len);
void qaic_nnc_seal(void *msg, size_t len, u32 seq, bool crc);
int qaic_nnc_rsp_seq(const void *rsp, size_t len, u32 *seq);
bool qaic_nnc_crc_ok(const void *rsp, size_t len);
int qaic_nnc_decode(const void *rsp, size_t len, struct qaic_nnc_answer *ans);

/**
 * qaic_nnc_encode_pending() - Whether a further message must be encoded.
 * @req: The request.
 *
 * Return: true while a DMA transfer has bytes that did not fit the
 * messages encoded so far; qaic_nnc_encode() sends them once the device
 * asked for them (qaic_nnc_check_cont()).
 */
static inline bool qaic_nnc_encode_pending(const struct qaic_nnc_req *req)
{
	return req->cont;
}

#endif /* _QAIC_NNC_H_ */
