/* SPDX-License-Identifier: MIT */
#ifndef KILN_ENCLOSURE_H
#define KILN_ENCLOSURE_H

#include <limits.h>
#include <sys/types.h>

struct json;

/*
 * A disk's bay in an SES enclosure, as the kernel's enclosure class
 * (drivers/misc/enclosure.c, fed by drivers/scsi/ses.c) shows it:
 * /sys/class/enclosure/ENCLOSURE/COMPONENT/ with the files slot, fault,
 * locate, status and type, and a link `device` to the SCSI device in the
 * bay (the device has the link `enclosure_device:COMPONENT` back).
 */
struct enclosure_slot {
	char enclosure[64];	/* the enclosure's name: its SES device */
	long number;		/* the `slot` file; -1 when it has none */
	char name[64];		/* the component, the enclosure's own name */
	char dir[PATH_MAX];	/* the component's folder, sysroot included */
};

/*
 * The slot holding the SCSI device whose folder's real path is devreal
 * (under sysroot): 1 found, 0 none (no enclosure, an empty bay, odd
 * files: nothing is said of a slot then).
 */
int enclosure_find(const char *sysroot, const char *devreal,
		   struct enclosure_slot *s);

/* The same for the block device dev (sysroot/dev/block/MAJ:MIN/device). */
int enclosure_of_dev(const char *sysroot, dev_t dev,
		     struct enclosure_slot *s);

/* The slot's LEDs, the files of its component kiln writes. */
enum enclosure_led { ENCLOSURE_FAULT, ENCLOSURE_LOCATE };

/*
 * Lights (on) or clears one LED of the slot: "1" or "0" into its file.
 * 0, or -errno (-ENOENT: the enclosure has no such LED).
 */
int enclosure_led_set(const struct enclosure_slot *s, enum enclosure_led led,
		      int on);

/* "enclosure 0:0:2:0 slot 7 (Slot 07)": the bay, as people read it. */
void enclosure_text(const struct enclosure_slot *s, char *buf, size_t len);

/*
 * The slot as inventory.json and result.json both write it: the object
 * key {enclosure, slot, name}, the slot left out when it has no number.
 */
void enclosure_json(struct json *j, const char *key,
		    const struct enclosure_slot *s);

#endif
