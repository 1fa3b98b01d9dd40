/* SPDX-License-Identifier: MIT */
#ifndef KILN_IDENTITY_H
#define KILN_IDENTITY_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>

/*
 * What a disk is, whatever the kernel calls it today (DESIGN.md): its WWN,
 * else its serial, else model + size + bus path; a loop device by its
 * backing file; a partition by its disk's identity and number. Names
 * shift when a drive drops out; an identity does not.
 */
struct identity {
	char name[64];		/* kernel name: sdb, nvme0n1, loop3 */
	char identity[PATH_MAX + 64];
	char model[128];
	char serial[128];
	char wwid[256];
	char backing[256];	/* a loop device's backing file */
	int rotational;		/* 1, 0, or -1 when sysfs does not say */
	int partition;		/* partition number, 0 for a whole disk */
};

/* Fills id for the block device major:minor, from sysfs under sysroot. */
int identity_read(const char *sysroot, unsigned major, unsigned minor,
		  uint64_t size, struct identity *id);

/*
 * Fills id of a whole disk from its sysfs folder (a real path under
 * sysroot): model, serial, WWN, rotational and the identity string.
 * id->name must already be set.
 */
void identity_of_disk(const char *sysroot, const char *dir, uint64_t size,
		      struct identity *id);

/*
 * The kernel name of the whole disk or loop device under sysroot whose
 * identity is identity (names change across boots; identities do not):
 * 0, or -ENOENT when no disk has it now.
 */
int identity_find(const char *sysroot, const char *identity, char *name,
		  size_t len);

struct json;

/*
 * What a disk is, written the one way inventory.json and result.json both
 * write it: name, identity, model, serial, wwn, rotational.
 */
void identity_json(struct json *j, const struct identity *id);

#endif
