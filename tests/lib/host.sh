# host.sh: real block devices for host tests: loop devices over files in
# /dev/shm (with O_DIRECT), cleaned up at exit. Needs root; without it the
# whole test says "# SKIP needs root".

need_root () {
	[ "$(id -u)" -eq 0 ] || test_skip_all "needs root (loop devices)"
	command -v losetup >/dev/null || test_skip_all "needs losetup"
}

loop_seq=0

# make_loop VAR SIZE [DIR]: sets VAR to a new loop device over a new, fully
# allocated file in DIR (default /dev/shm). Not in $( ): the cleanups it
# registers must reach this shell.
make_loop () {
	loop_seq=$((loop_seq + 1))
	img="${3:-/dev/shm}/kiln-test-$$-$loop_seq.img"
	rm -f "$img"
	fallocate -l "$2" "$img" 2>/dev/null || truncate -s "$2" "$img" || return 1
	test_at_exit "rm -f '$img'"
	dev=$(losetup -f --show --direct-io=on "$img") || return 1
	# Partitions the kernel still lists for this device from an earlier
	# user (one detached while partx -d could not drop them) are stale:
	# kiln would rightly refuse a disk it sees partitions on.
	for p in /sys/block/"${dev#/dev/}"/"${dev#/dev/}"p*; do
		[ -e "$p" ] && delpart "$dev" "${p##*p}" 2>/dev/null
	done
	test_at_exit "partx -d '$dev'; losetup -d '$dev'"
	eval "$1=\$dev"
}

# backing DEV: the file behind a loop device.
backing () {
	cat "/sys/block/$(basename "$1")/loop/backing_file"
}

# md5 of a file or device, to prove it was not touched.
sum_of () {
	md5sum <"$1" | cut -d' ' -f1
}

# json_get FILE EXPR: a value from a JSON file, by a Python expression on d.
json_get () {
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"
}

# hold PIDVAR FILE [rw]: starts a sleep with FILE open on its stdin (to
# read and write with rw, as a VM holds its disk) and returns once /proc
# shows that very sleep holding that very file (same device and inode),
# never after a guessed delay: a loaded machine may not have run the
# child's open and exec yet when the test looks.
hold () {
	hold_want=$(stat -L -c %d:%i "$2") || return 1
	if [ "$3" = rw ]; then
		{ sleep 600 <>"$2" & } 2>/dev/null
	else
		{ sleep 600 <"$2" & } 2>/dev/null
	fi
	hold_pid=$!
	test_at_exit "kill $hold_pid"
	eval "$1=\$hold_pid"
	hold_i=0
	until [ "$(cat /proc/$hold_pid/comm 2>/dev/null)" = sleep ] &&
		[ "$(stat -L -c %d:%i /proc/$hold_pid/fd/0 2>/dev/null)" = "$hold_want" ]; do
		# The bound only keeps a broken machine from hanging the file.
		hold_i=$((hold_i + 1))
		[ $hold_i -lt 6000 ] || { echo "hold: pid $hold_pid never held $2"; return 1; }
		sleep 0.01
	done
}
