/* SPDX-License-Identifier: MIT */
/*
 * Description: what a disk promises a discarded block reads as, asked of
 * the device: an NVMe namespace's DLFEAT (Identify Namespace byte 33), a
 * SCSI disk's LBPRZ (VPD page B2h byte 5, as the kernel keeps it in
 * sysfs: vpd_pgb2), nothing for a loop device or anything else.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/nvme_ioctl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "base/nvme_admin.h"
#include "base/sysfs.h"
#include "discover/dealloc.h"

#define IDNS_DLFEAT 33
#define VPD_B2_FLAGS 5
#define OP_IDENTIFY 0x06
/* The driver aborts a command still out after this. */
#define CMD_TIMEOUT_MS 10000

int dealloc_nvme_zeros(const uint8_t *idns, size_t len)
{
	/* Bits 2:0, the read behaviour of a deallocated block: 001b zeros. */
	return len > IDNS_DLFEAT && (idns[IDNS_DLFEAT] & 0x7) == 1;
}

int dealloc_vpd_zeros(const uint8_t *page, size_t len)
{
	/*
	 * SBC-4's LBPRZ is bits 4:2; xx1b is zeros (010b is a provisioning
	 * pattern, said as no promise). SBC-3's one bit is bit 2: the same.
	 */
	return len > VPD_B2_FLAGS && page[1] == 0xb2 &&
	       (page[VPD_B2_FLAGS] >> 2 & 0x1);
}

static int nvme_promise(int fd, char *why, size_t len)
{
	uint8_t *b = calloc(1, 4096);
	/* CNS 00h (cdw10): the namespace. */
	struct nvme_admin a = { .opcode = OP_IDENTIFY, .buf = b, .len = 4096,
				.timeout_ms = CMD_TIMEOUT_MS };
	int nsid, ret;

	if (!b)
		return 0;
	nsid = ioctl(fd, NVME_IOCTL_ID);
	a.nsid = nsid > 0 ? (uint32_t)nsid : 1;
	/* errno as the ioctl that failed left it (nvme_admin keeps it). */
	if (nsid <= 0 || nvme_admin(fd, &a)) {
		snprintf(why, len, "NVMe Identify Namespace not read: %s",
			 strerror(errno));
		free(b);
		return 0;
	}
	ret = dealloc_nvme_zeros(b, 4096);
	snprintf(why, len, "NVMe DLFEAT %u%u%ub", b[IDNS_DLFEAT] >> 2 & 1,
		 b[IDNS_DLFEAT] >> 1 & 1, b[IDNS_DLFEAT] & 1);
	free(b);
	return ret;
}

int dealloc_promise(const char *sysroot, const char *name, int fd, char *why,
		    size_t len)
{
	char path[600];
	uint8_t page[64];
	ssize_t n;
	char vendor[16];
	int f, ata, zeros;

	if (!strncmp(name, "loop", 4)) {
		snprintf(why, len, "a loop device");
		return 0;
	}
	if (!strncmp(name, "nvme", 4))
		return nvme_promise(fd, why, len);
	snprintf(path, sizeof(path), "%s/class/block/%s/device/vpd_pgb2",
		 sysroot, name);
	f = open(path, O_RDONLY | O_CLOEXEC);
	if (f < 0) {
		snprintf(why, len, "no Logical Block Provisioning page");
		return 0;
	}
	n = read(f, page, sizeof(page));
	close(f);
	if (n <= VPD_B2_FLAGS || page[1] != 0xb2) {
		snprintf(why, len, "no Logical Block Provisioning page");
		return 0;
	}
	/*
	 * An ATA drive (vendor "ATA": SCSI/ATA Translation, libata's or an
	 * HBA's) was asked by TRIM, and its page B2h is the translation's:
	 * LBPRZ set only for a drive whose zeros after TRIM (RZAT, with
	 * DRAT) the translation trusts. Said as ATA, since "SCSI" would send
	 * a reader to the wrong standard; SAT, SCSI/ATA Translation, names
	 * whose page it is. Not page 89h: scsi_debug has one.
	 */
	zeros = dealloc_vpd_zeros(page, (size_t)n);
	snprintf(path, sizeof(path), "%s/class/block/%s/device", sysroot,
		 name);
	ata = sysfs_attr(path, "vendor", vendor, sizeof(vendor)) > 0 &&
	      !strcmp(vendor, "ATA");
	snprintf(why, len, "%s LBPRZ %u%u%ub%s",
		 ata ? (zeros ? "ATA TRIM, RZAT trusted (SAT's" :
			"ATA TRIM, no RZAT trusted (SAT's") : "SCSI",
		 page[VPD_B2_FLAGS] >> 4 & 1, page[VPD_B2_FLAGS] >> 3 & 1,
		 page[VPD_B2_FLAGS] >> 2 & 1, ata ? ")" : "");
	return zeros;
}
