// SPDX-License-Identifier: GPL-2.0-only
/*
 * Telemetry (telemetry.c): on its own, with a stand-in MHI that records
 * what the card sends, a clock and a count of work the test moves; then
 * through MHI, channels 16 and 17 driven as the Linux MHI host does.
 */
#include <stdlib.h>
#include <string.h>

#include "device.h"
#include "emu_test.h"
#include "le_bytes.h"
#include "mhi.h"
#include "mhi_host.h"
#include "telemetry.h"

static struct emu_device dev;	/* for emu_log(); not verbose */

#define MAX_SENT	1024

static struct {
	uint8_t msg[MAX_SENT][TM_MSG_LEN];
	size_t len[MAX_SENT];
	unsigned int n;
} rec;

static void tm_send(void *ctx, const void *msg, size_t len)
{
	(void)ctx;
	if (rec.n >= MAX_SENT || len > TM_MSG_LEN)
		abort();
	memcpy(rec.msg[rec.n], msg, len);
	rec.len[rec.n] = len;
	rec.n++;
}

static const struct emu_telemetry_ops ops = { .send = tm_send };

/* The test's clock and the card's work, which the test moves. */
static uint64_t clock_ms = 1000000, work;

static uint64_t test_clock(void *ctx)
{
	(void)ctx;
	return clock_ms;
}

static uint64_t test_work(void *ctx)
{
	(void)ctx;
	return work;
}

static struct emu_telemetry *new_tm(void)
{
	struct emu_telemetry *t = emu_telemetry_create(&dev, &ops, NULL);

	if (!t)
		abort();
	memset(&rec, 0, sizeof(rec));
	emu_telemetry_set_clock(t, test_clock, NULL);
	emu_telemetry_set_activity(t, test_work, NULL);
	emu_telemetry_start(t);
	return t;
}

/* A request as the host builds it. */
static void req(uint8_t *m, uint32_t seq, uint8_t cmd, uint8_t cmd_type)
{
	memset(m, 0, TM_MSG_LEN);
	put_le16(m, TM_MAGIC);
	put_le16(m + 2, TM_VERSION);
	put_le32(m + 4, seq);
	m[8] = TM_TYPE_REQ;
	m[9] = 0;
	put_le16(m + 10, TM_MSG_LEN - TM_HDR_LEN);
	m[12] = cmd;
	m[13] = cmd_type;
}

static int8_t ans_status(unsigned int i)
{
	return (int8_t)rec.msg[i][14];
}

static int64_t ans_val(unsigned int i)
{
	return (int64_t)get_le64(rec.msg[i] + 15);
}

/* Answer @i is a well-formed response to @seq, @cmd, @cmd_type. */
static void check_answer(unsigned int i, uint32_t seq, uint8_t cmd, uint8_t cmd_type)
{
	const uint8_t *m = rec.msg[i];

	CHECK_EQ(rec.len[i], TM_MSG_LEN);
	CHECK_EQ(m[0] | m[1] << 8, TM_MAGIC);
	CHECK_EQ(m[2] | m[3] << 8, TM_VERSION);
	CHECK_EQ(get_le32(m + 4), seq);
	CHECK_EQ(m[8], TM_TYPE_RSP);
	CHECK_EQ(m[9], 0);
	CHECK_EQ(m[10] | m[11] << 8, 11);
	CHECK_EQ(m[12], cmd);
	CHECK_EQ(m[13], cmd_type);
}

/* One read of @cmd: its status and value, the answer checked. */
static int64_t read_cmd(struct emu_telemetry *t, uint8_t cmd, int8_t *status)
{
	static uint32_t seq = 100;
	uint8_t m[TM_MSG_LEN];
	unsigned int n = rec.n;

	req(m, ++seq, cmd, TM_READ);
	emu_telemetry_rx(t, m, sizeof(m));
	CHECK_EQ(rec.n, n + 1);
	if (rec.n != n + 1)
		return -12345;
	check_answer(n, seq, cmd, TM_READ);
	if (status)
		*status = ans_status(n);
	return ans_val(n);
}

static int64_t read_ok(struct emu_telemetry *t, uint8_t cmd)
{
	int8_t status = 99;
	int64_t v = read_cmd(t, cmd, &status);

	CHECK_EQ(status, TM_OK);
	return v;
}

/* Every command's answer on an idle card, 5 s into mission mode. */
static void test_reads(void)
{
	static const int64_t idle[TM_NR_CMDS] = {
		40, 40, 35, 35, 38, 105, 115, 75, 20, 0, 20, 0, 0, 5,
	};
	struct emu_telemetry *t = new_tm();
	const struct emu_telemetry_counters *c = emu_telemetry_counters(t);

	clock_ms += 5000;
	for (unsigned int cmd = 0; cmd < TM_NR_CMDS; cmd++) {
		CHECK_EQ(read_ok(t, (uint8_t)cmd), idle[cmd]);
		CHECK_EQ(c->read_cmd[cmd], 1);
	}
	CHECK_EQ(c->requests, TM_NR_CMDS);
	CHECK_EQ(c->answered, TM_NR_CMDS);
	CHECK_EQ(c->reads, TM_NR_CMDS);
	CHECK_EQ(c->refused, 0);
	CHECK_EQ(c->faulted, 0);
	/* The request's own status and value are not looked at. */
	uint8_t m[TM_MSG_LEN];

	req(m, 7, TM_SOC_TEMP, TM_READ);
	m[14] = 0x80;
	put_le64(m + 15, 0xffffffffffffffffull);
	emu_telemetry_rx(t, m, sizeof(m));
	CHECK_EQ(rec.n, TM_NR_CMDS + 1);
	check_answer(TM_NR_CMDS, 7, TM_SOC_TEMP, TM_READ);
	CHECK_EQ(ans_status(TM_NR_CMDS), 0);
	CHECK_EQ(ans_val(TM_NR_CMDS), 40);
	/* Uptime counts from the start of mission mode, whole seconds. */
	clock_ms += 1999;
	CHECK_EQ(read_ok(t, TM_UPTIME), 6);
	emu_telemetry_start(t);
	CHECK_EQ(read_ok(t, TM_UPTIME), 0);
	emu_telemetry_destroy(t);
}

/* Writes, unknown commands, bad headers, wrong lengths. */
static void test_refusals(void)
{
	struct emu_telemetry *t = new_tm();
	const struct emu_telemetry_counters *c = emu_telemetry_counters(t);
	uint8_t m[64];
	unsigned int n;

	/* Any write is refused: read only */
	for (unsigned int cmd = 0; cmd < TM_NR_CMDS; cmd++) {
		n = rec.n;
		req(m, 1000 + cmd, (uint8_t)cmd, TM_WRITE);
		put_le64(m + 15, 42);
		emu_telemetry_rx(t, m, TM_MSG_LEN);
		CHECK_EQ(rec.n, n + 1);
		check_answer(n, 1000 + cmd, (uint8_t)cmd, TM_WRITE);
		CHECK_EQ(ans_status(n), TM_E_READ_ONLY);
		CHECK_EQ(ans_val(n), 0);
	}
	CHECK_EQ(c->refused_write, TM_NR_CMDS);

	/* Unknown commands, read or written */
	static const uint8_t unknown[] = { TM_NR_CMDS, 15, 0x7f, 0x80, 0xff };
	for (unsigned int i = 0; i < sizeof(unknown); i++) {
		for (uint8_t type = 0; type < 2; type++) {
			n = rec.n;
			req(m, 2000 + i, unknown[i], type);
			emu_telemetry_rx(t, m, TM_MSG_LEN);
			CHECK_EQ(rec.n, n + 1);
			check_answer(n, 2000 + i, unknown[i], type);
			CHECK_EQ(ans_status(n), TM_E_UNSUPPORTED);
		}
	}
	CHECK_EQ(c->refused_unknown, 2 * sizeof(unknown));

	/* cmd_type neither read nor write */
	n = rec.n;
	req(m, 3000, TM_SOC_TEMP, 2);
	emu_telemetry_rx(t, m, TM_MSG_LEN);
	CHECK_EQ(rec.n, n + 1);
	check_answer(n, 3000, TM_SOC_TEMP, 2);
	CHECK_EQ(ans_status(n), TM_E_INVALID);
	CHECK_EQ(c->refused_value, 1);

	/* A bad header: -5, the request's seq_num, cmd and cmd_type */
	struct { unsigned int off, bytes; uint16_t v; } bad[] = {
		{ 0, 2, 0xaa55 }, { 0, 2, 0 }, { 0, 2, 0x55ab },
		{ 2, 2, 0 }, { 2, 2, 2 }, { 2, 2, 0xffff },
		{ 8, 1, TM_TYPE_PUSH }, { 8, 1, TM_TYPE_RSP }, { 8, 1, 0xff },
		{ 9, 1, 1 }, { 9, 1, 0xff },
		{ 10, 2, 0 }, { 10, 2, 10 }, { 10, 2, 12 }, { 10, 2, 23 }, { 10, 2, 0xffff },
	};
	for (unsigned int i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		n = rec.n;
		req(m, 4000 + i, TM_BOARD_POWER, TM_READ);
		put_le_bytes(m + bad[i].off, bad[i].v, bad[i].bytes);
		emu_telemetry_rx(t, m, TM_MSG_LEN);
		CHECK_EQ(rec.n, n + 1);
		check_answer(n, 4000 + i, TM_BOARD_POWER, TM_READ);
		CHECK_EQ(ans_status(n), TM_E_HEADER);
		CHECK_EQ(ans_val(n), 0);
	}
	CHECK_EQ(c->refused_header, sizeof(bad) / sizeof(bad[0]));

	/* Not 23 bytes: -5 from 8 bytes on; what it lacks is 0 */
	static const size_t lens[] = { 8, 12, 13, 14, 22, 24, 64 };
	for (unsigned int i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
		n = rec.n;
		memset(m, 0, sizeof(m));
		req(m, 5000 + i, TM_DDR_TEMP, TM_WRITE);
		emu_telemetry_rx(t, m, lens[i]);
		CHECK_EQ(rec.n, n + 1);
		check_answer(n, 5000 + i, lens[i] > 12 ? TM_DDR_TEMP : 0,
			     lens[i] > 13 ? TM_WRITE : 0);
		CHECK_EQ(ans_status(n), TM_E_HEADER);
	}
	CHECK_EQ(c->refused_header, sizeof(bad) / sizeof(bad[0]) + sizeof(lens) / sizeof(lens[0]));

	/* Fewer than 8 bytes: no seq_num to answer to */
	n = rec.n;
	for (size_t len = 0; len < 8; len++)
		emu_telemetry_rx(t, m, len);
	emu_telemetry_rx(t, NULL, 0);
	CHECK_EQ(rec.n, n);
	CHECK_EQ(c->dropped_short, 9);

	CHECK_EQ(c->refused, c->refused_write + c->refused_unknown + c->refused_value +
			     c->refused_header);
	CHECK_EQ(c->answered, rec.n);
	CHECK_EQ(c->reads, 0);
	CHECK_EQ(c->requests, rec.n + 9);
	emu_telemetry_destroy(t);
}

/* Outside mission mode nothing is served. */
static void test_idle(void)
{
	struct emu_telemetry *t = emu_telemetry_create(&dev, &ops, NULL);
	const struct emu_telemetry_counters *c = emu_telemetry_counters(t);
	uint8_t m[TM_MSG_LEN];

	memset(&rec, 0, sizeof(rec));
	emu_telemetry_set_clock(t, test_clock, NULL);
	CHECK(!emu_telemetry_serving(t));
	req(m, 1, TM_SOC_TEMP, TM_READ);
	emu_telemetry_rx(t, m, sizeof(m));
	CHECK_EQ(rec.n, 0);
	CHECK_EQ(c->dropped_idle, 1);
	emu_telemetry_start(t);
	CHECK(emu_telemetry_serving(t));
	emu_telemetry_rx(t, m, sizeof(m));
	CHECK_EQ(rec.n, 1);
	emu_telemetry_stop(t);
	emu_telemetry_rx(t, m, sizeof(m));
	CHECK_EQ(rec.n, 1);
	CHECK_EQ(c->dropped_idle, 2);
	CHECK_EQ(c->requests, 3);
	CHECK_EQ(c->answered, 1);
	/* No activity source: an idle card */
	emu_telemetry_start(t);
	clock_ms += 2000;
	CHECK_EQ(read_ok(t, TM_SOC_TEMP), 40);
	emu_telemetry_destroy(t);
}

/* Each fault mode, then back to normal. */
static void test_modes(void)
{
	struct emu_telemetry *t = new_tm();
	const struct emu_telemetry_counters *c = emu_telemetry_counters(t);
	uint8_t m[TM_MSG_LEN];
	int8_t st;

	CHECK_EQ(emu_telemetry_set_mode(t, TM_NR_MODES), -22);
	CHECK_EQ(emu_telemetry_set_mode(t, 0xffffffffu), -22);
	CHECK_EQ(emu_telemetry_mode(t), TM_MODE_NORMAL);

	/* 1 silent */
	CHECK_EQ(emu_telemetry_set_mode(t, TM_MODE_SILENT), 0);
	req(m, 10, TM_SOC_TEMP, TM_READ);
	emu_telemetry_rx(t, m, sizeof(m));
	req(m, 11, TM_SOC_TEMP, TM_WRITE);
	emu_telemetry_rx(t, m, sizeof(m));
	CHECK_EQ(rec.n, 0);
	CHECK_EQ(c->dropped_silent, 2);

	/* 2 garbage: the header with magic 0xaa55, then 0xa5 */
	CHECK_EQ(emu_telemetry_set_mode(t, TM_MODE_GARBAGE), 0);
	req(m, 20, TM_SOC_TEMP, TM_READ);
	emu_telemetry_rx(t, m, sizeof(m));
	CHECK_EQ(rec.n, 1);
	CHECK_EQ(rec.len[0], TM_MSG_LEN);
	CHECK_EQ(rec.msg[0][0] | rec.msg[0][1] << 8, 0xaa55);
	CHECK_EQ(get_le32(rec.msg[0] + 4), 20);
	for (unsigned int i = TM_HDR_LEN; i < TM_MSG_LEN; i++)
		CHECK_EQ(rec.msg[0][i], 0xa5);

	/* 4 error: -3 for every answer, value 0 */
	CHECK_EQ(emu_telemetry_set_mode(t, TM_MODE_ERROR), 0);
	CHECK_EQ(read_cmd(t, TM_SOC_TEMP, &st), 0);
	CHECK_EQ(st, TM_E_PROCESSING);
	req(m, 40, TM_SOC_TEMP, TM_WRITE);
	emu_telemetry_rx(t, m, sizeof(m));
	CHECK_EQ(ans_status(rec.n - 1), TM_E_PROCESSING);

	/* 5 wrong seq: seq_num + 1, the rest right */
	CHECK_EQ(emu_telemetry_set_mode(t, TM_MODE_WRONG_SEQ), 0);
	req(m, 0xffffffffu, TM_BOARD_TEMP, TM_READ);
	emu_telemetry_rx(t, m, sizeof(m));
	check_answer(rec.n - 1, 0, TM_BOARD_TEMP, TM_READ);
	CHECK_EQ(ans_status(rec.n - 1), 0);
	CHECK_EQ(ans_val(rec.n - 1), 35);
	req(m, 50, TM_UPTIME, TM_READ);
	emu_telemetry_rx(t, m, sizeof(m));
	check_answer(rec.n - 1, 51, TM_UPTIME, TM_READ);

	/* 6 absurd: temperatures 100000, power -5, the rest -1 */
	CHECK_EQ(emu_telemetry_set_mode(t, TM_MODE_ABSURD), 0);
	for (unsigned int cmd = 0; cmd < TM_NR_CMDS; cmd++) {
		int64_t want = cmd <= TM_SHUTDOWN_TEMP ? 100000 :
			       cmd == TM_BOARD_TDP || cmd == TM_BOARD_POWER ||
			       cmd == TM_POWER_MAX ? -5 : -1;

		CHECK_EQ(read_ok(t, (uint8_t)cmd), want);
	}
	req(m, 60, TM_SOC_TEMP, TM_WRITE);
	emu_telemetry_rx(t, m, sizeof(m));
	CHECK_EQ(ans_status(rec.n - 1), TM_E_READ_ONLY);
	CHECK_EQ(ans_val(rec.n - 1), 0);

	/* 7 short: the header alone */
	CHECK_EQ(emu_telemetry_set_mode(t, TM_MODE_SHORT), 0);
	req(m, 70, TM_SOC_TEMP, TM_READ);
	emu_telemetry_rx(t, m, sizeof(m));
	CHECK_EQ(rec.len[rec.n - 1], TM_HDR_LEN);
	CHECK_EQ(get_le32(rec.msg[rec.n - 1] + 4), 70);
	CHECK_EQ(rec.msg[rec.n - 1][8], TM_TYPE_RSP);

	/* 0 normal again */
	CHECK_EQ(emu_telemetry_set_mode(t, TM_MODE_NORMAL), 0);
	CHECK_EQ(read_ok(t, TM_SOC_TEMP), 40);
	/* garbage, error, 2 wrong seq, 13 absurd, short */
	CHECK_EQ(c->faulted, 1 + 2 + 2 + TM_NR_CMDS + 1);

	/* A reset: back to normal */
	CHECK_EQ(emu_telemetry_set_mode(t, TM_MODE_SHORT), 0);
	emu_telemetry_reset(t);
	CHECK_EQ(emu_telemetry_mode(t), TM_MODE_NORMAL);
	CHECK_EQ(read_ok(t, TM_WARNING_TEMP), 105);
	CHECK_EQ(c->answered, rec.n);
	emu_telemetry_destroy(t);
}

/* 3 late: each answer 3000 ms after its request, with the values of then. */
static void test_late(void)
{
	struct emu_telemetry *t = new_tm();
	const struct emu_telemetry_counters *c = emu_telemetry_counters(t);
	uint8_t m[TM_MSG_LEN];

	CHECK_EQ(emu_telemetry_timeout_ms(t), -1);
	CHECK_EQ(emu_telemetry_set_mode(t, TM_MODE_LATE), 0);
	clock_ms += 4000;
	req(m, 30, TM_UPTIME, TM_READ);
	emu_telemetry_rx(t, m, sizeof(m));
	CHECK_EQ(rec.n, 0);
	CHECK_EQ(emu_telemetry_timeout_ms(t), EMU_TELEMETRY_LATE_MS);
	clock_ms += 1000;
	req(m, 31, TM_SOC_TEMP, TM_WRITE);
	emu_telemetry_rx(t, m, sizeof(m));
	CHECK_EQ(emu_telemetry_timeout_ms(t), 2000);
	clock_ms += 1999;
	emu_telemetry_tick(t);
	CHECK_EQ(rec.n, 0);
	CHECK_EQ(emu_telemetry_timeout_ms(t), 1);
	clock_ms += 1;
	CHECK_EQ(emu_telemetry_timeout_ms(t), 0);
	emu_telemetry_tick(t);
	CHECK_EQ(rec.n, 1);
	check_answer(0, 30, TM_UPTIME, TM_READ);
	CHECK_EQ(ans_val(0), 4);		/* the uptime when asked */
	CHECK_EQ(emu_telemetry_timeout_ms(t), 1000);
	clock_ms += 1000;
	emu_telemetry_tick(t);
	CHECK_EQ(rec.n, 2);
	check_answer(1, 31, TM_SOC_TEMP, TM_WRITE);
	CHECK_EQ(ans_status(1), TM_E_READ_ONLY);
	CHECK_EQ(emu_telemetry_timeout_ms(t), -1);
	CHECK_EQ(c->answered, 2);
	CHECK_EQ(c->faulted, 2);

	/* At most EMU_TELEMETRY_MAX_LATE wait; a reset loses them */
	for (unsigned int i = 0; i < EMU_TELEMETRY_MAX_LATE + 2; i++) {
		req(m, 100 + i, TM_SOC_TEMP, TM_READ);
		emu_telemetry_rx(t, m, sizeof(m));
	}
	CHECK_EQ(c->late_lost, 2);
	emu_telemetry_reset(t);
	CHECK_EQ(c->late_lost, 2 + EMU_TELEMETRY_MAX_LATE);
	CHECK_EQ(emu_telemetry_timeout_ms(t), -1);
	clock_ms += 10000;
	emu_telemetry_tick(t);
	CHECK_EQ(rec.n, 2);
	/* Normal again: at once */
	CHECK_EQ(read_ok(t, TM_SHUTDOWN_TEMP), 115);
	emu_telemetry_destroy(t);
}

/* The values follow the DBC engine's work over the last second or so. */
static void test_load(void)
{
	struct emu_telemetry *t = new_tm();

	/* Idle */
	clock_ms += 1000;
	CHECK_EQ(read_ok(t, TM_SOC_TEMP), 40);
	CHECK_EQ(emu_telemetry_load(t), 0);

	/* Full load: EMU_TELEMETRY_FULL_RATE requests in a second */
	work += EMU_TELEMETRY_FULL_RATE;
	clock_ms += 1000;
	CHECK_EQ(read_ok(t, TM_SOC_TEMP), 75);
	CHECK_EQ(emu_telemetry_load(t), 1000);
	CHECK_EQ(read_ok(t, TM_BOARD_TEMP), 55);
	CHECK_EQ(read_ok(t, TM_DDR_TEMP), 65);
	CHECK_EQ(read_ok(t, TM_BOARD_POWER), 75);
	CHECK_EQ(read_ok(t, TM_THROTTLE_PERCENT), 10);
	CHECK_EQ(read_ok(t, TM_THROTTLE_TIME), 1);
	/* 50 ms on, nothing done meanwhile: the rate over 1050 ms */
	clock_ms += 50;
	CHECK_EQ(read_ok(t, TM_SOC_TEMP), 40 + 35 * 952 / 1000);
	CHECK_EQ(emu_telemetry_load(t), 952);

	/* Half load over the next second: lower, the highest stays */
	work += EMU_TELEMETRY_FULL_RATE / 2;
	clock_ms += 950;
	CHECK_EQ(read_ok(t, TM_SOC_TEMP), 57);
	CHECK_EQ(emu_telemetry_load(t), 500);
	CHECK_EQ(read_ok(t, TM_SOC_MAX_TEMP), 75);
	CHECK_EQ(read_ok(t, TM_BOARD_MAX_TEMP), 55);
	CHECK_EQ(read_ok(t, TM_POWER_MAX), 75);
	CHECK_EQ(read_ok(t, TM_THROTTLE_PERCENT), 0);

	/* Twice full load is full load */
	work += 2 * EMU_TELEMETRY_FULL_RATE;
	clock_ms += 1000;
	CHECK_EQ(read_ok(t, TM_SOC_TEMP), 75);

	/* Idle a second: back down; reads every 200 ms see the last second */
	for (unsigned int i = 0; i < 5; i++) {
		clock_ms += 200;
		read_ok(t, TM_SOC_TEMP);
	}
	CHECK_EQ(read_ok(t, TM_SOC_TEMP), 40);
	CHECK_EQ(read_ok(t, TM_SOC_MAX_TEMP), 75);
	CHECK_EQ(read_ok(t, TM_THROTTLE_TIME), 2);
	/* A quarter load, read every 100 ms for 3 s: it settles at 250 */
	for (unsigned int i = 0; i < 30; i++) {
		work += EMU_TELEMETRY_FULL_RATE / 40;
		clock_ms += 100;
		read_ok(t, TM_BOARD_POWER);
	}
	CHECK_EQ(emu_telemetry_load(t), 250);
	CHECK_EQ(read_ok(t, TM_BOARD_POWER), 20 + 55 / 4);
	/* Read seldom: the average since the last read */
	work += EMU_TELEMETRY_FULL_RATE * 5;
	clock_ms += 10000;
	CHECK_EQ(read_ok(t, TM_SOC_TEMP), 40 + 35 / 2);

	/* Mission mode anew: the highest values and throttle time start over */
	emu_telemetry_start(t);
	CHECK_EQ(read_ok(t, TM_SOC_MAX_TEMP), 40);
	CHECK_EQ(read_ok(t, TM_POWER_MAX), 20);
	CHECK_EQ(read_ok(t, TM_THROTTLE_TIME), 0);

	/* The load held by the test: every value rises with it */
	int64_t last[TM_NR_CMDS];

	for (unsigned int cmd = 0; cmd < TM_NR_CMDS; cmd++)
		last[cmd] = read_ok(t, (uint8_t)cmd);
	CHECK_EQ(emu_telemetry_set_load(t, 1001), -22);
	CHECK_EQ(emu_telemetry_set_load(t, -2), -22);
	for (int l = 0; l <= 1000; l += 100) {
		CHECK_EQ(emu_telemetry_set_load(t, l), 0);
		clock_ms += 10;
		for (unsigned int cmd = 0; cmd < TM_NR_CMDS; cmd++) {
			int64_t v = read_ok(t, (uint8_t)cmd);

			CHECK(v >= last[cmd]);
			last[cmd] = v;
		}
		CHECK_EQ(emu_telemetry_load(t), l);
	}
	CHECK_EQ(last[TM_SOC_TEMP], 75);
	CHECK_EQ(last[TM_SOC_MAX_TEMP], 75);
	CHECK_EQ(last[TM_BOARD_TEMP], 55);
	CHECK_EQ(last[TM_DDR_TEMP], 65);
	CHECK_EQ(last[TM_BOARD_POWER], 75);
	CHECK_EQ(last[TM_POWER_MAX], 75);
	CHECK_EQ(last[TM_THROTTLE_PERCENT], 10);
	CHECK_EQ(last[TM_WARNING_TEMP], 105);
	CHECK_EQ(last[TM_BOARD_TDP], 75);
	/* Board below DDR below SoC, at every load */
	for (int l = 0; l <= 1000; l += 50) {
		emu_telemetry_set_load(t, l);
		int64_t soc = read_ok(t, TM_SOC_TEMP), ddr = read_ok(t, TM_DDR_TEMP),
			board = read_ok(t, TM_BOARD_TEMP);

		CHECK(board < ddr && ddr < soc);
	}
	CHECK_EQ(emu_telemetry_set_load(t, -1), 0);
	clock_ms += 2000;
	CHECK_EQ(read_ok(t, TM_SOC_TEMP), 40);
	CHECK_EQ(read_ok(t, TM_SOC_MAX_TEMP), 75);

	/* The count going back (a new engine): anew, no nonsense */
	work = 0;
	clock_ms += 500;
	CHECK_EQ(read_ok(t, TM_SOC_TEMP), 40);
	emu_telemetry_destroy(t);
}

/* The counter lines. */
static void test_counters_print(void)
{
	struct emu_telemetry *t = new_tm();
	uint8_t m[TM_MSG_LEN];
	char *buf = NULL;
	size_t size = 0;
	FILE *f;

	clock_ms += 1000;
	read_ok(t, TM_BOARD_POWER);
	req(m, 1, TM_BOARD_POWER, TM_WRITE);
	emu_telemetry_rx(t, m, sizeof(m));
	emu_telemetry_set_mode(t, TM_MODE_LATE);
	f = open_memstream(&buf, &size);
	if (!f)
		abort();
	emu_telemetry_counters_print(t, f);
	fclose(f);
	CHECK(strstr(buf, "telemetry_requests 2\n"));
	CHECK(strstr(buf, "telemetry_answered 2\n"));
	CHECK(strstr(buf, "telemetry_reads 1\n"));
	CHECK(strstr(buf, "telemetry_refused 1\n"));
	CHECK(strstr(buf, "telemetry_refused_write 1\n"));
	CHECK(strstr(buf, "telemetry_refused_header 0\n"));
	CHECK(strstr(buf, "telemetry_dropped_silent 0\n"));
	CHECK(strstr(buf, "telemetry_late_lost 0\n"));
	CHECK(strstr(buf, "telemetry_mode 3\n"));
	CHECK(strstr(buf, "telemetry_read_board_power 1\n"));
	CHECK(strstr(buf, "telemetry_read_uptime 0\n"));
	free(buf);
	emu_telemetry_destroy(t);
}

/* ---- through MHI ---------------------------------------------------------- */

#define G_BASE		0x40000000ull
#define G_SIZE		0x100000ull
#define UL_RING		(G_BASE + 0x5000)
#define DL_RING		(G_BASE + 0x6000)
#define CH_ELS		32
#define REQ_BUF		(G_BASE + 0x10000)
#define RSP_BUF		(G_BASE + 0x11000)	/* 32 bytes each */

static struct emu_device mdev;
static struct guest_mem gm;
static struct emu_mhi *mhi;
static struct mhi_host mh = {
	.dev = &mdev, .bar = 0, .gm = &gm, .g_base = G_BASE, .g_size = G_SIZE,
	.chan_ctx = G_BASE, .ev_ctx = G_BASE + 0x2000, .cmd_ctx = G_BASE + 0x2100,
	.cmd_ring = G_BASE + 0x3000, .cmd_els = 128, .ev_ring = G_BASE + 0x4000,
	.ev_els = 64,
};
static struct mh_chan ul, dl;
static unsigned int next_rsp;

static void no_msi(void *ctx, const struct emu_msi_msg *msg)
{
	(void)ctx; (void)msg;
}

/* Channels 16 and 17 started, four answer buffers queued. */
static void mhi_up(void)
{
	struct emu_irq_sink sink = { .send = no_msi };
	struct mh_ev e;

	mhi = mh_new_card(&mh, mhi, 0, &sink);
	emu_mhi_attach(mhi);
	emu_telemetry_set_clock(emu_mhi_telemetry(mhi), test_clock, NULL);
	memset(mh.g, 0, 0x20000);
	mh_ready_m0(&mh);
	while (mh_get_ev(&mh, &e))
		;
	mh_chan_init(&mh, &ul, EMU_TELEMETRY_CH_UL, 1, UL_RING, CH_ELS);
	mh_chan_init(&mh, &dl, EMU_TELEMETRY_CH_DL, 2, DL_RING, CH_ELS);
	CHECK_EQ(mh_cmd_sync(&mh, 0x12, EMU_TELEMETRY_CH_UL), 1);
	CHECK_EQ(mh_cmd_sync(&mh, 0x12, EMU_TELEMETRY_CH_DL), 1);
	CHECK_EQ(mh_r32(&mh, G_BASE + EMU_TELEMETRY_CH_UL * MH_CTX_SIZE) & 0xff, 2);
	CHECK_EQ(mh_r32(&mh, G_BASE + EMU_TELEMETRY_CH_DL * MH_CTX_SIZE) & 0xff, 2);
	next_rsp = 0;
	for (unsigned int i = 0; i < 4; i++)
		mh_queue_tre(&mh, &dl, RSP_BUF + 32 * i, 24, false);
	CHECK(!mh_get_ev(&mh, &e));
}

/* A request on channel 16; the events it brings: UL completion, answer. */
static unsigned int mhi_ask(uint32_t seq, uint8_t cmd, uint8_t cmd_type,
			    unsigned int *answer_len)
{
	uint8_t m[TM_MSG_LEN];
	unsigned int n = 0;
	struct mh_ev e;

	req(m, seq, cmd, cmd_type);
	memcpy(mh_gp(&mh, REQ_BUF), m, sizeof(m));
	mh_queue_tre(&mh, &ul, REQ_BUF, sizeof(m), false);
	*answer_len = 0;
	while (mh_get_ev(&mh, &e)) {
		n++;
		if (mh_ev_chan(&e) == EMU_TELEMETRY_CH_DL) {
			CHECK_EQ(mh_ev_code(&e), 2);	/* EOT */
			*answer_len = mh_ev_len(&e);
		}
	}
	return n;
}

static const uint8_t *mhi_answer(void)
{
	return mh_gp(&mh, RSP_BUF + 32 * next_rsp++);
}

static void test_mhi(void)
{
	const struct emu_telemetry_counters *c;
	unsigned int len;
	const uint8_t *a;
	char *buf = NULL;
	size_t size = 0;
	FILE *f;

	mhi_up();
	c = emu_telemetry_counters(emu_mhi_telemetry(mhi));
	CHECK(emu_telemetry_serving(emu_mhi_telemetry(mhi)));
	/* A read, answered on 17 at once */
	CHECK_EQ(mhi_ask(77, TM_BOARD_TDP, TM_READ, &len), 2);
	CHECK_EQ(len, TM_MSG_LEN);
	a = mhi_answer();
	CHECK_EQ(get_le32(a) & 0xffff, TM_MAGIC);
	CHECK_EQ(get_le32(a + 4), 77);
	CHECK_EQ(a[8], TM_TYPE_RSP);
	CHECK_EQ(a[12], TM_BOARD_TDP);
	CHECK_EQ(a[14], 0);
	CHECK_EQ(get_le64(a + 15), 75);
	/* A write: -1 */
	CHECK_EQ(mhi_ask(78, TM_SOC_TEMP, TM_WRITE, &len), 2);
	CHECK_EQ(len, TM_MSG_LEN);
	a = mhi_answer();
	CHECK_EQ(get_le32(a + 4), 78);
	CHECK_EQ((int8_t)a[14], TM_E_READ_ONLY);

	/* Late: the answer comes from the serve loop's timer */
	emu_telemetry_set_mode(emu_mhi_telemetry(mhi), TM_MODE_LATE);
	CHECK_EQ(mhi_ask(79, TM_SOC_TEMP, TM_READ, &len), 1);
	CHECK_EQ(len, 0);
	CHECK_EQ(emu_mhi_timeout_ms(mhi), EMU_TELEMETRY_LATE_MS);
	clock_ms += EMU_TELEMETRY_LATE_MS;
	CHECK_EQ(emu_mhi_timeout_ms(mhi), 0);
	emu_mhi_tick(mhi);
	struct mh_ev e;

	CHECK(mh_get_ev(&mh, &e));
	CHECK_EQ(mh_ev_chan(&e), EMU_TELEMETRY_CH_DL);
	CHECK_EQ(mh_ev_len(&e), TM_MSG_LEN);
	a = mhi_answer();
	CHECK_EQ(get_le32(a + 4), 79);
	CHECK_EQ(get_le64(a + 15), 40);
	CHECK_EQ(emu_mhi_timeout_ms(mhi), -1);

	/* An MHI reset: the mode goes back to normal, a late answer is lost */
	CHECK_EQ(mhi_ask(80, TM_SOC_TEMP, TM_READ, &len), 1);
	mh_wr(&mh, 0x38, 2);		/* MHICTRL.RESET */
	CHECK_EQ(emu_telemetry_mode(emu_mhi_telemetry(mhi)), TM_MODE_NORMAL);
	CHECK_EQ(c->late_lost, 1);
	CHECK_EQ(emu_mhi_timeout_ms(mhi), -1);
	CHECK(emu_telemetry_serving(emu_mhi_telemetry(mhi)));	/* AMSS goes on */

	/* A crash: nothing served until the reset after it */
	mhi_up();
	c = emu_telemetry_counters(emu_mhi_telemetry(mhi));
	emu_mhi_raise_syserr(mhi);
	CHECK(!emu_telemetry_serving(emu_mhi_telemetry(mhi)));
	mh_wr(&mh, 0x38, 2);
	CHECK(emu_telemetry_serving(emu_mhi_telemetry(mhi)));

	/* A card in PBL serves nothing */
	emu_mhi_set_boot(mhi, EMU_MHI_BOOT_PBL);
	CHECK(!emu_telemetry_serving(emu_mhi_telemetry(mhi)));
	emu_mhi_set_boot(mhi, EMU_MHI_BOOT_AMSS);
	CHECK(emu_telemetry_serving(emu_mhi_telemetry(mhi)));

	/* The counters go out with the others */
	mhi_up();
	CHECK_EQ(mhi_ask(81, TM_UPTIME, TM_READ, &len), 2);
	f = open_memstream(&buf, &size);
	if (!f)
		abort();
	emu_mhi_counters_print(mhi, f);
	fclose(f);
	CHECK(strstr(buf, "\ntelemetry_requests 1\n"));
	CHECK(strstr(buf, "\ntelemetry_answered 1\n"));
	CHECK(strstr(buf, "\ntelemetry_read_uptime 1\n"));
	free(buf);
	CHECK_EQ(emu_mhi_counters(mhi)->mhi_bad_ring, 0);
	CHECK_EQ(emu_mhi_counters(mhi)->mhi_bad_tre, 0);
	emu_mhi_destroy(mhi);
	mhi = NULL;
	emu_device_fini(&mdev);
}

int main(void)
{
	RUN(test_reads);
	RUN(test_refusals);
	RUN(test_idle);
	RUN(test_modes);
	RUN(test_late);
	RUN(test_load);
	RUN(test_counters_print);
	RUN(test_mhi);
	return emu_test_exit();
}
