/* SPDX-License-Identifier: MIT */
/*
 * Description: CRC32C (Castagnoli), the checksum of every kiln unit.
 *
 * Verification reads every byte a burn-in moves, so the CRC is the hot loop
 * of a verify pass. Four implementations, chosen at run time from CPUID or
 * forced with KILN_CRC32C=portable|sse42|pclmul|vpclmul (the tests run each):
 *  - portable: slicing-by-8 tables; QEMU's default CPU has no SSE4.2.
 *  - sse42: the crc32 instruction on three interleaved streams, since one
 *    chain is bound by the instruction's 3-cycle latency, joined by shifting
 *    the earlier streams' CRCs over the later streams' length.
 *  - pclmul: carry-less multiply folding of four 128-bit lanes, 64 bytes a
 *    step; the last 16 bytes and the tail go through crc32 or the tables.
 *  - vpclmul: the same folding on four 512-bit registers (AVX-512), 256
 *    bytes a step.
 * Folding constants are x^n mod P computed at start-up from P, not copied
 * in, and every path is checked against the portable one by the tests.
 *
 * Internally the state is the raw register: crc32c(crc) = ~raw(~crc).
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "base/crc32c.h"

#if defined(__x86_64__)
#include <cpuid.h>
#include <immintrin.h>
#define KILN_X86 1
#endif

/* CRC32C's polynomial, bit-reflected (0x1EDC6F41 in normal order). */
#define POLY_REFLECTED 0x82f63b78u
#define POLY_NORMAL 0x11edc6f41ull

/* Length of each of the three interleaved crc32 streams. */
#define SSE42_BLOCK 1360

typedef uint32_t (*crc32c_fn)(uint32_t raw, const unsigned char *p,
			      size_t len);

static uint32_t slice8[8][256];
/* Raw CRC of a state followed by SSE42_BLOCK (1x, 2x) zero bytes, per byte. */
static uint32_t shift_block[2][4][256];

const char *const crc32c_names[] = { "portable", "sse42", "pclmul",
				     "vpclmul", NULL };

static pthread_once_t tables_once = PTHREAD_ONCE_INIT;
static crc32c_fn crc32c_impl;
static const char *crc32c_impl_name;
static int have_sse42, have_pclmul, have_vpclmul;

static uint64_t load64(const unsigned char *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static uint32_t portable(uint32_t s, const unsigned char *p, size_t len)
{
	while (len && ((uintptr_t)p & 7)) {
		s = (s >> 8) ^ slice8[0][(s ^ *p++) & 0xff];
		len--;
	}
	while (len >= 8) {
		uint64_t w = load64(p) ^ s;

		s = slice8[7][w & 0xff] ^ slice8[6][(w >> 8) & 0xff] ^
		    slice8[5][(w >> 16) & 0xff] ^ slice8[4][(w >> 24) & 0xff] ^
		    slice8[3][(w >> 32) & 0xff] ^ slice8[2][(w >> 40) & 0xff] ^
		    slice8[1][(w >> 48) & 0xff] ^ slice8[0][w >> 56];
		p += 8;
		len -= 8;
	}
	while (len--)
		s = (s >> 8) ^ slice8[0][(s ^ *p++) & 0xff];
	return s;
}

/* The raw state after feeding n zero bytes, the slow way (start-up only). */
static uint32_t zeros_slow(uint32_t s, size_t n)
{
	while (n--)
		s = (s >> 8) ^ slice8[0][s & 0xff];
	return s;
}

static uint32_t shift(uint32_t tab[4][256], uint32_t s)
{
	return tab[0][s & 0xff] ^ tab[1][(s >> 8) & 0xff] ^
	       tab[2][(s >> 16) & 0xff] ^ tab[3][s >> 24];
}

static void make_tables(void)
{
	uint32_t basis[32];
	int i, j, k, b;

	for (i = 0; i < 256; i++) {
		uint32_t c = i;

		for (j = 0; j < 8; j++)
			c = (c >> 1) ^ (c & 1 ? POLY_REFLECTED : 0);
		slice8[0][i] = c;
	}
	for (k = 1; k < 8; k++)
		for (i = 0; i < 256; i++)
			slice8[k][i] = (slice8[k - 1][i] >> 8) ^
				       slice8[0][slice8[k - 1][i] & 0xff];

	/* Shifting is linear: build each byte table from the 32 basis bits. */
	for (k = 0; k < 2; k++) {
		for (b = 0; b < 32; b++)
			basis[b] = zeros_slow(1u << b,
					      (size_t)SSE42_BLOCK * (k + 1));
		for (j = 0; j < 4; j++)
			for (i = 0; i < 256; i++) {
				uint32_t v = 0;

				for (b = 0; b < 8; b++)
					if (i & (1 << b))
						v ^= basis[8 * j + b];
				shift_block[k][j][i] = v;
			}
	}
}

#ifdef KILN_X86

/* x^n mod P in normal bit order, then reflected to the register's order. */
static uint32_t xpow_mod(unsigned n)
{
	uint64_t r = 1;
	uint32_t out = 0;
	int i;

	while (n--) {
		r <<= 1;
		if (r & (1ull << 32))
			r ^= POLY_NORMAL;
	}
	for (i = 0; i < 32; i++)
		if (r & (1ull << i))
			out |= 1u << (31 - i);
	return out;
}

/*
 * Folding a 128-bit lane A onto the lane D bits later: A = H x^64 + L, so
 * A x^D = H x^(D+64) + L x^D mod P. A carry-less multiply of two reflected
 * 64-bit values yields their product times x in the reflected 128-bit
 * layout, and a 32-bit constant k in the low half of a qword stands for
 * k x^32; hence the exponents D+31 (for H, in A's low qword) and D-33.
 */
struct fold_k {
	uint64_t lo, hi;	/* multiplies A's low qword, A's high qword */
};

static struct fold_k fold_k(unsigned d)
{
	struct fold_k k = { xpow_mod(d + 31), xpow_mod(d - 33) };

	return k;
}

static struct fold_k k128, k512, k2048;

__attribute__((target("sse4.2")))
static uint32_t sse42_words(uint32_t s, const unsigned char *p, size_t len)
{
	while (len >= 8) {
		s = (uint32_t)_mm_crc32_u64(s, load64(p));
		p += 8;
		len -= 8;
	}
	while (len--)
		s = _mm_crc32_u8(s, *p++);
	return s;
}

__attribute__((target("sse4.2")))
static uint32_t sse42(uint32_t s, const unsigned char *p, size_t len)
{
	while (len >= 3 * SSE42_BLOCK) {
		uint64_t a = s, b = 0, c = 0;
		size_t i;

		for (i = 0; i < SSE42_BLOCK; i += 8) {
			a = _mm_crc32_u64(a, load64(p + i));
			b = _mm_crc32_u64(b, load64(p + SSE42_BLOCK + i));
			c = _mm_crc32_u64(c, load64(p + 2 * SSE42_BLOCK + i));
		}
		s = shift(shift_block[1], (uint32_t)a) ^
		    shift(shift_block[0], (uint32_t)b) ^ (uint32_t)c;
		p += 3 * SSE42_BLOCK;
		len -= 3 * SSE42_BLOCK;
	}
	return sse42_words(s, p, len);
}

/* The raw CRC of the folded lane followed by the tail, from state 0. */
static uint32_t fold_finish(const unsigned char lane[16],
			    const unsigned char *p, size_t len)
{
	uint32_t s;

	if (have_sse42) {
		s = sse42_words(0, lane, 16);
		return sse42_words(s, p, len);
	}
	s = portable(0, lane, 16);
	return portable(s, p, len);
}

__attribute__((target("sse4.2,pclmul")))
static __m128i fold128(__m128i a, __m128i b, __m128i k)
{
	__m128i lo = _mm_clmulepi64_si128(a, k, 0x00);
	__m128i hi = _mm_clmulepi64_si128(a, k, 0x11);

	return _mm_xor_si128(b, _mm_xor_si128(lo, hi));
}

__attribute__((target("sse4.2,pclmul")))
static __m128i kvec(struct fold_k k)
{
	return _mm_set_epi64x((long long)k.hi, (long long)k.lo);
}

__attribute__((target("sse4.2,pclmul")))
static uint32_t pclmul_tail(__m128i x, const unsigned char *p, size_t len)
{
	__m128i k = kvec(k128);
	unsigned char lane[16];

	while (len >= 16) {
		x = fold128(x, _mm_loadu_si128((const __m128i *)p), k);
		p += 16;
		len -= 16;
	}
	_mm_storeu_si128((__m128i *)lane, x);
	return fold_finish(lane, p, len);
}

__attribute__((target("sse4.2,pclmul")))
static uint32_t pclmul(uint32_t s, const unsigned char *p, size_t len)
{
	__m128i x0, x1, x2, x3, k;

	if (len < 128)
		return have_sse42 ? sse42(s, p, len) : portable(s, p, len);
	x0 = _mm_xor_si128(_mm_loadu_si128((const __m128i *)p),
			   _mm_cvtsi32_si128((int)s));
	x1 = _mm_loadu_si128((const __m128i *)(p + 16));
	x2 = _mm_loadu_si128((const __m128i *)(p + 32));
	x3 = _mm_loadu_si128((const __m128i *)(p + 48));
	p += 64;
	len -= 64;
	k = kvec(k512);
	while (len >= 64) {
		x0 = fold128(x0, _mm_loadu_si128((const __m128i *)p), k);
		x1 = fold128(x1, _mm_loadu_si128((const __m128i *)(p + 16)), k);
		x2 = fold128(x2, _mm_loadu_si128((const __m128i *)(p + 32)), k);
		x3 = fold128(x3, _mm_loadu_si128((const __m128i *)(p + 48)), k);
		p += 64;
		len -= 64;
	}
	k = kvec(k128);
	x1 = fold128(x0, x1, k);
	x2 = fold128(x1, x2, k);
	x3 = fold128(x2, x3, k);
	return pclmul_tail(x3, p, len);
}

#define AVX512 "sse4.2,pclmul,avx512f,avx512vl,avx512bw,vpclmulqdq"

__attribute__((target(AVX512)))
static __m512i fold512(__m512i a, __m512i b, __m512i k)
{
	__m512i lo = _mm512_clmulepi64_epi128(a, k, 0x00);
	__m512i hi = _mm512_clmulepi64_epi128(a, k, 0x11);

	/* 0x96: three-way exclusive or. */
	return _mm512_ternarylogic_epi64(b, lo, hi, 0x96);
}

__attribute__((target(AVX512)))
static __m512i kvec512(struct fold_k k)
{
	return _mm512_broadcast_i32x4(kvec(k));
}

__attribute__((target(AVX512)))
static uint32_t vpclmul(uint32_t s, const unsigned char *p, size_t len)
{
	__m512i z0, z1, z2, z3, k;
	__m128i x, kx;

	if (len < 512)
		return pclmul(s, p, len);
	z0 = _mm512_xor_si512(
		_mm512_loadu_si512(p),
		_mm512_castsi128_si512(_mm_cvtsi32_si128((int)s)));
	z1 = _mm512_loadu_si512(p + 64);
	z2 = _mm512_loadu_si512(p + 128);
	z3 = _mm512_loadu_si512(p + 192);
	p += 256;
	len -= 256;
	k = kvec512(k2048);
	while (len >= 256) {
		z0 = fold512(z0, _mm512_loadu_si512(p), k);
		z1 = fold512(z1, _mm512_loadu_si512(p + 64), k);
		z2 = fold512(z2, _mm512_loadu_si512(p + 128), k);
		z3 = fold512(z3, _mm512_loadu_si512(p + 192), k);
		p += 256;
		len -= 256;
	}
	k = kvec512(k512);
	z1 = fold512(z0, z1, k);
	z2 = fold512(z1, z2, k);
	z3 = fold512(z2, z3, k);
	kx = kvec(k128);
	x = _mm512_extracti32x4_epi32(z3, 0);
	x = fold128(x, _mm512_extracti32x4_epi32(z3, 1), kx);
	x = fold128(x, _mm512_extracti32x4_epi32(z3, 2), kx);
	x = fold128(x, _mm512_extracti32x4_epi32(z3, 3), kx);
	/*
	 * Dirty upper ZMM state makes every later legacy-SSE instruction
	 * (the tail, the caller) pay a transition: measured here as ~180 ns a
	 * call, a 4 KiB unit's whole budget.
	 */
	_mm256_zeroupper();
	return pclmul_tail(x, p, len);
}

static uint64_t xgetbv0(void)
{
	uint32_t lo, hi;

	__asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
	return ((uint64_t)hi << 32) | lo;
}

static void probe_cpu(void)
{
	unsigned a, b, c, d;
	int osxsave, avx512_state = 0;

	if (!__get_cpuid(1, &a, &b, &c, &d))
		return;
	have_sse42 = !!(c & bit_SSE4_2);
	have_pclmul = have_sse42 && (c & bit_PCLMUL);
	osxsave = !!(c & bit_OSXSAVE);
	/* The OS must save the opmask and ZMM state, or AVX-512 faults. */
	if (osxsave)
		avx512_state = (xgetbv0() & 0xe6) == 0xe6;
	if (avx512_state && __get_cpuid_count(7, 0, &a, &b, &c, &d))
		have_vpclmul = have_pclmul && (b & bit_AVX512F) &&
			       (b & bit_AVX512VL) && (b & bit_AVX512BW) &&
			       (c & bit_VPCLMULQDQ);
}
#endif /* KILN_X86 */

static void init_once(void)
{
	make_tables();
#ifdef KILN_X86
	probe_cpu();
	k128 = fold_k(128);
	k512 = fold_k(512);
	k2048 = fold_k(2048);
#endif
	crc32c_impl = portable;
	crc32c_impl_name = "portable";
}

static crc32c_fn lookup(const char *name, int *supported)
{
	pthread_once(&tables_once, init_once);
	*supported = 1;
	if (!strcmp(name, "portable"))
		return portable;
#ifdef KILN_X86
	if (!strcmp(name, "sse42")) {
		*supported = have_sse42;
		return sse42;
	}
	if (!strcmp(name, "pclmul")) {
		*supported = have_pclmul;
		return pclmul;
	}
	if (!strcmp(name, "vpclmul")) {
		*supported = have_vpclmul;
		return vpclmul;
	}
#endif
	*supported = 0;
	return NULL;
}

int crc32c_supported(const char *name)
{
	int ok;

	return lookup(name, &ok) && ok;
}

int crc32c_use(const char *name)
{
	int i, ok;
	crc32c_fn fn = lookup(name, &ok);

	for (i = 0; crc32c_names[i]; i++)
		if (!strcmp(name, crc32c_names[i]))
			break;
	if (!crc32c_names[i])
		return -EINVAL;
	if (!fn || !ok)
		return -ENOTSUP;
	crc32c_impl = fn;
	crc32c_impl_name = crc32c_names[i];
	return 0;
}

int crc32c_init(void)
{
	const char *forced = getenv("KILN_CRC32C");
	int i;

	if (forced && *forced)
		return crc32c_use(forced);
	for (i = 0; crc32c_names[i]; i++)
		;
	while (i--)
		if (crc32c_use(crc32c_names[i]) == 0)
			return 0;
	return -ENOTSUP;
}

const char *crc32c_name(void)
{
	pthread_once(&tables_once, init_once);
	return crc32c_impl_name;
}

uint32_t crc32c(uint32_t crc, const void *buf, size_t len)
{
	pthread_once(&tables_once, init_once);
	return ~crc32c_impl(~crc, buf, len);
}
