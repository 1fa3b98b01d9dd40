/* SPDX-License-Identifier: MIT */
#ifndef KILN_LEDS_H
#define KILN_LEDS_H

#include <stddef.h>

#include "discover/enclosure.h"

/*
 * A disk's LEDs, the one way kiln sets them (the end of a run, kiln
 * locate): through its SES bay's files when it has one, else Debian's
 * ledmon (ledctl) for the LEDs an HBA drives itself (SGPIO on AHCI,
 * Intel VMD), which have no sysfs files. A disk neither reaches has no
 * LED kiln can light, and that is said, never a stop.
 */
#define LEDS_LEDCTL "/usr/sbin/ledctl"

/* ledctl is given this long: it must never hold up the end of a run. */
#define LEDS_LEDCTL_MS 15000

/* How an LED was set. */
enum leds_way {
	LEDS_SES = 1,		/* the bay's fault or locate file */
	LEDS_BY_LEDCTL,		/* ledctl said yes: all kiln can know */
};

/* One disk's way to its LEDs. */
struct leds_disk {
	const struct enclosure_slot *slot;	/* its bay, or NULL */
	/*
	 * /dev/NAME for ledctl, or NULL: not tried (no device node, or a
	 * sysfs tree that is not this machine's).
	 */
	const char *devnode;
	const char *ledctl;	/* its path; NULL: LEDS_LEDCTL */
};

/*
 * Lights (on) or clears the disk's fault or locate LED: a leds_way, or
 * -errno with why in why (-ENODEV: no LED kiln can reach).
 */
int leds_set(const struct leds_disk *d, enum enclosure_led led, int on,
	     char *why, size_t len);

/*
 * The same for n disks at once (ledctl runs side by side, under one
 * timeout): ret[i] as leds_set() returns, why[i] of whylen bytes each.
 */
void leds_set_many(const struct leds_disk *d, int n, enum enclosure_led led,
		   int on, int *ret, char *why, size_t whylen);

#endif
