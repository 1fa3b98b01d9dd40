/* SPDX-License-Identifier: MIT */
#ifndef KILN_STRESSJUDGE_H
#define KILN_STRESSJUDGE_H

struct record;

/* Its slot of the record (record_slot()). */
#define STRESS_SLOT "stress"

/*
 * The memory and CPU stress of the run (its slot, STRESS_SLOT; none: not
 * asked for, nothing judged): its verdict and why, and a reason of the
 * machine, after the machine's own (vitals_judge_machine()).
 */
void stressjudge(struct record *r);

#endif
