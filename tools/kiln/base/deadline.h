/* SPDX-License-Identifier: MIT */
#ifndef KILN_DEADLINE_H
#define KILN_DEADLINE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>

/*
 * Work that can block on a dead disk (opening it, reading it to class it)
 * run under the burn's deadline: each item in a thread of its own, all at
 * once, and the caller waits at most timeout_ns for them all. One disk
 * that does not answer can then be failed as stalled while the others go
 * on: kiln never hangs on one disk.
 *
 * done[i] is 1 for each item whose fn returned in time. An item whose fn
 * did not is still in use by its thread, which is left to run: the caller
 * must leave that item (and what it points to) alone, never freeing it.
 * Returns 0, or -errno when the threads could not be started (then none
 * ran and done[] is all 0).
 */
int deadline_each(void (*fn)(void *item), void *items, size_t size, int n,
		  uint64_t timeout_ns, int *done);

/*
 * A thread asleep in a dead disk's read is uninterruptible, and a process
 * with such a thread never exits: the caller of deadline_each() goes on,
 * but kiln would never end. deadline_apart() is deadline_each() with each
 * item in a child process of its own instead (a grandchild, so nothing is
 * left to reap), whose hang is left behind when kiln exits: fn runs on a
 * copy of the item and what it leaves there comes back when it returned
 * in time (pointers in the item are read, never written through). The
 * descriptor at fd_at in the item (an offset; -1: none) is handed back
 * over a socket: the caller's item then holds the caller's descriptor.
 * The child has no other descriptor of the caller's, and stdin, stdout
 * and stderr are /dev/null there, so a hung child holds no pipe of the
 * caller's open. For work before the burn, while kiln's memory is small.
 * Returns 0, or -errno when no child could be started.
 */
int deadline_apart(void (*fn)(void *item), void *items, size_t size, int n,
		   long fd_at, uint64_t timeout_ns, int *done);

/*
 * Whether pid is kiln itself: this process, the kiln whose child it is,
 * or another child of the same deadline_apart() (another target being
 * opened). What they hold open is kiln's own, not another process's.
 */
int deadline_ours(pid_t pid);

/*
 * stat() of paths that may be on a filesystem that hangs (a dead NFS
 * server, a FUSE daemon that stopped), all at once: err[i] is 0 (st[i]
 * holds the answer), -errno, or -ETIMEDOUT when it gave no answer in
 * timeout_ns (its child is left behind). 0, or -errno when none ran.
 */
int deadline_stats(const char *const *paths, int n, struct stat *st,
		   int *err, uint64_t timeout_ns);

/*
 * One stat() of a path that may be on a filesystem that hangs, for any
 * time, the burn's too (nothing of kiln's memory is copied): made by a
 * vfork()ed child that a thread of its own waits for killably, so kiln
 * can always exit. 0 (st holds the answer), -errno, or -ETIMEDOUT when
 * no answer came in timeout_ns (the child and its thread are left).
 */
int deadline_stat(const char *path, struct stat *st, uint64_t timeout_ns);

/*
 * close() of a file whose filesystem may have stopped answering: a close
 * can wait (a FUSE file's flush goes to its daemon and cannot be
 * interrupted, an NFS file's goes to its server), and one left to kiln's
 * exit would hold the exit for ever. A process of its own that shares
 * kiln's descriptor table closes it; the caller waits timeout_ns at most:
 * 0, or -ETIMEDOUT (the close took the descriptor out of the table before
 * it waited, so kiln's exit no longer waits for it; call
 * deadline_release() before exiting).
 */
int deadline_close(int fd, uint64_t timeout_ns);

/*
 * Just before kiln exits: when a deadline_close() was left behind, every
 * descriptor is closed, so the closer holds none of them open (stdout's
 * pipe, a disk). stdio must have been flushed.
 */
void deadline_release(void);

/*
 * pread() and fdatasync() of a disk in a vfork()ed child that shares
 * kiln's memory and holds no other descriptor: the calling thread waits
 * for it killably, never in the disk's uninterruptible sleep, so whatever
 * the disk does kiln's process can exit (the child is left behind). For
 * the burn, when kiln's memory is large and pinned: nothing is copied.
 * The caller's own watch (the engine's, a deadline) decides how long it
 * waits. Return -errno as the calls' errno would say. *ns (when not NULL)
 * is how long the read took, timed in the child.
 */
ssize_t deadline_pread(int fd, void *buf, size_t len, off_t off,
		       uint64_t *ns);
int deadline_fdatasync(int fd);

/*
 * A block device's range ioctl (BLKDISCARD, BLKZEROOUT: a uint64_t
 * offset and length) made the same way: the device may take its time or
 * never answer, and only the caller's watch decides how long to wait.
 * 0, or -errno.
 */
int deadline_range(int fd, unsigned long req, uint64_t off, uint64_t len);

/* One read of deadline_preads(): what it returned (or -errno), its time. */
struct deadline_read {
	long ret;
	uint64_t ns;
};

/*
 * n reads of len bytes each, one after another from off, in one child as
 * deadline_pread() makes one (a child a read would be thousands for a
 * re-read of slow requests unit by unit), each timed there; it stops
 * before a read when CLOCK_MONOTONIC (timing_now_ns()) has reached until.
 * The reads made, or -errno when none could be: reads[0..] says each.
 */
int deadline_preads(int fd, size_t len, unsigned n, off_t off,
		    uint64_t until, struct deadline_read *reads);

#endif
