/* SPDX-License-Identifier: MIT */
#ifndef KILN_PEERS_H
#define KILN_PEERS_H

#include "engine/engine.h"

/*
 * A disk judged against its peers: disks of the same model, firmware and
 * capacity behind the same controller (disks on a busier controller are
 * not slow disks; loop devices and files are grouped by what is known of
 * them). With three or more in a group, a disk whose rate, whole or in a
 * zone, or whose time to finish, is worse than slow-warn% of the group's
 * median WARNs; one whose rate alone (the solo phase) is below slow-fail%
 * of the group's median alone FAILs. Every reason names the figure, the
 * median and the threshold.
 */

/* Fewer like disks than this are not compared. */
#define PEERS_MIN 3
/* A phase that took a disk fewer seconds than this is not compared. */
#define PEERS_MIN_SECONDS 10
/*
 * Zone by zone: this many zones in a row under slow-warn of the like
 * disks' median there WARN, or one zone under this share of it.
 */
#define PEERS_ZONE_RUN 5
#define PEERS_ZONE_ONE 0.5
/* ...when that cost it this many seconds or more against the median. */
#define PEERS_ZONE_LOST_S 1.0

/* What the comparison found of one disk. */
struct peers_disk {
	int group;		/* index in struct peers' groups; -1: none */
	int phase;		/* the phase of its lowest ratio; -1: none */
	double mbps, median, ratio;	/* in that phase */
	double solo_median, solo_ratio;	/* alone; 0: not compared */
};

struct peers_group {
	char key[400];		/* kind|model|firmware|bytes|controller */
	char name[240];		/* the same for people */
	int n;			/* disks in it */
	int measured[PHASES];	/* of them measured long enough */
	double median[PHASES];	/* their median MB/s; 0: not compared */
	int solo_n;
	double solo_median;	/* MB/s alone; 0: not compared */
	int done_n;
	double busy_median;	/* seconds to finish; 0: not compared */
	char note[300];		/* why it was not compared, or "" */
};

struct record_disk;

struct peers {
	struct peers_group *groups;
	int n;
};

struct record;

/*
 * Judges every disk of r against what it depends on: a PCIe link trained
 * below its maximum WARNs and an I/O error read alone FAILs, at every
 * call; final (every disk done) adds the comparison with like disks.
 * Also sums each controller's disks' solo rates.
 */
void peers_judge(struct record *r, int final);

/*
 * Whether two disks of r are like disks: of one kind, model, firmware,
 * capacity and controller, as they are grouped here (and by the re-read,
 * reread.h, for its SSDs).
 */
struct record_disk;
int peers_like(const struct record *r, const struct record_disk *a,
	       const struct record_disk *b);

void peers_free(struct peers *p);

#endif
