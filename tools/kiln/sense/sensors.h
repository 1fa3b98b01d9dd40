/* SPDX-License-Identifier: MIT */
#ifndef KILN_SENSORS_H
#define KILN_SENSORS_H

#include <limits.h>

/*
 * The machine's own sensors and error counters, read from sysfs under a
 * root (sysroot: "/sys" on a machine, a fixture's sys/ in tests): hwmon
 * temperatures, EDAC memory error counts and PCIe AER counts. A sample is
 * taken at the start of a burn, every interval and at the end; what rose
 * between two samples is what the burn did to the machine.
 *
 * Device paths are sysfs paths below sysroot, as discover keeps them:
 * "/devices/pci0000:00/0000:00:01.0/0000:01:00.0/nvme/nvme0".
 */

#define SENSORS_NONE INT_MIN	/* a value sysfs does not give */
#define SENSORS_PATH 256

/* One temperature: hwmonN/tempM_* in millidegrees Celsius. */
struct sensors_temp {
	char hwmon[16];		/* hwmon3 */
	int index;		/* M */
	char name[32];		/* the driver: nvme, drivetemp, coretemp */
	char label[64];		/* tempM_label ("Composite"), or "" */
	char device[SENSORS_PATH];	/* what it measures, or "" */
	int input, max, crit, min, lcrit, emergency;
	int alarm;		/* any tempM_*alarm set: 1, 0, or -1 */
};

/* A memory controller, or one of its DIMMs (ranks, csrows). */
struct sensors_edac {
	char where[48];		/* "mc0", "mc0/dimm3", "mc0/csrow1" */
	char label[64];		/* dimm_label, or mc_name for a controller */
	char slot[64];		/* its SMBIOS slot (edacslot.h), or "" */
	long ce, ue;		/* corrected, uncorrected; -1 not given */
};

/* The AER counters of one PCI function (aer_dev_*, aer_rootport_*). */
struct sensors_aer {
	char pci[24];
	long cor, nonfatal, fatal;	/* TOTAL_ERR_* of aer_dev_*; -1 */
	long rp_cor, rp_nonfatal, rp_fatal;	/* a root port's, or -1 */
	char errors[96];	/* counters above zero: "RxErr 3, BadTLP 1" */
};

struct sensors {
	struct sensors_temp *temps;
	int ntemps;
	struct sensors_edac *edac;
	int nedac;
	int edac_mcs;		/* memory controllers EDAC watches; 0: none */
	struct sensors_aer *aer;
	int naer;
	int aer_ports;		/* functions with AER counters */
};

/* Reads every sensor under sysroot into s: 0 or -ENOMEM (s is usable). */
int sensors_read(const char *sysroot, struct sensors *s);
void sensors_free(struct sensors *s);

/*
 * A disk's own temperature, or NULL: of the hwmon nearest the disk on
 * its sysfs path (drivetemp's SCSI device, the NVMe controller; a PCI
 * function's is its controller's, left out), the first sensor (NVMe: the
 * composite), when it can be read.
 */
const struct sensors_temp *sensors_disk_temp(const struct sensors *s,
					     const char *devpath);

/*
 * The PCI functions on a sysfs device path, the disk's controller first,
 * then each bridge up to the root port: how many (at most max).
 */
int sensors_pci_path(const char *devpath, char (*out)[24], int max);

/* The AER counters of one PCI function, or NULL. */
const struct sensors_aer *sensors_aer_of(const struct sensors *s,
					 const char *pci);

/* What rose from one sample to the next, in words and figures. */
enum sensors_kind {
	SENSORS_EDAC_CE,
	SENSORS_EDAC_UE,
	SENSORS_AER_COR,
	SENSORS_AER_NONFATAL,
	SENSORS_AER_FATAL,
	SENSORS_TEMP_MAX,	/* a temperature reached its max (warning) */
	SENSORS_TEMP_CRIT,	/* ... or its crit */
};

struct sensors_rise {
	int kind;
	char what[96];		/* "mc0/dimm3 (CPU0_DIMM_A1)", "0000:03:00.0" */
	long from, to;		/* counts; for a temperature, millidegrees */
};

/*
 * Fills r (at most max) with what rose from before to after: every
 * counter higher in after, and every temperature that is at or above its
 * max or crit in after. Counters that vanish or restart (a device gone,
 * a reset) are not rises. Returns how many were found (may exceed max).
 */
int sensors_diff(const struct sensors *before, const struct sensors *after,
		 struct sensors_rise *r, int max);

#endif
