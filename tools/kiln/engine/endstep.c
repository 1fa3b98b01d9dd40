/* SPDX-License-Identifier: MIT */
/*
 * Description: the end step on one disk: the whole disk discarded
 * (BLKDISCARD: NVMe deallocate, SCSI UNMAP, ATA TRIM underneath) or zeroed
 * (BLKZEROOUT: the device's write-zeroes where it has it, else the
 * kernel's own writes of zeros), a piece at a time in a child each, or
 * sanitized by the device's own command (sanstep.c), then read back and
 * judged: a unit of this run that survived where zeros were promised, or
 * any sanitize, FAILs; what a discard without a promise left is only said.
 */
#include <errno.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>

#include "base/deadline.h"
#include "base/timing.h"
#include "base/unit.h"
#include "engine/endstep.h"
#include "engine/sanstep.h"
#include "settings/settings.h"

/*
 * A piece a child: small enough that a live disk answers each well within
 * any deadline (zeros written at 20 MB/s take 3 s a 64 MiB), large
 * enough that a big disk takes few children.
 */
#define DISCARD_PIECE (1ull << 30)
#define ZERO_PIECE (64ull << 20)
#define READ_CHUNK (1ull << 20)
/* A Sanitize's log is read every SANITIZE_LOOK naps (1 s): a status. */
#define SANITIZE_NAP_NS 100000000L
#define SANITIZE_LOOK 10

const char *endstep_method_name(int method)
{
	static const char *const names[] = { "keep", "discard", "zero",
		"sanitize" };

	return method >= 0 && method <= SETTINGS_END_SANITIZE ? names[method] :
	       "unknown";
}

const char *endstep_state_name(int state)
{
	static const char *const names[] = { "none", "skipped", "done",
		"said", "failed", "error", "stopped", "stalled" };

	return state >= 0 && state < ENDSTEP_STATES ? names[state] : "unknown";
}

int endstep_applied(const struct endstep *e)
{
	if (e->method == SETTINGS_END_DISCARD)
		return SANCMD_DISCARD;
	if (e->method == SETTINGS_END_ZERO)
		return SANCMD_ZERO;
	if (e->method == SETTINGS_END_SANITIZE)
		return e->san_method;
	return SANCMD_NONE;
}

int endstep_class(const struct endstep *e)
{
	/* A class is claimed of what was done and proven, never of a try. */
	return e->state == ENDSTEP_DONE ?
	       sancmd_method_class(endstep_applied(e)) : SANCMD_CLASS_NONE;
}

const char *endstep_disposition(const struct endstep *e)
{
	if (endstep_class(e) != SANCMD_CLASS_NONE)
		return e->unreached[0] ? e->partly : e->unchecked[0] ?
		       "sanitized (hidden capacity not checked)" :
		       "sanitized";
	if (e->method == SETTINGS_END_DISCARD &&
	    (e->state == ENDSTEP_DONE || e->state == ENDSTEP_SAID))
		return "deallocated: not a sanitization";
	return "not sanitized: destroy";
}

void endstep_unreached(struct endstep *e, const char *what)
{
	snprintf(e->unreached, sizeof(e->unreached), "%s", what ? what : "");
	snprintf(e->partly, sizeof(e->partly), "partly sanitized; not "
		 "reached: %s", e->unreached);
}

void endstep_unchecked(struct endstep *e, const char *why)
{
	snprintf(e->unchecked, sizeof(e->unchecked), "%s",
		 why && why[0] ? why : "not asked");
}

const char *endstep_hidden_words(const struct endstep *e, char *buf,
				 size_t len)
{
	if (e->unreached[0])
		snprintf(buf, len, "found, not reached: %s", e->unreached);
	else if (e->unchecked[0])
		snprintf(buf, len, "not checked (%s)", e->unchecked);
	else
		snprintf(buf, len, "checked");
	return buf;
}

uint64_t endstep_samples(uint64_t size, unsigned pct, uint64_t chunk)
{
	uint64_t want, spread;

	if (size <= chunk)
		return 1;
	if (size <= 2 * chunk)
		return 2;
	want = (uint64_t)((unsigned __int128)size * pct / 100);
	spread = (want + chunk - 1) / chunk;
	/* Never more reads than the disk has chunks between its ends. */
	if (spread > size / chunk - 2)
		spread = size / chunk - 2;
	return 2 + spread;
}

uint64_t endstep_sample_at(uint64_t size, unsigned pct, uint64_t chunk,
			   uint64_t i)
{
	uint64_t n = endstep_samples(size, pct, chunk), at;

	if (i == 0 || size <= chunk)
		return 0;
	if (i == n - 1)
		return (size - chunk) & ~(uint64_t)4095;
	/* Evenly between the two ends, each in its own stretch. */
	at = (uint64_t)((unsigned __int128)(size - chunk) * i / (n - 1));
	return at & ~(uint64_t)4095;
}

int endstep_stalled(uint64_t now, uint64_t beat, uint64_t limit)
{
	return now > beat && now - beat > limit;
}

static void beat(struct endstep *e)
{
	atomic_store(&e->beat, timing_now_ns());
}

/* The method over the whole disk: 0, -EINTR when stopped, or -errno. */
static int apply(struct endstep *e, const struct endstep_disk *d,
		 const atomic_int *stop)
{
	unsigned long req = d->method == SETTINGS_END_DISCARD ? BLKDISCARD :
			    BLKZEROOUT;
	uint64_t piece = d->method == SETTINGS_END_DISCARD ? DISCARD_PIECE :
			 ZERO_PIECE;
	uint64_t off, n;
	int ret;

	for (off = 0; off < d->size; off += n) {
		if (atomic_load(stop))
			return -EINTR;
		n = d->size - off < piece ? d->size - off : piece;
		ret = deadline_range(d->fd, req, off, n);
		beat(e);
		if (ret)
			return ret;
		atomic_store(&e->done, off + n);
	}
	/* Zeros in the device's cache are not zeros on its medium yet. */
	if (d->method == SETTINGS_END_ZERO) {
		ret = deadline_fdatasync(d->fd);
		beat(e);
		return ret;
	}
	return 0;
}

static int all_zero(const unsigned char *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (p[i])
			return 0;
	return 1;
}

/* One chunk read back, unit by unit, into e's figures. */
static void tell(struct endstep *e, const struct endstep_disk *d,
		 const unsigned char *buf, size_t len, uint64_t at)
{
	struct unit_header h;
	size_t k;

	for (k = 0; k + UNIT_SIZE <= len; k += UNIT_SIZE) {
		const unsigned char *u = buf + k;

		if (all_zero(u, UNIT_SIZE)) {
			e->zero_bytes += UNIT_SIZE;
		} else if (unit_parse(u, &h) && h.key.run_id == d->run_id &&
			   h.key.ident == d->ident) {
			e->units_ours++;
			if (e->first_ours == UINT64_MAX)
				e->first_ours = at + k;
		} else {
			e->other_bytes += UNIT_SIZE;
			if (e->first_other == UINT64_MAX)
				e->first_other = at + k;
		}
	}
}

/* The read-back: 0, -EINTR when stopped, or a read's -errno. */
static int read_back(struct endstep *e, const struct endstep_disk *d,
		     const atomic_int *stop)
{
	uint64_t chunk = d->size < READ_CHUNK ? d->size & ~(uint64_t)4095 :
			 READ_CHUNK;
	uint64_t n, i, at;
	unsigned char *buf;
	ssize_t got;

	if (!chunk)
		return 0;
	buf = malloc(chunk);
	if (!buf)
		return -ENOMEM;
	n = endstep_samples(d->size, d->verify_pct, chunk);
	for (i = 0; i < n; i++) {
		if (atomic_load(stop)) {
			free(buf);
			return -EINTR;
		}
		at = endstep_sample_at(d->size, d->verify_pct, chunk, i);
		got = deadline_pread(d->fd, buf, chunk, (off_t)at, NULL);
		beat(e);
		if (got < 0) {
			free(buf);
			return (int)got;
		}
		e->verify_reads++;
		e->verify_bytes += (uint64_t)got;
		tell(e, d, buf, (size_t)got, at);
	}
	free(buf);
	return 0;
}

/* What was done, as the results say it: "zeroed", "Format NVM, ...". */
static void done_words(const struct endstep *e, char *buf, size_t len)
{
	if (e->method == SETTINGS_END_DISCARD)
		snprintf(buf, len, "discarded");
	else if (e->method == SETTINGS_END_ZERO)
		snprintf(buf, len, "zeroed");
	else if (e->san_method == SANCMD_ZERO)
		snprintf(buf, len, "sanitize: none; zeroed instead "
			 "(sanitize-fallback=zero)");
	else
		snprintf(buf, len, "%s", e->san_words);
}

int endstep_loose(const struct endstep *e)
{
	return e->method == SETTINGS_END_SANITIZE &&
	       e->san_method != SANCMD_ZERO &&
	       e->promise == ENDSTEP_PROMISE_NONE;
}

void endstep_judge(struct endstep *e)
{
	char ours[96] = "", other[96] = "", done[96];
	uint64_t seen = e->verify_bytes;
	int loose = endstep_loose(e);

	done_words(e, done, sizeof(done));
	if (e->units_ours)
		snprintf(ours, sizeof(ours), "%llu units of this run (the "
			 "first at byte %llu)",
			 (unsigned long long)e->units_ours,
			 (unsigned long long)e->first_ours);
	if (e->other_bytes)
		snprintf(other, sizeof(other), "%llu bytes of other data (at "
			 "byte %llu)", (unsigned long long)e->other_bytes,
			 (unsigned long long)e->first_other);
	if (e->method == SETTINGS_END_DISCARD &&
	    e->promise == ENDSTEP_PROMISE_NONE) {
		/* Nothing was promised: what was found is only said. */
		e->state = ENDSTEP_SAID;
		snprintf(e->why, sizeof(e->why), "deallocated, contents not "
			 "promised: read back %llu bytes, %llu of them zeros%s"
			 "%s%s%s", (unsigned long long)seen,
			 (unsigned long long)e->zero_bytes,
			 ours[0] ? ", " : "", ours, other[0] ? ", " : "",
			 other);
		return;
	}
	if (e->units_ours || (e->other_bytes && !loose)) {
		e->state = ENDSTEP_FAILED;
		snprintf(e->why, sizeof(e->why), "%s: read back %llu bytes "
			 "and found %s%s%s where %s", done,
			 (unsigned long long)seen, ours,
			 ours[0] && other[0] ? " and " : "", other,
			 e->method == SETTINGS_END_DISCARD ?
			 "zeros were promised" :
			 e->method == SETTINGS_END_ZERO ||
			 e->san_method == SANCMD_ZERO ?
			 "zeros were written" : "the drive erased");
		return;
	}
	e->state = ENDSTEP_DONE;
	if (e->other_bytes)
		/* Erased, not zeros: the device promised none. */
		snprintf(e->why, sizeof(e->why), "%s: read back %llu bytes, "
			 "no unit of this run, %s (the device does not "
			 "promise zeros)", done, (unsigned long long)seen,
			 other);
	else
		snprintf(e->why, sizeof(e->why), "%s: read back %llu bytes, "
			 "all zeros", e->method == SETTINGS_END_DISCARD ?
			 "deallocated, zeros promised" : done,
			 (unsigned long long)seen);
}

/*
 * A Sanitize under way, its log read every SANITIZE_LOOK until it says
 * the one kiln sent is over: 0, -EIO failed, -ETIMEDOUT past its
 * deadline, -EINTR stopped (the drive goes on: it cannot be called
 * back), or a read's -errno. Each answer is a beat, so a drive that stops
 * answering is stalled by the watch as any other.
 */
static int follow(struct endstep *e, const struct endstep_disk *d,
		  const struct sanstep *s, const atomic_int *stop)
{
	struct timespec nap = { 0, SANITIZE_NAP_NS };
	uint64_t start = timing_now_ns(), waited;
	struct sancmd_progress p;
	int ret, k;

	for (;;) {
		for (k = 0; k < SANITIZE_LOOK; k++) {
			if (atomic_load(stop))
				return -EINTR;
			nanosleep(&nap, NULL);
		}
		ret = sanstep_poll(d->fd, s, &p);
		beat(e);
		if (ret)
			return ret;
		if (p.state == SANCMD_RUNNING)
			atomic_store(&e->done, (uint64_t)((unsigned __int128)
				     d->size * p.fraction / 65536));
		waited = (timing_now_ns() - start) / TIMING_SEC;
		switch (sanstep_poll_next(s, &p, waited)) {
		case SANSTEP_DONE:
			return 0;
		case SANSTEP_FAILED:
			return -EIO;
		case SANSTEP_LATE:
			return -ETIMEDOUT;
		}
	}
}

/*
 * end=sanitize's command, or none: 0 sent (or zeros written instead, the
 * fallback), 1 none sent and nothing done (said), -EINTR, or -errno.
 */
static int sanitize(struct endstep *e, struct endstep_disk *d,
		    const atomic_int *stop)
{
	struct sanstep s;
	int ret;

	ret = sanstep_choose(d->fd, d->rotating, &s);
	beat(e);
	e->san_method = ret ? SANCMD_NONE : s.choice.method;
	snprintf(e->san_why, sizeof(e->san_why), "%s", s.choice.why);
	if (ret)
		return ret;
	if (s.choice.method == SANCMD_NONE) {
		if (d->fallback != SETTINGS_FALLBACK_ZERO) {
			e->offload = 0;
			return 1;
		}
		e->san_method = SANCMD_ZERO;
		d->method = SETTINGS_END_ZERO;
		return apply(e, d, stop);
	}
	e->offload = 0;
	sanstep_words(&s, e->san_words, sizeof(e->san_words));
	d->promise = s.zeros ? ENDSTEP_PROMISE_ZEROS : ENDSTEP_PROMISE_NONE;
	e->promise = d->promise;
	snprintf(e->promise_why, sizeof(e->promise_why), "%s",
		 s.promise_why);
	if (atomic_load(stop))
		return -EINTR;
	if (!sanstep_followed(s.choice.method))
		atomic_store(&e->wait_ns, s.deadline * TIMING_SEC);
	ret = sanstep_send(d->fd, &s);
	beat(e);
	atomic_store(&e->wait_ns, 0);
	/* What else was done (a password set and cleared) is said. */
	if (s.note[0])
		snprintf(e->san_why + strlen(e->san_why),
			 sizeof(e->san_why) - strlen(e->san_why), "; %s",
			 s.note);
	/* A drive kiln may leave locked is a FAIL, said with its remedy. */
	if (s.password_left)
		return -ENOKEY;
	if (!ret && sanstep_followed(s.choice.method))
		ret = follow(e, d, &s, stop);
	if (!ret)
		atomic_store(&e->done, d->size);
	return ret;
}

void endstep_run(struct endstep *e, const struct endstep_disk *disk,
		 const atomic_int *stop)
{
	struct endstep_disk dd = *disk, *d = &dd;
	int ret, read_failed = 0;
	char done[96];

	e->method = d->method;
	e->promise = d->promise;
	e->verify_pct = d->verify_pct;
	e->first_ours = e->first_other = UINT64_MAX;
	e->started = time(NULL);
	beat(e);
	/* A sanitize turns d into what it did: zero for the fallback. */
	ret = d->method == SETTINGS_END_SANITIZE ? sanitize(e, d, stop) :
	      apply(e, d, stop);
	if (ret == 1) {
		e->ended = time(NULL);
		e->state = ENDSTEP_SAID;
		snprintf(e->why, sizeof(e->why), "no sanitize command: %s; "
			 "left as it is (sanitize-fallback=zero zeroes it)",
			 e->san_why);
		atomic_store(&e->finished, 1);
		return;
	}
	if (!ret) {
		ret = read_back(e, d, stop);
		read_failed = ret && ret != -EINTR;
	}
	e->ended = time(NULL);
	done_words(e, done, sizeof(done));
	if (ret == -EINTR) {
		e->state = ENDSTEP_STOPPED;
		snprintf(e->why, sizeof(e->why), "interrupted after %llu "
			 "bytes: the disk is left part %s",
			 (unsigned long long)atomic_load(&e->done),
			 d->method == SETTINGS_END_DISCARD ? "discarded" :
			 d->method == SETTINGS_END_ZERO ? "zeroed" :
			 "sanitized");
	} else if (ret == -ENOKEY) {
		e->state = ENDSTEP_FAILED;
		snprintf(e->why, sizeof(e->why), "%s: kiln's ATA user password "
			 "may be left set, and the drive locks at its next "
			 "power-on: clear it now (hdparm --security-disable "
			 "kiln DEV); the erase is not proven", e->san_words);
	} else if (ret) {
		e->state = ENDSTEP_ERROR;
		e->err = -ret;
		if (read_failed)
			snprintf(e->why, sizeof(e->why), "%s, but its "
				 "read-back failed after %llu reads: %s",
				 done, (unsigned long long)e->verify_reads,
				 strerror(-ret));
		else if (d->method == SETTINGS_END_SANITIZE &&
			 e->san_words[0])
			snprintf(e->why, sizeof(e->why), "%s: %s",
				 e->san_words, ret == -EIO ?
				 "the drive says it failed" :
				 ret == -ETIMEDOUT ? "not over within its "
				 "deadline (twice the drive's estimate and "
				 "ten minutes, or the default for its kind)" :
				 strerror(-ret));
		else if (d->method == SETTINGS_END_SANITIZE)
			snprintf(e->why, sizeof(e->why), "no sanitize sent: "
				 "%s", e->san_why);
		else
			snprintf(e->why, sizeof(e->why), "%s refused after "
				 "%llu bytes: %s",
				 d->method == SETTINGS_END_DISCARD ?
				 "the discard was" : "the zeroing was",
				 (unsigned long long)atomic_load(&e->done),
				 ret == -EOPNOTSUPP ?
				 "the device does not take it" :
				 strerror(-ret));
	} else {
		endstep_judge(e);
	}
	atomic_store(&e->finished, 1);
}
