/* SPDX-License-Identifier: MIT */
#ifndef KILN_VITALS_CPU_OUT_H
#define KILN_VITALS_CPU_OUT_H

#include "base/json.h"
#include "base/jsonread.h"
#include "judge/vitals.h"

/*
 * The CPUs' signals (vitals_cpu.h) in result.json's "machine": its "cpu"
 * (the nominal clock, the clock under load, each CPU's throttle counts)
 * and its "machine_checks", read back the same way, so a restored run is
 * judged as the run was.
 */
void vitals_cpu_out_write(struct json *j, const struct vitals_cpu *c);

/* From the "machine" object m into c (emptied first). 0 or -ENOMEM. */
int vitals_cpu_out_read(const struct jsonread_node *m, struct vitals_cpu *c);

/* The clock's line of summary.txt into buf ("" when none is known). */
char *vitals_cpu_out_clock_text(const struct vitals_cpu *c, char *buf,
				size_t len);

#endif
