/* SPDX-License-Identifier: MIT */
#ifndef KILN_HTTP_H
#define KILN_HTTP_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "base/http_url.h"

/*
 * kiln's HTTP client: enough to PUT a run folder to a stock web server
 * (nginx's WebDAV module), to push metrics to a Prometheus Pushgateway
 * and to GET the lab's settings. Plain http:// is kiln's own small
 * HTTP/1.1 client, in-process in the static binary; https:// goes through
 * curl (http_curl.h), so TLS is code labs already trust. Either way one
 * request per connection, the whole of it bounded by one deadline, never
 * a SIGPIPE, and the URL's user part (or auth-token) sent as its
 * Authorization: Basic, or Bearer.
 */

struct http_request {
	const char *method;	/* "GET", "PUT", "POST", "DELETE", "MKCOL" */
	const char *path;	/* from "/", percent-encoded; NULL: the URL's */
	const char *type;	/* Content-Type, or NULL for none */
	const void *body;	/* the body in memory, len bytes, ... */
	size_t len;
	const char *file;	/* ... or, when not NULL, this whole file */
	/* for all of it: resolve, connect, send, answer */
	unsigned timeout_ms;
	const atomic_int *cancel;	/* when it turns non-zero: -ECANCELED */
	/*
	 * A GET's whole body: kept here (keep_max bytes at most, then
	 * -EFBIG; keep has room for keep_max + 1), NUL-terminated, its
	 * length in res->got; NULL: only the start of it, in res->body.
	 */
	char *keep;
	size_t keep_max;
	/*
	 * Each piece of the answer's body as it comes, when not NULL; the
	 * body is then read to its end.
	 */
	void (*sink)(void *arg, const char *p, size_t n);
	void *sink_arg;
	/*
	 * A PUT that creates and never replaces: "If-None-Match: *" (RFC
	 * 9110 13.1.2), which a server answers 412 when the name is there.
	 */
	int create_only;
};

struct http_result {
	int status;		/* the server's status code; 0 when none came */
	char reason[64];	/* its reason phrase */
	char error[240];	/* one line for people; "" after a 2xx */
	char type[64];		/* the answer's Content-Type */
	long long length;	/* its Content-Length, -1 when not said */
	int chunked;		/* Transfer-Encoding: chunked */
	size_t got;		/* body bytes read (up to length) */
	size_t body_len;	/* of which kept in body */
	char body[1024];	/* the start of the body, NUL-terminated */
	char *keep;		/* the request's keep, keep_max */
	size_t keep_max;
	void (*sink)(void *arg, const char *p, size_t n);	/* the request's */
	void *sink_arg;
};

/*
 * One request to u's host and port. 0 when the server answered 2xx after
 * the whole body was sent; -EREMOTEIO when it answered anything else, or
 * a 2xx before the body was all sent (status, error say what);
 * otherwise -errno and error says why no answer came: "connection
 * refused", "no answer in 10 s", "cannot resolve lab: ...".
 *
 * Names are resolved with getaddrinfo: numeric addresses at once, then
 * /etc/hosts, then DNS through /etc/resolv.conf (musl's static resolver
 * needs no NSS, so the image needs only a resolv.conf). A DNS lookup
 * cannot be cut short: it runs to the resolver's own timeout (musl: 5 s
 * a name by default, "options timeout:N" in resolv.conf), and when it
 * ends past timeout_ms the request ends there, -ETIMEDOUT.
 */
int http_request(const struct http_url *u, const struct http_request *rq,
		 struct http_result *res);

#endif
