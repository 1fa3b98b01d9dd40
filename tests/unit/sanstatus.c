/* SPDX-License-Identifier: MIT */
/*
 * Description: a sanitize left running in a drive, decided from the bytes
 * the specifications lay out: NVMe Sanitize Status log 81h (SPROG bytes
 * 1:0, SSTAT 3:2 with its status in 2:0); the ATA registers SANITIZE
 * STATUS EXT returns in SAT's descriptor 09h (COUNT bit 14 in progress,
 * 15 completed, LBA 15:0 the progress; ERR with ABORT a failed one);
 * SCSI sense, fixed and descriptor, NOT READY 04h/1Bh with the progress
 * indication, 31h/03h SANITIZE COMMAND FAILED. In progress with how far,
 * the last one failed, never or completed; such a disk is said in
 * inventory.json and on the console, and kiln run's plan skips it with
 * the words (not a FAIL of it); a controller without the log, or a disk
 * that refuses the question, is said so and planned as any other disk;
 * a USB disk is never asked.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/tap.h"
#include "base/jsonread.h"
#include "discover/inventory.h"
#include "discover/sanstatus.h"
#include "engine/sancmd.h"
#include "engine/sanstep.h"
#include "plan/plan.h"
#include "settings/settings.h"

static void put16(uint8_t *p, unsigned v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

/* A log 81h: SPROG and SSTAT's status, the rest as a drive leaves it. */
static void log81(uint8_t *log, unsigned sprog, unsigned status)
{
	memset(log, 0, 512);
	put16(log, sprog);
	/* One overwrite pass, global data erased clear: status alone counts. */
	put16(log + 2, status | 1 << 3);
}

static void test_decide(void)
{
	uint8_t log[512];
	struct sanstatus s;

	log81(log, 0x4000, 2);
	tap_ok(sanstatus_decide(log, sizeof(log), &s) == 0 &&
	       s.state == SANSTATUS_RUNNING && s.percent == 25 &&
	       sanstatus_blocks(&s) &&
	       strstr(s.why, "sanitize in progress (25% done)"),
	       "SSTAT 010b, SPROG 4000h: in progress, 25%% done (%s)", s.why);
	log81(log, 0xffff, 3);
	tap_ok(sanstatus_decide(log, sizeof(log), &s) == 0 &&
	       s.state == SANSTATUS_FAILED && sanstatus_blocks(&s) &&
	       strstr(s.why, "the last sanitize failed"),
	       "SSTAT 011b: the last one failed, not burnt (%s)", s.why);
	log81(log, 0xffff, 0);
	tap_ok(sanstatus_decide(log, sizeof(log), &s) == 0 &&
	       s.state == SANSTATUS_IDLE && !sanstatus_blocks(&s),
	       "SSTAT 000b (never sanitized): idle");
	log81(log, 0xffff, 1);
	tap_ok(sanstatus_decide(log, sizeof(log), &s) == 0 &&
	       s.state == SANSTATUS_IDLE && !sanstatus_blocks(&s),
	       "SSTAT 001b (completed): idle");
	log81(log, 0xffff, 4);
	tap_ok(sanstatus_decide(log, sizeof(log), &s) == 0 &&
	       s.state == SANSTATUS_IDLE,
	       "SSTAT 100b (completed, no deallocate): idle");
	tap_ok(sanstatus_decide(log, 511, &s) == -EINVAL &&
	       s.state == SANSTATUS_UNREAD && !sanstatus_blocks(&s),
	       "a short log: unread, not blocking");
	s.state = SANSTATUS_NO_LOG;
	tap_ok(!sanstatus_blocks(&s) &&
	       !strcmp(sanstatus_name(s.state), "no sanitize log") &&
	       !sanstatus_name(SANSTATUS_UNREAD),
	       "no log 81h: not blocking, said as no sanitize log");
}

/*
 * Descriptor sense (72h) with SAT's ATA Status Return descriptor (09h):
 * as libata answers a pass-through with CK_COND.
 */
static size_t ata_sense(uint8_t *sense, unsigned status, unsigned error,
			unsigned count, unsigned lba)
{
	uint8_t *d = sense + 8;

	memset(sense, 0, 64);
	sense[0] = 0x72;
	sense[1] = status & 0x01 ? 0x0b : 0x01;	/* ABORTED, RECOVERED */
	sense[3] = status & 0x01 ? 0x00 : 0x1d;
	sense[7] = 14;
	d[0] = 0x09;
	d[1] = 0x0c;
	d[2] = 0x01;			/* EXTEND */
	d[3] = (uint8_t)error;
	d[4] = (uint8_t)(count >> 8);
	d[5] = (uint8_t)count;
	d[7] = (uint8_t)lba;		/* LBA 7:0 */
	d[9] = (uint8_t)(lba >> 8);	/* LBA 15:8 */
	d[12] = 0x40;
	d[13] = (uint8_t)status;
	return 22;
}

/* ATA sense as sanstep_sg_poll reads it, then decided. */
static int ata_decide(const uint8_t *sense, size_t len, struct sanstatus *s)
{
	struct sancmd_ata_regs r;
	struct sancmd_progress p;
	int ret = sancmd_ata_regs(sense, len, &r);

	if (!ret)
		ret = sancmd_ata_status(&r, &p);
	sanstatus_answer(SANSTEP_ATA, ret, &p, "ATA SANITIZE STATUS EXT "
			 "unsaid", s);
	return ret;
}

/* Fixed sense (70h), 18 bytes, the progress in the sense-key specific. */
static size_t fixed_sense(uint8_t *sense, unsigned key, unsigned asc,
			  unsigned ascq, int sksv, unsigned progress)
{
	memset(sense, 0, 64);
	sense[0] = 0x70;
	sense[2] = (uint8_t)key;
	sense[7] = 10;
	sense[12] = (uint8_t)asc;
	sense[13] = (uint8_t)ascq;
	sense[15] = sksv ? 0x80 : 0;
	sense[16] = (uint8_t)(progress >> 8);
	sense[17] = (uint8_t)progress;
	return 18;
}

/* Descriptor sense (72h) with a sense-key specific descriptor (02h). */
static size_t desc_sense(uint8_t *sense, unsigned key, unsigned asc,
			 unsigned ascq, unsigned progress)
{
	memset(sense, 0, 64);
	sense[0] = 0x72;
	sense[1] = (uint8_t)key;
	sense[2] = (uint8_t)asc;
	sense[3] = (uint8_t)ascq;
	sense[7] = 8;
	sense[8] = 0x02;
	sense[9] = 0x06;
	sense[12] = 0x80;
	sense[13] = (uint8_t)(progress >> 8);
	sense[14] = (uint8_t)progress;
	return 16;
}

static int scsi_decide(const uint8_t *sense, size_t len, struct sanstatus *s)
{
	struct sancmd_progress p;
	int ret = sancmd_scsi_progress(sense, len, &p);

	sanstatus_answer(SANSTEP_SCSI, ret, &p, "REQUEST SENSE unsaid", s);
	return ret;
}

static void test_ata(void)
{
	uint8_t sense[64];
	struct sanstatus s;
	size_t n;

	n = ata_sense(sense, 0x50, 0, 0x4000, 0x8000);
	tap_ok(!ata_decide(sense, n, &s) && s.state == SANSTATUS_RUNNING &&
	       s.percent == 50 && sanstatus_blocks(&s) &&
	       strstr(s.why, "sanitize in progress (50% done)"),
	       "ATA: COUNT bit 14 (in progress), LBA 8000h: 50%% done, not "
	       "burnt (%s)", s.why);
	n = ata_sense(sense, 0x50, 0, 0x8000, 0xffff);
	tap_ok(!ata_decide(sense, n, &s) && s.state == SANSTATUS_IDLE &&
	       !sanstatus_blocks(&s),
	       "ATA: COUNT bit 15 (completed without error): idle, burnt");
	n = ata_sense(sense, 0x50, 0, 0, 0xffff);
	tap_ok(!ata_decide(sense, n, &s) && s.state == SANSTATUS_IDLE &&
	       !sanstatus_blocks(&s), "ATA: none in progress, none "
	       "completed: idle");
	n = ata_sense(sense, 0x51, 0x04, 0, 0x01);
	tap_ok(!ata_decide(sense, n, &s) && s.state == SANSTATUS_FAILED &&
	       sanstatus_blocks(&s) && strstr(s.why, "the last sanitize "
					      "failed"),
	       "ATA: ERR with ABORT (reason in LBA 7:0): failed, not burnt");
	/* Fixed sense lacks COUNT 15:8 (its flag says it is not zero). */
	memset(sense, 0, sizeof(sense));
	sense[0] = 0x70;
	sense[2] = 0x01;
	sense[4] = 0x50;
	sense[7] = 10;
	sense[8] = 0x40;
	tap_ok(ata_decide(sense, 18, &s) == -EPROTO &&
	       s.state == SANSTATUS_NO_STATUS && !sanstatus_blocks(&s) &&
	       !strcmp(sanstatus_name(s.state), "no sanitize status"),
	       "ATA fixed sense without COUNT 15:8: no sanitize status, "
	       "not blocking (%s)", s.why);
}

static void test_scsi(void)
{
	uint8_t sense[64];
	struct sanstatus s;
	size_t n;

	n = fixed_sense(sense, 0x2, 0x04, 0x1b, 1, 0x4000);
	tap_ok(!scsi_decide(sense, n, &s) && s.state == SANSTATUS_RUNNING &&
	       s.percent == 25 && sanstatus_blocks(&s),
	       "SCSI fixed sense: NOT READY 04h/1Bh, progress 4000h: in "
	       "progress, 25%% (%s)", s.why);
	n = desc_sense(sense, 0x2, 0x04, 0x1b, 0xc000);
	tap_ok(!scsi_decide(sense, n, &s) && s.state == SANSTATUS_RUNNING &&
	       s.percent == 75 && sanstatus_blocks(&s),
	       "SCSI descriptor sense: 04h/1Bh, progress descriptor C000h: "
	       "in progress, 75%%");
	n = fixed_sense(sense, 0x2, 0x04, 0x1b, 0, 0);
	tap_ok(!scsi_decide(sense, n, &s) && s.state == SANSTATUS_RUNNING &&
	       s.percent == 0 && sanstatus_blocks(&s),
	       "SCSI 04h/1Bh without SKSV: in progress all the same");
	n = fixed_sense(sense, 0x3, 0x31, 0x03, 0, 0);
	tap_ok(!scsi_decide(sense, n, &s) && s.state == SANSTATUS_FAILED &&
	       sanstatus_blocks(&s),
	       "SCSI MEDIUM ERROR 31h/03h (SANITIZE COMMAND FAILED): failed");
	n = desc_sense(sense, 0x3, 0x31, 0x03, 0);
	tap_ok(!scsi_decide(sense, n, &s) && s.state == SANSTATUS_FAILED,
	       "SCSI descriptor 31h/03h: failed");
	n = fixed_sense(sense, 0x0, 0, 0, 0, 0);
	tap_ok(!scsi_decide(sense, n, &s) && s.state == SANSTATUS_IDLE &&
	       !sanstatus_blocks(&s), "SCSI NO SENSE 00h/00h: idle, burnt");
	n = fixed_sense(sense, 0x6, 0x29, 0x00, 0, 0);
	tap_ok(!scsi_decide(sense, n, &s) && s.state == SANSTATUS_NO_STATUS &&
	       !sanstatus_blocks(&s),
	       "SCSI UNIT ATTENTION 29h/00h: no sanitize status, not "
	       "blocking (%s)", s.why);
	memset(sense, 0, sizeof(sense));
	tap_ok(scsi_decide(sense, sizeof(sense), &s) == -EINVAL &&
	       s.state == SANSTATUS_NO_STATUS && !sanstatus_blocks(&s),
	       "no sense data at all: no sanitize status");
}

static void test_refused(void)
{
	struct sancmd_progress p;
	struct sanstatus s;

	memset(&p, 0, sizeof(p));
	p.state = SANCMD_RUNNING;
	sanstatus_answer(SANSTEP_ATA, -EOPNOTSUPP, &p, "ATA IDENTIFY DEVICE: "
			 "no SANITIZE feature set (word 59 bit 12)", &s);
	tap_ok(s.state == SANSTATUS_NO_STATUS && !sanstatus_blocks(&s) &&
	       strstr(s.why, "no SANITIZE feature set"),
	       "a question refused is no sanitize status, whatever p holds "
	       "(%s)", s.why);
	tap_ok(sanstatus_ask("nvme") == SANSTATUS_ASK_NVME &&
	       sanstatus_ask("sata") == SANSTATUS_ASK_SG &&
	       sanstatus_ask("ata") == SANSTATUS_ASK_SG &&
	       sanstatus_ask("sas") == SANSTATUS_ASK_SG &&
	       sanstatus_ask("scsi") == SANSTATUS_ASK_SG &&
	       sanstatus_ask("virtio-scsi") == SANSTATUS_ASK_SG,
	       "NVMe is read its log; SATA, SAS, SCSI are asked by SG_IO");
	tap_ok(sanstatus_ask("usb") == SANSTATUS_ASK_NONE &&
	       sanstatus_ask("virtio") == SANSTATUS_ASK_NONE &&
	       sanstatus_ask("loop") == SANSTATUS_ASK_NONE &&
	       sanstatus_ask("dm") == SANSTATUS_ASK_NONE &&
	       sanstatus_ask("unknown") == SANSTATUS_ASK_NONE,
	       "a USB disk is never asked (no ATA command through a bridge); "
	       "virtio, loop, dm neither");
}

static struct discover_disk disks[5];
static struct discover_inventory inv = { .disks = disks, .ndisks = 5 };

static void nvme(int i, const char *name)
{
	struct discover_disk *d = &disks[i];

	memset(d, 0, sizeof(*d));
	snprintf(d->id.name, sizeof(d->id.name), "%s", name);
	snprintf(d->id.serial, sizeof(d->id.serial), "SN-%s", name);
	snprintf(d->id.identity, sizeof(d->id.identity), "serial:SN-%s",
		 name);
	snprintf(d->transport, sizeof(d->transport), "nvme");
	d->controller = -1;
	d->safety.class = SAFETY_BLANK;
	d->size = 1 << 30;
}

static void test_plan_and_inventory(void)
{
	struct plan_item items[5];
	uint8_t sense[64];
	size_t n;
	struct settings s;
	uint8_t log[512];
	const struct jsonread_node *d, *san[5] = { NULL };
	struct jsonread *doc = NULL;
	char *text = NULL, *json;
	size_t len = 0, i;
	FILE *f;

	nvme(0, "nvme0n1");
	nvme(1, "nvme1n1");
	nvme(2, "nvme2n1");
	log81(log, 0x8000, 2);
	sanstatus_decide(log, sizeof(log), &disks[0].san);
	disks[1].san.state = SANSTATUS_NO_LOG;
	snprintf(disks[1].san.why, sizeof(disks[1].san.why),
		 "no sanitize log (log 81h refused, status 0x4109)");
	log81(log, 0xffff, 1);
	sanstatus_decide(log, sizeof(log), &disks[2].san);
	nvme(3, "sda");
	snprintf(disks[3].transport, sizeof(disks[3].transport), "sata");
	n = ata_sense(sense, 0x50, 0, 0x4000, 0x2000);
	ata_decide(sense, n, &disks[3].san);
	nvme(4, "sdb");
	snprintf(disks[4].transport, sizeof(disks[4].transport),
		 "virtio-scsi");
	sanstatus_answer(SANSTEP_SCSI, -EIO, NULL, "REQUEST SENSE refused",
			 &disks[4].san);
	settings_defaults(&s, SCOPE_RUN);
	plan_choose(&s, &inv, items);
	tap_ok(items[0].action == PLAN_SKIP &&
	       strstr(items[0].why, "sanitize in progress (50% done)"),
	       "kiln run: the disk sanitizing is skipped, said (%s)",
	       items[0].why);
	tap_ok(items[1].action == PLAN_WRITE && items[2].action == PLAN_WRITE,
	       "no sanitize log, or none running: planned as before");
	tap_ok(items[3].action == PLAN_SKIP &&
	       strstr(items[3].why, "sanitize in progress (12% done)") &&
	       items[4].action == PLAN_WRITE,
	       "an ATA disk sanitizing is skipped (%s); a SCSI one that "
	       "refused the question is planned as before", items[3].why);

	f = open_memstream(&text, &len);
	if (!f)
		tap_bail("open_memstream");
	inventory_print(&inv, f);
	fclose(f);
	tap_ok(strstr(text, "SANITIZING: sanitize in progress (50% done)") &&
	       strstr(text, "SANITIZING: sanitize in progress (12% done)") &&
	       strstr(text, "no sanitize log") &&
	       strstr(text, "no sanitize status"),
	       "the console says the sanitize, and the log's absence");
	free(text);
	json = inventory_json(&inv, &len);
	if (!json || jsonread_parse(&doc, json, len, NULL, NULL, 0))
		tap_bail("inventory.json does not parse");
	d = jsonread_get(jsonread_root(doc), "disks");
	for (i = 0; i < 5 && i < jsonread_count(d); i++)
		san[i] = jsonread_get(jsonread_at(d, i), "sanitize");
	tap_ok(jsonread_count(d) == 5 &&
	       !strcmp(jsonread_str(san[0], "state", ""), "in progress") &&
	       jsonread_u64(san[0], "percent", 0) == 50 &&
	       !strcmp(jsonread_str(san[1], "state", ""), "no sanitize log") &&
	       !strcmp(jsonread_str(san[2], "state", ""), "idle") &&
	       !strcmp(jsonread_str(san[3], "state", ""), "in progress") &&
	       jsonread_u64(san[3], "percent", 0) == 12 &&
	       !strcmp(jsonread_str(san[4], "state", ""),
		       "no sanitize status"),
	       "inventory.json: each disk's sanitize state, NVMe, ATA, SCSI");
	jsonread_free(doc);
	free(json);
	settings_free(&s);
}

int main(int argc, char **argv)
{
	tap_args(argc, argv);
	TAP_RUN(test_decide);
	TAP_RUN(test_ata);
	TAP_RUN(test_scsi);
	TAP_RUN(test_refused);
	TAP_RUN(test_plan_and_inventory);
	return tap_done();
}
