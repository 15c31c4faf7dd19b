/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The card's IPC router (QRTR) on the IPCR channel pair (24 up, 25 down) of
 * the emulated card, in mission mode: what the host's QRTR MHI transport
 * (net/qrtr/mhi.c, CONFIG_QRTR_MHI) binds, giving AF_QIPCRTR sockets to
 * the services on the card.
 *
 * Wire format, as Linux's net/qrtr has it (version 1 header, little
 * endian u32 each): version (1), type, src_node, src_port, confirm_rx,
 * size (of the payload), dst_node, dst_port; 32 bytes, then the payload,
 * padded to 4 bytes. A control packet (to or from port QRTR_PORT_CTRL) has
 * a payload of cmd (its type), then service, instance, node, port (a
 * server) or node, port (a client).
 *
 * The conversation: once the host started both channels the card says
 * HELLO to the host's router. The host's name service answers HELLO, and
 * the card answers that with a NEW_SERVER for each of its services, so a
 * host client's NEW_LOOKUP finds them. A DATA packet to a service is
 * answered by the service; one that asks for it (confirm_rx) is confirmed
 * with RESUME_TX, which is the host's flow control: a host client that
 * sent ten unconfirmed packets waits. Every other control packet (BYE,
 * DEL_CLIENT, the host's own servers) is counted and needs no answer.
 *
 * The card has one service, EMU_QRTR_SVC_CRC: a request of up to
 * EMU_QRTR_CRC_MAX bytes is answered with its CRC-32 (crc32.h) and its
 * length, le32 each, then its bytes in reverse order; a longer or empty
 * one with a CRC of 0 and a length of all-ones.
 *
 * Everything the host sends is checked (version, sizes, padding, the
 * destination node); a packet that breaks a rule is counted and dropped.
 *
 * Copyright (c) 2026 The qaic authors.
 */
#ifndef QAIC_EMU_QRTR_H
#define QAIC_EMU_QRTR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct emu_device;
struct emu_qrtr;

/* The channel pair (drivers/accel/qaic/mhi_controller.c in Linux 7.2). */
#define EMU_QRTR_CH_UL		24
#define EMU_QRTR_CH_DL		25

#define QRTR_HDR_LEN		32
#define QRTR_CTRL_LEN		20	/* cmd and a server: 5 x u32 */
#define QRTR_NODE_BCAST		0xffffffffu
#define QRTR_PORT_CTRL		0xfffffffeu

/* Packet types (include/uapi/linux/qrtr.h) */
#define QRTR_TYPE_DATA		1
#define QRTR_TYPE_HELLO		2
#define QRTR_TYPE_BYE		3
#define QRTR_TYPE_NEW_SERVER	4
#define QRTR_TYPE_DEL_SERVER	5
#define QRTR_TYPE_DEL_CLIENT	6
#define QRTR_TYPE_RESUME_TX	7
#define QRTR_TYPE_EXIT		8
#define QRTR_TYPE_PING		9
#define QRTR_TYPE_NEW_LOOKUP	10
#define QRTR_TYPE_DEL_LOOKUP	11

/* The card's node unless told otherwise (emu_qrtr_set_node()). */
#define EMU_QRTR_DEFAULT_NODE	2

/* The service: CRC-32, length and reversed bytes of a request. */
#define EMU_QRTR_SVC_CRC	0x4143	/* "CA" */
#define EMU_QRTR_SVC_CRC_INST	1
#define EMU_QRTR_SVC_CRC_PORT	0x40
#define EMU_QRTR_CRC_MAX	16384
#define EMU_QRTR_CRC_ANSWER_HDR	8

/* Longest packet the card takes: what one MHI transfer can carry. */
#define EMU_QRTR_MAX_PKT	65536

struct emu_qrtr_counters {
	uint64_t rx;		/* packets from the host */
	uint64_t bad;		/* ... that broke a rule, dropped */
	uint64_t hello_tx;	/* HELLOs the card said */
	uint64_t hello_rx;	/* HELLOs the host answered */
	uint64_t announced;	/* NEW_SERVERs the card sent */
	uint64_t ctrl_other;	/* other control packets from the host */
	uint64_t data_rx;	/* requests to a service */
	uint64_t data_tx;	/* answers */
	uint64_t no_port;	/* DATA for a port with no service */
	uint64_t resume_tx;	/* RESUME_TXs the card sent */
};

struct emu_qrtr_ops {
	/* One packet for the host, on IPCR's downlink channel. */
	void (*send)(void *ctx, const void *pkt, size_t len);
};

struct emu_qrtr *emu_qrtr_create(struct emu_device *dev,
				 const struct emu_qrtr_ops *ops, void *ctx);
void emu_qrtr_destroy(struct emu_qrtr *q);

/* The card's node id: each card of a host needs its own. */
void emu_qrtr_set_node(struct emu_qrtr *q, uint32_t node);
uint32_t emu_qrtr_node(const struct emu_qrtr *q);

/* The host started both channels: the card says HELLO. */
void emu_qrtr_start(struct emu_qrtr *q);
/* A packet the host sent on IPCR's uplink channel. */
void emu_qrtr_rx(struct emu_qrtr *q, const void *pkt, size_t len);

const struct emu_qrtr_counters *emu_qrtr_counters(const struct emu_qrtr *q);
/* "key value" lines: qrtr_rx, qrtr_bad, ... */
void emu_qrtr_counters_print(const struct emu_qrtr *q, FILE *out);

#endif /* QAIC_EMU_QRTR_H */
