/* SPDX-License-Identifier: MIT */
#ifndef KILN_SOLO_H
#define KILN_SOLO_H

#include <signal.h>
#include <stdint.h>
#include <stdio.h>

#include "engine/engine.h"

/*
 * The solo phase (setting solo): before the concurrent burn, each disk is
 * read alone for a while, sequentially from the start of its region with
 * the burn's bs and qd, under the burn's deadline. What a disk does alone
 * is its own speed; what it does beside the others is also its
 * controller's, its expander's and its PCIe link's. Reading never writes,
 * so it is safe on every disk the burn tests.
 */
struct solo_disk {
	int ran;		/* it was read alone */
	double mbps;		/* its rate alone */
	double seconds;		/* how long it was read */
	unsigned io_errors;
	uint64_t error_offset;	/* the first error's byte */
	int error;		/* ...and its errno */
};

struct record;
struct record_disk;

/*
 * Reads d of r alone for r's solo seconds with job's bs, qd, deadline and
 * unit context, and says "solo: sda 512 MB/s (12 s)" on con. A disk that
 * stalls or vanishes gets d->failed (it is not burnt then); *stop (a
 * signal) cuts the read short. 0, or -errno when it could not be read
 * (said on con, and the burn goes on).
 */
int solo_read(struct record *r, struct record_disk *d,
	      const struct engine_job *job, volatile sig_atomic_t *stop,
	      FILE *con);

#endif
