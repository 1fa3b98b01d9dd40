/* SPDX-License-Identifier: MIT */
/*
 * Description: choosing disks for kiln run: each class gets its action,
 * include and exclude match by serial, WWN, model, name, controller PCI
 * address or driver (globs, any case), and consent to destroy data can be
 * given disk by disk.
 */
#include <string.h>

#include "../lib/tap.h"
#include "plan.h"

static struct pci_controller ctrls[2];
static struct discover_disk disks[5];
static struct discover_inventory inv = { .ctrls = ctrls, .nctrls = 2,
					 .disks = disks, .ndisks = 5 };

static void disk(int i, const char *name, const char *serial,
		 const char *wwid, const char *model, int ctrl, int class)
{
	struct discover_disk *d = &disks[i];

	memset(d, 0, sizeof(*d));
	snprintf(d->id.name, sizeof(d->id.name), "%s", name);
	snprintf(d->id.serial, sizeof(d->id.serial), "%s", serial);
	snprintf(d->id.wwid, sizeof(d->id.wwid), "%s", wwid);
	snprintf(d->id.model, sizeof(d->id.model), "%s", model);
	d->controller = ctrl;
	d->safety.class = class;
	d->size = 1 << 30;
}

static const char *actions(const struct settings *s)
{
	static char out[64];
	struct plan_item items[5];
	int i;

	plan_choose(s, &inv, items);
	out[0] = 0;
	for (i = 0; i < 5; i++)
		strcat(out, items[i].action == PLAN_WRITE ? "W" :
		       items[i].action == PLAN_READ ? "R" : "-");
	return out;
}

int main(void)
{
	struct settings s;
	char err[200];

	snprintf(ctrls[0].pci, sizeof(ctrls[0].pci), "0000:03:00.0");
	snprintf(ctrls[0].driver, sizeof(ctrls[0].driver), "mpt3sas");
	snprintf(ctrls[1].pci, sizeof(ctrls[1].pci), "0000:81:00.0");
	snprintf(ctrls[1].driver, sizeof(ctrls[1].driver), "nvme");
	disk(0, "sda", "ZA1BLANK", "naa.5000c500a1b2c301", "ST4000NM0035", 0,
	     SAFETY_BLANK);
	disk(1, "sdb", "ZA2KILN", "naa.5000c500a1b2c302", "ST4000NM0035", 0,
	     SAFETY_KILN_DATA);
	disk(2, "sdc", "ZA3DATA", "naa.5000c500a1b2c303", "ST4000NM0035", 0,
	     SAFETY_HAS_DATA);
	disk(3, "sdd", "ZA4BOOT", "naa.5000c500a1b2c304", "ST4000NM0035", 0,
	     SAFETY_IN_USE);
	disk(4, "nvme0n1", "S4EVNX0R1234", "eui.0025388b91b2c3d4",
	     "Samsung SSD 980", 1, SAFETY_HAS_DATA);

	settings_defaults(&s);
	tap_ok(!strcmp(actions(&s), "WWR-R"), "by class: blank and kiln-data "
	       "written, has-data read, in-use untouched (%s)", actions(&s));

	settings_set(&s, "destroy-data", "1", err, sizeof(err));
	tap_ok(!strcmp(actions(&s), "WWW-W"), "destroy-data=1: every has-data "
	       "disk written, in-use still untouched");

	settings_set(&s, "destroy-data", "S4EVNX0R1234", err, sizeof(err));
	tap_ok(!strcmp(actions(&s), "WWR-W"), "consent by serial: only that "
	       "disk (%s)", actions(&s));
	settings_set(&s, "destroy-data", "5000C500A1B2C303, zzz", err, sizeof(err));
	tap_ok(!strcmp(actions(&s), "WWW-R"), "consent by WWN, any case, "
	       "without naa. (%s)", actions(&s));
	settings_set(&s, "destroy-data", "0", err, sizeof(err));
	tap_ok(!strcmp(actions(&s), "WWR-R"), "destroy-data=0 takes it back");

	settings_set(&s, "exclude", "nvme*", err, sizeof(err));
	tap_ok(!strcmp(actions(&s), "WWR--"), "exclude by name glob");
	settings_set(&s, "exclude", "za2*,ZA3DATA", err, sizeof(err));
	tap_ok(!strcmp(actions(&s), "W---R"), "exclude by serial globs (%s)",
	       actions(&s));
	settings_set(&s, "exclude", "0000:81:*", err, sizeof(err));
	tap_ok(!strcmp(actions(&s), "WWR--"), "exclude by controller PCI address");
	settings_free(&s);

	settings_defaults(&s);
	settings_set(&s, "include", "ST4000*", err, sizeof(err));
	tap_ok(!strcmp(actions(&s), "WWR--"), "include by model glob");
	settings_set(&s, "include", "mpt3sas", err, sizeof(err));
	tap_ok(!strcmp(actions(&s), "WWR--"), "include by controller driver");
	settings_set(&s, "include", "naa.5000c500a1b2c301 5000c500a1b2c302",
		     err, sizeof(err));
	tap_ok(!strcmp(actions(&s), "WW---"), "include by WWN, with and "
	       "without naa. (%s)", actions(&s));
	settings_set(&s, "include", "sdd", err, sizeof(err));
	tap_ok(!strcmp(actions(&s), "-----"), "include cannot bring in an "
	       "in-use disk");
	settings_free(&s);

	settings_defaults(&s);
	settings_set(&s, "mode", "read", err, sizeof(err));
	tap_ok(!strcmp(actions(&s), "RRR-R"), "mode read: everything usable "
	       "is read only");
	disks[0].unusable[0] = 'x';
	tap_ok(!strcmp(actions(&s), "-RR-R"), "an unusable disk is skipped");
	settings_free(&s);
	return tap_done();
}
