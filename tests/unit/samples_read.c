/* SPDX-License-Identifier: MIT */
/*
 * Description: samples.csv read back into each disk's series of
 * throughput, as the monitor made it for the plots: a point a sample, the
 * samples a disk moved nothing in as zeros, its last row (the sample that
 * found it done) left out, labels matched as monitor.c writes them (a
 * comma as "_"), a file that is not there said, not taken for a run.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../lib/tap.h"
#include "judge/record.h"
#include "results/samples_read.h"

static const char csv[] =
	"elapsed_s,target,phase,pass,write_bytes,read_bytes\n"
	"1.000,a_1,write,1,100000000,0\n"
	"1.000,b,write,1,50000000,0\n"
	"2.000,a_1,write,1,100000000,0\n"
	"3.000,a_1,verify,1,0,200000000\n"
	"3.000,b,write,1,50000000,0\n"
	"4.000,b,verify,1,0,10\n";

int main(int argc, char **argv)
{
	static struct monitor_target mt[2];
	const struct monitor_series *a = &mt[0].series, *b = &mt[1].series;
	struct settings s;
	struct record r;
	char path[64];
	FILE *f;

	tap_args(argc, argv);
	tap_plan(4);
	snprintf(path, sizeof(path), "/tmp/kiln-samples-%d.csv", (int)getpid());
	f = fopen(path, "w");
	if (!f || fputs(csv, f) < 0 || fclose(f))
		tap_bail("cannot write %s", path);
	settings_defaults(&s, SCOPE_BURN);
	record_init(&r, "burn", 0, NULL, &s);
	if (!record_add(&r, "/tmp/a,1", 0) || !record_add(&r, "/dev/b", 0))
		tap_bail("out of memory");
	snprintf(r.disks[0].label, sizeof(r.disks[0].label), "a,1");
	snprintf(r.disks[1].label, sizeof(r.disks[1].label), "b");
	r.disks[0].mt = &mt[0];
	r.disks[1].mt = &mt[1];
	tap_ok(samples_read_series(path, &r) == 0, "samples.csv read");
	tap_ok(a->n == 2 && a->write[0] == 100 && a->write[1] == 100 &&
	       a->read[1] == 0, "a,1: two points, its last row left out "
	       "(%u: %.0f %.0f)", a->n, a->write[0], a->write[1]);
	tap_ok(b->n == 3 && b->write[0] == 50 && b->write[1] == 0 &&
	       b->write[2] == 50, "b: the sample it moved nothing in is a "
	       "zero (%u)", b->n);
	unlink(path);
	tap_ok(samples_read_series(path, &r) == -ENOENT && a->n == 2,
	       "no samples.csv: said, the series left as they were");
	record_free(&r);
	return tap_done();
}
