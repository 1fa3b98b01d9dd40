/* SPDX-License-Identifier: MIT */
/*
 * Description: each CPU's thermal throttle counts and clock, and the
 * machine's nominal clock (see cpu.h). Any file may be missing (no
 * cpufreq driver in a VM, no thermal_throttle on AMD): what is missing is
 * not known, never an error.
 */
#include <strings.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sense/cpu.h"
#include "base/sysfs.h"

static const char *const nominal_names[CPU_NOMINAL_KINDS] = {
	[CPU_NOMINAL_NONE] = "none",
	[CPU_NOMINAL_BASE] = "base_frequency",
	[CPU_NOMINAL_MODEL] = "model name",
	[CPU_NOMINAL_MAX] = "cpuinfo_max_freq",
};

const char *cpu_nominal_name(int from)
{
	return from > 0 && from < CPU_NOMINAL_KINDS ? nominal_names[from] :
	       "none";
}

int cpu_nominal_of(const char *name)
{
	int i;

	for (i = 1; name && i < CPU_NOMINAL_KINDS; i++)
		if (!strcmp(name, nominal_names[i]))
			return i;
	return CPU_NOMINAL_NONE;
}

unsigned cpu_model_khz(const char *model)
{
	const char *at = model ? strrchr(model, '@') : NULL;
	char unit[4] = "";
	double v;

	if (!at || sscanf(at + 1, " %lf%3s", &v, unit) != 2 || v <= 0 ||
	    v > 100000)
		return 0;
	if (!strcasecmp(unit, "GHz") && v < 100)
		return (unsigned)(v * 1e6 + 0.5);
	if (!strcasecmp(unit, "MHz"))
		return (unsigned)(v * 1e3 + 0.5);
	return 0;
}

/* A kHz figure of cpufreq: 0 when not given or not plausible. */
static unsigned khz(const char *dir, const char *name)
{
	long v = sysfs_attr_long(dir, name, -1);

	return v > 0 && v < 100000000 ? (unsigned)v : 0;
}

static long count(const char *dir, const char *name)
{
	long v = sysfs_attr_long(dir, name, -1);

	return v < 0 ? -1 : v;
}

static struct cpu_core *core_of(struct cpu_sample *s, int cpu)
{
	int i;

	for (i = 0; i < s->n; i++)
		if (s->cpus[i].cpu == cpu)
			return &s->cpus[i];
	return NULL;
}

static struct cpu_core *add_core(struct cpu_sample *s, int cpu)
{
	struct cpu_core *c = realloc(s->cpus, ((size_t)s->n + 1) *
				     sizeof(*c));

	if (!c)
		return NULL;
	s->cpus = c;
	c = &s->cpus[s->n++];
	c->cpu = cpu;
	c->core = c->package = -1;
	c->khz = 0;
	return c;
}

static int read_sysfs(const char *sysroot, struct cpu_sample *s,
		      unsigned *base, unsigned *max)
{
	char dir[PATH_MAX], sub[PATH_MAX * 2], **names;
	int n, i, ret = 0;

	snprintf(dir, sizeof(dir), "%s/devices/system/cpu", sysroot);
	names = dir_list(dir, &n);
	for (i = 0; i < n; i++) {
		struct cpu_core *c;
		int cpu, at = 0;

		if (sscanf(names[i], "cpu%d%n", &cpu, &at) != 1 ||
		    names[i][at] || cpu < 0)
			continue;
		if (!(c = add_core(s, cpu))) {
			ret = -ENOMEM;
			break;
		}
		snprintf(sub, sizeof(sub), "%s/%s/thermal_throttle", dir,
			 names[i]);
		c->core = count(sub, "core_throttle_count");
		c->package = count(sub, "package_throttle_count");
		snprintf(sub, sizeof(sub), "%s/%s/cpufreq", dir, names[i]);
		c->khz = khz(sub, "scaling_cur_freq");
		if (!*base)
			*base = khz(sub, "base_frequency");
		if (!*max)
			*max = khz(sub, "cpuinfo_max_freq");
	}
	dir_list_free(names, n);
	return ret;
}

/*
 * /proc/cpuinfo: the model name, and "cpu MHz" of each "processor" for
 * the CPUs cpufreq does not say (a VM without a cpufreq driver).
 */
static int read_cpuinfo(const char *procroot, struct cpu_sample *s,
			unsigned *model)
{
	char path[PATH_MAX], line[512];
	struct cpu_core *c = NULL;
	FILE *f;
	int ret = 0;

	snprintf(path, sizeof(path), "%s/cpuinfo", procroot);
	if (!(f = fopen(path, "re")))
		return 0;
	while (fgets(line, sizeof(line), f)) {
		const char *v = strchr(line, ':');
		double mhz;
		int cpu;

		if (!v)
			continue;
		v++;
		if (!strncmp(line, "processor", 9) &&
		    sscanf(v, "%d", &cpu) == 1 && cpu >= 0) {
			c = core_of(s, cpu);
			if (!c && !(c = add_core(s, cpu))) {
				ret = -ENOMEM;
				break;
			}
		} else if (!strncmp(line, "model name", 10) && !*model) {
			*model = cpu_model_khz(v);
		} else if (!strncmp(line, "cpu MHz", 7) && c && !c->khz &&
			   sscanf(v, "%lf", &mhz) == 1 && mhz > 0 &&
			   mhz < 100000) {
			c->khz = (unsigned)(mhz * 1000 + 0.5);
		}
	}
	fclose(f);
	return ret;
}

static int by_cpu(const void *a, const void *b)
{
	const struct cpu_core *x = a, *y = b;

	return (x->cpu > y->cpu) - (x->cpu < y->cpu);
}

int cpu_read(const char *sysroot, const char *procroot, struct cpu_sample *s)
{
	unsigned base = 0, max = 0, model = 0;
	int ret;

	memset(s, 0, sizeof(*s));
	ret = read_sysfs(sysroot, s, &base, &max);
	if (!ret && procroot)
		ret = read_cpuinfo(procroot, s, &model);
	if (s->n > 1)
		qsort(s->cpus, (size_t)s->n, sizeof(*s->cpus), by_cpu);
	/*
	 * Under intel_pstate (and amd-pstate) cpuinfo_max_freq is the turbo
	 * ceiling, not what the part is sold at: base_frequency and the
	 * model name come first.
	 */
	if (base) {
		s->nominal_khz = base;
		s->nominal_from = CPU_NOMINAL_BASE;
	} else if (model) {
		s->nominal_khz = model;
		s->nominal_from = CPU_NOMINAL_MODEL;
	} else if (max) {
		s->nominal_khz = max;
		s->nominal_from = CPU_NOMINAL_MAX;
	}
	return ret;
}

void cpu_free(struct cpu_sample *s)
{
	free(s->cpus);
	memset(s, 0, sizeof(*s));
}
