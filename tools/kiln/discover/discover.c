/* SPDX-License-Identifier: MIT */
/*
 * Description: the walk of discovery (see discover.h): every PCI storage
 * controller, every whole disk under /sys/block with its transport, link,
 * enclosure slot and controller, then each disk's safety class.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "base/deadline.h"
#include "base/kiln.h"
#include "discover/discover.h"
#include "base/sysfs.h"
#include "base/unit.h"
#include "base/timing.h"

static int add_controller(const struct discover_options *o,
			  struct discover_inventory *inv, const char *pci)
{
	struct pci_controller *grown;
	int i;

	for (i = 0; i < inv->nctrls; i++)
		if (!strcmp(inv->ctrls[i].pci, pci))
			return i;
	grown = realloc(inv->ctrls, (size_t)(inv->nctrls + 1) * sizeof(*grown));
	if (!grown)
		return -ENOMEM;
	inv->ctrls = grown;
	pci_controller_read(o->sysroot, o->pciids, pci,
			    &inv->ctrls[inv->nctrls]);
	return inv->nctrls++;
}

static int controllers(const struct discover_options *o,
		       struct discover_inventory *inv)
{
	char base[PATH_MAX], dir[PATH_MAX + 64];
	char **names;
	int i, n, ret = 0;

	snprintf(base, sizeof(base), "%s/bus/pci/devices", o->sysroot);
	names = dir_list(base, &n);
	for (i = 0; i < n && ret >= 0; i++) {
		snprintf(dir, sizeof(dir), "%s/%s", base, names[i]);
		if ((sysfs_attr_long(dir, "class", 0) >> 16) == 1)
			ret = add_controller(o, inv, names[i]);
	}
	dir_list_free(names, n);
	return ret < 0 ? ret : 0;
}

/*
 * A loop device kiln discover lists (kiln run never chooses one): one
 * attached to a file, so a burn of it can be previewed; a free one (no
 * backing file) is no disk.
 */
static int listed_loop(const struct discover_options *o, const char *name)
{
	char dir[PATH_MAX], buf[8];

	if (!o->loops || strncmp(name, "loop", 4))
		return 0;
	snprintf(dir, sizeof(dir), "%s/block/%s", o->sysroot, name);
	return sysfs_attr(dir, "loop/backing_file", buf, sizeof(buf)) > 0;
}

/*
 * A device-mapper device kiln run may test: only when the settings name
 * disks (include), since one is built on disks that are in use by it and
 * nothing in kiln's image builds one; a lab that does (a flaky or a bad
 * block map over a disk, to see a fault) names it.
 */
static int listed_mapped(const struct discover_options *o, const char *name)
{
	return o->mapped && !strncmp(name, "dm-", 3);
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

	if (!strncmp(name, "loop", 4) && strstr(devpath, "/virtual/"))
		t = "loop";
	else if (!strncmp(name, "dm-", 3) && strstr(devpath, "/virtual/"))
		t = "dm";
	else if (!strncmp(name, "nvme", 4) || strstr(devpath, "/nvme/"))
		t = "nvme";
	else if (!strncmp(name, "vd", 2) && strstr(devpath, "/virtio"))
		t = "virtio";
	else if (strstr(devpath, "/usb"))
		t = "usb";
	else if (strstr(devpath, "/end_device-") ||
		 strstr(devpath, "/expander-"))
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
		snprintf(dir, sizeof(dir), "%s/class/ata_link/link%d",
			 o->sysroot, ata);
		if (sysfs_attr_tidy(dir, "sata_spd", buf, sizeof(buf)) > 0) {
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
	names = dir_list(dir, &n);
	for (i = 0; i < n; i++) {
		char phy[PATH_MAX];

		if (strncmp(names[i], "phy-", 4))
			continue;
		snprintf(phy, sizeof(phy), "%s/class/sas_phy/%s", o->sysroot,
			 names[i]);
		if (sysfs_attr_tidy(phy, "negotiated_linkrate", buf,
				    sizeof(buf)) > 0) {
			snprintf(d->link, sizeof(d->link), "%s", buf);
			break;
		}
	}
	dir_list_free(names, n);
}

/* RAID controllers show their volumes as disks; say which these are. */
static void raid_volume(const struct pci_controller *c,
			struct discover_disk *d)
{
	int h, ch, t, l;

	if (!c || sscanf(d->hctl, "%d:%d:%d:%d", &h, &ch, &t, &l) != 4)
		return;
	if (strstr(d->id.model, "LOGICAL VOLUME"))
		d->raid_volume = 1;
	/* megaraid_sas: plain disks on channels 0-1, volumes 2-3. */
	else if (!strcmp(c->driver, "megaraid_sas") && ch >= 2)
		d->raid_volume = 1;
	/* mpt2/3sas with IR firmware: volumes on channel 1. */
	else if ((!strcmp(c->driver, "mpt3sas") ||
		  !strcmp(c->driver, "mptsas")) &&
		 ch == 1)
		d->raid_volume = 1;
	else if (!strcmp(c->driver, "arcmsr") || !strcmp(c->driver, "megaraid"))
		d->raid_volume = 1;
	else if (!strcmp(c->driver, "aacraid") && ch == 0)
		d->raid_volume = 1;
}

static void append(char *buf, size_t len, const char *word)
{
	size_t used = strlen(buf);

	snprintf(buf + used, len - used, "%s%s", used ? " " : "", word);
}

static int one_disk(const struct discover_options *o,
		    struct discover_inventory *inv, const char *name)
{
	char dir[PATH_MAX], dev[PATH_MAX + 16], devreal[PATH_MAX],
		real[PATH_MAX];
	char buf[64], pci[64], sub[PATH_MAX * 2], **names;
	struct discover_disk *d, *grown;
	unsigned maj, min;
	size_t root = strlen(o->sysroot);
	int n, i, c;

	snprintf(dir, sizeof(dir), "%s/block/%s", o->sysroot, name);
	if (sysfs_attr_long(dir, "hidden", 0) == 1)
		return 0;	/* an NVMe multipath leg: its head is listed */
	grown = realloc(inv->disks, (size_t)(inv->ndisks + 1) * sizeof(*grown));
	if (!grown)
		return -ENOMEM;
	inv->disks = grown;
	d = &inv->disks[inv->ndisks];
	memset(d, 0, sizeof(*d));
	d->controller = -1;

	if (sysfs_attr(dir, "dev", buf, sizeof(buf)) > 0 &&
	    sscanf(buf, "%u:%u", &maj, &min) == 2)
		d->dev = makedev(maj, min);
	d->size = (uint64_t)sysfs_attr_long(dir, "size", 0) * 512;
	d->lbs = (unsigned)sysfs_attr_long(dir, "queue/logical_block_size", 0);
	d->pbs = (unsigned)sysfs_attr_long(dir, "queue/physical_block_size", 0);
	d->removable = sysfs_attr_long(dir, "removable", 0) == 1;
	d->read_only = sysfs_attr_long(dir, "ro", 0) == 1;

	memset(&d->id, 0, sizeof(d->id));
	d->id.rotational = -1;
	snprintf(d->id.name, sizeof(d->id.name), "%.63s", name);
	if (realpath(dir, real))
		identity_of_disk(o->sysroot, real, d->size, &d->id);

	snprintf(dev, sizeof(dev), "%s/device", dir);
	if (realpath(dev, devreal))
		snprintf(d->devpath, sizeof(d->devpath), "%s",
			 strncmp(devreal, o->sysroot, root) ? devreal :
			 devreal + root);
	else
		devreal[0] = 0;
	sysfs_attr_tidy(dev, "vendor", d->vendor, sizeof(d->vendor));
	if (sysfs_attr_tidy(dev, "rev", d->firmware, sizeof(d->firmware)) <= 0)
		sysfs_attr_tidy(dev, "firmware_rev", d->firmware,
				sizeof(d->firmware));
	if (devreal[0]) {
		const char *base = strrchr(devreal, '/');
		int h, ch, t, l;

		if (base &&
		    sscanf(base + 1, "%d:%d:%d:%d", &h, &ch, &t, &l) == 4)
			snprintf(d->hctl, sizeof(d->hctl), "%.31s", base + 1);
	}
	transport(strncmp(real, o->sysroot, root) ? real : real + root, name,
		  d);
	link_rate(o, d->devpath, d);
	if (devreal[0])
		d->has_slot = enclosure_find(o->sysroot, devreal,
					     &d->slot);

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

	snprintf(sub, sizeof(sub), "%s/holders", dir);
	names = dir_list(sub, &n);
	for (i = 0; i < n; i++)
		append(d->holders, sizeof(d->holders), names[i]);
	dir_list_free(names, n);

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
	names = dir_list(base, &n);
	for (i = 0; i < n && !ret; i++)
		if (!skip_disk(names[i]))
			ret = one_disk(o, inv, names[i]);
	/* After the machine's own disks, which they are not. */
	for (i = 0; i < n && !ret; i++)
		if (listed_loop(o, names[i]) || listed_mapped(o, names[i]))
			ret = one_disk(o, inv, names[i]);
	dir_list_free(names, n);
	return ret;
}

struct safety_env discover_safety_env(const struct discover_options *o)
{
	struct safety_env env = { .sysroot = o->sysroot,
				  .procroot = o->procroot,
				  .protect = o->protect,
				  .nprotect = o->nprotect };

	return env;
}

/*
 * One disk classed in a child process of its own, under the deadline: a
 * disk that never answers is left behind there, and kiln still exits.
 */
struct classing {
	struct safety_env env;
	char path[PATH_MAX];
	struct safety_subject d;
	unsigned lbs;
	struct safety result;
	struct hidden hidden;
	int san_ask;		/* enum sanstatus_ask: how its sanitize is */
	struct sanstatus san;
};

static void class_one(void *arg)
{
	struct classing *c = arg;

	c->d.fd = c->d.size ? open(c->path, O_RDONLY | O_DIRECT | O_CLOEXEC |
				   O_NONBLOCK) : -1;
	safety_classify(&c->env, &c->d, &c->result);
	/* Only reads: a disk of any class is asked what it hides. */
	if (c->d.fd >= 0)
		hidden_check(c->d.fd, c->lbs, c->env.sysroot, c->d.rdev,
			     &c->hidden);
	else
		hidden_note(&c->hidden, HIDDEN_UNCHECKED, "not checked: "
			    "the disk was not opened");
	/* A sanitize left running makes the drive unusable: said, not burnt. */
	if (c->d.fd >= 0 && c->san_ask == SANSTATUS_ASK_NVME)
		sanstatus_read(c->d.fd, &c->san);
	else if (c->d.fd >= 0 && c->san_ask == SANSTATUS_ASK_SG)
		sanstatus_read_sg(c->d.fd, &c->san);
	if (c->d.fd >= 0)
		close(c->d.fd);
}

static int classify_all(const struct discover_options *o,
			struct discover_inventory *inv)
{
	uint64_t deadline = o->deadline_ns ? o->deadline_ns :
			    60ull * TIMING_SEC;
	struct classing *c = calloc((size_t)inv->ndisks + 1, sizeof(*c));
	int *done = calloc((size_t)inv->ndisks + 1, sizeof(*done));
	struct safety_env env = discover_safety_env(o);
	struct safety_look *look;
	int i, late = 0, ret;

	if (!c || !done) {
		free(c);
		free(done);
		return -ENOMEM;
	}
	/* Once for all: each child has its copy. */
	look = inv->ndisks > 1 ? safety_look(&env) : NULL;
	env.look = look;
	for (i = 0; i < inv->ndisks; i++) {
		const struct discover_disk *d = &inv->disks[i];

		c[i].env = env;
		snprintf(c[i].path, sizeof(c[i].path), "%s/%s", o->devroot,
			 d->id.name);
		c[i].d.name = d->id.name;
		c[i].d.rdev = d->dev;
		c[i].d.size = o->read_disks ? d->size : 0;
		c[i].d.ident = unit_ident_hash(d->id.identity);
		c[i].lbs = d->lbs;
		c[i].san_ask = sanstatus_ask(d->transport);
	}
	ret = deadline_apart(class_one, c, sizeof(*c), inv->ndisks, -1,
			     deadline, done);
	safety_look_free(look);
	for (i = 0; !ret && i < inv->ndisks; i++) {
		struct discover_disk *d = &inv->disks[i];

		if (done[i]) {
			d->safety = c[i].result;
			d->hidden = c[i].hidden;
			d->san = c[i].san;
			continue;
		}
		hidden_note(&d->hidden, HIDDEN_UNCHECKED, "not checked: no "
			    "answer in time");
		late = 1;
		d->stalled = 1;
		d->safety.class = SAFETY_HAS_DATA;
		snprintf(d->safety.why, sizeof(d->safety.why), "stalled: no "
			 "answer in %llu s while reading it to class it",
			 (unsigned long long)(deadline / TIMING_SEC));
	}
	/* A disk still being read keeps its item: leave them all. */
	if (!late)
		free(c);
	free(done);
	return ret;
}

int discover_tree(const struct discover_options *o,
		  struct discover_inventory *inv)
{
	int ret;

	memset(inv, 0, sizeof(*inv));
	machine_system_read(o->sysroot, o->procroot, &inv->sys);
	inv->dimms = calloc(DISCOVER_MAX_DIMMS, sizeof(*inv->dimms));
	if (!inv->dimms)
		return -ENOMEM;
	inv->ndimms = smbios_dimms_read(o->sysroot, inv->dimms,
					DISCOVER_MAX_DIMMS);
	ret = machine_nics_read(o->sysroot, &inv->nics, &inv->nnics);
	if (!ret)
		ret = controllers(o, inv);
	if (!ret)
		ret = disks(o, inv);
	if (!ret)
		ret = sasphy_read(o->sysroot, &inv->phys);
	if (!ret)
		machine_id_choose(&inv->sys, inv->nics, inv->nnics);
	/* Given: it is the id, and there is no older name to rename from. */
	if (!ret && o->machine_id) {
		snprintf(inv->sys.machine_id, sizeof(inv->sys.machine_id),
			 "%s", o->machine_id);
		snprintf(inv->sys.machine_id_old,
			 sizeof(inv->sys.machine_id_old), "%s", o->machine_id);
	}
	if (ret)
		discover_free(inv);
	return ret;
}

int discover_scan(const struct discover_options *o,
		  struct discover_inventory *inv)
{
	int ret = discover_tree(o, inv);

	if (!ret)
		ret = classify_all(o, inv);
	if (ret)
		discover_free(inv);
	return ret;
}

void discover_free(struct discover_inventory *inv)
{
	free(inv->dimms);
	free(inv->nics);
	free(inv->ctrls);
	free(inv->disks);
	sasphy_free(&inv->phys);
	memset(inv, 0, sizeof(*inv));
}
