/* SPDX-License-Identifier: MIT */
#ifndef KILN_VITALS_OUT_H
#define KILN_VITALS_OUT_H

#include "base/json.h"
#include "base/jsonread.h"
#include "judge/record.h"

/*
 * The machine's own signals told (vitals.h): in result.json, a target's
 * "signals" and the run's "machine" (docs/results.md), read back the
 * same way for kiln finish.
 */

/* A target's "signals" object. */
void vitals_out_disk(struct json *j, const struct record *r,
		     const struct record_disk *d);

/* The run's "machine" object. */
void vitals_out_machine(struct json *j, const struct record *r);

/*
 * A target's signals from its object (0), and the machine's (0 or
 * -ENOMEM) (restore.c).
 */
int vitals_out_read_disk(const struct jsonread_node *t,
			 struct record_disk *d);
int vitals_out_read_machine(const struct jsonread_node *doc,
			    struct record *r);

#endif
