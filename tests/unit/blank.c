/* SPDX-License-Identifier: MIT */
/*
 * Description: blank_byte() and its portable fallback say all 0x00, all
 * 0xff or neither, the same as a byte-at-a-time look, for every length
 * from 0 past a unit at every alignment, with one byte changed at every
 * place of a unit, and for mixed bytes, other single bytes and empty
 * spans. The x86-64 build runs the SSE2 way; the portable way is the one
 * a non-x86 build runs, so both are held to the same answers here.
 */
#include <stdint.h>
#include <string.h>

#include "../lib/tap.h"
#include "base/blank.h"
#include "base/kiln.h"
#include "base/unit.h"

#define MAXLEN (UNIT_SIZE + 80)
#define ALIGNS 17

static _Alignas(64) unsigned char buf[MAXLEN + 64];

/* The answer, a byte at a time. */
static int slow(const unsigned char *p, size_t len)
{
	size_t i;

	if (!len || (p[0] != 0x00 && p[0] != 0xff))
		return BLANK_NONE;
	for (i = 1; i < len; i++)
		if (p[i] != p[0])
			return BLANK_NONE;
	return p[0];
}

struct way {
	const char *name;
	int (*fn)(const void *p, size_t len);
};

static const struct way ways[] = {
	{ "blank_byte", blank_byte },
	{ "blank_byte_portable", blank_byte_portable },
};

/*
 * Every length 0..MAXLEN at alignments 0..ALIGNS-1 of a span of b, and
 * with its last byte changed: the last word is where a way that rounds
 * its length down would not look. The byte just past the span differs,
 * so a way that reads too far says neither.
 */
static void lengths(int b)
{
	size_t w, a, len;

	for (w = 0; w < ARRAY_SIZE(ways); w++) {
		unsigned bad = 0, first = 0;

		for (a = 0; a < ALIGNS; a++) {
			unsigned char *p = buf + a;

			memset(buf, b ^ 0x5a, sizeof(buf));
			for (len = 0; len <= MAXLEN; len++) {
				int got, want;

				if (len)
					p[len - 1] = (unsigned char)b;
				got = ways[w].fn(p, len);
				want = len ? b : BLANK_NONE;
				if (got != want && !bad++)
					first = (unsigned)(a << 16 | len);
				if (!len)
					continue;
				p[len - 1] ^= 0x01;
				got = ways[w].fn(p, len);
				if (got != slow(p, len) && !bad++)
					first = (unsigned)(a << 16 | len);
				p[len - 1] ^= 0x01;
			}
		}
		if (!tap_ok(!bad, "%s: every length 0..%d at %d alignments of "
			    "0x%02x, and with its last byte changed", ways[w].name,
			    MAXLEN, ALIGNS, b))
			tap_diag("%u wrong, first at alignment %u length %u",
				 bad, first >> 16, first & 0xffff);
	}
}

static void test_zeros(void)
{
	lengths(0x00);
}

static void test_ones(void)
{
	lengths(0xff);
}

/* A unit of b with one byte changed, at every place and alignment. */
static void one_byte(int b, unsigned char to)
{
	size_t w, a, i;

	for (w = 0; w < ARRAY_SIZE(ways); w++) {
		unsigned bad = 0;
		size_t at = 0;

		for (a = 0; a < ALIGNS; a += 4) {
			unsigned char *p = buf + a;

			memset(p, b, UNIT_SIZE);
			for (i = 0; i < UNIT_SIZE; i++) {
				p[i] = to;
				if (ways[w].fn(p, UNIT_SIZE) != BLANK_NONE &&
				    !bad++)
					at = i;
				p[i] = (unsigned char)b;
			}
		}
		if (!tap_ok(!bad, "%s: a unit of 0x%02x with one byte 0x%02x "
			    "anywhere is neither", ways[w].name, b, to))
			tap_diag("%u said blank, first with the byte at %zu",
				 bad, at);
	}
}

static void test_one_byte(void)
{
	one_byte(0x00, 0x01);
	one_byte(0x00, 0xff);
	one_byte(0xff, 0xfe);
	one_byte(0xff, 0x00);
	one_byte(0x00, 0x80);
}

/* Spans of one byte that is not blank, and mixed 0x00 and 0xff. */
static void test_neither(void)
{
	size_t w;

	for (w = 0; w < ARRAY_SIZE(ways); w++) {
		int (*fn)(const void *, size_t) = ways[w].fn;
		unsigned bad = 0;
		size_t i;
		int c;

		for (c = 0x01; c < 0xff; c++) {
			memset(buf, c, UNIT_SIZE);
			bad += fn(buf, UNIT_SIZE) != BLANK_NONE;
			bad += fn(buf + 1, 1) != BLANK_NONE;
		}
		tap_ok(!bad, "%s: a unit (and a byte) of any other one byte "
		       "is neither", ways[w].name);
		memset(buf, 0x00, UNIT_SIZE / 2);
		memset(buf + UNIT_SIZE / 2, 0xff, UNIT_SIZE / 2);
		tap_ok(fn(buf, UNIT_SIZE) == BLANK_NONE, "%s: half 0x00, half "
		       "0xff is neither", ways[w].name);
		for (i = 0; i < UNIT_SIZE; i++)
			buf[i] = i & 1 ? 0xff : 0x00;
		tap_ok(fn(buf, UNIT_SIZE) == BLANK_NONE, "%s: 0x00 and 0xff "
		       "by turns is neither", ways[w].name);
		tap_ok(fn(buf, 0) == BLANK_NONE && fn(NULL, 0) == BLANK_NONE,
		       "%s: an empty span holds neither", ways[w].name);
	}
}

/* What the guard reads on a disk kiln wrote: never blank. */
static void test_unit(void)
{
	static struct unit_ctx ctx;
	struct unit_key k = { 0x1234, 0x5678, 1ull << 20, 1 };
	size_t w;

	unit_ctx_init(&ctx, k.run_id);
	unit_fill(&ctx, buf, UNIT_SIZE, k);
	for (w = 0; w < ARRAY_SIZE(ways); w++)
		tap_ok(ways[w].fn(buf, UNIT_SIZE) == BLANK_NONE &&
		       ways[w].fn(buf + 64, UNIT_SIZE - 64) == BLANK_NONE,
		       "%s: a kiln unit, and its payload alone, is neither",
		       ways[w].name);
}

int main(int argc, char **argv)
{
	tap_args(argc, argv);
	TAP_RUN(test_zeros);
	TAP_RUN(test_ones);
	TAP_RUN(test_one_byte);
	TAP_RUN(test_neither);
	TAP_RUN(test_unit);
	return tap_done();
}
