/* SPDX-License-Identifier: MIT */
#ifndef KILN_REPORT_MACHINE_H
#define KILN_REPORT_MACHINE_H

#include <stdio.h>

#include "judge/record.h"

/*
 * report.html's view of the machine around the disks: the inventory tree
 * (each controller with its link budget and its disks under it), every
 * drive's temperature over the run, one small plot each on one scale,
 * and the machine's own signals (its verdict, hwmon, memory, PCIe AER,
 * the kernel log, the drives behind RAID controllers). Disks go in the
 * order given (report_order(): failures first). Inline SVG, no script.
 */
void report_inventory_html(FILE *f, const struct record *r,
			   const int *order);
void report_temps_html(FILE *f, const struct record *r, const int *order);
void report_machine_html(FILE *f, const struct record *r);

#endif
