/* SPDX-License-Identifier: MIT */
#ifndef KILN_RUN_PLAN_H
#define KILN_RUN_PLAN_H

#include "discover/inventory.h"
#include "judge/record.h"
#include "settings/settings.h"

/*
 * kiln run's plan, said on the console: the inventory, what is done to
 * each disk and why, names in the settings that match no disk; each disk
 * to test (and each dead before the burn, a FAIL) put in rec, and a disk
 * missing from expect-disks its failure. *nwrite is how many disks the
 * plan overwrites. 0, or -ENOMEM.
 */
int run_plan_disks(const struct settings *s,
		   const struct discover_inventory *inv, struct record *rec,
		   int *nwrite);

/*
 * Counts seconds down on every console before nwrite disks are
 * overwritten: 1 when a key on any console (or stdin) stopped it, else 0.
 */
int run_plan_countdown(unsigned seconds, int nwrite);

#endif
