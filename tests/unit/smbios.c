/* SPDX-License-Identifier: MIT */
/*
 * Description: SMBIOS type 17 read from a hand-made table laid out as
 * the DMTF SMBIOS specification has it: a type 0 structure first, a
 * 16 GiB DIMM in MB, a 16 MiB one in KB granularity, a 64 GiB one in
 * the extended size field, an empty slot, one of unknown size, then the
 * end-of-table structure; and a table cut short ends the walk.
 */
#include <stdio.h>
#include <string.h>

#include "../lib/tap.h"
#include "discover/smbios.h"

static unsigned char t[1024];
static size_t tlen;

static void put16(unsigned char *p, unsigned v)
{
	p[0] = v & 0xff;
	p[1] = v >> 8;
}

/* A type 17 of 0x28 bytes (SMBIOS 2.8) with its strings. */
static void dimm(unsigned size16, unsigned ext_mb, unsigned speed,
		 const char *locator, const char *part)
{
	unsigned char *p = t + tlen;

	memset(p, 0, 0x28);
	p[0] = 17;
	p[1] = 0x28;
	put16(p + 2, (unsigned)tlen);
	put16(p + 0x0c, size16);
	p[0x10] = 1;			/* device locator: string 1 */
	p[0x11] = 2;			/* bank locator: string 2 */
	put16(p + 0x15, speed);
	p[0x17] = 3;			/* manufacturer */
	p[0x1a] = 4;			/* part number: string 4 */
	put16(p + 0x1c, ext_mb & 0xffff);
	put16(p + 0x1e, ext_mb >> 16);
	tlen += 0x28;
	tlen += (size_t)sprintf((char *)t + tlen, "%s", locator) + 1;
	tlen += (size_t)sprintf((char *)t + tlen, "P0_NODE0") + 1;
	tlen += (size_t)sprintf((char *)t + tlen, "Samsung") + 1;
	tlen += (size_t)sprintf((char *)t + tlen, "%s", part) + 1;
	t[tlen++] = 0;
}

static void table(void)
{
	static const unsigned char bios[] = { 0, 0x18, 0, 0 };

	memset(t, 0, sizeof(t));
	memcpy(t, bios, sizeof(bios));
	tlen = 0x18;
	tlen += (size_t)sprintf((char *)t + tlen, "Acme") + 1;
	t[tlen++] = 0;
	dimm(16384, 0, 3200, "DIMM_A1", "M393A2K43DB3-CWE   ");
	dimm(0x8000 | 16384, 0, 2666, "DIMM_A2", "SMALL");
	dimm(0x7fff, 65536, 0xffff, "DIMM_B1", "BIG");
	dimm(0, 0, 0, "DIMM_B2", "NO DIMM");
	dimm(0xffff, 0, 0, "DIMM_B3", "UNKNOWN");
	t[tlen] = 127;
	t[tlen + 1] = 4;
	tlen += 6;
}

static void test_dimms(void)
{
	struct smbios_dimm d[8];
	int n;

	table();
	n = smbios_dimms(t, tlen, d, 8);
	tap_ok(n == 3, "three populated slots (empty and unknown left out)");
	tap_ok(!strcmp(d[0].locator, "DIMM_A1") && d[0].size == 16ull << 30 &&
	       d[0].speed == 3200 && !strcmp(d[0].part, "M393A2K43DB3-CWE"),
	       "a DIMM in MB: slot, size, speed, part (trimmed)");
	tap_ok(!strcmp(d[0].bank, "P0_NODE0") && !strcmp(d[2].bank, "P0_NODE0"),
	       "its bank locator, to tell slots of one name apart");
	tap_ok(d[1].size == 16ull << 20 && !strcmp(d[1].part, "SMALL"),
	       "a size in KB granularity");
	tap_ok(d[2].size == 64ull << 30 && d[2].speed == 0,
	       "the extended size; an extended speed past the structure: 0");
	tap_ok(smbios_dimms(t, tlen, d, 1) == 3 &&
	       !strcmp(d[0].locator, "DIMM_A1"),
	       "all are counted, max kept");
	tap_ok(smbios_dimms(t, 0x18 + 6 + 0x28 + 10, d, 8) == 0,
	       "a structure cut short ends the walk");
	tap_ok(smbios_dimms_read("/nonexistent", d, 8) == 0,
	       "no DMI table: none");
}

int main(int argc, char **argv)
{
	tap_args(argc, argv);
	tap_plan(8);
	TAP_RUN(test_dimms);
	return tap_done();
}
