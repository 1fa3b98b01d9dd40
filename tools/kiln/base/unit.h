/* SPDX-License-Identifier: MIT */
#ifndef KILN_UNIT_H
#define KILN_UNIT_H

#include <stddef.h>
#include <stdint.h>

/*
 * The 4 KiB unit, kiln's block format: every unit kiln writes describes
 * itself, and its bytes are a pure function of (run id, identity hash,
 * offset, pass), so a verifier regenerates what should be there.
 *
 *   0  magic "KILNUNIT"        24 identity hash (u64)   48 seed (u64)
 *   8  version (u16) = 1       32 byte offset (u64)     56 reserved, 0
 *  10  header size (u16) = 64  40 pass (u32)            64 payload ...
 *  12  unit size (u32) = 4096  44 reserved, 0         4092 CRC32C of 0..4091
 *  16  run id (u64)
 *
 * Integers are little-endian. The payload is the run's random base pattern
 * exclusive-ored with the 64-bit seed, a mix of the four key values: every
 * unit differs, none compresses, and the CRC of a unit can be computed from
 * the header and seed alone (the CRC is linear), so writing costs a fill.
 */
#define UNIT_SIZE 4096
#define UNIT_HEADER 64
#define UNIT_CRC_AT (UNIT_SIZE - 4)
#define UNIT_VERSION 1
/* Bit positions kept per bad unit; the count is always exact. */
#define UNIT_MAX_BITS 16

struct unit_key {
	uint64_t run_id;
	uint64_t ident;
	uint64_t offset;
	uint32_t pass;
};

/* Per run: the base pattern and the tables that make the CRC cheap. */
struct unit_ctx {
	uint64_t run_id;
	_Alignas(16) uint64_t base[UNIT_SIZE / 8];
	uint32_t seed_crc[8][256];
	uint32_t header_shift[4][256];
	uint32_t crc_const;
	uint32_t header_zero_crc;
	/*
	 * unit_fill() writes I/O buffers a cache line at a time (AVX-512):
	 * set by unit_ctx_init() where the CPU has it; 0 its 16-byte way
	 */
	int wide;
};

enum unit_class {
	UNIT_GOOD,
	UNIT_BITFLIP,		/* a few bits differ from what was written */
	UNIT_ZEROED,		/* all zero: never written, or lost */
	UNIT_STALE,		/* this unit from an earlier pass or run */
	UNIT_MISDIRECTED,	/* a unit meant for another offset or disk */
	UNIT_TORN,		/* some sectors new, others not */
	UNIT_FOREIGN,		/* not a unit of this run */
	UNIT_CLASSES
};

/* What a read-back unit turned out to be. */
struct unit_verdict {
	enum unit_class class;
	uint32_t nbits;			/* bits that differ from expected */
	uint16_t bits[UNIT_MAX_BITS];	/* first differing bit positions */
	uint32_t sectors_bad;		/* bit mask of differing sectors */
	/* A self-consistent kiln unit found instead (stale, misdirected). */
	int found_valid;
	struct unit_key found;
};

/* A parsed header. */
struct unit_header {
	uint16_t version;
	uint16_t header_size;
	uint32_t unit_size;
	struct unit_key key;
	uint64_t seed;
	uint32_t crc;
};

void unit_ctx_init(struct unit_ctx *ctx, uint64_t run_id);

/*
 * Fills len bytes (whole units) for key: unit i gets offset + i * UNIT_SIZE.
 * A 16-byte aligned buf (an I/O buffer) is written around the caches.
 */
void unit_fill(const struct unit_ctx *ctx, void *buf, size_t len,
	       struct unit_key key);

/* The fast check of one unit: 1 when it is exactly what key wrote. */
int unit_good(const struct unit_ctx *ctx, const void *buf,
	      struct unit_key key);

/*
 * The slow look at one unit: what it is, compared with what key wrote.
 * A unit tears by 512-byte pieces (sectors_bad has a bit per piece).
 */
void unit_classify(const struct unit_ctx *ctx, const void *buf,
		   struct unit_key key, struct unit_verdict *v);

/* 1 when buf holds a self-consistent kiln unit (magic, version, CRC). */
int unit_parse(const void *buf, struct unit_header *h);

const char *unit_class_name(enum unit_class c);

uint64_t unit_mix(uint64_t x);

/* The 64-bit hash of a target's identity, as units carry it. */
uint64_t unit_ident_hash(const char *identity);

/*
 * How many of what, said right: "1 bad unit", "2 bad units", "1 request".
 * many is the plural ("passes"), or NULL for one with an s. Into buf.
 */
char *unit_count(char *buf, size_t len, uint64_t n, const char *one,
		 const char *many);

/* The noun alone: one when n is 1, else many. */
const char *unit_plural(uint64_t n, const char *one, const char *many);

#endif
