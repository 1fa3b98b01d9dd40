/* SPDX-License-Identifier: MIT */
/*
 * Description: kiln's settings: sizes, times and counts are read exactly
 * or refused with a reason; a command line sets keys and collects targets;
 * every bad input is an error, never a silent default.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../lib/tap.h"
#include "settings/keys.h"
#include "settings/options.h"
#include "settings/settings.h"

/* A command that takes every key kiln burn and kiln run take. */
static const struct options_cmd any_cmd = {
	"test", "[OPTIONS] ARG...", "", SCOPE_BURN | SCOPE_RUN | SCOPE_SETTINGS,
};

static int size_is(const char *text, uint64_t want)
{
	uint64_t v = 0;

	return settings_parse_size(text, &v) == 0 && v == want;
}

static int size_bad(const char *text)
{
	uint64_t v = 12345;

	return settings_parse_size(text, &v) < 0 && v == 12345;
}

static int duration_is(const char *text, uint64_t want)
{
	uint64_t v = 0;

	return settings_parse_duration(text, &v) == 0 && v == want;
}

static int duration_bad(const char *text)
{
	uint64_t v;

	return settings_parse_duration(text, &v) < 0;
}

/* Parses a command line given as one string of words. */
static int parse(struct settings *s, char *line, char **args, int *nargs,
		 char *err, size_t errlen)
{
	char *argv[32], *save = NULL, *w;
	int argc = 0;

	argv[argc++] = "test";
	for (w = strtok_r(line, " ", &save); w && argc < 32;
	     w = strtok_r(NULL, " ", &save))
		argv[argc++] = w;
	settings_defaults(s, any_cmd.scope);
	return options_parse(s, &any_cmd, argc, argv, args, nargs, err, errlen);
}

static int bad_line(const char *line, const char *want)
{
	struct settings s;
	char copy[256], err[256] = "", *args[32];
	int n, ret, ok;

	snprintf(copy, sizeof(copy), "%s", line);
	ret = parse(&s, copy, args, &n, err, sizeof(err));
	if (!ret)
		ret = settings_check(&s, err, sizeof(err));
	ok = ret == -EINVAL && strstr(err, want) && !strchr(err, '\n');
	if (!ok)
		tap_diag("'%s': ret %d, err '%s', want '%s'", line, ret, err,
			 want);
	settings_free(&s);
	return ok;
}

/*
 * kiln.cfg(5)'s list of keys is settings_man()'s, character for character
 * (make man writes it there: scripts/manual.sh).
 */
static void test_manual(void)
{
	char *keys = NULL, *page = tap_man_part("docs/kiln.cfg.5", "keys");
	size_t len = 0;
	FILE *f = open_memstream(&keys, &len);

	settings_man(f);
	fclose(f);
	if (!page)
		tap_skip("docs/kiln.cfg.5 or its keys not found (run from the "
			 "top of the tree)");
	else if (!tap_ok(!strcmp(page, keys), "kiln.cfg(5)'s keys are the "
			 "key table's own (make man makes them again)"))
		tap_diag("settings_man() says:\n%s", keys);
	free(page);
	free(keys);
}

#define F(field) offsetof(struct settings, field)
#define TEST (SCOPE_BURN | SCOPE_RUN)

/*
 * A default of a key's own for one command (stress will be memory,cpu for
 * kiln run and off for kiln burn): no key of kiln's has one yet, so a
 * made-up table shows each command gets its own, and kiln.cfg(5) both.
 */
static void test_other_default(void)
{
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
	static const struct settings_key made_up[] = {
		{ "interval", KEY_UINT, F(interval), 1, 3600, NULL, "seconds",
		  "10", "between status lines", TEST, { SCOPE_RUN, "30" } },
		{ "qd", KEY_UINT, F(qd), 1, 256, NULL, "a count", "8",
		  "requests in flight", TEST, { SCOPE_BURN, "2" } },
		/* kiln burn takes no settle: kiln.cfg(5) names no burn default. */
		{ "settle", KEY_UINT, F(settle), 1, 3600, NULL, "seconds",
		  "60", "the init waits", SCOPE_RUN, { SCOPE_BURN, "5" } },
		{ "slow-warn", KEY_UINT, F(slow_warn), 1, 100, NULL, "a %",
		  "85", "slow", TEST },
	};
#pragma GCC diagnostic pop
	static const char want[] =
		".TP\n.B interval\nbetween status lines. Value: seconds; "
		"default: 30 (kiln burn: 10). Taken by kiln\nrun, kiln burn.\n"
		".TP\n.B qd\nrequests in flight. Value: a count; default: 8 "
		"(kiln burn: 2). Taken by kiln\nrun, kiln burn.\n"
		".TP\n.B settle\nthe init waits. Value: seconds; default: 60. "
		"Taken by kiln run.\n"
		".TP\n.B slow\\-warn\nslow. Value: a %; default: 85. Taken by "
		"kiln run, kiln burn.\n";
	struct settings burn, run, burn2, run2;
	char *table = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&table, &len);
	int i, differ, others;

	settings_defaults_from(&burn, made_up, 4, SCOPE_BURN);
	settings_defaults_from(&run, made_up, 4, SCOPE_RUN);
	tap_ok(burn.qd == 2 && burn.interval == 10 &&
	       run.qd == 8 && run.interval == 30 && run.settle == 60 &&
	       burn.slow_warn == 85 && run.slow_warn == 85,
	       "a key's default for one command is that command's alone");
	tap_ok(!strcmp(settings_key_default(&made_up[1], SCOPE_BURN), "2") &&
	       !strcmp(settings_key_default(&made_up[1], any_cmd.scope), "2") &&
	       !strcmp(settings_key_default(&made_up[1],
					    SCOPE_RUN | SCOPE_SETTINGS), "8") &&
	       !strcmp(settings_key_default(&made_up[3], SCOPE_BURN), "85"),
	       "usage and kiln settings say the command's own default");
	settings_man_from(f, made_up, 4);
	fclose(f);
	if (!tap_ok(!strcmp(table, want),
		    "kiln.cfg(5) says kiln run's default, and another "
		    "command's beside it where it differs"))
		tap_diag("got:\n%s", table);
	free(table);

	/*
	 * Of kiln's own keys, leds, stress and bmc alone have defaults of
	 * their own for kiln burn (off: a burn on an installed host leaves
	 * its LEDs alone, loads nothing but its disks and judges no BMC).
	 */
	settings_defaults(&burn2, SCOPE_BURN);
	settings_defaults(&run2, SCOPE_RUN);
	for (i = 0, differ = 0, others = 0; settings_key_at(i); i++)
		if (strcmp(settings_key_default(settings_key_at(i), SCOPE_BURN),
			   settings_key_default(settings_key_at(i), SCOPE_RUN))) {
			differ++;
			others += strcmp(settings_key_at(i)->name, "leds") != 0 &&
				  strcmp(settings_key_at(i)->name, "stress") != 0 &&
				  strcmp(settings_key_at(i)->name, "bmc") != 0;
		}
	tap_ok(differ == 3 && !others && burn2.leds == SETTINGS_LEDS_OFF &&
	       run2.leds == SETTINGS_LEDS_FAIL && !burn2.stress &&
	       run2.stress == (SETTINGS_STRESS_MEMORY | SETTINGS_STRESS_CPU) &&
	       !burn2.bmc && run2.bmc == 1,
	       "leds, stress and bmc alone have defaults of their own for "
	       "kiln burn: off, and fail, memory,cpu and 1 for kiln run");
	burn2.leds = run2.leds;
	burn2.stress = run2.stress;
	burn2.bmc = run2.bmc;
	tap_ok(!memcmp(&burn2, &run2, sizeof(burn2)),
	       "every other default is the same for both");
}

int main(int argc, char **argv)
{
	struct settings s;
	char line[256], err[256], *args[32], buf[32];
	int n, ret;

	tap_args(argc, argv);
	tap_ok(size_is("0", 0) && size_is("512", 512) && size_is("4k", 4096) &&
	       size_is("4K", 4096) && size_is("128k", 131072) &&
	       size_is("1M", 1048576) && size_is("1MiB", 1048576) &&
	       size_is("4m", 4194304) && size_is("10G", 10737418240ull) &&
	       size_is("2T", 2199023255552ull) &&
	       size_is("1P", 1125899906842624ull),
	       "sizes: bytes and binary suffixes, with or without iB");
	tap_ok(size_bad("") && size_bad("x") && size_bad("-1") &&
	       size_bad("1.5G") && size_bad("12x") && size_bad("1MB") &&
	       size_bad("1 M") && size_bad("M") && size_bad("1Mi") &&
	       size_bad("99999999999999999999") && size_bad("20000P"),
	       "bad sizes are refused: junk, negative, fractions, overflow");

	tap_ok(duration_is("90", 90) && duration_is("90s", 90) &&
	       duration_is("30m", 1800) && duration_is("12h", 43200) &&
	       duration_is("2d", 172800) && duration_is("1h30m", 5400) &&
	       duration_is("0", 0), "durations: seconds and d/h/m/s sums");
	tap_ok(duration_bad("") && duration_bad("5x") && duration_bad("h") &&
	       duration_bad("-5") && duration_bad("1.5h") &&
	       duration_bad("999999999999d"), "bad durations are refused");
	tap_ok(duration_bad("1h30") && duration_bad("1d1d") &&
	       duration_bad("30m1h") && duration_bad("5S") &&
	       duration_bad("1h 30m") && duration_is("1d2h3m4s", 93784),
	       "the duration grammar is strict: 1h30, 1d1d, units out of order "
	       "and capitals are refused, not guessed at");

	{
		unsigned u = 7;

		tap_ok(settings_parse_uint("8", 256, &u) == 0 && u == 8 &&
		       settings_parse_uint("257", 256, &u) == -ERANGE &&
		       settings_parse_uint("", 256, &u) == -EINVAL &&
		       settings_parse_uint("1x", 256, &u) == -EINVAL &&
		       settings_parse_uint("-1", 256, &u) == -EINVAL && u == 8,
		       "counts: digits only, within range");
	}

	snprintf(line, sizeof(line), "--mode write --bs=128k --qd 4 "
		 "--passes 3 --duration 12h --offset 1M --span quick:300M "
		 "--max-writes 0 --out /tmp/r --json "
		 "--destroy-data /dev/sdb /dev/sdc");
	ret = parse(&s, line, args, &n, err, sizeof(err));
	tap_ok(ret == 0 && s.mode == SETTINGS_WRITE && s.bs == 131072 &&
	       s.qd == 4 && s.passes == 3 && s.duration == 43200 &&
	       s.offset == 1048576 && s.quick && s.span == 314572800 &&
	       s.max_writes_set && s.max_writes == 0 &&
	       !strcmp(s.out, "/tmp/r") && s.json &&
	       s.destroy_data && n == 2 && !strcmp(args[0], "/dev/sdb") &&
	       !strcmp(args[1], "/dev/sdc"),
	       "a full command line sets every key and keeps the targets");
	settings_free(&s);

	snprintf(line, sizeof(line), "/dev/sdb");
	ret = parse(&s, line, args, &n, err, sizeof(err));
	tap_ok(ret == 0 && s.mode == SETTINGS_WRITE_VERIFY &&
	       s.bs == 1048576 && s.qd == 8 && !s.max_writes_set &&
	       !s.run_id_set && !s.destroy_data && !s.json && s.interval == 10 &&
	       s.deadline == 60 && n == 1, "defaults: write-verify, 1M, qd 8, "
	       "no consent");
	settings_free(&s);

	snprintf(line, sizeof(line), "--json=0 --destroy-data=1 -- --odd-name");
	ret = parse(&s, line, args, &n, err, sizeof(err));
	tap_ok(ret == 0 && !s.json && s.destroy_data && n == 1 &&
	       !strcmp(args[0], "--odd-name"),
	       "flags take =1/=0; -- ends the options");
	settings_free(&s);

	snprintf(line, sizeof(line), "--destroy-data 0 --json no disk.img");
	ret = parse(&s, line, args, &n, err, sizeof(err));
	tap_ok(ret == 0 && !s.destroy_data && !s.destroy_list && !s.json &&
	       n == 1 && !strcmp(args[0], "disk.img"),
	       "a flag followed by 0 or no takes it: no consent, and no target "
	       "named 0");
	settings_free(&s);

	snprintf(line, sizeof(line), "--destroy-data yes --json On a.img");
	ret = parse(&s, line, args, &n, err, sizeof(err));
	tap_ok(ret == 0 && s.destroy_data && !s.destroy_list && s.json &&
	       n == 1, "... and yes, true, on (any case) are flag words too");
	settings_free(&s);

	snprintf(line, sizeof(line), "--destroy-data=true --destroy-data=no "
		 "--destroy-data SER1 x");
	ret = parse(&s, line, args, &n, err, sizeof(err));
	tap_ok(ret == 0 && s.destroy_data && !s.destroy_list && n == 2 &&
	       !strcmp(args[0], "SER1"),
	       "=true is all, never a serial; a list needs '=': without it the "
	       "word is a target");
	settings_free(&s);

	snprintf(line, sizeof(line), "--destroy-data=ZA1,loop:/tmp/x.img y");
	ret = parse(&s, line, args, &n, err, sizeof(err));
	tap_ok(ret == 0 && !s.destroy_data && s.destroy_list &&
	       !strcmp(s.destroy_list, "ZA1,loop:/tmp/x.img"),
	       "destroy-data=LIST takes serials and identities");
	settings_free(&s);

	snprintf(line, sizeof(line), "--slow-warn 70 --slow-fail 0 "
		 "--solo 2m x");
	ret = parse(&s, line, args, &n, err, sizeof(err));
	tap_ok(ret == 0 && s.slow_warn == 70 && s.slow_fail == 0 &&
	       s.solo == 120 && n == 1,
	       "--slow-warn and --slow-fail take percentages, --solo a time");
	settings_free(&s);
	settings_defaults(&s, SCOPE_RUN);
	tap_ok(s.slow_warn == 85 && s.slow_fail == 50 && s.solo == 0,
	       "by default: slow-warn 85%%, slow-fail 50%%, no solo phase");
	settings_free(&s);

	snprintf(line, sizeof(line), "--iperf-min 30%% x");
	ret = parse(&s, line, args, &n, err, sizeof(err));
	tap_ok(ret == 0 && s.iperf_min == 30 &&
	       !strcmp(settings_get(&s, "iperf-min", buf, sizeof(buf)),
		       "30%"),
	       "--iperf-min takes a percentage, its %% sign said back");
	settings_free(&s);
	snprintf(line, sizeof(line), "--iperf-min 5 x");
	ret = parse(&s, line, args, &n, err, sizeof(err));
	tap_ok(ret == 0 && s.iperf_min == 5, "--iperf-min 5: the %% optional");
	settings_free(&s);
	settings_defaults(&s, SCOPE_RUN);
	tap_ok(s.iperf_min == 50, "iperf-min is 50%% by default");
	settings_free(&s);
	tap_ok(bad_line("--iperf-min 101% x", "bad value for --iperf-min") &&
	       bad_line("--iperf-min % x", "bad value for --iperf-min") &&
	       bad_line("--iperf-min 5%% x", "bad value for --iperf-min") &&
	       bad_line("--iperf-min -1 x", "bad value for --iperf-min"),
	       "--iperf-min refuses past 100%%, no number, junk");
	/* Made from the key table's defaults alone: what kiln.cfg(5) says. */
	settings_defaults(&s, SCOPE_RUN);
	tap_ok(s.mode == SETTINGS_WRITE_VERIFY && s.bs == 1 << 20 &&
	       s.qd == 8 && s.passes == 1 && s.interval == 10 &&
	       s.deadline == 60 && s.checkpoint == 60 && s.max_detail == 100 &&
	       s.save_units == 4 && s.profile == SETTINGS_BURNIN &&
	       s.countdown == 10 && s.after == SETTINGS_WAIT &&
	       s.settle == 60 && s.stale == 600 && s.sensors == 60 &&
	       !s.duration && !s.offset && !s.span && !s.quick &&
	       !s.max_writes_set && !s.run_id_set && !s.destroy_data &&
	       !s.destroy_list && !s.nprotect && !s.out && !s.size &&
	       !s.json && !s.solo && !s.temp_warn && !s.expect_disks,
	       "the defaults are the key table's, parsed: no field set twice, "
	       "and descriptions (none, to the end, 2 on flash) set nothing");
	settings_free(&s);

	snprintf(line, sizeof(line), "--span quick x");
	ret = parse(&s, line, args, &n, err, sizeof(err));
	tap_ok(ret == 0 && s.quick && s.span == 3ull << 30,
	       "--span quick samples 3 GiB");
	settings_free(&s);

	snprintf(line, sizeof(line), "--help");
	tap_ok(parse(&s, line, args, &n, err, sizeof(err)) == 1,
	       "--help is asked for, not an error");

	tap_ok(bad_line("--protectX /dev/sda x", "unknown option '--protectX'") &&
	       bad_line("--jso x", "unknown option '--jso'") &&
	       bad_line("--b 4k x", "unknown option '--b'"),
	       "no prefix matching: --protectX is not --protect");
	tap_ok(bad_line("--frobnicate x", "unknown option '--frobnicate'") &&
	       bad_line("-x y", "unknown option '-x'") &&
	       bad_line("x --bs", "--bs needs a value") &&
	       bad_line("--bs 12x y", "bad value for --bs: '12x'") &&
	       bad_line("--qd 0 y", "bad value for --qd") &&
	       bad_line("--qd 999 y", "bad value for --qd") &&
	       bad_line("--passes abc y", "bad value for --passes") &&
	       bad_line("--passes 0 y", "bad value for --passes") &&
	       bad_line("--duration 5x y", "bad value for --duration") &&
	       bad_line("--mode bogus y", "bad value for --mode") &&
	       bad_line("--json=2 y", "bad value for --json") &&
	       bad_line("--run-id xyz y", "bad value for --run-id") &&
	       bad_line("--run-id 12345678901234567 y", "bad value for --run-id") &&
	       bad_line("--mode verify --run-id 0000 y",
			"bad value for --run-id") &&
	       bad_line("--span quick:0 y", "bad value for --span") &&
	       bad_line("--interval 0 y", "bad value for --interval") &&
	       bad_line("--out= y", "bad value for --out") &&
	       bad_line("--slow-warn 0 y", "bad value for --slow-warn: '0' "
			"(want a percentage, 1 to 100)") &&
	       bad_line("--slow-warn 101 y", "bad value for --slow-warn") &&
	       bad_line("--slow-warn 85% y", "bad value for --slow-warn") &&
	       bad_line("--slow-fail 101 y", "bad value for --slow-fail") &&
	       bad_line("--slow-fail -1 y", "bad value for --slow-fail") &&
	       bad_line("--slow-fail 90 y", "bad value for --slow-fail: 90 "
			"(above slow-warn, 85: ") &&
	       bad_line("--slow-warn 40 --slow-fail 45 y", "bad value for "
			"--slow-fail: 45 (above slow-warn, 40: ") &&
	       bad_line("--solo 5x y", "bad value for --solo") &&
	       bad_line("--solo 1h30 y", "bad value for --solo"),
	       "every bad input is one line naming the option and the value");
	tap_ok(bad_line("--sensors 1x y", "bad value for --sensors") &&
	       bad_line("--sensors -5 y", "bad value for --sensors") &&
	       bad_line("--temp-warn 151 y", "bad value for --temp-warn") &&
	       bad_line("--temp-warn hot y", "bad value for --temp-warn") &&
	       bad_line("--temp-warn -1 y", "bad value for --temp-warn") &&
	       bad_line("--selftest medium y", "bad value for --selftest") &&
	       bad_line("--selftest= y", "bad value for --selftest"),
	       "signals: bad sensors, temp-warn and selftest values refused");
	settings_defaults(&s, SCOPE_RUN);
	tap_ok(s.sensors == 60 && s.temp_warn == 0 &&
	       s.selftest == SETTINGS_SELFTEST_NONE &&
	       settings_set(&s, settings_key("sensors"), "0", SOURCE_CFG, err,
			    sizeof(err)) == 0 && s.sensors == 0 &&
	       settings_set(&s, settings_key("sensors"), "5m", SOURCE_CFG, err,
			    sizeof(err)) == 0 && s.sensors == 300 &&
	       settings_set(&s, settings_key("temp-warn"), "55", SOURCE_CFG,
			    err, sizeof(err)) == 0 && s.temp_warn == 55 &&
	       settings_set(&s, settings_key("selftest"), "long", SOURCE_CFG,
			    err, sizeof(err)) == 0 &&
	       s.selftest == SETTINGS_SELFTEST_LONG,
	       "signals: sensors=60, temp-warn=0, selftest=none by default; "
	       "good values taken");
	settings_free(&s);

	settings_defaults(&s, SCOPE_RUN);
	tap_ok(settings_set(&s, settings_key("qd"), "16", SOURCE_CFG, err,
			    sizeof(err)) == 0 && s.qd == 16 &&
	       settings_key("nonesuch") == NULL &&
	       settings_set(&s, settings_key("qd"), "x", SOURCE_CFG, err,
			    sizeof(err)) == -EINVAL &&
	       strstr(err, "bad value for qd: 'x'") && s.qd == 16,
	       "settings_set: known keys, unknown keys, bad values");
	settings_free(&s);

	{
		static const struct { const char *line, *want; } checks[] = {
			/* In the user's terms, not kiln's bytes. */
			{ "--bs 3k x", "bad value for --bs: 3k (want" },
			{ "--bs 128M x", "bad value for --bs: 128M (want" },
			{ "--span 1k x", "bad value for --span: 1k (want" },
			{ "--span quick:4k x",
			  "bad value for --span: quick:4k (want" },
			{ "--mode verify x", "needs the record of the write" },
		};
		size_t i;
		int ok = 1;

		for (i = 0; i < sizeof(checks) / sizeof(checks[0]); i++) {
			snprintf(line, sizeof(line), "%s", checks[i].line);
			err[0] = 0;
			ret = parse(&s, line, args, &n, err, sizeof(err));
			if (ret || settings_check(&s, err, sizeof(err)) != -EINVAL ||
			    !strstr(err, checks[i].want)) {
				tap_diag("'%s': '%s'", checks[i].line, err);
				ok = 0;
			}
			settings_free(&s);
		}
		snprintf(line, sizeof(line), "--mode verify --run-id 12 x");
		ret = parse(&s, line, args, &n, err, sizeof(err));
		ok = ok && !ret && !settings_check(&s, err, sizeof(err));
		settings_free(&s);
		tap_ok(ok, "settings wrong together are caught by the one check "
		       "every command runs: bs, span, verify needs a record");
	}

	tap_ok(!strcmp(settings_fmt_size(100, buf, sizeof(buf)), "100 B") &&
	       !strcmp(settings_fmt_size(4096, buf, sizeof(buf)), "4 KiB") &&
	       !strcmp(settings_fmt_size(1536ull << 20, buf, sizeof(buf)), "1.5 GiB") &&
	       !strcmp(settings_fmt_size(64ull << 20, buf, sizeof(buf)), "64 MiB"),
	       "sizes are written for people");
	{
		struct settings_problems p = { 0 };
		char path[] = "/tmp/kiln-cfg-XXXXXX", val[64];
		int fd = mkstemp(path);
		FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;

		if (!f)
			tap_bail("cannot make a kiln.cfg");
		fputs("# kiln.cfg\n\nprofile = soak\n"
		      "duration=8h\nbogus=1\ncountdown=0\nqd=0\n"
		      "no equals sign\ndestroy-data=SER1, SER2\n", f);
		fclose(f);
		settings_defaults(&s, SCOPE_RUN);
		ret = options_cfg_file(&s, path, &p);
		unlink(path);
		tap_ok(ret == 0 && s.profile == SETTINGS_SOAK &&
		       s.duration == 28800 && s.countdown == 0 && s.qd == 8 &&
		       !strcmp(s.destroy_list, "SER1, SER2") && !s.destroy_data &&
		       !strcmp(settings_source(&s, "duration"), "kiln.cfg") &&
		       !strcmp(settings_source(&s, "qd"), "default"),
		       "kiln.cfg: good lines apply, comments and blanks skipped");
		tap_ok(p.n == 3 &&
		       strstr(p.text[0], "line 5: unknown setting 'bogus'") &&
		       strstr(p.text[1], "line 7: bad value for qd: '0'") &&
		       strstr(p.text[2], "line 8: 'no equals sign' is not KEY=VALUE"),
		       "kiln.cfg: an unknown key, a bad value and a bad line are "
		       "each reported with their line");

		p.n = 0;
		options_cmdline(&s, "BOOT_IMAGE=/vmlinuz quiet "
				      "kiln.duration=1h kiln.include=\"sd* nvme*\" "
				      "kiln.destroy-data kiln.after=poweroff "
				      "kiln.nope=3 kiln.after=later kilnx=1\n", &p);
		tap_ok(s.duration == 3600 && !strcmp(s.include, "sd* nvme*") &&
		       s.destroy_data && !s.destroy_list &&
		       s.after == SETTINGS_POWEROFF &&
		       !strcmp(settings_source(&s, "duration"),
			       "kernel command line"),
		       "the kernel command line wins over kiln.cfg; quotes and "
		       "bare flags work");
		tap_ok(p.n == 2 && strstr(p.text[0], "unknown setting 'nope'") &&
		       strstr(p.text[1], "bad value for after: 'later'"),
		       "the kernel command line's problems are reported too");
		tap_ok(!strcmp(settings_get(&s, "after", val, sizeof(val)),
			       "poweroff") &&
		       !strcmp(settings_get(&s, "duration", val, sizeof(val)),
			       "3600") &&
		       !strcmp(settings_get(&s, "destroy-data", val, sizeof(val)),
			       "1") &&
		       settings_get(&s, "nope", val, sizeof(val)) == NULL &&
		       options_cfg_file(&s, "/nonexistent/kiln.cfg", &p) == -ENOENT,
		       "settings_get gives values back as text");
		settings_free(&s);
	}
	{
		struct settings_problems p = { 0 };
		char *text = malloc(4096);
		size_t len;

		/* # + 1,022 characters, then a key: read whole, still a comment. */
		memset(text, 0, 4096);
		text[0] = '#';
		memset(text + 1, 'x', 1022);
		len = (size_t)sprintf(text + 1023, "destroy-data=1\ncountdown=3\n")
		      + 1023;
		settings_defaults(&s, SCOPE_RUN);
		options_cfg_text(&s, text, len, &p);
		tap_ok(!s.destroy_data && !s.destroy_list && s.countdown == 3 &&
		       p.n == 0, "a long comment line is one line: the consent "
		       "at its end stays a comment");
		settings_free(&s);

		len = (size_t)sprintf(text, "include=");
		memset(text + len, 'a', 3000);
		len += 3000;
		len += (size_t)sprintf(text + len, ",SER#1\r\n");
		settings_defaults(&s, SCOPE_RUN);
		options_cfg_text(&s, text, len, &p);
		tap_ok(p.n == 0 && s.include && strlen(s.include) == 3006 &&
		       !strcmp(s.include + 3000, ",SER#1"),
		       "a long include= line is read whole; '#' inside a value "
		       "is kept (a serial may hold it)");
		settings_free(&s);

		settings_defaults(&s, SCOPE_RUN);
		{
			static const char bom[] = "\xef\xbb\xbf" "countdown=0\r"
						  "qd=4\rbs=128k";

			options_cfg_text(&s, bom, sizeof(bom) - 1, &p);
		}
		tap_ok(p.n == 0 && s.countdown == 0 && s.qd == 4 &&
		       s.bs == 131072, "a UTF-8 BOM and CR-only line endings "
		       "(an old Mac editor) read as three lines");
		settings_free(&s);

		settings_defaults(&s, SCOPE_RUN);
		{
			static const char nul[] = "passes=2\n\0mode=read\n"
						  "qd=4\nbs=4k\0x\n";
			struct settings_problems q = { 0 };

			options_cfg_text(&s, nul, sizeof(nul) - 1, &q);
			tap_ok(q.n == 2 && strstr(q.text[0], "line 2: a NUL") &&
			       strstr(q.text[1], "line 4: a NUL") &&
			       s.qd == 4 && s.mode != SETTINGS_READ,
			       "a NUL byte in kiln.cfg is an error on its line, "
			       "and the lines after it are still read (%d: %s)",
			       q.n, q.n ? q.text[0] : "");
		}
		settings_free(&s);

		settings_defaults(&s, SCOPE_RUN);
		options_cfg_text(&s, "out=/x\nresults=/y\nnet=yes\n", 25, &p);
		tap_ok(p.n == 2 && strstr(p.text[0], "'out' is for kiln burn") &&
		       strstr(p.text[1], "'results' is an option") && s.net,
		       "kiln.cfg takes the settings of kiln run and the init "
		       "(net), not options or kiln burn's keys");
		settings_free(&s);
		free(text);
	}
	settings_defaults(&s, SCOPE_RUN);
	{
		char val[32];

		tap_ok(!strcmp(settings_get(&s, "passes", val, sizeof(val)), "1") &&
		       settings_passes(&s) == 1,
		       "passes is 1 by default, as kiln.cfg(5) says");
	}
	settings_free(&s);
	tap_ok(!strcmp(settings_mode_name(SETTINGS_VERIFY), "verify") &&
	       !strcmp(settings_mode_name(99), "unknown"), "mode names");
	{
		struct settings_problems q = { 0 };

		settings_defaults(&s, SCOPE_RUN);
		options_cfg_text(&s, "profile=erase\n", 14, &q);
		settings_apply_profile(&s);
		tap_ok(q.n == 0 && s.end_failed == 1,
		       "profile=erase: end-failed is 1 unless set (a FAILed "
		       "disk is erased anyway)");
		settings_free(&s);
		settings_defaults(&s, SCOPE_RUN);
		options_cfg_text(&s, "profile=erase\nend-failed=0\n", 27, &q);
		settings_apply_profile(&s);
		tap_ok(q.n == 0 && s.end_failed == 0,
		       "profile=erase, end-failed=0: a FAILed disk is kept "
		       "for its RMA (%d: %s)", q.n, q.n ? q.text[0] : "");
		settings_free(&s);
	}
	TAP_RUN(test_manual);
	TAP_RUN(test_other_default);
	return tap_done();
}
