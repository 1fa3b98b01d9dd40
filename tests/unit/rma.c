/* SPDX-License-Identifier: MIT */
/*
 * Description: a FAILed disk's RMA file and its NVMe logs in result.json.
 * rma-<serial>.txt is named by the serial only when that is a safe file
 * name ([A-Za-z0-9._-]), else by the identity hash (a serial with a '/',
 * a space, a control byte or nothing at all never makes a path); its text
 * holds the drive, the failure with offsets and classes, and the logs
 * before and after. The logs written to result.json read back the same,
 * so a restored run is judged on the same figures.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../lib/tap.h"
#include "judge/nvmejudge.h"
#include "judge/record.h"
#include "results/rma.h"
#include "results/signal.h"

/* A disk's NVMe logs: the nvme signal's slot (made by logs()). */
#define NV(d) ((struct nvme_disk *)record_disk_slot((d), NVME_SLOT))

static struct settings s;

static struct record_disk *failed_disk(struct record *r, const char *serial)
{
	struct record_disk *d = record_add(r, "/dev/nvme0n1", 0);

	if (!d)
		tap_bail("out of memory");
	snprintf(d->label, sizeof(d->label), "nvme0n1");
	snprintf(d->t.id.name, sizeof(d->t.id.name), "nvme0n1");
	snprintf(d->t.id.model, sizeof(d->t.id.model), "QEMU NVMe Ctrl");
	snprintf(d->t.id.serial, sizeof(d->t.id.serial), "%s", serial);
	snprintf(d->t.id.identity, sizeof(d->t.id.identity), "serial:%s",
		 serial);
	snprintf(d->link.firmware, sizeof(d->link.firmware), "8.0.0");
	d->t.ident = 0x0123456789abcdefull;
	d->t.size = 24 << 20;
	d->j.verdict = JUDGE_FAIL;
	d->j.nreasons = 1;
	snprintf(d->j.reasons[0], sizeof(d->j.reasons[0]),
		 "2 bad units (bit flips)");
	return d;
}

static void names(void)
{
	static const struct {
		const char *serial, *want;
	} cases[] = {
		{ "KILN-NVME0", "rma-KILN-NVME0.txt" },
		{ "S3Z.9_a-1", "rma-S3Z.9_a-1.txt" },
		{ "../../etc/passwd", "rma-0123456789abcdef.txt" },
		{ "WD WX41", "rma-0123456789abcdef.txt" },
		{ "", "rma-0123456789abcdef.txt" },
		{ "a\nb", "rma-0123456789abcdef.txt" },
		{ "caf\xc3\xa9", "rma-0123456789abcdef.txt" },
	};
	struct record r;
	char name[96];
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		record_init(&r, "burn", 0, NULL, &s);
		rma_name(failed_disk(&r, cases[i].serial), name, sizeof(name));
		tap_ok(!strcmp(name, cases[i].want), "serial %zu: %s", i,
		       name);
		record_free(&r);
	}
}

/* Logs of one drive: 5 error log entries before, 7 after. */
static void logs(struct record_disk *d)
{
	struct nvme_disk *nv = nvme_disk_make(d);
	struct nvmelog *b, *a;

	if (!nv)
		tap_bail("out of memory");
	b = &nv->before;
	a = &nv->after;

	b->asked = a->asked = 1;
	snprintf(b->dev, sizeof(b->dev), "/dev/nvme0");
	snprintf(a->dev, sizeof(a->dev), "/dev/nvme0");
	b->id.have = 1;
	snprintf(b->id.serial, sizeof(b->id.serial), "KILN-NVME0");
	snprintf(b->id.model, sizeof(b->id.model), "QEMU NVMe Ctrl");
	snprintf(b->id.firmware, sizeof(b->id.firmware), "8.0.0");
	b->id.error_entries = 64;
	b->h.have = 1;
	b->h.critical_warning = 0;
	b->h.spare = 100;
	b->h.spare_threshold = 10;
	b->h.media_errors = 0;
	b->h.power_on_hours = 1234;
	b->h.error_entries = 5;
	*a = *b;
	a->h.power_on_hours = 1240;
	a->h.spare = 50;
	a->h.error_entries = 7;
	a->nerrors = 2;
	a->errors[0].count = 7;
	a->errors[0].status = 0x281;
	a->errors[0].lba = 4096;
	a->errors[0].nsid = 1;
	a->errors[1].count = 6;
	a->ocp.have = 1;
	a->ocp.version = 3;
	a->ocp.bad_user_nand = 13;
	b->ocp = a->ocp;
	b->ocp.bad_user_nand = 10;
}

static void text(void)
{
	static struct engine_bad bad[2];
	struct record r;
	struct record_disk *d;
	size_t len;
	char *t;

	record_init(&r, "burn", 0, NULL, &s);
	snprintf(r.machine, sizeof(r.machine), "KILN-TEST");
	d = failed_disk(&r, "KILN-NVME0");
	logs(d);
	bad[0].offset = 8192;
	bad[0].v.class = UNIT_BITFLIP;
	bad[0].v.nbits = 3;
	bad[1].offset = 1 << 20;
	bad[1].v.class = UNIT_BITFLIP;
	d->snap.bad = bad;
	d->snap.nbad = 2;
	d->snap.bad_by_class[UNIT_BITFLIP] = 2;
	t = rma_text(&r, d, &len);
	tap_ok(t && strlen(t) == len, "the RMA text is made");
	tap_ok(t && strstr(t, "model:          QEMU NVMe Ctrl") &&
	       strstr(t, "serial:         KILN-NVME0") &&
	       strstr(t, "firmware:       8.0.0") &&
	       strstr(t, "power-on hours: 1240 (NVMe health log)"),
	       "it names the drive: model, serial, firmware, power-on hours");
	tap_ok(t && strstr(t, "2 bad units (bit flips)") &&
	       strstr(t, "  8192  0  bitflip  3") &&
	       strstr(t, "  1048576  0  bitflip  0") &&
	       strstr(t, "Bad units (4 KiB): 2 bitflip\n"),
	       "the failure, with each bad unit's offset and class");
	tap_ok(t && strstr(t, "SMART / Health log (02h) before") &&
	       strstr(t, "SMART / Health log (02h) after") &&
	       strstr(t, "bad NAND blocks 10 user") &&
	       strstr(t, "bad NAND blocks 13 user") &&
	       strstr(t, "#7 queue 0 command 0x0 LBA 4096 nsid 1: "
		      "Unrecovered Read Error"),
	       "the NVMe logs before and after, entries in words");
	tap_ok(t && strstr(t, "SMART before the run (smartctl)\n  (none"),
	       "no smartctl: said, not left out");
	free(t);
	d->snap.bad = NULL;
	record_free(&r);
}

static void round_trip(void)
{
	struct record r, back;
	struct record_disk *d, *e;
	struct jsonread *doc;
	struct json j;
	struct judge j1, j2;
	const struct jsonread_node *root;
	char *out;
	size_t len;

	record_init(&r, "burn", 0, NULL, &s);
	d = failed_disk(&r, "KILN-NVME0");
	logs(d);
	snprintf(NV(d)->telemetry, sizeof(NV(d)->telemetry),
		 "telemetry-nvme0n1.bin");
	NV(d)->telemetry_len = 4096;
	json_init(&j);
	json_begin(&j, NULL);
	signal_find("nvme")->json_disk(&j, &r, d);
	json_end(&j);
	out = json_take(&j, &len);
	tap_ok(out && jsonread_parse(&doc, out, len, NULL, NULL, 0) == 0,
	       "the logs are valid JSON");
	root = jsonread_root(doc);
	tap_ok(jsonread_i64(jsonread_get(root, "error_log"), "entries_before",
			    0) == 5 &&
	       jsonread_i64(jsonread_get(root, "error_log"), "entries_after",
			    0) == 7 &&
	       jsonread_count(jsonread_path(root, "/error_log/new")) == 2 &&
	       jsonread_u64(jsonread_path(root, "/error_log/new/0"), "lba",
			    0) == 4096, "error_log: 5 before, 7 after, the two "
	       "new entries with their LBA");
	record_init(&back, "burn", 0, NULL, &s);
	e = failed_disk(&back, "KILN-NVME0");
	signal_find("nvme")->read_disk(root, e);
	memset(&j1, 0, sizeof(j1));
	memset(&j2, 0, sizeof(j2));
	nvmejudge_disk(&NV(d)->before, &NV(d)->after, NULL, &j1);
	nvmejudge_disk(&NV(e)->before, &NV(e)->after, NULL, &j2);
	tap_ok(j1.nreasons >= 3 && j1.nreasons == j2.nreasons &&
	       j1.verdict == j2.verdict &&
	       !strcmp(j1.reasons[j1.nreasons - 1],
		       j2.reasons[j2.nreasons - 1]) &&
	       !strcmp(NV(e)->telemetry, "telemetry-nvme0n1.bin") &&
	       NV(e)->telemetry_len == 4096 && NV(e)->after.ocp.have &&
	       NV(e)->before.h.spare_threshold == 10,
	       "read back, the logs are judged the same (%d reasons)",
	       j2.nreasons);
	jsonread_free(doc);
	free(out);
	record_free(&back);
	record_free(&r);
	json_init(&j);
	json_begin(&j, NULL);
	record_init(&r, "burn", 0, NULL, &s);
	signal_find("nvme")->json_disk(&j, &r, record_add(&r, "/dev/sdb", 0));
	json_end(&j);
	out = json_take(&j, &len);
	tap_ok(out && !strstr(out, "error_log"),
	       "a disk whose logs were never read writes none");
	free(out);
	record_free(&r);
}

/* A checkpoint's logs of the wrong shapes: read as not there, no crash. */
static void hostile(void)
{
	static const char *const docs[] = {
		"{\"nvme_logs\": 5}",
		"{\"nvme_logs\": {\"before\": 5, \"after\": [1]}}",
		"{\"nvme_logs\": {\"controller\": 7, \"after\": "
		"{\"health\": [1], \"ocp_smart\": \"x\", \"model\": 1, "
		"\"entries_kept\": 99}}, \"error_log\": {\"new\": \"no\"}}",
		"{\"nvme_logs\": {\"after\": {\"health\": "
		"{\"available_spare\": 1e300, \"spare_threshold\": -5}}}, "
		"\"error_log\": {\"new\": "
		"[1, {}, {\"error_count\": -1, \"lba\": \"x\"}]}}",
	};
	struct record r;
	struct record_disk *d;
	const struct nvme_disk *nv;
	struct jsonread *doc;
	struct judge j;
	size_t i;
	int ok = 1;

	for (i = 0; i < sizeof(docs) / sizeof(docs[0]); i++) {
		record_init(&r, "burn", 0, NULL, &s);
		d = failed_disk(&r, "X");
		if (jsonread_parse(&doc, docs[i], strlen(docs[i]), NULL, NULL,
				   0)) {
			ok = 0;
			record_free(&r);
			continue;
		}
		signal_find("nvme")->read_disk(jsonread_root(doc), d);
		memset(&j, 0, sizeof(j));
		nv = nvme_disk_of(d);
		nvmejudge_disk(&nv->before, &nv->after, NULL, &j);
		if (nv->after.nerrors > NVMELOG_ERRORS ||
		    (i < 2 && nv->after.asked))
			ok = 0;
		jsonread_free(doc);
		record_free(&r);
	}
	tap_ok(ok, "logs of the wrong shapes read as absent or empty, judged "
	       "without a crash");
}

/* kiln finish's: every FAILed disk's file, and no other. */
static void write_all(void)
{
	char dir[] = "/tmp/kiln-rma-XXXXXX", path[128];
	struct record r;
	struct record_disk *ok;
	char *t;
	size_t len;

	if (!mkdtemp(dir))
		tap_bail("mkdtemp");
	record_init(&r, "burn", 0, NULL, &s);
	failed_disk(&r, "KILN-FAIL");
	ok = failed_disk(&r, "KILN-PASS");
	ok->j.verdict = JUDGE_WARN;
	tap_ok(rma_write_all(&r, dir) == 0, "written into %s", dir);
	snprintf(path, sizeof(path), "%s/rma-KILN-FAIL.txt", dir);
	t = tap_read_file(path, &len);
	tap_ok(t && strstr(t, "serial:         KILN-FAIL"),
	       "the FAILed disk's file, whole");
	free(t);
	snprintf(path, sizeof(path), "%s/rma-KILN-PASS.txt", dir);
	tap_ok(access(path, F_OK) < 0, "none for a disk that did not FAIL");
	tap_ok(rma_write_all(&r, "/nonexistent/dir") < 0,
	       "a folder that cannot be written: an error, not silence");
	record_free(&r);
	tap_sh("rm -rf '%s'", dir);
}

int main(int argc, char **argv)
{
	tap_args(argc, argv);
	TAP_RUN(names);
	TAP_RUN(text);
	TAP_RUN(round_trip);
	TAP_RUN(write_all);
	TAP_RUN(hostile);
	return tap_done();
}
