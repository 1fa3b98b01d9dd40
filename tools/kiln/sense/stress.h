/* SPDX-License-Identifier: MIT */
#ifndef KILN_STRESS_H
#define KILN_STRESS_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/*
 * The memory and the CPUs loaded beside the disks: Google's stressapptest
 * (Debian's, as the image packs it) run for the whole burn, below the
 * disks' threads in priority. Power, thermal and bus faults show only
 * under load, and a weak DIMM shows here as a miscompare, not as bad
 * units blamed on the disks. What it found is facts in the record
 * (record.h); judge/vitals_judge.c judges them.
 */

/* The program, found in kiln's PATH (the image's /usr/bin). */
#define STRESS_TOOL "stressapptest"
/* Miscompares kept with their address and words; all are counted. */
#define STRESS_KEPT 8
/* Less than this for the memory is no memory stress: nothing to load. */
#define STRESS_MIN_MEMORY (32ull << 20)
/* The memory of a CPU-only stress: its threads need a little. */
#define STRESS_CPU_MEMORY (16ull << 20)
/* Load steps: every so often the threads pause, a power spike each end. */
#define STRESS_PAUSE_DELAY 300
#define STRESS_PAUSE_DURATION 15
/* How long it may take to end once asked, before it is killed. */
#define STRESS_STOP_WAIT_S 20

/* How it ended, "ended" in result.json: stress_end_name() spells them. */
enum stress_end {
	STRESS_NOT_STARTED,	/* could not start, or no memory to load */
	STRESS_RUNNING,
	STRESS_STOPPED,		/* by kiln, at the burn's end */
	STRESS_DIED,		/* on its own, or killed, before the end */
	STRESS_ENDS
};

struct stress_miscompare {
	uint64_t address;	/* virtual, as stressapptest says it */
	uint64_t expected, found;
};

struct stress {
	int what;		/* enum settings_stress mask asked */
	char tool[64];		/* "stressapptest" */
	int end;		/* enum stress_end */
	char problem[240];	/* why not started, how it died; "" none */
	char note[240];		/* smaller than asked, and why; "" none */
	uint64_t memory_bytes;	/* what it was given (-M) */
	unsigned cpu_threads;	/* -C */
	unsigned copy_threads;	/* -m */
	double seconds;		/* it ran */
	/* Miscompares: the most stressapptest counted, the first kept. */
	uint64_t miscompares;
	int nkept;
	struct stress_miscompare kept[STRESS_KEPT];
	char status[96];	/* its last "Status:" line, "" none */
	/* Judged from the above (vitals_judge.c): enum judge_verdict. */
	int verdict;
	char why[240];		/* when not PASS */
	/* Private: the child and its output, read a line at a time. */
	pid_t pid;
	int fd;
	uint64_t start_ns;
	uint64_t reported, detailed;
	char line[1024];
	size_t used;
	char last[160];		/* its last line, for how it died */
};

/*
 * The memory the stress gets of left, what kiln's memory plan leaves
 * (memplan_left()): size when given, else percent of left; no more than
 * left; less than STRESS_MIN_MEMORY is none. Whole MiB. note gets why
 * it is smaller than asked, or none, when it is ("" else).
 */
uint64_t stress_memory(uint64_t left, uint64_t size, unsigned percent,
		       char *note, size_t len);

/* A stress asked for and not run: why (no tool, no memory). */
void stress_not_started(struct stress *st, int what, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * Starts stressapptest for what (enum settings_stress) with memory_bytes
 * (memory) over cpus cores: 0, or -errno with st->problem saying why.
 */
int stress_start(struct stress *st, int what, uint64_t memory_bytes,
		 unsigned cpus);

/* Reads what it said so far, and sees whether it died (now and then). */
void stress_poll(struct stress *st);

/*
 * Ends it: asked to stop (SIGTERM: it ends its threads and says its
 * result), waited for at most wait_s, then killed. Never waits longer.
 */
void stress_stop(struct stress *st, unsigned wait_s);

/* One line of stressapptest's output, into the facts (the unit test's). */
void stress_parse_line(struct stress *st, const char *line);

/* "stopped", "died", ...; NULL for none of them. */
const char *stress_end_name(int end);
int stress_end_of(const char *name);

/* "memory,cpu", "memory", "cpu" or "off". */
const char *stress_what_name(int what);

#endif
