/* SPDX-License-Identifier: MIT */
/*
 * Description: where a fault is, for a burn (DESIGN.md "The whole
 * server"): for each disk that FAILed what its vendor asks for: an NVMe
 * drive's telemetry log, and rma-<serial>.txt (rma.h). The NVMe logs
 * before and after the burn are the nvme signal's (nvmelog_out.c).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/timing.h"
#include "cmd/burn_private.h"
#include "judge/nvmejudge.h"
#include "results/rma.h"
#include "sense/nvmelog.h"

/* A telemetry log kept, at most (the bound for a run folder). */
#define TELEMETRY_MAX (64u << 20)

/* A FAILed NVMe drive's telemetry log, into the run folder. */
static void telemetry(struct burn *b, struct record_disk *d)
{
	struct nvme_disk *nv = record_disk_slot(d, NVME_SLOT);
	const struct nvmelog *l;
	char name[300], why[160];
	void *buf;
	size_t len;

	if (!nv)
		return;
	l = nv->after.asked ? &nv->after : &nv->before;
	if (!l->asked || !l->dev[0])
		return;
	if (!l->id.have || !l->id.telemetry) {
		snprintf(nv->telemetry, sizeof(nv->telemetry), "not kept: the "
			 "drive has no host-initiated telemetry log");
		return;
	}
	fprintf(b->con, "kiln: %s: reading its telemetry log (at most %u "
		"MiB)\n", d->label, TELEMETRY_MAX >> 20);
	fflush(b->con);
	if (nvmelog_telemetry(l->dev, TELEMETRY_MAX, b->job.deadline_ns, &buf,
			      &len, why, sizeof(why))) {
		snprintf(nv->telemetry, sizeof(nv->telemetry), "not kept: %s",
			 why);
		return;
	}
	snprintf(name, sizeof(name), "telemetry-%s.bin", d->label);
	if (!burn_keep(b, name, buf, len)) {
		snprintf(nv->telemetry, sizeof(nv->telemetry), "%s", name);
		nv->telemetry_len = len;
	} else {
		snprintf(nv->telemetry, sizeof(nv->telemetry), "not kept: %s "
			 "could not be written", name);
	}
	free(buf);
}

void burn_fault_keep(struct burn *b)
{
	struct record *r = b->r;
	char name[96];
	size_t len;
	char *text;
	int i;

	for (i = 0; i < r->n; i++) {
		struct record_disk *d = &r->disks[i];

		if (d->j.verdict != JUDGE_FAIL)
			continue;
		if (b->have_results)
			telemetry(b, d);
		rma_name(d, name, sizeof(name));
		text = rma_text(r, d, &len);
		burn_keep(b, name, text, len);
		free(text);
	}
}
