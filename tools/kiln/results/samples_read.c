/* SPDX-License-Identifier: MIT */
/*
 * Description: samples.csv read back into each disk's series of
 * throughput (see samples_read.h), so kiln report plots a run as the run
 * did. A row is "elapsed_s,target,phase,pass,write_bytes,read_bytes", the
 * bytes moved since that target's row before; a sample writes a row for
 * each target that moved, all at one time.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/samples_read.h"

/* The disk a row names (its label as monitor.c writes it), or -1. */
static int disk_of(const struct record *r, const char *name, int hint)
{
	int k, i;

	for (k = 0; k < r->n; k++) {
		const char *a = r->disks[(hint + k) % r->n].label, *b = name;

		i = (hint + k) % r->n;
		for (; *a && *b; a++, b++)
			if ((*a == ',' || *a == '\n' ? '_' : *a) != *b)
				break;
		if (!*a && !*b)
			return i;
	}
	return -1;
}

/* What a disk's rows wait for: a row is added once another follows it. */
struct pending {
	int have;
	double w, r;		/* MB/s of its last row */
	unsigned idle;		/* samples since then without a row */
};

/* One sample's time gone: the disks with no row in it moved nothing. */
static void sample_end(struct record *r, const char *seen, struct pending *p)
{
	int i;

	for (i = 0; i < r->n; i++)
		if (!seen[i] && p[i].have)
			p[i].idle++;
}

/*
 * A disk's row: its row before, the idle seconds after that as zeros,
 * and this one kept until another follows. A disk's last row is the
 * sample that found it done, which the monitor leaves out of the series.
 */
static void row(struct monitor_series *s, struct pending *p, double secs,
		double w, double rd)
{
	if (p->have)
		monitor_series_add(s, p->w, p->r);
	for (; p->idle; p->idle--)
		monitor_series_add(s, 0, 0);
	p->have = 1;
	p->w = w / secs / 1e6;
	p->r = rd / secs / 1e6;
}

int samples_read_series(const char *path, struct record *r)
{
	FILE *f = fopen(path, "r");
	char *line = NULL, *seen = calloc((size_t)r->n + 1, 1);
	struct pending *idle = calloc((size_t)r->n + 1, sizeof(*idle));
	double t = 0, last = 0, secs = 1;
	size_t cap = 0, n = r->n > 0 ? (size_t)r->n : 0;
	int i, hint = 0;

	if (!f || !seen || !idle || !n) {
		if (f)
			fclose(f);
		free(seen);
		free(idle);
		return !f ? -errno : n ? -ENOMEM : 0;
	}
	for (i = 0; i < r->n; i++)
		if (r->disks[i].mt)
			memset(&r->disks[i].mt->series, 0,
			       sizeof(r->disks[i].mt->series));
	while (getline(&line, &cap, f) > 0) {
		char *name, *w, *rd, *save = NULL;
		double at = strtod(line, &name);

		if (*name != ',' || !strtok_r(name + 1, ",", &save))
			continue;
		name++;
		strtok_r(NULL, ",", &save);		/* phase */
		strtok_r(NULL, ",", &save);		/* pass */
		w = strtok_r(NULL, ",", &save);
		rd = strtok_r(NULL, ",\n", &save);
		if (!w || !rd)
			continue;
		if (at != t) {
			if (t > 0)
				sample_end(r, seen, idle);
			memset(seen, 0, n);
			last = t;
			t = at;
			secs = t - last > 0.001 ? t - last : 0.001;
		}
		i = disk_of(r, name, hint);
		if (i < 0 || !r->disks[i].mt || seen[i])
			continue;
		seen[i] = 1;
		hint = (i + 1) % r->n;
		row(&r->disks[i].mt->series, &idle[i], secs, strtod(w, NULL),
		    strtod(rd, NULL));
	}
	free(line);
	free(seen);
	free(idle);
	fclose(f);
	return 0;
}
