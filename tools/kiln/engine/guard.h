/* SPDX-License-Identifier: MIT */
#ifndef KILN_GUARD_H
#define KILN_GUARD_H

/*
 * The guarded write's check (the engine's own, worker_phase.c): what a disk
 * written because of its class holds just before kiln writes it. A unit
 * may be overwritten only when it holds the blank byte, or a kiln unit of
 * this very disk at its own offset from any run (torn ones too: each
 * 512-byte piece blank or that unit's, as a write cut short leaves it).
 * Anything else is somebody's data, and the disk writes nothing more.
 */
#include <stddef.h>
#include <stdint.h>

#include "base/unit.h"

#define GUARD_RUNS 4

struct guard {
	int byte;		/* the blank byte; -1: 0x00 or 0xff */
	uint64_t ident;		/* the disk's identity hash */
	const struct unit_ctx *run;	/* this run's unit format */
	/*
	 * The last units of this disk seen, one a run, newest first: a torn
	 * unit's likely writers (a run cut short over an earlier one tears
	 * units between the two).
	 */
	struct unit_key last[GUARD_RUNS];
	/* Another run's unit format, for its torn units; made when needed. */
	struct unit_ctx *other;
	int made;		/* other holds a run's format */
	unsigned char *scratch;	/* a unit, for what a writer wrote */
	unsigned char *part;	/* a unit, for a part of one that was read */
};

/* 0, or -ENOMEM. byte: the class's blank byte, or -1. */
int guard_init(struct guard *g, const struct unit_ctx *run, uint64_t ident,
	       int byte);
void guard_free(struct guard *g);

/*
 * Looks at len bytes (512-byte pieces) read from device offset off: the
 * offset in buf of the first unit (or part of one, at either end) that
 * may not be overwritten, or len when all may.
 */
size_t guard_check(struct guard *g, const unsigned char *buf, size_t len,
		   uint64_t off);

#endif
