/* SPDX-License-Identifier: MIT */
/*
 * Description: the wall times result.json holds, both ways: what
 * timing_fmt_utc() writes, timing_parse_utc() reads back to the second
 * (kiln finish and kiln fleet read "started" and "ended" with it), and
 * anything else is 0, never a time made up from part of it.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "../lib/tap.h"
#include "base/timing.h"

static void test_utc(void)
{
	static const time_t times[] = { 0, 1764500000, 1577836800,
					4102444799 };
	static const char *const bad[] = {
		"", "x", "2026-11-30T11:07:57", "2026-11-30T11:07:57+01:00",
		"20261130T110757Z", "2026-11-30 11:07:57Z", "2026-11-30",
	};
	char buf[40];
	unsigned i;

	for (i = 0; i < sizeof(times) / sizeof(times[0]); i++) {
		timing_fmt_utc(times[i], 0, buf, sizeof(buf));
		tap_ok(timing_parse_utc(buf) == times[i], "%s reads back as "
		       "%lld", buf, (long long)times[i]);
	}
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		tap_ok(timing_parse_utc(bad[i]) == 0, "\"%s\" is no time",
		       bad[i]);
	tap_ok(timing_parse_utc(NULL) == 0, "NULL is no time");
}

int main(int argc, char **argv)
{
	tap_args(argc, argv);
	TAP_RUN(test_utc);
	return tap_done();
}
