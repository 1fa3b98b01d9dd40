#!/bin/sh
# needs: kiln
# Memory planned, never killed: kiln burn in a memory cgroup of its own.
# Two 1 GiB files at --qd 256 --bs 64M would pin 2 GiB of buffers: in a
# 1 GiB cgroup kiln runs at a smaller qd, says so once and keeps it in
# result.json, and exits 0 with its results (today it is killed, 137,
# and leaves none). What cannot fit at qd 1 is exit 3 with one line that
# names the figures, and nothing written. A region smaller than qd x bs
# pins only the buffers its requests can use. The files are regular files on
# the machine's disk: tmpfs (/dev/shm) would count against the cgroup.
# cgroup v2 when its memory controller is there, else v1's memory
# hierarchy; without either the test skips whole.
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/host.sh"

need_root

# A memory hierarchy we may make a child in: v2 with memory enabled for
# children of its root, or v1's memory.
cg_root=
cg_v2=
v2=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/mounts)
if [ -n "$v2" ] && grep -qw memory "$v2/cgroup.subtree_control" 2>/dev/null
then
	cg_root=$v2
	cg_v2=1
else
	cg_root=$(awk '$3 == "cgroup" && $4 ~ /(^|,)memory(,|$)/ { print $2; exit }' /proc/mounts)
fi
# A chroot (a debootstrap'd machine) has none mounted: the message says
# how to give it one.
[ -n "$cg_root" ] || test_skip_all "no memory cgroup (v2 with memory for children, or v1's memory): in a chroot, mount the host's first (mount --rbind /sys/fs/cgroup ROOT/sys/fs/cgroup from outside it), or run make test T=tests/host/memory.t outside it"
cg_seq=0

# make_cg VAR LIMIT: a new child cgroup limited to LIMIT bytes.
make_cg () {
	cg_seq=$((cg_seq + 1))
	cg="$cg_root/kiln-test-$$-$cg_seq"
	mkdir "$cg" || return 1
	test_at_exit "rmdir '$cg'"
	if [ -n "$cg_v2" ]; then
		echo "$2" >"$cg/memory.max" || return 1
		# No swap to spill into: over the limit is the OOM killer.
		{ echo 0 >"$cg/memory.swap.max"; } 2>/dev/null
	else
		echo "$2" >"$cg/memory.limit_in_bytes" || return 1
	fi
	eval "$1=\$cg"
}

# in_cg CG CMD...: CMD run by a shell moved into CG first.
in_cg () {
	sh -c 'echo $$ >"$1/cgroup.procs" && shift && exec "$@"' sh "$@"
}

make_cg big $((1 << 30)) ||
	test_skip_all "cannot make a memory cgroup under $cg_root: run make test T=tests/host/memory.t as root where it is writable (not in a container that holds it read-only)"
make_cg small $((300 << 20)) ||
	test_skip_all "cannot make a memory cgroup under $cg_root: run make test T=tests/host/memory.t as root where it is writable (not in a container that holds it read-only)"

D=$(mktemp -d /var/tmp/kiln-memory.XXXXXX) || test_bail "mktemp under /var/tmp"
test_at_exit "rm -rf '$D'"

test_expect_success 'qd 256 of 64 MiB on two targets in a 1 GiB cgroup runs at a smaller qd' '
	in_cg "$big" "$KILN" burn --size 1G --qd 256 --bs 64M --duration 1s \
		--out "$D/r1" "$D/a.img" "$D/b.img" >"$D/r1.out" 2>&1;
	code=$?
	cat "$D/r1.out"
	[ $code = 0 ] || { echo "exit $code, want 0"; return 1; }
	grep_in "every target runs at qd" "$D/r1.out" &&
	[ "$(grep -c "every target runs at qd" "$D/r1.out")" -le 2 ] &&
	qd=$(json_get "$D/r1/result.json" "d[\"settings\"][\"qd\"]") &&
	[ "$qd" -ge 1 ] && [ "$qd" -lt 16 ] &&
	json_get "$D/r1/result.json" \
		"[n for n in d[\"notes\"] if \"runs at qd $qd\" in n][0]"
'

test_expect_success 'a region smaller than qd x bs pins only what it uses' '
	in_cg "$small" "$KILN" burn --size 1M --qd 256 --bs 64M \
		--out "$D/r3" "$D/e.img" >"$D/r3.out" 2>&1;
	code=$?
	cat "$D/r3.out"
	[ $code = 0 ] || { echo "exit $code, want 0"; return 1; }
	! grep -q "runs at qd" "$D/r3.out" &&
	[ "$(json_get "$D/r3/result.json" "d[\"settings\"][\"qd\"]")" = 256 ]
'

test_expect_success 'three quick pieces narrower than bs: one buffer each, a PASS' '
	in_cg "$small" "$KILN" burn --size 64M --span quick:3M --bs 2M \
		--qd 8 --passes 2 --out "$D/r4" "$D/f.img" >"$D/r4.out" 2>&1;
	code=$?
	cat "$D/r4.out"
	[ $code = 0 ] &&
	grep_in "kiln burn: PASS, 1 target" "$D/r4/summary.txt"
'

test_expect_success 'two files of kiln data, written outside any cgroup' '
	"$KILN" burn --size 1G --span 4M --out "$D/r0" "$D/c.img" "$D/d.img" \
		>"$D/r0.out" 2>&1 ||
	{ cat "$D/r0.out"; return 1; }
'

test_expect_success 'what cannot fit at qd 1 is exit 3, one line, nothing written' '
	a=$(sum_of "$D/c.img") && b=$(sum_of "$D/d.img") &&
	{ in_cg "$small" "$KILN" burn --qd 1 --bs 64M --duration 1s \
		--out "$D/r2" "$D/c.img" "$D/d.img" >"$D/r2.out" 2>"$D/r2.err";
	code=$?; } &&
	cat "$D/r2.out" "$D/r2.err" &&
	[ $code = 3 ] || { echo "exit $code, want 3"; return 1; }
	[ "$(wc -l <"$D/r2.err")" = 1 ] &&
	grep_in "cannot run: 2 targets at qd 1" "$D/r2.err" &&
	grep_in "kept back" "$D/r2.err" &&
	[ "$(sum_of "$D/c.img")" = "$a" ] &&
	[ "$(sum_of "$D/d.img")" = "$b" ] &&
	! [ -e "$D/r2/result.json" ]
'

test_done
