/* SPDX-License-Identifier: MIT */
/*
 * Description: what the console makes of the monitor's samples (see
 * monitor.h): the per-disk table's rows, the time left, and the status
 * line, which gives up its least needed parts first to fit 80 columns.
 * A rate is of the seconds a target was busy, never of time it sat done.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge/figures.h"
#include "judge/monitor.h"
#include "base/timing.h"
#include "settings/settings.h"

/*
 * The seconds of [from, now] target i was busy: up to when it left
 * running. A rate over an interval is of those (figures.h: bytes over
 * the time the disk was busy with them), never of time it sat done.
 */
static double busy_secs(const struct monitor *m, int i, uint64_t from,
			uint64_t now)
{
	uint64_t end = m->mt[i].done_ns && m->mt[i].done_ns < now ?
		       m->mt[i].done_ns : now;

	return end > from ? timing_secs(end - from) : 0;
}

/* A target's share done and seconds left; -1 each when unknown. */
static void progress(const struct monitor *m, int i, uint64_t now,
		     double *done, int64_t *eta)
{
	const struct engine_counters *c = &m->c[i];
	const struct monitor_target *mt = &m->mt[i];
	uint64_t b = c->bytes_written + c->bytes_read;
	double secs = timing_secs(now - m->t0);

	*done = -1;
	*eta = -1;
	if (mt->planned && b && secs >= 1) {
		double left = mt->planned > b ? (double)(mt->planned - b) : 0;

		*done = (double)b / (double)mt->planned;
		*eta = (int64_t)(left / ((double)b / secs) + 0.5);
	}
	/* The duration ends a run first when it is further along by it. */
	if (m->duration_ns && secs / timing_secs(m->duration_ns) > *done) {
		double rest = timing_secs(m->duration_ns) - secs;

		*done = secs / timing_secs(m->duration_ns);
		*eta = rest > 0 ? (int64_t)(rest + 0.5) : 0;
	}
	if (c->state == STATE_DONE)
		*done = 1;
	if (*done > 1)
		*done = 1;
}

void monitor_table_rows(struct monitor *m, uint64_t now,
			struct disktable_row *rows)
{
	int i;

	for (i = 0; i < m->n; i++) {
		const struct engine_counters *c = &m->c[i];
		struct monitor_target *mt = &m->mt[i];
		uint64_t b = c->bytes_written + c->bytes_read;
		double secs = busy_secs(m, i, m->table_ns, now);

		rows[i].name = m->names[i];
		rows[i].group = -1;
		rows[i].mbps = secs > 0 ?
			       (double)(b - mt->table_bytes) / secs / 1e6 : 0;
		rows[i].write = secs > 0 ? (double)(c->bytes_written -
				mt->table_w) / secs / 1e6 : 0;
		rows[i].read = secs > 0 ? (double)(c->bytes_read -
			       mt->table_r) / secs / 1e6 : 0;
		mt->table_bytes = b;
		mt->table_w = c->bytes_written;
		mt->table_r = c->bytes_read;
		progress(m, i, now, &rows[i].done, &rows[i].eta);
		rows[i].state = c->state == STATE_RUNNING ? NULL :
				engine_state_name(c->state);
	}
	m->table_ns = now;
}

int64_t monitor_eta(const struct monitor *m, uint64_t now)
{
	double worst = 0, secs = timing_secs(now - m->t0);
	int i, known = 0;

	for (i = 0; i < m->n; i++) {
		const struct engine_counters *c = &m->c[i];
		const struct monitor_target *mt = &m->mt[i];
		uint64_t done = c->bytes_written + c->bytes_read;
		double left;

		if (c->state != STATE_RUNNING)
			continue;
		if (!mt->planned || !done || secs < 1)
			continue;
		left = mt->planned > done ? (double)(mt->planned - done) : 0;
		if (left / ((double)done / secs) > worst)
			worst = left / ((double)done / secs);
		known = 1;
	}
	if (m->duration_ns) {
		double rest = timing_secs(m->t0 + m->duration_ns) -
			      timing_secs(now);

		if (rest < 0)
			rest = 0;
		if (!known || rest < worst)
			worst = rest;
		known = 1;
	}
	return known ? (int64_t)(worst + 0.5) : -1;
}

/*
 * "pass 93", "pass 90-93" where targets are in different passes, and
 * what max-writes did: the passes past a target's writes only verify
 * (into note while they run, its own part of the line). Of the running
 * targets, or of all when none runs.
 */
static void status_pass(const struct monitor *m, int running, char *buf,
			size_t len, char *note, size_t nlen)
{
	unsigned lo = 0, hi = 0, cap = 0;
	int64_t made_lo = -1, made_hi = -1;
	int capped = 0;
	int i;

	buf[0] = note[0] = 0;
	/* Once over, the passes each made, as summary.txt says them. */
	for (i = 0; !running && i < m->n; i++) {
		int64_t v = m->mt[i].made;

		if (v < 0)
			continue;
		if (made_lo < 0 || v < made_lo)
			made_lo = v;
		if (v > made_hi)
			made_hi = v;
	}
	for (i = 0; i < m->n; i++) {
		const struct engine_counters *c = &m->c[i];
		unsigned wp = m->mt[i].write_passes;

		if (!c->run_pass || (running && c->state != STATE_RUNNING))
			continue;
		if (!lo || c->run_pass < lo)
			lo = c->run_pass;
		if (c->run_pass > hi)
			hi = c->run_pass;
		if (wp && c->run_pass > wp && (!capped || wp < cap)) {
			capped++;
			cap = wp;
		}
	}
	if (made_hi >= 0) {
		snprintf(buf, len, "  ");
		figures_passes_text((uint64_t)made_lo, (uint64_t)made_hi,
				    buf + 2, len - 2);
	} else if (!hi) {
		return;
	} else if (!running) {
		snprintf(buf, len, "  %u pass%s", hi, hi == 1 ? "" : "es");
	} else if (lo == hi) {
		snprintf(buf, len, " pass %u", hi);
	} else {
		snprintf(buf, len, " pass %u-%u", lo, hi);
	}
	if (!capped)
		return;
	if (running)
		/* Short: the note at the start said max-writes and why. */
		snprintf(note, nlen, " (verify only)");
	else
		snprintf(note, nlen, " (%u written: max-writes)", cap);
}

/*
 * "  written 104 GiB read 98.5 GiB": every target's bytes so far, a side
 * with none left out (a verify writes nothing).
 */
static void status_bytes(const struct monitor *m, char *buf, size_t len)
{
	uint64_t w = 0, r = 0;
	char ws[32], rs[32];
	int i;

	for (i = 0; i < m->n; i++) {
		w += m->c[i].bytes_written;
		r += m->c[i].bytes_read;
	}
	settings_fmt_size(w, ws, sizeof(ws));
	settings_fmt_size(r, rs, sizeof(rs));
	if (w && r)
		snprintf(buf, len, "  written %s read %s", ws, rs);
	else if (w || r)
		snprintf(buf, len, "  %s %s", w ? "written" : "read",
			 w ? ws : rs);
	else
		buf[0] = 0;
}

/*
 * A status line's parts in the order they are said; the highest rank is
 * left out first when the line is too wide, so the rates, then errors
 * and the kernel's error lines (once there are some), then the ETA are
 * there on any console.
 */
enum { PART_NOTE, PART_PHASE, PART_RATES, PART_SLOWEST, PART_DONE,
       PART_ERRORS, PART_KERNEL, PART_ETA, PARTS };
static const int part_rank[PARTS] = {
	[PART_RATES] = 0, [PART_ERRORS] = 1, [PART_KERNEL] = 2,
	[PART_ETA] = 3, [PART_NOTE] = 4, [PART_SLOWEST] = 5,
	[PART_DONE] = 6, [PART_PHASE] = 7,
};
/* No errors is little news: each error is said at once anyway. */
#define RANK_NO_ERRORS 8

static size_t parts_width(char part[PARTS][96], size_t head)
{
	size_t w = head;
	int p;

	for (p = 0; p < PARTS; p++)
		w += strlen(part[p]);
	return w;
}

/*
 * The slowest running target, its label cut to what the line has room
 * for (never below 3 characters: a stump names nothing): "" when none
 * fits. A label cut keeps its end after a "~": labels of one kind differ
 * there (disk-by-name-7, sdab).
 */
static void status_slowest(const struct monitor *m, int slowest,
			   size_t room, char *buf, size_t len)
{
	const char *label = m->names[slowest];
	size_t fixed, name = strlen(label), keep = name;
	char rate[32];

	snprintf(rate, sizeof(rate), " %.0f MB/s", m->mt[slowest].rate);
	fixed = strlen("  slowest ") + strlen(rate);
	buf[0] = 0;
	if (room < fixed + 3)
		return;
	/* 16 characters say which disk. */
	if (keep > 16)
		keep = 16;
	if (keep > room - fixed)
		keep = room - fixed;
	if (keep == name)
		snprintf(buf, len, "  slowest %s%s", label, rate);
	else
		snprintf(buf, len, "  slowest ~%s%s",
			 label + name - (keep - 1), rate);
}

void monitor_status(struct monitor *m, uint64_t now, int stopped, char *line,
		    size_t len)
{
	double busy, wr = 0, rd = 0;
	int i, p, running = 0, slowest = -1, count[PHASES] = { 0 }, phase = 0;
	unsigned errors = 0;
	char hms[32], eta[32], pass[96], note[64], bytes[80];
	char part[PARTS][96];
	size_t head;
	int64_t left;

	for (i = 0; i < m->n; i++) {
		const struct engine_counters *c = &m->c[i];
		struct monitor_target *mt = &m->mt[i];
		uint64_t b = c->bytes_written + c->bytes_read;

		busy = busy_secs(m, i, m->status_ns, now);
		mt->rate = busy > 0 ?
			   (double)(b - mt->status_bytes) / busy / 1e6 : 0;
		mt->rate_w = busy > 0 ? (double)(c->bytes_written -
			     mt->status_w) / busy / 1e6 : 0;
		mt->rate_r = busy > 0 ? (double)(c->bytes_read -
			     mt->status_r) / busy / 1e6 : 0;
		mt->status_bytes = b;
		mt->status_w = c->bytes_written;
		mt->status_r = c->bytes_read;
		wr += mt->rate_w;
		rd += mt->rate_r;
		errors += c->io_errors + c->bad_units;
		if (c->state != STATE_RUNNING)
			continue;
		running++;
		count[c->phase]++;
		if (slowest < 0 || mt->rate < m->mt[slowest].rate)
			slowest = i;
	}
	m->status_ns = now;
	for (p = 0; p < PHASES; p++)
		if (count[p] > count[phase])
			phase = p;

	timing_fmt_hms((now - m->clock0) / TIMING_SEC, hms, sizeof(hms));
	left = monitor_eta(m, now);
	if (left >= 0)
		timing_fmt_hms((uint64_t)left, eta, sizeof(eta));
	else
		snprintf(eta, sizeof(eta), "?");
	status_pass(m, running, pass, sizeof(pass), note, sizeof(note));
	/*
	 * The last line has no rate: one of its last interval, mostly after
	 * the disks ended, is no figure of the run (summary.txt has those).
	 */
	if (!running) {
		status_bytes(m, bytes, sizeof(bytes));
		char kernel[32] = "", errs[32];
		int drop;

		if (m->kernel)
			snprintf(kernel, sizeof(kernel), "  kernel %u",
				 m->kernel);
		snprintf(errs, sizeof(errs), "  errors %u", errors);
		/*
		 * Within the width too: errors 0 goes first, then the note
		 * (said at the start); the passes and bytes stay, as every
		 * other output says them.
		 */
		for (drop = 0; drop < 3; drop++) {
			if (drop == 1 && !errors)
				errs[0] = 0;
			if (drop == 2)
				note[0] = 0;
			snprintf(line, len, "%s %s %d/%d%s%s%s%s%s", hms,
				 stopped ? "stopped" : "done", m->n, m->n,
				 pass, note, bytes, errs, kernel);
			if (strlen(line) <= MONITOR_WIDTH)
				break;
		}
		return;
	}
	snprintf(part[PART_PHASE], sizeof(part[0]), " %s,",
		 engine_phase_name(phase));
	/* Both directions always, and their unit, as dstat's columns. */
	snprintf(part[PART_RATES], sizeof(part[0]),
		 " write %.0f read %.0f MB/s", wr, rd);
	part[PART_SLOWEST][0] = 0;
	if (running > 1)
		status_slowest(m, slowest, MONITOR_WIDTH, part[PART_SLOWEST],
			       sizeof(part[0]));
	snprintf(part[PART_DONE], sizeof(part[0]), "  done %d/%d",
		 m->n - running, m->n);
	snprintf(part[PART_ERRORS], sizeof(part[0]), "  errors %u", errors);
	snprintf(part[PART_ETA], sizeof(part[0]), "  eta %s", eta);
	/* The kernel's console is kept quiet: its error lines counted here. */
	part[PART_KERNEL][0] = 0;
	if (m->kernel)
		snprintf(part[PART_KERNEL], sizeof(part[0]), "  kernel %u",
			 m->kernel);
	snprintf(part[PART_NOTE], sizeof(part[0]), "%s", note);
	head = strlen(hms) + strlen(pass);
	/*
	 * Left out from the least needed until the rest fits; the slowest's
	 * label is cut to the room left before it goes. The rates always
	 * stay: they are what the line is for.
	 */
	for (i = RANK_NO_ERRORS; i > 0 &&
	     parts_width(part, head) > MONITOR_WIDTH; i--)
		for (p = 0; p < PARTS; p++) {
			int rank = p == PART_ERRORS && !errors ?
				   RANK_NO_ERRORS : part_rank[p];
			size_t rest;

			if (rank != i)
				continue;
			rest = parts_width(part, head) - strlen(part[p]);
			if (p == PART_SLOWEST && part[p][0] &&
			    rest < MONITOR_WIDTH)
				status_slowest(m, slowest,
					       MONITOR_WIDTH - rest, part[p],
					       sizeof(part[0]));
			else
				part[p][0] = 0;
		}
	snprintf(line, len, "%s%s", hms, pass);
	for (p = 0; p < PARTS; p++)
		snprintf(line + strlen(line), len - strlen(line), "%s",
			 part[p]);
}
