/* SPDX-License-Identifier: MIT */
#ifndef KILN_RAIDSCAN_H
#define KILN_RAIDSCAN_H

/*
 * Drives hidden behind RAID controllers (MegaRAID, HP Smart Array,
 * Adaptec and their kin): the operating system sees the controller's
 * volumes, smartctl reaches the drives through the controller's own
 * pass-through, and `smartctl --scan-open` lists them, one a line:
 *
 *	/dev/bus/0 -d megaraid,4 # /dev/bus/0 [megaraid_disk_04], SCSI device
 *	/dev/sg1 -d cciss,0 # /dev/sg1 [cciss_disk_00], SCSI device
 *	/dev/sdb -d aacraid,0,0,2 # /dev/sdb [aacraid_disk_00_00_2], ...
 */
struct raidscan_drive {
	char dev[64];		/* what smartctl opens */
	char type[24];		/* what it gives -d */
	char controller[24];	/* the controller's PCI address, or "" */
	char serial[64];	/* as smartctl -i says it, or "" */
};

/*
 * Reads smartctl --scan-open's text: each drive behind a RAID controller
 * once (a drive listed through two devices of its controller is one),
 * with its controller found under sysroot. Fills at most max; returns
 * how many there were.
 */
int raidscan_parse(const char *text, const char *sysroot,
		   struct raidscan_drive *out, int max);

/*
 * Runs smartctl --scan-open, then smartctl -i of each drive it lists (all
 * at once; each step at most timeout_ms): every drive behind a RAID
 * controller once into out (at most max). A drive its controller lists
 * twice is one: QEMU's MegaRAID lists a drive by its target and again by
 * a number its pass-through cuts to the same target, and both answer
 * with one serial. Returns how many, or -ETIMEDOUT when the scan did not
 * answer.
 */
int raidscan_find(const char *smartctl, const char *sysroot,
		  unsigned timeout_ms, struct raidscan_drive *out, int max);

/* The PCI address of the controller a device hangs from, or "". */
void raidscan_controller(const char *sysroot, const char *dev, char *out,
			 size_t len);

#endif
