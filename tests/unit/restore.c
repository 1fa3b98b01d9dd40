/* SPDX-License-Identifier: MIT */
/*
 * Description: a run's document read back by restore_record(), as kiln
 * finish reads a checkpoint, is held to the same schema check as every
 * other reader of result.json: a document of a schema version this kiln
 * does not know (from a newer kiln, or none at all) is refused with one
 * line that says so, and kiln finish leaves the folder as it is, exit 3,
 * never writing a result.json over it from fields it misread. Settings a
 * document leaves out are the key table's defaults, as a run's are; and
 * the fields discover writes are those the readers look for (keys.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../lib/tap.h"
#include "base/json.h"
#include "base/jsonread.h"
#include "base/kiln.h"
#include "cmd/finish.h"
#include "discover/enclosure.h"
#include "discover/identity.h"
#include "discover/safety.h"
#include "judge/vitals.h"
#include "results/folder.h"
#include "results/result_keys.h"
#include "results/restore.h"
#include "results/result.h"

static char top[64];

/* A small result document of schema version ver ("" for none at all). */
static char *doc_of(const char *ver)
{
	static char text[1024];

	snprintf(text, sizeof(text),
		 "{\"schema\": \"kiln-result\",%s%s%s \"command\": \"burn\", "
		 "\"run_id\": \"00000000000000ab\", \"state\": \"running\", "
		 "\"settings\": {\"bs\": 1048576}, \"targets\": [{\"path\": "
		 "\"/tmp/x.img\", \"identity\": \"file:/tmp/x.img\", "
		 "\"size\": 8388608, \"state\": \"running\", \"region\": "
		 "[{\"offset\": 0, \"length\": 8388608}]}]}",
		 ver[0] ? " \"schema_version\": " : "", ver,
		 ver[0] ? "," : "");
	return text;
}

static void restore_refuses(const char *ver, const char *says)
{
	struct jsonread *doc = NULL;
	struct restored rs;
	char err[300] = "", *text = doc_of(ver);
	int ret;

	if (jsonread_parse(&doc, text, strlen(text), NULL, err, sizeof(err)))
		tap_bail("%s", err);
	ret = restore_record(jsonread_root(doc), &rs, err, sizeof(err));
	tap_ok(ret == -EBADMSG && strstr(err, says) && !strchr(err, '\n'),
	       "restore_record: schema version %s refused: %s",
	       ver[0] ? ver : "missing", err);
	restore_free(&rs);
	jsonread_free(doc);
}

/* kiln finish of a cut-off folder whose checkpoint is of schema ver. */
static void finish_refuses(const char *ver)
{
	char dir[128], path[160], err[300] = "", line[400] = "";
	char *text = doc_of(ver);
	struct folder f;
	struct stat st;
	FILE *out;
	int ret, code = -1, saved;

	snprintf(dir, sizeof(dir), "%s/v%s", top, ver);
	if (folder_open(&f, dir, 4096, 0, err, sizeof(err)))
		tap_bail("%s", err);
	if (folder_checkpoint(&f, text, strlen(text)))
		tap_bail("cannot write a checkpoint in %s", dir);
	folder_close(&f);

	snprintf(path, sizeof(path), "%s/stderr", top);
	fflush(stderr);
	saved = dup(2);
	out = fopen(path, "w+");
	if (saved < 0 || !out || dup2(fileno(out), 2) < 0)
		tap_bail("cannot catch stderr");
	ret = finish_folder(dir, stdout, &code);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	rewind(out);
	if (!fgets(line, sizeof(line), out))
		line[0] = 0;
	tap_ok(ret == -EBADMSG && code == KILN_EXIT_CANNOT &&
	       strstr(line, "schema version") && fgetc(out) == EOF,
	       "kiln finish of a checkpoint of schema version %s: exit 3, "
	       "one line: %s", ver, line);
	fclose(out);
	snprintf(path, sizeof(path), "%s/result.json", dir);
	tap_ok(stat(path, &st) < 0 && errno == ENOENT,
	       "... and no result.json written over the folder");
}

static void test_restore(void)
{
	char ver[16];

	snprintf(ver, sizeof(ver), "%d", RESULT_SCHEMA + 1);
	restore_refuses(ver, "schema version 5, which this kiln does not "
			"know (it reads 1 to 4)");
	restore_refuses("99", "schema version 99");
	restore_refuses("0", "schema version 0");
	restore_refuses("", "schema version 0");
	finish_refuses("99");
}

/* What a document leaves out of "settings" is the key table's default. */
static void test_defaults(void)
{
	static const char text[] = "{\"schema\": \"kiln-result\", "
		"\"schema_version\": 3, \"run_id\": \"00000000000000ab\", "
		"\"settings\": {}, \"targets\": []}";
	struct jsonread *doc = NULL;
	struct settings d;
	struct restored rs;
	char err[300] = "";
	int ret;

	if (jsonread_parse(&doc, text, sizeof(text) - 1, NULL, err,
			   sizeof(err)))
		tap_bail("%s", err);
	ret = restore_record(jsonread_root(doc), &rs, err, sizeof(err));
	settings_defaults(&d, SCOPE_BURN);
	tap_ok(ret == 0 && rs.s.mode == d.mode && rs.s.bs == d.bs &&
	       rs.s.qd == d.qd && rs.s.passes == (d.passes ? d.passes : 1) &&
	       rs.s.duration == d.duration && rs.s.offset == d.offset &&
	       rs.s.span == d.span && rs.s.quick == d.quick &&
	       rs.s.deadline == d.deadline && rs.s.interval == d.interval &&
	       rs.s.slow_warn == d.slow_warn &&
	       rs.s.slow_fail == d.slow_fail && rs.s.solo == d.solo,
	       "settings a document leaves out are settings_defaults()' %s",
	       err);
	settings_free(&d);
	restore_free(&rs);
	jsonread_free(doc);
}

/*
 * kiln report renders a record as it was judged: the run's verdict, state
 * and exit code, the machine's verdict and reasons, the kiln and kernel
 * that ran it, and each disk's request times, as the document says them.
 */
static void test_verdicts(void)
{
	static const char text[] = "{\"schema\": \"kiln-result\", "
		"\"schema_version\": 3, \"run_id\": \"00000000000000ab\", "
		"\"kiln_version\": \"0.9\", \"kernel\": \"6.1.0-28\", "
		"\"state\": \"interrupted\", \"verdict\": \"WARN\", "
		"\"exit_code\": 4, \"settings\": {}, \"machine\": "
		"{\"verdict\": \"WARN\", \"reasons\": [\"hot\"]}, "
		"\"targets\": [{\"path\": \"/dev/sda\", \"verdict\": "
		"\"PASS\", \"latency\": {\"write\": {\"requests\": 100, "
		"\"max_ms\": 12.5, \"mean_ms\": 2.0, \"buckets\": ["
		"{\"from_ms\": 1.0, \"to_ms\": 1.26, \"count\": 99}, "
		"{\"from_ms\": 10.0, \"to_ms\": 12.6, \"count\": 1}]}}}]}";
	struct jsonread *doc = NULL;
	const struct latency_hist *h;
	struct restored rs;
	char err[300] = "";
	uint64_t sum = 0;
	unsigned b;
	int ret;

	if (jsonread_parse(&doc, text, sizeof(text) - 1, NULL, err,
			   sizeof(err)))
		tap_bail("%s", err);
	ret = restore_record(jsonread_root(doc), &rs, err, sizeof(err));
	if (ret || rs.r.n != 1)
		tap_bail("restore_record: %s", err);
	restore_verdicts(jsonread_root(doc), &rs);
	restore_latency(jsonread_root(doc), &rs);
	tap_ok(rs.r.verdict == JUDGE_WARN &&
	       rs.r.state == RECORD_INTERRUPTED && rs.r.exit_code == 4 &&
	       rs.r.sig.j.verdict == JUDGE_WARN && rs.r.sig.j.nreasons == 1 &&
	       !strcmp(rs.r.sig.j.reasons[0], "hot") &&
	       !strcmp(rs.r.kiln_version, "0.9") &&
	       !strcmp(rs.r.kernel, "6.1.0-28"),
	       "the verdicts, the state and the kiln as the document says");
	h = &rs.r.disks[0].snap.latency[PHASE_WRITE];
	for (b = 0; b < LATENCY_BUCKETS; b++)
		sum += h->count[b];
	tap_ok(h->n == 100 && sum == 100 && h->max_ns == 12500000 &&
	       h->sum_ns == 200000000 && latency_percentile(h, 0.5) < 1300000,
	       "a disk's request times as the document says them");
	restore_free(&rs);
	jsonread_free(doc);
}

/*
 * The expected machine's differences come back from the document, so the
 * machine judged again (kiln report, the verify boot) still FAILs for
 * them, and a result.json written again still holds them all.
 */
static void test_expect(void)
{
	static const char text[] = "{\"schema\": \"kiln-result\", "
		"\"schema_version\": 3, \"run_id\": \"00000000000000ab\", "
		"\"settings\": {}, \"targets\": [], \"expect\": {"
		"\"file\": \"/stick/expect.cfg\", \"differences\": ["
		"\"memory: expected 2 GiB, found 1 GiB\", "
		"\"disks: expected 3, found 2\"], \"left_out\": 0}}";
	struct jsonread *doc = NULL;
	struct restored rs;
	char err[300] = "", *again;
	size_t len;

	if (jsonread_parse(&doc, text, sizeof(text) - 1, NULL, err,
			   sizeof(err)))
		tap_bail("%s", err);
	if (restore_record(jsonread_root(doc), &rs, err, sizeof(err)))
		tap_bail("restore_record: %s", err);
	tap_ok(rs.r.expect && rs.r.expect->n == 2 && !rs.r.expect->more &&
	       !strcmp(rs.r.expect_file, "/stick/expect.cfg") &&
	       !strcmp(rs.r.expect->line[1], "disks: expected 3, found 2"),
	       "the expect file and its differences as the document says");
	vitals_judge_machine(&rs.r);
	tap_ok(rs.r.sig.j.verdict == JUDGE_FAIL &&
	       strstr(rs.r.failure, "memory: expected 2 GiB, found 1 GiB"),
	       "judged again, the machine FAILs for them: %s", rs.r.failure);
	again = result_json(&rs.r, &len);
	tap_ok(again && strstr(again, "\"disks: expected 3, found 2\""),
	       "a result.json written again keeps them");
	free(again);
	restore_free(&rs);
	jsonread_free(doc);
}

/*
 * The fields of a target that discover writes (identity_json, safety_json:
 * inventory.json's too) are those keys.h names for the readers.
 */
static void test_discover_keys(void)
{
	static const char *const keys[] = {
		KEY_NAME, KEY_IDENTITY, KEY_MODEL, KEY_SERIAL, KEY_WWN,
		KEY_ROTATIONAL, KEY_CLASS, KEY_CLASS_REASONS,
	};
	struct identity id = { .rotational = 1 };
	struct safety sf = { .class = SAFETY_BLANK };
	struct enclosure_slot bay = { "0:0:3:0", 7, "Slot 07", "" };
	const struct jsonread_node *slot;
	struct jsonread *doc = NULL;
	char err[200] = "", *text;
	struct json j;
	size_t len, i, n = 0;

	json_init(&j);
	json_begin(&j, NULL);
	identity_json(&j, &id);
	safety_json(&j, &sf);
	json_end(&j);
	text = json_take(&j, &len);
	if (!text || jsonread_parse(&doc, text, len, NULL, err, sizeof(err)))
		tap_bail("identity_json: %s", err);
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		n += jsonread_get(jsonread_root(doc), keys[i]) != NULL;
	tap_ok(n == sizeof(keys) / sizeof(keys[0]) &&
	       jsonread_count(jsonread_root(doc)) == n,
	       "identity_json and safety_json write the fields keys.h names "
	       "(%zu of %zu)", n, sizeof(keys) / sizeof(keys[0]));
	jsonread_free(doc);
	free(text);

	json_init(&j);
	json_begin(&j, NULL);
	enclosure_json(&j, KEY_SLOT, &bay);
	json_end(&j);
	text = json_take(&j, &len);
	doc = NULL;
	if (!text || jsonread_parse(&doc, text, len, NULL, err, sizeof(err)))
		tap_bail("enclosure_json: %s", err);
	slot = jsonread_get(jsonread_root(doc), KEY_SLOT);
	tap_ok(jsonread_count(slot) == 3 &&
	       !strcmp(jsonread_str(slot, KEY_ENCLOSURE, ""), "0:0:3:0") &&
	       jsonread_u64(slot, KEY_SLOT, 0) == 7 &&
	       !strcmp(jsonread_str(slot, KEY_NAME, ""), "Slot 07"),
	       "enclosure_json writes the bay in the fields keys.h names");
	jsonread_free(doc);
	free(text);
}

int main(int argc, char **argv)
{
	tap_args(argc, argv);
	snprintf(top, sizeof(top), "/tmp/kiln-restore-%d", (int)getpid());
	if (mkdir(top, 0755))
		tap_bail("cannot make %s", top);
	TAP_RUN(test_restore);
	TAP_RUN(test_defaults);
	TAP_RUN(test_verdicts);
	TAP_RUN(test_expect);
	TAP_RUN(test_discover_keys);
	tap_sh("rm -rf '%s'", top);
	return tap_done();
}
