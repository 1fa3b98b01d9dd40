/* SPDX-License-Identifier: MIT */
#ifndef KILN_DISCOVER_H
#define KILN_DISCOVER_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>

/*
 * What sysfs says about one block device. A disk is known by identity, not
 * by name (DESIGN.md): its WWN, else its serial, else model + size + bus
 * path; a loop device by its backing file; a partition by its disk's
 * identity and number.
 */
struct discover_id {
	char name[64];		/* kernel name: sdb, nvme0n1, loop3 */
	char identity[PATH_MAX + 64];
	char model[128];
	char serial[128];
	char wwid[256];
	char backing[256];	/* a loop device's backing file */
	int rotational;		/* 1, 0, or -1 when sysfs does not say */
	int partition;		/* partition number, 0 for a whole disk */
};

/*
 * Reads one attribute (dir/name) into buf, without trailing whitespace;
 * returns its length or -errno. Binary-safe up to the first NUL.
 */
int discover_attr(const char *dir, const char *name, char *buf, size_t len);

/* Fills id for the block device major:minor, from sysfs under sysroot. */
int discover_identity(const char *sysroot, unsigned major, unsigned minor,
		      uint64_t size, struct discover_id *id);

#endif
