/* SPDX-License-Identifier: MIT */
#ifndef KILN_JSONREAD_PARSE_H
#define KILN_JSONREAD_PARSE_H

#include <stddef.h>
#include <stdint.h>

#include "base/jsonread_tree.h"

/*
 * Private to the JSON reader: the state of one parse, which the parser
 * (jsonread_parse.c) and the string and number readers below it
 * (jsonread_token.c) share. Included only by those two files;
 * jsonread_parse() itself is in jsonread.h.
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

#endif
