/* SPDX-License-Identifier: MIT */
/*
 * Description: an HTTP answer's head, read (see http_head.h): its status
 * line past any 1xx, the few headers kiln's client needs, and the line
 * for people that an answer other than a 2xx makes.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/http.h"
#include "base/http_head.h"

/* Case-insensitive "Name:" at the start of a header line: its value. */
static const char *header(const char *line, const char *eol, const char *name)
{
	size_t n = strlen(name);

	if ((size_t)(eol - line) <= n || strncasecmp(line, name, n) ||
	    line[n] != ':')
		return NULL;
	line += n + 1;
	while (line < eol && (*line == ' ' || *line == '\t'))
		line++;
	return line;
}

/* A head's length (through its blank line), 0 when it is not whole yet. */
static size_t head_end(const char *buf, size_t len)
{
	size_t i;

	/* Lines end in CRLF; a bare LF is taken too, as most clients do. */
	for (i = 0; i < len; i++) {
		if (buf[i] != '\n')
			continue;
		if (i + 1 < len && buf[i + 1] == '\n')
			return i + 2;
		if (i + 2 < len && buf[i + 1] == '\r' && buf[i + 2] == '\n')
			return i + 3;
	}
	return 0;
}

/* Copies a line into out for people: control bytes become '?'. */
static void printable(char *out, size_t len, const char *p, const char *end)
{
	size_t i = 0;

	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	while (end > p && (end[-1] == '\r' || end[-1] == ' '))
		end--;
	for (; p < end && i + 1 < len; p++)
		out[i++] = (unsigned char)*p < 0x20 || *p == 0x7f ? '?' : *p;
	out[i] = 0;
}

int http_head_parse(const char *buf, size_t len, struct http_result *res)
{
	size_t off = 0;

	for (;;) {
		const char *h = buf + off, *eol, *end, *p, *v;
		size_t n = len - off, hlen = head_end(h, n);
		int status;

		/* Say early when the first bytes cannot be HTTP. */
		if (memcmp(h, "HTTP/", n < 5 ? n : 5))
			return -EPROTO;
		if (!hlen)
			return 0;
		end = h + hlen;
		eol = memchr(h, '\n', hlen);
		p = h + 5;
		if (p >= eol || *p < '0' || *p > '9')
			return -EPROTO;
		while (p < eol && ((*p >= '0' && *p <= '9') || *p == '.'))
			p++;
		if (eol - p < 4 || *p != ' ')
			return -EPROTO;
		p++;
		if (p[0] < '1' || p[0] > '5' || p[1] < '0' || p[1] > '9' ||
		    p[2] < '0' || p[2] > '9' ||
		    (p[3] != ' ' && p[3] != '\r' && p[3] != '\n'))
			return -EPROTO;
		status = (p[0] - '0') * 100 + (p[1] - '0') * 10 + (p[2] - '0');
		/* 100 Continue and friends come before the real answer. */
		if (status < 200) {
			off += hlen;
			continue;
		}
		res->status = status;
		printable(res->reason, sizeof(res->reason), p + 3, eol);
		res->type[0] = 0;
		res->length = -1;
		res->chunked = 0;
		for (p = eol + 1; p < end; p = eol + 1) {
			eol = memchr(p, '\n', (size_t)(end - p));
			if ((v = header(p, eol, "Content-Length"))) {
				char *stop;
				long long l = strtoll(v, &stop, 10);

				if (stop > v && l >= 0)
					res->length = l;
			} else if ((v = header(p, eol, "Content-Type"))) {
				printable(res->type, sizeof(res->type), v, eol);
			} else if ((v = header(p, eol, "Transfer-Encoding"))) {
				res->chunked = !strncasecmp(v, "chunked", 7);
			}
		}
		return (int)(off + hlen);
	}
}

/* "HTTP 400 Bad Request", with a text/plain body's first line after it. */
void http_head_status(struct http_result *res)
{
	int n = snprintf(res->error, sizeof(res->error), "HTTP %d%s%s",
			 res->status, res->reason[0] ? " " : "", res->reason);

	if (res->body_len && !strncasecmp(res->type, "text/plain", 10) &&
	    n > 0 && (size_t)n + 3 < sizeof(res->error)) {
		const char *text = res->body;
		char first[200];

		/* Chunked (a Go server's long answers): past its size line. */
		if (res->chunked) {
			size_t eol = strcspn(text, "\n");

			text += text[eol] ? eol + 1 : eol;
		}
		printable(first, sizeof(first), text,
			  text + strcspn(text, "\n"));
		if (first[0])
			snprintf(res->error + n, sizeof(res->error) - (size_t)n,
				 ": %s", first);
	}
}

void http_head_keep(struct http_result *res, const char *p, size_t n)
{
	size_t room = sizeof(res->body) - 1 - res->body_len;

	if (res->keep && res->got < res->keep_max) {
		size_t k = res->keep_max - res->got < n ?
			   res->keep_max - res->got : n;

		memcpy(res->keep + res->got, p, k);
		res->keep[res->got + k] = 0;
	}
	if (res->sink)
		res->sink(res->sink_arg, p, n);
	res->got += n;
	if (n > room)
		n = room;
	memcpy(res->body + res->body_len, p, n);
	res->body_len += n;
	res->body[res->body_len] = 0;
}
