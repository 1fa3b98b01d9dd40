/* SPDX-License-Identifier: MIT */
#ifndef KILN_CPU_H
#define KILN_CPU_H

/*
 * The CPUs' own signals, read under a sysfs root (and its proc root) as
 * the sensors are (sensors.h): each logical CPU's thermal throttle
 * counts (Documentation/ABI/testing/sysfs-devices-system-cpu,
 * cpuN/thermal_throttle/core_throttle_count and package_throttle_count:
 * how often it was slowed because it ran too hot, since boot), and its
 * clock now (cpufreq's scaling_cur_freq, or /proc/cpuinfo's "cpu MHz");
 * and the clock it is sold at.
 */

/* How the nominal clock was found. */
enum cpu_nominal {
	CPU_NOMINAL_NONE,
	CPU_NOMINAL_BASE,	/* cpufreq base_frequency (intel_pstate) */
	CPU_NOMINAL_MODEL,	/* the model name's "@ 2.40GHz" */
	CPU_NOMINAL_MAX,	/* cpufreq cpuinfo_max_freq */
	CPU_NOMINAL_KINDS
};

struct cpu_core {
	int cpu;		/* N of cpuN */
	long core, package;	/* throttle counts; -1 not given */
	unsigned khz;		/* its clock now; 0 not known */
};

struct cpu_sample {
	int n;
	struct cpu_core *cpus;	/* by N */
	unsigned nominal_khz;	/* 0 not known */
	int nominal_from;	/* enum cpu_nominal */
};

/*
 * Reads every CPU under sysroot (devices/system/cpu) and procroot
 * (cpuinfo): 0 or -ENOMEM (s is usable either way).
 */
int cpu_read(const char *sysroot, const char *procroot, struct cpu_sample *s);
void cpu_free(struct cpu_sample *s);

/* "base_frequency", "model name", "cpuinfo_max_freq", or "none". */
const char *cpu_nominal_name(int from);

/* The kind so named; CPU_NOMINAL_NONE for any other. */
int cpu_nominal_of(const char *name);

/* The clock in a model name ("... CPU E5-2680 v4 @ 2.40GHz"): kHz, or 0. */
unsigned cpu_model_khz(const char *model);

#endif
