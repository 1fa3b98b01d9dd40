/* SPDX-License-Identifier: MIT */
#ifndef KILN_PCI_H
#define KILN_PCI_H

#include <stddef.h>

/* A storage controller on PCI (or a NIC's function, when asked). */
struct pci_controller {
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

/*
 * Fills c for the PCI function pci (0000:03:00.0) from sysfs under sysroot;
 * names come from the pci.ids file at pciids (NULL: the default).
 */
void pci_controller_read(const char *sysroot, const char *pciids,
			 const char *pci, struct pci_controller *c);

/*
 * The deepest PCI function on a sysfs device path: the controller nearest
 * the disk (bridges come before it); 1 when found. vmd gets the function
 * that hosts the domain when the controller sits in a VMD domain.
 */
int pci_of_path(const char *path, char *out, size_t len, char *vmd,
		size_t vlen);

/* "SATA AHCI", "NVMe", "RAID", ... for a PCI class code. */
const char *pci_kind(unsigned class_code);

/* MB/s per direction one lane carries at "8.0 GT/s PCIe", after coding. */
double pci_lane_mbps(const char *speed);

#endif
