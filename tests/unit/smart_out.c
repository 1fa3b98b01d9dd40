/* SPDX-License-Identifier: MIT */
/*
 * Description: a drive's SMART counters in result.json, written by one
 * function and read back by one: the "smart" object of a target (passed
 * and seven counters) and the signals' smart_start and smart_end (two
 * more), each key as docs/results.md names it, null for a counter not reported,
 * null for a drive smartctl did not answer; read back as written.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/tap.h"
#include "results/smart_out.h"

static const struct jsonread_limits lim = {
	.max_bytes = 1 << 20, .max_nodes = 1 << 12, .max_depth = 8,
};

static struct smart_counters sample(void)
{
	struct smart_counters c;

	smart_counters_none(&c);
	c.have = 1;
	c.passed = 0;
	c.realloc = 4008;
	c.pending = 24;
	c.crc_errors = 0;
	c.critical_warning = 4;
	c.error_log = 7;
	return c;
}

/* The keys of obj in order, "a,b,c". */
static void keys_of(const struct jsonread_node *obj, char *out, size_t len)
{
	size_t i, used = 0;

	out[0] = 0;
	for (i = 0; i < jsonread_count(obj) && used < len; i++)
		used += (size_t)snprintf(out + used, len - used, "%s%s",
					 i ? "," : "",
					 jsonread_key(jsonread_at(obj, i)));
}

static int same(const struct smart_counters *x,
		const struct smart_counters *y)
{
	return !memcmp(x, y, sizeof(*x));
}

static void test_written_read(void)
{
	struct smart_counters c = sample(), none, back;
	const struct jsonread_node *root;
	struct jsonread *doc;
	struct json j;
	char keys[400];
	size_t len;
	char *text;

	smart_counters_none(&none);
	json_init(&j);
	json_begin(&j, NULL);
	smart_out_json(&j, "before", &c, SMART_OUT_HEALTH);
	smart_out_json(&j, "smart_start", &c, SMART_OUT_SIGNALS);
	smart_out_json(&j, "after", &none, SMART_OUT_HEALTH);
	json_end(&j);
	text = json_take(&j, &len);
	if (!text || jsonread_parse(&doc, text, len, &lim, NULL, 0))
		tap_bail("the writer's JSON does not parse");
	root = jsonread_root(doc);

	keys_of(jsonread_get(root, "before"), keys, sizeof(keys));
	tap_ok(!strcmp(keys, "passed,reallocated_sectors,pending_sectors,"
		       "offline_uncorrectable,crc_errors,media_errors,"
		       "critical_warning,grown_defects"),
	       "a target's smart: passed and seven counters (%s)", keys);
	keys_of(jsonread_get(root, "smart_start"), keys, sizeof(keys));
	tap_ok(!strcmp(keys, "passed,reallocated_sectors,pending_sectors,"
		       "offline_uncorrectable,crc_errors,media_errors,"
		       "critical_warning,grown_defects,error_log_entries,"
		       "scsi_uncorrected"),
	       "the signals' smart_start: the same and two more (%s)", keys);
	tap_ok(strstr(text, "\"reallocated_sectors\": 4008") &&
	       strstr(text, "\"passed\": false") &&
	       strstr(text, "\"crc_errors\": 0") &&
	       strstr(text, "\"media_errors\": null") &&
	       strstr(text, "\"after\": null"),
	       "counts as numbers, 0 as 0, not reported as null, no answer "
	       "as null");

	smart_out_read(jsonread_get(root, "smart_start"), &back);
	tap_ok(same(&back, &c), "smart_start read back as written");
	smart_out_read(jsonread_get(root, "before"), &back);
	c.error_log = c.scsi_uncorrected = SMARTJSON_NONE;
	tap_ok(same(&back, &c),
	       "before read back as written, without the signals' two");
	smart_out_read(jsonread_get(root, "after"), &back);
	none.have = 0;
	tap_ok(same(&back, &none) && !back.have,
	       "null: no answer, every counter not reported");
	smart_out_read(NULL, &back);
	tap_ok(!back.have && back.passed == -1, "...and so is a missing key");
	jsonread_free(doc);
	free(text);
}

int main(int argc, char **argv)
{
	tap_args(argc, argv);
	TAP_RUN(test_written_read);
	return tap_done();
}
