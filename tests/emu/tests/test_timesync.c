// SPDX-License-Identifier: GPL-2.0-only
/*
 * Time sync (timesync.c) and the boot log (bootlog.c) on their own: a
 * stand-in MHI records what the card sends; the host's messages are built
 * by hand, from this process's clocks.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bootlog.h"
#include "device.h"
#include "emu_test.h"
#include "le_bytes.h"
#include "timesync.h"

static struct emu_device dev;	/* for emu_log(); not verbose */

#define MAX_SENT	512
#define MAX_MSG		(EMU_BOOTLOG_LONG_LINE + 2)

static struct {
	uint8_t msg[MAX_SENT][MAX_MSG];
	size_t len[MAX_SENT];
	unsigned int n;
	unsigned int room;	/* bootlog: messages taken before "full" */
} rec;

static void rec_take(const void *msg, size_t len)
{
	if (rec.n >= MAX_SENT || len > MAX_MSG)
		abort();
	memcpy(rec.msg[rec.n], msg, len);
	rec.len[rec.n] = len;
	rec.n++;
}

static void ts_send(void *ctx, const void *msg, size_t len)
{
	(void)ctx;
	rec_take(msg, len);
}

static bool log_send(void *ctx, const void *msg, size_t len)
{
	(void)ctx;
	if (!rec.room)
		return false;
	rec.room--;
	rec_take(msg, len);
	return true;
}

static const struct emu_timesync_ops ts_ops = { .send = ts_send };
static const struct emu_bootlog_ops log_ops = { .send = log_send };

static int64_t now_us(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

static void sync_msg(uint8_t *m, int64_t us)
{
	memset(m, 0, TS_SYNC_LEN);
	put_le16(m, TS_SIGNATURE);
	m[5] = TS_SYNC_REQ;
	put_le64(m + 8, (uint64_t)(us / 1000000));
	put_le64(m + 16, (uint64_t)(us % 1000000));
}

static void test_boot(void)
{
	struct emu_timesync *t = emu_timesync_create(&dev, &ts_ops, NULL);
	const struct emu_timesync_counters *c = emu_timesync_counters(t);
	uint8_t m[64];

	memset(&rec, 0, sizeof(rec));
	/* An answer to no question is bad */
	sync_msg(m, now_us(CLOCK_REALTIME));
	emu_timesync_rx(t, m, TS_SYNC_LEN);
	CHECK_EQ(c->boot_bad, 1);

	emu_timesync_ask(t);
	CHECK(emu_timesync_waiting(t));
	CHECK_EQ(rec.n, 1);
	CHECK_EQ(rec.len[0], TS_HDR_LEN);
	CHECK_EQ(get_le32(rec.msg[0]) & 0xffff, TS_SIGNATURE);
	CHECK_EQ(rec.msg[0][5], TS_CMD_TO_HOST);

	sync_msg(m, now_us(CLOCK_REALTIME));
	emu_timesync_rx(t, m, TS_SYNC_LEN);
	CHECK(!emu_timesync_waiting(t));
	CHECK_EQ(c->boot_good, 1);
	CHECK_EQ(rec.n, 2);
	CHECK_EQ(rec.msg[1][5], TS_ACK_TO_HOST);

	/* Each bad answer: counted, and ends the wait */
	struct { int64_t off_us; size_t len; int sig; int type; int64_t usec; } bad[] = {
		{ 0, TS_SYNC_LEN - 1, TS_SIGNATURE, TS_SYNC_REQ, -1 },
		{ 0, TS_SYNC_LEN + 8, TS_SIGNATURE, TS_SYNC_REQ, -1 },
		{ 0, TS_SYNC_LEN, 0xaa55, TS_SYNC_REQ, -1 },
		{ 0, TS_SYNC_LEN, TS_SIGNATURE, TS_CMD_TO_HOST, -1 },
		{ 0, TS_SYNC_LEN, TS_SIGNATURE, TS_SYNC_REQ, 1000000 },
		{ 6000000, TS_SYNC_LEN, TS_SIGNATURE, TS_SYNC_REQ, -1 },
		{ -6000000, TS_SYNC_LEN, TS_SIGNATURE, TS_SYNC_REQ, -1 },
		{ -2000000, TS_SYNC_LEN, TS_SIGNATURE, TS_SYNC_REQ, -1 }, /* goes back */
	};
	for (unsigned int i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		emu_timesync_ask(t);
		sync_msg(m, now_us(CLOCK_REALTIME) + bad[i].off_us);
		put_le16(m, (uint16_t)bad[i].sig);
		m[5] = (uint8_t)bad[i].type;
		if (bad[i].usec >= 0)
			put_le64(m + 16, (uint64_t)bad[i].usec);
		emu_timesync_rx(t, m, bad[i].len);
		CHECK(!emu_timesync_waiting(t));
		CHECK_EQ(c->boot_bad, 2 + i);
	}
	CHECK_EQ(c->boot_good, 1);
	emu_timesync_ask(t);
	emu_timesync_reset(t);
	CHECK(!emu_timesync_waiting(t));
	emu_timesync_destroy(t);
}

static void test_garbage(void)
{
	struct emu_timesync *t = emu_timesync_create(&dev, &ts_ops, NULL);
	const struct emu_timesync_counters *c = emu_timesync_counters(t);

	memset(&rec, 0, sizeof(rec));
	emu_timesync_set_garbage(t, true);
	emu_timesync_ask(t);
	CHECK_EQ(c->garbage, 6);
	CHECK_EQ(rec.n, 7);
	CHECK_EQ(rec.len[0], 4);
	CHECK_EQ(rec.len[1], 16);
	CHECK_EQ(rec.len[2], 40);
	CHECK_EQ(get_le32(rec.msg[3]) & 0xffff, 0xaa55);
	CHECK_EQ(rec.msg[4][5], 7);
	CHECK_EQ(rec.msg[5][5], TS_ACK_TO_HOST);
	/* The question comes last */
	CHECK_EQ(rec.len[6], TS_HDR_LEN);
	CHECK_EQ(get_le32(rec.msg[6]) & 0xffff, TS_SIGNATURE);
	CHECK_EQ(rec.msg[6][5], TS_CMD_TO_HOST);
	emu_timesync_destroy(t);
}

static void test_periodic(void)
{
	struct emu_timesync *t = emu_timesync_create(&dev, &ts_ops, NULL);
	const struct emu_timesync_counters *c = emu_timesync_counters(t);
	uint64_t q1, q2;
	uint8_t m[TS_SYNC_LEN];
	int64_t off;

	memset(&rec, 0, sizeof(rec));
	q1 = emu_timesync_qtimer(t);
	q2 = emu_timesync_qtimer(t);
	CHECK(q2 >= q1);
	/* UTC minus the QTimer, as a host computes it */
	off = now_us(CLOCK_REALTIME) - (int64_t)(emu_timesync_qtimer(t) * 10 / 192);
	sync_msg(m, off);
	emu_timesync_periodic_rx(t, m, sizeof(m));
	CHECK_EQ(c->periodic_good, 1);
	/* UTC itself, as if the QTimer were 0: too far ahead once it ran */
	emu_timesync_power_on(t);
	struct timespec ts = { 0, 20 * 1000 * 1000 };
	nanosleep(&ts, NULL);
	sync_msg(m, now_us(CLOCK_REALTIME) + 5000000);
	emu_timesync_periodic_rx(t, m, sizeof(m));
	CHECK_EQ(c->periodic_bad, 1);
	emu_timesync_periodic_rx(t, m, 8);
	CHECK_EQ(c->periodic_bad, 2);
	CHECK_EQ(c->periodic_good, 1);
	CHECK_EQ(rec.n, 0);	/* periodic ones are not answered */
	emu_timesync_destroy(t);
}

static void test_bootlog(void)
{
	struct emu_bootlog *b = emu_bootlog_create(&dev, &log_ops, NULL);

	memset(&rec, 0, sizeof(rec));
	rec.room = 100;
	emu_bootlog_boot(b);
	emu_bootlog_printf(b, "line %d", 0);
	emu_bootlog_printf(b, "line %d", 1);
	CHECK_EQ(rec.n, 0);		/* nobody listens yet */
	CHECK(!emu_bootlog_pending(b));
	emu_bootlog_listen(b, true);
	CHECK_EQ(rec.n, 2);
	CHECK(!strcmp((char *)rec.msg[0], "line 0\n"));
	CHECK_EQ(rec.len[0], 8);	/* the NUL goes too */
	rec.room = 0;
	emu_bootlog_printf(b, "line %d", 2);
	CHECK(emu_bootlog_pending(b));
	rec.room = 1;
	emu_bootlog_pump(b);
	CHECK(!emu_bootlog_pending(b));
	CHECK(!strcmp((char *)rec.msg[2], "line 2\n"));
	/* The host resets the channel and starts it again: all of it again */
	emu_bootlog_listen(b, false);
	rec.room = 100;
	emu_bootlog_listen(b, true);
	CHECK_EQ(rec.n, 6);
	CHECK(!strcmp((char *)rec.msg[5], "line 2\n"));
	CHECK_EQ(emu_bootlog_boots(b), 1);
	emu_bootlog_destroy(b);
}

static void test_bootlog_garbage(void)
{
	struct emu_bootlog *b = emu_bootlog_create(&dev, &log_ops, NULL);
	size_t flood = 0;
	unsigned int i;

	memset(&rec, 0, sizeof(rec));
	rec.room = MAX_SENT;
	emu_bootlog_set_garbage(b, true);
	emu_bootlog_boot(b);
	emu_bootlog_printf(b, "first");
	emu_bootlog_printf(b, "last");
	emu_bootlog_listen(b, true);
	CHECK(!emu_bootlog_pending(b));
	CHECK(!strcmp((char *)rec.msg[0], "first\n"));
	for (i = 1; i < rec.n && !memcmp(rec.msg[i], "flood ", 6); i++)
		flood += rec.len[i];
	CHECK(flood >= EMU_BOOTLOG_FLOOD_BYTES);
	CHECK(!memcmp(rec.msg[i], "garbage: ", 9));
	CHECK(!memcmp(rec.msg[i + 1], "before NUL\0after NUL\n", 22));
	CHECK_EQ(rec.len[i + 2], EMU_BOOTLOG_LONG_LINE + 2);
	CHECK(!strcmp((char *)rec.msg[i + 3], "last\n"));
	CHECK_EQ(rec.n, i + 4);
	emu_bootlog_destroy(b);
}

int main(void)
{
	RUN(test_boot);
	RUN(test_garbage);
	RUN(test_periodic);
	RUN(test_bootlog);
	RUN(test_bootlog_garbage);
	return emu_test_exit();
}
