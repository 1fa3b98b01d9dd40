/* SPDX-License-Identifier: MIT */
#ifndef KILN_VITALS_CPU_H
#define KILN_VITALS_CPU_H

#include <stdint.h>

#include "sense/cpu.h"
#include "sense/mce.h"

/*
 * The CPUs' signals as facts of the run (vitals.h): each CPU's thermal
 * throttle counts at the first and the last sample, the clock the CPUs
 * ran at under the load against the one they are sold at, and the
 * machine checks the kernel's log told. The clock is a fact, not judged:
 * a CPU below its nominal clock under load may be saving power as told.
 */

struct vitals_throttle {
	int cpu;
	long core_start, core_end;	/* -1 not given */
	long pkg_start, pkg_end;
};

struct vitals_cpu {
	int nthrottle;
	struct vitals_throttle *throttle;
	unsigned nominal_khz;		/* 0 not known */
	int nominal_from;		/* enum cpu_nominal */
	/* Every CPU's clock in every sample but the first (before the load). */
	unsigned khz_min, khz_max;
	uint64_t khz_sum, khz_n;
	struct mce_tally mce;
};

struct vitals_machine;

/* Adds one sample of the CPUs (the first: m->samples 0). */
void vitals_cpu_fold(struct vitals_machine *m, const struct cpu_sample *s);

void vitals_cpu_free(struct vitals_cpu *c);

/* The CPUs whose core or package count rose: how many. */
int vitals_cpu_throttled(const struct vitals_cpu *c);

/* "0-3,8": the CPUs that throttled, as ranges, into buf. */
char *vitals_cpu_throttled_list(const struct vitals_cpu *c, char *buf,
				size_t len);

/*
 * Judges the CPUs: an uncorrected machine check FAILs the machine, a
 * corrected one (or "events logged" alone) and a throttle WARN it.
 */
void vitals_cpu_judge(struct vitals_machine *m);

#endif
