/* SPDX-License-Identifier: MIT */
#ifndef KILN_TARGET_H
#define KILN_TARGET_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "discover/hidden.h"
#include "discover/identity.h"
#include "discover/safety.h"
#include "base/unit.h"

enum target_kind { TARGET_BLOCK, TARGET_FILE };

/*
 * One target, opened once and known by identity from then on: a block
 * device (O_EXCL, so never one that is mounted or held) or a regular file.
 */
struct target {
	const char *path;	/* as the user gave it */
	const struct safety_env *env;	/* where sysfs and /proc are */
	enum target_kind kind;
	int fd;
	int writable;		/* opened for writing */
	int read_only;		/* the device or file refuses writes */
	int direct;		/* O_DIRECT in effect */
	int created;		/* kiln created this file just now */
	dev_t rdev;		/* block device */
	dev_t dev;		/* file: its filesystem and inode */
	ino_t ino;
	uint64_t size;
	unsigned lbs;		/* logical block size: I/O alignment */
	unsigned pbs;
	struct identity id;
	uint64_t ident;		/* hash of id.identity */
	struct safety safety;	/* class, signatures, in-use facts */
	struct hidden hidden;	/* capacity the OS cannot see (hidden.c) */
	int claims[SAFETY_HOLDS];	/* target_claim()'s, -1 when none */
	int nclaims;
};

/*
 * Opens path for reading, or for writing too (a read-only device or file is
 * then opened for reading, with read_only set); env says where sysfs and
 * /proc are (kept: the caller keeps it alive). A file is locked against
 * another kiln. A missing path is created as
 * a file of create bytes when create is not 0. Returns 0 or -errno with a
 * one-line reason in err: -ENOENT missing, -EBUSY in use, -ENOTBLK neither
 * a block device nor a regular file.
 */
int target_open(struct target *t, const struct safety_env *env,
		const char *path, int writable, uint64_t create, char *err,
		size_t errlen);

/*
 * 1 when a and b are the same medium: one device or file, one identity
 * (two paths to a disk), or a loop device and its own backing file.
 */
int target_same(const struct target *a, const struct target *b);

/*
 * 1 when an open failed (errno, or -errno) on what was named, not on the
 * machine: a missing or wrong path, a busy or forbidden one; exit 2.
 */
int target_bad_name(int err);

/*
 * Claims what holds the target's bytes (safety.holds: the file's device
 * and inode, the block device's number, down every chain of loop
 * devices) against every other kiln on this machine, for as long as t is
 * open: one thing is never written by two runs, however each reached
 * it. 0, -EBUSY with the other kiln named in err, or -errno when a claim
 * could not be made (out of descriptors), said in err: no claim, no
 * write. The names are abstract sockets, which are per network
 * namespace: a kiln in another one (a container) is found by the look
 * for other processes holding the bytes open (safety.h) instead.
 */
int target_claim(struct target *t, char *err, size_t errlen);

/* 1 when path (not yet opened) names the device or file t holds. */
int target_names_same(const char *path, const struct target *t);

/*
 * Whether the opened device is still there and still the same disk:
 * 0, -ENODEV when it has gone from sysfs, -ESTALE when its identity changed.
 */
int target_check(const struct target *t);

/*
 * Whether path still names the device we hold (names shift): 1 or 0, or
 * -ETIMEDOUT when its stat gave no answer in timeout_ns (a file on a
 * filesystem that stopped answering; the stat is left behind).
 */
int target_path_current(const struct target *t, uint64_t timeout_ns);

void target_close(struct target *t);

#endif
