/* SPDX-License-Identifier: MIT */
/*
 * Description: fleet.html, the one page of a lab: a row per machine's
 * latest run, failures first, with the runs behind it folded away
 * (<details>), then like disks compared across machines with a small
 * histogram of their rates each. Self-contained like report.html: inline
 * CSS and SVG, no script, no network, readable on a laptop straight from
 * the server's folder; every name is escaped (fleet_text), whatever bytes
 * a lab's folders hold.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fleet/fleet.h"
#include "settings/settings.h"
#include "base/timing.h"

#define BINS 48
#define PW 240		/* plot width */
#define PH 22		/* each row's height */

static const char style[] =
	"body{font-family:sans-serif;margin:1em 1.5em;color:#222;"
	"font-size:14px}\n"
	"table{border-collapse:collapse;margin-bottom:1.5em}\n"
	"td,th{border:1px solid #bbb;padding:3px 6px;vertical-align:top;"
	"text-align:left}\n"
	"th{background:#eee;position:sticky;top:0}\n"
	"td.n{text-align:right;white-space:nowrap}\n"
	".PASS{background:#c8f0c8}.WARN{background:#fff0a0}"
	".FAIL{background:#f8b8b8}.odd{background:#e0e0f8}\n"
	".sum span{padding:0 .4em;margin-right:.3em}\n"
	".id{color:#555}.why{font-size:13px}.t{white-space:nowrap}\n"
	"details{font-size:13px}summary{cursor:pointer;color:#225}\n"
	"details ol{margin:.3em 0;padding-left:1.4em}\n";

static void html(FILE *f, const char *s)
{
	fleet_text(f, s, FLEET_HTML);
}

/* The verdict's class: PASS, WARN, FAIL, or odd for what is not one. */
static const char *tone(const struct fleet_run *r)
{
	if (!strcmp(r->verdict, "FAIL") || !strcmp(r->verdict, "WARN") ||
	    !strcmp(r->verdict, "PASS"))
		return r->state == FLEET_CUT_OFF && strcmp(r->verdict, "FAIL") ?
		       "odd" : r->verdict;
	return "odd";
}

static void verdict(FILE *f, const struct fleet_run *r)
{
	int so_far = r->state == FLEET_RUNNING || r->state == FLEET_CUT_OFF;

	fprintf(f, "<td class=\"%s\">%s%s</td>", tone(r),
		r->verdict[0] ? r->verdict : "-",
		so_far && r->verdict[0] ? " so far" : "");
}

static void state(FILE *f, const struct fleet *fl, const struct fleet_run *r)
{
	char age[32];

	fputs("<td class=\"why\">", f);
	switch (r->state) {
	case FLEET_PENDING:
		fputs("pending power-cut (the next boot verifies it)", f);
		break;
	case FLEET_RUNNING:
	case FLEET_CUT_OFF:
		fprintf(f, "<b>%s</b>: %scheckpoint %llu came %s ago",
			fleet_state_name(r->state), r->state == FLEET_CUT_OFF ?
			"no result.json and not finished; its last " : "",
			(unsigned long long)r->checkpoint,
			fleet_age((double)(fl->now - r->checkpoint_at), age,
				  sizeof(age)));
		break;
	case FLEET_PARTIAL:
	case FLEET_UNREADABLE:
		fprintf(f, "<b>%s</b>: ", fleet_state_name(r->state));
		html(f, r->problem);
		break;
	default:
		fputs(fleet_state_name(r->state), f);
		if (r->pending_of) {
			fputs(" (verified the power-cut run ", f);
			html(f, r->pending_of);
			fputs(")", f);
		}
	}
	fputs("</td>", f);
}

static void disk(FILE *f, const struct fleet_disk *d)
{
	fputs("<div><b>", f);
	html(f, d->label);
	fputs("</b> <span class=\"id\">", f);
	if (d->model[0] || d->serial[0]) {
		html(f, d->model);
		fputs(" ", f);
		html(f, d->serial);
	} else {
		html(f, d->identity);
	}
	fputs("</span>", f);
}

/* The disks of one verdict with their reasons; and what else to say. */
static void disks(FILE *f, const struct fleet_run *r, const char *v,
		  const char *first, const char *second)
{
	int i;

	fputs("<td class=\"why\">", f);
	if (first) {
		fputs("<div>", f);
		html(f, first);
		fputs("</div>", f);
	}
	if (second) {
		fputs("<div>", f);
		html(f, second);
		fputs("</div>", f);
	}
	for (i = 0; i < r->n; i++) {
		const struct fleet_disk *d = &r->disks[i];

		if (strcmp(d->verdict, v))
			continue;
		disk(f, d);
		fputs(": ", f);
		html(f, d->reasons);
		fputs("</div>", f);
	}
	/* Like disks elsewhere tell what one machine's run cannot. */
	for (i = 0; !strcmp(v, "WARN") && i < r->n; i++) {
		const struct fleet_disk *d = &r->disks[i];

		if (!fleet_like_slow(d))
			continue;
		disk(f, d);
		fleet_like_below(f, d);
		fputs("</div>", f);
	}
	fputs("</td>", f);
}

static void when(FILE *f, const struct fleet_run *r)
{
	char hms[32];

	fputs("<td class=\"t\">", f);
	html(f, r->started[0] ? r->started : "-");
	if (r->started[0] && !r->clock_trusted)
		fputs("<br><span class=\"id\">(its clock was not set)</span>",
		      f);
	fprintf(f, "</td><td class=\"n\">%s</td>", r->started[0] ?
		timing_fmt_hms((uint64_t)r->elapsed, hms, sizeof(hms)) : "-");
}

/* The runs behind the latest, folded away. */
static void history(FILE *f, const struct fleet_machine *m)
{
	char hms[32], at[40];
	int i, j;

	fputs("<td>", f);
	if (m->n < 2) {
		fputs("</td>", f);
		return;
	}
	fprintf(f, "<details><summary>%d earlier</summary><ol>", m->n - 1);
	for (i = 1; i < m->n; i++) {
		const struct fleet_run *r = m->runs[i];

		fprintf(f, "<li><span class=\"%s\">%s</span> %s, ", tone(r),
			r->verdict[0] ? r->verdict : "-",
			fleet_state_name(r->state));
		if (r->started[0])
			html(f, r->started);
		else
			fprintf(f, "changed %s", timing_fmt_utc(r->changed, 0,
				at, sizeof(at)));
		if (r->started[0])
			fprintf(f, ", %s", timing_fmt_hms((uint64_t)r->elapsed,
							  hms, sizeof(hms)));
		for (j = 0; j < r->n; j++) {
			if (strcmp(r->disks[j].verdict, "FAIL"))
				continue;
			fputs("; FAIL ", f);
			html(f, r->disks[j].label);
		}
		if (r->problem) {
			fputs("; ", f);
			html(f, r->problem);
		}
		fputs(" <span class=\"id\">", f);
		html(f, r->name);
		fputs("</span></li>", f);
	}
	fputs("</ol></details></td>", f);
}

static void row(FILE *f, const struct fleet *fl, const struct fleet_machine *m)
{
	const struct fleet_run *r = m->runs[0];
	const char *note = r->state == FLEET_UNREADABLE ||
			   r->state == FLEET_PARTIAL ? NULL : r->problem;
	int i, failed = 0;

	for (i = 0; i < r->n; i++)
		failed += !strcmp(r->disks[i].verdict, "FAIL");
	fputs("<tr><td><b>", f);
	html(f, m->id);
	fputs("</b><br><span class=\"id\">", f);
	html(f, r->name);
	fputs("</span></td>", f);
	verdict(f, r);
	state(f, fl, r);
	if (r->state == FLEET_UNREADABLE || r->state == FLEET_PARTIAL)
		fputs("<td class=\"n\">-</td>", f);
	else if (failed)
		fprintf(f, "<td class=\"n\">%d<br>%d failed</td>", r->n,
			failed);
	else
		fprintf(f, "<td class=\"n\">%d</td>", r->n);
	disks(f, r, "FAIL", r->failure, NULL);
	disks(f, r, "WARN", r->results_lost ? "not all of the run's results "
	      "were written" : NULL, note);
	when(f, r);
	fputs("<td>", f);
	html(f, r->kiln_version ? r->kiln_version : "-");
	fputs("</td>", f);
	history(f, m);
	fputs("</tr>\n", f);
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
		"it (dashed)</title>", PW, 2 * PH + 14, PW, 2 * PH + 14, top);
	if (g->write_median)
		bars(f, g, 1, top, 0);
	if (g->read_median)
		bars(f, g, 0, top, PH + 2);
	fprintf(f, "<text x=\"0\" y=\"%d\" font-size=\"10\">0</text>"
		"<text x=\"%d\" y=\"%d\" font-size=\"10\" text-anchor=\"end\">"
		"%.0f MB/s</text></svg>", 2 * PH + 13, PW, 2 * PH + 13, top);
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
	html(f, g->model[0] ? g->model : "(no model: files)");
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
	return strcmp(x->model, y->model);
}

static void like(FILE *f, const struct fleet_like_group *groups, int n)
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

static void summary(FILE *f, const struct fleet *fl)
{
	/* fleet_rank()'s: verdicts, and states as their table names them. */
	const char *const rank_names[] = {
		"FAIL", fleet_state_name(FLEET_UNREADABLE),
		fleet_state_name(FLEET_CUT_OFF), "WARN",
		fleet_state_name(FLEET_RUNNING),
		fleet_state_name(FLEET_PENDING), "PASS" };
	static const char *const rank_tones[] = {
		"FAIL", "odd", "odd", "WARN", "odd", "odd", "PASS" };
	char when[40];
	int count[7] = { 0 }, i;

	for (i = 0; i < fl->n; i++)
		count[fleet_rank(fl->machines[i].runs[0])]++;
	fprintf(f, "<p class=\"sum\">%d machine%s, %d run folder%s: ", fl->n,
		fl->n == 1 ? "" : "s", fl->nruns, fl->nruns == 1 ? "" : "s");
	for (i = 0; i < 7; i++)
		if (count[i])
			fprintf(f, "<span class=\"%s\">%d %s</span>",
				rank_tones[i], count[i], rank_names[i]);
	fprintf(f, "</p>\n<p class=\"id\">read %s from ",
		timing_fmt_utc(fl->now, 0, when, sizeof(when)));
	for (i = 0; i < fl->nroots; i++) {
		fputs(i ? ", " : "", f);
		html(f, fl->roots[i]);
	}
	fputs("; the latest run of a machine is the one that started last "
	      "(when its clock was set), else whose folder changed last.</p>\n",
	      f);
}

char *fleet_page_html(const struct fleet *fl,
		      const struct fleet_like_group *groups, int ngroups,
		      size_t *len)
{
	char *out = NULL;
	FILE *f = open_memstream(&out, len);
	int i, failed = 0;

	if (!f)
		return NULL;
	for (i = 0; i < fl->n; i++)
		failed += fleet_rank(fl->machines[i].runs[0]) == 0;
	fprintf(f, "<!DOCTYPE html>\n<html lang=\"en\"><head>"
		"<meta charset=\"utf-8\"><title>kiln fleet: %d machines, "
		"%d FAIL</title>\n<style>\n%s</style></head><body>\n"
		"<h1>kiln fleet</h1>\n", fl->n, failed, style);
	summary(f, fl);
	fputs("<table id=\"machines\"><thead><tr><th>machine</th>"
	      "<th>verdict</th><th>state</th><th>disks</th>"
	      "<th>failing disks, and why</th><th>warnings</th>"
	      "<th>started (UTC)</th><th>duration</th><th>kiln</th>"
	      "<th>earlier runs</th></tr></thead><tbody>\n", f);
	for (i = 0; i < fl->n; i++)
		row(f, fl, &fl->machines[i]);
	fputs("</tbody></table>\n", f);
	if (!fl->n)
		fputs("<p>No run folders were found.</p>\n", f);
	like(f, groups, ngroups);
	fputs("</body></html>\n", f);
	if (fclose(f)) {
		free(out);
		return NULL;
	}
	return out;
}
