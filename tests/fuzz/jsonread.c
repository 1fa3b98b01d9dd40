/* SPDX-License-Identifier: MIT */
/*
 * Description: a libFuzzer target for jsonread, kept out of make check.
 * Any bytes either fail with a reason and a byte offset, or parse into a
 * tree that walks, whose strings are valid UTF-8, and that reads back the
 * same after being written out again; parsed in one room kept across all
 * inputs (jsonread_parse_in), each gives the same failure or the same
 * tree. Run it for a few minutes (make fuzz builds it):
 *
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined -D_GNU_SOURCE \
 *	-Itools/kiln tests/fuzz/jsonread.c tools/kiln/base/jsonread*.c \
 *	tools/kiln/base/json.c -o out/fuzz-jsonread
 *   mkdir -p out/fuzz-corpus && cp tests/fixtures/jsonread/result.json \
 *	out/fuzz-corpus/
 *   out/fuzz-jsonread -dict=tests/fuzz/json.dict -max_total_time=300 \
 *	out/fuzz-corpus
 *
 * Built without libFuzzer (-DJSONREAD_TIME, with -O2 and no sanitizers)
 * it times the parse of each file named instead:
 *
 *   cc -O2 -D_GNU_SOURCE -DJSONREAD_TIME -Itools/kiln \
 *	tests/fuzz/jsonread.c tools/kiln/base/jsonread*.c \
 *	tools/kiln/base/json.c -o out/time-jsonread
 *   out/time-jsonread big.json
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/jsonread.h"

struct out {
	char *buf;
	size_t len, cap;
};

static void put(struct out *o, const void *s, size_t n)
{
	if (o->len + n > o->cap) {
		o->cap = (o->len + n) * 2 + 64;
		o->buf = realloc(o->buf, o->cap);
		if (!o->buf)
			abort();
	}
	memcpy(o->buf + o->len, s, n);
	o->len += n;
}

static void put_str(struct out *o, const char *s, size_t n)
{
	char esc[8];
	size_t i;

	put(o, "\"", 1);
	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c < 0x20 || c == '"' || c == '\\') {
			snprintf(esc, sizeof(esc), "\\u%04x", c);
			put(o, esc, 6);
		} else {
			put(o, &s[i], 1);
		}
	}
	put(o, "\"", 1);
}

/* Writes the tree back as JSON, numbers as exactly as they were read. */
static void emit(struct out *o, const struct jsonread_node *n)
{
	char num[40];
	const char *s;
	size_t i, len;
	uint64_t u;
	int64_t v;
	double d;

	switch (jsonread_type(n)) {
	case JSONREAD_OBJECT:
	case JSONREAD_ARRAY:
		put(o, jsonread_type(n) == JSONREAD_OBJECT ? "{" : "[", 1);
		for (i = 0; i < jsonread_count(n); i++) {
			const struct jsonread_node *m = jsonread_at(n, i);

			if (i)
				put(o, ",", 1);
			if (jsonread_type(n) == JSONREAD_OBJECT) {
				s = jsonread_key(m);
				/* A name holding a NUL is cut: still valid. */
				put_str(o, s, strlen(s));
				put(o, ":", 1);
			}
			emit(o, m);
		}
		put(o, jsonread_type(n) == JSONREAD_OBJECT ? "}" : "]", 1);
		break;
	case JSONREAD_STRING:
		if (jsonread_get_str(n, NULL, &s, &len))
			abort();
		put_str(o, s, len);
		break;
	case JSONREAD_NUMBER:
		if (jsonread_get_num(n, NULL, &d))
			abort();
		if (d == 0 && signbit(d))
			snprintf(num, sizeof(num), "-0");
		else if (!jsonread_get_u64(n, NULL, &u))
			snprintf(num, sizeof(num), "%llu", (unsigned long long)u);
		else if (!jsonread_get_i64(n, NULL, &v))
			snprintf(num, sizeof(num), "%lld", (long long)v);
		else if (snprintf(num, sizeof(num), "%.17g", d) &&
			 !strpbrk(num, ".e"))
			/* Not an integer as written, so not one read back. */
			strcat(num, "e0");
		put(o, num, strlen(num));
		break;
	case JSONREAD_BOOL:
		put(o, jsonread_bool(n, NULL, 0) ? "true" : "false",
		    jsonread_bool(n, NULL, 0) ? 4 : 5);
		break;
	case JSONREAD_NULL:
		put(o, "null", 4);
		break;
	case JSONREAD_MISSING:
		abort();
	}
}

static int valid_utf8(const unsigned char *s, size_t n)
{
	size_t i = 0, k, len;
	uint32_t cp;

	while (i < n) {
		if (s[i] < 0x80) {
			i++;
			continue;
		}
		len = s[i] >= 0xf0 ? 4 : s[i] >= 0xe0 ? 3 : 2;
		if (s[i] < 0xc2 || s[i] > 0xf4 || i + len > n)
			return 0;
		cp = s[i] & (0x3f >> (len - 1));
		for (k = 1; k < len; k++) {
			if ((s[i + k] & 0xc0) != 0x80)
				return 0;
			cp = cp << 6 | (s[i + k] & 0x3f);
		}
		if ((len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) ||
		    (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
			return 0;
		i += len;
	}
	return 1;
}

/* The same tree: kinds, names, strings and numbers bit for bit. */
static int same(const struct jsonread_node *a, const struct jsonread_node *b)
{
	const char *s, *t;
	size_t i, m, n;
	double x, y;

	if (jsonread_type(a) != jsonread_type(b))
		return 0;
	switch (jsonread_type(a)) {
	case JSONREAD_OBJECT:
	case JSONREAD_ARRAY:
		if (jsonread_count(a) != jsonread_count(b))
			return 0;
		for (i = 0; i < jsonread_count(a); i++) {
			const struct jsonread_node *p = jsonread_at(a, i);
			const struct jsonread_node *q = jsonread_at(b, i);

			if (jsonread_type(a) == JSONREAD_OBJECT &&
			    strcmp(jsonread_key(p), jsonread_key(q)))
				return 0;
			if (!same(p, q))
				return 0;
		}
		return 1;
	case JSONREAD_STRING:
		jsonread_get_str(a, NULL, &s, &m);
		jsonread_get_str(b, NULL, &t, &n);
		return m == n && !memcmp(s, t, m);
	case JSONREAD_NUMBER:
		x = jsonread_num(a, NULL, 1);
		y = jsonread_num(b, NULL, 2);
		return !memcmp(&x, &y, sizeof(x)) &&
		       jsonread_u64(a, NULL, 1) == jsonread_u64(b, NULL, 1) &&
		       jsonread_i64(a, NULL, 1) == jsonread_i64(b, NULL, 1);
	case JSONREAD_BOOL:
		return jsonread_bool(a, NULL, 0) == jsonread_bool(b, NULL, 0);
	default:
		return 1;
	}
}

/* The input holds \u0000: a name may be cut short, found as another. */
static int cut_names;

static void check_strings(const struct jsonread_node *n)
{
	const char *s;
	size_t i, len;

	if (jsonread_type(n) == JSONREAD_STRING) {
		if (jsonread_get_str(n, NULL, &s, &len) || s[len] ||
		    !valid_utf8((const unsigned char *)s, len))
			abort();
	}
	for (i = 0; i < jsonread_count(n); i++) {
		const struct jsonread_node *m = jsonread_at(n, i), *f;

		/* By its name a member or a later namesake is found. */
		if (jsonread_type(n) == JSONREAD_OBJECT && !cut_names) {
			f = jsonread_get(n, jsonread_key(m));
			if (!f || f < m || strcmp(jsonread_key(f),
						  jsonread_key(m)))
				abort();
		}
		check_strings(m);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* One room for every input: what one parse leaves must not show in the next. */
static struct jsonread_room room;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct jsonread_limits lim = { .max_nodes = 100000 };
	struct jsonread *doc, *again, *in;
	struct out o = { 0 };
	char err[256];
	int ret;

	ret = jsonread_parse(&doc, data, size, &lim, err, sizeof(err));
	/* The same in the room: the same failure, or the same tree. */
	if (jsonread_parse_in(&room, &in, data, size, &lim, NULL, 0) != ret ||
	    (!ret && !same(jsonread_root(doc), jsonread_root(in))))
		abort();
	if (ret) {
		if ((ret != -EBADMSG && ret != -E2BIG) || doc ||
		    !strstr(err, " at byte "))
			abort();
		return 0;
	}
	cut_names = !!memmem(data, size, "\\u0000", 6);
	check_strings(jsonread_root(doc));
	emit(&o, jsonread_root(doc));
	ret = jsonread_parse(&again, o.buf, o.len, &lim, err, sizeof(err));
	if (ret || !same(jsonread_root(doc), jsonread_root(again)))
		abort();
	jsonread_free(again);
	jsonread_free(doc);
	free(o.buf);
	return 0;
}

#ifdef JSONREAD_TIME
static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static size_t nodes(const struct jsonread_node *n)
{
	size_t i, c = 1;

	for (i = 0; i < jsonread_count(n); i++)
		c += nodes(jsonread_at(n, i));
	return c;
}

int main(int argc, char **argv)
{
	int i, k;

	for (i = 1; i < argc; i++) {
		struct jsonread *doc;
		double best = 1e9, t;
		char err[256], *buf;
		size_t len, count = 0;
		FILE *f = fopen(argv[i], "rb");
		long n;

		if (!f || fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0)
			return 1;
		len = (size_t)n;
		rewind(f);
		buf = malloc(len + 1);
		if (!buf || fread(buf, 1, len, f) != len)
			return 1;
		fclose(f);
		for (k = 0; k < 5; k++) {
			t = now();
			if (jsonread_parse(&doc, buf, len, NULL, err,
					   sizeof(err))) {
				fprintf(stderr, "%s: %s\n", argv[i], err);
				return 1;
			}
			t = now() - t;
			if (t < best)
				best = t;
			count = nodes(jsonread_root(doc));
			jsonread_free(doc);
		}
		printf("%s: %zu bytes, %zu values, %.1f ms (best of 5), "
		       "%.0f MB/s\n", argv[i], len, count, best * 1e3,
		       (double)len / best / 1e6);
		free(buf);
	}
	return 0;
}
#endif
