/* SPDX-License-Identifier: MIT */
/*
 * Description: the questions in-use asks of the kernel that may hang
 * (see safety_ask.h): what a loop device is over (LOOP_GET_STATUS64: the
 * backing file's device and inode, or the device it is over, whatever
 * path or node set it up, a deleted one too), or a stat of a swap file or
 * a mount source. Each is asked in a child, a bounded time: the kernel
 * stats a backing file for it, and a file on a dead NFS server or a
 * stopped FUSE daemon never answers. A question left unanswered is that
 * device's, never the subject's stall.
 */
#include <fcntl.h>
#include <linux/loop.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "base/deadline.h"
#include "base/timing.h"
#include "discover/safety_ask.h"

/* The kernel's 64-bit encoding of a device number (huge_encode_dev). */
static dev_t huge_decode(unsigned long long x)
{
	return makedev((unsigned)(x >> 8) & 0xfff,
		       (unsigned)((x & 0xff) | ((x >> 12) & 0xfff00)));
}


static void ask_one(struct safety_ask *a)
{
	struct loop_info64 info;
	char node[80];
	struct stat st;
	size_t len = strlen(a->path);
	int fd = -1;

	if (a->name) {
		snprintf(node, sizeof(node), "/dev/%s", a->name);
		fd = open(node, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	}
	if (fd >= 0 && fstat(fd, &st) == 0 && S_ISBLK(st.st_mode) &&
	    st.st_rdev == a->dev && ioctl(fd, LOOP_GET_STATUS64, &info) == 0) {
		a->m.file = !info.lo_rdevice;
		a->m.dev = huge_decode(info.lo_rdevice ? info.lo_rdevice :
				       info.lo_device);
		a->m.ino = (ino_t)info.lo_inode;
		a->ok = 1;
	} else if (len < 10 || strcmp(a->path + len - 10, " (deleted)")) {
		/* No node of its own here: by its path, when it has one. */
		if (a->path[0] == '/' && stat(a->path, &st) == 0 &&
		    (S_ISBLK(st.st_mode) || S_ISREG(st.st_mode))) {
			a->m.file = S_ISREG(st.st_mode);
			a->m.dev = a->m.file ? st.st_dev : st.st_rdev;
			a->m.ino = st.st_ino;
			a->ok = 1;
		}
	}
	if (fd >= 0)
		close(fd);
}

/*
 * The child's round: the questions from `from` on, one after another,
 * each marked as it is asked, in memory shared with the caller (mapped
 * by the caller before the fork, not the caller's item), so a round that
 * stops in one question says which.
 */
struct round {
	struct safety_ask *a;
	int n, from;
};

static void ask_round(void *arg)
{
	struct round *r = arg;
	int i;

	for (i = r->from; i < r->n; i++) {
		__atomic_store_n(&r->a[i].since, timing_now_ns(),
				 __ATOMIC_RELEASE);
		__atomic_store_n(&r->a[i].state, SAFETY_ASK_ASKING, __ATOMIC_RELEASE);
		ask_one(&r->a[i]);
		__atomic_store_n(&r->a[i].state, SAFETY_ASK_DONE, __ATOMIC_RELEASE);
	}
}

/*
 * Asks every question, in rounds of one child each. A question the child
 * has been in for SAFETY_ASK_MS is left unanswered (its child is left
 * behind) and a new round goes on after it: a dead device costs one wait,
 * however many live ones there are. Only a question's own time counts,
 * never the round's: on a loaded machine a child may start late, and a
 * live device left unanswered would be compared by its path alone. A
 * round that is in no question ASK_START_MS after it began (a child that
 * never started, or died) gives up the rest.
 */
#define ASK_START_MS 10000

void safety_ask_all(struct safety_ask *q, int n)
{
	const struct timespec tick = { 0, 5000000 };
	size_t len = (size_t)n * sizeof(*q);
	struct safety_ask *a;
	int from = 0, i;

	if (!n)
		return;
	a = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
		 -1, 0);
	if (a == MAP_FAILED)
		return;
	memcpy(a, q, len);
	while (from < n) {
		struct round r = { a, n, from };
		uint64_t start = timing_now_ns();
		int stuck = -1, done = 0;

		if (deadline_apart(ask_round, &r, sizeof(r), 1, -1,
				   SAFETY_ASK_MS * 1000000ull, &done))
			break;
		/* Left to run: it goes on through the rest, in a. */
		while (!done) {
			uint64_t now = timing_now_ns();
			int asking = -1, left = 0;

			for (i = from; i < n; i++) {
				int st = __atomic_load_n(&a[i].state,
							 __ATOMIC_ACQUIRE);

				left += st != SAFETY_ASK_DONE;
				if (st == SAFETY_ASK_ASKING)
					asking = i;
			}
			if (!left)
				break;
			if (asking >= 0 &&
			    now - __atomic_load_n(&a[asking].since,
						  __ATOMIC_ACQUIRE) >=
			    SAFETY_ASK_MS * 1000000ull) {
				stuck = asking;
				break;
			}
			if (asking < 0 &&
			    now - start >= ASK_START_MS * 1000000ull)
				break;
			nanosleep(&tick, NULL);
		}
		if (stuck < 0)
			break;
		from = stuck + 1;
	}
	for (i = 0; i < n; i++) {
		if (__atomic_load_n(&a[i].state, __ATOMIC_ACQUIRE) != SAFETY_ASK_DONE)
			continue;
		q[i].ok = a[i].ok;
		q[i].m = a[i].m;
		q[i].state = SAFETY_ASK_DONE;
	}
	munmap(a, len);
}
