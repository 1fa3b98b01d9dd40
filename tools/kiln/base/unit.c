/* SPDX-License-Identifier: MIT */
/*
 * Description: the 4 KiB unit (see unit.h): fill, the fast check, and the
 * slow classification of a bad unit against the one that should be there;
 * and counts of them (and of anything else) said as "1 bad unit".
 *
 * The CRC of a unit is never computed over its bytes on the write path.
 * CRC32C is affine over GF(2): for a fixed length, crc(a ^ b) = crc(a) ^
 * crc(b) ^ crc(0). A unit is header || (base ^ seed repeated), so its CRC is
 * shift(crc(header), payload length) ^ crc(base payload) ^ crc(seed
 * pattern), and the last term is a sum over the seed's 64 bits, looked up a
 * byte at a time. The tests check the result against crc32c() of the bytes.
 */
#include <emmintrin.h>
#include <immintrin.h>
#include <endian.h>
#include <stdio.h>
#include <string.h>

#include "base/crc32c.h"
#include "base/unit.h"

static const unsigned char magic[8] = {'K', 'I', 'L', 'N', 'U', 'N', 'I', 'T'};

#define PAYLOAD_LEN (UNIT_CRC_AT - UNIT_HEADER)

static const char *const class_names[UNIT_CLASSES] = {
	[UNIT_GOOD] = "good",
	[UNIT_BITFLIP] = "bitflip",
	[UNIT_ZEROED] = "zeroed",
	[UNIT_STALE] = "stale",
	[UNIT_MISDIRECTED] = "misdirected",
	[UNIT_TORN] = "torn",
	[UNIT_FOREIGN] = "foreign",
};

const char *unit_class_name(enum unit_class c)
{
	return c < UNIT_CLASSES ? class_names[c] : "unknown";
}

/* splitmix64's finalizer: a bijection that spreads every input bit. */
uint64_t unit_mix(uint64_t x)
{
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ull;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebull;
	x ^= x >> 31;
	return x;
}

uint64_t unit_ident_hash(const char *identity)
{
	uint64_t h = 0xcbf29ce484222325ull;	/* FNV-1a, then mixed */

	for (; *identity; identity++) {
		h ^= (unsigned char)*identity;
		h *= 0x100000001b3ull;
	}
	return unit_mix(h);
}

static uint64_t seed_of(struct unit_key k)
{
	uint64_t h = unit_mix(k.run_id ^ 0x6b696c6e2d736565ull);

	h = unit_mix(h ^ k.ident);
	h = unit_mix(h ^ k.offset);
	return unit_mix(h ^ k.pass);
}

static uint64_t get64(const unsigned char *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return le64toh(v);
}

static uint32_t get32(const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return le32toh(v);
}

static uint16_t get16(const unsigned char *p)
{
	uint16_t v;

	memcpy(&v, p, 2);
	return le16toh(v);
}

/* The header as eight little-endian words. */
static void header_words(uint64_t w[8], struct unit_key k, uint64_t seed)
{
	uint64_t m;

	memcpy(&m, magic, 8);
	w[0] = m;
	w[1] = htole64((uint64_t)UNIT_VERSION | (uint64_t)UNIT_HEADER << 16 |
		       (uint64_t)UNIT_SIZE << 32);
	w[2] = htole64(k.run_id);
	w[3] = htole64(k.ident);
	w[4] = htole64(k.offset);
	w[5] = htole64((uint64_t)k.pass);
	w[6] = htole64(seed);
	w[7] = 0;
}

/* The raw (not inverted) CRC of len bytes: crc(M) ^ crc(zeros of len). */
static uint32_t raw_crc(const void *p, size_t len)
{
	static const unsigned char zeros[UNIT_SIZE];

	return crc32c(0, p, len) ^ crc32c(0, zeros, len);
}

static uint32_t lookup4(const uint32_t tab[4][256], uint32_t v)
{
	return tab[0][v & 0xff] ^ tab[1][(v >> 8) & 0xff] ^
	       tab[2][(v >> 16) & 0xff] ^ tab[3][v >> 24];
}

static uint32_t seed_crc(const struct unit_ctx *ctx, uint64_t s)
{
	uint32_t c = 0;
	int i;

	for (i = 0; i < 8; i++)
		c ^= ctx->seed_crc[i][(s >> (8 * i)) & 0xff];
	return c;
}

static uint32_t unit_crc(const struct unit_ctx *ctx, const uint64_t hdr[8],
			 uint64_t seed)
{
	uint32_t h = crc32c(0, hdr, UNIT_HEADER) ^ ctx->header_zero_crc;

	return lookup4(ctx->header_shift, h) ^ ctx->crc_const ^
	       seed_crc(ctx, seed);
}

void unit_ctx_init(struct unit_ctx *ctx, uint64_t run_id)
{
	static const unsigned char zeros[UNIT_SIZE];
	unsigned char pat[UNIT_SIZE];
	uint32_t basis[64];
	uint64_t x = unit_mix(run_id ^ 0x6b696c6e2d626173ull);
	int i, j, b;

	memset(ctx, 0, sizeof(*ctx));
	ctx->run_id = run_id;
	for (i = 0; i < UNIT_SIZE / 8; i++) {
		x += 0x9e3779b97f4a7c15ull;
		ctx->base[i] = unit_mix(x);
	}

	/* The raw CRC of the payload pattern of each single seed bit. */
	for (b = 0; b < 64; b++) {
		uint64_t s = htole64(1ull << b);

		for (i = 0; i < UNIT_SIZE; i += 8)
			memcpy(pat + i, &s, 8);
		basis[b] = raw_crc(pat + UNIT_HEADER, PAYLOAD_LEN);
	}
	for (i = 0; i < 8; i++)
		for (j = 0; j < 256; j++)
			for (b = 0; b < 8; b++)
				if (j & (1 << b))
					ctx->seed_crc[i][j] ^= basis[8 * i + b];

	/* Moving a raw CRC past the payload: a state s followed by zeros. */
	for (b = 0; b < 32; b++) {
		uint32_t s = htole32(1u << b);

		memset(pat, 0, sizeof(pat));
		memcpy(pat, &s, 4);
		basis[b] = raw_crc(pat, PAYLOAD_LEN);
	}
	for (i = 0; i < 4; i++)
		for (j = 0; j < 256; j++)
			for (b = 0; b < 8; b++)
				if (j & (1 << b))
					ctx->header_shift[i][j] ^=
						basis[8 * i + b];

	ctx->crc_const = raw_crc((unsigned char *)ctx->base + UNIT_HEADER,
				 PAYLOAD_LEN) ^ crc32c(0, zeros, UNIT_CRC_AT);
	ctx->header_zero_crc = crc32c(0, zeros, UNIT_HEADER);
	/* The CRC's AVX-512 way needs what the wide fill does, and more. */
	ctx->wide = crc32c_supported("vpclmul");
}

/*
 * One unit. The CRC depends on the header and seed only, so every cache
 * line of the unit can be written once, whole. I/O buffers (stream) are
 * written with non-temporal stores: they are read next by the device or
 * the kernel, not by us, and skipping the read-for-ownership of each line
 * halves the memory traffic of a write pass.
 */
static void fill_one(const struct unit_ctx *ctx, unsigned char *u,
		     struct unit_key k, int stream)
{
	uint64_t seed = seed_of(k), hdr[8], last[2];
	__m128i s = _mm_set1_epi64x((long long)seed),
		*out = (__m128i *)(void *)u;
	const __m128i *base = (const __m128i *)(const void *)ctx->base;
	uint32_t crc;
	int i;

	header_words(hdr, k, seed);
	crc = unit_crc(ctx, hdr, seed);
	/* The payload words are little-endian by construction on x86-64. */
	last[0] = ctx->base[UNIT_SIZE / 8 - 2] ^ seed;
	last[1] = ((ctx->base[UNIT_SIZE / 8 - 1] ^ seed) & 0xffffffffull) |
		  (uint64_t)htole32(crc) << 32;
	if (stream) {
		for (i = 0; i < UNIT_HEADER / 16; i++)
			_mm_stream_si128(out + i, _mm_loadu_si128(
				(const __m128i *)(const void *)hdr + i));
		for (; i < UNIT_SIZE / 16 - 1; i++)
			_mm_stream_si128(
				out + i,
				_mm_xor_si128(_mm_load_si128(base + i), s));
		_mm_stream_si128(out + i, _mm_loadu_si128(
			(const __m128i *)(const void *)last));
		return;
	}
	memcpy(u, hdr, UNIT_HEADER);
	for (i = UNIT_HEADER / 16; i < UNIT_SIZE / 16 - 1; i++)
		_mm_storeu_si128(out + i,
				 _mm_xor_si128(_mm_load_si128(base + i), s));
	memcpy(u + UNIT_SIZE - 16, last, 16);
}

/*
 * One unit of a 64-byte aligned I/O buffer, a cache line a store: the
 * same bytes as fill_one()'s, in a quarter of its stores, which is most
 * of a write pass's CPU. The unit's first line is its header, its last
 * ends with the CRC.
 */
__attribute__((target("avx512f")))
static void fill_wide(const struct unit_ctx *ctx, unsigned char *u,
		      struct unit_key k)
{
	uint64_t seed = seed_of(k), hdr[8], last[8];
	const __m512i s = _mm512_set1_epi64((long long)seed);
	__m512i *out = (__m512i *)(void *)u;
	const unsigned char *base = (const unsigned char *)ctx->base;
	uint32_t crc;
	int i;

	header_words(hdr, k, seed);
	crc = unit_crc(ctx, hdr, seed);
	for (i = 0; i < 8; i++)
		last[i] = ctx->base[UNIT_SIZE / 8 - 8 + i] ^ seed;
	last[7] = (last[7] & 0xffffffffull) | (uint64_t)htole32(crc) << 32;
	_mm512_stream_si512(out, _mm512_loadu_si512(hdr));
	for (i = 1; i < UNIT_SIZE / 64 - 1; i++)
		_mm512_stream_si512(out + i, _mm512_xor_si512(
			_mm512_loadu_si512(base + 64 * i), s));
	_mm512_stream_si512(out + i, _mm512_loadu_si512(last));
}

void unit_fill(const struct unit_ctx *ctx, void *buf, size_t len,
	       struct unit_key key)
{
	unsigned char *p = buf;
	int stream = !((uintptr_t)buf & 15);
	size_t i;

	if (ctx->wide && !((uintptr_t)buf & 63)) {
		for (i = 0; i + UNIT_SIZE <= len; i += UNIT_SIZE) {
			fill_wide(ctx, p + i, key);
			key.offset += UNIT_SIZE;
		}
		_mm_sfence();
		return;
	}
	for (i = 0; i + UNIT_SIZE <= len; i += UNIT_SIZE) {
		fill_one(ctx, p + i, key, stream);
		key.offset += UNIT_SIZE;
	}
	/* Non-temporal stores are weakly ordered: make them visible first. */
	_mm_sfence();
}

static void fill_cached(const struct unit_ctx *ctx, void *buf,
			struct unit_key key)
{
	fill_one(ctx, buf, key, 0);
}

/*
 * The header names the key, the payload follows from the header (run id
 * and seed), and the stored CRC covers both: a unit whose header is the
 * expected one and whose CRC holds is what key wrote, unless 32 bits of
 * CRC collide by chance.
 */
int unit_good(const struct unit_ctx *ctx, const void *buf, struct unit_key key)
{
	const unsigned char *u = buf;
	uint64_t hdr[8];

	(void)ctx;
	header_words(hdr, key, seed_of(key));
	return !memcmp(u, hdr, UNIT_HEADER) &&
	       crc32c(0, u, UNIT_CRC_AT) == get32(u + UNIT_CRC_AT);
}

int unit_parse(const void *buf, struct unit_header *h)
{
	const unsigned char *u = buf;

	if (memcmp(u, magic, 8))
		return 0;
	h->version = get16(u + 8);
	h->header_size = get16(u + 10);
	h->unit_size = get32(u + 12);
	h->key.run_id = get64(u + 16);
	h->key.ident = get64(u + 24);
	h->key.offset = get64(u + 32);
	h->key.pass = get32(u + 40);
	h->seed = get64(u + 48);
	h->crc = get32(u + UNIT_CRC_AT);
	return h->version == UNIT_VERSION && h->header_size == UNIT_HEADER &&
	       h->unit_size == UNIT_SIZE &&
	       crc32c(0, u, UNIT_CRC_AT) == h->crc;
}

static int all_zero(const unsigned char *p, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (p[i])
			return 0;
	return 1;
}

void unit_classify(const struct unit_ctx *ctx, const void *buf,
		   struct unit_key key, struct unit_verdict *v)
{
	/*
	 * Torn by 512-byte pieces whatever the device's sector size: a 4Kn
	 * drive's write can still be cut inside a 4 KiB sector by a cache,
	 * a controller or a RAID layer, and a mixed unit is what it is.
	 */
	const unsigned sector = 512;
	const unsigned char *u = buf;
	uint64_t want[UNIT_SIZE / 8];
	const unsigned char *w = (const unsigned char *)want;
	struct unit_header h;
	unsigned s, i, nsec, exact = 0, heavy = 0, listed = 0;

	memset(v, 0, sizeof(*v));
	fill_cached(ctx, want, key);
	if (!memcmp(u, want, UNIT_SIZE)) {
		v->class = UNIT_GOOD;
		return;
	}
	if (all_zero(u, UNIT_SIZE)) {
		v->class = UNIT_ZEROED;
		v->sectors_bad = (1u << (UNIT_SIZE / sector)) - 1;
		return;
	}

	if (unit_parse(u, &h)) {
		v->found_valid = 1;
		v->found = h.key;
		if (h.key.ident != key.ident)
			v->class = h.key.run_id == key.run_id ?
					   UNIT_MISDIRECTED : UNIT_FOREIGN;
		else if (h.key.offset != key.offset)
			v->class = UNIT_MISDIRECTED;
		else
			v->class = UNIT_STALE;
		if (v->class != UNIT_STALE || h.key.pass != key.pass ||
		    h.key.run_id != key.run_id)
			return;
		/* Right key, valid CRC, different bytes: look closer. */
	}

	/* Count differing bits per sector: light damage is bit flips. */
	nsec = UNIT_SIZE / sector;
	for (s = 0; s < nsec; s++) {
		unsigned nbits = 0;

		for (i = s * sector; i < (s + 1) * sector; i++) {
			unsigned d = u[i] ^ w[i], b;

			if (!d)
				continue;
			nbits += __builtin_popcount(d);
			for (b = 0; b < 8; b++)
				if ((d & (1u << b)) && listed < UNIT_MAX_BITS)
					v->bits[listed++] =
						(uint16_t)(i * 8 + b);
		}
		v->nbits += nbits;
		if (!nbits)
			exact++;
		else
			v->sectors_bad |= 1u << s;
		/* Random data against random data differs in half its bits. */
		if (nbits > sector * 8 / 16)
			heavy++;
	}
	if (exact && heavy)
		v->class = UNIT_TORN;
	else if (heavy < nsec)
		v->class = UNIT_BITFLIP;
	else
		v->class = UNIT_FOREIGN;
	v->found_valid = 0;
}

char *unit_count(char *buf, size_t len, uint64_t n, const char *one,
		 const char *many)
{
	if (n == 1 || many)
		snprintf(buf, len, "%llu %s", (unsigned long long)n,
			 unit_plural(n, one, many));
	else
		snprintf(buf, len, "%llu %ss", (unsigned long long)n, one);
	return buf;
}

const char *unit_plural(uint64_t n, const char *one, const char *many)
{
	return n == 1 ? one : many;
}
