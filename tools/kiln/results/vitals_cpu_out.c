/* SPDX-License-Identifier: MIT */
/*
 * Description: the CPUs' signals told (see vitals_cpu_out.h): written in
 * result.json and read back field by field, and the clock said in a line
 * for summary.txt and report.html.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/vitals_cpu_out.h"

typedef const struct jsonread_node node;

static void count(struct json *j, const char *key, long v)
{
	if (v < 0)
		json_null(j, key);
	else
		json_i64(j, key, v);
}

static void mhz(struct json *j, const char *key, unsigned khz)
{
	if (!khz)
		json_null(j, key);
	else
		json_u64(j, key, (khz + 500) / 1000);
}

static void clock_out(struct json *j, const struct vitals_cpu *c)
{
	json_begin(j, "cpu");
	mhz(j, "nominal_mhz", c->nominal_khz);
	json_str(j, "nominal_from", c->nominal_khz ?
		 cpu_nominal_name(c->nominal_from) : NULL);
	if (!c->khz_n) {
		json_null(j, "clock_mhz");
	} else {
		json_begin(j, "clock_mhz");
		mhz(j, "min", c->khz_min);
		json_num(j, "avg", (double)c->khz_sum / (double)c->khz_n /
			 1000.0);
		mhz(j, "max", c->khz_max);
		json_u64(j, "readings", c->khz_n);
		json_end(j);
	}
}

void vitals_cpu_out_write(struct json *j, const struct vitals_cpu *c)
{
	const struct mce_tally *t = &c->mce;
	char list[200], hex[24];
	int i;

	clock_out(j, c);
	json_str(j, "throttled_cpus", vitals_cpu_throttled(c) ?
		 vitals_cpu_throttled_list(c, list, sizeof(list)) : NULL);
	json_array(j, "throttle");
	for (i = 0; i < c->nthrottle; i++) {
		const struct vitals_throttle *h = &c->throttle[i];

		json_begin(j, NULL);
		json_i64(j, "cpu", h->cpu);
		count(j, "core_start", h->core_start);
		count(j, "core_end", h->core_end);
		count(j, "package_start", h->pkg_start);
		count(j, "package_end", h->pkg_end);
		json_end(j);
	}
	json_array_end(j);
	json_end(j);
	json_begin(j, "machine_checks");
	json_u64(j, "corrected", t->corrected);
	json_u64(j, "uncorrected", t->uncorrected);
	json_u64(j, "events_logged", t->logged);
	json_u64(j, "banks_not_kept", t->unkept);
	json_array(j, "banks");
	for (i = 0; i < t->nbanks; i++) {
		const struct mce_bank *b = &t->banks[i];

		json_begin(j, NULL);
		json_i64(j, "cpu", b->cpu);
		json_i64(j, "bank", b->bank);
		json_bool(j, "uncorrected", b->uncorrected);
		json_bool(j, "context_corrupt", b->pcc);
		json_u64(j, "count", b->n);
		snprintf(hex, sizeof(hex), "%016llx",
			 (unsigned long long)b->status);
		json_str(j, "first_status", hex);
		json_end(j);
	}
	json_array_end(j);
	json_end(j);
}

static unsigned khz_of(node *n, const char *key)
{
	double v = jsonread_num(n, key, 0);

	return v > 0 && v < 1e6 ? (unsigned)(v * 1000 + 0.5) : 0;
}

static int read_throttle(node *arr, struct vitals_cpu *c)
{
	size_t i, n = jsonread_count(arr);

	c->throttle = calloc(n + 1, sizeof(*c->throttle));
	if (!c->throttle)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		node *h = jsonread_at(arr, i);
		struct vitals_throttle *o = &c->throttle[c->nthrottle++];

		o->cpu = (int)jsonread_i64(h, "cpu", -1);
		o->core_start = (long)jsonread_i64(h, "core_start", -1);
		o->core_end = (long)jsonread_i64(h, "core_end", -1);
		o->pkg_start = (long)jsonread_i64(h, "package_start", -1);
		o->pkg_end = (long)jsonread_i64(h, "package_end", -1);
	}
	return 0;
}

static void read_mce(node *mc, struct mce_tally *t)
{
	node *arr = jsonread_get(mc, "banks");
	size_t i;

	t->corrected = (unsigned)jsonread_u64(mc, "corrected", 0);
	t->uncorrected = (unsigned)jsonread_u64(mc, "uncorrected", 0);
	t->logged = (unsigned)jsonread_u64(mc, "events_logged", 0);
	t->unkept = (unsigned)jsonread_u64(mc, "banks_not_kept", 0);
	for (i = 0; i < jsonread_count(arr) && i < MCE_BANKS; i++) {
		node *b = jsonread_at(arr, i);
		struct mce_bank *o = &t->banks[t->nbanks++];

		o->cpu = (int)jsonread_i64(b, "cpu", -1);
		o->bank = (int)jsonread_i64(b, "bank", -1);
		o->uncorrected = jsonread_bool(b, "uncorrected", 0);
		o->pcc = jsonread_bool(b, "context_corrupt", 0);
		o->n = (unsigned)jsonread_u64(b, "count", 0);
		o->status = strtoull(jsonread_str(b, "first_status", "0"),
				     NULL, 16);
	}
}

int vitals_cpu_out_read(const struct jsonread_node *m, struct vitals_cpu *c)
{
	node *cpu = jsonread_get(m, "cpu");
	node *clk = jsonread_get(cpu, "clock_mhz");

	vitals_cpu_free(c);
	c->nominal_khz = khz_of(cpu, "nominal_mhz");
	c->nominal_from = cpu_nominal_of(jsonread_str(cpu, "nominal_from",
						      NULL));
	c->khz_n = jsonread_u64(clk, "readings", 0);
	if (c->khz_n) {
		c->khz_min = khz_of(clk, "min");
		c->khz_max = khz_of(clk, "max");
		c->khz_sum = (uint64_t)(jsonread_num(clk, "avg", 0) * 1000.0 *
					(double)c->khz_n + 0.5);
	}
	read_mce(jsonread_get(m, "machine_checks"), &c->mce);
	return read_throttle(jsonread_get(cpu, "throttle"), c);
}

char *vitals_cpu_out_clock_text(const struct vitals_cpu *c, char *buf,
				size_t len)
{
	char nominal[64] = "nominal not known";

	buf[0] = 0;
	if (c->nominal_khz)
		snprintf(nominal, sizeof(nominal), "nominal %u MHz (%s)",
			 (c->nominal_khz + 500) / 1000,
			 cpu_nominal_name(c->nominal_from));
	if (c->khz_n)
		snprintf(buf, len, "CPU clock under load: %u/%.0f/%u MHz "
			     "min/avg/max, %s", (c->khz_min + 500) / 1000,
			     (double)c->khz_sum / (double)c->khz_n / 1000.0,
			     (c->khz_max + 500) / 1000, nominal);
	else if (c->nominal_khz)
		snprintf(buf, len, "CPU clock under load: not read, %s",
			     nominal);
	return buf;
}
