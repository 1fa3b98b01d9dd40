/* SPDX-License-Identifier: MIT */
#ifndef KILN_NVME_ADMIN_H
#define KILN_NVME_ADMIN_H

/*
 * One NVMe admin command through the kernel's passthrough
 * (NVME_IOCTL_ADMIN_CMD), for every part of kiln that asks a controller
 * something (Identify, Get Log Page) or sends it an erase.
 */
#include <stdint.h>

struct nvme_admin {
	uint8_t opcode;
	uint32_t nsid;
	uint32_t cdw10, cdw11, cdw12, cdw13;
	void *buf;		/* the data, either way; NULL with len 0 */
	uint32_t len;
	uint32_t timeout_ms;	/* the driver aborts the command after it */
};

/*
 * Sends a on fd (a namespace's or a controller's node): 0 done, the
 * command's NVMe status (> 0) where the controller refused it, or
 * -errno where the ioctl failed, errno left as the ioctl set it. What
 * a status means is the caller's to say.
 */
int nvme_admin(int fd, const struct nvme_admin *a);

#endif
