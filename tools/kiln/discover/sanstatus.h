/* SPDX-License-Identifier: MIT */
#ifndef KILN_SANSTATUS_H
#define KILN_SANSTATUS_H

#include <stddef.h>
#include <stdint.h>

#include "engine/sancmd.h"

/*
 * A sanitize left running in a drive (by a kiln that exited, or a power
 * cut): the drive goes on with it and is unusable until it ends, so the
 * next boot must say so and not burn the disk. Read at discovery from an
 * NVMe drive's Sanitize Status log (81h, NVMe Base 2.0), an ATA disk's
 * SANITIZE STATUS EXT (ACS-3), a SCSI disk's REQUEST SENSE (SPC-4).
 */
enum sanstatus_state {
	SANSTATUS_UNREAD,	/* not asked (USB, virtio, loop), or not read */
	SANSTATUS_NO_LOG,	/* the controller has no log 81h (QEMU 7.2) */
	SANSTATUS_NO_STATUS,	/* ATA or SCSI: the question refused */
	SANSTATUS_IDLE,		/* none running, the last did not fail */
	SANSTATUS_RUNNING,	/* in progress: percent done */
	SANSTATUS_FAILED,	/* the last one failed: I/O refused until a
				 * sanitize completes */
};

struct sanstatus {
	int state;		/* enum sanstatus_state */
	unsigned percent;	/* SANSTATUS_RUNNING: 0-99 */
	char why[160];		/* in words, for the console and the plan */
};

/*
 * The decision on log 81h's bytes (512): running, failed or idle, said in
 * s->why. 0, or -EINVAL (too short), s then SANSTATUS_UNREAD.
 */
int sanstatus_decide(const uint8_t *log, size_t len, struct sanstatus *s);

/*
 * What a drive said (sancmd's progress, from log 81h, the ATA status
 * return or SCSI sense), as s: in progress, failed, idle; a state the
 * standard reserves is "no sanitize status", said with source.
 */
void sanstatus_progress(const struct sancmd_progress *p, const char *source,
			struct sanstatus *s);

/* How a disk of this transport (discover_disk's) is asked, if at all. */
enum sanstatus_ask {
	SANSTATUS_ASK_NONE,	/* USB (no ATA command through a bridge),
				 * virtio, loop, dm, mmc, unknown */
	SANSTATUS_ASK_NVME,	/* log 81h */
	SANSTATUS_ASK_SG,	/* SG_IO: ATA or SCSI, as INQUIRY says */
};

int sanstatus_ask(const char *transport);

/* Log 81h read from an open NVMe namespace and decided; never fails. */
void sanstatus_read(int fd, struct sanstatus *s);

/*
 * sanstep_sg_status's answer (kind, its return, p, why) decided: a
 * refusal (ret < 0) is SANSTATUS_NO_STATUS with why, else as p says.
 */
void sanstatus_answer(int kind, int ret, const struct sancmd_progress *p,
		      const char *why, struct sanstatus *s);

/*
 * An ATA or SCSI disk asked through SG_IO (engine's sanstep_sg_status)
 * and decided; a refusal is SANSTATUS_NO_STATUS. Never fails.
 */
void sanstatus_read_sg(int fd, struct sanstatus *s);

/* Whether a disk in this state must not be burnt (running or failed). */
int sanstatus_blocks(const struct sanstatus *s);

/*
 * "no sanitize log", "no sanitize status", "idle", "in progress",
 * "failed"; NULL: unread.
 */
const char *sanstatus_name(int state);

#endif
