/* SPDX-License-Identifier: MIT */
/*
 * Description: capacity a disk has that the OS does not see, so an erase
 * of what the OS sees does not reach it: NVMe namespaces allocated in the
 * subsystem and not attached here, NVM capacity allocated to no
 * namespace, an ATA Host Protected Area (HPA) and a Device Configuration
 * Overlay (DCO). The parsers are pure (the specifications' layouts, for
 * the unit tests); hidden_ask.c sends the commands.
 */
#ifndef KILN_HIDDEN_H
#define KILN_HIDDEN_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

enum hidden_state {
	HIDDEN_UNCHECKED,	/* not asked, or a query refused: why said */
	HIDDEN_NONE,		/* asked, and nothing hidden */
	HIDDEN_FOUND,		/* capacity the OS cannot see */
};

/* Namespaces allocated and not attached, kept at most. */
#define HIDDEN_MAX_NS 16

struct hidden {
	int state;		/* enum hidden_state */
	uint64_t bytes;		/* hidden, as far as known (0: unknown) */
	/* ATA: sectors (max LBA + 1); 0 where not read */
	uint64_t visible, native, dco;
	int ata_lba48;		/* IDENTIFY's 48-bit feature set (not kept) */
	/* NVMe: Identify Controller TNVMCAP, UNVMCAP (saturated), nsids */
	uint64_t tnvmcap, unvmcap;
	uint32_t ns[HIDDEN_MAX_NS];
	uint64_t ns_bytes[HIDDEN_MAX_NS];	/* each one's size; 0 unread */
	int nns;
	/*
	 * In words, every check's finding joined with "; ":
	 * "hidden: 2 GiB past an HPA (native max N, visible M)",
	 * "no HPA (native max N = visible)", "not checked: WHY".
	 */
	char said[400];
	/* What an operator must do to reach it ("" nothing). */
	char todo[300];
	/*
	 * What hidden=restore did and did not, each with why, joined with
	 * "; " ("" not asked): "nsid 2 (16 MiB) attached to this
	 * controller (hidden=restore): ...", "DCO not restored: ...".
	 */
	char restored[600];
	/* The HPA was removed and the kernel sees the native size. */
	int hpa_removed;
};

const char *hidden_state_name(int state);	/* "found", "none", ... */

/* Adds one finding to h (state, said). */
void hidden_note(struct hidden *h, int state, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * Only what was found, of h->said ("hidden: ..." findings joined with
 * "; "), into buf: "" where nothing was. nvme_reached: an NVMe Sanitize
 * was done, which reaches every namespace and all NVM capacity of the
 * subsystem: only an ATA HPA or DCO is then left.
 */
void hidden_found_text(const struct hidden *h, int nvme_reached, char *buf,
		       size_t len);

/* h read back from the object hidden_json wrote. */
struct jsonread_node;
void hidden_read(const struct jsonread_node *n, struct hidden *h);

/* "2 GiB", "512 MiB", "4096 bytes": a whole unit where it is one. */
void hidden_bytes_text(uint64_t bytes, char *buf, size_t len);

/*
 * h as an object under key: state, bytes, said, todo, and what was read
 * (ATA sectors, NVMe capacities and namespaces), each null where unread.
 */
struct json;
void hidden_json(struct json *j, const char *key, const struct hidden *h);

/* ---- NVMe ---- */

/*
 * Identify Controller's TNVMCAP (bytes 280..295) and UNVMCAP (296..311),
 * 128-bit little-endian, saturated at UINT64_MAX. 0, or -EINVAL short.
 */
int hidden_nvme_cap(const uint8_t *id, size_t len, uint64_t *tnvmcap,
		    uint64_t *unvmcap);

/*
 * The namespaces of an allocated list (CNS 10h) that the active list
 * (CNS 02h) does not hold: into out (at most max), their count. A list is
 * little-endian nsids in increasing order, ended by the first zero.
 */
int hidden_nvme_detached(const uint8_t *allocated, const uint8_t *active,
			 size_t len, uint32_t *out, int max);

/*
 * Identify Namespace (CNS 00h or, for an allocated one, 11h): NSZE
 * (bytes 0..7) times the block size of the format FLBAS (byte 26, bits
 * 3:0 and 6:5) names (LBADS, byte 2 of its LBAF at 128 + 4 * index), in
 * bytes: 0 where it says none or is short.
 */
uint64_t hidden_nvme_ns_bytes(const uint8_t *idns, size_t len);

/* Identify Controller's CNTLID (bytes 78..79): it, or -EINVAL short. */
int hidden_nvme_cntlid(const uint8_t *id, size_t len);

#define HIDDEN_NVME_NS_ATTACH 0x15
#define HIDDEN_CTRL_LIST_LEN 4096

/*
 * Namespace Attachment (admin opcode 15h) attaching nsid to the
 * controller cntlid: cmd (opcode, nsid, CDW10 SEL 3:0 = 0h, attach) and
 * list, its data: a Controller List (NVMe Base 2.0 figure 135), the
 * number of identifiers (bytes 1:0) then each (bytes 3:2, ...): one.
 */
struct sancmd_nvme;
void hidden_nvme_attach(struct sancmd_nvme *cmd, uint32_t nsid,
			uint16_t cntlid, uint8_t list[HIDDEN_CTRL_LIST_LEN]);

/* ---- ATA, through ATA PASS-THROUGH(16) ---- */

#define HIDDEN_ATA_IDENTIFY 0xEC
#define HIDDEN_ATA_NATIVE_EXT 0x27
#define HIDDEN_ATA_NATIVE 0xF8
#define HIDDEN_ATA_DCO 0xB1
#define HIDDEN_ATA_DCO_IDENTIFY 0xC2
#define HIDDEN_ATA_SET_MAX_EXT 0x37
#define HIDDEN_ATA_SET_MAX 0xF9

struct hidden_ata_id {
	int lba48;		/* word 83 bit 10: 48-bit address feature set */
	int hpa;		/* word 82 bit 10: HPA feature set */
	int dco;		/* word 83 bit 11: DCO feature set */
	uint64_t sectors;	/* user addressable: words 100-103 or 60-61 */
};

/* IDENTIFY DEVICE (512 bytes) into a: 0, or -EINVAL (short, or words
 * 82-83 not valid: 83 bits 15:14 must be 01b). */
int hidden_ata_identify(const uint8_t *id, size_t len,
			struct hidden_ata_id *a);

/* The CDBs: IDENTIFY DEVICE and DEVICE CONFIGURATION IDENTIFY (PIO
 * data-in, 512 bytes), READ NATIVE MAX ADDRESS (EXT where lba48;
 * non-data, the registers back with CK_COND). */
void hidden_ata_cdb_identify(uint8_t cdb[16]);
void hidden_ata_cdb_dco(uint8_t cdb[16]);
void hidden_ata_cdb_native(uint8_t cdb[16], int lba48);

/*
 * SET MAX ADDRESS EXT (37h; SET MAX ADDRESS F9h, feature 00h, where not
 * lba48) to max, the max LBA, volatile (COUNT bit 0, VV, clear: the
 * drive keeps it only until a power cycle or a hardware reset), non-data
 * with CK_COND: LBA 47:0 in bytes 8, 10, 12, 7, 9, 11 (28-bit: 23:0 in
 * 8, 10, 12 and 27:24 in DEVICE 3:0), DEVICE's LBA bit set.
 */
void hidden_ata_cdb_set_max(uint8_t cdb[16], int lba48, uint64_t max);

/*
 * Whether hidden=restore may change a disk that hides capacity: NULL
 * where it may (restore asked, no run record to verify, destroy-data
 * names the disk, and this run writes it), else why not in words.
 */
const char *hidden_restore_refused(int restore, int verify_record,
				   int consent, int writes);

/*
 * hidden=restore on the disk at fd (held exclusively, destroy-data
 * naming it; hidden_restore.c), from h as hidden_check found it: each
 * NVMe namespace of h->ns attached to this controller and the kernel
 * asked to rescan; an ATA HPA removed until the next power cycle and the
 * disk rescanned (its size at *size read again); a DCO and unallocated
 * NVM capacity left, said why. name is its kernel name (sdb). Every
 * outcome in h->restored.
 */
void hidden_restore(int fd, const char *sysroot, const char *name,
		    dev_t rdev, struct hidden *h, uint64_t *size);

/*
 * READ NATIVE MAX ADDRESS's returned registers in sense data (descriptor
 * 09h, or fixed sense) into *max, the native max LBA: 48-bit LBA 47:0, or
 * 28-bit LBA 23:0 with DEVICE 3:0 as 27:24. 0; -EIO where the command
 * ended in error (status ERR); -ERANGE where fixed sense says LBA 47:24
 * was not zero and could not be returned; -EINVAL unreadable.
 */
int hidden_ata_native(const uint8_t *sense, size_t len, int lba48,
		      uint64_t *max);

/*
 * DEVICE CONFIGURATION IDENTIFY's data (512 bytes): words 3..6, the
 * maximum LBA the device may be configured to. 0, or -EINVAL (short, or
 * word 255's signature A5h is there and its checksum does not add to 0).
 */
int hidden_ata_dco(const uint8_t *data, size_t len, uint64_t *max);

/*
 * The findings of the ATA checks into h, from what was read: native and
 * dco are max LBAs, each with its errno (0 read; -EOPNOTSUPP the feature
 * set is not there, and the drive refused the command).
 */
void hidden_ata_judge(struct hidden *h, const struct hidden_ata_id *a,
		      int native_err, uint64_t native, int dco_err,
		      uint64_t dco, unsigned lbs);

/*
 * The disk at fd (open for reading) asked (hidden_ask.c): an NVMe
 * namespace (NVME_IOCTL_ID answers) its controller, else ATA through
 * SG_IO, never one behind USB (rdev's device under sysroot); lbs the
 * logical block size. Only reads; every finding in h.
 */
void hidden_check(int fd, unsigned lbs, const char *sysroot, dev_t rdev,
		  struct hidden *h);

#endif
