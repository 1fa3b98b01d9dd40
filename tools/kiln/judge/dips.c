/* SPDX-License-Identifier: MIT */
/*
 * Description: the host's dips are the host's. A second in which most of
 * the disks busy then ran far below their own averages together is not
 * the disks': the machine stalled them (its process frozen, the first
 * write to sparse tmpfs files, memory pressure). Such a second is said
 * once, as the machine's, with its time, and no disk WARNs "unstable"
 * for it, nor is it counted in the like-disk comparison; a disk that dips
 * alone still WARNs. A second in which most disks behind one controller
 * dipped while the machine as a whole did not is the controller's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge/dips.h"
#include "judge/figures.h"
#include "judge/record.h"

/* Whether disk d dipped in the second at ms, in any moving phase. */
static int dipped_at(const struct dips_disk *d, uint32_t ms)
{
	int p;
	unsigned i;

	for (p = 0; p < PHASES; p++)
		for (i = 0; i < d->mt->nslow[p]; i++)
			if (d->mt->slow[p][i].ms == ms && d->avg[p] > 0 &&
			    d->mt->slow[p][i].mbps < DIPS_SHARE * d->avg[p])
				return 1;
	return 0;
}

static int busy_at(const struct dips_disk *d, uint32_t ms)
{
	return d->mt->busy && d->mt->busy_from_ms <= ms &&
	       ms <= d->mt->busy_to_ms;
}

static void mark(struct dips_disk *d, int n, int ctrl, uint32_t ms)
{
	int i, p;
	unsigned k;

	for (i = 0; i < n; i++) {
		if (!d[i].mt || (ctrl >= 0 && d[i].ctrl != ctrl))
			continue;
		for (p = 0; p < PHASES; p++)
			for (k = 0; k < d[i].mt->nslow[p]; k++)
				if (d[i].mt->slow[p][k].ms == ms)
					d[i].mt->slow[p][k].shared = 1;
	}
}

/* More than half of the busy disks (of ctrl, or all: -1), two at least. */
static int most(struct dips_disk *d, int n, int ctrl, uint32_t ms,
		unsigned *dipped, unsigned *busy)
{
	int i;

	*dipped = *busy = 0;
	for (i = 0; i < n; i++) {
		if (!d[i].mt || (ctrl >= 0 && d[i].ctrl != ctrl) ||
		    !busy_at(&d[i], ms))
			continue;
		++*busy;
		*dipped += (unsigned)dipped_at(&d[i], ms);
	}
	return *dipped >= 2 && 2 * *dipped > *busy;
}

static void add(struct dips *out, uint32_t ms, int ctrl, unsigned dipped,
		unsigned busy)
{
	int i;

	for (i = 0; i < out->n; i++)
		if (out->s[i].ms == ms)
			return;
	if (out->n == DIPS_MAX) {
		out->more++;
		return;
	}
	for (i = out->n; i > 0 && out->s[i - 1].ms > ms; i--)
		out->s[i] = out->s[i - 1];
	out->s[i].ms = ms;
	out->s[i].ctrl = ctrl;
	out->s[i].dipped = dipped;
	out->s[i].busy = busy;
	out->n++;
}

static void consider(struct dips_disk *d, int n, uint32_t ms,
		     struct dips *out)
{
	unsigned dipped, busy;
	int i;

	for (i = 0; i < out->n; i++)
		if (out->s[i].ms == ms)
			return;
	if (most(d, n, -1, ms, &dipped, &busy)) {
		add(out, ms, -1, dipped, busy);
		mark(d, n, -1, ms);
		return;
	}
	for (i = 0; i < n; i++) {
		int c = d[i].ctrl;

		if (c < 0 || !d[i].mt || !dipped_at(&d[i], ms))
			continue;
		if (most(d, n, c, ms, &dipped, &busy)) {
			add(out, ms, c, dipped, busy);
			mark(d, n, c, ms);
			return;
		}
	}
}

/*
 * A second next to a shared one (the sample before or after it): a
 * freeze's edges fall in different seconds on different disks (each
 * resumed a few milliseconds apart, each moving whole requests), so a
 * disk's dip there is of the same event, though fewer than half dipped.
 */
#define DIPS_EDGE_MS 1500

static int near(const struct dips *out, int ctrl, uint32_t ms)
{
	int i;

	for (i = 0; i < out->n; i++)
		if ((out->s[i].ctrl < 0 || out->s[i].ctrl == ctrl) &&
		    (out->s[i].ms > ms ? out->s[i].ms - ms : ms - out->s[i].ms)
		    <= DIPS_EDGE_MS)
			return 1;
	return 0;
}

static void edges(struct dips_disk *d, int n, const struct dips *out)
{
	struct monitor_slow *sl;
	int i, p;
	unsigned k;

	for (i = 0; i < n; i++) {
		if (!d[i].mt)
			continue;
		for (p = 0; p < PHASES; p++)
			for (k = 0; k < d[i].mt->nslow[p]; k++) {
				sl = &d[i].mt->slow[p][k];
				if (!sl->shared && d[i].avg[p] > 0 &&
				    sl->mbps < DIPS_SHARE * d[i].avg[p] &&
				    near(out, d[i].ctrl, sl->ms))
					sl->shared = 1;
			}
	}
}

void dips_find(struct dips_disk *d, int n, struct dips *out)
{
	int i, p;
	unsigned k;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < n; i++) {
		if (!d[i].mt)
			continue;
		for (p = 0; p < PHASES; p++)
			for (k = 0; k < d[i].mt->nslow[p]; k++)
				d[i].mt->slow[p][k].shared = 0;
	}
	/* Every second some disk dipped in is a candidate. */
	for (i = 0; i < n; i++) {
		if (!d[i].mt)
			continue;
		for (p = 0; p < PHASES; p++)
			for (k = 0; k < d[i].mt->nslow[p]; k++)
				if (d[i].avg[p] > 0 &&
				    d[i].mt->slow[p][k].mbps <
				    DIPS_SHARE * d[i].avg[p])
					consider(d, n, d[i].mt->slow[p][k].ms,
						 out);
	}
	edges(d, n, out);
}

void dips_text(const struct dips *d, int ctrl, const char *name, char *buf,
	       size_t len)
{
	size_t used = 0;
	unsigned dipped = 0, busy = 0, seen = 0, total = 0;
	int i;

	buf[0] = 0;
	for (i = 0; i < d->n; i++)
		if (d->s[i].ctrl == ctrl)
			total++;
	if (!total)
		return;
	used = (size_t)snprintf(buf, len, "%s: most of its disks slowed "
				"together in %s ", ctrl < 0 ? "the machine's" :
				name, total > 1 ? "seconds" : "second");
	for (i = 0; i < d->n && used < len; i++) {
		if (d->s[i].ctrl != ctrl)
			continue;
		if (d->s[i].dipped > dipped) {
			dipped = d->s[i].dipped;
			busy = d->s[i].busy;
		}
		seen++;
		used += (size_t)snprintf(buf + used, len - used, "%s%u",
					 seen == 1 ? "" : seen == total ?
					 " and " : ", ",
					 (d->s[i].ms + 500) / 1000);
	}
	if (used < len && ctrl < 0 && d->more)
		used += (size_t)snprintf(buf + used, len - used,
					 " and %u more", d->more);
	if (used < len)
		snprintf(buf + used, len - used, " (up to %u of %u busy "
			 "disks), not counted against any disk", dipped, busy);
}

/* The run's shared seconds (see dips.h), from each disk's monitor. */
void dips_judge(struct record *r)
{
	struct dips *out = record_slot_make(r, DIPS_SLOT, sizeof(*out), NULL);
	struct dips_disk *dd = calloc((size_t)r->n + 1, sizeof(*dd));
	struct dips alone;
	int i, p;

	/* Out of memory: still left out of each disk's, only not kept. */
	if (!out)
		out = &alone;
	memset(out, 0, sizeof(*out));
	if (!dd)
		return;
	for (i = 0; i < r->n; i++) {
		struct record_disk *d = &r->disks[i];

		if (d->failed[0] || !d->mt)
			continue;
		dd[i].mt = d->mt;
		dd[i].ctrl = d->link.ctrl;
		for (p = 0; p < PHASES; p++)
			dd[i].avg[p] = figures_rate(&d->snap, p);
	}
	dips_find(dd, r->n, out);
	free(dd);
}
