/* SPDX-License-Identifier: MIT */
/*
 * Description: clocks and how times are written. Rates and deadlines use
 * the monotonic clock; the wall clock only names things, and a machine
 * without a set clock (no RTC battery, no network) is said to have one.
 */
#include <stdio.h>
#include <string.h>

#include "base/timing.h"

uint64_t timing_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * TIMING_SEC + (uint64_t)ts.tv_nsec;
}

struct timespec timing_ts(uint64_t ns)
{
	struct timespec ts;

	ts.tv_sec = (time_t)(ns / TIMING_SEC);
	ts.tv_nsec = (long)(ns % TIMING_SEC);
	return ts;
}

struct timespec timing_ts_in(uint64_t ns)
{
	uint64_t now = timing_now_ns();

	/* "Forever" stays forever rather than wrapping into the past. */
	return timing_ts(ns > UINT64_MAX - now ? UINT64_MAX : now + ns);
}

unsigned timing_ms_left(uint64_t deadline)
{
	uint64_t now = timing_now_ns();

	return deadline > now ? (unsigned)((deadline - now + 999999) / 1000000)
			      : 1;
}

char *timing_fmt_hms(uint64_t s, char *buf, size_t len)
{
	if (s >= 86400)
		snprintf(buf, len, "%llud%02llu:%02llu:%02llu",
			 (unsigned long long)(s / 86400),
			 (unsigned long long)(s / 3600 % 24),
			 (unsigned long long)(s / 60 % 60),
			 (unsigned long long)(s % 60));
	else
		snprintf(buf, len, "%02llu:%02llu:%02llu",
			 (unsigned long long)(s / 3600),
			 (unsigned long long)(s / 60 % 60),
			 (unsigned long long)(s % 60));
	return buf;
}

char *timing_fmt_utc(time_t t, int compact, char *buf, size_t len)
{
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(buf, len, compact ? "%Y%m%dT%H%M%SZ" : "%Y-%m-%dT%H:%M:%SZ",
		 &tm);
	return buf;
}

time_t timing_parse_utc(const char *text)
{
	struct tm tm;
	char z;

	memset(&tm, 0, sizeof(tm));
	if (!text || sscanf(text, "%4d-%2d-%2dT%2d:%2d:%2d%c", &tm.tm_year,
			    &tm.tm_mon, &tm.tm_mday, &tm.tm_hour, &tm.tm_min,
			    &tm.tm_sec, &z) != 7 || z != 'Z')
		return 0;
	tm.tm_year -= 1900;
	tm.tm_mon -= 1;
	return timegm(&tm);
}

int timing_clock_trusted(time_t t)
{
	return t >= 1577836800;		/* 2020-01-01T00:00:00Z */
}

void timing_cond_init(pthread_cond_t *c)
{
	pthread_condattr_t ca;

	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(c, &ca);
	pthread_condattr_destroy(&ca);
}
