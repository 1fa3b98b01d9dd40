/* SPDX-License-Identifier: MIT */
/*
 * Description: report.html's small multiples (see report_zones.h): per
 * disk, throughput against position from its zones (write in blue,
 * verify or read in orange; of each phase the first pass and the latest,
 * fainter; dips as red dots, a write cliff as a red dashed line) and its
 * request times on log buckets from 100 us to 10 s, with p99, the
 * slowest and the confirming re-read's grid. Small enough that 60 disks
 * fit on one screen.
 */
#include "results/html.h"
#include "results/report_zones.h"
#include "results/summary.h"
#include "judge/zones.h"

/* One plot: width, height, and the room above for its scale. */
#define PW 160
#define PH 60
#define PAD 2
#define TOPROOM 12
/* The latency plot's room under its bars for the time ticks. */
#define TICKS 12

static const char *color(int phase)
{
	return phase == PHASE_WRITE ? "#1f77b4" : "#e6550d";
}

static double xof(int zone)
{
	return PAD + (zone + 0.5) * (PW - 2 * PAD) / ENGINE_ZONES;
}

static double yof(double v, double vmax)
{
	return PH - PAD - (PH - 2 * PAD - TOPROOM) * v / vmax;
}

/* Of each phase, the first and the latest are drawn; a soak's middle not. */
static int drawn(const struct engine_snap *s, unsigned e, int *latest)
{
	int first = 1, last = 1;
	unsigned k;

	for (k = 0; k < s->nzones; k++) {
		if (k == e || s->zones[k].phase != s->zones[e].phase)
			continue;
		if (k < e)
			first = 0;
		else
			last = 0;
	}
	*latest = last && !first;
	return first || last;
}

/* Zone samples above the scale: drawn at its top, counted, the highest. */
struct clip {
	int n;
	double max;
};

static void zone_line(FILE *f, const struct engine_snap *s, unsigned e,
		      uint64_t bs, int rotational, double vmax, int faint,
		      struct clip *c)
{
	const struct engine_zones *ez = &s->zones[e];
	double mbps[ENGINE_ZONES], secs[ENGINE_ZONES];
	struct zones_shape z;
	char pen = 'M';
	int i;

	zones_rates(ez, mbps, secs);
	fprintf(f, "<path class=\"zone-%s\" fill=\"none\" stroke=\"%s\" "
		"stroke-width=\"1\"%s d=\"", engine_phase_name(ez->phase),
		color(ez->phase), faint ? " stroke-opacity=\"0.45\"" : "");
	for (i = 0; i < ENGINE_ZONES; i++) {
		if (mbps[i] <= 0) {
			pen = 'M';
			continue;
		}
		if (mbps[i] > vmax) {
			c->n++;
			c->max = mbps[i] > c->max ? mbps[i] : c->max;
		}
		fprintf(f, "%c%.1f %.1f", pen, xof(i),
			yof(mbps[i] > vmax ? vmax : mbps[i], vmax));
		pen = 'L';
	}
	fputs("\"/>\n", f);
	/* A phase too short to judge has no dips or cliff to mark. */
	zones_phase(ez, engine_zone_size(&s->plan), bs, rotational, &z);
	for (i = 0; i < z.ndips && i < ZONES_MAX_DIPS; i++)
		fprintf(f, "<circle class=\"dip\" cx=\"%.1f\" cy=\"%.1f\" "
			"r=\"2\" fill=\"#d62728\"/>\n", xof(z.dips[i].worst),
			yof(z.dips[i].mbps > vmax ? vmax : z.dips[i].mbps,
			    vmax));
	if (z.cliff >= 0)
		fprintf(f, "<line class=\"cliff\" x1=\"%.1f\" x2=\"%.1f\" "
			"y1=\"%d\" y2=\"%d\" stroke=\"#d62728\" "
			"stroke-dasharray=\"2,2\"/>\n", xof(z.cliff) - 0.8,
			xof(z.cliff) - 0.8, TOPROOM, PH - PAD);
}

static void frame(FILE *f, int h)
{
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
		"height=\"%d\" viewBox=\"0 0 %d %d\">\n<rect x=\"0.5\" "
		"y=\"0.5\" width=\"%d\" height=\"%d\" fill=\"#fafafa\" "
		"stroke=\"#ccc\"/>\n", PW, h, PW, h, PW - 1, h - 1);
}

static void open_cell(FILE *f, const struct record_disk *d)
{
	const char *v = judge_name(d->j.verdict);

	fprintf(f, "<div class=\"cell\" style=\"width:%dpx\"><span "
		"class=\"%s\">", PW, v);
	html_text(f, d->label);
	fputs("</span><br>\n", f);
}

double report_zones_top(const struct record_disk *d)
{
	static const int phases[] = { PHASE_WRITE, PHASE_VERIFY, PHASE_READ };
	double top = 0, v, min, max;
	size_t p;

	for (p = 0; p < sizeof(phases) / sizeof(phases[0]); p++) {
		v = figures_rate(&d->snap, phases[p]);
		if (figures_pass_range(&d->snap, phases[p], &min, &max))
			v = max;
		top = v > top ? v : top;
	}
	return top;
}

/*
 * A zone sample this many times its disk's fastest pass is no rate a disk
 * made but a spike of the clock (6-20 GB/s on disks of 30-130 MB/s): it
 * does not set the scale; it is clipped at the top, and said.
 */
#define SPIKE 4

/* A disk's scale: its zones' rates and the table's figures, spikes aside. */
static double disk_top(const struct record_disk *d)
{
	const struct engine_snap *s = &d->snap;
	double mbps[ENGINE_ZONES], secs[ENGINE_ZONES];
	double top = report_zones_top(d), lim = SPIKE * top, v = top;
	unsigned e;
	int i, latest;

	for (e = 0; e < s->nzones; e++) {
		if (!drawn(s, e, &latest))
			continue;
		zones_rates(&s->zones[e], mbps, secs);
		for (i = 0; i < ENGINE_ZONES; i++)
			if (mbps[i] > v && (top <= 0 || mbps[i] <= lim))
				v = mbps[i];
	}
	return v;
}

/* Whether what was drawn of d is read for shapes (summary.txt's way). */
static int judged(const struct record_disk *d, uint64_t bs)
{
	const struct engine_snap *s = &d->snap;
	unsigned e;
	int latest;

	for (e = 0; e < s->nzones; e++)
		if (drawn(s, e, &latest) &&
		    !zones_short(&s->zones[e], engine_zone_size(&s->plan), bs))
			return 1;
	return 0;
}

static void zones_plot(FILE *f, const struct record_disk *d, uint64_t bs,
		       double vmax)
{
	const struct engine_snap *s = &d->snap;
	struct clip c = { 0, 0 };
	unsigned e;
	int latest;

	open_cell(f, d);
	frame(f, PH);
	if (vmax > 0) {
		fprintf(f, "<text x=\"3\" y=\"11\" font-size=\"11\">%.0f MB/s"
			"</text>\n", vmax);
		for (e = 0; e < s->nzones; e++)
			if (drawn(s, e, &latest))
				zone_line(f, s, e, bs, d->t.id.rotational,
					  vmax, latest, &c);
	}
	fputs("</svg>", f);
	if (c.n)
		fprintf(f, "<br><span class=\"clip\">%d sample%s clipped<br>"
			"(up to %.0f MB/s)</span>", c.n, c.n == 1 ? "" : "s",
			c.max);
	fputs("</div>\n", f);
}

/* The buckets of 100 us, 10 ms, 1 s and 10 s: where the ticks go. */
static const struct {
	unsigned bucket;
	const char *label, *anchor;
} ticks[] = {
	/* No "1 s": at 11 px it would run into "10 s". */
	{ 1, "0.1 ms", "start" }, { 21, "10 ms", "middle" },
	{ LATENCY_BOUNDS, "10 s", "end" },
};

#define BW ((double)(PW - 2 * PAD) / LATENCY_BUCKETS)

/* log2(1 + n), near enough for a bar's height (and no libm). */
static double lg(uint64_t n)
{
	int b;

	n++;
	b = 63 - __builtin_clzll(n);
	return b + (double)n / (double)(1ull << b) - 1;
}

static void bars(FILE *f, const struct latency_hist *h, int phase,
		 double lmax, int ph)
{
	unsigned b;

	for (b = 0; b < LATENCY_BUCKETS; b++) {
		double v;

		if (!h->count[b])
			continue;
		v = (ph - 2 * PAD - TOPROOM - TICKS) * lg(h->count[b]) /
		    lmax;
		fprintf(f, "<rect class=\"lat-%s\" x=\"%.1f\" y=\"%.1f\" "
			"width=\"%.1f\" height=\"%.1f\" fill=\"%s\" "
			"fill-opacity=\"0.7\"/>\n", engine_phase_name(phase),
			PAD + b * BW, ph - PAD - TICKS - v, BW, v,
			color(phase));
	}
}

/* A time in ms, short enough for a line under a small plot. */
static void ms(FILE *f, uint64_t ns, const char *after)
{
	double v = (double)ns / 1e6;

	fprintf(f, v < 10 ? "%.1f%s" : "%.0f%s", v, after);
}

static void latency_plot(FILE *f, const struct record_disk *d)
{
	const struct engine_snap *s = &d->snap;
	const struct reread *rr = &d->rr;
	double lmax = 0;
	uint64_t max = 0;
	static const double q[] = { 0.5, 0.99, 0.999 };
	unsigned b, k;
	int p, ph = PH + 10;

	for (p = 0; p < PHASES; p++) {
		for (b = 0; b < LATENCY_BUCKETS; b++)
			if (lg(s->latency[p].count[b]) > lmax)
				lmax = lg(s->latency[p].count[b]);
		max = s->latency[p].max_ns > max ? s->latency[p].max_ns : max;
	}
	open_cell(f, d);
	frame(f, ph);
	for (k = 0; k < sizeof(ticks) / sizeof(ticks[0]); k++)
		fprintf(f, "<text x=\"%.1f\" y=\"%d\" font-size=\"11\" "
			"text-anchor=\"%s\">%s</text>\n",
			PAD + ticks[k].bucket * BW, ph - PAD,
			ticks[k].anchor, ticks[k].label);
	for (p = 0; lmax > 0 && p < PHASES; p++)
		if (s->latency[p].n)
			bars(f, &s->latency[p], p, lmax, ph);
	fprintf(f, "<text x=\"3\" y=\"11\" font-size=\"11\">max %.1f ms"
		"</text>\n</svg>\n", (double)max / 1e6);
	/* p50/p99/p99.9 on one line a phase, as the caption above says. */
	for (p = 0; p < PHASES; p++) {
		if (!s->latency[p].n)
			continue;
		fprintf(f, "%s ", engine_phase_name(p));
		for (k = 0; k < 3; k++)
			ms(f, latency_percentile(&s->latency[p], q[k]),
			   k < 2 ? "/" : " ms<br>\n");
	}
	/*
	 * Two of the grid's counts a line: a slow disk's re-read fills
	 * every bucket, which would not fit the cell's width on one line.
	 */
	if (rr->state != REREAD_NOT_RUN) {
		unsigned shown = 0;

		fputs("re-read:", f);
		for (k = 0; k < REREAD_GRID; k++)
			if (rr->grid[k])
				fprintf(f, "%s %u %s%u",
					shown++ && shown % 2 == 1 ? "<br>\n" :
					"", rr->grid[k],
					k < REREAD_GRID - 1 ? "&lt;" : "&ge;",
					reread_grid_ms[k < REREAD_GRID - 1 ?
						       k : k - 1]);
		fputs(" ms\n", f);
	}
	fputs("</div>\n", f);
}

static int timed(const struct engine_snap *s)
{
	int p;

	for (p = 0; p < PHASES; p++)
		if (s->latency[p].n)
			return 1;
	return 0;
}

/*
 * Like disks on one scale, the highest of theirs, so a slow one looks
 * slow beside the others; a disk of no group on its own.
 */
static double scale(const struct record *r, const struct record_disk *d)
{
	double top = disk_top(d), v;
	int i;

	for (i = 0; d->peer.group >= 0 && i < r->n; i++) {
		if (r->disks[i].peer.group != d->peer.group ||
		    !r->disks[i].snap.nzones)
			continue;
		v = disk_top(&r->disks[i]);
		top = v > top ? v : top;
	}
	return top;
}

/* The disks whose zones are too short to judge, said once under them. */
static void short_note(FILE *f, const struct record *r, const int *order)
{
	int i, n = 0, drawn_n = 0;

	for (i = 0; i < r->n; i++) {
		if (!r->disks[i].snap.nzones)
			continue;
		drawn_n++;
		n += !judged(&r->disks[i], r->s->bs);
	}
	if (!n)
		return;
	fputs("<p class=\"short\">too short to judge zones: ", f);
	if (n == drawn_n) {
		fprintf(f, "%s</p>\n", n == 1 ? "its run" : "every disk's run");
		return;
	}
	for (i = 0, n = 0; i < r->n; i++) {
		const struct record_disk *d = &r->disks[order[i]];

		if (!d->snap.nzones || judged(d, r->s->bs))
			continue;
		fputs(n++ ? ", " : "", f);
		html_text(f, d->label);
	}
	fputs("</p>\n", f);
}

void report_zones_html(FILE *f, const struct record *r, const int *order)
{
	int i, zones = 0, times = 0;

	for (i = 0; i < r->n; i++) {
		zones |= r->disks[i].snap.nzones > 0;
		times |= timed(&r->disks[i].snap);
	}
	if (zones) {
		fputs("<h2>Throughput against position</h2>\n<p>Each disk's "
		      "region in 100 zones, MB/s: <span style=\"color:#1f77b4"
		      "\">write</span>, <span style=\"color:#e6550d\">verify "
		      "or read</span>; red dots are dips, a dashed line a "
		      "write cliff.</p>\n<div class=\"zones\" style=\"display:"
		      "flex;flex-wrap:wrap;gap:4px;font-size:11px\">\n", f);
		for (i = 0; i < r->n; i++)
			if (r->disks[order[i]].snap.nzones)
				zones_plot(f, &r->disks[order[i]], r->s->bs,
					   scale(r, &r->disks[order[i]]));
		fputs("</div>\n", f);
		short_note(f, r, order);
	}
	if (times) {
		fputs("<h2>Request latency</h2>\n<p>Every request's time "
		      "from 0.1 ms to 10 s (log), its count on a log scale, "
		      "and under it each phase's p50/p99/p99.9; and the "
		      "slowest requests read again alone at qd 1."
		      "</p>\n<div class=\"latency\" style=\"display:flex;"
		      "flex-wrap:wrap;gap:4px;font-size:11px\">\n", f);
		for (i = 0; i < r->n; i++)
			if (timed(&r->disks[order[i]].snap))
				latency_plot(f, &r->disks[order[i]]);
		fputs("</div>\n", f);
	}
}
