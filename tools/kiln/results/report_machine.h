/* SPDX-License-Identifier: MIT */
#ifndef KILN_REPORT_MACHINE_H
#define KILN_REPORT_MACHINE_H

#include <stdio.h>

#include "judge/record.h"

/*
 * report.html's view of the machine around the disks: the inventory tree
 * (each controller with its link budget and its disks under it), and the
 * machine's section: its verdict and reasons, then each signal's part
 * (signal.h). Disks go in the order given (report_order(): failures
 * first).
 */
void report_inventory_html(FILE *f, const struct record *r,
			   const int *order);
void report_machine_html(FILE *f, const struct record *r);

#endif
