// SPDX-License-Identifier: GPL-2.0-only
/*
 * The card's IPC router (qrtr.c) on its own: a stand-in MHI records what
 * the card sends; the host's packets are built by hand as Linux's
 * net/qrtr builds them.
 */
#include <stdlib.h>
#include <string.h>

#include "crc32.h"
#include "device.h"
#include "emu_test.h"
#include "le_bytes.h"
#include "qrtr.h"

static struct emu_device dev;	/* for emu_log(); not verbose */

#define MAX_SENT	8
#define HOST_NODE	1
#define CLIENT_PORT	0x4001

static struct {
	uint8_t pkt[MAX_SENT][QRTR_HDR_LEN + EMU_QRTR_CRC_ANSWER_HDR + EMU_QRTR_CRC_MAX];
	size_t len[MAX_SENT];
	unsigned int n;
} rec;

static void send_rec(void *ctx, const void *pkt, size_t len)
{
	(void)ctx;
	if (rec.n >= MAX_SENT || len > sizeof(rec.pkt[0]))
		abort();
	memcpy(rec.pkt[rec.n], pkt, len);
	rec.len[rec.n++] = len;
}

static const struct emu_qrtr_ops ops = { .send = send_rec };

static uint8_t host[QRTR_HDR_LEN + 65536];

/* A host packet of @size payload bytes (already in host + 32), padded. */
static size_t host_pkt(uint32_t type, uint32_t dst_node, uint32_t dst_port,
		       uint32_t size, bool confirm)
{
	size_t len = QRTR_HDR_LEN + ((size + 3) & ~3u);

	put_le32(host + 0, 1);
	put_le32(host + 4, type);
	put_le32(host + 8, HOST_NODE);
	put_le32(host + 12, type == QRTR_TYPE_DATA ? CLIENT_PORT : QRTR_PORT_CTRL);
	put_le32(host + 16, confirm);
	put_le32(host + 20, size);
	put_le32(host + 24, dst_node);
	put_le32(host + 28, dst_port);
	return len;
}

static size_t host_ctrl(uint32_t cmd, uint32_t dst_node)
{
	memset(host + QRTR_HDR_LEN, 0, QRTR_CTRL_LEN);
	put_le32(host + QRTR_HDR_LEN, cmd);
	return host_pkt(cmd, dst_node, QRTR_PORT_CTRL, QRTR_CTRL_LEN, false);
}

static uint32_t sent32(unsigned int i, size_t off)
{
	return get_le32(rec.pkt[i] + off);
}

/* The card's HELLO, the host's answer, the card's NEW_SERVER. */
static void test_hello(void)
{
	struct emu_qrtr *q = emu_qrtr_create(&dev, &ops, NULL);

	emu_qrtr_set_node(q, 7);
	rec.n = 0;
	emu_qrtr_start(q);
	CHECK_EQ(rec.n, 1);
	CHECK_EQ(rec.len[0], QRTR_HDR_LEN + QRTR_CTRL_LEN);
	CHECK_EQ(sent32(0, 0), 1);
	CHECK_EQ(sent32(0, 4), QRTR_TYPE_HELLO);
	CHECK_EQ(sent32(0, 8), 7);
	CHECK_EQ(sent32(0, 12), QRTR_PORT_CTRL);
	CHECK_EQ(sent32(0, 20), QRTR_CTRL_LEN);
	CHECK_EQ(sent32(0, 24), QRTR_NODE_BCAST);
	CHECK_EQ(sent32(0, 28), QRTR_PORT_CTRL);
	CHECK_EQ(sent32(0, 32), QRTR_TYPE_HELLO);

	rec.n = 0;
	emu_qrtr_rx(q, host, host_ctrl(QRTR_TYPE_HELLO, 7));
	CHECK_EQ(rec.n, 1);
	CHECK_EQ(sent32(0, 4), QRTR_TYPE_NEW_SERVER);
	CHECK_EQ(sent32(0, 24), HOST_NODE);
	CHECK_EQ(sent32(0, 28), QRTR_PORT_CTRL);
	CHECK_EQ(sent32(0, 32), QRTR_TYPE_NEW_SERVER);
	CHECK_EQ(sent32(0, 36), EMU_QRTR_SVC_CRC);
	CHECK_EQ(sent32(0, 40), EMU_QRTR_SVC_CRC_INST);
	CHECK_EQ(sent32(0, 44), 7);
	CHECK_EQ(sent32(0, 48), EMU_QRTR_SVC_CRC_PORT);
	CHECK_EQ(emu_qrtr_counters(q)->hello_rx, 1);
	CHECK_EQ(emu_qrtr_counters(q)->announced, 1);

	/* A broadcast one is for the card too; BYE wants no answer. */
	rec.n = 0;
	emu_qrtr_rx(q, host, host_ctrl(QRTR_TYPE_HELLO, QRTR_NODE_BCAST));
	emu_qrtr_rx(q, host, host_ctrl(QRTR_TYPE_BYE, 7));
	emu_qrtr_rx(q, host, host_ctrl(QRTR_TYPE_DEL_CLIENT, 7));
	CHECK_EQ(rec.n, 1);
	CHECK_EQ(emu_qrtr_counters(q)->ctrl_other, 2);
	CHECK_EQ(emu_qrtr_counters(q)->bad, 0);
	emu_qrtr_destroy(q);
}

/* The service: every length from 1 to 9, and the largest. */
static void test_crc_service(void)
{
	static const uint32_t sizes[] = { 1, 2, 3, 4, 5, 8, 9, 1000, EMU_QRTR_CRC_MAX };
	struct emu_qrtr *q = emu_qrtr_create(&dev, &ops, NULL);
	unsigned int i, j;

	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		uint32_t size = sizes[i];
		uint8_t *req = host + QRTR_HDR_LEN, *ans;

		for (j = 0; j < size; j++)
			req[j] = (uint8_t)emu_test_rnd();
		rec.n = 0;
		emu_qrtr_rx(q, host, host_pkt(QRTR_TYPE_DATA, EMU_QRTR_DEFAULT_NODE,
					      EMU_QRTR_SVC_CRC_PORT, size, false));
		CHECK_EQ(rec.n, 1);
		CHECK_EQ(sent32(0, 4), QRTR_TYPE_DATA);
		CHECK_EQ(sent32(0, 8), EMU_QRTR_DEFAULT_NODE);
		CHECK_EQ(sent32(0, 12), EMU_QRTR_SVC_CRC_PORT);
		CHECK_EQ(sent32(0, 20), EMU_QRTR_CRC_ANSWER_HDR + size);
		CHECK_EQ(sent32(0, 24), HOST_NODE);
		CHECK_EQ(sent32(0, 28), CLIENT_PORT);
		CHECK_EQ(rec.len[0], QRTR_HDR_LEN + ((EMU_QRTR_CRC_ANSWER_HDR + size + 3) & ~3u));
		ans = rec.pkt[0] + QRTR_HDR_LEN;
		CHECK_EQ(get_le32(ans), emu_crc32(0, req, size));
		CHECK_EQ(get_le32(ans + 4), size);
		for (j = 0; j < size; j++)
			if (ans[EMU_QRTR_CRC_ANSWER_HDR + j] != req[size - 1 - j])
				break;
		CHECK_EQ(j, size);
	}
	/* One byte too many: refused with a length of all-ones. */
	rec.n = 0;
	emu_qrtr_rx(q, host, host_pkt(QRTR_TYPE_DATA, EMU_QRTR_DEFAULT_NODE,
				      EMU_QRTR_SVC_CRC_PORT, EMU_QRTR_CRC_MAX + 1, false));
	CHECK_EQ(rec.n, 1);
	CHECK_EQ(sent32(0, 20), EMU_QRTR_CRC_ANSWER_HDR);
	CHECK_EQ(sent32(0, 36), UINT32_MAX);
	emu_qrtr_destroy(q);
}

/* confirm_rx asks for RESUME_TX naming the card's node and port. */
static void test_resume_tx(void)
{
	struct emu_qrtr *q = emu_qrtr_create(&dev, &ops, NULL);

	rec.n = 0;
	host[QRTR_HDR_LEN] = 1;
	emu_qrtr_rx(q, host, host_pkt(QRTR_TYPE_DATA, EMU_QRTR_DEFAULT_NODE,
				      EMU_QRTR_SVC_CRC_PORT, 1, true));
	CHECK_EQ(rec.n, 2);
	CHECK_EQ(sent32(0, 4), QRTR_TYPE_DATA);
	CHECK_EQ(sent32(1, 4), QRTR_TYPE_RESUME_TX);
	CHECK_EQ(sent32(1, 24), HOST_NODE);
	CHECK_EQ(sent32(1, 28), CLIENT_PORT);
	CHECK_EQ(sent32(1, 32), QRTR_TYPE_RESUME_TX);
	CHECK_EQ(sent32(1, 36), EMU_QRTR_DEFAULT_NODE);
	CHECK_EQ(sent32(1, 40), EMU_QRTR_SVC_CRC_PORT);

	/* To a port with no service: no answer, but still confirmed. */
	rec.n = 0;
	emu_qrtr_rx(q, host, host_pkt(QRTR_TYPE_DATA, EMU_QRTR_DEFAULT_NODE, 0x41, 1, true));
	CHECK_EQ(rec.n, 1);
	CHECK_EQ(sent32(0, 4), QRTR_TYPE_RESUME_TX);
	CHECK_EQ(sent32(0, 40), 0x41);
	CHECK_EQ(emu_qrtr_counters(q)->no_port, 1);
	emu_qrtr_destroy(q);
}

/* Each rule, broken once: dropped, counted, unanswered. */
static void test_bad(void)
{
	struct emu_qrtr *q = emu_qrtr_create(&dev, &ops, NULL);
	size_t len;

	rec.n = 0;
	len = host_ctrl(QRTR_TYPE_HELLO, EMU_QRTR_DEFAULT_NODE);
	emu_qrtr_rx(q, host, QRTR_HDR_LEN - 1);		/* short */
	put_le32(host, 2);				/* version 2 */
	emu_qrtr_rx(q, host, len);
	len = host_ctrl(QRTR_TYPE_HELLO, EMU_QRTR_DEFAULT_NODE);
	emu_qrtr_rx(q, host, len - 4);			/* size past the end */
	emu_qrtr_rx(q, host, len + 4);			/* bytes after the padding */
	put_le32(host + 20, 0xffffffff);
	emu_qrtr_rx(q, host, len);			/* size all-ones */
	emu_qrtr_rx(q, host, host_ctrl(QRTR_TYPE_HELLO, 3));	/* another node */
	len = host_ctrl(QRTR_TYPE_HELLO, EMU_QRTR_DEFAULT_NODE);
	put_le32(host + 28, 5);
	emu_qrtr_rx(q, host, len);			/* control to a port */
	emu_qrtr_rx(q, host, host_ctrl(0, EMU_QRTR_DEFAULT_NODE));	/* type 0 */
	emu_qrtr_rx(q, host, host_ctrl(12, EMU_QRTR_DEFAULT_NODE));	/* type 12 */
	len = host_ctrl(QRTR_TYPE_HELLO, EMU_QRTR_DEFAULT_NODE);
	put_le32(host + QRTR_HDR_LEN, QRTR_TYPE_BYE);
	emu_qrtr_rx(q, host, len);			/* cmd is not the type */
	host_pkt(QRTR_TYPE_HELLO, EMU_QRTR_DEFAULT_NODE, QRTR_PORT_CTRL, 0, false);
	emu_qrtr_rx(q, host, QRTR_HDR_LEN);		/* no cmd */
	CHECK_EQ(rec.n, 0);
	CHECK_EQ(emu_qrtr_counters(q)->bad, 11);
	CHECK_EQ(emu_qrtr_counters(q)->rx, 11);
	emu_qrtr_destroy(q);
}

int main(void)
{
	RUN(test_hello);
	RUN(test_crc_service);
	RUN(test_resume_tx);
	RUN(test_bad);
	return emu_test_exit();
}
