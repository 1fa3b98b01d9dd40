/* SPDX-License-Identifier: MIT */
/*
 * Description: the config text kiln gives curl on its standard input for
 * an https:// request: the URL with no user part, the method, the body's
 * file, the URL's user part as Basic auth (user = "u:p"), auth-token as a
 * Bearer header that wins over it, the lab's CA, the timeouts, and the
 * fixed lines (the head on stdout, HTTP/1.1, https only); '"' and '\' in
 * a value are escaped, a control byte is refused, and a buffer too small
 * is -ENAMETOOLONG, never overrun.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "../lib/tap.h"
#include "base/http_curl.h"

static struct http_url url(const char *text)
{
	struct http_url u;
	char err[200];

	if (http_url_parse(text, &u, err, sizeof(err)))
		tap_bail("%s: %s", text, err);
	return u;
}

static int has(const char *cfg, const char *line)
{
	if (strstr(cfg, line))
		return 1;
	tap_diag("no '%s' in:\n%s", line, cfg);
	return 0;
}

int main(int argc, char **argv)
{
	struct http_request put = { .method = "PUT", .timeout_ms = 30000,
				    .type = "text/plain" };
	struct http_request get = { .method = "GET", .timeout_ms = 1500 };
	struct http_url u = url("https://m1:pa\"s%5Cs@lab:8443/k/");
	char cfg[4096], small[64];

	tap_args(argc, argv);
	tap_plan(9);
	tap_ok(http_curl_config(&u, &put, "/k/M/R/summary.txt",
				"/run/kiln/R/summary.txt", cfg,
				sizeof(cfg)) == 0 &&
	       has(cfg, "url = \"https://lab:8443/k/M/R/summary.txt\"\n") &&
	       has(cfg, "request = \"PUT\"\n") &&
	       has(cfg, "upload-file = \"/run/kiln/R/summary.txt\"\n") &&
	       has(cfg, "header = \"Content-Type: text/plain\"\n"),
	       "a PUT: the URL with no user part, the method, the body's file");
	tap_ok(has(cfg, "user = \"m1:pa\\\"s\\\\s\"\n") &&
	       !strstr(cfg, "Bearer"),
	       "the URL's user part as Basic auth, '\"' and '\\' escaped");
	tap_ok(has(cfg, "max-time = 30.000\n") &&
	       has(cfg, "connect-timeout = 30.000\n") &&
	       has(cfg, "dump-header = \"-\"\n") && has(cfg, "http1.1\n") &&
	       has(cfg, "proto = \"=https\"\n") &&
	       has(cfg, "header = \"Expect:\"\n") && !strstr(cfg, "cacert"),
	       "the timeout, the head on stdout, HTTP/1.1, https only, no "
	       "CA line when none is given");
	snprintf(u.token, sizeof(u.token), "T0k3n");
	snprintf(u.ca, sizeof(u.ca), "/media/kiln/lab-ca.pem");
	tap_ok(http_curl_config(&u, &get, "/k/", NULL, cfg, sizeof(cfg)) == 0 &&
	       has(cfg, "header = \"Authorization: Bearer T0k3n\"\n") &&
	       !strstr(cfg, "user =") && !strstr(cfg, "upload-file") &&
	       has(cfg, "cacert = \"/media/kiln/lab-ca.pem\"\n") &&
	       has(cfg, "max-time = 1.500\n"),
	       "auth-token as Bearer wins over the user part; the CA; a GET "
	       "has no body");
	u = url("https://lab/");
	tap_ok(http_curl_config(&u, &get, "/", NULL, cfg, sizeof(cfg)) == 0 &&
	       !strstr(cfg, "user =") && !strstr(cfg, "Authorization"),
	       "no credentials: no auth line at all");
	snprintf(u.token, sizeof(u.token), "a\nb");
	tap_ok(http_curl_config(&u, &get, "/", NULL, cfg, sizeof(cfg)) ==
	       -EINVAL, "a control byte in a value is refused");
	u.token[0] = 0;
	tap_ok(http_curl_config(&u, &get, "/", NULL, small, sizeof(small)) ==
	       -ENAMETOOLONG && strlen(small) < sizeof(small),
	       "a buffer too small: -ENAMETOOLONG, not overrun");
	tap_ok(!strcmp(HTTP_CURL, "curl"), "curl is found on PATH");
	u = url("https://[fd00::5]:8443/");
	tap_ok(http_curl_config(&u, &get, "/", NULL, cfg, sizeof(cfg)) == 0 &&
	       has(cfg, "url = \"https://[fd00::5]:8443/\"\n") &&
	       has(cfg, "globoff\n"),
	       "an IPv6 address in brackets, not globbed");
	return tap_done();
}
