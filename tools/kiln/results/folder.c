/* SPDX-License-Identifier: MIT */
/*
 * Description: the files of a run folder and how they survive power cuts
 * (see folder.h). A checkpoint file is one header line, then the result
 * document:
 *
 *   {"kiln_checkpoint": 1, "seq": 12, "bytes": 5120, "crc32c": "1a2b3c4d",
 *   "result": { ... }}
 *
 * where bytes and crc32c cover everything after the first newline. The
 * file is valid JSON as a whole, and checkable with a byte count and a CRC.
 * Where a run folder may be is folder_overlaps.c's.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

#include "base/crc32c.h"
#include "base/newfile.h"
#include "base/secret.h"
#include "results/folder.h"
#include "base/timing.h"

const char *const folder_checkpoints[2] = { "checkpoint-a.json",
					     "checkpoint-b.json" };

static int mkdirs(const char *path)
{
	char tmp[PATH_MAX], *p;

	if (snprintf(tmp, sizeof(tmp), "%s", path) >= (int)sizeof(tmp))
		return -ENAMETOOLONG;
	for (p = tmp + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = 0;
		if (mkdir(tmp, 0755) < 0 && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	if (mkdir(tmp, 0755) < 0 && errno != EEXIST)
		return -errno;
	return 0;
}

static int path_in(const struct folder *r, const char *name, char *out,
		   size_t len)
{
	if (snprintf(out, len, "%s/%s", r->dir, name) >= (int)len)
		return -ENAMETOOLONG;
	return 0;
}

/* Whether dir is absent, or a folder with nothing in it. */
static int absent_or_empty(const char *dir)
{
	struct dirent *e;
	DIR *d = opendir(dir);
	int empty = 1;

	if (!d)
		return errno == ENOENT ? 1 : -errno;
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			empty = 0;
	closedir(d);
	return empty;
}

/* Fills .reserve with zeros (not fallocate: FAT may not keep it) and syncs. */
static int hold(int dfd, uint64_t bytes)
{
	static const char zeros[65536];
	int fd, ret = 0;

	fd = newfile_create(dfd, ".reserve", 0644);
	if (fd < 0)
		return fd;
	while (bytes && !ret) {
		size_t n =
			bytes < sizeof(zeros) ? (size_t)bytes : sizeof(zeros);

		ret = newfile_write_all(fd, zeros, n);
		bytes -= n;
	}
	if (!ret && fsync(fd) < 0)
		ret = -errno;
	if (close(fd) < 0 && !ret)
		ret = -errno;
	return ret;
}

void folder_room(int disks, uint64_t seconds, uint64_t *reserve,
		 uint64_t *more)
{
	/*
	 * At the end: result.json, summary, report, checkpoints, SMART and
	 * bad units, about 2 MiB and 512 KiB a disk. As it goes: a line of
	 * samples.csv a disk and second (about 64 bytes), for the run's
	 * duration or, when that is not known, a 12-hour soak.
	 */
	*reserve = (2ull << 20) + (uint64_t)disks * (512ull << 10);
	*more = (uint64_t)disks * (seconds ? seconds : 12 * 3600) * 64;
}

int folder_open(struct folder *r, const char *dir, uint64_t reserve,
		uint64_t more, char *err, size_t len)
{
	char path[PATH_MAX], why[PATH_MAX + 100];
	struct statvfs vfs;
	int ret, made, fd;

	memset(r, 0, sizeof(*r));
	r->dfd = -1;
	ret = absent_or_empty(dir);
	if (ret <= 0) {
		if (ret)
			snprintf(err, len, "cannot use %s: %s", dir,
				 strerror(-ret));
		else
			snprintf(err, len,
				 "the results folder %s is not empty: "
				 "give a new one (two runs' files never mix)",
				 dir);
		return ret ? ret : -EEXIST;
	}
	made = access(dir, F_OK) < 0;
	ret = mkdirs(dir);
	if (ret) {
		snprintf(err, len, "cannot make %s: %s", dir, strerror(-ret));
		return ret;
	}
	r->dir = strdup(dir);
	if (!r->dir || path_in(r, "samples.csv", path, sizeof(path))) {
		snprintf(err, len, "cannot use %s", dir);
		ret = -ENOMEM;
		goto err;
	}
	/*
	 * Opened once: every file of the run is made under this descriptor,
	 * never through a link planted in the folder. A folder others can
	 * write is refused, since they could plant or change its files.
	 */
	r->dfd = newfile_dir(dir);
	if (r->dfd < 0) {
		ret = r->dfd;
		snprintf(err, len, "cannot use %s: %s", dir, strerror(-ret));
		goto err;
	}
	if (newfile_others(r->dfd, dir, why, sizeof(why))) {
		snprintf(err, len, "the results folder %s; give one only root "
			 "can write", why);
		ret = -EPERM;
		goto err;
	}
	ret = hold(r->dfd, reserve);
	if (!ret && statvfs(dir, &vfs) == 0 &&
	    (uint64_t)vfs.f_bavail * vfs.f_frsize < more)
		ret = -ENOSPC;
	if (ret) {
		snprintf(err, len, "cannot write the results in %s: %s (they "
			 "need about %llu MiB)", dir, strerror(-ret),
			 (unsigned long long)((reserve + more) >> 20) + 1);
		goto err;
	}
	r->reserved = reserve;
	r->made = made;
	fd = newfile_create(r->dfd, "samples.csv", 0644);
	r->samples = fd < 0 ? NULL : fdopen(fd, "w");
	if (!r->samples) {
		ret = fd < 0 ? fd : -errno;
		if (fd >= 0)
			close(fd);
		snprintf(err, len, "cannot write %s: %s", path,
			 strerror(-ret));
		goto err;
	}
	fputs("elapsed_s,target,phase,pass,write_bytes,read_bytes\n",
	      r->samples);
	return 0;
err:
	if (r->dfd >= 0) {
		unlinkat(r->dfd, ".reserve", 0);
		close(r->dfd);
	}
	r->dfd = -1;
	/* A folder made for nothing goes again; one given empty stays. */
	if (made)
		rmdir(dir);
	free(r->dir);
	r->dir = NULL;
	return ret;
}

void folder_release(struct folder *r)
{
	if (r->dir && r->reserved)
		unlinkat(r->dfd, ".reserve", 0);
	r->reserved = 0;
}

/* name made anew under the folder's descriptor (newfile.h), synced. */
static int write_synced(struct folder *r, const char *name, const char *head,
			size_t hlen, const void *data, size_t len)
{
	int fd, ret;

	fd = newfile_create(r->dfd, name, 0644);
	if (fd < 0)
		return fd;
	ret = newfile_write_all(fd, head, hlen);
	if (!ret)
		ret = newfile_write_all(fd, data, len);
	if (!ret && fsync(fd) < 0)
		ret = -errno;
	if (close(fd) < 0 && !ret)
		ret = -errno;
	return ret;
}

int folder_checkpoint(struct folder *r, const char *doc, size_t len)
{
	static const char pre[] = "\"result\": ", post[] = "}\n";
	size_t blen = sizeof(pre) - 1 + len + sizeof(post) - 1;
	char head[160], *body;
	int n, ret, file;

	/*
	 * Never over the newest good one: after a failed write (a full
	 * stick, a power cut) the same bad file is written again, so the
	 * good one stays whatever happens to this one.
	 */
	file = r->good == 1 ? 2 : 1;
	r->seq++;
	body = malloc(blen);
	if (!body)
		return -ENOMEM;
	memcpy(body, pre, sizeof(pre) - 1);
	memcpy(body + sizeof(pre) - 1, doc, len);
	memcpy(body + blen - 2, post, 2);
	n = snprintf(head, sizeof(head), "{\"kiln_checkpoint\": 1, \"seq\": "
		     "%llu, \"bytes\": %zu, \"crc32c\": \"%08x\",\n",
		     (unsigned long long)r->seq, blen, crc32c(0, body, blen));
	ret = write_synced(r, folder_checkpoints[file - 1], head, (size_t)n,
			   body, blen);
	free(body);
	if (!ret)
		r->good = file;
	return ret;
}

int folder_newest(const char *dir, char *path, size_t len, uint64_t *seq)
{
	char p[PATH_MAX];
	uint64_t s, best = 0;
	int i, found = 0;

	for (i = 0; i < 2; i++) {
		snprintf(p, sizeof(p), "%s/%s", dir, folder_checkpoints[i]);
		if (folder_read_checkpoint(p, &s, NULL, NULL) == 0 &&
		    (!found || s > best)) {
			best = s;
			snprintf(path, len, "%s", p);
			found = 1;
		}
	}
	if (found && seq)
		*seq = best;
	return found ? 0 : -ENOENT;
}

int folder_read_checkpoint(const char *path, uint64_t *seq, char **doc,
			    size_t *len)
{
	unsigned long long s;
	size_t bytes, size = 0, cap = 0;
	unsigned crc;
	char *buf = NULL, *nl;
	/* Not blocking, a regular file only: a FIFO must not hang a reader. */
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK), ret = -EBADMSG;
	struct stat st;
	FILE *f;

	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return -EBADMSG;
	}
	f = fdopen(fd, "r");
	if (!f) {
		ret = -errno;
		close(fd);
		return ret;
	}
	for (;;) {
		char *p;
		size_t n;

		if (size + 4096 > cap) {
			/* Its size at once: no copy of a doubling. */
			cap = cap ? cap * 2 :
			      (uint64_t)st.st_size < SIZE_MAX / 2 ?
			      (size_t)st.st_size + 65536 : 65536;
			p = realloc(buf, cap + 1);
			if (!p) {
				ret = -ENOMEM;
				goto out;
			}
			buf = p;
		}
		n = fread(buf + size, 1, cap - size, f);
		size += n;
		if (!n)
			break;
	}
	if (!buf)
		goto out;
	buf[size] = 0;
	nl = strchr(buf, '\n');
	if (!nl || sscanf(buf, "{\"kiln_checkpoint\": 1, \"seq\": %llu, "
			  "\"bytes\": %zu, \"crc32c\": \"%8x\"", &s, &bytes,
			  &crc) != 3)
		goto out;
	nl++;
	if ((size_t)(buf + size - nl) != bytes || crc32c(0, nl, bytes) != crc)
		goto out;
	*seq = s;
	if (doc) {
		/* The body moved to the front of what was read: no copy made. */
		memmove(buf, nl, bytes + 1);
		*doc = buf;
		buf = NULL;
		if (len)
			*len = bytes;
	}
	ret = 0;
out:
	free(buf);
	fclose(f);
	return ret;
}

int folder_write(struct folder *r, const char *name, const void *data,
		  size_t len)
{
	return newfile_write(r->dfd, name, data, len);
}

int folder_write_kmsg(struct folder *r, const char *kmsg)
{
	char rec[8192], *text = NULL, *masked;
	size_t len = 0;
	FILE *out;
	int fd, ret;

	fd = open(kmsg, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	out = open_memstream(&text, &len);
	if (!out) {
		close(fd);
		return -ENOMEM;
	}
	/* One record a read: "prio,seq,usec,flags;text\n", until EAGAIN. */
	for (;;) {
		unsigned long long usec;
		ssize_t n = read(fd, rec, sizeof(rec) - 1);
		char *semi;

		if (n < 0 && errno == EPIPE)
			continue;	/* overwritten while we read: go on */
		if (n <= 0)
			break;
		rec[n] = 0;
		semi = strchr(rec, ';');
		if (!semi || sscanf(rec, "%*u,%*u,%llu", &usec) != 1)
			continue;
		/* The text ends at its newline; " KEY=VALUE" lines follow. */
		fprintf(out, "[%5llu.%06llu] %.*s\n", usec / 1000000,
			usec % 1000000, (int)strcspn(semi + 1, "\n"), semi + 1);
	}
	close(fd);
	fclose(out);
	/* The kernel logs its command line, kiln.upload=... and all. */
	masked = secret_masked(text);
	ret = masked ? folder_write(r, "kmsg.log", masked, strlen(masked)) :
	      -ENOMEM;
	free(masked);
	free(text);
	return ret;
}

int folder_sync(struct folder *r)
{
	if (!r->samples)
		return 0;
	if (fflush(r->samples) || ferror(r->samples) ||
	    fsync(fileno(r->samples)) < 0) {
		r->samples_lost = 1;
		clearerr(r->samples);
		return errno ? -errno : -EIO;
	}
	return 0;
}

void folder_close(struct folder *r)
{
	if (r->samples) {
		folder_sync(r);
		fclose(r->samples);
	}
	r->samples = NULL;
	folder_release(r);
	if (r->dir && r->dfd >= 0)
		close(r->dfd);
	r->dfd = -1;
	free(r->dir);
	r->dir = NULL;
}

void folder_discard(struct folder *r)
{
	char *dir = r->dir ? strdup(r->dir) : NULL;
	int made = r->made;

	if (dir)
		unlinkat(r->dfd, "samples.csv", 0);
	folder_close(r);
	if (dir && made)
		rmdir(dir);
	free(dir);
}

int folder_run_path(const char *root, const char *machine, uint64_t run_id,
		    char *out, size_t len)
{
	char stamp[32];

	timing_fmt_utc(time(NULL), 1, stamp, sizeof(stamp));
	if (snprintf(out, len, "%s/kiln-results/%s/%s-%016llx", root, machine,
		     stamp, (unsigned long long)run_id) >= (int)len)
		return -ENAMETOOLONG;
	return 0;
}

int folder_progress_name(const char *kind, uint64_t seq, const char *ext,
			 char *out, size_t len)
{
	if (snprintf(out, len, "%s/%s-%06llu.%s", FOLDER_PROGRESS, kind,
		     (unsigned long long)seq, ext) >= (int)len)
		return -ENAMETOOLONG;
	return 0;
}

int folder_progress_seqs(const char *dir, uint64_t *seqs, int max)
{
	char path[PATH_MAX], end[8];
	unsigned long long s;
	struct dirent *e;
	int n = 0, i;
	DIR *d;

	if (max <= 0 || snprintf(path, sizeof(path), "%s/%s", dir,
				 FOLDER_PROGRESS) >= (int)sizeof(path))
		return 0;
	d = opendir(path);
	if (!d)
		return 0;
	while ((e = readdir(d))) {
		if (sscanf(e->d_name, "checkpoint-%llu.%7s", &s, end) != 2 ||
		    strcmp(end, "json") || e->d_name[11] < '0' ||
		    e->d_name[11] > '9')
			continue;
		/* Kept sorted, largest first: an insertion into max slots. */
		for (i = n < max ? n++ : max; i > 0 && seqs[i - 1] < s; i--)
			if (i < max)
				seqs[i] = seqs[i - 1];
		if (i < max)
			seqs[i] = s;
	}
	closedir(d);
	return n;
}

int folder_others(const char *dir, char *why, size_t len)
{
	int dfd = newfile_dir(dir), ret;

	if (dfd < 0)
		return 0;
	ret = newfile_others(dfd, dir, why, len);
	close(dfd);
	return ret;
}

int folder_write_in(const char *dir, const char *name, const void *data,
		    size_t len)
{
	return newfile_write_in(dir, name, data, len);
}
