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
