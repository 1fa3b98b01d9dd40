#!/bin/sh
# make profile, scripts/profile.sh [KILN]: where kiln's CPU goes in a guarded first
# write pass against the same pass with consent, and in a write-verify
# pass (each verified GiB, by group), in instructions counted
# by valgrind's callgrind, so the figures do not depend on the machine's
# speed or load (a busy machine changes only how long it takes).
#
# Two regular files of PROFILE_SIZE (64M), so no root: kiln creates and
# writes them (kiln burn --size), then each is cut back to its first unit
# and grown again, which leaves a kiln unit and then 0x00 bytes, as a
# blank disk reads: a file of kiln data, which kiln burn writes guarded
# without --destroy-data (it reads each span and checks every unit
# first), and unguarded with it (a blank file of its own kiln writes
# unguarded, and a blank disk needs root).
# Each pass runs under callgrind from the same state of the files, and
# each prints its instructions by group of functions.
#
# Only kiln's own process in user space is counted: the kernel's side of
# the guard's reads (the copies into kiln's buffers) is not, so a ratio
# of CPU time measured by make bench is higher than the ratio here; nor
# are the children kiln forks for reads bounded by a deadline (the class
# of each disk read before the burn, the same in both passes), whose
# counts callgrind starts from their parent's. The static musl binary keeps
# its symbols (musl's own functions have names but no lines), so it is
# profiled as shipped.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
kiln=${1:-$top/out/kiln}
size=${PROFILE_SIZE:-64M}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

command -v valgrind >/dev/null 2>&1 || {
	echo "profile: valgrind is missing (make deps)" >&2
	exit 3
}
[ -x "$kiln" ] || { echo "profile: no $kiln (make)" >&2; exit 3; }

# Both files back to one kiln unit, then blank: the state each pass sees.
reset_files () {
	for f in a b; do
		truncate -s 4K "$tmp/$f.img"
		truncate -s "$size" "$tmp/$f.img"
	done
}

# Instructions of one function, by the group it belongs to: the CRC, the
# pattern's fill, the checks of what was read (the guard's and the
# verify's, blank and unit by unit), io_uring's submission and reaping,
# and everything else (start-up, discovery, results).
group () {
	awk '
	/^ *[0-9,]+ .*:/ {
		n = $1
		gsub(",", "", n)
		sub(/^ *[0-9,]+ (\([ 0-9.]+%\))? */, "")
		sub(/ \[.*\]$/, "")
		file = $0
		sub(/:[^:]*$/, "", file)
		fn = $0
		sub(/^.*:/, "", fn)
		sub(/\..*$/, "", fn)
		sub(/'"'"'.*$/, "", fn)
		if (file ~ /crc32c\.c$/ ||
		    fn ~ /^(crc32c.*|sse42.*|pclmul.*|vpclmul.*|portable|raw_crc|unit_crc|seed_crc)$/)
			g = "CRC"
		else if (fn ~ /^(fill_one|fill_cached|unit_fill|seed_of|header_words|unit_ctx_init|lookup4)$/)
			g = "pattern fill"
		else if (file ~ /(blank|guard|worker_check)\.c$/ ||
		    fn ~ /^(blank_byte.*|unit_parse|unit_good|unit_classify|memcmp|all_zero)$/)
			g = "checks/compare"
		else if (file ~ /liburing/ ||
		    fn ~ /^(_*io_uring.*|_*sys_io_uring.*|queue|reap.*|submit.*)$/)
			g = "io_uring submission"
		else
			g = "other"
		ir[g] += n
		total += n
	}
	END {
		split("CRC,pattern fill,checks/compare,io_uring submission,other", order, ",")
		for (i = 1; i <= 5; i++)
			printf "  %-22s %14.0f  %5.1f%%\n", order[i], ir[order[i]],
				total ? 100 * ir[order[i]] / total : 0
		printf "  %-22s %14.0f\n", "total", total
	}'
}

# One pass under callgrind: its main process's profile (the deadline's
# forked children write their own, and are left out). Valgrind cannot run
# the clone() of deadline_close() (CLONE_VM without a thread: valgrind
# says "Unsupported clone() flags" and exits 1), the first call of which
# comes when the burn is over, after its results: so the profile is
# dumped just before it (part 1 of the pid's file), and the exit is not
# kiln's.
profile () {
	name=$1
	mode=$2
	shift 2
	reset_files
	valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.$name.%p" \
		--dump-before=deadline_close --log-file="$tmp/vg.$name.log" \
		"$kiln" burn --mode "$mode" --out "$tmp/res-$name" "$@" \
		"$tmp/a.img" "$tmp/b.img" >"$tmp/$name.out" 2>&1 &
	pid=$!
	wait "$pid" || true
	[ -s "$tmp/cg.$name.$pid.1" ] && [ -s "$tmp/res-$name/result.json" ] || {
		echo "profile: kiln burn ($name) failed:" >&2
		cat "$tmp/$name.out" "$tmp/vg.$name.log" >&2
		exit 1
	}
	callgrind_annotate --inclusive=no --threshold=100 --auto=no \
		"$tmp/cg.$name.$pid.1" >"$tmp/$name.txt"
	group <"$tmp/$name.txt" >"$tmp/$name.groups"
}

"$kiln" burn --size "$size" --mode write --out "$tmp/res-made" \
	"$tmp/a.img" "$tmp/b.img" >"$tmp/made.out" 2>&1 || {
	echo "profile: kiln burn --size failed:" >&2
	cat "$tmp/made.out" >&2
	exit 1
}
profile guarded write
profile consented write --destroy-data
# And where a verified GiB's CPU goes: a write-verify pass with consent,
# as make bench's kiln write+verify row runs (issue 42's breakdown).
profile verified write-verify --destroy-data
# What the figures stand for: the guard read every byte of the one pass,
# and nothing of the other.
python3 - "$tmp" <<'PY' || exit 1
import json, sys
def checked(name):
    r = json.load(open(f"{sys.argv[1]}/res-{name}/result.json"))
    return [(t.get("guard") or {}).get("checked", 0) for t in r["targets"]]
g, c = checked("guarded"), checked("consented")
if len(g) != 2 or min(g) == 0 or any(c):
    sys.exit(f"profile: not one guarded and one consented pass: {g} {c}")
PY

echo "kiln burn --mode write, two files of $size, instructions (callgrind):"
echo "guarded first pass:"
cat "$tmp/guarded.groups"
echo "consented first pass (--destroy-data):"
cat "$tmp/consented.groups"
awk '$1 == "total" { t[n++] = $2 } $1 == "checks/compare" { c[m++] = $2 }
END {
	printf "guarded/consented instructions: %.2f\n", t[0] / t[1]
	printf "guarded checks per unit:        %.0f\n", (c[0] - c[1]) / units
}' units="$(( $(numfmt --from=iec "$size") * 2 / 4096 ))" \
	"$tmp/guarded.groups" "$tmp/consented.groups"
echo "write-verify (--destroy-data): each GiB written and verified:"
awk -v gib="$(( $(numfmt --from=iec "$size") * 2 ))" '
	NF >= 2 && $NF ~ /%$/ {
		name = $0
		sub(/ +[0-9]+ +[0-9.]+%$/, "", name)
		sub(/^ +/, "", name)
		printf "  %-22s %14.0f  %6s\n", name, $(NF - 1) * 1073741824 / gib, $NF
	}
	$1 == "total" { printf "  %-22s %14.0f\n", "total", $2 * 1073741824 / gib }
' "$tmp/verified.groups"
echo "(the kernel's side, the copies and the block layer, is make bench's"
echo " system CPU: not in these counts)"
