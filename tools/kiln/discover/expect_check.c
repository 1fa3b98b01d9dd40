// SPDX-License-Identifier: MIT
/*
 * Description: the expected machine against the one found: each
 * difference a line that says what was expected and what was found, and
 * the file that describes this machine (kiln discover --expect-out).
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "base/kiln.h"
#include "discover/expect.h"

#define GIB ((uint64_t)1 << 30)

__attribute__((format(printf, 2, 3)))
static void differ(struct expect_diffs *d, const char *fmt, ...)
{
	va_list ap;

	if (d->n >= EXPECT_MAX_DIFFS) {
		d->more++;
		return;
	}
	va_start(ap, fmt);
	vsnprintf(d->line[d->n++], sizeof(d->line[0]), fmt, ap);
	va_end(ap);
}

int expect_counts_disk(const struct discover_disk *dk, const dev_t *skip,
		       int nskip)
{
	int i;

	/* The stick is protected by its partition, which skip names. */
	if (!strcmp(dk->transport, "loop") || dk->safety.protected)
		return 0;
	for (i = 0; i < nskip; i++)
		if (skip[i] == dk->dev)
			return 0;
	return 1;
}

/* The counted disks of a model. */
static int of_model(const struct discover_inventory *inv, const dev_t *skip,
		    int nskip, const char *model)
{
	int i, n = 0;

	for (i = 0; i < inv->ndisks; i++)
		if (expect_counts_disk(&inv->disks[i], skip, nskip) &&
		    !strcmp(inv->disks[i].id.model, model))
			n++;
	return n;
}

static void check_models(const struct expect *e,
			 const struct discover_inventory *inv,
			 const dev_t *skip, int nskip, struct expect_diffs *d)
{
	const struct discover_disk *dk;
	int i, j, n;

	for (i = 0; i < e->ndisk_count; i++) {
		n = of_model(inv, skip, nskip, e->disk_count[i].name);
		if ((uint64_t)n != e->disk_count[i].value)
			differ(d, "disks of model %s: expected %" PRIu64
			       ", found %d", e->disk_count[i].name,
			       e->disk_count[i].value, n);
	}
	for (j = 0; j < inv->ndisks; j++) {
		dk = &inv->disks[j];
		if (!expect_counts_disk(dk, skip, nskip))
			continue;
		for (i = 0; i < e->ndisk_firmware; i++)
			if (!strcmp(dk->id.model, e->disk_firmware[i].name) &&
			    strcmp(dk->firmware, e->disk_firmware[i].text))
				differ(d, "%s (%s) firmware: expected %s, "
				       "found %s", dk->id.name, dk->id.model,
				       e->disk_firmware[i].text,
				       *dk->firmware ? dk->firmware : "none");
		for (i = 0; i < e->ndisk_size; i++)
			if (!strcmp(dk->id.model, e->disk_size[i].name) &&
			    dk->size != e->disk_size[i].value)
				differ(d, "%s (%s) size: expected %" PRIu64
				       " bytes, found %" PRIu64 " bytes",
				       dk->id.name, dk->id.model,
				       e->disk_size[i].value, dk->size);
	}
}

static void check_links(const struct expect *e,
			const struct discover_inventory *inv,
			struct expect_diffs *d)
{
	const struct expect_item *it;
	const struct pci_controller *c;
	int i, j, n = 0;

	for (j = 0; j < inv->nctrls; j++)
		n += !!inv->ctrls[j].storage;
	if (e->controllers >= 0 && n != e->controllers)
		differ(d, "storage controllers: expected %d, found %d",
		       e->controllers, n);
	for (i = 0; i < e->nlink; i++) {
		it = &e->link[i];
		for (c = NULL, j = 0; j < inv->nctrls && !c; j++)
			if (!strcmp(inv->ctrls[j].pci, it->name))
				c = &inv->ctrls[j];
		if (!c) {
			differ(d, "controller %s: expected, not found",
			       it->name);
			continue;
		}
		if (it->value && (uint64_t)c->link_width != it->value)
			differ(d, "controller %s link width: expected x%"
			       PRIu64 ", found x%d", it->name, it->value,
			       c->link_width);
		if (*it->text && strncmp(c->link_speed, it->text,
					 strlen(it->text)))
			differ(d, "controller %s link speed: expected %s, "
			       "found %s", it->name, it->text,
			       *c->link_speed ? c->link_speed : "unknown");
	}
}

static void check_nics(const struct expect *e,
		       const struct discover_inventory *inv,
		       struct expect_diffs *d)
{
	const struct machine_nic *nic;
	int i, j;

	if (e->nics >= 0 && inv->nnics != e->nics)
		differ(d, "NICs: expected %d, found %d", e->nics, inv->nnics);
	for (i = 0; i < e->nnic_speed; i++) {
		for (nic = NULL, j = 0; j < inv->nnics && !nic; j++)
			if (!strcmp(inv->nics[j].name, e->nic_speed[i].name))
				nic = &inv->nics[j];
		if (!nic)
			differ(d, "NIC %s: expected, not found",
			       e->nic_speed[i].name);
		else if (nic->speed < 0 ||
			 (uint64_t)nic->speed != e->nic_speed[i].value)
			differ(d, "NIC %s speed: expected %" PRIu64 " Mb/s, "
			       "found %s%.0d%s", nic->name,
			       e->nic_speed[i].value,
			       nic->speed < 0 ? "unknown" : "", nic->speed < 0 ?
			       0 : nic->speed, nic->speed < 0 ? "" : " Mb/s");
	}
}

/* The DIMMs SMBIOS names: their count, and each one's size, speed, part. */
static void check_dimms(const struct expect *e,
			const struct discover_inventory *inv,
			struct expect_diffs *d)
{
	const struct smbios_dimm *m;
	int i, kept = inv->ndimms < DISCOVER_MAX_DIMMS ? inv->ndimms :
			  DISCOVER_MAX_DIMMS;

	if (e->dimms >= 0 && inv->ndimms != e->dimms)
		differ(d, "DIMMs: expected %d, found %d", e->dimms,
		       inv->ndimms);
	for (i = 0; i < kept; i++) {
		m = &inv->dimms[i];
		if (e->dimm_size && m->size != e->dimm_size)
			differ(d, "DIMM %s size: expected %" PRIu64 " MiB, "
			       "found %" PRIu64 " MiB", m->locator,
			       e->dimm_size >> 20, m->size >> 20);
		if (e->dimm_speed && m->speed != e->dimm_speed)
			differ(d, "DIMM %s speed: expected %u MT/s, found %u "
			       "MT/s", m->locator, e->dimm_speed, m->speed);
		if (*e->dimm_part && strcmp(m->part, e->dimm_part))
			differ(d, "DIMM %s part: expected %s, found %s",
			       m->locator, e->dimm_part,
			       *m->part ? m->part : "none");
	}
}

uint64_t expect_memory_found(const struct discover_inventory *inv)
{
	uint64_t sum = 0;
	int i;

	/* What the slots hold, where SMBIOS says; else what Linux has. */
	for (i = 0; i < inv->ndimms && i < DISCOVER_MAX_DIMMS; i++)
		sum += inv->dimms[i].size;
	return expect_memory_gib(sum ? sum : inv->sys.memory);
}

int expect_check(const struct expect *e,
		 const struct discover_inventory *inv, const dev_t *skip,
		 int nskip, struct expect_diffs *d)
{
	const struct machine_system *s = &inv->sys;
	uint64_t mem = expect_memory_found(inv);
	int i, n = 0;

	memset(d, 0, sizeof(*d));
	if (*e->cpu_model && strcmp(s->cpu, e->cpu_model))
		differ(d, "CPU model: expected %s, found %s", e->cpu_model,
		       *s->cpu ? s->cpu : "unknown");
	if (e->cpus >= 0 && s->cpus != e->cpus)
		differ(d, "CPUs: expected %d, found %d", e->cpus, s->cpus);
	if (e->memory && mem != e->memory)
		differ(d, "memory: expected %" PRIu64 " GiB, found %" PRIu64
		       " GiB", e->memory / GIB, mem / GIB);
	check_dimms(e, inv, d);
	for (i = 0; i < inv->ndisks; i++)
		n += expect_counts_disk(&inv->disks[i], skip, nskip);
	if (e->disks >= 0 && n != e->disks)
		differ(d, "disks: expected %d, found %d", e->disks, n);
	check_models(e, inv, skip, nskip, d);
	check_links(e, inv, d);
	check_nics(e, inv, d);
	return d->n + d->more;
}

/* Whether every counted disk of dk's model has its firmware (or size). */
static int alike(const struct discover_inventory *inv, const dev_t *skip,
		 int nskip, const struct discover_disk *dk, int size)
{
	const struct discover_disk *o;
	int i;

	for (i = 0; i < inv->ndisks; i++) {
		o = &inv->disks[i];
		if (!expect_counts_disk(o, skip, nskip) ||
		    strcmp(o->id.model, dk->id.model))
			continue;
		if (size ? o->size != dk->size :
			   strcmp(o->firmware, dk->firmware) != 0)
			return 0;
	}
	return 1;
}

/* A name a KEY.NAME line can hold: not empty, no '=', '#' or newline. */
static int nameable(const char *s)
{
	return *s && !strpbrk(s, "=#\r\n") && s[0] != ' ' &&
	       s[strlen(s) - 1] != ' ';
}

static void write_disks(const struct discover_inventory *inv,
			const dev_t *skip, int nskip, FILE *f)
{
	const struct discover_disk *dk, *first;
	int i, j;

	for (i = 0; i < inv->ndisks; i++) {
		dk = &inv->disks[i];
		if (!expect_counts_disk(dk, skip, nskip) ||
		    !nameable(dk->id.model))
			continue;
		for (first = NULL, j = 0; j <= i && !first; j++)
			if (expect_counts_disk(&inv->disks[j], skip, nskip) &&
			    !strcmp(inv->disks[j].id.model, dk->id.model))
				first = &inv->disks[j];
		if (first != dk)
			continue;
		fprintf(f, "disks.%s=%d\n", dk->id.model,
			of_model(inv, skip, nskip, dk->id.model));
		if (*dk->firmware && alike(inv, skip, nskip, dk, 0))
			fprintf(f, "disk-firmware.%s=%s\n", dk->id.model,
				dk->firmware);
		else
			fprintf(f, "# %s: firmware unknown or mixed\n",
				dk->id.model);
		if (alike(inv, skip, nskip, dk, 1))
			fprintf(f, "disk-size.%s=%" PRIu64 "\n", dk->id.model,
				dk->size);
		else
			fprintf(f, "# %s: sizes mixed\n", dk->id.model);
	}
}

/* The DIMMs: their count, and what every one of them shares. */
static void write_dimms(const struct discover_inventory *inv, FILE *f)
{
	const struct smbios_dimm *m = inv->dimms;
	int i, size = 1, speed = 1, part = 1;
	int kept = inv->ndimms < DISCOVER_MAX_DIMMS ? inv->ndimms :
		   DISCOVER_MAX_DIMMS;

	if (!kept) {
		fprintf(f, "# no DIMMs in the SMBIOS table (or none read)\n");
		return;
	}
	for (i = 1; i < kept; i++) {
		size &= m[i].size == m[0].size;
		speed &= m[i].speed == m[0].speed;
		part &= !strcmp(m[i].part, m[0].part);
	}
	fprintf(f, "dimms=%d\n", inv->ndimms);
	if (size)
		fprintf(f, "dimm-size=%" PRIu64 "M\n", m[0].size >> 20);
	if (speed && m[0].speed)
		fprintf(f, "dimm-speed=%u\n", m[0].speed);
	if (part && *m[0].part && !strpbrk(m[0].part, "\r\n"))
		fprintf(f, "dimm-part=%s\n", m[0].part);
	if (!size || !speed || !part)
		fprintf(f, "# the DIMMs differ in size, speed or part\n");
}

static void write_links(const struct discover_inventory *inv, FILE *f)
{
	const struct pci_controller *c;
	int i, n = 0;

	for (i = 0; i < inv->nctrls; i++)
		n += !!inv->ctrls[i].storage;
	fprintf(f, "\n# Storage controllers, and each one's PCIe link\n"
		"controllers=%d\n", n);
	for (i = 0; i < inv->nctrls; i++) {
		c = &inv->ctrls[i];
		if (!c->link_width && !*c->link_speed)
			continue;
		fprintf(f, "controller.%s=", c->pci);
		if (c->link_width)
			fprintf(f, "x%d%s", c->link_width,
				*c->link_speed ? " " : "");
		fprintf(f, "%s\n", c->link_speed);
	}
}

void expect_write(const struct discover_inventory *inv, const dev_t *skip,
		  int nskip, FILE *f)
{
	const struct machine_system *s = &inv->sys;
	int i, n = 0;

	for (i = 0; i < inv->ndisks; i++)
		n += expect_counts_disk(&inv->disks[i], skip, nskip);
	fprintf(f, "# The expected machine, written by kiln discover "
		"--expect-out from %s.\n# Give it as expect=FILE (or "
		"expect.cfg on the stick); any difference FAILs the\n# "
		"machine. Every line may go: drop what need not match.\n",
		*s->machine_id ? s->machine_id : "this machine");
	fprintf(f, "\n# CPU and memory (the DIMMs' sum, else MemTotal, "
		"rounded up to a whole GiB)\n");
	if (*s->cpu && !strpbrk(s->cpu, "\r\n"))
		fprintf(f, "cpu-model=%s\n", s->cpu);
	fprintf(f, "cpus=%d\n", s->cpus);
	if (expect_memory_found(inv))
		fprintf(f, "memory=%" PRIu64 "G\n",
			expect_memory_found(inv) / GIB);
	write_dimms(inv, f);
	fprintf(f, "\n# Disks other than the boot and results media; then "
		"each model's count,\n# firmware and size in bytes\n"
		"disks=%d\n", n);
	write_disks(inv, skip, nskip, f);
	write_links(inv, f);
	fprintf(f, "\n# NICs, and each one's link speed in Mb/s\nnics=%d\n",
		inv->nnics);
	for (i = 0; i < inv->nnics; i++)
		if (inv->nics[i].speed >= 0 && nameable(inv->nics[i].name))
			fprintf(f, "nic.%s=%d\n", inv->nics[i].name,
				inv->nics[i].speed);
}
