/* SPDX-License-Identifier: MIT */
/*
 * Description: a drive's SMART counters written to result.json and read
 * back (see smart_out.h): one table of keys for both, so that kiln finish
 * and kiln fleet read what a run wrote. A counter not reported is null.
 */
#include <stddef.h>

#include "results/result_keys.h"
#include "results/smart_out.h"

/* In result.json's order; the "smart" object has the first seven. */
static const struct {
	const char *key;
	size_t off;
	const char *words;
} counters[] = {
#define C(key, field, words) \
	{ key, offsetof(struct smart_counters, field), words }
	C(KEY_REALLOCATED_SECTORS, realloc, "reallocated sectors"),
	C(KEY_PENDING_SECTORS, pending, "pending sectors"),
	C(KEY_OFFLINE_UNCORRECTABLE, uncorrectable, "offline uncorrectable"),
	C(KEY_CRC_ERRORS, crc_errors, "CRC errors"),
	C(KEY_MEDIA_ERRORS, media_errors, "media errors"),
	C(KEY_CRITICAL_WARNING, critical_warning, "critical warning"),
	C(KEY_GROWN_DEFECTS, grown_defects, "grown defects"),
	C(KEY_ERROR_LOG_ENTRIES, error_log, "error log entries"),
	C(KEY_SCSI_UNCORRECTED, scsi_uncorrected, "SCSI uncorrected"),
#undef C
};

#define NCOUNTERS (sizeof(counters) / sizeof(counters[0]))
#define NHEALTH 7

static long long *field(struct smart_counters *c, size_t i)
{
	return (long long *)(void *)((char *)c + counters[i].off);
}

static long long value(const struct smart_counters *c, size_t i)
{
	return *(const long long *)(const void *)((const char *)c +
						  counters[i].off);
}

size_t smart_out_count(void)
{
	return NCOUNTERS;
}

const char *smart_out_name(size_t i)
{
	return i < NCOUNTERS ? counters[i].words : "?";
}

long long smart_out_value(const struct smart_counters *c, size_t i)
{
	return i < NCOUNTERS && c->have ? value(c, i) : SMARTJSON_NONE;
}

void smart_out_json(struct json *j, const char *key,
		    const struct smart_counters *c, enum smart_out_keys keys)
{
	size_t i, n = keys == SMART_OUT_SIGNALS ? NCOUNTERS : NHEALTH;
	long long v;

	if (!c->have) {
		json_null(j, key);
		return;
	}
	json_begin(j, key);
	if (c->passed < 0)
		json_null(j, KEY_PASSED);
	else
		json_bool(j, KEY_PASSED, c->passed);
	for (i = 0; i < n; i++) {
		v = value(c, i);
		if (v < 0)
			json_null(j, counters[i].key);
		else
			json_i64(j, counters[i].key, v);
	}
	json_end(j);
}

void smart_out_read(const struct jsonread_node *n, struct smart_counters *c)
{
	size_t i;

	c->have = jsonread_type(n) == JSONREAD_OBJECT;
	c->passed = jsonread_type(jsonread_get(n, KEY_PASSED)) == JSONREAD_BOOL ?
		    jsonread_bool(n, KEY_PASSED, 0) : -1;
	for (i = 0; i < NCOUNTERS; i++)
		*field(c, i) = jsonread_i64(n, counters[i].key, -1);
}
