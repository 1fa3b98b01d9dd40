/* SPDX-License-Identifier: MIT */
/*
 * Description: the machine's own signals in report.html (see
 * vitals_html.h), for vitals_signal (vitals_out.c): every drive's
 * temperature over the run as small multiples on one scale (the limit a
 * red dashed line), and the machine's section's tables: hwmon, memory
 * (EDAC), the CPUs (vitals_cpu_html.c), PCIe AER, the kernel log and the
 * drives behind RAID controllers.
 */
#include <stdio.h>

#include "results/html.h"
#include "results/vitals_cpu_html.h"
#include "results/vitals_html.h"

/* One temperature plot: width, height, and the room above for its scale. */
#define PW 160
#define PH 60
#define PAD 2
#define TOPROOM 12

/* The scale every temperature plot shares: seconds, degrees C. */
struct scale {
	double t, lo, hi;
};

static void widen(struct scale *s, const struct vitals_disk *d)
{
	int k;

	for (k = 0; k < d->nseries; k++) {
		if (d->series[k].t > s->t)
			s->t = d->series[k].t;
		if (d->series[k].c < s->lo)
			s->lo = d->series[k].c;
		if (d->series[k].c > s->hi)
			s->hi = d->series[k].c;
	}
	if (d->nseries && d->limit != VITALS_NONE && d->limit > s->hi)
		s->hi = d->limit;
}

static double xt(const struct scale *s, double t)
{
	return PAD + (PW - 2 * PAD) * t / s->t;
}

static double yc(const struct scale *s, double c)
{
	return PH - PAD - (PH - 2 * PAD - TOPROOM) * (c - s->lo) /
		(s->hi - s->lo);
}

static void temp_plot(FILE *f, const struct scale *s, const char *label,
		      const char *verdict, const struct vitals_disk *d)
{
	int k;

	fprintf(f, "<div class=\"cell\" style=\"width:%dpx\"><span "
		"class=\"%s\">", PW, verdict);
	html_text(f, label);
	fprintf(f, "</span><br>\n<svg xmlns=\"http://www.w3.org/2000/svg\" "
		"width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\">\n<rect "
		"x=\"0.5\" y=\"0.5\" width=\"%d\" height=\"%d\" fill=\"#fafafa\" "
		"stroke=\"#ccc\"/>\n", PW, PH, PW, PH, PW - 1, PH - 1);
	fprintf(f, "<text x=\"3\" y=\"11\" font-size=\"11\">%d C at most",
		d->temp_max);
	if (d->limit != VITALS_NONE)
		fprintf(f, ", limit %d C", d->limit);
	fputs("</text>\n", f);
	if (d->limit != VITALS_NONE)
		fprintf(f, "<line class=\"temp-limit\" x1=\"%d\" x2=\"%d\" "
			"y1=\"%.1f\" y2=\"%.1f\" stroke=\"#d62728\" "
			"stroke-dasharray=\"2,2\"/>\n", PAD, PW - PAD,
			yc(s, d->limit), yc(s, d->limit));
	fputs("<polyline class=\"temp\" fill=\"none\" stroke=\"#9467bd\" "
	      "stroke-width=\"1.5\" points=\"", f);
	for (k = 0; k < d->nseries; k++)
		fprintf(f, "%s%.1f,%.1f", k ? " " : "",
			xt(s, d->series[k].t), yc(s, d->series[k].c));
	fputs("\"/>\n", f);
	if (d->nseries == 1)
		fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"2\" "
			"fill=\"#9467bd\"/>\n", xt(s, d->series[0].t),
			yc(s, d->series[0].c));
	fputs("</svg></div>\n", f);
}

void vitals_html_temps(FILE *f, const struct record *r, const int *order)
{
	const struct vitals_machine *m = &r->sig;
	struct scale s = { 1, 1e9, -1e9 };
	char label[160];
	int i;

	for (i = 0; i < r->n; i++)
		widen(&s, &r->disks[i].sig);
	for (i = 0; i < m->nhidden; i++)
		widen(&s, &m->hidden[i].d);
	if (s.hi < s.lo)
		return;
	s.lo = s.lo - 5 < 0 ? 0 : s.lo - 5;
	s.hi += 5;
	fprintf(f, "<h2>Temperatures over time</h2>\n<p>Each drive's "
		"temperature over the run, one scale for all: %.0f to %.0f C, "
		"0 to %.0f s; its limit is the red dashed line.</p>\n<div "
		"class=\"temps\" style=\"display:flex;flex-wrap:wrap;gap:4px;"
		"font-size:11px\">\n", s.lo, s.hi, s.t);
	for (i = 0; i < r->n; i++) {
		const struct record_disk *d = &r->disks[order[i]];

		if (d->sig.nseries)
			temp_plot(f, &s, d->label, judge_name(d->j.verdict),
				  &d->sig);
	}
	for (i = 0; i < m->nhidden; i++) {
		const struct vitals_hidden *h = &m->hidden[i];

		snprintf(label, sizeof(label), "%s %s behind %s", h->type,
			 h->serial, h->controller);
		if (h->d.nseries)
			temp_plot(f, &s, label, "", &h->d);
	}
	fputs("</div>\n", f);
}

/* A counter from its start to its end: "3", "3 to 5", "-". */
static void span(FILE *f, long a, long b)
{
	if (b < 0)
		fputs("<td>-</td>", f);
	else if (a < 0 || a == b)
		fprintf(f, "<td>%ld</td>", b);
	else
		fprintf(f, "<td class=\"rose\">%ld to %ld</td>", a, b);
}

/* Millidegrees; a limit of 200 C or more is a sensor that sets none. */
#define NO_LIMIT 200000

static void mc(FILE *f, int milli, int over)
{
	if (milli == SENSORS_NONE)
		fputs("<td>-</td>", f);
	else
		fprintf(f, "<td%s>%.1f</td>", over ? " class=\"rose\"" : "",
			milli / 1000.0);
}

static void hwmon_table(FILE *f, const struct vitals_machine *m)
{
	int i;

	if (!m->nhwmon) {
		fputs("<p>hwmon: no temperature sensors</p>\n", f);
		return;
	}
	fputs("<h3>hwmon temperatures, C</h3>\n<table class=\"hwmon\">\n<tr>"
	      "<th class=\"l\">sensor</th><th>start</th><th>most</th>"
	      "<th>end</th><th>high</th><th>critical</th></tr>\n", f);
	for (i = 0; i < m->nhwmon; i++) {
		const struct vitals_hwmon *h = &m->hwmon[i];
		int high = h->high < NO_LIMIT ? h->high : SENSORS_NONE;
		int crit = h->crit < NO_LIMIT ? h->crit : SENSORS_NONE;
		int top = high != SENSORS_NONE ? high : crit;

		fputs("<tr>", f);
		html_cell(f, h->what[0] ? h->what : h->hwmon);
		mc(f, h->first, 0);
		mc(f, h->max, top != SENSORS_NONE && h->max >= top);
		mc(f, h->last, 0);
		mc(f, high, 0);
		mc(f, crit, 0);
		fputs("</tr>\n", f);
	}
	fputs("</table>\n", f);
}

static void edac_table(FILE *f, const struct vitals_machine *m)
{
	int i;

	if (!m->edac_mcs) {
		fputs("<p>memory: no EDAC (its errors cannot be seen)</p>\n",
		      f);
		return;
	}
	fprintf(f, "<h3>Memory (EDAC, %d controller%s), errors since boot"
		"</h3>\n<table class=\"edac\">\n<tr><th class=\"l\">where</th>"
		"<th class=\"l\">label</th><th class=\"l\">slot</th>"
		"<th>corrected</th>"
		"<th>uncorrected</th></tr>\n", m->edac_mcs,
		m->edac_mcs == 1 ? "" : "s");
	for (i = 0; i < m->nedac; i++) {
		const struct vitals_edac *e = &m->edac[i];

		fputs("<tr>", f);
		html_cell(f, e->where);
		html_cell(f, e->label);
		html_cell(f, e->slot);
		span(f, e->ce_start, e->ce_end);
		span(f, e->ue_start, e->ue_end);
		fputs("</tr>\n", f);
	}
	fputs("</table>\n", f);
}

/* Functions with any AER count; the clean ones only counted. */
static void aer_table(FILE *f, const struct vitals_machine *m)
{
	int i, sev, shown = 0;

	fprintf(f, "<h3>PCIe AER, %d function%s watched</h3>\n", m->naer,
		m->naer == 1 ? "" : "s");
	for (i = 0; i < m->naer; i++) {
		const struct vitals_aer *a = &m->aer[i];
		int any = 0;

		for (sev = 0; sev < 3; sev++)
			any |= a->end[sev] > 0;
		if (!any)
			continue;
		if (!shown++)
			fputs("<table class=\"aer\">\n<tr><th class=\"l\">"
			      "function</th><th>corrected</th><th>non-fatal"
			      "</th><th>fatal</th><th class=\"l\">errors</th>"
			      "</tr>\n", f);
		fputs("<tr>", f);
		html_cell(f, a->pci);
		for (sev = 0; sev < 3; sev++)
			span(f, a->start[sev], a->end[sev]);
		html_cell(f, a->errors);
		fputs("</tr>\n", f);
	}
	if (shown)
		fputs("</table>\n", f);
	else if (m->naer)
		fputs("<p>no errors counted</p>\n", f);
}

static void kmsg_part(FILE *f, const struct vitals_machine *m)
{
	int k, any = 0;

	if (!m->kmsg) {
		fputs("<p>kernel log: not read: ", f);
		html_text(f, m->kmsg_why);
		fputs("</p>\n", f);
		return;
	}
	fprintf(f, "<h3>Kernel log</h3>\n<p class=\"kmsg\">%llu lines read",
		(unsigned long long)m->kmsg_lines);
	if (m->kmsg_lost)
		fprintf(f, " (%llu lost)", (unsigned long long)m->kmsg_lost);
	fprintf(f, "; %u error line%s naming no disk under test",
		m->other_total, m->other_total == 1 ? "" : "s");
	for (k = 0; k < KMSG_KINDS; k++)
		if (m->other[k])
			fprintf(f, "%s%u %s", any++ ? ", " : ": ", m->other[k],
				kmsg_kind_name(k));
	fputs("</p>\n", f);
	if (m->nkept) {
		fputs("<pre>", f);
		for (k = 0; k < m->nkept; k++) {
			html_text(f, m->kept[k]);
			fputs("\n", f);
		}
		fputs("</pre>\n", f);
	}
}

static void raid_table(FILE *f, const struct vitals_machine *m)
{
	int i;

	if (!m->nhidden)
		return;
	fputs("<h3>Drives behind RAID controllers</h3>\n<table class=\"raid\">"
	      "\n<tr><th class=\"l\">controller</th><th class=\"l\">as</th>"
	      "<th class=\"l\">model</th><th class=\"l\">serial</th>"
	      "<th>C</th><th>SMART</th></tr>\n", f);
	for (i = 0; i < m->nhidden; i++) {
		const struct vitals_hidden *h = &m->hidden[i];

		fputs("<tr>", f);
		html_cell(f, h->controller);
		html_cell(f, h->type);
		html_cell(f, h->model);
		html_cell(f, h->serial);
		if (h->d.temp_last != VITALS_NONE)
			fprintf(f, "<td>%d</td>", h->d.temp_last);
		else
			fputs("<td>-</td>", f);
		fprintf(f, "<td>%s</td></tr>\n",
			!h->d.end.have || h->d.end.passed < 0 ? "-" :
			h->d.end.passed ? "passed" : "FAILED");
	}
	fputs("</table>\n", f);
}

int vitals_html_shown(const struct record *r)
{
	return r->sig.samples != 0;
}

void vitals_html_machine(FILE *f, const struct record *r)
{
	const struct vitals_machine *m = &r->sig;

	if (!m->samples)
		return;
	fprintf(f, "<p>%d sample%s", m->samples, m->samples == 1 ? "" : "s");
	if (m->period)
		fprintf(f, ", every %llu s", (unsigned long long)m->period);
	fputs("</p>\n", f);
	hwmon_table(f, m);
	edac_table(f, m);
	vitals_cpu_html(f, m);
	aer_table(f, m);
	kmsg_part(f, m);
	raid_table(f, m);
}
