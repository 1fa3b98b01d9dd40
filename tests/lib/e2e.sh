# e2e.sh: end-to-end tests boot kiln's real kernel and initramfs in QEMU
# (TCG) with scripts/qemu.sh. Slow: each boot takes half a minute or more,
# and each test prints its wall time.

. "$(dirname "$0")/../lib/tap.sh"
lab_top=$TOP
. "$TOP/scripts/qemu.sh"

command -v "$LAB_QEMU" >/dev/null 2>&1 || test_skip_all "needs $LAB_QEMU"
[ -e "$TOP/out/kernel/vmlinuz" ] && [ -e "$TOP/out/initramfs.cpio.gz" ] ||
	test_bail "no ramboot in out/: run make check (it builds make ramboot)"

e2e_start=$(date +%s)
e2e_done () {
	say "wall time $(( $(date +%s) - e2e_start )) s"
	test_done
}

# boot NAME "KERNEL ARGS": boots the lab built so far, results to
# $TEST_TMP/NAME.results (the stick's kiln-results), the console to
# NAME.log, and run to the newest run folder.
boot () {
	lab_boot "quiet kiln.after=poweroff kiln.countdown=0 kiln.settle=20 $2" \
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
result () {
	json_get "$run/result.json" "$1"
}

json_get () {
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"
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
