/* SPDX-License-Identifier: MIT */
#ifndef KILN_SYSFS_H
#define KILN_SYSFS_H

#include <stddef.h>
#include <sys/types.h>

/*
 * Reading the kernel's small files: sysfs attributes, /proc, folders of
 * them. Every reader takes its root as a path, so tests point it at
 * fixtures captured from real kernels (tests/fixtures/sysfs). Every read
 * may fail: the caller gets an empty string or a default, never a stop.
 */

/*
 * Reads a small file (at most len - 1 bytes) into buf, without trailing
 * whitespace; returns its length or -errno. Never blocks: O_NONBLOCK.
 */
int sysfs_read(const char *path, char *buf, size_t len);

/* sysfs_read() of dir/name: one attribute. */
int sysfs_attr(const char *dir, const char *name, char *buf, size_t len);

/* The same, tidied: printable ASCII, single spaces, trimmed. */
int sysfs_attr_tidy(const char *dir, const char *name, char *buf, size_t len);

/* A number attribute (any base strtol takes); unknown when absent or odd. */
long sysfs_attr_long(const char *dir, const char *name, long unknown);

/* Whether dir/name exists (a symlink counts, whatever it points at). */
int sysfs_exists(const char *dir, const char *name);

/* The last component of the symlink dir/name: a driver's name. */
void sysfs_link_base(const char *dir, const char *name, char *out, size_t len);

/* Keeps printable ASCII, turns runs of blanks into one space, trims. */
void sysfs_tidy(char *s);

/*
 * Whether the block device rdev sits behind USB (its sysfs device path,
 * under sysroot, runs through a USB port): a bridge may reset or hang on
 * an ATA or SCSI command it does not know, so none is sent through one.
 */
int sysfs_on_usb(const char *sysroot, dev_t rdev);

/* The entries of a folder, sorted naturally (sdb before sdaa); NULL if none. */
char **dir_list(const char *dir, int *count);
void dir_list_free(char **names, int count);

/*
 * A whole disk and its partitions, as the kernel lists them: once, here.
 * A disk with more partitions than fit says so (more), so a caller that
 * must see them all fails closed rather than miss the rest.
 */
#define SYSFS_FAMILY_MAX 64

struct sysfs_family {
	dev_t dev[SYSFS_FAMILY_MAX];	/* [0] is the disk */
	char name[SYSFS_FAMILY_MAX][64];
	int n;
	int more;			/* partitions were left out */
};

void sysfs_family(const char *sysroot, const char *name, dev_t dev,
		  struct sysfs_family *f);

#endif
