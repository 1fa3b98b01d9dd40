/* SPDX-License-Identifier: MIT */
/*
 * Description: the Pushgateway's text (metrics_text) of runs made by
 * hand: every gauge with its HELP and TYPE, once, before its samples;
 * every sample line in the exposition format's grammar; label values with
 * quotes, backslashes, newlines and bytes that are not UTF-8; verdicts so
 * far from the counters; temperatures only where known; the run's state.
 * And which metrics= URLs are taken.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/tap.h"
#include "base/http_url.h"
#include "lab/metrics.h"
#include "judge/record.h"
#include "results/signal.h"

static const char *const disk_families[] = {
	"kiln_disk_phase", "kiln_disk_pass", "kiln_disk_passes_made",
	"kiln_disk_state", "kiln_disk_written_bytes", "kiln_disk_read_bytes",
	"kiln_disk_throughput_megabytes_per_second",
	"kiln_disk_write_megabytes_per_second",
	"kiln_disk_verify_megabytes_per_second", "kiln_disk_io_errors",
	"kiln_disk_bad_units", "kiln_disk_temperature_celsius",
	"kiln_disk_temperature_limit_celsius", "kiln_disk_verdict",
};
static const char *const run_families[] = {
	"kiln_run_state", "kiln_run_verdict", "kiln_run_elapsed_seconds",
	"kiln_run_disks", "kiln_run_written_bytes", "kiln_run_read_bytes",
	"kiln_run_passes_made", "kiln_run_info",
};

/* Families only a disk that has it says: sda alone, in test_text. */
static int one_disk_only(const char *name)
{
	return strstr(name, "temperature") ||
	       strstr(name, "_write_megabytes") ||
	       strstr(name, "_verify_megabytes");
}

/*
 * sda's snapshot: its write ran at 500 MB/s, its verify at 250, and of
 * its two verifies the second was cut short: 1 pass made.
 */
static void snap_two_passes(struct engine_snap *s)
{
	struct engine_pass *p = calloc(3, sizeof(*p));

	if (!p)
		tap_bail("out of memory");
	p[0] = (struct engine_pass){ .pass = 1, .phase = PHASE_WRITE,
				     .complete = 1 };
	p[1] = (struct engine_pass){ .pass = 1, .phase = PHASE_VERIFY,
				     .complete = 1 };
	p[2] = (struct engine_pass){ .pass = 2, .phase = PHASE_VERIFY };
	s->passes = p;
	s->npasses = 3;
	s->totals[PHASE_VERIFY].passes = 2;
	s->totals[PHASE_WRITE].passes = 1;
	s->phase_bytes[PHASE_WRITE] = 1000000000;
	s->phase_ns[PHASE_WRITE] = 2000000000;
	s->phase_bytes[PHASE_VERIFY] = 1000000000;
	s->phase_ns[PHASE_VERIFY] = 4000000000;
}

static char *text;

static int has(const char *s)
{
	return text && strstr(text, s) != NULL;
}

/* Samples of a family: lines that start with its name and a '{' or ' '. */
static int samples(const char *name)
{
	size_t n = strlen(name);
	const char *p;
	int count = 0;

	for (p = text; p && *p; p = strchr(p, '\n') + 1) {
		if (!strncmp(p, name, n) && (p[n] == '{' || p[n] == ' '))
			count++;
		if (!strchr(p, '\n'))
			break;
	}
	return count;
}

/* HELP, then TYPE gauge, each once, then the samples all together. */
static int family_ok(const char *name)
{
	char help[128], type[128];
	const char *h, *t, *first, *p;
	size_t n = strlen(name);

	snprintf(help, sizeof(help), "# HELP %s ", name);
	snprintf(type, sizeof(type), "\n# TYPE %s gauge\n", name);
	h = strstr(text, help);
	t = strstr(text, type);
	if (!h || !t || strstr(h + 1, help) || strstr(t + 1, type) ||
	    t < h || strchr(h, '\n') != t)
		return 0;
	/* Samples follow the TYPE line directly, and none come elsewhere. */
	first = t + strlen(type);
	for (p = first; !strncmp(p, name, n) && (p[n] == '{' || p[n] == ' ');
	     p = strchr(p, '\n') + 1)
		;
	return samples(name) == 0 || p > first;
}

/* One sample line: name{label="value",...} number, in the format's grammar. */
static int sample_ok(const char *p, const char *end)
{
	char *num_end;

	if (!(isalpha((unsigned char)*p) || *p == '_' || *p == ':'))
		return 0;
	while (p < end &&
	       (isalnum((unsigned char)*p) || *p == '_' || *p == ':'))
		p++;
	if (*p == '{') {
		do {
			p++;
			if (!(isalpha((unsigned char)*p) || *p == '_'))
				return 0;
			while (isalnum((unsigned char)*p) || *p == '_')
				p++;
			if (*p++ != '=' || *p++ != '"')
				return 0;
			while (p < end && *p != '"') {
				if (*p == '\\' && !strchr("\\\"n", p[1]))
					return 0;
				p += *p == '\\' ? 2 : 1;
			}
			if (p >= end || *p++ != '"')
				return 0;
		} while (*p == ',');
		if (*p++ != '}')
			return 0;
	}
	if (*p++ != ' ')
		return 0;
	strtod(p, &num_end);
	return num_end == end && num_end > p;
}

static int all_lines_ok(void)
{
	const char *p, *nl;

	for (p = text; *p; p = nl + 1) {
		nl = strchr(p, '\n');
		if (!nl)
			return 0;
		if (*p == '#')
			continue;
		if (!sample_ok(p, nl)) {
			tap_diag("bad line: %.*s", (int)(nl - p), p);
			return 0;
		}
	}
	return 1;
}

static struct record_disk *disk(struct record *r, const char *label,
				const char *serial, const char *model,
				const char *identity)
{
	struct record_disk *d = record_add(r, label, SETTINGS_WRITE_VERIFY);

	if (!d)
		tap_bail("out of memory");
	snprintf(d->label, sizeof(d->label), "%s", label);
	snprintf(d->t.id.serial, sizeof(d->t.id.serial), "%s", serial);
	snprintf(d->t.id.model, sizeof(d->t.id.model), "%s", model);
	snprintf(d->t.id.identity, sizeof(d->t.id.identity), "%s", identity);
	return d;
}

static void test_urls(void)
{
	struct http_url url;
	char err[256];

	tap_ok(http_url_parse("http://127.0.0.1:9091/", &url, err,
				 sizeof(err)) == 0 &&
	       http_url_parse("http://lab", &url, err, sizeof(err)) == 0 &&
	       http_url_parse("http://[::1]:9091/gw/", &url, err,
				 sizeof(err)) == 0,
	       "url: http://HOST[:PORT][/PATH] is taken");
	err[0] = 0;
	tap_ok(http_url_parse("https://gw:pw@lab:9091/", &url, err,
			      sizeof(err)) == 0 && url.tls && url.has_user,
	       "url: https with a user part is taken (through curl): %s", err);
	tap_ok(http_url_parse("lab:9091", &url, err, sizeof(err)) == -EINVAL &&
	       http_url_parse("", &url, err, sizeof(err)) == -EINVAL &&
	       http_url_parse("http://", &url, err, sizeof(err)) == -EINVAL,
	       "url: no scheme, nothing, or no host is refused");
}

static void test_text(void)
{
	struct engine_counters c[2] = {
		{ .state = STATE_RUNNING, .phase = PHASE_VERIFY, .pass = 2,
		  .bytes_written = 1ull << 40, .bytes_read = 123,
		  .io_errors = 1 },
		{ .state = STATE_RUNNING, .phase = PHASE_WRITE, .pass = 1,
		  .bytes_written = 4096 },
	};
	struct monitor_target mt[2] = { { .rate = 512.25 }, { .rate = NAN } };
	struct settings s;
	struct record r;
	size_t len, i;

	settings_defaults(&s, SCOPE_BURN);
	record_init(&r, "run", 0, NULL, &s);
	r.run_id = 0xfeedull;
	r.elapsed_ns = 90500000000ull;
	disk(&r, "sda", "S\"1\\2", "M\nX", "serial:\xc3\xa9\xff!");
	disk(&r, "sdb", "B2", "Model B", "wwn:0x5000c500a1b2c3d4");
	r.disks[0].mt = &mt[0];
	r.disks[1].mt = &mt[1];
	r.disks[0].sig.limit = 60;
	r.disks[0].sig.temp_last = 41;
	snap_two_passes(&r.disks[0].snap);
	signals_judge(&r, 0, 0);

	text = metrics_text(&r, c, &len);
	if (!tap_ok(text && len == strlen(text) && len && text[len - 1] == '\n',
		    "text: made, lines ended"))
		tap_bail("no text");
	for (i = 0; i < sizeof(disk_families) / sizeof(disk_families[0]); i++)
		if (!tap_ok(family_ok(disk_families[i]) &&
			    samples(disk_families[i]) ==
			    (one_disk_only(disk_families[i]) ? 1 : 2),
			    "text: %s: HELP, TYPE gauge, a sample a disk",
			    disk_families[i]))
			tap_diag("%s", text);
	for (i = 0; i < sizeof(run_families) / sizeof(run_families[0]); i++)
		tap_ok(family_ok(run_families[i]) &&
		       samples(run_families[i]) == 1,
		       "text: %s: HELP, TYPE gauge, one sample",
		       run_families[i]);
	tap_ok(all_lines_ok(), "text: every sample line is in the grammar");
	tap_ok(has("kiln_disk_phase{disk=\"sda\",serial=\"S\\\"1\\\\2\","
		   "model=\"M\\nX\",identity=\"serial:\xc3\xa9\\\\xff!\"} 3\n"),
	       "text: quotes, backslashes, newlines escaped; UTF-8 kept, "
	       "other bytes the text \\xNN, as fleet writes them: names "
	       "that differ stay apart");
	tap_ok(has("kiln_disk_written_bytes{disk=\"sda\",") &&
	       has("} 1099511627776\n") &&
	       has("kiln_disk_pass{disk=\"sda\",") && has("} 2\n"),
	       "text: bytes whole, the pass");
	tap_ok(has("kiln_disk_throughput_megabytes_per_second{disk=\"sda\"") &&
	       has("} 512.250\n") &&
	       has("kiln_disk_throughput_megabytes_per_second{disk=\"sdb\","
		   "serial=\"B2\",model=\"Model B\",identity=\"wwn:"
		   "0x5000c500a1b2c3d4\"} 0.000\n"),
	       "text: MB/s of the last interval, 0 when not known");
	tap_ok(has("kiln_disk_passes_made{disk=\"sda\",serial=\"S\\\"1\\\\2"
		   "\",model=\"M\\nX\",identity=\"serial:\xc3\xa9\\\\xff!\"} "
		   "1\n") &&
	       has("kiln_disk_passes_made{disk=\"sdb\",serial=\"B2\",model="
		   "\"Model B\",identity=\"wwn:0x5000c500a1b2c3d4\"} 0\n") &&
	       has("kiln_run_passes_made 0\n") &&
	       has("kiln_run_written_bytes 1099511631872\n") &&
	       has("kiln_run_read_bytes 123\n"),
	       "text: passes made whole (one cut short is not), bytes for "
	       "the machine, its fewest passes");
	tap_ok(has("kiln_disk_write_megabytes_per_second{disk=\"sda\",") &&
	       has("} 500.000\n") &&
	       has("kiln_disk_verify_megabytes_per_second{disk=\"sda\",") &&
	       has("} 250.000\n"),
	       "text: each phase's average, as the table says it");
	tap_ok(has("kiln_disk_temperature_celsius{disk=\"sda\",") &&
	       has("} 41.0\n") &&
	       !has("kiln_disk_temperature_celsius{disk=\"sdb\""),
	       "text: a temperature only where it is known");
	tap_ok(has("kiln_disk_verdict{disk=\"sdb\",serial=\"B2\",model=\"Model "
		   "B\",identity=\"wwn:0x5000c500a1b2c3d4\"} 0\n") &&
	       has("kiln_disk_verdict{disk=\"sda\"") &&
	       has("identity=\"serial:\xc3\xa9\\\\xff!\"} 2\nkiln_disk_verdict") &&
	       has("kiln_run_verdict 2\n"),
	       "text: an I/O error fails the disk and the run at once");
	tap_ok(has("kiln_run_state 0\n") && has("kiln_run_disks 2\n") &&
	       has("kiln_run_elapsed_seconds 90.500\n") &&
	       has("kiln_run_info{run_id=\"000000000000feed\",command=\"run\","
		   "version=\"test\"} 1\n"),
	       "text: the run: running, its disks, elapsed time, id");
	free(text);

	/* Its last interval is after it ended: the averages say it. */
	c[0].state = STATE_DONE;
	text = metrics_text(&r, c, &len);
	tap_ok(text && has("kiln_disk_throughput_megabytes_per_second{disk="
			   "\"sda\",serial=\"S\\\"1\\\\2\",model=\"M\\nX\","
			   "identity=\"serial:\xc3\xa9\\\\xff!\"} 0.000\n") &&
	       !has("} 512.250\n"),
	       "text: a disk done moves 0 MB/s, not its last interval's");
	free(text);

	r.state = RECORD_COMPLETE;
	r.disks[0].sig.temp_last = VITALS_NONE;
	text = metrics_text(&r, NULL, &len);
	tap_ok(text && has("kiln_run_state 1\n") &&
	       has("kiln_run_verdict 0\n") &&
	       family_ok("kiln_disk_temperature_celsius") &&
	       !samples("kiln_disk_temperature_celsius") &&
	       samples("kiln_disk_phase") == 2,
	       "text: without counters the snapshots, without temperatures "
	       "none; complete");
	free(text);
	r.disks[1].sig.temp_last = 38;
	r.disks[1].sig.limit = 55;
	text = metrics_text(&r, NULL, &len);
	tap_ok(text && samples("kiln_disk_temperature_celsius") == 1 &&
	       has("kiln_disk_temperature_celsius{disk=\"sdb\",") &&
	       has("} 38.0\n"),
	       "text: the temperature is the vitals' latest (the signal's gauge)");
	tap_ok(text && samples("kiln_disk_temperature_limit_celsius") == 2 &&
	       has("kiln_disk_temperature_limit_celsius{disk=\"sdb\",serial="
		   "\"B2\",model=\"Model B\",identity=\"wwn:0x5000c500a1b2c3d4"
		   "\"} 55\n"),
	       "text: a disk's temperature limit, with its temperature's "
	       "labels (an alert compares the two)");
	free(text);
	r.disks[1].sig.temp_last = VITALS_NONE;
	r.disks[1].sig.limit = VITALS_NONE;
	r.state = RECORD_INTERRUPTED;
	text = metrics_text(&r, NULL, &len);
	tap_ok(text && has("kiln_run_state 2\n"), "text: interrupted");
	free(text);
	text = NULL;

	for (i = 0; i < (size_t)r.n; i++)
		r.disks[i].mt = NULL;
	record_free(&r);
	settings_free(&s);
}

int main(int argc, char **argv)
{
	tap_args(argc, argv);
	TAP_RUN(test_urls);
	TAP_RUN(test_text);
	return tap_done();
}
