/* SPDX-License-Identifier: MIT */
#ifndef KILN_SANSTEP_H
#define KILN_SANSTEP_H

#include <stddef.h>
#include <stdint.h>

#include "engine/sancmd.h"

/*
 * The device's own sanitize on one disk, sent: what an NVMe controller
 * says it has (Identify Controller, Namespace, the active namespace
 * list), the method chosen by sancmd, and the command through the
 * kernel's admin ioctl; for an ATA or SCSI disk, the same through SG_IO
 * (sanstep_sg.c). Every call waits on the disk: the end step's thread
 * makes them, watched (endstep.h).
 */
/* What the disk is, and so which commands it is sent. */
enum sanstep_kind {
	SANSTEP_NVME,		/* an NVMe namespace: admin commands */
	SANSTEP_ATA,		/* behind libata: ATA PASS-THROUGH(16) */
	SANSTEP_SCSI,		/* a SCSI logical unit: SANITIZE */
	SANSTEP_OTHER,		/* none of them: no command */
};

struct sanstep {
	int kind;		/* enum sanstep_kind */
	struct sancmd_choice choice;	/* the method, and why (none too) */
	struct sancmd_nvme_format format;	/* Format NVM as sent */
	struct sancmd_nvme cmd;		/* a Sanitize as sent */
	int zeros;		/* DLFEAT 001b: erased blocks read as zeros */
	char promise_why[64];	/* what says so: "NVMe DLFEAT 001b" */
	uint64_t deadline;	/* seconds the command is given */
	/* ATA and SCSI (sanstep_sg.c): the command sent, as bytes. */
	uint8_t cdb[16];
	unsigned cdb_len;
	uint8_t param[8];	/* SCSI overwrite's parameter list */
	size_t param_len;
	/* What sending it did beyond its answer, in words ("" none). */
	char note[160];
	/* kiln's ATA user password may be in force: the drive locks at power-on */
	int password_left;
};

/*
 * Asks the disk behind fd what it has, into s: 0 with s->choice.method
 * the method kiln sends (SANCMD_NONE with why when there is none), or
 * -errno when the disk did not answer an Identify (why says which).
 * rotating picks the default deadline where the drive gives none.
 */
int sanstep_choose(int fd, int rotating, struct sanstep *s);

/*
 * Whether an Identify namespace list (CNS 02h or 10h: IDs, the first zero
 * ends it) of len bytes holds no namespace but nsid: 1, or 0.
 */
int sanstep_alone(const uint8_t *list, size_t len, uint32_t nsid);

/*
 * Sends s's method and waits for it: 0, or -errno (-EIO: the drive's);
 * s->note says what else was done (a password set and cleared).
 */
int sanstep_send(int fd, struct sanstep *s);

/* One read of the Sanitize Status log (81h), for method's estimate. */
int sanstep_log(int fd, int method, struct sancmd_progress *p);

/*
 * One look at how far s's sanitize is, whatever the disk (the NVMe log,
 * ATA SANITIZE STATUS EXT, SCSI REQUEST SENSE), and what the step does
 * after it (enum sanstep_next), waited seconds after it was sent.
 */
int sanstep_poll(int fd, const struct sanstep *s, struct sancmd_progress *p);
int sanstep_poll_next(const struct sanstep *s,
		      const struct sancmd_progress *p, uint64_t waited);

/* What the step does after a read of the log (pure). */
enum sanstep_next {
	SANSTEP_WAIT,		/* not over: read it again */
	SANSTEP_DONE,		/* the Sanitize kiln sent (cdw10) completed */
	SANSTEP_FAILED,		/* it failed */
	SANSTEP_LATE,		/* waited past deadline seconds */
};

int sanstep_next(const struct sancmd_progress *p, uint32_t cdw10,
		 uint64_t waited, uint64_t deadline);

/* Whether method is one of the Sanitizes (followed until it is over). */
int sanstep_followed(int method);

/* "Format NVM, user data erase (SES 1)": the method as sent, in words. */
const char *sanstep_words(const struct sanstep *s, char *buf, size_t len);

/* ---- ATA and SCSI, through SG_IO (sanstep_sg.c) ---- */

/* What an INQUIRY's answer makes the disk: SANSTEP_ATA or SANSTEP_SCSI. */
int sanstep_sg_kind(const uint8_t *inquiry, size_t len);

/*
 * Sense data in words, for a refusal said: "ILLEGAL REQUEST, INVALID
 * COMMAND OPERATION CODE (ASC/ASCQ 20h/00h)".
 */
const char *sanstep_sg_said(const uint8_t *sense, size_t len, char *buf,
			    size_t blen);

/*
 * sanstep_choose for a disk that is not NVMe: its INQUIRY, then an ATA
 * disk's IDENTIFY DEVICE or a SCSI one's REPORT SUPPORTED OPERATION
 * CODES, and the method chosen (kind OTHER, none, where SG_IO is not
 * answered at all).
 */
int sanstep_sg_choose(int fd, int rotating, struct sanstep *s);
int sanstep_sg_send(int fd, struct sanstep *s);
int sanstep_sg_poll(int fd, const struct sanstep *s,
		    struct sancmd_progress *p);

/*
 * Whether a sanitize runs in a disk that is not NVMe, asked at discovery:
 * INQUIRY into *kind, then an ATA disk's IDENTIFY DEVICE (no SANITIZE
 * feature set: -EOPNOTSUPP) and SANITIZE STATUS EXT, or a SCSI one's
 * REQUEST SENSE, into p. 0, or -errno with why the question went
 * unanswered (-EIO: refused). Never call it on a disk behind USB.
 */
int sanstep_sg_status(int fd, int *kind, struct sancmd_progress *p,
		      char *why, size_t wlen);

/*
 * Whether an ATA SANITIZE can start, from SANITIZE STATUS EXT's answer
 * before it (pure): NULL, or why not (frozen, or one already running).
 */
const char *sanstep_sg_ata_ready(const struct sancmd_progress *p);

/*
 * After one look at an ATA or SCSI sanitize (pure): ATA's status says
 * done itself; SCSI's REQUEST SENSE says only that none runs any more,
 * which after a SANITIZE taken is done; failed is failed; anything else
 * waits, to the deadline.
 */
int sanstep_sg_next(int kind, const struct sancmd_progress *p,
		    uint64_t waited, uint64_t deadline);

#endif
