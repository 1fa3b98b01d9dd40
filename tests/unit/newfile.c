/* SPDX-License-Identifier: MIT */
/*
 * Description: every file kiln creates is made without following a link
 * planted in its place (base/newfile.c): a symbolic link or a hard link
 * at a temporary's name or at the file's own is replaced, its target
 * never written; a file a user names is refused when it is a link, not
 * a regular file, or a file with a second name; a folder others can
 * write is told.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../lib/tap.h"
#include "base/newfile.h"

static char dir[64], victim[128], path[256];

static int victim_intact(void)
{
	size_t len;
	char *text = tap_slurp(victim, &len);
	int same = text && len == 7 && !memcmp(text, "victim\n", 7);

	free(text);
	return same;
}

static const char *in(const char *name)
{
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return path;
}

int main(int argc, char **argv)
{
	char why[256];
	struct stat st;
	size_t len;
	char *text;
	int dfd, fd, ret;
	FILE *f;

	tap_args(argc, argv);
	tap_plan(12);
	snprintf(dir, sizeof(dir), "/tmp/kiln-newfile-XXXXXX");
	if (!mkdtemp(dir))
		tap_bail("mkdtemp: %s", strerror(errno));
	snprintf(victim, sizeof(victim), "%s/victim", dir);
	f = fopen(victim, "w");
	fputs("victim\n", f);
	fclose(f);
	dfd = newfile_dir(dir);

	symlink(victim, in("summary.txt.tmp"));
	ret = newfile_write(dfd, "summary.txt", "new\n", 4);
	text = tap_slurp(in("summary.txt"), &len);
	tap_ok(ret == 0 && victim_intact() && text && len == 4,
	       "a symbolic link at NAME.tmp: not followed, NAME written");
	free(text);
	tap_ok(access(in("summary.txt.tmp"), F_OK) && errno == ENOENT,
	       "no temporary is left behind");

	unlink(in("summary.txt"));
	symlink(victim, in("summary.txt"));
	ret = newfile_write(dfd, "summary.txt", "new\n", 4);
	tap_ok(ret == 0 && victim_intact() && lstat(in("summary.txt"), &st) == 0 &&
	       S_ISREG(st.st_mode),
	       "a symbolic link at NAME itself is replaced, not followed");

	link(victim, in("checkpoint-b.json"));
	fd = newfile_create(dfd, "checkpoint-b.json", 0644);
	ret = fd >= 0 ? (int)write(fd, "cp\n", 3) : -1;
	if (fd >= 0)
		close(fd);
	tap_ok(ret == 3 && victim_intact(),
	       "a hard link at a file made anew: the file is new, its other "
	       "name untouched");

	symlink("/nonexistent/dangling", in("fleet.csv.tmp"));
	ret = newfile_write(dfd, "fleet.csv", "a,b\n", 4);
	tap_ok(ret == 0 && access("/nonexistent/dangling", F_OK),
	       "a dangling link at NAME.tmp: nothing made where it points");

	tap_ok(newfile_create(dfd, "sub/x", 0644) == -EINVAL,
	       "a name with a '/' is refused");

	symlink(victim, in("expect.cfg"));
	fd = newfile_over(in("expect.cfg"));
	tap_ok(fd == -ELOOP && victim_intact(),
	       "a file the user names that is a link: -ELOOP, nothing written");

	link(victim, in("power"));
	fd = newfile_over(in("power"));
	tap_ok(fd == -EMLINK && victim_intact(),
	       "a file with a second name: -EMLINK, nothing written");

	mkfifo(in("fifo"), 0600);
	fd = newfile_over(in("fifo"));
	tap_ok(fd < 0, "a FIFO: refused at once, never waited on (%d)", fd);

	fd = newfile_over(in("fresh"));
	tap_ok(fd >= 0, "a new file the user names is made");
	if (fd >= 0)
		close(fd);

	chmod(dir, 0700);
	tap_ok(newfile_others(dfd, dir, why, sizeof(why)) == 0,
	       "a folder of kiln's user alone: not said");
	chmod(dir, 0777);
	tap_ok(newfile_others(dfd, dir, why, sizeof(why)) == 1 &&
	       strstr(why, "is writable by others") != NULL,
	       "a folder anyone can write is told: %s", why);
	chmod(dir, 0700);
	close(dfd);

	snprintf(path, sizeof(path), "rm -rf '%s'", dir);
	if (system(path))
		tap_diag("cannot remove %s", dir);
	return tap_done();
}
