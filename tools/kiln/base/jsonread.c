/* SPDX-License-Identifier: MIT */
/*
 * Description: kiln's one small bounded JSON reader (see jsonread.h), as
 * its callers use it: a file read whole and parsed (the parser is
 * jsonread_parse.c), the tree freed, and a parsed tree walked: by index,
 * by name, by JSON Pointer, and through the typed getters that tell a
 * missing value from one of the wrong type or out of range.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/json.h"
#include "base/jsonread.h"
#include "base/jsonread_tree.h"

static int load_doc(struct jsonread_room *room, struct jsonread **doc,
		    const char *path, const struct jsonread_limits *lim,
		    char *err, size_t errlen)
{
	size_t max = lim && lim->max_bytes ? lim->max_bytes :
		     JSONREAD_MAX_BYTES;
	size_t len = 0, cap = 0, first = 65536;
	char *buf = NULL;
	struct stat st;
	int fd, ret;

	*doc = NULL;
	/* Not blocking: a FIFO in a results tree must not hang a reader. */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0 || fstat(fd, &st) < 0) {
		ret = -errno;
		goto err;
	}
	if (S_ISDIR(st.st_mode)) {
		ret = -EISDIR;
		goto err;
	}
	if (!S_ISREG(st.st_mode)) {
		ret = -EINVAL;
		if (err && errlen)
			snprintf(err, errlen, "not a regular file");
		goto out;
	}
	/* Read one byte past the limit, to tell "too big" from "just fits". */
	if (st.st_size > 0 && (uint64_t)st.st_size <= max)
		first = (size_t)st.st_size + 1;
	/*
	 * In a room, its buffer when it holds that and no more than the
	 * limit; else it is freed before another is allocated.
	 */
	if (room && room->file && room->file_cap >= first &&
	    room->file_cap <= max + 1) {
		buf = room->file;
		cap = room->file_cap;
	} else if (room) {
		free(room->file);
	}
	if (room) {
		room->file = NULL;
		room->file_cap = 0;
	}
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
	ret = room ? jsonread_parse_in(room, doc, buf ? buf : "", len, lim,
				       err, errlen) :
		     jsonread_parse(doc, buf ? buf : "", len, lim, err,
				    errlen);
	goto out;
err:
	if (err && errlen)
		snprintf(err, errlen, "%s", strerror(-ret));
out:
	if (room && buf) {
		free(room->file);
		room->file = buf;
		room->file_cap = cap;
	} else {
		free(buf);
	}
	if (fd >= 0)
		close(fd);
	return ret;
}

int jsonread_load(struct jsonread **doc, const char *path,
		  const struct jsonread_limits *lim, char *err, size_t errlen)
{
	return load_doc(NULL, doc, path, lim, err, errlen);
}

int jsonread_load_in(struct jsonread_room *room, struct jsonread **doc,
		     const char *path, const struct jsonread_limits *lim,
		     char *err, size_t errlen)
{
	return load_doc(room, doc, path, lim, err, errlen);
}

void jsonread_free(struct jsonread *doc)
{
	/* A room's is the room's (jsonread_room_free). */
	if (!doc || doc->roomed)
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

		/* The first byte before the call: most names differ there. */
		if (m->keylen == klen &&
		    (!klen || (m->key.p[0] == key[0] &&
			       !memcmp(m->key.p, key, klen))))
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
	if (n->flags & JSONREAD_TREE_INT || v < lo || v > 9007199254740992.0 ||
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
	if (n->flags & JSONREAD_TREE_U64)
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
	if ((n->flags & JSONREAD_TREE_I64) && (n->flags & JSONREAD_TREE_U64))
		*v = (int64_t)n->v.num.u;
	else if (n->flags & JSONREAD_TREE_I64)
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
	if (!len && n->flags & JSONREAD_TREE_NUL)
		return -EILSEQ;
	*s = n->v.str.p;
	if (len)
		*len = n->len;
	return 0;
}

static int hex_digit(unsigned char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

int jsonread_get_bytes(const struct jsonread_node *n, const char *key,
		       char *buf, size_t size, size_t *len)
{
	const char *str = NULL;
	const unsigned char *s;
	size_t i, o = 0, slen = 0;
	int ret, latin1;

	ret = jsonread_get_str(n, key, &str, len ? &slen : NULL);
	if (ret)
		return ret;
	if (!len)
		slen = strlen(str);
	/* The string's own node: n, or its member key. */
	latin1 = (key ? jsonread_get(n, key) : n)->flags &
		 JSONREAD_TREE_LATIN1;
	s = (const unsigned char *)str;
	for (i = 0; i < slen; i++) {
		unsigned char c = s[i];

		if (latin1 && c >= 0x80) {
			/* Valid UTF-8: only C2 and C3 lead U+0080..FF. */
			if (c != 0xc2 && c != 0xc3)
				return -ERANGE;
			c = (unsigned char)((c & 0x03) << 6 | (s[++i] & 0x3f));
		} else if (!latin1 && c == '\\' && i + 3 < slen &&
			   s[i + 1] == 'x' && hex_digit(s[i + 2]) >= 0 &&
			   hex_digit(s[i + 3]) >= 0) {
			/* \xNN: a byte that is not UTF-8, or a backslash. */
			c = (unsigned char)(hex_digit(s[i + 2]) << 4 |
					    hex_digit(s[i + 3]));
			i += 3;
			if (!c && !len)
				return -EILSEQ;
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

void jsonread_copy(const struct jsonread_node *n, const char *key, char *out,
		   size_t len)
{
	if (jsonread_get_bytes(n, key, out, len, NULL))
		out[0] = 0;
}

void jsonread_bytes_latin1(const struct jsonread_node *n)
{
	/* The tree is the document's own memory; only a flag changes. */
	struct jsonread_node *w = (struct jsonread_node *)n;
	size_t i;

	if (!w)
		return;
	w->flags |= JSONREAD_TREE_LATIN1;
	if (w->type == JSONREAD_ARRAY || w->type == JSONREAD_OBJECT)
		for (i = 0; i < w->len; i++)
			jsonread_bytes_latin1(&w->v.kids.p[i]);
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

/*
 * Recursion is bounded: a parsed tree is at most max_depth deep (64 by
 * default), and this walks it once.
 */
void jsonread_write(struct json *j, const char *key,
		    const struct jsonread_node *n)
{
	size_t i, len;
	char *bytes;

	switch (jsonread_type(n)) {
	case JSONREAD_MISSING:
		return;
	case JSONREAD_NULL:
		json_null(j, key);
		return;
	case JSONREAD_BOOL:
		json_bool(j, key, n->v.b);
		return;
	case JSONREAD_NUMBER:
		if ((n->flags & JSONREAD_TREE_INT) &&
		    (n->flags & JSONREAD_TREE_U64))
			json_u64(j, key, n->v.num.u);
		else if ((n->flags & JSONREAD_TREE_INT) &&
			 (n->flags & JSONREAD_TREE_I64))
			json_i64(j, key, n->v.num.i);
		else	/* a fraction, as kiln writes them: %.3f */
			json_num(j, key, n->v.num.d);
		return;
	case JSONREAD_STRING:
		/* Never longer as bytes than as UTF-8. */
		len = n->len + 1;
		bytes = malloc(len);
		if (bytes && !jsonread_get_bytes(n, NULL, bytes, len, NULL))
			json_str(j, key, bytes);
		else
			json_str(j, key, n->v.str.p);
		free(bytes);
		return;
	case JSONREAD_ARRAY:
		json_array(j, key);
		for (i = 0; i < n->len; i++)
			jsonread_write(j, NULL, &n->v.kids.p[i]);
		json_array_end(j);
		return;
	case JSONREAD_OBJECT:
		json_begin(j, key);
		for (i = 0; i < n->len; i++)
			jsonread_write(j, n->v.kids.p[i].key.p,
				       &n->v.kids.p[i]);
		json_end(j);
		return;
	}
}
