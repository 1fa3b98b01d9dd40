/* SPDX-License-Identifier: MIT */
/*
 * Description: the sanitize methods' one table (names, NIST SP 800-88r2
 * class, IEEE 2883 technique), the deadline a device's own estimate
 * gives, and NVMe's part, in the NVM Express Base Specification 2.0's
 * layouts: Sanitize (84h) and Format NVM (80h) as 64-byte submission
 * entries, Identify Controller's SANICAP, OACS and FNA and the method
 * chosen from them, Identify Namespace's current format (so a Format
 * keeps it), and the Sanitize Status log (81h). ATA and SCSI are in
 * sancmd_scsi.c: both travel as SCSI commands.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "engine/sancmd.h"

/*
 * The classes follow IEEE 2883-2022, which NIST SP 800-88r2 defers to for
 * each interface's techniques: the device's Sanitize crypto erase, block
 * erase and overwrite purge; zeros written by the host clear. Where kiln
 * is unsure it claims the lesser class, since a certificate that says
 * "clear" of a purge is wrong only on the safe side:
 * - Format NVM's secure erase (SES 1 or 2) reaches the user data the
 *   namespace maps, but the spec does not promise spare blocks, caches
 *   or other copies, which is why NVMe added Sanitize: clear here.
 * - ATA SECURITY ERASE UNIT was a purge of hard disks in 800-88r1; on
 *   flash what it reaches is the firmware's choice: clear here.
 * Format NVM's user data erase is named as NVMe names it: the device may
 * overwrite, erase blocks or change a key, and IEEE 2883 has no technique
 * for "any of these".
 */
static const struct {
	const char *name;
	int cls;
	const char *technique;
} methods[SANCMD_METHODS] = {
	[SANCMD_NONE] = { "none", SANCMD_CLASS_NONE, "" },
	[SANCMD_CRYPTO] = { "crypto-erase", SANCMD_CLASS_PURGE,
		"Cryptographic Erase" },
	[SANCMD_BLOCK] = { "block-erase", SANCMD_CLASS_PURGE, "Block Erase" },
	[SANCMD_OVERWRITE] = { "overwrite", SANCMD_CLASS_PURGE, "Overwrite" },
	[SANCMD_FORMAT_CRYPTO] = { "format-crypto-erase", SANCMD_CLASS_CLEAR,
		"Cryptographic Erase" },
	[SANCMD_FORMAT_ERASE] = { "format-user-data-erase",
		SANCMD_CLASS_CLEAR, "User Data Erase" },
	[SANCMD_SECURITY_ENHANCED] = { "security-erase-enhanced",
		SANCMD_CLASS_CLEAR, "Overwrite" },
	[SANCMD_SECURITY_ERASE] = { "security-erase", SANCMD_CLASS_CLEAR,
		"Overwrite" },
	[SANCMD_ZERO] = { "zero", SANCMD_CLASS_CLEAR, "Overwrite" },
	/* A discard promises at most what reads return, not the media. */
	[SANCMD_DISCARD] = { "discard", SANCMD_CLASS_NONE, "" },
};

static int method_ok(int method)
{
	return method >= 0 && method < SANCMD_METHODS;
}

const char *sancmd_method_name(int method)
{
	return method_ok(method) ? methods[method].name : "unknown";
}

int sancmd_method_class(int method)
{
	return method_ok(method) ? methods[method].cls : SANCMD_CLASS_NONE;
}

const char *sancmd_method_technique(int method)
{
	return method_ok(method) ? methods[method].technique : "";
}

const char *sancmd_class_name(int cls)
{
	static const char *const names[] = { "none", "clear", "purge" };

	return cls >= 0 && cls <= SANCMD_CLASS_PURGE ? names[cls] : "unknown";
}

const char *sancmd_state_name(int state)
{
	static const char *const names[] = { "unknown", "never", "idle",
		"running", "done", "done-no-deallocate", "failed" };

	return state >= 0 && state < SANCMD_STATES ? names[state] : "unknown";
}

/* ---- The deadline ---- */

/* Ten minutes for the commands around it and a slow first answer. */
#define DEADLINE_SLACK 600ull

static uint64_t twice_and_slack(uint64_t s)
{
	if (s > (UINT64_MAX - DEADLINE_SLACK) / 2)
		return UINT64_MAX;
	return 2 * s + DEADLINE_SLACK;
}

/*
 * Twice the estimate: the device's own figure is for an idle drive at its
 * rated temperature, and a drive on a loaded burn-in rack or a firmware
 * that rounds down takes longer; a deadline that cuts a sanitize short
 * leaves a drive in sanitize failure mode, far worse than a late one.
 * The ten minutes cover an estimate of seconds (crypto erase).
 * A device that gives none (NVMe FFFFFFFFh, or 0, "done when the command
 * completes", which nothing can time) gets a stated default: a day for
 * a rotating disk (an overwrite of 20 TB at 250 MB/s is 22 hours), two
 * hours for flash (a block erase of the largest SSDs is minutes).
 */
uint64_t sancmd_deadline(struct sancmd_estimate e, int rotating,
			 const char **why)
{
	uint64_t def = rotating ? SANCMD_DEFAULT_ROTATING : SANCMD_DEFAULT_FLASH;
	const char *said;
	uint64_t d;

	if (e.kind == SANCMD_EST_EXACT && e.seconds) {
		d = twice_and_slack(e.seconds);
		said = "twice the device's estimate and ten minutes";
	} else if (e.kind == SANCMD_EST_AT_LEAST && e.seconds) {
		d = twice_and_slack(e.seconds);
		said = "twice the least the device estimated and ten minutes";
		if (def > d) {
			d = def;
			said = rotating ?
			       "the default for a rotating disk (24 hours): the device said only more than its figure" :
			       "the default for flash (2 hours): the device said only more than its figure";
		}
	} else {
		d = def;
		said = rotating ?
		       "the default for a rotating disk (24 hours): no estimate from the device" :
		       "the default for flash (2 hours): no estimate from the device";
	}
	if (why)
		*why = said;
	return d;
}

/* NVMe's estimates are seconds; FFFFFFFFh is none, 0 is nothing timed. */
struct sancmd_estimate sancmd_nvme_estimate(uint32_t seconds)
{
	struct sancmd_estimate e = { SANCMD_EST_NONE, 0 };

	if (seconds && seconds != UINT32_MAX) {
		e.kind = SANCMD_EST_EXACT;
		e.seconds = seconds;
	}
	return e;
}

/* ---- NVMe ---- */

static uint16_t le16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static void put_le32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

/*
 * Sanitize (NVMe Base 2.0), Command Dword 10: SANACT 2:0, AUSE 3,
 * OWPASS 7:4 (0 is 16 passes), OIPBP 8, NDAS 9; Dword 11 the overwrite
 * pattern. The namespace field is unused: sanitize is the whole NVM
 * subsystem's.
 */
int sancmd_nvme_sanitize(struct sancmd_nvme *cmd,
			 const struct sancmd_nvme_sanitize *s)
{
	uint32_t cdw10;
	int over;

	if (!cmd || !s || s->sanact < SANCMD_SANACT_EXIT_FAILURE ||
	    s->sanact > SANCMD_SANACT_CRYPTO)
		return -EINVAL;
	over = s->sanact == SANCMD_SANACT_OVERWRITE;
	if (over && (s->owpass < 1 || s->owpass > 16))
		return -EINVAL;
	cdw10 = (uint32_t)s->sanact;
	if (s->ause)
		cdw10 |= 1u << 3;
	if (over) {
		cdw10 |= (s->owpass & 0xf) << 4;
		if (s->oipbp)
			cdw10 |= 1u << 8;
	}
	if (s->ndas)
		cdw10 |= 1u << 9;
	memset(cmd, 0, sizeof(*cmd));
	cmd->opcode = SANCMD_NVME_SANITIZE;
	cmd->cdw10 = cdw10;
	cmd->cdw11 = over ? s->pattern : 0;
	return 0;
}

/*
 * Format NVM (NVMe Base 2.0), Command Dword 10: LBAF 3:0 (its upper
 * bits 13:12 as LBAFU), MSET 4, PI 7:5, PIL 8, SES 11:9.
 */
int sancmd_nvme_format(struct sancmd_nvme *cmd,
		       const struct sancmd_nvme_format *f)
{
	if (!cmd || !f || f->lbaf > 63 || f->ses > 2 || f->pi < 0 ||
	    f->pi > 7)
		return -EINVAL;
	memset(cmd, 0, sizeof(*cmd));
	cmd->opcode = SANCMD_NVME_FORMAT;
	cmd->nsid = f->nsid;
	cmd->cdw10 = (f->lbaf & 0xf) | (f->mset ? 1u << 4 : 0) |
		     (uint32_t)f->pi << 5 | (f->pil ? 1u << 8 : 0) |
		     f->ses << 9 | (f->lbaf >> 4) << 12;
	return 0;
}

/*
 * The submission queue entry (NVMe Base 2.0, Common Command Format):
 * opcode byte 0, flags 1 and the command identifier 2-3 (the kernel's),
 * NSID 4-7, the pointers 16-39 (the kernel's), Dwords 10-15 at 40-63.
 */
int sancmd_nvme_bytes(const struct sancmd_nvme *cmd, uint8_t sqe[64])
{
	if (!cmd || !sqe)
		return -EINVAL;
	memset(sqe, 0, 64);
	sqe[0] = cmd->opcode;
	put_le32(sqe + 4, cmd->nsid);
	put_le32(sqe + 40, cmd->cdw10);
	put_le32(sqe + 44, cmd->cdw11);
	put_le32(sqe + 48, cmd->cdw12);
	put_le32(sqe + 52, cmd->cdw13);
	put_le32(sqe + 56, cmd->cdw14);
	put_le32(sqe + 60, cmd->cdw15);
	return 0;
}

/*
 * Identify Controller (NVMe Base 2.0): OACS bytes 257:256 (bit 1 Format
 * NVM), SANICAP bytes 331:328 (CES 0, BES 1, OWS 2, NDI 29, NODMMAS
 * 31:30), FNA byte 524 (all namespaces 0, secure erase of all 1, crypto
 * erase 2).
 */
int sancmd_nvme_caps(const uint8_t *id, size_t len,
		     struct sancmd_nvme_caps *caps)
{
	uint32_t sanicap;

	if (!id || !caps || len < SANCMD_NVME_ID_LEN)
		return -EINVAL;
	memset(caps, 0, sizeof(*caps));
	sanicap = le32(id + 328);
	caps->crypto = sanicap & 1;
	caps->block = sanicap >> 1 & 1;
	caps->overwrite = sanicap >> 2 & 1;
	caps->ndi = sanicap >> 29 & 1;
	caps->nodmmas = sanicap >> 30;
	caps->format = le16(id + 256) >> 1 & 1;
	caps->fna_all = id[524] & 1;
	caps->fna_erase_all = id[524] >> 1 & 1;
	caps->fna_crypto = id[524] >> 2 & 1;
	return 0;
}

/*
 * The strongest the controller has, fastest first among equals: crypto
 * erase (seconds), block erase (minutes), overwrite (hours); then Format
 * NVM's secure erase, which is weaker (above).
 */
int sancmd_pick(int crypto, int block, int overwrite,
		const char *const names[3], struct sancmd_choice *c)
{
	static const int methods[3] = { SANCMD_CRYPTO, SANCMD_BLOCK,
					SANCMD_OVERWRITE };
	const int has[3] = { crypto, block, overwrite };
	int k;

	for (k = 0; k < 3; k++) {
		if (has[k]) {
			c->method = methods[k];
			snprintf(c->why, sizeof(c->why), "%s", names[k]);
			return 1;
		}
	}
	return 0;
}

void sancmd_nvme_choose(const struct sancmd_nvme_caps *caps,
			struct sancmd_choice *c)
{
	static const char *const names[3] = {
		"Sanitize crypto erase (SANICAP CES)",
		"Sanitize block erase (SANICAP BES)",
		"Sanitize overwrite (SANICAP OWS)" };

	if (!c)
		return;
	c->method = SANCMD_NONE;
	c->all_namespaces = 0;
	if (!caps) {
		snprintf(c->why, sizeof(c->why), "no Identify Controller");
	} else if (sancmd_pick(caps->crypto, caps->block, caps->overwrite,
			       names, c)) {
		/* a Sanitize: chosen and said */
	} else if (caps->format && caps->fna_crypto) {
		c->method = SANCMD_FORMAT_CRYPTO;
		snprintf(c->why, sizeof(c->why),
			 "no Sanitize: Format NVM with cryptographic erase (FNA bit 2)");
	} else if (caps->format) {
		c->method = SANCMD_FORMAT_ERASE;
		snprintf(c->why, sizeof(c->why),
			 "no Sanitize: Format NVM with user data erase");
	} else {
		snprintf(c->why, sizeof(c->why),
			 "neither Sanitize (SANICAP 0) nor Format NVM (OACS bit 1)");
	}
	/* Sanitize acts on the NVM subsystem; a Format where FNA says. */
	if (c->method == SANCMD_CRYPTO || c->method == SANCMD_BLOCK ||
	    c->method == SANCMD_OVERWRITE)
		c->all_namespaces = 1;
	else if (c->method != SANCMD_NONE)
		c->all_namespaces = caps->fna_all || caps->fna_erase_all;
}

/*
 * Identify Namespace (NVM Command Set 1.0): FLBAS byte 26 (format index
 * 3:0 and 6:5, metadata at the end of each block bit 4), DPS byte 29 (PI
 * type 2:0, PI in the first bytes of metadata 3). nsid is left as the
 * caller set it.
 */
int sancmd_nvme_ns(const uint8_t *idns, size_t len,
		   struct sancmd_nvme_format *f)
{
	uint8_t flbas, dps;

	if (!idns || !f || len < SANCMD_NVME_ID_LEN)
		return -EINVAL;
	flbas = idns[26];
	dps = idns[29];
	f->lbaf = (flbas & 0xf) | (unsigned)(flbas >> 5 & 3) << 4;
	f->mset = flbas >> 4 & 1;
	f->pi = dps & 7;
	f->pil = dps >> 3 & 1;
	return 0;
}

/*
 * Sanitize Status log 81h (NVMe Base 2.0): SPROG bytes 1:0 (of 65536),
 * SSTAT 3:2 (the last sanitize's status 2:0, overwrite passes 7:3,
 * global data erased 8), SCDW10 7:4, then the estimated seconds of an
 * overwrite 11:8, a block erase 15:12, a crypto erase 19:16.
 */
int sancmd_nvme_log(const uint8_t *log, size_t len, int method,
		    struct sancmd_progress *p)
{
	static const int states[] = { SANCMD_NEVER, SANCMD_DONE,
		SANCMD_RUNNING, SANCMD_FAILED, SANCMD_DONE_NODEALLOC };
	uint16_t sstat;
	unsigned at;

	if (!log || !p || len < SANCMD_NVME_LOG_LEN)
		return -EINVAL;
	memset(p, 0, sizeof(*p));
	sstat = le16(log + 2);
	p->state = (sstat & 7) < 5 ? states[sstat & 7] : SANCMD_UNKNOWN;
	p->fraction = le16(log);
	/* SPROG is FFFFh unless one is running: only then is it a share. */
	if (p->state == SANCMD_RUNNING)
		p->percent = p->fraction * 100u / 65536u;
	else if (p->state == SANCMD_DONE || p->state == SANCMD_DONE_NODEALLOC)
		p->percent = 100;
	p->passes = sstat >> 3 & 0x1f;
	p->global_erased = sstat >> 8 & 1;
	p->cdw10 = le32(log + 4);
	switch (method) {
	case SANCMD_OVERWRITE:
		at = 8;
		break;
	case SANCMD_BLOCK:
		at = 12;
		break;
	case SANCMD_CRYPTO:
		at = 16;
		break;
	default:
		return 0;
	}
	p->estimate = sancmd_nvme_estimate(le32(log + at));
	return 0;
}
