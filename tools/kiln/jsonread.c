/* SPDX-License-Identifier: MIT */
/*
 * Description: kiln's one small bounded JSON reader (see jsonread.h), for
 * the files a power cut, a partial upload or a foreign tool may have left
 * torn or wrong: every byte is checked against RFC 8259 and every failure
 * is a one-line reason with its byte offset, never a crash.
 *
 * How it stays bounded and linear: the parser is a loop over a stack of
 * open containers (no recursion), and a value's node waits on a scratch
 * stack until its container closes; then the container's children are
 * copied, side by side, to the end of the node array, so indexing an
 * array or object is O(1) and every node is copied once. Strings are
 * decoded into one arena. Both grow by doubling.
 */
#include <errno.h>
#include <fcntl.h>
#include <float.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "jsonread.h"

enum {
	F_KEY = 1,		/* a member of an object: key is set */
	F_NUL = 2,		/* a string holding a NUL */
	F_INT = 4,		/* a number written as an integer */
	F_U64 = 8,		/* ... that fits v.num.u */
	F_I64 = 16,		/* ... that fits an int64_t (v.num.i if < 0) */
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
};

struct frame {
	size_t first;		/* its first child on the scratch stack */
	size_t key;		/* its own name in its parent, if F_KEY */
	uint32_t keylen;
	unsigned char type, flags;
};

struct parser {
	const unsigned char *buf, *p, *end;
	size_t max_nodes, nodes;
	unsigned max_depth, depth;
	struct frame *frames;
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
 * The array p of *cap items of size bytes, with room for need (> 0) more
 * after used, by doubling; NULL when out of memory (p is still good).
 */
static void *grow(void *p, size_t *cap, size_t used, size_t need, size_t size)
{
	size_t n = *cap ? *cap : 64;

	if (p && need <= *cap - used)
		return p;
	while (n - used < need) {
		if (n > ((size_t)-1 / size) / 2)
			return NULL;
		n *= 2;
	}
	p = realloc(p, n * size);
	if (p)
		*cap = n;
	return p;
}

/* What sits at p, for a message: 'x', byte 0xff, or the end. */
static void found(const struct parser *ps, const unsigned char *p, char *buf,
		  size_t len)
{
	if (p >= ps->end)
		snprintf(buf, len, "the end of the document");
	else if (*p > 0x20 && *p < 0x7f)
		snprintf(buf, len, "'%c'", *p);
	else
		snprintf(buf, len, "byte 0x%02x", *p);
}

__attribute__((format(printf, 4, 5)))
static int fail(struct parser *ps, const unsigned char *at, int ret,
		const char *fmt, ...)
{
	size_t off = (size_t)(at - ps->buf), line = 1, n;
	const unsigned char *q;
	va_list ap;
	int w;

	if (!ps->err || !ps->errlen)
		return ret;
	for (q = ps->buf; (q = memchr(q, '\n', (size_t)(at - q))); q++)
		line++;
	va_start(ap, fmt);
	w = vsnprintf(ps->err, ps->errlen, fmt, ap);
	va_end(ap);
	n = w < 0 ? 0 : (size_t)w;
	if (n < ps->errlen)
		snprintf(ps->err + n, ps->errlen - n, " at byte %zu (line %zu)",
			 off, line);
	return ret;
}

static int expected(struct parser *ps, const char *what)
{
	char f[32];

	found(ps, ps->p, f, sizeof(f));
	return fail(ps, ps->p, -EBADMSG, "expected %s, found %s", what, f);
}

static void skip_ws(struct parser *ps)
{
	const unsigned char *p = ps->p, *end = ps->end;

	while (p < end && (*p == ' ' || *p == '\n' || *p == '\t' ||
			   *p == '\r'))
		p++;
	ps->p = p;
}

static int count_node(struct parser *ps)
{
	if (++ps->nodes > ps->max_nodes)
		return fail(ps, ps->p, -E2BIG, "more than %zu values",
			    ps->max_nodes);
	return 0;
}

/* Puts a finished value on the scratch stack, with the name read for it. */
static int push(struct parser *ps, struct jsonread_node *n)
{
	void *q = grow(ps->stk, &ps->stk_cap, ps->nstk, 1, sizeof(*n));

	if (!q)
		return -ENOMEM;
	ps->stk = q;
	if (ps->haskey) {
		n->flags |= F_KEY;
		n->key.off = ps->key;
		n->keylen = ps->keylen;
		ps->haskey = 0;
	}
	ps->stk[ps->nstk++] = *n;
	return 0;
}

static int arena_put(struct parser *ps, const void *s, size_t n)
{
	char *q;

	if (!n)
		return 0;
	q = grow(ps->arena, &ps->arena_cap, ps->narena, n, 1);
	if (!q)
		return -ENOMEM;
	ps->arena = q;
	memcpy(ps->arena + ps->narena, s, n);
	ps->narena += n;
	return 0;
}

/* The length of the valid UTF-8 sequence at p (a lead byte >= 0x80), or 0. */
static size_t utf8_seq(const unsigned char *p, const unsigned char *end)
{
	size_t n, i;
	unsigned char lo = 0x80, hi = 0xbf;

	if (*p >= 0xc2 && *p <= 0xdf) {
		n = 2;
	} else if (*p >= 0xe0 && *p <= 0xef) {
		n = 3;
		if (*p == 0xe0)
			lo = 0xa0;	/* overlong */
		else if (*p == 0xed)
			hi = 0x9f;	/* a surrogate */
	} else if (*p >= 0xf0 && *p <= 0xf4) {
		n = 4;
		if (*p == 0xf0)
			lo = 0x90;	/* overlong */
		else if (*p == 0xf4)
			hi = 0x8f;	/* above U+10FFFF */
	} else {
		return 0;
	}
	if ((size_t)(end - p) < n)
		return 0;
	if (p[1] < lo || p[1] > hi)
		return 0;
	for (i = 2; i < n; i++)
		if (p[i] < 0x80 || p[i] > 0xbf)
			return 0;
	return n;
}

static size_t utf8_put(unsigned char *b, unsigned cp)
{
	if (cp < 0x80) {
		b[0] = (unsigned char)cp;
		return 1;
	}
	if (cp < 0x800) {
		b[0] = (unsigned char)(0xc0 | cp >> 6);
		b[1] = (unsigned char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		b[0] = (unsigned char)(0xe0 | cp >> 12);
		b[1] = (unsigned char)(0x80 | (cp >> 6 & 0x3f));
		b[2] = (unsigned char)(0x80 | (cp & 0x3f));
		return 3;
	}
	b[0] = (unsigned char)(0xf0 | cp >> 18);
	b[1] = (unsigned char)(0x80 | (cp >> 12 & 0x3f));
	b[2] = (unsigned char)(0x80 | (cp >> 6 & 0x3f));
	b[3] = (unsigned char)(0x80 | (cp & 0x3f));
	return 4;
}

/* The four hex digits of a \u escape at p (just past the u). */
static int hex4(struct parser *ps, const unsigned char *p, unsigned *cp)
{
	unsigned v = 0;
	int i;

	for (i = 0; i < 4; i++, p++) {
		unsigned char c;

		if (p >= ps->end)
			return fail(ps, ps->end, -EBADMSG,
				    "the document ends inside a \\u escape");
		c = *p;
		v <<= 4;
		if (c >= '0' && c <= '9')
			v |= c - '0';
		else if ((c | 0x20) >= 'a' && (c | 0x20) <= 'f')
			v |= (c | 0x20) - 'a' + 10;
		else
			return fail(ps, p, -EBADMSG,
				    "a \\u escape needs four hex digits");
	}
	*cp = v;
	return 0;
}

/* One escape at ps->p (the backslash), decoded into the arena. */
static int escape(struct parser *ps, int *nul)
{
	const unsigned char *p = ps->p;
	unsigned char b[4];
	unsigned cp, lo;
	size_t n = 1;
	int ret;

	if (ps->end - p < 2)
		return fail(ps, ps->end, -EBADMSG,
			    "the document ends inside an escape");
	switch (p[1]) {
	case '"':
	case '\\':
	case '/':
		b[0] = p[1];
		break;
	case 'b':
		b[0] = '\b';
		break;
	case 'f':
		b[0] = '\f';
		break;
	case 'n':
		b[0] = '\n';
		break;
	case 'r':
		b[0] = '\r';
		break;
	case 't':
		b[0] = '\t';
		break;
	case 'u':
		ret = hex4(ps, p + 2, &cp);
		if (ret)
			return ret;
		p += 6;
		if (cp >= 0xdc00 && cp <= 0xdfff)
			return fail(ps, p - 6, -EBADMSG,
				    "a low surrogate \\u%04x with no high one "
				    "before it", cp);
		if (cp >= 0xd800 && cp <= 0xdbff) {
			/* A high surrogate needs its low half next. */
			if (p == ps->end || (*p == '\\' && ps->end - p < 2))
				return fail(ps, ps->end, -EBADMSG,
					    "the document ends inside a "
					    "surrogate pair");
			if (p[0] != '\\' || p[1] != 'u')
				return fail(ps, p - 6, -EBADMSG,
					    "a high surrogate \\u%04x with no "
					    "low one after it", cp);
			ret = hex4(ps, p + 2, &lo);
			if (ret)
				return ret;
			if (lo < 0xdc00 || lo > 0xdfff)
				return fail(ps, p - 6, -EBADMSG,
					    "a high surrogate \\u%04x with no "
					    "low one after it", cp);
			cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
			p += 6;
		}
		if (!cp)
			*nul = 1;
		n = utf8_put(b, cp);
		ps->p = p;
		return arena_put(ps, b, n);
	default: {
		char f[32];

		found(ps, p + 1, f, sizeof(f));
		return fail(ps, p, -EBADMSG, "a backslash and %s: no such "
			    "escape", f);
	}
	}
	ps->p = p + 2;
	return arena_put(ps, b, n);
}

/*
 * The string at ps->p (its opening quote), decoded into the arena with a
 * NUL after it: its offset and length there.
 */
static int string(struct parser *ps, size_t *off, uint32_t *len, int *nul)
{
	const unsigned char *open = ps->p, *p = ps->p + 1, *run = p;
	const unsigned char *end = ps->end;
	size_t start = ps->narena, n;
	int ret;

	*nul = 0;
	for (;;) {
		unsigned char c;

		if (p == end)
			return fail(ps, end, -EBADMSG, "the document ends "
				    "inside the string begun at byte %zu,",
				    (size_t)(open - ps->buf));
		c = *p;
		if (c >= 0x20 && c < 0x80 && c != '"' && c != '\\') {
			p++;
			continue;
		}
		if (c >= 0x80) {
			n = utf8_seq(p, end);
			if (!n)
				return fail(ps, p, -EBADMSG,
					    "invalid UTF-8 in a string");
			p += n;
			continue;
		}
		if (arena_put(ps, run, (size_t)(p - run)))
			return -ENOMEM;
		if (c == '"')
			break;
		if (c != '\\')
			return fail(ps, p, -EBADMSG, "control character "
				    "0x%02x in a string", c);
		ps->p = p;
		ret = escape(ps, nul);
		if (ret)
			return ret;
		p = run = ps->p;
	}
	ps->p = p + 1;
	if (arena_put(ps, "", 1))
		return -ENOMEM;
	*off = start;
	/* Decoded is never longer than written, and max_bytes < 4 GiB. */
	*len = (uint32_t)(ps->narena - 1 - start);
	return 0;
}

static const double pow10s[] = {
	1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
	1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
};

static int is_digit(const unsigned char *p, const unsigned char *end)
{
	return p < end && *p >= '0' && *p <= '9';
}

/*
 * The number at ps->p. An integer that fits is kept exact, and its double
 * is the correctly rounded conversion of it. Other numbers whose digits
 * make a mantissa below 2^53, with a power of ten within 10^22, come out
 * correctly rounded from one IEEE multiply or divide (both operands are
 * exact); the rest go to strtod, which rounds correctly too (in the C
 * locale: kiln never calls setlocale).
 */
static int number(struct parser *ps, struct jsonread_node *n)
{
	const unsigned char *s = ps->p, *p = s, *end = ps->end;
	uint64_t m = 0;
	int neg = 0, isint = 1, exact = 1;
	long e10 = 0, ex = 0;
	double d;

	if (*p == '-') {
		neg = 1;
		p++;
	}
	if (!is_digit(p, end)) {
		ps->p = p;
		return expected(ps, "a digit after '-'");
	}
	if (*p == '0' && is_digit(p + 1, end))
		return fail(ps, p, -EBADMSG, "a number with a leading zero");
	for (; is_digit(p, end); p++) {
		unsigned dg = *p - '0';

		if (m > (UINT64_MAX - dg) / 10) {
			exact = 0;
			continue;
		}
		m = m * 10 + dg;
	}
	if (p < end && *p == '.') {
		isint = 0;
		if (!is_digit(++p, end)) {
			ps->p = p;
			return expected(ps, "a digit after '.'");
		}
		for (; is_digit(p, end); p++) {
			if (m > (UINT64_MAX - 9) / 10) {
				exact = 0;
				continue;
			}
			m = m * 10 + (unsigned)(*p - '0');
			e10--;
		}
	}
	if (p < end && (*p == 'e' || *p == 'E')) {
		int eneg = 0;

		isint = 0;
		p++;
		if (p < end && (*p == '+' || *p == '-'))
			eneg = *p++ == '-';
		if (!is_digit(p, end)) {
			ps->p = p;
			return expected(ps, "a digit in the exponent");
		}
		for (; is_digit(p, end); p++)
			if (ex < 100000)
				ex = ex * 10 + (*p - '0');
		e10 += eneg ? -ex : ex;
	}

	n->type = JSONREAD_NUMBER;
	if (isint && exact) {
		n->flags = F_INT;
		if (!neg || !m)
			n->flags |= F_U64;
		if (!neg) {
			n->v.num.u = m;
			if (m <= INT64_MAX)
				n->flags |= F_I64;
		} else if (m <= (uint64_t)INT64_MAX + 1) {
			n->v.num.i = m == (uint64_t)INT64_MAX + 1 ?
				     INT64_MIN : -(int64_t)m;
			n->flags |= F_I64;
		}
		d = (double)m;
	} else if (exact && m < (1ULL << 53) && e10 >= -22 && e10 <= 22) {
		d = e10 < 0 ? (double)m / pow10s[-e10] : (double)m * pow10s[e10];
	} else {
		char tmp[64], *t = tmp;
		size_t len = (size_t)(p - s) - (size_t)neg;

		n->flags = isint ? F_INT : 0;
		if (len >= sizeof(tmp)) {
			t = malloc(len + 1);
			if (!t)
				return -ENOMEM;
		}
		/* Unsigned, so that -1e-999 is -0.0 below like -0 is. */
		memcpy(t, s + neg, len);
		t[len] = 0;
		d = strtod(t, NULL);
		if (t != tmp)
			free(t);
		if (d > DBL_MAX)
			return fail(ps, s, -EBADMSG, "a number too large for "
				    "a double");
	}
	n->v.num.d = neg ? -d : d;
	ps->p = p;
	return 0;
}

static int literal(struct parser *ps, const char *word, size_t len,
		   struct jsonread_node *n)
{
	if ((size_t)(ps->end - ps->p) < len || memcmp(ps->p, word, len))
		return expected(ps, "a value");
	ps->p += len;
	return push(ps, n);
}

static int open_container(struct parser *ps, unsigned char type)
{
	struct frame *f;
	int ret;

	ret = count_node(ps);
	if (ret)
		return ret;
	if (ps->depth >= ps->max_depth)
		return fail(ps, ps->p, -E2BIG, "arrays and objects nested "
			    "deeper than %u", ps->max_depth);
	f = grow(ps->frames, &ps->frames_cap, ps->depth, 1, sizeof(*f));
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
		f->flags = F_KEY;
		f->key = ps->key;
		f->keylen = ps->keylen;
		ps->haskey = 0;
	}
	ps->p++;
	return 0;
}

/* Moves the top container's children to the node array, side by side. */
static int close_container(struct parser *ps)
{
	struct frame *f = &ps->frames[--ps->depth];
	size_t n = ps->nstk - f->first;
	struct jsonread_node c, *out;

	if (n) {
		out = grow(ps->out, &ps->out_cap, ps->nout, n, sizeof(c));
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

static int parse(struct parser *ps)
{
	struct jsonread_node n;
	unsigned char type;
	int ret, nul;

	if (ps->end - ps->p >= 3 && !memcmp(ps->p, "\xef\xbb\xbf", 3))
		ps->p += 3;
value:
	skip_ws(ps);
	if (ps->p == ps->end)
		return expected(ps, "a value");
	memset(&n, 0, sizeof(n));
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
	case '"':
		ret = count_node(ps);
		if (!ret)
			ret = string(ps, &n.v.str.off, &n.len, &nul);
		if (ret)
			return ret;
		n.type = JSONREAD_STRING;
		n.flags = nul ? F_NUL : 0;
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
			return expected(ps, "a value");
		ret = count_node(ps);
		if (!ret)
			ret = number(ps, &n);
		if (!ret)
			ret = push(ps, &n);
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
	if (ps->p < ps->end && *ps->p == (type == JSONREAD_OBJECT ? '}' : ']')) {
		ret = close_container(ps);
		if (ret)
			return ret;
		goto next;
	}
	return expected(ps, type == JSONREAD_OBJECT ? "',' or '}'" :
			"',' or ']'");
member:
	skip_ws(ps);
	if (ps->p == ps->end || *ps->p != '"')
		return expected(ps, "a name in quotes");
	ret = string(ps, &ps->key, &ps->keylen, &nul);
	if (ret)
		return ret;
	ps->haskey = 1;
	skip_ws(ps);
	if (ps->p == ps->end || *ps->p != ':')
		return expected(ps, "':'");
	ps->p++;
	goto value;
done:
	skip_ws(ps);
	if (ps->p != ps->end)
		return expected(ps, "the end of the document");
	return 0;
}

/* Turns offsets into pointers, now that nothing moves any more. */
static void fixup(struct jsonread *doc)
{
	size_t i;

	for (i = 0; i < doc->count; i++) {
		struct jsonread_node *n = &doc->nodes[i];

		if (n->flags & F_KEY)
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

int jsonread_parse(struct jsonread **doc, const void *buf, size_t len,
		   const struct jsonread_limits *lim, char *err,
		   size_t errlen)
{
	struct jsonread_node *out;
	struct parser ps;
	struct jsonread *d = NULL;
	size_t max_bytes = JSONREAD_MAX_BYTES;
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
	ret = parse(&ps);
	if (ret)
		goto err;

	/* The root goes last, after every other node. */
	out = grow(ps.out, &ps.out_cap, ps.nout, 1, sizeof(*out));
	if (out)
		ps.out = out;
	d = calloc(1, sizeof(*d));
	if (!d || !out) {
		ret = -ENOMEM;
		goto err;
	}
	ps.out[ps.nout++] = ps.stk[0];
	d->nodes = ps.out;
	d->count = ps.nout;
	d->strings = ps.arena;
	ps.out = NULL;
	ps.arena = NULL;
	fixup(d);
	free(ps.stk);
	free(ps.frames);
	*doc = d;
	return 0;
err:
	if (ret == -ENOMEM && err && errlen)
		snprintf(err, errlen, "%s", strerror(ENOMEM));
	free(d);
	free(ps.out);
	free(ps.stk);
	free(ps.arena);
	free(ps.frames);
	return ret;
}

int jsonread_load(struct jsonread **doc, const char *path,
		  const struct jsonread_limits *lim, char *err, size_t errlen)
{
	size_t max = lim && lim->max_bytes ? lim->max_bytes : JSONREAD_MAX_BYTES;
	size_t len = 0, cap = 0, first = 65536;
	char *buf = NULL;
	struct stat st;
	int fd, ret;

	*doc = NULL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) < 0) {
		ret = -errno;
		goto err;
	}
	if (S_ISDIR(st.st_mode)) {
		ret = -EISDIR;
		goto err;
	}
	/* Read one byte past the limit, to tell "too big" from "just fits". */
	if (st.st_size > 0 && (uint64_t)st.st_size <= max)
		first = (size_t)st.st_size + 1;
	for (;;) {
		ssize_t n;

		if (len == cap) {
			size_t want = cap ? cap * 2 : first;
			char *p;

			if (want > max + 1)
				want = max + 1;
			if (want <= cap) {
				ret = -E2BIG;
				if (err && errlen)
					snprintf(err, errlen, "larger than the "
						 "limit of %zu bytes", max);
				goto out;
			}
			p = realloc(buf, want);
			if (!p) {
				ret = -ENOMEM;
				goto err;
			}
			buf = p;
			cap = want;
		}
		n = read(fd, buf + len, cap - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			ret = -errno;
			goto err;
		}
		if (!n)
			break;
		len += (size_t)n;
	}
	ret = jsonread_parse(doc, buf ? buf : "", len, lim, err, errlen);
	goto out;
err:
	if (err && errlen)
		snprintf(err, errlen, "%s", strerror(-ret));
out:
	free(buf);
	if (fd >= 0)
		close(fd);
	return ret;
}

void jsonread_free(struct jsonread *doc)
{
	if (!doc)
		return;
	free(doc->nodes);
	free(doc->strings);
	free(doc);
}

const struct jsonread_node *jsonread_root(const struct jsonread *doc)
{
	return doc ? &doc->nodes[doc->count - 1] : NULL;
}

enum jsonread_type jsonread_type(const struct jsonread_node *n)
{
	return n ? (enum jsonread_type)n->type : JSONREAD_MISSING;
}

const char *jsonread_type_name(enum jsonread_type type)
{
	switch (type) {
	case JSONREAD_MISSING:
		return "missing";
	case JSONREAD_NULL:
		return "null";
	case JSONREAD_BOOL:
		return "a boolean";
	case JSONREAD_NUMBER:
		return "a number";
	case JSONREAD_STRING:
		return "a string";
	case JSONREAD_ARRAY:
		return "an array";
	case JSONREAD_OBJECT:
		return "an object";
	}
	return "unknown";
}

static int is_container(const struct jsonread_node *n)
{
	return n && (n->type == JSONREAD_ARRAY || n->type == JSONREAD_OBJECT);
}

size_t jsonread_count(const struct jsonread_node *n)
{
	return is_container(n) ? n->len : 0;
}

const struct jsonread_node *jsonread_at(const struct jsonread_node *n,
					size_t i)
{
	if (!is_container(n) || i >= n->len)
		return NULL;
	return &n->v.kids.p[i];
}

static const struct jsonread_node *
find(const struct jsonread_node *obj, const char *key, size_t klen)
{
	size_t i;

	if (!obj || obj->type != JSONREAD_OBJECT)
		return NULL;
	/* From the end: of duplicate names, the last wins. */
	for (i = obj->len; i-- > 0;) {
		const struct jsonread_node *m = &obj->v.kids.p[i];

		if (m->keylen == klen && !memcmp(m->key.p, key, klen))
			return m;
	}
	return NULL;
}

const struct jsonread_node *jsonread_get(const struct jsonread_node *obj,
					 const char *key)
{
	return key ? find(obj, key, strlen(key)) : NULL;
}

const char *jsonread_key(const struct jsonread_node *n)
{
	return n ? n->key.p : NULL;
}

/* Whether the pointer token t..e (~ escapes checked) is the name k. */
static int token_is(const char *t, const char *e, const char *k, size_t klen)
{
	size_t i = 0;

	for (; t < e; t++, i++) {
		char c = *t;

		if (c == '~')
			c = *++t == '0' ? '~' : '/';
		if (i == klen || k[i] != c)
			return 0;
	}
	return i == klen;
}

const struct jsonread_node *jsonread_path(const struct jsonread_node *n,
					  const char *pointer)
{
	if (!pointer)
		return NULL;
	while (n && *pointer) {
		const char *t = pointer + 1, *e, *q;
		size_t i;

		if (*pointer != '/')
			return NULL;
		e = strchr(t, '/');
		if (!e)
			e = t + strlen(t);
		pointer = e;
		if (n->type == JSONREAD_ARRAY) {
			/* Digits only, no leading zero, no overflow. */
			if (t == e || (*t == '0' && e - t > 1))
				return NULL;
			for (i = 0; t < e; t++) {
				if (*t < '0' || *t > '9' || i > n->len)
					return NULL;
				i = i * 10 + (size_t)(*t - '0');
			}
			n = jsonread_at(n, i);
			continue;
		}
		if (n->type != JSONREAD_OBJECT)
			return NULL;
		for (q = t; q < e; q++)
			if (*q == '~' && (q + 1 == e || (q[1] != '0' &&
							 q[1] != '1')))
				return NULL;
		/* From the end: of duplicate names, the last wins. */
		for (i = n->len; i-- > 0;) {
			const struct jsonread_node *m = &n->v.kids.p[i];

			if (token_is(t, e, m->key.p, m->keylen))
				break;
		}
		n = i == (size_t)-1 ? NULL : &n->v.kids.p[i];
	}
	return n;
}

static const struct jsonread_node *member(const struct jsonread_node *n,
					  const char *key)
{
	return key ? jsonread_get(n, key) : n;
}

/* A number written with a fraction or exponent that is whole and exact. */
static int whole(const struct jsonread_node *n, double lo, double *d)
{
	double v = n->v.num.d;

	/* In +-2^53 a double is whole when a 64-bit integer holds it. */
	if (n->flags & F_INT || v < lo || v > 9007199254740992.0 ||
	    v < -9007199254740992.0 || (double)(int64_t)v != v)
		return 0;
	*d = v;
	return 1;
}

int jsonread_get_u64(const struct jsonread_node *n, const char *key,
		     uint64_t *v)
{
	double d;

	n = member(n, key);
	if (!n)
		return -ENOENT;
	if (n->type != JSONREAD_NUMBER)
		return -EINVAL;
	if (n->flags & F_U64)
		*v = n->v.num.u;
	else if (whole(n, 0, &d))
		*v = (uint64_t)d;
	else
		return -ERANGE;
	return 0;
}

int jsonread_get_i64(const struct jsonread_node *n, const char *key,
		     int64_t *v)
{
	double d;

	n = member(n, key);
	if (!n)
		return -ENOENT;
	if (n->type != JSONREAD_NUMBER)
		return -EINVAL;
	if ((n->flags & (F_I64 | F_U64)) == (F_I64 | F_U64))
		*v = (int64_t)n->v.num.u;
	else if (n->flags & F_I64)
		*v = n->v.num.i;
	else if (whole(n, -9007199254740992.0, &d))
		*v = (int64_t)d;
	else
		return -ERANGE;
	return 0;
}

int jsonread_get_num(const struct jsonread_node *n, const char *key,
		     double *v)
{
	n = member(n, key);
	if (!n)
		return -ENOENT;
	if (n->type != JSONREAD_NUMBER)
		return -EINVAL;
	*v = n->v.num.d;
	return 0;
}

int jsonread_get_bool(const struct jsonread_node *n, const char *key, int *v)
{
	n = member(n, key);
	if (!n)
		return -ENOENT;
	if (n->type != JSONREAD_BOOL)
		return -EINVAL;
	*v = n->v.b;
	return 0;
}

int jsonread_get_str(const struct jsonread_node *n, const char *key,
		     const char **s, size_t *len)
{
	n = member(n, key);
	if (!n)
		return -ENOENT;
	if (n->type != JSONREAD_STRING)
		return -EINVAL;
	if (!len && n->flags & F_NUL)
		return -EILSEQ;
	*s = n->v.str.p;
	if (len)
		*len = n->len;
	return 0;
}

int jsonread_get_bytes(const struct jsonread_node *n, const char *key,
		       char *buf, size_t size, size_t *len)
{
	const char *str = NULL;
	const unsigned char *s;
	size_t i, o = 0, slen = 0;
	int ret;

	ret = jsonread_get_str(n, key, &str, len ? &slen : NULL);
	if (ret)
		return ret;
	if (!len)
		slen = strlen(str);
	s = (const unsigned char *)str;
	for (i = 0; i < slen; i++) {
		unsigned char c = s[i];

		/* The string is valid UTF-8: only C2 and C3 lead U+0080..FF. */
		if (c >= 0x80) {
			if (c != 0xc2 && c != 0xc3)
				return -ERANGE;
			c = (unsigned char)((c & 0x03) << 6 | (s[++i] & 0x3f));
		}
		if (o + 1 >= size)
			return -ENOSPC;
		buf[o++] = (char)c;
	}
	if (!size)
		return -ENOSPC;
	buf[o] = 0;
	if (len)
		*len = o;
	return 0;
}

uint64_t jsonread_u64(const struct jsonread_node *n, const char *key,
		      uint64_t def)
{
	uint64_t v;

	return jsonread_get_u64(n, key, &v) ? def : v;
}

int64_t jsonread_i64(const struct jsonread_node *n, const char *key,
		     int64_t def)
{
	int64_t v;

	return jsonread_get_i64(n, key, &v) ? def : v;
}

double jsonread_num(const struct jsonread_node *n, const char *key,
		    double def)
{
	double v;

	return jsonread_get_num(n, key, &v) ? def : v;
}

int jsonread_bool(const struct jsonread_node *n, const char *key, int def)
{
	int v;

	return jsonread_get_bool(n, key, &v) ? def : v;
}

const char *jsonread_str(const struct jsonread_node *n, const char *key,
			 const char *def)
{
	const char *s;

	return jsonread_get_str(n, key, &s, NULL) ? def : s;
}
