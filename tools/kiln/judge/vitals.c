/* SPDX-License-Identifier: MIT */
/*
 * Description: the machine's own signals as facts of the run (see
 * vitals.h): each sample folded into them (temperatures and their
 * series, SMART and NVMe counters at the start and the end, the kernel
 * log's tallies, EDAC, AER and hwmon of the machine). vitals_judge.c
 * judges them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge/record.h"
#include "judge/vitals.h"

/* Without a limit of its own, a drive WARNs at these (degrees C). */
#define VITALS_HDD_LIMIT 60
#define VITALS_SSD_LIMIT 70

static const char *const limit_names[] = {
	[VITALS_LIMIT_NONE] = "none",
	[VITALS_LIMIT_SETTING] = "temp-warn",
	[VITALS_LIMIT_DRIVE] = "the drive's own",
	[VITALS_LIMIT_HDD] = "the default for HDDs",
	[VITALS_LIMIT_SSD] = "the default for SSDs",
};

static const char *const selftest_names[VITALS_ST_KINDS] = {
	[VITALS_ST_NONE] = "not run",
	[VITALS_ST_PASSED] = "passed",
	[VITALS_ST_FAILED] = "failed",
	[VITALS_ST_UNSUPPORTED] = "not supported",
	[VITALS_ST_TIMEOUT] = "timed out",
	[VITALS_ST_ABORTED] = "aborted",
	[VITALS_ST_UNKNOWN] = "unknown",
};

const char *vitals_limit_name(int from)
{
	return from >= 0 && from <= VITALS_LIMIT_SSD ? limit_names[from] :
	       "none";
}

const char *vitals_selftest_name(int result)
{
	return result >= 0 && result < VITALS_ST_KINDS ?
	       selftest_names[result] : "unknown";
}

int vitals_selftest_of(const char *name)
{
	int i;

	for (i = 0; name && i < VITALS_ST_KINDS; i++)
		if (!strcmp(name, selftest_names[i]))
			return i;
	return VITALS_ST_NONE;
}

void vitals_disk_init(struct vitals_disk *d)
{
	memset(d, 0, sizeof(*d));
	d->rotational = -1;
	d->temp_first = d->temp_max = d->temp_last = VITALS_NONE;
	d->limit = VITALS_NONE;
}

void vitals_disk_free(struct vitals_disk *d)
{
	free(d->series);
	d->series = NULL;
	d->nseries = 0;
}

const struct vitals_aer *vitals_aer_of(const struct vitals_machine *m,
				       const char *pci)
{
	int i;

	for (i = 0; i < m->naer; i++)
		if (!strcmp(m->aer[i].pci, pci))
			return &m->aer[i];
	return NULL;
}

void vitals_machine_free(struct vitals_machine *m)
{
	int i;

	for (i = 0; i < m->nhidden; i++)
		vitals_disk_free(&m->hidden[i].d);
	free(m->edac);
	free(m->aer);
	free(m->hwmon);
	free(m->hidden);
	vitals_cpu_free(&m->cpu);
	memset(m, 0, sizeof(*m));
}

/* Grows an array by one zeroed element: its address, or NULL. */
static void *grow(void **arr, int *n, size_t size)
{
	char *a = realloc(*arr, ((size_t)*n + 1) * size);

	if (!a)
		return NULL;
	*arr = a;
	memset(a + (size_t)*n * size, 0, size);
	return a + (size_t)(*n)++ * size;
}

struct vitals_hidden *vitals_add_hidden(struct vitals_machine *m)
{
	struct vitals_hidden *h = grow((void **)&m->hidden, &m->nhidden,
				       sizeof(*h));

	if (h)
		vitals_disk_init(&h->d);
	return h;
}

void vitals_series_add(struct vitals_disk *d, uint32_t t, int c)
{
	int i;

	if (!d->series) {
		d->series = calloc(VITALS_POINTS, sizeof(*d->series));
		if (!d->series)
			return;
		d->step = 1;
	}
	if (!d->acc_n || c > d->acc.c)
		d->acc.c = (int16_t)c;
	if (!d->acc_n)
		d->acc.t = t;
	if (++d->acc_n < d->step)
		return;
	/* Full: neighbours merge, the hotter kept, each covering twice. */
	if (d->nseries == VITALS_POINTS) {
		for (i = 0; i < VITALS_POINTS / 2; i++) {
			struct vitals_point a = d->series[2 * i];
			struct vitals_point b = d->series[2 * i + 1];

			d->series[i].t = a.t;
			d->series[i].c = a.c > b.c ? a.c : b.c;
		}
		d->nseries = VITALS_POINTS / 2;
		d->step *= 2;
	}
	d->series[d->nseries++] = d->acc;
	d->acc_n = 0;
}

/* Millidegrees to whole degrees, rounded; SENSORS_NONE stays unknown. */
static int degrees(int milli)
{
	if (milli == SENSORS_NONE)
		return VITALS_NONE;
	return milli >= 0 ? (milli + 500) / 1000 : -((-milli + 500) / 1000);
}

/* A drive's own limit: its warning threshold, else its trip point. */
static int own_limit(const struct vitals_reading *rd)
{
	const struct smartjson *sj = &rd->sj;
	int v;

	if (rd->answered && sj->temp_warn > 0 && sj->temp_warn < 200)
		return (int)sj->temp_warn;
	if ((v = degrees(rd->hw_max)) > 0 && v < 200)
		return v;
	if (rd->answered && sj->temp_crit > 0 && sj->temp_crit < 200)
		return (int)sj->temp_crit;
	if ((v = degrees(rd->hw_crit)) > 0 && v < 200)
		return v;
	return VITALS_NONE;
}

static void set_limit(struct vitals_disk *d,
		      const struct vitals_reading *rd, unsigned temp_warn)
{
	int own = own_limit(rd);

	if (temp_warn) {
		d->limit = (int)temp_warn;
		d->limit_from = VITALS_LIMIT_SETTING;
	} else if (own != VITALS_NONE) {
		d->limit = own;
		d->limit_from = VITALS_LIMIT_DRIVE;
	} else if (d->limit_from != VITALS_LIMIT_DRIVE) {
		/* Not known to spin: the stricter limit. */
		d->limit_from = d->rotational == 0 ? VITALS_LIMIT_SSD :
				VITALS_LIMIT_HDD;
		d->limit = d->rotational == 0 ? VITALS_SSD_LIMIT :
			   VITALS_HDD_LIMIT;
	}
}

void vitals_fold_disk(struct vitals_disk *d,
		      const struct vitals_reading *rd, uint32_t t,
		      unsigned temp_warn)
{
	const struct smartjson *sj = &rd->sj;
	int c = VITALS_NONE;
	long long new;

	if (!rd->asked)
		return;
	snprintf(d->error, sizeof(d->error), "%s", rd->why[0] ? rd->why :
		 rd->answered ? rd->sj.message : "");
	if (rd->answered) {
		if (sj->protocol[0])
			snprintf(d->protocol, sizeof(d->protocol), "%s",
				 sj->protocol);
		if (sj->rotational >= 0)
			d->rotational = sj->rotational;
		/* 0 C and below is a sensor that does not read. */
		if (sj->temp > 0 && sj->temp < 200)
			c = (int)sj->temp;
		if (!d->start.have)
			d->start = sj->c;
		d->end = sj->c;
		new = sj->c.critical_warning & ~d->start.critical_warning;
		if (sj->c.critical_warning > 0 &&
		    d->start.critical_warning >= 0 && (new & ~d->crit_raised)) {
			if (!d->crit_raised)
				d->crit_at = t;
			d->crit_raised |= new;
		}
	}
	if (c == VITALS_NONE && (c = degrees(rd->hw_temp)) <= 0)
		c = VITALS_NONE;
	set_limit(d, rd, temp_warn);
	if (!rd->answered && c == VITALS_NONE)
		return;
	d->sampled++;
	if (c == VITALS_NONE)
		return;
	if (d->temp_first == VITALS_NONE)
		d->temp_first = c;
	if (d->temp_max == VITALS_NONE || c > d->temp_max)
		d->temp_max = c;
	d->temp_last = c;
	vitals_series_add(d, t, c);
}

/* The first lines kept, each cut to a length a reason can quote. */
static int keep_lines(char (*out)[VITALS_LINE],
		      const struct kmsgwatch_tally *t)
{
	int i;

	for (i = 0; i < t->nkept && i < VITALS_KEPT; i++)
		snprintf(out[i], VITALS_LINE, "%s", t->kept[i]);
	return i;
}

void vitals_fold_kmsg(struct vitals_disk *d,
		      const struct kmsgwatch_tally *t)
{
	memcpy(d->kmsg, t->count, sizeof(d->kmsg));
	d->kmsg_total = t->total;
	d->kmsg_direct = t->direct;
	d->nkept = keep_lines(d->kept, t);
}

void vitals_fold_kmsg_other(struct vitals_machine *m,
			    const struct kmsgwatch *w)
{
	const struct kmsgwatch_tally *t = &w->tally[w->n];

	memcpy(m->other, t->count, sizeof(m->other));
	m->other_total = t->total;
	m->nkept = keep_lines(m->kept, t);
	m->kmsg_lines = w->lines;
	m->kmsg_lost = w->lost;
	m->cpu.mce = w->mce;
}

static void fold_edac(struct vitals_machine *m, const struct sensors *s)
{
	int i, k;

	m->edac_mcs = s->edac_mcs;
	for (i = 0; i < s->nedac; i++) {
		const struct sensors_edac *e = &s->edac[i];
		struct vitals_edac *f = NULL;

		for (k = 0; k < m->nedac && !f; k++)
			if (!strcmp(m->edac[k].where, e->where))
				f = &m->edac[k];
		if (!f) {
			f = grow((void **)&m->edac, &m->nedac, sizeof(*f));
			if (!f)
				return;
			snprintf(f->where, sizeof(f->where), "%s", e->where);
			snprintf(f->label, sizeof(f->label), "%s", e->label);
			f->ce_start = e->ce;
			f->ue_start = e->ue;
		}
		f->ce_end = e->ce;
		f->ue_end = e->ue;
		if (e->slot[0])
			snprintf(f->slot, sizeof(f->slot), "%s", e->slot);
	}
}

static void fold_aer(struct vitals_machine *m, const struct sensors *s)
{
	int i, k;

	for (i = 0; i < s->naer; i++) {
		const struct sensors_aer *a = &s->aer[i];
		long now[3] = { a->cor, a->nonfatal, a->fatal };
		struct vitals_aer *f = NULL;

		for (k = 0; k < m->naer && !f; k++)
			if (!strcmp(m->aer[k].pci, a->pci))
				f = &m->aer[k];
		if (!f) {
			f = grow((void **)&m->aer, &m->naer, sizeof(*f));
			if (!f)
				return;
			snprintf(f->pci, sizeof(f->pci), "%s", a->pci);
			memcpy(f->start, now, sizeof(now));
		}
		memcpy(f->end, now, sizeof(now));
		snprintf(f->errors, sizeof(f->errors), "%s", a->errors);
	}
}

static void fold_hwmon(struct vitals_machine *m, const struct sensors *s)
{
	int i, k;

	for (i = 0; i < s->ntemps; i++) {
		const struct sensors_temp *t = &s->temps[i];
		struct vitals_hwmon *f = NULL;

		if (t->input == SENSORS_NONE)
			continue;
		for (k = 0; k < m->nhwmon && !f; k++)
			if (!strcmp(m->hwmon[k].hwmon, t->hwmon) &&
			    m->hwmon[k].index == t->index)
				f = &m->hwmon[k];
		if (!f) {
			f = grow((void **)&m->hwmon, &m->nhwmon, sizeof(*f));
			if (!f)
				return;
			snprintf(f->hwmon, sizeof(f->hwmon), "%s", t->hwmon);
			f->index = t->index;
			snprintf(f->what, sizeof(f->what), "%s%s%s", t->name,
				 t->label[0] ? " " : "", t->label);
			f->first = f->max = t->input;
		}
		if (t->input > f->max)
			f->max = t->input;
		f->last = t->input;
		f->high = t->max;
		f->crit = t->crit;
	}
}

void vitals_fold(struct record *r, const struct vitals_sample *s)
{
	struct vitals_machine *m = &r->sig;
	unsigned warn = r->s ? r->s->temp_warn : 0;
	int i;

	for (i = 0; i < s->n && i < r->n; i++)
		vitals_fold_disk(&r->disks[i].sig, &s->disk[i], s->t, warn);
	for (i = 0; i < s->nhidden && i < m->nhidden; i++) {
		struct vitals_hidden *h = &m->hidden[i];
		const struct smartjson *sj = &s->hidden[i].sj;

		vitals_fold_disk(&h->d, &s->hidden[i], s->t, warn);
		if (s->hidden[i].answered && sj->model[0])
			snprintf(h->model, sizeof(h->model), "%s", sj->model);
		if (s->hidden[i].answered && sj->serial[0])
			snprintf(h->serial, sizeof(h->serial), "%s",
				 sj->serial);
	}
	if (s->have_sensors) {
		fold_edac(m, &s->sensors);
		fold_aer(m, &s->sensors);
		fold_hwmon(m, &s->sensors);
	}
	if (s->have_cpu)
		vitals_cpu_fold(m, &s->cpu);
	m->samples++;
}
