/* SPDX-License-Identifier: MIT */
/*
 * Description: the 4 KiB unit: its CRC is the CRC of its bytes under every
 * CRC implementation and fill (AVX-512's too), it is a pure function of
 * its key, the fast check
 * catches any change, and each kind of damage is classified as such;
 * counts said with their nouns, one or many.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/tap.h"
#include "base/crc32c.h"
#include "base/unit.h"

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint64_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static struct unit_ctx ctx, other_ctx;
static uint64_t a[UNIT_SIZE / 8], b[UNIT_SIZE / 8], c[UNIT_SIZE / 8];
#define A ((unsigned char *)a)
#define B ((unsigned char *)b)

static struct unit_key key(uint64_t off, uint32_t pass)
{
	struct unit_key k = { 0x1122334455667788ull, 0xabcdef0123456789ull,
			      off, pass };

	return k;
}

static enum unit_class classify(const void *u, struct unit_key k,
				struct unit_verdict *v)
{
	unit_classify(&ctx, u, k, v);
	return v->class;
}

static void test_crc_and_purity(void)
{
	const char *name;
	int n, i, good;

	for (n = 0; (name = crc32c_names[n]); n++) {
		if (crc32c_use(name)) {
			tap_skip("%s: this CPU lacks it", name);
			continue;
		}
		good = 1;
		for (i = 0; i < 300 && good; i++) {
			struct unit_key k = { next(), next(), next() & ~4095ull,
					      (uint32_t)next() };
			uint32_t crc;

			if (i % 50 == 0)
				unit_ctx_init(&ctx, k.run_id);
			k.run_id = ctx.run_id;
			unit_fill(&ctx, a, UNIT_SIZE, k);
			memcpy(&crc, A + UNIT_CRC_AT, 4);
			good = crc == crc32c(0, A, UNIT_CRC_AT) &&
			       unit_good(&ctx, A, k);
		}
		tap_ok(good, "%s: a unit's stored CRC is the CRC32C of its "
		       "bytes, and the unit checks good", name);
	}
	crc32c_init();
}

/*
 * An I/O buffer (64-byte aligned) is filled a cache line a store where
 * the CPU has AVX-512 (ctx.wide): the same bytes, several units at once,
 * as the 16-byte way's and the cached way's, for every key tried.
 */
static void test_wide_fill(void)
{
	static _Alignas(64) unsigned char w[4 * UNIT_SIZE], n[4 * UNIT_SIZE];
	static unsigned char odd[4 * UNIT_SIZE + 1];
	int wide, i, same = 1;

	unit_ctx_init(&ctx, 0x5eed);
	wide = ctx.wide;
	if (!wide) {
		tap_skip("the wide fill: this CPU lacks AVX-512");
		return;
	}
	for (i = 0; i < 200 && same; i++) {
		struct unit_key k = { ctx.run_id, next(), next() & ~4095ull,
				      (uint32_t)next() };

		ctx.wide = 1;
		unit_fill(&ctx, w, sizeof(w), k);
		ctx.wide = 0;
		unit_fill(&ctx, n, sizeof(n), k);
		unit_fill(&ctx, odd + 1, sizeof(n), k);
		same = !memcmp(w, n, sizeof(w)) && !memcmp(w, odd + 1, sizeof(w));
		k.offset += UNIT_SIZE * 3;
		same = same && unit_good(&ctx, w + 3 * UNIT_SIZE, k);
	}
	ctx.wide = wide;
	tap_ok(same, "the wide fill writes the 16-byte and the cached fills' "
	       "bytes, unit after unit");
}

static void test_key(void)
{
	struct unit_key k = key(1 << 20, 3), k2;
	struct unit_header h;
	int i, same, flips_caught = 1, bits;

	unit_ctx_init(&ctx, k.run_id);
	unit_fill(&ctx, a, UNIT_SIZE, k);
	unit_fill(&ctx, b, UNIT_SIZE, k);
	tap_ok(!memcmp(a, b, UNIT_SIZE), "the same key gives the same bytes");

	tap_ok(unit_parse(A, &h) && h.key.run_id == k.run_id &&
	       h.key.ident == k.ident && h.key.offset == k.offset &&
	       h.key.pass == 3 && h.version == UNIT_VERSION,
	       "the header parses back to its key");

	k2 = k;
	k2.offset += UNIT_SIZE;
	unit_fill(&ctx, b, UNIT_SIZE, k2);
	bits = 0;
	for (i = UNIT_HEADER; i < UNIT_SIZE; i++)
		bits += __builtin_popcount(A[i] ^ B[i]);
	tap_ok(bits > (UNIT_SIZE - UNIT_HEADER) * 8 * 4 / 10,
	       "neighbouring units differ in %d of %d payload bits", bits,
	       (UNIT_SIZE - UNIT_HEADER) * 8);

	same = unit_good(&ctx, A, k);
	k2 = k; k2.pass++;
	same += !unit_good(&ctx, A, k2);
	k2 = k; k2.offset += 512;
	same += !unit_good(&ctx, A, k2);
	k2 = k; k2.ident ^= 1;
	same += !unit_good(&ctx, A, k2);
	unit_ctx_init(&other_ctx, k.run_id + 1);
	k2 = k; k2.run_id = other_ctx.run_id;
	unit_fill(&other_ctx, b, UNIT_SIZE, k2);
	same += !unit_good(&ctx, B, k);
	tap_ok(same == 5, "the fast check wants the exact run, identity, "
	       "offset and pass");

	for (i = 0; i < UNIT_SIZE * 8; i += 7) {
		A[i / 8] ^= 1 << (i % 8);
		if (unit_good(&ctx, A, k))
			flips_caught = 0;
		A[i / 8] ^= 1 << (i % 8);
	}
	tap_ok(flips_caught && unit_good(&ctx, A, k),
	       "the fast check catches a single flipped bit anywhere");

	unit_fill(&ctx, a, UNIT_SIZE, k);
	A[510] = 0x55;
	A[511] = 0xaa;
	k2 = k;
	tap_ok(!unit_parse(A, &h), "a unit changed at bytes 510-511 no longer "
	       "parses");
	(void)k2;
}

static void test_classes(void)
{
	struct unit_key k = key(8 << 20, 2), k2;
	struct unit_verdict v;
	int i;

	unit_ctx_init(&ctx, k.run_id);

	unit_fill(&ctx, a, UNIT_SIZE, k);
	tap_ok(classify(A, k, &v) == UNIT_GOOD, "good is good");

	A[100] ^= 0x04;			/* bit 802 */
	A[2000] ^= 0x81;		/* bits 16000 and 16007 */
	classify(A, k, &v);
	tap_ok(v.class == UNIT_BITFLIP && v.nbits == 3 && v.bits[0] == 802 &&
	       v.bits[1] == 16000 && v.bits[2] == 16007 &&
	       v.sectors_bad == (1u << 0 | 1u << 3),
	       "three flipped bits: bitflip, 3 bits at 802 16000 16007 (%s, "
	       "%u bits)", unit_class_name(v.class), v.nbits);

	for (i = 0; i < 40; i++)
		A[1024 + i * 3] ^= 1 << (i % 8);
	classify(A, k, &v);
	tap_ok(v.class == UNIT_BITFLIP && v.nbits == 43 && v.bits[15] > 0,
	       "43 flipped bits: all counted, the first %d positions kept",
	       UNIT_MAX_BITS);

	memset(a, 0, sizeof(a));
	tap_ok(classify(A, k, &v) == UNIT_ZEROED, "all zero is zeroed");

	k2 = k;
	k2.pass = 1;
	unit_fill(&ctx, a, UNIT_SIZE, k2);
	tap_ok(classify(A, k, &v) == UNIT_STALE && v.found_valid &&
	       v.found.pass == 1, "the same unit of pass 1 is stale when pass "
	       "2 is expected");

	unit_ctx_init(&other_ctx, k.run_id ^ 0xff);
	k2 = k;
	k2.run_id = other_ctx.run_id;
	unit_fill(&other_ctx, a, UNIT_SIZE, k2);
	tap_ok(classify(A, k, &v) == UNIT_STALE &&
	       v.found.run_id == k2.run_id,
	       "this disk and offset from an earlier run is stale (a lost "
	       "write)");

	k2 = k;
	k2.offset += 7 * UNIT_SIZE;
	unit_fill(&ctx, a, UNIT_SIZE, k2);
	tap_ok(classify(A, k, &v) == UNIT_MISDIRECTED &&
	       v.found.offset == k2.offset,
	       "another offset's unit is misdirected, and says where from");

	k2 = k;
	k2.ident ^= 0x5a5a;
	unit_fill(&ctx, a, UNIT_SIZE, k2);
	tap_ok(classify(A, k, &v) == UNIT_MISDIRECTED &&
	       v.found.ident == k2.ident,
	       "another disk's unit of this run is misdirected");

	k2.run_id = other_ctx.run_id;
	unit_fill(&other_ctx, a, UNIT_SIZE, k2);
	tap_ok(classify(A, k, &v) == UNIT_FOREIGN,
	       "another disk's unit of another run is foreign");

	for (i = 0; i < UNIT_SIZE / 8; i++)
		a[i] = next();
	tap_ok(classify(A, k, &v) == UNIT_FOREIGN, "random bytes are "
	       "foreign");
	memset(a, 0xff, sizeof(a));
	tap_ok(classify(A, k, &v) == UNIT_FOREIGN, "all ones are foreign");

	/* A write that tore after four sectors, over the previous pass. */
	unit_fill(&ctx, a, UNIT_SIZE, k);
	k2 = k;
	k2.pass = 1;
	unit_fill(&ctx, c, UNIT_SIZE, k2);
	memcpy(A + 2048, (unsigned char *)c + 2048, 2048);
	classify(A, k, &v);
	tap_ok(v.class == UNIT_TORN && v.sectors_bad == 0xf0,
	       "half new, half the previous pass: torn in sectors 4-7 (%s, "
	       "mask %#x)", unit_class_name(v.class), v.sectors_bad);

	unit_fill(&ctx, a, UNIT_SIZE, k);
	memset(A + 3584, 0, 512);
	tap_ok(classify(A, k, &v) == UNIT_TORN && v.sectors_bad == 0x80,
	       "the last sector never written: torn");

	unit_fill(&ctx, a, UNIT_SIZE, k);
	memcpy(A, c, 512);
	tap_ok(classify(A, k, &v) == UNIT_TORN && v.sectors_bad == 0x01,
	       "only the header sector old: torn");

	unit_fill(&ctx, a, UNIT_SIZE, k);
	memcpy(A + 2048, (unsigned char *)c + 2048, 2048);
	tap_ok(classify(A, k, &v) == UNIT_TORN && v.sectors_bad == 0xf0,
	       "half old, half new is torn whatever the device's sector size "
	       "(a 4Kn drive too)");

	tap_ok(!strcmp(unit_class_name(UNIT_MISDIRECTED), "misdirected") &&
	       !strcmp(unit_class_name(UNIT_CLASSES), "unknown"),
	       "class names");
}

/* Counts kiln says: "1 bad unit", "2 bad units", "1 pass", "0 passes". */
static void test_counts(void)
{
	char buf[64];

	tap_ok(!strcmp(unit_count(buf, sizeof(buf), 1, "bad unit", NULL),
		       "1 bad unit") &&
	       !strcmp(unit_count(buf, sizeof(buf), 2, "bad unit", NULL),
		       "2 bad units") &&
	       !strcmp(unit_count(buf, sizeof(buf), 0, "request", NULL),
		       "0 requests"), "a count and its noun, one or many");
	tap_ok(!strcmp(unit_count(buf, sizeof(buf), 1, "pass", "passes"),
		       "1 pass") &&
	       !strcmp(unit_count(buf, sizeof(buf), 3, "pass", "passes"),
		       "3 passes"), "... a plural of its own");
	tap_ok(!strcmp(unit_plural(1, "request", "requests"), "request") &&
	       !strcmp(unit_plural(12, "request", "requests"), "requests"),
	       "the noun alone, for a count said apart");
	tap_ok(!strcmp(unit_count(buf, 8, 123456, "request", NULL),
		       "123456 "), "cut to the buffer, never past it (%s)",
	       buf);
}

int main(int argc, char **argv)
{
	tap_args(argc, argv);
	crc32c_init();
	TAP_RUN(test_crc_and_purity);
	TAP_RUN(test_wide_fill);
	TAP_RUN(test_key);
	TAP_RUN(test_classes);
	TAP_RUN(test_counts);
	return tap_done();
}
