#!/bin/sh
# needs: kiln lyingdisk
# A run's duration counts from the command's start: a disk whose first
# read (while kiln classes it) is held by the lying disk for 3 s makes a
# run of at least 3 s in every output that says how long it ran
# (result.json's elapsed_seconds and started, summary.txt's header, the
# status line), never the burn's second or so alone.
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/host.sh"
. "$(dirname "$0")/../lib/lying.sh"

need_lying

# hms SECONDS: as kiln writes a duration.
hms () {
	printf '%02d:%02d:%02d' $(($1 / 3600)) $(($1 / 60 % 60)) $(($1 % 60))
}

test_expect_success 'classing held 3 s: the run lasted 3 s or more, everywhere' '
	make_lying d 32M && lying "$d" hold 0 4K read &&
	before=$(date -u +%s) || return 1
	{ "$KILN" burn --mode read --deadline 600 --interval 1 \
		--out "$TEST_TMP/r" "$d" >"$TEST_TMP/o" 2>&1; echo $? >"$TEST_TMP/rc"; } &
	test_wait_for "[ \"\$(lying_get \"\$d\" pending)\" -ge 1 ]" &&
	# The held read is the scenario: three seconds of a disk slow to answer.
	sleep 3 && lying "$d" resume && wait &&
	test_eq "$(cat "$TEST_TMP/rc")" 0 "the exit" &&
	r="$TEST_TMP/r/result.json" &&
	e=$(json_get "$r" "int(d[\"elapsed_seconds\"])") &&
	test_eq "$([ "$e" -ge 3 ] && echo yes)" yes "elapsed_seconds $e, 3 or more" &&
	s=$(json_get "$r" "d[\"started\"]") &&
	started=$(date -u -d "$s" +%s) &&
	test_eq "$([ "$started" -le "$before" ] || [ "$started" -le $((before + 1)) ] && echo yes)" yes \
		"started $s, by $(date -u -d @"$before" +%FT%TZ)" &&
	head -3 "$TEST_TMP/r/summary.txt" >"$TEST_TMP/head" &&
	grep_in "($(hms "$e"))" "$TEST_TMP/head" &&
	last=$(grep -o "^[0-9][0-9]:[0-9][0-9]:[0-9][0-9] done" "$TEST_TMP/o" | tail -1) &&
	test_eq "$([ "${last%% *}" \> "00:00:02" ] && echo yes)" yes "the last status line: $last"
'
test_done
