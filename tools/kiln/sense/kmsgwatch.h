/* SPDX-License-Identifier: MIT */
#ifndef KILN_KMSGWATCH_H
#define KILN_KMSGWATCH_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "sense/kmsg.h"
#include "sense/mce.h"

/*
 * The kernel's log watched during a burn: /dev/kmsg read from the start
 * of the run on, without blocking, every sampling interval; each trouble
 * line (kmsg.h) counted for the disks it names, and the first few kept
 * as they were read, for the verdict's reasons.
 */

/*
 * A disk as the log may name it; every field is optional ("" or -1).
 * The lead fills it from discovery (sysfs): its kernel name, its SCSI
 * address, its ATA port, its NVMe controller, the PCI functions from its
 * controller up to the root port (sensors_pci_path()), and its
 * controller's name in its driver's own lines (mpt3sas: "mpt3sas_cm" and
 * the scsi_host's unique_id; mptsas: "ioc" and unique_id).
 */
#define KMSGWATCH_PCI_PATH 6

struct kmsgwatch_disk {
	char name[32];
	int host, channel, target, lun;	/* -1: not SCSI */
	int ata;			/* -1: not behind libata */
	int nvme;			/* -1: not NVMe */
	char pci[KMSGWATCH_PCI_PATH][24];	/* [0] its controller, upward */
	char hba[24];
	double sata_gbps;	/* its link at the start (sata_spd), or 0 */
};

/* A disk with no names yet: every number -1, every string empty. */
void kmsgwatch_disk_init(struct kmsgwatch_disk *d);

/*
 * A block device's names from its sysfs folder under sysroot (name: sdb,
 * nvme0n1); devpath gets its device path below sysroot, as sensors.h
 * takes it (for an NVMe namespace of several paths, its controller's).
 * 0 or -ENOENT.
 */
int kmsgwatch_disk_read(const char *sysroot, const char *name,
			struct kmsgwatch_disk *d, char *devpath, size_t len);

/*
 * Whether names n name disk d: 2 when they name the disk itself (its
 * block name, SCSI address or target, ATA port, NVMe controller), 1 when
 * what it hangs from (its SCSI host, a PCI function on its path, its
 * HBA), 0 not at all.
 */
int kmsgwatch_match(const struct kmsg_names *n, const struct kmsgwatch_disk *d);

/* What the log said of one disk (or of the machine). */
#define KMSGWATCH_KEEP 8

struct kmsgwatch_tally {
	unsigned count[KMSG_KINDS];
	unsigned total;			/* trouble lines, all kinds */
	unsigned direct;		/* of those, naming the disk itself */
	int nkept;
	/* As dmesg shows them: "[   12.345678] text". */
	char kept[KMSGWATCH_KEEP][KMSG_TEXT_MAX + 20];
};

/*
 * A watch for n disks: tally[i] for disk i, tally[n] for the trouble lines
 * that name none of them (a PCI function elsewhere, a disk not under
 * test, no name at all). A line that names a disk itself counts for that
 * disk only, not for its neighbours on the same controller; a line that
 * names a controller or a link counts for every disk behind it.
 */
struct kmsgwatch {
	const struct kmsgwatch_disk *disks;
	int n;
	struct kmsgwatch_tally *tally;	/* n + 1 */
	double *gbps;			/* each disk's link speed, last known */
	uint64_t lines;			/* lines read, trouble or not */
	uint64_t lost;			/* records overwritten unread */
	struct mce_tally mce;		/* machine checks (mce.h) */
	int64_t next_seq;		/* the seq expected next; -1 none yet */
	struct kmsg_names last;		/* for a dmesg continuation line */
	int fd;				/* the log, -1 when not open */
	FILE *log;			/* NULL, or every line read goes here */
};

/* disks is kept (the caller's); 0 or -ENOMEM. */
int kmsgwatch_init(struct kmsgwatch *w, const struct kmsgwatch_disk *disks,
		   int n);
void kmsgwatch_free(struct kmsgwatch *w);

/*
 * Adds one record or line; returns its kind. A SATA link that comes back
 * up is trouble only when slower than it was (disk->sata_gbps, else the
 * first speed seen): libata does not always say why. With w->log set,
 * the line goes there as dmesg prints it ("[   31.093242] text"), so a
 * run folder's kmsg.log can be read again with kmsgwatch_text().
 */
int kmsgwatch_line(struct kmsgwatch *w, const char *rec, size_t len);

/* Adds every line of a text (a dmesg, a recorded kmsg.log). */
void kmsgwatch_text(struct kmsgwatch *w, const char *text, size_t len);

/*
 * Opens path (/dev/kmsg) at its end, so that only what the kernel says
 * from now on is read, never blocking: 0 or -errno.
 */
int kmsgwatch_open(struct kmsgwatch *w, const char *path);

/*
 * Reads every record waiting (call every sampling interval and at the
 * end): how many reads it took, or -errno. Records the kernel overwrote
 * before they were read are counted in w->lost, and reading goes on.
 */
int kmsgwatch_read(struct kmsgwatch *w);

#endif
