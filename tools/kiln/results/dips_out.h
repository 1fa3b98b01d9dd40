/* SPDX-License-Identifier: MIT */
#ifndef KILN_DIPS_OUT_H
#define KILN_DIPS_OUT_H

#include <stdio.h>

#include "base/json.h"
#include "judge/record.h"

/*
 * The seconds most disks dipped together (judge/dips.c), told once: the
 * run's "shared_dips" in result.json and its lines in summary.txt, and
 * each disk's "stability". Nothing reads them back: a restored record
 * finds them again from its samples.
 */
void dips_out_json(struct json *j, const struct record *r);

/* summary.txt's lines: the machine's dips, then each controller's. */
void dips_out_text(const struct record *r, FILE *f);

#endif
