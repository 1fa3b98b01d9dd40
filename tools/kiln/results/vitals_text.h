/* SPDX-License-Identifier: MIT */
#ifndef KILN_VITALS_TEXT_H
#define KILN_VITALS_TEXT_H

#include <stdio.h>

#include "judge/record.h"

/* summary.txt: the machine's verdict and what was sampled. */
void vitals_text_run(const struct record *r, FILE *f);

/* ...and a disk's temperatures and self-test, in its own section. */
void vitals_text_disk(const struct record_disk *d, FILE *f);

#endif
