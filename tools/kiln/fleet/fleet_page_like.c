/* SPDX-License-Identifier: MIT */
/*
 * Description: fleet.html's like disks (fleet_page_like): a row per
 * group of like disks across machines, its medians, a histogram of its
 * rates with a legend, and the machines whose disks are far below.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fleet/fleet.h"
#include "settings/settings.h"

#define BINS 48
#define PW 240		/* plot width */
#define PH 22		/* each row's height */
#define LH 14		/* the legend's line */

static void html(FILE *f, const char *s)
{
	fleet_text(f, s, FLEET_HTML);
}

/* A histogram of one rate of a group's disks, the median and 85% marked. */
static void bars(FILE *f, const struct fleet_like_group *g, int write,
		 double top, int y)
{
	double med = write ? g->write_median : g->read_median;
	int count[BINS] = { 0 }, most = 1, i, b;

	for (i = 0; i < g->n; i++) {
		double v = write ? g->disks[i].d->write_mbps :
			   g->disks[i].d->read_mbps;

		if (v <= 0)
			continue;
		b = (int)(v / top * BINS);
		b = b >= BINS ? BINS - 1 : b;
		if (++count[b] > most)
			most = count[b];
	}
	for (b = 0; b < BINS; b++) {
		double x = (double)b * PW / BINS;
		double h = (PH - 4.0) * count[b] / most;

		if (!count[b])
			continue;
		/* One disk alone must show among thousands. */
		h = h < 3 ? 3 : h;
		fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
			"height=\"%.1f\" fill=\"%s\"/>", x, y + PH - h,
			(double)PW / BINS - 0.5, h,
			(b + 1.0) * top / BINS < med * FLEET_LIKE_SLOW ?
			"#d62728" : write ? "#1f77b4" : "#e6550d");
	}
	fprintf(f, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%d\" "
		"stroke=\"#000\"/><line x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" "
		"y2=\"%d\" stroke=\"#999\" stroke-dasharray=\"2\"/>",
		med / top * PW, med / top * PW, y, y + PH,
		med * FLEET_LIKE_SLOW / top * PW,
		med * FLEET_LIKE_SLOW / top * PW, y, y + PH);
}

/* What the marks mean, under the bars: seen, not only hovered. */
static void legend(FILE *f, int y)
{
	static const struct {
		const char *name, *fill, *dash;
		int line;
	} keys[] = {
		{ "write", "#1f77b4", NULL, 0 },
		{ "verify", "#e6550d", NULL, 0 },
		{ "slow", "#d62728", NULL, 0 },
		{ "median", "#000", "", 1 },
		{ "85%", "#999", "2", 1 },
	};
	int x = 0;
	size_t i;

	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		if (keys[i].line)
			fprintf(f, "<line x1=\"%d\" x2=\"%d\" y1=\"%d\" "
				"y2=\"%d\" stroke=\"%s\"%s%s%s/>", x + 3, x + 3,
				y - 9, y, keys[i].fill, keys[i].dash[0] ?
				" stroke-dasharray=\"" : "", keys[i].dash,
				keys[i].dash[0] ? "\"" : "");
		else
			fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"7\" "
				"height=\"8\" fill=\"%s\"/>", x, y - 8,
				keys[i].fill);
		fprintf(f, "<text class=\"key\" x=\"%d\" y=\"%d\" "
			"font-size=\"11\">%s</text>", x + 9, y, keys[i].name);
		/* 11 px text, the least that reads at 100% zoom. */
		x += 16 + 13 * (int)strlen(keys[i].name) / 2;
	}
}

static void plot(FILE *f, const struct fleet_like_group *g)
{
	double top = 1;
	int i;

	if (!g->write_median && !g->read_median)
		return;
	for (i = 0; i < g->n; i++) {
		if (g->disks[i].d->write_mbps > top)
			top = g->disks[i].d->write_mbps;
		if (g->disks[i].d->read_mbps > top)
			top = g->disks[i].d->read_mbps;
	}
	top *= 1.02;
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
		"height=\"%d\" viewBox=\"0 0 %d %d\"><title>write (blue) and "
		"verify (orange) MB/s, 0 to %.0f; the median (black), 85%% of "
		"it (dashed)</title>", PW, 2 * PH + 14 + LH, PW,
		2 * PH + 14 + LH, top);
	if (g->write_median)
		bars(f, g, 1, top, 0);
	if (g->read_median)
		bars(f, g, 0, top, PH + 2);
	fprintf(f, "<text x=\"0\" y=\"%d\" font-size=\"11\">0</text>"
		"<text x=\"%d\" y=\"%d\" font-size=\"11\" text-anchor=\"end\">"
		"%.0f MB/s</text>", 2 * PH + 13, PW, 2 * PH + 13, top);
	legend(f, 2 * PH + 14 + LH - 3);
	fputs("</svg>", f);
}

static void rate(FILE *f, double v)
{
	if (v > 0)
		fprintf(f, "<td class=\"n\">%.0f</td>", v);
	else
		fputs("<td class=\"n\">-</td>", f);
}

/* Every disk of g in the machine of its slow disk i is slow: in short. */
static void all_slow(FILE *f, const struct fleet_like_group *g, int i)
{
	const struct fleet_machine *m = g->disks[i].m;
	double lo[2] = { 9, 9 }, hi[2] = { 0, 0 };
	int j, k, n = 0;

	for (j = i; j < g->nslow; j++) {
		const struct fleet_disk *d = g->disks[j].d;
		double like[2] = { d->write_like, d->read_like };

		if (g->disks[j].m != m)
			continue;
		n++;
		for (k = 0; k < 2; k++) {
			lo[k] = like[k] && like[k] < lo[k] ? like[k] : lo[k];
			hi[k] = like[k] > hi[k] ? like[k] : hi[k];
		}
	}
	fprintf(f, "</b>: all %d (its controller, cabling or backplane?)", n);
	for (k = 0; k < 2; k++)
		if (hi[k])
			fprintf(f, "%s %.0f-%.0f%%", k ? ", verify" : ": write",
				lo[k] * 100, hi[k] * 100);
	fputs(" of the median:", f);
	for (j = i; j < g->nslow; j++) {
		if (g->disks[j].m != m)
			continue;
		fputs(" ", f);
		html(f, g->disks[j].d->label);
	}
	fputs("</div>", f);
}

/*
 * The slow disks of the machine of g's slow disk i, once per machine (at
 * its slowest disk): all of a model slow in one machine and none
 * elsewhere is that machine's controller, cabling or backplane.
 */
static void slow_machine(FILE *f, const struct fleet_like_group *g, int i)
{
	const struct fleet_machine *m = g->disks[i].m;
	int j, k = 0, of = 0;

	for (j = 0; j < i; j++)
		if (g->disks[j].m == m)
			return;
	for (j = 0; j < g->n; j++)
		of += g->disks[j].m == m;
	for (j = i; j < g->nslow; j++)
		k += g->disks[j].m == m;
	fputs("<div><b>", f);
	html(f, m->id);
	if (k == of && of > 1) {
		all_slow(f, g, i);
		return;
	}
	fprintf(f, "</b>: %d of its %d", k, of);
	for (j = i; j < g->nslow; j++) {
		const struct fleet_disk *d = g->disks[j].d;

		if (g->disks[j].m != m)
			continue;
		fputs(j == i ? ": " : ", ", f);
		html(f, d->label);
		fputs(" <span class=\"id\">", f);
		html(f, d->serial[0] ? d->serial : d->identity);
		fputs("</span>", f);
		if (d->write_like && d->write_like < FLEET_LIKE_SLOW)
			fprintf(f, " write %.0f MB/s (%.0f%%)", d->write_mbps,
				d->write_like * 100);
		if (d->read_like && d->read_like < FLEET_LIKE_SLOW)
			fprintf(f, " verify %.0f MB/s (%.0f%%)", d->read_mbps,
				d->read_like * 100);
	}
	fputs("</div>", f);
}

static void group(FILE *f, const struct fleet_like_group *g)
{
	char size[32];
	int i;

	fputs("<tr><td>", f);
	html(f, g->model[0] ? g->model : g->file ? "(no model: files)" :
	     "(no model: disks)");
	fprintf(f, "</td><td class=\"n\">%s</td><td class=\"n\">%d</td>"
		"<td class=\"n\">%d</td>",
		settings_fmt_size(g->size, size, sizeof(size)), g->n,
		g->machines);
	rate(f, g->write_median);
	rate(f, g->read_median);
	fputs("<td>", f);
	plot(f, g);
	fputs("</td><td class=\"why\">", f);
	if (!g->write_median && !g->read_median)
		fprintf(f, "fewer than %d to compare", FLEET_LIKE_MIN);
	for (i = 0; i < g->nslow; i++)
		slow_machine(f, g, i);
	fputs("</td></tr>\n", f);
}

static int by_slow(const void *a, const void *b)
{
	const struct fleet_like_group *x = *(const struct fleet_like_group *
					     const *)a;
	const struct fleet_like_group *y = *(const struct fleet_like_group *
					     const *)b;

	if (x->nslow != y->nslow)
		return y->nslow - x->nslow;
	if (x->n != y->n)
		return y->n - x->n;
	if (x->file != y->file)
		return x->file - y->file;
	return strcmp(x->model, y->model);
}

void fleet_page_like(FILE *f, const struct fleet_like_group *groups, int n)
{
	const struct fleet_like_group **order = calloc((size_t)n + 1,
						       sizeof(*order));
	int i;

	fprintf(f, "<h2>Like disks across machines</h2>\n<p>The disks of "
		"every machine's latest run, by model and capacity: each "
		"group's median write and verify rates (of %d disks or more), "
		"and every disk under %.0f%% of either. A model slow in one "
		"machine only points at that machine's controller, cabling or "
		"backplane.</p>\n", FLEET_LIKE_MIN, FLEET_LIKE_SLOW * 100);
	if (!order)
		return;
	for (i = 0; i < n; i++)
		order[i] = &groups[i];
	qsort(order, (size_t)n, sizeof(*order), by_slow);
	fputs("<table id=\"like\"><thead><tr><th>model</th><th>capacity</th>"
	      "<th>disks</th><th>machines</th><th>median write MB/s</th>"
	      "<th>median verify MB/s</th><th>rates</th>"
	      "<th>far below the median</th></tr></thead><tbody>\n", f);
	for (i = 0; i < n; i++)
		group(f, order[i]);
	fputs("</tbody></table>\n", f);
	free(order);
}

