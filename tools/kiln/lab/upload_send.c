/* SPDX-License-Identifier: MIT */
/*
 * Description: one try of one file of a run folder to the lab server
 * (see upload_private.h). Every PUT creates and never replaces
 * ("If-None-Match: *"); a WebDAV server that wants its folders first
 * (409) gets them by MKCOL; a 412 is either this very file, landed on an
 * earlier try whose answer was lost, or another's: what is there is read
 * back (GET) and compared as it comes, byte for byte, never held whole.
 * The queue, the retries and what is said are upload.c's.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/http.h"
#include "base/timing.h"
#include "lab/upload_private.h"

/*
 * WebDAV says a PUT into a missing folder is 409 Conflict (Apache's
 * mod_dav does so; nginx makes the folders with create_full_put_path):
 * then each folder below the base is made with MKCOL, and 405 means it
 * was there already.
 */
static int make_folders(const struct http_url *base, const atomic_int *stop,
			const struct upload_item *it, uint64_t deadline)
{
	size_t at = strlen(base->path);
	char path[HTTP_URL_PATH_MAX];
	const char *slash;

	for (;;) {
		struct http_request rq = { .method = "MKCOL", .path = path,
					   .cancel = stop };
		struct http_result res;
		int ret;

		slash = strchr(it->path + at, '/');
		if (!slash)
			return 0;
		at = (size_t)(slash - it->path) + 1;
		memcpy(path, it->path, at);
		path[at] = 0;
		rq.timeout_ms = timing_ms_left(deadline);
		ret = http_request(base, &rq, &res);
		if (ret && res.status != 405)
			return ret;
	}
}

/* An answer's body compared, as it comes, with an item's bytes. */
struct same {
	const struct upload_item *it;
	int fd;			/* it->file's, or -1 */
	uint64_t at;		/* bytes compared */
	int differ;
};

static void same_sink(void *arg, const char *p, size_t n)
{
	struct same *s = arg;
	char buf[4096];

	while (n && !s->differ) {
		size_t k = n < sizeof(buf) ? n : sizeof(buf);

		if (s->fd >= 0)
			s->differ = pread(s->fd, buf, k, (off_t)s->at) !=
				    (ssize_t)k || memcmp(buf, p, k);
		else
			s->differ = s->at + k > s->it->len ||
				    memcmp(s->it->data + s->at, p, k);
		s->at += k;
		p += k;
		n -= k;
	}
}

/*
 * After a 412: whether the file at the item's name holds its bytes, read
 * back and compared as they come (never held whole: samples.csv may be
 * hundreds of MB). 1 the same, 0 another file, -errno when it could not
 * be read (res says why).
 */
static int same_there(const struct http_url *base, const atomic_int *stop,
		      const struct upload_item *it, unsigned timeout_ms,
		      struct http_result *res)
{
	struct same s = { .it = it, .fd = -1 };
	struct http_request rq = {
		.method = "GET", .path = it->path, .timeout_ms = timeout_ms,
		.cancel = stop, .sink = same_sink, .sink_arg = &s,
	};
	uint64_t size = it->len;
	struct stat st;
	int ret;

	if (it->file) {
		s.fd = open(it->file, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
		if (s.fd < 0 || fstat(s.fd, &st)) {
			ret = -errno;
			snprintf(res->error, sizeof(res->error), "cannot read "
				 "%s: %s", it->file, strerror(-ret));
			if (s.fd >= 0)
				close(s.fd);
			return ret;
		}
		size = (uint64_t)st.st_size;
	}
	ret = http_request(base, &rq, res);
	if (s.fd >= 0)
		close(s.fd);
	if (ret)
		return ret;
	return !s.differ && s.at == size;
}

int upload_send(const struct http_url *base, const atomic_int *stop,
		struct upload_item *it, unsigned timeout_ms,
		struct http_result *res)
{
	uint64_t deadline = timing_now_ns() + timeout_ms * 1000000ull;
	struct http_request rq = {
		.method = "PUT", .path = it->path, .file = it->file,
		.body = it->data, .len = it->len, .timeout_ms = timeout_ms,
		.cancel = stop, .create_only = 1,
	};
	struct http_result got;
	int ret = http_request(base, &rq, res), same;

	if (ret == -EREMOTEIO && res->status == 409 &&
	    make_folders(base, stop, it, deadline) == 0) {
		rq.timeout_ms = timing_ms_left(deadline);
		ret = http_request(base, &rq, res);
	}
	if (ret != -EREMOTEIO || res->status != 412)
		return ret;
	/*
	 * The name is there: this file, landed on an earlier try, or not.
	 * Read back within the same deadline (a flush's bound holds); one
	 * that runs out is tried again, 412 and all, like any failure.
	 */
	same = same_there(base, stop, it, timing_ms_left(deadline), &got);
	if (same == 1) {
		it->landed = 1;
		return 0;
	}
	if (same == 0) {
		snprintf(res->error, sizeof(res->error), "another file of that "
			 "name is there (HTTP 412): not replaced");
		return -EEXIST;
	}
	snprintf(res->error, sizeof(res->error), "HTTP 412 Precondition "
		 "Failed, and what is there could not be read back: %s",
		 got.error);
	return same == -ECANCELED ? same : ret;
}
