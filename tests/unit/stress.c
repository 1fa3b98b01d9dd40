/* SPDX-License-Identifier: MIT */
/*
 * Description: the stress beside the burn on synthetic figures and
 * captured output: stressapptest's miscompare lines parsed (1.0.6's as
 * captured, a later version's as its source writes them, cut and
 * malformed ones), the memory share of what the plan leaves (a
 * percentage, a size, more than is left, too little), the keys' values
 * and per-command defaults, the machine judged (a miscompare FAILs it, a
 * stress that did not run or died WARNs it) and the stress object written
 * and read back.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/tap.h"
#include "base/jsonread.h"
#include "judge/blame.h"
#include "judge/record.h"
#include "judge/stressjudge.h"
#include "results/result.h"
#include "results/signal.h"
#include "sense/stress.h"
#include "settings/settings.h"

#define MiB (1ull << 20)
#define GiB (1ull << 30)
#define FIXTURES "tests/fixtures/stressapptest/"

static void parse_text(struct stress *st, char *text)
{
	char *line, *save = NULL;

	memset(st, 0, sizeof(*st));
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save))
		stress_parse_line(st, line);
}

static void test_parse(void)
{
	struct stress st;
	size_t len;
	char *text = tap_slurp(FIXTURES "force_errors-1.0.6.txt", &len);
	char later[] = "2026/12/02-04:30:00(UTC) Hardware Error: miscompare "
		"on CPU 3(<-1) at 0x7f0012345678(0x1a2b3c:DIMM3): "
		"read:0x00000000deadbeef, reread:0x00000000deadbeef "
		"expected:0x00000000deadbeee. 'walkingOnes'.";

	if (!text)
		tap_bail("no fixture %s", FIXTURES);
	parse_text(&st, text);
	tap_ok(st.miscompares == 1 && st.nkept == 1 &&
	       st.kept[0].address == 0x7f9a6da0c078ull &&
	       st.kept[0].found == 0x000000ba00000008ull &&
	       st.kept[0].expected == 0x0000000800000008ull,
	       "1.0.6's forced error: one miscompare, its address and words");
	tap_ok(strstr(st.status, "Status: FAIL - test discovered HW problems")
	       == st.status, "its Status line is kept (%s)", st.status);
	free(text);

	text = tap_slurp(FIXTURES "pass-1.0.6.txt", &len);
	if (!text)
		tap_bail("no fixture %s", FIXTURES);
	parse_text(&st, text);
	tap_ok(!st.miscompares && !st.nkept &&
	       !strncmp(st.status, "Status: PASS", 12),
	       "a clean run: no miscompare, PASS said");
	free(text);

	memset(&st, 0, sizeof(st));
	stress_parse_line(&st, later);
	tap_ok(st.miscompares == 1 && st.kept[0].address == 0x7f0012345678ull &&
	       st.kept[0].expected == 0xdeadbeeeull &&
	       st.kept[0].found == 0xdeadbeefull,
	       "a later version's line, with its log time, is read too");

	/* Counted by the report lines where the details fall short. */
	memset(&st, 0, sizeof(st));
	stress_parse_line(&st, "Report Error: miscompare : DIMM Unknown : 40 "
			  ": 12s");
	stress_parse_line(&st, "Hardware Error: miscompare on CPU 0(0x1) at "
			  "0x1000(0x0:DIMM Unknown): read:0x1, reread:0x1 "
			  "expected:0x3");
	tap_ok(st.miscompares == 40 && st.nkept == 1,
	       "40 reported, one detailed: 40 counted, one kept");

	memset(&st, 0, sizeof(st));
	stress_parse_line(&st, "Hardware Error: miscompare on CPU 0(0x1) at "
			  "0x1000(0x0:DIMM Unknown): read:0x1, rere");
	stress_parse_line(&st, "Hardware Error: miscompare on CPU 0(0x1) at "
			  "zz(0x0:DIMM Unknown): read:0x1 expected:0x2");
	stress_parse_line(&st, "Report Error: miscompare :");
	stress_parse_line(&st, "");
	tap_ok(st.miscompares == 0 && st.nkept == 0,
	       "cut or malformed lines name no miscompare and never crash");

	memset(&st, 0, sizeof(st));
	for (len = 0; len < 3 * STRESS_KEPT; len++)
		stress_parse_line(&st, "Hardware Error: miscompare on CPU "
				  "0(0x1) at 0x2000(0x0:DIMM Unknown): "
				  "read:0x1, reread:0x1 expected:0x3");
	tap_ok(st.miscompares == 3 * STRESS_KEPT && st.nkept == STRESS_KEPT,
	       "all are counted, the first %d kept", STRESS_KEPT);
}

static void test_memory(void)
{
	char note[240];
	uint64_t got;

	got = stress_memory(1000 * MiB, 0, 80, note, sizeof(note));
	tap_ok(got == 800 * MiB && !note[0], "80%% of 1000 MiB: 800 MiB (%llu)",
	       (unsigned long long)(got >> 20));
	got = stress_memory(1000 * MiB + 12345, 0, 80, note, sizeof(note));
	tap_ok(got == 800 * MiB, "whole MiB (%llu)", (unsigned long long)got);
	got = stress_memory(UINT64_MAX - 5, 0, 100, note, sizeof(note));
	tap_ok(got == ((UINT64_MAX - 5) & ~(MiB - 1)),
	       "100%% of nearly 16 EiB does not wrap");
	got = stress_memory(4 * GiB, 1 * GiB, 0, note, sizeof(note));
	tap_ok(got == GiB && !note[0], "a size that fits is taken whole");
	got = stress_memory(512 * MiB, 2 * GiB, 0, note, sizeof(note));
	tap_ok(got == 512 * MiB && strstr(note, "asks for 2048 MiB") &&
	       strstr(note, "leaves 512 MiB"),
	       "a size larger than what is left: what is left, said (%s)",
	       note);
	got = stress_memory(30 * MiB, 0, 80, note, sizeof(note));
	tap_ok(got == 0 && strstr(note, "less than the 32 MiB"),
	       "too little left: none, said (%s)", note);
	got = stress_memory(0, 0, 80, note, sizeof(note));
	tap_ok(got == 0 && note[0], "nothing left (a plan at qd 0): none");
}

static int set(struct settings *s, const char *key, const char *v)
{
	char err[240];

	return settings_set(s, settings_key(key), v, SOURCE_OPTION, err,
			    sizeof(err));
}

static void test_keys(void)
{
	struct settings s;
	char buf[64];

	settings_defaults(&s, SCOPE_RUN);
	tap_ok(s.stress == (SETTINGS_STRESS_MEMORY | SETTINGS_STRESS_CPU) &&
	       s.stress_memory.percent == 80 && !s.stress_memory.bytes,
	       "kiln run: memory,cpu at 80%%");
	settings_free(&s);
	settings_defaults(&s, SCOPE_BURN);
	tap_ok(s.stress == SETTINGS_STRESS_OFF, "kiln burn: off");
	tap_ok(!set(&s, "stress", "memory") &&
	       s.stress == SETTINGS_STRESS_MEMORY &&
	       !set(&s, "stress", "cpu") && s.stress == SETTINGS_STRESS_CPU &&
	       !set(&s, "stress", "off") && !s.stress,
	       "memory, cpu and off");
	tap_ok(set(&s, "stress", "on") && set(&s, "stress", "") &&
	       set(&s, "stress", "memory,") && set(&s, "stress", "MEMORY"),
	       "anything else is a bad value");
	tap_ok(!set(&s, "stress-memory", "2G") &&
	       s.stress_memory.bytes == 2 * GiB && !s.stress_memory.percent &&
	       !strcmp(settings_get(&s, "stress-memory", buf, sizeof(buf)),
		       "2147483648"), "a size");
	tap_ok(!set(&s, "stress-memory", "50%") &&
	       s.stress_memory.percent == 50 && !s.stress_memory.bytes &&
	       !strcmp(settings_get(&s, "stress-memory", buf, sizeof(buf)),
		       "50%"), "a percentage");
	tap_ok(set(&s, "stress-memory", "0") &&
	       set(&s, "stress-memory", "0%") &&
	       set(&s, "stress-memory", "101%") &&
	       set(&s, "stress-memory", "%") &&
	       set(&s, "stress-memory", "80%%") &&
	       set(&s, "stress-memory", "1234567890123456789012%") &&
	       set(&s, "stress-memory", "lots") &&
	       s.stress_memory.percent == 50,
	       "0, 0%%, 101%%, %%, 80%%%%, huge and words are bad values, "
	       "the value kept");
	settings_free(&s);
}

/* A record's stress: the stress signal's slot (NULL: none). */
#define STRESS(r) ((struct stress *)record_slot((r), STRESS_SLOT))

/* A record with a stress in it, judged as a run's end judges it. */
static void judged(struct record *r, struct settings *s, struct stress *st)
{
	struct stress *slot;

	settings_defaults(s, SCOPE_BURN);
	record_init(r, "burn", 0, NULL, s);
	(void)record_add(r, "/dev/null", 0);
	slot = record_slot_make(r, STRESS_SLOT, sizeof(*slot), NULL);
	if (!slot)
		tap_bail("out of memory");
	*slot = *st;
	signals_judge(r, 1, 0);
}

static void test_judge(void)
{
	struct settings s;
	struct record r;
	struct stress st;
	const struct jsonread_node *root;
	struct jsonread *doc = NULL;
	struct record back;
	char *json, why[160];
	size_t len;

	stress_not_started(&st, 3, "%s", "");
	st.end = STRESS_STOPPED;
	st.seconds = 12;
	st.memory_bytes = 300 * MiB;
	judged(&r, &s, &st);
	tap_ok(STRESS(&r)->verdict == JUDGE_PASS && r.sig.j.verdict == JUDGE_PASS,
	       "a stress that ran its course and found nothing: PASS");
	tap_ok(!blame_memory_suspected(&r, why, sizeof(why)),
	       "...and suspects no memory");
	record_free(&r);
	settings_free(&s);

	st.miscompares = 2;
	st.nkept = 1;
	st.kept[0] = (struct stress_miscompare){ 0x7f00, 0x3, 0x1 };
	judged(&r, &s, &st);
	tap_ok(STRESS(&r)->verdict == JUDGE_FAIL &&
	       r.sig.j.verdict == JUDGE_FAIL &&
	       strstr(r.failure, "2 memory miscompares, the first at 0x7f00: "
		      "expected 0x0000000000000003, found "
		      "0x0000000000000001") &&
	       r.verdict == JUDGE_FAIL && r.exit_code == 1,
	       "a miscompare FAILs the machine, naming it (%s)", r.failure);
	tap_ok(blame_memory_suspected(&r, why, sizeof(why)) &&
	       strstr(why, "2 memory miscompares by the stress"),
	       "the memory is suspected for transfer errors (%s)", why);
	json = result_json(&r, &len);
	tap_ok(json && !jsonread_parse(&doc, json, len, NULL, NULL, 0),
	       "result.json parses");
	root = doc ? jsonread_root(doc) : NULL;
	tap_ok(root && jsonread_get(root, "stress") &&
	       !strcmp(jsonread_str(jsonread_get(root, "stress"), "verdict",
				    ""), "FAIL"),
	       "the stress object says FAIL");
	memset(&back, 0, sizeof(back));
	tap_ok(root && !signal_find("stress")->read(root, &back) &&
	       STRESS(&back) && STRESS(&back)->miscompares == 2 && STRESS(&back)->nkept == 1 &&
	       STRESS(&back)->kept[0].address == 0x7f00 &&
	       STRESS(&back)->kept[0].expected == 3 &&
	       STRESS(&back)->kept[0].found == 1 &&
	       STRESS(&back)->end == STRESS_STOPPED &&
	       STRESS(&back)->memory_bytes == 300 * MiB &&
	       STRESS(&back)->what == 3, "and reads back the same");
	record_free(&back);
	jsonread_free(doc);
	free(json);
	record_free(&r);
	settings_free(&s);

	stress_not_started(&st, 3, "stressapptest is not in PATH: no load");
	judged(&r, &s, &st);
	tap_ok(STRESS(&r)->verdict == JUDGE_WARN &&
	       r.sig.j.verdict == JUDGE_WARN && !r.failure[0] &&
	       strstr(r.sig.j.reasons[0], "did not run: stressapptest is not "
		      "in PATH") && r.exit_code == 0,
	       "a stress that could not start WARNs the machine (%s)",
	       r.sig.j.reasons[0]);
	record_free(&r);
	settings_free(&s);

	stress_not_started(&st, 1, "%s", "");
	st.end = STRESS_DIED;
	snprintf(st.problem, sizeof(st.problem), "stressapptest was killed by "
		 "signal 9");
	judged(&r, &s, &st);
	tap_ok(STRESS(&r)->verdict == JUDGE_WARN &&
	       strstr(r.sig.j.reasons[0], "died: stressapptest was killed"),
	       "one that died WARNs it, saying how");
	record_free(&r);
	settings_free(&s);
}

int main(int argc, char **argv)
{
	tap_args(argc, argv);
	TAP_RUN(test_parse);
	TAP_RUN(test_memory);
	TAP_RUN(test_keys);
	TAP_RUN(test_judge);
	return tap_done();
}
