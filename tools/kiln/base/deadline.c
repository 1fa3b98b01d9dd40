/* SPDX-License-Identifier: MIT */
/*
 * Description: running work that may hang on a dead disk under a deadline
 * (see deadline.h). The threads share one block counted by reference, so
 * the last one out frees it, whether that is the caller or a thread that
 * came back long after the caller stopped waiting. The same work in
 * child processes (deadline_apart), so that no thread of kiln's ever
 * sleeps in a dead disk's uninterruptible wait, which would keep the
 * process from exiting; a disk's single calls are deadline_alone.c's.
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

struct shared {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	int refs;		/* the threads still out, and the caller */
	int pending;		/* items not yet done */
	int *done;		/* the caller's until it stops waiting */
	int gone;		/* the caller stopped waiting */
};

struct job {
	struct shared *sh;
	void (*fn)(void *item);
	void *item;
	int index;
};

static void drop(struct shared *sh)
{
	int last;

	pthread_mutex_lock(&sh->lock);
	last = --sh->refs == 0;
	pthread_mutex_unlock(&sh->lock);
	if (last) {
		pthread_cond_destroy(&sh->cond);
		pthread_mutex_destroy(&sh->lock);
		free(sh);
	}
}

static void *run(void *arg)
{
	struct job *j = arg;
	struct shared *sh = j->sh;

	j->fn(j->item);
	pthread_mutex_lock(&sh->lock);
	if (!sh->gone)
		sh->done[j->index] = 1;
	sh->pending--;
	pthread_cond_signal(&sh->cond);
	pthread_mutex_unlock(&sh->lock);
	free(j);
	drop(sh);
	return NULL;
}

int deadline_each(void (*fn)(void *item), void *items, size_t size, int n,
		  uint64_t timeout_ns, int *done)
{
	struct shared *sh = calloc(1, sizeof(*sh));
	pthread_attr_t attr;
	struct timespec end;
	sigset_t all, old;
	int i, ret = 0;

	memset(done, 0, (size_t)n * sizeof(*done));
	if (!sh)
		return -ENOMEM;
	pthread_mutex_init(&sh->lock, NULL);
	timing_cond_init(&sh->cond);
	sh->refs = 1;
	sh->done = done;
	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	/* The threads take no signals: the main thread handles them. */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	for (i = 0; i < n; i++) {
		struct job *j = malloc(sizeof(*j));
		pthread_t t;

		if (!j) {
			ret = -ENOMEM;
			break;
		}
		j->sh = sh;
		j->fn = fn;
		j->item = (char *)items + (size_t)i * size;
		j->index = i;
		pthread_mutex_lock(&sh->lock);
		sh->refs++;
		sh->pending++;
		pthread_mutex_unlock(&sh->lock);
		ret = -pthread_create(&t, &attr, run, j);
		if (ret) {
			pthread_mutex_lock(&sh->lock);
			sh->refs--;
			sh->pending--;
			pthread_mutex_unlock(&sh->lock);
			free(j);
			break;
		}
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	pthread_attr_destroy(&attr);

	end = timing_ts_in(timeout_ns);
	pthread_mutex_lock(&sh->lock);
	while (sh->pending &&
	       pthread_cond_timedwait(&sh->cond, &sh->lock, &end) != ETIMEDOUT)
		;
	/* From here on a late thread writes nothing of the caller's. */
	sh->gone = 1;
	pthread_mutex_unlock(&sh->lock);
	drop(sh);
	return ret;
}

/*
 * The kiln whose children these are (set once, inherited by them), and
 * the pids of the children of the batch under way, each written by the
 * child itself before it opens anything, in memory they all share.
 */
static pid_t caller;
static pid_t *batch;
static int nbatch;

/*
 * The grandchild: fn on its item, then one byte (with the item's
 * descriptor) back to the caller. Never returns.
 */
__attribute__((noreturn))
static void apart_child(void (*fn)(void *item), void *item, long fd_at,
			int sock, int index)
{
	char byte = 1, ctl[CMSG_SPACE(sizeof(int))];
	struct iovec iov = { &byte, 1 };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1 };
	int null, fd = -1;
	sigset_t all;

	/* The middle child ends at once, so the caller reaps it at once. */
	if (fork() != 0)
		_exit(0);
	__atomic_store_n(&batch[index], getpid(), __ATOMIC_RELEASE);
	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, NULL);
	/* Nothing of the caller's held open: a hung child keeps no pipe. */
	if (sock < 3) {
		int high = fcntl(sock, F_DUPFD_CLOEXEC, 3);

		if (high < 0)
			_exit(1);
		sock = high;
	}
	deadline_close_all_but(sock);
	null = open("/dev/null", O_RDWR);
	if (null >= 0 && null != 0)
		_exit(1);
	if (null == 0 && (dup2(0, 1) < 0 || dup2(0, 2) < 0))
		_exit(1);
	fn(item);
	if (fd_at >= 0)
		memcpy(&fd, (char *)item + fd_at, sizeof(fd));
	if (fd >= 0) {
		struct cmsghdr *c;

		memset(ctl, 0, sizeof(ctl));
		m.msg_control = ctl;
		m.msg_controllen = sizeof(ctl);
		c = CMSG_FIRSTHDR(&m);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN(sizeof(int));
		memcpy(CMSG_DATA(c), &fd, sizeof(fd));
	}
	sendmsg(sock, &m, MSG_NOSIGNAL);
	/* _exit: no atexit handlers (a sanitizer's report) of the caller's. */
	_exit(0);
}

/* The byte and descriptor a child sent: 1, 0 when it ended without. */
static int apart_take(int sock, int *fd)
{
	char byte, ctl[CMSG_SPACE(sizeof(int))];
	struct iovec iov = { &byte, 1 };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1,
			    .msg_control = ctl, .msg_controllen = sizeof(ctl) };
	struct cmsghdr *c;
	ssize_t n;

	*fd = -1;
	do
		n = recvmsg(sock, &m, MSG_CMSG_CLOEXEC);
	while (n < 0 && errno == EINTR);
	if (n != 1)
		return 0;
	for (c = CMSG_FIRSTHDR(&m); c; c = CMSG_NXTHDR(&m, c))
		if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS)
			memcpy(fd, CMSG_DATA(c), sizeof(*fd));
	return 1;
}

int deadline_ours(pid_t pid)
{
	int i;

	if (pid == getpid() || pid == (caller ? caller : getpid()))
		return 1;
	for (i = 0; i < nbatch; i++)
		if (__atomic_load_n(&batch[i], __ATOMIC_ACQUIRE) == pid)
			return 1;
	return 0;
}

int deadline_apart(void (*fn)(void *item), void *items, size_t size, int n,
		   long fd_at, uint64_t timeout_ns, int *done)
{
	size_t len = (size_t)n * size, pids = (size_t)n * sizeof(pid_t);
	uint64_t end;
	pid_t *outer = batch;
	int i, left = 0, ret = 0, nouter = nbatch;
	struct pollfd *p;
	unsigned char *shared;

	memset(done, 0, (size_t)n * sizeof(*done));
	if (n <= 0)
		return 0;
	/* Shared with the children, so what fn leaves comes back. */
	shared = mmap(NULL, len + pids, PROT_READ | PROT_WRITE,
		      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	p = calloc((size_t)n, sizeof(*p));
	if (shared == MAP_FAILED || !p) {
		if (shared != MAP_FAILED)
			munmap(shared, len + pids);
		free(p);
		return -ENOMEM;
	}
	memcpy(shared, items, len);
	if (!caller)
		caller = getpid();
	/* pid_t after the items: len is a multiple of the items' alignment. */
	batch = (pid_t *)(shared + len);
	nbatch = n;
	for (i = 0; i < n; i++) {
		int sv[2], status;
		pid_t pid;

		p[i].fd = -1;
		if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv)) {
			ret = -errno;
			break;
		}
		pid = fork();
		if (pid == 0)
			apart_child(fn, shared + (size_t)i * size, fd_at,
				    sv[1], i);
		close(sv[1]);
		if (pid < 0) {
			ret = -errno;
			close(sv[0]);
			break;
		}
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
		p[i].fd = sv[0];
		p[i].events = POLLIN;
		left++;
	}
	/* None started: none ran. Some did: wait for those. */
	if (ret && !left) {
		batch = outer;
		nbatch = nouter;
		munmap(shared, len + pids);
		free(p);
		return ret;
	}
	/*
	 * The time is the disks': it starts when the last child is out, as
	 * starting a thousand of them takes a loaded machine a while. Past
	 * it, the children that answered are still taken (a poll that does
	 * not wait), and only those that did not are late.
	 */
	end = timing_now_ns() + timeout_ns;
	while (left) {
		uint64_t now = timing_now_ns();
		int k;

		k = poll(p, (nfds_t)n, now >= end ? 0 :
			 (int)((end - now + 999999) / 1000000));
		if (k < 0 && errno != EINTR)
			break;
		for (i = 0; k > 0 && i < n; i++) {
			int fd;

			if (p[i].fd < 0 || !p[i].revents)
				continue;
			/* Ended without answering (it crashed): not done. */
			if (apart_take(p[i].fd, &fd)) {
				memcpy((char *)items + (size_t)i * size,
				       shared + (size_t)i * size, size);
				if (fd_at >= 0)
					memcpy((char *)items + (size_t)i * size +
					       fd_at, &fd, sizeof(fd));
				done[i] = 1;
			}
			close(p[i].fd);
			p[i].fd = -1;
			left--;
		}
		if (now >= end)
			break;
	}
	/* A late child finds its socket closed and ends by itself. */
	for (i = 0; i < n; i++)
		if (p[i].fd >= 0)
			close(p[i].fd);
	batch = outer;
	nbatch = nouter;
	munmap(shared, len + pids);
	free(p);
	return 0;
}

struct stating {
	const char *path;
	struct stat st;
	int ret;
};

static void stat_one(void *arg)
{
	struct stating *s = arg;

	s->ret = stat(s->path, &s->st) ? -errno : 0;
}

int deadline_stats(const char *const *paths, int n, struct stat *st,
		   int *err, uint64_t timeout_ns)
{
	struct stating *s = calloc((size_t)n + 1, sizeof(*s));
	int *done = calloc((size_t)n + 1, sizeof(*done));
	int i, ret = -ENOMEM;

	if (s && done) {
		for (i = 0; i < n; i++)
			s[i].path = paths[i];
		ret = deadline_apart(stat_one, s, sizeof(*s), n, -1,
				     timeout_ns, done);
	}
	for (i = 0; !ret && i < n; i++) {
		err[i] = done[i] ? s[i].ret : -ETIMEDOUT;
		if (done[i] && !s[i].ret)
			st[i] = s[i].st;
	}
	free(s);
	free(done);
	return ret;
}
