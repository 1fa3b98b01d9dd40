/* SPDX-License-Identifier: MIT */
/*
 * Description: report.html from a record made by hand: failures first
 * (FAIL, then WARN, then PASS, each in the record's order) in the table,
 * the inventory and the plots; each disk under its controller with the
 * controller's PCIe link; every drive's temperatures over time on one
 * scale, the hidden drives' too, with a limit line where one is known;
 * the machine's tables; and text from the disks escaped. The rendered
 * page is checked in chromium by tests/host/signals.t and
 * tests/e2e/signals.t.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/tap.h"
#include "judge/record.h"
#include "judge/smartjudge.h"
#include "results/report_html.h"
#include "results/summary.h"
#include "base/timing.h"

static struct settings s;
static struct record r;
static struct monitor_target mt;

static struct record_disk *disk(const char *name, int verdict, int ctrl)
{
	char path[64];
	struct record_disk *d;

	snprintf(path, sizeof(path), "/dev/%s", name);
	d = record_add(&r, path, 0);
	if (!d)
		tap_bail("out of memory");
	snprintf(d->label, sizeof(d->label), "%s", name);
	snprintf(d->t.id.model, sizeof(d->t.id.model), "Model <%s>", name);
	d->j.verdict = verdict;
	d->link.ctrl = ctrl;
	return d;
}

static void series(struct vitals_disk *g, int from, int n, int limit)
{
	int k;

	vitals_disk_init(g);
	for (k = 0; k < n; k++)
		vitals_series_add(g, (uint32_t)(k * 10), from + k);
	g->temp_first = from;
	g->temp_max = g->temp_last = from + n - 1;
	g->limit = limit;
}

/* The first match of what in the page; NULL when none. */
static const char *at(const char *page, const char *what)
{
	return page ? strstr(page, what) : NULL;
}

static int count(const char *page, const char *what)
{
	int n = 0;

	for (; (page = strstr(page, what)); page++)
		n++;
	return n;
}

/* The points of a polyline's points="...", given after the quote. */
static int points(const char *p)
{
	int n = 0;

	for (; *p && *p != '"'; p++)
		n += *p == ',';
	return n;
}

/* summary.txt of the record, to compare its lines with the page's. */
static char *summary_of(const struct record *o)
{
	char *text = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&text, &n);

	if (!f)
		return NULL;
	summary_text(o, f);
	fclose(f);
	return text;
}

int main(int argc, char **argv)
{
	struct pci_controller c = { .pci = "0000:01:00.0", .kind = "SAS",
		.driver = "mpt3sas", .link_speed = "8.0 GT/s PCIe",
		.max_link_speed = "8.0 GT/s PCIe", .link_width = 8,
		.max_link_width = 8, .link_mbps = 7877 };
	const char *table, *inv, *temps, *p;
	struct smart_disk *sm;
	struct vitals_hidden *h;
	int order[4], ok;
	char *html;
	size_t len;

	tap_args(argc, argv);
	tap_plan(14);
	settings_defaults(&s, SCOPE_BURN);
	record_init(&r, "run", 0, NULL, &s);
	if (links_add_ctrl(&r.links, &c) != 0)
		tap_bail("out of memory");
	r.links.ctrls[0].ndisks = 3;
	disk("sda", JUDGE_PASS, 0);
	series(&disk("sdb", JUDGE_FAIL, 0)->sig, 30, 7, 60);
	disk("sdc", JUDGE_WARN, -1);
	series(&disk("sdd", JUDGE_PASS, 0)->sig, 35, 1, VITALS_NONE);
	r.sig.samples = 7;
	h = vitals_add_hidden(&r.sig);
	if (!h)
		tap_bail("out of memory");
	snprintf(h->type, sizeof(h->type), "megaraid,0");
	snprintf(h->serial, sizeof(h->serial), "RAID-A");
	snprintf(h->controller, sizeof(h->controller), "0000:02:00.0");
	series(&h->d, 40, 3, VITALS_NONE);

	report_order(&r, order);
	tap_ok(order[0] == 1 && order[1] == 2 && order[2] == 0 &&
	       order[3] == 3, "failures first: %d %d %d %d", order[0],
	       order[1], order[2], order[3]);

	html = report_html(&r, &len);
	tap_ok(html && strlen(html) == len, "report.html is made");
	table = at(html, "<table>");
	ok = table && at(table, ">sdb<") < at(table, ">sdc<") &&
	     at(table, ">sdc<") < at(table, ">sda<") &&
	     at(table, ">sda<") < at(table, ">sdd<");
	tap_ok(ok, "the table: FAIL, WARN, then PASS");
	inv = at(html, "<ul class=\"inventory\">");
	p = at(inv, "0000:01:00.0");
	tap_ok(p && at(p, "PCIe") && at(p, ">sdb<") < at(p, ">sda<") &&
	       at(p, ">sda<") < at(p, ">sdd<") &&
	       at(p, ">sdd<") < at(p, "no controller") &&
	       at(p, "no controller") < at(p, ">sdc<"),
	       "the tree: the controller, its PCIe link, its disks, the rest");
	tap_ok(html && !strstr(html, "Model <") &&
	       strstr(html, "Model &lt;sdb&gt;"), "text from disks escaped");
	temps = at(html, "<div class=\"temps\"");
	tap_ok(temps && at(temps, ">sdb<") < at(temps, ">sdd<") &&
	       !strstr(temps, ">sda<") && strstr(temps, "megaraid,0 RAID-A"),
	       "temperatures: the drives with a series, the hidden one too");
	p = at(at(temps, "class=\"temp\""), "points=\"");
	tap_ok(p && points(p + 8) == 7, "sdb's seven points");
	tap_ok(temps && count(temps, "class=\"temp-limit\"") == 1 &&
	       strstr(html, "25 to 65 C, 0 to 60 s"),
	       "one limit line (sdb's), one scale for all");
	tap_ok(count(html, "<circle") == 1, "a series of one: a dot");
	free(html);

	/* A machine whose clock was never set: both pages say so. */
	r.started = 86400;
	html = report_html(&r, &len);
	p = summary_of(&r);
	tap_ok(at(html, "clock not set") && at(p, "clock not set"),
	       "a run on a clock not set: report.html says so, as "
	       "summary.txt does");
	free((char *)p);
	free(html);
	r.started = 1764590000;
	html = report_html(&r, &len);
	p = summary_of(&r);
	tap_ok(html && p && !at(html, "clock not set") &&
	       !at(p, "clock not set") && at(html, "2025-12-01T"),
	       "a run on a set clock: neither says it");
	free((char *)p);
	free(html);

	/* One duration: the plot's time axis ends where the run did. */
	r.elapsed_ns = 12 * TIMING_SEC;
	mt.series.n = 9;
	mt.series.step = 1;
	for (ok = 0; ok < 9; ok++)
		mt.series.write[ok] = 100;
	r.disks[0].mt = &mt;
	html = report_html(&r, &len);
	p = summary_of(&r);
	tap_ok(at(html, "(00:00:12)") && at(html, ">00:00:12</text>") &&
	       !at(html, "00:00:09") && at(p, "(00:00:12)"),
	       "one duration: the run line and the plot say 00:00:12");
	free((char *)p);
	free(html);

	/* Passes and bytes: a disk's in the table, the machine's above. */
	r.disks[0].snap.totals[PHASE_WRITE].passes = 103;
	r.disks[0].snap.totals[PHASE_VERIFY].passes = 102;
	r.disks[0].snap.c.bytes_written = 103ULL << 26;
	r.disks[0].snap.c.bytes_read = 102ULL << 26;
	html = report_html(&r, &len);
	tap_ok(at(html, "<td>102</td><td>6.4 GiB</td><td>6.4 GiB</td>") &&
	       at(html, "work: 0-102 passes, 6.4 GiB written, 6.4 GiB read "
		  "in all (4 disks)"),
	       "passes and bytes: the disk's, the run's");
	free(html);

	/* SMART counters that changed during the run, and only those. */
	sm = smart_disk_make(&r.disks[1]);
	if (!sm)
		tap_bail("out of memory");
	sm->before.c.have = sm->after.c.have = 1;
	sm->after.c.realloc = 8;
	sm->before.c.pending = sm->after.c.pending = 3;
	html = report_html(&r, &len);
	p = at(html, "<h2>SMART during the run</h2>");
	tap_ok(p && at(p, ">sdb</td><td class=\"l\">reallocated sectors"
		       "</td><td>0</td><td>8</td><td>+8</td>") &&
	       !at(p, "pending sectors") && at(p, "1 disk reported SMART"),
	       "SMART: the counter that grew, before and after");
	free(html);
	r.disks[0].mt = NULL;
	record_free(&r);
	return tap_done();
}
