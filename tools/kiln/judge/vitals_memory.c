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

/* A kind's rise on one counter: corrected (0) or uncorrected (1). */
static long rise_of(const struct vitals_edac *e, int ue)
{
	return ue ? rose(e->ue_start, e->ue_end) : rose(e->ce_start, e->ce_end);
}

void vitals_edac_rises(const struct vitals_machine *m, long *ce, long *ue)
{
	long n[2] = { 0, 0 }, below;
	int i, k, kind;

	for (kind = 0; kind < 2; kind++)
		for (i = 0; i < m->nedac; i++) {
			const struct vitals_edac *e = &m->edac[i];
			size_t len = strlen(e->where);

			if (strchr(e->where, '/')) {
				n[kind] += rise_of(e, kind);
				continue;
			}
			/* A controller counts its DIMMs' too: only its own. */
			below = 0;
			for (k = 0; k < m->nedac; k++)
				if (!strncmp(m->edac[k].where, e->where, len) &&
				    m->edac[k].where[len] == '/')
					below += rise_of(&m->edac[k], kind);
			below = rise_of(e, kind) - below;
			n[kind] += below > 0 ? below : 0;
		}
	*ce = n[0];
	*ue = n[1];
}

int vitals_memory_errors(const struct vitals_machine *m)
{
	long ce, ue, n;

	vitals_edac_rises(m, &ce, &ue);
	n = m->cpu.mce.uncorrected + ce + ue;
	return n > INT_MAX ? INT_MAX : (int)n;
}
