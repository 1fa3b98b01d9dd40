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
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fleet/fleet.h"
#include "settings/settings.h"
#include "base/timing.h"


static const char style[] =
	"body{font-family:sans-serif;margin:1em 1.5em;color:#222;"
	"font-size:14px}\n"
	"table{border-collapse:collapse;margin-bottom:1.5em}\n"
	"td,th{border:1px solid #bbb;padding:3px 6px;vertical-align:top;"
	"text-align:left;overflow-wrap:anywhere}\n"
	"th{background:#eee;position:sticky;top:0}\n"
	"td.n{text-align:right;white-space:nowrap}\n"
	".PASS{background:#c8f0c8}.WARN{background:#fff0a0}"
	".FAIL{background:#f8b8b8}.odd{background:#e0e0f8}\n"
	".sum span{padding:0 .4em;margin-right:.3em}\n"
	".id{color:#555}.why{font-size:13px}.t{white-space:nowrap}\n"
	".sys{font-size:13px}td.n details{text-align:left}\n"
	"details{font-size:13px}summary{cursor:pointer;color:#225}\n"
	"details ol{margin:.3em 0;padding-left:1.4em}\n";

static void html(FILE *f, const char *s)
{
	fleet_text(f, s, FLEET_HTML);
}

/* A path's bytes in an href: all but unreserved ones and '/' as %XX. */
static void url_path(FILE *f, const char *s)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		    (c >= '0' && c <= '9') || strchr("/-._~", c))
			fputc(c, f);
		else
			fprintf(f, "%%%02X", c);
	}
}

/* How much of two absolute paths is the components they share. */
static size_t shared(const char *a, const char *b)
{
	size_t i, last = 0;

	for (i = 0; a[i] && a[i] == b[i]; i++)
		if (a[i] == '/')
			last = i;
	if ((!a[i] || a[i] == '/') && (!b[i] || b[i] == '/'))
		last = i;
	return last;
}

/*
 * Where the run folder is from the page's folder: relative, so the page
 * and the trees it read can move together (a lab server's folder opened
 * on a laptop); absolute when either cannot be resolved.
 */
static void run_href(FILE *f, const struct fleet *fl, const char *dir)
{
	char from[PATH_MAX], to[PATH_MAX];
	const char *p;
	size_t n;

	if (!realpath(dir, to)) {
		url_path(f, dir);
		fputc('/', f);
		return;
	}
	if (!fl->out || !realpath(fl->out, from)) {
		url_path(f, to);
		fputc('/', f);
		return;
	}
	n = shared(from, to);
	for (p = from + n; *p; p++)
		if (*p == '/' && p[1])
			fputs("../", f);
	p = to + n;
	if (*p == '/')
		p++;
	if (*p) {
		url_path(f, p);
		fputc('/', f);
	}
}

/* The run's report.html, summary.txt and certificates, those it has. */
static void links(FILE *f, const struct fleet *fl, const struct fleet_run *r)
{
	static const char *const names[] = { "report.html", "summary.txt",
					     "cert-machine.html" };
	const int have[] = { r->has_report, r->has_summary, r->has_certs };
	char *href = NULL;
	size_t len = 0;
	FILE *h;
	int i;

	for (i = 0; i < 3; i++) {
		if (!have[i])
			continue;
		/* Resolved once for the run's links: a realpath is a walk. */
		if (!href && (h = open_memstream(&href, &len))) {
			run_href(h, fl, r->dir);
			if (fclose(h)) {
				free(href);
				href = NULL;
			}
		}
		fputs(" <a href=\"", f);
		if (href)
			fputs(href, f);
		else
			run_href(f, fl, r->dir);
		fprintf(f, "%s\">%s</a>", names[i], names[i]);
	}
	free(href);
}

/*
 * What a person knows the machine by: vendor, model, MAC, address,
 * where it is (the asset tag and the chassis serial on its label) and
 * where its BMC answers.
 */
static void machine_said(FILE *f, const struct fleet_run *r)
{
	const char *parts[6 + FLEET_COLUMNS] = {
		r->vendor, r->product, r->mac, r->address, r->asset_tag,
		r->chassis_serial
	};
	const char *lead[6 + FLEET_COLUMNS] = {
		"", "", "", "", "asset ", "chassis "
	};
	const struct signal_column *cols[FLEET_COLUMNS];
	int i, any = 0, n = signals_columns(cols, FLEET_COLUMNS);

	/* Then the signals' columns: where its BMC answers. */
	for (i = 0; i < n && i < FLEET_COLUMNS; i++) {
		parts[6 + i] = r->cols[i];
		lead[6 + i] = cols[i]->lead;
	}
	for (i = 0; i < 6 + FLEET_COLUMNS; i++) {
		if (!parts[i] || !parts[i][0])
			continue;
		fputs(any++ ? " " : "<br><span class=\"sys\">", f);
		fputs(lead[i], f);
		html(f, parts[i]);
	}
	if (any)
		fputs("</span>", f);
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
	fputs("</td>", f);
}

/*
 * Like disks elsewhere tell what one machine's run cannot: a column of
 * its own, for a run that did not warn is not a warning.
 */
static void below_like(FILE *f, const struct fleet_run *r)
{
	int i;

	fputs("<td class=\"why\">", f);
	for (i = 0; i < r->n; i++) {
		const struct fleet_disk *d = &r->disks[i];

		if (!fleet_like_slow(d))
			continue;
		disk(f, d);
		fleet_like_below(f, d);
		fputs("</div>", f);
	}
	fputs("</td>", f);
}

/* Passes made and bytes moved: the machine's, each disk's folded away. */
static void work(FILE *f, const struct fleet_run *r)
{
	uint64_t w = 0, rd = 0, lo = 0, hi = 0;
	char a[32], b[32], passes[48];
	int i;

	fputs("<td class=\"n\">", f);
	if (!r->n) {
		fputs("-</td>", f);
		return;
	}
	for (i = 0; i < r->n; i++) {
		w += r->disks[i].written;
		rd += r->disks[i].read;
		if (!i || r->disks[i].passes < lo)
			lo = r->disks[i].passes;
		if (!i || r->disks[i].passes > hi)
			hi = r->disks[i].passes;
	}
	/* Each disk's passes, as summary.txt says them: never a sum. */
	fprintf(f, "%s<br>%s written<br>%s read",
		figures_passes_text(lo, hi, passes, sizeof(passes)),
		settings_fmt_size(w, a, sizeof(a)),
		settings_fmt_size(rd, b, sizeof(b)));
	fprintf(f, "<details><summary>each disk</summary><ol>");
	for (i = 0; i < r->n; i++) {
		const struct fleet_disk *d = &r->disks[i];

		fputs("<li>", f);
		html(f, d->label);
		fprintf(f, ": %s, %s written, %s read</li>",
			figures_passes_text(d->passes, d->passes, passes,
					    sizeof(passes)),
			settings_fmt_size(d->written, a, sizeof(a)),
			settings_fmt_size(d->read, b, sizeof(b)));
	}
	fputs("</ol></details></td>", f);
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
static void history(FILE *f, const struct fleet *fl,
		    const struct fleet_machine *m)
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
		fputs("</span>", f);
		links(f, fl, r);
		fputs("</li>", f);
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
	fputs("</b>", f);
	machine_said(f, r);
	fputs("<br><span class=\"id\">", f);
	html(f, r->name);
	fputs("</span>", f);
	links(f, fl, r);
	fputs("</td>", f);
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
	below_like(f, r);
	work(f, r);
	when(f, r);
	fputs("<td>", f);
	html(f, r->kiln_version ? r->kiln_version : "-");
	fputs("</td>", f);
	history(f, fl, m);
	fputs("</tr>\n", f);
}

/*
 * The lab server's refused token claims, above all else: each is a
 * machine that asked for a token not armed for it (issue 38), another
 * machine taking a name or the machine booted again, for people to look.
 */
static void refused(FILE *f, const struct fleet *fl)
{
	int i;

	if (!fl->refused_path)
		return;
	if (fl->refused_err) {
		fputs("<p class=\"FAIL\">Refused token claims: cannot read ", f);
		html(f, fl->refused_path);
		fprintf(f, ": %s</p>\n", strerror(fl->refused_err));
		return;
	}
	if (!fl->nrefused)
		return;
	fprintf(f, "<div class=\"FAIL\" id=\"refused\"><p><b>%d refused token "
		"claim%s</b>: a machine asked the lab server for a token not "
		"armed for it (another machine taking its name, or it booted "
		"again); look (labserver.sh tokens), then arm it again%s</p>"
		"<ol>\n", fl->nrefused, fl->nrefused == 1 ? "" : "s",
		fl->nrefused > fl->nshown ? "; the last of them" : "");
	for (i = 0; i < fl->nshown; i++) {
		fputs("<li>", f);
		html(f, fl->refused_last[i]);
		fputs("</li>\n", f);
	}
	fputs("</ol></div>\n", f);
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

/* The batch of certificates, when a machine's latest run has them. */
static void certs_link(FILE *f, const struct fleet *fl)
{
	int i, n = 0;

	for (i = 0; i < fl->n; i++) {
		const struct fleet_run *r = fl->machines[i].runs[0];

		n += r->end_method && r->end_method[0];
	}
	if (n)
		fprintf(f, "<p><a href=\"fleet-certificates.html\">"
			"certificates of how the disks were left: %d "
			"machine%s, a page each, to print</a></p>\n", n,
			n == 1 ? "" : "s");
}

int fleet_pages(const struct fleet *fl)
{
	if (fl->per_page <= 0 || fl->n <= fl->per_page)
		return 1;
	return (fl->n + fl->per_page - 1) / fl->per_page;
}

void fleet_page_name(int page, char *out, size_t len)
{
	if (page)
		snprintf(out, len, "fleet-%d.html", page + 1);
	else
		snprintf(out, len, "fleet.html");
}

/* The pages, each a link but this one: "page 2 of 5: 1 2 3 4 5". */
static void pages_nav(FILE *f, const struct fleet *fl, int page, int first,
		      int end)
{
	int k, n = fleet_pages(fl);
	char name[32];

	if (n < 2)
		return;
	fprintf(f, "<p class=\"pages\">page %d of %d, machines %d to %d "
		"of %d (page=%d a page): ", page + 1, n, first + 1, end, fl->n,
		fl->per_page);
	for (k = 0; k < n; k++) {
		fleet_page_name(k, name, sizeof(name));
		if (k == page)
			fprintf(f, " <b>%d</b>", k + 1);
		else
			fprintf(f, " <a href=\"%s\">%d</a>", name, k + 1);
	}
	fputs("</p>\n", f);
}

char *fleet_page_html(const struct fleet *fl,
		      const struct fleet_like_group *groups, int ngroups,
		      int page, size_t *len)
{
	char *out = NULL;
	FILE *f = open_memstream(&out, len);
	int i, failed = 0, first, end, n = fleet_pages(fl);

	if (!f)
		return NULL;
	first = n > 1 ? page * fl->per_page : 0;
	end = n > 1 && first + fl->per_page < fl->n ? first + fl->per_page :
	      fl->n;
	for (i = 0; i < fl->n; i++)
		failed += fleet_rank(fl->machines[i].runs[0]) == 0;
	fprintf(f, "<!DOCTYPE html>\n<html lang=\"en\"><head>"
		"<meta charset=\"utf-8\"><title>kiln fleet: %d machines, "
		"%d FAIL", fl->n, failed);
	if (n > 1)
		fprintf(f, " (page %d of %d)", page + 1, n);
	fprintf(f, "</title>\n<style>\n%s</style></head><body>\n"
		"<h1>kiln fleet</h1>\n", style);
	refused(f, fl);
	summary(f, fl);
	if (!page)
		certs_link(f, fl);
	pages_nav(f, fl, page, first, end);
	fputs("<table id=\"machines\"><thead><tr><th>machine</th>"
	      "<th>verdict</th><th>state</th><th>disks</th>"
	      "<th>failing disks, and why</th><th>warnings</th>"
	      "<th>below like disks</th><th>passes and bytes</th>"
	      "<th>started (UTC)</th><th>duration</th><th>kiln</th>"
	      "<th>earlier runs</th></tr></thead><tbody>\n", f);
	for (i = first; i < end; i++)
		row(f, fl, &fl->machines[i]);
	fputs("</tbody></table>\n", f);
	if (!fl->n)
		fputs("<p>No run folders were found.</p>\n", f);
	pages_nav(f, fl, page, first, end);
	if (!page)
		fleet_page_like(f, groups, ngroups);
	fputs("</body></html>\n", f);
	if (fclose(f)) {
		free(out);
		return NULL;
	}
	return out;
}
