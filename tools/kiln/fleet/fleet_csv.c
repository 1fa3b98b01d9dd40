/* SPDX-License-Identifier: MIT */
/*
 * Description: fleet.csv, for the lab's own tools and spreadsheets: one
 * line per machine's latest run, in the order and with the columns of
 * fleet.html's table (docs/results.md lists them). RFC 4180: a header line, CRLF
 * line ends, every text field quoted with its quotes doubled; names with
 * odd bytes are written as fleet_text() writes them, so each machine
 * stays one line whatever its folder is called, and a cell a spreadsheet
 * would run as a formula begins with '.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fleet/fleet.h"

/* The header, the signals' columns (bmc_address, bmc_mac) after runs. */
static const char header[] =
	"machine,verdict,state,started,clock_trusted,duration_s,disks,"
	"failed,failures,warnings,below_like_disks,kiln_version,run_id,"
	"folder,checkpoint,checkpoint_age_s,runs,";
static const char header_end[] = "end,problem\r\n";

/*
 * A text cell opened: its text goes to the cell's own stream, and
 * cell_end() writes it quoted. A spreadsheet runs a cell that begins with
 * = + - @ (or a tab or CR before one) as a formula: such a cell begins
 * with ' instead, as OWASP advises for CSV, so a folder named "=cmd|..."
 * is shown, never run.
 */
struct cell {
	FILE *mem;
	char *text;
	size_t len;
};

static FILE *cell_begin(struct cell *c)
{
	c->text = NULL;
	c->len = 0;
	c->mem = open_memstream(&c->text, &c->len);
	return c->mem;
}

static void cell_end(FILE *f, struct cell *c, const char *after)
{
	if (c->mem && !fclose(c->mem) && c->text) {
		fputc('"', f);
		if (strchr("=+-@\t\r", c->text[0]) && c->text[0])
			fputc('\'', f);
		fputs(c->text, f);
		fputc('"', f);
	} else {
		fputs("\"\"", f);
	}
	fputs(after, f);
	free(c->text);
}

/* A text field, then after: "," or the line's end. */
static void field_then(FILE *f, const char *s, const char *after)
{
	struct cell c;
	FILE *m = cell_begin(&c);

	if (m)
		fleet_text(m, s ? s : "", FLEET_CSV);
	cell_end(f, &c, after);
}

static void field(FILE *f, const char *s)
{
	field_then(f, s, ",");
}

/* The disks of one verdict, each with its reasons, " | " between. */
static void disks(FILE *f, const struct fleet_run *r, const char *verdict,
		  const char *first)
{
	struct cell c;
	FILE *m = cell_begin(&c);
	int i, n = 0;

	if (m && first) {
		fleet_text(m, first, FLEET_CSV);
		n++;
	}
	for (i = 0; m && i < r->n; i++) {
		const struct fleet_disk *d = &r->disks[i];

		if (strcmp(d->verdict, verdict))
			continue;
		fputs(n++ ? " | " : "", m);
		fleet_disk_name(m, d, FLEET_CSV);
		fputs(": ", m);
		fleet_text(m, d->reasons, FLEET_CSV);
	}
	cell_end(f, &c, ",");
}

static void slow(FILE *f, const struct fleet_run *r)
{
	struct cell c;
	FILE *m = cell_begin(&c);
	int i, n = 0;

	for (i = 0; m && i < r->n; i++) {
		const struct fleet_disk *d = &r->disks[i];

		if (!fleet_like_slow(d))
			continue;
		fputs(n++ ? " | " : "", m);
		fleet_disk_name(m, d, FLEET_CSV);
		fleet_like_below(m, d);
	}
	cell_end(f, &c, ",");
}

/*
 * How the run left its disks (end=): "discard: 3 done, 1 skipped", each
 * state counted in the order its first disk has; empty for end=keep.
 * A run has eight states at most (endstep.h); past END_STATES, "other".
 */
#define END_STATES 8
static void end_cell(FILE *f, const struct fleet_run *r)
{
	const char *name[END_STATES + 1];
	int count[END_STATES + 1] = { 0 }, i, j, k = 0;
	struct cell c;
	FILE *m = cell_begin(&c);

	if (m && r->end_method && r->end_method[0] &&
	    strcmp(r->end_method, "keep")) {
		for (i = 0; i < r->n; i++) {
			const char *st = r->disks[i].end_state &&
					 r->disks[i].end_state[0] ?
					 r->disks[i].end_state : "not said";

			for (j = 0; j < k && strcmp(name[j], st); j++)
				;
			if (j == k && k < END_STATES)
				name[k++] = st;
			else if (j == k)
				name[j = END_STATES] = "other";
			count[j]++;
		}
		if (count[END_STATES])
			k = END_STATES + 1;
		fleet_text(m, r->end_method, FLEET_CSV);
		for (j = 0; j < k; j++) {
			fprintf(m, "%s %d ", j ? "," : ":", count[j]);
			fleet_text(m, name[j], FLEET_CSV);
		}
	}
	cell_end(f, &c, ",");
}

static void line(FILE *f, const struct fleet *fl, const struct fleet_machine *m)
{
	const struct fleet_run *r = m->runs[0];
	int i, k, failed = 0, ncols = signals_columns(NULL, 0);

	for (i = 0; i < r->n; i++)
		failed += !strcmp(r->disks[i].verdict, "FAIL");
	field(f, m->id);
	field(f, r->verdict);
	field(f, fleet_state_name(r->state));
	field(f, r->started);
	field(f, !r->started[0] ? "" : r->clock_trusted ? "yes" : "no");
	if (r->state < FLEET_PARTIAL)
		fprintf(f, "%.3f,%d,%d,", r->elapsed, r->n, failed);
	else
		fputs(",,,", f);
	disks(f, r, "FAIL", r->failure);
	disks(f, r, "WARN", r->results_lost ? "not all of the run's results "
	      "were written" : NULL);
	slow(f, r);
	field(f, r->kiln_version);
	field(f, r->run_id);
	field(f, r->dir);
	if (r->checkpoint)
		fprintf(f, "%llu,%lld,", (unsigned long long)r->checkpoint,
			(long long)(fl->now - r->checkpoint_at));
	else
		fputs(",,", f);
	fprintf(f, "%d,", m->n);
	for (k = 0; k < ncols && k < FLEET_COLUMNS; k++)
		field(f, r->cols[k]);
	end_cell(f, r);
	field_then(f, r->problem, "\r\n");
}

char *fleet_csv_text(const struct fleet *fl, size_t *len)
{
	const struct signal_column *cols[FLEET_COLUMNS];
	char *out = NULL;
	FILE *f = open_memstream(&out, len);
	int i, k, ncols = signals_columns(cols, FLEET_COLUMNS);

	if (!f)
		return NULL;
	fputs(header, f);
	for (k = 0; k < ncols && k < FLEET_COLUMNS; k++)
		fprintf(f, "%s,", cols[k]->name);
	fputs(header_end, f);
	for (i = 0; i < fl->n; i++)
		line(f, fl, &fl->machines[i]);
	if (fclose(f)) {
		free(out);
		return NULL;
	}
	return out;
}
