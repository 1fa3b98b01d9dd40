/* SPDX-License-Identifier: MIT */
#ifndef KILN_SAFETY_H
#define KILN_SAFETY_H

#include <stdint.h>
#include <sys/types.h>

#include "discover/signature.h"

/*
 * The safety class of a disk or file (DESIGN.md "Safety classes"): what it
 * is, found by looking. What kiln may then do to it is plan.c's one
 * decision; this file only looks. Until a disk is proven blank or kiln's,
 * it holds data.
 */
enum safety_class {
	SAFETY_IN_USE, /* mounted, held, swap, open elsewhere, ... */
	SAFETY_HAS_DATA, /* a signature, or not proven blank */
	SAFETY_KILN_DATA, /* only kiln units of this very disk, or blank */
	SAFETY_BLANK, /* proven by reading: one byte value */
};

/* How much is read to prove a disk blank (DESIGN.md). */
#define SAFETY_ENDS (16ull << 20)	/* the first and the last */
#define SAFETY_SAMPLES 64		/* evenly spaced samples of... */
#define SAFETY_SAMPLE (64u << 10)	/* ...this size */

/*
 * Something that holds bytes: a block device, by its number, or a file,
 * by its filesystem and inode (st_dev, st_ino), whatever path reaches it.
 */
struct safety_medium {
	int file;		/* a file: dev and ino; else a block device */
	dev_t dev;
	ino_t ino;
	char name[128];		/* as it is said: "loop5", a path, "it" */
};

/* The most media a disk's bytes are held by that are kept (holds[]). */
#define SAFETY_HOLDS 24

struct safety {
	int class;		/* enum safety_class */
	char why[800];		/* the reasons, for people */
	int scanned;		/* its contents were read */
	int blank_byte;		/* 0x00 or 0xff where proven; -1 */
	uint64_t kiln_units;	/* units of this disk seen in the reads */
	char partitions[256];	/* "sdb1 sdb2": the kernel sees these */
	int protected;		/* it or a partition is --protect's */
	/* what the class rests on, said: "loop7 does not answer ..." */
	char notes[600];
	struct signature_scan sig;
	/*
	 * What holds its bytes: itself and its partitions, and what it is
	 * over down every chain of loop devices (the file, the device);
	 * not a partition's disk, which holds other bytes too. Two runs on
	 * one of these would write the same bytes (target_claim()).
	 */
	struct safety_medium holds[SAFETY_HOLDS];
	int nholds;
};

struct safety_look;

/* Where the kernel's files are, and what the caller protects. */
struct safety_env {
	const char *sysroot;	/* "/sys", or a fixture's */
	const char *procroot;	/* "/proc", or a fixture's */
	const dev_t *protect;	/* devices named by --protect */
	int nprotect;
	/* the machine looked at once (safety_look()); NULL: each call looks */
	const struct safety_look *look;
};

/*
 * The machine looked at once for many disks classed at once (discover,
 * probe): its block devices, what each loop device is over (asked, a
 * bounded time each), its mounts and swap areas. Each call of
 * safety_in_use() would ask every loop device again: with many disks and
 * many loop devices, that is each of them asked by each. Put in
 * env->look before the children that class are started; NULL when it
 * could not be made (then each call looks for itself).
 */
struct safety_look *safety_look(const struct safety_env *env);
void safety_look_free(struct safety_look *look);

/* What is being classed. */
struct safety_subject {
	/* a block device's kernel name; "" for a file */
	const char *name;
	dev_t rdev;		/* a block device's number */
	const char *path;	/* a file's real path; NULL for a device */
	int fd;			/* open to read it; -1: not read */
	uint64_t size;
	uint64_t ident;		/* its identity hash: its own kiln units */
};

/*
 * The safety class: in-use facts from sysfs and /proc (mounted, held,
 * swap, protected, backing a loop device, open in another process), then
 * its contents read through fd: the first and last SAFETY_ENDS and
 * SAFETY_SAMPLES evenly spaced samples, every signature kiln knows. The
 * reads can block on a dead disk: callers bound them (see deadline.h).
 */
void safety_classify(const struct safety_env *env,
		     const struct safety_subject *d, struct safety *s);

/*
 * Only the in-use facts, without reading the disk (a device the kernel
 * would not let kiln open exclusively): why it is busy, in s->why.
 */
void safety_in_use(const struct safety_env *env,
		   const struct safety_subject *d, struct safety *s);

const char *safety_class_name(int class);

struct json;

/* A class and its reasons, as inventory.json and result.json write them. */
void safety_json(struct json *j, const struct safety *s);

#endif
