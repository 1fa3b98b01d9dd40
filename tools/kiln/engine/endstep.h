/* SPDX-License-Identifier: MIT */
#ifndef KILN_ENDSTEP_H
#define KILN_ENDSTEP_H

#include <stdatomic.h>
#include <stdint.h>
#include <time.h>

/*
 * The end step: how a disk is left once its burn is over (end=discard,
 * zero or sanitize), then read back. Like the engine it is given a
 * descriptor and a size and knows nothing of how the disk was found or
 * judged; every call that can wait on the disk is made in a child
 * (deadline_range, deadline_pread) or, for a sanitize's admin commands,
 * on the step's own thread, so a dead disk holds only the thread that
 * waits, and the caller's watch decides when it is stalled (endstep.beat,
 * endstep.wait_ns).
 */
enum endstep_state {
	ENDSTEP_NONE,		/* end=keep, or not asked */
	ENDSTEP_SKIPPED,	/* not applied: why says why */
	ENDSTEP_DONE,		/* applied, and read back as it should be */
	ENDSTEP_SAID,		/* discarded, contents not promised, or no
				 * sanitize command: said */
	ENDSTEP_FAILED,		/* applied, and kiln's data is still there */
	ENDSTEP_ERROR,		/* the device refused it (an errno) */
	ENDSTEP_STOPPED,	/* the run was interrupted during it */
	ENDSTEP_STALLED,	/* the disk stopped answering during it */
	ENDSTEP_STATES
};

/* What the device promises a deallocated block reads as. */
enum endstep_promise {
	ENDSTEP_PROMISE_NONE,	/* ATA DRAT only, SCSI without LBPRZ, loop */
	ENDSTEP_PROMISE_ZEROS,	/* NVMe DLFEAT, ATA RZAT, SCSI LBPRZ */
};

/* What the step is given of one disk. */
struct endstep_disk {
	int fd;			/* the disk, open for writing (O_DIRECT) */
	uint64_t size;		/* bytes: the whole disk */
	uint64_t run_id, ident;	/* whose units count as this run's */
	int method;		/* enum settings_end, not keep */
	int promise;		/* enum endstep_promise */
	unsigned verify_pct;	/* % of the disk read back, 1-100 */
	int fallback;		/* enum settings_fallback (sanitize) */
	int rotating;		/* the sanitize's default deadline */
};

struct endstep {
	int method;		/* enum settings_end */
	int state;		/* enum endstep_state */
	int promise;		/* enum endstep_promise */
	char promise_why[64];	/* what says so: "NVMe DLFEAT 001b" */
	int offload;		/* zero: the device has write-zeroes */
	char why[300];		/* in words: skipped, failed, said */
	/* end=sanitize: the method sent (enum sancmd_method), in words. */
	int san_method;		/* SANCMD_ZERO: the fallback's zeros */
	char san_words[64];	/* "Format NVM, user data erase (SES 1)" */
	char san_why[400];	/* why this method, or why none */
	int err;		/* ENDSTEP_ERROR: the errno */
	time_t started, ended;
	/* Progress, read by the watch as the step runs. */
	_Atomic uint64_t done;	/* bytes discarded or zeroed */
	_Atomic uint64_t beat;	/* timing_now_ns() of the last answer */
	/*
	 * Non-zero while one command the device is given this long is out
	 * (a Format NVM answers only when it is done): the watch waits as
	 * long as this for its answer, not the deadline.
	 */
	_Atomic uint64_t wait_ns;
	_Atomic int finished;
	/* The read-back. */
	unsigned verify_pct;
	uint64_t verify_reads, verify_bytes;
	uint64_t zero_bytes;	/* of those, read as zeros */
	uint64_t units_ours;	/* whole units of this run */
	uint64_t other_bytes;	/* neither zeros nor this run's units */
	uint64_t first_ours, first_other;	/* offsets; UINT64_MAX none */
	/*
	 * Capacity the disk hides from the OS, which the step did not reach
	 * (endstep_unreached), in words; "" none found.
	 */
	char unreached[300];
	char partly[340];	/* the disposition it makes */
	/*
	 * Why what the disk hides was not checked (USB, SAS, a query
	 * refused or timed out: endstep_unchecked), in words; "" checked.
	 */
	char unchecked[300];
};

/* "discard", "zero", "sanitize", "keep"; "done", "failed", ... */
const char *endstep_method_name(int method);
const char *endstep_state_name(int state);

/*
 * The method the step applied, as sancmd names it (enum sancmd_method:
 * discard, zero, the drive's own, or none), and the NIST SP 800-88 class
 * it reached (enum sancmd_class): the method's once the step is done and
 * its read-back found nothing of the run, else none.
 */
int endstep_applied(const struct endstep *e);
int endstep_class(const struct endstep *e);

/*
 * What the disk is now, for whoever takes it next, as its certificate
 * says it: "sanitized" where a class was reached and proven
 * (endstep_class; "partly sanitized; not reached: WHAT" where the disk
 * hides capacity the step did not reach), "deallocated: not a
 * sanitization" after a discard done or said, else "not sanitized: destroy" (a FAILed disk kept for its
 * RMA, a step that failed, stalled, erred or was stopped).
 */
const char *endstep_disposition(const struct endstep *e);

/*
 * A sanitize method whose device does not promise zeros (crypto erase,
 * block erase, ATA enhanced erase): its read-back can only find units of
 * this run, so where the run wrote none it cannot tell an erase from a
 * command accepted and ignored.
 */
int endstep_loose(const struct endstep *e);

/*
 * What the disk hides that the step does not reach (discovery's words:
 * "hidden: nsid 2 (1 GiB) allocated, not attached"): a disposition that
 * would say "sanitized" says "partly sanitized; not reached: WHAT".
 */
void endstep_unreached(struct endstep *e, const char *what);

/*
 * Whether the disk hides capacity was not checked (why: discovery's
 * words): a disposition that would say "sanitized" says "sanitized
 * (hidden capacity not checked)", its certificate "hidden capacity: not
 * checked (WHY)".
 */
void endstep_unchecked(struct endstep *e, const char *why);

/*
 * What the certificate says of the capacity the disk hides, into buf:
 * "not checked (WHY)", "found, not reached: WHAT", or "checked".
 */
const char *endstep_hidden_words(const struct endstep *e, char *buf,
				 size_t len);

/*
 * Whether a step whose last answer came at beat is stalled at now, with
 * no answer for more than limit ns. An answer after the watch read now
 * (beat > now: the step's thread runs beside it) is an answer, never
 * a wait of 2^64 ns.
 */
int endstep_stalled(uint64_t now, uint64_t beat, uint64_t limit);

/*
 * Applies d's method to the whole disk, a piece at a time (stop is read
 * between pieces), then reads back its first and last MiB and
 * verify_pct of it evenly spread, and judges what it read: the state,
 * why, and every figure in e. e->beat moves with each answer.
 */
void endstep_run(struct endstep *e, const struct endstep_disk *d,
		 const atomic_int *stop);

/*
 * The judgement of a read-back alone (e's figures, method and promise),
 * into e->state and e->why: pure, for the unit tests.
 */
void endstep_judge(struct endstep *e);

/*
 * The read-back's reads of chunk bytes: how many for a disk of size bytes
 * (the first, the last, and pct of the disk evenly between), and where
 * the i-th starts (4 KiB aligned, in order).
 */
uint64_t endstep_samples(uint64_t size, unsigned pct, uint64_t chunk);
uint64_t endstep_sample_at(uint64_t size, unsigned pct, uint64_t chunk,
			   uint64_t i);

#endif
