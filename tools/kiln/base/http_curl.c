/* SPDX-License-Identifier: MIT */
/*
 * Description: https:// through curl (see http_curl.h). The request is a
 * config on curl's stdin; curl is a child whose three pipes are polled
 * against the request's one deadline and its cancel, and killed when
 * either comes, so a server that never answers costs the caller the
 * timeout and no more, as with kiln's own client. curl's exit code and
 * its one error line become the caller's -errno and error.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/complain.h"
#include "base/http_curl.h"
#include "base/http_head.h"
#include "base/secret.h"
#include "base/timing.h"
#include "base/version.h"

extern char **environ;

/* Past the request's timeout, curl is given this long to say why. */
#define GRACE_MS 2000
#define HEAD_MAX 8192

struct cfg {
	char *s;
	size_t len, at;
	int bad;		/* a value that cannot be quoted */
};

static void add(struct cfg *c, const char *fmt, const char *v)
{
	int n = snprintf(c->s + c->at, c->len - c->at, fmt, v);

	if (n < 0 || (size_t)n >= c->len - c->at)
		c->bad = c->bad ? c->bad : -ENAMETOOLONG;
	else
		c->at += (size_t)n;
}

/* name = "value", with curl's escapes for '\' and '"'. */
static void quoted(struct cfg *c, const char *name, const char *pre,
		   const char *v)
{
	char q[2 * HTTP_URL_CA_MAX + 2 * HTTP_URL_PATH_MAX];
	size_t n = 0;
	const char *p;

	for (p = pre; *p && n + 2 < sizeof(q); p++)
		q[n++] = *p;
	for (p = v; *p && n + 2 < sizeof(q); p++) {
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			c->bad = -EINVAL;
		if (*p == '\\' || *p == '"')
			q[n++] = '\\';
		q[n++] = *p;
	}
	if (*p)
		c->bad = -ENAMETOOLONG;
	q[n] = 0;
	add(c, name, "");
	add(c, " = \"%s\"\n", q);
}

int http_curl_config(const struct http_url *u, const struct http_request *rq,
		     const char *path, const char *body, char *out,
		     size_t len)
{
	struct cfg c = { .s = out, .len = len };
	char url[HTTP_URL_HOST_MAX + HTTP_URL_PATH_MAX + 32], secs[32];
	char pair[2 * HTTP_URL_CRED_MAX + 2];

	out[0] = 0;
	http_url_format(u, path, url, sizeof(url));
	quoted(&c, "url", "", url);
	quoted(&c, "request", "", rq->method);
	if (body)
		quoted(&c, "upload-file", "", body);
	if (u->token[0]) {
		quoted(&c, "header", "Authorization: Bearer ", u->token);
	} else if (u->has_user) {
		snprintf(pair, sizeof(pair), "%s:%s", u->user, u->password);
		quoted(&c, "user", "", pair);
	}
	if (u->ca[0])
		quoted(&c, "cacert", "", u->ca);
	if (rq->type)
		quoted(&c, "header", "Content-Type: ", rq->type);
	if (rq->create_only)
		quoted(&c, "header", "If-None-Match: ", "*");
	quoted(&c, "user-agent", "kiln/", version_string());
	snprintf(secs, sizeof(secs), "%.3f", rq->timeout_ms / 1000.0);
	add(&c, "max-time = %s\n", secs);
	add(&c, "connect-timeout = %s\n", secs);
	/*
	 * The answer's head on stdout before its body, read as kiln's own
	 * client reads it; HTTP/1.1 so that it is the head that reader knows.
	 * No "Expect: 100-continue" wait, no URL globbing of [IPv6], no
	 * redirect to anything but https, and curl's one error line.
	 */
	add(&c, "%s", "header = \"Expect:\"\n"
	    "dump-header = \"-\"\n"
	    "output = \"-\"\n"
	    "http1.1\n"
	    "globoff\n"
	    "path-as-is\n"
	    "proto = \"=https\"\n"
	    "silent\n"
	    "show-error\n");
	return c.bad;
}

/* A body in memory, into a 0600 file of its own: its path in name. */
static int body_file(const struct http_request *rq, char *name, size_t len,
		     struct http_result *res)
{
	const char *tmp = getenv("TMPDIR");
	const char *p = rq->body;
	size_t left = rq->len;
	int fd;

	snprintf(name, len, "%s/kiln-body-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	fd = mkstemp(name);
	if (fd < 0) {
		int err = errno;

		complain_to(res->error, sizeof(res->error), "cannot make a "
			    "file for the body in %s: %s", name, strerror(err));
		name[0] = 0;
		return -err;
	}
	while (left) {
		ssize_t w = write(fd, p, left);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0) {
			int err = errno;

			complain_to(res->error, sizeof(res->error),
				    "cannot write %s: %s", name,
				    strerror(err));
			close(fd);
			return -err;
		}
		p += w;
		left -= (size_t)w;
	}
	close(fd);
	return 0;
}

struct child {
	pid_t pid;
	int out, err;		/* -1 once closed */
	const char *cfg;
	char head[HEAD_MAX];
	size_t hl;
	int hlen;		/* the head's length once whole */
	char errs[512];
	size_t el;
	int exit_code;		/* curl's; -1 killed */
};

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

/*
 * The config goes into curl's stdin before curl starts: it fits a pipe's
 * buffer (64 KiB), so the write never waits, and a curl that dies at once
 * (not installed) cannot leave kiln writing to a pipe no one reads, which
 * would raise SIGPIPE and end kiln in the middle of a burn.
 */
static int fill(int fd, const char *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return -errno;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

/*
 * curl started as the other helpers are (subproc.c): posix_spawnp, its
 * stdin, stdout and stderr our pipes; every descriptor of kiln's is
 * close-on-exec, so curl holds no disk open.
 */
static int start(struct child *ch, struct http_result *res)
{
	char *const argv[] = { HTTP_CURL, "-q", "-K", "-", NULL };
	posix_spawn_file_actions_t fa;
	int in[2] = { -1, -1 }, out[2] = { -1, -1 }, err[2] = { -1, -1 };
	int ret = 0;

	if (pipe2(in, O_CLOEXEC) < 0 || pipe2(out, O_CLOEXEC) < 0 ||
	    pipe2(err, O_CLOEXEC) < 0)
		ret = -errno;
	if (!ret)
		ret = fill(in[1], ch->cfg, strlen(ch->cfg));
	if (in[1] >= 0)
		close(in[1]);
	if (!ret) {
		posix_spawn_file_actions_init(&fa);
		posix_spawn_file_actions_adddup2(&fa, in[0], 0);
		posix_spawn_file_actions_adddup2(&fa, out[1], 1);
		posix_spawn_file_actions_adddup2(&fa, err[1], 2);
		ret = -posix_spawnp(&ch->pid, HTTP_CURL, &fa, NULL, argv,
				    environ);
		posix_spawn_file_actions_destroy(&fa);
	}
	if (in[0] >= 0)
		close(in[0]);
	if (out[1] >= 0)
		close(out[1]);
	if (err[1] >= 0)
		close(err[1]);
	if (ret) {
		if (out[0] >= 0)
			close(out[0]);
		if (err[0] >= 0)
			close(err[0]);
		if (ret == -ENOENT)
			complain_to(res->error, sizeof(res->error), "%s is "
				    "not installed: https:// needs it",
				    HTTP_CURL);
		else
			complain_to(res->error, sizeof(res->error), "cannot "
				    "start %s: %s", HTTP_CURL, strerror(-ret));
		return ret;
	}
	ch->out = out[0];
	ch->err = err[0];
	fcntl(ch->out, F_SETFL, O_NONBLOCK);
	fcntl(ch->err, F_SETFL, O_NONBLOCK);
	return 0;
}

/* What came on stdout: the head first, then the body kept as usual. */
static void took(struct child *ch, const char *p, size_t n,
		 struct http_result *res)
{
	if (ch->hlen) {
		http_head_keep(res, p, n);
		return;
	}
	if (n > sizeof(ch->head) - 1 - ch->hl)
		n = sizeof(ch->head) - 1 - ch->hl;
	memcpy(ch->head + ch->hl, p, n);
	ch->hl += n;
	ch->hlen = http_head_parse(ch->head, ch->hl, res);
	if (ch->hlen > 0)
		http_head_keep(res, ch->head + ch->hlen,
			       ch->hl - (size_t)ch->hlen);
	else
		ch->hlen = 0;
}

/* One turn of the loop (a cancel is looked at ten times a second). */
static void turn(struct child *ch, struct http_result *res)
{
	struct pollfd p[3] = {
		{ .fd = -1 },
		{ .fd = ch->out, .events = POLLIN },
		{ .fd = ch->err, .events = POLLIN },
	};
	char buf[4096];
	ssize_t n;

	if (poll(p, 3, 100) <= 0)
		return;
	if (p[1].revents & (POLLIN | POLLHUP | POLLERR)) {
		n = read(ch->out, buf, sizeof(buf));
		if (n > 0)
			took(ch, buf, (size_t)n, res);
		else if (n == 0 || (errno != EAGAIN && errno != EINTR))
			close_fd(&ch->out);
	}
	if (p[2].revents & (POLLIN | POLLHUP | POLLERR)) {
		n = read(ch->err, buf, sizeof(buf));
		if (n > 0) {
			size_t k = (size_t)n < sizeof(ch->errs) - 1 - ch->el ?
				   (size_t)n : sizeof(ch->errs) - 1 - ch->el;

			memcpy(ch->errs + ch->el, buf, k);
			ch->el += k;
			ch->errs[ch->el] = 0;
		} else if (n == 0 || (errno != EAGAIN && errno != EINTR)) {
			close_fd(&ch->err);
		}
	}
}

/* Runs curl to its end, or kills it at the deadline or a cancel. */
static int run(struct child *ch, const struct http_request *rq,
	       struct http_result *res)
{
	uint64_t end = timing_now_ns() +
		       (uint64_t)(rq->timeout_ms + GRACE_MS) * 1000000ull;
	int status = 0, ret = 0;
	pid_t w;

	while (ch->out >= 0 || ch->err >= 0) {
		if (rq->cancel && atomic_load(rq->cancel)) {
			ret = -ECANCELED;
			break;
		}
		if (timing_now_ns() >= end) {
			ret = -ETIMEDOUT;
			break;
		}
		turn(ch, res);
	}
	if (ret)
		kill(ch->pid, SIGKILL);
	close_fd(&ch->out);
	close_fd(&ch->err);
	while ((w = waitpid(ch->pid, &status, 0)) < 0 && errno == EINTR)
		;
	ch->exit_code = w == ch->pid && WIFEXITED(status) ?
			WEXITSTATUS(status) : -1;
	return ret;
}

/* curl's own line, "curl: (60) SSL certificate problem: ...", bare. */
static const char *curl_line(struct child *ch)
{
	char *p = ch->errs, *nl;

	if (!strncmp(p, "curl: ", 6))
		p += 6;
	if (*p == '(' && (nl = strchr(p, ')')) && nl[1] == ' ')
		p = nl + 2;
	nl = strchr(p, '\n');
	if (nl)
		*nl = 0;
	return p;
}

/* curl's exit code as kiln's client says the same failures. */
static int failed(struct child *ch, const struct http_url *u,
		  const struct http_request *rq, struct http_result *res)
{
	const char *line = curl_line(ch);
	char secs[32];
	int ret;

	snprintf(secs, sizeof(secs), "%g s", rq->timeout_ms / 1000.0);
	switch (ch->exit_code) {
	case 127:
		complain_to(res->error, sizeof(res->error), "%s is not "
			    "installed: https:// needs it", HTTP_CURL);
		return -ENOENT;
	case 6:
		complain_to(res->error, sizeof(res->error), "cannot resolve "
			    "%s: %s", u->host, line);
		return -EHOSTUNREACH;
	case 7:
		complain_to(res->error, sizeof(res->error),
			    "connection refused: %s", line);
		return -ECONNREFUSED;
	case 28:
		complain_to(res->error, sizeof(res->error), "no answer in "
			    "%s: %s", secs, line);
		return -ETIMEDOUT;
	case 52:
		complain_to(res->error, sizeof(res->error),
			    "connection closed with no answer");
		return -ECONNRESET;
	case 35:
	case 51:
	case 53:
	case 54:
	case 58:
	case 59:
	case 60:
	case 64:
	case 66:
	case 77:
	case 80:
	case 82:
	case 83:
	case 90:
	case 91:
		/* An untrusted certificate among them: said as such. */
		complain_to(res->error, sizeof(res->error),
			    "TLS with %s failed (%s): %s", u->host,
			    u->ca[0] ? u->ca : "no ca given", line);
		return -EPROTO;
	default:
		ret = ch->exit_code == 55 || ch->exit_code == 56 ?
		      -ECONNRESET : -EIO;
		complain_to(res->error, sizeof(res->error), "curl exit %d: %s",
			    ch->exit_code, line);
		return ret;
	}
}

int http_curl_request(const struct http_url *u, const struct http_request *rq,
		      struct http_result *res)
{
	const char *path = rq->path ? rq->path : u->path;
	struct child ch = { .pid = -1, .out = -1, .err = -1 };
	char tmp[4096] = "", *cfg = NULL;
	const char *body = rq->file;
	struct stat st;
	size_t cfg_max = 16384;
	int ret;

	if (body && stat(body, &st) < 0) {
		ret = -errno;
		complain_to(res->error, sizeof(res->error), "cannot read %s: "
			    "%s", body, strerror(-ret));
		return ret;
	}
	if (body && !S_ISREG(st.st_mode)) {
		complain_to(res->error, sizeof(res->error), "%s is not a "
			    "regular file", body);
		return -EINVAL;
	}
	if (!body && (rq->len || !strcmp(rq->method, "PUT") ||
		      !strcmp(rq->method, "POST"))) {
		ret = body_file(rq, tmp, sizeof(tmp), res);
		if (ret)
			goto out;
		body = tmp;
	}
	cfg = malloc(cfg_max);
	ret = cfg ? http_curl_config(u, rq, path, body, cfg, cfg_max) :
	      -ENOMEM;
	if (ret) {
		complain_to(res->error, sizeof(res->error), "bad request");
		goto out;
	}
	ch.cfg = cfg;
	ret = start(&ch, res);
	if (ret)
		goto out;
	ret = run(&ch, rq, res);
	if (ret == -ETIMEDOUT)
		complain_to(res->error, sizeof(res->error), "no answer in "
			    "%g s", rq->timeout_ms / 1000.0);
	else if (ret == -ECANCELED)
		complain_to(res->error, sizeof(res->error),
			    "cancelled before an answer came");
	else if (ch.exit_code != 0)
		ret = failed(&ch, u, rq, res);
	else if (!ch.hlen) {
		complain_to(res->error, sizeof(res->error),
			    "not an HTTP answer");
		ret = -EPROTO;
	} else if (res->status < 200 || res->status > 299) {
		http_head_status(res);
		ret = -EREMOTEIO;
	} else if (res->keep && res->got > res->keep_max) {
		complain_to(res->error, sizeof(res->error), "an answer "
			    "larger than %zu bytes", res->keep_max);
		ret = -EFBIG;
	}
	/* Whatever curl said, said without a secret. */
	secret_mask(res->error, res->error, sizeof(res->error));
out:
	if (tmp[0])
		unlink(tmp);
	free(cfg);
	return ret;
}
