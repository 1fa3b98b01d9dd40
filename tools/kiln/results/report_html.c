/* SPDX-License-Identifier: MIT */
/*
 * Description: report.html, one self-contained page per run: the verdict,
 * the per-disk table, each disk's reasons and a plot of its throughput
 * over the run (inline SVG, no script, no network), readable in any
 * browser straight off the stick.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/html.h"
#include "results/report_html.h"
#include "results/report_machine.h"
#include "results/report_zones.h"
#include "results/rma.h"
#include "results/signal.h"
#include "results/summary.h"
#include "results/summary_groups.h"
#include "base/timing.h"
#include "base/version.h"

#define W 720
#define H 170
#define LEFT 72
#define RIGHT 12
#define TOP 12
#define BOTTOM 28

/* Room for a verdict's reasons on one line. */
#define WHY_LEN (JUDGE_MAX_REASONS * 244)

/*
 * A verdict's reasons on one line, "; " between, the clean one ("no I/O
 * errors, no bad units") last: a disk that also warned leads with why.
 */
static char *why(const struct judge *j, char *buf, size_t len)
{
	size_t n = 0;
	int clean, i;

	buf[0] = 0;
	for (clean = 0; clean < 2; clean++)
		for (i = 0; i < j->nreasons && n < len; i++)
			if ((strcmp(j->reasons[i], JUDGE_CLEAN) == 0) == clean)
				n += (size_t)snprintf(buf + n, len - n, "%s%s",
						      n ? "; " : "",
						      j->reasons[i]);
	return buf;
}

/*
 * A FAILed disk's rma-*.txt linked, between pre and post: it is in the
 * run folder with report.html (a run without a folder wrote none).
 */
static void rma_link(FILE *f, const struct record *o,
		     const struct record_disk *d, const char *pre,
		     const char *post)
{
	char name[96];

	if (!o->out || d->j.verdict != JUDGE_FAIL)
		return;
	rma_name(d, name, sizeof(name));
	fputs(pre, f);
	fputs("<a href=\"", f);
	html_text(f, name);
	fputs("\">", f);
	html_text(f, name);
	fputs("</a>", f);
	fputs(post, f);
}

static void rates(FILE *f, const struct record_disk *d, int phase)
{
	double avg = figures_rate(&d->snap, phase), min, max;

	if (avg <= 0) {
		fputs("<td>-</td><td>-</td><td>-</td>", f);
		return;
	}
	fprintf(f, "<td>%.0f</td>", avg);
	if (figures_pass_range(&d->snap, phase, &min, &max))
		fprintf(f, "<td>%.0f</td><td>%.0f</td>", min, max);
	else
		fputs("<td>-</td><td>-</td>", f);
}

/* A series over the part of the plot's width its samples cover. */
static void line(FILE *f, const struct monitor_series *s, const float *v,
		 double ymax, double part, const char *color)
{
	unsigned i;

	if (s->n < 2)
		return;
	fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\" "
		"points=\"", color);
	for (i = 0; i < s->n; i++)
		fprintf(f, "%.1f,%.1f ",
			LEFT + (double)i * (W - LEFT - RIGHT) * part /
			(s->n - 1),
			TOP + (H - TOP - BOTTOM) * (1 - v[i] / ymax));
	fputs("\"/>\n", f);
}

/*
 * Throughput over the run: write in blue, verify or read in orange. The
 * time axis is the run's, its end the run's one duration; the samples
 * cover the burn, which the re-read and SMART after it may follow.
 */
static void plot(FILE *f, const struct record *o, const struct record_disk *d)
{
	const struct monitor_target *mt = d->mt;
	const struct monitor_series *s = &mt->series;
	double ymax = 1, span = (double)s->n * s->step;
	char hms[32];
	unsigned i;

	if (s->n < 2)
		return;
	for (i = 0; i < s->n; i++) {
		if (s->write[i] > ymax)
			ymax = s->write[i];
		if (s->read[i] > ymax)
			ymax = s->read[i];
	}
	if (report_zones_top(d) > ymax)
		ymax = report_zones_top(d);
	ymax *= 1.1;
	if (timing_secs(o->elapsed_ns) > span)
		span = timing_secs(o->elapsed_ns);
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
		"height=\"%d\" viewBox=\"0 0 %d %d\">\n", W, H, W, H);
	fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" "
		"fill=\"#fafafa\" stroke=\"#999\"/>\n", LEFT, TOP,
		W - LEFT - RIGHT, H - TOP - BOTTOM);
	fprintf(f, "<text x=\"%d\" y=\"%d\" font-size=\"11\" "
		"text-anchor=\"end\">%.0f MB/s</text>\n", LEFT - 4, TOP + 10,
		ymax);
	fprintf(f, "<text x=\"%d\" y=\"%d\" font-size=\"11\" "
		"text-anchor=\"end\">0</text>\n", LEFT - 4, H - BOTTOM);
	fprintf(f, "<text x=\"%d\" y=\"%d\" font-size=\"11\">0</text>\n",
		LEFT, H - 10);
	fprintf(f, "<text x=\"%d\" y=\"%d\" font-size=\"11\" "
		"text-anchor=\"end\">%s</text>\n", W - RIGHT, H - 10,
		summary_duration(o, hms, sizeof(hms)));
	fprintf(f, "<text x=\"%d\" y=\"%d\" font-size=\"11\" fill=\"#1f77b4\">"
		"write</text><text x=\"%d\" y=\"%d\" font-size=\"11\" "
		"fill=\"#e6550d\">verify/read</text>\n", W / 2 - 60, H - 10,
		W / 2, H - 10);
	line(f, s, s->write, ymax, (double)s->n * s->step / span, "#1f77b4");
	line(f, s, s->read, ymax, (double)s->n * s->step / span, "#e6550d");
	fputs("</svg>\n", f);
}

void report_order(const struct record *r, int *order)
{
	static const int rank[] = { JUDGE_FAIL, JUDGE_WARN, JUDGE_PASS };
	int k, i, n = 0;

	for (k = 0; k < 3; k++)
		for (i = 0; i < r->n; i++)
			if (r->disks[i].j.verdict == rank[k])
				order[n++] = i;
	for (i = 0; i < r->n && n < r->n; i++)
		if (r->disks[i].j.verdict < JUDGE_PASS ||
		    r->disks[i].j.verdict > JUDGE_FAIL)
			order[n++] = i;
}

/* The page's head: its title and the one style sheet. */
static void page_head(FILE *f, const struct record *o)
{
	const char *v = judge_name(o->verdict);

	fprintf(f,
		"<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">"
		"<title>kiln %s %016llx: %s</title>\n<style>\n"
		"body{font-family:sans-serif;margin:1.5em;color:#222}\n"
		"table{border-collapse:collapse}\n"
		"td,th{border:1px solid #bbb;padding:2px 8px;"
		"text-align:right}\n"
		"td.l,th.l{text-align:left}\n"
		".disks{overflow-x:auto}.disks td{white-space:nowrap}\n"
		".disks td.why{white-space:normal;min-width:14em}\n"
		".PASS{background:#c8f0c8}.WARN{background:#fff0a0}"
		".FAIL{background:#f8b8b8}\n"
		"h1 span,h2 span{padding:0 .4em}\n"
		".rose{color:#b00;font-weight:bold}\n"
		"</style></head><body>\n",
		o->command, (unsigned long long)o->run_id, v);
	fprintf(f, "<h1>kiln %s: <span class=\"%s\">%s</span></h1>\n",
		o->command, v, v);
}

/* Whether disks a and b are said together: one verdict, one why. */
static int alike(const struct record_disk *a, const struct record_disk *b)
{
	static char x[WHY_LEN], y[WHY_LEN];

	return a->j.verdict == b->j.verdict &&
	       !strcmp(why(&a->j, x, sizeof(x)), why(&b->j, y, sizeof(y)));
}

/*
 * The verdict and why, under the title, so that the page's first screen
 * says what to do: the run's own failure, then the disks by verdict,
 * those of one verdict and one why said once (60 passing disks are one
 * line), each FAILed disk with its rma-*.txt, then the machine's trouble.
 */
static void verdict_top(FILE *f, const struct record *o, const int *order)
{
	char w[WHY_LEN];
	int i, k, n;

	fputs("<div class=\"verdict\">\n", f);
	if (o->failure[0]) {
		fputs("<p><span class=\"FAIL\">FAIL</span> ", f);
		html_text(f, o->failure);
		fputs("</p>\n", f);
	}
	for (i = 0; i < o->n; i++) {
		const struct record_disk *d = &o->disks[order[i]];
		const char *v = judge_name(d->j.verdict);

		for (k = 0; k < i && !alike(&o->disks[order[k]], d); k++)
			;
		if (k < i)
			continue;
		for (n = 0, k = i; k < o->n; k++)
			n += alike(&o->disks[order[k]], d);
		fprintf(f, "<p><span class=\"%s\">%s</span> ", v ? v : "-",
			v ? v : "not judged");
		/* Passing disks by count: their names are in the table. */
		if (d->j.verdict == JUDGE_PASS && n > 3)
			fprintf(f, "%d disks", n);
		else
			for (n = 0, k = i; k < o->n; k++) {
				const struct record_disk *e =
					&o->disks[order[k]];

				if (!alike(e, d))
					continue;
				fputs(n++ ? ", " : "", f);
				html_text(f, e->label);
				rma_link(f, o, e, " (", ")");
			}
		fputs(": ", f);
		html_text(f, why(&d->j, w, sizeof(w)));
		fputs("</p>\n", f);
	}
	if (o->sig.j.verdict != JUDGE_PASS) {
		const char *v = judge_name(o->sig.j.verdict);

		fprintf(f, "<p><span class=\"%s\">%s</span> the machine: ",
			v, v);
		html_text(f, why(&o->sig.j, w, sizeof(w)));
		fputs("</p>\n", f);
	}
	fputs("</div>\n", f);
}

/* What summary.txt says first: the run, kiln, the network, the notes. */
static void run_info(FILE *f, const struct record *o)
{
	char run[400], fw[200];
	int i;

	fputs("<p>", f);
	html_text(f, summary_run_line(o, run, sizeof(run)));
	fputs(" (", f);
	html_text(f, record_state_name(o->state));
	fputs(")</p>\n", f);
	fputs("<p>", f);
	html_text(f, summary_kiln_line(o, run, sizeof(run)));
	fputs("; ", f);
	html_text(f, machine_firmware_text(&o->firmware, fw, sizeof(fw)));
	fputs("</p>\n", f);
	if (o->n) {
		fputs("<p class=\"work\">", f);
		html_text(f, summary_work_line(o, run, sizeof(run)));
		fputs("</p>\n", f);
	}
	if (o->failure[0]) {
		fputs("<p class=\"FAIL\">", f);
		html_text(f, o->failure);
		fputs("</p>\n", f);
	}
	if (!o->nnotes)
		return;
	fputs("<ul>\n", f);
	for (i = 0; i < o->nnotes; i++) {
		fputs("<li>", f);
		html_text(f, o->notes[i]);
		fputs("</li>\n", f);
	}
	fputs("</ul>\n", f);
}

/* The per-disk table, in order (failures first). */
static void disk_table(FILE *f, const struct record *o, const int *order)
{
	char size[32], w[WHY_LEN];
	int i;

	/* A line a disk: on a narrow window the table scrolls, not the page. */
	fputs("<div class=\"disks\"><table>\n<tr><th class=\"l\">disk</th>"
	      "<th>size</th><th class=\"l\">mode</th>"
	      "<th colspan=\"3\">write MB/s</th>"
	      "<th colspan=\"3\">verify/read MB/s</th><th>passes</th>"
	      "<th>written</th><th>read</th><th>I/O errors</th>"
	      "<th>bad units</th><th>verdict</th><th class=\"l\">why</th>"
	      "</tr>\n"
	      "<tr><th></th><th></th><th></th><th>avg</th><th>min</th>"
	      "<th>max</th><th>avg</th><th>min</th><th>max</th><th></th>"
	      "<th></th><th></th><th></th><th></th><th></th><th></th></tr>\n",
	      f);
	for (i = 0; i < o->n; i++) {
		const struct record_disk *d = &o->disks[order[i]];
		const char *tv = judge_name(d->j.verdict);

		fputs("<tr><td class=\"l\">", f);
		html_text(f, d->label);
		fprintf(f, "</td><td>%s</td><td class=\"l\">%s</td>",
			settings_fmt_size(d->t.size, size, sizeof(size)),
			engine_mode_name(d->ep.mode));
		rates(f, d, PHASE_WRITE);
		rates(f, d, d->ep.mode == ENGINE_READ ? PHASE_READ :
		      PHASE_VERIFY);
		fprintf(f, "<td>%llu</td><td>%s</td>",
			(unsigned long long)summary_passes(d),
			settings_fmt_size(d->snap.c.bytes_written, size,
					  sizeof(size)));
		fprintf(f, "<td>%s</td>",
			settings_fmt_size(d->snap.c.bytes_read, size,
					  sizeof(size)));
		fprintf(f, "<td>%u</td><td>%u</td><td class=\"%s\">%s</td>"
			"<td class=\"l why\">", d->snap.c.io_errors,
			d->snap.c.bad_units, tv, tv);
		html_text(f, why(&d->j, w, sizeof(w)));
		fputs("</td></tr>\n", f);
	}
	fputs("</table></div>\n", f);
}

char *report_html(const struct record *o, size_t *len)
{
	char *out = NULL;
	int *order = calloc((size_t)o->n + 1, sizeof(*order));
	FILE *f = order ? open_memstream(&out, len) : NULL;
	int i, k, unplotted;

	if (!f) {
		free(order);
		return NULL;
	}
	report_order(o, order);
	page_head(f, o);
	verdict_top(f, o, order);
	run_info(f, o);
	disk_table(f, o, order);
	report_inventory_html(f, o, order);
	for (SIGNAL_EACH(s))
		if ((*s)->html_section)
			(*s)->html_section(f, o, order);
	/* The machine's trouble goes with the disks', before the plots. */
	if (o->sig.j.verdict != JUDGE_PASS)
		report_machine_html(f, o);
	report_zones_html(f, o, order);
	for (SIGNAL_EACH(s))
		if ((*s)->html_plot)
			(*s)->html_plot(f, o, order);
	if (o->sig.j.verdict == JUDGE_PASS)
		report_machine_html(f, o);

	/* Said once for the disks it holds for, not under each of 60. */
	for (i = 0, unplotted = 0; i < o->n; i++)
		unplotted += o->disks[i].mt && o->disks[i].mt->series.n < 2;
	if (unplotted) {
		fputs("<p class=\"noplot\">too short a run to plot throughput "
		      "over time: ", f);
		if (unplotted == o->n)
			fputs(o->n == 1 ? "its disk" : "every disk", f);
		for (i = 0, k = 0; unplotted < o->n && i < o->n; i++) {
			const struct record_disk *d = &o->disks[order[i]];

			if (!d->mt || d->mt->series.n >= 2)
				continue;
			fputs(k++ ? ", " : "", f);
			html_text(f, d->label);
		}
		fputs("</p>\n", f);
	}
	for (i = 0; i < o->n; i++) {
		const struct record_disk *d = &o->disks[order[i]];
		const char *tv = judge_name(d->j.verdict);

		fputs("<h2>", f);
		html_text(f, d->label);
		fprintf(f, ": <span class=\"%s\">%s</span></h2>\n<p>", tv, tv);
		html_text(f, d->t.id.identity);
		fputs("</p>\n", f);
		if (d->has_slot) {
			char bay[200];

			enclosure_text(&d->slot, bay, sizeof(bay));
			fputs("<p class=\"bay\">", f);
			html_text(f, bay);
			fputs("</p>\n", f);
		}
		if (d->led[0]) {
			fputs("<p class=\"led\">", f);
			html_text(f, d->led);
			fputs("</p>\n", f);
		}
		for (SIGNAL_EACH(s))
			if ((*s)->html_disk_section)
				(*s)->html_disk_section(f, o, d);
		html_reasons(f, &d->j);
		rma_link(f, o, d, "<p class=\"rma\">for its vendor: ",
			 "</p>\n");
		if (d->mt)
			plot(f, o, d);
	}
	if (!o->n)
		fputs("<p class=\"FAIL\">nothing was tested</p>\n", f);
	fputs("</body></html>\n", f);
	free(order);
	if (fclose(f)) {
		free(out);
		return NULL;
	}
	return out;
}
