/* SPDX-License-Identifier: MIT */
#ifndef KILN_REPORT_H
#define KILN_REPORT_H

#include <stddef.h>

#include "record.h"

/* report.html of a finished run, self-contained; NULL on no memory. */
char *report_html(const struct record *r, size_t *len);

#endif
