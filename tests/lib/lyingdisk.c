/* SPDX-License-Identifier: MIT */
/*
 * Description: a disk that lies, for kiln's tests. It serves one file,
 * MNT/disk, from memory through FUSE, meant to sit under a loop device
 * (losetup -f --show --direct-io=on MNT/disk), and a second file, MNT/ctl,
 * through which a test makes the disk lie: drop writes, lose a volatile
 * cache at a power cut, go back to an earlier image, shrink, fail ranges
 * with EIO, answer slowly, or stop answering. kiln must never PASS such a
 * disk, and one hung disk must never hang kiln.
 *
 *	lyingdisk MNT [--size SIZE] [--pidfile FILE] [--foreground] [--debug]
 *
 * SIZE (default 64M) is a multiple of 512, in bytes or with a K, M, G or T
 * suffix (powers of 1024). The data lives in memory only (anonymous
 * mappings that cost nothing until written), so it is gone when the
 * program ends. Without --foreground the program returns once the mount
 * is ready (exit 0) or has failed (exit 1, said on stderr), with the
 * daemon's pid in FILE; the daemon then says nothing. It ends when MNT
 * is unmounted, or on SIGTERM, SIGINT or SIGHUP (then it unmounts).
 * --debug, with --foreground, prints every FUSE request.
 *
 * Control: each write to MNT/ctl is one command line (a trailing newline
 * is fine). A command that does not parse is refused with EINVAL, so the
 * writer sees it (a full range table is ENOSPC, revert without a snapshot
 * ENOENT). Numbers are as for SIZE.
 *
 *	drop on|off		writes are acknowledged and thrown away
 *	discard zero|keep	a discard (a hole punched in MNT/disk, which
 *				is what a discard of the loop device over it
 *				becomes) zeros its range (the default), or
 *				is acknowledged and the data kept
 *	cache on|lie|off	on: writes land in a volatile cache that reads
 *				see, and a flush (fsync or fdatasync of the
 *				disk, which is what a flush of the loop device
 *				becomes) makes them durable; lie: the same but
 *				a flush is acknowledged and does nothing; off:
 *				what is cached is written back, as a drive does
 *				when its write cache is turned off
 *	powercut		everything cached and not durable is lost
 *	snapshot		keep an image of the disk as a read sees it now
 *	snapshot at-flush N	the same, when the Nth flush from now comes
 *				(a multi-pass write, as its first pass left it)
 *	revert			the disk (data and size) goes back to that image
 *	shrink SIZE		the disk becomes SIZE bytes (no more than now)
 *	eio OFF LEN [read|write|both]	requests touching the range fail
 *				with EIO, whole (default both; 16 ranges)
 *	eio clear
 *	slow OFF LEN MS [read|write|both]	requests touching the
 *				range take MS ms more (default both; 16 ranges;
 *				the longest one that applies counts)
 *	slow clear
 *	flaky OFF LEN		a transfer error of the path, not the
 *				medium: each 4 KiB unit (by offset on the
 *				disk) in the range that a write touches is
 *				armed, and the first read of it after that
 *				gets it with one bit flipped (its middle
 *				byte, else the first the read covers); the
 *				next read of it is right, as what is stored
 *				never changed (16 ranges)
 *	flaky clear		no more ranges, and nothing stays armed
 *	hang			every read, write and flush of the disk waits
 *	hang all		the same, and a stat of MNT/disk waits too, as
 *				on a dead NFS server or FUSE daemon (so does the
 *				loop driver's LOOP_GET_STATUS, which stats it)
 *	hang at-flush		hang when the next flush comes (it is held)
 *	hang at-discard		hang when the next discard comes (it is held)
 *	hang at-read LEN	hang when a read of LEN bytes comes (it is
 *				held): 4096 is a single unit read again
 *	hold OFF LEN [read|write|both] [after-write]	requests
 *				touching the range are held until resume,
 *				the rest go on (default both; 16 ranges):
 *				one slow request, for as long as the test
 *				needs; after-write: from the first write
 *				answered after the command (a tester's
 *				reads before it writes anything go by)
 *	watch OFF LEN		count the reads and writes answered that
 *				touch the range (16 ranges), so a test waits
 *				until a range was read, or written
 *	watch clear
 *	resume			they all go on, in the order they came, and
 *				hold ranges are gone
 *
 * Reading MNT/ctl gives the state and counters since start, one "key
 * value" a line: size, drop, cache, dirty (bytes cached and not durable),
 * snapshot (its size, or none), hang, hang_attr, pending (requests held by hang,
 * slow or hold), an "eio OFF LEN KIND" or "slow OFF LEN MS KIND" line per
 * range, a "flaky OFF LEN" line per range, a "hold OFF LEN KIND" line per
 * range, a "watch OFF LEN reads R writes W" line per range (R and W
 * answered so far, W counting from the first write, the reads before it
 * said as "reads_before_write N"), then reads, read_bytes, writes,
 * write_bytes (acknowledged, dropped ones included), dropped_bytes,
 * flushes, errors (requests answered with an error), flipped (units
 * answered wrong once by flaky), discards, discarded_bytes and
 * discard_kept_bytes (of those, acknowledged and kept), delayed (requests a
 * slow range delayed, counted when they came). A read and a write is counted when it
 * is answered.
 *
 * A write that reaches past the end of the disk (after a shrink) fails
 * whole with ENOSPC, and a read there gets what lies before the end. Under
 * a loop device that was not told the new size, that is EIO for reads past
 * the end and ENOSPC for writes. losetup -c gives the loop device the new
 * size: Linux 6.18 asks us for it; kernels whose loop driver takes the size
 * FUSE has cached need a stat of MNT/disk first (attributes are never
 * cached here, so a stat asks us).
 *
 * Why every read and write of the loop device reaches this program: there
 * are two page caches on the way and both must be passed by. (1) MNT/disk
 * is opened with FOPEN_DIRECT_IO (fi->direct_io), so FUSE sends every read
 * and write to us, whichever way the loop device does its I/O; without it
 * a loop device in buffered mode would be answered from FUSE's page cache
 * and a dropped write would read back as written. The writeback cache of
 * FUSE is refused for the same reason. --direct-io=on also makes the loop
 * device hand each request on as it is, without a copy in between (see
 * /sys/block/loopN/loop/dio). (2) The loop device itself has a page cache
 * for buffered readers of /dev/loopN: the tester must read and write it
 * with O_DIRECT (dd iflag=direct, oflag=direct), as kiln does, or a re-read
 * is served from memory and never reaches us. (Linux drops that cache at
 * the device's last close, so two buffered dd runs in a row both reach us;
 * while anything holds the device open, as kiln does, they do not.)
 *
 * A flush of the loop device (fsync or fdatasync of /dev/loopN, dd
 * conv=fsync, sync DEV) reaches us as an fsync of MNT/disk: a loop device
 * over a file that has fsync announces a volatile write cache and turns a
 * flush into vfs_fsync. sync(1) without a file and blockdev --flushbufs
 * only write back the page cache of /dev/loopN and send us no flush.
 *
 * Why a hang cannot wedge the machine: a held request blocks no thread of
 * ours. It waits in a queue and is answered later by a second thread, so
 * MNT/ctl keeps answering during a hang and resume always gets through.
 * SIGTERM, SIGINT and SIGHUP answer everything still held (a resume)
 * before the daemon unmounts. If the daemon dies anyway (SIGKILL), the
 * kernel aborts the FUSE connection when /dev/fuse is closed, and every
 * request still waiting fails with an error instead of waiting for ever.
 * Until then a reader of the loop device waits uninterruptibly (state D):
 * timeout(1), even with SIGKILL, ends it only once the request is answered.
 */
#define FUSE_USE_VERSION 314

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <fuse_lowlevel.h>
#include <linux/falloc.h>
#include <getopt.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define SECTOR 512
#define UNIT 4096
#define NRANGES 16
#define CTL_MAX 8192

enum { INO_ROOT = FUSE_ROOT_ID, INO_DISK, INO_CTL };
enum { OP_READ, OP_WRITE, OP_FSYNC, OP_GETATTR, OP_DISCARD };
enum { CACHE_OFF, CACHE_ON, CACHE_LIE };
enum { HIT_READ = 1, HIT_WRITE = 2 };

struct range {
	uint64_t off;
	uint64_t len;
	unsigned int kind;	/* HIT_*: the requests it touches */
	unsigned int arg;	/* milliseconds, for slow */
};

/* A request held by hang or slow, answered by the replier thread. */
struct held {
	struct held *next;
	fuse_req_t req;
	int op;
	uint64_t off;
	size_t len;
	struct timespec due;
	bool hold;		/* in a hold range: waits for resume */
	unsigned char data[];	/* a write's bytes */
};

struct disk {
	pthread_mutex_t lock;
	pthread_cond_t wake;
	/* What a read sees. */
	unsigned char *live;
	/* What survives a power cut, while a cache is on; else NULL. */
	unsigned char *durable;
	/* One bit per sector of live not yet copied to durable. */
	uint64_t *dirty;
	uint64_t ndirty;
	unsigned char *snap;
	uint64_t cap, size, snap_size;
	int cache;
	bool drop, hang, hang_attr, hang_at_flush, quit;
	bool discard_keep;	/* a discard is acknowledged, data kept */
	bool hang_at_discard;
	uint64_t discards, discarded_bytes, discard_kept_bytes;
	uint64_t delayed;	/* requests a slow range delayed */
	uint64_t hang_at_read;	/* hang at a read of this length; 0: none */
	struct range eio[NRANGES], slow[NRANGES], flaky[NRANGES];
	struct range hold[NRANGES], watch[NRANGES];
	int neio, nslow, nflaky, nhold, nwatch;
	/* Per watch range: answered reads and writes, reads before a write. */
	uint64_t watch_reads[NRANGES], watch_writes[NRANGES];
	uint64_t watch_first[NRANGES];
	/* One bit per UNIT: written in a flaky range, not read since. */
	uint64_t *armed;
	uint64_t flipped;
	struct held *head, **tail;
	unsigned int pending;
	uint64_t reads, read_bytes, writes, write_bytes, dropped_bytes;
	uint64_t flushes, errors;
	uint64_t snap_at;	/* take the snapshot at this flush; 0: none */
	struct timespec born;
};

static struct disk d;

/* Anonymous and MAP_NORESERVE, so a big disk costs only what is written. */
static void *map(uint64_t len)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

static int parse_num(const char *s, uint64_t *out)
{
	static const char units[] = "KMGT";
	unsigned long long v;
	unsigned int shift = 0;
	const char *u;
	char *end;

	if (!isdigit((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno)
		return -EINVAL;
	u = *end ? strchr(units, toupper((unsigned char)*end)) : NULL;
	if (u) {
		shift = 10 * (u - units + 1);
		end++;
	}
	if (*end || (shift && v > (UINT64_MAX >> shift)))
		return -EINVAL;
	*out = (uint64_t)v << shift;
	return 0;
}

static bool touches(const struct range *r, uint64_t off, uint64_t len)
{
	return len && off < r->off + r->len && r->off < off + len;
}

static void mark_dirty(uint64_t off, uint64_t len)
{
	uint64_t s;

	for (s = off / SECTOR; s <= (off + len - 1) / SECTOR; s++) {
		uint64_t bit = 1ULL << (s % 64);

		if (!(d.dirty[s / 64] & bit)) {
			d.dirty[s / 64] |= bit;
			d.ndirty++;
		}
	}
}

/*
 * Copies every dirty sector from one image to the other and forgets it:
 * live to durable is a flush, durable to live is a power cut. Sectors that
 * are not dirty are the same in both, so whole sectors are right even when
 * a write covered only part of one.
 */
static void settle(unsigned char *to, const unsigned char *from)
{
	uint64_t w, nwords = (d.cap / SECTOR + 63) / 64;

	for (w = 0; w < nwords; w++) {
		while (d.dirty[w]) {
			uint64_t s = w * 64 + __builtin_ctzll(d.dirty[w]);

			memcpy(to + s * SECTOR, from + s * SECTOR, SECTOR);
			d.dirty[w] &= d.dirty[w] - 1;
		}
	}
	d.ndirty = 0;
}

static bool eio_hit(uint64_t off, uint64_t len, unsigned int kind)
{
	int i;

	for (i = 0; i < d.neio; i++)
		if ((d.eio[i].kind & kind) && touches(&d.eio[i], off, len))
			return true;
	return false;
}

static unsigned int slow_ms(int op, uint64_t off, uint64_t len)
{
	unsigned int kind = op == OP_WRITE ? HIT_WRITE : HIT_READ;
	unsigned int ms = 0;
	int i;

	for (i = 0; i < d.nslow; i++)
		if ((d.slow[i].kind & kind) &&
		    touches(&d.slow[i], off, len) && d.slow[i].arg > ms)
			ms = d.slow[i].arg;
	return ms;
}

static bool hold_hit(int op, uint64_t off, uint64_t len)
{
	unsigned int kind = op == OP_WRITE ? HIT_WRITE : HIT_READ;
	int i;

	if (op != OP_READ && op != OP_WRITE)
		return false;
	/* arg: still waiting for the first write. */
	for (i = 0; i < d.nhold; i++)
		if ((d.hold[i].kind & kind) && !d.hold[i].arg &&
		    touches(&d.hold[i], off, len))
			return true;
	return false;
}

/* A read or write of [off, off + len) was answered: the watches count it. */
static void watched(int op, uint64_t off, uint64_t len)
{
	int i;

	for (i = 0; i < d.nwatch; i++) {
		if (!touches(&d.watch[i], off, len))
			continue;
		if (op == OP_READ) {
			d.watch_reads[i]++;
		} else if (!d.watch_writes[i]++) {
			d.watch_first[i] = d.watch_reads[i];
		}
	}
}

/* Arms each unit a write of [off, off + len) touches in a flaky range. */
static void arm(uint64_t off, uint64_t len)
{
	uint64_t u;
	int i;

	for (i = 0; i < d.nflaky; i++) {
		const struct range *r = &d.flaky[i];
		uint64_t a = off > r->off ? off : r->off;
		uint64_t b = off + len < r->off + r->len ? off + len :
			     r->off + r->len;

		for (u = a / UNIT; a < b && u <= (b - 1) / UNIT; u++)
			d.armed[u / 64] |= 1ULL << (u % 64);
	}
}

/*
 * A read's answer: what is stored, but each armed unit it covers with a
 * bit flipped in the copy sent, once. The data itself stays right, so a
 * second read of the unit is good: a fault on the way, not on the medium.
 */
static void read_reply(fuse_req_t req, uint64_t off, uint64_t n)
{
	unsigned char *copy = NULL;
	uint64_t u, at;

	for (u = off / UNIT; n && d.nflaky && u <= (off + n - 1) / UNIT; u++) {
		if (!(d.armed[u / 64] & (1ULL << (u % 64))))
			continue;
		if (!copy) {
			copy = malloc(n);
			if (!copy)
				break;
			memcpy(copy, d.live + off, n);
		}
		/* Mid-unit, where a flip reads as one, not as a header. */
		at = u * UNIT + UNIT / 2;
		at = at >= off && at < off + n ? at - off :
		     u * UNIT > off ? u * UNIT - off : 0;
		copy[at] ^= 0x10;
		d.armed[u / 64] &= ~(1ULL << (u % 64));
		d.flipped++;
	}
	fuse_reply_buf(req, copy ? (const char *)copy :
		       n ? (const char *)d.live + off : NULL, n);
	free(copy);
}

/* Answers one request of the disk as the disk stands now; d.lock held. */
static void answer(fuse_req_t req, int op, uint64_t off, size_t len,
		   const void *buf)
{
	uint64_t n;
	int i;

	switch (op) {
	case OP_READ:
		if (eio_hit(off, len, HIT_READ)) {
			d.errors++;
			fuse_reply_err(req, EIO);
			return;
		}
		n = off >= d.size ? 0 : d.size - off;
		if (n > len)
			n = len;
		d.reads++;
		d.read_bytes += n;
		watched(OP_READ, off, len);
		read_reply(req, off, n);
		return;
	case OP_WRITE:
		if (eio_hit(off, len, HIT_WRITE)) {
			d.errors++;
			fuse_reply_err(req, EIO);
			return;
		}
		/* A shrunk disk does not grow back by being written. */
		if (off > d.size || len > d.size - off) {
			d.errors++;
			fuse_reply_err(req, ENOSPC);
			return;
		}
		d.writes++;
		d.write_bytes += len;
		watched(OP_WRITE, off, len);
		for (i = 0; i < d.nhold; i++)
			d.hold[i].arg = 0;
		if (d.drop) {
			d.dropped_bytes += len;
		} else if (len) {
			memcpy(d.live + off, buf, len);
			if (d.cache != CACHE_OFF)
				mark_dirty(off, len);
			arm(off, len);
		}
		fuse_reply_write(req, len);
		return;
	case OP_FSYNC:
		d.flushes++;
		if (d.cache == CACHE_ON)
			settle(d.durable, d.live);
		/* The disk as the Nth flush left it: a pass, exactly. */
		if (d.snap_at && d.flushes == d.snap_at &&
		    (d.snap || (d.snap = map(d.cap)))) {
			memcpy(d.snap, d.live, d.size);
			d.snap_size = d.size;
			d.snap_at = 0;
		}
		fuse_reply_err(req, 0);
		return;
	case OP_DISCARD:
		/* A discard (a loop device's punched hole) zeros, or lies. */
		if (off > d.size || len > d.size - off) {
			d.errors++;
			fuse_reply_err(req, ENOSPC);
			return;
		}
		d.discards++;
		if (d.discard_keep) {
			d.discard_kept_bytes += len;
		} else if (len) {
			memset(d.live + off, 0, len);
			if (d.cache != CACHE_OFF)
				mark_dirty(off, len);
		}
		d.discarded_bytes += len;
		fuse_reply_err(req, 0);
		return;
	case OP_GETATTR: {
		struct stat st;

		memset(&st, 0, sizeof(st));
		st.st_ino = INO_DISK;
		st.st_mode = S_IFREG | 0600;
		st.st_nlink = 1;
		st.st_size = (off_t)d.size;
		st.st_blocks = st.st_size / 512;
		fuse_reply_attr(req, &st, 0);
		return;
	}
	}
}

static bool due(const struct held *h, const struct timespec *now)
{
	return h->due.tv_sec < now->tv_sec ||
	       (h->due.tv_sec == now->tv_sec && h->due.tv_nsec <= now->tv_nsec);
}

/*
 * Answers held requests once they are due and the disk is not hung, in the
 * order they came. A thread of its own, so that holding a request blocks
 * nothing: the FUSE loop goes on serving MNT/ctl. On quit it answers all.
 */
static void *replier(void *arg)
{
	struct timespec now, next;
	struct held **pp, *h;
	bool timing;

	(void)arg;
	pthread_mutex_lock(&d.lock);
	for (;;) {
		if (!d.head && d.quit)
			break;
		if (!d.head || (d.hang && !d.quit)) {
			pthread_cond_wait(&d.wake, &d.lock);
			continue;
		}
		clock_gettime(CLOCK_MONOTONIC, &now);
		timing = false;
		for (pp = &d.head; (h = *pp); pp = &h->next) {
			if (d.quit || (!h->hold && due(h, &now)))
				break;
			if (!h->hold && (!timing || due(h, &next))) {
				next = h->due;
				timing = true;
			}
		}
		/* Only held ones: nothing is due before a resume. */
		if (!h && !timing) {
			pthread_cond_wait(&d.wake, &d.lock);
			continue;
		}
		if (!h) {
			pthread_cond_timedwait(&d.wake, &d.lock, &next);
			continue;
		}
		*pp = h->next;
		if (!*pp)
			d.tail = pp;
		d.pending--;
		answer(h->req, h->op, h->off, h->len, h->data);
		free(h);
	}
	pthread_mutex_unlock(&d.lock);
	return NULL;
}

/* Every read, write and flush of the disk comes here. */
static void disk_request(fuse_req_t req, int op, uint64_t off, size_t len,
			 const char *buf)
{
	unsigned int ms;
	struct held *h;
	bool held;

	pthread_mutex_lock(&d.lock);
	ms = op == OP_FSYNC || op == OP_GETATTR ? 0 : slow_ms(op, off, len);
	if ((op == OP_FSYNC && d.hang_at_flush) ||
	    (op == OP_DISCARD && d.hang_at_discard) ||
	    (op == OP_READ && d.hang_at_read && len == d.hang_at_read)) {
		d.hang = true;
		d.hang_at_flush = false;
		d.hang_at_discard = false;
		d.hang_at_read = 0;
	}
	held = hold_hit(op, off, len);
	if (ms)
		d.delayed++;
	if (!(op == OP_GETATTR ? d.hang_attr : d.hang) && !ms && !held) {
		answer(req, op, off, len, buf);
		goto out;
	}
	/* The buffer is libfuse's and is reused once we return. */
	h = malloc(sizeof(*h) + (op == OP_WRITE ? len : 0));
	if (!h) {
		d.errors++;
		fuse_reply_err(req, ENOMEM);
		goto out;
	}
	h->next = NULL;
	h->hold = held;
	h->req = req;
	h->op = op;
	h->off = off;
	h->len = len;
	if (op == OP_WRITE)
		memcpy(h->data, buf, len);
	clock_gettime(CLOCK_MONOTONIC, &h->due);
	h->due.tv_sec += ms / 1000;
	h->due.tv_nsec += (long)(ms % 1000) * 1000000;
	if (h->due.tv_nsec >= 1000000000) {
		h->due.tv_sec++;
		h->due.tv_nsec -= 1000000000;
	}
	*d.tail = h;
	d.tail = &h->next;
	d.pending++;
	pthread_cond_signal(&d.wake);
out:
	pthread_mutex_unlock(&d.lock);
}

static int cache_start(int mode)
{
	if (!d.durable) {
		d.durable = map(d.cap);
		if (!d.durable)
			return -ENOMEM;
		memcpy(d.durable, d.live, d.size);
	}
	d.cache = mode;
	return 0;
}

static void cache_stop(void)
{
	/* live already holds what was cached: it simply becomes durable. */
	if (d.durable) {
		munmap(d.durable, d.cap);
		d.durable = NULL;
	}
	memset(d.dirty, 0, (d.cap / SECTOR + 63) / 64 * 8);
	d.ndirty = 0;
	d.cache = CACHE_OFF;
}

static int add_range(struct range *t, int *n, char **w, unsigned int kind,
		     unsigned int arg)
{
	struct range r;

	memset(&r, 0, sizeof(r));
	if (parse_num(w[1], &r.off) || parse_num(w[2], &r.len) || !r.len ||
	    r.off + r.len < r.off)
		return -EINVAL;
	if (*n == NRANGES)
		return -ENOSPC;
	r.kind = kind;
	r.arg = arg;
	t[(*n)++] = r;
	return 0;
}

/* "read", "write" or "both" as HIT_* bits; 0 for anything else. */
static unsigned int hit_kind(const char *s)
{
	if (!strcmp(s, "read"))
		return HIT_READ;
	if (!strcmp(s, "write"))
		return HIT_WRITE;
	if (!strcmp(s, "both"))
		return HIT_READ | HIT_WRITE;
	return 0;
}

static int on_off(const char *s, bool *v)
{
	if (!strcmp(s, "on"))
		*v = true;
	else if (!strcmp(s, "off"))
		*v = false;
	else
		return -EINVAL;
	return 0;
}

/* Carries out one command line (words w[0..n-1]); d.lock held. */
static int command(char **w, int n)
{
	uint64_t v;

	if (n == 2 && !strcmp(w[0], "drop"))
		return on_off(w[1], &d.drop);
	if (n == 2 && !strcmp(w[0], "discard")) {
		if (strcmp(w[1], "keep") && strcmp(w[1], "zero"))
			return -EINVAL;
		d.discard_keep = !strcmp(w[1], "keep");
		return 0;
	}
	if (n == 2 && !strcmp(w[0], "cache")) {
		if (!strcmp(w[1], "on"))
			return cache_start(CACHE_ON);
		if (!strcmp(w[1], "lie"))
			return cache_start(CACHE_LIE);
		if (!strcmp(w[1], "off")) {
			cache_stop();
			return 0;
		}
		return -EINVAL;
	}
	if (n == 1 && !strcmp(w[0], "powercut")) {
		if (d.durable)
			settle(d.live, d.durable);
		return 0;
	}
	if (n == 3 && !strcmp(w[0], "snapshot") && !strcmp(w[1], "at-flush")) {
		char *end;
		unsigned long long k = strtoull(w[2], &end, 10);

		if (!k || *end)
			return -EINVAL;
		d.snap_at = d.flushes + k;
		return 0;
	}
	if (n == 1 && !strcmp(w[0], "snapshot")) {
		if (!d.snap && !(d.snap = map(d.cap)))
			return -ENOMEM;
		memcpy(d.snap, d.live, d.size);
		d.snap_size = d.size;
		return 0;
	}
	if (n == 1 && !strcmp(w[0], "revert")) {
		if (!d.snap)
			return -ENOENT;
		memcpy(d.live, d.snap, d.snap_size);
		if (d.durable)
			memcpy(d.durable, d.snap, d.snap_size);
		memset(d.dirty, 0, (d.cap / SECTOR + 63) / 64 * 8);
		d.ndirty = 0;
		d.size = d.snap_size;
		return 0;
	}
	if (n == 2 && !strcmp(w[0], "shrink")) {
		if (parse_num(w[1], &v) || v > d.size || v % SECTOR)
			return -EINVAL;
		d.size = v;
		return 0;
	}
	if (n == 2 && !strcmp(w[0], "eio") && !strcmp(w[1], "clear")) {
		d.neio = 0;
		return 0;
	}
	if ((n == 3 || n == 4) && !strcmp(w[0], "eio")) {
		unsigned int kind = hit_kind(n == 4 ? w[3] : "both");

		if (!kind)
			return -EINVAL;
		return add_range(d.eio, &d.neio, w, kind, 0);
	}
	if (n == 2 && !strcmp(w[0], "slow") && !strcmp(w[1], "clear")) {
		d.nslow = 0;
		return 0;
	}
	if ((n == 4 || n == 5) && !strcmp(w[0], "slow")) {
		unsigned int kind = hit_kind(n == 5 ? w[4] : "both");

		if (!kind || parse_num(w[3], &v) || !v || v > 3600000)
			return -EINVAL;
		return add_range(d.slow, &d.nslow, w, kind, (unsigned int)v);
	}
	if (n == 2 && !strcmp(w[0], "flaky") && !strcmp(w[1], "clear")) {
		d.nflaky = 0;
		memset(d.armed, 0, (d.cap / UNIT + 63) / 64 * 8);
		return 0;
	}
	if (n == 3 && !strcmp(w[0], "flaky"))
		return add_range(d.flaky, &d.nflaky, w, HIT_READ, 0);
	if (n == 1 && !strcmp(w[0], "hang")) {
		d.hang = true;
		return 0;
	}
	if (n == 2 && !strcmp(w[0], "hang") && !strcmp(w[1], "at-discard")) {
		d.hang_at_discard = true;
		return 0;
	}
	if (n == 2 && !strcmp(w[0], "hang") && !strcmp(w[1], "at-flush")) {
		d.hang_at_flush = true;
		return 0;
	}
	if (n == 3 && !strcmp(w[0], "hang") && !strcmp(w[1], "at-read")) {
		if (parse_num(w[2], &v) || !v)
			return -EINVAL;
		d.hang_at_read = v;
		return 0;
	}
	if (n == 2 && !strcmp(w[0], "hang") && !strcmp(w[1], "all")) {
		d.hang = true;
		d.hang_attr = true;
		return 0;
	}
	if (n >= 3 && !strcmp(w[0], "hold")) {
		unsigned int kind = hit_kind(n >= 4 ? w[3] : "both");
		bool after = n == 5 && !strcmp(w[4], "after-write");

		if (!kind || (n == 5 && !after))
			return -EINVAL;
		return add_range(d.hold, &d.nhold, w, kind, after);
	}
	if (n == 2 && !strcmp(w[0], "watch") && !strcmp(w[1], "clear")) {
		d.nwatch = 0;
		return 0;
	}
	if (n == 3 && !strcmp(w[0], "watch")) {
		int ret = add_range(d.watch, &d.nwatch, w, HIT_READ, 0);

		if (!ret) {
			d.watch_reads[d.nwatch - 1] = 0;
			d.watch_writes[d.nwatch - 1] = 0;
			d.watch_first[d.nwatch - 1] = 0;
		}
		return ret;
	}
	if (n == 1 && !strcmp(w[0], "resume")) {
		struct held *h;

		for (h = d.head; h; h = h->next)
			h->hold = false;
		d.nhold = 0;
		d.hang = false;
		d.hang_attr = false;
		d.hang_at_flush = false;
		d.hang_at_discard = false;
		d.hang_at_read = 0;
		pthread_cond_broadcast(&d.wake);
		return 0;
	}
	return -EINVAL;
}

static int ctl_write(const char *buf, size_t size)
{
	char line[256], *w[5], *p, *save;
	int n = 0, ret;

	if (size && buf[size - 1] == '\n')
		size--;
	/* One command a write: a second line would be half carried out. */
	if (size >= sizeof(line) || memchr(buf, '\n', size) ||
	    memchr(buf, '\0', size))
		return -EINVAL;
	memcpy(line, buf, size);
	line[size] = '\0';
	for (p = strtok_r(line, " \t", &save); p;
	     p = strtok_r(NULL, " \t", &save)) {
		if (n == 5)
			return -EINVAL;
		w[n++] = p;
	}
	if (!n)
		return -EINVAL;
	pthread_mutex_lock(&d.lock);
	ret = command(w, n);
	pthread_mutex_unlock(&d.lock);
	return ret;
}

static const char *cache_name(int c)
{
	return c == CACHE_ON ? "on" : c == CACHE_LIE ? "lie" : "off";
}

/*
 * At most 64 range lines of 60 bytes, 16 watch lines of 110 and 15 short
 * ones: CTL_MAX fits.
 */
static char *ctl_text(void)
{
	static const char *const kinds[] = { "", "read", "write", "both" };
	char *t = malloc(CTL_MAX);
	size_t n = 0;
	int i;

	if (!t)
		return NULL;
	pthread_mutex_lock(&d.lock);
	n += snprintf(t + n, CTL_MAX - n,
		      "size %llu\ndrop %s\ncache %s\ndirty %llu\n",
		      (unsigned long long)d.size, d.drop ? "on" : "off",
		      cache_name(d.cache),
		      (unsigned long long)d.ndirty * SECTOR);
	if (d.snap)
		n += snprintf(t + n, CTL_MAX - n, "snapshot %llu\n",
			      (unsigned long long)d.snap_size);
	else
		n += snprintf(t + n, CTL_MAX - n, "snapshot none\n");
	n += snprintf(t + n, CTL_MAX - n, "hang %s\nhang_attr %s\npending %u\n",
		      d.hang ? "on" : "off", d.hang_attr ? "on" : "off",
		      d.pending);
	for (i = 0; i < d.neio; i++)
		n += snprintf(t + n, CTL_MAX - n, "eio %llu %llu %s\n",
			      (unsigned long long)d.eio[i].off,
			      (unsigned long long)d.eio[i].len,
			      kinds[d.eio[i].kind]);
	for (i = 0; i < d.nslow; i++)
		n += snprintf(t + n, CTL_MAX - n, "slow %llu %llu %u %s\n",
			      (unsigned long long)d.slow[i].off,
			      (unsigned long long)d.slow[i].len,
			      d.slow[i].arg, kinds[d.slow[i].kind]);
	for (i = 0; i < d.nflaky; i++)
		n += snprintf(t + n, CTL_MAX - n, "flaky %llu %llu\n",
			      (unsigned long long)d.flaky[i].off,
			      (unsigned long long)d.flaky[i].len);
	for (i = 0; i < d.nhold; i++)
		n += snprintf(t + n, CTL_MAX - n, "hold %llu %llu %s%s\n",
			      (unsigned long long)d.hold[i].off,
			      (unsigned long long)d.hold[i].len,
			      kinds[d.hold[i].kind],
			      d.hold[i].arg ? " after-write" : "");
	for (i = 0; i < d.nwatch; i++)
		n += snprintf(t + n, CTL_MAX - n, "watch %llu %llu reads %llu "
			      "writes %llu reads_before_write %llu\n",
			      (unsigned long long)d.watch[i].off,
			      (unsigned long long)d.watch[i].len,
			      (unsigned long long)d.watch_reads[i],
			      (unsigned long long)d.watch_writes[i],
			      (unsigned long long)d.watch_first[i]);
	n += snprintf(t + n, CTL_MAX - n,
		      "reads %llu\nread_bytes %llu\nwrites %llu\n"
		      "write_bytes %llu\ndropped_bytes %llu\nflushes %llu\n"
		      "errors %llu\nflipped %llu\ndiscards %llu\n"
		      "discarded_bytes %llu\ndiscard_kept_bytes %llu\n"
		      "delayed %llu\n",
		      (unsigned long long)d.reads,
		      (unsigned long long)d.read_bytes,
		      (unsigned long long)d.writes,
		      (unsigned long long)d.write_bytes,
		      (unsigned long long)d.dropped_bytes,
		      (unsigned long long)d.flushes,
		      (unsigned long long)d.errors,
		      (unsigned long long)d.flipped,
		      (unsigned long long)d.discards,
		      (unsigned long long)d.discarded_bytes,
		      (unsigned long long)d.discard_kept_bytes,
		      (unsigned long long)d.delayed);
	pthread_mutex_unlock(&d.lock);
	return t;
}

static int stat_of(fuse_ino_t ino, struct stat *st)
{
	memset(st, 0, sizeof(*st));
	st->st_ino = ino;
	st->st_uid = getuid();
	st->st_gid = getgid();
	st->st_atim = st->st_mtim = st->st_ctim = d.born;
	st->st_blksize = 4096;
	switch (ino) {
	case INO_ROOT:
		st->st_mode = S_IFDIR | 0755;
		st->st_nlink = 2;
		return 0;
	case INO_DISK:
		st->st_mode = S_IFREG | 0600;
		st->st_nlink = 1;
		pthread_mutex_lock(&d.lock);
		st->st_size = d.size;
		pthread_mutex_unlock(&d.lock);
		st->st_blocks = st->st_size / 512;
		return 0;
	case INO_CTL:
		st->st_mode = S_IFREG | 0600;
		st->st_nlink = 1;
		return 0;
	}
	return -ENOENT;
}

static void ll_init(void *userdata, struct fuse_conn_info *conn)
{
	(void)userdata;
	/* Cached writes would reach us late, or never if dropped here. */
	conn->want &= ~FUSE_CAP_WRITEBACK_CACHE;
}

static void ll_lookup(fuse_req_t req, fuse_ino_t parent, const char *name)
{
	struct fuse_entry_param e;

	memset(&e, 0, sizeof(e));
	if (parent != INO_ROOT)
		goto none;
	if (!strcmp(name, "disk"))
		e.ino = INO_DISK;
	else if (!strcmp(name, "ctl"))
		e.ino = INO_CTL;
	else
		goto none;
	stat_of(e.ino, &e.attr);
	/* The names never change; the size does (shrink, revert). */
	e.entry_timeout = 3600;
	e.attr_timeout = 0;
	fuse_reply_entry(req, &e);
	return;
none:
	fuse_reply_err(req, ENOENT);
}

static void ll_getattr(fuse_req_t req, fuse_ino_t ino,
		       struct fuse_file_info *fi)
{
	struct stat st;
	int ret;

	(void)fi;
	/* Held under hang all, answered as the disk stands then. */
	if (ino == INO_DISK) {
		disk_request(req, OP_GETATTR, 0, 0, NULL);
		return;
	}
	ret = stat_of(ino, &st);
	if (ret)
		fuse_reply_err(req, -ret);
	else
		fuse_reply_attr(req, &st, 0);
}

/*
 * Times and modes are ignored, so that `echo cmd >MNT/ctl` (O_TRUNC) works.
 * The disk's size changes only by shrink and revert: a truncate that would
 * change it is refused, not taken for a shrink by mistake.
 */
static void ll_setattr(fuse_req_t req, fuse_ino_t ino, struct stat *attr,
		       int to_set, struct fuse_file_info *fi)
{
	struct stat st;
	int ret = stat_of(ino, &st);

	(void)fi;
	if (!ret && ino == INO_DISK && (to_set & FUSE_SET_ATTR_SIZE) &&
	    attr->st_size != st.st_size)
		ret = -EPERM;
	if (ret)
		fuse_reply_err(req, -ret);
	else
		fuse_reply_attr(req, &st, 0);
}

static void ll_open(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	/* See the opening comment: no page cache between the loop and us. */
	fi->direct_io = 1;
	fi->keep_cache = 0;
	fi->fh = 0;
	if (ino == INO_CTL && (fi->flags & O_ACCMODE) != O_WRONLY) {
		/* One state per open, so a reader in pieces sees one whole. */
		char *t = ctl_text();

		if (!t) {
			fuse_reply_err(req, ENOMEM);
			return;
		}
		fi->fh = (uintptr_t)t;
	} else if (ino != INO_DISK && ino != INO_CTL) {
		fuse_reply_err(req, EISDIR);
		return;
	}
	fuse_reply_open(req, fi);
}

static void ll_release(fuse_req_t req, fuse_ino_t ino,
		       struct fuse_file_info *fi)
{
	(void)ino;
	free((char *)(uintptr_t)fi->fh);
	fuse_reply_err(req, 0);
}

static void ll_read(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off,
		    struct fuse_file_info *fi)
{
	const char *t = (const char *)(uintptr_t)fi->fh;
	size_t len;

	if (ino == INO_DISK) {
		disk_request(req, OP_READ, off, size, NULL);
		return;
	}
	len = t ? strlen(t) : 0;
	if ((uint64_t)off >= len)
		fuse_reply_buf(req, NULL, 0);
	else
		fuse_reply_buf(req, t + off,
			       size < len - off ? size : len - off);
}

static void ll_write(fuse_req_t req, fuse_ino_t ino, const char *buf,
		     size_t size, off_t off, struct fuse_file_info *fi)
{
	int ret;

	(void)fi;
	if (ino == INO_DISK) {
		disk_request(req, OP_WRITE, off, size, buf);
		return;
	}
	ret = ctl_write(buf, size);
	if (ret)
		fuse_reply_err(req, -ret);
	else
		fuse_reply_write(req, size);
}

static void ll_fsync(fuse_req_t req, fuse_ino_t ino, int datasync,
		     struct fuse_file_info *fi)
{
	(void)datasync;
	(void)fi;
	if (ino == INO_DISK)
		disk_request(req, OP_FSYNC, 0, 0, NULL);
	else
		fuse_reply_err(req, 0);
}

/* A close is not a flush of the disk: only fsync is. */
static void ll_flush(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	(void)ino;
	(void)fi;
	fuse_reply_err(req, 0);
}

static void ll_readdir(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off,
		       struct fuse_file_info *fi)
{
	static const char *const names[] = { ".", "..", "disk", "ctl" };
	static const fuse_ino_t inos[] = { INO_ROOT, INO_ROOT, INO_DISK,
					   INO_CTL };
	char buf[512];
	size_t n = 0, e;
	struct stat st;
	int i;

	(void)fi;
	if (ino != INO_ROOT) {
		fuse_reply_err(req, ENOTDIR);
		return;
	}
	for (i = off; i < 4; i++) {
		memset(&st, 0, sizeof(st));
		st.st_ino = inos[i];
		st.st_mode = i < 2 ? S_IFDIR : S_IFREG;
		e = fuse_add_direntry(req, buf + n, sizeof(buf) - n, names[i],
				      &st, i + 1);
		if (e > sizeof(buf) - n || n + e > size)
			break;
		n += e;
	}
	fuse_reply_buf(req, buf, n);
}

/*
 * A hole punched in MNT/disk is what a discard of the loop device over it
 * becomes: the range zeroed (what a disk that promises zeros does), or
 * acknowledged and kept (discard keep). Any other fallocate is refused.
 */
static void ll_fallocate(fuse_req_t req, fuse_ino_t ino, int mode,
			 off_t off, off_t len, struct fuse_file_info *fi)
{
	(void)fi;
	if (ino != INO_DISK || !(mode & FALLOC_FL_PUNCH_HOLE) || off < 0 ||
	    len < 0) {
		fuse_reply_err(req, EOPNOTSUPP);
		return;
	}
	disk_request(req, OP_DISCARD, (uint64_t)off, (uint64_t)len, NULL);
}

static const struct fuse_lowlevel_ops ops = {
	.init = ll_init,
	.lookup = ll_lookup,
	.getattr = ll_getattr,
	.setattr = ll_setattr,
	.open = ll_open,
	.read = ll_read,
	.write = ll_write,
	.flush = ll_flush,
	.release = ll_release,
	.fsync = ll_fsync,
	.fallocate = ll_fallocate,
	.readdir = ll_readdir,
};

static int disk_init(uint64_t size)
{
	pthread_condattr_t ca;
	int ret = -ENOMEM;

	d.cap = d.size = size;
	d.tail = &d.head;
	clock_gettime(CLOCK_REALTIME, &d.born);
	d.live = map(size);
	if (!d.live)
		goto err;
	d.dirty = calloc((size / SECTOR + 63) / 64, 8);
	if (!d.dirty)
		goto err_live;
	d.armed = calloc((size / UNIT + 63) / 64 + 1, 8);
	if (!d.armed) {
		free(d.dirty);
		goto err_live;
	}
	pthread_mutex_init(&d.lock, NULL);
	/* Held requests fall due by the monotonic clock, as they are timed. */
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&d.wake, &ca);
	pthread_condattr_destroy(&ca);
	return 0;
err_live:
	munmap(d.live, size);
err:
	return ret;
}

/*
 * The replier must not take the signals that end the FUSE loop: delivered
 * to it, they would not interrupt the loop's read of /dev/fuse.
 */
static int start_replier(pthread_t *t)
{
	sigset_t set, old;
	int ret;

	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGHUP);
	pthread_sigmask(SIG_BLOCK, &set, &old);
	ret = -pthread_create(t, NULL, replier, NULL);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return ret;
}

static void stop_replier(pthread_t t)
{
	pthread_mutex_lock(&d.lock);
	d.quit = true;
	pthread_cond_broadcast(&d.wake);
	pthread_mutex_unlock(&d.lock);
	pthread_join(t, NULL);
}

static const char usage[] =
	"usage: lyingdisk MNT [--size SIZE] [--pidfile FILE] [--foreground]"
	" [--debug]\n"
	"Serves MNT/disk (SIZE bytes in memory, default 64M) that lies as\n"
	"told through MNT/ctl; see tests/lib/lyingdisk.c.\n";

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "size", required_argument, NULL, 's' },
		{ "pidfile", required_argument, NULL, 'p' },
		{ "foreground", no_argument, NULL, 'f' },
		{ "debug", no_argument, NULL, 'd' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	char *fargv[] = { argv[0], "-o", "fsname=lyingdisk,subtype=lyingdisk",
			  "-d", NULL };
	struct fuse_args args = FUSE_ARGS_INIT(3, fargv);
	const char *mnt = NULL, *pidpath = NULL;
	bool foreground = false;
	struct fuse_session *se;
	FILE *pidfile = NULL;
	uint64_t size = 64 << 20;
	int c, ret, ready[2];
	pthread_t rep;
	pid_t pid;

	while ((c = getopt_long(argc, argv, "s:p:fdh", longopts, NULL)) != -1) {
		switch (c) {
		case 's':
			if (parse_num(optarg, &size) || !size ||
			    size % SECTOR) {
				fprintf(stderr, "lyingdisk: bad size %s\n",
					optarg);
				return 2;
			}
			break;
		case 'p':
			pidpath = optarg;
			break;
		case 'f':
			foreground = true;
			break;
		case 'd':
			args.argc = 4;
			break;
		case 'h':
			fputs(usage, stdout);
			return 0;
		default:
			fputs(usage, stderr);
			return 2;
		}
	}
	if (optind != argc - 1) {
		fputs(usage, stderr);
		return 2;
	}
	mnt = argv[optind];
	if (pidpath && !(pidfile = fopen(pidpath, "w"))) {
		fprintf(stderr, "lyingdisk: cannot open %s: %s\n", pidpath,
			strerror(errno));
		return 1;
	}
	ret = disk_init(size);
	if (ret) {
		fprintf(stderr, "lyingdisk: cannot hold %llu bytes: %s\n",
			(unsigned long long)size, strerror(-ret));
		return 1;
	}
	se = fuse_session_new(&args, &ops, sizeof(ops), NULL);
	fuse_opt_free_args(&args);
	if (!se)
		return 1;
	if (fuse_session_mount(se, mnt)) {
		fuse_session_destroy(se);
		return 1;
	}
	if (!foreground) {
		char ok;

		if (pipe(ready) || (pid = fork()) < 0) {
			perror("lyingdisk: cannot start the daemon");
			goto err_mount;
		}
		if (pid > 0) {
			/* _exit: the session is the daemon's to end. */
			close(ready[1]);
			if (pidfile) {
				fprintf(pidfile, "%ld\n", (long)pid);
				fclose(pidfile);
			}
			if (read(ready[0], &ok, 1) != 1) {
				fprintf(stderr, "lyingdisk: the daemon did "
					"not start\n");
				_exit(1);
			}
			_exit(0);
		}
		close(ready[0]);
		setsid();
	} else if (pidfile) {
		fprintf(pidfile, "%ld\n", (long)getpid());
	}
	if (pidfile)
		fclose(pidfile);
	if (fuse_set_signal_handlers(se))
		goto err_mount;
	ret = start_replier(&rep);
	if (ret) {
		fprintf(stderr, "lyingdisk: cannot start a thread: %s\n",
			strerror(-ret));
		goto err_signals;
	}
	if (!foreground) {
		/* Quiet from now on, and holding no test's stdout open. */
		int null = open("/dev/null", O_RDWR);

		if (null >= 0) {
			dup2(null, 0);
			dup2(null, 1);
			dup2(null, 2);
			if (null > 2)
				close(null);
		}
		/* The parent sees a closed pipe as a failure to start. */
		if (write(ready[1], "", 1) != 1)
			goto err_replier;
		close(ready[1]);
	}
	ret = fuse_session_loop(se);
	/* A resume: everything held is answered before we go. */
	stop_replier(rep);
	fuse_session_unmount(se);
	fuse_remove_signal_handlers(se);
	fuse_session_destroy(se);
	return ret < 0 ? 1 : 0;
err_replier:
	stop_replier(rep);
err_signals:
	fuse_remove_signal_handlers(se);
err_mount:
	fuse_session_unmount(se);
	fuse_session_destroy(se);
	return 1;
}
