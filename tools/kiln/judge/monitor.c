/* SPDX-License-Identifier: MIT */
/*
 * Description: per-second samples of every target (what the console
 * makes of them, the table and the status line, is monitor_status.c's).
 *
 * The caller hands in each target's counters (read without locks from the
 * engine: each only grows, so a sample is at worst a few requests stale).
 * A second counts toward a phase's slowest and fastest only when the target
 * spent all of it in that phase, so phase changes do not read as dips.
 */
#include <stdlib.h>
#include <string.h>

#include "judge/figures.h"
#include "judge/monitor.h"

/* A sample next to another: a second apart, late by up to half of one. */
#define MONITOR_NEXT_MS 1500
#include "base/timing.h"
#include "settings/settings.h"

int monitor_init(struct monitor *m, const char *const *names, int n,
		 FILE *csv, uint64_t t0)
{
	int i, p;

	memset(m, 0, sizeof(*m));
	m->mt = calloc((size_t)n + 1, sizeof(*m->mt));
	m->c = calloc((size_t)n + 1, sizeof(*m->c));
	if (!m->mt || !m->c) {
		monitor_free(m);
		return -1;
	}
	m->n = n;
	m->names = names;
	m->csv = csv;
	m->t0 = m->last_ns = m->status_ns = m->table_ns = m->clock0 = t0;
	for (i = 0; i < n; i++) {
		for (p = 0; p < PHASES; p++)
			m->mt[i].min[p] = -1;
		m->mt[i].made = -1;
	}
	return 0;
}

void monitor_free(struct monitor *m)
{
	free(m->mt);
	free(m->c);
	m->mt = NULL;
	m->c = NULL;
}

static void csv_name(FILE *f, const char *name)
{
	for (; *name; name++)
		fputc(*name == ',' || *name == '\n' ? '_' : *name, f);
}

static void series_add(struct monitor_series *s, double w, double r)
{
	unsigned i;

	if (!s->step)
		s->step = 1;
	s->acc_w += w;
	s->acc_r += r;
	if (++s->acc_n < s->step)
		return;
	if (s->n == MONITOR_POINTS) {
		/* Full: pairs become one point covering twice the time. */
		for (i = 0; i < MONITOR_POINTS / 2; i++) {
			s->write[i] =
				(s->write[2 * i] + s->write[2 * i + 1]) / 2;
			s->read[i] = (s->read[2 * i] + s->read[2 * i + 1]) / 2;
		}
		s->n = MONITOR_POINTS / 2;
		s->step *= 2;
		/* The point being filled now covers the new, longer step. */
		if (s->acc_n < s->step)
			return;
	}
	s->write[s->n] = (float)(s->acc_w / s->acc_n);
	s->read[s->n] = (float)(s->acc_r / s->acc_n);
	s->n++;
	s->acc_w = s->acc_r = 0;
	s->acc_n = 0;
}

void monitor_series_add(struct monitor_series *s, double w, double r)
{
	series_add(s, w, r);
}

double monitor_own_rate(const struct monitor_slow *sl)
{
	if (sl->held_ms >= MONITOR_HELD_SHARE * 1000)
		return -1;
	return sl->mbps * 1000.0 / (1000.0 - sl->held_ms);
}

/* A second not kept: the slowest of them by its own rate is kept apart. */
static void unkept(struct monitor_target *mt, int p,
		   const struct monitor_slow *s)
{
	double own = monitor_own_rate(s);

	if (own < 0)
		return;
	if (!mt->has_unkept[p] || own < monitor_own_rate(&mt->unkept[p])) {
		mt->unkept[p] = *s;
		mt->has_unkept[p] = 1;
	}
}

void monitor_slow_add(struct monitor_target *mt, int p, uint32_t ms,
		      double mbps)
{
	struct monitor_slow *sl = mt->slow[p];
	struct monitor_slow s = { .ms = ms, .mbps = (float)mbps };
	unsigned n = mt->nslow[p], i;

	if (!mt->busy || ms < mt->busy_from_ms)
		mt->busy_from_ms = ms;
	if (!mt->busy || ms > mt->busy_to_ms)
		mt->busy_to_ms = ms;
	mt->busy = 1;
	if (n == MONITOR_SLOW && mbps >= sl[n - 1].mbps) {
		unkept(mt, p, &s);
		return;
	}
	if (n < MONITOR_SLOW)
		n++;
	else
		unkept(mt, p, &sl[n - 1]);
	for (i = n - 1; i > 0 && sl[i - 1].mbps > mbps; i--)
		sl[i] = sl[i - 1];
	sl[i] = s;
	mt->nslow[p] = n;
}

/* The ms of [from_ms, to_ms) within the second that ended at ms. */
static uint32_t overlap(uint32_t ms, uint32_t from_ms, uint32_t to_ms)
{
	uint32_t a = ms > 1000 ? ms - 1000 : 0;
	uint32_t lo = from_ms > a ? from_ms : a;
	uint32_t hi = to_ms < ms ? to_ms : ms;

	return hi > lo ? hi - lo : 0;
}

static void hold(struct monitor_slow *sl, uint32_t from_ms, uint32_t to_ms)
{
	sl->held_ms += overlap(sl->ms, from_ms, to_ms);
	if (sl->held_ms > 1000)
		sl->held_ms = 1000;
}

void monitor_held(struct monitor_target *mt, uint32_t from_ms,
		  uint32_t to_ms)
{
	unsigned i, k;
	int p;

	for (p = 0; p < PHASES; p++) {
		struct monitor_slow *sl = mt->slow[p];

		for (i = k = 0; i < mt->nslow[p]; i++) {
			hold(&sl[i], from_ms, to_ms);
			/* Held: left out, and room made for the next. */
			if (monitor_own_rate(&sl[i]) < 0) {
				mt->held[p]++;
				continue;
			}
			sl[k++] = sl[i];
		}
		mt->nslow[p] = k;
		if (mt->has_unkept[p]) {
			hold(&mt->unkept[p], from_ms, to_ms);
			if (monitor_own_rate(&mt->unkept[p]) < 0)
				mt->has_unkept[p] = 0;
		}
	}
}

/* A moving phase: one whose seconds are rated and zones compared. */
static int moving(int phase)
{
	return phase == PHASE_WRITE || phase == PHASE_VERIFY ||
	       phase == PHASE_READ;
}

/*
 * The run of the phase target mt is in, now at ms, its previous sample
 * at last_ms, secs ago: a new run when the phase or its pass changed.
 */
static void run_add(struct monitor_target *mt, int phase, uint32_t pass,
		    uint32_t last_ms, uint32_t ms, double secs)
{
	struct monitor_run *run = mt->runs[phase];

	if (!run->pass || run->pass != pass || mt->last_phase != phase) {
		memmove(&run[1], &run[0], (MONITOR_RUNS - 1) * sizeof(*run));
		run->pass = pass ? pass : 1;
		run->from_ms = last_ms;
		run->late_s = 0;
	} else if (secs > MONITOR_LATE_S) {
		run->late_s += (float)(secs - 1);
	}
	run->to_ms = ms;
}

/*
 * Whether the second sampled at ms is next to a second most disks dipped
 * in: a machine's dip starts and ends inside a second, so the seconds
 * either side of it are partly the dip's too, though too little of them
 * fell for most disks to be said to have dipped there.
 */
static int next_to_shared(const struct monitor_target *mt, int p,
			  uint32_t ms)
{
	unsigned i;

	for (i = 0; i < mt->nslow[p]; i++) {
		const struct monitor_slow *o = &mt->slow[p][i];
		uint32_t gap = o->ms > ms ? o->ms - ms : ms - o->ms;

		if (o->shared && gap <= MONITOR_NEXT_MS)
			return 1;
	}
	return 0;
}

double monitor_stalled(const struct monitor_target *mt, int p,
		       uint32_t pass, double avg)
{
	const struct monitor_run *run = NULL;
	double s;
	unsigned i;

	for (i = 0; i < MONITOR_RUNS; i++)
		if (mt->runs[p][i].pass == pass) {
			run = &mt->runs[p][i];
			break;
		}
	if (!run)
		return 0;
	s = run->late_s;
	for (i = 0; avg > 0 && i < mt->nslow[p]; i++) {
		const struct monitor_slow *sl = &mt->slow[p][i];

		if ((sl->shared || next_to_shared(mt, p, sl->ms)) &&
		    sl->ms >= run->from_ms && sl->ms <= run->to_ms &&
		    sl->mbps < avg)
			s += 1 - sl->mbps / avg;
	}
	return s;
}

double monitor_own_min(const struct monitor_target *mt, int p)
{
	double own = -1, r;
	unsigned i;

	if (!mt->nslow[p] && !mt->held[p] && !mt->has_unkept[p])
		return mt->min[p];
	for (i = 0; i < mt->nslow[p]; i++) {
		if (mt->slow[p][i].shared)
			continue;
		r = monitor_own_rate(&mt->slow[p][i]);
		if (r >= 0 && (own < 0 || r < own))
			own = r;
	}
	if (mt->has_unkept[p]) {
		r = monitor_own_rate(&mt->unkept[p]);
		if (own < 0 || r < own)
			own = r;
	}
	return own;
}

int monitor_slowest_not_own(const struct monitor_target *mt, int p)
{
	return mt->held[p] ||
	       (mt->nslow[p] && (mt->slow[p][0].shared ||
				 mt->slow[p][0].held_ms));
}

void monitor_sample(struct monitor *m, uint64_t now,
		    const struct engine_counters *c)
{
	double secs = timing_secs(now - m->last_ns);
	uint64_t ms = (now - m->t0) / 1000000ull;
	int i, rows = 0;

	if (secs <= 0)
		return;
	/*
	 * A row is named by its millisecond. Samples can come closer than
	 * that (a stop, then a worker ending at once): the later one takes
	 * the next millisecond, so no two rows of a target share a time and
	 * no bytes are left out of the file.
	 */
	if (ms < m->next_ms)
		ms = m->next_ms;
	memcpy(m->c, c, (size_t)m->n * sizeof(*c));
	for (i = 0; i < m->n; i++) {
		struct monitor_target *mt = &m->mt[i];
		uint64_t w = c[i].bytes_written;
		uint64_t r = c[i].bytes_read;
		int phase = c[i].phase;
		uint64_t moved = (w - mt->last_w) + (r - mt->last_r);

		if (moving(phase))
			run_add(mt, phase, c[i].pass,
				(uint32_t)((m->last_ns - m->t0) / 1000000ull),
				(uint32_t)ms, secs);

		if (m->csv && (moved || phase != mt->last_phase)) {
			rows++;
			fprintf(m->csv, "%llu.%03llu,",
				(unsigned long long)(ms / 1000),
				(unsigned long long)(ms % 1000));
			csv_name(m->csv, m->names[i]);
			fprintf(m->csv, ",%s,%u,%llu,%llu\n",
				engine_phase_name(phase), c[i].pass,
				(unsigned long long)(w - mt->last_w),
				(unsigned long long)(r - mt->last_r));
		}
		/* Only whole seconds of one moving phase, of about a second. */
		if (phase == mt->last_phase && secs > 0.9 && secs < 1.1 &&
		    moving(phase)) {
			double rate = (double)moved / secs / 1e6;

			if (mt->min[phase] < 0 || rate < mt->min[phase])
				mt->min[phase] = rate;
			if (rate > mt->max[phase])
				mt->max[phase] = rate;
			mt->seconds[phase]++;
			monitor_slow_add(mt, phase, (uint32_t)ms, rate);
		}
		/* The host's hold, as the worker last said it (held.h). */
		if (c[i].held_ns > mt->last_held) {
			uint64_t at = c[i].held_at > m->t0 ?
				      (c[i].held_at - m->t0) / 1000000ull : 0;
			uint64_t len = (c[i].held_ns - mt->last_held) /
				       1000000ull;

			monitor_held(mt, (uint32_t)(at > len ? at - len : 0),
				     (uint32_t)at);
			mt->last_held = c[i].held_ns;
		}
		if (!mt->done_ns && c[i].state != STATE_RUNNING)
			mt->done_ns = now;
		else if (!mt->done_ns)
			series_add(&mt->series,
				   (double)(w - mt->last_w) / secs / 1e6,
				   (double)(r - mt->last_r) / secs / 1e6);
		mt->last_w = w;
		mt->last_r = r;
		mt->last_phase = phase;
	}
	if (m->csv)
		fflush(m->csv);
	if (rows)
		m->next_ms = ms + 1;
	m->last_ns = now;
}
