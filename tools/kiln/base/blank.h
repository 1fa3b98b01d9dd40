/* SPDX-License-Identifier: MIT */
#ifndef KILN_BLANK_H
#define KILN_BLANK_H

/*
 * Whether bytes are blank: all 0x00 or all 0xff, the two bytes a disk
 * that holds nothing reads as (zeroed, or erased flash, or a trimmed
 * SSD of either kind). One pass answers which, for the guarded write's
 * check of every unit before it is overwritten.
 */
#include <stddef.h>

/* Neither blank byte: mixed bytes, or one byte that is not 0x00 or 0xff. */
#define BLANK_NONE (-1)

/*
 * 0x00 when every one of len bytes at p is 0x00, 0xff when every one is
 * 0xff, else BLANK_NONE; an empty span (len 0) holds neither. Any
 * alignment. 16 bytes a step with SSE2 where the compiler has it (every
 * x86-64), 8 where it has not.
 */
int blank_byte(const void *p, size_t len);

/* The same without SSE2, 8 bytes a step: what a non-x86 build runs. */
int blank_byte_portable(const void *p, size_t len);

#endif
