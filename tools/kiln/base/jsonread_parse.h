/* SPDX-License-Identifier: MIT */
#ifndef KILN_JSONREAD_PARSE_H
#define KILN_JSONREAD_PARSE_H

#include <stddef.h>
#include <stdint.h>

#include "base/jsonread_tree.h"

/*
 * Private to the JSON reader: the state of one parse, and what the string
 * and number readers (jsonread_token.c) need of the parser to report a
 * failure and to keep what they decode. Included only by jsonread_parse.c
 * and jsonread_token.c; jsonread_parse() itself is in jsonread.h.
 */

struct jsonread_parse_state {
	const unsigned char *buf, *p, *end;
	size_t max_nodes, nodes;
	unsigned max_depth, depth;
	struct jsonread_parse_frame *frames;	/* the open containers */
	size_t frames_cap;
	struct jsonread_node *out, *stk;	/* final array, scratch */
	size_t nout, out_cap, nstk, stk_cap;
	char *arena;
	size_t narena, arena_cap;
	/* the name read for the value that comes next */
	size_t key;
	uint32_t keylen;
	int haskey;
	char *err;
	size_t errlen;
};

/*
 * Fills err with a reason and where at is ("... at byte 1234 (line 56)");
 * returns ret.
 */
__attribute__((format(printf, 4, 5)))
int jsonread_parse_fail(struct jsonread_parse_state *ps,
			const unsigned char *at, int ret, const char *fmt, ...);

/* -EBADMSG, "expected WHAT, found X" with what sits at ps->p. */
int jsonread_parse_expected(struct jsonread_parse_state *ps, const char *what);

/* What sits at p, for a message: 'x', byte 0xff, or the end. */
void jsonread_parse_found(const struct jsonread_parse_state *ps,
			  const unsigned char *p, char *buf, size_t len);

/* Appends n bytes to the arena of decoded strings: 0 or -ENOMEM. */
int jsonread_parse_arena_put(struct jsonread_parse_state *ps, const void *s,
			     size_t n);

#endif
