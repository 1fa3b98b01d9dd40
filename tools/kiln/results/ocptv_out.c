/* SPDX-License-Identifier: MIT */
/*
 * Description: the plumbing of ocptv.jsonl (see ocptv_out.h): each
 * artifact of the OCP Test & Validation output format as one JSON object
 * a line, numbered and stamped, written with kiln's json writer and then
 * folded onto one line each.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "results/ocptv_out.h"

const char *ocptv_out_stamp(double t, char *buf, size_t len)
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
static void line_end(struct ocptv_out *o, double t)
{
	char ts[48];

	json_u64(&o->j, "sequenceNumber", o->seq++);
	json_str(&o->j, "timestamp", ocptv_out_stamp(t, ts, sizeof(ts)));
	json_end(&o->j);
}

void ocptv_out_run_open(struct ocptv_out *o, const char *what)
{
	json_begin(&o->j, NULL);
	json_begin(&o->j, "testRunArtifact");
	json_begin(&o->j, what);
}

void ocptv_out_run_close(struct ocptv_out *o, double t)
{
	json_end(&o->j);
	json_end(&o->j);
	line_end(o, t);
}

void ocptv_out_step_open(struct ocptv_out *o, const char *step,
			 const char *what)
{
	json_begin(&o->j, NULL);
	json_begin(&o->j, "testStepArtifact");
	json_str(&o->j, "testStepId", step);
	json_begin(&o->j, what);
}

void ocptv_out_step_close(struct ocptv_out *o, double t)
{
	ocptv_out_run_close(o, t);
}

void ocptv_out_run_log(struct ocptv_out *o, const char *severity,
		       const char *msg, double t)
{
	ocptv_out_run_open(o, "log");
	json_str(&o->j, "severity", severity);
	json_str(&o->j, "message", msg);
	ocptv_out_run_close(o, t);
}

void ocptv_out_step_log(struct ocptv_out *o, const char *step,
			const char *severity, const char *msg, double t)
{
	ocptv_out_step_open(o, step, "log");
	json_str(&o->j, "severity", severity);
	json_str(&o->j, "message", msg);
	ocptv_out_step_close(o, t);
}

void ocptv_out_step_error(struct ocptv_out *o, const char *step,
			  const char *symptom, const char *msg, double t)
{
	ocptv_out_step_open(o, step, "error");
	json_str(&o->j, "symptom", symptom);
	json_str(&o->j, "message", msg);
	ocptv_out_step_close(o, t);
}

void ocptv_out_measure_begin(struct ocptv_out *o, const char *step,
			     const char *hw, const char *name,
			     const char *unit)
{
	ocptv_out_step_open(o, step, "measurement");
	json_str(&o->j, "name", name);
	if (unit)
		json_str(&o->j, "unit", unit);
	/* The machine's, when it has no hardwareInfo: none (not null). */
	if (hw)
		json_str(&o->j, "hardwareInfoId", hw);
}

void ocptv_out_measure_end(struct ocptv_out *o, double t)
{
	ocptv_out_step_close(o, t);
}

void ocptv_out_validator_begin(struct ocptv_out *o, const char *type,
			       const char *name)
{
	json_array(&o->j, "validators");
	json_begin(&o->j, NULL);
	json_str(&o->j, "name", name);
	json_str(&o->j, "type", type);
}

void ocptv_out_validator_end(struct ocptv_out *o)
{
	json_end(&o->j);
	json_array_end(&o->j);
}

void ocptv_out_measure_count(struct ocptv_out *o, const char *step,
			     const char *hw, const char *name,
			     const char *unit, unsigned long long v,
			     const char *must_be_zero, double t)
{
	ocptv_out_measure_begin(o, step, hw, name, unit);
	json_u64(&o->j, "value", v);
	if (must_be_zero) {
		ocptv_out_validator_begin(o, "EQUAL", must_be_zero);
		json_u64(&o->j, "value", 0);
		ocptv_out_validator_end(o);
	}
	ocptv_out_measure_end(o, t);
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

void ocptv_out_init(struct ocptv_out *o, double t)
{
	memset(o, 0, sizeof(*o));
	json_init(&o->j);
	json_begin(&o->j, NULL);
	json_begin(&o->j, "schemaVersion");
	json_u64(&o->j, "major", 2);
	json_u64(&o->j, "minor", 0);
	json_end(&o->j);
	line_end(o, t);
}

char *ocptv_out_take(struct ocptv_out *o, size_t *len)
{
	size_t n;
	char *doc = json_take(&o->j, &n);

	if (!doc)
		return NULL;
	n = one_line_each(doc, n);
	if (len)
		*len = n;
	return doc;
}
