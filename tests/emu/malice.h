/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Malicious-card mode of the emulated AIC100: a seeded, deterministic
 * mutator of what the card sends to the host (DBC responses and ring
 * indexes, MSIs, MHI events and states, NNC answers), for checking that the
 * driver survives whatever the device does.
 *
 *   qaic-emu --malice SEED[:PERMILLE[:KINDS]]
 *
 * Each kind of mutation is drawn at its own decision points (where a device
 * model produces that output) at PERMILLE per mille (default 20), the MHI
 * state kinds at a tenth of it. Every kind has its own PRNG stream
 * (splitmix64 seeded from SEED and the kind), so the n-th decision of a
 * kind is the same whatever happened to the other kinds: a run reproduces
 * as far as the guest produces the same sequence of decision points.
 *
 * KINDS is a comma-separated list applied to the default set (groups dbc,
 * msi, event, nnc): NAME or +NAME enables a kind or group, -NAME disables
 * it, "all" and "none" set everything. The MHI state group "mhi" (state,
 * EE, SYS_ERROR at random: may legitimately take the card down) is off
 * unless asked for, e.g. --malice 7:20:mhi; so is "proto" (the packets of
 * Sahara, which runs at boot, and of subsystem restart), e.g.
 * --malice 7:200:none,boot,proto for a boot under attack.
 *
 * The card's first power-up is spared: mutations begin once the host has
 * had the first answer on QAIC_CONTROL and its MSI (the MHI model calls
 * malice_arm() at the end of the BAR0 write that delivered it),
 * so that a run does not end at probe for one bad command completion. The
 * item "boot" in KINDS mutates from power-on instead (--malice 7:20:boot).
 * Before arming no decision is drawn at all.
 *
 * The device models call the small API below at the point where they
 * produce output and use what it returns; a NULL struct malice (mode off)
 * returns every value unchanged and never hits. The models stay internally
 * consistent: only what the host sees is mutated, never the model's state.
 *
 * Threading: runs on the transport's thread, like the models.
 *
 * Copyright (c) 2026 The qaic authors.
 */
#ifndef QAIC_EMU_MALICE_H
#define QAIC_EMU_MALICE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum malice_kind {
	/* group dbc: DBC responses and ring indexes */
	MALICE_RSP_REQID,	/* response req_id: random, off by one, older job */
	MALICE_RSP_STATUS,	/* response status: random non-zero */
	MALICE_RSPTP,		/* RSPTP read: out of the ring, all-ones, backwards */
	MALICE_REQHP,		/* REQHP read: the same */
	/* group msi */
	MALICE_MSI_SPURIOUS,	/* an MSI for nothing, or for a vector not in use */
	MALICE_MSI_DROP,	/* an MSI not sent */
	MALICE_MSI_STORM,	/* a burst of up to 1000 MSIs, at most 200 ms */
	/* group event: MHI event ring entries and the event ring's rp */
	MALICE_EV_PTR,		/* element pointer: off by one, misaligned, wild */
	MALICE_EV_LEN,		/* transfer event length */
	MALICE_EV_TYPE,		/* event type, completion code or channel */
	MALICE_EV_RP,		/* read pointer in the event ring context */
	/* group nnc: answers on QAIC_CONTROL */
	MALICE_NNC_LEN,		/* message or transaction length field */
	MALICE_NNC_COUNT,	/* transaction count */
	MALICE_NNC_SEQ,		/* sequence number */
	MALICE_NNC_TRUNC,	/* message cut short */
	MALICE_NNC_OVERSIZE,	/* message with bytes added */
	MALICE_NNC_TYPE,	/* transaction type */
	MALICE_NNC_FIELD,	/* a word of a transaction's payload */
	MALICE_NNC_CRC,		/* CRC broken */
	/* group mhi (off by default, a tenth of the rate) */
	MALICE_MHI_STATE,	/* spurious state change event, lying MHISTATUS */
	MALICE_MHI_EE,		/* spurious EE event, lying BHI EXECENV */
	MALICE_MHI_SYSERR,	/* the device enters SYS_ERROR */
	/* group proto (off by default): Sahara, SSR and telemetry packets */
	MALICE_PROTO_FIELD,	/* a word of the packet */
	MALICE_PROTO_LEN,	/* the packet cut short or lengthened */
	MALICE_NUM_KINDS
};

#define MALICE_DEFAULT_PERMILLE	20
/* MSIs of one storm, and how long it may last. */
#define MALICE_STORM_MSIS	1000
#define MALICE_STORM_MS		200
/* MSIs a storm raises per tick (about the irq buffers UML keeps posted). */
#define MALICE_STORM_BATCH	16

struct malice_cfg {
	uint64_t seed;
	unsigned int permille;		/* 0..1000 */
	uint32_t kinds;			/* bit per enum malice_kind */
	bool boot;			/* armed from the start */
};

struct malice;

/*
 * Parse "SEED[:PERMILLE[:KINDS]]" (SEED decimal or 0x hex, up to 2^64-1;
 * PERMILLE 0..1000). Returns 0 or -EINVAL.
 */
int malice_parse(const char *arg, struct malice_cfg *cfg);
/* The default set of kinds (groups dbc, msi, event, nnc). */
uint32_t malice_default_kinds(void);

struct malice *malice_create(const struct malice_cfg *cfg);
void malice_destroy(struct malice *m);

/*
 * The card is up (first QAIC_CONTROL answer delivered): mutations begin.
 * Further calls do nothing; NULL @m is fine. malice_armed() tells.
 */
void malice_arm(struct malice *m);
bool malice_armed(const struct malice *m);

/* Kind enabled at a non-zero rate. False for a NULL @m. */
bool malice_enabled(const struct malice *m, enum malice_kind k);

/*
 * One decision of kind @k: true at the kind's rate, and counted as a
 * mutation (the caller does it). For kinds whose mutation is "do or don't"
 * (a dropped MSI, a spurious one, SYS_ERROR).
 */
bool malice_hit(struct malice *m, enum malice_kind k);
static inline bool malice_drop(struct malice *m, enum malice_kind k)
{
	return malice_hit(m, k);
}

/* A random number from kind @k's stream, for the caller's choices. */
uint64_t malice_rand(struct malice *m, enum malice_kind k);

/*
 * Scalar values. malice_u32: a random other value of @v (MALICE_RSP_STATUS
 * gives a random non-zero 16-bit status). malice_reqid: @id random, off by
 * one, or one of @older (req_ids of earlier responses, @n of them).
 * malice_index: a ring index of a ring of @nelem elements out of the ring,
 * all-ones, going backwards or one ahead.
 */
uint32_t malice_u32(struct malice *m, enum malice_kind k, uint32_t v);
uint16_t malice_reqid(struct malice *m, uint16_t id, const uint16_t *older,
		      unsigned int n);
uint32_t malice_index(struct malice *m, enum malice_kind k, uint32_t v,
		      uint32_t nelem);

/*
 * A vector for a spurious MSI: one of 0..@in_use - 1 (nothing new there)
 * or one of @in_use..31 (not in use).
 */
unsigned int malice_vector(struct malice *m, unsigned int in_use);

/*
 * An MHI event element about to be written (ptr, dw0, dw1 as in the ring):
 * MALICE_EV_PTR, MALICE_EV_LEN (transfer events) and MALICE_EV_TYPE each
 * at their rate. Returns true if anything changed.
 */
bool malice_mhi_event(struct malice *m, uint64_t *ptr, uint32_t *dw0,
		      uint32_t *dw1);
/*
 * The event ring read pointer stored into its context (ring at @base,
 * @len bytes, 16-byte elements): MALICE_EV_RP: outside the ring,
 * misaligned, backwards, 0 or all-ones.
 */
uint64_t malice_ring_ptr(struct malice *m, uint64_t rp, uint64_t base,
			 uint64_t len);

/*
 * An MHI state (enum mhi_state value) or execution environment for a
 * spurious event or a lying register read.
 */
unsigned int malice_mhi_state(struct malice *m);
unsigned int malice_mhi_ee(struct malice *m);

/*
 * An NNC answer of @len bytes in @msg (room for @cap): each MALICE_NNC_*
 * kind at its rate. Fields are rewritten in place; an answer whose CRC was
 * valid gets a new valid CRC unless MALICE_NNC_CRC breaks it; truncation
 * and oversizing change the length returned (1 .. @cap; bytes added are
 * random).
 */
size_t malice_nnc(struct malice *m, uint8_t *msg, size_t len, size_t cap);

/*
 * A Sahara, SSR or telemetry packet of @len bytes in @pkt (room for @cap) on its way to
 * the host: MALICE_PROTO_FIELD rewrites one 32-bit word, MALICE_PROTO_LEN
 * changes the length returned (1 .. @cap; bytes added are random).
 */
size_t malice_packet(struct malice *m, uint8_t *pkt, size_t len, size_t cap);

/*
 * MSI storms. malice_storm(): one MALICE_MSI_STORM decision for an MSI on
 * @vector; on a hit, with no storm running, a storm of MALICE_STORM_MSIS
 * MSIs on @vector begins (counted; true). malice_storm_take(): how many
 * MSIs to raise now and on which vector (0 when none is due);
 * malice_timeout_ms(): poll() timeout until the next batch, -1 when no
 * storm runs. A storm ends when its MSIs are out or after
 * MALICE_STORM_MS, whichever comes first.
 */
bool malice_storm(struct malice *m, unsigned int vector);
unsigned int malice_storm_take(struct malice *m, unsigned int *vector);
int malice_timeout_ms(const struct malice *m);

/* Mutations done of kind @k (0 for a NULL @m). */
uint64_t malice_count(const struct malice *m, enum malice_kind k);
const char *malice_kind_name(enum malice_kind k);

/*
 * "key value" lines: malice_enabled, malice_seed, malice_permille, then
 * malice_<kind> for every kind and malice_storm_msis. A NULL @m prints
 * malice_enabled 0 and zeros.
 */
void malice_print_counters(const struct malice *m, FILE *out);
/* One line for a log: "malice: seed S permille P: kind n, ..." */
void malice_log_summary(const struct malice *m, FILE *out);

#endif /* QAIC_EMU_MALICE_H */
