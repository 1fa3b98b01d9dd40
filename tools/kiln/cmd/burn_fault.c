/* SPDX-License-Identifier: MIT */
/*
 * Description: where a fault is, for a burn (DESIGN.md "The whole
 * server"): each NVMe disk's controller logs read before and after the
 * burn (nvmelog.h), and for each disk that FAILed what its vendor asks
 * for: an NVMe drive's telemetry log, and rma-<serial>.txt (rma.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/timing.h"
#include "cmd/burn_private.h"
#include "results/rma.h"
#include "sense/nvmelog.h"

/* A controller that has not answered four small reads in this is dead. */
#define NVME_LOGS_TIMEOUT_S 30
/* A telemetry log kept, at most (the bound for a run folder). */
#define TELEMETRY_MAX (64u << 20)

/* The controller of disk d, when d is an NVMe namespace kiln tests. */
static int controller_of(const struct burn *b, const struct record_disk *d,
			 char *dev, size_t len)
{
	if (d->failed[0] || d->t.kind != TARGET_BLOCK || d->t.id.backing[0] ||
	    d->t.id.partition || strncmp(d->t.id.name, "nvme", 4))
		return -ENOENT;
	if (!nvmelog_controller(b->env.sysroot, d->t.id.name, dev, len))
		return 0;
	/* A multipath head: its own device takes admin commands too. */
	snprintf(dev, len, "%s", d->path);
	return 0;
}

void burn_fault_logs(struct burn *b, int after)
{
	struct record *r = b->r;
	const char **devs = calloc((size_t)r->n + 1, sizeof(*devs));
	char (*dev)[64] = calloc((size_t)r->n + 1, sizeof(*dev));
	struct nvmelog *out = calloc((size_t)r->n + 1, sizeof(*out));
	int i, any = 0;

	for (i = 0; devs && dev && out && i < r->n; i++)
		if (!controller_of(b, &r->disks[i], dev[i], sizeof(dev[i]))) {
			devs[i] = dev[i];
			any = 1;
		}
	if (any) {
		nvmelog_read_many(devs, r->n, NVME_LOGS_TIMEOUT_S * TIMING_SEC,
				  out);
		for (i = 0; i < r->n; i++) {
			struct record_disk *d = &r->disks[i];

			if (!devs[i])
				continue;
			if (out[i].why[0])
				record_note(r, "%s: NVMe logs %s the run: %s",
					    d->label, after ? "after" :
					    "before", out[i].why);
			if (after)
				d->nv_after = out[i];
			else
				d->nv_before = out[i];
		}
	}
	free(devs);
	free(dev);
	free(out);
}

/* A FAILed NVMe drive's telemetry log, into the run folder. */
static void telemetry(struct burn *b, struct record_disk *d)
{
	const struct nvmelog *l = d->nv_after.asked ? &d->nv_after :
				  &d->nv_before;
	char name[300], why[160];
	void *buf;
	size_t len;

	if (!l->asked || !l->dev[0])
		return;
	if (!l->id.have || !l->id.telemetry) {
		snprintf(d->telemetry, sizeof(d->telemetry), "not kept: the "
			 "drive has no host-initiated telemetry log");
		return;
	}
	fprintf(b->con, "kiln: %s: reading its telemetry log (at most %u "
		"MiB)\n", d->label, TELEMETRY_MAX >> 20);
	fflush(b->con);
	if (nvmelog_telemetry(l->dev, TELEMETRY_MAX, b->job.deadline_ns, &buf,
			      &len, why, sizeof(why))) {
		snprintf(d->telemetry, sizeof(d->telemetry), "not kept: %s",
			 why);
		return;
	}
	snprintf(name, sizeof(name), "telemetry-%s.bin", d->label);
	if (!burn_keep(b, name, buf, len)) {
		snprintf(d->telemetry, sizeof(d->telemetry), "%s", name);
		d->telemetry_len = len;
	} else {
		snprintf(d->telemetry, sizeof(d->telemetry), "not kept: %s "
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
