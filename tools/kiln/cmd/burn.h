/* SPDX-License-Identifier: MIT */
#ifndef KILN_BURN_H
#define KILN_BURN_H

#include <stdint.h>

#include "judge/record.h"

/*
 * The walk of a burn (burn_run): every disk of the record is opened and
 * checked before any I/O, then burnt, judged, and its results written.
 * Returns the exit code (kiln.h).
 */
int burn_run(struct record *r);

/* A new random run id: every run that writes draws one. */
uint64_t burn_new_run_id(void);

#endif
