/* SPDX-License-Identifier: MIT */
/*
 * Description: whether a block device sits behind USB, read from a sysfs
 * tree laid out as the kernel lays one out: /sys/dev/block/MAJ:MIN links
 * to the device's folder, whose path runs through a usbN port for a disk
 * behind a USB bridge (the KILN stick) and not for one on ahci or NVMe.
 * kiln sends no ATA or SCSI command through a bridge (it may hang on
 * one), so a disk said to be on USB is never sent a sanitize.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "../lib/tap.h"
#include "base/sysfs.h"

static char root[PATH_MAX];

/* A device folder at path under root, linked from dev/block/MAJ:MIN. */
static void device(const char *path, unsigned maj, unsigned mn)
{
	char dir[PATH_MAX * 2], link[PATH_MAX * 2], cmd[PATH_MAX * 3];

	snprintf(dir, sizeof(dir), "%s/%s", root, path);
	snprintf(cmd, sizeof(cmd), "mkdir -p '%s' '%s/dev/block'", dir, root);
	if (system(cmd))
		tap_bail("cannot make %s", dir);
	snprintf(link, sizeof(link), "%s/dev/block/%u:%u", root, maj, mn);
	if (symlink(dir, link) && errno != EEXIST)
		tap_bail("cannot link %s", link);
}

static void test_usb(void)
{
	snprintf(root, sizeof(root), "%s/sysfs-usb.XXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(root))
		tap_bail("mkdtemp");
	device("devices/pci0000:00/0000:00:14.0/usb2/2-1/2-1:1.0/host6/"
	       "target6:0:0/6:0:0:0/block/sdc", 8, 32);
	device("devices/pci0000:00/0000:00:17.0/ata1/host0/target0:0:0/"
	       "0:0:0:0/block/sda", 8, 0);
	device("devices/pci0000:00/0000:00:1d.0/0000:3d:00.0/nvme/nvme0/"
	       "nvme0n1", 259, 0);
	tap_ok(sysfs_on_usb(root, makedev(8, 32)),
	       "a disk behind a USB port is on USB");
	tap_ok(!sysfs_on_usb(root, makedev(8, 0)),
	       "an ahci disk is not");
	tap_ok(!sysfs_on_usb(root, makedev(259, 0)),
	       "an NVMe namespace is not");
	tap_ok(!sysfs_on_usb(root, makedev(8, 16)),
	       "a device sysfs does not know is not said to be (nothing "
	       "to follow)");
}

int main(int argc, char **argv)
{
	char cmd[PATH_MAX + 16];

	tap_args(argc, argv);
	TAP_RUN(test_usb);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	if (root[0] && system(cmd))
		tap_diag("cannot remove %s", root);
	return tap_done();
}
