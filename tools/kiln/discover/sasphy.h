/* SPDX-License-Identifier: MIT */
#ifndef KILN_SASPHY_H
#define KILN_SASPHY_H

#include <stddef.h>

/*
 * The SAS phys the kernel's SAS transport class shows (scsi_transport_sas:
 * /sys/class/sas_phy/phy-H:N for a host's own phys, phy-H:E:N for an
 * expander's), with their four error counters, and which of them lie on
 * a disk's path. A phy sits under the device it is a phy of (hostH or
 * expander-H:E); a phy in a port has a "port" link to it, and a disk's
 * device path runs through every port between it and its HBA, so the
 * phys on a disk's path are those whose port is on that path.
 */

#define SASPHY_COUNTERS 4
#define SASPHY_NONE (-1LL)

/* The counters' sysfs names, which are also their names in results. */
extern const char *const sasphy_counter[SASPHY_COUNTERS];

struct sasphy {
	char name[32];		/* phy-0:0, phy-0:0:4 */
	char owner[32];		/* host0, expander-0:0: whose phy */
	char ctrl[24];		/* the PCI function above it, or "" */
	char rate[24];		/* negotiated_linkrate: "6.0 Gbit" */
	/* Its port's device path under sysroot/devices; "": in no port. */
	char port[256];
	int to_expander;	/* its port leads to an expander: shared */
	long long count[SASPHY_COUNTERS];	/* SASPHY_NONE: not read */
	int err[SASPHY_COUNTERS];	/* errno of a read that failed, 0 */
};

struct sasphy_set {
	struct sasphy *phys;
	int n;
};

/*
 * Every phy under sysroot/class/sas_phy, sorted by name: 0 (none at all
 * is 0 phys), or -ENOMEM. A counter that will not read (some drivers
 * answer EINVAL for some phys) keeps its errno and is not fatal.
 */
int sasphy_read(const char *sysroot, struct sasphy_set *s);
void sasphy_free(struct sasphy_set *s);

/* A phy in a port: something is attached to it. */
int sasphy_in_use(const struct sasphy *p);

/*
 * Whether p lies on the path of a device at devpath, its path under
 * sysroot/devices (as sasphy_devpath() gives it).
 */
int sasphy_on_path(const struct sasphy *p, const char *devpath);

/*
 * The device path under sysroot/devices of a block device (its
 * sysroot/class/block/NAME link resolved): 0, or -errno.
 */
int sasphy_devpath(const char *sysroot, const char *name, char *out,
		   size_t len);

#endif
