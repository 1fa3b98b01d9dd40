/* SPDX-License-Identifier: MIT */
/*
 * Description: the JSON reader's parser (see jsonread.h), for the files a
 * power cut, a partial upload or a foreign tool may have left torn or
 * wrong: every byte is checked against RFC 8259 and every failure is a
 * one-line reason with its byte offset, never a crash. Strings and
 * numbers are read by jsonread_token.c (which also says a failure and
 * grows the arrays); this file walks the structure around them and
 * builds the tree (jsonread_tree.h).
 *
 * How it stays bounded and linear: the parser is a loop over a stack of
 * open containers (no recursion), and a value's node waits on a scratch
 * stack until its container closes; then the container's children are
 * copied, side by side, to the end of the node array, so indexing an
 * array or object is O(1) and every node is copied once. Strings are
 * decoded into one arena. Both grow by doubling.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "base/jsonread_parse.h"
#include "base/jsonread_token.h"

struct jsonread_parse_frame {
	size_t first;		/* its first child on the scratch stack */
	size_t key;		/* its own name in its parent, if a member */
	uint32_t keylen;
	unsigned char type, flags;
};

/*
 * Past the white space at ps->p: none, most often; else a line's end and
 * its indent (result.json is written pretty), 16 bytes a step where the
 * CPU has SSE2.
 */
static void skip_ws(struct jsonread_parse_state *ps)
{
	const unsigned char *p = ps->p, *end = ps->end;

	if (p < end && *p > ' ')
		return;
#ifdef __SSE2__
	while (end - p >= 16) {
		__m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);
		__m128i ws = _mm_or_si128(
			_mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8(' ')),
				     _mm_cmpeq_epi8(v, _mm_set1_epi8('\n'))),
			_mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('\t')),
				     _mm_cmpeq_epi8(v, _mm_set1_epi8('\r'))));
		unsigned m = ~(unsigned)_mm_movemask_epi8(ws) & 0xffffu;

		if (m) {
			ps->p = p + __builtin_ctz(m);
			return;
		}
		p += 16;
	}
#endif
	while (p < end && (*p == ' ' || *p == '\n' || *p == '\t' ||
			   *p == '\r'))
		p++;
	ps->p = p;
}

static int count_node(struct jsonread_parse_state *ps)
{
	if (++ps->nodes > ps->max_nodes)
		return jsonread_token_fail(ps, ps->p, -E2BIG,
					   "more than %zu values",
					   ps->max_nodes);
	return 0;
}

/* Puts a finished value on the scratch stack, with the name read for it. */
static int push(struct jsonread_parse_state *ps, struct jsonread_node *n)
{
	void *q = jsonread_token_grow(ps->stk, &ps->stk_cap, ps->nstk, 1,
				       sizeof(*n));

	if (!q)
		return -ENOMEM;
	ps->stk = q;
	if (ps->haskey) {
		n->flags |= JSONREAD_TREE_KEY;
		n->key.off = ps->key;
		n->keylen = ps->keylen;
		ps->haskey = 0;
	}
	ps->stk[ps->nstk++] = *n;
	return 0;
}

static int literal(struct jsonread_parse_state *ps, const char *word,
		   size_t len, struct jsonread_node *n)
{
	if ((size_t)(ps->end - ps->p) < len || memcmp(ps->p, word, len))
		return jsonread_token_expected(ps, "a value");
	ps->p += len;
	return push(ps, n);
}

static int open_container(struct jsonread_parse_state *ps, unsigned char type)
{
	struct jsonread_parse_frame *f;
	int ret;

	ret = count_node(ps);
	if (ret)
		return ret;
	if (ps->depth >= ps->max_depth)
		return jsonread_token_fail(ps, ps->p, -E2BIG, "arrays and "
					   "objects nested deeper than %u",
					   ps->max_depth);
	f = jsonread_token_grow(ps->frames, &ps->frames_cap, ps->depth, 1,
				sizeof(*f));
	if (!f)
		return -ENOMEM;
	ps->frames = f;
	f = &ps->frames[ps->depth++];
	f->first = ps->nstk;
	f->type = type;
	f->flags = 0;
	f->key = 0;
	f->keylen = 0;
	if (ps->haskey) {
		f->flags = JSONREAD_TREE_KEY;
		f->key = ps->key;
		f->keylen = ps->keylen;
		ps->haskey = 0;
	}
	ps->p++;
	return 0;
}

/* Moves the top container's children to the node array, side by side. */
static int close_container(struct jsonread_parse_state *ps)
{
	struct jsonread_parse_frame *f = &ps->frames[--ps->depth];
	size_t n = ps->nstk - f->first;
	struct jsonread_node c, *out;

	if (n) {
		out = jsonread_token_grow(ps->out, &ps->out_cap, ps->nout, n,
					  sizeof(c));
		if (!out)
			return -ENOMEM;
		ps->out = out;
		memcpy(ps->out + ps->nout, ps->stk + f->first, n * sizeof(c));
	}
	memset(&c, 0, sizeof(c));
	c.type = f->type;
	c.flags = f->flags;
	c.key.off = f->key;
	c.keylen = f->keylen;
	c.len = (uint32_t)n;
	c.v.kids.off = ps->nout;
	ps->nout += n;
	ps->nstk = f->first;
	ps->p++;
	return push(ps, &c);
}

/* A value that is not a container: a string, a literal or a number. */
static int scalar(struct jsonread_parse_state *ps)
{
	struct jsonread_node n;
	int ret, nul;

	memset(&n, 0, sizeof(n));
	switch (*ps->p) {
	case '"':
		ret = count_node(ps);
		if (!ret)
			ret = jsonread_token_string(ps, &n.v.str.off, &n.len,
						    &nul);
		if (ret)
			return ret;
		n.type = JSONREAD_STRING;
		n.flags = nul ? JSONREAD_TREE_NUL : 0;
		ret = push(ps, &n);
		break;
	case 't':
	case 'f':
	case 'n':
		ret = count_node(ps);
		if (ret)
			return ret;
		n.type = *ps->p == 'n' ? JSONREAD_NULL : JSONREAD_BOOL;
		n.v.b = *ps->p == 't';
		if (*ps->p == 't')
			ret = literal(ps, "true", 4, &n);
		else if (*ps->p == 'f')
			ret = literal(ps, "false", 5, &n);
		else
			ret = literal(ps, "null", 4, &n);
		break;
	default:
		if (*ps->p != '-' && (*ps->p < '0' || *ps->p > '9'))
			return jsonread_token_expected(ps, "a value");
		ret = count_node(ps);
		if (!ret)
			ret = jsonread_token_number(ps, &n);
		if (!ret)
			ret = push(ps, &n);
		break;
	}
	return ret;
}

static int parse(struct jsonread_parse_state *ps)
{
	unsigned char type;
	int ret, nul;

	if (ps->end - ps->p >= 3 && !memcmp(ps->p, "\xef\xbb\xbf", 3))
		ps->p += 3;
value:
	skip_ws(ps);
	if (ps->p == ps->end)
		return jsonread_token_expected(ps, "a value");
	switch (*ps->p) {
	case '{':
	case '[':
		type = *ps->p == '{' ? JSONREAD_OBJECT : JSONREAD_ARRAY;
		ret = open_container(ps, type);
		if (ret)
			return ret;
		skip_ws(ps);
		if (ps->p < ps->end && *ps->p == (type == JSONREAD_OBJECT ?
						  '}' : ']')) {
			ret = close_container(ps);
			if (ret)
				return ret;
			goto next;
		}
		if (type == JSONREAD_OBJECT)
			goto member;
		goto value;
	default:
		ret = scalar(ps);
		break;
	}
	if (ret)
		return ret;
next:
	if (!ps->depth)
		goto done;
	skip_ws(ps);
	type = ps->frames[ps->depth - 1].type;
	if (ps->p < ps->end && *ps->p == ',') {
		ps->p++;
		if (type == JSONREAD_OBJECT)
			goto member;
		goto value;
	}
	if (ps->p < ps->end &&
	    *ps->p == (type == JSONREAD_OBJECT ? '}' : ']')) {
		ret = close_container(ps);
		if (ret)
			return ret;
		goto next;
	}
	return jsonread_token_expected(ps, type == JSONREAD_OBJECT ?
				       "',' or '}'" : "',' or ']'");
member:
	skip_ws(ps);
	if (ps->p == ps->end || *ps->p != '"')
		return jsonread_token_expected(ps, "a name in quotes");
	ret = jsonread_token_string(ps, &ps->key, &ps->keylen, &nul);
	if (ret)
		return ret;
	ps->haskey = 1;
	skip_ws(ps);
	if (ps->p == ps->end || *ps->p != ':')
		return jsonread_token_expected(ps, "':'");
	ps->p++;
	goto value;
done:
	skip_ws(ps);
	if (ps->p != ps->end)
		return jsonread_token_expected(ps, "the end of the document");
	return 0;
}

/* Turns offsets into pointers, now that nothing moves any more. */
static void fixup(struct jsonread *doc)
{
	size_t i;

	for (i = 0; i < doc->count; i++) {
		struct jsonread_node *n = &doc->nodes[i];

		if (n->flags & JSONREAD_TREE_KEY)
			n->key.p = doc->strings + n->key.off;
		else
			n->key.p = NULL;
		if (n->type == JSONREAD_STRING)
			n->v.str.p = doc->strings + n->v.str.off;
		else if (n->type == JSONREAD_ARRAY ||
			 n->type == JSONREAD_OBJECT)
			n->v.kids.p = doc->nodes + n->v.kids.off;
	}
}

/*
 * Takes a buffer of the room's (*p, *cap) when it has one of want items
 * or more: 1, else 0 (*p and *cap untouched: the caller allocates). One
 * too small is freed first, so that it and the larger one the caller
 * allocates are not both held.
 */
static int take(void **from, size_t *from_cap, void **p, size_t *cap,
		size_t want)
{
	if (*from && *from_cap < want) {
		free(*from);
		*from = NULL;
		*from_cap = 0;
	}
	if (!*from)
		return 0;
	*p = *from;
	*cap = *from_cap;
	*from = NULL;
	*from_cap = 0;
	return 1;
}

/* Gives the parse's buffers back to the room, or frees them. */
static void give_back(struct jsonread_room *room,
		      struct jsonread_parse_state *ps)
{
	if (!room) {
		free(ps->out);
		free(ps->arena);
		free(ps->stk);
		free(ps->frames);
		return;
	}
	/* What the room held and the parse did not take is freed first. */
	free(room->nodes);
	free(room->strings);
	free(room->stk);
	free(room->frames);
	room->nodes = ps->out;
	room->nodes_cap = ps->out_cap;
	room->strings = ps->arena;
	room->strings_cap = ps->arena_cap;
	room->stk = ps->stk;
	room->stk_cap = ps->stk_cap;
	room->frames = ps->frames;
	room->frames_cap = ps->frames_cap;
}

static int parse_doc(struct jsonread_room *room, struct jsonread **doc,
		     const void *buf, size_t len,
		     const struct jsonread_limits *lim, char *err,
		     size_t errlen)
{
	struct jsonread_node *out;
	struct jsonread_parse_state ps;
	struct jsonread *d = NULL;
	size_t max_bytes = JSONREAD_MAX_BYTES, want;
	int ret;

	memset(&ps, 0, sizeof(ps));
	ps.buf = ps.p = buf ? buf : (const void *)"";
	ps.end = ps.buf + len;
	ps.err = err;
	ps.errlen = errlen;
	ps.max_nodes = JSONREAD_MAX_NODES;
	ps.max_depth = JSONREAD_MAX_DEPTH;
	if (err && errlen)
		err[0] = 0;
	if (lim && lim->max_bytes)
		max_bytes = lim->max_bytes;
	if (lim && lim->max_nodes)
		ps.max_nodes = lim->max_nodes;
	if (lim && lim->max_depth)
		ps.max_depth = lim->max_depth;
	/* Lengths and counts are 32 bits in a node. */
	if (max_bytes > UINT32_MAX)
		max_bytes = UINT32_MAX;
	if (ps.max_nodes > UINT32_MAX)
		ps.max_nodes = UINT32_MAX;

	*doc = NULL;
	if (len > max_bytes) {
		ret = -E2BIG;
		if (err && errlen)
			snprintf(err, errlen, "the document is %zu bytes, more "
				 "than the limit of %zu", len, max_bytes);
		goto err;
	}
	/*
	 * Sized once from the document, not doubled up to it: a decoded
	 * string is never longer than its source, so the arena never grows,
	 * and a record has about a value per 10 bytes (up to 1 Mi values,
	 * 40 MiB: past that the nodes double). kiln fleet reads thousands
	 * of records, and each doubling of a large array is a new mapping
	 * and a copy (musl's malloc maps every large one). In a room, its
	 * buffers when they are large enough.
	 */
	want = (len < (size_t)10 << 20 ? len : (size_t)10 << 20) / 10 + 64;
	if (room) {
		take((void **)&room->stk, &room->stk_cap, (void **)&ps.stk,
		     &ps.stk_cap, 1);
		take((void **)&room->frames, &room->frames_cap,
		     (void **)&ps.frames, &ps.frames_cap, 1);
	}
	if (!room || !take((void **)&room->strings, &room->strings_cap,
			   (void **)&ps.arena, &ps.arena_cap, len + 1)) {
		ps.arena_cap = len + 1;
		ps.arena = malloc(ps.arena_cap);
	}
	if (!room || !take((void **)&room->nodes, &room->nodes_cap,
			   (void **)&ps.out, &ps.out_cap, want)) {
		ps.out_cap = want;
		ps.out = malloc(ps.out_cap * sizeof(*ps.out));
	}
	if (!ps.arena || !ps.out) {
		ret = -ENOMEM;
		goto err;
	}
	ret = parse(&ps);
	if (ret)
		goto err;

	/* The root goes last, after every other node. */
	out = jsonread_token_grow(ps.out, &ps.out_cap, ps.nout, 1,
				  sizeof(*out));
	if (out)
		ps.out = out;
	if (room && !room->doc)
		room->doc = calloc(1, sizeof(*room->doc));
	d = room ? room->doc : calloc(1, sizeof(*d));
	if (!d || !out) {
		ret = -ENOMEM;
		goto err;
	}
	ps.out[ps.nout++] = ps.stk[0];
	d->nodes = ps.out;
	d->count = ps.nout;
	d->strings = ps.arena;
	d->roomed = room != NULL;
	fixup(d);
	if (room) {
		/* The room holds them, and the document points into them. */
		give_back(room, &ps);
	} else {
		free(ps.stk);
		free(ps.frames);
	}
	*doc = d;
	return 0;
err:
	if (ret == -ENOMEM && err && errlen)
		snprintf(err, errlen, "%s", strerror(ENOMEM));
	if (!room)
		free(d);
	give_back(room, &ps);
	return ret;
}

int jsonread_parse(struct jsonread **doc, const void *buf, size_t len,
		   const struct jsonread_limits *lim, char *err,
		   size_t errlen)
{
	return parse_doc(NULL, doc, buf, len, lim, err, errlen);
}

int jsonread_parse_in(struct jsonread_room *room, struct jsonread **doc,
		      const void *buf, size_t len,
		      const struct jsonread_limits *lim, char *err,
		      size_t errlen)
{
	return parse_doc(room, doc, buf, len, lim, err, errlen);
}

void jsonread_room_free(struct jsonread_room *room)
{
	if (!room)
		return;
	free(room->doc);
	free(room->nodes);
	free(room->strings);
	free(room->stk);
	free(room->frames);
	free(room->file);
	memset(room, 0, sizeof(*room));
}
