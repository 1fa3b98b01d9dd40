/* SPDX-License-Identifier: MIT */
#ifndef KILN_SUMMARY_GROUPS_H
#define KILN_SUMMARY_GROUPS_H

#include <stddef.h>
#include <stdint.h>

#include "judge/record.h"

/*
 * Up to this many disks, summary.txt says each one alone; a run of more
 * says like disks with like outcomes once ("loop0-59: blank, 64 MiB,
 * PASS"), each exception on its own, so that 60 disks read on one screen.
 */
#define SUMMARY_EACH 8

/* Disks said as one: their indexes in the record, in its order. */
struct summary_group {
	int n;
	int *idx;
};

/*
 * The run's disks in groups (each disk alone in a run of SUMMARY_EACH or
 * fewer, and every disk that failed, or had an I/O error or a bad unit):
 * the count, or -ENOMEM; *out is summary_groups_free()'s.
 */
int summary_groups(const struct record *r, struct summary_group **out);
void summary_groups_free(struct summary_group *g, int n);

/* The passes a disk made whole: figures_passes(), as all count them. */
uint64_t summary_passes(const struct record_disk *d);

/* The work of some disks: their passes and bytes, each's and in all. */
struct summary_work {
	int n;
	uint64_t passes[3], written[3], read[3];	/* least, most, sum */
};

void summary_work_of(const struct record *r, const int *idx, int n,
		     struct summary_work *w);

/*
 * The work in words: "103 passes, 6.4 GiB written, 6.4 GiB read" for one
 * disk, "101-107 passes, 779 GiB written, 779 GiB read in all" for many
 * (each 0), "103-107 passes, 6.4-6.6 GiB written, 6.4-6.6 GiB read each"
 * for a group's disks (each 1). Passes are each disk's, as
 * figures_passes_text() says them: a count of passes is never a sum.
 */
char *summary_work_text(const struct summary_work *w, int each, char *buf,
			size_t len);

/*
 * Names as ranges, in the given order: "loop0-59", "sda-sdd, sdf",
 * "disk.img"; a name said once.
 */
char *summary_names(const char *const *names, int n, char *buf, size_t len);

/* The labels of a group's disks, so. */
char *summary_group_names(const struct record *r,
			  const struct summary_group *g, char *buf,
			  size_t len);

#endif
