/* SPDX-License-Identifier: MIT */
/*
 * Description: PASS, WARN or FAIL for each target, with reasons a person
 * can act on. Any I/O error, any bad unit, a stall or a vanished device
 * fails a disk: a burn-in exists to find exactly those, and so does a
 * checking mode that read nothing, since it proved nothing. A bad unit that
 * reads back good is a fault of the data path (drive electronics, cable,
 * controller, memory), which a burn-in must not let through either: but
 * whose it is takes every disk's say, so blame.c decides it.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge/blame.h"
#include "judge/dips.h"
#include "judge/figures.h"
#include "judge/judge.h"
#include "sense/smartjson.h"
#include "base/timing.h"
#include "base/unit.h"

/*
 * A second below DIPS_SHARE of its phase's average is a dip, unless most
 * disks dipped then too (dips.h: the machine's, not the disk's); counted
 * once the phase has run this many whole seconds.
 */
#define UNSTABLE_MIN_SECONDS 10

const char *judge_name(int verdict)
{
	switch (verdict) {
	case JUDGE_PASS: return "PASS";
	case JUDGE_WARN: return "WARN";
	case JUDGE_FAIL: return "FAIL";
	}
	return "?";
}

void judge_reason(struct judge *j, int verdict, const char *fmt, ...)
{
	va_list ap;

	if (verdict > j->verdict)
		j->verdict = verdict;
	if (j->nreasons == JUDGE_MAX_REASONS)
		return;
	va_start(ap, fmt);
	vsnprintf(j->reasons[j->nreasons++], sizeof(j->reasons[0]), fmt, ap);
	va_end(ap);
}

/*
 * The first error and bad unit by offset. The lists are in the order
 * requests completed, and at a queue depth above 1 a later request often
 * ends first (12582912 named where the bad sector is at 10485760): of
 * the pass (and phase) the first one came in, the lowest offset.
 */
static const struct engine_error *first_error(const struct engine_snap *s)
{
	const struct engine_error *e = s->nerrors ? &s->errors[0] : NULL;
	unsigned i;

	for (i = 1; i < s->nerrors; i++)
		if (s->errors[i].pass == e->pass &&
		    s->errors[i].phase == e->phase &&
		    s->errors[i].offset < e->offset)
			e = &s->errors[i];
	return e;
}

static void bad_units(const struct engine_snap *et, struct judge *j)
{
	char list[160] = "", how[64] = "";
	unsigned confirmed, moved;
	size_t used = 0;
	int c;

	for (c = UNIT_BITFLIP; c < UNIT_CLASSES; c++) {
		if (!et->bad_by_class[c])
			continue;
		used += (size_t)snprintf(list + used, sizeof(list) - used,
					 "%s%u %s", used ? ", " : "",
					 et->bad_by_class[c],
					 unit_class_name((enum unit_class)c));
		if (used >= sizeof(list))
			break;
	}
	/*
	 * Only what a second read confirmed is the disk's media; the rest
	 * read back good and blame.c places them (this disk, its
	 * controller or the machine), since that takes every disk's say.
	 */
	confirmed = blame_confirmed(et);
	moved = et->c.bad_units - confirmed;
	if (confirmed && moved)
		snprintf(how, sizeof(how), ": %u bad again on a second read "
			 "(the media), %u good", confirmed, moved);
	else if (!confirmed)
		snprintf(how, sizeof(how), ", each good on a second read");
	judge_reason(j, confirmed ? JUDGE_FAIL : JUDGE_PASS,
		     "%u %s (%s), the first at byte %llu%s", et->c.bad_units,
		     unit_plural(et->c.bad_units, "bad unit", "bad units"), list,
		     (unsigned long long)figures_first_bad(et), how);
}

void judge_target(const struct engine_snap *et, const struct monitor_target *mt,
		  struct judge *j)
{
	int state = et->c.state, p;
	unsigned errors = et->c.io_errors;

	memset(j, 0, sizeof(*j));
	switch (state) {
	case STATE_BROKEN:
		judge_reason(j, JUDGE_FAIL, "could not be tested: %s", et->why);
		return;
	case STATE_NOT_STARTED:
		judge_reason(j, JUDGE_FAIL, "%s", et->why[0] ? et->why :
			     "not started");
		return;
	case STATE_STALLED:
		judge_reason(j, JUDGE_FAIL, "stalled: %s", et->why);
		break;
	case STATE_VANISHED:
		judge_reason(j, JUDGE_FAIL, "vanished: %s", et->why);
		break;
	case STATE_STOPPED:
		j->interrupted = 1;
		judge_reason(j, JUDGE_WARN, "stopped before the end: %s",
			     et->why);
		break;
	}
	if (errors) {
		const struct engine_error *e = first_error(et);

		if (e)
			judge_reason(j, JUDGE_FAIL,
				     "%u I/O errors, the first in %s "
				     "at byte %llu (+%llu): %s",
				     errors, engine_phase_name(e->phase),
				     (unsigned long long)e->offset,
				     (unsigned long long)e->length,
				     strerror(e->err));
		else
			judge_reason(j, JUDGE_FAIL, "%u I/O errors", errors);
	}
	if (et->c.bad_units)
		bad_units(et, j);
	if (et->plan.mode == ENGINE_VERIFY && !et->plan.verify_pass &&
	    !et->pass_found)
		judge_reason(
			j, JUDGE_FAIL,
			"no unit of this run and disk at its "
			"start, middle or end: a wrong run id, a different "
			"disk, or never written");

	/*
	 * A checking mode that ended having read nothing checked nothing
	 * (a region of 0 bytes, a record edited by hand): that is no PASS.
	 * A disk still running, or stopped, has its own say.
	 */
	if (state == STATE_DONE && et->plan.mode != ENGINE_WRITE &&
	    et->plan.mode != ENGINE_NONE &&
	    !et->c.bytes_read && j->verdict < JUDGE_FAIL)
		judge_reason(j, JUDGE_FAIL, "nothing was checked: 0 bytes read "
			     "of its %llu-byte region in a %s",
			     (unsigned long long)et->plan.region,
			     et->plan.mode == ENGINE_READ ? "read" :
			     et->plan.mode == ENGINE_VERIFY ? "verify" :
			     "write-verify");

	for (p = PHASE_WRITE; p <= PHASE_READ; p++) {
		double avg = figures_rate(et, p), own;
		size_t used = strlen(j->stability);

		if (p == PHASE_FLUSH || !mt)
			continue;
		if (mt->held[p] && used < sizeof(j->stability)) {
			snprintf(j->stability + used,
				 sizeof(j->stability) - used,
				 "%s%s: %u of its slowest seconds held by the "
				 "host (kiln's worker waited for a CPU), not "
				 "judged",
				 used ? ", " : "", engine_phase_name(p),
				 mt->held[p]);
			used = strlen(j->stability);
		}
		if (mt->seconds[p] < UNSTABLE_MIN_SECONDS || avg <= 0)
			continue;
		own = monitor_own_min(mt, p);
		if (own >= 0 && own < DIPS_SHARE * avg)
			judge_reason(j, JUDGE_WARN, "unstable %s: its slowest "
				     "second ran %.0f MB/s, %.0f%% of its %.0f "
				     "MB/s average", engine_phase_name(p),
				     own, 100 * own / avg, avg);
		else if (used < sizeof(j->stability))
			snprintf(j->stability + used,
				 sizeof(j->stability) - used,
				 "%s%s steady at %.0f MB/s", used ? ", " : "",
				 engine_phase_name(p), avg);
	}
	if (et->guard_stopped && et->guard_err)
		judge_reason(j, JUDGE_PASS, "could not be read at byte %llu "
			     "(%s): not written past it",
			     (unsigned long long)et->guard_at,
			     strerror(et->guard_err));
	else if (et->guard_stopped)
		judge_reason(j, JUDGE_PASS, "holds data from byte %llu: not "
			     "written past it", (unsigned long long)et->guard_at);
	/* No pass was made (profile erase): its end step says the rest. */
	if (et->plan.mode == ENGINE_NONE)
		return;
	if (!j->nreasons || (j->nreasons == 1 && et->guard_stopped))
		judge_reason(j, JUDGE_PASS, JUDGE_CLEAN);
}

static void counter(struct judge *j, const char *what, long long b,
		    long long a, int fail_if_rose)
{
	if (a < 0)
		return;
	if (b >= 0 && a > b)
		judge_reason(j, fail_if_rose ? JUDGE_FAIL : JUDGE_WARN,
		       "SMART %s rose from %lld to %lld during the burn-in",
		       what, b, a);
	else if (a > 0)
		judge_reason(j, JUDGE_WARN,
			     "SMART %s is %lld (from before the run)", what, a);
}

void judge_health(const struct smart_counters *before,
		  const struct smart_counters *after, struct judge *j)
{
	const struct smart_counters *b = before;
	struct smart_counters none;
	char words[160];

	if (!after || !after->have)
		return;
	if (!b || !b->have) {
		smart_counters_none(&none);
		b = &none;
	}
	if (after->passed == 0)
		judge_reason(j, JUDGE_FAIL,
			     "SMART overall health: FAILED (the drive "
			     "predicts its own failure)");
	counter(j, "reallocated sectors", b->realloc, after->realloc, 1);
	counter(j, "pending sectors", b->pending, after->pending, 1);
	counter(j, "offline uncorrectable sectors", b->uncorrectable,
		after->uncorrectable, 1);
	counter(j, "link CRC errors (cable, backplane or connector)",
		b->crc_errors, after->crc_errors, 1);
	counter(j, "media and data integrity errors", b->media_errors,
		after->media_errors, 1);
	counter(j, "grown defects", b->grown_defects, after->grown_defects, 1);
	if (after->critical_warning > 0)
		judge_reason(j, JUDGE_FAIL, "NVMe critical warning 0x%02llx: %s",
			     after->critical_warning,
			     smartjson_critical_text(after->critical_warning,
						     words, sizeof(words)));
}
