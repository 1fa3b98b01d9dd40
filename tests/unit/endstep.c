/* SPDX-License-Identifier: MIT */
/*
 * Description: the end step's judgement of a read-back: this run's units
 * where zeros were written or promised FAIL, a discard that promised
 * nothing is said whatever it left; a drive's own sanitize FAILs on this
 * run's units always, on other data only where zeros were promised, and
 * its fallback to zeros is judged as zeros and said so; and the
 * read-back's samples: the
 * first and last chunk, the share asked evenly between, in order; and the
 * watch's stall: an answer that came after the watch read the clock is
 * an answer, not a stall.
 */
#include <stdint.h>
#include <string.h>

#include "../lib/tap.h"
#include "engine/endstep.h"
#include "engine/sancmd.h"
#include "settings/settings.h"

static void read_back(struct endstep *e, int method, int promise,
		      uint64_t ours, uint64_t other)
{
	memset(e, 0, sizeof(*e));
	e->method = method;
	e->san_method = SANCMD_FORMAT_ERASE;
	strcpy(e->san_words, "Format NVM, user data erase (SES 1)");
	e->promise = promise;
	e->verify_bytes = 3 << 20;
	e->units_ours = ours;
	e->first_ours = ours ? 4096 : UINT64_MAX;
	e->other_bytes = other;
	e->first_other = other ? 8192 : UINT64_MAX;
	e->zero_bytes = e->verify_bytes - ours * 4096 - other;
	endstep_judge(e);
}

int main(int argc, char **argv)
{
	struct endstep e;
	uint64_t n, i, prev, chunk = 1 << 20, size = 1ull << 40;
	int ordered = 1;

	(void)argc;
	(void)argv;
	tap_plan(24);
	read_back(&e, SETTINGS_END_DISCARD, ENDSTEP_PROMISE_ZEROS, 2, 0);
	tap_ok(e.state == ENDSTEP_FAILED && strstr(e.why, "2 units of this run"),
	       "zeros promised, this run's units found: FAILED (%s)", e.why);
	read_back(&e, SETTINGS_END_DISCARD, ENDSTEP_PROMISE_ZEROS, 0, 0);
	tap_ok(e.state == ENDSTEP_DONE, "zeros promised and read: DONE (%s)",
	       e.why);
	read_back(&e, SETTINGS_END_DISCARD, ENDSTEP_PROMISE_NONE, 5, 4096);
	tap_ok(e.state == ENDSTEP_SAID &&
	       strstr(e.why, "contents not promised") &&
	       strstr(e.why, "5 units of this run"),
	       "nothing promised, units found: only said (%s)", e.why);
	read_back(&e, SETTINGS_END_ZERO, ENDSTEP_PROMISE_NONE, 0, 4096);
	tap_ok(e.state == ENDSTEP_FAILED && strstr(e.why, "other data"),
	       "zeroed, other data read back: FAILED (%s)", e.why);
	read_back(&e, SETTINGS_END_ZERO, ENDSTEP_PROMISE_NONE, 0, 0);
	tap_ok(e.state == ENDSTEP_DONE, "zeroed and read as zeros: DONE");
	read_back(&e, SETTINGS_END_SANITIZE, ENDSTEP_PROMISE_NONE, 1, 0);
	tap_ok(e.state == ENDSTEP_FAILED &&
	       !strncmp(e.why, "Format NVM, user data erase (SES 1): ", 37),
	       "sanitized, promising nothing, a unit of this run: FAILED (%s)",
	       e.why);
	read_back(&e, SETTINGS_END_SANITIZE, ENDSTEP_PROMISE_NONE, 0, 4096);
	tap_ok(e.state == ENDSTEP_DONE && strstr(e.why, "does not promise"),
	       "sanitized, promising nothing, other bytes: DONE, said (%s)",
	       e.why);
	read_back(&e, SETTINGS_END_SANITIZE, ENDSTEP_PROMISE_ZEROS, 0, 4096);
	tap_ok(e.state == ENDSTEP_FAILED,
	       "sanitized, zeros promised, other bytes: FAILED (%s)", e.why);
	read_back(&e, SETTINGS_END_SANITIZE, ENDSTEP_PROMISE_NONE, 0, 0);
	e.san_method = SANCMD_ZERO;
	endstep_judge(&e);
	tap_ok(e.state == ENDSTEP_DONE &&
	       strstr(e.why, "zeroed instead (sanitize-fallback=zero)"),
	       "the fallback's zeros read back: DONE, said (%s)", e.why);

	read_back(&e, SETTINGS_END_ZERO, ENDSTEP_PROMISE_NONE, 0, 0);
	tap_ok(!strcmp(endstep_disposition(&e), "sanitized"),
	       "zeroed and proven: sanitized (%s)", endstep_disposition(&e));
	endstep_unreached(&e, "nsid 2 (1 GiB) allocated, not attached");
	tap_ok(!strcmp(endstep_disposition(&e), "partly sanitized; not "
		       "reached: nsid 2 (1 GiB) allocated, not attached"),
	       "zeroed, proven, and a namespace hidden: partly, with what "
	       "was not reached (%s)", endstep_disposition(&e));
	read_back(&e, SETTINGS_END_ZERO, ENDSTEP_PROMISE_NONE, 0, 0);
	endstep_unchecked(&e, "a USB bridge: no ATA pass-through");
	tap_ok(!strcmp(endstep_disposition(&e), "sanitized (hidden "
		       "capacity not checked)") &&
	       !strcmp(e.unchecked, "a USB bridge: no ATA pass-through"),
	       "zeroed and proven, hidden capacity not checked: not plain "
	       "sanitized (%s)", endstep_disposition(&e));
	read_back(&e, SETTINGS_END_ZERO, ENDSTEP_PROMISE_NONE, 0, 4096);
	endstep_unreached(&e, "2 GiB past an HPA");
	tap_ok(!strcmp(endstep_disposition(&e), "not sanitized: destroy"),
	       "a FAILed read-back with an HPA: still destroy");
	read_back(&e, SETTINGS_END_DISCARD, ENDSTEP_PROMISE_ZEROS, 0, 0);
	tap_ok(!strcmp(endstep_disposition(&e),
		       "deallocated: not a sanitization"),
	       "a discard, even zeros proven: not a sanitization");
	read_back(&e, SETTINGS_END_ZERO, ENDSTEP_PROMISE_NONE, 0, 4096);
	tap_ok(!strcmp(endstep_disposition(&e), "not sanitized: destroy"),
	       "a zero that FAILed its read-back: destroy");
	memset(&e, 0, sizeof(e));
	e.method = SETTINGS_END_ZERO;
	e.state = ENDSTEP_SKIPPED;
	tap_ok(!strcmp(endstep_disposition(&e), "not sanitized: destroy"),
	       "a FAILed disk kept for its RMA: destroy");
	tap_ok(!endstep_stalled(1000, 1001, 10),
	       "an answer after the watch's clock: not stalled");
	tap_ok(!endstep_stalled(1000, 990, 10), "at the limit: not stalled");
	tap_ok(endstep_stalled(1000, 989, 10), "past the limit: stalled");
	tap_ok(!endstep_stalled(5, UINT64_MAX, 10) &&
	       !endstep_stalled(0, 0, 0), "the clock's edges: not stalled");

	/* 1% of 1 TiB in 1 MiB chunks, and the two ends. */
	n = endstep_samples(size, 1, chunk);
	tap_ok(n == 2 + (size / 100 + chunk - 1) / chunk,
	       "1%% of 1 TiB: %llu reads", (unsigned long long)n);
	for (i = 0, prev = 0; i < n; i++) {
		uint64_t at = endstep_sample_at(size, 1, chunk, i);

		if ((i && at <= prev) || at % 4096 || at + chunk > size)
			ordered = 0;
		prev = at;
	}
	tap_ok(ordered && endstep_sample_at(size, 1, chunk, 0) == 0 &&
	       endstep_sample_at(size, 1, chunk, n - 1) == size - chunk,
	       "first and last chunk, the rest between in order, aligned");
	tap_ok(endstep_samples(size, 100, chunk) == size / chunk,
	       "100%%: every chunk once");
	tap_ok(endstep_samples(chunk, 1, chunk) == 1 &&
	       endstep_samples(2 * chunk, 1, chunk) == 2,
	       "a disk of one or two chunks");
	return tap_done();
}
