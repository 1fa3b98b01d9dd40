/* SPDX-License-Identifier: MIT */
/*
 * Description: end=sanitize's commands sent to a disk that is not NVMe,
 * through SG_IO on its descriptor. INQUIRY says which: a disk behind
 * libata (vendor "ATA", SAT-3) is asked IDENTIFY DEVICE inside ATA
 * PASS-THROUGH(16) and sent SANITIZE (crypto scramble, else block
 * erase, else overwrite), followed with SANITIZE STATUS EXT, or where
 * that is all it has the Security erase, under a user password kiln sets
 * and which the erase clears (kiln clears it itself on any other path);
 * any other SCSI disk is asked REPORT SUPPORTED OPERATION CODES for each
 * SANITIZE service action and sent the one sancmd picks with IMMED,
 * followed with REQUEST SENSE; at discovery, the same status asked of
 * a disk before any command (sanstep_sg_status). A disk that refuses
 * the question, or says it has none, is none with what it answered said.
 */
#include <errno.h>
#include <scsi/sg.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>

#include "base/sysfs.h"
#include "engine/sanstep.h"

/* A question is answered at once by a live disk. */
#define ASK_MS 30000
#define SENSE_LEN 64
/* The user password kiln sets for a Security erase, and says it set. */
#define PASSWORD "kiln"
/* SG_IO's host status for a command the kernel timed out. */
#define DID_TIME_OUT 0x03

struct answer {
	uint8_t status;		/* SCSI status: 0 GOOD, 02h CHECK CONDITION */
	uint8_t sense[SENSE_LEN];
	size_t sense_len;
};

/*
 * One command: 0 with a's status and sense (a command the disk refused
 * is an answer too), or -errno where it was not answered at all.
 */
static int sg(int fd, const uint8_t *cdb, unsigned cdb_len, int dir,
	      void *buf, unsigned len, uint64_t ms, struct answer *a)
{
	struct sg_io_hdr h;

	memset(&h, 0, sizeof(h));
	memset(a, 0, sizeof(*a));
	h.interface_id = 'S';
	h.cmdp = (unsigned char *)cdb;
	h.cmd_len = (unsigned char)cdb_len;
	h.dxfer_direction = len ? dir : SG_DXFER_NONE;
	h.dxferp = buf;
	h.dxfer_len = len;
	h.sbp = a->sense;
	h.mx_sb_len = SENSE_LEN;
	h.timeout = ms > UINT32_MAX ? UINT32_MAX : (unsigned)ms;
	if (ioctl(fd, SG_IO, &h) < 0)
		return -errno;
	if (h.host_status == DID_TIME_OUT)
		return -ETIMEDOUT;
	if (h.host_status)
		return -EIO;
	a->status = h.status;
	a->sense_len = h.sb_len_wr;
	return 0;
}

int sanstep_sg_kind(const uint8_t *inquiry, size_t len)
{
	/* SAT-3: a SATL reports T10 vendor "ATA     " (bytes 8-15). */
	return len >= 16 && !memcmp(inquiry + 8, "ATA     ", 8) ?
	       SANSTEP_ATA : SANSTEP_SCSI;
}

const char *sanstep_sg_said(const uint8_t *sense, size_t len, char *buf,
			    size_t blen)
{
	static const char *const keys[16] = { "NO SENSE", "RECOVERED ERROR",
		"NOT READY", "MEDIUM ERROR", "HARDWARE ERROR",
		"ILLEGAL REQUEST", "UNIT ATTENTION", "DATA PROTECT",
		"BLANK CHECK", "VENDOR SPECIFIC", "COPY ABORTED",
		"ABORTED COMMAND", "RESERVED", "VOLUME OVERFLOW", "MISCOMPARE",
		"COMPLETED" };
	uint8_t key, asc, ascq;
	const char *what = "";

	if (!sense || len < 8 || ((sense[0] & 0x7e) != 0x70 &&
				  (sense[0] & 0x7e) != 0x72)) {
		snprintf(buf, blen, "no sense data");
		return buf;
	}
	if ((sense[0] & 0x7e) == 0x72) {
		key = sense[1] & 0xf;
		asc = sense[2];
		ascq = sense[3];
	} else {
		key = sense[2] & 0xf;
		asc = len >= 14 ? sense[12] : 0;
		ascq = len >= 14 ? sense[13] : 0;
	}
	if (asc == 0x20 && ascq == 0)
		what = ", INVALID COMMAND OPERATION CODE";
	else if (asc == 0x24 && ascq == 0)
		what = ", INVALID FIELD IN CDB";
	else if (asc == 0 && ascq == 0x1d)
		what = ", ATA PASS THROUGH INFORMATION AVAILABLE";
	snprintf(buf, blen, "%s%s (ASC/ASCQ %02Xh/%02Xh)", keys[key], what,
		 asc, ascq);
	return buf;
}

int sanstep_sg_next(int kind, const struct sancmd_progress *p,
		    uint64_t waited, uint64_t deadline)
{
	if (p->state == SANCMD_FAILED)
		return SANSTEP_FAILED;
	if (p->state == SANCMD_DONE)
		return SANSTEP_DONE;
	/*
	 * SCSI has no "completed" of its own: with none in progress and
	 * no failure, the SANITIZE the disk took is over.
	 */
	if (kind == SANSTEP_SCSI && p->state == SANCMD_IDLE)
		return SANSTEP_DONE;
	return waited > deadline ? SANSTEP_LATE : SANSTEP_WAIT;
}

/* None, and why: what was asked, then what the disk said. */
static void none(struct sanstep *s, const char *asked, const char *said)
{
	char why[sizeof(s->choice.why)];

	snprintf(why, sizeof(why), "%s%s", asked, said);
	s->choice.method = SANCMD_NONE;
	memcpy(s->choice.why, why, sizeof(why));
}

/* The sense key, or -1 where there is no sense data. */
static int sense_key(const uint8_t *sense, size_t len)
{
	if (len >= 3 && (sense[0] & 0x7e) == 0x70)
		return sense[2] & 0xf;
	if (len >= 2 && (sense[0] & 0x7e) == 0x72)
		return sense[1] & 0xf;
	return -1;
}

/*
 * An ATA command through PASS-THROUGH(16) with CK_COND: 0 when its
 * status return says no error, -EIO (words in why) when the drive
 * refused it or SAT did, or -errno not answered.
 */
static int ata(int fd, const uint8_t cdb[16], void *data, uint64_t ms,
	       struct sancmd_ata_regs *r, char *why, size_t wlen)
{
	struct answer a;
	char said[96];
	int ret, key;

	ret = sg(fd, cdb, 16, SG_DXFER_TO_DEV, data, data ? 512 : 0, ms, &a);
	if (ret)
		return ret;
	memset(r, 0, sizeof(*r));
	if (!a.status)
		return 0;
	/*
	 * CK_COND makes even a success CHECK CONDITION: RECOVERED ERROR
	 * (or NO SENSE), ATA PASS THROUGH INFORMATION AVAILABLE. Only a
	 * descriptor's registers are trusted for ERR (sancmd_ata_regs).
	 */
	key = sense_key(a.sense, a.sense_len);
	if ((key == 0 || key == 1) &&
	    (sancmd_ata_regs(a.sense, a.sense_len, r) ||
	     (a.sense[0] & 0x7e) != 0x72 || !(r->status & 0x01)))
		return 0;
	snprintf(why, wlen, "%s", sanstep_sg_said(a.sense, a.sense_len, said,
						  sizeof(said)));
	if (r->status & 0x01)
		snprintf(why + strlen(why), wlen - strlen(why),
			 ", ATA ERROR %02Xh", r->error);
	return -EIO;
}

/* A question read into data: 0, -EIO (its sense said in why), or -errno. */
static int ask(int fd, const uint8_t *cdb, unsigned cdb_len, void *data,
	       unsigned len, char *why, size_t wlen)
{
	struct answer a;
	char said[96];
	int ret;

	ret = sg(fd, cdb, cdb_len, SG_DXFER_FROM_DEV, data, len, ASK_MS, &a);
	if (ret)
		return ret;
	if (a.status) {
		snprintf(why, wlen, "%s", sanstep_sg_said(a.sense, a.sense_len,
							  said, sizeof(said)));
		return -EIO;
	}
	return 0;
}

/* IDENTIFY DEVICE into caps: 0, -EIO (why), or -errno. */
static int identify(int fd, struct sancmd_ata_caps *caps, char *why,
		    size_t wlen)
{
	uint8_t cdb[16], id[SANCMD_ATA_ID_LEN];
	int ret;

	sancmd_ata_identify(cdb);
	memset(id, 0, sizeof(id));
	ret = ask(fd, cdb, 16, id, sizeof(id), why, wlen);
	if (ret)
		return ret;
	ret = sancmd_ata_caps(id, sizeof(id), caps);
	if (ret)
		snprintf(why, wlen, "its checksum (word 255) is wrong");
	return ret ? -EIO : 0;
}

const char *sanstep_sg_ata_ready(const struct sancmd_progress *p)
{
	if (p->frozen)
		return "SANITIZE STATUS EXT: sanitize is frozen (SANITIZE "
		       "FREEZE LOCK, until the drive is power-cycled)";
	if (p->state == SANCMD_RUNNING)
		return "SANITIZE STATUS EXT: a sanitize kiln did not send is "
		       "running";
	return NULL;
}

/*
 * Before a SANITIZE: its status, which says whether one can start (a
 * frozen drive aborts it) and can be followed at all. 0, or none said.
 */
static int ata_ready(int fd, struct sanstep *s)
{
	struct sancmd_progress p;
	const char *no;
	char err[64];
	int ret;

	ret = sanstep_sg_poll(fd, s, &p);
	if (ret) {
		snprintf(err, sizeof(err), "%s", strerror(-ret));
		none(s, "ATA SANITIZE STATUS EXT not read, so a SANITIZE "
		     "could not be followed: ", err);
		return -1;
	}
	no = sanstep_sg_ata_ready(&p);
	if (no) {
		none(s, no, "");
		return -1;
	}
	return 0;
}

static int ata_choose(int fd, int rotating, struct sanstep *s)
{
	struct sancmd_ata_caps caps;
	struct sancmd_estimate e = { 0 };
	char why[120];
	int ret = identify(fd, &caps, why, sizeof(why));

	if (ret == -EIO) {
		none(s, "ATA IDENTIFY DEVICE refused: ", why);
		return 0;
	}
	if (ret) {
		none(s, "ATA IDENTIFY DEVICE not answered: ", strerror(-ret));
		return ret;
	}
	sancmd_ata_choose(&caps, &s->choice);
	if (s->choice.method == SANCMD_NONE && caps.security &&
	    !caps.frozen && (caps.locked || caps.enabled)) {
		/* Say which: kiln never sets a password over another's. */
		none(s, "ATA IDENTIFY DEVICE: no Sanitize, and security is ",
		     caps.locked ? "locked (a password is set and in force)" :
		     "enabled (a user password kiln did not set)");
		return 0;
	}
	if (s->choice.method == SANCMD_NONE) {
		snprintf(why, sizeof(why), "%s", s->choice.why);
		none(s, "ATA IDENTIFY DEVICE: ", why);
		return 0;
	}
	if (s->choice.method == SANCMD_SECURITY_ENHANCED)
		e = caps.enhanced_erase;
	else if (s->choice.method == SANCMD_SECURITY_ERASE)
		e = caps.erase;
	/* Said before it is sent: a drive that stalls holds it set. */
	if (s->choice.method == SANCMD_SECURITY_ERASE ||
	    s->choice.method == SANCMD_SECURITY_ENHANCED) {
		snprintf(why, sizeof(why), "%s", s->choice.why);
		snprintf(s->choice.why, sizeof(s->choice.why), "%s; kiln sets "
			 "the user password \"" PASSWORD "\" for it (the erase "
			 "clears it)", why);
	}
	/* ATA gives no estimate of a SANITIZE: the default for its kind. */
	s->deadline = sancmd_deadline(e, rotating, NULL);
	/*
	 * What reads back as zeros (ACS-3): an overwrite with pattern 0,
	 * and the normal erase, which writes binary zeros; crypto, block
	 * and enhanced erase leave what the vendor chose.
	 */
	s->zeros = s->choice.method == SANCMD_OVERWRITE ||
		   s->choice.method == SANCMD_SECURITY_ERASE;
	snprintf(s->promise_why, sizeof(s->promise_why), "%s",
		 s->zeros ? "ACS-3: its erase writes zeros" : "");
	if (s->choice.method == SANCMD_CRYPTO ||
	    s->choice.method == SANCMD_BLOCK ||
	    s->choice.method == SANCMD_OVERWRITE) {
		struct sancmd_ata_sanitize a = { .passes = 1 };

		a.feature = s->choice.method == SANCMD_CRYPTO ?
			    SANCMD_ATA_CRYPTO_EXT :
			    s->choice.method == SANCMD_BLOCK ?
			    SANCMD_ATA_BLOCK_EXT : SANCMD_ATA_OVERWRITE_EXT;
		if (ata_ready(fd, s))
			return 0;
		sancmd_ata_sanitize(s->cdb, &a);
		s->cdb_len = 16;
	}
	return 0;
}

/* One SANITIZE action asked of RSOC: 1, 0, or -EIO with why said. */
static int rsoc(int fd, int action, char *why, size_t wlen)
{
	uint8_t cdb[12], data[64];
	int ret;

	sancmd_scsi_rsoc(cdb, action, sizeof(data));
	memset(data, 0, sizeof(data));
	ret = ask(fd, cdb, 12, data, sizeof(data), why, wlen);
	if (ret)
		return ret;
	ret = sancmd_scsi_supported(data, sizeof(data));
	return ret == 1 ? 1 : 0;
}

static int scsi_choose(int fd, int rotating, struct sanstep *s)
{
	static const uint8_t zeros[4];
	struct sancmd_scsi_caps caps;
	struct sancmd_scsi_sanitize a = { .immed = 1, .passes = 1,
					  .pattern = zeros,
					  .pattern_len = sizeof(zeros) };
	int *has[3] = { &caps.crypto, &caps.block, &caps.overwrite };
	const int actions[3] = { SANCMD_SCSI_CRYPTO, SANCMD_SCSI_BLOCK,
				 SANCMD_SCSI_OVERWRITE };
	char why[120];
	int k, ret;

	for (k = 0; k < 3; k++) {
		ret = rsoc(fd, actions[k], why, sizeof(why));
		if (ret == -EIO) {
			none(s, "SCSI REPORT SUPPORTED OPERATION CODES "
			     "refused: ", why);
			return 0;
		}
		if (ret < 0) {
			none(s, "SCSI REPORT SUPPORTED OPERATION CODES not "
			     "answered: ", strerror(-ret));
			return ret;
		}
		*has[k] = ret;
	}
	sancmd_scsi_choose(&caps, &s->choice);
	if (s->choice.method == SANCMD_NONE) {
		snprintf(why, sizeof(why), "%s", s->choice.why);
		none(s, "SCSI: ", why);
		return 0;
	}
	a.action = actions[s->choice.method - SANCMD_CRYPTO];
	ret = sancmd_scsi_sanitize(s->cdb, s->param, sizeof(s->param),
				   &s->param_len, &a);
	if (ret)
		return ret;
	s->cdb_len = 10;
	s->deadline = sancmd_deadline((struct sancmd_estimate){ 0 },
				      rotating, NULL);
	s->zeros = s->choice.method == SANCMD_OVERWRITE;
	snprintf(s->promise_why, sizeof(s->promise_why), "%s",
		 s->zeros ? "SBC-4: an overwrite with pattern 0" : "");
	return 0;
}

int sanstep_sg_choose(int fd, int rotating, struct sanstep *s)
{
	static const uint8_t inquiry[6] = { 0x12, 0, 0, 0, 96, 0 };
	uint8_t data[96];
	struct answer a;
	struct stat st;
	char said[96];
	int ret;

	/* Not even an INQUIRY through a bridge that may hang on the rest. */
	if (!fstat(fd, &st) && S_ISBLK(st.st_mode) &&
	    sysfs_on_usb("/sys", st.st_rdev)) {
		s->kind = SANSTEP_OTHER;
		none(s, "a USB disk: ", "no ATA or SCSI sanitize is sent "
		     "through a USB bridge");
		return 0;
	}
	memset(data, 0, sizeof(data));
	ret = sg(fd, inquiry, 6, SG_DXFER_FROM_DEV, data, sizeof(data),
		 ASK_MS, &a);
	if (ret || a.status) {
		s->kind = SANSTEP_OTHER;
		none(s, "not an NVMe namespace, nor a SCSI or ATA disk: "
		     "INQUIRY ", ret ? strerror(-ret) :
		     sanstep_sg_said(a.sense, a.sense_len, said,
				     sizeof(said)));
		return 0;
	}
	s->kind = sanstep_sg_kind(data, sizeof(data));
	return s->kind == SANSTEP_ATA ? ata_choose(fd, rotating, s) :
	       scsi_choose(fd, rotating, s);
}

/*
 * kiln's password taken off again: UNLOCK (a drive power-cycled since
 * is locked), then DISABLE PASSWORD. 0, or -EIO.
 */
static int clear_password(int fd)
{
	uint8_t cdb[16], data[512];
	struct sancmd_ata_regs r;
	char why[120];

	sancmd_ata_erase_data(data, PASSWORD, 0);
	sancmd_ata_unlock(cdb);
	ata(fd, cdb, data, ASK_MS, &r, why, sizeof(why));
	sancmd_ata_disable_password(cdb);
	return ata(fd, cdb, data, ASK_MS, &r, why, sizeof(why));
}

/*
 * The Security erase: SET PASSWORD, ERASE PREPARE, ERASE UNIT (which
 * answers once done and clears the password). Whatever came of them,
 * IDENTIFY DEVICE then says whether a password is in force, and kiln
 * clears its own where one is (or where the drive cannot say), so a
 * drive is never left locked by kiln; the note says which.
 */
static int security_erase(int fd, struct sanstep *s)
{
	uint8_t cdb[16], data[512];
	struct sancmd_ata_regs r;
	struct sancmd_ata_caps caps;
	char why[120];
	int ret, set;

	sancmd_ata_erase_data(data, PASSWORD, 0);
	sancmd_ata_set_password(cdb);
	ret = ata(fd, cdb, data, ASK_MS, &r, why, sizeof(why));
	set = !ret;
	if (set) {
		sancmd_ata_erase_prepare(cdb);
		ret = ata(fd, cdb, NULL, ASK_MS, &r, why, sizeof(why));
	}
	if (set && !ret) {
		sancmd_ata_erase_data(data, PASSWORD,
				      s->choice.method ==
				      SANCMD_SECURITY_ENHANCED);
		sancmd_ata_erase_unit(cdb);
		ret = ata(fd, cdb, data, s->deadline * 1000, &r, why,
			  sizeof(why));
	}
	if (!identify(fd, &caps, why, sizeof(why)) && !caps.enabled &&
	    !caps.locked) {
		snprintf(s->note, sizeof(s->note), "%s",
			 !set ? "SECURITY SET PASSWORD refused: no password "
			 "set, nothing erased" : !ret ? "the erase cleared "
			 "kiln's password" : "no password in force after it");
		return ret;
	}
	/*
	 * An ERASE UNIT that answered done clears the password: one still
	 * in force says the erase did not happen, whatever it answered.
	 */
	if (set && !ret)
		ret = -EIO;
	if (clear_password(fd)) {
		s->password_left = 1;
		snprintf(s->note, sizeof(s->note), "kiln's user password "
			 "\"" PASSWORD "\" may be in force and could not be "
			 "cleared: hdparm --security-disable " PASSWORD);
	} else
		snprintf(s->note, sizeof(s->note), "kiln's user password "
			 "cleared again by kiln");
	return ret;
}

int sanstep_sg_send(int fd, struct sanstep *s)
{
	struct sancmd_ata_regs r;
	struct answer a;
	char why[120], said[96];
	int ret;

	if (s->choice.method == SANCMD_SECURITY_ENHANCED ||
	    s->choice.method == SANCMD_SECURITY_ERASE)
		return security_erase(fd, s);
	if (!s->cdb_len)
		return -EOPNOTSUPP;
	if (s->kind == SANSTEP_ATA) {
		/* SANITIZE answers once started; its status says the rest. */
		ret = ata(fd, s->cdb, NULL, ASK_MS, &r, why, sizeof(why));
		if (ret == -EIO)
			snprintf(s->note, sizeof(s->note), "refused: %s", why);
		return ret;
	}
	ret = sg(fd, s->cdb, s->cdb_len, SG_DXFER_TO_DEV, s->param,
		 (unsigned)s->param_len, ASK_MS, &a);
	if (!ret && a.status) {
		snprintf(s->note, sizeof(s->note), "refused: %s",
			 sanstep_sg_said(a.sense, a.sense_len, said,
					 sizeof(said)));
		ret = -EIO;
	}
	return ret;
}

int sanstep_sg_poll(int fd, const struct sanstep *s,
		    struct sancmd_progress *p)
{
	static const uint8_t sense_cdb[6] = { 0x03, 0, 0, 0, 96, 0 };
	struct sancmd_ata_sanitize st = { .feature = SANCMD_ATA_STATUS_EXT };
	struct sancmd_ata_regs r;
	uint8_t cdb[16], data[96];
	struct answer a;
	int ret;

	if (s->kind == SANSTEP_ATA) {
		sancmd_ata_sanitize(cdb, &st);
		ret = sg(fd, cdb, 16, SG_DXFER_NONE, NULL, 0, ASK_MS, &a);
		if (ret)
			return ret;
		ret = sancmd_ata_regs(a.sense, a.sense_len, &r);
		return ret ? ret : sancmd_ata_status(&r, p);
	}
	memset(data, 0, sizeof(data));
	ret = sg(fd, sense_cdb, 6, SG_DXFER_FROM_DEV, data, sizeof(data),
		 ASK_MS, &a);
	if (ret)
		return ret;
	if (a.status)
		return -EIO;
	return sancmd_scsi_progress(data, sizeof(data), p);
}

int sanstep_sg_status(int fd, int *kind, struct sancmd_progress *p,
		      char *why, size_t wlen)
{
	static const uint8_t inquiry[6] = { 0x12, 0, 0, 0, 96, 0 };
	struct sanstep s = { .kind = SANSTEP_OTHER };
	struct sancmd_ata_caps caps;
	uint8_t data[96];
	struct answer a;
	char said[96];
	int ret;

	*kind = SANSTEP_OTHER;
	memset(p, 0, sizeof(*p));
	memset(data, 0, sizeof(data));
	ret = sg(fd, inquiry, 6, SG_DXFER_FROM_DEV, data, sizeof(data),
		 ASK_MS, &a);
	if (ret || a.status) {
		snprintf(why, wlen, "INQUIRY %s", ret ? strerror(-ret) :
			 sanstep_sg_said(a.sense, a.sense_len, said,
					 sizeof(said)));
		return ret ? ret : -EIO;
	}
	s.kind = *kind = sanstep_sg_kind(data, sizeof(data));
	if (s.kind == SANSTEP_ATA) {
		/* A drive without the feature set aborts STATUS EXT too. */
		ret = identify(fd, &caps, said, sizeof(said));
		if (ret) {
			snprintf(why, wlen, "ATA IDENTIFY DEVICE %s",
				 ret == -EIO ? said : strerror(-ret));
			return ret;
		}
		if (!caps.sanitize) {
			snprintf(why, wlen, "ATA IDENTIFY DEVICE: no SANITIZE "
				 "feature set (word 59 bit 12)");
			return -EOPNOTSUPP;
		}
	}
	ret = sanstep_sg_poll(fd, &s, p);
	if (ret)
		snprintf(why, wlen, "%s %s", s.kind == SANSTEP_ATA ?
			 "ATA SANITIZE STATUS EXT" : "REQUEST SENSE",
			 ret == -EIO ? "refused" : strerror(-ret));
	return ret;
}
