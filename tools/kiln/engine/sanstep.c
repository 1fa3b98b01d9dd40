/* SPDX-License-Identifier: MIT */
/*
 * Description: end=sanitize's commands sent to a disk. An NVMe namespace
 * is asked Identify Controller (what it can do), Identify Namespace (its
 * current format, kept, and what erased blocks read as) and, when the
 * method reaches every namespace, the active namespace list and, on a
 * subsystem of more than one controller, the allocated one (kiln's
 * consent covers this one only); then the method sancmd chose is sent
 * through NVME_IOCTL_ADMIN_CMD: Format NVM with secure erase, which
 * answers once done, or a Sanitize, which answers once started and is
 * then followed in the Sanitize Status log (81h), read by the end step
 * (sanstep_poll, sanstep_poll_next). A disk that is not NVMe is handed
 * to sanstep_sg.c (ATA and SCSI, through SG_IO).
 */
#include <errno.h>
#include <linux/nvme_ioctl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>

#include "base/nvme_admin.h"
#include "engine/sanstep.h"

#define OP_IDENTIFY 0x06
#define CNS_NS 0x00
#define CNS_CTRL 0x01
#define CNS_ACTIVE 0x02
#define CNS_ALLOCATED 0x10
#define OP_GET_LOG 0x02
/* The log of the whole subsystem: NSID FFFFFFFFh. */
#define NSID_ALL 0xFFFFFFFFu
/* Identify Controller's CMIC, bit 1: two or more controllers. */
#define IDCTRL_CMIC 76
/* Identify Controller's OACS, bit 3: Namespace Management. */
#define IDCTRL_OACS 256
#define IDNS_DLFEAT 33
/* An Identify is answered at once by a live controller. */
#define IDENTIFY_MS 10000

static int admin_cmd(int fd, const struct sancmd_nvme *cmd, void *buf,
		     uint32_t len, uint32_t timeout_ms)
{
	struct nvme_admin a = { .opcode = cmd->opcode, .nsid = cmd->nsid,
				.cdw10 = cmd->cdw10, .cdw11 = cmd->cdw11,
				.buf = buf, .len = len,
				.timeout_ms = timeout_ms };
	int ret = nvme_admin(fd, &a);

	/* A positive return is the command's NVMe status. */
	return ret > 0 ? -EIO : ret;
}

static int admin(int fd, uint8_t op, uint32_t nsid, uint32_t cdw10,
		 void *buf, uint32_t len, uint32_t timeout_ms)
{
	struct sancmd_nvme cmd = { .opcode = op, .nsid = nsid,
				   .cdw10 = cdw10 };

	return admin_cmd(fd, &cmd, buf, len, timeout_ms);
}

int sanstep_alone(const uint8_t *list, size_t len, uint32_t nsid)
{
	size_t i;
	uint32_t id;

	for (i = 0; i + 4 <= len; i += 4) {
		id = (uint32_t)list[i] | (uint32_t)list[i + 1] << 8 |
		     (uint32_t)list[i + 2] << 16 | (uint32_t)list[i + 3] << 24;
		/* The list ends at its first zero. */
		if (!id)
			break;
		if (id != nsid)
			return 0;
	}
	return 1;
}

/*
 * Another namespace than nsid in list cns (active: this controller's,
 * allocated: the subsystem's): 1, 0, or -errno.
 */
static int others(int fd, uint32_t nsid, uint32_t cns, uint8_t *buf)
{
	int ret;

	memset(buf, 0, SANCMD_NVME_ID_LEN);
	ret = admin(fd, OP_IDENTIFY, 0, cns, buf, SANCMD_NVME_ID_LEN,
		    IDENTIFY_MS);
	if (ret)
		return ret;
	return !sanstep_alone(buf, SANCMD_NVME_ID_LEN, nsid);
}

/*
 * Whether a command that reaches every namespace of the subsystem would
 * reach only nsid: NULL, or why not. The active list is this
 * controller's; where CMIC says the subsystem may have other controllers
 * (a dual-port drive), their private namespaces show only in the
 * allocated list, and where OACS says namespaces are managed, one made
 * but attached to no controller shows only there too (a Sanitize erases
 * it all the same): the allocated list must then be read and hold nsid
 * alone.
 */
static const char *reach(int fd, uint32_t nsid, int multi, int managed,
			 uint8_t *buf, char *why, size_t len)
{
	int ret = others(fd, nsid, CNS_ACTIVE, buf);

	if (ret < 0) {
		snprintf(why, len, "the controller's namespaces not read (%s), "
			 "and its erase reaches every namespace",
			 strerror(-ret));
		return why;
	}
	if (ret)
		return "its erase reaches every namespace (FNA), and this "
		       "controller has another: kiln has consent for this "
		       "one only";
	if (!multi && !managed)
		return NULL;
	ret = others(fd, nsid, CNS_ALLOCATED, buf);
	if (ret < 0) {
		snprintf(why, len, "its erase reaches every namespace of the "
			 "subsystem, and those not attached here (%s) were "
			 "not listed (%s)", multi ? "CMIC" : "OACS",
			 strerror(-ret));
		return why;
	}
	return ret ? "its erase reaches every namespace of the subsystem, "
		     "and another is allocated there: kiln has consent for "
		     "this one only" : NULL;
}

int sanstep_followed(int method)
{
	return method == SANCMD_CRYPTO || method == SANCMD_BLOCK ||
	       method == SANCMD_OVERWRITE;
}

int sanstep_log(int fd, int method, struct sancmd_progress *p)
{
	uint8_t *log = calloc(1, SANCMD_NVME_LOG_LEN);
	/* NUMDL, bits 31:16: the dwords to read, less one. */
	uint32_t cdw10 = SANCMD_NVME_SANITIZE_LOG |
			 (SANCMD_NVME_LOG_LEN / 4 - 1) << 16;
	int ret;

	if (!log)
		return -ENOMEM;
	ret = admin(fd, OP_GET_LOG, NSID_ALL, cdw10, log,
		    SANCMD_NVME_LOG_LEN, IDENTIFY_MS);
	if (!ret)
		ret = sancmd_nvme_log(log, SANCMD_NVME_LOG_LEN, method, p);
	free(log);
	return ret;
}

int sanstep_next(const struct sancmd_progress *p, uint32_t cdw10,
		 uint64_t waited, uint64_t deadline)
{
	/*
	 * A done in the log is this run's only when it was started by the
	 * command kiln sent and nothing was written since (Global Data
	 * Erased): the burn wrote the disk, so an older sanitize's done
	 * has the bit clear.
	 */
	if ((p->state == SANCMD_DONE || p->state == SANCMD_DONE_NODEALLOC) &&
	    p->global_erased && p->cdw10 == cdw10)
		return SANSTEP_DONE;
	if (p->state == SANCMD_FAILED && p->cdw10 == cdw10)
		return SANSTEP_FAILED;
	return waited > deadline ? SANSTEP_LATE : SANSTEP_WAIT;
}

/* The Sanitize sent for s's method: zeros where it is an overwrite. */
static void sanitize_cmd(struct sanstep *s)
{
	struct sancmd_nvme_sanitize a = { .owpass = 1 };

	a.sanact = s->choice.method == SANCMD_CRYPTO ? SANCMD_SANACT_CRYPTO :
		   s->choice.method == SANCMD_BLOCK ? SANCMD_SANACT_BLOCK :
		   SANCMD_SANACT_OVERWRITE;
	sancmd_nvme_sanitize(&s->cmd, &a);
}

static void none(struct sanstep *s, const char *why)
{
	s->choice.method = SANCMD_NONE;
	snprintf(s->choice.why, sizeof(s->choice.why), "%s", why);
}

/* A Sanitize that cannot be followed: Format NVM where the drive has it. */
static void fallback_format(struct sanstep *s,
			    const struct sancmd_nvme_caps *caps, int err)
{
	char why[160];

	if (!caps->format) {
		snprintf(why, sizeof(why), "its Sanitize Status log not read "
			 "(%s), and it has no Format NVM", strerror(-err));
		none(s, why);
		return;
	}
	s->choice.method = caps->fna_crypto ? SANCMD_FORMAT_CRYPTO :
			   SANCMD_FORMAT_ERASE;
	s->choice.all_namespaces = caps->fna_all || caps->fna_erase_all;
	snprintf(s->choice.why, sizeof(s->choice.why), "its Sanitize Status "
		 "log not read (%s): Format NVM with secure erase",
		 strerror(-err));
}

int sanstep_choose(int fd, int rotating, struct sanstep *s)
{
	struct sancmd_nvme_caps caps;
	char why[160];
	uint8_t *buf;
	int nsid, ret, multi, managed;

	memset(s, 0, sizeof(*s));
	nsid = ioctl(fd, NVME_IOCTL_ID);
	if (nsid <= 0)
		return sanstep_sg_choose(fd, rotating, s);
	s->kind = SANSTEP_NVME;
	buf = calloc(1, SANCMD_NVME_ID_LEN);
	if (!buf)
		return -ENOMEM;
	ret = admin(fd, OP_IDENTIFY, 0, CNS_CTRL, buf, SANCMD_NVME_ID_LEN,
		    IDENTIFY_MS);
	if (ret) {
		snprintf(s->choice.why, sizeof(s->choice.why),
			 "NVMe Identify Controller not read: %s",
			 strerror(-ret));
		goto out;
	}
	sancmd_nvme_caps(buf, SANCMD_NVME_ID_LEN, &caps);
	multi = buf[IDCTRL_CMIC] >> 1 & 1;
	managed = buf[IDCTRL_OACS] >> 3 & 1;
	sancmd_nvme_choose(&caps, &s->choice);
	if (sanstep_followed(s->choice.method)) {
		struct sancmd_progress p;

		/* Its own estimate, and the log it is followed in. */
		ret = sanstep_log(fd, s->choice.method, &p);
		if (ret) {
			fallback_format(s, &caps, ret);
			ret = 0;
		} else {
			s->deadline = sancmd_deadline(p.estimate, rotating,
						      NULL);
		}
	}
	if (s->choice.method == SANCMD_NONE)
		goto out;
	s->format.nsid = (uint32_t)nsid;
	s->format.ses = s->choice.method == SANCMD_FORMAT_CRYPTO ? 2 : 1;
	if (sanstep_followed(s->choice.method))
		sanitize_cmd(s);
	ret = admin(fd, OP_IDENTIFY, (uint32_t)nsid, CNS_NS, buf,
		    SANCMD_NVME_ID_LEN, IDENTIFY_MS);
	if (ret) {
		snprintf(s->choice.why, sizeof(s->choice.why),
			 "NVMe Identify Namespace not read: %s",
			 strerror(-ret));
		goto out;
	}
	sancmd_nvme_ns(buf, SANCMD_NVME_ID_LEN, &s->format);
	/* Bits 2:0, what a deallocated block reads as: 001b zeros. */
	s->zeros = (buf[IDNS_DLFEAT] & 7) == 1;
	snprintf(s->promise_why, sizeof(s->promise_why),
		 "NVMe DLFEAT %u%u%ub", buf[IDNS_DLFEAT] >> 2 & 1,
		 buf[IDNS_DLFEAT] >> 1 & 1, buf[IDNS_DLFEAT] & 1);
	if (s->choice.all_namespaces) {
		const char *no = reach(fd, (uint32_t)nsid, multi, managed, buf,
				       why, sizeof(why));

		if (no && sanstep_followed(s->choice.method) &&
		    caps.format && !caps.fna_all && !caps.fna_erase_all) {
			/* A Format of this namespace alone is left. */
			s->choice.method = caps.fna_crypto ?
					   SANCMD_FORMAT_CRYPTO :
					   SANCMD_FORMAT_ERASE;
			s->choice.all_namespaces = 0;
			s->format.ses = caps.fna_crypto ? 2 : 1;
			snprintf(s->choice.why, sizeof(s->choice.why),
				 "a Sanitize reaches every namespace, and "
				 "another is there: Format NVM of this one");
		} else if (no) {
			none(s, no);
			goto out;
		} else {
			s->format.nsid = NSID_ALL;
		}
	}
	/* Format NVM gives no estimate: the default for its kind. */
	if (!sanstep_followed(s->choice.method))
		s->deadline = sancmd_deadline((struct sancmd_estimate){ 0 },
					      rotating, NULL);
out:
	free(buf);
	return ret;
}

int sanstep_send(int fd, struct sanstep *s)
{
	struct sancmd_nvme cmd;
	uint64_t ms = s->deadline * 1000;
	int ret;

	if (s->kind != SANSTEP_NVME)
		return sanstep_sg_send(fd, s);

	/* A Sanitize answers once started; the log says the rest. */
	if (sanstep_followed(s->choice.method))
		return admin_cmd(fd, &s->cmd, NULL, 0, IDENTIFY_MS);
	if (s->choice.method != SANCMD_FORMAT_ERASE &&
	    s->choice.method != SANCMD_FORMAT_CRYPTO)
		return -EOPNOTSUPP;
	ret = sancmd_nvme_format(&cmd, &s->format);
	if (ret)
		return ret;
	/*
	 * The driver aborts a command still out after timeout_ms; the
	 * step's watch is given as long (endstep.wait_ns).
	 */
	return admin(fd, cmd.opcode, cmd.nsid, cmd.cdw10, NULL, 0,
		     ms > UINT32_MAX ? UINT32_MAX : (uint32_t)ms);
}

int sanstep_poll(int fd, const struct sanstep *s, struct sancmd_progress *p)
{
	return s->kind == SANSTEP_NVME ? sanstep_log(fd, s->choice.method, p) :
	       sanstep_sg_poll(fd, s, p);
}

int sanstep_poll_next(const struct sanstep *s,
		      const struct sancmd_progress *p, uint64_t waited)
{
	return s->kind == SANSTEP_NVME ?
	       sanstep_next(p, s->cmd.cdw10, waited, s->deadline) :
	       sanstep_sg_next(s->kind, p, waited, s->deadline);
}

/* An ATA or SCSI method as sent, in words. */
static const char *sg_words(const struct sanstep *s, char *buf, size_t len)
{
	static const char *const ata[] = { "", "crypto scramble",
		"block erase", "overwrite with zeros, 1 pass" };
	static const char *const scsi[] = { "", "cryptographic erase",
		"block erase", "overwrite with zeros, 1 pass" };
	int m = s->choice.method;

	if (m == SANCMD_SECURITY_ENHANCED || m == SANCMD_SECURITY_ERASE)
		snprintf(buf, len, "ATA SECURITY ERASE UNIT, %s",
			 m == SANCMD_SECURITY_ENHANCED ? "enhanced" : "normal");
	else if (sanstep_followed(m))
		snprintf(buf, len, "%s SANITIZE, %s",
			 s->kind == SANSTEP_ATA ? "ATA" : "SCSI",
			 s->kind == SANSTEP_ATA ? ata[m] : scsi[m]);
	else
		snprintf(buf, len, "%s", sancmd_method_name(m));
	return buf;
}

const char *sanstep_words(const struct sanstep *s, char *buf, size_t len)
{
	if (s->kind == SANSTEP_ATA || s->kind == SANSTEP_SCSI)
		return sg_words(s, buf, len);
	if (s->choice.method == SANCMD_FORMAT_CRYPTO)
		snprintf(buf, len, "Format NVM, cryptographic erase (SES 2)");
	else if (s->choice.method == SANCMD_FORMAT_ERASE)
		snprintf(buf, len, "Format NVM, user data erase (SES 1)");
	else if (s->choice.method == SANCMD_CRYPTO)
		snprintf(buf, len, "Sanitize, crypto erase");
	else if (s->choice.method == SANCMD_BLOCK)
		snprintf(buf, len, "Sanitize, block erase");
	else if (s->choice.method == SANCMD_OVERWRITE)
		snprintf(buf, len, "Sanitize, overwrite with zeros, 1 pass");
	else
		snprintf(buf, len, "%s", sancmd_method_name(s->choice.method));
	return buf;
}
