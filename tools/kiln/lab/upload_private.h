/* SPDX-License-Identifier: MIT */
#ifndef KILN_UPLOAD_PRIVATE_H
#define KILN_UPLOAD_PRIVATE_H

/*
 * What upload.c (the queue) and upload_send.c (one file's trip to the
 * server) share: a file waiting to go. Nobody else includes this file.
 */
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "base/http.h"

/* A file of the run folder on its way: queued, in flight or kept. */
struct upload_item {
	struct upload_item *next;
	char *name;		/* in the run folder: "summary.txt" */
	char *slot;		/* progress: a newer one of it goes instead */
	char *path;		/* its URL path, percent-encoded */
	char *file;		/* a file to send as it is when sent, or */
	char *data;		/* a copy of the bytes, len of them */
	size_t len;
	int landed;		/* its 412 was its own bytes: it had arrived */
	unsigned tries;		/* failed so far */
	unsigned delay;		/* seconds of its own last pause */
	uint64_t next_try;	/* timing_now_ns() */
	char why[240];		/* its last failure */
};

/*
 * One try of one file: a PUT that creates and never replaces, the
 * folders made when the server wants them (409), and after a 412 what is
 * there read back and compared. 0 it arrived (landed: it was there with
 * the same bytes), -EEXIST another file has the name, else -errno with
 * res saying why. Within timeout_ms, whatever the server does; stop
 * cancels it.
 */
int upload_send(const struct http_url *base, const atomic_int *stop,
		struct upload_item *it, unsigned timeout_ms,
		struct http_result *res);

#endif
