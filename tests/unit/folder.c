/* SPDX-License-Identifier: MIT */
/*
 * Description: the run folder survives a power cut: checkpoints alternate
 * between two files, a torn or truncated one is detected by its length and
 * CRC, and the other one still holds the previous state. A run folder on
 * a target is found through sysfs (a made-up tree here, so no root and no
 * device-mapper are needed): on one of its partitions, or on a device
 * whose slaves lead to it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "../lib/tap.h"
#include "base/json.h"
#include "results/folder.h"

static char dir[64], a[128], b[128];

static char *doc(int state)
{
	struct json j;

	json_init(&j);
	json_begin(&j, NULL);
	json_u64(&j, "state", (uint64_t)state);
	json_str(&j, "text", "quote \" backslash \\ newline \n byte \xe9");
	json_array(&j, "list");
	json_u64(&j, NULL, 1);
	json_u64(&j, NULL, 2);
	json_array_end(&j);
	json_begin(&j, "empty");
	json_end(&j);
	json_end(&j);
	return json_take(&j, NULL);
}

static int truncate_to(const char *path, off_t len)
{
	return truncate(path, len);
}

static int flip_byte(const char *path, long at)
{
	FILE *f = fopen(path, "r+");
	int c;

	if (!f)
		return -1;
	fseek(f, at, SEEK_SET);
	c = fgetc(f);
	fseek(f, at, SEEK_SET);
	fputc(c ^ 0x20, f);
	return fclose(f);
}

/* Writes text into the file path, making its folders. */
static int put(const char *path, const char *text)
{
	char cmd[512];
	FILE *f;

	snprintf(cmd, sizeof(cmd), "mkdir -p \"$(dirname '%s')\"", path);
	if (system(cmd))
		return -1;
	f = fopen(path, "w");
	if (!f)
		return -1;
	fputs(text, f);
	return fclose(f);
}

/*
 * The folder here lies on the filesystem of device dev; sysfs made up so
 * that dev is a partition of the target, or built on it (its slaves).
 */
static void test_overlaps(void)
{
	char sys[96], folder[128], p[256], q[256], why[512], tdev[32];
	struct stat st, sd;
	const char *target = "/dev/loop0";

	if (stat(target, &st) < 0 || !S_ISBLK(st.st_mode)) {
		tap_skip("no %s here to stand for a target disk", target);
		tap_skip("no %s here", target);
		tap_skip("no %s here", target);
		return;
	}
	snprintf(sys, sizeof(sys), "%s/sys", dir);
	snprintf(folder, sizeof(folder), "%s/results", dir);
	mkdir(dir, 0755);
	stat(dir, &sd);
	snprintf(tdev, sizeof(tdev), "%u:%u\n", major(st.st_rdev),
		 minor(st.st_rdev));

	/* The folder's device as a partition of the target. */
	snprintf(p, sizeof(p), "%s/devices/block/loop0/loop0p1/partition", sys);
	snprintf(q, sizeof(q), "%s/devices/block/loop0/dev", sys);
	put(p, "1\n");
	put(q, tdev);
	snprintf(p, sizeof(p), "%s/dev/block/.made", sys);
	put(p, "");
	snprintf(p, sizeof(p), "%s/dev/block/%u:%u", sys, major(sd.st_dev),
		 minor(sd.st_dev));
	tap_ok(symlink("../../devices/block/loop0/loop0p1", p) == 0 &&
	       folder_overlaps(sys, folder, target, why, sizeof(why)) == 1 &&
	       strstr(why, folder) && strstr(why, target),
	       "a run folder on a partition of the target: refused, naming "
	       "both");

	/* ...as a device whose slave is a partition of the target. */
	unlink(p);
	/* A slave is its block device's folder, with its dev in it. */
	snprintf(q, sizeof(q), "%s/devices/virtual/block/dm-0/slaves/"
		 "loop0p1/dev", sys);
	put(q, "259:7\n");
	snprintf(q, sizeof(q), "%s/dev/block/259:7", sys);
	tap_ok(symlink("../../devices/virtual/block/dm-0", p) == 0 &&
	       symlink("../../devices/block/loop0/loop0p1", q) == 0 &&
	       folder_overlaps(sys, folder, target, why, sizeof(why)) == 1,
	       "...on a device built on a partition of it (its slaves)");

	/* ...and a device of no kin to the target. */
	unlink(q);
	snprintf(q, sizeof(q), "%s/dev/block/259:7", sys);
	symlink("../../devices/block/other", q);
	snprintf(q, sizeof(q), "%s/devices/block/other/dev", sys);
	put(q, "8:0\n");
	tap_ok(folder_overlaps(sys, folder, target, why, sizeof(why)) == 0,
	       "a run folder on another disk's device is fine");
}

int main(int argc, char **argv)
{
	struct folder r;
	char err[256], *d1, *d2, *got = NULL;
	uint64_t seq = 0;
	size_t len = 0;
	struct stat st;
	struct folder r2;

	tap_args(argc, argv);
	snprintf(dir, sizeof(dir), "/tmp/kiln-results-%d", (int)getpid());
	snprintf(a, sizeof(a), "%s/deep/er/checkpoint-a.json", dir);
	snprintf(b, sizeof(b), "%s/deep/er/checkpoint-b.json", dir);

	d1 = doc(1);
	d2 = doc(2);
	tap_ok(d1 && !strcmp(d1, "{\n  \"state\": 1,\n  \"text\": \"quote \\\" "
			      "backslash \\\\x5c newline \\n byte \\\\xe9\",\n"
			      "  \"list\": [\n    1,\n    2\n  ],\n"
			      "  \"empty\": {}\n}\n"),
	       "json: nesting, escapes, a byte that is not UTF-8 as \\\\xNN");

	{
		char path[128];

		snprintf(path, sizeof(path), "%s/deep/er", dir);
		tap_ok(folder_open(&r, path, 1 << 20, 0, err, sizeof(err)) == 0 &&
		       stat(path, &st) == 0,
		       "folder_open makes the folder and its parents");
		snprintf(path, sizeof(path), "%s/deep/er/.reserve", dir);
		tap_ok(stat(path, &st) == 0 && st.st_size == 1 << 20,
		       "...and holds the room asked for in .reserve");
		snprintf(path, sizeof(path), "%s/deep/er", dir);
		tap_ok(folder_open(&r2, path, 0, 0, err, sizeof(err)) == -EEXIST &&
		       strstr(err, "is not empty"),
		       "a folder with files in it is refused: runs never mix");
		snprintf(path, sizeof(path), "%s/none", dir);
		tap_ok(folder_open(&r2, path, 1 << 20, 1ull << 60, err,
				   sizeof(err)) == -ENOSPC &&
		       strstr(err, "cannot write the results") &&
		       access(path, F_OK) < 0,
		       "no room for what the run writes: refused, nothing left");
	}
	tap_ok(folder_checkpoint(&r, d1, strlen(d1)) == 0 &&
	       folder_read_checkpoint(a, &seq, &got, &len) == 0 && seq == 1 &&
	       strstr(got, "\"state\": 1"), "checkpoint 1 goes to file a");
	free(got);
	got = NULL;
	tap_ok(folder_checkpoint(&r, d2, strlen(d2)) == 0 &&
	       folder_read_checkpoint(b, &seq, NULL, NULL) == 0 && seq == 2 &&
	       folder_read_checkpoint(a, &seq, NULL, NULL) == 0 && seq == 1,
	       "checkpoint 2 goes to file b, leaving a");
	tap_ok(folder_checkpoint(&r, d1, strlen(d1)) == 0 &&
	       folder_read_checkpoint(a, &seq, NULL, NULL) == 0 && seq == 3,
	       "checkpoint 3 overwrites the older, a");

	stat(a, &st);
	tap_ok(truncate_to(a, st.st_size - 10) == 0 &&
	       folder_read_checkpoint(a, &seq, NULL, NULL) == -EBADMSG &&
	       folder_read_checkpoint(b, &seq, NULL, NULL) == 0 && seq == 2,
	       "a checkpoint cut short is refused; the other holds");
	tap_ok(folder_checkpoint(&r, d1, strlen(d1)) == 0 &&
	       folder_checkpoint(&r, d2, strlen(d2)) == 0 &&
	       flip_byte(b, 120) == 0 &&
	       folder_read_checkpoint(b, &seq, NULL, NULL) == -EBADMSG &&
	       folder_read_checkpoint(a, &seq, NULL, NULL) == 0 && seq == 5,
	       "a checkpoint with a changed byte is refused; the other holds");
	tap_ok(truncate_to(a, 0) == 0 &&
	       folder_read_checkpoint(a, &seq, NULL, NULL) == -EBADMSG,
	       "an empty checkpoint is refused");

	/* A write that fails never makes the good one the next victim. */
	tap_ok(folder_checkpoint(&r, d1, strlen(d1)) == 0 &&
	       folder_read_checkpoint(b, &seq, NULL, NULL) == 0 && seq == 6 &&
	       unlink(a) == 0 && mkdir(a, 0755) == 0 &&
	       folder_checkpoint(&r, d2, strlen(d2)) < 0 &&
	       folder_checkpoint(&r, d2, strlen(d2)) < 0 &&
	       folder_read_checkpoint(b, &seq, NULL, NULL) == 0 && seq == 6 &&
	       rmdir(a) == 0 && folder_checkpoint(&r, d2, strlen(d2)) == 0 &&
	       folder_read_checkpoint(a, &seq, NULL, NULL) == 0 && seq == 9 &&
	       folder_read_checkpoint(b, &seq, NULL, NULL) == 0 && seq == 6,
	       "failed checkpoints retry the bad file: the good one stays");

	tap_ok(folder_write(&r, "summary.txt", "hello\n", 6) == 0 &&
	       folder_sync(&r) == 0, "a whole file is written and synced");
	folder_close(&r);
	TAP_RUN(test_overlaps);
	{
		char cmd[160];

		snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
		tap_ok(system(cmd) == 0, "cleanup");
	}
	free(d1);
	free(d2);
	return tap_done();
}
