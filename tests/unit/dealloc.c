/* SPDX-License-Identifier: MIT */
/*
 * Description: what a device promises a discarded block reads as, from
 * its bytes: NVMe DLFEAT 001b is zeros, 010b (0xff) and 000b are not;
 * SCSI LBPRZ xx1b is zeros (SBC-3's one bit too), 010b and 000b are not,
 * and a page that is not B2h promises nothing; a disk's promise asked
 * under a sysfs of files: an ATA drive (vendor "ATA", the SCSI/ATA
 * translation's page B2h) is said as ATA TRIM, with or without its
 * trusted zeros, a SCSI disk as SCSI LBPRZ even with a page 89h
 * (scsi_debug has one), a disk with no page B2h promises nothing, a loop
 * nothing.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/tap.h"
#include "discover/dealloc.h"

/* A disk under root's class/block: its page B2h with flags, its vendor. */
static void disk(const char *root, const char *name, int flags, int ata)
{
	uint8_t pg[64] = { 0, 0xb2 };
	char dir[600];

	snprintf(dir, sizeof(dir), "%s/class/block/%s/device", root, name);
	tap_sh("mkdir -p '%s'", dir);
	pg[5] = (uint8_t)flags;
	if (flags >= 0 && tap_write(dir, "vpd_pgb2", pg, sizeof(pg)))
		tap_bail("cannot write %s/vpd_pgb2", dir);
	if (tap_write(dir, "vendor", ata ? "ATA     \n" : "Linux   \n", 9))
		tap_bail("cannot write %s/vendor", dir);
	/* page 89h, as scsi_debug (not an ATA drive) has it too */
	if (tap_write(dir, "vpd_pg89", pg, 8))
		tap_bail("cannot write %s/vpd_pg89", dir);
}

static void test_asked(void)
{
	char root[] = "/tmp/kiln-dealloc.XXXXXX", why[120];
	int z;

	if (!mkdtemp(root))
		tap_bail("mkdtemp");
	disk(root, "sda", 0x80, 1);
	disk(root, "sdb", 0x80 | 0x04, 1);
	disk(root, "sdc", 0x80 | 0x04, 0);
	disk(root, "sdd", -1, 0);
	z = dealloc_promise(root, "sda", -1, why, sizeof(why));
	tap_ok(!z && !strcmp(why, "ATA TRIM, no RZAT trusted (SAT's LBPRZ "
				 "000b)"),
	       "SATA, no RZAT: nothing promised, said as ATA (%s)", why);
	z = dealloc_promise(root, "sdb", -1, why, sizeof(why));
	tap_ok(z && !strcmp(why, "ATA TRIM, RZAT trusted (SAT's LBPRZ 001b)"),
	       "SATA with trusted RZAT: zeros (%s)", why);
	z = dealloc_promise(root, "sdc", -1, why, sizeof(why));
	tap_ok(z && !strcmp(why, "SCSI LBPRZ 001b"),
	       "SCSI, a page 89h too: LBPRZ (%s)", why);
	z = dealloc_promise(root, "sdd", -1, why, sizeof(why));
	tap_ok(!z && strstr(why, "no Logical Block Provisioning page"),
	       "no page B2h: nothing (%s)", why);
	z = dealloc_promise(root, "loop3", -1, why, sizeof(why));
	tap_ok(!z && !strcmp(why, "a loop device"), "a loop: nothing (%s)",
	       why);
	tap_sh("rm -rf '%s'", root);
}

int main(int argc, char **argv)
{
	uint8_t id[4096], pg[64];

	(void)argc;
	(void)argv;
	tap_plan(12);
	memset(id, 0, sizeof(id));
	id[33] = 0x09;		/* write zeroes deallocates, reads zeros */
	tap_ok(dealloc_nvme_zeros(id, sizeof(id)), "DLFEAT 001b: zeros");
	id[33] = 0x0a;
	tap_ok(!dealloc_nvme_zeros(id, sizeof(id)), "DLFEAT 010b: 0xff, no");
	id[33] = 0x00;
	tap_ok(!dealloc_nvme_zeros(id, sizeof(id)), "DLFEAT 000b: not said");
	memset(pg, 0, sizeof(pg));
	pg[1] = 0xb2;
	pg[5] = 0x80 | 0x04;	/* LBPU, LBPRZ 001b */
	tap_ok(dealloc_vpd_zeros(pg, sizeof(pg)), "LBPRZ 001b: zeros");
	pg[5] = 0x80 | 0x08;
	tap_ok(!dealloc_vpd_zeros(pg, sizeof(pg)), "LBPRZ 010b: a pattern, no");
	pg[5] = 0x80;
	tap_ok(!dealloc_vpd_zeros(pg, sizeof(pg)), "LBPRZ 000b: no");
	pg[1] = 0xb0;
	pg[5] = 0x04;
	tap_ok(!dealloc_vpd_zeros(pg, sizeof(pg)), "not page B2h: no");
	test_asked();
	return tap_done();
}
