/* SPDX-License-Identifier: MIT */
/*
 * Description: SMART health before and after a run: smartctl asked for
 * its JSON (--json=o -H -A) and read right for ATA, NVMe and SCSI disks,
 * its own text kept for a person, smartctl run as a real process (and
 * stopped when it hangs), and what a change from before to after a run
 * makes of a verdict.
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

static char here[256];
static char dir[] = "/tmp/kiln-health-XXXXXX";

static char *slurp(const char *path, size_t *len)
{
	char *buf = malloc(1 << 17);
	FILE *f = fopen(path, "r");

	if (!f || !buf)
		tap_bail("cannot read %s", path);
	*len = fread(buf, 1, (1 << 17) - 1, f);
	buf[*len] = 0;
	fclose(f);
	return buf;
}

/* A smartctl answer in a fixture, read as health_read() reads one. */
static void take(const char *name, struct health *h)
{
	char path[256];
	size_t len;
	char *out;

	memset(h, 0, sizeof(*h));
	smart_counters_none(&h->c);
	snprintf(path, sizeof(path), "tests/fixtures/smartjson/%s", name);
	out = slurp(path, &len);
	health_take(out, len, h);
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

static void test_fixtures(void)
{
	struct health a, b, n, s;
	struct judge j;

	take("qemu-ata.json", &a);
	tap_ok(a.c.have && a.c.passed == 1 && a.c.realloc == 0 &&
	       a.c.pending == -1 && a.c.crc_errors == -1 &&
	       a.c.media_errors == -1,
	       "ATA (QEMU): PASSED, 0 reallocated, the rest not reported");
	take("qemu-nvme.json", &n);
	tap_ok(n.c.passed == 1 && n.c.critical_warning == 0 &&
	       n.c.media_errors == 0 && n.c.realloc == -1,
	       "NVMe (QEMU): PASSED, warning 0x00, 0 media errors");
	take("qemu-scsi-health.json", &s);
	tap_ok(s.c.passed == 1 && s.c.grown_defects == -1,
	       "SCSI (QEMU, -H -A): Health Status OK");
	take("failing-ata.json", &b);
	tap_ok(b.c.passed == 0 && b.c.realloc == 4008 && b.c.pending == 24 &&
	       b.c.uncorrectable == 24 && b.c.crc_errors == 1204,
	       "a dying ATA disk: FAILED, 4008 reallocated, 24 pending, "
	       "1204 CRC errors");
	tap_ok(b.text && !strncmp(b.text, "smartctl 7.3 ", 13) &&
	       strstr(b.text, "  5 Reallocated_Sector_Ct   0x0033   001   "
		      "001   010    Pre-fail  Always   FAILING_NOW 4008\n") &&
	       b.len == strlen(b.text),
	       "--json=o: smartctl's own text is what is kept, line by line");
	tap_ok(a.text && a.text[0] == '{' && a.len > 1000,
	       "JSON without smartctl.output: the JSON itself is kept");

	memset(&j, 0, sizeof(j));
	judge_health(&a.c, &a.c, &j);
	tap_ok(j.verdict == JUDGE_PASS && j.nreasons == 0,
	       "healthy before and after: nothing to say");

	memset(&j, 0, sizeof(j));
	judge_health(&a.c, &b.c, &j);
	tap_ok(j.verdict == JUDGE_FAIL &&
	       has_reason(&j, "overall health: FAILED") &&
	       has_reason(&j, "reallocated sectors rose from 0 to 4008") &&
	       has_reason(&j, "pending sectors is 24"),
	       "damage during the run FAILs and says what rose");

	memset(&j, 0, sizeof(j));
	b.c.passed = 1;
	judge_health(&b.c, &b.c, &j);
	tap_ok(j.verdict == JUDGE_WARN &&
	       has_reason(&j, "reallocated sectors is 4008 (from before the "
			  "run)") &&
	       has_reason(&j, "link CRC errors"),
	       "damage from before the run only WARNs");

	memset(&j, 0, sizeof(j));
	n.c.critical_warning = 0x04;
	judge_health(NULL, &n.c, &j);
	tap_ok(j.verdict == JUDGE_FAIL &&
	       has_reason(&j, "critical warning 0x04"),
	       "an NVMe critical warning FAILs");
	memset(&j, 0, sizeof(j));
	judge_health(&a.c, NULL, &j);
	tap_ok(j.verdict == JUDGE_PASS, "no SMART after the run: no verdict");
	health_free(&a);
	health_free(&b);
	health_free(&n);
	health_free(&s);
}

static void test_smartctl(void)
{
	char fake[128], args[160], body[600];
	struct health h;
	size_t len;
	char *got;

	snprintf(fake, sizeof(fake), "%s/smartctl", dir);
	snprintf(args, sizeof(args), "%s/args", dir);
	snprintf(body, sizeof(body), "echo \"$*\" >%s\n"
		 "cat %s/tests/fixtures/smartjson/failing-ata.json", args,
		 here);
	script(fake, body);
	tap_ok(health_read(fake, "/dev/sdz", 10, &h) == 0 && h.c.have &&
	       h.c.passed == 0 && h.c.realloc == 4008 && h.text &&
	       strstr(h.text, "FAILING_NOW") && !strchr(h.text, '{'),
	       "smartctl runs as a process; its text is kept whole");
	health_free(&h);
	got = slurp(args, &len);
	tap_ok(!strcmp(got, "--json=o -H -A /dev/sdz\n"),
	       "smartctl is asked for its JSON, with its text in it (%.*s)",
	       (int)strcspn(got, "\n"), got);
	free(got);

	script(fake, "echo 'SMART overall-health self-assessment test result: "
		     "FAILED!'");
	tap_ok(health_read(fake, "/dev/sdz", 10, &h) == 0 && !h.c.have &&
	       h.c.passed == -1 && h.c.realloc == -1 && h.text &&
	       strstr(h.text, "FAILED!"),
	       "an answer that is not JSON: kept for a person, not judged");
	health_free(&h);

	script(fake, "echo '{\"smartctl\": {\"output\": []}}'");
	tap_ok(health_read(fake, "/dev/sdz", 10, &h) == 0 && h.c.have &&
	       h.len > 0 && h.text && h.text[0] == '{',
	       "an empty smartctl.output: the JSON is kept, not nothing");
	health_free(&h);

	script(fake, "exec sleep 30");
	tap_ok(health_read(fake, "/dev/sdz", 1, &h) == -ETIMEDOUT &&
	       !h.c.have, "a smartctl that hangs is stopped at the timeout");
	health_free(&h);
	tap_ok(health_read("/nonexistent/smartctl", "/dev/sdz", 1, &h) ==
	       -ENOENT, "no smartctl: said, not fatal");
	unlink(args);
	unlink(fake);
}

static void test_many(void)
{
	const char *devs[4] = { "/dev/sda", NULL, "/dev/hang", "/dev/sdb" };
	struct health many[4];
	char fake[128], body[400];
	int i;

	snprintf(fake, sizeof(fake), "%s/smartctl", dir);
	snprintf(body, sizeof(body), "for a; do dev=$a; done\n"
		 "case \"$dev\" in /dev/hang) exec sleep 30 ;; "
		 "*) sleep 1; cat %s/tests/fixtures/smartjson/failing-ata.json "
		 ";; esac", here);
	script(fake, body);
	tap_ok(health_read_many(fake, devs, 4, 3, many) == -ETIMEDOUT &&
	       many[0].c.have && many[0].c.realloc == 4008 &&
	       !many[1].c.have && !many[2].c.have && many[3].c.have &&
	       many[3].c.passed == 0,
	       "many disks at once: each answer kept, the one that hangs "
	       "stopped, the skipped one left alone");
	for (i = 0; i < 4; i++)
		health_free(&many[i]);
	unlink(fake);
}

int main(int argc, char **argv)
{
	if (!getcwd(here, sizeof(here)) || !mkdtemp(dir))
		tap_bail("getcwd or mkdtemp");
	tap_args(argc, argv);
	TAP_RUN(test_fixtures);
	TAP_RUN(test_smartctl);
	TAP_RUN(test_many);
	rmdir(dir);
	return tap_done();
}
