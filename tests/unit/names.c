/* SPDX-License-Identifier: MIT */
/*
 * Description: many disks' names in few words: names counting up in one
 * number or one last letter are a range ("loop0-59", "sdb-sdd",
 * "nvme0n1-nvme3n1"), whatever order they come in; gaps, other stems and
 * names with no count are listed; a short buffer is cut, never overrun,
 * and the length the whole text needs is returned.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/tap.h"
#include "base/names.h"

static int check(const char *const *names, size_t n, const char *want,
		 const char *what)
{
	char buf[512];
	int got = names_ranges(names, n, buf, sizeof(buf));

	if (!tap_ok(!strcmp(buf, want) && got == (int)strlen(want), "%s", what))
		tap_diag("got '%s' (%d), want '%s'", buf, got, want);
	return 0;
}

int main(int argc, char **argv)
{
	static const char *const letters[] = { "sdb", "sdc", "sdd", "sdf" };
	static const char *const mixed[] = { "loop3", "sdb", "loop1",
		"loop2", "a.img", "loop10" };
	static const char *const nvme[] = { "nvme1n1", "nvme0n1", "nvme3n1",
		"nvme2n1", "nvme0n2" };
	static const char *const zeros[] = { "sd01", "sd02" };
	static const char *const one[] = { "loop7" };
	const char *sixty[60];
	char names[60][8], small[8];
	int i, got;

	tap_args(argc, argv);
	for (i = 0; i < 60; i++) {
		snprintf(names[i], sizeof(names[i]), "loop%d", 59 - i);
		sixty[i] = names[i];
	}
	check(sixty, 60, "loop0-59", "60 loop devices, in any order: loop0-59");
	check(letters, 4, "sdb-sdd, sdf", "by last letter, a gap listed");
	check(mixed, 6, "a.img, loop1-3, loop10, sdb",
	      "stems apart, numbers in order, a name with no count alone");
	check(nvme, 5, "nvme0n1-nvme3n1, nvme0n2",
	      "a number inside the name: the whole names, by what follows");
	check(zeros, 2, "sd01, sd02", "a leading zero is no count");
	check(one, 1, "loop7", "one name is itself");
	check(one, 0, "", "none: empty");

	got = names_ranges(sixty, 60, small, sizeof(small));
	tap_ok(got == 8 && !strcmp(small, "loop0-5"),
	       "a short buffer is cut, the length needed returned (%d, %s)",
	       got, small);
	tap_ok(names_ranges(sixty, 60, NULL, 0) == 8,
	       "no buffer: only the length");
	return tap_done();
}
