/* SPDX-License-Identifier: MIT */
/*
 * Description: names for PCI vendor and device ids from pci.ids, the
 * file lspci reads: "vvvv  Vendor" lines, each followed by tab-indented
 * "dddd  Device" lines (and deeper subsystem lines, skipped).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "discover/pciids.h"

static void copy_name(char *out, size_t len, const char *name)
{
	size_t n = strcspn(name, "\n");

	if (n >= len)
		n = len - 1;
	memcpy(out, name, n);
	out[n] = 0;
}

int pciids_lookup(const char *path, unsigned vendor, unsigned device,
		  char *vname, size_t vlen, char *dname, size_t dlen)
{
	char line[512];
	int in_vendor = 0, found = 0;
	FILE *f;

	vname[0] = 0;
	dname[0] = 0;
	f = fopen(path, "re");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		unsigned id;

		if (line[0] == '#' || line[0] == '\n')
			continue;
		if (line[0] != '\t') {
			if (in_vendor || !strncmp(line, "C ", 2))
				break;	/* past our vendor, or into classes */
			if (sscanf(line, "%4x", &id) == 1 && id == vendor &&
			    strlen(line) > 6) {
				copy_name(vname, vlen, line + 6);
				in_vendor = found = 1;
			}
			continue;
		}
		if (in_vendor && line[1] != '\t' &&
		    sscanf(line + 1, "%4x", &id) == 1 && id == device &&
		    strlen(line) > 7) {
			copy_name(dname, dlen, line + 7);
			break;
		}
	}
	fclose(f);
	return found ? 0 : -ENOENT;
}
