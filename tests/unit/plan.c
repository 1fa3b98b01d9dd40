/* SPDX-License-Identifier: MIT */
/*
 * Description: the plan: the one safety decision, row by row for both
 * commands; choosing disks for kiln run (each class its action; include
 * and exclude by serial, WWN, model, name, controller PCI address or
 * driver; consent disk by disk; two paths to one disk tested once); and
 * kiln(1)'s safety table, which must be the decision's own.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/tap.h"
#include "plan/plan.h"

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
	snprintf(d->id.identity, sizeof(d->id.identity), "wwn:%s", wwid);
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

static void set(struct settings *s, const char *key, const char *value)
{
	char err[200];

	if (settings_set(s, settings_key(key), value, SOURCE_OPTION, err,
			 sizeof(err)))
		tap_bail("%s", err);
}

static int decide(int command, int mode, int class, int consent, int file,
		  int created, int empty, int ro, int twice)
{
	struct plan_input in = { command, mode, class, consent, file, created,
				 empty, ro, twice };

	return plan_decide(&in).action;
}

enum { BURN = PLAN_BURN, RUN = PLAN_RUN, WV = SETTINGS_WRITE_VERIFY,
       W = SETTINGS_WRITE, V = SETTINGS_VERIFY, RD = SETTINGS_READ,
       IU = SAFETY_IN_USE, HD = SAFETY_HAS_DATA, KD = SAFETY_KILN_DATA,
       BL = SAFETY_BLANK, REF = PLAN_REFUSE, SKIP = PLAN_SKIP,
       READ = PLAN_READ, WRITE = PLAN_WRITE };

static void test_decision(void)
{
	int m, c;

	/* In use: never written, whatever the consent or mode. */
	for (m = WV; m <= RD; m++) {
		tap_ok(decide(BURN, m, IU, 1, 0, 0, 0, 0, 0) == REF &&
		       decide(RUN, m, IU, 1, 0, 0, 0, 0, 0) == SKIP,
		       "in-use, mode %s: burn refuses, run leaves it be",
		       settings_mode_name(m));
	}
	/* Given twice: refused by burn, tested once by run. */
	for (c = IU; c <= BL; c++)
		tap_ok(decide(BURN, WV, c, 1, 0, 0, 0, 0, 1) == REF &&
		       decide(BURN, RD, c, 1, 0, 0, 0, 0, 1) == REF &&
		       decide(RUN, WV, c, 1, 0, 0, 0, 0, 1) == SKIP,
		       "the same medium twice (%s): burn refuses, run skips "
		       "the second path", safety_class_name(c));
	/* Reading modes only read, whatever the class (in-use aside). */
	for (m = V; m <= RD; m++)
		for (c = HD; c <= BL; c++)
			tap_ok(decide(BURN, m, c, 0, 0, 0, 0, 0, 0) == READ &&
			       decide(RUN, m, c, 0, 0, 0, 0, 1, 0) == READ &&
			       decide(BURN, m, c, 0, 1, 0, 0, 1, 0) == READ,
			       "mode %s on %s: read only (read-only devices "
			       "and files too)", settings_mode_name(m),
			       safety_class_name(c));
	for (m = WV; m <= W; m++) {
		const char *mn = settings_mode_name(m);

		tap_ok(decide(BURN, m, BL, 0, 0, 0, 0, 0, 0) == WRITE &&
		       decide(RUN, m, BL, 0, 0, 0, 0, 0, 0) == WRITE &&
		       decide(BURN, m, KD, 0, 0, 0, 0, 0, 0) == WRITE &&
		       decide(RUN, m, KD, 0, 0, 0, 0, 0, 0) == WRITE,
		       "%s: blank and kiln-data disks are written", mn);
		tap_ok(decide(BURN, m, HD, 0, 0, 0, 0, 0, 0) == REF &&
		       decide(RUN, m, HD, 0, 0, 0, 0, 0, 0) == READ,
		       "%s: has-data without consent: burn refuses, run reads",
		       mn);
		tap_ok(decide(BURN, m, HD, 1, 0, 0, 0, 0, 0) == WRITE &&
		       decide(RUN, m, HD, 1, 0, 0, 0, 0, 0) == WRITE,
		       "%s: has-data with consent is written", mn);
		tap_ok(decide(BURN, m, BL, 1, 0, 0, 0, 1, 0) == REF &&
		       decide(RUN, m, BL, 1, 0, 0, 0, 1, 0) == READ &&
		       decide(BURN, m, KD, 1, 1, 0, 0, 1, 0) == REF,
		       "%s on a read-only device or file: burn refuses before "
		       "any I/O, run tests it read-only", mn);
		tap_ok(decide(BURN, m, BL, 0, 1, 1, 0, 0, 0) == WRITE &&
		       decide(BURN, m, BL, 0, 1, 0, 1, 0, 0) == WRITE &&
		       decide(BURN, m, KD, 0, 1, 0, 0, 0, 0) == WRITE,
		       "%s: a file kiln created, an empty one, or one of kiln "
		       "data is written", mn);
		tap_ok(decide(BURN, m, HD, 0, 1, 0, 0, 0, 0) == REF &&
		       decide(BURN, m, BL, 0, 1, 0, 0, 0, 0) == REF &&
		       decide(BURN, m, HD, 1, 1, 0, 0, 0, 0) == WRITE,
		       "%s: any other file (even all zeros) needs consent", mn);
	}
}

/* Two controllers, five disks: one of each class, an NVMe one. */
static void lab(void)
{
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
}

static void test_choose(void)
{
	struct settings s;

	lab();

	settings_defaults(&s, SCOPE_BURN);
	tap_ok(!strcmp(actions(&s), "WWR-R"), "by class: blank and kiln-data "
	       "written, has-data read, in-use untouched (%s)", actions(&s));

	set(&s, "destroy-data", "1");
	tap_ok(!strcmp(actions(&s), "WWW-W"), "destroy-data=1: every has-data "
	       "disk written, in-use still untouched");
	set(&s, "destroy-data", "S4EVNX0R1234");
	tap_ok(!strcmp(actions(&s), "WWR-W"), "consent by serial: only that "
	       "disk (%s)", actions(&s));
	set(&s, "destroy-data", "5000C500A1B2C303, zzz");
	tap_ok(!strcmp(actions(&s), "WWW-R"), "consent by WWN, any case, "
	       "without naa. (%s)", actions(&s));
	set(&s, "destroy-data", "wwn:naa.5000c500a1b2c303");
	tap_ok(!strcmp(actions(&s), "WWW-R"), "consent by the identity kiln "
	       "prints (%s)", actions(&s));
	set(&s, "destroy-data", "sdc");
	tap_ok(!strcmp(actions(&s), "WWR-R"), "a kernel name is no consent: "
	       "names shift when a drive drops out (%s)", actions(&s));
	set(&s, "destroy-data", "0");
	tap_ok(!strcmp(actions(&s), "WWR-R"), "destroy-data=0 takes it back");

	set(&s, "exclude", "nvme*");
	tap_ok(!strcmp(actions(&s), "WWR--"), "exclude by name glob");
	set(&s, "exclude", "za2*,ZA3DATA");
	tap_ok(!strcmp(actions(&s), "W---R"), "exclude by serial globs (%s)",
	       actions(&s));
	set(&s, "exclude", "0000:81:*");
	tap_ok(!strcmp(actions(&s), "WWR--"), "exclude by controller PCI "
	       "address");
	settings_free(&s);

	settings_defaults(&s, SCOPE_BURN);
	set(&s, "include", "ST4000*");
	tap_ok(!strcmp(actions(&s), "WWR--"), "include by model glob");
	set(&s, "include", "mpt3sas");
	tap_ok(!strcmp(actions(&s), "WWR--"), "include by controller driver");
	set(&s, "include", "naa.5000c500a1b2c301 5000c500a1b2c302");
	tap_ok(!strcmp(actions(&s), "WW---"), "include by WWN, with and "
	       "without naa. (%s)", actions(&s));
	set(&s, "include", "sdd");
	tap_ok(!strcmp(actions(&s), "-----"), "include cannot bring in an "
	       "in-use disk");
	settings_free(&s);

	settings_defaults(&s, SCOPE_BURN);
	set(&s, "mode", "read");
	tap_ok(!strcmp(actions(&s), "RRR-R"), "mode read: everything usable "
	       "is read only");
	set(&s, "mode", "verify");
	tap_ok(!strcmp(actions(&s), "RRR-R"), "mode verify reads only too: "
	       "nothing for a countdown to announce");
	settings_free(&s);

	settings_defaults(&s, SCOPE_BURN);
	disks[2].read_only = 1;
	tap_ok(!strcmp(actions(&s), "WWR-R"), "a read-only disk is read");
	disks[0].read_only = 1;
	tap_ok(!strcmp(actions(&s), "RWR-R"), "... even when blank (%s)",
	       actions(&s));
	disks[0].read_only = disks[2].read_only = 0;

	/* Multipath: sdc is a second path to sdb's disk. */
	snprintf(disks[2].id.identity, sizeof(disks[2].id.identity), "%s",
		 disks[1].id.identity);
	disks[2].safety.class = SAFETY_KILN_DATA;
	tap_ok(!strcmp(actions(&s), "WW--R"), "two paths to one disk: it is "
	       "tested once (%s)", actions(&s));
	disks[2] = disks[4];
	snprintf(disks[2].id.identity, sizeof(disks[2].id.identity),
		 "wwn:other");

	/* kiln discover lists loop devices; kiln run tests the machine's. */
	snprintf(disks[0].transport, sizeof(disks[0].transport), "loop");
	tap_ok(!strcmp(actions(&s), "-WR-R"), "kiln run never chooses a loop "
	       "device, blank or not (%s)", actions(&s));
	set(&s, "destroy-data", "1");
	set(&s, "include", "sda");
	tap_ok(actions(&s)[0] == '-', "... not even included by name with "
	       "consent for all (%s)", actions(&s));
	settings_free(&s);
	settings_defaults(&s, SCOPE_BURN);
	disks[0].transport[0] = 0;

	disks[0].unusable[0] = 'x';
	tap_ok(actions(&s)[0] == '-', "an unusable disk is skipped");
	settings_free(&s);
}

/* Models and identities have blanks in them: they match as a whole. */
static void test_blanks(void)
{
	const struct identity *ids[5];
	struct settings s;
	char out[600];
	int i;

	lab();
	for (i = 0; i < 5; i++)
		ids[i] = &disks[i].id;
	settings_defaults(&s, SCOPE_BURN);
	set(&s, "exclude", "Samsung SSD 980");
	tap_ok(!strcmp(actions(&s), "WWR--"), "exclude by a model with "
	       "spaces in it (%s)", actions(&s));
	set(&s, "exclude", " samsung ssd 9* ,ZA1BLANK");
	tap_ok(!strcmp(actions(&s), "-WR--"), "... as a glob, any case, "
	       "among other items (%s)", actions(&s));
	set(&s, "exclude", "sda sdb");
	tap_ok(!strcmp(actions(&s), "--R-R"), "blanks still separate the "
	       "words of an item that is not one name (%s)", actions(&s));
	{
		char list[600] = "";

		for (i = 0; i < 20; i++)
			strcat(list, "naa.5000c500deadbe00 ");
		strcat(list, "sda nvme0n1");
		set(&s, "exclude", list);
		tap_ok(!strcmp(actions(&s), "-WR--"), "a blank separated list "
		       "longer than a name is still read word by word (%s)",
		       actions(&s));
		plan_globs_unmatched(list, &inv, out, sizeof(out));
		tap_ok(!strncmp(out, "naa.5000c500deadbe00, naa.", 26),
		       "... and its words that match nothing are said (%.40s)",
		       out);
	}
	plan_globs_unmatched("Samsung SSD 870, sda sdx, zz*,ST4000*", &inv,
			     out, sizeof(out));
	tap_ok(!strcmp(out, "Samsung SSD 870, sdx, zz*"), "globs that match "
	       "no disk are named, a model whole (%s)", out);
	plan_globs_unmatched("nvme0n1, mpt3sas", &inv, out, sizeof(out));
	tap_ok(!out[0], "... none when every glob matches (%s)", out);
	settings_free(&s);

	settings_defaults(&s, SCOPE_BURN);
	snprintf(disks[4].id.identity, sizeof(disks[4].id.identity),
		 "serial:Samsung SSD 980:S4EVNX0R1234:ns1");
	set(&s, "destroy-data", "serial:Samsung SSD 980:S4EVNX0R1234:ns1");
	tap_ok(!strcmp(actions(&s), "WWR-W"), "consent by an identity with "
	       "spaces in it, as kiln prints it (%s)", actions(&s));
	plan_consent_unmatched(&s, ids, 5, out, sizeof(out));
	tap_ok(!out[0], "... and it names a disk (%s)", out);
	set(&s, "destroy-data", "S4EVNX0R1234 ZA9TYPO, Samsung SSD 980");
	plan_consent_unmatched(&s, ids, 5, out, sizeof(out));
	tap_ok(!strcmp(out, "ZA9TYPO, Samsung SSD 980"), "consent words that "
	       "name no disk are named; a model is no consent (%s)", out);
	tap_ok(!strcmp(actions(&s), "WWR-W"), "... the serial among them "
	       "still is (%s)", actions(&s));
	settings_free(&s);
}

/*
 * A kernel name (sdc, /dev/sdc) is no consent, and not a typo either: it
 * gets a note of its own with what to give instead.
 */
static void test_kernel_names(void)
{
	const struct identity *ids[5];
	struct settings s;
	char out[600];
	int i;

	lab();
	for (i = 0; i < 5; i++)
		ids[i] = &disks[i].id;
	settings_defaults(&s, SCOPE_BURN);
	set(&s, "destroy-data", "/dev/sdc, ZA9TYPO nvme0n1");
	tap_ok(!strcmp(actions(&s), "WWR-R"), "kernel names are no consent "
	       "(%s)", actions(&s));
	plan_consent_unmatched(&s, ids, 5, out, sizeof(out));
	tap_ok(!strcmp(out, "ZA9TYPO"), "kernel names of disks found are "
	       "no typo (%s)", out);
	plan_consent_by_name(&s, &disks[2].id, out, sizeof(out));
	tap_ok(!strcmp(out, "destroy-data names sdc by its kernel name "
	       "(/dev/sdc), which is no consent: names change when a drive "
	       "drops out; give its serial ZA3DATA or WWN "
	       "naa.5000c500a1b2c303"), "... said with the serial and WWN "
	       "to give (%s)", out);
	plan_consent_by_name(&s, &disks[4].id, out, sizeof(out));
	tap_ok(strstr(out, "names nvme0n1 by its kernel name (nvme0n1)") &&
	       strstr(out, "serial S4EVNX0R1234"), "... a word among "
	       "others too (%s)", out);
	plan_consent_by_name(&s, &disks[0].id, out, sizeof(out));
	tap_ok(!out[0], "a disk not named by name has no such note (%s)",
	       out);
	memset(&disks[0].id, 0, sizeof(disks[0].id));
	snprintf(disks[0].id.name, sizeof(disks[0].id.name), "loop4");
	snprintf(disks[0].id.identity, sizeof(disks[0].id.identity),
		 "loop:/srv/a.img");
	set(&s, "destroy-data", "loop4");
	plan_consent_by_name(&s, &disks[0].id, out, sizeof(out));
	tap_ok(strstr(out, "names loop4 by its kernel name (loop4)") &&
	       strstr(out, "give its identity loop:/srv/a.img"),
	       "a loop device: its identity to give (%s)", out);
	set(&s, "destroy-data", "loop4 loop:/srv/a.img");
	plan_consent_by_name(&s, &disks[0].id, out, sizeof(out));
	tap_ok(!out[0], "... none when it is also named by identity (%s)",
	       out);
	settings_free(&s);
}

/*
 * kiln(1)'s safety table is plan_man()'s, character for character (make
 * man writes it there: scripts/manual.sh).
 */
static void test_manual(void)
{
	char *table = NULL, *page = tap_man_part("docs/kiln.1", "safety");
	size_t len = 0;
	FILE *f = open_memstream(&table, &len);

	plan_man(f);
	fclose(f);
	if (!page)
		tap_skip("docs/kiln.1 or its safety table not found (run from "
			 "the top of the tree)");
	else if (!tap_ok(!strcmp(page, table), "kiln(1)'s safety table is "
			 "the decision's own (make man makes it again)"))
		tap_diag("plan_man() says:\n%s", table);
	free(page);
	free(table);
}

int main(int argc, char **argv)
{
	tap_args(argc, argv);
	TAP_RUN(test_decision);
	TAP_RUN(test_choose);
	TAP_RUN(test_blanks);
	TAP_RUN(test_kernel_names);
	TAP_RUN(test_manual);
	return tap_done();
}
