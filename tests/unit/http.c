/* SPDX-License-Identifier: MIT */
/*
 * Description: the HTTP client's pure parts: the upload= and metrics=
 * URLs it takes (http and https, with a user part) and the ones it
 * refuses (with the reason a person reads), percent-encoding of the path
 * segments kiln builds, and answer heads read right, cut short or not
 * HTTP at all. Then the uploader's bookkeeping against a port that
 * refuses: a newer version takes the older one's place, the caps hold,
 * lines are said, and what never arrived is listed. Last, the
 * Authorization header kiln's own client sends to a server here (Basic
 * from the URL's user part, Bearer from auth-token, none without).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../lib/tap.h"
#include "base/http.h"
#include "base/http_head.h"
#include "lab/upload.h"

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
	ret = http_head_parse(text, strlen(text), &r);
	if (ret != want_ret || (ret > 0 && (r.status != status ||
					    r.length != length ||
					    strcmp(r.type, type)))) {
		tap_diag("ret %d status %d length %lld type '%s'", ret,
			 r.status, r.length, r.type);
		return 0;
	}
	return 1;
}

/* A port on 127.0.0.1 bound but not listening: connecting is refused. */
static int refusing_port(int *fd)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	socklen_t len = sizeof(a);

	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	*fd = socket(AF_INET, SOCK_STREAM, 0);
	if (*fd < 0 || bind(*fd, (struct sockaddr *)&a, len) ||
	    getsockname(*fd, (struct sockaddr *)&a, &len))
		tap_bail("cannot bind a port on 127.0.0.1");
	return ntohs(a.sin_port);
}

/*
 * One request's head, as a server on 127.0.0.1 received it (a child that
 * answers 204), with url given as http://CREDS@127.0.0.1:PORT/ and token
 * as auth-token: 0 or -errno of the request, the head in got.
 */
static int sent_head(const char *creds, const char *token, char *got,
		     size_t len)
{
	struct http_request rq = { .method = "GET", .timeout_ms = 10000 };
	struct http_result res;
	struct http_url url;
	char text[128], err[200];
	int fd, port, pipefd[2], ret, status;
	ssize_t n;
	pid_t pid;

	port = refusing_port(&fd);
	if (listen(fd, 1) || pipe(pipefd))
		tap_bail("cannot listen on 127.0.0.1");
	pid = fork();
	if (pid == 0) {
		char buf[4096];
		size_t at = 0;
		int c = accept(fd, NULL, NULL);

		while (c >= 0 && at < sizeof(buf) - 1) {
			n = read(c, buf + at, sizeof(buf) - 1 - at);
			if (n <= 0)
				break;
			at += (size_t)n;
			buf[at] = 0;
			if (strstr(buf, "\r\n\r\n"))
				break;
		}
		if (write(pipefd[1], buf, at) < 0 ||
		    write(c, "HTTP/1.1 204 No Content\r\n\r\n", 27) < 0)
			_exit(1);
		_exit(0);
	}
	close(pipefd[1]);
	snprintf(text, sizeof(text), "http://%s127.0.0.1:%d/", creds, port);
	if (http_url_parse(text, &url, err, sizeof(err)))
		tap_bail("%s: %s", text, err);
	snprintf(url.token, sizeof(url.token), "%s", token);
	ret = http_request(&url, &rq, &res);
	n = read(pipefd[0], got, len - 1);
	got[n > 0 ? n : 0] = 0;
	close(pipefd[0]);
	close(fd);
	waitpid(pid, &status, 0);
	return ret;
}

/* The URL's user part as Basic auth, auth-token as Bearer, by kiln's own. */
static void test_auth(void)
{
	char got[4096];

	tap_ok(sent_head("m1:p%40ss@", "", got, sizeof(got)) == 0 &&
	       strstr(got, "\r\nAuthorization: Basic bTE6cEBzcw==\r\n"),
	       "plain http: the URL's user part goes as Basic auth, decoded");
	tap_ok(sent_head("m1:p%40ss@", "T0k3n", got, sizeof(got)) == 0 &&
	       strstr(got, "\r\nAuthorization: Bearer T0k3n\r\n") &&
	       !strstr(got, "Basic"),
	       "auth-token goes as Bearer, instead of the user part");
	tap_ok(sent_head("", "", got, sizeof(got)) == 0 && got[0] &&
	       !strstr(got, "Authorization"),
	       "no credentials: no Authorization header");
}

/* Lines said during a flush: how many, and how many say "refused". */
static void count_line(const char *line, void *arg)
{
	int *n = arg;

	n[0]++;
	if (strstr(line, "connection refused, retrying in "))
		n[1]++;
}

static void test_upload(void)
{
	static char big[UPLOAD_MAX_BYTES / 2 + 1];
	char text[64], want[160], err[200], line[512], name[64], why[256];
	struct http_result res;
	struct http_url url;
	struct upload *up;
	int fd, port, i, ret, flushed[2] = { 0, 0 }, full = 0, dropped = 0;
	int lost = 0, ok = 1, why_ok = 0;

	port = refusing_port(&fd);
	snprintf(text, sizeof(text), "http://127.0.0.1:%d/kiln", port);
	if (http_url_parse(text, &url, err, sizeof(err)))
		tap_bail("%s: %s", text, err);

	{
		struct http_request rq = { .method = "PUT", .path = "/x",
					   .body = "x", .len = 1,
					   .timeout_ms = 5000 };

		ret = http_request(&url, &rq, &res);
		tap_ok(ret == -ECONNREFUSED && res.status == 0 &&
		       !strcmp(res.error, "connection refused"),
		       "a refused connection: -ECONNREFUSED, said plainly "
		       "('%s')", res.error);
		rq.path = "/a b";
		tap_ok(http_request(&url, &rq, &res) == -EINVAL,
		       "a path with a space never reaches a request head");
	}

	tap_ok(upload_start(&up, &url, "M", "..", 0, err, sizeof(err)) ==
	       -EINVAL && strstr(err, "'M/..'"),
	       "a run folder named '..' is refused: %s", err);
	ret = upload_start(&up, &url, "SN 1", "20260101T000000Z-00ab", 1000,
			   err, sizeof(err));
	if (ret)
		tap_bail("upload_start: %s", err);
	snprintf(want, sizeof(want), "http://127.0.0.1:%d/kiln/SN%%201/"
		 "20260101T000000Z-00ab/", port);
	tap_ok(!strcmp(upload_folder(up), want),
	       "the folder: base, machine id, run folder, encoded: %s",
	       upload_folder(up));

	ret = upload_put_data(up, "checkpoint.json", "{\"seq\": 1}", 11);
	ret |= upload_put_data(up, "checkpoint.json", "{\"seq\": 2}", 11);
	tap_ok(ret == 0, "a checkpoint queued, then its newer version");
	tap_ok(upload_put_data(up, "../x", "x", 1) == -EINVAL &&
	       upload_put_data(up, "", "x", 1) == -EINVAL &&
	       upload_put_file(up, "a//b", "/etc/hostname") == -EINVAL,
	       "names with '..' or empty segments are refused");
	tap_ok(upload_put_data(up, "big1", big, sizeof(big)) == 0 &&
	       upload_put_data(up, "big2", big, sizeof(big)) == -ENOBUFS &&
	       upload_put_data(up, "big1", big, sizeof(big)) == 0 &&
	       upload_put_data(up, "big1", "small", 5) == 0,
	       "copies are capped at %u MiB; a newer version counts instead "
	       "of the older", UPLOAD_MAX_BYTES >> 20);
	for (i = 2; i < UPLOAD_MAX_FILES; i++) {
		snprintf(name, sizeof(name), "f%d", i);
		if (upload_put_file(up, name, "/nonexistent") != 0)
			ok = 0;
	}
	for (i = 0; i < 40; i++)
		if (upload_put_data(up, "one-too-many", "x", 1) != -ENOBUFS)
			ok = 0;
	tap_ok(ok && upload_put_data(up, "checkpoint.json", "{\"seq\": 3}",
				     11) == 0,
	       "%d names wait at most; a newer version still takes its place",
	       UPLOAD_MAX_FILES);

	while (upload_said(up, line, sizeof(line))) {
		if (strstr(line, "older lines not shown"))
			dropped++;
		if (strstr(line, "one-too-many not queued: 64 files"))
			full++;
	}
	tap_ok(dropped == 1 && full > 0 && full < 40,
	       "the lines kept are bounded, and the gap is said");

	ret = upload_flush(up, 1500, count_line, flushed);
	tap_ok(ret == -ETIMEDOUT && flushed[1] > 0 &&
	       upload_pending(up) == UPLOAD_MAX_FILES,
	       "a flush with the server away ends at its deadline, saying "
	       "why (%d lines, %d refused)", flushed[0], flushed[1]);
	upload_stop(up);
	tap_ok(upload_put_data(up, "late", "x", 1) == -ESHUTDOWN,
	       "nothing is queued once the uploader is stopped");
	for (i = 0; upload_lost(up, i, name, sizeof(name), why,
				sizeof(why)) == 0; i++) {
		lost++;
		if (!strcmp(name, "checkpoint.json"))
			why_ok += !strcmp(why, "connection refused");
	}
	tap_ok(lost == UPLOAD_MAX_FILES && why_ok == 1,
	       "every name that never arrived is listed once, with why");
	tap_ok(upload_lost(up, -1, name, sizeof(name), why, sizeof(why)) ==
	       -ENOENT && upload_lost(up, lost, name, sizeof(name), why,
				      sizeof(why)) == -ENOENT,
	       "and nothing past the list");
	upload_free(up);
	close(fd);
}

int main(int argc, char **argv)
{
	char out[64];

	tap_args(argc, argv);
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

	tap_ok(good("https://lab/", "lab", "443", "/", 0),
	       "https://, its default port 443");
	tap_ok(good("HTTPS://[fd00::5]:8443/k/", "fd00::5", "8443", "/k/", 1),
	       "https:// to an IPv6 address and a port");
	tap_ok(bad("ftp://lab/", "'ftp://' is not supported: use http:// or "
		   "https://"), "another scheme is refused");
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
	{
		struct http_url u;
		char err[200] = "";

		tap_ok(!http_url_parse("https://m-1:p%40ss%3Aw@lab:8443/k/",
				       &u, err, sizeof(err)) &&
		       u.has_user && !strcmp(u.user, "m-1") &&
		       !strcmp(u.password, "p@ss:w") &&
		       !strcmp(u.host, "lab") && !strcmp(u.port, "8443"),
		       "a user part: user and password, percent-decoded");
		tap_ok(!http_url_parse("http://tok@lab/", &u, err,
				       sizeof(err)) && u.has_user &&
		       !strcmp(u.user, "tok") && !u.password[0],
		       "a user part with no password");
	}
	tap_ok(formats("https://m1:secret@lab:8443/k/",
		       "https://lab:8443/k/") &&
	       formats("https://lab:443/", "https://lab/"),
	       "a URL for people has no user part, nor https's port 443");
	tap_ok(bad("http://@lab/", "an empty user name"), "an empty user");
	tap_ok(bad("http://a:b%zz@lab/", "'%' in the password must start"),
	       "a broken %%-escape in the password");
	tap_ok(bad("http://a:b%0a@lab/", "a control byte in the password"),
	       "a control byte in the password");
	tap_ok(bad("http://la b/", "bad character in the host name"),
	       "a space in the host");
	tap_ok(bad("http://lab/a b/", "' ' in the path must be percent-encoded:"
		   " %20"), "a space in the path");
	tap_ok(bad("http://lab/\xc3\xa9/", "byte 0xc3"),
	       "a UTF-8 byte in the path");
	tap_ok(bad("http://lab/%zz/", "%XX escape"), "a broken %%-escape");
	tap_ok(bad("http://lab/?x=1", "query or fragment"), "a query");
	tap_ok(bad("http://lab#top", "query or fragment"), "a fragment");
	{
		char url[600];

		snprintf(url, sizeof(url), "http://lab/%0512d", 0);
		tap_ok(bad(url, "a path of 513 bytes: at most 512, so that "
			   "the machine id and the run folder kiln adds fit"),
		       "a base path with no room left for kiln's part");
		url[strlen(url) - 1] = 0;
		tap_ok(good(url, "lab", "80", url + 10, 0),
		       "... 512 bytes is room enough");
	}

	tap_ok(formats("http://lab:80/x/", "http://lab/x/") &&
	       formats("http://[::1]:8080/", "http://[::1]:8080/") &&
	       formats("http://10.1.2.3:81", "http://10.1.2.3:81/"),
	       "formatted back for people: port 80 left out, brackets kept");

	out[0] = 0;
	tap_ok(http_url_append_segment(out, sizeof(out), "SN-1._~x") == 0 &&
	       !strcmp(out, "SN-1._~x"), "a plain segment stays as it is");
	strcpy(out, "/k/");
	tap_ok(http_url_append_segment(out, sizeof(out), "a b/c%\xff") == 0 &&
	       !strcmp(out, "/k/a%20b%2Fc%25%FF"),
	       "space, slash, percent and high bytes are encoded: %s", out);
	strcpy(out, "/k/");
	tap_ok(http_url_append_segment(out, sizeof(out), "") == -EINVAL &&
	       http_url_append_segment(out, sizeof(out), ".") == -EINVAL &&
	       http_url_append_segment(out, sizeof(out), "..") == -EINVAL &&
	       http_url_append_segment(out, sizeof(out), "...") == 0 &&
	       !strcmp(out, "/k/..."),
	       "empty, '.' and '..' are refused; '...' is a name");
	strcpy(out, "/k/");
	tap_ok(http_url_append_segment(out, 8, "abcdef") == -ENAMETOOLONG &&
	       !strcmp(out, "/k/") &&
	       http_url_append_segment(out, 8, "abcd") == 0 &&
	       !strcmp(out, "/k/abcd"),
	       "too long for the buffer: refused, the buffer left as it was");
	strcpy(out, "/r/");
	tap_ok(http_url_append_name(out, sizeof(out), "smart/sda 1.txt") == 0 &&
	       !strcmp(out, "/r/smart/sda%201.txt"),
	       "a name with a subfolder keeps its slash: %s", out);
	strcpy(out, "/r/");
	tap_ok(http_url_append_name(out, sizeof(out), "a//b") == -EINVAL &&
	       http_url_append_name(out, sizeof(out), "/a") == -EINVAL &&
	       http_url_append_name(out, sizeof(out), "a/../b") == -EINVAL &&
	       http_url_append_name(out, sizeof(out), "a/") == -EINVAL &&
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

	TAP_RUN(test_upload);
	TAP_RUN(test_auth);
	return tap_done();
}
