/* SPDX-License-Identifier: MIT */
/*
 * Description: each disk's certificate has a name of its own: cert_name
 * gives the serial's name while it is the only one, and a name with the
 * label where two disks share a serial (an NVMe drive's namespaces), where
 * serials differ only in case (one file on the FAT stick) or where a
 * serial is "machine" (cert-machine.html); no two names meet, without
 * case, on 1,024 disks of one serial. A certificate names the drive's
 * firmware: the run's record of it, else sysfs's, an NVMe controller's
 * firmware_rev (it has no rev) as well as a SCSI disk's rev. And it
 * names what was applied, the IEEE 2883 technique and the NIST SP 800-88
 * class reached: a method's class only once its step is done. The rows
 * of the machine a signal gives (the BMC's address) come through the
 * table.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../lib/tap.h"
#include "engine/sancmd.h"
#include "judge/bmcjudge.h"
#include "results/cert.h"
#include "sense/bmc.h"
#include "settings/settings.h"

static char tmp[] = "/tmp/kiln-cert.XXXXXX";

static void set(struct record_disk *d, const char *serial, const char *label)
{
	snprintf(d->t.id.serial, sizeof(d->t.id.serial), "%s", serial);
	snprintf(d->label, sizeof(d->label), "%s", label);
}

static void name_of(const struct record *r, int i, char *out)
{
	cert_name(r, i, "json", out, 200);
}

/* 1 when no two of r's names meet without case, nor cert-machine.json. */
static int all_apart(const struct record *r)
{
	char (*names)[200] = calloc((size_t)r->n, 200);
	int i, j, ok = names != NULL;

	for (i = 0; ok && i < r->n; i++) {
		name_of(r, i, names[i]);
		ok = strcasecmp(names[i], "cert-machine.json") != 0;
		for (j = 0; ok && j < i; j++)
			ok = strcasecmp(names[i], names[j]) != 0;
	}
	free(names);
	return ok;
}

static void test_one_serial(void)
{
	struct record_disk d[2];
	struct record r = { .n = 2, .disks = d };
	char a[200], b[200];

	memset(d, 0, sizeof(d));
	set(&d[0], "S3EV NA0/K", "sda");
	set(&d[1], "", "loop7");
	name_of(&r, 0, a);
	name_of(&r, 1, b);
	tap_ok(!strcmp(a, "cert-S3EV_NA0_K.json"),
	       "a lone serial names its disk: %s", a);
	tap_ok(!strcmp(b, "cert-loop7.json"), "no serial: its label: %s", b);
}

static void test_namespaces(void)
{
	struct record_disk d[3];
	struct record r = { .n = 3, .disks = d };
	char a[200], b[200], c[200];

	memset(d, 0, sizeof(d));
	set(&d[0], "NVME0001", "nvme0n1");
	set(&d[1], "NVME0001", "nvme0n2");
	set(&d[2], "OTHER", "sdb");
	name_of(&r, 0, a);
	name_of(&r, 1, b);
	name_of(&r, 2, c);
	tap_ok(!strcmp(a, "cert-NVME0001+nvme0n1.json"),
	       "namespace 1: serial and label: %s", a);
	tap_ok(!strcmp(b, "cert-NVME0001+nvme0n2.json"),
	       "namespace 2: serial and label: %s", b);
	tap_ok(!strcmp(c, "cert-OTHER.json"),
	       "the other disk keeps its serial's name: %s", c);
}

static void test_case_and_machine(void)
{
	struct record_disk d[4];
	struct record r = { .n = 4, .disks = d };
	char a[200], b[200], m[200];

	memset(d, 0, sizeof(d));
	set(&d[0], "ab12", "sda");
	set(&d[1], "AB12", "sdb");
	set(&d[2], "MACHINE", "sdc");
	set(&d[3], "ab12+sda", "sdd");
	name_of(&r, 0, a);
	name_of(&r, 1, b);
	name_of(&r, 2, m);
	tap_ok(!strcmp(a, "cert-ab12+sda.json"),
	       "serials alike but for case: labels: %s", a);
	tap_ok(!strcmp(b, "cert-AB12+sdb.json"), "and the other one: %s", b);
	tap_ok(!strcmp(m, "cert-MACHINE+sdc.json"),
	       "a serial \"machine\": its label: %s", m);
	tap_ok(all_apart(&r), "a serial shaped like a clash's name still apart");
}

static void test_many(void)
{
	struct record r = { .n = 1024 };
	char first[200], last[200], big[200];
	int i;

	r.disks = calloc(1024, sizeof(*r.disks));
	if (!r.disks)
		tap_bail("no memory");
	for (i = 0; i < r.n; i++) {
		char label[16];

		snprintf(label, sizeof(label), "nvme0n%d", i + 1);
		set(&r.disks[i], "ONE", label);
	}
	tap_ok(all_apart(&r), "1,024 namespaces of one drive: 1,024 names");
	name_of(&r, 0, first);
	name_of(&r, 1023, last);
	tap_ok(!strcmp(first, "cert-ONE+nvme0n1.json"), "the first: %s", first);
	tap_ok(!strcmp(last, "cert-ONE+nvme0n1024.json"), "the last: %s", last);
	/* a label alike: the twins by their place in the run */
	set(&r.disks[1], "ONE", "NVME0N1");
	tap_ok(all_apart(&r), "two labels alike but for case: still apart");
	memset(r.disks[0].t.id.serial, 'x', sizeof(r.disks[0].t.id.serial) - 1);
	memset(r.disks[0].label, 'y', sizeof(r.disks[0].label) - 1);
	memcpy(&r.disks[1], &r.disks[0], sizeof(r.disks[0]));
	name_of(&r, 1, big);
	tap_ok(strlen(big) < 200 && all_apart(&r), "the longest names fit, apart");
	free(r.disks);
}

/* The firmware disk NAME's certificate names, its device's sysfs in tmp. */
static void firmware_of(const char *name, const char *link, char *out,
			size_t len)
{
	struct settings s;
	struct record_disk d;
	struct record r = { .n = 1, .disks = &d, .s = &s };
	const char *at, *end;
	size_t n;
	char *doc;

	memset(&s, 0, sizeof(s));
	memset(&d, 0, sizeof(d));
	set(&d, "SERIAL", name);
	snprintf(d.t.id.name, sizeof(d.t.id.name), "%s", name);
	snprintf(d.link.firmware, sizeof(d.link.firmware), "%s", link);
	snprintf(out, len, "(no certificate)");
	doc = cert_disk_json(&r, &d, tmp, &n);
	if (!doc)
		return;
	at = strstr(doc, "\"firmware\":");
	if (at) {
		at += strlen("\"firmware\":");
		at += strspn(at, " ");
		if (*at == '"' && (end = strchr(at + 1, '"')))
			snprintf(out, len, "%.*s", (int)(end - at - 1), at + 1);
		else
			snprintf(out, len, "%.4s", at);
	}
	free(doc);
}

static void test_firmware(void)
{
	char fw[64];

	tap_sh("mkdir -p %s/class/block/nvme0n1/device "
	       "%s/class/block/sda/device", tmp, tmp);
	tap_sh("echo '7.2.22  ' >%s/class/block/nvme0n1/device/firmware_rev",
	       tmp);
	tap_sh("echo '2.5+' >%s/class/block/sda/device/rev", tmp);
	firmware_of("nvme0n1", "", fw, sizeof(fw));
	tap_ok(!strcmp(fw, "7.2.22"), "an NVMe namespace: its controller's "
	       "firmware_rev, though it has no rev: %s", fw);
	firmware_of("sda", "", fw, sizeof(fw));
	tap_ok(!strcmp(fw, "2.5+"), "a SCSI disk: its rev: %s", fw);
	firmware_of("sdb", "", fw, sizeof(fw));
	tap_ok(!strcmp(fw, "null"), "none known: null: %s", fw);
	firmware_of("sdb", "GXT5404Q", fw, sizeof(fw));
	tap_ok(!strcmp(fw, "GXT5404Q"), "the run's record first: %s", fw);
}

/* KEY's string value in doc (the first), or "null", into out. */
static void field(const char *doc, const char *key, char *out, size_t len)
{
	char want[64];
	const char *at, *end;

	snprintf(want, sizeof(want), "\"%s\":", key);
	snprintf(out, len, "(none)");
	at = doc ? strstr(doc, want) : NULL;
	if (!at)
		return;
	at += strlen(want);
	at += strspn(at, " ");
	if (*at == '"' && (end = strchr(at + 1, '"')))
		snprintf(out, len, "%.*s", (int)(end - at - 1), at + 1);
	else
		snprintf(out, len, "%.4s", at);
}

/* The certificate of a disk whose step used method and ended in state. */
static void cert_of(int method, int san, int state, char *cls, char *tech,
		    char *applied)
{
	struct settings s;
	struct record_disk d;
	struct record r = { .n = 1, .disks = &d, .s = &s };
	size_t n;
	char *doc;

	memset(&s, 0, sizeof(s));
	memset(&d, 0, sizeof(d));
	set(&d, "SERIAL", "nvme0n1");
	s.end = method;
	d.end.method = method;
	d.end.san_method = san;
	d.end.state = state;
	doc = cert_disk_json(&r, &d, tmp, &n);
	field(doc, "nist_800_88_class", cls, 64);
	field(doc, "ieee_2883_technique", tech, 64);
	field(doc, "sanitization_method", applied, 64);
	free(doc);
}

static void test_class(void)
{
	char cls[64], tech[64], m[64];

	cert_of(SETTINGS_END_SANITIZE, SANCMD_FORMAT_ERASE, ENDSTEP_DONE, cls,
		tech, m);
	tap_ok(!strcmp(cls, "clear") && !strcmp(tech, "User Data Erase") &&
	       !strcmp(m, "format-user-data-erase"),
	       "Format NVM done: %s, clear, User Data Erase (%s, %s)", m, cls,
	       tech);
	cert_of(SETTINGS_END_SANITIZE, SANCMD_FORMAT_ERASE, ENDSTEP_FAILED,
		cls, tech, m);
	tap_ok(!strcmp(cls, "none"), "Format NVM that left units: class %s",
	       cls);
	cert_of(SETTINGS_END_SANITIZE, SANCMD_ZERO, ENDSTEP_DONE, cls, tech, m);
	tap_ok(!strcmp(cls, "clear") && !strcmp(tech, "Overwrite") &&
	       !strcmp(m, "zero"), "the fallback's zeros: %s, %s, %s", m, cls,
	       tech);
	cert_of(SETTINGS_END_SANITIZE, SANCMD_NONE, ENDSTEP_SAID, cls, tech, m);
	tap_ok(!strcmp(cls, "none") && !strcmp(m, "none") &&
	       !strcmp(tech, "null"), "no command: none, none, %s", tech);
	cert_of(SETTINGS_END_DISCARD, SANCMD_NONE, ENDSTEP_DONE, cls, tech, m);
	tap_ok(!strcmp(cls, "none") && !strcmp(m, "discard"),
	       "a discard, zeros promised and read: class %s", cls);
}

/*
 * The machine's rows a signal gives (signal_column's cert): the BMC's
 * address, in the disk's JSON, its page and the machine's page, through
 * the table; "" is null and an empty row.
 */
static void test_columns(void)
{
	struct settings s;
	struct record_disk d;
	struct record r = { .n = 1, .disks = &d, .s = &s };
	struct bmc *b;
	char got[64], *doc, *page, *all;
	size_t n;

	memset(&s, 0, sizeof(s));
	memset(&d, 0, sizeof(d));
	set(&d, "SERIAL", "sda");
	b = record_slot_make(&r, BMC_SLOT, sizeof(*b), NULL);
	if (!b)
		tap_bail("out of memory");
	snprintf(b->address, sizeof(b->address), "10.0.9.5");
	doc = cert_disk_json(&r, &d, tmp, &n);
	field(doc, "bmc_address", got, sizeof(got));
	tap_ok(!strcmp(got, "10.0.9.5"), "the BMC's address in the JSON: %s",
	       got);
	page = cert_disk_html(&r, &d, tmp, &n);
	all = cert_machine_html(&r, &n);
	tap_ok(page && strstr(page, "BMC address</th><td>10.0.9.5<") &&
	       all && strstr(all, "BMC address</th><td>10.0.9.5<"),
	       "and in the disk's page and the machine's, as a row");
	free(doc);
	free(page);
	free(all);
	b->address[0] = 0;
	doc = cert_disk_json(&r, &d, tmp, &n);
	field(doc, "bmc_address", got, sizeof(got));
	tap_ok(!strcmp(got, "null"), "not known: null: %s", got);
	free(doc);
	free(b);
}

int main(int argc, char **argv)
{
	tap_args(argc, argv);
	if (!mkdtemp(tmp))
		tap_bail("mkdtemp: %s", strerror(errno));
	TAP_RUN(test_one_serial);
	TAP_RUN(test_namespaces);
	TAP_RUN(test_case_and_machine);
	TAP_RUN(test_many);
	TAP_RUN(test_firmware);
	TAP_RUN(test_class);
	TAP_RUN(test_columns);
	tap_sh("rm -rf %s", tmp);
	return tap_done();
}
