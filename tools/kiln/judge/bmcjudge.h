/* SPDX-License-Identifier: MIT */
#ifndef KILN_BMCJUDGE_H
#define KILN_BMCJUDGE_H

struct record;

/* Its slot of the record (record_slot()). */
#define BMC_SLOT "bmc"

/*
 * The BMC's event log of the run (its slot, BMC_SLOT; none, or bmc=0, or
 * no BMC: nothing judged): its verdict and why, and a reason of the
 * machine, after the machine's own (vitals_judge_machine()).
 */
void bmcjudge(struct record *r);

#endif
