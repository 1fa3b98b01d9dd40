/* SPDX-License-Identifier: MIT */
#ifndef KILN_SAFETY_PRIVATE_H
#define KILN_SAFETY_PRIVATE_H

/*
 * What the safety files share (safety.c, safety_use.c, safety_open.c):
 * the reasons as they are said (safety_why.c), and the look at other
 * processes. Nobody else includes this file.
 */
#include "base/sysfs.h"
#include "discover/safety.h"

/* A reason for the class, after those said so far ("; " between). */
__attribute__((format(printf, 2, 3)))
void safety_why(struct safety *s, const char *fmt, ...);

/* What the class rests on that is not a reason for it (said, not kept). */
__attribute__((format(printf, 2, 3)))
void safety_note(struct safety *s, const char *fmt, ...);

/* In use, whatever the consent: said with safety_why() just before. */
static inline void safety_busy(struct safety *s)
{
	s->class = SAFETY_IN_USE;
}

/*
 * Which of the media m[0..n) another process holds open (another kiln
 * included): still open on a second look a second later, so udev's short
 * opens do not count. Each is said, "NAME is open in COMM (pid N)", with
 * prefix[i] before it (a medium that is not d itself says how it reaches
 * d's bytes), and makes s in use. A block device is found by its number
 * and a file by its device and inode, through whatever node or link a
 * process opened it by, in any mount namespace; no filesystem is waited
 * for (safety_open.c).
 */
void safety_open_elsewhere(const struct safety_env *o,
			   const struct safety_medium *m, char **prefix, int n,
			   struct safety *s);

#endif
