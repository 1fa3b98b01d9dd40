/* SPDX-License-Identifier: MIT */
/*
 * Description: kiln locate DISK [--off]: lights (or clears) the locate
 * LED of one disk's bay, so a technician finds it in a rack of 60. DISK
 * is a kernel name, serial, WWN or identity, matched as consent matches
 * them; exit 0 done, 2 no such disk, 3 that disk has no LED kiln can
 * reach. Nothing of any disk is read: only sysfs, and the LED's file.
 */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "base/kiln.h"
#include "cmd/leds_use.h"
#include "cmd/locate.h"
#include "discover/discover.h"
#include "plan/plan.h"

const struct options_cmd locate_cmd = {
	"locate", "[--off] [--sysfs-root DIR] DISK",
	"Lights the locate LED of DISK's enclosure bay (--off clears it), "
	"through the enclosure's SES files, else ledmon's ledctl for SGPIO "
	"or VMD. DISK is a kernel name (sdb, /dev/sdb), serial, WWN or the "
	"identity kiln prints. Exit 0 done, 2 no such disk, 3 that disk has "
	"no LED kiln can reach.",
	SCOPE_LOCATE,
};

/* One disk's locate LED: an exit code, said. */
static int locate_one(const char *sysroot, const struct discover_disk *d,
		      int on)
{
	char node[80], why[300], bay[200];
	struct leds_disk w;
	int ret;

	snprintf(node, sizeof(node), "/dev/%s", d->id.name);
	w = leds_use_way(sysroot, &d->slot, d->has_slot, node, d->id.name);
	ret = leds_set(&w, ENCLOSURE_LOCATE, on, why, sizeof(why));
	if (ret < 0) {
		fprintf(stderr, "kiln: %s: no locate LED kiln can reach: %s\n",
			d->id.name, why);
		return KILN_EXIT_CANNOT;
	}
	if (ret == LEDS_SES)
		enclosure_text(&d->slot, bay, sizeof(bay));
	else
		snprintf(bay, sizeof(bay), "by ledctl, which took it (an "
			 "SGPIO or VMD LED cannot be read back)");
	printf("%s: locate LED %s: %s\n", d->id.name, on ? "lit" : "cleared",
	       bay);
	return KILN_EXIT_PASS;
}

int locate_command(struct options_args *a)
{
	struct discover_options o = { .sysroot = "/sys", .procroot = "/proc",
				      .devroot = "/dev", .loops = 1 };
	const struct settings *s = &a->s;
	struct discover_inventory inv;
	char procroot[PATH_MAX];
	const char *want = a->args[0];
	int i, ret, found = 0, code = KILN_EXIT_PASS;

	if (s->sysfs_root) {
		o.sysroot = s->sysfs_root;
		snprintf(procroot, sizeof(procroot), "%s/../proc",
			 s->sysfs_root);
		o.procroot = procroot;
	}
	ret = discover_tree(&o, &inv);
	if (ret) {
		fprintf(stderr, "kiln: discovery failed: %s\n", strerror(-ret));
		return KILN_EXIT_CANNOT;
	}
	/* Two paths to one disk name one bay: each is set, one exit. */
	for (i = 0; i < inv.ndisks; i++) {
		if (!plan_names(want, &inv.disks[i].id))
			continue;
		found++;
		ret = locate_one(o.sysroot, &inv.disks[i], !s->off);
		if (ret > code)
			code = ret;
	}
	if (!found) {
		fprintf(stderr, "kiln: locate: no disk is '%s' (give a kernel "
			"name, serial, WWN or identity: kiln discover lists "
			"them)\n", want);
		code = KILN_EXIT_USAGE;
	}
	discover_free(&inv);
	return code;
}
