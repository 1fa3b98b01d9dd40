/* SPDX-License-Identifier: MIT */
/*
 * Description: smartctl's JSON read right: recorded from smartctl 7.3 on
 * QEMU's NVMe, AHCI, virtio-scsi and MegaRAID disks, and on a disk it
 * cannot drive; hand-made in smartctl's layout for what QEMU cannot be (a
 * spinning disk with SCT limits and a failed self-test, an NVMe drive
 * with 7.4's limits and self-test log, a SAS disk, an SSD behind
 * MegaRAID). Temperatures and their limits, the counters judge_health()
 * judges, self-tests, spinning or not; torn and hostile text never crashes.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/tap.h"
#include "judge/judge.h"
#include "sense/smartjson.h"

static char *slurp(const char *name, size_t *len)
{
	static char buf[1 << 17];
	char path[256];
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "tests/fixtures/smartjson/%s", name);
	f = fopen(path, "r");
	if (!f)
		tap_bail("cannot read %s", path);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	*len = n;
	return buf;
}

static int parse(const char *name, struct smartjson *s)
{
	size_t len;
	char *text = slurp(name, &len);

	return smartjson_parse(text, len, s);
}

static void recorded(void)
{
	struct smartjson s;

	tap_ok(parse("qemu-nvme.json", &s) == 0 && s.ran &&
	       !strcmp(s.protocol, "NVMe") && s.c.passed == 1 &&
	       s.temp == 50 && s.c.critical_warning == 0 &&
	       s.c.media_errors == 0 && s.c.error_log == 0 &&
	       s.rotational == 0 &&
	       !strcmp(s.serial, "KILN-SIG-NVME0") && s.exit_status == 0,
	       "NVMe (QEMU, smartctl 7.3 -x): 50 C, passed, no media "
	       "errors, solid state");
	tap_ok(s.temp_warn == SMARTJSON_NONE && s.temp_crit == SMARTJSON_NONE &&
	       s.selftest_supported == -1 && s.selftest_running == -1,
	       "NVMe under 7.3: no limits and no self-test in the JSON, "
	       "said as not known");

	tap_ok(parse("qemu-ata.json", &s) == 0 && !strcmp(s.protocol, "ATA") &&
	       s.c.passed == 1 && s.temp == 31 && s.c.realloc == 0 &&
	       s.c.pending == SMARTJSON_NONE && s.c.error_log == 0 &&
	       s.rotational == -1 && s.selftest_supported == 1 &&
	       s.short_minutes == 2 && s.long_minutes == 54,
	       "ATA (QEMU HARDDISK, -x): 31 C, 0 reallocated, self-tests of "
	       "2 and 54 minutes, no rotation rate said");
	tap_ok(parse("qemu-ata-selftest.json", &s) == 0 &&
	       s.selftest_running == -1 &&
	       !strcmp(s.selftest_last_type, "Short offline") &&
	       !strcmp(s.selftest_last, "Completed without error") &&
	       s.selftest_last_passed == 1,
	       "ATA after smartctl -t short: the log's latest, passed");

	tap_ok(parse("qemu-scsi.json", &s) == 0 && !strcmp(s.protocol, "SCSI") &&
	       s.temp == SMARTJSON_NONE && s.temp_crit == SMARTJSON_NONE &&
	       s.rotational == -1 && s.c.grown_defects == SMARTJSON_NONE,
	       "SCSI (virtio-scsi): 0 C and trip 0 are not temperatures; "
	       "rotation rate 0 is not an answer for SCSI");

	tap_ok(parse("qemu-megaraid.json", &s) == 0 && s.exit_status == 4 &&
	       !strcmp(s.type, "megaraid,0") && s.c.passed == -1 &&
	       !strcmp(s.serial, "KILN-SIG-MEGA0"),
	       "-d megaraid,0 on QEMU's megasas: a SCSI disk without SMART");

	tap_ok(parse("qemu-virtio-unsupported.json", &s) == 0 && s.ran &&
	       s.exit_status == 1 && !s.protocol[0] && s.c.passed == -1 &&
	       !strcmp(s.message, "/dev/vda: Unable to detect device type"),
	       "virtio-blk: smartctl cannot; its message is kept");
}

static void handmade(void)
{
	struct smartjson s;

	tap_ok(parse("ata-hdd-sct.json", &s) == 0 && s.rotational == 1 &&
	       s.rpm == 7200 && s.temp == 51 && s.temp_warn == 60 &&
	       s.temp_crit == 70 && s.temp_lifetime_max == 60,
	       "HDD with SCT: 7200 rpm, 51 C, limits 60 and 70, 60 at most");
	tap_ok(s.c.realloc == 136 && s.c.pending == 16 &&
	       s.c.uncorrectable == 16 &&
	       s.c.crc_errors == 3 && s.c.error_log == 7,
	       "HDD: 136 reallocated, 16 pending, 16 uncorrectable, 3 CRC, "
	       "7 errors logged");
	tap_ok(s.selftest_running == 70 &&
	       !strcmp(s.selftest_last, "Completed: read failure") &&
	       s.selftest_last_passed == 0 && s.long_minutes == 718,
	       "HDD: a test 70%% done, the last one failed reading");

	tap_ok(parse("nvme-74-selftest.json", &s) == 0 && s.c.passed == 0 &&
	       s.c.critical_warning == 4 && s.c.media_errors == 12 &&
	       s.c.error_log == 140 && s.temp == 77 && s.temp_warn == 75 &&
	       s.temp_crit == 80,
	       "NVMe under 7.4: warning 0x04, 12 media errors, 77 C over "
	       "its 75 C warning, 80 C critical");
	tap_ok(s.selftest_supported == 1 && s.selftest_running == 42 &&
	       !strcmp(s.selftest_last_type, "Short") &&
	       s.selftest_last_passed == 0,
	       "NVMe under 7.4: extended test 42%% done, last short one "
	       "failed segments");

	tap_ok(parse("sas-hdd.json", &s) == 0 && s.rotational == 1 &&
	       s.temp == 41 && s.temp_crit == 60 && s.c.grown_defects == 17 &&
	       s.c.scsi_uncorrected == 3 && s.selftest_supported == 1 &&
	       s.selftest_last_passed == 0,
	       "SAS: 41 C, trip 60, 17 grown defects, 3 uncorrected, "
	       "self-test failed");

	tap_ok(parse("megaraid-sata.json", &s) == 0 &&
	       !strcmp(s.type, "sat+megaraid,4") && s.rotational == 0 &&
	       s.temp == 33 && s.c.crc_errors == 0 &&
	       s.selftest_supported == 1 &&
	       s.selftest_last_passed == -1,
	       "an SSD behind MegaRAID (-d megaraid,4): ATA, solid state, "
	       "no self-test yet");
}

/* What judge_health() judges is the JSON's counters, as read. */
static void as_health(void)
{
	struct smartjson s;
	struct smart_counters before;
	struct judge j;

	parse("qemu-ata.json", &s);
	before = s.c;
	parse("ata-hdd-sct.json", &s);
	memset(&j, 0, sizeof(j));
	judge_health(&before, &s.c, &j);
	tap_ok(before.have && before.passed == 1 && s.c.realloc == 136 &&
	       j.verdict == JUDGE_FAIL,
	       "judge_health() sees the damage rise");
	parse("qemu-virtio-unsupported.json", &s);
	memset(&j, 0, sizeof(j));
	judge_health(&before, &s.c, &j);
	tap_ok(s.c.have && s.c.passed == -1 && s.c.realloc == SMARTJSON_NONE &&
	       s.c.media_errors == SMARTJSON_NONE && j.nreasons == 0,
	       "no device type: an answer that says nothing, nothing judged");
}

static void hostile(void)
{
	static const char *const bad[] = {
		"", "{", "[]", "null", "{\"device\":", "\x01\x02", "{}}",
		"{\"temperature\":{\"current\":\"hot\"}}",
		"{\"ata_smart_attributes\":{\"table\":[{\"id\":5,\"raw\":7}]}}",
		"{\"nvme_self_test_log\":{\"table\":\"x\"},\"device\":"
		"{\"protocol\":\"NVMe\"}}",
	};
	struct smartjson s;
	size_t len, cut, i;
	char *text, *copy;
	int ok = 1;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		smartjson_parse(bad[i], strlen(bad[i]), &s);
	tap_ok(smartjson_parse("{", 1, &s) == -EBADMSG && !s.ran &&
	       s.temp == SMARTJSON_NONE,
	       "a torn document: -EBADMSG, nothing reported");
	tap_ok(smartjson_parse(bad[7], strlen(bad[7]), &s) == 0 &&
	       s.temp == SMARTJSON_NONE,
	       "a value of the wrong type is not reported");

	/* Every cut of a real document: no crash, never a made-up value. */
	text = slurp("ata-hdd-sct.json", &len);
	copy = malloc(len);
	for (cut = 0; copy && cut < len; cut += 7) {
		memcpy(copy, text, cut);
		if (smartjson_parse(copy, cut, &s) == 0 || s.ran)
			ok = 0;
	}
	free(copy);
	tap_ok(ok, "every torn copy of a document is refused");
}

int main(int argc, char **argv)
{
	tap_args(argc, argv);
	recorded();
	handmade();
	as_health();
	hostile();
	return tap_done();
}
