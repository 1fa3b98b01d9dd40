/* SPDX-License-Identifier: MIT */
#ifndef KILN_DISKTABLE_H
#define KILN_DISKTABLE_H

#include <stdint.h>
#include <stdio.h>

/*
 * The per-disk table a burn prints every table-interval seconds, as dstat
 * shows each device: each disk's MB/s written and read (apart) since
 * the last table, how much of
 * its work is done and when it ends, several disks a line where they fit
 * the width, grouped by controller, the slowest running disk marked.
 * A function of the rows it is given, so its layout is tested on made-up
 * figures (60 disks in 80 columns).
 */
struct disktable_row {
	const char *name;	/* the disk's label */
	int group;		/* its controller's index in groups; -1 */
	double mbps;		/* since the last table */
	double write, read;	/* ...each direction's, MB/s */
	double done;		/* share of its work done, 0-1; < 0: ? */
	int64_t eta;		/* seconds it has left; < 0 unknown */
	const char *state;	/* NULL: running; else "done", "stalled"... */
};

/* Columns a cell's name gets at most; longer names keep their end. */
#define DISKTABLE_NAME_MAX 12

/*
 * Writes the table of n rows: a heading (when, and what the columns
 * are), then for each controller of groups (ngroups of them, its name
 * and its disks' MB/s written and read together) its disks, then the
 * disks behind none.
 * width: the columns a line may take (80 on a console).
 */
void disktable_write(FILE *f, const char *when,
		     const struct disktable_row *rows, int n,
		     const char *const *groups, int ngroups, int width);

/* "12m05", "3h12", "1204h": seconds left in five columns; "?" unknown. */
char *disktable_fmt_eta(int64_t secs, char *buf, size_t len);

#endif
