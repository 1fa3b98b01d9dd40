/* SPDX-License-Identifier: MIT */
#ifndef KILN_HEALTH_H
#define KILN_HEALTH_H

#include <stddef.h>

/* smartctl, as the image packs it (Debian's smartmontools). */
#define HEALTH_SMARTCTL "/usr/sbin/smartctl"

/*
 * A disk's SMART health as smartctl -H -A tells it, taken before and
 * after a burn-in. A counter that is not reported is -1.
 */
struct health {
	int ran;			/* smartctl answered */
	int passed;			/* 1 PASSED/OK, 0 FAILED, -1 not said */
	long long realloc;		/* ATA 5 Reallocated_Sector_Ct */
	long long pending;		/* ATA 197 Current_Pending_Sector */
	long long uncorrectable;	/* ATA 198 Offline_Uncorrectable */
	/* ATA 199 UDMA_CRC_Error_Count: the link */
	long long crc_errors;
	/* NVMe Media and Data Integrity Errors */
	long long media_errors;
	long long critical_warning;	/* NVMe Critical Warning */
	long long grown_defects;	/* SCSI elements in grown defect list */
	char *text;			/* smartctl's output, for the results */
	size_t len;
};

/* Runs smartctl on dev (at most timeout_s seconds): 0 or -errno. */
int health_read(const char *smartctl, const char *dev, unsigned timeout_s,
		struct health *h);

/*
 * The same for n disks at once (a NULL dev is skipped): all smartctl run
 * side by side, and those still running after timeout_s are stopped
 * (-ETIMEDOUT; the others' answers are kept).
 */
int health_read_many(const char *smartctl, const char *const *devs, int n,
		     unsigned timeout_s, struct health *hs);

/* Reads smartctl -H -A output into h (h->text untouched). */
void health_parse(const char *text, struct health *h);

void health_free(struct health *h);

#endif
