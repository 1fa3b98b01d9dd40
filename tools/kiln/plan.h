/* SPDX-License-Identifier: MIT */
#ifndef KILN_PLAN_H
#define KILN_PLAN_H

#include "discover.h"
#include "settings.h"

/* What kiln run does with a disk. */
enum plan_action {
	PLAN_SKIP,		/* not touched at all */
	PLAN_READ,		/* tested read-only */
	PLAN_WRITE,		/* written and verified */
};

struct plan_item {
	int action;		/* enum plan_action */
	char why[240];
};

/*
 * Whether the settings consent to overwriting this disk: destroy-data=1,
 * or its serial or WWN is in the destroy-data list.
 */
int plan_consent(const struct settings *s, const struct identity *id);

/*
 * Whether any of the globs (separated by commas or spaces) matches the
 * disk's name, serial, WWN (with or without its naa./eui. prefix), model,
 * or its controller's PCI address or driver. Case does not matter.
 */
int plan_matches(const char *globs, const struct discover_disk *d,
		 const struct pci_controller *c);

/* What to do with each disk of inv (items has inv->ndisks entries). */
void plan_choose(const struct settings *s, const struct discover_inventory *inv,
		 struct plan_item *items);

const char *plan_action_name(int action);

#endif
