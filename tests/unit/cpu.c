/* SPDX-License-Identifier: MIT */
/*
 * Description: the CPUs read and judged. sysfs and /proc trees: the
 * hand-made server (four CPUs with thermal_throttle and intel_pstate's
 * base_frequency, after Documentation/ABI/testing/sysfs-devices-system-cpu
 * and admin-guide/pm/intel_pstate.rst), a QEMU q35 guest as
 * sysfs-capture.sh recorded it (no cpufreq, no thermal_throttle: the clock
 * is /proc/cpuinfo's), and trees made here for an AMD machine (no
 * thermal_throttle, acpi-cpufreq's cpuinfo_max_freq) and odd files. The
 * nominal clock and where it came from; a throttle during the run WARNs
 * the machine naming its CPUs, one from before does not, a counter that
 * restarts is no rise; the clock under load (the first sample, before the
 * load, left out) as min/avg/max; all of it through result.json and back,
 * judged the same; summary.txt's line. An AMD CPU's temperature
 * (k10temp) over the run as hwmon's first, max and last.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../lib/tap.h"
#include "../lib/reasons.h"
#include "judge/record.h"
#include "judge/vitals.h"
#include "results/vitals_cpu_out.h"
#include "results/vitals_out.h"
#include "sense/cpu.h"

static char tmp[] = "/tmp/kiln-cpu-XXXXXX";

static void put(const char *rel, const char *text)
{
	char dir[PATH_MAX];

	snprintf(dir, sizeof(dir), "%s/%s", tmp, rel);
	*strrchr(dir, '/') = 0;
	tap_sh("mkdir -p '%s'", dir);
	tap_put(text, "%s/%s", tmp, rel);
}

static void model(void)
{
	tap_ok(cpu_model_khz("Intel(R) Xeon(R) CPU E5-2680 v4 @ 2.40GHz\n") ==
	       2400000 &&
	       cpu_model_khz("Intel(R) Xeon(R) Gold 6230 CPU @ 2.10GHz") ==
	       2100000 &&
	       cpu_model_khz("Intel(R) Pentium(R) 4 CPU 1500MHz @ 1500MHz") ==
	       1500000,
	       "the model name's clock, in GHz or MHz");
	tap_ok(!cpu_model_khz("AMD EPYC 7302 16-Core Processor") &&
	       !cpu_model_khz("QEMU Virtual CPU version 2.5+") &&
	       !cpu_model_khz("@") && !cpu_model_khz("x @ 2.4") &&
	       !cpu_model_khz("x @ -2.4GHz") && !cpu_model_khz("x @ 9e99GHz") &&
	       !cpu_model_khz(NULL),
	       "none where it says none, or nonsense");
}

static void server(void)
{
	char sys[PATH_MAX], proc[PATH_MAX];
	struct cpu_sample s;
	int i, ok = 1;

	snprintf(sys, sizeof(sys), "%s/server/sys", tmp);
	snprintf(proc, sizeof(proc), "%s/server/proc", tmp);
	i = cpu_read(sys, proc, &s);
	tap_ok(i == 0 && s.n == 4 &&
	       s.nominal_khz == 2100000 && s.nominal_from == CPU_NOMINAL_BASE,
	       "server: four CPUs, nominal 2100 MHz from base_frequency, not "
	       "cpuinfo_max_freq's turbo (%d, %u)", s.n, s.nominal_khz);
	for (i = 0; i < s.n; i++)
		ok &= s.cpus[i].cpu == i && s.cpus[i].core == 0 &&
		      s.cpus[i].package == 2 &&
		      s.cpus[i].khz == 2800000u + (unsigned)i * 100000;
	tap_ok(ok, "each CPU in order with its throttle counts and cpufreq's "
	       "clock (not cpuinfo's)");
	cpu_free(&s);
	tap_ok(cpu_read(sys, NULL, &s) == 0 && s.n == 4 &&
	       s.nominal_from == CPU_NOMINAL_BASE,
	       "without a proc root: sysfs alone");
	cpu_free(&s);
}

static void qemu(void)
{
	char sys[PATH_MAX], proc[PATH_MAX];
	struct cpu_sample s;

	snprintf(sys, sizeof(sys), "%s/q35/sys", tmp);
	snprintf(proc, sizeof(proc), "%s/q35/proc", tmp);
	int ret = cpu_read(sys, proc, &s);

	tap_ok(ret == 0 && s.n == 2 &&
	       s.cpus[0].core == -1 && s.cpus[0].package == -1 &&
	       s.cpus[1].khz == 2445410 && !s.nominal_khz &&
	       s.nominal_from == CPU_NOMINAL_NONE,
	       "QEMU: two CPUs, no throttle counts, the clock from "
	       "/proc/cpuinfo, no nominal clock (%d, %u)", s.n,
	       s.n > 1 ? s.cpus[1].khz : 0);
	cpu_free(&s);
}

static void amd(void)
{
	char sys[PATH_MAX], proc[PATH_MAX];
	struct cpu_sample s;

	put("amd/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq",
	    "3000000\n");
	put("amd/sys/devices/system/cpu/cpu0/cpufreq/scaling_cur_freq",
	    "2999000\n");
	put("amd/sys/devices/system/cpu/cpu1/cpufreq/cpuinfo_max_freq",
	    "3000000\n");
	put("amd/sys/devices/system/cpu/cpu1/cpufreq/scaling_cur_freq",
	    "garbage\n");
	put("amd/sys/devices/system/cpu/cpu10/online", "1\n");
	put("amd/sys/devices/system/cpu/cpufreq/boost", "1\n");
	put("amd/proc/cpuinfo", "processor\t: 0\nmodel name\t: AMD EPYC 7302 "
	    "16-Core Processor\ncpu MHz\t\t: 1500.000\n\nprocessor\t: 1\n"
	    "model name\t: AMD EPYC 7302 16-Core Processor\ncpu MHz\t\t: "
	    "1600.000\n\nprocessor\t: 10\ncpu MHz\t\t: nonsense\n");
	snprintf(sys, sizeof(sys), "%s/amd/sys", tmp);
	snprintf(proc, sizeof(proc), "%s/amd/proc", tmp);
	tap_ok(cpu_read(sys, proc, &s) == 0 && s.n == 3 &&
	       s.cpus[2].cpu == 10 && s.cpus[0].khz == 2999000 &&
	       s.cpus[1].khz == 1600000 && !s.cpus[2].khz &&
	       s.cpus[0].core == -1 && s.nominal_khz == 3000000 &&
	       s.nominal_from == CPU_NOMINAL_MAX,
	       "AMD: cpu10 after cpu1, cpuinfo's clock where cpufreq's is "
	       "garbage, none where both are, nominal from cpuinfo_max_freq");
	cpu_free(&s);
	put("amd/proc/cpuinfo", "processor\t: 0\nmodel name\t: Intel(R) "
	    "Xeon(R) CPU E5-2680 v4 @ 2.40GHz\n");
	tap_ok(cpu_read(sys, proc, &s) == 0 && s.nominal_khz == 2400000 &&
	       s.nominal_from == CPU_NOMINAL_MODEL,
	       "the model name's clock before cpuinfo_max_freq");
	cpu_free(&s);
	tap_ok(cpu_read("/nonexistent", "/nonexistent", &s) == 0 && !s.n &&
	       !s.nominal_khz, "no tree: nothing, no error");
	cpu_free(&s);
}

static void sample(struct vitals_sample *v, const char *name)
{
	char sys[PATH_MAX], proc[PATH_MAX];

	memset(v, 0, sizeof(*v));
	snprintf(sys, sizeof(sys), "%s/%s/sys", tmp, name);
	snprintf(proc, sizeof(proc), "%s/%s/proc", tmp, name);
	v->have_cpu = cpu_read(sys, proc, &v->cpu) == 0;
}

static void judged(void)
{
	static const char *const cpu = "server/sys/devices/system/cpu";
	struct vitals_sample v;
	struct settings s, s2;
	struct record r, back;
	struct jsonread *doc;
	char path[PATH_MAX], line[200];
	struct json j;
	size_t len;
	char *js;

	settings_defaults(&s, SCOPE_BURN);
	record_init(&r, "burn", 0, NULL, &s);
	sample(&v, "server");
	vitals_fold(&r, &v);
	cpu_free(&v.cpu);
	/* Under the load: faster, then CPUs 1 and 2 throttle. */
	snprintf(path, sizeof(path), "%s/cpufreq/policy0/scaling_cur_freq",
		 cpu);
	put(path, "3100000\n");
	sample(&v, "server");
	vitals_fold(&r, &v);
	cpu_free(&v.cpu);
	snprintf(path, sizeof(path), "%s/cpu1/thermal_throttle/"
		 "core_throttle_count", cpu);
	put(path, "3\n");
	snprintf(path, sizeof(path), "%s/cpu2/thermal_throttle/"
		 "package_throttle_count", cpu);
	put(path, "9\n");
	snprintf(path, sizeof(path), "%s/cpufreq/policy3/scaling_cur_freq",
		 cpu);
	put(path, "1100000\n");
	sample(&v, "server");
	vitals_fold(&r, &v);
	cpu_free(&v.cpu);
	vitals_judge_machine(&r);
	tap_ok(r.sig.j.verdict == JUDGE_WARN && !r.failure[0] &&
	       tap_has_reason(&r.sig.j, "2 CPUs throttled for heat during the "
			      "run: CPU 1-2 (core throttle count up by 3 at "
			      "most, package by 7)"),
	       "a throttle during the run WARNs the machine, naming the CPUs; "
	       "the 2 package throttles from before the run do not");
	tap_ok(r.sig.cpu.khz_n == 8 && r.sig.cpu.khz_min == 1100000 &&
	       r.sig.cpu.khz_max == 3100000 &&
	       r.sig.cpu.khz_sum == 3100000ull + 2900000 + 3000000 + 3100000 +
	       3100000 + 2900000 + 3000000 + 1100000,
	       "the clock of every CPU in every sample after the first: "
	       "%llu readings, %u to %u kHz", (unsigned long long)
	       r.sig.cpu.khz_n, r.sig.cpu.khz_min, r.sig.cpu.khz_max);
	vitals_cpu_out_clock_text(&r.sig.cpu, line, sizeof(line));
	tap_ok(!strcmp(line, "CPU clock under load: 1100/2775/3100 MHz "
		       "min/avg/max, nominal 2100 MHz (base_frequency)"),
	       "summary.txt's line: %s", line);

	json_init(&j);
	json_begin(&j, NULL);
	vitals_out_machine(&j, &r);
	json_end(&j);
	js = json_take(&j, &len);
	if (!js || jsonread_parse(&doc, js, len, NULL, NULL, 0))
		tap_bail("machine JSON does not parse");
	tap_ok(strstr(js, "\"nominal_mhz\": 2100") &&
	       strstr(js, "\"nominal_from\": \"base_frequency\"") &&
	       strstr(js, "\"throttled_cpus\": \"1-2\"") &&
	       strstr(js, "\"min\": 1100") && strstr(js, "\"max\": 3100") &&
	       strstr(js, "\"readings\": 8"),
	       "result.json: the nominal clock, the clock under load, the "
	       "CPUs that throttled");
	settings_defaults(&s2, SCOPE_BURN);
	record_init(&back, "burn", 0, NULL, &s2);
	vitals_out_read_machine(jsonread_root(doc), &back);
	vitals_judge_machine(&back);
	vitals_cpu_out_clock_text(&back.sig.cpu, path, sizeof(path));
	tap_ok(!memcmp(&back.sig.j, &r.sig.j, sizeof(r.sig.j)) &&
	       !strcmp(path, line) && back.sig.cpu.nthrottle == 4,
	       "read back: judged the same, the same clock said (%s)", path);
	free(js);
	jsonread_free(doc);
	record_free(&back);

	/* A counter that restarts (CPU offlined and back) is no rise. */
	snprintf(path, sizeof(path), "%s/cpu1/thermal_throttle/"
		 "core_throttle_count", cpu);
	put(path, "0\n");
	snprintf(path, sizeof(path), "%s/cpu2/thermal_throttle/"
		 "package_throttle_count", cpu);
	put(path, "0\n");
	record_free(&r);
	record_init(&r, "burn", 0, NULL, &s);
	sample(&v, "server");
	vitals_fold(&r, &v);
	vitals_fold(&r, &v);
	cpu_free(&v.cpu);
	put(path, "1\n");
	sample(&v, "server");
	vitals_fold(&r, &v);
	cpu_free(&v.cpu);
	vitals_judge_machine(&r);
	tap_ok(tap_has_reason(&r.sig.j, "1 CPU throttled for heat during the "
			      "run: CPU 2 (core throttle count up by 0 at "
			      "most, package by 1)") && r.sig.j.nreasons == 1,
	       "one CPU, one reason");
	record_free(&r);
}

/* k10temp's Tctl over three samples: hwmon's first, max and last. */
static void k10temp(void)
{
	static const char *const milli[] = { "41000\n", "78250\n", "66000\n" };
	static const char *const hw = "amd/sys/class/hwmon/hwmon3";
	struct vitals_sample v;
	struct settings s;
	struct record r;
	char path[PATH_MAX], root[PATH_MAX];
	const struct vitals_hwmon *h = NULL;
	int i;

	snprintf(path, sizeof(path), "%s/name", hw);
	put(path, "k10temp\n");
	snprintf(path, sizeof(path), "%s/temp1_label", hw);
	put(path, "Tctl\n");
	snprintf(root, sizeof(root), "%s/amd/sys", tmp);
	settings_defaults(&s, SCOPE_BURN);
	record_init(&r, "burn", 0, NULL, &s);
	for (i = 0; i < 3; i++) {
		snprintf(path, sizeof(path), "%s/temp1_input", hw);
		put(path, milli[i]);
		memset(&v, 0, sizeof(v));
		v.have_sensors = sensors_read(root, &v.sensors) == 0;
		vitals_fold(&r, &v);
		sensors_free(&v.sensors);
	}
	for (i = 0; i < r.sig.nhwmon; i++)
		if (!strcmp(r.sig.hwmon[i].what, "k10temp Tctl"))
			h = &r.sig.hwmon[i];
	tap_ok(h && h->first == 41000 && h->max == 78250 && h->last == 66000,
	       "an AMD CPU's temperature (k10temp) is hwmon's: first, max "
	       "and last over the run");
	record_free(&r);
}

static void ranges(void)
{
	struct vitals_throttle t[9];
	struct vitals_cpu c;
	char buf[64];
	int i, cpus[9] = { 0, 1, 2, 4, 5, 7, 8, 9, 11 };

	memset(&c, 0, sizeof(c));
	for (i = 0; i < 9; i++) {
		t[i].cpu = cpus[i];
		t[i].core_start = t[i].pkg_start = 0;
		t[i].core_end = i == 3 ? 0 : 1;
		t[i].pkg_end = 0;
	}
	c.throttle = t;
	c.nthrottle = 9;
	tap_ok(!strcmp(vitals_cpu_throttled_list(&c, buf, sizeof(buf)),
		       "0-2,5,7-9,11") && vitals_cpu_throttled(&c) == 8,
	       "CPUs that throttled as ranges: %s", buf);
	tap_ok(!strcmp(vitals_cpu_throttled_list(&c, buf, 6), "0-2,") ||
	       strlen(buf) < 6, "a list cut to its room: %s", buf);
	t[0].core_start = -1;
	t[0].core_end = 5;
	tap_ok(vitals_cpu_throttled(&c) == 7,
	       "a count not known at the start is no rise");
}

int main(int argc, char **argv)
{
	char cwd[PATH_MAX];

	tap_args(argc, argv);
	if (!mkdtemp(tmp))
		tap_bail("mkdtemp: %s", strerror(errno));
	if (!getcwd(cwd, sizeof(cwd)))
		tap_bail("getcwd");
	tap_sh("cp -r %s/tests/fixtures/sensors/server %s/server", cwd, tmp);
	tap_sh("mkdir -p %s/q35 && tar -xzf %s/tests/fixtures/sensors/"
	       "qemu-cpu.tar.gz -C %s/q35", tmp, cwd, tmp);
	TAP_RUN(model);
	TAP_RUN(server);
	TAP_RUN(qemu);
	TAP_RUN(amd);
	TAP_RUN(judged);
	TAP_RUN(k10temp);
	TAP_RUN(ranges);
	tap_sh("rm -rf %s", tmp);
	return tap_done();
}
