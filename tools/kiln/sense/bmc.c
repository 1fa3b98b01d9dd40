/* SPDX-License-Identifier: MIT */
/*
 * Description: the BMC read in-band through ipmitool (see bmc.h): its
 * event log whole (`sel writeraw`, the raw records, parsed by sel.c), Get
 * SEL Info (`raw 0x0a 0x40`) for the erase time and the overflow flag,
 * and its LAN address (`lan print`), before and after the burn.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/kiln.h"
#include "base/subproc.h"
#include "sense/bmc.h"

static const char *const states[BMC_STATES] = { "off", "absent", "unread",
						 "read" };

const char *bmc_state_name(int state)
{
	return state >= 0 && state < BMC_STATES ? states[state] : NULL;
}

int bmc_state_of(const char *name)
{
	int i;

	for (i = 0; name && i < BMC_STATES; i++)
		if (!strcmp(name, states[i]))
			return i;
	return -1;
}

int bmc_present(const char *devroot)
{
	/* Where ipmitool's open interface looks, as udev or devtmpfs name it. */
	static const char *const devs[] = { "ipmi0", "ipmi/0", "ipmidev/0" };
	char path[4096];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(devs); i++) {
		snprintf(path, sizeof(path), "%s/%s", devroot, devs[i]);
		if (access(path, F_OK) == 0)
			return 1;
	}
	return 0;
}

/*
 * ipmitool with args: 0 with its output in *out (the caller frees), or
 * -errno with why said.
 */
static int ipmitool(char *const argv[], char **out, char *why, size_t len)
{
	struct subproc_job job = { .argv = argv, .err = SUBPROC_STDERR_PIPE };
	int ret;

	*out = NULL;
	if (access(BMC_IPMITOOL, X_OK) < 0) {
		ret = -errno;
		snprintf(why, len, "%s: %s", BMC_IPMITOOL, strerror(-ret));
		return ret;
	}
	ret = subproc_many(&job, 1, BMC_TIMEOUT_MS);
	if (ret == -ETIMEDOUT) {
		snprintf(why, len, "ipmitool %s %s did not answer in %d s",
			 argv[1], argv[2], BMC_TIMEOUT_MS / 1000);
		free(job.out);
		return ret;
	}
	if (ret || !job.done || job.status == -1 || !WIFEXITED(job.status) ||
	    WEXITSTATUS(job.status)) {
		/* Its last words say why (no such device, a BMC busy). */
		char *nl, *text = job.out ? job.out : "";

		while ((nl = strrchr(text, '\n')) && !nl[1])
			*nl = 0;
		nl = strrchr(text, '\n');
		snprintf(why, len, "ipmitool %s %s failed: %s", argv[1],
			 argv[2], *text ? (nl ? nl + 1 : text) : "no word why");
		free(job.out);
		return -EIO;
	}
	*out = job.out;
	return 0;
}

/* The file writeraw left; none is an empty log (it writes none then). */
static int read_raw(const char *path, struct sel_log *log, char *why,
		    size_t len)
{
	char *buf = NULL;
	size_t n = 0, cap = 0;
	FILE *f = fopen(path, "rb");
	int ret;

	if (!f)
		return errno == ENOENT ? sel_log_parse(log, "", 0) : -errno;
	for (;;) {
		size_t got;

		if (n == cap) {
			char *more = realloc(buf, cap ? cap * 2 : 4096);

			if (!more) {
				fclose(f);
				free(buf);
				return -ENOMEM;
			}
			buf = more;
			cap = cap ? cap * 2 : 4096;
		}
		got = fread(buf + n, 1, cap - n, f);
		if (!got)
			break;
		n += got;
	}
	fclose(f);
	ret = sel_log_parse(log, buf, n);
	if (ret == -EINVAL)
		snprintf(why, len, "ipmitool sel writeraw left %zu bytes, not "
			 "whole %d-byte records", n, SEL_RECORD);
	free(buf);
	return ret;
}

int bmc_read_log(struct sel_log *log, char *why, size_t len)
{
	char dir[] = "/tmp/kiln-sel-XXXXXX", path[sizeof(dir) + 16];
	char *info_argv[] = { BMC_IPMITOOL, "raw", "0x0a", "0x40", NULL };
	char *sel_argv[] = { BMC_IPMITOOL, "sel", "writeraw", path, NULL };
	struct sel_info info;
	char *out;
	int ret;

	memset(log, 0, sizeof(*log));
	why[0] = 0;
	/* A folder of its own: ipmitool writes to a name, not an fd. */
	if (!mkdtemp(dir)) {
		ret = -errno;
		snprintf(why, len, "cannot make a folder in /tmp: %s",
			 strerror(-ret));
		return ret;
	}
	snprintf(path, sizeof(path), "%s/sel.raw", dir);
	ret = ipmitool(sel_argv, &out, why, len);
	free(out);
	if (!ret)
		ret = read_raw(path, log, why, len);
	if (ret && !why[0])
		snprintf(why, len, "cannot read %s: %s", path, strerror(-ret));
	unlink(path);
	rmdir(dir);
	if (ret)
		return ret;
	/* Without Get SEL Info the entries still tell; it is a help. */
	if (!ipmitool(info_argv, &out, why, len) &&
	    !sel_info_parse(out, &info)) {
		log->info = info;
		log->have_info = 1;
	}
	free(out);
	why[0] = 0;
	return 0;
}

/* The value of "NAME   : value" lines in text, cut at the line's end. */
static void field(const char *text, const char *name, char *out, size_t len)
{
	size_t n = strlen(name);
	const char *p;

	out[0] = 0;
	for (p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		const char *colon = p + n;
		size_t vlen;

		if (strncmp(p, name, n))
			continue;
		/* "IP Address Source" is not "IP Address". */
		while (*colon == ' ')
			colon++;
		if (*colon != ':')
			continue;
		colon++;
		while (*colon == ' ')
			colon++;
		vlen = strcspn(colon, "\r\n");
		while (vlen && colon[vlen - 1] == ' ')
			vlen--;
		snprintf(out, len, "%.*s", (int)vlen, colon);
		return;
	}
}

void bmc_lan_parse(const char *text, char *addr, size_t alen, char *mac,
		   size_t mlen)
{
	field(text, "IP Address", addr, alen);
	field(text, "MAC Address", mac, mlen);
	/* A BMC with no address (or MAC) set says zeroes: none known. */
	if (!strcmp(addr, "0.0.0.0"))
		addr[0] = 0;
	if (!strcmp(mac, "00:00:00:00:00:00"))
		mac[0] = 0;
}

void bmc_start(struct bmc *b, const char *devroot)
{
	char *lan_argv[] = { BMC_IPMITOOL, "lan", "print", NULL };
	char why[200], *out;

	memset(b, 0, sizeof(*b));
	if (!bmc_present(devroot)) {
		b->state = BMC_ABSENT;
		return;
	}
	if (bmc_read_log(&b->start, b->problem, sizeof(b->problem))) {
		b->state = BMC_UNREAD;
		return;
	}
	b->state = BMC_READ;
	b->start_entries = (unsigned)b->start.n;
	if (!ipmitool(lan_argv, &out, why, sizeof(why)))
		bmc_lan_parse(out, b->address, sizeof(b->address), b->mac,
			      sizeof(b->mac));
	free(out);
}

void bmc_compare(struct bmc *b, const struct sel_log *after)
{
	int *idx = NULL, n, i, pass;

	b->end_read = 1;
	b->end_entries = (unsigned)after->n;
	b->nkept = 0;
	if (after->n)
		idx = calloc((size_t)after->n, sizeof(*idx));
	n = sel_added(&b->start, after, idx, idx ? after->n : 0, &b->change);
	b->added = n;
	/* Critical ones first, so a long log of facts hides none. */
	for (pass = 0; pass < 2 && idx; pass++)
		for (i = 0; i < n && b->nkept < BMC_KEPT; i++) {
			const struct sel_entry *e = &after->e[idx[i]];

			if ((sel_class(e) != SEL_FACT) == !pass)
				b->kept[b->nkept++] = *e;
		}
	free(idx);
}

void bmc_end(struct bmc *b)
{
	struct sel_log after;

	if (b->state != BMC_READ)
		return;
	if (bmc_read_log(&after, b->problem, sizeof(b->problem)))
		return;
	bmc_compare(b, &after);
	sel_log_free(&after);
}

void bmc_free(struct bmc *b)
{
	sel_log_free(&b->start);
}
