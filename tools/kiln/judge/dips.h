/* SPDX-License-Identifier: MIT */
#ifndef KILN_DIPS_H
#define KILN_DIPS_H

#include <stdint.h>

#include "judge/monitor.h"

/*
 * A second below this share of a phase's average is a dip (judge.c WARNs
 * a disk "unstable" for one of its own).
 */
#define DIPS_SHARE 0.2

/*
 * Seconds in which more than half of the disks busy then dipped together
 * are the machine's (a frozen process, the first write to sparse tmpfs
 * files, a host under load): said once, as the machine's, with its
 * seconds, and left out of each disk's stability and of the like-disk
 * comparison. Likewise a controller's, when more than half of the disks
 * behind it dipped together and the machine as a whole did not.
 */
#define DIPS_MAX 32

struct dips_second {
	uint32_t ms;		/* the sample's time since the burn's start */
	int ctrl;		/* -1: the machine's; else the controller's */
	unsigned dipped, busy;	/* disks that dipped, of those busy then */
};

struct dips {
	int n;			/* shared seconds, in time order */
	struct dips_second s[DIPS_MAX];
	unsigned more;		/* shared seconds past DIPS_MAX */
};

/* One disk as dips_find() sees it. */
struct dips_disk {
	struct monitor_target *mt;	/* its slow[] flags are set */
	double avg[PHASES];		/* its phase averages, MB/s */
	int ctrl;			/* its controller; -1: none known */
};

/*
 * Finds the seconds shared by most disks (of the machine, else of a
 * controller) and marks them in each disk's slowest seconds (shared),
 * so that monitor_own_min() leaves them out.
 */
void dips_find(struct dips_disk *d, int n, struct dips *out);

/*
 * In words: "the machine's: most disks slowed together in seconds 12
 * and 13 (60 of 60 busy disks), not counted against any disk";
 * ctrl -1 the machine's, else that controller's, named name.
 * "" when it has none.
 */
void dips_text(const struct dips *d, int ctrl, const char *name, char *buf,
	       size_t len);

struct record;

/* The dips signal's slot of the record (record_slot()): struct dips. */
#define DIPS_SLOT "dips"

/*
 * The run's rule before any disk is judged "unstable" (the dips signal's
 * judge hook, at JUDGE_AT_FIRST): finds its slot from every disk that ran,
 * those seconds being the machine's or a controller's.
 */
void dips_judge(struct record *r);

#endif
