// SPDX-License-Identifier: GPL-2.0-only
/*
 * Time sync on QAIC_TIMESYNC and QAIC_TIMESYNC_PERIODIC (see timesync.h).
 *
 * Copyright (c) 2026 The qaic authors.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "device.h"
#include "le_bytes.h"
#include "timesync.h"
#include "timesync_cases.h"

struct emu_timesync {
	struct emu_device *dev;
	const struct emu_timesync_ops *ops;
	void *ctx;

	struct timespec power_on;	/* CLOCK_MONOTONIC; QTimer 0 */
	bool waiting;			/* asked, no answer yet */
	bool garbage;			/* --timesync-fault garbage */
	int64_t last_us;		/* host time of the last good one */
	bool held;			/* a systematic case holds the QTimer */
	uint64_t held_at;

	struct emu_timesync_counters c;
};

static int64_t ts_us(const struct timespec *ts)
{
	return (int64_t)ts->tv_sec * 1000000 + ts->tv_nsec / 1000;
}

static int64_t realtime_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return ts_us(&ts);
}

struct emu_timesync *emu_timesync_create(struct emu_device *dev,
					 const struct emu_timesync_ops *ops,
					 void *ctx)
{
	struct emu_timesync *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	t->dev = dev;
	t->ops = ops;
	t->ctx = ctx;
	emu_timesync_power_on(t);
	return t;
}

void emu_timesync_destroy(struct emu_timesync *t)
{
	free(t);
}

void emu_timesync_power_on(struct emu_timesync *t)
{
	clock_gettime(CLOCK_MONOTONIC, &t->power_on);
	t->waiting = false;
	t->held = false;
}

int emu_timesync_set_case(struct emu_timesync *t, unsigned int idx)
{
	const struct emu_ts_case *c;

	if (idx >= emu_ts_nr_cases)
		return -EINVAL;
	c = &emu_ts_cases[idx];
	t->held = c->base != EMU_TS_REAL;
	if (t->held)
		t->held_at = emu_ts_case_qtimer(c, realtime_us());
	emu_log(t->dev, "timesync: case %s, QTimer %s %#llx", c->name,
		t->held ? "held at" : "runs", (unsigned long long)t->held_at);
	return 0;
}

uint64_t emu_timesync_qtimer(const struct emu_timesync *t)
{
	struct timespec now;
	uint64_t ns;

	if (t->held)
		return t->held_at;
	clock_gettime(CLOCK_MONOTONIC, &now);
	ns = (uint64_t)(ts_us(&now) - ts_us(&t->power_on)) * 1000;
	return ns / 1000 * EMU_TIMESYNC_QTIMER_HZ / 1000000;
}

static void send_hdr(struct emu_timesync *t, uint8_t type)
{
	uint8_t msg[TS_HDR_LEN] = { 0 };

	put_le16(msg, TS_SIGNATURE);
	msg[5] = type;
	t->ops->send(t->ctx, msg, sizeof(msg));
}

void emu_timesync_set_garbage(struct emu_timesync *t, bool on)
{
	t->garbage = on;
}

/* What the host must not answer (see timesync.h). */
static void send_garbage(struct emu_timesync *t)
{
	static const size_t lens[] = { 4, 16, 40 };
	uint8_t msg[40] = { 0 };

	put_le16(msg, TS_SIGNATURE);
	msg[5] = TS_CMD_TO_HOST;
	for (unsigned int i = 0; i < 3; i++) {
		t->ops->send(t->ctx, msg, lens[i]);
		t->c.garbage++;
	}
	put_le16(msg, 0xaa55);
	t->ops->send(t->ctx, msg, TS_HDR_LEN);
	put_le16(msg, TS_SIGNATURE);
	msg[5] = 7;
	t->ops->send(t->ctx, msg, TS_HDR_LEN);
	msg[5] = TS_ACK_TO_HOST;
	t->ops->send(t->ctx, msg, TS_HDR_LEN);
	t->c.garbage += 3;
}

void emu_timesync_ask(struct emu_timesync *t)
{
	if (t->garbage)
		send_garbage(t);
	t->c.asked++;
	t->waiting = true;
	emu_log(t->dev, "timesync: asking the host for the time");
	send_hdr(t, TS_CMD_TO_HOST);
}

bool emu_timesync_waiting(const struct emu_timesync *t)
{
	return t->waiting;
}

void emu_timesync_reset(struct emu_timesync *t)
{
	t->waiting = false;
}

/*
 * The time a TS_SYNC_REQ gives, in microseconds, plus @base; -1 if the
 * message is malformed.
 */
static int64_t sync_time(struct emu_timesync *t, const uint8_t *m, size_t len,
			 int64_t base)
{
	uint64_t sec, usec;

	if (len != TS_SYNC_LEN) {
		emu_log(t->dev, "timesync: message of %zu bytes", len);
		return -1;
	}
	if ((m[0] | m[1] << 8) != TS_SIGNATURE || m[5] != TS_SYNC_REQ) {
		emu_log(t->dev, "timesync: signature %#x type %u",
			m[0] | m[1] << 8, m[5]);
		return -1;
	}
	sec = get_le64(m + 8);
	usec = get_le64(m + 16);
	if (usec >= 1000000 || sec > INT64_MAX / 2000000) {
		emu_log(t->dev, "timesync: %" PRIu64 " s %" PRIu64 " us", sec,
			usec);
		return -1;
	}
	return (int64_t)(sec * 1000000 + usec) + base;
}

/* Is @host_us (from the host, -1: malformed) good? Counts nothing. */
static bool check_time(struct emu_timesync *t, int64_t host_us)
{
	int64_t skew;

	if (host_us < 0)
		return false;
	skew = host_us - realtime_us();
	if (skew > EMU_TIMESYNC_MAX_SKEW_US || skew < -EMU_TIMESYNC_MAX_SKEW_US) {
		emu_log(t->dev, "timesync: host time off by %" PRId64 " us", skew);
		return false;
	}
	if (host_us < t->last_us) {
		emu_log(t->dev, "timesync: host time %" PRId64
			" us before the last one", t->last_us - host_us);
		return false;
	}
	t->last_us = host_us;
	t->c.last_skew_us = skew;
	return true;
}

void emu_timesync_rx(struct emu_timesync *t, const void *msg, size_t len)
{
	bool good;

	if (!t->waiting) {
		emu_log(t->dev, "timesync: an answer to no question");
		t->c.boot_bad++;
		return;
	}
	/* Answered: SBL goes on, whatever the answer was worth. */
	t->waiting = false;
	good = check_time(t, sync_time(t, msg, len, 0));
	if (!good) {
		t->c.boot_bad++;
		return;
	}
	t->c.boot_good++;
	emu_log(t->dev, "timesync: host time, %" PRId64 " us off",
		t->c.last_skew_us);
	send_hdr(t, TS_ACK_TO_HOST);
}

void emu_timesync_periodic_rx(struct emu_timesync *t, const void *msg,
			      size_t len)
{
	int64_t qtimer_us = (int64_t)(emu_timesync_qtimer(t) * 10 / 192);
	int64_t host_us = sync_time(t, msg, len, qtimer_us);

	if (check_time(t, host_us))
		t->c.periodic_good++;
	else
		t->c.periodic_bad++;
}

const struct emu_timesync_counters *
emu_timesync_counters(const struct emu_timesync *t)
{
	return &t->c;
}

void emu_timesync_counters_print(const struct emu_timesync *t, FILE *out)
{
	fprintf(out, "timesync_asked %" PRIu64 "\n", t->c.asked);
	fprintf(out, "timesync_boot_good %" PRIu64 "\n", t->c.boot_good);
	fprintf(out, "timesync_boot_bad %" PRIu64 "\n", t->c.boot_bad);
	fprintf(out, "timesync_periodic_good %" PRIu64 "\n",
		t->c.periodic_good);
	fprintf(out, "timesync_periodic_bad %" PRIu64 "\n", t->c.periodic_bad);
	fprintf(out, "timesync_last_skew_us %" PRId64 "\n", t->c.last_skew_us);
	fprintf(out, "timesync_garbage %" PRIu64 "\n", t->c.garbage);
}
