/* SPDX-License-Identifier: MIT */
/*
 * Description: the text a Pushgateway takes (metrics_text, see metrics.h)
 * of the run as it stands, saying what the console says: the status
 * line's MB/s while a disk runs, the table's averages per phase, the
 * passes made and the bytes moved, per disk and for the machine.
 *
 * The phase is a number, not a label: a label that changes makes a new
 * series at each change (and PUT drops the old one), so a graph of a disk
 * would break at every phase; a number is one series per disk that a
 * Grafana state timeline maps to names (0 start, 1 write, 2 flush, 3
 * verify, 4 read, 5 end, as enum engine_phase). The engine's state and the
 * verdicts are numbers for the same reason. Every gauge of a disk carries
 * the same four labels, so any two of them join without relabelling.
 * The signals' own gauges of a disk (the vitals' temperature and its
 * limit) are theirs, in signals.c's table (signal.h's gauges): they come
 * after the engine's, before the verdict.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "base/json.h"
#include "base/timing.h"
#include "base/version.h"
#include "lab/metrics.h"
#include "results/result.h"
#include "results/signal.h"

/* --- The text ------------------------------------------------------- */

/* The length of the character at s: 1 for ASCII, 0 when not UTF-8. */
static int utf8_len(const unsigned char *s)
{
	return *s < 0x80 ? 1 : (int)json_utf8_len(s);
}

/*
 * A label value as the format wants it: backslash, double quote and
 * newline escaped. The gateway refuses a push that is not UTF-8, so a
 * byte that is not (an odd one in a file's path) is the text \xNN, as
 * fleet writes it: two names stay two series (a '?' for each made them
 * one, and every push was refused).
 */
static void label_value(FILE *f, const char *v)
{
	const unsigned char *s = (const unsigned char *)(v ? v : "");
	int n;

	while (*s) {
		if (*s == '\\' || *s == '"') {
			fputc('\\', f);
			fputc(*s++, f);
		} else if (*s == '\n') {
			fputs("\\n", f);
			s++;
		} else if ((n = utf8_len(s)) > 0) {
			fwrite(s, 1, (size_t)n, f);
			s += n;
		} else {
			fprintf(f, "\\\\x%02x", *s++);
		}
	}
}

static void disk_labels(FILE *f, const struct record_disk *d)
{
	fputs("{disk=\"", f);
	label_value(f, d->label[0] ? d->label : d->path);
	fputs("\",serial=\"", f);
	label_value(f, d->t.id.serial);
	fputs("\",model=\"", f);
	label_value(f, d->t.id.model);
	fputs("\",identity=\"", f);
	label_value(f, d->t.id.identity);
	fputs("\"}", f);
}

static void head(FILE *f, const char *name, const char *help)
{
	fprintf(f, "# HELP %s %s\n# TYPE %s gauge\n", name, help, name);
}

/*
 * The verdict so far. The judge fails any I/O error or bad unit, and a
 * disk that stalled, vanished or never started: the counters show those
 * at once, not at the judge's next look.
 */
static int verdict_now(const struct record_disk *d,
		       const struct engine_counters *c)
{
	if (c->io_errors || c->bad_units || c->state == STATE_STALLED ||
	    c->state == STATE_VANISHED || c->state == STATE_BROKEN ||
	    c->state == STATE_NOT_STARTED)
		return JUDGE_FAIL;
	return d->j.verdict;
}

enum family {
	F_PHASE, F_PASS, F_PASSES, F_STATE, F_WRITTEN, F_READ, F_RATE,
	F_WRITE_AVG, F_VERIFY_AVG, F_IO_ERRORS, F_BAD_UNITS, F_VERDICT,
	FAMILIES
};

static const struct {
	const char *name, *help;
} families[FAMILIES] = {
	[F_PHASE] = { "kiln_disk_phase", "The disk's phase: 0 start, 1 "
		      "write, 2 flush, 3 verify, 4 read, 5 end." },
	[F_PASS] = { "kiln_disk_pass", "The pass the disk is in, from 1." },
	[F_PASSES] = { "kiln_disk_passes_made", "Passes the disk has made "
		       "whole in this run." },
	[F_STATE] = { "kiln_disk_state", "The disk's burn: 0 running, 1 "
		      "done, 2 stopped early, 3 stalled, 4 vanished, 5 could "
		      "not start." },
	[F_WRITTEN] = { "kiln_disk_written_bytes", "Bytes written to the "
			"disk in this run." },
	[F_READ] = { "kiln_disk_read_bytes", "Bytes read from the disk in "
		     "this run." },
	[F_RATE] = { "kiln_disk_throughput_megabytes_per_second", "MB/s "
		     "written and read over the status line's last interval, "
		     "as it says them; 0 once the disk's burn is over." },
	[F_WRITE_AVG] = { "kiln_disk_write_megabytes_per_second", "The "
			  "write phase's average MB/s in this run, as the "
			  "table says it; once it has run." },
	[F_VERIFY_AVG] = { "kiln_disk_verify_megabytes_per_second", "The "
			   "verify phase's (a read burn: the read's) average "
			   "MB/s in this run, as the table says it; once it "
			   "has run." },
	[F_IO_ERRORS] = { "kiln_disk_io_errors", "Requests that failed with "
			  "an I/O error in this run." },
	[F_BAD_UNITS] = { "kiln_disk_bad_units", "Units (4 KiB) that read "
			  "back wrong in this run." },
	[F_VERDICT] = { "kiln_disk_verdict", "The disk's verdict so far: 0 "
			"PASS, 1 WARN, 2 FAIL." },
};

/* The table's average of a phase, %.3f; 0 when the phase has not run. */
static int phase_avg(const struct record_disk *d, int phase, char *buf,
		     size_t len)
{
	double avg = figures_rate(&d->snap, phase);

	if (!(avg > 0))
		return 0;
	snprintf(buf, len, "%.3f", avg);
	return 1;
}

/*
 * A disk's value of a family as text; 0 when it has none (unknown). The
 * status line's rate is of its last interval: once a disk is done that
 * interval is mostly after its end, and for like disks that moved the
 * same bytes it is the same figure, so a disk done says 0 and its phases'
 * averages say what it did.
 */
static int disk_value(int fam, const struct record_disk *d,
		      const struct engine_counters *c, char *buf, size_t len)
{
	double rate = d->mt && c->state == STATE_RUNNING ? d->mt->rate : 0;
	unsigned long long v;

	switch (fam) {
	case F_PHASE: v = (unsigned long long)c->phase; break;
	case F_PASS: v = c->pass; break;
	case F_PASSES: v = figures_passes(&d->snap, d->ep.mode); break;
	case F_STATE: v = (unsigned long long)c->state; break;
	case F_WRITTEN: v = c->bytes_written; break;
	case F_READ: v = c->bytes_read; break;
	case F_IO_ERRORS: v = c->io_errors; break;
	case F_BAD_UNITS: v = c->bad_units; break;
	case F_VERDICT: v = (unsigned long long)verdict_now(d, c); break;
	case F_RATE:
		snprintf(buf, len, "%.3f", isfinite(rate) && rate > 0 ? rate :
			 0.0);
		return 1;
	case F_WRITE_AVG:
		return phase_avg(d, PHASE_WRITE, buf, len);
	case F_VERIFY_AVG:
		return phase_avg(d, d->ep.mode == ENGINE_READ ? PHASE_READ :
				 PHASE_VERIFY, buf, len);
	default:
		return 0;
	}
	snprintf(buf, len, "%llu", v);
	return 1;
}

/* The machine's: bytes moved by all its disks, the fewest passes made. */
static void run_totals(FILE *f, const struct record *r,
		       const struct engine_counters *c)
{
	unsigned long long w = 0, rd = 0, passes = 0;
	int i;

	for (i = 0; i < r->n; i++) {
		const struct record_disk *d = &r->disks[i];
		const struct engine_counters *dc = c ? &c[i] : &d->snap.c;
		uint64_t p = figures_passes(&d->snap, d->ep.mode);

		w += dc->bytes_written;
		rd += dc->bytes_read;
		if (!i || p < passes)
			passes = p;
	}
	head(f, "kiln_run_written_bytes", "Bytes written to all the disks "
	     "in this run.");
	fprintf(f, "kiln_run_written_bytes %llu\n", w);
	head(f, "kiln_run_read_bytes", "Bytes read from all the disks in "
	     "this run.");
	fprintf(f, "kiln_run_read_bytes %llu\n", rd);
	head(f, "kiln_run_passes_made", "Passes made whole in this run: "
	     "the fewest any of its disks made.");
	fprintf(f, "kiln_run_passes_made %llu\n", passes);
}

static int run_state(const struct record *r)
{
	if (r->state == RECORD_RUNNING)
		return 0;
	return r->state == RECORD_INTERRUPTED ? 2 : 1;
}

/* A signal's gauge: each disk that has a value now. */
static void gauge(FILE *f, const struct record *r,
		  const struct signal_gauge *g)
{
	double v;
	int i;

	head(f, g->name, g->help);
	for (i = 0; i < r->n; i++) {
		if (!g->value(&r->disks[i], &v) || !isfinite(v))
			continue;
		fputs(g->name, f);
		disk_labels(f, &r->disks[i]);
		fprintf(f, " %.*f\n", g->decimals, v);
	}
}

char *metrics_text(const struct record *r, const struct engine_counters *c,
		   size_t *len)
{
	char *text = NULL, buf[64];
	size_t size = 0;
	int fam, i, verdict = r->verdict;
	FILE *f = open_memstream(&text, &size);
	const struct signal_gauge *g;

	if (!f)
		return NULL;
	for (fam = 0; fam < FAMILIES; fam++) {
		if (fam == F_VERDICT)
			for (SIGNAL_EACH(s))
				for (g = (*s)->gauges; g && g->name; g++)
					gauge(f, r, g);
		head(f, families[fam].name, families[fam].help);
		for (i = 0; i < r->n; i++) {
			const struct record_disk *d = &r->disks[i];
			const struct engine_counters *dc = c ? &c[i] :
							   &d->snap.c;

			if (!disk_value(fam, d, dc, buf, sizeof(buf)))
				continue;
			fputs(families[fam].name, f);
			disk_labels(f, d);
			fprintf(f, " %s\n", buf);
			if (fam == F_VERDICT && verdict_now(d, dc) > verdict)
				verdict = verdict_now(d, dc);
		}
	}
	head(f, "kiln_run_state", "The run: 0 running, 1 complete, 2 "
	     "interrupted.");
	fprintf(f, "kiln_run_state %d\n", run_state(r));
	head(f, "kiln_run_verdict", "The run's verdict so far: 0 PASS, 1 "
	     "WARN, 2 FAIL.");
	fprintf(f, "kiln_run_verdict %d\n", verdict);
	head(f, "kiln_run_elapsed_seconds", "Seconds since the burn "
	     "started.");
	fprintf(f, "kiln_run_elapsed_seconds %.3f\n",
		timing_secs(r->elapsed_ns));
	head(f, "kiln_run_disks", "Disks in the run.");
	fprintf(f, "kiln_run_disks %d\n", r->n);
	run_totals(f, r, c);
	head(f, "kiln_run_info", "The run's id, command and kiln's version.");
	snprintf(buf, sizeof(buf), "%016llx", (unsigned long long)r->run_id);
	fputs("kiln_run_info{run_id=\"", f);
	label_value(f, buf);
	fputs("\",command=\"", f);
	label_value(f, r->command);
	fputs("\",version=\"", f);
	label_value(f, version_string());
	fputs("\"} 1\n", f);
	if (fclose(f)) {
		free(text);
		return NULL;
	}
	if (len)
		*len = size;
	return text;
}

