/* SPDX-License-Identifier: MIT */
/*
 * Description: the sanitize commands that travel as SCSI commands, in
 * their standards' layouts: ATA SANITIZE DEVICE (ACS-3 7.35) and the
 * Security feature set's erase (ACS-3 7.40-7.44) inside SAT-3's ATA
 * PASS-THROUGH(16), IDENTIFY DEVICE's words for both and the method
 * chosen, the ATA registers SAT returns in sense data and the sanitize
 * status in them; SCSI SANITIZE (SBC-4 5.30), its progress in sense
 * data (SPC-4 4.5), and the actions a logical unit reports it has (REPORT
 * SUPPORTED OPERATION CODES). The methods' table and NVMe's part are
 * sancmd.c's.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "engine/sancmd.h"

/* ---- ATA ---- */

/* SAT-3's PROTOCOL field values kiln uses. */
#define PT_NON_DATA 3
#define PT_PIO_IN 4
#define PT_PIO_OUT 5

/*
 * The keys ACS-3 asks in LBA 31:0 of each SANITIZE DEVICE subcommand, so
 * a stray command cannot start one: "Cryp", "BkEr"; OVERWRITE EXT's is
 * "OW" in LBA 47:32, as its pattern takes LBA 31:0.
 */
#define KEY_CRYPTO 0x43727970u
#define KEY_BLOCK 0x426B4572u
#define KEY_OVERWRITE 0x4F57u

/*
 * ATA PASS-THROUGH(16) (SAT-3 12.2.2.3): 85h; byte 1 PROTOCOL 4:1 and
 * EXTEND 0; byte 2 OFF_LINE 7:6, CK_COND 5, T_TYPE 4, T_DIR 3,
 * BYTE_BLOCK 2, T_LENGTH 1:0; FEATURES 15:8, 7:0 in bytes 3, 4; COUNT
 * 15:8, 7:0 in 5, 6; LBA 31:24, 7:0, 39:32, 15:8, 47:40, 23:16 in bytes
 * 7 to 12 (the 48-bit registers' previous and current bytes in turn);
 * DEVICE 13; COMMAND 14; CONTROL 15.
 */
static void pt16(uint8_t cdb[16], int protocol, int extend, uint8_t flags,
		 uint16_t features, uint16_t count, uint64_t lba,
		 uint8_t device, uint8_t command)
{
	memset(cdb, 0, 16);
	cdb[0] = SANCMD_ATA_PT16;
	cdb[1] = (uint8_t)(protocol << 1 | (extend ? 1 : 0));
	cdb[2] = flags;
	cdb[3] = (uint8_t)(features >> 8);
	cdb[4] = (uint8_t)features;
	cdb[5] = (uint8_t)(count >> 8);
	cdb[6] = (uint8_t)count;
	cdb[7] = (uint8_t)(lba >> 24);
	cdb[8] = (uint8_t)lba;
	cdb[9] = (uint8_t)(lba >> 32);
	cdb[10] = (uint8_t)(lba >> 8);
	cdb[11] = (uint8_t)(lba >> 40);
	cdb[12] = (uint8_t)(lba >> 16);
	cdb[13] = device;
	cdb[14] = command;
}

/* CK_COND: the registers come back in sense data, ended well or not. */
#define CK_COND 0x20

/*
 * SANITIZE DEVICE, non-data and 48-bit; COUNT holds FAILURE MODE (bit 4:
 * on failure the drive may leave failure mode by an exit command, like
 * NVMe's AUSE), and for OVERWRITE EXT the INVERT PATTERN BETWEEN
 * OVERWRITE PASSES (bit 7) and the OVERWRITE PASS COUNT (3:0, 0 is 16);
 * SANITIZE STATUS EXT's COUNT bit 0 clears a failed sanitize. DEVICE bit
 * 6 (LBA) is set as hdparm sets it; ACS-3 marks it N/A.
 */
int sancmd_ata_sanitize(uint8_t cdb[16], const struct sancmd_ata_sanitize *s)
{
	uint16_t count = 0;
	uint64_t lba;

	if (!cdb || !s)
		return -EINVAL;
	if (s->failure_mode && s->feature != SANCMD_ATA_STATUS_EXT)
		count |= 1u << 4;
	switch (s->feature) {
	case SANCMD_ATA_STATUS_EXT:
		lba = 0;
		count = s->clear_failed ? 1 : 0;
		break;
	case SANCMD_ATA_CRYPTO_EXT:
		lba = KEY_CRYPTO;
		break;
	case SANCMD_ATA_BLOCK_EXT:
		lba = KEY_BLOCK;
		break;
	case SANCMD_ATA_OVERWRITE_EXT:
		if (s->passes < 1 || s->passes > 16)
			return -EINVAL;
		lba = (uint64_t)KEY_OVERWRITE << 32 | s->pattern;
		count |= s->passes & 0xf;
		if (s->invert)
			count |= 1u << 7;
		break;
	default:
		return -EINVAL;
	}
	pt16(cdb, PT_NON_DATA, 1, CK_COND, (uint16_t)s->feature, count, lba,
	     0x40, SANCMD_ATA_SANITIZE);
	return 0;
}

/* SECURITY ERASE PREPARE: non-data, 28-bit, just before ERASE UNIT. */
int sancmd_ata_erase_prepare(uint8_t cdb[16])
{
	if (!cdb)
		return -EINVAL;
	pt16(cdb, PT_NON_DATA, 0, CK_COND, 0, 0, 0, 0,
	     SANCMD_ATA_ERASE_PREPARE);
	return 0;
}

/*
 * SECURITY ERASE UNIT and SECURITY SET PASSWORD: PIO data-out, 28-bit,
 * one 512-byte block to the device (T_DIR 0, BYTE_BLOCK 1, T_TYPE 0,
 * T_LENGTH 2: its length is in COUNT, which is 1).
 */
static int pio_out_one(uint8_t cdb[16], uint8_t command)
{
	if (!cdb)
		return -EINVAL;
	pt16(cdb, PT_PIO_OUT, 0, CK_COND | 0x04 | 0x02, 0, 1, 0, 0, command);
	return 0;
}

int sancmd_ata_erase_unit(uint8_t cdb[16])
{
	return pio_out_one(cdb, SANCMD_ATA_ERASE_UNIT);
}

int sancmd_ata_set_password(uint8_t cdb[16])
{
	return pio_out_one(cdb, SANCMD_ATA_SET_PASSWORD);
}

int sancmd_ata_unlock(uint8_t cdb[16])
{
	return pio_out_one(cdb, SANCMD_ATA_UNLOCK);
}

int sancmd_ata_disable_password(uint8_t cdb[16])
{
	return pio_out_one(cdb, SANCMD_ATA_DISABLE_PASSWORD);
}

/*
 * IDENTIFY DEVICE: PIO data-in, 28-bit, one 512-byte block from the
 * device (T_DIR 1, BYTE_BLOCK 1, T_LENGTH 2: COUNT, which is 1).
 */
int sancmd_ata_identify(uint8_t cdb[16])
{
	if (!cdb)
		return -EINVAL;
	pt16(cdb, PT_PIO_IN, 0, 0x08 | 0x04 | 0x02, 0, 1, 0, 0,
	     SANCMD_ATA_IDENTIFY);
	return 0;
}

/*
 * Their data (ACS-3 tables of SECURITY ERASE UNIT and SET PASSWORD):
 * word 0 bit 0 IDENTIFIER (0: the user password), bit 1 ENHANCED (erase
 * unit only); words 1-16 the password, its bytes in order as hdparm
 * sends them, padded with zeros; the rest reserved.
 */
int sancmd_ata_erase_data(uint8_t data[512], const char *password,
			  int enhanced)
{
	size_t n;

	if (!data || !password || (n = strlen(password)) > 32)
		return -EINVAL;
	memset(data, 0, 512);
	if (enhanced)
		data[0] |= 1u << 1;
	memcpy(data + 2, password, n);
	return 0;
}

static uint16_t word(const uint8_t *id, unsigned w)
{
	return (uint16_t)(id[2 * w] | id[2 * w + 1] << 8);
}

/*
 * Words 89 and 90 (ACS-3 7.12.7.38-39): bit 15 clear, 7:0 in units of 2
 * minutes (0 none, 255 more than 508 minutes); bit 15 set, 14:0 in the
 * same units (0 none, 32767 more than 65532 minutes).
 */
struct sancmd_estimate sancmd_ata_estimate(uint16_t w)
{
	struct sancmd_estimate e = { SANCMD_EST_NONE, 0 };
	unsigned v = w & 0x8000 ? w & 0x7fffu : w & 0xffu;
	unsigned most = w & 0x8000 ? 0x7fffu : 0xffu;

	if (v) {
		e.kind = v == most ? SANCMD_EST_AT_LEAST : SANCMD_EST_EXACT;
		e.seconds = (uint64_t)(v == most ? v - 1 : v) * 120;
	}
	return e;
}

/*
 * IDENTIFY DEVICE (ACS-3 7.12.7): word 59 bits 12 sanitize, 13 CRYPTO
 * SCRAMBLE EXT, 14 OVERWRITE EXT, 15 BLOCK ERASE EXT; word 82 bit 1 the
 * Security feature set; word 128 bits 0 supported, 1 enabled, 2 locked,
 * 3 frozen, 5 enhanced erase; words 89, 90 the erase times. Word 255
 * holds a checksum when its low byte is A5h: all 512 bytes sum to 0.
 */
int sancmd_ata_caps(const uint8_t *id, size_t len,
		    struct sancmd_ata_caps *caps)
{
	uint16_t w59, w128;
	unsigned sum = 0, i;

	if (!id || !caps || len < SANCMD_ATA_ID_LEN)
		return -EINVAL;
	if (id[510] == 0xA5) {
		for (i = 0; i < 512; i++)
			sum += id[i];
		if (sum & 0xff)
			return -EPROTO;
	}
	memset(caps, 0, sizeof(*caps));
	w59 = word(id, 59);
	caps->sanitize = w59 >> 12 & 1;
	caps->crypto = caps->sanitize && (w59 >> 13 & 1);
	caps->overwrite = caps->sanitize && (w59 >> 14 & 1);
	caps->block = caps->sanitize && (w59 >> 15 & 1);
	w128 = word(id, 128);
	caps->security = (word(id, 82) >> 1 & 1) && (w128 & 1);
	caps->enabled = w128 >> 1 & 1;
	caps->locked = w128 >> 2 & 1;
	caps->frozen = w128 >> 3 & 1;
	caps->enhanced = w128 >> 5 & 1;
	caps->erase = sancmd_ata_estimate(word(id, 89));
	caps->enhanced_erase = sancmd_ata_estimate(word(id, 90));
	return 0;
}

/*
 * The same order as NVMe's: SANITIZE's crypto scramble, block erase,
 * overwrite; then the Security feature set's erase, enhanced first,
 * unless frozen (a BIOS freezes it at boot; a power cycle of the drive
 * alone, or a suspend, thaws it) or locked (another's password is set).
 */
void sancmd_ata_choose(const struct sancmd_ata_caps *caps,
		       struct sancmd_choice *c)
{
	static const char *const names[3] = {
		"SANITIZE CRYPTO SCRAMBLE EXT", "SANITIZE BLOCK ERASE EXT",
		"SANITIZE OVERWRITE EXT" };

	if (!c)
		return;
	c->method = SANCMD_NONE;
	c->all_namespaces = 0;
	if (!caps) {
		snprintf(c->why, sizeof(c->why), "no IDENTIFY DEVICE");
	} else if (sancmd_pick(caps->crypto, caps->block, caps->overwrite,
			       names, c)) {
		/* a Sanitize: chosen and said */
	} else if (!caps->security) {
		snprintf(c->why, sizeof(c->why),
			 "neither the Sanitize nor the Security feature set");
	} else if (caps->frozen) {
		snprintf(c->why, sizeof(c->why),
			 "no Sanitize, and security is frozen (by the BIOS at boot)");
	} else if (caps->locked || caps->enabled) {
		snprintf(c->why, sizeof(c->why),
			 "no Sanitize, and a password kiln did not set is in force");
	} else if (caps->enhanced) {
		c->method = SANCMD_SECURITY_ENHANCED;
		snprintf(c->why, sizeof(c->why),
			 "no Sanitize: SECURITY ERASE UNIT, enhanced");
	} else {
		c->method = SANCMD_SECURITY_ERASE;
		snprintf(c->why, sizeof(c->why),
			 "no Sanitize: SECURITY ERASE UNIT");
	}
}

/*
 * The registers SAT returns (SAT-3 12.2.2.6 and 12.2.2.7). Descriptor
 * sense (72h, 73h): the ATA Status Return descriptor, code 09h, length
 * 0Ch: EXTEND byte 2 bit 0, ERROR 3, COUNT 15:8 and 7:0 in 4, 5, LBA
 * 31:24, 7:0, 39:32, 15:8, 47:40, 23:16 in 6 to 11, DEVICE 12, STATUS
 * 13. Fixed sense (70h, 71h): ERROR, STATUS, DEVICE, COUNT 7:0 in bytes
 * 3-6, byte 8 EXTEND 7, COUNT UPPER NONZERO 6, LBA UPPER NONZERO 5, and
 * LBA 7:0, 15:8, 23:16 in bytes 9-11; COUNT 15:8 is known only when its
 * flag says it is zero. Linux's libata answers a command that ended well
 * in descriptor sense always, one that failed in the format the device's
 * D_SENSE asks; its fixed sense put these fields at the wrong offsets
 * from 4.x until a fix of July 2024 (6.10 and the stable kernels), so a
 * caller trusts fixed sense from a failure only for its sense key.
 */
int sancmd_ata_regs(const uint8_t *sense, size_t len,
		    struct sancmd_ata_regs *r)
{
	size_t at, end;
	const uint8_t *d;

	if (!sense || !r || len < 8)
		return -EINVAL;
	memset(r, 0, sizeof(*r));
	switch (sense[0] & 0x7f) {
	case 0x70:
	case 0x71:
		if (len < 12)
			return -EINVAL;
		r->error = sense[3];
		r->status = sense[4];
		r->device = sense[5];
		r->count = sense[6];
		r->lba = sense[9] | (uint64_t)sense[10] << 8 |
			 (uint64_t)sense[11] << 16;
		r->count_hi_known = !(sense[8] & 0x40);
		return 0;
	case 0x72:
	case 0x73:
		end = 8 + (size_t)sense[7];
		if (end > len)
			end = len;
		for (at = 8; at + 2 <= end; at += 2 + (size_t)sense[at + 1]) {
			d = sense + at;
			if (d[0] != 0x09)
				continue;
			if (d[1] < 0x0c || at + 14 > end)
				return -EINVAL;
			r->error = d[3];
			r->count = (uint16_t)(d[4] << 8 | d[5]);
			r->lba = (uint64_t)d[6] << 24 | d[7] |
				 (uint64_t)d[8] << 32 | (uint64_t)d[9] << 8 |
				 (uint64_t)d[10] << 40 | (uint64_t)d[11] << 16;
			r->device = d[12];
			r->status = d[13];
			r->count_hi_known = 1;
			return 0;
		}
		return -ENODATA;
	default:
		return -EINVAL;
	}
}

/*
 * SANITIZE STATUS EXT's return (ACS-3 7.35.7): COUNT bit 15 SANITIZE
 * OPERATION COMPLETED WITHOUT ERROR, 14 SANITIZE IN PROGRESS, 13
 * SANITIZE FROZEN; LBA 15:0 the progress, of 65536 (FFFFh when none
 * runs). A failed sanitize makes the command itself end in error, ABORT
 * in ERROR, with its reason in LBA 7:0.
 */
int sancmd_ata_status(const struct sancmd_ata_regs *r,
		      struct sancmd_progress *p)
{
	if (!r || !p)
		return -EINVAL;
	memset(p, 0, sizeof(*p));
	p->fraction = 0xffff;
	if ((r->status & 0x01) && (r->error & 0x04)) {
		p->state = SANCMD_FAILED;
		p->reason = r->lba & 0xff;
		return 0;
	}
	/* Fixed sense lost the bits that say what runs. */
	if (!r->count_hi_known)
		return -EPROTO;
	p->frozen = r->count >> 13 & 1;
	if (r->count & 0x4000) {
		p->state = SANCMD_RUNNING;
		p->fraction = r->lba & 0xffff;
		p->percent = p->fraction * 100u / 65536u;
	} else if (r->count & 0x8000) {
		p->state = SANCMD_DONE;
		p->percent = 100;
	} else {
		p->state = SANCMD_IDLE;
	}
	return 0;
}

/* ---- SCSI ---- */

/*
 * SANITIZE (SBC-4 5.30): 48h; byte 1 IMMED 7, AUSE 5, SERVICE ACTION
 * 4:0; PARAMETER LIST LENGTH bytes 7-8; CONTROL 9. Overwrite's parameter
 * list: byte 0 INVERT 7, TEST 6:5 (0), OVERWRITE COUNT 4:0; bytes 2-3
 * the pattern's length, then the pattern. Other actions take none.
 */
int sancmd_scsi_sanitize(uint8_t cdb[10], uint8_t *param, size_t room,
			 size_t *param_len, const struct sancmd_scsi_sanitize *s)
{
	size_t n = 0;

	if (!cdb || !s || !param_len)
		return -EINVAL;
	switch (s->action) {
	case SANCMD_SCSI_OVERWRITE:
		if (s->passes < 1 || s->passes > 31 || !s->pattern ||
		    !s->pattern_len || s->pattern_len > 0xffff - 4 || !param ||
		    room < 4 + s->pattern_len)
			return -EINVAL;
		n = 4 + s->pattern_len;
		param[0] = (uint8_t)((s->invert ? 0x80 : 0) | s->passes);
		param[1] = 0;
		param[2] = (uint8_t)(s->pattern_len >> 8);
		param[3] = (uint8_t)s->pattern_len;
		memcpy(param + 4, s->pattern, s->pattern_len);
		break;
	case SANCMD_SCSI_BLOCK:
	case SANCMD_SCSI_CRYPTO:
	case SANCMD_SCSI_EXIT_FAILURE:
		break;
	default:
		return -EINVAL;
	}
	memset(cdb, 0, 10);
	cdb[0] = SANCMD_SCSI_SANITIZE;
	cdb[1] = (uint8_t)((s->immed ? 0x80 : 0) | (s->ause ? 0x20 : 0) |
			   s->action);
	cdb[7] = (uint8_t)(n >> 8);
	cdb[8] = (uint8_t)n;
	*param_len = n;
	return 0;
}

/*
 * Sense data (SPC-4 4.5): fixed (70h, 71h) has the sense key in byte 2
 * 3:0, ASC and ASCQ in 12, 13, and the sense-key specific bytes 15-17
 * (SKSV byte 15 bit 7; under NOT READY, the progress in 16-17);
 * descriptor (72h, 73h) has them in bytes 1, 2, 3 and its sense-key
 * specific descriptor (type 02h, length 06h) holds SKSV and the progress
 * in its bytes 4-6. NOT READY with 04h/1Bh is a sanitize in progress;
 * 31h/03h is SANITIZE COMMAND FAILED; no sense at all is none running.
 */
int sancmd_scsi_progress(const uint8_t *sense, size_t len,
			 struct sancmd_progress *p)
{
	uint8_t key, asc, ascq;
	const uint8_t *sks = NULL;
	size_t at, end;

	if (!sense || !p || len < 8)
		return -EINVAL;
	memset(p, 0, sizeof(*p));
	p->fraction = 0xffff;
	switch (sense[0] & 0x7f) {
	case 0x70:
	case 0x71:
		if (len < 14)
			return -EINVAL;
		key = sense[2] & 0xf;
		asc = sense[12];
		ascq = sense[13];
		if (len >= 18 && 8 + (size_t)sense[7] >= 18)
			sks = sense + 15;
		break;
	case 0x72:
	case 0x73:
		key = sense[1] & 0xf;
		asc = sense[2];
		ascq = sense[3];
		end = 8 + (size_t)sense[7];
		if (end > len)
			end = len;
		for (at = 8; at + 2 <= end; at += 2 + (size_t)sense[at + 1])
			if (sense[at] == 0x02 && sense[at + 1] >= 6 &&
			    at + 8 <= end) {
				sks = sense + at + 4;
				break;
			}
		break;
	default:
		return -EINVAL;
	}
	if (key == 0x2 && asc == 0x04 && ascq == 0x1b) {
		p->state = SANCMD_RUNNING;
		if (sks && (sks[0] & 0x80)) {
			p->fraction = (unsigned)(sks[1] << 8 | sks[2]);
			p->percent = p->fraction * 100u / 65536u;
		} else {
			p->fraction = 0;
		}
	} else if (asc == 0x31 && ascq == 0x03) {
		p->state = SANCMD_FAILED;
	} else if (key == 0 && asc == 0 && ascq == 0) {
		p->state = SANCMD_IDLE;
	} else {
		p->state = SANCMD_UNKNOWN;
	}
	return 0;
}

/*
 * REPORT SUPPORTED OPERATION CODES (SPC-4 6.35): A3h, service action 0Ch
 * in byte 1 4:0, REPORTING OPTIONS 010b (one command, with its service
 * action) in byte 2 2:0, the operation code in byte 3, the service
 * action in 4-5, the allocation length in 6-9, CONTROL 11.
 */
int sancmd_scsi_rsoc(uint8_t cdb[12], int action, uint32_t alloc)
{
	if (!cdb || action < 0 || action > 0x1f)
		return -EINVAL;
	memset(cdb, 0, 12);
	cdb[0] = SANCMD_SCSI_RSOC;
	cdb[1] = 0x0c;
	cdb[2] = 0x02;
	cdb[3] = SANCMD_SCSI_SANITIZE;
	cdb[5] = (uint8_t)action;
	cdb[6] = (uint8_t)(alloc >> 24);
	cdb[7] = (uint8_t)(alloc >> 16);
	cdb[8] = (uint8_t)(alloc >> 8);
	cdb[9] = (uint8_t)alloc;
	return 0;
}

/*
 * The one-command answer: byte 1 SUPPORT 2:0, 000b not available yet,
 * 001b not supported, 011b supported as the standard says, 101b
 * supported in a vendor's way (which kiln does not trust to sanitize).
 */
int sancmd_scsi_supported(const uint8_t *data, size_t len)
{
	if (!data || len < 4)
		return -EINVAL;
	switch (data[1] & 7) {
	case 0:
		return -ENODATA;
	case 3:
		return 1;
	default:
		return 0;
	}
}

/* The same order as NVMe's and ATA's. */
void sancmd_scsi_choose(const struct sancmd_scsi_caps *caps,
			struct sancmd_choice *c)
{
	static const char *const names[3] = {
		"SANITIZE CRYPTOGRAPHIC ERASE", "SANITIZE BLOCK ERASE",
		"SANITIZE OVERWRITE" };

	if (!c)
		return;
	c->method = SANCMD_NONE;
	c->all_namespaces = 0;
	if (!caps)
		snprintf(c->why, sizeof(c->why),
			 "no REPORT SUPPORTED OPERATION CODES");
	else if (!sancmd_pick(caps->crypto, caps->block, caps->overwrite,
			      names, c))
		snprintf(c->why, sizeof(c->why),
			 "SANITIZE is not supported (REPORT SUPPORTED OPERATION CODES)");
}
