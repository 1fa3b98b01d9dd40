/* SPDX-License-Identifier: MIT */
#ifndef KILN_HTTP_HEAD_H
#define KILN_HTTP_HEAD_H

#include <stddef.h>

#include "base/http.h"

/*
 * Reads an answer's head from buf (len bytes so far): > 0 the length of
 * the head once it is whole (after any 1xx interim answers), 0 when more
 * is needed, -EPROTO when it is not HTTP. Fills status, reason, type and
 * length of res.
 */
int http_head_parse(const char *buf, size_t len, struct http_result *res);

/*
 * The answer's error line for people: "HTTP 400 Bad Request", and the
 * first line of a text/plain body after it.
 */
void http_head_status(struct http_result *res);

/*
 * n bytes of the answer's body, as they come: kept whole in res->keep
 * (up to keep_max), the start of it in res->body, all counted in got.
 */
void http_head_keep(struct http_result *res, const char *p, size_t n);

#endif
