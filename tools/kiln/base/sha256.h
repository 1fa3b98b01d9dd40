/* SPDX-License-Identifier: MIT */
#ifndef KILN_SHA256_H
#define KILN_SHA256_H

#include <stddef.h>

/*
 * SHA-256 (FIPS 180-4) of a buffer, as 64 lowercase hex digits and a NUL:
 * what result.json says of each certificate, so a copy elsewhere (the lab
 * server's) can be checked against the run's own.
 */
#define SHA256_HEX 65

void sha256_hex(const void *data, size_t len, char out[SHA256_HEX]);

#endif
