/* SPDX-License-Identifier: MIT */
#ifndef KILN_TIMING_H
#define KILN_TIMING_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

/* Nanoseconds in a second: the one place this number is written. */
#define TIMING_SEC 1000000000ull

/* Nanoseconds as seconds, for rates and documents. */
static inline double timing_secs(uint64_t ns)
{
	return (double)ns / (double)TIMING_SEC;
}

/* Monotonic nanoseconds: for rates and deadlines, immune to clock steps. */
uint64_t timing_now_ns(void);

/*
 * A condition variable whose timed waits run on the monotonic clock, as
 * every pause in kiln does: a step of the wall clock must not end one.
 */
void timing_cond_init(pthread_cond_t *c);

/*
 * A time on the monotonic clock (timing_now_ns()'s nanoseconds) as the
 * timespec that pthread_cond_timedwait() takes on a timing_cond_init()
 * condition; timing_ts_in() the one that many nanoseconds from now.
 */
struct timespec timing_ts(uint64_t ns);
struct timespec timing_ts_in(uint64_t ns);

/*
 * Milliseconds until a timing_now_ns() deadline, rounded up, and 1 once
 * it has passed: a timeout to hand on that never means "no timeout".
 */
unsigned timing_ms_left(uint64_t deadline);

/* 01:02:03 (or 3d01:02:03) for a number of seconds. */
char *timing_fmt_hms(uint64_t seconds, char *buf, size_t len);

/* UTC wall time as 2026-11-30T11:07:57Z, or 20261130T110757Z when compact. */
char *timing_fmt_utc(time_t t, int compact, char *buf, size_t len);

/*
 * The time timing_fmt_utc() wrote (not compact): 2026-11-30T11:07:57Z,
 * and nothing else; 0 for NULL or any other text.
 */
time_t timing_parse_utc(const char *text);

/* A wall clock before 2020 has not been set: results say so. */
int timing_clock_trusted(time_t t);

#endif
