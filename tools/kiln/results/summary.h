/* SPDX-License-Identifier: MIT */
#ifndef KILN_SUMMARY_H
#define KILN_SUMMARY_H

#include <stdio.h>

#include "judge/record.h"

/* The per-disk table; final adds the verdict column. */
void summary_table(const struct record *r, FILE *f, int final);

/* summary.txt: what a person reads first. */
void summary_text(const struct record *r, FILE *f);

/* summary_text() as a string of *len bytes (to free), or NULL. */
char *summary_string(const struct record *r, size_t *len);

/*
 * The run's line: its id, when it started and ended, how long it took,
 * and "clock not set" when the machine's clock was not (its times are
 * then no dates), for summary.txt and report.html alike.
 */
char *summary_run_line(const struct record *r, char *buf, size_t len);

/* The run's duration, hh:mm:ss: the one said anywhere of a run. */
char *summary_duration(const struct record *r, char *buf, size_t len);

/* "kiln VERSION, Linux RELEASE, crc32c IMPL": what ran the run. */
char *summary_kiln_line(const struct record *r, char *buf, size_t len);

/* "work: 6300 passes, 390 GiB written, 390 GiB read (60 disks)". */
char *summary_work_line(const struct record *r, char *buf, size_t len);


/* The verdict in letters readable across a room. */
void summary_banner(const char *word, FILE *f);

#endif
