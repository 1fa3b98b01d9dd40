/* SPDX-License-Identifier: MIT */
/*
 * Description: the run's memory errors in one figure (see vitals.h), for
 * the judging of bad units that a re-read finds right: with memory
 * errors beside them, the memory is suspected before the disk's path.
 */
#include <limits.h>
#include <string.h>

#include "judge/vitals.h"

static long rose(long from, long to)
{
	return from >= 0 && to > from ? to - from : 0;
}

int vitals_memory_errors(const struct vitals_machine *m)
{
	long n = m->cpu.mce.uncorrected, below;
	int i, k;

	for (i = 0; i < m->nedac; i++) {
		const struct vitals_edac *e = &m->edac[i];
		size_t len = strlen(e->where);

		if (strchr(e->where, '/')) {
			n += rose(e->ce_start, e->ce_end) +
			     rose(e->ue_start, e->ue_end);
			continue;
		}
		/* A controller counts its DIMMs' too: only what is its own. */
		below = 0;
		for (k = 0; k < m->nedac; k++)
			if (!strncmp(m->edac[k].where, e->where, len) &&
			    m->edac[k].where[len] == '/')
				below += rose(m->edac[k].ce_start,
					      m->edac[k].ce_end) +
					 rose(m->edac[k].ue_start,
					      m->edac[k].ue_end);
		below = rose(e->ce_start, e->ce_end) +
			rose(e->ue_start, e->ue_end) - below;
		n += below > 0 ? below : 0;
	}
	return n > INT_MAX ? INT_MAX : (int)n;
}
