/* SPDX-License-Identifier: MIT */
#ifndef KILN_LINKERR_H
#define KILN_LINKERR_H

#include <stddef.h>

#include "discover/sasphy.h"
#include "sense/smartjson.h"

/*
 * Link error counters, and where their growth during the burn places a
 * fault (DESIGN.md "Where the fault is"): the SAS phys of sysfs on each
 * disk's path (sasphy.h) and the drive's own end of its link (a SATA
 * drive's phy events, a SAS drive's port log: smartjson.h), read with
 * every sample of the machine's signals (sampler.c), before, during and
 * after the burn. Facts only in the record; the judging is a function of
 * them, so a run restored from its result.json is judged the same.
 *
 * Growth on one disk's path is that disk's cable or slot: it WARNs, and
 * FAILs at link-errors-fail. Growth on every phy in use of an HBA or an
 * expander with two or more in use, on a phy that leads to an expander
 * or that two or more disks of the run share, or on the drive's
 * own end of every disk (two or more) of one controller, is the
 * controller's or the backplane's: said on its controller's line, and
 * its disks WARN for it, never FAIL.
 */

#define LINKERR_NONE (-1LL)
#define LINKERR_DISK_MAX 96	/* counters a disk: a cascade of wide ports */

struct linkerr_count {
	char src[32];		/* a phy ("phy-7:0:5"), or "drive ..." */
	char name[40];		/* "invalid_dword_count", "icrc_errors" */
	/*
	 * At the first and the last reading; growth is what it counted in
	 * between, a drop (the counter was reset) counting from 0 again.
	 */
	long long before, after, growth;	/* LINKERR_NONE: never read */
	int err;		/* errno of the last read that failed, 0 */
};

struct linkerr_disk {
	int n;
	struct linkerr_count c[LINKERR_DISK_MAX];
};

/* A SAS phy of the machine, as the record keeps it. */
struct linkerr_phy {
	char name[32], owner[32], ctrl[24];
	int in_use;
	int to_expander;	/* its port leads to an expander */
	struct linkerr_count c[SASPHY_COUNTERS];
};

struct linkerr {
	int nphys;
	struct linkerr_phy *phys;
};

struct record;
struct record_disk;

/*
 * The link errors' slots (record_slot(), record_disk_slot()), both named
 * LINKERR_SLOT: the run's holds the machine's SAS phys (struct linkerr),
 * made by linkerr_start() or read back from result.json; a disk's holds
 * its counters (struct linkerr_disk), made when it has one. None: nothing
 * counted.
 */
#define LINKERR_SLOT "linkerr"

/* The run's phys to read: its slot, or none (no phys). */
const struct linkerr *linkerr_of(const struct record *r);

/* The run's slot, made (no phys) if need be; NULL when out of memory. */
struct linkerr *linkerr_make(struct record *r);

/* d's counters to read: its slot, or none (no counters). */
const struct linkerr_disk *linkerr_disk_of(const struct record_disk *d);

/*
 * d's slot, made (no counters) if need be; NULL when out of memory or
 * every slot of the disk is taken.
 */
struct linkerr_disk *linkerr_disk_make(struct record_disk *d);

/* One more reading of a counter: v, or a read that failed with err. */
void linkerr_count_fold(struct linkerr_count *c, long long v, int err);

/* A disk's counter from src of name, added if new; NULL when full. */
struct linkerr_count *linkerr_disk_count(struct linkerr_disk *d,
					 const char *src, const char *name);

/* The record's phy of that name, or NULL. */
const struct linkerr_phy *linkerr_phy_of(const struct linkerr *m,
					 const char *name);

/*
 * Before the first sample: the machine's SAS phys from set, and for each
 * disk of the record that is a drive, the phys on its path (from its
 * device path under sysroot). Phys whose counters will not read, and a
 * disk whose counters cannot be kept, are said in the record's notes. 0,
 * or -ENOMEM when the machine's phys cannot be kept.
 */
int linkerr_start(struct record *r, const struct sasphy_set *set,
		  const char *sysroot);

/* A reading of the machine's phys folded into the record. */
void linkerr_fold_phys(struct record *r, const struct sasphy_set *set);

/*
 * ...and of one disk's own counters, as smartctl gave them: 0, or
 * -ENOMEM when its slot cannot be made (none kept).
 */
int linkerr_fold_drive(struct record_disk *d, const struct smartjson *sj);

/* Judges one disk on its counters and the machine's: reasons to d->j. */
void linkerr_judge_disk(const struct record *r, struct record_disk *d);

/*
 * What a controller's line says of growth that is its own or its
 * backplane's (the PCI address pci); "" when nothing.
 */
char *linkerr_ctrl_text(const struct record *r, const char *pci, char *buf,
			size_t len);

/* What m holds (its phys), freed; m itself is the slot's. */
void linkerr_free(struct linkerr *m);

#endif
