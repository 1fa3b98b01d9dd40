/* SPDX-License-Identifier: MIT */
/*
 * Description: machine checks read from the kernel's log and judged.
 * Every line of tests/fixtures/kmsg/mce.dmesg (written by hand in the
 * kernel's own formats: Intel's printer, AMD's decoder) is parsed to the
 * kind, CPU and bank it says; none of them is a disk's trouble line; the
 * log watched during a run tallies them by CPU and bank, and the machine
 * is judged on them: an uncorrected one FAILs it, a corrected one WARNs
 * it, "events logged" alone WARNs it; written to result.json and read
 * back, judged the same. Odd lines never crash.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/tap.h"
#include "../lib/reasons.h"
#include "judge/record.h"
#include "judge/vitals.h"
#include "results/vitals_out.h"
#include "sense/kmsgwatch.h"
#include "sense/mce.h"

static const char *const kinds[] = { "none", "corrected", "uncorrected",
				     "logged" };

static int kind_of(const char *word)
{
	int k;

	for (k = 0; k < 4; k++)
		if (!strcmp(word, kinds[k]))
			return k;
	tap_bail("mce.dmesg: no kind %s", word);
	return -1;
}

/* The text of a dmesg line, after its "[   12.345678] ". */
static const char *text_of(const char *line)
{
	const char *p = strchr(line, ']');

	return p ? p + 2 : line;
}

static void fixture(void)
{
	size_t len;
	char *text = tap_slurp("tests/fixtures/kmsg/mce.dmesg", &len);
	char *line, *save = NULL;
	int lines = 0, bad = 0, disk = 0;

	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char kind[16], cpu[8], bank[8];
		char *tab = strchr(line, '\t');
		struct mce_line l;
		int want_cpu, want_bank;

		if (line[0] == '#' || !tab)
			continue;
		*tab = 0;
		if (sscanf(line, "%15s %7s %7s", kind, cpu, bank) != 3)
			tap_bail("mce.dmesg: %s", line);
		want_cpu = strcmp(cpu, "-") ? atoi(cpu) : -1;
		want_bank = strcmp(bank, "-") ? atoi(bank) : -1;
		mce_parse(text_of(tab + 1), &l);
		lines++;
		if (l.kind != kind_of(kind) || l.cpu != want_cpu ||
		    l.bank != want_bank) {
			bad++;
			tap_diag("%s: got %s CPU %d bank %d", tab + 1,
				 kinds[l.kind], l.cpu, l.bank);
		}
		if (kmsg_classify(text_of(tab + 1)) != KMSG_NONE) {
			disk += strcmp(kind, "none") != 0;
			if (!strstr(tab + 1, "Sense Key"))
				disk++;
		}
	}
	free(text);
	tap_ok(lines >= 25 && !bad, "each of %d lines read as its kind, CPU "
	       "and bank (%d wrong)", lines, bad);
	tap_ok(!disk, "no machine check line is a disk's trouble line");
}

static void status_bits(void)
{
	struct mce_line l;

	mce_parse("mce: [Hardware Error]: CPU 7: Machine Check: 0 Bank 1: "
		  "a000000000000000", &l);
	tap_ok(l.kind == MCE_UNCORRECTED && !l.pcc && l.cpu == 7 &&
	       l.bank == 1, "UC alone is uncorrected, without PCC");
	mce_parse("mce: [Hardware Error]: CPU 7: Machine Check: 0 Bank 1: "
		  "be00000000800400", &l);
	tap_ok(l.kind == MCE_UNCORRECTED && l.pcc &&
	       l.status == 0xbe00000000800400ULL, "UC with PCC: context "
	       "corrupt, the status kept");
	mce_parse("[Hardware Error]: CPU:3 (17:31:0) MC5_STATUS[-|UE|MiscV",
		  &l);
	tap_ok(l.kind == MCE_UNCORRECTED && l.cpu == 3 && l.bank == 5,
	       "AMD's line cut before its status: its UE word says it");
	mce_parse("[Hardware Error]: CPU:3 (17:31:0) MC5_STATUS[-|CE|MiscV",
		  &l);
	tap_ok(l.kind == MCE_CORRECTED, "...and its CE word");
}

static void odd(void)
{
	static const char *const junk[] = {
		"", " ", "mce: ", "mce: [Hardware Error]: ",
		"mce: [Hardware Error]: CPU",
		"mce: [Hardware Error]: CPU 3: Machine Check",
		"mce: [Hardware Error]: CPU 3: Machine Check: 0 Bank",
		"mce: [Hardware Error]: CPU 3: Machine Check: 0 Bank 5: ",
		"mce: [Hardware Error]: CPU 3: Machine Check: 0 Bank 5: zz",
		"mce: [Hardware Error]: CPU -1: Machine Check: 0 Bank x: 1",
		"[Hardware Error]: CPU:", "[Hardware Error]: CPU:1 MC",
		"[Hardware Error]: CPU:99999999999999999999 MC1_STATUS[",
	};
	struct mce_tally t;
	size_t i;
	int none = 0;

	memset(&t, 0, sizeof(t));
	for (i = 0; i < sizeof(junk) / sizeof(*junk); i++)
		none += mce_add(&t, junk[i]) == MCE_NONE;
	tap_ok(none == 13 && t.uncorrected == 0 && t.corrected == 0,
	       "odd lines: never a crash, never a machine check (%d none, "
	       "%u corrected)", none, t.corrected);
	memset(&t, 0, sizeof(t));
	for (i = 0; i < 40; i++) {
		char line[128];

		snprintf(line, sizeof(line), "mce: [Hardware Error]: CPU %zu: "
			 "Machine Check: 0 Bank 7: 8c000040000800c0", i);
		mce_add(&t, line);
	}
	tap_ok(t.corrected == 40 && t.nbanks == MCE_BANKS &&
	       t.unkept == 40 - MCE_BANKS, "40 CPUs: all counted, %d kept",
	       MCE_BANKS);
}

/* The log of a run into a record's machine, judged. */
static void run_of(struct record *r, struct settings *s, const char *log)
{
	struct kmsgwatch w;

	settings_defaults(s, SCOPE_BURN);
	record_init(r, "burn", 0, NULL, s);
	if (kmsgwatch_init(&w, NULL, 0))
		tap_bail("out of memory");
	kmsgwatch_text(&w, log, strlen(log));
	vitals_fold_kmsg_other(&r->sig, &w);
	r->sig.kmsg = 1;
	kmsgwatch_free(&w);
	vitals_judge_machine(r);
}

static void judged(void)
{
	struct settings s, s2;
	struct record r, back;
	struct jsonread *doc;
	struct json j;
	size_t len;
	char *text = tap_slurp("tests/fixtures/kmsg/mce.dmesg", &len), *js;

	/* The fixture as a log, without its expectations. */
	{
		char *p, *q;

		for (p = q = text; *p; ) {
			char *nl = strchr(p, '\n'), *tab = strchr(p, '\t');
			size_t n;

			if (!nl)
				nl = p + strlen(p);
			if (*p != '#' && tab && tab < nl) {
				n = (size_t)(nl - tab - 1);
				memmove(q, tab + 1, n);
				q += n;
				*q++ = '\n';
			}
			p = *nl ? nl + 1 : nl;
		}
		*q = 0;
	}
	run_of(&r, &s, text);
	tap_ok(r.sig.cpu.mce.uncorrected == 4 && r.sig.cpu.mce.corrected == 3 &&
	       r.sig.cpu.mce.logged == 2 && r.sig.cpu.mce.nbanks == 5,
	       "the log tallied: 4 uncorrected, 3 corrected, 2 logged, 5 "
	       "banks (%u %u %u %d)", r.sig.cpu.mce.uncorrected,
	       r.sig.cpu.mce.corrected, r.sig.cpu.mce.logged,
	       r.sig.cpu.mce.nbanks);
	tap_ok(r.sig.j.verdict == JUDGE_FAIL &&
	       tap_has_reason(&r.sig.j, "4 uncorrected machine checks during "
			      "the run: CPU 3 bank 5 (be00000000800400, "
			      "PCC), CPU 0 bank 4") &&
	       strstr(r.failure, "4 uncorrected machine checks"),
	       "uncorrected machine checks FAIL the machine, naming CPU and "
	       "bank, in the run's failure: %s", r.failure);
	tap_ok(tap_has_reason(&r.sig.j, "3 corrected machine checks during "
			      "the run: CPU 1 bank 7 (8c000040000800c0) x2, "
			      "CPU 12 bank 15"),
	       "corrected ones WARN beside it, each bank once with its count");
	tap_ok(vitals_memory_errors(&r.sig) == 4,
	       "the memory errors of the run count the uncorrected ones");

	/* result.json and back: judged the same. */
	json_init(&j);
	json_begin(&j, NULL);
	vitals_out_machine(&j, &r);
	json_end(&j);
	js = json_take(&j, &len);
	if (!js || jsonread_parse(&doc, js, len, NULL, NULL, 0))
		tap_bail("machine JSON does not parse");
	settings_defaults(&s2, SCOPE_BURN);
	record_init(&back, "burn", 0, NULL, &s2);
	snprintf(back.failure, sizeof(back.failure), "%s", r.failure);
	vitals_out_read_machine(jsonread_root(doc), &back);
	vitals_judge_machine(&back);
	tap_ok(!memcmp(&back.sig.j, &r.sig.j, sizeof(r.sig.j)) &&
	       !strcmp(back.failure, r.failure) &&
	       strstr(js, "\"first_status\": \"be00000000800400\""),
	       "written to result.json and read back, judged the same");
	free(js);
	jsonread_free(doc);
	record_free(&back);
	record_free(&r);

	run_of(&r, &s, "[ 1.0] mce: [Hardware Error]: Machine check events "
	       "logged\n[ 2.0] mce: [Hardware Error]: Machine check events "
	       "logged\n");
	tap_ok(r.sig.j.verdict == JUDGE_WARN && !r.failure[0] &&
	       tap_has_reason(&r.sig.j, "the kernel logged machine check "
			      "events 2 times during the run"),
	       "events logged alone WARN: corrected, its records elsewhere");
	record_free(&r);
	run_of(&r, &s, "[ 1.0] mce: [Hardware Error]: CPU 1: Machine Check: "
	       "0 Bank 7: 8c000040000800c0\n[ 1.1] mce: [Hardware Error]: "
	       "Machine check events logged\n");
	tap_ok(r.sig.j.verdict == JUDGE_WARN && r.sig.j.nreasons == 1 &&
	       vitals_memory_errors(&r.sig) == 0,
	       "a corrected one and its \"events logged\": one WARN, no "
	       "memory error");
	record_free(&r);
	run_of(&r, &s, "[ 1.0] mce: CPU0: Thermal monitoring enabled (TM1)\n");
	tap_ok(r.sig.j.verdict == JUDGE_PASS && !r.sig.j.nreasons,
	       "a log without machine checks: nothing said");
	record_free(&r);
	free(text);
}

int main(int argc, char **argv)
{
	tap_args(argc, argv);
	TAP_RUN(fixture);
	TAP_RUN(status_bits);
	TAP_RUN(odd);
	TAP_RUN(judged);
	return tap_done();
}
