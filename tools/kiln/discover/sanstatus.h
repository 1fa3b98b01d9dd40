/* SPDX-License-Identifier: MIT */
#ifndef KILN_SANSTATUS_H
#define KILN_SANSTATUS_H

#include <stddef.h>
#include <stdint.h>

/*
 * A sanitize left running in an NVMe drive (by a kiln that exited, or a
 * power cut): the drive goes on with it and is unusable until it ends,
 * so the next boot must say so and not burn the disk. Read from the
 * Sanitize Status log (81h, NVMe Base 2.0) at discovery.
 */
enum sanstatus_state {
	SANSTATUS_UNREAD,	/* not an NVMe namespace, or not read */
	SANSTATUS_NO_LOG,	/* the controller has no log 81h (QEMU 7.2) */
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

/* Log 81h read from an open NVMe namespace and decided; never fails. */
void sanstatus_read(int fd, struct sanstatus *s);

/* Whether a disk in this state must not be burnt (running or failed). */
int sanstatus_blocks(const struct sanstatus *s);

/* "no sanitize log", "idle", "in progress", "failed"; NULL: unread. */
const char *sanstatus_name(int state);

#endif
