/* SPDX-License-Identifier: MIT */
#ifndef KILN_VITALS_HTML_H
#define KILN_VITALS_HTML_H

#include <stdio.h>

#include "judge/record.h"

/*
 * The machine's own signals in report.html, vitals_signal's parts there
 * (vitals_out.c): whether it was sampled at all; the machine section's
 * tables (the samples, hwmon, EDAC, the CPUs, AER, the kernel log, RAID);
 * and every drive's temperature over the run, one small plot each on one
 * scale, disks in the order given (report_order()). Inline SVG, no script.
 */
int vitals_html_shown(const struct record *r);
void vitals_html_machine(FILE *f, const struct record *r);
void vitals_html_temps(FILE *f, const struct record *r, const int *order);

#endif
