/* SPDX-License-Identifier: MIT */
/*
 * Description: hwmon temperatures, EDAC memory error counts and PCIe AER
 * counts from sysfs (see sensors.h), as the kernel documents them in
 * Documentation/ABI: testing/sysfs-class-hwmon, testing/sysfs-devices-edac
 * and testing/sysfs-bus-pci-devices-aer_stats. Every file may be missing
 * or unreadable on a given machine; a missing one is "not given", never
 * an error, so one odd driver cannot cost the run its other signals.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sense/sensors.h"
#include "base/sysfs.h"

/* Grows an array by one zeroed element; NULL when out of memory. */
static void *grow(void *arr, int *n, size_t size)
{
	char *a = realloc(arr, ((size_t)*n + 1) * size);

	if (!a)
		return NULL;
	memset(a + (size_t)*n * size, 0, size);
	(*n)++;
	return a;
}

static int milli(const char *dir, const char *name)
{
	long v = sysfs_attr_long(dir, name, LONG_MIN);

	/*
	 * Below absolute zero is how drivers say "no threshold" (nvme gives
	 * -273150 for a min the drive does not have).
	 */
	if (v == LONG_MIN || v <= -273150 || v > INT_MAX)
		return SENSORS_NONE;
	return (int)v;
}

/* dir's real path below sysroot: "/devices/..."; "" when not below it. */
static void below_root(const char *rroot, const char *dir, const char *name,
		       char *out, size_t len)
{
	char path[PATH_MAX], real[PATH_MAX];
	size_t n = strlen(rroot);

	out[0] = 0;
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (!realpath(path, real) || strncmp(real, rroot, n) || real[n] != '/')
		return;
	snprintf(out, len, "%s", real + n);
}

static int read_temps(const char *sysroot, const char *rroot,
		      struct sensors *s)
{
	static const char *const alarms[] = {
		"alarm", "max_alarm", "crit_alarm", "min_alarm", "lcrit_alarm",
		"emergency_alarm",
	};
	char base[PATH_MAX], dir[PATH_MAX * 2], attr[64], name[32];
	char **hw, **files;
	int nhw, nfiles, i, j, k, ret = 0;

	snprintf(base, sizeof(base), "%s/class/hwmon", sysroot);
	hw = dir_list(base, &nhw);
	for (i = 0; i < nhw && !ret; i++) {
		snprintf(dir, sizeof(dir), "%s/%s", base, hw[i]);
		sysfs_attr_tidy(dir, "name", name, sizeof(name));
		files = dir_list(dir, &nfiles);
		for (j = 0; j < nfiles; j++) {
			struct sensors_temp *t, *grown;
			int index, at = 0;

			if (sscanf(files[j], "temp%d_input%n", &index,
				   &at) != 1 || files[j][at] || index < 0)
				continue;
			grown = grow(s->temps, &s->ntemps, sizeof(*t));
			if (!grown) {
				ret = -ENOMEM;
				break;
			}
			s->temps = grown;
			t = &s->temps[s->ntemps - 1];
			snprintf(t->hwmon, sizeof(t->hwmon), "%s", hw[i]);
			snprintf(t->name, sizeof(t->name), "%s", name);
			t->index = index;
			below_root(rroot, dir, "device", t->device,
				   sizeof(t->device));
#define TEMP(field, suffix)						\
	do {								\
		snprintf(attr, sizeof(attr), "temp%d_%s", index, suffix); \
		t->field = milli(dir, attr);				\
	} while (0)
			TEMP(input, "input");
			TEMP(max, "max");
			TEMP(crit, "crit");
			TEMP(min, "min");
			TEMP(lcrit, "lcrit");
			TEMP(emergency, "emergency");
#undef TEMP
			snprintf(attr, sizeof(attr), "temp%d_label", index);
			sysfs_attr_tidy(dir, attr, t->label, sizeof(t->label));
			t->alarm = -1;
			for (k = 0; k < (int)(sizeof(alarms) /
					      sizeof(*alarms)); k++) {
				long a;

				snprintf(attr, sizeof(attr), "temp%d_%s", index,
					 alarms[k]);
				a = sysfs_attr_long(dir, attr, -1);
				if (a > 0)
					t->alarm = 1;
				else if (a == 0 && t->alarm < 0)
					t->alarm = 0;
			}
		}
		dir_list_free(files, nfiles);
	}
	dir_list_free(hw, nhw);
	return ret;
}

/* A count: -1 when not given (or not a count). */
static long count(const char *dir, const char *name)
{
	long v = sysfs_attr_long(dir, name, -1);

	return v < 0 ? -1 : v;
}

static int add_edac(struct sensors *s, const char *where, const char *label,
		    long ce, long ue)
{
	struct sensors_edac *e = grow(s->edac, &s->nedac, sizeof(*e));

	if (!e)
		return -ENOMEM;
	s->edac = e;
	e = &s->edac[s->nedac - 1];
	snprintf(e->where, sizeof(e->where), "%s", where);
	snprintf(e->label, sizeof(e->label), "%s", label);
	e->ce = ce;
	e->ue = ue;
	return 0;
}

/*
 * mcN/ce_count and ue_count; below it dimmN or rankN (dimm_ce_count,
 * dimm_ue_count, dimm_label) on newer drivers, csrowN (ce_count,
 * ue_count) on older ones; a driver may give both.
 */
static int read_edac(const char *sysroot, struct sensors *s)
{
	char base[PATH_MAX], mc[PATH_MAX * 2], sub[PATH_MAX * 3];
	char where[48], label[64];
	char **mcs, **subs;
	int nmc, nsub, i, j, ret = 0;

	snprintf(base, sizeof(base), "%s/devices/system/edac/mc", sysroot);
	mcs = dir_list(base, &nmc);
	for (i = 0; i < nmc && !ret; i++) {
		if (strncmp(mcs[i], "mc", 2) ||
		    !isdigit((unsigned char)mcs[i][2]))
			continue;
		snprintf(mc, sizeof(mc), "%s/%s", base, mcs[i]);
		s->edac_mcs++;
		sysfs_attr_tidy(mc, "mc_name", label, sizeof(label));
		ret = add_edac(s, mcs[i], label, count(mc, "ce_count"),
			       count(mc, "ue_count"));
		subs = dir_list(mc, &nsub);
		for (j = 0; j < nsub && !ret; j++) {
			int dimm = !strncmp(subs[j], "dimm", 4) ||
				   !strncmp(subs[j], "rank", 4);

			if (!dimm && strncmp(subs[j], "csrow", 5))
				continue;
			snprintf(sub, sizeof(sub), "%s/%s", mc, subs[j]);
			snprintf(where, sizeof(where), "%.15s/%.30s", mcs[i],
				 subs[j]);
			sysfs_attr_tidy(sub, dimm ? "dimm_label" :
					"ch0_dimm_label", label, sizeof(label));
			ret = add_edac(s, where, label,
				       count(sub, dimm ? "dimm_ce_count" :
					     "ce_count"),
				       count(sub, dimm ? "dimm_ue_count" :
					     "ue_count"));
		}
		dir_list_free(subs, nsub);
	}
	dir_list_free(mcs, nmc);
	return ret;
}

/*
 * aer_dev_correctable and friends: "RxErr 0" a line per error the PCIe
 * spec names, then "TOTAL_ERR_COR 0" (or _FATAL, _NONFATAL). Returns the
 * total (-1 when the file is not there or has none) and appends the
 * errors seen to list.
 */
static long aer_file(const char *dir, const char *name, char *list,
		     size_t len)
{
	char buf[2048], *line, *save = NULL;
	long total = -1;

	if (sysfs_attr(dir, name, buf, sizeof(buf)) <= 0)
		return -1;
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char err[40];
		long v;
		size_t n;

		if (sscanf(line, "%39s %ld", err, &v) != 2 || v < 0)
			continue;
		if (!strncmp(err, "TOTAL_ERR_", 10)) {
			total = v;
			continue;
		}
		n = strlen(list);
		if (v > 0 && n + 1 < len)
			snprintf(list + n, len - n, "%s%s %ld", n ? ", " : "",
				 err, v);
	}
	return total;
}

static int read_aer(const char *sysroot, struct sensors *s)
{
	char base[PATH_MAX], dir[PATH_MAX * 2], **devs;
	int ndev, i, ret = 0;

	snprintf(base, sizeof(base), "%s/bus/pci/devices", sysroot);
	devs = dir_list(base, &ndev);
	for (i = 0; i < ndev; i++) {
		struct sensors_aer a, *grown;

		memset(&a, 0, sizeof(a));
		snprintf(dir, sizeof(dir), "%s/%s", base, devs[i]);
		a.cor = aer_file(dir, "aer_dev_correctable", a.errors,
				 sizeof(a.errors));
		a.nonfatal = aer_file(dir, "aer_dev_nonfatal", a.errors,
				      sizeof(a.errors));
		a.fatal = aer_file(dir, "aer_dev_fatal", a.errors,
				   sizeof(a.errors));
		a.rp_cor = count(dir, "aer_rootport_total_err_cor");
		a.rp_nonfatal = count(dir, "aer_rootport_total_err_nonfatal");
		a.rp_fatal = count(dir, "aer_rootport_total_err_fatal");
		if (a.cor < 0 && a.nonfatal < 0 && a.fatal < 0 && a.rp_cor < 0)
			continue;
		grown = grow(s->aer, &s->naer, sizeof(a));
		if (!grown) {
			ret = -ENOMEM;
			break;
		}
		s->aer = grown;
		snprintf(a.pci, sizeof(a.pci), "%s", devs[i]);
		s->aer[s->naer - 1] = a;
		s->aer_ports++;
	}
	dir_list_free(devs, ndev);
	return ret;
}

int sensors_read(const char *sysroot, struct sensors *s)
{
	char rroot[PATH_MAX];
	int ret, r;

	memset(s, 0, sizeof(*s));
	if (!realpath(sysroot, rroot))
		snprintf(rroot, sizeof(rroot), "%s", sysroot);
	ret = read_temps(sysroot, rroot, s);
	if ((r = read_edac(sysroot, s)) && !ret)
		ret = r;
	if ((r = read_aer(sysroot, s)) && !ret)
		ret = r;
	return ret;
}

void sensors_free(struct sensors *s)
{
	free(s->temps);
	free(s->edac);
	free(s->aer);
	memset(s, 0, sizeof(*s));
}

/* 0000:03:00.0, or 10000:01:00.0 behind VMD: the n characters at p. */
static int pci_name(const char *p, size_t n)
{
	size_t d = n - 8, i;

	if (n != 12 && n != 13)
		return 0;
	for (i = 0; i < n; i++) {
		int ok;

		if (i == d || i == d + 3)
			ok = p[i] == ':';
		else if (i == d + 6)
			ok = p[i] == '.';
		else if (i == n - 1)
			ok = p[i] >= '0' && p[i] <= '7';
		else
			ok = isxdigit((unsigned char)p[i]);
		if (!ok)
			return 0;
	}
	return 1;
}

int sensors_pci_path(const char *devpath, char (*out)[24], int max)
{
	const char *p = devpath, *slash;
	char found[16][24];
	int n = 0, i;

	for (; p && *p; p = slash ? slash + 1 : NULL) {
		size_t len;

		slash = strchr(p, '/');
		len = slash ? (size_t)(slash - p) : strlen(p);
		if (len < sizeof(found[0]) && pci_name(p, len) && n < 16) {
			memcpy(found[n], p, len);
			found[n][len] = 0;
			n++;
		}
	}
	/* Deepest first: the disk's controller, then what it hangs from. */
	for (i = 0; i < n && i < max; i++)
		snprintf(out[i], sizeof(out[i]), "%s", found[n - 1 - i]);
	return n < max ? n : max;
}

const struct sensors_aer *sensors_aer_of(const struct sensors *s,
					 const char *pci)
{
	int i;

	for (i = 0; i < s->naer; i++)
		if (!strcmp(s->aer[i].pci, pci))
			return &s->aer[i];
	return NULL;
}

const struct sensors_temp *sensors_disk_temp(const struct sensors *s,
					     const char *devpath)
{
	const struct sensors_temp *best = NULL;
	size_t best_len = 0;
	int i;

	for (i = 0; i < s->ntemps; i++) {
		const struct sensors_temp *t = &s->temps[i];
		const char *last = strrchr(t->device, '/');
		size_t n = strlen(t->device);

		/*
		 * The hwmon of a PCI function is its controller's (mpt3sas
		 * reports the IOC's): not the disk's own temperature.
		 */
		if (!n || !last || pci_name(last + 1, strlen(last + 1)) ||
		    strncmp(devpath, t->device, n) ||
		    (devpath[n] && devpath[n] != '/') ||
		    t->input == SENSORS_NONE)
			continue;
		/* The nearest device wins; within it, its first sensor. */
		if (n > best_len || (n == best_len && t->index < best->index)) {
			best = t;
			best_len = n;
		}
	}
	return best;
}

static int add_rise(struct sensors_rise *r, int max, int n, int kind,
		    const char *what, long from, long to)
{
	if (n < max) {
		r[n].kind = kind;
		snprintf(r[n].what, sizeof(r[n].what), "%s", what);
		r[n].from = from;
		r[n].to = to;
	}
	return n + 1;
}

int sensors_diff(const struct sensors *before, const struct sensors *after,
		 struct sensors_rise *r, int max)
{
	char what[96];
	int i, j, n = 0;

	for (i = 0; i < after->nedac; i++) {
		const struct sensors_edac *a = &after->edac[i], *b = NULL;

		for (j = 0; j < before->nedac && !b; j++)
			if (!strcmp(before->edac[j].where, a->where))
				b = &before->edac[j];
		if (!b)
			continue;
		snprintf(what, sizeof(what), "%s%s%s%s", a->where,
			 a->label[0] ? " (" : "", a->label,
			 a->label[0] ? ")" : "");
		if (b->ce >= 0 && a->ce > b->ce)
			n = add_rise(r, max, n, SENSORS_EDAC_CE, what, b->ce,
				     a->ce);
		if (b->ue >= 0 && a->ue > b->ue)
			n = add_rise(r, max, n, SENSORS_EDAC_UE, what, b->ue,
				     a->ue);
	}
	for (i = 0; i < after->naer; i++) {
		const struct sensors_aer *a = &after->aer[i];
		const struct sensors_aer *b = sensors_aer_of(before, a->pci);

		if (!b)
			continue;
		if (b->cor >= 0 && a->cor > b->cor)
			n = add_rise(r, max, n, SENSORS_AER_COR, a->pci, b->cor,
				     a->cor);
		if (b->nonfatal >= 0 && a->nonfatal > b->nonfatal)
			n = add_rise(r, max, n, SENSORS_AER_NONFATAL, a->pci,
				     b->nonfatal, a->nonfatal);
		if (b->fatal >= 0 && a->fatal > b->fatal)
			n = add_rise(r, max, n, SENSORS_AER_FATAL, a->pci,
				     b->fatal, a->fatal);
	}
	for (i = 0; i < after->ntemps; i++) {
		const struct sensors_temp *a = &after->temps[i];
		long from = SENSORS_NONE;
		int kind = -1;

		if (a->input == SENSORS_NONE)
			continue;
		if (a->crit != SENSORS_NONE && a->input >= a->crit)
			kind = SENSORS_TEMP_CRIT;
		else if (a->max != SENSORS_NONE && a->input >= a->max)
			kind = SENSORS_TEMP_MAX;
		if (kind < 0)
			continue;
		for (j = 0; j < before->ntemps; j++)
			if (!strcmp(before->temps[j].hwmon, a->hwmon) &&
			    before->temps[j].index == a->index)
				from = before->temps[j].input;
		snprintf(what, sizeof(what), "%s temp%d %s%s%s", a->hwmon,
			 a->index, a->name, a->label[0] ? " " : "", a->label);
		n = add_rise(r, max, n, kind, what, from, a->input);
	}
	return n;
}
