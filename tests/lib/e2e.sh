# e2e.sh: end-to-end tests boot kiln's real kernel and initramfs in QEMU
# (TCG) with scripts/qemu.sh. Slow: each boot takes half a minute or more,
# and each test prints its wall time.

. "$(dirname "$0")/../lib/tap.sh"
lab_top=$TOP
. "$TOP/scripts/qemu.sh"

command -v "$LAB_QEMU" >/dev/null 2>&1 || test_skip_all "needs $LAB_QEMU"
[ -e "$TOP/out/kernel/vmlinuz" ] && [ -e "$TOP/out/initramfs.cpio.gz" ] ||
	test_bail "no ramboot in out/: run make check (it builds make ramboot)"

# grep_in TEXT FILE: as tap.sh's, and a console log is matched as its
# screen shows it too (lab_screen): a loader's redraw or the firmware's
# serial mirror puts cursor moves between the characters wherever the
# machine's speed lets them fall.
grep_in () {
	grep -qF -- "$1" "$2" || lab_screen "$2" | grep -qF -- "$1" || {
		echo "expected '$1' in $2 (as its screen shows it):"
		lab_screen "$2"
		return 1
	}
}

e2e_start=$(date +%s)
e2e_done () {
	say "wall time $(( $(date +%s) - e2e_start )) s"
	test_done
}

# boot NAME "KERNEL ARGS": boots the lab built so far, results to
# $TEST_TMP/NAME.results (the stick's kiln-results), the console to
# NAME.log, and run to the newest run folder. The memory and CPU stress
# is off (TCG is slow enough) unless ARGS set kiln.stress: the later wins
# (E2E_ARGS: what every boot of a test sets first).
E2E_ARGS="quiet kiln.after=poweroff kiln.countdown=0 kiln.settle=20 kiln.stress=off kiln.reread=0"
boot () {
	lab_boot "$E2E_ARGS $2" \
		"$TEST_TMP/$1.log" || { echo "QEMU ended with $?"; tail -30 "$TEST_TMP/$1.log"; return 1; }
	if [ -e "$lab_dir/stick.img" ]; then
		rm -rf "$TEST_TMP/$1.results"
		lab_results "$TEST_TMP/$1.results"
		run=$(find "$TEST_TMP/$1.results" -name summary.txt | sort | tail -n 1)
		run=${run%/summary.txt}
	fi
	return 0
}

# result EXPR: a Python expression on d = result.json of the last boot.
# steady(t) is target t's verdict with the WARNs a loaded host causes
# counted as PASS: the guest runs under TCG on a machine others share, and
# a second in which its disk stalls WARNs it unstable, a 4 KiB read held
# 500 ms on a disk that spins WARNs it for slow reads. kiln is right to
# say both (tests/unit/judge.c and reread.c prove the rules on synthetic
# figures), but here they say how busy the host was, not what the test
# asks; any other reason keeps its verdict.
result () {
	json_get "$run/result.json" "$1"
}

# steady_of SERIAL: steady() of the target with that serial (or name).
steady_of () {
	result "[steady(t) for t in d[\"targets\"] if \"$1\" in (t[\"serial\"], t[\"name\"])][0]"
}

# ran_clean FILE N: FILE (a summary or a console log) says a run of N
# targets failed none: PASS, or WARN, which a loaded host causes (see
# steady(); a console gives no reasons to sort, so any WARN).
ran_clean () {
	lab_seen "$1" "kiln run: \(PASS\|WARN\), $2 targets\?" && return 0
	echo "expected a run of $2 targets that failed none in $1:"
	grep -a "kiln run:" "$1"
	return 1
}

json_get () {
	python3 - "$1" "$2" <<-\PY
	import json, sys
	d = json.load(open(sys.argv[1]))
	HOST_LOAD = ("unstable ", "slow reads confirmed: ")
	def steady(t):
	    if t["verdict"] == "WARN" and all(r.startswith(HOST_LOAD) or
	            r == "no I/O errors, no bad units" for r in t["reasons"]):
	        return "PASS"
	    return t["verdict"]
	print(eval(sys.argv[2]))
	PY
}

# kernel_modules DIR LIST MODULE...: the guest kernel's modules named and
# all they need, copied under DIR (usr/lib/modules/...) for a second
# initramfs archive, and their paths in DIR/LIST in the order insmod
# takes them; bails out when one is not in the kernel.
kernel_modules () {
	km_dir=$1
	km_list=$2
	shift 2
	km_root=$TOP/out/kernel/root
	km_ver=$(cat "$TOP/out/kernel/version")
	/sbin/modprobe -d "$km_root" -S "$km_ver" --show-depends -a "$@" |
		awk -v k="$km_root/lib/" '$1 == "insmod" && !seen[$2]++ {
			print "usr/lib/" substr($2, length(k) + 1) }' \
		>"$km_dir/$km_list" || test_bail "cannot list the modules"
	while read -r ko; do
		mkdir -p "$km_dir/${ko%/*}"
		cp "$km_root/lib/${ko#usr/lib/}" "$km_dir/$ko" || test_bail "no $ko"
	done <"$km_dir/$km_list"
	# A module's file may spell its _ as - (dm_flakey: dm-flakey.ko).
	for m in "$@"; do
		grep -q "/$(echo "$m" | sed 's/_/[-_]/g')\.ko" "$km_dir/$km_list" ||
			test_bail "no $m in kernel $km_ver"
	done
}

# qmp COMMAND...: each a QMP command (JSON) or an HMP line, in order, to
# the guest booted with LAB_EXTRA="-qmp unix:$qmp,server=on,wait=off";
# prints each answer, fails at the first error.
qmp () {
	python3 - "$qmp" "$@" <<'PY'
import json, socket, sys
s = socket.socket(socket.AF_UNIX)
s.connect(sys.argv[1])
f = s.makefile("rw")
f.readline()
def ask(cmd):
    f.write(json.dumps(cmd) + "\n")
    f.flush()
    while True:
        r = json.loads(f.readline())
        if "return" in r or "error" in r:
            return r
ask({"execute": "qmp_capabilities"})
for c in sys.argv[2:]:
    if not c.startswith("{"):
        c = json.dumps({"execute": "human-monitor-command",
                        "arguments": {"command-line": c}})
    r = ask(json.loads(c))
    print(r)
    if "error" in r:
        sys.exit(1)
PY
}
