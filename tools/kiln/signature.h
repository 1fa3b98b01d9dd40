/* SPDX-License-Identifier: MIT */
#ifndef KILN_SIGNATURE_H
#define KILN_SIGNATURE_H

#include <stddef.h>
#include <stdint.h>

#include "unit.h"

/*
 * What the start and the end of a disk say it holds. kiln's own unit is
 * looked for first, so kiln's data is never taken for an MBR (a unit's
 * bytes 510-511 are 0x55AA once in 65536).
 */
#define SIGNATURE_MAX 8
/* Bytes read at each end: covers Btrfs at 64 KiB and ZFS's labels. */
#define SIGNATURE_SPAN (1u << 20)

struct signature_hit {
	const char *what;	/* "GPT partition table (primary header)" */
	uint64_t offset;	/* where its magic is */
};

struct signature_scan {
	int kiln;			/* the first unit is kiln's */
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

/* Reads both ends of an open disk or file (O_DIRECT is fine): 0 or -errno. */
int signature_scan_fd(int fd, uint64_t size, struct signature_scan *s);

/* "GPT partition table (primary header) at byte 512, ..." for people. */
char *signature_describe(const struct signature_scan *s, char *buf,
			 size_t len);

#endif
