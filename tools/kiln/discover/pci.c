/* SPDX-License-Identifier: MIT */
/*
 * Description: PCI functions as sysfs shows them (see pci.h): where a disk
 * hangs in the PCI tree, what kind of controller that is, and its link
 * (speed, width, and whether it trained below its maximum).
 */
#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "discover/pci.h"
#include "discover/pciids.h"
#include "base/sysfs.h"

/* 0000:00:1f.2, or 10000:e1:00.0 inside a VMD domain. */
static int is_pci_address(const char *s, size_t len)
{
	size_t i = 0, d = 0;

	while (i < len && isxdigit((unsigned char)s[i]))
		i++, d++;
	if (d < 4 || i + 8 != len)
		return 0;
	return s[i] == ':' && isxdigit((unsigned char)s[i + 1]) &&
	       isxdigit((unsigned char)s[i + 2]) && s[i + 3] == ':' &&
	       isxdigit((unsigned char)s[i + 4]) &&
	       isxdigit((unsigned char)s[i + 5]) && s[i + 6] == '.' &&
	       s[i + 7] >= '0' && s[i + 7] <= '7';
}

/* "pci10000:00": the root of a VMD domain, whose domain has 5+ digits. */
static int is_vmd_root(const char *s, size_t len)
{
	const char *colon = memchr(s, ':', len);

	return len > 3 && !strncmp(s, "pci", 3) && colon && colon - s - 3 > 4;
}

/* The VMD domain shows as .../pci10000:00/... in the path. */
int pci_of_path(const char *path, char *out, size_t len, char *vmd,
		size_t vlen)
{
	const char *p = path, *slash;
	char last[64] = "";

	if (vmd)
		vmd[0] = 0;
	for (; *p; p = slash + 1) {
		size_t n;

		slash = strchr(p, '/');
		n = slash ? (size_t)(slash - p) : strlen(p);
		if (n < sizeof(last) && is_pci_address(p, n)) {
			memcpy(last, p, n);
			last[n] = 0;
		} else if (vmd && last[0] && is_vmd_root(p, n)) {
			snprintf(vmd, vlen, "%s", last);
		}
		if (!slash)
			break;
	}
	if (last[0])
		snprintf(out, len, "%s", last);
	return last[0] != 0;
}

const char *pci_kind(unsigned cls)
{
	switch (cls >> 8) {
	case 0x0100: return "SCSI";
	case 0x0101: return "IDE";
	case 0x0102: return "floppy";
	case 0x0103: return "IPI";
	case 0x0104: return "RAID";
	case 0x0105: return "ATA";
	case 0x0106: return (cls & 0xff) == 1 ? "SATA AHCI" : "SATA";
	case 0x0107: return "SAS";
	case 0x0108: return (cls & 0xff) == 2 ? "NVMe" : "NVM";
	case 0x0109: return "UFS";
	case 0x0180: return "storage";
	case 0x0c03: return "USB";
	case 0x0c04: return "Fibre Channel";
	case 0x0200: return "Ethernet";
	case 0x0207: return "InfiniBand";
	}
	return (cls >> 16) == 1 ? "storage" : "other";
}

double pci_lane_mbps(const char *speed)
{
	double gt = atof(speed);

	if (gt <= 0)
		return 0;
	if (gt < 3)
		return 250;		/* 2.5 GT/s, 8b/10b */
	if (gt < 6)
		return 500;		/* 5 GT/s, 8b/10b */
	if (gt < 10)
		return 984.6;		/* 8 GT/s, 128b/130b */
	if (gt < 20)
		return 1969.2;		/* 16 GT/s */
	if (gt < 40)
		return 3938.5;		/* 32 GT/s */
	return 7563.0;			/* 64 GT/s, PAM4 with FLIT overhead */
}

/* Lowers best and width to what the port above the function at path has. */
static void port_best(const char *path, double *best, int *width)
{
	char up[PATH_MAX], speed[32];
	const char *slash = strrchr(path, '/');
	long w;

	if (!slash || slash == path)
		return;
	snprintf(up, sizeof(up), "%.*s", (int)(slash - path), path);
	if (sysfs_attr_tidy(up, "max_link_speed", speed, sizeof(speed)) > 0 &&
	    pci_lane_mbps(speed) > 0 && pci_lane_mbps(speed) < *best)
		*best = pci_lane_mbps(speed);
	w = sysfs_attr_long(up, "max_link_width", 0);
	if (w > 0 && w < *width)
		*width = (int)w;
}

void pci_controller_read(const char *sysroot, const char *pciids,
			 const char *pci, struct pci_controller *c)
{
	char dir[PATH_MAX], real[PATH_MAX];

	memset(c, 0, sizeof(*c));
	snprintf(c->pci, sizeof(c->pci), "%.31s", pci);
	snprintf(dir, sizeof(dir), "%s/bus/pci/devices/%s", sysroot, pci);
	c->class_code = (unsigned)sysfs_attr_long(dir, "class", 0);
	c->vendor = (unsigned)sysfs_attr_long(dir, "vendor", 0);
	c->device = (unsigned)sysfs_attr_long(dir, "device", 0);
	c->storage = (c->class_code >> 16) == 1;
	snprintf(c->kind, sizeof(c->kind), "%s", pci_kind(c->class_code));
	sysfs_link_base(dir, "driver", c->driver, sizeof(c->driver));
	c->numa = (int)sysfs_attr_long(dir, "numa_node", -1);
	sysfs_attr_tidy(dir, "current_link_speed", c->link_speed,
			sizeof(c->link_speed));
	sysfs_attr_tidy(dir, "max_link_speed", c->max_link_speed,
			sizeof(c->max_link_speed));
	c->link_width = (int)sysfs_attr_long(dir, "current_link_width", 0);
	c->max_link_width = (int)sysfs_attr_long(dir, "max_link_width", 0);
	if (c->link_width > 0 && pci_lane_mbps(c->link_speed) > 0) {
		double best = pci_lane_mbps(c->max_link_speed);
		int width = c->max_link_width;

		c->link_mbps = pci_lane_mbps(c->link_speed) * c->link_width;
		/*
		 * The best it can train at is also the port above's best: a
		 * PCIe 4.0 drive in a 3.0 slot, an x8 card in a slot wired
		 * x4, is at its best at 3.0 or x4, not below it.
		 */
		if (realpath(dir, real))
			port_best(real, &best, &width);
		c->degraded = pci_lane_mbps(c->link_speed) < best ||
			      c->link_width < width;
	}
	if (realpath(dir, real))
		pci_of_path(real, real, sizeof(real), c->vmd, sizeof(c->vmd));
	pciids_lookup(pciids ? pciids : PCIIDS_PATH, c->vendor, c->device,
		      c->vendor_name, sizeof(c->vendor_name), c->device_name,
		      sizeof(c->device_name));
}
