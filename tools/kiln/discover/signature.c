/* SPDX-License-Identifier: MIT */
/*
 * Description: the on-disk magics that mean "this disk holds data": the
 * safety class of every disk rests on this file. Offsets are those the
 * formats define (and blkid uses); each is checked against images made by
 * the real tools in tests/host/signature.t.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "discover/signature.h"

struct view {
	const unsigned char *head, *tail;
	size_t hlen, tlen;
	uint64_t size;
};

/* The bytes [off, off + len) of the disk, if one of the two ends has them. */
static const unsigned char *at(const struct view *v, uint64_t off, size_t len)
{
	if (off + len <= v->hlen)
		return v->head + off;
	if (v->tlen <= v->size && off >= v->size - v->tlen &&
	    off + len <= v->size)
		return v->tail + (off - (v->size - v->tlen));
	return NULL;
}

static int magic_at(const struct view *v, uint64_t off, const void *m,
		    size_t len)
{
	const unsigned char *p = at(v, off, len);

	return p && !memcmp(p, m, len);
}

static uint32_t le32_at(const struct view *v, uint64_t off, int *ok)
{
	const unsigned char *p = at(v, off, 4);

	*ok = p != NULL;
	return p ? (uint32_t)p[0] | (uint32_t)p[1] << 8 |
		   (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24 : 0;
}

static void hit(struct signature_scan *s, const char *what, uint64_t off)
{
	int i;

	for (i = 0; i < s->n; i++)
		if (s->hits[i].offset == off && !strcmp(s->hits[i].what, what))
			return;
	if (s->n < SIGNATURE_MAX) {
		s->hits[s->n].what = what;
		s->hits[s->n].offset = off;
		s->n++;
	}
}

static int fat_or_ntfs(const struct view *v, struct signature_scan *s)
{
	if (magic_at(v, 3, "NTFS    ", 8)) {
		hit(s, "NTFS filesystem", 3);
		return 1;
	}
	if (magic_at(v, 3, "EXFAT   ", 8)) {
		hit(s, "exFAT filesystem", 3);
		return 1;
	}
	if (!magic_at(v, 510, "\x55\xaa", 2))
		return 0;
	if (magic_at(v, 82, "FAT32   ", 8)) {
		hit(s, "FAT32 filesystem", 82);
		return 1;
	}
	if (magic_at(v, 54, "FAT12   ", 8) || magic_at(v, 54, "FAT16   ", 8) ||
	    magic_at(v, 54, "FAT     ", 8)) {
		hit(s, "FAT filesystem", 54);
		return 1;
	}
	return 0;
}

/* 0x55AA and four partition entries that look like entries. */
static void mbr(const struct view *v, struct signature_scan *s)
{
	const unsigned char *p = at(v, 446, 66);
	int i, used = 0, gpt = 0;

	if (!p || p[64] != 0x55 || p[65] != 0xaa)
		return;
	for (i = 0; i < 4; i++) {
		const unsigned char *e = p + 16 * i;

		if (e[0] != 0 && e[0] != 0x80)
			return;
		if (e[4]) {
			used++;
			gpt |= e[4] == 0xee;
		}
	}
	if (used)
		hit(s, gpt ? "protective MBR (GPT)" : "MBR partition table",
		    510);
}

static void gpt(const struct view *v, struct signature_scan *s)
{
	static const unsigned sectors[] = { 512, 4096 };
	size_t i;

	for (i = 0; i < 2; i++) {
		if (magic_at(v, sectors[i], "EFI PART", 8))
			hit(s, "GPT partition table (primary header)",
			    sectors[i]);
		if (v->size > sectors[i] &&
		    magic_at(v, v->size - sectors[i], "EFI PART", 8))
			hit(s, "GPT partition table (backup header at the end)",
			    v->size - sectors[i]);
	}
}

static void md(const struct view *v, struct signature_scan *s)
{
	const uint32_t magic = 0xa92b4efc;
	uint64_t off;
	int ok;

	if (le32_at(v, 0, &ok) == magic && ok)
		hit(s, "md RAID superblock 1.1", 0);
	if (le32_at(v, 4096, &ok) == magic && ok)
		hit(s, "md RAID superblock 1.2", 4096);
	/* 1.0: 8 KiB from the end, on a 4 KiB boundary. */
	if (v->size >= 16 * 512) {
		off = (((v->size >> 9) - 16) & ~7ull) << 9;
		if (le32_at(v, off, &ok) == magic && ok)
			hit(s, "md RAID superblock 1.0 (at the end)", off);
	}
	/* 0.90: the last 64 KiB-aligned 64 KiB. */
	if (v->size >= 131072) {
		off = (v->size & ~65535ull) - 65536;
		if (le32_at(v, off, &ok) == magic && ok)
			hit(s, "md RAID superblock 0.90 (at the end)", off);
	}
}

/* ZFS: four 256 KiB labels, each with an uberblock ring from 128 KiB. */
static void zfs(const struct view *v, struct signature_scan *s)
{
	static const unsigned char le[8] = { 0x0c, 0xb1, 0xba, 0, 0, 0, 0, 0 };
	static const unsigned char be[8] = { 0, 0, 0, 0, 0, 0xba, 0xb1, 0x0c };
	uint64_t end = v->size & ~(262144ull - 1), labels[4], off;
	int i;

	if (end < 4 * 262144)
		return;
	labels[0] = 0;
	labels[1] = 262144;
	labels[2] = end - 2 * 262144;
	labels[3] = end - 262144;
	for (i = 0; i < 4; i++)
		for (off = labels[i] + 131072; off < labels[i] + 262144;
		     off += 1024)
			if (magic_at(v, off, le, 8) ||
			    magic_at(v, off, be, 8)) {
				hit(s, "ZFS label", off);
				return;
			}
}

/* Server formats that tools in Debian main do not make: magics by hand. */
static void servers(const struct view *v, struct signature_scan *s)
{
	/* bcache: its superblock at 4 KiB, the magic 24 bytes in. */
	static const unsigned char bcache[16] = {
		0xc6, 0x85, 0x73, 0xf6, 0x4e, 0x1a, 0x45, 0xca,
		0x82, 0x65, 0xf5, 0x7f, 0x48, 0xba, 0x6d, 0x81 };
	/* VMFS: the volume header at 1 MiB starts 0xC001D00D (LE). */
	static const unsigned char vmfs[4] = { 0x0d, 0xd0, 0x01, 0xc0 };

	if (magic_at(v, 0, "bluestore block device", 22))
		hit(s, "Ceph BlueStore OSD", 0);
	if (magic_at(v, 32, "ORCLDISK", 8))
		hit(s, "Oracle ASM disk", 32);
	if (magic_at(v, 1048576, vmfs, 4))
		hit(s, "VMware VMFS volume", 1048576);
	if (magic_at(v, 4096 + 24, bcache, 16))
		hit(s, "bcache device", 4096 + 24);
}

void signature_scan_buf(const unsigned char *head, size_t hlen,
			const unsigned char *tail, size_t tlen, uint64_t size,
			struct signature_scan *s)
{
	struct view v = { head, tail, hlen, tlen, size };
	static const unsigned pages[] = { 4096, 8192, 16384, 65536 };
	size_t i;

	memset(s, 0, sizeof(*s));
	/* Every check runs even when the first unit is kiln's (DESIGN.md). */
	if (hlen >= UNIT_SIZE && unit_parse(head, &s->first))
		s->kiln = 1;
	servers(&v, s);
	gpt(&v, s);
	if (!fat_or_ntfs(&v, s))
		mbr(&v, s);
	if (magic_at(&v, 1080, "\x53\xef", 2))
		hit(s, "ext2/3/4 filesystem", 1080);
	if (magic_at(&v, 0, "XFSB", 4))
		hit(s, "XFS filesystem", 0);
	if (magic_at(&v, 65600, "_BHRfS_M", 8))
		hit(s, "Btrfs filesystem", 65600);
	for (i = 0; i < 4; i++)
		if (magic_at(&v, pages[i] - 10, "SWAPSPACE2", 10) ||
		    magic_at(&v, pages[i] - 10, "SWAP-SPACE", 10))
			hit(s, "swap", pages[i] - 10);
	for (i = 0; i < 4; i++)
		if (magic_at(&v, 512 * i, "LABELONE", 8) &&
		    magic_at(&v, 512 * i + 24, "LVM2 001", 8))
			hit(s, "LVM2 physical volume", 512 * i);
	md(&v, s);
	if (magic_at(&v, 0, "LUKS\xba\xbe", 6))
		hit(s, "LUKS encrypted volume", 0);
	zfs(&v, s);
	if (magic_at(&v, 32769, "CD001", 5))
		hit(s, "ISO9660 filesystem", 32769);
}

void signature_scan_offsets(const unsigned char *buf, size_t len,
			    uint64_t base, struct signature_scan *s)
{
	size_t x;

	/*
	 * A filesystem made straight on a disk at an offset, with no table
	 * to say where (ext4 at 1 MiB, btrfs at 2 MiB): look at every 4 KiB
	 * boundary. Only for naming it: any such bytes are data anyway.
	 */
	for (x = base ? 0 : 4096; x + 4096 <= len; x += 4096) {
		const unsigned char *p = buf + x;

		if (x + 1082 <= len && p[1080] == 0x53 && p[1081] == 0xef &&
		    p[1024 + 24] <= 6 && p[1024 + 76] <= 1)
			hit(s, "ext2/3/4 filesystem", base + x + 1080);
		else if (!memcmp(p, "XFSB", 4) && p[4] == 0 && p[5] == 0 &&
			 p[6] >= 0x10)
			hit(s, "XFS filesystem", base + x);
		else if (x + 65608 <= len && !memcmp(p + 65600, "_BHRfS_M", 8))
			hit(s, "Btrfs filesystem", base + x + 65600);
		else if (!memcmp(p, "LUKS\xba\xbe", 6))
			hit(s, "LUKS encrypted volume", base + x);
		else if (!memcmp(p, "LABELONE", 8) &&
			 !memcmp(p + 24, "LVM2 001", 8))
			hit(s, "LVM2 physical volume", base + x);
	}
}

int signature_scan_fd(int fd, uint64_t size, struct signature_scan *s)
{
	size_t hlen = size < SIGNATURE_SPAN ? (size_t)size : SIGNATURE_SPAN;
	uint64_t toff = size > SIGNATURE_SPAN ? size - SIGNATURE_SPAN : 0;
	unsigned char *head = NULL, *tail = NULL;
	size_t tlen, want;
	ssize_t n;
	int ret = 0;

	memset(s, 0, sizeof(*s));
	/* O_DIRECT wants aligned offsets and lengths: read whole 4 KiB. */
	toff &= ~4095ull;
	tlen = (size_t)(size - toff);
	if (posix_memalign((void **)&head, 4096, SIGNATURE_SPAN + 4096) ||
	    posix_memalign((void **)&tail, 4096, SIGNATURE_SPAN + 8192)) {
		ret = -ENOMEM;
		goto out;
	}
	want = (hlen + 4095) & ~(size_t)4095;
	n = pread(fd, head, want, 0);
	if (n < (ssize_t)hlen) {
		ret = n < 0 ? -errno : -EIO;
		goto out;
	}
	want = (tlen + 4095) & ~(size_t)4095;
	n = pread(fd, tail, want, (off_t)toff);
	if (n < (ssize_t)tlen) {
		ret = n < 0 ? -errno : -EIO;
		goto out;
	}
	signature_scan_buf(head, hlen, tail, tlen, size, s);
out:
	free(head);
	free(tail);
	return ret;
}

char *signature_describe(const struct signature_scan *s, char *buf,
			 size_t len)
{
	size_t used = 0;
	int i;

	buf[0] = 0;
	if (s->kiln)
		snprintf(buf, len, "kiln data (run %016llx, pass %u)",
			 (unsigned long long)s->first.key.run_id,
			 s->first.key.pass);
	for (i = 0; i < s->n && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used,
					 "%s%s at byte %llu", i ? ", " : "",
					 s->hits[i].what,
					 (unsigned long long)s->hits[i].offset);
	return buf;
}
