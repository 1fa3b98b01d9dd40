/* SPDX-License-Identifier: MIT */
/*
 * Description: the URLs of kiln's HTTP client (see http_url.h): the
 * http:// or https:// URL a lab gives in upload=, metrics= or lab=,
 * checked strictly and split into credentials, host, port and path,
 * written back for people with no credentials, and the path
 * segments kiln appends to it (a machine id, a run folder, a file name)
 * percent-encoded so that each stays one segment whatever it holds.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>

#include "base/complain.h"
#include "base/http_url.h"
#include "base/secret.h"

/* Not isalnum(): the locale must not decide what goes into a URL. */
static int alnum(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9');
}

static int hexdigit(int c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') ||
	       (c >= 'A' && c <= 'F');
}

/* RFC 3986's pchar, and '/': what a path may hold unencoded. */
static int path_char(int c)
{
	return alnum(c) || (c && strchr("-._~!$&'()*+,;=:@/", c));
}

static int parse_host(const char *auth, const char *end, struct http_url *u,
		      const char **colon, char *err, size_t len)
{
	size_t n;
	const char *p;

	if (*auth == '[') {
		const char *close = memchr(auth, ']', (size_t)(end - auth));
		struct in6_addr a;

		if (!close) {
			complain_to(err, len, "no ']' after the IPv6 address");
			return -EINVAL;
		}
		n = (size_t)(close - auth - 1);
		if (!n) {
			complain_to(err, len, "no host");
			return -EINVAL;
		}
		if (n >= sizeof(u->host))
			n = sizeof(u->host) - 1;
		memcpy(u->host, auth + 1, n);
		if (inet_pton(AF_INET6, u->host, &a) != 1) {
			complain_to(err, len, "bad IPv6 address '%s'", u->host);
			return -EINVAL;
		}
		u->ipv6 = 1;
		p = close + 1;
		if (p < end && *p != ':') {
			complain_to(err, len, "a ':' and a port or nothing "
				    "may follow ']', not '%c'", *p);
			return -EINVAL;
		}
		*colon = p < end ? p : NULL;
		return 0;
	}
	*colon = memchr(auth, ':', (size_t)(end - auth));
	if (*colon && memchr(*colon + 1, ':', (size_t)(end - *colon - 1))) {
		complain_to(err, len, "an IPv6 address needs brackets: "
			    "http://[ADDRESS]:PORT/");
		return -EINVAL;
	}
	n = (size_t)((*colon ? *colon : end) - auth);
	if (!n) {
		complain_to(err, len, "no host");
		return -EINVAL;
	}
	/* DNS names are at most 253 characters. */
	if (n > 253) {
		complain_to(err, len, "the host name is too long");
		return -EINVAL;
	}
	for (p = auth; p < auth + n; p++)
		if (!alnum(*p) && *p != '-' && *p != '.' && *p != '_') {
			complain_to(err, len, "bad character in the host "
				    "name: '%.*s'", (int)n, auth);
			return -EINVAL;
		}
	memcpy(u->host, auth, n);
	return 0;
}

static int parse_port(const char *colon, const char *end, struct http_url *u,
		      char *err, size_t len)
{
	const char *p;
	unsigned long v = 0;
	size_t n;

	if (!colon) {
		strcpy(u->port, u->tls ? "443" : "80");
		return 0;
	}
	n = (size_t)(end - colon - 1);
	for (p = colon + 1; p < end; p++)
		if (*p < '0' || *p > '9')
			break;
	if (n && n <= 5 && p == end)
		v = strtoul(colon + 1, NULL, 10);
	if (v < 1 || v > 65535) {
		complain_to(err, len, "bad port '%.*s' (want 1 to 65535)",
			    (int)n, colon + 1);
		return -EINVAL;
	}
	snprintf(u->port, sizeof(u->port), "%lu", v);
	return 0;
}

static int parse_path(const char *p, struct http_url *u, char *err,
		      size_t len)
{
	size_t n = strcspn(p, "?#"), i;

	if (p[n]) {
		complain_to(err, len, "a query or fragment ('?' or '#') has "
			    "no place here");
		return -EINVAL;
	}
	if (!n) {
		strcpy(u->path, "/");
		return 0;
	}
	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)p[i];

		if (c == '%') {
			if (!hexdigit(p[i + 1]) || !hexdigit(p[i + 2])) {
				complain_to(err, len,
					    "'%%' in the path must start a "
					    "%%XX escape");
				return -EINVAL;
			}
			i += 2;
		} else if (!path_char(c)) {
			if (c >= 0x20 && c < 0x7f)
				complain_to(err, len,
					    "'%c' in the path must be "
					    "percent-encoded: %%%02X", c, c);
			else
				complain_to(err, len,
					    "byte 0x%02x in the path must be "
					    "percent-encoded: %%%02X", c, c);
			return -EINVAL;
		}
	}
	/* Room kept for what kiln adds: the machine id, the run folder. */
	if (n > HTTP_URL_BASE_MAX) {
		complain_to(err, len, "a path of %zu bytes: at most %d, so "
			    "that the machine id and the run folder kiln adds "
			    "fit", n, HTTP_URL_BASE_MAX);
		return -EINVAL;
	}
	memcpy(u->path, p, n);
	return 0;
}

/* One of the user part's two pieces, percent-decoded into out. */
static int decode_cred(const char *p, const char *end, char *out,
		       size_t size, const char *what, char *err, size_t len)
{
	size_t n = 0;

	for (; p < end; p++) {
		unsigned c = (unsigned char)*p;

		if (c == '%') {
			if (end - p < 3 || !hexdigit(p[1]) || !hexdigit(p[2])) {
				complain_to(err, len, "'%%' in the %s must "
					    "start a %%XX escape", what);
				return -EINVAL;
			}
			c = (unsigned)strtoul((char[]){ p[1], p[2], 0 }, NULL,
					      16);
			p += 2;
		}
		/* It goes into a header and curl's config: no control byte. */
		if (c < 0x20 || c == 0x7f) {
			complain_to(err, len, "a control byte in the %s", what);
			return -EINVAL;
		}
		if (n + 1 >= size) {
			complain_to(err, len, "the %s is too long (at most "
				    "%zu bytes)", what, size - 1);
			return -EINVAL;
		}
		out[n++] = (char)c;
	}
	out[n] = 0;
	return 0;
}

/* USER[:PASSWORD] before the '@' at at. */
static int parse_user(const char *auth, const char *at, struct http_url *u,
		      char *err, size_t len)
{
	const char *colon = memchr(auth, ':', (size_t)(at - auth));
	int ret;

	ret = decode_cred(auth, colon ? colon : at, u->user, sizeof(u->user),
			  "user name", err, len);
	if (!ret && colon)
		ret = decode_cred(colon + 1, at, u->password,
				  sizeof(u->password), "password", err, len);
	if (ret)
		return ret;
	if (!u->user[0]) {
		complain_to(err, len, "an empty user name before '@'");
		return -EINVAL;
	}
	u->has_user = 1;
	return secret_add(u->password);
}

int http_url_parse(const char *text, struct http_url *u, char *err,
		   size_t len)
{
	const char *auth, *end, *colon, *p, *at;
	int ret;

	memset(u, 0, sizeof(*u));
	if (!strncasecmp(text, "https://", 8)) {
		u->tls = 1;
		auth = text + 8;
	} else if (!strncasecmp(text, "http://", 7)) {
		auth = text + 7;
	} else {
		p = strstr(text, "://");
		if (p)
			complain_to(err, len, "'%.*s://' is not supported: "
				    "use http:// or https://",
				    (int)(p - text < 16 ? p - text : 16), text);
		else
			complain_to(err, len, "not a URL: want "
				    "http[s]://HOST[:PORT]/PATH");
		return -EINVAL;
	}
	end = auth + strcspn(auth, "/?#");
	at = NULL;
	for (p = auth; p < end; p++)
		if (*p == '@')
			at = p;
	if (at) {
		ret = parse_user(auth, at, u, err, len);
		if (ret)
			return ret;
		auth = at + 1;
	}
	ret = parse_host(auth, end, u, &colon, err, len);
	if (!ret)
		ret = parse_port(colon, end, u, err, len);
	if (!ret)
		ret = parse_path(end, u, err, len);
	return ret;
}

void http_url_authority(const struct http_url *u, char *out, size_t len)
{
	int dflt = !strcmp(u->port, u->tls ? "443" : "80");

	snprintf(out, len, "%s%s%s%s%s", u->ipv6 ? "[" : "", u->host,
		 u->ipv6 ? "]" : "", dflt ? "" : ":", dflt ? "" : u->port);
}

void http_url_format(const struct http_url *u, const char *path, char *out,
		     size_t len)
{
	char host[HTTP_URL_HOST_MAX + 16];

	http_url_authority(u, host, sizeof(host));
	snprintf(out, len, "%s://%s%s", u->tls ? "https" : "http", host,
		 path ? path : u->path);
}

int http_url_append_segment(char *out, size_t len, const char *segment)
{
	static const char hex[] = "0123456789ABCDEF";
	size_t start = strlen(out), at = start;
	const unsigned char *s = (const unsigned char *)segment;

	if (!*s || !strcmp(segment, ".") || !strcmp(segment, ".."))
		return -EINVAL;
	for (; *s; s++) {
		int plain = alnum(*s) || (*s && strchr("-._~", *s));

		if (at + (plain ? 1 : 3) >= len) {
			out[start] = 0;
			return -ENAMETOOLONG;
		}
		if (plain) {
			out[at++] = (char)*s;
		} else {
			out[at++] = '%';
			out[at++] = hex[*s >> 4];
			out[at++] = hex[*s & 15];
		}
	}
	out[at] = 0;
	return 0;
}

int http_url_append_name(char *out, size_t len, const char *name)
{
	size_t start = strlen(out);
	char seg[256];

	for (;;) {
		size_t n = strcspn(name, "/");
		int ret = -EINVAL;

		if (n < sizeof(seg)) {
			memcpy(seg, name, n);
			seg[n] = 0;
			ret = http_url_append_segment(out, len, seg);
		}
		if (!ret && name[n] && strlen(out) + 1 >= len)
			ret = -ENAMETOOLONG;
		if (ret) {
			out[start] = 0;
			return ret;
		}
		if (!name[n])
			return 0;
		strcat(out, "/");
		name += n + 1;
	}
}

int http_url_add_slash(char *s, size_t len)
{
	size_t n = strlen(s);

	if (n && s[n - 1] == '/')
		return 0;
	if (n + 1 >= len)
		return -ENAMETOOLONG;
	s[n] = '/';
	s[n + 1] = 0;
	return 0;
}
