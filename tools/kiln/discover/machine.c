/* SPDX-License-Identifier: MIT */
/*
 * Description: the machine under test (see machine.h): DMI, CPUs and
 * sockets, memory, NICs, the firmware it booted through, and its machine
 * id, read under roots that tests point at fixtures.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/crc32c.h"
#include "base/kiln.h"
#include "discover/machine.h"
#include "base/sysfs.h"

void machine_firmware_read(const char *sysroot, struct machine_firmware *fw)
{
	char dir[PATH_MAX], buf[128], *open_, *close_;
	unsigned char var[8];
	ssize_t n;
	int fd;

	memset(fw, 0, sizeof(*fw));
	fw->secure_boot = -1;
	snprintf(dir, sizeof(dir), "%s/firmware/efi", sysroot);
	fw->efi = access(dir, F_OK) == 0;
	if (!fw->efi) {
		fw->secure_boot = 0;	/* BIOS has none */
	} else {
		/* The EFI variable: 4 bytes of attributes, then 0 or 1. */
		snprintf(dir, sizeof(dir),
			 "%s/firmware/efi/efivars/"
			 "SecureBoot-8be4df61-93ca-11d2-aa0d-00e098032b8c",
			 sysroot);
		fd = open(dir, O_RDONLY | O_CLOEXEC);
		if (fd >= 0) {
			n = read(fd, var, sizeof(var));
			if (n == 5)
				fw->secure_boot = var[4] == 1;
			close(fd);
		}
	}
	/* "none [integrity] confidentiality": the bracketed one holds. */
	snprintf(dir, sizeof(dir), "%s/kernel/security", sysroot);
	if (sysfs_attr(dir, "lockdown", buf, sizeof(buf)) > 0 &&
	    (open_ = strchr(buf, '[')) && (close_ = strchr(open_, ']'))) {
		*close_ = 0;
		snprintf(fw->lockdown, sizeof(fw->lockdown), "%.31s",
			 open_ + 1);
	}
}

char *machine_firmware_text(const struct machine_firmware *fw, char *buf,
			     size_t len)
{
	static const char closed[] = " (unsigned modules, /dev/mem, kexec "
				     "and hibernation closed)";
	const char *sb = fw->secure_boot == 1 ? "on" :
			 fw->secure_boot == 0 ? "off" :
			 "unknown (efivarfs not mounted)";
	int locked = fw->lockdown[0] && strcmp(fw->lockdown, "none");

	snprintf(buf, len, "%s, Secure Boot %s%s%s%s",
		 fw->efi ? "UEFI" : "BIOS", sb,
		 fw->lockdown[0] ? ", kernel lockdown " : "", fw->lockdown,
		 locked ? closed : "");
	return buf;
}

int machine_serial_real(const char *s)
{
	static const char *const placeholders[] = {
		"to be filled by o.e.m.",
		"default string",
		"system serial number",
		"not specified",
		"not applicable",
		"none",
		"n/a",
		"na",
		"oem",
		"0123456789",
		"chassis serial number",
		"serial number",
		"invalid",
		"unknown",
		"empty",
		"xxxxxxxxxx",
	};
	char low[128];
	size_t i, n = strlen(s);
	int same = 1;

	if (!n || n >= sizeof(low))
		return n >= sizeof(low);
	for (i = 0; i <= n; i++)
		low[i] = (char)tolower((unsigned char)s[i]);
	for (i = 0; i < ARRAY_SIZE(placeholders); i++)
		if (!strcmp(low, placeholders[i]))
			return 0;
	/* "0000000", "       ", "FFFFFFFF": one character repeated. */
	for (i = 1; i < n; i++)
		if (s[i] != s[0])
			same = 0;
	return !same;
}

void machine_safe_name(char *s)
{
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '.' && *s != '_' &&
		    *s != '-')
			*s = '_';
}

void machine_system_read(const char *sysroot, const char *procroot,
			 struct machine_system *s)
{
	char dmi[PATH_MAX], path[PATH_MAX], line[512];
	unsigned long long seen = 0;
	FILE *f;

	memset(s, 0, sizeof(*s));

	snprintf(dmi, sizeof(dmi), "%s/class/dmi/id", sysroot);
	sysfs_attr_tidy(dmi, "sys_vendor", s->vendor, sizeof(s->vendor));
	sysfs_attr_tidy(dmi, "product_name", s->product, sizeof(s->product));
	sysfs_attr_tidy(dmi, "product_serial", s->serial, sizeof(s->serial));
	sysfs_attr_tidy(dmi, "board_vendor", s->board_vendor,
			sizeof(s->board_vendor));
	sysfs_attr_tidy(dmi, "board_name", s->board, sizeof(s->board));
	sysfs_attr_tidy(dmi, "bios_vendor", s->bios_vendor,
			sizeof(s->bios_vendor));
	sysfs_attr_tidy(dmi, "bios_version", s->bios_version,
			sizeof(s->bios_version));
	sysfs_attr_tidy(dmi, "bios_date", s->bios_date, sizeof(s->bios_date));
	/* A lab finds a machine by its asset tag; "Default string" is none. */
	sysfs_attr_tidy(dmi, "chassis_asset_tag", s->asset_tag,
			sizeof(s->asset_tag));
	if (!machine_serial_real(s->asset_tag))
		s->asset_tag[0] = 0;
	sysfs_attr_tidy(dmi, "chassis_serial", s->chassis_serial,
			sizeof(s->chassis_serial));
	if (!machine_serial_real(s->chassis_serial))
		s->chassis_serial[0] = 0;

	snprintf(path, sizeof(path), "%s/cpuinfo", procroot);
	f = fopen(path, "re");
	if (f) {
		while (fgets(line, sizeof(line), f)) {
			char *colon = strchr(line, ':');

			if (!strncmp(line, "processor", 9)) {
				s->cpus++;
			} else if (colon && !strncmp(line, "physical id", 11)) {
				/* "2 x EPYC" on a 1-socket VM misleads. */
				unsigned long id = strtoul(colon + 1, NULL, 10);

				if (id < 64 && !(seen & 1ull << id)) {
					seen |= 1ull << id;
					s->sockets++;
				}
			}
			else if (!s->cpu[0] && colon &&
				 !strncmp(line, "model name", 10)) {
				snprintf(s->cpu, sizeof(s->cpu), "%s",
					 colon + 1);
				sysfs_tidy(s->cpu);
			}
		}
		fclose(f);
	}
	snprintf(path, sizeof(path), "%s/meminfo", procroot);
	f = fopen(path, "re");
	if (f) {
		unsigned long long kb;

		while (fgets(line, sizeof(line), f))
			if (sscanf(line, "MemTotal: %llu kB", &kb) == 1)
				s->memory = kb * 1024;
		fclose(f);
	}
}

int machine_nics_read(const char *sysroot, struct machine_nic **out, int *count)
{
	struct machine_nic *nics;
	char base[PATH_MAX], dir[PATH_MAX + 64], buf[64];
	char **names;
	int i, n;

	snprintf(base, sizeof(base), "%s/class/net", sysroot);
	names = dir_list(base, &n);
	*out = NULL;
	*count = 0;
	nics = calloc((size_t)n + 1, sizeof(*nics));
	if (!nics) {
		dir_list_free(names, n);
		return -ENOMEM;
	}
	for (i = 0; i < n; i++) {
		struct machine_nic *nic = &nics[*count];

		snprintf(dir, sizeof(dir), "%s/%s", base, names[i]);
		/* No device behind it: lo, bridges, bonds, veth, tunnels. */
		if (!sysfs_exists(dir, "device"))
			continue;
		snprintf(nic->name, sizeof(nic->name), "%.31s", names[i]);
		sysfs_attr_tidy(dir, "address", nic->mac, sizeof(nic->mac));
		snprintf(buf, sizeof(buf), "device/driver");
		sysfs_link_base(dir, buf, nic->driver, sizeof(nic->driver));
		sysfs_attr_tidy(dir, "operstate", nic->state,
				sizeof(nic->state));
		nic->speed = (int)sysfs_attr_long(dir, "speed", -1);
		if (nic->speed <= 0)
			nic->speed = -1;
		nic->wireless = sysfs_exists(dir, "wireless") ||
			       sysfs_exists(dir, "phy80211");
		(*count)++;
	}
	dir_list_free(names, n);
	*out = nics;
	return 0;
}

void machine_id_choose(struct machine_system *s, const struct machine_nic *nics,
		       int n)
{
	int i;

	if (machine_serial_real(s->serial)) {
		snprintf(s->machine_id, sizeof(s->machine_id), "%s", s->serial);
	} else {
		snprintf(s->machine_id, sizeof(s->machine_id), "unknown");
		for (i = 0; i < n; i++) {
			const char *m = nics[i].mac;
			char *w = s->machine_id;

			if (nics[i].wireless || strlen(m) < 12)
				continue;
			for (; *m &&
			       w < s->machine_id + sizeof(s->machine_id) - 1;
			     m++)
				if (*m != ':')
					*w++ = *m;
			*w = 0;
			break;
		}
	}
	snprintf(s->machine_id_old, sizeof(s->machine_id_old), "%s",
		 s->machine_id);
	machine_safe_name(s->machine_id_old);
	if (strcmp(s->machine_id_old, s->machine_id)) {
		/*
		 * Made safe, "a/b" and "a b" would both be "a_b", sharing a
		 * folder, a Pushgateway group and a fleet row: a changed id
		 * keeps 8 hex of the raw value's CRC32C, cut to fit.
		 */
		uint32_t h = crc32c(0, s->machine_id, strlen(s->machine_id));

		snprintf(s->machine_id, sizeof(s->machine_id), "%.*s-%08x",
			 (int)sizeof(s->machine_id) - 10, s->machine_id_old,
			 (unsigned)h);
	}
}

