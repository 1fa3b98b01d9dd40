#!/bin/sh
# needs: kiln lyingdisk
# kiln inside MAAS (boot/maas/kiln-burn), run as MAAS's runner runs it
# (tests/lib/maasrun.py: its metadata read as MAAS reads it, one instance
# per disk started at once at nice 19 with the runner's environment, its
# RESULT_PATH read back as MAAS's region reads it): a PASS run is passed,
# a WARN run degraded, a FAIL run failed with kiln's reasons and figures
# as named results, all disks named in one kiln run; a disk not named is
# never touched, nor one kiln finds in use (mounted), whose instance
# fails NOT TESTED, as does a named path that is no disk here; a disk
# named twice (by-id) is burned once; the run
# folder reaches the lab server by the upload parameter; a short
# RUNTIME sets kiln's duration below it; an instance the runner started
# after the gathering closed burns its disk alone; a setting that would
# undo the script's consent or name files is refused, nothing written.
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/host.sh"
. "$(dirname "$0")/../lib/lying.sh"

need_lying
python3 -c 'import yaml' 2>/dev/null ||
	test_skip_all "needs python3-yaml (scripts/deps.list)"
Q="'"
SCRIPT="$TOP/boot/maas/kiln-burn"
RUN="$TOP/tests/lib/maasrun.py"

# held DEV...: whether a process has one of the devices open.
held () {
	for h in "$@"; do
		[ -b "$h" ] || continue
		[ -n "$(find /proc/[0-9]*/fd -lname "$(readlink -f "$h")" 2>/dev/null | head -n 1)" ] &&
			return 0
	done
	return 1
}

# maas NAME [OPTIONS] DISK...: runs the script on the disks as MAAS would,
# once no process holds them (the kiln of the test before may be ending:
# the script rightly leaves a disk that is open elsewhere unwritten); the
# runner's report is NAME.json.
maas () {
	maas_n=$1
	shift
	test_wait_for "! held $*" || return 1
	python3 "$RUN" --dir "$TEST_TMP/$maas_n" --kiln "$KILN" "$SCRIPT" "$@" \
		>"$TEST_TMP/$maas_n.json" 2>"$TEST_TMP/$maas_n.err" || {
		cat "$TEST_TMP/$maas_n.err"
		return 1
	}
}

# r NAME EXPR: a value of the report, by a Python expression on d (the
# report) and i (its instances).
r () {
	json_get "$TEST_TMP/$1.json" "(lambda i: $2)(d[\"instances\"])"
}

# statuses NAME WANT: each instance's status as MAAS takes it, in order;
# on a difference, what each instance said.
statuses () {
	test_eq "$(r "$1" "\" \".join(x[\"status\"] for x in i)")" "$2" statuses && return 0
	# First each instance's status and reasons, in few lines: CI shows
	# the start of a failure's output only.
	r "$1" "\"\\n\".join(\"%s %s: %s\" % (x[\"yaml\"][\"results\"].get(\"disk\"), x[\"status\"], x[\"yaml\"][\"results\"].get(\"reasons\")) for x in i)"
	cat "$TEST_TMP/$1/out/"*/kiln-burn.yaml "$TEST_TMP/$1/out/"*/kiln-burn.err
	return 1
}

sha () {
	sha256sum <"$1" | cut -d' ' -f1
}

test_expect_success 'the metadata parses as MAAS parses it: a destructive storage test' '
	python3 "$RUN" --check "$SCRIPT" >"$TEST_TMP/meta.json" &&
	m="$TEST_TMP/meta.json" &&
	test_eq "$(json_get "$m" "d[\"script_type\"]")" testing &&
	test_eq "$(json_get "$m" "d[\"destructive\"]")" True &&
	test_eq "$(json_get "$m" "d[\"hardware_type\"]")" storage &&
	test_eq "$(json_get "$m" "d[\"parallel\"]")" instance &&
	test_eq "$(json_get "$m" "d[\"timeout_seconds\"] > 0")" True &&
	test_eq "$(json_get "$m" "d[\"parameters\"][\"storage\"][\"argument_format\"]")" "--disk={path}"
'

test_expect_success 'the driver refuses metadata MAAS would read otherwise' '
	sed "s/^# script_type: testing/# type: testing/" "$SCRIPT" >"$TEST_TMP/typed" &&
	{ python3 "$RUN" --check "$TEST_TMP/typed" >/dev/null 2>"$TEST_TMP/typed.err"; test $? = 1; } &&
	grep_in "type is not a field" "$TEST_TMP/typed.err" &&
	sed "s/^# destructive: true/# destructive: false/" "$SCRIPT" >"$TEST_TMP/soft" &&
	{ python3 "$RUN" --check "$TEST_TMP/soft" >/dev/null 2>"$TEST_TMP/soft.err"; test $? = 1; } &&
	grep_in "destructive is False" "$TEST_TMP/soft.err"
'

test_expect_success 'a PASS run: passed for each disk, one kiln run; a disk not named untouched' '
	make_loop p1 64M && make_loop p2 64M && make_loop p3 64M &&
	make_loop other 64M &&
	head -c 1048576 /dev/urandom >"$TEST_TMP/noise" &&
	dd if="$TEST_TMP/noise" of="$other" bs=1M seek=3 conv=fsync status=none &&
	before=$(sha "$other") &&
	maas pass --runtime 3600 "$p1" "$p2" "$p3" &&
	statuses pass "passed passed passed" &&
	test_eq "$(r pass "[x[\"exit_status\"] for x in i]")" "[0, 0, 0]" &&
	test_eq "$(json_get "$TEST_TMP/pass.json" "d[\"node\"]")" OK &&
	test_eq "$(r pass "[x[\"yaml\"][\"results\"][\"verdict\"] for x in i]")" "[${Q}PASS${Q}, ${Q}PASS${Q}, ${Q}PASS${Q}]" &&
	test_eq "$(r pass "len(set(x[\"yaml\"][\"results\"][\"run_id\"] for x in i))")" 1 &&
	test_eq "$(r pass "[x[\"yaml\"][\"results\"][\"disks_in_run\"] for x in i]")" "[3, 3, 3]" &&
	test_eq "$(r pass "i[0][\"yaml\"][\"results\"][\"bytes_written\"]")" 67108864 &&
	test_eq "$(r pass "i[0][\"yaml\"][\"results\"][\"io_errors\"]")" 0 &&
	test_eq "$(sha "$other")" "$before" "the disk MAAS did not name"
'

test_expect_success '... the console is in MAAS output of each instance' '
	o="$TEST_TMP/pass/out" &&
	grep_in "kiln burn: PASS, 3 targets" "$o/kiln-burn.101/kiln-burn" &&
	grep_in "kiln burn: PASS, 3 targets" "$o/kiln-burn.102/kiln-burn" &&
	grep_in "kiln burn: PASS, 3 targets" "$o/kiln-burn.103/kiln-burn"
'

test_expect_success 'a WARN run (stressapptest missing: a machine WARN) is degraded, exit 0' '
	mkdir "$TEST_TMP/bin" && ln -s /usr/bin/* "$TEST_TMP/bin/" &&
	rm -f "$TEST_TMP/bin/stressapptest" &&
	PATH="$TEST_TMP/bin" maas warn --runtime 3600 \
		--param settings=stress=memory,stress-memory=64M "$p1" "$p2" &&
	statuses warn "degraded degraded" &&
	test_eq "$(r warn "[x[\"exit_status\"] for x in i]")" "[0, 0]" &&
	test_eq "$(r warn "[x[\"yaml\"][\"results\"][\"verdict\"] for x in i]")" "[${Q}PASS${Q}, ${Q}PASS${Q}]" &&
	test_eq "$(r warn "i[0][\"yaml\"][\"results\"][\"machine_verdict\"]")" WARN &&
	r warn "i[0][\"yaml\"][\"results\"][\"reasons\"]" | grep -q "machine: .*stressapptest is not in PATH"
'

test_expect_success 'a FAIL run: the disk that drops writes failed with its figures, the other passed' '
	make_lying liar 32M && lying "$liar" drop on &&
	maas fail --runtime 3600 "$liar" "$p1" &&
	statuses fail "failed passed" &&
	test_eq "$(r fail "[x[\"exit_status\"] for x in i]")" "[1, 0]" &&
	test_eq "$(json_get "$TEST_TMP/fail.json" "d[\"node\"]")" FAILED &&
	test_eq "$(r fail "i[0][\"yaml\"][\"results\"][\"verdict\"]")" FAIL &&
	test_eq "$(r fail "i[0][\"yaml\"][\"results\"][\"bad_units\"] > 0")" True &&
	test_eq "$(r fail "len(i[0][\"yaml\"][\"results\"][\"reasons\"]) > 0")" True &&
	test_eq "$(r fail "i[0][\"yaml\"][\"results\"][\"run_id\"] == i[1][\"yaml\"][\"results\"][\"run_id\"]")" True
'

test_expect_success 'a disk kiln finds in use (mounted) is never written: failed, NOT TESTED' '
	make_loop used 64M &&
	mkfs.ext4 -q -E lazy_itable_init=0,lazy_journal_init=0 "$used" &&
	mkdir "$TEST_TMP/mnt" && mount -o ro "$used" "$TEST_TMP/mnt" &&
	test_at_exit "umount '$TEST_TMP/mnt'" &&
	sync && before=$(sha "$(backing "$used")") &&
	maas used --runtime 3600 "$used" "$p2" &&
	test_eq "$(sha "$(backing "$used")")" "$before" "the mounted disk" &&
	statuses used "failed passed" &&
	test_eq "$(r used "i[0][\"yaml\"][\"results\"][\"verdict\"]")" "NOT TESTED" &&
	r used "i[0][\"yaml\"][\"results\"][\"reasons\"][0]" | grep -q "in use, never written: .*mounted at"
'

# RUNTIME 90, not less: the script gives kiln 45% of what is left less a
# margin, and under two CPU hogs and a CI run a RUNTIME of 40 s (8 s of
# writing) ran out in the gathering and the read-back around it. The
# re-read (up to 60 s) is left out: with it, a 10 s burn under load
# ended past the timeout.
test_expect_success 'a short RUNTIME: kiln runs for less, the YAML written, not timed out' '
	maas short --runtime 90 --param settings=passes=100000 "$p1" "$p2" &&
	# A degraded instance whose only WARN is a dip a loaded host causes
	# (as e2e.sh'"'"'s steady() counts them) is passed: this test is of the
	# runtime, run beside CI'"'"'s QEMU guests and two CPU hogs.
	test_eq "$(r short "\" \".join(\"passed\" if x[\"status\"] == \"degraded\" and all(e.startswith((\"unstable \", \"slow reads confirmed: \")) for e in x[\"yaml\"][\"results\"][\"reasons\"] if e != \"no I/O errors, no bad units\") else x[\"status\"] for x in i)")" "passed passed" statuses ||
		statuses short "passed passed" &&
	d=$(r short "i[0][\"yaml\"][\"results\"][\"duration_seconds\"]") &&
	[ "$d" -gt 0 ] && [ "$d" -lt 90 ] &&
	test_eq "$(r short "[x[\"yaml\"][\"results\"][\"passes_made\"] < 100000 for x in i]")" "[True, True]" "cut by the duration" &&
	# The re-read (up to its 60 s deadline) does not fit: left out, said.
	cat "$TEST_TMP/short/out/"*/kiln-burn.out >"$TEST_TMP/short.said" &&
	grep_in "leaves no time for the re-read of the slowest requests (up to 60 s): reread=0" "$TEST_TMP/short.said"
'

test_expect_success 'upload: the run folder reaches the lab server, named as the YAML says' '
	mkdir -p "$TEST_TMP/dav/kiln-results" &&
	{ python3 "$TOP/tests/lib/httpfake.py" dav409 "$TEST_TMP/dav.port" \
		"$TEST_TMP/dav" & } &&
	test_at_exit "kill $!" &&
	test_wait_for "[ -s \"\$TEST_TMP/dav.port\" ]" &&
	maas up --runtime 3600 \
		--param upload="http://127.0.0.1:$(cat "$TEST_TMP/dav.port")/kiln-results/" \
		"$p1" "$p2" &&
	statuses up "passed passed" &&
	f=$(r up "i[1][\"yaml\"][\"results\"][\"run_folder\"]") &&
	test_eq "$(r up "i[0][\"yaml\"][\"results\"][\"run_folder\"]")" "$f" &&
	test_eq "$(json_get "$TEST_TMP/dav/kiln-results/$f/result.json" "d[\"run_id\"]")" \
		"$(r up "i[0][\"yaml\"][\"results\"][\"run_id\"]")" &&
	r up "i[0][\"yaml\"][\"results\"][\"uploaded_to\"]" | grep -q "/kiln-results/$f/\$"
'

test_expect_success 'an instance that comes after the gathering closed burns its disk alone' '
	maas late --serial --runtime 200 "$p1" "$p2" &&
	statuses late "passed passed" &&
	test_eq "$(r late "[x[\"yaml\"][\"results\"][\"disks_in_run\"] for x in i]")" "[1, 1]" &&
	test_eq "$(r late "i[0][\"yaml\"][\"results\"][\"run_id\"] != i[1][\"yaml\"][\"results\"][\"run_id\"]")" True
'

test_expect_success 'bad parameters: exit 2, one line, nothing written' '
	before=$(sha "$p3") &&
	maas bad --runtime 3600 --param settings=destroy-data=0 "$p3" &&
	test_eq "$(r bad "i[0][\"exit_status\"]")" 2 &&
	test_eq "$(r bad "i[0][\"status\"]")" failed &&
	grep_in "settings: destroy-data may not be given here" \
		"$TEST_TMP/bad/out/kiln-burn.101/kiln-burn.err" &&
	test_eq "$(sha "$p3")" "$before"
'

test_expect_success 'one disk named twice (its kernel name, a by-id link) is burned once' '
	mkdir "$TEST_TMP/by-id" && ln -s "$p3" "$TEST_TMP/by-id/kiln-maas-p3" &&
	maas twice --runtime 3600 "$p3" "$TEST_TMP/by-id/kiln-maas-p3" &&
	statuses twice "passed passed" &&
	test_eq "$(r twice "[x[\"yaml\"][\"results\"][\"disks_in_run\"] for x in i]")" "[1, 1]" &&
	test_eq "$(r twice "i[1][\"yaml\"][\"results\"][\"bytes_written\"]")" 67108864
'

test_expect_success 'a disk MAAS named that is not here fails alone, NOT TESTED' '
	maas gone --runtime 3600 /dev/kiln-maas-not-a-disk "$p3" &&
	statuses gone "failed passed" &&
	r gone "i[0][\"yaml\"][\"results\"][\"reasons\"][0]" | grep -q "not a block device"
'

test_expect_success 'no kiln, or no time left: could not run (exit 3), failed, nothing written' '
	before=$(sha "$p3") &&
	PATH=/usr/bin:/bin python3 "$RUN" --dir "$TEST_TMP/nokiln" --runtime 3600 \
		"$SCRIPT" "$p3" >"$TEST_TMP/nokiln.json" &&
	test_eq "$(r nokiln "i[0][\"exit_status\"]")" 3 &&
	statuses nokiln failed &&
	r nokiln "i[0][\"yaml\"][\"results\"][\"reasons\"][0]" | grep -q "kiln is not in DOWNLOAD_PATH" &&
	maas notime --runtime 3 "$p3" &&
	test_eq "$(r notime "i[0][\"exit_status\"]")" 3 &&
	statuses notime failed &&
	r notime "i[0][\"yaml\"][\"results\"][\"reasons\"][0]" | grep -q "leaves no time for a burn" &&
	test_eq "$(sha "$p3")" "$before"
'

test_done
