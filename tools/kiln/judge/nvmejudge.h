/* SPDX-License-Identifier: MIT */
#ifndef KILN_NVMEJUDGE_H
#define KILN_NVMEJUDGE_H

#include "judge/judge.h"
#include "sense/nvmelog.h"
#include "sense/smartjson.h"

/*
 * An NVMe drive's own logs before and after the run (nvmelog.h), judged
 * against the limits of OCP's Datacenter NVMe SSD Specification 2.0:
 * available spare under its threshold FAILs; spare that fell but is above
 * it, new error log entries, and growth of the extended log's (C0h) bad
 * NAND blocks, end-to-end detected errors or PCIe correctable errors by
 * these or more WARN. A critical warning and grown media errors are
 * judge_health()'s, from smartctl; only when smartctl said nothing are
 * the health logs handed to it instead, so each rule has one place.
 */
#define NVMEJUDGE_BAD_NAND 3
#define NVMEJUDGE_E2E 2
#define NVMEJUDGE_PCIE_COR 50

struct record_disk;

/*
 * The nvme signal's slot of a disk (record_disk_slot()): made when the
 * disk is an NVMe namespace whose controller's logs were read, or read
 * back from result.json; none: a disk with no NVMe logs.
 */
#define NVME_SLOT "nvme"

struct nvme_disk {
	struct nvmelog before, after;	/* its controller's own logs */
	/* a FAILed drive's telemetry log: the file kept, or why not */
	char telemetry[200];
	size_t telemetry_len;		/* its bytes; 0: none kept */
};

/*
 * d's slot, made (both logs nvmelog_init()) if need be; NULL when out of
 * memory or every slot of the disk is taken.
 */
struct nvme_disk *nvme_disk_make(struct record_disk *d);

/*
 * d's slot to read; with none, logs never asked for (all zero: neither
 * asked nor read, no identity, no health, no telemetry file).
 */
const struct nvme_disk *nvme_disk_of(const struct record_disk *d);

/* Adds d's reasons to j; smart_after is smartctl's after the run. */
void nvmejudge_disk(const struct nvmelog *before, const struct nvmelog *after,
		    const struct smart_counters *smart_after, struct judge *j);

/*
 * The error log entries of after that are new since before: those whose
 * count is past before's count of entries (or all, when before was not
 * read): how many of after->errors, the newest first, are new.
 */
int nvmejudge_new_errors(const struct nvmelog *before,
			 const struct nvmelog *after);

#endif
