/* SPDX-License-Identifier: MIT */
#ifndef KILN_NOTES_H
#define KILN_NOTES_H

#include <stdio.h>

/*
 * The run's notes for people: one "note: " line each, except that notes
 * which say the same of many disks ("sdb: at most 2 whole-disk writes on
 * flash ...", once per SSD of 60) are said once, with a count and the
 * first names: "note: 60 disks: at most 2 ... (sda, sdb, ... and 54
 * more)". result.json keeps every note as it was made.
 */
void notes_print(char *const *notes, int n, FILE *f);

#endif
