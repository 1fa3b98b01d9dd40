#!/bin/sh
# needs: kiln
# The stick's shipped kiln.cfg (boot/kiln.cfg) is edited by people who
# uncomment a line: every commented KEY=VALUE line in it, uncommented,
# must be a valid setting that means what its comment says, never a value
# with the comment glued on (a destroy-data list once took "0 # 1, or
# serials/WWNs..." for a list of serials), and a value left empty is the
# default. A comment glued after a value anywhere is refused by name.

test_description='the shipped kiln.cfg: each line uncommented is a valid setting'
. "$(dirname "$0")/../lib/tap.sh"

: >"$TEST_TMP/cmdline"

settings() {
	"$KILN" settings --config "$TEST_TMP/kiln.cfg" \
		--cmdline "$TEST_TMP/cmdline" "$@"
}

lines=$(grep -n '^# [a-z-]*=' "$TOP"/boot/kiln.cfg | cut -d: -f1)
test_expect_success 'the shipped file has commented settings to try' '
	[ "$(echo $lines | wc -w)" -ge 10 ]
'

for n in $lines; do
	key=$(sed -n "${n}s/^# \([a-z-]*\)=.*/\1/p" "$TOP"/boot/kiln.cfg)
	val=$(sed -n "${n}s/^# [a-z-]*=//p" "$TOP"/boot/kiln.cfg)
	test_expect_success "line $n uncommented ($key=$val) is a valid setting" '
		sed "${n}s/^# //" "$TOP"/boot/kiln.cfg >"$TEST_TMP/kiln.cfg" &&
		settings >/dev/null 2>"$TEST_TMP/err" &&
		! [ -s "$TEST_TMP/err" ] &&
		got=$(settings --get "$key") &&
		if [ -n "$val" ]; then
			want=$(printf "%s=%s\n" "$key" "$val" >"$TEST_TMP/one.cfg" &&
			       "$KILN" settings --config "$TEST_TMP/one.cfg" \
				--cmdline "$TEST_TMP/cmdline" --get "$key")
		else
			: >"$TEST_TMP/empty.cfg"
			want=$("$KILN" settings --config "$TEST_TMP/empty.cfg" \
				--cmdline "$TEST_TMP/cmdline" --get "$key")
		fi &&
		[ "$got" = "$want" ] &&
		case $got in *"#"*) false ;; esac
	'
done

test_expect_success 'an empty value is the default, for every key of the file' '
	for n in $lines; do
		key=$(sed -n "${n}s/^# \([a-z-]*\)=.*/\1/p" "$TOP"/boot/kiln.cfg)
		printf "%s=\n" "$key" >"$TEST_TMP/kiln.cfg"
		settings >/dev/null 2>"$TEST_TMP/err" || { cat "$TEST_TMP/err"; return 1; }
	done
'

test_expect_success 'a comment glued after a consent list is refused, not a serial' '
	printf "destroy-data=0      # 1, or serials\n" >"$TEST_TMP/kiln.cfg" &&
	! settings >/dev/null 2>"$TEST_TMP/err" &&
	grep -q "line 1" "$TEST_TMP/err" &&
	grep -q "own line" "$TEST_TMP/err"
'

test_expect_success 'a comment glued after a number says where comments go' '
	printf "countdown=10   # seconds\n" >"$TEST_TMP/kiln.cfg" &&
	! settings >/dev/null 2>"$TEST_TMP/err" &&
	grep -q "own line" "$TEST_TMP/err"
'

test_expect_success 'a serial that holds # (no space before it) is still a serial' '
	printf "destroy-data=AB#12\n" >"$TEST_TMP/kiln.cfg" &&
	[ "$(settings --get destroy-data)" = "AB#12" ]
'

test_done
