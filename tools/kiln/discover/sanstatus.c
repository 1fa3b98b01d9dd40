/* SPDX-License-Identifier: MIT */
/*
 * Description: a sanitize still running in an NVMe drive, found at
 * discovery: the Sanitize Status log (81h) read through the admin
 * passthrough of the namespace, parsed by engine/sancmd.c's reader, and
 * the decision (in progress, with how far; the last one failed; none; no
 * such log on this controller) said in words for the plan and the
 * inventory.
 */
#include <errno.h>
#include <linux/nvme_ioctl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>

#include "discover/sanstatus.h"
#include "engine/sancmd.h"

#define OP_GET_LOG 0x02
#define NSID_ALL 0xffffffffu
/* An admin command at discovery: the deadline of the child bounds it. */
#define LOG_TIMEOUT_MS 10000

int sanstatus_decide(const uint8_t *log, size_t len, struct sanstatus *s)
{
	struct sancmd_progress p;

	memset(s, 0, sizeof(*s));
	if (sancmd_nvme_log(log, len, SANCMD_NONE, &p))
		return -EINVAL;
	switch (p.state) {
	case SANCMD_RUNNING:
		s->state = SANSTATUS_RUNNING;
		s->percent = p.percent;
		snprintf(s->why, sizeof(s->why), "sanitize in progress (%u%% "
			 "done): the drive is unusable until it ends; not "
			 "burnt", p.percent);
		break;
	case SANCMD_FAILED:
		s->state = SANSTATUS_FAILED;
		snprintf(s->why, sizeof(s->why), "the last sanitize failed: "
			 "the drive refuses I/O until a sanitize completes; "
			 "not burnt");
		break;
	default:
		s->state = SANSTATUS_IDLE;
		snprintf(s->why, sizeof(s->why), "no sanitize running");
		break;
	}
	return 0;
}

void sanstatus_read(int fd, struct sanstatus *s)
{
	struct nvme_admin_cmd c;
	uint8_t *log = calloc(1, SANCMD_NVME_LOG_LEN);
	int ret;

	memset(s, 0, sizeof(*s));
	if (!log)
		return;
	memset(&c, 0, sizeof(c));
	c.opcode = OP_GET_LOG;
	c.nsid = NSID_ALL;
	c.addr = (uint64_t)(uintptr_t)log;
	c.data_len = SANCMD_NVME_LOG_LEN;
	/* NUMDL, bits 31:16: the dwords to read, less one. */
	c.cdw10 = SANCMD_NVME_SANITIZE_LOG |
		  (SANCMD_NVME_LOG_LEN / 4 - 1) << 16;
	c.timeout_ms = LOG_TIMEOUT_MS;
	ret = ioctl(fd, NVME_IOCTL_ADMIN_CMD, &c);
	if (ret > 0) {
		/* An NVMe status: no such log page here. */
		s->state = SANSTATUS_NO_LOG;
		snprintf(s->why, sizeof(s->why), "no sanitize log (log 81h "
			 "refused, status 0x%x)", (unsigned)ret);
	} else if (ret < 0) {
		snprintf(s->why, sizeof(s->why), "sanitize log not read: %s",
			 strerror(errno));
	} else {
		sanstatus_decide(log, SANCMD_NVME_LOG_LEN, s);
	}
	free(log);
}

int sanstatus_blocks(const struct sanstatus *s)
{
	return s->state == SANSTATUS_RUNNING || s->state == SANSTATUS_FAILED;
}

const char *sanstatus_name(int state)
{
	switch (state) {
	case SANSTATUS_NO_LOG: return "no sanitize log";
	case SANSTATUS_IDLE: return "idle";
	case SANSTATUS_RUNNING: return "in progress";
	case SANSTATUS_FAILED: return "failed";
	}
	return NULL;
}
