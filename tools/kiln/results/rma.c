/* SPDX-License-Identifier: MIT */
/*
 * Description: the RMA file of a FAILed disk (see rma.h): one plain-text
 * file a technician attaches to a return, with what vendors' RMA forms
 * ask: the drive, the failure with offsets and classes, and the drive's
 * own logs before and after the run.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "judge/smartjudge.h"
#include "base/unit.h"
#include "base/version.h"
#include "judge/nvmejudge.h"
#include "results/folder.h"
#include "results/rma.h"

/* Bad units and I/O error ranges listed, at most; the rest counted. */
#define RMA_LIST 32

static int safe(const char *s)
{
	size_t i;

	if (!s[0] || strlen(s) > 64)
		return 0;
	for (i = 0; s[i]; i++)
		if (!((s[i] >= 'A' && s[i] <= 'Z') ||
		      (s[i] >= 'a' && s[i] <= 'z') ||
		      (s[i] >= '0' && s[i] <= '9') || strchr("._-", s[i])))
			return 0;
	return 1;
}

/* The serial the drive itself gave, else sysfs's. */
static const char *serial_of(const struct record_disk *d)
{
	const struct nvme_disk *nv = nvme_disk_of(d);

	if (nv->after.id.have && nv->after.id.serial[0])
		return nv->after.id.serial;
	if (nv->before.id.have && nv->before.id.serial[0])
		return nv->before.id.serial;
	return d->t.id.serial;
}

void rma_name(const struct record_disk *d, char *out, size_t len)
{
	const char *serial = serial_of(d);

	if (safe(serial))
		snprintf(out, len, "rma-%s.txt", serial);
	else
		snprintf(out, len, "rma-%016" PRIx64 ".txt", d->t.ident);
}

static const struct nvmelog *ident_log(const struct record_disk *d)
{
	const struct nvme_disk *nv = nvme_disk_of(d);

	return nv->after.id.have ? &nv->after :
	       nv->before.id.have ? &nv->before : NULL;
}

static void drive(FILE *f, const struct record_disk *d)
{
	const struct nvme_disk *nv = nvme_disk_of(d);
	const struct nvmelog *l = ident_log(d);
	const struct nvmelog_health *h = nv->after.h.have ? &nv->after.h :
					 &nv->before.h;

	fprintf(f, "Drive\n");
	fprintf(f, "  model:          %s\n", l ? l->id.model : d->t.id.model);
	fprintf(f, "  serial:         %s\n", serial_of(d));
	fprintf(f, "  firmware:       %s\n", l ? l->id.firmware :
		d->link.firmware[0] ? d->link.firmware : "(not known)");
	fprintf(f, "  wwn:            %s\n", d->t.id.wwid[0] ? d->t.id.wwid :
		"(none)");
	fprintf(f, "  capacity:       %" PRIu64 " bytes\n", d->t.size);
	fprintf(f, "  kernel name:    %s (%s)\n", d->t.id.name[0] ?
		d->t.id.name : d->label, d->path);
	fprintf(f, "  identity:       %s\n", d->t.id.identity);
	if (h->have && h->power_on_hours >= 0)
		fprintf(f, "  power-on hours: %lld (NVMe health log)\n",
			h->power_on_hours);
	else
		fprintf(f, "  power-on hours: see SMART below\n");
}

static void failure(FILE *f, const struct record_disk *d)
{
	const struct engine_snap *s = &d->snap;
	unsigned i, k;

	fprintf(f, "\nFailure: %s\n", judge_name(d->j.verdict));
	for (i = 0; i < (unsigned)d->j.nreasons; i++)
		fprintf(f, "  - %s\n", d->j.reasons[i]);
	if (s->nerrors)
		fprintf(f, "\nI/O errors (offset, length, phase, pass, "
			"error, requests)\n");
	for (i = 0; i < s->nerrors && i < RMA_LIST; i++) {
		const struct engine_error *e = &s->errors[i];

		fprintf(f, "  %" PRIu64 "  %" PRIu64 "  %s  %u  %s  %u\n",
			e->offset, e->length, engine_phase_name(e->phase),
			e->pass, strerror(e->err), e->count);
	}
	if (s->nerrors > RMA_LIST)
		fprintf(f, "  ... and %u more ranges\n", s->nerrors - RMA_LIST);
	for (k = 0, i = 0; k < UNIT_CLASSES; k++)
		i += s->bad_by_class[k];
	if (!i)
		return;
	fprintf(f, "\nBad units (4 KiB):");
	for (k = 0; k < UNIT_CLASSES; k++)
		if (s->bad_by_class[k])
			fprintf(f, " %u %s", s->bad_by_class[k],
				unit_class_name(k));
	fprintf(f, "\n  offset  pass  class  bits differing\n");
	for (i = 0; i < s->nbad && i < RMA_LIST; i++)
		fprintf(f, "  %" PRIu64 "  %u  %s  %u\n", s->bad[i].offset,
			s->bad[i].pass, unit_class_name(s->bad[i].v.class),
			s->bad[i].v.nbits);
	if (s->nbad > RMA_LIST)
		fprintf(f, "  ... and %u more listed in result.json\n",
			s->nbad - RMA_LIST);
}

static void health(FILE *f, const char *when, const struct nvmelog_health *h)
{
	if (!h->have)
		return;
	fprintf(f, "  SMART / Health log (02h) %s: critical warning 0x%02x, "
		"%d K, spare %d%% (threshold %d%%), %d%% used, %lld media "
		"errors, %lld error log entries, %lld power-on hours, %lld "
		"power cycles, %lld unsafe shutdowns\n", when,
		h->critical_warning, h->temp_kelvin, h->spare,
		h->spare_threshold, h->used, h->media_errors, h->error_entries,
		h->power_on_hours, h->power_cycles, h->unsafe_shutdowns);
}

static void ocp(FILE *f, const char *when, const struct nvmelog_ocp *o)
{
	if (!o->have)
		return;
	fprintf(f, "  OCP extended SMART log (C0h, version %d) %s: bad NAND "
		"blocks %lld user, %lld system; XOR recoveries %lld; "
		"uncorrectable reads %lld; soft ECC errors %lld; end-to-end "
		"errors %lld detected, %lld corrected; PCIe correctable errors "
		"%lld; incomplete shutdowns %lld; %d%% free blocks\n",
		o->version, when, o->bad_user_nand, o->bad_system_nand,
		o->xor_recovery, o->uncorrectable_reads, o->soft_ecc,
		o->e2e_detected, o->e2e_corrected, o->pcie_correctable,
		o->incomplete_shutdowns, o->free_blocks);
}

static void errlog(FILE *f, const char *when, const struct nvmelog *l)
{
	char st[96];
	int i;

	if (!l->asked)
		return;
	if (l->why[0])
		fprintf(f, "  %s: %s\n", when, l->why);
	fprintf(f, "  Error Information log (01h) %s: %d entr%s kept\n", when,
		l->nerrors, l->nerrors == 1 ? "y" : "ies");
	for (i = 0; i < l->nerrors; i++)
		fprintf(f, "    #%" PRIu64 " queue %u command 0x%x LBA %" PRIu64
			" nsid %u: %s\n", l->errors[i].count, l->errors[i].sqid,
			l->errors[i].cmdid, l->errors[i].lba, l->errors[i].nsid,
			nvmelog_status_text(l->errors[i].status, st,
					    sizeof(st)));
}

static void nvme(FILE *f, const struct record_disk *d)
{
	const struct nvme_disk *nv = nvme_disk_of(d);

	if (!nv->before.asked && !nv->after.asked)
		return;
	fprintf(f, "\nNVMe logs (%s)\n", nv->after.dev[0] ?
		nv->after.dev : nv->before.dev);
	health(f, "before", &nv->before.h);
	health(f, "after", &nv->after.h);
	ocp(f, "before", &nv->before.ocp);
	ocp(f, "after", &nv->after.ocp);
	errlog(f, "before", &nv->before);
	errlog(f, "after", &nv->after);
	if (nv->telemetry[0])
		fprintf(f, "  telemetry log (07h): %s\n", nv->telemetry);
}

static void smart(FILE *f, const char *when, const struct health *h)
{
	fprintf(f, "\nSMART %s the run (smartctl)\n", when);
	if (!h->text || !h->len) {
		fprintf(f, "  (none: no smartctl, or no answer)\n");
		return;
	}
	fwrite(h->text, 1, h->len, f);
	if (h->text[h->len - 1] != '\n')
		fputc('\n', f);
}

char *rma_text(const struct record *r, const struct record_disk *d,
	       size_t *len)
{
	char *text = NULL, when[32] = "";
	size_t n = 0;
	struct tm tm;
	FILE *f = open_memstream(&text, &n);

	if (!f)
		return NULL;
	if (r->ended && gmtime_r(&r->ended, &tm))
		strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", &tm);
	fprintf(f, "kiln RMA report: %s %s\n", d->t.id.model, serial_of(d));
	fprintf(f, "kiln %s, machine %s, run %016" PRIx64 "%s%s\n\n",
		r->kiln_version ? r->kiln_version : version_string(),
		r->machine[0] ? r->machine : "(unknown)", r->run_id,
		when[0] ? ", ended " : "", when);
	drive(f, d);
	failure(f, d);
	nvme(f, d);
	smart(f, "before", &smart_disk_of(d)->before);
	smart(f, "after", &smart_disk_of(d)->after);
	if (fclose(f)) {
		free(text);
		return NULL;
	}
	*len = n;
	return text;
}

void rma_summary(const struct record *r, const struct record_disk *d,
		 FILE *f)
{
	const struct nvme_disk *nv = nvme_disk_of(d);
	char name[96];

	if (!r->out || d->j.verdict != JUDGE_FAIL)
		return;
	rma_name(d, name, sizeof(name));
	fprintf(f, "  for its vendor: %s%s%s\n", name, nv->telemetry[0] ?
		"; telemetry log " : "", nv->telemetry);
}

int rma_write_all(const struct record *r, const char *dir)
{
	char name[96], *text;
	size_t len = 0;
	int i, ret, first = 0;

	for (i = 0; i < r->n; i++) {
		const struct record_disk *d = &r->disks[i];

		if (d->j.verdict != JUDGE_FAIL)
			continue;
		rma_name(d, name, sizeof(name));
		text = rma_text(r, d, &len);
		ret = folder_write_in(dir, name, text, len);
		if (ret && !first)
			first = ret;
		free(text);
	}
	return first;
}
