/* SPDX-License-Identifier: MIT */
#ifndef KILN_BURNCMD_H
#define KILN_BURNCMD_H

#include "judge/record.h"
#include "settings/options.h"

struct result_record;

/*
 * Every disk of a run record to verify, found by identity whatever its
 * name now (a disk not found is recorded as missing: a FAIL). 0, or an
 * exit code.
 */
int burncmd_add_recorded(struct record *r, const struct result_record *rec);

/* kiln burn [OPTIONS] TARGET...: its usage, and it once main has started it. */
extern const struct options_cmd burncmd_cmd;
int burncmd_command(struct options_args *a);

#endif
