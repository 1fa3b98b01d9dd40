/* SPDX-License-Identifier: MIT */
#ifndef KILN_BLAME_OUT_H
#define KILN_BLAME_OUT_H

#include <stdio.h>

#include "base/json.h"
#include "judge/record.h"

/*
 * Where the run's transfer errors were placed (judge/blame.c), told: the
 * run's "blame" in result.json (place, controller, disks, units, memory,
 * reason) and its lines in summary.txt. Nothing reads it back: a restored
 * record decides the place again from its facts.
 */
void blame_out_json(struct json *j, const struct record *r);

/* summary.txt's "blame:" line, when there were transfer errors. */
void blame_out_text(const struct record *r, FILE *f);

/* The FAIL said under controller i in summary.txt's controllers, or NULL. */
const char *blame_out_ctrl(const struct record *r, int i);

#endif
