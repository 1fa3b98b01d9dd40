/* SPDX-License-Identifier: MIT */
/*
 * Description: a run told two ways: result.json for machines (everything
 * known, versioned) and summary.txt and the console table for people
 * (80 columns, plain text, verdict first).
 *
 * It may be called while the workers run, for a checkpoint: each target's
 * lists are read under the target's lock.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "crc32c.h"
#include "json.h"
#include "outcome.h"
#include "timing.h"

#ifndef KILN_VERSION
#define KILN_VERSION "unknown"
#endif

static void hex64(char *buf, size_t len, uint64_t v)
{
	snprintf(buf, len, "%016llx", (unsigned long long)v);
}

static void json_phase_stats(struct json *j, const struct outcome_target *ot,
			     int phase)
{
	uint64_t bytes, ns;

	engine_phase_totals(ot->et, phase, &bytes, &ns);
	json_begin(j, engine_phase_name(phase));
	json_u64(j, "bytes", bytes);
	json_num(j, "seconds", (double)ns / 1e9);
	json_num(j, "avg_mbps", ns ? (double)bytes / ((double)ns / 1e9) / 1e6 : 0);
	if (ot->mt && ot->mt->seconds[phase]) {
		json_num(j, "min_mbps", ot->mt->min[phase]);
		json_num(j, "max_mbps", ot->mt->max[phase]);
	} else {
		json_null(j, "min_mbps");
		json_null(j, "max_mbps");
	}
	json_u64(j, "whole_seconds", ot->mt ? ot->mt->seconds[phase] : 0);
	json_end(j);
}

static void json_counter(struct json *j, const char *key, long long v)
{
	if (v < 0)
		json_null(j, key);
	else
		json_i64(j, key, v);
}

static void json_health(struct json *j, const char *key,
			const struct health *h)
{
	if (!h || !h->ran) {
		json_null(j, key);
		return;
	}
	json_begin(j, key);
	if (h->passed < 0)
		json_null(j, "passed");
	else
		json_bool(j, "passed", h->passed);
	json_counter(j, "reallocated_sectors", h->realloc);
	json_counter(j, "pending_sectors", h->pending);
	json_counter(j, "offline_uncorrectable", h->uncorrectable);
	json_counter(j, "crc_errors", h->crc_errors);
	json_counter(j, "media_errors", h->media_errors);
	json_counter(j, "critical_warning", h->critical_warning);
	json_counter(j, "grown_defects", h->grown_defects);
	json_end(j);
}

static void json_bad(struct json *j, const struct engine_bad *b)
{
	const struct unit_verdict *v = &b->v;
	char h[20];
	unsigned i, nbits;

	json_begin(j, NULL);
	json_u64(j, "offset", b->offset);
	json_str(j, "class", unit_class_name(v->class));
	json_u64(j, "pass", b->pass);
	json_str(j, "reread", engine_retry_name(b->retry));
	json_u64(j, "bits_differing", v->nbits);
	nbits = v->nbits < UNIT_MAX_BITS ? v->nbits : UNIT_MAX_BITS;
	json_array(j, "bit_positions");
	for (i = 0; i < nbits && v->class == UNIT_BITFLIP; i++)
		json_u64(j, NULL, v->bits[i]);
	json_array_end(j);
	json_u64(j, "sectors_bad_mask", v->sectors_bad);
	if (v->found_valid) {
		json_begin(j, "found");
		hex64(h, sizeof(h), v->found.run_id);
		json_str(j, "run_id", h);
		hex64(h, sizeof(h), v->found.ident);
		json_str(j, "identity_hash", h);
		json_u64(j, "offset", v->found.offset);
		json_u64(j, "pass", v->found.pass);
		json_end(j);
	}
	json_end(j);
}

static void json_target(struct json *j,
			const struct outcome_target *ot)
{
	const struct target *t = ot->t;
	struct engine_target *et = ot->et;
	char h[20];
	unsigned i;
	int c;

	json_begin(j, NULL);
	json_str(j, "path", t->path);
	json_str(j, "name", t->id.name);
	json_str(j, "kind", t->kind == TARGET_BLOCK ? "block" : "file");
	json_str(j, "identity", t->id.identity);
	hex64(h, sizeof(h), t->ident);
	json_str(j, "identity_hash", h);
	json_str(j, "model", t->id.model);
	json_str(j, "serial", t->id.serial);
	json_str(j, "wwid", t->id.wwid);
	json_u64(j, "size", t->size);
	json_u64(j, "logical_block_size", t->lbs);
	json_u64(j, "physical_block_size", t->pbs);
	if (t->id.rotational < 0)
		json_null(j, "rotational");
	else
		json_bool(j, "rotational", t->id.rotational);
	json_bool(j, "direct_io", t->direct);
	json_str(j, "class", safety_class_name(t->safety.class));
	json_str(j, "class_reasons", t->safety.why);
	json_str(j, "safety", ot->safety);
	json_array(j, "region");
	for (c = 0; c < et->next; c++) {
		json_begin(j, NULL);
		json_u64(j, "offset", et->ext[c].offset);
		json_u64(j, "length", et->ext[c].length);
		json_end(j);
	}
	json_array_end(j);
	json_u64(j, "write_passes_allowed", et->write_passes);

	pthread_mutex_lock(&et->lock);
	json_str(j, "state", engine_state_name(atomic_load(&et->state)));
	json_str(j, "stopped_because", et->why[0] ? et->why : NULL);
	json_u64(j, "bytes_written", atomic_load(&et->bytes_written));
	json_u64(j, "bytes_read", atomic_load(&et->bytes_read));
	json_u64(j, "region_writes", et->region_writes);
	json_str(j, "mode", engine_mode_name(et->mode));
	if (et->mode == ENGINE_VERIFY || et->mode == ENGINE_WRITE_VERIFY)
		json_u64(j, "verified_pass", et->verified_pass);
	if (et->mode == ENGINE_VERIFY && !et->verify_pass)
		json_bool(j, "pass_found_on_disk", et->pass_found);
	json_begin(j, "phases");
	json_phase_stats(j, ot, PHASE_WRITE);
	json_phase_stats(j, ot, PHASE_FLUSH);
	json_phase_stats(j, ot, PHASE_VERIFY);
	json_phase_stats(j, ot, PHASE_READ);
	json_end(j);
	json_array(j, "passes");
	for (i = 0; i < et->npasses; i++) {
		const struct engine_pass *p = &et->passes[i];

		json_begin(j, NULL);
		json_u64(j, "pass", p->pass);
		json_str(j, "phase", engine_phase_name(p->phase));
		json_u64(j, "bytes", p->bytes);
		json_num(j, "seconds", (double)p->ns / 1e9);
		json_bool(j, "complete", p->complete);
		json_end(j);
	}
	json_array_end(j);

	json_begin(j, "io_errors");
	json_u64(j, "count", atomic_load(&et->io_errors));
	json_array(j, "first");
	for (i = 0; i < et->nerrors; i++) {
		const struct engine_error *e = &et->errors[i];

		json_begin(j, NULL);
		json_str(j, "phase", engine_phase_name(e->phase));
		json_u64(j, "pass", e->pass);
		json_u64(j, "offset", e->offset);
		json_u64(j, "length", e->length);
		json_u64(j, "requests", e->count);
		json_i64(j, "errno", e->err);
		json_str(j, "error", strerror(e->err));
		json_end(j);
	}
	json_array_end(j);
	json_end(j);

	json_begin(j, "bad_units");
	json_u64(j, "count", atomic_load(&et->bad_units));
	json_u64(j, "good_on_reread", et->bad_transient);
	json_begin(j, "by_class");
	for (c = UNIT_BITFLIP; c < UNIT_CLASSES; c++)
		json_u64(j, unit_class_name((enum unit_class)c),
			 et->bad_by_class[c]);
	json_end(j);
	json_array(j, "first");
	for (i = 0; i < et->nbad; i++)
		json_bad(j, &et->bad[i]);
	json_array_end(j);
	json_end(j);
	pthread_mutex_unlock(&et->lock);

	json_begin(j, "smart");
	json_health(j, "before", ot->before);
	json_health(j, "after", ot->after);
	json_end(j);
	json_str(j, "verdict", judge_name(ot->j.verdict));
	json_array(j, "reasons");
	for (c = 0; c < ot->j.nreasons; c++)
		json_str(j, NULL, ot->j.reasons[c]);
	json_array_end(j);
	json_end(j);
}

char *outcome_json(const struct outcome *o, size_t *len)
{
	const struct settings *s = o->s;
	struct utsname u;
	struct json j;
	char buf[64];
	int i;

	json_init(&j);
	json_begin(&j, NULL);
	json_str(&j, "schema", "kiln-result");
	json_u64(&j, "schema_version", OUTCOME_SCHEMA);
	json_str(&j, "kiln_version", KILN_VERSION);
	if (uname(&u) == 0) {
		json_str(&j, "kernel", u.release);
		json_str(&j, "kernel_build", u.version);
		json_str(&j, "host", u.nodename);
	}
	json_str(&j, "crc32c", crc32c_name());
	json_begin(&j, "firmware");
	json_bool(&j, "efi", o->firmware.efi);
	if (o->firmware.secure_boot < 0)
		json_null(&j, "secure_boot");
	else
		json_bool(&j, "secure_boot", o->firmware.secure_boot);
	json_str(&j, "lockdown", o->firmware.lockdown[0] ?
		 o->firmware.lockdown : NULL);
	json_end(&j);
	if (o->net) {
		json_begin(&j, "network");
		json_str(&j, "iperf3_server", o->net->server);
		json_u64(&j, "seconds", o->net->seconds);
		if (o->net->sent_mbps >= 0)
			json_num(&j, "sent_mbps", o->net->sent_mbps);
		else
			json_null(&j, "sent_mbps");
		if (o->net->received_mbps >= 0)
			json_num(&j, "received_mbps", o->net->received_mbps);
		else
			json_null(&j, "received_mbps");
		json_str(&j, "error", o->net->error[0] ? o->net->error : NULL);
		json_end(&j);
	}
	json_str(&j, "command", o->command);
	json_array(&j, "argv");
	for (i = 0; i < o->argc; i++)
		json_str(&j, NULL, o->argv[i]);
	json_array_end(&j);
	hex64(buf, sizeof(buf), o->run_id);
	json_str(&j, "run_id", buf);
	json_str(&j, "started", timing_fmt_utc(o->started, 0, buf, sizeof(buf)));
	json_str(&j, "ended", o->ended ?
		 timing_fmt_utc(o->ended, 0, buf, sizeof(buf)) : NULL);
	json_bool(&j, "clock_trusted", timing_clock_trusted(o->started));
	json_num(&j, "elapsed_seconds", (double)o->elapsed_ns / 1e9);
	json_str(&j, "state", o->state);

	json_begin(&j, "settings");
	json_str(&j, "mode", settings_mode_name(s->mode));
	json_u64(&j, "bs", s->bs);
	json_u64(&j, "qd", s->qd);
	json_u64(&j, "passes", s->passes);
	json_u64(&j, "duration_seconds", s->duration);
	json_u64(&j, "offset", s->offset);
	json_u64(&j, "span", s->span);
	json_bool(&j, "quick", s->quick);
	if (s->max_writes_set)
		json_u64(&j, "max_writes", s->max_writes);
	else
		json_str(&j, "max_writes", "default");
	json_u64(&j, "deadline_seconds", s->deadline);
	if (s->destroy_list)
		json_str(&j, "destroy_data", s->destroy_list);
	else
		json_bool(&j, "destroy_data", s->destroy_data);
	json_end(&j);

	json_array(&j, "notes");
	for (i = 0; i < o->nnotes; i++)
		json_str(&j, NULL, o->notes[i]);
	json_array_end(&j);

	json_array(&j, "targets");
	for (i = 0; i < o->n; i++)
		json_target(&j, &o->ot[i]);
	json_array_end(&j);

	json_str(&j, "failure", o->failure);
	json_str(&j, "verdict", o->state && !strcmp(o->state, "running") ?
		 NULL : judge_name(o->verdict));
	json_i64(&j, "exit_code", o->exit_code);
	json_end(&j);
	return json_take(&j, len);
}

static void rate_cols(FILE *f, const struct outcome_target *ot, int phase)
{
	double avg = judge_phase_rate(ot->et, phase);
	const struct monitor_target *mt = ot->mt;

	if (avg <= 0) {
		fprintf(f, " %5s %5s %5s", "-", "-", "-");
		return;
	}
	fprintf(f, " %5.0f", avg);
	if (mt && mt->seconds[phase])
		fprintf(f, " %5.0f %5.0f", mt->min[phase], mt->max[phase]);
	else
		fprintf(f, " %5s %5s", "-", "-");
}

void outcome_table(const struct outcome *o, FILE *f, int final)
{
	char size[32];
	int i;

	fprintf(f, "%-10s %9s %18s%18s %4s %5s %s\n", "target", "size",
		"write MB/s", "verify/read MB/s", "I/O", "bad",
		final ? "verdict" : "state");
	fprintf(f, "%-10s %9s %6s%6s%6s%6s%6s%6s %4s %5s\n", "", "",
		"avg", "min", "max", "avg", "min", "max", "err", "units");
	for (i = 0; i < o->n; i++) {
		const struct outcome_target *ot = &o->ot[i];
		struct engine_target *et = ot->et;

		pthread_mutex_lock(&et->lock);
		fprintf(f, "%-10.10s %9s ", ot->t->id.name,
			settings_fmt_size(ot->t->size, size, sizeof(size)));
		rate_cols(f, ot, PHASE_WRITE);
		rate_cols(f, ot, et->mode == ENGINE_READ ? PHASE_READ :
			  PHASE_VERIFY);
		fprintf(f, " %4u %5u %s\n", atomic_load(&et->io_errors),
			atomic_load(&et->bad_units),
			final ? judge_name(ot->j.verdict) :
			engine_state_name(atomic_load(&et->state)));
		pthread_mutex_unlock(&et->lock);
	}
}

/* One bad unit, or a run of n like ones (zeroed, foreign) that follow it. */
static void bad_detail(FILE *f, const struct engine_bad *b, unsigned n)
{
	const struct unit_verdict *v = &b->v;
	unsigned i, nb = v->nbits < UNIT_MAX_BITS ? v->nbits : UNIT_MAX_BITS;

	if (n > 1) {
		fprintf(f, "    %s: %u units from byte %llu to %llu (pass %u); "
			"%s\n", unit_class_name(v->class), n,
			(unsigned long long)b->offset,
			(unsigned long long)(b->offset + (uint64_t)n * UNIT_SIZE),
			b->pass, engine_retry_name(b->retry));
		return;
	}
	fprintf(f, "    %s at byte %llu (pass %u)", unit_class_name(v->class),
		(unsigned long long)b->offset, b->pass);
	switch (v->class) {
	case UNIT_BITFLIP:
		fprintf(f, ": %u bit%s, at", v->nbits, v->nbits == 1 ? "" : "s");
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
static unsigned run_length(const struct engine_target *et, unsigned i)
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

void outcome_summary(const struct outcome *o, FILE *f)
{
	const struct settings *s = o->s;
	int i, r, failed = 0, warned = 0;
	char a[40], b[40], hms[32], bs[32], fw[160];
	struct utsname u;

	for (i = 0; i < o->n; i++) {
		failed += o->ot[i].j.verdict == JUDGE_FAIL;
		warned += o->ot[i].j.verdict == JUDGE_WARN;
	}
	fprintf(f, "kiln %s: %s, %d target%s, %d failed, %d warned (%s)\n",
		o->command, judge_name(o->verdict), o->n, o->n == 1 ? "" : "s",
		failed, warned, o->state);
	fprintf(f, "run %016llx  %s .. %s  (%s)%s\n",
		(unsigned long long)o->run_id,
		timing_fmt_utc(o->started, 0, a, sizeof(a)),
		timing_fmt_utc(o->ended ? o->ended : o->started, 0, b, sizeof(b)),
		timing_fmt_hms(o->elapsed_ns / 1000000000ull, hms, sizeof(hms)),
		timing_clock_trusted(o->started) ? "" : "  clock not set");
	fprintf(f, "kiln %s, Linux %s, crc32c %s\n", KILN_VERSION,
		uname(&u) == 0 ? u.release : "?", crc32c_name());
	fprintf(f, "%s\n", machine_firmware_text(&o->firmware, fw, sizeof(fw)));
	fprintf(f, "bs %s, qd %u", settings_fmt_size(s->bs, bs, sizeof(bs)),
		s->qd);
	if (s->passes)
		fprintf(f, ", passes %u", s->passes);
	if (s->duration)
		fprintf(f, ", duration %s",
			timing_fmt_hms(s->duration, hms, sizeof(hms)));
	fprintf(f, "\n");
	for (i = 0; i < o->nnotes; i++)
		fprintf(f, "note: %s\n", o->notes[i]);
	if (o->net && o->net->done)
		outcome_network(o, f);
	if (o->failure)
		fprintf(f, "FAIL: %s\n", o->failure);
	if (!o->n)
		fprintf(f, "FAIL: nothing was tested\n");
	fprintf(f, "\n");
	outcome_table(o, f, 1);

	for (i = 0; i < o->n; i++) {
		const struct outcome_target *ot = &o->ot[i];
		struct engine_target *et = ot->et;
		unsigned k, lines;

		fprintf(f, "\n%s (%s): %s\n", ot->t->id.name, ot->t->path,
			judge_name(ot->j.verdict));
		fprintf(f, "  identity %s\n", ot->t->id.identity);
		for (r = 0; r < ot->j.nreasons; r++)
			fprintf(f, "  - %s\n", ot->j.reasons[r]);
		pthread_mutex_lock(&et->lock);
		for (k = 0; k < et->nerrors && k < 10; k++) {
			const struct engine_error *e = &et->errors[k];

			fprintf(f, "    %s error%s at byte %llu (+%llu), pass %u: "
				"%s\n", engine_phase_name(e->phase),
				e->count > 1 ? "s" : "",
				(unsigned long long)e->offset,
				(unsigned long long)e->length, e->pass,
				strerror(e->err));
		}
		for (k = 0, lines = 0; k < et->nbad && lines < 10; lines++) {
			unsigned n = run_length(et, k);

			bad_detail(f, &et->bad[k], n);
			k += n;
		}
		pthread_mutex_unlock(&et->lock);
	}
	fprintf(f, "\n");
	outcome_banner(o->verdict == JUDGE_FAIL ? "FAIL" :
		       !strcmp(o->state, "interrupted") ? "STOP" :
		       judge_name(o->verdict), f);
	fprintf(f, "    %s\n\n", machine_firmware_text(&o->firmware, fw,
						       sizeof(fw)));
}

void outcome_network(const struct outcome *o, FILE *f)
{
	const struct netcheck *n = o->net;

	if (n->received_mbps >= 0)
		fprintf(f, "network: %.0f Mbit/s received by iperf3 server %s "
			"(%.0f sent), %u s during the burn\n", n->received_mbps,
			n->server, n->sent_mbps, n->seconds);
	else
		fprintf(f, "network: iperf3 to %s failed: %s\n", n->server,
			n->error);
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
};

void outcome_banner(const char *word, FILE *f)
{
	int row, k, col;
	size_t g;
	const char *w;

	for (row = 0; row < 5; row++) {
		fputs("    ", f);
		for (w = word; *w; w++) {
			for (g = 0; g < sizeof(glyphs) / sizeof(glyphs[0]); g++)
				if (glyphs[g].c == *w)
					break;
			for (col = 0; col < 5; col++)
				for (k = 0; k < 2; k++)
					fputc(g < sizeof(glyphs) / sizeof(glyphs[0]) ?
					      glyphs[g].rows[row][col] : ' ', f);
			fputs("    ", f);
		}
		fputc('\n', f);
	}
	fputc('\n', f);
	fflush(f);
}
