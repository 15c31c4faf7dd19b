// SPDX-License-Identifier: GPL-2.0-only
/*
 * Telemetry on QAIC_TELEMETRY (see telemetry.h).
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
#include "telemetry.h"

/* Offsets in the message */
#define OFF_MAGIC	0
#define OFF_VERSION	2
#define OFF_SEQ		4
#define OFF_TYPE	8
#define OFF_ID		9
#define OFF_LEN		10
#define OFF_CMD		12
#define OFF_CMD_TYPE	13
#define OFF_STATUS	14
#define OFF_VAL		15

/* Fixed values */
#define WARNING_C	105
#define SHUTDOWN_C	115
#define TDP_W		75

/* A running count of the card's work at a time */
struct sample {
	uint64_t ms;
	uint64_t count;
};

struct late {
	uint64_t due_ms;
	size_t len;
	uint8_t msg[TM_MSG_LEN];
};

struct emu_telemetry {
	struct emu_device *dev;
	const struct emu_telemetry_ops *ops;
	void *ctx;
	uint64_t (*activity)(void *ctx);
	void *activity_ctx;
	uint64_t (*now_ms)(void *ctx);
	void *clock_ctx;

	bool serving;			/* in mission mode */
	unsigned int mode;		/* enum emu_telemetry_mode */
	int pinned;			/* tests: the load held, or -1 */

	/* The load model, since mission mode began */
	uint64_t start_ms;
	uint64_t last_ms;		/* the previous request's time */
	struct sample s[EMU_TELEMETRY_NR_SAMPLES];	/* oldest first */
	unsigned int nr_s;
	unsigned int load;		/* per mille */
	int64_t soc_max, board_max, power_max;
	uint64_t throttle_ms;

	/* Fault mode late: answers waiting for their time, in order */
	struct late late[EMU_TELEMETRY_MAX_LATE];
	unsigned int late_head, nr_late;

	struct emu_telemetry_counters c;
};

static const char *const cmd_names[TM_NR_CMDS] = {
	"soc_temp", "soc_max_temp", "board_temp", "board_max_temp", "ddr_temp",
	"warning_temp", "shutdown_temp", "board_tdp", "board_power",
	"power_state", "power_max", "throttle_percent", "throttle_time",
	"uptime",
};

static uint64_t monotonic_ms(void *ctx)
{
	struct timespec ts;

	(void)ctx;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

static uint64_t now(const struct emu_telemetry *t)
{
	return t->now_ms(t->clock_ctx);
}

static uint64_t activity(const struct emu_telemetry *t)
{
	return t->activity ? t->activity(t->activity_ctx) : 0;
}

/* The values of load @l, per mille */
static int64_t soc_temp(unsigned int l)
{
	return 40 + 35 * (int64_t)l / 1000;
}

static int64_t board_temp(unsigned int l)
{
	return 35 + 20 * (int64_t)l / 1000;
}

static int64_t ddr_temp(unsigned int l)
{
	return 38 + 27 * (int64_t)l / 1000;
}

static int64_t board_power(unsigned int l)
{
	return 20 + 55 * (int64_t)l / 1000;
}

static int64_t throttle_percent(unsigned int l)
{
	return l > EMU_TELEMETRY_THROTTLE_LOAD ?
	       (l - EMU_TELEMETRY_THROTTLE_LOAD) / 10 : 0;
}

struct emu_telemetry *emu_telemetry_create(struct emu_device *dev,
					   const struct emu_telemetry_ops *ops,
					   void *ctx)
{
	struct emu_telemetry *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	t->dev = dev;
	t->ops = ops;
	t->ctx = ctx;
	t->now_ms = monotonic_ms;
	t->pinned = -1;
	return t;
}

void emu_telemetry_destroy(struct emu_telemetry *t)
{
	free(t);
}

void emu_telemetry_set_activity(struct emu_telemetry *t,
				uint64_t (*fn)(void *ctx), void *ctx)
{
	t->activity = fn;
	t->activity_ctx = ctx;
}

int emu_telemetry_set_load(struct emu_telemetry *t, int permille)
{
	if (permille < -1 || permille > 1000)
		return -EINVAL;
	t->pinned = permille;
	return 0;
}

void emu_telemetry_set_clock(struct emu_telemetry *t,
			     uint64_t (*now_ms)(void *ctx), void *ctx)
{
	t->now_ms = now_ms ? now_ms : monotonic_ms;
	t->clock_ctx = ctx;
}

void emu_telemetry_start(struct emu_telemetry *t)
{
	uint64_t ms = now(t);

	t->serving = true;
	t->start_ms = ms;
	t->last_ms = ms;
	t->s[0].ms = ms;
	t->s[0].count = activity(t);
	t->nr_s = 1;
	t->load = 0;
	t->soc_max = soc_temp(0);
	t->board_max = board_temp(0);
	t->power_max = board_power(0);
	t->throttle_ms = 0;
	emu_log(t->dev, "telemetry: serving");
}

void emu_telemetry_stop(struct emu_telemetry *t)
{
	t->serving = false;
}

bool emu_telemetry_serving(const struct emu_telemetry *t)
{
	return t->serving;
}

void emu_telemetry_reset(struct emu_telemetry *t)
{
	t->mode = TM_MODE_NORMAL;
	t->c.late_lost += t->nr_late;
	t->nr_late = 0;
	t->late_head = 0;
}

int emu_telemetry_set_mode(struct emu_telemetry *t, unsigned int mode)
{
	if (mode >= TM_NR_MODES)
		return -EINVAL;
	t->mode = mode;
	emu_log(t->dev, "telemetry: fault mode %u", mode);
	return 0;
}

unsigned int emu_telemetry_mode(const struct emu_telemetry *t)
{
	return t->mode;
}

unsigned int emu_telemetry_load(const struct emu_telemetry *t)
{
	return t->load;
}

/* A sample at @ms: the load, then the highest values and the throttle time. */
static void sample(struct emu_telemetry *t, uint64_t ms)
{
	uint64_t count = activity(t), span, done, rate;
	const struct sample *base = NULL;
	unsigned int i;

	/* The clock or the count went back (a test's, or a new engine): anew. */
	if (ms < t->s[t->nr_s - 1].ms || count < t->s[t->nr_s - 1].count) {
		t->s[0].ms = ms;
		t->s[0].count = count;
		t->nr_s = 1;
	}
	for (i = t->nr_s; i-- > 0;) {
		if (ms - t->s[i].ms >= EMU_TELEMETRY_WINDOW_MS) {
			base = &t->s[i];
			break;
		}
	}
	if (!base)
		base = &t->s[0];
	span = ms - base->ms;
	if (span >= EMU_TELEMETRY_MIN_SPAN_MS) {
		done = count - base->count;
		/* No more than full load matters; keep the product small. */
		if (done > 1000000000ull)
			done = 1000000000ull;
		rate = done * 1000 / span;
		t->load = rate >= EMU_TELEMETRY_FULL_RATE ? 1000 :
			  (unsigned int)(rate * 1000 / EMU_TELEMETRY_FULL_RATE);
	}
	if (t->pinned >= 0)
		t->load = (unsigned int)t->pinned;

	/* Forget the samples before the base; keep this one if far enough on. */
	if (base != &t->s[0]) {
		unsigned int skip = (unsigned int)(base - t->s);

		memmove(t->s, base, (t->nr_s - skip) * sizeof(t->s[0]));
		t->nr_s -= skip;
	}
	if (ms - t->s[t->nr_s - 1].ms >= EMU_TELEMETRY_MIN_SPAN_MS) {
		if (t->nr_s == EMU_TELEMETRY_NR_SAMPLES) {
			memmove(t->s, t->s + 1, (t->nr_s - 1) * sizeof(t->s[0]));
			t->nr_s--;
		}
		t->s[t->nr_s].ms = ms;
		t->s[t->nr_s].count = count;
		t->nr_s++;
	}

	if (soc_temp(t->load) > t->soc_max)
		t->soc_max = soc_temp(t->load);
	if (board_temp(t->load) > t->board_max)
		t->board_max = board_temp(t->load);
	if (board_power(t->load) > t->power_max)
		t->power_max = board_power(t->load);
	if (throttle_percent(t->load) && ms > t->last_ms)
		t->throttle_ms += ms - t->last_ms;
	if (ms > t->last_ms)
		t->last_ms = ms;
}

/* The value of a read of @cmd (< TM_NR_CMDS) at @ms, after sample(). */
static int64_t value(const struct emu_telemetry *t, unsigned int cmd, uint64_t ms)
{
	switch (cmd) {
	case TM_SOC_TEMP:
		return soc_temp(t->load);
	case TM_SOC_MAX_TEMP:
		return t->soc_max;
	case TM_BOARD_TEMP:
		return board_temp(t->load);
	case TM_BOARD_MAX_TEMP:
		return t->board_max;
	case TM_DDR_TEMP:
		return ddr_temp(t->load);
	case TM_WARNING_TEMP:
		return WARNING_C;
	case TM_SHUTDOWN_TEMP:
		return SHUTDOWN_C;
	case TM_BOARD_TDP:
		return TDP_W;
	case TM_BOARD_POWER:
		return board_power(t->load);
	case TM_POWER_STATE:
		return 0;
	case TM_POWER_MAX:
		return t->power_max;
	case TM_THROTTLE_PERCENT:
		return throttle_percent(t->load);
	case TM_THROTTLE_TIME:
		return (int64_t)(t->throttle_ms / 1000);
	case TM_UPTIME:
	default:
		return ms > t->start_ms ? (int64_t)((ms - t->start_ms) / 1000) : 0;
	}
}

/* Fault mode absurd: what a good read of @cmd says instead. */
static int64_t absurd(unsigned int cmd)
{
	if (cmd <= TM_SHUTDOWN_TEMP)
		return EMU_TELEMETRY_ABSURD_TEMP;
	if (cmd == TM_BOARD_TDP || cmd == TM_BOARD_POWER || cmd == TM_POWER_MAX)
		return EMU_TELEMETRY_ABSURD_POWER;
	return -1;
}

static void send_now(struct emu_telemetry *t, const uint8_t *msg, size_t len)
{
	t->c.answered++;
	t->ops->send(t->ctx, msg, len);
}

/* An answer, through the fault mode. */
static void answer(struct emu_telemetry *t, uint32_t seq, uint8_t cmd,
		   uint8_t cmd_type, int8_t status, int64_t val, uint64_t ms)
{
	uint8_t msg[TM_MSG_LEN];
	size_t len = TM_MSG_LEN;
	struct late *l;

	if (t->mode == TM_MODE_ERROR) {
		status = TM_E_PROCESSING;
		val = 0;
	}
	if (t->mode == TM_MODE_WRONG_SEQ)
		seq++;
	put_le16(msg + OFF_MAGIC, TM_MAGIC);
	put_le16(msg + OFF_VERSION, TM_VERSION);
	put_le32(msg + OFF_SEQ, seq);
	msg[OFF_TYPE] = TM_TYPE_RSP;
	msg[OFF_ID] = 0;
	put_le16(msg + OFF_LEN, TM_MSG_LEN - TM_HDR_LEN);
	msg[OFF_CMD] = cmd;
	msg[OFF_CMD_TYPE] = cmd_type;
	msg[OFF_STATUS] = (uint8_t)status;
	put_le64(msg + OFF_VAL, (uint64_t)val);
	if (t->mode == TM_MODE_GARBAGE) {
		put_le16(msg + OFF_MAGIC, 0xaa55);
		memset(msg + TM_HDR_LEN, 0xa5, TM_MSG_LEN - TM_HDR_LEN);
	}
	if (t->mode == TM_MODE_SHORT)
		len = TM_HDR_LEN;
	if (t->mode != TM_MODE_NORMAL && t->mode != TM_MODE_ABSURD)
		t->c.faulted++;
	if (t->mode != TM_MODE_LATE) {
		send_now(t, msg, len);
		return;
	}
	if (t->nr_late == EMU_TELEMETRY_MAX_LATE) {
		t->c.late_lost++;
		emu_log(t->dev, "telemetry: too many late answers, one lost");
		return;
	}
	l = &t->late[(t->late_head + t->nr_late) % EMU_TELEMETRY_MAX_LATE];
	l->due_ms = ms + EMU_TELEMETRY_LATE_MS;
	l->len = len;
	memcpy(l->msg, msg, len);
	t->nr_late++;
}

void emu_telemetry_rx(struct emu_telemetry *t, const void *buf, size_t len)
{
	const uint8_t *m = buf;
	uint8_t cmd, cmd_type;
	uint64_t ms;
	uint32_t seq;

	t->c.requests++;
	if (!t->serving) {
		t->c.dropped_idle++;
		emu_log(t->dev, "telemetry: request outside mission mode dropped");
		return;
	}
	if (len < OFF_TYPE) {
		t->c.dropped_short++;
		emu_log(t->dev, "telemetry: request of %zu bytes dropped", len);
		return;
	}
	if (t->mode == TM_MODE_SILENT) {
		t->c.dropped_silent++;
		return;
	}
	ms = now(t);
	seq = get_le32(m + OFF_SEQ);
	cmd = len > OFF_CMD ? m[OFF_CMD] : 0;
	cmd_type = len > OFF_CMD_TYPE ? m[OFF_CMD_TYPE] : 0;
	if (len != TM_MSG_LEN ||
	    (m[OFF_MAGIC] | m[OFF_MAGIC + 1] << 8) != TM_MAGIC ||
	    (m[OFF_VERSION] | m[OFF_VERSION + 1] << 8) != TM_VERSION ||
	    m[OFF_TYPE] != TM_TYPE_REQ || m[OFF_ID] != 0 ||
	    (m[OFF_LEN] | m[OFF_LEN + 1] << 8) != TM_MSG_LEN - TM_HDR_LEN) {
		t->c.refused++;
		t->c.refused_header++;
		emu_log(t->dev, "telemetry: request %u: bad header (%zu bytes)", seq, len);
		answer(t, seq, cmd, cmd_type, TM_E_HEADER, 0, ms);
		return;
	}
	if (cmd >= TM_NR_CMDS) {
		t->c.refused++;
		t->c.refused_unknown++;
		answer(t, seq, cmd, cmd_type, TM_E_UNSUPPORTED, 0, ms);
		return;
	}
	if (cmd_type > TM_WRITE) {
		t->c.refused++;
		t->c.refused_value++;
		answer(t, seq, cmd, cmd_type, TM_E_INVALID, 0, ms);
		return;
	}
	if (cmd_type == TM_WRITE) {
		t->c.refused++;
		t->c.refused_write++;
		answer(t, seq, cmd, cmd_type, TM_E_READ_ONLY, 0, ms);
		return;
	}
	sample(t, ms);
	t->c.reads++;
	t->c.read_cmd[cmd]++;
	if (t->mode == TM_MODE_ABSURD) {
		t->c.faulted++;
		answer(t, seq, cmd, cmd_type, TM_OK, absurd(cmd), ms);
		return;
	}
	answer(t, seq, cmd, cmd_type, TM_OK, value(t, cmd, ms), ms);
}

int emu_telemetry_timeout_ms(const struct emu_telemetry *t)
{
	uint64_t ms, due;

	if (!t->nr_late)
		return -1;
	ms = now(t);
	due = t->late[t->late_head].due_ms;
	if (due <= ms)
		return 0;
	return due - ms > EMU_TELEMETRY_LATE_MS ? EMU_TELEMETRY_LATE_MS :
						  (int)(due - ms);
}

void emu_telemetry_tick(struct emu_telemetry *t)
{
	uint64_t ms;

	if (!t->nr_late)
		return;
	ms = now(t);
	while (t->nr_late && t->late[t->late_head].due_ms <= ms) {
		struct late *l = &t->late[t->late_head];

		t->late_head = (t->late_head + 1) % EMU_TELEMETRY_MAX_LATE;
		t->nr_late--;
		send_now(t, l->msg, l->len);
	}
}

const struct emu_telemetry_counters *
emu_telemetry_counters(const struct emu_telemetry *t)
{
	return &t->c;
}

void emu_telemetry_counters_print(const struct emu_telemetry *t, FILE *out)
{
	const struct emu_telemetry_counters *c = &t->c;

	fprintf(out, "telemetry_requests %" PRIu64 "\n", c->requests);
	fprintf(out, "telemetry_answered %" PRIu64 "\n", c->answered);
	fprintf(out, "telemetry_reads %" PRIu64 "\n", c->reads);
	fprintf(out, "telemetry_refused %" PRIu64 "\n", c->refused);
	fprintf(out, "telemetry_refused_write %" PRIu64 "\n", c->refused_write);
	fprintf(out, "telemetry_refused_unknown %" PRIu64 "\n", c->refused_unknown);
	fprintf(out, "telemetry_refused_value %" PRIu64 "\n", c->refused_value);
	fprintf(out, "telemetry_refused_header %" PRIu64 "\n", c->refused_header);
	fprintf(out, "telemetry_dropped_short %" PRIu64 "\n", c->dropped_short);
	fprintf(out, "telemetry_dropped_idle %" PRIu64 "\n", c->dropped_idle);
	fprintf(out, "telemetry_dropped_silent %" PRIu64 "\n", c->dropped_silent);
	fprintf(out, "telemetry_faulted %" PRIu64 "\n", c->faulted);
	fprintf(out, "telemetry_late_lost %" PRIu64 "\n", c->late_lost);
	fprintf(out, "telemetry_mode %u\n", t->mode);
	fprintf(out, "telemetry_load_permille %u\n", t->load);
	for (unsigned int i = 0; i < TM_NR_CMDS; i++)
		fprintf(out, "telemetry_read_%s %" PRIu64 "\n", cmd_names[i],
			c->read_cmd[i]);
}
