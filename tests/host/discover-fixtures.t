#!/bin/sh
# needs: kiln kiln-asan
# kiln discover on sysfs trees captured from real kernels in QEMU
# (scripts/sysfs-capture.sh): it lists exactly the guest's disks and
# storage controllers, each disk under the controller the guest saw it
# behind, with the guest's sizes; the tree fits 80 columns; bad sysfs data
# never crashes it.
. "$(dirname "$0")/../lib/tap.sh"

fixtures="$TOP/tests/fixtures/sysfs"
set -- "$fixtures"/*.tar.gz
[ -e "$1" ] || test_skip_all "no fixtures in $fixtures"
first=$1

for fx in "$@"; do
	name=$(basename "$fx" .tar.gz)
	test_expect_success "$name: disks and controllers as the guest saw them" '
		rm -rf "$TEST_TMP/$name" && mkdir "$TEST_TMP/$name" &&
		tar xzf "$fx" -C "$TEST_TMP/$name" &&
		"$KILN" discover --json --sysfs-root "$TEST_TMP/$name/sys" \
			>"$TEST_TMP/$name.json" &&
		python3 "$TOP/tests/lib/truth.py" "$TEST_TMP/$name/kiln-truth.txt" \
			"$TEST_TMP/$name.json"
	'
	test_expect_success "$name: the same under ASan and UBSan" '
		"$TOP/out/tests/kiln-asan" discover --json --sysfs-root \
			"$TEST_TMP/$name/sys" >"$TEST_TMP/$name.asan.json" &&
		cmp "$TEST_TMP/$name.json" "$TEST_TMP/$name.asan.json"
	'
	test_expect_success "$name: the tree fits an 80-column console" '
		"$KILN" discover --sysfs-root "$TEST_TMP/$name/sys" >"$TEST_TMP/$name.txt" &&
		! awk "length(\$0) > 80 { print; bad = 1 } END { exit !bad }" \
			"$TEST_TMP/$name.txt"
	'
done

test_expect_success 'mangled sysfs: missing, empty and odd attributes' '
	rm -rf "$TEST_TMP/bad" && mkdir "$TEST_TMP/bad" &&
	tar xzf "$first" -C "$TEST_TMP/bad" &&
	find "$TEST_TMP/bad/sys" -name size -type f | head -3 | while read -r f; do
		printf "lots of junk\n" >"$f"; done &&
	find "$TEST_TMP/bad/sys" -name model -type f | while read -r f; do
		printf "\001\002\377 odd\tmodel \n\n" >"$f"; done &&
	find "$TEST_TMP/bad/sys" -name class -type f | head -2 | while read -r f; do
		: >"$f"; done &&
	find "$TEST_TMP/bad/sys" -name wwid -type f | xargs rm -f &&
	find "$TEST_TMP/bad/sys" -name serial -type f | head -2 | while read -r f; do
		chmod 000 "$f"; done &&
	rm -rf "$TEST_TMP/bad/sys/class/dmi" "$TEST_TMP/bad/proc" &&
	"$KILN" discover --sysfs-root "$TEST_TMP/bad/sys" >"$TEST_TMP/bad.txt" &&
	"$KILN" discover --json --sysfs-root "$TEST_TMP/bad/sys" >"$TEST_TMP/bad.json" &&
	"$TOP/out/tests/kiln-asan" discover --sysfs-root "$TEST_TMP/bad/sys" \
		>"$TEST_TMP/bad-asan.txt" &&
	"$TOP/out/tests/kiln-asan" discover --json --sysfs-root "$TEST_TMP/bad/sys" \
		>/dev/null &&
	python3 -c "import json,sys; json.load(open(sys.argv[1]))" "$TEST_TMP/bad.json"
'

test_expect_success 'an empty sysfs: no disks, said plainly' '
	mkdir -p "$TEST_TMP/empty/sys" &&
	"$KILN" discover --sysfs-root "$TEST_TMP/empty/sys" >"$TEST_TMP/empty.txt" &&
	grep_in "kiln discover: 0 disks, 0 controllers" "$TEST_TMP/empty.txt"
'

# On a host, a loop device is how a burn is tried: kiln discover lists it
# (kind loop, its identity and class) so the burn can be previewed.
if [ "$(id -u)" -eq 0 ] && command -v losetup >/dev/null; then
	. "$(dirname "$0")/../lib/host.sh"
	test_expect_success 'kiln discover lists a loop device: kind loop, its identity, its class' '
		make_loop lo 8M && img=$(backing "$lo") && n=$(basename "$lo") &&
		"$KILN" discover --json >"$TEST_TMP/host.json" &&
		[ "$(json_get "$TEST_TMP/host.json" "[x[\"transport\"] + \" \" + x[\"identity\"] + \" \" + x[\"class\"] for x in d[\"disks\"] if x[\"name\"] == \"$n\"][0]")" = "loop loop:$img blank" ]
	'
else
	test_skip "needs root (loop devices)"
fi

test_done
