/* SPDX-License-Identifier: MIT */
/*
 * Description: the machine's own signals judged (see vitals.h), as the
 * engineers of the seeds judged them by eye. A drive over its temperature
 * limit WARNs; an NVMe critical warning raised during the run FAILs its
 * disk; trouble lines of the kernel's log and PCIe errors on a disk's path
 * WARN that disk; an uncorrected memory error or a fatal PCIe error FAILs
 * the machine, not a disk, since bad memory or a bad root port shows as
 * bad units on every disk; corrected memory errors WARN it. A self-test
 * that failed FAILs its disk; one the drive does not have is a note.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "judge/smartjudge.h"
#include "judge/record.h"
#include "judge/vitals.h"

/* The judging: of a drive (a tested disk, or one a RAID card hides). */
static void judge_temp(const struct vitals_disk *d, struct judge *j)
{
	if (d->temp_max == VITALS_NONE || d->limit == VITALS_NONE ||
	    d->temp_max < d->limit)
		return;
	judge_reason(j, JUDGE_WARN, "temperature reached %d C, at or over its "
		     "limit of %d C (%s)", d->temp_max, d->limit,
		     vitals_limit_name(d->limit_from));
}

static void judge_selftest(const struct vitals_disk *d, struct judge *j)
{
	const char *kind = d->selftest == SETTINGS_SELFTEST_LONG ? "long" :
			   "short";
	const char *said = d->st_text[0] ? d->st_text : "";
	const char *sep = d->st_text[0] ? ": " : "";

	switch (d->st_result) {
	case VITALS_ST_FAILED:
		judge_reason(j, JUDGE_FAIL, "%s self-test failed%s%s", kind,
			     sep, said);
		break;
	case VITALS_ST_TIMEOUT:
		judge_reason(j, JUDGE_WARN, "%s self-test did not finish in "
			     "time%s%s", kind, sep, said);
		break;
	case VITALS_ST_UNSUPPORTED:
	case VITALS_ST_ABORTED:
	case VITALS_ST_UNKNOWN:
		/* A note: nothing was found against the drive. */
		judge_reason(j, JUDGE_PASS, "%s self-test %s%s%s", kind,
			     vitals_selftest_name(d->st_result), sep, said);
		break;
	}
}

static void judge_critical(const struct vitals_disk *d,
			   const struct smart_counters *after, struct judge *j)
{
	char words[160];

	/* SMART after the run says it already, when it still holds. */
	if (!d->crit_raised || (after && after->have &&
				after->critical_warning > 0 &&
				(after->critical_warning & d->crit_raised) ==
				d->crit_raised))
		return;
	judge_reason(j, JUDGE_FAIL, "NVMe critical warning 0x%02llx raised "
		     "during the run, %u s in: %s", d->crit_raised,
		     d->crit_at, smartjson_critical_text(d->crit_raised, words,
							 sizeof(words)));
}

static long rise(const struct vitals_aer *a, int sev)
{
	if (!a || a->start[sev] < 0 || a->end[sev] <= a->start[sev])
		return 0;
	return a->end[sev] - a->start[sev];
}

static const char *const severity[] = {
	"corrected", "uncorrected (non-fatal)", "fatal",
};

static void judge_kmsg(const struct vitals_disk *d, struct judge *j)
{
	char kinds[160] = "";
	size_t used = 0;
	unsigned total = 0;
	int k;

	/* PCIe errors are judged on the AER counters, below. */
	for (k = KMSG_NONE + 1; k < KMSG_AER_CORRECTED; k++) {
		if (!d->kmsg[k])
			continue;
		total += d->kmsg[k];
		if (used < sizeof(kinds))
			used += (size_t)snprintf(kinds + used,
						 sizeof(kinds) - used,
						 "%s%u %s", used ? ", " : "",
						 d->kmsg[k],
						 kmsg_kind_name(k));
	}
	if (!total)
		return;
	judge_reason(j, JUDGE_WARN, "the kernel logged %u error line%s %s "
		     "(%s)%s%.100s", total, total == 1 ? "" : "s",
		     d->kmsg_direct ? "naming it" : "naming its controller or "
		     "link", kinds, d->nkept ? ", the first: " : "",
		     d->nkept ? d->kept[0] : "");
}

void vitals_judge_disk(const struct record *r, struct record_disk *d)
{
	const struct vitals_disk *s = &d->sig;
	int i, sev;

	judge_temp(s, &d->j);
	judge_critical(s, &smart_disk_of(d)->after.c, &d->j);
	judge_kmsg(s, &d->j);
	for (i = 0; i < s->npci; i++) {
		const struct vitals_aer *a = vitals_aer_of(&r->sig, s->pci[i]);

		for (sev = VITALS_AER_COR; sev <= VITALS_AER_FATAL; sev++) {
			if (!rise(a, sev))
				continue;
			judge_reason(&d->j, JUDGE_WARN, "PCIe %s errors on its "
				     "path: %s rose from %ld to %ld%s%s%s",
				     severity[sev], a->pci, a->start[sev],
				     a->end[sev], a->errors[0] ? " (" : "",
				     a->errors, a->errors[0] ? ")" : "");
		}
	}
	judge_selftest(s, &d->j);
}

/* Whether a PCI function is on the path of a disk under test. */
static int on_a_path(const struct record *r, const char *pci)
{
	int i, k;

	for (i = 0; i < r->n; i++)
		for (k = 0; k < r->disks[i].sig.npci; k++)
			if (!strcmp(r->disks[i].sig.pci[k], pci))
				return 1;
	return 0;
}

/*
 * A reason of the machine: its FAILs are also kept in m->failure, which
 * goes into the failure of the run itself.
 */
__attribute__((format(printf, 3, 4)))
static void machine_reason(struct vitals_machine *m, int verdict,
			   const char *fmt, ...)
{
	char text[sizeof(m->j.reasons[0])];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	vitals_judge_reason(m, verdict, text);
}

/*
 * What the DIMMs (or csrows) below memory controller mc add up to: its
 * counts are their sum, plus what the driver could not place.
 */
static void below_mc(const struct vitals_machine *m, const char *mc,
		     long *sum)
{
	size_t n = strlen(mc);
	int i;

	memset(sum, 0, 4 * sizeof(*sum));
	for (i = 0; i < m->nedac; i++) {
		const struct vitals_edac *e = &m->edac[i];

		if (strncmp(e->where, mc, n) || e->where[n] != '/')
			continue;
		sum[0] += e->ce_start > 0 ? e->ce_start : 0;
		sum[1] += e->ce_end > 0 ? e->ce_end : 0;
		sum[2] += e->ue_start > 0 ? e->ue_start : 0;
		sum[3] += e->ue_end > 0 ? e->ue_end : 0;
	}
}

/* "mc0/dimm3 (CPU0_DIMM_A1, slot A1)": its label and its SMBIOS slot. */
static void edac_where(const struct vitals_edac *e, char *buf, size_t len)
{
	int same = !strcmp(e->slot, e->label);
	const char *label = same ? "" : e->label;

	if (!label[0] && !e->slot[0])
		snprintf(buf, len, "%s", e->where);
	else
		snprintf(buf, len, "%s (%s%s%s%s)", e->where, label,
			 label[0] && e->slot[0] ? ", " : "",
			 e->slot[0] ? "slot " : "", e->slot);
}

static void judge_edac(struct vitals_machine *m)
{
	int i;

	for (i = 0; i < m->nedac; i++) {
		const struct vitals_edac *e = &m->edac[i];
		long ce0 = e->ce_start, ce1 = e->ce_end;
		long ue0 = e->ue_start, ue1 = e->ue_end, sum[4];
		char where[200];

		/* A controller's own say: what its DIMMs do not already. */
		if (!strchr(e->where, '/')) {
			below_mc(m, e->where, sum);
			ce0 -= sum[0];
			ce1 -= sum[1];
			ue0 -= sum[2];
			ue1 -= sum[3];
		}
		edac_where(e, where, sizeof(where));
		if (e->ue_start >= 0 && ue1 > ue0)
			machine_reason(m, JUDGE_FAIL, "uncorrected memory "
				       "errors at %s rose from %ld to %ld "
				       "during the run: bad memory corrupts "
				       "every disk's data", where, e->ue_start,
				       e->ue_end);
		else if (ue1 > 0)
			/*
			 * EDAC counts from the boot of this kernel: an
			 * uncorrected error before the burn was still on this
			 * machine, under kiln, and its memory is as bad.
			 */
			machine_reason(m, JUDGE_FAIL, "%ld uncorrected memory "
				       "errors at %s since the boot, before "
				       "the burn: bad memory corrupts every "
				       "disk's data", e->ue_end, where);
		if (e->ce_start >= 0 && ce1 > ce0)
			machine_reason(m, JUDGE_WARN, "corrected memory errors "
				       "at %s rose from %ld to %ld during the "
				       "run", where, e->ce_start, e->ce_end);
	}
}

static void judge_aer(const struct record *r, struct vitals_machine *m)
{
	int i, sev;

	for (i = 0; i < m->naer; i++) {
		const struct vitals_aer *a = &m->aer[i];
		int below = on_a_path(r, a->pci);

		for (sev = VITALS_AER_COR; sev <= VITALS_AER_FATAL; sev++) {
			/* The disks below it have said it already. */
			if (!rise(a, sev) ||
			    (below && sev != VITALS_AER_FATAL))
				continue;
			machine_reason(m, sev == VITALS_AER_FATAL ?
				       JUDGE_FAIL : JUDGE_WARN, "PCIe %s "
				       "errors at %s rose from %ld to %ld "
				       "during the run%s%s%s", severity[sev],
				       a->pci, a->start[sev], a->end[sev],
				       a->errors[0] ? " (" : "", a->errors,
				       a->errors[0] ? ")" : "");
		}
	}
	/* Without AER counters in sysfs, the kernel's word for it. */
	if (!m->naer && m->other[KMSG_AER_FATAL])
		machine_reason(m, JUDGE_FAIL, "the kernel logged %u fatal PCIe "
			       "error%s", m->other[KMSG_AER_FATAL],
			       m->other[KMSG_AER_FATAL] == 1 ? "" : "s");
}

static void judge_hwmon(struct vitals_machine *m)
{
	int i;

	for (i = 0; i < m->nhwmon; i++) {
		const struct vitals_hwmon *h = &m->hwmon[i];

		if (h->crit != SENSORS_NONE && h->crit > 0 && h->max >= h->crit)
			machine_reason(m, JUDGE_WARN, "%s reached %.1f C, at "
				       "or over its critical limit of %.1f C",
				       h->what, h->max / 1000.0,
				       h->crit / 1000.0);
	}
}

/* A hidden drive's reasons, each with the verdict it was given. */
static void take(struct vitals_machine *m, const char *who,
		 const struct judge *j, int health)
{
	int k, v;

	for (k = 0; k < j->nreasons; k++) {
		v = j->verdict;
		/* judge_health() says "from before the run" of its WARNs. */
		if (health && strstr(j->reasons[k], "from before the run"))
			v = JUDGE_WARN;
		machine_reason(m, v, "%s%s", who, j->reasons[k]);
	}
}

/*
 * A drive behind a RAID card is not a target: what it says is the
 * machine's, named by its controller.
 */
static void judge_hidden(struct vitals_machine *m)
{
	int i;

	for (i = 0; i < m->nhidden; i++) {
		const struct vitals_hidden *h = &m->hidden[i];
		char who[200];
		struct judge j;

		snprintf(who, sizeof(who), "%s behind %s (%s%s%s): ", h->type,
			 h->controller, h->model, h->serial[0] ? " " : "",
			 h->serial);
		memset(&j, 0, sizeof(j));
		judge_health(&h->d.start, &h->d.end, &j);
		take(m, who, &j, 1);
		memset(&j, 0, sizeof(j));
		judge_temp(&h->d, &j);
		take(m, who, &j, 0);
		memset(&j, 0, sizeof(j));
		judge_critical(&h->d, &h->d.end, &j);
		take(m, who, &j, 0);
		memset(&j, 0, sizeof(j));
		judge_selftest(&h->d, &j);
		take(m, who, &j, 0);
	}
}

/*
 * The expected machine: each difference FAILs it. The first few are its
 * reasons (and so the run's failure); result.json's expect has them all.
 */
static void judge_expect(const struct record *r, struct vitals_machine *m)
{
	const struct expect_diffs *d = r->expect;
	int i, more, keep = JUDGE_MAX_REASONS / 2;

	if (!d)
		return;
	for (i = 0; i < d->n && i < keep; i++)
		machine_reason(m, JUDGE_FAIL, "%s", d->line[i]);
	more = d->n + d->more - keep;
	if (more > 0)
		machine_reason(m, JUDGE_FAIL, "%d more difference%s from %s",
			       more, more == 1 ? "" : "s", r->expect_file);
}

/* The run's failure: as the run set it, then the machine's FAILs. */
static void compose(struct record *r)
{
	const struct vitals_machine *m = &r->sig;

	snprintf(r->failure, sizeof(r->failure), "%s%s%s", m->failure_base,
		 m->failure_base[0] && m->failure[0] ? "; " : "", m->failure);
}

void vitals_judge_machine(struct record *r)
{
	struct vitals_machine *m = &r->sig;

	/* record.failure as the run set it, before any of the machine's. */
	if (!m->have_base) {
		snprintf(m->failure_base, sizeof(m->failure_base), "%s",
			 r->failure);
		m->have_base = 1;
	}
	memset(&m->j, 0, sizeof(m->j));
	m->failure[0] = 0;
	judge_expect(r, m);
	judge_edac(m);
	judge_aer(r, m);
	judge_hwmon(m);
	vitals_cpu_judge(m);
	judge_hidden(m);
	compose(r);
}

void vitals_machine_reason(struct record *r, int verdict, const char *text)
{
	vitals_judge_reason(&r->sig, verdict, text);
	compose(r);
}
