/* SPDX-License-Identifier: MIT */
#ifndef KILN_SAFETY_H
#define KILN_SAFETY_H

#include <stdint.h>
#include <sys/types.h>

#include "signature.h"

/*
 * The safety class of a disk or file (DESIGN.md "Safety classes"): what it
 * is, found by looking. What kiln may then do to it is plan.c's one
 * decision; this file only looks.
 */
enum safety_class {
	SAFETY_IN_USE,		/* mounted, held, swap, protected: never written */
	SAFETY_HAS_DATA,	/* a signature, or not proven blank */
	SAFETY_KILN_DATA,	/* written by kiln before */
	SAFETY_BLANK,		/* read, and nothing found */
};

struct safety {
	int class;		/* enum safety_class */
	char why[600];		/* the reasons, for people */
	int scanned;		/* the disk's ends were read */
	char partitions[256];	/* "sdb1 sdb2": the kernel sees these */
	struct signature_scan sig;
};

/* Where the kernel's files are, and what the caller protects. */
struct safety_env {
	const char *sysroot;	/* "/sys", or a fixture's */
	const char *procroot;	/* "/proc", or a fixture's */
	const dev_t *protect;	/* devices named by --protect */
	int nprotect;
};

/*
 * The safety class of one opened disk or file: in-use facts from sysfs
 * and /proc, then its contents read through fd (-1: not read, so not
 * proven blank). name is the kernel name ("" for a file).
 */
void safety_classify(const struct safety_env *env, const char *name,
		     dev_t dev, int fd, uint64_t size, struct safety *s);

const char *safety_class_name(int class);

#endif
