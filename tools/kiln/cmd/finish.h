/* SPDX-License-Identifier: MIT */
#ifndef KILN_FINISH_H
#define KILN_FINISH_H

#include <stdio.h>

#include "settings/options.h"

/*
 * Finishes the run folder dir from its newest good checkpoint, when it is
 * not finished: 0 (said on con), or -errno; *code is the run's exit code
 * (kiln.h), 0 for a folder already finished, 3 when it cannot be.
 */
int finish_folder(const char *dir, FILE *con, int *code);

/*
 * Finishes every unfinished run folder of a machine: how many were. Each
 * one finished is handed to done (when not NULL), to go to a lab server.
 */
int finish_machine(const char *machine_dir, FILE *con,
		   void (*done)(const char *dir, void *arg), void *arg);

/* kiln finish DIR...: its usage, and it once main has started it. */
extern const struct options_cmd finish_cmd;
int finish_command(struct options_args *a);

#endif
