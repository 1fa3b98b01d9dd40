/* SPDX-License-Identifier: MIT */
/*
 * Description: the blank check (see blank.h): whether a span is all 0x00,
 * all 0xff, or neither, in one pass. The guarded write asks it of every
 * unit it reads, so on a blank disk it is the guard's whole cost: a byte
 * at a time (and twice, once for each blank byte) it cost more CPU than
 * the write it guards.
 *
 * Both ways compare the span with its first byte, once that byte is known
 * to be 0x00 or 0xff, a block at a time (128 bytes with SSE2, 32 without),
 * and stop at the first block that differs: a kiln unit or somebody's
 * data differs in its first, so only a blank span is read to its end.
 * The ends go by whole words too: a last word that overlaps the one
 * before it, bytes for a span shorter than one word.
 */
#include <stdint.h>
#include <string.h>

#include "base/blank.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* The span's first byte when it is a blank byte: where both ways start. */
static int first_blank(const unsigned char *p, size_t len)
{
	if (!len || (p[0] != 0x00 && p[0] != 0xff))
		return BLANK_NONE;
	return p[0];
}

static int bytes_are(const unsigned char *p, size_t len, int b)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (p[i] != b)
			return BLANK_NONE;
	return b;
}

static uint64_t load64(const unsigned char *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return v;
}

int blank_byte_portable(const void *buf, size_t len)
{
	const unsigned char *p = buf;
	int b = first_blank(p, len);
	uint64_t want, diff;
	size_t i;

	if (b == BLANK_NONE || len < 8)
		return b == BLANK_NONE ? b : bytes_are(p, len, b);
	want = b ? ~0ull : 0;
	for (i = 0; i + 32 <= len; i += 32) {
		diff = (load64(p + i) ^ want) | (load64(p + i + 8) ^ want) |
		       (load64(p + i + 16) ^ want) |
		       (load64(p + i + 24) ^ want);
		if (diff)
			return BLANK_NONE;
	}
	for (; i + 8 <= len; i += 8)
		if (load64(p + i) != want)
			return BLANK_NONE;
	if (i < len && load64(p + len - 8) != want)
		return BLANK_NONE;
	return b;
}

#if defined(__SSE2__)
__attribute__((always_inline))
static inline __m128i join(__m128i x, __m128i y, int b)
{
	return b ? _mm_and_si128(x, y) : _mm_or_si128(x, y);
}

__attribute__((always_inline))
static inline __m128i load(const unsigned char *p)
{
	return _mm_loadu_si128((const __m128i *)(const void *)p);
}

/*
 * 128 bytes a step: 0x00 is what every byte ORed together is, 0xff what
 * they ANDed are, so each 16 bytes cost a load and one OR or AND, and the
 * step one compare; b is a constant where this is inlined, so each blank
 * byte gets a loop of its own. The offset where a step found a differing
 * byte, or the end of the steps.
 */
__attribute__((always_inline))
static inline size_t steps_are(const unsigned char *p, size_t len, int b)
{
	const __m128i want = _mm_set1_epi8((char)b);
	__m128i x;
	size_t i;

	for (i = 0; i + 128 <= len; i += 128) {
		const unsigned char *q = p + i;

		x = join(join(join(load(q), load(q + 16), b),
			      join(load(q + 32), load(q + 48), b), b),
			 join(join(load(q + 64), load(q + 80), b),
			      join(load(q + 96), load(q + 112), b), b), b);
		if (_mm_movemask_epi8(_mm_cmpeq_epi8(x, want)) != 0xffff)
			return i;
	}
	return i;
}

/*
 * SSE2 is part of x86-64 itself, so this needs no CPUID: QEMU's default
 * CPU, which lacks SSE4.2, has it. Loads are unaligned (movdqu), which
 * costs nothing extra on aligned data since Nehalem.
 */
int blank_byte(const void *buf, size_t len)
{
	const unsigned char *p = buf;
	int b = first_blank(p, len);
	__m128i want, same;
	size_t i;

	if (b == BLANK_NONE || len < 16)
		return b == BLANK_NONE ? b : blank_byte_portable(p, len);
	i = b ? steps_are(p, len, 0xff) : steps_are(p, len, 0x00);
	if (i + 128 <= len)
		return BLANK_NONE;
	want = _mm_set1_epi8((char)b);
	for (; i + 16 <= len; i += 16) {
		same = _mm_cmpeq_epi8(load(p + i), want);
		if (_mm_movemask_epi8(same) != 0xffff)
			return BLANK_NONE;
	}
	if (i < len) {
		same = _mm_cmpeq_epi8(load(p + len - 16), want);
		if (_mm_movemask_epi8(same) != 0xffff)
			return BLANK_NONE;
	}
	return b;
}
#else
int blank_byte(const void *p, size_t len)
{
	return blank_byte_portable(p, len);
}
#endif
