/* SPDX-License-Identifier: MIT */
#ifndef KILN_STRESS_OUT_H
#define KILN_STRESS_OUT_H

#include <stdio.h>

#include "base/json.h"
#include "base/jsonread.h"
#include "judge/record.h"

/*
 * The memory and CPU stress told (sense/stress.h): result.json's
 * top-level "stress" object, read back the same way for kiln finish and
 * kiln report, its lines in summary.txt (and so on the console at the
 * end) and its part of report.html's machine section. Nothing when the
 * stress was off.
 */

void stress_out_json(struct json *j, const struct record *r);

/* The stress object of doc into r (restore.c): 0, nothing when absent. */
int stress_out_read(const struct jsonread_node *doc, struct record *r);

/* "stress: stressapptest (memory,cpu) 120 s, 300 MiB, ...: PASS". */
void stress_out_summary(const struct record *r, FILE *f);

void stress_out_html(FILE *f, const struct record *r);

#endif
