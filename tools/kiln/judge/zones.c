/* SPDX-License-Identifier: MIT */
/*
 * Description: throughput where it happens (see zones.h): from a phase's
 * 100 zone rates, its plateaus, dips and an SSD's write cliff, told in
 * result.json and summary.txt and judged. An HDD's outer-to-inner fall is
 * smooth and normal: when a smooth curve (a quadratic) fits the rates
 * better than plateaus do, the shape is a slope and nothing is said of it.
 */
#include <math.h>
#include <string.h>

#include "base/json.h"
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
 * A step between [a, j) and [j, b): levels ZONES_STEP_SHARE apart, and
 * further apart than the zones' own noise explains (a t-test, roughly),
 * so a noisy disk's wobble is no plateau.
 */
static int step(const struct sums *s, int a, int j, int b)
{
	double l = mean(s, a, j), r = mean(s, j, b), var, d = l - r;

	if (!apart(l, r))
		return 0;
	var = (sse(s, a, j) + sse(s, j, b)) / (b - a - 2);
	return d * d >= STEP_SIGNIFICANT * STEP_SIGNIFICANT * var *
			(1.0 / (j - a) + 1.0 / (b - j));
}

/*
 * Binary segmentation: the split that lowers the squared error most,
 * between levels ZONES_STEP_SHARE apart, again and again. bounds[] gets
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

/* Seconds the zones at pos[a..b) took. */
static double took(const double *secs, const int *pos, int a, int b)
{
	double t = 0;

	for (; a < b; a++)
		t += secs[pos[a]];
	return t;
}

/* The first sharp fall from which a write never comes back: its cliff. */
static void find_cliff(const struct sums *s, const int *bounds, int n,
		       const int *pos, const double *secs,
		       struct zones_shape *z)
{
	int i, k;

	for (i = 0; i + 1 < n; i++) {
		double before = mean(s, bounds[i], bounds[i + 1]);
		int back = 0;

		if (mean(s, bounds[i + 1], bounds[i + 2]) >
		    ZONES_CLIFF_SHARE * before ||
		    took(secs, pos, bounds[i], bounds[i + 1]) <
		    ZONES_CLIFF_MIN_S ||
		    took(secs, pos, bounds[i + 1], bounds[n]) <
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
	struct sums s;
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
	s.s1[0] = s.s2[0] = 0;
	for (i = 0; i < n; i++) {
		if (mbps[i] <= 0 || low[i])
			continue;
		pos[k] = i;
		t[k] = (i - n / 2.0) / (n / 2.0);
		y[k] = mbps[i];
		s.s1[k + 1] = s.s1[k] + y[k];
		s.s2[k + 1] = s.s2[k] + y[k] * y[k];
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

	nseg = segment(&s, k, bounds);
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
		find_cliff(&s, bounds, nseg, pos, secs, z);
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

static void shape_of(const struct engine_zones *e, int rotational,
		     struct zones_shape *z)
{
	double mbps[ENGINE_ZONES], secs[ENGINE_ZONES];

	zones_rates(e, mbps, secs);
	zones_shape(mbps, secs, ENGINE_ZONES,
		    zones_cliffs(e->phase, rotational), z);
}

/* A share in percent, with a decimal when it is small: 0.4%, not 0%. */
static int prec(double share)
{
	return share < 0.1 ? 1 : 0;
}

/* The device offset where zone z starts. */
static unsigned long long zone_offset(const struct engine_snap *s, int z)
{
	uint64_t left;

	return (unsigned long long)engine_locate(
		&s->plan, (uint64_t)z * engine_zone_size(&s->plan), &left);
}

void zones_judge(const struct engine_snap *s, int rotational,
		 struct judge *j)
{
	/* The worst dip of each phase, and how many there were. */
	struct zones_dip worst[PHASES];
	uint32_t pass[PHASES];
	int dips[PHASES] = { 0 }, cliff = 0, p;
	unsigned e;

	for (e = 0; e < s->nzones; e++) {
		const struct engine_zones *ez = &s->zones[e];
		struct zones_shape z;
		int i, ph = ez->phase;

		if (!ez->ended || ph < 0 || ph >= PHASES)
			continue;
		shape_of(ez, rotational, &z);
		for (i = 0; rotational == 1 && i < z.ndips &&
			    i < ZONES_MAX_DIPS; i++) {
			const struct zones_dip *d = &z.dips[i];

			if (!dips[ph]++ || d->mbps / d->around <
			    worst[ph].mbps / worst[ph].around) {
				worst[ph] = *d;
				pass[ph] = ez->pass;
			}
		}
		if (z.cliff < 0 || cliff ||
		    z.cliff_after >= ZONES_CLIFF_WARN * z.cliff_before)
			continue;
		cliff = 1;
		judge_reason(j, JUDGE_WARN, "write cliff at byte %llu (zone %d) "
			     "in pass %u: %.0f MB/s fell to %.0f MB/s for the "
			     "rest of the region, %.*f%% (under %.0f%% WARNs)",
			     zone_offset(s, z.cliff), z.cliff, ez->pass,
			     z.cliff_before, z.cliff_after,
			     prec(z.cliff_after / z.cliff_before),
			     100 * z.cliff_after / z.cliff_before,
			     100 * ZONES_CLIFF_WARN);
	}
	for (p = 0; p < PHASES; p++) {
		const struct zones_dip *d = &worst[p];

		if (!dips[p])
			continue;
		judge_reason(j, JUDGE_WARN, "slow zone in %s pass %u: zone %d "
			     "at byte %llu ran %.0f MB/s, %.*f%% of the %.0f "
			     "MB/s beside it (a rotational disk WARNs under "
			     "%.0f%%); %d such in all",
			     engine_phase_name(p), pass[p], d->worst,
			     zone_offset(s, d->worst), d->mbps,
			     prec(d->mbps / d->around),
			     100 * d->mbps / d->around, d->around,
			     100 * ZONES_DIP_SHARE, dips[p]);
	}
}

static const char *kind_name(int kind)
{
	switch (kind) {
	case ZONES_FLAT: return "flat";
	case ZONES_SLOPE: return "slope";
	case ZONES_STEPS: return "steps";
	}
	return "unknown";
}

static void shape_json(struct json *j, const struct engine_snap *s,
		       const struct zones_shape *z)
{
	int i;

	json_str(j, "shape", kind_name(z->kind));
	if (z->kind == ZONES_UNKNOWN)
		return;
	json_num(j, "first_mbps", z->first_mbps);
	json_num(j, "last_mbps", z->last_mbps);
	json_array(j, "plateaus");
	for (i = 0; i < z->nplateaus; i++) {
		json_begin(j, NULL);
		json_u64(j, "from_zone", (uint64_t)z->plateaus[i].from);
		json_u64(j, "to_zone", (uint64_t)z->plateaus[i].to);
		json_u64(j, "offset", zone_offset(s, z->plateaus[i].from));
		json_num(j, "mbps", z->plateaus[i].mbps);
		json_end(j);
	}
	json_array_end(j);
	json_u64(j, "dip_count", (uint64_t)z->ndips);
	json_array(j, "dips");
	for (i = 0; i < z->ndips && i < ZONES_MAX_DIPS; i++) {
		const struct zones_dip *d = &z->dips[i];

		json_begin(j, NULL);
		json_u64(j, "from_zone", (uint64_t)d->from);
		json_u64(j, "to_zone", (uint64_t)d->to);
		json_u64(j, "zone", (uint64_t)d->worst);
		json_u64(j, "offset", zone_offset(s, d->worst));
		json_num(j, "mbps", d->mbps);
		json_num(j, "around_mbps", d->around);
		json_num(j, "share", d->mbps / d->around);
		json_num(j, "lost_seconds", d->lost_s);
		json_end(j);
	}
	json_array_end(j);
	if (z->cliff < 0) {
		json_null(j, "cliff");
		return;
	}
	json_begin(j, "cliff");
	json_u64(j, "zone", (uint64_t)z->cliff);
	json_u64(j, "offset", zone_offset(s, z->cliff));
	json_num(j, "before_mbps", z->cliff_before);
	json_num(j, "after_mbps", z->cliff_after);
	json_num(j, "share", z->cliff_after / z->cliff_before);
	json_end(j);
}

void zones_json(struct json *j, const struct engine_snap *s, int rotational)
{
	double mbps[ENGINE_ZONES], secs[ENGINE_ZONES], line[ENGINE_ZONES];
	unsigned e;
	int i;

	json_begin(j, "zones");
	json_u64(j, "count", ENGINE_ZONES);
	json_u64(j, "zone_bytes", engine_zone_size(&s->plan));
	json_array(j, "phases");
	for (e = 0; e < s->nzones; e++) {
		const struct engine_zones *ez = &s->zones[e];
		struct zones_shape z;

		zones_rates(ez, mbps, secs);
		zones_shape(mbps, secs, ENGINE_ZONES,
			    zones_cliffs(ez->phase, rotational), &z);
		json_begin(j, NULL);
		json_u64(j, "pass", ez->pass);
		json_str(j, "phase", engine_phase_name(ez->phase));
		json_bool(j, "ended", ez->ended);
		/* One line each: 32 phases of 100 zones a disk add up. */
		for (i = 0; i < ENGINE_ZONES; i++)
			line[i] = mbps[i] > 0 ? mbps[i] : NAN;
		json_num_list(j, "mbps", line, ENGINE_ZONES);
		shape_json(j, s, &z);
		json_end(j);
	}
	json_array_end(j);
	json_end(j);
}

static void plateaus_line(FILE *f, const struct zones_shape *z)
{
	int i;

	fputs(": plateaus", f);
	for (i = 0; i < z->nplateaus; i++)
		fprintf(f, "%s %.0f%s (zones %d-%d)", i ? "," : "",
			z->plateaus[i].mbps, i ? "" : " MB/s",
			z->plateaus[i].from, z->plateaus[i].to);
	fputc('\n', f);
}

static void dips_line(FILE *f, const struct engine_snap *s,
		      const struct engine_zones *ez, const struct zones_shape *z)
{
	const struct zones_dip *d = &z->dips[0];
	int i;

	for (i = 1; i < z->ndips && i < ZONES_MAX_DIPS; i++)
		if (z->dips[i].mbps / z->dips[i].around < d->mbps / d->around)
			d = &z->dips[i];
	fprintf(f, "  zones, %s pass %u: %d dip%s, the worst zone %d (byte "
		"%llu): %.0f MB/s, %.*f%% of %.0f\n",
		engine_phase_name(ez->phase), ez->pass, z->ndips,
		z->ndips == 1 ? "" : "s", d->worst, zone_offset(s, d->worst),
		d->mbps, prec(d->mbps / d->around), 100 * d->mbps / d->around,
		d->around);
}

void zones_summary(FILE *f, const struct engine_snap *s, int rotational)
{
	int told[PHASES] = { 0 };
	unsigned e;

	/* The first phase of each kind with something to say, in short. */
	for (e = 0; e < s->nzones; e++) {
		const struct engine_zones *ez = &s->zones[e];
		struct zones_shape z;

		if (!ez->ended || ez->phase < 0 || ez->phase >= PHASES ||
		    told[ez->phase])
			continue;
		shape_of(ez, rotational, &z);
		if (z.kind != ZONES_STEPS && !z.ndips)
			continue;
		told[ez->phase] = 1;
		if (z.kind == ZONES_STEPS) {
			fprintf(f, "  zones, %s pass %u",
				engine_phase_name(ez->phase), ez->pass);
			plateaus_line(f, &z);
		}
		if (z.cliff >= 0)
			fprintf(f, "  zones, %s pass %u: cliff at zone %d "
				"(byte %llu): %.0f to %.0f MB/s, %.*f%%\n",
				engine_phase_name(ez->phase), ez->pass,
				z.cliff, zone_offset(s, z.cliff),
				z.cliff_before, z.cliff_after,
				prec(z.cliff_after / z.cliff_before),
				100 * z.cliff_after / z.cliff_before);
		if (z.ndips)
			dips_line(f, s, ez, &z);
	}
}
