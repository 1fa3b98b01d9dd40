/* SPDX-License-Identifier: MIT */
#ifndef KILN_RESTORE_H
#define KILN_RESTORE_H

#include <limits.h>
#include <stddef.h>

#include "base/jsonread.h"
#include "judge/record.h"

/* A run's record read back, and what it points to. */
struct restored {
	struct record r;
	struct settings s;
	/* a disk's slowest and fastest seconds */
	struct monitor_target *mt;
	char (*safety)[240];	/* what each disk's plan.why points to */
	char command[16];
	char from[PATH_MAX];	/* a verify's run record, r.from */
	char kiln_version[64];	/* the kiln and kernel that ran it */
	char kernel[128];
};

/*
 * Reads a kiln-result document (a checkpoint's "result" or result.json)
 * into out->r: 0, or -errno with one line in err. The disks have no
 * engine: their snapshots are the document's.
 */
int restore_record(const struct jsonread_node *doc, struct restored *out,
		   char *err, size_t errlen);
void restore_free(struct restored *out);

/*
 * The verdicts as the document says them, over what restore_record set:
 * the run's, its state and exit code, the machine's with its reasons; and
 * the kiln and kernel that ran it. kiln report renders a record as it was
 * judged, never judging it again (its per-second series and request times
 * are not all in the document).
 */
void restore_verdicts(const struct jsonread_node *doc, struct restored *out);

/*
 * Each disk's request times by phase (a target's "latency"), its zones'
 * rates (its "zones") and its phases' times from their rates (kept to
 * more digits than their seconds), over what restore_record set, for
 * kiln report to say them as the run did; kiln finish judges as it always
 * has.
 */
void restore_latency(const struct jsonread_node *doc, struct restored *out);

#endif
