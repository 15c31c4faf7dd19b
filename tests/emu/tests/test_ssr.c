// SPDX-License-Identifier: GPL-2.0-only
/*
 * Subsystem restart (ssr.c) on its own: a stand-in MHI that records every
 * message the card sends on the downlink channel, host answers built by
 * hand. Then EMU_PT_SSR through the manager with a stand-in card, and the
 * two joined as main.c joins them.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "device.h"
#include "emu_test.h"
#include "le_bytes.h"
#include "manager.h"
#include "memdump.h"
#include "ssr.h"

static struct emu_device dev;	/* for emu_log(); not verbose */

/* ---- the stand-in MHI: what the card sent, and restored() calls ---- */
#define MAX_SENT	64
/* Room for a crash dump's reads of up to 4 KiB (test_dump()). */
#define REC_MSG_MAX	(SSR_READ_RSP_HDR_LEN + 4096)

static struct {
	uint8_t msg[MAX_SENT][REC_MSG_MAX];
	size_t len[MAX_SENT];
	unsigned int n;		/* messages sent since the last take */
	unsigned int overflow;	/* sent with no room left, or too long */
	unsigned int restored;
	unsigned int restored_dbc;
} rec;

static void *rec_ctx_seen;

static void fake_send(void *ctx, const void *msg, size_t len)
{
	rec_ctx_seen = ctx;
	if (rec.n >= MAX_SENT || len > REC_MSG_MAX) {
		rec.overflow++;
		return;
	}
	memcpy(rec.msg[rec.n], msg, len);
	rec.len[rec.n] = len;
	rec.n++;
}

static void fake_restored(void *ctx, unsigned int dbc)
{
	rec_ctx_seen = ctx;
	rec.restored++;
	rec.restored_dbc = dbc;
}

static const struct emu_ssr_ops fake_ops = {
	.send = fake_send,
	.restored = fake_restored,
};

static struct emu_ssr *s;
static int ctx_token;

static void setup(void)
{
	if (s)
		emu_ssr_destroy(s);
	memset(&rec, 0, sizeof(rec));
	rec_ctx_seen = NULL;
	s = emu_ssr_create(&dev, &fake_ops, &ctx_token);
	if (!s)
		abort();
}

/* Forget what was sent so far. */
static void take(void)
{
	rec.n = 0;
}

/* Keep only the last message sent (the event after garbage). */
static void keep_last(void)
{
	if (!rec.n)
		return;
	memmove(rec.msg[0], rec.msg[rec.n - 1], REC_MSG_MAX);
	rec.len[0] = rec.len[rec.n - 1];
	rec.n = 1;
}

/* Exactly one message went out since the last take(): SSR_EVENT @event. */
static void check_one_event(unsigned int dbc, uint32_t event, int line)
{
	const uint8_t *m = rec.msg[0];

	if (rec.n != 1 || rec.len[0] != SSR_EVENT_LEN ||
	    get_le32(m) != SSR_CMD_EVENT || get_le32(m + 4) != SSR_EVENT_LEN ||
	    get_le32(m + 8) != dbc || get_le32(m + 12) != event) {
		fprintf(stderr, "line %d: expected one SSR_EVENT %#x for DBC%u; got %u message(s), first %zu bytes cmd %#x len %u dbc %u event %#x\n",
			line, event, dbc, rec.n, rec.n ? rec.len[0] : 0,
			rec.n ? get_le32(m) : 0, rec.n ? get_le32(m + 4) : 0,
			rec.n ? get_le32(m + 8) : 0, rec.n ? get_le32(m + 12) : 0);
		emu_test_failures++;
	}
	take();
}
#define CHECK_EVENT(dbc, ev) check_one_event(dbc, ev, __LINE__)
#define CHECK_NOTHING_SENT() CHECK_EQ(rec.n, 0)

/* ---- host answers ---- */
static void answer_raw(uint32_t cmd, uint32_t len, uint32_t dbc,
		       uint32_t event, size_t bytes)
{
	uint8_t m[SSR_MAX_MSG + 8];

	memset(m, 0, sizeof(m));
	put_le32(m, cmd);
	put_le32(m + 4, len);
	put_le32(m + 8, dbc);
	put_le32(m + 12, event);
	emu_ssr_rx(s, m, bytes);
}

/* The host's SSR_EVENT_RSP to @event of @dbc. */
static void answer(unsigned int dbc, uint32_t event)
{
	answer_raw(SSR_CMD_EVENT_RSP, SSR_EVENT_LEN, dbc, event, SSR_EVENT_LEN);
}

/* ---- counters ---- */
/* The value of "@key N" in emu_ssr_counters_print()'s output, or ~0. */
static unsigned long long counter(const char *key)
{
	unsigned long long v = ~0ull;
	char *text = NULL, *p;
	size_t size = 0, klen = strlen(key);
	FILE *f;

	f = open_memstream(&text, &size);
	if (!f)
		abort();
	emu_ssr_counters_print(s, f);
	fclose(f);
	for (p = text; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
		if (!strncmp(p, key, klen) && p[klen] == ' ') {
			v = strtoull(p + klen + 1, NULL, 10);
			break;
		}
	}
	free(text);
	return v;
}

static const uint32_t events[] = {
	SSR_EV_BEFORE_SHUTDOWN, SSR_EV_AFTER_SHUTDOWN,
	SSR_EV_BEFORE_POWER_UP, SSR_EV_AFTER_POWER_UP,
};

/* The values are the wire's (Linux qaic_ssr.c: BIT(1) .. BIT(4), BIT(8)). */
static void test_constants(void)
{
	CHECK_EQ(SSR_CMD_EVENT, 0x100);
	CHECK_EQ(SSR_CMD_EVENT_RSP, 0x200);
	CHECK_EQ(SSR_EV_NACK, 0x1);
	CHECK_EQ(events[0], 0x2);
	CHECK_EQ(events[1], 0x4);
	CHECK_EQ(events[2], 0x8);
	CHECK_EQ(events[3], 0x10);
	CHECK_EQ(SSR_EVENT_LEN, 16);
	CHECK_EQ(EMU_SSR_CH_UL, 6);
	CHECK_EQ(EMU_SSR_CH_DL, 7);
}

/*
 * The normal sequence, for the first, a middle and the last DBC: four
 * events, each sent once its predecessor was acknowledged, then
 * restored() once. An answer after the end is dropped.
 */
static void test_normal(void)
{
	static const unsigned int dbcs[] = { 0, 7, 15 };

	for (unsigned int k = 0; k < 3; k++) {
		unsigned int dbc = dbcs[k];
		const uint8_t want[16] = {
			0x00, 0x01, 0x00, 0x00,	/* cmd 0x100 */
			0x10, 0x00, 0x00, 0x00,	/* len 16 */
			(uint8_t)dbc, 0x00, 0x00, 0x00,
			0x02, 0x00, 0x00, 0x00,	/* BEFORE_SHUTDOWN */
		};

		setup();
		CHECK_EQ(emu_ssr_start(s, dbc, EMU_SSR_NORMAL), 0);
		/* The bytes themselves, once: little endian throughout. */
		CHECK(rec.n == 1 && rec.len[0] == 16 &&
		      !memcmp(rec.msg[0], want, 16));
		CHECK(rec_ctx_seen == &ctx_token);
		for (unsigned int i = 0; i < 4; i++) {
			CHECK_EVENT(dbc, events[i]);
			CHECK_EQ(rec.restored, 0);
			answer(dbc, events[i]);
		}
		CHECK_NOTHING_SENT();
		CHECK_EQ(rec.restored, 1);
		CHECK_EQ(rec.restored_dbc, dbc);
		CHECK(rec_ctx_seen == &ctx_token);

		answer(dbc, SSR_EV_AFTER_POWER_UP);	/* once too often */
		CHECK_NOTHING_SENT();
		CHECK_EQ(rec.restored, 1);
		CHECK_EQ(counter("ssr_started"), 1);
		CHECK_EQ(counter("ssr_completed"), 1);
		CHECK_EQ(counter("ssr_events_sent"), 4);
		CHECK_EQ(counter("ssr_acks"), 4);
		CHECK_EQ(counter("ssr_nacks"), 0);
		CHECK_EQ(counter("ssr_bad_msgs"), 1);
		CHECK_EQ(counter("ssr_garbage_sent"), 0);
		CHECK_EQ(rec.overflow, 0);

		/* One after another: the next SSR works. */
		CHECK_EQ(emu_ssr_start(s, dbc ^ 1, EMU_SSR_NORMAL), 0);
		CHECK_EVENT(dbc ^ 1, SSR_EV_BEFORE_SHUTDOWN);
	}
}

/* No restored() hook: the SSR ends all the same. */
static void test_no_restored_hook(void)
{
	static const struct emu_ssr_ops send_only = { .send = fake_send };

	setup();
	emu_ssr_destroy(s);
	s = emu_ssr_create(&dev, &send_only, NULL);
	if (!s)
		abort();
	CHECK_EQ(emu_ssr_start(s, 2, EMU_SSR_NORMAL), 0);
	for (unsigned int i = 0; i < 4; i++) {
		CHECK_EVENT(2, events[i]);
		answer(2, events[i]);
	}
	CHECK_NOTHING_SENT();
	CHECK_EQ(counter("ssr_completed"), 1);
	CHECK_EQ(emu_ssr_start(s, 2, EMU_SSR_NORMAL), 0);
}

/*
 * A host that answers an event with NACK or with another event, at any
 * step: counted (ssr_nacks), nothing sent, the card waits on (ssr.h); the
 * right answer then moves it on. Each case differs in what the host
 * answers instead of the event.
 */
enum { ANS_FIXED, ANS_NACK_OR, ANS_OTHER };

static const struct {
	const char *what;
	int kind;
	uint32_t value;		/* ANS_FIXED: the event answered */
	int delta;		/* ANS_OTHER: the event @delta steps away */
} nack_cases[] = {
	{ "NACK",		ANS_FIXED,	SSR_EV_NACK,	0 },
	{ "no event",		ANS_FIXED,	0,		0 },
	{ "not an event",	ANS_FIXED,	0x80,		0 },
	{ "all bits",		ANS_FIXED,	0xffffffffu,	0 },
	{ "NACK | event",	ANS_NACK_OR,	0,		0 },
	{ "previous event",	ANS_OTHER,	0,		-1 },
	{ "next event",		ANS_OTHER,	0,		1 },
	{ "three away",		ANS_OTHER,	0,		3 },
};

static uint32_t nack_event(unsigned int c, unsigned int step)
{
	int to = (int)step + nack_cases[c].delta;

	switch (nack_cases[c].kind) {
	case ANS_FIXED:
		return nack_cases[c].value;
	case ANS_NACK_OR:
		return SSR_EV_NACK | events[step];
	}
	/* Off either end: wrap around the four. */
	return events[(unsigned int)(to + 4) % 4];
}

static void test_nack(void)
{
	for (unsigned int c = 0; c < sizeof(nack_cases) / sizeof(nack_cases[0]); c++) {
		unsigned int nacks = 0;

		setup();
		CHECK_EQ(emu_ssr_start(s, 5, EMU_SSR_NORMAL), 0);
		for (unsigned int step = 0; step < 4; step++) {
			uint32_t wrong = nack_event(c, step);

			if (wrong == events[step]) {
				fprintf(stderr, "%s: case %s answers the right event\n",
					__func__, nack_cases[c].what);
				emu_test_failures++;
			}
			CHECK_EVENT(5, events[step]);
			/* Twice wrong: nothing, the card still waits. */
			answer(5, wrong);
			answer(5, wrong);
			nacks += 2;
			if (rec.n || rec.restored ||
			    counter("ssr_nacks") != nacks ||
			    counter("ssr_acks") != step) {
				fprintf(stderr, "%s: case %s, step %u: sent %u restored %u nacks %llu acks %llu\n",
					__func__, nack_cases[c].what, step,
					rec.n, rec.restored,
					counter("ssr_nacks"), counter("ssr_acks"));
				emu_test_failures++;
				take();
			}
			answer(5, events[step]);
		}
		CHECK_NOTHING_SENT();
		if (rec.restored != 1 || counter("ssr_nacks") != nacks ||
		    counter("ssr_events_sent") != 4 ||
		    counter("ssr_acks") != 4 || counter("ssr_bad_msgs") != 0 ||
		    counter("ssr_completed") != 1) {
			fprintf(stderr, "%s: case %s: restored %u nacks %llu events_sent %llu acks %llu bad %llu\n",
				__func__, nack_cases[c].what, rec.restored,
				counter("ssr_nacks"), counter("ssr_events_sent"),
				counter("ssr_acks"), counter("ssr_bad_msgs"));
			emu_test_failures++;
		}
	}

	/* A host that never acknowledges: the SSR stays, busy, until reset. */
	setup();
	CHECK_EQ(emu_ssr_start(s, 5, EMU_SSR_NORMAL), 0);
	CHECK_EVENT(5, SSR_EV_BEFORE_SHUTDOWN);
	for (unsigned int i = 0; i < 100; i++)
		answer(5, SSR_EV_NACK);
	CHECK_NOTHING_SENT();
	CHECK_EQ(counter("ssr_nacks"), 100);
	CHECK_EQ(emu_ssr_start(s, 6, EMU_SSR_NORMAL), -EBUSY);
	emu_ssr_reset(s);
	CHECK_EQ(emu_ssr_start(s, 6, EMU_SSR_NORMAL), 0);
	CHECK_EVENT(6, SSR_EV_BEFORE_SHUTDOWN);
}

/*
 * Answers that make no sense are dropped and counted: nothing is sent,
 * the SSR stays where it was, and the right answer still moves it on.
 * Each case differs from a good SSR_EVENT_RSP in one field.
 */
#define GOOD	0xdeadbeefu	/* this field as in a good answer */
static const struct {
	const char *what;
	uint32_t cmd, len, dbc;
	size_t bytes;
} drop_cases[] = {
	{ "cmd SSR_EVENT",		SSR_CMD_EVENT,	GOOD,	GOOD,	SSR_EVENT_LEN },
	{ "cmd DEBUG_XFER_INFO_RSP",	SSR_CMD_DEBUG_XFER_INFO_RSP, GOOD, GOOD, SSR_EVENT_LEN },
	{ "cmd 0",			0,		GOOD,	GOOD,	SSR_EVENT_LEN },
	{ "cmd RSP | EVENT",		0x300,		GOOD,	GOOD,	SSR_EVENT_LEN },
	{ "len 0",			GOOD,		0,	GOOD,	SSR_EVENT_LEN },
	{ "len 12",			GOOD,		12,	GOOD,	SSR_EVENT_LEN },
	{ "len 15",			GOOD,		15,	GOOD,	SSR_EVENT_LEN },
	{ "len 17",			GOOD,		17,	GOOD,	SSR_EVENT_LEN },
	{ "len 32",			GOOD,		32,	GOOD,	SSR_EVENT_LEN },
	{ "len huge",			GOOD,		0xffffffffu, GOOD, SSR_EVENT_LEN },
	{ "other DBC",			GOOD,		GOOD,	6,	SSR_EVENT_LEN },
	{ "DBC 16",			GOOD,		GOOD,	16,	SSR_EVENT_LEN },
	{ "DBC + 256",			GOOD,		GOOD,	5 + 256, SSR_EVENT_LEN },
	{ "0 bytes",			GOOD,		GOOD,	GOOD,	0 },
	{ "header only",		GOOD,		GOOD,	GOOD,	SSR_HDR_LEN },
	/* Two fields: a bare header, consistent with itself. */
	{ "header, len 12",		GOOD,		SSR_HDR_LEN, GOOD, SSR_HDR_LEN },
	{ "15 bytes",			GOOD,		GOOD,	GOOD,	15 },
	{ "20 bytes",			GOOD,		GOOD,	GOOD,	20 },
	{ "32 bytes",			GOOD,		GOOD,	GOOD,	32 },
};

static void test_dropped(void)
{
	for (unsigned int c = 0; c < sizeof(drop_cases) / sizeof(drop_cases[0]); c++) {
		unsigned int bad = 0;

		setup();
		CHECK_EQ(emu_ssr_start(s, 5, EMU_SSR_NORMAL), 0);
		for (unsigned int step = 0; step < 4; step++) {
			uint32_t cmd = drop_cases[c].cmd, len = drop_cases[c].len;
			uint32_t dbc = drop_cases[c].dbc;

			CHECK_EVENT(5, events[step]);
			answer_raw(cmd == GOOD ? SSR_CMD_EVENT_RSP : cmd,
				   len == GOOD ? SSR_EVENT_LEN : len,
				   dbc == GOOD ? 5 : dbc, events[step],
				   drop_cases[c].bytes);
			bad++;
			if (rec.n || rec.restored ||
			    counter("ssr_bad_msgs") != bad ||
			    counter("ssr_acks") != step ||
			    counter("ssr_nacks") != 0) {
				fprintf(stderr, "%s: case %s, step %u: sent %u restored %u bad %llu acks %llu nacks %llu\n",
					__func__, drop_cases[c].what, step,
					rec.n, rec.restored,
					counter("ssr_bad_msgs"),
					counter("ssr_acks"), counter("ssr_nacks"));
				emu_test_failures++;
				take();
			}
			answer(5, events[step]);
		}
		CHECK_NOTHING_SENT();
		CHECK_EQ(rec.restored, 1);
		CHECK_EQ(counter("ssr_events_sent"), 4);
	}

	/* With no SSR running, even a well-formed answer is dropped. */
	setup();
	answer(0, SSR_EV_BEFORE_SHUTDOWN);
	CHECK_NOTHING_SENT();
	CHECK_EQ(counter("ssr_bad_msgs"), 1);
	CHECK_EQ(rec.restored, 0);
}

/* One SSR at a time: any second start while one runs is refused. */
static void test_busy(void)
{
	static const enum emu_ssr_mode modes[] = {
		EMU_SSR_NORMAL, EMU_SSR_STALL, EMU_SSR_GARBAGE,
	};

	for (unsigned int first = 0; first < 3; first++) {
		setup();
		CHECK_EQ(emu_ssr_start(s, 3, modes[first]), 0);
		keep_last();
		CHECK_EVENT(3, SSR_EV_BEFORE_SHUTDOWN);
		for (unsigned int m = 0; m < 3; m++) {
			CHECK_EQ(emu_ssr_start(s, 3, modes[m]), -EBUSY);
			CHECK_EQ(emu_ssr_start(s, 4, modes[m]), -EBUSY);
		}
		CHECK_NOTHING_SENT();
		CHECK_EQ(counter("ssr_started"), 1);
		/* The first goes on undisturbed. */
		answer(3, SSR_EV_BEFORE_SHUTDOWN);
		for (unsigned int i = 1; i < 4; i++) {
			if (i == 2 && modes[first] == EMU_SSR_STALL) {
				CHECK_NOTHING_SENT();
				/* Stalled: still busy. */
				CHECK_EQ(emu_ssr_start(s, 4, EMU_SSR_NORMAL), -EBUSY);
				CHECK_EQ(emu_ssr_start(s, 3, EMU_SSR_RESUME), 0);
			}
			CHECK_EVENT(3, events[i]);
			answer(3, events[i]);
		}
		CHECK_EQ(rec.restored, 1);
		CHECK_EQ(emu_ssr_start(s, 4, EMU_SSR_NORMAL), 0);
	}

	/* A mode that is none: -EINVAL, nothing starts. */
	setup();
	CHECK_EQ(emu_ssr_start(s, 0, EMU_SSR_NR_MODES), -EINVAL);
	CHECK_EQ(emu_ssr_start(s, 0, (enum emu_ssr_mode)99), -EINVAL);
	CHECK_NOTHING_SENT();
	CHECK_EQ(counter("ssr_started"), 0);
	CHECK_EQ(emu_ssr_start(s, 0, EMU_SSR_NORMAL), 0);
	CHECK_EVENT(0, SSR_EV_BEFORE_SHUTDOWN);
}

/*
 * EMU_SSR_STALL: after the host acknowledged AFTER_SHUTDOWN the card holds
 * (sends nothing, takes no answer) until EMU_SSR_RESUME of the same DBC.
 */
static void test_stall(void)
{
	setup();
	CHECK_EQ(emu_ssr_start(s, 9, EMU_SSR_STALL), 0);
	CHECK_EVENT(9, SSR_EV_BEFORE_SHUTDOWN);
	/* Before the stall point, RESUME has nothing to resume. */
	CHECK_EQ(emu_ssr_start(s, 9, EMU_SSR_RESUME), -EINVAL);
	CHECK_NOTHING_SENT();
	answer(9, SSR_EV_BEFORE_SHUTDOWN);
	CHECK_EVENT(9, SSR_EV_AFTER_SHUTDOWN);
	answer(9, SSR_EV_NACK);			/* counted, nothing sent */
	CHECK_NOTHING_SENT();
	answer(9, SSR_EV_AFTER_SHUTDOWN);
	CHECK_NOTHING_SENT();			/* held */
	CHECK_EQ(rec.restored, 0);
	CHECK_EQ(counter("ssr_acks"), 2);

	/* Held: answers are dropped, the next event is not sent. */
	answer(9, SSR_EV_AFTER_SHUTDOWN);
	answer(9, SSR_EV_BEFORE_POWER_UP);
	answer(9, SSR_EV_NACK);
	CHECK_NOTHING_SENT();
	CHECK_EQ(counter("ssr_bad_msgs"), 3);
	CHECK_EQ(counter("ssr_acks"), 2);

	/* RESUME of another DBC, or a bad mode: refused. */
	CHECK_EQ(emu_ssr_start(s, 8, EMU_SSR_RESUME), -EINVAL);
	CHECK_EQ(emu_ssr_start(s, 9, EMU_SSR_NR_MODES), -EINVAL);
	CHECK_NOTHING_SENT();

	CHECK_EQ(emu_ssr_start(s, 9, EMU_SSR_RESUME), 0);
	CHECK_EVENT(9, SSR_EV_BEFORE_POWER_UP);
	/* Resumed once: a second RESUME has nothing to resume. */
	CHECK_EQ(emu_ssr_start(s, 9, EMU_SSR_RESUME), -EINVAL);
	CHECK_NOTHING_SENT();
	answer(9, SSR_EV_BEFORE_POWER_UP);
	CHECK_EVENT(9, SSR_EV_AFTER_POWER_UP);
	answer(9, SSR_EV_AFTER_POWER_UP);
	CHECK_NOTHING_SENT();
	CHECK_EQ(rec.restored, 1);
	CHECK_EQ(rec.restored_dbc, 9);
	CHECK_EQ(counter("ssr_started"), 1);
	CHECK_EQ(counter("ssr_completed"), 1);
	CHECK_EQ(counter("ssr_events_sent"), 4);
	CHECK_EQ(counter("ssr_nacks"), 1);
	CHECK_EQ(counter("ssr_acks"), 4);

	/* The stall was that SSR's: the next one, NORMAL, does not hold. */
	CHECK_EQ(emu_ssr_start(s, 9, EMU_SSR_NORMAL), 0);
	for (unsigned int i = 0; i < 4; i++) {
		CHECK_EVENT(9, events[i]);
		answer(9, events[i]);
	}
	CHECK_EQ(rec.restored, 2);
}

/*
 * The host shows AFTER_SHUTDOWN before its answer reaches the card: a
 * RESUME in between calls the stall off, and that answer goes on at once.
 */
static void test_resume_before_stall(void)
{
	setup();
	CHECK_EQ(emu_ssr_start(s, 4, EMU_SSR_STALL), 0);
	CHECK_EVENT(4, SSR_EV_BEFORE_SHUTDOWN);
	answer(4, SSR_EV_BEFORE_SHUTDOWN);
	CHECK_EVENT(4, SSR_EV_AFTER_SHUTDOWN);
	CHECK_EQ(emu_ssr_start(s, 3, EMU_SSR_RESUME), -EINVAL);
	CHECK_EQ(emu_ssr_start(s, 4, EMU_SSR_RESUME), 0);
	CHECK_NOTHING_SENT();
	/* Called off once: nothing left to resume. */
	CHECK_EQ(emu_ssr_start(s, 4, EMU_SSR_RESUME), -EINVAL);
	answer(4, SSR_EV_AFTER_SHUTDOWN);
	CHECK_EVENT(4, SSR_EV_BEFORE_POWER_UP);
	answer(4, SSR_EV_BEFORE_POWER_UP);
	CHECK_EVENT(4, SSR_EV_AFTER_POWER_UP);
	answer(4, SSR_EV_AFTER_POWER_UP);
	CHECK_NOTHING_SENT();
	CHECK_EQ(rec.restored, 1);
	CHECK_EQ(counter("ssr_acks"), 4);
	CHECK_EQ(counter("ssr_bad_msgs"), 0);
}

/*
 * EMU_SSR_FLOOD: the four events, again and again on the same DBC, a new
 * BEFORE_SHUTDOWN for each AFTER_POWER_UP acknowledged, the DBC given
 * back once after the last restart; the count is checked; another SSR is
 * refused meanwhile; a NACK holds the flood as it holds one restart; a
 * reset ends it, leftover restarts included.
 */
static void test_flood(void)
{
	setup();
	/* No count, or one past the most: refused, nothing sent. */
	CHECK_EQ(emu_ssr_start(s, 5, EMU_SSR_FLOOD), -EINVAL);
	CHECK_EQ(emu_ssr_start_cycles(s, 5, EMU_SSR_FLOOD, 0), -EINVAL);
	CHECK_EQ(emu_ssr_start_cycles(s, 5, EMU_SSR_FLOOD, EMU_SSR_MAX_CYCLES + 1),
		 -EINVAL);
	CHECK_EQ(emu_ssr_start_cycles(s, 5, EMU_SSR_NR_MODES, 3), -EINVAL);
	CHECK_NOTHING_SENT();
	CHECK_EQ(counter("ssr_started"), 0);

	CHECK_EQ(emu_ssr_start_cycles(s, 5, EMU_SSR_FLOOD, 3), 0);
	for (unsigned int c = 0; c < 3; c++) {
		for (unsigned int i = 0; i < 4; i++) {
			CHECK_EVENT(5, events[i]);
			CHECK_EQ(emu_ssr_start(s, 6, EMU_SSR_NORMAL), -EBUSY);
			CHECK_EQ(rec.restored, 0);
			if (c == 1 && i == 3) {
				answer(5, SSR_EV_NACK);	/* the card waits */
				CHECK_NOTHING_SENT();
			}
			answer(5, events[i]);
		}
	}
	CHECK_NOTHING_SENT();
	CHECK_EQ(rec.restored, 1);
	CHECK_EQ(rec.restored_dbc, 5);
	CHECK_EQ(counter("ssr_started"), 1);
	CHECK_EQ(counter("ssr_completed"), 1);
	CHECK_EQ(counter("ssr_flood_cycles"), 3);
	CHECK_EQ(counter("ssr_events_sent"), 12);
	CHECK_EQ(counter("ssr_acks"), 12);
	CHECK_EQ(counter("ssr_nacks"), 1);
	CHECK_EQ(counter("ssr_bad_msgs"), 0);

	/* The count is the flood's alone: NORMAL ignores one, restarts once. */
	CHECK_EQ(emu_ssr_start_cycles(s, 1, EMU_SSR_NORMAL, 7), 0);
	for (unsigned int i = 0; i < 4; i++) {
		CHECK_EVENT(1, events[i]);
		answer(1, events[i]);
	}
	CHECK_NOTHING_SENT();
	CHECK_EQ(rec.restored, 2);
	CHECK_EQ(counter("ssr_flood_cycles"), 3);

	/* A reset in the middle forgets the restarts still to come. */
	CHECK_EQ(emu_ssr_start_cycles(s, 2, EMU_SSR_FLOOD, 100), 0);
	for (unsigned int i = 0; i < 4; i++) {
		CHECK_EVENT(2, events[i]);
		answer(2, events[i]);
	}
	CHECK_EVENT(2, SSR_EV_BEFORE_SHUTDOWN);
	emu_ssr_reset(s);
	answer(2, SSR_EV_BEFORE_SHUTDOWN);		/* out of turn now */
	CHECK_NOTHING_SENT();
	CHECK_EQ(rec.restored, 2);
	CHECK_EQ(emu_ssr_start(s, 2, EMU_SSR_NORMAL), 0);
	for (unsigned int i = 0; i < 4; i++) {
		CHECK_EVENT(2, events[i]);
		answer(2, events[i]);
	}
	CHECK_NOTHING_SENT();
	CHECK_EQ(rec.restored, 3);
	CHECK_EQ(counter("ssr_flood_cycles"), 5);

	/* The most there may be, all the way. */
	setup();
	CHECK_EQ(emu_ssr_start_cycles(s, 15, EMU_SSR_FLOOD, EMU_SSR_MAX_CYCLES), 0);
	for (unsigned int c = 0; c < EMU_SSR_MAX_CYCLES; c++) {
		for (unsigned int i = 0; i < 4; i++) {
			take();
			answer(15, events[i]);
		}
	}
	CHECK_NOTHING_SENT();
	CHECK_EQ(rec.overflow, 0);
	CHECK_EQ(rec.restored, 1);
	CHECK_EQ(counter("ssr_flood_cycles"), EMU_SSR_MAX_CYCLES);
	CHECK_EQ(counter("ssr_acks"), 4ull * EMU_SSR_MAX_CYCLES);
}

/* RESUME with nothing stalled: -EINVAL, nothing sent, nothing started. */
static void test_resume_nothing(void)
{
	setup();
	for (unsigned int dbc = 0; dbc < EMU_NUM_DBC; dbc++)
		CHECK_EQ(emu_ssr_start(s, dbc, EMU_SSR_RESUME), -EINVAL);
	CHECK_NOTHING_SENT();
	CHECK_EQ(counter("ssr_started"), 0);

	/* A NORMAL SSR never stalls: RESUME at any step is refused. */
	CHECK_EQ(emu_ssr_start(s, 1, EMU_SSR_NORMAL), 0);
	for (unsigned int i = 0; i < 4; i++) {
		CHECK_EVENT(1, events[i]);
		CHECK_EQ(emu_ssr_start(s, 1, EMU_SSR_RESUME), -EINVAL);
		CHECK_NOTHING_SENT();
		answer(1, events[i]);
	}
	CHECK_EQ(rec.restored, 1);
	/* And after the end. */
	CHECK_EQ(emu_ssr_start(s, 1, EMU_SSR_RESUME), -EINVAL);
	CHECK_NOTHING_SENT();
	CHECK_EQ(counter("ssr_events_sent"), 4);
}

/*
 * EMU_SSR_GARBAGE: six malformed messages (as ssr.c lists them), then the
 * normal sequence, which they do not disturb.
 */
static void test_garbage(void)
{
	const uint8_t *m;

	setup();
	CHECK_EQ(emu_ssr_start(s, 4, EMU_SSR_GARBAGE), 0);
	CHECK_EQ(rec.n, 7);
	CHECK_EQ(counter("ssr_garbage_sent"), 6);
	CHECK_EQ(counter("ssr_events_sent"), 1);
	if (rec.n != 7)
		return;
	/* None of the six is a well-formed event of the current step. */
	for (unsigned int i = 0; i < 6; i++) {
		m = rec.msg[i];
		CHECK(rec.len[i] < SSR_EVENT_LEN ||
		      get_le32(m) != SSR_CMD_EVENT ||
		      get_le32(m + 4) != rec.len[i] ||
		      get_le32(m + 8) != 4 ||
		      get_le32(m + 12) != SSR_EV_BEFORE_SHUTDOWN);
		CHECK(rec.len[i] <= SSR_MAX_MSG);
	}
	/* A DBC the card does not have. */
	m = rec.msg[0];
	CHECK(rec.len[0] == 16 && get_le32(m) == SSR_CMD_EVENT &&
	      get_le32(m + 4) == 16 && get_le32(m + 8) == 16 &&
	      get_le32(m + 12) == SSR_EV_BEFORE_SHUTDOWN);
	/* A length longer than the message (and than any host buffer). */
	m = rec.msg[1];
	CHECK(rec.len[1] == 16 && get_le32(m) == SSR_CMD_EVENT &&
	      get_le32(m + 4) == SSR_MAX_MSG + 4 && get_le32(m + 8) == 4);
	/* Shorter than the header. */
	CHECK(rec.len[2] == 8 && get_le32(rec.msg[2] + 4) == 8);
	/* A command the host does not know. */
	m = rec.msg[3];
	CHECK(rec.len[3] == 16 && get_le32(m) == 0x4000 && get_le32(m + 8) == 4);
	/* Power-up before any shutdown. */
	m = rec.msg[4];
	CHECK(rec.len[4] == 16 && get_le32(m) == SSR_CMD_EVENT &&
	      get_le32(m + 4) == 16 && get_le32(m + 8) == 4 &&
	      get_le32(m + 12) == SSR_EV_AFTER_POWER_UP);
	/* None of the four events. */
	m = rec.msg[5];
	CHECK(rec.len[5] == 16 && get_le32(m) == SSR_CMD_EVENT &&
	      get_le32(m + 8) == 4 && get_le32(m + 12) == 0x80);

	/* Then the real first event, and the rest as usual. */
	keep_last();
	for (unsigned int i = 0; i < 4; i++) {
		CHECK_EVENT(4, events[i]);
		answer(4, events[i]);
	}
	CHECK_NOTHING_SENT();
	CHECK_EQ(rec.restored, 1);
	CHECK_EQ(rec.restored_dbc, 4);
	CHECK_EQ(counter("ssr_garbage_sent"), 6);
	CHECK_EQ(counter("ssr_events_sent"), 4);
	CHECK_EQ(counter("ssr_bad_msgs"), 0);
}

/*
 * emu_ssr_reset(): the SSR in progress, at any step and stalled or not, is
 * forgotten: its answers are dropped and a new one starts.
 */
static void test_reset(void)
{
	for (unsigned int at = 0; at < 5; at++) {
		bool stall = at == 4;	/* 4: reset while stalled */
		unsigned int steps = stall ? 2 : at;

		setup();
		emu_ssr_reset(s);		/* nothing to forget: harmless */
		CHECK_EQ(emu_ssr_start(s, 2, stall ? EMU_SSR_STALL : EMU_SSR_NORMAL), 0);
		for (unsigned int i = 0; i < steps; i++) {
			CHECK_EVENT(2, events[i]);
			answer(2, events[i]);
		}
		take();
		emu_ssr_reset(s);
		CHECK_NOTHING_SENT();
		CHECK_EQ(rec.restored, 0);
		/* The old SSR's answers: dropped. */
		answer(2, events[at < 4 ? at : 1]);
		answer(2, SSR_EV_NACK);
		CHECK_NOTHING_SENT();
		CHECK_EQ(counter("ssr_bad_msgs"), 2);
		CHECK_EQ(emu_ssr_start(s, 2, EMU_SSR_RESUME), -EINVAL);
		CHECK_NOTHING_SENT();

		/* A new one, of another DBC, runs from the start. */
		CHECK_EQ(emu_ssr_start(s, 11, EMU_SSR_NORMAL), 0);
		for (unsigned int i = 0; i < 4; i++) {
			CHECK_EVENT(11, events[i]);
			answer(11, events[i]);
		}
		CHECK_NOTHING_SENT();
		CHECK_EQ(rec.restored, 1);
		CHECK_EQ(rec.restored_dbc, 11);
		CHECK_EQ(counter("ssr_started"), 2);
		CHECK_EQ(counter("ssr_completed"), 1);
	}

	/* A STALL SSR forgotten before its stall: the next does not hold. */
	setup();
	CHECK_EQ(emu_ssr_start(s, 2, EMU_SSR_STALL), 0);
	emu_ssr_reset(s);
	take();
	CHECK_EQ(emu_ssr_start(s, 2, EMU_SSR_NORMAL), 0);
	for (unsigned int i = 0; i < 4; i++) {
		CHECK_EVENT(2, events[i]);
		answer(2, events[i]);
	}
	CHECK_EQ(rec.restored, 1);
}

/* The host's MEMORY_READ of @len bytes at @addr, for DBC @dbc. */
static void answer_read(unsigned int dbc, uint64_t addr, uint64_t len)
{
	uint8_t m[SSR_DUMP_MSG_LEN] = { 0 };

	put_le32(m, SSR_CMD_MEMORY_READ);
	put_le32(m + 4, SSR_DUMP_MSG_LEN);
	put_le32(m + 8, dbc);
	put_le64(m + 16, addr);
	put_le64(m + 24, len);
	emu_ssr_rx(s, m, sizeof(m));
}

/* One MEMORY_READ_RSP went out, with @len bytes of memory after its header. */
static void check_read_rsp(unsigned int dbc, uint64_t len, int line)
{
	const uint8_t *m = rec.msg[0];

	if (rec.n != 1 || rec.len[0] != SSR_READ_RSP_HDR_LEN + len ||
	    get_le32(m) != SSR_CMD_MEMORY_READ_RSP ||
	    get_le32(m + 4) != SSR_READ_RSP_HDR_LEN + len || get_le32(m + 8) != dbc) {
		fprintf(stderr, "line %d: expected one MEMORY_READ_RSP of %llu bytes for DBC%u; got %u message(s), first %zu bytes cmd %#x\n",
			line, (unsigned long long)len, dbc, rec.n, rec.n ? rec.len[0] : 0,
			rec.n ? get_le32(m) : 0);
		emu_test_failures++;
	}
}

/*
 * EMU_SSR_DUMP: the offer after BEFORE_POWER_UP, the table and the bytes
 * of the regions as memdump.h has them, memory the card lacks, the end;
 * then a host that declines.
 */
static void test_dump(void)
{
	const struct emu_memdump_region *r = &emu_memdump_regions[2];
	const uint64_t table_len = EMU_MEMDUMP_NR_REGIONS * EMU_MEMDUMP_ENTRY_LEN;
	const unsigned int dbc = 3;
	const uint8_t *m;

	setup();
	CHECK_EQ(emu_ssr_start(s, dbc, EMU_SSR_DUMP), 0);
	for (unsigned int i = 0; i < 3; i++) {
		CHECK_EVENT(dbc, events[i]);
		answer(dbc, events[i]);
	}
	m = rec.msg[0];
	CHECK(rec.n == 1 && rec.len[0] == SSR_DUMP_MSG_LEN);
	CHECK_EQ(get_le32(m), SSR_CMD_DEBUG_XFER_INFO);
	CHECK_EQ(get_le32(m + 4), SSR_DUMP_MSG_LEN);
	CHECK_EQ(get_le32(m + 8), dbc);
	CHECK_EQ(get_le64(m + 16), EMU_MEMDUMP_TABLE_ADDR);
	CHECK_EQ(get_le64(m + 24), table_len);
	take();
	answer_raw(SSR_CMD_DEBUG_XFER_INFO_RSP, SSR_EVENT_LEN, dbc, 0, SSR_EVENT_LEN);
	CHECK_NOTHING_SENT();

	/* The table: the third entry names the third region. */
	answer_read(dbc, EMU_MEMDUMP_TABLE_ADDR, table_len);
	check_read_rsp(dbc, table_len, __LINE__);
	m = rec.msg[0] + SSR_READ_RSP_HDR_LEN + 2 * EMU_MEMDUMP_ENTRY_LEN;
	CHECK_EQ(get_le64(m + 8), r->addr);
	CHECK_EQ(get_le64(m + 16), r->len);
	CHECK(!strcmp((const char *)m + 24, r->desc));
	take();

	/* A region's bytes, from an offset into it. */
	answer_read(dbc, r->addr + 3, r->len - 3);
	check_read_rsp(dbc, r->len - 3, __LINE__);
	for (uint64_t i = 0; i < r->len - 3; i++)
		CHECK_EQ(rec.msg[0][SSR_READ_RSP_HDR_LEN + i], emu_memdump_byte(2, i + 3));
	take();

	/* Past the region's end, and nowhere: the header alone. */
	answer_read(dbc, r->addr, r->len + 1);
	check_read_rsp(dbc, 0, __LINE__);
	take();
	answer_read(dbc, 0x1000, 8);
	check_read_rsp(dbc, 0, __LINE__);
	take();
	CHECK_EQ(counter("ssr_dump_reads"), 2);
	CHECK_EQ(counter("ssr_dump_bad_reads"), 2);
	CHECK_EQ(counter("ssr_dump_bytes"), table_len + r->len - 3);

	/* The end: DEBUG_XFER_DONE_RSP of status 0, then AFTER_POWER_UP. */
	answer_raw(SSR_CMD_DEBUG_XFER_DONE, SSR_EVENT_LEN, dbc, 0, SSR_EVENT_LEN);
	CHECK_EQ(rec.n, 2);
	m = rec.msg[0];
	CHECK(rec.len[0] == SSR_EVENT_LEN && get_le32(m) == SSR_CMD_DEBUG_XFER_DONE_RSP &&
	      get_le32(m + 4) == SSR_EVENT_LEN && get_le32(m + 8) == dbc && !get_le32(m + 12));
	keep_last();
	CHECK_EVENT(dbc, SSR_EV_AFTER_POWER_UP);
	answer(dbc, SSR_EV_AFTER_POWER_UP);
	CHECK_EQ(rec.restored, 1);
	CHECK_EQ(counter("ssr_dumps_offered"), 1);
	CHECK_EQ(counter("ssr_dumps_done"), 1);
	CHECK_EQ(counter("ssr_bad_msgs"), 0);

	/* Declined: AFTER_POWER_UP at once, and reads are no longer served. */
	CHECK_EQ(emu_ssr_start(s, dbc, EMU_SSR_DUMP), 0);
	for (unsigned int i = 0; i < 3; i++) {
		CHECK_EVENT(dbc, events[i]);
		answer(dbc, events[i]);
	}
	take();
	answer_raw(SSR_CMD_DEBUG_XFER_INFO_RSP, SSR_EVENT_LEN, dbc, 1, SSR_EVENT_LEN);
	CHECK_EVENT(dbc, SSR_EV_AFTER_POWER_UP);
	answer_read(dbc, EMU_MEMDUMP_TABLE_ADDR, 64);
	CHECK_NOTHING_SENT();
	CHECK_EQ(counter("ssr_dumps_declined"), 1);
	answer(dbc, SSR_EV_AFTER_POWER_UP);
	CHECK_EQ(rec.restored, 2);
	CHECK_EQ(rec.overflow, 0);
}

/* Up to the offer of an EMU_SSR_DUMP* restart of @dbc; the offer is kept. */
static void dump_offered(unsigned int dbc, enum emu_ssr_mode mode)
{
	setup();
	CHECK_EQ(emu_ssr_start(s, dbc, mode), 0);
	for (unsigned int i = 0; i < 3; i++) {
		CHECK_EVENT(dbc, events[i]);
		answer(dbc, events[i]);
	}
	CHECK(rec.n == 1 && get_le32(rec.msg[0]) == SSR_CMD_DEBUG_XFER_INFO);
}

/* EMU_SSR_DUMP_*: each fault, where the host meets it. */
static void test_dump_faults(void)
{
	const uint64_t table_len = EMU_MEMDUMP_NR_REGIONS * EMU_MEMDUMP_ENTRY_LEN;
	const struct emu_memdump_region *r = &emu_memdump_regions[1];
	const unsigned int dbc = 5;
	static const struct {
		enum emu_ssr_mode mode;
		uint64_t table_len;	/* the offer's */
		uint64_t second_read;	/* bytes answering a second read of 16 */
		uint32_t done_status;
		uint64_t lens[3];	/* the regions' in the table */
		uint64_t third_addr;	/* the third region's in the table */
	} faults[] = {
#define TABLE_LEN	(EMU_MEMDUMP_NR_REGIONS * EMU_MEMDUMP_ENTRY_LEN)
#define GOOD_LENS	{ 0x10000, 0x3001, 16 }
#define THIRD		0x0c300000ull
		{ EMU_SSR_DUMP, TABLE_LEN, 16, 0, GOOD_LENS, THIRD },
		{ EMU_SSR_DUMP_BAD_LENGTH, TABLE_LEN + 8, 16, 0, GOOD_LENS, THIRD },
		{ EMU_SSR_DUMP_TOO_MANY, EMU_MEMDUMP_TOO_MANY_ENTRIES * EMU_MEMDUMP_ENTRY_LEN, 16, 0,
		  GOOD_LENS, THIRD },
		{ EMU_SSR_DUMP_HUGE, TABLE_LEN, 16, 0, { EMU_MEMDUMP_HUGE_LEN, 0x3001, 16 }, THIRD },
		{ EMU_SSR_DUMP_SHORT_READ, TABLE_LEN, 15, 0, GOOD_LENS, THIRD },
		{ EMU_SSR_DUMP_LONG_READ, TABLE_LEN, 17, 0, GOOD_LENS, THIRD },
		{ EMU_SSR_DUMP_DONE_FAILS, TABLE_LEN, 16, 1, GOOD_LENS, THIRD },
		{ EMU_SSR_DUMP_EMPTY_REGION, TABLE_LEN, 16, 0, { 0x10000, 0, 16 }, THIRD },
		{ EMU_SSR_DUMP_WRAPPING_REGION, TABLE_LEN, 16, 0, GOOD_LENS,
		  EMU_SSR_DUMP_WRAP_ADDR },
#undef TABLE_LEN
#undef GOOD_LENS
#undef THIRD
	};
	const uint8_t *m;

	for (unsigned int i = 0; i < 3; i++)
		CHECK_EQ(faults[0].lens[i], emu_memdump_regions[i].len);
	CHECK_EQ(faults[0].third_addr, emu_memdump_regions[2].addr);

	for (unsigned int f = 0; f < sizeof(faults) / sizeof(faults[0]); f++) {
		dump_offered(dbc, faults[f].mode);
		CHECK_EQ(get_le64(rec.msg[0] + 24), faults[f].table_len);
		take();
		answer_raw(SSR_CMD_DEBUG_XFER_INFO_RSP, SSR_EVENT_LEN, dbc, 0, SSR_EVENT_LEN);

		/* The table: the regions' lengths, the third one's address. */
		answer_read(dbc, EMU_MEMDUMP_TABLE_ADDR, table_len);
		check_read_rsp(dbc, table_len, __LINE__);
		m = rec.msg[0] + SSR_READ_RSP_HDR_LEN;
		for (unsigned int i = 0; i < 3; i++)
			CHECK_EQ(get_le64(m + i * EMU_MEMDUMP_ENTRY_LEN + 16), faults[f].lens[i]);
		CHECK_EQ(get_le64(m + 2 * EMU_MEMDUMP_ENTRY_LEN + 8), faults[f].third_addr);
		take();

		/* A read of a part of the table has the fault too. */
		answer_read(dbc, EMU_MEMDUMP_TABLE_ADDR + 2 * EMU_MEMDUMP_ENTRY_LEN + 12, 8);
		check_read_rsp(dbc, 8, __LINE__);
		CHECK_EQ(get_le64(rec.msg[0] + SSR_READ_RSP_HDR_LEN),
			 faults[f].lens[2] << 32 | faults[f].third_addr >> 32);
		take();

		/* Two reads of a region: the second one's length is the fault's. */
		answer_read(dbc, r->addr, 16);
		check_read_rsp(dbc, 16, __LINE__);
		take();
		answer_read(dbc, r->addr + 16, 16);
		check_read_rsp(dbc, faults[f].second_read, __LINE__);
		take();

		answer_raw(SSR_CMD_DEBUG_XFER_DONE, SSR_EVENT_LEN, dbc, 0, SSR_EVENT_LEN);
		CHECK_EQ(rec.n, 2);
		CHECK_EQ(get_le32(rec.msg[0]), SSR_CMD_DEBUG_XFER_DONE_RSP);
		CHECK_EQ(get_le32(rec.msg[0] + 12), faults[f].done_status);
		keep_last();
		CHECK_EVENT(dbc, SSR_EV_AFTER_POWER_UP);
		answer(dbc, SSR_EV_AFTER_POWER_UP);
		CHECK_EQ(rec.restored, 1);
	}
}

/* Up to the host's read of the table of an accepted offer of @mode. */
static void dump_table_read(unsigned int dbc, enum emu_ssr_mode mode)
{
	const uint64_t table_len = EMU_MEMDUMP_NR_REGIONS * EMU_MEMDUMP_ENTRY_LEN;

	dump_offered(dbc, mode);
	take();
	answer_raw(SSR_CMD_DEBUG_XFER_INFO_RSP, SSR_EVENT_LEN, dbc, 0, SSR_EVENT_LEN);
	if (mode == EMU_SSR_DUMP_OFFER_TWICE) {
		/* The second offer, the first's twin, at once. */
		CHECK(rec.n == 1 && get_le32(rec.msg[0]) == SSR_CMD_DEBUG_XFER_INFO);
		CHECK_EQ(get_le64(rec.msg[0] + 24), table_len);
		take();
	}
	CHECK_NOTHING_SENT();
	answer_read(dbc, EMU_MEMDUMP_TABLE_ADDR, table_len);
	check_read_rsp(dbc, table_len, __LINE__);
	take();
}

/* The host ends the dump; the card answers status 0, then AFTER_POWER_UP. */
static void dump_done(unsigned int dbc)
{
	answer_raw(SSR_CMD_DEBUG_XFER_DONE, SSR_EVENT_LEN, dbc, 0, SSR_EVENT_LEN);
	CHECK_EQ(rec.n, 2);
	CHECK_EQ(get_le32(rec.msg[0]), SSR_CMD_DEBUG_XFER_DONE_RSP);
	CHECK_EQ(get_le32(rec.msg[0] + 12), 0);
	keep_last();
	CHECK_EVENT(dbc, SSR_EV_AFTER_POWER_UP);
	answer(dbc, SSR_EV_AFTER_POWER_UP);
	CHECK_EQ(rec.restored, 1);
}

/* EMU_SSR_DUMP_OFFER_TWICE, _LATE_ANSWER, _CUT_SHORT, _STALL: the dump out of order. */
static void test_dump_order(void)
{
	const struct emu_memdump_region *r = &emu_memdump_regions[2];
	const unsigned int dbc = 6;

	/* A second offer: its decline leaves the first dump going. */
	dump_table_read(dbc, EMU_SSR_DUMP_OFFER_TWICE);
	answer_raw(SSR_CMD_DEBUG_XFER_INFO_RSP, SSR_EVENT_LEN, dbc, 1, SSR_EVENT_LEN);
	CHECK_NOTHING_SENT();
	CHECK_EQ(counter("ssr_dumps_declined"), 1);
	answer_read(dbc, r->addr, r->len);
	check_read_rsp(dbc, r->len, __LINE__);
	take();
	dump_done(dbc);
	CHECK_EQ(counter("ssr_dumps_offered"), 2);
	CHECK_EQ(counter("ssr_bad_msgs"), 0);

	/* ... and a host that takes the second offer too is told off. */
	dump_table_read(dbc, EMU_SSR_DUMP_OFFER_TWICE);
	answer_raw(SSR_CMD_DEBUG_XFER_INFO_RSP, SSR_EVENT_LEN, dbc, 0, SSR_EVENT_LEN);
	CHECK_NOTHING_SENT();
	CHECK_EQ(counter("ssr_bad_msgs"), 1);
	dump_done(dbc);

	/* An answer after the end, to no read: before AFTER_POWER_UP. */
	dump_table_read(dbc, EMU_SSR_DUMP_LATE_ANSWER);
	answer_raw(SSR_CMD_DEBUG_XFER_DONE, SSR_EVENT_LEN, dbc, 0, SSR_EVENT_LEN);
	CHECK_EQ(rec.n, 3);
	CHECK_EQ(get_le32(rec.msg[0]), SSR_CMD_DEBUG_XFER_DONE_RSP);
	CHECK_EQ(get_le32(rec.msg[1]), SSR_CMD_MEMORY_READ_RSP);
	CHECK_EQ(rec.len[1], SSR_READ_RSP_HDR_LEN + 16);
	CHECK_EQ(get_le32(rec.msg[1] + 8), dbc);
	for (unsigned int i = 0; i < 16; i++)
		CHECK_EQ(rec.msg[1][SSR_READ_RSP_HDR_LEN + i], emu_memdump_byte(0, i));
	keep_last();
	CHECK_EVENT(dbc, SSR_EV_AFTER_POWER_UP);
	answer(dbc, SSR_EV_AFTER_POWER_UP);
	CHECK_EQ(rec.restored, 1);

	/* The restart goes on at the first read of a region, not answered. */
	dump_table_read(dbc, EMU_SSR_DUMP_CUT_SHORT);
	answer_read(dbc, r->addr, r->len);
	CHECK_EVENT(dbc, SSR_EV_AFTER_POWER_UP);
	/* The host's end of the dump it abandoned is no longer taken. */
	answer_raw(SSR_CMD_DEBUG_XFER_DONE, SSR_EVENT_LEN, dbc, 0, SSR_EVENT_LEN);
	CHECK_NOTHING_SENT();
	CHECK_EQ(counter("ssr_bad_msgs"), 1);
	answer(dbc, SSR_EV_AFTER_POWER_UP);
	CHECK_EQ(rec.restored, 1);
	CHECK_EQ(counter("ssr_dumps_done"), 0);

	/* A stalled card: no read of a region answered, until the host ends it. */
	dump_table_read(dbc, EMU_SSR_DUMP_STALL);
	answer_read(dbc, r->addr, r->len);
	CHECK_NOTHING_SENT();
	answer_read(dbc, r->addr, r->len);
	CHECK_NOTHING_SENT();
	dump_done(dbc);
	CHECK_EQ(counter("ssr_bad_msgs"), 0);
}

static void test_counters_print(void)
{
	static const char *const keys[] = {
		"ssr_started", "ssr_completed", "ssr_events_sent", "ssr_acks",
		"ssr_nacks", "ssr_bad_msgs", "ssr_garbage_sent",
	};

	setup();
	for (unsigned int i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		CHECK_EQ(counter(keys[i]), 0);
	CHECK_EQ(counter("ssr_no_such_counter"), ~0ull);
}

/* ------------------------------------------------------------------ */
/* EMU_PT_SSR through the manager (NNC 5.0 messages, as test_manager.c). */

enum {
	PT_FROM_DEV = 3, PT_TO_DEV = 4, ACT_FROM_DEV = 8, ACT_TO_DEV = 9,
};

#define MAGIC		0x43494151u
#define RING_GPA	0x100000ull

static struct emu_manager *mgr;
static uint8_t mbuf[256], rsp[4096];
static uint32_t mlen, mcount, seq;
static size_t rlen;

static void mb_init(uint32_t handle)
{
	memset(mbuf, 0, sizeof(mbuf));
	put_le32(mbuf + 4, MAGIC);
	put_le32(mbuf + 8, ++seq);
	put_le32(mbuf + 20, handle);
	put_le32(mbuf + 24, 0xffffffffu);
	mlen = 32;
	mcount = 0;
}

static uint8_t *mb_trans(uint32_t type, uint32_t len)
{
	uint8_t *p = mbuf + mlen;

	put_le32(p, type);
	put_le32(p + 4, len);
	mlen += len;
	mcount++;
	return p;
}

static void mb_send(void)
{
	put_le32(mbuf + 12, mlen);
	put_le32(mbuf + 16, mcount);
	memset(rsp, 0xa5, sizeof(rsp));
	rlen = emu_manager_handle(mgr, mbuf, mlen, rsp, sizeof(rsp));
}

/* Transaction 0 of the answer, the only one, of @type and @len bytes. */
static const uint8_t *only_trans(uint32_t type, uint32_t len)
{
	if (rlen != 32u + len || get_le32(rsp + 4) != MAGIC ||
	    get_le32(rsp + 12) != rlen || get_le32(rsp + 16) != 1 ||
	    get_le32(rsp + 32) != type || get_le32(rsp + 36) != len)
		return NULL;
	return rsp + 32;
}

/*
 * EMU_PT_SSR of DBC @arg; @with_mode: @mode follows the request, then
 * @cycles (a passthrough payload is 64-bit aligned: the padding word, but
 * EMU_SSR_FLOOD's count). Returns the answer's status, or ~0 for an answer
 * that is not a struct emu_pt_status for this request.
 */
static uint32_t pt_ssr_cycles(uint32_t arg, uint32_t mode, uint32_t cycles,
			      bool with_mode)
{
	uint8_t *p;
	const uint8_t *t;

	mb_init(1);
	p = mb_trans(PT_TO_DEV, with_mode ? 24 : 16);
	put_le32(p + 8, EMU_PT_SSR);
	put_le32(p + 12, arg);
	if (with_mode) {
		put_le32(p + 16, mode);
		put_le32(p + 20, cycles);
	}
	mb_send();
	t = only_trans(PT_FROM_DEV, 8 + sizeof(struct emu_pt_status));
	if (!t || get_le32(t + 8) != EMU_PT_SSR || get_le32(t + 12) != arg)
		return ~0u;
	return get_le32(t + 16);
}

static uint32_t pt_ssr(uint32_t arg, uint32_t mode, bool with_mode)
{
	return pt_ssr_cycles(arg, mode, 0, with_mode);
}

/* Activate a DBC for handle 1: its id, or -1 (status in the stderr). */
static int activate(void)
{
	const uint32_t nelem = 16, buf_len = 4096;
	const uint8_t *t;
	uint8_t *p;

	mb_init(1);
	p = mb_trans(ACT_TO_DEV, 40);
	put_le64(p + 8, RING_GPA);
	put_le64(p + 16, RING_GPA + buf_len - nelem * 4);
	put_le32(p + 24, nelem);
	put_le32(p + 28, nelem);
	put_le32(p + 32, buf_len);
	mb_send();
	t = only_trans(ACT_FROM_DEV, 24);
	if (!t || get_le32(t + 8) != EMU_NNC_OK)
		return -1;
	return (int)get_le32(t + 12);
}

static bool dbc_active(unsigned int id)
{
	const struct emu_dbc_cfg *d = emu_manager_dbc(mgr, id);

	return d && d->active;
}

/* The stand-in card and DBC engine. */
static unsigned int card_ssr_calls, card_ssr_dbc, card_ssr_mode, card_ssr_cycles;
static int card_ssr_ret;
static unsigned int released[EMU_NUM_DBC];

static int fake_card_ssr(void *ctx, unsigned int dbc, unsigned int mode,
			 unsigned int cycles)
{
	(void)ctx;
	card_ssr_calls++;
	card_ssr_dbc = dbc;
	card_ssr_mode = mode;
	card_ssr_cycles = cycles;
	return card_ssr_ret;
}

static void fake_changed(void *ctx, unsigned int id, bool active)
{
	(void)ctx;
	if (!active && id < EMU_NUM_DBC)
		released[id]++;
}

static const struct emu_card_ops ssr_card_ops = { .ssr = fake_card_ssr };
static const struct emu_dbc_ops changed_ops = { .changed = fake_changed };

static void mgr_setup(void)
{
	if (mgr)
		emu_manager_destroy(mgr);
	mgr = emu_manager_create(&dev);
	if (!mgr)
		abort();
	emu_manager_set_dbc_ops(mgr, &changed_ops, NULL);
	emu_manager_set_card_ops(mgr, &ssr_card_ops, NULL);
	card_ssr_calls = 0;
	card_ssr_ret = 0;
	memset(released, 0, sizeof(released));
}

/* Refusals: EMU_PT_E_RANGE, EMU_PT_E_DBC, EMU_PT_E_BUSY, as documented. */
static void test_pt_refused(void)
{
	static const struct emu_card_ops no_ssr = { .ssr = NULL };

	mgr_setup();
	CHECK_EQ(activate(), 0);
	CHECK_EQ(activate(), 1);

	/* A card that cannot: no ops, or ops without .ssr. */
	emu_manager_set_card_ops(mgr, NULL, NULL);
	CHECK_EQ(pt_ssr(0, EMU_SSR_NORMAL, true), EMU_PT_E_RANGE);
	emu_manager_set_card_ops(mgr, &no_ssr, NULL);
	CHECK_EQ(pt_ssr(0, EMU_SSR_NORMAL, false), EMU_PT_E_RANGE);
	emu_manager_set_card_ops(mgr, &ssr_card_ops, NULL);

	/* A bad mode. */
	CHECK_EQ(pt_ssr(0, EMU_SSR_NR_MODES, true), EMU_PT_E_RANGE);
	CHECK_EQ(pt_ssr(0, 0xffffffffu, true), EMU_PT_E_RANGE);
	/* A DBC that is not active, or none at all. */
	CHECK_EQ(pt_ssr(2, EMU_SSR_NORMAL, true), EMU_PT_E_DBC);
	CHECK_EQ(pt_ssr(15, EMU_SSR_STALL, true), EMU_PT_E_DBC);
	CHECK_EQ(pt_ssr(EMU_NUM_DBC, EMU_SSR_NORMAL, true), EMU_PT_E_DBC);
	CHECK_EQ(pt_ssr(0xffffffffu, EMU_SSR_NORMAL, false), EMU_PT_E_DBC);
	CHECK_EQ(pt_ssr(EMU_NUM_DBC, EMU_SSR_RESUME, true), EMU_PT_E_DBC);
	CHECK_EQ(card_ssr_calls, 0);
	CHECK(dbc_active(0) && dbc_active(1));

	/* The card says another SSR runs: EMU_PT_E_BUSY, the DBC stays. */
	card_ssr_ret = -EBUSY;
	CHECK_EQ(pt_ssr(1, EMU_SSR_NORMAL, true), EMU_PT_E_BUSY);
	CHECK_EQ(card_ssr_calls, 1);
	CHECK(dbc_active(1));
	CHECK_EQ(released[1], 0);
	/* Any other refusal of the card's (RESUME of nothing): E_RANGE. */
	card_ssr_ret = -EINVAL;
	CHECK_EQ(pt_ssr(1, EMU_SSR_RESUME, true), EMU_PT_E_RANGE);
	CHECK_EQ(pt_ssr(1, EMU_SSR_NORMAL, true), EMU_PT_E_RANGE);
	CHECK_EQ(card_ssr_calls, 3);
	CHECK(dbc_active(1));
	CHECK_EQ(released[1], 0);
	/* Refused, DBC 1 is not under SSR: released later, granted again. */
	card_ssr_ret = 0;
	mb_init(1);
	{
		uint8_t *p = mb_trans(PT_TO_DEV, 16);

		put_le32(p + 8, EMU_PT_DEACTIVATE);
		put_le32(p + 12, 1);
	}
	mb_send();
	CHECK(!dbc_active(1));
	CHECK_EQ(activate(), 1);
}

/*
 * An accepted EMU_PT_SSR: the card is told (mode as sent, NORMAL when
 * absent), the DBC is released at once, activate passes it over until
 * emu_manager_ssr_done(), a second SSR of it is refused, RESUME reaches
 * the card without an active DBC, and a reset ends every SSR.
 */
static void test_pt_ssr(void)
{
	mgr_setup();
	CHECK_EQ(activate(), 0);
	CHECK_EQ(activate(), 1);

	CHECK_EQ(pt_ssr(0, 0, false), EMU_PT_OK);		/* no mode: NORMAL */
	CHECK_EQ(card_ssr_calls, 1);
	CHECK_EQ(card_ssr_dbc, 0);
	CHECK_EQ(card_ssr_mode, EMU_SSR_NORMAL);
	CHECK(!dbc_active(0));
	CHECK_EQ(released[0], 1);
	CHECK(dbc_active(1));
	CHECK_EQ(released[1], 0);

	/* Under SSR: skipped by activate, refused a second SSR. */
	CHECK_EQ(activate(), 2);
	CHECK_EQ(pt_ssr(0, EMU_SSR_NORMAL, true), EMU_PT_E_DBC);
	CHECK_EQ(card_ssr_calls, 1);
	/* RESUME needs no active DBC: it goes to the card. */
	CHECK_EQ(pt_ssr(0, EMU_SSR_RESUME, true), EMU_PT_OK);
	CHECK_EQ(card_ssr_calls, 2);
	CHECK_EQ(card_ssr_mode, EMU_SSR_RESUME);
	CHECK_EQ(activate(), 3);			/* still under SSR */
	CHECK_EQ(released[0], 1);

	/* Back: granted again, to the next activate. */
	emu_manager_ssr_done(mgr, 0);
	emu_manager_ssr_done(mgr, EMU_NUM_DBC);		/* ignored */
	CHECK_EQ(activate(), 0);

	/* The mode after the request reaches the card. */
	CHECK_EQ(pt_ssr(3, EMU_SSR_STALL, true), EMU_PT_OK);
	CHECK_EQ(card_ssr_dbc, 3);
	CHECK_EQ(card_ssr_mode, EMU_SSR_STALL);
	CHECK_EQ(pt_ssr(2, EMU_SSR_NORMAL, true), EMU_PT_OK);
	CHECK_EQ(card_ssr_dbc, 2);
	CHECK_EQ(card_ssr_mode, EMU_SSR_NORMAL);
	CHECK_EQ(pt_ssr(1, EMU_SSR_GARBAGE, true), EMU_PT_OK);
	CHECK_EQ(card_ssr_mode, EMU_SSR_GARBAGE);
	CHECK_EQ(card_ssr_cycles, 0);
	CHECK(!dbc_active(1) && !dbc_active(2) && !dbc_active(3));
	CHECK(dbc_active(0));
	CHECK_EQ(activate(), 4);
	/* A flood's count, the word after the mode, reaches the card. */
	CHECK_EQ(pt_ssr_cycles(4, EMU_SSR_FLOOD, 200, true), EMU_PT_OK);
	CHECK_EQ(card_ssr_dbc, 4);
	CHECK_EQ(card_ssr_mode, EMU_SSR_FLOOD);
	CHECK_EQ(card_ssr_cycles, 200);
	CHECK(!dbc_active(4));
	CHECK_EQ(activate(), 5);

	/* A card reset ends them all. */
	emu_manager_reset(mgr);
	for (int i = 0; i < 5; i++)
		CHECK_EQ(activate(), i);
}

/*
 * The manager and ssr.c joined as main.c and mhi.c join them: EMU_PT_SSR
 * starts the card's SSR, the host's acks walk it, the last one gives the
 * DBC back; a second SSR while one runs answers EMU_PT_E_BUSY.
 */
static int joined_ssr(void *ctx, unsigned int dbc, unsigned int mode,
		      unsigned int cycles)
{
	(void)ctx;
	return emu_ssr_start_cycles(s, dbc, (enum emu_ssr_mode)mode, cycles);
}

static void joined_restored(void *ctx, unsigned int dbc)
{
	fake_restored(ctx, dbc);
	emu_manager_ssr_done(mgr, dbc);
}

static void test_pt_joined(void)
{
	static const struct emu_card_ops card = { .ssr = joined_ssr };
	static const struct emu_ssr_ops ops = {
		.send = fake_send, .restored = joined_restored,
	};

	mgr_setup();
	emu_manager_set_card_ops(mgr, &card, NULL);
	setup();
	emu_ssr_destroy(s);
	s = emu_ssr_create(&dev, &ops, NULL);
	if (!s)
		abort();

	CHECK_EQ(activate(), 0);
	CHECK_EQ(activate(), 1);
	CHECK_EQ(pt_ssr(0, EMU_SSR_STALL, true), EMU_PT_OK);
	CHECK_EVENT(0, SSR_EV_BEFORE_SHUTDOWN);
	CHECK(!dbc_active(0));
	CHECK_EQ(pt_ssr(1, EMU_SSR_NORMAL, true), EMU_PT_E_BUSY);
	CHECK_NOTHING_SENT();
	CHECK(dbc_active(1));
	/* RESUME too early: the card refuses, EMU_PT_E_RANGE. */
	CHECK_EQ(pt_ssr(0, EMU_SSR_RESUME, true), EMU_PT_E_RANGE);
	answer(0, SSR_EV_BEFORE_SHUTDOWN);
	CHECK_EVENT(0, SSR_EV_AFTER_SHUTDOWN);
	answer(0, SSR_EV_AFTER_SHUTDOWN);
	CHECK_NOTHING_SENT();
	CHECK_EQ(activate(), 2);			/* DBC 0 still away */
	CHECK_EQ(pt_ssr(0, EMU_SSR_RESUME, true), EMU_PT_OK);
	CHECK_EVENT(0, SSR_EV_BEFORE_POWER_UP);
	answer(0, SSR_EV_BEFORE_POWER_UP);
	CHECK_EVENT(0, SSR_EV_AFTER_POWER_UP);
	CHECK_EQ(activate(), 3);
	answer(0, SSR_EV_AFTER_POWER_UP);
	CHECK_EQ(rec.restored, 1);
	CHECK_EQ(activate(), 0);			/* back */

	/*
	 * A flood without a count: the card refuses, the DBC stays; with
	 * one, the DBC comes back only after the last restart.
	 */
	CHECK_EQ(pt_ssr(0, EMU_SSR_FLOOD, true), EMU_PT_E_RANGE);
	CHECK(dbc_active(0));
	CHECK_EQ(pt_ssr_cycles(0, EMU_SSR_FLOOD, 2, true), EMU_PT_OK);
	CHECK(!dbc_active(0));
	for (unsigned int c = 0; c < 2; c++) {
		for (unsigned int i = 0; i < 4; i++) {
			CHECK_EVENT(0, events[i]);
			CHECK_EQ(activate(), 4 + c * 4 + i);
			answer(0, events[i]);
		}
	}
	CHECK_NOTHING_SENT();
	CHECK_EQ(rec.restored, 2);
	CHECK_EQ(activate(), 0);			/* back */

	CHECK_EQ(pt_ssr(1, EMU_SSR_NORMAL, true), EMU_PT_OK);
	CHECK_EVENT(1, SSR_EV_BEFORE_SHUTDOWN);
	CHECK(!dbc_active(1));
}

int main(void)
{
	RUN(test_constants);
	RUN(test_normal);
	RUN(test_no_restored_hook);
	RUN(test_nack);
	RUN(test_dropped);
	RUN(test_busy);
	RUN(test_stall);
	RUN(test_resume_before_stall);
	RUN(test_flood);
	RUN(test_resume_nothing);
	RUN(test_garbage);
	RUN(test_reset);
	RUN(test_dump);
	RUN(test_dump_faults);
	RUN(test_dump_order);
	RUN(test_counters_print);
	RUN(test_pt_refused);
	RUN(test_pt_ssr);
	RUN(test_pt_joined);
	emu_ssr_destroy(s);
	emu_manager_destroy(mgr);
	return emu_test_exit();
}
