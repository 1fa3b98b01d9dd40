/* SPDX-License-Identifier: MIT */
/*
 * Description: the state of a run folder's result.json changed in place
 * (result_set_state, how boot 2 of powercut marks the pending folder
 * verified): the document is read and written back whole, so the change
 * does not hang on how it was spaced or ordered. What kiln wrote comes
 * back byte for byte but for the state; a compact document, and one whose
 * "state" comes after another object's "state", are marked all the same;
 * one of a schema version this kiln does not know is left as it is.
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
#include "results/result.h"

static char top[64];

/* A document as kiln's writer lays it out, with every kind of value. */
static char *kiln_doc(const char *state, size_t *len)
{
	struct json j;

	json_init(&j);
	json_begin(&j, NULL);
	json_str(&j, "schema", "kiln-result");
	json_u64(&j, "schema_version", RESULT_SCHEMA);
	json_str(&j, "run_id", "0123456789abcdef");
	json_num(&j, "elapsed_seconds", 100.5);
	json_str(&j, "state", state);
	json_null(&j, "verified_from");
	json_array(&j, "notes");
	json_str(&j, NULL, "a note with \"quotes\", a \\ and a byte \xe9");
	json_array_end(&j);
	json_array(&j, "targets");
	json_begin(&j, NULL);
	json_str(&j, "identity", "file:/tmp/\x01odd\xff.img");
	json_u64(&j, "size", 18446744073709551615ull);
	json_i64(&j, "errno", -5);
	json_bool(&j, "read_only", 0);
	json_str(&j, "state", "done");
	json_array(&j, "region");
	json_begin(&j, NULL);
	json_u64(&j, "offset", 0);
	json_u64(&j, "length", 8388608);
	json_end(&j);
	json_array_end(&j);
	json_array(&j, "reasons");
	json_array_end(&j);
	json_begin(&j, "smart");
	json_null(&j, "before");
	json_end(&j);
	json_end(&j);
	json_array_end(&j);
	json_str(&j, "verdict", "PASS");
	json_end(&j);
	return json_take(&j, len);
}

static char *in(const char *name, const char *text, size_t len)
{
	static char dir[128];

	snprintf(dir, sizeof(dir), "%s/%s", top, name);
	if (mkdir(dir, 0755) || tap_write(dir, "result.json", text, len))
		tap_bail("cannot write %s/result.json", dir);
	return dir;
}

static char *read_back(const char *dir)
{
	char path[192];

	snprintf(path, sizeof(path), "%s/result.json", dir);
	return tap_read_file(path, NULL);
}

/* The state result_load() reads from dir; -2 when it cannot. */
static int state_in(const char *dir)
{
	struct result_record rec;
	char err[400];
	int state;

	if (result_load(dir, &rec, err, sizeof(err))) {
		tap_diag("%s", err);
		return -2;
	}
	state = rec.state;
	result_record_free(&rec);
	return state;
}

static void test_kiln_doc(void)
{
	char err[400] = "", *dir, *before, *want, *got;
	size_t len, wlen;
	int ret;

	before = kiln_doc("pending", &len);
	want = kiln_doc("verified", &wlen);
	dir = in("kiln", before, len);
	ret = result_set_state(dir, RECORD_VERIFIED, err, sizeof(err));
	got = read_back(dir);
	tap_ok(ret == 0 && got && strlen(got) == wlen && !strcmp(got, want),
	       "kiln's document: the same bytes but for the state %s", err);
	tap_ok(state_in(dir) == RECORD_VERIFIED, "... and it reads verified");
	if (got && strcmp(got, want))
		tap_diag("got:\n%s\nwant:\n%s", got, want);
	free(before);
	free(want);
	free(got);
}

static void test_compact(void)
{
	static const char doc[] = "{\"schema\":\"kiln-result\","
		"\"schema_version\":3,\"run_id\":\"00000000000000ab\","
		"\"state\":\"pending\",\"targets\":[]}";
	char err[400] = "", *dir = in("compact", doc, sizeof(doc) - 1);
	int ret;

	ret = result_set_state(dir, RECORD_VERIFIED, err, sizeof(err));
	tap_ok(ret == 0 && state_in(dir) == RECORD_VERIFIED,
	       "a compact document (\"state\":\"pending\") is marked "
	       "verified %s", err);
}

static void test_order(void)
{
	static const char doc[] = "{\"schema\": \"kiln-result\", "
		"\"schema_version\": 3, \"run_id\": \"00000000000000ab\", "
		"\"lab\": {\"state\": \"pending\"}, \"targets\": [],\n"
		"\t\"state\":\t\"pending\"}";
	struct jsonread *doc2 = NULL;
	char err[400] = "", path[192], *dir = in("order", doc, sizeof(doc) - 1);
	int ret;

	ret = result_set_state(dir, RECORD_VERIFIED, err, sizeof(err));
	snprintf(path, sizeof(path), "%s/result.json", dir);
	if (jsonread_load(&doc2, path, NULL, err, sizeof(err)))
		tap_bail("%s", err);
	tap_ok(ret == 0 && state_in(dir) == RECORD_VERIFIED &&
	       !strcmp(jsonread_str(jsonread_path(jsonread_root(doc2),
						  "/lab/state"), NULL, ""),
		       "pending"),
	       "the run's state after another \"state\": the run's is "
	       "marked, the other left %s", err);
	jsonread_free(doc2);
}

static void test_unknown(void)
{
	static const char doc[] = "{\"schema\": \"kiln-result\", "
		"\"schema_version\": 99, \"state\": \"pending\"}";
	char err[400] = "", *dir = in("future", doc, sizeof(doc) - 1), *got;
	int ret;

	ret = result_set_state(dir, RECORD_VERIFIED, err, sizeof(err));
	got = read_back(dir);
	tap_ok(ret == -EBADMSG && strstr(err, "schema version 99") &&
	       got && !strcmp(got, doc),
	       "schema version 99: left as it is, said in one line: %s",
	       err);
	free(got);
}

int main(int argc, char **argv)
{
	tap_args(argc, argv);
	snprintf(top, sizeof(top), "/tmp/kiln-state-%d", (int)getpid());
	if (mkdir(top, 0755))
		tap_bail("cannot make %s", top);
	TAP_RUN(test_kiln_doc);
	TAP_RUN(test_compact);
	TAP_RUN(test_order);
	TAP_RUN(test_unknown);
	tap_sh("rm -rf '%s'", top);
	return tap_done();
}
