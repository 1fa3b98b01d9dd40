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
 * Kinds in the page's order: by model name, files before devices, then
 * by capacity. A lab's disks are of a few models: one pointer for each
 * model (same()) makes equal names compare without strcmp.
 */
static int by_kind(const struct fleet_like_disk *x,
		   const struct fleet_like_disk *y)
{
	int c = x->model == y->model ? 0 : strcmp(x->model, y->model);

	if (c)
		return c;
	if (x->d->file != y->d->file)
		return x->d->file - y->d->file;
	if (x->d->size != y->d->size)
		return x->d->size < y->d->size ? -1 : 1;
	return 0;
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

/* How far below its like disks a disk is: its worse fraction, 0 none. */
static double worst(const struct fleet_disk *d)
{
	double w = d->write_like, r = d->read_like;

	if (!w || (r && r < w))
		return r;
	return w;
}

/*
 * Slow disks of one group, the slowest first; of two as slow, the one of
 * the machine first by id, then the first in its run (both are slow, so
 * neither worst() is 0).
 */
static int by_slowest(const void *a, const void *b)
{
	const struct fleet_like_disk *x = a, *y = b;
	double wx = worst(x->d), wy = worst(y->d);

	if (wx != wy)
		return wx < wy ? -1 : 1;
	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	/* One machine's: in its run's order, whatever qsort starts from. */
	return (x->d > y->d) - (x->d < y->d);
}

/*
 * The k-th smallest of v[0..n) (0-based), v reordered so that none
 * before it is larger (Hoare's selection): the median of 300,000 rates
 * without sorting them.
 */
static double nth(double *v, int n, int k)
{
	int lo = 0, hi = n - 1;

	while (lo < hi) {
		double pivot = v[lo + (hi - lo) / 2], t;
		int i = lo, j = hi;

		while (i <= j) {
			while (v[i] < pivot)
				i++;
			while (v[j] > pivot)
				j--;
			if (i <= j) {
				t = v[i];
				v[i++] = v[j];
				v[j--] = t;
			}
		}
		if (k <= j)
			hi = j;
		else if (k >= i)
			lo = i;
		else
			break;
	}
	return v[k];
}

/* The median of the rates above 0, when there are enough of them. */
static double median(const struct fleet_like_disk *ds, int n, int write,
		     double *tmp)
{
	double hi, lo;
	int i, k = 0;

	for (i = 0; i < n; i++) {
		double v = write ? ds[i].d->write_mbps : ds[i].d->read_mbps;

		if (v > 0)
			tmp[k++] = v;
	}
	if (k < FLEET_LIKE_MIN)
		return 0;
	hi = nth(tmp, k, k / 2);
	if (k % 2)
		return hi;
	/* The larger half's least is hi; the lower's greatest is below. */
	lo = tmp[0];
	for (i = 1; i < k / 2; i++)
		lo = tmp[i] > lo ? tmp[i] : lo;
	return (lo + hi) / 2;
}

/*
 * Group g of the n disks at ds: the medians, each disk's fraction of
 * them, and the slow disks first, the slowest first (what the page
 * names); the rest after them in no order (only counted and plotted).
 */
static int fill(struct fleet_like_group *g, const struct fleet_like_disk *ds,
		int n, double *tmp)
{
	int i, k;

	g->disks = malloc((size_t)n * sizeof(*g->disks));
	if (!g->disks)
		return -ENOMEM;
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
		if (fleet_like_slow(d))
			g->nslow++;
	}
	for (i = 0, k = 0; i < n; i++)
		if (fleet_like_slow(ds[i].d))
			g->disks[k++] = ds[i];
	for (i = 0; i < n; i++)
		if (!fleet_like_slow(ds[i].d))
			g->disks[k++] = ds[i];
	qsort(g->disks, (size_t)g->nslow, sizeof(*g->disks), by_slowest);
	return 0;
}

static int by_id(const void *a, const void *b)
{
	const struct fleet_machine *x = *(const struct fleet_machine *
					  const *)a;
	const struct fleet_machine *y = *(const struct fleet_machine *
					  const *)b;

	return strcmp(x->id, y->id);
}

/* Each machine's place by id, indexed as fl->machines: NULL no memory. */
static int *ranks(const struct fleet *fl)
{
	const struct fleet_machine **order = calloc((size_t)fl->n + 1,
						    sizeof(*order));
	int *rank = calloc((size_t)fl->n + 1, sizeof(*rank)), i;

	if (!order || !rank) {
		free(order);
		free(rank);
		return NULL;
	}
	for (i = 0; i < fl->n; i++)
		order[i] = &fl->machines[i];
	qsort(order, (size_t)fl->n, sizeof(*order), by_id);
	for (i = 0; i < fl->n; i++)
		rank[order[i] - fl->machines] = i;
	free(order);
	return rank;
}

/* A kind of disk (model, file, capacity): its first disk and its count. */
struct kind {
	const struct fleet_like_disk *first;
	int n, at;
};

static size_t kind_slot(const struct kind *ks, const int *slots, size_t cap,
			const struct fleet_like_disk *x)
{
	uint64_t h = ((uint64_t)(uintptr_t)x->model * 31 + x->d->size * 2 +
		      !!x->d->file) * 0x9e3779b97f4a7c15ull;
	/* The high bits: round sizes differ there, not in the low. */
	size_t k = (size_t)(h >> 32) & (cap - 1);

	while (slots[k] >= 0 && !like(ks[slots[k]].first, x))
		k = (k + 1) & (cap - 1);
	return k;
}

static int kinds_by_kind(const void *a, const void *b)
{
	return by_kind(((const struct kind *)a)->first,
		       ((const struct kind *)b)->first);
}

/*
 * The disks at all in groups of one kind, each group's disks in the order
 * they came (a machine's together), the groups in by_kind()'s order: a
 * count and a copy, not a sort of 1,200,000 disks. Into out; the kinds
 * (*nk of them) into *kinds. 0, or -ENOMEM.
 */
static int by_kinds(const struct fleet_like_disk *all, int n,
		    struct fleet_like_disk *out, struct kind **kinds, int *nk)
{
	size_t cap = 64, i;
	int *slots = malloc(cap * sizeof(*slots)), *of = malloc(
		((size_t)n + 1) * sizeof(*of)), j, used = 0;
	struct kind *ks = calloc((size_t)n + 1, sizeof(*ks));
	int *pos = NULL;

	*kinds = NULL;
	*nk = 0;
	if (!slots || !of || !ks)
		goto nomem;
	memset(slots, 0xff, cap * sizeof(*slots));
	for (j = 0; j < n; j++) {
		size_t k = kind_slot(ks, slots, cap, &all[j]);

		if (slots[k] < 0) {
			ks[used].first = &all[j];
			slots[k] = used++;
			/* Half full: twice the slots, each kind again. */
			if (2 * (size_t)used > cap) {
				int *more = malloc(2 * cap * sizeof(*more));

				if (!more)
					goto nomem;
				memset(more, 0xff, 2 * cap * sizeof(*more));
				cap *= 2;
				free(slots);
				slots = more;
				for (i = 0; i < (size_t)used; i++)
					slots[kind_slot(ks, slots, cap,
							ks[i].first)] = (int)i;
				k = kind_slot(ks, slots, cap, &all[j]);
			}
		}
		of[j] = slots[k];
		ks[slots[k]].n++;
	}
	/* Sorted, each kind's new place found through its first disk. */
	pos = malloc(((size_t)used + 1) * sizeof(*pos));
	if (!pos)
		goto nomem;
	qsort(ks, (size_t)used, sizeof(*ks), kinds_by_kind);
	for (j = 0, i = 0; j < used; j++) {
		ks[j].at = (int)i;
		i += (size_t)ks[j].n;
		pos[of[ks[j].first - all]] = j;
	}
	for (j = 0; j < n; j++)
		out[ks[pos[of[j]]].at++] = all[j];
	for (j = 0; j < used; j++)
		ks[j].at -= ks[j].n;
	free(slots);
	free(of);
	free(pos);
	*kinds = ks;
	*nk = used;
	return 0;
nomem:
	free(slots);
	free(of);
	free(ks);
	free(pos);
	return -ENOMEM;
}

int fleet_like_groups(struct fleet *fl, struct fleet_like_group **groups,
		      int *ngroups)
{
	struct fleet_like_disk *all, *grouped = NULL;
	struct fleet_like_group *gs = NULL;
	struct kind *ks = NULL;
	double *tmp;
	int i, j, k, n = 0, nk = 0, ret = 0, *rank = ranks(fl);

	*groups = NULL;
	*ngroups = 0;
	for (i = 0; i < fl->n; i++)
		n += fl->machines[i].runs[0]->n;
	all = calloc((size_t)n + 1, sizeof(*all));
	grouped = calloc((size_t)n + 1, sizeof(*grouped));
	tmp = calloc((size_t)n + 1, sizeof(*tmp));
	if (!all || !grouped || !tmp || !rank) {
		ret = -ENOMEM;
		goto err;
	}
	for (i = 0, k = 0; i < fl->n; i++) {
		struct fleet_run *r = fl->machines[i].runs[0];

		for (j = 0; j < r->n; j++) {
			all[k].m = &fl->machines[i];
			all[k].rank = rank[i];
			all[k++].d = &r->disks[j];
		}
	}
	ret = same(all, n);
	if (!ret)
		ret = by_kinds(all, n, grouped, &ks, &nk);
	if (ret)
		goto err;
	/* Copied into grouped: the groups' copies come in its place. */
	free(all);
	all = NULL;
	gs = calloc((size_t)nk + 1, sizeof(*gs));
	if (!gs) {
		ret = -ENOMEM;
		goto err;
	}
	for (i = 0; i < nk; i++) {
		ret = fill(&gs[*ngroups], grouped + ks[i].at, ks[i].n, tmp);
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
	free(grouped);
	free(ks);
	free(tmp);
	free(rank);
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
