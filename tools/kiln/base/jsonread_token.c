/* SPDX-License-Identifier: MIT */
/*
 * Description: the JSON reader's strings and numbers (jsonread_token.h):
 * a string's bytes checked as RFC 8259 and UTF-8 want, its escapes and
 * surrogate pairs decoded into the parser's arena; a number's grammar
 * checked, its value kept exact when it is an integer that fits and
 * otherwise correctly rounded to a double. Also what the parser shares
 * with them: failures said with where they are, the arena, growth.
 */
#include <errno.h>
#include <float.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "base/jsonread_token.h"

/*
 * The array p of *cap items of size bytes, with room for need (> 0) more
 * after used, by doubling; NULL when out of memory (p is still good).
 */
void *jsonread_token_grow(void *p, size_t *cap, size_t used, size_t need,
			  size_t size)
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

void jsonread_token_found(const struct jsonread_parse_state *ps,
			  const unsigned char *p, char *buf, size_t len)
{
	if (p >= ps->end)
		snprintf(buf, len, "the end of the document");
	else if (*p > 0x20 && *p < 0x7f)
		snprintf(buf, len, "'%c'", *p);
	else
		snprintf(buf, len, "byte 0x%02x", *p);
}

int jsonread_token_fail(struct jsonread_parse_state *ps,
			const unsigned char *at, int ret, const char *fmt, ...)
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

int jsonread_token_expected(struct jsonread_parse_state *ps, const char *what)
{
	char f[32];

	jsonread_token_found(ps, ps->p, f, sizeof(f));
	return jsonread_token_fail(ps, ps->p, -EBADMSG, "expected %s, found %s",
				   what, f);
}

int jsonread_token_arena_put(struct jsonread_parse_state *ps, const void *s,
			     size_t n)
{
	char *q;

	if (!n)
		return 0;
	q = jsonread_token_grow(ps->arena, &ps->arena_cap, ps->narena, n, 1);
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
static int hex4(struct jsonread_parse_state *ps, const unsigned char *p,
		unsigned *cp)
{
	unsigned v = 0;
	int i;

	for (i = 0; i < 4; i++, p++) {
		unsigned char c;

		if (p >= ps->end)
			return jsonread_token_fail(ps, ps->end, -EBADMSG,
						   "the document ends inside "
						   "a \\u escape");
		c = *p;
		v <<= 4;
		if (c >= '0' && c <= '9')
			v |= c - '0';
		else if ((c | 0x20) >= 'a' && (c | 0x20) <= 'f')
			v |= (c | 0x20) - 'a' + 10;
		else
			return jsonread_token_fail(ps, p, -EBADMSG, "a \\u "
						   "escape needs four hex "
						   "digits");
	}
	*cp = v;
	return 0;
}

/* One escape at ps->p (the backslash), decoded into the arena. */
static int escape(struct jsonread_parse_state *ps, int *nul)
{
	const unsigned char *p = ps->p;
	unsigned char b[4];
	unsigned cp, lo;
	size_t n = 1;
	int ret;

	if (ps->end - p < 2)
		return jsonread_token_fail(ps, ps->end, -EBADMSG,
					   "the document ends inside an "
					   "escape");
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
			return jsonread_token_fail(ps, p - 6, -EBADMSG,
						   "a low surrogate \\u%04x "
						   "with no high one before "
						   "it", cp);
		if (cp >= 0xd800 && cp <= 0xdbff) {
			/* A high surrogate needs its low half next. */
			if (p == ps->end || (*p == '\\' && ps->end - p < 2))
				return jsonread_token_fail(ps, ps->end,
							   -EBADMSG, "the "
							   "document ends "
							   "inside a "
							   "surrogate pair");
			if (p[0] != '\\' || p[1] != 'u')
				return jsonread_token_fail(ps, p - 6, -EBADMSG,
							   "a high surrogate "
							   "\\u%04x with no "
							   "low one after it",
							   cp);
			ret = hex4(ps, p + 2, &lo);
			if (ret)
				return ret;
			if (lo < 0xdc00 || lo > 0xdfff)
				return jsonread_token_fail(ps, p - 6, -EBADMSG,
							   "a high surrogate "
							   "\\u%04x with no "
							   "low one after it",
							   cp);
			cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
			p += 6;
		}
		if (!cp)
			*nul = 1;
		n = utf8_put(b, cp);
		ps->p = p;
		return jsonread_token_arena_put(ps, b, n);
	default: {
		char f[32];

		jsonread_token_found(ps, p + 1, f, sizeof(f));
		return jsonread_token_fail(ps, p, -EBADMSG, "a backslash and "
					   "%s: no such escape", f);
	}
	}
	ps->p = p + 2;
	return jsonread_token_arena_put(ps, b, n);
}

/*
 * The end of the run of plain bytes at p (printable ASCII but '"' and
 * '\\'): what a string holds the most of, 16 bytes a step where the CPU
 * has SSE2 (a byte of 0x80 or more is negative there, below 0x20 as a
 * control byte is: both end the run).
 */
static const unsigned char *plain_run(const unsigned char *p,
				      const unsigned char *end)
{
#ifdef __SSE2__
	const __m128i quote = _mm_set1_epi8('"'), slash = _mm_set1_epi8('\\');
	const __m128i space = _mm_set1_epi8(0x20);

	while (end - p >= 16) {
		__m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);
		__m128i stop = _mm_or_si128(
			_mm_or_si128(_mm_cmpeq_epi8(v, quote),
				     _mm_cmpeq_epi8(v, slash)),
			_mm_cmplt_epi8(v, space));
		int m = _mm_movemask_epi8(stop);

		if (m)
			return p + __builtin_ctz((unsigned)m);
		p += 16;
	}
#endif
	while (p < end && *p >= 0x20 && *p < 0x80 && *p != '"' && *p != '\\')
		p++;
	return p;
}

int jsonread_token_string(struct jsonread_parse_state *ps, size_t *off,
			  uint32_t *len, int *nul)
{
	const unsigned char *open = ps->p, *p = ps->p + 1, *run = p;
	const unsigned char *end = ps->end;
	size_t start = ps->narena, n;
	char *q;
	int ret;

	*nul = 0;
	for (;;) {
		unsigned char c;

		if (p == end)
			return jsonread_token_fail(ps, end, -EBADMSG, "the "
						   "document ends inside the "
						   "string begun at byte %zu,",
						   (size_t)(open - ps->buf));
		c = *p;
		if (c >= 0x20 && c < 0x80 && c != '"' && c != '\\') {
			p = plain_run(p + 1, end);
			continue;
		}
		if (c >= 0x80) {
			n = utf8_seq(p, end);
			if (!n)
				return jsonread_token_fail(ps, p, -EBADMSG,
							   "invalid UTF-8 in "
							   "a string");
			p += n;
			continue;
		}
		/* The end: the run and its NUL, the arena grown once. */
		if (c == '"')
			break;
		if (jsonread_token_arena_put(ps, run, (size_t)(p - run)))
			return -ENOMEM;
		if (c != '\\')
			return jsonread_token_fail(ps, p, -EBADMSG, "control "
						   "character 0x%02x in a "
						   "string", c);
		ps->p = p;
		ret = escape(ps, nul);
		if (ret)
			return ret;
		p = run = ps->p;
	}
	n = (size_t)(p - run);
	q = jsonread_token_grow(ps->arena, &ps->arena_cap, ps->narena, n + 1,
				1);
	if (!q)
		return -ENOMEM;
	ps->arena = q;
	memcpy(q + ps->narena, run, n);
	q[ps->narena + n] = 0;
	ps->narena += n + 1;
	ps->p = p + 1;
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
/* An integer read exactly: which of u64 and i64 hold it, and its value. */
static void int_value(struct jsonread_node *n, uint64_t m, int neg)
{
	n->flags = JSONREAD_TREE_INT;
	if (!neg || !m)
		n->flags |= JSONREAD_TREE_U64;
	if (!neg) {
		n->v.num.u = m;
		if (m <= INT64_MAX)
			n->flags |= JSONREAD_TREE_I64;
	} else if (m <= (uint64_t)INT64_MAX + 1) {
		n->v.num.i = m == (uint64_t)INT64_MAX + 1 ?
			     INT64_MIN : -(int64_t)m;
		n->flags |= JSONREAD_TREE_I64;
	}
}

/*
 * What the fast path cannot read exactly, rounded by strtod() from a
 * copy of its len bytes (they are not NUL-ended): 0, or -ENOMEM.
 */
static int slow_double(const unsigned char *s, size_t len, double *d)
{
	char tmp[64], *t = tmp;

	if (len >= sizeof(tmp)) {
		t = malloc(len + 1);
		if (!t)
			return -ENOMEM;
	}
	memcpy(t, s, len);
	t[len] = 0;
	*d = strtod(t, NULL);
	if (t != tmp)
		free(t);
	return 0;
}

int jsonread_token_number(struct jsonread_parse_state *ps,
			  struct jsonread_node *n)
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
		return jsonread_token_expected(ps, "a digit after '-'");
	}
	if (*p == '0' && is_digit(p + 1, end))
		return jsonread_token_fail(ps, p, -EBADMSG, "a number with a "
					   "leading zero");
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
			return jsonread_token_expected(ps, "a digit after '.'");
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
			return jsonread_token_expected(ps, "a digit in the "
						       "exponent");
		}
		for (; is_digit(p, end); p++)
			if (ex < 100000)
				ex = ex * 10 + (*p - '0');
		e10 += eneg ? -ex : ex;
	}

	n->type = JSONREAD_NUMBER;
	if (isint && exact) {
		int_value(n, m, neg);
		d = (double)m;
	} else if (exact && m < (1ULL << 53) && e10 >= -22 && e10 <= 22) {
		d = e10 < 0 ? (double)m / pow10s[-e10] :
			      (double)m * pow10s[e10];
	} else {
		n->flags = isint ? JSONREAD_TREE_INT : 0;
		/* Unsigned, so that -1e-999 is -0.0 below like -0 is. */
		if (slow_double(s + neg, (size_t)(p - s) - (size_t)neg, &d))
			return -ENOMEM;
		if (d > DBL_MAX)
			return jsonread_token_fail(ps, s, -EBADMSG, "a number "
						   "too large for a double");
	}
	n->v.num.d = neg ? -d : d;
	ps->p = p;
	return 0;
}
