/* SPDX-License-Identifier: MIT */
/*
 * Description: the device's own sanitize commands, as bytes: NVMe
 * Sanitize and Format NVM, ATA SANITIZE DEVICE and SECURITY ERASE UNIT
 * through ATA PASS-THROUGH(16), SCSI SANITIZE; what a drive says it can
 * do (NVMe Identify Controller, ATA IDENTIFY DEVICE) and the method
 * chosen from it; how far the drive says it is (NVMe log 81h, the ATA
 * status return, SCSI sense); the deadline from its own estimate; and
 * each method's NIST SP 800-88 class and IEEE 2883 technique. Pure: no
 * descriptor, no ioctl, so each is proven on the specifications' layouts.
 */
#ifndef KILN_SANCMD_H
#define KILN_SANCMD_H

#include <stddef.h>
#include <stdint.h>

/* The methods, one table of names and classes (sancmd_method_*). */
enum sancmd_method {
	SANCMD_NONE,		/* the drive has none kiln would use */
	SANCMD_CRYPTO,		/* sanitize crypto erase / CRYPTO SCRAMBLE */
	SANCMD_BLOCK,		/* sanitize block erase */
	SANCMD_OVERWRITE,	/* sanitize overwrite, by the device */
	SANCMD_FORMAT_CRYPTO,	/* NVMe Format NVM, SES 010b */
	SANCMD_FORMAT_ERASE,	/* NVMe Format NVM, SES 001b */
	SANCMD_SECURITY_ENHANCED, /* ATA SECURITY ERASE UNIT, enhanced */
	SANCMD_SECURITY_ERASE,	/* ATA SECURITY ERASE UNIT, normal */
	SANCMD_ZERO,		/* end=zero: zeros written by the host */
	SANCMD_DISCARD,		/* end=discard: not a sanitization */
	SANCMD_METHODS
};

/* NIST SP 800-88r2's classes; discard is neither. */
enum sancmd_class {
	SANCMD_CLASS_NONE,
	SANCMD_CLASS_CLEAR,
	SANCMD_CLASS_PURGE,
};

const char *sancmd_method_name(int method);	/* "crypto-erase" */
int sancmd_method_class(int method);		/* enum sancmd_class */
const char *sancmd_class_name(int cls);		/* "purge" */
const char *sancmd_method_technique(int method); /* "Cryptographic Erase" */

/* What a drive says of its last or current sanitize. */
enum sancmd_state {
	SANCMD_UNKNOWN,		/* a value the standard reserves */
	SANCMD_NEVER,		/* never sanitized (NVMe) */
	SANCMD_IDLE,		/* none running; how the last ended unsaid */
	SANCMD_RUNNING,		/* in progress: percent is how far */
	SANCMD_DONE,		/* completed without error */
	SANCMD_DONE_NODEALLOC,	/* completed, blocks left allocated (NVMe) */
	SANCMD_FAILED,		/* failed: only exit failure mode clears it */
	SANCMD_STATES
};

const char *sancmd_state_name(int state);

/*
 * An estimate of seconds: none, exactly this, or at least this (ATA's
 * 255, "more than 508 minutes").
 */
enum sancmd_est {
	SANCMD_EST_NONE,
	SANCMD_EST_EXACT,
	SANCMD_EST_AT_LEAST,
};

struct sancmd_estimate {
	int kind;		/* enum sancmd_est */
	uint64_t seconds;
};

struct sancmd_progress {
	int state;		/* enum sancmd_state */
	unsigned fraction;	/* of 65536 done; 65535 when not running */
	unsigned percent;	/* 0-100, rounded down */
	/* NVMe log 81h only. */
	unsigned passes;	/* overwrite passes completed */
	int global_erased;	/* no user data written since a sanitize */
	uint32_t cdw10;		/* the command that started the last */
	struct sancmd_estimate estimate;	/* for the method asked */
	/* ATA only. */
	int frozen;		/* SANITIZE FREEZE LOCK in force */
	unsigned reason;	/* a failure's reason, ACS-3 LBA 7:0 */
};

/* ---- NVMe ---- */

#define SANCMD_NVME_SANITIZE 0x84
#define SANCMD_NVME_FORMAT 0x80
#define SANCMD_NVME_SANITIZE_LOG 0x81
#define SANCMD_NVME_ID_LEN 4096
#define SANCMD_NVME_LOG_LEN 512

/* SANACT, the Sanitize Action of Command Dword 10 bits 2:0. */
enum sancmd_sanact {
	SANCMD_SANACT_EXIT_FAILURE = 1,
	SANCMD_SANACT_BLOCK = 2,
	SANCMD_SANACT_OVERWRITE = 3,
	SANCMD_SANACT_CRYPTO = 4,
};

/* One admin command: the fields of its 64-byte submission entry kiln sets. */
struct sancmd_nvme {
	uint8_t opcode;
	uint32_t nsid;
	uint32_t cdw10, cdw11, cdw12, cdw13, cdw14, cdw15;
};

struct sancmd_nvme_sanitize {
	int sanact;		/* enum sancmd_sanact */
	int ause;		/* allow unrestricted sanitize exit */
	unsigned owpass;	/* overwrite passes, 1-16 (16 is sent as 0) */
	int oipbp;		/* invert the pattern between passes */
	int ndas;		/* no deallocate after sanitize */
	uint32_t pattern;	/* overwrite pattern (cdw11) */
};

struct sancmd_nvme_format {
	uint32_t nsid;		/* the namespace, or 0xFFFFFFFF all */
	unsigned lbaf;		/* LBA format index, 0-15 (sancmd_nvme_ns) */
	int mset, pi, pil;	/* as the namespace has them */
	unsigned ses;		/* 0 none, 1 user data erase, 2 crypto */
};

/* What Identify Controller says of sanitizing. */
struct sancmd_nvme_caps {
	int crypto, block, overwrite;	/* SANICAP CES, BES, OWS */
	int ndi;			/* SANICAP no-deallocate inhibited */
	unsigned nodmmas;		/* SANICAP bits 31:30 */
	int format;			/* OACS bit 1: Format NVM */
	int fna_all, fna_erase_all, fna_crypto;	/* FNA bits 0, 1, 2 */
};

/* What the method chosen is, and why (always said, for none too). */
struct sancmd_choice {
	int method;		/* enum sancmd_method */
	/*
	 * It erases every namespace of the controller, not only the one
	 * asked: NVMe Sanitize always, Format NVM where FNA says so. The
	 * caller's consent must cover them all.
	 */
	int all_namespaces;
	char why[160];
};

/* cmd from s or f: 0, or -EINVAL for a field out of range or NULL. */
int sancmd_nvme_sanitize(struct sancmd_nvme *cmd,
			 const struct sancmd_nvme_sanitize *s);
int sancmd_nvme_format(struct sancmd_nvme *cmd,
		       const struct sancmd_nvme_format *f);
/* The 64-byte submission queue entry (little-endian), as the spec lays it. */
int sancmd_nvme_bytes(const struct sancmd_nvme *cmd, uint8_t sqe[64]);

/*
 * The one order of every transport's Sanitize: crypto erase (seconds),
 * block erase (minutes), overwrite (hours), the first the device has,
 * into c with its name from names[3] (crypto, block, overwrite) as why:
 * 1 when one was chosen, else 0 and c left as it was.
 */
int sancmd_pick(int crypto, int block, int overwrite,
		const char *const names[3], struct sancmd_choice *c);

/*
 * Identify Controller (4096 bytes) read into caps, and the method chosen:
 * crypto erase, block erase, overwrite, Format NVM with secure erase (SES
 * 2 where FNA says crypto erase, else 1), else none. 0, or -EINVAL.
 */
int sancmd_nvme_caps(const uint8_t *id, size_t len,
		     struct sancmd_nvme_caps *caps);
void sancmd_nvme_choose(const struct sancmd_nvme_caps *caps,
			struct sancmd_choice *c);
/* Identify Namespace's current format (FLBAS, DPS) into f's lbaf..pil. */
int sancmd_nvme_ns(const uint8_t *idns, size_t len,
		   struct sancmd_nvme_format *f);

/*
 * Sanitize Status log 81h (512 bytes) into p, with the estimate of method
 * (crypto, block or overwrite). 0, or -EINVAL.
 */
int sancmd_nvme_log(const uint8_t *log, size_t len, int method,
		    struct sancmd_progress *p);

/* ---- ATA, through SAT's ATA PASS-THROUGH(16) ---- */

#define SANCMD_ATA_PT16 0x85
#define SANCMD_ATA_SANITIZE 0xB4
#define SANCMD_ATA_ERASE_PREPARE 0xF3
#define SANCMD_ATA_ERASE_UNIT 0xF4
#define SANCMD_ATA_SET_PASSWORD 0xF1
#define SANCMD_ATA_UNLOCK 0xF2
#define SANCMD_ATA_DISABLE_PASSWORD 0xF6
#define SANCMD_ATA_IDENTIFY 0xEC
#define SANCMD_ATA_ID_LEN 512

/* SANITIZE DEVICE's subcommands, in its FEATURE field (ACS-3 7.35). */
enum sancmd_ata_feature {
	SANCMD_ATA_STATUS_EXT = 0x0000,
	SANCMD_ATA_CRYPTO_EXT = 0x0011,
	SANCMD_ATA_BLOCK_EXT = 0x0012,
	SANCMD_ATA_OVERWRITE_EXT = 0x0014,
};

struct sancmd_ata_sanitize {
	int feature;		/* enum sancmd_ata_feature */
	int failure_mode;	/* COUNT bit 4: failure mode (ause) */
	unsigned passes;	/* overwrite: 1-16 (16 sent as 0) */
	int invert;		/* overwrite: invert between passes */
	uint32_t pattern;	/* overwrite pattern */
	int clear_failed;	/* status: clear sanitize operation failed */
};

struct sancmd_ata_caps {
	int sanitize, crypto, overwrite, block;	/* word 59 bits 12-15 */
	int security, enabled, locked, frozen;	/* words 82, 128 */
	int enhanced;				/* word 128 bit 5 */
	struct sancmd_estimate erase, enhanced_erase;	/* words 89, 90 */
};

/* The 16-byte CDBs: 0, or -EINVAL. */
int sancmd_ata_sanitize(uint8_t cdb[16], const struct sancmd_ata_sanitize *s);
int sancmd_ata_erase_prepare(uint8_t cdb[16]);
int sancmd_ata_erase_unit(uint8_t cdb[16]);
int sancmd_ata_set_password(uint8_t cdb[16]);
/* The way back: SECURITY UNLOCK, then DISABLE PASSWORD (the same data). */
int sancmd_ata_unlock(uint8_t cdb[16]);
int sancmd_ata_disable_password(uint8_t cdb[16]);
/* IDENTIFY DEVICE, its 512 bytes read in. */
int sancmd_ata_identify(uint8_t cdb[16]);
/*
 * The 512-byte data of SECURITY ERASE UNIT (or SET PASSWORD: master 0,
 * enhanced 0), the user password of up to 32 bytes: 0, or -EINVAL. The
 * erase takes a password in force: SET PASSWORD, then ERASE PREPARE and
 * at once ERASE UNIT with the same one (the erase clears it).
 */
int sancmd_ata_erase_data(uint8_t data[512], const char *password,
			  int enhanced);

/*
 * IDENTIFY DEVICE (512 bytes) into caps, and the method chosen. Its
 * times are the Security erase's: ATA gives no estimate of a SANITIZE,
 * whose deadline is the default.
 */
int sancmd_ata_caps(const uint8_t *id, size_t len,
		    struct sancmd_ata_caps *caps);
void sancmd_ata_choose(const struct sancmd_ata_caps *caps,
		       struct sancmd_choice *c);

/*
 * The ATA registers SAT returns after a command with CK_COND (descriptor
 * 09h of descriptor sense, or fixed sense's fields, which lack COUNT
 * 15:8: count_hi_known 0 then, unless its flag says it is zero).
 */
struct sancmd_ata_regs {
	uint8_t error, status, device;
	uint16_t count;
	uint64_t lba;
	int count_hi_known;
};

int sancmd_ata_regs(const uint8_t *sense, size_t len,
		    struct sancmd_ata_regs *r);
/* SANITIZE STATUS EXT's return into p: 0, -EINVAL, or -EPROTO unsaid. */
int sancmd_ata_status(const struct sancmd_ata_regs *r,
		      struct sancmd_progress *p);

/* ---- SCSI ---- */

#define SANCMD_SCSI_SANITIZE 0x48

enum sancmd_scsi_action {
	SANCMD_SCSI_OVERWRITE = 0x01,
	SANCMD_SCSI_BLOCK = 0x02,
	SANCMD_SCSI_CRYPTO = 0x03,
	SANCMD_SCSI_EXIT_FAILURE = 0x1F,
};

struct sancmd_scsi_sanitize {
	int action;		/* enum sancmd_scsi_action */
	int immed, ause;
	/* Overwrite's parameter list. */
	unsigned passes;	/* 1-31 */
	int invert;
	const uint8_t *pattern;	/* the initialization pattern */
	size_t pattern_len;	/* 1 to a logical block */
};

/*
 * The 10-byte CDB and, for overwrite, its parameter list into param
 * (room for 4 + pattern_len bytes; *param_len says how many): 0, -EINVAL.
 */
int sancmd_scsi_sanitize(uint8_t cdb[10], uint8_t *param, size_t room,
			 size_t *param_len, const struct sancmd_scsi_sanitize *s);
/* Sense data (fixed 70h/71h or descriptor 72h/73h) into p: 0, -EINVAL. */
int sancmd_scsi_progress(const uint8_t *sense, size_t len,
			 struct sancmd_progress *p);

/*
 * Which SANITIZE actions a logical unit has, asked one at a time with
 * REPORT SUPPORTED OPERATION CODES (A3h/0Ch) for 48h and that action:
 * its 12-byte CDB, and its answer read (1 supported, 0 not, -ENODATA
 * not known yet, -EINVAL short or NULL).
 */
#define SANCMD_SCSI_RSOC 0xA3

struct sancmd_scsi_caps {
	int crypto, block, overwrite;
};

int sancmd_scsi_rsoc(uint8_t cdb[12], int action, uint32_t alloc);
int sancmd_scsi_supported(const uint8_t *data, size_t len);
void sancmd_scsi_choose(const struct sancmd_scsi_caps *caps,
			struct sancmd_choice *c);

/* ---- The deadline ---- */

#define SANCMD_DEFAULT_ROTATING (24 * 3600ull)
#define SANCMD_DEFAULT_FLASH (2 * 3600ull)

/* Estimates in the devices' own units, as seconds. */
struct sancmd_estimate sancmd_nvme_estimate(uint32_t seconds);
struct sancmd_estimate sancmd_ata_estimate(uint16_t word);

/*
 * How long to wait for a sanitize the device estimated at e: twice it and
 * ten minutes, or the default for a rotating or a flash disk where it
 * gave none (at least twice "at least" and ten minutes). Seconds,
 * saturated; *why (may be NULL) says which in words.
 */
uint64_t sancmd_deadline(struct sancmd_estimate e, int rotating,
			 const char **why);

#endif
