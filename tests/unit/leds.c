/* SPDX-License-Identifier: MIT */
/*
 * Description: the way to a disk's LEDs (lab/leds.c) when it is in no
 * SES bay: Debian's real ledctl is run, and a device it cannot light is
 * -ENODEV with what ledctl said (its errors, not its notices about its
 * config file); a missing ledctl is said as such, run
 * for nothing; a disk with neither bay nor device node is -ENODEV, and
 * many disks at once each get their own answer.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../lib/tap.h"
#include "lab/leds.h"

int main(int argc, char **argv)
{
	struct leds_disk none = { NULL, NULL, NULL };
	struct leds_disk gone = { NULL, "/dev/kiln-no-such-disk", NULL };
	struct leds_disk noctl = { NULL, "/dev/kiln-no-such-disk",
				   "/nonexistent/ledctl" };
	struct leds_disk loop = { NULL, "/dev/loop0", NULL };
	struct leds_disk many[3];
	struct stat st;
	char why[300], whys[3][300];
	int ret, rets[3];

	tap_args(argc, argv);
	ret = leds_set(&none, ENCLOSURE_FAULT, 1, why, sizeof(why));
	tap_ok(ret == -ENODEV && strstr(why, "no enclosure bay"),
	       "no bay, no device node: -ENODEV (%s)", why);
	ret = leds_set(&noctl, ENCLOSURE_FAULT, 1, why, sizeof(why));
	tap_ok(ret == -ENODEV &&
	       strstr(why, "/nonexistent/ledctl is not there"),
	       "no ledctl: said, nothing run (%s)", why);
	if (access(LEDS_LEDCTL, X_OK)) {
		tap_skip("no %s (apt-get install ledmon)", LEDS_LEDCTL);
		tap_skip("no %s", LEDS_LEDCTL);
		tap_skip("no %s", LEDS_LEDCTL);
		return tap_done();
	}
	ret = leds_set(&gone, ENCLOSURE_FAULT, 1, why, sizeof(why));
	tap_ok(ret == -ENODEV &&
	       strstr(why, "ledctl failure=/dev/kiln-no-such-disk said: "),
	       "a device ledctl cannot light: -ENODEV, its words (%s)", why);
	if (stat("/dev/loop0", &st) || !S_ISBLK(st.st_mode)) {
		tap_skip("no /dev/loop0");
	} else {
		ret = leds_set(&loop, ENCLOSURE_FAULT, 1, why, sizeof(why));
		tap_ok(ret == -ENODEV && strstr(why, "not supported"),
		       "a disk with no LED ledctl drives: what it said, not "
		       "its config notices (%s)", why);
	}
	many[0] = gone;
	many[1] = none;
	many[2] = gone;
	leds_set_many(many, 3, ENCLOSURE_LOCATE, 0, rets, whys[0],
		      sizeof(whys[0]));
	tap_ok(rets[0] == -ENODEV && rets[1] == -ENODEV && rets[2] == -ENODEV &&
	       strstr(whys[0], "locate_off=/dev/kiln-no-such-disk") &&
	       strstr(whys[1], "no enclosure bay kiln can see") &&
	       strstr(whys[2], "locate_off="),
	       "three at once, side by side: each its own answer");
	return tap_done();
}
