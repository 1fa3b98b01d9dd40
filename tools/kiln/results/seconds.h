/* SPDX-License-Identifier: MIT */
#ifndef KILN_SECONDS_H
#define KILN_SECONDS_H

#include "judge/record.h"

/*
 * A phase's slowest and fastest whole second (MB/s), bracketing its
 * average: result.json's slowest_second_mbps and fastest_second_mbps and
 * the OCP output's measurements so named (the table's min and max are
 * the slowest and fastest pass: figures_pass_range()); 0 when fewer than
 * SECONDS_MIN whole seconds of it were measured: of one or two,
 * the slowest and the fastest are the same second or a partial one's
 * neighbours, not a range.
 */
#define SECONDS_MIN 3

int seconds_range(const struct record_disk *d, int phase, double *min,
		  double *max);

#endif
