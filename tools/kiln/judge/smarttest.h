/* SPDX-License-Identifier: MIT */
#ifndef KILN_SMARTTEST_H
#define KILN_SMARTTEST_H

#include <signal.h>
#include <stdint.h>
#include <stdio.h>

#include "judge/vitals.h"
#include "sense/smartjson.h"

/*
 * A drive's own self-test after the burn (selftest=short|long): SMART's
 * short or extended offline test, NVMe's device self-test, SCSI's
 * background test, through smartctl. Every drive's test starts at once,
 * smartctl -a tells its progress, and each is bounded by the drive's own
 * estimate (or a default) with room to spare; the outcome goes into the
 * drive's facts (vitals.h), which vitals_judge.c judges.
 */
struct smarttest_drive {
	char label[96];			/* for the console */
	const char *dev, *type;		/* what smartctl opens; -d TYPE */
	struct vitals_disk *d;		/* where the outcome goes */
	/* The test's course, private. */
	int running;			/* started and not ended */
	int seen_running;		/* smartctl said it was running */
	int pct;			/* done, as last said */
	int idle;			/* polls that showed nothing new */
	uint64_t bound_ns;		/* given up at */
	struct smartjson before;	/* its log before the test */
};

/*
 * Runs the self-test of kind (enum settings_selftest) on each drive, with
 * a line on con every interval seconds and one as each ends; tick(arg)
 * is called about once a second meanwhile. When *stop is set the tests
 * still running are aborted.
 */
void smarttest_run(const char *smartctl, int kind, struct smarttest_drive *drv,
		   int n, FILE *con, unsigned interval,
		   volatile sig_atomic_t *stop, void (*tick)(void *), void *arg);

/*
 * Whether smartctl's now shows the test asked for ended, against what it
 * said before the test and whether it was seen running: 1 ended (result
 * and text filled), 0 not (yet).
 */
int smarttest_ended(const struct smartjson *before, const struct smartjson *now,
		    int seen_running, int *result, char *text, size_t len);

#endif
