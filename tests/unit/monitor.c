/* SPDX-License-Identifier: MIT */
/*
 * Description: the monitor is a function of the counters it is given, at
 * the times it is given them: a phase's slowest and fastest seconds count
 * only whole seconds spent in that one moving phase (a phase change is no
 * dip), samples.csv has millisecond times and never two rows of one
 * target at one time, the status line names the phase, the throughput,
 * the slowest target, the disks done, the errors and the ETA (from the
 * bytes planned or the time left), and ends "stopped" or "done"; the
 * throughput series keeps at most 480 points by doubling its step.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/tap.h"
#include "engine/held.h"
#include "judge/monitor.h"

#define MB 1000000ull
#define MS 1000000ull
#define SEC 1000000000ull
/* Any start: the monitor only ever subtracts it. */
#define T0 (1000 * SEC)

static struct engine_counters c[4];

static void at(struct monitor *m, uint64_t ms)
{
	monitor_sample(m, T0 + ms * MS, c);
}

static void go(int i, int phase, uint64_t write_mb, uint64_t read_mb)
{
	c[i].state = STATE_RUNNING;
	c[i].phase = phase;
	c[i].pass = 1;
	c[i].run_pass = 1;
	c[i].bytes_written += write_mb * MB;
	c[i].bytes_read += read_mb * MB;
}

/* Rows of samples.csv whose time and target are both those of another. */
static int duplicates(const char *csv)
{
	char *copy = strdup(csv), *line, *save = NULL;
	char **keys = NULL;
	int n = 0, dup = 0, i;

	for (line = strtok_r(copy, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *comma = strchr(line, ',');

		comma = comma ? strchr(comma + 1, ',') : NULL;
		if (comma)
			*comma = 0;
		for (i = 0; i < n; i++)
			if (!strcmp(keys[i], line)) {
				tap_diag("two rows at %s", line);
				dup++;
			}
		keys = realloc(keys, (size_t)(n + 1) * sizeof(*keys));
		keys[n++] = line;
	}
	free(keys);
	free(copy);
	return dup;
}

static int rows(const char *csv)
{
	int n = 0;

	for (; *csv; csv++)
		n += *csv == '\n';
	return n;
}

static void test_min_max(void)
{
	static const char *const names[] = { "sda", "nvme0n1" };
	struct monitor m;
	struct monitor_target *a, *b;
	char *csv = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&csv, &len);
	int p, fresh = 1;

	memset(c, 0, sizeof(c));
	if (!f || monitor_init(&m, names, 2, f, T0))
		tap_bail("cannot start a monitor");
	a = &m.mt[0];
	b = &m.mt[1];
	for (p = 0; p < PHASES; p++)
		fresh &= a->min[p] == -1 && !a->seconds[p] && !a->max[p];
	tap_ok(fresh, "a new monitor has measured nothing (min -1)");

	go(0, PHASE_WRITE, 100, 0);
	go(1, PHASE_WRITE, 200, 0);
	at(&m, 1000);
	tap_ok(a->seconds[PHASE_WRITE] == 0 && a->min[PHASE_WRITE] == -1,
	       "the second a phase starts in is not a whole second of it");
	go(0, PHASE_WRITE, 100, 0);
	go(1, PHASE_WRITE, 200, 0);
	at(&m, 2000);
	go(0, PHASE_WRITE, 30, 0);
	go(1, PHASE_WRITE, 200, 0);
	at(&m, 3000);
	go(0, PHASE_WRITE, 150, 0);
	go(1, PHASE_WRITE, 200, 0);
	at(&m, 4000);
	tap_ok(a->seconds[PHASE_WRITE] == 3 && a->min[PHASE_WRITE] == 30 &&
	       a->max[PHASE_WRITE] == 150,
	       "whole seconds in one phase: slowest 30, fastest 150 MB/s");
	tap_ok(b->seconds[PHASE_WRITE] == 3 && b->min[PHASE_WRITE] == 200 &&
	       b->max[PHASE_WRITE] == 200, "...each target its own");

	/* The tail of a phase and the head of the next share a second. */
	go(0, PHASE_FLUSH, 5, 0);
	go(1, PHASE_WRITE, 200, 0);
	at(&m, 5000);
	go(0, PHASE_FLUSH, 0, 0);
	go(1, PHASE_WRITE, 200, 0);
	at(&m, 6000);
	go(0, PHASE_VERIFY, 0, 20);
	go(1, PHASE_WRITE, 200, 0);
	at(&m, 7000);
	tap_ok(a->seconds[PHASE_WRITE] == 3 && a->min[PHASE_WRITE] == 30 &&
	       a->seconds[PHASE_VERIFY] == 0 && a->min[PHASE_VERIFY] == -1,
	       "a phase change is no dip: neither phase counts that second");
	tap_ok(a->seconds[PHASE_FLUSH] == 0 && a->min[PHASE_FLUSH] == -1,
	       "flush moves no data: its seconds are never counted");

	go(0, PHASE_VERIFY, 0, 80);
	go(1, PHASE_WRITE, 200, 0);
	at(&m, 8000);
	tap_ok(a->seconds[PHASE_VERIFY] == 1 && a->min[PHASE_VERIFY] == 80 &&
	       a->max[PHASE_VERIFY] == 80, "verify: a whole second counts");

	go(0, PHASE_VERIFY, 0, 15);
	go(1, PHASE_WRITE, 300, 0);
	at(&m, 9500);
	tap_ok(a->seconds[PHASE_VERIFY] == 1 && a->min[PHASE_VERIFY] == 80 &&
	       b->seconds[PHASE_WRITE] == 7,
	       "a sample 1.5 s after the last is not a whole second");
	go(0, PHASE_VERIFY, 0, 70);
	go(1, PHASE_WRITE, 200, 0);
	at(&m, 10500);
	tap_ok(a->seconds[PHASE_VERIFY] == 2 && a->min[PHASE_VERIFY] == 70,
	       "...and the second after it is again");

	/* An idle target in an unchanged phase writes no row. */
	go(0, PHASE_VERIFY, 0, 0);
	go(1, PHASE_WRITE, 200, 0);
	at(&m, 11500);
	go(0, PHASE_VERIFY, 0, 50);
	go(1, PHASE_WRITE, 200, 0);
	monitor_sample(&m, T0 + 12345678912ull, c);
	/* Sampled again at one time: the sample is refused. */
	go(0, PHASE_VERIFY, 0, 50);
	monitor_sample(&m, T0 + 12345678912ull, c);
	fflush(f);
	tap_ok(!strncmp(csv, "1.000,sda,write,1,100000000,0\n"
			"1.000,nvme0n1,write,1,200000000,0\n2.000,", 70),
	       "samples.csv: time, target, phase, pass, bytes written, read");
	tap_ok(strstr(csv, "\n5.000,sda,flush,1,5000000,0\n") &&
	       !strstr(csv, "\n6.000,sda,") &&
	       strstr(csv, "\n7.000,sda,verify,1,0,20000000\n") &&
	       !strstr(csv, "\n11.500,sda,") &&
	       strstr(csv, "\n11.500,nvme0n1,"),
	       "a row when a target moved or changed phase, none when idle");
	tap_ok(strstr(csv, "\n9.500,sda,") &&
	       strstr(csv, "\n12.345,sda,verify,1,0,50000000\n"),
	       "times are seconds with milliseconds, cut, not rounded");
	tap_ok(rows(csv) == 22 && !duplicates(csv),
	       "never two rows of one target at one time (%d rows)",
	       rows(csv));

	monitor_free(&m);
	fclose(f);
	free(csv);
}

/* Two samples in one millisecond (a stop, then a worker ending). */
static void test_same_millisecond(void)
{
	static const char *const names[] = { "sda" };
	struct monitor m;
	char *csv = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&csv, &len);
	unsigned long long w = 0, r = 0;
	char *line;

	memset(c, 0, sizeof(c));
	if (!f || monitor_init(&m, names, 1, f, T0))
		tap_bail("cannot start a monitor");
	go(0, PHASE_WRITE, 100, 0);
	at(&m, 1000);
	go(0, PHASE_WRITE, 100, 0);
	monitor_sample(&m, T0 + 2000 * MS + 100000, c);
	go(0, PHASE_WRITE, 3, 0);
	monitor_sample(&m, T0 + 2000 * MS + 400000, c);
	go(0, PHASE_WRITE, 2, 0);
	c[0].state = STATE_STOPPED;
	monitor_sample(&m, T0 + 2000 * MS + 900000, c);
	fflush(f);
	tap_ok(!duplicates(csv) &&
	       strstr(csv, "\n2.000,sda,write,1,100000000,") &&
	       strstr(csv, "\n2.001,sda,write,1,3000000,") &&
	       strstr(csv, "\n2.002,sda,write,1,2000000,"),
	       "samples within one millisecond: each row the next one");
	for (line = csv; line && *line; line = strchr(line, '\n'),
	     line = line ? line + 1 : NULL) {
		unsigned long long lw, lr;

		if (sscanf(line, "%*[^,],%*[^,],%*[^,],%*u,%llu,%llu", &lw,
			   &lr) == 2) {
			w += lw;
			r += lr;
		}
	}
	tap_ok(w == c[0].bytes_written && r == c[0].bytes_read,
	       "...and the rows still add up to every byte moved (%llu)", w);
	tap_ok(m.c[0].state == STATE_STOPPED && m.mt[0].done_ns,
	       "...and the monitor holds the last counters given");
	monitor_free(&m);
	fclose(f);
	free(csv);
}

static void test_csv_names(void)
{
	static const char *const names[] = { "a,b\nc" };
	struct monitor m;
	char *csv = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&csv, &len);

	memset(c, 0, sizeof(c));
	if (!f || monitor_init(&m, names, 1, f, T0))
		tap_bail("cannot start a monitor");
	go(0, PHASE_READ, 0, 1);
	at(&m, 1000);
	fflush(f);
	tap_ok(!strcmp(csv, "1.000,a_b_c,read,1,0,1000000\n"),
	       "a label with a comma or newline cannot break a row");
	monitor_free(&m);
	fclose(f);
	free(csv);
}

static void test_status(void)
{
	static const char *const names[] = { "sda", "sdb",
		"a-label-much-longer-than-sixteen" };
	struct monitor m;
	char line[200];

	memset(c, 0, sizeof(c));
	if (monitor_init(&m, names, 3, NULL, T0))
		tap_bail("cannot start a monitor");
	go(0, PHASE_WRITE, 1000, 0);
	go(1, PHASE_WRITE, 500, 0);
	go(2, PHASE_VERIFY, 0, 2000);
	at(&m, 10000);
	monitor_status(&m, T0 + 10 * SEC, 0, line, sizeof(line));
	if (!tap_ok(!strcmp(line, "00:00:10 pass 1 write 150 read 200 MB/s  "
			    "slowest sdb 50 MB/s  done 0/3  eta ?"),
		    "status: the pass, MB/s written and read apart, the "
		    "slowest by label and its MB/s, done, no ETA; no room for "
		    "the phase and errors 0"))
		tap_diag("%s", line);

	go(0, PHASE_WRITE, 1000, 0);
	go(1, PHASE_WRITE, 2000, 0);
	go(2, PHASE_VERIFY, 0, 100);
	c[0].io_errors = 2;
	c[2].bad_units = 3;
	c[1].state = STATE_DONE;
	at(&m, 20000);
	monitor_status(&m, T0 + 20 * SEC, 0, line, sizeof(line));
	if (!tap_ok(!strcmp(line, "00:00:20 pass 1 write 300 read 10 MB/s  "
			    "slowest ~ixteen 10 MB/s  errors 5  eta ?"),
		    "rates since the last status; a finished disk is never "
		    "the slowest; errors are I/O errors and bad units, said "
		    "before the slowest, whose long label keeps its end"))
		tap_diag("%s", line);

	m.kernel = 152;
	at(&m, 25000);
	monitor_status(&m, T0 + 25 * SEC, 0, line, sizeof(line));
	if (!tap_ok(strstr(line, "  errors 5  kernel 152  eta ?") != NULL,
		    "the kernel's error lines of the disks counted, beside "
		    "kiln's own errors"))
		tap_diag("%s", line);

	c[0].state = STATE_STALLED;
	c[2].state = STATE_DONE;
	at(&m, 30000);
	monitor_status(&m, T0 + 30 * SEC, 0, line, sizeof(line));
	if (!tap_ok(!strcmp(line, "00:00:30 done 3/3  1 pass  written 4.2 GiB "
			    "read 2.0 GiB  errors 5  kernel 152"),
		    "all ended: \"done\""))
		tap_diag("%s", line);
	m.kernel = 0;
	monitor_status(&m, T0 + 3725 * SEC, 1, line, sizeof(line));
	if (!tap_ok(!strcmp(line, "01:02:05 stopped 3/3  1 pass  written "
			    "4.2 GiB read 2.0 GiB  errors 5"),
		    "all ended after a stop: \"stopped\", never \"done\""))
		tap_diag("%s", line);
	monitor_free(&m);
}

/*
 * A rate is bytes over the time the disk was busy with them: one that
 * ended 5 s into a 10 s interval moved its bytes in 5 s.
 */
static void test_status_busy(void)
{
	static const char *const names[] = { "sda", "sdb" };
	struct disktable_row rows[2];
	struct monitor m;
	char line[200];
	int i;

	memset(c, 0, sizeof(c));
	if (monitor_init(&m, names, 2, NULL, T0))
		tap_bail("cannot start a monitor");
	go(0, PHASE_WRITE, 0, 0);
	go(1, PHASE_WRITE, 0, 0);
	for (i = 1; i <= 10; i++) {
		go(0, PHASE_WRITE, 100, 0);
		if (i <= 5)
			go(1, PHASE_WRITE, 100, 0);
		if (i == 5)
			c[1].state = STATE_DONE;
		at(&m, (uint64_t)i * 1000);
	}
	monitor_status(&m, T0 + 10 * SEC, 0, line, sizeof(line));
	tap_ok(strstr(line, " write 200 read 0 MB/s ") != NULL,
	       "status: a disk done halfway counts its busy 5 s (%s)", line);
	monitor_table_rows(&m, T0 + 10 * SEC, rows);
	tap_ok((int)(rows[1].mbps + 0.5) == 100 &&
	       (int)(rows[0].mbps + 0.5) == 100,
	       "the table: each disk's MB/s over its busy time (%.0f, %.0f)",
	       rows[0].mbps, rows[1].mbps);
	monitor_free(&m);
}

/* "pass 93"; targets in different passes; passes past max-writes. */
static void test_status_passes(void)
{
	static const char *const names[] = { "sda", "sdb" };
	struct monitor m;
	char line[200];

	memset(c, 0, sizeof(c));
	if (monitor_init(&m, names, 2, NULL, T0))
		tap_bail("cannot start a monitor");
	go(0, PHASE_VERIFY, 0, 1024);
	go(1, PHASE_VERIFY, 0, 1024);
	c[0].run_pass = 93;
	c[1].run_pass = 93;
	at(&m, 10000);
	monitor_status(&m, T0 + 10 * SEC, 0, line, sizeof(line));
	tap_ok(strstr(line, "00:00:10 pass 93 write 0 read ") == line,
	       "the run's pass, not the pass whose units are read (%s)", line);
	c[1].run_pass = 90;
	at(&m, 20000);
	monitor_status(&m, T0 + 20 * SEC, 0, line, sizeof(line));
	tap_ok(strstr(line, "00:00:20 pass 90-93 write ") == line,
	       "targets in different passes: the span (%s)", line);
	m.mt[0].write_passes = 2;
	m.mt[1].write_passes = 2;
	c[0].run_pass = 3;
	c[1].run_pass = 3;
	c[0].pass = c[1].pass = 2;
	at(&m, 30000);
	monitor_status(&m, T0 + 30 * SEC, 0, line, sizeof(line));
	tap_ok(strstr(line, "00:00:30 pass 3 (verify only) write 0 read 0 "
			"MB/s  slowest sda 0 MB/s  ") == line,
	       "past its writes, a pass says max-writes made it verify only "
	       "(%s)", line);
	c[0].state = c[1].state = STATE_DONE;
	at(&m, 40000);
	monitor_status(&m, T0 + 40 * SEC, 0, line, sizeof(line));
	tap_ok(strstr(line, " done 2/2  3 passes (2 written: max-writes)  ") !=
	       NULL, "and its last line says so (%s)", line);
	m.mt[0].write_passes = m.mt[1].write_passes = 3;
	at(&m, 50000);
	monitor_status(&m, T0 + 50 * SEC, 0, line, sizeof(line));
	tap_ok(!strstr(line, "max-writes"),
	       "a cap that did not bind is not said (%s)", line);
	monitor_free(&m);
}

/* The per-disk table's rows: MB/s since the last table, done, time left. */
static void test_table_rows(void)
{
	static const char *const names[] = { "sda", "sdb" };
	struct disktable_row rows[2];
	struct monitor m;

	memset(c, 0, sizeof(c));
	if (monitor_init(&m, names, 2, NULL, T0))
		tap_bail("cannot start a monitor");
	m.mt[0].planned = 1000 * MB;
	go(0, PHASE_WRITE, 250, 0);
	go(1, PHASE_WRITE, 100, 0);
	at(&m, 10000);
	monitor_table_rows(&m, T0 + 10 * SEC, rows);
	tap_ok(!strcmp(rows[0].name, "sda") && rows[0].mbps == 25 &&
	       rows[0].done == 0.25 && rows[0].eta == 30 && !rows[0].state &&
	       rows[0].group == -1,
	       "by the bytes planned: 25 MB/s, 25%% done, 30 s left");
	tap_ok(rows[1].done < 0 && rows[1].eta < 0 && rows[1].mbps == 10,
	       "nothing planned, no duration: done and time left unknown");
	go(0, PHASE_VERIFY, 0, 100);
	c[1].state = STATE_STALLED;
	at(&m, 20000);
	m.duration_ns = 40 * SEC;
	monitor_table_rows(&m, T0 + 20 * SEC, rows);
	tap_ok(rows[0].mbps == 10 && rows[0].done == 0.5 && rows[0].eta == 20,
	       "since the last table; the duration ends it first: 50%%, 20 s");
	tap_ok(rows[1].state && !strcmp(rows[1].state,
					engine_state_name(STATE_STALLED)),
	       "a disk no longer running says its state");
	c[0].state = STATE_DONE;
	at(&m, 21000);
	monitor_table_rows(&m, T0 + 21 * SEC, rows);
	tap_ok(rows[0].done == 1, "a finished disk is all done");
	monitor_free(&m);
}

static void test_eta(void)
{
	static const char *const names[] = { "sda", "sdb" };
	struct monitor m;
	char line[200];

	memset(c, 0, sizeof(c));
	if (monitor_init(&m, names, 2, NULL, T0))
		tap_bail("cannot start a monitor");
	tap_ok(monitor_eta(&m, T0 + 10 * SEC) == -1,
	       "nothing planned, no duration: the ETA is unknown");

	m.mt[0].planned = 1000 * MB;
	m.mt[1].planned = 1000 * MB;
	go(0, PHASE_WRITE, 500, 0);
	go(1, PHASE_WRITE, 200, 50);
	at(&m, 10000);
	tap_ok(monitor_eta(&m, T0 + 10 * SEC) == 30,
	       "from the bytes planned: the slowest target's 30 s decide");
	monitor_status(&m, T0 + 10 * SEC, 0, line, sizeof(line));
	tap_ok(strstr(line, "  eta 00:00:30") != NULL,
	       "the status line shows it (%s)", line);
	tap_ok(monitor_eta(&m, T0 + 500 * MS) == -1,
	       "not before a second has passed");

	c[1].state = STATE_DONE;
	at(&m, 11000);
	tap_ok(monitor_eta(&m, T0 + 10 * SEC) == 10,
	       "a finished target no longer counts");
	c[0].bytes_written = 1200 * MB;
	at(&m, 12000);
	tap_ok(monitor_eta(&m, T0 + 12 * SEC) == 0,
	       "past the bytes planned: 0, never negative");

	c[0].bytes_written = 500 * MB;
	at(&m, 13000);
	m.duration_ns = 100 * SEC;
	tap_ok(monitor_eta(&m, T0 + 10 * SEC) == 10,
	       "with a duration too: whichever ends the run first (bytes)");
	m.duration_ns = 15 * SEC;
	tap_ok(monitor_eta(&m, T0 + 10 * SEC) == 5,
	       "...or the time limit");
	m.mt[0].planned = 0;
	m.duration_ns = 100 * SEC;
	tap_ok(monitor_eta(&m, T0 + 10 * SEC) == 90,
	       "from a duration alone: the time left");
	tap_ok(monitor_eta(&m, T0 + 150 * SEC) == 0,
	       "...and 0 once it has run out");
	monitor_free(&m);
}

static void test_series(void)
{
	static const char *const names[] = { "sda" };
	struct monitor m;
	struct monitor_series *s;
	unsigned i;
	int ok;

	memset(c, 0, sizeof(c));
	if (monitor_init(&m, names, 1, NULL, T0))
		tap_bail("cannot start a monitor");
	s = &m.mt[0].series;
	/* Second i writes i MB and reads 2i MB. */
	for (i = 1; i <= MONITOR_POINTS; i++) {
		go(0, PHASE_WRITE, i, 2 * i);
		at(&m, i * 1000);
	}
	ok = s->n == MONITOR_POINTS && s->step == 1;
	for (i = 0; ok && i < MONITOR_POINTS; i++)
		ok = s->write[i] == i + 1 && s->read[i] == 2 * (i + 1);
	tap_ok(ok, "a point a second, up to %d", MONITOR_POINTS);

	go(0, PHASE_WRITE, MONITOR_POINTS + 1, 2 * (MONITOR_POINTS + 1));
	at(&m, (MONITOR_POINTS + 1) * 1000);
	ok = s->n == MONITOR_POINTS / 2 && s->step == 2;
	for (i = 0; ok && i < MONITOR_POINTS / 2; i++)
		ok = s->write[i] == 2 * i + 1.5f && s->read[i] == 4 * i + 3;
	tap_ok(ok, "past %d: neighbours merge into their average, the step "
	       "doubles (n %u, step %u)", MONITOR_POINTS, s->n, s->step);

	go(0, PHASE_WRITE, MONITOR_POINTS + 2, 2 * (MONITOR_POINTS + 2));
	at(&m, (MONITOR_POINTS + 2) * 1000);
	tap_ok(s->n == MONITOR_POINTS / 2 + 1 &&
	       s->write[MONITOR_POINTS / 2] == MONITOR_POINTS + 1.5f,
	       "the next point averages the two seconds its step covers");

	for (i = MONITOR_POINTS + 3; i <= 2 * MONITOR_POINTS + 2; i++) {
		go(0, PHASE_WRITE, i, 2 * i);
		at(&m, i * 1000);
	}
	ok = s->n == MONITOR_POINTS / 2 && s->step == 4;
	for (i = 0; ok && i < MONITOR_POINTS / 2; i++)
		ok = s->write[i] == 4 * i + 2.5f;
	tap_ok(ok, "full again: the step doubles again, to 4 (n %u, step %u)",
	       s->n, s->step);

	i = s->n;
	c[0].state = STATE_DONE;
	go(0, PHASE_WRITE, 1000, 0);
	c[0].state = STATE_DONE;
	at(&m, 5000 * 1000);
	at(&m, 50000 * 1000);
	tap_ok(s->n == i && m.mt[0].done_ns == T0 + 5000 * SEC,
	       "once a target has ended its series stops");
	monitor_free(&m);
}

/*
 * The slowest whole seconds of a phase, kept with their times (dips.h):
 * the MONITOR_SLOW slowest, slowest first, and the first and last second
 * the target was busy; monitor_own_min() leaves out the shared ones.
 */
static void test_slowest(void)
{
	struct monitor_target mt;
	unsigned t, sorted = 1;

	memset(&mt, 0, sizeof(mt));
	mt.min[PHASE_WRITE] = mt.min[PHASE_READ] = -1;
	/* 100 seconds at 200 MB/s but second 50 at 10, second 70 at 30. */
	for (t = 1; t <= 100; t++)
		monitor_slow_add(&mt, PHASE_WRITE, t * 1000,
				 t == 50 ? 10 : t == 70 ? 30 : 200 + t % 7);
	for (t = 1; t < mt.nslow[PHASE_WRITE]; t++)
		sorted &= mt.slow[PHASE_WRITE][t - 1].mbps <=
			  mt.slow[PHASE_WRITE][t].mbps;
	tap_ok(mt.nslow[PHASE_WRITE] == MONITOR_SLOW && sorted &&
	       mt.slow[PHASE_WRITE][0].ms == 50000 &&
	       mt.slow[PHASE_WRITE][1].ms == 70000 &&
	       mt.busy_from_ms == 1000 && mt.busy_to_ms == 100000,
	       "the %d slowest seconds are kept, slowest first, with their "
	       "times", MONITOR_SLOW);
	mt.slow[PHASE_WRITE][0].shared = 1;
	tap_ok(monitor_own_min(&mt, PHASE_WRITE) == 30,
	       "its own slowest leaves out a shared second");
	for (t = 0; t < MONITOR_SLOW; t++)
		mt.slow[PHASE_WRITE][t].shared = 1;
	tap_ok(mt.has_unkept[PHASE_WRITE] &&
	       mt.unkept[PHASE_WRITE].mbps >=
	       mt.slow[PHASE_WRITE][MONITOR_SLOW - 1].mbps &&
	       monitor_own_min(&mt, PHASE_WRITE) == mt.unkept[PHASE_WRITE].mbps,
	       "...all of them shared: the slowest not kept, no slower than "
	       "its own");
	tap_ok(monitor_own_min(&mt, PHASE_READ) == -1 && mt.nslow[PHASE_READ] == 0,
	       "a phase with no seconds has no slowest");
}

/*
 * The seconds the machine took from a run: its samples came late (the
 * process frozen with the monitor in it), and seconds most disks dipped
 * together within it; a run is a pass of one phase, and another pass's
 * stall is not its.
 */
static void test_stalled(void)
{
	const char *names[] = { "sda" };
	struct monitor m;
	struct monitor_target *mt;
	uint64_t t;

	memset(c, 0, sizeof(c));
	if (monitor_init(&m, names, 1, NULL, T0))
		tap_bail("monitor_init");
	mt = &m.mt[0];
	/* Pass 1 reads at 100 MB/s for 10 s, frozen 3 s after second 5. */
	for (t = 1; t <= 10; t++) {
		go(0, PHASE_READ, 0, t == 6 ? 400 : 100);
		at(&m, t <= 5 ? t * 1000 : t * 1000 + 3000);
	}
	tap_ok(mt->runs[PHASE_READ][0].pass == 1 &&
	       mt->runs[PHASE_READ][0].from_ms == 0 &&
	       mt->runs[PHASE_READ][0].to_ms == 13000,
	       "a run of a phase spans its samples (%u-%u ms)",
	       mt->runs[PHASE_READ][0].from_ms, mt->runs[PHASE_READ][0].to_ms);
	tap_ok(monitor_stalled(mt, PHASE_READ, 1, 100) == 3,
	       "a sample 4 s after the one before: 3 s taken (%.2f)",
	       monitor_stalled(mt, PHASE_READ, 1, 100));
	/* Pass 2, steady, with a second of 25 MB/s most disks shared. */
	for (t = 14; t <= 20; t++) {
		go(0, PHASE_READ, 0, t == 16 ? 25 : 100);
		c[0].pass = 2;
		at(&m, t * 1000);
	}
	tap_ok(monitor_stalled(mt, PHASE_READ, 2, 100) == 0 &&
	       monitor_stalled(mt, PHASE_READ, 1, 100) == 3,
	       "...its next pass is a run of its own, and took none");
	mt->slow[PHASE_READ][0].shared = 1;
	tap_ok(mt->slow[PHASE_READ][0].ms == 16000 &&
	       monitor_stalled(mt, PHASE_READ, 2, 100) == 0.75 &&
	       monitor_stalled(mt, PHASE_READ, 1, 100) == 3,
	       "a second shared at 25 MB/s of 100: 0.75 s taken, of that "
	       "run alone");
	tap_ok(monitor_stalled(mt, PHASE_READ, 3, 100) == 0 &&
	       monitor_stalled(mt, PHASE_WRITE, 1, 100) == 0,
	       "a run not seen took nothing");
	monitor_free(&m);

	/*
	 * A dip of the machine starts and ends inside a second: the seconds
	 * either side of the ones most disks dipped in are partly its (at
	 * 60 and 40 MB/s of 100 here), and a second of 50 MB/s far from it
	 * is not.
	 */
	memset(c, 0, sizeof(c));
	if (monitor_init(&m, names, 1, NULL, T0))
		tap_bail("monitor_init");
	mt = &m.mt[0];
	for (t = 1; t <= 12; t++) {
		static const int mbps[13] = { 0, 100, 50, 100, 100, 60, 1, 1,
					      40, 100, 100, 100, 100 };

		go(0, PHASE_READ, 0, mbps[t]);
		c[0].pass = 1;
		at(&m, t * 1000);
	}
	for (t = 0; t < mt->nslow[PHASE_READ]; t++)
		if (mt->slow[PHASE_READ][t].mbps < 5)
			mt->slow[PHASE_READ][t].shared = 1;
	tap_ok(fabs(monitor_stalled(mt, PHASE_READ, 1, 100) - 2.98) < 0.01,
	       "the two seconds shared at 1 MB/s and the two beside them "
	       "(60, 40 MB/s): 2.98 s taken, not the lone 50 MB/s second "
	       "(%.2f)", monitor_stalled(mt, PHASE_READ, 1, 100));
	monitor_free(&m);
}

/*
 * Every status line fits the serial console's 80 columns, whatever the
 * disks: 60 of them with long labels in passes far apart, fast, with
 * errors by the thousand and a week left, max-writes binding, and the
 * last line; what is always there (the pass, MB/s written and read,
 * errors) is.
 */
static void test_status_width(void)
{
	enum { N = 60 };
	static struct engine_counters many[N];
	const char *names[N];
	char label[N][64], line[400];
	struct monitor m;
	size_t widest = 0;
	int i, round, ok = 1;

	for (i = 0; i < N; i++) {
		snprintf(label[i], sizeof(label[i]),
			 "%s%d", i % 2 ? "nvme" : "dm-uuid-LVM-a-very-long-name-",
			 i * 1000);
		names[i] = label[i];
	}
	if (monitor_init(&m, names, N, NULL, T0))
		tap_bail("cannot start a monitor");
	m.duration_ns = 7 * 86400 * SEC;
	for (round = 1; round <= 4; round++) {
		for (i = 0; i < N; i++) {
			many[i].state = STATE_RUNNING;
			many[i].phase = i % 2 ? PHASE_WRITE : PHASE_VERIFY;
			many[i].run_pass = 1000 + (unsigned)(i % 7) * 9000;
			many[i].pass = many[i].run_pass;
			/* NVMe's 7 GB/s each way: 420000 MB/s in all. */
			many[i].bytes_written += 7000 * MB;
			many[i].bytes_read += 7000 * MB;
			many[i].io_errors = round > 2 ? 100 : 0;
			m.mt[i].write_passes = round == 4 ? 2 : 0;
		}
		monitor_sample(&m, T0 + (uint64_t)round * SEC, many);
		monitor_status(&m, T0 + (uint64_t)round * SEC, 0, line,
			       sizeof(line));
		tap_diag("%s", line);
		if (strlen(line) > widest)
			widest = strlen(line);
		if (!strstr(line, " pass ") || !strstr(line, " MB/s") ||
		    !strstr(line, " write ") || !strstr(line, " read ") ||
		    (round <= 2 && !strstr(line, "  eta ")) ||
		    (round > 2 && !strstr(line, "  errors ")))
			ok = 0;
	}
	for (i = 0; i < N; i++) {
		many[i].state = STATE_DONE;
		m.mt[i].made = 1000 + i;
	}
	monitor_sample(&m, T0 + 5 * SEC, many);
	monitor_status(&m, T0 + 5 * SEC, 0, line, sizeof(line));
	if (!strstr(line, " done 60/60  1000-1059 passes  written "))
		ok = 0;
	tap_diag("%s", line);
	if (strlen(line) > widest)
		widest = strlen(line);
	tap_ok(widest <= MONITOR_WIDTH, "60 long labels, far passes, fast "
	       "disks, many errors: every line within %d columns (%zu)",
	       MONITOR_WIDTH, widest);
	tap_ok(ok, "...and each says the pass, MB/s written and read, "
	       "errors once there are some, else the ETA");
	monitor_free(&m);
}

/* The kernel's schedstat line: its second figure is the wait for a CPU. */
static void test_held_parse(void)
{
	uint64_t w = 7;

	tap_ok(!held_parse("1234 5678 9\n", &w) && w == 5678,
	       "schedstat: the second figure is the wait");
	tap_ok(!held_parse("0 0 0", &w) && w == 0, "...none yet: 0");
	tap_ok(held_parse("", &w) < 0 && held_parse("12\n", &w) < 0 &&
	       held_parse("a b c", &w) < 0 && held_parse(NULL, &w) < 0 &&
	       held_parse("1 -2x 3", &w) < 0,
	       "...no line of three figures: -1");
}

/*
 * A second the host kept the worker waiting for a CPU is the host's: the
 * wait comes back to seconds already kept (the kernel says it once the
 * thread runs again), a second held nine tenths or more is left out and
 * counted, one held in part is rated over the rest of it, and a long
 * hold makes room for the seconds after it.
 */
static void test_held(void)
{
	struct monitor_target mt;
	unsigned t;

	memset(&mt, 0, sizeof(mt));
	mt.min[PHASE_WRITE] = -1;
	/* 100 seconds at about 200 MB/s; 40 to 44 held, nothing moved. */
	for (t = 1; t <= 50; t++)
		monitor_slow_add(&mt, PHASE_WRITE, t * 1000,
				 t >= 40 && t <= 44 ? 0 : t == 47 ? 100 :
				 200 + t % 7);
	tap_ok(monitor_own_min(&mt, PHASE_WRITE) == 0 &&
	       !monitor_slowest_not_own(&mt, PHASE_WRITE),
	       "held seconds not yet said: its slowest ran 0 MB/s, its own");
	monitor_held(&mt, 39000, 44000);
	tap_ok(mt.held[PHASE_WRITE] == 5 &&
	       monitor_slowest_not_own(&mt, PHASE_WRITE) &&
	       monitor_own_min(&mt, PHASE_WRITE) == 100,
	       "said after them: the 5 seconds are the host's, left out and "
	       "counted (%u), its own slowest 100 MB/s (%.0f)",
	       mt.held[PHASE_WRITE], monitor_own_min(&mt, PHASE_WRITE));
	monitor_held(&mt, 46500, 47000);
	tap_ok(mt.held[PHASE_WRITE] == 5 &&
	       fabs(monitor_own_min(&mt, PHASE_WRITE) - 200) < 10,
	       "half a second held: its rate is over the other half (%.0f)",
	       monitor_own_min(&mt, PHASE_WRITE));
	for (t = 51; t <= 100; t++)
		monitor_slow_add(&mt, PHASE_WRITE, t * 1000,
				 t == 80 ? 10 : 200 + t % 7);
	tap_ok(monitor_own_min(&mt, PHASE_WRITE) == 10,
	       "a dip of its own after them is still its own");

	/* A hold longer than the seconds kept: 40 seconds of nothing. */
	memset(&mt, 0, sizeof(mt));
	mt.min[PHASE_READ] = -1;
	for (t = 1; t <= 50; t++)
		monitor_slow_add(&mt, PHASE_READ, t * 1000,
				 t >= 10 && t < 50 ? 0 : 200 + t % 7);
	monitor_held(&mt, 9000, 49500);
	for (t = 51; t <= 100; t++)
		monitor_slow_add(&mt, PHASE_READ, t * 1000,
				 t == 80 ? 15 : 200 + t % 7);
	tap_ok(mt.held[PHASE_READ] == MONITOR_SLOW &&
	       monitor_own_min(&mt, PHASE_READ) == 15,
	       "a hold past the %d seconds kept: left out, not a floor of "
	       "0 MB/s, and its own dip after it found (%.0f)", MONITOR_SLOW,
	       monitor_own_min(&mt, PHASE_READ));
}

/*
 * Through the samples, as a burn takes them: a worker held from 5 s to
 * 8 s moves nothing, and says so at 9 s (its held_ns and held_at); the
 * other target moves on. Its seconds 6 to 8 are the host's.
 */
static void test_held_samples(void)
{
	struct monitor m;
	const char *names[] = { "a", "b" };
	uint64_t s;

	memset(c, 0, sizeof(c));
	monitor_init(&m, names, 2, NULL, T0);
	for (s = 1; s <= 12; s++) {
		go(0, PHASE_READ, 0, s >= 6 && s <= 8 ? 0 : 500);
		go(1, PHASE_READ, 0, 500);
		if (s == 9) {
			c[0].held_ns = 3 * SEC;
			c[0].held_at = T0 + 8 * SEC + 50 * MS;
		}
		at(&m, s * 1000);
	}
	tap_ok(m.mt[0].held[PHASE_READ] == 3 &&
	       monitor_own_min(&m.mt[0], PHASE_READ) >= 499 &&
	       m.mt[1].held[PHASE_READ] == 0,
	       "3 seconds held, said late: left out (%u), its own slowest "
	       "%.0f MB/s; the other target's untouched",
	       m.mt[0].held[PHASE_READ],
	       monitor_own_min(&m.mt[0], PHASE_READ));
	monitor_free(&m);
}

int main(int argc, char **argv)
{
	tap_args(argc, argv);
	TAP_RUN(test_min_max);
	TAP_RUN(test_same_millisecond);
	TAP_RUN(test_csv_names);
	TAP_RUN(test_status);
	TAP_RUN(test_status_busy);
	TAP_RUN(test_status_passes);
	TAP_RUN(test_status_width);
	TAP_RUN(test_eta);
	TAP_RUN(test_table_rows);
	TAP_RUN(test_series);
	TAP_RUN(test_slowest);
	TAP_RUN(test_stalled);
	TAP_RUN(test_held_parse);
	TAP_RUN(test_held);
	TAP_RUN(test_held_samples);
	return tap_done();
}
