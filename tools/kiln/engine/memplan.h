/* SPDX-License-Identifier: MIT */
#ifndef KILN_MEMPLAN_H
#define KILN_MEMPLAN_H

#include <stddef.h>
#include <stdint.h>

#include "engine/engine.h"

/*
 * Memory planned before any write: what the workers will pin (their
 * buffers) is held against what the machine and kiln's cgroup leave, less
 * what is kept back for the ramdisk, the results and the machine. What does
 * not fit runs at a smaller qd, the same for every target (like disks are
 * compared at one qd); what cannot fit at qd 1 does not run. The arithmetic
 * is a pure function of figures; the figures are read under roots a test
 * points at fixtures.
 */

/* Kept back: this much, or a tenth of what is available, whichever is more. */
#define MEMPLAN_KEEP_MIN (256ull << 20)

/*
 * The buffers a worker allocates for a region: one a request that can be
 * in flight at once (qd, or fewer when the region has fewer requests), each
 * no larger than the largest extent needs, rounded up to align.
 */
void memplan_buffers(const struct engine_plan *p, uint64_t bs, unsigned qd,
		     size_t align, unsigned *nbuf, uint64_t *buflen);

/* What one target's worker pins at qd: its buffers and its scratch unit. */
struct memplan_target {
	const struct engine_plan *plan;
	size_t align;			/* the target's I/O alignment */
};

uint64_t memplan_pins(const struct memplan_target *t, uint64_t bs,
		      unsigned qd);

/* The figures, and what the plan made of them. */
struct memplan {
	uint64_t avail;		/* MemAvailable; UINT64_MAX: unknown */
	uint64_t cg_room;	/* tightest cgroup limit less use; UINT64_MAX */
	uint64_t usable;	/* the smaller of the two */
	uint64_t keep;		/* kept back from usable */
	uint64_t budget;	/* usable - keep: what kiln may pin */
	unsigned qd_asked;
	unsigned qd;		/* the qd that fits; 0: not even qd 1 */
	uint64_t pins_asked;	/* what qd_asked would pin */
	uint64_t pins;		/* what qd pins (qd 1's when nothing fits) */
};

/*
 * The largest qd, at most qd_asked, at which n targets' pins fit the
 * budget left by avail and cg_room. 0, or -ENOMEM when not even qd 1 fits
 * (p->qd is then 0 and p->pins qd 1's).
 */
int memplan_choose(uint64_t avail, uint64_t cg_room,
		   const struct memplan_target *t, int n, uint64_t bs,
		   unsigned qd_asked, struct memplan *p);

/* What the plan leaves for later use (a memory stress): budget - pins. */
uint64_t memplan_left(const struct memplan *p);

/*
 * The machine's figures: MemAvailable from procroot/meminfo, and the
 * tightest limit less use of the cgroups of procroot/self/cgroup, from
 * the cgroup v2 files (memory.max, memory.current) or v1's
 * (memory.limit_in_bytes, memory.usage_in_bytes) under
 * sysroot/fs/cgroup, each level up to the root; the inactive file cache
 * of memory.stat counts as free, as the kernel reclaims it first.
 * UINT64_MAX for what is unknown or unlimited.
 */
void memplan_read(const char *procroot, const char *sysroot,
		  uint64_t *avail, uint64_t *cg_room);

#endif
