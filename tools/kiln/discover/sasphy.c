/* SPDX-License-Identifier: MIT */
/*
 * Description: the SAS phys of sysfs and their error counters (see
 * sasphy.h), read the way the kernel's scsi_transport_sas lays them out
 * (Documentation/scsi/scsi_transport_sas, drivers/scsi/scsi_transport_sas.c:
 * sas_phy_add() under its parent, sas_port_add_phy()'s "port" link).
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/sysfs.h"
#include "discover/sasphy.h"

const char *const sasphy_counter[SASPHY_COUNTERS] = {
	"invalid_dword_count",
	"running_disparity_error_count",
	"loss_of_dword_sync_count",
	"phy_reset_problem_count",
};

/* path without the devices folder dev in front; "" when not under it. */
static void under(const char *path, const char *dev, char *out, size_t len)
{
	size_t n = strlen(dev);

	if (!strncmp(path, dev, n) && path[n] == '/')
		snprintf(out, len, "%s", path + n + 1);
	else if (len)
		out[0] = 0;
}

/* "0000:03:00.0": a PCI function's name. */
static int is_pci(const char *s, size_t n)
{
	static const char shape[] = "hhhh:hh:hh.h";
	size_t i;

	if (n != sizeof(shape) - 1)
		return 0;
	for (i = 0; i < n; i++)
		if (shape[i] == 'h' ? !isxdigit((unsigned char)s[i]) :
		    s[i] != shape[i])
			return 0;
	return 1;
}

/* The last PCI function on a device path: its controller. */
static void ctrl_of(const char *path, char *out, size_t len)
{
	const char *s = path, *e;

	out[0] = 0;
	while (*s) {
		e = strchr(s, '/');
		if (!e)
			e = s + strlen(s);
		if (is_pci(s, (size_t)(e - s)))
			snprintf(out, len, "%.*s", (int)(e - s), s);
		s = *e ? e + 1 : e;
	}
}

static void read_counters(const char *dir, struct sasphy *p)
{
	char buf[32], *end;
	int k, ret;

	for (k = 0; k < SASPHY_COUNTERS; k++) {
		long long v;

		p->count[k] = SASPHY_NONE;
		p->err[k] = 0;
		ret = sysfs_attr(dir, sasphy_counter[k], buf, sizeof(buf));
		if (ret < 0) {
			p->err[k] = -ret;
			continue;
		}
		v = strtoll(buf, &end, 0);
		if (end == buf || *end || v < 0)
			p->err[k] = EBADMSG;
		else
			p->count[k] = v;
	}
}

/* Whether a port's folder holds an expander: the link to it is shared. */
static int port_to_expander(const char *port)
{
	char **names;
	int n, i, found = 0;

	names = dir_list(port, &n);
	for (i = 0; names && i < n; i++)
		found |= !strncmp(names[i], "expander-", 9);
	if (names)
		dir_list_free(names, n);
	return found;
}

/* One phy: the class entry's device, its owner, port and counters. */
static void read_phy(const char *sysroot, const char *devroot,
		     const char *name, struct sasphy *p)
{
	char dir[PATH_MAX], real[PATH_MAX], link[PATH_MAX + 8], *slash;
	char rel[PATH_MAX];

	memset(p, 0, sizeof(*p));
	snprintf(p->name, sizeof(p->name), "%s", name);
	snprintf(dir, sizeof(dir), "%s/class/sas_phy/%s", sysroot, name);
	read_counters(dir, p);
	sysfs_attr_tidy(dir, "negotiated_linkrate", p->rate, sizeof(p->rate));
	/* .../ownerN/phy-H:N/sas_phy/phy-H:N: the class device's parents. */
	if (!realpath(dir, real))
		return;
	slash = strrchr(real, '/');
	if (slash)
		*slash = 0;		/* .../phy-H:N/sas_phy */
	slash = strrchr(real, '/');
	if (slash)
		*slash = 0;		/* .../phy-H:N: the phy device */
	snprintf(link, sizeof(link), "%s/port", real);
	if (realpath(link, rel)) {
		under(rel, devroot, p->port, sizeof(p->port));
		p->to_expander = port_to_expander(rel);
	}
	slash = strrchr(real, '/');
	if (!slash)
		return;
	*slash = 0;			/* its owner: hostH, expander-H:E */
	slash = strrchr(real, '/');
	snprintf(p->owner, sizeof(p->owner), "%s", slash ? slash + 1 : real);
	under(real, devroot, rel, sizeof(rel));
	ctrl_of(rel, p->ctrl, sizeof(p->ctrl));
}

int sasphy_read(const char *sysroot, struct sasphy_set *s)
{
	char dir[PATH_MAX], devroot[PATH_MAX];
	char **names;
	int n, i;

	memset(s, 0, sizeof(*s));
	snprintf(dir, sizeof(dir), "%s/class/sas_phy", sysroot);
	names = dir_list(dir, &n);
	if (!names)
		return 0;
	snprintf(dir, sizeof(dir), "%s/devices", sysroot);
	if (!realpath(dir, devroot))
		devroot[0] = 0;
	s->phys = calloc((size_t)n + 1, sizeof(*s->phys));
	if (!s->phys) {
		dir_list_free(names, n);
		return -ENOMEM;
	}
	for (i = 0; i < n; i++)
		read_phy(sysroot, devroot, names[i], &s->phys[s->n++]);
	dir_list_free(names, n);
	return 0;
}

void sasphy_free(struct sasphy_set *s)
{
	free(s->phys);
	memset(s, 0, sizeof(*s));
}

int sasphy_in_use(const struct sasphy *p)
{
	return p->port[0] != 0;
}

int sasphy_on_path(const struct sasphy *p, const char *devpath)
{
	size_t n = strlen(p->port);

	return n && !strncmp(devpath, p->port, n) && devpath[n] == '/';
}

int sasphy_devpath(const char *sysroot, const char *name, char *out,
		   size_t len)
{
	char path[PATH_MAX], real[PATH_MAX], devroot[PATH_MAX];

	out[0] = 0;
	snprintf(path, sizeof(path), "%s/devices", sysroot);
	if (!realpath(path, devroot))
		return -errno;
	snprintf(path, sizeof(path), "%s/class/block/%s", sysroot, name);
	if (!realpath(path, real))
		return -errno;
	under(real, devroot, out, len);
	return out[0] ? 0 : -ENOENT;
}
