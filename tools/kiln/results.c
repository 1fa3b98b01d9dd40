/* SPDX-License-Identifier: MIT */
/*
 * Description: the files of a run folder and how they survive power cuts
 * (see results.h). A checkpoint file is one header line, then the result
 * document:
 *
 *   {"kiln_checkpoint": 1, "seq": 12, "bytes": 5120, "crc32c": "1a2b3c4d",
 *   "result": { ... }}
 *
 * where bytes and crc32c cover everything after the first newline. The
 * file is valid JSON as a whole, and checkable with a byte count and a CRC.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "crc32c.h"
#include "results.h"

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

static int write_all(int fd, const void *data, size_t len)
{
	const char *p = data;

	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

static int path_in(const struct results *r, const char *name, char *out,
		   size_t len)
{
	if (snprintf(out, len, "%s/%s", r->dir, name) >= (int)len)
		return -ENAMETOOLONG;
	return 0;
}

int results_open(struct results *r, const char *dir, char *err, size_t len)
{
	char path[PATH_MAX];
	int ret;

	memset(r, 0, sizeof(*r));
	ret = mkdirs(dir);
	if (ret) {
		snprintf(err, len, "cannot make %s: %s", dir, strerror(-ret));
		return ret;
	}
	r->dir = strdup(dir);
	if (!r->dir || path_in(r, "samples.csv", path, sizeof(path))) {
		snprintf(err, len, "cannot use %s", dir);
		return -ENOMEM;
	}
	r->samples = fopen(path, "we");
	if (!r->samples) {
		ret = -errno;
		snprintf(err, len, "cannot write %s: %s", path, strerror(errno));
		return ret;
	}
	fputs("elapsed_s,target,phase,pass,write_bytes,read_bytes\n", r->samples);
	return 0;
}

static int write_synced(const char *path, const char *head, size_t hlen,
			const void *data, size_t len)
{
	int fd, ret;

	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return -errno;
	ret = write_all(fd, head, hlen);
	if (!ret)
		ret = write_all(fd, data, len);
	if (!ret && fsync(fd) < 0)
		ret = -errno;
	if (close(fd) < 0 && !ret)
		ret = -errno;
	return ret;
}

int results_checkpoint(struct results *r, const char *doc, size_t len)
{
	static const char pre[] = "\"result\": ", post[] = "}\n";
	size_t blen = sizeof(pre) - 1 + len + sizeof(post) - 1;
	char path[PATH_MAX], head[160], *body;
	int n, ret;

	r->seq++;
	ret = path_in(r, r->seq % 2 ? "checkpoint-a.json" : "checkpoint-b.json",
		      path, sizeof(path));
	if (ret)
		return ret;
	body = malloc(blen);
	if (!body)
		return -ENOMEM;
	memcpy(body, pre, sizeof(pre) - 1);
	memcpy(body + sizeof(pre) - 1, doc, len);
	memcpy(body + blen - 2, post, 2);
	n = snprintf(head, sizeof(head), "{\"kiln_checkpoint\": 1, \"seq\": "
		     "%llu, \"bytes\": %zu, \"crc32c\": \"%08x\",\n",
		     (unsigned long long)r->seq, blen, crc32c(0, body, blen));
	ret = write_synced(path, head, (size_t)n, body, blen);
	free(body);
	return ret;
}

int results_read_checkpoint(const char *path, uint64_t *seq, char **doc,
			    size_t *len)
{
	unsigned long long s;
	size_t bytes, size = 0, cap = 0;
	unsigned crc;
	char *buf = NULL, *nl;
	FILE *f = fopen(path, "re");
	int ret = -EBADMSG;

	if (!f)
		return -errno;
	for (;;) {
		char *p;
		size_t n;

		if (size + 4096 > cap) {
			cap = cap ? cap * 2 : 65536;
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
		*doc = strdup(nl);
		if (len)
			*len = bytes;
	}
	ret = 0;
out:
	free(buf);
	fclose(f);
	return ret;
}

int results_write(struct results *r, const char *name, const void *data,
		  size_t len)
{
	char path[PATH_MAX], tmp[PATH_MAX + 8];
	int ret;

	ret = path_in(r, name, path, sizeof(path));
	if (ret)
		return ret;
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	ret = write_synced(tmp, "", 0, data, len);
	if (!ret && rename(tmp, path) < 0)
		ret = -errno;
	return ret;
}

int results_write_kmsg(struct results *r, const char *kmsg)
{
	char rec[8192], *text = NULL;
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
	ret = results_write(r, "kmsg.log", text, len);
	free(text);
	return ret;
}

int results_sync(struct results *r)
{
	if (!r->samples)
		return 0;
	if (fflush(r->samples) || fsync(fileno(r->samples)) < 0)
		return -errno;
	return 0;
}

void results_close(struct results *r)
{
	if (r->samples) {
		results_sync(r);
		fclose(r->samples);
	}
	r->samples = NULL;
	free(r->dir);
	r->dir = NULL;
}
