/* SPDX-License-Identifier: MIT */
/*
 * Description: the stress signal's rule (see stressjudge.h), reached
 * through its judge hook (results/stress_out.c).
 */
#include <stdio.h>
#include <string.h>

#include "judge/record.h"
#include "judge/stressjudge.h"
#include "judge/vitals.h"
#include "sense/stress.h"

/*
 * The memory and CPU stress: a miscompare FAILs the machine (memory is
 * suspected, not a disk); a stress asked for that did not run its
 * course WARNs it, since a PASS must not hide a load that never was.
 */
void stressjudge(struct record *r)
{
	struct stress *st = record_slot(r, STRESS_SLOT);
	const struct stress_miscompare *k;

	if (!st)
		return;
	k = st->kept;
	st->verdict = JUDGE_PASS;
	st->why[0] = 0;
	if (st->miscompares && st->nkept)
		snprintf(st->why, sizeof(st->why), "%s found %llu memory "
			 "miscompare%s, the first at 0x%llx: expected "
			 "0x%016llx, found 0x%016llx", st->tool,
			 (unsigned long long)st->miscompares,
			 st->miscompares == 1 ? "" : "s",
			 (unsigned long long)k->address,
			 (unsigned long long)k->expected,
			 (unsigned long long)k->found);
	else if (st->miscompares)
		snprintf(st->why, sizeof(st->why), "%s found %llu memory "
			 "miscompare%s", st->tool,
			 (unsigned long long)st->miscompares,
			 st->miscompares == 1 ? "" : "s");
	else if (strstr(st->status, "HW problems"))
		snprintf(st->why, sizeof(st->why), "%s: %s", st->tool,
			 st->status);
	if (st->why[0]) {
		st->verdict = JUDGE_FAIL;
		vitals_machine_reason(r, JUDGE_FAIL, st->why);
		return;
	}
	if (st->end == STRESS_NOT_STARTED || st->end == STRESS_DIED)
		snprintf(st->why, sizeof(st->why), "memory and CPU stress %s: "
			 "%s", st->end == STRESS_DIED ? "died" : "did not run",
			 st->problem[0] ? st->problem : "no reason known");
	else if (strstr(st->status, "FAIL"))
		snprintf(st->why, sizeof(st->why), "%s: %s", st->tool,
			 st->status);
	if (st->why[0]) {
		st->verdict = JUDGE_WARN;
		vitals_machine_reason(r, JUDGE_WARN, st->why);
	}
}
