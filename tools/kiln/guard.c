/* SPDX-License-Identifier: MIT */
/*
 * Description: the guarded write's check of what a disk holds, unit by
 * unit, before kiln writes over it (see guard.h). A blank unit costs a
 * memcmp, a kiln unit of this disk a CRC; only a unit that is neither
 * looks closer, piece by piece, for a torn unit of this disk.
 */
#include <endian.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "guard.h"

#define PIECE 512
#define PIECES (UNIT_SIZE / PIECE)

static const unsigned char zeros[UNIT_SIZE];

int guard_init(struct guard *g, const struct unit_ctx *run, uint64_t ident,
	       int byte)
{
	memset(g, 0, sizeof(*g));
	g->byte = byte;
	g->ident = ident;
	g->run = run;
	if (posix_memalign((void **)&g->scratch, 16, UNIT_SIZE))
		return -ENOMEM;
	return 0;
}

void guard_free(struct guard *g)
{
	free(g->other);
	free(g->scratch);
	g->other = NULL;
	g->scratch = NULL;
}

static int all_one(const unsigned char *p, size_t len, int byte)
{
	size_t i;

	if (!byte)
		return !memcmp(p, zeros, len);
	for (i = 0; i < len; i++)
		if (p[i] != byte)
			return 0;
	return 1;
}

static int blank(const struct guard *g, const unsigned char *p, size_t len)
{
	if (g->byte >= 0)
		return all_one(p, len, g->byte);
	return all_one(p, len, 0x00) || all_one(p, len, 0xff);
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

/*
 * A unit torn by a write cut short: every 512-byte piece is blank or the
 * piece of this disk's unit at off of one run, in one of three passes
 * next to each other. The run and pass come from the header when its
 * piece is new, else from the last unit of this disk seen.
 */
static int torn_own(struct guard *g, const unsigned char *u, uint64_t off)
{
	struct unit_key k = g->last;
	const struct unit_ctx *ctx;
	unsigned matched = 0, j;
	uint32_t p, near;

	if (!memcmp(u, "KILNUNIT", 8)) {
		if (le64(u + 24) != g->ident || le64(u + 32) != off)
			return 0;
		k.run_id = le64(u + 16);
		k.pass = (uint32_t)le64(u + 40);
	}
	if (!k.run_id || !(ctx = ctx_of(g, k.run_id)))
		return 0;
	for (j = 0; j < PIECES; j++)
		if (blank(g, u + j * PIECE, PIECE))
			matched |= 1u << j;
	k.ident = g->ident;
	k.offset = off;
	near = k.pass;
	for (p = near > 1 ? near - 1 : 1; p <= near + 1; p++) {
		k.pass = p;
		unit_fill(ctx, g->scratch, UNIT_SIZE, k);
		for (j = 0; j < PIECES; j++)
			if (!memcmp(u + j * PIECE, g->scratch + j * PIECE,
				    PIECE))
				matched |= 1u << j;
	}
	return matched == (1u << PIECES) - 1;
}

size_t guard_check(struct guard *g, const unsigned char *buf, size_t len,
		   uint64_t off)
{
	size_t i;

	for (i = 0; i + UNIT_SIZE <= len; i += UNIT_SIZE) {
		const unsigned char *u = buf + i;
		struct unit_header h;

		if (blank(g, u, UNIT_SIZE))
			continue;
		if (unit_parse(u, &h) && h.key.ident == g->ident &&
		    h.key.offset == off + i) {
			g->last = h.key;
			continue;
		}
		if (!torn_own(g, u, off + i))
			return i;
	}
	return len;
}
