/* SPDX-License-Identifier: MIT */
#ifndef KILN_ENDJUDGE_H
#define KILN_ENDJUDGE_H

struct record_disk;

/*
 * How the disk was left (end=) as reasons of d->j, at JUDGE_AT_DISK: a
 * step that failed or stalled FAILs it; under profile erase only a step
 * done and read back is "erased". final: the run is over (a step never
 * made is then "not erased").
 */
void endjudge_disk(struct record_disk *d, int final);

#endif
