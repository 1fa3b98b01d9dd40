/* SPDX-License-Identifier: MIT */
#ifndef KILN_OCPTV_H
#define KILN_OCPTV_H

#include <stddef.h>

#include "judge/record.h"

/*
 * ocptv.jsonl: the run in the OCP Test & Validation output format (JSON
 * lines, schema 2.0), the standard fleet pipelines ingest (DESIGN.md "The
 * lab server, and many machines"). ocptv.c and ocptv_step.c say how a run
 * maps onto it.
 */

/*
 * The whole run as the record holds it now, one JSON object a line,
 * NUL-terminated, owned by the caller; NULL when out of memory. A run
 * still going is written as far as it has got: no verdicts, no ends.
 */
char *ocptv_jsonl(const struct record *r, size_t *len);

#endif
