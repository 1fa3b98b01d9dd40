/* SPDX-License-Identifier: MIT */
/*
 * Description: drives behind RAID controllers, as smartctl --scan-open
 * lists them (see raidscan.h), each placed under its controller by the
 * sysfs path of the device smartctl reaches it through, and each once.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sense/raidscan.h"
#include "sense/sensors.h"
#include "sense/smartjson.h"
#include "base/subproc.h"

/* smartctl's device types that reach through a RAID controller. */
static const char *const raid_types[] = {
	"megaraid,", "cciss,", "aacraid,", "3ware,", "areca,", "hpt,",
	"sssraid,",
};

static int is_raid(const char *type)
{
	size_t i;

	for (i = 0; i < sizeof(raid_types) / sizeof(raid_types[0]); i++)
		if (!strncmp(type, raid_types[i], strlen(raid_types[i])))
			return 1;
	return 0;
}

void raidscan_controller(const char *sysroot, const char *dev, char *out,
			 size_t len)
{
	char link[PATH_MAX], real[PATH_MAX], pci[1][24];
	const char *name = strrchr(dev, '/');
	unsigned n;

	out[0] = 0;
	name = name ? name + 1 : dev;
	/* /dev/bus/N: megaraid_sas's SCSI host N; else a block or sg node. */
	if (!strncmp(dev, "/dev/bus/", 9) && sscanf(name, "%u", &n) == 1)
		snprintf(link, sizeof(link), "%s/class/scsi_host/host%u",
			 sysroot, n);
	else if (!strncmp(name, "sg", 2))
		snprintf(link, sizeof(link), "%s/class/scsi_generic/%s",
			 sysroot, name);
	else
		snprintf(link, sizeof(link), "%s/class/block/%s", sysroot,
			 name);
	if (!realpath(link, real))
		return;
	if (sensors_pci_path(real, pci, 1) == 1)
		snprintf(out, len, "%s", pci[0]);
}

int raidscan_parse(const char *text, const char *sysroot,
		   struct raidscan_drive *out, int max)
{
	const char *line = text;
	int n = 0;

	while (line && *line) {
		const char *next = strchr(line, '\n');
		struct raidscan_drive d;
		char dev[64], type[24];
		int i, seen = 0;

		memset(&d, 0, sizeof(d));
		if (sscanf(line, "%63s -d %23s", dev, type) == 2 &&
		    dev[0] == '/' && is_raid(type)) {
			snprintf(d.dev, sizeof(d.dev), "%s", dev);
			snprintf(d.type, sizeof(d.type), "%s", type);
			raidscan_controller(sysroot, dev, d.controller,
					    sizeof(d.controller));
			for (i = 0; i < n && i < max; i++)
				seen |= !strcmp(out[i].type, d.type) &&
					(d.controller[0] ?
					 !strcmp(out[i].controller,
						 d.controller) :
					 !strcmp(out[i].dev, d.dev));
			if (!seen && n < max)
				out[n] = d;
			n += !seen;
		}
		line = next ? next + 1 : NULL;
	}
	return n;
}

/* megaraid,256: 256; the first number after the comma. */
static long number(const char *type)
{
	const char *comma = strchr(type, ',');

	return comma ? strtol(comma + 1, NULL, 10) : 0;
}

/* Each drive's serial: a second one of a serial on one controller goes. */
static int drop_twice(const char *smartctl, struct raidscan_drive *d, int n,
		      unsigned timeout_ms)
{
	struct subproc_job *jobs = calloc((size_t)n + 1, sizeof(*jobs));
	char *(*argv)[7] = calloc((size_t)n + 1, sizeof(*argv));
	struct smartjson sj;
	int i, k, kept = 0;

	if (!jobs || !argv) {
		free(jobs);
		free(argv);
		return n;
	}
	for (i = 0; i < n; i++) {
		char *a[] = { (char *)smartctl, "-j", "-i", "-d", d[i].type,
			      d[i].dev, NULL };

		memcpy(argv[i], a, sizeof(a));
		jobs[i].argv = argv[i];
		jobs[i].err = SUBPROC_STDERR_NULL;
	}
	subproc_many(jobs, n, timeout_ms);
	for (i = 0; i < n; i++) {
		int twice = 0;

		if (jobs[i].done && jobs[i].out &&
		    !smartjson_parse(jobs[i].out, jobs[i].len, &sj))
			snprintf(d[i].serial, sizeof(d[i].serial), "%s",
				 sj.serial);
		free(jobs[i].out);
		for (k = 0; d[i].serial[0] && k < kept && !twice; k++) {
			if (strcmp(d[k].serial, d[i].serial) ||
			    strcmp(d[k].controller, d[i].controller))
				continue;
			twice = 1;
			/* Of two names, the drive's own: the lower number. */
			if (number(d[i].type) < number(d[k].type))
				d[k] = d[i];
		}
		if (!twice)
			d[kept++] = d[i];
	}
	free(jobs);
	free(argv);
	return kept;
}

int raidscan_find(const char *smartctl, const char *sysroot,
		  unsigned timeout_ms, struct raidscan_drive *out, int max)
{
	char *argv[] = { (char *)smartctl, "--scan-open", NULL };
	struct subproc_job job = { .argv = argv, .err = SUBPROC_STDERR_NULL };
	int n, ret;

	ret = subproc_many(&job, 1, timeout_ms);
	n = job.done && job.out ? raidscan_parse(job.out, sysroot, out, max) :
	    0;
	free(job.out);
	if (ret == -ETIMEDOUT)
		return ret;
	if (n > max)
		n = max;
	return n ? drop_twice(smartctl, out, n, timeout_ms) : 0;
}
