/* SPDX-License-Identifier: MIT */
#ifndef KILN_EXPECT_H
#define KILN_EXPECT_H

#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "discover/discover.h"

/*
 * The expected machine (expect=FILE): what a machine must have, in
 * kiln.cfg's KEY=VALUE style, every key optional. Each difference from
 * what discovery finds FAILs the machine. kiln.cfg(5) "THE EXPECT FILE"
 * lists the keys; DIMMs are SMBIOS type 17's (discover/smbios.c).
 */
#define EXPECT_MAX_ITEMS 64

/* A line about one model, controller or NIC: "disks.MODEL=N". */
struct expect_item {
	char name[192];		/* the model, PCI address or NIC name */
	uint64_t value;		/* the count, size, width or Mb/s */
	char text[64];		/* the firmware or link speed */
};

struct expect {
	char cpu_model[160];	/* "" when not given */
	int cpus, disks, controllers, nics;	/* -1 when not given */
	uint64_t memory;	/* bytes, a whole GiB; 0 when not given */
	int dimms;		/* -1 when not given */
	uint64_t dimm_size;	/* every DIMM's; 0 when not given */
	unsigned dimm_speed;	/* MT/s, every DIMM's; 0 when not given */
	char dimm_part[64];	/* every DIMM's part number; "" */
	struct expect_item disk_count[EXPECT_MAX_ITEMS];
	struct expect_item disk_firmware[EXPECT_MAX_ITEMS];
	struct expect_item disk_size[EXPECT_MAX_ITEMS];
	struct expect_item link[EXPECT_MAX_ITEMS];	/* controllers */
	struct expect_item nic_speed[EXPECT_MAX_ITEMS];
	int ndisk_count, ndisk_firmware, ndisk_size, nlink, nnic_speed;
};

/* Nothing expected. */
void expect_init(struct expect *e);

/*
 * Parses the text of an expect file (NUL-terminated) into e: 0, or -1
 * with err holding "FILE line N: why" (what names it, as given).
 */
int expect_parse(const char *text, const char *what, struct expect *e,
		 char *err, size_t errlen);

/* Reads and parses the file at path: 0, or -1 with err said. */
int expect_load(const char *path, struct expect *e, char *err,
		size_t errlen);

/* The differences found, one line each for people. */
#define EXPECT_MAX_DIFFS 64
struct expect_diffs {
	char line[EXPECT_MAX_DIFFS][256];
	int n;			/* lines kept */
	int more;		/* differences past the lines kept */
};

/*
 * inv against e; the disks counted leave out loop devices and those in
 * skip (the boot and results media). The number of differences.
 */
int expect_check(const struct expect *e,
		 const struct discover_inventory *inv, const dev_t *skip,
		 int nskip, struct expect_diffs *d);

/* Whether a disk of inv is one the expectation counts. */
int expect_counts_disk(const struct discover_disk *dk, const dev_t *skip,
		       int nskip);

/* The memory as expect compares it: bytes rounded up to a whole GiB. */
uint64_t expect_memory_found(const struct discover_inventory *inv);
/* ...of bytes: rounded up to a whole GiB. */
uint64_t expect_memory_gib(uint64_t bytes);

/* An expect file for inv, commented, that expect_check finds equal. */
void expect_write(const struct discover_inventory *inv, const dev_t *skip,
		  int nskip, FILE *f);

#endif
