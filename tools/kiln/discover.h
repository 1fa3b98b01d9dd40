/* SPDX-License-Identifier: MIT */
#ifndef KILN_DISCOVER_H
#define KILN_DISCOVER_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "signature.h"

/*
 * Discovery: the machine, its storage controllers and every whole disk,
 * from sysfs (and a look at each disk's first and last bytes for its
 * safety class). A disk is known by identity, not by name (DESIGN.md): its
 * WWN, else its serial, else model + size + bus path; a loop device by its
 * backing file; a partition by its disk's identity and number.
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

/* The safety classes of DESIGN.md, safest first. */
enum discover_class {
	CLASS_IN_USE,		/* mounted, held, swap, or protected: never written */
	CLASS_HAS_DATA,		/* a signature, or not proven blank */
	CLASS_KILN_DATA,	/* written by kiln before */
	CLASS_BLANK,		/* read, and nothing found */
};

struct discover_safety {
	int class;		/* enum discover_class */
	char why[600];		/* the reasons, for people */
	int scanned;		/* the disk's ends were read */
	struct signature_scan sig;
};

struct discover_controller {
	char pci[32];		/* 0000:00:1f.2, or 10000:01:00.0 behind VMD */
	unsigned class_code;	/* 0x010601 */
	unsigned vendor, device;
	char kind[32];		/* "SATA AHCI", "NVMe", "RAID", "USB", ... */
	char vendor_name[128], device_name[192];
	char driver[64];
	int numa;		/* -1 unknown */
	char link_speed[32], max_link_speed[32];
	int link_width, max_link_width;	/* 0 unknown */
	int degraded;		/* running below its maximum */
	double link_mbps;	/* the link's bandwidth per direction, MB/s */
	char vmd[32];		/* the VMD function it sits behind */
	int storage;		/* a PCI mass-storage class */
	int ndisks;
};

struct discover_disk {
	struct discover_id id;
	dev_t dev;
	char vendor[64];
	char firmware[64];
	uint64_t size;
	unsigned lbs, pbs;
	int removable;
	char transport[16];	/* sata, sas, nvme, usb, virtio, scsi, ata, ... */
	char link[32];		/* "6.0 Gbps" when the kernel knows */
	int controller;		/* index in controllers, -1: none found */
	char devpath[PATH_MAX];	/* its device in sysfs, without the root */
	char hctl[32];		/* SCSI host:channel:target:lun */
	char enclosure[64], slot[64];
	int raid_volume;	/* a RAID controller's virtual disk */
	char partitions[256];	/* "sdb1 sdb2" */
	char holders[128];	/* "md0 dm-1" */
	char unusable[240];	/* why Linux cannot use it, and the fix */
	struct discover_safety safety;
};

struct discover_nic {
	char name[32], mac[32], driver[64], state[16];
	int speed;		/* Mb/s, -1 unknown */
	int wireless;
};

struct discover_system {
	char vendor[128], product[128], serial[128];
	char board_vendor[128], board[128];
	char bios_vendor[128], bios_version[128], bios_date[64];
	char cpu[160];
	int cpus;
	uint64_t memory;	/* bytes */
	char machine_id[128];
};

/* How the machine booted: Secure Boot, and what lockdown closes. */
struct discover_firmware {
	int efi;		/* booted through UEFI */
	int secure_boot;	/* 1, 0, or -1 when it cannot be told */
	char lockdown[32];	/* none, integrity, confidentiality, or "" */
};

struct discover_options {
	const char *sysroot;	/* "/sys", or a fixture's */
	const char *procroot;	/* "/proc", or a fixture's */
	const char *devroot;	/* "/dev": where disks are opened */
	const char *pciids;	/* pci.ids; NULL: the default */
	int read_disks;		/* read each disk's ends for its class */
	dev_t *protect;		/* devices named by --protect */
	int nprotect;
};

struct discover_inventory {
	struct discover_system sys;
	struct discover_nic *nics;
	int nnics;
	struct discover_controller *ctrls;
	int nctrls;
	struct discover_disk *disks;
	int ndisks;
};

/* Fills inv from sysfs; 0 or -ENOMEM (missing or odd sysfs data is not an error). */
int discover_scan(const struct discover_options *o,
		  struct discover_inventory *inv);
void discover_free(struct discover_inventory *inv);

/*
 * The safety class of one opened disk or file: in-use facts from sysfs
 * and /proc (under the roots of o), then its first and last bytes read
 * through fd. name is the kernel name ("" for a file).
 */
void discover_classify(const struct discover_options *o, const char *name,
		       dev_t dev, int fd, uint64_t size,
		       struct discover_safety *s);

const char *discover_class_name(int class);

/*
 * Reads a small file (at most len - 1 bytes) into buf, without trailing
 * whitespace; returns its length or -errno. Never blocks: O_NONBLOCK.
 */
int discover_read(const char *path, char *buf, size_t len);

/* discover_read() of dir/name: one sysfs attribute. */
int discover_attr(const char *dir, const char *name, char *buf, size_t len);

/* Fills id for the block device major:minor, from sysfs under sysroot. */
int discover_identity(const char *sysroot, unsigned major, unsigned minor,
		      uint64_t size, struct discover_id *id);

/* Fills fw from sysfs (efivarfs and securityfs mounted by the init). */
void discover_firmware(const char *sysroot, struct discover_firmware *fw);

/* "UEFI, Secure Boot on, kernel locked down (integrity)", for people. */
char *discover_firmware_text(const struct discover_firmware *fw, char *buf,
			     size_t len);

/* Whether a DMI serial is a real one, not "To Be Filled By O.E.M.". */
int discover_serial_real(const char *serial);

#endif
