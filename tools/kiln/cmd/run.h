/* SPDX-License-Identifier: MIT */
#ifndef KILN_RUN_H
#define KILN_RUN_H

#include <stddef.h>
#include <stdio.h>

#include "discover/machine.h"
#include "settings/options.h"

/*
 * kiln run [--results ROOT] [--protect DEV]... [--config FILE]
 *          [--cmdline FILE] [--KEY=VALUE]...: its usage, and it once
 * main has read its settings; it says their problems itself.
 */
extern const struct options_cmd run_cmd;
int run_command(struct options_args *a);

/*
 * Finishes each run this machine left cut off under ROOT/kiln-results/
 * (checkpoints and no finished result.json), under its id or the earlier
 * form of it, as finish_machine() does; done is told of each. How many.
 */
int run_finish_cut_off(const char *results, const struct machine_system *sys,
		       FILE *con, void (*done)(const char *dir, void *arg),
		       void *arg);

/*
 * The pending power-cut run folder this machine left under
 * ROOT/kiln-results/, under its id or the earlier form of it (the newest
 * when there are several): 1 and its path in out, or 0.
 */
int run_find_pending(const char *results, const struct machine_system *sys,
		     char *out, size_t len);

#endif
