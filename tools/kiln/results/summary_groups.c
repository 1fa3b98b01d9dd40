/* SPDX-License-Identifier: MIT */
/*
 * Description: like disks with like outcomes, said once in summary.txt
 * (see summary_groups.h): which disks are alike, what they did (passes
 * and bytes) and their names as ranges ("loop0-59").
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/result.h"
#include "base/names.h"
#include "results/summary_groups.h"

uint64_t summary_passes(const struct record_disk *d)
{
	return figures_passes(&d->snap, d->ep.mode);
}

/* A disk said with others: nothing of its own to say. */
static int plain(const struct record_disk *d)
{
	return d->j.verdict != JUDGE_FAIL && !d->snap.c.io_errors &&
	       !d->snap.c.bad_units && !d->failed[0];
}

/* Like disks with like outcomes: what the group's line says is so. */
static int alike(const struct record_disk *a, const struct record_disk *b)
{
	int i;

	if (a->j.verdict != b->j.verdict || a->t.size != b->t.size ||
	    a->ep.mode != b->ep.mode ||
	    a->t.safety.class != b->t.safety.class ||
	    strcmp(a->t.id.model, b->t.id.model) ||
	    a->j.nreasons != b->j.nreasons)
		return 0;
	for (i = 0; i < a->j.nreasons; i++)
		if (strcmp(a->j.reasons[i], b->j.reasons[i]))
			return 0;
	return 1;
}

int summary_groups(const struct record *r, struct summary_group **out)
{
	struct summary_group *g = calloc((size_t)r->n + 1, sizeof(*g));
	int i, k, n = 0, each = r->n <= SUMMARY_EACH;

	*out = g;
	if (!g)
		return -ENOMEM;
	for (i = 0; i < r->n; i++) {
		const struct record_disk *d = &r->disks[i];

		for (k = 0; !each && plain(d) && k < n; k++)
			if (plain(&r->disks[g[k].idx[0]]) &&
			    alike(&r->disks[g[k].idx[0]], d))
				break;
		if (each || !plain(d) || k == n) {
			g[n].idx = calloc((size_t)r->n, sizeof(int));
			if (!g[n].idx) {
				summary_groups_free(g, n);
				*out = NULL;
				return -ENOMEM;
			}
			k = n++;
		}
		g[k].idx[g[k].n++] = i;
	}
	return n;
}

void summary_groups_free(struct summary_group *g, int n)
{
	int i;

	for (i = 0; g && i < n; i++)
		free(g[i].idx);
	free(g);
}

static void span(uint64_t *s, uint64_t v, int first)
{
	if (first || v < s[0])
		s[0] = v;
	if (first || v > s[1])
		s[1] = v;
	s[2] += v;
}

void summary_work_of(const struct record *r, const int *idx, int n,
		     struct summary_work *w)
{
	int i;

	memset(w, 0, sizeof(*w));
	for (i = 0; i < n; i++) {
		const struct record_disk *d = &r->disks[idx ? idx[i] : i];

		span(w->passes, summary_passes(d), !i);
		span(w->written, d->snap.c.bytes_written, !i);
		span(w->read, d->snap.c.bytes_read, !i);
	}
	w->n = n;
}

/* "6.4 GiB", or "6.4-6.6 GiB" when they differ in what is printed. */
static void bytes(char *buf, size_t len, const uint64_t *s, int each)
{
	char a[32], b[32], *unit;

	settings_fmt_size(each ? s[0] : s[2], a, sizeof(a));
	settings_fmt_size(s[1], b, sizeof(b));
	unit = strchr(a, ' ');
	if (!each || !strcmp(a, b) || !unit || !strchr(b, ' ') ||
	    strcmp(unit, strchr(b, ' '))) {
		if (each && strcmp(a, b))
			snprintf(buf, len, "%s to %s", a, b);
		else
			snprintf(buf, len, "%s", a);
		return;
	}
	*unit = 0;
	snprintf(buf, len, "%s-%s", a, b);
}

char *summary_work_text(const struct summary_work *w, int each, char *buf,
			size_t len)
{
	char passes[48], wr[48], rd[48];

	/* Passes are each disk's, never a sum: bytes add up. */
	figures_passes_text(w->passes[0], w->passes[1], passes,
			    sizeof(passes));
	bytes(wr, sizeof(wr), w->written, each);
	bytes(rd, sizeof(rd), w->read, each);
	snprintf(buf, len, "%s, %s written, %s read%s", passes, wr, rd,
		 each && w->n > 1 ? " each" : !each && w->n > 1 ? " in all" :
		 "");
	return buf;
}

char *summary_names(const char *const *names, int n, char *buf, size_t len)
{
	if (names_ranges(names, (size_t)n, buf, len) < 0)
		snprintf(buf, len, "%s and %d more", n ? names[0] : "", n - 1);
	return buf;
}

char *summary_group_names(const struct record *r,
			  const struct summary_group *g, char *buf,
			  size_t len)
{
	const char **names = calloc((size_t)g->n + 1, sizeof(*names));
	int i;

	if (!names) {
		snprintf(buf, len, "%s and %d more", r->disks[g->idx[0]].label,
			 g->n - 1);
		return buf;
	}
	for (i = 0; i < g->n; i++)
		names[i] = r->disks[g->idx[i]].label;
	summary_names(names, g->n, buf, len);
	free(names);
	return buf;
}
