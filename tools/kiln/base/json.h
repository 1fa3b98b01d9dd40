/* SPDX-License-Identifier: MIT */
#ifndef KILN_JSON_H
#define KILN_JSON_H

#include <stddef.h>
#include <stdint.h>

/*
 * A JSON writer into memory, one indented key a line. Keys are given with
 * each value (NULL inside arrays). Out of memory is remembered, not fatal:
 * json_take() then returns NULL.
 */
struct json {
	char *buf;
	size_t len, cap;
	int depth;
	int fresh;		/* nothing written yet at this depth */
	int failed;
};

void json_init(struct json *j);
void json_begin(struct json *j, const char *key);	/* { */
void json_end(struct json *j);				/* } */
void json_array(struct json *j, const char *key);	/* [ */
void json_array_end(struct json *j);			/* ] */
void json_str(struct json *j, const char *key, const char *v);
void json_u64(struct json *j, const char *key, uint64_t v);
void json_i64(struct json *j, const char *key, int64_t v);
void json_num(struct json *j, const char *key, double v);
/*
 * Nanoseconds as seconds, every digit kept (12.000345678): a time a rate
 * is worked out from again, so the rate read back is the rate written.
 */
void json_secs(struct json *j, const char *key, uint64_t ns);
void json_bool(struct json *j, const char *key, int v);
/* A list of numbers on one line: [1, 2, 3], for long series. */
void json_i64_list(struct json *j, const char *key, const int64_t *v,
		   size_t n);
/* ...and of json_num()'s, a value not finite written as null. */
void json_num_list(struct json *j, const char *key, const double *v,
		   size_t n);
void json_null(struct json *j, const char *key);

/* The document, NUL-terminated, owned by the caller; NULL on failure. */
char *json_take(struct json *j, size_t *len);
void json_free(struct json *j);

/*
 * The length of the valid UTF-8 character at s (a lead byte >= 0x80) in a
 * NUL-terminated string, 0 when it is not one (overlong forms, UTF-16
 * surrogates, past U+10FFFF): the one rule every writer of names uses.
 */
size_t json_utf8_len(const unsigned char *s);

#endif
