/* SPDX-License-Identifier: MIT */
#ifndef KILN_PCIIDS_H
#define KILN_PCIIDS_H

#include <stddef.h>

/* Where pci.ids lives on Debian (package pci.ids), and in the image. */
#define PCIIDS_PATH "/usr/share/misc/pci.ids"

/*
 * The vendor's and the device's names from pci.ids: 0 when the vendor was
 * found (device may stay empty), -errno otherwise; names empty then.
 */
int pciids_lookup(const char *path, unsigned vendor, unsigned device,
		  char *vname, size_t vlen, char *dname, size_t dlen);

#endif
