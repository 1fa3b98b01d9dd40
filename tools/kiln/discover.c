/* SPDX-License-Identifier: MIT */
/*
 * Description: the machine, its storage controllers and disks, from sysfs,
 * and the safety class of each disk (see discover.h).
 *
 * Sysfs is read with plain open/read under a root that tests point at
 * fixtures captured from real kernels (tests/fixtures/sysfs). Every read
 * may fail: a missing, unreadable or odd attribute leaves its field empty
 * or unknown and never stops discovery.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "discover.h"
#include "json.h"
#include "pciids.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

int discover_attr(const char *dir, const char *name, char *buf, size_t len)
{
	char path[PATH_MAX];

	if (len)
		buf[0] = 0;
	if (snprintf(path, sizeof(path), "%s/%s", dir, name) >= (int)sizeof(path))
		return -ENAMETOOLONG;
	return discover_read(path, buf, len);
}

int discover_read(const char *path, char *buf, size_t len)
{
	ssize_t n;
	int fd;

	if (!len)
		return -EINVAL;
	buf[0] = 0;
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -errno;
	buf[n] = 0;
	n = (ssize_t)strlen(buf);
	while (n > 0 && isspace((unsigned char)buf[n - 1]))
		buf[--n] = 0;
	return (int)n;
}

/* Keeps printable ASCII, turns runs of blanks into one space, trims. */
static void tidy(char *s)
{
	char *w = s, *r = s;
	int blank = 1;

	for (; *r; r++) {
		unsigned char c = (unsigned char)*r;

		if (c <= ' ' || c >= 0x7f) {
			if (!blank)
				*w++ = ' ';
			blank = 1;
			continue;
		}
		*w++ = (char)c;
		blank = 0;
	}
	while (w > s && w[-1] == ' ')
		w--;
	*w = 0;
}

static int attr_tidy(const char *dir, const char *name, char *buf, size_t len)
{
	int n = discover_attr(dir, name, buf, len);

	tidy(buf);
	return n;
}

static long attr_long(const char *dir, const char *name, long unknown)
{
	char buf[64], *end;
	long v;

	if (discover_attr(dir, name, buf, sizeof(buf)) <= 0)
		return unknown;
	errno = 0;
	v = strtol(buf, &end, 0);
	return errno || end == buf ? unknown : v;
}

static int exists(const char *dir, const char *name)
{
	char path[PATH_MAX];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return lstat(path, &st) == 0;
}

/* The last component of a symlink's target: a driver's name. */
static void link_base(const char *dir, const char *name, char *out, size_t len)
{
	char path[PATH_MAX], target[PATH_MAX];
	const char *slash;
	ssize_t n;

	out[0] = 0;
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	n = readlink(path, target, sizeof(target) - 1);
	if (n <= 0)
		return;
	target[n] = 0;
	slash = strrchr(target, '/');
	snprintf(out, len, "%s", slash ? slash + 1 : target);
}

/* SCSI unit serial number page 0x80: 4 header bytes, then the serial. */
static void vpd_serial(const char *dev, char *out, size_t len)
{
	unsigned char page[256];
	char path[PATH_MAX];
	ssize_t n;
	size_t plen;
	int fd;

	if (snprintf(path, sizeof(path), "%s/vpd_pg80", dev) >= (int)sizeof(path))
		return;
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return;
	n = read(fd, page, sizeof(page));
	close(fd);
	if (n < 4 || page[1] != 0x80)
		return;
	plen = (size_t)page[2] << 8 | page[3];
	if (plen > (size_t)n - 4)
		plen = (size_t)n - 4;
	if (plen >= len)
		plen = len - 1;
	memcpy(out, page + 4, plen);
	out[plen] = 0;
	tidy(out);
}

/* usb-storage has no VPD pages: the serial is the USB device's. */
static void usb_serial(const char *dev, char *out, size_t len)
{
	char path[PATH_MAX], *slash;

	if (!realpath(dev, path) || !strstr(path, "/usb"))
		return;
	while ((slash = strrchr(path, '/')) && slash > path) {
		*slash = 0;
		if (exists(path, "idVendor")) {
			attr_tidy(path, "serial", out, len);
			return;
		}
	}
}

static void whole_disk(const char *sysroot, const char *dir, uint64_t size,
		       struct discover_id *id)
{
	char dev[PATH_MAX + 8], real[PATH_MAX], buf[64];

	snprintf(dev, sizeof(dev), "%s/device", dir);
	if (discover_attr(dir, "queue/rotational", buf, sizeof(buf)) > 0)
		id->rotational = buf[0] == '1';
	attr_tidy(dev, "model", id->model, sizeof(id->model));

	if (discover_attr(dir, "loop/backing_file", id->backing,
			  sizeof(id->backing)) > 0) {
		snprintf(id->identity, sizeof(id->identity), "loop:%s",
			 id->backing);
		return;
	}
	if (attr_tidy(dir, "wwid", id->wwid, sizeof(id->wwid)) <= 0)
		attr_tidy(dev, "wwid", id->wwid, sizeof(id->wwid));
	if (attr_tidy(dir, "serial", id->serial, sizeof(id->serial)) <= 0 &&
	    attr_tidy(dev, "serial", id->serial, sizeof(id->serial)) <= 0)
		vpd_serial(dev, id->serial, sizeof(id->serial));
	if (!id->serial[0])
		usb_serial(dev, id->serial, sizeof(id->serial));

	if (id->wwid[0]) {
		snprintf(id->identity, sizeof(id->identity), "wwn:%s", id->wwid);
	} else if (id->serial[0]) {
		/* An NVMe serial is the controller's: add the namespace. */
		long nsid = attr_long(dir, "nsid", -1);

		if (nsid >= 0)
			snprintf(id->identity, sizeof(id->identity),
				 "serial:%s:%s:ns%ld", id->model, id->serial, nsid);
		else
			snprintf(id->identity, sizeof(id->identity),
				 "serial:%s:%s", id->model, id->serial);
	} else if (realpath(dev, real)) {
		size_t skip = strncmp(real, sysroot, strlen(sysroot)) ? 0 :
			      strlen(sysroot);

		snprintf(id->identity, sizeof(id->identity), "path:%s:%llu:%s",
			 id->model, (unsigned long long)size, real + skip);
	} else {
		snprintf(id->identity, sizeof(id->identity), "name:%s:%llu",
			 id->name, (unsigned long long)size);
	}
}

int discover_identity(const char *sysroot, unsigned major, unsigned minor,
		      uint64_t size, struct discover_id *id)
{
	char dir[PATH_MAX], real[PATH_MAX], buf[64], *slash;
	unsigned pmaj, pmin;

	memset(id, 0, sizeof(*id));
	id->rotational = -1;
	snprintf(dir, sizeof(dir), "%s/dev/block/%u:%u", sysroot, major, minor);
	if (!realpath(dir, real))
		return -errno;
	slash = strrchr(real, '/');
	snprintf(id->name, sizeof(id->name), "%.63s", slash ? slash + 1 : real);

	if (discover_attr(dir, "partition", buf, sizeof(buf)) > 0) {
		struct discover_id disk;
		char parent[PATH_MAX + 4];

		id->partition = atoi(buf);
		snprintf(parent, sizeof(parent), "%s/..", real);
		if (discover_attr(parent, "dev", buf, sizeof(buf)) <= 0 ||
		    sscanf(buf, "%u:%u", &pmaj, &pmin) != 2)
			return -ENOENT;
		discover_identity(sysroot, pmaj, pmin, 0, &disk);
		snprintf(id->identity, sizeof(id->identity), "%.4000s:part%d",
			 disk.identity, id->partition);
		memcpy(id->model, disk.model, sizeof(id->model));
		memcpy(id->serial, disk.serial, sizeof(id->serial));
		memcpy(id->wwid, disk.wwid, sizeof(id->wwid));
		id->rotational = disk.rotational;
		return 0;
	}
	whole_disk(sysroot, real, size, id);
	return 0;
}

void discover_firmware(const char *sysroot, struct discover_firmware *fw)
{
	char dir[PATH_MAX], buf[128], *open_, *close_;
	unsigned char var[8];
	ssize_t n;
	int fd;

	memset(fw, 0, sizeof(*fw));
	fw->secure_boot = -1;
	snprintf(dir, sizeof(dir), "%s/firmware/efi", sysroot);
	fw->efi = access(dir, F_OK) == 0;
	if (!fw->efi) {
		fw->secure_boot = 0;	/* BIOS has none */
	} else {
		/* The EFI global variable: 4 bytes of attributes, then 0 or 1. */
		snprintf(dir, sizeof(dir), "%s/firmware/efi/efivars/"
			 "SecureBoot-8be4df61-93ca-11d2-aa0d-00e098032b8c", sysroot);
		fd = open(dir, O_RDONLY | O_CLOEXEC);
		if (fd >= 0) {
			n = read(fd, var, sizeof(var));
			if (n == 5)
				fw->secure_boot = var[4] == 1;
			close(fd);
		}
	}
	/* "none [integrity] confidentiality": the bracketed one holds. */
	snprintf(dir, sizeof(dir), "%s/kernel/security", sysroot);
	if (discover_attr(dir, "lockdown", buf, sizeof(buf)) > 0 &&
	    (open_ = strchr(buf, '[')) && (close_ = strchr(open_, ']'))) {
		*close_ = 0;
		snprintf(fw->lockdown, sizeof(fw->lockdown), "%.31s", open_ + 1);
	}
}

char *discover_firmware_text(const struct discover_firmware *fw, char *buf,
			     size_t len)
{
	snprintf(buf, len, "%s, Secure Boot %s%s%s%s", fw->efi ? "UEFI" : "BIOS",
		 fw->secure_boot == 1 ? "on" : fw->secure_boot == 0 ? "off" :
		 "unknown (efivarfs not mounted)",
		 fw->lockdown[0] ? ", kernel lockdown " : "", fw->lockdown,
		 fw->lockdown[0] && strcmp(fw->lockdown, "none") ?
		 " (unsigned modules, /dev/mem, kexec and hibernation closed)" : "");
	return buf;
}

int discover_serial_real(const char *s)
{
	static const char *const placeholders[] = {
		"to be filled by o.e.m.", "default string", "system serial number",
		"not specified", "not applicable", "none", "n/a", "na", "oem",
		"0123456789", "chassis serial number", "serial number",
		"invalid", "unknown", "empty", "xxxxxxxxxx",
	};
	char low[128];
	size_t i, n = strlen(s);
	int same = 1;

	if (!n || n >= sizeof(low))
		return n >= sizeof(low);
	for (i = 0; i <= n; i++)
		low[i] = (char)tolower((unsigned char)s[i]);
	for (i = 0; i < ARRAY_SIZE(placeholders); i++)
		if (!strcmp(low, placeholders[i]))
			return 0;
	/* "0000000", "       ", "FFFFFFFF": one character repeated. */
	for (i = 1; i < n; i++)
		if (s[i] != s[0])
			same = 0;
	return !same;
}

/* Only A-Za-z0-9._- in names of folders: FAT takes them all. */
static void safe_name(char *s)
{
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '.' && *s != '_' &&
		    *s != '-')
			*s = '_';
}

static int cmp_names(const void *a, const void *b)
{
	return strverscmp(*(char *const *)a, *(char *const *)b);
}

/* The entries of a folder, sorted naturally (sdb before sdaa). */
static char **list_dir(const char *dir, int *count)
{
	struct dirent *e;
	char **names = NULL, **grown;
	int n = 0, cap = 0;
	DIR *d = opendir(dir);

	*count = 0;
	if (!d)
		return NULL;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 32;
			grown = realloc(names, (size_t)cap * sizeof(*names));
			if (!grown)
				break;
			names = grown;
		}
		names[n] = strdup(e->d_name);
		if (names[n])
			n++;
	}
	closedir(d);
	if (names)
		qsort(names, (size_t)n, sizeof(*names), cmp_names);
	*count = n;
	return names;
}

static void free_list(char **names, int n)
{
	while (n-- > 0)
		free(names[n]);
	free(names);
}

static void system_info(const struct discover_options *o,
			struct discover_system *s)
{
	char dmi[PATH_MAX], path[PATH_MAX], line[512];
	FILE *f;

	snprintf(dmi, sizeof(dmi), "%s/class/dmi/id", o->sysroot);
	attr_tidy(dmi, "sys_vendor", s->vendor, sizeof(s->vendor));
	attr_tidy(dmi, "product_name", s->product, sizeof(s->product));
	attr_tidy(dmi, "product_serial", s->serial, sizeof(s->serial));
	attr_tidy(dmi, "board_vendor", s->board_vendor, sizeof(s->board_vendor));
	attr_tidy(dmi, "board_name", s->board, sizeof(s->board));
	attr_tidy(dmi, "bios_vendor", s->bios_vendor, sizeof(s->bios_vendor));
	attr_tidy(dmi, "bios_version", s->bios_version, sizeof(s->bios_version));
	attr_tidy(dmi, "bios_date", s->bios_date, sizeof(s->bios_date));

	snprintf(path, sizeof(path), "%s/cpuinfo", o->procroot);
	f = fopen(path, "re");
	if (f) {
		while (fgets(line, sizeof(line), f)) {
			char *colon = strchr(line, ':');

			if (!strncmp(line, "processor", 9))
				s->cpus++;
			else if (!s->cpu[0] && colon &&
				 !strncmp(line, "model name", 10)) {
				snprintf(s->cpu, sizeof(s->cpu), "%s", colon + 1);
				tidy(s->cpu);
			}
		}
		fclose(f);
	}
	snprintf(path, sizeof(path), "%s/meminfo", o->procroot);
	f = fopen(path, "re");
	if (f) {
		unsigned long long kb;

		while (fgets(line, sizeof(line), f))
			if (sscanf(line, "MemTotal: %llu kB", &kb) == 1)
				s->memory = kb * 1024;
		fclose(f);
	}
}

static int nics(const struct discover_options *o, struct discover_inventory *inv)
{
	char base[PATH_MAX], dir[PATH_MAX + 64], buf[64];
	char **names;
	int i, n;

	snprintf(base, sizeof(base), "%s/class/net", o->sysroot);
	names = list_dir(base, &n);
	inv->nics = calloc((size_t)n + 1, sizeof(*inv->nics));
	if (!inv->nics) {
		free_list(names, n);
		return -ENOMEM;
	}
	for (i = 0; i < n; i++) {
		struct discover_nic *nic = &inv->nics[inv->nnics];

		snprintf(dir, sizeof(dir), "%s/%s", base, names[i]);
		/* No device behind it: lo, bridges, bonds, veth, tunnels. */
		if (!exists(dir, "device"))
			continue;
		snprintf(nic->name, sizeof(nic->name), "%.31s", names[i]);
		attr_tidy(dir, "address", nic->mac, sizeof(nic->mac));
		snprintf(buf, sizeof(buf), "device/driver");
		link_base(dir, buf, nic->driver, sizeof(nic->driver));
		attr_tidy(dir, "operstate", nic->state, sizeof(nic->state));
		nic->speed = (int)attr_long(dir, "speed", -1);
		if (nic->speed <= 0)
			nic->speed = -1;
		nic->wireless = exists(dir, "wireless") || exists(dir, "phy80211");
		inv->nnics++;
	}
	free_list(names, n);
	return 0;
}

/* The machine id of DESIGN.md: a real DMI serial, else the first wired MAC. */
static void machine_id(struct discover_inventory *inv)
{
	struct discover_system *s = &inv->sys;
	int i;

	if (discover_serial_real(s->serial)) {
		snprintf(s->machine_id, sizeof(s->machine_id), "%s", s->serial);
	} else {
		snprintf(s->machine_id, sizeof(s->machine_id), "unknown");
		for (i = 0; i < inv->nnics; i++) {
			const char *m = inv->nics[i].mac;
			char *w = s->machine_id;

			if (inv->nics[i].wireless || strlen(m) < 12)
				continue;
			for (; *m && w < s->machine_id + sizeof(s->machine_id) - 1; m++)
				if (*m != ':')
					*w++ = *m;
			*w = 0;
			break;
		}
	}
	safe_name(s->machine_id);
}

/* 0000:00:1f.2, or 10000:e1:00.0 inside a VMD domain. */
static int is_pci_address(const char *s, size_t len)
{
	size_t i = 0, d = 0;

	while (i < len && isxdigit((unsigned char)s[i]))
		i++, d++;
	if (d < 4 || i + 8 != len)
		return 0;
	return s[i] == ':' && isxdigit((unsigned char)s[i + 1]) &&
	       isxdigit((unsigned char)s[i + 2]) && s[i + 3] == ':' &&
	       isxdigit((unsigned char)s[i + 4]) &&
	       isxdigit((unsigned char)s[i + 5]) && s[i + 6] == '.' &&
	       s[i + 7] >= '0' && s[i + 7] <= '7';
}

/* "pci10000:00": the root of a VMD domain, whose domain has 5+ digits. */
static int is_vmd_root(const char *s, size_t len)
{
	const char *colon = memchr(s, ':', len);

	return len > 3 && !strncmp(s, "pci", 3) && colon && colon - s - 3 > 4;
}

/*
 * The deepest PCI function on a sysfs device path: the controller nearest
 * the disk (bridges come before it). vmd gets the function that hosts the
 * domain when the controller sits in a VMD domain (.../pci10000:00/...).
 */
static int pci_of_path(const char *path, char *out, size_t len, char *vmd,
		       size_t vlen)
{
	const char *p = path, *slash;
	char last[64] = "";

	if (vmd)
		vmd[0] = 0;
	for (; *p; p = slash + 1) {
		size_t n;

		slash = strchr(p, '/');
		n = slash ? (size_t)(slash - p) : strlen(p);
		if (n < sizeof(last) && is_pci_address(p, n)) {
			memcpy(last, p, n);
			last[n] = 0;
		} else if (vmd && last[0] && is_vmd_root(p, n)) {
			snprintf(vmd, vlen, "%s", last);
		}
		if (!slash)
			break;
	}
	if (last[0])
		snprintf(out, len, "%s", last);
	return last[0] != 0;
}

static const char *pci_kind(unsigned cls)
{
	switch (cls >> 8) {
	case 0x0100: return "SCSI";
	case 0x0101: return "IDE";
	case 0x0102: return "floppy";
	case 0x0103: return "IPI";
	case 0x0104: return "RAID";
	case 0x0105: return "ATA";
	case 0x0106: return (cls & 0xff) == 1 ? "SATA AHCI" : "SATA";
	case 0x0107: return "SAS";
	case 0x0108: return (cls & 0xff) == 2 ? "NVMe" : "NVM";
	case 0x0109: return "UFS";
	case 0x0180: return "storage";
	case 0x0c03: return "USB";
	case 0x0c04: return "Fibre Channel";
	case 0x0200: return "Ethernet";
	case 0x0207: return "InfiniBand";
	}
	return (cls >> 16) == 1 ? "storage" : "other";
}

/* MB/s per direction a lane carries, after line coding. */
static double lane_mbps(const char *speed)
{
	double gt = atof(speed);

	if (gt <= 0)
		return 0;
	if (gt < 3)
		return 250;		/* 2.5 GT/s, 8b/10b */
	if (gt < 6)
		return 500;		/* 5 GT/s, 8b/10b */
	if (gt < 10)
		return 984.6;		/* 8 GT/s, 128b/130b */
	if (gt < 20)
		return 1969.2;		/* 16 GT/s */
	if (gt < 40)
		return 3938.5;		/* 32 GT/s */
	return 7563.0;			/* 64 GT/s, PAM4 with FLIT overhead */
}

static int add_controller(const struct discover_options *o,
			  struct discover_inventory *inv, const char *pci)
{
	char dir[PATH_MAX], real[PATH_MAX];
	struct discover_controller *c, *grown;
	int i;

	for (i = 0; i < inv->nctrls; i++)
		if (!strcmp(inv->ctrls[i].pci, pci))
			return i;
	grown = realloc(inv->ctrls, (size_t)(inv->nctrls + 1) * sizeof(*grown));
	if (!grown)
		return -ENOMEM;
	inv->ctrls = grown;
	c = &inv->ctrls[inv->nctrls];
	memset(c, 0, sizeof(*c));
	snprintf(c->pci, sizeof(c->pci), "%.31s", pci);
	snprintf(dir, sizeof(dir), "%s/bus/pci/devices/%s", o->sysroot, pci);
	c->class_code = (unsigned)attr_long(dir, "class", 0);
	c->vendor = (unsigned)attr_long(dir, "vendor", 0);
	c->device = (unsigned)attr_long(dir, "device", 0);
	c->storage = (c->class_code >> 16) == 1;
	snprintf(c->kind, sizeof(c->kind), "%s", pci_kind(c->class_code));
	link_base(dir, "driver", c->driver, sizeof(c->driver));
	c->numa = (int)attr_long(dir, "numa_node", -1);
	attr_tidy(dir, "current_link_speed", c->link_speed, sizeof(c->link_speed));
	attr_tidy(dir, "max_link_speed", c->max_link_speed,
		  sizeof(c->max_link_speed));
	c->link_width = (int)attr_long(dir, "current_link_width", 0);
	c->max_link_width = (int)attr_long(dir, "max_link_width", 0);
	if (c->link_width > 0 && lane_mbps(c->link_speed) > 0) {
		c->link_mbps = lane_mbps(c->link_speed) * c->link_width;
		c->degraded = lane_mbps(c->link_speed) <
				      lane_mbps(c->max_link_speed) ||
			      c->link_width < c->max_link_width;
	}
	if (realpath(dir, real))
		pci_of_path(real, real, sizeof(real), c->vmd, sizeof(c->vmd));
	pciids_lookup(o->pciids ? o->pciids : PCIIDS_PATH, c->vendor, c->device,
		      c->vendor_name, sizeof(c->vendor_name), c->device_name,
		      sizeof(c->device_name));
	return inv->nctrls++;
}

static int controllers(const struct discover_options *o,
		       struct discover_inventory *inv)
{
	char base[PATH_MAX], dir[PATH_MAX + 64];
	char **names;
	int i, n, ret = 0;

	snprintf(base, sizeof(base), "%s/bus/pci/devices", o->sysroot);
	names = list_dir(base, &n);
	for (i = 0; i < n && ret >= 0; i++) {
		snprintf(dir, sizeof(dir), "%s/%s", base, names[i]);
		if ((attr_long(dir, "class", 0) >> 16) == 1)
			ret = add_controller(o, inv, names[i]);
	}
	free_list(names, n);
	return ret < 0 ? ret : 0;
}

static int skip_disk(const char *name)
{
	static const char *const virtual[] = {
		"loop", "ram", "zram", "dm-", "md", "sr", "fd", "nbd", "drbd",
		"bcache", "rbd", "zd", "nullb", "pmem", "mtdblock",
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(virtual); i++)
		if (!strncmp(name, virtual[i], strlen(virtual[i])))
			return 1;
	return 0;
}

static void transport(const char *devpath, const char *name,
		      struct discover_disk *d)
{
	const char *t = "unknown";

	if (!strncmp(name, "nvme", 4) || strstr(devpath, "/nvme/"))
		t = "nvme";
	else if (!strncmp(name, "vd", 2) && strstr(devpath, "/virtio"))
		t = "virtio";
	else if (strstr(devpath, "/usb"))
		t = "usb";
	else if (strstr(devpath, "/end_device-") || strstr(devpath, "/expander-"))
		t = "sas";
	else if (strstr(devpath, "/ata"))
		t = "ata";
	else if (strstr(devpath, "/virtio"))
		t = "virtio-scsi";
	else if (strstr(devpath, "/mmc"))
		t = "mmc";
	else if (strstr(devpath, "/host"))
		t = "scsi";
	snprintf(d->transport, sizeof(d->transport), "%s", t);
}

/* SATA: the port's sata_spd; SAS: the phy's negotiated rate. */
static void link_rate(const struct discover_options *o, const char *devpath,
		      struct discover_disk *d)
{
	char dir[PATH_MAX], buf[64], port[64], **names;
	const char *p;
	int n, i, ata;

	p = strstr(devpath, "/ata");
	if (p && sscanf(p, "/ata%d/", &ata) == 1) {
		snprintf(dir, sizeof(dir), "%s/class/ata_link/link%d", o->sysroot,
			 ata);
		if (attr_tidy(dir, "sata_spd", buf, sizeof(buf)) > 0) {
			snprintf(d->transport, sizeof(d->transport), "sata");
			if (strcmp(buf, "<unknown>"))
				snprintf(d->link, sizeof(d->link), "%s", buf);
		}
		return;
	}
	p = strstr(devpath, "/port-");
	if (!p || sscanf(p, "/port-%63[0-9:]", port) != 1)
		return;
	/* The port's folder holds a link per phy of the port. */
	snprintf(dir, sizeof(dir), "%s%.*s", o->sysroot,
		 (int)(strchr(p + 1, '/') ? strchr(p + 1, '/') - devpath :
		       (long)strlen(devpath)), devpath);
	names = list_dir(dir, &n);
	for (i = 0; i < n; i++) {
		char phy[PATH_MAX];

		if (strncmp(names[i], "phy-", 4))
			continue;
		snprintf(phy, sizeof(phy), "%s/class/sas_phy/%s", o->sysroot,
			 names[i]);
		if (attr_tidy(phy, "negotiated_linkrate", buf, sizeof(buf)) > 0) {
			snprintf(d->link, sizeof(d->link), "%s", buf);
			break;
		}
	}
	free_list(names, n);
}

/* RAID controllers show their volumes as disks; say which these are. */
static void raid_volume(const struct discover_controller *c,
			struct discover_disk *d)
{
	int h, ch, t, l;

	if (!c || sscanf(d->hctl, "%d:%d:%d:%d", &h, &ch, &t, &l) != 4)
		return;
	if (strstr(d->id.model, "LOGICAL VOLUME"))
		d->raid_volume = 1;
	/* megaraid_sas: system physical disks on channels 0-1, volumes on 2-3. */
	else if (!strcmp(c->driver, "megaraid_sas") && ch >= 2)
		d->raid_volume = 1;
	/* mpt2/3sas with IR firmware: volumes on channel 1. */
	else if ((!strcmp(c->driver, "mpt3sas") || !strcmp(c->driver, "mptsas")) &&
		 ch == 1)
		d->raid_volume = 1;
	else if (!strcmp(c->driver, "arcmsr") || !strcmp(c->driver, "megaraid"))
		d->raid_volume = 1;
	else if (!strcmp(c->driver, "aacraid") && ch == 0)
		d->raid_volume = 1;
}

static void enclosure_slot(const struct discover_options *o, const char *devreal,
			   struct discover_disk *d)
{
	char base[PATH_MAX], dir[PATH_MAX * 2], real[PATH_MAX], **encs, **comps;
	int ne, nc, i, k;

	snprintf(base, sizeof(base), "%s/class/enclosure", o->sysroot);
	encs = list_dir(base, &ne);
	for (i = 0; i < ne && !d->enclosure[0]; i++) {
		snprintf(dir, sizeof(dir), "%s/%s", base, encs[i]);
		comps = list_dir(dir, &nc);
		for (k = 0; k < nc; k++) {
			char comp[PATH_MAX * 2 + 64];

			snprintf(comp, sizeof(comp), "%s/%s/device", dir, comps[k]);
			if (!realpath(comp, real) || strcmp(real, devreal))
				continue;
			snprintf(comp, sizeof(comp), "%s/%s", dir, comps[k]);
			snprintf(d->enclosure, sizeof(d->enclosure), "%.63s", encs[i]);
			if (attr_tidy(comp, "slot", d->slot, sizeof(d->slot)) <= 0)
				snprintf(d->slot, sizeof(d->slot), "%.63s", comps[k]);
			break;
		}
		free_list(comps, nc);
	}
	free_list(encs, ne);
}

static void append(char *buf, size_t len, const char *word)
{
	size_t used = strlen(buf);

	snprintf(buf + used, len - used, "%s%s", used ? " " : "", word);
}

static int one_disk(const struct discover_options *o,
		    struct discover_inventory *inv, const char *name)
{
	char dir[PATH_MAX], dev[PATH_MAX + 16], devreal[PATH_MAX], real[PATH_MAX];
	char buf[64], pci[64], sub[PATH_MAX * 2], **names;
	struct discover_disk *d, *grown;
	unsigned maj, min;
	size_t root = strlen(o->sysroot);
	int n, i, c;

	snprintf(dir, sizeof(dir), "%s/block/%s", o->sysroot, name);
	if (attr_long(dir, "hidden", 0) == 1)
		return 0;	/* an NVMe multipath leg: its head is listed */
	grown = realloc(inv->disks, (size_t)(inv->ndisks + 1) * sizeof(*grown));
	if (!grown)
		return -ENOMEM;
	inv->disks = grown;
	d = &inv->disks[inv->ndisks];
	memset(d, 0, sizeof(*d));
	d->controller = -1;

	if (discover_attr(dir, "dev", buf, sizeof(buf)) > 0 &&
	    sscanf(buf, "%u:%u", &maj, &min) == 2)
		d->dev = makedev(maj, min);
	d->size = (uint64_t)attr_long(dir, "size", 0) * 512;
	d->lbs = (unsigned)attr_long(dir, "queue/logical_block_size", 0);
	d->pbs = (unsigned)attr_long(dir, "queue/physical_block_size", 0);
	d->removable = attr_long(dir, "removable", 0) == 1;

	memset(&d->id, 0, sizeof(d->id));
	d->id.rotational = -1;
	snprintf(d->id.name, sizeof(d->id.name), "%.63s", name);
	if (realpath(dir, real))
		whole_disk(o->sysroot, real, d->size, &d->id);

	snprintf(dev, sizeof(dev), "%s/device", dir);
	if (realpath(dev, devreal))
		snprintf(d->devpath, sizeof(d->devpath), "%s",
			 strncmp(devreal, o->sysroot, root) ? devreal :
			 devreal + root);
	else
		devreal[0] = 0;
	attr_tidy(dev, "vendor", d->vendor, sizeof(d->vendor));
	if (attr_tidy(dev, "rev", d->firmware, sizeof(d->firmware)) <= 0)
		attr_tidy(dev, "firmware_rev", d->firmware, sizeof(d->firmware));
	if (devreal[0]) {
		const char *base = strrchr(devreal, '/');
		int h, ch, t, l;

		if (base && sscanf(base + 1, "%d:%d:%d:%d", &h, &ch, &t, &l) == 4)
			snprintf(d->hctl, sizeof(d->hctl), "%.31s", base + 1);
	}
	transport(strncmp(real, o->sysroot, root) ? real : real + root, name, d);
	link_rate(o, d->devpath, d);
	if (devreal[0])
		enclosure_slot(o, devreal, d);

	if (pci_of_path(strncmp(real, o->sysroot, root) ? real : real + root,
			pci, sizeof(pci), NULL, 0)) {
		c = add_controller(o, inv, pci);
		if (c < 0)
			return c;
		d = &inv->disks[inv->ndisks];	/* add_controller reallocated */
		d->controller = c;
		inv->ctrls[c].ndisks++;
		raid_volume(&inv->ctrls[c], d);
	}

	names = list_dir(dir, &n);
	for (i = 0; i < n; i++) {
		snprintf(sub, sizeof(sub), "%s/%s", dir, names[i]);
		if (exists(sub, "partition"))
			append(d->partitions, sizeof(d->partitions), names[i]);
	}
	free_list(names, n);
	snprintf(sub, sizeof(sub), "%s/holders", dir);
	names = list_dir(sub, &n);
	for (i = 0; i < n; i++)
		append(d->holders, sizeof(d->holders), names[i]);
	free_list(names, n);

	if (!d->size && strcmp(d->transport, "usb"))
		snprintf(d->unusable, sizeof(d->unusable), "capacity 0: %s",
			 d->hctl[0] ? "a SAS drive formatted with 520- or "
			 "524-byte sectors shows so; reformat it to 512 with "
			 "sg_format --format --size=512" : "no medium, or a "
			 "drive that did not come up");
	else if (!d->size)
		snprintf(d->unusable, sizeof(d->unusable), "no medium");
	inv->ndisks++;
	return 0;
}

static int disks(const struct discover_options *o,
		 struct discover_inventory *inv)
{
	char base[PATH_MAX], **names;
	int i, n, ret = 0;

	snprintf(base, sizeof(base), "%s/block", o->sysroot);
	names = list_dir(base, &n);
	for (i = 0; i < n && !ret; i++)
		if (!skip_disk(names[i]))
			ret = one_disk(o, inv, names[i]);
	free_list(names, n);
	return ret;
}

const char *discover_class_name(int class)
{
	switch (class) {
	case CLASS_IN_USE: return "in-use";
	case CLASS_HAS_DATA: return "has-data";
	case CLASS_KILN_DATA: return "kiln-data";
	case CLASS_BLANK: return "blank";
	}
	return "unknown";
}

__attribute__((format(printf, 2, 3)))
static void why(struct discover_safety *s, const char *fmt, ...)
{
	size_t used = strlen(s->why);
	va_list ap;

	if (used && used < sizeof(s->why) - 2) {
		memcpy(s->why + used, "; ", 3);
		used += 2;
	}
	va_start(ap, fmt);
	vsnprintf(s->why + used, sizeof(s->why) - used, fmt, ap);
	va_end(ap);
}

/* Devices of a disk and its partitions, and their names. */
struct family {
	dev_t dev[64];
	char name[64][64];
	int n;
};

static void family_of(const struct discover_options *o, const char *name,
		      dev_t dev, struct family *f)
{
	char dir[PATH_MAX], sub[PATH_MAX * 2], buf[64], **names;
	unsigned maj, min;
	int i, n;

	f->n = 1;
	f->dev[0] = dev;
	snprintf(f->name[0], sizeof(f->name[0]), "%.63s", name);
	snprintf(dir, sizeof(dir), "%s/block/%s", o->sysroot, name);
	names = list_dir(dir, &n);
	for (i = 0; i < n && f->n < 64; i++) {
		snprintf(sub, sizeof(sub), "%s/%s", dir, names[i]);
		if (!exists(sub, "partition") ||
		    discover_attr(sub, "dev", buf, sizeof(buf)) <= 0 ||
		    sscanf(buf, "%u:%u", &maj, &min) != 2)
			continue;
		f->dev[f->n] = makedev(maj, min);
		snprintf(f->name[f->n], sizeof(f->name[0]), "%.63s", names[i]);
		f->n++;
	}
	free_list(names, n);
}

static void in_use(const struct discover_options *o, const char *name,
		   dev_t dev, struct discover_safety *s)
{
	char path[PATH_MAX], line[1024], sub[PATH_MAX * 2], **names;
	struct family fam;
	FILE *f;
	int i, k, n;

	family_of(o, name, dev, &fam);
	for (i = 0; i < o->nprotect; i++)
		for (k = 0; k < fam.n; k++)
			if (o->protect[i] == fam.dev[k]) {
				why(s, "%s is the boot or results medium "
				    "(--protect)", fam.name[k]);
				s->class = CLASS_IN_USE;
			}
	for (k = 0; k < fam.n; k++) {
		snprintf(sub, sizeof(sub), "%s/block/%s%s%s/holders", o->sysroot,
			 name, k ? "/" : "", k ? fam.name[k] : "");
		names = list_dir(sub, &n);
		for (i = 0; i < n; i++) {
			why(s, "%s is held by %s", fam.name[k], names[i]);
			s->class = CLASS_IN_USE;
		}
		free_list(names, n);
	}

	/* mountinfo: "id parent major:minor root mountpoint ..." */
	snprintf(path, sizeof(path), "%s/self/mountinfo", o->procroot);
	f = fopen(path, "re");
	if (f) {
		while (fgets(line, sizeof(line), f)) {
			unsigned maj, min;
			char point[512];

			if (sscanf(line, "%*u %*u %u:%u %*s %511s", &maj, &min,
				   point) != 3)
				continue;
			for (k = 0; k < fam.n; k++)
				if (makedev(maj, min) == fam.dev[k]) {
					why(s, "%s is mounted at %s", fam.name[k],
					    point);
					s->class = CLASS_IN_USE;
				}
		}
		fclose(f);
	}
	snprintf(path, sizeof(path), "%s/swaps", o->procroot);
	f = fopen(path, "re");
	if (f) {
		while (fgets(line, sizeof(line), f)) {
			char dev_path[512], *base;

			if (sscanf(line, "%511s", dev_path) != 1 ||
			    strncmp(dev_path, "/dev/", 5))
				continue;
			base = strrchr(dev_path, '/') + 1;
			for (k = 0; k < fam.n; k++)
				if (!strcmp(base, fam.name[k])) {
					why(s, "%s is used as swap", fam.name[k]);
					s->class = CLASS_IN_USE;
				}
		}
		fclose(f);
	}
}

void discover_classify(const struct discover_options *o, const char *name,
		       dev_t dev, int fd, uint64_t size,
		       struct discover_safety *s)
{
	char parts[256] = "", text[sizeof(s->why)];
	int ret = -ENODEV, i;

	memset(s, 0, sizeof(*s));
	s->class = CLASS_BLANK;
	if (name && *name) {
		struct family fam;

		in_use(o, name, dev, s);
		family_of(o, name, dev, &fam);
		for (i = 1; i < fam.n; i++)
			append(parts, sizeof(parts), fam.name[i]);
	}
	if (fd >= 0) {
		ret = signature_scan_fd(fd, size, &s->sig);
		s->scanned = ret == 0;
	}
	if (ret == 0 && s->sig.kiln) {
		if (s->class != CLASS_IN_USE)
			s->class = CLASS_KILN_DATA;
		why(s, "%s", signature_describe(&s->sig, text, sizeof(text)));
		return;
	}
	if (s->class == CLASS_BLANK && (ret || s->sig.n || parts[0]))
		s->class = CLASS_HAS_DATA;
	if (ret == -ENODEV)
		why(s, "not read, so not proven blank");
	else if (ret)
		why(s, "its ends could not be read (%s), so it is not proven "
		    "blank", strerror(-ret));
	if (s->sig.n)
		why(s, "it holds %s", signature_describe(&s->sig, text,
							 sizeof(text)));
	if (parts[0])
		why(s, "the kernel sees partitions %s", parts);
	if (s->class == CLASS_BLANK)
		why(s, "no partition table, filesystem, volume or RAID "
		    "signature at its start or end");
}

int discover_scan(const struct discover_options *o,
		  struct discover_inventory *inv)
{
	int i, ret;

	memset(inv, 0, sizeof(*inv));
	system_info(o, &inv->sys);
	ret = nics(o, inv);
	if (!ret)
		ret = controllers(o, inv);
	if (!ret)
		ret = disks(o, inv);
	if (ret) {
		discover_free(inv);
		return ret;
	}
	machine_id(inv);
	for (i = 0; i < inv->ndisks; i++) {
		struct discover_disk *d = &inv->disks[i];
		char path[PATH_MAX];
		int fd = -1;

		if (o->read_disks && d->size) {
			snprintf(path, sizeof(path), "%s/%s", o->devroot, d->id.name);
			fd = open(path, O_RDONLY | O_DIRECT | O_CLOEXEC | O_NONBLOCK);
		}
		discover_classify(o, d->id.name, d->dev, fd, d->size, &d->safety);
		if (fd >= 0)
			close(fd);
	}
	return 0;
}

void discover_free(struct discover_inventory *inv)
{
	free(inv->nics);
	free(inv->ctrls);
	free(inv->disks);
	memset(inv, 0, sizeof(*inv));
}
