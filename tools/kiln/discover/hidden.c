/* SPDX-License-Identifier: MIT */
/*
 * Description: hidden capacity found from a device's own answers, pure:
 * NVMe Identify Controller's TNVMCAP and UNVMCAP, the allocated and
 * active namespace lists, Identify Namespace's size; ATA IDENTIFY
 * DEVICE's user addressable sectors and feature sets, READ NATIVE MAX
 * ADDRESS's returned registers, DEVICE CONFIGURATION IDENTIFY's maximum
 * LBA; and the findings said in words. hidden_ask.c sends the commands.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "base/json.h"
#include "base/jsonread.h"
#include "discover/hidden.h"
#include "engine/sancmd.h"

#define IDCTRL_CNTLID 78
#define IDCTRL_TNVMCAP 280
#define IDCTRL_UNVMCAP 296
#define IDNS_FLBAS 26
#define IDNS_LBAF 128
/* ATA PASS-THROUGH(16)'s protocols (SAT-4 table 191). */
#define PT_NON_DATA 3
#define PT_PIO_IN 4
/* Byte 2: CK_COND 5, T_DIR 3 (from the device), BYTE_BLOCK 2, T_LENGTH
 * 1:0 = 2 (the length is in COUNT, in blocks). */
#define PT_CK_COND 0x20
#define PT_READ_BLOCKS 0x0e
/* DEVICE: the LBA bit, for the commands that address by LBA. */
#define ATA_DEV_LBA 0x40

static const char *const state_names[] = {
	[HIDDEN_UNCHECKED] = "not checked",
	[HIDDEN_NONE] = "none",
	[HIDDEN_FOUND] = "found",
};

const char *hidden_state_name(int state)
{
	if (state < 0 || state > HIDDEN_FOUND)
		return "?";
	return state_names[state];
}

/* Found says more than not checked, which says more than none. */
static int weight(int state)
{
	return state == HIDDEN_FOUND ? 2 : state == HIDDEN_UNCHECKED ? 1 : 0;
}

void hidden_note(struct hidden *h, int state, const char *fmt, ...)
{
	size_t at = strlen(h->said);
	va_list ap;

	if (!at || weight(state) > weight(h->state))
		h->state = state;
	if (at && at + 2 < sizeof(h->said)) {
		memcpy(h->said + at, "; ", 3);
		at += 2;
	}
	if (at + 1 >= sizeof(h->said))
		return;
	va_start(ap, fmt);
	vsnprintf(h->said + at, sizeof(h->said) - at, fmt, ap);
	va_end(ap);
}

void hidden_bytes_text(uint64_t bytes, char *buf, size_t len)
{
	static const char *const units[] = { "KiB", "MiB", "GiB", "TiB",
					     "PiB" };
	int i = -1;
	uint64_t v = bytes;

	while (i < 4 && v >= 1024 && v % 1024 == 0) {
		v /= 1024;
		i++;
	}
	if (i < 0 && bytes >= 1024 * 1024)
		/* Not a whole unit: said in GiB or MiB to a tenth. */
		snprintf(buf, len, "%.1f %s", bytes >= (1ull << 30) ?
			 (double)bytes / (1ull << 30) :
			 (double)bytes / (1 << 20),
			 bytes >= (1ull << 30) ? "GiB" : "MiB");
	else if (i < 0)
		snprintf(buf, len, "%llu bytes", (unsigned long long)bytes);
	else
		snprintf(buf, len, "%llu %s", (unsigned long long)v, units[i]);
}

static void u64_or_null(struct json *j, const char *key, uint64_t v)
{
	if (v)
		json_u64(j, key, v);
	else
		json_null(j, key);
}

void hidden_json(struct json *j, const char *key, const struct hidden *h)
{
	int i;

	json_begin(j, key);
	json_str(j, "state", hidden_state_name(h->state));
	json_u64(j, "bytes", h->bytes);
	json_str(j, "said", h->said);
	json_str(j, "todo", h->todo[0] ? h->todo : NULL);
	json_str(j, "restored", h->restored[0] ? h->restored : NULL);
	json_bool(j, "hpa_removed", h->hpa_removed);
	u64_or_null(j, "visible_sectors", h->visible);
	u64_or_null(j, "native_sectors", h->native);
	u64_or_null(j, "dco_sectors", h->dco);
	u64_or_null(j, "tnvmcap", h->tnvmcap);
	u64_or_null(j, "unvmcap", h->unvmcap);
	json_array(j, "namespaces");
	for (i = 0; i < h->nns && i < HIDDEN_MAX_NS; i++)
		json_u64(j, NULL, h->ns[i]);
	json_array_end(j);
	json_end(j);
}

void hidden_read(const struct jsonread_node *n, struct hidden *h)
{
	const char *state;

	memset(h, 0, sizeof(*h));
	if (!n)
		return;
	state = jsonread_str(n, "state", "not checked");
	h->state = !strcmp(state, "found") ? HIDDEN_FOUND :
		   !strcmp(state, "none") ? HIDDEN_NONE : HIDDEN_UNCHECKED;
	h->bytes = jsonread_u64(n, "bytes", 0);
	jsonread_copy(n, "said", h->said, sizeof(h->said));
	jsonread_copy(n, "todo", h->todo, sizeof(h->todo));
	jsonread_copy(n, "restored", h->restored, sizeof(h->restored));
	h->hpa_removed = jsonread_bool(n, "hpa_removed", 0);
	h->visible = jsonread_u64(n, "visible_sectors", 0);
	h->native = jsonread_u64(n, "native_sectors", 0);
	h->dco = jsonread_u64(n, "dco_sectors", 0);
	h->tnvmcap = jsonread_u64(n, "tnvmcap", 0);
	h->unvmcap = jsonread_u64(n, "unvmcap", 0);
}

/* An ATA finding: HPA or DCO ("hidden: 2 GiB past an HPA ..."). */
static int ata_piece(const char *p, size_t n)
{
	size_t i;

	for (i = 0; i + 7 <= n; i++)
		if (!strncmp(p + i, " past a", 7))
			return 1;
	return 0;
}

static int hpa_piece(const char *p, size_t n)
{
	size_t i;

	for (i = 0; i + 12 <= n; i++)
		if (!strncmp(p + i, " past an HPA", 12))
			return 1;
	return 0;
}

void hidden_found_text(const struct hidden *h, int nvme_reached, char *buf,
		       size_t len)
{
	const char *p = h->said, *end;
	size_t at = 0, n;

	if (len)
		buf[0] = 0;
	while (*p && len) {
		end = strstr(p, "; ");
		n = end ? (size_t)(end - p) : strlen(p);
		/* An HPA removed before the burn was reached by it. */
		if (!strncmp(p, "hidden: ", 8) && at + 1 < len &&
		    (!nvme_reached || ata_piece(p, n)) &&
		    !(h->hpa_removed && hpa_piece(p, n))) {
			snprintf(buf + at, len - at, "%s%.*s", at ? "; " : "",
				 (int)(n - 8), p + 8);
			at = strlen(buf);
		}
		p += n;
		if (*p)
			p += 2;
	}
}

const char *hidden_restore_refused(int restore, int verify_record,
				   int consent, int writes)
{
	if (!restore)
		return "not asked (hidden=keep)";
	if (verify_record)
		return "not restored: a verify keeps the region its record "
		       "wrote";
	if (!consent)
		return "not restored: destroy-data does not name this disk, "
		       "and hidden=restore needs it to";
	if (!writes)
		return "not restored: this run does not write the disk";
	return NULL;
}

static uint64_t le64(const uint8_t *p)
{
	uint64_t v = 0;
	int i;

	for (i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

/* A 128-bit little-endian count, saturated to 64 bits. */
static uint64_t le128(const uint8_t *p)
{
	return le64(p + 8) ? UINT64_MAX : le64(p);
}

int hidden_nvme_cap(const uint8_t *id, size_t len, uint64_t *tnvmcap,
		    uint64_t *unvmcap)
{
	if (!id || len < IDCTRL_UNVMCAP + 16)
		return -EINVAL;
	*tnvmcap = le128(id + IDCTRL_TNVMCAP);
	*unvmcap = le128(id + IDCTRL_UNVMCAP);
	return 0;
}

int hidden_nvme_cntlid(const uint8_t *id, size_t len)
{
	if (!id || len < IDCTRL_CNTLID + 2)
		return -EINVAL;
	return id[IDCTRL_CNTLID] | id[IDCTRL_CNTLID + 1] << 8;
}

void hidden_nvme_attach(struct sancmd_nvme *cmd, uint32_t nsid,
			uint16_t cntlid, uint8_t list[HIDDEN_CTRL_LIST_LEN])
{
	memset(cmd, 0, sizeof(*cmd));
	cmd->opcode = HIDDEN_NVME_NS_ATTACH;
	cmd->nsid = nsid;
	cmd->cdw10 = 0;		/* SEL 0h: Controller Attach */
	memset(list, 0, HIDDEN_CTRL_LIST_LEN);
	list[0] = 1;		/* one identifier */
	list[2] = (uint8_t)cntlid;
	list[3] = (uint8_t)(cntlid >> 8);
}

static int listed(const uint8_t *list, size_t len, uint32_t nsid)
{
	size_t i;
	uint32_t id;

	for (i = 0; i + 4 <= len; i += 4) {
		id = le32(list + i);
		if (!id)
			break;
		if (id == nsid)
			return 1;
	}
	return 0;
}

int hidden_nvme_detached(const uint8_t *allocated, const uint8_t *active,
			 size_t len, uint32_t *out, int max)
{
	size_t i;
	uint32_t id;
	int n = 0;

	for (i = 0; i + 4 <= len; i += 4) {
		id = le32(allocated + i);
		if (!id)
			break;
		if (listed(active, len, id))
			continue;
		if (n < max)
			out[n] = id;
		n++;
	}
	return n;
}

uint64_t hidden_nvme_ns_bytes(const uint8_t *idns, size_t len)
{
	unsigned fmt, lbads;
	uint64_t nsze;

	if (!idns || len < IDNS_LBAF + 64 * 4)
		return 0;
	nsze = le64(idns);
	fmt = (idns[IDNS_FLBAS] & 0x0f) | (idns[IDNS_FLBAS] >> 5 & 0x3) << 4;
	if (fmt >= 64)
		return 0;
	lbads = idns[IDNS_LBAF + 4 * fmt + 2];
	/* LBADS is a power of two, at least 9; less is no format. */
	if (lbads < 9 || lbads > 30 || nsze > UINT64_MAX >> lbads)
		return 0;
	return nsze << lbads;
}

/* ---- ATA ---- */

static unsigned word(const uint8_t *id, unsigned w)
{
	return (unsigned)id[2 * w] | (unsigned)id[2 * w + 1] << 8;
}

int hidden_ata_identify(const uint8_t *id, size_t len,
			struct hidden_ata_id *a)
{
	unsigned w83;

	if (!id || !a || len < 512)
		return -EINVAL;
	memset(a, 0, sizeof(*a));
	w83 = word(id, 83);
	/* Words 82-84 are valid only where word 83 bits 15:14 are 01b. */
	if ((w83 & 0xc000) != 0x4000)
		return -EINVAL;
	a->hpa = word(id, 82) >> 10 & 1;
	a->lba48 = w83 >> 10 & 1;
	a->dco = w83 >> 11 & 1;
	if (a->lba48)
		a->sectors = (uint64_t)word(id, 100) |
			     (uint64_t)word(id, 101) << 16 |
			     (uint64_t)word(id, 102) << 32 |
			     (uint64_t)word(id, 103) << 48;
	else
		a->sectors = (uint64_t)word(id, 60) |
			     (uint64_t)word(id, 61) << 16;
	return 0;
}

/*
 * ATA PASS-THROUGH(16) (SAT-4 12.2.2.3): OPERATION CODE 85h; byte 1
 * PROTOCOL 4:1, EXTEND 0; byte 2 the flags; FEATURES 7:0 byte 4 (15:8
 * byte 3); COUNT 7:0 byte 6; DEVICE 13; COMMAND 14. The LBA registers
 * stay zero: none of these commands takes one.
 */
static void pt16(uint8_t cdb[16], int protocol, int extend, uint8_t flags,
		 uint8_t features, uint8_t count, uint8_t device,
		 uint8_t command)
{
	memset(cdb, 0, 16);
	cdb[0] = SANCMD_ATA_PT16;
	cdb[1] = (uint8_t)(protocol << 1 | (extend ? 1 : 0));
	cdb[2] = flags;
	cdb[4] = features;
	cdb[6] = count;
	cdb[13] = device;
	cdb[14] = command;
}

void hidden_ata_cdb_identify(uint8_t cdb[16])
{
	pt16(cdb, PT_PIO_IN, 0, PT_READ_BLOCKS, 0, 1, 0, HIDDEN_ATA_IDENTIFY);
}

void hidden_ata_cdb_dco(uint8_t cdb[16])
{
	pt16(cdb, PT_PIO_IN, 0, PT_READ_BLOCKS, HIDDEN_ATA_DCO_IDENTIFY, 1, 0,
	     HIDDEN_ATA_DCO);
}

void hidden_ata_cdb_native(uint8_t cdb[16], int lba48)
{
	pt16(cdb, PT_NON_DATA, lba48, PT_CK_COND, 0, 0, ATA_DEV_LBA,
	     lba48 ? HIDDEN_ATA_NATIVE_EXT : HIDDEN_ATA_NATIVE);
}

void hidden_ata_cdb_set_max(uint8_t cdb[16], int lba48, uint64_t max)
{
	/* COUNT 0: VV clear, volatile; FEATURES 00h: SET MAX ADDRESS. */
	pt16(cdb, PT_NON_DATA, lba48, PT_CK_COND, 0, 0, ATA_DEV_LBA,
	     lba48 ? HIDDEN_ATA_SET_MAX_EXT : HIDDEN_ATA_SET_MAX);
	cdb[8] = (uint8_t)max;
	cdb[10] = (uint8_t)(max >> 8);
	cdb[12] = (uint8_t)(max >> 16);
	if (lba48) {
		cdb[7] = (uint8_t)(max >> 24);
		cdb[9] = (uint8_t)(max >> 32);
		cdb[11] = (uint8_t)(max >> 40);
	} else {
		cdb[13] |= (uint8_t)(max >> 24 & 0x0f);
	}
}

int hidden_ata_native(const uint8_t *sense, size_t len, int lba48,
		      uint64_t *max)
{
	struct sancmd_ata_regs r;
	int ret;

	ret = sancmd_ata_regs(sense, len, &r);
	if (ret)
		return ret == -ENODATA ? -EINVAL : ret;
	/*
	 * Fixed sense is the registers only with ATA PASS-THROUGH
	 * INFORMATION AVAILABLE (ASC/ASCQ 00h/1Dh, key NO SENSE or
	 * RECOVERED ERROR): any other (a SATL's ILLEGAL REQUEST) holds no
	 * LBA at all, and its 0 would read as a native max of 0.
	 */
	if ((sense[0] & 0x7f) <= 0x71 &&
	    (len < 14 || (sense[2] & 0x0f) > 1 || sense[12] != 0x00 ||
	     sense[13] != 0x1d))
		return -EIO;
	if (r.status & 0x01)
		return -EIO;
	/*
	 * Fixed sense (70h/71h) holds LBA 23:0 only; byte 8 bit 5 says
	 * whether LBA 47:24 held more, which is then lost.
	 */
	if ((sense[0] & 0x7f) <= 0x71 && lba48 && (sense[8] & 0x20))
		return -ERANGE;
	if (lba48)
		*max = r.lba & 0xffffffffffffull;
	else
		*max = (r.lba & 0xffffff) | (uint64_t)(r.device & 0x0f) << 24;
	return 0;
}

int hidden_ata_dco(const uint8_t *data, size_t len, uint64_t *max)
{
	uint8_t sum = 0;
	size_t i;

	if (!data || len < 512)
		return -EINVAL;
	/* Word 255: 7:0 A5h then 15:8 the checksum of all 512 bytes. */
	if (data[510] == 0xa5) {
		for (i = 0; i < 512; i++)
			sum = (uint8_t)(sum + data[i]);
		if (sum)
			return -EINVAL;
	}
	*max = (uint64_t)word(data, 3) | (uint64_t)word(data, 4) << 16 |
	       (uint64_t)word(data, 5) << 32 | (uint64_t)word(data, 6) << 48;
	return 0;
}

static void add_todo(struct hidden *h, const char *what)
{
	size_t at = strlen(h->todo);

	snprintf(h->todo + at, sizeof(h->todo) - at, "%s%s", at ? "; " : "",
		 what);
}

void hidden_ata_judge(struct hidden *h, const struct hidden_ata_id *a,
		      int native_err, uint64_t native, int dco_err,
		      uint64_t dco, unsigned lbs)
{
	uint64_t visible = a->sectors ? a->sectors - 1 : 0;
	uint64_t top = visible;
	char b[32], t[120];

	h->visible = a->sectors;
	h->ata_lba48 = a->lba48;
	if (!lbs)
		lbs = 512;
	if (native_err == -EOPNOTSUPP) {
		hidden_note(h, HIDDEN_NONE, "no HPA: the drive has no HPA "
			    "feature set (IDENTIFY word 82 bit 10)");
	} else if (native_err) {
		hidden_note(h, HIDDEN_UNCHECKED, "not checked: HPA (READ "
			    "NATIVE MAX ADDRESS%s: %s)", a->lba48 ? " EXT" : "",
			    strerror(-native_err));
	} else if (native < visible) {
		/* No drive's native max is below what it shows: not its. */
		hidden_note(h, HIDDEN_UNCHECKED, "not checked: HPA (READ "
			    "NATIVE MAX ADDRESS%s answered %llu, below the "
			    "visible %llu: not believed)", a->lba48 ? " EXT" :
			    "", (unsigned long long)native,
			    (unsigned long long)visible);
	} else {
		h->native = native + 1;
		top = native;
		if (native > visible) {
			h->bytes += (native - visible) * lbs;
			hidden_bytes_text((native - visible) * lbs, b,
					  sizeof(b));
			hidden_note(h, HIDDEN_FOUND, "hidden: %s past an HPA "
				    "(native max %llu, visible %llu)", b,
				    (unsigned long long)native,
				    (unsigned long long)visible);
			snprintf(t, sizeof(t), "an HPA is removed by SET MAX "
				 "ADDRESS to the native max (hdparm -N p%llu), "
				 "or hidden=restore with destroy-data naming "
				 "the disk",
				 (unsigned long long)native + 1);
			add_todo(h, t);
		} else {
			hidden_note(h, HIDDEN_NONE, "no HPA (native max %llu, "
				    "as visible)", (unsigned long long)native);
		}
	}
	if (dco_err == -EOPNOTSUPP) {
		hidden_note(h, HIDDEN_NONE, "no DCO: the drive has no DCO "
			    "feature set (IDENTIFY word 83 bit 11)");
	} else if (dco_err) {
		hidden_note(h, HIDDEN_UNCHECKED, "not checked: DCO (DEVICE "
			    "CONFIGURATION IDENTIFY: %s)", strerror(-dco_err));
	} else {
		h->dco = dco + 1;
		if (dco > top) {
			h->bytes += (dco - top) * lbs;
			hidden_bytes_text((dco - top) * lbs, b, sizeof(b));
			hidden_note(h, HIDDEN_FOUND, "hidden: %s past a DCO "
				    "(its max %llu, native max %llu)", b,
				    (unsigned long long)dco,
				    (unsigned long long)top);
			add_todo(h, "a DCO is restored by DEVICE "
				 "CONFIGURATION RESTORE (hdparm --dco-restore)"
				 " and a power cycle: kiln does not (it resets "
				 "the drive's settings too)");
		} else {
			hidden_note(h, HIDDEN_NONE, "no DCO (its max %llu)",
				    (unsigned long long)dco);
		}
	}
}
