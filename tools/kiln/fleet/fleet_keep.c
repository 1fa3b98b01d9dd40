/* SPDX-License-Identifier: MIT */
/*
 * Description: what kiln fleet keeps of the runs it reads, so a large lab
 * fits in memory. Of a machine's runs only the latest is shown whole (its
 * row, its disks, the like disks, the CSV); the runs behind it are a line
 * each: verdict, state, when, failing disks, problem, links. So as run
 * folders are read, a run that a later run of its machine has already
 * been read for is cut down to that line at once, and a lab of 200,000
 * runs holds the disks of its machines' latest runs only. Copies of one
 * run (one name) are left whole for the grouping to choose between; a run
 * cut down that turns out to be its machine's latest after all (a copy of
 * the later run told less) is read again whole, so the page never
 * depends on the order folders were read in.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fleet/fleet.h"

/* Whether x is later than y, as the machine's runs are ordered. */
int fleet_later(const struct fleet_run *x, const struct fleet_run *y)
{
	time_t wx = fleet_when(x), wy = fleet_when(y);

	if (wx != wy)
		return wx > wy;
	return strcmp(x->name, y->name) > 0;
}

/* r cut down to its line behind the latest: 0, or -ENOMEM (r whole). */
static int cut(struct fleet_run *r)
{
	struct fleet_run k;
	int i, n = 0;

	memset(&k, 0, sizeof(k));
	for (i = 0; i < r->n; i++)
		n += !strcmp(r->disks[i].verdict, "FAIL");
	k.disks = calloc((size_t)n + 1, sizeof(*k.disks));
	if (!k.disks)
		return -ENOMEM;
	/* Its failing disks, by label: all the line says of its disks. */
	for (i = 0; i < r->n; i++) {
		struct fleet_disk *d = &r->disks[i];

		if (strcmp(d->verdict, "FAIL"))
			continue;
		memcpy(k.disks[k.n].verdict, d->verdict, sizeof(d->verdict));
		k.disks[k.n++].label = d->label;
		d->label = NULL;
	}
	/* What the line, the grouping and the order read. */
	k.machine = r->machine;
	k.dir = r->dir;
	k.name = r->name;
	k.problem = r->problem;
	r->machine = r->dir = r->name = r->problem = NULL;
	k.has_report = r->has_report;
	k.has_summary = r->has_summary;
	k.has_certs = r->has_certs;
	k.state = r->state;
	memcpy(k.verdict, r->verdict, sizeof(k.verdict));
	memcpy(k.started, r->started, sizeof(k.started));
	memcpy(k.run_id, r->run_id, sizeof(k.run_id));
	k.start = r->start;
	k.clock_trusted = r->clock_trusted;
	k.elapsed = r->elapsed;
	k.changed = r->changed;
	k.checkpoint = r->checkpoint;
	k.checkpoint_at = r->checkpoint_at;
	k.cut = 1;
	fleet_read_free(r);
	*r = k;
	return 0;
}

static uint32_t hash(const char *s)
{
	uint32_t h = 2166136261u;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return h;
}

/* The slot of machine id in fl->keep: its own, else an empty one. */
static size_t slot(const struct fleet *fl, const char *id)
{
	size_t i = hash(id) & (fl->keep_cap - 1);

	while (fl->keep[i] &&
	       strcmp(fl->runs[fl->keep[i] - 1].machine, id))
		i = (i + 1) & (fl->keep_cap - 1);
	return i;
}

/* fl->keep twice as large (at least 1024 slots), at half full. */
static int grow(struct fleet *fl)
{
	size_t i, cap = fl->keep_cap ? fl->keep_cap * 2 : 1024;
	int *old = fl->keep;
	size_t ocap = fl->keep_cap;

	fl->keep = calloc(cap, sizeof(*fl->keep));
	if (!fl->keep) {
		fl->keep = old;
		return -ENOMEM;
	}
	fl->keep_cap = cap;
	for (i = 0; i < ocap; i++)
		if (old[i])
			fl->keep[slot(fl, fl->runs[old[i] - 1].machine)] =
				old[i];
	free(old);
	return 0;
}

int fleet_keep_add(struct fleet *fl, int i)
{
	struct fleet_run *r = &fl->runs[i], *cur;
	size_t s;
	int ret;

	if (2 * (fl->keep_n + 1) > fl->keep_cap && (ret = grow(fl)))
		return ret;
	s = slot(fl, r->machine);
	if (!fl->keep[s]) {
		fl->keep[s] = i + 1;
		fl->keep_n++;
		return 0;
	}
	cur = &fl->runs[fl->keep[s] - 1];
	/* Copies of one run: the grouping chooses which tells more. */
	if (!strcmp(cur->name, r->name))
		return 0;
	if (!fleet_later(r, cur))
		return cut(r);
	fl->keep[s] = i + 1;
	return cut(cur);
}

void fleet_keep_done(struct fleet *fl)
{
	fleet_index_release();
	fleet_read_release();
	free(fl->keep);
	fl->keep = NULL;
	fl->keep_cap = fl->keep_n = 0;
}

int fleet_keep_whole(struct fleet *fl, struct fleet_run *r)
{
	struct fleet_run whole;
	int ret;

	if (!r->cut)
		return 0;
	/* The machine it was read under is its id now, or was its folder's. */
	ret = fleet_read_run(r->dir, r->machine, r->name, fl->now, fl->stale,
			     &whole);
	if (ret) {
		fleet_read_free(&whole);
		return ret;
	}
	fleet_read_free(r);
	*r = whole;
	return 0;
}
