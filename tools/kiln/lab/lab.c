/* SPDX-License-Identifier: MIT */
/*
 * Description: the run handed to a lab's servers as it goes: the run
 * folder uploaded file by file, the gauges pushed every interval, and at
 * the end a bounded wait for both, with what never arrived said and kept.
 * The burn (burn.c) calls in at its moments; this file knows only what a
 * lab's server needs of them.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/complain.h"
#include "base/http.h"
#include "lab/lab.h"
#include "discover/machine.h"
#include "lab/metrics.h"
#include "base/timing.h"
#include "lab/upload.h"
#include "results/folder.h"
#include "results/result.h"

/*
 * How long the end waits for the server: with a stick the results are
 * safe there and the machine should not wait long; without one the
 * upload is the only copy, worth minutes.
 */
#define LAB_WAIT_MS (30 * 1000)
#define LAB_WAIT_ONLY_MS (150 * 1000)
/* A full queue (hundreds of bad-unit files): this long to drain it. */
#define LAB_DRAIN_MS (10 * 1000)
/* The last push of metrics: the verdict is worth a few tries. */
#define LAB_PUSH_MS (10 * 1000)
/* Between two tries of a server that does not answer yet. */
#define LAB_REACH_EVERY_S 5

/* Files refused by a full queue that are named one by one. */
#define LAB_DROPPED_MAX 16

struct lab {
	struct upload *up;
	struct metrics *m;
	const char *dir;	/* the local run folder */
	unsigned wait_ms;	/* the end's whole wait, settle and finish */
	uint64_t wait_end;	/* when it is over: set by lab_settle */
	FILE *con;
	/* files the queue would not take: never sent, said at the end */
	struct record_lost dropped[LAB_DROPPED_MAX];
	int ndropped;
};

/*
 * What is left of the end's wait. lab_settle may take two thirds of it,
 * so the last files (result.json, the summary) still get a try.
 */
static unsigned wait_left(const struct lab *l, int settling)
{
	uint64_t now = timing_now_ns();
	uint64_t left = l->wait_end > now ? (l->wait_end - now) / 1000000 : 0;

	if (settling)
		left = left * 2 / 3;
	return (unsigned)left;
}

static void say(const char *line, void *arg)
{
	FILE *con = arg;

	fprintf(con, "%s\n", line);
	fflush(con);
}

/* What the uploader and the pusher had to say since the last time. */
static void lab_say(struct lab *l)
{
	char line[512];

	while (l->up && upload_said(l->up, line, sizeof(line)))
		say(line, l->con);
	while (l->m && metrics_said(l->m, line, sizeof(line)))
		say(line, l->con);
}

static const char *base_name(const char *path, char *buf, size_t len)
{
	const char *slash;
	size_t n;

	n = strlen(path);
	while (n > 1 && path[n - 1] == '/')
		n--;
	snprintf(buf, len, "%.*s", (int)n, path);
	slash = strrchr(buf, '/');
	return slash ? slash + 1 : buf;
}

void lab_run_folder(const char *dir, uint64_t run_id, char *out, size_t len)
{
	char name[PATH_MAX], id[24];
	const char *b = base_name(dir, name, sizeof(name));

	snprintf(id, sizeof(id), "%016llx", (unsigned long long)run_id);
	if (strstr(b, id))
		snprintf(out, len, "%s", b);
	else
		snprintf(out, len, "%s-%s", b, id);
}

static void start_upload(struct lab *l, struct record *r)
{
	struct http_url url;
	char err[300], name[PATH_MAX];
	int ret;

	if (settings_url(r->s, r->s->upload, &url, err, sizeof(err)) ||
	    !r->out) {
		/* settings_check and the commands keep these out. */
		record_note(r, "upload: not started: %s", r->out ? err :
			    "no run folder");
		return;
	}
	lab_run_folder(r->out, r->run_id, name, sizeof(name));
	ret = upload_start(&l->up, &url, r->machine, name, 0, err,
			   sizeof(err));
	if (ret) {
		complain("upload: cannot start: %s", err);
		record_note(r, "upload: not started: %s", err);
		l->up = NULL;
		return;
	}
	snprintf(r->lab.upload, sizeof(r->lab.upload), "%s",
		 upload_folder(l->up));
	fprintf(l->con, "kiln: results go to %s as the run goes\n",
		r->lab.upload);
}

static void start_metrics(struct lab *l, struct record *r)
{
	struct http_url url;
	char err[300];

	if (settings_url(r->s, r->s->metrics, &url, err, sizeof(err)) ||
	    metrics_start(&l->m, &url, r->machine, err, sizeof(err))) {
		complain("metrics: cannot start: %s", err);
		record_note(r, "metrics: not started: %s", err);
		l->m = NULL;
		return;
	}
	/* The URL as people see it: never its user part. */
	http_url_format(&url, NULL, r->lab.metrics, sizeof(r->lab.metrics));
	fprintf(l->con, "kiln: metrics to %s every %u s as machine %s\n",
		r->lab.metrics, r->s->interval, r->machine);
}

void lab_start(struct lab **lp, struct record *r, FILE *con)
{
	struct lab *l;

	*lp = NULL;
	if (!r->s->upload && !r->s->metrics)
		return;
	l = calloc(1, sizeof(*l));
	if (!l) {
		complain("out of memory: no upload, no metrics");
		return;
	}
	l->con = con;
	l->dir = r->out;
	l->wait_ms = r->lab.upload_only ? LAB_WAIT_ONLY_MS : LAB_WAIT_MS;
	if (!r->machine[0])
		lab_machine_id(r->machine, sizeof(r->machine));
	if (r->s->upload)
		start_upload(l, r);
	if (r->s->metrics)
		start_metrics(l, r);
	*lp = l;
}

/* A file the queue would not take: never silent, never "arrived". */
static void dropped(struct lab *l, const char *name, int err)
{
	struct record_lost *d = &l->dropped[l->ndropped < LAB_DROPPED_MAX ?
					    l->ndropped : LAB_DROPPED_MAX - 1];

	complain("upload: %s not queued: %s", name, err == -ENOBUFS ?
		 "the queue stayed full" : strerror(-err));
	if (l->ndropped < LAB_DROPPED_MAX)
		l->ndropped++;
	snprintf(d->name, sizeof(d->name), "%s", name);
	snprintf(d->why, sizeof(d->why), "never sent: %s", err == -ENOBUFS ?
		 "the upload queue stayed full" : strerror(-err));
}

/* A newer copy of a dropped file was taken: that one is not lost. */
static void taken(struct lab *l, const char *name)
{
	int i;

	for (i = 0; i < l->ndropped; i++)
		if (!strcmp(l->dropped[i].name, name))
			l->dropped[i--] = l->dropped[--l->ndropped];
}

void lab_put(struct lab *l, const char *name, const void *data, size_t len)
{
	int ret;

	if (!l || !l->up)
		return;
	ret = upload_put_data(l->up, name, data, len);
	/* A queue full of bad units' files: let some go, then again. */
	if (ret == -ENOBUFS) {
		upload_flush(l->up, LAB_DRAIN_MS, say, l->con);
		ret = upload_put_data(l->up, name, data, len);
	}
	if (ret)
		dropped(l, name, ret);
	else
		taken(l, name);
	lab_say(l);
}

void lab_put_file(struct lab *l, const char *name)
{
	char path[PATH_MAX];
	int ret;

	if (!l || !l->up || !l->dir)
		return;
	snprintf(path, sizeof(path), "%s/%s", l->dir, name);
	if (access(path, R_OK))
		return;
	ret = upload_put_file(l->up, name, path);
	if (ret == -ENOBUFS) {
		upload_flush(l->up, LAB_DRAIN_MS, say, l->con);
		ret = upload_put_file(l->up, name, path);
	}
	if (ret)
		dropped(l, name, ret);
	else
		taken(l, name);
}

/* A file of the local run folder, whole, in memory: NULL when it cannot be. */
static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "re");
	char *buf = NULL, *p;
	size_t cap = 0, n;

	*len = 0;
	if (!f)
		return NULL;
	for (;;) {
		if (*len == cap) {
			if (cap >= UPLOAD_MAX_BYTES)
				break;
			p = realloc(buf, cap = cap ? cap * 2 : 65536);
			if (!p)
				break;
			buf = p;
		}
		n = fread(buf + *len, 1, cap - *len, f);
		if (!n) {
			if (ferror(f))
				break;
			fclose(f);
			return buf;
		}
		*len += n;
	}
	fclose(f);
	free(buf);
	return NULL;
}

static void put_progress(struct lab *l, const char *slot, const char *name,
			 const void *data, size_t len)
{
	int ret = upload_put_progress(l->up, slot, name, data, len), i;
	size_t kind;

	if (ret == -ENOBUFS) {
		upload_flush(l->up, LAB_DRAIN_MS, say, l->con);
		ret = upload_put_progress(l->up, slot, name, data, len);
	}
	if (ret) {
		dropped(l, name, ret);
		return;
	}
	/* A newer one was taken: an older one dropped is not lost. */
	kind = strcspn(name, "0123456789");
	for (i = 0; i < l->ndropped; i++)
		if (!strncmp(l->dropped[i].name, name, kind))
			l->dropped[i--] = l->dropped[--l->ndropped];
}

void lab_progress(struct lab *l, uint64_t seq, const char *checkpoint,
		  const char *summary, size_t len)
{
	char path[PATH_MAX], name[64], *doc;
	size_t dlen;

	if (!l || !l->up || !l->dir)
		return;
	/* Copied now: the local file is written over two checkpoints on. */
	snprintf(path, sizeof(path), "%s/%s", l->dir, checkpoint);
	doc = slurp(path, &dlen);
	if (doc && !folder_progress_name("checkpoint", seq, "json", name,
					 sizeof(name)))
		put_progress(l, "checkpoint", name, doc, dlen);
	free(doc);
	if (summary && !folder_progress_name("summary", seq, "txt", name,
					     sizeof(name)))
		put_progress(l, "summary", name, summary, len);
	lab_say(l);
}

void lab_tick(struct lab *l, struct record *r)
{
	if (!l)
		return;
	if (l->m)
		metrics_update(l->m, r, NULL);
	lab_say(l);
}

static void add_lost(struct record *r, const struct record_lost *one)
{
	struct record_lost *grown = realloc(r->lab.lost,
					    (size_t)(r->lab.nlost + 1) *
					    sizeof(*grown));

	if (grown) {
		r->lab.lost = grown;
		r->lab.lost[r->lab.nlost++] = *one;
	}
}

/* What has not arrived, into the record: never queued, then never sent. */
static void keep_lost(struct lab *l, struct record *r)
{
	struct record_lost one;
	int i;

	r->lab.nlost = 0;
	for (i = 0; i < l->ndropped; i++)
		add_lost(r, &l->dropped[i]);
	for (i = 0; upload_lost(l->up, i, one.name, sizeof(one.name), one.why,
				sizeof(one.why)) == 0; i++)
		add_lost(r, &one);
}

void lab_settle(struct lab *l, struct record *r)
{
	struct metrics_stats st;

	if (!l)
		return;
	if (l->m) {
		metrics_finish(l->m, r, NULL, LAB_PUSH_MS);
		metrics_stats(l->m, &st);
		r->lab.pushes = st.pushes;
		r->lab.push_failures = st.failures;
		snprintf(r->lab.push_error, sizeof(r->lab.push_error), "%s",
			 st.last_error);
	}
	l->wait_end = timing_now_ns() + (uint64_t)l->wait_ms * 1000000;
	if (l->up) {
		lab_put_file(l, "samples.csv");
		lab_put_file(l, "kmsg.log");
		fprintf(l->con, "kiln: waiting for %s (at most %u s)\n",
			r->lab.upload, l->wait_ms / 1000);
		fflush(l->con);
		upload_flush(l->up, wait_left(l, 1), say, l->con);
		keep_lost(l, r);
	}
	lab_say(l);
}

void lab_finish(struct lab *l, struct record *r)
{
	char name[128], why[240];
	int i;

	if (!l)
		return;
	if (!l->up) {
		/* It never started: without a stick, nothing is anywhere. */
		if (r->lab.upload_only) {
			r->results_lost = 1;
			complain("cannot write the results: the upload did not "
				 "start, and it is the only results medium (no "
				 "stick)");
		}
		return;
	}
	if (upload_flush(l->up, wait_left(l, 0), say, l->con) == 0 &&
	    !l->ndropped) {
		fprintf(l->con, "kiln: every file is at %s\n", r->lab.upload);
		return;
	}
	upload_stop(l->up);
	for (i = 0; upload_lost(l->up, i, name, sizeof(name), why,
				sizeof(why)) == 0; i++)
		complain("upload: %s never arrived at %s: %s", name,
			 r->lab.upload, why);
	if (r->lab.upload_only) {
		r->results_lost = 1;
		complain("cannot write the results: the lab server is the "
			 "only results medium (no stick)");
	}
}

void lab_free(struct lab *l)
{
	if (!l)
		return;
	upload_free(l->up);
	metrics_free(l->m);
	free(l);
}

int lab_reach(const struct settings *s, unsigned seconds, FILE *con)
{
	struct http_request rq = { .method = "GET", .timeout_ms = 5000 };
	uint64_t end = timing_now_ns() + (uint64_t)seconds * TIMING_SEC;
	struct http_result res;
	struct http_url url;
	char err[300], upload[HTTP_URL_HOST_MAX + HTTP_URL_PATH_MAX + 16];
	int ret, said = 0;

	if (settings_url(s, s->upload, &url, err, sizeof(err))) {
		complain("upload: %s", err);
		return -EINVAL;
	}
	http_url_format(&url, NULL, upload, sizeof(upload));
	for (;;) {
		ret = http_request(&url, &rq, &res);
		/* Any answer at all: a server is there. */
		if (ret == 0 || ret == -EREMOTEIO)
			return 0;
		if (timing_now_ns() >= end)
			break;
		if (!said++)
			fprintf(con, "kiln: the lab server %s does not answer "
				"(%s): trying for %u s\n", upload, res.error,
				seconds);
		fflush(con);
		sleep(LAB_REACH_EVERY_S);
	}
	complain("cannot reach the lab server %s in %u s: %s", upload,
		 seconds, res.error);
	return ret;
}

int lab_send_folder(const struct settings *s, const char *machine,
		    const char *dir, FILE *con)
{
	struct result_record rec = { 0 };
	struct upload *up = NULL;
	struct http_url url;
	struct dirent *e;
	char err[300], name[PATH_MAX], path[PATH_MAX], why[240];
	struct stat st;
	DIR *d;
	int ret, i;

	if (settings_url(s, s->upload, &url, err, sizeof(err)))
		return -EINVAL;
	/* The run id, so the folder is the one its progress went to. */
	if (result_load(dir, &rec, err, sizeof(err)) == 0) {
		lab_run_folder(dir, rec.run_id, name, sizeof(name));
		result_record_free(&rec);
	} else {
		snprintf(name, sizeof(name), "%s",
			 base_name(dir, path, sizeof(path)));
	}
	ret = upload_start(&up, &url, machine, name, 0, err, sizeof(err));
	if (ret) {
		complain("upload: cannot start: %s", err);
		return ret;
	}
	d = opendir(dir);
	while (d && (e = readdir(d))) {
		if (e->d_name[0] == '.' ||
		    !strcmp(e->d_name, folder_checkpoints[0]) ||
		    !strcmp(e->d_name, folder_checkpoints[1]))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		/* Never a link: what it points at is no file of the run's. */
		if (lstat(path, &st) || !S_ISREG(st.st_mode))
			continue;
		if (upload_put_file(up, e->d_name, path) == -ENOBUFS) {
			upload_flush(up, LAB_DRAIN_MS, say, con);
			upload_put_file(up, e->d_name, path);
		}
	}
	if (d)
		closedir(d);
	ret = upload_flush(up, LAB_WAIT_MS, say, con);
	upload_stop(up);
	for (i = 0; upload_lost(up, i, name, sizeof(name), why,
				sizeof(why)) == 0; i++)
		complain("upload: %s/%s never arrived: %s", dir, name, why);
	if (!ret)
		fprintf(con, "kiln: %s is at %s\n", dir, upload_folder(up));
	upload_free(up);
	return ret;
}
