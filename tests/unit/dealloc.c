/* SPDX-License-Identifier: MIT */
/*
 * Description: what a device promises a discarded block reads as, from
 * its bytes: NVMe DLFEAT 001b is zeros, 010b (0xff) and 000b are not;
 * SCSI LBPRZ xx1b is zeros (SBC-3's one bit too), 010b and 000b are not,
 * and a page that is not B2h promises nothing.
 */
#include <stdint.h>
#include <string.h>

#include "../lib/tap.h"
#include "discover/dealloc.h"

int main(int argc, char **argv)
{
	uint8_t id[4096], pg[64];

	(void)argc;
	(void)argv;
	tap_plan(7);
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
	return tap_done();
}
