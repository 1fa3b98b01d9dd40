/* SPDX-License-Identifier: MIT */
/*
 * Description: an NVMe controller's logs parsed from their bytes (see
 * nvmelog.h): Identify Controller, SMART / Health Information (02h), the
 * Error Information entries (01h), OCP's extended SMART log (C0h). The
 * layouts are the NVMe Base Specification 2.0's (Figures 275, 206-208)
 * and the OCP Datacenter NVMe SSD Specification 2.0's (4.8.3); every field
 * is little-endian, read byte by byte, so no layout depends on the host.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sense/nvmelog.h"

/* OCP's GUID of log C0h, AFD514C97C6F4F9CA4F2BFEA2810AFC5, as stored. */
static const uint8_t ocp_guid[16] = {
	0xc5, 0xaf, 0x10, 0x28, 0xea, 0xbf, 0xf2, 0xa4,
	0x9c, 0x4f, 0x6f, 0x7c, 0xc9, 0x14, 0xd5, 0xaf,
};

/* n bytes (at most 8) at b, little-endian. */
static uint64_t le(const uint8_t *b, int n)
{
	uint64_t v = 0;

	while (n--)
		v = v << 8 | b[n];
	return v;
}

/* A 64-bit counter held to what a long long says. */
static long long capped(uint64_t v)
{
	return v > INT64_MAX ? INT64_MAX : (long long)v;
}

/* A 128-bit counter: its low half, or INT64_MAX when more. */
static long long le128(const uint8_t *b)
{
	return le(b + 8, 8) ? INT64_MAX : capped(le(b, 8));
}

void nvmelog_init(struct nvmelog *l)
{
	memset(l, 0, sizeof(*l));
	l->h.critical_warning = l->h.temp_kelvin = -1;
	l->h.spare = l->h.spare_threshold = l->h.used = -1;
	l->h.data_read = l->h.data_written = NVMELOG_NONE;
	l->h.power_cycles = l->h.power_on_hours = NVMELOG_NONE;
	l->h.unsafe_shutdowns = l->h.media_errors = NVMELOG_NONE;
	l->h.error_entries = NVMELOG_NONE;
	l->ocp.version = l->ocp.thermal_events = -1;
	l->ocp.free_blocks = l->ocp.capacitor_health = -1;
	l->ocp.bad_user_nand = l->ocp.bad_system_nand = NVMELOG_NONE;
	l->ocp.xor_recovery = l->ocp.uncorrectable_reads = NVMELOG_NONE;
	l->ocp.soft_ecc = l->ocp.e2e_detected = NVMELOG_NONE;
	l->ocp.e2e_corrected = l->ocp.pcie_correctable = NVMELOG_NONE;
	l->ocp.incomplete_shutdowns = NVMELOG_NONE;
}

/* An ASCII field, padded with spaces: trimmed, anything odd a '?'. */
static void ascii(char *out, const uint8_t *b, int n)
{
	int i, end = 0;

	for (i = 0; i < n; i++) {
		out[i] = b[i] >= 0x20 && b[i] < 0x7f ? (char)b[i] : '?';
		if (b[i] != ' ' && b[i])
			end = i + 1;
	}
	out[end] = 0;
}

int nvmelog_parse_ident(const uint8_t *b, size_t len,
			struct nvmelog_ident *id)
{
	memset(id, 0, sizeof(*id));
	if (len < 4096)
		return -EBADMSG;
	ascii(id->serial, b + 4, 20);
	ascii(id->model, b + 24, 40);
	ascii(id->firmware, b + 64, 8);
	/* LPA bit 3: Telemetry Host-Initiated and Controller-Initiated. */
	id->telemetry = !!(b[261] & 0x08);
	id->error_entries = b[262] + 1;
	id->have = 1;
	return 0;
}

int nvmelog_parse_health(const uint8_t *b, size_t len,
			 struct nvmelog_health *h)
{
	if (len < NVMELOG_PAGE)
		return -EBADMSG;
	h->critical_warning = b[0];
	h->temp_kelvin = (int)le(b + 1, 2);
	h->spare = b[3];
	h->spare_threshold = b[4];
	h->used = b[5];
	h->data_read = le128(b + 32);
	h->data_written = le128(b + 48);
	h->power_cycles = le128(b + 112);
	h->power_on_hours = le128(b + 128);
	h->unsafe_shutdowns = le128(b + 144);
	h->media_errors = le128(b + 160);
	h->error_entries = le128(b + 176);
	h->have = 1;
	return 0;
}

int nvmelog_parse_ocp(const uint8_t *b, size_t len, struct nvmelog_ocp *o)
{
	if (len < NVMELOG_PAGE)
		return -EBADMSG;
	/* C0h is vendor-specific outside OCP: only OCP's GUID says it is. */
	if (memcmp(b + 496, ocp_guid, sizeof(ocp_guid)))
		return -ENODATA;
	o->bad_user_nand = capped(le(b + 32, 6));
	o->bad_system_nand = capped(le(b + 40, 6));
	o->xor_recovery = capped(le(b + 48, 8));
	o->uncorrectable_reads = capped(le(b + 56, 8));
	o->soft_ecc = capped(le(b + 64, 8));
	/* End to End Correction Counts: detected 75:72, corrected 79:76. */
	o->e2e_detected = capped(le(b + 72, 4));
	o->e2e_corrected = capped(le(b + 76, 4));
	o->thermal_events = b[96];
	o->pcie_correctable = capped(le(b + 104, 8));
	o->incomplete_shutdowns = capped(le(b + 112, 4));
	o->free_blocks = b[120];
	o->capacitor_health = (int)le(b + 128, 2);
	o->version = (int)le(b + 494, 2);
	o->have = 1;
	return 0;
}

static int newest_first(const void *a, const void *b)
{
	uint64_t x = ((const struct nvmelog_error *)a)->count;
	uint64_t y = ((const struct nvmelog_error *)b)->count;

	return x < y ? 1 : x > y ? -1 : 0;
}

int nvmelog_parse_errors(const uint8_t *b, size_t len,
			 struct nvmelog_error *e, int max)
{
	size_t i, n = len / NVMELOG_ENTRY;
	struct nvmelog_error *all;
	int kept = 0;

	if (max <= 0 || !n)
		return 0;
	all = calloc(n, sizeof(*all));
	if (!all)
		return 0;
	for (i = 0; i < n; i++) {
		const uint8_t *p = b + i * NVMELOG_ENTRY;
		struct nvmelog_error *x = &all[kept];

		x->count = le(p, 8);
		if (!x->count)
			continue;
		x->sqid = (uint16_t)le(p + 8, 2);
		x->cmdid = (uint16_t)le(p + 10, 2);
		x->status = (uint16_t)(le(p + 12, 2) >> 1);
		x->param = (uint16_t)le(p + 14, 2);
		x->lba = le(p + 16, 8);
		x->nsid = (uint32_t)le(p + 24, 4);
		kept++;
	}
	/* The log is a ring: its order in the page is the drive's own. */
	qsort(all, (size_t)kept, sizeof(*all), newest_first);
	if (kept > max)
		kept = max;
	memcpy(e, all, (size_t)kept * sizeof(*e));
	free(all);
	return kept;
}

size_t nvmelog_telemetry_bytes(const uint8_t *h, size_t len, size_t max)
{
	uint64_t last = 0;
	size_t bytes;
	int area;

	if (len < NVMELOG_PAGE || max < NVMELOG_PAGE)
		return NVMELOG_PAGE;
	/* Data areas 1-3 end at blocks 9:8, 11:10, 13:12; each holds the
	 * one before it, so the deepest one given is where the log ends. */
	for (area = 3; area >= 1 && !last; area--)
		last = le(h + 6 + 2 * area, 2);
	bytes = (size_t)(last + 1) * NVMELOG_PAGE;
	return bytes > max ? max - max % NVMELOG_PAGE : bytes;
}

const char *nvmelog_status_text(uint16_t status, char *buf, size_t len)
{
	static const struct {
		uint16_t code;
		const char *what;
	} known[] = {
		{ 0x004, "Data Transfer Error" },
		{ 0x005, "Aborted due to Power Loss Notification" },
		{ 0x006, "Internal Error" },
		{ 0x007, "Command Abort Requested" },
		{ 0x008, "Command Aborted due to SQ Deletion" },
		{ 0x002, "Invalid Field in Command" },
		{ 0x00b, "Invalid Namespace or Format" },
		{ 0x080, "LBA Out of Range" },
		{ 0x081, "Capacity Exceeded" },
		{ 0x082, "Namespace Not Ready" },
		{ 0x280, "Write Fault" },
		{ 0x281, "Unrecovered Read Error" },
		{ 0x282, "End-to-end Guard Check Error" },
		{ 0x283, "End-to-end Application Tag Check Error" },
		{ 0x284, "End-to-end Reference Tag Check Error" },
		{ 0x285, "Compare Failure" },
		{ 0x286, "Access Denied" },
		{ 0x287, "Deallocated or Unwritten Logical Block" },
		{ 0x300, "Internal Path Error" },
	};
	static const char *const types[8] = {
		"generic", "command specific", "media", "path",
		"reserved", "reserved", "reserved", "vendor specific",
	};
	uint16_t code = status & 0x7ff;
	const char *what = NULL;
	size_t i;

	for (i = 0; i < sizeof(known) / sizeof(known[0]); i++)
		if (known[i].code == code)
			what = known[i].what;
	snprintf(buf, len, "%s%s%s, 0x%03x)", what ? what : "status",
		 " (", types[(code >> 8) & 7], code);
	return buf;
}
