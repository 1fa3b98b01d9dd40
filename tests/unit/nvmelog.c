/* SPDX-License-Identifier: MIT */
/*
 * Description: an NVMe drive's logs read right from their bytes (the
 * fixtures of tests/fixtures/nvme, built by hand per the NVMe Base and OCP
 * Datacenter NVMe SSD specifications: see their README), and judged right
 * on synthetic figures at and around each of OCP's limits: spare under
 * its threshold FAILs, falling spare, new error log entries and C0h's bad
 * NAND blocks (+3), end-to-end errors (+2) and PCIe correctable errors
 * (+50) WARN, one below each limit does not.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/tap.h"
#include "judge/nvmejudge.h"
#include "sense/nvmelog.h"

static uint8_t *fixture(const char *name, size_t *len)
{
	char path[256];
	uint8_t *b;

	snprintf(path, sizeof(path), "tests/fixtures/nvme/%s", name);
	b = (uint8_t *)tap_read_file(path, len);
	if (!b)
		tap_bail("cannot read %s", path);
	return b;
}

static void parse_ident(void)
{
	struct nvmelog_ident id;
	size_t len;
	uint8_t *b = fixture("ident.bin", &len);

	tap_ok(nvmelog_parse_ident(b, len, &id) == 0 && id.have &&
	       !strcmp(id.serial, "KILN-NVME0") &&
	       !strcmp(id.model, "QEMU NVMe Ctrl") &&
	       !strcmp(id.firmware, "8.0.0") && id.error_entries == 64 &&
	       id.telemetry == 1,
	       "Identify Controller: serial, model, firmware trimmed; 64 "
	       "error log entries; host-initiated telemetry");
	tap_ok(nvmelog_parse_ident(b, 4095, &id) == -EBADMSG && !id.have,
	       "a short Identify is refused");
	b[4] = 0x01;
	nvmelog_parse_ident(b, len, &id);
	tap_ok(id.serial[0] == '?', "a control byte in a serial is no raw "
	       "byte in the results");
	free(b);
}

static void parse_health(void)
{
	struct nvmelog l;
	size_t len;
	uint8_t *b = fixture("health-before.bin", &len);

	nvmelog_init(&l);
	tap_ok(nvmelog_parse_health(b, len, &l.h) == 0 && l.h.have &&
	       l.h.critical_warning == 0 && l.h.temp_kelvin == 313 &&
	       l.h.spare == 100 && l.h.spare_threshold == 10 &&
	       l.h.used == 3 && l.h.data_read == 123456 &&
	       l.h.data_written == 654321 && l.h.power_cycles == 12 &&
	       l.h.power_on_hours == 1234 && l.h.unsafe_shutdowns == 2 &&
	       l.h.media_errors == 0 && l.h.error_entries == 5,
	       "health log: every field at its offset");
	free(b);
	b = fixture("health-after.bin", &len);
	nvmelog_parse_health(b, len, &l.h);
	tap_ok(l.h.critical_warning == 1 && l.h.spare == 8 &&
	       l.h.media_errors == 3 && l.h.error_entries == 7,
	       "health log after: spare 8%%, 3 media errors, 7 entries");
	tap_ok(nvmelog_parse_health(b, 511, &l.h) == -EBADMSG,
	       "a short health log is refused");
	free(b);
	b = fixture("health-big.bin", &len);
	nvmelog_parse_health(b, len, &l.h);
	tap_ok(l.h.power_on_hours == INT64_MAX,
	       "a 128-bit counter past 2^64 is held, never wrapped");
	free(b);
}

static void parse_errors(void)
{
	struct nvmelog_error e[NVMELOG_ERRORS];
	char st[96];
	size_t len;
	uint8_t *b = fixture("errors.bin", &len);
	int n = nvmelog_parse_errors(b, len, e, NVMELOG_ERRORS);

	tap_ok(n == 3 && e[0].count == 7 && e[1].count == 6 &&
	       e[2].count == 5, "error log: the empty entry skipped, the "
	       "newest first whatever the ring's order");
	tap_ok(e[1].sqid == 3 && e[1].cmdid == 0x41 && e[1].status == 0x281 &&
	       e[1].lba == 0x12345678 && e[1].nsid == 1 && e[1].param == 0xffff,
	       "an entry: queue, command, status (phase tag dropped), LBA, "
	       "namespace");
	tap_ok(!strcmp(nvmelog_status_text(e[1].status, st, sizeof(st)),
		       "Unrecovered Read Error (media, 0x281)"),
	       "its status in words: %s", st);
	tap_ok(nvmelog_parse_errors(b, len, e, 1) == 1 && e[0].count == 7,
	       "kept to max: the newest");
	tap_ok(nvmelog_parse_errors(b, 63, e, NVMELOG_ERRORS) == 0,
	       "a torn entry is not read");
	nvmelog_status_text(0x7ff, st, sizeof(st));
	tap_ok(!strncmp(st, "status (vendor specific", 23),
	       "an unknown status still says its type: %s", st);
	free(b);
}

static void parse_ocp(void)
{
	struct nvmelog l;
	size_t len;
	uint8_t *b = fixture("ocp-c0-before.bin", &len);

	nvmelog_init(&l);
	tap_ok(nvmelog_parse_ocp(b, len, &l.ocp) == 0 && l.ocp.have &&
	       l.ocp.version == 3 && l.ocp.bad_user_nand == 10 &&
	       l.ocp.bad_system_nand == 2 && l.ocp.xor_recovery == 1 &&
	       l.ocp.uncorrectable_reads == 0 && l.ocp.soft_ecc == 17 &&
	       l.ocp.e2e_detected == 1 && l.ocp.e2e_corrected == 4 &&
	       l.ocp.thermal_events == 1 && l.ocp.pcie_correctable == 7 &&
	       l.ocp.incomplete_shutdowns == 3 && l.ocp.free_blocks == 91 &&
	       l.ocp.capacitor_health == 100,
	       "OCP C0h: every counter at its offset");
	free(b);
	b = fixture("c0-vendor.bin", &len);
	nvmelog_init(&l);
	tap_ok(nvmelog_parse_ocp(b, len, &l.ocp) == -ENODATA && !l.ocp.have &&
	       l.ocp.bad_user_nand == NVMELOG_NONE,
	       "a vendor's own C0h (another GUID) is not read as OCP's");
	tap_ok(nvmelog_parse_ocp(b, 100, &l.ocp) == -EBADMSG,
	       "a short C0h is refused");
	free(b);
}

static void parse_telemetry(void)
{
	size_t len;
	uint8_t *b = fixture("telemetry-header.bin", &len);

	tap_ok(nvmelog_telemetry_bytes(b, len, 64 << 20) == 40001 * 512,
	       "telemetry: the header and data areas 1-3, to area 3's end");
	tap_ok(nvmelog_telemetry_bytes(b, len, 1 << 20) == 1 << 20,
	       "held to at most max");
	tap_ok(nvmelog_telemetry_bytes(b, len, 1000) == 512,
	       "...in whole 512-byte blocks");
	b[12] = b[13] = 0;
	tap_ok(nvmelog_telemetry_bytes(b, len, 64 << 20) == 101 * 512,
	       "no data area 3: to area 2's end");
	memset(b + 8, 0, 6);
	tap_ok(nvmelog_telemetry_bytes(b, len, 64 << 20) == 512,
	       "no data areas: the header alone");
	tap_ok(nvmelog_telemetry_bytes(b, 100, 64 << 20) == 512,
	       "a short header: nothing past it is asked for");
	free(b);
}

/* Logs from the fixtures: before, after. */
static void logs(struct nvmelog *b, struct nvmelog *a)
{
	size_t len;
	uint8_t *p;

	nvmelog_init(b);
	nvmelog_init(a);
	b->asked = a->asked = 1;
	p = fixture("health-before.bin", &len);
	nvmelog_parse_health(p, len, &b->h);
	free(p);
	p = fixture("ocp-c0-before.bin", &len);
	nvmelog_parse_ocp(p, len, &b->ocp);
	free(p);
	*a = *b;
}

static int has(const struct judge *j, int verdict, const char *text)
{
	int i;

	for (i = 0; i < j->nreasons; i++)
		if (strstr(j->reasons[i], text))
			return j->verdict >= verdict;
	return 0;
}

static struct smart_counters smart_ok(void)
{
	struct smart_counters c;

	smart_counters_none(&c);
	c.have = 1;
	c.critical_warning = 0;
	c.media_errors = 0;
	return c;
}

static void judge_spare(void)
{
	struct nvmelog b, a;
	struct smart_counters s = smart_ok();
	struct judge j;

	logs(&b, &a);
	memset(&j, 0, sizeof(j));
	nvmejudge_disk(&b, &a, &s, &j);
	tap_ok(j.verdict == JUDGE_PASS && !j.nreasons,
	       "unchanged logs: nothing said");
	a.h.spare = 9;
	memset(&j, 0, sizeof(j));
	nvmejudge_disk(&b, &a, &s, &j);
	tap_ok(j.verdict == JUDGE_FAIL && has(&j, JUDGE_FAIL, "spare is 9%, "
	       "under its threshold of 10%"), "spare under its threshold "
	       "FAILs: %s", j.reasons[0]);
	a.h.spare = 10;
	memset(&j, 0, sizeof(j));
	nvmejudge_disk(&b, &a, &s, &j);
	tap_ok(j.verdict == JUDGE_WARN && has(&j, JUDGE_WARN, "fell from "
	       "100% to 10%"), "spare at its threshold, fallen: WARN");
	a.h.spare = 9;
	s.critical_warning = 1;
	memset(&j, 0, sizeof(j));
	nvmejudge_disk(&b, &a, &s, &j);
	tap_ok(!j.nreasons, "smartctl's critical warning already says the "
	       "spare: not said twice");
}

static void judge_errors(void)
{
	struct nvmelog b, a;
	struct smart_counters s = smart_ok();
	struct judge j;
	size_t len;
	uint8_t *p = fixture("errors.bin", &len);

	logs(&b, &a);
	a.nerrors = nvmelog_parse_errors(p, len, a.errors, NVMELOG_ERRORS);
	a.h.error_entries = 7;
	tap_ok(nvmejudge_new_errors(&b, &a) == 2,
	       "5 entries before, 7 after: the two newest are new");
	memset(&j, 0, sizeof(j));
	nvmejudge_disk(&b, &a, &s, &j);
	tap_ok(j.verdict == JUDGE_WARN && has(&j, JUDGE_WARN, "2 new entries"),
	       "new error log entries WARN: %s", j.reasons[0]);
	a.h.error_entries = 5;
	a.errors[0] = a.errors[2];
	a.nerrors = 1;
	memset(&j, 0, sizeof(j));
	nvmejudge_disk(&b, &a, &s, &j);
	tap_ok(!j.nreasons && nvmejudge_new_errors(&b, &a) == 0,
	       "entries from before the run are not the run's");
	b.h.have = 0;
	b.nerrors = 0;
	a.nerrors = nvmelog_parse_errors(p, len, a.errors, NVMELOG_ERRORS);
	tap_ok(nvmejudge_new_errors(&b, &a) == 3,
	       "no log before: every entry is shown");
	free(p);
}

static void judge_ocp(void)
{
	struct nvmelog b, a;
	struct smart_counters s = smart_ok();
	struct judge j;
	size_t len;
	uint8_t *p = fixture("ocp-c0-after.bin", &len);

	logs(&b, &a);
	nvmelog_parse_ocp(p, len, &a.ocp);
	free(p);
	memset(&j, 0, sizeof(j));
	nvmejudge_disk(&b, &a, &s, &j);
	tap_ok(j.verdict == JUDGE_WARN && j.nreasons == 3 &&
	       has(&j, JUDGE_WARN, "bad NAND blocks rose from 12 to 15") &&
	       has(&j, JUDGE_WARN, "end-to-end detected errors rose from 1 "
		   "to 3") &&
	       has(&j, JUDGE_WARN, "PCIe correctable errors rose from 7 to "
		   "57"), "C0h at each limit (+3, +2, +50) WARNs");
	a.ocp.bad_user_nand--;
	a.ocp.e2e_detected--;
	a.ocp.pcie_correctable--;
	memset(&j, 0, sizeof(j));
	nvmejudge_disk(&b, &a, &s, &j);
	tap_ok(!j.nreasons, "one below each limit: nothing said");
	a.ocp.pcie_correctable += 100;
	b.ocp.have = 0;
	memset(&j, 0, sizeof(j));
	nvmejudge_disk(&b, &a, &s, &j);
	tap_ok(!j.nreasons, "no C0h before: no growth claimed");
}

static void judge_without_smartctl(void)
{
	struct nvmelog b, a;
	struct smart_counters none;
	struct judge j;

	logs(&b, &a);
	smart_counters_none(&none);
	a.h.media_errors = 2;
	memset(&j, 0, sizeof(j));
	nvmejudge_disk(&b, &a, &none, &j);
	tap_ok(j.verdict == JUDGE_FAIL && has(&j, JUDGE_FAIL, "media and data "
	       "integrity errors rose from 0 to 2"),
	       "no smartctl: grown media errors FAIL from the health log");
	a.h.media_errors = 0;
	a.h.critical_warning = 4;
	memset(&j, 0, sizeof(j));
	nvmejudge_disk(&b, &a, &none, &j);
	tap_ok(j.verdict == JUDGE_FAIL && has(&j, JUDGE_FAIL, "critical "
	       "warning 0x04"), "no smartctl: a critical warning FAILs");
	a.h.critical_warning = 0;
	a.h.media_errors = 2;
	{
		struct smart_counters s = smart_ok();

		memset(&j, 0, sizeof(j));
		nvmejudge_disk(&b, &a, &s, &j);
		tap_ok(!j.nreasons, "with smartctl's counters, media errors "
		       "are judge_health()'s alone");
	}
	a.asked = 0;
	memset(&j, 0, sizeof(j));
	nvmejudge_disk(&b, &a, &none, &j);
	tap_ok(!j.nreasons, "logs not read after the run: nothing judged");
}

int main(int argc, char **argv)
{
	tap_args(argc, argv);
	TAP_RUN(parse_ident);
	TAP_RUN(parse_health);
	TAP_RUN(parse_errors);
	TAP_RUN(parse_ocp);
	TAP_RUN(parse_telemetry);
	TAP_RUN(judge_spare);
	TAP_RUN(judge_errors);
	TAP_RUN(judge_ocp);
	TAP_RUN(judge_without_smartctl);
	return tap_done();
}
