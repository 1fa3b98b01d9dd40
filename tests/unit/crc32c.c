/* SPDX-License-Identifier: MIT */
/*
 * Description: every CRC32C implementation gives the standard vectors and
 * agrees with the portable one on random data of every length and alignment,
 * and when a computation is split anywhere.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/tap.h"
#include "base/crc32c.h"

#define MAXLEN 4200
#define BUFSZ (2 * 1024 * 1024 + 128)

static uint64_t rng = 0x243f6a8885a308d3ull;

static uint64_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

struct vector {
	const char *what;
	unsigned char data[48];
	size_t len;
	uint32_t crc;
};

/* RFC 3720 appendix B.4, and the common check value. */
static struct vector vectors[6];

static void make_vectors(void)
{
	static const unsigned char iscsi_read[48] = {
		0x01, 0xc0, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
		0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
		0x14, 0x00, 0x00, 0x00, 0x00, 0x00, 0x04, 0x00,
		0x00, 0x00, 0x00, 0x14, 0x00, 0x00, 0x00, 0x18,
		0x28, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
		0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	};
	int i;

	vectors[0] = (struct vector){ "123456789", "123456789", 9, 0xe3069283 };
	vectors[1] = (struct vector){ "32 zero bytes", { 0 }, 32, 0x8a9136aa };
	vectors[2] = (struct vector){ "32 0xff bytes", { 0 }, 32, 0x62a8ab43 };
	memset(vectors[2].data, 0xff, 32);
	vectors[3] = (struct vector){ "32 ascending", { 0 }, 32, 0x46dd794e };
	vectors[4] = (struct vector){ "32 descending", { 0 }, 32, 0x113fdb5c };
	for (i = 0; i < 32; i++) {
		vectors[3].data[i] = i;
		vectors[4].data[i] = 31 - i;
	}
	vectors[5] = (struct vector){ "iSCSI read PDU", { 0 }, 48, 0xd9963a56 };
	memcpy(vectors[5].data, iscsi_read, 48);
}

static uint32_t with(const char *name, const unsigned char *p, size_t len)
{
	crc32c_use(name);
	return crc32c(0, p, len);
}

int main(int argc, char **argv)
{
	unsigned char *buf = malloc(BUFSZ);
	const char *name;
	size_t len, align, cut, i;
	int n, v;

	tap_args(argc, argv);
	if (!buf)
		tap_bail("out of memory");
	for (i = 0; i < BUFSZ; i += 8) {
		uint64_t r = next();

		memcpy(buf + i, &r, 8 <= BUFSZ - i ? 8 : BUFSZ - i);
	}
	make_vectors();

	n = crc32c_init();
	tap_ok(n == 0, "crc32c_init picks an implementation (%s)",
	       crc32c_name());
	tap_ok(crc32c_use("nonesuch") == -EINVAL, "an unknown name is refused");

	for (n = 0; (name = crc32c_names[n]); n++) {
		int good = 1, bad_len = -1, bad_align = -1;

		if (!crc32c_supported(name)) {
			tap_ok(crc32c_use(name) == -ENOTSUP,
			       "%s: refused on a CPU without it", name);
			tap_skip("%s: this CPU lacks it", name);
			tap_skip("%s: this CPU lacks it", name);
			tap_skip("%s: this CPU lacks it", name);
			continue;
		}
		tap_ok(crc32c_use(name) == 0 && !strcmp(crc32c_name(), name),
		       "%s: selected", name);

		for (v = 0; v < 6; v++)
			if (crc32c(0, vectors[v].data, vectors[v].len) !=
			    vectors[v].crc) {
				tap_diag("%s: %s gives %08x, want %08x", name,
					 vectors[v].what,
					 crc32c(0, vectors[v].data,
						vectors[v].len),
					 vectors[v].crc);
				good = 0;
			}
		tap_ok(good, "%s: standard vectors", name);

		good = 1;
		for (len = 0; len <= MAXLEN && good; len++)
			for (align = 0; align < 16 && good; align++) {
				uint32_t want = with("portable", buf + align, len);

				if (with(name, buf + align, len) != want) {
					good = 0;
					bad_len = (int)len;
					bad_align = (int)align;
				}
			}
		for (align = 0; align < 64 && good; align++)
			for (len = BUFSZ - 64 - 4096; len < BUFSZ - 64; len += 1021) {
				uint32_t want = with("portable", buf + align, len);

				if (with(name, buf + align, len) != want) {
					good = 0;
					bad_len = (int)len;
					bad_align = (int)align;
				}
			}
		if (!good)
			tap_diag("%s: first mismatch at length %d alignment %d",
				 name, bad_len, bad_align);
		tap_ok(good, "%s: agrees with portable at every length to %d "
		       "and alignment, and on 2 MiB", name, MAXLEN);

		crc32c_use(name);
		good = 1;
		for (i = 0; i < 2000 && good; i++) {
			uint32_t whole, part;

			len = next() % 70000;
			cut = len ? next() % len : 0;
			whole = crc32c(0, buf + 3, len);
			part = crc32c(crc32c(0, buf + 3, cut), buf + 3 + cut,
				      len - cut);
			good = whole == part;
		}
		tap_ok(good, "%s: a CRC continued from a split equals the whole",
		       name);
	}
	free(buf);
	return tap_done();
}
