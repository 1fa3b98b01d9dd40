/* SPDX-License-Identifier: MIT */
/*
 * Description: live metrics to a Prometheus Pushgateway (see metrics.h).
 * One worker thread and one slot for the next body under a lock that is
 * never held across the network: the burn's main loop hands in a new
 * body every interval and reads what the pusher has to say, and neither
 * ever waits for a server.
 *
 * The phase is a number, not a label: a label that changes makes a new
 * series at each change (and PUT drops the old one), so a graph of a disk
 * would break at every phase; a number is one series per disk that a
 * Grafana state timeline maps to names (0 start, 1 write, 2 flush, 3
 * verify, 4 read, 5 end, as enum engine_phase). The engine's state and the
 * verdicts are numbers for the same reason. Every gauge of a disk carries
 * the same four labels, so any two of them join without relabelling.
 */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/http.h"
#include "base/json.h"
#include "lab/metrics.h"
#include "lab/said.h"
#include "base/thread.h"
#include "base/timing.h"
#include "base/version.h"

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

/* --- The text ------------------------------------------------------- */

/* The length of the character at s: 1 for ASCII, 0 when not UTF-8. */
static int utf8_len(const unsigned char *s)
{
	return *s < 0x80 ? 1 : (int)json_utf8_len(s);
}

/*
 * A label value as the format wants it: backslash, double quote and
 * newline escaped. The gateway refuses a push that is not UTF-8, so a
 * byte that is not (an odd one in a file's path) is the text \xNN, as
 * fleet writes it: two names stay two series (a '?' for each made them
 * one, and every push was refused).
 */
static void label_value(FILE *f, const char *v)
{
	const unsigned char *s = (const unsigned char *)(v ? v : "");
	int n;

	while (*s) {
		if (*s == '\\' || *s == '"') {
			fputc('\\', f);
			fputc(*s++, f);
		} else if (*s == '\n') {
			fputs("\\n", f);
			s++;
		} else if ((n = utf8_len(s)) > 0) {
			fwrite(s, 1, (size_t)n, f);
			s += n;
		} else {
			fprintf(f, "\\\\x%02x", *s++);
		}
	}
}

static void disk_labels(FILE *f, const struct record_disk *d)
{
	fputs("{disk=\"", f);
	label_value(f, d->label[0] ? d->label : d->path);
	fputs("\",serial=\"", f);
	label_value(f, d->t.id.serial);
	fputs("\",model=\"", f);
	label_value(f, d->t.id.model);
	fputs("\",identity=\"", f);
	label_value(f, d->t.id.identity);
	fputs("\"}", f);
}

static void head(FILE *f, const char *name, const char *help)
{
	fprintf(f, "# HELP %s %s\n# TYPE %s gauge\n", name, help, name);
}

/*
 * The verdict so far. The judge fails any I/O error or bad unit, and a
 * disk that stalled, vanished or never started: the counters show those
 * at once, not at the judge's next look.
 */
static int verdict_now(const struct record_disk *d,
		       const struct engine_counters *c)
{
	if (c->io_errors || c->bad_units || c->state == STATE_STALLED ||
	    c->state == STATE_VANISHED || c->state == STATE_BROKEN ||
	    c->state == STATE_NOT_STARTED)
		return JUDGE_FAIL;
	return d->j.verdict;
}

enum family {
	F_PHASE, F_PASS, F_STATE, F_WRITTEN, F_READ, F_RATE, F_IO_ERRORS,
	F_BAD_UNITS, F_TEMP, F_VERDICT, FAMILIES
};

static const struct {
	const char *name, *help;
} families[FAMILIES] = {
	[F_PHASE] = { "kiln_disk_phase", "The disk's phase: 0 start, 1 "
		      "write, 2 flush, 3 verify, 4 read, 5 end." },
	[F_PASS] = { "kiln_disk_pass", "The pass the disk is in, from 1." },
	[F_STATE] = { "kiln_disk_state", "The disk's burn: 0 running, 1 "
		      "done, 2 stopped early, 3 stalled, 4 vanished, 5 could "
		      "not start." },
	[F_WRITTEN] = { "kiln_disk_written_bytes", "Bytes written to the "
			"disk in this run." },
	[F_READ] = { "kiln_disk_read_bytes", "Bytes read from the disk in "
		     "this run." },
	[F_RATE] = { "kiln_disk_throughput_megabytes_per_second", "MB/s "
		     "written and read over the last interval." },
	[F_IO_ERRORS] = { "kiln_disk_io_errors", "Requests that failed with "
			  "an I/O error in this run." },
	[F_BAD_UNITS] = { "kiln_disk_bad_units", "Units (4 KiB) that read "
			  "back wrong in this run." },
	[F_TEMP] = { "kiln_disk_temperature_celsius", "The disk's "
		     "temperature, when it is known." },
	[F_VERDICT] = { "kiln_disk_verdict", "The disk's verdict so far: 0 "
			"PASS, 1 WARN, 2 FAIL." },
};

/* A disk's value of a family as text; 0 when it has none (unknown). */
static int disk_value(int fam, const struct record_disk *d,
		      const struct engine_counters *c, double temp, char *buf,
		      size_t len)
{
	double rate = d->mt ? d->mt->rate : 0;
	unsigned long long v;

	switch (fam) {
	case F_PHASE: v = (unsigned long long)c->phase; break;
	case F_PASS: v = c->pass; break;
	case F_STATE: v = (unsigned long long)c->state; break;
	case F_WRITTEN: v = c->bytes_written; break;
	case F_READ: v = c->bytes_read; break;
	case F_IO_ERRORS: v = c->io_errors; break;
	case F_BAD_UNITS: v = c->bad_units; break;
	case F_VERDICT: v = (unsigned long long)verdict_now(d, c); break;
	case F_RATE:
		snprintf(buf, len, "%.3f", isfinite(rate) && rate > 0 ? rate :
			 0.0);
		return 1;
	case F_TEMP:
		if (!isfinite(temp))
			return 0;
		snprintf(buf, len, "%.1f", temp);
		return 1;
	default:
		return 0;
	}
	snprintf(buf, len, "%llu", v);
	return 1;
}

static int run_state(const struct record *r)
{
	if (r->state == RECORD_RUNNING)
		return 0;
	return r->state == RECORD_INTERRUPTED ? 2 : 1;
}

/* The disk's latest temperature the sampler folded into the record. */
static double record_temp(const struct record_disk *d)
{
	return d->sig.temp_last == VITALS_NONE ? NAN : d->sig.temp_last;
}

char *metrics_text(const struct record *r, const struct engine_counters *c,
		   const double *temp_c, size_t *len)
{
	char *text = NULL, buf[64];
	size_t size = 0;
	int fam, i, verdict = r->verdict;
	FILE *f = open_memstream(&text, &size);

	if (!f)
		return NULL;
	for (fam = 0; fam < FAMILIES; fam++) {
		head(f, families[fam].name, families[fam].help);
		for (i = 0; i < r->n; i++) {
			const struct record_disk *d = &r->disks[i];
			const struct engine_counters *dc = c ? &c[i] :
							   &d->snap.c;

			if (!disk_value(fam, d, dc,
					temp_c ? temp_c[i] : record_temp(d),
					buf, sizeof(buf)))
				continue;
			fputs(families[fam].name, f);
			disk_labels(f, d);
			fprintf(f, " %s\n", buf);
			if (fam == F_VERDICT && verdict_now(d, dc) > verdict)
				verdict = verdict_now(d, dc);
		}
	}
	head(f, "kiln_run_state", "The run: 0 running, 1 complete, 2 "
	     "interrupted.");
	fprintf(f, "kiln_run_state %d\n", run_state(r));
	head(f, "kiln_run_verdict", "The run's verdict so far: 0 PASS, 1 "
	     "WARN, 2 FAIL.");
	fprintf(f, "kiln_run_verdict %d\n", verdict);
	head(f, "kiln_run_elapsed_seconds", "Seconds since the burn "
	     "started.");
	fprintf(f, "kiln_run_elapsed_seconds %.3f\n",
		timing_secs(r->elapsed_ns));
	head(f, "kiln_run_disks", "Disks in the run.");
	fprintf(f, "kiln_run_disks %d\n", r->n);
	head(f, "kiln_run_info", "The run's id, command and kiln's version.");
	snprintf(buf, sizeof(buf), "%016llx", (unsigned long long)r->run_id);
	fputs("kiln_run_info{run_id=\"", f);
	label_value(f, buf);
	fputs("\",command=\"", f);
	label_value(f, r->command);
	fputs("\",version=\"", f);
	label_value(f, version_string());
	fputs("\"} 1\n", f);
	if (fclose(f)) {
		free(text);
		return NULL;
	}
	if (len)
		*len = size;
	return text;
}

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

static int add_slash(char *s, size_t len)
{
	size_t n = strlen(s);

	if (n && s[n - 1] == '/')
		return 0;
	if (n + 1 >= len)
		return -ENAMETOOLONG;
	s[n] = '/';
	s[n + 1] = 0;
	return 0;
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
		ret = add_slash(m->path, sizeof(m->path));
		if (!ret)
			ret = http_url_append_segment(m->path,
						      sizeof(m->path),
						      seg[i]);
	}
	return ret;
}

int metrics_start(struct metrics **mp, const char *url, const char *machine,
		  char *err, size_t len)
{
	struct metrics *m = calloc(1, sizeof(*m));
	int ret;

	*mp = NULL;
	if (!m) {
		snprintf(err, len, "out of memory");
		return -ENOMEM;
	}
	said_init(&m->said, LINES);
	ret = http_url_parse(url, &m->url, err, len);
	if (ret) {
		free(m);
		return ret;
	}
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
		   const struct engine_counters *c, const double *temp_c)
{
	size_t len;
	/* Made before the lock is taken: the worker never waits on it. */
	char *body = metrics_text(r, c, temp_c, &len);

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
		   const struct engine_counters *c, const double *temp_c,
		   unsigned timeout_ms)
{
	uint64_t deadline = timing_now_ns() + timeout_ms * MS;
	char *body;
	size_t len;
	int ret;

	body = metrics_text(r, c, temp_c, &len);
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
