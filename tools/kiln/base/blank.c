/* SPDX-License-Identifier: MIT */
/*
 * Description: the blank check (see blank.h): whether a span is all 0x00,
 * all 0xff, or neither, in one pass. The guarded write asks it of every
 * unit it reads, so on a blank disk it is the guard's whole cost: a byte
 * at a time (and twice, once for each blank byte) it cost more CPU than
 * the write it guards.
 *
 * Both ways compare every word with the span's first byte repeated, once
 * that byte is known to be 0x00 or 0xff, and stop at the first 64 bytes
 * that differ: a kiln unit or somebody's data differs in its first 16,
 * so only a blank span is read to its end. The ends go by whole words
 * too: a last word that overlaps the one before it, bytes for a span
 * shorter than one word.
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
	want = _mm_set1_epi8((char)b);
	for (i = 0; i + 64 <= len; i += 64) {
		const __m128i *q = (const __m128i *)(const void *)(p + i);

		same = _mm_and_si128(
			_mm_and_si128(
				_mm_cmpeq_epi8(_mm_loadu_si128(q), want),
				_mm_cmpeq_epi8(_mm_loadu_si128(q + 1), want)),
			_mm_and_si128(
				_mm_cmpeq_epi8(_mm_loadu_si128(q + 2), want),
				_mm_cmpeq_epi8(_mm_loadu_si128(q + 3), want)));
		if (_mm_movemask_epi8(same) != 0xffff)
			return BLANK_NONE;
	}
	for (; i + 16 <= len; i += 16) {
		same = _mm_cmpeq_epi8(
			_mm_loadu_si128((const __m128i *)(const void *)(p + i)),
			want);
		if (_mm_movemask_epi8(same) != 0xffff)
			return BLANK_NONE;
	}
	if (i < len) {
		same = _mm_cmpeq_epi8(_mm_loadu_si128(
			(const __m128i *)(const void *)(p + len - 16)), want);
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
