/* SPDX-License-Identifier: MIT */
/*
 * Description: an NVMe controller's logs read with the kernel's admin
 * passthrough (NVME_IOCTL_ADMIN_CMD on /dev/nvmeN; see nvmelog.h), each
 * controller in a thread of its own under a deadline, and the telemetry
 * log of a drive that failed. No nvme-cli: four Get Log Pages and an
 * Identify are a few lines here, static under musl, and the bytes come
 * to kiln whole (docs/design.md says why).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/deadline.h"
#include "base/nvme_admin.h"
#include "base/timing.h"
#include "sense/nvmelog.h"

#define OP_GET_LOG_PAGE 0x02
#define OP_IDENTIFY 0x06
#define LOG_ERRORS 0x01
#define LOG_HEALTH 0x02
#define LOG_TELEMETRY_HOST 0x07
#define LOG_OCP_SMART 0xc0
#define NSID_ALL 0xffffffffu
/* The driver aborts a command still out after this; kiln's own bound
 * is the caller's deadline, as a driver may not keep its word. */
#define CMD_TIMEOUT_MS 10000
/* A telemetry log is read this many bytes a command. */
#define TELEMETRY_CHUNK (256 << 10)

/* An admin command: 0, -errno, or an NVMe status (> 0). */
static int admin(int fd, uint8_t op, uint32_t nsid, uint32_t cdw10,
		 uint32_t cdw11, uint64_t offset, void *buf, uint32_t len)
{
	struct nvme_admin a = { .opcode = op, .nsid = nsid, .cdw10 = cdw10,
				.cdw11 = cdw11, .cdw12 = (uint32_t)offset,
				.cdw13 = (uint32_t)(offset >> 32),
				.buf = buf, .len = len,
				.timeout_ms = CMD_TIMEOUT_MS };

	return nvme_admin(fd, &a);
}

/* Get Log Page lid, len bytes (a multiple of 4) from offset. */
static int get_log(int fd, uint8_t lid, uint8_t lsp, uint64_t offset,
		   void *buf, uint32_t len)
{
	uint32_t numd = len / 4 - 1;

	return admin(fd, OP_GET_LOG_PAGE, NSID_ALL, lid | (uint32_t)lsp << 8 |
		     (numd & 0xffff) << 16, numd >> 16, offset, buf, len);
}

static const char *said(int ret, char *buf, size_t len)
{
	if (ret < 0)
		return strerror(-ret);
	snprintf(buf, len, "NVMe status 0x%x", ret);
	return buf;
}

int nvmelog_controller(const char *sysfs, const char *name, char *out,
		       size_t len)
{
	char link[PATH_MAX], to[PATH_MAX];
	const char *base;
	ssize_t n;

	snprintf(link, sizeof(link), "%s/block/%s/device", sysfs, name);
	n = readlink(link, to, sizeof(to) - 1);
	if (strncmp(name, "nvme", 4) || n <= 0)
		return -ENOENT;
	to[n] = 0;
	base = strrchr(to, '/') ? strrchr(to, '/') + 1 : to;
	/* nvme0, never nvme-subsys0: a controller of its own. */
	if (strncmp(base, "nvme", 4) || base[4] < '0' || base[4] > '9')
		return -ENOENT;
	snprintf(out, len, "/dev/%s", base);
	return 0;
}

/* Reads one controller's logs into l (l->dev says which). */
static void read_one(struct nvmelog *l)
{
	uint8_t *b = malloc(4096 > NVMELOG_ENTRY * 256 ? 4096 :
			    NVMELOG_ENTRY * 256);
	char st[32];
	int fd, ret, n;

	l->asked = 1;
	fd = open(l->dev, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || !b) {
		snprintf(l->why, sizeof(l->why), "cannot open %s: %s", l->dev,
			 strerror(b ? errno : ENOMEM));
		goto out;
	}
	memset(b, 0, 4096);
	ret = admin(fd, OP_IDENTIFY, 0, 1, 0, 0, b, 4096);
	if (ret || nvmelog_parse_ident(b, 4096, &l->id)) {
		snprintf(l->why, sizeof(l->why), "Identify Controller: %s",
			 said(ret, st, sizeof(st)));
		goto out;
	}
	ret = get_log(fd, LOG_HEALTH, 0, 0, b, NVMELOG_PAGE);
	if (ret || nvmelog_parse_health(b, NVMELOG_PAGE, &l->h))
		snprintf(l->why, sizeof(l->why), "SMART / Health log: %s",
			 said(ret, st, sizeof(st)));
	/* The whole ring (at most 256 entries): its newest may be anywhere. */
	n = l->id.error_entries;
	memset(b, 0, (size_t)n * NVMELOG_ENTRY);
	ret = get_log(fd, LOG_ERRORS, 0, 0, b, (uint32_t)n * NVMELOG_ENTRY);
	if (!ret)
		l->nerrors = nvmelog_parse_errors(b, (size_t)n * NVMELOG_ENTRY,
						  l->errors, NVMELOG_ERRORS);
	else if (!l->why[0])
		snprintf(l->why, sizeof(l->why), "Error Information log: %s",
			 said(ret, st, sizeof(st)));
	/* Most drives have no C0h, or one of another meaning: not an error. */
	memset(b, 0, NVMELOG_PAGE);
	if (!get_log(fd, LOG_OCP_SMART, 0, 0, b, NVMELOG_PAGE))
		nvmelog_parse_ocp(b, NVMELOG_PAGE, &l->ocp);
out:
	if (fd >= 0)
		close(fd);
	free(b);
}

static void read_item(void *item)
{
	read_one(*(struct nvmelog **)item);
}

void nvmelog_read_many(const char *const *devs, int n, uint64_t timeout_ns,
		       struct nvmelog *out)
{
	struct nvmelog **jobs = calloc((size_t)n + 1, sizeof(*jobs));
	int *done = calloc((size_t)n + 1, sizeof(*done));
	int *which = calloc((size_t)n + 1, sizeof(*which));
	int i, k = 0, left = 0, ret;

	for (i = 0; i < n; i++)
		nvmelog_init(&out[i]);
	for (i = 0; jobs && done && which && i < n; i++) {
		if (!devs[i] || !(jobs[k] = malloc(sizeof(**jobs))))
			continue;
		nvmelog_init(jobs[k]);
		snprintf(jobs[k]->dev, sizeof(jobs[k]->dev), "%s", devs[i]);
		which[k++] = i;
	}
	if (!k)
		goto out;
	ret = deadline_each(read_item, jobs, sizeof(*jobs), k, timeout_ns,
			    done);
	for (i = 0; i < k; i++) {
		struct nvmelog *o = &out[which[i]];

		if (done[i]) {
			*o = *jobs[i];
			free(jobs[i]);
			continue;
		}
		/* Its thread may still be in the ioctl: the job is its own. */
		left++;
		o->asked = 1;
		snprintf(o->dev, sizeof(o->dev), "%s", devs[which[i]]);
		snprintf(o->why, sizeof(o->why), ret ? "could not start: %s" :
			 "%s gave no answer in %llu s", ret ? strerror(-ret) :
			 devs[which[i]],
			 (unsigned long long)(timeout_ns / TIMING_SEC));
	}
out:
	if (!left)
		free(jobs);
	free(done);
	free(which);
}

/* One telemetry reading: its thread's own, left to it if it hangs. */
struct telemetry {
	char dev[64];
	size_t max;
	uint8_t *buf;
	size_t len;
	int err;
	char why[160];
};

static void telemetry_one(void *item)
{
	struct telemetry *t = *(struct telemetry **)item;
	char st[32];
	size_t size, off;
	int fd, ret;

	fd = open(t->dev, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		t->err = -errno;
		snprintf(t->why, sizeof(t->why), "cannot open %s: %s", t->dev,
			 strerror(errno));
		return;
	}
	t->buf = calloc(1, NVMELOG_PAGE);
	/* LSP bit 0, Create Telemetry Host-Initiated Data: a new snapshot. */
	ret = t->buf ? get_log(fd, LOG_TELEMETRY_HOST, 1, 0, t->buf,
			       NVMELOG_PAGE) : -ENOMEM;
	if (ret)
		goto fail;
	size = nvmelog_telemetry_bytes(t->buf, NVMELOG_PAGE, t->max);
	free(t->buf);
	if (!(t->buf = malloc(size))) {
		ret = -ENOMEM;
		goto fail;
	}
	/* The snapshot taken above is read without asking a new one. */
	for (off = 0; off < size; off += TELEMETRY_CHUNK) {
		uint32_t n = size - off < TELEMETRY_CHUNK ?
			     (uint32_t)(size - off) : TELEMETRY_CHUNK;

		ret = get_log(fd, LOG_TELEMETRY_HOST, 0, off, t->buf + off, n);
		if (ret)
			goto fail;
		t->len = off + n;
	}
	close(fd);
	return;
fail:
	t->err = ret < 0 ? ret : -EIO;
	snprintf(t->why, sizeof(t->why), "telemetry log at byte %zu: %s",
		 t->len, said(ret, st, sizeof(st)));
	close(fd);
}

int nvmelog_telemetry(const char *dev, size_t max, uint64_t timeout_ns,
		      void **buf, size_t *len, char *why, size_t wlen)
{
	struct telemetry *t = calloc(1, sizeof(*t));
	struct telemetry **item = malloc(sizeof(*item));
	int done = 0, ret;

	*buf = NULL;
	*len = 0;
	if (!t || !item || max < NVMELOG_PAGE) {
		free(t);
		free(item);
		snprintf(why, wlen, "out of memory");
		return -ENOMEM;
	}
	snprintf(t->dev, sizeof(t->dev), "%s", dev);
	t->max = max;
	*item = t;
	ret = deadline_each(telemetry_one, item, sizeof(*item), 1,
			    timeout_ns, &done);
	if (!done) {
		/* Left to its thread, with its buffer: never freed here. */
		snprintf(why, wlen, ret ? "could not start: %s" :
			 "%s gave no telemetry log in %llu s",
			 ret ? strerror(-ret) : dev,
			 (unsigned long long)(timeout_ns / TIMING_SEC));
		return ret ? ret : -ETIMEDOUT;
	}
	ret = t->err;
	if (ret) {
		snprintf(why, wlen, "%s", t->why);
		free(t->buf);
	} else {
		*buf = t->buf;
		*len = t->len;
	}
	free(t);
	free(item);
	return ret;
}
