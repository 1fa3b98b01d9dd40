# lying.sh: a disk that lies (tests/lib/lyingdisk.c) under a loop device,
# for host tests; sourced after tap.sh and host.sh:
#
#	need_lying
#	make_lying d 64M && lying "$d" drop on &&
#	dd if="$TEST_TMP/x" of="$d" bs=4k oflag=direct &&
#	[ "$(lying_get "$d" dropped_bytes)" = 4096 ]
#
# The commands and the state keys are in lyingdisk.c's opening comment.
# Read and write the device with O_DIRECT (dd iflag=direct, oflag=direct),
# as kiln does: a buffered reader is answered from the loop device's page
# cache while anything holds it open, and never meets the lie. A flush
# reaches the disk only as an fsync or fdatasync of the device (dd
# conv=fsync, sync DEV); sync(1) alone and blockdev --flushbufs send none.

LYINGDISK="$TOP/out/tests/lyingdisk"
lying_seq=0

# Skips the whole test, before any output, without root or FUSE.
need_lying () {
	need_root
	[ -c /dev/fuse ] || test_skip_all "needs FUSE (/dev/fuse)"
	[ -x "$LYINGDISK" ] || test_bail "$LYINGDISK is not built: run make check"
}

# make_lying VAR SIZE [DIR]: sets VAR to a new loop device, with direct
# I/O, over a new lying disk of SIZE bytes (K, M, G allowed) mounted under
# DIR (default $TEST_TMP). Not in $( ): the cleanups it registers must
# reach this shell. They run last first: resume, detach the loop device,
# unmount, stop.
make_lying () {
	lying_seq=$((lying_seq + 1))
	if [ -n "$3" ]; then
		lying_m="$3/kiln-lying-$$-$lying_seq"
		test_at_exit "rm -f '$lying_m.pid'; rmdir '$lying_m'"
	else
		lying_m="$TEST_TMP/lying-$lying_seq"
	fi
	mkdir "$lying_m" || return 1
	# It returns once the mount is ready, leaving the daemon's pid.
	"$LYINGDISK" "$lying_m" --size "$2" --pidfile "$lying_m.pid" ||
		return 1
	test_at_exit "lying_stop '$lying_m'"
	lying_d=$(losetup -f --show --direct-io=on "$lying_m/disk") || return 1
	test_at_exit "losetup -d '$lying_d'"
	test_at_exit "printf 'resume\n' >'$lying_m/ctl'"
	eval "$1=\$lying_d"
}

# mount_lying VAR SIZE DIR: sets VAR to a new lying disk's mount point, a
# new folder in DIR (a FUSE filesystem there, as an NFS mount would be),
# with no loop device: MNT/disk is a regular file to burn. Not in $( ),
# as for make_lying. The cleanups wake a stopped daemon first (SIGCONT),
# then resume it, then stop it.
mount_lying () {
	lying_seq=$((lying_seq + 1))
	lying_m=$(mktemp -d "$3/kiln-lying-$$-$lying_seq.XXXXXX") || return 1
	"$LYINGDISK" "$lying_m" --size "$2" --pidfile "$lying_m.pid" || {
		rmdir "$lying_m"
		return 1
	}
	test_at_exit "rm -f '$lying_m.pid'; rmdir '$lying_m'"
	test_at_exit "lying_stop '$lying_m'"
	test_at_exit "printf 'resume\n' >'$lying_m/ctl'"
	test_at_exit "kill -CONT \$(cat '$lying_m.pid')"
	eval "$1=\$lying_m"
}

# lying_mnt DEV: the mount point of the lying disk under DEV; the daemon's
# pid is in MNT.pid.
lying_mnt () {
	lying_b=$(backing "$1") || return 1
	dirname "$lying_b"
}

# lying DEV COMMAND...: tells the lying disk under DEV to lie; fails when
# it refuses the command.
lying () {
	lying_c="$(lying_mnt "$1")/ctl" || return 1
	shift
	printf '%s\n' "$*" >"$lying_c" 2>/dev/null || {
		echo "lying: $lying_c refused '$*'"
		return 1
	}
}

# lying_get DEV KEY: one value of the lying disk's state (lines "KEY ...").
lying_get () {
	sed -n "s/^$2 //p" "$(lying_mnt "$1")/ctl"
}

# lying_until DEV KEY VALUE: waits (300 s at most) until KEY says VALUE, e.g.
# until a request is held: lying_until "$d" pending 1.
lying_until () {
	lying_n=0
	until [ "$(lying_get "$1" "$2")" = "$3" ]; do
		lying_n=$((lying_n + 1))
		# 300 s: only a daemon that never gets there ends the wait.
		[ "$lying_n" -le 3000 ] || {
			echo "lying: $2 is $(lying_get "$1" "$2"), not $3"
			return 1
		}
		sleep 0.1
	done
}

# lying_gone PID: the daemon has ended (its parent is gone, so it may stay
# a zombie until init reaps it).
lying_gone () {
	[ ! -e "/proc/$1" ] ||
		[ "$(sed -e 's/.*) //' "/proc/$1/stat" | cut -c1)" = Z ]
}

# lying_stop MNT: unmounts (lazily when the loop device will not let go
# within 5 s) and waits until the daemon has ended: it ends by itself once
# unmounted and let go of, else on SIGTERM after 5 s, else SIGKILL.
lying_stop () {
	lying_p=$(cat "$1.pid" 2>/dev/null)
	lying_n=0
	while grep -qs " $1 fuse" /proc/mounts; do
		umount "$1" 2>/dev/null && break
		lying_n=$((lying_n + 1))
		if [ "$lying_n" -ge 50 ]; then
			umount -l "$1"
			break
		fi
		sleep 0.1
	done
	[ -n "$lying_p" ] || return 0
	for lying_sig in TERM KILL; do
		lying_n=0
		while ! lying_gone "$lying_p" && [ "$lying_n" -lt 50 ]; do
			lying_n=$((lying_n + 1))
			sleep 0.1
		done
		lying_gone "$lying_p" && return 0
		kill "-$lying_sig" "$lying_p"
	done
}
