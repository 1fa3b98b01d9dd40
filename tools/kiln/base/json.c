/* SPDX-License-Identifier: MIT */
/*
 * Description: a small JSON writer for result.json, inventory.json and
 * --json. Strings are UTF-8 as they were; a byte that is not UTF-8 is
 * the text \xNN (quoted() says how), so a path with odd bytes still
 * makes a valid document that reads back to the same bytes.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/json.h"

void json_init(struct json *j)
{
	memset(j, 0, sizeof(*j));
	j->fresh = 1;
}

static void grow(struct json *j, size_t more)
{
	char *p;
	size_t cap;

	if (j->failed || j->len + more + 1 <= j->cap)
		return;
	cap = j->cap ? j->cap : 4096;
	while (cap < j->len + more + 1)
		cap *= 2;
	p = realloc(j->buf, cap);
	if (!p) {
		j->failed = 1;
		return;
	}
	j->buf = p;
	j->cap = cap;
}

static void put(struct json *j, const char *s, size_t n)
{
	grow(j, n);
	if (j->failed)
		return;
	memcpy(j->buf + j->len, s, n);
	j->len += n;
	j->buf[j->len] = 0;
}

__attribute__((format(printf, 2, 3)))
static void putf(struct json *j, const char *fmt, ...)
{
	char tmp[64];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(tmp, sizeof(tmp), fmt, ap);
	va_end(ap);
	if (n > 0)
		put(j, tmp,
		    (size_t)n < sizeof(tmp) ? (size_t)n : sizeof(tmp) - 1);
}

size_t json_utf8_len(const unsigned char *s)
{
	unsigned char lo = 0x80, hi = 0xbf;
	size_t n, i;

	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4;
	else
		return 0;
	/* Overlong forms, UTF-16 surrogates, past U+10FFFF. */
	if (s[0] == 0xe0)
		lo = 0xa0;
	else if (s[0] == 0xed)
		hi = 0x9f;
	else if (s[0] == 0xf0)
		lo = 0x90;
	else if (s[0] == 0xf4)
		hi = 0x8f;
	if (s[1] < lo || s[1] > hi)
		return 0;
	for (i = 2; i < n; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	return n;
}

/*
 * Valid UTF-8 goes as it is. A byte that is not UTF-8 is the text \xNN
 * (DESIGN.md: what metrics labels and fleet write too), so \xff.img and
 * U+00FF.img stay two names to every reader; a backslash is then \x5c,
 * so the text \xff in a name is never taken for the byte.
 * jsonread_get_bytes() reads both back to the bytes.
 */
static void quoted(struct json *j, const char *s)
{
	put(j, "\"", 1);
	while (*s) {
		unsigned char c = (unsigned char)*s;
		size_t n;

		if (c == '"') {
			put(j, "\\\"", 2);
		} else if (c == '\\') {
			put(j, "\\\\x5c", 5);
		} else if (c == '\n') {
			put(j, "\\n", 2);
		} else if (c < 0x20 || c == 0x7f) {
			putf(j, "\\u%04x", c);
		} else if (c < 0x80) {
			put(j, s, 1);
		} else if ((n = json_utf8_len((const unsigned char *)s))) {
			put(j, s, n);
			s += n;
			continue;
		} else {
			putf(j, "\\\\x%02x", c);
		}
		s++;
	}
	put(j, "\"", 1);
}

/* The separator, indentation and key that come before every value. */
static void lead(struct json *j, const char *key)
{
	int i;

	if (j->depth > 0) {
		put(j, j->fresh ? "\n" : ",\n", j->fresh ? 1 : 2);
		for (i = 0; i < j->depth; i++)
			put(j, "  ", 2);
	}
	j->fresh = 0;
	if (key) {
		quoted(j, key);
		put(j, ": ", 2);
	}
}

static void open_(struct json *j, const char *key, const char *c)
{
	lead(j, key);
	put(j, c, 1);
	j->depth++;
	j->fresh = 1;
}

static void close_(struct json *j, const char *c)
{
	int i;

	j->depth--;
	if (!j->fresh) {
		put(j, "\n", 1);
		for (i = 0; i < j->depth; i++)
			put(j, "  ", 2);
	}
	put(j, c, 1);
	j->fresh = 0;
	if (!j->depth)
		put(j, "\n", 1);
}

void json_begin(struct json *j, const char *key) { open_(j, key, "{"); }
void json_end(struct json *j) { close_(j, "}"); }
void json_array(struct json *j, const char *key) { open_(j, key, "["); }
void json_array_end(struct json *j) { close_(j, "]"); }

void json_str(struct json *j, const char *key, const char *v)
{
	lead(j, key);
	if (v)
		quoted(j, v);
	else
		put(j, "null", 4);
}

void json_u64(struct json *j, const char *key, uint64_t v)
{
	lead(j, key);
	putf(j, "%llu", (unsigned long long)v);
}

void json_i64(struct json *j, const char *key, int64_t v)
{
	lead(j, key);
	putf(j, "%lld", (long long)v);
}

void json_num(struct json *j, const char *key, double v)
{
	lead(j, key);
	if (isfinite(v))
		putf(j, "%.3f", v);
	else
		put(j, "null", 4);
}

void json_secs(struct json *j, const char *key, uint64_t ns)
{
	lead(j, key);
	putf(j, "%llu.%09llu", (unsigned long long)(ns / 1000000000ull),
	     (unsigned long long)(ns % 1000000000ull));
}

void json_i64_list(struct json *j, const char *key, const int64_t *v,
		   size_t n)
{
	size_t i;

	lead(j, key);
	put(j, "[", 1);
	for (i = 0; i < n; i++)
		putf(j, "%s%lld", i ? ", " : "", (long long)v[i]);
	put(j, "]", 1);
}

void json_num_list(struct json *j, const char *key, const double *v,
		   size_t n)
{
	size_t i;

	lead(j, key);
	put(j, "[", 1);
	for (i = 0; i < n; i++) {
		if (i)
			put(j, ", ", 2);
		if (isfinite(v[i]))
			putf(j, "%.3f", v[i]);
		else
			put(j, "null", 4);
	}
	put(j, "]", 1);
}

void json_bool(struct json *j, const char *key, int v)
{
	lead(j, key);
	put(j, v ? "true" : "false", v ? 4 : 5);
}

void json_null(struct json *j, const char *key)
{
	lead(j, key);
	put(j, "null", 4);
}

char *json_take(struct json *j, size_t *len)
{
	char *buf = j->buf;

	if (j->failed || !buf) {
		json_free(j);
		return NULL;
	}
	if (len)
		*len = j->len;
	j->buf = NULL;
	j->len = j->cap = 0;
	return buf;
}

void json_free(struct json *j)
{
	free(j->buf);
	j->buf = NULL;
	j->len = j->cap = 0;
}
