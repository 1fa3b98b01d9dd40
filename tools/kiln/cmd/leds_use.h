/* SPDX-License-Identifier: MIT */
#ifndef KILN_LEDS_USE_H
#define KILN_LEDS_USE_H

#include <stdio.h>
#include <sys/types.h>

#include "judge/record.h"
#include "lab/leds.h"

/*
 * The LEDs in a run (setting leds): at the start every disk's bay is
 * found (for the results, whatever leds says) and, with leds=fail, the
 * fault LEDs of the disks tested are cleared, so a disk that passes this
 * time goes dark; at the end the fault LED of every FAILed disk is lit
 * and left lit, and what was done is kept in the disk's record (its led,
 * said in summary.txt and result.json). sysroot is the machine's /sys, or
 * a tree of a test's (--sysfs-root): ledctl only ever runs on /sys.
 */
void leds_use_start(struct record *r, const char *sysroot, FILE *con);
void leds_use_end(struct record *r, const char *sysroot);

/*
 * The block device a disk of the record is (its target, else its path),
 * or 0 when it is none; its device node for ledctl into node.
 */
dev_t leds_use_dev(const struct record_disk *d, char *node, size_t len);

/*
 * The way to one disk's LEDs: its bay (slot, when has_slot), else its
 * device node for ledctl when sysroot is the machine's own and it is no
 * loop device.
 */
struct leds_disk leds_use_way(const char *sysroot,
			      const struct enclosure_slot *slot, int has_slot,
			      const char *node, const char *name);

#endif
