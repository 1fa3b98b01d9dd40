/* SPDX-License-Identifier: MIT */
#ifndef KILN_BLAME_H
#define KILN_BLAME_H

#include <stddef.h>

#include "engine/engine.h"

/*
 * Where a run's transfer errors belong. A bad unit that reads back good on
 * a second read was never wrong on the medium: it went wrong on its way
 * (drive electronics, cable, controller, backplane, memory). Such units on
 * one disk alone are that disk's path; on two or more disks of one
 * controller, that controller's; on disks of several controllers (disks
 * with no known controller, loop devices and files, are one group: they
 * share only the host), or beside any memory error, the machine's. Units
 * bad twice are the disk's media, whatever the others did.
 */
enum blame_place {
	BLAME_NONE,		/* no transfer errors */
	BLAME_DISK,
	BLAME_CONTROLLER,
	BLAME_MACHINE,
	BLAME_PLACES,
};

struct blame {
	int place;		/* enum blame_place */
	int ctrl;		/* BLAME_CONTROLLER: index in links.ctrls */
	int ndisks;		/* disks with transfer errors */
	int ngroups;		/* their controllers, "none" counted as one */
	int nocontroller;	/* some of them have no known controller */
	unsigned units;		/* their transfer errors, all disks */
	int memory;		/* blame_memory_suspected() said so */
	char memory_why[160];	/* ...with the counts */
	char reason[240];	/* the FAIL of the place, "" none */
};

struct record;
struct record_disk;

/* "none", "disk", "controller", "machine"; "?" for anything else. */
const char *blame_place_name(int place);

/*
 * A disk's bad units its re-read confirmed (bad again, changed, or the
 * re-read failed): its media's. Units past the re-read's cap go with the
 * ones that read back good when there are any (the same fault), else they
 * count as confirmed, since nothing cleared them.
 */
static inline unsigned blame_confirmed(const struct engine_snap *s)
{
	unsigned all = s->c.bad_units, good = s->bad_transient;
	unsigned unchecked = s->bad_unchecked, checked;

	/* A record edited by hand may say more than it counted. */
	if (good > all)
		good = all;
	if (unchecked > all - good)
		unchecked = all - good;
	checked = all - good - unchecked;
	return good ? checked : checked + unchecked;
}

/* Its bad units that are transfer errors: the others. */
static inline unsigned blame_transfer(const struct engine_snap *s)
{
	return s->c.bad_units - blame_confirmed(s);
}

/*
 * Whether the run saw a memory error: an EDAC count (corrected or not)
 * that rose during the run. The one place to add other signs (machine
 * checks, a memory stress's miscompare): why gets the counts in words.
 */
int blame_memory_suspected(const struct record *r, char *why, size_t len);

/* The blame signal's slot of the record (record_slot()): struct blame. */
#define BLAME_SLOT "blame"

/* Where the record's transfer errors belong: a function of its facts. */
void blame_decide(const struct record *r, struct blame *b);

/*
 * A disk's reason for its share of the transfer errors, and the verdict
 * it carries (FAIL on the disk's own path, else WARN); -1 when it has none.
 */
int blame_disk_reason(const struct record *r, const struct blame *b,
		      const struct record_disk *d, char *buf, size_t len);

/*
 * Decides the record's blame (its slot) and says it: each disk's reason, and a FAIL of the
 * machine (naming the controller, or the memory) when the place is one.
 * The blame signal's rule, reached through its judge hook after every
 * disk and the machine are judged (JUDGE_AT_LAST, record.h).
 */
void blame_judge(struct record *r);

#endif
