/* SPDX-License-Identifier: MIT */
#ifndef KILN_EDACSLOT_H
#define KILN_EDACSLOT_H

#include "discover/smbios.h"
#include "sense/sensors.h"

/*
 * An EDAC DIMM named by the slot the BIOS gives it (SMBIOS type 17's
 * Device Locator), so a memory error names the DIMM to pull. EDAC's
 * dimm_label often is that locator: ghes_edac writes "BANK DEVICE" (the
 * bank and device locators of the DIMM's SMBIOS handle), and a lab that
 * sets labels (edac-ctl) writes the silk screen's name, which is the
 * locator on most boards. A label that matches no slot, or two slots
 * alike, names none: a wrong slot is worse than no slot.
 */

/* The slot of one label: the DIMM it names, or NULL. */
const struct smbios_dimm *edacslot_of(const char *label,
				      const struct smbios_dimm *d, int n);

/* Sets slot of every DIMM and csrow of s that a label matches. */
void edacslot_match(struct sensors *s, const struct smbios_dimm *d, int n);

#endif
