/* SPDX-License-Identifier: MIT */
/*
 * Description: end=sanitize on ATA and SCSI disks (engine/sanstep_sg.c):
 * which commands a disk is sent from its INQUIRY (SAT's vendor "ATA"
 * goes through ATA PASS-THROUGH, any other through SCSI SANITIZE); a
 * refusal's sense data said in words, fixed and descriptor alike; when
 * a sanitize followed by ATA SANITIZE STATUS EXT or SCSI REQUEST SENSE
 * is over, failed, late, or still waited on (SCSI's "none runs" is done,
 * ATA's is not); whether an ATA SANITIZE may start (not frozen, none
 * running); each method as sent, in words; and the CDBs kiln adds
 * for IDENTIFY DEVICE and for clearing its own password.
 */
#include <stdint.h>
#include <string.h>

#include "../lib/tap.h"
#include "engine/sanstep.h"

static void test_kind(void)
{
	uint8_t inq[96];

	memset(inq, 0, sizeof(inq));
	memcpy(inq + 8, "ATA     QEMU HARDDISK   ", 24);
	tap_ok(sanstep_sg_kind(inq, sizeof(inq)) == SANSTEP_ATA,
	       "INQUIRY vendor ATA (a SATL): ATA PASS-THROUGH");
	memcpy(inq + 8, "QEMU    QEMU HARDDISK   ", 24);
	tap_ok(sanstep_sg_kind(inq, sizeof(inq)) == SANSTEP_SCSI,
	       "INQUIRY vendor QEMU: SCSI SANITIZE");
	memcpy(inq + 8, "ATAPI   ", 8);
	tap_ok(sanstep_sg_kind(inq, sizeof(inq)) == SANSTEP_SCSI,
	       "a vendor that only starts with ATA is SCSI");
	tap_ok(sanstep_sg_kind(inq, 12) == SANSTEP_SCSI,
	       "an INQUIRY too short for a vendor: SCSI");
}

static void test_said(void)
{
	uint8_t fixed[18] = { 0x70, 0, 0x05, 0, 0, 0, 0, 10, 0, 0, 0, 0,
			      0x20, 0x00 };
	uint8_t desc[8] = { 0x72, 0x05, 0x24, 0x00, 0, 0, 0, 0 };
	uint8_t ua[18] = { 0x70, 0, 0x06, 0, 0, 0, 0, 10, 0, 0, 0, 0,
			   0x29, 0x00 };
	char buf[120];

	tap_ok(!strcmp(sanstep_sg_said(fixed, sizeof(fixed), buf,
				       sizeof(buf)),
		       "ILLEGAL REQUEST, INVALID COMMAND OPERATION CODE "
		       "(ASC/ASCQ 20h/00h)"), "fixed sense: %s", buf);
	tap_ok(!strcmp(sanstep_sg_said(desc, sizeof(desc), buf, sizeof(buf)),
		       "ILLEGAL REQUEST, INVALID FIELD IN CDB (ASC/ASCQ "
		       "24h/00h)"), "descriptor sense: %s", buf);
	tap_ok(!strcmp(sanstep_sg_said(ua, sizeof(ua), buf, sizeof(buf)),
		       "UNIT ATTENTION (ASC/ASCQ 29h/00h)"),
	       "an ASC kiln has no name for: its codes: %s", buf);
	tap_ok(!strcmp(sanstep_sg_said(desc, 0, buf, sizeof(buf)),
		       "no sense data") &&
	       !strcmp(sanstep_sg_said(NULL, 18, buf, sizeof(buf)),
		       "no sense data"), "none, or none readable: said so");
}

static void test_next(void)
{
	struct sancmd_progress p = { .state = SANCMD_RUNNING };

	tap_ok(sanstep_sg_next(SANSTEP_ATA, &p, 5, 600) == SANSTEP_WAIT &&
	       sanstep_sg_next(SANSTEP_SCSI, &p, 5, 600) == SANSTEP_WAIT,
	       "running: wait");
	tap_ok(sanstep_sg_next(SANSTEP_SCSI, &p, 600, 600) == SANSTEP_WAIT &&
	       sanstep_sg_next(SANSTEP_SCSI, &p, 601, 600) == SANSTEP_LATE,
	       "running past its deadline, not at it: late");
	p.state = SANCMD_DONE;
	tap_ok(sanstep_sg_next(SANSTEP_ATA, &p, 5, 600) == SANSTEP_DONE,
	       "ATA completed without error: done");
	p.state = SANCMD_IDLE;
	tap_ok(sanstep_sg_next(SANSTEP_ATA, &p, 5, 600) == SANSTEP_WAIT,
	       "ATA neither running nor completed: wait");
	tap_ok(sanstep_sg_next(SANSTEP_SCSI, &p, 5, 600) == SANSTEP_DONE,
	       "SCSI no sense after a SANITIZE taken: done");
	p.state = SANCMD_FAILED;
	tap_ok(sanstep_sg_next(SANSTEP_ATA, &p, 5, 600) == SANSTEP_FAILED &&
	       sanstep_sg_next(SANSTEP_SCSI, &p, 9999, 600) ==
	       SANSTEP_FAILED, "failed: failed, late or not");
	p.state = SANCMD_UNKNOWN;
	tap_ok(sanstep_sg_next(SANSTEP_SCSI, &p, 5, 600) == SANSTEP_WAIT,
	       "SCSI sense of something else (a unit attention): wait");
}

static void test_ready(void)
{
	struct sancmd_progress p = { .state = SANCMD_IDLE };
	const char *no;

	tap_ok(!sanstep_sg_ata_ready(&p), "idle: a SANITIZE may start");
	p.state = SANCMD_DONE;
	tap_ok(!sanstep_sg_ata_ready(&p), "an older one done: may start");
	p.state = SANCMD_FAILED;
	tap_ok(!sanstep_sg_ata_ready(&p),
	       "an older one failed: may start (a new one clears it)");
	p.state = SANCMD_IDLE;
	p.frozen = 1;
	no = sanstep_sg_ata_ready(&p);
	tap_ok(no && strstr(no, "frozen (SANITIZE FREEZE LOCK"),
	       "frozen: none, said: %s", no ? no : "(null)");
	p.frozen = 0;
	p.state = SANCMD_RUNNING;
	no = sanstep_sg_ata_ready(&p);
	tap_ok(no && strstr(no, "is running"),
	       "one already running: none, said: %s", no ? no : "(null)");
}

static void test_poll_next(void)
{
	struct sanstep s;
	struct sancmd_progress p = { .state = SANCMD_IDLE };

	memset(&s, 0, sizeof(s));
	s.kind = SANSTEP_SCSI;
	s.deadline = 600;
	tap_ok(sanstep_poll_next(&s, &p, 5) == SANSTEP_DONE,
	       "a SCSI disk's look is judged as SCSI's");
	s.kind = SANSTEP_NVME;
	p.state = SANCMD_DONE;
	p.cdw10 = 9;
	s.cmd.cdw10 = 4;
	tap_ok(sanstep_poll_next(&s, &p, 5) == SANSTEP_WAIT,
	       "an NVMe done of another command than ours: not done");
}

static void test_words(void)
{
	struct sanstep s;
	char buf[64];

	memset(&s, 0, sizeof(s));
	s.kind = SANSTEP_ATA;
	s.choice.method = SANCMD_CRYPTO;
	tap_ok(!strcmp(sanstep_words(&s, buf, sizeof(buf)),
		       "ATA SANITIZE, crypto scramble"), "%s", buf);
	s.choice.method = SANCMD_SECURITY_ENHANCED;
	tap_ok(!strcmp(sanstep_words(&s, buf, sizeof(buf)),
		       "ATA SECURITY ERASE UNIT, enhanced"), "%s", buf);
	s.kind = SANSTEP_SCSI;
	s.choice.method = SANCMD_OVERWRITE;
	tap_ok(!strcmp(sanstep_words(&s, buf, sizeof(buf)),
		       "SCSI SANITIZE, overwrite with zeros, 1 pass"), "%s",
	       buf);
	s.kind = SANSTEP_NVME;
	s.choice.method = SANCMD_BLOCK;
	tap_ok(!strcmp(sanstep_words(&s, buf, sizeof(buf)),
		       "Sanitize, block erase"), "NVMe's words unchanged");
}

static void test_cdbs(void)
{
	/* hdparm -I's: PIO data-in (4), T_DIR|BYTE_BLOCK|T_LENGTH=2. */
	static const uint8_t id[16] = { 0x85, 0x08, 0x0e, 0, 0, 0, 1, 0, 0,
					0, 0, 0, 0, 0, 0xec, 0 };
	static const uint8_t dis[16] = { 0x85, 0x0a, 0x26, 0, 0, 0, 1, 0, 0,
					 0, 0, 0, 0, 0, 0xf6, 0 };
	uint8_t cdb[16];

	tap_ok(sancmd_ata_identify(cdb) == 0 && !memcmp(cdb, id, 16),
	       "IDENTIFY DEVICE in ATA PASS-THROUGH(16)");
	tap_ok(sancmd_ata_disable_password(cdb) == 0 && !memcmp(cdb, dis, 16),
	       "SECURITY DISABLE PASSWORD: PIO data-out, one block, CK_COND");
	tap_ok(sancmd_ata_unlock(cdb) == 0 && cdb[14] == 0xf2 &&
	       !memcmp(cdb, dis, 14), "SECURITY UNLOCK: the same, F2h");
	tap_ok(sancmd_ata_identify(NULL) == -22, "NULL: -EINVAL");
}

int main(void)
{
	tap_plan(30);
	test_kind();
	test_said();
	test_next();
	test_ready();
	test_poll_next();
	test_words();
	test_cdbs();
	return tap_done();
}
