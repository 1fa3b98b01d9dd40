/* SPDX-License-Identifier: MIT */
#ifndef KILN_MACHINE_H
#define KILN_MACHINE_H

#include <stddef.h>
#include <stdint.h>

/*
 * The machine under test: DMI, CPU, memory, NICs, how it booted, and the
 * machine id its results are filed under (DESIGN.md "Results").
 */
struct machine_system {
	char vendor[128], product[128], serial[128];
	char board_vendor[128], board[128];
	char bios_vendor[128], bios_version[128], bios_date[64];
	char cpu[160];
	int cpus;		/* logical CPUs */
	int sockets;		/* physical packages; 0 unknown */
	uint64_t memory;	/* bytes */
	char machine_id[128];
	/* Where it is: the chassis's own tags, "" when a placeholder. */
	char asset_tag[128], chassis_serial[128];
	/*
	 * The id in the form kiln gave it before ids kept a hash (each
	 * unsafe byte '_'): where this machine's earlier run folders are.
	 * The same as machine_id when the serial needed no change.
	 */
	char machine_id_old[128];
};

struct machine_nic {
	char name[32], mac[32], driver[64], state[16];
	int speed;		/* Mb/s, -1 unknown */
	int wireless;
};

/* How the machine booted: Secure Boot, and what lockdown closes. */
struct machine_firmware {
	int efi;		/* booted through UEFI */
	int secure_boot;	/* 1, 0, or -1 when it cannot be told */
	char lockdown[32];	/* none, integrity, confidentiality, or "" */
};

/* DMI from sysfs, CPU and memory from /proc. */
void machine_system_read(const char *sysroot, const char *procroot,
			 struct machine_system *s);

/* The NICs with a device behind them; *nics is allocated. 0 or -ENOMEM. */
int machine_nics_read(const char *sysroot, struct machine_nic **nics, int *n);

/*
 * The machine id: a real DMI serial, else the first wired MAC. When the
 * value holds bytes outside A-Za-z0-9._- they become '_' and the id ends
 * in '-' and 8 lowercase hex of the raw value's CRC32C (crc32c.h), so
 * "a/b" is "a_b-fb0b40a3" and "a b" is "a_b-1c724a5e"; a value that needs
 * no change is the id as it is. machine_id_old is also set.
 */
void machine_id_choose(struct machine_system *s, const struct machine_nic *nics,
		       int n);

/* Fills fw from sysfs (efivarfs and securityfs mounted by the init). */
void machine_firmware_read(const char *sysroot, struct machine_firmware *fw);

/* "UEFI, Secure Boot on, kernel locked down (integrity)", for people. */
char *machine_firmware_text(const struct machine_firmware *fw, char *buf,
			    size_t len);

/* Whether a DMI serial is a real one, not "To Be Filled By O.E.M.". */
int machine_serial_real(const char *serial);

/* Only A-Za-z0-9._- in names of folders: FAT takes them all. */
void machine_safe_name(char *s);

#endif
