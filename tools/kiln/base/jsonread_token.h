/* SPDX-License-Identifier: MIT */
#ifndef KILN_JSONREAD_TOKEN_H
#define KILN_JSONREAD_TOKEN_H

#include <stddef.h>
#include <stdint.h>

#include "base/jsonread_parse.h"

/*
 * Private to the JSON reader: its strings and numbers, read for the
 * parser, and what both need of the parse's state: a failure said where
 * it is, the arena of decoded strings, arrays grown by doubling (the
 * parser calls down to them; nothing here calls the parser). Included
 * only by jsonread_parse.c and jsonread_token.c. Both readers leave ps->p
 * just past what they read, and fail as jsonread_token_fail() does.
 */

/*
 * The string at ps->p (its opening quote), decoded into the arena with a
 * NUL after it: its offset and length there; *nul when it holds a NUL.
 */
int jsonread_token_string(struct jsonread_parse_state *ps, size_t *off,
			  uint32_t *len, int *nul);

/* The number at ps->p (a '-' or a digit), as a JSONREAD_NUMBER node in n. */
int jsonread_token_number(struct jsonread_parse_state *ps,
			  struct jsonread_node *n);

/*
 * Fills err with a reason and where at is ("... at byte 1234 (line 56)");
 * returns ret.
 */
__attribute__((format(printf, 4, 5)))
int jsonread_token_fail(struct jsonread_parse_state *ps,
			const unsigned char *at, int ret, const char *fmt, ...);

/* -EBADMSG, "expected WHAT, found X" with what sits at ps->p. */
int jsonread_token_expected(struct jsonread_parse_state *ps, const char *what);

/* What sits at p, for a message: 'x', byte 0xff, or the end. */
void jsonread_token_found(const struct jsonread_parse_state *ps,
			  const unsigned char *p, char *buf, size_t len);

/* Appends n bytes to the arena of decoded strings: 0 or -ENOMEM. */
int jsonread_token_arena_put(struct jsonread_parse_state *ps, const void *s,
			     size_t n);

/*
 * The array p of *cap items of size bytes, with room for need (> 0) more
 * after used, by doubling; NULL when out of memory (p is still good).
 * The parser's arrays grow as the arena does.
 */
void *jsonread_token_grow(void *p, size_t *cap, size_t used, size_t need,
			  size_t size);

#endif
