/* SPDX-License-Identifier: MIT */
/*
 * Description: one NVMe admin command through the kernel's passthrough
 * (NVME_IOCTL_ADMIN_CMD), the one place kiln fills the kernel's struct:
 * end=sanitize's Identify, Format and Sanitize, discovery's hidden
 * capacity, sanitize status and DLFEAT, and the controllers' logs all
 * send theirs here. Each caller says what a status means to it.
 */
#include <errno.h>
#include <linux/nvme_ioctl.h>
#include <stdint.h>
#include <string.h>
#include <sys/ioctl.h>

#include "base/nvme_admin.h"

int nvme_admin(int fd, const struct nvme_admin *a)
{
	struct nvme_admin_cmd c;
	int ret;

	memset(&c, 0, sizeof(c));
	c.opcode = a->opcode;
	c.nsid = a->nsid;
	c.cdw10 = a->cdw10;
	c.cdw11 = a->cdw11;
	c.cdw12 = a->cdw12;
	c.cdw13 = a->cdw13;
	c.addr = (uint64_t)(uintptr_t)a->buf;
	c.data_len = a->len;
	c.timeout_ms = a->timeout_ms;
	ret = ioctl(fd, NVME_IOCTL_ADMIN_CMD, &c);
	/* A positive return is the command's NVMe status. */
	return ret < 0 ? -errno : ret;
}
