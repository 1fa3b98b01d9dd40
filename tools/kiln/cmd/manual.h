/* SPDX-License-Identifier: MIT */
#ifndef KILN_CMD_MANUAL_H
#define KILN_CMD_MANUAL_H

#include <stdio.h>

#include "settings/options.h"

/*
 * kiln(1)'s parts made from the commands' own usage (kiln --man
 * synopsis, kiln --man commands): the one source of kiln CMD --help and
 * the man page is each command's struct options_cmd, beside its code,
 * and the key table. tests/host/manual.t holds docs/kiln.1 to them.
 */

/* SYNOPSIS: a line per command, its name and arguments. */
void manual_synopsis(FILE *f, const struct options_cmd *const *cmds, int n);

/*
 * COMMANDS: a subsection per command, its usage text, the options of the
 * command line alone in full, and the settings it takes by name (each in
 * kiln.cfg(5)) with the defaults that are its own.
 */
void manual_commands(FILE *f, const struct options_cmd *const *cmds, int n);

#endif
