/* SPDX-License-Identifier: MIT */
/*
 * Description: ocptv.jsonl, the run told in the OCP Test & Validation
 * output format (schema 2.0, ../shared/ocptv/SPEC.md), made whole from the
 * run's one record. How a kiln run maps onto it:
 *
 * - testRunStart: name "kiln", kiln's version, the command line, the
 *   settings as parameters. dutInfo is the machine: its id is the machine
 *   id when the record holds the inventory (kiln run), else the host's
 *   name. hardwareInfos: the machine ("0", when the inventory names it)
 *   and every disk ("1".."n", in the record's order); softwareInfos: kiln
 *   and the kernel. Each note of the run is a log of severity INFO.
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
 *   read; per phase its average and its slowest and fastest second (MB/s)
 *   and the seconds spent flushing; I/O errors, bad units, those of them
 *   good on a re-read, units not written; SMART's counters after the run.
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
 *   A failure of the machine, not of a disk (an expected disk missing), is
 *   a step of its own, "machine", with a FAIL diagnosis.
 *
 * - testStepEnd: COMPLETE when the disk ran to its end (a stall or a
 *   vanished disk is a finding: the test of it is over), SKIP when it was
 *   stopped before (interrupted), ERROR when its engine could not start.
 *
 * - testRunEnd, where the spec allows COMPLETE with PASS or FAIL, and SKIP
 *   or ERROR only with NOT_APPLICABLE:
 *	interrupted (a signal, a closed console)	SKIP, NOT_APPLICABLE
 *		(the spec's "external request to abort"; what was found so
 *		far stays in the diagnoses, and a log says so)
 *	no disk could start				ERROR, NOT_APPLICABLE
 *	a disk or the machine failed			COMPLETE, FAIL
 *	nothing to test					SKIP, NOT_APPLICABLE
 *	results lost, nothing failed			ERROR, NOT_APPLICABLE
 *	otherwise (warnings too)			COMPLETE, PASS
 *   A run still going (a checkpoint's record) has no diagnosis, step end
 *   or run end yet: the spec reads their absence as a run not finished.
 *
 * Timestamps are UTC with milliseconds, of the events they tell (starts at
 * the start, series points when measured, the rest at the end), since the
 * file is written after them. sequenceNumber counts the lines from 0.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>

#include "json.h"
#include "ocptv.h"
#include "summary.h"
#include "timing.h"
#include "version.h"

#define NS 1e9

/*
 * The judge's thresholds (judge.c) that are not in its header: a second
 * below this share of its phase's average is a dip (WARN), once the phase
 * ran this many whole seconds.
 */
#define UNSTABLE_SHARE 0.2
#define UNSTABLE_MIN_SECONDS 10

struct out {
	struct json j;
	unsigned long long seq;
	unsigned series;	/* measurementSeriesId, run-wide */
	char machine[128];	/* the machine id; "" unknown */
};

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

/* 2026-11-30T11:07:57.250Z: RFC 3339, as the schemas' date-time wants. */
static const char *stamp(double t, char *buf, size_t len)
{
	long long ms = t > 0 ? (long long)(t * 1000 + 0.5) : 0;
	time_t s = (time_t)(ms / 1000);
	struct tm tm;

	if (!gmtime_r(&s, &tm))
		memset(&tm, 0, sizeof(tm));
	snprintf(buf, len, "%04d-%02d-%02dT%02d:%02d:%02d.%03lldZ",
		 tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour,
		 tm.tm_min, tm.tm_sec, ms % 1000);
	return buf;
}

/* Every line ends with its place and time. */
static void line_end(struct out *o, double t)
{
	char ts[48];

	json_u64(&o->j, "sequenceNumber", o->seq++);
	json_str(&o->j, "timestamp", stamp(t, ts, sizeof(ts)));
	json_end(&o->j);
}

static void run_open(struct out *o, const char *what)
{
	json_begin(&o->j, NULL);
	json_begin(&o->j, "testRunArtifact");
	json_begin(&o->j, what);
}

static void run_close(struct out *o, double t)
{
	json_end(&o->j);
	json_end(&o->j);
	line_end(o, t);
}

static void step_open(struct out *o, const char *step, const char *what)
{
	json_begin(&o->j, NULL);
	json_begin(&o->j, "testStepArtifact");
	json_str(&o->j, "testStepId", step);
	json_begin(&o->j, what);
}

static void step_close(struct out *o, double t)
{
	run_close(o, t);
}

static void run_log(struct out *o, const char *severity, const char *msg,
		    double t)
{
	run_open(o, "log");
	json_str(&o->j, "severity", severity);
	json_str(&o->j, "message", msg);
	run_close(o, t);
}

static void step_log(struct out *o, const char *step, const char *severity,
		     const char *msg, double t)
{
	step_open(o, step, "log");
	json_str(&o->j, "severity", severity);
	json_str(&o->j, "message", msg);
	step_close(o, t);
}

static void step_error(struct out *o, const char *step, const char *symptom,
		       const char *msg, double t)
{
	step_open(o, step, "error");
	json_str(&o->j, "symptom", symptom);
	json_str(&o->j, "message", msg);
	step_close(o, t);
}

/* Opens a measurement; its value and validators follow, then measure_end. */
static void measure_begin(struct out *o, const char *step, const char *hw,
			  const char *name, const char *unit)
{
	step_open(o, step, "measurement");
	json_str(&o->j, "name", name);
	if (unit)
		json_str(&o->j, "unit", unit);
	json_str(&o->j, "hardwareInfoId", hw);
}

static void measure_end(struct out *o, double t)
{
	step_close(o, t);
}

/* One validator, the judge's: its name says what crossing it does. */
static void validator_begin(struct out *o, const char *type, const char *name)
{
	json_array(&o->j, "validators");
	json_begin(&o->j, NULL);
	json_str(&o->j, "name", name);
	json_str(&o->j, "type", type);
}

static void validator_end(struct out *o)
{
	json_end(&o->j);
	json_array_end(&o->j);
}

static void measure_count(struct out *o, const char *step, const char *hw,
			  const char *name, const char *unit,
			  unsigned long long v, const char *must_be_zero,
			  double t)
{
	measure_begin(o, step, hw, name, unit);
	json_u64(&o->j, "value", v);
	if (must_be_zero) {
		validator_begin(o, "EQUAL", must_be_zero);
		json_u64(&o->j, "value", 0);
		validator_end(o);
	}
	measure_end(o, t);
}

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

/*
 * A string of the inventory's "system" object, unescaped; "" when there
 * is none. inventory.json is kiln's own (inventory.c): "system" comes
 * first and always holds these keys, and json.c escapes every quote
 * inside a string, so "KEY" followed by ':' is a key, never a value.
 */
static void system_field(const char *inv, const char *key, char *out,
			 size_t len)
{
	size_t klen = strlen(key), n = 0;
	const char *p = inv ? strstr(inv, "\"system\"") : NULL;

	out[0] = 0;
	while (p && (p = strstr(p + 1, "\"")) != NULL) {
		const char *q;

		if (strncmp(p + 1, key, klen) || p[1 + klen] != '"')
			continue;
		q = p + 2 + klen;
		while (*q == ' ')
			q++;
		if (*q++ != ':')
			continue;
		while (*q == ' ')
			q++;
		if (*q != '"')
			return;		/* null */
		for (q++; *q && *q != '"' && n + 1 < len; q++) {
			if (*q == '\\' && q[1] == 'u') {
				char hex[5] = { 0 };

				memcpy(hex, q + 2, strnlen(q + 2, 4));
				out[n++] = (char)strtoul(hex, NULL, 16);
				q += strnlen(q + 2, 4) + 1;
			} else if (*q == '\\' && q[1]) {
				q++;
				out[n++] = *q == 'n' ? '\n' : *q;
			} else {
				out[n++] = *q;
			}
		}
		out[n] = 0;
		return;
	}
}

/* The command line as a shell would take it back. */
static void command_line(const struct record *r, char *out, size_t len)
{
	size_t n = (size_t)snprintf(out, len, "kiln");
	int i;

	for (i = 0; i < r->argc && n < len; i++) {
		const char *a = r->argv[i], *c;
		int plain = *a != 0;

		for (c = a; *c && plain; c++)
			plain = isalnum((unsigned char)*c) ||
				strchr("-_./=:,+@%", *c);
		if (plain) {
			n += (size_t)snprintf(out + n, len - n, " %s", a);
			continue;
		}
		n += (size_t)snprintf(out + n, len - n, " '");
		for (c = a; *c && n < len; c++)
			n += (size_t)snprintf(out + n, len - n, *c == '\'' ?
					      "'\\''" : "%c", *c);
		if (n < len)
			n += (size_t)snprintf(out + n, len - n, "'");
	}
}

static void parameters(struct out *o, const struct record *r)
{
	const struct settings *s = r->s;
	char id[20];

	json_begin(&o->j, "parameters");
	json_str(&o->j, "command", r->command);
	snprintf(id, sizeof(id), "%016llx", (unsigned long long)r->run_id);
	json_str(&o->j, "run_id", id);
	if (s) {
		json_str(&o->j, "mode", settings_mode_name(s->mode));
		json_u64(&o->j, "bs", s->bs);
		json_u64(&o->j, "qd", s->qd);
		json_u64(&o->j, "passes", settings_passes(s));
		json_u64(&o->j, "duration_seconds", s->duration);
		json_u64(&o->j, "offset", s->offset);
		json_u64(&o->j, "span", s->span);
		json_bool(&o->j, "quick", s->quick);
		if (s->max_writes_set)
			json_u64(&o->j, "max_writes", s->max_writes);
		json_u64(&o->j, "deadline_seconds", s->deadline);
		json_u64(&o->j, "interval_seconds", s->interval);
	}
	json_end(&o->j);
}

static void hardware(struct out *o, const char *id, const char *name,
		     const char *type, const char *serial, const char *model,
		     const char *maker, const char *location)
{
	json_begin(&o->j, NULL);
	json_str(&o->j, "hardwareInfoId", id);
	json_str(&o->j, "name", name);
	if (type)
		json_str(&o->j, "partType", type);
	if (serial && serial[0])
		json_str(&o->j, "serialNumber", serial);
	if (model && model[0])
		json_str(&o->j, "manufacturerPartNumber", model);
	if (maker && maker[0])
		json_str(&o->j, "manufacturer", maker);
	if (location && location[0])
		json_str(&o->j, "location", location);
	if (o->machine[0])
		json_str(&o->j, "computerSystem", o->machine);
	json_end(&o->j);
}

static void run_start(struct out *o, const struct record *r, double t)
{
	char vendor[128], product[128], serial[128], id[16];
	char cmd[4096], name[264];
	const char *machine = o->machine;
	struct utsname u;
	int i, have_uname = uname(&u) == 0;

	system_field(r->inventory, "machine_id", o->machine,
		     sizeof(o->machine));
	system_field(r->inventory, "vendor", vendor, sizeof(vendor));
	system_field(r->inventory, "product", product, sizeof(product));
	system_field(r->inventory, "serial", serial, sizeof(serial));
	snprintf(name, sizeof(name), "%s%s%s", vendor, vendor[0] &&
		 product[0] ? " " : "", product);

	run_open(o, "testRunStart");
	json_str(&o->j, "name", "kiln");
	json_str(&o->j, "version", version_string());
	command_line(r, cmd, sizeof(cmd));
	json_str(&o->j, "commandLine", cmd);
	parameters(o, r);
	json_begin(&o->j, "dutInfo");
	json_str(&o->j, "dutInfoId", machine[0] ? machine : have_uname &&
		 u.nodename[0] ? u.nodename : "unknown");
	json_str(&o->j, "name", machine[0] ? machine : have_uname &&
		 u.nodename[0] ? u.nodename : "unknown");
	if (name[0]) {
		json_array(&o->j, "platformInfos");
		json_begin(&o->j, NULL);
		json_str(&o->j, "info", name);
		json_end(&o->j);
		json_array_end(&o->j);
	}
	json_array(&o->j, "softwareInfos");
	json_begin(&o->j, NULL);
	json_str(&o->j, "softwareInfoId", "0");
	json_str(&o->j, "name", "kiln");
	json_str(&o->j, "version", version_string());
	json_str(&o->j, "softwareType", "APPLICATION");
	json_end(&o->j);
	if (have_uname) {
		json_begin(&o->j, NULL);
		json_str(&o->j, "softwareInfoId", "1");
		json_str(&o->j, "name", "Linux");
		json_str(&o->j, "version", u.release);
		json_str(&o->j, "revision", u.version);
		json_str(&o->j, "softwareType", "SYSTEM");
		json_end(&o->j);
	}
	json_array_end(&o->j);
	json_array(&o->j, "hardwareInfos");
	if (machine[0])
		hardware(o, "0", name[0] ? name : machine, "system", serial,
			 product, vendor, NULL);
	for (i = 0; i < r->n; i++) {
		const struct record_disk *d = &r->disks[i];
		const struct target *tg = &d->t;

		snprintf(id, sizeof(id), "%d", i + 1);
		hardware(o, id, d->label[0] ? d->label : d->path,
			 tg->kind == TARGET_FILE ? "file" :
			 tg->id.backing[0] ? "loop device" : "disk",
			 tg->id.serial, tg->id.model, NULL, d->path);
	}
	json_array_end(&o->j);
	json_begin(&o->j, "metadata");
	snprintf(cmd, sizeof(cmd), "%016llx", (unsigned long long)r->run_id);
	json_str(&o->j, "run_id", cmd);
	json_bool(&o->j, "clock_trusted", timing_clock_trusted((time_t)t));
	json_end(&o->j);
	json_end(&o->j);
	run_close(o, t);
}

static void series(struct out *o, const char *step, const char *hw,
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
	step_open(o, step, "measurementSeriesStart");
	json_str(&o->j, "measurementSeriesId", id);
	json_str(&o->j, "name", name);
	json_str(&o->j, "unit", "MB/s");
	json_str(&o->j, "hardwareInfoId", hw);
	step_close(o, t0);
	for (i = 0; i < n; i++) {
		char ts[48];

		step_open(o, step, "measurementSeriesElement");
		json_u64(&o->j, "index", i);
		json_num(&o->j, "value", pts[i].mbps);
		json_str(&o->j, "timestamp", stamp(t0 + pts[i].end, ts,
						   sizeof(ts)));
		json_str(&o->j, "measurementSeriesId", id);
		step_close(o, t0 + pts[i].end);
	}
	step_open(o, step, "measurementSeriesEnd");
	json_str(&o->j, "measurementSeriesId", id);
	json_u64(&o->j, "totalCount", n);
	step_close(o, t0 + pts[n - 1].end);
	free(pts);
}

static void phase_measurements(struct out *o, const struct record_disk *d,
			       const char *step, const char *hw, int p,
			       double t)
{
	const char *ph = engine_phase_name(p);
	double avg = judge_phase_rate(&d->snap, p), min, max;
	char name[64], why[96];

	if (!d->snap.phase_ns[p])
		return;
	if (p == PHASE_FLUSH) {
		measure_begin(o, step, hw, "flush-seconds", "s");
		json_num(&o->j, "value", (double)d->snap.phase_ns[p] / NS);
		measure_end(o, t);
		return;
	}
	snprintf(name, sizeof(name), "%s-throughput-average", ph);
	measure_begin(o, step, hw, name, "MB/s");
	json_num(&o->j, "value", avg);
	measure_end(o, t);
	if (!summary_min_max(d, p, &min, &max))
		return;
	snprintf(name, sizeof(name), "%s-throughput-slowest-second", ph);
	measure_begin(o, step, hw, name, "MB/s");
	json_num(&o->j, "value", min);
	if (d->mt->seconds[p] >= UNSTABLE_MIN_SECONDS) {
		snprintf(why, sizeof(why), "WARN: unstable %s below %.0f%% of "
			 "its average", ph, 100 * UNSTABLE_SHARE);
		validator_begin(o, "GREATER_THAN_OR_EQUAL", why);
		json_num(&o->j, "value", UNSTABLE_SHARE * avg);
		validator_end(o);
	}
	measure_end(o, t);
	snprintf(name, sizeof(name), "%s-throughput-fastest-second", ph);
	measure_begin(o, step, hw, name, "MB/s");
	json_num(&o->j, "value", max);
	measure_end(o, t);
}

static void smart_measurements(struct out *o, const struct record_disk *d,
			       const char *step, const char *hw, double t)
{
	const struct health *b = d->before.ran ? &d->before : NULL;
	const struct health *a = &d->after;
	const struct {
		const char *name;
		long long before, after;
	} c[] = {
		{ "smart-reallocated-sectors", b ? b->realloc : -1,
		  a->realloc },
		{ "smart-pending-sectors", b ? b->pending : -1, a->pending },
		{ "smart-offline-uncorrectable", b ? b->uncorrectable : -1,
		  a->uncorrectable },
		{ "smart-crc-errors", b ? b->crc_errors : -1, a->crc_errors },
		{ "smart-media-errors", b ? b->media_errors : -1,
		  a->media_errors },
		{ "smart-grown-defects", b ? b->grown_defects : -1,
		  a->grown_defects },
	};
	size_t i;

	if (!a->ran)
		return;
	if (a->passed >= 0) {
		measure_begin(o, step, hw, "smart-overall-health-passed", NULL);
		json_bool(&o->j, "value", a->passed);
		validator_begin(o, "EQUAL", "FAIL: the drive predicts its "
				"own failure");
		json_bool(&o->j, "value", 1);
		validator_end(o);
		measure_end(o, t);
	}
	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		if (c[i].after < 0)
			continue;
		measure_begin(o, step, hw, c[i].name, NULL);
		json_i64(&o->j, "value", c[i].after);
		if (c[i].before >= 0) {
			validator_begin(o, "LESS_THAN_OR_EQUAL", "FAIL: rose "
					"during the burn-in");
			json_i64(&o->j, "value", c[i].before);
			validator_end(o);
		}
		measure_end(o, t);
	}
	if (a->critical_warning >= 0) {
		measure_begin(o, step, hw, "nvme-critical-warning", NULL);
		json_i64(&o->j, "value", a->critical_warning);
		validator_begin(o, "EQUAL", "FAIL: any NVMe critical warning");
		json_u64(&o->j, "value", 0);
		validator_end(o);
		measure_end(o, t);
	}
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

/* What the disk's engine and SMART measured. */
static void disk_measurements(struct out *o, const struct record_disk *d,
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
	measure_count(o, step, hw, "bytes-written", "bytes",
		      s->c.bytes_written, NULL, t1);
	measure_count(o, step, hw, "bytes-read", "bytes", s->c.bytes_read,
		      NULL, t1);
	for (c = PHASE_WRITE; c <= PHASE_READ; c++)
		phase_measurements(o, d, step, hw, c, t1);
	measure_count(o, step, hw, "io-errors", "requests", s->c.io_errors,
		      "FAIL: any I/O error", t1);
	measure_begin(o, step, hw, "bad-units", "units");
	json_u64(&o->j, "value", s->c.bad_units);
	validator_begin(o, "EQUAL", "FAIL: any bad unit");
	json_u64(&o->j, "value", 0);
	validator_end(o);
	json_begin(&o->j, "metadata");
	for (c = UNIT_BITFLIP; c < UNIT_CLASSES; c++)
		json_u64(&o->j, unit_class_name((enum unit_class)c),
			 s->bad_by_class[c]);
	json_end(&o->j);
	measure_end(o, t1);
	measure_count(o, step, hw, "bad-units-good-on-reread", "units",
		      s->bad_transient, "FAIL: a fault in the data path", t1);
	measure_count(o, step, hw, "units-not-written", "units",
		      s->not_written, NULL, t1);
	if (s->plan.mode == ENGINE_VERIFY && !s->plan.verify_pass) {
		measure_begin(o, step, hw, "run-found-on-disk", NULL);
		json_bool(&o->j, "value", s->pass_found);
		validator_begin(o, "EQUAL", "FAIL: no unit of this run and "
				"disk");
		json_bool(&o->j, "value", 1);
		validator_end(o);
		measure_end(o, t1);
	}
	if (final)
		smart_measurements(o, d, step, hw, t1);

	for (k = 0; k < s->nerrors; k++) {
		const struct engine_error *e = &s->errors[k];

		snprintf(text, sizeof(text), "%s: %s of pass %u at byte %llu "
			 "(+%llu), %u request%s: %s", d->label,
			 engine_phase_name(e->phase), e->pass,
			 (unsigned long long)e->offset,
			 (unsigned long long)e->length, e->count,
			 e->count == 1 ? "" : "s", strerror(e->err));
		step_error(o, step, "io-error", text, t1);
	}
}

/* The judge's verdict on the disk, and how its step ended. */
static void disk_verdict(struct out *o, const struct record_disk *d,
			 const char *step, const char *hw, double t)
{
	char text[JUDGE_MAX_REASONS * 244], line[sizeof(text) + 100];
	char what[96];

	reasons_text(&d->j, text, sizeof(text));
	if (d->j.verdict == JUDGE_WARN) {
		snprintf(line, sizeof(line), "%s: WARN: %s", d->label, text);
		step_log(o, step, "WARNING", line, t);
	}
	verdict_name(&d->j, what, sizeof(what));
	step_open(o, step, "diagnosis");
	json_str(&o->j, "verdict", what);
	json_str(&o->j, "type", d->j.verdict == JUDGE_FAIL ? "FAIL" : "PASS");
	json_str(&o->j, "message", text);
	json_str(&o->j, "hardwareInfoId", hw);
	step_close(o, t);

	step_open(o, step, "testStepEnd");
	json_str(&o->j, "status", step_status(d));
	step_close(o, t);
}

static void disk_step(struct out *o, const struct record *r, int i,
		      double t0, double t1, int final)
{
	const struct record_disk *d = &r->disks[i];
	char step[16], hw[16], text[400];

	snprintf(step, sizeof(step), "%d", i);
	snprintf(hw, sizeof(hw), "%d", i + 1);
	step_open(o, step, "testStepStart");
	snprintf(text, sizeof(text), "burn-in %s", d->label[0] ? d->label :
		 d->path);
	json_str(&o->j, "name", text);
	step_close(o, t0);

	/* A disk that could not start measured nothing: it says why. */
	if (d->snap.c.state == STATE_BROKEN) {
		snprintf(text, sizeof(text), "%s: could not be tested: %s",
			 d->label, d->snap.why);
		step_error(o, step, "disk-not-tested", text, t1);
	} else {
		disk_measurements(o, d, step, hw, t0, t1, final);
	}
	if (final)
		disk_verdict(o, d, step, hw, t1);
}

/* A FAIL of the machine, not of a disk: a step of its own. */
static void machine_step(struct out *o, const struct record *r, double t0,
			 double t1)
{
	char step[16];

	snprintf(step, sizeof(step), "%d", r->n);
	step_open(o, step, "testStepStart");
	json_str(&o->j, "name", "machine");
	step_close(o, t0);
	step_open(o, step, "diagnosis");
	json_str(&o->j, "verdict", "machine-fail");
	json_str(&o->j, "type", "FAIL");
	json_str(&o->j, "message", r->failure);
	if (o->machine[0])
		json_str(&o->j, "hardwareInfoId", "0");
	step_close(o, t1);
	step_open(o, step, "testStepEnd");
	json_str(&o->j, "status", "COMPLETE");
	step_close(o, t1);
}

static void run_end(struct out *o, const struct record *r, int interrupted,
		    double t)
{
	const char *status = "COMPLETE", *result = "PASS";
	int i, broken = 0, failed = 0;
	char msg[160];

	for (i = 0; i < r->n; i++) {
		broken += r->disks[i].snap.c.state == STATE_BROKEN;
		failed += r->disks[i].j.verdict == JUDGE_FAIL;
	}
	if (interrupted) {
		snprintf(msg, sizeof(msg), "interrupted before the end; %d of "
			 "%d disk%s had failed by then", failed, r->n,
			 r->n == 1 ? "" : "s");
		run_log(o, "WARNING", msg, t);
		status = "SKIP";
		result = "NOT_APPLICABLE";
	} else if (r->n && broken == r->n && !r->failure[0]) {
		status = "ERROR";
		result = "NOT_APPLICABLE";
	} else if (failed || r->failure[0]) {
		result = "FAIL";
	} else if (!r->n) {
		run_log(o, "WARNING", "nothing was tested", t);
		status = "SKIP";
		result = "NOT_APPLICABLE";
	} else if (r->results_lost) {
		status = "ERROR";
		result = "NOT_APPLICABLE";
	}
	if (r->results_lost)
		run_log(o, "ERROR", "some results could not be written", t);
	run_open(o, "testRunEnd");
	json_str(&o->j, "status", status);
	json_str(&o->j, "result", result);
	run_close(o, t);
}

/*
 * json.c lays a document out a key a line; OCP wants one object a line.
 * Outside strings it writes spaces and newlines only as layout, so those
 * go, except the newline that ends each top-level object.
 */
static size_t one_line_each(char *s, size_t len)
{
	size_t i, w = 0;
	int depth = 0, str = 0, esc = 0;

	for (i = 0; i < len; i++) {
		char c = s[i];

		if (str) {
			if (esc)
				esc = 0;
			else if (c == '\\')
				esc = 1;
			else if (c == '"')
				str = 0;
		} else if (c == '"') {
			str = 1;
		} else if (c == '{' || c == '[') {
			depth++;
		} else if (c == '}' || c == ']') {
			depth--;
		} else if (c == ' ' || (c == '\n' && depth)) {
			continue;
		}
		s[w++] = c;
	}
	s[w] = 0;
	return w;
}

char *ocptv_jsonl(const struct record *r, size_t *len)
{
	struct out o = { .seq = 0 };
	const char *state = r->state ? r->state : "running";
	int i, final = strcmp(state, "running") != 0;
	double t0, t1;
	size_t n;
	char *doc;

	/* A run that never started still says when it was looked at. */
	t0 = r->started ? (double)r->started :
	     r->ended ? (double)r->ended : (double)time(NULL);
	t1 = r->ended ? (double)r->ended : t0 + (double)r->elapsed_ns / NS;

	json_init(&o.j);
	json_begin(&o.j, NULL);
	json_begin(&o.j, "schemaVersion");
	json_u64(&o.j, "major", 2);
	json_u64(&o.j, "minor", 0);
	json_end(&o.j);
	line_end(&o, t0);
	run_start(&o, r, t0);
	for (i = 0; i < r->nnotes; i++)
		run_log(&o, "INFO", r->notes[i], t0);
	for (i = 0; i < r->n; i++)
		disk_step(&o, r, i, t0, t1, final);
	if (final && r->failure[0])
		machine_step(&o, r, t0, t1);
	if (final)
		run_end(&o, r, !strcmp(state, "interrupted"), t1);
	doc = json_take(&o.j, &n);
	if (!doc)
		return NULL;
	n = one_line_each(doc, n);
	if (len)
		*len = n;
	return doc;
}
