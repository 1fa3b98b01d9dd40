/* SPDX-License-Identifier: MIT */
/*
 * Description: the machine's sensors read from sysfs trees: one recorded
 * from Debian's kernel on QEMU (q35, NVMe hwmon, AER counters of root
 * ports and endpoints before and after errors were injected, EDAC with no
 * memory controller), and one made by hand from the kernel's documented
 * formats (coretemp, drivetemp, NVMe over its limit, EDAC by DIMM and by
 * csrow, AER). Temperatures and their limits, which disk a sensor is on,
 * the PCI path of a disk, what rose between two samples, and odd files
 * (garbage, huge numbers, folders, nothing at all) never crashing.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../lib/tap.h"
#include "sense/sensors.h"

static char tmp[] = "/tmp/kiln-sensors-XXXXXX";

static void put(const char *rel, const char *text)
{
	tap_put(text, "%s/server/sys/%s", tmp, rel);
}

static const struct sensors_temp *temp_of(const struct sensors *s,
					  const char *hwmon, int index)
{
	int i;

	for (i = 0; i < s->ntemps; i++)
		if (!strcmp(s->temps[i].hwmon, hwmon) && s->temps[i].index == index)
			return &s->temps[i];
	return NULL;
}

static const struct sensors_edac *edac_of(const struct sensors *s,
					  const char *where)
{
	int i;

	for (i = 0; i < s->nedac; i++)
		if (!strcmp(s->edac[i].where, where))
			return &s->edac[i];
	return NULL;
}

static int has_rise(const struct sensors_rise *r, int n, int kind,
		    const char *what, long from, long to)
{
	int i;

	for (i = 0; i < n; i++)
		if (r[i].kind == kind && !strncmp(r[i].what, what, strlen(what)) &&
		    r[i].from == from && r[i].to == to)
			return 1;
	return 0;
}

static void qemu(void)
{
	static const char nvme0[] =
		"/devices/pci0000:00/0000:00:01.0/0000:01:00.0/nvme/nvme0";
	static const char sde[] = "/devices/pci0000:00/0000:00:03.0/"
		"0000:03:00.0/virtio0/host8/target8:0:0/8:0:0:0/block/sde";
	char root[PATH_MAX], path[4][24];
	struct sensors before, after;
	struct sensors_rise r[16];
	const struct sensors_temp *t;
	const struct sensors_aer *a;
	int n, i, on_path = 0;

	snprintf(root, sizeof(root), "%s/before/sys", tmp);
	sensors_read(root, &before);
	snprintf(root, sizeof(root), "%s/after/sys", tmp);
	sensors_read(root, &after);

	t = temp_of(&before, "hwmon0", 1);
	tap_ok(before.ntemps == 2 && t && !strcmp(t->name, "nvme") &&
	       !strcmp(t->label, "Composite") && t->input == 49850 &&
	       t->max == 69850 && t->crit == 99850 && t->min == SENSORS_NONE &&
	       t->alarm == 0 && !strcmp(t->device, nvme0),
	       "QEMU NVMe hwmon: 49.85 C, max 69.85, crit 99.85, no min; "
	       "on nvme0");
	t = sensors_disk_temp(&after, "/devices/pci0000:00/0000:00:01.0/"
			      "0000:01:00.0/nvme/nvme0/nvme0n1");
	tap_ok(t && t->input == 49850 && !strcmp(t->hwmon, "hwmon0") &&
	       after.ntemps == 1 && !sensors_disk_temp(&after, sde),
	       "nvme0n1's temperature is its controller's; virtio-scsi has "
	       "none; the unplugged controller's hwmon is gone");

	a = sensors_aer_of(&after, "0000:03:00.0");
	tap_ok(after.aer_ports == 7 && a && a->cor == 2 && a->nonfatal == 1 &&
	       a->fatal == 0 && a->rp_cor == -1 &&
	       !strcmp(a->errors, "RxErr 1, BadTLP 1, CmpltTO 1"),
	       "AER of virtio-scsi after injection: 2 corrected, 1 "
	       "non-fatal, named (%s)", a ? a->errors : "none");
	a = sensors_aer_of(&after, "0000:00:03.0");
	tap_ok(a && a->cor == 0 && a->rp_cor == 2 && a->rp_nonfatal == 1 &&
	       a->rp_fatal == 0 && !sensors_aer_of(&after, "0000:01:00.0"),
	       "its root port counts what came from below; the NVMe has no "
	       "AER capability, no counters");

	n = sensors_diff(&before, &after, r, 16);
	tap_ok(n == 3 &&
	       has_rise(r, n, SENSORS_AER_COR, "0000:00:01.0", 0, 1) &&
	       has_rise(r, n, SENSORS_AER_COR, "0000:03:00.0", 0, 2) &&
	       has_rise(r, n, SENSORS_AER_NONFATAL, "0000:03:00.0", 0, 1),
	       "what rose: the port's own Timeout, virtio-scsi's 2 and 1; "
	       "nothing for the controller unplugged");

	tap_ok(sensors_pci_path(sde, path, 4) == 2 &&
	       !strcmp(path[0], "0000:03:00.0") &&
	       !strcmp(path[1], "0000:00:03.0"),
	       "sde's PCI path: its controller, then its root port");
	for (i = 0; i < n; i++)
		if (!strcmp(r[i].what, path[0]) || !strcmp(r[i].what, path[1]))
			on_path += (int)(r[i].to - r[i].from);
	tap_ok(on_path == 3, "AER on sde's path: 3 errors");
	tap_ok(after.edac_mcs == 0 && after.nedac == 0,
	       "EDAC present without a memory controller: nothing to count");
	sensors_free(&before);
	sensors_free(&after);
}

static void server(void)
{
	char root[PATH_MAX];
	struct sensors s, s2;
	struct sensors_rise r[16];
	const struct sensors_temp *t;
	const struct sensors_edac *e;
	int n;

	tap_ok(sensors_read("tests/fixtures/sensors/server/sys", &s) == 0 &&
	       s.ntemps == 7,
	       "seven temperatures, one of them unreadable");
	t = temp_of(&s, "hwmon0", 1);
	tap_ok(t && !strcmp(t->label, "Package id 0") && t->input == 67000 &&
	       t->crit == 100000 && t->alarm == 0 &&
	       !strcmp(t->device, "/devices/platform/coretemp.0"),
	       "coretemp: package 67 C, crit 100 C, on the platform device");
	t = sensors_disk_temp(&s, "/devices/pci0000:00/0000:00:17.0/ata3/"
			      "host2/target2:0:0/2:0:0:0/block/sdc");
	tap_ok(t && !strcmp(t->name, "drivetemp") && t->input == 41000 &&
	       t->lcrit == -40000 && t->min == 0 && t->max == 60000 &&
	       t->crit == 70000,
	       "sdc: drivetemp 41 C, its limits -40, 0, 60, 70");
	t = sensors_disk_temp(&s, "/devices/pci0000:00/0000:00:1c.0/"
			      "0000:02:00.0/nvme/nvme0/nvme0n1");
	tap_ok(t && t->index == 1 && t->input == 86850 && t->alarm == 1,
	       "nvme0n1: the composite (86.85 C, alarm), not sensor 1");
	tap_ok(!sensors_disk_temp(&s, "/devices/pci0000:00/0000:00:17.0/ata4/"
				  "host3/target3:0:0/3:0:0:0/block/sdd") &&
	       temp_of(&s, "hwmon4", 1) &&
	       temp_of(&s, "hwmon4", 1)->input == SENSORS_NONE,
	       "a sensor that fails to read is listed, never a disk's "
	       "temperature");

	e = edac_of(&s, "mc0/dimm0");
	tap_ok(s.edac_mcs == 2 && s.nedac == 5 && edac_of(&s, "mc0") &&
	       edac_of(&s, "mc0")->ce == 5 && e && e->ce == 5 && e->ue == 0 &&
	       !strcmp(e->label, "CPU_SrcID#0_MC#0_Chan#0_DIMM#0") &&
	       edac_of(&s, "mc1/csrow0") &&
	       !strcmp(edac_of(&s, "mc1/csrow0")->label, "DIMM_A1"),
	       "EDAC: mc0 5 corrected on DIMM 0 by label; mc1 by csrow");
	tap_ok(sensors_aer_of(&s, "0000:02:00.0") &&
	       sensors_aer_of(&s, "0000:02:00.0")->cor == 3 &&
	       sensors_aer_of(&s, "0000:00:1c.0") &&
	       sensors_aer_of(&s, "0000:00:1c.0")->rp_cor == 3 &&
	       !sensors_aer_of(&s, "0000:00:17.0") && s.aer_ports == 2,
	       "AER: 3 receiver errors at the NVMe, 3 at its root port, "
	       "none kept for AHCI");

	n = sensors_diff(&s, &s, r, 16);
	tap_ok(n == 1 && has_rise(r, n, SENSORS_TEMP_MAX, "hwmon2 temp1 nvme "
				  "Composite", 86850, 86850),
	       "a sample against itself: only the NVMe over its max");

	/* The same machine later: the counters rose, the CPU got hot. */
	tap_sh("cp -a %s/tests/fixtures/sensors/server %s/",
	       getcwd(root, sizeof(root)), tmp);
	put("devices/system/edac/mc/mc0/ce_count", "7\n");
	put("devices/system/edac/mc/mc0/dimm0/dimm_ce_count", "7\n");
	put("devices/system/edac/mc/mc1/csrow0/ue_count", "1\n");
	put("devices/pci0000:00/0000:00:1c.0/0000:02:00.0/aer_dev_correctable",
	    "RxErr 4\nBadTLP 0\nTOTAL_ERR_COR 4\n");
	put("devices/pci0000:00/0000:00:1c.0/0000:02:00.0/aer_dev_nonfatal",
	    "CmpltTO 1\nTOTAL_ERR_NONFATAL 1\n");
	put("devices/platform/coretemp.0/hwmon/hwmon0/temp1_input", "100000\n");
	snprintf(root, sizeof(root), "%s/server/sys", tmp);
	sensors_read(root, &s2);
	n = sensors_diff(&s, &s2, r, 16);
	tap_ok(n == 7 && has_rise(r, n, SENSORS_EDAC_CE, "mc0", 5, 7) &&
	       has_rise(r, n, SENSORS_EDAC_CE, "mc0/dimm0 (CPU_SrcID#0_MC#0_"
			"Chan#0_DIMM#0)", 5, 7) &&
	       has_rise(r, n, SENSORS_EDAC_UE, "mc1/csrow0", 0, 1) &&
	       has_rise(r, n, SENSORS_AER_COR, "0000:02:00.0", 3, 4) &&
	       has_rise(r, n, SENSORS_AER_NONFATAL, "0000:02:00.0", 0, 1) &&
	       has_rise(r, n, SENSORS_TEMP_CRIT, "hwmon0 temp1 coretemp",
			67000, 100000),
	       "what rose: EDAC by controller and DIMM, an uncorrected "
	       "error, AER, a CPU at its crit (%d)", n);
	tap_ok(sensors_diff(&s, &s2, r, 2) == 7 && r[1].kind >= 0,
	       "more rises than room: all counted, the room filled");
	sensors_free(&s2);

	/* A counter that restarts (a reset, a driver reload) is no rise. */
	put("devices/system/edac/mc/mc0/ce_count", "0\n");
	put("devices/system/edac/mc/mc0/dimm0/dimm_ce_count", "0\n");
	put("devices/system/edac/mc/mc1/csrow0/ue_count", "0\n");
	put("devices/platform/coretemp.0/hwmon/hwmon0/temp1_input", "67000\n");
	sensors_read(root, &s2);
	n = sensors_diff(&s, &s2, r, 16);
	tap_ok(n == 3 && !has_rise(r, n, SENSORS_EDAC_CE, "mc0", 5, 0) &&
	       has_rise(r, n, SENSORS_AER_COR, "0000:02:00.0", 3, 4),
	       "counters that went down are not rises");
	sensors_free(&s2);
	sensors_free(&s);
}

static void odd(void)
{
	static const char *const junk[] = {
		"", "\n", "garbage", "99999999999999999999999\n", "-5\n",
		"\x01\x02\xff\xfe", "RxErr\nTOTAL_ERR_COR x\n",
		"TOTAL_ERR_COR -3\nRxErr -1\n",
	};
	static const char *const files[] = {
		"devices/platform/coretemp.0/hwmon/hwmon0/temp1_input",
		"devices/platform/coretemp.0/hwmon/hwmon0/temp1_crit",
		"devices/platform/coretemp.0/hwmon/hwmon0/temp1_label",
		"devices/platform/coretemp.0/hwmon/hwmon0/name",
		"devices/system/edac/mc/mc0/ce_count",
		"devices/system/edac/mc/mc0/dimm0/dimm_label",
		"devices/pci0000:00/0000:00:1c.0/0000:02:00.0/aer_dev_correctable",
		"devices/pci0000:00/0000:00:1c.0/aer_rootport_total_err_cor",
	};
	char root[PATH_MAX], big[8192], path[3][24];
	struct sensors s;
	size_t i, j;
	int ok = 1;

	snprintf(root, sizeof(root), "%s/server/sys", tmp);
	for (i = 0; i < sizeof(junk) / sizeof(junk[0]); i++) {
		for (j = 0; j < sizeof(files) / sizeof(files[0]); j++)
			put(files[j], junk[i]);
		if (sensors_read(root, &s) != 0 || s.ntemps < 1)
			ok = 0;
		if (s.naer && sensors_aer_of(&s, "0000:02:00.0") &&
		    sensors_aer_of(&s, "0000:02:00.0")->cor > 0)
			ok = 0;
		sensors_free(&s);
	}
	memset(big, '7', sizeof(big) - 1);
	big[sizeof(big) - 1] = 0;
	for (j = 0; j < sizeof(files) / sizeof(files[0]); j++)
		put(files[j], big);
	ok &= sensors_read(root, &s) == 0;
	sensors_free(&s);
	tap_ok(ok, "garbage, huge numbers, negatives, binary: read as not "
	       "given, never a crash");

	tap_ok(sensors_read("/nonexistent/sys", &s) == 0 && !s.ntemps &&
	       !s.nedac && !s.naer && !s.edac_mcs,
	       "no sysfs at all: an empty sample");
	sensors_free(&s);

	tap_ok(sensors_pci_path("/devices/pci0000:00/0000:00:0e.0/pci10000:e0/"
				"10000:e0:06.0/10000:e1:00.0/nvme/nvme2/nvme2n1",
				path, 3) == 3 &&
	       !strcmp(path[0], "10000:e1:00.0") &&
	       !strcmp(path[1], "10000:e0:06.0") &&
	       !strcmp(path[2], "0000:00:0e.0"),
	       "behind VMD: the NVMe, its port in the VMD domain, the VMD");
	tap_ok(sensors_pci_path("/devices/pci0000:00/0000:00:1c.0/0000:01:00.0/"
				"0000:02:01.0/0000:03:00.0/host0/block/sda",
				path, 2) == 2 &&
	       !strcmp(path[0], "0000:03:00.0") &&
	       !strcmp(path[1], "0000:02:01.0") &&
	       sensors_pci_path("/devices/virtual/block/loop0", path, 3) == 0 &&
	       sensors_pci_path("", path, 3) == 0,
	       "a switch's ports kept to the room given; a loop device has "
	       "no PCI path");
}

int main(int argc, char **argv)
{
	char cwd[PATH_MAX];

	tap_args(argc, argv);
	if (!mkdtemp(tmp))
		tap_bail("mkdtemp: %s", strerror(errno));
	if (!getcwd(cwd, sizeof(cwd)))
		tap_bail("getcwd");
	tap_sh("tar -xzf %s/tests/fixtures/sensors/qemu-q35.tar.gz -C %s", cwd,
	       tmp);
	TAP_RUN(qemu);
	TAP_RUN(server);
	TAP_RUN(odd);
	tap_sh("rm -rf %s", tmp);
	return tap_done();
}
