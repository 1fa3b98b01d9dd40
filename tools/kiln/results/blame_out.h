/* SPDX-License-Identifier: MIT */
#ifndef KILN_BLAME_OUT_H
#define KILN_BLAME_OUT_H

#include <stdio.h>

#include "judge/record.h"

/*
 * Where the run's transfer errors were placed (judge/blame.c), told: the
 * run's "blame" in result.json and its line in summary.txt are
 * blame_signal's (blame_out.c). What peers_out.c says under a controller
 * in summary.txt's list of them: the FAIL placed there, or NULL.
 */
const char *blame_out_ctrl(const struct record *r, int i);

#endif
