/* SPDX-License-Identifier: MIT */
#ifndef KILN_UPLOAD_H
#define KILN_UPLOAD_H

#include <stddef.h>

#include "base/http.h"

/*
 * The run folder to a lab's web server by HTTP PUT, beside the burn. A
 * worker thread sends what is queued to BASE/<machine id>/<run folder>/
 * and retries what fails after a growing pause (1, 2, 4 ... 60 s), so a
 * slow, refusing or absent server never holds the burn, and a failure
 * never fails it. The caller queues files, reads now and then what the
 * uploader has to say, and at the end waits a bounded time for the rest
 * and learns what never arrived.
 *
 * When no answer comes (refused, unreachable, timed out) the server is
 * down and every file waits for the next try; when the server answers
 * with an error (403, 500) only that file waits, and moves to the back
 * of the queue so that the others still go.
 */

#define UPLOAD_MAX_FILES 64		/* names waiting at once */
#define UPLOAD_MAX_BYTES (64u << 20)	/* bytes of copies waiting at once */
#define UPLOAD_DELAY_MAX 60		/* seconds between tries, at most */
#define UPLOAD_TIMEOUT_MS 30000		/* per request; plus 1 s per MiB */

struct upload;

/*
 * Starts the worker for the folder BASE/machine/run/ (each percent-encoded
 * as one segment). timeout_ms bounds each request (0: UPLOAD_TIMEOUT_MS),
 * plus a second for each MiB of its body. 0 or -errno, err says why.
 */
int upload_start(struct upload **up, const struct http_url *base,
		 const char *machine, const char *run, unsigned timeout_ms,
		 char *err, size_t len);

/*
 * Queues these bytes (copied) as the folder's file name ("summary.txt",
 * or "smart/sda.txt" for a subfolder). A newer version of a name that is
 * still waiting takes the older one's place. Never waits on the network.
 * The server is asked to create the file and never replace one
 * ("If-None-Match: *"); a 412 (the name is there) is read back: the same
 * bytes have arrived (a try whose answer was lost), another file's are a
 * collision, said, never retried, and listed by upload_lost.
 * 0, -EINVAL (a bad name), -ENOBUFS (UPLOAD_MAX_FILES or UPLOAD_MAX_BYTES
 * would be passed: also said as a line), -ENOMEM, -ESHUTDOWN (stopped).
 */
int upload_put_data(struct upload *u, const char *name, const void *data,
		    size_t len);

/*
 * The same for a file of the run's progress (a checkpoint, the summary so
 * far), under a name of its own each time ("progress/checkpoint-000042.
 * json": nothing on the server is ever replaced): a newer one of the same
 * slot ("checkpoint") that comes while an older one waits goes instead.
 */
int upload_put_progress(struct upload *u, const char *slot, const char *name,
			const void *data, size_t len);

/*
 * The same for a file, read when its turn comes (so as it is then, and
 * again at each retry): for files too big to copy, or that only grow.
 */
int upload_put_file(struct upload *u, const char *name, const char *path);

/*
 * The next line for the console ("upload: summary.txt to http://lab/k/M/R/:
 * HTTP 500 Internal Server Error, retrying in 4 s"): 1 when one was
 * copied into line, 0 when there is none. The uploader keeps the last 32.
 */
int upload_said(struct upload *u, char *line, size_t len);

/* Files waiting or on their way. */
int upload_pending(struct upload *u);

/*
 * Tries everything waiting now, then waits for it to arrive, retrying as
 * usual, for at most timeout_ms: 0 when nothing is left, -ETIMEDOUT when
 * something is, -EEXIST when nothing is but a file met another of its
 * name on the server (a collision: upload_lost lists it). Each line said meanwhile goes to say (if not NULL), on
 * the caller's thread. The worker goes on afterwards.
 */
int upload_flush(struct upload *u, unsigned timeout_ms,
		 void (*say)(const char *line, void *arg), void *arg);

/*
 * Stops the worker, cutting short a request on its way (within 0.1 s; a
 * DNS lookup in progress runs to its own timeout). What had not arrived
 * stays, for upload_lost. Idempotent.
 */
void upload_stop(struct upload *u);

/*
 * The i-th file that has not arrived (from 0): its name and its last
 * failure, 0; -ENOENT past the last one. Those still waiting come first,
 * then those another file's name stood in the way of. Best after upload_stop, when
 * nothing can arrive any more.
 */
int upload_lost(struct upload *u, int i, char *name, size_t nlen, char *why,
		size_t wlen);

/* The folder's URL, for messages and result.json. */
const char *upload_folder(const struct upload *u);

/* Stops the worker if need be and frees everything. */
void upload_free(struct upload *u);

#endif
