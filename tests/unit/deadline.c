/* SPDX-License-Identifier: MIT */
/*
 * Description: work run where a hang can be left behind. deadline_apart
 * brings back what each child left in its item and the descriptor it
 * opened, and leaves a child that does not return in time behind
 * (with the others' answers kept); deadline_stats says each path's
 * answer; deadline_pread and deadline_fdatasync read and flush through a
 * child that shares our memory, and say errno as -errno.
 */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../lib/tap.h"
#include "base/deadline.h"
#include "base/timing.h"

#define MS 1000000ull

static char path[] = "/tmp/kiln-deadline-XXXXXX";

struct item {
	int hang;
	int fd;
	int value;
	pid_t pid;
	pid_t kiln;		/* the test's own pid */
	int ours;		/* deadline_ours() of it, in the child */
};

static void work(void *arg)
{
	struct item *it = arg;

	/*
	 * Long past the timeout; then it ends by itself, left behind. The
	 * timeout is long too: a fork on a loaded machine can take a second
	 * before the child runs, and a child that returns must be done
	 * whatever the load.
	 */
	if (it->hang)
		sleep(12);
	it->fd = open(path, O_RDONLY | O_CLOEXEC);
	it->value = 42 + it->hang;
	it->pid = getpid();
	it->ours = deadline_ours(it->kiln) && deadline_ours(getpid());
}

int main(int argc, char **argv)
{
	struct item items[3] = {
		{ .hang = 0, .fd = -1 }, { .hang = 1, .fd = -1 },
		{ .hang = 0, .fd = -1 },
	};
	const char *paths[2] = { NULL, "/nonexistent/kiln" };
	unsigned char buf[4096] __attribute__((aligned(4096)));
	struct stat st[2], mine;
	int done[3], err[2], fd, ret;
	char text[16] = { 0 };
	uint64_t ns = 0;

	tap_args(argc, argv);
	tap_plan(18);
	fd = mkstemp(path);
	if (fd < 0 || write(fd, "kiln, apart", 11) != 11)
		tap_bail("cannot make %s", path);
	fstat(fd, &mine);

	items[0].kiln = items[1].kiln = items[2].kiln = getpid();
	ret = deadline_apart(work, items, sizeof(items[0]), 3,
			     (long)offsetof(struct item, fd), 4000 * MS, done);
	tap_ok(ret == 0, "deadline_apart ran them");
	tap_ok(done[0] && !done[1] && done[2],
	       "the two that returned are done, the one that hangs is not");
	tap_ok(items[0].value == 42 && items[2].value == 42 &&
	       items[0].pid != getpid(),
	       "what each child left in its item came back");
	tap_ok(items[1].value == 0 && items[1].fd == -1,
	       "the hung one's item is as it was given");
	memset(text, 0, sizeof(text));
	tap_ok(items[0].fd >= 0 && pread(items[0].fd, text, 11, 0) == 11 &&
	       !strcmp(text, "kiln, apart"),
	       "the descriptor a child opened is ours, and reads the file");
	tap_ok(items[2].fd >= 0 && items[2].fd != items[0].fd &&
	       (fcntl(items[2].fd, F_GETFD) & FD_CLOEXEC),
	       "each its own, close-on-exec");
	tap_ok(items[0].ours && items[2].ours,
	       "in a child, kiln and the child itself are kiln's own");
	tap_ok(!deadline_ours(1), "init is not");
	close(items[0].fd);
	close(items[2].fd);

	paths[0] = path;
	ret = deadline_stats(paths, 2, st, err, 2000 * MS);
	tap_ok(ret == 0 && err[0] == 0 && st[0].st_ino == mine.st_ino &&
	       st[0].st_dev == mine.st_dev, "deadline_stats: the file's inode");
	tap_ok(err[1] == -ENOENT, "and a path that is not there: -ENOENT");

	memset(buf, 0, sizeof(buf));
	tap_ok(deadline_pread(fd, buf, 11, 0, &ns) == 11 &&
	       !memcmp(buf, "kiln, apart", 11),
	       "deadline_pread reads into our memory");
	tap_ok(ns > 0, "and times the read");
	tap_ok(deadline_pread(fd, buf, 11, 100, NULL) == 0,
	       "past the end: 0 bytes");
	tap_ok(deadline_pread(-1, buf, 11, 0, NULL) == -EBADF,
	       "a bad descriptor: -EBADF");
	tap_ok(deadline_fdatasync(fd) == 0, "deadline_fdatasync flushes");
	{
		struct deadline_read rd[4];
		uint64_t far = timing_now_ns() + 600 * TIMING_SEC;

		memset(rd, 0, sizeof(rd));
		tap_ok(deadline_preads(fd, 4, 4, 0, far, rd) == 4 &&
		       rd[0].ret == 4 && rd[1].ret == 4 && rd[2].ret == 3 &&
		       rd[3].ret == 0 && rd[0].ns > 0,
		       "deadline_preads: 4 reads of 4 bytes in one child, each "
		       "said and timed");
		tap_ok(deadline_preads(fd, 4, 4, 0, timing_now_ns(), rd) == 0,
		       "...none when the clock has passed its end");
		tap_ok(deadline_preads(-1, 4, 1, 0, far, rd) == 1 &&
		       rd[0].ret == -EBADF, "...a bad descriptor: -EBADF");
	}
	close(fd);
	unlink(path);
	return tap_done();
}
