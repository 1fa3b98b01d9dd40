/* SPDX-License-Identifier: MIT */
#ifndef KILN_REPORT_HTML_H
#define KILN_REPORT_HTML_H

#include <stddef.h>
#include <stdio.h>

#include "judge/record.h"

/* report.html of a finished run, self-contained; NULL on no memory. */
char *report_html(const struct record *r, size_t *len);

/*
 * The order disks are shown in: FAIL, then WARN, then PASS, each in the
 * record's order. order has room for r->n.
 */
void report_order(const struct record *r, int *order);

#endif
