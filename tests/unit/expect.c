/* SPDX-License-Identifier: MIT */
/*
 * Description: the expected-machine file. A good file parses into what
 * it says; each bad line (no '=', an unknown key, a bad count, size or
 * link, no name after the '.') is an error naming the file and line; a
 * synthetic inventory compared against it gives one line per difference,
 * saying what was expected and what was found; and the file written from
 * a machine parses back and finds that machine equal; kiln run finds
 * expect.cfg on the stick, and its differences FAIL the machine.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/tap.h"
#include "base/kiln.h"
#include "cmd/expect_use.h"
#include "discover/expect.h"
#include "judge/record.h"
#include "results/result.h"
#include "results/signal.h"

static struct discover_disk disks[4];
static struct pci_controller ctrls[2];
static struct machine_nic nics[1];
static struct discover_inventory inv;

static void disk(int i, const char *name, const char *model,
		 const char *fw, uint64_t size, dev_t dev)
{
	struct discover_disk *d = &disks[i];

	memset(d, 0, sizeof(*d));
	snprintf(d->id.name, sizeof(d->id.name), "%s", name);
	snprintf(d->id.model, sizeof(d->id.model), "%s", model);
	snprintf(d->firmware, sizeof(d->firmware), "%s", fw);
	snprintf(d->transport, sizeof(d->transport), "sata");
	d->size = size;
	d->dev = dev;
}

/* A machine: 2 CPUs, 1.5 GiB, three disks and a stick, two links. */
static void machine(void)
{
	memset(&inv, 0, sizeof(inv));
	snprintf(inv.sys.cpu, sizeof(inv.sys.cpu), "AMD EPYC 7302");
	inv.sys.cpus = 2;
	inv.sys.memory = 3ull << 29;
	disk(0, "sda", "ST4000NM0035", "TN04", 4000787030016ull, 0x800);
	disk(1, "sdb", "ST4000NM0035", "TN04", 4000787030016ull, 0x810);
	disk(2, "nvme0n1", "Samsung SSD 980", "3B4Q", 1000204886016ull, 0x10300);
	disk(3, "sdc", "Stick", "1.00", 16000000000ull, 0x820);
	inv.disks = disks;
	inv.ndisks = 4;
	memset(ctrls, 0, sizeof(ctrls));
	snprintf(ctrls[0].pci, sizeof(ctrls[0].pci), "0000:03:00.0");
	snprintf(ctrls[0].link_speed, sizeof(ctrls[0].link_speed),
		 "8.0 GT/s PCIe");
	ctrls[0].link_width = 8;
	ctrls[0].storage = 1;
	snprintf(ctrls[1].pci, sizeof(ctrls[1].pci), "0000:04:00.0");
	ctrls[1].storage = 1;
	inv.ctrls = ctrls;
	inv.nctrls = 2;
	memset(nics, 0, sizeof(nics));
	snprintf(nics[0].name, sizeof(nics[0].name), "eth0");
	nics[0].speed = 10000;
	inv.nics = nics;
	inv.nnics = 1;
}

static const dev_t stick[] = { 0x820 };

static const char good[] =
	"\xef\xbb\xbf# a line of servers\r\n"
	"cpu-model = AMD EPYC 7302\n"
	"cpus=2\n"
	"memory=2G\n"
	"\n"
	"disks=3\n"
	"disks.ST4000NM0035=2\n"
	"disk-firmware.ST4000NM0035=TN04\n"
	"disk-size.Samsung SSD 980=1000204886016\n"
	"controllers=2\n"
	"controller.0000:03:00.0=x8 8.0 GT/s PCIe\n"
	"nics=1\n"
	"nic.eth0=10000\n";

static void test_parse(void)
{
	struct expect e;
	char err[256] = "";

	tap_ok(!expect_parse(good, "expect.cfg", &e, err, sizeof(err)) &&
	       !strcmp(e.cpu_model, "AMD EPYC 7302") && e.cpus == 2 &&
	       e.memory == 2ull << 30 && e.disks == 3 &&
	       e.ndisk_count == 1 && e.disk_count[0].value == 2 &&
	       !strcmp(e.disk_firmware[0].text, "TN04") &&
	       !strcmp(e.disk_size[0].name, "Samsung SSD 980") &&
	       e.controllers == 2 && e.nlink == 1 && e.link[0].value == 8 &&
	       !strcmp(e.link[0].text, "8.0 GT/s PCIe") && e.nics == 1 &&
	       e.nic_speed[0].value == 10000,
	       "a good file parses into what it says");
	if (*err)
		tap_diag("%s", err);
	tap_ok(!expect_parse("# nothing\n", "x", &e, err, sizeof(err)) &&
	       e.cpus == -1 && e.disks == -1 && !e.memory && !*e.cpu_model,
	       "every key is optional");
	tap_ok(!expect_parse("memory=1536M\n", "x", &e, err, sizeof(err)) &&
	       e.memory == 2ull << 30, "memory is rounded up to a whole GiB");
}

static void test_bad_lines(void)
{
	static const struct {
		const char *text, *want;
	} bad[] = {
		{ "cpus=2\nnonsense\n", "f line 2: 'nonsense' is not KEY=VALUE" },
		{ "\n\ncolour=red\n", "f line 3: colour=red: not a key of an "
		  "expect file" },
		{ "cpus=two\n", "f line 1: cpus=two: not a count" },
		{ "memory=lots\n", "f line 1: memory=lots: not a size" },
		{ "disks.=3\n", "f line 1: disks.=3: no name after the '.'" },
		{ "disks.X=a\n", "f line 1: disks.X=a: not a count" },
		{ "disk-size.X=big\n", "f line 1: disk-size.X=big: not a size" },
		{ "controller.0000:03:00.0=xeight\n", "not a link" },
		{ "nic.eth0=fast\n", "f line 1: nic.eth0=fast: not a speed" },
		{ "cpus=\n", "f line 1: cpus=: no value" },
	};
	struct expect e;
	char err[256];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		*err = 0;
		tap_ok(expect_parse(bad[i].text, "f", &e, err, sizeof(err)) &&
		       strstr(err, bad[i].want), "bad: %s", bad[i].want);
		if (!strstr(err, bad[i].want))
			tap_diag("said: %s", err);
	}
}

static int has(const struct expect_diffs *d, const char *line)
{
	int i;

	for (i = 0; i < d->n; i++)
		if (!strcmp(d->line[i], line))
			return 1;
	for (i = 0; i < d->n; i++)
		tap_diag("difference: %s", d->line[i]);
	return 0;
}

static void test_compare(void)
{
	struct expect_diffs d;
	struct expect e;
	char err[256];

	machine();
	expect_parse(good, "x", &e, err, sizeof(err));
	tap_ok(expect_check(&e, &inv, stick, 1, &d) == 0,
	       "the machine as expected: no differences (the stick left out)");
	tap_ok(expect_check(&e, &inv, NULL, 0, &d) == 1 &&
	       has(&d, "disks: expected 3, found 4"),
	       "a disk more than expected is a difference");
	/* --protect names the stick's partition (sdc1), not sdc. */
	disks[3].safety.protected = 1;
	tap_ok(expect_check(&e, &inv, NULL, 0, &d) == 0,
	       "a disk protected by its partition is left out too");
	disks[3].safety.protected = 0;
	inv.sys.memory = 1ull << 30;
	snprintf(disks[1].firmware, sizeof(disks[1].firmware), "TN03");
	ctrls[0].link_width = 4;
	snprintf(ctrls[0].link_speed, sizeof(ctrls[0].link_speed),
		 "5.0 GT/s PCIe");
	nics[0].speed = 1000;
	inv.sys.cpus = 1;
	tap_ok(expect_check(&e, &inv, stick, 1, &d) == 6 &&
	       has(&d, "memory: expected 2 GiB, found 1 GiB") &&
	       has(&d, "CPUs: expected 2, found 1") &&
	       has(&d, "sdb (ST4000NM0035) firmware: expected TN04, found "
		   "TN03") &&
	       has(&d, "controller 0000:03:00.0 link width: expected x8, "
		   "found x4") &&
	       has(&d, "controller 0000:03:00.0 link speed: expected 8.0 "
		   "GT/s PCIe, found 5.0 GT/s PCIe") &&
	       has(&d, "NIC eth0 speed: expected 10000 Mb/s, found 1000 Mb/s"),
	       "each difference says what was expected and what was found");
	machine();
	inv.ndisks = 1;
	inv.nctrls = 1;
	inv.nnics = 0;
	tap_ok(expect_check(&e, &inv, stick, 1, &d) == 5 &&
	       has(&d, "disks: expected 3, found 1") &&
	       has(&d, "disks of model ST4000NM0035: expected 2, found 1") &&
	       has(&d, "storage controllers: expected 2, found 1") &&
	       has(&d, "NICs: expected 1, found 0") &&
	       has(&d, "NIC eth0: expected, not found"),
	       "missing disks, controllers and NICs are differences");
}

static void test_write(void)
{
	struct expect_diffs d;
	struct expect e;
	char err[256] = "", *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	machine();
	expect_write(&inv, stick, 1, f);
	fclose(f);
	tap_ok(!expect_parse(text, "written", &e, err, sizeof(err)) &&
	       expect_check(&e, &inv, stick, 1, &d) == 0 && e.disks == 3 &&
	       e.memory == 2ull << 30 && e.ndisk_count == 2 && e.nlink == 1,
	       "the file written from a machine matches it");
	if (*err)
		tap_diag("%s", err);
	disks[1].size = 1;
	tap_ok(expect_check(&e, &inv, stick, 1, &d) == 1 &&
	       has(&d, "sdb (ST4000NM0035) size: expected 4000787030016 "
		   "bytes, found 1 bytes"),
	       "and a changed value is the difference");
	free(text);
}

/* The DIMMs SMBIOS names: what the memory found is, and each one held. */
static void test_dimms(void)
{
	struct smbios_dimm m[2] = {
		{ "DIMM_A", 1ull << 30, 3200, "M393A", "" },
		{ "DIMM_B", 1ull << 30, 3200, "M393A", "" },
	};
	struct expect_diffs d;
	struct expect e;
	char err[256] = "", *text = NULL;
	size_t len = 0;
	FILE *f;

	machine();
	inv.dimms = m;
	inv.ndimms = 2;
	tap_ok(!expect_parse("dimms=2\ndimm-size=1G\ndimm-speed=3200\n"
			     "dimm-part=M393A\nmemory=2G\n", "x", &e, err,
			     sizeof(err)) &&
	       expect_check(&e, &inv, stick, 1, &d) == 0,
	       "the DIMMs as expected; memory is their sum");
	m[1].speed = 2666;
	snprintf(m[1].part, sizeof(m[1].part), "OTHER");
	tap_ok(expect_check(&e, &inv, stick, 1, &d) == 2 &&
	       has(&d, "DIMM DIMM_B speed: expected 3200 MT/s, found 2666 MT/s") &&
	       has(&d, "DIMM DIMM_B part: expected M393A, found OTHER"),
	       "a DIMM of another speed or part");
	inv.ndimms = 1;
	tap_ok(expect_check(&e, &inv, stick, 1, &d) == 2 &&
	       has(&d, "DIMMs: expected 2, found 1") &&
	       has(&d, "memory: expected 2 GiB, found 1 GiB"),
	       "a DIMM the BIOS did not see");
	inv.ndimms = 2;
	m[1] = m[0];
	f = open_memstream(&text, &len);
	expect_write(&inv, stick, 1, f);
	fclose(f);
	tap_ok(!expect_parse(text, "written", &e, err, sizeof(err)) &&
	       e.dimms == 2 && e.dimm_size == 1ull << 30 &&
	       e.dimm_speed == 3200 && !strcmp(e.dimm_part, "M393A") &&
	       expect_check(&e, &inv, stick, 1, &d) == 0,
	       "the file written holds the DIMMs, and matches");
	free(text);
	inv.dimms = NULL;
	inv.ndimms = 0;
}

/*
 * kiln run's use: expect.cfg in the results root is read when there; a
 * file that does not parse is a problem (the run does not start); disks=
 * replaces expect-disks with a note; the differences FAIL the machine and
 * go into result.json.
 */
static void test_run(void)
{
	char dir[] = "/tmp/kiln-expect.XXXXXX", path[300], *doc;
	struct settings_problems p;
	struct settings s;
	struct record r;
	size_t len;

	tap_ok(mkdtemp(dir) != NULL, "a results root");
	machine();
	settings_defaults(&s, SCOPE_RUN);
	s.results = strdup(dir);
	s.expect_disks = 3;
	memset(&p, 0, sizeof(p));
	record_init(&r, "run", 0, NULL, &s);
	tap_ok(!expect_use_run(&s, &p, &inv, stick, 1, NULL, NULL, &r) && !p.n &&
	       !r.expect, "no expect.cfg on the stick: nothing expected");
	snprintf(path, sizeof(path), "%s/expect.cfg", dir);
	tap_write(dir, "expect.cfg", "disks=3\nmemory=4G\n", 18);
	tap_ok(!expect_use_run(&s, &p, &inv, stick, 1, NULL, NULL, &r) && !p.n &&
	       r.expect && r.expect->n == 1 && !strcmp(r.expect_file, path) &&
	       !s.expect_disks && r.nnotes == 1 &&
	       strstr(r.notes[0], "disks=3 in") &&
	       strstr(r.notes[0], "replaces expect-disks=3"),
	       "ROOT/expect.cfg is read; its disks= replaces expect-disks");
	signals_judge(&r, 1, 0);
	doc = result_json(&r, &len);
	tap_ok(r.sig.j.verdict == JUDGE_FAIL &&
	       strstr(r.failure, "memory: expected 4 GiB, found 2 GiB") &&
	       doc && strstr(doc, "\"differences\": [") &&
	       strstr(doc, "\"memory: expected 4 GiB, found 2 GiB\""),
	       "a difference FAILs the machine and is in result.json");
	if (doc && !strstr(doc, "differences"))
		tap_diag("%s", doc);
	free(doc);
	r.expect->n = 6;
	r.expect->more = 1;
	signals_judge(&r, 1, 0);
	tap_ok(r.sig.j.nreasons == 5 &&
	       strstr(r.sig.j.reasons[4], "3 more differences from ") &&
	       strstr(r.sig.j.reasons[4], "expect.cfg"),
	       "past four differences, the machine's reasons say how many more");
	tap_ok(!expect_use_run(&s, &p, &inv, stick, 1, "memory=2G\n",
			       "http://lab/config/M.expect", &r) && !p.n &&
	       r.expect && r.expect->n == 0 &&
	       !strcmp(r.expect_file, "http://lab/config/M.expect"),
	       "the lab server's file comes before the stick's expect.cfg");
	s.expect = strdup(path);
	tap_ok(!expect_use_run(&s, &p, &inv, stick, 1, "memory=2G\n",
			       "http://lab/config/M.expect", &r) && !p.n &&
	       r.expect && r.expect->n == 1 && !strcmp(r.expect_file, path),
	       "expect= wins over the lab server's file");
	free(s.expect);
	s.expect = NULL;
	tap_ok(!expect_use_run(&s, &p, &inv, stick, 1, "disks=2\nmemory=2X\n",
			       "http://lab/config/M.expect", &r) &&
	       p.n == 1 && strstr(p.text[0], "expect: http://lab/config/"
				  "M.expect line 2: memory=2X"),
	       "a lab file that does not parse is a bad setting, its URL "
	       "and line named");
	memset(&p, 0, sizeof(p));
	tap_write(dir, "expect.cfg", "memory=4X\n", 10);
	tap_ok(!expect_use_run(&s, &p, &inv, stick, 1, NULL, NULL, &r) &&
	       p.n == 1 && strstr(p.text[0], "expect: ") &&
	       strstr(p.text[0], "expect.cfg line 1: memory=4X"),
	       "a file that does not parse is a bad setting of the run");
	record_free(&r);
	settings_free(&s);
	tap_sh("rm -rf '%s'", dir);
}

int main(int argc, char **argv)
{
	tap_args(argc, argv);
	tap_plan(33);
	TAP_RUN(test_parse);
	TAP_RUN(test_bad_lines);
	TAP_RUN(test_compare);
	TAP_RUN(test_write);
	TAP_RUN(test_dimms);
	TAP_RUN(test_run);
	return tap_done();
}
