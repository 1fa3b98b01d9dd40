/* SPDX-License-Identifier: MIT */
/*
 * Description: the limit each disk ran at and how close, in words, on
 * records made by hand: a SATA disk near its link ("91% of its SATA
 * link"), one of four behind a full PCIe x8 ("a quarter of the
 * controller's PCIe 3.0 x8", the four together 91% of it), one at its
 * own rate alone, a loop device and a RAID volume with no known limit,
 * and an emulated NVMe drive faster than the PCIe 1.0 x1 its link says
 * (QEMU's): that figure is no limit, never "138% of its 250 MB/s"; nor
 * a rate alone it beat. The rate is the disk's faster direction, named,
 * and every share is of it. The same line in summary.txt, report.html
 * and result.json; a controller's total the sum of its disks' rates.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/tap.h"
#include "judge/record.h"
#include "results/peers_out.h"
#include "results/report_html.h"
#include "results/restore.h"
#include "results/result.h"
#include "results/signal.h"
#include "results/summary.h"

static struct settings s;
static struct record r;

static void fresh(void)
{
	record_free(&r);
	settings_defaults(&s, SCOPE_BURN);
	record_init(&r, "burn", 0, NULL, &s);
}

/* A disk that wrote at write and read at read MB/s in its busiest 10 s. */
static struct record_disk *disk(const char *name, int ctrl, double write,
				double read)
{
	struct record_disk *d = record_add(&r, name, SETTINGS_READ);

	if (!d)
		tap_bail("out of memory");
	snprintf(d->label, sizeof(d->label), "%s", name);
	snprintf(d->t.id.name, sizeof(d->t.id.name), "%s", name);
	d->t.kind = TARGET_BLOCK;
	d->link.ctrl = ctrl;
	d->link.write_mbps = write;
	d->link.read_mbps = read;
	d->snap.phase_bytes[PHASE_WRITE] = (uint64_t)(write * 60e6);
	d->snap.phase_ns[PHASE_WRITE] = 60000000000ull;
	return d;
}

static void set_link(struct record_disk *d, const char *kind, const char *rate,
		 double mbps)
{
	snprintf(d->link.kind, sizeof(d->link.kind), "%s", kind);
	snprintf(d->link.rate, sizeof(d->link.rate), "%s", rate);
	d->link.mbps = mbps;
}

static int ctrl(const char *speed, int width, double mbps)
{
	struct pci_controller c;

	memset(&c, 0, sizeof(c));
	snprintf(c.pci, sizeof(c.pci), "0000:%02x:00.0", r.links.n + 3);
	snprintf(c.kind, sizeof(c.kind), "SAS");
	snprintf(c.link_speed, sizeof(c.link_speed), "%s", speed);
	snprintf(c.max_link_speed, sizeof(c.max_link_speed), "%s", speed);
	c.link_width = c.max_link_width = width;
	c.link_mbps = mbps;
	return links_add_ctrl(&r.links, &c);
}

static const char *limit(int i)
{
	static char buf[300];

	return peers_out_limit(&r, &r.disks[i], buf, sizeof(buf));
}

static int says(int i, const char *want)
{
	const char *got = limit(i);

	if (strcmp(got, want))
		tap_diag("disk %d: %s\n#   wanted: %s", i, got, want);
	return !strcmp(got, want);
}

static void test_words(void)
{
	struct record_disk *d;
	int c, i;

	fresh();
	set_link(disk("sda", -1, 546, 0), "sata", "6.0 Gbps", 600);
	tap_ok(says(0, "ran at 546 MB/s write, 91% of its SATA link (6.0 "
		    "Gbps, 600 MB/s)"), "a SATA disk near its link");

	c = ctrl("8.0 GT/s PCIe", 8, 7877);
	for (i = 0; i < 4; i++)
		disk("sd", c, 1820, 0);
	r.links.ctrls[c].ndisks = 4;
	links_fastest(&r);
	tap_ok(says(1, "ran at 1820 MB/s write, a quarter of the controller's "
		    "PCIe 3.0 x8 (7877 MB/s); its 4 disks together 92% of it"),
	       "one of four behind a full PCIe x8: a quarter of it");

	d = disk("sdf", -1, 480, 0);
	set_link(d, "sata", "6.0 Gbps", 600);
	d->solo.ran = 1;
	d->solo.mbps = 510;
	d->solo.seconds = 10;
	tap_ok(says(5, "ran at 480 MB/s write, 94% of its own rate alone "
		    "(510 MB/s)"),
	       "a disk at its own rate alone, well under its link");
	d = disk("loop0", -1, 2948, 0);
	snprintf(d->t.id.backing, sizeof(d->t.id.backing), "/tmp/a.img");
	d->solo.ran = 1;
	d->solo.mbps = 1933;
	d->solo.seconds = 2;
	tap_ok(says(6, "ran at 2948 MB/s write; no known limit (a loop "
		    "device)"),
	       "faster than alone is no ceiling: not 152%% of its rate alone");
}

static void test_none(void)
{
	struct record_disk *d;

	fresh();
	d = disk("loop3", -1, 900, 0);
	snprintf(d->t.id.backing, sizeof(d->t.id.backing), "/tmp/x");
	tap_ok(says(0, "ran at 900 MB/s write; no known limit (a loop device)"),
	       "a loop device has no known limit");
	d = disk("sdb", ctrl("", 0, 0), 300, 0);
	snprintf(d->link.transport, sizeof(d->link.transport), "scsi");
	tap_ok(says(1, "ran at 300 MB/s write; no known limit (a RAID volume "
		    "or a disk behind one)"), "nor a RAID volume");
	d = disk("nvme0n1", ctrl("2.5 GT/s PCIe", 1, 250), 345, 0);
	set_link(d, "pcie", "PCIe 1.0 x1", 250);
	r.links.ctrls[1].ndisks = 1;
	r.links.ctrls[1].write_mbps = 345;
	tap_ok(says(2, "ran at 345 MB/s write; no known limit; faster than the "
		    "250 MB/s its link is said to carry, so that is no limit "
		    "(an emulated device?)"),
	       "an emulated NVMe drive past its PCIe 1.0 x1: not a limit, "
	       "never 138%% of it");
	/*
	 * In a guest: it read at 104 MB/s too. The rate said is one
	 * direction's, its faster, never the two added (which made an
	 * NVMe drive at 17 MB/s each way "34 MB/s, 3% of its 250 MB/s").
	 */
	d->snap.phase_bytes[PHASE_VERIFY] = (uint64_t)(104 * 60e6);
	d->snap.phase_ns[PHASE_VERIFY] = 60000000000ull;
	tap_ok(says(2, "ran at 345 MB/s write; no known limit; faster than the "
		    "250 MB/s its link is said to carry, so that is no limit "
		    "(an emulated device?)"),
	       "...and one that read slower too: its faster direction, "
	       "never the two added");
	d = disk("sdz", -1, 0, 0);
	d->snap.phase_bytes[PHASE_WRITE] = 0;
	tap_ok(says(3, ""), "a disk that moved nothing: nothing said");
}

/* The same words in summary.txt, report.html and result.json. */
static void test_everywhere(void)
{
	static const char want[] = "ran at 546 MB/s write, 91% of its SATA "
				   "link (6.0 Gbps, 600 MB/s)";
	char *text = NULL, *html, *json, err[200], again[300];
	struct jsonread *doc = NULL;
	struct restored back;
	size_t len;
	FILE *f;
	int ok;

	fresh();
	set_link(disk("sda", -1, 546, 0), "sata", "6.0 Gbps", 600);
	signals_judge(&r, 1, 0);
	f = open_memstream(&text, &len);
	if (!f)
		tap_bail("out of memory");
	summary_text(&r, f);
	fclose(f);
	html = report_html(&r, &len);
	json = result_json(&r, &len);
	tap_ok(text && strstr(text, "  limit: ran at 546 MB/s write, 91% of "
			      "its SATA link (6.0 Gbps, 600 MB/s)\n") &&
	       html && strstr(html, want) && json &&
	       strstr(json, "\"rate_limit\": \"ran at 546 MB/s write, 91% of "
		      "its SATA link (6.0 Gbps, 600 MB/s)\""),
	       "summary.txt, report.html and result.json say it alike");
	if (!json || jsonread_parse(&doc, json, strlen(json), NULL, err,
				    sizeof(err)))
		tap_bail("result.json does not parse: %s", err);
	ok = restore_record(jsonread_root(doc), &back, err, sizeof(err)) == 0;
	tap_ok(ok && back.r.disks[0].link.write_mbps == 546 &&
	       !strcmp(peers_out_limit(&back.r, &back.r.disks[0], again,
				       sizeof(again)), want),
	       "read back from result.json, its rates say the same "
	       "(%s)", ok ? again : err);
	if (ok)
		restore_free(&back);
	jsonread_free(doc);
	free(text);
	free(html);
	free(json);
}

/* summary.txt's controllers: its disks' rates added, said so. */
static void test_controllers(void)
{
	char *text = NULL, *line;
	size_t len;
	FILE *f;
	int c, i;

	fresh();
	c = ctrl("8.0 GT/s PCIe", 8, 7877);
	for (i = 0; i < 2; i++)
		set_link(disk("sd", c, 520, 0), "sata", "6.0 Gbps", 600);
	r.links.ctrls[c].ndisks = 2;
	/* What its busiest 10 s said: its total is its disks' sum. */
	r.links.ctrls[c].write_mbps = 700;
	signals_judge(&r, 1, 0);
	f = open_memstream(&text, &len);
	if (!f)
		tap_bail("out of memory");
	summary_text(&r, f);
	fclose(f);
	line = text ? strstr(text, "\ncontrollers:\n") : NULL;
	tap_ok(line && strstr(line, "  0000:03:00.0 SAS, 2 disks, PCIe 3.0 x8 "
			      "(7877 MB/s): together 1040 MB/s write, 0 MB/s "
			      "read (its disks' rates added)\n") &&
	       strstr(text, "  limit: ran at 520 MB/s write, 87% of its SATA "
		      "link (6.0 Gbps, 600 MB/s)\n"),
	       "a controller's total, its disks' rates added; each disk's "
	       "limit its own link, nearer than the controller's");
	if (line && !strstr(line, "rates added)\n"))
		tap_diag("%.300s", line);
	free(text);

	/* Four behind a full x8, no link of their own: a long line, wrapped. */
	fresh();
	c = ctrl("8.0 GT/s PCIe", 8, 7877);
	for (i = 0; i < 4; i++)
		disk("sd", c, 1820, 0);
	r.links.ctrls[c].ndisks = 4;
	signals_judge(&r, 1, 0);
	text = NULL;
	f = open_memstream(&text, &len);
	if (!f)
		tap_bail("out of memory");
	summary_text(&r, f);
	fclose(f);
	tap_ok(text && strstr(text, "  limit: ran at 1820 MB/s write, a "
			      "quarter of the controller's PCIe 3.0 x8\n"
			      "    (7877 MB/s); its 4 disks together 92% "
			      "of it\n"),
	       "a limit line longer than 80 columns goes on, indented");
	if (text && strstr(text, "  limit: ran"))
		tap_diag("%.200s", strstr(text, "  limit: ran"));
	free(text);
}

int main(int argc, char **argv)
{
	tap_args(argc, argv);
	TAP_RUN(test_words);
	TAP_RUN(test_none);
	TAP_RUN(test_everywhere);
	TAP_RUN(test_controllers);
	record_free(&r);
	return tap_done();
}
