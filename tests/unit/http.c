/* SPDX-License-Identifier: MIT */
/*
 * Description: the HTTP client's pure parts: the upload= and metrics=
 * URLs it takes and the ones it refuses (with the reason a person reads),
 * percent-encoding of the path segments kiln builds, and answer heads read
 * right, cut short or not HTTP at all.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "../lib/tap.h"
#include "http.h"

static int good(const char *text, const char *host, const char *port,
		const char *path, int ipv6)
{
	struct http_url u;
	char err[200] = "";
	int ret = http_url_parse(text, &u, err, sizeof(err));

	if (ret) {
		tap_diag("%s: %s", text, err);
		return 0;
	}
	if (strcmp(u.host, host) || strcmp(u.port, port) ||
	    strcmp(u.path, path) || u.ipv6 != ipv6) {
		tap_diag("%s: host '%s' port '%s' path '%s' ipv6 %d", text,
			 u.host, u.port, u.path, u.ipv6);
		return 0;
	}
	return 1;
}

static int bad(const char *text, const char *why)
{
	struct http_url u;
	char err[200] = "";
	int ret = http_url_parse(text, &u, err, sizeof(err));

	if (ret != -EINVAL || !strstr(err, why) || strchr(err, '\n')) {
		tap_diag("%s: ret %d, said '%s', want '%s'", text, ret, err,
			 why);
		return 0;
	}
	return 1;
}

static int formats(const char *text, const char *want)
{
	struct http_url u;
	char out[300];

	if (http_url_parse(text, &u, NULL, 0))
		return 0;
	http_url_format(&u, NULL, out, sizeof(out));
	if (strcmp(out, want)) {
		tap_diag("%s formats as %s", text, out);
		return 0;
	}
	return 1;
}

static int head(const char *text, int want_ret, int status, long long length,
		const char *type)
{
	struct http_result r;
	int ret;

	memset(&r, 0, sizeof(r));
	ret = http_parse_head(text, strlen(text), &r);
	if (ret != want_ret || (ret > 0 && (r.status != status ||
					    r.length != length ||
					    strcmp(r.type, type)))) {
		tap_diag("ret %d status %d length %lld type '%s'", ret,
			 r.status, r.length, r.type);
		return 0;
	}
	return 1;
}

int main(void)
{
	char out[64];

	tap_ok(good("http://lab/", "lab", "80", "/", 0),
	       "a name, the default port");
	tap_ok(good("http://lab", "lab", "80", "/", 0), "no path means /");
	tap_ok(good("HTTP://10.0.0.5:8080/kiln-results/", "10.0.0.5", "8080",
		    "/kiln-results/", 0),
	       "an IPv4 address, a port, a path; the scheme in capitals");
	tap_ok(good("http://[fd00::5]:9091/", "fd00::5", "9091", "/", 1),
	       "an IPv6 address in brackets");
	tap_ok(good("http://[::1]/up", "::1", "80", "/up", 1),
	       "IPv6 loopback, no port");
	tap_ok(good("http://lab.example_1-a:65535/a%20b/~x/", "lab.example_1-a",
		    "65535", "/a%20b/~x/", 0),
	       "port 65535, a percent-encoded path");
	tap_ok(good("http://lab:00080/", "lab", "80", "/", 0),
	       "a port with leading zeros is still 80");

	tap_ok(bad("https://lab/", "TLS is not supported yet: use http://"),
	       "https:// is refused, saying TLS is not supported yet");
	tap_ok(bad("ftp://lab/", "'ftp://' is not supported"),
	       "another scheme is refused");
	tap_ok(bad("lab:8080/x", "not a URL"), "no scheme at all");
	tap_ok(bad("http:///kiln", "no host"), "no host");
	tap_ok(bad("http://:8080/", "no host"), "a port but no host");
	tap_ok(bad("http://[]/", "no host"), "empty brackets");
	tap_ok(bad("http://lab:0/", "bad port '0' (want 1 to 65535)"),
	       "port 0");
	tap_ok(bad("http://lab:65536/", "bad port '65536'"), "port 65536");
	tap_ok(bad("http://lab:99999999999/", "bad port"), "a huge port");
	tap_ok(bad("http://lab:80a/", "bad port '80a'"), "a port not digits");
	tap_ok(bad("http://lab:-1/", "bad port"), "a negative port");
	tap_ok(bad("http://lab:/", "bad port ''"), "an empty port");
	tap_ok(bad("http://fd00::5/", "needs brackets"),
	       "IPv6 without brackets");
	tap_ok(bad("http://[fd00::5/", "no ']'"), "an unclosed bracket");
	tap_ok(bad("http://[lab]/", "bad IPv6 address 'lab'"),
	       "a name in brackets");
	tap_ok(bad("http://[::1]x/", "not 'x'"), "junk after the bracket");
	tap_ok(bad("http://user:pw@lab/", "user name or password"),
	       "credentials in the URL");
	tap_ok(bad("http://la b/", "bad character in the host name"),
	       "a space in the host");
	tap_ok(bad("http://lab/a b/", "' ' in the path must be percent-encoded:"
		   " %20"), "a space in the path");
	tap_ok(bad("http://lab/\xc3\xa9/", "byte 0xc3"),
	       "a UTF-8 byte in the path");
	tap_ok(bad("http://lab/%zz/", "%XX escape"), "a broken %%-escape");
	tap_ok(bad("http://lab/?x=1", "query or fragment"), "a query");
	tap_ok(bad("http://lab#top", "query or fragment"), "a fragment");

	tap_ok(formats("http://lab:80/x/", "http://lab/x/") &&
	       formats("http://[::1]:8080/", "http://[::1]:8080/") &&
	       formats("http://10.1.2.3:81", "http://10.1.2.3:81/"),
	       "formatted back for people: port 80 left out, brackets kept");

	out[0] = 0;
	tap_ok(http_append_segment(out, sizeof(out), "SN-1._~x") == 0 &&
	       !strcmp(out, "SN-1._~x"), "a plain segment stays as it is");
	strcpy(out, "/k/");
	tap_ok(http_append_segment(out, sizeof(out), "a b/c%\xff") == 0 &&
	       !strcmp(out, "/k/a%20b%2Fc%25%FF"),
	       "space, slash, percent and high bytes are encoded: %s", out);
	strcpy(out, "/k/");
	tap_ok(http_append_segment(out, sizeof(out), "") == -EINVAL &&
	       http_append_segment(out, sizeof(out), ".") == -EINVAL &&
	       http_append_segment(out, sizeof(out), "..") == -EINVAL &&
	       http_append_segment(out, sizeof(out), "...") == 0 &&
	       !strcmp(out, "/k/..."),
	       "empty, '.' and '..' are refused; '...' is a name");
	strcpy(out, "/k/");
	tap_ok(http_append_segment(out, 8, "abcdef") == -ENAMETOOLONG &&
	       !strcmp(out, "/k/") &&
	       http_append_segment(out, 8, "abcd") == 0 &&
	       !strcmp(out, "/k/abcd"),
	       "too long for the buffer: refused, the buffer left as it was");
	strcpy(out, "/r/");
	tap_ok(http_append_name(out, sizeof(out), "smart/sda 1.txt") == 0 &&
	       !strcmp(out, "/r/smart/sda%201.txt"),
	       "a name with a subfolder keeps its slash: %s", out);
	strcpy(out, "/r/");
	tap_ok(http_append_name(out, sizeof(out), "a//b") == -EINVAL &&
	       http_append_name(out, sizeof(out), "/a") == -EINVAL &&
	       http_append_name(out, sizeof(out), "a/../b") == -EINVAL &&
	       http_append_name(out, sizeof(out), "a/") == -EINVAL &&
	       !strcmp(out, "/r/"),
	       "empty and dot segments in a name are refused");

	tap_ok(head("HTTP/1.1 201 Created\r\nContent-Length: 0\r\n"
		    "Content-Type: text/html\r\n\r\n", 68, 201, 0, "text/html"),
	       "a head: status, length, type, and its length");
	tap_ok(head("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 204 No Content\r\n"
		    "\r\nrest", 52, 204, -1, ""),
	       "a 100 Continue before the answer is passed over");
	tap_ok(head("HTTP/1.0 400 Bad Request\ncontent-type:  text/plain; "
		    "charset=utf-8 \ncontent-length: 12\n\nbody", 87, 400, 12,
		    "text/plain; charset=utf-8"),
	       "bare LF line ends, lower-case names, spaces trimmed");
	tap_ok(head("HTTP/1.1 200\r\n\r\n", 16, 200, -1, ""),
	       "a status with no reason phrase");
	tap_ok(head("HTTP/1.1 500 Internal Server Error\r\nContent-Le", 0, 0,
		    0, "") && head("HTT", 0, 0, 0, "") && head("", 0, 0, 0, ""),
	       "a head not whole yet asks for more");
	tap_ok(head("SSH-2.0-OpenSSH\r\n\r\n", -EPROTO, 0, 0, "") &&
	       head("<html>", -EPROTO, 0, 0, "") &&
	       head("HTTP/1.1 20 OK\r\n\r\n", -EPROTO, 0, 0, "") &&
	       head("HTTP/1.1 999 What\r\n\r\n", -EPROTO, 0, 0, "") &&
	       head("HTTP/1.1200 OK\r\n\r\n", -EPROTO, 0, 0, ""),
	       "not HTTP, or a bad status line: -EPROTO, early");

	return tap_done();
}
