/* SPDX-License-Identifier: MIT */
/*
 * Description: the run told for people: summary.txt, the per-disk table
 * the console shows every few minutes and at the end, and the verdict in
 * letters readable across a room. 80 columns, plain text, verdict first.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "base/crc32c.h"
#include "results/cert.h"
#include "results/notes.h"
#include "results/rma.h"
#include "results/summary.h"
#include "results/summary_groups.h"
#include "results/signal.h"
#include "base/timing.h"
#include "base/version.h"
#include "judge/zones.h"

static void rate_cols(FILE *f, const struct record_disk *d, int phase)
{
	double avg = figures_rate(&d->snap, phase), min, max;

	if (avg <= 0) {
		fprintf(f, " %5s %5s %5s", "-", "-", "-");
		return;
	}
	fprintf(f, " %5.0f", avg);
	if (figures_pass_range(&d->snap, phase, &min, &max))
		fprintf(f, " %5.0f %5.0f", min, max);
	else
		fprintf(f, " %5s %5s", "-", "-");
}

/* Labels longer than the column get a line of their own: none are cut. */
#define NAME_COL 10

/*
 * A disk only written (--mode write) and found well: nothing was read
 * back yet, so it has no PASS to give, only "written, not verified".
 */
static int written_only(const struct record_disk *d)
{
	return d->ep.mode == ENGINE_WRITE && d->j.verdict == JUDGE_PASS;
}

/* Under profile erase: its end step made, and read back as it should. */
static int erased(const struct record_disk *d)
{
	return d->ep.mode == ENGINE_NONE && d->end.state == ENDSTEP_DONE &&
	       d->j.verdict == JUDGE_PASS;
}

/*
 * A disk's verdict as a person reads it. Under profile erase no pass
 * was made: a disk erased and read back is "erased", not a burn's PASS;
 * one whose step was not done is "not erased" (its reasons say why).
 */
static const char *verdict_word(const struct record_disk *d)
{
	if (erased(d))
		return "erased";
	if (d->ep.mode == ENGINE_NONE && d->j.verdict == JUDGE_PASS)
		return "not erased";
	return written_only(d) ? "written" : judge_name(d->j.verdict);
}

/* The run's: a PASS of disks only written is no PASS either. */
static const char *run_word(const struct record *o, int *some)
{
	int i, all = o->n > 0, all_erased = o->n > 0;

	*some = 0;
	for (i = 0; i < o->n; i++) {
		*some |= written_only(&o->disks[i]);
		all &= written_only(&o->disks[i]);
		all_erased &= erased(&o->disks[i]);
	}
	if (all_erased && o->verdict == JUDGE_PASS)
		return "erased, no burn";
	return all && o->verdict == JUDGE_PASS ? "written, not verified" :
	       judge_name(o->verdict);
}

static void table_head(FILE *f, int final)
{
	fprintf(f, "%-*s %9s %18s%18s %4s %5s %s\n", NAME_COL, "target",
		"size", "write MB/s", "verify/read MB/s", "I/O", "bad",
		final ? "verdict" : "state");
	fprintf(f, "%-*s %9s %6s%6s%6s%6s%6s%6s %4s %5s\n", NAME_COL, "", "",
		"avg", "min", "max", "avg", "min", "max", "err", "units");
}

void summary_table(const struct record *r, FILE *f, int final)
{
	char size[32];
	int i;

	table_head(f, final);
	for (i = 0; i < r->n; i++) {
		const struct record_disk *d = &r->disks[i];
		const struct engine_snap *s = &d->snap;
		int own_line = strlen(d->label) > NAME_COL;

		if (own_line)
			fprintf(f, "%s\n", d->label);
		fprintf(f, "%-*s %9s ", NAME_COL, own_line ? "" : d->label,
			settings_fmt_size(d->t.size, size, sizeof(size)));
		rate_cols(f, d, PHASE_WRITE);
		rate_cols(f, d, d->ep.mode == ENGINE_READ ? PHASE_READ :
			  PHASE_VERIFY);
		fprintf(f, " %4u %5u %s\n", s->c.io_errors, s->c.bad_units,
			final ? verdict_word(d) :
			engine_state_name(s->c.state));
	}
}

/* One bad unit, or a run of n like ones (zeroed, foreign) that follow it. */
static void bad_detail(FILE *f, const struct engine_bad *b, unsigned n)
{
	const struct unit_verdict *v = &b->v;
	unsigned i, nb = v->nbits < UNIT_MAX_BITS ? v->nbits : UNIT_MAX_BITS;

	if (n > 1) {
		fprintf(f,
			"    %s: %u units from byte %llu to %llu (pass %u); "
			"%s\n",
			unit_class_name(v->class), n,
			(unsigned long long)b->offset,
			(unsigned long long)(b->offset +
					     (uint64_t)n * UNIT_SIZE),
			b->pass, engine_retry_name(b->retry));
		return;
	}
	fprintf(f, "    %s at byte %llu (pass %u)", unit_class_name(v->class),
		(unsigned long long)b->offset, b->pass);
	switch (v->class) {
	case UNIT_BITFLIP:
		fprintf(f, ": %u bit%s, at", v->nbits,
			v->nbits == 1 ? "" : "s");
		for (i = 0; i < nb; i++)
			fprintf(f, " %u", v->bits[i]);
		if (nb < v->nbits)
			fprintf(f, " ...");
		break;
	case UNIT_STALE:
		fprintf(f, ": holds pass %u of run %016llx", v->found.pass,
			(unsigned long long)v->found.run_id);
		break;
	case UNIT_MISDIRECTED:
		fprintf(f, ": holds the unit for byte %llu of disk %016llx",
			(unsigned long long)v->found.offset,
			(unsigned long long)v->found.ident);
		break;
	case UNIT_TORN:
		fprintf(f, ": differing sectors, mask 0x%x", v->sectors_bad);
		break;
	default:
		break;
	}
	fprintf(f, "; %s\n", engine_retry_name(b->retry));
}

/* How many bad units from i on are one stretch: same class, back to back. */
static unsigned run_length(const struct engine_snap *et, unsigned i)
{
	const struct engine_bad *a = &et->bad[i];
	unsigned n = 1;

	if (a->v.class != UNIT_ZEROED && a->v.class != UNIT_FOREIGN)
		return 1;
	while (i + n < et->nbad && et->bad[i + n].v.class == a->v.class &&
	       et->bad[i + n].retry == a->retry &&
	       et->bad[i + n].offset == a->offset + (uint64_t)n * UNIT_SIZE)
		n++;
	return n;
}

char *summary_duration(const struct record *o, char *buf, size_t len)
{
	return timing_fmt_hms(figures_duration_s(o), buf, len);
}

char *summary_run_line(const struct record *o, char *buf, size_t len)
{
	char a[40], b[40], hms[32];

	snprintf(buf, len, "run %016llx  %s .. %s  (%s)%s",
		 (unsigned long long)o->run_id,
		 timing_fmt_utc(o->started, 0, a, sizeof(a)),
		 timing_fmt_utc(figures_ended(o), 0, b,
				sizeof(b)),
		 summary_duration(o, hms, sizeof(hms)),
		 timing_clock_trusted(o->started) ? "" : "  clock not set");
	return buf;
}

char *summary_kiln_line(const struct record *o, char *buf, size_t len)
{
	struct utsname u;
	const char *kernel = o->kernel ? o->kernel :
			     uname(&u) == 0 ? u.release : NULL;

	snprintf(buf, len, "kiln %s%s%s, crc32c %s",
		 o->kiln_version ? o->kiln_version : version_string(),
		 kernel && kernel[0] ? ", Linux " : "", kernel ? kernel : "",
		 o->crc32c[0] ? o->crc32c : crc32c_name());
	return buf;
}

char *summary_work_line(const struct record *o, char *buf, size_t len)
{
	struct summary_work w;
	char work[160];
	int *idx = calloc((size_t)o->n + 1, sizeof(*idx)), i, n = 0;

	/* The disks that burned: one that failed before has done no work. */
	for (i = 0; idx && i < o->n; i++)
		if (o->disks[i].snap.c.state != STATE_NOT_STARTED)
			idx[n++] = i;
	if (!idx)
		n = o->n;
	summary_work_of(o, idx, n, &w);
	snprintf(buf, len, "work: %s (%d disk%s)",
		 summary_work_text(&w, 0, work, sizeof(work)), n,
		 n == 1 ? "" : "s");
	free(idx);
	return buf;
}

/* The first errors and bad units of a disk, ten of each at most. */
static void disk_errors(FILE *f, const struct engine_snap *et)
{
	unsigned k, lines;

	for (k = 0; k < et->nerrors && k < 10; k++) {
		const struct engine_error *e = &et->errors[k];

		fprintf(f, "    %s error%s at byte %llu (+%llu), pass %u: %s\n",
			engine_phase_name(e->phase), e->count > 1 ? "s" : "",
			(unsigned long long)e->offset,
			(unsigned long long)e->length, e->pass,
			strerror(e->err));
	}
	for (k = 0, lines = 0; k < et->nbad && lines < 10; lines++) {
		unsigned n = run_length(et, k);

		bad_detail(f, &et->bad[k], n);
		k += n;
	}
}

/*
 * Capacity a disk hides from the OS, which a burn or an erase of what
 * the OS sees did not reach: said at the top, a line a disk.
 */
static void hidden_lines(const struct record *o, FILE *f)
{
	char what[400];
	int i;

	for (i = 0; i < o->n; i++) {
		const struct hidden *h = &o->disks[i].t.hidden;

		if (h->state != HIDDEN_FOUND)
			continue;
		hidden_found_text(h, 0, what, sizeof(what));
		if (what[0])
			fprintf(f, "hidden: %s: %s\n", o->disks[i].label,
				what);
		if (h->todo[0] && what[0])
			fprintf(f, "  to reach it: %s\n", h->todo);
		if (h->restored[0])
			fprintf(f, "%s%s%shidden=restore: %s\n", what[0] ?
				"  " : "hidden: ", what[0] ? "" :
				o->disks[i].label, what[0] ? "" : ": ",
				h->restored);
	}
}

/* A disk said alone: all that summary.txt tells of it. */
static void disk_section(const struct record *o, const struct record_disk *d,
			 FILE *f)
{
	const struct engine_snap *et = &d->snap;
	struct summary_work w;
	char work[160];
	int i = (int)(d - o->disks), r;

	fprintf(f, "\n%s (%s): %s\n", d->label, d->path,
		written_only(d) ? "written, not verified" :
		d->ep.mode == ENGINE_NONE ? verdict_word(d) :
		judge_name(d->j.verdict));
	if (d->t.id.identity[0])
		fprintf(f, "  identity %s\n", d->t.id.identity);
	if (d->has_slot) {
		char bay[200];

		enclosure_text(&d->slot, bay, sizeof(bay));
		fprintf(f, "  %s\n", bay);
	}
	if (d->led[0])
		fprintf(f, "  %s\n", d->led);
	summary_work_of(o, &i, 1, &w);
	if (et->c.state != STATE_NOT_STARTED)
		fprintf(f, "  %s\n", summary_work_text(&w, 0, work,
						       sizeof(work)));
	for (SIGNAL_EACH(s))
		if ((*s)->summary_disk_head)
			(*s)->summary_disk_head(o, d, f);
	if (d->j.stability[0])
		fprintf(f, "  %s\n", d->j.stability);
	for (r = 0; r < d->j.nreasons; r++)
		fprintf(f, "  - %s\n", d->j.reasons[r]);
	zones_summary(f, et, o->s->bs, d->t.id.rotational);
	latency_summary(f, et);
	reread_summary(f, &d->rr);
	for (SIGNAL_EACH(s))
		if ((*s)->summary_disk_early)
			(*s)->summary_disk_early(o, d, f);
	rma_summary(o, d, f);
	for (SIGNAL_EACH(s))
		if ((*s)->summary_disk)
			(*s)->summary_disk(o, d, f);
	disk_errors(f, et);
}

/* Like disks with like outcomes, said once. */
static void group_section(const struct record *o,
			  const struct summary_group *g, FILE *f)
{
	const struct record_disk *d = &o->disks[g->idx[0]];
	struct summary_work w;
	char names[400], size[32], work[160];
	int r;

	fprintf(f, "\n%s: %s, %s, %s, %s (%d like disks)\n",
		summary_group_names(o, g, names, sizeof(names)),
		safety_class_name(d->t.safety.class),
		settings_fmt_size(d->t.size, size, sizeof(size)),
		engine_mode_name(d->ep.mode), written_only(d) ?
		"written, not verified" : verdict_word(d), g->n);
	summary_work_of(o, g->idx, g->n, &w);
	fprintf(f, "  %s\n", summary_work_text(&w, 1, work, sizeof(work)));
	for (r = 0; r < d->j.nreasons; r++)
		fprintf(f, "  - %s\n", d->j.reasons[r]);
	fprintf(f, "  each one's zones, request times and temperatures: "
		"report.html\n");
}

/* A group's rates: the mean of its averages, its slowest and fastest. */
static void group_rates(FILE *f, const struct record *o,
			const struct summary_group *g, int phase)
{
	double sum = 0, lo = 0, hi = 0, min, max;
	int i, n = 0, mm = 0;

	for (i = 0; i < g->n; i++) {
		const struct record_disk *d = &o->disks[g->idx[i]];
		double avg = figures_rate(&d->snap, phase);

		if (avg <= 0)
			continue;
		sum += avg;
		n++;
		if (!figures_pass_range(&d->snap, phase, &min, &max))
			continue;
		lo = !mm || min < lo ? min : lo;
		hi = !mm || max > hi ? max : hi;
		mm++;
	}
	if (!n) {
		fprintf(f, " %5s %5s %5s", "-", "-", "-");
		return;
	}
	fprintf(f, " %5.0f", sum / n);
	if (mm)
		fprintf(f, " %5.0f %5.0f", lo, hi);
	else
		fprintf(f, " %5s %5s", "-", "-");
}

/* The table with a line a group: the figures of many disks at once. */
static void group_table(const struct record *o,
			const struct summary_group *g, int ng, FILE *f)
{
	char size[32], names[400];
	int k, i;

	table_head(f, 1);
	for (k = 0; k < ng; k++) {
		const struct record_disk *d = &o->disks[g[k].idx[0]];
		unsigned errs = 0, bad = 0;

		for (i = 0; i < g[k].n; i++) {
			errs += o->disks[g[k].idx[i]].snap.c.io_errors;
			bad += o->disks[g[k].idx[i]].snap.c.bad_units;
		}
		summary_group_names(o, &g[k], names, sizeof(names));
		if (strlen(names) > NAME_COL)
			fprintf(f, "%s\n", names);
		fprintf(f, "%-*s %9s ", NAME_COL,
			strlen(names) > NAME_COL ? "" : names,
			settings_fmt_size(d->t.size, size, sizeof(size)));
		group_rates(f, o, &g[k], PHASE_WRITE);
		group_rates(f, o, &g[k], d->ep.mode == ENGINE_READ ?
			    PHASE_READ : PHASE_VERIFY);
		fprintf(f, " %4u %5u %s\n", errs, bad, verdict_word(d));
	}
}

void summary_text(const struct record *o, FILE *f)
{
	const struct settings *s = o->s;
	struct summary_group *g = NULL;
	int i, failed = 0, warned = 0, ng = summary_groups(o, &g), unverified;
	const char *word = run_word(o, &unverified);
	char line[400], hms[32], bs[32], fw[160];

	for (i = 0; i < o->n; i++) {
		failed += o->disks[i].j.verdict == JUDGE_FAIL;
		warned += o->disks[i].j.verdict == JUDGE_WARN;
	}
	fprintf(f, "kiln %s: %s, %d target%s, %d failed, %d warned (%s)\n",
		o->command, word, o->n, o->n == 1 ? "" : "s",
		failed, warned, record_state_name(o->state));
	fprintf(f, "%s\n", summary_run_line(o, line, sizeof(line)));
	fprintf(f, "%s\n", summary_kiln_line(o, line, sizeof(line)));
	fprintf(f, "%s\n", machine_firmware_text(&o->firmware, fw, sizeof(fw)));
	if (s->profile == SETTINGS_ERASE)
		fprintf(f, "profile erase: no burn pass; each disk's end "
			"step and its read-back alone\n");
	else
		fprintf(f, "bs %s, qd %u",
			settings_fmt_size(s->bs, bs, sizeof(bs)), s->qd);
	if (s->profile != SETTINGS_ERASE && settings_passes(s))
		fprintf(f, ", passes %u", s->passes);
	if (s->duration)
		fprintf(f, ", duration %s",
			timing_fmt_hms(s->duration, hms, sizeof(hms)));
	if (s->profile != SETTINGS_ERASE)
		fprintf(f, "\n");
	if (o->n)
		fprintf(f, "%s\n", summary_work_line(o, line, sizeof(line)));
	notes_print(o->notes, o->nnotes, f);
	hidden_lines(o, f);
	for (SIGNAL_EACH(s))
		if ((*s)->summary)
			(*s)->summary(o, f);
	if (o->failure[0])
		fprintf(f, "FAIL: %s\n", o->failure);
	for (SIGNAL_EACH(s))
		if ((*s)->summary_trouble)
			(*s)->summary_trouble(o, f);
	if (o->results_lost)
		fprintf(f, "results: some files of this run could not be "
			"written (see the console)\n");
	if (!o->n)
		fprintf(f, "FAIL: nothing was tested\n");
	for (SIGNAL_EACH(s))
		if ((*s)->summary_machine)
			(*s)->summary_machine(o, f);
	fprintf(f, "\n");
	if (ng == o->n || ng < 0)
		summary_table(o, f, 1);
	else
		group_table(o, g, ng, f);
	for (SIGNAL_EACH(s))
		if ((*s)->summary_tail)
			(*s)->summary_tail(o, f);

	for (i = 0; ng < 0 && i < o->n; i++)
		disk_section(o, &o->disks[i], f);
	for (i = 0; i < ng; i++) {
		if (g[i].n == 1)
			disk_section(o, &o->disks[g[i].idx[0]], f);
		else
			group_section(o, &g[i], f);
	}
	summary_groups_free(g, ng);
	fprintf(f, "\n");
	/* Boot 1 of powercut: its verify is the next boot's, not a command. */
	if (unverified && o->powercut)
		fprintf(f, "written, not verified: the next boot verifies "
			"what the disks kept\n\n");
	else if (unverified)
		fprintf(f, "written, not verified: verify with kiln burn "
			"--mode verify --from %s\n\n", o->out ? o->out :
			"DIR (the folder of this run's result.json)");
	/* Said in words above: a banner of PASS would be a bare PASS. */
	if (unverified && o->verdict == JUDGE_PASS)
		return;
	summary_banner(o->verdict == JUDGE_FAIL ? "FAIL" :
		       o->state == RECORD_INTERRUPTED ? "STOP" :
		       o->verdict == JUDGE_PASS && !strcmp(word, "erased, no "
							   "burn") ? "ERASED" :
		       judge_name(o->verdict), f);
	fprintf(f, "    %s\n\n", machine_firmware_text(&o->firmware, fw,
						       sizeof(fw)));
}

/* 5x5 letters, each cell drawn two characters wide. */
static const struct {
	char c;
	const char *rows[5];
} glyphs[] = {
	{ 'P', { "#### ", "#   #", "#### ", "#    ", "#    " } },
	{ 'A', { " ### ", "#   #", "#####", "#   #", "#   #" } },
	{ 'S', { " ####", "#    ", " ### ", "    #", "#### " } },
	{ 'F', { "#####", "#    ", "#### ", "#    ", "#    " } },
	{ 'I', { "#####", "  #  ", "  #  ", "  #  ", "#####" } },
	{ 'L', { "#    ", "#    ", "#    ", "#    ", "#####" } },
	{ 'W', { "#   #", "#   #", "# # #", "## ##", "#   #" } },
	{ 'R', { "#### ", "#   #", "#### ", "#  # ", "#   #" } },
	{ 'N', { "#   #", "##  #", "# # #", "#  ##", "#   #" } },
	{ 'T', { "#####", "  #  ", "  #  ", "  #  ", "  #  " } },
	{ 'O', { " ### ", "#   #", "#   #", "#   #", " ### " } },
	{ 'E', { "#####", "#    ", "#### ", "#    ", "#####" } },
	{ 'D', { "#### ", "#   #", "#   #", "#   #", "#### " } },
};

#define NGLYPHS (sizeof(glyphs) / sizeof(glyphs[0]))

void summary_banner(const char *word, FILE *f)
{
	int row, col;
	size_t g;
	const char *w;

	for (row = 0; row < 5; row++) {
		fputs("    ", f);
		for (w = word; *w; w++) {
			for (g = 0; g < NGLYPHS && glyphs[g].c != *w; g++)
				;
			for (col = 0; col < 10; col++)
				fputc(g < NGLYPHS ?
				      glyphs[g].rows[row][col / 2] : ' ', f);
			fputs("    ", f);
		}
		fputc('\n', f);
	}
	fputc('\n', f);
	fflush(f);
}

char *summary_string(const struct record *r, size_t *len)
{
	char *text = NULL;
	FILE *mem = open_memstream(&text, len);

	if (!mem)
		return NULL;
	summary_text(r, mem);
	if (fclose(mem)) {
		free(text);
		return NULL;
	}
	return text;
}
