/* SPDX-License-Identifier: MIT */
/*
 * Description: the uploader of a run folder (see upload.h). One worker
 * thread and a queue under one lock; the lock is never held across the
 * network, so the burn's main loop, which queues a checkpoint every
 * minute and reads the uploader's lines every second, never waits for a
 * server. Memory is bounded: one entry per name, a cap on names and on
 * copied bytes, and a ring of the last lines said.
 *
 * Every PUT creates and never replaces ("If-None-Match: *"): a server
 * that has the name already answers 412. That is either this very file,
 * a try whose answer was lost but which had landed, or another's: the
 * file there is read back (GET) and compared, byte for byte, with what
 * this one holds (one try is upload_send.c's). The same bytes have
 * arrived; others are a collision, said, never retried and never
 * replaced, and the file stays in the run folder it was written to.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/thread.h"
#include "base/timing.h"
#include "lab/said.h"
#include "lab/upload.h"
#include "lab/upload_private.h"

struct upload {
	struct http_url base;
	char folder[HTTP_URL_PATH_MAX];	/* base path/machine/run/, encoded */
	char url[HTTP_URL_PATH_MAX + HTTP_URL_HOST_MAX + 32];
	unsigned timeout_ms;

	pthread_mutex_t lock;
	pthread_cond_t wake;		/* the worker: work, flush or stop */
	pthread_cond_t changed;		/* flushers: a line said, a file gone */
	pthread_t thread;
	int running;
	atomic_int stop;

	/* Under lock from here on. */
	struct upload_item *head, *tail;	/* waiting, oldest first */
	struct upload_item *inflight;		/* on its way, off the queue */
	struct upload_item *collided;		/* another file had the name: kept */
	int queued;
	/* copied bytes waiting or on their way */
	size_t bytes;
	unsigned server_delay;		/* seconds: no answer came */
	uint64_t server_next;		/* nothing is tried before this */
	int flushing;
	uint64_t flush_deadline;
	int worked;			/* a file has arrived */

	struct said said;
};

/* Under lock. */
__attribute__((format(printf, 2, 3)))
static void say(struct upload *u, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	said_add(&u->said, fmt, ap);
	va_end(ap);
	pthread_cond_broadcast(&u->changed);
}

static void free_item(struct upload_item *it)
{
	if (!it)
		return;
	free(it->name);
	free(it->slot);
	free(it->path);
	free(it->file);
	free(it->data);
	free(it);
}

/* Whether it is what slot (progress) or else name names. */
static int same_item(const struct upload_item *it, const char *slot,
		     const char *name)
{
	if (slot || it->slot)
		return slot && it->slot && !strcmp(it->slot, slot);
	return !strcmp(it->name, name);
}

static struct upload_item *find(struct upload *u, const char *slot,
				const char *name)
{
	struct upload_item *it;

	for (it = u->head; it; it = it->next)
		if (same_item(it, slot, name))
			return it;
	return NULL;
}

static void append(struct upload *u, struct upload_item *it)
{
	it->next = NULL;
	if (u->tail)
		u->tail->next = it;
	else
		u->head = it;
	u->tail = it;
	u->queued++;
}

static void unlink_item(struct upload *u, struct upload_item *it)
{
	struct upload_item **pp, *prev = NULL;

	for (pp = &u->head; *pp; prev = *pp, pp = &(*pp)->next)
		if (*pp == it) {
			*pp = it->next;
			if (u->tail == it)
				u->tail = prev;
			u->queued--;
			return;
		}
}

static unsigned next_delay(unsigned d)
{
	return !d ? 1 : d * 2 > UPLOAD_DELAY_MAX ? UPLOAD_DELAY_MAX : d * 2;
}

/* Under lock: the first file due, taken off the queue; or when to look. */
static struct upload_item *next_due(struct upload *u, uint64_t now,
				    uint64_t *when)
{
	struct upload_item *it;

	*when = 0;
	if (!u->head)
		return NULL;
	if (now < u->server_next) {
		*when = u->server_next;
		return NULL;
	}
	for (it = u->head; it; it = it->next) {
		if (it->next_try <= now) {
			unlink_item(u, it);
			return it;
		}
		if (!*when || it->next_try < *when)
			*when = it->next_try;
	}
	return NULL;
}

/* Under lock: after a try, the file is gone, or waits again. */
static void settle(struct upload *u, struct upload_item *it, int ret,
		   const struct http_result *res)
{
	uint64_t now = timing_now_ns();
	struct upload_item *newer = find(u, it->slot, it->name);
	unsigned wait;
	int quiet;

	if (!ret) {
		if (it->landed)
			say(u, "upload: %s to %s: there already with the same "
			    "bytes (a try that landed)", it->name, u->url);
		else if (it->tries)
			say(u, "upload: %s to %s: arrived after %u failed "
			    "tr%s", it->name, u->url, it->tries,
			    it->tries == 1 ? "y" : "ies");
		else if (!u->worked)
			say(u, "upload: %s to %s: arrived (HTTP %d)", it->name,
			    u->url, res->status);
		u->worked = 1;
		u->server_delay = 0;
		if (it->data)
			u->bytes -= it->len;
		free_item(it);
		return;
	}
	if (ret == -EEXIST) {
		/* Never retried, never replaced: kept where it was written. */
		snprintf(it->why, sizeof(it->why), "%s", res->error);
		say(u, "upload: %s to %s: %s; this one is kept where it was "
		    "written", it->name, u->url, it->why);
		if (it->data)
			u->bytes -= it->len;
		free(it->data);
		it->data = NULL;
		it->len = 0;
		it->next = u->collided;
		u->collided = it;
		return;
	}
	if (ret == -ECANCELED) {
		/* Stopped: what it was waiting for then is the news. */
		snprintf(it->why, sizeof(it->why), "%s", res->error);
	} else {
		/* Say it when it is news; at the longest pause now and then. */
		quiet = it->tries && !strcmp(it->why, res->error);
		it->tries++;
		snprintf(it->why, sizeof(it->why), "%s", res->error);
		if (res->status) {
			/* The server answered: this file's own trouble. */
			u->server_delay = 0;
			it->delay = next_delay(it->delay);
			wait = it->delay;
			it->next_try = now + wait * TIMING_SEC;
		} else {
			/* No answer: the server's trouble, every file waits. */
			u->server_delay = next_delay(u->server_delay);
			wait = u->server_delay;
			u->server_next = now + wait * TIMING_SEC;
			it->next_try = now;
		}
		quiet = quiet && wait == UPLOAD_DELAY_MAX && it->tries % 10;
		if (!quiet)
			say(u, "upload: %s to %s: %s, retrying in %u s",
			    it->name, u->url, it->why, wait);
	}
	/* A newer version came meanwhile: it goes instead, when this would. */
	if (newer) {
		newer->tries = it->tries;
		newer->delay = it->delay;
		if (newer->next_try < it->next_try)
			newer->next_try = it->next_try;
		memcpy(newer->why, it->why, sizeof(newer->why));
		if (it->data)
			u->bytes -= it->len;
		free_item(it);
		return;
	}
	append(u, it);
}

static uint64_t body_size(const struct upload_item *it)
{
	struct stat st;

	if (!it->file)
		return it->len;
	return stat(it->file, &st) ? 0 : (uint64_t)st.st_size;
}

static void *worker(void *arg)
{
	struct upload *u = arg;

	pthread_mutex_lock(&u->lock);
	while (!atomic_load(&u->stop)) {
		uint64_t now = timing_now_ns(), when, ms, flush_deadline;
		struct http_result res;
		struct upload_item *it = next_due(u, now, &when);
		int ret;

		if (!it) {
			struct timespec ts;

			ts = timing_ts(when);
			if (when)
				pthread_cond_timedwait(&u->wake, &u->lock, &ts);
			else
				pthread_cond_wait(&u->wake, &u->lock);
			continue;
		}
		u->inflight = it;
		flush_deadline = u->flushing ? u->flush_deadline : 0;
		pthread_mutex_unlock(&u->lock);
		ms = u->timeout_ms + (body_size(it) >> 20) * 1000;
		/* A flush's deadline bounds what is tried during it. */
		if (flush_deadline && ms > timing_ms_left(flush_deadline))
			ms = timing_ms_left(flush_deadline);
		ret = upload_send(&u->base, &u->stop, it,
				  ms > 86400000 ? 86400000 : (unsigned)ms,
				  &res);
		pthread_mutex_lock(&u->lock);
		u->inflight = NULL;
		settle(u, it, ret, &res);
		pthread_cond_broadcast(&u->changed);
	}
	pthread_mutex_unlock(&u->lock);
	return NULL;
}

int upload_start(struct upload **up, const struct http_url *base,
		 const char *machine, const char *run, unsigned timeout_ms,
		 char *err, size_t len)
{
	struct upload *u = calloc(1, sizeof(*u));
	int ret;

	*up = NULL;
	if (!u) {
		snprintf(err, len, "out of memory");
		return -ENOMEM;
	}
	said_init(&u->said, SAID_LINES);
	u->base = *base;
	u->timeout_ms = timeout_ms ? timeout_ms : UPLOAD_TIMEOUT_MS;
	/* The base is a folder, whether or not it was written with a '/'. */
	ret = http_url_add_slash(u->base.path, sizeof(u->base.path));
	snprintf(u->folder, sizeof(u->folder), "%s", u->base.path);
	if (!ret)
		ret = http_url_append_segment(u->folder, sizeof(u->folder),
					      machine);
	if (!ret)
		ret = http_url_add_slash(u->folder, sizeof(u->folder));
	if (!ret)
		ret = http_url_append_segment(u->folder, sizeof(u->folder),
					      run);
	if (!ret)
		ret = http_url_add_slash(u->folder, sizeof(u->folder));
	if (ret) {
		snprintf(err, len, "cannot upload to a folder named '%s/%s': "
			 "%s", machine, run, strerror(-ret));
		free(u);
		return ret;
	}
	http_url_format(&u->base, u->folder, u->url, sizeof(u->url));
	atomic_init(&u->stop, 0);
	pthread_mutex_init(&u->lock, NULL);
	timing_cond_init(&u->wake);
	timing_cond_init(&u->changed);

	ret = thread_start(&u->thread, worker, u);
	if (ret) {
		snprintf(err, len, "cannot start the uploader: %s",
			 strerror(-ret));
		u->running = 0;
		upload_free(u);
		return ret;
	}
	u->running = 1;
	*up = u;
	return 0;
}

static int enqueue(struct upload *u, const char *slot, const char *name,
		   char *file, char *data, size_t len)
{
	char path[HTTP_URL_PATH_MAX], *nname = NULL, *npath = NULL;
	struct upload_item *it, *old;
	int ret = 0, known;

	snprintf(path, sizeof(path), "%s", u->folder);
	ret = http_url_append_name(path, sizeof(path), name);
	if (ret) {
		free(file);
		free(data);
		return ret;
	}
	pthread_mutex_lock(&u->lock);
	old = find(u, slot, name);
	/* A version on its way merges with this one when it is done. */
	known = old || (u->inflight && same_item(u->inflight, slot, name));
	if (old && slot && strcmp(old->name, name)) {
		/* A newer progress file, under a name of its own. */
		nname = strdup(name);
		npath = strdup(path);
		if (!nname || !npath)
			ret = -ENOMEM;
	}
	if (ret) {
		/* No memory for the newer name: the older one stays. */
	} else if (atomic_load(&u->stop)) {
		ret = -ESHUTDOWN;
	} else if (u->bytes - (old && old->data ? old->len : 0) + len >
		   UPLOAD_MAX_BYTES ||
		   (!known && u->queued + !!u->inflight >= UPLOAD_MAX_FILES)) {
		ret = -ENOBUFS;
		say(u, "upload: %s not queued: %d files and %zu MiB are "
		    "waiting already", name, u->queued + !!u->inflight,
		    u->bytes >> 20);
	} else if (old) {
		/* The newer version waits in the older one's place. */
		if (old->data)
			u->bytes -= old->len;
		free(old->file);
		free(old->data);
		old->file = file;
		old->data = data;
		old->len = len;
		u->bytes += len;
		file = data = NULL;
		if (nname) {
			free(old->name);
			free(old->path);
			old->name = nname;
			old->path = npath;
			nname = npath = NULL;
		}
	} else {
		it = calloc(1, sizeof(*it));
		if (it) {
			it->name = strdup(name);
			it->path = strdup(path);
			it->slot = slot ? strdup(slot) : NULL;
		}
		if (!it || !it->name || !it->path || (slot && !it->slot)) {
			free_item(it);
			ret = -ENOMEM;
		} else {
			it->file = file;
			it->data = data;
			it->len = len;
			it->next_try = timing_now_ns();
			u->bytes += len;
			file = data = NULL;
			append(u, it);
			pthread_cond_signal(&u->wake);
		}
	}
	pthread_mutex_unlock(&u->lock);
	free(nname);
	free(npath);
	free(file);
	free(data);
	return ret;
}

int upload_put_progress(struct upload *u, const char *slot, const char *name,
			const void *data, size_t len)
{
	char *copy;

	if (len > UPLOAD_MAX_BYTES)
		return -ENOBUFS;
	/* Copied before the lock is taken: the worker never waits on it. */
	copy = malloc(len ? len : 1);
	if (!copy)
		return -ENOMEM;
	memcpy(copy, data, len);
	return enqueue(u, slot, name, NULL, copy, len);
}

int upload_put_data(struct upload *u, const char *name, const void *data,
		    size_t len)
{
	return upload_put_progress(u, NULL, name, data, len);
}

int upload_put_file(struct upload *u, const char *name, const char *path)
{
	char *copy = strdup(path);

	if (!copy)
		return -ENOMEM;
	return enqueue(u, NULL, name, copy, NULL, 0);
}

int upload_said(struct upload *u, char *line, size_t len)
{
	int got;

	pthread_mutex_lock(&u->lock);
	got = said_take(&u->said, "upload", line, len);
	pthread_mutex_unlock(&u->lock);
	return got;
}

int upload_pending(struct upload *u)
{
	int n;

	pthread_mutex_lock(&u->lock);
	n = u->queued + !!u->inflight;
	pthread_mutex_unlock(&u->lock);
	return n;
}

int upload_flush(struct upload *u, unsigned timeout_ms,
		 void (*say_fn)(const char *line, void *arg), void *arg)
{
	uint64_t now = timing_now_ns();
	uint64_t deadline = now + timeout_ms * 1000000ull;
	struct upload_item *it;
	int ret;

	pthread_mutex_lock(&u->lock);
	/* The end is when results matter most: no pause is waited out. */
	u->flushing = 1;
	u->flush_deadline = deadline;
	u->server_delay = 0;
	u->server_next = 0;
	for (it = u->head; it; it = it->next) {
		it->next_try = now;
		it->delay = 0;
	}
	pthread_cond_signal(&u->wake);
	for (;;) {
		char line[SAID_MAX];
		struct timespec ts;

		while (say_fn && said_take(&u->said, "upload", line,
					       sizeof(line))) {
			pthread_mutex_unlock(&u->lock);
			say_fn(line, arg);
			pthread_mutex_lock(&u->lock);
		}
		if (!u->queued && !u->inflight) {
			ret = u->collided ? -EEXIST : 0;
			break;
		}
		if (timing_now_ns() >= deadline || !u->running) {
			ret = -ETIMEDOUT;
			break;
		}
		ts = timing_ts(deadline);
		pthread_cond_timedwait(&u->changed, &u->lock, &ts);
	}
	u->flushing = 0;
	pthread_mutex_unlock(&u->lock);
	return ret;
}

void upload_stop(struct upload *u)
{
	if (!u->running)
		return;
	pthread_mutex_lock(&u->lock);
	atomic_store(&u->stop, 1);
	pthread_cond_signal(&u->wake);
	pthread_mutex_unlock(&u->lock);
	pthread_join(u->thread, NULL);
	u->running = 0;
}

int upload_lost(struct upload *u, int i, char *name, size_t nlen, char *why,
		size_t wlen)
{
	struct upload_item *it;
	int ret = -ENOENT;

	if (i < 0)
		return -ENOENT;
	pthread_mutex_lock(&u->lock);
	if (u->inflight && i == 0) {
		it = u->inflight;
	} else {
		i -= !!u->inflight;
		for (it = u->head; it && i > 0; i--)
			it = it->next;
		/* Then those another file's name stood in the way of. */
		for (it = it ? it : u->collided; it && i > 0; i--)
			it = it->next;
	}
	if (it) {
		snprintf(name, nlen, "%s", it->name);
		snprintf(why, wlen, "%s", it->why[0] ? it->why :
			 "never tried: no time was left");
		ret = 0;
	}
	pthread_mutex_unlock(&u->lock);
	return ret;
}

const char *upload_folder(const struct upload *u)
{
	return u->url;
}

void upload_free(struct upload *u)
{
	struct upload_item *it, *next;

	if (!u)
		return;
	upload_stop(u);
	for (it = u->head; it; it = next) {
		next = it->next;
		free_item(it);
	}
	for (it = u->collided; it; it = next) {
		next = it->next;
		free_item(it);
	}
	pthread_cond_destroy(&u->wake);
	pthread_cond_destroy(&u->changed);
	pthread_mutex_destroy(&u->lock);
	free(u);
}
