// SPDX-License-Identifier: MIT
/*
 * Description: SMBIOS type 17 (memory device) read from the raw DMI
 * table, per the DMTF SMBIOS specification (3.x): each structure's
 * formatted area (type, length, handle, fields) then its strings, the
 * set ended by two NULs; fields past a structure's length are absent.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "discover/smbios.h"

#define SMBIOS_MEMORY_DEVICE 17
#define SMBIOS_END 127

static unsigned get16(const unsigned char *p)
{
	return p[0] | (unsigned)p[1] << 8;
}

static uint32_t get32(const unsigned char *p)
{
	return get16(p) | (uint32_t)get16(p + 2) << 16;
}

/* String n (1-based) of the set at s..end into out, trimmed; "" if none. */
static void string_of(const unsigned char *s, const unsigned char *end,
		      unsigned n, char *out, size_t len)
{
	size_t k;

	out[0] = 0;
	if (!n)
		return;
	while (s < end && --n) {
		s = memchr(s, 0, (size_t)(end - s));
		if (!s)
			return;
		s++;
	}
	if (s >= end || n)
		return;
	while (s < end && *s == ' ')
		s++;
	for (k = 0; s + k < end && s[k] && k + 1 < len; k++)
		out[k] = (char)s[k];
	while (k && out[k - 1] == ' ')
		k--;
	out[k] = 0;
}

/* The size field: 0 empty, UINT64_MAX unknown. */
static uint64_t size_of(const unsigned char *p, unsigned flen)
{
	unsigned v = get16(p + 0x0c);

	if (v == 0xffff)
		return UINT64_MAX;
	if (v == 0x7fff)
		return flen >= 0x20 ?
		       (uint64_t)(get32(p + 0x1c) & 0x7fffffff) << 20 :
		       UINT64_MAX;
	return v & 0x8000 ? (uint64_t)(v & 0x7fff) << 10 :
			    (uint64_t)v << 20;
}

int smbios_dimms(const unsigned char *t, size_t len, struct smbios_dimm *out,
		 int max)
{
	const unsigned char *p = t, *end = t + len, *s, *next;
	struct smbios_dimm *d;
	unsigned flen;
	uint64_t size;
	int n = 0;

	while (end - p >= 4 && p[0] != SMBIOS_END) {
		flen = p[1];
		if (flen < 4 || (size_t)(end - p) < flen)
			break;
		/* The strings end at the first double NUL. */
		for (s = p + flen; s + 1 < end && (s[0] || s[1]); s++)
			;
		if (s + 1 >= end)
			break;
		next = s + 2;
		if (p[0] == SMBIOS_MEMORY_DEVICE && flen >= 0x15) {
			size = size_of(p, flen);
			if (size && size != UINT64_MAX) {
				if (n < max) {
					d = &out[n];
					memset(d, 0, sizeof(*d));
					d->size = size;
					string_of(p + flen, next, p[0x10],
						  d->locator,
						  sizeof(d->locator));
					string_of(p + flen, next, p[0x11],
						  d->bank, sizeof(d->bank));
					if (flen >= 0x17)
						d->speed = get16(p + 0x15);
					if (d->speed == 0xffff)
						d->speed = flen >= 0x58 ?
							get32(p + 0x54) : 0;
					if (flen >= 0x1b)
						string_of(p + flen, next,
							  p[0x1a], d->part,
							  sizeof(d->part));
				}
				n++;
			}
		}
		p = next;
	}
	return n;
}

int smbios_dimms_read(const char *sysroot, struct smbios_dimm *out, int max)
{
	char path[4096];
	unsigned char *buf;
	size_t len;
	FILE *f;
	int n;

	snprintf(path, sizeof(path), "%s/firmware/dmi/tables/DMI", sysroot);
	f = fopen(path, "rb");
	if (!f)
		return 0;
	/* A table is tens of KiB; 1 MiB bounds a file that is not one. */
	buf = malloc(1 << 20);
	len = buf ? fread(buf, 1, 1 << 20, f) : 0;
	fclose(f);
	n = buf ? smbios_dimms(buf, len, out, max) : 0;
	free(buf);
	return n;
}
