/* SPDX-License-Identifier: MIT */
/*
 * Description: the limits above the disks. SATA and SAS link rates and
 * PCIe links become MB/s and words ("PCIe 3.0 x4 of x8"); each disk of a
 * sysfs tree captured in QEMU gets its link and controller; what went
 * through each controller is sampled into its best ten-second aggregate;
 * the live line shows each controller's MB/s and share of its link in at
 * most two lines of 80 columns, however many there are; and the limit of
 * a controller is named: its PCIe link, the controller or an expander, or
 * the drives.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../lib/tap.h"
#include "judge/record.h"
#include "base/timing.h"

static struct settings s;
static struct record r;

static void fresh(void)
{
	record_free(&r);
	settings_defaults(&s, SCOPE_BURN);
	record_init(&r, "burn", 0, NULL, &s);
}

static struct pci_controller pcie(const char *pci, const char *speed,
				  int width, const char *max_speed,
				  int max_width)
{
	struct pci_controller c;

	memset(&c, 0, sizeof(c));
	snprintf(c.pci, sizeof(c.pci), "%s", pci);
	snprintf(c.link_speed, sizeof(c.link_speed), "%s", speed);
	snprintf(c.max_link_speed, sizeof(c.max_link_speed), "%s",
		 max_speed);
	c.link_width = width;
	c.max_link_width = max_width;
	c.link_mbps = pci_lane_mbps(speed) * width;
	c.degraded = pci_lane_mbps(speed) < pci_lane_mbps(max_speed) ||
		     width < max_width;
	return c;
}

static int near(double a, double b)
{
	return a > b - 0.5 && a < b + 0.5;
}

static void test_rates(void)
{
	struct pci_controller c;
	char buf[64];

	tap_ok(near(links_rate_mbps("1.5 Gbps"), 150) &&
	       near(links_rate_mbps("3.0 Gbps"), 300) &&
	       near(links_rate_mbps("6.0 Gbps"), 600) &&
	       near(links_rate_mbps("12.0 Gbit"), 1200) &&
	       near(links_rate_mbps("22.5 Gbit"), 2400),
	       "SATA 1.5/3/6 Gb/s and SAS 3/6/12 Gb/s carry a tenth in MB/s "
	       "(8b/10b); SAS 22.5 Gb/s 2400 MB/s (128b/150b)");
	tap_ok(!links_rate_mbps("<unknown>") &&
	       !links_rate_mbps("Link Rate failed") && !links_rate_mbps("") &&
	       !links_rate_mbps(NULL) && !links_rate_mbps("Unknown"),
	       "a link the kernel cannot rate has none");

	c = pcie("0000:03:00.0", "8.0 GT/s PCIe", 8, "8.0 GT/s PCIe", 8);
	tap_ok(!strcmp(links_pcie_text(&c, buf, sizeof(buf)), "PCIe 3.0 x8") &&
	       near(c.link_mbps, 7877), "PCIe 3.0 x8: %s, %.0f MB/s", buf,
	       c.link_mbps);
	c = pcie("0000:03:00.0", "8.0 GT/s PCIe", 4, "8.0 GT/s PCIe", 8);
	tap_ok(!strcmp(links_pcie_text(&c, buf, sizeof(buf)),
		       "PCIe 3.0 x4 of x8"), "narrower than it can: %s", buf);
	c = pcie("0000:03:00.0", "5.0 GT/s PCIe", 8, "16.0 GT/s PCIe", 8);
	tap_ok(!strcmp(links_pcie_text(&c, buf, sizeof(buf)),
		       "PCIe 2.0 x8 of 4.0 x8"), "slower than it can: %s", buf);
	c = pcie("0000:03:00.0", "32.0 GT/s PCIe", 4, "32.0 GT/s PCIe", 4);
	tap_ok(!strcmp(links_pcie_text(&c, buf, sizeof(buf)), "PCIe 5.0 x4") &&
	       near(c.link_mbps, 15754), "PCIe 5.0 x4: %s", buf);
	c = pcie("0000:00:1f.2", "Unknown", 0, "Unknown", 255);
	tap_ok(!links_pcie_text(&c, buf, sizeof(buf))[0] &&
	       !strcmp(links_fmt_rate(3100, buf, sizeof(buf)), "3100 MB/s") &&
	       !strcmp(links_fmt_rate(890.4, buf, sizeof(buf)), "890 MB/s"),
	       "no link said when sysfs has none; rates in MB/s however large");
}

static void test_verdicts(void)
{
	struct links_ctrl c;
	char buf[300];

	memset(&c, 0, sizeof(c));
	c.pci = pcie("0000:03:00.0", "8.0 GT/s PCIe", 8, "8.0 GT/s PCIe", 8);
	c.read_mbps = 3100;
	c.write_mbps = 2500;
	tap_ok(!strcmp(links_verdict(&c, buf, sizeof(buf)), "3100 MB/s, 39% "
		       "of PCIe 3.0 x8: not the link; a solo phase "
		       "(solo=SECONDS) tells the drives from the controller"),
	       "without a solo phase: the share of the link (%s)", buf);
	c.solo_sum = 12000;
	tap_ok(!strcmp(links_verdict(&c, buf, sizeof(buf)), "the controller "
		       "or an expander is the limit: 3100 MB/s read together, "
		       "26% of the 12000 MB/s its disks read alone, under its "
		       "PCIe 3.0 x8 link"),
	       "well under its disks alone and under the link: the "
	       "controller or an expander (%s)", buf);
	c.solo_sum = 3300;
	tap_ok(!strncmp(links_verdict(&c, buf, sizeof(buf)), "the drives are "
			"the limit: 3100 MB/s read together, 94% of the "
			"3300 MB/s", 71), "near its disks alone: the drives (%s)",
	       buf);
	c.read_mbps = 7500;
	tap_ok(!strcmp(links_verdict(&c, buf, sizeof(buf)), "the PCIe link is "
		       "the limit: 7500 MB/s, 95% of PCIe 3.0 x8"),
	       "at 90%% of its PCIe link or more: the link (%s)", buf);
	c.pci = pcie("0000:03:00.0", "2.5 GT/s PCIe", 1, "2.5 GT/s PCIe", 1);
	c.solo_sum = 0;
	c.write_mbps = 345;
	c.read_mbps = 104;
	tap_ok(!strcmp(links_verdict(&c, buf, sizeof(buf)), "345 MB/s, faster "
		       "than the 250 MB/s its PCIe 1.0 x1 is said to carry: "
		       "no limit (an emulated device?)"),
	       "faster than its link says it carries (QEMU's NVMe): the link "
	       "is no limit (%s)", buf);
	c.write_mbps = 228;
	c.fastest_mbps = 345;
	tap_ok(!strcmp(links_verdict(&c, buf, sizeof(buf)), "228 MB/s; a disk "
		       "of it moved 345 MB/s one way, faster than the 250 MB/s "
		       "its PCIe 1.0 x1 is said to carry: no limit (an emulated "
		       "device?)"),
	       "91%% of it together, but a disk of it wrote faster than the "
	       "link carries: not \"the PCIe link is the limit\" (%s)", buf);
	memset(&c, 0, sizeof(c));
	tap_ok(!links_verdict(&c, buf, sizeof(buf))[0],
	       "nothing moved: nothing said");
}

static void test_sampling(void)
{
	struct engine_counters c[3];
	struct record_disk *disks[3];
	struct pci_controller pa, pb;
	uint64_t t;
	int i, a, b;

	fresh();
	pa = pcie("0000:03:00.0", "8.0 GT/s PCIe", 8, "8.0 GT/s PCIe", 8);
	pb = pcie("0000:04:00.0", "8.0 GT/s PCIe", 1, "8.0 GT/s PCIe", 1);
	a = links_add_ctrl(&r.links, &pa);
	b = links_add_ctrl(&r.links, &pb);
	tap_ok(a == 0 && b == 1 && links_add_ctrl(&r.links, &pa) == 0,
	       "a controller is added once");
	for (i = 0; i < 3; i++)
		if (!record_add(&r, "d", SETTINGS_READ))
			tap_bail("out of memory");
	for (i = 0; i < 3; i++) {
		disks[i] = &r.disks[i];
		disks[i]->link.ctrl = i < 2 ? a : b;
	}
	r.links.ctrls[a].ndisks = 2;
	r.links.ctrls[b].ndisks = 1;
	r.links.last = calloc(7, sizeof(*r.links.last));
	r.links.nlast = 3;
	memset(c, 0, sizeof(c));
	links_start(&r.links, 0);
	/* 25 s: each disk of a at 100 MB/s, b's at 500, then 300. */
	for (t = 1; t <= 25; t++) {
		c[0].bytes_written += 100000000;
		c[1].bytes_read += 100000000;
		c[2].bytes_read += t <= 10 ? 500000000 : 300000000;
		links_sample(&r.links, disks, c, 3, t * TIMING_SEC);
	}
	tap_ok(near(r.links.ctrls[a].write_mbps, 100) &&
	       near(r.links.ctrls[a].read_mbps, 100) &&
	       near(r.links.ctrls[b].read_mbps, 500) &&
	       r.links.ctrls[b].windows == 2,
	       "each controller keeps its best ten seconds, writes and reads "
	       "apart (%.0f, %.0f, %.0f)", r.links.ctrls[a].write_mbps,
	       r.links.ctrls[a].read_mbps, r.links.ctrls[b].read_mbps);
}

/*
 * A controller's total is the sum of its disks over the same seconds: a
 * window of writes, then one of reads, is never "together" both; a
 * one-disk controller says what its disk did; two on one controller,
 * busy in different seconds, are not added up as if at once.
 */
static void test_same_seconds(void)
{
	struct engine_counters c[3];
	struct record_disk *disks[3];
	struct pci_controller pa, pb;
	const struct links_ctrl *a, *b;
	uint64_t t;
	int i;

	fresh();
	pa = pcie("0000:03:00.0", "2.5 GT/s PCIe", 1, "2.5 GT/s PCIe", 1);
	pb = pcie("0000:04:00.0", "8.0 GT/s PCIe", 8, "8.0 GT/s PCIe", 8);
	links_add_ctrl(&r.links, &pa);
	links_add_ctrl(&r.links, &pb);
	for (i = 0; i < 3; i++)
		if (!record_add(&r, "d", SETTINGS_READ))
			tap_bail("out of memory");
	for (i = 0; i < 3; i++) {
		disks[i] = &r.disks[i];
		disks[i]->link.ctrl = i ? 1 : 0;
	}
	r.links.ctrls[0].ndisks = 1;
	r.links.ctrls[1].ndisks = 2;
	r.links.last = calloc(7, sizeof(*r.links.last));
	r.links.nlast = 3;
	memset(c, 0, sizeof(c));
	links_start(&r.links, 0);
	/*
	 * 40 s. Disk 0 writes at 228 MB/s for 10 s, then reads at 104, then
	 * writes 150 and reads 50 in each second. Disk 1 writes 600 MB/s
	 * for the first 20 s; disk 2 reads 600 MB/s in the last 20.
	 */
	for (t = 1; t <= 40; t++) {
		if (t <= 10)
			c[0].bytes_written += 228000000;
		else if (t <= 20)
			c[0].bytes_read += 104000000;
		else {
			c[0].bytes_written += 150000000;
			c[0].bytes_read += 50000000;
		}
		if (t <= 20)
			c[1].bytes_written += 600000000;
		else
			c[2].bytes_read += 600000000;
		links_sample(&r.links, disks, c, 3, t * TIMING_SEC);
	}
	a = &r.links.ctrls[0];
	b = &r.links.ctrls[1];
	tap_ok(near(a->write_mbps, 228) && near(a->read_mbps, 0),
	       "writes of one window and reads of another are not together: "
	       "%.0f MB/s write, %.0f read (228 and 0: its busiest seconds)",
	       a->write_mbps, a->read_mbps);
	tap_ok(near(a->write_mbps, disks[0]->link.write_mbps) &&
	       near(a->read_mbps, disks[0]->link.read_mbps),
	       "a one-disk controller says what its disk did in the same "
	       "seconds (%.0f/%.0f, the disk %.0f/%.0f)", a->write_mbps,
	       a->read_mbps, disks[0]->link.write_mbps,
	       disks[0]->link.read_mbps);
	tap_ok(near(b->write_mbps + b->read_mbps, 600) &&
	       near(disks[1]->link.write_mbps, 600) &&
	       near(disks[2]->link.read_mbps, 600),
	       "two disks busy in different seconds: 600 MB/s together, not "
	       "1200 (%.0f write, %.0f read)", b->write_mbps, b->read_mbps);
}

static int lines_fit(const char *text, int most)
{
	const char *p = text;
	int lines = 0;

	while (*p) {
		size_t n = strcspn(p, "\n");

		if (n > 80)
			return 0;
		lines++;
		p += n + (p[n] == '\n');
	}
	return lines >= 1 && lines <= most;
}

/* Shows the live line under its test, a "# " before each of its lines. */
static void show(const char *text)
{
	char copy[400], *line, *save = NULL;

	snprintf(copy, sizeof(copy), "%s", text);
	for (line = strtok_r(copy, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save))
		tap_diag("%s", line);
}

static void test_live(void)
{
	struct pci_controller pc;
	char out[400], name[32];
	int i, k;

	fresh();
	r.links.status_ns = 0;
	for (i = 0; i < 3; i++) {
		snprintf(name, sizeof(name), "0000:%02x:00.0", i + 3);
		pc = pcie(name, "8.0 GT/s PCIe", 8, "8.0 GT/s PCIe", 8);
		k = links_add_ctrl(&r.links, &pc);
		r.links.ctrls[k].ndisks = 20;
		r.links.ctrls[k].live = 31000000000ull;	/* in 10 s */
	}
	links_status(&r.links, 10 * TIMING_SEC, out, sizeof(out));
	tap_ok(!strcmp(out, "  ctrl 03:00.0 3100 MB/s 39%  04:00.0 3100 MB/s "
		       "39%  05:00.0 3100 MB/s 39%"),
	       "three controllers: MB/s and share of the link, one line");
	show(out);
	links_status(&r.links, 20 * TIMING_SEC, out, sizeof(out));
	tap_ok(!strncmp(out, "  ctrl 03:00.0 0 MB/s 0%", 24),
	       "each line is the interval since the last");

	for (i = 3; i < 24; i++) {
		snprintf(name, sizeof(name), "0000:%02x:00.0", i + 3);
		pc = pcie(name, "16.0 GT/s PCIe", 4, "16.0 GT/s PCIe", 4);
		k = links_add_ctrl(&r.links, &pc);
		r.links.ctrls[k].ndisks = 1;
		r.links.ctrls[k].live = 35000000000ull;
	}
	links_status(&r.links, 30 * TIMING_SEC, out, sizeof(out));
	tap_ok(lines_fit(out, 2) && strstr(out, "\n  ctrl ") &&
	       strstr(out, "  +17 more") && !strstr(out, "MB/s"),
	       "24 NVMe drives: two lines of 80 columns, shorter, the rest "
	       "counted");
	show(out);

	fresh();
	pc = pcie("0000:03:00.0", "8.0 GT/s PCIe", 8, "8.0 GT/s PCIe", 8);
	links_add_ctrl(&r.links, &pc);
	links_status(&r.links, 10 * TIMING_SEC, out, sizeof(out));
	tap_ok(!out[0], "no disk behind any controller (loop devices, files): "
	       "no line");

	/*
	 * From the status line's rates: a controller's is its disks' added,
	 * never its bytes over time two of its disks sat done in.
	 */
	{
		struct record_disk *ds[3];
		double mbps[3] = { 1500, 1450, 900 };

		r.links.ctrls[0].ndisks = 2;
		r.links.ctrls[0].live = 1000000000ull;
		for (i = 0; i < 3; i++)
			if (!record_add(&r, "d", SETTINGS_READ))
				tap_bail("out of memory");
		for (i = 0; i < 3; i++) {
			ds[i] = &r.disks[i];
			ds[i]->link.ctrl = i < 2 ? 0 : -1;
		}
		links_status_of(&r.links, ds, mbps, 3, 20 * TIMING_SEC, out,
				sizeof(out));
		tap_ok(!strcmp(out, "  ctrl 03:00.0 2950 MB/s 37%"),
		       "a controller's live MB/s: its disks' on the status "
		       "line, added (%s)", out);
	}
}

/* Each disk of a tree Linux made in QEMU (q35: SATA, SAS, NVMe, RAID). */
static void test_fixture(void)
{
	static const char *const names[] = { "sda", "sdb", "sdd", "nvme0n1",
					     "vda" };
	char dir[] = "/tmp/kiln-links-XXXXXX", cmd[200], sys[64];
	struct record_disk *d[5];
	int i;

	if (access("tests/fixtures/sysfs/q35.tar.gz", R_OK) || !mkdtemp(dir)) {
		tap_skip("tests/fixtures/sysfs/q35.tar.gz not found (run from "
			 "the top of the tree)");
		return;
	}
	snprintf(cmd, sizeof(cmd), "tar xzf tests/fixtures/sysfs/q35.tar.gz "
		 "-C %s", dir);
	if (system(cmd)) {
		tap_skip("tar cannot unpack the fixture");
		return;
	}
	fresh();
	for (i = 0; i < 5; i++)
		if (!record_add(&r, names[i], SETTINGS_READ))
			tap_bail("out of memory");
	for (i = 0; i < 5; i++) {
		d[i] = &r.disks[i];
		snprintf(d[i]->t.id.name, sizeof(d[i]->t.id.name), "%s",
			 names[i]);
	}
	snprintf(sys, sizeof(sys), "%s/sys", dir);
	tap_ok(links_read(&r, sys) == 0 &&
	       !strcmp(d[0]->link.kind, "sas") &&
	       !strcmp(d[0]->link.rate, "3.0 Gbit") &&
	       near(d[0]->link.mbps, 300) &&
	       !strcmp(d[2]->link.kind, "sata") &&
	       !strcmp(d[2]->link.rate, "1.5 Gbps") &&
	       near(d[2]->link.mbps, 150) &&
	       !strcmp(d[3]->link.kind, "pcie") &&
	       !strcmp(d[3]->link.rate, "PCIe 1.0 x1") &&
	       near(d[3]->link.mbps, 250) &&
	       !d[1]->link.kind[0] && !d[4]->link.kind[0],
	       "SAS, SATA and NVMe links as the guest's kernel had them; a "
	       "RAID volume and virtio have none");
	tap_ok(r.links.n == 5 && d[1]->link.ctrl >= 0 &&
	       !strcmp(r.links.ctrls[d[1]->link.ctrl].pci.pci,
		       "0000:02:00.0") &&
	       r.links.ctrls[d[3]->link.ctrl].ndisks == 1 &&
	       !strcmp(d[1]->link.transport, "scsi"),
	       "each disk under the controller the guest saw it behind");
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd))
		tap_diag("cannot remove %s", dir);
}

int main(int argc, char **argv)
{
	tap_args(argc, argv);
	TAP_RUN(test_rates);
	TAP_RUN(test_verdicts);
	TAP_RUN(test_sampling);
	TAP_RUN(test_same_seconds);
	TAP_RUN(test_live);
	TAP_RUN(test_fixture);
	record_free(&r);
	return tap_done();
}
