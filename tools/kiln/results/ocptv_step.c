/* SPDX-License-Identifier: MIT */
/*
 * Description: the test steps of ocptv.jsonl (ocptv.c writes the run
 * around them): how a disk's burn-in, and a failure of the machine, map
 * onto OCP's steps.
 *
 * - One test step per disk (testStepId "0".."n-1", named "burn-in LABEL"),
 *   not one per phase: a disk's passes alternate phases (write, verify,
 *   write, ...) and the monitor keeps its throughput per direction, not
 *   per phase.
 *
 * - In a step: a measurement series of MB/s written and one of MB/s read
 *   (verify and read phases both read), for each direction the disk moved
 *   bytes in, from the monitor's points (at most OCPTV_MAX_POINTS; more
 *   merge in pairs, as the monitor's own do). A point's timestamp is the
 *   end of the seconds it covers. Then measurements: bytes written and
 *   read, passes made (figures_passes); per phase its average and its
 *   slowest and fastest second (MB/s) and the seconds spent flushing;
 *   I/O errors, bad units, those of them good on a re-read, units not
 *   written; then, once the run has ended, each signal's own (the table's
 *   ocp_disk hooks, signal.h: SMART's counters after the run).
 *   Validators state the judge's thresholds where it has one: an I/O error
 *   or a bad unit fails (EQUAL 0), a slowest second below 20% of its
 *   phase's average warns (GREATER_THAN_OR_EQUAL, once the phase ran 10
 *   whole seconds; its name says WARN), a SMART damage counter that rose
 *   fails (LESS_THAN_OR_EQUAL its value before), as do a failing SMART
 *   self-assessment and an NVMe critical warning.
 *
 * - Error artifacts: each range of failed requests the engine kept
 *   (symptom "io-error"), and a disk whose engine could not start
 *   ("disk-not-tested"). The spec keeps errors for what is not the
 *   hardware's fault; kiln cannot tell a drive's error from its cable's,
 *   controller's or driver's, and a failed request is a part of the disk
 *   the test could not check. The hardware's verdict is the diagnosis.
 *
 * - A diagnosis per disk, its message every reason the judge gave:
 *	PASS -> type PASS, verdict "disk-pass";
 *	FAIL -> type FAIL, verdict "disk-fail-WHAT" (io-errors, bad-units,
 *		stalled, ...: the first failing reason, in a few words);
 *	WARN -> the spec has no such type: type PASS (the disk was not found
 *		non-conformant), verdict "disk-warn-WHAT" naming the warning
 *		(unstable-write, stopped-before-the-end, slow-read, ...), and
 *		a log of severity WARNING with the reasons.
 *   The machine is a step of its own, "machine", after the disks': the
 *   bytes all its disks wrote and read and the fewest passes any made; a
 *   failure of the machine, not of a disk (an expected disk missing), is
 *   its FAIL diagnosis.
 *
 * - testStepEnd: COMPLETE when the disk ran to its end (a stall or a
 *   vanished disk is a finding: the test of it is over), SKIP when it was
 *   stopped before (interrupted), ERROR when its engine could not start.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/json.h"
#include "results/seconds.h"
#include "results/ocptv.h"
#include "results/ocptv_step.h"
#include "results/result.h"
#include "results/signal.h"
#include "base/timing.h"

/*
 * The judge's thresholds (judge.c) that are not in its header: a second
 * below this share of its phase's average is a dip (WARN), once the phase
 * ran this many whole seconds.
 */
#define UNSTABLE_SHARE 0.2
#define UNSTABLE_MIN_SECONDS 10

/*
 * A reason in a few words, for a verdict name that counts well across a
 * fleet: "unstable write: its slowest ..." -> "unstable-write", "3 I/O
 * errors, the first ..." -> "io-errors".
 */
static void slug(const char *reason, char *out, size_t len)
{
	size_t n = 0;
	int gap = 0;

	/* A count first is the figure, not the kind. */
	while (isdigit((unsigned char)*reason) || *reason == ' ')
		reason++;
	for (; *reason && n + 2 < len; reason++) {
		unsigned char c = (unsigned char)*reason;

		if (c == ':' || c == ',' || c == '(' || isdigit(c))
			break;
		if (c == '/')		/* I/O */
			continue;
		if (!isalnum(c)) {
			gap = 1;
			continue;
		}
		if (gap && n)
			out[n++] = '-';
		gap = 0;
		out[n++] = (char)tolower(c);
	}
	out[n] = 0;
}

/* The judge's warnings (judge.c); its other reasons fail a disk. */
static int warning_reason(const char *r)
{
	return !strncmp(r, "stopped before the end", 22) ||
	       !strncmp(r, "unstable ", 9) || !strncmp(r, "slow ", 5) ||
	       strstr(r, "(from before the run)") != NULL;
}

unsigned ocptv_points(const float *v, unsigned n, unsigned step, double acc,
		      unsigned acc_n, unsigned max, struct ocptv_point *out)
{
	unsigned i, count = 0;

	if (!step)
		step = 1;
	for (i = 0; i < n; i++) {
		out[count].mbps = v[i];
		out[count].secs = step;
		out[count].end = (double)(i + 1) * step;
		count++;
	}
	if (acc_n) {
		out[count].mbps = acc / acc_n;
		out[count].secs = acc_n;
		out[count].end = (double)n * step + acc_n;
		count++;
	}
	if (!max)
		max = 1;
	while (count > max) {
		for (i = 0; i < count / 2; i++) {
			const struct ocptv_point *a = &out[2 * i], *b = a + 1;
			double secs = a->secs + b->secs;

			out[i].mbps = (a->mbps * a->secs + b->mbps * b->secs) /
				      secs;
			out[i].end = b->end;
			out[i].secs = secs;
		}
		/* An odd last point stays as it is, alone. */
		if (count % 2)
			out[i++] = out[count - 1];
		count = i;
	}
	return count;
}

/* disk-pass, disk-warn-unstable-write, disk-fail-io-errors */
static void verdict_name(const struct judge *j, char *out, size_t len)
{
	const char *why = j->nreasons ? j->reasons[0] : "";
	int i, warn = j->verdict == JUDGE_WARN;
	char what[64];

	if (j->verdict == JUDGE_PASS) {
		snprintf(out, len, "disk-pass");
		return;
	}
	for (i = 0; i < j->nreasons; i++)
		if (warning_reason(j->reasons[i]) == warn) {
			why = j->reasons[i];
			break;
		}
	slug(why, what, sizeof(what));
	snprintf(out, len, "disk-%s%s%s", warn ? "warn" : "fail",
		 what[0] ? "-" : "", what);
}

static void reasons_text(const struct judge *j, char *out, size_t len)
{
	size_t n = 0;
	int i;

	out[0] = 0;
	for (i = 0; i < j->nreasons && n < len; i++)
		n += (size_t)snprintf(out + n, len - n, "%s%s", i ? "; " : "",
				      j->reasons[i]);
}

static void series(struct ocptv_out *o, const char *step, const char *hw,
		   const char *name, const float *v, const struct
		   monitor_series *s, double acc, double t0)
{
	struct ocptv_point *pts = calloc((size_t)s->n + 1, sizeof(*pts));
	char id[16];
	unsigned i, n;

	if (!pts) {
		o->j.failed = 1;	/* json_take() says out of memory */
		return;
	}
	n = ocptv_points(v, s->n, s->step, acc, s->acc_n, OCPTV_MAX_POINTS,
			 pts);
	/* Less than a second: the measurements say it all. */
	if (!n) {
		free(pts);
		return;
	}
	snprintf(id, sizeof(id), "%u", o->series++);
	ocptv_out_step_open(o, step, "measurementSeriesStart");
	json_str(&o->j, "measurementSeriesId", id);
	json_str(&o->j, "name", name);
	json_str(&o->j, "unit", "MB/s");
	json_str(&o->j, "hardwareInfoId", hw);
	ocptv_out_step_close(o, t0);
	for (i = 0; i < n; i++) {
		char ts[48];

		ocptv_out_step_open(o, step, "measurementSeriesElement");
		json_u64(&o->j, "index", i);
		json_num(&o->j, "value", pts[i].mbps);
		json_str(&o->j, "timestamp",
			 ocptv_out_stamp(t0 + pts[i].end, ts, sizeof(ts)));
		json_str(&o->j, "measurementSeriesId", id);
		ocptv_out_step_close(o, t0 + pts[i].end);
	}
	ocptv_out_step_open(o, step, "measurementSeriesEnd");
	json_str(&o->j, "measurementSeriesId", id);
	json_u64(&o->j, "totalCount", n);
	ocptv_out_step_close(o, t0 + pts[n - 1].end);
	free(pts);
}

static void unstable_validator(struct ocptv_out *o, const char *ph,
			       double avg)
{
	char why[96];

	snprintf(why, sizeof(why), "WARN: unstable %s below %.0f%% of "
		 "its average", ph, 100 * UNSTABLE_SHARE);
	ocptv_out_validator_begin(o, "GREATER_THAN_OR_EQUAL", why);
	json_num(&o->j, "value", UNSTABLE_SHARE * avg);
	ocptv_out_validator_end(o);
}

static void phase_measurements(struct ocptv_out *o, const struct record_disk *d,
			       const char *step, const char *hw, int p,
			       double t)
{
	const char *ph = engine_phase_name(p);
	double avg = figures_rate(&d->snap, p), min, max, own;
	char name[64];
	int shared;

	if (!d->snap.phase_ns[p])
		return;
	if (p == PHASE_FLUSH) {
		ocptv_out_measure_begin(o, step, hw, "flush-seconds", "s");
		json_num(&o->j, "value", timing_secs(d->snap.phase_ns[p]));
		ocptv_out_measure_end(o, t);
		return;
	}
	snprintf(name, sizeof(name), "%s-throughput-average", ph);
	ocptv_out_measure_begin(o, step, hw, name, "MB/s");
	json_num(&o->j, "value", avg);
	ocptv_out_measure_end(o, t);
	if (!seconds_range(d, p, &min, &max))
		return;
	shared = monitor_slowest_not_own(d->mt, p);
	own = monitor_own_min(d->mt, p);
	snprintf(name, sizeof(name), "%s-throughput-slowest-second", ph);
	ocptv_out_measure_begin(o, step, hw, name, "MB/s");
	json_num(&o->j, "value", min);
	if (d->mt->seconds[p] >= UNSTABLE_MIN_SECONDS && !shared)
		unstable_validator(o, ph, avg);
	ocptv_out_measure_end(o, t);
	/*
	 * Its slowest second was the machine's or the host's: the judge's
	 * rule is held to its own slowest (monitor_own_min()).
	 */
	if (shared && own >= 0) {
		snprintf(name, sizeof(name), "%s-throughput-slowest-own-second",
			 ph);
		ocptv_out_measure_begin(o, step, hw, name, "MB/s");
		json_num(&o->j, "value", own);
		if (d->mt->seconds[p] >= UNSTABLE_MIN_SECONDS)
			unstable_validator(o, ph, avg);
		ocptv_out_measure_end(o, t);
	}
	snprintf(name, sizeof(name), "%s-throughput-fastest-second", ph);
	ocptv_out_measure_begin(o, step, hw, name, "MB/s");
	json_num(&o->j, "value", max);
	ocptv_out_measure_end(o, t);
}

static const char *step_status(const struct record_disk *d)
{
	switch (d->snap.c.state) {
	case STATE_DONE:
	case STATE_STALLED:
	case STATE_VANISHED:
		return "COMPLETE";
	case STATE_BROKEN:
		return "ERROR";
	}
	/* Stopped, or never got to run before the run ended. */
	return "SKIP";
}

/* What the disk's engine and, at the end, its signals measured. */
static void disk_measurements(struct ocptv_out *o, const struct record_disk *d,
			      const char *step, const char *hw, double t0,
			      double t1, int final)
{
	const struct engine_snap *s = &d->snap;
	char text[400];
	unsigned k;
	int c;

	if (d->mt && s->c.bytes_written)
		series(o, step, hw, "write-throughput", d->mt->series.write,
		       &d->mt->series, d->mt->series.acc_w, t0);
	if (d->mt && s->c.bytes_read)
		series(o, step, hw, "read-throughput", d->mt->series.read,
		       &d->mt->series, d->mt->series.acc_r, t0);
	ocptv_out_measure_count(o, step, hw, "bytes-written", "bytes",
				s->c.bytes_written, NULL, t1);
	ocptv_out_measure_count(o, step, hw, "bytes-read", "bytes",
				s->c.bytes_read, NULL, t1);
	ocptv_out_measure_count(o, step, hw, "passes-made", "passes",
				figures_passes(s, d->ep.mode), NULL, t1);
	for (c = PHASE_WRITE; c <= PHASE_READ; c++)
		phase_measurements(o, d, step, hw, c, t1);
	ocptv_out_measure_count(o, step, hw, "io-errors", "requests",
				s->c.io_errors, "FAIL: any I/O error", t1);
	ocptv_out_measure_begin(o, step, hw, "bad-units", "units");
	json_u64(&o->j, "value", s->c.bad_units);
	ocptv_out_validator_begin(o, "EQUAL", "FAIL: any bad unit");
	json_u64(&o->j, "value", 0);
	ocptv_out_validator_end(o);
	json_begin(&o->j, "metadata");
	for (c = UNIT_BITFLIP; c < UNIT_CLASSES; c++)
		json_u64(&o->j, unit_class_name((enum unit_class)c),
			 s->bad_by_class[c]);
	json_end(&o->j);
	ocptv_out_measure_end(o, t1);
	ocptv_out_measure_count(o, step, hw, "bad-units-good-on-reread",
				"units", s->bad_transient, NULL, t1);
	ocptv_out_measure_count(o, step, hw, "units-not-written", "units",
				s->not_written, NULL, t1);
	if (s->plan.mode == ENGINE_VERIFY && !s->plan.verify_pass) {
		ocptv_out_measure_begin(o, step, hw, "run-found-on-disk", NULL);
		json_bool(&o->j, "value", s->pass_found);
		ocptv_out_validator_begin(o, "EQUAL", "FAIL: no unit of this "
					  "run and disk");
		json_bool(&o->j, "value", 1);
		ocptv_out_validator_end(o);
		ocptv_out_measure_end(o, t1);
	}
	if (final)
		for (SIGNAL_EACH(sig))
			if ((*sig)->ocp_disk)
				(*sig)->ocp_disk(o, d, step, hw, t1);

	for (k = 0; k < s->nerrors; k++) {
		const struct engine_error *e = &s->errors[k];

		snprintf(text, sizeof(text), "%s: %s of pass %u at byte %llu "
			 "(+%llu), %u request%s: %s", d->label,
			 engine_phase_name(e->phase), e->pass,
			 (unsigned long long)e->offset,
			 (unsigned long long)e->length, e->count,
			 e->count == 1 ? "" : "s", strerror(e->err));
		ocptv_out_step_error(o, step, "io-error", text, t1);
	}
}

/* The judge's verdict on the disk, and how its step ended. */
static void disk_verdict(struct ocptv_out *o, const struct record_disk *d,
			 const char *step, const char *hw, double t)
{
	char text[JUDGE_MAX_REASONS * 244], line[sizeof(text) + 100];
	char what[96];

	reasons_text(&d->j, text, sizeof(text));
	if (d->j.verdict == JUDGE_WARN) {
		snprintf(line, sizeof(line), "%s: WARN: %s", d->label, text);
		ocptv_out_step_log(o, step, "WARNING", line, t);
	}
	verdict_name(&d->j, what, sizeof(what));
	ocptv_out_step_open(o, step, "diagnosis");
	json_str(&o->j, "verdict", what);
	json_str(&o->j, "type", d->j.verdict == JUDGE_FAIL ? "FAIL" : "PASS");
	json_str(&o->j, "message", text);
	json_str(&o->j, "hardwareInfoId", hw);
	ocptv_out_step_close(o, t);

	ocptv_out_step_open(o, step, "testStepEnd");
	json_str(&o->j, "status", step_status(d));
	ocptv_out_step_close(o, t);
}

void ocptv_step_disk(struct ocptv_out *o, const struct record *r, int i,
		     double t0, double t1, int final)
{
	const struct record_disk *d = &r->disks[i];
	char step[16], hw[16], text[400];

	snprintf(step, sizeof(step), "%d", i);
	snprintf(hw, sizeof(hw), "%d", i + 1);
	ocptv_out_step_open(o, step, "testStepStart");
	snprintf(text, sizeof(text), "burn-in %s", d->label[0] ? d->label :
		 d->path);
	json_str(&o->j, "name", text);
	ocptv_out_step_close(o, t0);

	/* A disk that could not start measured nothing: it says why. */
	if (d->snap.c.state == STATE_BROKEN) {
		snprintf(text, sizeof(text), "%s: could not be tested: %s",
			 d->label, d->snap.why);
		ocptv_out_step_error(o, step, "disk-not-tested", text, t1);
	} else {
		disk_measurements(o, d, step, hw, t0, t1, final);
	}
	if (final)
		disk_verdict(o, d, step, hw, t1);
}

/* A failure of the machine, not of a disk: "2 missing". */
static void machine_fail(struct ocptv_out *o, const struct record *r,
			 const char *step, const char *hw, double t)
{
	ocptv_out_step_open(o, step, "diagnosis");
	json_str(&o->j, "verdict", "machine-fail");
	json_str(&o->j, "type", "FAIL");
	json_str(&o->j, "message", r->failure);
	if (hw)
		json_str(&o->j, "hardwareInfoId", hw);
	ocptv_out_step_close(o, t);
}

void ocptv_step_machine(struct ocptv_out *o, const struct record *r,
			const char *machine, double t0, double t1)
{
	const char *hw = machine[0] ? "0" : NULL;
	unsigned long long w = 0, rd = 0, passes = 0;
	char step[16];
	int i;

	snprintf(step, sizeof(step), "%d", r->n);
	ocptv_out_step_open(o, step, "testStepStart");
	json_str(&o->j, "name", "machine");
	ocptv_out_step_close(o, t0);
	for (i = 0; i < r->n; i++) {
		const struct record_disk *d = &r->disks[i];
		uint64_t p = figures_passes(&d->snap, d->ep.mode);

		w += d->snap.c.bytes_written;
		rd += d->snap.c.bytes_read;
		if (!i || p < passes)
			passes = p;
	}
	ocptv_out_measure_count(o, step, hw, "bytes-written", "bytes", w, NULL,
				t1);
	ocptv_out_measure_count(o, step, hw, "bytes-read", "bytes", rd, NULL,
				t1);
	/* The run's passes are as many as its slowest disk made. */
	ocptv_out_measure_count(o, step, hw, "passes-made", "passes", passes,
				NULL, t1);
	if (r->failure[0])
		machine_fail(o, r, step, hw, t1);
	ocptv_out_step_open(o, step, "testStepEnd");
	json_str(&o->j, "status", r->state == RECORD_INTERRUPTED ? "SKIP" :
		 "COMPLETE");
	ocptv_out_step_close(o, t1);
}
