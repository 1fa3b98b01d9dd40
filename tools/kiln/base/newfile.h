/* SPDX-License-Identifier: MIT */
#ifndef KILN_NEWFILE_H
#define KILN_NEWFILE_H

#include <stddef.h>
#include <sys/types.h>

/*
 * Every file kiln creates, made so that a link planted in its place is
 * never followed. kiln runs as root, and writes into folders a user may
 * name (--out, a run folder, a fleet's output): a symbolic link at
 * summary.txt.tmp would make an open by path write the link's target.
 * So a folder is opened once (newfile_dir) and every file is made under
 * its descriptor: a temporary anew with O_CREAT | O_EXCL | O_NOFOLLOW
 * (whatever was at its name removed first, a link as a link), then
 * renamed over the file's name, which replaces a link there, never its
 * target.
 */

/*
 * The folder dir, opened for the calls below (the path may pass through
 * links: the user named it): a descriptor, or -errno.
 */
int newfile_dir(const char *dir);

/*
 * Whether someone other than root and kiln's user may write in the
 * folder dfd (written by others, or by a group other than root's, or
 * owned by another user): 1 with one line in why, naming dir; else 0.
 * What is in such a folder may be changed or replaced under kiln.
 */
int newfile_others(int dfd, const char *dir, char *why, size_t len);

/*
 * name made anew under dfd (a plain name, no '/'): what was there first
 * removed (a link itself, not what it points at), then created with
 * O_EXCL | O_NOFOLLOW. A descriptor open for writing, or -errno.
 */
int newfile_create(int dfd, const char *name, mode_t mode);

/*
 * A file whole or not at all, synced: name.tmp made anew
 * (newfile_create), written, then renamed onto name. 0 or -errno.
 */
int newfile_write(int dfd, const char *name, const void *data, size_t len);

/* newfile_write() in the folder dir, opened for it. */
int newfile_write_in(const char *dir, const char *name, const void *data,
		     size_t len);

/*
 * A file the user named by its path (--expect-out, --powercut-file),
 * opened to be written from its start: created when absent, else
 * truncated only when it is a regular file with no other name; never
 * through a link at its last component. A descriptor, or -ELOOP (a
 * link), -EINVAL (not a regular file), -EMLINK (another name), -errno.
 */
int newfile_over(const char *path);

/* Writes all of len bytes: 0 or -errno. */
int newfile_write_all(int fd, const void *data, size_t len);

#endif
