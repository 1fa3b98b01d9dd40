/* SPDX-License-Identifier: MIT */
/*
 * Description: kiln reads its own JSON back (result.json, checkpoints,
 * the power-cut record, a lab's upload tree) with jsonread: every kind of
 * valid document reads back exactly, and torn, corrupted, foreign and
 * hostile input fails with a reason and a byte offset, never a crash or a
 * read past the end (ASan watches: every input sits in a buffer of
 * exactly its length).
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../lib/tap.h"
#include "base/json.h"
#include "base/jsonread.h"

#define FIXTURE "tests/fixtures/jsonread/result.json"

static char err[256];

static uint64_t rng = 0x2545f4914f6cdd1dull;

static uint64_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* Parses buf[0..len) from a copy of exactly len bytes. */
static int parse_n(struct jsonread **doc, const void *buf, size_t len,
		   const struct jsonread_limits *lim)
{
	char *copy = malloc(len ? len : 1);
	int ret;

	if (!copy)
		tap_bail("out of memory");
	memcpy(copy, buf, len);
	ret = jsonread_parse(doc, copy, len, lim, err, sizeof(err));
	free(copy);
	return ret;
}

static struct jsonread *parse(const char *s)
{
	struct jsonread *doc;

	if (parse_n(&doc, s, strlen(s), NULL)) {
		tap_diag("%s: %s", s, err);
		return NULL;
	}
	return doc;
}

/* Fails with ret, and err holds want (when given) and a byte offset. */
static int refused_n(const char *s, size_t len, int ret, const char *want)
{
	struct jsonread *doc = NULL;
	int got = parse_n(&doc, s, len, NULL);

	if (got != ret || doc || !strstr(err, " at byte ") ||
	    (want && !strstr(err, want))) {
		tap_diag("%.*s: got %d, %s", (int)len, s, got, err);
		jsonread_free(doc);
		return 0;
	}
	return 1;
}

static int refused(const char *s, const char *want)
{
	return refused_n(s, strlen(s), -EBADMSG, want);
}

/* Touches every node through the accessors, as a reader would. */
static size_t walk(const struct jsonread_node *n)
{
	size_t i, count = 1, len;
	const char *s;
	uint64_t u;
	int64_t v;
	double d;
	int b;

	switch (jsonread_type(n)) {
	case JSONREAD_ARRAY:
	case JSONREAD_OBJECT:
		for (i = 0; i < jsonread_count(n); i++) {
			const struct jsonread_node *m = jsonread_at(n, i);
			const char *key = jsonread_key(m);

			if (jsonread_type(n) == JSONREAD_OBJECT &&
			    (!key || !jsonread_get(n, key)))
				return 0;
			count += walk(m);
		}
		break;
	case JSONREAD_STRING:
		if (jsonread_get_str(n, NULL, &s, &len) || strlen(s) > len)
			return 0;
		break;
	case JSONREAD_NUMBER:
		if (jsonread_get_num(n, NULL, &d) || isnan(d) || isinf(d))
			return 0;
		jsonread_get_u64(n, NULL, &u);
		jsonread_get_i64(n, NULL, &v);
		break;
	case JSONREAD_BOOL:
		if (jsonread_get_bool(n, NULL, &b))
			return 0;
		break;
	case JSONREAD_NULL:
		break;
	case JSONREAD_MISSING:
		return 0;
	}
	return count;
}

/* Parses or fails cleanly: a tree that walks, or a reason with an offset. */
static int clean(const void *buf, size_t len, int *parsed)
{
	struct jsonread *doc = NULL;
	int ret = parse_n(&doc, buf, len, NULL);

	*parsed = !ret;
	if (!ret) {
		ret = walk(jsonread_root(doc)) ? 0 : -1;
		jsonread_free(doc);
		return !ret;
	}
	return (ret == -EBADMSG || ret == -E2BIG) && !doc &&
	       strstr(err, " at byte ");
}

static void test_kinds(void)
{
	struct jsonread *doc;
	const struct jsonread_node *r, *a;
	const char *s;
	size_t len;
	int b;

	doc = parse("0");
	tap_ok(doc && jsonread_type(jsonread_root(doc)) == JSONREAD_NUMBER &&
	       jsonread_u64(jsonread_root(doc), NULL, 9) == 0,
	       "a bare number is a document");
	jsonread_free(doc);
	doc = parse(" true ");
	tap_ok(doc && !jsonread_get_bool(jsonread_root(doc), NULL, &b) && b,
	       "true, with whitespace around");
	jsonread_free(doc);
	doc = parse("false");
	tap_ok(doc && !jsonread_get_bool(jsonread_root(doc), NULL, &b) && !b,
	       "false");
	jsonread_free(doc);
	doc = parse("null");
	tap_ok(doc && jsonread_type(jsonread_root(doc)) == JSONREAD_NULL,
	       "null");
	jsonread_free(doc);
	doc = parse("\"\"");
	tap_ok(doc && !jsonread_get_str(jsonread_root(doc), NULL, &s, &len) &&
	       len == 0 && !*s, "the empty string");
	jsonread_free(doc);
	doc = parse("[]");
	r = doc ? jsonread_root(doc) : NULL;
	tap_ok(jsonread_type(r) == JSONREAD_ARRAY && jsonread_count(r) == 0 &&
	       !jsonread_at(r, 0), "the empty array");
	jsonread_free(doc);
	doc = parse("{}");
	r = doc ? jsonread_root(doc) : NULL;
	tap_ok(jsonread_type(r) == JSONREAD_OBJECT && jsonread_count(r) == 0 &&
	       !jsonread_get(r, ""), "the empty object");
	jsonread_free(doc);

	doc = parse(" \t\r\n{ \"a\" \n:\t[ 1 ,\r\"two\" , { } , [ ] ,null,"
		    "true,false,-3.5] , \"\" : {\"b\":{\"c\":[[\"deep\"]]}} }"
		    "\n\r\t ");
	r = doc ? jsonread_root(doc) : NULL;
	a = jsonread_get(r, "a");
	tap_ok(jsonread_count(r) == 2 && jsonread_count(a) == 8 &&
	       jsonread_u64(jsonread_at(a, 0), NULL, 0) == 1 &&
	       !strcmp(jsonread_str(jsonread_at(a, 1), NULL, ""), "two") &&
	       jsonread_type(jsonread_at(a, 2)) == JSONREAD_OBJECT &&
	       jsonread_type(jsonread_at(a, 3)) == JSONREAD_ARRAY &&
	       jsonread_type(jsonread_at(a, 4)) == JSONREAD_NULL &&
	       jsonread_bool(jsonread_at(a, 5), NULL, 0) == 1 &&
	       jsonread_bool(jsonread_at(a, 6), NULL, 1) == 0 &&
	       jsonread_num(jsonread_at(a, 7), NULL, 0) == -3.5 &&
	       !jsonread_at(a, 8) &&
	       !strcmp(jsonread_str(jsonread_path(r, "//b/c/0/0"), NULL, ""),
		       "deep") &&
	       !strcmp(jsonread_key(jsonread_at(r, 1)), "") &&
	       !jsonread_key(jsonread_at(a, 0)),
	       "nesting of every kind, whitespace of every kind");
	jsonread_free(doc);
}

static void test_strings(void)
{
	static const char want[] = "\"\\/\b\f\n\r\tA\xc3\xa9\xe2\x82\xac"
				   "\xf0\x9f\x98\x80\xf4\x8f\xbf\xbf";
	struct jsonread *doc;
	const char *s;
	size_t len;

	doc = parse("\"\\\"\\\\\\/\\b\\f\\n\\r\\t\\u0041\\u00e9\\u20AC"
		    "\\ud83d\\ude00\\uDBFF\\uDFFF\"");
	tap_ok(doc && !jsonread_get_str(jsonread_root(doc), NULL, &s, &len) &&
	       len == sizeof(want) - 1 && !memcmp(s, want, len),
	       "every escape, surrogate pairs to UTF-8, hex in either case");
	jsonread_free(doc);

	doc = parse("\"a\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\xef\xbf\xbfz\"");
	tap_ok(doc && !strcmp(jsonread_str(jsonread_root(doc), NULL, ""),
			      "a\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80"
			      "\xef\xbf\xbfz"),
	       "raw UTF-8 of every length passes as it is");
	jsonread_free(doc);

	doc = parse("[\"a\\u0000b\"]");
	tap_ok(doc && !jsonread_get_str(jsonread_at(jsonread_root(doc), 0),
					NULL, &s, &len) &&
	       len == 3 && !memcmp(s, "a\0b", 4) &&
	       jsonread_get_str(jsonread_at(jsonread_root(doc), 0), NULL, &s,
				NULL) == -EILSEQ &&
	       !strcmp(jsonread_str(jsonread_at(jsonread_root(doc), 0), NULL,
				    "def"), "def"),
	       "\\u0000: kept with its length, refused as a C string");
	jsonread_free(doc);

	tap_ok(refused("\"\\ud800\"", "high surrogate") &&
	       refused("\"\\ud800\\u0041\"", "high surrogate") &&
	       refused("\"\\ud800\\n\"", "high surrogate") &&
	       refused("\"\\udbff\\ud800\"", "high surrogate") &&
	       refused("\"\\udc00\"", "low surrogate") &&
	       refused("\"\\ude00\\ud83d\"", "low surrogate") &&
	       refused("\"\\ud800", "ends inside"),
	       "lone and reversed surrogates are refused");
	tap_ok(refused("\"\\x\"", "a backslash and 'x': no such escape") &&
	       refused("\"\\U0041\"", "a backslash and 'U'") &&
	       refused("\"\\'\"", "no such escape") &&
	       refused("\"\\u12G4\"", "four hex digits") &&
	       refused("\"\\u12\"", "four hex digits") &&
	       refused("\"\\u12", "ends inside a \\u escape") &&
	       refused("\"\\", "ends inside an escape") &&
	       refused("\"\\ ", "a backslash and byte 0x20"),
	       "bad and cut escapes are refused");
	tap_ok(refused("\"\xc0\x80\"", "UTF-8") &&
	       refused("\"\xc1\xbf\"", "UTF-8") &&
	       refused("\"\xe0\x80\x80\"", "UTF-8") &&
	       refused("\"\xed\xa0\x80\"", "UTF-8") &&
	       refused("\"\xf0\x80\x80\x80\"", "UTF-8") &&
	       refused("\"\xf4\x90\x80\x80\"", "UTF-8") &&
	       refused("\"\xf5\x80\x80\x80\"", "UTF-8") &&
	       refused("\"\xff\"", "UTF-8") &&
	       refused("\"\x80\"", "UTF-8") &&
	       refused("\"\xc3\"", "UTF-8") &&
	       refused("\"\xe2\x82\"", "UTF-8") &&
	       refused("\"\xe2\x82z\"", "UTF-8") &&
	       refused_n("\"\xf0\x9f\x98", 4, -EBADMSG, "UTF-8"),
	       "invalid UTF-8 (overlong, surrogate, past U+10FFFF, cut) is "
	       "refused");
	tap_ok(refused("\"a\nb\"", "control character 0x0a") &&
	       refused("\"\t\"", "control character 0x09") &&
	       refused_n("\"a\0b\"", 5, -EBADMSG, "control character 0x00") &&
	       refused_n("\0", 1, -EBADMSG, "found byte 0x00") &&
	       refused_n("{}\0", 3, -EBADMSG, "end of the document") &&
	       refused_n("[1,\0]", 5, -EBADMSG, "byte 0x00") &&
	       refused("\"abc", "ends inside the string begun at byte 0, "
		       "at byte 4"),
	       "raw control characters and NUL bytes are refused");
	tap_ok(refused("'a'", NULL) && refused("[\"a\" \"b\"]", "',' or ']'"),
	       "single quotes, missing commas");
}

static int num_is(const char *text, double want)
{
	struct jsonread *doc = parse(text);
	double d = NAN;
	int ok;

	ok = doc && !jsonread_get_num(jsonread_root(doc), NULL, &d) &&
	     !memcmp(&d, &want, sizeof(d));
	if (!ok)
		tap_diag("%s: %.17g, want %.17g", text, d, want);
	jsonread_free(doc);
	return ok;
}

static void test_numbers(void)
{
	struct jsonread *doc;
	const struct jsonread_node *r;
	char text[64];
	uint64_t u = 0;
	int64_t v = 0;
	int i, ok;

	doc = parse("[9223372036854775808, 18446744073709551615, "
		    "-9223372036854775808, 9223372036854775807, "
		    "18446744073709551616, -9223372036854775809, -0, "
		    "100000000000000000000000000000]");
	r = doc ? jsonread_root(doc) : NULL;
	tap_ok(!jsonread_get_u64(jsonread_at(r, 0), NULL, &u) &&
	       u == 1ULL << 63 &&
	       jsonread_get_i64(jsonread_at(r, 0), NULL, &v) == -ERANGE &&
	       jsonread_num(jsonread_at(r, 0), NULL, 0) == 9223372036854775808.0,
	       "2^63: exact as u64, out of range for i64");
	tap_ok(!jsonread_get_u64(jsonread_at(r, 1), NULL, &u) &&
	       u == UINT64_MAX, "2^64-1: exact as u64");
	tap_ok(!jsonread_get_i64(jsonread_at(r, 2), NULL, &v) &&
	       v == INT64_MIN &&
	       jsonread_get_u64(jsonread_at(r, 2), NULL, &u) == -ERANGE,
	       "-2^63: exact as i64, out of range for u64");
	tap_ok(!jsonread_get_i64(jsonread_at(r, 3), NULL, &v) &&
	       v == INT64_MAX &&
	       !jsonread_get_u64(jsonread_at(r, 3), NULL, &u) &&
	       u == INT64_MAX, "2^63-1: exact as both");
	u = 7;
	tap_ok(jsonread_get_u64(jsonread_at(r, 4), NULL, &u) == -ERANGE &&
	       u == 7 && jsonread_u64(jsonread_at(r, 4), NULL, 5) == 5 &&
	       jsonread_num(jsonread_at(r, 4), NULL, 0) == 18446744073709551616.0 &&
	       jsonread_get_i64(jsonread_at(r, 5), NULL, &v) == -ERANGE &&
	       jsonread_num(jsonread_at(r, 5), NULL, 0) == -9223372036854775809.0 &&
	       jsonread_num(jsonread_at(r, 7), NULL, 0) == 1e29,
	       "past 64 bits: a double, out of range as an integer, "
	       "nothing written");
	tap_ok(!jsonread_get_u64(jsonread_at(r, 6), NULL, &u) && u == 0 &&
	       !jsonread_get_i64(jsonread_at(r, 6), NULL, &v) && v == 0 &&
	       signbit(jsonread_num(jsonread_at(r, 6), NULL, 0)),
	       "-0: zero as an integer, -0.0 as a double");
	jsonread_free(doc);

	doc = parse("[1.5, 1e3, 2.5E+2, -4e0, 9007199254740992.0, "
		    "9007199254740994.0, 1e-3, -1.0]");
	r = doc ? jsonread_root(doc) : NULL;
	tap_ok(jsonread_get_u64(jsonread_at(r, 0), NULL, &u) == -ERANGE &&
	       jsonread_u64(jsonread_at(r, 1), NULL, 0) == 1000 &&
	       jsonread_u64(jsonread_at(r, 2), NULL, 0) == 250 &&
	       jsonread_i64(jsonread_at(r, 3), NULL, 0) == -4 &&
	       jsonread_get_u64(jsonread_at(r, 3), NULL, &u) == -ERANGE &&
	       jsonread_u64(jsonread_at(r, 4), NULL, 0) == 1ULL << 53 &&
	       jsonread_get_u64(jsonread_at(r, 5), NULL, &u) == -ERANGE &&
	       jsonread_get_i64(jsonread_at(r, 6), NULL, &v) == -ERANGE &&
	       jsonread_i64(jsonread_at(r, 7), NULL, 0) == -1,
	       "a whole number with a fraction or exponent is an integer "
	       "up to 2^53");
	jsonread_free(doc);

	tap_ok(num_is("0.1", 0.1) && num_is("1566.266", 1566.266) &&
	       num_is("-0.000", -0.0) && num_is("2.5e-3", 2.5e-3) &&
	       num_is("123456789012345678", 123456789012345678.0) &&
	       num_is("3.14159265358979323846264338327950288",
		      3.14159265358979323846264338327950288) &&
	       num_is("1.7976931348623157e308", 1.7976931348623157e308) &&
	       num_is("4.9e-324", 4.9e-324) &&
	       num_is("2.2250738585072011e-308", 2.2250738585072011e-308) &&
	       num_is("1e-999", 0.0) && num_is("-1e-999", -0.0) &&
	       num_is("0e99999999999999999999", 0.0) &&
	       num_is("123.456e-67", 123.456e-67) &&
	       num_is("0.000000000000000000000000000001", 1e-30) &&
	       num_is("1000000000000000000000000.5", 1e24),
	       "floats round to the nearest double, as the C compiler does");

	ok = 1;
	for (i = 0; i < 4000 && ok; i++) {
		uint64_t bits = next();
		double d;

		memcpy(&d, &bits, sizeof(d));
		if (isnan(d) || isinf(d))
			continue;
		if (i % 2)
			snprintf(text, sizeof(text), "%.17g", d);
		else	/* MB/s and seconds, as kiln writes them */
			snprintf(text, sizeof(text), "%.3f",
				 (double)(bits % 100000000000000ULL) / 1000);
		ok = num_is(text, strtod(text, NULL));
	}
	tap_ok(ok, "4000 random doubles, as %%.17g and as kiln's %%.3f, read "
	       "as strtod reads them");

	tap_ok(refused("01", "leading zero") && refused("-01", "leading zero") &&
	       refused("00", "leading zero") && refused("[1.]", "after '.'") &&
	       refused("1.", "after '.'") && refused(".5", "expected a value") &&
	       refused("-", "after '-'") && refused("-a", "after '-'") &&
	       refused("1e", "in the exponent") &&
	       refused("1e+", "in the exponent") &&
	       refused("1E-x", "in the exponent") &&
	       refused("+1", "expected a value") &&
	       refused("1.e3", "after '.'") &&
	       refused("0x10", "end of the document") &&
	       refused("1 2", "end of the document") &&
	       refused("- 1", "after '-'") &&
	       refused("NaN", NULL) && refused("Infinity", NULL) &&
	       refused("-Infinity", "after '-'") &&
	       refused("[1e999]", "too large") &&
	       refused("-1e999", "too large") &&
	       refused("1e309", "too large"),
	       "01, 1., .5, -, 1e, +1, hex, NaN, Infinity and overflow are "
	       "refused");
}

static void test_access(void)
{
	struct jsonread *doc;
	const struct jsonread_node *r;
	const char *s = NULL;
	uint64_t u;
	int64_t v;
	double d;
	int b;

	doc = parse("{\"k\": 1, \"n\": null, \"s\": \"x\", \"k\": 2, "
		    "\"o\": {\"a/b\": 3, \"m~n\": 4, \"\": 5}, "
		    "\"t\": true, \"neg\": -5, \"f\": 0.5, "
		    "\"arr\": [10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20]}");
	r = doc ? jsonread_root(doc) : NULL;
	tap_ok(jsonread_count(r) == 9 &&
	       jsonread_u64(r, "k", 0) == 2 &&
	       jsonread_u64(jsonread_at(r, 0), NULL, 0) == 1 &&
	       !strcmp(jsonread_key(jsonread_at(r, 3)), "k"),
	       "duplicate names: the last wins, both are members");
	tap_ok(jsonread_get_u64(r, "none", &u) == -ENOENT &&
	       jsonread_get_u64(r, "n", &u) == -EINVAL &&
	       jsonread_get_u64(r, "s", &u) == -EINVAL &&
	       jsonread_get_u64(r, "neg", &u) == -ERANGE &&
	       jsonread_get_i64(r, "f", &v) == -ERANGE &&
	       jsonread_get_num(r, "t", &d) == -EINVAL &&
	       jsonread_get_bool(r, "n", &b) == -EINVAL &&
	       jsonread_get_bool(r, "none", &b) == -ENOENT &&
	       jsonread_get_str(r, "k", &s, NULL) == -EINVAL &&
	       jsonread_get_str(NULL, NULL, &s, NULL) == -ENOENT &&
	       jsonread_get_u64(jsonread_get(r, "arr"), "k", &u) == -ENOENT,
	       "missing, null, another type and out of range are told apart");
	tap_ok(jsonread_u64(r, "none", 7) == 7 && jsonread_u64(r, "n", 7) == 7 &&
	       jsonread_i64(r, "neg", 0) == -5 && jsonread_i64(r, "s", 3) == 3 &&
	       jsonread_num(r, "f", 0) == 0.5 && jsonread_num(r, "k", 0) == 2 &&
	       jsonread_bool(r, "t", 0) == 1 && jsonread_bool(r, "k", -1) == -1 &&
	       !strcmp(jsonread_str(r, "s", "d"), "x") &&
	       !strcmp(jsonread_str(r, "k", "d"), "d") &&
	       jsonread_str(r, "none", NULL) == NULL,
	       "getters with defaults");
	tap_ok(jsonread_u64(jsonread_path(r, "/o/a~1b"), NULL, 0) == 3 &&
	       jsonread_u64(jsonread_path(r, "/o/m~0n"), NULL, 0) == 4 &&
	       jsonread_u64(jsonread_path(r, "/o/"), NULL, 0) == 5 &&
	       jsonread_u64(jsonread_path(r, "/arr/10"), NULL, 0) == 20 &&
	       jsonread_u64(jsonread_path(r, "/arr/0"), NULL, 1) == 10 &&
	       jsonread_path(r, "") == r &&
	       !jsonread_path(r, "/arr/11") && !jsonread_path(r, "/arr/01") &&
	       !jsonread_path(r, "/arr/-") && !jsonread_path(r, "/arr/") &&
	       !jsonread_path(r, "/arr/1x") &&
	       !jsonread_path(r, "/arr/99999999999999999999999") &&
	       !jsonread_path(r, "arr") && !jsonread_path(r, "/o/m~2n") &&
	       !jsonread_path(r, "/o/m~") && !jsonread_path(r, "/k/x") &&
	       !jsonread_path(r, NULL) && !jsonread_path(NULL, "/k") &&
	       jsonread_u64(jsonread_path(r, "/k"), NULL, 0) == 2,
	       "JSON Pointer paths, with ~0 and ~1, strict array indexes");
	tap_ok(jsonread_type(NULL) == JSONREAD_MISSING &&
	       jsonread_count(NULL) == 0 && !jsonread_at(NULL, 0) &&
	       !jsonread_get(NULL, "k") && !jsonread_key(NULL) &&
	       !jsonread_get(r, NULL) && !jsonread_root(NULL) &&
	       jsonread_count(jsonread_get(r, "s")) == 0 &&
	       !jsonread_at(jsonread_get(r, "s"), 0) &&
	       !jsonread_get(jsonread_get(r, "arr"), "0") &&
	       jsonread_u64(jsonread_at(jsonread_get(r, "nothing"), 3), "x",
			    42) == 42,
	       "a NULL node is missing everywhere, so lookups chain");
	tap_ok(!strcmp(jsonread_type_name(jsonread_type(jsonread_get(r, "s"))),
		       "a string") &&
	       !strcmp(jsonread_type_name(JSONREAD_MISSING), "missing") &&
	       !strcmp(jsonread_type_name(JSONREAD_OBJECT), "an object"),
	       "type names for messages");
	jsonread_free(doc);
	jsonread_free(NULL);
}

/* kiln's writer, read back: json.c and jsonread.c agree on every byte. */
static void test_writer(void)
{
	struct jsonread *doc = NULL;
	const struct jsonread_node *r;
	struct json j;
	char bytes[256], back[256], small[4];
	size_t len = 0;
	char *text;
	int i;

	for (i = 1; i < 256; i++)
		bytes[i - 1] = (char)i;
	bytes[255] = 0;
	json_init(&j);
	json_begin(&j, NULL);
	json_str(&j, "bytes", bytes);
	json_u64(&j, "max", UINT64_MAX);
	json_i64(&j, "min", INT64_MIN);
	json_num(&j, "rate", 1566.266);
	json_num(&j, "inf", INFINITY);
	json_str(&j, "none", NULL);
	json_array(&j, "list");
	json_bool(&j, NULL, 1);
	json_null(&j, NULL);
	json_array_end(&j);
	json_end(&j);
	text = json_take(&j, &len);
	if (!text || parse_n(&doc, text, len, NULL))
		tap_diag("%s", err);
	r = jsonread_root(doc);
	tap_ok(jsonread_u64(r, "max", 0) == UINT64_MAX &&
	       jsonread_i64(r, "min", 0) == INT64_MIN &&
	       jsonread_num(r, "rate", 0) == 1566.266 &&
	       jsonread_type(jsonread_get(r, "inf")) == JSONREAD_NULL &&
	       jsonread_type(jsonread_get(r, "none")) == JSONREAD_NULL &&
	       jsonread_bool(jsonread_path(r, "/list/0"), NULL, 0) == 1,
	       "json.c's numbers read back exactly");
	len = 0;
	tap_ok(!jsonread_get_bytes(r, "bytes", back, sizeof(back), &len) &&
	       len == 255 && !memcmp(back, bytes, 256) &&
	       !jsonread_get_bytes(r, "bytes", back, sizeof(back), NULL) &&
	       !strcmp(back, bytes),
	       "every byte 0x01..0xff that json.c escapes comes back as that "
	       "byte");
	tap_ok(jsonread_get_bytes(r, "bytes", small, sizeof(small), NULL) ==
	       -ENOSPC &&
	       jsonread_get_bytes(r, "max", small, sizeof(small), NULL) ==
	       -EINVAL &&
	       jsonread_get_bytes(r, "gone", small, sizeof(small), NULL) ==
	       -ENOENT, "bytes: too small a buffer, another type, missing");
	jsonread_free(doc);
	free(text);

	/* A record kiln wrote before kiln-result 3, each byte a code point. */
	doc = parse("[\"\\u20ac\", \"\xc3\xa9\", \"a\\u0000b\"]");
	if (doc)
		jsonread_bytes_latin1(jsonread_root(doc));
	r = doc ? jsonread_root(doc) : NULL;
	len = 0;
	tap_ok(jsonread_get_bytes(jsonread_at(r, 0), NULL, back, sizeof(back),
				  NULL) == -ERANGE &&
	       !jsonread_get_bytes(jsonread_at(r, 1), NULL, back, sizeof(back),
				   NULL) && !strcmp(back, "\xe9") &&
	       jsonread_get_bytes(jsonread_at(r, 2), NULL, back, sizeof(back),
				  NULL) == -EILSEQ &&
	       !jsonread_get_bytes(jsonread_at(r, 2), NULL, back, sizeof(back),
				   &len) && len == 3 && !memcmp(back, "a\0b", 4),
	       "bytes: past U+00FF is not kiln's, a NUL needs a length");
	jsonread_free(doc);
}

/* One name through json.c and back through jsonread_get_bytes. */
static int round_trip(const char *name, char *json, size_t jlen, char *back,
		      size_t blen)
{
	struct jsonread *doc = NULL;
	struct json j;
	char *text;
	size_t len = 0;
	int ret;

	json_init(&j);
	json_begin(&j, NULL);
	json_str(&j, "name", name);
	json_end(&j);
	text = json_take(&j, &len);
	if (!text)
		return -ENOMEM;
	/* {\n  "name": "..."\n}\n: the string as it is in the text. */
	snprintf(json, jlen, "%.*s", len > 15 ? (int)(len - 15) : 0,
		 text + 12);
	/* jsonread refuses what is not UTF-8: parsed is valid. */
	ret = parse_n(&doc, text, len, NULL);
	if (!ret)
		ret = jsonread_get_bytes(jsonread_root(doc), "name", back,
					 blen, NULL);
	jsonread_free(doc);
	free(text);
	return ret;
}

/*
 * Names that are not UTF-8: the byte is the text \xNN (the JSON \\xNN),
 * a backslash \x5c, valid UTF-8 as it is; read back to the same bytes.
 */
static void test_escapes(void)
{
	static const char *const odd[] = {
		"\xc3\xa9t\xc3\xa9.img",	/* valid: 2 bytes */
		"\xe2\x82\xac",			/* valid: 3 */
		"\xf0\x9f\x98\x80",		/* valid: 4 */
		"\xc0\x80",			/* overlong */
		"\xed\xa0\x80",			/* a surrogate */
		"\xf4\x90\x80\x80",		/* past U+10FFFF */
		"\xe2\x82",			/* cut short */
		"\xe2\x82x",
		"\xf5\x80\x80\x80",
		"\\xff",			/* as text */
		"\\", "\\\\x5c", "a\\x4",
	};
	struct jsonread *doc;
	char name[8], json[64], back[64];
	int b, ok = 1, bad = -1;
	size_t i;

	tap_ok(!round_trip("\xff.img", json, sizeof(json), back,
			   sizeof(back)) && !strcmp(json, "\"\\\\xff.img\"") &&
	       !strcmp(back, "\xff.img"),
	       "a byte that is not UTF-8: written %s, read back as the byte",
	       json);
	tap_ok(!round_trip("\xc3\xbf.img", json, sizeof(json), back,
			   sizeof(back)) && !strcmp(json, "\"\xc3\xbf.img\"") &&
	       !strcmp(back, "\xc3\xbf.img"),
	       "valid UTF-8 (U+00FF) stays as it is: %s, another name than "
	       "\\xff.img", json);
	tap_ok(!round_trip("a\\b", json, sizeof(json), back, sizeof(back)) &&
	       !strcmp(json, "\"a\\\\x5cb\"") && !strcmp(back, "a\\b"),
	       "a backslash in a name: written %s, read back as one", json);
	tap_ok(!round_trip("\\xff", json, sizeof(json), back, sizeof(back)) &&
	       !strcmp(json, "\"\\\\x5cxff\"") && !strcmp(back, "\\xff"),
	       "the four characters \\xff: written %s, not the byte", json);

	for (b = 1; b < 256; b++) {
		snprintf(name, sizeof(name), "x%cy", b);
		if (round_trip(name, json, sizeof(json), back, sizeof(back)) ||
		    strcmp(back, name)) {
			ok = 0;
			bad = b;
		}
	}
	tap_ok(ok, "every byte 0x01..0xff in a name comes back as that byte "
	       "(first wrong: %d)", bad);
	for (i = 0, ok = 1, bad = -1; i < sizeof(odd) / sizeof(odd[0]); i++)
		if (round_trip(odd[i], json, sizeof(json), back,
			       sizeof(back)) || strcmp(back, odd[i])) {
			ok = 0;
			bad = (int)i;
		}
	tap_ok(ok, "valid UTF-8 and the ways bytes fail to be it come back "
	       "as they were (first wrong: %d)", bad);

	/* Another writer's JSON: \xNN with capitals, a lone backslash. */
	doc = parse("[\"\\\\xFF\\\\x4a\", \"a\\\\b\\\\x4\", \"\\u00e9\"]");
	tap_ok(doc && !jsonread_get_bytes(jsonread_at(jsonread_root(doc), 0),
					  NULL, back, sizeof(back), NULL) &&
	       !strcmp(back, "\xff" "J") &&
	       !jsonread_get_bytes(jsonread_at(jsonread_root(doc), 1), NULL,
				   back, sizeof(back), NULL) &&
	       !strcmp(back, "a\\b\\x4") &&
	       !jsonread_get_bytes(jsonread_at(jsonread_root(doc), 2), NULL,
				   back, sizeof(back), NULL) &&
	       !strcmp(back, "\xc3\xa9"),
	       "read: \\xNN of any case is the byte, a backslash without "
	       "one is itself, U+00E9 is its UTF-8");
	jsonread_free(doc);

	/* Written before kiln-result 3: each byte a code point. */
	doc = parse("[\"\\u00ff.img\", \"\\u00c3\\u00a9\", \"a\\\\x41\", "
		    "\"\\u20ac\"]");
	if (doc)
		jsonread_bytes_latin1(jsonread_root(doc));
	tap_ok(doc && !jsonread_get_bytes(jsonread_at(jsonread_root(doc), 0),
					  NULL, back, sizeof(back), NULL) &&
	       !strcmp(back, "\xff.img") &&
	       !jsonread_get_bytes(jsonread_at(jsonread_root(doc), 1), NULL,
				   back, sizeof(back), NULL) &&
	       !strcmp(back, "\xc3\xa9") &&
	       !jsonread_get_bytes(jsonread_at(jsonread_root(doc), 2), NULL,
				   back, sizeof(back), NULL) &&
	       !strcmp(back, "a\\x41") &&
	       jsonread_get_bytes(jsonread_at(jsonread_root(doc), 3), NULL,
				  back, sizeof(back), NULL) == -ERANGE,
	       "an earlier record: each code point to U+00FF one byte, a "
	       "backslash itself, past U+00FF not kiln's");
	jsonread_free(doc);
}

static void test_fixture(void)
{
	struct jsonread *doc = NULL;
	const struct jsonread_node *r, *t;
	size_t len, cut, last, bad = 0, good_tail = 0;
	char *buf = tap_slurp(FIXTURE, &len);
	int ret;

	ret = parse_n(&doc, buf, len, NULL);
	r = jsonread_root(doc);
	t = jsonread_at(jsonread_get(r, "targets"), 0);
	tap_ok(!ret && !strcmp(jsonread_str(r, "schema", ""), "kiln-result") &&
	       jsonread_u64(r, "schema_version", 0) == 1 &&
	       !strcmp(jsonread_str(r, "state", ""), "complete") &&
	       jsonread_u64(t, "size", 0) == 8388608 &&
	       !strcmp(jsonread_str(t, "identity", ""), "file:/tmp/jr-x.img") &&
	       jsonread_u64(jsonread_path(r, "/targets/0/region/0/length"),
			    NULL, 0) == 8388608 &&
	       jsonread_num(jsonread_path(t, "/phases/write/avg_mbps"),
			    NULL, 0) == 1566.266 &&
	       jsonread_type(jsonread_get(t, "rotational")) == JSONREAD_NULL &&
	       walk(r) > 100, "a real result.json reads back");
	jsonread_free(doc);

	/*
	 * A power cut leaves a prefix. kiln ends a document with "}\n", so
	 * only the cut that drops the trailing newline still parses.
	 */
	for (last = len; last && strchr(" \n\r\t", buf[last - 1]); last--)
		;
	for (cut = 0; cut < len; cut++) {
		doc = NULL;
		ret = parse_n(&doc, buf, cut, NULL);
		if (cut >= last && !ret)
			good_tail++;
		else if (ret != -EBADMSG || doc || !strstr(err, " at byte "))
			bad++;
		jsonread_free(doc);
	}
	tap_ok(!bad && good_tail == len - last,
	       "every one of %zu prefixes fails with a reason (but the one "
	       "that only drops the trailing newline)", len);

	tap_ok(refused_n(buf, last - 1, -EBADMSG, "expected ',' or '}', found "
			 "the end of the document at byte "),
	       "a cut file names what was expected where: %s", err);
	free(buf);
}

/* Every single-byte change of a small document parses or fails cleanly. */
static void test_corruption(void)
{
	static const char small[] =
		"{\"a\": [1, -2.5e3, true, false, null], \"s\": \"x\\u00e9\\n"
		"\xc3\xa9\\ud83d\\ude00\", \"o\": {\"k\": {}}, \"e\": []}";
	char buf[sizeof(small)];
	size_t i, len = sizeof(small) - 1, bad = 0, parsed = 0, total = 0;
	int c, p;

	for (i = 0; i < len; i++) {
		for (c = 0; c < 256; c++) {
			if (c == (unsigned char)small[i])
				continue;
			memcpy(buf, small, len);
			buf[i] = (char)c;
			if (!clean(buf, len, &p))
				bad++;
			parsed += p;
			total++;
		}
	}
	tap_ok(!bad, "all %zu single-byte changes of a %zu-byte document "
	       "parse (%zu) or fail with a reason", total, len, parsed);
}

static void mutate(char *buf, size_t *len, size_t cap)
{
	static const char pick[] = "{}[]\",:\\0123456789-+.eEtfnu \n\x80\xc3"
				   "\xed\xf4\xff";
	size_t at = *len ? next() % *len : 0, n = 1 + next() % 16;

	switch (next() % 6) {
	case 0:		/* one byte flipped */
		if (*len)
			buf[at] ^= (char)(1 << (next() % 8));
		break;
	case 1:		/* a byte that means something to JSON */
		if (*len)
			buf[at] = pick[next() % (sizeof(pick) - 1)];
		break;
	case 2:		/* a range cut out */
		if (n > *len - at)
			n = *len - at;
		memmove(buf + at, buf + at + n, *len - at - n);
		*len -= n;
		break;
	case 3:		/* a range doubled */
		if (n > *len - at)
			n = *len - at;
		if (*len + n > cap)
			break;
		memmove(buf + at + n, buf + at, *len - at);
		*len += n;
		break;
	case 4:		/* truncated, as a power cut leaves it */
		*len = at;
		break;
	case 5:		/* zeroed, as FAT leaves an unwritten cluster */
		if (n > *len - at)
			n = *len - at;
		memset(buf + at, 0, n);
		break;
	}
}

static void test_mutations(void)
{
	static const char *seeds[] = {
		"{\"a\": [1, 2.5, -3e-2, true, false, null, \"s\\\"\\u0041\"],"
		" \"b\": {\"c\": {\"d\": [[], {}, [[[]]]]}}}",
		"[\"\\ud83d\\ude00\", \"\xe2\x82\xac\", 18446744073709551615,"
		" -9223372036854775808, 0.000001, 1E+10]",
		"{\"kiln_checkpoint\": 1, \"seq\": 12, \"bytes\": 5120,\n"
		"\"result\": {\"state\": \"running\", \"targets\": []}}\n",
	};
	size_t flen, i, cap, len, bad = 0, parsed = 0;
	char *fixture = tap_slurp(FIXTURE, &flen), *buf;
	int k, p;

	cap = flen * 2 + 256;
	buf = malloc(cap);
	if (!buf)
		tap_bail("out of memory");
	for (i = 0; i < 6000; i++) {
		const char *seed = i % 4 == 3 ? fixture : seeds[i % 4 % 3];

		len = seed == fixture ? flen : strlen(seed);
		memcpy(buf, seed, len);
		for (k = 1 + next() % 8; k > 0; k--)
			mutate(buf, &len, cap);
		if (!clean(buf, len, &p)) {
			bad++;
			tap_diag("mutation %zu: %s", i, err);
		}
		parsed += p;
	}
	tap_ok(!bad, "6000 randomly mutated documents (fixed seed) parse (%zu) "
	       "or fail with a reason", parsed);
	free(buf);
	free(fixture);
}

static void test_limits(void)
{
	struct jsonread_limits lim = { 0 };
	struct jsonread *doc = NULL;
	size_t n = 200000, i, len;
	char *buf = malloc(2 * n + 16);
	int ret;

	if (!buf)
		tap_bail("out of memory");
	for (i = 0; i < JSONREAD_MAX_DEPTH; i++) {
		buf[i] = '[';
		buf[2 * JSONREAD_MAX_DEPTH - 1 - i] = ']';
	}
	ret = parse_n(&doc, buf, 2 * JSONREAD_MAX_DEPTH, NULL);
	tap_ok(!ret && walk(jsonread_root(doc)) == JSONREAD_MAX_DEPTH,
	       "nesting %d deep is fine", JSONREAD_MAX_DEPTH);
	jsonread_free(doc);
	memmove(buf + 1, buf, 2 * JSONREAD_MAX_DEPTH);
	buf[2 * JSONREAD_MAX_DEPTH + 1] = ']';
	tap_ok(refused_n(buf, 2 * JSONREAD_MAX_DEPTH + 2, -E2BIG,
			 "nested deeper than 64 at byte 64"),
	       "one deeper is refused: %s", err);
	memset(buf, '[', n);
	tap_ok(refused_n(buf, n, -E2BIG, "nested deeper"),
	       "%zu open brackets: refused at the limit, no recursion", n);
	for (i = 0; i + 5 < n; i += 5)
		memcpy(buf + i, "{\"a\":", 5);
	tap_ok(refused_n(buf, i, -E2BIG, "nested deeper"),
	       "objects nested past the limit too");
	lim.max_depth = 2;
	doc = NULL;
	ret = parse_n(&doc, "[[1]]", 5, &lim);
	jsonread_free(doc);
	tap_ok(!ret && parse_n(&doc, "[[[1]]]", 7, &lim) == -E2BIG,
	       "the caller sets the depth");

	lim.max_depth = 0;
	lim.max_nodes = 4;
	ret = parse_n(&doc, "[1,2,3]", 7, &lim);
	jsonread_free(doc);
	tap_ok(!ret && parse_n(&doc, "[1,2,3,4]", 9, &lim) == -E2BIG &&
	       strstr(err, "more than 4 values at byte 7") &&
	       parse_n(&doc, "{\"a\":[{}],\"b\":1,\"c\":2}", 22, &lim) ==
	       -E2BIG,
	       "the caller sets the node count: %s", err);
	lim.max_nodes = 0;
	lim.max_bytes = 8;
	ret = parse_n(&doc, "[1,2,3] ", 8, &lim);
	jsonread_free(doc);
	tap_ok(!ret && parse_n(&doc, "[1,2,3]  ", 9, &lim) == -E2BIG &&
	       !strcmp(err, "the document is 9 bytes, more than the limit "
		       "of 8"), "the caller sets the size: %s", err);

	free(buf);
	len = (size_t)16 << 20;
	buf = malloc(len);
	if (!buf)
		tap_bail("out of memory");
	memset(buf, 'a', len);
	buf[0] = '"';
	buf[len - 1] = '"';
	for (n = 0, i = 1000; i < len / 2; i += len / 8, n++)
		memcpy(buf + i, "\\u00e9", 6);
	doc = NULL;
	ret = parse_n(&doc, buf, len, NULL);
	tap_ok(!ret && jsonread_type(jsonread_root(doc)) == JSONREAD_STRING &&
	       strlen(jsonread_str(jsonread_root(doc), NULL, "")) ==
	       len - 2 - 4 * n,
	       "a 16 MiB string");
	jsonread_free(doc);
	buf[len - 1] = 'a';
	tap_ok(refused_n(buf, len, -EBADMSG, "ends inside the string begun at "
			 "byte 0, at byte 16777216"),
	       "a 16 MiB string never closed");

	/* One huge array and one huge object: indexing stays O(1). */
	len = 0;
	buf[len++] = '[';
	for (i = 0; i < 1000000; i++)
		len += (size_t)sprintf(buf + len, "%zu,", i);
	buf[len - 1] = ']';
	doc = NULL;
	ret = parse_n(&doc, buf, len, NULL);
	tap_ok(!ret && jsonread_count(jsonread_root(doc)) == 1000000 &&
	       jsonread_u64(jsonread_at(jsonread_root(doc), 999999), NULL, 0) ==
	       999999 && walk(jsonread_root(doc)) == 1000001,
	       "an array of a million numbers");
	jsonread_free(doc);
	len = 0;
	buf[len++] = '{';
	for (i = 0; i < 300000; i++)
		len += (size_t)sprintf(buf + len, "\"k%zu\":{\"v\":[%zu]},", i,
				       i);
	buf[len - 1] = '}';
	doc = NULL;
	ret = parse_n(&doc, buf, len, NULL);
	tap_ok(!ret && jsonread_count(jsonread_root(doc)) == 300000 &&
	       jsonread_u64(jsonread_path(jsonread_root(doc), "/k299999/v/0"),
			    NULL, 0) == 299999 &&
	       !strcmp(jsonread_key(jsonread_at(jsonread_root(doc), 7)), "k7"),
	       "an object of 300000 members");
	jsonread_free(doc);
	free(buf);
}

static void test_edges(void)
{
	struct jsonread *doc = NULL;
	int ret;

	ret = parse_n(&doc, "\xef\xbb\xbf{\"a\":1}", 10, NULL);
	tap_ok(!ret && jsonread_u64(jsonread_root(doc), "a", 0) == 1,
	       "a leading UTF-8 BOM is skipped");
	jsonread_free(doc);
	tap_ok(refused("\xef\xbb\xbf\xef\xbb\xbf{}", "byte 0xef at byte 3") &&
	       refused(" \xef\xbb\xbf{}", "byte 0xef at byte 1") &&
	       refused("\xef\xbb\xbf", "expected a value") &&
	       refused("\xef\xbb", "byte 0xef at byte 0") &&
	       refused("[\xef\xbb\xbf]", NULL),
	       "a BOM anywhere else, twice or alone is refused");

	tap_ok(refused_n("", 0, -EBADMSG, "expected a value, found the end of "
			 "the document at byte 0 (line 1)") &&
	       jsonread_parse(&doc, NULL, 0, NULL, err, sizeof(err)) ==
	       -EBADMSG && !doc && refused("  \n ", "(line 2)"),
	       "empty input");
	tap_ok(refused("{} x", "expected the end of the document, found 'x' "
		       "at byte 3") &&
	       refused("{}}", "found '}'") && refused("[] []", "found '['") &&
	       refused("{\"a\":1}\n{\"a\":1}", "(line 2)") &&
	       refused("nulll", NULL) && refused("truefalse", NULL),
	       "trailing garbage is refused");
	tap_ok(refused("{\"a\":1,}", "a name in quotes") &&
	       refused("[1,]", "expected a value, found ']'") &&
	       refused("[,1]", "expected a value") &&
	       refused("{,}", "a name in quotes") &&
	       refused("{\"a\" 1}", "expected ':'") &&
	       refused("{\"a\":}", "expected a value") &&
	       refused("{1:2}", "a name in quotes") &&
	       refused("{a:1}", "a name in quotes") &&
	       refused("[1 2]", "expected ',' or ']'") &&
	       refused("{\"a\":1 \"b\":2}", "expected ',' or '}'") &&
	       refused("[}", NULL) && refused("{]", NULL) &&
	       refused("tru", NULL) && refused("nul", NULL) &&
	       refused("True", NULL) && refused("[\x01]", "byte 0x01") &&
	       refused("[\f1]", "byte 0x0c") && refused("[\v]", NULL) &&
	       refused("/* c */ 1", NULL) && refused("[1]//", NULL),
	       "trailing commas, missing parts, wrong brackets, comments");
	tap_ok(refused("{\n  \"a\": 1\n  \"b\": 2\n}",
		       "expected ',' or '}', found '\"' at byte 13 (line 3)"),
	       "the message: %s", err);
}

static void test_load(void)
{
	char path[64], dir[64];
	struct jsonread_limits lim = { .max_bytes = 8 };
	struct jsonread *doc = NULL;
	FILE *f;
	int ret;

	snprintf(dir, sizeof(dir), "/tmp/kiln-jsonread-%d", (int)getpid());
	snprintf(path, sizeof(path), "%s.json", dir);
	f = fopen(path, "w");
	if (!f)
		tap_bail("cannot write %s", path);
	fputs("{\"a\": [1, 2]}\n", f);
	fclose(f);
	ret = jsonread_load(&doc, path, NULL, err, sizeof(err));
	tap_ok(!ret && jsonread_u64(jsonread_path(jsonread_root(doc), "/a/1"),
				    NULL, 0) == 2, "load: a file");
	jsonread_free(doc);
	tap_ok(jsonread_load(&doc, path, &lim, err, sizeof(err)) == -E2BIG &&
	       !doc && strstr(err, "limit of 8"), "load: past the size limit: %s",
	       err);
	f = fopen(path, "w");
	fputs("{\"a\": [1, 2", f);
	fclose(f);
	tap_ok(jsonread_load(&doc, path, NULL, err, sizeof(err)) == -EBADMSG &&
	       !doc && strstr(err, "at byte 11"), "load: a torn file: %s", err);
	unlink(path);
	tap_ok(jsonread_load(&doc, path, NULL, err, sizeof(err)) == -ENOENT &&
	       !doc && !strcmp(err, strerror(ENOENT)), "load: no such file");
	tap_ok(jsonread_load(&doc, "/", NULL, err, sizeof(err)) == -EISDIR &&
	       !doc, "load: a directory");
	f = fopen(path, "w");
	fclose(f);
	tap_ok(jsonread_load(&doc, path, NULL, err, sizeof(err)) == -EBADMSG &&
	       !doc, "load: an empty file: %s", err);
	unlink(path);
}

/*
 * Files loaded one after another in one room (jsonread_load_in): a large
 * one, a small one, the large one again; the size limit says what it
 * says alone (its buffer from a larger file is not used past the limit);
 * a torn file fails as alone.
 */
static void test_room_load(const char *big)
{
	struct jsonread_room room;
	const struct jsonread_limits lim = { .max_bytes = 8 };
	struct jsonread *doc = NULL;
	char path[64];
	FILE *f;
	int i, ok = 1, ret;

	memset(&room, 0, sizeof(room));
	snprintf(path, sizeof(path), "/tmp/kiln-jsonread-room-%d.json",
		 (int)getpid());
	for (i = 0; i < 4; i++) {
		const char *text = i % 2 ? "{\"name\": \"small\"}" : big;

		f = fopen(path, "w");
		if (!f)
			tap_bail("cannot write %s", path);
		fputs(text, f);
		fclose(f);
		ret = jsonread_load_in(&room, &doc, path, NULL, err,
				       sizeof(err));
		ok &= !ret && !strcmp(jsonread_str(jsonread_root(doc), "name",
						   ""), i % 2 ? "small" : "big");
	}
	tap_ok(ok, "load in a room: large, small, large, small");
	tap_ok(jsonread_load_in(&room, &doc, path, &lim, err, sizeof(err)) ==
	       -E2BIG && !doc && strstr(err, "larger than the limit of 8"),
	       "load in a room: past the size limit, as alone: %s", err);
	f = fopen(path, "w");
	fputs("{\"a\": [1, 2", f);
	fclose(f);
	tap_ok(jsonread_load_in(&room, &doc, path, NULL, err, sizeof(err)) ==
	       -EBADMSG && !doc && strstr(err, "at byte 11"),
	       "load in a room: a torn file: %s", err);
	unlink(path);
	jsonread_room_free(&room);
}

/*
 * Documents parsed one after another in one room (jsonread_parse_in):
 * each reads as it does alone, larger and smaller ones in turn; a bad
 * one fails as alone and leaves the room good for the next; the limits
 * hold; jsonread_free() of a room's document frees nothing (ASan would
 * say a double free), and jsonread_room_free() frees all.
 */
static void test_room(void)
{
	struct jsonread_room room;
	struct jsonread *doc = NULL;
	const struct jsonread_limits tight = { 16, 0, 0 };
	char big[8192], err[200];
	size_t n = 0;
	int i, ok = 1, ret;

	memset(&room, 0, sizeof(room));
	n += (size_t)snprintf(big + n, sizeof(big) - n, "{\"list\": [");
	for (i = 0; i < 500; i++)
		n += (size_t)snprintf(big + n, sizeof(big) - n, "%s\"s%d\"",
				      i ? ", " : "", i);
	snprintf(big + n, sizeof(big) - n, "], \"name\": \"big\"}");
	/* Small first: the room's buffers too small for the next, freed. */
	for (i = 0; i < 6; i++) {
		const char *small = "{\"name\": \"small\", \"n\": 7}";
		const char *text = i % 2 ? big : small;

		ret = jsonread_parse_in(&room, &doc, text, strlen(text), NULL,
					err, sizeof(err));
		ok &= !ret && !strcmp(jsonread_str(jsonread_root(doc), "name",
						   ""), i % 2 ? "big" : "small");
		ok &= !(i % 2) ? jsonread_u64(jsonread_root(doc), "n", 0) == 7 :
		      jsonread_count(jsonread_get(jsonread_root(doc),
						  "list")) == 500 &&
		      !strcmp(jsonread_key(jsonread_get(jsonread_root(doc),
							"name")), "name");
		jsonread_free(doc);
	}
	tap_ok(ok, "six documents in one room, small and large in turn");
	ret = jsonread_parse_in(&room, &doc, "{\"a\": [1, 2,]}", 14, NULL,
				err, sizeof(err));
	tap_ok(ret == -EBADMSG && !doc && strstr(err, "byte"),
	       "a bad one fails as alone: %s", err);
	ret = jsonread_parse_in(&room, &doc, "{\"a\": \"after\"}", 14, NULL,
				NULL, 0);
	tap_ok(!ret && !strcmp(jsonread_str(jsonread_root(doc), "a", ""),
			       "after"), "and the room reads the next");
	ret = jsonread_parse_in(&room, &doc, big, strlen(big), &tight, NULL,
				0);
	tap_ok(ret == -E2BIG, "its limits hold in a room too");
	jsonread_room_free(&room);
	jsonread_room_free(&room);
	tap_ok(!room.doc && !room.nodes && !room.strings,
	       "freed, and freed again: nothing left");
	test_room_load(big);
}

int main(int argc, char **argv)
{
	tap_args(argc, argv);
	TAP_RUN(test_kinds);
	TAP_RUN(test_strings);
	TAP_RUN(test_numbers);
	TAP_RUN(test_access);
	TAP_RUN(test_writer);
	TAP_RUN(test_escapes);
	TAP_RUN(test_fixture);
	TAP_RUN(test_corruption);
	TAP_RUN(test_mutations);
	TAP_RUN(test_limits);
	TAP_RUN(test_edges);
	TAP_RUN(test_load);
	TAP_RUN(test_room);
	return tap_done();
}
