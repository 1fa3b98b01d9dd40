/* SPDX-License-Identifier: MIT */
/*
 * Description: a disk matched to its enclosure bay on small sysfs trees
 * laid out as drivers/misc/enclosure.c lays them out: by the device's
 * enclosure_device: link, else by each bay's device link; the right one
 * of two enclosures; a device whose name another's begins with is not
 * that one; an empty bay, a dangling link and a disk in no enclosure
 * match nothing; a slot file that is no number leaves the number out
 * (text and JSON); the LED files get "1" and "0", a missing one is
 * -ENOENT and a symlink in its place is refused.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "../lib/tap.h"
#include "base/json.h"
#include "discover/enclosure.h"

static char root[PATH_MAX];

/* The real path of a device folder under the tree. */
static const char *dev(const char *rel)
{
	static char path[PATH_MAX * 2], real[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	if (!realpath(path, real))
		tap_bail("no %s", path);
	return real;
}

static char *file(const char *rel)
{
	char path[PATH_MAX * 2];

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	return tap_read_file(path, NULL);
}

#define HBA "devices/pci0000:00/0000:00:03.0/host0"
#define E1 HBA "/port-0:0/expander-0:0/port-0:0:9/end_device-0:0:9/" \
	"target0:0:9/0:0:9:0/enclosure/0:0:9:0"
#define E2 HBA "/port-0:1/expander-0:1/port-0:1:9/end_device-0:1:9/" \
	"target0:0:19/0:0:19:0/enclosure/0:0:19:0"
#define D1 HBA "/port-0:0/expander-0:0/port-0:0:0/end_device-0:0:0/" \
	"target0:0:1/0:0:1:1"
#define D10 HBA "/port-0:1/expander-0:1/port-0:1:0/end_device-0:1:0/" \
	"target0:0:1/0:0:1:10"
#define LONE HBA "/port-0:2/end_device-0:2/target0:0:2/0:0:2:0"

static void tree(void)
{
	tap_sh("cd '%s' && mkdir -p '" D1 "' '" D10 "' '" LONE "' "
	       "'" E1 "/Slot 00' '" E1 "/Slot 01' '" E1 "/Slot 02' "
	       "'" E2 "/SLOT 7' '" E2 "/Slot 12' class/enclosure dev/block "
	       "'" LONE "/block/sdz' '" D10 "/block/sdq' && "
	       /* E1: bay 0 holds D1 by backlink and device link */
	       "printf '0\\n' >'" E1 "/Slot 00/slot' && "
	       "printf 'array device\\n' >'" E1 "/Slot 00/type' && "
	       "printf '0\\n' >'" E1 "/Slot 00/fault' && "
	       "printf '0\\n' >'" E1 "/Slot 00/locate' && "
	       "ln -s \"$PWD/" D1 "\" '" E1 "/Slot 00/device' && "
	       "ln -s \"$PWD/" E1 "/Slot 00\" "
	       "'" D1 "/enclosure_device:Slot 00' && "
	       /* bay 1 empty; bay 2's device link dangles */
	       "printf '1\\n' >'" E1 "/Slot 01/slot' && "
	       "printf '2\\n' >'" E1 "/Slot 02/slot' && "
	       "ln -s \"$PWD/devices/gone\" '" E1 "/Slot 02/device' && "
	       /* E2: D10 by its device link only (no backlink), odd slot */
	       "printf 'seven\\n' >'" E2 "/SLOT 7/slot' && "
	       "printf 'OK\\n' >'" E2 "/SLOT 7/status' && "
	       "ln -s \"$PWD/" D10 "\" '" E2 "/SLOT 7/device' && "
	       "printf '12\\n' >'" E2 "/Slot 12/slot' && "
	       "ln -s \"$PWD/" D1 "\" '" E2 "/Slot 12/device_not' && "
	       /* the SES device's own entries beside the bays */
	       "printf '3\\n' >'" E1 "/components' && "
	       "ln -s \"$PWD/" D1 "/..\" '" E1 "/device' && "
	       "ln -s \"$PWD/" E1 "\" class/enclosure/0:0:9:0 && "
	       "ln -s \"$PWD/" E2 "\" class/enclosure/0:0:19:0 && "
	       "ln -s \"$PWD/" D10 "\" '" D10 "/block/sdq/device' && "
	       "ln -s \"$PWD/" D10 "/block/sdq\" dev/block/65:0 && "
	       "ln -s \"$PWD/" LONE "\" '" LONE "/block/sdz/device' && "
	       "ln -s \"$PWD/" LONE "/block/sdz\" dev/block/8:400",
	       root);
}

static void found(const char *rel, const char *enc, long number,
		  const char *name, const char *what)
{
	struct enclosure_slot s;
	int got = enclosure_find(root, dev(rel), &s);

	if (!tap_ok(got == 1 && !strcmp(s.enclosure, enc) &&
		    s.number == number && !strcmp(s.name, name), "%s", what))
		tap_diag("got %d: '%s' %ld '%s'", got, s.enclosure, s.number,
			 s.name);
}

static void leds(void)
{
	struct enclosure_slot s;
	char *t;
	int ret;

	enclosure_find(root, dev(D1), &s);
	ret = enclosure_led_set(&s, ENCLOSURE_FAULT, 1);
	t = file(E1 "/Slot 00/fault");
	tap_ok(!ret && t && !strcmp(t, "1"), "fault lit: '1' in its file");
	free(t);
	ret = enclosure_led_set(&s, ENCLOSURE_FAULT, 0);
	t = file(E1 "/Slot 00/fault");
	tap_ok(!ret && t && !strcmp(t, "0"), "fault cleared: '0'");
	free(t);
	ret = enclosure_led_set(&s, ENCLOSURE_LOCATE, 1);
	t = file(E1 "/Slot 00/locate");
	tap_ok(!ret && t && !strcmp(t, "1"), "locate lit: '1' in locate");
	free(t);
	enclosure_find(root, dev(D10), &s);
	tap_ok(enclosure_led_set(&s, ENCLOSURE_FAULT, 1) == -ENOENT,
	       "a bay without a fault file: -ENOENT, nothing made");
	tap_sh("cd '%s' && ln -s \"$PWD/victim\" '" E2 "/SLOT 7/fault' && "
	       ": >victim", root);
	ret = enclosure_led_set(&s, ENCLOSURE_FAULT, 1);
	t = file("victim");
	tap_ok(ret == -ELOOP && t && !t[0],
	       "a symlink for the fault file is refused (%d), its target "
	       "untouched", ret);
	free(t);
}

static int count(const char *s, const char *what)
{
	int n = 0;

	while (s && (s = strstr(s, what))) {
		n++;
		s += strlen(what);
	}
	return n;
}

static void texts(void)
{
	struct enclosure_slot s;
	struct json j;
	char buf[200], *doc;
	size_t len;

	enclosure_find(root, dev(D1), &s);
	enclosure_text(&s, buf, sizeof(buf));
	tap_ok(!strcmp(buf, "enclosure 0:0:9:0 slot 0 (Slot 00)"),
	       "text: number and the enclosure's name (%s)", buf);
	snprintf(s.name, sizeof(s.name), "0");
	enclosure_text(&s, buf, sizeof(buf));
	tap_ok(!strcmp(buf, "enclosure 0:0:9:0 slot 0"),
	       "a name that is the number is said once (%s)", buf);
	enclosure_find(root, dev(D10), &s);
	enclosure_text(&s, buf, sizeof(buf));
	tap_ok(!strcmp(buf, "enclosure 0:0:19:0 slot SLOT 7"),
	       "no number: the name alone (%s)", buf);
	json_init(&j);
	json_begin(&j, NULL);
	enclosure_json(&j, "slot", &s);
	json_end(&j);
	doc = json_take(&j, &len);
	tap_ok(doc && strstr(doc, "\"enclosure\"") && strstr(doc, "SLOT 7") &&
	       count(doc, "\"slot\"") == 1,
	       "JSON: no number, no slot field (%s)", doc ? doc : "");
	free(doc);
}

int main(int argc, char **argv)
{
	struct enclosure_slot s;
	const char *tmp = getenv("TMPDIR");

	tap_args(argc, argv);
	snprintf(root, sizeof(root), "%s/kiln-enclosure-XXXXXX",
		 tmp ? tmp : "/tmp");
	if (!mkdtemp(root))
		tap_bail("mkdtemp");
	tree();
	found(D1, "0:0:9:0", 0, "Slot 00",
	      "by its enclosure_device: link: enclosure, number, name");
	found(D10, "0:0:19:0", -1, "SLOT 7",
	      "by the bay's device link alone, in the second enclosure; a "
	      "slot that is no number is -1");
	tap_ok(!enclosure_find(root, dev(LONE), &s) && s.number == -1 &&
	       !s.enclosure[0], "a disk in no enclosure: none, nothing set");
	tap_ok(!enclosure_find(root, "", &s) && !enclosure_find(root, NULL, &s),
	       "no device path: none");
	tap_ok(!enclosure_find(root, dev(HBA), &s),
	       "the HBA itself, not in a bay: none (the enclosure's own "
	       "device link is no bay)");
	tap_ok(enclosure_of_dev(root, makedev(65, 0), &s) &&
	       !strcmp(s.name, "SLOT 7"),
	       "by block device number, through dev/block");
	tap_ok(!enclosure_of_dev(root, makedev(8, 400), &s),
	       "by number, a disk in no bay: none");
	tap_ok(!enclosure_of_dev(root, makedev(9, 9), &s),
	       "by number, no such device: none");
	leds();
	texts();
	tap_sh("rm -rf '%s'", root);
	return tap_done();
}
