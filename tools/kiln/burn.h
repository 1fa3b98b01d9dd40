/* SPDX-License-Identifier: MIT */
#ifndef KILN_BURN_H
#define KILN_BURN_H

/* kiln's exit codes: an interface lab automation relies on (README). */
enum burn_exit {
	BURN_EXIT_PASS = 0,		/* no disk failed (warnings listed) */
	BURN_EXIT_FAIL = 1,		/* a disk failed, or one is missing */
	BURN_EXIT_USAGE = 2,		/* bad usage; nothing was touched */
	BURN_EXIT_CANNOT = 3,		/* could not run */
	BURN_EXIT_INTERRUPTED = 4,	/* stopped early, no failure so far */
	BURN_HELP = -1,			/* --help: print the usage */
};

/* kiln burn [OPTIONS] TARGET...: argv[0] is "burn". */
int burn_main(int argc, char **argv);

#endif
