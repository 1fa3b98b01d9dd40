/* SPDX-License-Identifier: MIT */
#ifndef KILN_DISCOVER_H
#define KILN_DISCOVER_H

#include <limits.h>
#include <stdint.h>
#include <sys/types.h>

#include "discover/enclosure.h"
#include "discover/hidden.h"
#include "discover/identity.h"
#include "discover/machine.h"
#include "discover/pci.h"
#include "discover/sanstatus.h"
#include "discover/safety.h"
#include "discover/sasphy.h"
#include "discover/smbios.h"

/*
 * Discovery: the machine, its storage controllers and every whole disk
 * under them, from sysfs, and each disk's safety class (a look at its
 * contents). The pieces it puts together live in sysfs.c, identity.c,
 * machine.c, pci.c and safety.c; this file walks the tree.
 */
struct discover_disk {
	struct identity id;
	dev_t dev;
	char vendor[64];
	char firmware[64];
	uint64_t size;
	unsigned lbs, pbs;
	int removable;
	int read_only;		/* the kernel marks it ro */
	/* sata, sas, nvme, usb, virtio, scsi, ata, ... */
	char transport[16];
	char link[32];		/* "6.0 Gbps" when the kernel knows */
	int controller;		/* index in controllers, -1: none found */
	char devpath[PATH_MAX];	/* its device in sysfs, without the root */
	char hctl[32];		/* SCSI host:channel:target:lun */
	struct enclosure_slot slot;	/* its bay, when has_slot */
	int has_slot;
	int raid_volume;	/* a RAID controller's virtual disk */
	char holders[128];	/* "md0 dm-1" */
	char unusable[240];	/* why Linux cannot use it, and the fix */
	int stalled;		/* reading it to class it got no answer */
	struct safety safety;
	struct hidden hidden;	/* capacity the OS cannot see */
	struct sanstatus san;	/* NVMe: a sanitize still running, or not */
};

struct discover_options {
	const char *sysroot;	/* "/sys", or a fixture's */
	const char *procroot;	/* "/proc", or a fixture's */
	const char *devroot;	/* "/dev": where disks are opened */
	const char *pciids;	/* pci.ids; NULL: the default */
	int read_disks;		/* read each disk for its class */
	int loops;		/* list loop devices attached to a file */
	int mapped;		/* list device-mapper devices (dm-N) */
	uint64_t deadline_ns;	/* for each disk's reads; 0: 60 s */
	const dev_t *protect;	/* devices named by --protect */
	int nprotect;
	const char *machine_id;	/* machine-id: the id, not the serial's */
};

/* DIMMs kept at most (SMBIOS type 17); more are counted in ndimms. */
#define DISCOVER_MAX_DIMMS 256

struct discover_inventory {
	struct machine_system sys;
	struct smbios_dimm *dimms;	/* the populated slots the BIOS saw */
	int ndimms;			/* 0: none, or no DMI table */
	struct machine_nic *nics;
	int nnics;
	struct pci_controller *ctrls;
	int nctrls;
	struct discover_disk *disks;
	int ndisks;
	struct sasphy_set phys;		/* SAS phys and their counters */
};

/* Fills inv; 0 or -ENOMEM (missing or odd sysfs data is not an error). */
int discover_scan(const struct discover_options *o,
		  struct discover_inventory *inv);
void discover_free(struct discover_inventory *inv);

/*
 * The same walk without classing any disk: the machine, its controllers
 * and every disk as sysfs shows them, no disk opened or read (what the
 * burn needs to know of its targets' controllers and links). 0 or -ENOMEM.
 */
int discover_tree(const struct discover_options *o,
		  struct discover_inventory *inv);

/* The environment safety_classify() needs, from the options. */
struct safety_env discover_safety_env(const struct discover_options *o);

#endif
