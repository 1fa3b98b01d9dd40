/* SPDX-License-Identifier: MIT */
#ifndef KILN_REPORT_CPU_H
#define KILN_REPORT_CPU_H

#include <stdio.h>

#include "judge/vitals.h"

/*
 * The CPUs in report.html's machine part: the clock under load against
 * the nominal one, the CPUs that throttled, the machine checks by CPU and
 * bank. Their temperatures are hwmon's (coretemp, k10temp), in its table.
 */
void report_cpu_html(FILE *f, const struct vitals_machine *m);

#endif
