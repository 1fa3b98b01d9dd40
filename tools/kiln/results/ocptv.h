/* SPDX-License-Identifier: MIT */
#ifndef KILN_OCPTV_H
#define KILN_OCPTV_H

#include <stddef.h>

#include "judge/record.h"

/*
 * ocptv.jsonl: the run in the OCP Test & Validation output format (JSON
 * lines, schema 2.0), the standard fleet pipelines ingest (DESIGN.md "The
 * lab server, and many machines"). ocptv.c and ocptv_step.c say how a run
 * maps onto it.
 */

/* The most points a throughput series has, per disk and direction. */
#define OCPTV_MAX_POINTS 2000

/* A point of a throughput series: mbps over the secs seconds up to end. */
struct ocptv_point {
	double mbps;
	double end;		/* seconds since the burn started */
	double secs;
};

/*
 * A monitor series as points: n points of step seconds each, then the
 * point still being filled (acc_n seconds whose MB/s add up to acc). When
 * there are more than max, neighbours merge in pairs, weighted by the
 * seconds each covers, until they fit. out has room for n + 1 points;
 * returns how many it holds.
 */
unsigned ocptv_points(const float *v, unsigned n, unsigned step, double acc,
		      unsigned acc_n, unsigned max, struct ocptv_point *out);

/*
 * The whole run as the record holds it now, one JSON object a line,
 * NUL-terminated, owned by the caller; NULL when out of memory. A run
 * still going is written as far as it has got: no verdicts, no ends.
 */
char *ocptv_jsonl(const struct record *r, size_t *len);

#endif
