#!/bin/sh
# needs: kiln
# make check-layers holds tools/kiln/ to "a signal is one file and one
# table line" (scripts/check-signals.py, docs/design.md): a copy of
# kiln's tree passes; a call of a signal's own function planted in a file
# that loops over the table (summary.c; the lab's metrics_text.c and
# OCP's ocptv_step.c) fails it, named; a call of a
# signal's reader from sense/ planted in the burn's own steps (what the
# burn reaches through each signal's burn hook, signals_burn) fails it,
# named; a call of a signal's rule (a judge/ function its judge hook
# calls) planted in the judging, judge/record.c, fails it, named. No
# root needed.
. "$(dirname "$0")/../lib/tap.sh"

T="$TEST_TMP/tree"
K="$T/tools/kiln"

tree () {
	rm -rf "$T" &&
	mkdir -p "$T/docs" "$T/tools" &&
	cp "$TOP/Makefile" "$T/" &&
	cp -R "$TOP/scripts" "$T/scripts" &&
	cp "$TOP/docs/design.md" "$T/docs/" &&
	cp -R "$TOP/tools/kiln" "$T/tools/kiln"
}

layers () {
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL \
		make -s -C "$T" OUT="$TEST_TMP/out" check-layers >out 2>&1
}

test_expect_success "kiln's own tree passes check-signals" '
	python3 "$TOP/scripts/check-signals.py" "$TOP" 2>out &&
	test_eq "$(cat out)" ""
'

test_expect_success 'summary.c calling a signal'"'"'s own function fails it' '
	tree &&
	cat >>"$K/results/summary.c" <<-\EOF &&

	/* planted: SMART named, not reached through its hooks */
	void summary_planted(struct json *j)
	{
		smart_out_json(j, "x", NULL);
	}
	EOF
	{ layers; test_eq $? 2 "make exit code"; } &&
	grep -q "tools/kiln/results/summary.c:[0-9]*: calls smart_out_json (results/smart_out.c" out
'

test_expect_success 'the lab'"'"'s metrics and OCP'"'"'s output calling a signal'"'"'s own function fail it' '
	tree &&
	cat >>"$K/lab/metrics_text.c" <<-\EOF &&

	/* planted: the vitals named, not reached through their gauges */
	void metrics_planted(const struct record_disk *d, FILE *f)
	{
		vitals_text_disk(d, f);
	}
	EOF
	cat >>"$K/results/ocptv_step.c" <<-\EOF &&

	/* planted: SMART named, not reached through its ocp_disk hook */
	void ocptv_planted(struct json *j)
	{
		smart_out_json(j, "x", NULL);
	}
	EOF
	{ layers; test_eq $? 2 "make exit code"; } &&
	grep -q "tools/kiln/lab/metrics_text.c:[0-9]*: calls vitals_text_disk (results/vitals_text.c" out &&
	grep -q "tools/kiln/results/ocptv_step.c:[0-9]*: calls smart_out_json (results/smart_out.c" out
'

test_expect_success 'the burn calling a signal'"'"'s reader by name fails it' '
	tree &&
	cat >>"$K/cmd/burn_finish.c" <<-\EOF &&

	/* planted: the BMC read by name, not through its burn hook */
	void burn_finish_planted(struct record *r)
	{
		bmc_end(record_slot(r, "bmc"));
	}
	EOF
	{ layers; test_eq $? 2 "make exit code"; } &&
	grep -q "tools/kiln/cmd/burn_finish.c:[0-9]*: calls bmc_end (sense/bmc.c" out
'

test_expect_success 'the judging calling a signal'"'"'s rule by name fails it' '
	tree &&
	cat >>"$K/judge/record.c" <<-\EOF &&

	/* planted: SMART and the blame judged by name, not by their hooks */
	void record_planted(struct record *r)
	{
		judge_health(NULL, NULL, &r->disks[0].j);
		blame_judge(r);
	}
	EOF
	{ layers; test_eq $? 2 "make exit code"; } &&
	grep -q "tools/kiln/judge/record.c:[0-9]*: calls judge_health (judge/judge.c, the rule of the signal in results/smart_out.c" out &&
	grep -q "tools/kiln/judge/record.c:[0-9]*: calls blame_judge (judge/blame.c, the rule of the signal in results/blame_out.c" out
'

test_done
