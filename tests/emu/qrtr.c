// SPDX-License-Identifier: GPL-2.0-only
/*
 * The card's IPC router on IPCR (see qrtr.h).
 *
 * Copyright (c) 2026 The qaic authors.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "crc32.h"
#include "device.h"
#include "le_bytes.h"
#include "qrtr.h"

/* Header fields, byte offsets */
#define H_VERSION	0
#define H_TYPE		4
#define H_SRC_NODE	8
#define H_SRC_PORT	12
#define H_CONFIRM_RX	16
#define H_SIZE		20
#define H_DST_NODE	24
#define H_DST_PORT	28

#define QRTR_VERSION	1

/* The longest packet the card sends: an answer of the service. */
#define TX_MAX	(QRTR_HDR_LEN + EMU_QRTR_CRC_ANSWER_HDR + EMU_QRTR_CRC_MAX)

struct emu_qrtr {
	struct emu_device *dev;
	const struct emu_qrtr_ops *ops;
	void *ctx;
	uint32_t node;
	uint8_t tx[TX_MAX];
	struct emu_qrtr_counters c;
};

struct emu_qrtr *emu_qrtr_create(struct emu_device *dev,
				 const struct emu_qrtr_ops *ops, void *ctx)
{
	struct emu_qrtr *q = calloc(1, sizeof(*q));

	if (!q)
		return NULL;
	q->dev = dev;
	q->ops = ops;
	q->ctx = ctx;
	q->node = EMU_QRTR_DEFAULT_NODE;
	return q;
}

void emu_qrtr_destroy(struct emu_qrtr *q)
{
	free(q);
}

void emu_qrtr_set_node(struct emu_qrtr *q, uint32_t node)
{
	q->node = node;
}

uint32_t emu_qrtr_node(const struct emu_qrtr *q)
{
	return q->node;
}

/* The payload is in q->tx already, after the header's room. */
static void send_pkt(struct emu_qrtr *q, uint32_t type, uint32_t src_port,
		     uint32_t dst_node, uint32_t dst_port, size_t size)
{
	size_t len = QRTR_HDR_LEN + ((size + 3) & ~(size_t)3);

	memset(q->tx + QRTR_HDR_LEN + size, 0, len - QRTR_HDR_LEN - size);
	put_le32(q->tx + H_VERSION, QRTR_VERSION);
	put_le32(q->tx + H_TYPE, type);
	put_le32(q->tx + H_SRC_NODE, q->node);
	put_le32(q->tx + H_SRC_PORT, src_port);
	put_le32(q->tx + H_CONFIRM_RX, 0);
	put_le32(q->tx + H_SIZE, (uint32_t)size);
	put_le32(q->tx + H_DST_NODE, dst_node);
	put_le32(q->tx + H_DST_PORT, dst_port);
	q->ops->send(q->ctx, q->tx, len);
}

/* A control packet: cmd, then up to four words (a server or a client). */
static void send_ctrl(struct emu_qrtr *q, uint32_t cmd, uint32_t dst_node,
		      uint32_t dst_port, const uint32_t w[4])
{
	uint8_t *p = q->tx + QRTR_HDR_LEN;
	unsigned int i;

	put_le32(p, cmd);
	for (i = 0; i < 4; i++)
		put_le32(p + 4 + 4 * i, w ? w[i] : 0);
	send_pkt(q, cmd, QRTR_PORT_CTRL, dst_node, dst_port, QRTR_CTRL_LEN);
}

void emu_qrtr_start(struct emu_qrtr *q)
{
	q->c.hello_tx++;
	emu_log(q->dev, "QRTR: node %u says hello", q->node);
	send_ctrl(q, QRTR_TYPE_HELLO, QRTR_NODE_BCAST, QRTR_PORT_CTRL, NULL);
}

/* The host's router said hello: the card's services, to its name service. */
static void announce(struct emu_qrtr *q, uint32_t host_node)
{
	const uint32_t srv[4] = {
		EMU_QRTR_SVC_CRC, EMU_QRTR_SVC_CRC_INST, q->node,
		EMU_QRTR_SVC_CRC_PORT,
	};

	q->c.announced++;
	send_ctrl(q, QRTR_TYPE_NEW_SERVER, host_node, QRTR_PORT_CTRL, srv);
}

/* EMU_QRTR_SVC_CRC: CRC and length, then the bytes reversed. */
static void crc_service(struct emu_qrtr *q, const uint8_t *req, size_t size,
			uint32_t node, uint32_t port)
{
	uint8_t *p = q->tx + QRTR_HDR_LEN;
	size_t i, n = 0;

	if (size && size <= EMU_QRTR_CRC_MAX) {
		put_le32(p, emu_crc32(0, req, size));
		put_le32(p + 4, (uint32_t)size);
		for (i = 0; i < size; i++)
			p[EMU_QRTR_CRC_ANSWER_HDR + i] = req[size - 1 - i];
		n = size;
	} else {
		put_le32(p, 0);
		put_le32(p + 4, UINT32_MAX);
	}
	q->c.data_tx++;
	send_pkt(q, QRTR_TYPE_DATA, EMU_QRTR_SVC_CRC_PORT, node, port,
		 EMU_QRTR_CRC_ANSWER_HDR + n);
}

/* A rule a packet breaks, and the value that breaks it */
struct verdict {
	const char *rule;
	uint32_t val;
};

#define BROKEN(_rule, _val)	((struct verdict){ (_rule), (_val) })
#define OK			BROKEN(NULL, 0)

static struct verdict rx_packet(struct emu_qrtr *q, const uint8_t *h, size_t len)
{
	uint32_t type, size, src_node, src_port, dst_node, dst_port;

	if (len < QRTR_HDR_LEN)
		return BROKEN("length", (uint32_t)len);
	if (get_le32(h + H_VERSION) != QRTR_VERSION)
		return BROKEN("version", get_le32(h + H_VERSION));
	type = get_le32(h + H_TYPE);
	size = get_le32(h + H_SIZE);
	src_node = get_le32(h + H_SRC_NODE);
	src_port = get_le32(h + H_SRC_PORT);
	dst_node = get_le32(h + H_DST_NODE);
	dst_port = get_le32(h + H_DST_PORT);
	/* The payload is padded to 4 bytes, and nothing follows it. */
	if (size > len - QRTR_HDR_LEN ||
	    len - QRTR_HDR_LEN != (((size_t)size + 3) & ~(size_t)3))
		return BROKEN("size", size);
	if (dst_node != q->node && dst_node != QRTR_NODE_BCAST)
		return BROKEN("destination node", dst_node);

	if (type == QRTR_TYPE_DATA && dst_port != QRTR_PORT_CTRL) {
		q->c.data_rx++;
		if (dst_port == EMU_QRTR_SVC_CRC_PORT)
			crc_service(q, h + QRTR_HDR_LEN, size, src_node, src_port);
		else
			q->c.no_port++;
		/* The host waits for this after a few packets to one port. */
		if (get_le32(h + H_CONFIRM_RX)) {
			const uint32_t client[4] = { q->node, dst_port };

			q->c.resume_tx++;
			send_ctrl(q, QRTR_TYPE_RESUME_TX, src_node, src_port,
				  client);
		}
		return OK;
	}
	if (dst_port != QRTR_PORT_CTRL && type != QRTR_TYPE_RESUME_TX)
		return BROKEN("control packet to port", dst_port);
	if (type < QRTR_TYPE_HELLO || type > QRTR_TYPE_DEL_LOOKUP)
		return BROKEN("type", type);
	if (size < 4)
		return BROKEN("control packet of size", size);
	if (get_le32(h + QRTR_HDR_LEN) != type)
		return BROKEN("control command", get_le32(h + QRTR_HDR_LEN));
	if (type == QRTR_TYPE_HELLO) {
		q->c.hello_rx++;
		announce(q, src_node);
		return OK;
	}
	q->c.ctrl_other++;
	return OK;
}

void emu_qrtr_rx(struct emu_qrtr *q, const void *pkt, size_t len)
{
	struct verdict v;

	q->c.rx++;
	v = rx_packet(q, pkt, len);
	if (!v.rule)
		return;
	q->c.bad++;
	emu_log(q->dev, "QRTR: packet dropped: %s %#x", v.rule, v.val);
}

const struct emu_qrtr_counters *emu_qrtr_counters(const struct emu_qrtr *q)
{
	return &q->c;
}

void emu_qrtr_counters_print(const struct emu_qrtr *q, FILE *out)
{
	fprintf(out, "qrtr_node %" PRIu32 "\n", q->node);
	fprintf(out, "qrtr_rx %" PRIu64 "\n", q->c.rx);
	fprintf(out, "qrtr_bad %" PRIu64 "\n", q->c.bad);
	fprintf(out, "qrtr_hello_tx %" PRIu64 "\n", q->c.hello_tx);
	fprintf(out, "qrtr_hello_rx %" PRIu64 "\n", q->c.hello_rx);
	fprintf(out, "qrtr_announced %" PRIu64 "\n", q->c.announced);
	fprintf(out, "qrtr_ctrl_other %" PRIu64 "\n", q->c.ctrl_other);
	fprintf(out, "qrtr_data_rx %" PRIu64 "\n", q->c.data_rx);
	fprintf(out, "qrtr_data_tx %" PRIu64 "\n", q->c.data_tx);
	fprintf(out, "qrtr_no_port %" PRIu64 "\n", q->c.no_port);
	fprintf(out, "qrtr_resume_tx %" PRIu64 "\n", q->c.resume_tx);
}
