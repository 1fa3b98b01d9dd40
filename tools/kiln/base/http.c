/* SPDX-License-Identifier: MIT */
/*
 * Description: kiln's small HTTP/1.1 client (see http.h; its URLs are
 * http_url.c's). A request is a walk over one non-blocking socket:
 * resolve, connect, send the head and the body, read the answer's head
 * and the start of its body. Every wait is a poll() against one
 * deadline, so a server that accepts and never answers, or stops reading
 * halfway through a body, costs the caller the timeout and no more.
 * MSG_NOSIGNAL keeps a closed peer from raising SIGPIPE, which would end
 * kiln in the middle of a burn.
 */
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/complain.h"
#include "base/http.h"
#include "base/http_curl.h"
#include "base/http_head.h"
#include "base/timing.h"
#include "base/version.h"

/* The body of a file is sent through a buffer this big. */
#define FILE_CHUNK (64 * 1024)

/* 10000 -> "10 s", 1500 -> "1.5 s": for messages. */
static void fmt_secs(unsigned ms, char *out, size_t len)
{
	snprintf(out, len, "%g s", ms / 1000.0);
}

/* strerror as part of a sentence: "connection refused". */
static void errno_line(char *out, size_t len, int err)
{
	snprintf(out, len, "%s", strerror(err));
	if (out[0] >= 'A' && out[0] <= 'Z' && !(out[1] >= 'A' && out[1] <= 'Z'))
		out[0] = (char)(out[0] - 'A' + 'a');
}

struct conn {
	int fd;
	uint64_t deadline;		/* timing_now_ns() */
	const atomic_int *cancel;
	size_t sent;			/* bytes of head and body */
	int hung_up;			/* the server closed while we sent */
};

/* Waits for events until the deadline: 0, -ETIMEDOUT, -ECANCELED. */
static int wait_fd(struct conn *c, short events, short *revents)
{
	for (;;) {
		struct pollfd p = { .fd = c->fd, .events = events };
		uint64_t now = timing_now_ns(), left;
		int ms, n;

		if (c->cancel && atomic_load(c->cancel))
			return -ECANCELED;
		if (now >= c->deadline)
			return -ETIMEDOUT;
		left = (c->deadline - now + 999999) / 1000000;
		ms = left > 3600000 ? 3600000 : (int)left;
		/* A cancel is looked at ten times a second. */
		if (c->cancel && ms > 100)
			ms = 100;
		n = poll(&p, 1, ms);
		if (n < 0 && errno != EINTR)
			return -errno;
		if (n > 0) {
			*revents = p.revents;
			return 0;
		}
	}
}

static int connect_one(struct conn *c, const struct addrinfo *ai)
{
	socklen_t elen = sizeof(int);
	short rev;
	int err = 0, ret;

	c->fd = socket(ai->ai_family,
		       ai->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC,
		       ai->ai_protocol);
	if (c->fd < 0)
		return -errno;
	if (connect(c->fd, ai->ai_addr, ai->ai_addrlen) == 0)
		return 0;
	if (errno != EINPROGRESS && errno != EINTR) {
		ret = -errno;
		goto err;
	}
	ret = wait_fd(c, POLLOUT, &rev);
	if (ret)
		goto err;
	if (getsockopt(c->fd, SOL_SOCKET, SO_ERROR, &err, &elen) < 0)
		err = errno;
	if (err) {
		ret = -err;
		goto err;
	}
	return 0;
err:
	close(c->fd);
	c->fd = -1;
	return ret;
}

/*
 * Sends n bytes: 0 when all went, 1 when the server spoke or hung up
 * first (its answer, a 413 or a 403, is to be read), or -errno.
 */
static int send_bytes(struct conn *c, const char *p, size_t n)
{
	while (n) {
		ssize_t w;
		short rev;
		int ret = wait_fd(c, POLLOUT | POLLIN, &rev);

		if (ret)
			return ret;
		if (rev & (POLLIN | POLLHUP | POLLERR))
			return 1;
		w = send(c->fd, p, n, MSG_NOSIGNAL);
		if (w < 0) {
			if (errno == EAGAIN || errno == EWOULDBLOCK ||
			    errno == EINTR)
				continue;
			if (errno == EPIPE || errno == ECONNRESET) {
				c->hung_up = 1;
				return 1;
			}
			return -errno;
		}
		p += w;
		n -= (size_t)w;
		c->sent += (size_t)w;
	}
	return 0;
}

/* The body from a file, exactly len bytes of it. */
static int send_file(struct conn *c, int fd, uint64_t len,
		     struct http_result *res, const char *name)
{
	char *buf = malloc(FILE_CHUNK);
	int ret = 0;

	if (!buf)
		return -ENOMEM;
	while (len && !ret) {
		size_t want = len < FILE_CHUNK ? (size_t)len : FILE_CHUNK;
		ssize_t r = read(fd, buf, want);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			ret = -errno;
			complain_to(res->error, sizeof(res->error),
				    "cannot read %s: %s", name,
				    strerror(errno));
			break;
		}
		/* Shorter than when it was measured: Content-Length lies. */
		if (r == 0) {
			ret = -EIO;
			complain_to(res->error, sizeof(res->error),
				    "%s shrank while it was sent", name);
			break;
		}
		ret = send_bytes(c, buf, (size_t)r);
		len -= (uint64_t)r;
	}
	free(buf);
	return ret;
}

/* Enough of the answer read: all of its body, or all that we keep. */
static int answer_done(const struct http_result *res)
{
	if (res->status == 204 || res->status == 304)
		return 1;
	if (res->length >= 0 && res->got >= (unsigned long long)res->length)
		return 1;
	/* A body wanted whole is read to its end, or past what fits. */
	if (res->sink)
		return 0;
	if (res->keep)
		return res->got > res->keep_max;
	return res->body_len == sizeof(res->body) - 1;
}

static int read_answer(struct conn *c, struct http_result *res,
		       const char *secs)
{
	char head[8192], buf[4096];
	size_t hl = 0;
	int hlen = 0;

	for (;;) {
		ssize_t n;
		short rev;
		int ret;

		if (hlen && answer_done(res))
			return 0;
		ret = wait_fd(c, POLLIN, &rev);
		/* The status is what matters: a slow body does not undo it. */
		if (ret && hlen)
			return 0;
		if (ret == -ETIMEDOUT && hl)
			complain_to(res->error, sizeof(res->error),
				    "the answer stalled after %zu bytes (%s)",
				    hl, secs);
		else if (ret == -ETIMEDOUT)
			complain_to(res->error, sizeof(res->error),
				    "no answer in %s", secs);
		if (ret)
			return ret;
		if (!hlen)
			n = recv(c->fd, head + hl, sizeof(head) - 1 - hl, 0);
		else
			n = recv(c->fd, buf, sizeof(buf), 0);
		if (n < 0 && (errno == EAGAIN || errno == EINTR))
			continue;
		if (n < 0 && errno != ECONNRESET) {
			ret = -errno;
			errno_line(res->error, sizeof(res->error), errno);
			return ret;
		}
		if (n <= 0) {
			if (hlen)
				return 0;
			if (hl) {
				complain_to(res->error, sizeof(res->error),
					    "the answer was cut short after "
					    "%zu bytes", hl);
				return -EPROTO;
			}
			if (c->hung_up)
				complain_to(res->error, sizeof(res->error),
					    "connection closed with no answer "
					    "(%zu bytes sent)", c->sent);
			else
				complain_to(res->error, sizeof(res->error),
					    "connection closed with no answer");
			return -ECONNRESET;
		}
		if (hlen) {
			http_head_keep(res, buf, (size_t)n);
			continue;
		}
		hl += (size_t)n;
		hlen = http_head_parse(head, hl, res);
		if (hlen < 0 || (!hlen && hl == sizeof(head) - 1)) {
			complain_to(res->error, sizeof(res->error),
				    "not an HTTP answer");
			return -EPROTO;
		}
		if (hlen)
			http_head_keep(res, head + hlen, hl - (size_t)hlen);
	}
}

/* No CR, LF or other control byte may reach the head from a caller. */
static int clean(const char *s, int spaces)
{
	for (; s && *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f ||
		    (*s == ' ' && !spaces))
			return 0;
	return 1;
}

/* The file to send, if any: its fd in *file and its length in *len. */
static int open_body(const struct http_request *rq, int *file, uint64_t *len,
		     struct http_result *res)
{
	struct stat st;

	*file = -1;
	*len = rq->len;
	if (!rq->file)
		return 0;
	*file = open(rq->file, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (*file < 0 || fstat(*file, &st) < 0) {
		int err = errno;

		complain_to(res->error, sizeof(res->error),
			    "cannot read %s: %s", rq->file, strerror(err));
		return -err;
	}
	if (!S_ISREG(st.st_mode)) {
		complain_to(res->error, sizeof(res->error),
			    "%s is not a regular file", rq->file);
		return -EINVAL;
	}
	*len = (uint64_t)st.st_size;
	return 0;
}

/* RFC 4648 base64 of n bytes into out (room for 4 * (n + 2) / 3 + 1). */
static void base64(const unsigned char *p, size_t n, char *out)
{
	static const char abc[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
				  "abcdefghijklmnopqrstuvwxyz0123456789+/";
	size_t i;

	for (i = 0; i + 2 < n; i += 3) {
		*out++ = abc[p[i] >> 2];
		*out++ = abc[(p[i] & 3) << 4 | p[i + 1] >> 4];
		*out++ = abc[(p[i + 1] & 15) << 2 | p[i + 2] >> 6];
		*out++ = abc[p[i + 2] & 63];
	}
	if (i < n) {
		*out++ = abc[p[i] >> 2];
		*out++ = abc[(p[i] & 3) << 4 | (i + 1 < n ? p[i + 1] >> 4 : 0)];
		*out++ = i + 1 < n ? abc[(p[i + 1] & 15) << 2] : '=';
		*out++ = '=';
	}
	*out = 0;
}

/*
 * The Authorization header's line, or "": auth-token as a Bearer token,
 * else the URL's user part as Basic.
 */
static void auth_line(const struct http_url *u, char *out, size_t len)
{
	char pair[2 * HTTP_URL_CRED_MAX + 2];
	char b64[4 * sizeof(pair) / 3 + 8];

	out[0] = 0;
	if (u->token[0]) {
		snprintf(out, len, "Authorization: Bearer %s\r\n", u->token);
	} else if (u->has_user) {
		snprintf(pair, sizeof(pair), "%s:%s", u->user, u->password);
		base64((const unsigned char *)pair, strlen(pair), b64);
		snprintf(out, len, "Authorization: Basic %s\r\n", b64);
	}
}

/* The request's head, blank line included: its length, or -ENAMETOOLONG. */
static int make_head(const struct http_url *u, const struct http_request *rq,
		     const char *path, uint64_t len, char *head, size_t size,
		     struct http_result *res)
{
	char host[HTTP_URL_HOST_MAX + 16], auth[800];
	int n;

	http_url_authority(u, host, sizeof(host));
	n = snprintf(head, size, "%s %s HTTP/1.1\r\nHost: %s\r\n"
		     "User-Agent: kiln/%s\r\nConnection: close\r\n",
		     rq->method, path, host, version_string());
	if (rq->type && n > 0 && (size_t)n < size)
		n += snprintf(head + n, size - (size_t)n,
			      "Content-Type: %s\r\n", rq->type);
	if (rq->create_only && n > 0 && (size_t)n < size)
		n += snprintf(head + n, size - (size_t)n,
			      "If-None-Match: *\r\n");
	auth_line(u, auth, sizeof(auth));
	if (n > 0 && (size_t)n < size)
		n += snprintf(head + n, size - (size_t)n, "%s", auth);
	/* PUT and POST say their length even when it is 0. */
	if ((len || rq->file || rq->body || !strcmp(rq->method, "PUT") ||
	     !strcmp(rq->method, "POST")) && n > 0 && (size_t)n < size)
		n += snprintf(head + n, size - (size_t)n,
			      "Content-Length: %llu\r\n",
			      (unsigned long long)len);
	if (n < 0 || (size_t)n + 2 >= size) {
		complain_to(res->error, sizeof(res->error),
			    "the request is too long");
		return -ENAMETOOLONG;
	}
	memcpy(head + n, "\r\n", 3);
	return n + 2;
}

/* Resolves the host and connects to the first address that answers. */
static int dial(struct conn *c, const struct http_url *u, const char *secs,
		struct http_result *res)
{
	struct addrinfo hints = {
		.ai_family = AF_UNSPEC,
		.ai_socktype = SOCK_STREAM,
		.ai_flags = AI_NUMERICSERV | (u->ipv6 ? AI_NUMERICHOST : 0),
	};
	struct addrinfo *ai = NULL, *a;
	int g, ret;

	g = getaddrinfo(u->host, u->port, &hints, &ai);
	if (g) {
		ret = g == EAI_SYSTEM ? -errno : g == EAI_MEMORY ? -ENOMEM :
		      g == EAI_AGAIN ? -EAGAIN : -EHOSTUNREACH;
		complain_to(res->error, sizeof(res->error),
			    "cannot resolve %s: %s", u->host, gai_strerror(g));
		return ret;
	}
	ret = -EHOSTUNREACH;
	if (timing_now_ns() >= c->deadline) {
		ret = -ETIMEDOUT;
		complain_to(res->error, sizeof(res->error),
			    "resolving %s took more than %s", u->host, secs);
		goto out;
	}
	/* Each address in turn (localhost may be ::1, then 127.0.0.1). */
	for (a = ai; a; a = a->ai_next) {
		ret = connect_one(c, a);
		if (!ret || ret == -ETIMEDOUT || ret == -ECANCELED)
			break;
	}
	if (ret == -ETIMEDOUT)
		complain_to(res->error, sizeof(res->error),
			    "no connection in %s", secs);
	else if (ret == -ECANCELED)
		complain_to(res->error, sizeof(res->error),
			    "cancelled before a connection was made");
	else if (ret)
		errno_line(res->error, sizeof(res->error), -ret);
out:
	freeaddrinfo(ai);
	return ret;
}

/* The head, then the body from the file or the caller's bytes. */
static int send_all(struct conn *c, const char *head, size_t n, int file,
		    uint64_t len, const struct http_request *rq,
		    const char *secs, struct http_result *res)
{
	size_t body;
	int ret = send_bytes(c, head, n);

	if (!ret && file >= 0)
		ret = send_file(c, file, len, res, rq->file);
	else if (!ret && rq->len)
		ret = send_bytes(c, rq->body, rq->len);
	body = c->sent > n ? c->sent - n : 0;
	if (ret == -ETIMEDOUT)
		complain_to(res->error, sizeof(res->error),
			    "timed out after %s sending: %zu of %llu body "
			    "bytes sent", secs, body, (unsigned long long)len);
	else if (ret == -ECANCELED)
		complain_to(res->error, sizeof(res->error),
			    "cancelled while sending: %zu of %llu body bytes "
			    "sent", body, (unsigned long long)len);
	else if (ret < 0 && !res->error[0])
		errno_line(res->error, sizeof(res->error), -ret);
	return ret < 0 ? ret : 0;
}

/* The answer, and whether it says the whole request arrived. */
static int take_answer(struct conn *c, size_t n, uint64_t len,
		       const char *secs, struct http_result *res)
{
	size_t body = c->sent > n ? c->sent - n : 0;
	int ret = read_answer(c, res, secs);

	if (ret == -ECANCELED)
		complain_to(res->error, sizeof(res->error),
			    "cancelled before an answer came");
	if (ret)
		return ret;
	if (res->status < 200 || res->status > 299) {
		http_head_status(res);
		return -EREMOTEIO;
	}
	/*
	 * A 2xx before the whole body went (a server that answers right
	 * after the head) cannot vouch for bytes it never read: only a 2xx
	 * after the last byte means it arrived.
	 */
	if (c->sent < n + len) {
		complain_to(res->error, sizeof(res->error),
			    "HTTP %d%s%s came after only %zu of %llu body "
			    "bytes were sent: not taken as arrived",
			    res->status, res->reason[0] ? " " : "", res->reason,
			    body, (unsigned long long)len);
		return -EREMOTEIO;
	}
	return 0;
}

int http_request(const struct http_url *u, const struct http_request *rq,
		 struct http_result *res)
{
	struct conn c = { .fd = -1, .cancel = rq->cancel };
	const char *path = rq->path ? rq->path : u->path;
	char head[2 * HTTP_URL_PATH_MAX + 1536], secs[32];
	uint64_t len;
	int file = -1, n = 0, ret;

	memset(res, 0, sizeof(*res));
	res->length = -1;
	res->keep = rq->keep;
	res->keep_max = rq->keep_max;
	res->sink = rq->sink;
	res->sink_arg = rq->sink_arg;
	if (rq->keep && rq->keep_max)
		rq->keep[0] = 0;
	c.deadline = timing_now_ns() + (uint64_t)rq->timeout_ms * 1000000ull;
	fmt_secs(rq->timeout_ms, secs, sizeof(secs));
	if (!rq->method || !*rq->method || !clean(rq->method, 0) ||
	    path[0] != '/' || !clean(path, 0) || !clean(rq->type, 1)) {
		complain_to(res->error, sizeof(res->error), "bad request");
		return -EINVAL;
	}
	if (u->tls)
		return http_curl_request(u, rq, res);
	ret = open_body(rq, &file, &len, res);
	if (!ret)
		ret = n = make_head(u, rq, path, len, head, sizeof(head), res);
	if (ret >= 0)
		ret = dial(&c, u, secs, res);
	if (!ret)
		ret = send_all(&c, head, (size_t)n, file, len, rq, secs, res);
	if (!ret)
		ret = take_answer(&c, (size_t)n, len, secs, res);
	if (!ret && res->keep && res->got > res->keep_max) {
		complain_to(res->error, sizeof(res->error), "an answer larger "
			    "than %zu bytes", res->keep_max);
		ret = -EFBIG;
	}
	if (c.fd >= 0)
		close(c.fd);
	if (file >= 0)
		close(file);
	return ret;
}
