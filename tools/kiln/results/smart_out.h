/* SPDX-License-Identifier: MIT */
#ifndef KILN_SMART_OUT_H
#define KILN_SMART_OUT_H

#include "base/json.h"
#include "base/jsonread.h"
#include "sense/smartjson.h"

/*
 * A drive's SMART counters (smartjson.h) in result.json: a target's
 * "smart" "before" and "after", and its signals' "smart_start" and
 * "smart_end" (docs/results.md). Both name a counter the same way;
 * the signals add error_log_entries and scsi_uncorrected.
 */
enum smart_out_keys {
	SMART_OUT_HEALTH,	/* "smart": passed and seven counters */
	SMART_OUT_SIGNALS,	/* "smart_start", "smart_end": all nine */
};

/* c as the object key (null when c->have is 0). */
void smart_out_json(struct json *j, const char *key,
		    const struct smart_counters *c, enum smart_out_keys keys);

/* The same read back: c->have 0 when n is not an object. */
void smart_out_read(const struct jsonread_node *n, struct smart_counters *c);

/*
 * The counters one by one, in result.json's order, for those who show
 * them: how many, the i-th one's name in words ("reallocated sectors"),
 * and its value in c (SMARTJSON_NONE when not reported).
 */
size_t smart_out_count(void);
const char *smart_out_name(size_t i);
long long smart_out_value(const struct smart_counters *c, size_t i);

#endif
