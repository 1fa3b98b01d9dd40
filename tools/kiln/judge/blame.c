/* SPDX-License-Identifier: MIT */
/*
 * Description: transfer errors placed where they belong (see blame.h). A
 * unit read bad and then good was carried wrong, not stored wrong: to fail
 * the disk for it when five disks of one HBA show the same is to blame
 * five healthy drives and keep the HBA. So the place is decided once for
 * the run, from the record's facts alone (each disk's counts, its
 * controller, the machine's EDAC counts), and a restored record decides
 * the same.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/names.h"
#include "base/unit.h"
#include "judge/blame.h"
#include "judge/record.h"
#include "judge/stressjudge.h"
#include "judge/vitals.h"
#include "sense/stress.h"

static const char *const place_names[BLAME_PLACES] = {
	[BLAME_NONE] = "none",
	[BLAME_DISK] = "disk",
	[BLAME_CONTROLLER] = "controller",
	[BLAME_MACHINE] = "machine",
};

const char *blame_place_name(int place)
{
	return place >= 0 && place < BLAME_PLACES ? place_names[place] : "?";
}

int blame_memory_suspected(const struct record *r, char *why, size_t len)
{
	const struct vitals_machine *m = &r->sig;
	long ce, ue, mce = m->cpu.mce.uncorrected;
	const struct stress *st = record_slot(r, STRESS_SLOT);
	unsigned long long sat = st ? st->miscompares : 0;
	size_t used = 0;

	vitals_edac_rises(m, &ce, &ue);
	if (!ce && !ue && !mce && !sat)
		return 0;
	why[0] = 0;
	if (ce || ue)
		used = (size_t)snprintf(why, len, "EDAC counted %ld corrected "
					"and %ld uncorrected memory errors "
					"during the run", ce, ue);
	if (mce && used < len)
		used += (size_t)snprintf(why + used, len - used, "%s%ld "
					 "uncorrected machine check%s in the "
					 "kernel's log", used ? "; " : "", mce,
					 mce == 1 ? "" : "s");
	if (sat && used < len)
		snprintf(why + used, len - used, "%s%llu memory miscompare%s "
			 "by the stress", used ? "; " : "", sat,
			 sat == 1 ? "" : "s");
	return 1;
}

/* The controller a disk sits behind: its index, or -1 (none known). */
static int ctrl_of(const struct record *r, const struct record_disk *d)
{
	return d->link.ctrl >= 0 && d->link.ctrl < r->links.n ?
	       d->link.ctrl : -1;
}

static int counts(const struct record_disk *d)
{
	return !d->failed[0] && blame_transfer(&d->snap) > 0;
}

/* The names of the disks with transfer errors, as ranges. */
static void disk_names(const struct record *r, char *buf, size_t len)
{
	const char **names = calloc((size_t)r->n + 1, sizeof(*names));
	size_t n = 0;
	int i;

	buf[0] = 0;
	if (!names)
		return;
	for (i = 0; i < r->n; i++)
		if (counts(&r->disks[i]))
			names[n++] = r->disks[i].label;
	if (names_ranges(names, n, buf, len) < 0)
		buf[0] = 0;
	free(names);
}

static void say_place(const struct record *r, struct blame *b)
{
	char who[120], units[48];

	disk_names(r, who, sizeof(who));
	snprintf(units, sizeof(units), "%u %s", b->units,
		 unit_plural(b->units, "bad unit", "bad units"));
	if (b->place == BLAME_CONTROLLER) {
		const struct pci_controller *c = &r->links.ctrls[b->ctrl].pci;

		snprintf(b->reason, sizeof(b->reason), "controller %s (%s%s%s)"
			 ": %s read back good on %d of its disks (%s): a "
			 "transfer error of the controller or its backplane, "
			 "not the disks' media", c->pci, c->kind,
			 c->driver[0] ? " " : "", c->driver, units, b->ndisks,
			 who);
	} else if (b->place == BLAME_MACHINE && b->memory) {
		snprintf(b->reason, sizeof(b->reason), "%s read back good on "
			 "%d disk%s (%s), and %s: memory suspected, not the "
			 "disks' media", units, b->ndisks,
			 b->ndisks == 1 ? "" : "s", who, b->memory_why);
	} else if (b->place == BLAME_MACHINE) {
		snprintf(b->reason, sizeof(b->reason), "%s read back good on "
			 "%d disks (%s) %s: a transfer error of what they "
			 "share, the machine (memory, CPU, PCIe, the kernel), "
			 "memory suspected, not the disks' media", units,
			 b->ndisks, who, b->ngroups > 1 ?
			 "behind different controllers" :
			 "with no controller (loop devices or files)");
	}
}

void blame_decide(const struct record *r, struct blame *b)
{
	int i, c, seen_none = 0, *seen;

	memset(b, 0, sizeof(*b));
	b->ctrl = -1;
	seen = calloc((size_t)r->links.n + 1, sizeof(*seen));
	for (i = 0; i < r->n; i++) {
		const struct record_disk *d = &r->disks[i];

		if (!counts(d))
			continue;
		c = ctrl_of(r, d);
		if (!b->ndisks++)
			b->ctrl = c;
		b->units += blame_transfer(&d->snap);
		if (c < 0) {
			b->ngroups += !seen_none;
			seen_none = b->nocontroller = 1;
		} else if (seen && !seen[c]) {
			seen[c] = 1;
			b->ngroups++;
		} else if (!seen) {
			/* Out of memory: only whether they differ counts. */
			b->ngroups += c != b->ctrl;
		}
	}
	free(seen);
	if (!b->ndisks)
		return;
	b->memory = blame_memory_suspected(r, b->memory_why,
					   sizeof(b->memory_why));
	if (b->memory || b->ngroups > 1)
		b->place = BLAME_MACHINE;
	else if (b->ndisks == 1)
		b->place = BLAME_DISK;
	else if (b->ctrl >= 0)
		b->place = BLAME_CONTROLLER;
	else
		/* Loop devices and files share the host, and nothing less. */
		b->place = BLAME_MACHINE;
	if (b->place != BLAME_CONTROLLER)
		b->ctrl = -1;
	say_place(r, b);
}

int blame_disk_reason(const struct record *r, const struct blame *b,
		      const struct record_disk *d, char *buf, size_t len)
{
	unsigned n = counts(d) ? blame_transfer(&d->snap) : 0;
	const char *units = unit_plural(n, "bad unit", "bad units");

	if (!n)
		return -1;
	switch (b->place) {
	case BLAME_DISK:
		snprintf(buf, len, "%u %s read back good: a transfer error "
			 "of its path (drive electronics, cable, controller), "
			 "not the media; no other disk had one", n, units);
		return JUDGE_FAIL;
	case BLAME_CONTROLLER:
		snprintf(buf, len, "%u %s read back good: a transfer error "
			 "placed on controller %s, as %d of its disks had "
			 "them, not on this disk", n, units,
			 r->links.ctrls[b->ctrl].pci.pci, b->ndisks);
		return JUDGE_WARN;
	case BLAME_MACHINE:
		snprintf(buf, len, "%u %s read back good: a transfer error "
			 "placed on the machine (%s), not on this disk", n,
			 units, b->memory ? "memory errors in the run" :
			 b->ngroups > 1 ? "disks of different controllers had "
			 "them" : "several disks with no controller had them");
		return JUDGE_WARN;
	}
	return -1;
}

void blame_judge(struct record *r)
{
	struct blame *b = record_slot_make(r, BLAME_SLOT, sizeof(*b), NULL);
	struct blame alone;
	char text[sizeof(r->disks[0].j.reasons[0])];
	int i, v;

	/* Out of memory: still placed and said, only not kept. */
	if (!b)
		b = &alone;

	blame_decide(r, b);
	if (b->place == BLAME_NONE)
		return;
	for (i = 0; i < r->n; i++) {
		struct record_disk *d = &r->disks[i];

		v = blame_disk_reason(r, b, d, text, sizeof(text));
		if (v >= 0)
			judge_reason(&d->j, v, "%s", text);
	}
	if (b->reason[0])
		vitals_machine_reason(r, JUDGE_FAIL, b->reason);
}
