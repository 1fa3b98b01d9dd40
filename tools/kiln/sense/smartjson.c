/* SPDX-License-Identifier: MIT */
/*
 * Description: smartctl's JSON read for a burn-in (see smartjson.h), with
 * kiln's one JSON reader. Keys are smartctl's (ataprint.cpp, nvmeprint.cpp,
 * scsiprint.cpp); where versions differ, each is read: Debian 12's 7.3
 * gives NVMe no temperature limits and no self-test log in JSON, 7.4 and
 * later do.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/jsonread.h"
#include "sense/smartjson.h"

typedef const struct jsonread_node node;

static long long num(node *n, const char *key)
{
	int64_t v;

	return jsonread_get_i64(n, key, &v) ? SMARTJSON_NONE : (long long)v;
}

/* The first of several places a value may be: a JSON Pointer each. */
static long long first_of(node *root, const char *const *paths)
{
	long long v = SMARTJSON_NONE;

	for (; *paths && v == SMARTJSON_NONE; paths++)
		v = num(jsonread_path(root, *paths), NULL);
	return v;
}

static void str(node *n, const char *key, char *out, size_t len)
{
	snprintf(out, len, "%s", jsonread_str(n, key, ""));
}

/* An attribute's raw count: the number smartctl's raw string starts with. */
static long long raw_count(node *attr)
{
	const char *s = jsonread_str(jsonread_get(attr, "raw"), "string", NULL);
	char *end;
	long long v;

	if (s) {
		v = strtoll(s, &end, 10);
		if (end != s && v >= 0)
			return v;
	}
	return num(jsonread_get(attr, "raw"), "value");
}

static void ata_attributes(node *root, struct smartjson *s)
{
	node *table = jsonread_path(root, "/ata_smart_attributes/table");
	size_t i;

	for (i = 0; i < jsonread_count(table); i++) {
		node *a = jsonread_at(table, i);

		switch (num(a, "id")) {
		case 5: s->c.realloc = raw_count(a); break;
		case 197: s->c.pending = raw_count(a); break;
		case 198: s->c.uncorrectable = raw_count(a); break;
		case 199: s->c.crc_errors = raw_count(a); break;
		}
	}
}

/*
 * An ATA self-test status byte: high nibble 0 completed without error,
 * 1 aborted by the host, 2 interrupted by a reset, 0xf in progress, the
 * rest a failure (read, servo, electrical, ...).
 */
static int ata_verdict(long long value, int passed)
{
	if (value == SMARTJSON_NONE)
		return passed;
	switch ((value >> 4) & 0xf) {
	case 0x0: return 1;
	case 0x1: case 0x2: case 0xf: return -1;
	default: return 0;
	}
}

static void ata_selftest(node *root, struct smartjson *s)
{
	node *st = jsonread_path(root, "/ata_smart_data/self_test");
	node *status = jsonread_get(st, "status");
	node *logs = jsonread_get(root, "ata_smart_self_test_log"), *log;
	long long v = num(status, "value");

	s->selftest_supported = jsonread_bool(jsonread_path(root,
				"/ata_smart_data/capabilities"),
				"self_tests_supported", -1);
	if (v != SMARTJSON_NONE && ((v >> 4) & 0xf) == 0xf) {
		long long left = num(status, "remaining_percent");

		s->selftest_running = left >= 0 && left <= 100 ?
				      100 - (int)left : 0;
	}
	s->short_minutes = num(jsonread_get(st, "polling_minutes"), "short");
	s->long_minutes = num(jsonread_get(st, "polling_minutes"), "extended");
	/* -x reads the extended log, -a the standard one; newest first. */
	if ((log = jsonread_path(logs, "/extended/table/0"))) {
		s->selftest_count = num(jsonread_get(logs, "extended"),
					"count");
	} else {
		log = jsonread_path(logs, "/standard/table/0");
		s->selftest_count = num(jsonread_get(logs, "standard"),
					"count");
	}
	if (!log)
		return;
	s->selftest_last_hours = num(log, "lifetime_hours");
	status = jsonread_get(log, "status");
	str(jsonread_get(log, "type"), "string", s->selftest_last_type,
	    sizeof(s->selftest_last_type));
	str(status, "string", s->selftest_last, sizeof(s->selftest_last));
	s->selftest_last_passed = ata_verdict(num(status, "value"),
					      jsonread_bool(status, "passed",
							    -1));
}

/* NVMe (7.4 and later): result 0 passed; 5, 6, 7 failed; others aborted. */
static void nvme_selftest(node *root, struct smartjson *s)
{
	node *log = jsonread_get(root, "nvme_self_test_log");
	node *last = jsonread_path(log, "/table/0");
	long long op = num(jsonread_get(log, "current_self_test_operation"),
			   "value");
	long long r;

	s->selftest_supported = jsonread_bool(jsonread_get(root,
				"nvme_optional_admin_commands"), "self_test",
				log ? 1 : -1);
	if (op > 0) {
		long long done = num(log,
				     "current_self_test_completion_percent");

		s->selftest_running = done >= 0 && done <= 100 ? (int)done : 0;
	}
	if (!last)
		return;
	s->selftest_count = (long long)jsonread_count(jsonread_get(log,
								   "table"));
	s->selftest_last_hours = num(last, "power_on_hours");
	str(jsonread_get(last, "self_test_code"), "string",
	    s->selftest_last_type, sizeof(s->selftest_last_type));
	str(jsonread_get(last, "self_test_result"), "string", s->selftest_last,
	    sizeof(s->selftest_last));
	r = num(jsonread_get(last, "self_test_result"), "value");
	s->selftest_last_passed = r == 0 ? 1 : r >= 5 && r <= 7 ? 0 : -1;
}

/* SCSI: the newest self-test log entry; result 0 passed, 1 and 2 aborted. */
static void scsi_selftest(node *root, struct smartjson *s)
{
	node *last = jsonread_get(root, "scsi_self_test_0");
	long long r = num(jsonread_get(last, "result"), "value");
	char key[24];
	int i;

	if (!last)
		return;
	s->selftest_supported = 1;
	/* scsi_self_test_0 to _19, newest first. */
	for (i = 0; i < 20; i++) {
		snprintf(key, sizeof(key), "scsi_self_test_%d", i);
		if (!jsonread_get(root, key))
			break;
	}
	s->selftest_count = i;
	s->selftest_last_hours = num(jsonread_get(last, "power_on_time"),
				     "hours");
	str(jsonread_get(last, "code"), "string", s->selftest_last_type,
	    sizeof(s->selftest_last_type));
	str(jsonread_get(last, "result"), "string", s->selftest_last,
	    sizeof(s->selftest_last));
	if (r == 15)
		s->selftest_running = 0;
	s->selftest_last_passed = r == 0 ? 1 : r >= 3 && r <= 7 ? 0 : -1;
}

static void temperatures(node *root, struct smartjson *s)
{
	static const char *const warn[] = {
		"/temperature/op_limit_max",
		"/nvme_composite_temperature_threshold/warning", NULL,
	};
	static const char *const crit[] = {
		"/temperature/limit_max", "/temperature/critical_limit_max",
		"/nvme_composite_temperature_threshold/critical",
		"/temperature/drive_trip", "/scsi_temperature/drive_trip", NULL,
	};

	s->temp = num(jsonread_get(root, "temperature"), "current");
	s->temp_warn = first_of(root, warn);
	s->temp_crit = first_of(root, crit);
	s->temp_lifetime_max = num(jsonread_get(root, "temperature"),
				   "lifetime_max");
	/*
	 * SCSI disks without a temperature log page come out as 0 degrees
	 * and a trip of 0 (QEMU's, some RAID volumes): no disk in a running
	 * server is at 0 C, so 0 is "not said".
	 */
	if (!strcmp(s->protocol, "SCSI")) {
		if (s->temp == 0)
			s->temp = SMARTJSON_NONE;
		if (s->temp_crit == 0)
			s->temp_crit = SMARTJSON_NONE;
	}
}

void smart_counters_none(struct smart_counters *c)
{
	c->have = 0;
	c->passed = -1;
	c->realloc = c->pending = c->uncorrectable = SMARTJSON_NONE;
	c->crc_errors = c->media_errors = SMARTJSON_NONE;
	c->critical_warning = c->grown_defects = SMARTJSON_NONE;
	c->error_log = c->scsi_uncorrected = SMARTJSON_NONE;
}

static void clear(struct smartjson *s)
{
	memset(s, 0, sizeof(*s));
	smart_counters_none(&s->c);
	s->exit_status = -1;
	s->rotational = -1;
	s->rpm = s->temp = s->temp_warn = s->temp_crit = SMARTJSON_NONE;
	s->temp_lifetime_max = SMARTJSON_NONE;
	s->selftest_supported = s->selftest_running = -1;
	s->selftest_last_passed = -1;
	s->short_minutes = s->long_minutes = SMARTJSON_NONE;
	s->selftest_last_hours = s->selftest_count = SMARTJSON_NONE;
}

/* smartctl's documents are small: -x of an ATA disk is some 40 KiB. */
static const struct jsonread_limits lim = {
	.max_bytes = 4 << 20, .max_nodes = 1 << 18, .max_depth = 32,
};

int smartjson_parse(const char *text, size_t len, struct smartjson *s)
{
	static const char *const errlog[] = {
		"/nvme_smart_health_information_log/num_err_log_entries",
		"/ata_smart_error_log/extended/count",
		"/ata_smart_error_log/summary/count", NULL,
	};
	struct jsonread *doc;
	node *root, *msgs, *nvme, *scsi;
	long long rate;
	size_t i;

	clear(s);
	if (jsonread_parse(&doc, text, len, &lim, NULL, 0) < 0)
		return -EBADMSG;
	root = jsonread_root(doc);
	if (jsonread_type(root) != JSONREAD_OBJECT) {
		jsonread_free(doc);
		return -EBADMSG;
	}
	s->ran = s->c.have = 1;
	s->exit_status = (int)num(jsonread_get(root, "smartctl"),
				  "exit_status");
	msgs = jsonread_path(root, "/smartctl/messages");
	for (i = 0; i < jsonread_count(msgs) && !s->message[0]; i++)
		if (!strcmp(jsonread_str(jsonread_at(msgs, i), "severity", ""),
			    "error"))
			str(jsonread_at(msgs, i), "string", s->message,
			    sizeof(s->message));
	str(jsonread_get(root, "device"), "protocol", s->protocol,
	    sizeof(s->protocol));
	str(jsonread_get(root, "device"), "type", s->type, sizeof(s->type));
	str(root, "model_name", s->model, sizeof(s->model));
	if (!s->model[0])
		str(root, "scsi_model_name", s->model, sizeof(s->model));
	str(root, "serial_number", s->serial, sizeof(s->serial));
	str(root, "firmware_version", s->firmware, sizeof(s->firmware));
	if (!s->firmware[0])
		str(root, "scsi_revision", s->firmware, sizeof(s->firmware));
	s->c.passed = jsonread_bool(jsonread_get(root, "smart_status"),
				    "passed", -1);

	/*
	 * rotation_rate: the rpm, or 0 for a solid-state disk. smartctl 7.3
	 * also writes 0 for a SCSI disk that does not say (VPD page B1
	 * absent), so for SCSI 0 is not an answer; sysfs queue/rotational is.
	 */
	rate = num(root, "rotation_rate");
	if (rate > 1) {
		s->rotational = 1;
		s->rpm = rate;
	} else if (rate == 0 && strcmp(s->protocol, "SCSI")) {
		s->rotational = 0;
	} else if (!strcmp(s->protocol, "NVMe")) {
		s->rotational = 0;
	}

	temperatures(root, s);
	ata_attributes(root, s);
	nvme = jsonread_get(root, "nvme_smart_health_information_log");
	s->c.media_errors = num(nvme, "media_errors");
	s->c.critical_warning = num(nvme, "critical_warning");
	s->c.error_log = first_of(root, errlog);
	s->c.grown_defects = num(root, "scsi_grown_defect_list");
	scsi = jsonread_get(root, "scsi_error_counter_log");
	if (scsi) {
		static const char *const dirs[] = { "read", "write", "verify" };

		for (i = 0; i < 3; i++) {
			long long v = num(jsonread_get(scsi, dirs[i]),
					  "total_uncorrected_errors");

			if (v < 0)
				continue;
			if (s->c.scsi_uncorrected < 0)
				s->c.scsi_uncorrected = 0;
			s->c.scsi_uncorrected += v;
		}
	}
	smartjson_links(root, s);
	if (!strcmp(s->protocol, "NVMe"))
		nvme_selftest(root, s);
	else if (!strcmp(s->protocol, "SCSI"))
		scsi_selftest(root, s);
	else
		ata_selftest(root, s);
	jsonread_free(doc);
	return 0;
}

char *smartjson_output(const char *text, size_t len, size_t *outlen)
{
	struct jsonread *doc;
	node *lines;
	size_t i, n = 0;
	char *out = NULL;

	*outlen = 0;
	if (jsonread_parse(&doc, text, len, &lim, NULL, 0) < 0)
		return NULL;
	lines = jsonread_path(jsonread_root(doc), "/smartctl/output");
	for (i = 0; i < jsonread_count(lines); i++)
		n += strlen(jsonread_str(jsonread_at(lines, i), NULL, "")) + 1;
	if (jsonread_type(lines) == JSONREAD_ARRAY && (out = malloc(n + 1))) {
		for (i = 0, n = 0; i < jsonread_count(lines); i++) {
			const char *l = jsonread_str(jsonread_at(lines, i),
						     NULL, "");

			memcpy(out + n, l, strlen(l));
			n += strlen(l);
			out[n++] = '\n';
		}
		out[n] = 0;
		*outlen = n;
	}
	jsonread_free(doc);
	return out;
}

char *smartjson_critical_text(long long bits, char *buf, size_t len)
{
	static const char *const words[] = {
		"spare below its threshold",
		"temperature past a threshold",
		"NVM subsystem reliability degraded",
		"media read-only",
		"volatile memory backup failed",
		"persistent memory region read-only",
	};
	size_t used = 0;
	unsigned i;

	buf[0] = 0;
	for (i = 0; i < sizeof(words) / sizeof(words[0]) && used < len; i++)
		if (bits & (1LL << i))
			used += (size_t)snprintf(buf + used, len - used, "%s%s",
						 used ? ", " : "", words[i]);
	if (!used && bits > 0)
		snprintf(buf, len, "a bit the specification reserves");
	return buf;
}
