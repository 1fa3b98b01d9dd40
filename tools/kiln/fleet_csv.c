/* SPDX-License-Identifier: MIT */
/*
 * Description: fleet.csv, for the lab's own tools and spreadsheets: one
 * line per machine's latest run, in the order and with the columns of
 * fleet.html's table (README lists them). RFC 4180: a header line, CRLF
 * line ends, every text field quoted with its quotes doubled; names with
 * odd bytes are written as fleet_text() writes them, so each machine
 * stays one line whatever its folder is called.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fleet.h"

static const char header[] =
	"machine,verdict,state,started,clock_trusted,duration_s,disks,"
	"failed,failures,warnings,below_like_disks,kiln_version,run_id,"
	"folder,checkpoint,checkpoint_age_s,runs,problem\r\n";

static void field(FILE *f, const char *s)
{
	fputc('"', f);
	fleet_text(f, s ? s : "", FLEET_CSV);
	fputs("\",", f);
}

/* The disks of one verdict, each with its reasons, " | " between. */
static void disks(FILE *f, const struct fleet_run *r, const char *verdict,
		  const char *first)
{
	int i, n = 0;

	fputc('"', f);
	if (first) {
		fleet_text(f, first, FLEET_CSV);
		n++;
	}
	for (i = 0; i < r->n; i++) {
		const struct fleet_disk *d = &r->disks[i];

		if (strcmp(d->verdict, verdict))
			continue;
		fputs(n++ ? " | " : "", f);
		fleet_disk_name(f, d, FLEET_CSV);
		fputs(": ", f);
		fleet_text(f, d->reasons, FLEET_CSV);
	}
	fputs("\",", f);
}

static void slow(FILE *f, const struct fleet_run *r)
{
	int i, n = 0;

	fputc('"', f);
	for (i = 0; i < r->n; i++) {
		const struct fleet_disk *d = &r->disks[i];
		int w = d->write_like && d->write_like < FLEET_LIKE_SLOW;
		int v = d->read_like && d->read_like < FLEET_LIKE_SLOW;

		if (!w && !v)
			continue;
		fputs(n++ ? " | " : "", f);
		fleet_disk_name(f, d, FLEET_CSV);
		fputs(":", f);
		if (w)
			fprintf(f, " write %.0f%%", d->write_like * 100);
		if (v)
			fprintf(f, "%s verify %.0f%%", w ? "," : "",
				d->read_like * 100);
		fputs(" of like disks", f);
	}
	fputs("\",", f);
}

static void line(FILE *f, const struct fleet *fl, const struct fleet_machine *m)
{
	const struct fleet_run *r = m->runs[0];
	int i, failed = 0;

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
	fputc('"', f);
	fleet_text(f, r->problem ? r->problem : "", FLEET_CSV);
	fputs("\"\r\n", f);
}

char *fleet_csv_text(const struct fleet *fl, size_t *len)
{
	char *out = NULL;
	FILE *f = open_memstream(&out, len);
	int i;

	if (!f)
		return NULL;
	fputs(header, f);
	for (i = 0; i < fl->n; i++)
		line(f, fl, &fl->machines[i]);
	if (fclose(f)) {
		free(out);
		return NULL;
	}
	return out;
}
