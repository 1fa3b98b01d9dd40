/* SPDX-License-Identifier: MIT */
/*
 * Description: live metrics to a Prometheus Pushgateway (see metrics.h).
 * One worker thread and one slot for the next body under a lock that is
 * never held across the network: the burn's main loop hands in a new
 * body every interval and reads what the pusher has to say, and neither
 * ever waits for a server. The text pushed is metrics_text.c's.
 */
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/http.h"
#include "lab/metrics.h"
#include "lab/said.h"
#include "base/thread.h"
#include "base/timing.h"

/* Lines kept for the main thread to say. */
#define LINES 16
/* Between tries of the last push: it is the one that says the verdict. */
#define FINAL_PAUSE_MS 1000
#define FINAL_MARGIN_MS 100
/* A gateway that stays down is said again every this many pushes. */
#define SAY_EVERY 30
#define MS 1000000ull

struct metrics {
	struct http_url url;
	char path[HTTP_URL_PATH_MAX];	/* BASE/metrics/job/kiln/machine/ID */
	char where[HTTP_URL_PATH_MAX + HTTP_URL_HOST_MAX + 32];

	pthread_mutex_t lock;
	pthread_cond_t wake;		/* the worker: a body, or stop */
	pthread_cond_t changed;		/* metrics_finish: a push settled */
	pthread_t thread;
	int running;
	atomic_int stop;		/* metrics_free(): every push ends */
	atomic_int cut;			/* metrics_finish(): a push of before */

	/* Under lock from here on. */
	char *next;			/* the body to push next, or NULL */
	size_t next_len;
	int next_final;			/* it is the last push */
	int finishing;			/* metrics_finish() was called */
	int final_result;		/* 0 pending, 1 arrived, -errno: lost */
	uint64_t final_deadline;	/* timing_now_ns() */
	unsigned failing;		/* pushes failed in a row */
	struct metrics_stats st;

	struct said said;
};

/* --- The pusher ----------------------------------------------------- */

/* Under lock. */
__attribute__((format(printf, 2, 3)))
static void say(struct metrics *m, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	said_add(&m->said, fmt, ap);
	va_end(ap);
}

/*
 * A last push ends a little before its deadline, so that what it met is
 * settled and said when metrics_finish() gives up waiting.
 */
static unsigned final_ms(uint64_t deadline)
{
	unsigned left = timing_ms_left(deadline);

	return left > 2 * FINAL_MARGIN_MS ? left - FINAL_MARGIN_MS : left;
}

/* Under lock: after a push, what it means and what is said. */
static void settle(struct metrics *m, int ret, const struct http_result *res)
{
	int quiet;

	if (!ret) {
		if (m->failing)
			say(m, "metrics: %s: pushing again after %u failed "
			    "push%s", m->where, m->failing,
			    m->failing == 1 ? "" : "es");
		else if (!m->st.pushes)
			say(m, "metrics: pushing to %s", m->where);
		m->st.pushes++;
		m->failing = 0;
		m->st.last_error[0] = 0;
		return;
	}
	m->st.failures++;
	m->failing++;
	/* Said when it is news, and now and then while it lasts. */
	quiet = m->failing > 1 && !strcmp(m->st.last_error, res->error) &&
		m->failing % SAY_EVERY;
	snprintf(m->st.last_error, sizeof(m->st.last_error), "%s",
		 res->error[0] ? res->error : strerror(-ret));
	if (quiet)
		return;
	if (m->failing > 1)
		say(m, "metrics: %s: %s (%u pushes failed in a row)",
		    m->where, m->st.last_error, m->failing);
	else
		say(m, "metrics: %s: %s", m->where, m->st.last_error);
}

static void *worker(void *arg)
{
	struct metrics *m = arg;

	pthread_mutex_lock(&m->lock);
	while (!atomic_load(&m->stop)) {
		struct http_request rq = {
			.method = "PUT", .path = m->path,
			.type = "text/plain; version=0.0.4; charset=utf-8",
			.timeout_ms = METRICS_TIMEOUT_MS,
		};
		struct http_result res;
		char *body = m->next;
		int final = m->next_final, ret;

		if (!body) {
			pthread_cond_wait(&m->wake, &m->lock);
			continue;
		}
		m->next = NULL;
		/*
		 * The last push is the one that matters: metrics_finish() cuts
		 * short one of before that a slow gateway holds.
		 */
		rq.cancel = final ? &m->stop : &m->cut;
		if (final && timing_ms_left(m->final_deadline) < rq.timeout_ms)
			rq.timeout_ms = final_ms(m->final_deadline);
		rq.body = body;
		rq.len = m->next_len;
		pthread_mutex_unlock(&m->lock);
		ret = http_request(&m->url, &rq, &res);
		pthread_mutex_lock(&m->lock);
		if (ret == -ECANCELED) {
			free(body);
			if (!final)
				m->st.dropped++;
			pthread_cond_broadcast(&m->changed);
			continue;
		}
		settle(m, ret, &res);
		if (final && !ret) {
			m->final_result = 1;
		} else if (final && !m->next) {
			uint64_t now = timing_now_ns();

			/* A refusal (400: a bad body) stays a refusal. */
			if (now + FINAL_PAUSE_MS * MS >= m->final_deadline ||
			    (res.status >= 400 && res.status < 500)) {
				m->final_result = ret;
			} else {
				struct timespec ts;

				/* Tried again after a pause, unless stopped. */
				m->next = body;
				m->next_final = 1;
				body = NULL;
				ts = timing_ts(now + FINAL_PAUSE_MS * MS);
				pthread_cond_timedwait(&m->wake, &m->lock, &ts);
			}
		}
		free(body);
		pthread_cond_broadcast(&m->changed);
	}
	pthread_mutex_unlock(&m->lock);
	return NULL;
}

/* BASE/metrics/job/kiln/machine/ID: the gateway's API for one group. */
static int group_path(struct metrics *m, const char *machine)
{
	const char *seg[] = { "metrics", "job", "kiln", "machine",
			      machine[0] ? machine : "unknown" };
	size_t i;
	int ret;

	snprintf(m->path, sizeof(m->path), "%s", m->url.path);
	for (i = 0, ret = 0; i < sizeof(seg) / sizeof(seg[0]) && !ret; i++) {
		ret = http_url_add_slash(m->path, sizeof(m->path));
		if (!ret)
			ret = http_url_append_segment(m->path,
						      sizeof(m->path),
						      seg[i]);
	}
	return ret;
}

int metrics_start(struct metrics **mp, const struct http_url *url,
		  const char *machine, char *err, size_t len)
{
	struct metrics *m = calloc(1, sizeof(*m));
	int ret;

	*mp = NULL;
	if (!m) {
		snprintf(err, len, "out of memory");
		return -ENOMEM;
	}
	said_init(&m->said, LINES);
	m->url = *url;
	ret = group_path(m, machine ? machine : "");
	if (ret) {
		snprintf(err, len, "cannot push metrics for a machine named "
			 "'%s': %s", machine, strerror(-ret));
		free(m);
		return ret;
	}
	http_url_format(&m->url, m->path, m->where, sizeof(m->where));
	atomic_init(&m->stop, 0);
	atomic_init(&m->cut, 0);
	pthread_mutex_init(&m->lock, NULL);
	timing_cond_init(&m->wake);
	timing_cond_init(&m->changed);

	ret = thread_start(&m->thread, worker, m);
	if (ret) {
		snprintf(err, len, "cannot start the metrics pusher: %s",
			 strerror(-ret));
		metrics_free(m);
		return ret;
	}
	m->running = 1;
	*mp = m;
	return 0;
}

/* Under lock: body is next, in place of one not yet sent. */
static void queue(struct metrics *m, char *body, size_t len, int final)
{
	if (m->next) {
		free(m->next);
		m->st.dropped++;
	}
	m->next = body;
	m->next_len = len;
	m->next_final = final;
	pthread_cond_signal(&m->wake);
}

int metrics_update(struct metrics *m, const struct record *r,
		   const struct engine_counters *c)
{
	size_t len;
	/* Made before the lock is taken: the worker never waits on it. */
	char *body = metrics_text(r, c, &len);

	if (!body)
		return -ENOMEM;
	pthread_mutex_lock(&m->lock);
	if (m->finishing) {
		pthread_mutex_unlock(&m->lock);
		free(body);
		return -ESHUTDOWN;
	}
	queue(m, body, len, 0);
	pthread_mutex_unlock(&m->lock);
	return 0;
}

int metrics_finish(struct metrics *m, const struct record *r,
		   const struct engine_counters *c, unsigned timeout_ms)
{
	uint64_t deadline = timing_now_ns() + timeout_ms * MS;
	char *body;
	size_t len;
	int ret;

	body = metrics_text(r, c, &len);
	if (!body)
		return -ENOMEM;
	pthread_mutex_lock(&m->lock);
	atomic_store(&m->cut, 1);
	m->finishing = 1;
	m->final_result = 0;
	m->final_deadline = deadline;
	queue(m, body, len, 1);
	while (!m->final_result && m->running &&
	       timing_now_ns() < deadline) {
		struct timespec ts;

		ts = timing_ts(deadline);
		pthread_cond_timedwait(&m->changed, &m->lock, &ts);
	}
	ret = m->final_result == 1 ? 0 : m->final_result ? m->final_result :
	      -ETIMEDOUT;
	pthread_mutex_unlock(&m->lock);
	return ret;
}

int metrics_said(struct metrics *m, char *line, size_t len)
{
	int got;

	pthread_mutex_lock(&m->lock);
	got = said_take(&m->said, "metrics", line, len);
	pthread_mutex_unlock(&m->lock);
	return got;
}

void metrics_stats(struct metrics *m, struct metrics_stats *st)
{
	pthread_mutex_lock(&m->lock);
	*st = m->st;
	pthread_mutex_unlock(&m->lock);
}

void metrics_free(struct metrics *m)
{
	if (!m)
		return;
	if (m->running) {
		pthread_mutex_lock(&m->lock);
		atomic_store(&m->stop, 1);
		atomic_store(&m->cut, 1);
		pthread_cond_signal(&m->wake);
		pthread_mutex_unlock(&m->lock);
		pthread_join(m->thread, NULL);
		m->running = 0;
	}
	free(m->next);
	pthread_cond_destroy(&m->wake);
	pthread_cond_destroy(&m->changed);
	pthread_mutex_destroy(&m->lock);
	free(m);
}
