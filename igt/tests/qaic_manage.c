// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The qaic authors.
 */

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <linux/capability.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "igt_qaic.h"

/**
 * TEST: qaic manage
 * Category: Infrastructure
 * Description: Checks of MANAGE, the qaic control path to the card's manager.
 * Feature: qaic
 *
 * SUBTEST: status
 * Description: Check that the device reports its status and protocol version 5.0.
 * Run type: BAT
 *
 * SUBTEST: passthrough-echo
 * Description: Check that passthrough requests reach the manager and come back intact.
 * Run type: BAT
 *
 * SUBTEST: activate
 * Description: Check that activating a DMA Bridge Channel yields one of the 16.
 * Run type: BAT
 *
 * SUBTEST: deactivate
 * Description: Check that a DMA Bridge Channel can be given back and had again.
 * Run type: BAT
 *
 * SUBTEST: deactivate-twice
 * Description: Check that a DMA Bridge Channel cannot be given back twice.
 * Run type: FULL
 *
 * SUBTEST: deactivate-bad-id
 * Description: Check that deactivating a channel the device lacks is rejected.
 * Run type: FULL
 *
 * SUBTEST: activate-queue-size-zero
 * Description: Check that activating a channel with empty rings is rejected.
 * Run type: FULL
 *
 * SUBTEST: activate-queue-size-limits
 * Description: Check that rings of more than 65536 elements are refused, and big ones below that work.
 * Run type: FULL
 *
 * SUBTEST: dma-xfer
 * Description: Check that a DMA transfer delivers a buffer to the device intact.
 * Run type: BAT
 *
 * SUBTEST: dma-xfer-unaligned
 * Description: Check that a DMA transfer off page boundaries is delivered intact.
 * Run type: FULL
 *
 * SUBTEST: dma-xfer-multi
 * Description: Check that several DMA transfers in one message are each delivered.
 * Run type: FULL
 *
 * SUBTEST: dma-xfer-large
 * Description: Check that a DMA transfer needing several device messages arrives intact.
 * Run type: FULL
 *
 * SUBTEST: dma-xfer-readonly
 * Description: Check that a DMA transfer can read a read-only buffer.
 * Run type: FULL
 *
 * SUBTEST: dma-xfer-windowed
 * Description: Check that a DMA transfer of several messages' worth arrives intact.
 * Run type: FULL
 *
 * SUBTEST: dma-xfer-windowed-unaligned
 * Description: Check that such a transfer off page boundaries arrives intact.
 * Run type: FULL
 *
 * SUBTEST: dma-xfer-windowed-unannounced
 * Description: Check that such a transfer arrives intact when the card was not told its size.
 * Run type: FULL
 *
 * SUBTEST: dma-xfer-huge
 * Description: Check that a 1 TiB DMA transfer from a small buffer fails cleanly.
 * Run type: FULL
 *
 * SUBTEST: dma-xfer-huge-sent
 * Description: Check that a 1 TiB DMA transfer failing after its first message is dropped.
 * Run type: FULL
 *
 * SUBTEST: dma-xfer-huge-noreserve
 * Description: Check that DMA transfers naming a huge mapping are refused at once.
 * Run type: FULL
 *
 * SUBTEST: dma-xfer-memlock-over
 * Description: Check that a DMA transfer pinning more than RLIMIT_MEMLOCK fails with ENOMEM.
 * Run type: FULL
 *
 * SUBTEST: dma-xfer-memlock-within
 * Description: Check that a DMA transfer within RLIMIT_MEMLOCK arrives and its pages stop counting.
 * Run type: FULL
 *
 * SUBTEST: dma-xfer-memlock-window-over
 * Description: Check that a window of a large DMA transfer counts against RLIMIT_MEMLOCK.
 * Run type: FULL
 *
 * SUBTEST: dma-xfer-memlock-window-within
 * Description: Check that a large DMA transfer arrives when its windows fit RLIMIT_MEMLOCK.
 * Run type: FULL
 *
 * SUBTEST: dma-xfer-many-noreserve
 * Description: Check that many DMA transfers that together pin too much are refused.
 * Run type: FULL
 *
 * SUBTEST: dma-xfer-size-max
 * Description: Check that a DMA transfer of 2^64 - 1 bytes at address 0 is refused.
 * Run type: FULL
 *
 * SUBTEST: dma-xfer-signal
 * Description: Check that a fatal signal ends a huge DMA transfer at once.
 * Run type: FULL
 *
 * SUBTEST: dma-xfer-past-card
 * Description: Check that a DMA transfer larger than the card's memory and than one pinned window fails whole.
 * Run type: FULL
 *
 * SUBTEST: len-zero-count
 * Description: Check that a message of no transactions is rejected.
 * Run type: FULL
 *
 * SUBTEST: len-smaller-than-header
 * Description: Check that a message shorter than a transaction header is rejected.
 * Run type: FULL
 *
 * SUBTEST: count-larger-than-transactions
 * Description: Check that a count of more transactions than there are is rejected.
 * Run type: FULL
 *
 * SUBTEST: trans-len-zero
 * Description: Check that a transaction claiming no length is rejected.
 * Run type: FULL
 *
 * SUBTEST: trans-len-overflow
 * Description: Check that transaction lengths whose sum wraps around are rejected.
 * Run type: FULL
 *
 * SUBTEST: unknown-trans-type
 * Description: Check that transaction types the uapi does not define are rejected.
 * Run type: FULL
 *
 * SUBTEST: device-only-trans-type
 * Description: Check that device-side and answer transaction types are rejected.
 * Run type: FULL
 *
 * SUBTEST: oversize-message
 * Description: Check that a message longer than the uapi allows is rejected.
 * Run type: FULL
 *
 * SUBTEST: data-unmapped
 * Description: Check that a message at an unmapped address is rejected.
 * Run type: FULL
 *
 * SUBTEST: dma-xfer-addr-wrap
 * Description: Check that a DMA transfer that wraps the address space is rejected.
 * Run type: FULL
 *
 * SUBTEST: dma-xfer-unmapped
 * Description: Check that a DMA transfer from unmapped memory is rejected.
 * Run type: FULL
 *
 * SUBTEST: dma-xfer-partly-unmapped
 * Description: Check that a DMA transfer from a partly unmapped buffer is rejected.
 * Run type: FULL
 *
 * SUBTEST: dma-xfer-size-zero
 * Description: Check that an empty DMA transfer is rejected.
 * Run type: FULL
 *
 * SUBTEST: dma-xfer-pad
 * Description: Check that a DMA transfer with a non-zero pad is rejected.
 * Run type: FULL
 *
 * SUBTEST: activate-pad
 * Description: Check that an activate with a non-zero pad is rejected.
 * Run type: FULL
 *
 * SUBTEST: deactivate-pad
 * Description: Check that a deactivate with a non-zero pad is rejected.
 * Run type: FULL
 *
 * SUBTEST: deactivate-other-file
 * Description: Check that another file of the process cannot give back a channel.
 * Run type: FULL
 *
 * SUBTEST: deactivate-other-process
 * Description: Check that another process cannot give back a channel it does not own.
 * Run type: FULL
 *
 * SUBTEST: close-releases
 * Description: Check that the channels of a process are released when it exits.
 * Run type: FULL
 *
 * SUBTEST: eight-processes
 * Description: Check that eight processes using the manager at once get their own answers.
 * Run type: FULL
 *
 * SUBTEST: deactivate-then-close
 * Description: Check that a channel deactivated but kept by the card is freed on close.
 * Run type: FULL
 */

IGT_TEST_DESCRIPTION("Checks of MANAGE, the qaic control path to the card's manager.");

/* DMA Bridge Channels of an AIC100 */
#define NUM_DBC 16

/* Ring entries of the channels the tests activate */
#define QUEUE_SIZE 64

/* Control protocol version the device and the driver speak */
#define NNC_MAJOR 5
#define NNC_MINOR 0

/*
 * Passthrough requests of the emulated card's manager, as tests/emu/manager.h
 * declares them and tests/emu/manual.rst describes them. The
 * payload of a passthrough transaction starts with struct emu_pt_req; all of
 * it is little endian, like the machines the tests run on.
 */
/* The emulator's own request n: above every firmware NNC command type */
#define EMU_PT_OP(n)	(0x51450000u + (n))
#define EMU_PT_ECHO		EMU_PT_OP(1)	/* answer: the request payload, unchanged */
#define EMU_PT_XFER_SUM		EMU_PT_OP(2)	/* answer: struct emu_pt_xfer_sum for tag arg */
#define EMU_PT_XFER_EXPECT	EMU_PT_OP(3)	/* u64 size of the next transfer to tag arg */
#define EMU_PT_DEACTIVATE	EMU_PT_OP(4)	/* release DBC arg, as the firmware would */

struct emu_pt_req {
	uint32_t op;
	uint32_t arg;
};

/* What the device received by DMA transfer for one tag so far */
struct emu_pt_xfer_sum {
	uint32_t op;		/* EMU_PT_XFER_SUM */
	uint32_t tag;
	uint64_t bytes;		/* bytes received for the tag */
	uint32_t crc32;		/* zlib crc32 of those bytes, in order */
	uint32_t status;	/* 0, or 1 if the tag is unknown */
};

/* Answer of EMU_PT_XFER_EXPECT and EMU_PT_DEACTIVATE */
struct emu_pt_status {
	uint32_t op;
	uint32_t arg;
	uint32_t status;	/* 0 on success */
	uint32_t pad;
};

#define EMU_PT_E_NO_TAG 1	/* emu_pt_xfer_sum.status: tag unknown */

/* The largest answer the device sends is 4 KiB, its 32-byte header included */
#define MAX_PASSTHROUGH_LEN (4096 - 32)

#define SZ_1M (1024 * 1024)
#define SZ_1G (1024ull * SZ_1M)
#define SZ_1T (1024ull * SZ_1G)

static size_t page_size(void)
{
	return sysconf(_SC_PAGESIZE);
}

/* Fills @buf with a sequence that depends on @seed (xorshift32) */
static void fill_pattern(void *buf, size_t len, uint32_t seed)
{
	uint8_t *p = buf;
	uint32_t x = seed | 1;

	for (size_t i = 0; i < len; i++) {
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		p[i] = x >> 24;
	}
}

/*
 * Appends an echo request: struct emu_pt_req, then @size - sizeof(req)
 * bytes of pattern @seed. Returns the transaction, to compare the answer with.
 */
static const void *add_echo(struct igt_qaic_msg *msg, uint32_t size,
			    uint32_t seed)
{
	struct emu_pt_req req = {
		.op = EMU_PT_ECHO,
		.arg = seed,
	};
	uint8_t payload[MAX_PASSTHROUGH_LEN];

	igt_assert(size >= sizeof(req) && size <= sizeof(payload));
	memcpy(payload, &req, sizeof(req));
	fill_pattern(payload + sizeof(req), size - sizeof(req), seed);

	return igt_qaic_msg_passthrough(msg, payload, size);
}

/* Checks that answer @index is the echo of @request */
static void check_echo(const struct igt_qaic_msg *msg, uint32_t index,
		       const struct qaic_manage_trans_hdr *request)
{
	const struct qaic_manage_trans_hdr *answer;

	answer = igt_qaic_msg_answer(msg, index,
				     QAIC_TRANS_PASSTHROUGH_FROM_DEV,
				     request->len);
	igt_assert_f(memcmp(answer + 1, request + 1,
			    request->len - sizeof(*request)) == 0,
		     "echo #%u of %u bytes came back changed\n",
		     index, request->len);
}

static struct emu_pt_xfer_sum xfer_sum(int fd, uint32_t tag)
{
	struct emu_pt_req req = {
		.op = EMU_PT_XFER_SUM,
		.arg = tag,
	};
	struct emu_pt_xfer_sum sum;
	struct igt_qaic_msg msg;
	const uint8_t *answer;

	igt_qaic_msg_init(&msg);
	igt_qaic_msg_passthrough(&msg, &req, sizeof(req));
	igt_qaic_manage(fd, &msg);

	igt_assert_eq_u32(msg.count, 1);
	answer = igt_qaic_msg_answer(&msg, 0, QAIC_TRANS_PASSTHROUGH_FROM_DEV,
				     sizeof(struct qaic_manage_trans_hdr) +
				     sizeof(sum));
	memcpy(&sum, answer + sizeof(struct qaic_manage_trans_hdr),
	       sizeof(sum));
	igt_assert_eq_u32(sum.op, EMU_PT_XFER_SUM);
	igt_assert_eq_u32(sum.tag, tag);

	return sum;
}

/*
 * Sends one passthrough request @op @arg, with @extra bytes after it, and
 * returns the struct emu_pt_status that answers it.
 */
static struct emu_pt_status emu_pt_call(int fd, uint32_t op, uint32_t arg,
					const void *extra, uint32_t size)
{
	struct emu_pt_req req = {
		.op = op,
		.arg = arg,
	};
	const uint32_t hdr_len = sizeof(struct qaic_manage_trans_hdr);
	struct emu_pt_status status;
	struct qaic_manage_trans_passthrough *trans;
	struct igt_qaic_msg msg;

	igt_qaic_msg_init(&msg);
	trans = igt_qaic_msg_append(&msg, QAIC_TRANS_PASSTHROUGH_FROM_USR,
				    hdr_len + sizeof(req) + size);
	memcpy(trans->data, &req, sizeof(req));
	if (size)
		memcpy(trans->data + sizeof(req), extra, size);
	igt_qaic_manage(fd, &msg);

	igt_assert_eq_u32(msg.count, 1);
	memcpy(&status, (const uint8_t *)
	       igt_qaic_msg_answer(&msg, 0, QAIC_TRANS_PASSTHROUGH_FROM_DEV,
				   hdr_len + sizeof(status)) + hdr_len,
	       sizeof(status));
	igt_assert_eq_u32(status.op, op);
	igt_assert_eq_u32(status.arg, arg);

	return status;
}

/*
 * Gives DBC @dbc_id back for good: the deactivate transaction takes it from
 * the file, and the passthrough in front of it asks the card to release it,
 * as a real runtime asks the firmware in its own terms. The card answers the
 * passthrough, then reports the release, which the driver consumes.
 */
static void emu_release(int fd, uint32_t dbc_id)
{
	struct emu_pt_req req = {
		.op = EMU_PT_DEACTIVATE,
		.arg = dbc_id,
	};
	const uint32_t hdr_len = sizeof(struct qaic_manage_trans_hdr);
	struct emu_pt_status status;
	struct igt_qaic_msg msg;

	igt_qaic_msg_init(&msg);
	igt_qaic_msg_passthrough(&msg, &req, sizeof(req));
	igt_qaic_msg_deactivate(&msg, dbc_id);
	igt_qaic_manage(fd, &msg);

	/*
	 * Only the passthrough is answered to the user. (Linux 6.12 counts
	 * the card's release report in count all the same: len tells.)
	 */
	igt_assert_lte(1, msg.count);
	igt_assert_eq_u32(msg.len, hdr_len + sizeof(status));
	memcpy(&status, (const uint8_t *)
	       igt_qaic_msg_answer(&msg, 0, QAIC_TRANS_PASSTHROUGH_FROM_DEV,
				   hdr_len + sizeof(status)) + hdr_len,
	       sizeof(status));
	igt_assert_eq_u32(status.op, EMU_PT_DEACTIVATE);
	igt_assert_eq_u32(status.arg, dbc_id);
	igt_assert_eq_u32(status.status, 0);
}

/*
 * A tag no DMA transfer of this file used yet; different @salt, different
 * tag. (The emulated card keeps sums per file and tag until the file is
 * closed.)
 */
static uint32_t fresh_tag(int fd, uint32_t salt)
{
	uint32_t tag = ((uint32_t)getpid() * 2654435761u ^ (uint32_t)time(NULL)) +
		       salt * 0x10001u;

	for (int i = 0; i < 64; i++, tag++) {
		struct emu_pt_xfer_sum sum = xfer_sum(fd, tag);

		if (sum.status == EMU_PT_E_NO_TAG) {
			igt_assert_eq_u64(sum.bytes, 0);
			return tag;
		}
	}

	igt_assert_f(false, "no unused DMA transfer tag found\n");
	return 0;
}

/* Checks that the device got exactly @size bytes at @buf for @tag */
static void check_xfer_sum(int fd, uint32_t tag, const void *buf, size_t size)
{
	struct emu_pt_xfer_sum sum = xfer_sum(fd, tag);

	igt_assert_eq_u32(sum.status, 0);
	igt_assert_eq_u64(sum.bytes, size);
	igt_assert_eq_u32(sum.crc32, igt_qaic_crc32(0, buf, size));
}

/*
 * Transfers @size bytes at @buf to a fresh tag and checks what arrived. The
 * size is announced first: a real card knows it from the request that set
 * the tag up, and the emulated one asks for the rest of a transfer that
 * needs several messages until that many bytes arrived.
 */
static void xfer_and_check(int fd, const void *buf, size_t size)
{
	uint32_t tag = fresh_tag(fd, 0);
	uint64_t expect = size;

	igt_assert_eq_u32(emu_pt_call(fd, EMU_PT_XFER_EXPECT, tag,
				      &expect, sizeof(expect)).status, 0);
	igt_qaic_dma_xfer(fd, tag, buf, size);
	check_xfer_sum(fd, tag, buf, size);
}

/* Runs a message that must fail with @err */
static void manage_err(int fd, struct igt_qaic_msg *msg, int err)
{
	int ret = __igt_qaic_manage(fd, msg);

	igt_assert_f(ret == -err, "MANAGE: got %s, expected %s\n",
		     ret ? strerror(-ret) : "success", strerror(err));
}

static void test_status(int fd)
{
	struct qaic_manage_trans_status_from_dev status;
	struct igt_qaic_msg msg;

	igt_qaic_msg_init(&msg);
	igt_qaic_msg_status(&msg);
	igt_qaic_manage(fd, &msg);

	/*
	 * Linux 6.12 answers with the device's transaction type, not
	 * QAIC_TRANS_STATUS_TO_USR, and so must any driver of this uapi.
	 */
	igt_assert_eq_u32(msg.count, 1);
	igt_assert_eq_u32(msg.len, sizeof(status));
	memcpy(&status, igt_qaic_msg_answer(&msg, 0, QAIC_TRANS_STATUS_FROM_DEV,
					    sizeof(status)), sizeof(status));
	igt_info("control protocol %u.%u, status %u, flags %#llx\n",
		 status.major, status.minor, status.status,
		 (unsigned long long)status.status_flags);

	igt_assert_eq_u32(status.status, 0);
	igt_assert_eq(status.major, NNC_MAJOR);
	igt_assert_eq(status.minor, NNC_MINOR);
}

static void test_passthrough_echo(int fd)
{
	/* Transaction lengths, from a bare request header to the largest */
	static const uint32_t lens[] = { 16, 24, 64, 1024, MAX_PASSTHROUGH_LEN };
	static const uint32_t multi_lens[] = { 16, 40, 128, 512 };
	const uint32_t hdr_len = sizeof(struct qaic_manage_trans_hdr);
	struct igt_qaic_msg msg, request;
	uint32_t off = 0;

	/* One echo a message */
	for (unsigned int i = 0; i < ARRAY_SIZE(lens); i++) {
		igt_qaic_msg_init(&msg);
		add_echo(&msg, lens[i] - hdr_len, i + 1);
		request = msg;

		igt_qaic_manage(fd, &msg);
		igt_assert_eq_u32(msg.count, 1);
		igt_assert_eq_u32(msg.len, lens[i]);
		check_echo(&msg, 0, (const void *)request.buf);
	}

	/* Several in one message, answered in order */
	igt_qaic_msg_init(&msg);
	for (unsigned int i = 0; i < ARRAY_SIZE(multi_lens); i++)
		add_echo(&msg, multi_lens[i] - hdr_len, 100 + i);
	request = msg;

	igt_qaic_manage(fd, &msg);
	igt_assert_eq_u32(msg.count, ARRAY_SIZE(multi_lens));
	igt_assert_eq_u32(msg.len, request.len);
	for (unsigned int i = 0; i < ARRAY_SIZE(multi_lens); i++) {
		check_echo(&msg, i, (const void *)(request.buf + off));
		off += multi_lens[i];
	}
}

static void test_activate(void)
{
	struct qaic_manage_trans_activate_from_dev answer;
	struct igt_qaic_msg msg;
	int fd = __igt_qaic_open();

	igt_assert_fd(fd);

	igt_qaic_msg_init(&msg);
	igt_qaic_msg_activate(&msg, QUEUE_SIZE, 0);
	igt_qaic_manage(fd, &msg);

	/* As with status, the answer carries the device's type */
	igt_assert_eq_u32(msg.count, 1);
	igt_assert_eq_u32(msg.len, sizeof(answer));
	memcpy(&answer, igt_qaic_msg_answer(&msg, 0,
					    QAIC_TRANS_ACTIVATE_FROM_DEV,
					    sizeof(answer)), sizeof(answer));
	igt_info("DBC %u, options %#llx\n", answer.dbc_id,
		 (unsigned long long)answer.options);
	igt_assert_eq_u32(answer.status, 0);
	igt_assert_f(answer.dbc_id < NUM_DBC, "DBC %u\n", answer.dbc_id);

	emu_release(fd, answer.dbc_id);
	igt_qaic_close(fd);
}

/*
 * Takes all the channels, gives one back, and gets that one again: the
 * driver must have given up its rings when the card reported the release.
 */
static void test_deactivate(void)
{
	uint32_t dbc_id, seen = 0, victim = 0;
	int fd = __igt_qaic_open();

	igt_assert_fd(fd);
	for (int i = 0; i < NUM_DBC; i++) {
		dbc_id = igt_qaic_activate(fd, QUEUE_SIZE);
		igt_assert_f(dbc_id < NUM_DBC && !(seen & (1u << dbc_id)),
			     "DBC %u\n", dbc_id);
		seen |= 1u << dbc_id;
		if (i == NUM_DBC / 2)
			victim = dbc_id;
	}

	emu_release(fd, victim);
	dbc_id = igt_qaic_activate(fd, QUEUE_SIZE);
	igt_assert_eq_u32(dbc_id, victim);

	igt_qaic_close(fd);
}

/*
 * A channel given back is owned by no file any more: giving it back again
 * is the EPERM of a channel owned by someone else, as in Linux 6.12.
 */
static void test_deactivate_twice(void)
{
	uint32_t dbc_id;
	int fd = __igt_qaic_open();

	igt_assert_fd(fd);
	dbc_id = igt_qaic_activate(fd, QUEUE_SIZE);
	emu_release(fd, dbc_id);

	igt_assert_eq(__igt_qaic_deactivate(fd, dbc_id), -EPERM);

	igt_qaic_close(fd);
}

static void test_deactivate_bad_id(int fd)
{
	igt_assert_eq(__igt_qaic_deactivate(fd, NUM_DBC), -EINVAL);
	igt_assert_eq(__igt_qaic_deactivate(fd, ~0u), -EINVAL);
}

static void test_activate_queue_size_zero(int fd)
{
	uint32_t dbc_id;

	igt_assert_eq(__igt_qaic_activate(fd, 0, &dbc_id), -EINVAL);
}

/*
 * The driver bounds the rings an activate allocates: req_id is 16 bits, so
 * no more than 65536 elements are of use. Each size in its own file, which
 * gives its DBC back when closed.
 */
static void test_activate_queue_size_limits(void)
{
	/*
	 * Ours takes at most 65536 elements. Upstream has no limit but the
	 * ring's one coherent allocation: it may be taken or fail with
	 * ENOMEM (never with a WARN in the log: the run checks that).
	 */
	static const struct {
		uint32_t queue_size;
		int err;
		int upstream_err;
	} cases[] = {
		{ 32768, 0, 0 },
		{ 65537, -EINVAL, -ENOMEM },
		{ 1u << 31, -EINVAL, -EINVAL },
		{ ~0u, -EINVAL, -EINVAL },
	};
	uint32_t dbc_id;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		int fd = igt_qaic_open();
		int err = __igt_qaic_activate(fd, cases[i].queue_size, &dbc_id);

		if (igt_qaic_driver_is_ours(fd))
			igt_assert_f(err == cases[i].err, "queue_size %u: %d\n",
				     cases[i].queue_size, err);
		else
			igt_assert_f(err == cases[i].upstream_err || err == 0,
				     "queue_size %u: %d\n", cases[i].queue_size, err);
		igt_qaic_close(fd);
	}
}

static void test_dma_xfer(int fd)
{
	uint8_t *buf = aligned_alloc(page_size(), SZ_1M);

	igt_assert(buf);
	fill_pattern(buf, SZ_1M, 0x1234);

	xfer_and_check(fd, buf, SZ_1M);

	free(buf);
}

static void test_dma_xfer_unaligned(int fd)
{
	const size_t size = SZ_1M - 1000 + 3;
	uint8_t *buf = aligned_alloc(page_size(), SZ_1M + page_size());

	igt_assert(buf);
	fill_pattern(buf, SZ_1M + page_size(), 0x4321);

	/* Odd start in a page, odd end in another */
	xfer_and_check(fd, buf + 123, size);

	free(buf);
}

static void test_dma_xfer_multi(int fd)
{
	static const size_t sizes[] = { 4096, 100000, 8 };
	uint32_t tags[ARRAY_SIZE(sizes)];
	uint8_t *bufs[ARRAY_SIZE(sizes)];
	struct igt_qaic_msg msg;

	/* Tags first: finding one sends messages of its own */
	for (unsigned int i = 0; i < ARRAY_SIZE(sizes); i++) {
		tags[i] = fresh_tag(fd, i);
		for (unsigned int j = 0; j < i; j++)
			igt_assert_neq(tags[i], tags[j]);
	}

	igt_qaic_msg_init(&msg);
	for (unsigned int i = 0; i < ARRAY_SIZE(sizes); i++) {
		bufs[i] = malloc(sizes[i]);
		igt_assert(bufs[i]);
		fill_pattern(bufs[i], sizes[i], 77 + i);
		igt_qaic_msg_dma_xfer(&msg, tags[i], to_user_pointer(bufs[i]),
				      sizes[i]);
	}
	igt_qaic_manage(fd, &msg);

	for (unsigned int i = 0; i < ARRAY_SIZE(sizes); i++) {
		check_xfer_sum(fd, tags[i], bufs[i], sizes[i]);
		free(bufs[i]);
	}
}

/*
 * Runs of physically contiguous pages in [buf, buf + size), from
 * /proc/self/pagemap; -1 when it does not show page frames (no
 * CAP_SYS_ADMIN).
 */
static long phys_runs(const void *buf, size_t size)
{
	const size_t page = page_size();
	uintptr_t start = (uintptr_t)buf & ~(page - 1);
	uintptr_t end = (uintptr_t)buf + size;
	uint64_t prev = 0;
	long runs = 0;
	int fd;

	fd = open("/proc/self/pagemap", O_RDONLY);
	if (fd < 0)
		return -1;

	for (uintptr_t addr = start; addr < end; addr += page) {
		uint64_t entry, pfn;

		if (pread(fd, &entry, sizeof(entry),
			  addr / page * sizeof(entry)) != sizeof(entry)) {
			runs = -1;
			break;
		}
		pfn = entry & ((1ull << 55) - 1);
		if (!(entry >> 63) || !pfn) {
			runs = -1;
			break;
		}
		if (pfn != prev + 1)
			runs++;
		prev = pfn;
	}

	close(fd);
	return runs;
}

/*
 * 48 MiB of pages in as many pieces as can be had is more than one message
 * to the device can describe (64 KiB, 16 bytes a piece): the driver must
 * send the rest in further messages as the device asks for them. (The
 * emulated card holds 64 MiB of transferred data in all.)
 */
static void test_dma_xfer_large(int fd)
{
	const size_t size = 48 * SZ_1M;
	const size_t page = page_size();
	uint8_t *buf = malloc(size);
	long runs;

	igt_assert(buf);
	madvise((void *)((uintptr_t)buf & ~(page - 1)), size, MADV_NOHUGEPAGE);

	/* Fault the odd pages in first, then the even ones, to scatter them */
	for (size_t off = page; off < size; off += 2 * page)
		buf[off] = 1;
	for (size_t off = 0; off < size; off += 2 * page)
		buf[off] = 1;
	fill_pattern(buf, size, 0xbeef);

	runs = phys_runs(buf, size);
	if (runs >= 0)
		igt_info("%zu MiB in %ld physically contiguous runs\n",
			 size / SZ_1M, runs);

	xfer_and_check(fd, buf, size);

	free(buf);
}

/* A transfer to the device only reads the buffer: read-only memory will do */
static void test_dma_xfer_readonly(int fd)
{
	uint8_t *buf;

	buf = mmap(NULL, SZ_1M, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	igt_assert(buf != MAP_FAILED);
	fill_pattern(buf, SZ_1M, 0xf00d);
	igt_assert_eq(mprotect(buf, SZ_1M, PROT_READ), 0);

	xfer_and_check(fd, buf, SZ_1M);

	munmap(buf, SZ_1M);
}

/*
 * Transfers larger than what one message to the device describes (64 KiB,
 * 16 bytes a piece of at most a page: under 16 MiB of 4 KiB pages). The
 * driver pins them one message's worth at a time; without an announcement
 * the card takes every message that is not full for the last of a
 * transfer, so each but the last must be full. 60 MiB leaves the last one
 * short (the emulated card holds 64 MiB of transferred data in all).
 */
static const struct {
	const char *name;
	const char *desc;
	size_t offset;		/* of the transfer in its first page */
	bool announce;		/* the card is told the size first */
} windowed[] = {
	{ "dma-xfer-windowed",
	  "Check that a DMA transfer of several messages' worth arrives intact.",
	  0, true },
	{ "dma-xfer-windowed-unaligned",
	  "Check that such a transfer off page boundaries arrives intact.",
	  123, true },
	{ "dma-xfer-windowed-unannounced",
	  "Check that such a transfer arrives intact when the card was not told its size.",
	  0, false },
};

static void test_dma_xfer_windowed(int fd, size_t offset, bool announce)
{
	const size_t size = 60 * SZ_1M;
	uint8_t *buf = aligned_alloc(page_size(), size + page_size());
	uint32_t tag;

	igt_assert(buf);
	fill_pattern(buf + offset, size, 0x5eed + offset);

	if (announce) {
		xfer_and_check(fd, buf + offset, size);
	} else {
		tag = fresh_tag(fd, 0);
		igt_qaic_dma_xfer(fd, tag, buf + offset, size);
		check_xfer_sum(fd, tag, buf + offset, size);
	}

	free(buf);
}

/*
 * Pinned pages count in the pinner's pinned_vm, within RLIMIT_MEMLOCK for
 * a process without CAP_IPC_LOCK: a child drops the capability, lowers the
 * limit and transfers. A window of a transfer larger than one message
 * pins up to a message's worth of pages (16 MiB of 4 KiB pages).
 */
static const struct {
	const char *name;
	const char *desc;
	size_t limit;		/* RLIMIT_MEMLOCK */
	size_t size;		/* of the transfer */
	int err;		/* what MANAGE gives */
} memlock[] = {
	{ "dma-xfer-memlock-over",
	  "Check that a DMA transfer pinning more than RLIMIT_MEMLOCK fails with ENOMEM.",
	  SZ_1M, 4 * SZ_1M, ENOMEM },
	{ "dma-xfer-memlock-within",
	  "Check that a DMA transfer within RLIMIT_MEMLOCK arrives and its pages stop counting.",
	  8 * SZ_1M, 4 * SZ_1M, 0 },
	{ "dma-xfer-memlock-window-over",
	  "Check that a window of a large DMA transfer counts against RLIMIT_MEMLOCK.",
	  8 * SZ_1M, 40 * SZ_1M, ENOMEM },
	{ "dma-xfer-memlock-window-within",
	  "Check that a large DMA transfer arrives when its windows fit RLIMIT_MEMLOCK.",
	  64 * SZ_1M, 40 * SZ_1M, 0 },
};

/* VmPin of this process, in kB */
static long vm_pin_kb(void)
{
	char line[128];
	long kb = -1;
	FILE *f = fopen("/proc/self/status", "r");

	igt_assert(f);
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "VmPin: %ld kB", &kb) == 1)
			break;
	fclose(f);
	igt_assert_f(kb >= 0, "no VmPin in /proc/self/status\n");
	return kb;
}

static void drop_cap_ipc_lock(void)
{
	struct __user_cap_header_struct hdr = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct data[2];

	igt_assert_eq(syscall(SYS_capget, &hdr, data), 0);
	data[CAP_TO_INDEX(CAP_IPC_LOCK)].effective &= ~CAP_TO_MASK(CAP_IPC_LOCK);
	data[CAP_TO_INDEX(CAP_IPC_LOCK)].permitted &= ~CAP_TO_MASK(CAP_IPC_LOCK);
	igt_assert_eq(syscall(SYS_capset, &hdr, data), 0);
}

static void test_dma_xfer_memlock(size_t limit, size_t size, int err)
{
	igt_fork(child, 1) {
		struct rlimit rl = { .rlim_cur = limit, .rlim_max = limit };
		uint8_t *buf = aligned_alloc(page_size(), size);
		int fd = igt_qaic_open();
		uint32_t tag;
		uint64_t expect = size;
		int ret;

		igt_assert(buf);
		fill_pattern(buf, size, 0x10c4);
		drop_cap_ipc_lock();
		igt_assert_eq(setrlimit(RLIMIT_MEMLOCK, &rl), 0);
		igt_assert_eq(vm_pin_kb(), 0);

		tag = fresh_tag(fd, 0);
		igt_assert_eq_u32(emu_pt_call(fd, EMU_PT_XFER_EXPECT, tag,
					      &expect, sizeof(expect)).status, 0);
		ret = __igt_qaic_dma_xfer(fd, tag, buf, size);
		igt_assert_f(ret == -err, "DMA transfer of %zu MiB, RLIMIT_MEMLOCK %zu MiB: %s\n",
			     size / SZ_1M, limit / SZ_1M, ret ? strerror(-ret) : "success");
		if (!err)
			check_xfer_sum(fd, tag, buf, size);
		/* Nothing stays counted once the call returned */
		igt_assert_eq(vm_pin_kb(), 0);
		igt_qaic_close(fd);
		free(buf);
	}
	igt_waitchildren();
}

/*
 * Maps as much as @want bytes, and at least @min, read-only and backed by
 * nothing: reading it maps the zero page, and nothing is reserved for it.
 * (User-Mode Linux gives a process less than 1 TiB of address space.)
 */
static void *map_noreserve(uint64_t want, uint64_t min, uint64_t *size)
{
	for (uint64_t len = want; len >= min; len /= 2) {
		void *ptr = mmap(NULL, len, PROT_READ,
				 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
				 -1, 0);

		if (ptr != MAP_FAILED) {
			igt_debug("%llu GiB mapped\n",
				  (unsigned long long)(len / SZ_1G));
			*size = len;
			return ptr;
		}
	}

	igt_require_f(false, "no room for a mapping of %llu GiB\n",
		      (unsigned long long)(min / SZ_1G));
	return NULL;
}

/*
 * One DMA transfer of 1 TiB from a buffer of @buf_size bytes, followed by
 * pages that cannot be pinned: whatever the driver pins of it at once,
 * the transfer runs into them and must fail with EFAULT, having sized
 * nothing after the 1 TiB (a page array for it alone would take 2 GiB:
 * kvmalloc() warns). A buffer larger than what one message describes
 * fails after the card got a part: the card must drop it.
 */
static const struct {
	const char *name;
	const char *desc;
	size_t buf_size;
} huge[] = {
	{ "dma-xfer-huge",
	  "Check that a 1 TiB DMA transfer from a small buffer fails cleanly.",
	  16 * 1024 },
	{ "dma-xfer-huge-sent",
	  "Check that a 1 TiB DMA transfer failing after its first message is dropped.",
	  20 * SZ_1M },
};

static void test_dma_xfer_huge(int fd, size_t buf_size)
{
	/* Far more than any window of one message: 8192 pages */
	const size_t guard = 8192 * page_size();
	struct igt_qaic_msg msg;
	uint32_t tag = fresh_tag(fd, 0);
	uint8_t *buf;

	buf = mmap(NULL, buf_size + guard, PROT_NONE,
		   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	igt_assert(buf != MAP_FAILED);
	igt_assert_eq(mprotect(buf, buf_size, PROT_READ | PROT_WRITE), 0);
	fill_pattern(buf, buf_size, 0x7e4a);

	/* Twice: what the first attempt pinned must have been let go */
	for (int i = 0; i < 2; i++) {
		igt_qaic_msg_init(&msg);
		igt_qaic_msg_dma_xfer(&msg, tag, to_user_pointer(buf), SZ_1T);
		manage_err(fd, &msg, EFAULT);
		/* Nothing of it stays with the card */
		igt_assert_eq_u64(xfer_sum(fd, tag).bytes, 0);
	}

	/* The buffer itself still transfers */
	xfer_and_check(fd, buf, buf_size);

	munmap(buf, buf_size + guard);
}

/*
 * DMA transfers before the last of a message go whole in its first
 * message, so the driver pins them whole before it sends anything: @count
 * transfers of @size bytes each (the whole mapping when 0), all of a huge
 * read-only mapping nobody touched and that nothing backs, must be refused
 * with EINVAL before anything is pinned, at once.
 */
static const struct {
	const char *name;
	const char *desc;
	unsigned int count;
	uint64_t size;
} noreserve[] = {
	{ "dma-xfer-huge-noreserve",
	  "Check that DMA transfers naming a huge mapping are refused at once.",
	  8, 0 },
	{ "dma-xfer-many-noreserve",
	  "Check that many DMA transfers that together pin too much are refused.",
	  127, SZ_1M },
};

static void test_dma_xfer_noreserve(int fd, unsigned int count, uint64_t size)
{
	struct igt_qaic_msg msg;
	uint64_t map_size, start, elapsed;
	uint8_t *ptr;

	ptr = map_noreserve(SZ_1T, 16 * SZ_1G, &map_size);
	if (!size)
		size = map_size;

	igt_qaic_msg_init(&msg);
	for (unsigned int i = 0; i < count; i++)
		igt_qaic_msg_dma_xfer(&msg, i + 1, to_user_pointer(ptr), size);

	start = igt_qaic_now_ms();
	manage_err(fd, &msg, EINVAL);
	elapsed = igt_qaic_now_ms() - start;
	igt_info("%u transfers of %llu MiB refused in %llu ms\n", count,
		 (unsigned long long)(size / SZ_1M),
		 (unsigned long long)elapsed);
	igt_assert_f(elapsed < 1000, "refusal took %llu ms\n",
		     (unsigned long long)elapsed);

	munmap(ptr, map_size);
}

/*
 * The largest transfer that does not wrap: address 0, size 2^64 - 1, in
 * front of a good one so that it is pinned whole. Its page count must not
 * wrap to 0 either (found by qaic-fuzz: 0 pages passed the pin bound and
 * reached pin_user_pages_fast(), which WARNs).
 */
static void test_dma_xfer_size_max(int fd)
{
	static uint8_t buf[64];
	struct igt_qaic_msg msg;

	igt_qaic_msg_init(&msg);
	igt_qaic_msg_dma_xfer(&msg, 1, 0, UINT64_MAX);
	igt_qaic_msg_dma_xfer(&msg, 2, to_user_pointer(buf), sizeof(buf));
	manage_err(fd, &msg, EINVAL);
}

/* What the child of test_dma_xfer_signal() reports, in shared memory */
struct xfer_signal_report {
	uint32_t attempts;		/* transfers that returned */
	int32_t last_err;		/* what the last one returned */
};

/*
 * A child transfers 1 TiB from a read-only mapping of zeroes, again and
 * again: the emulated card has room for 64 MiB and gives up on the
 * transfer there, long before the end of the mapping. So the child spends
 * its time in huge transfers that need many messages. It is killed 100 ms
 * in, or later, once the card holds a part of the transfer: it must die at
 * once. The file is the parent's, so only the driver can tell the card to
 * drop the part it got; the parent then still has a card that answers and
 * keeps nothing of the transfer.
 */
static void test_dma_xfer_signal(int fd)
{
	const uint64_t xfer_size = SZ_1T;
	struct xfer_signal_report *report;
	struct qaic_manage_trans_status_from_dev status;
	uint64_t map_size, start, elapsed, deadline, bytes;
	uint32_t tag = fresh_tag(fd, 0);
	uint8_t *ptr, *small;
	int wstatus;
	pid_t pid;

	ptr = map_noreserve(SZ_1T, 4 * SZ_1G, &map_size);
	report = mmap(NULL, page_size(), PROT_READ | PROT_WRITE,
		      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	igt_assert(report != MAP_FAILED);

	pid = fork();
	igt_assert(pid >= 0);
	if (pid == 0) {
		struct igt_qaic_msg msg;

		/* Whatever becomes of the parent */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		for (;;) {
			igt_qaic_msg_init(&msg);
			igt_qaic_msg_dma_xfer(&msg, tag, to_user_pointer(ptr),
					      xfer_size);
			report->last_err = __igt_qaic_manage(fd, &msg);
			report->attempts++;
		}
	}

	usleep(100 * 1000);
	deadline = igt_qaic_now_ms() + 10000;
	for (;;) {
		bytes = xfer_sum(fd, tag).bytes;
		if (bytes || igt_qaic_now_ms() >= deadline)
			break;
		usleep(10 * 1000);
	}

	start = igt_qaic_now_ms();
	igt_assert_eq(kill(pid, SIGKILL), 0);
	igt_assert_eq(waitpid(pid, &wstatus, 0), pid);
	elapsed = igt_qaic_now_ms() - start;
	igt_info("child killed after %u transfers (last: %s), with %llu MiB at the card; reaped in %llu ms\n",
		 report->attempts, igt_qaic_err_name(-report->last_err),
		 (unsigned long long)(bytes / SZ_1M),
		 (unsigned long long)elapsed);
	igt_assert_f(bytes, "the card got nothing of the transfers in 10 s\n");
	igt_assert(WIFSIGNALED(wstatus) && WTERMSIG(wstatus) == SIGKILL);
	igt_assert_f(elapsed < 2000, "the child took %llu ms to die\n",
		     (unsigned long long)elapsed);

	/* The card answers, kept nothing of the transfer, and transfers */
	igt_qaic_status(fd, &status);
	igt_assert_eq_u32(status.status, 0);
	igt_assert_eq_u64(xfer_sum(fd, tag).bytes, 0);
	small = malloc(SZ_1M);
	igt_assert(small);
	fill_pattern(small, SZ_1M, 0x51c);
	xfer_and_check(fd, small, SZ_1M);

	free(small);
	munmap(report, page_size());
	munmap(ptr, map_size);
}

/*
 * One DMA transfer of 96 MiB from a read-only mapping of zeroes: more than
 * the 64 MiB the emulated card has room for, and more than the driver pins
 * at once, so it takes several messages. The card refuses the part that
 * does not fit, and the whole transfer fails and leaves nothing at the
 * card. The card takes a message that is not full for the last part of a
 * transfer: a driver that sends a short message before the end (an IOMMU
 * merged its window into a few segments) ends the transfer there, and
 * the call "succeeds" with part of the buffer at the card.
 */
static void test_dma_xfer_past_card(int fd)
{
	const uint64_t size = 96 * SZ_1M;
	uint32_t tag = fresh_tag(fd, 0);
	struct igt_qaic_msg msg;
	uint64_t map_size;
	uint8_t *ptr;
	int ret;

	ptr = map_noreserve(size, size, &map_size);
	igt_qaic_msg_init(&msg);
	igt_qaic_msg_dma_xfer(&msg, tag, to_user_pointer(ptr), size);
	ret = __igt_qaic_manage(fd, &msg);
	igt_assert_f(ret == -ECANCELED,
		     "96 MiB to a card with room for 64 MiB: got %s, %llu bytes at the card\n",
		     igt_qaic_err_name(-ret), (unsigned long long)xfer_sum(fd, tag).bytes);
	igt_assert_eq_u64(xfer_sum(fd, tag).bytes, 0);

	munmap(ptr, map_size);
}

/*
 * The validation subtests below break one rule each in a message that is
 * otherwise valid, so that a driver that misses the rule fails differently.
 */

static void test_len_zero_count(int fd)
{
	struct igt_qaic_msg msg;

	igt_qaic_msg_init(&msg);
	igt_qaic_msg_status(&msg);
	msg.count = 0;

	manage_err(fd, &msg, EINVAL);
}

static void test_len_smaller_than_header(int fd)
{
	struct igt_qaic_msg msg;

	igt_qaic_msg_init(&msg);
	igt_qaic_msg_status(&msg);
	msg.len = sizeof(struct qaic_manage_trans_hdr) - 1;

	manage_err(fd, &msg, EINVAL);
}

static void test_count_larger_than_transactions(int fd)
{
	struct igt_qaic_msg msg;

	igt_qaic_msg_init(&msg);
	igt_qaic_msg_status(&msg);
	msg.count = 2;

	manage_err(fd, &msg, EINVAL);
}

static void test_trans_len_zero(int fd)
{
	struct qaic_manage_trans_hdr *hdr;
	struct igt_qaic_msg msg;

	igt_qaic_msg_init(&msg);
	hdr = igt_qaic_msg_status(&msg);
	hdr->len = 0;

	manage_err(fd, &msg, EINVAL);
}

/*
 * Three passthrough transactions in 24 bytes: #0 at 0 of length 16, #1 at 16
 * of length 0xfffffff8, so that a 32-bit running offset wraps to 8, where
 * #2 of length 16 ends the message exactly. A driver that adds lengths
 * without checking them would take it, reading #2 from inside #0.
 */
static void test_trans_len_overflow(int fd)
{
	const struct qaic_manage_trans_hdr hdrs[3] = {
		{ QAIC_TRANS_PASSTHROUGH_FROM_USR, 16 },		/* #0 */
		{ QAIC_TRANS_PASSTHROUGH_FROM_USR, 16 },		/* #2 */
		{ QAIC_TRANS_PASSTHROUGH_FROM_USR, 0xfffffff8 },	/* #1 */
	};
	struct igt_qaic_msg msg;

	igt_qaic_msg_init(&msg);
	memcpy(msg.buf, hdrs, sizeof(hdrs));
	msg.len = sizeof(hdrs);
	msg.count = 3;

	manage_err(fd, &msg, EINVAL);
}

static void test_unknown_trans_type(int fd)
{
	static const uint32_t types[] = {
		QAIC_TRANS_UNDEFINED,
		QAIC_TRANS_VALIDATE_PARTITION_TO_DEV + 1,
		0x8000 | QAIC_TRANS_STATUS_FROM_USR,
		~0u,
	};
	struct igt_qaic_msg msg;

	for (unsigned int i = 0; i < ARRAY_SIZE(types); i++) {
		igt_debug("type %#x\n", types[i]);
		igt_qaic_msg_init(&msg);
		igt_qaic_msg_append(&msg, types[i], 16);
		manage_err(fd, &msg, EINVAL);
	}
}

/*
 * Types for the device's side of the wire, for answers, or unused: e.g. an
 * ACTIVATE_TO_DEV from userspace would hand the device ring addresses of
 * its choosing.
 */
static void test_device_only_trans_type(int fd)
{
	static const uint32_t types[] = {
		QAIC_TRANS_PASSTHROUGH_TO_USR,
		QAIC_TRANS_PASSTHROUGH_FROM_DEV,
		QAIC_TRANS_PASSTHROUGH_TO_DEV,
		QAIC_TRANS_DMA_XFER_TO_DEV,
		QAIC_TRANS_ACTIVATE_FROM_DEV,
		QAIC_TRANS_ACTIVATE_TO_DEV,
		QAIC_TRANS_DEACTIVATE_FROM_DEV,
		QAIC_TRANS_STATUS_TO_USR,
		QAIC_TRANS_STATUS_FROM_DEV,
		QAIC_TRANS_STATUS_TO_DEV,
		QAIC_TRANS_TERMINATE_FROM_DEV,
		QAIC_TRANS_TERMINATE_TO_DEV,
		QAIC_TRANS_DMA_XFER_CONT,
		QAIC_TRANS_VALIDATE_PARTITION_FROM_DEV,
		QAIC_TRANS_VALIDATE_PARTITION_TO_DEV,
	};
	struct igt_qaic_msg msg;

	for (unsigned int i = 0; i < ARRAY_SIZE(types); i++) {
		igt_debug("type %u\n", types[i]);
		igt_qaic_msg_init(&msg);

		if (types[i] == QAIC_TRANS_ACTIVATE_TO_DEV) {
			/* Shaped like an activate, with a DMA address in it */
			struct qaic_manage_trans_activate_to_dev *t;

			t = igt_qaic_msg_append(&msg, types[i], 40);
			t->queue_size = 0x1000;
		} else {
			igt_qaic_msg_append(&msg, types[i], 32);
		}

		manage_err(fd, &msg, EINVAL);
	}
}

/*
 * One passthrough transaction that spans the whole message, a message
 * longer than QAIC_MANAGE_MAX_MSG_LENGTH.
 */
static void test_oversize_message(int fd)
{
	const uint32_t len = QAIC_MANAGE_MAX_MSG_LENGTH + 8;
	struct qaic_manage_trans_hdr *hdr;
	struct qaic_manage_msg arg;
	uint8_t *buf;

	buf = calloc(1, len);
	igt_assert(buf);
	hdr = (void *)buf;
	hdr->type = QAIC_TRANS_PASSTHROUGH_FROM_USR;
	hdr->len = len;

	arg = (struct qaic_manage_msg) {
		.len = len,
		.count = 1,
		.data = to_user_pointer(buf),
	};
	do_ioctl_err(fd, DRM_IOCTL_QAIC_MANAGE, &arg, EINVAL);

	free(buf);
}

static void test_data_unmapped(int fd)
{
	struct qaic_manage_msg arg = {
		.len = sizeof(struct qaic_manage_trans_status_to_dev),
		.count = 1,
	};
	void *ptr;

	ptr = mmap(NULL, page_size(), PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	igt_assert(ptr != MAP_FAILED);
	munmap(ptr, page_size());
	arg.data = to_user_pointer(ptr);

	do_ioctl_err(fd, DRM_IOCTL_QAIC_MANAGE, &arg, EFAULT);
}

static void test_dma_xfer_addr_wrap(int fd)
{
	struct igt_qaic_msg msg;

	igt_qaic_msg_init(&msg);
	igt_qaic_msg_dma_xfer(&msg, 1, ~0ull - page_size() + 1,
			      2 * page_size());

	manage_err(fd, &msg, EINVAL);
}

static void test_dma_xfer_unmapped(int fd)
{
	const size_t size = 16 * page_size();
	struct igt_qaic_msg msg;
	void *ptr;

	ptr = mmap(NULL, size, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	igt_assert(ptr != MAP_FAILED);
	munmap(ptr, size);

	igt_qaic_msg_init(&msg);
	igt_qaic_msg_dma_xfer(&msg, 1, to_user_pointer(ptr), size);

	manage_err(fd, &msg, EFAULT);
}

/* Pages that were pinned before the hole must be let go again: check again */
static void test_dma_xfer_partly_unmapped(int fd)
{
	const size_t size = 16 * page_size();
	struct igt_qaic_msg msg;
	uint8_t *ptr;

	ptr = mmap(NULL, size, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	igt_assert(ptr != MAP_FAILED);
	fill_pattern(ptr, size, 5);
	munmap(ptr + size / 2, size / 2);

	for (int i = 0; i < 2; i++) {
		igt_qaic_msg_init(&msg);
		igt_qaic_msg_dma_xfer(&msg, 1, to_user_pointer(ptr), size);
		manage_err(fd, &msg, EFAULT);
	}

	/* The mapped half still transfers */
	xfer_and_check(fd, ptr, size / 2);

	munmap(ptr, size / 2);
}

static void test_dma_xfer_size_zero(int fd)
{
	struct igt_qaic_msg msg;
	uint8_t buf[64] = {};

	igt_qaic_msg_init(&msg);
	igt_qaic_msg_dma_xfer(&msg, 1, to_user_pointer(buf), 0);

	manage_err(fd, &msg, EINVAL);
}

static void test_dma_xfer_pad(int fd)
{
	struct qaic_manage_trans_dma_xfer *xfer;
	struct igt_qaic_msg msg;
	uint8_t buf[4096];

	fill_pattern(buf, sizeof(buf), 9);
	igt_qaic_msg_init(&msg);
	xfer = igt_qaic_msg_dma_xfer(&msg, fresh_tag(fd, 0), to_user_pointer(buf),
				     sizeof(buf));
	xfer->pad = 1;

	/* The uapi does not say it must be 0 here: upstream's qaic ignores it */
	manage_err(fd, &msg, igt_qaic_driver_is_ours(fd) ? EINVAL : 0);
}

static void test_activate_pad(int fd)
{
	struct qaic_manage_trans_activate_to_dev *activate;
	struct igt_qaic_msg msg;

	igt_qaic_msg_init(&msg);
	activate = igt_qaic_msg_activate(&msg, QUEUE_SIZE, 0);
	activate->pad = 1;

	manage_err(fd, &msg, EINVAL);
}

static void test_deactivate_pad(void)
{
	struct qaic_manage_trans_deactivate *deactivate;
	struct igt_qaic_msg msg;
	uint32_t dbc_id;
	int fd = __igt_qaic_open();

	igt_assert_fd(fd);
	dbc_id = igt_qaic_activate(fd, QUEUE_SIZE);

	igt_qaic_msg_init(&msg);
	deactivate = igt_qaic_msg_deactivate(&msg, dbc_id);
	deactivate->pad = 1;
	manage_err(fd, &msg, EINVAL);

	/* The channel was left alone */
	emu_release(fd, dbc_id);
	igt_qaic_close(fd);
}

/* Channels belong to a file, not to a process */
static void test_deactivate_other_file(void)
{
	uint32_t dbc_id;
	int fd1, fd2;

	fd1 = __igt_qaic_open();
	igt_assert_fd(fd1);
	fd2 = __igt_qaic_open();
	igt_assert_fd(fd2);

	dbc_id = igt_qaic_activate(fd1, QUEUE_SIZE);
	igt_assert_eq(__igt_qaic_deactivate(fd2, dbc_id), -EPERM);
	emu_release(fd1, dbc_id);

	igt_qaic_close(fd2);
	igt_qaic_close(fd1);
}

static void test_deactivate_other_process(void)
{
	uint32_t dbc_id;
	int fd = __igt_qaic_open();

	igt_assert_fd(fd);
	dbc_id = igt_qaic_activate(fd, QUEUE_SIZE);

	igt_fork(child, 1) {
		int child_fd;

		/* Not the inherited file: that one is the parent's */
		igt_qaic_close(fd);
		child_fd = __igt_qaic_open();
		igt_assert_fd(child_fd);

		igt_assert_eq(__igt_qaic_deactivate(child_fd, dbc_id), -EPERM);

		igt_qaic_close(child_fd);
	}
	igt_waitchildren();

	/* Still the parent's */
	emu_release(fd, dbc_id);
	igt_qaic_close(fd);
}

/*
 * A child takes every channel and exits without giving any back: by the
 * time it is reaped its file is closed, and the channels must be free. The
 * parent then gets all of them again, and no more.
 */
static void test_close_releases(void)
{
	struct qaic_manage_trans_activate_from_dev answer;
	struct igt_qaic_msg msg;
	uint32_t dbc_id, seen = 0;
	int fd, err;

	igt_fork(child, 1) {
		int child_fd = __igt_qaic_open();

		igt_assert_fd(child_fd);
		for (int i = 0; i < NUM_DBC; i++)
			igt_qaic_activate(child_fd, QUEUE_SIZE);
	}
	igt_waitchildren();

	fd = __igt_qaic_open();
	igt_assert_fd(fd);
	for (int i = 0; i < NUM_DBC; i++) {
		dbc_id = igt_qaic_activate(fd, QUEUE_SIZE);
		igt_assert_f(dbc_id < NUM_DBC, "DBC %u\n", dbc_id);
		igt_assert_f(!(seen & (1u << dbc_id)),
			     "DBC %u given twice\n", dbc_id);
		seen |= 1u << dbc_id;
	}

	/*
	 * The card refuses the next one: -ECANCELED, with its answer copied
	 * out so that the user sees the card's status.
	 */
	igt_qaic_msg_init(&msg);
	igt_qaic_msg_activate(&msg, QUEUE_SIZE, 0);
	err = __igt_qaic_manage(fd, &msg);
	igt_assert_f(err == -ECANCELED, "activate #%d: %s\n", NUM_DBC + 1,
		     err ? strerror(-err) : "granted");
	igt_assert_eq_u32(msg.count, 1);
	memcpy(&answer, igt_qaic_msg_answer(&msg, 0,
					    QAIC_TRANS_ACTIVATE_FROM_DEV,
					    sizeof(answer)), sizeof(answer));
	igt_info("activate #%d: card status %u\n", NUM_DBC + 1,
		 answer.status);
	igt_assert_neq_u32(answer.status, 0);

	igt_qaic_close(fd);
}

/*
 * Each child sends its own echoes, of its own length, all children at
 * once: any answer that went to the wrong waiter shows.
 */
static void test_eight_processes(void)
{
	const int children = 8, rounds = 100;
	int go[2];

	igt_assert_eq(pipe(go), 0);

	igt_fork(child, children) {
		const uint32_t hdr_len = sizeof(struct qaic_manage_trans_hdr);
		const uint32_t len = 16 + 8 * child;
		struct igt_qaic_msg msg, request;
		int child_fd;
		char c;

		close(go[1]);
		child_fd = __igt_qaic_open();
		igt_assert_fd(child_fd);

		/* Start together: wait until the parent closes the pipe */
		igt_assert_eq(read(go[0], &c, 1), 0);

		for (int i = 0; i < rounds; i++) {
			igt_qaic_msg_init(&msg);
			add_echo(&msg, len - hdr_len, child << 16 | i);
			request = msg;

			igt_qaic_manage(child_fd, &msg);
			igt_assert_eq_u32(msg.count, 1);
			igt_assert_eq_u32(msg.len, len);
			check_echo(&msg, 0, (const void *)request.buf);
		}

		igt_qaic_close(child_fd);
	}

	close(go[0]);
	close(go[1]);
	igt_waitchildren();
}

/*
 * A deactivate alone takes the channel from the file, but the card keeps it
 * until asked in its own terms, or until the file is closed: then the card
 * releases everything the file held without reporting each channel, and the
 * driver must free its side too. Otherwise the next activate the card
 * grants that channel to waits for it forever.
 */
static void test_deactivate_then_close(void)
{
	struct igt_qaic_msg msg;
	uint32_t dbc_id, seen = 0;
	int fd;

	fd = __igt_qaic_open();
	igt_assert_fd(fd);
	dbc_id = igt_qaic_activate(fd, QUEUE_SIZE);

	igt_qaic_msg_init(&msg);
	igt_qaic_msg_deactivate(&msg, dbc_id);
	igt_qaic_manage(fd, &msg);
	/* A deactivate has no answer transaction */
	igt_assert_eq_u32(msg.len, 0);
	igt_qaic_close(fd);

	fd = __igt_qaic_open();
	igt_assert_fd(fd);
	for (int i = 0; i < NUM_DBC; i++) {
		dbc_id = igt_qaic_activate(fd, QUEUE_SIZE);
		igt_assert_f(dbc_id < NUM_DBC && !(seen & (1u << dbc_id)),
			     "DBC %u\n", dbc_id);
		seen |= 1u << dbc_id;
	}
	igt_qaic_close(fd);
}

/*
 * The program's file, made afresh for a subtest: what the card keeps for
 * a file (the data of its transfers, its DBCs) goes with the old one, so
 * that under IGT's runner with -m a subtest does not find the card full
 * of the subtests' before it.
 */
static int fresh_file(int *fd)
{
	igt_qaic_close(*fd);
	*fd = igt_qaic_open();
	return *fd;
}

igt_main
{
	int fd = -1;

	igt_fixture {
		fd = igt_qaic_open();
	}

	igt_describe("Check that the device reports its status and protocol version 5.0.");
	igt_subtest("status")
		test_status(fresh_file(&fd));

	igt_describe("Check that passthrough requests reach the manager and come back intact.");
	igt_subtest("passthrough-echo")
		test_passthrough_echo(fresh_file(&fd));

	igt_describe("Check that activating a DMA Bridge Channel yields one of the 16.");
	igt_subtest("activate")
		test_activate();

	igt_describe("Check that a DMA Bridge Channel can be given back and had again.");
	igt_subtest("deactivate")
		test_deactivate();

	igt_describe("Check that a DMA Bridge Channel cannot be given back twice.");
	igt_subtest("deactivate-twice")
		test_deactivate_twice();

	igt_describe("Check that deactivating a channel the device lacks is rejected.");
	igt_subtest("deactivate-bad-id")
		test_deactivate_bad_id(fresh_file(&fd));

	igt_describe("Check that activating a channel with empty rings is rejected.");
	igt_subtest("activate-queue-size-zero")
		test_activate_queue_size_zero(fresh_file(&fd));

	igt_describe("Check that rings of more than 65536 elements are refused, and big ones below that work.");
	igt_subtest("activate-queue-size-limits")
		test_activate_queue_size_limits();

	igt_describe("Check that a DMA transfer delivers a buffer to the device intact.");
	igt_subtest("dma-xfer")
		test_dma_xfer(fresh_file(&fd));

	igt_describe("Check that a DMA transfer off page boundaries is delivered intact.");
	igt_subtest("dma-xfer-unaligned")
		test_dma_xfer_unaligned(fresh_file(&fd));

	igt_describe("Check that several DMA transfers in one message are each delivered.");
	igt_subtest("dma-xfer-multi")
		test_dma_xfer_multi(fresh_file(&fd));

	igt_describe("Check that a DMA transfer needing several device messages arrives intact.");
	igt_subtest("dma-xfer-large")
		test_dma_xfer_large(fresh_file(&fd));

	igt_describe("Check that a DMA transfer can read a read-only buffer.");
	igt_subtest("dma-xfer-readonly")
		test_dma_xfer_readonly(fresh_file(&fd));

	for (unsigned int i = 0; i < ARRAY_SIZE(windowed); i++) {
		igt_describe(windowed[i].desc);
		igt_subtest_f("%s", windowed[i].name)
			test_dma_xfer_windowed(fresh_file(&fd), windowed[i].offset,
					       windowed[i].announce);
	}

	for (unsigned int i = 0; i < ARRAY_SIZE(memlock); i++) {
		igt_describe(memlock[i].desc);
		igt_subtest_f("%s", memlock[i].name) {
			/* Its child's file only: the card's memory is free */
			fresh_file(&fd);
			igt_qaic_require_ours(fd, !memlock[i].err,
					      "DMA transfers not charged to RLIMIT_MEMLOCK");
			test_dma_xfer_memlock(memlock[i].limit, memlock[i].size,
					      memlock[i].err);
		}
	}

	for (unsigned int i = 0; i < ARRAY_SIZE(huge); i++) {
		igt_describe(huge[i].desc);
		igt_subtest_f("%s", huge[i].name)
			test_dma_xfer_huge(fresh_file(&fd), huge[i].buf_size);
	}

	for (unsigned int i = 0; i < ARRAY_SIZE(noreserve); i++) {
		igt_describe(noreserve[i].desc);
		igt_subtest_f("%s", noreserve[i].name)
			test_dma_xfer_noreserve(fresh_file(&fd), noreserve[i].count,
						noreserve[i].size);
	}

	igt_describe("Check that a DMA transfer of 2^64 - 1 bytes at address 0 is refused.");
	igt_subtest("dma-xfer-size-max")
		test_dma_xfer_size_max(fresh_file(&fd));

	igt_describe("Check that a fatal signal ends a huge DMA transfer at once.");
	igt_subtest("dma-xfer-signal")
		test_dma_xfer_signal(fresh_file(&fd));

	igt_describe("Check that a DMA transfer larger than the card's memory and than one "
		     "pinned window fails whole.");
	igt_subtest("dma-xfer-past-card")
		test_dma_xfer_past_card(fresh_file(&fd));

	igt_describe("Check that a message of no transactions is rejected.");
	igt_subtest("len-zero-count")
		test_len_zero_count(fresh_file(&fd));

	igt_describe("Check that a message shorter than a transaction header is rejected.");
	igt_subtest("len-smaller-than-header")
		test_len_smaller_than_header(fresh_file(&fd));

	igt_describe("Check that a count of more transactions than there are is rejected.");
	igt_subtest("count-larger-than-transactions")
		test_count_larger_than_transactions(fresh_file(&fd));

	igt_describe("Check that a transaction claiming no length is rejected.");
	igt_subtest("trans-len-zero")
		test_trans_len_zero(fresh_file(&fd));

	igt_describe("Check that transaction lengths whose sum wraps around are rejected.");
	igt_subtest("trans-len-overflow")
		test_trans_len_overflow(fresh_file(&fd));

	igt_describe("Check that transaction types the uapi does not define are rejected.");
	igt_subtest("unknown-trans-type")
		test_unknown_trans_type(fresh_file(&fd));

	igt_describe("Check that device-side and answer transaction types are rejected.");
	igt_subtest("device-only-trans-type")
		test_device_only_trans_type(fresh_file(&fd));

	igt_describe("Check that a message longer than the uapi allows is rejected.");
	igt_subtest("oversize-message")
		test_oversize_message(fresh_file(&fd));

	igt_describe("Check that a message at an unmapped address is rejected.");
	igt_subtest("data-unmapped")
		test_data_unmapped(fresh_file(&fd));

	igt_describe("Check that a DMA transfer that wraps the address space is rejected.");
	igt_subtest("dma-xfer-addr-wrap")
		test_dma_xfer_addr_wrap(fresh_file(&fd));

	igt_describe("Check that a DMA transfer from unmapped memory is rejected.");
	igt_subtest("dma-xfer-unmapped")
		test_dma_xfer_unmapped(fresh_file(&fd));

	igt_describe("Check that a DMA transfer from a partly unmapped buffer is rejected.");
	igt_subtest("dma-xfer-partly-unmapped")
		test_dma_xfer_partly_unmapped(fresh_file(&fd));

	igt_describe("Check that an empty DMA transfer is rejected.");
	igt_subtest("dma-xfer-size-zero")
		test_dma_xfer_size_zero(fresh_file(&fd));

	igt_describe("Check that a DMA transfer with a non-zero pad is rejected.");
	igt_subtest("dma-xfer-pad")
		test_dma_xfer_pad(fresh_file(&fd));

	igt_describe("Check that an activate with a non-zero pad is rejected.");
	igt_subtest("activate-pad")
		test_activate_pad(fresh_file(&fd));

	igt_describe("Check that a deactivate with a non-zero pad is rejected.");
	igt_subtest("deactivate-pad")
		test_deactivate_pad();

	igt_describe("Check that another file of the process cannot give back a channel.");
	igt_subtest("deactivate-other-file")
		test_deactivate_other_file();

	igt_describe("Check that another process cannot give back a channel it does not own.");
	igt_subtest("deactivate-other-process")
		test_deactivate_other_process();

	igt_describe("Check that the channels of a process are released when it exits.");
	igt_subtest("close-releases")
		test_close_releases();

	igt_describe("Check that eight processes using the manager at once get their own answers.");
	igt_subtest("eight-processes")
		test_eight_processes();

	igt_describe("Check that a channel deactivated but kept by the card is freed on close.");
	igt_subtest("deactivate-then-close")
		test_deactivate_then_close();

	igt_fixture {
		igt_qaic_close(fd);
	}

	igt_qaic_dbcs_free_checks();
}
