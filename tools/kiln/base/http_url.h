/* SPDX-License-Identifier: MIT */
#ifndef KILN_HTTP_URL_H
#define KILN_HTTP_URL_H

#include <stddef.h>

/*
 * The http:// and https:// URLs of kiln's HTTP client (http.h): a lab's
 * upload=, metrics= and lab= settings read into parts, written back for
 * people (never with their credentials), and the path segments kiln adds
 * to them, percent-encoded.
 */

#define HTTP_URL_HOST_MAX 256
#define HTTP_URL_PATH_MAX 1024
/* A base path given: the rest of HTTP_URL_PATH_MAX is for kiln's part. */
#define HTTP_URL_BASE_MAX 512
#define HTTP_URL_CRED_MAX 256
#define HTTP_URL_CA_MAX 1024

/* What the settings upload= and metrics= hold, checked and split. */
struct http_url {
	char host[HTTP_URL_HOST_MAX];	/* a name or an address, no brackets */
	char port[8];			/* digits: "80" unless one was given */
	char path[HTTP_URL_PATH_MAX];	/* from "/", percent-encoded as given */
	int ipv6;			/* host is an IPv6 literal: [host] */
	int tls;			/* https:// */
	/* The URL's user part, percent-decoded: sent as Basic auth. */
	char user[HTTP_URL_CRED_MAX];
	char password[HTTP_URL_CRED_MAX];
	int has_user;
	/* Not in the URL: set by its reader from the settings ca, auth-token. */
	char token[HTTP_URL_CRED_MAX];	/* sent as Bearer; wins over user */
	char ca[HTTP_URL_CA_MAX];	/* a PEM file; "": curl's own trust */
};

/*
 * Reads http[s]://[USER[:PASSWORD]@]HOST[:PORT][/PATH]: HOST is a name, an
 * IPv4 address or an [IPv6] address, PORT defaults to 80 (443 for https),
 * PATH to "/". USER and PASSWORD may hold %XX escapes (a ':' or '@' in a
 * password); the password is registered as a secret (secret.h) so that
 * nothing kiln says shows it. 0, or -EINVAL with one line in err saying
 * what is wrong ("'ftp://' is not supported: use http:// or https://").
 */
int http_url_parse(const char *text, struct http_url *u, char *err,
		   size_t len);

/*
 * http[s]://HOST[:PORT]PATH for people, with no user part; path NULL
 * means the URL's own.
 */
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

/* HOST[:PORT] as a Host header says it, the port only when not default. */
void http_url_authority(const struct http_url *u, char *out, size_t len);

#endif
