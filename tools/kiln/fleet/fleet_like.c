/* SPDX-License-Identifier: MIT */
/*
 * Description: like disks compared across machines, for kiln fleet. The
 * disks of every machine's latest run are grouped by model and capacity;
 * each group's median write and verify rates are what that model does,
 * so one disk far below them, or all of one model in one machine, points
 * at that disk, or at that machine's controller, cabling or backplane,
 * which no single machine's run can see.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fleet/fleet.h"

/* Like: one model (or none), one kind (file or device), one capacity. */
static int like(const struct fleet_like_disk *x,
		const struct fleet_like_disk *y)
{
	return x->model == y->model && x->d->file == y->d->file &&
	       x->d->size == y->d->size;
}

/*
 * By model, kind, capacity and machine. A lab's disks are of a few models:
 * one pointer for each model (same()) and for each machine make the
 * 800,000 disks of 100,000 machines sort without comparing equal names.
 */
static int by_model(const void *a, const void *b)
{
	const struct fleet_like_disk *x = a, *y = b;
	int c = x->model == y->model ? 0 : strcmp(x->model, y->model);

	if (c)
		return c;
	if (x->d->file != y->d->file)
		return x->d->file - y->d->file;
	if (x->d->size != y->d->size)
		return x->d->size < y->d->size ? -1 : 1;
	return x->m == y->m ? 0 : strcmp(x->m->id, y->m->id);
}

static uint32_t hash(const char *s)
{
	uint32_t h = 2166136261u;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return h;
}

/* The slot of name s in seen (cap slots, a power of 2): its, or empty. */
static size_t slot(const char **seen, size_t cap, const char *s)
{
	size_t k = hash(s) & (cap - 1);

	while (seen[k] && strcmp(seen[k], s))
		k = (k + 1) & (cap - 1);
	return k;
}

/* Each disk's model as the first pointer to its name: 0, or -ENOMEM. */
static int same(struct fleet_like_disk *all, int n)
{
	size_t cap = 64, used = 0, i, k;
	const char **seen = calloc(cap, sizeof(*seen)), **more;
	int j, ret;

	for (j = 0; seen && j < n; j++) {
		k = slot(seen, cap, all[j].d->model);
		if (!seen[k]) {
			seen[k] = all[j].d->model;
			/* Half full: twice the slots. */
			if (2 * ++used > cap) {
				more = calloc(2 * cap, sizeof(*more));
				for (i = 0; more && i < cap; i++)
					if (seen[i])
						more[slot(more, 2 * cap,
							  seen[i])] = seen[i];
				free(seen);
				seen = more;
				cap *= 2;
				if (!seen)
					break;
				k = slot(seen, cap, all[j].d->model);
			}
		}
		all[j].model = seen[k];
	}
	ret = seen || !n ? 0 : -ENOMEM;
	free(seen);
	return ret;
}

static int by_rate(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* How far below its like disks a disk is: its worse fraction, 0 none. */
static double worst(const struct fleet_disk *d)
{
	double w = d->write_like, r = d->read_like;

	if (!w || (r && r < w))
		return r;
	return w;
}

static int by_slowest(const void *a, const void *b)
{
	const struct fleet_like_disk *x = a, *y = b;
	double wx = worst(x->d), wy = worst(y->d);

	/* Not compared (0) last. */
	if (wx != wy)
		return !wx ? 1 : !wy ? -1 : wx < wy ? -1 : 1;
	return by_model(a, b);
}

/* The median of the rates above 0, when there are enough of them. */
static double median(const struct fleet_like_disk *ds, int n, int write,
		     double *tmp)
{
	int i, k = 0;

	for (i = 0; i < n; i++) {
		double v = write ? ds[i].d->write_mbps : ds[i].d->read_mbps;

		if (v > 0)
			tmp[k++] = v;
	}
	if (k < FLEET_LIKE_MIN)
		return 0;
	qsort(tmp, (size_t)k, sizeof(*tmp), by_rate);
	return k % 2 ? tmp[k / 2] : (tmp[k / 2 - 1] + tmp[k / 2]) / 2;
}

static int fill(struct fleet_like_group *g, const struct fleet_like_disk *ds,
		int n, double *tmp)
{
	int i;

	g->disks = malloc((size_t)n * sizeof(*g->disks));
	if (!g->disks)
		return -ENOMEM;
	memcpy(g->disks, ds, (size_t)n * sizeof(*ds));
	g->n = n;
	g->model = ds[0].d->model;
	g->file = ds[0].d->file;
	g->size = ds[0].d->size;
	for (i = 0; i < n; i++)
		if (!i || ds[i].m != ds[i - 1].m)
			g->machines++;
	g->write_median = median(ds, n, 1, tmp);
	g->read_median = median(ds, n, 0, tmp);
	for (i = 0; i < n; i++) {
		struct fleet_disk *d = ds[i].d;

		if (g->write_median > 0 && d->write_mbps > 0)
			d->write_like = d->write_mbps / g->write_median;
		if (g->read_median > 0 && d->read_mbps > 0)
			d->read_like = d->read_mbps / g->read_median;
		if ((d->write_like && d->write_like < FLEET_LIKE_SLOW) ||
		    (d->read_like && d->read_like < FLEET_LIKE_SLOW))
			g->nslow++;
	}
	qsort(g->disks, (size_t)n, sizeof(*g->disks), by_slowest);
	return 0;
}

int fleet_like_groups(struct fleet *fl, struct fleet_like_group **groups,
		      int *ngroups)
{
	struct fleet_like_disk *all;
	struct fleet_like_group *gs = NULL;
	double *tmp;
	int i, j, k, n = 0, ret = 0;

	*groups = NULL;
	*ngroups = 0;
	for (i = 0; i < fl->n; i++)
		n += fl->machines[i].runs[0]->n;
	all = calloc((size_t)n + 1, sizeof(*all));
	tmp = calloc((size_t)n + 1, sizeof(*tmp));
	if (!all || !tmp) {
		ret = -ENOMEM;
		goto err;
	}
	for (i = 0, k = 0; i < fl->n; i++) {
		struct fleet_run *r = fl->machines[i].runs[0];

		for (j = 0; j < r->n; j++) {
			all[k].m = &fl->machines[i];
			all[k++].d = &r->disks[j];
		}
	}
	ret = same(all, n);
	if (ret)
		goto err;
	qsort(all, (size_t)n, sizeof(*all), by_model);
	/* As many groups as disks at most. */
	gs = calloc((size_t)n + 1, sizeof(*gs));
	if (!gs) {
		ret = -ENOMEM;
		goto err;
	}
	for (i = 0; i < n; i = j) {
		for (j = i + 1; j < n && like(&all[j], &all[i]); j++)
			;
		ret = fill(&gs[*ngroups], all + i, j - i, tmp);
		if (ret)
			goto err;
		(*ngroups)++;
	}
	*groups = gs;
	gs = NULL;
err:
	if (gs)
		fleet_like_free(gs, *ngroups);
	if (ret)
		*ngroups = 0;
	free(all);
	free(tmp);
	return ret;
}

void fleet_like_free(struct fleet_like_group *groups, int n)
{
	int i;

	for (i = 0; groups && i < n; i++)
		free(groups[i].disks);
	free(groups);
}

int fleet_like_slow(const struct fleet_disk *d)
{
	return (d->write_like && d->write_like < FLEET_LIKE_SLOW) ||
	       (d->read_like && d->read_like < FLEET_LIKE_SLOW);
}

void fleet_like_below(FILE *f, const struct fleet_disk *d)
{
	int w = d->write_like && d->write_like < FLEET_LIKE_SLOW;

	fputs(":", f);
	if (w)
		fprintf(f, " write %.0f%%", d->write_like * 100);
	if (d->read_like && d->read_like < FLEET_LIKE_SLOW)
		fprintf(f, "%s verify %.0f%%", w ? "," : "",
			d->read_like * 100);
	fputs(" of like disks", f);
}
