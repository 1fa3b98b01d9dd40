/* SPDX-License-Identifier: MIT */
#ifndef KILN_KILN_H
#define KILN_KILN_H

/*
 * kiln's exit codes, the same for every command: an interface lab
 * automation relies on to tell a bad disk from a broken run (kiln(1), EXIT STATUS).
 */
enum kiln_exit {
	KILN_EXIT_PASS = 0, /* nothing failed (warnings listed) */
	KILN_EXIT_FAIL = 1, /* a disk or the machine failed, one is
					 * missing, or nothing was tested */
	KILN_EXIT_USAGE = 2, /* bad usage or setting; nothing touched */
	KILN_EXIT_CANNOT = 3, /* could not run, or results not written */
	KILN_EXIT_INTERRUPTED = 4, /* stopped early, no failure so far */
};

/* The entries of an array (not a pointer), as the kernel's kernel.h has it. */
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#endif
