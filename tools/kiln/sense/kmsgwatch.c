/* SPDX-License-Identifier: MIT */
/*
 * Description: the kernel's log watched for the disks under test (see
 * kmsgwatch.h): each disk's names read from sysfs, /dev/kmsg read without
 * blocking, each trouble line attributed to the disks it names and
 * counted.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sense/kmsgwatch.h"
#include "sense/sensors.h"
#include "base/sysfs.h"

void kmsgwatch_disk_init(struct kmsgwatch_disk *d)
{
	memset(d, 0, sizeof(*d));
	d->host = d->channel = d->target = d->lun = -1;
	d->ata = d->nvme = -1;
}

/* "hostN", "H:C:T:L", "ataN", "nvmeN" in a sysfs path. */
static void path_names(const char *path, struct kmsgwatch_disk *kd)
{
	const char *p = path;

	while ((p = strchr(p, '/'))) {
		int h, c, t, l, n, end = 0;

		p++;
		if (sscanf(p, "host%d%n", &n, &end) == 1 &&
		    (p[end] == '/' || !p[end]))
			kd->host = n;
		else if (sscanf(p, "%d:%d:%d:%d%n", &h, &c, &t, &l, &end) == 4
			 && (p[end] == '/' || !p[end])) {
			kd->host = h;
			kd->channel = c;
			kd->target = t;
			kd->lun = l;
		} else if (sscanf(p, "ata%d%n", &n, &end) == 1 &&
			   (p[end] == '/' || !p[end])) {
			kd->ata = n;
		} else if (sscanf(p, "nvme%d%n", &n, &end) == 1 &&
			   (p[end] == '/' || !p[end])) {
			kd->nvme = n;
		}
	}
}

/* mpt3sas_cm0, ioc0: how an HBA's driver names itself in its lines. */
static void hba_name(const char *sysroot, struct kmsgwatch_disk *kd)
{
	char dir[PATH_MAX], proc[32];
	long id;

	if (kd->host < 0)
		return;
	snprintf(dir, sizeof(dir), "%s/class/scsi_host/host%d", sysroot,
		 kd->host);
	sysfs_attr_tidy(dir, "proc_name", proc, sizeof(proc));
	id = sysfs_attr_long(dir, "unique_id", -1);
	if (id < 0)
		return;
	if (!strcmp(proc, "mpt3sas") || !strcmp(proc, "mpt2sas"))
		snprintf(kd->hba, sizeof(kd->hba), "%s_cm%ld", proc, id);
	else if (!strncmp(proc, "mpt", 3))
		snprintf(kd->hba, sizeof(kd->hba), "ioc%ld", id);
}

/* real: .../nvme-subsys0/nvme0n1; becomes .../nvme/nvme0, its first path. */
static void first_controller(char *real, size_t len)
{
	char dir[PATH_MAX], link[PATH_MAX * 2], **names;
	char *slash = strrchr(real, '/');
	int n, i, k;

	if (!slash)
		return;
	snprintf(dir, sizeof(dir), "%.*s", (int)(slash - real), real);
	names = dir_list(dir, &n);
	for (i = 0; i < n; i++) {
		for (k = 4; isdigit((unsigned char)names[i][k]); k++)
			;
		if (strncmp(names[i], "nvme", 4) || k == 4 || names[i][k])
			continue;
		snprintf(link, sizeof(link), "%s/%s", dir, names[i]);
		if (realpath(link, dir))
			snprintf(real, len, "%s", dir);
		break;
	}
	dir_list_free(names, n);
}

int kmsgwatch_disk_read(const char *sysroot, const char *name,
		       struct kmsgwatch_disk *kd, char *devpath, size_t len)
{
	char link[PATH_MAX], real[PATH_MAX], rroot[PATH_MAX], spd[32];
	size_t root = strlen(sysroot);

	kmsgwatch_disk_init(kd);
	snprintf(kd->name, sizeof(kd->name), "%s", name);
	devpath[0] = 0;
	/* class/block has partitions too; block/ is older, disks only. */
	snprintf(link, sizeof(link), "%s/class/block/%s", sysroot, name);
	if (!realpath(link, real)) {
		snprintf(link, sizeof(link), "%s/block/%s", sysroot, name);
		if (!realpath(link, real))
			return -ENOENT;
	}
	/*
	 * An NVMe namespace of several paths hangs from its subsystem, not
	 * from PCI: its first controller stands for it.
	 */
	if (!strstr(real, "/pci") && !strncmp(name, "nvme", 4))
		first_controller(real, sizeof(real));
	if (realpath(sysroot, rroot) && !strncmp(real, rroot, strlen(rroot)))
		root = strlen(rroot);
	snprintf(devpath, len, "%s", real + root);
	path_names(devpath, kd);
	sensors_pci_path(devpath, kd->pci, KMSGWATCH_PCI_PATH);
	hba_name(sysroot, kd);
	if (kd->ata >= 0) {
		snprintf(link, sizeof(link), "%s/class/ata_link/link%d",
			 sysroot, kd->ata);
		if (sysfs_attr(link, "sata_spd", spd, sizeof(spd)) > 0)
			kd->sata_gbps = strtod(spd, NULL);
	}
	return 0;
}

static int pci_on_path(const char *pci, const struct kmsgwatch_disk *d)
{
	int i;

	for (i = 0; pci[0] && i < KMSGWATCH_PCI_PATH; i++)
		if (!strcmp(pci, d->pci[i]))
			return 1;
	return 0;
}

int kmsgwatch_match(const struct kmsg_names *n,
		    const struct kmsgwatch_disk *d)
{
	if (n->block[0] && !strcmp(n->block, d->name))
		return 2;
	if (n->host >= 0 && n->host == d->host) {
		if (n->channel < 0)
			return 1;	/* the whole host adapter */
		if (n->channel == d->channel && n->target == d->target &&
		    (n->lun < 0 || n->lun == d->lun))
			return 2;
	}
	if (n->ata >= 0 && n->ata == d->ata)
		return 2;
	if (n->nvme >= 0 && n->nvme == d->nvme)
		return 2;
	if (pci_on_path(n->pci, d) || pci_on_path(n->pci2, d))
		return 1;
	if (n->hba[0] && !strcmp(n->hba, d->hba))
		return 1;
	return 0;
}

int kmsgwatch_init(struct kmsgwatch *w, const struct kmsgwatch_disk *disks,
		   int n)
{
	int i;

	memset(w, 0, sizeof(*w));
	w->fd = -1;
	w->next_seq = -1;
	kmsg_names_clear(&w->last);
	w->disks = disks;
	w->n = n < 0 ? 0 : n;
	w->tally = calloc((size_t)w->n + 1, sizeof(*w->tally));
	w->gbps = calloc((size_t)w->n + 1, sizeof(*w->gbps));
	if (!w->tally || !w->gbps) {
		kmsgwatch_free(w);
		return -ENOMEM;
	}
	for (i = 0; i < w->n; i++)
		w->gbps[i] = disks[i].sata_gbps;
	return 0;
}

void kmsgwatch_free(struct kmsgwatch *w)
{
	if (w->fd >= 0)
		close(w->fd);
	w->fd = -1;
	free(w->tally);
	free(w->gbps);
	w->tally = NULL;
	w->gbps = NULL;
}

/* As dmesg prints a line: for the kept lines and for w->log. */
static void as_dmesg(const struct kmsg_line *l, char *out, size_t len)
{
	if (l->usec >= 0)
		snprintf(out, len, "[%5" PRId64 ".%06" PRId64 "] %s",
			 l->usec / 1000000, l->usec % 1000000, l->text);
	else
		snprintf(out, len, "%s", l->text);
}

static void tally_add(struct kmsgwatch_tally *t, const struct kmsg_line *l,
		      int direct)
{
	t->count[l->kind]++;
	t->total++;
	t->direct += direct;
	if (t->nkept < KMSGWATCH_KEEP)
		as_dmesg(l, t->kept[t->nkept++], sizeof(t->kept[0]));
}

/*
 * "ata2: SATA link up 1.5 Gbps (SStatus 113 SControl 300)": after every
 * reset; a link that comes back slower than it was is a link that is
 * failing, though the kernel does not call it an error.
 */
static int slower_link(struct kmsgwatch *w, const struct kmsg_line *l)
{
	const char *up = strstr(l->text, "SATA link up ");
	int i, kind = KMSG_NONE;
	double gbps;

	if (!up || l->names.ata < 0 || (gbps = strtod(up + 13, NULL)) <= 0)
		return KMSG_NONE;
	for (i = 0; i < w->n; i++) {
		if (w->disks[i].ata != l->names.ata)
			continue;
		if (w->gbps[i] > 0 && gbps < w->gbps[i] - 0.01)
			kind = KMSG_LINK;
		else if (w->gbps[i] <= 0)
			w->gbps[i] = gbps;
	}
	return kind;
}

int kmsgwatch_line(struct kmsgwatch *w, const char *rec, size_t len)
{
	struct kmsg_line l;
	char out[KMSG_TEXT_MAX + 24];
	int i, best = 0, level;

	if (kmsg_parse(rec, len, &l) < 0)
		return KMSG_NONE;
	w->lines++;
	if (l.seq >= 0) {
		if (w->next_seq >= 0 && l.seq > w->next_seq)
			w->lost += (uint64_t)(l.seq - w->next_seq);
		w->next_seq = l.seq + 1;
	}
	/*
	 * dmesg prints the second line of a message ("         res 40/00:..
	 * Emask 0x4 (timeout)" after "ata2.00: cmd ...") on a line of its
	 * own, without the names: they are the line's before.
	 */
	if (l.text[0] == ' ' && l.names.block[0] == 0 && l.names.ata < 0 &&
	    l.names.host < 0 && l.names.nvme < 0 && !l.names.pci[0])
		l.names = w->last;
	else
		w->last = l.names;
	mce_add(&w->mce, l.text);
	if (w->log) {
		as_dmesg(&l, out, sizeof(out));
		fprintf(w->log, "%s\n", out);
	}
	if (l.kind == KMSG_NONE && w->tally)
		l.kind = slower_link(w, &l);
	if (l.kind == KMSG_NONE || !w->tally)
		return KMSG_NONE;
	/* A line naming a disk itself is that disk's, not its neighbours'. */
	for (i = 0; i < w->n; i++)
		if ((level = kmsgwatch_match(&l.names, &w->disks[i])) > best)
			best = level;
	for (i = 0; best && i < w->n; i++)
		if (kmsgwatch_match(&l.names, &w->disks[i]) == best)
			tally_add(&w->tally[i], &l, best == 2);
	if (!best)
		tally_add(&w->tally[w->n], &l, 0);
	return l.kind;
}

/*
 * Lines of buf: a record is a line and the " KEY=VALUE" lines after it.
 * Returns the bytes used: with more to come, an unfinished record waits.
 */
static size_t feed(struct kmsgwatch *w, const char *buf, size_t len,
		   int final)
{
	size_t at = 0;

	while (at < len) {
		size_t end = at;
		const char *nl;

		/* Dictionary lines without their record: nothing to read. */
		for (;;) {
			nl = memchr(buf + end, '\n', len - end);
			if (!nl) {
				if (!final)
					return at;
				end = len;
				break;
			}
			end = (size_t)(nl - buf) + 1;
			if (end < len && buf[end] == ' ')
				continue;
			if (end == len && !final)
				return at;
			break;
		}
		if (buf[at] != ' ')
			kmsgwatch_line(w, buf + at, end - at);
		at = end;
	}
	return at;
}

void kmsgwatch_text(struct kmsgwatch *w, const char *text, size_t len)
{
	feed(w, text, len, 1);
}

int kmsgwatch_open(struct kmsgwatch *w, const char *path)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	/* /dev/kmsg: SEEK_END is "after the last record", not a size. */
	if (lseek(fd, 0, SEEK_END) < 0) {
		int ret = -errno;

		close(fd);
		return ret;
	}
	if (w->fd >= 0)
		close(w->fd);
	w->fd = fd;
	return 0;
}

/*
 * Bounded, so that a kernel that floods its log cannot keep the sampling
 * loop here: what is left is read at the next interval.
 */
#define KMSG_READS_MAX 20000

int kmsgwatch_read(struct kmsgwatch *w)
{
	/* /dev/kmsg gives one record a read, and refuses a short buffer. */
	char buf[16384];
	size_t have = 0;
	struct stat st;
	int records, count = 0;

	if (w->fd < 0)
		return -EBADF;
	records = fstat(w->fd, &st) == 0 && S_ISCHR(st.st_mode);
	while (count < KMSG_READS_MAX) {
		ssize_t n = read(w->fd, buf + have, sizeof(buf) - 1 - have);
		size_t used;

		if (n < 0 && errno == EINTR)
			continue;
		/* EPIPE: overwritten records; the gap in seq counts them. */
		if (n < 0 && errno == EPIPE)
			continue;
		if (n < 0 && errno != EAGAIN)
			return -errno;
		if (n <= 0)
			break;
		count++;
		have += (size_t)n;
		used = feed(w, buf, have, records);
		/* A line longer than the buffer: read as it is. */
		if (!used && have == sizeof(buf) - 1)
			used = feed(w, buf, have, 1);
		memmove(buf, buf + used, have - used);
		have -= used;
	}
	/*
	 * A file (a log being written, in tests) may end inside a line: its
	 * whole lines are read, the rest again next time.
	 */
	if (have) {
		const char *nl = memrchr(buf, '\n', have);
		size_t whole = nl ? (size_t)(nl - buf) + 1 : 0;

		feed(w, buf, whole, 1);
		if (lseek(w->fd, -(off_t)(have - whole), SEEK_CUR) < 0)
			feed(w, buf + whole, have - whole, 1);
	}
	return count;
}
