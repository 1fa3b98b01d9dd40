/* SPDX-License-Identifier: MIT */
/*
 * Description: hidden capacity parsed from the specifications' layouts:
 * NVMe Identify Controller's TNVMCAP and UNVMCAP (bytes 280 and 296,
 * 128-bit little-endian), the allocated list less the active one,
 * Identify Namespace's size in its current format; ATA IDENTIFY DEVICE
 * (words 60-61, 100-103, 82 bit 10, 83 bits 10, 11 and 15:14), READ
 * NATIVE MAX ADDRESS's registers in descriptor and fixed sense, 28- and
 * 48-bit, DEVICE CONFIGURATION IDENTIFY's words 3-6 and checksum; the
 * CDBs; and the findings in words: an HPA found, none, a refusal.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/tap.h"
#include "base/json.h"
#include "base/jsonread.h"
#include "discover/hidden.h"
#include "engine/sancmd.h"

static void put16(uint8_t *id, unsigned w, unsigned v)
{
	id[2 * w] = (uint8_t)v;
	id[2 * w + 1] = (uint8_t)(v >> 8);
}

static void put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

static void put64(uint8_t *p, uint64_t v)
{
	put32(p, (uint32_t)v);
	put32(p + 4, (uint32_t)(v >> 32));
}

/* Descriptor sense 72h with the ATA Status Return descriptor 09h. */
static void desc_sense(uint8_t s[32], uint64_t lba, uint8_t device,
		       uint8_t status)
{
	memset(s, 0, 32);
	s[0] = 0x72;
	s[1] = 0x01;		/* RECOVERED ERROR */
	s[3] = 0x1d;		/* ATA PASS THROUGH INFORMATION AVAILABLE */
	s[7] = 14;
	s[8] = 0x09;
	s[9] = 0x0c;
	s[10] = 0x01;		/* EXTEND */
	s[11] = 0;			/* ERROR */
	s[14] = (uint8_t)(lba >> 24);	/* LBA 31:24, 7:0, 39:32, ... */
	s[15] = (uint8_t)lba;
	s[16] = (uint8_t)(lba >> 32);
	s[17] = (uint8_t)(lba >> 8);
	s[18] = (uint8_t)(lba >> 40);
	s[19] = (uint8_t)(lba >> 16);
	s[20] = device;
	s[21] = status;
}

int main(int argc, char **argv)
{
	uint8_t id[4096], act[4096], sense[32];
	struct hidden_ata_id a;
	struct hidden h;
	uint32_t ns[4];
	uint64_t t, u, max;
	uint8_t cdb[16];
	char b[32], big[400];
	int i, n;

	(void)argc;
	(void)argv;
	tap_plan(47);

	/* NVMe capacities. */
	memset(id, 0, sizeof(id));
	put64(id + 280, 4ull << 30);
	put64(id + 296, 1ull << 30);
	tap_ok(!hidden_nvme_cap(id, sizeof(id), &t, &u) && t == 4ull << 30 &&
	       u == 1ull << 30, "TNVMCAP and UNVMCAP at bytes 280 and 296");
	id[296 + 8] = 1;	/* bit 64 of UNVMCAP */
	tap_ok(!hidden_nvme_cap(id, sizeof(id), &t, &u) && u == UINT64_MAX &&
	       t == 4ull << 30, "a count past 64 bits is saturated, its "
	       "neighbour untouched");
	tap_ok(hidden_nvme_cap(id, 300, &t, &u) == -EINVAL,
	       "an Identify too short is refused");

	/* The allocated list less the active one. */
	memset(id, 0, sizeof(id));
	memset(act, 0, sizeof(act));
	put32(id, 1);
	put32(id + 4, 2);
	put32(id + 8, 5);
	put32(act, 1);
	put32(act + 4, 5);
	n = hidden_nvme_detached(id, act, sizeof(id), ns, 4);
	tap_ok(n == 1 && ns[0] == 2, "allocated 1 2 5, active 1 5: nsid 2 "
	       "hidden (%d)", n);
	put32(act + 8, 2);
	tap_ok(!hidden_nvme_detached(id, act, sizeof(id), ns, 4),
	       "every allocated one active: none");
	memset(act, 0, sizeof(act));
	put32(act, 1);
	put32(id + 16, 9);	/* after the zero at 12: not listed */
	n = hidden_nvme_detached(id, act, sizeof(id), ns, 1);
	tap_ok(n == 2 && ns[0] == 2, "a list ends at its first zero; more "
	       "than room are counted (%d)", n);

	/* Identify Namespace's size in its current format. */
	memset(id, 0, sizeof(id));
	put64(id, 262144);		/* NSZE */
	id[26] = 0x01;			/* FLBAS: format 1 */
	id[128 + 2] = 9;		/* LBAF0: 512 */
	id[128 + 4 + 2] = 12;		/* LBAF1: 4096 */
	tap_ok(hidden_nvme_ns_bytes(id, sizeof(id)) == 1ull << 30,
	       "NSZE 262144 of LBAF1's 4096 bytes: 1 GiB");
	id[26] = 0x20;			/* FLBAS 6:5 = 01b: format 16 */
	id[128 + 64 + 2] = 9;
	tap_ok(hidden_nvme_ns_bytes(id, sizeof(id)) == 262144ull * 512,
	       "FLBAS bits 6:5 are the format's upper bits (16)");
	id[128 + 64 + 2] = 0;
	tap_ok(hidden_nvme_ns_bytes(id, sizeof(id)) == 0,
	       "a format of no size: size unknown, 0");

	/* IDENTIFY DEVICE. */
	memset(id, 0, 512);
	put16(id, 83, 0x4000 | 1 << 10 | 1 << 11);
	put16(id, 82, 1 << 10);
	put16(id, 60, 0xffff);
	put16(id, 61, 0x0fff);
	put16(id, 100, 0x5000);
	put16(id, 101, 0x2e90);
	put16(id, 102, 0x0001);
	tap_ok(!hidden_ata_identify(id, 512, &a) && a.lba48 && a.hpa &&
	       a.dco && a.sectors == 0x12e905000ull,
	       "48-bit: words 100-103, HPA word 82 bit 10, DCO word 83 "
	       "bit 11");
	put16(id, 83, 0x4000);
	put16(id, 82, 0);
	tap_ok(!hidden_ata_identify(id, 512, &a) && !a.lba48 && !a.hpa &&
	       !a.dco && a.sectors == 0x0fffffffull,
	       "28-bit: words 60-61, no HPA, no DCO");
	put16(id, 83, 0xffff);
	tap_ok(hidden_ata_identify(id, 512, &a) == -EINVAL,
	       "word 83 not valid (bits 15:14 not 01b): refused");

	/* The CDBs. */
	hidden_ata_cdb_native(cdb, 1);
	tap_ok(cdb[0] == 0x85 && cdb[1] == (3 << 1 | 1) && cdb[2] == 0x20 &&
	       cdb[13] == 0x40 && cdb[14] == 0x27,
	       "READ NATIVE MAX ADDRESS EXT: non-data, EXTEND, CK_COND, 27h");
	hidden_ata_cdb_native(cdb, 0);
	tap_ok(cdb[1] == 3 << 1 && cdb[14] == 0xf8,
	       "READ NATIVE MAX ADDRESS (28-bit): F8h, no EXTEND");
	hidden_ata_cdb_dco(cdb);
	tap_ok(cdb[1] == 4 << 1 && cdb[2] == 0x0e && cdb[4] == 0xc2 &&
	       cdb[6] == 1 && cdb[14] == 0xb1,
	       "DEVICE CONFIGURATION IDENTIFY: PIO in, B1h feature C2h");
	hidden_ata_cdb_identify(cdb);
	tap_ok(cdb[1] == 4 << 1 && cdb[6] == 1 && cdb[14] == 0xec,
	       "IDENTIFY DEVICE: PIO in, one block, ECh");

	/* READ NATIVE MAX's registers. */
	desc_sense(sense, 0x123456789abull, 0x40, 0x50);
	tap_ok(!hidden_ata_native(sense, 32, 1, &max) && max == 0x123456789abull,
	       "descriptor sense, 48-bit: LBA 47:0 (%llx)",
	       (unsigned long long)max);
	desc_sense(sense, 0x00abcdef, 0x4c, 0x50);
	tap_ok(!hidden_ata_native(sense, 32, 0, &max) && max == 0x0cabcdefull,
	       "28-bit: LBA 23:0 with DEVICE 3:0 as 27:24 (%llx)",
	       (unsigned long long)max);
	desc_sense(sense, 0, 0x40, 0x51);
	sense[11] = 0x04;	/* ERROR: ABORT */
	tap_ok(hidden_ata_native(sense, 32, 1, &max) == -EIO,
	       "status ERR: the command was refused");
	memset(sense, 0, 32);
	sense[0] = 0x70;
	sense[7] = 10;
	sense[4] = 0x50;
	sense[8] = 0x80;
	sense[9] = 0xff;
	sense[10] = 0xff;
	sense[11] = 0x3f;
	/* RECOVERED ERROR, ATA PASS-THROUGH INFORMATION AVAILABLE (SAT) */
	sense[2] = 0x01;
	sense[12] = 0x00;
	sense[13] = 0x1d;
	tap_ok(!hidden_ata_native(sense, 32, 1, &max) && max == 0x3fffff,
	       "fixed sense: LBA 23:0 when 47:24 is zero");
	sense[2] = 0x05;
	sense[12] = 0x24;
	sense[13] = 0x00;
	tap_ok(hidden_ata_native(sense, 32, 1, &max) == -EIO,
	       "fixed sense of ILLEGAL REQUEST (24h/00h, a SATL's refusal): "
	       "refused, not a native max of its zeros");
	sense[2] = 0x01;
	sense[12] = 0x00;
	sense[13] = 0x1d;
	sense[8] |= 0x20;
	tap_ok(hidden_ata_native(sense, 32, 1, &max) == -ERANGE,
	       "fixed sense that lost LBA 47:24: refused, not guessed");

	/* DEVICE CONFIGURATION IDENTIFY. */
	memset(id, 0, 512);
	put16(id, 0, 2);
	put16(id, 3, 0x5000);
	put16(id, 4, 0x2e90);
	put16(id, 5, 1);
	tap_ok(!hidden_ata_dco(id, 512, &max) && max == 0x12e905000ull,
	       "DCO words 3-6: the maximum LBA");
	id[510] = 0xa5;
	id[511] = 0x01;
	tap_ok(hidden_ata_dco(id, 512, &max) == -EINVAL,
	       "a checksum that does not add to zero: refused");
	for (t = 0, i = 0; i < 511; i++)
		t += id[i];
	id[511] = (uint8_t)(0x100 - (t & 0xff));
	tap_ok(!hidden_ata_dco(id, 512, &max), "its checksum right: read");

	/* The findings in words. */
	memset(&h, 0, sizeof(h));
	memset(&a, 0, sizeof(a));
	a.hpa = 1;
	a.sectors = 1000000;
	hidden_ata_judge(&h, &a, 0, 1000000 - 1 + 4194304, -EOPNOTSUPP, 0,
			 512);
	tap_ok(h.state == HIDDEN_FOUND && h.bytes == 2ull << 30 &&
	       strstr(h.said, "hidden: 2 GiB past an HPA (native max "
		      "5194303, visible 999999)") &&
	       strstr(h.said, "no DCO") && strstr(h.todo, "hdparm -N p5194304"),
	       "an HPA of 2 GiB: found and said (%s)", h.said);
	memset(&h, 0, sizeof(h));
	hidden_ata_judge(&h, &a, 0, 999999, -EOPNOTSUPP, 0, 512);
	tap_ok(h.state == HIDDEN_NONE && !h.bytes &&
	       strstr(h.said, "no HPA (native max 999999, as visible)"),
	       "native max the visible one: none (%s)", h.said);
	memset(&h, 0, sizeof(h));
	hidden_ata_judge(&h, &a, 0, 0, -EOPNOTSUPP, 0, 512);
	tap_ok(h.state == HIDDEN_UNCHECKED && !h.bytes &&
	       strstr(h.said, "below the visible 999999: not believed"),
	       "a native max below the visible one: not believed, not "
	       "checked (%s)", h.said);
	memset(&h, 0, sizeof(h));
	a.dco = 1;
	hidden_ata_judge(&h, &a, -EIO, 0, 0, 999999 + 2048, 512);
	tap_ok(h.state == HIDDEN_FOUND &&
	       strstr(h.said, "not checked: HPA (READ NATIVE MAX ADDRESS: ") &&
	       strstr(h.said, "hidden: 1 MiB past a DCO") &&
	       strstr(h.todo, "kiln does not (it resets"),
	       "a refused READ NATIVE MAX said, a DCO past the visible max "
	       "found (%s)", h.said);
	memset(&h, 0, sizeof(h));
	hidden_ata_judge(&h, &a, -EIO, 0, -EOPNOTSUPP, 0, 512);
	tap_ok(h.state == HIDDEN_UNCHECKED, "a refusal and nothing found: "
	       "not checked (%s)", hidden_state_name(h.state));

	memset(&h, 0, sizeof(h));
	hidden_note(&h, HIDDEN_NONE, "no DCO");
	hidden_note(&h, HIDDEN_FOUND, "hidden: nsid 2 (1 GiB) allocated");
	hidden_note(&h, HIDDEN_UNCHECKED, "not checked: TNVMCAP");
	hidden_note(&h, HIDDEN_FOUND, "hidden: 1 GiB of NVM capacity");
	hidden_found_text(&h, 0, big, sizeof(big));
	tap_ok(h.state == HIDDEN_FOUND && !strcmp(big, "nsid 2 (1 GiB) "
	       "allocated; 1 GiB of NVM capacity"),
	       "only what was found, of every finding (%s)", big);
	hidden_note(&h, HIDDEN_FOUND, "hidden: 2 GiB past an HPA (native)");
	hidden_found_text(&h, 1, big, sizeof(big));
	tap_ok(!strcmp(big, "2 GiB past an HPA (native)"), "after an NVMe "
	       "Sanitize, only an HPA or DCO is left unreached (%s)", big);
	{
		struct jsonread *doc = NULL;
		struct hidden back;
		struct json j;
		size_t len;
		char *text;

		h.bytes = 2ull << 30;
		h.unvmcap = 1ull << 30;
		snprintf(h.todo, sizeof(h.todo), "attach it");
		json_init(&j);
		json_begin(&j, NULL);
		hidden_json(&j, "hidden", &h);
		json_end(&j);
		text = json_take(&j, &len);
		tap_ok(text && !jsonread_parse(&doc, text, len, NULL, b, sizeof(b)),
		       "hidden_json's object parses");
		hidden_read(doc ? jsonread_get(jsonread_root(doc), "hidden") :
			    NULL, &back);
		tap_ok(back.state == HIDDEN_FOUND && back.bytes == h.bytes &&
		       !strcmp(back.said, h.said) && !strcmp(back.todo, "attach "
		       "it") && back.unvmcap == 1ull << 30,
		       "and reads back the same (state, bytes, said, todo)");
		jsonread_free(doc);
		free(text);
	}

	/* hidden=restore's commands, on the specifications' layouts. */
	memset(id, 0, sizeof(id));
	id[78] = 0x34;
	id[79] = 0x12;
	tap_ok(hidden_nvme_cntlid(id, sizeof(id)) == 0x1234 &&
	       hidden_nvme_cntlid(id, 79) == -EINVAL,
	       "CNTLID from Identify Controller bytes 79:78");
	{
		struct sancmd_nvme cmd;
		uint8_t list[HIDDEN_CTRL_LIST_LEN];

		memset(list, 0xee, sizeof(list));
		hidden_nvme_attach(&cmd, 2, 0x1234, list);
		for (i = 4, n = 0; i < (int)sizeof(list); i++)
			n |= list[i];
		tap_ok(cmd.opcode == 0x15 && cmd.nsid == 2 &&
		       (cmd.cdw10 & 0xf) == 0 && !cmd.cdw11,
		       "Namespace Attachment: opcode 15h, the nsid, CDW10 "
		       "SEL 0h (attach)");
		tap_ok(list[0] == 1 && list[1] == 0 && list[2] == 0x34 &&
		       list[3] == 0x12 && !n,
		       "its Controller List: one identifier, this CNTLID, "
		       "the rest zero");
	}
	hidden_ata_cdb_set_max(cdb, 1, 0x123456789abcull);
	tap_ok(cdb[0] == 0x85 && cdb[1] == (3 << 1 | 1) && cdb[2] == 0x20 &&
	       cdb[14] == 0x37 && cdb[13] == 0x40 && cdb[4] == 0 && cdb[6] == 0,
	       "SET MAX ADDRESS EXT: 37h non-data, EXTEND, CK_COND, LBA bit, "
	       "COUNT 0 (VV clear: volatile)");
	tap_ok(cdb[8] == 0xbc && cdb[10] == 0x9a && cdb[12] == 0x78 &&
	       cdb[7] == 0x56 && cdb[9] == 0x34 && cdb[11] == 0x12,
	       "and its max LBA 47:0 in bytes 8, 10, 12, 7, 9, 11");
	hidden_ata_cdb_set_max(cdb, 0, 0x9abcdefull);
	tap_ok(cdb[1] == 3 << 1 && cdb[14] == 0xf9 && cdb[4] == 0 &&
	       cdb[8] == 0xef && cdb[10] == 0xcd && cdb[12] == 0xab &&
	       cdb[13] == (0x40 | 0x09) && !cdb[7] && !cdb[9] && !cdb[11],
	       "SET MAX ADDRESS (28-bit): F9h, LBA 27:24 in DEVICE 3:0");
	tap_ok(!hidden_restore_refused(1, 0, 1, 1),
	       "hidden=restore on a disk destroy-data names, written: done");
	tap_ok(hidden_restore_refused(1, 0, 0, 1) &&
	       strstr(hidden_restore_refused(1, 0, 0, 1), "destroy-data "
		      "does not name this disk"),
	       "without destroy-data naming the disk: refused, said why");
	tap_ok(hidden_restore_refused(0, 0, 1, 1) &&
	       hidden_restore_refused(1, 1, 1, 1) &&
	       strstr(hidden_restore_refused(1, 0, 1, 0), "does not write"),
	       "nor with hidden=keep, a verify of a record, or a run that "
	       "does not write the disk");
	{
		struct hidden r;

		memset(&r, 0, sizeof(r));
		r.visible = 1000;
		a.sectors = 1000;
		a.lba48 = 1;
		hidden_ata_judge(&r, &a, 0, 1999, 0, 2999, 512);
		r.hpa_removed = 1;
		hidden_found_text(&r, 0, big, sizeof(big));
		tap_ok(!strstr(big, "HPA") && strstr(big, "past a DCO"),
		       "an HPA removed is no longer said unreached, a DCO is "
		       "(%s)", big);
	}
	{
		struct jsonread *doc = NULL;
		struct json j;
		struct hidden h2, back;
		size_t len;
		char *text;

		memset(&h2, 0, sizeof(h2));
		hidden_note(&h2, HIDDEN_FOUND, "hidden: x");
		snprintf(h2.restored, sizeof(h2.restored), "HPA removed");
		h2.hpa_removed = 1;
		json_init(&j);
		json_begin(&j, NULL);
		hidden_json(&j, "hidden", &h2);
		json_end(&j);
		text = json_take(&j, &len);
		tap_ok(text && !jsonread_parse(&doc, text, len, NULL, b,
					      sizeof(b)), "parses");
		hidden_read(doc ? jsonread_get(jsonread_root(doc), "hidden") :
			    NULL, &back);
		tap_ok(!strcmp(back.restored, "HPA removed") &&
		       back.hpa_removed, "restored and hpa_removed read back");
		jsonread_free(doc);
		free(text);
	}

	hidden_bytes_text(3ull << 29, b, sizeof(b));
	tap_ok(!strcmp(b, "1536 MiB"), "sizes in a whole unit (%s)", b);
	return tap_done();
}
