/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The qaic authors.
 */

/*
 * Host interface of the AIC100 DMA Bridge: the registers of a DMA Bridge
 * Channel (DBC) and the elements of its request and response rings, as
 * described in Documentation/accel/qaic/aic100.rst.
 *
 * Ring elements live in host memory the device reads and writes, so every
 * multi-byte field is little endian. All fields are naturally aligned and
 * the structs have no implicit padding (checked below): they match the wire
 * byte for byte without __packed.
 *
 * This header only needs the kernel's basic types and bit helpers, so that
 * the emulator can share it.
 */

#ifndef _QAIC_HW_H_
#define _QAIC_HW_H_

#include <linux/bits.h>
#include <linux/build_bug.h>
#include <linux/types.h>

/*
 * DBC registers, in the DBC BAR: one 4 KiB window per channel. Each holds a
 * ring index (not a byte offset) into the channel's request or response
 * ring.
 */
#define QAIC_DBC_REGS_BASE	0x20000
#define QAIC_DBC_REGS_SIZE	0x1000
#define QAIC_DBC_REGS(i)	(QAIC_DBC_REGS_BASE + (i) * QAIC_DBC_REGS_SIZE)

#define QAIC_DBC_REQHP		0x0	/* request head; device-owned */
#define QAIC_DBC_REQTP		0x4	/* request tail; host-owned */
#define QAIC_DBC_RSPHP		0x8	/* response head; host-owned */
#define QAIC_DBC_RSPTP		0xc	/* response tail; device-owned */

/* struct qaic_dbc_req.cmd */
#define QAIC_DBC_CMD_XFER		GENMASK(1, 0)
#define QAIC_DBC_CMD_XFER_NONE		0
#define QAIC_DBC_CMD_XFER_TO_DEV	1
#define QAIC_DBC_CMD_XFER_FROM_DEV	2
#define QAIC_DBC_CMD_BULK		BIT(3)	/* 0: linked list transfer */
#define QAIC_DBC_CMD_COMPLETION		BIT(4)	/* queue a response element */
#define QAIC_DBC_CMD_FORCE_MSI		BIT(7)	/* interrupt on completion */

/* struct qaic_dbc_req.db_attr */
#define QAIC_DBC_DB_LEN			GENMASK(1, 0)
#define QAIC_DBC_DB_LEN_32		0
#define QAIC_DBC_DB_LEN_16		1
#define QAIC_DBC_DB_LEN_8		2
#define QAIC_DBC_DB_ENABLE		BIT(7)

/*
 * struct qaic_dbc_req.sem_cmd[]. The two fence bits are the uapi's
 * QAIC_SEM_OUTSYNCFENCE and QAIC_SEM_INSYNCFENCE, in that order.
 */
#define QAIC_DBC_SEM_VAL		GENMASK(11, 0)
#define QAIC_DBC_SEM_INDEX		GENMASK(20, 16)
#define QAIC_DBC_SEM_PRESYNC		BIT(22)	/* 0: after the transfer */
#define QAIC_DBC_SEM_CMD		GENMASK(26, 24)
#define QAIC_DBC_SEM_FENCE		GENMASK(30, 29)
#define QAIC_DBC_SEM_FENCE_FROM_DEV	BIT(29)
#define QAIC_DBC_SEM_FENCE_TO_DEV	BIT(30)
#define QAIC_DBC_SEM_ENABLE		BIT(31)

/* Semaphore operations a request can carry. */
#define QAIC_DBC_NUM_SEMS		4

/**
 * struct qaic_dbc_req - Element of a DBC request ring.
 * @req_id: Identifies the job; echoed in the response element.
 * @seq_id: Ignored by the device.
 * @cmd: QAIC_DBC_CMD_* bits.
 * @resv: Reserved, 0.
 * @src_addr: Source of the transfer: a host DMA address to the device, a
 *	      device address from it.
 * @dest_addr: Destination of the transfer.
 * @len: Bytes to transfer.
 * @resv2: Reserved, 0.
 * @db_addr: Device address of the doorbell written when the request is done.
 * @db_attr: QAIC_DBC_DB_* bits.
 * @resv3: Reserved, 0.
 * @resv4: Reserved, 0.
 * @db_data: Value written to the doorbell; only its low db_attr width bits.
 * @sem_cmd: Semaphore operations, QAIC_DBC_SEM_* bits each.
 */
struct qaic_dbc_req {
	__le16 req_id;
	u8 seq_id;
	u8 cmd;
	__le32 resv;
	__le64 src_addr;
	__le64 dest_addr;
	__le32 len;
	__le32 resv2;
	__le64 db_addr;
	u8 db_attr;
	u8 resv3;
	__le16 resv4;
	__le32 db_data;
	__le32 sem_cmd[QAIC_DBC_NUM_SEMS];
};

/**
 * struct qaic_dbc_rsp - Element of a DBC response ring.
 * @req_id: The req_id of the completed request.
 * @status: 0 on success, else the device's error code.
 */
struct qaic_dbc_rsp {
	__le16 req_id;
	__le16 status;
};

static_assert(sizeof(struct qaic_dbc_req) == 64);
static_assert(sizeof(struct qaic_dbc_rsp) == 4);

#endif /* _QAIC_HW_H_ */
