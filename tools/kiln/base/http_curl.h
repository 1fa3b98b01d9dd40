/* SPDX-License-Identifier: MIT */
#ifndef KILN_HTTP_CURL_H
#define KILN_HTTP_CURL_H

#include <stddef.h>

#include "base/http.h"

/*
 * https:// requests, through Debian's curl (packed in the image): TLS,
 * its certificates and ciphers come from code labs already trust, not
 * from kiln. curl runs as `curl -q -K -` and reads everything about the
 * request (URL, credentials, headers, --cacert, timeouts) as a config on
 * its standard input, never in its arguments, which every process on the
 * machine can read in /proc/PID/cmdline. A body in memory goes through a
 * 0600 temporary file, removed after. The answer's head and body come
 * back on curl's stdout and are read as kiln's own client reads them, so
 * callers see one struct http_result whatever the scheme.
 */

/* The program run, found on PATH. */
#define HTTP_CURL "curl"

/*
 * The config text for one request into out (len bytes): path is the
 * request's, body the file to send (NULL: none). 0, -ENAMETOOLONG when it
 * does not fit, -EINVAL when a value cannot be quoted (a control byte).
 */
int http_curl_config(const struct http_url *u, const struct http_request *rq,
		     const char *path, const char *body, char *out,
		     size_t len);

/* One request, as http_request() says (it calls this for https://). */
int http_curl_request(const struct http_url *u, const struct http_request *rq,
		      struct http_result *res);

#endif
