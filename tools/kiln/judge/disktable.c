/* SPDX-License-Identifier: MIT */
/*
 * Description: the per-disk table of a running burn (see disktable.h):
 * cells of "name* write read done left" packed into lines of the width,
 * controller by controller, so 60 disks take some twenty lines of a log
 * that a 12 h soak prints every minute.
 */
#include <stdio.h>
#include <string.h>

#include "judge/disktable.h"

/*
 * The columns of a cell after its name: MB/s written, read, done, time
 * left, a space before each; the slowest's mark takes the last column
 * before the cell.
 */
#define CELL_FIGURES (1 + 4 + 1 + 4 + 1 + 4 + 1 + 5)
#define CELL_GAP 2
#define INDENT 4

char *disktable_fmt_eta(int64_t secs, char *buf, size_t len)
{
	if (secs < 0)
		snprintf(buf, len, "?");
	else if (secs < 3600)
		snprintf(buf, len, "%um%02u", (unsigned)(secs / 60),
			 (unsigned)(secs % 60));
	else if (secs < 100 * 3600)
		snprintf(buf, len, "%uh%02u", (unsigned)(secs / 3600),
			 (unsigned)(secs / 60 % 60));
	else
		snprintf(buf, len, "%lluh", (unsigned long long)(secs / 3600));
	return buf;
}

/* The running disk with the lowest rate, when more than one runs; -1. */
static int slowest(const struct disktable_row *rows, int n)
{
	int i, s = -1, running = 0;

	for (i = 0; i < n; i++) {
		if (rows[i].state)
			continue;
		running++;
		if (s < 0 || rows[i].mbps < rows[s].mbps)
			s = i;
	}
	return running > 1 ? s : -1;
}

/* A rate in four columns: thousands past 9999 ("15k"). */
static void fmt_rate(double mbps, char *buf, size_t len)
{
	if (mbps < 9999.5)
		snprintf(buf, len, "%4.0f", mbps);
	else
		snprintf(buf, len, "%3.0fk", mbps / 1000);
}

static void cell(FILE *f, const struct disktable_row *r, int w)
{
	char wr[16], rd[16], done[16], left[16];

	fmt_rate(r->write, wr, sizeof(wr));
	fmt_rate(r->read, rd, sizeof(rd));
	if (r->done < 0)
		snprintf(done, sizeof(done), "?");
	else
		snprintf(done, sizeof(done), "%.0f%%",
			 r->done > 1 ? 100 : r->done * 100);
	if (r->state)
		snprintf(left, sizeof(left), "%.5s", r->state);
	else
		disktable_fmt_eta(r->eta, left, sizeof(left));
	/* A name cut keeps its end, where names of one kind differ. */
	if ((int)strlen(r->name) > w)
		fprintf(f, "~%s", r->name + strlen(r->name) - (size_t)(w - 1));
	else
		fprintf(f, "%-*s", w, r->name);
	fprintf(f, " %4s %4s %4s %5s", wr, rd, done, left);
}

/* Whether a row is of group g of ng; g -1: of none of them. */
static int in_group(const struct disktable_row *r, int g, int ng)
{
	return g >= 0 ? r->group == g : r->group < 0 || r->group >= ng;
}

/* One controller's disks (group g; -1: behind none), k cells a line. */
static void group(FILE *f, const struct disktable_row *rows, int n, int g,
		  int ng, const char *name, const int layout[3])
{
	double wr = 0, rd = 0;
	int i, count = 0, at = 0, w = layout[0], k = layout[1];

	for (i = 0; i < n; i++)
		if (in_group(&rows[i], g, ng)) {
			count++;
			wr += rows[i].write;
			rd += rows[i].read;
		}
	if (!count)
		return;
	fprintf(f, "  %s: %d disk%s, write %.0f read %.0f MB/s\n", name,
		count, count == 1 ? "" : "s", wr, rd);
	for (i = 0; i < n; i++) {
		if (!in_group(&rows[i], g, ng))
			continue;
		fprintf(f, "%*s%c", (at ? CELL_GAP : INDENT) - 1, "",
			i == layout[2] ? '*' : ' ');
		cell(f, &rows[i], w);
		if (++at == k) {
			fputc('\n', f);
			at = 0;
		}
	}
	if (at)
		fputc('\n', f);
}

void disktable_write(FILE *f, const char *when,
		     const struct disktable_row *rows, int n,
		     const char *const *groups, int ngroups, int width)
{
	int i, w = 4, k, mark = slowest(rows, n), others = 0, layout[3];

	for (i = 0; i < n; i++) {
		int len = (int)strlen(rows[i].name);

		if (len > w)
			w = len > DISKTABLE_NAME_MAX ? DISKTABLE_NAME_MAX : len;
		others |= rows[i].group < 0 || rows[i].group >= ngroups;
	}
	k = (width - INDENT + CELL_GAP) / (w + CELL_FIGURES + CELL_GAP);
	if (k < 1)
		k = 1;
	layout[0] = w;
	layout[1] = k;
	layout[2] = mark;
	/* Within 80 columns with its "; * slowest". */
	fprintf(f, "%s per disk: MB/s write, read since the last table, "
		"done, left%s\n", when, mark >= 0 ? "; * slowest" : "");
	for (i = 0; i < ngroups; i++)
		group(f, rows, n, i, ngroups, groups[i], layout);
	if (others)
		group(f, rows, n, -1, ngroups, ngroups ?
		      "behind no controller known" : "disks", layout);
}
