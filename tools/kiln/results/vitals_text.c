/* SPDX-License-Identifier: MIT */
/*
 * Description: the machine's own signals in summary.txt (see
 * vitals_text.h): the machine's verdict when it is not a PASS, a few
 * lines of what was sampled, and each disk's temperatures and self-test.
 */
#include <stdio.h>
#include <string.h>

#include "results/vitals_cpu_out.h"
#include "results/vitals_text.h"

static void extremes(const struct record *r, FILE *f)
{
	const struct record_disk *hot = NULL;
	int i, low = VITALS_NONE;

	for (i = 0; i < r->n; i++) {
		const struct vitals_disk *s = &r->disks[i].sig;

		if (s->temp_max == VITALS_NONE)
			continue;
		if (!hot || s->temp_max > hot->sig.temp_max)
			hot = &r->disks[i];
		if (low == VITALS_NONE || s->temp_first < low)
			low = s->temp_first;
	}
	if (hot)
		fprintf(f, "  drives %d to %d C; the hottest %s, %d C of its "
			"%d C\n", low, hot->sig.temp_max, hot->label,
			hot->sig.temp_max, hot->sig.limit);
}

void vitals_text_run(const struct record *r, FILE *f)
{
	const struct vitals_machine *m = &r->sig;
	long ce = 0, ue = 0, errs = 0;
	char line[200];
	int i, sev;

	if (m->j.verdict != JUDGE_PASS) {
		fprintf(f, "machine: %s\n", judge_name(m->j.verdict));
		/* Its FAILs are said with the run's failure already. */
		for (i = 0; i < m->j.nreasons; i++)
			if (!strstr(m->failure, m->j.reasons[i]))
				fprintf(f, "  - %s\n", m->j.reasons[i]);
	}
	if (!m->samples)
		return;
	fprintf(f, "signals: %d sample%s", m->samples,
		m->samples == 1 ? "" : "s");
	if (m->period)
		fprintf(f, ", every %llu s", (unsigned long long)m->period);
	fprintf(f, "\n");
	extremes(r, f);
	for (i = 0; i < m->nedac; i++) {
		if (strchr(m->edac[i].where, '/'))
			continue;
		ce += m->edac[i].ce_end > 0 ? m->edac[i].ce_end : 0;
		ue += m->edac[i].ue_end > 0 ? m->edac[i].ue_end : 0;
	}
	if (m->edac_mcs)
		fprintf(f, "  memory: %d controller%s, %ld corrected and %ld "
			"uncorrected errors since boot\n", m->edac_mcs,
			m->edac_mcs == 1 ? "" : "s", ce, ue);
	else
		fprintf(f, "  memory: no EDAC (its errors cannot be seen)\n");
	if (vitals_cpu_out_clock_text(&m->cpu, line, sizeof(line))[0])
		fprintf(f, "  %s\n", line);
	for (i = 0; i < m->naer; i++)
		for (sev = 0; sev < 3; sev++)
			if (m->aer[i].start[sev] >= 0 &&
			    m->aer[i].end[sev] > m->aer[i].start[sev])
				errs += m->aer[i].end[sev] -
					m->aer[i].start[sev];
	fprintf(f, "  PCIe AER: %d function%s watched, %ld error%s during "
		"the run\n", m->naer, m->naer == 1 ? "" : "s", errs,
		errs == 1 ? "" : "s");
	if (m->kmsg)
		fprintf(f, "  kernel log: %llu line%s, %u error line%s naming "
			"no disk under test\n",
			(unsigned long long)m->kmsg_lines,
			m->kmsg_lines == 1 ? "" : "s", m->other_total,
			m->other_total == 1 ? "" : "s");
	for (i = 0; i < m->nhidden; i++) {
		const struct vitals_hidden *h = &m->hidden[i];

		fprintf(f, "  %s behind %s: %s %s", h->type, h->controller,
			h->model[0] ? h->model : "?", h->serial);
		if (h->d.temp_last != VITALS_NONE)
			fprintf(f, ", %d C", h->d.temp_last);
		if (h->d.end.have && h->d.end.passed >= 0)
			fprintf(f, ", SMART %s", h->d.end.passed ? "passed" :
				"FAILED");
		fprintf(f, "\n");
	}
}

void vitals_text_disk(const struct record_disk *d, FILE *f)
{
	const struct vitals_disk *s = &d->sig;

	if (s->temp_max != VITALS_NONE) {
		fprintf(f, "  temperature %d C at the start, %d C at most, "
			"%d C at the end", s->temp_first, s->temp_max,
			s->temp_last);
		if (s->limit != VITALS_NONE)
			fprintf(f, " (limit %d C, %s)", s->limit,
				vitals_limit_name(s->limit_from));
		fprintf(f, "\n");
	}
	if (s->selftest)
		fprintf(f, "  %s self-test: %s%s%s\n",
			s->selftest == SETTINGS_SELFTEST_LONG ? "long" :
			"short",
			vitals_selftest_name(s->st_result),
			s->st_text[0] ? ": " : "", s->st_text);
}
