/* SPDX-License-Identifier: MIT */
/*
 * Description: a disk's single calls under a deadline (see deadline.h):
 * a pread, a batch of preads, an fdatasync, a range ioctl and a stat, each
 * made alone in a vfork()ed child that works in a shared page, and a close
 * made by a closer that shares kiln's descriptor table, so that no
 * thread of kiln's ever sleeps in a dead disk's uninterruptible wait and
 * kiln can always exit. The work of many items at once is deadline.c's.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/deadline.h"
#include "base/deadline_private.h"
#include "base/timing.h"

/*
 * One call of a disk's, made alone in a vfork()ed child. What it finds
 * goes through a shared page and not the caller's memory, so it holds as
 * well where vfork() is a fork() (ThreadSanitizer makes it one; it also
 * takes clone() for a fork of its own, and a CLONE_VM child then wrecks
 * its state of the calling thread, so clone() is not used).
 */
struct alone {
	long ret;		/* what it returned, or -errno */
	uint64_t ns;		/* how long it took */
	/* ALONE_PREADS: reads to make, the clock to stop at, each's result */
	unsigned n;
	uint64_t until;
	struct deadline_read *reads;
	const char *path;	/* ALONE_STAT: the path, its answer in buf */
	volatile int done;	/* ALONE_STAT: ret and buf are final */
	/* ALONE_RANGE: the ioctl and its byte range */
	unsigned long req;
	uint64_t range[2];
	unsigned char buf[] __attribute__((aligned(4096)));
};

enum { ALONE_PREAD, ALONE_FDATASYNC, ALONE_PREADS, ALONE_STAT, ALONE_RANGE };

/* CLOCK_MONOTONIC in ns, by the system call alone (the child's way). */
__attribute__((no_sanitize("address", "thread", "undefined")))
static uint64_t child_now(void)
{
	struct timespec t;

	syscall(SYS_clock_gettime, CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * TIMING_SEC + (uint64_t)t.tv_nsec;
}

/* The child: system calls only, on memory the caller may share. */
__attribute__((noreturn, no_sanitize("address", "thread", "undefined")))
static void alone_child(struct alone *a, int op, int fd, size_t len, off_t off)
{
	uint64_t t0, t1;
	unsigned i;
	long r;

	/*
	 * A stat needs no descriptor, and a close can wait too: a dead FUSE
	 * file's close sends the daemon a flush. It closes none; its exit
	 * does, once ret is final and the waiting thread has it.
	 */
	if (op == ALONE_STAT) {
		r = syscall(SYS_newfstatat, AT_FDCWD, a->path, a->buf, 0);
		a->ret = r < 0 ? -errno : r;
		a->done = 1;
		syscall(SYS_exit, 0);
	}
	deadline_close_all_but(fd);
	if (op == ALONE_PREADS) {
		/*
		 * Piece after piece, each timed, until the clock says stop:
		 * one clock read a piece, its end the next one's start (a
		 * clock read is a system call here, as dear as a fast read's
		 * own CPU).
		 */
		t0 = child_now();
		for (i = 0, a->ret = 0; i < a->n && t0 < a->until; i++) {
			r = syscall(SYS_pread64, fd, a->buf, len,
				    off + (off_t)(i * len));
			t1 = child_now();
			a->reads[i].ret = r < 0 ? -errno : r;
			a->reads[i].ns = t1 - t0;
			a->ret = i + 1;
			t0 = t1;
		}
		syscall(SYS_exit, 0);
	}
	t0 = child_now();
	if (op == ALONE_PREAD)
		r = syscall(SYS_pread64, fd, a->buf, len, off);
	else if (op == ALONE_RANGE)
		r = syscall(SYS_ioctl, fd, a->req, a->range);
	else
		r = syscall(SYS_fdatasync, fd);
	a->ret = r < 0 ? -errno : r;
	a->ns = child_now() - t0;
	syscall(SYS_exit, 0);
	for (;;)
		;
}

/*
 * vfork(): the child shares our memory (nothing of the pinned buffers is
 * copied) and has its own descriptor table; this thread waits for it
 * killably, so a process exit takes this thread and leaves the child in
 * the disk's sleep. No handler of ours may run in the child: signals are
 * blocked across it.
 */
static pid_t alone_start(struct alone *a, int op, int fd, size_t len,
			 off_t off)
{
	sigset_t all, old;
	pid_t pid;

	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	pid = vfork();
	if (pid == 0)
		alone_child(a, op, fd, len, off);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return pid;
}

static long alone_n(int op, int fd, size_t len, off_t off, void *buf,
		    uint64_t *ns, unsigned n, uint64_t until,
		    struct deadline_read *reads)
{
	size_t head = (sizeof(struct alone) + len + 4095) & ~(size_t)4095;
	size_t size = head + n * sizeof(*reads);
	struct alone *a;
	pid_t pid;
	int status;
	long ret;

	a = mmap(NULL, size, PROT_READ | PROT_WRITE,
		 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (a == MAP_FAILED)
		return -ENOMEM;
	a->ret = op == ALONE_PREADS ? 0 : -EIO;
	a->ns = 0;
	a->n = n;
	a->until = until;
	a->reads = (struct deadline_read *)(void *)((char *)a + head);
	/* Its pages made here: a read's time holds no fault of them. */
	memset(a->reads, 0, n * sizeof(*reads));
	pid = alone_start(a, op, fd, len, off);
	if (pid < 0) {
		ret = -errno;
	} else {
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
		ret = a->ret;
		if (op == ALONE_PREADS && ret > 0)
			memcpy(reads, a->reads, (size_t)ret * sizeof(*reads));
		else if (ret > 0 && buf)
			memcpy(buf, a->buf, (size_t)ret);
		if (ns)
			*ns = a->ns;
	}
	munmap(a, size);
	return ret;
}

static long alone(int op, int fd, size_t len, off_t off, void *buf,
		  uint64_t *ns)
{
	return alone_n(op, fd, len, off, buf, ns, 0, 0, NULL);
}

ssize_t deadline_pread(int fd, void *buf, size_t len, off_t off,
		       uint64_t *ns)
{
	return (ssize_t)alone(ALONE_PREAD, fd, len, off, buf, ns);
}

int deadline_preads(int fd, size_t len, unsigned n, off_t off,
		    uint64_t until, struct deadline_read *reads)
{
	return (int)alone_n(ALONE_PREADS, fd, len, off, NULL, NULL, n, until,
			    reads);
}

int deadline_range(int fd, unsigned long req, uint64_t off, uint64_t len)
{
	size_t size = (sizeof(struct alone) + 4095) & ~(size_t)4095;
	struct alone *a;
	pid_t pid;
	int status;
	long ret;

	a = mmap(NULL, size, PROT_READ | PROT_WRITE,
		 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (a == MAP_FAILED)
		return -ENOMEM;
	a->ret = -EIO;
	a->req = req;
	a->range[0] = off;
	a->range[1] = len;
	pid = alone_start(a, ALONE_RANGE, fd, 0, 0);
	if (pid < 0) {
		ret = -errno;
	} else {
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
		ret = a->ret;
	}
	munmap(a, size);
	return (int)ret;
}

int deadline_fdatasync(int fd)
{
	return (int)alone(ALONE_FDATASYNC, fd, 0, 0, NULL, NULL);
}

/*
 * One deadline_stat(): the caller and the thread that waits for the
 * child share it; whichever of them lets go last frees it, since a
 * caller that gave up is gone while the thread may wait for ever.
 */
struct stat_wait {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	int done;
	int refs;
	long ret;
	struct stat st;
	char path[];
};

static void stat_wait_put(struct stat_wait *w)
{
	int last;

	pthread_mutex_lock(&w->lock);
	last = !--w->refs;
	pthread_mutex_unlock(&w->lock);
	if (last) {
		pthread_mutex_destroy(&w->lock);
		pthread_cond_destroy(&w->cond);
		free(w);
	}
}

/*
 * The thread: its vfork()ed child makes the call while it waits killably,
 * then hands the answer over as soon as the child says it is final (a
 * vfork() returns once the child has let go of our memory, before its
 * exit closes its descriptors, which on a dead FUSE file can wait for
 * ever; under ThreadSanitizer, where vfork() is a fork(), it polls the
 * shared page). Only then does it reap the child, however long that is.
 */
static void *stat_waiter(void *arg)
{
	size_t size = (sizeof(struct alone) + sizeof(struct stat) + 4095) &
		      ~(size_t)4095;
	struct stat_wait *w = arg;
	struct alone *a;
	int status;
	pid_t pid;
	long ret = -ENOMEM;

	a = mmap(NULL, size, PROT_READ | PROT_WRITE,
		 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (a == MAP_FAILED)
		a = NULL;
	pid = -1;
	if (a) {
		a->ret = -EIO;
		a->path = w->path;
		pid = alone_start(a, ALONE_STAT, -1, 0, 0);
		ret = pid < 0 ? -errno : -EIO;
	}
	while (pid > 0 && !a->done) {
		struct timespec ms = { 0, 1000000 };

		if (waitpid(pid, &status, WNOHANG) != 0) {
			pid = -1;
			break;
		}
		nanosleep(&ms, NULL);
	}
	pthread_mutex_lock(&w->lock);
	if (a && a->done) {
		ret = a->ret;
		if (!ret)
			memcpy(&w->st, a->buf, sizeof(w->st));
	}
	w->ret = ret;
	w->done = 1;
	pthread_cond_signal(&w->cond);
	pthread_mutex_unlock(&w->lock);
	stat_wait_put(w);
	while (pid > 0 && waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (a)
		munmap(a, size);
	return NULL;
}

int deadline_stat(const char *path, struct stat *st, uint64_t timeout_ns)
{
	size_t len = strlen(path) + 1;
	struct stat_wait *w = calloc(1, sizeof(*w) + len);
	struct timespec until;
	pthread_attr_t attr;
	pthread_t t;
	sigset_t all, old;
	int ret;

	if (!w)
		return -ENOMEM;
	memcpy(w->path, path, len);
	pthread_mutex_init(&w->lock, NULL);
	timing_cond_init(&w->cond);
	w->refs = 2;
	/* Detached, its signals blocked: left behind, it holds nothing. */
	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	pthread_attr_setstacksize(&attr, 64 * 1024);
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	ret = -pthread_create(&t, &attr, stat_waiter, w);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	pthread_attr_destroy(&attr);
	if (ret) {
		pthread_mutex_destroy(&w->lock);
		pthread_cond_destroy(&w->cond);
		free(w);
		return ret;
	}
	until = timing_ts_in(timeout_ns);
	pthread_mutex_lock(&w->lock);
	while (!w->done &&
	       pthread_cond_timedwait(&w->cond, &w->lock, &until) != ETIMEDOUT)
		;
	ret = w->done ? (int)w->ret : -ETIMEDOUT;
	if (w->done && !ret)
		*st = w->st;
	pthread_mutex_unlock(&w->lock);
	stat_wait_put(w);
	return ret;
}

/* A closer was left holding kiln's descriptor table: see deadline_release(). */
static int close_left;

/*
 * The closer: a process of its own that shares kiln's memory (nothing is
 * copied) and descriptor table, on a small stack of its own, system calls
 * only. Its close takes fd out of the table at once, then waits for the
 * flush however long, uninterruptibly: a FUSE flush is a forced request.
 */
__attribute__((noreturn, no_sanitize("address", "thread", "undefined")))
static int closer(void *arg)
{
	syscall(SYS_close, (int)(long)arg);
	syscall(SYS_exit, 0);
	for (;;)
		;
}

#define CLOSER_STACK (64 * 1024)

int deadline_close(int fd, uint64_t timeout_ns)
{
	uint64_t end = timing_now_ns() + timeout_ns;
	sigset_t all, old;
	int status;
	void *stack;
	pid_t pid;

	stack = mmap(NULL, CLOSER_STACK, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (stack == MAP_FAILED) {
		close(fd);
		return 0;
	}
	/* No handler of ours may run on its stack: it starts with none. */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	pid = clone(closer, (char *)stack + CLOSER_STACK,
		    CLONE_VM | CLONE_FILES | SIGCHLD, (void *)(long)fd);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (pid < 0) {
		munmap(stack, CLOSER_STACK);
		close(fd);
		return 0;
	}
	while (waitpid(pid, &status, WNOHANG) == 0) {
		struct timespec tick = { 0, 10000000 };

		if (timing_now_ns() >= end) {
			/* Its stack stays: it may still run on it. */
			close_left = 1;
			return -ETIMEDOUT;
		}
		nanosleep(&tick, NULL);
	}
	munmap(stack, CLOSER_STACK);
	return 0;
}

void deadline_release(void)
{
	/*
	 * The closer left behind holds the table it shares with kiln: what
	 * is still open at kiln's exit would stay open with it (a pipe's
	 * reader would wait for an end, a disk stay held). Closed now, by
	 * kiln, they are closed for both.
	 */
	if (close_left)
		syscall(SYS_close_range, 0u, ~0u, 0u);
}
