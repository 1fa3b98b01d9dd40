/* SPDX-License-Identifier: MIT */
#ifndef KILN_JUDGE_H
#define KILN_JUDGE_H

#include "engine/engine.h"
#include "sense/smartjson.h"
#include "judge/monitor.h"

enum judge_verdict { JUDGE_PASS, JUDGE_WARN, JUDGE_FAIL };

#define JUDGE_MAX_REASONS 8

/* A verdict and its reasons, in plain words. */
/* A disk's one reason when nothing went wrong: said last among others. */
#define JUDGE_CLEAN "no I/O errors, no bad units"

struct judge {
	int verdict;
	int interrupted;
	int nreasons;
	char reasons[JUDGE_MAX_REASONS][240];
	/*
	 * Each streaming phase judged steady, in words ("write steady at
	 * 15 MB/s, verify steady at 15 MB/s"): a flat disk says so, never
	 * nothing; "" when none ran long enough to judge.
	 */
	char stability[320];
};

/* Judges one target on a snapshot of its engine and what the monitor saw. */
void judge_target(const struct engine_snap *s, const struct monitor_target *mt,
		  struct judge *j);

/*
 * What SMART says, before and after the run (either may be NULL or not
 * have run): a failing self-assessment, a counter of damage that rose
 * during the run, or an NVMe critical warning FAIL; damage from before
 * the run is a WARN.
 */
void judge_health(const struct smart_counters *before,
		  const struct smart_counters *after, struct judge *j);

const char *judge_name(int verdict);

/* Adds a reason, raising the verdict to at least verdict. */
__attribute__((format(printf, 3, 4)))
void judge_reason(struct judge *j, int verdict, const char *fmt, ...);

#endif
