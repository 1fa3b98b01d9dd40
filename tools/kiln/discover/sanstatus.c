/* SPDX-License-Identifier: MIT */
/*
 * Description: a sanitize still running in a drive, found at discovery:
 * an NVMe drive's Sanitize Status log (81h) read through the admin
 * passthrough of the namespace, an ATA disk's SANITIZE STATUS EXT or a
 * SCSI disk's REQUEST SENSE asked through SG_IO by engine/sanstep_sg.c
 * (never a disk behind USB), each parsed by engine/sancmd.c's readers,
 * and the decision (in progress, with how far; the last one failed;
 * none; no such log, or the question refused) said in words for the plan
 * and the inventory.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/nvme_admin.h"
#include "discover/sanstatus.h"
#include "engine/sancmd.h"
#include "engine/sanstep.h"

#define OP_GET_LOG 0x02
#define NSID_ALL 0xffffffffu
/* An admin command at discovery: the deadline of the child bounds it. */
#define LOG_TIMEOUT_MS 10000

void sanstatus_progress(const struct sancmd_progress *p, const char *source,
			struct sanstatus *s)
{
	memset(s, 0, sizeof(*s));
	switch (p->state) {
	case SANCMD_RUNNING:
		s->state = SANSTATUS_RUNNING;
		s->percent = p->percent > 99 ? 99 : p->percent;
		snprintf(s->why, sizeof(s->why), "sanitize in progress (%u%% "
			 "done): the drive is unusable until it ends; not "
			 "burnt", s->percent);
		break;
	case SANCMD_FAILED:
		s->state = SANSTATUS_FAILED;
		snprintf(s->why, sizeof(s->why), "the last sanitize failed: "
			 "the drive refuses I/O until a sanitize completes; "
			 "not burnt");
		break;
	case SANCMD_UNKNOWN:
		s->state = SANSTATUS_NO_STATUS;
		snprintf(s->why, sizeof(s->why), "no sanitize status (%s: "
			 "none the standard defines)", source);
		break;
	default:
		s->state = SANSTATUS_IDLE;
		snprintf(s->why, sizeof(s->why), "no sanitize running");
		break;
	}
}

int sanstatus_decide(const uint8_t *log, size_t len, struct sanstatus *s)
{
	struct sancmd_progress p;

	memset(s, 0, sizeof(*s));
	if (sancmd_nvme_log(log, len, SANCMD_NONE, &p))
		return -EINVAL;
	sanstatus_progress(&p, "log 81h", s);
	return 0;
}

int sanstatus_ask(const char *transport)
{
	static const char *const sg[] = { "ata", "sata", "sas", "scsi",
					  "virtio-scsi" };
	size_t i;

	if (!strcmp(transport, "nvme"))
		return SANSTATUS_ASK_NVME;
	for (i = 0; i < sizeof(sg) / sizeof(sg[0]); i++)
		if (!strcmp(transport, sg[i]))
			return SANSTATUS_ASK_SG;
	return SANSTATUS_ASK_NONE;
}

void sanstatus_answer(int kind, int ret, const struct sancmd_progress *p,
		      const char *why, struct sanstatus *s)
{
	memset(s, 0, sizeof(*s));
	if (ret) {
		s->state = SANSTATUS_NO_STATUS;
		snprintf(s->why, sizeof(s->why), "no sanitize status (%s)",
			 why);
		return;
	}
	sanstatus_progress(p, kind == SANSTEP_ATA ? "SANITIZE STATUS EXT" :
			   "REQUEST SENSE", s);
}

void sanstatus_read_sg(int fd, struct sanstatus *s)
{
	struct sancmd_progress p;
	char why[128] = "";
	int kind = 0, ret;

	ret = sanstep_sg_status(fd, &kind, &p, why, sizeof(why));
	sanstatus_answer(kind, ret, &p, why, s);
}

void sanstatus_read(int fd, struct sanstatus *s)
{
	uint8_t *log = calloc(1, SANCMD_NVME_LOG_LEN);
	/* NUMDL, bits 31:16: the dwords to read, less one. */
	struct nvme_admin a = { .opcode = OP_GET_LOG, .nsid = NSID_ALL,
				.cdw10 = SANCMD_NVME_SANITIZE_LOG |
					 (SANCMD_NVME_LOG_LEN / 4 - 1) << 16,
				.buf = log, .len = SANCMD_NVME_LOG_LEN,
				.timeout_ms = LOG_TIMEOUT_MS };
	int ret;

	memset(s, 0, sizeof(*s));
	if (!log)
		return;
	ret = nvme_admin(fd, &a);
	if (ret > 0) {
		/* An NVMe status: no such log page here. */
		s->state = SANSTATUS_NO_LOG;
		snprintf(s->why, sizeof(s->why), "no sanitize log (log 81h "
			 "refused, status 0x%x)", (unsigned)ret);
	} else if (ret < 0) {
		snprintf(s->why, sizeof(s->why), "sanitize log not read: %s",
			 strerror(-ret));
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
	case SANSTATUS_NO_STATUS: return "no sanitize status";
	case SANSTATUS_IDLE: return "idle";
	case SANSTATUS_RUNNING: return "in progress";
	case SANSTATUS_FAILED: return "failed";
	}
	return NULL;
}
