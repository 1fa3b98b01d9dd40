/* SPDX-License-Identifier: MIT */
#ifndef KILN_JSONREAD_H
#define KILN_JSONREAD_H

#include <stddef.h>
#include <stdint.h>

/*
 * kiln's one JSON reader, for the documents it wrote itself and reads back:
 * result.json (verify --from, fleet), checkpoints (finish), the pending
 * power-cut record. Strict RFC 8259 (a leading UTF-8 BOM is skipped,
 * nothing else is forgiven), bounded by the limits below, iterative and
 * linear in the input, never reading past len.
 *
 * A parsed document is one tree the reader owns until jsonread_free().
 * Every accessor takes NULL for a node and answers "missing", so lookups
 * chain without checks in between:
 *
 *	t = jsonread_at(jsonread_get(root, "targets"), 3);
 *	size = jsonread_u64(t, "size", 0);
 *
 * Duplicate names in an object: the last one wins, as in Python's json
 * and JavaScript; jsonread_at() still shows every member.
 */

enum jsonread_type {
	JSONREAD_MISSING,	/* not there: a NULL node */
	JSONREAD_NULL,
	JSONREAD_BOOL,
	JSONREAD_NUMBER,
	JSONREAD_STRING,
	JSONREAD_ARRAY,
	JSONREAD_OBJECT,
};

/* 0 in a field means its default. */
struct jsonread_limits {
	size_t max_bytes;	/* the longest document */
	size_t max_nodes;	/* values, each member and element counted */
	unsigned max_depth;	/* arrays and objects inside each other */
};

/*
 * Generous for a long run of many disks (result.json of tens of MB,
 * about one value per 10 bytes); a node costs 40 bytes. The bytes are
 * what the largest record of RESULT_MAX_TARGETS targets takes, every
 * list full (tests/unit/bounded.c).
 */
#define JSONREAD_MAX_BYTES	((size_t)512 << 20)
#define JSONREAD_MAX_NODES	((size_t)16 << 20)
#define JSONREAD_MAX_DEPTH	64

struct jsonread;
struct jsonread_node;
struct jsonread_parse_frame;

/*
 * Parses the document in buf[0..len) (no NUL needed; NULs are refused).
 * 0 and *doc, else -EBADMSG (not valid JSON), -E2BIG (past a limit) or
 * -ENOMEM, with a one-line reason in err when err is not NULL:
 * "expected ',' or '}', found 'x' at byte 1234 (line 56)".
 */
int jsonread_parse(struct jsonread **doc, const void *buf, size_t len,
		   const struct jsonread_limits *lim, char *err,
		   size_t errlen);

/*
 * Room for parsing many documents one after another (kiln fleet reads an
 * index a run, 200,000 over a large lab): what a parse allocates is kept
 * for the next, which allocates nothing once the room is large enough.
 * musl's malloc gives a freed block of a few KiB back to the kernel, and
 * each parse would fault its pages in again. Zeroed to begin, used by one
 * thread at a time. A document parsed in it is the room's, good until
 * the next parse in it (jsonread_free() of it frees nothing), and
 * jsonread_room_free() frees it all. Otherwise as jsonread_parse().
 */
struct jsonread_room {
	struct jsonread *doc;
	struct jsonread_node *nodes, *stk;
	struct jsonread_parse_frame *frames;
	char *strings;
	char *file;		/* jsonread_load_in's bytes */
	size_t nodes_cap, stk_cap, frames_cap, strings_cap, file_cap;
};

int jsonread_parse_in(struct jsonread_room *room, struct jsonread **doc,
		      const void *buf, size_t len,
		      const struct jsonread_limits *lim, char *err,
		      size_t errlen);
int jsonread_load_in(struct jsonread_room *room, struct jsonread **doc,
		     const char *path, const struct jsonread_limits *lim,
		     char *err, size_t errlen);
void jsonread_room_free(struct jsonread_room *room);

/* Reads a file whole (at most max_bytes) and parses it; -errno if unread. */
int jsonread_load(struct jsonread **doc, const char *path,
		  const struct jsonread_limits *lim, char *err, size_t errlen);

void jsonread_free(struct jsonread *doc);

const struct jsonread_node *jsonread_root(const struct jsonread *doc);

enum jsonread_type jsonread_type(const struct jsonread_node *n);

/* "missing", "null", "a boolean", "a number", ... for messages. */
const char *jsonread_type_name(enum jsonread_type type);

/* Elements of an array, members of an object; 0 for anything else. */
size_t jsonread_count(const struct jsonread_node *n);

/* Element or member i of an array or object, in document order, O(1). */
const struct jsonread_node *jsonread_at(const struct jsonread_node *n,
					size_t i);

/*
 * The member named key of an object (the last of duplicates), or NULL: a
 * scan, right for kiln's objects of tens of names; walk a big one by index.
 */
const struct jsonread_node *jsonread_get(const struct jsonread_node *obj,
					 const char *key);

/* A member's name, NULL for a node that is not an object's member. */
const char *jsonread_key(const struct jsonread_node *n);

/*
 * An RFC 6901 JSON Pointer from n: "/targets/3/identity" ("" is n itself,
 * ~1 stands for '/' and ~0 for '~' in a name). NULL when not there.
 */
const struct jsonread_node *jsonread_path(const struct jsonread_node *n,
					  const char *pointer);

/*
 * Typed getters of n's member key (of n itself when key is NULL):
 * 0 and *v; -ENOENT when missing; -EINVAL when present with another type
 * (null included); -ERANGE for a number out of the type's range or not a
 * whole number. A whole number is exact to 2^64-1 and -2^63 when written
 * as an integer, and to 2^53 when written with a fraction or exponent.
 * *v is untouched on error.
 */
int jsonread_get_u64(const struct jsonread_node *n, const char *key,
		     uint64_t *v);
int jsonread_get_i64(const struct jsonread_node *n, const char *key,
		     int64_t *v);
int jsonread_get_num(const struct jsonread_node *n, const char *key,
		     double *v);
int jsonread_get_bool(const struct jsonread_node *n, const char *key,
		      int *v);

/*
 * The string as UTF-8, NUL-terminated, valid until jsonread_free(). With
 * len NULL a string holding a NUL (\u0000) is -EILSEQ: a C string would
 * silently lose its tail.
 */
int jsonread_get_str(const struct jsonread_node *n, const char *key,
		     const char **s, size_t *len);

/*
 * The string as the bytes kiln's json writer was given (a serial or path
 * that is not UTF-8 comes back as it was). The writer keeps valid UTF-8
 * as it is and writes each byte that is not UTF-8 as the text \xNN (the
 * JSON \\xNN), and a backslash as \x5c: so here \xNN (of either case)
 * is that byte, a backslash not followed by xNN is itself (another
 * writer's), anything else its UTF-8. In a document marked by
 * jsonread_bytes_latin1() each code point up to U+00FF is one byte
 * instead, and one above it -ERANGE. NUL-terminated in buf; -ENOSPC when
 * it does not fit, -EILSEQ as above.
 */
int jsonread_get_bytes(const struct jsonread_node *n, const char *key,
		       char *buf, size_t size, size_t *len);

/*
 * The same into out, or "" when it is missing, no string, or does not
 * fit: for the fields a reader takes as they come.
 */
void jsonread_copy(const struct jsonread_node *n, const char *key, char *out,
		   size_t len);

/*
 * Marks n and all under it as written by a kiln before names were escaped
 * so (kiln-result versions 1 and 2, RESULT_SCHEMA_UTF8): its writer gave
 * every byte above 0x7e as \u00XX and a backslash as itself, and
 * jsonread_get_bytes reads its strings so from then on.
 */
void jsonread_bytes_latin1(const struct jsonread_node *n);

/* The same, with def for anything but a present value of the type. */
uint64_t jsonread_u64(const struct jsonread_node *n, const char *key,
		      uint64_t def);
int64_t jsonread_i64(const struct jsonread_node *n, const char *key,
		     int64_t def);
double jsonread_num(const struct jsonread_node *n, const char *key,
		    double def);
int jsonread_bool(const struct jsonread_node *n, const char *key, int def);
const char *jsonread_str(const struct jsonread_node *n, const char *key,
			 const char *def);

/*
 * Writes n (with its name key, NULL in an array or at the top) to j, as
 * kiln's json writer would have written it: what a document read and
 * changed is written back with. Strings are the bytes jsonread_get_bytes
 * gives; integers stay integers; any other number is written as json.c
 * writes fractions (%.3f, exact for what kiln wrote); the layout is
 * json.c's, whatever the document's was.
 */
struct json;
void jsonread_write(struct json *j, const char *key,
		    const struct jsonread_node *n);

#endif
