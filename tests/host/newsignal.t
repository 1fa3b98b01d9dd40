#!/bin/sh
# needs: kiln
# The next new signal lands as one file plus one table line (issue 35,
# docs/design.md "A signal is one file and one table line"): in a copy of
# kiln's tree, a signal planted as results/demo_out.c (a burn hook that
# makes its slot of the record and counts the burn's seconds, a rule that
# WARNs the machine, its result.json object read back, its summary.txt
# line), one line of signals.c and its row of docs/design.md's table. The
# copy differs from kiln's tree in those three places alone, passes make
# check-layers, and builds; its kiln burns a file with the signal in
# every output (the console, result.json, summary.txt, the machine's
# WARN, exit 0) and kiln report reads it back. No root needed.
. "$(dirname "$0")/../lib/tap.sh"

T="$TEST_TMP/tree"
K="$T/tools/kiln"
O="$TEST_TMP/out"

json_get () {
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"
}

in_copy () {
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s -C "$T" OUT="$O" "$@"
}

test_expect_success 'a copy of the tree with a signal planted: one file, one table line, one row' '
	mkdir -p "$T/tools" "$O" &&
	cp "$TOP/Makefile" "$T/" &&
	cp -R "$TOP/scripts" "$T/scripts" &&
	cp -R "$TOP/docs" "$T/docs" &&
	cp -R "$TOP/tools/kiln" "$K" &&
	cat >"$K/results/demo_out.c" <<-\EOF &&
	/* SPDX-License-Identifier: MIT */
	/*
	 * Description: a signal planted by tests/host/newsignal.t: the
	 * seconds of the burn it saw, in its slot of the record.
	 */
	#include <errno.h>
	#include <stdio.h>

	#include "judge/vitals.h"
	#include "results/signal.h"

	struct demo {
		int before;
		unsigned ticks;
	};

	static void demo_burn(struct signal_burn *sb, enum signal_at at)
	{
		struct demo *d = record_slot_make(sb->r, "demo", sizeof(*d),
						  NULL);

		if (!d)
			return;
		if (at == SIGNAL_BEFORE) {
			d->before = 1;
			fprintf(sb->con, "kiln: demo: before the burn\n");
		} else if (at == SIGNAL_TICK) {
			d->ticks++;
		}
	}

	static void demo_judge(struct record *r, struct record_disk *disk,
			       int final, enum judge_at at)
	{
		const struct demo *d = record_slot(r, "demo");

		(void)disk;
		if (at == JUDGE_AT_RUN && final && d && d->before)
			vitals_machine_reason(r, JUDGE_WARN,
					      "demo: a planted signal WARNs");
	}

	static void demo_json(struct json *j, const struct record *r)
	{
		const struct demo *d = record_slot(r, "demo");

		if (!d)
			return;
		json_begin(j, "demo");
		json_u64(j, "ticks", d->ticks);
		json_end(j);
	}

	static int demo_read(const struct jsonread_node *doc, struct record *r)
	{
		const struct jsonread_node *o = jsonread_get(doc, "demo");
		struct demo *d;

		if (!o)
			return 0;
		d = record_slot_make(r, "demo", sizeof(*d), NULL);
		if (!d)
			return -ENOMEM;
		d->before = 1;
		d->ticks = (unsigned)jsonread_u64(o, "ticks", 0);
		return 0;
	}

	static void demo_summary(const struct record *r, FILE *f)
	{
		const struct demo *d = record_slot(r, "demo");

		if (d)
			fprintf(f, "demo: %u seconds seen\n", d->ticks);
	}

	const struct signal_ops demo_signal = {
		.name = "demo",
		.burn = demo_burn,
		.judge = demo_judge,
		.json = demo_json,
		.read = demo_read,
		.summary = demo_summary,
	};
	EOF
	sed -i "s/^\(\tX(bmc) \\\\\)$/\1\n\tX(demo) \\\\/" "$K/results/signals.c" &&
	grep -q "^	X(demo) \\\\$" "$K/results/signals.c" &&
	sed -i "s/^\(| | | \`bmc_out.c\` |.*\)$/\1\n| | | \`demo_out.c\` | a planted signal |/" "$T/docs/design.md" &&
	grep -q "demo_out.c" "$T/docs/design.md" &&
	{ diff -r "$TOP/tools/kiln" "$K"; diff -r "$TOP/docs" "$T/docs"; true; } >diffs &&
	test_eq "$(grep -c "^[<>]" diffs)" 2 "lines changed" &&
	test_eq "$(grep -c "^Only in" diffs)" 1 "files added" &&
	grep -q "^Only in $K/results: demo_out.c" diffs
'

test_expect_success 'the copy passes make check-layers and builds' '
	touch "$O/.deps-$(md5sum <"$T/scripts/deps.list" | cut -c1-8)" &&
	in_copy check-layers >layers.out 2>&1 &&
	in_copy -j2 "$O/kiln" >build.out 2>&1 &&
	test -x "$O/kiln"
'

test_expect_success 'its kiln burns with the signal in every output' '
	"$O/kiln" burn --size 64M --duration 3s --max-writes 0 \
		--out "$TEST_TMP/run" "$TEST_TMP/d.img" >burn.out 2>&1 &&
	grep -q "kiln: demo: before the burn" burn.out &&
	r="$TEST_TMP/run/result.json" &&
	test_eq "$(json_get "$r" "d[\"demo\"][\"ticks\"] >= 1")" True "ticks" &&
	test_eq "$(json_get "$r" "d[\"machine\"][\"verdict\"]")" WARN "machine" &&
	grep_in "demo: a planted signal WARNs" "$TEST_TMP/run/summary.txt" &&
	grep -q "^demo: [0-9]* seconds seen$" "$TEST_TMP/run/summary.txt"
'

test_expect_success 'kiln report reads it back and says it again' '
	rm "$TEST_TMP/run/summary.txt" &&
	"$O/kiln" report "$TEST_TMP/run" >report.out 2>&1 &&
	grep -q "^demo: [0-9]* seconds seen$" "$TEST_TMP/run/summary.txt"
'

test_done
