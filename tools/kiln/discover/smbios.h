/* SPDX-License-Identifier: MIT */
#ifndef KILN_SMBIOS_H
#define KILN_SMBIOS_H

#include <stddef.h>
#include <stdint.h>

/*
 * The memory devices (SMBIOS type 17) of the DMI table the kernel shows
 * at /sys/firmware/dmi/tables/DMI: what the BIOS saw in each slot.
 */
struct smbios_dimm {
	char locator[64];	/* "DIMM_A1" */
	uint64_t size;		/* bytes; 0 empty slot */
	unsigned speed;		/* MT/s; 0 unknown */
	char part[64];		/* part number, trimmed; "" unknown */
	char bank[64];		/* its bank locator, "P0_Node0_Channel0" */
};

/*
 * The populated memory devices of a raw SMBIOS table into out (at most
 * max); the number found, however many were kept. Empty slots and those
 * of unknown size are left out; a structure cut short ends the walk.
 */
int smbios_dimms(const unsigned char *t, size_t len, struct smbios_dimm *out,
		 int max);

/* The same from sysroot/firmware/dmi/tables/DMI; 0 when it is absent. */
int smbios_dimms_read(const char *sysroot, struct smbios_dimm *out, int max);

#endif
