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
 * kernel's admin ioctl. Every call waits on the disk: the end step's
 * thread makes them, watched (endstep.h).
 */
struct sanstep {
	struct sancmd_choice choice;	/* the method, and why (none too) */
	struct sancmd_nvme_format format;	/* Format NVM as sent */
	struct sancmd_nvme cmd;		/* a Sanitize as sent */
	int zeros;		/* DLFEAT 001b: erased blocks read as zeros */
	char promise_why[64];	/* what says so: "NVMe DLFEAT 001b" */
	uint64_t deadline;	/* seconds the command is given */
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

/* Sends s's method and waits for it: 0, or -errno (-EIO: the drive's). */
int sanstep_send(int fd, const struct sanstep *s);

/* One read of the Sanitize Status log (81h), for method's estimate. */
int sanstep_log(int fd, int method, struct sancmd_progress *p);

/* What the step does after a read of the log (pure). */
enum sanstep_next {
	SANSTEP_WAIT,		/* not over: read it again */
	SANSTEP_DONE,		/* the Sanitize kiln sent (cdw10) completed */
	SANSTEP_FAILED,		/* it failed */
	SANSTEP_LATE,		/* waited past deadline seconds */
};

int sanstep_next(const struct sancmd_progress *p, uint32_t cdw10,
		 uint64_t waited, uint64_t deadline);

/* Whether method is one of NVMe Sanitize's (followed in the log). */
int sanstep_followed(int method);

/* "Format NVM, user data erase (SES 1)": the method as sent, in words. */
const char *sanstep_words(const struct sanstep *s, char *buf, size_t len);

#endif
