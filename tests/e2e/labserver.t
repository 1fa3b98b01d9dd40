#!/bin/sh
# slow: QEMU boots. A lab at small scale: two machines booted at once, each
# with its own DMI serial (so its own machine id), one with a disk whose
# reads fail, upload their run folders to Debian's nginx (boot/
# nginx-kiln.conf) and push their gauges to Debian's Pushgateway, both
# started here on loopback ports, which the guests reach through QEMU's
# user-mode network (10.0.2.2). The files arrive whole (the same bytes as
# on each stick), the gateway shows both machines while they burn and
# their verdicts after, and kiln fleet over the upload root lists both.
# Then boots with no stick, one a real PXE boot (SeaBIOS, QEMU's TFTP,
# pxelinux and its per-MAC entry): the results exist only at the server,
# and are complete; with no server, a minute of asking and exit 3 with no
# disk touched. Last, an upload over https through the image's curl to
# boot/nginx-kiln-tls.conf, with no password in any file.
. "$(dirname "$0")/../lib/e2e.sh"
. "$TOP/tests/lib/servers.sh"

[ -x "$NGINX" ] || test_skip_all "needs nginx (scripts/deps.list)"
[ -x "$PG" ] || test_skip_all "needs prometheus-pushgateway (scripts/deps.list)"
command -v openssl >/dev/null 2>&1 || test_skip_all "needs openssl (scripts/deps.list)"

servers_nginx || test_bail "nginx did not start with boot/nginx-kiln.conf"
servers_pushgateway || test_bail "the Pushgateway did not start"
# The guests' view of the host's loopback.
UP="http://10.0.2.2:$nginx_port/kiln-results/"
METRICS="http://10.0.2.2:$pg_port/"
# Long enough for a few pushes while the disks burn.
ARGS="kiln.upload=$UP kiln.metrics=$METRICS kiln.interval=1 kiln.duration=12s kiln.max-writes=0"

# machine NAME SERIAL [BAD]: boots a lab of two disks in the background,
# its stick's results copied to $TEST_TMP/NAME.results when it is done.
machine () {
	(
		lab_init "$TEST_TMP/$1"
		[ -z "${3:-}" ] || lab_errors one 20480
		lab_disk ahci one 24 "$2-ONE"
		lab_disk ahci two 24 "$2-TWO"
		lab_stick ""
		LAB_EXTRA="-smbios type=1,serial=$2"
		boot "$1" "$ARGS"
	) >"$TEST_TMP/$1.boot" 2>&1 &
}

# seen_running: both machines' runs were at the gateway while going.
seen=""
watch_gateway () {
	while kill -0 "$1" 2>/dev/null || kill -0 "$2" 2>/dev/null; do
		if gw_fetch live 2>/dev/null; then
			for m in SN-LAB-A SN-LAB-B; do
				gw_sample live kiln_run_state 0 "machine=$m" \
					>/dev/null && seen="$seen $m"
			done
		fi
		sleep 1
	done
}

test_expect_success 'two machines at once: both run to the end' '
	machine a SN-LAB-A bad && a=$! &&
	machine b SN-LAB-B && b=$! &&
	watch_gateway $a $b &&
	wait $a && wait $b &&
	grep_in "kiln-init: kiln run: FAIL" "$TEST_TMP/a.log" &&
	grep_in "kiln-init: kiln run: no disk failed" "$TEST_TMP/b.log"
'

test_expect_success 'the gateway showed both machines while they burned' '
	case "$seen" in *SN-LAB-A*) ;; *) false ;; esac &&
	case "$seen" in *SN-LAB-B*) ;; *) false ;; esac
'

test_expect_success 'every file arrived whole: the same bytes as on each stick, progress under its own names' '
	for m in a:SN-LAB-A b:SN-LAB-B; do
		name=${m%%:*} id=${m#*:} &&
		dir=$(ls -d "$TEST_TMP/$name.results/kiln-results/$id"/*/) &&
		n=0 &&
		for f in "$dir"*; do
			# The checkpoints went as progress/, each its own name.
			case ${f##*/} in checkpoint-*) continue ;; esac
			cmp "$f" "$NGINX_ROOT/$id/$(basename "$dir")/${f##*/}" ||
				return 1
			n=$((n + 1))
		done &&
		ls "$NGINX_ROOT/$id/$(basename "$dir")/progress" |
			grep -q "^checkpoint-[0-9]*\.json\$" &&
		[ "$n" -ge 6 ] || return 1
	done
'

# B's verdict is PASS, or a WARN its disks took from a loaded host (a
# stalled second, a slow read: steady() in tests/lib/e2e.sh), which the
# gateway and the fleet must then say as the stick does: CI runs this
# beside other QEMU guests, and B WARNed there once.
b_verdict () {
	run=$(ls -d "$TEST_TMP/b.results/kiln-results/SN-LAB-B"/*/) &&
	result "d[\"verdict\"] if all(steady(t) == \"PASS\" for t in d[\"targets\"]) else \"not steady\""
}

test_expect_success 'the gateway holds both verdicts at the end' '
	gw_fetch end &&
	gw_sample end kiln_run_state 1 machine=SN-LAB-A &&
	gw_sample end kiln_run_verdict 2 machine=SN-LAB-A &&
	gw_sample end kiln_run_state 1 machine=SN-LAB-B &&
	case $(b_verdict) in
	PASS) gw_sample end kiln_run_verdict 0 machine=SN-LAB-B ;;
	WARN) gw_sample end kiln_run_verdict 1 machine=SN-LAB-B ;;
	*) echo "B: $(b_verdict)"; false ;;
	esac
'

test_expect_success 'kiln fleet over the upload root: both, with their verdicts' '
	"$KILN" fleet --out "$TEST_TMP/fleet" "$NGINX_ROOT" >/dev/null &&
	grep -q "^\"SN-LAB-A\",\"FAIL\"" "$TEST_TMP/fleet/fleet.csv" &&
	grep -q "^\"SN-LAB-B\",\"$(b_verdict)\"" "$TEST_TMP/fleet/fleet.csv"
'

test_expect_success 'no stick, booted by PXE (pxelinux over TFTP, its MAC'"'"'s entry): the results live at the server, complete' '
	lab_init "$TEST_TMP/pxe" && lab_disk ahci one 24 SN-LAB-C-ONE &&
	(
		lab_pxe "panic=-1 $E2E_ARGS $ARGS" &&
		lab_firmware_boot seabios "$TEST_TMP/pxe.log" \
			-smbios type=1,serial=SN-LAB-C
	) &&
	grep_in "PXELINUX" "$TEST_TMP/pxe.log" &&
	grep_in "no stick: the results live at the lab server" \
		"$TEST_TMP/pxe.log" &&
	grep_in "kiln-init: no KILN stick found: results go to the lab server $UP and to the console" \
		"$TEST_TMP/pxe.log" &&
	! grep -a -q "console only" "$TEST_TMP/pxe.log" &&
	grep_in "kiln-init: kiln run: no disk failed" "$TEST_TMP/pxe.log" &&
	dir=$(ls -d "$NGINX_ROOT/SN-LAB-C"/*/) &&
	for f in summary.txt result.json report.html samples.csv \
		inventory.json kmsg.log ocptv.jsonl; do
		[ -s "$dir$f" ] || return 1
	done &&
	grep -q "BOOTIF=01-52-54-00-12-34-56" "${dir}kmsg.log" &&
	json_get "$dir/result.json" \
		"(d[\"state\"], d[\"results_complete\"], d[\"lab\"][\"upload\"][\"only_copy\"], d[\"lab\"][\"upload\"][\"not_arrived\"])" \
		>"$TEST_TMP/pxe.state" &&
	grep -qx "(.complete., True, True, \[\])" "$TEST_TMP/pxe.state"
'

# The power is cut once the run's second checkpoint is on the stick (read
# from the host), so the next boot has one to finish the run from,
# however slowly the guest ran.
test_expect_success 'a run cut off: finished at the next boot, and uploaded then' '
	lab_init "$TEST_TMP/cut" && lab_disk ahci one 24 SN-LAB-E-ONE &&
	lab_stick "" &&
	LAB_EXTRA="-smbios type=1,serial=SN-LAB-E" \
		LAB_UNTIL_CMD="MTOOLS_SKIP_CHECK=1 mdir -/ -b -i \"$lab_dir/stick.img@@1M\" ::kiln-results | grep -q /checkpoint-b.json" \
		boot cut1 "kiln.duration=60s kiln.max-writes=0 kiln.checkpoint=2 kiln.interval=1" &&
	LAB_EXTRA="-smbios type=1,serial=SN-LAB-E" \
		boot cut2 "kiln.upload=$UP kiln.span=4M" &&
	first=$(ls "$TEST_TMP/cut2.results/kiln-results/SN-LAB-E" | head -n 1) &&
	[ "$(json_get "$NGINX_ROOT/SN-LAB-E/$first/result.json" \
		"d[\"state\"]")" = interrupted ] || {
		grep -a "^kiln\|^upload" "$TEST_TMP/cut1.log" | tail -5
		grep -a "^kiln\|^upload" "$TEST_TMP/cut2.log" | head -20
		ls -R "$TEST_TMP/cut2.results/kiln-results" "$NGINX_ROOT/SN-LAB-E"
		false
	} &&
	cmp "$TEST_TMP/cut2.results/kiln-results/SN-LAB-E/$first/result.json" \
		"$NGINX_ROOT/SN-LAB-E/$first/result.json"
'

test_expect_success 'no stick, no server: a minute of asking, exit 3, nothing touched' '
	lab_init "$TEST_TMP/lost" && lab_disk ahci one 24 SN-LAB-D-ONE &&
	sum=$(md5sum <"$lab_dir/one.img") &&
	LAB_EXTRA="-smbios type=1,serial=SN-LAB-D" \
		boot lost "kiln.upload=http://10.0.2.2:$(free_port)/kiln-results/" &&
	grep_in "does not answer" "$TEST_TMP/lost.log" &&
	grep_in "nothing was touched" "$TEST_TMP/lost.log" &&
	grep_in "kiln-init: kiln run: could not run" "$TEST_TMP/lost.log" &&
	[ "$(md5sum <"$lab_dir/one.img")" = "$sum" ] &&
	[ ! -e "$NGINX_ROOT/SN-LAB-D" ]
'

# Last, as it replaces the plain nginx: the TLS one (boot/
# nginx-kiln-tls.conf) with a certificate for the guests' 10.0.2.2 and a
# password for the machine, the lab's CA on the stick beside kiln.cfg.
# arrived_or_said STICK DIR FILE: FILE reached the server whole, or, with
# a stick, result.json names it not arrived, with why. kiln waits for
# the server a bounded time (30 s with a stick: the stick has it all), so
# how much of the run folder arrives over TLS in an emulated CPU on a
# busy machine is the machine's speed; that nothing is lost unsaid is
# kiln's promise.
arrived_or_said () {
	if [ -e "$2$3" ]; then
		cmp "$1$3" "$2$3"
		return
	fi
	echo "# $3 did not reach the server; result.json says why:"
	json_get "$1result.json" \
		"[x for x in d[\"lab\"][\"upload\"][\"not_arrived\"] if x[\"file\"] == \"$3\" and x[\"why\"]]" |
		tee "$TEST_TMP/said" | sed "s/^/# /"
	grep -q "$3" "$TEST_TMP/said"
}

test_expect_success 'over https through the image'"'"'s curl: the run folder arrives, no password anywhere' '
	stop_nginx &&
	servers_pki 10.0.2.2 &&
	servers_htpasswd SN-LAB-T:pw-lab-tee &&
	NGINX_SITE=boot/nginx-kiln-tls.conf &&
	NGINX_GW_PORT=$pg_port &&
	servers_nginx &&
	lab_init "$TEST_TMP/tls" && lab_disk ahci one 24 SN-LAB-T-ONE &&
	lab_stick "ca=lab-ca.pem" &&
	MTOOLS_SKIP_CHECK=1 mcopy -i "$lab_dir/stick.img@@1M" "$PKI/ca.pem" \
		::lab-ca.pem &&
	LAB_EXTRA="-smbios type=1,serial=SN-LAB-T" boot tls \
		"kiln.upload=https://SN-LAB-T:pw-lab-tee@10.0.2.2:$nginx_port/kiln-results/ kiln.span=4M" &&
	grep_in "kiln-init: kiln run: no disk failed" "$TEST_TMP/tls.log" &&
	grep_in "results go to https://10.0.2.2:$nginx_port/kiln-results/SN-LAB-T/" \
		"$TEST_TMP/tls.log" &&
	dir=$(ls -d "$NGINX_ROOT/SN-LAB-T"/*/) &&
	stick=$(ls -d "$TEST_TMP/tls.results/kiln-results/SN-LAB-T"/*/) &&
	cmp "${stick}result.json" "${dir}result.json" &&
	arrived_or_said "$stick" "$dir" kmsg.log &&
	! grep -a -r pw-lab-tee "$TEST_TMP/tls.log" "$TEST_TMP/tls.results" \
		"$dir"
'

e2e_done
