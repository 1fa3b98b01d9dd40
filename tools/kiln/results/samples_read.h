/* SPDX-License-Identifier: MIT */
#ifndef KILN_SAMPLES_READ_H
#define KILN_SAMPLES_READ_H

#include "judge/record.h"

/*
 * Each disk's throughput over the run (its monitor's series, for the
 * report's plots) read back from a run folder's samples.csv, as the
 * monitor made it: a point a sample, the seconds a disk moved nothing in
 * between its rows as zeros. Disks are matched by label; each needs its
 * d->mt. 0, or -errno when the file cannot be read (the series stay as
 * they were).
 */
int samples_read_series(const char *path, struct record *r);

#endif
