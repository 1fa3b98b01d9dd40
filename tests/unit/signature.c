/* SPDX-License-Identifier: MIT */
/*
 * Description: what the ends of a disk say: kiln's own unit wins even when
 * its bytes 510-511 happen to be 0x55AA; the formats without a Debian tool
 * to make them (ZFS) are found at their documented places; zeros are
 * nothing. The formats Debian's tools make are in tests/host/signature.t.
 */
#include <stdlib.h>
#include <string.h>

#include "../lib/tap.h"
#include "base/crc32c.h"
#include "discover/signature.h"
#include "base/unit.h"

#define MiB (1u << 20)

static unsigned char *head, *tail;
static struct unit_ctx ctx;

static int has(const struct signature_scan *s, const char *what, uint64_t off)
{
	int i;

	for (i = 0; i < s->n; i++)
		if (strstr(s->hits[i].what, what) && s->hits[i].offset == off)
			return 1;
	return 0;
}

int main(int argc, char **argv)
{
	struct signature_scan s;
	struct unit_key k = { 0, 0x1234, 0, 1 };
	uint64_t size = 64ull * MiB, run;
	char text[600];
	int found = 0;

	tap_args(argc, argv);
	crc32c_init();
	head = calloc(1, MiB);
	tail = calloc(1, MiB);
	if (!head || !tail)
		tap_bail("out of memory");

	signature_scan_buf(head, MiB, tail, MiB, size, &s);
	tap_ok(!s.kiln && s.n == 0, "zeros at both ends: no signature");

	/* A disk whose first unit ends its first sector in 0x55AA. */
	run = k.run_id = 7;
	unit_ctx_init(&ctx, run);
	for (k.ident = 1; k.ident < 4000000 && !found; k.ident++) {
		unit_fill(&ctx, head, UNIT_SIZE, k);
		found = head[510] == 0x55 && head[511] == 0xaa;
	}
	tap_ok(found, "found a disk (%llu) whose unit 0 has 0x55AA at 510",
	       (unsigned long long)(k.ident - 1));
	signature_scan_buf(head, MiB, tail, MiB, size, &s);
	tap_ok(s.kiln && s.n == 0 && s.first.key.run_id == run,
	       "that unit is kiln's, not an MBR");

	/* Every check runs after a kiln unit: an md 1.2 superblock behind. */
	head[4096] = 0xfc;
	head[4097] = 0x4e;
	head[4098] = 0x2b;
	head[4099] = 0xa9;
	signature_scan_buf(head, MiB, tail, MiB, size, &s);
	tap_ok(s.kiln && has(&s, "md RAID superblock 1.2", 4096),
	       "a kiln unit at byte 0 hides nothing: md 1.2 behind it found");

	/* Filesystems made at an offset, with no table to say where. */
	memset(head, 0, MiB);
	head[65536 + 1080] = 0x53;
	head[65536 + 1081] = 0xef;
	memcpy(head + 4096 * 40, "XFSB\0\0\x10\0", 8);
	s.n = 0;
	signature_scan_offsets(head, MiB, 0, &s);
	tap_ok(has(&s, "ext2/3/4", 65536 + 1080) &&
	       has(&s, "XFS", 4096 * 40),
	       "an ext4 superblock and an XFS one at 4 KiB boundaries");
	memset(head, 0, MiB);

	/* ZFS (no tool in Debian main): an uberblock in label 0's ring. */
	head[128 * 1024 + 3 * 1024 + 0] = 0x0c;
	head[128 * 1024 + 3 * 1024 + 1] = 0xb1;
	head[128 * 1024 + 3 * 1024 + 2] = 0xba;
	signature_scan_buf(head, MiB, tail, MiB, size, &s);
	tap_ok(has(&s, "ZFS label", 128 * 1024 + 3 * 1024),
	       "ZFS: an uberblock in label 0, named where it is");
	memset(head, 0, MiB);

	/* ...or big-endian, in label 3 only (the start wiped). */
	tail[MiB - 262144 + 131072 + 7] = 0x0c;
	tail[MiB - 262144 + 131072 + 6] = 0xb1;
	tail[MiB - 262144 + 131072 + 5] = 0xba;
	signature_scan_buf(head, MiB, tail, MiB, size, &s);
	tap_ok(has(&s, "ZFS label", size - 262144 + 131072),
	       "ZFS: a big-endian uberblock in label 3, at the end");
	memset(tail, 0, MiB);

	/* A small disk: both views overlap and cover it all. */
	memcpy(head + 512, "EFI PART", 8);
	memcpy(head + 3 * 1024 * 1024 / 4 - 512, "EFI PART", 8);
	signature_scan_buf(head, 768 * 1024, head, 768 * 1024, 768 * 1024, &s);
	tap_ok(has(&s, "primary", 512) && has(&s, "backup", 768 * 1024 - 512),
	       "a disk smaller than both views: both GPT headers found");
	tap_ok(strstr(signature_describe(&s, text, sizeof(text)),
		      "GPT partition table (primary header) at byte 512") != NULL,
	       "described for people: %s", text);
	free(head);
	free(tail);
	return tap_done();
}
