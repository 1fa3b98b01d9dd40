/* SPDX-License-Identifier: MIT */
/*
 * Description: hidden=restore on one disk that destroy-data names, held
 * exclusively before its burn: each NVMe namespace allocated in the
 * subsystem and not attached here is attached to this controller
 * (Namespace Attachment, its CNTLID from Identify Controller) and the
 * kernel asked to rescan the controller, where it becomes a block device
 * of its own; an ATA HPA is removed until the next power cycle (READ
 * NATIVE MAX ADDRESS then SET MAX ADDRESS to it, volatile, never through
 * a USB bridge) and the disk rescanned, its size read again. A DCO and
 * unallocated NVM capacity are never changed. Every outcome, done or not
 * and why, is said in h->restored.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/fs.h>
#include <linux/nvme_ioctl.h>
#include <scsi/sg.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "base/sysfs.h"
#include "discover/hidden.h"
#include "engine/sancmd.h"

#define OP_IDENTIFY 0x06
#define CNS_CTRL 0x01
#define ID_LEN 4096
#define IDCTRL_SUBNQN 768
#define CMD_MS 10000
/* A namespace attached shows in sysfs after the rescan: looked at so. */
#define RESCAN_TRIES 100
#define RESCAN_NAP_NS 100000000L

static void said(struct hidden *h, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void said(struct hidden *h, const char *fmt, ...)
{
	size_t at = strlen(h->restored);
	va_list ap;

	if (at && at + 2 < sizeof(h->restored)) {
		memcpy(h->restored + at, "; ", 3);
		at += 2;
	}
	if (at + 1 >= sizeof(h->restored))
		return;
	va_start(ap, fmt);
	vsnprintf(h->restored + at, sizeof(h->restored) - at, fmt, ap);
	va_end(ap);
}

/* An admin command: 0, -errno, or the NVMe status (positive). */
static int admin(int fd, uint8_t opcode, uint32_t nsid, uint32_t cdw10,
		 void *buf, uint32_t len)
{
	struct nvme_admin_cmd c;
	int ret;

	memset(&c, 0, sizeof(c));
	c.opcode = opcode;
	c.nsid = nsid;
	c.cdw10 = cdw10;
	c.addr = (uint64_t)(uintptr_t)buf;
	c.data_len = len;
	c.timeout_ms = CMD_MS;
	ret = ioctl(fd, NVME_IOCTL_ADMIN_CMD, &c);
	return ret < 0 ? -errno : ret;
}

/* A refusal's status in words: the ones Namespace Attachment returns. */
static const char *nvme_status(int st)
{
	switch (st & 0x7ff) {
	case 0x001: return "Invalid Command Opcode";
	case 0x002: return "Invalid Field in Command";
	case 0x00b: return "Invalid Namespace or Format";
	case 0x118: return "Namespace Already Attached";
	case 0x119: return "Namespace Is Private";
	case 0x11a: return "Namespace Not Attached";
	case 0x11c: return "Controller List Invalid";
	}
	return "refused";
}

/*
 * The controller under sysroot/class/nvme whose cntlid and subsysnqn are
 * these, into dir: 0, or -ENOENT.
 */
static int find_ctrl(const char *sysroot, int cntlid, const char *nqn,
		     char *dir, size_t len)
{
	char base[PATH_MAX], buf[300], **names;
	int n, i, ret = -ENOENT;

	snprintf(base, sizeof(base), "%s/class/nvme", sysroot);
	names = dir_list(base, &n);
	for (i = 0; i < n && ret; i++) {
		snprintf(dir, len, "%s/%s", base, names[i]);
		if (sysfs_attr_long(dir, "cntlid", -1) != cntlid)
			continue;
		if (sysfs_attr_tidy(dir, "subsysnqn", buf, sizeof(buf)) < 0 ||
		    strcmp(buf, nqn))
			continue;
		ret = 0;
	}
	dir_list_free(names, n);
	return ret;
}

/* Writes "1" to dir/name: 0, or -errno. */
static int poke(const char *dir, const char *name)
{
	char path[PATH_MAX];
	int fd, ret = 0;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (write(fd, "1", 1) != 1)
		ret = -errno;
	close(fd);
	return ret;
}

/*
 * The block device of nsid under the controller dir once the rescan has
 * made it (nvme0n2; a multipath path nvme0c0n2 names its head nvme0n2):
 * 0, or -ENOENT when none came.
 */
static int ns_appeared(const char *dir, uint32_t nsid, char *name,
		       size_t len)
{
	struct timespec nap = { 0, RESCAN_NAP_NS };
	char sub[PATH_MAX], **names;
	unsigned a, b, c;
	int n, i, t;

	for (t = 0; t < RESCAN_TRIES; t++) {
		names = dir_list(dir, &n);
		for (i = 0; i < n; i++) {
			if (strncmp(names[i], "nvme", 4))
				continue;
			snprintf(sub, sizeof(sub), "%s/%s", dir, names[i]);
			if (sysfs_attr_long(sub, "nsid", -1) != (long)nsid)
				continue;
			if (sscanf(names[i], "nvme%uc%un%u", &a, &b, &c) == 3)
				snprintf(name, len, "nvme%un%u", a, c);
			else
				snprintf(name, len, "%s", names[i]);
			dir_list_free(names, n);
			return 0;
		}
		dir_list_free(names, n);
		nanosleep(&nap, NULL);
	}
	return -ENOENT;
}

static void nvme(int fd, const char *sysroot, struct hidden *h)
{
	uint8_t *id = malloc(ID_LEN), *list = malloc(HIDDEN_CTRL_LIST_LEN);
	char nqn[257], dir[PATH_MAX], b[32], dev[64];
	struct sancmd_nvme cmd;
	int ret, cntlid, i, attached = 0, done[HIDDEN_MAX_NS] = { 0 };

	if (!id || !list) {
		said(h, "nothing restored: %s", strerror(ENOMEM));
		goto out;
	}
	ret = admin(fd, OP_IDENTIFY, 0, CNS_CTRL, id, ID_LEN);
	cntlid = ret ? -EIO : hidden_nvme_cntlid(id, ID_LEN);
	if (cntlid < 0) {
		said(h, "no namespace attached: Identify Controller (%s)",
		     ret < 0 ? strerror(-ret) : nvme_status(ret));
		goto unvm;
	}
	memcpy(nqn, id + IDCTRL_SUBNQN, 256);
	nqn[256] = 0;
	sysfs_tidy(nqn);
	for (i = 0; i < h->nns && i < HIDDEN_MAX_NS; i++) {
		hidden_nvme_attach(&cmd, h->ns[i], (uint16_t)cntlid, list);
		ret = admin(fd, cmd.opcode, cmd.nsid, cmd.cdw10, list,
			    HIDDEN_CTRL_LIST_LEN);
		if (ret < 0) {
			said(h, "nsid %u not attached: Namespace Attachment "
			     "(%s)", h->ns[i], strerror(-ret));
			continue;
		}
		if (ret) {
			said(h, "nsid %u not attached: the controller refused "
			     "Namespace Attachment (%s, status 0x%x)", h->ns[i],
			     nvme_status(ret), ret);
			continue;
		}
		attached++;
		done[i] = 1;
		if (h->ns_bytes[i])
			hidden_bytes_text(h->ns_bytes[i], b, sizeof(b));
		else
			snprintf(b, sizeof(b), "size not read");
		said(h, "nsid %u (%s) attached to this controller (CNTLID %d, "
		     "hidden=restore)", h->ns[i], b, cntlid);
	}
	if (h->nns > HIDDEN_MAX_NS)
		said(h, "%d more namespaces not attached: kiln keeps %d a "
		     "disk", h->nns - HIDDEN_MAX_NS, HIDDEN_MAX_NS);
	if (!attached)
		goto unvm;
	ret = find_ctrl(sysroot, cntlid, nqn, dir, sizeof(dir));
	if (!ret)
		ret = poke(dir, "rescan_controller");
	if (ret) {
		said(h, "the kernel was not asked to rescan (%s): the "
		     "namespace shows after a reboot", strerror(-ret));
		goto unvm;
	}
	for (i = 0; i < h->nns && i < HIDDEN_MAX_NS; i++)
		if (done[i] && !ns_appeared(dir, h->ns[i], dev, sizeof(dev)))
			said(h, "nsid %u is %s after the kernel's rescan: a "
			     "disk of its own, which this run does not test",
			     h->ns[i], dev);
		else if (done[i])
			said(h, "nsid %u: no block device after the kernel's "
			     "rescan (it shows after a reboot)", h->ns[i]);
unvm:
	if (h->unvmcap) {
		hidden_bytes_text(h->unvmcap, b, sizeof(b));
		said(h, "%s of unallocated NVM capacity not restored: kiln "
		     "does not choose a namespace layout (a namespace's size, "
		     "format and sharing are the owner's)", b);
	}
out:
	free(id);
	free(list);
}

/* One ATA PASS-THROUGH(16), non-data with CK_COND: its registers. */
static int ata(int fd, const uint8_t cdb[16], struct sancmd_ata_regs *r)
{
	uint8_t sense[32];
	struct sg_io_hdr io;

	memset(&io, 0, sizeof(io));
	memset(sense, 0, sizeof(sense));
	io.interface_id = 'S';
	io.cmd_len = 16;
	io.cmdp = (unsigned char *)cdb;
	io.dxfer_direction = SG_DXFER_NONE;
	io.sbp = sense;
	io.mx_sb_len = sizeof(sense);
	io.timeout = CMD_MS;
	if (ioctl(fd, SG_IO, &io) < 0)
		return -errno;
	if (io.host_status || (io.driver_status & 0x0f) > 0x08)
		return -EIO;
	if (sancmd_ata_regs(sense, sizeof(sense), r))
		return -EIO;
	/* ERR: the drive aborted it (a max set once this power cycle). */
	return r->status & 0x01 ? -EPERM : 0;
}

static void hpa(int fd, const char *sysroot, const char *name, dev_t rdev,
		struct hidden *h, uint64_t *size)
{
	uint64_t native = h->native - 1, lbs = *size / h->visible, now = 0;
	int lba48 = h->ata_lba48, ret;
	struct sancmd_ata_regs r;
	uint8_t cdb[16];
	char dir[PATH_MAX];

	/* SET MAX is aborted unless READ NATIVE MAX comes just before. */
	hidden_ata_cdb_native(cdb, lba48);
	ret = ata(fd, cdb, &r);
	if (!ret) {
		hidden_ata_cdb_set_max(cdb, lba48, native);
		ret = ata(fd, cdb, &r);
	}
	if (ret) {
		said(h, "HPA not removed: SET MAX ADDRESS%s (%s)",
		     lba48 ? " EXT" : "", ret == -EPERM ? "the drive aborted "
		     "it: a max already set since its power-up, or its "
		     "security locked" : strerror(-ret));
		return;
	}
	snprintf(dir, sizeof(dir), "%s/dev/block/%u:%u/device", sysroot,
		 major(rdev), minor(rdev));
	ret = poke(dir, "rescan");
	if (!ret && ioctl(fd, BLKGETSIZE64, &now) < 0)
		ret = -errno;
	if (!ret && (!lbs || now / lbs != h->native))
		ret = -EAGAIN;
	if (ret) {
		said(h, "HPA removed until the next power cycle (SET MAX "
		     "ADDRESS%s to the native max %llu, volatile): the "
		     "kernel still sees %s's old size (%s), so this run "
		     "does not reach it", lba48 ? " EXT" : "",
		     (unsigned long long)native, name, ret == -EAGAIN ?
		     "rescanned, no change" : strerror(-ret));
		return;
	}
	*size = now;
	h->hpa_removed = 1;
	said(h, "HPA removed until the next power cycle (SET MAX ADDRESS%s "
	     "to the native max %llu, volatile; hidden=restore): %s "
	     "rescanned, the burn reaches all %llu sectors",
	     lba48 ? " EXT" : "", (unsigned long long)native, name,
	     (unsigned long long)h->native);
}

void hidden_restore(int fd, const char *sysroot, const char *name,
		    dev_t rdev, struct hidden *h, uint64_t *size)
{
	uint64_t top;

	h->restored[0] = 0;
	if (h->state != HIDDEN_FOUND)
		return;
	if (h->nns || h->tnvmcap || h->unvmcap) {
		nvme(fd, sysroot, h);
		return;
	}
	if (sysfs_on_usb(sysroot, rdev)) {
		said(h, "nothing restored: a USB disk (no ATA command is sent "
		     "through a USB bridge)");
		return;
	}
	if (h->native > h->visible && h->visible && *size)
		hpa(fd, sysroot, name, rdev, h, size);
	top = h->native ? h->native : h->visible;
	if (h->dco > top)
		said(h, "DCO not restored: DEVICE CONFIGURATION RESTORE "
		     "resets every setting the overlay holds (features, "
		     "modes, its size) and needs a power cycle: kiln does "
		     "not");
}
