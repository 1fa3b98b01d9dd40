/* SPDX-License-Identifier: MIT */
#ifndef KILN_HEALTH_H
#define KILN_HEALTH_H

#include <stddef.h>

#include "sense/smartjson.h"

/* smartctl, as the image packs it (Debian's smartmontools). */
#define HEALTH_SMARTCTL "/usr/sbin/smartctl"

/*
 * A disk's SMART health as smartctl --json=o -H -A tells it, taken before
 * and after a burn-in: its counters as smartjson.c reads them (c.have: a
 * JSON document came back), and smartctl's own words for the results.
 */
struct health {
	struct smart_counters c;
	char *text;			/* smartctl's text, for a person */
	size_t len;			/* 0: it said nothing, or not in time */
};

/* Runs smartctl on dev (at most timeout_s seconds): 0 or -errno. */
int health_read(const char *smartctl, const char *dev, unsigned timeout_s,
		struct health *h);

/*
 * The same for n disks at once (a NULL dev is skipped): all smartctl run
 * side by side, and those still running after timeout_s are stopped
 * (-ETIMEDOUT; the others' answers are kept).
 */
int health_read_many(const char *smartctl, const char *const *devs, int n,
		     unsigned timeout_s, struct health *hs);

/*
 * Reads one smartctl answer (len bytes of its stdout) into h: the
 * counters, and as h->text its own words (smartctl.output), else the
 * answer itself; out is h's to free from then on.
 */
void health_take(char *out, size_t len, struct health *h);

void health_free(struct health *h);

#endif
