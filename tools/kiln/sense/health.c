/* SPDX-License-Identifier: MIT */
/*
 * Description: SMART health through smartctl. kiln reads the few counters
 * a burn-in must watch (sectors reallocated, pending, uncorrectable; link
 * CRC errors; NVMe media errors and critical warnings; SCSI grown
 * defects) before and after the run, from smartctl's JSON as smartjson.c
 * reads it; judge.c decides what a change means. --json=o has smartctl
 * put its text in the JSON too, kept whole in the results for a person.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sense/health.h"
#include "base/subproc.h"

void health_take(char *out, size_t len, struct health *h)
{
	struct smartjson sj;

	h->text = smartjson_output(out, len, &h->len);
	if (smartjson_parse(out, len, &sj) == 0)
		h->c = sj.c;
	if (h->text && h->len) {
		free(out);
	} else {
		/* No smartctl.output: its JSON is what a person gets. */
		free(h->text);
		h->text = out;
		h->len = len;
	}
}

int health_read_many(const char *smartctl, const char *const *devs, int n,
		     unsigned timeout_s, struct health *hs)
{
	struct subproc_job *jobs = calloc((size_t)n + 1, sizeof(*jobs));
	char *(*argv)[6] = calloc((size_t)n + 1, sizeof(*argv));
	int i, ret;

	for (i = 0; i < n; i++) {
		memset(&hs[i], 0, sizeof(hs[i]));
		smart_counters_none(&hs[i].c);
	}
	if (!jobs || !argv) {
		ret = -ENOMEM;
		goto out;
	}
	if (access(smartctl, X_OK) < 0) {
		ret = -errno;
		goto out;
	}
	/* All at once: one after another takes minutes on 60 disks. */
	for (i = 0; i < n; i++) {
		if (!devs[i])
			continue;
		argv[i][0] = (char *)smartctl;
		argv[i][1] = "--json=o";
		argv[i][2] = "-H";
		argv[i][3] = "-A";
		argv[i][4] = (char *)devs[i];
		jobs[i].argv = argv[i];
		/* stdout stays JSON; its messages are in the JSON too. */
		jobs[i].err = SUBPROC_STDERR_NULL;
	}
	ret = subproc_many(jobs, n, timeout_s * 1000);
	for (i = 0; i < n; i++) {
		if (jobs[i].done && jobs[i].out)
			health_take(jobs[i].out, jobs[i].len, &hs[i]);
		else
			free(jobs[i].out);
	}
	if (ret == -ENOENT)
		ret = 0;
out:
	free(jobs);
	free(argv);
	return ret;
}

int health_read(const char *smartctl, const char *dev, unsigned timeout_s,
		struct health *h)
{
	return health_read_many(smartctl, &dev, 1, timeout_s, h);
}

void health_free(struct health *h)
{
	free(h->text);
	h->text = NULL;
	h->len = 0;
}
