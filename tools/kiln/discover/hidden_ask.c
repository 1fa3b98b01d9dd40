/* SPDX-License-Identifier: MIT */
/*
 * Description: a disk asked for the capacity it hides from the OS. An
 * NVMe namespace's controller through the admin passthrough: Identify
 * Controller (TNVMCAP, UNVMCAP), the active (CNS 02h) and allocated (CNS
 * 10h) namespace lists, and each namespace allocated and not attached
 * here (CNS 11h, its size). Any other disk through SG_IO's ATA
 * PASS-THROUGH(16): IDENTIFY DEVICE, READ NATIVE MAX ADDRESS (EXT) (a
 * refusal counts only where the HPA feature set is claimed), DEVICE
 * CONFIGURATION IDENTIFY where the DCO one is. Only reads: nothing here changes a device. A disk that
 * answers neither is said "not checked" with why.
 */
#include <errno.h>
#include <limits.h>
#include <linux/nvme_ioctl.h>
#include <scsi/sg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/sysmacros.h>

#include "base/nvme_admin.h"
#include "base/sysfs.h"
#include "discover/hidden.h"

#define OP_IDENTIFY 0x06
#define CNS_CTRL 0x01
#define CNS_ACTIVE 0x02
#define CNS_ALLOCATED 0x10
#define CNS_NS_ALLOCATED 0x11
#define ID_LEN 4096
/* Identify Controller's OACS, bit 3: Namespace Management. */
#define IDCTRL_OACS 256
/* A live controller or drive answers these at once. */
#define CMD_MS 10000
/* SAM status CHECK CONDITION: sense data came back. */
#define SAM_CHECK 0x02

static int identify(int fd, uint32_t nsid, uint32_t cns, uint8_t *buf)
{
	struct nvme_admin a = { .opcode = OP_IDENTIFY, .nsid = nsid,
				.cdw10 = cns, .buf = buf, .len = ID_LEN,
				.timeout_ms = CMD_MS };
	int ret;

	memset(buf, 0, ID_LEN);
	ret = nvme_admin(fd, &a);
	/* A positive return is the command's NVMe status: refused. */
	return ret > 0 ? -EOPNOTSUPP : ret;
}

static void nvme_namespaces(int fd, int nsid, struct hidden *h,
			    uint8_t *alloc, uint8_t *active, uint8_t *buf)
{
	uint32_t ns[HIDDEN_MAX_NS];
	char b[32];
	uint64_t bytes;
	int ret, n, i;

	ret = identify(fd, 0, CNS_ACTIVE, active);
	if (!ret)
		ret = identify(fd, 0, CNS_ALLOCATED, alloc);
	if (ret) {
		hidden_note(h, HIDDEN_UNCHECKED, "not checked: namespaces "
			    "allocated and not attached (Identify, active and "
			    "allocated lists: %s)", strerror(-ret));
		return;
	}
	n = hidden_nvme_detached(alloc, active, ID_LEN, ns, HIDDEN_MAX_NS);
	if (!n) {
		hidden_note(h, HIDDEN_NONE, "no namespace allocated and not "
			    "attached");
		return;
	}
	for (i = 0; i < n && i < HIDDEN_MAX_NS; i++) {
		h->ns[h->nns++] = ns[i];
		bytes = identify(fd, ns[i], CNS_NS_ALLOCATED, buf) ? 0 :
			hidden_nvme_ns_bytes(buf, ID_LEN);
		h->bytes += bytes;
		h->ns_bytes[i] = bytes;
		if (bytes)
			hidden_bytes_text(bytes, b, sizeof(b));
		else
			snprintf(b, sizeof(b), "size not read");
		hidden_note(h, HIDDEN_FOUND, "hidden: nsid %u (%s) allocated, "
			    "not attached to this controller", ns[i], b);
	}
	if (n > HIDDEN_MAX_NS)
		hidden_note(h, HIDDEN_FOUND, "hidden: %d more namespaces "
			    "allocated, not attached", n - HIDDEN_MAX_NS);
	snprintf(h->todo, sizeof(h->todo), "attach each namespace not "
		 "attached (nvme attach-ns) and erase it, or delete it (nvme "
		 "delete-ns); hidden=restore with destroy-data naming the "
		 "disk attaches it; this one was nsid %d", nsid);
}

static void nvme(int fd, int nsid, struct hidden *h)
{
	uint8_t *buf = malloc(3 * ID_LEN);
	char b[32], t[32];
	int ret, managed;

	if (!buf) {
		hidden_note(h, HIDDEN_UNCHECKED, "not checked: %s",
			    strerror(ENOMEM));
		return;
	}
	ret = identify(fd, 0, CNS_CTRL, buf);
	if (ret) {
		hidden_note(h, HIDDEN_UNCHECKED, "not checked: Identify "
			    "Controller (%s)", strerror(-ret));
		goto out;
	}
	managed = buf[IDCTRL_OACS] >> 3 & 1;
	hidden_nvme_cap(buf, ID_LEN, &h->tnvmcap, &h->unvmcap);
	nvme_namespaces(fd, nsid, h, buf + ID_LEN, buf + 2 * ID_LEN, buf);
	if (h->unvmcap) {
		h->bytes += h->unvmcap;
		hidden_bytes_text(h->unvmcap, b, sizeof(b));
		hidden_bytes_text(h->tnvmcap, t, sizeof(t));
		hidden_note(h, HIDDEN_FOUND, "hidden: %s of NVM capacity "
			    "allocated to no namespace (UNVMCAP, of TNVMCAP "
			    "%s)", b, t);
		if (!h->todo[0])
			snprintf(h->todo, sizeof(h->todo), "unallocated NVM "
				 "capacity is reached by an NVMe Sanitize of "
				 "the subsystem, or by a namespace made over "
				 "it and erased: kiln does not make one");
	} else if (managed && !h->tnvmcap) {
		hidden_note(h, HIDDEN_UNCHECKED, "not checked: unallocated "
			    "capacity (TNVMCAP not reported)");
	} else {
		hidden_note(h, HIDDEN_NONE, "no unallocated NVM capacity");
	}
out:
	free(buf);
}

/* One ATA PASS-THROUGH(16): 0, or -errno; sense into sense[32]. */
static int sgio(int fd, const uint8_t cdb[16], uint8_t *data,
		unsigned len, uint8_t *sense, int *status)
{
	struct sg_io_hdr io;

	memset(&io, 0, sizeof(io));
	memset(sense, 0, 32);
	io.interface_id = 'S';
	io.cmd_len = 16;
	io.cmdp = (unsigned char *)cdb;
	io.dxfer_direction = len ? SG_DXFER_FROM_DEV : SG_DXFER_NONE;
	io.dxferp = data;
	io.dxfer_len = len;
	io.sbp = sense;
	io.mx_sb_len = 32;
	io.timeout = CMD_MS;
	if (ioctl(fd, SG_IO, &io) < 0)
		return -errno;
	*status = io.status;
	if (io.host_status || (io.driver_status & 0x0f) > 0x08)
		return -EIO;
	return 0;
}

/* A command with data: 0 when it came back whole and well. */
static int ata_read(int fd, const uint8_t cdb[16], uint8_t *data)
{
	uint8_t sense[32];
	int status = 0, ret;

	memset(data, 0, 512);
	ret = sgio(fd, cdb, data, 512, sense, &status);
	if (ret)
		return ret;
	return status ? -EOPNOTSUPP : 0;
}

static void ata(int fd, unsigned lbs, struct hidden *h)
{
	uint8_t cdb[16], data[512], sense[32];
	struct hidden_ata_id a;
	uint64_t native = 0, dco = 0;
	int ret, status = 0, native_err, dco_err;

	hidden_ata_cdb_identify(cdb);
	ret = ata_read(fd, cdb, data);
	if (ret == -ENOTTY || ret == -EINVAL || ret == -EOPNOTSUPP) {
		hidden_note(h, HIDDEN_UNCHECKED, "not checked: neither NVMe "
			    "nor ATA (ATA PASS-THROUGH refused: %s)",
			    strerror(-ret));
		return;
	}
	if (!ret)
		ret = hidden_ata_identify(data, sizeof(data), &a);
	if (ret) {
		hidden_note(h, HIDDEN_UNCHECKED, "not checked: IDENTIFY DEVICE "
			    "(%s)", strerror(-ret));
		return;
	}
	/*
	 * Asked even where word 82 does not claim the HPA feature set: a
	 * drive may answer it all the same (QEMU's does), and one that
	 * refuses it and claims none has no HPA.
	 */
	hidden_ata_cdb_native(cdb, a.lba48);
	native_err = sgio(fd, cdb, NULL, 0, sense, &status);
	if (!native_err)
		native_err = hidden_ata_native(sense, sizeof(sense), a.lba48,
					       &native);
	if (native_err && !a.hpa)
		native_err = -EOPNOTSUPP;
	dco_err = -EOPNOTSUPP;
	if (a.dco) {
		hidden_ata_cdb_dco(cdb);
		dco_err = ata_read(fd, cdb, data);
		if (dco_err == -EOPNOTSUPP)
			dco_err = -EIO;	/* supported, and refused */
		if (!dco_err)
			dco_err = hidden_ata_dco(data, sizeof(data), &dco);
	}
	hidden_ata_judge(h, &a, native_err, native, dco_err, dco, lbs);
}

void hidden_check(int fd, unsigned lbs, const char *sysroot, dev_t rdev,
		  struct hidden *h)
{
	int nsid;

	memset(h, 0, sizeof(*h));
	if (sysfs_on_usb(sysroot, rdev)) {
		hidden_note(h, HIDDEN_UNCHECKED, "not checked: a USB disk (no "
			    "ATA command is sent through a USB bridge)");
		return;
	}
	nsid = ioctl(fd, NVME_IOCTL_ID);
	if (nsid > 0)
		nvme(fd, nsid, h);
	else
		ata(fd, lbs, h);
}
