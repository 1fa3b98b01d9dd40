/* SPDX-License-Identifier: MIT */
/*
 * Description: the run's figures, each defined once (figures.h): rates
 * over busy time with their direction, a phase's slowest and fastest
 * pass, passes made, the first bad unit, a controller's total and the
 * run's duration. Every output calls these, so no two can disagree.
 */
#include <stdio.h>

#include "judge/figures.h"
#include "judge/record.h"
#include "base/timing.h"

#define MB 1e6

const char *figures_dir_name(int dir)
{
	return dir == FIGURES_WRITE ? "write" : "read";
}

static double mbps(uint64_t bytes, uint64_t ns)
{
	return ns ? (double)bytes / timing_secs(ns) / MB : 0;
}

double figures_rate(const struct engine_snap *s, int phase)
{
	return mbps(s->phase_bytes[phase], s->phase_ns[phase]);
}

double figures_dir_rate(const struct engine_snap *s, int dir)
{
	if (dir == FIGURES_WRITE)
		return figures_rate(s, PHASE_WRITE);
	return mbps(s->phase_bytes[PHASE_VERIFY] + s->phase_bytes[PHASE_READ],
		    s->phase_ns[PHASE_VERIFY] + s->phase_ns[PHASE_READ]);
}

int figures_top_rate(const struct engine_snap *s, double *rate)
{
	double w = figures_dir_rate(s, FIGURES_WRITE);
	double r = figures_dir_rate(s, FIGURES_READ);

	*rate = w > r ? w : r;
	if (*rate <= 0)
		return -1;
	return w > r ? FIGURES_WRITE : FIGURES_READ;
}

int figures_pass_range(const struct engine_snap *s, int phase, double *min,
		       double *max)
{
	double avg = figures_rate(s, phase), v;
	unsigned i, n = 0;

	for (i = 0; i < s->npasses; i++) {
		const struct engine_pass *p = &s->passes[i];

		if (p->phase != phase || !p->bytes || !p->ns)
			continue;
		v = mbps(p->bytes, p->ns);
		if (!n || v < *min)
			*min = v;
		if (!n || v > *max)
			*max = v;
		n++;
	}
	if (n < 2 || avg <= 0)
		return 0;
	/*
	 * Runs folded into the totals (engine.h) are not listed: the
	 * average, which counts them, may then lie past the runs kept.
	 */
	if (avg < *min)
		*min = avg;
	if (avg > *max)
		*max = avg;
	return 1;
}

uint64_t figures_passes(const struct engine_snap *s, int mode)
{
	int last = mode == ENGINE_WRITE ? PHASE_WRITE : mode == ENGINE_READ ?
		   PHASE_READ : PHASE_VERIFY;
	uint64_t n = s->totals[last].passes;
	unsigned i;

	/* Its last run is always kept (engine.h): cut short, not made. */
	for (i = s->npasses; i-- > 0;)
		if (s->passes[i].phase == last) {
			if (!s->passes[i].complete && n)
				n--;
			break;
		}
	return n;
}

char *figures_passes_text(uint64_t lo, uint64_t hi, char *buf, size_t len)
{
	if (lo != hi)
		snprintf(buf, len, "%llu-%llu passes", (unsigned long long)lo,
			 (unsigned long long)hi);
	else
		snprintf(buf, len, "%llu pass%s", (unsigned long long)lo,
			 lo == 1 ? "" : "es");
	return buf;
}

uint64_t figures_first_bad(const struct engine_snap *s)
{
	uint64_t at = s->nbad ? s->bad[0].offset : 0;
	unsigned i;

	/* The engine's own, kept past the list's cap. */
	if (s->has_first_bad)
		return s->first_bad;
	/*
	 * A record of an older kiln: the lists are in the order requests
	 * completed, and at a queue depth above 1 a later request often
	 * ends first, so the lowest offset of the first pass listed.
	 */
	for (i = 1; i < s->nbad; i++)
		if (s->bad[i].pass == s->bad[0].pass && s->bad[i].offset < at)
			at = s->bad[i].offset;
	return at;
}

double figures_ctrl_rate(const struct record *r, int ctrl, int dir)
{
	double sum = 0;
	int i;

	for (i = 0; i < r->n; i++)
		if (r->disks[i].link.ctrl == ctrl)
			sum += figures_dir_rate(&r->disks[i].snap, dir);
	return sum;
}

uint64_t figures_duration_s(const struct record *r)
{
	return r->elapsed_ns / TIMING_SEC;
}

time_t figures_ended(const struct record *r)
{
	return r->started + (time_t)figures_duration_s(r);
}
