/* SPDX-License-Identifier: MIT */
#ifndef KILN_JSONREAD_TOKEN_H
#define KILN_JSONREAD_TOKEN_H

#include <stddef.h>
#include <stdint.h>

#include "base/jsonread_parse.h"

/*
 * Private to the JSON reader: its strings and numbers, read for the
 * parser. Included only by jsonread_parse.c and jsonread_token.c. Both
 * readers leave ps->p just past what they read, and fail as
 * jsonread_parse_fail() does.
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

#endif
