/* SPDX-License-Identifier: MIT */
/*
 * Description: SMART health: smartctl's text read right for ATA, NVMe and
 * SCSI disks, smartctl run as a real process (and stopped when it hangs),
 * and what a change from before to after a run makes of a verdict.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../lib/tap.h"
#include "sense/health.h"
#include "judge/judge.h"

static char *slurp(const char *path)
{
	static char buf[65536];
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f)
		tap_bail("cannot read %s", path);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = 0;
	fclose(f);
	return buf;
}

static void parse(const char *name, struct health *h)
{
	char path[256];

	memset(h, 0, sizeof(*h));
	snprintf(path, sizeof(path), "tests/fixtures/smart/%s", name);
	health_parse(slurp(path), h);
	h->ran = 1;
}

static int has_reason(const struct judge *j, const char *text)
{
	int i;

	for (i = 0; i < j->nreasons; i++)
		if (strstr(j->reasons[i], text))
			return 1;
	return 0;
}

static void script(const char *path, const char *body)
{
	FILE *f = fopen(path, "w");

	if (!f)
		tap_bail("cannot write %s", path);
	fprintf(f, "#!/bin/sh\n%s\n", body);
	fclose(f);
	chmod(path, 0755);
}

int main(int argc, char **argv)
{
	struct health a, b, n, s, h;
	struct judge j;
	char dir[] = "/tmp/kiln-health-XXXXXX", fake[128], cmd[300];

	tap_args(argc, argv);
	parse("qemu-ata.txt", &a);
	tap_ok(a.passed == 1 && a.realloc == 0 && a.pending == -1 &&
	       a.crc_errors == -1 && a.media_errors == -1,
	       "ATA (QEMU): PASSED, 0 reallocated, the rest not reported");
	parse("qemu-nvme.txt", &n);
	tap_ok(n.passed == 1 && n.critical_warning == 0 && n.media_errors == 0 &&
	       n.realloc == -1, "NVMe (QEMU): PASSED, warning 0x00, 0 media errors");
	parse("qemu-scsi.txt", &s);
	tap_ok(s.passed == 1 && s.grown_defects == -1,
	       "SCSI (QEMU): Health Status OK");
	parse("failing-ata.txt", &b);
	tap_ok(b.passed == 0 && b.realloc == 4008 && b.pending == 24 &&
	       b.uncorrectable == 24 && b.crc_errors == 1204,
	       "a dying ATA disk: FAILED, 4008 reallocated, 24 pending, "
	       "1,204 CRC errors");

	memset(&j, 0, sizeof(j));
	judge_health(&a, &a, &j);
	tap_ok(j.verdict == JUDGE_PASS && j.nreasons == 0,
	       "healthy before and after: nothing to say");

	memset(&j, 0, sizeof(j));
	judge_health(&a, &b, &j);
	tap_ok(j.verdict == JUDGE_FAIL &&
	       has_reason(&j, "overall health: FAILED") &&
	       has_reason(&j, "reallocated sectors rose from 0 to 4008") &&
	       has_reason(&j, "pending sectors is 24"),
	       "damage during the run FAILs and says what rose");

	memset(&j, 0, sizeof(j));
	b.passed = 1;
	judge_health(&b, &b, &j);
	tap_ok(j.verdict == JUDGE_WARN &&
	       has_reason(&j, "reallocated sectors is 4008 (from before the run)") &&
	       has_reason(&j, "link CRC errors"),
	       "damage from before the run only WARNs");

	memset(&j, 0, sizeof(j));
	n.critical_warning = 0x04;
	judge_health(NULL, &n, &j);
	tap_ok(j.verdict == JUDGE_FAIL && has_reason(&j, "critical warning 0x04"),
	       "an NVMe critical warning FAILs");
	memset(&j, 0, sizeof(j));
	judge_health(&a, NULL, &j);
	tap_ok(j.verdict == JUDGE_PASS, "no SMART after the run: no verdict");

	if (!mkdtemp(dir))
		tap_bail("mkdtemp");
	snprintf(fake, sizeof(fake), "%s/smartctl", dir);
	snprintf(cmd, sizeof(cmd), "cat %s/tests/fixtures/smart/failing-ata.txt",
		 getcwd((char[256]){ 0 }, 256));
	script(fake, cmd);
	tap_ok(health_read(fake, "/dev/sdz", 10, &h) == 0 && h.ran &&
	       h.passed == 0 && h.realloc == 4008 && h.text &&
	       strstr(h.text, "FAILING_NOW"),
	       "smartctl runs as a process; its text is kept whole");
	health_free(&h);
	script(fake, "exec sleep 30");
	tap_ok(health_read(fake, "/dev/sdz", 1, &h) == -ETIMEDOUT && !h.ran,
	       "a smartctl that hangs is stopped at the timeout");
	health_free(&h);
	tap_ok(health_read("/nonexistent/smartctl", "/dev/sdz", 1, &h) == -ENOENT,
	       "no smartctl: said, not fatal");

	{
		const char *devs[4] = { "/dev/sda", NULL, "/dev/hang", "/dev/sdb" };
		struct health many[4];
		char body[400];
		int i;

		snprintf(body, sizeof(body), "case \"$3\" in /dev/hang) exec sleep 30 ;; "
			 "*) sleep 1; cat %s/tests/fixtures/smart/failing-ata.txt ;; esac",
			 getcwd((char[256]){ 0 }, 256));
		script(fake, body);
		tap_ok(health_read_many(fake, devs, 4, 3, many) == -ETIMEDOUT &&
		       many[0].ran && many[0].realloc == 4008 && !many[1].ran &&
		       !many[2].ran && many[3].ran && many[3].passed == 0,
		       "many disks at once: each answer kept, the one that hangs "
		       "stopped, the skipped one left alone");
		for (i = 0; i < 4; i++)
			health_free(&many[i]);
	}
	unlink(fake);
	rmdir(dir);
	return tap_done();
}
