/* SPDX-License-Identifier: MIT */
/*
 * Description: throughput where it happens (see zones.h): from a phase's
 * 100 zone rates, its plateaus, dips and an SSD's write cliff, a pure
 * function of the rates (judged and said by zones_out.c). An HDD's
 * outer-to-inner fall is smooth and normal: when a smooth curve (a
 * quadratic) fits the rates better than plateaus do, the shape is a
 * slope and nothing is said of it.
 */
#include <math.h>
#include <string.h>

#include "judge/zones.h"

/* Fewer zones measured than this have no shape. */
#define MIN_MEASURED 10
/* A dip is measured against this many zones on each side. */
#define SIDE 5
/* The shortest plateau, in zones. */
#define MIN_PLATEAU 3
/*
 * Plateaus must fit this much better than a smooth curve: their mean
 * absolute error against the curve's. Absolute, not squared: on a busy
 * machine a few zones spike (100 to 1300 MB/s around 330), and squared
 * they outweigh a tenfold step, which then reads as a slope.
 */
#define STEPS_BETTER 0.7
/* A step stands this many standard errors above the noise around it. */
#define STEP_SIGNIFICANT 4

static double median(double *v, int n)
{
	int i, k;

	for (i = 1; i < n; i++) {
		double x = v[i];

		for (k = i; k > 0 && v[k - 1] > x; k--)
			v[k] = v[k - 1];
		v[k] = x;
	}
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* The median rate of the measured zones in [from, to]: 0 if under two. */
static double side(const double *mbps, int n, int from, int to)
{
	double v[2 * SIDE + 1];
	int i, k = 0;

	for (i = from < 0 ? 0 : from; i <= to && i < n; i++)
		if (mbps[i] > 0)
			v[k++] = mbps[i];
	return k >= 2 ? median(v, k) : 0;
}

static void add_dip(struct zones_shape *z, const double *mbps,
		    const double *secs, const double *around, int a, int b)
{
	struct zones_dip d = { .from = a, .to = b, .worst = a };
	int i;

	for (i = a; i <= b; i++) {
		d.lost_s += secs[i] * (1 - mbps[i] / around[i]);
		if (mbps[i] / around[i] < mbps[d.worst] / around[d.worst])
			d.worst = i;
	}
	d.mbps = mbps[d.worst];
	d.around = around[d.worst];
	/* A moment of the machine's noise on a small disk is not a dip. */
	if (d.lost_s < ZONES_DIP_MIN_S)
		return;
	if (z->ndips < ZONES_MAX_DIPS)
		z->dips[z->ndips] = d;
	z->ndips++;
}

/*
 * Zones under ZONES_DIP_SHARE of the rate on each side that has one (the
 * ends have one side), marked in low; runs of them are one dip.
 */
static void find_dips(const double *mbps, const double *secs, int n,
		      struct zones_shape *z, unsigned char *low)
{
	double around[ENGINE_ZONES];
	int i, start = -1;

	for (i = 0; i < n; i++) {
		double l = side(mbps, n, i - SIDE, i - 1);
		double r = side(mbps, n, i + 1, i + SIDE);

		low[i] = mbps[i] > 0 && (l > 0 || r > 0) &&
			 (l <= 0 || mbps[i] < ZONES_DIP_SHARE * l) &&
			 (r <= 0 || mbps[i] < ZONES_DIP_SHARE * r);
		around[i] = l <= 0 ? r : r <= 0 ? l : l < r ? l : r;
		if (low[i] && start < 0)
			start = i;
		if (!low[i] && start >= 0) {
			add_dip(z, mbps, secs, around, start, i - 1);
			start = -1;
		}
	}
	if (start >= 0)
		add_dip(z, mbps, secs, around, start, n - 1);
}

/* Least squares y = c0 + c1 t + c2 t^2: 0, or -1 when it has no answer. */
static int fit(const double *t, const double *y, int k, double c[3])
{
	double a[3][4] = { { 0 } };
	int i, r, col;

	for (i = 0; i < k; i++) {
		double p[3] = { 1, t[i], t[i] * t[i] };

		for (r = 0; r < 3; r++) {
			for (col = 0; col < 3; col++)
				a[r][col] += p[r] * p[col];
			a[r][3] += p[r] * y[i];
		}
	}
	for (col = 0; col < 3; col++) {
		int best = col;

		for (r = col + 1; r < 3; r++)
			if (fabs(a[r][col]) > fabs(a[best][col]))
				best = r;
		if (fabs(a[best][col]) < 1e-12)
			return -1;
		for (i = 0; i < 4; i++) {
			double x = a[col][i];

			a[col][i] = a[best][i];
			a[best][i] = x;
		}
		for (r = 0; r < 3; r++) {
			double f = a[r][col] / a[col][col];

			if (r == col)
				continue;
			for (i = col; i < 4; i++)
				a[r][i] -= f * a[col][i];
		}
	}
	for (r = 0; r < 3; r++)
		c[r] = a[r][3] / a[r][r];
	return 0;
}

static double curve(const double c[3], double t)
{
	return c[0] + c[1] * t + c[2] * t * t;
}

/* Prefix sums of the rates, for the squared error of any stretch. */
struct sums {
	double s1[ENGINE_ZONES + 1], s2[ENGINE_ZONES + 1];
};

static double mean(const struct sums *s, int a, int b)
{
	return (s->s1[b] - s->s1[a]) / (b - a);
}

static double sse(const struct sums *s, int a, int b)
{
	double d = s->s1[b] - s->s1[a];

	return s->s2[b] - s->s2[a] - d * d / (b - a);
}

static int apart(double x, double y)
{
	return fabs(x - y) >= ZONES_STEP_SHARE * (x > y ? x : y);
}

/*
 * A step between [a, j) and [j, b) of the logs of the rates: levels
 * ZONES_STEP_SHARE apart, and further apart than the zones' own noise
 * explains (a t-test, roughly), so a noisy disk's wobble is no plateau.
 * Logs, as a step is a share: a busy machine's zone at 300 MB/s among
 * ones at 900 is far nearer them than a slow disk's 2, and with rates
 * themselves it went with the 2s, its plateau straddling the step.
 */
static int step(const struct sums *s, int a, int j, int b)
{
	double l = mean(s, a, j), r = mean(s, j, b), var, d = l - r;

	if (fabs(d) < -log(1 - ZONES_STEP_SHARE))
		return 0;
	var = (sse(s, a, j) + sse(s, j, b)) / (b - a - 2);
	return d * d >= STEP_SIGNIFICANT * STEP_SIGNIFICANT * var *
			(1.0 / (j - a) + 1.0 / (b - j));
}

/*
 * Binary segmentation of the logs of the rates: the split that lowers
 * the squared error most, between levels ZONES_STEP_SHARE apart, again
 * and again. bounds[] gets
 * each plateau's start, then k; returns the number of plateaus.
 */
static int segment(const struct sums *s, int k, int *bounds)
{
	int n = 1, i, j;

	bounds[0] = 0;
	bounds[1] = k;
	while (n < ZONES_MAX_PLATEAUS) {
		double gain = 0;
		int at = -1, seg = -1;

		for (i = 0; i < n; i++) {
			int a = bounds[i], b = bounds[i + 1];

			for (j = a + MIN_PLATEAU; j <= b - MIN_PLATEAU; j++) {
				double g = sse(s, a, b) - sse(s, a, j) -
					   sse(s, j, b);

				if (g > gain && step(s, a, j, b)) {
					gain = g;
					at = j;
					seg = i;
				}
			}
		}
		if (at < 0)
			break;
		memmove(&bounds[seg + 2], &bounds[seg + 1],
			(size_t)(n - seg) * sizeof(*bounds));
		bounds[seg + 1] = at;
		n++;
	}
	/* Later splits move levels: neighbours too close are one again. */
	for (i = 0; i + 1 < n;) {
		if (step(s, bounds[i], bounds[i + 1], bounds[i + 2])) {
			i++;
			continue;
		}
		memmove(&bounds[i + 1], &bounds[i + 2],
			(size_t)(n - i - 1) * sizeof(*bounds));
		n--;
	}
	return n;
}

/*
 * Seconds the zones at pos[a..b) took, those at floor MB/s or more only
 * (floor 0: all).
 */
static double took(const double *mbps, const double *secs, const int *pos,
		   int a, int b, double floor)
{
	double t = 0;

	for (; a < b; a++)
		if (mbps[pos[a]] >= floor)
			t += secs[pos[a]];
	return t;
}

/*
 * The first sharp fall from which a write never comes back: its cliff.
 * The level before it was held for ZONES_CLIFF_MIN_S: the seconds of its
 * zones near it count, not those of slow zones a plateau of MIN_PLATEAU
 * took in (a busy machine's slow zone beside a step to 2 MB/s, with two
 * of the 2s, is a plateau "held" for a second by the 2s).
 */
static void find_cliff(const struct sums *s, const int *bounds, int n,
		       const int *pos, const double *mbps,
		       const double *secs, struct zones_shape *z)
{
	int i, k;

	for (i = 0; i + 1 < n; i++) {
		double before = mean(s, bounds[i], bounds[i + 1]);
		int back = 0;

		if (mean(s, bounds[i + 1], bounds[i + 2]) >
		    ZONES_CLIFF_SHARE * before ||
		    took(mbps, secs, pos, bounds[i], bounds[i + 1],
			 ZONES_CLIFF_SHARE * before) < ZONES_CLIFF_MIN_S ||
		    took(mbps, secs, pos, bounds[i + 1], bounds[n], 0) <
		    ZONES_CLIFF_MIN_S)
			continue;
		for (k = i + 1; k < n; k++)
			back |= !apart(mean(s, bounds[k], bounds[k + 1]),
				       before) ||
				mean(s, bounds[k], bounds[k + 1]) > before;
		if (back)
			continue;
		z->cliff = pos[bounds[i + 1]];
		z->cliff_before = before;
		z->cliff_after = mean(s, bounds[i + 1], bounds[n]);
		return;
	}
}

int zones_cliffs(int phase, int rotational)
{
	return phase == PHASE_WRITE && rotational != 1;
}

void zones_shape(const double *mbps, const double *secs, int n, int cliffs,
		 struct zones_shape *z)
{
	unsigned char low[ENGINE_ZONES];
	double t[ENGINE_ZONES], y[ENGINE_ZONES], c[3], lo, hi, eq = 0, es = 0;
	int pos[ENGINE_ZONES], bounds[ZONES_MAX_PLATEAUS + 1];
	struct sums s, ls;
	int i, k = 0, nseg;

	memset(z, 0, sizeof(*z));
	z->cliff = -1;
	if (n > ENGINE_ZONES)
		n = ENGINE_ZONES;
	for (i = 0; i < n; i++)
		z->measured += mbps[i] > 0;
	if (z->measured < MIN_MEASURED)
		return;
	find_dips(mbps, secs, n, z, low);

	/* The shape is read without the dips: they are said on their own. */
	s.s1[0] = s.s2[0] = ls.s1[0] = ls.s2[0] = 0;
	for (i = 0; i < n; i++) {
		if (mbps[i] <= 0 || low[i])
			continue;
		pos[k] = i;
		t[k] = (i - n / 2.0) / (n / 2.0);
		y[k] = mbps[i];
		s.s1[k + 1] = s.s1[k] + y[k];
		s.s2[k + 1] = s.s2[k] + y[k] * y[k];
		ls.s1[k + 1] = ls.s1[k] + log(y[k]);
		ls.s2[k + 1] = ls.s2[k] + log(y[k]) * log(y[k]);
		k++;
	}
	if (k < MIN_MEASURED || fit(t, y, k, c))
		return;
	lo = hi = curve(c, t[0]);
	for (i = 0; i < k; i++) {
		double f = curve(c, t[i]);

		eq += fabs(y[i] - f);
		lo = f < lo ? f : lo;
		hi = f > hi ? f : hi;
	}
	z->first_mbps = curve(c, t[0]);
	z->last_mbps = curve(c, t[k - 1]);

	nseg = segment(&ls, k, bounds);
	for (i = 0; i < nseg; i++) {
		double level = mean(&s, bounds[i], bounds[i + 1]);
		int m;

		for (m = bounds[i]; m < bounds[i + 1]; m++)
			es += fabs(y[m] - level);
	}
	if (nseg > 1 && es <= STEPS_BETTER * eq) {
		z->kind = ZONES_STEPS;
	} else if (!apart(lo, hi)) {
		z->kind = ZONES_FLAT;
		nseg = 1;
		bounds[1] = k;
	} else {
		z->kind = ZONES_SLOPE;
		return;
	}
	for (i = 0; i < nseg; i++) {
		z->plateaus[i].from = pos[bounds[i]];
		z->plateaus[i].to = pos[bounds[i + 1] - 1];
		z->plateaus[i].mbps = mean(&s, bounds[i], bounds[i + 1]);
	}
	z->nplateaus = nseg;
	if (cliffs)
		find_cliff(&s, bounds, nseg, pos, mbps, secs, z);
}

void zones_rates(const struct engine_zones *e, double *mbps, double *secs)
{
	int i;

	for (i = 0; i < ENGINE_ZONES; i++) {
		/* bytes per ns is GB/s: a thousand MB/s */
		mbps[i] = e->bytes[i] && e->ns[i] ?
			  1e3 * (double)e->bytes[i] / (double)e->ns[i] : 0;
		secs[i] = (double)e->ns[i] / 1e9;
	}
}

int zones_short(const struct engine_zones *e, uint64_t zone_bytes,
		uint64_t bs)
{
	uint64_t ns = 0;
	int i;

	if (!bs || zone_bytes < ZONES_MIN_REQUESTS * bs)
		return 1;
	for (i = 0; i < ENGINE_ZONES; i++)
		ns += e->ns[i];
	return ns < (uint64_t)ZONES_MIN_PHASE_S * 1000000000ull;
}

void zones_phase(const struct engine_zones *e, uint64_t zone_bytes,
		 uint64_t bs, int rotational, struct zones_shape *z)
{
	double mbps[ENGINE_ZONES], secs[ENGINE_ZONES];
	int i;

	zones_rates(e, mbps, secs);
	if (!zones_short(e, zone_bytes, bs)) {
		zones_shape(mbps, secs, ENGINE_ZONES,
			    zones_cliffs(e->phase, rotational), z);
		return;
	}
	memset(z, 0, sizeof(*z));
	z->kind = ZONES_SHORT;
	z->cliff = -1;
	for (i = 0; i < ENGINE_ZONES; i++)
		z->measured += mbps[i] > 0;
}
