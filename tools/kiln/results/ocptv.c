/* SPDX-License-Identifier: MIT */
/*
 * Description: ocptv.jsonl, the run told in the OCP Test & Validation
 * output format (schema 2.0, ../shared/ocptv/SPEC.md), made whole from the
 * run's one record. How a kiln run maps onto it:
 *
 * - testRunStart: name "kiln", kiln's version, the command line, the
 *   settings as parameters. dutInfo is the machine: its id is the machine
 *   id when the record holds the inventory (kiln run), else the host's
 *   name. hardwareInfos: the machine ("0", when the inventory names it)
 *   and every disk ("1".."n", in the record's order); softwareInfos: kiln
 *   and the kernel. Each note of the run is a log of severity INFO.
 *
 * - One test step per disk, and one for a machine that failed:
 *   ocptv_step.c tells what they hold and how they end.
 *
 * - testRunEnd, where the spec allows COMPLETE with PASS or FAIL, and SKIP
 *   or ERROR only with NOT_APPLICABLE:
 *	interrupted (a signal, a closed console)	SKIP, NOT_APPLICABLE
 *		(the spec's "external request to abort"; what was found so
 *		far stays in the diagnoses, and a log says so)
 *	no disk could start				ERROR, NOT_APPLICABLE
 *	a disk or the machine failed			COMPLETE, FAIL
 *	nothing to test					SKIP, NOT_APPLICABLE
 *	results lost, nothing failed			ERROR, NOT_APPLICABLE
 *	otherwise (warnings too)			COMPLETE, PASS
 *   A run still going (a checkpoint's record) has no diagnosis, step end
 *   or run end yet: the spec reads their absence as a run not finished.
 *
 * Timestamps are UTC with milliseconds, of the events they tell (starts at
 * the start, series points when measured, the rest at the end), since the
 * file is written after them. sequenceNumber counts the lines from 0.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>

#include "base/json.h"
#include "results/ocptv.h"
#include "results/ocptv_out.h"
#include "results/ocptv_step.h"
#include "base/timing.h"
#include "base/version.h"

/*
 * A string of the inventory's "system" object, unescaped; "" when there
 * is none. inventory.json is kiln's own (inventory.c): "system" comes
 * first and always holds these keys, and json.c escapes every quote
 * inside a string, so "KEY" followed by ':' is a key, never a value;
 * its \xNN (a byte that is not UTF-8, or a backslash) is the byte again.
 */
static void system_field(const char *inv, const char *key, char *out,
			 size_t len)
{
	size_t klen = strlen(key), n = 0;
	const char *p = inv ? strstr(inv, "\"system\"") : NULL;

	out[0] = 0;
	while (p && (p = strstr(p + 1, "\"")) != NULL) {
		const char *q;

		if (strncmp(p + 1, key, klen) || p[1 + klen] != '"')
			continue;
		q = p + 2 + klen;
		while (*q == ' ')
			q++;
		if (*q++ != ':')
			continue;
		while (*q == ' ')
			q++;
		if (*q != '"')
			return;		/* null */
		for (q++; *q && *q != '"' && n + 1 < len; q++) {
			if (*q == '\\' && q[1] == 'u') {
				char hex[5] = { 0 };

				memcpy(hex, q + 2, strnlen(q + 2, 4));
				out[n++] = (char)strtoul(hex, NULL, 16);
				q += strnlen(q + 2, 4) + 1;
			} else if (*q == '\\' && q[1] == '\\' && q[2] == 'x' &&
				   isxdigit((unsigned char)q[3]) &&
				   isxdigit((unsigned char)q[4])) {
				/* \xNN: a byte that is not UTF-8 (json.c). */
				char hex[3] = { q[3], q[4], 0 };

				out[n++] = (char)strtoul(hex, NULL, 16);
				q += 4;
			} else if (*q == '\\' && q[1]) {
				q++;
				out[n++] = *q == 'n' ? '\n' : *q;
			} else {
				out[n++] = *q;
			}
		}
		out[n] = 0;
		return;
	}
}

/* The command line as a shell would take it back. */
static void command_line(const struct record *r, char *out, size_t len)
{
	size_t n = (size_t)snprintf(out, len, "kiln");
	int i;

	for (i = 0; i < r->argc && n < len; i++) {
		const char *a = r->argv[i], *c;
		int plain = *a != 0;

		for (c = a; *c && plain; c++)
			plain = isalnum((unsigned char)*c) ||
				strchr("-_./=:,+@%", *c);
		if (plain) {
			n += (size_t)snprintf(out + n, len - n, " %s", a);
			continue;
		}
		n += (size_t)snprintf(out + n, len - n, " '");
		for (c = a; *c && n < len; c++)
			n += (size_t)snprintf(out + n, len - n, *c == '\'' ?
					      "'\\''" : "%c", *c);
		if (n < len)
			n += (size_t)snprintf(out + n, len - n, "'");
	}
}

static void parameters(struct ocptv_out *o, const struct record *r)
{
	const struct settings *s = r->s;
	char id[20];

	json_begin(&o->j, "parameters");
	json_str(&o->j, "command", r->command);
	snprintf(id, sizeof(id), "%016llx", (unsigned long long)r->run_id);
	json_str(&o->j, "run_id", id);
	if (s) {
		json_str(&o->j, "mode", settings_mode_name(s->mode));
		json_u64(&o->j, "bs", s->bs);
		json_u64(&o->j, "qd", s->qd);
		json_u64(&o->j, "passes", settings_passes(s));
		json_u64(&o->j, "duration_seconds", s->duration);
		json_u64(&o->j, "offset", s->offset);
		json_u64(&o->j, "span", s->span);
		json_bool(&o->j, "quick", s->quick);
		if (s->max_writes_set)
			json_u64(&o->j, "max_writes", s->max_writes);
		json_u64(&o->j, "deadline_seconds", s->deadline);
		json_u64(&o->j, "interval_seconds", s->interval);
	}
	json_end(&o->j);
}

/* A hardwareInfo, of the machine whose id is machine ("" unknown). */
static void hardware(struct ocptv_out *o, const char *machine, const char *id,
		     const char *name, const char *type, const char *serial,
		     const char *model, const char *maker,
		     const char *location)
{
	json_begin(&o->j, NULL);
	json_str(&o->j, "hardwareInfoId", id);
	json_str(&o->j, "name", name);
	if (type)
		json_str(&o->j, "partType", type);
	if (serial && serial[0])
		json_str(&o->j, "serialNumber", serial);
	if (model && model[0])
		json_str(&o->j, "manufacturerPartNumber", model);
	if (maker && maker[0])
		json_str(&o->j, "manufacturer", maker);
	if (location && location[0])
		json_str(&o->j, "location", location);
	if (machine[0])
		json_str(&o->j, "computerSystem", machine);
	json_end(&o->j);
}

/* testRunStart; machine gets the machine id, "" when unknown. */
static void run_start(struct ocptv_out *o, const struct record *r,
		      char *machine, size_t len, double t)
{
	char vendor[128], product[128], serial[128], id[16];
	char cmd[4096], name[264];
	struct utsname u;
	int i, have_uname = uname(&u) == 0;

	system_field(r->inventory, "machine_id", machine, len);
	system_field(r->inventory, "vendor", vendor, sizeof(vendor));
	system_field(r->inventory, "product", product, sizeof(product));
	system_field(r->inventory, "serial", serial, sizeof(serial));
	snprintf(name, sizeof(name), "%s%s%s", vendor, vendor[0] &&
		 product[0] ? " " : "", product);

	ocptv_out_run_open(o, "testRunStart");
	json_str(&o->j, "name", "kiln");
	json_str(&o->j, "version", version_string());
	command_line(r, cmd, sizeof(cmd));
	json_str(&o->j, "commandLine", cmd);
	parameters(o, r);
	json_begin(&o->j, "dutInfo");
	json_str(&o->j, "dutInfoId", machine[0] ? machine : have_uname &&
		 u.nodename[0] ? u.nodename : "unknown");
	json_str(&o->j, "name", machine[0] ? machine : have_uname &&
		 u.nodename[0] ? u.nodename : "unknown");
	if (name[0]) {
		json_array(&o->j, "platformInfos");
		json_begin(&o->j, NULL);
		json_str(&o->j, "info", name);
		json_end(&o->j);
		json_array_end(&o->j);
	}
	json_array(&o->j, "softwareInfos");
	json_begin(&o->j, NULL);
	json_str(&o->j, "softwareInfoId", "0");
	json_str(&o->j, "name", "kiln");
	json_str(&o->j, "version", version_string());
	json_str(&o->j, "softwareType", "APPLICATION");
	json_end(&o->j);
	if (have_uname) {
		json_begin(&o->j, NULL);
		json_str(&o->j, "softwareInfoId", "1");
		json_str(&o->j, "name", "Linux");
		json_str(&o->j, "version", u.release);
		json_str(&o->j, "revision", u.version);
		json_str(&o->j, "softwareType", "SYSTEM");
		json_end(&o->j);
	}
	json_array_end(&o->j);
	json_array(&o->j, "hardwareInfos");
	if (machine[0])
		hardware(o, machine, "0", name[0] ? name : machine, "system",
			 serial, product, vendor, NULL);
	for (i = 0; i < r->n; i++) {
		const struct record_disk *d = &r->disks[i];
		const struct target *tg = &d->t;

		snprintf(id, sizeof(id), "%d", i + 1);
		hardware(o, machine, id, d->label[0] ? d->label : d->path,
			 tg->kind == TARGET_FILE ? "file" :
			 tg->id.backing[0] ? "loop device" : "disk",
			 tg->id.serial, tg->id.model, NULL, d->path);
	}
	json_array_end(&o->j);
	json_begin(&o->j, "metadata");
	snprintf(cmd, sizeof(cmd), "%016llx", (unsigned long long)r->run_id);
	json_str(&o->j, "run_id", cmd);
	json_bool(&o->j, "clock_trusted", timing_clock_trusted((time_t)t));
	json_end(&o->j);
	json_end(&o->j);
	ocptv_out_run_close(o, t);
}

static void run_end(struct ocptv_out *o, const struct record *r,
		    int interrupted, double t)
{
	const char *status = "COMPLETE", *result = "PASS";
	int i, broken = 0, failed = 0;
	char msg[160];

	for (i = 0; i < r->n; i++) {
		broken += r->disks[i].snap.c.state == STATE_BROKEN;
		failed += r->disks[i].j.verdict == JUDGE_FAIL;
	}
	if (interrupted) {
		snprintf(msg, sizeof(msg), "interrupted before the end; %d of "
			 "%d disk%s had failed by then", failed, r->n,
			 r->n == 1 ? "" : "s");
		ocptv_out_run_log(o, "WARNING", msg, t);
		status = "SKIP";
		result = "NOT_APPLICABLE";
	} else if (r->n && broken == r->n && !r->failure[0]) {
		status = "ERROR";
		result = "NOT_APPLICABLE";
	} else if (failed || r->failure[0]) {
		result = "FAIL";
	} else if (!r->n) {
		ocptv_out_run_log(o, "WARNING", "nothing was tested", t);
		status = "SKIP";
		result = "NOT_APPLICABLE";
	} else if (r->results_lost) {
		status = "ERROR";
		result = "NOT_APPLICABLE";
	}
	if (r->results_lost)
		ocptv_out_run_log(o, "ERROR", "some results could not be "
				  "written", t);
	ocptv_out_run_open(o, "testRunEnd");
	json_str(&o->j, "status", status);
	json_str(&o->j, "result", result);
	ocptv_out_run_close(o, t);
}

char *ocptv_jsonl(const struct record *r, size_t *len)
{
	struct ocptv_out o;
	int i, final = r->state != RECORD_RUNNING;
	char machine[128];		/* the machine id; "" unknown */
	double t0, t1;

	/* A run that never started still says when it was looked at. */
	t0 = r->started ? (double)r->started :
	     r->ended ? (double)r->ended : (double)time(NULL);
	t1 = r->ended ? (double)r->ended : t0 + timing_secs(r->elapsed_ns);

	ocptv_out_init(&o, t0);
	run_start(&o, r, machine, sizeof(machine), t0);
	for (i = 0; i < r->nnotes; i++)
		ocptv_out_run_log(&o, "INFO", r->notes[i], t0);
	for (i = 0; i < r->n; i++)
		ocptv_step_disk(&o, r, i, t0, t1, final);
	if (final && (r->n || r->failure[0]))
		ocptv_step_machine(&o, r, machine, t0, t1);
	if (final)
		run_end(&o, r, r->state == RECORD_INTERRUPTED, t1);
	return ocptv_out_take(&o, len);
}
