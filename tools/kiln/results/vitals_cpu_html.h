/* SPDX-License-Identifier: MIT */
#ifndef KILN_VITALS_CPU_HTML_H
#define KILN_VITALS_CPU_HTML_H

#include <stdio.h>

#include "judge/vitals.h"

/*
 * The CPUs in report.html's machine part: the clock under load against
 * the nominal one, the CPUs that throttled, the machine checks by CPU and
 * bank. Their temperatures are hwmon's (coretemp, k10temp), in its table.
 */
void vitals_cpu_html(FILE *f, const struct vitals_machine *m);

#endif
