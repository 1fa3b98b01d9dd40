/* SPDX-License-Identifier: MIT */
#ifndef KILN_GATE_H
#define KILN_GATE_H

#include "judge/record.h"
#include "discover/safety.h"
#include "settings/settings.h"

/*
 * The gate every burn passes before any I/O: each disk of the record is
 * opened and classed (all at once, under the deadline), decided on by
 * plan_decide(), and given its region (or the run record's, with --from).
 * Disks kiln run must leave alone are dropped with a note; a disk that
 * does not answer is kept as a FAIL. 0, or the exit code (kiln.h) after
 * saying why in one line: nothing was written then.
 */
int gate_open(struct record *r, struct settings *s,
	      const struct safety_env *env);

#endif
