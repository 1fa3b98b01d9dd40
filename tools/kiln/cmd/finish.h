/* SPDX-License-Identifier: MIT */
#ifndef KILN_FINISH_H
#define KILN_FINISH_H

#include <stdio.h>

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

/* kiln finish DIR...: argv[0] is "finish". */
int finish_main(int argc, char **argv);

#endif
