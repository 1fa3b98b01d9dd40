/* SPDX-License-Identifier: MIT */
/*
 * Description: the run folder survives a power cut: checkpoints alternate
 * between two files, a torn or truncated one is detected by its length and
 * CRC, and the other one still holds the previous state.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../lib/tap.h"
#include "json.h"
#include "folder.h"

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

int main(void)
{
	struct folder r;
	char err[256], *d1, *d2, *got = NULL;
	uint64_t seq = 0;
	size_t len = 0;
	struct stat st;
	struct folder r2;

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
	{
		char cmd[160];

		snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
		tap_ok(system(cmd) == 0, "cleanup");
	}
	free(d1);
	free(d2);
	return tap_done();
}
