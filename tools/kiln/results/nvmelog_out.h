/* SPDX-License-Identifier: MIT */
#ifndef KILN_NVMELOG_OUT_H
#define KILN_NVMELOG_OUT_H

#include "base/json.h"
#include "base/jsonread.h"
#include "judge/record.h"

/*
 * An NVMe drive's own logs (nvmelog.h) in result.json, and read back for
 * kiln finish: a target's "error_log" (entries_before, entries_after and
 * the new entries) and "nvme_logs" (the controller, the health and OCP
 * C0h logs before and after, the telemetry log kept). Their field names
 * are this file's own, its writer's and its reader's (docs/results.md).
 * Nothing is written for a disk whose logs were never asked for.
 */
void nvmelog_out_disk(struct json *j, const struct record_disk *d);

/* The same read back from a target's object t into d. */
void nvmelog_out_read_disk(const struct jsonread_node *t,
			   struct record_disk *d);

#endif
