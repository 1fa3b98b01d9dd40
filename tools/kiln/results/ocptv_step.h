/* SPDX-License-Identifier: MIT */
#ifndef KILN_OCPTV_STEP_H
#define KILN_OCPTV_STEP_H

#include "results/ocptv_out.h"
#include "judge/record.h"

/*
 * The test steps of ocptv.jsonl, for ocptv.c: t0 is when the run started,
 * t1 when it ended (or now, for a run still going); final when it has
 * ended and its verdicts are in.
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

/* The step of disk i of the record, testStepId "i". */
void ocptv_step_disk(struct ocptv_out *o, const struct record *r, int i,
		     double t0, double t1, int final);

/*
 * The machine: a step of its own, after the disks', with their bytes and
 * passes, and a FAIL of the machine, not of a disk (r->failure). machine
 * is the machine id, "" when unknown.
 */
void ocptv_step_machine(struct ocptv_out *o, const struct record *r,
			const char *machine, double t0, double t1);

#endif
