// SPDX-License-Identifier: GPL-2.0-only
/*
 * The systematic SSR and RAS case tables (ssr_cases.c, ras_cases.c): names
 * unique and parsed back, the messages built as the tables say, and every
 * case's verdict the one a host following the rules of qaic_ssr.c and
 * qaic_ras.c (modelled here) reaches. Then the cases sent through ssr.c
 * and ras.c as EMU_PT_CARD_CASE sends them. The boot log cases
 * (bootlog_cases.c) likewise, against qaic_bootlog.c's rules, and sent
 * through bootlog.c in the boot they are armed for.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "bhi.h"
#include "bhi_cases.h"
#include "bootlog.h"
#include "bootlog_cases.h"
#include "dbc_cases.h"
#include "device.h"
#include "mhi_cases.h"
#include "emu_test.h"
#include "le_bytes.h"
#include "ras.h"
#include "ras_cases.h"
#include "ssr.h"
#include "ssr_cases.h"
#include "timesync.h"
#include "timesync_cases.h"

static struct emu_device dev;	/* for emu_log(); not verbose */

/* ---- the host's rules, as qaic_ssr.c has them ---- */
#define HOST_SSR_BUF	32
#define NR_DBC		16

static unsigned int step_of(uint32_t event)
{
	switch (event) {
	case SSR_EV_BEFORE_SHUTDOWN:
		return EMU_SSR_STATE_BEFORE_SHUTDOWN;
	case SSR_EV_AFTER_SHUTDOWN:
		return EMU_SSR_STATE_AFTER_SHUTDOWN;
	case SSR_EV_BEFORE_POWER_UP:
		return EMU_SSR_STATE_BEFORE_POWER_UP;
	case SSR_EV_AFTER_POWER_UP:
		return EMU_SSR_STATE_AFTER_POWER_UP;
	default:
		return EMU_SSR_STATE_IDLE;
	}
}

/* One message into the states of the 16 DBCs. */
static void host_ssr(unsigned int *state, const uint8_t *m, size_t len)
{
	uint32_t cmd, mlen, dbc;
	unsigned int step;

	if (len > HOST_SSR_BUF || len < SSR_HDR_LEN)
		return;
	cmd = get_le32(m);
	mlen = get_le32(m + 4);
	dbc = get_le32(m + 8);
	if (mlen < SSR_EVENT_LEN || mlen > len || dbc >= NR_DBC || cmd != SSR_CMD_EVENT)
		return;
	step = step_of(get_le32(m + 12));
	if (step == EMU_SSR_STATE_IDLE)
		return;
	if (step != EMU_SSR_STATE_BEFORE_SHUTDOWN && state[dbc] != step - 1)
		return;
	state[dbc] = step == EMU_SSR_STATE_AFTER_POWER_UP ? EMU_SSR_STATE_IDLE : step;
}

static void test_ssr_table(void)
{
	uint8_t buf[EMU_SSR_CASE_MAX_LEN];

	CHECK(emu_ssr_nr_cases > 50);
	for (unsigned int i = 0; i < emu_ssr_nr_cases; i++) {
		const struct emu_ssr_case *c = &emu_ssr_cases[i];
		unsigned int state[NR_DBC];

		CHECK(c->name && *c->name);
		CHECK_EQ(emu_ssr_case_parse(c->name), i);
		CHECK(c->dbc < NR_DBC);
		CHECK(c->nr_msgs >= 1 && c->nr_msgs <= EMU_SSR_CASE_MSGS);
		for (unsigned int j = 0; j < i; j++)
			CHECK(strcmp(c->name, emu_ssr_cases[j].name));
		for (unsigned int d = 0; d < NR_DBC; d++)
			state[d] = EMU_SSR_STATE_ASSIGNED;
		for (unsigned int m = 0; m < c->nr_msgs; m++) {
			size_t len = emu_ssr_case_msg(c, m, buf);

			CHECK(len <= EMU_SSR_CASE_MAX_LEN);
			host_ssr(state, buf, len);
		}
		if (state[c->dbc] != c->state)
			fprintf(stderr, "ssr case %s: the host model says %s, the table %s\n",
				c->name, emu_ssr_case_state_name(state[c->dbc]),
				emu_ssr_case_state_name(c->state));
		CHECK_EQ(state[c->dbc], c->state);
		/* No case moves a DBC but its own. */
		for (unsigned int d = 0; d < NR_DBC; d++)
			if (d != c->dbc)
				CHECK_EQ(state[d], EMU_SSR_STATE_ASSIGNED);
	}
	CHECK_EQ(emu_ssr_case_parse("0"), 0);
	CHECK_EQ(emu_ssr_case_parse("no-such-case"), -1);
	CHECK_EQ(emu_ssr_case_parse("100000"), -1);

	/* "good" is an event as ssr.c sends it. */
	CHECK_EQ(emu_ssr_case_msg(&emu_ssr_cases[emu_ssr_case_parse("good")], 0, buf),
		 SSR_EVENT_LEN);
	CHECK_EQ(get_le32(buf), SSR_CMD_EVENT);
	CHECK_EQ(get_le32(buf + 4), SSR_EVENT_LEN);
	CHECK_EQ(get_le32(buf + 8), 1);
	CHECK_EQ(get_le32(buf + 12), SSR_EV_BEFORE_SHUTDOWN);
	CHECK_EQ(emu_ssr_case_msg(&emu_ssr_cases[emu_ssr_case_parse("dbc-16")], 0, buf),
		 SSR_EVENT_LEN);
	CHECK_EQ(get_le32(buf + 8), 16);
	CHECK_EQ(emu_ssr_case_msg(&emu_ssr_cases[emu_ssr_case_parse("bytes-0")], 0, buf), 0);
	CHECK_EQ(emu_ssr_case_msg(&emu_ssr_cases[emu_ssr_case_parse("bytes-buffer-plus-1")], 0,
				  buf), HOST_SSR_BUF + 1);
	CHECK_EQ(get_le32(buf + 4), HOST_SSR_BUF + 1);
}

/* ---- the host's rules, as qaic_ras.c has them ---- */
static unsigned int host_ras(const uint8_t *m, size_t len)
{
	uint32_t source, type;

	if (len != RAS_MSG_LEN || get_le32(m) % 0x10000 != RAS_MAGIC)
		return EMU_RAS_CASE_REFUSED;
	if (!(m[2] | m[3] << 8) || (m[2] | m[3] << 8) > RAS_VERSION || m[8] ||
	    (m[10] | m[11] << 8) != RAS_MSG_LEN - RAS_HDR_LEN)
		return EMU_RAS_CASE_REFUSED;
	source = get_le32(m + 16);
	type = get_le32(m + 20);
	if (type >= RAS_NR_TYPES || source >= RAS_NR_SOURCES)
		return EMU_RAS_CASE_REFUSED;
	if (source == RAS_SRC_TSENS && get_le32(m + 40) >= 3)
		return EMU_RAS_CASE_REFUSED;
	/* An uncorrectable report resets the card: no case of the table. */
	CHECK(type != RAS_UE);
	return type == RAS_CE ? EMU_RAS_CASE_CE : EMU_RAS_CASE_UE_NF;
}

static void test_ras_table(void)
{
	uint8_t buf[EMU_RAS_CASE_MAX_LEN];

	CHECK(emu_ras_nr_cases > 50);
	for (unsigned int i = 0; i < emu_ras_nr_cases; i++) {
		const struct emu_ras_case *c = &emu_ras_cases[i];
		size_t len = emu_ras_case_msg(c, i, buf);
		unsigned int got = host_ras(buf, len);

		CHECK(c->name && *c->name);
		CHECK_EQ(emu_ras_case_parse(c->name), i);
		for (unsigned int j = 0; j < i; j++)
			CHECK(strcmp(c->name, emu_ras_cases[j].name));
		CHECK(len <= EMU_RAS_CASE_MAX_LEN);
		if (got != c->verdict)
			fprintf(stderr, "ras case %s: the host model says %s, the table %s\n",
				c->name, emu_ras_case_verdict_name(got),
				emu_ras_case_verdict_name(c->verdict));
		CHECK_EQ(got, c->verdict);
	}
	CHECK_EQ(emu_ras_case_parse("no-such-case"), -1);
	/* One byte over the host's buffer of 105. */
	CHECK_EQ(emu_ras_case_msg(&emu_ras_cases[emu_ras_case_parse("bytes-buffer-plus-1")], 0,
				  buf), RAS_MSG_LEN + 2);
	CHECK_EQ(emu_ras_case_msg(&emu_ras_cases[emu_ras_case_parse("bytes-0")], 0, buf), 0);
	CHECK_EQ(emu_ras_case_msg(&emu_ras_cases[emu_ras_case_parse("good")], 7, buf),
		 RAS_MSG_LEN);
	CHECK_EQ(get_le32(buf + 4), 7);
}

/* ---- the cases sent through ssr.c and ras.c ---- */
static struct {
	unsigned int n;
	size_t len[EMU_SSR_CASE_MSGS];
	uint8_t msg[EMU_SSR_CASE_MSGS][EMU_RAS_CASE_MAX_LEN];
} sent;

static void rec_send(void *ctx, const void *msg, size_t len)
{
	(void)ctx;
	if (sent.n < EMU_SSR_CASE_MSGS && len <= EMU_RAS_CASE_MAX_LEN) {
		memcpy(sent.msg[sent.n], msg, len);
		sent.len[sent.n] = len;
	}
	sent.n++;
}

static void test_send(void)
{
	static const struct emu_ssr_ops sops = { .send = rec_send };
	static const struct emu_ras_ops rops = { .send = rec_send };
	struct emu_ssr *s = emu_ssr_create(&dev, &sops, NULL);
	struct emu_ras *r = emu_ras_create(&dev, &rops, NULL);
	uint8_t buf[EMU_RAS_CASE_MAX_LEN];
	int walk = emu_ssr_case_parse("walk");

	CHECK(s && r);
	if (!s || !r)
		return;
	memset(&sent, 0, sizeof(sent));
	CHECK_EQ(emu_ssr_send_case(s, (unsigned int)walk), 0);
	CHECK_EQ(sent.n, 4);
	for (unsigned int i = 0; i < 4; i++) {
		CHECK_EQ(sent.len[i], emu_ssr_case_msg(&emu_ssr_cases[walk], i, buf));
		CHECK(!memcmp(sent.msg[i], buf, sent.len[i]));
	}
	CHECK_EQ(get_le32(sent.msg[3] + 12), SSR_EV_AFTER_POWER_UP);
	CHECK_EQ(emu_ssr_send_case(s, emu_ssr_nr_cases), -EINVAL);
	/* The card's own restart is not disturbed by a case. */
	CHECK_EQ(emu_ssr_start(s, 3, EMU_SSR_NORMAL), 0);

	memset(&sent, 0, sizeof(sent));
	CHECK_EQ(emu_ras_send_case(r, 0), 0);
	CHECK_EQ(emu_ras_send_case(r, (unsigned int)emu_ras_case_parse("bytes-minus-1")), 0);
	CHECK_EQ(sent.n, 2);
	CHECK_EQ(sent.len[0], RAS_MSG_LEN);
	CHECK_EQ(sent.len[1], RAS_MSG_LEN - 1);
	/* Sequence numbers go on. */
	CHECK_EQ(get_le32(sent.msg[1] + 4), get_le32(sent.msg[0] + 4) + 1);
	CHECK_EQ(emu_ras_send_case(r, emu_ras_nr_cases), -EINVAL);
	emu_ssr_destroy(s);
	emu_ras_destroy(r);
}

/* The QTimer cases: held where the table says, against the host's rules. */
static void test_timesync_cases(void)
{
	static const struct emu_timesync_ops tops = { .send = rec_send };
	struct emu_timesync *t = emu_timesync_create(&dev, &tops, NULL);
	const int64_t utc_us = 1796428800ll * 1000000;	/* 2026-12-04 */

	CHECK(t);
	if (!t)
		return;
	CHECK_EQ(emu_ts_cases[0].base, EMU_TS_REAL);
	for (unsigned int i = 1; i < emu_ts_nr_cases; i++) {
		const struct emu_ts_case *c = &emu_ts_cases[i];
		uint64_t q = emu_ts_case_qtimer(c, utc_us);
		/* qaic_timesync.c: all-ones is silent, and a QTimer past UTC */
		bool sent = q != UINT64_MAX &&
			    (unsigned __int128)q * 1000000 / EMU_TIMESYNC_QTIMER_HZ <=
			    (unsigned __int128)utc_us;

		CHECK_EQ(emu_ts_case_parse(c->name), i);
		for (unsigned int j = 0; j < i; j++)
			CHECK(strcmp(c->name, emu_ts_cases[j].name));
		if (sent != (c->verdict == EMU_TS_CASE_SENT))
			fprintf(stderr, "timesync case %s: QTimer %#llx: the host model says %s\n",
				c->name, (unsigned long long)q, sent ? "sent" : "silent");
		CHECK_EQ(sent, c->verdict == EMU_TS_CASE_SENT);
		CHECK_EQ(emu_timesync_set_case(t, i), 0);
		if (c->base == EMU_TS_ABS)
			CHECK_EQ(emu_timesync_qtimer(t), c->v);
	}
	CHECK_EQ(emu_timesync_set_case(t, emu_ts_nr_cases), -EINVAL);
	/* "real" lets it run from power-on again, and so does power-on. */
	CHECK_EQ(emu_timesync_set_case(t, (unsigned int)emu_ts_case_parse("qtimer-ones")), 0);
	CHECK_EQ(emu_timesync_qtimer(t), UINT64_MAX);
	emu_timesync_power_on(t);
	CHECK(emu_timesync_qtimer(t) < EMU_TIMESYNC_QTIMER_HZ);
	CHECK_EQ(emu_timesync_set_case(t, (unsigned int)emu_ts_case_parse("qtimer-0")), 0);
	CHECK_EQ(emu_timesync_qtimer(t), 0);
	CHECK_EQ(emu_timesync_set_case(t, 0), 0);
	CHECK(emu_timesync_qtimer(t) < EMU_TIMESYNC_QTIMER_HZ);
	emu_timesync_destroy(t);
}

/* ---- the boot log cases, against qaic_bootlog.c's rules ---- */

/* What the host keeps of a message of @len bytes its completion says are @claim. */
static size_t host_bootlog_kept(const uint8_t *m, size_t len, uint32_t claim)
{
	size_t n = claim == EMU_BL_NONE ? len : claim;
	size_t i;

	if (n > 512)
		n = 512;	/* the buffer; the transfer overflows */
	if (len > 512)
		len = 512;
	for (i = 0; i < n && i < len && m[i]; i++)
		;
	/* A claim past the bytes sent reads what the buffer held: not in the table. */
	CHECK(i < n ? 1 : n <= len);
	return i;
}

static struct {
	unsigned int n;
	size_t len[4];
	uint32_t claim[4];
	uint8_t first[4][32];
} bl;

static bool bl_send(void *ctx, const void *msg, size_t len)
{
	(void)ctx;
	if (bl.n < 4) {
		memcpy(bl.first[bl.n], msg, len < 32 ? len : 32);
		bl.len[bl.n] = len;
		bl.claim[bl.n] = EMU_BL_NONE;
	}
	bl.n++;
	return true;
}

static bool bl_send_claim(void *ctx, const void *msg, size_t len, uint32_t claim)
{
	unsigned int n = bl.n;

	bl_send(ctx, msg, len);
	if (n < 4)
		bl.claim[n] = claim;
	return true;
}

static void test_bootlog_cases(void)
{
	static const struct emu_bootlog_ops ops = { .send = bl_send, .send_claim = bl_send_claim };
	uint8_t *buf = malloc(EMU_BOOTLOG_CASE_MAX_LEN), *kept = malloc(512);
	struct emu_bootlog *b = emu_bootlog_create(&dev, &ops, NULL);
	unsigned int flood = (unsigned int)emu_bootlog_case_parse("flood");

	CHECK(buf && kept && b);
	if (!buf || !kept || !b)
		return;
	CHECK(emu_bootlog_nr_cases > 30);
	for (unsigned int i = 0; i < emu_bootlog_nr_cases; i++) {
		const struct emu_bootlog_case *c = &emu_bootlog_cases[i];
		size_t len = emu_bootlog_case_msg(c, buf);
		size_t want = host_bootlog_kept(buf, len, c->claim);
		/* qaic_bootlog.c keeps 64 KiB; the boot's first line is 57 bytes or so. */
		bool lost = (uint64_t)c->count * c->kept + 200 > 65536;

		CHECK_EQ(emu_bootlog_case_parse(c->name), i);
		for (unsigned int j = 0; j < i; j++)
			CHECK(strcmp(c->name, emu_bootlog_cases[j].name));
		CHECK_EQ(len, c->len);
		if (want != c->kept)
			fprintf(stderr, "bootlog case %s: the host model keeps %zu, the table %u\n",
				c->name, want, c->kept);
		CHECK_EQ(want, c->kept);
		CHECK_EQ(lost, c->lost);
		CHECK_EQ(emu_bootlog_case_kept(c, kept), c->kept);
		for (size_t k = 0; k < c->kept; k++)
			CHECK(kept[k] == '\n' || kept[k] == '\t' ||
			      (kept[k] >= 0x20 && kept[k] < 0x7f));
	}
	CHECK_EQ(emu_bootlog_case_parse("no-such-case"), -1);
	CHECK_EQ(emu_bootlog_set_case(b, emu_bootlog_nr_cases), -1);

	/* Armed, a case goes out after the boot's first line, in that boot only. */
	CHECK_EQ(emu_bootlog_set_case(b, (unsigned int)emu_bootlog_case_parse("claim-ones")), 0);
	memset(&bl, 0, sizeof(bl));
	emu_bootlog_boot(b);
	emu_bootlog_listen(b, true);
	emu_bootlog_printf(b, "first");
	emu_bootlog_printf(b, "second");
	CHECK_EQ(bl.n, 3);
	CHECK(!strcmp((char *)bl.first[0], "first\n"));
	CHECK_EQ(bl.len[1], 20);
	CHECK_EQ(bl.claim[1], 0xffff);
	CHECK(!memcmp(bl.first[1], "abcdefghijklmnopqrs", 20));
	CHECK(!strcmp((char *)bl.first[2], "second\n"));
	CHECK(!emu_bootlog_pending(b));

	memset(&bl, 0, sizeof(bl));
	emu_bootlog_boot(b);
	emu_bootlog_listen(b, true);
	emu_bootlog_printf(b, "first");
	emu_bootlog_printf(b, "second");
	CHECK_EQ(bl.n, 2);

	CHECK_EQ(emu_bootlog_set_case(b, flood), 0);
	memset(&bl, 0, sizeof(bl));
	emu_bootlog_boot(b);
	emu_bootlog_listen(b, true);
	emu_bootlog_printf(b, "first");
	CHECK_EQ(bl.n, 1 + emu_bootlog_cases[flood].count);
	CHECK_EQ(bl.claim[1], EMU_BL_NONE);
	emu_bootlog_destroy(b);
	free(kept);
	free(buf);
}

/* The DBC cases: names, and the values they write or show. */
static void test_dbc_cases(void)
{
	const struct emu_dbc_case *c;

	CHECK(emu_dbc_nr_cases > 25);
	for (unsigned int i = 0; i < emu_dbc_nr_cases; i++) {
		c = &emu_dbc_cases[i];
		CHECK_EQ(emu_dbc_case_parse(c->name), i);
		for (unsigned int j = 0; j < i; j++)
			CHECK(strcmp(c->name, emu_dbc_cases[j].name));
		/* A case out of the ring or an unknown req_id never retires at once. */
		if (c->field == EMU_DBC_CASE_REQID && strcmp(c->name, "good"))
			CHECK_EQ(c->verdict, EMU_DBC_CASE_EIO_LATE);
		if (c->field == EMU_DBC_CASE_RSPTP && emu_dbc_case_value(c, 2, 16) >= 16)
			CHECK_EQ(c->verdict, EMU_DBC_CASE_LATE);
		if (c->field == EMU_DBC_CASE_STATUS)
			CHECK_EQ(c->verdict, emu_dbc_case_value(c, 0, 16) ?
				 EMU_DBC_CASE_EIO : EMU_DBC_CASE_OK);
	}
	CHECK_EQ(emu_dbc_case_parse("no-such-case"), -1);
	c = &emu_dbc_cases[emu_dbc_case_parse("reqid-plus-1")];
	CHECK_EQ(emu_dbc_case_value(c, 7, 16), 8);
	c = &emu_dbc_cases[emu_dbc_case_parse("rsptp-nelem-minus-1")];
	CHECK_EQ(emu_dbc_case_value(c, 7, 16), 15);
	c = &emu_dbc_cases[emu_dbc_case_parse("reqhp-minus-1")];
	CHECK_EQ(emu_dbc_case_value(c, 0, 16), 0xffffffffu);
	c = &emu_dbc_cases[emu_dbc_case_parse("rsptp-ones")];
	CHECK_EQ(emu_dbc_case_value(c, 3, 16), 0xffffffffu);
}

/* The BHI cases: names; a case lies from its point of the boot, for that boot only. */
static void test_bhi_cases(void)
{
	struct emu_bhi b;
	int st, ee, serial;

	CHECK(emu_bhi_nr_cases >= 16);
	for (unsigned int i = 0; i < emu_bhi_nr_cases; i++) {
		CHECK_EQ(emu_bhi_case_parse(emu_bhi_cases[i].name), i);
		for (unsigned int j = 0; j < i; j++)
			CHECK(strcmp(emu_bhi_cases[i].name, emu_bhi_cases[j].name));
	}
	CHECK_EQ(emu_bhi_case_parse("no-such-case"), -1);

	emu_bhi_init(&b, &dev, 0x1234);
	CHECK_EQ(emu_bhi_arm_case(&b, emu_bhi_nr_cases), -EINVAL);
	st = emu_bhi_case_parse("status-1");
	ee = emu_bhi_case_parse("ee-ones-power-on");
	serial = emu_bhi_case_parse("serial-0");

	/* Armed, it waits for the next power-on. */
	CHECK_EQ(emu_bhi_arm_case(&b, (unsigned int)serial), 0);
	CHECK_EQ(emu_bhi_read(&b, EMU_BHI_SERIALNU), 0x1234);
	emu_bhi_power_on(&b, EMU_EE_PBL);
	CHECK_EQ(emu_bhi_read(&b, EMU_BHI_SERIALNU), 0);
	emu_bhi_power_on(&b, EMU_EE_PBL);
	CHECK_EQ(emu_bhi_read(&b, EMU_BHI_SERIALNU), 0x1234);

	CHECK_EQ(emu_bhi_arm_case(&b, (unsigned int)ee), 0);
	emu_bhi_power_on(&b, EMU_EE_PBL);
	CHECK_EQ(emu_bhi_read(&b, EMU_BHI_EXECENV), 0xffffffffu);
	CHECK(!emu_bhi_irq_withheld(&b));

	/* From the download on: the status reads the case's value after IMGTXDB. */
	CHECK_EQ(emu_bhi_arm_case(&b, (unsigned int)st), 0);
	emu_bhi_power_on(&b, EMU_EE_PBL);
	CHECK_EQ(emu_bhi_read(&b, EMU_BHI_STATUS), 0);
	CHECK_EQ(emu_bhi_read(&b, EMU_BHI_EXECENV), EMU_EE_PBL);
	emu_bhi_write(&b, EMU_BHI_IMGSIZE, 0);
	emu_bhi_write(&b, EMU_BHI_IMGTXDB, 1);	/* refused: size 0 */
	CHECK_EQ(emu_bhi_read(&b, EMU_BHI_STATUS), 1u << EMU_BHI_STATUS_SHIFT);
	CHECK_EQ(emu_bhi_read(&b, EMU_BHI_ERRCODE), EMU_BHI_ERR_SIZE);

	CHECK_EQ(emu_bhi_arm_case(&b, (unsigned int)emu_bhi_case_parse("no-irq")), 0);
	emu_bhi_power_on(&b, EMU_EE_PBL);
	CHECK(emu_bhi_irq_withheld(&b));
}

/* The MHI cases: names; only a SYS_ERR state makes the host recover. */
static void test_mhi_cases(void)
{
	CHECK(emu_mhi_nr_cases >= 30);
	for (unsigned int i = 0; i < emu_mhi_nr_cases; i++) {
		const struct emu_mhi_case *c = &emu_mhi_cases[i];

		CHECK_EQ(emu_mhi_case_parse(c->name), i);
		for (unsigned int j = 0; j < i; j++)
			CHECK(strcmp(c->name, emu_mhi_cases[j].name));
		CHECK_EQ(c->verdict, c->event == EMU_MHI_CASE_STATE && c->v == 0xff ?
			 EMU_MHI_CASE_RECOVERS : EMU_MHI_CASE_UP);
	}
	CHECK_EQ(emu_mhi_case_parse("no-such-case"), -1);
}

int main(void)
{
	RUN(test_ssr_table);
	RUN(test_ras_table);
	RUN(test_send);
	RUN(test_timesync_cases);
	RUN(test_bootlog_cases);
	RUN(test_dbc_cases);
	RUN(test_bhi_cases);
	RUN(test_mhi_cases);
	return emu_test_exit();
}
