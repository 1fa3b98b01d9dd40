/* SPDX-License-Identifier: MIT */
#ifndef KILN_OCPTV_OUT_H
#define KILN_OCPTV_OUT_H

#include <stddef.h>

#include "base/json.h"

/*
 * The lines of ocptv.jsonl as ocptv.c and ocptv_step.c write them: every
 * artifact opens, gets its fields through o->j (kiln's json writer) and
 * closes with its sequenceNumber and timestamp. Run artifacts are
 * testRunArtifact lines, step artifacts testStepArtifact lines of one
 * testStepId. Out of memory is noticed once, by ocptv_out_take().
 */

struct ocptv_out {
	struct json j;
	unsigned long long seq;	/* the next line's sequenceNumber */
	unsigned series;	/* the next measurementSeriesId, run-wide */
};

/* Starts the document with its schemaVersion line, stamped t. */
void ocptv_out_init(struct ocptv_out *o, double t);

/*
 * The document, one JSON object a line, NUL-terminated, owned by the
 * caller, its length in *len when len is not NULL; NULL when out of
 * memory.
 */
char *ocptv_out_take(struct ocptv_out *o, size_t *len);

/* 2026-11-30T11:07:57.250Z: RFC 3339, as the schemas' date-time wants. */
const char *ocptv_out_stamp(double t, char *buf, size_t len);

/* A testRunArtifact of kind what ("testRunStart", "log", ...). */
void ocptv_out_run_open(struct ocptv_out *o, const char *what);
void ocptv_out_run_close(struct ocptv_out *o, double t);

/* A testStepArtifact of kind what, in the step whose id is step. */
void ocptv_out_step_open(struct ocptv_out *o, const char *step,
			 const char *what);
void ocptv_out_step_close(struct ocptv_out *o, double t);

void ocptv_out_run_log(struct ocptv_out *o, const char *severity,
		       const char *msg, double t);
void ocptv_out_step_log(struct ocptv_out *o, const char *step,
			const char *severity, const char *msg, double t);
void ocptv_out_step_error(struct ocptv_out *o, const char *step,
			  const char *symptom, const char *msg, double t);

/*
 * Opens a measurement of the hardwareInfo hw (NULL: none; unit NULL for
 * none); its value and validators follow, then ocptv_out_measure_end().
 */
void ocptv_out_measure_begin(struct ocptv_out *o, const char *step,
			     const char *hw, const char *name,
			     const char *unit);
void ocptv_out_measure_end(struct ocptv_out *o, double t);

/*
 * One validator in an open measurement, the judge's: its name says what
 * crossing it does. Its value follows, then ocptv_out_validator_end().
 */
void ocptv_out_validator_begin(struct ocptv_out *o, const char *type,
			       const char *name);
void ocptv_out_validator_end(struct ocptv_out *o);

/*
 * A whole measurement of a count; with must_be_zero, a validator of that
 * name that wants it 0.
 */
void ocptv_out_measure_count(struct ocptv_out *o, const char *step,
			     const char *hw, const char *name,
			     const char *unit, unsigned long long v,
			     const char *must_be_zero, double t);

#endif
