/* SPDX-License-Identifier: MIT */
#ifndef KILN_JSONREAD_TREE_H
#define KILN_JSONREAD_TREE_H

#include <stddef.h>
#include <stdint.h>

#include "base/jsonread.h"

/*
 * Private to the JSON reader: how a parsed document lies in memory.
 * Included only by jsonread_parse.c and jsonread_token.c, which build the
 * tree, and jsonread.c, which walks it; everyone else reads a document
 * through jsonread.h, where these types are opaque.
 */

/* A node's flags. */
enum {
	JSONREAD_TREE_KEY = 1,	/* a member of an object: key is set */
	JSONREAD_TREE_NUL = 2,	/* a string holding a NUL */
	JSONREAD_TREE_INT = 4,	/* a number written as an integer */
	JSONREAD_TREE_U64 = 8,	/* ... that fits v.num.u */
	JSONREAD_TREE_I64 = 16,	/* ... that fits an int64_t (v.num.i if < 0) */
	JSONREAD_TREE_LATIN1 = 32, /* each byte a code point (old records) */
};

/*
 * While parsing, key, string and kids hold offsets (the arrays move as
 * they grow); once done they are turned into pointers.
 */
struct jsonread_node {
	union {
		const char *p;
		size_t off;
	} key;
	union {
		struct {
			double d;
			union {
				uint64_t u;
				int64_t i;
			};
		} num;
		union {
			const char *p;
			size_t off;
		} str;
		union {
			const struct jsonread_node *p;
			size_t off;
		} kids;
		int b;
	} v;
	uint32_t keylen;
	uint32_t len;		/* string bytes; elements or members */
	unsigned char type, flags;
};

struct jsonread {
	struct jsonread_node *nodes;	/* the root is the last */
	size_t count;
	char *strings;
	int roomed;			/* a room's (jsonread_parse_in) */
};

#endif
