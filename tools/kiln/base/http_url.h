/* SPDX-License-Identifier: MIT */
#ifndef KILN_HTTP_URL_H
#define KILN_HTTP_URL_H

#include <stddef.h>

/*
 * The http:// URLs of kiln's HTTP client (http.h): a lab's upload= and
 * metrics= settings read into parts, written back for people, and the
 * path segments kiln adds to them, percent-encoded.
 */

#define HTTP_URL_HOST_MAX 256
#define HTTP_URL_PATH_MAX 1024
/* A base path given: the rest of HTTP_URL_PATH_MAX is for kiln's part. */
#define HTTP_URL_BASE_MAX 512

/* What the settings upload= and metrics= hold, checked and split. */
struct http_url {
	char host[HTTP_URL_HOST_MAX];	/* a name or an address, no brackets */
	char port[8];			/* digits: "80" unless one was given */
	char path[HTTP_URL_PATH_MAX];	/* from "/", percent-encoded as given */
	int ipv6;			/* host is an IPv6 literal: [host] */
};

/*
 * Reads http://HOST[:PORT][/PATH]: HOST is a name, an IPv4 address or an
 * [IPv6] address, PATH defaults to "/". 0, or -EINVAL with one line in err
 * saying what is wrong ("TLS is not supported yet: use http://").
 */
int http_url_parse(const char *text, struct http_url *u, char *err,
		   size_t len);

/* http://HOST[:PORT]PATH for people; path NULL means the URL's own. */
void http_url_format(const struct http_url *u, const char *path, char *out,
		     size_t len);

/*
 * Ends the path s (a string of len bytes) with one '/', as a folder's:
 * none is added when it has one. 0, or -ENAMETOOLONG when s is full.
 */
int http_url_add_slash(char *s, size_t len);

/*
 * Appends one path segment to out (a string of len bytes), percent-encoded
 * so that it stays one segment whatever it holds: every byte but A-Z a-z
 * 0-9 - . _ ~ becomes %XX. An empty segment, "." and ".." are -EINVAL (a
 * server would read them as folders); -ENAMETOOLONG when out is full.
 */
int http_url_append_segment(char *out, size_t len, const char *segment);

/* The same for a relative name "a/b/c", one segment between slashes. */
int http_url_append_name(char *out, size_t len, const char *name);

/* HOST[:PORT] as a Host header says it, the port only when not 80. */
void http_url_authority(const struct http_url *u, char *out, size_t len);

#endif
