/* SPDX-License-Identifier: MIT */
#ifndef KILN_BURN_H
#define KILN_BURN_H

#include <stdint.h>

#include "record.h"

/*
 * The walk of a burn (burn_run): every disk of the record is opened and
 * checked before any I/O, then burnt, judged, and its results written.
 * Returns the exit code (kiln.h).
 */
int burn_run(struct record *r);

struct result_record;

/*
 * Every disk of a run record to verify, found by identity whatever its
 * name now (a disk not found is recorded as missing: a FAIL). 0, or an
 * exit code.
 */
int burn_add_recorded(struct record *r, const struct result_record *rec);

/* A new random run id: every run that writes draws one. */
uint64_t burn_new_run_id(void);

/* kiln burn [OPTIONS] TARGET...: argv[0] is "burn". */
int burn_main(int argc, char **argv);

#endif
