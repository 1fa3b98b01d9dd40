/* SPDX-License-Identifier: MIT */
#ifndef KILN_NAMES_H
#define KILN_NAMES_H

#include <stddef.h>

/*
 * Many disks' names said in few words, for lines that say the same of
 * many disks: "loop0-59", "sdb-sdd, sdf", "nvme0n1-nvme3n1", "a.img,
 * b.img". Names that differ only in one number (the first run of digits)
 * or, without digits, in their last letter, and follow one another, are
 * one range; the rest are listed, in the order of their ranges.
 *
 * Writes into buf (always terminated, cut at len) and returns the length
 * the whole text needs, as snprintf does; -1 when out of memory.
 */
int names_ranges(const char *const *names, size_t n, char *buf, size_t len);

#endif
