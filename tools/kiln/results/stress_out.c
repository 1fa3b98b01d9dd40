/* SPDX-License-Identifier: MIT */
/*
 * Description: the memory and CPU stress beside the burn as a signal of
 * the results (signal.h): what it told (sense/stress.h) in result.json's
 * top-level "stress" object, written and read back by the same names, so
 * kiln finish judges a restored run as the run judged itself; its lines
 * in summary.txt and its table in report.html. A burn starts it once the
 * disks' workers run and stops it when they end (stress_burn). Nothing
 * when stress was not asked for.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "judge/stressjudge.h"
#include "results/html.h"
#include "results/result_keys.h"
#include "results/signal.h"
#include "sense/stress.h"

static void hex(struct json *j, const char *key, uint64_t v)
{
	char buf[24];

	snprintf(buf, sizeof(buf), "0x%016llx", (unsigned long long)v);
	json_str(j, key, buf);
}

/*
 * Its slot (STRESS_SLOT), made when stress is asked for, or read back;
 * none: not asked for, nothing to say. NULL when out of memory.
 */
static struct stress *stress_mine(struct record *r)
{
	return record_slot_make(r, STRESS_SLOT, sizeof(struct stress), NULL);
}

static void stress_out_json(struct json *j, const struct record *r)
{
	const struct stress *st = record_slot(r, STRESS_SLOT);
	int i;

	if (!st)
		return;
	json_begin(j, KEY_STRESS);
	json_str(j, KEY_TOOL, st->tool);
	json_str(j, KEY_LOAD, stress_what_name(st->what));
	json_str(j, KEY_ENDED, stress_end_name(st->end));
	json_num(j, KEY_SECONDS, st->seconds);
	json_u64(j, KEY_MEMORY_BYTES, st->memory_bytes);
	json_u64(j, KEY_COPY_THREADS, st->copy_threads);
	json_u64(j, KEY_CPU_THREADS, st->cpu_threads);
	json_begin(j, KEY_MISCOMPARES);
	json_u64(j, KEY_COUNT, st->miscompares);
	json_array(j, KEY_FIRST);
	for (i = 0; i < st->nkept; i++) {
		json_begin(j, NULL);
		hex(j, KEY_ADDRESS, st->kept[i].address);
		hex(j, KEY_EXPECTED, st->kept[i].expected);
		hex(j, KEY_FOUND, st->kept[i].found);
		json_end(j);
	}
	json_array_end(j);
	json_end(j);
	json_str(j, KEY_TOOL_STATUS, st->status[0] ? st->status : NULL);
	json_str(j, KEY_NOTE, st->note[0] ? st->note : NULL);
	json_str(j, KEY_PROBLEM, st->problem[0] ? st->problem : NULL);
	json_str(j, KEY_VERDICT, judge_name(st->verdict));
	json_str(j, KEY_WHY, st->why[0] ? st->why : NULL);
	json_end(j);
}

static uint64_t hex_of(const struct jsonread_node *n, const char *key)
{
	unsigned long long v = 0;
	const char *s = jsonread_str(n, key, NULL);

	if (s && sscanf(s, "0x%llx", &v) != 1)
		v = 0;
	return v;
}

static int stress_out_read(const struct jsonread_node *doc, struct record *r)
{
	const struct jsonread_node *o = jsonread_get(doc, KEY_STRESS);
	const struct jsonread_node *m, *first;
	struct stress *st;
	char what[16];
	int i, end;

	if (!o || jsonread_type(o) != JSONREAD_OBJECT)
		return 0;
	st = stress_mine(r);
	if (!st)
		return -ENOMEM;
	memset(st, 0, sizeof(*st));
	st->fd = -1;
	jsonread_copy(o, KEY_TOOL, st->tool, sizeof(st->tool));
	jsonread_copy(o, KEY_LOAD, what, sizeof(what));
	for (i = 0; i < 4; i++)
		if (!strcmp(what, stress_what_name(i)))
			st->what = i;
	end = stress_end_of(jsonread_str(o, KEY_ENDED, NULL));
	/* Still running when the checkpoint was taken: stopped by the cut. */
	st->end = end == STRESS_RUNNING ? STRESS_STOPPED :
		  end < 0 ? STRESS_NOT_STARTED : end;
	st->seconds = jsonread_num(o, KEY_SECONDS, 0);
	st->memory_bytes = jsonread_u64(o, KEY_MEMORY_BYTES, 0);
	st->copy_threads = (unsigned)jsonread_u64(o, KEY_COPY_THREADS, 0);
	st->cpu_threads = (unsigned)jsonread_u64(o, KEY_CPU_THREADS, 0);
	m = jsonread_get(o, KEY_MISCOMPARES);
	st->miscompares = jsonread_u64(m, KEY_COUNT, 0);
	first = jsonread_get(m, KEY_FIRST);
	for (i = 0; i < (int)jsonread_count(first) && i < STRESS_KEPT; i++) {
		const struct jsonread_node *k = jsonread_at(first, (size_t)i);

		st->kept[i].address = hex_of(k, KEY_ADDRESS);
		st->kept[i].expected = hex_of(k, KEY_EXPECTED);
		st->kept[i].found = hex_of(k, KEY_FOUND);
		st->nkept = i + 1;
	}
	jsonread_copy(o, KEY_TOOL_STATUS, st->status, sizeof(st->status));
	jsonread_copy(o, KEY_NOTE, st->note, sizeof(st->note));
	jsonread_copy(o, KEY_PROBLEM, st->problem, sizeof(st->problem));
	return 0;
}

static void stress_out_summary(const struct record *r, FILE *f)
{
	const struct stress *st = record_slot(r, STRESS_SLOT);

	if (!st)
		return;
	if (st->end == STRESS_NOT_STARTED) {
		fprintf(f, "stress: %s did not run: %s: %s\n",
			stress_what_name(st->what), st->problem,
			judge_name(st->verdict));
		return;
	}
	fprintf(f, "stress: %s (%s) %.0f s beside the burn, %llu MiB, %u "
		"copy and %u CPU threads, %llu miscompare%s: %s\n", st->tool,
		stress_what_name(st->what), st->seconds,
		(unsigned long long)(st->memory_bytes >> 20), st->copy_threads,
		st->cpu_threads, (unsigned long long)st->miscompares,
		st->miscompares == 1 ? "" : "s", judge_name(st->verdict));
	if (st->why[0])
		fprintf(f, "  %s\n", st->why);
	if (st->note[0])
		fprintf(f, "  %s\n", st->note);
}

static void stress_out_html(FILE *f, const struct record *r)
{
	const struct stress *st = record_slot(r, STRESS_SLOT);
	char buf[64];
	int i;

	if (!st)
		return;
	fprintf(f, "<h3>Memory and CPU stress: <span class=\"%s\">%s</span>"
		"</h3>\n<table class=\"stress\">\n", judge_name(st->verdict),
		judge_name(st->verdict));
	fputs("<tr><th class=\"l\">tool</th>", f);
	html_cell(f, st->tool);
	fputs("</tr>\n<tr><th class=\"l\">load</th>", f);
	html_cell(f, stress_what_name(st->what));
	fputs("</tr>\n<tr><th class=\"l\">ended</th>", f);
	html_cell(f, stress_end_name(st->end));
	snprintf(buf, sizeof(buf), "%.0f", st->seconds);
	fputs("</tr>\n<tr><th class=\"l\">seconds</th>", f);
	html_cell(f, buf);
	snprintf(buf, sizeof(buf), "%llu MiB",
		 (unsigned long long)(st->memory_bytes >> 20));
	fputs("</tr>\n<tr><th class=\"l\">memory</th>", f);
	html_cell(f, buf);
	snprintf(buf, sizeof(buf), "%u copy, %u CPU", st->copy_threads,
		 st->cpu_threads);
	fputs("</tr>\n<tr><th class=\"l\">threads</th>", f);
	html_cell(f, buf);
	snprintf(buf, sizeof(buf), "%llu",
		 (unsigned long long)st->miscompares);
	fputs("</tr>\n<tr><th class=\"l\">miscompares</th>", f);
	html_cell(f, buf);
	fputs("</tr>\n</table>\n", f);
	for (i = 0; i < st->nkept; i++)
		fprintf(f, "<p>miscompare at 0x%llx: expected 0x%016llx, found "
			"0x%016llx</p>\n",
			(unsigned long long)st->kept[i].address,
			(unsigned long long)st->kept[i].expected,
			(unsigned long long)st->kept[i].found);
	if (st->why[0]) {
		fputs("<p>", f);
		html_text(f, st->why);
		fputs("</p>\n", f);
	}
	if (st->note[0]) {
		fputs("<p>", f);
		html_text(f, st->note);
		fputs("</p>\n", f);
	}
}

static int stress_out_shown(const struct record *r)
{
	return record_slot(r, STRESS_SLOT) != NULL;
}

/*
 * The memory and CPUs loaded beside the disks (setting stress): the
 * memory is what kiln's plan leaves once its buffers and its margin are
 * held, stress-memory of it; too little is a CPU stress alone, or none.
 */
static void stress_begin(struct signal_burn *sb)
{
	struct record *r = sb->r;
	struct settings *s = r->s;
	struct stress *st = stress_mine(r);
	uint64_t left = memplan_left(&r->mem), bytes = 0;
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	int what = s->stress;
	char note[240] = "";

	if (!st) {
		fprintf(sb->con, "kiln: no stress beside the burn: out of "
			"memory\n");
		return;
	}
	if (what & SETTINGS_STRESS_MEMORY) {
		/* Nothing known of the memory: a size given is taken. */
		if (r->mem.usable == UINT64_MAX && !s->stress_memory.bytes)
			snprintf(note, sizeof(note), "the machine's memory is "
				 "not known: no memory stress");
		else
			bytes = stress_memory(left, s->stress_memory.bytes,
					      s->stress_memory.percent, note,
					      sizeof(note));
		if (!bytes)
			what &= ~SETTINGS_STRESS_MEMORY;
	}
	if (!what) {
		stress_not_started(st, s->stress, "%s", note);
		fprintf(sb->con, "kiln: no memory stress: %s\n", note);
		return;
	}
	if (stress_start(st, what, bytes, cpus > 0 ? (unsigned)cpus : 1)) {
		fprintf(sb->con, "kiln: no stress beside the burn: %s\n",
			st->problem);
		return;
	}
	st->what = s->stress;
	snprintf(st->note, sizeof(st->note), "%s", note);
	if (note[0])
		record_note(r, "stress: %s", note);
	fprintf(sb->con, "kiln: %s beside the burn (%s): %llu MiB, %u copy "
		"threads, %u CPU threads, below the disks in priority\n",
		st->tool, stress_what_name(what),
		(unsigned long long)(st->memory_bytes >> 20), st->copy_threads,
		st->cpu_threads);
}

static void stress_burn(struct signal_burn *sb, enum signal_at at)
{
	struct record *r = sb->r;
	struct stress *st = record_slot(r, STRESS_SLOT);

	if (at == SIGNAL_BESIDE && r->s->stress) {
		stress_begin(sb);
	} else if (at == SIGNAL_TICK && st && st->end == STRESS_RUNNING) {
		stress_poll(st);
		/* Said at once: the rest of the burn has no load. */
		if (st->end == STRESS_DIED)
			fprintf(sb->con, "kiln: %s\n", st->problem);
	} else if (at == SIGNAL_UNLOAD && st) {
		/* The load ends with the burn: the re-read runs without. */
		stress_stop(st, STRESS_STOP_WAIT_S);
	}
}

/*
 * Its rule (record.h), after the machine's own: a miscompare FAILs the
 * machine, a stress asked for that did not run its course WARNs it.
 */
static void stress_rule(struct record *r, struct record_disk *d, int final,
			enum judge_at at)
{
	(void)d;
	(void)final;
	if (at == JUDGE_AT_RUN)
		stressjudge(r);
}

const struct signal_ops stress_signal = {
	.name = "stress",
	.burn = stress_burn,
	.judge = stress_rule,
	.json = stress_out_json,
	.read = stress_out_read,
	.summary = stress_out_summary,
	.html_shown = stress_out_shown,
	.html = stress_out_html,
};
