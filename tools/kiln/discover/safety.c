/* SPDX-License-Identifier: MIT */
/*
 * Description: the safety class of a disk or file (see safety.h): the
 * in-use facts first (safety_use.c, safety_open.c), then the contents,
 * read: blank only when the first and last 16 MiB and 64 evenly spaced
 * 64 KiB samples all hold one byte value, 0x00 or 0xFF, the same
 * everywhere, and no signature is found; kiln-data only when every unit
 * read is that byte or a valid kiln unit of this very disk at its own
 * offset; anything else is has-data, with the byte offset of what was
 * found. The reasons, as they are said, are safety_why.c's.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/blank.h"
#include "base/json.h"
#include "base/unit.h"
#include "discover/safety.h"
#include "discover/safety_private.h"

const char *safety_class_name(int class)
{
	switch (class) {
	case SAFETY_IN_USE: return "in-use";
	case SAFETY_HAS_DATA: return "has-data";
	case SAFETY_KILN_DATA: return "kiln-data";
	case SAFETY_BLANK: return "blank";
	}
	return "unknown";
}

void safety_json(struct json *j, const struct safety *s)
{
	json_str(j, "class", safety_class_name(s->class));
	json_str(j, "class_reasons", s->why);
}

/* What reading found, as it went. */
struct contents {
	/* the blank byte so far; -1: none yet */
	int byte;
	uint64_t foreign;		/* the first byte that is neither; ~0 */
	uint64_t other_kiln;		/* another disk's kiln unit at; ~0 */
	uint64_t units;			/* this disk's units */
	uint64_t ident;
};

#define NOWHERE UINT64_MAX

/* Looks at whole units read from byte off (a multiple of 4 KiB). */
static void look(struct contents *c, const unsigned char *buf, size_t len,
		 uint64_t off)
{
	size_t i;

	for (i = 0; i + UNIT_SIZE <= len; i += UNIT_SIZE) {
		const unsigned char *u = buf + i;
		int b = blank_byte(u, UNIT_SIZE);
		struct unit_header h;

		if (b != BLANK_NONE && (c->byte < 0 || b == c->byte)) {
			c->byte = b;
			continue;
		}
		if (unit_parse(u, &h)) {
			if (h.key.ident == c->ident &&
			    h.key.offset == off + i) {
				c->units++;
				continue;
			}
			if (c->other_kiln == NOWHERE)
				c->other_kiln = off + i;
			continue;
		}
		if (c->foreign == NOWHERE) {
			/* The first unit read: its first byte may be blank. */
			int b = c->byte >= 0 ? c->byte :
				u[0] == 0x00 || u[0] == 0xff ? u[0] : -1;
			size_t k = 0;

			/* Name the first byte that is not the blank byte. */
			while (k < UNIT_SIZE && b >= 0 && u[k] == b)
				k++;
			c->foreign = off + i + (k < UNIT_SIZE ? k : 0);
		}
	}
}

/*
 * A magic inside a valid kiln unit of this disk at its own offset is
 * kiln's payload (its CRC proves nothing overwrote it), not a filesystem:
 * such hits among s->hits[from..] within [base, base + len) go.
 */
static void forget_kiln_hits(struct signature_scan *sig, int from,
			     const unsigned char *buf, size_t len,
			     uint64_t base, uint64_t ident)
{
	int i, k;

	for (i = k = from; i < sig->n; i++) {
		uint64_t at = sig->hits[i].offset & ~(uint64_t)(UNIT_SIZE - 1);
		struct unit_header h;

		if (at >= base && at + UNIT_SIZE <= base + len &&
		    unit_parse(buf + (at - base), &h) && h.key.ident == ident &&
		    h.key.offset == at)
			continue;
		sig->hits[k++] = sig->hits[i];
	}
	sig->n = k;
}

/* Reads [off, off + len) in pieces, looking at each: 0 or -errno (*at). */
static int read_span(int fd, unsigned char *buf, size_t piece, uint64_t off,
		     uint64_t len, uint64_t size, struct contents *c,
		     struct signature_scan *sig, uint64_t *at)
{
	while (len) {
		size_t want = len < piece ? (size_t)len : piece;
		size_t aligned = (want + 4095) & ~(size_t)4095;
		ssize_t n = pread(fd, buf, aligned, (off_t)off);
		size_t have = off + want > size ? (size_t)(size - off) : want;

		if (n < 0 || (size_t)n < have) {
			*at = off + (n > 0 ? (uint64_t)n : 0);
			return n < 0 ? -errno : -EIO;
		}
		/* A size not a multiple of 4 KiB: pad the last piece. */
		if (have % UNIT_SIZE)
			memset(buf + have, c->byte >= 0 ? c->byte : 0,
			       UNIT_SIZE - have % UNIT_SIZE);
		look(c, buf, (have + UNIT_SIZE - 1) & ~(size_t)(UNIT_SIZE - 1),
		     off);
		if (sig && off < SAFETY_ENDS) {
			int from = sig->n;

			signature_scan_offsets(buf, have, off, sig);
			forget_kiln_hits(sig, from, buf, have, off, c->ident);
		}
		off += want;
		len -= want;
	}
	return 0;
}

/*
 * Reads what DESIGN.md reads to prove a disk blank: 0, or -errno with the
 * byte it failed at. head and tail get the first and last MiB for the
 * signatures.
 */
static int read_contents(const struct safety_subject *d, struct contents *c,
			 struct signature_scan *sig, uint64_t *at)
{
	const size_t piece = 1u << 20;
	uint64_t size = d->size, tail_off, step;
	unsigned char *buf = NULL, *head = NULL, *tail = NULL;
	size_t hlen, tlen;
	int ret, i;

	if (posix_memalign((void **)&buf, 4096, piece) ||
	    posix_memalign((void **)&head, 4096, 2 * piece) ||
	    posix_memalign((void **)&tail, 4096, piece + 8192)) {
		ret = -ENOMEM;
		goto out;
	}
	/* The signatures at the places the formats define (VMFS: 1 MiB in). */
	hlen = size < 2 * piece ? (size_t)size : 2 * piece;
	tail_off = size > piece ? (size - piece) & ~4095ull : 0;
	tlen = (size_t)(size - tail_off);
	ret = read_span(d->fd, head, 2 * piece, 0, hlen, size, c, NULL, at);
	if (!ret)
		ret = read_span(d->fd, tail, piece + 8192, tail_off, tlen, size,
				c, NULL, at);
	if (ret)
		goto out;
	signature_scan_buf(head, hlen, tail, tlen, size, sig);
	forget_kiln_hits(sig, 0, head, hlen, 0, c->ident);
	forget_kiln_hits(sig, 0, tail, tlen, tail_off, c->ident);
	/* The first and last 16 MiB, then the samples between. */
	ret = read_span(d->fd, buf, piece, 0,
			size < SAFETY_ENDS ? size : SAFETY_ENDS, size, c, sig,
			at);
	if (!ret && size > SAFETY_ENDS) {
		uint64_t from = size > 2 * SAFETY_ENDS ?
				(size - SAFETY_ENDS) & ~4095ull : SAFETY_ENDS;

		ret = read_span(d->fd, buf, piece, from, size - from, size, c,
				NULL, at);
	}
	step = size > SAFETY_SAMPLE ? (size - SAFETY_SAMPLE) /
				      (SAFETY_SAMPLES - 1) : 0;
	for (i = 0; !ret && step && i < SAFETY_SAMPLES; i++) {
		uint64_t off = ((uint64_t)i * step) & ~4095ull;

		ret = read_span(d->fd, buf, piece, off, SAFETY_SAMPLE, size, c,
				NULL, at);
	}
out:
	free(buf);
	free(head);
	free(tail);
	return ret;
}

void safety_classify(const struct safety_env *env,
		     const struct safety_subject *d, struct safety *s)
{
	struct contents c = { -1, NOWHERE, NOWHERE, 0, d->ident };
	char text[sizeof(s->why)];
	uint64_t at = 0;
	int ret = -ENODEV, in_use;

	safety_in_use(env, d, s);
	in_use = s->class == SAFETY_IN_USE;
	if (d->fd >= 0 && d->size) {
		ret = read_contents(d, &c, &s->sig, &at);
		s->scanned = ret == 0;
	}
	s->kiln_units = c.units;
	if (in_use) {
		if (s->sig.n)
			safety_why(s, "it holds %s",
				   signature_describe(&s->sig, text,
						      sizeof(text)));
		return;
	}
	s->class = SAFETY_HAS_DATA;
	if (d->fd >= 0 && !d->size) {
		safety_why(s, "empty (0 bytes)");
		s->class = SAFETY_BLANK;
		return;
	}
	if (ret == -ENODEV) {
		safety_why(s, "not read, so not proven blank");
		return;
	}
	if (ret) {
		safety_why(s, "it could not be read at byte %llu (%s), so it "
			   "is not proven blank", (unsigned long long)at,
			   strerror(-ret));
		return;
	}
	if (s->sig.n)
		safety_why(s, "it holds %s",
			   signature_describe(&s->sig, text, sizeof(text)));
	if (s->partitions[0])
		safety_why(s, "the kernel sees partitions %s", s->partitions);
	if (c.other_kiln != NOWHERE)
		safety_why(s, "kiln units of another disk at byte %llu",
			   (unsigned long long)c.other_kiln);
	if (c.foreign != NOWHERE && !s->sig.n)
		safety_why(s, "unknown data at byte %llu",
			   (unsigned long long)c.foreign);
	if (s->why[0])
		return;
	s->blank_byte = c.byte;
	if (c.units) {
		s->class = SAFETY_KILN_DATA;
		safety_why(s, "kiln units of this disk (%llu seen)%s",
			   (unsigned long long)c.units, c.byte >= 0 ?
			   ", the rest blank" : "");
		return;
	}
	s->class = SAFETY_BLANK;
	safety_why(s, "proven by reading: the first and last 16 MiB and %d "
		   "samples of 64 KiB all hold 0x%02x", SAFETY_SAMPLES, c.byte);
}

