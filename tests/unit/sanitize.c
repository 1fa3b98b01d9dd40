/* SPDX-License-Identifier: MIT */
/*
 * Description: the device's own sanitize commands (engine/sancmd.c,
 * sancmd_scsi.c) held to their standards' layouts byte by byte: NVMe
 * Sanitize and Format NVM entries, ATA PASS-THROUGH(16) for SANITIZE
 * DEVICE and the Security erase, SCSI SANITIZE; the parsers on
 * hand-built Identify data, log 81h, ATA status returns and sense (in
 * progress at half, done, failed, no estimate); the method chosen for
 * every set of capabilities; the deadline, huge estimates too; and bad
 * input answered with an error, never a crash.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "../lib/tap.h"
#include "engine/sancmd.h"

#define PLAN 76

static int same(const uint8_t *got, const uint8_t *want, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (got[i] != want[i]) {
			tap_diag("byte %zu: got %02x, want %02x", i, got[i],
				 want[i]);
			return 0;
		}
	return 1;
}

static void put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

static void put16(uint8_t *p, unsigned v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

static void nvme_commands(void)
{
	struct sancmd_nvme_sanitize s = { .sanact = SANCMD_SANACT_CRYPTO };
	struct sancmd_nvme_format f = { .nsid = 1, .lbaf = 1, .ses = 2 };
	struct sancmd_nvme cmd;
	uint8_t sqe[64], want[64];
	int rc;

	memset(want, 0, sizeof(want));
	want[0] = 0x84;
	want[40] = 0x04;
	tap_ok(sancmd_nvme_sanitize(&cmd, &s) == 0 &&
	       sancmd_nvme_bytes(&cmd, sqe) == 0 && same(sqe, want, 64),
	       "NVMe Sanitize crypto erase: 84h, SANACT 100b in Dword 10");

	s = (struct sancmd_nvme_sanitize){ .sanact = SANCMD_SANACT_OVERWRITE,
		.ause = 1, .owpass = 3, .oipbp = 1, .ndas = 1,
		.pattern = 0xDEADBEEF };
	memset(want, 0, sizeof(want));
	want[0] = 0x84;
	want[40] = 0x3B;	/* OWPASS 3 in 7:4, AUSE 3, SANACT 011b */
	want[41] = 0x03;	/* NDAS 9, OIPBP 8 */
	put32(want + 44, 0xDEADBEEF);
	tap_ok(sancmd_nvme_sanitize(&cmd, &s) == 0 &&
	       sancmd_nvme_bytes(&cmd, sqe) == 0 && same(sqe, want, 64),
	       "NVMe Sanitize overwrite: OWPASS, AUSE, OIPBP, NDAS, pattern in Dword 11");
	s.owpass = 16;
	tap_ok(sancmd_nvme_sanitize(&cmd, &s) == 0 &&
	       (cmd.cdw10 >> 4 & 0xf) == 0, "16 passes are sent as OWPASS 0");
	s = (struct sancmd_nvme_sanitize){ .sanact = SANCMD_SANACT_BLOCK,
		.owpass = 5, .pattern = 7 };
	tap_ok(sancmd_nvme_sanitize(&cmd, &s) == 0 && cmd.cdw10 == 2 &&
	       cmd.cdw11 == 0 && cmd.nsid == 0,
	       "block erase: SANACT 010b alone, no pattern, no namespace");
	s.sanact = SANCMD_SANACT_EXIT_FAILURE;
	tap_ok(sancmd_nvme_sanitize(&cmd, &s) == 0 && cmd.cdw10 == 1,
	       "exit failure mode: SANACT 001b");
	s = (struct sancmd_nvme_sanitize){ .sanact = 0 };
	tap_ok(sancmd_nvme_sanitize(&cmd, &s) == -EINVAL &&
	       (s.sanact = 5, sancmd_nvme_sanitize(&cmd, &s)) == -EINVAL &&
	       (s.sanact = 3, s.owpass = 0,
		sancmd_nvme_sanitize(&cmd, &s)) == -EINVAL &&
	       (s.owpass = 17, sancmd_nvme_sanitize(&cmd, &s)) == -EINVAL &&
	       sancmd_nvme_sanitize(NULL, &s) == -EINVAL &&
	       sancmd_nvme_sanitize(&cmd, NULL) == -EINVAL &&
	       sancmd_nvme_bytes(NULL, sqe) == -EINVAL,
	       "reserved SANACT, 0 or 17 passes, NULL: -EINVAL");

	memset(want, 0, sizeof(want));
	want[0] = 0x80;
	want[4] = 1;
	want[40] = 0x01;	/* LBAF 1 */
	want[41] = 0x04;	/* SES 010b in 11:9 */
	tap_ok(sancmd_nvme_format(&cmd, &f) == 0 &&
	       sancmd_nvme_bytes(&cmd, sqe) == 0 && same(sqe, want, 64),
	       "Format NVM crypto erase: 80h, NSID, LBAF, SES 010b");
	f = (struct sancmd_nvme_format){ .nsid = 0xFFFFFFFF, .lbaf = 17,
		.mset = 1, .pi = 1, .pil = 1, .ses = 1 };
	rc = sancmd_nvme_format(&cmd, &f);
	tap_ok(rc == 0 && cmd.cdw10 == 0x1331 && cmd.nsid == 0xFFFFFFFF,
	       "Format NVM: LBAF 17 split into 3:0 and LBAFU 13:12, MSET, PI, PIL, SES 001b (%#x)",
	       cmd.cdw10);
	f.ses = 3;
	tap_ok(sancmd_nvme_format(&cmd, &f) == -EINVAL &&
	       (f.ses = 1, f.lbaf = 64, sancmd_nvme_format(&cmd, &f)) == -EINVAL &&
	       (f.lbaf = 0, f.pi = 8, sancmd_nvme_format(&cmd, &f)) == -EINVAL &&
	       sancmd_nvme_format(NULL, &f) == -EINVAL,
	       "Format NVM: SES 3, LBAF 64, PI 8, NULL: -EINVAL");
}

/* The method NVMe's order gives for one set of capabilities. */
static int nvme_expect(int bits, int format, int fcrypto)
{
	if (bits & 1)
		return SANCMD_CRYPTO;
	if (bits & 2)
		return SANCMD_BLOCK;
	if (bits & 4)
		return SANCMD_OVERWRITE;
	if (format)
		return fcrypto ? SANCMD_FORMAT_CRYPTO : SANCMD_FORMAT_ERASE;
	return SANCMD_NONE;
}

static void nvme_identify(void)
{
	static uint8_t id[4096], ns[4096];
	struct sancmd_nvme_caps caps;
	struct sancmd_nvme_format f = { .nsid = 7 };
	struct sancmd_choice c;
	int bits, fmt, fc, fa, all = 1, spread = 1;

	put32(id + 328, 0x7 | 1u << 29 | 2u << 30);
	put16(id + 256, 0x2);
	id[524] = 0x7;
	tap_ok(sancmd_nvme_caps(id, sizeof(id), &caps) == 0 && caps.crypto &&
	       caps.block && caps.overwrite && caps.ndi && caps.nodmmas == 2 &&
	       caps.format && caps.fna_all && caps.fna_erase_all &&
	       caps.fna_crypto,
	       "Identify Controller: SANICAP 328-331, OACS bit 1, FNA 524");
	for (bits = 0; bits < 8; bits++)
		for (fmt = 0; fmt < 2; fmt++)
			for (fc = 0; fc < 2; fc++) {
				memset(id, 0, sizeof(id));
				put32(id + 328, (uint32_t)bits);
				put16(id + 256, fmt ? 0x2 : 0x0);
				id[524] = fc ? 0x4 : 0x0;
				if (sancmd_nvme_caps(id, sizeof(id), &caps)) {
					all = 0;
					continue;
				}
				sancmd_nvme_choose(&caps, &c);
				if (c.method != nvme_expect(bits, fmt, fc) ||
				    !c.why[0]) {
					tap_diag("SANICAP %d format %d crypto %d: %s (%s)",
						 bits, fmt, fc,
						 sancmd_method_name(c.method),
						 c.why);
					all = 0;
				}
			}
	tap_ok(all, "method for all 32 sets: crypto, block, overwrite, format crypto, format erase, none");
	/* FNA bits 0 and 1: a Format reaches every namespace. */
	for (bits = 0; bits < 2; bits++)
		for (fa = 0; fa < 4; fa++) {
			memset(id, 0, sizeof(id));
			put32(id + 328, (uint32_t)bits);
			put16(id + 256, 0x2);
			id[524] = (uint8_t)fa;
			sancmd_nvme_caps(id, sizeof(id), &caps);
			sancmd_nvme_choose(&caps, &c);
			if (c.all_namespaces != (bits || fa))
				spread = 0;
		}
	tap_ok(spread, "every namespace: Sanitize always, Format where FNA bit 0 or 1");
	memset(id, 0, sizeof(id));
	sancmd_nvme_caps(id, sizeof(id), &caps);
	sancmd_nvme_choose(&caps, &c);
	tap_ok(c.method == SANCMD_NONE && !c.all_namespaces &&
	       strstr(c.why, "Format NVM"),
	       "none, with the reason: %s", c.why);
	sancmd_nvme_choose(NULL, &c);
	tap_ok(sancmd_nvme_caps(id, 4095, &caps) == -EINVAL &&
	       sancmd_nvme_caps(NULL, 4096, &caps) == -EINVAL &&
	       sancmd_nvme_caps(id, 4096, NULL) == -EINVAL &&
	       c.method == SANCMD_NONE,
	       "short or NULL Identify Controller: -EINVAL, NULL caps: none");

	ns[26] = 0x12 | 0x20;	/* format 2, metadata at the end, LBAFU 1 */
	ns[29] = 0x09;		/* PI type 1, first bytes */
	tap_ok(sancmd_nvme_ns(ns, sizeof(ns), &f) == 0 && f.lbaf == 18 &&
	       f.mset && f.pi == 1 && f.pil && f.nsid == 7,
	       "Identify Namespace: FLBAS and DPS kept for the Format");
	tap_ok(sancmd_nvme_ns(ns, 100, &f) == -EINVAL &&
	       sancmd_nvme_ns(NULL, 4096, &f) == -EINVAL,
	       "short or NULL Identify Namespace: -EINVAL");
}

static void nvme_log(void)
{
	static uint8_t log[512];
	struct sancmd_progress p;

	put16(log, 0x8000);
	put16(log + 2, 2);
	put32(log + 4, 4);
	put32(log + 8, 36000);
	put32(log + 12, 600);
	put32(log + 16, 30);
	tap_ok(sancmd_nvme_log(log, sizeof(log), SANCMD_CRYPTO, &p) == 0 &&
	       p.state == SANCMD_RUNNING && p.percent == 50 &&
	       p.fraction == 0x8000 && p.cdw10 == 4 &&
	       p.estimate.kind == SANCMD_EST_EXACT && p.estimate.seconds == 30,
	       "log 81h in progress at half, crypto erase estimate at 16-19");
	tap_ok(sancmd_nvme_log(log, sizeof(log), SANCMD_BLOCK, &p) == 0 &&
	       p.estimate.seconds == 600 &&
	       sancmd_nvme_log(log, sizeof(log), SANCMD_OVERWRITE, &p) == 0 &&
	       p.estimate.seconds == 36000,
	       "block erase estimate at 12-15, overwrite at 8-11");
	put16(log, 0xffff);
	put16(log + 2, 1 | 4 << 3 | 1 << 8);
	tap_ok(sancmd_nvme_log(log, sizeof(log), SANCMD_OVERWRITE, &p) == 0 &&
	       p.state == SANCMD_DONE && p.percent == 100 && p.passes == 4 &&
	       p.global_erased,
	       "completed: state, passes 7:3, global data erased 8");
	put16(log + 2, 3);
	put32(log + 16, 0xFFFFFFFF);
	tap_ok(sancmd_nvme_log(log, sizeof(log), SANCMD_CRYPTO, &p) == 0 &&
	       p.state == SANCMD_FAILED && p.percent == 0 &&
	       p.estimate.kind == SANCMD_EST_NONE,
	       "failed, and FFFFFFFFh: no estimate");
	put16(log + 2, 0);
	sancmd_nvme_log(log, sizeof(log), SANCMD_NONE, &p);
	tap_ok(p.state == SANCMD_NEVER &&
	       (put16(log + 2, 4),
		sancmd_nvme_log(log, sizeof(log), SANCMD_NONE, &p) == 0) &&
	       p.state == SANCMD_DONE_NODEALLOC &&
	       (put16(log + 2, 5),
		sancmd_nvme_log(log, sizeof(log), SANCMD_NONE, &p) == 0) &&
	       p.state == SANCMD_UNKNOWN,
	       "never sanitized, done without deallocating, reserved 101b");
	tap_ok(sancmd_nvme_log(log, 511, SANCMD_CRYPTO, &p) == -EINVAL &&
	       sancmd_nvme_log(NULL, 512, SANCMD_CRYPTO, &p) == -EINVAL &&
	       sancmd_nvme_log(log, 512, SANCMD_CRYPTO, NULL) == -EINVAL,
	       "short or NULL log: -EINVAL");
}

static void ata_commands(void)
{
	struct sancmd_ata_sanitize s = { .feature = SANCMD_ATA_CRYPTO_EXT };
	uint8_t cdb[16], data[512];
	/* LBA 43727970h: 31:24 in 7, 7:0 in 8, 15:8 in 10, 23:16 in 12. */
	const uint8_t crypto[16] = { 0x85, 0x07, 0x20, 0x00, 0x11, 0x00,
		0x00, 0x43, 0x70, 0x00, 0x79, 0x00, 0x72, 0x40, 0xB4, 0x00 };
	const uint8_t block[16] = { 0x85, 0x07, 0x20, 0x00, 0x12, 0x00,
		0x10, 0x42, 0x72, 0x00, 0x45, 0x00, 0x6B, 0x40, 0xB4, 0x00 };
	/* Key 4F57h in LBA 47:32 (39:32 in 9, 47:40 in 11), pattern 31:0. */
	const uint8_t over[16] = { 0x85, 0x07, 0x20, 0x00, 0x14, 0x00,
		0x92, 0x11, 0x44, 0x57, 0x33, 0x4F, 0x22, 0x40, 0xB4, 0x00 };
	const uint8_t status[16] = { 0x85, 0x07, 0x20, 0x00, 0x00, 0x00,
		0x01, 0, 0, 0, 0, 0, 0, 0x40, 0xB4, 0x00 };
	const uint8_t prepare[16] = { 0x85, 0x06, 0x20, 0, 0, 0, 0, 0, 0, 0,
		0, 0, 0, 0, 0xF3, 0 };
	/* PIO data-out, CK_COND, BYTE_BLOCK, T_LENGTH in COUNT, COUNT 1. */
	const uint8_t unit[16] = { 0x85, 0x0A, 0x26, 0, 0, 0, 1, 0, 0, 0,
		0, 0, 0, 0, 0xF4, 0 };

	tap_ok(sancmd_ata_sanitize(cdb, &s) == 0 && same(cdb, crypto, 16),
	       "ATA CRYPTO SCRAMBLE EXT: B4h/0011h, key \"Cryp\" in LBA 31:0");
	s = (struct sancmd_ata_sanitize){ .feature = SANCMD_ATA_BLOCK_EXT,
		.failure_mode = 1 };
	tap_ok(sancmd_ata_sanitize(cdb, &s) == 0 && same(cdb, block, 16),
	       "ATA BLOCK ERASE EXT: 0012h, key \"BkEr\", FAILURE MODE in COUNT 4");
	s = (struct sancmd_ata_sanitize){ .feature = SANCMD_ATA_OVERWRITE_EXT,
		.failure_mode = 1, .passes = 2, .invert = 1,
		.pattern = 0x11223344 };
	tap_ok(sancmd_ata_sanitize(cdb, &s) == 0 && same(cdb, over, 16),
	       "ATA OVERWRITE EXT: 0014h, \"OW\" in LBA 47:32, pattern, INVERT, passes");
	s.passes = 16;
	tap_ok(sancmd_ata_sanitize(cdb, &s) == 0 && (cdb[6] & 0xf) == 0,
	       "16 overwrite passes are sent as 0");
	s = (struct sancmd_ata_sanitize){ .feature = SANCMD_ATA_STATUS_EXT,
		.clear_failed = 1, .failure_mode = 1 };
	tap_ok(sancmd_ata_sanitize(cdb, &s) == 0 && same(cdb, status, 16),
	       "SANITIZE STATUS EXT: 0000h, CLEAR SANITIZE OPERATION FAILED");
	s = (struct sancmd_ata_sanitize){ .feature = SANCMD_ATA_OVERWRITE_EXT };
	tap_ok(sancmd_ata_sanitize(cdb, &s) == -EINVAL &&
	       (s.passes = 17, sancmd_ata_sanitize(cdb, &s)) == -EINVAL &&
	       (s.feature = 0x13, s.passes = 1,
		sancmd_ata_sanitize(cdb, &s)) == -EINVAL &&
	       sancmd_ata_sanitize(NULL, &s) == -EINVAL &&
	       sancmd_ata_sanitize(cdb, NULL) == -EINVAL,
	       "0 or 17 passes, an unknown subcommand, NULL: -EINVAL");
	tap_ok(sancmd_ata_erase_prepare(cdb) == 0 && same(cdb, prepare, 16),
	       "SECURITY ERASE PREPARE: non-data, 28-bit, F3h");
	tap_ok(sancmd_ata_erase_unit(cdb) == 0 && same(cdb, unit, 16),
	       "SECURITY ERASE UNIT: PIO data-out of one block, F4h");
	tap_ok(sancmd_ata_set_password(cdb) == 0 && cdb[14] == 0xF1 &&
	       cdb[1] == 0x0A && sancmd_ata_erase_unit(NULL) == -EINVAL &&
	       sancmd_ata_erase_prepare(NULL) == -EINVAL,
	       "SECURITY SET PASSWORD the same, F1h; NULL: -EINVAL");
	tap_ok(sancmd_ata_erase_data(data, "kiln", 1) == 0 && data[0] == 0x02 &&
	       data[1] == 0 && !memcmp(data + 2, "kiln", 4) && data[6] == 0 &&
	       data[511] == 0 &&
	       sancmd_ata_erase_data(data, "kiln", 0) == 0 && data[0] == 0,
	       "erase data: ENHANCED word 0 bit 1, user password from byte 2");
	tap_ok(sancmd_ata_erase_data(data, "123456789012345678901234567890123",
				     0) == -EINVAL &&
	       sancmd_ata_erase_data(data, NULL, 0) == -EINVAL &&
	       sancmd_ata_erase_data(NULL, "x", 0) == -EINVAL,
	       "a password over 32 bytes, NULL: -EINVAL");
}

static void ata_word(uint8_t *id, unsigned w, unsigned v)
{
	put16(id + 2 * w, v);
}

static int ata_expect(int w59, int sec, int frozen, int enabled, int enh)
{
	if (w59 & 1) {
		if (w59 & 2)
			return SANCMD_CRYPTO;
		if (w59 & 8)
			return SANCMD_BLOCK;
		if (w59 & 4)
			return SANCMD_OVERWRITE;
	}
	if (!sec || frozen || enabled)
		return SANCMD_NONE;
	return enh ? SANCMD_SECURITY_ENHANCED : SANCMD_SECURITY_ERASE;
}

static void ata_identify(void)
{
	static uint8_t id[512];
	struct sancmd_ata_caps caps;
	struct sancmd_choice c;
	struct sancmd_estimate e;
	unsigned sum = 0, i, combo, all = 1;

	ata_word(id, 59, 0xF000);
	ata_word(id, 82, 0x0002);
	ata_word(id, 128, 0x0029);
	ata_word(id, 89, 30);
	ata_word(id, 90, 255);
	tap_ok(sancmd_ata_caps(id, sizeof(id), &caps) == 0 && caps.sanitize &&
	       caps.crypto && caps.overwrite && caps.block && caps.security &&
	       caps.frozen && caps.enhanced && !caps.enabled &&
	       caps.erase.kind == SANCMD_EST_EXACT &&
	       caps.erase.seconds == 3600 &&
	       caps.enhanced_erase.kind == SANCMD_EST_AT_LEAST &&
	       caps.enhanced_erase.seconds == 508 * 60,
	       "IDENTIFY DEVICE: word 59 12-15, 82, 128, 89 and 90 in 2 minutes");
	id[510] = 0xA5;
	for (i = 0; i < 511; i++)
		sum += id[i];
	id[511] = (uint8_t)(0x100 - (sum & 0xff));
	tap_ok(sancmd_ata_caps(id, sizeof(id), &caps) == 0 &&
	       (id[100] ^= 1, sancmd_ata_caps(id, sizeof(id), &caps)) == -EPROTO,
	       "word 255's checksum: good read, a changed byte refused");
	tap_ok(sancmd_ata_caps(id, 511, &caps) == -EINVAL &&
	       sancmd_ata_caps(NULL, 512, &caps) == -EINVAL &&
	       sancmd_ata_caps(id, 512, NULL) == -EINVAL,
	       "short or NULL IDENTIFY DEVICE: -EINVAL");

	/* Word 59's four bits, then security, frozen, enabled, enhanced. */
	for (combo = 0; combo < 256; combo++) {
		int w59 = combo & 0xf, sec = combo >> 4 & 1,
		    frozen = combo >> 5 & 1, enabled = combo >> 6 & 1,
		    enh = combo >> 7 & 1;

		memset(id, 0, sizeof(id));
		ata_word(id, 59, (unsigned)w59 << 12);
		ata_word(id, 82, sec ? 2 : 0);
		ata_word(id, 128, (sec ? 1u : 0) | (enabled ? 2u : 0) |
			 (frozen ? 8u : 0) | (enh ? 0x20u : 0));
		if (sancmd_ata_caps(id, sizeof(id), &caps)) {
			all = 0;
			continue;
		}
		sancmd_ata_choose(&caps, &c);
		if (c.method != ata_expect(w59, sec, frozen, enabled, enh) ||
		    !c.why[0]) {
			tap_diag("combo %#x: %s (%s)", combo,
				 sancmd_method_name(c.method), c.why);
			all = 0;
		}
	}
	tap_ok(all, "method for all 256 sets: sanitize only when word 59 bit 12, security only thawed and without a password");
	memset(id, 0, sizeof(id));
	ata_word(id, 59, 0x1000 | 0x2000);
	ata_word(id, 82, 2);
	ata_word(id, 128, 0x09);
	sancmd_ata_caps(id, sizeof(id), &caps);
	sancmd_ata_choose(&caps, &c);
	tap_ok(c.method == SANCMD_CRYPTO, "crypto scramble though security is frozen");
	caps.crypto = 0;
	sancmd_ata_choose(&caps, &c);
	tap_ok(c.method == SANCMD_NONE && strstr(c.why, "frozen"),
	       "frozen, said: %s", c.why);

	e = sancmd_ata_estimate(0);
	tap_ok(e.kind == SANCMD_EST_NONE &&
	       (e = sancmd_ata_estimate(1)).kind == SANCMD_EST_EXACT &&
	       e.seconds == 120 &&
	       (e = sancmd_ata_estimate(0x8000)).kind == SANCMD_EST_NONE &&
	       (e = sancmd_ata_estimate(0x8000 | 300)).seconds == 36000 &&
	       (e = sancmd_ata_estimate(0xFFFF)).kind == SANCMD_EST_AT_LEAST &&
	       e.seconds == 65532ull * 60,
	       "erase times: 0 none, 2 minutes a unit, extended format, its most: at least");
}

/* Descriptor sense with an ATA Status Return descriptor. */
static void ata_sense(uint8_t *sense, unsigned error, unsigned status,
		      unsigned count, uint64_t lba)
{
	uint8_t *d = sense + 8;

	memset(sense, 0, 32);
	sense[0] = 0x72;
	sense[1] = 0x01;	/* RECOVERED ERROR */
	sense[3] = 0x1D;	/* ATA PASS THROUGH INFORMATION AVAILABLE */
	sense[7] = 14;
	d[0] = 0x09;
	d[1] = 0x0C;
	d[2] = 1;
	d[3] = (uint8_t)error;
	d[4] = (uint8_t)(count >> 8);
	d[5] = (uint8_t)count;
	d[6] = (uint8_t)(lba >> 24);
	d[7] = (uint8_t)lba;
	d[8] = (uint8_t)(lba >> 32);
	d[9] = (uint8_t)(lba >> 8);
	d[10] = (uint8_t)(lba >> 40);
	d[11] = (uint8_t)(lba >> 16);
	d[12] = 0x40;
	d[13] = (uint8_t)status;
}

static void ata_status(void)
{
	uint8_t sense[32];
	struct sancmd_ata_regs r;
	struct sancmd_progress p;

	ata_sense(sense, 0, 0x50, 0x4000, 0xBEEF12348000ull);
	tap_ok(sancmd_ata_regs(sense, sizeof(sense), &r) == 0 &&
	       r.lba == 0xBEEF12348000ull && r.count == 0x4000 &&
	       r.status == 0x50 && r.device == 0x40 &&
	       sancmd_ata_status(&r, &p) == 0 && p.state == SANCMD_RUNNING &&
	       p.percent == 50 && p.fraction == 0x8000,
	       "status return 09h: all 48 LBA bits; in progress at half (LBA 15:0)");
	ata_sense(sense, 0, 0x50, 0x8000 | 0x2000, 0xFFFF);
	tap_ok(sancmd_ata_regs(sense, sizeof(sense), &r) == 0 &&
	       sancmd_ata_status(&r, &p) == 0 && p.state == SANCMD_DONE &&
	       p.percent == 100 && p.frozen,
	       "completed without error (COUNT 15), frozen (13)");
	ata_sense(sense, 0, 0x50, 0, 0xFFFF);
	tap_ok(sancmd_ata_regs(sense, sizeof(sense), &r) == 0 &&
	       sancmd_ata_status(&r, &p) == 0 && p.state == SANCMD_IDLE,
	       "neither bit: none running, how the last ended unsaid");
	ata_sense(sense, 0x04, 0x51, 0, 0x01);
	tap_ok(sancmd_ata_regs(sense, sizeof(sense), &r) == 0 &&
	       sancmd_ata_status(&r, &p) == 0 && p.state == SANCMD_FAILED &&
	       p.reason == 1,
	       "ABORT with ERR: failed, its reason from LBA 7:0");

	memset(sense, 0, sizeof(sense));
	sense[0] = 0x70;
	sense[3] = 0x00;
	sense[4] = 0x50;
	sense[5] = 0x40;
	sense[6] = 0x00;
	sense[7] = 10;
	sense[8] = 0x80 | 0x40;	/* EXTEND, COUNT UPPER NONZERO */
	sense[9] = 0x00;
	sense[10] = 0x80;
	tap_ok(sancmd_ata_regs(sense, sizeof(sense), &r) == 0 &&
	       r.status == 0x50 && r.lba == 0x8000 && !r.count_hi_known &&
	       sancmd_ata_status(&r, &p) == -EPROTO,
	       "fixed sense: registers read, but without COUNT 15:8: -EPROTO");
	sense[8] = 0x80;
	tap_ok(sancmd_ata_regs(sense, sizeof(sense), &r) == 0 &&
	       r.count_hi_known && sancmd_ata_status(&r, &p) == 0 &&
	       p.state == SANCMD_IDLE,
	       "fixed sense, COUNT 15:8 flagged zero: none running");
	sense[3] = 0x04;
	sense[4] = 0x51;
	sense[8] = 0x80 | 0x40;
	sense[9] = 0x03;
	tap_ok(sancmd_ata_regs(sense, sizeof(sense), &r) == 0 &&
	       sancmd_ata_status(&r, &p) == 0 && p.state == SANCMD_FAILED &&
	       p.reason == 3,
	       "fixed sense of a failure (as libata gives it): failed, reason 3");
	ata_sense(sense, 0, 0x50, 0x4000, 0);
	sense[8] = 0x02;	/* another descriptor, not 09h */
	tap_ok(sancmd_ata_regs(sense, sizeof(sense), &r) == -ENODATA,
	       "descriptor sense without a status return: -ENODATA");
	ata_sense(sense, 0, 0x50, 0x4000, 0);
	tap_ok(sancmd_ata_regs(sense, 16, &r) == -EINVAL &&
	       sancmd_ata_regs(sense, 7, &r) == -EINVAL &&
	       sancmd_ata_regs(NULL, 32, &r) == -EINVAL &&
	       sancmd_ata_status(NULL, &p) == -EINVAL &&
	       (sense[0] = 0x7F, sancmd_ata_regs(sense, 32, &r)) == -EINVAL,
	       "cut short, NULL, an unknown response code: -EINVAL");
	ata_sense(sense, 0, 0x50, 0x4000, 0);
	sense[9] = 0x0B;	/* shorter than the 0Ch SAT-3 gives it */
	tap_ok(sancmd_ata_regs(sense, sizeof(sense), &r) == -EINVAL,
	       "a status return shorter than 0Ch: -EINVAL");
}

static void scsi_commands(void)
{
	const uint8_t pattern[4] = { 0xA5, 0x5A, 0x00, 0xFF };
	struct sancmd_scsi_sanitize s = { .action = SANCMD_SCSI_CRYPTO,
		.immed = 1 };
	const uint8_t crypto[10] = { 0x48, 0x83, 0, 0, 0, 0, 0, 0, 0, 0 };
	const uint8_t over[10] = { 0x48, 0x21, 0, 0, 0, 0, 0, 0x00, 0x08, 0 };
	const uint8_t list[8] = { 0x83, 0, 0x00, 0x04, 0xA5, 0x5A, 0x00, 0xFF };
	uint8_t cdb[10], param[16];
	size_t n = 99;
	int bad;

	tap_ok(sancmd_scsi_sanitize(cdb, NULL, 0, &n, &s) == 0 &&
	       same(cdb, crypto, 10) && n == 0,
	       "SCSI SANITIZE crypto erase: 48h, IMMED, action 03h, no list");
	s = (struct sancmd_scsi_sanitize){ .action = SANCMD_SCSI_OVERWRITE,
		.ause = 1, .passes = 3, .invert = 1, .pattern = pattern,
		.pattern_len = sizeof(pattern) };
	tap_ok(sancmd_scsi_sanitize(cdb, param, sizeof(param), &n, &s) == 0 &&
	       same(cdb, over, 10) && n == 8 && same(param, list, 8),
	       "overwrite: AUSE, action 01h, list length 8; INVERT, count, pattern");
	s.action = SANCMD_SCSI_BLOCK;
	tap_ok(sancmd_scsi_sanitize(cdb, NULL, 0, &n, &s) == 0 &&
	       cdb[1] == 0x22 && n == 0 &&
	       (s.action = SANCMD_SCSI_EXIT_FAILURE,
		sancmd_scsi_sanitize(cdb, NULL, 0, &n, &s)) == 0 &&
	       cdb[1] == 0x3F,
	       "block erase 02h, exit failure mode 1Fh");
	s = (struct sancmd_scsi_sanitize){ .action = SANCMD_SCSI_OVERWRITE,
		.passes = 0, .pattern = pattern, .pattern_len = 4 };
	bad = sancmd_scsi_sanitize(cdb, param, 16, &n, &s) == -EINVAL;
	s.passes = 32;
	bad &= sancmd_scsi_sanitize(cdb, param, 16, &n, &s) == -EINVAL;
	s.passes = 1;
	bad &= sancmd_scsi_sanitize(cdb, param, 7, &n, &s) == -EINVAL;
	s.pattern_len = 0;
	bad &= sancmd_scsi_sanitize(cdb, param, 16, &n, &s) == -EINVAL;
	s.action = 4;
	bad &= sancmd_scsi_sanitize(cdb, param, 16, &n, &s) == -EINVAL;
	bad &= sancmd_scsi_sanitize(NULL, param, 16, &n, &s) == -EINVAL;
	tap_ok(bad, "0 or 32 passes, no room, no pattern, action 04h, NULL: -EINVAL");
}

static int scsi_expect(int bits)
{
	if (bits & 1)
		return SANCMD_CRYPTO;
	if (bits & 2)
		return SANCMD_BLOCK;
	if (bits & 4)
		return SANCMD_OVERWRITE;
	return SANCMD_NONE;
}

static void scsi_caps(void)
{
	const uint8_t want[12] = { 0xA3, 0x0C, 0x02, 0x48, 0x00, 0x03,
		0x00, 0x00, 0x02, 0x00, 0, 0 };
	uint8_t cdb[12], data[8] = { 0 };
	struct sancmd_scsi_caps caps;
	struct sancmd_choice c;
	int bits, all = 1;

	tap_ok(sancmd_scsi_rsoc(cdb, SANCMD_SCSI_CRYPTO, 512) == 0 &&
	       same(cdb, want, 12) &&
	       sancmd_scsi_rsoc(cdb, 0x20, 512) == -EINVAL &&
	       sancmd_scsi_rsoc(NULL, 1, 512) == -EINVAL,
	       "REPORT SUPPORTED OPERATION CODES for 48h/03h: one command with its action");
	data[1] = 0x03;
	tap_ok(sancmd_scsi_supported(data, sizeof(data)) == 1 &&
	       (data[1] = 0x01, sancmd_scsi_supported(data, 8)) == 0 &&
	       (data[1] = 0x05, sancmd_scsi_supported(data, 8)) == 0 &&
	       (data[1] = 0x80, sancmd_scsi_supported(data, 8)) == -ENODATA &&
	       sancmd_scsi_supported(data, 3) == -EINVAL &&
	       sancmd_scsi_supported(NULL, 8) == -EINVAL,
	       "SUPPORT 011b yes, 001b and vendor's 101b no, 000b not yet, short: -EINVAL");
	for (bits = 0; bits < 8; bits++) {
		caps = (struct sancmd_scsi_caps){ bits & 1, bits >> 1 & 1,
			bits >> 2 & 1 };
		sancmd_scsi_choose(&caps, &c);
		if (c.method != scsi_expect(bits) || !c.why[0] ||
		    c.all_namespaces)
			all = 0;
	}
	sancmd_scsi_choose(NULL, &c);
	tap_ok(all && c.method == SANCMD_NONE,
	       "SCSI method for all 8 sets: crypto, block, overwrite, none");
}

static void scsi_sense(void)
{
	uint8_t sense[32];
	const uint8_t desc[24] = { 0x72, 0x02, 0x04, 0x1B, 0, 0, 0, 16,
		0x02, 0x06, 0, 0, 0x80, 0x40, 0x00, 0,	/* SKS: 25% */
		0x0A, 0x06, 0, 0, 0, 0, 0, 0 };
	struct sancmd_progress p;

	memset(sense, 0, sizeof(sense));
	sense[0] = 0x70;
	sense[2] = 0x02;
	sense[7] = 10;
	sense[12] = 0x04;
	sense[13] = 0x1B;
	sense[15] = 0x80;
	sense[16] = 0x80;
	tap_ok(sancmd_scsi_progress(sense, 18, &p) == 0 &&
	       p.state == SANCMD_RUNNING && p.percent == 50,
	       "fixed sense: NOT READY 04h/1Bh, SKSV and progress 16-17 at half");
	sense[15] = 0;
	tap_ok(sancmd_scsi_progress(sense, 18, &p) == 0 &&
	       p.state == SANCMD_RUNNING && p.fraction == 0,
	       "SKSV clear: running, how far unsaid");
	tap_ok(sancmd_scsi_progress(desc, sizeof(desc), &p) == 0 &&
	       p.state == SANCMD_RUNNING && p.fraction == 0x4000 &&
	       p.percent == 25,
	       "descriptor sense: its sense-key specific descriptor (02h) at a quarter");
	sense[2] = 0x03;
	sense[12] = 0x31;
	sense[13] = 0x03;
	tap_ok(sancmd_scsi_progress(sense, 18, &p) == 0 &&
	       p.state == SANCMD_FAILED, "31h/03h: SANITIZE COMMAND FAILED");
	memset(sense, 0, sizeof(sense));
	sense[0] = 0x70;
	sense[7] = 10;
	tap_ok(sancmd_scsi_progress(sense, 18, &p) == 0 &&
	       p.state == SANCMD_IDLE, "no sense: none running");
	sense[2] = 0x06;
	sense[12] = 0x29;
	tap_ok(sancmd_scsi_progress(sense, 18, &p) == 0 &&
	       p.state == SANCMD_UNKNOWN, "other sense: unknown");
	memcpy(sense, desc, sizeof(desc));
	sense[7] = 0xF0;	/* longer than the buffer */
	tap_ok(sancmd_scsi_progress(sense, 14, &p) == 0 &&
	       p.state == SANCMD_RUNNING && p.fraction == 0,
	       "descriptor cut short: its progress is not read past the end");
	tap_ok(sancmd_scsi_progress(sense, 7, &p) == -EINVAL &&
	       sancmd_scsi_progress(NULL, 18, &p) == -EINVAL &&
	       sancmd_scsi_progress(sense, 18, NULL) == -EINVAL &&
	       (sense[0] = 0x70, sancmd_scsi_progress(sense, 13, &p)) == -EINVAL &&
	       (sense[0] = 0x00, sancmd_scsi_progress(sense, 18, &p)) == -EINVAL,
	       "short, NULL, unknown response code: -EINVAL");
}

static void deadlines(void)
{
	struct sancmd_estimate e = { SANCMD_EST_EXACT, 3600 };
	const char *why = NULL;
	uint64_t s;

	s = sancmd_deadline(e, 0, &why);
	tap_ok(s == 7800 && strstr(why, "twice"),
	       "an hour's estimate: 2 hours 10 minutes (%s)", why);
	e = sancmd_nvme_estimate(0xFFFFFFFF);
	tap_ok(sancmd_deadline(e, 0, &why) == 7200 && strstr(why, "default") &&
	       sancmd_deadline(e, 1, &why) == 86400 && strstr(why, "rotating"),
	       "no estimate (FFFFFFFFh): 2 hours flash, a day rotating, said");
	e = sancmd_nvme_estimate(0);
	tap_ok(e.kind == SANCMD_EST_NONE && sancmd_deadline(e, 0, NULL) == 7200 &&
	       sancmd_deadline(sancmd_ata_estimate(0), 1, NULL) == 86400,
	       "estimate 0 (NVMe, ATA): the default");
	e = sancmd_ata_estimate(255);
	tap_ok(sancmd_deadline(e, 0, &why) == 2 * 30480 + 600 &&
	       strstr(why, "least") && sancmd_deadline(e, 1, &why) == 86400 &&
	       strstr(why, "default"),
	       "ATA 255 (over 508 minutes): twice that on flash, a day rotating");
	e = sancmd_nvme_estimate(0xFFFFFFFE);
	tap_ok(sancmd_deadline(e, 0, NULL) == 2ull * 0xFFFFFFFE + 600,
	       "the largest NVMe estimate, without overflow");
	s = (UINT64_MAX - 600) / 2;
	e = (struct sancmd_estimate){ SANCMD_EST_EXACT, s };
	tap_ok(sancmd_deadline(e, 0, NULL) == 2 * s + 600 &&
	       (e.seconds = s + 1, sancmd_deadline(e, 0, NULL)) == UINT64_MAX &&
	       (e.seconds = UINT64_MAX, sancmd_deadline(e, 1, NULL)) == UINT64_MAX &&
	       (e.kind = SANCMD_EST_AT_LEAST,
		sancmd_deadline(e, 0, NULL)) == UINT64_MAX,
	       "a huge estimate saturates, never wraps");
	e = (struct sancmd_estimate){ 7, 100 };
	tap_ok(sancmd_deadline(e, 0, NULL) == 7200,
	       "an unknown kind of estimate: the default");
}

static void classes(void)
{
	tap_ok(sancmd_method_class(SANCMD_CRYPTO) == SANCMD_CLASS_PURGE &&
	       !strcmp(sancmd_method_technique(SANCMD_CRYPTO),
		       "Cryptographic Erase") &&
	       sancmd_method_class(SANCMD_BLOCK) == SANCMD_CLASS_PURGE &&
	       !strcmp(sancmd_method_technique(SANCMD_BLOCK), "Block Erase") &&
	       sancmd_method_class(SANCMD_OVERWRITE) == SANCMD_CLASS_PURGE &&
	       !strcmp(sancmd_method_technique(SANCMD_OVERWRITE), "Overwrite"),
	       "sanitize crypto erase, block erase, overwrite: purge");
	tap_ok(sancmd_method_class(SANCMD_ZERO) == SANCMD_CLASS_CLEAR &&
	       !strcmp(sancmd_method_technique(SANCMD_ZERO), "Overwrite") &&
	       sancmd_method_class(SANCMD_DISCARD) == SANCMD_CLASS_NONE &&
	       !strcmp(sancmd_method_technique(SANCMD_DISCARD), "") &&
	       !strcmp(sancmd_class_name(SANCMD_CLASS_NONE), "none"),
	       "zeros by the host: clear; discard: no class");
	tap_ok(sancmd_method_class(SANCMD_FORMAT_CRYPTO) == SANCMD_CLASS_CLEAR &&
	       sancmd_method_class(SANCMD_SECURITY_ENHANCED) == SANCMD_CLASS_CLEAR,
	       "Format NVM and SECURITY ERASE UNIT: claimed no more than clear");
	tap_ok(!strcmp(sancmd_method_name(-1), "unknown") &&
	       !strcmp(sancmd_method_name(SANCMD_METHODS), "unknown") &&
	       sancmd_method_class(99) == SANCMD_CLASS_NONE &&
	       !strcmp(sancmd_method_technique(99), "") &&
	       !strcmp(sancmd_class_name(3), "unknown") &&
	       !strcmp(sancmd_state_name(SANCMD_STATES), "unknown") &&
	       !strcmp(sancmd_state_name(SANCMD_RUNNING), "running") &&
	       !strcmp(sancmd_method_name(SANCMD_CRYPTO), "crypto-erase"),
	       "names in range, \"unknown\" out of it");
}

int main(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	tap_plan(PLAN);
	nvme_commands();
	nvme_identify();
	nvme_log();
	ata_commands();
	ata_identify();
	ata_status();
	scsi_commands();
	scsi_caps();
	scsi_sense();
	deadlines();
	classes();
	return tap_done();
}
