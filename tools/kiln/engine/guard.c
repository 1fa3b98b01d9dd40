/* SPDX-License-Identifier: MIT */
/*
 * Description: the guarded write's check of what a disk holds, unit by
 * unit, before kiln writes over it (see guard.h). A blank unit
 * costs one pass of blank_byte(), a kiln unit of this disk a CRC; only a
 * unit that is neither looks closer, piece by piece, for a torn unit of
 * this disk.
 */
#include <endian.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/blank.h"
#include "engine/guard.h"

#define PIECE 512
#define PIECES (UNIT_SIZE / PIECE)

int guard_init(struct guard *g, const struct unit_ctx *run, uint64_t ident,
	       int byte)
{
	memset(g, 0, sizeof(*g));
	g->byte = byte;
	g->ident = ident;
	g->run = run;
	if (posix_memalign((void **)&g->scratch, 16, UNIT_SIZE) ||
	    posix_memalign((void **)&g->part, 16, UNIT_SIZE))
		return -ENOMEM;
	return 0;
}

void guard_free(struct guard *g)
{
	free(g->other);
	free(g->scratch);
	free(g->part);
	g->other = NULL;
	g->scratch = NULL;
	g->part = NULL;
}

static int blank(const struct guard *g, const unsigned char *p, size_t len)
{
	int b = blank_byte(p, len);

	if (g->byte >= 0)
		return b == g->byte;
	return b != BLANK_NONE;
}

/* The unit format of run: this run's, or another made once for it. */
static const struct unit_ctx *ctx_of(struct guard *g, uint64_t run)
{
	if (run == g->run->run_id)
		return g->run;
	if (!g->other &&
	    posix_memalign((void **)&g->other, 16, sizeof(*g->other)))
		return NULL;
	if (!g->made || g->other->run_id != run) {
		unit_ctx_init(g->other, run);
		g->made = 1;
	}
	return g->other;
}

static uint64_t le64(const unsigned char *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return le64toh(v);
}

/* A unit of this disk was seen: its run goes first in g->last. */
static void saw(struct guard *g, struct unit_key k)
{
	unsigned i;

	for (i = 0; i < GUARD_RUNS - 1 && g->last[i].run_id != k.run_id; i++)
		;
	memmove(&g->last[1], &g->last[0], i * sizeof(g->last[0]));
	g->last[0] = k;
}

/* The pieces of u that k's run wrote at off, in one of three passes. */
static unsigned pieces_of(struct guard *g, const unsigned char *u,
			  uint64_t off, struct unit_key k)
{
	const struct unit_ctx *ctx;
	unsigned matched = 0, j;
	uint32_t p, near = k.pass;

	if (!k.run_id || !(ctx = ctx_of(g, k.run_id)))
		return 0;
	k.ident = g->ident;
	k.offset = off;
	for (p = near > 1 ? near - 1 : 1; p <= near + 1; p++) {
		k.pass = p;
		unit_fill(ctx, g->scratch, UNIT_SIZE, k);
		for (j = 0; j < PIECES; j++)
			if (!memcmp(u + j * PIECE, g->scratch + j * PIECE,
				    PIECE))
				matched |= 1u << j;
	}
	return matched;
}

/*
 * Unit i of buf (at device offset off), torn by a write cut short: every
 * 512-byte piece is blank or the piece of this disk's unit at off of a
 * run, in one of three passes next to each other. The runs tried: the
 * header's when its piece is new, the last ones of this disk seen, and
 * those of the units after it in buf (a run cut short over an earlier
 * one leaves the earlier one's units just after the torn ones).
 */
static int torn_own(struct guard *g, const unsigned char *buf, size_t len,
		    size_t i, uint64_t off)
{
	const unsigned all = (1u << PIECES) - 1;
	const unsigned char *u = buf + i;
	struct unit_header h;
	unsigned matched = 0, j;
	size_t n;

	if (!memcmp(u, "KILNUNIT", 8)) {
		struct unit_key k = { le64(u + 16), g->ident, off,
				      (uint32_t)le64(u + 40) };

		if (le64(u + 24) != g->ident || le64(u + 32) != off)
			return 0;
		matched |= pieces_of(g, u, off, k);
	}
	for (j = 0; j < PIECES; j++)
		if (blank(g, u + j * PIECE, PIECE))
			matched |= 1u << j;
	for (j = 0; j < GUARD_RUNS && matched != all; j++)
		matched |= pieces_of(g, u, off, g->last[j]);
	for (n = i + UNIT_SIZE; n + UNIT_SIZE <= len && matched != all;
	     n += UNIT_SIZE)
		if (unit_parse(buf + n, &h) && h.key.ident == g->ident &&
		    h.key.offset == off - i + n &&
		    h.key.run_id != g->last[0].run_id) {
			saw(g, h.key);
			matched |= pieces_of(g, u, off, h.key);
		}
	return matched == all;
}

/*
 * n bytes at p that are bytes [at, at + n) of the unit at device offset
 * u, where a read begins or ends inside a unit: each piece blank, or that
 * unit's piece of one of the last runs seen.
 */
static int part_own(struct guard *g, const unsigned char *p, size_t n,
		    uint64_t u, size_t at)
{
	unsigned want = 0, matched = 0, j;

	memcpy(g->part + at, p, n);
	for (j = (unsigned)(at / PIECE); j < (at + n) / PIECE; j++) {
		want |= 1u << j;
		if (blank(g, g->part + j * PIECE, PIECE))
			matched |= 1u << j;
	}
	for (j = 0; j < GUARD_RUNS && (matched & want) != want; j++)
		matched |= pieces_of(g, g->part, u, g->last[j]);
	return (matched & want) == want;
}

size_t guard_check(struct guard *g, const unsigned char *buf, size_t len,
		   uint64_t off)
{
	/*
	 * The units on disk lie 4 KiB apart from byte 0; a read from an
	 * offset that is not a multiple of 4 KiB (--offset 512) begins and
	 * ends inside one: those parts are looked at piece by piece, once
	 * the whole units between, and the header of the part at the end,
	 * have said which runs are there (a part at the start has none).
	 */
	size_t head = (size_t)((UNIT_SIZE - off % UNIT_SIZE) % UNIT_SIZE);
	size_t i, end;

	if (head > len)
		head = len;
	end = head + (len - head) / UNIT_SIZE * UNIT_SIZE;
	for (i = head; i < end; i += UNIT_SIZE) {
		const unsigned char *u = buf + i;
		struct unit_header h;

		if (blank(g, u, UNIT_SIZE))
			continue;
		if (unit_parse(u, &h) && h.key.ident == g->ident &&
		    h.key.offset == off + i) {
			if (h.key.run_id != g->last[0].run_id ||
			    h.key.pass != g->last[0].pass)
				saw(g, h.key);
			continue;
		}
		if (!torn_own(g, buf, len, i, off + i))
			break;
	}
	if (end < len && len - end >= UNIT_HEADER &&
	    !memcmp(buf + end, "KILNUNIT", 8) &&
	    le64(buf + end + 24) == g->ident &&
	    le64(buf + end + 32) == off + end) {
		struct unit_key k = { le64(buf + end + 16), g->ident, off + end,
				      (uint32_t)le64(buf + end + 40) };

		saw(g, k);
	}
	if (head && !part_own(g, buf, head, off + head - UNIT_SIZE,
			      UNIT_SIZE - head))
		return 0;
	if (i < end)
		return i;
	if (end < len && !part_own(g, buf + end, len - end, off + end, 0))
		return end;
	return len;
}
