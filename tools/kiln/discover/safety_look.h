/* SPDX-License-Identifier: MIT */
#ifndef KILN_SAFETY_LOOK_H
#define KILN_SAFETY_LOOK_H

/*
 * The machine as in-use sees it (safety_look.c): its block devices, what
 * each loop device is over, its mounts and swap areas. Only safety_use.c,
 * which follows a subject's bytes through it, and safety_look.c include
 * this file.
 */
#include <limits.h>
#include <sys/types.h>

#include "discover/safety.h"

/* A block device of the machine; for a loop device, what it is over. */
struct safety_bdev {
	char name[64];
	dev_t dev;
	int disk;		/* a partition: its whole disk's index; else -1 */
	int loop;		/* a loop device with a backing file */
	int answered;		/* over is known */
	int silent;		/* asked, and gave no answer */
	int cut;		/* a disk with partitions left out unseen */
	struct safety_medium over;
	char path[PATH_MAX];	/* sysfs's backing_file */
	dev_t path_fs;		/* the filesystem the mount table puts it on */
};

/* A swap area, or a mount, as /proc names it. */
struct safety_named {
	int answered;
	struct safety_medium m;
	dev_t dev;		/* a mount's device number */
	char point[512];	/* a mount's mount point */
	char path[PATH_MAX];	/* a swap area's path, a mount's source */
};

/* What the machine has, read once for each subject. */
struct safety_picture {
	struct safety_bdev *b;
	int nb;
	struct safety_named *swap, *mount;
	int nswap, nmount;
	int partial;		/* something could not be kept: no memory */
};

struct safety_look {
	struct safety_picture p;
};

/* Block devices, loop backings, mounts and swap areas, asked boundedly. */
void safety_look_read(const struct safety_env *o, struct safety_picture *p);
void safety_look_drop(struct safety_picture *p);

/* A copy of a picture of its own (a subject not in it is added): 0, -1. */
int safety_look_copy(struct safety_picture *to,
		     const struct safety_picture *from);

/* Adds a block device (disk: its whole disk's index, or -1): its index. */
int safety_look_add(struct safety_picture *p, const char *name, dev_t dev,
		    int disk);

/* The index of the block device numbered dev; -1 when none. */
int safety_look_find(const struct safety_picture *p, dev_t dev);

#endif
