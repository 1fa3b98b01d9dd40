/* SPDX-License-Identifier: MIT */
#ifndef KILN_SIGNATURE_H
#define KILN_SIGNATURE_H

#include <stddef.h>
#include <stdint.h>

#include "base/unit.h"

/*
 * What the start and the end of a disk say it holds: partition tables,
 * filesystems, volumes, RAID and server formats at the places the formats
 * define. Naming what is there makes a reason readable; whether a disk is
 * blank does not depend on this list (safety.c proves that by reading).
 */
#define SIGNATURE_MAX 12
/* Bytes read at each end: covers Btrfs at 64 KiB and ZFS's labels. */
#define SIGNATURE_SPAN (1u << 20)

struct signature_hit {
	const char *what;	/* "GPT partition table (primary header)" */
	uint64_t offset;	/* where its magic is */
};

struct signature_scan {
	int kiln;			/* the first unit is a kiln unit */
	struct unit_header first;	/* ...and its header */
	int n;
	struct signature_hit hits[SIGNATURE_MAX];
};

/*
 * Looks at the first and last bytes of a disk of size bytes: head holds
 * bytes [0, hlen), tail holds [size - tlen, size).
 */
void signature_scan_buf(const unsigned char *head, size_t hlen,
			const unsigned char *tail, size_t tlen, uint64_t size,
			struct signature_scan *s);

/*
 * Adds filesystems and volumes found at any 4 KiB boundary of buf, the
 * bytes [base, base + len) of the disk (base 0: from 4 KiB on, the start
 * being signature_scan_buf()'s).
 */
void signature_scan_offsets(const unsigned char *buf, size_t len,
			    uint64_t base, struct signature_scan *s);

/* Reads both ends of an open disk or file (O_DIRECT is fine): 0 or -errno. */
int signature_scan_fd(int fd, uint64_t size, struct signature_scan *s);

/* "GPT partition table (primary header) at byte 512, ..." for people. */
char *signature_describe(const struct signature_scan *s, char *buf,
			 size_t len);

#endif
