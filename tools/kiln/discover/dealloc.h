/* SPDX-License-Identifier: MIT */
#ifndef KILN_DEALLOC_H
#define KILN_DEALLOC_H

#include <stddef.h>
#include <stdint.h>

/*
 * What a disk promises a deallocated (discarded) block reads as: zeros
 * when the device says so (NVMe: DLFEAT's read behaviour 001b in Identify
 * Namespace; SCSI: LBPRZ in the Logical Block Provisioning VPD page B2h,
 * which libata also gives a SATA drive whose RZAT the kernel trusts),
 * else nothing. end=discard judges a read-back only against a promise.
 */

/* 1 when Identify Namespace's bytes (4096) promise zeros, else 0. */
int dealloc_nvme_zeros(const uint8_t *idns, size_t len);

/* 1 when VPD page B2h's bytes promise zeros (LBPRZ xx1b), else 0. */
int dealloc_vpd_zeros(const uint8_t *page, size_t len);

/*
 * Asks the disk named name (under sysroot; fd open on it): 1 zeros are
 * promised, 0 not, and in words what says so into why ("NVMe DLFEAT
 * 001b", "SCSI LBPRZ", "a loop device", ...). An NVMe disk is asked by an
 * admin command: call it where a hang is watched.
 */
int dealloc_promise(const char *sysroot, const char *name, int fd, char *why,
		    size_t len);

#endif
