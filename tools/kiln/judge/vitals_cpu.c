/* SPDX-License-Identifier: MIT */
/*
 * Description: the CPUs' signals folded and judged (see vitals_cpu.h).
 * A throttle during the run WARNs the machine, since a CPU slowed for
 * heat says its cooling cannot hold the load a workload will put on it;
 * an uncorrected machine check FAILs it, since a CPU or memory fault
 * corrupts what every disk is sent, and a corrected one WARNs it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge/judge.h"
#include "judge/vitals.h"

static struct vitals_throttle *throttle_of(struct vitals_cpu *c, int cpu)
{
	struct vitals_throttle *t;
	int i;

	for (i = 0; i < c->nthrottle; i++)
		if (c->throttle[i].cpu == cpu)
			return &c->throttle[i];
	t = realloc(c->throttle, ((size_t)c->nthrottle + 1) * sizeof(*t));
	if (!t)
		return NULL;
	c->throttle = t;
	t = &c->throttle[c->nthrottle++];
	t->cpu = cpu;
	t->core_start = t->core_end = t->pkg_start = t->pkg_end = -1;
	return t;
}

void vitals_cpu_fold(struct vitals_machine *m, const struct cpu_sample *s)
{
	struct vitals_cpu *c = &m->cpu;
	int i;

	if (s->nominal_khz) {
		c->nominal_khz = s->nominal_khz;
		c->nominal_from = s->nominal_from;
	}
	for (i = 0; i < s->n; i++) {
		const struct cpu_core *k = &s->cpus[i];
		struct vitals_throttle *t;

		if (k->core >= 0 || k->package >= 0) {
			if (!(t = throttle_of(c, k->cpu)))
				return;
			if (t->core_start < 0)
				t->core_start = k->core;
			if (t->pkg_start < 0)
				t->pkg_start = k->package;
			t->core_end = k->core;
			t->pkg_end = k->package;
		}
		/* The first sample is taken before the load starts. */
		if (!k->khz || !m->samples)
			continue;
		if (!c->khz_n || k->khz < c->khz_min)
			c->khz_min = k->khz;
		if (k->khz > c->khz_max)
			c->khz_max = k->khz;
		c->khz_sum += k->khz;
		c->khz_n++;
	}
}

void vitals_cpu_free(struct vitals_cpu *c)
{
	free(c->throttle);
	memset(c, 0, sizeof(*c));
}

static long rose(long from, long to)
{
	return from >= 0 && to > from ? to - from : 0;
}

int vitals_cpu_throttled(const struct vitals_cpu *c)
{
	int i, n = 0;

	for (i = 0; i < c->nthrottle; i++) {
		const struct vitals_throttle *t = &c->throttle[i];

		n += rose(t->core_start, t->core_end) ||
		     rose(t->pkg_start, t->pkg_end);
	}
	return n;
}

char *vitals_cpu_throttled_list(const struct vitals_cpu *c, char *buf,
				size_t len)
{
	size_t used = 0;
	int i, first = -1, last = -2;

	buf[0] = 0;
	/* The CPUs are in order (cpu.c sorts them): runs become ranges. */
	for (i = 0; i <= c->nthrottle; i++) {
		const struct vitals_throttle *t = i < c->nthrottle ?
						  &c->throttle[i] : NULL;

		if (t && !rose(t->core_start, t->core_end) &&
		    !rose(t->pkg_start, t->pkg_end))
			continue;
		if (t && t->cpu == last + 1) {
			last = t->cpu;
			continue;
		}
		if (first >= 0 && used < len)
			used += (size_t)snprintf(buf + used, len - used,
						 last > first ? "%s%d-%d" :
						 "%s%d", used ? "," : "",
						 first, last);
		if (t)
			first = last = t->cpu;
	}
	return buf;
}

static void judge_throttle(struct vitals_machine *m)
{
	const struct vitals_cpu *c = &m->cpu;
	long core = 0, pkg = 0, v;
	char list[120], text[240];
	int i, n = vitals_cpu_throttled(c);

	if (!n)
		return;
	for (i = 0; i < c->nthrottle; i++) {
		if ((v = rose(c->throttle[i].core_start,
			      c->throttle[i].core_end)) > core)
			core = v;
		if ((v = rose(c->throttle[i].pkg_start,
			      c->throttle[i].pkg_end)) > pkg)
			pkg = v;
	}
	snprintf(text, sizeof(text), "%d CPU%s throttled for heat during the "
		 "run: CPU %s (core throttle count up by %ld at most, package "
		 "by %ld)", n, n == 1 ? "" : "s",
		 vitals_cpu_throttled_list(c, list, sizeof(list)), core, pkg);
	vitals_judge_reason(m, JUDGE_WARN, text);
}

/*
 * "CPU 3 bank 5 (be00000000800400, PCC), CPU 1 bank 7 (...) x2" of the
 * banks of one kind, as many as fit, then how many more.
 */
static void banks(const struct mce_tally *t, int uncorrected, char *buf,
		  size_t len)
{
	size_t used = 0;
	char one[80];
	int i, more = 0;

	buf[0] = 0;
	for (i = 0; i < t->nbanks; i++) {
		const struct mce_bank *b = &t->banks[i];
		int n;

		if (b->uncorrected != uncorrected)
			continue;
		n = snprintf(one, sizeof(one), "%sCPU %d bank %d (%016llx%s)",
			     used ? ", " : ": ", b->cpu, b->bank,
			     (unsigned long long)b->status,
			     b->pcc ? ", PCC" : "");
		if (b->n > 1)
			snprintf(one + n, sizeof(one) - (size_t)n, " x%u",
				 b->n);
		/* Room kept for the ", and 9 more" after it. */
		if (more || used + strlen(one) + 16 > len) {
			more++;
			continue;
		}
		used += (size_t)snprintf(buf + used, len - used, "%s", one);
	}
	if (more)
		snprintf(buf + used, len - used, ", and %d more bank%s", more,
			 more == 1 ? "" : "s");
}

static void judge_mce(struct vitals_machine *m)
{
	const struct mce_tally *t = &m->cpu.mce;
	char where[150], text[240];

	if (t->uncorrected) {
		banks(t, 1, where, sizeof(where));
		snprintf(text, sizeof(text), "%u uncorrected machine check%s "
			 "during the run%s: a CPU or memory fault corrupts "
			 "every disk's data", t->uncorrected,
			 t->uncorrected == 1 ? "" : "s", where);
		vitals_judge_reason(m, JUDGE_FAIL, text);
	}
	if (t->corrected) {
		banks(t, 0, where, sizeof(where));
		snprintf(text, sizeof(text), "%u corrected machine check%s "
			 "during the run%s", t->corrected,
			 t->corrected == 1 ? "" : "s", where);
		vitals_judge_reason(m, JUDGE_WARN, text);
	} else if (t->logged && !t->uncorrected) {
		snprintf(text, sizeof(text), "the kernel logged machine check "
			 "events %u time%s during the run (the records went "
			 "to its mcelog device, not the log)", t->logged,
			 t->logged == 1 ? "" : "s");
		vitals_judge_reason(m, JUDGE_WARN, text);
	}
}

void vitals_cpu_judge(struct vitals_machine *m)
{
	judge_mce(m);
	judge_throttle(m);
}
