// SPDX-License-Identifier: GPL-2.0-only
/*
 * Malicious-card mode (see malice.h): every mutation the emulator can do
 * to what the card sends, behind a small API the device models call where
 * they produce output.
 *
 * Copyright (c) 2026 The qaic authors.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "crc32.h"
#include "le_bytes.h"
#include "malice.h"

struct storm {
	bool on;
	unsigned int vector;
	unsigned int left;
	struct timespec next;		/* next batch */
	struct timespec end;		/* bound in time */
};

struct malice {
	struct malice_cfg cfg;
	uint32_t ppm[MALICE_NUM_KINDS];		/* rate, per million */
	uint64_t st[MALICE_NUM_KINDS];		/* one PRNG stream per kind */
	uint64_t count[MALICE_NUM_KINDS];
	uint64_t storm_msis;
	struct storm storm;
	bool armed;
};

static const char *const kind_names[MALICE_NUM_KINDS] = {
	[MALICE_RSP_REQID] = "rsp_reqid",
	[MALICE_RSP_STATUS] = "rsp_status",
	[MALICE_RSPTP] = "rsptp",
	[MALICE_REQHP] = "reqhp",
	[MALICE_MSI_SPURIOUS] = "msi_spurious",
	[MALICE_MSI_DROP] = "msi_drop",
	[MALICE_MSI_STORM] = "msi_storm",
	[MALICE_EV_PTR] = "ev_ptr",
	[MALICE_EV_LEN] = "ev_len",
	[MALICE_EV_TYPE] = "ev_type",
	[MALICE_EV_RP] = "ev_rp",
	[MALICE_NNC_LEN] = "nnc_len",
	[MALICE_NNC_COUNT] = "nnc_count",
	[MALICE_NNC_SEQ] = "nnc_seq",
	[MALICE_NNC_TRUNC] = "nnc_trunc",
	[MALICE_NNC_OVERSIZE] = "nnc_oversize",
	[MALICE_NNC_TYPE] = "nnc_type",
	[MALICE_NNC_FIELD] = "nnc_field",
	[MALICE_NNC_CRC] = "nnc_crc",
	[MALICE_MHI_STATE] = "mhi_state",
	[MALICE_MHI_EE] = "mhi_ee",
	[MALICE_MHI_SYSERR] = "mhi_syserr",
	[MALICE_PROTO_FIELD] = "proto_field",
	[MALICE_PROTO_LEN] = "proto_len",
};

#define BIT(k)		(1u << (k))
#define RANGE(a, b)	(((BIT(b) - 1) & ~(BIT(a) - 1)) | BIT(b))

_Static_assert(MALICE_NUM_KINDS < 32, "kinds fit a u32 mask");

static const struct {
	const char *name;
	uint32_t kinds;
} groups[] = {
	{ "dbc", RANGE(MALICE_RSP_REQID, MALICE_REQHP) },
	{ "msi", RANGE(MALICE_MSI_SPURIOUS, MALICE_MSI_STORM) },
	{ "event", RANGE(MALICE_EV_PTR, MALICE_EV_RP) },
	{ "nnc", RANGE(MALICE_NNC_LEN, MALICE_NNC_CRC) },
	{ "mhi", RANGE(MALICE_MHI_STATE, MALICE_MHI_SYSERR) },
	{ "proto", RANGE(MALICE_PROTO_FIELD, MALICE_PROTO_LEN) },
	{ "all", BIT(MALICE_NUM_KINDS) - 1 },
};

#define MHI_KINDS	RANGE(MALICE_MHI_STATE, MALICE_MHI_SYSERR)
#define PROTO_KINDS	RANGE(MALICE_PROTO_FIELD, MALICE_PROTO_LEN)

uint32_t malice_default_kinds(void)
{
	return (BIT(MALICE_NUM_KINDS) - 1) & ~MHI_KINDS & ~PROTO_KINDS;
}

const char *malice_kind_name(enum malice_kind k)
{
	return (unsigned int)k < MALICE_NUM_KINDS ? kind_names[k] : "?";
}

/* ---- the PRNG ---------------------------------------------------------- */

static uint64_t splitmix64(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static uint64_t rnd(struct malice *m, enum malice_kind k)
{
	return splitmix64(&m->st[k]);
}

/* Uniform enough in 0..n-1 (n > 0; the bias of % is < 2^-32 here). */
static uint64_t below(struct malice *m, enum malice_kind k, uint64_t n)
{
	return rnd(m, k) % n;
}

/* ---- options ----------------------------------------------------------- */

static int parse_kinds(const char *s, uint32_t *kinds, bool *boot)
{
	uint32_t set = malice_default_kinds();
	char buf[256], *tok, *save = NULL;

	size_t n = strlen(s);

	/* No empty items: strtok_r() would skip them. */
	if (n >= sizeof(buf) || !n || s[0] == ',' || s[n - 1] == ',' ||
	    strstr(s, ",,"))
		return -EINVAL;
	strcpy(buf, s);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		bool off = false;
		uint32_t bits = 0;
		unsigned int i;

		if (*tok == '+' || *tok == '-')
			off = *tok++ == '-';
		if (!strcmp(tok, "boot")) {
			*boot = !off;
			continue;
		}
		if (!strcmp(tok, "none")) {
			if (off)
				return -EINVAL;
			set = 0;
			continue;
		}
		for (i = 0; i < sizeof(groups) / sizeof(groups[0]); i++)
			if (!strcmp(tok, groups[i].name))
				bits = groups[i].kinds;
		for (i = 0; i < MALICE_NUM_KINDS && !bits; i++)
			if (!strcmp(tok, kind_names[i]))
				bits = BIT(i);
		if (!bits)
			return -EINVAL;
		set = off ? set & ~bits : set | bits;
	}
	*kinds = set;
	return 0;
}

int malice_parse(const char *arg, struct malice_cfg *cfg)
{
	struct malice_cfg c = {
		.permille = MALICE_DEFAULT_PERMILLE,
		.kinds = malice_default_kinds(),
	};
	unsigned long long seed;
	unsigned long pm;
	char *end;

	if (!arg || !*arg || *arg == '-' || *arg == ':')
		return -EINVAL;
	errno = 0;
	seed = strtoull(arg, &end, 0);
	if (errno || end == arg)
		return -EINVAL;
	c.seed = seed;
	if (*end == ':') {
		const char *p = end + 1;

		if (*p < '0' || *p > '9')
			return -EINVAL;
		errno = 0;
		pm = strtoul(p, &end, 10);
		if (errno || end == p || pm > 1000)
			return -EINVAL;
		c.permille = (unsigned int)pm;
		if (*end == ':') {
			if (parse_kinds(end + 1, &c.kinds, &c.boot))
				return -EINVAL;
			end += strlen(end);
		}
	}
	if (*end)
		return -EINVAL;
	*cfg = c;
	return 0;
}

/* ---- life -------------------------------------------------------------- */

struct malice *malice_create(const struct malice_cfg *cfg)
{
	struct malice *m = calloc(1, sizeof(*m));
	unsigned int k;

	if (!m)
		return NULL;
	m->cfg = *cfg;
	m->armed = cfg->boot;
	if (m->cfg.permille > 1000)
		m->cfg.permille = 1000;
	for (k = 0; k < MALICE_NUM_KINDS; k++) {
		uint64_t t = cfg->seed ^ (0x632be59bd9b4e019ull * (k + 1));

		m->st[k] = splitmix64(&t);
		if (!(cfg->kinds & BIT(k)))
			continue;
		/* State changes may take the card down: a tenth of the rate. */
		m->ppm[k] = m->cfg.permille * (BIT(k) & MHI_KINDS ? 100 : 1000);
	}
	return m;
}

void malice_destroy(struct malice *m)
{
	free(m);
}

void malice_arm(struct malice *m)
{
	if (m)
		m->armed = true;
}

bool malice_armed(const struct malice *m)
{
	return m && m->armed;
}

bool malice_enabled(const struct malice *m, enum malice_kind k)
{
	return m && m->armed && (unsigned int)k < MALICE_NUM_KINDS && m->ppm[k];
}

/* A decision, not counted. */
static bool decide(struct malice *m, enum malice_kind k)
{
	if (!malice_enabled(m, k))
		return false;
	return below(m, k, 1000000) < m->ppm[k];
}

bool malice_hit(struct malice *m, enum malice_kind k)
{
	if (!decide(m, k))
		return false;
	m->count[k]++;
	return true;
}

uint64_t malice_rand(struct malice *m, enum malice_kind k)
{
	if (!m || (unsigned int)k >= MALICE_NUM_KINDS)
		return 0;
	return rnd(m, k);
}

uint64_t malice_count(const struct malice *m, enum malice_kind k)
{
	return m && (unsigned int)k < MALICE_NUM_KINDS ? m->count[k] : 0;
}

/* ---- scalar values ----------------------------------------------------- */

uint32_t malice_u32(struct malice *m, enum malice_kind k, uint32_t v)
{
	uint32_t r;

	if (!malice_hit(m, k))
		return v;
	if (k == MALICE_RSP_STATUS) {
		/* Any non-zero status but the real one. */
		r = 1 + (uint32_t)below(m, k, 0xfffe);
		return r == v ? 0xffff : r;
	}
	switch (below(m, k, 5)) {
	case 0: r = (uint32_t)rnd(m, k); break;
	case 1: r = UINT32_MAX; break;
	case 2: r = v + 1; break;
	case 3: r = v - 1; break;
	default: r = v ^ (1u << below(m, k, 32)); break;
	}
	return r == v ? ~v : r;
}

uint16_t malice_reqid(struct malice *m, uint16_t id, const uint16_t *older,
		      unsigned int n)
{
	const enum malice_kind k = MALICE_RSP_REQID;
	uint16_t r;

	if (!malice_hit(m, k))
		return id;
	switch (below(m, k, older && n ? 4 : 3)) {
	case 0: r = (uint16_t)rnd(m, k); break;
	case 1: r = id + 1; break;
	case 2: r = id - 1; break;
	default: r = older[below(m, k, n)]; break;	/* an older job's */
	}
	return r == id ? (uint16_t)~id : r;
}

uint32_t malice_index(struct malice *m, enum malice_kind k, uint32_t v,
		      uint32_t nelem)
{
	uint64_t r;

	if (!malice_hit(m, k))
		return v;
	if (nelem < 2 || v >= nelem)
		return below(m, k, 2) ? UINT32_MAX : (uint32_t)rnd(m, k) | 0x80000000u;
	switch (below(m, k, 5)) {
	case 0:		/* just out of the ring, or far out */
		r = below(m, k, 2) ? nelem : nelem + below(m, k, 1u << 20);
		return r > UINT32_MAX ? UINT32_MAX : (uint32_t)r;
	case 1:
		return UINT32_MAX;
	case 2:		/* one back: a host that believes it wrapped */
		return (v + nelem - 1) % nelem;
	case 3:		/* further back */
		return (uint32_t)((v + nelem - 1 - below(m, k, nelem - 1)) % nelem);
	default:	/* one ahead: a slot nobody wrote */
		return (v + 1) % nelem;
	}
}

unsigned int malice_vector(struct malice *m, unsigned int in_use)
{
	const enum malice_kind k = MALICE_MSI_SPURIOUS;

	if (!m)
		return 0;
	if (in_use > 32)
		in_use = 32;
	if (in_use && (in_use == 32 || below(m, k, 2)))
		return (unsigned int)below(m, k, in_use);
	return in_use + (unsigned int)below(m, k, 32 - in_use);
}

/* ---- MHI --------------------------------------------------------------- */

#define EV_TYPE_SHIFT	16
#define EV_TX		0x22

bool malice_mhi_event(struct malice *m, uint64_t *ptr, uint32_t *dw0,
		      uint32_t *dw1)
{
	static const uint8_t types[] = { 0x20, 0x21, 0x22, 0x28, 0x40, 0x48, 0x50 };
	static const uint8_t codes[] = { 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x10, 0x11 };
	bool changed = false;
	enum malice_kind k;

	if (!m)
		return false;
	k = MALICE_EV_PTR;
	if (malice_hit(m, k)) {
		switch (below(m, k, 6)) {
		case 0: *ptr += 16; break;
		case 1: *ptr -= 16; break;
		case 2: *ptr += 16 * (2 + below(m, k, 64)); break;
		case 3: *ptr += 1 + below(m, k, 15); break;
		case 4: *ptr = below(m, k, 2) ? 0 : UINT64_MAX; break;
		default: *ptr = rnd(m, k); break;
		}
		changed = true;
	}
	k = MALICE_EV_LEN;
	if (((*dw1 >> EV_TYPE_SHIFT) & 0xff) == EV_TX && malice_hit(m, k)) {
		uint32_t len = *dw0 & 0xffff, r;

		switch (below(m, k, 5)) {
		case 0: r = 0; break;
		case 1: r = 0xffff; break;
		case 2: r = len + 1; break;
		case 3: r = len * 2 + 1; break;
		default: r = (uint32_t)rnd(m, k); break;
		}
		r &= 0xffff;
		if (r == len)
			r = ~len & 0xffff;
		*dw0 = (*dw0 & ~0xffffu) | r;
		changed = true;
	}
	k = MALICE_EV_TYPE;
	if (malice_hit(m, k)) {
		uint32_t old0 = *dw0, old1 = *dw1;

		switch (below(m, k, 5)) {
		case 0:		/* another known event type */
			*dw1 = (*dw1 & ~(0xffu << 16)) |
			       (uint32_t)types[below(m, k, sizeof(types))] << 16;
			break;
		case 1:		/* any type */
			*dw1 = (*dw1 & ~(0xffu << 16)) | (uint32_t)below(m, k, 256) << 16;
			break;
		case 2:		/* another completion code */
			*dw0 = (*dw0 & 0xffffffu) |
			       (uint32_t)codes[below(m, k, sizeof(codes))] << 24;
			break;
		case 3:		/* any completion code */
			*dw0 = (*dw0 & 0xffffffu) | (uint32_t)below(m, k, 256) << 24;
			break;
		default:	/* another channel */
			*dw1 = (*dw1 & 0xffffffu) | (uint32_t)below(m, k, 256) << 24;
			break;
		}
		if (*dw0 == old0 && *dw1 == old1)
			*dw1 ^= 0x80u << 16;
		changed = true;
	}
	return changed;
}

uint64_t malice_ring_ptr(struct malice *m, uint64_t rp, uint64_t base,
			 uint64_t len)
{
	const enum malice_kind k = MALICE_EV_RP;
	uint64_t n = len / 16, r;

	if (!malice_hit(m, k))
		return rp;
	switch (below(m, k, 6)) {
	case 0: r = base + len + 16 * below(m, k, 4); break;	/* past the end */
	case 1: r = base - 16; break;				/* before it */
	case 2: r = rp + 1 + below(m, k, 15); break;		/* misaligned */
	case 3:							/* backwards */
		if (n < 2 || rp < base || rp - base >= len) {
			r = base - 16;
			break;
		}
		r = base + ((rp - base) / 16 + n - 1 - below(m, k, n - 1)) % n * 16;
		break;
	case 4: r = 0; break;
	default: r = UINT64_MAX; break;
	}
	return r == rp ? rp + 1 : r;
}

unsigned int malice_mhi_state(struct malice *m)
{
	/* RESET, READY, M0, M1, M2, M3, SYS_ERR; or anything. */
	static const uint8_t states[] = { 0x0, 0x1, 0x2, 0x3, 0x4, 0x5, 0xff };
	const enum malice_kind k = MALICE_MHI_STATE;

	if (!m)
		return 0;
	if (below(m, k, 4))
		return states[below(m, k, sizeof(states))];
	return (unsigned int)below(m, k, 256);
}

unsigned int malice_mhi_ee(struct malice *m)
{
	const enum malice_kind k = MALICE_MHI_EE;

	if (!m)
		return 0;
	/* PBL, SBL, AMSS, RDDM, WFW, PTHRU, EDL, FP, ...; or anything. */
	if (below(m, k, 4))
		return (unsigned int)below(m, k, 9);
	return (unsigned int)rnd(m, k);
}

/* ---- NNC --------------------------------------------------------------- */

/* Message header: crc32, magic, seq, len, count, handle, partition, pad. */
#define NNC_CRC		0
#define NNC_SEQ		8
#define NNC_LEN		12
#define NNC_COUNT	16
#define NNC_HDR		32
#define NNC_TH		8	/* transaction header: type, len */
#define NNC_MAX_TRANS	64	/* transactions looked at */

static uint32_t nnc_crc(const uint8_t *msg, size_t len)
{
	static const uint8_t zero[4];

	return emu_crc32(emu_crc32(0, zero, 4), msg + 4, len - 4);
}

/* A random transaction of the answer (offset of its header), or 0. */
static size_t nnc_pick(struct malice *m, enum malice_kind k, const size_t *t,
		       unsigned int n)
{
	return n ? t[below(m, k, n)] : 0;
}

/* Rewrite the u32 at @p (whose real value is @v). */
static void put_mutated(struct malice *m, enum malice_kind k, uint8_t *p,
			uint32_t v)
{
	uint32_t r;

	switch (below(m, k, 6)) {
	case 0: r = v + 1; break;
	case 1: r = v - 1; break;
	case 2: r = 0; break;
	case 3: r = UINT32_MAX; break;
	case 4: r = v ^ 0x80000000u; break;
	default: r = (uint32_t)rnd(m, k); break;
	}
	put_le32(p, r == v ? ~v : r);
}

size_t malice_packet(struct malice *m, uint8_t *pkt, size_t len, size_t cap)
{
	enum malice_kind k = MALICE_PROTO_FIELD;

	if (!m || !pkt || len > cap)
		return len;
	if (len >= 4 && malice_hit(m, k)) {
		uint8_t *p = pkt + 4 * below(m, k, len / 4);

		put_mutated(m, k, p, get_le32(p));
	}
	k = MALICE_PROTO_LEN;
	if (malice_hit(m, k)) {
		size_t n = 1 + below(m, k, cap);

		for (size_t i = len; i < n; i++)
			pkt[i] = (uint8_t)rnd(m, k);
		len = n;
	}
	return len;
}

size_t malice_nnc(struct malice *m, uint8_t *msg, size_t len, size_t cap)
{
	/* Device and host transaction types, and nonsense. */
	static const uint32_t types[] = {
		3, 4, 6, 8, 9, 11, 14, 15, 16, 17, 18, 19, 20, 0, 21, 0xffffffff,
	};
	size_t trans[NNC_MAX_TRANS], off;
	unsigned int nt = 0;
	bool signed_ok;
	enum malice_kind k;

	if (!m || !msg || len > cap)
		return len;
	if (len >= NNC_HDR) {
		/* The transactions as they are, walked within the message. */
		for (off = NNC_HDR; off + NNC_TH <= len && nt < NNC_MAX_TRANS;) {
			uint32_t tl = get_le32(msg + off + 4);

			trans[nt++] = off;
			if (tl < NNC_TH || tl > len - off)
				break;
			off += tl;
		}
		signed_ok = get_le32(msg + NNC_CRC) &&
			    get_le32(msg + NNC_CRC) == nnc_crc(msg, len);

		k = MALICE_NNC_LEN;
		if (malice_hit(m, k)) {
			size_t t = below(m, k, 2) ? nnc_pick(m, k, trans, nt) : 0;
			uint8_t *p = t ? msg + t + 4 : msg + NNC_LEN;

			put_mutated(m, k, p, get_le32(p));
		}
		k = MALICE_NNC_COUNT;
		if (malice_hit(m, k))
			put_mutated(m, k, msg + NNC_COUNT, get_le32(msg + NNC_COUNT));
		k = MALICE_NNC_SEQ;
		if (malice_hit(m, k))
			put_mutated(m, k, msg + NNC_SEQ, get_le32(msg + NNC_SEQ));
		k = MALICE_NNC_TYPE;
		if (nt && malice_hit(m, k)) {
			uint8_t *p = msg + nnc_pick(m, k, trans, nt);
			uint32_t r = types[below(m, k, sizeof(types) / sizeof(types[0]))];

			put_le32(p, r == get_le32(p) ? r + 1 : r);
		}
		k = MALICE_NNC_FIELD;
		if (nt && malice_hit(m, k)) {
			size_t t = nnc_pick(m, k, trans, nt);
			uint32_t tl = get_le32(msg + t + 4);
			size_t words;

			/* A payload word inside both the transaction and the message. */
			if (tl > len - t)
				tl = (uint32_t)(len - t);
			words = tl >= NNC_TH + 4 ? (tl - NNC_TH) / 4 : 0;
			if (words) {
				uint8_t *p = msg + t + NNC_TH + 4 * below(m, k, words);

				put_mutated(m, k, p, get_le32(p));
			} else {
				put_mutated(m, k, msg + t + 4, tl);
			}
		}
		if (signed_ok)
			put_le32(msg + NNC_CRC, nnc_crc(msg, len));
		k = MALICE_NNC_CRC;
		if (malice_hit(m, k))
			put_le32(msg + NNC_CRC, get_le32(msg + NNC_CRC) ^
				 (1u | (uint32_t)rnd(m, k)));
	}
	k = MALICE_NNC_TRUNC;
	if (len > 1 && malice_hit(m, k)) {
		/* Inside the header, just short, or anywhere. */
		switch (below(m, k, 3)) {
		case 0: len = 1 + below(m, k, len < NNC_HDR ? len - 1 : NNC_HDR - 1); break;
		case 1: len -= 1 + below(m, k, len - 1 < 8 ? len - 1 : 8); break;
		default: len = 1 + below(m, k, len - 1); break;
		}
	}
	k = MALICE_NNC_OVERSIZE;
	if (len < cap && malice_hit(m, k)) {
		size_t add, i;

		switch (below(m, k, 3)) {
		case 0: add = 1 + below(m, k, 16); break;
		case 1: add = 4096 > len ? 4096 - len + below(m, k, 64) : 1; break;
		default: add = 1 + below(m, k, cap - len); break;
		}
		if (add > cap - len)
			add = cap - len;
		for (i = 0; i < add; i++)
			msg[len + i] = (uint8_t)rnd(m, k);
		len += add;
		/* Half of them say so in the header: a well-formed giant. */
		if (len >= NNC_HDR && len <= UINT32_MAX && below(m, k, 2))
			put_le32(msg + NNC_LEN, (uint32_t)len);
	}
	return len;
}

/* ---- MSI storms -------------------------------------------------------- */

static void ts_add_ms(struct timespec *t, unsigned int ms)
{
	t->tv_sec += ms / 1000;
	t->tv_nsec += (long)(ms % 1000) * 1000000;
	if (t->tv_nsec >= 1000000000) {
		t->tv_sec++;
		t->tv_nsec -= 1000000000;
	}
}

/* Milliseconds from now to @t, rounded up; <= 0 when it has come. */
static int64_t ms_until(const struct timespec *t)
{
	struct timespec now;
	int64_t ns;

	clock_gettime(CLOCK_MONOTONIC, &now);
	ns = (int64_t)(t->tv_sec - now.tv_sec) * 1000000000 +
	     (t->tv_nsec - now.tv_nsec);
	return ns <= 0 ? 0 : (ns + 999999) / 1000000;
}

bool malice_storm(struct malice *m, unsigned int vector)
{
	if (!decide(m, MALICE_MSI_STORM) || m->storm.on)
		return false;
	m->count[MALICE_MSI_STORM]++;
	m->storm.on = true;
	m->storm.vector = vector;
	m->storm.left = MALICE_STORM_MSIS;
	clock_gettime(CLOCK_MONOTONIC, &m->storm.next);
	m->storm.end = m->storm.next;
	ts_add_ms(&m->storm.end, MALICE_STORM_MS);
	return true;
}

unsigned int malice_storm_take(struct malice *m, unsigned int *vector)
{
	struct storm *s;
	unsigned int n;

	if (!m || !m->storm.on)
		return 0;
	s = &m->storm;
	if (ms_until(&s->end) <= 0) {
		s->on = false;
		return 0;
	}
	if (ms_until(&s->next) > 0)
		return 0;
	n = s->left < MALICE_STORM_BATCH ? s->left : MALICE_STORM_BATCH;
	s->left -= n;
	s->on = s->left > 0;
	clock_gettime(CLOCK_MONOTONIC, &s->next);
	ts_add_ms(&s->next, 1);
	m->storm_msis += n;
	*vector = s->vector;
	return n;
}

int malice_timeout_ms(const struct malice *m)
{
	int64_t ms;

	if (!m || !m->storm.on)
		return -1;
	ms = ms_until(&m->storm.next);
	return ms > MALICE_STORM_MS ? MALICE_STORM_MS : (int)ms;
}

/* ---- counters ---------------------------------------------------------- */

void malice_print_counters(const struct malice *m, FILE *out)
{
	unsigned int k;

	fprintf(out, "malice_enabled %u\n", m ? 1 : 0);
	fprintf(out, "malice_seed %" PRIu64 "\n", m ? m->cfg.seed : 0);
	fprintf(out, "malice_permille %u\n", m ? m->cfg.permille : 0);
	fprintf(out, "malice_armed %u\n", m && m->armed ? 1 : 0);
	for (k = 0; k < MALICE_NUM_KINDS; k++)
		fprintf(out, "malice_%s %" PRIu64 "\n", kind_names[k],
			malice_count(m, k));
	fprintf(out, "malice_storm_msis %" PRIu64 "\n", m ? m->storm_msis : 0);
}

void malice_log_summary(const struct malice *m, FILE *out)
{
	uint64_t total = 0;
	unsigned int k;

	if (!m)
		return;
	fprintf(out, "qaic-emu: malice: seed %" PRIu64 " permille %u%s:",
		m->cfg.seed, m->cfg.permille, m->armed ? "" : " (never armed)");
	for (k = 0; k < MALICE_NUM_KINDS; k++) {
		if (!(m->cfg.kinds & BIT(k)))
			continue;
		fprintf(out, " %s %" PRIu64, kind_names[k], m->count[k]);
		total += m->count[k];
	}
	fprintf(out, " (storm MSIs %" PRIu64 "); %" PRIu64 " mutations\n",
		m->storm_msis, total);
}
