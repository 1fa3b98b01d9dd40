/* SPDX-License-Identifier: MIT */
/*
 * Description: the one table of the keys kiln understands: each key's
 * type, default, help and the commands that take it. Usage texts, kiln
 * settings, the defaults and kiln.cfg(5)'s list of keys (kiln --man
 * keys, docs/kiln.cfg.5) are all read from it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/kiln.h"
#include "base/roff.h"
#include "settings/keys.h"
#include "settings/settings.h"

static const char *const modes[] = { "write-verify", "write", "verify",
				     "read", NULL };
static const char *const profiles[] = { "smoke", "burnin", "soak",
					"powercut", "erase", NULL };
static const char *const afters[] = { "wait", "poweroff", "reboot", "shell",
				      NULL };
/* In the order of enum settings_stress's bits: off 0, memory 1, cpu 2. */
static const char *const stresses[] = { "off", "memory", "cpu",
					"memory,cpu", NULL };
static const char *const selftests[] = { "none", "short", "long", NULL };
static const char *const ledss[] = { "off", "fail", NULL };
static const char *const labcfgs[] = { "optional", "required", NULL };
/* In the order of enum settings_end. */
static const char *const ends[] = { "keep", "discard", "zero", "sanitize",
	NULL };
static const char *const fallbacks[] = { "none", "zero", NULL };
/* In the order of enum settings_hidden. */
static const char *const hiddens[] = { "keep", "restore", NULL };

#define F(field) offsetof(struct settings, field)
#define GLOBS "globs of serials, WWNs, models, names or PCI addresses"
#define B SCOPE_BURN
#define R SCOPE_RUN
#define TEST (SCOPE_BURN | SCOPE_RUN)
#define OPT SCOPE_OPTION_ONLY

/*
 * Sorted by name: usage texts, kiln settings and kiln.cfg(5) list them so. A
 * key with a default of its own for some commands ends its entry with
 * { SCOPES, "default" } (.other); the rest leave it out, zero.
 */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
static const struct settings_key keys[] = {
	{ "after", KEY_ENUM, F(after), 0, 0, afters,
	  "wait, poweroff, reboot or shell", "wait",
	  "what the image does after a run: wait (the verdict stays on "
	  "screen), poweroff, reboot or shell", R | SCOPE_INIT },
	{ "auth-token", KEY_SECRET, F(auth_token), 0, 0, NULL,
	  "a token, one word", "none",
	  "a Bearer token sent to the lab's servers (upload, metrics, lab) "
	  "instead of the URL's user part; never shown (said as ***)", TEST },
	{ "bmc", KEY_FLAG, F(bmc), 0, 0, NULL, "1 or 0", "1",
	  "the BMC's event log read before and after the burn (in-band, "
	  "ipmitool): an entry added of a power supply failure, a critical "
	  "temperature, uncorrectable ECC, a bus fatal error, a processor "
	  "error or a watchdog firing FAILs the machine, others are listed; "
	  "a log unread, cleared or wrapped WARNs; no BMC is said once; its "
	  "address goes to the fleet page; powercut cycles the power "
	  "through it", TEST, { B, "0" } },
	{ "bs", KEY_SIZE, F(bs), 0, 0, NULL, "a multiple of 4 KiB up to 64 MiB "
	  "such as 128k, 1M or 4M", "1M",
	  "bytes a request, a multiple of 4 KiB up to 64 MiB (128k, 4M)",
	  TEST },
	{ "ca", KEY_STRING, F(ca), 0, 0, NULL, "a PEM file",
	  "the image's " SETTINGS_LAB_CA " when built in",
	  "the lab's CA, trusted for https:// upload, metrics and lab "
	  "(kiln run: a path relative to the stick); without it the image's "
	  "own, from make image LAB_CA=FILE", TEST },
	{ "checkpoint", KEY_UINT, F(checkpoint), 1, 86400, NULL,
	  "seconds, 1 to 86400", "60",
	  "seconds between result checkpoints", TEST },
	{ "claim", KEY_STRING, F(claim), 0, 0, NULL,
	  "https://HOST[:PORT]/claim/", "none",
	  "the lab server's one-time token claim (scripts/labserver.sh "
	  "renders it on each machine's entry): at boot the image POSTs "
	  "URL<machine id> once, trusting the lab's CA, and gives the token "
	  "to kiln run as the password of upload, metrics and lab where "
	  "they are https:// and name no user; a refused claim is said on "
	  "the console (the init reads it)", R | SCOPE_INIT },
	{ "cmdline", KEY_STRING, F(cmdline), 0, 0, NULL, "a file",
	  "/proc/cmdline",
	  "the kernel command line to read kiln.KEY=VALUE from", R | OPT },
	{ "config", KEY_STRING, F(config), 0, 0, NULL, "a file",
	  "ROOT/kiln.cfg", "the kiln.cfg to read", R | OPT },
	{ "countdown", KEY_UINT, F(countdown), 0, 3600, NULL,
	  "seconds, 0 to 3600", "10",
	  "seconds of countdown before anything is overwritten; a key on any "
	  "console stops it; 0 on a factory line", R },
	{ "deadline", KEY_UINT, F(deadline), 1, 86400, NULL,
	  "seconds, 1 to 86400", "60",
	  "seconds a request (or a read before the burn) may take before its "
	  "disk is stalled and FAILs", TEST | SCOPE_DISCOVER | SCOPE_PROBE },
	{ "destroy-data", KEY_CONSENT, F(destroy_data), 0, 0, NULL,
	  "1 or 0 (yes/no, true/false, on/off), or serials, WWNs and "
	  "identities separated by commas", "0",
	  "consent to overwrite disks that hold data: 1 for all, or serials, "
	  "WWNs or identities (loop:/path) separated by commas, disk by disk",
	  TEST },
	{ "duration", KEY_DURATION, F(duration), 0, 0, NULL,
	  "a time such as 90s, 30m, 12h, 2d or 1h30m", "none",
	  "repeat passes until this much time has gone (90s, 30m, 12h, 2d, "
	  "1h30m); a pass it cuts short still verifies what it wrote", TEST },
	{ "end", KEY_ENUM, F(end), 0, 0, ends,
	  "keep, discard, zero or sanitize", "keep",
	  "how each disk is left after the burn's last verify, when it "
	  "PASSed or WARNed and this run wrote the whole disk (under consent "
	  "or its class): keep (kiln's units stay), discard (the whole disk "
	  "deallocated: TRIM, UNMAP, NVMe deallocate), zero (written with "
	  "zeros) or sanitize (the drive's own command, chosen from what it "
	  "says it has: NVMe Sanitize crypto, block or overwrite, else Format "
	  "NVM with secure erase; a disk with none is said and left, or "
	  "zeroed with sanitize-fallback=zero), then read back (end-verify) and a certificate written per "
	  "disk (cert-SERIAL.json, .html) and for the machine "
	  "(cert-machine.html); kiln burn: a target it cannot be applied to "
	  "is a usage error", TEST },
	{ "end-failed", KEY_FLAG, F(end_failed), 0, 0, NULL, "1 or 0", "0",
	  "apply end to a FAILed disk too (by default a FAILed disk is left "
	  "as it is, for its RMA; under profile=erase the default is 1: a "
	  "disk that FAILed before its end step is erased anyway, so a "
	  "machine back from a customer never leaves with its data)", TEST },
	{ "end-verify", KEY_PERCENT, F(end_verify), 1, 100, NULL,
	  "a percentage such as 1%", "1%",
	  "the share of each disk read back after end (besides its first "
	  "and last MiB, evenly spread), as NIST SP 800-88 asks that "
	  "sanitization be validated", TEST },
	{ "exclude", KEY_STRING, F(exclude), 0, 0, NULL, GLOBS, "none",
	  "disks never to touch: globs of serials, WWNs, models, kernel "
	  "names, controller PCI addresses or drivers, separated by commas "
	  "(a model with spaces in it matches whole); a glob that matches "
	  "no disk is said", R,
	  { 0, NULL }, "it chooses among the disks it finds; kiln burn tests "
	  "the targets it is given" },
	{ "expect", KEY_STRING, F(expect), 0, 0, NULL, "an expect file",
	  "none (kiln run: the lab server's, else ROOT/expect.cfg when there)",
	  "the expected machine (kiln.cfg(5), EXPECT FILE): CPU, "
	  "memory, DIMMs, disks by model, firmware and size, controllers' PCIe "
	  "links, NICs' speeds; each difference FAILs the machine; a file "
	  "that does not parse is a bad setting; kiln discover: says each "
	  "difference and exits 1 on any", TEST | SCOPE_DISCOVER },
	{ "expect-out", KEY_STRING, F(expect_out), 0, 0, NULL, "a file",
	  "none", "kiln discover: write an expect file of this machine, "
	  "which then matches it", SCOPE_DISCOVER | OPT },
	{ "expect-disks", KEY_UINT, F(expect_disks), 0, 100000, NULL,
	  "a count, 0 for any", "0",
	  "fewer disks found (kiln burn: targets tested; a target named that "
	  "is not there is then one missing, not a usage error) is a FAIL (a "
	  "disk is missing); 0: any", TEST },
	{ "from", KEY_STRING, F(from), 0, 0, NULL, "a run folder", "none",
	  "kiln burn --mode verify: the run folder of the write to check; its "
	  "result.json says the run id, each disk by identity, its region "
	  "and the last pass written, so a shrunk disk and a lost or reverted "
	  "pass FAIL", B },
	{ "get", KEY_STRING, F(get), 0, 0, NULL, "a key", "none",
	  "print the value in force of one key", SCOPE_SETTINGS | OPT },
	{ "hidden", KEY_ENUM, F(hidden), 0, 0, hiddens, "keep or restore",
	  "keep",
	  "capacity a disk hides from the OS, found at discovery and always "
	  "said: keep (left hidden, with what an operator must do) or "
	  "restore (only on a disk destroy-data names, before its burn: an "
	  "NVMe namespace allocated and not attached is attached to this "
	  "controller and the kernel asked to rescan, where it becomes a "
	  "disk of its own, which this run does not test; an ATA HPA is "
	  "removed until the next power cycle by SET MAX ADDRESS to the "
	  "native max, so the burn and end reach the whole disk; a DCO and "
	  "unallocated NVM capacity are never changed, said why)", TEST },
	{ "include", KEY_STRING, F(include), 0, 0, NULL, GLOBS, "all",
	  "disks to test: the same globs as exclude; given, kiln run also "
	  "finds device-mapper devices (dm-N, the dm uuid as serial), such "
	  "as a lab's flaky map over a disk", R,
	  { 0, NULL }, "it chooses among the disks it finds; kiln burn tests "
	  "the targets it is given" },
	{ "interval", KEY_UINT, F(interval), 1, 3600, NULL,
	  "seconds, 1 to 3600", "10", "seconds between status lines", TEST,
	  { SCOPE_TTY, "1" } },
	{ "iperf", KEY_STRING, F(iperf), 0, 0, NULL,
	  "iperf3 servers: HOST[:PORT][,HOST[:PORT]]...", "none",
	  "iperf3 servers: iperf3 on every NIC with a link and an address for "
	  "the whole burn, NIC k (in name order) to the k-th server if several "
	  "are given, else to the one, on PORT+k (PORT 5201 unless given); the "
	  "image then takes DHCP on every NIC", TEST | SCOPE_INIT },
	{ "iperf-min", KEY_PERCENT, F(iperf_min), 0, 100, NULL,
	  "a percentage such as 50%", "50%",
	  "a port whose mean iperf3 rate is below this share of its link "
	  "speed WARNs", TEST },
	{ "json", KEY_FLAG, F(json), 0, 0, NULL, "1 or 0", "0",
	  "the result (or inventory) document on stdout, everything else on "
	  "stderr", TEST | SCOPE_DISCOVER | SCOPE_PROBE },
	{ "lab", KEY_STRING, F(lab), 0, 0, NULL,
	  "a lab server: http[s]://[USER:PASSWORD@]HOST[:PORT]/PATH/",
	  "none",
	  "the lab server's base URL: kiln run reads its settings from "
	  "LAB/config/<machine id>.cfg, else LAB/config/default.cfg (after "
	  "kiln.cfg, before the kernel command line)", R },
	{ "lab-config", KEY_ENUM, F(lab_config), 0, 0, labcfgs,
	  "optional or required", "optional",
	  "optional: a lab server that does not answer is said and the run "
	  "goes on with the stick's settings; required: it is NOT STARTED, "
	  "exit 3", R },
	{ "job-id", KEY_STRING, F(job_id), 0, 0, NULL, "a job id, one word",
	  "none", "the lab's job or ticket this run belongs to, printed on "
	  "the certificates", TEST },
	{ "leds", KEY_ENUM, F(leds), 0, 0, ledss, "fail or off", "fail",
	  "fail: at the end the fault LED of every FAILed disk's enclosure "
	  "bay is lit and left lit (SES, else ledmon's ledctl), and at the "
	  "start the fault LEDs of the disks tested are cleared; off: kiln "
	  "leaves every LED alone", TEST, { B, "off" } },
	{ "link-errors-fail", KEY_UINT, F(link_errors_fail), 1, 1000000000,
	  NULL, "a count, 1 or more", "100",
	  "growth of one link error counter during the run (a SAS phy's, a "
	  "SATA drive's phy events, a SAS drive's port log) at or past this "
	  "FAILs its disk; any growth WARNs; growth on every phy of one HBA "
	  "or expander is said on its controller and WARNs its disks", TEST },
	{ "machine-id", KEY_STRING, F(machine_id), 0, 0, NULL,
	  "letters, digits and ._- (at most 63)", "the machine's serial",
	  "the machine's id, for a machine whose serial is a placeholder "
	  "(docs/results.md lists those kiln knows): its folder, its uploads' "
	  "and metrics' name, its line on the fleet page",
	  TEST | SCOPE_DISCOVER },
	{ "max-detail", KEY_UINT, F(max_detail), 0, 100000, NULL, "a count",
	  "100", "errors and bad units listed per disk (all are counted); a "
	  "run lists 32768 of each in all, so among many disks each lists "
	  "its share when that is less", TEST },
	{ "max-writes", KEY_MAXW, F(max_writes), 0, 1000000, NULL,
	  "a count of whole-disk writes, 0 for no cap", "2 on flash",
	  "whole-disk writes allowed, later passes only verify, so a soak "
	  "does not wear out SSDs (2 on non-rotational disks, else none); "
	  "0: no cap", TEST },
	{ "metrics", KEY_STRING, F(metrics), 0, 0, NULL,
	  "a Pushgateway: http[s]://[USER:PASSWORD@]HOST:PORT/", "none",
	  "a Prometheus Pushgateway (http[s]://HOST:PORT/): every interval each "
	  "disk's gauges (phase, bytes, MB/s, errors, bad units, verdict) are "
	  "pushed under job=kiln, machine=<machine id>", TEST | SCOPE_INIT },
	{ "mode", KEY_ENUM, F(mode), 0, 0, modes,
	  "write-verify, write, verify or read", "write-verify",
	  "write-verify, write (verify after a power cycle), verify (what a "
	  "write left) or read (never writes)", TEST },
	{ "net", KEY_FLAG, F(net), 0, 0, NULL, "1 or 0", "0",
	  "the image takes DHCP even when not PXE-booted (the init reads it)",
	  R | SCOPE_INIT },
	{ "off", KEY_FLAG, F(off), 0, 0, NULL, "1 or 0", "0",
	  "kiln locate: clear the disk's locate LED instead of lighting it",
	  SCOPE_LOCATE | OPT },
	{ "offset", KEY_SIZE, F(offset), 0, 0, NULL,
	  "a size such as 0, 1M or 10G", "0",
	  "start this far into each disk", TEST },
	{ "out", KEY_STRING, F(out), 0, 0, NULL, "a folder", "none",
	  "kiln burn: the run folder, absent or empty (default: a new one "
	  "under ./kiln-results/<machine id>/); kiln fleet: the folder for "
	  "fleet.html and fleet.csv (default: the current one)",
	  B | SCOPE_FLEET },
	{ "operator", KEY_STRING, F(operator_id), 0, 0, NULL,
	  "an operator's name or id", "none",
	  "who ran the test, printed on the certificates", TEST },
	{ "passes", KEY_UINT, F(passes), 1, 1000000, NULL, "a count, 1 or more",
	  "1", "passes to make; each writes a new pass number, so stale data "
	  "is caught (with duration: as many as it allows)", TEST },
	{ "powercut-file", KEY_STRING, F(powercut_file), 0, 0, NULL, "a file",
	  "none", "kiln run: the file it writes once a power-cut test's "
	  "writes are flushed (it holds bmc, or none without a BMC), so the "
	  "init syncs and unmounts the stick and then has the BMC cycle the "
	  "power (the image's init gives it)", R | OPT },
	{ "profile", KEY_ENUM, F(profile), 0, 0, profiles,
	  "smoke, burnin, soak, powercut or erase", "burnin",
	  "smoke (a quick span, one pass: minutes), burnin (one whole "
	  "write-verify pass), soak (passes until duration, 12 h unless set), "
	  "powercut (kiln run alone: write and flush one pass, then CUT THE "
	  "POWER: the next boot verifies what the disks kept), erase (a "
	  "machine back from a customer: no pass at all, each disk that "
	  "destroy-data names gets only its end step, read back, and its "
	  "certificate; end is sanitize with sanitize-fallback=zero unless "
	  "given, end=keep is a usage error)", TEST },
	{ "protect", KEY_PATHS, F(protect), 0, 0, NULL, "a block device",
	  "none", "a device never to touch, not even with destroy-data (the "
	  "boot or results medium); may be given again",
	  R | SCOPE_DISCOVER | OPT },
	{ "page", KEY_UINT, F(page), 10, 1000000, NULL,
	  "a count from 10 to 1000000", "1000",
	  "kiln fleet: machines a page; past it fleet.html holds the first "
	  "(failures first) and fleet-2.html, fleet-3.html ... the rest, "
	  "each linking every page, so a browser opens each quickly",
	  SCOPE_FLEET | OPT },
	{ "qd", KEY_UINT, F(qd), 1, 256, NULL, "a count from 1 to 256", "8",
	  "requests in flight per disk, 1-256; fewer for every disk when "
	  "their buffers do not fit the memory (a note says so)", TEST },
	{ "refused", KEY_STRING, F(refused), 0, 0, NULL, "a file", "none",
	  "kiln fleet: the lab server's refused token claims, a line each "
	  "(scripts/labserver.sh's DIR/state/refused), shown at the top of "
	  "the page: how many, and the last of them", SCOPE_FLEET | OPT },
	{ "results", KEY_STRING, F(results), 0, 0, NULL, "a folder", "none",
	  "where run folders go: ROOT/kiln-results/MACHINE/RUN/", R | OPT },
	{ "run-id", KEY_RUNID, F(run_id), 0, 0, NULL, "1 to 16 hex digits",
	  "random", "with mode verify only: the run id (hex) of the write to "
	  "check; a run that writes always draws a new one", TEST },
	{ "reread", KEY_FLAG, F(reread), 0, 0, NULL, "1 or 0", "1",
	  "after the burn, each disk's slowest requests read again, alone, "
	  "at qd 1, 4 KiB at a time, for their latency (a read that fails "
	  "or stalls FAILs the disk); 0: not read again, for a line whose "
	  "takt time is short (the burn's own request times are still "
	  "judged)", TEST },
	{ "sanitize-fallback", KEY_ENUM, F(sanitize_fallback), 0, 0,
	  fallbacks, "none or zero", "none",
	  "end=sanitize on a disk with no sanitize command kiln sends (one "
	  "that says it has none, refuses the question, or is neither NVMe, "
	  "ATA nor SCSI): none "
	  "(left as it is, its units of this run still there, said) or zero "
	  "(written with zeros as end=zero, and said so)", TEST },
	{ "save-units", KEY_UINT, F(save_units), 0, 1000, NULL, "a count", "4",
	  "bad units saved whole per disk, with what was expected", TEST },
	{ "selftest", KEY_ENUM, F(selftest), 0, 0, selftests,
	  "none, short or long", "none",
	  "after the burn, a SMART or NVMe self-test on every disk that has "
	  "one: short (minutes) or long (hours); one that fails FAILs its "
	  "disk", TEST },
	{ "sensors", KEY_DURATION, F(sensors), 0, 0, NULL,
	  "a time such as 30s, 5m or 1h; 0: at the start and end only", "60",
	  "seconds between samples of the machine's own signals (drive "
	  "temperatures and SMART/NVMe counters through smartctl, hwmon, "
	  "EDAC, PCIe AER); 0: only at the start and the end", TEST },
	{ "settle", KEY_UINT, F(settle), 1, 3600, NULL, "seconds, 1 to 3600",
	  "60", "seconds the init waits at most for the set of disks to stop "
	  "changing (RAID firmware can take 40 s and more)", R | SCOPE_INIT },
	{ "size", KEY_SIZE, F(size), 0, 0, NULL, "a size such as 64M or 10G",
	  "none", "kiln burn: the size of a file target it creates", B },
	{ "slow-fail", KEY_UINT, F(slow_fail), 0, 100, NULL,
	  "a percentage, 0 to 100", "50",
	  "a disk whose solo rate is below this percentage of the median of "
	  "three or more like disks' solo rates FAILs as slow (needs solo); "
	  "0: never; not above slow-warn (the default follows a lower one)",
	  TEST },
	{ "slow-warn", KEY_UINT, F(slow_warn), 1, 100, NULL,
	  "a percentage, 1 to 100", "85",
	  "a disk whose rate (or time to finish) is worse than this "
	  "percentage of the median of three or more like disks (model, "
	  "firmware, capacity, controller) WARNs as slow", TEST },
	{ "solo", KEY_DURATION, F(solo), 0, 0, NULL,
	  "a time such as 30s or 2m, 0 for none", "0",
	  "before the burn, read each disk alone this long, so a slow disk "
	  "is told from a busy controller and the controller's limit from "
	  "the drives'; 0: no solo phase", TEST },
	{ "span", KEY_SPAN, F(span), 0, 0, NULL,
	  "a size such as 10G, or quick, or quick:SIZE", "to the end",
	  "test this much from offset; quick or quick:SIZE tests SIZE (3 GiB) "
	  "in three pieces at the start, middle and end", TEST },
	{ "stale", KEY_DURATION, F(stale), 0, 0, NULL,
	  "a time such as 90s, 10m or 2h", "10m",
	  "kiln fleet: a run with checkpoints and no result.json whose "
	  "newest checkpoint is older than this was cut off; a younger one "
	  "is still running", SCOPE_FLEET | OPT },
	{ "stress", KEY_ENUM, F(stress), 0, 0, stresses,
	  "memory,cpu, memory, cpu or off", "memory,cpu",
	  "stressapptest beside the burn, below the disks in priority: "
	  "memory (copy threads over stress-memory), cpu (a thread on every "
	  "core) or both; a miscompare FAILs the machine, a stress that "
	  "could not start or died WARNs it", TEST, { B, "off" } },
	{ "stress-memory", KEY_SHARE, F(stress_memory), 1, 100, NULL,
	  "a size such as 2G, or a percentage such as 80%", "80%",
	  "memory the stress takes: a size, or a percentage of what kiln's "
	  "memory plan leaves once its buffers and its margin are held; "
	  "less when less is left (said)", TEST },
	{ "sysfs-root", KEY_STRING, F(sysfs_root), 0, 0, NULL, "a folder",
	  "/sys", "read a captured sysfs tree instead of the machine's "
	  "(no disk is read); kiln burn: for the machine's sensors (hwmon, "
	  "EDAC, AER) and the disks' enclosure bays and LEDs only, as tests "
	  "do", SCOPE_DISCOVER | SCOPE_LOCATE | B | OPT },
	{ "table-interval", KEY_UINT, F(table_interval), 0, 86400, NULL,
	  "seconds, 0 to 86400", "60",
	  "seconds between per-disk tables on the console (each disk's MB/s "
	  "written and read, done and time left, by controller, the slowest "
	  "marked); 0: none",
	  TEST, { SCOPE_TTY, "10" } },
	{ "temp-warn", KEY_UINT, F(temp_warn), 0, 150, NULL,
	  "degrees Celsius, 0 to 150", "0",
	  "degrees Celsius at which a drive's temperature WARNs, for every "
	  "drive; 0: the drive's own limit when it reports one, else 60 for "
	  "HDDs and 70 for SSDs", TEST },
	{ "upload", KEY_STRING, F(upload), 0, 0, NULL,
	  "a server taking PUT: http[s]://[USER:PASSWORD@]HOST[:PORT]/PATH/",
	  "none",
	  "a lab server taking HTTP PUT (http[s]://HOST[:PORT]/PATH/, a user "
	  "part sent as Basic auth): the run "
	  "folder goes to PATH/<machine id>/<run folder>/ (its name with "
	  "the run id), each file created and never replaced: checkpoints "
	  "under progress/ as the run goes and every file at the end; "
	  "without a stick it is where the results live", TEST | SCOPE_INIT },
};
#pragma GCC diagnostic pop

#define NKEYS ((int)(sizeof(keys) / sizeof(keys[0])))

_Static_assert(sizeof(keys) / sizeof(keys[0]) <= SETTINGS_MAX_KEYS,
	       "struct settings keeps a source per key");

const char *settings_mode_name(int mode)
{
	return mode >= 0 && mode <= SETTINGS_READ ? modes[mode] : "unknown";
}

const struct settings_key *settings_key_at(int i)
{
	return i >= 0 && i < NKEYS ? &keys[i] : NULL;
}

const struct settings_key *settings_key(const char *name)
{
	int i;

	for (i = 0; i < NKEYS; i++)
		if (!strcmp(keys[i].name, name))
			return &keys[i];
	return NULL;
}

int settings_key_is_flag(const struct settings_key *k)
{
	return k->type == KEY_FLAG || k->type == KEY_CONSENT;
}

int settings_key_index(const struct settings_key *k)
{
	return (int)(k - keys);
}

const char *settings_key_as_given(int source, const char *key, char *buf,
				  size_t len)
{
	if (source != SOURCE_OPTION)
		return key;
	snprintf(buf, len, "--%s", key);
	return buf;
}

const char *settings_key_default(const struct settings_key *k,
				 unsigned command)
{
	return k->other.def && (k->other.scope & command) ? k->other.def :
							     k->def;
}

/* "kiln burn", or "kiln burn, kiln probe": the commands of a scope. */
static void commands_of(FILE *f, unsigned scope);

void settings_key_elsewhere(const struct settings_key *k, char *buf,
			    size_t len)
{
	unsigned scope = k->scope & ~(SCOPE_INIT | SCOPE_OPTION_ONLY);
	FILE *f = fmemopen(buf, len, "w");

	if (!f) {
		snprintf(buf, len, "--%s is not this command's", k->name);
		return;
	}
	/* kiln run's scope is kiln settings' too: kiln run is the name. */
	if (scope != SCOPE_SETTINGS)
		scope &= ~SCOPE_SETTINGS;
	fprintf(f, "--%s is %s", k->name, scope & (scope - 1) ? "for " : "");
	if (scope == SCOPE_SETTINGS)
		fprintf(f, "kiln settings'");
	else
		commands_of(f, scope);
	fprintf(f, "%s", scope & (scope - 1) || scope == SCOPE_SETTINGS ? "" :
		"'s");
	if (k->elsewhere)
		fprintf(f, ": %s", k->elsewhere);
	fclose(f);
}

static void commands_of(FILE *f, unsigned scope)
{
	static const struct {
		unsigned scope;
		const char *name;
	} names[] = {
		{ SCOPE_RUN, "run" }, { SCOPE_BURN, "burn" },
		{ SCOPE_DISCOVER, "discover" }, { SCOPE_PROBE, "probe" },
		{ SCOPE_FINISH, "finish" }, { SCOPE_FLEET, "fleet" },
		{ SCOPE_LOCATE, "locate" },
		{ SCOPE_TTY, "burn on a terminal" },
	};
	size_t i;
	int n = 0;

	for (i = 0; i < ARRAY_SIZE(names); i++)
		if (scope & names[i].scope)
			fprintf(f, "%skiln %s", n++ ? ", " : "", names[i].name);
}

/* The commands that take k whose default is not kiln run's. */
static unsigned not_as_run(const struct settings_key *k)
{
	unsigned other = k->other.def ? k->other.scope : 0;

	if (!other || !strcmp(k->other.def, k->def))
		return 0;
	/* kiln run has the other default: those with .def differ. */
	/* On a terminal is no command of its own, but said as one. */
	if (other & SCOPE_TTY)
		return SCOPE_TTY;
	if (other & SCOPE_RUN)
		other = ~other;
	return k->scope & other & ~SCOPE_RUN;
}

void settings_man_from(FILE *f, const struct settings_key *k, int n)
{
	unsigned rest, takers;
	char *text;
	size_t len;
	FILE *m;
	int i;

	for (i = 0; i < n; i++, k++) {
		if (k->scope & SCOPE_OPTION_ONLY)
			continue;
		fprintf(f, ".TP\n.B ");
		roff_literal(f, k->name);
		fputc('\n', f);
		text = NULL;
		m = open_memstream(&text, &len);
		if (!m) {
			fprintf(f, "(out of memory)\n");
			continue;
		}
		fprintf(m, "%s. Value: %s; default: %s", k->help, k->want,
			settings_key_default(k, SCOPE_RUN));
		rest = not_as_run(k);
		if (rest) {
			fprintf(m, " (");
			commands_of(m, rest);
			fprintf(m, ": %s)", settings_key_default(k, rest));
		}
		/* kiln settings shows kiln run's: kiln run is the name. */
		takers = k->scope & ~(SCOPE_INIT | SCOPE_SETTINGS);
		fprintf(m, ". Taken by ");
		commands_of(m, takers);
		if (k->scope & SCOPE_INIT)
			fprintf(m, "; read by the init before kiln starts, so "
				"from kiln.cfg or the kernel command line, "
				"never the lab server");
		else if (!(k->scope & SCOPE_RUN))
			fprintf(m, "; on the command line only (kiln.cfg and "
				"the kernel command line are kiln run's)");
		fprintf(m, ".");
		fclose(m);
		roff_text(f, text ? text : "(out of memory)");
		free(text);
	}
}

void settings_man(FILE *f)
{
	settings_man_from(f, keys, NKEYS);
}
