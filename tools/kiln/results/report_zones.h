/* SPDX-License-Identifier: MIT */
#ifndef KILN_REPORT_ZONES_H
#define KILN_REPORT_ZONES_H

#include <stdio.h>

#include "judge/record.h"

/*
 * report.html's small multiples: every disk's throughput against position
 * (its zones) and its request-time histograms, one small plot each, so 60
 * disks fit on one screen, in the order given (report_order()). Inline
 * SVG, no script.
 */
void report_zones_html(FILE *f, const struct record *r, const int *order);

/*
 * The highest rate the table gives a disk (a phase's max, or its average
 * where it has no max): a plot of its rates tops at this or above, so
 * the plot and the table agree.
 */
double report_zones_top(const struct record_disk *d);

#endif
