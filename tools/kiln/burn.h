/* SPDX-License-Identifier: MIT */
#ifndef KILN_BURN_H
#define KILN_BURN_H

#include <stddef.h>
#include <stdint.h>

#include "settings.h"

/* kiln's exit codes: an interface lab automation relies on (README). */
enum burn_exit {
	BURN_EXIT_PASS = 0,		/* no disk failed (warnings listed) */
	BURN_EXIT_FAIL = 1,		/* a disk failed, or one is missing */
	BURN_EXIT_USAGE = 2,		/* bad usage; nothing was touched */
	BURN_EXIT_CANNOT = 3,		/* could not run */
	BURN_EXIT_INTERRUPTED = 4,	/* stopped early, no failure so far */
	BURN_HELP = -1,			/* --help: print the usage */
};

/* One target and what to do with it (enum settings_mode). */
struct burn_spec {
	const char *path;
	int mode;
};

#define BURN_MAX_NOTES 24

/* A burn as kiln burn and kiln run ask for it. */
struct burn_request {
	const char *command;		/* "burn" or "run": named in results */
	int argc;
	char **argv;
	struct settings *s;
	struct burn_spec *specs;
	int n;
	uint64_t run_id;		/* 0: a new one */
	const char *out;		/* the run folder; NULL: console only */
	const char *inventory;		/* inventory.json to keep, or NULL */
	size_t inventory_len;
	int kmsg;			/* keep the kernel's log (kmsg.log) */
	const char *failure;		/* a FAIL before any disk: "2 disks missing" */
	int nnotes;
	char notes[BURN_MAX_NOTES][240];	/* said at start, kept in results */
};

/* Runs the burn: targets are checked and opened, then burnt; the exit code. */
int burn_request(struct burn_request *r);

/* A new random run id. */
uint64_t burn_new_run_id(void);

/* kiln burn [OPTIONS] TARGET...: argv[0] is "burn". */
int burn_main(int argc, char **argv);

#endif
