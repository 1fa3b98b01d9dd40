/* SPDX-License-Identifier: MIT */
/*
 * Description: a phase's slowest and fastest whole second (see
 * seconds.h), below result.json's writer, summary.txt and the OCP output
 * alike, so none of them calls another for it.
 */
#include "results/seconds.h"

int seconds_range(const struct record_disk *d, int phase, double *min,
		  double *max)
{
	double avg = figures_rate(&d->snap, phase);
	const struct monitor_target *mt = d->mt;

	if (!mt || mt->seconds[phase] < SECONDS_MIN || avg <= 0)
		return 0;
	/*
	 * The slowest and fastest whole seconds; the average also counts the
	 * phase's partial seconds at its ends. Some stretch of the phase ran
	 * at or below its average and some at or above it, so a minimum above
	 * the average (or a maximum below it) only means the partial seconds
	 * were the extremes: the average bounds them then.
	 */
	*min = mt->min[phase] < avg ? mt->min[phase] : avg;
	*max = mt->max[phase] > avg ? mt->max[phase] : avg;
	return 1;
}
