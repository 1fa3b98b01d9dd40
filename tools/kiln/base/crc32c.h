/* SPDX-License-Identifier: MIT */
#ifndef KILN_CRC32C_H
#define KILN_CRC32C_H

#include <stddef.h>
#include <stdint.h>

/*
 * CRC32C (Castagnoli) with the usual conventions: start with crc = 0, feed
 * the previous result to continue; crc32c(0, "123456789", 9) == 0xe3069283.
 */
uint32_t crc32c(uint32_t crc, const void *buf, size_t len);

/* The implementations, fastest last; names as KILN_CRC32C takes them. */
extern const char *const crc32c_names[];

/* Whether this CPU can run the named implementation. */
int crc32c_supported(const char *name);

/*
 * Use the named implementation from now on: 0, -EINVAL for a name that does
 * not exist, -ENOTSUP when the CPU lacks it. Not for use while other threads
 * compute CRCs.
 */
int crc32c_use(const char *name);

/*
 * Choose the implementation: KILN_CRC32C from the environment when set, else
 * the fastest the CPU offers. Returns 0 or what crc32c_use() returned.
 */
int crc32c_init(void);

/* The name of the implementation in use. */
const char *crc32c_name(void);

#endif
