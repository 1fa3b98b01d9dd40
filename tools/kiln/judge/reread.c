/* SPDX-License-Identifier: MIT */
/*
 * Description: request latency judged (see reread.h): after the burn, the
 * regions of each disk's slowest requests are read again, alone, at qd 1,
 * 4 KiB at a time, through the target's own O_DIRECT descriptor, each
 * disk in a thread of its own under the burn's deadline; the times land
 * on the surface scanners' grid. Also the "latency" and "reread" of
 * result.json and the summary's line.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/deadline.h"
#include "base/json.h"
#include "base/unit.h"
#include "judge/record.h"
#include "judge/peers.h"
#include "judge/reread.h"
#include "base/timing.h"

#define MS 1000000ull

const unsigned reread_grid_ms[REREAD_GRID - 1] = { 5, 20, 50, 150, 500 };

/* One disk's re-read: its thread's own, left to it if it hangs. */
struct job {
	int fd;				/* a dup of the target's */
	uint64_t budget_ns;
	atomic_int *stop;
	atomic_uint_fast64_t at;	/* the offset being read */
	struct reread out;
};

static unsigned grid_of(uint64_t ns)
{
	unsigned g = 0;

	while (g < REREAD_GRID - 1 && ns >= reread_grid_ms[g] * MS)
		g++;
	return g;
}

/* Reads at most this many units in one child (deadline_preads). */
#define BATCH 256

/* Reads region g again, unit by unit: 0, or 1 when it had to stop. */
static int read_region(struct job *jb, struct reread_region *g,
		       struct deadline_read *reads, uint64_t t0)
{
	struct reread *o = &jb->out;
	uint64_t off = g->offset, end = g->offset + g->length;
	int i, made;

	while (off + o->size <= end) {
		unsigned n = (unsigned)((end - off) / o->size);

		if (atomic_load(jb->stop)) {
			snprintf(o->why, sizeof(o->why), "interrupted");
			return 1;
		}
		if (n > BATCH)
			n = BATCH;
		atomic_store(&jb->at, off);
		/*
		 * In a child, timed there (deadline.h): a disk that never
		 * answers holds no thread of kiln's, so kiln can still exit.
		 */
		made = deadline_preads(jb->fd, o->size, n, (off_t)off,
				       t0 + jb->budget_ns, reads);
		for (i = 0; i < made; i++, off += o->size) {
			const struct deadline_read *rd = &reads[i];

			if (rd->ret != (long)o->size) {
				if (!o->errors++ || !g->err) {
					g->err = rd->ret < 0 ? (int)-rd->ret :
							       EIO;
					g->err_at = off;
				}
				continue;
			}
			g->reads++;
			o->grid[grid_of(rd->ns)]++;
			latency_add(&o->times, rd->ns);
			if (rd->ns > g->max_ns) {
				g->max_ns = rd->ns;
				g->max_at = off;
			}
		}
		if (made < (int)n) {
			snprintf(o->why, sizeof(o->why), made < 0 ?
				 "cannot read it again (out of memory)" :
				 "the deadline (%llu s) ran out",
				 (unsigned long long)(jb->budget_ns /
						      TIMING_SEC));
			return 1;
		}
	}
	return 0;
}

static void reread_one(void *item)
{
	struct job *jb = *(struct job **)item;
	struct reread *o = &jb->out;
	struct deadline_read *buf = NULL;
	uint64_t t0 = timing_now_ns();
	unsigned i;

	o->state = REREAD_DONE;
	if (!(buf = calloc(BATCH, sizeof(*buf)))) {
		o->state = REREAD_CUT;
		snprintf(o->why, sizeof(o->why), "out of memory");
	}
	for (i = 0; buf && i < o->n; i++) {
		if (read_region(jb, &o->regions[i], buf, t0)) {
			o->state = REREAD_CUT;
			break;
		}
	}
	o->seconds = timing_secs(timing_now_ns() - t0);
	free(buf);
	close(jb->fd);
}

/* A job for disk d, whose re-read template goes to d->rr: NULL if none. */
static struct job *job_for(struct record_disk *d, uint64_t budget_ns,
			   atomic_int *stop)
{
	struct engine_counters c;
	struct engine_snap s;
	struct reread *rr = &d->rr;
	struct job *jb;
	unsigned i;

	memset(rr, 0, sizeof(*rr));
	if (d->failed[0] || !d->et || d->t.fd < 0)
		return NULL;
	/* Stalled, vanished, broken or stopped: nothing to confirm, or no time. */
	engine_counters(d->et, &c);
	if (c.state != STATE_DONE || engine_snapshot(d->et, &s))
		return NULL;
	rr->size = d->t.lbs > UNIT_SIZE ? d->t.lbs : UNIT_SIZE;
	rr->direct = d->t.direct;
	for (i = 0; i < s.nslowest; i++) {
		struct reread_region *g = &rr->regions[rr->n++];

		g->offset = s.slowest[i].offset;
		g->length = s.slowest[i].length;
		g->burn_ns = s.slowest[i].ns;
		g->phase = s.slowest[i].phase;
		g->pass = s.slowest[i].pass;
	}
	engine_snap_free(&s);
	jb = rr->n ? calloc(1, sizeof(*jb)) : NULL;
	if (!jb)
		return NULL;
	jb->fd = fcntl(d->t.fd, F_DUPFD_CLOEXEC, 0);
	if (jb->fd < 0) {
		free(jb);
		return NULL;
	}
	jb->budget_ns = budget_ns;
	jb->stop = stop;
	jb->out = *rr;
	return jb;
}

void reread_run(struct record *r, uint64_t deadline_ns, atomic_int *stop,
		FILE *con)
{
	struct job **jobs = calloc((size_t)r->n + 1, sizeof(*jobs));
	int *disk = calloc((size_t)r->n + 1, sizeof(*disk));
	int *done = calloc((size_t)r->n + 1, sizeof(*done));
	int i, n = 0, left = 0, ret;

	for (i = 0; jobs && disk && done && i < r->n; i++) {
		jobs[n] = job_for(&r->disks[i], deadline_ns, stop);
		if (jobs[n])
			disk[n++] = i;
	}
	if (!n)
		goto out;
	fprintf(con, "kiln: reading the slowest requests of %d disk%s again, "
		"alone, at qd 1, 4 KiB at a time\n", n, n == 1 ? "" : "s");
	fflush(con);
	/* Each stops reading after the deadline; a read still out a deadline
	 * later has had no answer for that long. */
	ret = deadline_each(reread_one, jobs, sizeof(*jobs), n,
			    2 * deadline_ns, done);
	for (i = 0; i < n; i++) {
		struct reread *rr = &r->disks[disk[i]].rr;

		if (done[i]) {
			*rr = jobs[i]->out;
			free(jobs[i]);
			continue;
		}
		/* Its thread may still run: the job stays its own. */
		left++;
		if (ret) {
			snprintf(rr->why, sizeof(rr->why), "could not start: %s",
				 strerror(-ret));
			continue;
		}
		rr->state = REREAD_STALLED;
		snprintf(rr->why, sizeof(rr->why), "a re-read at byte %llu got "
			 "no answer in %llu s", (unsigned long long)
			 atomic_load(&jobs[i]->at),
			 (unsigned long long)(deadline_ns / TIMING_SEC));
	}
out:
	if (!left)
		free(jobs);
	free(disk);
	free(done);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * Like SSDs: like disks as peers.h groups them (model, firmware,
 * capacity, controller), both solid-state, hardware (not loops or files).
 */
static int like(const struct record *r, const struct record_disk *a,
		const struct record_disk *b)
{
	return a->t.kind == TARGET_BLOCK && b->t.kind == TARGET_BLOCK &&
	       !a->t.id.backing[0] && !b->t.id.backing[0] &&
	       a->t.id.model[0] && a->t.id.rotational == 0 &&
	       b->t.id.rotational == 0 && peers_like(r, a, b);
}

static void judge_like(const struct record *r, struct record_disk *d)
{
	uint64_t p99[256], mine = latency_percentile(&d->rr.times, 0.99);
	size_t n = 0;
	int i;

	for (i = 0; i < r->n && n < 256; i++) {
		const struct record_disk *o = &r->disks[i];

		if (like(r, d, o) && o->rr.state != REREAD_NOT_RUN &&
		    o->rr.times.n)
			p99[n++] = latency_percentile(&o->rr.times, 0.99);
	}
	if (n < REREAD_LIKE_MIN || !d->rr.times.n)
		return;
	qsort(p99, n, sizeof(*p99), cmp_u64);
	if (mine > REREAD_LIKE_TIMES * p99[n / 2])
		judge_reason(&d->j, JUDGE_WARN, "slow re-reads for its kind: "
			     "p99 %.2f ms, %.0fx the %.2f ms median of %zu "
			     "like SSDs (over %dx WARNs)", (double)mine / MS,
			     (double)mine / (double)p99[n / 2],
			     (double)p99[n / 2] / MS, n, REREAD_LIKE_TIMES);
}

/* A rotational disk's reads of REREAD_SLOW_MS or more, by offset. */
static void judge_slow(struct record_disk *d)
{
	const struct reread *rr = &d->rr;
	char at[120] = "";
	size_t used = 0;
	uint64_t worst = 0;
	unsigned i, named = 0, slow = rr->grid[REREAD_GRID - 1];

	if (!slow)
		return;
	for (i = 0; i < rr->n; i++) {
		const struct reread_region *g = &rr->regions[i];

		if (g->max_ns < REREAD_SLOW_MS * MS)
			continue;
		worst = g->max_ns > worst ? g->max_ns : worst;
		if (named++ < 4 && used < sizeof(at))
			used += (size_t)snprintf(at + used, sizeof(at) - used,
						 "%s%llu", used ? ", " : "",
						 (unsigned long long)g->max_at);
	}
	judge_reason(&d->j, JUDGE_WARN, "slow reads confirmed: %u of %llu "
		     "re-reads (%u KiB, qd 1, alone) took %u ms or more, the "
		     "slowest %.0f ms, at byte%s %s%s (a rotational disk WARNs "
		     "at %u ms)", slow, (unsigned long long)rr->times.n +
		     rr->errors, rr->size / 1024, REREAD_SLOW_MS,
		     (double)worst / MS, named == 1 ? "" : "s", at,
		     named > 4 ? " and more" : "", REREAD_SLOW_MS);
}

void reread_judge(const struct record *r, struct record_disk *d)
{
	const struct reread *rr = &d->rr;
	unsigned k;

	if (rr->state == REREAD_NOT_RUN)
		return;
	if (rr->state == REREAD_STALLED)
		judge_reason(&d->j, JUDGE_FAIL, "stalled: %s", rr->why);
	for (k = 0; rr->errors && k < rr->n; k++) {
		if (!rr->regions[k].err)
			continue;
		judge_reason(&d->j, JUDGE_FAIL, "%u re-reads failed, the first "
			     "at byte %llu: %s", rr->errors,
			     (unsigned long long)rr->regions[k].err_at,
			     strerror(rr->regions[k].err));
		break;
	}
	if (d->t.id.rotational == 1)
		judge_slow(d);
	else if (d->t.id.rotational == 0)
		judge_like(r, d);
}

static double ms(uint64_t ns)
{
	return (double)ns / MS;
}

static const char *state_name(int state)
{
	switch (state) {
	case REREAD_DONE: return "done";
	case REREAD_CUT: return "cut short";
	case REREAD_STALLED: return "stalled";
	}
	return "not run";
}

void reread_grid_key(int g, char *key, size_t len)
{
	if (g < REREAD_GRID - 1)
		snprintf(key, len, "under_%u_ms", reread_grid_ms[g]);
	else
		snprintf(key, len, "from_%u_ms", reread_grid_ms[g - 1]);
}

static void grid_json(struct json *j, const unsigned *grid)
{
	char key[32];
	int g;

	json_begin(j, "grid");
	for (g = 0; g < REREAD_GRID; g++) {
		reread_grid_key(g, key, sizeof(key));
		json_u64(j, key, grid[g]);
	}
	json_end(j);
}

void reread_json(struct json *j, const struct engine_snap *s,
		 const struct reread *rr)
{
	unsigned i;
	int p;

	json_begin(j, "latency");
	for (p = 0; p < PHASES; p++)
		if (s->latency[p].n)
			latency_json(j, engine_phase_name(p), &s->latency[p]);
	json_array(j, "slowest");
	for (i = 0; i < s->nslowest; i++) {
		json_begin(j, NULL);
		json_u64(j, "offset", s->slowest[i].offset);
		json_u64(j, "length", s->slowest[i].length);
		json_num(j, "ms", ms(s->slowest[i].ns));
		json_str(j, "phase", engine_phase_name(s->slowest[i].phase));
		json_u64(j, "pass", s->slowest[i].pass);
		json_end(j);
	}
	json_array_end(j);
	json_end(j);

	if (rr->state == REREAD_NOT_RUN) {
		json_null(j, "reread");
		return;
	}
	json_begin(j, "reread");
	json_str(j, "state", state_name(rr->state));
	json_str(j, "why", rr->why[0] ? rr->why : NULL);
	json_u64(j, "read_bytes", rr->size);
	json_bool(j, "direct_io", rr->direct);
	json_num(j, "seconds", rr->seconds);
	json_u64(j, "errors", rr->errors);
	grid_json(j, rr->grid);
	latency_json(j, "times", &rr->times);
	json_array(j, "regions");
	for (i = 0; i < rr->n; i++) {
		const struct reread_region *g = &rr->regions[i];

		json_begin(j, NULL);
		json_u64(j, "offset", g->offset);
		json_u64(j, "length", g->length);
		json_num(j, "burn_ms", ms(g->burn_ns));
		json_str(j, "phase", engine_phase_name(g->phase));
		json_u64(j, "pass", g->pass);
		json_u64(j, "reads", g->reads);
		json_num(j, "max_ms", ms(g->max_ns));
		json_u64(j, "max_at", g->max_at);
		json_str(j, "error", g->err ? strerror(g->err) : NULL);
		json_end(j);
	}
	json_array_end(j);
	json_end(j);
}

void latency_summary(FILE *f, const struct engine_snap *s)
{
	int p;

	for (p = 0; p < PHASES; p++) {
		const struct latency_hist *h = &s->latency[p];

		if (!h->n)
			continue;
		fprintf(f, "  request times, %s: p50 %.1f ms, p99 %.1f ms, "
			"p99.9 %.1f ms, the slowest %.1f ms (%llu %s)\n",
			engine_phase_name(p), ms(latency_percentile(h, 0.5)),
			ms(latency_percentile(h, 0.99)),
			ms(latency_percentile(h, 0.999)), ms(h->max_ns),
			(unsigned long long)h->n,
			unit_plural(h->n, "request", "requests"));
	}
}

void reread_summary(FILE *f, const struct reread *rr)
{
	uint64_t worst = 0, at = 0;
	unsigned i;
	int g;

	if (rr->state == REREAD_NOT_RUN ||
	    (rr->state == REREAD_DONE && !rr->errors &&
	     !rr->grid[REREAD_GRID - 2] && !rr->grid[REREAD_GRID - 1]))
		return;
	for (i = 0; i < rr->n; i++) {
		if (rr->regions[i].max_ns > worst) {
			worst = rr->regions[i].max_ns;
			at = rr->regions[i].max_at;
		}
	}
	fprintf(f, "  re-read at qd 1:");
	for (g = 0; g < REREAD_GRID; g++)
		if (rr->grid[g])
			fprintf(f, " %u %s%u ms,", rr->grid[g],
				g < REREAD_GRID - 1 ? "<" : ">=",
				reread_grid_ms[g < REREAD_GRID - 1 ? g : g - 1]);
	fprintf(f, " the slowest %.0f ms at byte %llu", ms(worst),
		(unsigned long long)at);
	if (rr->errors)
		fprintf(f, "; %u failed", rr->errors);
	if (rr->state != REREAD_DONE)
		fprintf(f, "; %s: %s", state_name(rr->state), rr->why);
	fputc('\n', f);
}
