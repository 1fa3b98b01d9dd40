/* SPDX-License-Identifier: MIT */
/*
 * Description: SMART health through smartctl. kiln reads the few counters
 * a burn-in must watch (sectors reallocated, pending, uncorrectable; link
 * CRC errors; NVMe media errors and critical warnings; SCSI grown
 * defects) before and after the run; judge.c decides what a change means.
 * smartctl's text is kept whole in the results for a person to read.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sense/health.h"
#include "base/subproc.h"

/* "1,234" -> 1234; -1 when no number starts there. */
static long long number(const char *p)
{
	long long v = 0;
	int any = 0;

	while (*p == ' ' || *p == '\t')
		p++;
	for (; *p; p++) {
		if (*p == ',')
			continue;
		if (*p < '0' || *p > '9')
			break;
		v = v * 10 + (*p - '0');
		any = 1;
	}
	return any ? v : -1;
}

static const char *after(const char *line, const char *label)
{
	size_t n = strlen(label);

	return strncmp(line, label, n) ? NULL : line + n;
}

void health_parse(const char *text, struct health *h)
{
	const char *line = text, *v;

	h->passed = -1;
	h->realloc = h->pending = h->uncorrectable = h->crc_errors = -1;
	h->media_errors = h->critical_warning = h->grown_defects = -1;
	while (line && *line) {
		const char *next = strchr(line, '\n');
		char buf[512];
		size_t n = next ? (size_t)(next - line) : strlen(line);
		int id, at = 0;
		long long raw;

		if (n >= sizeof(buf))
			n = sizeof(buf) - 1;
		memcpy(buf, line, n);
		buf[n] = 0;
		line = next ? next + 1 : NULL;

		if (strstr(buf, "self-assessment test result: PASSED") ||
		    !strcmp(buf, "SMART Health Status: OK"))
			h->passed = 1;
		else if (strstr(buf, "self-assessment test result: FAILED") ||
			 (!strncmp(buf, "SMART Health Status:", 20) &&
			  strcmp(buf, "SMART Health Status: OK")))
			h->passed = 0;
		else if ((v = after(buf, "Critical Warning:")))
			h->critical_warning = strtoll(v, NULL, 16);
		else if ((v = after(buf, "Media and Data Integrity Errors:")))
			h->media_errors = number(v);
		else if ((v = after(buf, "Elements in grown defect list:")))
			h->grown_defects = number(v);
		/* ID# NAME FLAG VALUE WORST THRESH TYPE UPDATED FAILED RAW */
		else if (sscanf(buf, "%d %*s 0x%*x %*d %*d %*s %*s %*s %*s %n",
				&id, &at) == 1 && at > 0 &&
			 (raw = number(buf + at)) >= 0) {
			switch (id) {
			case 5: h->realloc = raw; break;
			case 197: h->pending = raw; break;
			case 198: h->uncorrectable = raw; break;
			case 199: h->crc_errors = raw; break;
			}
		}
	}
}

int health_read_many(const char *smartctl, const char *const *devs, int n,
		     unsigned timeout_s, struct health *hs)
{
	struct subproc_job *jobs = calloc((size_t)n + 1, sizeof(*jobs));
	char *(*argv)[5] = calloc((size_t)n + 1, sizeof(*argv));
	int i, ret;

	for (i = 0; i < n; i++) {
		memset(&hs[i], 0, sizeof(hs[i]));
		health_parse("", &hs[i]);
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
		argv[i][1] = "-H";
		argv[i][2] = "-A";
		argv[i][3] = (char *)devs[i];
		jobs[i].argv = argv[i];
		jobs[i].err = SUBPROC_STDERR_PIPE;
	}
	ret = subproc_many(jobs, n, timeout_s * 1000);
	for (i = 0; i < n; i++) {
		if (jobs[i].done && jobs[i].out) {
			hs[i].text = jobs[i].out;
			hs[i].len = jobs[i].len;
			health_parse(hs[i].text, &hs[i]);
			hs[i].ran = hs[i].len > 0;
		} else {
			free(jobs[i].out);
		}
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
