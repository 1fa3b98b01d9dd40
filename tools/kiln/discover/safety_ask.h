/* SPDX-License-Identifier: MIT */
#ifndef KILN_SAFETY_ASK_H
#define KILN_SAFETY_ASK_H

/*
 * Questions for the kernel that may hang (safety_ask.c): what a loop
 * device is over, a stat of a swap file or a mount source. Only
 * safety_look.c, which asks them, includes this file.
 */
#include <stdint.h>
#include <sys/types.h>

#include "discover/safety.h"

/*
 * A stat answers in microseconds; this is for a loaded machine, and short
 * beside the shortest deadline: a target's own classing runs under it.
 */
#define SAFETY_ASK_MS 500

/* One question for the kernel that may hang: a loop device's, a stat. */
struct safety_ask {
	const char *name;	/* a loop device's kernel name, or NULL */
	dev_t dev;		/* its number */
	const char *path;	/* its backing file; a path to stat */
	int state;		/* SAFETY_ASK_*; written by the child */
	uint64_t since;		/* when it was asked (timing_now_ns()) */
	int ok;
	struct safety_medium m;
};

enum { SAFETY_ASK_NOT, SAFETY_ASK_ASKING, SAFETY_ASK_DONE };

/*
 * Asks every question of q[0..n), a bounded time each: one that gives no
 * answer in SAFETY_ASK_MS is left (its state not SAFETY_ASK_DONE) and the
 * rest are asked after it. ok and m are set where answered.
 */
void safety_ask_all(struct safety_ask *q, int n);

#endif
