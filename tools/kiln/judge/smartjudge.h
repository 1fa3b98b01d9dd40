/* SPDX-License-Identifier: MIT */
#ifndef KILN_SMARTJUDGE_H
#define KILN_SMARTJUDGE_H

#include "sense/health.h"

struct record_disk;

/*
 * SMART's slot of a disk (record_disk_slot()): smartctl's word on the
 * drive before and after the run, its counters and its text kept for a
 * person. Made for every disk when SMART is read (a disk not asked, a
 * file or a loop device: counters not said, have 0) or read back from
 * result.json; none: SMART not read yet (all zero, as a disk's first
 * state was).
 */
#define SMART_SLOT "smart"

struct smart_disk {
	struct health before, after;
};

/*
 * d's slot, made (all zero) if need be; NULL when out of memory or every
 * slot of the disk is taken.
 */
struct smart_disk *smart_disk_make(struct record_disk *d);

/* d's slot to read; none: all zero (neither read). */
const struct smart_disk *smart_disk_of(const struct record_disk *d);

#endif
