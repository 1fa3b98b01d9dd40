/* SPDX-License-Identifier: MIT */
/*
 * Description: the machine's own signals folded into a run's facts and
 * judged, on what real parts said: smartctl's JSON of QEMU's drives and of
 * drives QEMU cannot be (tests/fixtures/smartjson), sysfs recorded from
 * Debian's kernel on QEMU and made by hand from the kernel's formats
 * (tests/fixtures/sensors, sysfs), and the kernel's log of the same QEMU
 * guest (tests/fixtures/kmsg). Temperatures against the drive's own limit,
 * the setting and the defaults; the series bounded; an NVMe critical
 * warning raised during the run; log lines attributed through each disk's
 * names read from sysfs; AER on a disk's path and elsewhere; memory errors
 * failing the machine, once, beside the run's own failure; drives behind
 * RAID controllers found by smartctl --scan-open and judged for the
 * machine; self-tests ended, failed, not supported.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/tap.h"
#include "../lib/reasons.h"
#include "sense/raidscan.h"
#include "judge/record.h"
#include "judge/smartjudge.h"
#include "judge/smarttest.h"
#include "judge/vitals.h"
#include "results/vitals_out.h"

static char tmp[] = "/tmp/kiln-signals-XXXXXX";

static void put(const char *rel, const char *text)
{
	tap_put(text, "%s/%s", tmp, rel);
}

/* A reading of a drive as smartctl's JSON in a fixture says it. */
static void reading(const char *fixture, struct vitals_reading *rd)
{
	char path[256];
	size_t len;
	char *text;

	memset(rd, 0, sizeof(*rd));
	snprintf(path, sizeof(path), "tests/fixtures/smartjson/%s", fixture);
	text = tap_slurp(path, &len);
	if (smartjson_parse(text, len, &rd->sj))
		tap_bail("%s: not smartctl's JSON", fixture);
	free(text);
	rd->asked = rd->answered = 1;
	rd->hw_temp = rd->hw_max = rd->hw_crit = SENSORS_NONE;
}

/* A record of the disks named, block devices as kiln run makes them. */
static void record_of(struct record *r, struct settings *s,
		      const char *const *names, int n)
{
	char path[64];
	int i;

	settings_defaults(s, SCOPE_BURN);
	record_init(r, "run", 0, NULL, s);
	for (i = 0; i < n; i++) {
		struct record_disk *d;

		snprintf(path, sizeof(path), "/dev/%s", names[i]);
		d = record_add(r, path, 0);
		if (!d)
			tap_bail("out of memory");
		snprintf(d->t.id.name, sizeof(d->t.id.name), "%s", names[i]);
		snprintf(d->label, sizeof(d->label), "%s", names[i]);
		d->t.id.rotational = -1;
	}
}

static void judge_disk(struct record *r, struct record_disk *d)
{
	memset(&d->j, 0, sizeof(d->j));
	vitals_judge_disk(r, d);
}

static void temperatures(void)
{
	struct vitals_reading rd;
	struct vitals_disk d;
	struct record r;
	struct settings s;
	static const char *const names[] = { "nvme0n1" };

	/* QEMU's NVMe: 50 C; its WCTEMP (70 C) only through hwmon on 7.3. */
	reading("qemu-nvme.json", &rd);
	rd.hw_temp = 49850;
	rd.hw_max = 69850;
	rd.hw_crit = 99850;
	record_of(&r, &s, names, 1);
	vitals_fold_disk(&r.disks[0].sig, &rd, 0, 0);
	judge_disk(&r, &r.disks[0]);
	tap_ok(r.disks[0].sig.temp_last == 50 &&
	       r.disks[0].sig.limit == 70 &&
	       r.disks[0].sig.limit_from == VITALS_LIMIT_DRIVE &&
	       r.disks[0].j.nreasons == 0,
	       "QEMU's NVMe at 50 C under its own 70 C: nothing said");
	vitals_disk_free(&r.disks[0].sig);
	vitals_disk_init(&r.disks[0].sig);
	vitals_fold_disk(&r.disks[0].sig, &rd, 0, 45);
	judge_disk(&r, &r.disks[0]);
	tap_ok(r.disks[0].j.verdict == JUDGE_WARN &&
	       tap_has_reason(&r.disks[0].j, "temperature reached 50 C, at or over its "
		   "limit of 45 C (temp-warn)"),
	       "temp-warn=45 holds for every drive: a WARN naming 50 and 45");
	record_free(&r);

	reading("qemu-ata.json", &rd);
	vitals_disk_init(&d);
	d.rotational = 1;
	vitals_fold_disk(&d, &rd, 0, 0);
	rd.sj.temp = 61;
	vitals_fold_disk(&d, &rd, 60, 0);
	rd.sj.temp = 33;
	vitals_fold_disk(&d, &rd, 120, 0);
	tap_ok(d.temp_first == 31 && d.temp_max == 61 && d.temp_last == 33 &&
	       d.limit == 60 && d.limit_from == VITALS_LIMIT_HDD &&
	       d.sampled == 3 && d.nseries == 3 && d.series[1].t == 60 &&
	       d.series[1].c == 61,
	       "QEMU's ATA disk says no limit: a spinning disk's is 60 C; "
	       "first, max and last kept, and the series");
	vitals_disk_free(&d);
	vitals_disk_init(&d);
	d.rotational = 0;
	vitals_fold_disk(&d, &rd, 0, 0);
	tap_ok(d.limit == 70 && d.limit_from == VITALS_LIMIT_SSD,
	       "an SSD without a limit of its own: 70 C");
	vitals_disk_free(&d);

	reading("ata-hdd-sct.json", &rd);
	vitals_disk_init(&d);
	vitals_fold_disk(&d, &rd, 0, 0);
	tap_ok(d.limit == rd.sj.temp_warn && d.limit > 0 &&
	       d.limit_from == VITALS_LIMIT_DRIVE && d.rotational == 1,
	       "a SATA HDD with SCT: its own operating limit (%d C)", d.limit);
	vitals_disk_free(&d);

	reading("qemu-virtio-unsupported.json", &rd);
	vitals_disk_init(&d);
	vitals_fold_disk(&d, &rd, 0, 0);
	tap_ok(d.temp_last == VITALS_NONE && d.sampled == 1 &&
	       d.error[0], "a disk smartctl cannot drive: no temperature, "
	       "smartctl's word kept (%s)", d.error);
	vitals_disk_free(&d);
}

static void series(void)
{
	struct vitals_disk d;
	uint32_t t;
	int i, ok = 1, hot = 0;

	vitals_disk_init(&d);
	for (t = 0; t < 20000; t++)
		vitals_series_add(&d, t * 60, t == 12345 ? 99 : 40 + t % 5);
	for (i = 0; i < d.nseries; i++) {
		ok &= i == 0 || d.series[i].t > d.series[i - 1].t;
		hot |= d.series[i].c == 99;
	}
	tap_ok(d.nseries <= VITALS_POINTS && d.nseries >= VITALS_POINTS / 2 &&
	       ok && hot && d.series[0].t == 0,
	       "20,000 samples in %d points, in order, the hottest kept",
	       d.nseries);
	vitals_disk_free(&d);
}

static void critical(void)
{
	static const char *const names[] = { "nvme0n1" };
	struct smart_disk *sm;
	struct vitals_reading rd;
	struct settings s;
	struct record r;

	record_of(&r, &s, names, 1);
	reading("qemu-nvme.json", &rd);
	vitals_fold_disk(&r.disks[0].sig, &rd, 0, 0);
	rd.sj.c.critical_warning = 4;
	vitals_fold_disk(&r.disks[0].sig, &rd, 35, 0);
	vitals_fold_disk(&r.disks[0].sig, &rd, 95, 0);
	judge_disk(&r, &r.disks[0]);
	tap_ok(r.disks[0].j.verdict == JUDGE_FAIL &&
	       tap_has_reason(&r.disks[0].j, "NVMe critical warning 0x04 raised during "
		   "the run, 35 s in: NVM subsystem reliability degraded"),
	       "an NVMe critical warning raised mid-run FAILs, with when and "
	       "what");
	sm = smart_disk_make(&r.disks[0]);
	if (!sm)
		tap_bail("out of memory");
	sm->after.c.have = 1;
	sm->after.c.critical_warning = 4;
	judge_disk(&r, &r.disks[0]);
	tap_ok(r.disks[0].j.nreasons == 0,
	       "...said once: SMART after the run says it when it still holds");
	record_free(&r);
}

/* The disks of the capture guest, by name (tests/fixtures/kmsg/README). */
static const char *const guest[] = { "nvme0n1", "nvme1n1", "sda", "sdb",
				     "sdc", "sdd", "sde", "sdf", "vda" };
#define GUEST 9
enum { NVME0, NVME1, SDA, SDB, SDC, SDD, SDE, SDF, VDA };

static void kernel_log(void)
{
	struct kmsgwatch_disk kd[GUEST];
	char root[PATH_MAX], devpath[SENSORS_PATH];
	struct kmsgwatch w;
	struct settings s;
	struct record r;
	size_t len;
	char *text, *at;
	int i, ok = 1;

	snprintf(root, sizeof(root), "%s/q35/before/sys", tmp);
	/* The capture kept no scsi_host attributes; mptsas's are these. */
	put("q35/before/sys/class/scsi_host/host0/proc_name", "mptsas\n");
	put("q35/before/sys/class/scsi_host/host0/unique_id", "0\n");
	record_of(&r, &s, guest, GUEST);
	for (i = 0; i < GUEST; i++)
		ok &= kmsgwatch_disk_read(root, guest[i], &kd[i], devpath,
					  sizeof(devpath)) == 0;
	tap_ok(ok && kd[NVME0].nvme == 0 &&
	       !strcmp(kd[NVME0].pci[0], "0000:01:00.0") &&
	       !strcmp(kd[NVME0].pci[1], "0000:00:01.0") && kd[SDC].ata == 1 &&
	       kd[SDC].host == 2 && kd[SDC].channel == 0 &&
	       kd[SDA].host == 1 && kd[SDA].channel == 2 &&
	       kd[SDB].host == 0 && !strcmp(kd[SDB].hba, "ioc0") &&
	       !strcmp(kd[SDE].pci[0], "0000:03:00.0") && kd[SDF].target == 1 &&
	       kd[VDA].host == -1 && !strcmp(kd[VDA].pci[1], "0000:00:04.0"),
	       "each disk's names read from the guest's sysfs, as its "
	       "truth file says them");
	text = tap_slurp("tests/fixtures/kmsg/qemu-q35.kmsg", &len);
	at = strstr(text, "kiln-capture: step smartctl");
	while (at && at > text && at[-1] != '\n')
		at--;
	if (!at || kmsgwatch_init(&w, kd, GUEST))
		tap_bail("no kmsg fixture");
	kmsgwatch_text(&w, at, len - (size_t)(at - text));
	free(text);
	for (i = 0; i < GUEST; i++) {
		vitals_fold_kmsg(&r.disks[i].sig, &w.tally[i]);
		judge_disk(&r, &r.disks[i]);
	}
	vitals_fold_kmsg_other(&r.sig, &w);
	tap_ok(r.disks[SDC].j.verdict == JUDGE_WARN &&
	       tap_has_reason(&r.disks[SDC].j, "the kernel logged 8 error lines naming it "
		   "(1 I/O error, 1 link, 6 ATA exception), the first: [   "
		   "57.534758] ata1.00: exception Emask"),
	       "sdc: libata's lines of its read error WARN it, the first "
	       "quoted");
	tap_ok(tap_has_reason(&r.disks[SDE].j, "the kernel logged 1 error line naming "
		   "it (1 I/O error)") && r.disks[SDE].sig.kmsg_total == 4 &&
	       r.disks[NVME1].j.nreasons == 0,
	       "sde: its AER lines are counted, and judged on the counters; "
	       "the idle disk has nothing");
	tap_ok(r.sig.kmsg_lines == 209 && r.sig.other_total == 0,
	       "209 lines read, none naming no disk (mptsas's ioc0 is sdb's "
	       "controller)");
	kmsgwatch_free(&w);
	record_free(&r);
}

static void aer(void)
{
	static const char *const names[] = { "nvme0n1", "sde" };
	struct vitals_sample s0, s1;
	char root[PATH_MAX], devpath[SENSORS_PATH];
	struct kmsgwatch_disk kd;
	struct settings s;
	struct record r;
	int i, k;

	memset(&s0, 0, sizeof(s0));
	memset(&s1, 0, sizeof(s1));
	snprintf(root, sizeof(root), "%s/q35/before/sys", tmp);
	s0.have_sensors = sensors_read(root, &s0.sensors) == 0;
	snprintf(root, sizeof(root), "%s/q35/after/sys", tmp);
	s1.have_sensors = sensors_read(root, &s1.sensors) == 0;
	s1.t = 300;
	record_of(&r, &s, names, 2);
	for (i = 0; i < 2; i++) {
		kmsgwatch_disk_read(root, names[i], &kd, devpath,
				    sizeof(devpath));
		for (k = 0; k < KMSGWATCH_PCI_PATH && kd.pci[k][0]; k++)
			snprintf(r.disks[i].sig.pci[k], 24, "%s", kd.pci[k]);
		r.disks[i].sig.npci = k;
	}
	vitals_fold(&r, &s0);
	vitals_fold(&r, &s1);
	for (i = 0; i < 2; i++)
		judge_disk(&r, &r.disks[i]);
	vitals_judge_machine(&r);
	tap_ok(r.sig.samples == 2 && r.sig.naer == 7 &&
	       tap_has_reason(&r.disks[0].j, "PCIe corrected errors on its path: "
		   "0000:00:01.0 rose from 0 to 1 (Timeout 1)") &&
	       r.disks[0].j.verdict == JUDGE_WARN,
	       "an AER error injected at a root port WARNs the NVMe below it");
	tap_ok(tap_has_reason(&r.disks[1].j, "PCIe corrected errors on its path: "
		   "0000:03:00.0 rose from 0 to 2") &&
	       tap_has_reason(&r.disks[1].j, "PCIe uncorrected (non-fatal) errors on its "
		   "path: 0000:03:00.0 rose from 0 to 1") &&
	       r.sig.j.nreasons == 0,
	       "virtio-scsi's own: its disk WARNs; the machine says nothing "
	       "more");
	r.disks[1].sig.npci = 0;
	vitals_judge_machine(&r);
	tap_ok(r.sig.j.verdict == JUDGE_WARN &&
	       tap_has_reason(&r.sig.j, "PCIe corrected errors at 0000:03:00.0 rose from "
		   "0 to 2 during the run") && !r.failure[0],
	       "on no tested disk's path: the machine WARNs");
	r.sig.aer[0].end[VITALS_AER_FATAL] = r.sig.aer[0].start[
		VITALS_AER_FATAL] + 1;
	vitals_judge_machine(&r);
	tap_ok(r.sig.j.verdict == JUDGE_FAIL &&
	       strstr(r.failure, "PCIe fatal errors at"),
	       "a fatal one FAILs the machine: %s", r.failure);
	sensors_free(&s0.sensors);
	sensors_free(&s1.sensors);
	record_free(&r);
}

static void memory(void)
{
	struct vitals_sample s0, s1;
	char root[PATH_MAX];
	struct settings s;
	struct record r;
	char first[240];

	memset(&s0, 0, sizeof(s0));
	memset(&s1, 0, sizeof(s1));
	snprintf(root, sizeof(root), "%s/server/sys", tmp);
	s0.have_sensors = sensors_read(root, &s0.sensors) == 0;
	put("server/sys/devices/system/edac/mc/mc0/dimm0/dimm_ue_count", "1\n");
	put("server/sys/devices/system/edac/mc/mc0/ue_count", "1\n");
	put("server/sys/devices/system/edac/mc/mc0/dimm1/dimm_ce_count", "7\n");
	put("server/sys/devices/system/edac/mc/mc0/ce_count", "12\n");
	s1.have_sensors = sensors_read(root, &s1.sensors) == 0;
	record_of(&r, &s, guest, 0);
	snprintf(r.failure, sizeof(r.failure), "2 disks found, 3 expected");
	vitals_fold(&r, &s0);
	vitals_fold(&r, &s1);
	vitals_judge_machine(&r);
	snprintf(first, sizeof(first), "%s", r.failure);
	vitals_judge_machine(&r);
	tap_ok(r.sig.j.verdict == JUDGE_FAIL &&
	       tap_has_reason(&r.sig.j, "uncorrected memory errors at mc0/dimm0 "
		   "(CPU_SrcID#0_MC#0_Chan#0_DIMM#0) rose from 0 to 1 during "
		   "the run") &&
	       !strstr(r.sig.j.reasons[0], "at mc0 (") &&
	       !strncmp(r.failure, "2 disks found, 3 expected; uncorrected "
			"memory errors at mc0/dimm0", 52) &&
	       !strcmp(first, r.failure),
	       "an uncorrected memory error FAILs the machine beside the "
	       "run's own failure, said once however often judged");
	tap_ok(tap_has_reason(&r.sig.j, "corrected memory errors at mc0/dimm1 "
		   "(CPU_SrcID#0_MC#0_Chan#1_DIMM#0) rose from 0 to 7") &&
	       r.sig.j.nreasons == 2,
	       "corrected ones rising WARN, by DIMM; the controller's sums "
	       "and the 5 from before the run say nothing more");
	sensors_free(&s0.sensors);
	sensors_free(&s1.sensors);
	memset(&s1, 0, sizeof(s1));
	put("server/sys/class/hwmon/hwmon2/temp1_input", "88000\n");
	s1.have_sensors = sensors_read(root, &s1.sensors) == 0;
	vitals_fold(&r, &s1);
	vitals_judge_machine(&r);
	tap_ok(tap_has_reason(&r.sig.j, "nvme Composite reached 88.0 C, at or over its "
		   "critical limit of 87.8 C"),
	       "a hwmon sensor at its critical limit WARNs the machine");
	sensors_free(&s1.sensors);
	record_free(&r);

	/* Counted since the boot, before the burn: still a FAIL. */
	record_of(&r, &s, guest, 0);
	r.sig.edac = calloc(1, sizeof(*r.sig.edac));
	if (!r.sig.edac)
		tap_bail("out of memory");
	r.sig.nedac = 1;
	snprintf(r.sig.edac[0].where, sizeof(r.sig.edac[0].where),
		 "mc0/dimm2");
	r.sig.edac[0].ce_start = r.sig.edac[0].ce_end = 0;
	r.sig.edac[0].ue_start = r.sig.edac[0].ue_end = 2;
	vitals_judge_machine(&r);
	tap_ok(r.sig.j.verdict == JUDGE_FAIL &&
	       tap_has_reason(&r.sig.j, "2 uncorrected memory errors at "
			      "mc0/dimm2") &&
	       tap_has_reason(&r.sig.j, "since the boot, before the burn"),
	       "uncorrected memory errors from before the burn FAIL the "
	       "machine too: any uncorrected error does");
	record_free(&r);
}

static void hidden(void)
{
	static const char scan[] =
		"/dev/sda -d scsi # /dev/sda, SCSI device\n"
		"/dev/bus/0 -d megaraid,0 # /dev/bus/0 [megaraid_disk_00], "
		"SCSI device\n"
		"/dev/sda -d megaraid,0 # /dev/sda [megaraid_disk_00], SCSI "
		"device\n"
		"/dev/bus/1 -d megaraid,0 # /dev/bus/1 [megaraid_disk_00]\n"
		"/dev/sdc -d megaraid,4 # /dev/sdc [megaraid_disk_04]\n"
		"/dev/nvme0 -d nvme # /dev/nvme0, NVMe device\n";
	struct raidscan_drive found[8];
	struct vitals_reading rd;
	struct vitals_sample smp;
	struct vitals_hidden *h;
	char root[PATH_MAX];
	struct settings s;
	struct record r;
	int n, i;

	snprintf(root, sizeof(root), "%s/megasas/sys", tmp);
	n = raidscan_parse(scan, root, found, 8);
	tap_ok(n == 3 && !strcmp(found[0].dev, "/dev/bus/0") &&
	       !strcmp(found[0].type, "megaraid,0") &&
	       !strcmp(found[0].controller, "0000:00:02.0") &&
	       !strcmp(found[1].controller, "0000:00:03.0") &&
	       !strcmp(found[2].type, "megaraid,4") &&
	       !strcmp(found[2].controller, "0000:00:03.0"),
	       "smartctl --scan-open: each drive behind each MegaRAID card "
	       "once, under its controller; plain SCSI and NVMe left out");

	record_of(&r, &s, guest, 0);
	h = vitals_add_hidden(&r.sig);
	snprintf(h->controller, sizeof(h->controller), "0000:02:00.0");
	snprintf(h->type, sizeof(h->type), "megaraid,4");
	memset(&smp, 0, sizeof(smp));
	smp.nhidden = 1;
	smp.hidden = &rd;
	reading("megaraid-sata.json", &rd);
	vitals_fold(&r, &smp);
	vitals_judge_machine(&r);
	i = r.sig.j.nreasons;
	rd.sj.c.realloc = (rd.sj.c.realloc > 0 ? rd.sj.c.realloc : 0) + 8;
	smp.t = 600;
	vitals_fold(&r, &smp);
	vitals_judge_machine(&r);
	tap_ok(i == 0 && r.sig.j.verdict == JUDGE_FAIL && h->model[0] &&
	       tap_has_reason(&r.sig.j, "megaraid,4 behind 0000:02:00.0 (") &&
	       tap_has_reason(&r.sig.j, "reallocated sectors rose") &&
	       strstr(r.failure, "megaraid,4 behind 0000:02:00.0"),
	       "a drive behind a RAID card whose damage grows FAILs the "
	       "machine, named by its controller (%s %s)", h->model,
	       h->serial);
	record_free(&r);
}

static void selftests(void)
{
	static const char *const names[] = { "sdc" };
	struct vitals_reading before, now;
	struct settings s;
	struct record r;
	char text[96];
	int result = -1;

	reading("qemu-ata.json", &before);
	reading("qemu-ata-selftest.json", &now);
	tap_ok(smarttest_ended(&before.sj, &now.sj, 0, &result, text,
			       sizeof(text)) == 1 &&
	       result == VITALS_ST_PASSED &&
	       !strcmp(text, "Completed without error"),
	       "QEMU's ATA short self-test ends at once: a new log entry, "
	       "passed");
	tap_ok(smarttest_ended(&now.sj, &now.sj, 0, &result, text,
			       sizeof(text)) == 0,
	       "the same log as before and never seen running: not ended");
	reading("ata-hdd-sct.json", &now);
	reading("nvme-74-selftest.json", &before);
	tap_ok(smarttest_ended(&now.sj, &now.sj, 1, &result, text,
			       sizeof(text)) == 0 &&
	       smarttest_ended(&before.sj, &before.sj, 1, &result, text,
			       sizeof(text)) == 0,
	       "a test still running (SATA 70%%, NVMe 42%%) has not ended");
	now.sj.selftest_running = -1;
	tap_ok(smarttest_ended(&now.sj, &now.sj, 1, &result, text,
			       sizeof(text)) == 1 &&
	       result == VITALS_ST_FAILED &&
	       !strcmp(text, "Completed: read failure"),
	       "seen running, then over: the drive's newest entry, a read "
	       "failure");

	record_of(&r, &s, names, 1);
	r.disks[0].sig.selftest = SETTINGS_SELFTEST_SHORT;
	r.disks[0].sig.st_result = VITALS_ST_FAILED;
	snprintf(r.disks[0].sig.st_text, 96, "Completed: read failure");
	judge_disk(&r, &r.disks[0]);
	tap_ok(r.disks[0].j.verdict == JUDGE_FAIL &&
	       tap_has_reason(&r.disks[0].j, "short self-test failed: Completed: read "
		   "failure"), "a failed self-test FAILs its disk");
	r.disks[0].sig.st_result = VITALS_ST_UNSUPPORTED;
	r.disks[0].sig.st_text[0] = 0;
	judge_disk(&r, &r.disks[0]);
	tap_ok(r.disks[0].j.verdict == JUDGE_PASS &&
	       tap_has_reason(&r.disks[0].j, "short self-test not supported"),
	       "a drive without one: a note, no WARN");
	r.disks[0].sig.selftest = SETTINGS_SELFTEST_LONG;
	r.disks[0].sig.st_result = VITALS_ST_TIMEOUT;
	judge_disk(&r, &r.disks[0]);
	tap_ok(r.disks[0].j.verdict == JUDGE_WARN &&
	       tap_has_reason(&r.disks[0].j, "long self-test did not finish in time"),
	       "one still running at kiln's bound WARNs");
	record_free(&r);
}

/*
 * Facts written into result.json and read back (kiln finish): the same
 * verdicts and reasons, the run's own failure kept apart from the
 * machine's.
 */
static void roundtrip(void)
{
	static const char *const names[] = { "nvme0n1", "sdc" };
	struct vitals_reading rd;
	struct vitals_hidden *h;
	struct settings s, s2;
	struct record r, back;
	struct jsonread *doc;
	struct json j;
	char *text;
	size_t len;
	int i, same = 1;

	record_of(&r, &s, names, 2);
	r.state = RECORD_COMPLETE;
	snprintf(r.failure, sizeof(r.failure), "1 disk found, 2 expected");
	reading("qemu-nvme.json", &rd);
	rd.hw_max = 69850;
	vitals_fold_disk(&r.disks[0].sig, &rd, 0, 0);
	rd.sj.c.critical_warning = 4;
	rd.sj.temp = 71;
	vitals_fold_disk(&r.disks[0].sig, &rd, 40, 0);
	snprintf(r.disks[0].sig.pci[0], 24, "0000:01:00.0");
	snprintf(r.disks[0].sig.pci[1], 24, "0000:00:01.0");
	r.disks[0].sig.npci = 2;
	r.disks[1].sig.kmsg[KMSG_RESET] = 2;
	r.disks[1].sig.kmsg_total = 2;
	r.disks[1].sig.nkept = 1;
	/* The kernel's own \xNN, and a byte that is not UTF-8. */
	snprintf(r.disks[1].sig.kept[0], VITALS_LINE,
		 "[ 1.0] ata1: reset \\x0a \xff");
	r.disks[1].sig.selftest = SETTINGS_SELFTEST_SHORT;
	r.disks[1].sig.st_result = VITALS_ST_FAILED;
	snprintf(r.disks[1].sig.st_text, 96, "Completed: read failure");
	r.sig.naer = 1;
	r.sig.aer = calloc(1, sizeof(*r.sig.aer));
	snprintf(r.sig.aer[0].pci, 24, "0000:00:01.0");
	r.sig.aer[0].end[VITALS_AER_FATAL] = 1;
	r.sig.aer[0].end[VITALS_AER_NONFATAL] = 2;
	h = vitals_add_hidden(&r.sig);
	snprintf(h->type, sizeof(h->type), "megaraid,0");
	snprintf(h->model, sizeof(h->model), "ST\\4000 \xe9");
	snprintf(h->controller, sizeof(h->controller), "0000:02:00.0");
	h->d.temp_max = h->d.temp_last = 80;
	h->d.limit = 60;
	h->d.limit_from = VITALS_LIMIT_HDD;
	for (i = 0; i < 2; i++)
		judge_disk(&r, &r.disks[i]);
	vitals_judge_machine(&r);

	json_init(&j);
	json_begin(&j, NULL);
	json_array(&j, "targets");
	for (i = 0; i < 2; i++) {
		json_begin(&j, NULL);
		vitals_out_disk(&j, &r, &r.disks[i]);
		json_end(&j);
	}
	json_array_end(&j);
	vitals_out_machine(&j, &r);
	json_end(&j);
	text = json_take(&j, &len);
	if (!text || jsonread_parse(&doc, text, len, NULL, NULL, 0))
		tap_bail("signals JSON does not parse");
	record_of(&back, &s2, names, 2);
	snprintf(back.failure, sizeof(back.failure), "%s", r.failure);
	for (i = 0; i < 2; i++)
		vitals_out_read_disk(jsonread_path(jsonread_root(doc), i ?
						   "/targets/1" :
						   "/targets/0"),
				      &back.disks[i]);
	vitals_out_read_machine(jsonread_root(doc), &back);
	for (i = 0; i < 2; i++) {
		judge_disk(&back, &back.disks[i]);
		same &= !memcmp(&back.disks[i].j, &r.disks[i].j,
				sizeof(r.disks[i].j));
	}
	vitals_judge_machine(&back);
	same &= !memcmp(&back.sig.j, &r.sig.j, sizeof(r.sig.j));
	tap_ok(same && !strcmp(back.failure, r.failure) &&
	       !strcmp(back.sig.failure_base, "1 disk found, 2 expected") &&
	       r.disks[0].j.verdict == JUDGE_FAIL &&
	       r.disks[1].j.verdict == JUDGE_FAIL && r.sig.j.verdict ==
	       JUDGE_FAIL && back.disks[0].sig.temp_max == 71 &&
	       back.sig.hidden[0].d.temp_max == 80,
	       "written to result.json and read back: the same verdicts and "
	       "reasons, the run's failure and the machine's kept apart (%s)",
	       back.failure);
	tap_ok(!strcmp(back.disks[1].sig.kept[0], r.disks[1].sig.kept[0]) &&
	       !strcmp(back.sig.hidden[0].model, h->model),
	       "a log line and a model with a backslash and a byte that is "
	       "not UTF-8 read back as they were: %s", back.disks[1].sig.kept[0]);
	tap_ok(strstr(text, "\"celsius\": [50, 71]") &&
	       strstr(text, "\"limit_from\": \"drive\""),
	       "the temperature series on one line at the end of a run");
	free(text);
	jsonread_free(doc);
	record_free(&back);
	record_free(&r);
}

int main(int argc, char **argv)
{
	tap_args(argc, argv);
	if (!mkdtemp(tmp))
		tap_bail("mkdtemp");
	tap_sh("mkdir -p %s/q35 && tar -xzf "
	       "tests/fixtures/sensors/qemu-q35.tar.gz -C %s/q35", tmp, tmp);
	tap_sh("cp -r tests/fixtures/sensors/server %s/server", tmp);
	tap_sh("mkdir -p %s/megasas && tar -xzf "
	       "tests/fixtures/sysfs/megasas.tar.gz -C %s/megasas", tmp, tmp);
	temperatures();
	series();
	critical();
	kernel_log();
	aer();
	memory();
	hidden();
	selftests();
	roundtrip();
	tap_sh("rm -rf %s", tmp);
	return tap_done();
}
